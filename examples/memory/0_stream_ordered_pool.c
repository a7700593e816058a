/*
 * 0_stream_ordered_pool - a CPU sample for the CANN runtime's
 * example/3_memory_advanced/memory_pool chapter, whose README lists what
 * to learn (the vendor ships no program for it yet): the pool's threshold,
 * reserved and used memory; how stream-ordered allocation and release
 * relate to stream synchronisation; and what a pool gives over
 * aclrtMalloc/aclrtFree.
 *
 * It creates a pool, allocates from it on stream1, uses the memory there,
 * frees it on stream1 behind a task that has not run yet, and shows that
 * stream1 may reuse the block at once while stream2 gets it only after
 * the free has run. Then it trims the pool and prints its counters.
 */
#include <stdatomic.h>
#include <stdint.h>

#include <acl/acl.h>
#include <acl/acl_rt_memory_soma.h>

#include "../utils.h"

#define MIB ((uint64_t)1 << 20)

static uint64_t Attr(aclrtMemPool pool, aclrtMemPoolAttr attr)
{
    uint64_t v = 0;
    CHECK_ERROR_WITHOUT_RETURN(aclrtMemPoolGetAttr(pool, attr, &v));
    return v;
}

static void PrintUsage(aclrtMemPool pool, const char *when)
{
    INFO_LOG("%s: reserved %llu MiB (high %llu MiB), used %llu MiB (high %llu MiB).", when,
             (unsigned long long)(Attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) / MIB),
             (unsigned long long)(Attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH) / MIB),
             (unsigned long long)(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT) / MIB),
             (unsigned long long)(Attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH) / MIB));
}

static _Atomic int gateOpen;

/* A host function that holds its stream until the host opens the gate. */
static void Gate(void *arg)
{
    (void)arg;
    while (!atomic_load(&gateOpen)) {
    }
}

static int Run(aclrtStream stream1, aclrtStream stream2)
{
    aclrtMemPoolProps props = {0};
    aclrtMemPool pool = NULL;
    uint64_t threshold = 32 * MIB;
    void *a = NULL, *b = NULL, *c = NULL;

    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = 64 * MIB;
    CHECK_ERROR(aclrtMemPoolCreate(&pool, &props));
    CHECK_ERROR(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &threshold));
    INFO_LOG("Created a memory pool of at most 64 MiB, release threshold %llu MiB.",
             (unsigned long long)(Attr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD) / MIB));

    CHECK_ERROR(aclrtMemPoolMallocAsync(&a, 3 * MIB, pool, stream1));
    CHECK_ERROR(aclrtMemsetAsync(a, 3 * MIB, 0x5A, 3 * MIB, stream1));
    PrintUsage(pool, "After a 3 MiB allocation (rounded to 2 MiB blocks)");

    atomic_store(&gateOpen, 0);
    CHECK_ERROR(aclrtLaunchHostFunc(stream1, Gate, NULL));
    CHECK_ERROR(aclrtMemPoolFreeAsync(a, stream1));
    PrintUsage(pool, "After the free is issued");
    CHECK_ERROR(aclrtMemPoolMallocAsync(&b, 3 * MIB, pool, stream1));
    INFO_LOG("stream1 reuses the freed block at once: %s.", b == a ? "yes" : "no");
    CHECK_ERROR(aclrtMemPoolFreeAsync(b, stream1));
    CHECK_ERROR(aclrtMemPoolMallocAsync(&c, 3 * MIB, pool, stream2));
    INFO_LOG("stream2 gets it before the free has run: %s.", c == a ? "yes" : "no");
    CHECK_ERROR(aclrtMemPoolFreeAsync(c, stream2));
    atomic_store(&gateOpen, 1);
    CHECK_ERROR(aclrtSynchronizeStream(stream1));
    CHECK_ERROR(aclrtSynchronizeStream(stream2));
    CHECK_ERROR(aclrtMemPoolMallocAsync(&c, 3 * MIB, pool, stream2));
    INFO_LOG("stream2 gets it after stream1 synchronised: %s.", c == a ? "yes" : "no");
    CHECK_ERROR(aclrtMemPoolFreeAsync(c, stream2));
    CHECK_ERROR(aclrtSynchronizeStream(stream2));

    PrintUsage(pool, "After every free ran");
    CHECK_ERROR(aclrtMemPoolTrimTo(pool, 0));
    PrintUsage(pool, "After trimming to 0 bytes");
    CHECK_ERROR(aclrtMemPoolDestroy(pool));
    return 0;
}

int main(void)
{
    aclrtStream stream1 = NULL, stream2 = NULL;
    int result;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    result = Run(stream1, stream2);
    atomic_store(&gateOpen, 1);
    CHECK_ERROR(aclrtDestroyStream(stream1));
    CHECK_ERROR(aclrtDestroyStream(stream2));
    CHECK_ERROR(aclrtResetDeviceForce(0));
    CHECK_ERROR(aclFinalize());
    if (result != 0) {
        ERROR_LOG("Run the memory_pool sample failed.");
        return 1;
    }
    INFO_LOG("Run the memory_pool sample successfully.");
    return 0;
}
