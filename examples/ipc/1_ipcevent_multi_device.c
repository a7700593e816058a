/*
 * 1_ipcevent_multi_device - the CANN runtime sample
 * example/2_advanced_features/ipcevent/1_ipcevent_multi_device, in C on
 * aclcpu: its three programs and its run.sh in one executable.
 *
 *   1_ipcevent_multi_device precheck <required_device_count>   (precheck.cpp)
 *   1_ipcevent_multi_device producer <number_of_consumers>     (proc_a.cpp)
 *   1_ipcevent_multi_device consumer <device_id> <consumer_id> (proc_b.cpp)
 *   1_ipcevent_multi_device                                    (run.sh)
 *
 * The producer, on device 0, creates an IPC event (aclrtCreateEventExWithFlag
 * with ACL_EVENT_IPC), records it and waits for it, checks its status,
 * exports it (aclrtIpcGetEventHandle) to ./event_handle.bin and waits for
 * each consumer's ./consumer_<i>.done. Consumer i, in another process on
 * device i, opens the handle (aclrtIpcOpenEventHandle), makes its stream
 * wait for the event, "works" for a second, records the event itself,
 * checks its status and leaves its .done file. Each process resets only its
 * own device (aclrtResetDevice).
 *
 * Without arguments the program does what run.sh does, in the working
 * directory: removes stale files, runs the precheck (fewer than
 * CONSUMER_NUM + 1 devices: it prints [SKIP] and the run ends with 0), starts
 * the producer and the consumers at once and gives the verdict from the
 * producer's output. run.sh's tee interleaves the processes' lines as they
 * come; here each process's output is printed whole, the consumers' first,
 * then the producer's, as the README shows them. The README leaves some of
 * the processes' lines out; the expected output has them all. On aclcpu the
 * devices are ACLCPU_DEVICE_COUNT (CTest sets 2).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>

#include "../utils.h"

#define EVENT_HANDLE_FILE "./event_handle.bin"
#define MAX_CONSUMER_NUM 8
#define CONSUMER_NUM 1

/* ---- precheck.cpp ------------------------------------------------------------------------------ */

static int Precheck(int requiredDeviceCount)
{
    if (requiredDeviceCount <= 0) {
        ERROR_LOG("Invalid required device count: %d", requiredDeviceCount);
        return 1;
    }
    CHECK_ERROR(aclInit(NULL));
    uint32_t deviceCount = 0;
    aclError ret = aclrtGetDeviceCount(&deviceCount);
    aclFinalize();
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("Operation failed: aclrtGetDeviceCount returned error code %d", (int)ret);
        return 1;
    }
    INFO_LOG("Available device count: %u, required device count: %d", deviceCount, requiredDeviceCount);
    if (deviceCount < (uint32_t)requiredDeviceCount) {
        INFO_LOG("[SKIP] Need at least %d devices, but only %u device(s) are available.", requiredDeviceCount,
                 deviceCount);
        return 2;
    }
    return 0;
}

/* ---- proc_a.cpp: the producer ------------------------------------------------------------------ */

/* Waits, at most 30 s, for every consumer's .done file. */
static int WaitForConsumers(int expectedCount)
{
    char flagFile[64];
    int completed = 0, elapsed = 0;
    const int timeoutSec = 30;
    while (completed < expectedCount && elapsed < timeoutSec) {
        completed = 0;
        for (int i = 1; i <= expectedCount; ++i) {
            snprintf(flagFile, sizeof(flagFile), "./consumer_%d.done", i);
            if (access(flagFile, F_OK) == 0)
                completed++;
        }
        if (completed < expectedCount) {
            sleep(1);
            elapsed++;
        }
    }
    if (completed == expectedCount) {
        INFO_LOG("All %d consumers have finished.", expectedCount);
        return 0;
    }
    ERROR_LOG("Timeout waiting for consumers. Only %d of %d finished.", completed, expectedCount);
    return -1;
}

