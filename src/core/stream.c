/*
 * stream.c - streams: creation, destruction, handle resolution, queueing a
 * task, and the stream-state callbacks.
 *
 * DESIGN: a stream is a singly linked FIFO of task records with a dummy
 * node. Launchers append at the tail under the stream's lock (the issue
 * lock): one critical section per launch, in which the handle, STOP mode
 * and the stream's settings are checked and the task is filled and linked.
 * stream_commit is the one place a task joins a stream. The stream's owner
 * (the executor running it, sync.c) takes tasks from the other end without
 * the lock: the link it follows is published with a release store, and
 * the node it stands on is never the one a launcher writes unless it is the
 * tail, where the lock settles who goes on. Launcher and owner therefore
 * share no lock and, on a busy stream, no cache line but the task's own.
 * Queueing a task on an idle stream puts the stream in its engine's ready
 * set (engine_stream_kick). Records come from a per-thread cache (task.c).
 *
 * Threads: any host thread (launch, create, destroy); executors take and
 * complete tasks (sync.c). Lock order: context->lock > stream->lock >
 * event->lock > engine->lock; cb_lock is a leaf, and callbacks run without
 * it held.
 */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../services/profile.h"
#include "core.h"
#include "model.h"

static void stream_init_fields(struct stream *s, struct context *ctx, uint32_t priority, uint32_t flags,
                               bool is_default)
{
    s->ctx = ctx;
    store_relaxed(&s->dev, ctx->dev); /* see stream->id */
    store_relaxed(&s->priority, priority);
    store_relaxed(&s->flags, flags);
    s->is_default = is_default;
    list_init(&s->ready_link);
    list_init(&s->timed_link);
    store_relaxed(&s->stub.next, NULL);
    store_relaxed(&s->head, &s->stub); /* under lock, before the stream is published */
    s->tail = &s->stub;
    store_relaxed(&s->discard, false);
    store_relaxed(&s->stopped, false);
    store_relaxed(&s->state, STREAM_IDLE);
    store_relaxed(&s->done, 0);
    store_relaxed(&s->wake_at, UINT64_MAX);
}

static aclError create(struct context *ctx, uint32_t priority, uint32_t flags, bool is_default, bool internal,
                       struct stream **out)
{
    struct stream *s;
    bool fresh;
    int32_t id;
    aclError err = device_stream_id_alloc(ctx->dev, &id);

