/*
 * api_stream_attr.c - per-stream settings: failure mode, overflow switch and
 * the aclrtSet/GetStreamAttribute family.
 *
 * DESIGN: checks in the order of the reference runtime (docs/api.md) for
 * failure mode, attributes and overflow; values live in the stream
 * (stream_setting_*, under its lock) and are read by launches
 * (stream_submit copies the overflow switch into each kernel task, so a
 * change affects only tasks issued afterwards, and decides launch
 * blocking) and by the executor (failure mode, through the context). Takes
 * no lock itself.
 *
 * Threads: any host thread.
 */
#include "api_int.h"
#include "../engine/engine.h"

/* Resolves the stream of a control call (failure mode, abort): NULL means
 * the default stream, which only Ascend 950, A3 and A2 accept (spec §5). */
static aclError resolve_ctrl_stream(const char *fn, const char *what, aclrtStream stream, struct context **ctx,
                                    struct stream **s)
{
    aclError err = ctx_require(fn, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (stream == NULL && !soc_has_ctrl_sq((*ctx)->dev->soc))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL; the default stream's %s is "
                        "available only on Ascend 950, A3 and A2 (this device is %s)", fn, what,
                        (*ctx)->dev->soc->name);
    return stream_resolve(fn, stream, s);
}

/* Calls that change a stream need it to be in the current context. */
static aclError check_own_context(const char *fn, const struct stream *s, const struct context *ctx)
{
    if (stream_ctx(s) == ctx)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: stream %d belongs to another context", fn, load_relaxed(&s->id));
}

/* The stream's failure mode as set on it. Setting STOP on one stream puts
 * the whole context in STOP mode, but each stream still reads its own
 * (api_impl.cc StreamGetMode, StreamSetMode; stream.cc SetFailMode). */
static uint32_t failure_mode_of(struct stream *s)
{
    return stream_setting_get(s, STREAM_FAILURE_MODE);
}

static aclError set_failure_mode(const char *fn, aclrtStream stream, uint64_t mode)
{
    struct context *ctx;
    struct stream *s;
    uint32_t want = (uint32_t)(mode & 1u), cur; /* only bit 0 counts (spec §5) */
    aclError err = resolve_ctrl_stream(fn, "failure mode", stream, &ctx, &s);

    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->flags) & ACL_STREAM_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is DEVICE_USE_ONLY; it has no failure mode",
                        fn, load_relaxed(&s->id));
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is bound to a model; it has no failure mode "
                        "of its own", fn, load_relaxed(&s->id));
    cur = failure_mode_of(s);
    if (want == cur)
        return ACL_SUCCESS;
    if (cur == ACL_STOP_ON_FAILURE)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: stream %d is in STOP mode; it cannot go back to CONTINUE", fn,
                        load_relaxed(&s->id));
    err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    stream_setting_set(s, STREAM_FAILURE_MODE, want);
    /* STOP on any stream makes the whole context stop on failure (spec §4). */
    store_relaxed(&ctx->failure_mode, ACL_STOP_ON_FAILURE);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
    return set_failure_mode("aclrtSetStreamFailureMode", stream, mode);
}

/* ---- overflow switch ------------------------------------------------------------ */

/* Ascend 950, A3 and A2 keep the switch; on other products setting it does
 * nothing and reading it gives 1 (spec §5). Where it is kept, only the
 * stream's own context may change it (spec §6: "overflow set" → 107003). */
