/*
 * api_model.c - model run instances: building, running, querying and
 * printing them, and the model-control stream calls (aclrtActiveStream,
 * aclrtSwitchStream, aclrtPersistentTaskClean).
 *
 * DESIGN: checks in the order of the reference runtime (docs/api.md) for
 * model run instances and model-control streams ([acl] NULL checks first, then context,
 * handles, then the runtime's rules); the core is core/model.c, runs are
 * engine/replay.c. Where the spec gives no code, the choice is written at
 * the function in include/acl/acl_rt.h.
 *
 * Threads: any host thread. Locks: none here (model.c and capture.c take
 * capture_lock and the model's lock).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "api_int.h"
#include "../engine/engine.h"
#include "../core/profhook.h"
#include "../services/devmem.h"

aclError model_resolve(const char *fn, const void *h, struct model **out)
{
    if (h == NULL)
        return null_arg(fn, "modelRI");
    *out = (struct model *)obj_resolve(h, OBJ_MODEL);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'modelRI' (%p) is not a live model run instance: it "
                        "was destroyed, or never made by aclmdlRIBuildBegin or a capture", fn, h);
    return ACL_SUCCESS;
}

/* The runtime's context rule for a call on model m (api_impl.cc: a
 * current context, then the model's context must be it): 107002, 107004. */
static aclError model_ctx_check(const char *fn, const struct model *m)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS && m->ctx != ctx)
        err = acl_fail(ACL_ERROR_RT_MODEL_CONTEXT, "%s: argument 'modelRI': the model belongs to another context", fn);
    return err;
}

/* As model_ctx_check, and stream s must be of the current context too (107003). */
static aclError pair_ctx_check(const char *fn, const struct model *m, struct stream *s)
{
    aclError err = model_ctx_check(fn, m);
    if (err == ACL_SUCCESS && stream_ctx(s) != m->ctx)
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context", fn,
                       load_relaxed(&s->id));
    return err;
}

/* Model (non-NULL: the caller checked) and stream (NULL: the current
 * context's default stream) of a build call: stale handles are 107017. */
static aclError resolve_pair(const char *fn, aclmdlRI modelRI, aclrtStream stream, struct model **m,
                             struct stream **s)
{
    aclError err = model_resolve(fn, modelRI, m);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, s);
    return err;
}

/* The build calls' refusal of a captured model and of a capturing stream
 * (api_error.cc ModelBindStream, ModelUnbindStream, ModelEndGraph: "ACL
 * Graph mode is not supported" 107000, then 107027). */
static aclError build_call_check(const char *fn, const struct model *m, struct stream *s)
{
    if (m->kind == MODEL_CAPTURED || m->parent != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': a model made by a capture takes no "
                        "build calls", fn);
    if (model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: argument 'stream': stream %d is being captured", fn,
                        load_relaxed(&s->id));
    return ACL_SUCCESS;
}

static bool capturing(struct stream *s) { return model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE; }

/* A sub model of a conditional task runs, aborts and dies only with its
 * parent (api_error.cc ModelDestroy, ModelExecute, ModelAbort: "sub ACL
 * Graph does not support ...", 207000). */
static aclError sub_model_refused(const char *fn, const struct model *m)
{
    if (m->parent == NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'modelRI' is a sub model of a conditional task "
                    "(aclmdlRIAddCondTask); it runs and goes with the model that holds the task", fn);
}

/* ---- build ---------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag)
{
    const char *fn = "aclmdlRIBuildBegin";
    struct context *ctx;
    struct model *m;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    if (flag != 0) /* api_c_model.cc rtsModelCreate */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (%u) is reserved and must be 0", fn, flag);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = model_create(ctx, MODEL_BUILT, &m);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of memory", fn);
    *modelRI = obj_handle(&m->hdr);
    return ACL_SUCCESS;
}

/* Called with capture_lock held: the runtime's rules for binding s, in
 * its order (api_c_model.cc rtsModelBindStream: not PERSISTENT, already
 * bound; api_error.cc ModelBindStream: captured model, capturing stream,
 * DEVICE_USE_ONLY, STOP mode, FAST_LAUNCH; api_impl.cc: contexts). The
 * flag and the handles were checked before. */
