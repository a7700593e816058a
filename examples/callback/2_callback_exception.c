/*
 * 2_callback_exception - the CANN runtime sample
 * example/2_advanced_features/callback/2_callback_exception, in C on aclcpu.
 *
 * A stream in ACL_STOP_ON_FAILURE mode gets EasyOP (x += 1), ErrorOP (traps)
 * and a blocking callback whose reports a subscribed thread processes. The
 * exception callback set with aclrtSetExceptionInfoCallback prints what the
 * getters read from the exception information; the sync then fails with
 * the trap's code (507035), and the sample prints what the thread's error
 * state says: aclrtGetErrorVerbose, the last error, the recent messages.
 * STOP mode drops the callback queued behind the failed kernel, so x ends at 1.
 *
 * Where this port differs from the vendor's: the stream is held by a host
 * function until every task is issued, so that the lines come out in one
 * order (on a CPU the kernels would otherwise run while the main thread is
 * still issuing and printing). The task ids count the tasks of the stream
 * from 0, the host function included (task 0). aclrtGetErrorVerbose
 * reports no fault (errorType 0), as the reference does after a kernel
 * exception, which is no device fault (those are HBM UCE and link errors);
 * the sync's failure stays the thread's last error. Lines with thread ids,
 * pointers and messages are matched with "..." in the expected output.
 *
 * Usage: 2_callback_exception [path/to/libexample_kernels.so]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static aclrtContext context_;
static aclrtStream stream_;
static int32_t deviceId_;

static _Atomic int loopFlag = 1;
static _Atomic int gateOpen;

static const char *SafeString(const char *message) { return message != NULL ? message : "<null>"; }

static void LogRuntimeErrorState(int32_t deviceId, const char *stage)
{
    aclrtErrorInfo errorInfo = {0};
    aclError verboseRet = aclrtGetErrorVerbose(deviceId, &errorInfo);
    if (verboseRet == ACL_SUCCESS)
        INFO_LOG("%s verbose error info: errorType=%d, tryRepair=%u, hasDetail=%u", stage, (int)errorInfo.errorType,
                 (unsigned)errorInfo.tryRepair, (unsigned)errorInfo.hasDetail);
    else
        WARN_LOG("%s aclrtGetErrorVerbose failed with error code %d", stage, (int)verboseRet);

    aclError peekError = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    aclError lastError = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    const char *recentErrMsg = aclGetRecentErrMsg();
    ERROR_LOG("%s runtime diagnostics: peekErr=%d, lastErr=%d, recentErrMsg=%s", stage, (int)peekError,
              (int)lastError, SafeString(recentErrMsg));
}

static int Init(void)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId_));
    CHECK_ERROR(aclrtCreateContext(&context_, deviceId_));
    CHECK_ERROR(aclrtCreateStream(&stream_));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
    return 0;
}

static void *ThreadFunc(void *arg)
{
    const int waitTime = 100;
    (void)arg;
    aclrtSetCurrentContext(context_);
    while (atomic_load(&loopFlag))
        aclrtProcessReport(waitTime);
    INFO_LOG("Thread exit");
    return NULL;
}

static void CallBackFunc(void *arg)
{
    int *data = (int *)arg;
    INFO_LOG("After error still callback, the userdata is: %d.", *data);
}

/* Holds the stream until the main thread has issued every task (at most
 * ten seconds). */
static void HoldStream(void *arg)
{
    struct timespec start, now;
    (void)arg;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!atomic_load(&gateOpen)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10)
            break;
        sched_yield();
    }
}

