/*
 * json.h - a JSON reader (RFC 8259) that keeps where each value began.
 */
#ifndef ACLCPU_CLI_JSON_H
#define ACLCPU_CLI_JSON_H

#include "util.h"

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_member;

struct json {
    enum json_type type;
    size_t off;      /* byte offset of the value in the file */
    size_t n;        /* items, members, or the string's length */
    union {
        bool boolean;
        double number;
        const char *string;           /* NUL-terminated UTF-8 */
        struct json *items;
        struct json_member *members;
    } u;
};

struct json_member {
    const char *key;
    struct json value;
};

struct json_doc {
    const char *path;
    char *text;          /* the file */
    size_t len;
    struct arena arena;  /* every node and string */
    struct json root;
};

/* Reads and parses path; false (err names file:line:column) on failure. */
bool json_load(struct json_doc *doc, const char *path, struct cli_error *err);
/* Parses text (len bytes, NUL after them) that doc->path names. */
bool json_parse(struct json_doc *doc, struct cli_error *err);
void json_free(struct json_doc *doc);

/* The member called key of an object, or NULL (also when v is not an object). */
const struct json *json_get(const struct json *v, const char *key);
/* 1-based line and column of v in doc. */
void json_where(const struct json_doc *doc, const struct json *v, int *line, int *col);
/* err = "file:line:col: fmt..." at v. Returns false. */
bool json_err(const struct json_doc *doc, const struct json *v, struct cli_error *err, const char *fmt, ...)
    CLI_PRINTF(4, 5);
const char *json_type_name(enum json_type t);

#endif
