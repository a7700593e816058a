/*
 * 0_ipcevent - the CANN runtime sample
 * example/2_advanced_features/ipcevent/0_ipcevent, in C on aclcpu.
 *
 * Process A (producer) creates an ACL_EVENT_IPC event, records it, and
 * hands its handle to Process B through a file. B (consumer) opens the
 * event, makes its stream wait on it, records it itself and says so with a
 * flag file; A waits for that flag, then cleans up. B pauses where the
 * vendor's "does some work" (2 s there, 0.2 s here).
 *
 * Usage: 0_ipcevent proc_a|proc_b (ipc_pair starts both).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <acl/acl.h>

#include "../utils.h"
#include "ipc_common.h"

#define EVENT_HANDLE_FILE "./event_handle.bin"
#define EVENT_HANDLE_DONE "./event_handle.bin.done"
#define DONE_FILE "./consumer_done.flag"

static int proc_a(void)
{
    int32_t deviceId = 0;
    aclrtStream stream = NULL;
    aclrtEvent ipcEvent = NULL;
    aclrtEventRecordedStatus status;
    aclrtIpcEventHandle handle;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateStream(&stream));

    /* 1. An event that can be shared between processes */
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Process A: IPC event created");

    /* 2. Record it (the producer's own work is done) */
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process A: event recorded and synchronized");

    /* 3. Its status: complete */
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error: expected 1, got %d", (int)status);
        return -1;
    }
    INFO_LOG("Process A: event status = %d (1=completed)", (int)status);

    /* 4. Export its handle (written to a file, in binary) */
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    WriteFile(EVENT_HANDLE_FILE, EVENT_HANDLE_DONE, &handle, sizeof(handle));
    INFO_LOG("Process A: IPC event handle written to %s", EVENT_HANDLE_FILE);

    /* 5. Wait for the consumer (its flag file) */
    INFO_LOG("Process A: waiting for consumer to finish...");
    if (WaitForFile(DONE_FILE) != 0)
        return -1;
    INFO_LOG("Process A: consumer finished");

    /* 6. Clean up */
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    remove(EVENT_HANDLE_FILE);
    remove(EVENT_HANDLE_DONE);
    remove(DONE_FILE);
    INFO_LOG("Process A: cleanup completed");
    return 0;
}

static int proc_b(void)
{
    int32_t deviceId = 0;
    aclrtStream stream = NULL;
    aclrtEvent ipcEvent = NULL;
    aclrtEventRecordedStatus status;
    aclrtIpcEventHandle handle;
    struct timespec work = {0, 200000000};
    FILE *fp;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateStream(&stream));

    /* 1. Wait for the producer's handle file, 2. read it */
    INFO_LOG("Process B: waiting for event handle file...");
    if (ReadFile(EVENT_HANDLE_FILE, EVENT_HANDLE_DONE, &handle, sizeof(handle)) != (long)sizeof(handle)) {
        ERROR_LOG("Failed to read %s", EVENT_HANDLE_FILE);
        return -1;
    }
    INFO_LOG("Process B: read event handle");

    /* 3. Open the IPC event */
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Process B: IPC event opened");

    /* 4. Wait for it on the stream (the producer's record) */
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Process B: event received, stream synchronized");

    /* 5. The consumer's own work */
    INFO_LOG("Process B: doing some work...");
    nanosleep(&work, NULL);

    /* 6. Record the event for the producer */
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));
    INFO_LOG("Process B: event recorded");

    /* 7. Its status: complete */
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Process B: event status = %d (1=completed)", (int)status);
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error");
        return -1;
    }

    /* 8. Tell the producer */
    fp = fopen(DONE_FILE, "w");
    if (fp != NULL) {
        fprintf(fp, "done");
        fclose(fp);
    }
    INFO_LOG("Process B: completion flag created");

    /* 9. Clean up */
    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    INFO_LOG("Process B: cleanup completed");
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