static aclError set_overflow(const char *fn, aclrtStream stream, uint32_t flag)
{
    struct context *ctx;
    struct stream *s;
    aclError err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS || !soc_has_ctrl_sq(load_relaxed(&s->dev)->soc))
        return err;
    err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (model_recording_anywhere() && model_capture_status(s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured", fn, load_relaxed(&s->id));
    stream_setting_set(s, STREAM_OVERFLOW_SWITCH, flag);
    return ACL_SUCCESS;
}

static aclError get_overflow(const char *fn, aclrtStream stream, uint32_t *flag)
{
    struct stream *s;
    aclError err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    *flag = soc_has_ctrl_sq(load_relaxed(&s->dev)->soc) ? stream_setting_get(s, STREAM_OVERFLOW_SWITCH) : 1u;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag)
{
    const char *fn = "aclrtSetStreamOverflowSwitch";
    if (flag > 1)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be 0 (off) or 1 (on)", fn, flag);
    return set_overflow(fn, stream, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag)
{
    if (flag == NULL)
        return null_arg("aclrtGetStreamOverflowSwitch", "flag");
    return get_overflow("aclrtGetStreamOverflowSwitch", stream, flag);
}

/* ---- attributes ---------------------------------------------------------------- */

static aclError bad_attr(const char *fn, aclrtStreamAttr attr)
{
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stmAttrType' (%d) is not a stream attribute "
                    "(1 failure mode .. 6 launch blocking mode)", fn, (int)attr);
}

static aclError set_priority(const char *fn, aclrtStream stream, uint32_t prio)
{
    struct stream *s;
    aclError err;
    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the default stream's priority cannot be changed", fn);
    err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->is_default) || (load_relaxed(&s->flags) & ACL_STREAM_CPU_SCHEDULE))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is a %s stream; its priority is fixed", fn,
                        load_relaxed(&s->id), load_relaxed(&s->is_default) ? "default" : "CPU_SCHEDULE");
    stream_set_priority(s, prio > ACLCPU_PRIORITIES - 1 ? ACLCPU_PRIORITIES - 1 : prio); /* clamped */
    return ACL_SUCCESS;
}

/* Stores a plain setting of the stream. */
static aclError set_field(const char *fn, aclrtStream stream, enum stream_setting which, uint32_t value)
{
    struct stream *s;
    aclError err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        stream_setting_set(s, which, value);
    return err;
}

/* ---- launch blocking (spec §9) ----------------------------------------------------- */

static aclError set_blocking_mode(const char *fn, aclrtStream stream, uint32_t mode)
{
    struct context *ctx;
    struct stream *s;
    aclError err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (mode > ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: launchBlockingMode %u is not 0 (by env), 1 (non-blocking) or "
                        "2 (blocking)", fn, mode);
    err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    stream_setting_set(s, STREAM_BLOCKING_MODE, mode);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtNonBlockingLaunchBegin(aclrtStream stream, uint64_t flag)
{
    struct stream *s;
    aclError err = stream_resolve("aclrtNonBlockingLaunchBegin", stream, &s);
    (void)flag; /* reserved: 0 */
    if (err != ACL_SUCCESS)
        return err;
    stream_nonblocking_begin(s);
    return ACL_SUCCESS;
}

/* Only the End that closes the outermost region synchronises the stream
 * (when its launches would otherwise block) and returns that sync's error. */
ACL_FUNC_VISIBILITY aclError aclrtNonBlockingLaunchEnd(aclrtStream stream, uint64_t flag)
{
    const char *fn = "aclrtNonBlockingLaunchEnd";
    struct stream *s;
    bool sync;
    aclError err = stream_resolve(fn, stream, &s);
    (void)flag;
    if (err != ACL_SUCCESS)
        return err;
    if (!stream_nonblocking_end(s, &sync))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: no aclrtNonBlockingLaunchBegin is open on stream %d", fn,
                        load_relaxed(&s->id));
    return sync ? launch_wait(fn, s, stream) : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    const char *fn = "aclrtSetStreamAttribute";
    if (value == NULL)
        return null_arg(fn, "value");
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        return set_failure_mode(fn, stream, value->failureMode);
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if (value->overflowSwitch > 1)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: overflowSwitch %u must be 0 or 1", fn,
                            value->overflowSwitch);
        return set_overflow(fn, stream, value->overflowSwitch);
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        return set_field(fn, stream, STREAM_USER_TAG, value->userCustomTag);
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        return set_field(fn, stream, STREAM_CACHE_OP_INFO, value->cacheOpInfoSwitch);
    case ACL_STREAM_ATTR_PRIORITY:
        return set_priority(fn, stream, value->streamPriority);
    case ACL_STREAM_LAUNCH_BLOCKING_MODE:
        return set_blocking_mode(fn, stream, value->launchBlockingMode);
    default:
        return bad_attr(fn, stmAttrType);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    const char *fn = "aclrtGetStreamAttribute";
    struct stream *s;
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    if (stmAttrType < ACL_STREAM_ATTR_FAILURE_MODE || stmAttrType > ACL_STREAM_LAUNCH_BLOCKING_MODE)
        return bad_attr(fn, stmAttrType);
    if (stmAttrType == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK)
        return get_overflow(fn, stream, &value->overflowSwitch);
    err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (stmAttrType == ACL_STREAM_ATTR_FAILURE_MODE)
        value->failureMode = failure_mode_of(s);
    else if (stmAttrType == ACL_STREAM_ATTR_USER_CUSTOM_TAG)
        value->userCustomTag = stream_setting_get(s, STREAM_USER_TAG);
    else if (stmAttrType == ACL_STREAM_ATTR_CACHE_OP_INFO)
        value->cacheOpInfoSwitch = stream_setting_get(s, STREAM_CACHE_OP_INFO);
    else if (stmAttrType == ACL_STREAM_LAUNCH_BLOCKING_MODE)
        value->launchBlockingMode = stream_setting_get(s, STREAM_BLOCKING_MODE);
    else
        value->streamPriority = load_relaxed(&s->priority);
    return ACL_SUCCESS;
}

