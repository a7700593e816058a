/*
 * api_funcs.c - queries of kernels and binaries (name, address, size,
 * attributes, binary, parameters, globals, entries, AI CPU registration),
 * the operator execution timeout, the saturation mode, and the overflow
 * status of a context.
 *
 * DESIGN: argument checks in the reference's order, then core/kernel.c
 * for what a binary's shared object says. A kernel is a host function:
 * its name, address, code size and binary are known; a C kernel takes one
 * void* and carries no parameter description, so the parameter queries
 * fail as the reference's do for a kernel without one (107000). The
 * operator timeout is one process-wide setting (microseconds, 0 = none)
 * that a launch without its own TIMEOUT attribute takes (api_kernel.c);
 * the engine fails such a kernel as it fails one past its TIMEOUT
 * attribute. The overflow status is the context's overflow area
 * (core.h): the engine sets it when a kernel calls aclcpuSetOverflow(),
 * and the status calls queue a copy or a clear of it on a stream, as the
 * device's runtime does.
 *
 * Threads: any host thread. Locks: none here (kernel.c takes a binary's
 * lock); the settings are atomics read relaxed (a setting racing a launch
 * may or may not apply to it).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api_int.h"

/* The reference's fixed size of an overflow status copy (OVERFLOW_OUTPUT_SIZE). */
#define OVERFLOW_OUTPUT_SIZE 64u
/* The longest timeout aclrtSetOpExecuteTimeOutWithMs takes (RT_MAX_OP_TIMEOUT_FOR_MS). */
#define MAX_OP_TIMEOUT_MS 1000000u
/* aclcpu watches a kernel's time with the host clock: 1 us granularity. */
#define OP_TIMEOUT_INTERVAL_US 1u

static _Atomic uint64_t op_timeout_us;    /* 0: none set */
static _Atomic uint32_t sat_mode_set;     /* aclrtFloatOverflowMode + 1; 0: never set (the SoC's default) */

uint64_t op_execute_timeout_us(void) { return load_relaxed(&op_timeout_us); }

/* ---- kernels ------------------------------------------------------------------ */

/* A live kernel for fn (107017 if not), its handle checked non-NULL by the caller. */
static aclError func_resolve(const char *fn, const char *arg, const void *h, struct kfunc **out)
{
    *out = (struct kfunc *)obj_resolve(h, OBJ_FUNC);
    if (*out != NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                    "%s: argument '%s' (%p) is not a live kernel (its binary was unloaded, or it never came from "
                    "aclrtBinaryGetFunction/aclcpuRegisterKernel)",
                    fn, arg, h);
}

/* After reading f's fields: f still is the kernel h named (107017 if it
 * died, and maybe was reused, during the call). */
static aclError func_still(const char *fn, struct kfunc *f, const void *h)
{
    if (obj_same(&f->hdr, h))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the kernel's binary was unloaded during the call", fn);
}

/* The reference's refusal of an AI CPU kernel where only AI Core ones have the property. */
static aclError not_cpu(const char *fn, const char *arg, const struct kfunc *f)
{
    if (!f->cpu)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument '%s' is an AI CPU kernel (aclrtRegisterCpuFunc, or of a binary loaded with a CPU "
                    "kernel mode); only AI Core kernels have this property",
                    fn, arg);
}

/* The SoCs with the ACL graph feature (A2, A3, 950, 310P) have kernel
 * sizes and ratios; 910 and 310B do not (207000). */
