/*
 * 1_launch_kernel_with_reslimit - the CANN runtime sample
 * example/2_advanced_features/kernel/1_launch_kernel_with_reslimit, in C
 * on aclcpu.
 *
 * The sample limits the process's cube cores on device 0 to 8
 * (aclrtSetDeviceResLimit, ACL_RT_DEV_RES_CUBE_CORE), reads the limit back
 * (aclrtGetDeviceResLimit) and launches the printing kernel on that many
 * blocks: "Hello World" eight times. run.sh counts those lines; CTest's
 * comparison with the expected output does the same.
 *
 * As on the device, the kernel's text comes out when the device is reset
 * (kernels/device_print.h): the sample calls UnloadKernels just before it.
 *
 * Usage: 1_launch_kernel_with_reslimit [path/to/libexample_kernels.so]
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static void UpdateFinalResultOnError(const char *apiName, aclError ret, int32_t *finalResult)
{
    if (ret == ACL_SUCCESS)
        return;
    ERROR_LOG("Operation failed: %s returned error code %d", apiName, (int)ret);
    *finalResult = -1;
}

/* Reads the limit and launches the printing kernel on that many blocks. */
static int32_t LaunchPrintKernelWithCurrentResLimit(int32_t deviceId, aclrtDevResLimitType type, aclrtStream stream)
{
    uint32_t coreDim = 0;
    CHECK_ERROR(aclrtGetDeviceResLimit(deviceId, type, &coreDim));
    INFO_LOG("Current device resource limit type %d is %u.", (int)type, coreDim);
    PrintDo(coreDim, stream);
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    return 0;
}

struct State {
    aclrtStream stream;
    int aclInitialized, deviceSet, kernelsLoaded, streamCreated;
};

static int32_t Run(int32_t deviceId, aclrtDevResLimitType resLimitType, uint32_t blockDim, struct State *st)
{
    CHECK_ERROR(aclInit(NULL));
    st->aclInitialized = 1;
    INFO_LOG("ACL initialized.");

    CHECK_ERROR(aclrtSetDevice(deviceId));
    st->deviceSet = 1;
    INFO_LOG("Device %d selected.", (int)deviceId);
    CHECK_ERROR(LoadKernels());
    st->kernelsLoaded = 1;

    CHECK_ERROR(aclrtCreateStream(&st->stream));
    st->streamCreated = 1;
    INFO_LOG("Stream created.");

    /* The process's limit on the device, before the launch. */
    CHECK_ERROR(aclrtSetDeviceResLimit(deviceId, resLimitType, blockDim));
    INFO_LOG("Device resource limit type %d set to %u.", (int)resLimitType, blockDim);

    return LaunchPrintKernelWithCurrentResLimit(deviceId, resLimitType, st->stream);
}

int main(int argc, char **argv)
{
    const int32_t deviceId = 0;
    const aclrtDevResLimitType resLimitType = ACL_RT_DEV_RES_CUBE_CORE;
    const uint32_t blockDim = 8;
    struct State st = {0};

    SetKernelLibrary(argc, argv);
    int32_t finalResult = Run(deviceId, resLimitType, blockDim, &st);
    if (st.streamCreated)
        UpdateFinalResultOnError("aclrtDestroyStreamForce(stream)", aclrtDestroyStreamForce(st.stream), &finalResult);
    if (st.kernelsLoaded)
        UpdateFinalResultOnError("UnloadKernels()", UnloadKernels(), &finalResult);
    if (st.deviceSet)
        UpdateFinalResultOnError("aclrtResetDeviceForce(deviceId)", aclrtResetDeviceForce(deviceId), &finalResult);
    if (st.aclInitialized)
        UpdateFinalResultOnError("aclFinalize()", aclFinalize(), &finalResult);
    if (finalResult == 0)
        INFO_LOG("Run the launch_kernel_with_reslimit sample successfully.");
    return finalResult;
}
