/*
 * api_event.c - events: create, record, wait, reset, query, sync, time.
 *
 * DESIGN: argument checks in the spec's order ([acl] NULL and flag checks,
 * then the context, then the handle, then [rt] rules), then event.c. A
 * record, wait or reset is a task made here and handed to stream_submit,
 * where event_issue_locked gives it its record number (or a wait its
 * snapshot) under the stream and event locks, atomically with the task
 * being queued. Takes no lock itself.
 *
 * Threads: any host thread.
 */
#include "api_int.h"
#include "../engine/engine.h"
#include "../core/profhook.h"

#define EVENT_FLAG_BITS 0x3Fu      /* aclrtCreateEventWithFlag accepts these */
#define EVENT_EX_FLAG_BITS 0x4Fu   /* aclrtCreateEventExWithFlag accepts these */

static _Atomic uint32_t op_wait_timeout_s; /* aclrtSetOpWaitTimeout; relaxed: a setting */

static aclError resolve_event(const char *fn, aclrtEvent h, struct event **out)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    *out = (struct event *)obj_resolve_user(h, OBJ_EVENT);
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
                        load_relaxed(&ctx->dev->events_used), ctx->dev->soc->max_events);
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

/* A record, wait or reset on a stream that records into a model (or a
 * wait that may join a capture) goes to core/capture.c. */
static aclError model_path(const char *fn, enum task_kind kind, struct event *ev, aclrtEvent event, struct stream *s,
                           aclrtStream stream, bool *handled)
{
    if (kind == TASK_EVENT_WAIT)
        return model_event_wait(fn, ev, event, s, stream, handled);
    if (kind == TASK_EVENT_RESET)
        return model_event_reset(fn, ev, event, s, stream, handled);
    return model_event_record(fn, ev, event, s, stream, handled);
}

/* Queues a record, wait or reset of ev on the stream; event_issue_locked
 * gives it its record number. While some model records, the model path
 * may take the task first; a capture that begins between that look and
 * the issue sends it there after all. */
static aclError issue_event_task(const char *fn, aclrtStream stream, aclrtEvent event, struct event *ev,
                                 enum task_kind kind, uint32_t timeout_ms)
{
    struct submit sub = {.fn = fn, .stream = stream, .event = event, .model_asked = model_recording_anywhere()};
    bool handled;
    struct stream *s;
    struct task *t;
    aclError err = stream_resolve(fn, stream, &s);

    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    while (err == ACL_SUCCESS) {
        if (sub.model_asked && ((err = model_path(fn, kind, ev, event, s, stream, &handled)) != ACL_SUCCESS || handled))
            return err;
        err = stream_task_new(fn, kind, &t);
        if (err != ACL_SUCCESS)
            return err;
        t->u.event.ev = ev;
        t->u.event.timeout_ms = timeout_ms;
        err = stream_submit(&sub, s, t);
        if (!sub.model_path)
            return err; /* queued, refused, or a wait on a never-recorded event (nothing to do) */
        sub.model_asked = true;
        sub.model_path = false;
    }
    return err;
}

/* An event's records all use one flag, and so do its waits: the first
 * call's (api_error.cc ApiErrorDecorator::EventRecord, StreamWaitEvent:
 * 107000, after the event's own checks; the handles were checked before). */
static aclError pin_flag(const char *fn, struct event *ev, bool wait, uint32_t flag)
{
    if (event_pin_op_flag(ev, wait, flag))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag': the event was %s with %s before; all %s of an "
                    "event use one flag", fn, wait ? "waited on" : "recorded",
                    wait ? (flag ? "ACL_EVENT_WAIT_DEFAULT" : "ACL_EVENT_WAIT_EXTERNAL")
                         : (flag ? "ACL_EVENT_RECORD_DEFAULT" : "ACL_EVENT_RECORD_EXTERNAL"),
                    wait ? "waits" : "records");
}

/* An external record or wait needs an Ex event with exactly ACL_EVENT_SYNC
 * (api_error.cc, checked before the flag is pinned). */
static aclError external_event_check(const char *fn, struct event *ev, bool record)
{
    if (load_relaxed(&ev->ex) && load_relaxed(&ev->flags) == ACL_EVENT_SYNC)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s needs an event from aclrtCreateEventExWithFlag with "
                    "exactly ACL_EVENT_SYNC", fn, record ? "ACL_EVENT_RECORD_EXTERNAL" : "ACL_EVENT_WAIT_EXTERNAL");
}

static aclError record(const char *fn, aclrtEvent event, aclrtStream stream)
{
    struct event *ev;
    struct stream *s;
    aclError err = resolve_event(fn, event, &ev);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = pin_flag(fn, ev, false, ACL_EVENT_RECORD_DEFAULT);
    return err == ACL_SUCCESS ? issue_event_task(fn, stream, event, ev, TASK_EVENT_RECORD, 0) : err;
}

