/*
 * memtask.c - running the memory tasks beyond a plain copy and memset: 2D
 * copies, copies a descriptor in device memory describes, 32-bit fills,
 * and the value writes and waits of aclrtValueWrite / aclrtValueWait.
 *
 * DESIGN (value waits). A value wait at the head of its stream parks the
 * stream, as an event wait does, until the 64-bit word it names passes
 * its test (the reference's four: >=, ==, AND non-zero, NOR non-zero; it
 * always compares 64 bits). The parked streams are one list under
 * val_lock, linked through park_next with park_event NULL and park_value
 * naming the wait, so discard, stop, abort and the hang report find them
 * as they find event waiters (complete.c, hang.c call in here).
 *
 * Two things release a parked wait. A write the runtime makes - a value
 * write, and the memory tasks of this file and kinds.c - calls
 * engine_value_written, which looks at the waits on the bytes it wrote and
 * makes the passing ones ready at once. No waker is lost: the waiter
 * counts itself in val_parked (seq_cst) before it reads the word, and a
 * writer stores the word (seq_cst) before it reads val_parked, so either
 * the waiter sees the value or the writer sees the waiter (and then finds
 * it on the list, since the count and the link change under one hold of
 * val_lock). A write the runtime cannot see - the host storing into the
 * memory, a kernel, another process - is caught by polling with backoff:
 * each parked wait is on the watchdog's list (hang.c) with a deadline,
 * and at each deadline the watchdog thread itself reads the word; if the
 * test passes it makes the stream ready, else it looks again after twice
 * the time, from POLL_FIRST_US up to POLL_MAX_US. No worker wakes for a
 * look, and a forgotten wait costs one watchdog look per POLL_MAX_US.
 *
 * Threads: executors (the tasks), any writer's executor, the watchdog.
 * Locks: s->lock, then val_lock (a spinlock), then wd_lock when a wait is
 * watched (ranks: lockrank.h).
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "../services/devmem.h"
#include "engine_int.h"

#define POLL_FIRST_US 20u
#define POLL_MAX_US 2000u

static plat_spin val_lock;
static struct stream *val_waiters; /* val_lock: parked on a value, by park_next */
/* Streams on val_waiters; changed under val_lock, read without it by
 * writers (seq_cst: see the DESIGN note). */
static _Atomic uint32_t val_parked;

__attribute__((constructor)) static void memtask_init(void) { plat_spin_init(&val_lock, LOCK_VALUE_WAIT); }

/* ---- faults ------------------------------------------------------------------
 * A memory task's bytes may lie in device address space that is no longer
 * mapped (its device was reset since the task was queued on another
 * device's stream) or is mapped without write access. The fault that
 * makes is the task's: the platform's hook (engine_fault, exec.c) comes
 * here, and the task fails with the DMA engine's error (507013) instead of
 * ending the process. One catch per thread; memory tasks do not nest. */
static _Thread_local jmp_buf *tls_mem_catch;
static _Thread_local void *tls_mem_fault_addr;

void engine_mem_fault(void *addr)
{
    if (tls_mem_catch == NULL)
        return;
    tls_mem_fault_addr = addr;
    longjmp(*tls_mem_catch, 1);
}

bool engine_mem_guarded(void (*op)(void *arg), void *arg, const char *what)
{
    jmp_buf jb;
    if (setjmp(jb) != 0) {
        tls_mem_catch = NULL;
        LOGE("a %s task touched device address %p, which is not mapped or not writable; it fails with %d", what,
             tls_mem_fault_addr, (int)ACL_ERROR_RT_SYS_DMA);
        return false;
    }
    tls_mem_catch = &jb;
    op(arg);
    tls_mem_catch = NULL;
    return true;
}

struct mem_op {
    void *dst;
    const void *src;
    size_t n;
    int value;
};

static void do_move(void *arg)
{
    const struct mem_op *m = arg;
    memmove(m->dst, m->src, m->n);
}

static void do_set(void *arg)
{
    const struct mem_op *m = arg;
    memset(m->dst, m->value, m->n);
}

bool engine_guarded_move(void *dst, const void *src, size_t n, const char *what)
{
    struct mem_op m = {dst, src, n, 0};
    return engine_mem_guarded(do_move, &m, what);
}

bool engine_guarded_set(void *dst, int value, size_t n)
{
    struct mem_op m = {dst, NULL, n, value};
    return engine_mem_guarded(do_set, &m, "memset");
}

/* ---- copies and fills ------------------------------------------------------ */

static void copy2d_rows(void *arg)
{
    const struct task *t = arg;
    char *dst = t->u.copy2d.dst;
    const char *src = t->u.copy2d.src;
    for (uint32_t row = 0; row < t->u.copy2d.height; row++)
        memmove(dst + row * t->u.copy2d.dpitch, src + row * t->u.copy2d.spitch, t->u.copy2d.width);
}

