/*
 * check_classes.c - one small multi-stream program per bug class of the
 * race and lifetime checker (docs/checker.md), each with its corrected twin.
 *
 *   check_classes CLASS bug|fixed
 *
 * CLASS: write_write, write_read, read_write (the three-stream pipeline
 * whose copy stream re-uploads an input the previous step's kernel still
 * reads), host_read, free_in_use, wait_before_record, reset_waited,
 * cache_reuse (a cached block reused without aclcpuCacheRecordStream).
 * Run under ACLCPU_CHECK=1: "bug" draws the class's report and exits 66,
 * "fixed" draws none and exits 0 (CTest: example_check_*).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError e_ = (call);                                                                           \
        if (e_ != ACL_SUCCESS) {                                                                        \
            fprintf(stderr, "check_classes: %s failed with %d: %s\n", #call, (int)e_,                   \
                    aclGetRecentErrMsg());                                                              \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

#define N 1024u

struct scale_args {
    const float *in;
    float *out;
    uint64_t n;
};

static void Scale(void *argsCopy)
{
    const struct scale_args *a = argsCopy;
    for (uint64_t i = aclcpuGetBlockIdx(); i < a->n; i += aclcpuGetBlockNum())
        a->out[i] = 2.0f * a->in[i];
}

static aclrtStream s1, s2, s3;
static float *devA, *devB;

/* Orders what from has issued before what to issues next. */
static void edge(aclrtStream from, aclrtStream to)
{
    aclrtEvent e;
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtRecordEvent(e, from));
    CHECK(aclrtStreamWaitEvent(to, e));
    CHECK(aclrtDestroyEvent(e));
}

static void write_write(int fixed)
{
    CHECK(aclrtMemsetAsync(devA, N * sizeof(float), 1, N * sizeof(float), s1));
    if (fixed)
        edge(s1, s2);
    CHECK(aclrtMemsetAsync(devA, N * sizeof(float), 2, N * sizeof(float), s2));
}

