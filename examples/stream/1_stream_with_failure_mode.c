/*
 * 1_stream_with_failure_mode - the CANN runtime sample
 * example/1_basic_features/stream/1_stream_with_failure_mode, in C on aclcpu.
 *
 * Three kernels on one stream: EasyOP (x += 1), ErrorOP (traps), EasyOP.
 * In the default failure mode (continue) the third kernel still runs, so x
 * ends at 2 and the sync reports the trap (507035); in ACL_STOP_ON_FAILURE
 * mode the trap discards the rest of the stream, so x ends at 1. Then two
 * side demonstrations: aclrtStreamStop on a DEVICE_USE_ONLY stream (the sync
 * afterwards returns 507000), and aclrtStreamAbort on a regular stream.
 * A stream-state callback prints each stream's creation and destruction.
 *
 * Where the output differs from the vendor's README: after the abort,
 * aclcpu's sync returns 107023 (ACL_ERROR_RT_STREAM_ABORT), the code the
 * runtime documents for syncs of aborted work; the README shows 507035 from
 * a device where the abort killed the running kernel mid-way (a one-block
 * kernel on a CPU runs to its end). The sample accepts any non-zero code
 * there, as the vendor's does. The callback lines carry stream pointers and
 * are left out of the README (the expected file matches them with "...").
 *
 * Usage: 1_stream_with_failure_mode [path/to/libexample_kernels.so]
 */
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static void StreamStateCallback(aclrtStream stream, aclrtStreamState state, void *args)
{
    const char *sampleName = args == NULL ? "stream_failure_mode" : (const char *)args;
    INFO_LOG("Stream state callback from %s: stream=%p state=%d", sampleName, stream, (int)state);
}

static void LogOptionalResult(const char *apiName, aclError ret)
{
    if (ret == ACL_SUCCESS)
        INFO_LOG("%s returned %d.", apiName, (int)ret);
    else
        WARN_LOG("%s returned %d.", apiName, (int)ret);
}

static void LogAbortSyncResult(aclError ret)
{
    if (ret == ACL_SUCCESS)
        INFO_LOG("aclrtSynchronizeStream(after abort) returned %d.", (int)ret);
    else
        INFO_LOG("aclrtSynchronizeStream(after abort) returned %d after stream abort, which is expected.", (int)ret);
}

static void FreeOptionalBuffer(int32_t *buffer, const char *name)
{
    if (buffer != NULL)
        LogOptionalResult(name, aclrtFree(buffer));
}

static void DestroyOptionalStream(aclrtStream stream, const char *name)
{
    if (stream != NULL)
        LogOptionalResult(name, aclrtDestroyStreamForce(stream));
}

/* A zeroed 4-byte device buffer for a side demonstration; false (and a
 * warning) if it cannot be had. */
static int PrepareScratchBuffer(int32_t **scratch, size_t size, const char *demoName)
{
    int32_t zero = 0;
    aclError ret = aclrtMalloc((void **)scratch, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (ret != ACL_SUCCESS) {
        WARN_LOG("Skip %s demo: aclrtMalloc returned %d.", demoName, (int)ret);
        return 0;
    }
    ret = aclrtMemcpy(*scratch, size, &zero, size, ACL_MEMCPY_HOST_TO_DEVICE);
    if (ret != ACL_SUCCESS) {
        WARN_LOG("Skip %s demo: aclrtMemcpy returned %d.", demoName, (int)ret);
        LogOptionalResult("aclrtFree(scratch)", aclrtFree(*scratch));
        *scratch = NULL;
        return 0;
    }
    return 1;
}

/* aclrtStreamStop takes DEVICE_USE_ONLY streams on Atlas A2/A3. */
static void DemonstrateStreamStop(void)
{
    aclrtStream stopStream = NULL;
    int32_t *stopScratch = NULL;
    aclError ret = aclrtCreateStreamWithConfig(&stopStream, 0, ACL_STREAM_DEVICE_USE_ONLY);

    if (ret != ACL_SUCCESS) {
        WARN_LOG("Skip aclrtStreamStop demo: aclrtCreateStreamWithConfig returned %d.", (int)ret);
        return;
    }
    if (!PrepareScratchBuffer(&stopScratch, sizeof(int32_t), "aclrtStreamStop")) {
        DestroyOptionalStream(stopStream, "aclrtDestroyStreamForce(stopStream)");
        return;
    }
    INFO_LOG("Launching a long task on the device-use-only stream before aclrtStreamStop.");
    LongOP(1, stopStream, stopScratch);
    LogOptionalResult("aclrtStreamStop", aclrtStreamStop(stopStream));
    LogOptionalResult("aclrtSynchronizeStream(after stop)", aclrtSynchronizeStream(stopStream));
    FreeOptionalBuffer(stopScratch, "aclrtFree(stopScratch)");
    DestroyOptionalStream(stopStream, "aclrtDestroyStreamForce(stopStream)");
}

/* aclrtStreamAbort does not take DEVICE_USE_ONLY streams: a regular one. */
static void DemonstrateStreamAbort(void)
{
    aclrtStream abortStream = NULL;
    int32_t *abortScratch = NULL;
    aclError ret = aclrtCreateStream(&abortStream);

    if (ret != ACL_SUCCESS) {
        WARN_LOG("Skip aclrtStreamAbort demo: aclrtCreateStream returned %d.", (int)ret);
        return;
    }
    if (!PrepareScratchBuffer(&abortScratch, sizeof(int32_t), "aclrtStreamAbort")) {
        DestroyOptionalStream(abortStream, "aclrtDestroyStreamForce(abortStream)");
        return;
    }
    INFO_LOG("Launching a long task on the regular stream before aclrtStreamAbort.");
    LongOP(1, abortStream, abortScratch);
    LogOptionalResult("aclrtStreamAbort", aclrtStreamAbort(abortStream));
    LogAbortSyncResult(aclrtSynchronizeStream(abortStream));
    FreeOptionalBuffer(abortScratch, "aclrtFree(abortScratch)");
    DestroyOptionalStream(abortStream, "aclrtDestroyStreamForce(abortStream)");
}

int main(int argc, char **argv)
{
    const int32_t deviceId = 0;
    const uint32_t blockDim = 1;
    int32_t num = 0;
    int32_t *numDevice = NULL;
    const size_t size = sizeof(int32_t);
    aclrtStream stream = NULL;
    aclrtContext context = NULL;
    static char callbackTag[] = "stream_failure_mode_sample";

    setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
    SetKernelLibrary(argc, argv);
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtRegStreamStateCallback("stream_failure_mode_sample", StreamStateCallback, callbackTag));

    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));

    /* Continue on failure (the default): the task after the failing one runs. */
    INFO_LOG("Assigning task without failure mode.");
    EasyOP(blockDim, stream, numDevice);
    ErrorOP(blockDim, stream, numDevice);
    EasyOP(blockDim, stream, numDevice);
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Without failure mode, the result is %d.", num);

    /* Stop on failure: the failing task discards everything after it. */
    num = 0;
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    INFO_LOG("Assigning task with failure mode.");
    EasyOP(blockDim, stream, numDevice);
    ErrorOP(blockDim, stream, numDevice);
    EasyOP(blockDim, stream, numDevice);
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After set failure mode, the current result is: %d.", num);

    DemonstrateStreamStop();
    DemonstrateStreamAbort();

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtRegStreamStateCallback("stream_failure_mode_sample", NULL, NULL));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    INFO_LOG("Run the stream_with_failure_mode sample successfully.");
    return 0;
}
