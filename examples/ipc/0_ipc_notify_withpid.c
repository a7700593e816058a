/*
 * 0_ipc_notify_withpid - the CANN runtime sample
 * example/2_advanced_features/notify/0_ipc_notify_withpid, in C on aclcpu.
 *
 * Process A (device 2) shares 1 MiB of device memory and a notify with
 * Process B (device 3), puts B's pid on the notify's allow-list, and queues
 * on its stream a wait on the notify, then a kernel that reads the memory.
 * B writes 123 there with a kernel, then records the notify: A's read runs
 * only after B's write, and prints 123. The memory key is exported without
 * the pid check (flag 1), as the vendor's sample does.
 *
 * Needs four devices (ACLCPU_DEVICE_COUNT=4). B pauses before it writes,
 * to show that A's stream really waits (the vendor's 5 s; 0.2 s here).
 *
 * Usage: 0_ipc_notify_withpid proc_a|proc_b (ipc_pair starts both).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <string.h>
#include <time.h>

#include <acl/acl.h>

#include "../utils.h"
#include "ipc_common.h"

#ifndef IPC_NOTIFY_WITHOUT_PID
#define IPC_NOTIFY_WITHOUT_PID 0
#endif

static int proc_a(void)
{
    int32_t deviceId = 2, peerDeviceId = 3, canAccessPeer = 0;
    aclrtStream stream = NULL;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    /* Check if data interaction is supported between the target devices */
    CHECK_ERROR(aclrtDeviceCanAccessPeer(&canAccessPeer, deviceId, peerDeviceId));
    if (canAccessPeer == 1) {
        uint64_t size = 1 * 1024 * 1024;
        int32_t *devPtr = NULL;
        char memName[256] = "name", notifyName[256] = "name";
        size_t lenName = 65;
        aclrtNotify notify = NULL;
        uint32_t blockDim = 1;

        CHECK_ERROR(aclrtDeviceEnablePeerAccess(peerDeviceId, 0));
        INFO_LOG("Process A: enable data interaction between device %d and device %d", deviceId, peerDeviceId);

        CHECK_ERROR(aclrtMalloc((void **)&devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ERROR(aclrtIpcMemGetExportKey(devPtr, size, memName, lenName, 1));
        INFO_LOG("Process A: get a shareable identifier for IPC memory sharing successfully, shareable identifier = %s",
                 memName);
        WriteFile("file/memName.bin", "file/memName.bin.done", memName, strlen(memName));

        CHECK_ERROR(aclrtCreateNotify(&notify, 0));
#if IPC_NOTIFY_WITHOUT_PID
        CHECK_ERROR(aclrtNotifyGetExportKey(notify, notifyName, lenName, 2));
        INFO_LOG("Process A: get a shareable identifier for IPC notify sharing successfully, shareable identifier = %s",
                 notifyName);
#else
        CHECK_ERROR(aclrtNotifyGetExportKey(notify, notifyName, lenName, 0));
        INFO_LOG("Process A: get a shareable identifier for IPC notify sharing successfully, shareable identifier = %s",
                 notifyName);
        {
            /* Read Process B's pid from the file, and add it to the whitelist */
            int32_t pid = 0;
            ReadFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
            INFO_LOG("Process A: get Process B's pid successfully, Process B's pid = %d", pid);
            CHECK_ERROR(aclrtNotifySetImportPid(notify, &pid, 1));
            INFO_LOG("Process A: add Process B to the whitelist successfully");
        }
#endif
        WriteFile("file/notifyName.bin", "file/notifyName.bin.done", notifyName, strlen(notifyName));

        /* Dispatch the waiting task, then a read that must see B's write */
        CHECK_ERROR(aclrtWaitAndResetNotify(notify, stream, 0));
        ReadDo(blockDim, stream, devPtr);

        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtIpcMemClose(memName));
        CHECK_ERROR(aclrtFree(devPtr));
        CHECK_ERROR(aclrtDestroyNotify(notify));
    } else {
        ERROR_LOG("The target devices do not support data interaction");
    }
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return 0;
}

static int proc_b(void)
{
    int32_t deviceId = 3, peerDeviceId = 2, canAccessPeer = 0;
    aclrtStream stream = NULL;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    CHECK_ERROR(aclrtDeviceCanAccessPeer(&canAccessPeer, deviceId, peerDeviceId));
    if (canAccessPeer == 1) {
        char memName[256] = "name", notifyName[256] = "name";
        void *devPtr = NULL;
        aclrtNotify notify = NULL;
        uint32_t blockDim = 1;
        int32_t writeValue = 123;
        struct timespec pause = {0, 200000000};

        CHECK_ERROR(aclrtDeviceEnablePeerAccess(peerDeviceId, 0));
        INFO_LOG("Process B: enable data interaction between device %d and device %d", deviceId, peerDeviceId);

        ReadFile("file/memName.bin", "file/memName.bin.done", memName, sizeof(memName) - 1);
        INFO_LOG("Process B: get the shareable identifier for IPC memory sharing successfully, shareable identifier = "
                 "%s", memName);
        CHECK_ERROR(aclrtIpcMemImportByKey(&devPtr, memName, 0));

#if !IPC_NOTIFY_WITHOUT_PID
        {
            int32_t pid = 0;
            CHECK_ERROR(aclrtDeviceGetBareTgid(&pid));
            INFO_LOG("Process B: get Process B's pid successfully, pid = %d", pid);
            WriteFile("file/pid.bin", "file/pid.bin.done", &pid, sizeof(pid));
        }
#endif

        ReadFile("file/notifyName.bin", "file/notifyName.bin.done", notifyName, sizeof(notifyName) - 1);
        INFO_LOG("Process B: get the shareable identifier for IPC notify sharing successfully, shareable identifier = "
                 "%s", notifyName);
        CHECK_ERROR(aclrtNotifyImportByKey(&notify, notifyName, 0));

        /* Wait a moment to mimic a time-consuming task */
        nanosleep(&pause, NULL);

        WriteDo(blockDim, stream, (int32_t *)devPtr, writeValue);
        INFO_LOG("Process B: write data %d to the device memory %p", writeValue, devPtr);

        /* Record the notify on the stream */
        CHECK_ERROR(aclrtRecordNotify(notify, stream));

        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtIpcMemClose(memName));
        CHECK_ERROR(aclrtDestroyNotify(notify));
    } else {
        ERROR_LOG("The target devices do not support data interaction");
    }
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
