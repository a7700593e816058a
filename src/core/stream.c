/*
 * stream.c - streams: creation, destruction, handle resolution, queueing a
 * task, the settings the API sets (stream_setting_*), the device-wide sync
 * loop, and the stream-state callbacks.
 *
 * DESIGN: a stream is a queue of task records (squeue.h: the protocol
 * between launchers and the stream's owner). A launcher makes and fills
 * its task first, without locks (stream_task_new), then hands it to
 * stream_submit: one critical section under the stream's lock (the issue
 * lock), in which the handle, STOP mode and model recording are checked,
 * the stream's settings are copied into the task and it is linked (and
 * numbered: a stream's tasks count from 0 in issue order, and the issuing
 * thread remembers its last one for aclrtGetThreadLastTaskId). Nothing
 * in it allocates or formats: a refusal is a reason code, turned into a
 * message after the unlock. stream_commit is the one place a task joins a
 * stream. Queueing a task on an idle stream puts the stream in its
 * engine's ready set (engine_stream_kick). Records come from a per-thread
 * cache (task.c). A destroy waits for the stream's work unless it is stuck
 * (wait_or_drop): then it drops it and reports the wait-for chain.
 *
 * Threads: any host thread (launch, create, destroy); executors take and
 * complete tasks (engine/complete.c). Locks: stream->lock, cb_lock (ranks:
 * lockrank.h); callbacks run without cb_lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "allocator.h"
#include "check.h"
#include "profhook.h"
#include "core.h"
#include "model.h"
#include "squeue.h"

static void stream_init_fields(struct stream *s, struct context *ctx, uint32_t priority, uint32_t flags,
                               bool is_default)
{
    store_relaxed(&s->ctx, ctx); /* see stream->id */
    store_relaxed(&s->dev, ctx->dev); /* see stream->id */
    store_relaxed(&s->priority, priority);
    store_relaxed(&s->flags, flags);
    store_relaxed(&s->is_default, is_default);
    list_init(&s->ready_link);
    list_init(&s->timed_link);
    squeue_init(s);
    store_relaxed(&s->stopped, false);
    store_relaxed(&s->state, STREAM_IDLE);
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
        plat_spin_init(&s->lock, LOCK_STREAM);
    /* Cleared under the lock: a thread still waiting on the stream this
     * memory used to be reads these fields under it. */
    plat_spin_lock(&s->lock);
    memset(&s->tail, 0, sizeof(*s) - offsetof(struct stream, tail));
    stream_init_fields(s, ctx, priority, flags, is_default);
    store_relaxed(&s->hdr.hidden, internal); /* before obj_publish: see obj_header */
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

/* A destroy waits for the stream's work, unless it can never finish (it
 * waits, directly or down a chain, on a stopped or PERSISTENT stream, or in
 * a cycle of waits): then it is dropped, with the chain reported in the log
 * and in aclGetRecentErrMsg, as a device would never return. */
static void wait_or_drop(struct stream *s, bool force)
{
    char why[640];
    uint64_t left;
    if (engine_wait_teardown(s, force ? 0 : ENGINE_TEARDOWN_GRACE_NS, why, sizeof(why)))
        return;
    plat_spin_lock(&s->lock);
    left = s->issued - load_relaxed(&s->done);
    plat_spin_unlock(&s->lock);
    engine_discard_stream(s);
    (void)acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   "destroying stream %d: dropped its %llu unfinished task(s), which can never run: %s",
                   load_relaxed(&s->id), (unsigned long long)left, why);
}

/* A model's lane runner: never handed to the user, no state callbacks. */
static bool is_internal(const struct stream *s) { return load_relaxed(&s->hdr.hidden); }

