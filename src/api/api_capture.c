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

/* The runtime's rules for a stream that begins a capture. */
static aclError check_capturable(const char *fn, struct stream *s)
{
    enum soc_family f = load_relaxed(&s->dev)->soc->family;
    if (f == SOC_910 || f == SOC_200I500A2)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s does not support stream capture", fn,
                        load_relaxed(&s->dev)->soc->name);
    if (load_relaxed(&s->is_default))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the default stream cannot be captured", fn);
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is bound to a model", fn, load_relaxed(&s->id));
    if (load_relaxed(&s->flags) & (ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is PERSISTENT, DEVICE_USE_ONLY or CPU_SCHEDULE, "
                        "which cannot be captured", fn, load_relaxed(&s->id));
    if (model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is already being captured", fn,
                        load_relaxed(&s->id));
    return ACL_SUCCESS;
}

static aclError begin(const char *fn, aclrtStream stream, aclmdlRI into_handle, aclmdlRICaptureMode mode)
{
    struct model *into = NULL, *m;
    struct stream *s;
    aclError err = check_mode(fn, (int)mode);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS && into_handle != NULL)
        err = model_resolve(fn, into_handle, &into);
    if (err == ACL_SUCCESS)
        err = check_capturable(fn, s);
    if (err != ACL_SUCCESS)
        return err;
    if (into != NULL) {
        capture_enter();
        if (into->kind != MODEL_BUILT || into->state != MODEL_BUILDING || into->nlanes != 0 || into->ctx != stream_ctx(s))
            err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the model must be an empty one from aclmdlRIBuildBegin "
                           "of this context", fn);
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
    if (stream == NULL || modelRI == NULL)
        return null_arg(fn, stream == NULL ? "stream" : "modelRI");
    err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    err = model_capture_end(s, &m, why, sizeof(why));
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: %s", fn, why);
    *modelRI = obj_handle(&m->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode)
{
    const char *fn = "aclmdlRICaptureThreadExchangeMode";
    int m;
    aclError err;
    if (mode == NULL)
        return null_arg(fn, "mode");
    err = check_mode(fn, (int)*mode);
    if (err != ACL_SUCCESS)
        return err;
    m = (int)*mode;
    model_exchange_mode(&m);
    *mode = (aclmdlRICaptureMode)m;
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
    return err == ACL_SUCCESS ? model_group_end(fn, s, handle) : err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle)
{
    const char *fn = "aclmdlRICaptureTaskUpdateBegin";
    struct stream *s;
    aclError err;
    if (handle == NULL)
        return null_arg(fn, "handle");
    err = stream_resolve(fn, stream, &s);
    return err == ACL_SUCCESS ? model_update_begin(fn, s, handle) : err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream)
{
    const char *fn = "aclmdlRICaptureTaskUpdateEnd";
    struct stream *s;
    aclError err = stream_resolve(fn, stream, &s);
    return err == ACL_SUCCESS ? model_update_end(fn, s, stream) : err;
}
