/*
 * exception.c - the exception callbacks: the process's list of them (the
 * one aclrtSetExceptionInfoCallback sets, and those registered), and their
 * calls when a task fails.
 *
 * DESIGN: a failing task's executor (a worker, a syncing host thread that
 * ran the stream, the host-function thread) fills a struct rtExceptionInfo
 * on its stack and calls every callback before the task counts as done
 * (engine_complete_current), as the runtime calls them where it processes
 * the task's failure report, ahead of the stream's completion. So a sync
 * that returns the task's code returns after the callbacks did. The list
 * is copied under exc_lock and the callbacks run with no lock held; a
 * callback unregistered meanwhile may still be called by a notification
 * that had already copied it (the reference says the same). Then the
 * failing kernel's binary's own callback (aclrtBinarySetExceptionCallback)
 * is called. engine_exc_armed stays false until a callback is set, so a
 * failure costs nothing more when none is.
 *
 * Threads: any host thread (registration), executors (notification).
 * Locks: exc_lock (mutex, rank LOCK_EXC_CB), alone; binary->lock, alone,
 * to read a binary's callback.
 */
#include <string.h>

#include "engine_int.h"

/* A callback set (any kind) since the process began. Relaxed: see
 * engine_int.h. Never cleared: a stale true costs one lock per failure. */
_Atomic bool engine_exc_armed;

static plat_mutex exc_lock;
static aclrtExceptionInfoCallback legacy;     /* under exc_lock */
static aclrtExceptionInfoCallback *regs;      /* under exc_lock */
static size_t nregs, capregs;

__attribute__((constructor)) static void exc_init(void) { plat_mutex_init(&exc_lock, LOCK_EXC_CB); }

void engine_exc_set_legacy(aclrtExceptionInfoCallback cb)
{
    plat_mutex_lock(&exc_lock);
    legacy = cb;
    plat_mutex_unlock(&exc_lock);
    if (cb != NULL)
        store_relaxed(&engine_exc_armed, true);
}

aclError engine_exc_register(const char *fn, aclrtExceptionInfoCallback cb)
{
    plat_mutex_lock(&exc_lock);
    for (size_t i = 0; i < nregs; i++) {
        if (regs[i] == cb) {
            plat_mutex_unlock(&exc_lock);
            return ACL_SUCCESS; /* kept once, as a map keyed by the pointer */
        }
    }
    if (nregs == capregs) {
        size_t cap = capregs == 0 ? 8 : capregs * 2;
        aclrtExceptionInfoCallback *grown = acl_realloc(regs, cap * sizeof(*grown));
        if (grown == NULL) {
            plat_mutex_unlock(&exc_lock);
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for the callback list", fn);
        }
        regs = grown;
        capregs = cap;
    }
    regs[nregs++] = cb;
    plat_mutex_unlock(&exc_lock);
    store_relaxed(&engine_exc_armed, true);
    return ACL_SUCCESS;
}

void engine_exc_unregister(aclrtExceptionInfoCallback cb)
{
    plat_mutex_lock(&exc_lock);
    for (size_t i = 0; i < nregs; i++) {
        if (regs[i] == cb) {
            regs[i] = regs[--nregs];
            break;
        }
    }
    plat_mutex_unlock(&exc_lock);
}

void engine_exc_set_binary(struct binary *b, aclrtOpExceptionCallback cb, void *user)
{
    binary_set_exc_callback(b, cb, user);
    store_relaxed(&engine_exc_armed, true);
}

/* The failing task's description, as the runtime's exception info gives it. */
static void fill_info(struct rtExceptionInfo *info, struct stream *s, const struct task *t, aclError err)
{
    memset(info, 0, sizeof(*info));
    /* Relaxed: only this thread, the stream's owner, writes done now; the
     * task's number is the count of tasks done before it. */
    info->taskid = (uint32_t)load_relaxed(&s->done);
    info->streamid = (uint32_t)load_relaxed(&s->id);
    info->tid = t->issuer;
    info->deviceid = (uint32_t)load_relaxed(&s->dev)->id;
    info->retcode = (uint32_t)err;
    if (t->kind == TASK_KERNEL) {
        info->kernel = true;
        info->args = task_kernel_args(t);
        info->args_len = t->u.kernel.args_size;
        info->func = t->u.kernel.kf != NULL ? obj_handle(&t->u.kernel.kf->hdr) : NULL;
    }
}

#define EXC_STACK_COPY 16

void engine_exc_notify(struct stream *s, const struct task *t, aclError err)
{
    aclrtExceptionInfoCallback local[EXC_STACK_COPY], *list = local;
    struct rtExceptionInfo info;
    size_t n = 0;

    PLAT_ASSERT_NO_SPIN("calling exception callbacks");
    fill_info(&info, s, t, err);

    plat_mutex_lock(&exc_lock);
    if (nregs + 1 > EXC_STACK_COPY) {
        /* A long list: a heap copy (a mutex, not a spinlock, is held). */
        list = acl_malloc((nregs + 1) * sizeof(*list));
        if (list == NULL)
            list = local; /* out of memory: the first ones are called */
    }
    if (legacy != NULL)
        list[n++] = legacy;
    for (size_t i = 0; i < nregs && (list != local || n < EXC_STACK_COPY); i++)
        list[n++] = regs[i];
    plat_mutex_unlock(&exc_lock);

    for (size_t i = 0; i < n; i++)
        list[i](&info);
    if (list != local)
        acl_free(list);

    if (t->kind == TASK_KERNEL && t->u.kernel.bin != NULL) {
        /* The task holds a reference on its binary: it is still loaded. */
        void *user = NULL;
        aclrtOpExceptionCallback cb = binary_exc_callback(t->u.kernel.bin, &user);
        if (cb != NULL)
            cb(&info, user);
    }
}
