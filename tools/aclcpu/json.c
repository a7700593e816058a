/*
 * json.c - recursive-descent JSON parser into an arena-backed tree.
 *
 * DESIGN: the whole file is parsed into a tree whose nodes and strings
 * live in one arena. Children of an array or object are first collected
 * on a scratch stack shared by all levels, then copied into the arena as
 * one block when the container closes, so every container is a plain
 * array. Nodes keep their byte offset; line and column are computed only
 * when something must be reported. Nesting deeper than JSON_MAX_DEPTH is
 * refused rather than risking the C stack. A file that ends inside a
 * container names the container that was left open: that is what a
 * truncated trace looks like.
 */
#include "json.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 256

struct parser {
    struct json_doc *doc;
    const char *s;
    size_t pos, len;
    int depth;
    int nopen;                   /* containers open now: where, and which */
    size_t open_off[JSON_MAX_DEPTH + 1];
    const char *open_what[JSON_MAX_DEPTH + 1];
    struct json *items;          /* scratch stack of array items */
    size_t nitems, items_cap;
    struct json_member *members; /* scratch stack of object members */
    size_t nmembers, members_cap;
    struct cli_error *err;
};

void json_where(const struct json_doc *doc, const struct json *v, int *line, int *col)
{
    size_t off = v->off;
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < doc->len; i++) {
        if (doc->text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static bool verr_at(const struct json_doc *doc, size_t off, struct cli_error *err, const char *fmt, va_list ap)
{
    struct json at = {.off = off};
    char what[768];
    int line, col;
    json_where(doc, &at, &line, &col);
    vsnprintf(what, sizeof(what), fmt, ap);
    return err_at(err, doc->path, line, col, "%s", what);
}

bool json_err(const struct json_doc *doc, const struct json *v, struct cli_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr_at(doc, v->off, err, fmt, ap);
    va_end(ap);
    return false;
}

static bool fail(struct parser *p, size_t off, const char *fmt, ...) CLI_PRINTF(3, 4);
static bool fail(struct parser *p, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr_at(p->doc, off, p->err, fmt, ap);
    va_end(ap);
    return false;
}

/* "line:col" of an offset, for messages that point back at an opener. */
static const char *where_str(struct parser *p, size_t off, char *buf, size_t n)
{
    struct json at = {.off = off};
    int line, col;
    json_where(p->doc, &at, &line, &col);
    snprintf(buf, n, "%d:%d", line, col);
    return buf;
}

const char *json_type_name(enum json_type t)
{
    static const char *const names[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return names[t];
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) != NULL && p->s[p->pos] != '\0')
        p->pos++;
}

/* What the parser sees at pos, for "found ..." in messages. */
static const char *found(struct parser *p, char *buf, size_t n)
{
    unsigned char ch;
    if (p->pos >= p->len)
        return "the end of the file";
    ch = (unsigned char)p->s[p->pos];
    if (ch < 0x20 || ch >= 0x7f)
        snprintf(buf, n, "byte 0x%02x", ch);
    else
        snprintf(buf, n, "'%c'", ch);
    return buf;
}

static bool parse_value(struct parser *p, struct json *v);

/* At the end of the file: what was left open (the file was truncated). */
static bool fail_eof(struct parser *p, const char *expected)
{
    char where[32];
    if (p->nopen == 0)
        return fail(p, p->len, "unexpected end of the file (expected %s)", expected);
    return fail(p, p->len, "unexpected end of the file (expected %s): the %s opened at %s is not closed", expected,
                p->open_what[p->nopen - 1], where_str(p, p->open_off[p->nopen - 1], where, sizeof(where)));
}

static void open_container(struct parser *p, const char *what)
{
    p->open_off[p->nopen] = p->pos;
    p->open_what[p->nopen++] = what;
}

/* ---- strings ------------------------------------------------------------------ */

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A \u escape at p->pos (after the backslash and 'u'), with a following
 * low surrogate when this is a high one. */
static bool read_unicode(struct parser *p, unsigned *cp)
{
    size_t at = p->pos - 2;
    int hi = p->pos + 4 <= p->len ? hex4(p->s + p->pos) : -1;
    if (hi < 0)
        return fail(p, at, "bad \\u escape (expected four hex digits)");
    p->pos += 4;
    *cp = (unsigned)hi;
    if (hi >= 0xD800 && hi < 0xDC00) {
        int lo = p->pos + 6 <= p->len && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u' ? hex4(p->s + p->pos + 2) : -1;
        if (lo < 0xDC00 || lo > 0xDFFF)
            return fail(p, at, "bad \\u escape (a high surrogate without its low half)");
        p->pos += 6;
        *cp = 0x10000u + (((unsigned)hi - 0xD800u) << 10) + ((unsigned)lo - 0xDC00u);
    }
    return true;
}

static bool read_escape(struct parser *p, char *out, size_t *n)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    char ch = p->pos < p->len ? p->s[p->pos] : '\0';
    const char *k = ch != '\0' ? strchr(from, ch) : NULL;
    unsigned cp = 0;
    p->pos++;
    if (k != NULL) {
        out[(*n)++] = to[k - from];
        return true;
    }
    if (ch != 'u')
        return fail(p, p->pos - 2, "bad escape '\\%c' in a string", ch);
    if (!read_unicode(p, &cp))
        return false;
    *n += put_utf8(out + *n, cp);
    return true;
}

