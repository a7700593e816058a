/*
 * 9_multistream_sync_memory.c - the CPU version of the runtime sample
 * example/1_basic_features/memory/9_multistream_sync_memory: thread A
 * queues an aclrtValueWait on stream A and synchronises it; a second
 * later thread B writes a flag file, queues an aclrtValueWrite of the
 * awaited value on stream B and synchronises that. Stream A stays parked
 * until B's write, so A's sync returns after B's, and A then reads the
 * flag B wrote before its write.
 *
 * Its expected output (expected/9_multistream_sync_memory.txt) leaves the
 * addresses out, and the order of the last lines of the two threads: once
 * B's write lands, A's stream and B's finish at about the same time, and
 * either sync may return first (the README shows B's first).
 */
#define _DEFAULT_SOURCE /* usleep */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../utils.h"

#define FLAG_PATH "file/flag.txt"

struct job {
    aclrtStream stream;
    int32_t device;
    void *devPtr;
    uint64_t value;
    int result;
};

/* The sample's file helpers (file_ops.cpp): one binary int each way. */
static int WriteFileEx(const char *file, const void *buf, size_t len)
{
    int fd;
    INFO_LOG("Start writing to %s", file);
    (void)mkdir("file", 0755);
    fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH);
    if (fd < 0) {
        ERROR_LOG("Open file %s failed", file);
        return -1;
    }
    if (write(fd, buf, len) != (ssize_t)len)
        ERROR_LOG("Partial write");
    close(fd);
    return 0;
}

static int ReadFileEx(const char *file, void *buf, size_t len)
{
    int fd;
    INFO_LOG("Start reading from %s", file);
    fd = open(file, O_RDONLY);
    if (fd < 0) {
        ERROR_LOG("Open file %s failed", file);
        return -1;
    }
    if (read(fd, buf, len) != (ssize_t)len) {
        ERROR_LOG("Partial read");
        close(fd);
        return -1;
    }
    INFO_LOG("Read data successfully");
    close(fd);
    return 0;
}

static int ThreadWait(struct job *j)
{
    int32_t waitFlag = 0;
    aclrtSetDevice(j->device);
    CHECK_ERROR(aclrtValueWait(j->devPtr, j->value, ACL_STREAM_WAIT_VALUE_EQ, j->stream));
    INFO_LOG("Stream A: wait for data at virtual memory = %p to meet the condition", j->devPtr);
    CHECK_ERROR(aclrtSynchronizeStream(j->stream));
    INFO_LOG("Stream A: the data in the specified memory has met the condition, all tasks are complete");
    (void)ReadFileEx(FLAG_PATH, &waitFlag, sizeof(waitFlag));
    INFO_LOG("Flag value read by the waiting thread: %d", waitFlag);
    return 0;
}

static int ThreadWrite(struct job *j)
{
    int32_t writeFlag = 123;
    (void)WriteFileEx(FLAG_PATH, &writeFlag, sizeof(writeFlag));
    INFO_LOG("Flag value after the writing thread starts: %d", writeFlag);
    aclrtSetDevice(j->device);
    CHECK_ERROR(aclrtValueWrite(j->devPtr, j->value, 0, j->stream));
    INFO_LOG("Stream B: write data at virtual memory = %p", j->devPtr);
    CHECK_ERROR(aclrtSynchronizeStream(j->stream));
    INFO_LOG("Stream B: the data in the specified memory has met the condition, all tasks are complete");
    return 0;
}

static void *RunWait(void *arg)
{
    struct job *j = arg;
    j->result = ThreadWait(j);
    return NULL;
}

static void *RunWrite(void *arg)
{
    struct job *j = arg;
    j->result = ThreadWrite(j);
    return NULL;
}

int main(void)
{
    int32_t deviceId = 0;
    uint64_t size = 1 * 1024 * 1024;
    void *devPtrA = NULL;
    aclrtStream streamA = NULL, streamB = NULL;
    pthread_t threadA, threadB;
    struct job a, b;

    aclInit(NULL);
    aclrtSetDevice(deviceId);
    CHECK_ERROR(aclrtMalloc(&devPtrA, size, ACL_MEM_MALLOC_HUGE_FIRST));
    INFO_LOG("Allocate memory on the device successfully");
    CHECK_ERROR(aclrtCreateStream(&streamA));
    INFO_LOG("Create Stream A successfully");
    CHECK_ERROR(aclrtCreateStream(&streamB));
    INFO_LOG("Create Stream B successfully");

    a = (struct job){streamA, deviceId, devPtrA, 100, 0};
    pthread_create(&threadA, NULL, RunWait, &a);
    (void)usleep(1000000);
    b = (struct job){streamB, deviceId, devPtrA, 100, 0};
    pthread_create(&threadB, NULL, RunWrite, &b);

    pthread_join(threadB, NULL);
    pthread_join(threadA, NULL);

    aclrtDestroyStreamForce(streamA);
    aclrtDestroyStreamForce(streamB);
    aclrtFree(devPtrA);
    aclrtResetDeviceForce(deviceId);
    aclFinalize();
    return a.result != 0 || b.result != 0;
}
