/*
 * 10_ipc_memory_withpid - the CANN runtime sample
 * example/1_basic_features/memory/10_ipc_memory_withpid, in C on aclcpu.
 *
 * Process A allocates device memory, writes 123 there with a kernel and
 * exports the memory under a key; only Process B, whose pid A puts on the
 * key's allow-list, may import it. B maps it and reads 123 with a kernel.
 * The two processes hand each other the pid, the key and a completion flag
 * through files under file/ (ipc_common.c).
 *
 * Usage: 10_ipc_memory_withpid proc_a|proc_b (ipc_pair starts both).
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"
#include "ipc_common.h"

static int proc_a(void)
{
    int32_t deviceId = 0, pid = 0, flag = 0, writeValue = 123;
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
    CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, memName, lenName, 0));
    INFO_LOG("Process A: get the shareable memory identifier %s successfully", memName);

    /* Read Process B's pid from the file */
    ReadFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
    INFO_LOG("Process A: get Process B's pid successfully, Process B's pid = %d", pid);

    /* Add Process B to the whitelist */
    CHECK_ERROR(aclrtIpcMemSetImportPid(memName, &pid, 1));
    INFO_LOG("Process A: add Process B to the whitelist successfully");

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
    int32_t deviceId = 0, pid = 0, flag = 1;
    uint32_t blockDim = 1;
    char memName[256] = "name";
    void *devPtr = NULL;
    aclrtStream stream = NULL;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    /* Get Process B's pid */
    CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
    INFO_LOG("Process B: get Process B's pid successfully");

    /* Write Process B's pid to the file */
    WriteFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
    INFO_LOG("Process B: write Process B's pid to the file successfully, Process B's pid = %d", pid);

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