aclError stream_destroy(struct stream *s, const void *handle, enum stream_end how)
{
    bool mine;

    if (!is_internal(s))
        stream_state_notify(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
    /* The checker: whatever the stream had ends in this call (run or
     * dropped), so the host is ordered after all of it. Taken while the
     * handle still names the stream. */
    const void *checked_handle = obj_handle(&s->hdr);
    struct check_snap *snap = check_on() ? check_sync_stream_begin(checked_handle) : NULL;
    plat_spin_lock(&s->lock);
    /* Check and kill in one critical section: of two racing destroyers,
     * one wins, and a launcher either queued before or sees it dead. */
    mine = handle == NULL || obj_same(&s->hdr, handle);
    if (mine)
        obj_kill(&s->hdr);
    plat_spin_unlock(&s->lock);
    if (!mine) {
        check_sync_end(snap, false);
        return ACL_ERROR_RT_INVALID_HANDLE;
    }
    engine_stream_killed(s);
    if (!is_internal(s)) {
        model_stream_gone(s); /* the lanes it fed keep their tasks */
        allocator_unregister(s);
    }
    /* Persistent tasks never run by themselves, and a stopped stream's
     * never run again: waiting for them would wait forever. */
    if (how == STREAM_END_DISCARD || (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) ||
        load_relaxed(&s->stopped))
        engine_discard_stream(s);
    else
        wait_or_drop(s, how == STREAM_END_FORCE); /* its task errors die with it */
    if (ACLCPU_UNLIKELY(snap != NULL)) {
        check_sync_end(snap, true);
        check_forget_stream(checked_handle);
    }
    engine_wait_unowned(s);
    plat_mutex_lock(&stream_ctx(s)->lock);
    list_del(&s->ctx_link);
    plat_mutex_unlock(&stream_ctx(s)->lock);
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

/* ---- launch blocking (spec §9) ---------------------------------------------- */

/* ASCEND_RT_LAUNCH_BLOCKING=1 makes launches wait; read once. Relaxed: a
 * setting read at start-up, not a synchronisation point. */
static _Atomic int env_blocking = -1;

void stream_blocking_configure(void)
{
    const char *v = config_str(CFG_LAUNCH_BLOCKING);
    store_relaxed(&env_blocking, v != NULL && v[0] == '1' && v[1] == '\0');
}

/* Runs on every launch (inline in stream_submit): the usual answer (the
 * mode follows the environment, which does not ask for blocking) comes
 * first. */
static inline bool launch_blocks_locked(const struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    int env = load_relaxed(&env_blocking);
    if (ACLCPU_UNLIKELY(env < 0)) {
        stream_blocking_configure();
        env = load_relaxed(&env_blocking);
    }
    bool asked = s->blocking_mode == ACL_STREAM_LAUNCH_BLOCKING_MODE_CTRL_BY_ENV
                     ? env == 1
                     : s->blocking_mode == ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING;
    if (ACLCPU_LIKELY(!asked))
        return false;
    /* Never on these streams, products, inside a non-blocking region, or
     * while the stream records for a model (nothing runs then). */
    return !(load_relaxed(&s->flags) &
             (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)) &&
           soc_has_ctrl_sq(load_relaxed(&s->dev)->soc) && s->nonblocking_depth == 0 &&
           s->rec_lane == NULL;
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
    PLAT_ASSERT_HELD(&s->lock);
    if (load_relaxed(&s->state) == STREAM_IDLE)
        squeue_note_done(s, s->issued); /* no owner will publish it */
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, t);
}

/* The number of the last task this thread issued (stream_thread_last_task). */
static _Thread_local uint32_t tls_last_task = UINT32_MAX; /* none issued yet */

uint32_t stream_thread_last_task(void) { return tls_last_task; }

/* Called with s->lock held: the task joining s gets number s->issued. */
static inline void number_task_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    tls_last_task = (uint32_t)s->issued;
    s->issued++;
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
    number_task_locked(s);
    /* A persistent stream's tasks run only in its model, which profiles
     * them. */
    if (prof_on() && !(load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT))
        profhook_issue_locked(s, t);
    if (load_relaxed(&s->stop_error) != ACL_SUCCESS) {
        drop_after_stop_locked(s, t); /* drops s->lock */
        return;
    }
    squeue_link_locked(s, t);
    if (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) {
        /* Tasks of a persistent stream do not run when issued: they are
         * kept in its queue for the model the stream is bound to (spec §5,
         * model_bind), and no owner ever walks it. */
        plat_spin_unlock(&s->lock);
        return;
    }
    engine_stream_kick(s); /* drops s->lock */
}

