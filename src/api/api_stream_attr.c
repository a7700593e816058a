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

/* The stream of a call the reference resolves with Runtime::GetCurStream
 * (failure mode, abort, the cache-op-info switch): the handle first
 * (107017); NULL means the default stream only on Ascend 950, A3 and A2
 * (the products with a control queue), and only with a current context:
 * elsewhere, or without one, NULL is refused with 107000 (runtime.cc
 * Runtime::GetCurStream, then the caller's NULL check in api_error.cc).
 * A named stream needs no context here; the callers that need one ask. */
static aclError resolve_ctrl_stream(const char *fn, const char *what, aclrtStream stream, struct stream **s)
{
    struct context *ctx;
    if (stream != NULL)
        return stream_lookup(fn, stream, s);
    ctx = ctx_current();
    if (ctx == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL and the calling thread has no "
                        "current context, so there is no default stream to take its %s", fn, what);
    if (!soc_has_ctrl_sq(ctx->dev->soc))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL; the default stream's %s is "
                        "available only on Ascend 950, A3 and A2 (this device is %s)", fn, what,
                        ctx->dev->soc->name);
    *s = ctx->default_stream;
    return ACL_SUCCESS;
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

/* The reference's order (api_c_stream.cc rtStreamSetMode, api_error.cc
 * StreamSetMode, api_impl.cc StreamSetMode): the stream (see
 * resolve_ctrl_stream), DEVICE_USE_ONLY (207000), the context (107002), a
 * model-bound stream (207000), the same mode again (0), STOP back to
 * CONTINUE (207000), and last the stream's own context (107003). */
static aclError set_failure_mode(const char *fn, aclrtStream stream, uint64_t mode)
{
    struct context *ctx;
    struct stream *s;
    uint32_t want = (uint32_t)(mode & 1u), cur; /* only bit 0 counts (spec §5) */
    aclError err = resolve_ctrl_stream(fn, "failure mode", stream, &s);

    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->flags) & ACL_STREAM_DEVICE_USE_ONLY)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is DEVICE_USE_ONLY; it has no failure mode",
                        fn, load_relaxed(&s->id));
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
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

/* A call that changes or reads a stream of the current context only: the
 * stream resolved, the context (107002), the stream's own context (107003)
 * (api_impl.cc SetStreamOverflowSwitch, GetStreamOverflowSwitch,
 * SetStreamTag, GetStreamTag). A capture is refused (107027) before the
 * context where `captured_refused` (api_error.cc SetStreamOverflowSwitch,
 * SetStreamTag). */
static aclError own_stream(const char *fn, aclrtStream stream, bool captured_refused, struct stream **s)
{
    struct context *ctx;
    aclError err = stream_lookup(fn, stream, s);
    if (err != ACL_SUCCESS)
        return err;
    if (captured_refused && stream != NULL && model_recording_anywhere() &&
        model_capture_status(*s, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured", fn, load_relaxed(&(*s)->id));
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = check_own_context(fn, *s, ctx);
    return err;
}

/* Ascend 950, A3 and A2 keep the switch; on other products setting it
 * succeeds before anything is checked, stream included, and reading it
 * gives 1 (api_c_stream.cc rtSetStreamOverflowSwitch; api_impl.cc
 * GetStreamOverflowSwitch). `flag` is in range here. */
static aclError set_overflow(const char *fn, aclrtStream stream, uint32_t flag)
{
    struct stream *s;
    aclError err;
    if (!soc_has_ctrl_sq(soc_configured()))
        return ACL_SUCCESS;
    err = own_stream(fn, stream, true, &s);
    if (err == ACL_SUCCESS)
        stream_setting_set(s, STREAM_OVERFLOW_SWITCH, flag);
    return err;
}

static aclError get_overflow(const char *fn, aclrtStream stream, uint32_t *flag)
{
    struct stream *s;
    aclError err = own_stream(fn, stream, false, &s);
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

/* The priority through the attribute calls (api_error.cc
 * SetStreamPriorityValue, GetStreamPriorityValue; api_impl.cc): NULL is
 * refused, not taken as the default stream (107000); a CPU_SCHEDULE
 * stream has no priority to change or read (207000); then the context
 * (107002). A priority past the lowest is clamped. The default stream,
 * named by its handle, takes one like any other. */
static aclError priority_stream(const char *fn, aclrtStream stream, struct stream **s)
{
    struct context *ctx;
    aclError err;
    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL; a stream's priority is set and "
                        "read only through its handle (aclrtCtxGetCurrentDefaultStream names the default stream)",
                        fn);
    err = stream_lookup(fn, stream, s);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&(*s)->flags) & ACL_STREAM_CPU_SCHEDULE)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is a CPU_SCHEDULE stream; it has no "
                        "priority", fn, load_relaxed(&(*s)->id));
    return ctx_require(fn, &ctx);
}

