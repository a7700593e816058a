/*
 * api_stream.c - stream creation, destruction, synchronisation, queries.
 *
 * DESIGN: validation in the order of the reference runtime (docs/api.md: [acl] checks
 * first, then the stream handle, then the runtime's argument checks, then
 * the context where the call needs one; docs/conformance.md "Audit:
 * streams" lists each call's order), then the core. NULL stream means the
 * current context's default stream except where the reference says otherwise.
 * PERSISTENT, CPU_SCHEDULE and DEVICE_USE_ONLY streams report complete at
 * once on sync and query (spec: no business meaning on the host). The
 * waits themselves are the runtime's (engine_wait_stream, and
 * stream_sync_all for the device); this file names what went wrong.
 * Threads: any host thread; it takes no lock of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "../engine/engine.h"
#include "../core/profhook.h"

#define KNOWN_STREAM_FLAGS                                                                                      \
    (ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |                  \
     ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)

/* The reference's order (stream.cpp aclrtCreateStreamWithConfigImpl, then
 * api_error.cc StreamCreate and CheckStreamFlags, then api_impl.cc
 * StreamCreate): the out-pointer, the flags, and only then the context. */
static aclError create_stream(const char *fn, aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    struct context *ctx;
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return null_arg(fn, "stream");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    flag &= KNOWN_STREAM_FLAGS; /* the acl layer maps only the known bits; the others are dropped */
    if ((flag & ACL_STREAM_HUGE) && soc_configured()->family == SOC_310P)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: argument 'flag' (0x%x) asks for ACL_STREAM_HUGE, which %s does not support", fn, flag,
                        soc_configured()->name);
    if ((flag & ACL_STREAM_DEVICE_USE_ONLY) && flag != ACL_STREAM_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flag' (0x%x) combines ACL_STREAM_DEVICE_USE_ONLY with other flags; "
                        "DEVICE_USE_ONLY must be used alone",
                        fn, flag);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    /* The runtime refuses DEVICE_USE_ONLY (207000) when the *device's*
     * failure mode is not CONTINUE; that mode has no setter in this API, and
     * the context's STOP mode does not count: the vendor's sample
     * 1_stream_with_failure_mode creates one in a STOP-mode context. */
    err = stream_create(ctx, clamp_priority(priority), flag, false, &s); /* clamped, not an error */
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: device %d has no stream left (%u of %u in use, default streams included)", fn,
                        ctx->dev->id, ctx->dev->streams_used, ctx->dev->soc->max_streams);
    *stream = obj_handle(&s->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
    return create_stream("aclrtCreateStream", stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)
{
    return create_stream("aclrtCreateStreamWithConfig", stream, priority, flag);
}

ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
    return acl_calloc(1, sizeof(aclrtStreamConfigHandle));
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
    if (handle == NULL)
        return null_arg("aclrtDestroyStreamConfigHandle", "handle");
    acl_free(handle);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize)
{
    static const size_t sizes[] = {sizeof(void *), sizeof(size_t), sizeof(size_t), sizeof(uint32_t)};
    const char *fn = "aclrtSetStreamConfigOpt";
    uint32_t prio;

    if (handle == NULL || attrValue == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "attrValue");
    if ((unsigned)attr > ACL_RT_STREAM_PRIORITY)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'attr' (%d) is not an aclrtStreamConfigAttr", fn, attr);
    if (valueSize != sizes[attr])
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'valueSize' is %zu; attribute %d takes %zu bytes", fn,
                        valueSize, attr, sizes[attr]);
    switch (attr) {
    case ACL_RT_STREAM_WORK_ADDR_PTR: memcpy(&handle->workptr, attrValue, sizeof(void *)); break;
    case ACL_RT_STREAM_WORK_SIZE: memcpy(&handle->workSize, attrValue, sizeof(size_t)); break;
    case ACL_RT_STREAM_FLAG: memcpy(&handle->flag, attrValue, sizeof(size_t)); break;
    default:
        memcpy(&prio, attrValue, sizeof(prio));
        if (prio > ACLCPU_PRIORITIES - 1)
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: priority %u is above 7", fn, prio);
        handle->priority = prio;
        break;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
    if (handle == NULL)
        return create_stream("aclrtCreateStreamV2", stream, 0, 0);
    return create_stream("aclrtCreateStreamV2", stream, handle->priority, (uint32_t)handle->flag);
}

/* True while s is being captured (its tasks are recorded, not run). The
 * global hint keeps this off the fast path when nothing records. */
static bool capturing(struct stream *s)
{
    return model_recording_anywhere() && model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE;
}

/* A sync or query of a capturing stream: 107027. The capture goes on (the
 * reference refuses the call before it touches the capture: api_error.cc
 * StreamSynchronize, StreamQuery), so aclmdlRICaptureEnd still succeeds. */
