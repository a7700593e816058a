/*
 * 0_launch_kernel - the CANN runtime sample
 * example/2_advanced_features/kernel/0_launch_kernel, in C on aclcpu,
 * together with what its run.sh does around it.
 *
 * The sample loads a kernel binary from a file (aclrtBinaryLoadFromFile),
 * finds add_custom in it (aclrtBinaryGetFunction), builds its argument
 * list with an argument handle (aclrtKernelArgsInit, aclrtKernelArgsAppend
 * for the x, y, z device pointers) and launches it on 8 blocks with
 * aclrtLaunchKernelWithConfig. In "placeholder" mode the kernel takes two
 * more arguments, the total length and the tile count, appended as
 * placeholders: the sample writes their values into host buffers the
 * handle gives it (aclrtKernelArgsGetPlaceHolderBuffer), and the runtime
 * carries the data to the device at launch and points the arguments at it.
 *
 * run.sh generates the inputs first (scripts/gen_data.py: two 8 x 2048
 * FP16 arrays, uniform in [1, 100), and their sum as the golden output,
 * into input/ and output/) and checks the output afterwards
 * (scripts/verify_result.py: the share of elements not close to the golden
 * ones, relative tolerance 1e-3, must be at most 1e-3). This program does
 * both in C around the sample's steps, in the working directory, with a
 * fixed seed; the md5sum lines of run.sh are left out.
 *
 * The kernels are kernels/add_custom.c, built as two modules like the
 * vendor's two fatbins (the paths are compiled in).
 *
 * Usage: 0_launch_kernel [simple|placeholder]
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <acl/acl.h>

#include "../utils.h"

#ifndef ADD_CUSTOM_SIMPLE_PATH
#define ADD_CUSTOM_SIMPLE_PATH "libadd_custom_simple.so"
#endif
#ifndef ADD_CUSTOM_PLACEHOLDER_PATH
#define ADD_CUSTOM_PLACEHOLDER_PATH "libadd_custom_placeholder.so"
#endif

#define ELEMENT_COUNT ((size_t)8 * 2048)

struct KernelBuffers {
    uint8_t *xHost, *yHost, *zHost;
    uint8_t *xDevice, *yDevice, *zDevice;
};

struct RuntimeResources {
    int32_t deviceId;
    aclrtStream stream;
    aclrtBinHandle binHandle;
    int aclInitialized, deviceSet, streamCreated, binLoaded;
};

/* ---- files (the sample's kernel_utils: ReadFile, WriteFile) ---------------------------------- */

/* Reads the whole regular file filePath into buffer (at most bufferSize
 * bytes); *fileSize gets its size. */
static int ReadFile(const char *filePath, size_t *fileSize, void *buffer, size_t bufferSize)
{
    struct stat sBuf;
    if (stat(filePath, &sBuf) == -1) {
        ERROR_LOG("failed to get file");
        return 0;
    }
    if (!S_ISREG(sBuf.st_mode)) {
        ERROR_LOG("%s is not a file, please enter a file", filePath);
        return 0;
    }
    FILE *file = fopen(filePath, "rb");
    if (file == NULL) {
        ERROR_LOG("Open file failed. path = %s", filePath);
        return 0;
    }
    size_t size = (size_t)sBuf.st_size;
    if (size == 0 || size > bufferSize) {
        ERROR_LOG(size == 0 ? "file size is 0" : "file size is larger than buffer size");
        fclose(file);
        return 0;
    }
    *fileSize = fread(buffer, 1, size, file);
    fclose(file);
    return 1;
}

static int WriteFile(const char *filePath, const void *buffer, size_t size)
{
    if (buffer == NULL) {
        ERROR_LOG("Write file failed. buffer is nullptr");
        return 0;
    }
    FILE *file = fopen(filePath, "wb");
    if (file == NULL) {
        ERROR_LOG("Open file failed. path = %s", filePath);
        return 0;
    }
    size_t written = fwrite(buffer, 1, size, file);
    if (fclose(file) != 0 || written != size) {
        ERROR_LOG("Write file Failed.");
        return 0;
    }
    return 1;
}

