/*
 * 0_uvm_allocate - the CANN runtime sample
 * example/3_memory_advanced/managed_memory/0_uvm_allocate, in C on aclcpu.
 *
 * The add_custom kernel's inputs and output are unified (managed) memory
 * from aclrtMemAllocManaged: the host writes the inputs and reads the
 * output at the same addresses the kernel uses, with no copies. On a SoC
 * without UVM (aclrtMemAllocManaged returns 207000) the sample says it
 * skips and exits with 0, as the vendor's does.
 *
 * The vendor's run.sh generates the inputs (scripts/gen_data.py), writes
 * the output to a file and checks it against a golden file
 * (scripts/verify_result.py, which prints the last two lines). Here the
 * program does all three: deterministic FP16 inputs, and the same check
 * (an element is wrong when it is off by more than the tolerance,
 * relative to the exact sum; the error ratio must not exceed it).
 *
 * Usage: 0_uvm_allocate [path/to/libmemory_kernels.so]
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"

#define kSampleSkipped 1
#define kElements ((size_t)8 * 2048)
#define kTolerance 0.001

struct KernelBuffers {
    uint16_t *xPtr, *yPtr, *zPtr;
};

struct RuntimeResources {
    int32_t deviceId;
    aclrtStream stream;
    aclrtBinHandle binHandle;
    int aclInitialized, deviceSet, streamCreated, binLoaded;
};

static const char *kernelPath = MEMORY_KERNELS_PATH;

static float HalfToFloat(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF, bits;
    float f;
    if (exp == 0) {
        f = (float)man / 16777216.0f;
        return sign ? -f : f;
    }
    bits = sign | ((exp + 112) << 23) | (man << 13);
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static void UpdateFinalResultOnError(const char *apiName, aclError ret, int32_t *finalResult)
{
    if (ret == ACL_SUCCESS)
        return;
    ERROR_LOG("Operation failed: %s returned error code %d", apiName, (int)ret);
    *finalResult = -1;
}

static int32_t InitializeRuntime(struct RuntimeResources *runtime)
{
    CHECK_ERROR(aclInit(NULL));
    runtime->aclInitialized = 1;
    CHECK_ERROR(aclrtSetDevice(runtime->deviceId));
    runtime->deviceSet = 1;
    CHECK_ERROR(aclrtCreateStream(&runtime->stream));
    runtime->streamCreated = 1;
    return 0;
}

static int32_t AllocateKernelBuffers(size_t inputByteSize, size_t outputByteSize, struct KernelBuffers *buffers)
{
    const aclError allocRet = aclrtMemAllocManaged((void **)&buffers->xPtr, inputByteSize, ACL_RT_MEM_ATTACH_GLOBAL);
    if (allocRet == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        const char *socName = aclrtGetSocName();
        INFO_LOG("[SKIP] uvm_allocate sample skipped: the current SOC (%s) does not support UVM, "
                 "aclrtMemAllocManaged returned error code %d.", socName != NULL ? socName : "unknown", (int)allocRet);
        return kSampleSkipped;
    }
    if (allocRet != ACL_SUCCESS) {
        ERROR_LOG("Operation failed: aclrtMemAllocManaged returned error code %d", (int)allocRet);
        return -1;
    }
    CHECK_ERROR(aclrtMemAllocManaged((void **)&buffers->yPtr, inputByteSize, ACL_RT_MEM_ATTACH_GLOBAL));
    CHECK_ERROR(aclrtMemAllocManaged((void **)&buffers->zPtr, outputByteSize, ACL_RT_MEM_ATTACH_GLOBAL));
    return 0;
}

/* gen_data.py's part: inputs in [1, 100), as FP16, from a fixed seed. */
static void PrepareInputData(const struct KernelBuffers *buffers)
{
    uint32_t seed = 20240601u;
    for (size_t i = 0; i < kElements; i++) {
        seed = seed * 1664525u + 1013904223u;
        buffers->xPtr[i] = (uint16_t)(0x3C00 + (seed >> 16) % 0x1A40); /* 1.0 .. ~99 */
        seed = seed * 1664525u + 1013904223u;
        buffers->yPtr[i] = (uint16_t)(0x3C00 + (seed >> 16) % 0x1A40);
    }
}

static int32_t AppendPointer(aclrtArgsHandle argsHandle, uint16_t *p)
{
    aclrtParamHandle paramHandle = NULL;
    CHECK_ERROR(aclrtKernelArgsAppend(argsHandle, (void **)&p, sizeof(uintptr_t), &paramHandle));
    return 0;
}

