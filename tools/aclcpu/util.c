/*
 * util.c - errors, arena, growable arrays, number parsing, files.
 *
 * DESIGN: the command is short-lived and single-threaded. A loaded profile
 * lives in one arena and dies with it; temporary arrays use grow() and
 * free(). Running out of memory ends the program with a message: there is
 * nothing useful a half-loaded profile could still print.
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool err_set(struct cli_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
    va_end(ap);
    return false;
}

bool err_at(struct cli_error *err, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    int off;
    if (line > 0 && col > 0)
        off = snprintf(err->msg, sizeof(err->msg), "%s:%d:%d: ", file, line, col);
    else if (line > 0)
        off = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", file, line);
    else
        off = snprintf(err->msg, sizeof(err->msg), "%s: ", file);
    if (off < 0 || (size_t)off >= sizeof(err->msg))
        return false;
    va_start(ap, fmt);
    vsnprintf(err->msg + off, sizeof(err->msg) - (size_t)off, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- memory ------------------------------------------------------------------- */

static void out_of_memory(size_t size)
{
    fprintf(stderr, "aclcpu: error: out of memory (asked for %zu bytes)\n", size);
    exit(EXIT_USAGE);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL)
        out_of_memory(n * size);
    return p;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void *grow(void *items, size_t *cap, size_t count, size_t elem)
{
    size_t ncap;
    void *p;
    if (count < *cap)
        return items;
    ncap = *cap ? *cap : 16;
    while (ncap <= count) {
        if (ncap > SIZE_MAX / 2 / elem)
            out_of_memory(SIZE_MAX);
        ncap *= 2;
    }
    p = realloc(items, ncap * elem);
    if (p == NULL)
        out_of_memory(ncap * elem);
    *cap = ncap;
    return p;
}

void sort_items(void *items, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(items, n, size, cmp);
}

struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
};

#define ARENA_BLOCK (64u * 1024u)

void *arena_alloc(struct arena *a, size_t size)
{
    struct arena_block *b = a->blocks;
    size_t need = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    void *p;
    if (b == NULL || b->size - b->used < need) {
        size_t bytes = need > ARENA_BLOCK ? need : ARENA_BLOCK;
        b = xmalloc(sizeof(*b) + bytes);
        b->used = 0;
        b->size = bytes;
        b->next = a->blocks;
        a->blocks = b;
    }
    p = (char *)b->data + b->used;
    b->used += need;
    return memset(p, 0, size);
}

void *arena_memdup(struct arena *a, const void *p, size_t size)
{
    return size ? memcpy(arena_alloc(a, size), p, size) : arena_alloc(a, 1);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *arena_strdup(struct arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

void arena_free(struct arena *a)
{
    while (a->blocks != NULL) {
        struct arena_block *next = a->blocks->next;
        free(a->blocks);
        a->blocks = next;
    }
}

/* ---- numbers and strings ------------------------------------------------------ */

/* Adds the fraction digits of s (after the point) to *ns, rounding at the
 * fourth; returns where the digits end. */
static const char *parse_fraction(const char *s, int64_t *ns)
{
    static const int64_t place[3] = {100, 10, 1};
    for (int i = 0; *s >= '0' && *s <= '9'; s++, i++) {
        if (i < 3)
            *ns += (*s - '0') * place[i];
        else if (i == 3 && *s >= '5')
            *ns += 1;
    }
    return s;
}

bool parse_us_ns(const char *s, int64_t *ns)
{
    bool neg = false, digits = false;
    int64_t us = 0;
    if (*s == '-' || *s == '+')
        neg = *s++ == '-';
    for (; *s >= '0' && *s <= '9'; s++, digits = true) {
        if (us > (INT64_MAX / 1000 - 9) / 10)
            return false;
        us = us * 10 + (*s - '0');
    }
    *ns = us * 1000;
    if (*s == '.') {
        digits = digits || (s[1] >= '0' && s[1] <= '9');
        s = parse_fraction(s + 1, ns);
    }
    if (!digits || *s != '\0')
        return false;
    if (neg)
        *ns = -*ns;
    return true;
}

bool parse_double(const char *s, double *v)
{
    char *end;
    if (*s == '\0')
        return false;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && errno == 0 && *v == *v;
}

bool parse_long(const char *s, long *v)
{
    char *end;
    if (*s == '\0')
        return false;
    errno = 0;
    *v = strtol(s, &end, 10);
    return *end == '\0' && errno == 0;
}

bool str_is_na(const char *s) { return s[0] == '\0' || strcmp(s, "N/A") == 0 || strcmp(s, "NA") == 0; }
bool str_eq(const char *a, const char *b) { return strcmp(a, b) == 0; }
bool str_starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

void append(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;
    if (used + 1 >= n)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

/* ---- files --------------------------------------------------------------------- */

char *read_file(const char *path, size_t *len, struct cli_error *err)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 0, n = 0, got;
    char *buf = NULL;
    if (f == NULL) {
        err_at(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    do {
        buf = grow(buf, &cap, n + 65536, 1);
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        err_at(err, path, 0, 0, "read error: %s", strerror(errno));
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

bool path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool path_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool path_join(char *out, size_t n, const char *dir, const char *name)
{
    int w = snprintf(out, n, "%s/%s", dir, name);
    return w >= 0 && (size_t)w < n;
}