/* ---- the sample ------------------------------------------------------------------------------ */

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
    CHECK_ERROR(aclrtMallocHost((void **)&buffers->xHost, inputByteSize));
    CHECK_ERROR(aclrtMallocHost((void **)&buffers->yHost, inputByteSize));
    CHECK_ERROR(aclrtMallocHost((void **)&buffers->zHost, outputByteSize));
    CHECK_ERROR(aclrtMalloc((void **)&buffers->xDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc((void **)&buffers->yDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc((void **)&buffers->zDevice, outputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    return 0;
}

static int32_t PrepareInputData(size_t inputByteSize, const struct KernelBuffers *buffers)
{
    size_t xFileSize = inputByteSize, yFileSize = inputByteSize;
    if (!ReadFile("./input/input_x.bin", &xFileSize, buffers->xHost, inputByteSize) || xFileSize != inputByteSize) {
        ERROR_LOG("Read input_x.bin failed or file size is invalid.");
        return -1;
    }
    if (!ReadFile("./input/input_y.bin", &yFileSize, buffers->yHost, inputByteSize) || yFileSize != inputByteSize) {
        ERROR_LOG("Read input_y.bin failed or file size is invalid.");
        return -1;
    }
    CHECK_ERROR(aclrtMemcpy(buffers->xDevice, inputByteSize, buffers->xHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(buffers->yDevice, inputByteSize, buffers->yHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    return 0;
}

static int32_t AppendCommonKernelArgs(aclrtArgsHandle argsHandle, uint8_t *xDevice, uint8_t *yDevice,
                                      uint8_t *zDevice)
{
    aclrtParamHandle paramHandle1 = NULL, paramHandle2 = NULL, paramHandle3 = NULL;
    /* Each parameter is the pointer's own bytes: the address of the pointer, its size. */
    CHECK_ERROR(aclrtKernelArgsAppend(argsHandle, (void *)&xDevice, sizeof(uintptr_t), &paramHandle1));
    CHECK_ERROR(aclrtKernelArgsAppend(argsHandle, (void *)&yDevice, sizeof(uintptr_t), &paramHandle2));
    CHECK_ERROR(aclrtKernelArgsAppend(argsHandle, (void *)&zDevice, sizeof(uintptr_t), &paramHandle3));
    return 0;
}

static int32_t ConfigurePlaceholderArgs(aclrtArgsHandle argsHandle)
{
    const int32_t totalLength = 8 * 2048;
    const int32_t tileNum = 8;
    int32_t *lengthHost = NULL, *numHost = NULL;
    aclrtParamHandle paramHandle4 = NULL, paramHandle5 = NULL;

    CHECK_ERROR(aclrtKernelArgsAppendPlaceHolder(argsHandle, &paramHandle4));
    CHECK_ERROR(aclrtKernelArgsAppendPlaceHolder(argsHandle, &paramHandle5));
    CHECK_ERROR(aclrtKernelArgsGetPlaceHolderBuffer(argsHandle, paramHandle4, sizeof(totalLength),
                                                    (void **)&lengthHost));
    CHECK_ERROR(aclrtKernelArgsGetPlaceHolderBuffer(argsHandle, paramHandle5, sizeof(tileNum), (void **)&numHost));
    *lengthHost = totalLength;
    *numHost = tileNum;
    return 0;
}

static int32_t BuildKernelArgs(const char *mode, uint8_t *xDevice, uint8_t *yDevice, uint8_t *zDevice,
                               struct RuntimeResources *runtime, aclrtFuncHandle *funcHandle,
                               aclrtArgsHandle *argsHandle)
{
    const int isPlaceholder = strcmp(mode, "placeholder") == 0;
    const char *filePath = isPlaceholder ? ADD_CUSTOM_PLACEHOLDER_PATH : ADD_CUSTOM_SIMPLE_PATH;

    CHECK_ERROR(aclrtBinaryLoadFromFile(filePath, NULL, &runtime->binHandle));
    runtime->binLoaded = 1;
    CHECK_ERROR(aclrtBinaryGetFunction(runtime->binHandle, "add_custom", funcHandle));
    CHECK_ERROR(aclrtKernelArgsInit(*funcHandle, argsHandle));
    if (AppendCommonKernelArgs(*argsHandle, xDevice, yDevice, zDevice) != 0)
        return -1;
    if (isPlaceholder && ConfigurePlaceholderArgs(*argsHandle) != 0)
        return -1;
    CHECK_ERROR(aclrtKernelArgsFinalize(*argsHandle));
    return 0;
}

static int32_t LaunchKernelAndWriteOutput(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, uint32_t blockDim,
                                          aclrtStream stream, uint8_t *zDevice, uint8_t *zHost,
                                          size_t outputByteSize)
{
    CHECK_ERROR(aclrtLaunchKernelWithConfig(funcHandle, blockDim, stream, NULL, argsHandle, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(aclrtMemcpy(zHost, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    if (!WriteFile("./output/output_z.bin", zHost, outputByteSize)) {
        ERROR_LOG("Write output_z.bin failed.");
        return -1;
    }
    return 0;
}

static void ReleaseKernelResources(struct RuntimeResources *runtime, struct KernelBuffers *buffers,
                                   int32_t *finalResult)
{
    if (runtime->binLoaded)
        UpdateFinalResultOnError("aclrtBinaryUnLoad(runtime.binHandle)", aclrtBinaryUnLoad(runtime->binHandle),
                                 finalResult);
    if (buffers->zDevice != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.zDevice)", aclrtFree(buffers->zDevice), finalResult);
    if (buffers->yDevice != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.yDevice)", aclrtFree(buffers->yDevice), finalResult);
    if (buffers->xDevice != NULL)
        UpdateFinalResultOnError("aclrtFree(buffers.xDevice)", aclrtFree(buffers->xDevice), finalResult);
    if (buffers->zHost != NULL)
        UpdateFinalResultOnError("aclrtFreeHost(buffers.zHost)", aclrtFreeHost(buffers->zHost), finalResult);
    if (buffers->yHost != NULL)
        UpdateFinalResultOnError("aclrtFreeHost(buffers.yHost)", aclrtFreeHost(buffers->yHost), finalResult);
    if (buffers->xHost != NULL)
        UpdateFinalResultOnError("aclrtFreeHost(buffers.xHost)", aclrtFreeHost(buffers->xHost), finalResult);
    if (runtime->streamCreated)
        UpdateFinalResultOnError("aclrtDestroyStreamForce(runtime.stream)", aclrtDestroyStreamForce(runtime->stream),
                                 finalResult);
    if (runtime->deviceSet)
        UpdateFinalResultOnError("aclrtResetDeviceForce(runtime.deviceId)",
                                 aclrtResetDeviceForce(runtime->deviceId), finalResult);
    if (runtime->aclInitialized)
        UpdateFinalResultOnError("aclFinalize()", aclFinalize(), finalResult);
}

static int32_t RunSteps(const char *mode, struct RuntimeResources *runtime, struct KernelBuffers *buffers)
{
    const uint32_t blockDim = 8;
    const size_t inputByteSize = ELEMENT_COUNT * sizeof(uint16_t);
    const size_t outputByteSize = ELEMENT_COUNT * sizeof(uint16_t);
    aclrtFuncHandle funcHandle = NULL;
    aclrtArgsHandle argsHandle = NULL;

    if (InitializeRuntime(runtime) != 0)
        return -1;
    if (AllocateKernelBuffers(inputByteSize, outputByteSize, buffers) != 0)
        return -1;
    if (PrepareInputData(inputByteSize, buffers) != 0)
        return -1;
    if (BuildKernelArgs(mode, buffers->xDevice, buffers->yDevice, buffers->zDevice, runtime, &funcHandle,
                        &argsHandle) != 0)
        return -1;
    if (LaunchKernelAndWriteOutput(funcHandle, argsHandle, blockDim, runtime->stream, buffers->zDevice,
                                   buffers->zHost, outputByteSize) != 0)
        return -1;
    INFO_LOG("Kernel launch sample runs in %s mode.", mode);
    return 0;
}

static int32_t RunKernelLaunchSample(const char *mode)
{
    struct RuntimeResources runtime = {0};
    struct KernelBuffers buffers = {0};
    int32_t finalResult = RunSteps(mode, &runtime, &buffers);
    ReleaseKernelResources(&runtime, &buffers, &finalResult);
    if (finalResult == 0)
        INFO_LOG("Run the launch_kernel sample successfully.");
    return finalResult;
}

/* ---- run.sh: generating the data, verifying the result ---------------------------------------- */

/* A fixed-seed generator (xorshift64*), for inputs that are the same every run. */
static uint64_t rngState = 0x9E3779B97F4A7C15ull;

static double NextUniform(void)
{
    rngState ^= rngState >> 12;
    rngState ^= rngState << 25;
    rngState ^= rngState >> 27;
    return (double)((rngState * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0; /* [0, 1) */
}

static int MakeDir(const char *path) { return mkdir(path, 0755) == 0 || errno == EEXIST; }

/* scripts/gen_data.py: x and y uniform in [1, 100) as FP16, golden = x + y in FP16. */
static int GenData(void)
{
    static aclFloat16 x[ELEMENT_COUNT], y[ELEMENT_COUNT], golden[ELEMENT_COUNT];
    if (!MakeDir("input") || !MakeDir("output")) {
        ERROR_LOG("Cannot create input/ and output/");
        return -1;
    }
    for (size_t i = 0; i < ELEMENT_COUNT; i++) {
        x[i] = aclFloatToFloat16((float)(1.0 + 99.0 * NextUniform()));
        y[i] = aclFloatToFloat16((float)(1.0 + 99.0 * NextUniform()));
        golden[i] = aclFloatToFloat16(aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i]));
    }
    if (!WriteFile("./input/input_x.bin", x, sizeof(x)) || !WriteFile("./input/input_y.bin", y, sizeof(y)) ||
        !WriteFile("./output/golden.bin", golden, sizeof(golden)))
        return -1;
    return 0;
}

/* scripts/verify_result.py: elements not within rtol 1e-3 + atol 1e-5 of
 * the golden ones are listed (the first 101); their share must be <= 1e-3. */
static int VerifyResult(const char *outputPath, const char *goldenPath)
{
    static aclFloat16 output[ELEMENT_COUNT], golden[ELEMENT_COUNT];
    size_t outputSize = 0, goldenSize = 0, different = 0;
    if (!ReadFile(outputPath, &outputSize, output, sizeof(output)) ||
        !ReadFile(goldenPath, &goldenSize, golden, sizeof(golden)) || outputSize != goldenSize) {
        printf("[FAILURE] result error\n");
        return -1;
    }
    for (size_t i = 0; i < goldenSize / sizeof(aclFloat16); i++) {
        double o = aclFloat16ToFloat(output[i]), g = aclFloat16ToFloat(golden[i]);
        if (fabs(o - g) <= 1e-5 + 1e-3 * fabs(g))
            continue;
        if (different <= 100)
            printf("data index: %06zu, expected: %-.9f, actual: %-.9f, rdiff: %-.6f\n", i, g, o, fabs(o - g) / g);
        different++;
    }
    double ratio = (double)different / (double)(goldenSize / sizeof(aclFloat16));
    printf("error ratio: %.4f, tolerance: %.4f\n", ratio, 1e-3);
    if (ratio > 1e-3) {
        printf("[FAILURE] result error\n");
        return -1;
    }
    printf("[SUCCESS] result correct\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "simple";
    if (strcmp(mode, "simple") != 0 && strcmp(mode, "placeholder") != 0) {
        ERROR_LOG("Invalid run mode: %s. Mode must be simple or placeholder.", mode);
        return -1;
    }
    if (GenData() != 0)
        return 1;
    if (RunKernelLaunchSample(mode) != 0)
        return 1;
    fflush(stdout);
    return VerifyResult("output/output_z.bin", "output/golden.bin") == 0 ? 0 : 1;
}
