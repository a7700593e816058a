/*
 * api_event.c - events: create, record, wait, reset, query, sync, time.
 *
 * DESIGN: argument checks in the reference's order: the ACL layer's NULL
 * and flag checks, the handles (with or without a context), the
 * runtime's rules on the arguments, then the context and the stream's
 * (only the calls that make something or queue a task need one), then
 * event.c. A record, wait or reset is a task made here and handed to
 * stream_submit, where event_issue_locked gives it its record number (or
 * a wait its snapshot) under the stream and event locks, atomically with
 * the task being queued. Takes no lock itself (the capture lock only to
 * look at the model an event's newest record is in).
 *
 * Threads: any host thread.
 */
#include "api_int.h"
#include "../engine/engine.h"
#include "../core/profhook.h"

#define EVENT_FLAG_BITS 0x3Fu      /* aclrtCreateEventWithFlag accepts these */
#define EVENT_EX_FLAG_BITS 0x4Fu   /* aclrtCreateEventExWithFlag accepts these */

static _Atomic uint32_t op_wait_timeout_s; /* aclrtSetOpWaitTimeout; relaxed: a setting */

/* ---- handles and the checks every event call shares ------------------------- */

/* The runtime validates the handles it is given before its other checks,
 * and before it looks for a context (api_c.cc: every event call starts
 * with the handle): an event or stream handle that names nothing is 107017
 * whether or not the thread has a context. */
static aclError event_arg(const char *fn, const char *arg, aclrtEvent h, struct event **out)
{
    *out = (struct event *)obj_resolve_user(h, OBJ_EVENT);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument '%s' (%p) is not a live event: destroyed, never created, or not an event", fn,
                        arg, h);
    return ACL_SUCCESS;
}

/* A stream handle, resolved without a context; NULL stays NULL until
 * stream_here makes it the current context's default stream. */
static aclError stream_arg(const char *fn, aclrtStream h, struct stream **out)
{
    *out = NULL;
    if (h == NULL)
        return ACL_SUCCESS;
    *out = (struct stream *)obj_resolve_user(h, OBJ_STREAM);
    return *out != NULL ? ACL_SUCCESS : stream_stale(fn, h);
}

/* What a record, wait or reset (and a notify's record or wait) needs of
 * the context, after the argument checks: a current one (107002), the
 * default stream for NULL, and a stream of that context (107003). */
static aclError stream_here(const char *fn, struct stream **s)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (*s == NULL) {
        *s = ctx->default_stream;
        return ACL_SUCCESS;
    }
    if (stream_ctx(*s) == ctx)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT,
                    "%s: argument 'stream' (stream %d) belongs to another context than the current one", fn,
                    load_relaxed(&(*s)->id));
}

static bool is_capturing(struct stream *s)
{
    return s != NULL && model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE;
}

/* An Ex event takes no record or wait on a stream bound to a model (build
 * mode), EXTERNAL or not (207000: api_impl.cc EventRecord, StreamWaitEvent,
 * checked before the stream's context and the capture). The EXTERNAL calls
 * are told here; the others when the model path refuses them. */
static aclError external_on_bound_stream(const char *fn, struct stream *s)
{
    bool bound;
    if (s == NULL)
        return ACL_SUCCESS;
    plat_spin_lock(&s->lock);
    bound = s->model != NULL;
    plat_spin_unlock(&s->lock);
    if (!bound)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: stream %d is bound to a model: an Ex event (and so an EXTERNAL record or wait) is not "
                    "taken there", fn, load_relaxed(&s->id));
}

/* Which flag an event's records or waits use (event->op_flag). */
enum { OP_RECORD = 0, OP_WAIT = 1 };

/* The first record (or wait) of an event fixes the flag all later ones
 * must use (107000 for the other one). The first call fixes it even when
 * it fails further on, as the reference's does. */
static aclError same_op_flag(const char *fn, struct event *ev, int op, uint32_t flag)
{
    uint32_t seen = EVENT_OP_FLAG_UNSET;
    if (cas_relaxed(&ev->op_flag[op], &seen, flag) || seen == flag)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument 'flag' (%u): every %s of one event takes the flag its first one took (%u)", fn,
                    flag, op == OP_RECORD ? "record" : "wait", seen);
}

/* The checks of a record, wait and reset on the event's kind, in the
 * reference's order (api_error.cc EventRecord, StreamWaitEvent,
 * EventReset): a DEVICE_USE_ONLY event is the device's (107000); an IPC
 * event takes no task on a capturing stream (207000). */
