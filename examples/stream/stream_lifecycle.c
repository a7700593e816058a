/*
 * stream_lifecycle - the whole life of one stream, as the CANN developer
 * guide's stream chapter describes it, on aclcpu.
 *
 *   create   aclrtCreateStreamWithConfig with a priority and the flags
 *            ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC; the device has
 *            one stream fewer available (aclrtGetStreamAvailableNum)
 *   inspect  aclrtStreamGetPriority, aclrtStreamGetFlags (1 | 2 = 3)
 *   configure aclrtSetStreamFailureMode(ACL_STOP_ON_FAILURE)
 *   use      launch LongOP (about 1.3 s); aclrtStreamQuery says 1 (not
 *            ready) while it runs; a synchronize with a 100 ms timeout
 *            gives up with 507046, one with a 10 s timeout returns 0, and
 *            the query now says 0 (complete)
 *   destroy  aclrtDestroyStreamForce; the stream is available again
 *
 * Usage: stream_lifecycle [path/to/libexample_kernels.so]
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

int main(int argc, char **argv)
{
    const int32_t deviceId = 0;
    const uint32_t priority = 2;
    const uint32_t flags = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC;
    const int32_t shortWaitMs = 100, longWaitMs = 10000;
    int32_t leastPriority, greatestPriority;
    uint32_t availableBefore, availableAfterCreate, availableAfterDestroy;
    uint32_t gotPriority, gotFlags;
    aclrtStreamStatus status;
    int32_t num = 0;
    int32_t *numDevice = NULL;
    aclrtContext context;
    aclrtStream stream;
    aclError ret;

    SetKernelLibrary(argc, argv);
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());

    /* Create: priorities run from greatest (0, scheduled first) to least (7). */
    CHECK_ERROR(aclrtDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
    INFO_LOG("Stream priorities range from %d (greatest) to %d (least).", greatestPriority, leastPriority);
    CHECK_ERROR(aclrtGetStreamAvailableNum(&availableBefore));
    CHECK_ERROR(aclrtCreateStreamWithConfig(&stream, priority, flags));
    CHECK_ERROR(aclrtGetStreamAvailableNum(&availableAfterCreate));
    INFO_LOG("Created a stream with priority %u and flags ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC.", priority);
    INFO_LOG("Creating it took %u of the device's available streams.", availableBefore - availableAfterCreate);

    /* Inspect: what the stream was created with. */
    CHECK_ERROR(aclrtStreamGetPriority(stream, &gotPriority));
    INFO_LOG("Stream priority: %u.", gotPriority);
    CHECK_ERROR(aclrtStreamGetFlags(stream, &gotFlags));
    INFO_LOG("Stream flags: %u.", gotFlags);

    /* Configure: stop the context's streams at the first failed task. */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    INFO_LOG("Failure mode set to ACL_STOP_ON_FAILURE.");

    /* Use: 0 = complete, 1 = not ready. */
    CHECK_ERROR(aclrtStreamQuery(stream, &status));
    INFO_LOG("Before any task, stream status is: %d.", (int)status);
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, sizeof(num), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, sizeof(num), &num, sizeof(num), ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Begin a long task.");
    LongOP(1, stream, numDevice);
    CHECK_ERROR(aclrtStreamQuery(stream, &status));
    INFO_LOG("While it runs, stream status is: %d.", (int)status);
    ret = aclrtSynchronizeStreamWithTimeout(stream, shortWaitMs);
    INFO_LOG("Synchronize with a %d ms timeout returned %d (the task is still running).", shortWaitMs, (int)ret);
    ret = aclrtSynchronizeStreamWithTimeout(stream, longWaitMs);
    INFO_LOG("Synchronize with a %d ms timeout returned %d.", longWaitMs, (int)ret);
    CHECK_ERROR(aclrtStreamQuery(stream, &status));
    INFO_LOG("After synchronize, stream status is: %d.", (int)status);
    CHECK_ERROR(aclrtMemcpy(&num, sizeof(num), numDevice, sizeof(num), ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("The answer is %d.", num);

    /* Destroy: force destroy would discard unfinished tasks (there are none left). */
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(aclrtGetStreamAvailableNum(&availableAfterDestroy));
    INFO_LOG("After destroy, the device has %s available streams as before the create.",
             availableAfterDestroy == availableBefore ? "as many" : "NOT as many");

    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
