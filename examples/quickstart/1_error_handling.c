/*
 * 1_error_handling - the CANN runtime sample
 * example/0_quickstart/1_error_handling, in C on aclcpu.
 *
 * Checks every call's code, then provokes one argument error on purpose
 * (aclrtGetRunMode(NULL)) and reads the diagnostics the runtime keeps for
 * the thread: aclrtPeekAtLastError (reads), aclrtGetLastError (reads and
 * clears), aclGetRecentErrMsg (the message, handed out once) and
 * aclrtGetErrorVerbose (the device's fault summary: none here). Reading
 * them a second time shows them consumed: 0, 0 and no message.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

#define CHECK_ACL_RETURN(call)                                                                     \
    do {                                                                                           \
        aclError acl_ret_ = (call);                                                                \
        if (acl_ret_ != ACL_SUCCESS) {                                                             \
            ERROR_LOG("%s failed: ret=%d", #call, (int32_t)acl_ret_);                              \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

static const char *SafeString(const char *message) { return message != NULL ? message : "<null>"; }

static const char *RunModeToString(aclrtRunMode runMode) { return runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE"; }

static void PrintVerboseErrorInfo(int32_t deviceId)
{
    aclrtErrorInfo errorInfo = {0};
    aclError ret = aclrtGetErrorVerbose(deviceId, &errorInfo);
    if (ret != ACL_SUCCESS) {
        WARN_LOG("aclrtGetErrorVerbose(%d) returned error code %d", deviceId, (int32_t)ret);
        return;
    }
    INFO_LOG("Verbose error info: errorType=%d, tryRepair=%u, hasDetail=%u", (int32_t)errorInfo.errorType,
             (uint32_t)errorInfo.tryRepair, (uint32_t)errorInfo.hasDetail);
}

int main(void)
{
    const int32_t deviceId = 0;
    aclrtRunMode runMode = ACL_HOST;
    aclError expectedRet;

    CHECK_ACL_RETURN(aclInit(NULL));
    CHECK_ACL_RETURN(aclrtSetDevice(deviceId));
    INFO_LOG("ACL init and set device successfully");

    CHECK_ACL_RETURN(aclrtGetRunMode(&runMode));
    INFO_LOG("Current run mode: %s", RunModeToString(runMode));

    INFO_LOG("Triggering an expected invalid-parameter error with aclrtGetRunMode(nullptr)");
    expectedRet = aclrtGetRunMode(NULL);
    if (expectedRet == ACL_SUCCESS) {
        WARN_LOG("Expected aclrtGetRunMode(nullptr) to fail, but it succeeded");
    } else {
        aclError peekError = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        aclError lastError = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
        const char *recentErrMsg = aclGetRecentErrMsg();
        aclError clearedPeek, clearedLast;
        const char *clearedErrMsg;
        ERROR_LOG("Diagnostics: ret=%d, peekErr=%d, lastErr=%d, recentErrMsg=%s", (int32_t)expectedRet,
                  (int32_t)peekError, (int32_t)lastError, SafeString(recentErrMsg));
        PrintVerboseErrorInfo(deviceId);

        /* Once read, they are gone. */
        clearedPeek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
        clearedLast = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
        clearedErrMsg = aclGetRecentErrMsg();
        INFO_LOG("After diagnostics are consumed once: peekErr=%d, lastErr=%d, recentErrMsg=%s", (int32_t)clearedPeek,
                 (int32_t)clearedLast, SafeString(clearedErrMsg));
    }

    CHECK_ACL_RETURN(aclrtResetDeviceForce(deviceId));
    CHECK_ACL_RETURN(aclFinalize());
    INFO_LOG("ACL finalize successfully");
    return 0;
}
