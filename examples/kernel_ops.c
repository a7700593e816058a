/*
 * kernel_ops.c - loads libexample_kernels.so and launches its kernels
 * (see kernel_ops.h).
 */
#include <stdlib.h>

#include "kernel_ops.h"
#include "kernels/device_print.h"
#include "utils.h"

#ifndef EXAMPLE_KERNELS_PATH
#define EXAMPLE_KERNELS_PATH "libexample_kernels.so"
#endif

static const char *libraryPath = EXAMPLE_KERNELS_PATH;
static aclrtBinHandle binary;
static aclrtFuncHandle easyOp, shortOp, longOp, errorOp;
static aclrtFuncHandle deviceWrite, deviceRead, kernelPrint;
/* Where the printing kernels put their text until UnloadKernels prints it. */
static struct DevicePrintBuffer printBuffer;

/* The runtime's message for the last failed call (it may have none). */
static const char *RecentErrMsg(void)
{
    const char *msg = aclGetRecentErrMsg();
    return msg != NULL ? msg : "no message";
}

void SetKernelLibrary(int argc, char **argv)
{
    const char *env = getenv("ACLCPU_EXAMPLE_KERNELS");
    if (argc > 1 && argv[1][0] != '\0')
        libraryPath = argv[1];
    else if (env != NULL && env[0] != '\0')
        libraryPath = env;
}

aclError LoadKernels(void)
{
    aclError ret = aclrtBinaryLoadFromFile(libraryPath, NULL, &binary);
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("Cannot load the kernel library %s: %s", libraryPath, RecentErrMsg());
        return ret;
    }
    if ((ret = aclrtBinaryGetFunction(binary, "EasyOP", &easyOp)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "ShortOP", &shortOp)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "LongOP", &longOp)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "ErrorOP", &errorOp)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "DeviceWrite", &deviceWrite)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "DeviceRead", &deviceRead)) != ACL_SUCCESS ||
        (ret = aclrtBinaryGetFunction(binary, "KernelPrint", &kernelPrint)) != ACL_SUCCESS) {
        ERROR_LOG("The kernel library %s lacks a kernel: %s", libraryPath, RecentErrMsg());
        (void)aclrtBinaryUnLoad(binary);
        binary = NULL;
    }
    return ret;
}

aclError UnloadKernels(void)
{
    aclError ret;
    DevicePrintFlush(&printBuffer);
    ret = aclrtBinaryUnLoad(binary);
    binary = NULL;
    easyOp = shortOp = longOp = errorOp = NULL;
    deviceWrite = deviceRead = kernelPrint = NULL;
    return ret;
}

/* The kernel's only argument is the device pointer: the runtime copies
 * these sizeof(x) bytes at launch, so x may go out of scope right after. */
static void LaunchArgs(const char *name, aclrtFuncHandle fn, uint32_t blockDim, aclrtStream stream, void *args,
                       size_t argsSize)
{
    aclError ret = aclrtLaunchKernel(fn, blockDim, args, argsSize, stream);
    if (ret != ACL_SUCCESS)
        ERROR_LOG("Launching %s returned error code %d: %s", name, (int)ret, RecentErrMsg());
}

static void Launch(const char *name, aclrtFuncHandle fn, uint32_t blockDim, aclrtStream stream, int32_t *x)
{
    LaunchArgs(name, fn, blockDim, stream, &x, sizeof(x));
}

void EasyOP(uint32_t blockDim, aclrtStream stream, int32_t *x) { Launch("EasyOP", easyOp, blockDim, stream, x); }
void ShortOP(uint32_t blockDim, aclrtStream stream, int32_t *x) { Launch("ShortOP", shortOp, blockDim, stream, x); }
void LongOP(uint32_t blockDim, aclrtStream stream, int32_t *x) { Launch("LongOP", longOp, blockDim, stream, x); }
void ErrorOP(uint32_t blockDim, aclrtStream stream, int32_t *x) { Launch("ErrorOP", errorOp, blockDim, stream, x); }

/* The printing kernels also get the print buffer's address, as the
 * vendor's runtime hands a kernel the address of its printf buffer. */
void WriteDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr, int32_t value)
{
    struct ValueArgs args = {devPtr, value, &printBuffer};
    LaunchArgs("DeviceWrite", deviceWrite, blockDim, stream, &args, sizeof(args));
}

void ReadDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr)
{
    struct ValueArgs args = {devPtr, 0, &printBuffer};
    LaunchArgs("DeviceRead", deviceRead, blockDim, stream, &args, sizeof(args));
}

void PrintDo(uint32_t blockDim, aclrtStream stream)
{
    struct DevicePrintBuffer *print = &printBuffer;
    LaunchArgs("KernelPrint", kernelPrint, blockDim, stream, &print, sizeof(print));
}
