/*
 * ipc_common.h - what the vendor's two-process samples share, in C:
 * memory::WriteFile / ReadFile (example/1_basic_features/memory/mem_utils.h:
 * a file handed to the other process, then a ".done" file saying it is
 * whole) and WriteDo / ReadDo (example/kernel_func: one-block kernels that
 * write a value to device memory, or read it, and print it as the device's
 * printf does: "Source data: 123", "Destination data: 123").
 *
 * Both processes run in the same working directory, which holds file/.
 */
#ifndef ACLCPU_EXAMPLES_IPC_COMMON_H
#define ACLCPU_EXAMPLES_IPC_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <acl/acl.h>

/* Writes size bytes of data to filePath, then creates doneFile. */
void WriteFile(const char *filePath, const char *doneFile, const void *data, size_t size);
/* Waits (up to 30 s) for doneFile, then reads up to bufferSize bytes of
 * filePath into data; returns the bytes read, or -1. */
long ReadFile(const char *filePath, const char *doneFile, void *data, size_t bufferSize);
/* Waits (up to 30 s) for path to exist; 0 once it does, -1 on timeout. */
int WaitForFile(const char *path);

/* devPtr[block] = value (printing "Source data: <value>"), on stream. */
void WriteDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr, int32_t value);
/* Prints "Destination data: <devPtr[block]>" when it runs on stream. */
void ReadDo(uint32_t blockDim, aclrtStream stream, int32_t *devPtr);

#endif
