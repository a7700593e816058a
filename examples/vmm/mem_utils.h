/*
 * mem_utils.h - what the CANN memory samples share (example/1_basic_features/
 * memory/mem_utils.h, file_ops.cpp, kernel_func's WriteDo), in C.
 *
 * The two processes of a sharing sample hand each other a pid, a handle
 * and a completion flag through files in file/: WriteFile writes the data
 * and then an empty "done" file; ReadFile waits for the done file, then
 * reads. WriteDo launches a kernel that writes value to devPtr[block] and
 * prints "Source data: <value>", as the vendor's DeviceWrite does.
 */
#ifndef ACLCPU_EXAMPLES_MEM_UTILS_H
#define ACLCPU_EXAMPLES_MEM_UTILS_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* nanosleep, under -std=c11 */
#endif

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <aclcpu/aclcpu.h>

#include "../utils.h"

static inline void WriteFile(const char *filePath, const char *doneFile, const void *data, size_t size)
{
    int fd, fdDone;
    INFO_LOG("Start writing to %s", filePath);
    fd = open(filePath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd == -1 || write(fd, data, size) != (ssize_t)size) {
        ERROR_LOG("Write file %s failed", filePath);
        if (fd != -1)
            close(fd);
        return;
    }
    close(fd);
    fdDone = open(doneFile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fdDone == -1) {
        ERROR_LOG("Open file %s failed", doneFile);
        return;
    }
    close(fdDone);
}

/* Waits (polling every 10 ms, at most 60 s) for doneFile, then reads. */
static inline void ReadFile(const char *filePath, const char *doneFile, void *data, size_t size)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    int fd;
    INFO_LOG("Start reading from %s", filePath);
    for (int i = 0; access(doneFile, F_OK) != 0; i++) {
        if (i == 6000) {
            ERROR_LOG("Open file %s failed", doneFile);
            return;
        }
        nanosleep(&tick, NULL);
    }
    fd = open(filePath, O_RDONLY);
    if (fd == -1 || read(fd, data, size) != (ssize_t)size)
        ERROR_LOG("Read file %s failed", filePath);
    if (fd != -1)
        close(fd);
}

struct WriteDoArgs {
    int *devPtr;
    int value;
};

static void DeviceWrite(void *args)
{
    const struct WriteDoArgs *a = args;
    a->devPtr[aclcpuGetBlockIdx()] = a->value;
    printf("Source data: %d\n", a->value);
    fflush(stdout);
}

static inline void WriteDo(uint32_t blockDim, aclrtStream stream, int *devPtr, int value)
{
    static aclrtFuncHandle fn;
    struct WriteDoArgs args = {devPtr, value};
    if (fn == NULL && aclcpuRegisterKernel("DeviceWrite", DeviceWrite, &fn) != ACL_SUCCESS)
        return;
    (void)aclrtLaunchKernel(fn, blockDim, &args, sizeof(args), stream);
}

#endif /* ACLCPU_EXAMPLES_MEM_UTILS_H */