static aclError check_bindable(const char *fn, struct model *m, struct stream *s)
{
    uint32_t flags = load_relaxed(&s->flags);
    aclError err;
    if (!(flags & ACL_STREAM_PERSISTENT))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream': stream %d was not created with "
                        "ACL_STREAM_PERSISTENT (aclrtCreateStreamWithConfig)%s", fn, load_relaxed(&s->id),
                        load_relaxed(&s->is_default) ? "; it is the default stream" : "");
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: argument 'stream': stream %d is already bound to a model (one "
                        "stream, one model)", fn, load_relaxed(&s->id));
    if (m->kind == MODEL_CAPTURED)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': a model made by a capture takes no "
                        "build calls", fn);
    if (s->rec_lane != NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured", fn, load_relaxed(&s->id));
    if (flags & ACL_STREAM_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'stream': stream %d is DEVICE_USE_ONLY; it cannot "
                        "be bound", fn, load_relaxed(&s->id));
    if (load_relaxed(&stream_ctx(s)->failure_mode) == ACL_STOP_ON_FAILURE || (flags & ACL_STREAM_FAST_LAUNCH))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'stream': stream %d is %s; such a stream "
                        "cannot be bound", fn, load_relaxed(&s->id),
                        (flags & ACL_STREAM_FAST_LAUNCH) ? "FAST_LAUNCH" : "in STOP failure mode");
    err = pair_ctx_check(fn, m, s);
    if (err == ACL_SUCCESS && m->state != MODEL_BUILDING)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': the model is not being built "
                       "(aclmdlRIBuildEnd ended it)", fn);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag)
{
    const char *fn = "aclmdlRIBindStream";
    struct model *m;
    struct stream *s;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    if (flag != ACL_MODEL_STREAM_FLAG_HEAD && flag != ACL_MODEL_STREAM_FLAG_DEFAULT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (0x%x) is neither ACL_MODEL_STREAM_FLAG_HEAD "
                        "nor ACL_MODEL_STREAM_FLAG_DEFAULT", fn, flag);
    err = resolve_pair(fn, modelRI, stream, &m, &s); /* NULL: the default stream, which is not PERSISTENT */
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    err = check_bindable(fn, m, s);
    if (err == ACL_SUCCESS && model_bind(m, s, stream, flag) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    capture_leave();
    return err;
}

/* Called with capture_lock held: s's lane of m, or 107005. */
static aclError bound_lane(const char *fn, struct model *m, struct stream *s, struct lane **l)
{
    *l = s->model == m ? model_lane_of(m, s) : NULL;
    if (*l == NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: stream %d is not bound to this model (aclmdlRIBindStream)", fn,
                        load_relaxed(&s->id));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream)
{
    const char *fn = "aclmdlRIEndTask";
    struct model *m;
    struct stream *s;
    struct lane *l;
    struct task *t;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    err = resolve_pair(fn, modelRI, stream, &m, &s);
    if (err == ACL_SUCCESS)
        err = build_call_check(fn, m, s);
    if (err == ACL_SUCCESS)
        err = pair_ctx_check(fn, m, s);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    /* context.cc Context::ModelAddEndGraph: the count first, then the
     * stream (RT_ERROR_MODEL_ENDGRAPH, RT_ERROR_STREAM_INVALID: 507000). */
    l = s->model == m ? model_lane_of(m, s) : NULL;
    if (m->has_end)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'modelRI': the model already has its end task (one "
                       "per model)", fn);
    else if (l == NULL)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'stream': stream %d is not bound to this model "
                       "(aclmdlRIBindStream)", fn, load_relaxed(&s->id));
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_MODEL_END, &t);
    if (err == ACL_SUCCESS)
        /* Recorded into the lane; capture_lock is held (no snapshot gate). */
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream, .under_lock = true}, s, t);
    if (err == ACL_SUCCESS)
        m->has_end = true;
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve)
{
    const char *fn = "aclmdlRIBuildEnd";
    struct model *m;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    if (reserve != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'reserve' must be NULL", fn);
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS && (m->kind == MODEL_CAPTURED || m->parent != NULL)) /* api_error.cc ModelLoadComplete */
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': a model made by a capture takes no build "
                       "calls", fn);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    if (m->state != MODEL_BUILDING || m->kind != MODEL_BUILT)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': the model is not being built", fn);
    else if (model_build_end(m) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, "%s: no stream left on device %d for the model's lanes", fn,
                       m->dev->id);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream)
{
    const char *fn = "aclmdlRIUnbindStream";
    struct model *m;
    struct stream *s;
    struct lane *l;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    err = resolve_pair(fn, modelRI, stream, &m, &s);
    if (err == ACL_SUCCESS)
        err = build_call_check(fn, m, s);
    if (err == ACL_SUCCESS)
        err = pair_ctx_check(fn, m, s);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    err = bound_lane(fn, m, s, &l);
    if (err == ACL_SUCCESS && model_busy(m))
        err = acl_fail(ACL_ERROR_RT_MODEL_RUNNING, "%s: the model still runs (synchronise its stream first)", fn);
    if (err == ACL_SUCCESS)
        model_unbind(m, l);
    capture_leave();
    return err;
}

