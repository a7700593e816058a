/*
 * exec.c - running one task: kernels (with their blocks shared out),
 * copies, host functions, callbacks and event operations.
 *
 * DESIGN: the executor that owns a stream calls exec_task on its head. A
 * kernel with more than one block is listed in the engine's shared list so
 * idle workers can claim blocks; the owner claims blocks too, then unlists
 * the kernel and joins the helpers still inside (each is finishing one
 * block), so the kernel record can live on the owner's stack. A block that
 * calls aclcpuTrap() longjmps back here; the kernel fails with the engine's
 * exception code and its unclaimed blocks are skipped.
 *
 * Whoever sees every block claimed (the owner or a helper) takes the kernel
 * off the shared list, so idle workers stop entering it.
 *
 * Threads: any executor (worker, syncing host, host-function thread).
 * Lock order: only engine->lock, alone.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void run_block(struct kernel_run *k, uint32_t idx)
{
    struct task *t = k->task;
    struct block_ctx bc = {idx, k->blocks, NULL, false};
    struct block_ctx *outer = tls_block;
    jmp_buf jb;

    bc.trap_jmp = &jb;
    tls_block = &bc;
    if (setjmp(jb) == 0) {
        t->u.kernel.fn(t->u.kernel.args);
    } else {
        int none = ACL_SUCCESS;
        atomic_compare_exchange_strong_explicit(&k->error, &none, trap_code(t), memory_order_relaxed,
                                                memory_order_relaxed);
    }
    tls_block = outer;
    if (bc.overflow)
        atomic_store_explicit(&k->overflow, true, memory_order_relaxed);
}

static void run_blocks(struct kernel_run *k)
{
    for (;;) {
        uint32_t b = atomic_fetch_add_explicit(&k->next, 1, memory_order_relaxed);
        if (b >= k->blocks)
            return;
        if (atomic_load_explicit(&k->error, memory_order_relaxed) != ACL_SUCCESS)
            continue; /* the kernel already failed: skip, as the device would */
        /* Relaxed: an abort is a request; seeing it a block late is fine. */
        if (atomic_load_explicit(k->abort_epoch, memory_order_relaxed) != k->epoch)
            continue; /* aborted: the remaining blocks never start */
        if (k->deadline_ns != 0 && plat_now_ns() > k->deadline_ns) {
            /* Ran past its TIMEOUT attribute: fail as the device's timeout
             * (a block in progress cannot be cut short on a CPU). */
            int none = ACL_SUCCESS;
            atomic_compare_exchange_strong_explicit(&k->error, &none, timeout_code(k->task), memory_order_relaxed,
                                                    memory_order_relaxed);
            continue;
        }
        run_block(k, b);
    }
}

/* Called with e->lock held: takes k off the shared list, once. */
static void unlist_locked(struct engine *e, struct kernel_run *k)
{
    if (!k->listed)
        return;
    list_del(&k->link);
    k->listed = false;
    atomic_fetch_sub_explicit(&e->shared_count, 1, memory_order_relaxed);
}

void engine_help_kernel(struct engine *e, struct kernel_run *k)
{
    run_blocks(k);
    /* Every block is claimed now: unlist the kernel rather than wait for
     * the owner to (it does so only when its own last block ends). Left
     * listed, it kept idle workers coming back to find nothing, each trip
     * an engine lock and a futex wake, and on two cores they starved the
     * blocks still running (saxpy_bw: 16 instead of 44 GB/s). Our helper
     * reference keeps k alive meanwhile. */
    plat_spin_lock(&e->lock);
    unlist_locked(e, k);
    plat_spin_unlock(&e->lock);
    /* Release: the owner's acquire load of helpers == 0 sees our blocks'
     * writes. This is our last touch of k (it lives on the owner's stack);
     * the futex wake is on the address only and harmless if it is gone. */
    if (atomic_fetch_sub_explicit(&k->helpers, 1, memory_order_release) == 1)
        plat_futex_wake_all(&k->helpers);
}

static void share_kernel(struct engine *e, struct kernel_run *k)
{
    struct worker *wake[8];
    unsigned n = 0;

    plat_spin_lock(&e->lock);
    list_add_tail(&e->shared, &k->link);
    k->listed = true;
    atomic_fetch_add_explicit(&e->shared_count, 1, memory_order_relaxed);
    while (n < ACLCPU_ARRAY_SIZE(wake) && n + 1 < k->blocks) {
        struct worker *w = engine_pick_sleeper(e);
        if (w == NULL)
            break;
        wake[n++] = w;
    }
    plat_spin_unlock(&e->lock);
    for (unsigned i = 0; i < n; i++)
        engine_wake(wake[i]);
}