static int Producer(int consumerNum)
{
    if (consumerNum <= 0 || consumerNum > MAX_CONSUMER_NUM) {
        ERROR_LOG("Invalid consumer number (1~%d)", MAX_CONSUMER_NUM);
        return -1;
    }
    CHECK_ERROR(aclInit(NULL));
    int32_t deviceId = 0;
    CHECK_ERROR(aclrtSetDevice(deviceId));
    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtCreateEventExWithFlag(&ipcEvent, ACL_EVENT_IPC));
    INFO_LOG("Producer: IPC event created on device %d", (int)deviceId);

    /* The producer's own work, done. */
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));

    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Event status error: expected 1, got %d", (int)status);
        return -1;
    }
    INFO_LOG("Producer: event status = %d (1=completed)", (int)status);

    aclrtIpcEventHandle handle;
    CHECK_ERROR(aclrtIpcGetEventHandle(ipcEvent, &handle));
    /* Written under another name and renamed: the consumers poll for the
     * file and read it at once, and the vendor's sample, which writes it
     * in place, lets one read it half written (a bad handle, 107000). */
    FILE *fp = fopen(EVENT_HANDLE_FILE ".tmp", "wb");
    if (fp == NULL) {
        ERROR_LOG("Failed to create %s", EVENT_HANDLE_FILE);
        return -1;
    }
    fwrite(&handle, sizeof(handle), 1, fp);
    fclose(fp);
    if (rename(EVENT_HANDLE_FILE ".tmp", EVENT_HANDLE_FILE) != 0) {
        ERROR_LOG("Failed to create %s", EVENT_HANDLE_FILE);
        return -1;
    }
    INFO_LOG("Producer: IPC event handle written to %s", EVENT_HANDLE_FILE);

    INFO_LOG("Producer: waiting for %d consumer(s) to finish...", consumerNum);
    if (WaitForConsumers(consumerNum) != 0)
        return -1;

    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();

    remove(EVENT_HANDLE_FILE);
    for (int i = 1; i <= consumerNum; ++i) {
        char flagFile[64];
        snprintf(flagFile, sizeof(flagFile), "./consumer_%d.done", i);
        remove(flagFile);
    }
    INFO_LOG("Producer: finished successfully.");
    return 0;
}

/* ---- proc_b.cpp: a consumer -------------------------------------------------------------------- */

static int Consumer(int32_t deviceId, int consumerId)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    aclrtStream stream = NULL;
    CHECK_ERROR(aclrtCreateStream(&stream));

    INFO_LOG("Consumer %d (device %d): waiting for event handle file...", consumerId, (int)deviceId);
    int timeout = 30;
    while (access(EVENT_HANDLE_FILE, F_OK) != 0 && timeout-- > 0)
        sleep(1);
    if (timeout <= 0) {
        ERROR_LOG("Consumer %d: timeout waiting for %s", consumerId, EVENT_HANDLE_FILE);
        return -1;
    }

    aclrtIpcEventHandle handle;
    FILE *fp = fopen(EVENT_HANDLE_FILE, "rb");
    if (fp == NULL) {
        ERROR_LOG("Consumer %d: failed to open %s", consumerId, EVENT_HANDLE_FILE);
        return -1;
    }
    size_t got = fread(&handle, sizeof(handle), 1, fp);
    fclose(fp);
    (void)got; /* as in the vendor's sample: a short read shows when the handle is opened */
    INFO_LOG("Consumer %d: read event handle", consumerId);

    aclrtEvent ipcEvent = NULL;
    CHECK_ERROR(aclrtIpcOpenEventHandle(handle, &ipcEvent));
    INFO_LOG("Consumer %d: IPC event opened on device %d", consumerId, (int)deviceId);

    /* The stream waits for the producer's record. */
    CHECK_ERROR(aclrtStreamWaitEvent(stream, ipcEvent));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    INFO_LOG("Consumer %d: event received, stream synchronized", consumerId);

    INFO_LOG("Consumer %d: doing some work...", consumerId);
    nanosleep(&(struct timespec){1, 0}, NULL); /* one second, as the sample's usleep */

    /* Recording it again would tell any later waiter (there is none here). */
    CHECK_ERROR(aclrtRecordEvent(ipcEvent, stream));
    CHECK_ERROR(aclrtSynchronizeEvent(ipcEvent));

    aclrtEventRecordedStatus status;
    CHECK_ERROR(aclrtQueryEventStatus(ipcEvent, &status));
    INFO_LOG("Consumer %d: event status = %d (1=completed)", consumerId, (int)status);
    if (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
        ERROR_LOG("Consumer %d: event status error", consumerId);
        return -1;
    }

    char flagFile[64];
    snprintf(flagFile, sizeof(flagFile), "./consumer_%d.done", consumerId);
    fp = fopen(flagFile, "w");
    if (fp != NULL) {
        fprintf(fp, "done");
        fclose(fp);
    }
    INFO_LOG("Consumer %d: completion flag created", consumerId);

    CHECK_ERROR(aclrtDestroyEvent(ipcEvent));
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    INFO_LOG("Consumer %d (device %d) finished successfully.", consumerId, (int)deviceId);
    return 0;
}