/* ---- running ------------------------------------------------------------------------ */

/* Queues run `run` of m on s; s must not be a model's or a capturing stream.
 * *blocks (if not NULL): the caller must wait for s (ASCEND_RT_LAUNCH_BLOCKING). */
static aclError queue_run(const char *fn, struct model *m, struct stream *s, const void *stream, bool *blocks)
{
    struct submit sub = {.fn = fn, .stream = stream};
    struct ext_run *ext;
    uint64_t run;
    struct task *t;
    aclError err = sub_model_refused(fn, m);

    if (err != ACL_SUCCESS)
        return err;
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: stream %d is bound to a model; run models on other streams",
                        fn, load_relaxed(&s->id));
    if (capturing(s))
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured", fn, load_relaxed(&s->id));
    /* Ascend 950 runs models on plain streams only (api_error.cc
     * ModelExecute, under RT_FEATURE_MODEL_STREAM_DOT_SYNC). */
    if (load_relaxed(&s->dev)->soc->family == SOC_950 &&
        (load_relaxed(&s->flags) & (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream': stream %d is PERSISTENT, CPU_SCHEDULE or "
                        "DEVICE_USE_ONLY; %s runs models on plain streams only", fn, load_relaxed(&s->id),
                        load_relaxed(&s->dev)->soc->name);
    err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    if (m->state == MODEL_CAPTURING) /* capture_model.cc CaptureModel::CheckExecuteReady */
        return acl_fail(ACL_ERROR_RT_MODEL_CAPTURED, "%s: argument 'modelRI': the model is still being captured "
                        "(aclmdlRICaptureEnd first)", fn);
    if (load_relaxed(&s->dev) != m->dev)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the model is on device %d, stream %d on device %d", fn,
                        m->dev->id, load_relaxed(&s->id), load_relaxed(&s->dev)->id);
    /* A captured model's external records are issued here, with the run
     * (capture_model.cc CaptureModel::PreModelExecute). */
    err = model_issue_run(m, obj_handle(&s->hdr), &run, &ext);
    if (err == ACL_ERROR_RT_MEMORY_ALLOCATION)
        return acl_fail(err, "%s: out of memory for the run's external events", fn);
    if (err == ACL_ERROR_RT_MODEL_EXECUTE) /* capture_model.cc CaptureModel::CheckExecuteReady */
        return acl_fail(err, "%s: argument 'modelRI': its tasks were changed (aclmdlRITaskSetParams, "
                        "aclmdlRITaskDisable) and it is not updated (aclmdlRIUpdate), or a change failed", fn);
    if (err != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the model is not ready to run (end its build with "
                        "aclmdlRIBuildEnd, or its capture with aclmdlRICaptureEnd)", fn);
    /* capture_model.cc PreModelExecute: the launch writes the conditions'
     * defaults (ASSIGN_DEFAULT), in every model of the tree. */
    cond_assign_defaults(m);
    err = stream_task_new(fn, TASK_MODEL_RUN, &t);
    if (err != ACL_SUCCESS) {
        model_skip_run(m, run);
        model_ext_release(ext);
        return err;
    }
    t->u.model.m = m;
    t->u.model.run = run;
    t->u.model.ext = ext;
    /* Dropped by task_release, which also skips the run if the task never
     * starts (a refused submit included). */
    fetch_add_relaxed(&m->run_tasks, 1);
    err = stream_submit(&sub, s, t);
    if (blocks != NULL)
        *blocks = sub.blocks;
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)
{
    CHECK_SITE();
    const char *fn = "aclmdlRIExecuteAsync";
    struct model *m;
    struct stream *s;
    aclError err;
    bool blocking;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = queue_run(fn, m, s, stream, &blocking);
    if (err != ACL_SUCCESS)
        return err;
    return blocking ? launch_wait(fn, s, stream) : ACL_SUCCESS;
}

/* The model's own stream for aclmdlRIExecute, made at first use. */
static aclError exec_stream(struct model *m, struct stream **out)
{
    aclError err = ACL_SUCCESS;
    capture_enter();
    if (m->exec_stream == NULL)
        err = stream_create_internal(m->ctx, 0, &m->exec_stream);
    *out = m->exec_stream;
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout)
{
    CHECK_SITE();
    const char *fn = "aclmdlRIExecute";
    struct model *m;
    struct stream *s;
    uint32_t dep;
    uint64_t t0;
    enum sync_result end;
    aclError err;
    if (modelRI == NULL)
        return null_arg(fn, "modelRI");
    if (timeout == 0 || timeout < -1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is %d ms; it must be -1 (wait forever) or "
                        "above 0", fn, timeout);
    err = model_resolve(fn, modelRI, &m);
    if (err != ACL_SUCCESS)
        return err;
    if (m->kind == MODEL_CAPTURED || m->parent != NULL) /* api_error.cc ModelExecuteSync: "ACL Graph mode is not supported" */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI': a model made by a capture runs with "
                        "aclmdlRIExecuteAsync only", fn);
    err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    if (exec_stream(m, &s) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_NO_STREAM_RESOURCE, "%s: no stream left on device %d", fn, m->dev->id);
    err = queue_run(fn, m, s, NULL, NULL); /* waited for below in any case */
    if (err != ACL_SUCCESS)
        return err;
    dep = ACLCPU_UNLIKELY(prof_on()) ? profhook_stream_last(s) : 0;
    t0 = dep != 0 ? plat_now_ns() : 0;
    end = engine_wait_stream(s, NULL, plat_deadline_ms(timeout), SYNC_WATCH_HANGS, &err);
    if (t0 != 0)
        prof_host_sync(fn, &dep, 1, t0, plat_now_ns());
    if (end == SYNC_TIMED_OUT) {
        char why[640];
        engine_explain(s, true, why, sizeof(why));
        return acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "%s: the model did not finish within %d ms: %s", fn,
                        timeout, why);
    }
    return sync_outcome(fn, s, timeout, end, err);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI)
{
    const char *fn = "aclmdlRIDestroy";
    struct model *m;
    aclError err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS)
        err = sub_model_refused(fn, m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    if (m->state == MODEL_CAPTURING)
        return acl_fail(ACL_ERROR_RT_MODEL_CAPTURED, "%s: the model is being captured; end the capture first", fn);
    if (model_destroy(m, modelRI) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the model first", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI)
{
    const char *fn = "aclmdlRIAbort";
    struct model *m;
    aclError err;
    if (modelRI == NULL) /* the acl layer leaves it to the runtime: api_error.cc ModelAbort, 107000 */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI' is NULL", fn);
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS)
        err = sub_model_refused(fn, m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    if (m->kind == MODEL_CAPTURED)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a captured model cannot be aborted", fn);
    capture_enter();
    if (obj_same(&m->hdr, modelRI) && m->state == MODEL_READY)
        replay_abort(m);
    capture_leave();
    return ACL_SUCCESS;
}

/* ---- names and queries ---------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name)
{
    const char *fn = "aclmdlRISetName";
    struct model *m;
    char *copy, *old;
    aclError err;
    if (modelRI == NULL || name == NULL)
        return null_arg(fn, modelRI == NULL ? "modelRI" : "name");
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    copy = acl_malloc(strlen(name) + 1); /* the runtime keeps the whole name (Model::SetModelName) */
    if (copy == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for the name", fn);
    memcpy(copy, name, strlen(name) + 1);
    capture_enter();
    old = m->name;
    m->name = copy;
    capture_leave();
    acl_free(old);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name)
{
    const char *fn = "aclmdlRIGetName";
    struct model *m;
    const char *have;
    size_t len;
    aclError err;
    if (modelRI == NULL || name == NULL)
        return null_arg(fn, modelRI == NULL ? "modelRI" : "name");
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS && maxLen == 0) /* api_error.cc ModelGetName */
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'maxLen' is 0", fn);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    have = m->name != NULL ? m->name : "";
    len = strlen(have);
    /* Model::GetModelName copies the whole name or fails
     * (RT_ERROR_SEC_HANDLE: 507000); it never truncates. */
    if ((size_t)maxLen < len + 1)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'maxLen' (%u) cannot hold the name (%zu bytes and "
                       "its terminating NUL)", fn, maxLen, len);
    else
        memcpy(name, have, len + 1);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId)
{
    struct model *m;
    aclError err;
    if (modelRI == NULL || modelRIId == NULL)
        return null_arg("aclmdlRIGetId", modelRI == NULL ? "modelRI" : "modelRIId");
    err = model_resolve("aclmdlRIGetId", modelRI, &m);
    if (err == ACL_SUCCESS)
        *modelRIId = m->hdr.index;
    return err;
}

/* The two-call protocol of the "Get" lists (model.cc Model::ModelGetStreams,
 * stream.cc Stream::StreamGetTasks): a NULL array gives the count; an array
 * of *num entries gets the first min(*num, count), the rest of it NULLs,
 * *num the number given, and 107039 when that is not all of them. */
static aclError list_fill_end(const char *fn, void **arr, uint32_t *num, uint32_t given, uint32_t total)
{
    for (uint32_t i = given; i < *num; i++)
        arr[i] = NULL;
    *num = given;
    if (given < total)
        return acl_fail(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, "%s: argument '%s' (%u) is less than the %u there "
                        "are; the first %u were given (call with NULL first to learn the count)", fn,
                        strcmp(fn, "aclmdlRIGetStreams") == 0 ? "numStreams" : "numTasks", given, total, given);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams)
{
    const char *fn = "aclmdlRIGetStreams";
    struct model *m;
    uint32_t n = 0;
    aclError err;
    /* The acl layer checks nothing: the runtime's NULL checks are 107000
     * (api_error.cc ModelGetStreams), after the handle's. */
    if (modelRI == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'modelRI' is NULL", fn);
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS && numStreams == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numStreams' is NULL", fn);
    if (err == ACL_SUCCESS)
        err = sub_model_refused(fn, m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    for (uint32_t i = 0; i < m->nlanes; i++)
        n += m->lanes[i]->user != NULL;
    if (streams == NULL) {
        *numStreams = n;
    } else {
        uint32_t k = 0;
        for (uint32_t i = 0; i < m->nlanes && k < *numStreams; i++)
            if (m->lanes[i]->user != NULL)
                streams[k++] = (aclrtStream)m->lanes[i]->user_handle;
        err = list_fill_end(fn, streams, numStreams, k, n);
    }
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks)
{
    const char *fn = "aclmdlRIGetTasksByStream";
    struct stream *s;
    struct lane *l;
    aclError err;
    /* The acl layer checks nothing; the runtime's checks are 107000 and
     * take no default stream (api_error.cc StreamGetTasks, api_impl.cc
     * ApiImpl::StreamGetTasks). */
    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL", fn);
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS && numTasks == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numTasks' is NULL", fn);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    l = s->last_lane;
    if (l == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream': stream %d belongs to no model", fn,
                       load_relaxed(&s->id));
    if (err == ACL_SUCCESS) {
        /* Opaque task names the aclmdlRITask* calls resolve
         * (core/model_task.c); never pointers. */
        uint32_t total = 0, cap = tasks != NULL ? *numTasks : 0;
        if (model_tasks_list(l, tasks, cap, &total) != ACL_SUCCESS)
            err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory numbering the model's tasks", fn);
        else if (tasks == NULL)
            *numTasks = total;
        else
            err = list_fill_end(fn, tasks, numTasks, cap < total ? cap : total, total);
    }
    capture_leave();
    return err;
}

/* ---- printing -------------------------------------------------------------------------- */

static const char *kind_name(uint8_t kind)
{
    static const char *const names[] = {
        "UNKNOWN", "KERNEL", "MEMCPY", "MEMSET", "HOST_FUNC", "CALLBACK", "EVENT_RECORD", "EVENT_WAIT", "EVENT_RESET",
        "NOTIFY_RECORD", "NOTIFY_WAIT", "MODEL_RUN", "LANE_RUN", "STREAM_ACTIVE", "STREAM_SWITCH", "MODEL_END",
        "TASK_UPDATE", "CMO", "MARK", "STEP"};
    if (kind == TASK_LABEL_SET)
        return "LABEL_SET";
    if (kind == TASK_LABEL_SWITCH)
        return "LABEL_SWITCH_BY_INDEX";
    if (kind == TASK_COND)
        return "CONDITION_OP";
    return kind < ACLCPU_ARRAY_SIZE(names) ? names[kind] : "UNKNOWN";
}

/* Writes a JSON string (quotes and backslashes escaped, controls dropped). */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s != NULL && *s != '\0'; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_task(FILE *f, const struct task *t, uint32_t id, bool verbose)
{
    fprintf(f, "{\"taskId\": %u, \"type\": \"%s\"", id, kind_name(t->kind));
    if (t->kind == TASK_KERNEL) {
        fputs(", \"name\": ", f);
        json_string(f, t->u.kernel.kf != NULL ? t->u.kernel.kf->name : "");
        fprintf(f, ", \"blockNum\": %u, \"engine\": \"%s\", \"scheduleMode\": %u", t->u.kernel.blocks,
                t->u.kernel.engine == ACL_RT_ENGINE_TYPE_AIC ? "AIC" : "AIV", t->u.kernel.schedule_mode);
        if (verbose) {
            const unsigned char *args = task_kernel_args(t);
            fputs(", \"args\": \"", f);
            for (uint32_t i = 0; i < t->u.kernel.args_size; i++)
                fprintf(f, "%02x", args[i]);
            fputc('"', f);
        }
    } else if (t->kind >= TASK_EVENT_RECORD && t->kind <= TASK_NOTIFY_WAIT) {
        fprintf(f, ", \"event\": %d, \"internal\": %s", load_relaxed(&t->u.event.ev->id),
                t->u.event.in_model == MEV_EDGE ? "true" : "false");
    } else if (t->kind == TASK_ACTIVE || t->kind == TASK_SWITCH) {
        fprintf(f, ", \"targetLane\": %u", t->u.ctl.target->index);
    }
    fputc('}', f);
}

/* Called with capture_lock held. */
static void json_model(FILE *f, const struct model *m, bool verbose)
{
    fprintf(f, "{\"modelId\": %u, \"name\": ", m->hdr.index);
    json_string(f, m->name);
    fprintf(f, ", \"kind\": \"%s\", \"streams\": [", m->kind == MODEL_CAPTURED ? "captured" : "built");
    for (uint32_t i = 0; i < m->nlanes; i++) {
        const struct lane *l = m->lanes[i];
        uint32_t k = 0;
        fprintf(f, "%s\n  {\"lane\": %u, \"streamId\": %d, \"runnerStreamId\": %d, \"flag\": \"%s\", \"tasks\": [",
                i ? "," : "", i, l->user != NULL ? load_relaxed(&l->user->id) : -1,
                l->runner != NULL ? load_relaxed(&l->runner->id) : -1,
                l->flag == ACL_MODEL_STREAM_FLAG_HEAD ? "HEAD" : "DEFAULT");
        for (const struct task *t = task_next(&l->head); t != NULL; t = task_next(t), k++) {
            fputs(k ? ",\n    " : "\n    ", f);
            json_task(f, t, k, verbose);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags)
{
    const char *fn = "aclmdlRIDebugJsonPrint";
    struct model *m;
    FILE *f;
    aclError err;
    if (modelRI == NULL || path == NULL)
        return null_arg(fn, modelRI == NULL ? "modelRI" : "path");
    err = model_resolve(fn, modelRI, &m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    /* flags is a bit set: the VERBOSE bit adds the details, other bits do
     * nothing (stream.cc Stream::DebugJsonPrintForModelStm; no check). */
    f = fopen(path, "w");
    if (f == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cannot write '%s': %s", fn, path, strerror(errno));
    capture_enter();
    json_model(f, m, (flags & ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) != 0);
    capture_leave();
    if (fclose(f) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: writing '%s' failed: %s", fn, path, strerror(errno));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI)
{
    struct model *m;
    aclError err = model_resolve("aclmdlRIDebugPrint", modelRI, &m);
    if (err == ACL_SUCCESS)
        err = model_ctx_check("aclmdlRIDebugPrint", m);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    LOGI("model %u (%s, \"%s\"): %u streams", m->hdr.index, m->kind == MODEL_CAPTURED ? "captured" : "built",
         m->name != NULL ? m->name : "",
         m->nlanes);
    for (uint32_t i = 0; i < m->nlanes; i++)
        LOGI("  lane %u: stream %d, %u tasks, %s", i,
             m->lanes[i]->user != NULL ? load_relaxed(&m->lanes[i]->user->id) : -1,
             m->lanes[i]->ntasks, m->lanes[i]->flag == ACL_MODEL_STREAM_FLAG_HEAD ? "HEAD" : "DEFAULT");
    capture_leave();
    return ACL_SUCCESS;
}

/* ---- model-control stream calls -------------------------------------------------------------- */

/* The checks after NULLs shared by aclrtActiveStream and aclrtSwitchStream:
 * context, handles, product (not Atlas A3), and both streams bound to one
 * model that is still being built. On success capture_lock is held. */
static aclError control_pair(const char *fn, aclrtStream target, aclrtStream stream, struct stream **t,
                             struct stream **s, struct lane **tl)
{
    aclError err = stream_resolve(fn, stream, s);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, target, t);
    if (err == ACL_SUCCESS && load_relaxed(&(*s)->dev)->soc->family == SOC_A3)
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: Atlas A3 does not support model-control stream calls",
                       fn);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    if ((*s)->model == NULL || (*s)->model != (*t)->model || (*tl = model_lane_of((*s)->model, *t)) == NULL)
        err = acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: streams %d and %d must both be bound to the same model", fn,
                       load_relaxed(&(*s)->id), load_relaxed(&(*t)->id));
    else if (stream_ctx(*s) != ctx_current()) /* after the model checks (api_impl.cc StreamActive, StreamSwitchEx) */
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream' (stream %d) belongs to another context",
                       fn, load_relaxed(&(*s)->id));
    if (err != ACL_SUCCESS)
        capture_leave();
    return err;
}

/* Called with capture_lock held (released here): records the control task. */
static aclError record_control(const char *fn, struct stream *s, aclrtStream stream, enum task_kind kind,
                               struct lane *target, const void *l, const void *r, uint8_t cond, uint8_t type)
{
    struct task *t;
    aclError err = stream_task_new(fn, kind, &t);
    if (err == ACL_SUCCESS) {
        t->u.ctl.target = target;
        t->u.ctl.left = l;
        t->u.ctl.right = r;
        t->u.ctl.cond = cond;
        t->u.ctl.type = type;
        /* s records into its lane; capture_lock is held (no snapshot gate). */
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream, .under_lock = true}, s, t);
    }
    if (err == ACL_SUCCESS)
        target->targeted = true;
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream)
{
    const char *fn = "aclrtActiveStream";
    struct stream *t, *s;
    struct lane *tl;
    aclError err;
    if (activeStream == NULL || stream == NULL)
        return null_arg(fn, activeStream == NULL ? "activeStream" : "stream");
    err = control_pair(fn, activeStream, stream, &t, &s, &tl);
    if (err != ACL_SUCCESS)
        return err;
    return record_control(fn, s, stream, TASK_ACTIVE, tl, NULL, NULL, 0, 0);
}

/* A switch operand must be device memory holding a value of the switch's
 * type: the reference translates it to a device address when the task is
 * made, which fails (107000) for anything that is not device memory. */
static aclError switch_operand(const char *fn, const char *arg, const void *p, aclrtCompareDataType type)
{
    size_t len = type == ACL_RT_SWITCH_INT64 ? sizeof(int64_t) : sizeof(int32_t);
    switch (devmem_classify(p, len)) {
    case MEM_DEVICE:
        return ACL_SUCCESS;
    case MEM_OVERRUN:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%p): its %zu-byte value runs past the end "
                        "of its aclrtMalloc block", fn, arg, p, len);
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%p) is not device memory from aclrtMalloc",
                        fn, arg, p);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream)
{
    const char *fn = "aclrtSwitchStream";
    struct stream *t, *s;
    struct lane *tl;
    aclError err;
    if (leftValue == NULL || rightValue == NULL || trueStream == NULL || stream == NULL)
        return null_arg(fn, leftValue == NULL ? "leftValue" : rightValue == NULL ? "rightValue"
                            : trueStream == NULL ? "trueStream" : "stream");
    if (falseStream != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'falseStream' is reserved and must be NULL", fn);
    /* The handles come before the ranges (api_c_stream.cc rtStreamSwitchEx
     * validates them, then api_error.cc StreamSwitchEx checks the ranges). */
    if ((err = stream_lookup(fn, trueStream, &t)) != ACL_SUCCESS || (err = stream_lookup(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if ((unsigned)cond > ACL_RT_LESS_OR_EQUAL || (unsigned)dataType > ACL_RT_SWITCH_INT64)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%d) is out of range", fn,
                        (unsigned)cond > ACL_RT_LESS_OR_EQUAL ? "cond" : "dataType",
                        (unsigned)cond > ACL_RT_LESS_OR_EQUAL ? (int)cond : (int)dataType);
    err = control_pair(fn, trueStream, stream, &t, &s, &tl);
    if (err != ACL_SUCCESS)
        return err;
    err = switch_operand(fn, "leftValue", leftValue, dataType);
    if (err == ACL_SUCCESS)
        err = switch_operand(fn, "rightValue", rightValue, dataType);
    if (err != ACL_SUCCESS) {
        capture_leave(); /* taken by control_pair */
        return err;
    }
    return record_control(fn, s, stream, TASK_SWITCH, tl, leftValue, rightValue, (uint8_t)cond, (uint8_t)dataType);
}

ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream)
{
    const char *fn = "aclrtPersistentTaskClean";
    struct context *ctx;
    struct stream *s;
    struct lane *l = NULL;
    aclError err;
    /* The reference's order (api_c_standard_soc.cc rtsPersistentTaskClean,
     * api_error_standard_soc.cc StreamTaskClean, api_impl_standard_soc.cc
     * StreamTaskClean): NULL, the handle, the product, the stream's kind,
     * and only then the context and the stream's own context. */
    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL", fn);
    err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS && !soc_has_ctrl_sq(load_relaxed(&s->dev)->soc))
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s cannot clean persistent streams", fn,
                       load_relaxed(&s->dev)->soc->name);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    if ((load_relaxed(&s->flags) & ACL_STREAM_CPU_SCHEDULE) || !(load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) ||
        s->model == NULL || (l = model_lane_of(s->model, s)) == NULL || s->model->state != MODEL_READY)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d must be a PERSISTENT stream bound to a model whose "
                       "build has ended (aclmdlRIBuildEnd)", fn, load_relaxed(&s->id));
    else if ((ctx = ctx_current()) == NULL)
        err = ctx_missing(fn);
    else if (stream_ctx(s) != ctx)
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d belongs to another context", fn,
                       load_relaxed(&s->id));
    else if (model_busy(s->model))
        err = acl_fail(ACL_ERROR_RT_MODEL_RUNNING, "%s: the stream's model still runs", fn);
    else
        model_clean_lane(l);
    capture_leave();
    return err;
}
