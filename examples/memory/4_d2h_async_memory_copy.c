/*
 * 4_d2h_async_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/4_d2h_async_memory_copy, in C on aclcpu.
 *
 * DeviceWrite stores 123 in device memory, and an aclrtMemcpyAsync
 * (DEVICE_TO_HOST) queued behind it on the same stream brings the buffer
 * back; stream order puts the copy after the kernel, so the host only
 * waits once (aclrtSynchronizeStream) before it reads the value. The
 * kernel's "Source data" line comes last, printed at the device reset.
 *
 * Usage: 4_d2h_async_memory_copy [path/to/libexample_kernels.so]
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

int main(int argc, char **argv)
{
    const int32_t deviceId = 0;
    const size_t size = 1024 * 1024;
    const uint32_t blockDim = 1;
    const int writeValue = 123;
    aclrtStream stream = NULL;
    int *hostPtrA = NULL;
    int *devPtrB = NULL;
    int readValue;

    SetKernelLibrary(argc, argv);
    /* Like the vendor's sample, the set-up calls are not checked. */
    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    CHECK_ERROR(LoadKernels());

    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrA, size));
    INFO_LOG("Allocate memory on the host memory %p successfully", (void *)hostPtrA);
    CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrB);

    WriteDo(blockDim, stream, devPtrB, writeValue);
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)devPtrB);

    /* Queued after the kernel on the same stream. */
    CHECK_ERROR(aclrtMemcpyAsync(hostPtrA, size, devPtrB, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)devPtrB, (void *)hostPtrA);

    /* One wait covers both tasks (unchecked, as in the vendor's sample). */
    aclrtSynchronizeStream(stream);
    readValue = *hostPtrA;
    INFO_LOG("Destination data: %d", readValue);

    /* Tear down in the vendor's order, results unchecked as there. */
    aclrtDestroyStreamForce(stream);
    aclrtFreeHost(hostPtrA);
    aclrtFree(devPtrB);
    UnloadKernels();
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