static void ExceptionCallBackFunc(aclrtExceptionInfo *exceptionInfo)
{
    INFO_LOG("Exception occurred, callback function.");
    uint32_t errorMsg = aclrtGetTaskIdFromExceptionInfo(exceptionInfo);
    INFO_LOG("The error task id is %u.", errorMsg);
    errorMsg = aclrtGetStreamIdFromExceptionInfo(exceptionInfo);
    INFO_LOG("The error stream id is %u.", errorMsg);
    errorMsg = aclrtGetThreadIdFromExceptionInfo(exceptionInfo);
    INFO_LOG("The error thread id is %u.", errorMsg);
    errorMsg = aclrtGetDeviceIdFromExceptionInfo(exceptionInfo);
    INFO_LOG("The error device id is %u.", errorMsg);
    errorMsg = aclrtGetErrorCodeFromExceptionInfo(exceptionInfo);
    INFO_LOG("The error code id is %u.", errorMsg);

    void *devArgsPtr = NULL;
    uint32_t devArgsLen = 0;
    aclError argsRet = aclrtGetArgsFromExceptionInfo(exceptionInfo, &devArgsPtr, &devArgsLen);
    INFO_LOG("Exception args query ret=%d, devArgsPtr=%p, devArgsLen=%u", (int)argsRet, devArgsPtr, devArgsLen);

    aclrtFuncHandle funcHandle = NULL;
    aclError funcRet = aclrtGetFuncHandleFromExceptionInfo(exceptionInfo, &funcHandle);
    INFO_LOG("Exception func handle query ret=%d, funcHandle=%p", (int)funcRet, funcHandle);
}

static int Callback(void)
{
    uint32_t num = 0;
    const uint32_t blockDim = 1;
    const size_t size = sizeof(uint32_t);
    int32_t *numDevice = NULL;
    uint32_t taskId = 0;
    static int userData = 520;
    pthread_t td;

    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));

    if (pthread_create(&td, NULL, ThreadFunc, NULL) != 0) {
        ERROR_LOG("pthread_create failed");
        return -1;
    }
    uint64_t tidInt = (uint64_t)td;
    CHECK_ERROR(aclrtSubscribeReport(tidInt, stream_));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CHECK_ERROR(aclrtSetExceptionInfoCallback(ExceptionCallBackFunc));
#pragma GCC diagnostic pop
    INFO_LOG("Begin an easy task and an error task. The error task will trigger the exception callback.");

    CHECK_ERROR(aclrtLaunchHostFunc(stream_, HoldStream, NULL));
    EasyOP(blockDim, stream_, numDevice);
    ErrorOP(blockDim, stream_, numDevice);
    CHECK_ERROR(aclrtGetThreadLastTaskId(&taskId));
    INFO_LOG("The last task id is: %u.", taskId);
    CHECK_ERROR(aclrtLaunchCallback(CallBackFunc, &userData, ACL_CALLBACK_BLOCK, stream_));
    atomic_store(&gateOpen, 1);

    aclError syncRet = aclrtSynchronizeStream(stream_);
    if (syncRet != ACL_SUCCESS) {
        ERROR_LOG("aclrtSynchronizeStream(stream_) returned error code %d", (int)syncRet);
        LogRuntimeErrorState(deviceId_, "Post synchronize diagnostics");
    }

    aclError memcpyRet = aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST);
    if (memcpyRet == ACL_SUCCESS)
        INFO_LOG("After assigning the task, the current num is: %d.", (int)num);
    else
        ERROR_LOG("aclrtMemcpy after error returned error code %d", (int)memcpyRet);

    atomic_store(&loopFlag, 0);
    pthread_join(td, NULL);
    CHECK_ERROR(aclrtUnSubscribeReport(tidInt, stream_));
    CHECK_ERROR(aclrtFree(numDevice));
    return 0;
}

static int Destroy(void)
{
    CHECK_ERROR(aclrtDestroyStreamForce(stream_));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context_));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId_));
    CHECK_ERROR(aclFinalize());
    return 0;
}

int main(int argc, char **argv)
{
    SetKernelLibrary(argc, argv);
    if (Init() != 0)
        return -1;
    if (LoadKernels() != ACL_SUCCESS) {
        ERROR_LOG("Loading the kernels failed");
        return -1;
    }
    if (Callback() != 0) {
        (void)Destroy();
        return -1;
    }
    if (Destroy() != 0)
        return -1;
    INFO_LOG("Run the callback_exception sample successfully.");
    return 0;
}
