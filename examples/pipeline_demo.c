/*
 * pipeline_demo - a multi-stream pipeline on aclcpu, the CANN runtime API on
 * a CPU. Four streams, ordered by events, with no host wait until the end:
 *
 *   upload   : copy x host -> device ................ record "uploaded"
 *   computeA : wait "uploaded", y = 2*x + 1 on the first half  -> "doneA"
 *   computeB : wait "uploaded", y = x*x     on the second half -> "doneB"
 *   download : wait "doneA" and "doneB", copy y device -> host
 *
 * computeA and computeB run at the same time, each kernel on several blocks
 * (a block is one core's share; aclcpuGetBlockIdx() says which). The host
 * then checks y against a plain loop. The kernels are registered from this
 * program with aclcpuRegisterKernel; the samples load theirs from a shared
 * library with aclrtBinaryLoadFromFile instead. Exit code 0 means correct.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define N (1u << 20)  /* floats through the pipeline */
#define HALF (N / 2)  /* each compute stream takes one half */
#define BLOCKS 8u     /* blocks per kernel launch */

/* Stops the demo with the failing call, its code and the runtime's message. */
#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError e_ = (call);                                                                           \
        if (e_ != ACL_SUCCESS) {                                                                        \
            const char *m_ = aclGetRecentErrMsg();                                                      \
            fprintf(stderr, "pipeline_demo: %s failed with %d (%s): %s\n", #call, (int)e_,              \
                    aclcpuGetErrorName(e_), m_ != NULL ? m_ : "");                                      \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

/* The kernels' arguments. aclrtLaunchKernel copies these bytes, and each
 * block gets a pointer to the copy. */
struct SliceArgs {
    const float *x; /* input slice, device memory */
    float *y;       /* output slice, device memory */
    uint32_t n;     /* slice length */
    float a, b;     /* AxpbOP: y = a*x + b */
};

/* The part of a slice of n values that the calling block handles. */
static void BlockRange(uint32_t n, uint32_t *begin, uint32_t *end)
{
    uint32_t per = (n + aclcpuGetBlockNum() - 1) / aclcpuGetBlockNum();
    uint32_t first = aclcpuGetBlockIdx() * per;
    *begin = first < n ? first : n;
    *end = n - *begin < per ? n : *begin + per;
}

static void AxpbOP(void *argsCopy) /* y = a*x + b */
{
    const struct SliceArgs *args = argsCopy;
    uint32_t begin, end;
    BlockRange(args->n, &begin, &end);
    for (uint32_t i = begin; i < end; i++)
        args->y[i] = args->a * args->x[i] + args->b;
}

static void SquareOP(void *argsCopy) /* y = x*x */
{
    const struct SliceArgs *args = argsCopy;
    uint32_t begin, end;
    BlockRange(args->n, &begin, &end);
    for (uint32_t i = begin; i < end; i++)
        args->y[i] = args->x[i] * args->x[i];
}

/* Milliseconds between two completed events. */
static float Ms(aclrtEvent from, aclrtEvent to)
{
    float ms = 0.0f;
    CHECK(aclrtEventElapsedTime(&ms, from, to));
    return ms;
}

/* One line of the summary: stream, what it ran, time. */
static void Row(const char *stream, const char *what, float ms)
{
    printf("  %-9s %-44s %8.3f ms\n", stream, what, (double)ms);
}

int main(void)
{
    enum { UP, A, B, DOWN, NSTREAMS };
    aclrtStream s[NSTREAMS];
    aclrtEvent start[NSTREAMS], done[NSTREAMS]; /* first and last record of each stream */
    aclrtFuncHandle axpb, square;
    float *hostX, *hostY, *devX, *devY;
    const size_t bytes = (size_t)N * sizeof(float);

    /* Set up: device 0, its streams and events, memory, kernels. */
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    for (int i = 0; i < NSTREAMS; i++) {
        CHECK(aclrtCreateStream(&s[i]));
        CHECK(aclrtCreateEvent(&start[i]));
        CHECK(aclrtCreateEvent(&done[i]));
    }
    CHECK(aclrtMallocHost((void **)&hostX, bytes));
    CHECK(aclrtMallocHost((void **)&hostY, bytes));
    CHECK(aclrtMalloc((void **)&devX, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&devY, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclcpuRegisterKernel("AxpbOP", AxpbOP, &axpb));
    CHECK(aclcpuRegisterKernel("SquareOP", SquareOP, &square));
    /* For the race checker (ACLCPU_CHECK=1): each kernel reads its x slice
     * and writes its y slice, nothing else; without this it would take
     * every pointer argument as the whole buffer, read and written. */
    CHECK(aclcpuCheckDeclareArg(axpb, 0, ACLCPU_CHECK_READ, HALF * sizeof(float), -1));
    CHECK(aclcpuCheckDeclareArg(axpb, 1, ACLCPU_CHECK_WRITE, HALF * sizeof(float), -1));
    CHECK(aclcpuCheckDeclareArg(square, 0, ACLCPU_CHECK_READ, HALF * sizeof(float), -1));
    CHECK(aclcpuCheckDeclareArg(square, 1, ACLCPU_CHECK_WRITE, HALF * sizeof(float), -1));
    for (uint32_t i = 0; i < N; i++)
        hostX[i] = (float)(i % 1000) * 0.5f; /* halves: every result below is exact in float */

    /* upload: the copy, between two records. done[UP] is "uploaded". */
    CHECK(aclrtRecordEvent(start[UP], s[UP]));
    CHECK(aclrtMemcpyAsync(devX, bytes, hostX, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s[UP]));
    CHECK(aclrtRecordEvent(done[UP], s[UP]));

    /* computeA and computeB: wait for the upload, then one kernel each on
     * their half. The waits are queued on the device side; the host goes on. */
    struct SliceArgs argsA = {devX, devY, HALF, 2.0f, 1.0f};
    struct SliceArgs argsB = {devX + HALF, devY + HALF, N - HALF, 0.0f, 0.0f};
    CHECK(aclrtStreamWaitEvent(s[A], done[UP]));
    CHECK(aclrtRecordEvent(start[A], s[A]));
    CHECK(aclrtLaunchKernel(axpb, BLOCKS, &argsA, sizeof(argsA), s[A]));
    CHECK(aclrtRecordEvent(done[A], s[A]));
    CHECK(aclrtStreamWaitEvent(s[B], done[UP]));
    CHECK(aclrtRecordEvent(start[B], s[B]));
    CHECK(aclrtLaunchKernel(square, BLOCKS, &argsB, sizeof(argsB), s[B]));
    CHECK(aclrtRecordEvent(done[B], s[B]));

    /* download: wait for both computes, copy y back. */
    CHECK(aclrtStreamWaitEvent(s[DOWN], done[A]));
    CHECK(aclrtStreamWaitEvent(s[DOWN], done[B]));
    CHECK(aclrtRecordEvent(start[DOWN], s[DOWN]));
    CHECK(aclrtMemcpyAsync(hostY, bytes, devY, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s[DOWN]));
    CHECK(aclrtRecordEvent(done[DOWN], s[DOWN]));

    /* The only host wait: the end of the download stream. */
    CHECK(aclrtSynchronizeStream(s[DOWN]));

    /* What ran where, and for how long (from the events' timestamps). */
    char what[2][64];
    snprintf(what[0], sizeof(what[0]), "AxpbOP y = 2*x + 1 on values [0, %u)", HALF);
    snprintf(what[1], sizeof(what[1]), "SquareOP y = x*x on values [%u, %u)", HALF, N);
    printf("pipeline_demo: %u floats through 4 streams, kernels on %u blocks each\n", N, BLOCKS);
    Row("upload", "copy x, host -> device", Ms(start[UP], done[UP]));
    Row("computeA", what[0], Ms(start[A], done[A]));
    Row("computeB", what[1], Ms(start[B], done[B]));
    Row("download", "copy y, device -> host (after A and B)", Ms(start[DOWN], done[DOWN]));
    Row("total", "start of upload to end of download", Ms(start[UP], done[DOWN]));

    /* Check every value against a plain loop on the host. */
    int status = 0;
    for (uint32_t i = 0; i < N; i++) {
        float want = i < HALF ? 2.0f * hostX[i] + 1.0f : hostX[i] * hostX[i];
        if (hostY[i] != want) {
            printf("result: WRONG at value %u: got %g, expected %g\n", i, (double)hostY[i], (double)want);
            status = 1;
            break;
        }
    }
    if (status == 0)
        printf("result: correct (%u values checked)\n", N);

    /* Clean up. */
    for (int i = 0; i < NSTREAMS; i++) {
        CHECK(aclrtDestroyEvent(start[i]));
        CHECK(aclrtDestroyEvent(done[i]));
        CHECK(aclrtDestroyStream(s[i]));
    }
    CHECK(aclrtFree(devX));
    CHECK(aclrtFree(devY));
    CHECK(aclrtFreeHost(hostX));
    CHECK(aclrtFreeHost(hostY));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return status;
}
