/*
 * 2_h2d_async_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/2_h2d_async_memory_copy, in C on aclcpu.
 *
 * As 1_h2d_sync_memory_copy, but the host-to-device copy is a task on the
 * stream (aclrtMemcpyAsync) and the host waits for it with
 * aclrtSynchronizeStream before launching DeviceRead on the same stream.
 * DeviceRead is never waited for: aclrtDestroyStreamForce runs it before
 * the stream goes, and what it printed comes out at the device reset.
 *
 * Usage: 2_h2d_async_memory_copy [path/to/libexample_kernels.so]
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

    SetKernelLibrary(argc, argv);
    /* Like the vendor's sample, the set-up calls are not checked. */
    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    CHECK_ERROR(LoadKernels());

    /* 1 MiB on each side; the host side is page-locked, as an async copy wants. */
    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrA, size));
    INFO_LOG("Allocate memory on the host memory %p successfully", (void *)hostPtrA);
    CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrB);

    *hostPtrA = writeValue;
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)hostPtrA);
    INFO_LOG("Source data: %d", writeValue);

    /* Queued on the stream: when this returns the copy may not have run yet. */
    CHECK_ERROR(aclrtMemcpyAsync(devPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)hostPtrA, (void *)devPtrB);

    /* Wait for the copy (unchecked, as in the vendor's sample), then read on the device. */
    aclrtSynchronizeStream(stream);
    ReadDo(blockDim, stream, devPtrB);

    /* Tear down in the vendor's order, results unchecked as there. */
    aclrtDestroyStreamForce(stream);
    aclrtFreeHost(hostPtrA);
    aclrtFree(devPtrB);
    UnloadKernels();
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
