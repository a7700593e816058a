/*
 * api_errinfo.c - errors and exception information: the thread's last
 * error (aclrtGetLastError, aclrtPeekAtLastError), the exception callbacks
 * (aclrtSetExceptionInfoCallback, aclrtExceptionInfoCallbackRegister and
 * Unregister, aclrtBinarySetExceptionCallback) and the getters of the
 * information they are handed, aclrtGetThreadLastTaskId, the device fault
 * query and repair (aclrtGetErrorVerbose, aclrtRepairError: a CPU device
 * never has a fault), and the calls a CPU has no meaning for
 * (aclrtCacheLastTaskOpInfo, aclrtCacheLastTaskExtendInfo: 207000 after the
 * reference's argument checks).
 *
 * DESIGN: the last error is common/error.c's (every failed call sets it);
 * the callbacks live in engine/exception.c, which calls them when a task
 * fails. The getters read the struct rtExceptionInfo the engine filled
 * (engine.h). A getter handed NULL answers 0xFFFFFFFF, as the reference's
 * acl layer does, with a message but without making it the last error (the
 * reference's acl layer reports input errors without setting it).
 *
 * Threads: any host thread; callbacks call the getters on the thread that
 * ran the failing task. Locks: none here (exception.c's exc_lock).
 */
#include "api_int.h"

#define EXC_INFO_INVALID 0xFFFFFFFFu

/* The level check of the last-error pair: the acl layer's, whose failure
 * reports the argument but leaves the thread's last error as it was. */
static bool level_ok(const char *fn, aclrtLastErrLevel level)
{
    if (level == ACL_RT_THREAD_LEVEL)
        return true;
    aclError kept = acl_last_error(false);
    (void)acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'level' (%d) must be ACL_RT_THREAD_LEVEL (0)", fn,
                   (int)level);
    (void)acl_last_error(true);
    acl_last_error_set(kept);
    return false;
}

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
    if (!level_ok("aclrtPeekAtLastError", level))
        return ACL_ERROR_INVALID_PARAM;
    return acl_last_error(false);
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level)
{
    if (!level_ok("aclrtGetLastError", level))
        return ACL_ERROR_INVALID_PARAM;
    return acl_last_error(true);
}

ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback)
{
    /* NULL is allowed: it clears the callback. */
    engine_exc_set_legacy(callback);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
    const char *fn = "aclrtExceptionInfoCallbackRegister";
    if (callback == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'callback' is NULL", fn);
    return engine_exc_register(fn, callback);
}

ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
    if (callback == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtExceptionInfoCallbackUnregister: argument 'callback' is NULL");
    engine_exc_unregister(callback); /* one never registered: nothing to do */
    return ACL_SUCCESS;
}

/* A getter handed no information: the reference's answer, with a message. */
static uint32_t no_info(const char *fn)
{
    acl_note("%s: argument 'info' is NULL (returns 0xFFFFFFFF)", fn);
    return EXC_INFO_INVALID;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info == NULL ? no_info("aclrtGetTaskIdFromExceptionInfo") : info->taskid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info == NULL ? no_info("aclrtGetStreamIdFromExceptionInfo") : info->streamid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info == NULL ? no_info("aclrtGetThreadIdFromExceptionInfo") : info->tid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info == NULL ? no_info("aclrtGetDeviceIdFromExceptionInfo") : info->deviceid;
}

ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info)
{
    return info == NULL ? no_info("aclrtGetErrorCodeFromExceptionInfo") : info->retcode;
}

ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen)
{
    const char *fn = "aclrtGetArgsFromExceptionInfo";
    if (info == NULL)
        return (aclError)no_info(fn);
    if (devArgsPtr == NULL)
        return null_arg(fn, "devArgsPtr");
    if (devArgsLen == NULL)
        return null_arg(fn, "devArgsLen");
    if (!info->kernel) {
        acl_note("%s: the failed task is not a kernel, so it has no arguments (returns 0xFFFFFFFF)", fn);
        return (aclError)EXC_INFO_INVALID;
    }
    *devArgsPtr = info->args;
    *devArgsLen = info->args_len;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info,
                                                                 aclrtFuncHandle *func)
{
    const char *fn = "aclrtGetFuncHandleFromExceptionInfo";
    if (info == NULL)
        return (aclError)no_info(fn);
    if (func == NULL)
        return null_arg(fn, "func");
    *func = NULL;
    if (!info->kernel || info->func == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info': the failed task is not a kernel", fn);
    *func = info->func;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                                             aclrtOpExceptionCallback callback, void *userData)
{
    const char *fn = "aclrtBinarySetExceptionCallback";
    aclError err;
    struct binary *b;

    if (binHandle == NULL)
        return null_arg(fn, "binHandle");
    if (callback == NULL)
        return null_arg(fn, "callback");
    b = binary_resolve(fn, binHandle, &err);
    if (b == NULL)
        return err;
    engine_exc_set_binary(b, callback, userData); /* userData may be NULL */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId)
{
    if (taskId == NULL)
        return null_arg("aclrtGetThreadLastTaskId", "taskId");
    *taskId = stream_thread_last_task();
    return ACL_SUCCESS;
}

/* The reference's runtime answers these only on chips with device fault
 * reporting and repair (RT_FEATURE_DFX_ERR_GET_AND_REPAIR: the A2, A3 and
 * 950 families); on the others they are refused. */
static bool soc_reports_faults(const struct soc_profile *soc)
{
    return soc->family == SOC_A2 || soc->family == SOC_A3 || soc->family == SOC_950;
}

static aclError no_device_faults(const char *fn)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: SoC %s has no device fault reporting and repair (the feature of the A2, A3 and 950 "
                    "families)",
                    fn, soc_configured()->name);
}

