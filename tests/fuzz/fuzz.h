/*
 * fuzz.h - aclcpu-fuzz, the API-sequence fuzzer: what its three parts share.
 *
 * fuzz_main.c runs sequences (one forked child per seed, a watchdog, the
 * oracle's verdict), fuzz_pool.c keeps the handles every call draws its
 * arguments from and describes each draw in the call's trace line, and
 * fuzz_calls.c is the table: one entry per API function. A new API family
 * is one entry per function there (and a pool type here if it makes a new
 * kind of handle).
 */
#ifndef ACLCPU_FUZZ_H
#define ACLCPU_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <aclcpu/aclcpu.h>

/* Kinds of handle the pools hold. RAW ones are plain pointers the library
 * cannot check (a stale one would be the caller's use after free), so they
 * are drawn live or NULL only. */
enum fz_type {
    FZ_STREAM,
    FZ_EVENT,
    FZ_NOTIFY,
    FZ_CONTEXT,
    FZ_MODEL,
    FZ_TASKGRP,
    FZ_BINARY,    /* aclrtCreateBinary */
    FZ_BINHANDLE, /* aclrtBinaryLoad* */
    FZ_FUNC,
    FZ_ARGS,
    FZ_PARAM,
    FZ_DEVMEM,
    FZ_HOSTMEM,
    FZ_STREAMCFG, /* RAW */
    FZ_PROFCFG,
    FZ_STAMP,
    FZ_VADDR,     /* aclrtReserveMemAddress */
    FZ_PHYS,      /* aclrtMallocPhysical */
    FZ_TYPE_COUNT
};

/* One calling thread's state. */
struct fz {
    uint64_t rng;
    int tid;       /* 0: the main thread, 1: the second one */
    uint64_t call; /* calls made by this thread */
    char *line;    /* the current call's trace line (in the shared ring) */
    size_t len;
};

/* A table entry. Entries flagged FZ_MAIN run only on thread 0: they touch
 * memory the other thread's calls could free, or swap process state. */
enum { FZ_MAIN = 1 };
struct fz_call {
    const char *name;
    int weight;
    int flags;
    void (*run)(struct fz *f);
};
extern const struct fz_call fz_calls[];
extern const int fz_ncalls;

/* ---- random numbers (xorshift64*: the same seed, the same draws) ---- */
uint64_t fz_rand(struct fz *f);
uint32_t fz_below(struct fz *f, uint32_t n);
int fz_chance(struct fz *f, int percent);

/* ---- the trace: fz_begin opens the call's line, each draw appends ---- */
void fz_begin(struct fz *f, const char *name);
void fz_note(struct fz *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The oracle for a return code: a code errors.def does not list fails the
 * run (the child aborts with the trace). Returns rc. */
aclError fz_check(struct fz *f, aclError rc);
/* The same for the msproftx calls (aclprofMark & co.), which fail with -1. */
aclError fz_check_tx(struct fz *f, aclError rc);

/* ---- argument draws (each appends what it drew to the trace line) ---- */
/* A handle of type t: live, destroyed, NULL, foreign (another type's, or
 * one made in another context), garbage or interior. */
void *fz_handle(struct fz *f, enum fz_type t);
/* A live handle of t or NULL (none live). */
void *fz_live(struct fz *f, enum fz_type t);
/* An out-pointer: slot (mostly) or NULL. */
void *fz_out(struct fz *f, void *slot);
/* An integer: mostly one of vals, sometimes a boundary value. */
int64_t fz_int(struct fz *f, const int64_t *vals, int n);
#define FZ_INT(f, ...) fz_int((f), (const int64_t[]){__VA_ARGS__}, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
/* One of vals, never an edge: for sizes of real host buffers. */
int64_t fz_pick(struct fz *f, const int64_t *vals, int n);
#define FZ_PICK(f, ...) fz_pick((f), (const int64_t[]){__VA_ARGS__}, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
/* An enum value: lo..hi mostly, sometimes just outside or far out. */
int32_t fz_enum(struct fz *f, int32_t lo, int32_t hi);
/* A size: 0, small, page, big, and sizes that wrap when rounded. */
size_t fz_size(struct fz *f);
/* A timeout in ms: -1 (forever, where forever is bounded), 0, short, out of range. */
int32_t fz_timeout(struct fz *f, int allow_forever);
/* A registered kernel, a binary's function or a bad one. */
aclrtFuncHandle fz_func(struct fz *f);

/* Memory an argument may name. Device-side arguments that the library
 * checks may be anything; host-side ones must be real host memory (the
 * library cannot check them, and neither can the device's). */
void *fz_dev_ptr(struct fz *f, size_t count, int pool_ok);
void *fz_host_ptr(struct fz *f, size_t count, int pool_ok);
/* The host scratch buffer (FZ_HOST_BYTES, lives as long as the child). */
enum { FZ_HOST_BYTES = 1 << 20 };
extern unsigned char *fz_host_buf;

/* ---- pool updates after a call ---- */
void fz_keep(enum fz_type t, void *h, size_t size);
/* h is destroyed: it moves to the dead list (if it was live). */
void fz_drop(enum fz_type t, void *h);
/* Everything of the given types goes dead (a context or device went). */
void fz_drop_all(enum fz_type t);
/* Whether t's live list is full (a create call then makes nothing). */
int fz_full(enum fz_type t);
/* Empties t's live list into out (the end of a run frees them). */
int fz_take_live(enum fz_type t, void **out, int cap);
/* Memory blocks made at the start for async work, never freed mid-run. */
void fz_stable_add(void *dev, size_t size);
int fz_is_stable(const void *p);

/* ---- the kernels and host functions the calls launch (fuzz_calls.c) ---- */
void fz_register_kernels(void);
extern const char *fz_kernel_so; /* examples' kernel library, may be missing */

#endif