static aclError ratio_feature(const char *fn)
{
    enum soc_family fam = soc_configured()->family;
    if (fam != SOC_910 && fam != SOC_200I500A2)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the configured SoC (%s) has no ACL graph feature", fn,
                    soc_configured()->name);
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name)
{
    const char *fn = "aclrtGetFunctionName";
    char copy[sizeof(((struct kfunc *)0)->name)];
    struct kfunc *f;
    size_t len;
    aclError err;

    if (name == NULL)
        return null_arg(fn, "name");
    if (funcHandle == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'funcHandle' is NULL", fn);
    if ((err = func_resolve(fn, "funcHandle", funcHandle, &f)) != ACL_SUCCESS)
        return err;
    memcpy(copy, f->name, sizeof(copy));
    copy[sizeof(copy) - 1] = '\0';
    if ((err = func_still(fn, f, funcHandle)) != ACL_SUCCESS)
        return err;
    len = strlen(copy);
    if ((uint64_t)maxLen < (uint64_t)len + 1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'maxLen' is %u; it must be at least %zu (the name \"%s\" and its terminator)",
                        fn, maxLen, len + 1, copy);
    memcpy(name, copy, len + 1);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr)
{
    const char *fn = "aclrtGetFunctionAddr";
    struct kfunc *f;
    aclcpuKernelFn kfn;
    aclError err;

    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (aicAddr == NULL)
        return null_arg(fn, "aicAddr");
    if (aivAddr == NULL)
        return null_arg(fn, "aivAddr");
    if ((err = func_resolve(fn, "funcHandle", funcHandle, &f)) != ACL_SUCCESS ||
        (err = not_cpu(fn, "funcHandle", f)) != ACL_SUCCESS)
        return err;
    kfn = load_relaxed(&f->fn);
    if ((err = func_still(fn, f, funcHandle)) != ACL_SUCCESS)
        return err;
    /* Either engine runs the same host function. */
    *aicAddr = *aivAddr = (void *)(uintptr_t)kfn;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize)
{
    const char *fn = "aclrtGetFunctionSize";
    struct kfunc *f;
    size_t size;
    aclError err;

    /* The ACL layer checks nothing here. The runtime: the SoC (ACL graph
     * feature), a named handle (107017), then the NULLs (107000). */
    if ((err = ratio_feature(fn)) != ACL_SUCCESS)
        return err;
    if (funcHandle != NULL && (err = func_resolve(fn, "funcHandle", funcHandle, &f)) != ACL_SUCCESS)
        return err;
    if (funcHandle == NULL || aicSize == NULL || aivSize == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        funcHandle == NULL ? "funcHandle" : aicSize == NULL ? "aicSize" : "aivSize");
    if ((err = not_cpu(fn, "funcHandle", f)) != ACL_SUCCESS)
        return err;
    size = kfunc_code_size(f);
    if ((err = func_still(fn, f, funcHandle)) != ACL_SUCCESS)
        return err;
    *aicSize = *aivSize = size;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                                       int64_t *attrValue)
{
    const char *fn = "aclrtGetFunctionAttribute";
    aclcpuKernelCost cost;
    struct kfunc *f;
    bool mix;
    aclError err;

    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (attrValue == NULL)
        return null_arg(fn, "attrValue");
    if ((err = func_resolve(fn, "funcHandle", funcHandle, &f)) != ACL_SUCCESS)
        return err;
    if ((uint32_t)attrType < ACL_FUNC_ATTR_KERNEL_TYPE || (uint32_t)attrType > ACL_FUNC_ATTR_KERNEL_SCHED_MODE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'attrType' is %d; it must be in [%d, %d)", fn,
                        (int)attrType, ACL_FUNC_ATTR_KERNEL_TYPE, ACL_FUNC_ATTR_KERNEL_SCHED_MODE + 1);
    if (attrType == ACL_FUNC_ATTR_KERNEL_RATIO &&
        ((err = ratio_feature(fn)) != ACL_SUCCESS || (err = not_cpu(fn, "funcHandle", f)) != ACL_SUCCESS))
        return err;
    /* A kernel declared a mix kernel (aclcpuSetKernelCost) is one. */
    mix = kfunc_cost(f, &cost) && cost.mix == 1;
    switch (attrType) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
        *attrValue = f->cpu ? ACL_KERNEL_TYPE_AICPU : mix ? ACL_KERNEL_TYPE_MIX : ACL_KERNEL_TYPE_VECTOR;
        break;
    case ACL_FUNC_ATTR_KERNEL_RATIO: {
        /* Two 16-bit counts in the value's first bytes: the vector
         * engines', then the cube engines' per task; a kernel that is not
         * a mix kernel has none. A mix kernel on aclcpu runs one block per
         * block index: one of each. */
        uint16_t ratio[2] = {mix ? 1u : 0u, mix ? 1u : 0u};
        *attrValue = 0;
        memcpy(attrValue, ratio, sizeof(ratio));
        break;
    }
    default:
        *attrValue = 0; /* the normal schedule mode: a kernel's own; a launch attribute may change it */
        break;
    }
    return func_still(fn, f, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle)
{
    const char *fn = "aclrtFunctionGetBinary";
    struct binary *b;
    struct kfunc *f;
    aclError err;

    /* The runtime's entry checks a named handle (107017) before the NULLs (107000). */
    if (funcHandle != NULL && (err = func_resolve(fn, "funcHandle", funcHandle, &f)) != ACL_SUCCESS)
        return err;
    if (funcHandle == NULL || binHandle == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        funcHandle == NULL ? "funcHandle" : "binHandle");
    b = load_relaxed(&f->bin);
    if ((err = func_still(fn, f, funcHandle)) != ACL_SUCCESS)
        return err;
    /* A binary's handle holds while its kernels do (unload kills both). */
    *binHandle = b != NULL ? obj_handle(&b->hdr) : NULL;
    return ACL_SUCCESS;
}

/* What the parameter queries share after the ACL layer's checks: a live
 * kernel, not an AI CPU one (207000), with a parameter description
 * (107000: a CPU kernel never has one). */
static aclError param_summary(const char *fn, const void *func)
{
    struct kfunc *f;
    aclError err = func_resolve(fn, "func", func, &f);
    if (err != ACL_SUCCESS)
        return err;
    if (f->cpu)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'func' is an AI CPU kernel: it has no "
                        "parameter information", fn);
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument 'func': the kernel has no parameter information (an aclcpu kernel is a C function "
                    "of one void* argument; its parameters are not described anywhere)",
                    fn);
}

ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount)
{
    const char *fn = "aclrtFunctionGetParamCount";
    if (func == NULL)
        return null_arg(fn, "func");
    if (paramCount == NULL)
        return null_arg(fn, "paramCount");
    return param_summary(fn, func);
}

ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                       size_t *paramSize)
{
    const char *fn = "aclrtFunctionGetParamInfo";
    (void)paramIndex; /* checked against a count no aclcpu kernel has */
    if (func == NULL)
        return null_arg(fn, "func");
    if (paramOffset == NULL && paramSize == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: arguments 'paramOffset' and 'paramSize' are both NULL; at "
                        "least one must not be", fn);
    return param_summary(fn, func);
}

ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void *func, uint32_t flags, size_t *dynamicUbufSize)
{
    const char *fn = "aclrtFunctionGetAvailDynUbufPerBlock";
    struct kfunc *f;
    aclError err;

    if (func == NULL)
        return null_arg(fn, "func");
    if (dynamicUbufSize == NULL)
        return null_arg(fn, "dynamicUbufSize");
    if (flags != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' is %u; it must be 0", fn, flags);
    if ((err = func_resolve(fn, "func", func, &f)) != ACL_SUCCESS)
        return err;
    /* No compiler placed a SIMT buffer in a CPU kernel: as a kernel that
     * is not a SIMT one, 0. */
    *dynamicUbufSize = 0;
    return ACL_SUCCESS;
}

/* ---- binaries ----------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr,
                                                      size_t *binSize)
{
    const char *fn = "aclrtBinaryGetDevAddress";
    struct binary *b;
    size_t size;
    void *base;
    aclError err;

    if (binHandle == NULL)
        return null_arg(fn, "binHandle");
    if ((b = binary_resolve(fn, binHandle, &err)) == NULL)
        return err; /* the runtime's entry checks the handle before the NULLs */
    if (binAddr == NULL || binSize == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        binAddr == NULL ? "binAddr" : "binSize");
    if ((err = binary_extent(fn, b, &base, &size)) != ACL_SUCCESS)
        return err;
    *binAddr = base;
    *binSize = size;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle *funcHandle)
{
    const char *fn = "aclrtBinaryGetFunctionByEntry";
    struct binary *b;
    aclError err;

    if (binHandle == NULL)
        return null_arg(fn, "binHandle");
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if ((b = binary_resolve(fn, binHandle, &err)) == NULL)
        return err;
    if (b->cpu)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'binHandle' was loaded with a CPU kernel mode: "
                        "its kernels have no entries", fn);
    *funcHandle = NULL;
    return binary_function_at(fn, b, (const void *)(uintptr_t)funcEntry, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr,
                                                  size_t *size)
{
    const char *fn = "aclrtBinaryGetGlobal";
    struct context *ctx;
    struct binary *b;
    aclError err;

    if (binHandle == NULL)
        return null_arg(fn, "binHandle");
    if (name == NULL)
        return null_arg(fn, "name");
    if (dptr == NULL && size == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: arguments 'dptr' and 'size' are both NULL; at least one must "
                        "not be", fn);
    if ((b = binary_resolve(fn, binHandle, &err)) == NULL)
        return err;
    if (b->cpu)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'binHandle' was loaded with a CPU kernel "
                        "mode: AI CPU binaries have no device globals", fn);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    return binary_global(fn, b, name, dptr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName,
                                                  const char *kernelName, aclrtFuncHandle *funcHandle)
{
    const char *fn = "aclrtRegisterCpuFunc";
    struct binary *b;
    aclError err;

    if (handle == NULL)
        return null_arg(fn, "handle");
    if (funcName == NULL)
        return null_arg(fn, "funcName");
    if (kernelName == NULL)
        return null_arg(fn, "kernelName");
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    *funcHandle = NULL;
    if ((b = binary_resolve(fn, handle, &err)) == NULL)
        return err;
    if (!b->cpu)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'handle' was not loaded with a CPU kernel mode "
                        "(ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE): it holds no AI CPU kernels",
                        fn);
    /* kernelName is the operator type on the device; a CPU kernel is found
     * by its function's name alone. */
    return binary_function(fn, b, funcName, funcHandle);
}