/* ACL_EVENT_RECORD_EXTERNAL and ACL_EVENT_WAIT_EXTERNAL: a record or wait
 * of the user's event inside a capture, which each run of the model fixes
 * when it is issued, with the rules capture.c checks. */
static aclError external(const char *fn, struct event *ev, aclrtStream stream, bool record)
{
    struct stream *s;
    aclError err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = external_event_check(fn, ev, record);
    if (err == ACL_SUCCESS)
        err = pin_flag(fn, ev, !record, record ? ACL_EVENT_RECORD_EXTERNAL : ACL_EVENT_WAIT_EXTERNAL);
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    return err == ACL_SUCCESS ? model_event_external(fn, ev, s, stream, record) : err;
}

static aclError record_external(const char *fn, aclrtEvent event, aclrtStream stream)
{
    struct event *ev;
    aclError err = resolve_event(fn, event, &ev);
    return err == ACL_SUCCESS ? external(fn, ev, stream, true) : err;
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

static aclError wait_event(const char *fn, aclrtStream stream, aclrtEvent event, uint32_t timeout_ms, bool ext)
{
    struct event *ev;
    struct stream *s;
    aclError err = resolve_event(fn, event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&ev->flags) & ACL_EVENT_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: a DEVICE_USE_ONLY event cannot be waited on from a stream",
                        fn);
    if (!(load_relaxed(&ev->flags) & (ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: the event was created without ACL_EVENT_SYNC (or EXTERNAL), so streams cannot wait on it",
                        fn);
    if (ext)
        return external(fn, ev, stream, false);
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = pin_flag(fn, ev, true, ACL_EVENT_WAIT_DEFAULT);
    return err == ACL_SUCCESS ? issue_event_task(fn, stream, event, ev, TASK_EVENT_WAIT, timeout_ms) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    if (event == NULL)
        return null_arg("aclrtStreamWaitEvent", "event");
    /* aclrtSetOpWaitTimeout bounds plain waits (process-wide, 0 = none). */
    return wait_event("aclrtStreamWaitEvent", stream, event,
                      wait_ms(load_relaxed(&op_wait_timeout_s)), false);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    const char *fn = "aclrtStreamWaitEventWithTimeout";
    if (timeout < 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is %d s; it must be 0 (never time out) or more", fn, timeout);
    if (event == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'event' is NULL", fn);
    return wait_event(fn, stream, event, wait_ms((uint64_t)timeout), false);
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
    return wait_event(fn, stream, event, wait_ms(timeout), flag == ACL_EVENT_WAIT_EXTERNAL);
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

/* The queries look at the newest record only: a reset does not change
 * what they report (event.cc Event::Query / QueryEventStatus). */
static bool complete(const struct event_view *v) { return v->done_gen >= v->record_gen; }

/* The checks every query shares: NULLs (100000), context and handle, then
 * the kinds of event the query refuses (207000, naming why). Returns the
 * event, or NULL with *err set. */
static struct event *query_prelude(const char *fn, aclrtEvent event, const void *status, uint32_t refused_flags,
                                   bool refuse_ex, aclError *err)
{
    struct event *ev = NULL;
    if (event == NULL || status == NULL) {
        *err = null_arg(fn, event == NULL ? "event" : "status");
        return NULL;
    }
    *err = resolve_event(fn, event, &ev);
    if (*err == ACL_SUCCESS && ((refuse_ex && load_relaxed(&ev->ex)) || (load_relaxed(&ev->flags) & refused_flags)))
        *err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for %s events", fn,
                        refuse_ex && load_relaxed(&ev->ex) ? "Ex" : "EXTERNAL");
    if (*err == ACL_SUCCESS)
        *err = model_refuse_captured_event(fn, ev);
    if (*err == ACL_SUCCESS && load_relaxed(&event_ctx(ev)->failure_error) != ACL_SUCCESS)
        *err = context_failed(fn, event_ctx(ev)); /* api_impl.cc EventQuery*: the context's status first */
    return *err == ACL_SUCCESS ? ev : NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEvent", event, status, 0, true, &err);
    struct event_view v;
    if (ev == NULL)
        return err;
    event_snapshot(ev, &v); /* never recorded counts as complete here (deprecated API) */
    *status = v.record_gen == 0 || complete(&v) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEventStatus", event, status, ACL_EVENT_EXTERNAL, false, &err);
    struct event_view v;
    if (ev == NULL)
        return err;
    event_snapshot(ev, &v);
    if (v.record_gen == 0) /* never recorded: Ex events count as complete, others not (spec §5) */
        *status = load_relaxed(&ev->ex) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    else
        *status = complete(&v) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEventWaitStatus", event, status, 0, true, &err);
    struct event_view v;
    if (ev == NULL)
        return err;
    event_snapshot(ev, &v);
    *status = v.waits_done >= v.waits_issued ? ACL_EVENT_WAIT_STATUS_COMPLETE : ACL_EVENT_WAIT_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

/* A sync while a profile runs: the host's wait for the event's newest
 * record is an edge of the modelled timeline. */
static enum sync_result profiled_sync_event(const char *fn, struct event *ev, aclrtEvent event, int32_t timeout)
{
    uint64_t t0 = plat_now_ns();
    struct event_view v;
    enum sync_result end;
    event_snapshot(ev, &v); /* the newest record: the one the sync waits for */
    end = engine_sync_event(ev, event, plat_deadline_ms(timeout));
    profhook_host_sync_event(fn, ev, v.record_gen, t0, plat_now_ns());
    return end;
}

static aclError sync_event(const char *fn, aclrtEvent event, int32_t timeout)
{
    const aclError err = ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
    struct event *ev;
    enum sync_result end;
    char why[640];
    aclError rc = resolve_event(fn, event, &ev);
    if (rc != ACL_SUCCESS)
        return rc;
    if (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for EXTERNAL events", fn);
    rc = model_refuse_captured_event(fn, ev);
    if (rc != ACL_SUCCESS)
        return rc;
    if (ACLCPU_UNLIKELY(load_relaxed(&event_ctx(ev)->failure_error) != ACL_SUCCESS))
        return context_failed(fn, event_ctx(ev)); /* api_impl.cc EventSynchronize: CheckStatus first */
    if (ACLCPU_UNLIKELY(prof_on()))
        end = profiled_sync_event(fn, ev, event, timeout);
    else
        end = engine_sync_event(ev, event, plat_deadline_ms(timeout));
    if (end == SYNC_DESTROYED)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the event was destroyed by another thread during the wait",
                        fn);
    if (end == SYNC_DONE)
        return ACL_SUCCESS;
    engine_explain_event(ev, why, sizeof(why));
    if (timeout > 0)
        return acl_fail(err, "%s: event %d did not complete within %d ms: %s", fn, load_relaxed(&ev->id), timeout, why);
    return acl_fail(err, "%s: event %d made no progress for ACLCPU_HANG_TIMEOUT_MS and cannot complete by itself: %s",
                    fn, load_relaxed(&ev->id), why);
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

/* Timestamp of a completed event; 0 with *err naming why there is none. */
static uint64_t stamp_of(const char *fn, const char *arg, aclrtEvent event, aclError *err)
{
    struct event *ev;
    struct event_view v;
    *err = resolve_event(fn, event, &ev);
    if (*err != ACL_SUCCESS)
        return 0;
    if (load_relaxed(&ev->flags) & (ACL_EVENT_EXTERNAL | ACL_EVENT_IPC))
        *err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: '%s' is an EXTERNAL/IPC event, which has no time",
                        fn, arg);
    else
        *err = model_refuse_captured_event(fn, ev);
    if (*err != ACL_SUCCESS)
        return 0;
    event_snapshot(ev, &v);
    if (v.record_gen == 0)
        *err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: '%s' was never recorded", fn, arg);
    else if (v.done_gen < v.record_gen)
        *err = acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        "%s: '%s' has not completed yet (synchronize its stream or the event first)", fn, arg);
    return *err == ACL_SUCCESS ? v.ts : 0;
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    const char *fn = "aclrtEventElapsedTime";
    uint64_t a, b;
    aclError err;
    if (ms == NULL || startEvent == NULL || endEvent == NULL)
        return null_arg(fn, ms == NULL ? "ms" : startEvent == NULL ? "startEvent" : "endEvent");
    a = stamp_of(fn, "startEvent", startEvent, &err);
    if (err == ACL_SUCCESS)
        b = stamp_of(fn, "endEvent", endEvent, &err);
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
    ns = stamp_of(fn, "event", event, &err);
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
    *eventCount = device_events_left(ctx->dev);
    return ACL_SUCCESS;
}

/* Any value is taken (0: wait forever). On Atlas inference (310P) the
 * setting goes to the current device's scheduler, so a current context is
 * needed there (107002); elsewhere it is the process's and needs none. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout)
{
    struct context *ctx;
    if (soc_configured()->family == SOC_310P) {
        aclError err = ctx_require("aclrtSetOpWaitTimeout", &ctx);
        if (err != ACL_SUCCESS)
            return err;
    }
    store_relaxed(&op_wait_timeout_s, timeout);
    return ACL_SUCCESS;
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
    struct submit sub = {.fn = fn, .stream = stream, .event = notify};
    struct event *n;
    struct stream *s;
    struct task *t;
    aclError err = resolve_notify(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, n, s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, kind, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.event.ev = n;
    t->u.event.timeout_ms = timeout_ms;
    return stream_submit(&sub, s, t);
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
