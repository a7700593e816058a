/*
 * jsonw.h - writes the --json form of every subcommand's output.
 *
 * Calls nest like the document: jw_object(w, "key") ... jw_end(w). Inside
 * an array pass NULL as the key. Numbers that are times are written with
 * three decimals (µs to the ns), like the profile files.
 */
#ifndef ACLCPU_CLI_JSONW_H
#define ACLCPU_CLI_JSONW_H

#include "util.h"

#define JW_MAX_DEPTH 32

struct jw {
    FILE *f;
    int depth;
    bool first[JW_MAX_DEPTH]; /* nothing written yet at this level */
    char closer[JW_MAX_DEPTH];
};

void jw_begin(struct jw *w, FILE *f); /* opens the top-level object */
void jw_finish(struct jw *w);         /* closes it and ends the line */

void jw_object(struct jw *w, const char *key);
void jw_array(struct jw *w, const char *key);
void jw_end(struct jw *w);

void jw_str(struct jw *w, const char *key, const char *value); /* NULL writes null */
void jw_int(struct jw *w, const char *key, long long value);
void jw_fixed(struct jw *w, const char *key, double value, int decimals);
void jw_us(struct jw *w, const char *key, double us); /* 3 decimals */
void jw_bool(struct jw *w, const char *key, bool value);
void jw_null(struct jw *w, const char *key);

/* Writes s as a JSON string literal (quotes included). */
void json_write_string(FILE *f, const char *s);

#endif