/* ---- operator execution timeout -------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)
{
    store_relaxed(&op_timeout_us, (uint64_t)timeout * 1000000u);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout)
{
    if (timeout > MAX_OP_TIMEOUT_MS)
        timeout = MAX_OP_TIMEOUT_MS;
    store_relaxed(&op_timeout_us, (uint64_t)timeout * 1000u);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout)
{
    const char *fn = "aclrtSetOpExecuteTimeOutV2";
    struct context *ctx;
    aclError err;

    if (actualTimeout == NULL)
        return null_arg(fn, "actualTimeout");
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    store_relaxed(&op_timeout_us, timeout);
    /* The host clock keeps any whole number of microseconds; 0 is none. */
    *actualTimeout = timeout == 0 ? UINT64_MAX : timeout;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval)
{
    const char *fn = "aclrtGetOpTimeOutInterval";
    struct context *ctx;
    aclError err;

    if (interval == NULL)
        return null_arg(fn, "interval");
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    *interval = OP_TIMEOUT_INTERVAL_US;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)
{
    uint64_t us;
    if (timeoutMs == NULL)
        return null_arg("aclrtGetOpExecuteTimeout", "timeoutMs");
    us = load_relaxed(&op_timeout_us);
    /* Rounded up, so a timeout under a millisecond does not read as none
     * (without adding to us first: near UINT64_MAX that would wrap to 0). */
    us = us / 1000u + (us % 1000u != 0);
    *timeoutMs = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
    return ACL_SUCCESS;
}

