/*
 * api_event.c - events: create, record, wait, reset, query, sync, time.
 *
 * DESIGN: argument checks in the spec's order ([acl] NULL and flag checks,
 * then the context, then the handle, then [rt] rules), then event.c. Record
 * and wait take the stream lock and then the event lock (the global order),
 * so a record's number and a wait's snapshot are taken atomically with the
 * task being queued.
 */
#include "../core/core.h"
#include "../core/model.h"
#include "../engine/engine.h"
#include "../services/profile.h"

#define EVENT_FLAG_BITS 0x3Fu      /* aclrtCreateEventWithFlag accepts these */
#define EVENT_EX_FLAG_BITS 0x4Fu   /* aclrtCreateEventExWithFlag accepts these */

static _Atomic uint32_t op_wait_timeout_s; /* aclrtSetOpWaitTimeout; relaxed: a setting */

static aclError null_arg(const char *fn, const char *arg)
{
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn, arg);
}

static aclError resolve_event(const char *fn, aclrtEvent h, struct event **out)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    *out = (struct event *)obj_resolve(h, OBJ_EVENT);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'event' (%p) is not a live event: destroyed, or never created", fn, h);
    return ACL_SUCCESS;
}

static aclError create_event(const char *fn, aclrtEvent *event, uint32_t flag, bool ex, bool lazy)
{
    struct context *ctx;
    struct event *ev;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = event_create(ctx, flag, ex, lazy, &ev);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: device %d has no event left (%u of %u in use)", fn, ctx->dev->id,
                        ctx->dev->events_used, ctx->dev->soc->max_events);
    *event = obj_handle(&ev->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
    if (event == NULL)
        return null_arg("aclrtCreateEvent", "event");
    /* CANN creates these with DDSYNC|TIME_LINE|STREAM_MARK: waitable and
     * timed; they take their hardware id at the first record. */
    return create_event("aclrtCreateEvent", event, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, false, true);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
    const char *fn = "aclrtCreateEventWithFlag";
    uint32_t alone = ACL_EVENT_EXTERNAL | ACL_EVENT_DEVICE_USE_ONLY;
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag == 0 || (flag & ~EVENT_FLAG_BITS) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flag' (0x%x) must be a non-zero combination of bits 0x%x", fn, flag,
                        EVENT_FLAG_BITS);
    if ((flag & alone) != 0 && (flag & (flag - 1)) != 0) /* an "alone" bit, and more than one bit */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flag' (0x%x): ACL_EVENT_EXTERNAL and ACL_EVENT_DEVICE_USE_ONLY must be used "
                        "alone", fn, flag);
    return create_event(fn, event, flag, false, false);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)
{
    const char *fn = "aclrtCreateEventExWithFlag";
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag == 0 || (flag & ~EVENT_EX_FLAG_BITS) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flag' (0x%x) must be a non-zero combination of bits 0x%x", fn, flag,
                        EVENT_EX_FLAG_BITS);
    if ((flag & ACL_EVENT_IPC) && flag != ACL_EVENT_IPC)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: ACL_EVENT_IPC must be used alone", fn);
    if (flag & ACL_EVENT_IPC)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: IPC events need a second process; aclcpu has none", fn);
    return create_event(fn, event, flag, true, false);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
    struct event *ev;
    aclError err;
    if (event == NULL)
        return null_arg("aclrtDestroyEvent", "event");
    err = resolve_event("aclrtDestroyEvent", event, &ev);
    if (err == ACL_SUCCESS && event_destroy(ev, event) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyEvent: another thread destroyed the event first");
    return err;
}

static aclError check_same_device(const char *fn, struct event *ev, struct stream *s)
{
    if (load_relaxed(&ev->dev) == load_relaxed(&s->dev))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the event belongs to device %d but stream %d to device %d", fn,
                    load_relaxed(&ev->dev)->id, load_relaxed(&s->id), load_relaxed(&s->dev)->id);
}

enum fill_result { FILLED, SKIPPED, DEAD, NO_SLOT };

/* Called with ev->lock held: fills an eager event task of kind for s. A
 * record takes the next record number (and a lazy event its id); a wait
 * snapshots the newest record (an EXTERNAL event's waits wait until it is
 * set instead), and a wait on a never-recorded event queues nothing. */