/* ---- abort ------------------------------------------------------------------------ */

/* The vendor's sample notes that aclrtStreamAbort does not take
 * DEVICE_USE_ONLY streams (aclrtStreamStop is their tool): 207000. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream)
{
    const char *fn = "aclrtStreamAbort";
    struct context *ctx;
    struct stream *s;
    aclError err = resolve_ctrl_stream(fn, "abort", stream, &ctx, &s);

    if (err == ACL_SUCCESS)
        err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    /* Abort is an Ascend 950/A3/A2 feature (spec §5 "Abort / stop / clean");
     * checked after the context, as the runtime does. */
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is bound to a model (abort the model with "
                        "aclmdlRIAbort)", fn, load_relaxed(&s->id));
    if (!soc_has_ctrl_sq(load_relaxed(&s->dev)->soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream abort is available only on Ascend 950, A3 "
                        "and A2 (this device is %s)", fn, load_relaxed(&s->dev)->soc->name);
    if (load_relaxed(&s->flags) & ACL_STREAM_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: stream %d is DEVICE_USE_ONLY, which aclrtStreamAbort does not take (use aclrtStreamStop)",
                        fn, load_relaxed(&s->id));
    engine_abort_stream(s);
    return ACL_SUCCESS;
}

/* ---- stop --------------------------------------------------------------------------- */

/* Checks in the order spec §5 lists them: NULL (107000: the default stream
 * cannot be stopped), context, handle, product (Ascend 950, A3, A2), the
 * stream's context. On A2 and A3 the stream must be DEVICE_USE_ONLY, as
 * the vendor's documentation says (207000 otherwise). */
static aclError check_stoppable(const char *fn, aclrtStream stream, struct stream **out)
{
    struct context *ctx;
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL; the default stream cannot be "
                        "stopped", fn);
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is bound to a model; it cannot be stopped", fn,
                        load_relaxed(&s->id));
    if (!soc_has_ctrl_sq(load_relaxed(&s->dev)->soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s does not support stopping a stream (Ascend 950, "
                        "A3 and A2 do)", fn, load_relaxed(&s->dev)->soc->name);
    err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->dev)->soc->family != SOC_950 && !(load_relaxed(&s->flags) & ACL_STREAM_DEVICE_USE_ONLY))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: on %s aclrtStreamStop takes only streams created "
                        "with ACL_STREAM_DEVICE_USE_ONLY; stream %d is not one (use aclrtStreamAbort)", fn,
                        load_relaxed(&s->dev)->soc->name, load_relaxed(&s->id));
    *out = s;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream)
{
    const char *fn = "aclrtStreamStop";
    struct stream *s = NULL;
    aclError err = check_stoppable(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (!engine_stop_stream(s, stream))
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the stream during the call", fn);
    return ACL_SUCCESS;
}