/* ---- saturation mode ----------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
    if ((int)mode < (int)ACL_RT_OVERFLOW_MODE_SATURATION || (int)mode >= (int)ACL_RT_OVERFLOW_MODE_UNDEF)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSetDeviceSatMode: argument 'mode' is %d; it must be in [0, 2) (SATURATION or INFNAN)",
                        (int)mode);
    store_relaxed(&sat_mode_set, (uint32_t)mode + 1);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
    if (mode == NULL)
        return null_arg("aclrtGetDeviceSatMode", "mode");
    uint32_t set = load_relaxed(&sat_mode_set);
    if (set != 0) {
        *mode = (aclrtFloatOverflowMode)(set - 1);
    } else {
        /* The runtime starts in INFNAN where the SoC has the overflow mode
         * feature (A2, A3, 950), in SATURATION elsewhere. */
        enum soc_family fam = soc_configured()->family;
        *mode = fam == SOC_A2 || fam == SOC_A3 || fam == SOC_950 ? ACL_RT_OVERFLOW_MODE_INFNAN
                                                                 : ACL_RT_OVERFLOW_MODE_SATURATION;
    }
    return ACL_SUCCESS;
}

/* ---- overflow status ----------------------------------------------------------- */

/* The start the status tasks share after their own argument checks: a
 * named stream must be live (107017) and not being captured (107027);
 * then the current context (107002), NULL meaning its default stream, and
 * a stream of that context (107003). */
