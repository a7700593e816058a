/*
 * check.h - the race and lifetime checker (ACLCPU_CHECK, docs/checker.md):
 * what the rest of the runtime tells it.
 *
 * Every hook is behind check_on(), one relaxed load of a flag that is set
 * once (at aclInit, a device's open or aclcpuCheckEnable) and never
 * cleared while the process runs, so a program without the checker pays one
 * predictable branch per hook.
 *
 * Order of the calls: the API (or stream_submit) fills a struct check_op
 * with what a task will touch before any lock (check_op_*: they look up
 * device memory), then stream_submit holds check_lock() across its own
 * critical section and calls check_submitted() before check_unlock(), so
 * the checker sees submissions in the order the streams and events
 * numbered them. Host syncs take a snapshot before they wait
 * (check_sync_*_begin) and hand it back after (check_sync_end).
 */
#ifndef ACLCPU_CHECK_H
#define ACLCPU_CHECK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../platform/atomics.h"
#include "acl/acl_base.h"

struct stream;
struct event;
struct task;
struct submit;

extern _Atomic bool check_enabled;

/* One predictable branch when the checker is off. */
static inline bool check_on(void) { return __builtin_expect(load_relaxed(&check_enabled), 0); }

struct kfunc;

/* Turns the checker on (mode: ACLCPU_CHECK_EXIT or _REPORT, checked by the
 * caller); the number of reports so far. */
aclError check_enable(int mode);
uint64_t check_report_count(void);
/* A kernel's declared access through argument word arg (aclcpuCheckDeclareArg,
 * arguments checked by the caller). */
aclError check_declare(const char *fn, const struct kfunc *kf, uint32_t arg, uint32_t access, uint64_t size,
                       int32_t size_arg);

/* Reads ACLCPU_CHECK once (aclInit, a device's open); idempotent. */
void check_configure(void);

/* A byte range a task or the host touches, inside one allocation. */
struct check_acc {
    uintptr_t base;     /* the allocation's start */
    size_t size;        /* the allocation's bytes */
    uintptr_t lo, hi;   /* the bytes touched, [lo, hi) */
    bool write;
};

#define CHECK_ACC_MAX 16

/* What one task does, as far as the checker cares: filled before locks. */
struct check_op {
    const char *what;          /* "kernel", "copy", "memset", ... */
    const char *name;          /* a kernel's name, else NULL */
    const void *site;          /* the host call site (a return address), or NULL */
    const void *ev;            /* event tasks: the event's handle */
    const void *model;         /* a model run: the model (its runs follow one another) */
    /* A memory pool's free (TASK_POOL_FREE): the block [pool_lo, pool_hi)
     * of the allocation at pool_base (pool_span bytes); pool_hi 0: none. */
    uintptr_t pool_base, pool_lo, pool_hi;
    size_t pool_span;
    uint32_t nacc;
    bool accesses_unknown;     /* a model run whose accesses could not be listed */
    struct check_acc acc[CHECK_ACC_MAX];
    /* A model run: the accesses of every copy, memset and kernel in its
     * lanes (heap; check_op_done frees them). */
    struct check_acc *more;
    uint32_t nmore;
};

/* What stream_submit learned under its locks, for check_submitted. */
struct check_note {
    bool live;                 /* the task will run (not recorded into a model) */
    bool queued;               /* something was queued (false: an Ex wait on a never-recorded event) */
    uint64_t gen;              /* event tasks: the record number made or waited for */
    uint64_t task_no;          /* its number on its stream */
};

/* The host call site of the API call in progress on this thread: the
 * public entry points note their return address here (CHECK_SITE). */
void check_note_site(const void *site);
#define CHECK_SITE()                                                                                           \
    do {                                                                                                       \
        if (check_on())                                                                                        \
            check_note_site(__builtin_return_address(0));                                                      \
    } while (0)

/* Fills op for t (a task about to be submitted): its kind and the ranges
 * it touches (copies and memsets exactly, kernels by their arguments). */
void check_op_of(struct check_op *op, const struct task *t, const char *fn, bool capture_held);
void check_op_done(struct check_op *op);

void check_lock(void);
void check_unlock(void);
/* Called between check_lock and check_unlock, after t was queued on s. */
void check_submitted(struct stream *s, int32_t stream_id, const void *stream_handle, const struct check_op *op,
                     const struct check_note *note, uint8_t kind);

/* A host sync: a snapshot of what the wait covers, taken before it waits;
 * check_sync_end(snap, done) joins it into the host's clock when the wait
 * succeeded and frees it either way. NULL snapshots are allowed. */
struct check_snap;
struct check_snap *check_sync_stream_begin(const void *stream_handle);
struct check_snap *check_sync_event_begin(const void *event_handle);
void check_sync_end(struct check_snap *snap, bool done);

/* A host function or callback runs on this thread, in its stream's order
 * (CHECK_TASK_CODE): its own aclrtMemcpy and aclrtFree calls are not taken
 * as the host's (they are ordered by the stream, which the host's clock
 * does not know), so they are not checked. */
void check_in_task_code(bool in);
#define CHECK_TASK_CODE(call)                                                                                  \
    do {                                                                                                       \
        bool check_on_ = check_on();                                                                           \
        if (check_on_)                                                                                         \
            check_in_task_code(true);                                                                          \
        call;                                                                                                  \
        if (check_on_)                                                                                         \
            check_in_task_code(false);                                                                         \
    } while (0)

/* The host reads or writes device memory now (aclrtMemcpy, aclrtMemset). */
void check_host_access(const char *fn, const void *p, size_t n, bool write);
/* The program frees the allocation at p (aclrtFree, aclrtFreeHost, ...). */
void check_free(const char *fn, const void *p);
/* An event ends: its state is forgotten. A stream ends, after the host
 * was ordered after all its work: its slot may serve a new stream. */
void check_forget_event(const void *event_handle);
void check_forget_stream(const void *stream_handle);

/* The caching allocator (core/cachealloc.c): a block is handed out on a
 * stream (a new lifetime begins: accesses of the previous lifetime that
 * are not ordered before the new ones are reported as reuse without
 * record_stream), and a block goes back to the cache. The allocator hands
 * a freed block out again only after the work its recorded streams had
 * queued at the free is done (record_stream): that work is ordered before
 * any reuse, so release forgets its accesses (`recorded`: the stream
 * handles, n of them). */
void check_cache_block(void *base, size_t size, const void *stream_handle);
/* A memory pool's block [ptr, ptr + size) is about to be freed in stream
 * order (aclrtMemPoolFreeAsync; this thread's next submission is its free
 * task): the pool gives it to another stream only after the free task ran,
 * so every access ordered before the free is ordered before any reuse and
 * is forgotten - as the free task is submitted, under the checker's lock,
 * before the block can be reused. */
void check_pool_free_next(void *ptr, size_t size);
void check_cache_release(void *base, size_t size, void *const *recorded, size_t n);

#endif
