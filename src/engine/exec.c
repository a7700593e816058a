/*
 * exec.c - running a kernel: its blocks shared out among idle workers,
 * TIMEOUT, abort and trap handling, batch schedule mode, and the
 * kernel-side API (aclcpuGetBlockIdx...).
 *
 * DESIGN: the executor that owns a stream runs its head (kinds.c); a
 * kernel task comes here, on its stream or in a model's run. A kernel
 * with more than one block is listed in the engine's shared list so
 * idle workers can claim blocks; the owner claims blocks too, then unlists
 * the kernel and joins the helpers still inside (each is finishing one
 * block), so the kernel record can live on the owner's stack. A block that
 * calls aclcpuTrap() longjmps back here, and so does one that faults in
 * device address space (engine_fault, the platform's fault hook);
 * the kernel fails with the engine's exception code and its unclaimed
 * blocks are skipped. A batch-mode kernel
 * (schedule mode 1) first gathers one thread per block, one such kernel at
 * a time per engine, and starts all its blocks together.
 *
 * Whoever sees every block claimed (the owner or a helper) takes the kernel
 * off the shared list, so idle workers stop entering it.
 *
 * Threads: any executor (worker, syncing host, host-function thread).
 * Locks: only engine->lock.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/profhook.h"
#include "engine_int.h"

_Thread_local struct block_ctx *tls_block ACLCPU_TLS_HOT;

static aclError timeout_code(const struct task *t)
{
    return t->u.kernel.engine == ACL_RT_ENGINE_TYPE_AIC ? ACL_ERROR_RT_AICORE_TIMEOUT : ACL_ERROR_RT_VECTOR_CORE_TIMEOUT;
}

static aclError trap_code(const struct task *t)
{
    return t->u.kernel.engine == ACL_RT_ENGINE_TYPE_AIC ? ACL_ERROR_RT_AICORE_EXCEPTION
                                                        : ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
}

/* The address a block's caught fault touched, and whether it lay in
 * device memory (engine_fault). */
static _Thread_local void *tls_fault_addr;
static _Thread_local bool tls_fault_in_device;

/* Any fault of a kernel block is the kernel's: on a device a kernel can
 * only reach device memory, and any other address faults in its core, so
 * a wild or NULL pointer fails the kernel and the process goes on. (A
 * kernel that faults inside a C library call holding one of its locks
 * leaves that lock held: such a kernel is not one a device could run.)
 * Outside a kernel only a memory task's fault in device memory is ours. */
void engine_fault(void *addr, bool device_memory)
{
    struct block_ctx *bc = tls_block;
    if (bc == NULL || bc->trap_jmp == NULL) {
        if (device_memory)
            engine_mem_fault(addr); /* a memory task's, if one runs here */
        return;                     /* else the process's handlers decide */
    }
    tls_fault_addr = addr;
    tls_fault_in_device = device_memory;
    longjmp(*(jmp_buf *)bc->trap_jmp, 1);
}

/* A block touched memory it may not: device address space unmapped or
 * mapped without that access, or an address outside device memory. The
 * device reports the kernel's exception; we say where, once per block (no
 * lock is held here). */
static void report_fault(const struct task *t, uint32_t idx, void *addr, bool device_memory)
{
    const char *name = t->u.kernel.kf != NULL ? t->u.kernel.kf->name : NULL;
    LOGE("kernel '%s' block %u touched %s %p, %s; the kernel fails with %d", name != NULL ? name : "?", idx,
         device_memory ? "device address" : "address", addr,
         device_memory ? "which is not mapped or not mapped for that access"
                       : "which is no memory a kernel may use (a wild or NULL pointer)",
         (int)trap_code(t));
}

static void run_block(struct kernel_run *k, uint32_t idx)
{
    struct task *t = k->task;
    struct block_ctx bc = {idx, k->blocks, NULL, false};
    struct block_ctx *outer = tls_block;
    jmp_buf jb;

    uint64_t t0 = ACLCPU_UNLIKELY(k->timed) ? plat_now_ns() : 0;

    bc.trap_jmp = &jb;
    tls_block = &bc;
    if (setjmp(jb) == 0) {
        t->u.kernel.fn(task_kernel_args(t));
    } else {
        int none = ACL_SUCCESS;
        cas_relaxed(&k->error, &none, trap_code(t));
        if (ACLCPU_UNLIKELY(tls_fault_addr != NULL)) {
            report_fault(t, idx, tls_fault_addr, tls_fault_in_device);
            tls_fault_addr = NULL;
        }
    }
    tls_block = outer;
    if (bc.overflow)
        store_relaxed(&k->overflow, true);
    if (ACLCPU_UNLIKELY(k->timed))
        fetch_add_relaxed(&k->busy_ns, plat_now_ns() - t0);
}