static aclError status_stream(const char *fn, aclrtStream stream, struct stream **s)
{
    aclError err = stream_handle_live(fn, stream);
    if (err != ACL_SUCCESS)
        return err;
    if (stream != NULL && model_recording_anywhere()) {
        struct stream *named = (struct stream *)obj_resolve_user(stream, OBJ_STREAM);
        if (named != NULL && model_capture_status(named, NULL) != ACL_MODEL_RI_CAPTURE_STATUS_NONE)
            return acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d is being captured", fn,
                            load_relaxed(&named->id));
    }
    return task_stream(fn, stream, s);
}

/* The Npu* status calls exist where the SoC has the float status feature
 * (A2, A3, 950): elsewhere 207000, before any other check. */
static aclError float_status_feature(const char *fn)
{
    enum soc_family fam = soc_configured()->family;
    if (fam == SOC_A2 || fam == SOC_A3 || fam == SOC_950)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the configured SoC (%s) has no NPU float status", fn,
                    soc_configured()->name);
}

static aclError get_status(const char *fn, void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
    struct stream *s;
    aclError err;

    /* The runtime's entry validates a named stream first (107017). */
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS)
        return err;
    if (outputAddr == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'outputAddr' is NULL", fn);
    if (outputSize != OVERFLOW_OUTPUT_SIZE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'outputSize' is %llu; it must be %u", fn,
                        (unsigned long long)outputSize, OVERFLOW_OUTPUT_SIZE);
    if ((err = status_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    return queue_copy(fn, stream, outputAddr, stream_ctx(s)->overflow_area.bytes, OVERFLOW_OUTPUT_SIZE, CD_D2D);
}

static aclError reset_status(const char *fn, aclrtStream stream)
{
    struct stream *s;
    struct task *t;
    aclError err;

    if ((err = status_stream(fn, stream, &s)) != ACL_SUCCESS || (err = stream_task_new(fn, TASK_SET, &t)) != ACL_SUCCESS)
        return err;
    t->u.set.dst = stream_ctx(s)->overflow_area.bytes;
    t->u.set.value = 0;
    t->u.set.count = CTX_OVERFLOW_AREA;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream)
{
    const char *fn = "aclrtGetOverflowStatus";
    if (outputAddr == NULL)
        return null_arg(fn, "outputAddr");
    return get_status(fn, outputAddr, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream)
{
    return reset_status("aclrtResetOverflowStatus", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream)
{
    return get_status("aclrtGetFloatOverflowStatus", outputAddr, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream)
{
    return reset_status("aclrtResetFloatOverflowStatus", stream);
}

ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream)
{
    const char *fn = "aclrtNpuGetFloatOverFlowStatus";
    aclError err = float_status_feature(fn);
    (void)checkMode; /* which hardware check to read: one status on aclcpu */
    return err != ACL_SUCCESS ? err : get_status(fn, outputAddr, outputSize, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream)
{
    const char *fn = "aclrtNpuClearFloatOverFlowStatus";
    aclError err = float_status_feature(fn);
    (void)checkMode;
    if (err != ACL_SUCCESS)
        return err;
    /* The runtime looks for the stream (NULL: the current context's
     * default) before anything else, and calls a missing one 107000. */
    if (stream == NULL && ctx_current() == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'stream' is NULL and there is no current context whose default stream it "
                        "could mean", fn);
    return reset_status(fn, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr)
{
    const char *fn = "aclrtCtxGetFloatOverflowAddr";
    struct context *ctx;
    aclError err;

    if (overflowAddr == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'overflowAddr' is NULL", fn);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    *overflowAddr = ctx->overflow_area.bytes;
    return ACL_SUCCESS;
}