static aclError set_priority(const char *fn, aclrtStream stream, uint32_t prio)
{
    struct stream *s;
    aclError err = priority_stream(fn, stream, &s);
    if (err == ACL_SUCCESS)
        stream_set_priority(s, clamp_priority(prio));
    return err;
}

/* The user tag is kept on Ascend 950, A3 and A2; elsewhere setting and
 * reading it succeed at once and the value is left as it was
 * (api_c_stream.cc rtsStreamSetAttribute, rtsStreamGetAttribute). */
static aclError set_tag(const char *fn, aclrtStream stream, uint32_t tag)
{
    struct stream *s;
    aclError err;
    if (!soc_has_ctrl_sq(soc_configured()))
        return ACL_SUCCESS;
    err = own_stream(fn, stream, true, &s);
    if (err == ACL_SUCCESS)
        stream_setting_set(s, STREAM_USER_TAG, tag);
    return err;
}

/* The cache-op-info switch: 0 or 1 (107000), on any named stream, with or
 * without a context (api_error.cc SetStreamCacheOpInfoSwitch; api_impl.cc
 * does not look at the context). */
static aclError set_cache_op_info(const char *fn, aclrtStream stream, uint32_t on)
{
    struct stream *s;
    aclError err = resolve_ctrl_stream(fn, "cache-op-info switch", stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (on > 1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cacheOpInfoSwitch %u must be 0 or 1", fn, on);
    stream_setting_set(s, STREAM_CACHE_OP_INFO, on);
    return ACL_SUCCESS;
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

/* The reference has no such calls (aclcpu's, see differences.md): the
 * stream as any stream call resolves it, then the reserved flag, which
 * must be 0 (107000). */
static aclError reserved_flag(const char *fn, uint64_t flag)
{
    if (flag == 0)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (0x%llx) is reserved and must be 0", fn,
                    (unsigned long long)flag);
}

ACL_FUNC_VISIBILITY aclError aclrtNonBlockingLaunchBegin(aclrtStream stream, uint64_t flag)
{
    struct stream *s;
    aclError err = stream_resolve("aclrtNonBlockingLaunchBegin", stream, &s);
    if (err == ACL_SUCCESS)
        err = reserved_flag("aclrtNonBlockingLaunchBegin", flag);
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
    if (err == ACL_SUCCESS)
        err = reserved_flag(fn, flag);
    if (err != ACL_SUCCESS)
        return err;
    if (!stream_nonblocking_end(s, &sync))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: no aclrtNonBlockingLaunchBegin is open on stream %d", fn,
                        load_relaxed(&s->id));
    return sync ? launch_wait(fn, s, stream) : ACL_SUCCESS;
}

/* NULL value (100000), then the handle (107017) whatever the attribute,
 * then the attribute's own rules (stream.cpp aclrtSetStreamAttributeImpl,
 * api_c_stream.cc rtsStreamSetAttribute). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    const char *fn = "aclrtSetStreamAttribute";
    struct stream *s;
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    if (stream != NULL && (err = stream_lookup(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        return set_failure_mode(fn, stream, value->failureMode);
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        if (!soc_has_ctrl_sq(soc_configured()))
            return ACL_SUCCESS; /* before the range, as the reference */
        if (value->overflowSwitch > 1)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: overflowSwitch %u must be 0 or 1", fn,
                            value->overflowSwitch);
        return set_overflow(fn, stream, value->overflowSwitch);
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        return set_tag(fn, stream, value->userCustomTag);
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        return set_cache_op_info(fn, stream, value->cacheOpInfoSwitch);
    case ACL_STREAM_ATTR_PRIORITY:
        return set_priority(fn, stream, value->streamPriority);
    case ACL_STREAM_LAUNCH_BLOCKING_MODE:
        return set_blocking_mode(fn, stream, value->launchBlockingMode);
    default:
        return bad_attr(fn, stmAttrType);
    }
}

