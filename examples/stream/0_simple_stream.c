/*
 * 0_simple_stream - the CANN runtime sample
 * example/1_basic_features/stream/0_simple_stream, in C on aclcpu.
 *
 * Tasks on the default stream (NULL) and on a created stream: one EasyOP
 * (x += 1) on each, then 3000 EasyOPs issued back to back without waiting,
 * one synchronisation, and a stream query. A stream runs its tasks in
 * issue order, so the result is 1 + 1 + 3000 = 3002.
 *
 * Usage: 0_simple_stream [path/to/libexample_kernels.so]
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

int main(int argc, char **argv)
{
    const int count = 3000;
    int32_t deviceId = 0;
    uint32_t blockDim = 1;
    int32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(int32_t);
    aclrtStream stream = NULL;
    aclrtStreamStatus streamStatus;
    aclrtContext context;

    SetKernelLibrary(argc, argv);
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());
    INFO_LOG("Use default stream assigning task.");

    /* The default stream comes with the context; passing NULL selects it. */
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Applied resource successfully, begin assigning task.");
    EasyOP(blockDim, NULL, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(NULL));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After assigning the task through the default stream, the current result is: %d.", num);

    /* A stream created explicitly. */
    INFO_LOG("Use created stream assigning task.");
    CHECK_ERROR(aclrtCreateStream(&stream));
    /* The default is to continue after a failed task; stop instead. */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    EasyOP(blockDim, stream, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After assigning the task through the created stream, the current result is: %d.", num);

    INFO_LOG("Begin 3000 task.");
    /* Tasks of one stream run in order, so there is no need to wait after each. */
    for (int i = 0; i < count; i++)
        EasyOP(blockDim, stream, numDevice);

    /* Wait for all of them, then ask the stream whether it is idle (0 = complete). */
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtStreamQuery(stream, &streamStatus));
    INFO_LOG("After synchronize, stream status is: %d.", (int)streamStatus);
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After loop, the current result is: %d.", num);

    /* Release everything. */
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
