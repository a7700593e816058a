/*
 * 4_stream_resource_budget - the CANN runtime sample
 * example/1_basic_features/stream/4_stream_resource_budget, in C on aclcpu.
 *
 * Core control on one stream: the stream starts with the device's Vector
 * Core count as its limit, gets a budget of one Vector Core, the calling
 * thread takes that budget with aclrtUseStreamResInCurrentThread, a
 * one-block EasyOP turns 41 into 42, and the stream's limit is reset to the
 * default afterwards. A limit is a budget the operators' tiling reads: the
 * runtime does not clamp a launch, so the sample sizes its launch (one
 * block) from the configured limit itself.
 *
 * Usage: 4_stream_resource_budget [path/to/libexample_kernels.so]
 */
#include <stdbool.h>
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static const int32_t deviceId = 0;
static const aclrtDevResLimitType resourceType = ACL_RT_DEV_RES_VECTOR_CORE;
static const uint32_t requestedLimit = 1;
static const int32_t inputValue = 41;
static const int32_t expectedValue = 42;

/* What has been set up so far, so that cleanup undoes exactly that. */
struct SampleResources {
    aclrtStream stream;
    int32_t *valueDevice;
    uint32_t defaultLimit;
    bool aclInitialized;
    bool deviceSet;
    bool kernelsLoaded;
    bool streamCreated;
    bool deviceMemoryAllocated;
    bool streamLimitSet;
    bool streamLimitInUse;
};

static void UpdateFinalResultOnError(const char *apiName, aclError ret, int *finalResult)
{
    if (ret == ACL_SUCCESS)
        return;
    ERROR_LOG("Operation failed: %s returned error code %d", apiName, (int)ret);
    *finalResult = -1;
}

static int InitializeRuntime(struct SampleResources *res)
{
    uint32_t availableBefore = 0, availableAfter = 0;

    CHECK_ERROR(aclInit(NULL));
    res->aclInitialized = true;
    /* aclrtSetDevice makes the device's default context current. */
    CHECK_ERROR(aclrtSetDevice(deviceId));
    res->deviceSet = true;
    CHECK_ERROR(LoadKernels());
    res->kernelsLoaded = true;

    CHECK_ERROR(aclrtGetStreamAvailableNum(&availableBefore));
    if (availableBefore == 0) {
        ERROR_LOG("No Stream is available on Device %d.", (int)deviceId);
        return -1;
    }
    INFO_LOG("Available Streams before creation: %u.", availableBefore);

    CHECK_ERROR(aclrtCreateStream(&res->stream));
    res->streamCreated = true;
    CHECK_ERROR(aclrtGetStreamAvailableNum(&availableAfter));
    INFO_LOG("Available Streams after creation: %u.", availableAfter);
    return 0;
}