enum run_result engine_run_copy2d(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                  aclError *err)
{
    (void)x, (void)s, (void)in;
    if (!engine_mem_guarded(copy2d_rows, t, "2D copy")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(t->u.copy2d.dst, t->u.copy2d.dpitch * (t->u.copy2d.height - 1u) + t->u.copy2d.width);
    return RUN_DONE;
}

/* Where an indirect copy goes, read now, as the device reads it: from the
 * descriptor, or from the two words holding the bases. False when what it
 * read is not device memory any more. */
static bool indirect_ranges(const struct task *t, struct memcpy_desc *d)
{
    if (t->u.copy_desc.desc != NULL) {
        if (!devmem_read_device(t->u.copy_desc.desc, d, sizeof(*d)))
            return false;
    } else {
        char *dst, *src;
        if (!devmem_read_device(t->u.copy_desc.dst_at, &dst, sizeof(dst)) ||
            !devmem_read_device(t->u.copy_desc.src_at, &src, sizeof(src)))
            return false;
        d->dst = dst + t->u.copy_desc.dst_off;
        d->src = src + t->u.copy_desc.src_off;
        d->count = t->u.copy_desc.count;
    }
    return d->count != 0 && devmem_classify(d->src, d->count) == MEM_DEVICE &&
           devmem_classify(d->dst, d->count) == MEM_DEVICE;
}

/* One whose ranges are not device memory fails (107000) instead of
 * touching memory that is not the device's. */
enum run_result engine_run_copy_desc(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                     aclError *err)
{
    struct memcpy_desc d;
    (void)x, (void)s, (void)in;
    if (!indirect_ranges(t, &d)) {
        *err = ACL_ERROR_RT_PARAM_INVALID;
        return RUN_DONE;
    }
    if (!engine_guarded_move(d.dst, d.src, d.count, "descriptor copy")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(d.dst, d.count);
    return RUN_DONE;
}

static void fill32(void *arg)
{
    const struct task *t = arg;
    uint32_t *p = t->u.set32.dst, v = t->u.set32.value;
    for (size_t i = 0; i < t->u.set32.n; i++)
        p[i] = v;
}

enum run_result engine_run_set32(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                 aclError *err)
{
    (void)x, (void)s, (void)in;
    if (!engine_mem_guarded(fill32, t, "32-bit fill")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(t->u.set32.dst, t->u.set32.n * sizeof(uint32_t));
    return RUN_DONE;
}

/* ---- value writes and waits ------------------------------------------------- */

/* The 64-bit word at addr: the platform's watched load (seq_cst when
 * aligned, the waiter's half of the pairing with engine_value_written; an
 * unaligned word is read bytewise: the poll still sees a write the pairing
 * might miss). */
static uint64_t value_load(const void *addr) { return plat_vm_watch_load(addr); }

static bool value_passes(uint64_t v, uint64_t want, uint32_t flag)
{
    switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ: return v >= want;
    case ACL_STREAM_WAIT_VALUE_EQ: return v == want;
    case ACL_STREAM_WAIT_VALUE_AND: return (v & want) != 0;
    default: return (v | want) != UINT64_MAX; /* NOR: ~(v | want) != 0 */
    }
}

static bool wait_passes(const struct task *w) { return value_passes(value_load(w->u.value.addr), w->u.value.value, w->u.value.flag); }

enum run_result engine_run_value_write(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                       aclError *err)
{
    void *addr = t->u.value.addr;
    (void)x, (void)s, (void)in, (void)err;
    if (((uintptr_t)addr & 7u) == 0) /* seq_cst: the writer's half of the pairing (DESIGN) */
        store_seq_cst((_Atomic uint64_t *)addr, t->u.value.value);
    else
        memcpy(addr, &t->u.value.value, sizeof(uint64_t));
    engine_value_written(addr, sizeof(uint64_t));
    return RUN_DONE;
}

/* Called with val_lock held: takes s off the list. */
static void unlink_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&val_lock);
    for (struct stream **pp = &val_waiters; *pp != NULL; pp = &(*pp)->park_next) {
        if (*pp == s) {
            *pp = s->park_next;
            break;
        }
    }
    s->park_next = NULL;
    store_relaxed(&s->park_value, NULL);
    fetch_sub_relaxed(&val_parked, 1); /* under val_lock */
}