/* A string at the quote at p->pos, decoded into the arena. */
static bool parse_string(struct parser *p, const char **str, size_t *len)
{
    size_t open = p->pos, end = open + 1, n = 0;
    char *out;
    char where[32];
    while (end < p->len && p->s[end] != '"')
        end += p->s[end] == '\\' ? 2 : 1;
    if (end >= p->len)
        return fail(p, p->len, "unexpected end of the file inside the string opened at %s",
                    where_str(p, open, where, sizeof(where)));
    out = arena_alloc(&p->doc->arena, end - open + 4);
    p->pos = open + 1;
    while (p->s[p->pos] != '"') {
        unsigned char ch = (unsigned char)p->s[p->pos];
        if (ch < 0x20)
            return fail(p, p->pos, "control character 0x%02x inside a string (it must be escaped)", ch);
        p->pos++;
        if (ch != '\\')
            out[n++] = (char)ch;
        else if (!read_escape(p, out, &n))
            return false;
    }
    p->pos++;
    out[n] = '\0';
    *str = out;
    *len = n;
    return true;
}

/* ---- numbers and literals ------------------------------------------------------- */

static size_t span_digits(struct parser *p, size_t i)
{
    while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
        i++;
    return i;
}

static bool parse_number(struct parser *p, struct json *v)
{
    size_t i = p->pos, start = p->pos, d;
    char buf[64];
    if (i < p->len && p->s[i] == '-')
        i++;
    d = span_digits(p, i);
    if (d == i || (p->s[i] == '0' && d > i + 1))
        return fail(p, start, "bad number");
    i = d;
    if (i < p->len && p->s[i] == '.') {
        d = span_digits(p, i + 1);
        if (d == i + 1)
            return fail(p, start, "bad number (no digits after the decimal point)");
        i = d;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        d = span_digits(p, i);
        if (d == i)
            return fail(p, start, "bad number (no digits in the exponent)");
        i = d;
    }
    if (i - start >= sizeof(buf))
        return fail(p, start, "number too long");
    memcpy(buf, p->s + start, i - start);
    buf[i - start] = '\0';
    v->type = JSON_NUMBER;
    v->u.number = strtod(buf, NULL);
    p->pos = i;
    return true;
}

static bool parse_literal(struct parser *p, struct json *v)
{
    static const struct { const char *word; enum json_type type; bool value; } words[] = {
        {"true", JSON_BOOL, true}, {"false", JSON_BOOL, false}, {"null", JSON_NULL, false}};
    char buf[16];
    for (size_t i = 0; i < CLI_ARRAY_SIZE(words); i++) {
        size_t n = strlen(words[i].word);
        if (p->pos + n <= p->len && memcmp(p->s + p->pos, words[i].word, n) == 0) {
            v->type = words[i].type;
            v->u.boolean = words[i].value;
            p->pos += n;
            return true;
        }
    }
    if (p->pos >= p->len)
        return fail_eof(p, "a value");
    return fail(p, p->pos, "expected a value but found %s", found(p, buf, sizeof(buf)));
}

/* ---- containers ---------------------------------------------------------------- */

/* After an item: ',' (more follow) or the closer. */
static bool after_item(struct parser *p, char closer, const char *what, size_t open, bool *more)
{
    char buf[16], where[32];
    skip_ws(p);
    if (p->pos >= p->len)
        return fail(p, p->len, "unexpected end of the file: the %s opened at %s is not closed", what,
                    where_str(p, open, where, sizeof(where)));
    if (p->s[p->pos] == ',') {
        p->pos++;
        *more = true;
        return true;
    }
    if (p->s[p->pos] == closer) {
        p->pos++;
        *more = false;
        return true;
    }
    return fail(p, p->pos, "expected ',' or '%c' in the %s opened at %s but found %s", closer, what,
                where_str(p, open, where, sizeof(where)), found(p, buf, sizeof(buf)));
}