/* Called with s->lock held (dropped here): queues t; stream_submit's last
 * step, and the one place a task joins a stream. */
static void stream_commit(struct stream *s, struct task *t)
{
    /* One test for the rare cases, the profiler's switch among them (a
     * relaxed flag load: one predictable branch when no profile runs). */
    if (ACLCPU_UNLIKELY(s->rec_lane != NULL || s->update != NULL ||
                        load_relaxed(&s->stop_error) != ACL_SUCCESS ||
                        (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) || prof_on())) {
        commit_rare(s, t);
        return;
    }
    number_task_locked(s);
    squeue_link_locked(s, t);
    engine_stream_kick(s); /* drops s->lock */
}

void stream_push_internal(struct stream *s, struct task *t)
{
    store_relaxed(&t->q.next, NULL);
    t->issuer = 0; /* the engine's own */
    plat_spin_lock(&s->lock);
    s->issued++;
    squeue_link_locked(s, t);
    engine_stream_kick(s); /* drops s->lock */
}

void *task_args_reserve(struct task *t, size_t n)
{
    void *heap;
    /* Saturated: what matters is that a size beyond the inline room says
     * "heap" (the profiler reads only the first bytes). */
    t->u.kernel.args_size = n < UINT32_MAX ? (uint32_t)n : UINT32_MAX;
    if (ACLCPU_LIKELY(n <= TASK_INLINE_ARGS))
        return t->inline_args;
    heap = acl_malloc(n);
    /* The inline bytes are unused now: they hold the copy's address. */
    memcpy(t->inline_args, &heap, sizeof(heap));
    return heap;
}

/* ---- submitting a task ----------------------------------------------------- */

void stream_task_oom(const char *fn)
{
    (void)acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for a task record", fn);
}

void stream_task_drop(struct task *t)
{
    /* An event task counts as pending only once issued (event_issue_locked):
     * before, it holds nothing. */
    if (!task_kind_is_event((enum task_kind)t->kind))
        task_release(t);
    task_free(t);
}

/* Called with s->lock held, for a stream that is stopped, tripped STOP
 * mode or records for a model: why s takes no task of this kind now. */
static ACLCPU_COLD enum refusal rare_refusal_locked(const struct stream *s, enum task_kind kind)
{
    PLAT_ASSERT_HELD(&s->lock);
    if (load_relaxed(&s->stopped))
        return REFUSE_STOPPED;
    /* STOP mode tripped anywhere in the context: every launch there is
     * refused with the failure's code (context.cc Context::CheckTaskSend). */
    if (load_relaxed(&stream_ctx(s)->failure_error) != ACL_SUCCESS)
        return REFUSE_CONTEXT_FAILED;
    /* Before a sync has reported the failure, tasks are taken and dropped
     * (stream_commit). */
    if (load_relaxed(&s->stop_error) != ACL_SUCCESS && s->stop_reported)
        return REFUSE_STOP_FAILED;
    if (s->rec_lane != NULL || s->update != NULL)
        return model_refusal_locked(s, kind);
    return REFUSE_NONE;
}

/* Called with s->lock held: why s takes no task of this kind now. */
static inline enum refusal refusal_locked(const struct stream *s, const void *handle, enum task_kind kind)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* Re-checked under the lock: the stream may have died (or been reused
     * for a new stream) since the handle was resolved. */
    if (ACLCPU_UNLIKELY(handle != NULL ? !obj_same(&s->hdr, handle)
                                       : !load_relaxed(&s->hdr.live)))
        return REFUSE_STREAM_DEAD;
    /* One test for the rare cases. Relaxed stopped: set under the lock we
     * hold. */
    if (ACLCPU_UNLIKELY(load_relaxed(&s->stopped) ||
                        load_relaxed(&s->stop_error) != ACL_SUCCESS ||
                        s->rec_lane != NULL || s->update != NULL ||
                        load_relaxed(&stream_ctx(s)->failure_error) != ACL_SUCCESS))
        return rare_refusal_locked(s, kind);
    return REFUSE_NONE;
}

