/*
 * api_cond.c - conditional tasks of captured models:
 * aclmdlRICondHandleCreate, aclmdlRICondHandleGetCondPtr,
 * aclmdlRIAddCondTask.
 *
 * DESIGN: checks in the reference's order: the acl layer's NULL checks
 * (model_ri.cpp, 100000), the handles (api_c_standard_soc.cc: 107017),
 * api_error_aclgraph.cc (flag, type, flags, NULLs: 107000; a model that is
 * not a capture: 207000), then api_impl_aclgraph.cc (capture stage,
 * context, model's context; the task's rules are core/cond.c's). The
 * condition, its sub models and how a run plays the task: core/cond.c,
 * engine/replay.c.
 *
 * Threads: any host thread. Locks: none here (core/cond.c takes
 * capture_lock).
 */
#include "api_int.h"

static aclError cond_resolve(const char *fn, const char *arg, const void *h, struct cond **out)
{
    *out = (struct cond *)obj_resolve(h, OBJ_COND);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument '%s' (%p) is not a live condition: its model "
                        "was destroyed, or it was never made by aclmdlRICondHandleCreate", fn, arg, h);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle)
{
    const char *fn = "aclmdlRICondHandleCreate";
    struct context *ctx;
    struct model *m;
    struct cond *c = NULL;
    aclError err;
    if (modelRI == NULL || handle == NULL)
        return null_arg(fn, modelRI == NULL ? "modelRI" : "handle");
    err = model_resolve(fn, modelRI, &m);
    if (err != ACL_SUCCESS)
        return err;
    if ((uint32_t)flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (%u) must be 0 or "
                        "ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT (1)", fn, (uint32_t)flag);
    capture_enter();
    if (m->kind != MODEL_CAPTURED && m->parent == NULL)
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'modelRI' is not a model made by a capture",
                       fn);
    else if (m->state != MODEL_CAPTURING)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI' is not being captured (make conditions "
                       "between aclmdlRICaptureBegin and aclmdlRICaptureEnd)", fn);
    else if ((ctx = ctx_current()) == NULL)
        err = ctx_missing(fn);
    else if (m->ctx != ctx)
        err = acl_fail(ACL_ERROR_RT_MODEL_CONTEXT, "%s: argument 'modelRI': the model belongs to another context",
                       fn);
    else if (!obj_same(&m->hdr, modelRI))
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'modelRI' was destroyed meanwhile", fn);
    else if ((err = cond_create(m, defaultLaunchValue, (uint32_t)flag, &c)) != ACL_SUCCESS)
        err = acl_fail(err, "%s: no device memory for the condition's word on device %d", fn, m->dev->id);
    capture_leave();
    if (err != ACL_SUCCESS)
        return err;
    *handle = obj_handle(&c->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr)
{
    const char *fn = "aclmdlRICondHandleGetCondPtr";
    struct context *ctx;
    struct cond *c;
    aclError err;
    if (handle == NULL || ptr == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "ptr");
    err = cond_resolve(fn, "handle", handle, &c);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx); /* api_impl_aclgraph.cc ModelCondHandleGetCondPtr */
    if (err != ACL_SUCCESS)
        return err;
    *ptr = c->word; /* fixed for the condition's life */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags)
{
    const char *fn = "aclmdlRIAddCondTask";
    struct cond *c = NULL;
    struct stream *s;
    aclError err;
    if (stream == NULL)
        return null_arg(fn, "stream");
    /* api_c_standard_soc.cc rtStreamAddCondTask: the handles (a NULL
     * condition is refused below). */
    if (params.handle != NULL && (err = cond_resolve(fn, "params.handle", params.handle, &c)) != ACL_SUCCESS)
        return err;
    err = stream_lookup(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    /* api_error_aclgraph.cc StreamAddCondTask */
    if ((uint32_t)params.type > ACL_MODEL_RI_COND_TYPE_SWITCH)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'params.type' (%u) is not an "
                        "aclmdlRICondTaskType (0 IF, 1 WHILE, 2 SWITCH)", fn, (uint32_t)params.type);
    if (flags != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flags' (%u) is reserved and must be 0", fn, flags);
    if (params.handle == NULL || params.modelRIArray == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        params.handle == NULL ? "params.handle" : "params.modelRIArray");
    return cond_add_task(fn, c, params.handle, s, stream, (int)params.type, params.size,
                         (void **)params.modelRIArray);
}