static bool parse_array(struct parser *p, struct json *v)
{
    size_t open = p->pos, base = p->nitems;
    bool more = true;
    open_container(p, "array");
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') {
        p->pos++;
        more = false;
    }
    while (more) {
        struct json item = {0};
        if (!parse_value(p, &item))
            return false;
        *VEC_PUSH(p->items, p->nitems, p->items_cap) = item;
        if (!after_item(p, ']', "array", open, &more))
            return false;
    }
    p->nopen--;
    v->type = JSON_ARRAY;
    v->n = p->nitems - base;
    v->u.items = arena_memdup(&p->doc->arena, p->items + base, v->n * sizeof(struct json));
    p->nitems = base;
    return true;
}

static bool parse_member(struct parser *p, size_t open, struct json_member *m)
{
    char buf[16], where[32];
    size_t len;
    skip_ws(p);
    if (p->pos >= p->len)
        return fail(p, p->len, "unexpected end of the file: the object opened at %s is not closed",
                    where_str(p, open, where, sizeof(where)));
    if (p->s[p->pos] != '"')
        return fail(p, p->pos, "expected a member name (a string) but found %s", found(p, buf, sizeof(buf)));
    if (!parse_string(p, &m->key, &len))
        return false;
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':')
        return p->pos >= p->len
                   ? fail(p, p->len, "unexpected end of the file: the object opened at %s is not closed",
                          where_str(p, open, where, sizeof(where)))
                   : fail(p, p->pos, "expected ':' after the member name \"%s\" but found %s", m->key,
                          found(p, buf, sizeof(buf)));
    p->pos++;
    return parse_value(p, &m->value);
}

static bool parse_object(struct parser *p, struct json *v)
{
    size_t open = p->pos, base = p->nmembers;
    bool more = true;
    open_container(p, "object");
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') {
        p->pos++;
        more = false;
    }
    while (more) {
        struct json_member m = {0};
        if (!parse_member(p, open, &m))
            return false;
        *VEC_PUSH(p->members, p->nmembers, p->members_cap) = m;
        if (!after_item(p, '}', "object", open, &more))
            return false;
    }
    p->nopen--;
    v->type = JSON_OBJECT;
    v->n = p->nmembers - base;
    v->u.members = arena_memdup(&p->doc->arena, p->members + base, v->n * sizeof(struct json_member));
    p->nmembers = base;
    return true;
}

static bool parse_value(struct parser *p, struct json *v)
{
    bool ok;
    skip_ws(p);
    v->off = p->pos;
    if (p->pos >= p->len)
        return fail_eof(p, "a value");
    if (++p->depth > JSON_MAX_DEPTH)
        return fail(p, p->pos, "nested deeper than %d levels", JSON_MAX_DEPTH);
    switch (p->s[p->pos]) {
    case '[': ok = parse_array(p, v); break;
    case '{': ok = parse_object(p, v); break;
    case '"':
        v->type = JSON_STRING;
        ok = parse_string(p, &v->u.string, &v->n);
        break;
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        ok = parse_number(p, v);
        break;
    default: ok = parse_literal(p, v); break;
    }
    p->depth--;
    return ok;
}

bool json_parse(struct json_doc *doc, struct cli_error *err)
{
    struct parser p = {.doc = doc, .s = doc->text, .len = doc->len, .err = err};
    char buf[16];
    bool ok = parse_value(&p, &doc->root);
    if (ok) {
        skip_ws(&p);
        if (p.pos < p.len)
            ok = fail(&p, p.pos, "unexpected %s after the end of the document", found(&p, buf, sizeof(buf)));
    }
    free(p.items);
    free(p.members);
    return ok;
}

bool json_load(struct json_doc *doc, const char *path, struct cli_error *err)
{
    memset(doc, 0, sizeof(*doc));
    doc->path = path;
    doc->text = read_file(path, &doc->len, err);
    if (doc->text == NULL)
        return false;
    if (doc->len >= 3 && memcmp(doc->text, "\xEF\xBB\xBF", 3) == 0)
        memset(doc->text, ' ', 3);
    return json_parse(doc, err);
}

void json_free(struct json_doc *doc)
{
    arena_free(&doc->arena);
    free(doc->text);
    doc->text = NULL;
}

const struct json *json_get(const struct json *v, const char *key)
{
    if (v == NULL || v->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (strcmp(v->u.members[i].key, key) == 0)
            return &v->u.members[i].value;
    return NULL;
}
