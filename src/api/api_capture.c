/*
 * api_capture.c - stream capture: aclmdlRICapture* and task groups.
 *
 * DESIGN: checks in the order of the reference runtime (docs/api.md)
 * ([acl] NULL checks, then mode, then the stream's rules); the capture
 * itself is core/capture.c. Capture is an Ascend 950, A3, A2 and Atlas
 * inference (310P) feature (207000 elsewhere).
 *
 * Threads: any host thread. Locks: none here (capture_lock is core/capture.c's).
 */
#include "api_int.h"

static aclError check_mode(const char *fn, int mode)
{
    if ((unsigned)mode > ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'mode' (%d) is not an aclmdlRICaptureMode "
                        "(0 GLOBAL, 1 THREAD_LOCAL, 2 RELAXED)", fn, mode);
    return ACL_SUCCESS;
}

/* Capture is not a feature of the Atlas training series (910) or of the
 * Atlas 200I/500 A2 (api_c_standard_soc.cc: RT_FEATURE_MODEL_ACL_GRAPH,
 * checked before anything of the stream). */
static aclError check_soc(const char *fn)
{
    struct context *ctx;
    enum soc_family f;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    f = ctx->dev->soc->family;
    if (f == SOC_910 || f == SOC_200I500A2)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s does not support stream capture", fn,
                        ctx->dev->soc->name);
    return ACL_SUCCESS;
}

/* Streams whose kind is never captured (api_error_aclgraph.cc
 * StreamBeginCapture / StreamEndCapture: StreamFlagIsSupportCapture,
 * 507000). */
static aclError check_stream_kind(const char *fn, struct stream *s)
{
    if (load_relaxed(&s->flags) & (ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'stream': stream %d is DEVICE_USE_ONLY or "
                        "CPU_SCHEDULE, which cannot be captured", fn, load_relaxed(&s->id));
    return ACL_SUCCESS;
}

/* The rules the runtime checks after the stream's kind, for a stream that
 * begins or ends a capture (api_impl_aclgraph.cc StreamBeginCapture,
 * StreamEndCapture): its context (107003), not bound to a model (107005),
 * not the default stream (207000). */
static aclError check_capture_stream(const char *fn, struct stream *s)
{
    if (stream_ctx(s) != ctx_current())
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context",
                        fn, load_relaxed(&s->id));
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: argument 'stream': stream %d is bound to a model", fn,
                        load_relaxed(&s->id));
    if (load_relaxed(&s->is_default))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'stream': the default stream cannot be "
                        "captured", fn);
    return ACL_SUCCESS;
}

/* The runtime's rules for a stream that begins a capture, after the mode. */
static aclError check_capturable(const char *fn, struct stream *s)
{
    aclError err = check_stream_kind(fn, s);
    if (err == ACL_SUCCESS)
        err = check_capture_stream(fn, s);
    if (err == ACL_SUCCESS && model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        err = acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: argument 'stream': stream %d is already being captured", fn,
                       load_relaxed(&s->id));
    /* aclcpu's own rule, after the reference's (differences.md): a
     * PERSISTENT stream keeps its tasks for a model to bind, and is not
     * captured. */
    if (err == ACL_SUCCESS && (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT))
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'stream': stream %d is PERSISTENT, which aclcpu "
                       "does not capture", fn, load_relaxed(&s->id));
    return err;
}