static int PrepareDeviceMemory(struct SampleResources *res)
{
    CHECK_ERROR(aclrtMalloc((void **)&res->valueDevice, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    res->deviceMemoryAllocated = true;
    CHECK_ERROR(aclrtMemcpy(res->valueDevice, sizeof(int32_t), &inputValue, sizeof(int32_t),
                            ACL_MEMCPY_HOST_TO_DEVICE));
    return 0;
}

static int ConfigureStreamBudget(struct SampleResources *res, uint32_t *configuredLimit)
{
    /* A stream without a limit of its own answers the device's (here: all Vector Cores). */
    CHECK_ERROR(aclrtGetStreamResLimit(res->stream, resourceType, &res->defaultLimit));
    if (res->defaultLimit < requestedLimit) {
        ERROR_LOG("The default Vector Core limit %u cannot satisfy the requested limit %u.", res->defaultLimit,
                  requestedLimit);
        return -1;
    }
    INFO_LOG("Default Vector Core limit: %u.", res->defaultLimit);

    CHECK_ERROR(aclrtSetStreamResLimit(res->stream, resourceType, requestedLimit));
    res->streamLimitSet = true;
    CHECK_ERROR(aclrtGetStreamResLimit(res->stream, resourceType, configuredLimit));
    if (*configuredLimit != requestedLimit) {
        ERROR_LOG("Unexpected configured Vector Core limit: got %u, expected %u.", *configuredLimit, requestedLimit);
        return -1;
    }
    INFO_LOG("Configured Vector Core limit: %u.", *configuredLimit);
    return 0;
}

static int ExecuteKernel(struct SampleResources *res, uint32_t configuredLimit)
{
    int32_t outputValue = 0;

    /* Operators launched from this thread now read the stream's budget. */
    CHECK_ERROR(aclrtUseStreamResInCurrentThread(res->stream));
    res->streamLimitInUse = true;
    INFO_LOG("Use the Stream resource limit in the current thread.");

    /* One block per configured Vector Core: x[0] += 1. */
    EasyOP(configuredLimit, res->stream, res->valueDevice);
    CHECK_ERROR(aclrtSynchronizeStream(res->stream));

    CHECK_ERROR(aclrtMemcpy(&outputValue, sizeof(int32_t), res->valueDevice, sizeof(int32_t),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    if (outputValue != expectedValue) {
        ERROR_LOG("Unexpected Kernel output: got %d, expected %d.", outputValue, expectedValue);
        return -1;
    }
    INFO_LOG("Kernel output: %d (expected: %d).", outputValue, expectedValue);
    return 0;
}

static int RestoreStreamBudget(struct SampleResources *res)
{
    uint32_t resetLimit = 0;

    CHECK_ERROR(aclrtUnuseStreamResInCurrentThread(res->stream));
    res->streamLimitInUse = false;
    INFO_LOG("Stop using the Stream resource limit in the current thread.");

    /* Without its own limit the stream answers the device's again. */
    CHECK_ERROR(aclrtResetStreamResLimit(res->stream));
    res->streamLimitSet = false;
    CHECK_ERROR(aclrtGetStreamResLimit(res->stream, resourceType, &resetLimit));
    if (resetLimit != res->defaultLimit) {
        ERROR_LOG("Unexpected reset Vector Core limit: got %u, expected default %u.", resetLimit, res->defaultLimit);
        return -1;
    }
    INFO_LOG("Reset Vector Core limit: %u.", resetLimit);
    return 0;
}

static int RunSample(struct SampleResources *res)
{
    uint32_t configuredLimit = 0;

    if (InitializeRuntime(res) != 0)
        return -1;
    if (PrepareDeviceMemory(res) != 0)
        return -1;
    if (ConfigureStreamBudget(res, &configuredLimit) != 0)
        return -1;
    if (ExecuteKernel(res, configuredLimit) != 0)
        return -1;
    if (RestoreStreamBudget(res) != 0)
        return -1;
    return 0;
}

/* Undoes what RunSample set up, also after a failure half-way. */
static void CleanupSample(struct SampleResources *res, int *finalResult)
{
    if (res->streamLimitInUse) {
        UpdateFinalResultOnError("aclrtUnuseStreamResInCurrentThread",
                                 aclrtUnuseStreamResInCurrentThread(res->stream), finalResult);
        res->streamLimitInUse = false;
    }
    if (res->streamLimitSet) {
        UpdateFinalResultOnError("aclrtResetStreamResLimit", aclrtResetStreamResLimit(res->stream), finalResult);
        res->streamLimitSet = false;
    }
    /* After a failure the stream may still hold work that uses the buffer:
     * force-destroy the stream first, then free. */
    if (*finalResult == 0 && res->deviceMemoryAllocated) {
        UpdateFinalResultOnError("aclrtFree", aclrtFree(res->valueDevice), finalResult);
        res->deviceMemoryAllocated = false;
        res->valueDevice = NULL;
    }
    if (res->streamCreated) {
        bool clean = *finalResult == 0;
        aclError ret = clean ? aclrtDestroyStream(res->stream) : aclrtDestroyStreamForce(res->stream);
        UpdateFinalResultOnError(clean ? "aclrtDestroyStream" : "aclrtDestroyStreamForce", ret, finalResult);
        res->streamCreated = false;
        res->stream = NULL;
    }
    if (res->deviceMemoryAllocated) {
        UpdateFinalResultOnError("aclrtFree", aclrtFree(res->valueDevice), finalResult);
        res->deviceMemoryAllocated = false;
        res->valueDevice = NULL;
    }
    if (res->kernelsLoaded) {
        UpdateFinalResultOnError("UnloadKernels", UnloadKernels(), finalResult);
        res->kernelsLoaded = false;
    }
    if (res->deviceSet) {
        UpdateFinalResultOnError("aclrtResetDeviceForce", aclrtResetDeviceForce(deviceId), finalResult);
        res->deviceSet = false;
    }
    if (res->aclInitialized) {
        UpdateFinalResultOnError("aclFinalize", aclFinalize(), finalResult);
        res->aclInitialized = false;
    }
}

int main(int argc, char **argv)
{
    struct SampleResources resources = {0};
    int finalResult;

    SetKernelLibrary(argc, argv);
    finalResult = RunSample(&resources);
    CleanupSample(&resources, &finalResult);
    if (finalResult == 0)
        INFO_LOG("[SUCCESS] Stream resource budget sample completed successfully.");
    return finalResult == 0 ? 0 : 1;
}
