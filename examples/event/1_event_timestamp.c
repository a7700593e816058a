/*
 * 1_event_timestamp - the CANN runtime sample
 * example/1_basic_features/event/1_event_timestamp, in C on aclcpu.
 *
 * Two events recorded around a task time it: aclrtEventGetTimestamp gives
 * each record's time (microseconds), aclrtEventElapsedTime the time between
 * them (milliseconds). First around ShortOP (0 * 2 = 0), then the same two
 * events, recorded again, around LongOP (0 + 1 = 1).
 *
 * The last line about the long task says "short task", as the vendor's
 * sample (and its README) print it.
 *
 * Usage: 1_event_timestamp [path/to/libexample_kernels.so]
 */
#include <inttypes.h>
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

int main(int argc, char **argv)
{
    int32_t deviceId = 0;
    uint32_t blockDim = 1;
    int32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(int32_t);
    uint64_t time = 0;
    float useTime = 0;
    aclrtStream stream = NULL;
    aclrtContext context;
    aclrtEvent startEvent;
    aclrtEvent endEvent;

    SetKernelLibrary(argc, argv);
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtCreateEvent(&startEvent));
    CHECK_ERROR(aclrtCreateEvent(&endEvent));

    /* A short task first. Record before and after it: the difference is its time. */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Begin a short task.");
    CHECK_ERROR(aclrtRecordEvent(startEvent, stream));
    ShortOP(blockDim, stream, numDevice);
    CHECK_ERROR(aclrtRecordEvent(endEvent, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After completing the short task, the answer is %d.", num);
    INFO_LOG("After synchronize, check the time.");

    CHECK_ERROR(aclrtEventGetTimestamp(startEvent, &time));
    INFO_LOG("Start event timestamp: %" PRIu64 ".", time);
    CHECK_ERROR(aclrtEventGetTimestamp(endEvent, &time));
    INFO_LOG("End event timestamp: %" PRIu64 ".", time);
    CHECK_ERROR(aclrtEventElapsedTime(&useTime, startEvent, endEvent));
    INFO_LOG("The short task consume time %f ms.", (double)useTime);
    CHECK_ERROR(aclrtFree(numDevice));

    /* Then a long task, timed with the same two events recorded again. */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Begin a long task.");
    CHECK_ERROR(aclrtRecordEvent(startEvent, stream));
    LongOP(blockDim, stream, numDevice);
    CHECK_ERROR(aclrtRecordEvent(endEvent, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After completing the long task, the answer is %d.", num);
    INFO_LOG("After synchronize, check the time.");

    CHECK_ERROR(aclrtEventGetTimestamp(startEvent, &time));
    INFO_LOG("Start event timestamp: %" PRIu64 ".", time);
    CHECK_ERROR(aclrtEventGetTimestamp(endEvent, &time));
    INFO_LOG("End event timestamp: %" PRIu64 ".", time);
    CHECK_ERROR(aclrtEventElapsedTime(&useTime, startEvent, endEvent));
    INFO_LOG("The short task consume time %f ms.", (double)useTime);

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyEvent(startEvent));
    CHECK_ERROR(aclrtDestroyEvent(endEvent));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