/* The message and code of a refusal, made once the locks are dropped. */
static ACLCPU_COLD aclError refusal_error(const struct submit *sub, const struct stream *s, const struct task *t,
                                          enum refusal why, aclError stop_code)
{
    const char *fn = sub->fn;
    int32_t id = load_relaxed(&s->id);
    switch (why) {
    case REFUSE_NONE:
    case SKIP_NEVER_RECORDED:
    case SKIP_MODEL_PATH:
        break;
    case REFUSE_STREAM_DEAD:
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the stream was destroyed while the call was made", fn);
    case REFUSE_STOPPED:
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR,
                        "%s: stream %d was stopped by aclrtStreamStop; it takes no new tasks (destroy it)", fn, id);
    case REFUSE_STOP_FAILED:
        return acl_fail(stop_code,
                        "%s: stream %d stopped when a task failed with %d (%s) in ACL_STOP_ON_FAILURE mode; it takes "
                        "no new tasks (destroy it and create another)",
                        fn, id, stop_code, acl_error_name(stop_code));
    case REFUSE_CONTEXT_FAILED:
        return acl_fail(stop_code,
                        "%s: a task in stream %d's context failed with %d (%s) in ACL_STOP_ON_FAILURE mode; the "
                        "context takes no new work (reset the device)",
                        fn, id, stop_code, acl_error_name(stop_code));
    case REFUSE_UPDATE_KERNELS_ONLY:
        return acl_fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                        "%s: stream %d is updating a task group, which holds kernels only", fn, id);
    case REFUSE_LANE_CLOSED:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: stream %d is bound to a model that aclmdlRIBuildEnd finished; it takes no more tasks "
                        "(aclrtPersistentTaskClean empties it for new ones)",
                        fn, id);
    case REFUSE_CAPTURE_INVALIDATED:
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                        "%s: the capture stream %d takes part in was invalidated; end it with aclmdlRICaptureEnd", fn,
                        id);
    case REFUSE_CALLBACK_IN_MODEL:
        return acl_fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT,
                        "%s: a model cannot hold aclrtLaunchCallback tasks (use aclrtLaunchHostFunc)", fn);
    case REFUSE_GROUP_KERNELS_ONLY:
        return acl_fail(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "%s: a task group holds kernels only", fn);
    case REFUSE_EVENT_DEAD:
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the %s was destroyed during the call", fn,
                        t->kind >= TASK_NOTIFY_RECORD ? "notify" : "event");
    case REFUSE_NEVER_RECORDED:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: the event (of aclrtCreateEvent, or without SYNC) was never recorded: record it before "
                        "a stream waits on it (events with ACL_EVENT_SYNC wait for a later record; Ex events skip "
                        "the wait)",
                        fn);
    case REFUSE_NOT_IN_MODEL:
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR,
                        "%s: stream %d is in no model; this task exists only in a model (capture the stream, or bind "
                        "it to a model being built)",
                        fn, id);
    case REFUSE_NO_EVENT_SLOT:
        return acl_fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, "%s: device %d has no event id left", fn,
                        load_relaxed(&t->u.event.ev->dev)->id);
    }
    return ACL_SUCCESS;
}

/* After a refusal (locks dropped): tells the caller and gives t back (a
 * checked submission: leaves it in sub->refused_task for its caller). */
static ACLCPU_COLD aclError refused(struct submit *sub, const struct stream *s, struct task *t, enum refusal why,
                                    aclError stop_code, bool checked)
{
    aclError err = refusal_error(sub, s, t, why, stop_code);
    sub->model_path = why == SKIP_MODEL_PATH;
    if (checked)
        sub->refused_task = t; /* checked_submit gives it back, check_lock dropped */
    else
        stream_task_drop(t);
    return err;
}

/* The submission itself; with note (the checker is on) it also tells what
 * the checker needs, read under the locks. */