/* The kernel's unclaimed blocks are skipped: all claimed at once, so that
 * skipping costs the same for 2 blocks as for 65535. Relaxed: claims are
 * relaxed, and any value at or past the end ends every claimer's loop; a
 * racing claim only moves it further past. */
static bool skip_the_rest(struct kernel_run *k)
{
    store_relaxed(&k->next, (uint64_t)k->blocks);
    return false;
}

/* Claims the kernel's next block and runs it (or skips it, as the device
 * would, when the kernel failed, was aborted or ran past its TIMEOUT);
 * false when no block is left. */
static bool run_next_block(struct kernel_run *k)
{
    uint64_t b = fetch_add_relaxed(&k->next, 1);
    if (b >= k->blocks)
        return false;
    if (load_relaxed(&k->error) != ACL_SUCCESS)
        return skip_the_rest(k); /* the kernel already failed */
    /* Relaxed: an abort is a request; seeing it a block late is fine. */
    if (k->abort_epoch != NULL && load_relaxed(k->abort_epoch) != k->epoch)
        return skip_the_rest(k); /* aborted or stopped: the remaining blocks never start */
    if (k->deadline_ns != 0 && plat_now_ns() > k->deadline_ns) {
        /* Ran past its TIMEOUT attribute: fail as the device's timeout
         * (a block in progress cannot be cut short on a CPU). */
        int none = ACL_SUCCESS;
        cas_relaxed(&k->error, &none, timeout_code(k->task));
        return skip_the_rest(k);
    }
    run_block(k, (uint32_t)b);
    return true;
}

static void run_blocks(struct kernel_run *k)
{
    while (run_next_block(k))
        ;
}

/* Spins politely: a waiting batch kernel holds its cores, as on the device,
 * but on a small host the threads it waits for need the CPU. */
static void gang_pause(unsigned i)
{
    if ((i & 63) == 63)
        plat_thread_yield();
    else
        plat_cpu_relax();
}

/* Called with e->lock held: takes k off the shared list, once (and ends
 * its turn as the engine's gathering batch kernel). */
static void unlist_locked(struct engine *e, struct kernel_run *k)
{
    PLAT_ASSERT_HELD(&e->lock);
    if (e->gang == k)
        e->gang = NULL;
    if (!k->listed)
        return;
    list_del(&k->link);
    k->listed = false;
    fetch_sub_relaxed(&e->shared_count, 1);
}

void engine_help_kernel(struct engine *e, struct kernel_run *k)
{
    if (k->gang != 0) {
        /* One thread per block, all starting together: wait for the go
         * (acquire: pairs with the owner's release store). The owner took
         * the kernel off the shared list before the go. */
        for (unsigned i = 0; load_acquire(&k->go) == 0; i++)
            gang_pause(i);
        run_next_block(k);
    } else {
        run_blocks(k);
        /* Every block is claimed now: unlist the kernel rather than wait
         * for the owner to (it does so only when its own last block ends).
         * Left listed, it kept idle workers coming back to find nothing,
         * each trip an engine lock and a futex wake, and on two cores they
         * starved the blocks still running (saxpy_bw: 16 instead of 44
         * GB/s). Our helper reference keeps k alive meanwhile. */
        plat_spin_lock(&e->lock);
        unlist_locked(e, k);
        plat_spin_unlock(&e->lock);
    }
    /* Release: the owner's acquire load of helpers == 0 sees our blocks'
     * writes. This is our last touch of k: it lives on the owner's stack,
     * which the owner may leave as soon as it sees 0, so the last helper
     * wakes it through the engine's join word, which outlives every kernel
     * (join_helpers). Release on the bump: an owner whose acquire load sees
     * it also sees helpers at 0. */
    if (fetch_sub_release(&k->helpers, 1) == 1) {
        fetch_add_release(&e->join_seq, 1);
        plat_futex_wake_all(&e->join_seq);
    }
}

/* Called with e->lock held: lists k for idle workers and picks up to
 * `want` parked workers (at most 8) into wake[]; returns how many. */
static unsigned list_shared_locked(struct engine *e, struct kernel_run *k, uint32_t want, struct worker **wake)
{
    PLAT_ASSERT_HELD(&e->lock);
    unsigned n = 0;
    list_add_tail(&e->shared, &k->link);
    k->listed = true;
    fetch_add_relaxed(&e->shared_count, 1);
    while (n < 8 && n < want) {
        struct worker *w = engine_pick_sleeper(e);
        if (w == NULL)
            break;
        wake[n++] = w;
    }
    return n;
}

