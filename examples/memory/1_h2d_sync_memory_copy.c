/*
 * 1_h2d_sync_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/1_h2d_sync_memory_copy, in C on aclcpu.
 *
 * 123 is stored in an aclrtMallocHost buffer and copied to device memory
 * with the synchronous aclrtMemcpy (HOST_TO_DEVICE); the DeviceRead kernel
 * then prints what the device buffer holds. The sample never waits for
 * that kernel: aclrtDestroyStreamForce runs what was already launched
 * before the stream goes, so "Destination data: 123" is printed (at the
 * device reset, where the runtime prints what kernels printed).
 *
 * Usage: 1_h2d_sync_memory_copy [path/to/libexample_kernels.so]
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

    /* 1 MiB on each side. */
    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrA, size));
    INFO_LOG("Allocate memory on the host memory %p successfully", (void *)hostPtrA);
    CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrB);

    /* The source value goes into host memory by a plain store. */
    *hostPtrA = writeValue;
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)hostPtrA);
    INFO_LOG("Source data: %d", writeValue);

    /* Synchronous: the device buffer holds the data when the call returns. */
    CHECK_ERROR(aclrtMemcpy(devPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)hostPtrA, (void *)devPtrB);

    /* A kernel reads the device copy and prints it. */
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