static int32_t BuildKernelArgs(const struct KernelBuffers *buffers, struct RuntimeResources *runtime,
                               aclrtFuncHandle *funcHandle, aclrtArgsHandle *argsHandle)
{
    CHECK_ERROR(aclrtBinaryLoadFromFile(kernelPath, NULL, &runtime->binHandle));
    runtime->binLoaded = 1;
    CHECK_ERROR(aclrtBinaryGetFunction(runtime->binHandle, "add_custom", funcHandle));
    CHECK_ERROR(aclrtKernelArgsInit(*funcHandle, argsHandle));
    if (AppendPointer(*argsHandle, buffers->xPtr) != 0 || AppendPointer(*argsHandle, buffers->yPtr) != 0 ||
        AppendPointer(*argsHandle, buffers->zPtr) != 0)
        return -1;
    CHECK_ERROR(aclrtKernelArgsFinalize(*argsHandle));
    return 0;
}

/* verify_result.py's part: the share of elements off by more than the tolerance. */
static double ErrorRatio(const struct KernelBuffers *buffers)
{
    size_t wrong = 0;
    for (size_t i = 0; i < kElements; i++) {
        double golden = (double)HalfToFloat(buffers->xPtr[i]) + (double)HalfToFloat(buffers->yPtr[i]);
        if (fabs((double)HalfToFloat(buffers->zPtr[i]) - golden) > kTolerance * fabs(golden))
            wrong++;
    }
    return (double)wrong / (double)kElements;
}

static void ReleaseKernelResources(struct RuntimeResources *runtime, struct KernelBuffers *buffers,
                                   int32_t *finalResult)
{
    if (runtime->binLoaded)
        UpdateFinalResultOnError("aclrtBinaryUnLoad(runtime.binHandle)", aclrtBinaryUnLoad(runtime->binHandle),
                                 finalResult);
    if (buffers->zPtr != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.zPtr)", aclrtFree(buffers->zPtr), finalResult);
    if (buffers->yPtr != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.yPtr)", aclrtFree(buffers->yPtr), finalResult);
    if (buffers->xPtr != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.xPtr)", aclrtFree(buffers->xPtr), finalResult);
    if (runtime->streamCreated)
        UpdateFinalResultOnError("aclrtDestroyStreamForce(runtime.stream)", aclrtDestroyStreamForce(runtime->stream),
                                 finalResult);
    if (runtime->deviceSet)
        UpdateFinalResultOnError("aclrtResetDeviceForce(runtime.deviceId)", aclrtResetDeviceForce(runtime->deviceId),
                                 finalResult);
    if (runtime->aclInitialized)
        UpdateFinalResultOnError("aclFinalize()", aclFinalize(), finalResult);
}

static int32_t Run(struct RuntimeResources *runtime, struct KernelBuffers *buffers, double *ratio)
{
    const uint32_t blockDim = 8;
    const size_t byteSize = kElements * sizeof(uint16_t);
    aclrtFuncHandle funcHandle = NULL;
    aclrtArgsHandle argsHandle = NULL;
    int32_t allocResult;

    if (InitializeRuntime(runtime) != 0)
        return -1;
    allocResult = AllocateKernelBuffers(byteSize, byteSize, buffers);
    if (allocResult != 0)
        return allocResult;
    PrepareInputData(buffers);
    if (BuildKernelArgs(buffers, runtime, &funcHandle, &argsHandle) != 0)
        return -1;
    CHECK_ERROR(aclrtLaunchKernelWithConfig(funcHandle, blockDim, runtime->stream, NULL, argsHandle, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(runtime->stream));
    *ratio = ErrorRatio(buffers);
    return 0;
}

int main(int argc, char **argv)
{
    struct RuntimeResources runtime = {0};
    struct KernelBuffers buffers = {0};
    double ratio = 1.0;
    int32_t finalResult;

    if (argc > 1)
        kernelPath = argv[1];
    finalResult = Run(&runtime, &buffers, &ratio);
    ReleaseKernelResources(&runtime, &buffers, &finalResult);
    if (finalResult == kSampleSkipped) {
        printf("[SUCCESS] uvm_allocate sample skipped because the current SOC does not support UVM.\n");
        return 0;
    }
    if (finalResult != 0) {
        printf("[FAILURE] Run the uvm_allocate sample failed.\n");
        return 1;
    }
    INFO_LOG("Run the uvm_allocate sample successfully.");
    printf("error ratio: %.4f, tolerance: %.4f\n", ratio, kTolerance);
    printf(ratio <= kTolerance ? "[SUCCESS] result correct\n" : "[ERROR] result error\n");
    return ratio <= kTolerance ? 0 : 1;
}