static aclError captured_error(const char *fn, struct stream *s)
{
    return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured: its tasks are recorded, not run "
                    "(end the capture and run the model first)", fn, load_relaxed(&s->id));
}

/* The reference's order: NULL (the acl layer: 100000, so the default
 * stream is never destroyed by NULL), the handle (107017), a capture
 * (107027), then the context (107002) and the stream's own context
 * (107003) (stream.cpp aclrtDestroyStreamImpl; api_error.cc StreamDestroy;
 * api_impl.cc StreamDestroy). The default stream named by its handle
 * (aclrtCtxGetCurrentDefaultStream) is refused last, with 107000. */
static aclError destroy_stream(const char *fn, aclrtStream stream, bool force)
{
    struct context *ctx;
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stream' is NULL (the default stream cannot be "
                        "destroyed)", fn);
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = stream_lookup(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (capturing(s))
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured; end the capture first", fn,
                        load_relaxed(&s->id));
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (stream_ctx(s) != ctx)
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT,
                        "%s: stream %d belongs to another context; make that context current first", fn,
                        load_relaxed(&s->id));
    if (load_relaxed(&s->is_default))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: stream %d is its context's default stream, which aclrtResetDevice releases", fn,
                        load_relaxed(&s->id));
    if (stream_destroy(s, stream, force ? STREAM_END_FORCE : STREAM_END_WAIT) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the stream first", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
    return destroy_stream("aclrtDestroyStream", stream, false);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
    return destroy_stream("aclrtDestroyStreamForce", stream, true);
}

/* Relaxed reads of s->stopped here: a stop racing with the call may or may
 * not be seen, as on the device; a sync that waits re-reads it. */
static aclError stopped_error(const char *fn, const struct stream *s)
{
    return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR,
                    "%s: stream %d was stopped by aclrtStreamStop; its remaining tasks will not run (abort or destroy "
                    "it)",
                    fn, load_relaxed(&s->id));
}

/* A sync gave up: its timeout passed (timeout > 0), or an untimed one found
 * its stream stuck for ACLCPU_HANG_TIMEOUT_MS. Says what holds it up. */
static aclError sync_gave_up(const char *fn, struct stream *s, int32_t timeout)
{
    char why[640];
    engine_explain(s, true, why, sizeof(why));
    if (timeout > 0)
        return acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "%s: stream %d did not finish within %d ms: %s", fn,
                        load_relaxed(&s->id), timeout, why);
    return acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                    "%s: stream %d made no progress for ACLCPU_HANG_TIMEOUT_MS and cannot go on by itself: %s", fn,
                    load_relaxed(&s->id), why);
}

aclError context_failed(const char *fn, struct context *ctx)
{
    aclError code = load_relaxed(&ctx->failure_error);
    return acl_fail(code, "%s: a task in this context failed with %d (%s) in ACL_STOP_ON_FAILURE mode; every sync "
                    "and launch in the context returns it until the device is reset", fn, code,
                    acl_error_name(code));
}

static aclError profiled_sync_stream(const char *fn, struct stream *s, aclrtStream stream, int32_t timeout);

/* The checks shared by a stream sync and query, after the handle, in the
 * reference's order (api_error.cc StreamSynchronize, StreamQuery; then
 * api_impl.cc): a capture (107027), the streams a host does not sync
 * (PERSISTENT, CPU_SCHEDULE, DEVICE_USE_ONLY: *at_once, done), and only
 * then the current context (107002), which a named stream needs even
 * though it is not checked against it (a stream of another context is
 * synchronised in its own). */
static aclError sync_prologue(const char *fn, const void *stream, struct stream *s, bool *at_once)
{
    *at_once = false;
    if (stream != NULL && capturing(s))
        return captured_error(fn, s);
    if (stream != NULL && (load_relaxed(&s->flags) & STREAM_NO_HOST_SYNC)) {
        *at_once = true;
        return ACL_SUCCESS;
    }
    return ctx_current() != NULL ? ACL_SUCCESS : ctx_missing(fn);
}