/* As the setter: NULL value, the handle, then the attribute's rules
 * (api_c_stream.cc rtsStreamGetAttribute; api_error.cc StreamGetMode,
 * GetStreamOverflowSwitch, GetStreamTag, GetStreamCacheOpInfoSwitch,
 * GetStreamPriorityValue). */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value)
{
    const char *fn = "aclrtGetStreamAttribute";
    struct stream *s;
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    if (stream != NULL && (err = stream_lookup(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    switch (stmAttrType) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        err = resolve_ctrl_stream(fn, "failure mode", stream, &s);
        if (err == ACL_SUCCESS)
            value->failureMode = failure_mode_of(s);
        return err;
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
        return get_overflow(fn, stream, &value->overflowSwitch);
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        if (!soc_has_ctrl_sq(soc_configured()))
            return ACL_SUCCESS;
        err = own_stream(fn, stream, false, &s);
        if (err == ACL_SUCCESS)
            value->userCustomTag = stream_setting_get(s, STREAM_USER_TAG);
        return err;
    case ACL_STREAM_ATTR_CACHE_OP_INFO:
        err = resolve_ctrl_stream(fn, "cache-op-info switch", stream, &s);
        if (err == ACL_SUCCESS)
            value->cacheOpInfoSwitch = stream_setting_get(s, STREAM_CACHE_OP_INFO);
        return err;
    case ACL_STREAM_ATTR_PRIORITY:
        err = priority_stream(fn, stream, &s);
        if (err == ACL_SUCCESS)
            value->streamPriority = load_relaxed(&s->priority);
        return err;
    case ACL_STREAM_LAUNCH_BLOCKING_MODE:
        err = stream_resolve(fn, stream, &s);
        if (err == ACL_SUCCESS)
            value->launchBlockingMode = stream_setting_get(s, STREAM_BLOCKING_MODE);
        return err;
    default:
        return bad_attr(fn, stmAttrType);
    }
}

/* ---- abort ------------------------------------------------------------------------ */

/* The reference's order (api_c_stream.cc rtStreamAbort; api_error.cc
 * StreamAbort; api_impl.cc / api_impl_david.cc StreamAbort; context.cc
 * Context::StreamAbort): the stream (resolve_ctrl_stream), the context
 * (107002), the stream's own context (107003), on the Ascend 950 a
 * PERSISTENT stream (507000), a model-bound stream (507000), then the
 * product (207000 off Ascend 950, A3 and A2). The vendor's sample notes
 * that aclrtStreamAbort does not take DEVICE_USE_ONLY streams
 * (aclrtStreamStop is their tool): 207000 last. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream)
{
    const char *fn = "aclrtStreamAbort";
    struct context *ctx;
    struct stream *s;
    aclError err = resolve_ctrl_stream(fn, "abort", stream, &s);

    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->dev)->soc->family == SOC_950 && (load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is PERSISTENT, which the Ascend 950 does not "
                        "abort%s", fn, load_relaxed(&s->id),
                        s->model != NULL ? " (it is bound to a model: abort the model with aclmdlRIAbort)" : "");
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

/* The reference's order (api_c.cc rtsStreamStop; api_error.cc StreamStop;
 * api_impl.cc StreamClear, api_impl_david.cc StreamStop; context.cc
 * Context::StreamClear): the handle (107017), NULL (107000: the default
 * stream cannot be stopped), the context (107002), the product (207000
 * off Ascend 950, A3 and A2), the stream's own context (107003), a
 * model-bound stream (507000). On A2 and A3 the stream must also be
 * DEVICE_USE_ONLY, as the vendor's documentation says (207000). */
static aclError check_stoppable(const char *fn, aclrtStream stream, struct stream **out)
{
    struct context *ctx;
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' is NULL; the default stream cannot be "
                        "stopped", fn);
    err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (!soc_has_ctrl_sq(load_relaxed(&s->dev)->soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s does not support stopping a stream (Ascend 950, "
                        "A3 and A2 do)", fn, load_relaxed(&s->dev)->soc->name);
    err = check_own_context(fn, s, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (s->model != NULL)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is bound to a model; it cannot be stopped", fn,
                        load_relaxed(&s->id));
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
