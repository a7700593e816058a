/*
 * fuzz_pool.c - the fuzzer's handle pools and argument draws.
 *
 * Each handle type has a list of live handles (made by a successful create
 * call) and of dead ones (destroyed, or gone with their context or device).
 * A draw takes a live handle most of the time and otherwise one the API
 * must refuse: destroyed, NULL, foreign, garbage or interior. Every draw
 * appends what it drew to the call's trace line, so a failing call prints
 * as "aclrtRecordEvent(event#3, dead stream#7)".
 *
 * Threads: both calling threads; one mutex guards the pools.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"

enum { POOL_CAP = 256 };

struct pool {
    void *live[POOL_CAP];
    size_t size[POOL_CAP]; /* bytes, for memory */
    int nlive;
    void *dead[POOL_CAP];
    int ndead, dead_next;
    uint32_t made; /* serial numbers for the trace */
};

static struct pool pools[FZ_TYPE_COUNT];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
/* Blocks for async work: allocated once, freed only at the end. */
static void *stable[4];
static size_t stable_size[4];
static int nstable;

static const char *const type_names[FZ_TYPE_COUNT] = {
    "stream", "event", "notify", "context", "model", "taskgrp", "binary", "binhandle",
    "func", "args", "param", "devmem", "hostmem", "streamcfg", "profcfg", "stamp", "vaddr", "phys"};

static int is_raw(enum fz_type t) { return t == FZ_STREAMCFG; }

unsigned char *fz_host_buf;

uint64_t fz_rand(struct fz *f)
{
    f->rng ^= f->rng >> 12;
    f->rng ^= f->rng << 25;
    f->rng ^= f->rng >> 27;
    return f->rng * 2685821657736338717ull;
}

uint32_t fz_below(struct fz *f, uint32_t n) { return n == 0 ? 0 : (uint32_t)(fz_rand(f) % n); }

int fz_chance(struct fz *f, int percent) { return (int)fz_below(f, 100) < percent; }

void fz_note(struct fz *f, const char *fmt, ...)
{
    enum { LINE = 256 };
    va_list ap;
    int n;
    if (f->len + 3 >= LINE)
        return;
    if (f->line[f->len - 1] != '(')
        f->line[f->len++] = ',', f->line[f->len++] = ' ';
    va_start(ap, fmt);
    n = vsnprintf(f->line + f->len, LINE - f->len, fmt, ap);
    va_end(ap);
    f->len = n < 0 ? f->len : f->len + (size_t)n >= LINE ? LINE - 1 : f->len + (size_t)n;
}

static void *pick_live_locked(struct fz *f, enum fz_type t, size_t *size)
{
    struct pool *p = &pools[t];
    int i;
    if (p->nlive == 0)
        return NULL;
    i = (int)fz_below(f, (uint32_t)p->nlive);
    if (size)
        *size = p->size[i];
    return p->live[i];
}

void *fz_live(struct fz *f, enum fz_type t)
{
    void *h;
    pthread_mutex_lock(&pool_lock);
    h = pick_live_locked(f, t, NULL);
    pthread_mutex_unlock(&pool_lock);
    fz_note(f, "%s %p", type_names[t], h);
    return h;
}

/* Another type's live handle (a stream where an event belongs). */
static void *foreign_locked(struct fz *f, enum fz_type t)
{
    for (int tries = 0; tries < 4; tries++) {
        enum fz_type o = (enum fz_type)fz_below(f, FZ_TYPE_COUNT);
        if (o != t && !is_raw(o) && pools[o].nlive > 0)
            return pick_live_locked(f, o, NULL);
    }
    return NULL;
}