static aclError task_event_kind(const char *fn, struct event *ev, struct stream *s)
{
    uint32_t flags = load_relaxed(&ev->flags);
    if (flags & ACL_EVENT_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'event' is a DEVICE_USE_ONLY event: only the device may use it", fn);
    if (flags == ACL_EVENT_IPC && is_capturing(s))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: an IPC event takes no task on a capturing stream", fn);
    return ACL_SUCCESS;
}

/* A wait or a reset needs an event a stream can wait for: one with SYNC,
 * EXTERNAL or IPC (207000: TIME_LINE or CAPTURE_STREAM_PROGRESS alone). */
static aclError needs_wait_task(const char *fn, const struct event *ev, const char *what)
{
    if (load_relaxed(&ev->flags) & (ACL_EVENT_SYNC | EVENT_FLAG_DDSYNC | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: the event was created without ACL_EVENT_SYNC (flags 0x%x), so streams cannot %s it", fn,
                    load_relaxed(&ev->flags), what);
}

/* The EXTERNAL record and wait flags take only an event from
 * aclrtCreateEventExWithFlag(ACL_EVENT_SYNC) (207000). */
static aclError external_needs_ex_sync(const char *fn, const struct event *ev)
{
    if (load_relaxed(&ev->ex) && load_relaxed(&ev->flags) == ACL_EVENT_SYNC)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: argument 'flag' is EXTERNAL, which takes only an event from aclrtCreateEventExWithFlag with "
                    "exactly ACL_EVENT_SYNC", fn);
}

/* DEVICE_USE_ONLY events and notifies are for the device's collective
 * work, which Atlas training and Atlas 200I/500 A2 have not (207000:
 * api_impl.cc EventCreate, NotifyCreate -> capability.cc
 * CheckSupportMC2Feature, mc2FeatureFlag 0 for cloud and mini_v3). */
static aclError device_use_only_here(const char *fn, const struct context *ctx)
{
    enum soc_family f = ctx->dev->soc->family;
    if (f != SOC_910 && f != SOC_200I500A2)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'flag': %s has no DEVICE_USE_ONLY events or "
                    "notifies", fn, ctx->dev->soc->name);
}

static aclError create_event(const char *fn, aclrtEvent *event, uint32_t flag, bool ex, bool lazy)
{
    struct context *ctx;
    struct event *ev;
    aclError err;
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS && !ex && flag == ACL_EVENT_DEVICE_USE_ONLY)
        err = device_use_only_here(fn, ctx);
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
    struct context *ctx = ctx_current();
    const struct soc_profile *soc = ctx != NULL ? ctx->dev->soc : soc_configured();
    if (event == NULL)
        return null_arg(fn, "event");
    if ((flag & ACL_EVENT_IPC) && flag != ACL_EVENT_IPC)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (0x%x): ACL_EVENT_IPC must be used alone",
                        fn, flag);
    /* IPC events exist on the chips with value waits (A2, A3, 950). */
    if (flag == ACL_EVENT_IPC && !soc_has_cmo(soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no IPC events (A2, A3 and 950 do)", fn,
                        soc->name);
    if (flag == 0 || (flag & ~EVENT_EX_FLAG_BITS) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flag' (0x%x) must be a non-zero combination of bits 0x%x", fn, flag,
                        EVENT_EX_FLAG_BITS);
    return create_event(fn, event, flag, true, false);
}

/* No context is needed: the event knows its own (api_impl.cc EventDestroy). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
    const char *fn = "aclrtDestroyEvent";
    struct event *ev;
    aclError err;
    if (event == NULL)
        return null_arg(fn, "event");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = event_arg(fn, "event", event, &ev);
    if (err == ACL_SUCCESS && event_destroy(ev, event) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the event first", fn);
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

/* Queues a record, wait or reset of ev on s (checked: in the current
 * context); event_issue_locked gives it its record number. While some
 * model records, the model path may take the task first; a capture that
 * begins between that look and the issue sends it there after all. */