static aclError sync_stream(const char *fn, aclrtStream stream, int32_t timeout)
{
    enum sync_result end;
    struct stream *s = NULL;
    bool at_once;
    aclError err;

    /* The acl layer refuses a timeout below -1 before it looks at the
     * stream; 0 is the runtime's refusal, after the handle (stream.cpp
     * aclrtSynchronizeStreamWithTimeoutImpl; api_error.cc StreamSynchronize). */
    if (timeout < -1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is %d ms; it must be -1 (wait forever) or above 0", fn, timeout);
    if (stream != NULL && (err = stream_lookup(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if (timeout == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is 0 ms; it must be -1 (wait forever) or above 0", fn);
    if (stream == NULL && (err = stream_lookup(fn, stream, &s)) != ACL_SUCCESS)
        return err; /* no context: no default stream */
    err = sync_prologue(fn, stream, s, &at_once);
    if (err != ACL_SUCCESS || at_once)
        return err;
    if (ACLCPU_UNLIKELY(load_relaxed(&stream_ctx(s)->failure_error) != ACL_SUCCESS)) {
        /* The checker: a stream that tripped STOP itself has ended all it
         * was given (the failed task ran, the rest was dropped with the
         * failure), as a sync that waited would have found; so the host is
         * ordered after it whichever way this sync ends. */
        if (check_on() && load_relaxed(&s->stop_error) != ACL_SUCCESS)
            check_sync_end(check_sync_stream_begin(obj_handle(&s->hdr)), true);
        return context_failed(fn, stream_ctx(s));
    }
    if (load_relaxed(&s->stopped))
        return stopped_error(fn, s);
    if (ACLCPU_UNLIKELY(prof_on()))
        return profiled_sync_stream(fn, s, stream, timeout);
    end = engine_wait_stream(s, stream != NULL ? stream : obj_handle(&s->hdr), plat_deadline_ms(timeout),
                             SYNC_WATCH_HANGS, &err);
    return sync_outcome(fn, s, timeout, end, err);
}

/* A sync while a profile runs: the host's wait for the stream's newest
 * task is an edge of the modelled timeline. */
static aclError profiled_sync_stream(const char *fn, struct stream *s, aclrtStream stream, int32_t timeout)
{
    uint32_t dep = profhook_stream_last(s);
    uint64_t t0 = plat_now_ns();
    aclError err;
    enum sync_result end = engine_wait_stream(s, stream != NULL ? stream : obj_handle(&s->hdr),
                                           plat_deadline_ms(timeout), SYNC_WATCH_HANGS, &err);
    prof_host_sync(fn, &dep, dep != 0, t0, plat_now_ns());
    return sync_outcome(fn, s, timeout, end, err);
}

aclError sync_outcome(const char *fn, struct stream *s, int32_t timeout, enum sync_result end, aclError task_err)
{
    switch (end) {
    case SYNC_DESTROYED:
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: stream %d was destroyed by another thread during the wait",
                        fn, load_relaxed(&s->id));
    case SYNC_STOPPED:
        return stopped_error(fn, s);
    case SYNC_TIMED_OUT:
        return sync_gave_up(fn, s, timeout);
    case SYNC_DONE:
        break;
    }
    if (task_err != ACL_SUCCESS) {
        acl_note("%s: a task on stream %d failed with %d (%s)", fn, load_relaxed(&s->id), task_err,
                 acl_error_name(task_err));
        acl_last_error_set(task_err); /* the call fails: the thread's last error */
    }
    return task_err;
}

/* A blocking launch is an untimed sync of its stream: like
 * aclrtSynchronizeStream it watches for a chain that cannot go on. */
aclError launch_wait(const char *fn, struct stream *s, const void *handle)
{
    aclError err;
    enum sync_result end =
        engine_wait_stream(s, handle != NULL ? handle : obj_handle(&s->hdr), 0, SYNC_WATCH_HANGS, &err);
    return sync_outcome(fn, s, -1, end, err);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
    return sync_stream("aclrtSynchronizeStream", stream, -1);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
    return sync_stream("aclrtSynchronizeStreamWithTimeout", stream, timeout);
}

/* NULL status (100000), the handle, then as a sync (sync_prologue); a
 * context whose STOP mode tripped answers with the failure's code, as its
 * syncs do (api_impl.cc StreamQuery: CheckContextStatus). */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
    const char *fn = "aclrtStreamQuery";
    struct stream *s;
    bool at_once;
    aclError err;

    if (status == NULL)
        return null_arg(fn, "status");
    err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = sync_prologue(fn, stream, s, &at_once);
    if (err != ACL_SUCCESS)
        return err;
    if (at_once) {
        *status = ACL_STREAM_STATUS_COMPLETE;
        return ACL_SUCCESS;
    }
    if (ACLCPU_UNLIKELY(load_relaxed(&stream_ctx(s)->failure_error) != ACL_SUCCESS))
        return context_failed(fn, stream_ctx(s));
    if (load_relaxed(&s->stopped))
        return stopped_error(fn, s);
    struct check_snap *snap = check_on() ? check_sync_stream_begin(obj_handle(&s->hdr)) : NULL;
    *status = engine_stream_idle(s) ? ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
    check_sync_end(snap, *status == ACL_STREAM_STATUS_COMPLETE); /* a completed query orders the host */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority)
{
    struct stream *s;
    aclError err = getter_stream("aclrtStreamGetPriority", stream, priority, "priority", &s);
    if (err == ACL_SUCCESS)
        *priority = load_relaxed(&s->priority);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags)
{
    struct stream *s;
    aclError err = getter_stream("aclrtStreamGetFlags", stream, flags, "flags", &s);
    if (err == ACL_SUCCESS)
        *flags = load_relaxed(&s->flags); /* set at creation */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId)
{
    struct stream *s;
    /* A named stream needs no current context (api_impl.cc GetStreamId). */
    aclError err = streamId == NULL ? null_arg("aclrtStreamGetId", "streamId")
                                    : stream_lookup("aclrtStreamGetId", stream, &s);
    if (err == ACL_SUCCESS)
        *streamId = load_relaxed(&s->id); /* set at creation */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
    struct context *ctx;
    aclError err;
    if (streamCount == NULL)
        return null_arg("aclrtGetStreamAvailableNum", "streamCount");
    err = ctx_require("aclrtGetStreamAvailableNum", &ctx);
    if (err != ACL_SUCCESS)
        return err;
    *streamCount = device_streams_left(ctx->dev);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority)
{
    if (leastPriority != NULL)
        *leastPriority = ACLCPU_PRIORITIES - 1;
    if (greatestPriority != NULL)
        *greatestPriority = 0;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
    struct context *ctx;
    aclError err;
    if (stream == NULL)
        return null_arg("aclrtCtxGetCurrentDefaultStream", "stream");
    err = ctx_require("aclrtCtxGetCurrentDefaultStream", &ctx);
    if (err == ACL_SUCCESS)
        *stream = obj_handle(&ctx->default_stream->hdr);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args)
{
    if (regName == NULL)
        return null_arg("aclrtRegStreamStateCallback", "regName");
    return stream_state_register(regName, callback, args);
}

/* ---- device-wide synchronisation ------------------------------------------- */

/* Profiling: the entries of every stream's newest task (what a device
 * sync waits for), or NULL; *nd counts them. */
static uint32_t *device_sync_deps(struct stream **list, size_t n, unsigned *nd)
{
    uint32_t *deps = acl_malloc((n + 1) * sizeof(*deps));
    *nd = 0;
    for (size_t i = 0; deps != NULL && i < n; i++) {
        uint32_t d = profhook_stream_last(list[i]);
        if (d != 0)
            deps[(*nd)++] = d;
    }
    return deps;
}

static aclError sync_device(const char *fn, int32_t timeout)
{
    struct context *ctx;
    struct stream **list, *late = NULL;
    void **handles = NULL;
    size_t n;
    uint64_t t0;
    uint32_t *deps = NULL;
    unsigned nd = 0;
    aclError err;

    if (timeout < -1 || timeout == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'timeout' is %d ms; it must be -1 (wait forever) or above 0", fn, timeout);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if ((list = stream_list_of(ctx, &handles, &n)) == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    /* A stream of the context that is being captured refuses the whole
     * sync before anything is waited for (context.cc Context::Synchronize);
     * the capture goes on. Streams the host never syncs are passed over. */
    for (size_t i = 0; i < n; i++) {
        if (!(load_relaxed(&list[i]->flags) & STREAM_NO_HOST_SYNC) && capturing(list[i])) {
            err = captured_error(fn, list[i]);
            acl_free(list);
            return err;
        }
    }
    /* A context stopped by a failure (STOP mode) reports it at every device
     * sync, before and after waiting (Context::Synchronize, CheckStatus). */
    if (ACLCPU_UNLIKELY(load_relaxed(&ctx->failure_error) != ACL_SUCCESS)) {
        acl_free(list);
        return context_failed(fn, ctx);
    }
    t0 = ACLCPU_UNLIKELY(prof_on()) ? plat_now_ns() : 0;
    if (t0 != 0)
        deps = device_sync_deps(list, n, &nd);
    err = stream_sync_all(list, handles, n, plat_deadline_ms(timeout), &late);
    if (t0 != 0 && late == NULL)
        prof_host_sync(fn, deps, nd, t0, plat_now_ns());
    acl_free(deps);
    acl_free(list);
    if (late != NULL)
        return sync_gave_up(fn, late, timeout);
    if (err == ACL_SUCCESS && ACLCPU_UNLIKELY(load_relaxed(&ctx->failure_error) != ACL_SUCCESS))
        return context_failed(fn, ctx);
    acl_last_error_set(err); /* a task's code handed back: the call fails */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) { return sync_device("aclrtSynchronizeDevice", -1); }

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)
{
    return sync_device("aclrtSynchronizeDeviceWithTimeout", timeout);
}
