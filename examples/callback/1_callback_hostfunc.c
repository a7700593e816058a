/*
 * 1_callback_hostfunc - the CANN runtime sample
 * example/2_advanced_features/callback/1_callback_hostfunc, in C on aclcpu.
 *
 * A stream in ACL_STOP_ON_FAILURE mode runs EasyOP (x += 1) and then a
 * host function launched with aclrtLaunchHostFunc. No thread is
 * subscribed: the runtime runs the host function on a thread of its own,
 * in stream order, so it prints before the sync returns; x is then 1.
 *
 * Usage: 1_callback_hostfunc [path/to/libexample_kernels.so]
 */
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static void CallBackFunc(void *arg)
{
    (void)arg;
    INFO_LOG("Hostfunc callback!!!");
}

int main(int argc, char **argv)
{
    int32_t deviceId = 0;
    uint32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(uint32_t);
    uint32_t blockDim = 1;
    aclrtStream stream = NULL;
    aclrtContext context;

    SetKernelLibrary(argc, argv);
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtCreateStream(&stream));
    /* Stop at the first failing task instead of going on (the default). */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE));
    EasyOP(blockDim, stream, numDevice);
    /* No subscribed thread: the runtime runs the host function itself. */
    CHECK_ERROR(aclrtLaunchHostFunc(stream, CallBackFunc, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After assigning the task through the created stream, the current result is: %d.", (int)num);

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
