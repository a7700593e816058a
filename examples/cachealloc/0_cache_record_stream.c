/*
 * 0_cache_record_stream - two streams sharing a block of aclcpu's caching
 * allocator, with record_stream (docs/allocator-cache.md).
 *
 * A copy stream uploads an input; a compute stream waits for the upload
 * (an event) and sums it in a kernel. The program then frees the input on
 * the copy stream, as a framework frees a tensor when it goes out of
 * scope, and allocates the next input there. Because the compute stream's
 * use was recorded (aclcpuCacheRecordStream, the C form of
 * tensor.record_stream), the freed block is not handed out again while the
 * kernel may still read it; once the compute stream is done, the copy
 * stream gets the block back. The kernel waits for the host's go so that
 * the moment in between can be seen; without it the story is the same,
 * only faster.
 *
 * Usage: 0_cache_record_stream
 */
#include <stdatomic.h>
#include <stdint.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

#define N 4096

struct sum_args {
    const int32_t *in;
    int64_t *out;
    _Atomic int *go;
};

/* One block: waits for the host's go (bounded), then sums the input. */
static void SumKernel(void *args)
{
    struct sum_args *a = args;
    int64_t s = 0;
    for (long spins = 0; !atomic_load(a->go) && spins < 2000000000L; spins++)
        ;
    for (int i = 0; i < N; i++)
        s += a->in[i];
    *a->out = s;
}

int main(void)
{
    int32_t deviceId = 0;
    aclrtStream copy = NULL, compute = NULL;
    aclrtEvent uploaded = NULL;
    aclrtFuncHandle sum = NULL;
    aclcpuCacheStats st;
    static int32_t host[N];
    _Atomic int go = 0;
    void *in = NULL, *next = NULL, *again = NULL, *out = NULL;
    int64_t result = 0, want = 0;
    struct sum_args args;

    for (int i = 0; i < N; i++) {
        host[i] = i % 100;
        want += host[i];
    }
    (void)aclInit(NULL);
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateStream(&copy));
    CHECK_ERROR(aclrtCreateStream(&compute));
    CHECK_ERROR(aclrtCreateEvent(&uploaded));
    CHECK_ERROR(aclcpuRegisterKernel("sum", SumKernel, &sum));

    CHECK_ERROR(aclcpuCacheMalloc(&in, sizeof(host), copy));
    CHECK_ERROR(aclcpuCacheMalloc(&out, sizeof(int64_t), compute));
    CHECK_ERROR(aclrtMemcpyAsync(in, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, copy));
    CHECK_ERROR(aclrtRecordEvent(uploaded, copy));
    CHECK_ERROR(aclrtStreamWaitEvent(compute, uploaded));
    args = (struct sum_args){in, out, &go};
    CHECK_ERROR(aclrtLaunchKernel(sum, 1, &args, sizeof(args), compute));
    INFO_LOG("Input uploaded on the copy stream; the compute stream sums it.");

    CHECK_ERROR(aclcpuCacheRecordStream(in, compute));
    CHECK_ERROR(aclcpuCacheFree(in));
    CHECK_ERROR(aclcpuCacheGetStreamStats(copy, &st));
    INFO_LOG("Input freed on the copy stream after aclcpuCacheRecordStream: %llu block pending.",
             (unsigned long long)st.pendingBlocks);
    CHECK_ERROR(aclcpuCacheMalloc(&next, sizeof(host), copy));
    INFO_LOG("Next input while the kernel may still read the old one: %s block.",
             next == in ? "the same (a race!)" : "another");

    atomic_store(&go, 1);
    CHECK_ERROR(aclrtSynchronizeStream(compute));
    CHECK_ERROR(aclrtMemcpy(&result, sizeof(result), out, sizeof(result), ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Sum %lld (expected %lld).", (long long)result, (long long)want);
    CHECK_ERROR(aclcpuCacheMalloc(&again, sizeof(host), copy));
    INFO_LOG("After the compute stream is done, the copy stream gets %s block.",
             again == in ? "the freed" : "another");

    CHECK_ERROR(aclcpuCacheFree(next));
    CHECK_ERROR(aclcpuCacheFree(again));
    CHECK_ERROR(aclcpuCacheFree(out));
    CHECK_ERROR(aclcpuCacheGetStats(deviceId, &st));
    INFO_LOG("Cache: %llu segments, %llu bytes reserved, peak %llu bytes allocated.",
             (unsigned long long)st.segments, (unsigned long long)st.reservedBytes,
             (unsigned long long)st.peakAllocatedBytes);
    CHECK_ERROR(aclcpuCacheEmpty(deviceId));
    CHECK_ERROR(aclcpuCacheGetStats(deviceId, &st));
    INFO_LOG("After aclcpuCacheEmpty: %llu bytes reserved.", (unsigned long long)st.reservedBytes);

    CHECK_ERROR(aclrtDestroyEvent(uploaded));
    CHECK_ERROR(aclrtDestroyStream(copy));
    CHECK_ERROR(aclrtDestroyStream(compute));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    (void)aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return result == want && again == in && next != in ? 0 : 1;
}
