/*
 * planted_race - a two-stream program with a planted race, for
 * `aclcpu stress` (docs/multistream.md, "Seeded schedules").
 *
 * A kernel on the producer stream fills a device buffer with 1..N; the
 * consumer stream copies the buffer to the host and the program prints its
 * sum. Nothing orders the copy after the kernel, so the sum depends on
 * which runs first: on a device it is right most of the time and wrong
 * now and then. With --fixed the producer records an event after the
 * kernel and the consumer waits on it (the guide's fix), and the sum is
 * always N (N + 1) / 2.
 *
 *   aclcpu stress -n 20 -- planted_race           # some seeds print another sum
 *   aclcpu stress -n 20 -- planted_race --fixed   # every seed prints 8390656
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define N 4096

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError e_ = (call);                                                                           \
        if (e_ != ACL_SUCCESS) {                                                                        \
            fprintf(stderr, "planted_race: %s failed with %d: %s\n", #call, (int)e_, aclGetRecentErrMsg()); \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

/* Fills the buffer its argument points at with 1..N (one block). */
static void fill(void *args)
{
    int32_t *buf = *(int32_t **)args;
    for (int32_t i = 0; i < N; i++)
        buf[i] = i + 1;
}

int main(int argc, char **argv)
{
    bool fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
    aclrtStream producer, consumer;
    aclrtEvent filled;
    aclrtFuncHandle k;
    int32_t *dev, *host;
    int64_t sum = 0;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclcpuRegisterKernel("fill", fill, &k));
    CHECK(aclrtCreateStream(&producer));
    CHECK(aclrtCreateStream(&consumer));
    CHECK(aclrtCreateEvent(&filled));
    CHECK(aclrtMalloc((void **)&dev, N * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost((void **)&host, N * sizeof(int32_t)));
    CHECK(aclrtMemset(dev, N * sizeof(int32_t), 0, N * sizeof(int32_t)));

    CHECK(aclrtLaunchKernel(k, 1, &dev, sizeof(dev), producer));
    if (fixed) {
        CHECK(aclrtRecordEvent(filled, producer));
        CHECK(aclrtStreamWaitEvent(consumer, filled));
    }
    CHECK(aclrtMemcpyAsync(host, N * sizeof(int32_t), dev, N * sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST, consumer));
    CHECK(aclrtSynchronizeStream(consumer));
    for (int i = 0; i < N; i++)
        sum += host[i];
    printf("sum %lld\n", (long long)sum);

    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtFreeHost(host));
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyEvent(filled));
    CHECK(aclrtDestroyStream(consumer));
    CHECK(aclrtDestroyStream(producer));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