static enum fill_result fill_locked(struct event *ev, const void *event, struct stream *s, struct task *t,
                                    enum task_kind kind, uint32_t timeout_ms)
{
    bool flag_event = (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL) != 0;
    if (!obj_same(&ev->hdr, event))
        return DEAD;
    if (kind == TASK_EVENT_RECORD && event_take_lazy_slot_locked(ev) != ACL_SUCCESS)
        return NO_SLOT;
    if (kind == TASK_EVENT_WAIT && ev->record_gen == 0 && !flag_event)
        return SKIPPED;
    t->u.event.ev = ev;
    if (kind == TASK_EVENT_RECORD) {
        t->u.event.gen = ++ev->record_gen;
        ev->last_recorder = obj_handle(&s->hdr);
        ev->newest_in_model = false; /* this record is the newest now */
    } else if (kind == TASK_EVENT_WAIT) {
        t->u.event.gen = flag_event ? GEN_FLAG : ev->record_gen; /* the snapshot: the newest record now */
        t->u.event.recorder = ev->last_recorder;
        t->u.event.timeout_ms = timeout_ms;
        ev->waits_issued++;
    }
    fetch_add_relaxed(&ev->pending_tasks, 1); /* under ev->lock */
    return FILLED;
}

/* A record, wait or reset on a stream that records into a model (or a
 * wait that may join a capture) goes to core/capture.c. */
static aclError model_path(const char *fn, enum task_kind kind, struct event *ev, aclrtEvent event, struct stream *s,
                           aclrtStream stream, bool *handled)
{
    if (kind == TASK_EVENT_WAIT)
        return model_event_wait(fn, ev, event, s, stream, handled);
    if (kind == TASK_EVENT_RESET)
        return model_event_reset(fn, ev, event, s, stream, handled);
    return model_event_record(fn, ev, event, s, stream, false, handled);
}

/* Called with s->lock and ev->lock held: must this call take the model
 * path after all (a capture began under our feet, or the waited event was
 * recorded in one)? */
static bool belongs_to_model_locked(const struct stream *s, const struct event *ev, enum task_kind kind)
{
    return s->rec_lane != NULL || s->update != NULL || (kind == TASK_EVENT_WAIT && ev->newest_in_model);
}

static aclError issue_event_task(const char *fn, aclrtStream stream, aclrtEvent event, struct event *ev,
                                 enum task_kind kind, uint32_t timeout_ms)
{
    bool slow = model_recording_anywhere(), handled;
    enum fill_result r;
    struct stream *s;
    struct task *t;
    aclError err = stream_resolve(fn, stream, &s);

    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    for (; err == ACL_SUCCESS;) {
        if (slow && ((err = model_path(fn, kind, ev, event, s, stream, &handled)) != ACL_SUCCESS || handled))
            return err;
        err = stream_begin_task(fn, s, stream, kind, &t);
        if (err != ACL_SUCCESS)
            return err;
        plat_spin_lock(&ev->lock);
        if (!slow && belongs_to_model_locked(s, ev, kind)) {
            plat_spin_unlock(&ev->lock);
            stream_abandon(s, t);
            slow = true;
            continue;
        }
        r = fill_locked(ev, event, s, t, kind, timeout_ms);
        plat_spin_unlock(&ev->lock);
        if (r == FILLED) {
            stream_commit(s, t);
            return ACL_SUCCESS;
        }
        stream_abandon(s, t);
        if (r == SKIPPED)
            return ACL_SUCCESS; /* a wait on a never-recorded event does nothing */
        return r == DEAD ? acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the event was destroyed during the call", fn)
                         : acl_fail(ACL_ERROR_RT_NO_EVENT_RESOURCE, "%s: device %d has no event id left", fn,
                                    load_relaxed(&ev->dev)->id);
    }
    return err;
}

static aclError record(const char *fn, aclrtEvent event, aclrtStream stream)
{
    struct event *ev;
    aclError err = resolve_event(fn, event, &ev);
    return err == ACL_SUCCESS ? issue_event_task(fn, stream, event, ev, TASK_EVENT_RECORD, 0) : err;
}

/* ACL_EVENT_RECORD_EXTERNAL: a record of the user's event inside a capture
 * (it is made in every run), with the rules capture.c checks. */
static aclError record_external(const char *fn, aclrtEvent event, aclrtStream stream)
{
    struct event *ev;
    struct stream *s;
    bool handled;
    aclError err = resolve_event(fn, event, &ev);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    return err == ACL_SUCCESS ? model_event_record(fn, ev, event, s, stream, true, &handled) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    if (event == NULL)
        return null_arg("aclrtRecordEvent", "event");
    return record("aclrtRecordEvent", event, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    const char *fn = "aclrtRecordEventWithFlag";
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag > ACL_EVENT_RECORD_EXTERNAL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be 0 (default) or 1 (external)", fn,
                        flag);
    if (flag == ACL_EVENT_RECORD_EXTERNAL)
        return record_external(fn, event, stream);
    return record(fn, event, stream);
}