    if (err != ACL_SUCCESS)
        return err;
    s = obj_create(OBJ_STREAM, sizeof(*s), sizeof(*s), &fresh);
    if (s == NULL) {
        device_stream_id_free(ctx->dev, id);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (fresh)
        plat_spin_init(&s->lock);
    /* Cleared under the lock: a thread still waiting on the stream this
     * memory used to be reads these fields under it. */
    plat_spin_lock(&s->lock);
    memset(&s->ctx, 0, sizeof(*s) - offsetof(struct stream, ctx));
    stream_init_fields(s, ctx, priority, flags, is_default);
    s->internal = internal;
    store_relaxed(&s->id, id);
    plat_spin_unlock(&s->lock);
    plat_mutex_lock(&ctx->lock);
    list_add_tail(&ctx->streams, &s->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    obj_publish(&s->hdr);
    *out = s;
    if (!internal)
        stream_state_notify(s, ACL_RT_STREAM_STATE_CREATE_POST);
    return ACL_SUCCESS;
}

aclError stream_create(struct context *ctx, uint32_t priority, uint32_t flags, bool is_default,
                       struct stream **out)
{
    return create(ctx, priority, flags, is_default, false, out);
}

aclError stream_create_internal(struct context *ctx, uint32_t priority, struct stream **out)
{
    return create(ctx, priority, 0, false, true, out);
}

aclError stream_destroy(struct stream *s, const void *handle, bool force)
{
    bool mine;

    if (!s->internal)
        stream_state_notify(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
    plat_spin_lock(&s->lock);
    /* Check and kill in one critical section: of two racing destroyers,
     * one wins, and a launcher either queued before or sees it dead. */
    mine = handle == NULL || obj_same(&s->hdr, handle);
    if (mine)
        obj_kill(&s->hdr);
    plat_spin_unlock(&s->lock);
    if (!mine)
        return ACL_ERROR_RT_INVALID_HANDLE;
    engine_stream_killed(s);
    if (!s->internal)
        model_stream_gone(s); /* the lanes it fed keep their tasks */
    /* Persistent tasks never run by themselves, and a stopped stream's
     * never run again: waiting for them would wait forever. */
    if (force || (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) || load_relaxed(&s->stopped))
        engine_discard_stream(s);
    else
        engine_sync_stream(s, NULL, 0, ACL_SUCCESS);
    engine_wait_unowned(s);
    plat_mutex_lock(&s->ctx->lock);
    list_del(&s->ctx_link);
    plat_mutex_unlock(&s->ctx->lock);
    device_stream_id_free(load_relaxed(&s->dev), load_relaxed(&s->id));
    obj_recycle(&s->hdr);
    return ACL_SUCCESS;
}

aclError stream_stale(const char *fn, const void *handle)
{
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                    "%s: argument 'stream' (%p) is not a live stream: it was destroyed, or never created by "
                    "aclrtCreateStream*",
                    fn, handle);
}

/* Called with s->lock held, for a stream that is stopped, tripped STOP
 * mode or records for a model: why s takes no task of this kind now (0 if
 * it does). */
static ACLCPU_COLD aclError rare_refusal_locked(const char *fn, struct stream *s, enum task_kind kind)
{
    if (load_relaxed(&s->stopped))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR,
                        "%s: stream %d was stopped by aclrtStreamStop; it takes no new tasks (destroy it)", fn,
                        load_relaxed(&s->id));
    /* Before a sync has reported the failure, tasks are taken and dropped
     * (stream_commit). */
    if (s->stop_error != ACL_SUCCESS && s->stop_reported)
        return acl_fail(s->stop_error,
                        "%s: stream %d stopped when a task failed with %d (%s) in ACL_STOP_ON_FAILURE mode; it takes "
                        "no new tasks (destroy it and create another)",
                        fn, load_relaxed(&s->id), s->stop_error, acl_error_name(s->stop_error));
    if (s->rec_lane != NULL || s->update != NULL)
        return model_check_recordable_locked(fn, s, kind);
    return ACL_SUCCESS;
}

/* Called with s->lock held: why s takes no task of this kind now (0 if it
 * does). */
static inline aclError refusal_locked(const char *fn, struct stream *s, const void *handle, enum task_kind kind)
{
    /* Re-checked under the lock: the stream may have died (or been reused
     * for a new stream) since the handle was resolved. */
    if (ACLCPU_UNLIKELY(handle != NULL ? !obj_same(&s->hdr, handle)
                                       : !load_relaxed(&s->hdr.live)))
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the stream was destroyed while the call was made", fn);
    /* One test for the rare cases. Relaxed stopped: set under the lock we
     * hold. */
    if (ACLCPU_UNLIKELY(load_relaxed(&s->stopped) || s->stop_error != ACL_SUCCESS ||
                        s->rec_lane != NULL || s->update != NULL))
        return rare_refusal_locked(fn, s, kind);
    return ACL_SUCCESS;
}

aclError stream_begin_task(const char *fn, struct stream *s, const void *handle, enum task_kind kind,
                           struct task **out)
{
    aclError err;
    /* Taken before the lock, to keep the critical section short. */
    struct task *t = task_alloc();

