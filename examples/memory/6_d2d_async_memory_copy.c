/*
 * 6_d2d_async_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/6_d2d_async_memory_copy, in C on aclcpu.
 *
 * DeviceWrite stores 123 in one device buffer; an aclrtMemcpyAsync
 * (DEVICE_TO_DEVICE) queued behind it on the same stream copies it into a
 * second buffer; after aclrtSynchronizeStream, DeviceRead prints the
 * second. Stream order keeps the three tasks in sequence. DeviceRead is
 * never waited for: aclrtDestroyStreamForce runs it before the stream
 * goes. Both kernels' lines are printed at the device reset.
 *
 * Usage: 6_d2d_async_memory_copy [path/to/libexample_kernels.so]
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
    int *devPtrA = NULL;
    int *devPtrB = NULL;

    SetKernelLibrary(argc, argv);
    /* Like the vendor's sample, the set-up calls are not checked. */
    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);
    CHECK_ERROR(LoadKernels());

    CHECK_ERROR(aclrtMalloc((void **)&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrA);
    CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrB);

    WriteDo(blockDim, stream, devPtrA, writeValue);
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)devPtrA);

    /* Queued after the kernel on the same stream, so it copies the 123. */
    CHECK_ERROR(aclrtMemcpyAsync(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)devPtrA, (void *)devPtrB);

    /* Unchecked, as in the vendor's sample. */
    aclrtSynchronizeStream(stream);
    ReadDo(blockDim, stream, devPtrB);

    /* Tear down in the vendor's order, results unchecked as there. */
    aclrtDestroyStreamForce(stream);
    aclrtFree(devPtrA);
    aclrtFree(devPtrB);
    UnloadKernels();
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