bool engine_value_wait_or_park(struct stream *s, const struct task *w)
{
    bool passed;
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->discard)) {
        plat_spin_unlock(&s->lock);
        return true; /* being force-destroyed: let the owner drop the rest */
    }
    plat_spin_lock(&val_lock);
    fetch_add_seq_cst(&val_parked, 1); /* seq_cst: before the load, see DESIGN */
    passed = wait_passes(w);
    if (passed) {
        fetch_sub_relaxed(&val_parked, 1);
    } else {
        store_relaxed(&s->park_value, w); /* the task stays at the head of the queue */
        store_relaxed(&s->park_event, NULL);
        s->park_next = val_waiters;
        val_waiters = s;
        s->park_poll_us = POLL_FIRST_US;
        store_relaxed(&s->state, STREAM_PARKED);
    }
    plat_spin_unlock(&val_lock);
    if (!passed)
        engine_watch_wait(s, plat_now_ns() + POLL_FIRST_US * 1000ull);
    plat_spin_unlock(&s->lock);
    return passed;
}

bool engine_value_passed(const struct task *w) { return wait_passes(w); }

enum run_result engine_run_value_wait(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                      aclError *err)
{
    (void)x, (void)in, (void)err;
    return engine_value_wait_or_park(s, t) ? RUN_DONE : RUN_PARKED;
}

static bool overlaps(const void *a, size_t alen, const void *b, size_t blen)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return pa < pb + blen && pb < pa + alen;
}

void engine_value_written(const void *addr, size_t len)
{
    struct stream *released = NULL;
    /* seq_cst: after the caller's store, see DESIGN. */
    if (ACLCPU_LIKELY(load_seq_cst(&val_parked) == 0))
        return;
    plat_spin_lock(&val_lock);
    for (struct stream **pp = &val_waiters; *pp != NULL;) {
        struct stream *s = *pp;
        const struct task *w = load_relaxed(&s->park_value);
        if (overlaps(w->u.value.addr, sizeof(uint64_t), addr, len) && wait_passes(w)) {
            *pp = s->park_next;
            store_relaxed(&s->park_value, NULL);
            s->park_next = released;
            released = s;
            fetch_sub_relaxed(&val_parked, 1); /* under val_lock */
        } else {
            pp = &s->park_next;
        }
    }
    plat_spin_unlock(&val_lock);
    while (released != NULL) {
        struct stream *next = released->park_next;
        released->park_next = NULL;
        engine_unwatch(released); /* before the unpark: it cannot park again before that */
        engine_unpark(released);
        released = next;
    }
}

void engine_value_unlink_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    plat_spin_lock(&val_lock);
    if (load_relaxed(&s->park_value) != NULL)
        unlink_locked(s);
    plat_spin_unlock(&val_lock);
}

struct worker *engine_value_poll_locked(struct stream *s, uint64_t now)
{
    PLAT_ASSERT_HELD(&s->lock);
    bool passed = false, parked;
    plat_spin_lock(&val_lock);
    parked = load_relaxed(&s->park_value) != NULL && load_relaxed(&s->state) == STREAM_PARKED;
    if (parked) {
        passed = wait_passes(load_relaxed(&s->park_value));
        if (passed)
            unlink_locked(s);
    }
    plat_spin_unlock(&val_lock);
    if (!parked)
        return NULL;
    if (!passed) {
        s->park_poll_us = s->park_poll_us * 2 < POLL_MAX_US ? s->park_poll_us * 2 : POLL_MAX_US;
        engine_watch_wait(s, now + s->park_poll_us * 1000ull);
        return NULL;
    }
    store_relaxed(&s->state, STREAM_IDLE);
    return engine_kick_locked(s);
}

static const char *rule_text(uint32_t flag)
{
    switch (flag) {
    case ACL_STREAM_WAIT_VALUE_GEQ: return ">=";
    case ACL_STREAM_WAIT_VALUE_EQ: return "==";
    case ACL_STREAM_WAIT_VALUE_AND: return "to share a bit with";
    default: return "to leave a bit clear together with";
    }
}

void engine_value_explain_locked(struct stream *s, const char *which, char *buf, size_t cap)
{
    PLAT_ASSERT_HELD(&s->lock);
    const struct task *w = load_relaxed(&s->park_value);
    uint64_t now;
    if (w == NULL) {
        snprintf(buf, cap, "stream %d%s is being released from a value wait", load_relaxed(&s->id), which);
        return;
    }
    /* Read as the poll reads it: devmem's lookup takes a mutex, and s->lock is held. */
    now = value_load(w->u.value.addr);
    snprintf(buf, cap, "stream %d%s waits for the 64-bit value at %p to be %s %llu (it is %llu), which only a write "
             "to it can release (aclrtValueWrite, a copy, or the host)", load_relaxed(&s->id), which,
             w->u.value.addr, rule_text(w->u.value.flag), (unsigned long long)w->u.value.value,
             (unsigned long long)now);
}
