/*
 * 3_d2h_sync_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/3_d2h_sync_memory_copy, in C on aclcpu.
 *
 * The DeviceWrite kernel stores 123 in device memory; the host waits for
 * the stream (aclrtMemcpy is not ordered after stream work, so without the
 * wait the copy could read the buffer before the kernel wrote it), copies
 * the buffer back with the synchronous aclrtMemcpy (DEVICE_TO_HOST) and
 * prints it. The kernel's own "Source data" line is printed last: the
 * runtime prints what kernels printed at the device reset.
 *
 * Usage: 3_d2h_sync_memory_copy [path/to/libexample_kernels.so]
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

    /* The source value is written on the device, by a kernel. */
    WriteDo(blockDim, stream, devPtrB, writeValue);
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)devPtrB);

    /* The kernel must have run before the copy below reads its result. */
    CHECK_ERROR(aclrtSynchronizeStream(stream));

    CHECK_ERROR(aclrtMemcpy(hostPtrA, size, devPtrB, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)devPtrB, (void *)hostPtrA);

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