/* On a chip that reports faults, the device id is checked (107001) and a
 * device without a fault answers "no error": a CPU device never has one
 * (no HBM UCE, no link errors), so that is every answer here. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
    const char *fn = "aclrtGetErrorVerbose";
    if (errorInfo == NULL)
        return null_arg(fn, "errorInfo");
    if (!soc_reports_faults(soc_configured()))
        return no_device_faults(fn);
    if (deviceId < 0 || device_get(deviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device; valid ids are "
                        "0..%u (ACLCPU_DEVICE_COUNT)", fn, deviceId, device_count() - 1);
    errorInfo->tryRepair = 0;
    errorInfo->hasDetail = 0;
    errorInfo->errorType = ACL_RT_NO_ERROR;
    return ACL_SUCCESS;
}

/* The runtime's order on a chip that reports faults: tryRepair must be 1
 * (107000), the device id (107001), the device set up (507033); then the
 * fault type: "no error" needs no repair and succeeds, a memory fault is
 * the driver's to repair (a CPU's memory has none: 207000), any other type
 * cannot be repaired (107000). */
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo)
{
    const char *fn = "aclrtRepairError";
    struct device *d;
    if (errorInfo == NULL)
        return null_arg(fn, "errorInfo");
    if (!soc_reports_faults(soc_configured()))
        return no_device_faults(fn);
    if (errorInfo->tryRepair == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'errorInfo->tryRepair' is 0; a repair needs 1",
                        fn);
    if (deviceId < 0 || (d = device_get(deviceId)) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device; valid ids are "
                        "0..%u (ACLCPU_DEVICE_COUNT)", fn, deviceId, device_count() - 1);
    if (!device_is_open(d))
        return acl_fail(ACL_ERROR_RT_DEV_SETUP_ERROR, "%s: device %d is not set up (aclrtSetDevice first)", fn,
                        deviceId);
    switch (errorInfo->errorType) {
    case ACL_RT_NO_ERROR: return ACL_SUCCESS;
    case ACL_RT_ERROR_MEMORY:
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a CPU device's memory has no uncorrectable errors to "
                        "repair (aclrtGetErrorVerbose reports none)", fn);
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'errorInfo->errorType' (%d) is not a repairable "
                        "fault: ACL_RT_NO_ERROR or ACL_RT_ERROR_MEMORY", fn, (int)errorInfo->errorType);
    }
}

/* The reference's runtime caches these only on chips with ACL graphs
 * (RT_FEATURE_MODEL_ACL_GRAPH), for their profiling and debugging. */
static aclError no_graph_cache(const char *fn)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: the last-task caches serve the device's ACL graph profiling, which a CPU does not have", fn);
}

ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize)
{
    const char *fn = "aclrtCacheLastTaskOpInfo";
    if (infoPtr == NULL)
        return null_arg(fn, "infoPtr");
    if (infoSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'infoSize' (0) must be positive", fn);
    return no_graph_cache(fn);
}

ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char *const extendInfoPtr, const size_t infoSize)
{
    (void)extendInfoPtr; /* the acl layer checks neither argument */
    (void)infoSize;
    return no_graph_cache("aclrtCacheLastTaskExtendInfo");
}