static void wake_all_of(struct worker **wake, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        engine_wake(wake[i]);
}

static void share_kernel(struct engine *e, struct kernel_run *k)
{
    struct worker *wake[8];
    unsigned n;

    plat_spin_lock(&e->lock);
    n = list_shared_locked(e, k, k->blocks - 1, wake);
    plat_spin_unlock(&e->lock);
    wake_all_of(wake, n);
}

/* No helper can enter after this. */
static void unshare(struct engine *e, struct kernel_run *k)
{
    plat_spin_lock(&e->lock);
    unlist_locked(e, k);
    plat_spin_unlock(&e->lock);
}

/* Waits for the helpers still inside k (each is finishing one block).
 * Sleeps on the engine's join word, not on k: a helper must not touch k
 * once it has counted itself out. The word is read before helpers, so a
 * last helper that counts out after our look bumps it after our read, and
 * the sleep returns at once or is woken (any kernel's last helper may wake
 * us too: we look again). */
static void join_helpers(struct engine *e, struct kernel_run *k)
{
    for (int spin = 0;; spin++) {
        /* Acquire: pairs with the last helper's release bump. */
        uint32_t seen = load_acquire(&e->join_seq);
        /* Acquire: pairs with each helper's release decrement, so reading
         * 0 means every helper's block writes are visible here. */
        if (load_acquire(&k->helpers) == 0)
            return;
        if (spin < 2000)
            plat_cpu_relax();
        else
            plat_futex_wait(&e->join_seq, seen, 0);
    }
}

/* ---- batch schedule mode: all blocks start together ------------------------------ */

/* Threads that can run blocks side by side: the workers, plus the calling
 * thread when it is not one of them (a synchronising host thread). */
static unsigned gang_capacity(const struct engine *e) { return e->nworkers + (tls_worker == NULL ? 1u : 0u); }

/* Makes k the engine's gathering batch kernel and lists it. One batch
 * kernel gathers at a time: two that each waited for threads the other
 * holds would never start. While another gathers, this thread is one of
 * its threads if it has room, which also lets it finish. */
static void take_gang_slot(struct engine *e, struct kernel_run *k)
{
    for (unsigned i = 0;; i++) {
        struct worker *wake[8];
        struct kernel_run *g;
        unsigned n;

        plat_spin_lock(&e->lock);
        if (e->gang == NULL) {
            e->gang = k;
            n = list_shared_locked(e, k, k->gang - 1, wake);
            plat_spin_unlock(&e->lock);
            wake_all_of(wake, n);
            return;
        }
        g = e->gang;
        if (load_relaxed(&g->helpers) + 1 < g->gang)
            fetch_add_relaxed(&g->helpers, 1); /* under e->lock, as take_work */
        else
            g = NULL;
        plat_spin_unlock(&e->lock);
        if (g != NULL)
            engine_help_kernel(e, g);
        else
            gang_pause(i);
    }
}

/* Batch mode: gathers one thread per block (waiting, as the device waits
 * for that many free cores), then starts every block at once. */
static void run_gang(struct engine *e, struct kernel_run *k)
{
    k->gang = k->blocks;
    take_gang_slot(e, k);
    LOGD("a batch-mode kernel of %u blocks waits for %u threads to start together", k->blocks, k->gang);
    /* Relaxed: helpers only grow under e->lock until go; the go store and
     * join_helpers' acquire order what matters. */
    for (unsigned i = 0; load_relaxed(&k->helpers) + 1 < k->gang; i++)
        gang_pause(i);
    unshare(e, k);
    store_release(&k->go, 1); /* release: pairs with the helpers' acquire load of go */
    run_next_block(k);
    join_helpers(e, k);
}

/* A batch-mode kernel with more blocks than threads that can run at once
 * cannot start them together on this host: it runs as in normal mode. */
static bool gang_fits(struct engine *e, const struct kernel_run *k)
{
    static _Atomic bool warned;
    if (k->blocks <= gang_capacity(e))
        return true;
    /* Relaxed: a once-only warning. */
    if (!exchange_relaxed(&warned, true))
        LOGW("a batch-mode kernel of %u blocks cannot start them together on %u worker threads; it runs in normal "
             "mode (set ACLCPU_WORKERS to at least its block count)", k->blocks, e->nworkers);
    return false;
}

/* The kernel's error, or its overflow code when a block reported one and
 * the stream's overflow switch was on when the kernel was issued. */