static aclError begin(const char *fn, aclrtStream stream, aclmdlRI into_handle, aclmdlRICaptureMode mode)
{
    struct model *into = NULL, *m;
    struct stream *s;
    aclError err = check_soc(fn);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS && into_handle != NULL)
        err = model_resolve(fn, into_handle, &into);
    if (err == ACL_SUCCESS)
        err = check_mode(fn, (int)mode);
    if (err == ACL_SUCCESS)
        err = check_capturable(fn, s);
    if (err != ACL_SUCCESS)
        return err;
    if (into != NULL) {
        capture_enter();
        if (into->kind != MODEL_BUILT || into->state != MODEL_BUILDING || into->nlanes != 0 || into->ctx != stream_ctx(s))
            err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the model must be a sub model of aclmdlRIAddCondTask "
                           "not captured yet, or an empty one from aclmdlRIBuildBegin, of this context", fn);
        capture_leave();
        if (err != ACL_SUCCESS)
            return err;
    }
    err = model_capture_begin(s, stream, (int)mode, into, &m);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of memory", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)
{
    if (stream == NULL)
        return null_arg("aclmdlRICaptureBegin", "stream");
    return begin("aclmdlRICaptureBegin", stream, NULL, mode);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode)
{
    if (stream == NULL || modelRI == NULL)
        return null_arg("aclmdlRICaptureToModelRIBegin", stream == NULL ? "stream" : "modelRI");
    return begin("aclmdlRICaptureToModelRIBegin", stream, modelRI, mode);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI)
{
    const char *fn = "aclmdlRICaptureGetInfo";
    struct stream *s;
    void *m = NULL;
    aclmdlRICaptureStatus st;
    aclError err;
    if (stream == NULL || (status == NULL && modelRI == NULL))
        return null_arg(fn, stream == NULL ? "stream" : "status and modelRI");
    err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    st = model_capture_status(s, &m);
    if (status != NULL)
        *status = st;
    if (modelRI != NULL)
        *modelRI = m; /* NULL when not capturing: meaningless then, as documented */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)
{
    const char *fn = "aclmdlRICaptureEnd";
    struct stream *s;
    struct model *m;
    char why[320];
    aclError err;
    void *cur = NULL;
    if (stream == NULL)
        return null_arg(fn, "stream");
    err = check_soc(fn);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_stream_kind(fn, s);
    /* The model's place is checked by the runtime, and only when the stream
     * is capturing (api_impl_aclgraph.cc StreamEndCapture): 107000. */
    if (err == ACL_SUCCESS && modelRI == NULL && model_capture_status(s, &cur) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI' is NULL", fn);
    if (err == ACL_SUCCESS)
        err = check_capture_stream(fn, s);
    if (err != ACL_SUCCESS)
        return err;
    err = model_capture_end(s, &m, why, sizeof(why));
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: %s", fn, why);
    if (modelRI != NULL)
        *modelRI = obj_handle(&m->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    const char *fn = "aclmdlRICaptureThreadExchangeMode";
    int m;
    aclError err;
    struct context *ctx;
    if (mode == NULL)
        return null_arg(fn, "mode");
    err = check_mode(fn, (int)*mode);
    if (err == ACL_SUCCESS) /* api_impl_aclgraph.cc ThreadExchangeCaptureMode */
        err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    m = (int)*mode;
    model_exchange_mode(&m);
    *mode = (aclmdlRICaptureMode)m;
    return ACL_SUCCESS;
}

/* A task group is marked on a capturing stream of the current context
 * (api_error_aclgraph.cc StreamBeginTaskGrp / StreamEndTaskGrp: 107029;
 * api_impl_aclgraph.cc: 107003). */
static aclError check_group_stream(const char *fn, struct stream *s)
{
    if (model_capture_status(s, NULL) == ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: argument 'stream': stream %d is not being captured", fn,
                        load_relaxed(&s->id));
    if (stream_ctx(s) != ctx_current())
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context",
                        fn, load_relaxed(&s->id));
    return ACL_SUCCESS;
}

/* An update is issued to a plain stream of the current context
 * (api_error_aclgraph.cc StreamBeginTaskUpdate / StreamEndTaskUpdate: a
 * capturing stream 107027, a model's stream 107005; api_impl_aclgraph.cc:
 * 107003). */
static aclError check_update_stream(const char *fn, struct stream *s)
{
    if (model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: argument 'stream': stream %d is being captured", fn,
                        load_relaxed(&s->id));
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: argument 'stream': stream %d is bound to a model; updates go "
                        "to a plain stream", fn, load_relaxed(&s->id));
    if (stream_ctx(s) != ctx_current())
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context",
                        fn, load_relaxed(&s->id));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream)
{
    const char *fn = "aclmdlRICaptureTaskGrpBegin";
    struct stream *s;
    aclError err;
    if (stream == NULL)
        return null_arg(fn, "stream");
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_group_stream(fn, s);
    return err == ACL_SUCCESS ? model_group_begin(fn, s) : err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle)
{
    const char *fn = "aclmdlRICaptureTaskGrpEnd";
    struct stream *s;
    aclError err;
    if (stream == NULL || handle == NULL)
        return null_arg(fn, stream == NULL ? "stream" : "handle");
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_group_stream(fn, s);
    return err == ACL_SUCCESS ? model_group_end(fn, s, handle) : err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    const char *fn = "aclmdlRICaptureTaskUpdateBegin";
    struct stream *s;
    aclError err;
    if (stream == NULL || handle == NULL)
        return null_arg(fn, stream == NULL ? "stream" : "handle");
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_update_stream(fn, s);
    return err == ACL_SUCCESS ? model_update_begin(fn, s, handle) : err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    const char *fn = "aclmdlRICaptureTaskUpdateEnd";
    struct stream *s;
    aclError err;
    if (stream == NULL)
        return null_arg(fn, "stream");
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_update_stream(fn, s);
    return err == ACL_SUCCESS ? model_update_end(fn, s, stream) : err;
}
