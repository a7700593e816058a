/*
 * 11_ipc_memory_withoutpid - the CANN runtime sample
 * example/1_basic_features/memory/11_ipc_memory_withoutpid, in C on aclcpu.
 *
 * As 10_ipc_memory_withpid, but Process A exports the key with
 * ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION: any process of the
 * user may import it, so no pid changes hands.
 *
 * Usage: 11_ipc_memory_withoutpid proc_a|proc_b (ipc_pair starts both).
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"
#include "ipc_common.h"

static int proc_a(void)
{
    int32_t deviceId = 0, flag = 0, writeValue = 123;
    uint64_t size = 1 * 1024 * 1024;
    uint32_t blockDim = 1;
    size_t lenName = 65;
    char memName[256] = "name";
    int32_t *devPtr;
    aclrtStream stream = NULL;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    /* Allocate memory on the device */
    CHECK_ERROR(aclrtMalloc((void **)&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device %p successfully", (void *)devPtr);

    WriteDo(blockDim, stream, devPtr, writeValue);
    /* On the device the write is done long before B reads; a busy host may
     * not have run it yet, and the vendor's sample never waits for it. */
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Write data %d to the device address %p", writeValue, (void *)devPtr);

    /* Export the shareable memory identifier */
    CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, memName, lenName, 1));
    INFO_LOG("Process A: get the shareable memory identifier %s successfully", memName);

    /* Transfer the shareable memory identifier to Process B by writing it to the file */
    WriteFile("file/memName.bin", "file/memName.bin.done", memName, strlen(memName));

    /* Read the completion flag from the file */
    ReadFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag));
    INFO_LOG("Process A: receive the completion signal from Process B, completion signal = %d", flag);

    /* Release memory resources */
    CHECK_ERROR(aclrtIpcMemClose(memName));

    aclrtDestroyStreamForce(stream);
    aclrtFree(devPtr);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

static int proc_b(void)
{
    int32_t deviceId = 0, flag = 1;
    uint32_t blockDim = 1;
    char memName[256] = "name";
    void *devPtr = NULL;
    aclrtStream stream = NULL;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    /* Get the shareable memory identifier from the file */
    ReadFile("file/memName.bin", "file/memName.bin.done", memName, sizeof(memName) - 1);
    INFO_LOG("Process B: get the shareable memory identifier successfully, shareable identifier = %s", memName);

    /* Return a device memory pointer accessible to Process B */
    CHECK_ERROR(aclrtIpcMemImportByKey(&devPtr, memName, 0));

    ReadDo(blockDim, stream, (int32_t *)devPtr);
    CHECK_ERROR(aclrtSynchronizeStream(stream)); /* the device prints at the sync; so do we, before the flag */

    /* Write the completion flag to the file */
    WriteFile("file/flag.bin", "file/flag.bin.done", &flag, sizeof(flag));
    INFO_LOG("Process B: complete ipc memory sharing");

    /* Release memory resources */
    CHECK_ERROR(aclrtIpcMemClose(memName));

    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "proc_a") == 0)
        return proc_a();
    if (argc > 1 && strcmp(argv[1], "proc_b") == 0)
        return proc_b();
    ERROR_LOG("usage: %s proc_a|proc_b", argv[0]);
    return 2;
}