static aclError issue_event_task(const char *fn, struct stream *s, aclrtStream stream, aclrtEvent event,
                                 struct event *ev, enum task_kind kind, uint32_t timeout_ms)
{
    struct submit sub = {.fn = fn, .stream = stream, .event = event, .model_asked = model_recording_anywhere()};
    bool handled;
    struct task *t;
    aclError err = ACL_SUCCESS;

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

/* aclrtRecordEvent[WithFlag], after the ACL layer's checks: the handles,
 * the event's kind, the EXTERNAL rules and the flag every record of the
 * event shares (api_error.cc EventRecord), then the context, the stream's
 * (api_impl.cc EventRecord) and, on a CPU, the device. */
static aclError record(const char *fn, aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    struct event *ev;
    struct stream *s;
    aclError err = event_arg(fn, "event", event, &ev);
    if (err == ACL_SUCCESS)
        err = stream_arg(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = task_event_kind(fn, ev, s);
    if (err == ACL_SUCCESS && flag == ACL_EVENT_RECORD_EXTERNAL)
        err = external_needs_ex_sync(fn, ev);
    if (err == ACL_SUCCESS)
        err = same_op_flag(fn, ev, OP_RECORD, flag);
    if (err == ACL_SUCCESS && flag == ACL_EVENT_RECORD_EXTERNAL)
        err = external_on_bound_stream(fn, s);
    if (err == ACL_SUCCESS)
        err = stream_here(fn, &s);
    if (err == ACL_SUCCESS && flag == ACL_EVENT_RECORD_EXTERNAL && !is_capturing(s))
        err = acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: an EXTERNAL record needs a capturing stream; stream %d "
                       "is not being captured", fn, load_relaxed(&s->id));
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    if (err != ACL_SUCCESS)
        return err;
    /* EXTERNAL: a record of the user's event inside the capture, which
     * each run of the model issues when the run is issued (capture.c). */
    if (flag == ACL_EVENT_RECORD_EXTERNAL)
        return model_event_external(fn, ev, s, stream, true);
    return issue_event_task(fn, s, stream, event, ev, TASK_EVENT_RECORD, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
    CHECK_SITE();
    if (event == NULL)
        return null_arg("aclrtRecordEvent", "event");
    return record("aclrtRecordEvent", event, stream, ACL_EVENT_RECORD_DEFAULT);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag)
{
    CHECK_SITE();
    const char *fn = "aclrtRecordEventWithFlag";
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag > ACL_EVENT_RECORD_EXTERNAL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be 0 (default) or 1 (external)", fn,
                        flag);
    return record(fn, event, stream, flag);
}

/* Seconds to the milliseconds a wait may stay parked (0 = forever). */
static uint32_t wait_ms(uint64_t seconds)
{
    return seconds > UINT32_MAX / 1000u ? UINT32_MAX : (uint32_t)(seconds * 1000u);
}

/* Every stream wait on an event, once its own arguments are checked: the
 * stream's handle, then the event's (api_c_stream.cc), the rules of
 * api_error.cc StreamWaitEvent, the context's (api_impl.cc), and the
 * devices (event.cc Event::Wait). */
/* How long a stream wait may stay parked, in ms (0 = forever), from the
 * call's timeout in seconds (plain: aclrtStreamWaitEvent, which has none)
 * and the chip: Atlas training's waits have none; Atlas inference's take
 * only the default (aclrtSetOpWaitTimeout's, asked for by UINT32_MAX or a
 * plain wait); the others take the timeout given (api_c_stream.cc
 * rtStreamWaitEvent, rtStreamWaitEventWithTimeout: streamWaitEventTimeout
 * NOT_SUPPORT, ZERO, CUSTOM in src/runtime/config/ dev_info_reg.cc). */
static uint32_t stream_wait_ms(const struct soc_profile *soc, uint32_t timeout_s, bool plain)
{
    uint32_t op = load_relaxed(&op_wait_timeout_s);
    if (soc->family == SOC_910)
        return 0;
    if (plain || timeout_s == UINT32_MAX)
        return wait_ms(op);
    return soc->family == SOC_310P ? 0 : wait_ms(timeout_s);
}

static aclError wait_event(const char *fn, aclrtStream stream, aclrtEvent event, uint32_t timeout_s, bool plain,
                           uint32_t flag)
{
    struct event *ev;
    struct stream *s;
    aclError err = stream_arg(fn, stream, &s);
    if (err == ACL_SUCCESS && event == NULL) /* WithTimeout has no ACL-layer NULL check: the runtime's */
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'event' is NULL", fn);
    if (err == ACL_SUCCESS)
        err = event_arg(fn, "event", event, &ev);
    if (err == ACL_SUCCESS)
        err = task_event_kind(fn, ev, s);
    if (err == ACL_SUCCESS)
        err = needs_wait_task(fn, ev, "wait on");
    if (err == ACL_SUCCESS && flag == ACL_EVENT_WAIT_EXTERNAL)
        err = external_needs_ex_sync(fn, ev);
    if (err == ACL_SUCCESS)
        err = same_op_flag(fn, ev, OP_WAIT, flag);
    if (err == ACL_SUCCESS && flag == ACL_EVENT_WAIT_EXTERNAL)
        err = external_on_bound_stream(fn, s);
    if (err == ACL_SUCCESS)
        err = stream_here(fn, &s);
    if (err == ACL_SUCCESS && flag == ACL_EVENT_WAIT_EXTERNAL && !is_capturing(s))
        err = acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: an EXTERNAL wait needs a capturing stream; stream %d "
                       "is not being captured", fn, load_relaxed(&s->id));
    if (err != ACL_SUCCESS)
        return err;
    /* EXTERNAL: a wait of the user's event inside the capture, on its
     * newest record when each run is issued (capture.c). */
    if (flag == ACL_EVENT_WAIT_EXTERNAL)
        return model_event_external(fn, ev, s, stream, false);
    /* A wait across devices: the chips with value waits make it one on
     * the recording device's event word; the others queue nothing and
     * succeed (event.cc CrossDeviceEventWait). Here the waiting stream
     * parks on the event whatever its device. */
    if (load_relaxed(&ev->dev) != load_relaxed(&s->dev) && !soc_has_cmo(load_relaxed(&s->dev)->soc))
        return ACL_SUCCESS;
    return issue_event_task(fn, s, stream, event, ev, TASK_EVENT_WAIT,
                            stream_wait_ms(load_relaxed(&s->dev)->soc, timeout_s, plain));
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
    CHECK_SITE();
    if (event == NULL)
        return null_arg("aclrtStreamWaitEvent", "event");
    /* aclrtSetOpWaitTimeout bounds plain waits (process-wide, 0 = none). */
    return wait_event("aclrtStreamWaitEvent", stream, event, 0, true, ACL_EVENT_WAIT_DEFAULT);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout)
{
    CHECK_SITE();
    const char *fn = "aclrtStreamWaitEventWithTimeout";
    if (timeout < 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is %d s; it must be 0 (never time out) or more", fn, timeout);
    return wait_event(fn, stream, event, (uint32_t)timeout, false, ACL_EVENT_WAIT_DEFAULT);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag)
{
    CHECK_SITE();
    const char *fn = "aclrtStreamWaitEventWithFlag";
    if (event == NULL)
        return null_arg(fn, "event");
    if (flag > ACL_EVENT_WAIT_EXTERNAL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be 0 (default) or 1 (external)", fn,
                        flag);
    if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'timeout' (%u): an external wait takes 0", fn, timeout);
    return wait_event(fn, stream, event, timeout, false, flag);
}

/* api_error.cc EventReset, then api_impl.cc EventReset: the handles, the
 * event's kind, the context, Ex events (207000), the stream's context. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
    CHECK_SITE();
    const char *fn = "aclrtResetEvent";
    struct event *ev;
    struct stream *s;
    aclError err;
    if (event == NULL)
        return null_arg(fn, "event");
    err = event_arg(fn, "event", event, &ev);
    if (err == ACL_SUCCESS)
        err = stream_arg(fn, stream, &s);
    if (err == ACL_SUCCESS && (load_relaxed(&ev->flags) & ACL_EVENT_DEVICE_USE_ONLY))
        err = task_event_kind(fn, ev, s);
    if (err == ACL_SUCCESS && load_relaxed(&ev->flags) == ACL_EVENT_IPC)
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: an IPC event cannot be reset", fn);
    if (err == ACL_SUCCESS)
        err = needs_wait_task(fn, ev, "reset");
    if (err == ACL_SUCCESS) {
        struct context *ctx;
        err = ctx_require(fn, &ctx);
    }
    if (err == ACL_SUCCESS && load_relaxed(&ev->ex))
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       "%s: an event from aclrtCreateEventExWithFlag cannot be reset (only those of "
                       "aclrtCreateEvent[WithFlag])", fn);
    if (err == ACL_SUCCESS)
        err = stream_here(fn, &s);
    if (err == ACL_SUCCESS)
        err = check_same_device(fn, ev, s);
    return err == ACL_SUCCESS ? issue_event_task(fn, s, stream, event, ev, TASK_EVENT_RESET, 0) : err;
}

/* The queries look at the newest record only: a reset does not change
 * what they report (event.cc Event::Query / QueryEventStatus). */
static bool complete(const struct event_view *v) { return v->done_gen >= v->record_gen; }

/* The checks every query shares, none of which needs a context (the event
 * knows its own: api_impl_event_common.cc): NULLs (100000), the handle,
 * then the kinds of event the query refuses (207000, naming why), an
 * event in a capture (107028), the event's context's failure. Returns the
 * event, or NULL with *err set. */
static struct event *query_prelude(const char *fn, aclrtEvent event, const void *status, uint32_t refused_flags,
                                   bool refuse_ex, aclError *err)
{
    struct event *ev = NULL;
    if (event == NULL || status == NULL) {
        *err = null_arg(fn, event == NULL ? "event" : "status");
        return NULL;
    }
    *err = event_arg(fn, "event", event, &ev);
    if (*err == ACL_SUCCESS && refuse_ex && load_relaxed(&ev->ex))
        *err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for events of aclrtCreateEventExWithFlag", fn);
    else if (*err == ACL_SUCCESS && (load_relaxed(&ev->flags) & refused_flags))
        *err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for EXTERNAL events", fn);
    if (*err == ACL_SUCCESS)
        *err = model_refuse_captured_event(fn, ev);
    if (*err == ACL_SUCCESS && load_relaxed(&event_ctx(ev)->failure_error) != ACL_SUCCESS)
        *err = context_failed(fn, event_ctx(ev)); /* api_impl.cc EventQuery*: the context's status first */
    return *err == ACL_SUCCESS ? ev : NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEvent", event, status, ACL_EVENT_EXTERNAL, true, &err);
    struct event_view v;
    if (ev == NULL)
        return err;
    struct check_snap *snap = check_on() ? check_sync_event_begin(obj_handle(&ev->hdr)) : NULL;
    event_snapshot(ev, &v); /* never recorded counts as complete here (deprecated API) */
    *status = v.record_gen == 0 || complete(&v) ? ACL_EVENT_STATUS_COMPLETE : ACL_EVENT_STATUS_NOT_READY;
    check_sync_end(snap, *status == ACL_EVENT_STATUS_COMPLETE); /* a completed query orders the host */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEventStatus", event, status, ACL_EVENT_EXTERNAL, false, &err);
    struct event_view v;
    if (ev == NULL)
        return err;
    struct check_snap *snap = check_on() ? check_sync_event_begin(obj_handle(&ev->hdr)) : NULL;
    event_snapshot(ev, &v);
    if (v.record_gen == 0) /* never recorded: Ex events count as complete, others not (spec §5) */
        *status = load_relaxed(&ev->ex) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    else
        *status = complete(&v) ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    check_sync_end(snap, *status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
    aclError err;
    struct event *ev = query_prelude("aclrtQueryEventWaitStatus", event, status, ACL_EVENT_EXTERNAL, true, &err);
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

/* Is ev's newest record one made on a stream bound to a model that
 * aclmdlRIBuildBegin made (not a capture, whose records are its own)? The
 * capture lock keeps the model from going while it is looked at. */
static bool newest_record_in_bound_model(struct event *ev)
{
    const void *model = NULL;
    struct model *m;
    bool in;
    plat_spin_lock(&ev->lock);
    if (ev->newest_in_model)
        model = ev->rec_model;
    plat_spin_unlock(&ev->lock);
    if (model == NULL)
        return false;
    capture_enter();
    m = (struct model *)obj_resolve(model, OBJ_MODEL);
    in = m != NULL && m->kind == MODEL_BUILT;
    capture_leave();
    return in;
}

/* No context is needed (api_impl.cc EventSynchronize checks the event's).
 * The handle comes first, then the runtime's timeout rule (0 is refused:
 * api_error.cc EventSynchronize), the kind, a capture, the failure. */
static aclError sync_event(const char *fn, aclrtEvent event, int32_t timeout)
{
    const aclError err = ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
    struct event *ev;
    enum sync_result end;
    char why[640];
    aclError rc = event_arg(fn, "event", event, &ev);
    if (rc != ACL_SUCCESS)
        return rc;
    if (timeout == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is 0 ms; it must be -1 or above 0", fn);
    if (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: not for EXTERNAL events", fn);
    rc = model_refuse_captured_event(fn, ev);
    if (rc != ACL_SUCCESS)
        return rc;
    if (newest_record_in_bound_model(ev))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the event's newest record is on a stream bound to a model "
                        "(aclmdlRIBindStream); the host cannot wait for it", fn);
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
    if (timeout < -1) /* the ACL layer checks the timeout before the event */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is %d ms; it must be -1 or above 0", fn,
                        timeout);
    if (event == NULL)
        return null_arg(fn, "event");
    return sync_event(fn, event, timeout);
}

/* The time checks of one event (api_error.cc EventElapsedTime,
 * EventGetTimeStamp): EXTERNAL and IPC events have no time (207000). */
static aclError has_time(const char *fn, const char *arg, const struct event *ev)
{
    if (!(load_relaxed(&ev->flags) & (ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: '%s' is an EXTERNAL or IPC event, which has no time", fn,
                    arg);
}

static uint64_t newest_record(struct event *ev)
{
    struct event_view v;
    event_snapshot(ev, &v);
    return v.record_gen;
}

/* The newest record's completion time: 507899 if the event was never
 * recorded, 107006 until that record has completed (event.cc
 * Event::ElapsedTime / GetTimeStamp). */
static aclError stamp_of(const char *fn, const char *arg, struct event *ev, uint64_t *ns)
{
    struct event_view v;
    event_snapshot(ev, &v);
    if (v.record_gen == 0)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: '%s' was never recorded", fn, arg);
    if (v.done_gen < v.record_gen)
        return acl_fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                        "%s: '%s' has not completed yet (synchronize its stream or the event first)", fn, arg);
    *ns = v.ts;
    return ACL_SUCCESS;
}

/* No context is needed. Both handles, then a capture of either, then the
 * kinds of either, then the records (api_impl_event_common.cc). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)
{
    const char *fn = "aclrtEventElapsedTime";
    struct event *a, *b;
    uint64_t ta = 0, tb = 0;
    aclError err;
    if (ms == NULL || startEvent == NULL || endEvent == NULL)
        return null_arg(fn, ms == NULL ? "ms" : startEvent == NULL ? "startEvent" : "endEvent");
    err = event_arg(fn, "startEvent", startEvent, &a);
    if (err == ACL_SUCCESS)
        err = event_arg(fn, "endEvent", endEvent, &b);
    if (err == ACL_SUCCESS)
        err = model_refuse_captured_event(fn, a);
    if (err == ACL_SUCCESS)
        err = model_refuse_captured_event(fn, b);
    if (err == ACL_SUCCESS)
        err = has_time(fn, "startEvent", a);
    if (err == ACL_SUCCESS)
        err = has_time(fn, "endEvent", b);
    /* Either never recorded first (507899), then a time not there yet (107006). */
    if (err == ACL_SUCCESS && (newest_record(a) == 0 || newest_record(b) == 0))
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: '%s' was never recorded", fn,
                       newest_record(a) == 0 ? "startEvent" : "endEvent");
    if (err == ACL_SUCCESS)
        err = stamp_of(fn, "startEvent", a, &ta);
    if (err == ACL_SUCCESS)
        err = stamp_of(fn, "endEvent", b, &tb);
    if (err == ACL_SUCCESS)
        *ms = (float)((double)((int64_t)(tb - ta)) / 1e6);
    return err;
}

/* No context is needed; the ACL layer checks 'timestamp' before 'event'. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
    const char *fn = "aclrtEventGetTimestamp";
    struct event *ev;
    uint64_t ns = 0;
    aclError err;
    if (timestamp == NULL || event == NULL)
        return null_arg(fn, timestamp == NULL ? "timestamp" : "event");
    err = event_arg(fn, "event", event, &ev);
    if (err == ACL_SUCCESS)
        err = has_time(fn, "event", ev);
    if (err == ACL_SUCCESS)
        err = model_refuse_captured_event(fn, ev);
    if (err == ACL_SUCCESS)
        err = stamp_of(fn, "event", ev, &ns);
    if (err == ACL_SUCCESS)
        *timestamp = ns / 1000u; /* µs on the monotonic clock ("since boot") */
    return err;
}

/* No context is needed (api_impl_event_common.cc GetEventID). An IPC
 * event has no id to give (207000); an event that holds no hardware id
 * has none either (507899): one of aclrtCreateEvent or
 * aclrtCreateEventExWithFlag before its first record, and one made
 * without SYNC, EXTERNAL or DEVICE_USE_ONLY (event.cc GetEventID,
 * InitEventAllocFlag). */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId)
{
    const char *fn = "aclrtGetEventId";
    struct event *ev;
    uint32_t flags;
    aclError err;
    if (event == NULL || eventId == NULL)
        return null_arg(fn, event == NULL ? "event" : "eventId");
    err = event_arg(fn, "event", event, &ev);
    if (err != ACL_SUCCESS)
        return err;
    flags = load_relaxed(&ev->flags);
    if (flags == ACL_EVENT_IPC)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: an IPC event has no event id", fn);
    if (!(flags & (ACL_EVENT_SYNC | EVENT_FLAG_DDSYNC | ACL_EVENT_EXTERNAL | ACL_EVENT_DEVICE_USE_ONLY)))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: the event (flags 0x%x) holds no hardware event id: only "
                        "SYNC, EXTERNAL and DEVICE_USE_ONLY events do", fn, flags);
    if ((load_relaxed(&ev->ex) || ev->lazy_slot) && newest_record(ev) == 0)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: the event takes its id at its first record, and it has "
                        "not been recorded", fn);
    *eventId = (uint32_t)load_relaxed(&ev->id);
    return ACL_SUCCESS;
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