static void write_read(int fixed)
{
    CHECK(aclrtMemsetAsync(devA, N * sizeof(float), 1, N * sizeof(float), s1));
    if (fixed)
        edge(s1, s2);
    CHECK(aclrtMemcpyAsync(devB, N * sizeof(float), devA, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
}

/* Copy stream s1 uploads the input, main stream s2 scales it, s3 downloads. */
static void read_write(int fixed)
{
    static float hostIn[N], hostOut[N];
    aclrtFuncHandle k;
    aclrtEvent uploaded, consumed, downloaded;
    CHECK(aclcpuRegisterKernel("Scale", Scale, &k));
    CHECK(aclcpuCheckDeclareArg(k, 0, ACLCPU_CHECK_READ, sizeof(float), 2));
    CHECK(aclcpuCheckDeclareArg(k, 1, ACLCPU_CHECK_WRITE, sizeof(float), 2));
    CHECK(aclrtCreateEvent(&uploaded));
    CHECK(aclrtCreateEvent(&consumed));
    CHECK(aclrtCreateEvent(&downloaded));
    for (int step = 0; step < 3; step++) {
        struct scale_args a = {devA, devB, N};
        if (fixed && step > 0)
            CHECK(aclrtStreamWaitEvent(s1, consumed)); /* the input is free again */
        CHECK(aclrtMemcpyAsync(devA, sizeof(hostIn), hostIn, sizeof(hostIn), ACL_MEMCPY_HOST_TO_DEVICE, s1));
        CHECK(aclrtRecordEvent(uploaded, s1));
        CHECK(aclrtStreamWaitEvent(s2, uploaded));
        if (step > 0)
            CHECK(aclrtStreamWaitEvent(s2, downloaded));
        CHECK(aclrtLaunchKernel(k, 4, &a, sizeof(a), s2));
        CHECK(aclrtRecordEvent(consumed, s2));
        CHECK(aclrtStreamWaitEvent(s3, consumed));
        CHECK(aclrtMemcpyAsync(hostOut, sizeof(hostOut), devB, sizeof(hostOut), ACL_MEMCPY_DEVICE_TO_HOST, s3));
        CHECK(aclrtRecordEvent(downloaded, s3));
    }
    CHECK(aclrtSynchronizeDevice());
}

static void host_read(int fixed)
{
    static float host[N];
    CHECK(aclrtMemsetAsync(devA, N * sizeof(float), 0, N * sizeof(float), s1));
    if (fixed)
        CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtMemcpy(host, sizeof(host), devA, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
}

static void free_in_use(int fixed)
{
    CHECK(aclrtMemsetAsync(devB, N * sizeof(float), 0, N * sizeof(float), s1));
    if (fixed)
        CHECK(aclrtSynchronizeStream(s1));
    CHECK(aclrtFree(devB));
    devB = NULL;
}

static void wait_before_record(int fixed)
{
    aclrtEvent e;
    CHECK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    if (!fixed)
        CHECK(aclrtStreamWaitEvent(s2, e)); /* nothing recorded yet: the wait does nothing */
    CHECK(aclrtMemsetAsync(devA, N * sizeof(float), 1, N * sizeof(float), s1));
    CHECK(aclrtRecordEvent(e, s1));
    if (fixed)
        CHECK(aclrtStreamWaitEvent(s2, e));
    CHECK(aclrtMemcpyAsync(devB, N * sizeof(float), devA, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtDestroyEvent(e));
}

static void reset_waited(int fixed)
{
    aclrtEvent e;
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtRecordEvent(e, s1));
    CHECK(aclrtStreamWaitEvent(s2, e));
    CHECK(aclrtResetEvent(e, fixed ? s2 : s1));
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtDestroyEvent(e));
}

/* A block of the caching allocator, filled on s1 (its stream) and read by
 * a copy on s2, freed and handed out again on s1 at once: its next fill
 * overwrites what s2 may still be reading. Recording s2 (record_stream)
 * makes the allocator hand the block out only after s2's copy. */
static void cache_reuse(int fixed)
{
    void *p = NULL, *q = NULL;
    CHECK(aclcpuCacheMalloc(&p, N * sizeof(float), s1));
    CHECK(aclrtMemsetAsync(p, N * sizeof(float), 1, N * sizeof(float), s1));
    aclrtEvent e;
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtRecordEvent(e, s1));
    CHECK(aclrtStreamWaitEvent(s2, e));
    CHECK(aclrtMemcpyAsync(devB, N * sizeof(float), p, N * sizeof(float), ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    if (fixed)
        CHECK(aclcpuCacheRecordStream(p, s2));
    CHECK(aclcpuCacheFree(p));
    CHECK(aclcpuCacheMalloc(&q, N * sizeof(float), s1));
    CHECK(aclrtMemsetAsync(q, N * sizeof(float), 2, N * sizeof(float), s1));
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclcpuCacheFree(q));
    CHECK(aclrtDestroyEvent(e));
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*run)(int fixed);
    } classes[] = {{"write_write", write_write}, {"write_read", write_read}, {"read_write", read_write},
                   {"host_read", host_read}, {"free_in_use", free_in_use},
                   {"wait_before_record", wait_before_record}, {"reset_waited", reset_waited},
                   {"cache_reuse", cache_reuse}};
    size_t i;
    if (argc != 3 || (strcmp(argv[2], "bug") != 0 && strcmp(argv[2], "fixed") != 0)) {
        fprintf(stderr, "usage: check_classes CLASS bug|fixed\n");
        return 2;
    }
    for (i = 0; i < sizeof(classes) / sizeof(classes[0]) && strcmp(classes[i].name, argv[1]) != 0; i++)
        ;
    if (i == sizeof(classes) / sizeof(classes[0])) {
        fprintf(stderr, "check_classes: unknown class %s\n", argv[1]);
        return 2;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s1));
    CHECK(aclrtCreateStream(&s2));
    CHECK(aclrtCreateStream(&s3));
    CHECK(aclrtMalloc((void **)&devA, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&devB, N * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    classes[i].run(strcmp(argv[2], "fixed") == 0);
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtFree(devA));
    if (devB != NULL)
        CHECK(aclrtFree(devB));
    CHECK(aclrtDestroyStream(s1));
    CHECK(aclrtDestroyStream(s2));
    CHECK(aclrtDestroyStream(s3));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("check_classes %s %s: done\n", argv[1], argv[2]);
    return 0;
}