static void unshare_and_join(struct engine *e, struct kernel_run *k)
{
    uint32_t h;
    plat_spin_lock(&e->lock);
    unlist_locked(e, k);
    plat_spin_unlock(&e->lock);
    /* No helper can enter now. Those inside each finish one block. */
    for (int spin = 0; (h = atomic_load_explicit(&k->helpers, memory_order_acquire)) != 0; spin++) {
        if (spin < 2000)
            plat_cpu_relax();
        else
            plat_futex_wait(&k->helpers, h, 0);
    }
}

/* The kernel's error, or its overflow code when a block reported one and
 * the stream's overflow switch was on when the kernel was issued. */
static aclError kernel_result(struct kernel_run *k)
{
    aclError err = atomic_load_explicit(&k->error, memory_order_relaxed);
    if (err == ACL_SUCCESS && k->deadline_ns != 0 && plat_now_ns() > k->deadline_ns)
        err = timeout_code(k->task); /* it ended, but later than its TIMEOUT attribute allowed */
    if (err == ACL_SUCCESS && k->task->u.kernel.overflow_check &&
        atomic_load_explicit(&k->overflow, memory_order_relaxed))
        err = k->task->u.kernel.engine == ACL_RT_ENGINE_TYPE_AIC ? ACL_ERROR_RT_AICORE_OVER_FLOW
                                                                 : ACL_ERROR_RT_AIVEC_OVER_FLOW;
    return err;
}

aclError engine_run_kernel(struct engine *e, struct stream *s, struct task *t)
{
    struct kernel_run k;
    bool shared = false;

    if (t->u.kernel.blocks == 1 && t->u.kernel.timeout_us == 0) {
        /* One block: no sharing to set up, run it right here. */
        atomic_init(&k.error, ACL_SUCCESS);
        atomic_init(&k.overflow, false);
        k.deadline_ns = 0;
        k.task = t;
        k.blocks = 1;
        run_block(&k, 0);
        return kernel_result(&k);
    }
    memset(&k, 0, sizeof(k));
    if (t->u.kernel.timeout_us != 0)
        k.deadline_ns = plat_now_ns() + t->u.kernel.timeout_us * 1000u;
    k.abort_epoch = &s->abort_epoch;
    k.epoch = atomic_load_explicit(&s->abort_epoch, memory_order_relaxed);
    k.task = t;
    k.blocks = t->u.kernel.blocks;
    k.priority = s->priority;
    /* Always offer the blocks: a worker busy now may be free in a moment,
     * and blocks may depend on running side by side, as on the device. */
    if (k.blocks > 1 && e->nworkers > 0) {
        share_kernel(e, &k);
        shared = true;
    }
    run_blocks(&k);
    if (shared)
        unshare_and_join(e, &k);
    return kernel_result(&k);
}

enum run_result exec_task(struct executor *x, struct stream *s, struct task *t, aclError *err)
{
    switch (t->kind) {
    case TASK_KERNEL:
        engine_offer_help(x->eng);
        *err = engine_run_kernel(x->eng, s, t);
        return RUN_DONE;
    case TASK_COPY:
        memmove(t->u.copy.dst, t->u.copy.src, t->u.copy.count);
        return RUN_DONE;
    case TASK_SET:
        memset(t->u.set.dst, t->u.set.value, t->u.set.count);
        return RUN_DONE;
    case TASK_HOST_FUNC:
        if (x->worker != NULL) {
            engine_hostfunc_post(x->eng, s);
            return RUN_HANDED_OFF;
        }
        t->u.host.fn(t->u.host.arg); /* a synchronising host thread runs it itself */
        return RUN_DONE;
    case TASK_CALLBACK:
        return report_post(s, t);
    case TASK_EVENT_RECORD:
    case TASK_NOTIFY_RECORD:
        event_record_done(t, plat_now_ns());
        return RUN_DONE;
    case TASK_EVENT_WAIT:
    case TASK_NOTIFY_WAIT:
        if (t->wait_timed_out) { /* the watchdog ended it: the wait fails */
            *err = ACL_ERROR_RT_WAIT_TIMEOUT;
            return RUN_DONE;
        }
        return event_wait_or_park(s, t) ? RUN_DONE : RUN_PARKED;
    case TASK_EVENT_RESET:
        event_reset_done(t);
        return RUN_DONE;
    default:
        *err = ACL_ERROR_RT_INTERNAL_ERROR;
        return RUN_DONE;
    }
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