/* The notify a handle names, checked before the context as the runtime
 * does (api_c.cc: NULL 100000 in the ACL layer, then the handle 107017). */
static aclError notify_arg(const char *fn, aclrtNotify h, struct event **out)
{
    if (h == NULL)
        return null_arg(fn, "notify");
    *out = (struct event *)obj_resolve(h, OBJ_NOTIFY);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'notify' (%p) is not a live notify: destroyed, never created, or not a notify",
                        fn, h);
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
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS && flag == ACL_NOTIFY_DEVICE_USE_ONLY)
        err = device_use_only_here(fn, ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = notify_create(ctx, &n);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory", fn);
    *notify = obj_handle(&n->hdr);
    return ACL_SUCCESS;
}

/* api_impl.cc NotifyDestroy: the handle, then a current context. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify)
{
    const char *fn = "aclrtDestroyNotify";
    struct context *ctx;
    struct event *n;
    aclError err;
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = notify_arg(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS && event_destroy(n, notify) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the notify first", fn);
    return err;
}

/* api_impl.cc NotifyRecord / NotifyWait: the notify's handle, the
 * stream's, the context, a stream of that context (107003); then, on a
 * CPU, a stream of the notify's device (107000). */
static aclError queue_notify_task(const char *fn, aclrtNotify notify, aclrtStream stream, enum task_kind kind,
                                  uint32_t timeout_ms)
{
    struct submit sub = {.fn = fn, .stream = stream, .event = notify};
    struct event *n;
    struct stream *s;
    struct task *t;
    aclError err = notify_arg(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = stream_arg(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_here(fn, &s);
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
    CHECK_SITE();
    return queue_notify_task("aclrtRecordNotify", notify, stream, TASK_NOTIFY_RECORD, 0);
}

/* The timeout is in seconds, 0 waiting forever (api_c_event.cc
 * rtsNotifyWaitAndReset -> rtNotifyWaitWithTimeOut). UINT32_MAX asks for
 * the default wait: forever on the chips with notify waits, the
 * aclrtSetOpWaitTimeout value on Atlas inference (rtNotifyWait). A wait
 * still parked when it runs out fails with ACL_ERROR_RT_WAIT_TIMEOUT,
 * which the next sync returns. */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout)
{
    CHECK_SITE();
    struct context *ctx = ctx_current();
    uint32_t ms = wait_ms(timeout);
    if (timeout == UINT32_MAX)
        ms = ctx != NULL && ctx->dev->soc->family == SOC_310P ? wait_ms(load_relaxed(&op_wait_timeout_s)) : 0;
    return queue_notify_task("aclrtWaitAndResetNotify", notify, stream, TASK_NOTIFY_WAIT, ms);
}

/* The ACL layer checks 'notify' then 'notifyId'; the runtime the handle,
 * then a current context (api_impl.cc GetNotifyID). */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
    const char *fn = "aclrtGetNotifyId";
    struct context *ctx;
    struct event *n;
    aclError err;
    if (notify == NULL || notifyId == NULL)
        return null_arg(fn, notify == NULL ? "notify" : "notifyId");
    err = notify_arg(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        *notifyId = (uint32_t)load_relaxed(&n->id);
    return err;
}
