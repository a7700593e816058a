/*
 * ipc_common.c - the file hand-over and the write/read kernels of the
 * two-process samples (see ipc_common.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <aclcpu/aclcpu.h>

#include "../utils.h"
#include "ipc_common.h"

#define WAIT_LIMIT_S 30

void WriteFile(const char *filePath, const char *doneFile, const void *data, size_t size)
{
    FILE *f = fopen(filePath, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size) {
        ERROR_LOG("Cannot write %s", filePath);
        if (f != NULL)
            fclose(f);
        return;
    }
    fclose(f);
    f = fopen(doneFile, "w"); /* only now may the reader read it */
    if (f != NULL)
        fclose(f);
}

int WaitForFile(const char *path)
{
    /* As the vendor's samples do: look again and again (here every 1 ms). */
    struct timespec pause = {0, 1000000};
    for (long i = 0; i < WAIT_LIMIT_S * 1000L; i++) {
        if (access(path, F_OK) == 0)
            return 0;
        nanosleep(&pause, NULL);
    }
    ERROR_LOG("Timeout waiting for %s", path);
    return -1;
}

long ReadFile(const char *filePath, const char *doneFile, void *data, size_t bufferSize)
{
    FILE *f;
    size_t n;
    if (WaitForFile(doneFile) != 0 || (f = fopen(filePath, "rb")) == NULL)
        return -1;
    n = fread(data, 1, bufferSize, f);
    fclose(f);
    return (long)n;
}

struct value_args {
    int32_t *devPtr;
    int32_t value;
};

static void DeviceWrite(void *args)
{
    const struct value_args *a = args;
    a->devPtr[aclcpuGetBlockIdx()] = a->value;
    printf("Source data: %d\n", (int)a->value);
    fflush(stdout);
}

static void DeviceRead(void *args)
{
    const struct value_args *a = args;
    printf("Destination data: %d\n", (int)a->devPtr[aclcpuGetBlockIdx()]);
    fflush(stdout);
}

static void Launch(const char *name, aclcpuKernelFn fn, uint32_t blockDim, aclrtStream stream, int32_t *devPtr,
                   int32_t value)
{
    struct value_args a = {devPtr, value};
    aclrtFuncHandle f;
    aclError ret = aclcpuRegisterKernel(name, fn, &f);
    if (ret == ACL_SUCCESS)
        ret = aclrtLaunchKernel(f, blockDim, &a, sizeof(a), stream);
    if (ret != ACL_SUCCESS)
        ERROR_LOG("Launching %s returned error code %d", name, (int)ret);
}

void WriteDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr, int32_t value)
{
    Launch("DeviceWrite", DeviceWrite, blockDim, stream, devPtr, value);
}

void ReadDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr)
{
    Launch("DeviceRead", DeviceRead, blockDim, stream, devPtr, 0);
}