void *fz_handle(struct fz *f, enum fz_type t)
{
    uint32_t roll = fz_below(f, 100);
    struct pool *p = &pools[t];
    const char *how = "live";
    void *h = NULL;

    pthread_mutex_lock(&pool_lock);
    if (is_raw(t) && roll >= 55)
        roll = roll < 90 ? 0 : 70; /* live or NULL only */
    if (roll < 62) {
        h = pick_live_locked(f, t, NULL);
    } else if (roll < 74) {
        how = "dead";
        h = p->ndead ? p->dead[fz_below(f, (uint32_t)p->ndead)] : NULL;
    } else if (roll < 80) {
        how = "NULL";
    } else if (roll < 88) {
        how = "foreign";
        h = foreign_locked(f, t);
    } else if (roll < 95) {
        /* Garbage: a live handle with one bit flipped, or any value. */
        void *l = pick_live_locked(f, t, NULL);
        how = "garbage";
        h = l && fz_chance(f, 60) ? (void *)((uintptr_t)l ^ ((uintptr_t)1 << fz_below(f, 63)))
                                  : (void *)(uintptr_t)fz_rand(f);
    } else {
        void *l = pick_live_locked(f, t, NULL);
        how = "interior";
        h = l ? (char *)l + 1 + fz_below(f, 64) : NULL;
    }
    pthread_mutex_unlock(&pool_lock);
    fz_note(f, "%s %s %p", how, type_names[t], h);
    return h;
}

void *fz_out(struct fz *f, void *slot)
{
    if (fz_chance(f, 6)) {
        fz_note(f, "out NULL");
        return NULL;
    }
    fz_note(f, "&out");
    return slot;
}

int64_t fz_int(struct fz *f, const int64_t *vals, int n)
{
    static const int64_t edges[] = {-1, 0, 1, INT32_MAX, INT32_MIN, UINT32_MAX, INT64_MAX};
    int64_t v = fz_chance(f, 90) ? vals[fz_below(f, (uint32_t)n)] : edges[fz_below(f, 7)];
    fz_note(f, "%lld", (long long)v);
    return v;
}

int64_t fz_pick(struct fz *f, const int64_t *vals, int n)
{
    int64_t v = vals[fz_below(f, (uint32_t)n)];
    fz_note(f, "%lld", (long long)v);
    return v;
}

int32_t fz_enum(struct fz *f, int32_t lo, int32_t hi)
{
    uint32_t roll = fz_below(f, 100);
    int32_t v = roll < 85   ? lo + (int32_t)fz_below(f, (uint32_t)(hi - lo + 1))
                : roll < 92 ? (fz_chance(f, 50) ? lo - 1 : hi + 1)
                : roll < 96 ? -1
                            : (int32_t)fz_rand(f);
    fz_note(f, "%d", v);
    return v;
}

size_t fz_size(struct fz *f)
{
    static const size_t sizes[] = {0, 1, 7, 32, 64, 100, 4096, 65536, 1 << 20, (size_t)1 << 31, (size_t)1 << 40,
                                   SIZE_MAX, SIZE_MAX - 40, SIZE_MAX / 2 + 1};
    size_t s = fz_chance(f, 80) ? sizes[fz_below(f, 8)] : sizes[fz_below(f, sizeof(sizes) / sizeof(sizes[0]))];
    fz_note(f, "%zu", s);
    return s;
}

int32_t fz_timeout(struct fz *f, int allow_forever)
{
    static const int32_t t[] = {0, 1, 5, 20, -1, -2, INT32_MIN, 100};
    int32_t v = t[fz_below(f, allow_forever ? 8 : 4)];
    if (!allow_forever && fz_chance(f, 20))
        v = fz_chance(f, 50) ? -2 : INT32_MIN;
    fz_note(f, "timeout %d", v);
    return v;
}

aclrtFuncHandle fz_func(struct fz *f) { return fz_handle(f, FZ_FUNC); }

