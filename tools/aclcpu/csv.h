/*
 * csv.h - a CSV reader that knows where every field came from.
 */
#ifndef ACLCPU_CLI_CSV_H
#define ACLCPU_CLI_CSV_H

#include "util.h"

struct csv_field {
    const char *text; /* unquoted, surrounding blanks and TABs trimmed */
    int line, col;    /* 1-based position of the field's first character */
};

struct csv {
    const char *path;
    char *buf;                /* the whole file, rewritten in place */
    size_t len, pos;
    int line;                 /* line of buf[pos] */
    size_t line_start;        /* offset of that line's first byte */
    struct csv_field *fields; /* the current record */
    size_t nfields, cap;
};

/* Reads path; false (err set) when it cannot be read. */
bool csv_open(struct csv *c, const char *path, struct cli_error *err);
/* Next record into c->fields: 1, 0 at the end, -1 on a syntax error (err
 * names file:line:column). Blank lines are skipped. */
int csv_next(struct csv *c, struct cli_error *err);
void csv_close(struct csv *c);

#endif