static inline aclError submit_path(struct submit *sub, struct stream *s, struct task *t, struct check_note *note)
{
    enum task_kind kind = (enum task_kind)t->kind;
    enum refusal why;
    aclError stop_code;

    if (ACLCPU_UNLIKELY(snapshot_gate_closed()) && !sub->under_lock && note == NULL)
        snapshot_gate_wait(); /* a snapshot lock holds new work back (snapshot.c) */
    prof_prepare(); /* the profile grows here, never under the lock (profile.h) */
    plat_spin_lock(&s->lock);
    why = refusal_locked(s, sub->stream, kind);
    if (ACLCPU_UNLIKELY(task_kind_is_event(kind)) && why == REFUSE_NONE)
        why = event_issue_locked(s, t, sub);
    if (ACLCPU_UNLIKELY(sub->model_only) && why == REFUSE_NONE && s->rec_lane == NULL)
        why = REFUSE_NOT_IN_MODEL;
    if (ACLCPU_UNLIKELY(note != NULL)) {
        note->live = s->rec_lane == NULL && s->update == NULL && !(load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT);
        note->queued = why == REFUSE_NONE;
        note->gen = why == REFUSE_NONE && task_kind_is_event(kind) ? t->u.event.gen : 0;
        note->task_no = s->issued;
    }
    if (ACLCPU_UNLIKELY(why != REFUSE_NONE)) {
        stop_code = why == REFUSE_CONTEXT_FAILED ? load_relaxed(&stream_ctx(s)->failure_error)
                                                 : load_relaxed(&s->stop_error);
        plat_spin_unlock(&s->lock);
        return refused(sub, s, t, why, stop_code, note != NULL);
    }
    /* The stream's settings as of issue. */
    if (ACLCPU_LIKELY(kind == TASK_KERNEL)) {
        t->u.kernel.overflow_check = s->overflow_switch != 0;
        sub->blocks = launch_blocks_locked(s);
    } else if (kind == TASK_MODEL_RUN) {
        sub->blocks = launch_blocks_locked(s); /* ASCEND_RT_LAUNCH_BLOCKING covers model runs (spec §9) */
    }
    stream_commit(s, t); /* drops s->lock */
    return ACL_SUCCESS;
}

/* A submission the checker watches (core/check.c): what the task touches
 * is looked up first, without locks; check_lock is held across the
 * submission so that the checker sees tasks in the order they were
 * numbered. */
static ACLCPU_COLD aclError checked_submit(struct submit *sub, struct stream *s, struct task *t)
{
    struct check_op op;
    struct check_note note = {0};
    uint8_t kind = t->kind;
    const void *handle = obj_handle(&s->hdr);
    aclError err;

    check_op_of(&op, t, sub->fn, sub->under_lock);
    if (ACLCPU_UNLIKELY(snapshot_gate_closed()) && !sub->under_lock)
        snapshot_gate_wait(); /* before check_lock: a snapshot's syncs take it */
    sub->refused_task = NULL;
    check_lock();
    err = submit_path(sub, s, t, &note);
    if (err == ACL_SUCCESS && !sub->model_path)
        check_submitted(s, load_relaxed(&s->id), handle, &op, &note, kind);
    check_unlock();
    check_op_done(&op);
    if (sub->refused_task != NULL) /* giving it back may end a model run (model->lock) */
        stream_task_drop(sub->refused_task);
    return err;
}

aclError stream_submit(struct submit *sub, struct stream *s, struct task *t)
{
    if (check_on())
        return checked_submit(sub, s, t);
    return submit_path(sub, s, t, NULL);
}

/* ---- settings ----------------------------------------------------------------- */

static uint32_t *setting_field(struct stream *s, enum stream_setting which)
{
    switch (which) {
    case STREAM_FAILURE_MODE:
        return &s->failure_mode;
    case STREAM_OVERFLOW_SWITCH:
        return &s->overflow_switch;
    case STREAM_USER_TAG:
        return &s->user_tag;
    case STREAM_CACHE_OP_INFO:
        return &s->cache_op_info;
    case STREAM_BLOCKING_MODE:
        return &s->blocking_mode;
    case STREAM_RES_LIMIT_CUBE:
        return &s->res_limit[0];
    case STREAM_RES_LIMIT_VECTOR:
        break;
    }
    return &s->res_limit[1];
}