void *fz_dev_ptr(struct fz *f, size_t count, int pool_ok)
{
    uint32_t roll = fz_below(f, 100);
    void *p = NULL;
    size_t size = 0;
    const char *how = "stable";

    pthread_mutex_lock(&pool_lock);
    if (roll < 45 || !pool_ok) {
        int i = (int)fz_below(f, (uint32_t)nstable);
        p = nstable ? stable[i] : NULL;
        size = nstable ? stable_size[i] : 0;
        if (roll >= 80 && p != NULL && size > count) /* interior, in bounds or not */
            p = (char *)p + fz_below(f, (uint32_t)size), how = "stable+";
    } else if (roll < 75) {
        how = "devmem";
        p = pick_live_locked(f, FZ_DEVMEM, &size);
    } else if (roll < 82) {
        how = "dead devmem";
        p = pools[FZ_DEVMEM].ndead ? pools[FZ_DEVMEM].dead[fz_below(f, (uint32_t)pools[FZ_DEVMEM].ndead)] : NULL;
    } else if (roll < 88) {
        how = "host (as device)";
        p = fz_host_buf;
    } else if (roll < 94) {
        how = "garbage";
        p = (void *)(uintptr_t)(fz_rand(f) | 1);
    } else {
        how = "NULL";
    }
    pthread_mutex_unlock(&pool_lock);
    fz_note(f, "%s %p", how, p);
    return p;
}

void *fz_host_ptr(struct fz *f, size_t count, int pool_ok)
{
    void *p = fz_host_buf;
    size_t size = FZ_HOST_BYTES;
    const char *how = "host";
    if (fz_chance(f, 5)) {
        fz_note(f, "NULL");
        return NULL;
    }
    if (pool_ok && fz_chance(f, 30)) {
        pthread_mutex_lock(&pool_lock);
        void *h = pick_live_locked(f, FZ_HOSTMEM, &size);
        pthread_mutex_unlock(&pool_lock);
        if (h != NULL && size >= count)
            p = h, how = "hostmem";
        else
            size = FZ_HOST_BYTES;
    }
    (void)size;
    fz_note(f, "%s %p", how, p);
    return p;
}

void fz_keep(enum fz_type t, void *h, size_t size)
{
    struct pool *p = &pools[t];
    pthread_mutex_lock(&pool_lock);
    if (p->nlive < POOL_CAP) {
        p->size[p->nlive] = size;
        p->live[p->nlive++] = h;
    }
    p->made++;
    pthread_mutex_unlock(&pool_lock);
}

static void bury_locked(struct pool *p, void *h)
{
    p->dead[p->dead_next] = h;
    p->dead_next = (p->dead_next + 1) % POOL_CAP;
    if (p->ndead < POOL_CAP)
        p->ndead++;
}

void fz_drop(enum fz_type t, void *h)
{
    struct pool *p = &pools[t];
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < p->nlive; i++) {
        if (p->live[i] == h) {
            p->live[i] = p->live[--p->nlive];
            p->size[i] = p->size[p->nlive];
            bury_locked(p, h);
            break;
        }
    }
    pthread_mutex_unlock(&pool_lock);
}

void fz_drop_all(enum fz_type t)
{
    struct pool *p = &pools[t];
    pthread_mutex_lock(&pool_lock);
    while (p->nlive > 0)
        bury_locked(p, p->live[--p->nlive]);
    pthread_mutex_unlock(&pool_lock);
}

int fz_full(enum fz_type t)
{
    int full;
    pthread_mutex_lock(&pool_lock);
    full = pools[t].nlive >= POOL_CAP;
    pthread_mutex_unlock(&pool_lock);
    return full;
}

int fz_is_stable(const void *p)
{
    for (int i = 0; i < nstable; i++)
        if (stable[i] == p)
            return 1;
    return 0;
}

void fz_stable_add(void *dev, size_t size)
{
    if (nstable < 4) {
        stable[nstable] = dev;
        stable_size[nstable++] = size;
    }
}

/* The live list of t, for the end of a run (the child frees what the API
 * does not free by itself). */
int fz_take_live(enum fz_type t, void **out, int cap)
{
    int n = 0;
    pthread_mutex_lock(&pool_lock);
    while (pools[t].nlive > 0 && n < cap)
        out[n++] = pools[t].live[--pools[t].nlive];
    pthread_mutex_unlock(&pool_lock);
    return n;
}

void fz_begin(struct fz *f, const char *name)
{
    int n = snprintf(f->line, 256, "T%d #%llu %s(", f->tid, (unsigned long long)f->call, name);
    f->len = n < 0 ? 0 : (size_t)n;
}
