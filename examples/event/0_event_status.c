/*
 * 0_event_status - the CANN runtime sample
 * example/1_basic_features/event/0_event_status, in C on aclcpu.
 *
 * aclrtQueryEventStatus reports 0 (not ready) or 1 (complete). A new event
 * that was never recorded is not ready; an event recorded behind a long
 * task stays not ready until the task ends; after aclrtSynchronizeEvent it
 * is complete.
 *
 * Usage: 0_event_status [path/to/libexample_kernels.so]
 */
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
    aclrtContext context;
    aclrtStream stream = NULL;
    aclrtEvent event;
    aclrtEventRecordedStatus eventStatus;

    SetKernelLibrary(argc, argv);
    (void)aclInit(NULL);
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream));
    /* The default is to continue after a failed task; stop instead. */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtCreateEvent(&event));

    /* A new event has not been recorded: not ready. */
    CHECK_ERROR(aclrtQueryEventStatus(event, &eventStatus));
    INFO_LOG("After create event, current event status is %d.", (int)eventStatus);

    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task.");
    LongOP(blockDim, stream, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream));

    /* Recorded behind LongOP, which is still running: not ready. */
    CHECK_ERROR(aclrtQueryEventStatus(event, &eventStatus));
    INFO_LOG("0 is incompleted, 1 is completed.");
    INFO_LOG("After record but before synchronize, current event status is %d.", (int)eventStatus);

    /* Once the host has waited for it: complete. */
    CHECK_ERROR(aclrtSynchronizeEvent(event));
    CHECK_ERROR(aclrtQueryEventStatus(event, &eventStatus));
    INFO_LOG("After synchronize, current event status is %d.", (int)eventStatus);
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("The answer is %d.", num);

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