/* Seconds to the milliseconds a wait may stay parked (0 = forever). */
static uint32_t wait_ms(uint64_t seconds)
{
    return seconds > UINT32_MAX / 1000u ? UINT32_MAX : (uint32_t)(seconds * 1000u);
}

static aclError wait_event(const char *fn, aclrtStream stream, aclrtEvent event, uint32_t timeout_ms)
{
    struct event *ev;
    aclError err = resolve_event(fn, event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&ev->flags) & ACL_EVENT_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: a DEVICE_USE_ONLY event cannot be waited on from a stream",
                        fn);
    if (!(load_relaxed(&ev->flags) & (ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL)))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: the event was created without ACL_EVENT_SYNC (or EXTERNAL), so streams cannot wait on it",
                        fn);
    return issue_event_task(fn, stream, event, ev, TASK_EVENT_WAIT, timeout_ms);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    if (event == NULL)
        return null_arg("aclrtStreamWaitEvent", "event");
    /* aclrtSetOpWaitTimeout bounds plain waits (process-wide, 0 = none). */
    return wait_event("aclrtStreamWaitEvent", stream, event,
                      wait_ms(load_relaxed(&op_wait_timeout_s)));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    const char *fn = "aclrtStreamWaitEventWithTimeout";
    if (timeout < 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is %d s; it must be 0 (never time out) or more", fn, timeout);
    if (event == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'event' is NULL", fn);
    return wait_event(fn, stream, event, wait_ms((uint64_t)timeout));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag)
{
    const char *fn = "aclrtStreamWaitEventWithFlag";
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag > ACL_EVENT_WAIT_EXTERNAL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be 0 (default) or 1 (external)", fn,
                        flag);
    if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: an external wait takes no timeout (got %u)", fn, timeout);
    return wait_event(fn, stream, event, wait_ms(timeout));
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    const char *fn = "aclrtResetEvent";
    struct event *ev;
    aclError err;
    if (event == NULL)
        return null_arg(fn, "event");
    err = resolve_event(fn, event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&ev->ex) || !(load_relaxed(&ev->flags) & (ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL)))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: only events with ACL_EVENT_SYNC (or EXTERNAL) from aclrtCreateEvent[WithFlag] can be "
                        "reset", fn);
    return issue_event_task(fn, stream, event, ev, TASK_EVENT_RESET, 0);
}

/* Reads an event's state under its lock. */
struct event_view {
    uint64_t record_gen, done_gen, ts;
    bool reset_done;
    uint64_t waits_issued, waits_done;
};

static struct event_view view(struct event *ev)
{
    struct event_view v;
    plat_spin_lock(&ev->lock);
    v.record_gen = ev->record_gen;
    v.done_gen = ev->done_gen;
    v.ts = ev->timestamp_ns;
    v.reset_done = ev->reset_done;
    v.waits_issued = ev->waits_issued;
    /* Acquire: pairs with event_task_release's release increment. */
    v.waits_done = load_acquire(&ev->waits_done);
    plat_spin_unlock(&ev->lock);
    return v;
}

static bool complete(const struct event_view *v) { return v->done_gen >= v->record_gen && !v->reset_done; }

/* The checks every query shares: NULLs (100000), context and handle, then
 * the kinds of event the query refuses (207000, naming why); on success
 * *v is a consistent view of the event. */
static aclError query_prelude(const char *fn, aclrtEvent event, const void *status, uint32_t refused_flags,
                              bool refuse_ex, struct event **ev, struct event_view *v)
{
    aclError err;
    if (event == NULL || status == NULL)
        return null_arg(fn, event == NULL ? "event" : "status");
    err = resolve_event(fn, event, ev);
    if (err != ACL_SUCCESS)
        return err;
    if ((refuse_ex && load_relaxed(&(*ev)->ex)) || (load_relaxed(&(*ev)->flags) & refused_flags))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for %s events", fn,
                        refuse_ex && load_relaxed(&(*ev)->ex) ? "Ex" : "EXTERNAL");
    err = model_refuse_captured_event(fn, *ev);
    if (err != ACL_SUCCESS)
        return err;
    *v = view(*ev);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    struct event *ev;
    struct event_view v;
    aclError err = query_prelude("aclrtQueryEvent", event, status, 0, true, &ev, &v);
    if (err == ACL_SUCCESS) /* never recorded counts as complete here (deprecated API) */
        *status = v.record_gen == 0 || complete(&v) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    struct event *ev;
    struct event_view v;
    aclError err = query_prelude("aclrtQueryEventStatus", event, status, ACL_EVENT_EXTERNAL, false, &ev, &v);
    if (err != ACL_SUCCESS)
        return err;
    if (v.record_gen == 0) /* never recorded: Ex events count as complete, others not (spec §5) */
        *status = load_relaxed(&ev->ex) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    else
        *status = complete(&v) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
    struct event *ev;
    struct event_view v;
    aclError err = query_prelude("aclrtQueryEventWaitStatus", event, status, 0, true, &ev, &v);
    if (err == ACL_SUCCESS)
        *status = v.waits_done >= v.waits_issued ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return err;
}

