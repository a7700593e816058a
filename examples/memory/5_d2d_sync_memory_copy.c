/*
 * 5_d2d_sync_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/5_d2d_sync_memory_copy, in C on aclcpu.
 *
 * DeviceWrite stores 123 in one device buffer, the synchronous aclrtMemcpy
 * (DEVICE_TO_DEVICE) copies it into a second one, and DeviceRead prints
 * the second. Both kernels print at the device reset, after the host's
 * lines; DeviceRead is never waited for, and aclrtDestroyStreamForce runs
 * it before the stream goes.
 *
 * A race in the vendor's sample, kept here: nothing orders the copy after
 * DeviceWrite. aclrtMemcpy is a driver copy that does not wait for stream
 * work (the reference: ApiImpl::MemCopySync calls the driver directly; the
 * vendor's own 3_d2h_sync_memory_copy synchronizes first for this reason),
 * so the copy may read the buffer before the kernel wrote it and print
 * "Destination data: 0". Its CTest runs with ASCEND_RT_LAUNCH_BLOCKING=1,
 * under which a launch returns only once its kernel has run, so that the
 * check shows what the README shows every time.
 *
 * Usage: 5_d2d_sync_memory_copy [path/to/libexample_kernels.so]
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

    /* Two device buffers of 1 MiB. */
    CHECK_ERROR(aclrtMalloc((void **)&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrA);
    CHECK_ERROR(aclrtMalloc((void **)&devPtrB, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device memory %p successfully", (void *)devPtrB);

    WriteDo(blockDim, stream, devPtrA, writeValue);
    INFO_LOG("Write the data %d to the virtual memory %p", writeValue, (void *)devPtrA);

    /* Not ordered after the kernel above (see the note at the top). */
    CHECK_ERROR(aclrtMemcpy(devPtrB, size, devPtrA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)devPtrA, (void *)devPtrB);

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
