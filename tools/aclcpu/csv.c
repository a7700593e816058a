/*
 * csv.c - RFC 4180 records with positions.
 *
 * DESIGN: the file is read whole and each field is unquoted in place (an
 * unquoted field is never longer than its quoted form), so a record costs
 * no allocation beyond its field array. Fields may be quoted ("a,b", "a""b");
 * records end at LF or CRLF; a UTF-8 byte-order mark is skipped. Blanks and
 * TABs around a field are trimmed, inside its quotes too: Ascend writes
 * "Start Time(us)" with a trailing TAB, bare (123.456<TAB>) or, from
 * torch_npu's writer, quoted ("123.456<TAB>"). Every field keeps its line and column so that a bad value
 * can be reported as file:line:column.
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

bool csv_open(struct csv *c, const char *path, struct cli_error *err)
{
    memset(c, 0, sizeof(*c));
    c->path = path;
    c->buf = read_file(path, &c->len, err);
    if (c->buf == NULL)
        return false;
    if (c->len >= 3 && memcmp(c->buf, "\xEF\xBB\xBF", 3) == 0)
        c->pos = c->line_start = 3;
    c->line = 1;
    return true;
}

void csv_close(struct csv *c)
{
    free(c->buf);
    free(c->fields);
    c->buf = NULL;
    c->fields = NULL;
}

static bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }
static bool at_record_end(const struct csv *c) { return c->pos >= c->len || c->buf[c->pos] == '\n' || c->buf[c->pos] == '\r'; }
static int column_of(const struct csv *c, size_t off) { return (int)(off - c->line_start) + 1; }

/* Moves past the line break at c->pos (LF or CRLF). */
static void skip_newline(struct csv *c)
{
    if (c->pos < c->len && c->buf[c->pos] == '\r')
        c->pos++;
    if (c->pos < c->len && c->buf[c->pos] == '\n')
        c->pos++;
    c->line++;
    c->line_start = c->pos;
}

/* A quoted field starting at the quote at c->pos; writes its text at out.
 * Quoted newlines are kept (and counted). */
static bool read_quoted(struct csv *c, char *out, size_t *n, struct cli_error *err)
{
    int qline = c->line, qcol = column_of(c, c->pos);
    c->pos++;
    for (;;) {
        if (c->pos >= c->len)
            return err_at(err, c->path, qline, qcol, "unterminated quoted field (the quote opened here is never closed)");
        char ch = c->buf[c->pos++];
        if (ch == '"') {
            if (c->pos < c->len && c->buf[c->pos] == '"') {
                out[(*n)++] = '"';
                c->pos++;
                continue;
            }
            break;
        }
        if (ch == '\n') {
            c->line++;
            c->line_start = c->pos;
        }
        out[(*n)++] = ch;
    }
    while (c->pos < c->len && is_blank(c->buf[c->pos]))
        c->pos++;
    if (!at_record_end(c) && c->buf[c->pos] != ',')
        return err_at(err, c->path, c->line, column_of(c, c->pos),
                      "unexpected '%c' after a closing quote (expected ',' or the end of the line)", c->buf[c->pos]);
    return true;
}

/* One field at c->pos, NUL-terminated in place; leaves c->pos at the
 * byte after it and returns what ended it (',', '\n', '\r' or '\0'),
 * or -1 on a syntax error. */
static int read_field(struct csv *c, struct csv_field *f, struct cli_error *err)
{
    size_t n = 0;
    char *out;
    char term;
    while (c->pos < c->len && is_blank(c->buf[c->pos]))
        c->pos++;
    f->line = c->line;
    f->col = column_of(c, c->pos);
    out = c->buf + c->pos;
    if (c->pos < c->len && c->buf[c->pos] == '"') {
        size_t lead = 0;
        if (!read_quoted(c, out, &n, err))
            return -1;
        while (lead < n && is_blank(out[lead]))
            lead++;
        memmove(out, out + lead, n - lead);
        n -= lead;
        while (n > 0 && is_blank(out[n - 1]))
            n--;
    } else {
        while (!at_record_end(c) && c->buf[c->pos] != ',')
            out[n++] = c->buf[c->pos++];
        while (n > 0 && is_blank(out[n - 1]))
            n--;
    }
    /* out[n] may be the terminator itself (an unquoted field with nothing
     * after it): read it before the NUL goes there. */
    term = c->pos < c->len ? c->buf[c->pos] : '\0';
    out[n] = '\0';
    f->text = out;
    return term;
}

int csv_next(struct csv *c, struct cli_error *err)
{
    int term;
    while (c->pos < c->len && (c->buf[c->pos] == '\n' || c->buf[c->pos] == '\r'))
        skip_newline(c);
    if (c->pos >= c->len)
        return 0;
    c->nfields = 0;
    do {
        struct csv_field *f = VEC_PUSH(c->fields, c->nfields, c->cap);
        term = read_field(c, f, err);
        if (term < 0)
            return -1;
        c->pos++; /* past the terminator (or past the end) */
    } while (term == ',');
    if (term == '\r' && c->pos < c->len && c->buf[c->pos] == '\n')
        c->pos++;
    c->line++;
    c->line_start = c->pos;
    return 1;
}
