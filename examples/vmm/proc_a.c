/*
 * proc_a.c - Process A of the vendor samples 7_physical_memory_sharing_withpid
 * and 8_physical_memory_sharing_withoutpid (example/1_basic_features/memory):
 * allocates physical memory, maps it, writes 123 to it with a kernel and
 * exports it; with WITH_PID, only Process B (its pid read from a file) may
 * import it. Then it waits for B's completion flag and cleans up.
 *
 * One difference from the vendor's: A synchronizes its stream after the
 * kernel, so that the value is there before B can read it (the vendor's
 * sample relies on the device being done by then).
 */
#include "mem_utils.h"

int main(void)
{
    aclInit(NULL);
    int32_t deviceId = 0;
    aclrtSetDevice(deviceId);
    aclrtStream stream = NULL;
    aclrtCreateStream(&stream);

    const size_t dataSize = 1024 * sizeof(float);
    aclrtPhysicalMemProp prop = {0};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_NORMAL;

    size_t granularity = 0;
    CHECK_ERROR(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
    INFO_LOG("Process A: get memory allocation granularity successfully, granularity = %d", (int32_t)granularity);

    size_t alignedSize = ((dataSize + granularity - 1) / granularity) * granularity;
    INFO_LOG("Process A: aligned size = %zu", alignedSize);

    aclrtDrvMemHandle handle = NULL;
    CHECK_ERROR(aclrtMallocPhysical(&handle, alignedSize, &prop, 0));
    INFO_LOG("Process A: allocate physical memory successfully");

    void *virPtr;
    CHECK_ERROR(aclrtReserveMemAddress(&virPtr, granularity, 0, NULL, 0));
    INFO_LOG("Process A: reserve virtual memory successfully");

    CHECK_ERROR(aclrtMapMem(virPtr, granularity, 0, handle, 0));
    INFO_LOG("Process A: map virtual memory address to physical memory handle");

    aclrtMemAccessDesc accessDesc = {0};
    accessDesc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    accessDesc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    accessDesc.location.id = (uint32_t)deviceId;
    CHECK_ERROR(aclrtMemSetAccess(virPtr, granularity, &accessDesc, 1));
    INFO_LOG("Process A: set memory access permissions successfully");

    const uint32_t blockDim = 1;
    int writeValue = 123;
    WriteDo(blockDim, stream, (int *)virPtr, writeValue);
    CHECK_ERROR(aclrtSynchronizeStream(stream));
#ifdef WITH_PID
    INFO_LOG("Write data %d to the virtual address %p", writeValue, virPtr);
#else
    INFO_LOG("Write the data %d to the virtual address %p", writeValue, virPtr);
#endif

    uint64_t shareableHandle = 0;
#ifdef WITH_PID
    CHECK_ERROR(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareableHandle));
#else
    CHECK_ERROR(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 1, &shareableHandle));
#endif
    INFO_LOG("Process A: export a shareable handle successfully, shareable handle = %d", (int32_t)shareableHandle);

#ifdef WITH_PID
    int32_t pid = 0;
    ReadFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
    INFO_LOG("Process A: get Process B's pid successfully, Process B's pid = %d", pid);

    CHECK_ERROR(aclrtMemSetPidToShareableHandle(shareableHandle, &pid, 1));
    INFO_LOG("Process A: add Process B to the whitelist successfully");
#endif

    WriteFile("file/handle.bin", "file/handle.bin.done", &shareableHandle, sizeof(shareableHandle));

    int32_t flag = 0;
    ReadFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag));
    INFO_LOG("Process A: receive the completion signal from Process B, completion signal = %d", flag);

    CHECK_ERROR(aclrtUnmapMem(virPtr));
    INFO_LOG("Process A: unmap virtual memory from physical memory");

    CHECK_ERROR(aclrtReleaseMemAddress(virPtr));
    CHECK_ERROR(aclrtFreePhysical(handle));
    INFO_LOG("Process A: release the virtual and physical memory successfully");

    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}
