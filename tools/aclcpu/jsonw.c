/*
 * jsonw.c - an indenting JSON writer.
 *
 * DESIGN: a stack of "is this the first item at this level" flags gives
 * commas and indentation; nothing is buffered. Strings are escaped per
 * RFC 8259 (control characters as \u00XX); bytes above 0x7F pass through,
 * so UTF-8 names stay readable.
 */
#include "jsonw.h"

#include <math.h>

void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void indent(struct jw *w)
{
    fputc('\n', w->f);
    for (int i = 0; i < w->depth; i++)
        fputs("  ", w->f);
}

/* Comma, newline, indentation and "key": for the next item. */
static void item(struct jw *w, const char *key)
{
    if (!w->first[w->depth])
        fputc(',', w->f);
    w->first[w->depth] = false;
    indent(w);
    if (key != NULL) {
        json_write_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_level(struct jw *w, const char *key, char opener, char closer)
{
    if (w->depth > 0)
        item(w, key);
    fputc(opener, w->f);
    if (w->depth + 1 < JW_MAX_DEPTH)
        w->depth++;
    w->first[w->depth] = true;
    w->closer[w->depth] = closer;
}

void jw_begin(struct jw *w, FILE *f)
{
    w->f = f;
    w->depth = 0;
    open_level(w, NULL, '{', '}');
}

void jw_end(struct jw *w)
{
    char closer = w->closer[w->depth];
    bool empty = w->first[w->depth];
    w->depth--;
    if (!empty)
        indent(w);
    fputc(closer, w->f);
}

void jw_finish(struct jw *w)
{
    while (w->depth > 0)
        jw_end(w);
    fputc('\n', w->f);
}

void jw_object(struct jw *w, const char *key) { open_level(w, key, '{', '}'); }
void jw_array(struct jw *w, const char *key) { open_level(w, key, '[', ']'); }

void jw_str(struct jw *w, const char *key, const char *value)
{
    item(w, key);
    if (value == NULL)
        fputs("null", w->f);
    else
        json_write_string(w->f, value);
}

void jw_int(struct jw *w, const char *key, long long value)
{
    item(w, key);
    fprintf(w->f, "%lld", value);
}

void jw_fixed(struct jw *w, const char *key, double value, int decimals)
{
    item(w, key);
    if (!isfinite(value))
        fputs("null", w->f);
    else
        fprintf(w->f, "%.*f", decimals, fabs(value) < 0.5 * pow(10, -decimals) ? 0.0 : value);
}

void jw_us(struct jw *w, const char *key, double us) { jw_fixed(w, key, us, 3); }

void jw_bool(struct jw *w, const char *key, bool value)
{
    item(w, key);
    fputs(value ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
    item(w, key);
    fputs("null", w->f);
}
