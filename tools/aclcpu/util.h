/*
 * util.h - what every module of the aclcpu command shares: the error that
 * carries "file:line:column: what is wrong" up to main, an arena for the
 * loaded profile, growable arrays, and exact parsing of µs values.
 */
#ifndef ACLCPU_CLI_UTIL_H
#define ACLCPU_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CLI_PRINTF(f, a)
#endif

#define CLI_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes of every subcommand. */
enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

/*
 * An input or usage error: one line, already naming the place
 * ("prof/kernel_details.csv:3:25: ..."). Loaders fill it and return false;
 * main prints it and exits 2.
 */
struct cli_error {
    char msg[1024];
};

bool err_set(struct cli_error *err, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Sets "file:line:col: message" (line or col 0 leave that part out). */
bool err_at(struct cli_error *err, const char *file, int line, int col, const char *fmt, ...) CLI_PRINTF(5, 6);

/* ---- arena: everything a loaded profile owns, freed at once ---------------- */

struct arena {
    struct arena_block *blocks;
};

void *arena_alloc(struct arena *a, size_t size);  /* zeroed; aborts when memory runs out */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void *arena_memdup(struct arena *a, const void *p, size_t size);
void arena_free(struct arena *a);

/* ---- growable arrays --------------------------------------------------------- */

/* Makes room for one more element in *items (count used, *cap allocated). */
void *grow(void *items, size_t *cap, size_t count, size_t elem);
#define VEC_PUSH(items, count, cap) \
    ((items) = grow((items), &(cap), (count), sizeof(*(items))), &(items)[(count)++])

/* qsort that accepts an empty (even NULL) array. */
void sort_items(void *items, size_t n, size_t size, int (*cmp)(const void *, const void *));

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);

/* ---- text ---------------------------------------------------------------------- */

/* Parses a decimal number of µs ("123.456", "-1", "1704161511420306.491")
 * into integer nanoseconds exactly (no double rounding at epoch-sized
 * values); digits past the third decimal are rounded. */
bool parse_us_ns(const char *s, int64_t *ns);
/* Whole-string conversions; false when s is not one number. */
bool parse_double(const char *s, double *v);
bool parse_long(const char *s, long *v);
bool str_is_na(const char *s); /* "N/A", "NA", "" (a value the file does not know) */
bool str_eq(const char *a, const char *b);
bool str_starts(const char *s, const char *prefix);

/* Appends printf output to the string in buf (size n), truncating. */
void append(char *buf, size_t n, const char *fmt, ...) CLI_PRINTF(3, 4);

/* Reads a whole file; NULL and err set when it cannot. */
char *read_file(const char *path, size_t *len, struct cli_error *err);
bool path_is_dir(const char *path);
bool path_is_file(const char *path);
/* dir + "/" + name into out (size n); false when it does not fit. */
bool path_join(char *out, size_t n, const char *dir, const char *name);

#endif