static aclError kernel_result(struct kernel_run *k)
{
    aclError err = load_relaxed(&k->error);
    if (err == ACL_SUCCESS && k->deadline_ns != 0 && plat_now_ns() > k->deadline_ns)
        err = timeout_code(k->task); /* it ended, but later than its TIMEOUT attribute allowed */
    if (err == ACL_SUCCESS && k->task->u.kernel.overflow_check &&
        load_relaxed(&k->overflow))
        err = k->task->u.kernel.engine == ACL_RT_ENGINE_TYPE_AIC ? ACL_ERROR_RT_AICORE_OVER_FLOW
                                                                 : ACL_ERROR_RT_AIVEC_OVER_FLOW;
    return err;
}

/* The kernel's result; with busy_ns, also the CPU time its blocks took (0
 * for one block: the profile takes the task's time then). */
static inline aclError finish_kernel(struct stream *s, struct kernel_run *k, uint64_t *busy_ns)
{
    if (ACLCPU_UNLIKELY(busy_ns != NULL))
        *busy_ns = load_relaxed(&k->busy_ns);
    /* A reported overflow sets the context's overflow status whatever the
     * stream's switch (aclrtGetOverflowStatus reads it). */
    if (ACLCPU_UNLIKELY(load_relaxed(&k->overflow)))
        ctx_note_overflow(stream_ctx(s));
    return kernel_result(k);
}

aclError engine_run_kernel(struct engine *e, struct stream *s, struct task *t, uint64_t *busy_ns)
{
    struct kernel_run k;
    bool shared = false;

    if (t->u.kernel.blocks == 1 && t->u.kernel.timeout_us == 0) {
        /* One block: no sharing to set up, run it right here. */
        atomic_init(&k.error, ACL_SUCCESS);
        atomic_init(&k.overflow, false);
        atomic_init(&k.busy_ns, 0);
        k.timed = false; /* the task's own start and end time its one block */
        k.deadline_ns = 0;
        k.task = t;
        k.blocks = 1;
        run_block(&k, 0);
        return finish_kernel(s, &k, busy_ns);
    }
    memset(&k, 0, sizeof(k));
    k.timed = busy_ns != NULL;
    if (t->u.kernel.timeout_us != 0)
        k.deadline_ns = plat_now_ns() + t->u.kernel.timeout_us * 1000u;
    k.abort_epoch = &s->abort_epoch;
    k.epoch = load_relaxed(&s->abort_epoch);
    k.task = t;
    k.blocks = t->u.kernel.blocks;
    k.priority = load_relaxed(&s->priority);
    if (k.blocks > 1 && t->u.kernel.schedule_mode == 1 && gang_fits(e, &k)) {
        run_gang(e, &k);
        return finish_kernel(s, &k, busy_ns);
    }
    /* Always offer the blocks: a worker busy now may be free in a moment,
     * and blocks may depend on running side by side, as on the device. */
    if (k.blocks > 1 && e->nworkers > 0) {
        share_kernel(e, &k);
        shared = true;
    }
    run_blocks(&k);
    if (shared) {
        unshare(e, &k);
        join_helpers(e, &k);
    }
    return finish_kernel(s, &k, busy_ns);
}

/* A profiled kernel: run and timed. */
static aclError run_profiled_kernel(struct executor *x, struct stream *s, struct task *t)
{
    uint64_t busy = 0;
    aclError err = engine_run_kernel(x->eng, s, t, &busy);
    prof_kernel_busy(t->prof_id, busy);
    return err;
}

/* The kernel kind's row (kinds.c), on a stream and in a model's run. A
 * recorded task has no profile entry of its own (prof_id 0): a profiled
 * run times it through in->busy_ns. */
enum run_result engine_kernel_task(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                   aclError *err)
{
    engine_offer_help(x->eng);
    *err = ACLCPU_LIKELY(t->prof_id == 0) ? engine_run_kernel(x->eng, s, t, in != NULL ? in->busy_ns : NULL)
                                          : run_profiled_kernel(x, s, t);
    return RUN_DONE;
}

/* ---- the kernel-side API (aclcpu/aclcpu.h) -------------------------------- */

ACL_FUNC_VISIBILITY uint32_t aclcpuGetBlockIdx(void) { return tls_block != NULL ? tls_block->idx : 0; }
ACL_FUNC_VISIBILITY uint32_t aclcpuGetBlockNum(void) { return tls_block != NULL ? tls_block->num : 0; }

ACL_FUNC_VISIBILITY void aclcpuSetOverflow(void)
{
    if (tls_block != NULL)
        tls_block->overflow = true;
}

ACL_FUNC_VISIBILITY void aclcpuTrap(void)
{
    if (tls_block == NULL || tls_block->trap_jmp == NULL) {
        fprintf(stderr, "aclcpu: aclcpuTrap() called outside a kernel\n");
        abort();
    }
    longjmp(*(jmp_buf *)tls_block->trap_jmp, 1);
}
