/*
 * 0_h2h_memory_copy - the CANN runtime sample
 * example/1_basic_features/memory/0_h2h_memory_copy, in C on aclcpu.
 *
 * Two page-locked host buffers from aclrtMallocHost: 123 is stored in the
 * first, aclrtMemcpy (HOST_TO_HOST) moves it to the second, and the host
 * reads it back. No kernel is involved; the stream is made and force
 * destroyed only as the vendor's sample does.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

int main(void)
{
    const int32_t deviceId = 0;
    const size_t size = 1024 * 1024;
    const int writeValue = 123;
    aclrtStream stream = NULL;
    int *hostPtrA = NULL;
    int *hostPtrB = NULL;
    int readValue;

    /* Like the vendor's sample, the set-up calls are not checked. */
    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    /* Two host buffers of 1 MiB each. */
    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrA, size));
    INFO_LOG("Allocate memory on the host memory %p successfully", (void *)hostPtrA);
    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrB, size));
    INFO_LOG("Allocate memory on the host memory %p successfully", (void *)hostPtrB);

    /* The source value goes in by a plain store. */
    *hostPtrA = writeValue;
    INFO_LOG("Write the data %d to the virtual address %p", writeValue, (void *)hostPtrA);
    INFO_LOG("Source data: %d", writeValue);

    /* The whole buffer is copied; the call returns when the copy is done. */
    CHECK_ERROR(aclrtMemcpy(hostPtrB, size, hostPtrA, size, ACL_MEMCPY_HOST_TO_HOST));
    INFO_LOG("Copy memory from memory %p to memory %p", (void *)hostPtrA, (void *)hostPtrB);

    readValue = *hostPtrB;
    INFO_LOG("Destination data: %d", readValue);

    /* Tear down in the vendor's order, results unchecked as there. */
    aclrtDestroyStreamForce(stream);
    aclrtFreeHost(hostPtrA);
    aclrtFreeHost(hostPtrB);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