    if (ACLCPU_UNLIKELY(t == NULL))
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for a task record", fn);
    plat_spin_lock(&s->lock);
    err = refusal_locked(fn, s, handle, kind);
    if (ACLCPU_UNLIKELY(err != ACL_SUCCESS)) {
        plat_spin_unlock(&s->lock);
        task_free(t);
        return err;
    }
    store_relaxed(&t->q.next, NULL);
    t->kind = (uint8_t)kind;
    /* Every kind: the profiler's hooks test it (0 unless prof_issue_locked
     * gives the task an entry). */
    t->prof_id = 0;
    if (kind != TASK_KERNEL) {
        /* A kernel launch sets every field of its kind; the others rely on
         * zeroes for what they leave unset. */
        memset(&t->u, 0, sizeof(t->u));
    }
    *out = t;
    return ACL_SUCCESS;
}

/* Called with s->lock held (dropped here): a task issued after the stream
 * tripped STOP, before a sync reported the failure. As on the device,
 * where the host learns of the failure a little later, the launch is
 * accepted and the task discarded with the rest (records still complete,
 * so nothing waits on them forever). It is counted in `issued` but never
 * queued: once the failure dropped the queue behind the failing task,
 * nothing more is linked, and the owner publishes `issued` as done when
 * it goes idle. */
static ACLCPU_COLD void drop_after_stop_locked(struct stream *s, struct task *t)
{
    if (load_relaxed(&s->state) == STREAM_IDLE)
        engine_note_done(s, s->issued); /* no owner will publish it */
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, t);
}

/* Links t behind the newest task of s. Release: the owner's acquire load
 * of this link (stream_next_task) sees the task as filled. The owner reads
 * the link without the lock; the lock only orders launchers, and the owner
 * against them at the tail (going idle, sync.c). */
static inline void link_locked(struct stream *s, struct task *t)
{
    store_release(&s->tail->next, &t->q);
    s->tail = &t->q;
}

/* stream_commit for a stream that records for a model, is PERSISTENT or
 * tripped STOP mode, or while a profile runs. Drops s->lock. */
static ACLCPU_COLD void commit_rare(struct stream *s, struct task *t)
{
    if (s->rec_lane != NULL || s->update != NULL) {
        /* Recorded for a model (build, capture or task update), not run. */
        model_record_locked(s, t);
        plat_spin_unlock(&s->lock);
        return;
    }
    s->issued++;
    /* A persistent stream's tasks run only in its model, which profiles
     * them. */
    if (prof_on() && !(load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT))
        prof_issue_locked(s, t);
    if (s->stop_error != ACL_SUCCESS) {
        drop_after_stop_locked(s, t); /* drops s->lock */
        return;
    }
    link_locked(s, t);
    if (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) {
        /* Tasks of a persistent stream do not run when issued: they are
         * kept in its queue for the model the stream is bound to (spec §5,
         * model_bind), and no owner ever walks it. */
        plat_spin_unlock(&s->lock);
        return;
    }
    engine_stream_kick(s); /* drops s->lock */
}

void stream_commit(struct stream *s, struct task *t)
{
    /* One test for the rare cases, the profiler's switch among them (a
     * relaxed flag load: one predictable branch when no profile runs). */
    if (ACLCPU_UNLIKELY(s->rec_lane != NULL || s->update != NULL || s->stop_error != ACL_SUCCESS ||
                        (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) || prof_on())) {
        commit_rare(s, t);
        return;
    }
    s->issued++;
    link_locked(s, t);
    engine_stream_kick(s); /* drops s->lock */
}

void stream_push_internal(struct stream *s, struct task *t)
{
    store_relaxed(&t->q.next, NULL);
    plat_spin_lock(&s->lock);
    s->issued++;
    link_locked(s, t);
    engine_stream_kick(s); /* drops s->lock */
}

struct task *stream_take_kept_locked(struct stream *s)
{
    /* Relaxed: no owner walks a persistent stream, and launchers link
     * under the lock we hold. */
    struct qnode *head = load_relaxed(&s->head);
    struct qnode *first = load_relaxed(&head->next);
    store_relaxed(&head->next, NULL);
    s->tail = head;
    return first != NULL ? task_of(first) : NULL;
}

/* Frees a kernel task's heap copy of its arguments, if it has one. */
static void free_kernel_args(struct task *t)
{
    if (ACLCPU_UNLIKELY(t->u.kernel.args_size > TASK_INLINE_ARGS))
        free(task_kernel_args(t));
}

void stream_abandon(struct stream *s, struct task *t)
{
    plat_spin_unlock(&s->lock);
    /* An argument copy is all a task holds before it is committed: a
     * kernel's binary reference and an event's pending count are attached
     * just before stream_commit. */
    if (t->kind == TASK_KERNEL)
        free_kernel_args(t);
    task_free(t);
}