void stream_setting_set(struct stream *s, enum stream_setting which, uint32_t value)
{
    plat_spin_lock(&s->lock);
    *setting_field(s, which) = value;
    plat_spin_unlock(&s->lock);
}

uint32_t stream_setting_get(struct stream *s, enum stream_setting which)
{
    uint32_t v;
    plat_spin_lock(&s->lock);
    v = *setting_field(s, which);
    plat_spin_unlock(&s->lock);
    return v;
}

void stream_set_priority(struct stream *s, uint32_t prio)
{
    plat_spin_lock(&s->lock);
    engine_set_priority_locked(s, prio);
    plat_spin_unlock(&s->lock);
}

bool stream_records(struct stream *s)
{
    bool records;
    plat_spin_lock(&s->lock);
    records = s->rec_lane != NULL;
    plat_spin_unlock(&s->lock);
    return records;
}

void stream_nonblocking_begin(struct stream *s)
{
    plat_spin_lock(&s->lock);
    s->nonblocking_depth++;
    plat_spin_unlock(&s->lock);
}

bool stream_nonblocking_end(struct stream *s, bool *sync)
{
    bool open;
    plat_spin_lock(&s->lock);
    open = s->nonblocking_depth > 0;
    *sync = open && --s->nonblocking_depth == 0 && launch_blocks_locked(s);
    plat_spin_unlock(&s->lock);
    return open;
}

/* ---- device-wide synchronisation ------------------------------------------------- */

struct stream **stream_list_of(struct context *ctx, void ***handles, size_t *n)
{
    struct stream **list;
    size_t cap = 16;
    struct list *pos;
    *n = 0;
    plat_mutex_lock(&ctx->lock);
    list_for_each(pos, &ctx->streams) cap++;
    /* Allocated under ctx->lock (a mutex: streams come and go meanwhile). */
    list = acl_malloc(cap * (sizeof(*list) + sizeof(**handles)));
    if (list != NULL) {
        *handles = (void **)(list + cap);
        list_for_each(pos, &ctx->streams) {
            list[*n] = ACLCPU_CONTAINER_OF(pos, struct stream, ctx_link);
            (*handles)[*n] = obj_handle(&list[*n]->hdr);
            (*n)++;
        }
    }
    plat_mutex_unlock(&ctx->lock);
    return list;
}

/* Whether the host waits for s: not for those kept or run by the device,
 * nor for one recording a capture (recorded work does not run). */
static bool host_waits_for(struct stream *s)
{
    if (load_relaxed(&s->flags) & STREAM_NO_HOST_SYNC)
        return false;
    return !model_recording_anywhere() || model_capture_status(s, NULL) == ACL_MODEL_RI_CAPTURE_STATUS_NONE;
}

aclError stream_sync_all(struct stream **list, void **handles, size_t n, uint64_t deadline_ns, struct stream **late)
{
    aclError first = ACL_SUCCESS;
    for (size_t i = 0; i < n; i++) {
        aclError err;
        enum sync_result end;
        if (!host_waits_for(list[i]))
            continue;
        /* Destroyed meanwhile (SYNC_DESTROYED): nothing left to wait for. */
        end = engine_wait_stream(list[i], handles[i], deadline_ns, SYNC_WATCH_HANGS, &err);
        if (end == SYNC_TIMED_OUT) {
            *late = list[i];
            return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
        }
        if (end == SYNC_STOPPED)
            err = ACL_ERROR_RT_INTERNAL_ERROR; /* the runtime's "stream invalid" */
        if (first == ACL_SUCCESS)
            first = err;
    }
    return first;
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

__attribute__((constructor)) static void stream_cb_init(void) { plat_mutex_init(&cb_lock, LOCK_STREAM_CB); }

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
