/*
 * proc_b.c - Process B of the vendor samples 7_physical_memory_sharing_withpid
 * and 8_physical_memory_sharing_withoutpid: (with WITH_PID, gives A its pid,)
 * imports A's shareable handle, maps it, reads the value A wrote, and tells A
 * it is done.
 */
#include "mem_utils.h"

int main(void)
{
    aclInit(NULL);
    int32_t deviceId = 0;
    aclrtSetDevice(deviceId);
    aclrtStream stream = NULL;
    aclrtCreateStream(&stream);

#ifdef WITH_PID
    int32_t pid = 0;
    CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
    INFO_LOG("Process B: get Process B's pid successfully");

    WriteFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
    INFO_LOG("Process B: write Process B's pid to the file successfully, Process B's pid = %d", pid);
#endif

    uint64_t shareableHandle = 0;
    aclrtDrvMemHandle handle = NULL;
    ReadFile("file/handle.bin", "file/handle.bin.done", &shareableHandle, sizeof(shareableHandle));
    INFO_LOG("Process B: get a shareable handle successfully, shareable handle = %d", (int32_t)shareableHandle);

    CHECK_ERROR(aclrtMemImportFromShareableHandle(shareableHandle, deviceId, &handle));

    aclrtPhysicalMemProp prop = {0};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_NORMAL;

    size_t granularity = 0;
    CHECK_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    INFO_LOG("Process B: get memory allocation granularity successfully, granularity = %d", (int32_t)granularity);

    void *virPtr = NULL;
    CHECK_ERROR(aclrtReserveMemAddress(&virPtr, granularity, 0, NULL, 0));
    INFO_LOG("Process B: reserve virtual memory successfully");

    CHECK_ERROR(aclrtMapMem(virPtr, granularity, 0, handle, 0));
    INFO_LOG("Process B: map virtual memory address to physical memory handle");

    aclrtMemAccessDesc accessDesc = {0};
    accessDesc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    accessDesc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    accessDesc.location.id = (uint32_t)deviceId;
    CHECK_ERROR(aclrtMemSetAccess(virPtr, granularity, &accessDesc, 1));
    INFO_LOG("Process B: set memory access permissions successfully");

    int *hostPtrA;
    CHECK_ERROR(aclrtMallocHost((void **)&hostPtrA, granularity));
    CHECK_ERROR(aclrtMemcpy(hostPtrA, granularity, virPtr, granularity, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Process B: copy memory from device address %p to host address %p", virPtr, (void *)hostPtrA);

    int readValue = *hostPtrA;
    INFO_LOG("Destination data: %d", readValue);

    CHECK_ERROR(aclrtUnmapMem(virPtr));
    INFO_LOG("Process B: unmap virtual memory from physical memory");

    int32_t flag = 1;
    WriteFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag));
#ifdef WITH_PID
    INFO_LOG("Process B: complete physical memory sharing");
#else
    INFO_LOG("Process B: complete the physical memory sharing");
#endif

    CHECK_ERROR(aclrtReleaseMemAddress(virPtr));
    CHECK_ERROR(aclrtFreePhysical(handle));
    INFO_LOG("Process B: release the virtual and physical memory successfully");

    aclrtDestroyStreamForce(stream);
    aclrtFreeHost(hostPtrA);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