/* ---- run.sh -------------------------------------------------------------------------------------- */

#define OUT_CAP 16384

struct Child {
    pid_t pid;
    int fd;
    char out[OUT_CAP];
    size_t len;
    int status;
};

/* Starts this program with args, its stdout into a pipe. */
static int Start(struct Child *c, const char *self, const char *const args[])
{
    int fds[2];
    fflush(stdout); /* nothing of ours is left in a buffer the child copies */
    if (pipe(fds) != 0)
        return -1;
    c->pid = fork();
    if (c->pid < 0)
        return -1;
    if (c->pid == 0) {
        char *argv[5] = {(char *)self, NULL, NULL, NULL, NULL};
        for (int i = 0; i < 3 && args[i] != NULL; i++)
            argv[i + 1] = (char *)args[i];
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execv(self, argv);
        _exit(127);
    }
    close(fds[1]);
    c->fd = fds[0];
    return 0;
}

/* Reads the child's whole output and waits for it. */
static void Finish(struct Child *c)
{
    ssize_t got;
    while ((got = read(c->fd, c->out + c->len, OUT_CAP - 1 - c->len)) > 0)
        c->len += (size_t)got;
    c->out[c->len] = '\0';
    close(c->fd);
    if (waitpid(c->pid, &c->status, 0) != c->pid)
        c->status = -1;
}

static int RunScript(const char *self)
{
    static struct Child precheck, producer, consumers[CONSUMER_NUM];
    char required[16], count[16], device[CONSUMER_NUM][16], id[CONSUMER_NUM][16];

    /* rm -rf *.bin *.done */
    remove(EVENT_HANDLE_FILE);
    for (int i = 1; i <= MAX_CONSUMER_NUM; i++) {
        char flagFile[64];
        snprintf(flagFile, sizeof(flagFile), "./consumer_%d.done", i);
        remove(flagFile);
    }

    snprintf(required, sizeof(required), "%d", CONSUMER_NUM + 1);
    if (Start(&precheck, self, (const char *const[]){"precheck", required, NULL}) != 0)
        return 1;
    Finish(&precheck);
    fputs(precheck.out, stdout);
    if (WIFEXITED(precheck.status) && WEXITSTATUS(precheck.status) == 2)
        return 0;
    if (!WIFEXITED(precheck.status) || WEXITSTATUS(precheck.status) != 0) {
        printf("[ERROR] Device count precheck failed.\n");
        return 1;
    }

    printf("[INFO] Starting producer on device 0, waiting for %d consumer(s)...\n", CONSUMER_NUM);
    snprintf(count, sizeof(count), "%d", CONSUMER_NUM);
    if (Start(&producer, self, (const char *const[]){"producer", count, NULL}) != 0)
        return 1;
    for (int i = 1; i <= CONSUMER_NUM; i++) {
        printf("[INFO] Starting consumer %d on device %d\n", i, i);
        snprintf(device[i - 1], sizeof(device[i - 1]), "%d", i);
        snprintf(id[i - 1], sizeof(id[i - 1]), "%d", i);
        if (Start(&consumers[i - 1], self, (const char *const[]){"consumer", device[i - 1], id[i - 1]}) != 0)
            return 1;
    }
    for (int i = 0; i < CONSUMER_NUM; i++) {
        Finish(&consumers[i]);
        fputs(consumers[i].out, stdout);
    }
    Finish(&producer);
    fputs(producer.out, stdout);

    if (strstr(producer.out, "finished successfully") != NULL) {
        printf("[SUCCESS] IPC event multi-device synchronization works correctly.\n");
        return 0;
    }
    printf("[FAILURE] IPC event multi-device synchronization test failed.\n");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return RunScript("/proc/self/exe");
    if (strcmp(argv[1], "precheck") == 0 && argc == 3)
        return Precheck(atoi(argv[2]));
    if (strcmp(argv[1], "producer") == 0 && argc == 3)
        return Producer(atoi(argv[2])) == 0 ? 0 : 1;
    if (strcmp(argv[1], "consumer") == 0 && argc == 4)
        return Consumer(atoi(argv[2]), atoi(argv[3])) == 0 ? 0 : 1;
    ERROR_LOG("Usage: %s [precheck <required_device_count> | producer <number_of_consumers> | "
              "consumer <device_id> <consumer_id>]",
              argv[0]);
    return 1;
}