/* A sync while a profile runs: the host's wait for the event's newest
 * record is an edge of the modelled timeline. */
static aclError profiled_sync_event(const char *fn, struct event *ev, aclrtEvent event, int32_t timeout)
{
    uint64_t gen, t0 = plat_now_ns();
    aclError err;
    plat_spin_lock(&ev->lock);
    gen = ev->record_gen;
    plat_spin_unlock(&ev->lock);
    err = engine_sync_event(ev, event, plat_deadline_ms(timeout));
    prof_host_sync_event(fn, ev, gen, t0, plat_now_ns());
    return err;
}

static aclError sync_event(const char *fn, aclrtEvent event, int32_t timeout)
{
    struct event *ev;
    aclError err = resolve_event(fn, event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for EXTERNAL events", fn);
    err = model_refuse_captured_event(fn, ev);
    if (err != ACL_SUCCESS)
        return err;
    if (ACLCPU_UNLIKELY(prof_on()))
        err = profiled_sync_event(fn, ev, event, timeout);
    else
        err = engine_sync_event(ev, event, plat_deadline_ms(timeout));
    if (err == ACL_ERROR_RT_INVALID_HANDLE)
        return acl_fail(err, "%s: the event was destroyed by another thread during the wait", fn);
    if (err != ACL_SUCCESS) {
        char why[640];
        engine_explain_event(ev, why, sizeof(why));
        if (timeout > 0)
            return acl_fail(err, "%s: event %d did not complete within %d ms: %s", fn, load_relaxed(&ev->id), timeout,
                            why);
        return acl_fail(err, "%s: event %d made no progress for ACLCPU_HANG_TIMEOUT_MS and cannot complete by "
                        "itself: %s", fn, load_relaxed(&ev->id), why);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
    if (event == NULL)
        return null_arg("aclrtSynchronizeEvent", "event");
    return sync_event("aclrtSynchronizeEvent", event, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
    const char *fn = "aclrtSynchronizeEventWithTimeout";
    if (timeout < -1) /* the spec checks the timeout before the event */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is %d ms; it must be -1 or above 0", fn,
                        timeout);
    if (event == NULL)
        return null_arg(fn, "event");
    if (timeout == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is 0 ms; it must be -1 or above 0", fn);
    return sync_event(fn, event, timeout);
}

/* Timestamp of a completed event, or an error naming why there is none. */
static aclError stamp_of(const char *fn, const char *arg, aclrtEvent event, uint64_t *ns)
{
    struct event *ev;
    struct event_view v;
    aclError err = resolve_event(fn, event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&ev->flags) & (ACL_EVENT_EXTERNAL | ACL_EVENT_IPC))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: '%s' is an EXTERNAL/IPC event, which has no time",
                        fn, arg);
    err = model_refuse_captured_event(fn, ev);
    if (err != ACL_SUCCESS)
        return err;
    v = view(ev);
    if (v.record_gen == 0)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: '%s' was never recorded", fn, arg);
    if (v.done_gen < v.record_gen)
        return acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        "%s: '%s' has not completed yet (synchronize its stream or the event first)", fn, arg);
    *ns = v.ts;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    const char *fn = "aclrtEventElapsedTime";
    uint64_t a, b;
    aclError err;
    if (ms == NULL || startEvent == NULL || endEvent == NULL)
        return null_arg(fn, ms == NULL ? "ms" : startEvent == NULL ? "startEvent" : "endEvent");
    err = stamp_of(fn, "startEvent", startEvent, &a);
    if (err == ACL_SUCCESS)
        err = stamp_of(fn, "endEvent", endEvent, &b);
    if (err == ACL_SUCCESS)
        *ms = (float)((double)((int64_t)(b - a)) / 1e6);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    const char *fn = "aclrtEventGetTimestamp";
    uint64_t ns;
    aclError err;
    if (event == NULL || timestamp == NULL)
        return null_arg(fn, event == NULL ? "event" : "timestamp");
    err = stamp_of(fn, "event", event, &ns);
    if (err == ACL_SUCCESS)
        *timestamp = ns / 1000u; /* µs on the monotonic clock ("since boot") */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
    struct event *ev;
    aclError err;
    if (event == NULL || eventId == NULL)
        return null_arg("aclrtGetEventId", event == NULL ? "event" : "eventId");
    err = resolve_event("aclrtGetEventId", event, &ev);
    if (err == ACL_SUCCESS)
        *eventId = (uint32_t)load_relaxed(&ev->id);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
    struct context *ctx;
    aclError err;
    if (eventCount == NULL)
        return null_arg("aclrtGetEventAvailNum", "eventCount");
    err = ctx_require("aclrtGetEventAvailNum", &ctx);
    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&ctx->dev->lock);
    *eventCount = ctx->dev->soc->max_events - ctx->dev->events_used;
    plat_mutex_unlock(&ctx->dev->lock);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout)
{
    store_relaxed(&op_wait_timeout_s, timeout);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    (void)event;
    (void)handle;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtIpcGetEventHandle: IPC events are not supported");
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    (void)handle;
    (void)event;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtIpcOpenEventHandle: IPC events are not supported");
}