void *task_args_reserve(struct task *t, size_t n)
{
    void *heap;
    /* Saturated: what matters is that a size beyond the inline room says
     * "heap" (the profiler reads only the first bytes). */
    t->u.kernel.args_size = n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
    if (ACLCPU_LIKELY(n <= TASK_INLINE_ARGS))
        return t->inline_args;
    heap = malloc(n);
    /* The inline bytes are unused now: they hold the copy's address. */
    memcpy(t->inline_args, &heap, sizeof(heap));
    return heap;
}

void task_release(struct task *t)
{
    if (ACLCPU_UNLIKELY(t->prof_id != 0))
        prof_task_released(t);
    if (ACLCPU_LIKELY(t->kind == TASK_KERNEL)) {
        if (t->u.kernel.bin != NULL)
            binary_put_inflight(t->u.kernel.bin);
        free_kernel_args(t);
        return;
    }
    switch (t->kind) {
    case TASK_EVENT_RECORD:
    case TASK_EVENT_WAIT:
    case TASK_EVENT_RESET:
    case TASK_NOTIFY_RECORD:
    case TASK_NOTIFY_WAIT:
        event_task_release(t);
        break;
    case TASK_MODEL_RUN:
        if (t->u.model.phase == 0) /* dropped before it started: later runs must not wait for it */
            model_skip_run(t->u.model.m, t->u.model.run);
        /* Release: our last touch of the model (see model->run_tasks). */
        fetch_sub_release(&t->u.model.m->run_tasks, 1);
        break;
    case TASK_LANE_RUN:
        if (t->u.lane.lane != NULL) /* dropped unfinished: its run must still end */
            model_lane_finished(t->u.lane.lane->m, t->u.lane.run);
        break;
    case TASK_GROUP_UPDATE:
        for (struct task *r = t->u.update.with, *next; r != NULL; r = next) {
            next = task_next(r);
            task_release(r);
            task_free(r);
        }
        t->u.update.with = NULL;
        break;
    default:
        break;
    }
}

/* ---- stream state callbacks ------------------------------------------------ */

#define MAX_STATE_CALLBACKS 64

struct state_cb {
    char name[128];
    aclrtStreamStateCallback cb;
    void *args;
};

static plat_mutex cb_lock;
static struct state_cb callbacks[MAX_STATE_CALLBACKS];
static unsigned ncallbacks;

__attribute__((constructor)) static void stream_cb_init(void) { plat_mutex_init(&cb_lock); }

aclError stream_state_register(const char *name, aclrtStreamStateCallback cb, void *args)
{
    aclError err = ACL_SUCCESS;
    unsigned i;

    plat_mutex_lock(&cb_lock);
    for (i = 0; i < ncallbacks; i++)
        if (strcmp(callbacks[i].name, name) == 0)
            break;
    if (cb == NULL) {
        if (i < ncallbacks)
            callbacks[i] = callbacks[--ncallbacks];
    } else if (i < ncallbacks) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "aclrtRegStreamStateCallback: argument 'regName' (\"%s\") is already registered; "
                       "unregister it with a NULL callback first",
                       name);
    } else if (ncallbacks == MAX_STATE_CALLBACKS || strlen(name) >= sizeof(callbacks[0].name)) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "aclrtRegStreamStateCallback: at most %d callbacks with names under %zu bytes",
                       MAX_STATE_CALLBACKS, sizeof(callbacks[0].name));
    } else {
        strcpy(callbacks[ncallbacks].name, name);
        callbacks[ncallbacks].cb = cb;
        callbacks[ncallbacks].args = args;
        ncallbacks++;
    }
    plat_mutex_unlock(&cb_lock);
    return err;
}

void stream_state_notify(struct stream *s, aclrtStreamState state)
{
    struct state_cb copy[MAX_STATE_CALLBACKS];
    unsigned n;

    plat_mutex_lock(&cb_lock);
    n = ncallbacks;
    if (n == 0) {
        plat_mutex_unlock(&cb_lock);
        return;
    }
    memcpy(copy, callbacks, n * sizeof(copy[0]));
    plat_mutex_unlock(&cb_lock);
    for (unsigned i = 0; i < n; i++)
        copy[i].cb(obj_handle(&s->hdr), state, copy[i].args);
}