/* ---- notifies ---------------------------------------------------------------- */

static aclError resolve_notify(const char *fn, aclrtNotify h, struct event **out)
{
    struct context *ctx;
    aclError err;
    if (h == NULL)
        return null_arg(fn, "notify");
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    *out = (struct event *)obj_resolve(h, OBJ_NOTIFY);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'notify' (%p) is not a live notify: destroyed, or never created", fn, h);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
    const char *fn = "aclrtCreateNotify";
    struct context *ctx;
    struct event *n;
    aclError err;
    if (notify == NULL)
        return null_arg(fn, "notify");
    if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (%llu) must be ACL_NOTIFY_DEFAULT (0) or "
                        "ACL_NOTIFY_DEVICE_USE_ONLY (1)", fn, (unsigned long long)flag);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = notify_create(ctx, &n);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory", fn);
    *notify = obj_handle(&n->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify)
{
    struct event *n;
    aclError err = resolve_notify("aclrtDestroyNotify", notify, &n);
    if (err == ACL_SUCCESS && event_destroy(n, notify) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyNotify: another thread destroyed the notify first");
    return err;
}

static aclError queue_notify_task(const char *fn, aclrtNotify notify, aclrtStream stream, enum task_kind kind,
                                  uint32_t timeout_ms)
{
    struct event *n;
    struct stream *s;
    struct task *t;
    aclError err = resolve_notify(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, n, s);
    if (err == ACL_SUCCESS)
        err = stream_begin_task(fn, s, stream, kind, &t);
    if (err != ACL_SUCCESS)
        return err;
    plat_spin_lock(&n->lock);
    if (!obj_same(&n->hdr, notify)) {
        plat_spin_unlock(&n->lock);
        stream_abandon(s, t);
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the notify was destroyed during the call", fn);
    }
    t->u.event.ev = n;
    t->u.event.gen = kind == TASK_NOTIFY_RECORD ? ++n->record_gen : 0;
    if (kind == TASK_NOTIFY_RECORD)
        n->last_recorder = obj_handle(&s->hdr);
    t->u.event.timeout_ms = timeout_ms;
    fetch_add_relaxed(&n->pending_tasks, 1); /* under n->lock */
    plat_spin_unlock(&n->lock);
    stream_commit(s, t);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
    return queue_notify_task("aclrtRecordNotify", notify, stream, TASK_NOTIFY_RECORD, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
    /* ms; 0 waits forever. A wait still parked when it runs out fails the
     * task with ACL_ERROR_RT_WAIT_TIMEOUT, which the next sync returns. */
    return queue_notify_task("aclrtWaitAndResetNotify", notify, stream, TASK_NOTIFY_WAIT, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
    struct event *n;
    aclError err;
    if (notifyId == NULL)
        return null_arg("aclrtGetNotifyId", "notifyId");
    err = resolve_notify("aclrtGetNotifyId", notify, &n);
    if (err == ACL_SUCCESS)
        *notifyId = (uint32_t)load_relaxed(&n->id);
    return err;
}
