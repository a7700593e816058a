/*
 * test_cachealloc.c - the stream-ordered caching allocator (aclcpuCache*,
 * aclcpu/aclcpu.h; core/cachealloc.c).
 *
 * Rules (the framework's caching allocator, torch_npu's, in C): a freed
 * block is reused on its own stream at once and never by another stream;
 * a block whose other users were recorded (record_stream) waits until each
 * has done the work queued to it at the free; erase_stream takes a user
 * off, also after the free; sizes round to 512 bytes, small requests
 * (<= 1 MiB) come from 2 MiB segments, larger ones below 10 MiB from
 * 20 MiB segments, the rest from segments rounded to 2 MiB; blocks split
 * when the rest is worth keeping and merge with free neighbours; counters
 * per device and per stream; an empty gives free segments back to device
 * memory; bad arguments get the project's codes and messages.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)

static aclcpuCacheStats dev_stats(void)
{
    aclcpuCacheStats st;
    ASSERT_OK(aclcpuCacheGetStats(0, &st));
    return st;
}

static aclcpuCacheStats stream_stats(aclrtStream s)
{
    aclcpuCacheStats st;
    ASSERT_OK(aclcpuCacheGetStreamStats(s, &st));
    return st;
}

static void *cmalloc(size_t n, aclrtStream s)
{
    void *p = NULL;
    ASSERT_OK(aclcpuCacheMalloc(&p, n, s));
    ASSERT(p != NULL);
    return p;
}

static size_t mem_free(void)
{
    size_t f = 0, t = 0;
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return f;
}

/* ---- reuse in stream order -------------------------------------------------------------- */

/* Most cases use two streams of the current device, made after setup and
 * destroyed before teardown. */
static void open_pair(aclrtStream *s1, aclrtStream *s2)
{
    t_setup();
    ASSERT_OK(aclrtCreateStream(s1));
    ASSERT_OK(aclrtCreateStream(s2));
}

static void close_pair(aclrtStream s1, aclrtStream s2)
{
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(cachealloc, a_freed_block_is_reused_on_its_stream_at_once)
{
    aclrtStream s;
    _Atomic int open = 0;
    void *p, *q;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, s);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT(cmalloc(1000, s) == p);
    /* Second occurrence, with the stream busy: its own order keeps the
     * old and the new use apart, so nothing waits. */
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclcpuCacheFree(p));
    q = cmalloc(700, s);
    ASSERT(q == p);
    ASSERT_EQ(dev_stats().segmentAllocations, 1);
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclcpuCacheFree(q));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, another_stream_never_gets_a_streams_cached_block)
{
    aclrtStream s1, s2;
    void *p, *q;
    open_pair(&s1, &s2);
    p = cmalloc(4096, s1);
    ASSERT_OK(aclcpuCacheFree(p));
    q = cmalloc(4096, s2); /* s1's whole segment is free, yet s2 gets its own */
    ASSERT(q != p);
    ASSERT_EQ(dev_stats().segments, 2);
    ASSERT_EQ(stream_stats(s2).segments, 1);
    /* Second occurrence, the other way round. */
    ASSERT_OK(aclcpuCacheFree(q));
    ASSERT(cmalloc(4096, s1) == p);
    ASSERT(cmalloc(4096, s2) == q);
    ASSERT_EQ(dev_stats().segmentAllocations, 2);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclcpuCacheFree(q));
    close_pair(s1, s2);
}

/* ---- record_stream ----------------------------------------------------------------------- */

TEST(cachealloc, a_recorded_stream_holds_the_block_until_its_queued_work_is_done)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p, *q;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2); /* s2's work on p: held until the test opens it */
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    ASSERT_EQ(stream_stats(s1).pendingBlocks, 1);
    q = cmalloc(1000, s1);
    ASSERT(q != p); /* not reused while s2 still runs what it was given */
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT(cmalloc(1000, s1) == p); /* s2 is done: back in s1's pool, the best fit */
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclcpuCacheFree(q));
    close_pair(s1, s2);
}

TEST(cachealloc, without_record_stream_the_block_is_reused_at_once)
{
    /* The failing twin: the bug record_stream prevents. s2 still runs on
     * p, yet s1 gets p again at once (the checker reports this reuse). */
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclcpuCacheFree(p));
    close_pair(s1, s2);
}

TEST(cachealloc, every_recorded_stream_must_be_done)
{
    aclrtStream s1, s2, s3;
    _Atomic int open2 = 0, open3 = 0;
    void *p;
    open_pair(&s1, &s2);
    ASSERT_OK(aclrtCreateStream(&s3));
    p = cmalloc(64 * KIB, s1);
    t_launch_flag_gate(&open2, s2);
    t_launch_flag_gate(&open3, s3);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheRecordStream(p, s3));
    ASSERT_OK(aclcpuCacheRecordStream(p, s3)); /* twice: one use */
    ASSERT_OK(aclcpuCacheRecordStream(p, s1)); /* its own stream: nothing to wait for */
    ASSERT_OK(aclcpuCacheFree(p));
    atomic_store(&open2, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(dev_stats().pendingBlocks, 1); /* s3 still runs */
    ASSERT(cmalloc(64 * KIB, s1) != p);
    atomic_store(&open3, 1);
    ASSERT_OK(aclrtSynchronizeStream(s3));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(64 * KIB, s1) == p);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    t_teardown();
}

TEST(cachealloc, a_recorded_stream_with_nothing_queued_or_destroyed_holds_nothing)
{
    /* Boundary: the fence is the work queued at the free; none, or a
     * stream destroyed (its work waited for), leaves nothing to wait for. */
    aclrtStream s1, s2, s3;
    void *p;
    open_pair(&s1, &s2);
    ASSERT_OK(aclrtCreateStream(&s3));
    p = cmalloc(1000, s1);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheRecordStream(p, s3));
    ASSERT_OK(aclrtDestroyStream(s3));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p);
    ASSERT_OK(aclcpuCacheFree(p));
    close_pair(s1, s2);
}

TEST(cachealloc, a_recorded_stream_destroyed_after_the_free_releases_the_block)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtDestroyStream(s2)); /* waits for its work */
    ASSERT(cmalloc(1000, s1) == p);
    ASSERT_OK(aclrtDestroyStream(s1));
    t_teardown();
}

struct destroyer {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
};

static void *destroy_stream(void *arg)
{
    struct destroyer *d = arg;
    d->rc = aclrtSetCurrentContext(d->ctx);
    if (d->rc == ACL_SUCCESS)
        d->rc = aclrtDestroyStream(d->s); /* waits for the stream's work */
    return NULL;
}

/* Bounded: 1 once stream no longer resolves (its destroy has begun). */
static int wait_dead(aclrtStream s)
{
    uint64_t t0 = t_now_ns();
    aclrtStreamStatus st;
    while (aclrtStreamQuery(s, &st) != ACL_ERROR_RT_INVALID_HANDLE) {
        if (t_now_ns() - t0 > T_SPIN_LIMIT_NS)
            return 0;
        sched_yield();
    }
    return 1;
}

TEST(cachealloc, a_recorded_stream_being_destroyed_holds_the_block_until_its_work_is_drained)
{
    aclrtStream s1;
    struct destroyer d;
    pthread_t th;
    _Atomic int open = 0;
    void *p;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&d.ctx));
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&d.s));
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, d.s);
    ASSERT_OK(aclcpuCacheRecordStream(p, d.s));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(pthread_create(&th, NULL, destroy_stream, &d), 0);
    ASSERT(wait_dead(d.s)); /* dead, but its kernel still runs on p */
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    ASSERT(cmalloc(1000, s1) != p);
    atomic_store(&open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(d.rc);
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p);
    ASSERT_OK(aclrtDestroyStream(s1));
    t_teardown();
}

/* ---- erase_stream ------------------------------------------------------------------------ */

TEST(cachealloc, erase_stream_releases_a_pending_block)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    ASSERT_OK(aclcpuCacheEraseStream(p, s2)); /* after the free: stop waiting for s2 */
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p); /* while s2's gate is still shut */
    /* Second occurrence: erased before the free, it is never waited for. */
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheEraseStream(p, s2));
    ASSERT_OK(aclcpuCacheEraseStream(p, s2)); /* not recorded: nothing to do */
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    close_pair(s1, s2);
}

TEST(cachealloc, erase_stream_keeps_the_other_recorded_streams)
{
    aclrtStream s1, s2, s3;
    _Atomic int open2 = 0, open3 = 0;
    void *p;
    open_pair(&s1, &s2);
    ASSERT_OK(aclrtCreateStream(&s3));
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open2, s2);
    t_launch_flag_gate(&open3, s3);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheRecordStream(p, s3));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclcpuCacheEraseStream(p, s2));
    ASSERT_EQ(dev_stats().pendingBlocks, 1); /* s3 still counts */
    atomic_store(&open3, 1);
    ASSERT_OK(aclrtSynchronizeStream(s3));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    atomic_store(&open2, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    t_teardown();
}

/* ---- sizes, pools, splitting, merging ---------------------------------------------------- */

TEST(cachealloc, requests_round_up_to_512_bytes)
{
    aclrtStream s;
    void *a, *b, *c, *d;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(1, s);
    ASSERT_EQ(dev_stats().allocatedBytes, 512);
    b = cmalloc(512, s);
    ASSERT_EQ(dev_stats().allocatedBytes, 1024);
    c = cmalloc(513, s);
    ASSERT_EQ(dev_stats().allocatedBytes, 2048);
    d = cmalloc(1024, s);
    ASSERT_EQ(dev_stats().allocatedBytes, 3072);
    ASSERT_EQ(dev_stats().requestedBytes, 1 + 512 + 513 + 1024);
    /* Consecutive blocks of one segment, each its rounded size apart. */
    ASSERT_EQ((char *)b - (char *)a, 512);
    ASSERT_EQ((char *)c - (char *)b, 512);
    ASSERT_EQ((char *)d - (char *)c, 1024);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_OK(aclcpuCacheFree(c));
    ASSERT_OK(aclcpuCacheFree(d));
    ASSERT_EQ(dev_stats().allocatedBytes, 0);
    ASSERT_EQ(dev_stats().requestedBytes, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The segment one request of n bytes makes on a fresh stream. */
static uint64_t segment_for(size_t n)
{
    aclrtStream s;
    aclcpuCacheStats st;
    void *p;
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(n, s);
    st = stream_stats(s);
    ASSERT_EQ(st.segments, 1);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT_OK(aclrtDestroyStream(s));
    return st.reservedBytes;
}

TEST(cachealloc, pool_boundaries_give_the_frameworks_segments)
{
    t_setup();
    ASSERT_EQ(segment_for(512), 2 * MIB);
    ASSERT_EQ(segment_for(MIB), 2 * MIB);           /* the largest small request */
    ASSERT_EQ(segment_for(MIB + 1), 20 * MIB);      /* the smallest large one */
    ASSERT_EQ(segment_for(10 * MIB - 512), 20 * MIB);
    ASSERT_EQ(segment_for(10 * MIB - 1), 10 * MIB); /* rounds to 10 MiB: a segment of its own */
    ASSERT_EQ(segment_for(10 * MIB), 10 * MIB);
    ASSERT_EQ(segment_for(10 * MIB + 1), 12 * MIB); /* rounded up to 2 MiB */
    ASSERT_EQ(segment_for(33 * MIB), 34 * MIB);
    t_teardown();
}

TEST(cachealloc, a_small_segment_splits_down_to_512_bytes)
{
    aclrtStream s;
    void *a, *b, *c;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(MIB, s);
    b = cmalloc(MIB - 512, s);
    c = cmalloc(512, s); /* the 512 bytes left: split off, then handed out */
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_EQ((char *)b - (char *)a, (long long)MIB);
    ASSERT_EQ((char *)c - (char *)b, (long long)(MIB - 512));
    ASSERT_EQ(dev_stats().allocatedBytes, 2 * MIB);
    (void)cmalloc(512, s); /* the segment is full: a second one */
    ASSERT_EQ(dev_stats().segments, 2);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, a_large_block_splits_only_when_more_than_1_mib_is_left)
{
    aclrtStream s;
    void *a, *b;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(9 * MIB, s);       /* a 20 MiB segment: 11 MiB left, split off */
    ASSERT_EQ(dev_stats().allocatedBytes, 9 * MIB);
    b = cmalloc(10 * MIB, s);      /* fits the 11 MiB; 1 MiB would be left: not split */
    ASSERT_EQ((char *)b - (char *)a, (long long)(9 * MIB));
    ASSERT_EQ(dev_stats().allocatedBytes, 20 * MIB);
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_OK(aclcpuCacheFree(b));
    b = cmalloc(9 * MIB + 512, s); /* 11 MiB - 9 MiB - 512 left: more than 1 MiB, split */
    ASSERT_EQ(dev_stats().allocatedBytes, 18 * MIB + 512);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, freed_neighbours_merge)
{
    aclrtStream s;
    void *a, *b, *c, *d;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(1024, s);
    b = cmalloc(1024, s);
    c = cmalloc(1024, s);
    d = cmalloc(1024, s);
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_OK(aclcpuCacheFree(a)); /* merges with b after it */
    ASSERT(cmalloc(2048, s) == a);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(c)); /* merges with a+b before it */
    ASSERT(cmalloc(3072, s) == a);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(d)); /* before and after: the whole segment again */
    ASSERT(cmalloc(MIB, s) == a);
    ASSERT(cmalloc(MIB, s) == (char *)a + MIB);
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, the_best_fit_is_the_smallest_free_block)
{
    aclrtStream s;
    void *a, *b, *c, *d;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(4096, s);
    b = cmalloc(512, s);
    c = cmalloc(1024, s);
    d = cmalloc(512, s);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(c));
    ASSERT(cmalloc(1000, s) == c); /* 1024 free at c beats 4096 at a and the segment's rest */
    ASSERT(cmalloc(3000, s) == a);
    (void)b;
    (void)d;
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Two free blocks of the same size: the lower address wins (torch_npu's
 * order: smallest size, then lowest address), whichever was freed last.
 * The live blocks between them keep them from merging. */
TEST(cachealloc, a_best_fit_tie_goes_to_the_lowest_address)
{
    aclrtStream s;
    void *a, *b, *c, *d;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(1024, s);
    b = cmalloc(512, s);
    c = cmalloc(1024, s);
    d = cmalloc(512, s);
    ASSERT((char *)c > (char *)a);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(c)); /* the higher one freed last */
    ASSERT(cmalloc(1024, s) == a);
    ASSERT(cmalloc(1024, s) == c);
    ASSERT_OK(aclcpuCacheFree(c));
    ASSERT_OK(aclcpuCacheFree(a)); /* the lower one freed last */
    ASSERT(cmalloc(1024, s) == a);
    (void)b;
    (void)d;
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- counters ---------------------------------------------------------------------------- */

TEST(cachealloc, stats_count_per_device_and_per_stream)
{
    aclrtStream s1, s2;
    aclcpuCacheStats st;
    void *a, *b, *c;
    open_pair(&s1, &s2);
    st = dev_stats();
    ASSERT_EQ(st.allocatedBytes + st.reservedBytes + st.segments + st.allocations, 0);
    a = cmalloc(3000, s1);          /* 3072 of a 2 MiB segment */
    b = cmalloc(2 * MIB, s2);       /* 2 MiB of a 20 MiB segment */
    c = cmalloc(100, s2);           /* 512 of a 2 MiB segment */
    st = stream_stats(s1);
    ASSERT_EQ(st.allocatedBytes, 3072);
    ASSERT_EQ(st.requestedBytes, 3000);
    ASSERT_EQ(st.reservedBytes, 2 * MIB);
    ASSERT_EQ(st.activeBlocks, 1);
    st = stream_stats(s2);
    ASSERT_EQ(st.allocatedBytes, 2 * MIB + 512);
    ASSERT_EQ(st.reservedBytes, 22 * MIB);
    ASSERT_EQ(st.segments, 2);
    ASSERT_EQ(st.activeBlocks, 2);
    st = dev_stats();
    ASSERT_EQ(st.allocatedBytes, 2 * MIB + 512 + 3072);
    ASSERT_EQ(st.reservedBytes, 24 * MIB);
    ASSERT_EQ(st.allocations, 3);
    ASSERT_EQ(st.segmentAllocations, 3);
    ASSERT_OK(aclcpuCacheFree(b));
    st = dev_stats();
    ASSERT_EQ(st.allocatedBytes, 512 + 3072);
    ASSERT_EQ(st.peakAllocatedBytes, 2 * MIB + 512 + 3072); /* the peak stays */
    ASSERT_EQ(st.activeBlocks, 2);
    ASSERT_EQ(st.reservedBytes, 24 * MIB);                 /* cached, not given back */
    ASSERT_EQ(stream_stats(s2).peakAllocatedBytes, 2 * MIB + 512);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(c));
    ASSERT_OK(aclcpuCacheEmpty(0));
    st = dev_stats();
    ASSERT_EQ(st.reservedBytes, 0);
    ASSERT_EQ(st.peakReservedBytes, 24 * MIB);
    ASSERT_EQ(st.segmentFrees, 3);
    ASSERT_EQ(st.activeBlocks, 0);
    /* A stream that never allocated, and the default stream: zeros. */
    ASSERT_EQ(stream_stats(s1).allocatedBytes, 0);
    ASSERT_EQ(stream_stats(NULL).reservedBytes, 0);
    close_pair(s1, s2);
}

TEST(cachealloc, the_default_stream_has_its_own_pool)
{
    aclrtStream s;
    void *p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, NULL);
    ASSERT_EQ(stream_stats(NULL).activeBlocks, 1);
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT(cmalloc(1000, s) != p);
    ASSERT(cmalloc(1000, NULL) == p);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- empty ------------------------------------------------------------------------------- */

TEST(cachealloc, empty_gives_free_segments_back_to_device_memory)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    size_t before, during;
    void *a, *b, *c;
    open_pair(&s1, &s2);
    before = mem_free();
    a = cmalloc(9 * MIB, s1);  /* 20 MiB */
    b = cmalloc(12 * MIB, s1); /* 12 MiB */
    c = cmalloc(100, s1);      /* 2 MiB */
    during = mem_free();
    ASSERT(before - during >= 34 * MIB);
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_EQ(mem_free(), during); /* cached: still the cache's */
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheRecordStream(c, s2));
    ASSERT_OK(aclcpuCacheFree(c)); /* pending: its segment stays */
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT(before - mem_free() >= 2 * MIB && before - mem_free() < 3 * MIB);
    ASSERT_EQ(dev_stats().reservedBytes, 2 * MIB);
    /* Second occurrence: once s2 is done, the last segment goes too. */
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT_EQ(mem_free(), before);
    ASSERT_EQ(dev_stats().segments, 0);
    ASSERT_OK(aclcpuCacheEmpty(0)); /* nothing left: no-op */
    close_pair(s1, s2);
}

TEST(cachealloc, empty_keeps_a_segment_with_a_live_block)
{
    aclrtStream s;
    void *a, *b;
    size_t during;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(1000, s);
    b = cmalloc(1000, s);
    ASSERT_OK(aclcpuCacheFree(a));
    during = mem_free();
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT_EQ(mem_free(), during);
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT_EQ(dev_stats().segments, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, a_full_device_gives_the_cache_back_and_retries)
{
    aclrtStream s1, s2;
    void *p, *q = NULL;
    setenv("ACLCPU_DEVICE_MEMORY", "64M", 1);
    open_pair(&s1, &s2);
    {
        size_t f = mem_free();
        /* s1 takes most of the memory, frees it: cached, not given back. */
        size_t big = (f - 8 * MIB) / (2 * MIB) * (2 * MIB);
        p = cmalloc(big, s1);
        ASSERT_OK(aclcpuCacheFree(p));
        ASSERT(mem_free() < 8 * MIB + 64);
        /* s2 cannot use s1's segment, but the cache gives it back for s2. */
        ASSERT_OK(aclcpuCacheMalloc(&q, big, s2));
        ASSERT_EQ(stream_stats(s1).reservedBytes, 0);
        ASSERT_EQ(dev_stats().segmentFrees, 1);
        /* Boundary: nothing cached to give back, no room: 207001. */
        ASSERT_RC(aclcpuCacheMalloc(&p, big, s1), ACL_ERROR_RT_MEMORY_ALLOCATION);
        {
            const char *m = aclGetRecentErrMsg();
            ASSERT_STR_CONTAINS(m, "aclcpuCacheMalloc: ");
            ASSERT_STR_CONTAINS(m, "do not fit in device 0's memory");
        }
    }
    ASSERT_OK(aclcpuCacheFree(q));
    close_pair(s1, s2);
}

/* ---- argument checks --------------------------------------------------------------------- */

TEST(cachealloc, malloc_checks_its_arguments)
{
    aclrtStream s, dead, other;
    void *p = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclcpuCacheMalloc(NULL, 16, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheMalloc: argument 'devPtr' is NULL");
    ASSERT_RC(aclcpuCacheMalloc(&p, 0, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheMalloc: argument 'size' is 0");
    ASSERT_RC(aclcpuCacheMalloc(&p, SIZE_MAX, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'size' (");
    ASSERT_RC(aclcpuCacheMalloc(&p, SIZE_MAX - 2 * MIB + 1, s), ACL_ERROR_INVALID_PARAM); /* the first too large */
    ASSERT_RC(aclcpuCacheMalloc(&p, SIZE_MAX - 2 * MIB, s), ACL_ERROR_RT_MEMORY_ALLOCATION); /* the last checked */
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_RC(aclcpuCacheMalloc(&p, 16, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclcpuCacheMalloc(&p, 16, other), ACL_ERROR_RT_PARAM_INVALID);
    {
        const char *m = aclGetRecentErrMsg();
        ASSERT_STR_CONTAINS(m, "aclcpuCacheMalloc: argument 'stream'");
        ASSERT_STR_CONTAINS(m, "is of device 1, but the current device is 0");
    }
    ASSERT_EQ(dev_stats().allocations, 0);
    /* The happy twin on device 1, its own device. */
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclcpuCacheMalloc(&p, 16, other));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, malloc_needs_a_current_context)
{
    void *p = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclcpuCacheMalloc(&p, 16, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

TEST(cachealloc, a_double_free_or_foreign_pointer_is_refused)
{
    aclrtStream s;
    void *p, *q, *dev = NULL;
    int host;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, s);
    q = cmalloc(1000, s);
    ASSERT_RC(aclcpuCacheFree(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheFree: argument 'devPtr' is NULL");
    ASSERT_OK(aclcpuCacheFree(q));
    ASSERT_RC(aclcpuCacheFree(q), ACL_ERROR_RT_MEMORY_FREE);
    {
        const char *m = aclGetRecentErrMsg();
        ASSERT_STR_CONTAINS(m, "aclcpuCacheFree: argument 'devPtr'");
        ASSERT_STR_CONTAINS(m, "a double free");
    }
    ASSERT_RC(aclcpuCacheFree((char *)p + 512), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "starts no block handed out");
    ASSERT_RC(aclcpuCacheFree(&host), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never handed it out");
    ASSERT_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclcpuCacheFree(dev), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never handed it out");
    ASSERT_OK(aclrtFree(dev));
    /* The cache's memory is not aclrtFree's to free. */
    ASSERT_RC(aclrtFree(p), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "free its blocks with aclcpuCacheFree");
    ASSERT_EQ(dev_stats().activeBlocks, 1); /* nothing changed by the refusals */
    ASSERT_OK(aclcpuCacheFree(p));
    /* Second occurrence: the first block freed twice (merged with q's now). */
    ASSERT_RC(aclcpuCacheFree(p), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "a double free");
    ASSERT_EQ(dev_stats().activeBlocks, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, a_pending_block_freed_again_is_a_double_free)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_RC(aclcpuCacheFree(p), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "a double free");
    ASSERT_RC(aclcpuCacheRecordStream(p, s2), ACL_ERROR_RT_PARAM_INVALID); /* only live blocks get users */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheRecordStream: argument 'devPtr'");
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    close_pair(s1, s2);
}

TEST(cachealloc, record_and_erase_check_their_arguments)
{
    aclrtStream s, dead, other;
    void *p, *dev = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, s);
    ASSERT_RC(aclcpuCacheRecordStream(NULL, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheRecordStream: argument 'devPtr' is NULL");
    ASSERT_RC(aclcpuCacheEraseStream(NULL, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheEraseStream: argument 'devPtr' is NULL");
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_RC(aclcpuCacheRecordStream(p, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclcpuCacheEraseStream(p, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclcpuCacheRecordStream(dev, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never handed it out");
    ASSERT_RC(aclcpuCacheEraseStream((char *)p + 512, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheEraseStream: argument 'devPtr'");
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_RC(aclcpuCacheRecordStream(p, other), ACL_ERROR_RT_PARAM_INVALID);
    {
        const char *m = aclGetRecentErrMsg();
        ASSERT_STR_CONTAINS(m, "aclcpuCacheRecordStream: argument 'stream'");
        ASSERT_STR_CONTAINS(m, "another device than the block");
    }
    ASSERT_RC(aclcpuCacheEraseStream(p, other), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "another device than the block");
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_RC(aclcpuCacheEraseStream(p, s), ACL_ERROR_RT_PARAM_INVALID); /* freed: no users to take off */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "it was freed already");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(cachealloc, stats_and_empty_check_their_arguments)
{
    aclcpuCacheStats st;
    aclrtStream dead;
    t_setup();
    ASSERT_RC(aclcpuCacheGetStats(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheGetStats: argument 'stats' is NULL");
    ASSERT_RC(aclcpuCacheGetStats(-1, &st), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheGetStats: argument 'deviceId' (-1)");
    ASSERT_RC(aclcpuCacheGetStats(1, &st), ACL_ERROR_RT_INVALID_DEVICEID); /* one device: 0 is the last */
    ASSERT_OK(aclcpuCacheGetStats(0, &st));
    ASSERT_RC(aclcpuCacheGetStreamStats(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheGetStreamStats: argument 'stats' is NULL");
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_RC(aclcpuCacheGetStreamStats(dead, &st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclcpuCacheEmpty(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCacheEmpty: argument 'deviceId' (-1)");
    ASSERT_RC(aclcpuCacheEmpty(1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclcpuCacheEmpty(0));
    t_teardown();
}

/* ---- lifetime and threads ---------------------------------------------------------------- */

TEST(cachealloc, a_device_reset_forgets_its_segments)
{
    aclrtStream s;
    void *p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, s);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_EQ(dev_stats().segments, 0);
    ASSERT_EQ(dev_stats().peakReservedBytes, 0);
    ASSERT_RC(aclcpuCacheFree(p), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never handed it out");
    t_teardown();
}

struct worker {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int *bad;
};

static void *churn(void *arg)
{
    struct worker *w = arg;
    void *p[8];
    if (aclrtSetCurrentContext(w->ctx) != ACL_SUCCESS) {
        atomic_store(w->bad, 1);
        return NULL;
    }
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 8; i++) {
            size_t n = (size_t)(1 + (round * 8 + i) % 7) * 1000;
            if (aclcpuCacheMalloc(&p[i], n, w->s) != ACL_SUCCESS ||
                aclrtMemsetAsync(p[i], n, (int32_t)i, n, w->s) != ACL_SUCCESS)
                atomic_store(w->bad, 1);
        }
        for (int i = 0; i < 8; i++)
            if (aclcpuCacheFree(p[i]) != ACL_SUCCESS)
                atomic_store(w->bad, 1);
    }
    if (aclrtSynchronizeStream(w->s) != ACL_SUCCESS)
        atomic_store(w->bad, 1);
    return NULL;
}

TEST(cachealloc, threads_allocate_and_free_at_once)
{
    struct worker w[4];
    pthread_t th[4];
    _Atomic int bad = 0;
    aclrtContext ctx;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&ctx));
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker){ctx, NULL, &bad};
        ASSERT_OK(aclrtCreateStream(&w[i].s));
    }
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, churn, &w[i]), 0);
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    ASSERT_EQ(atomic_load(&bad), 0);
    ASSERT_EQ(dev_stats().activeBlocks, 0);
    ASSERT_EQ(dev_stats().allocations, 4 * 200 * 8);
    ASSERT_EQ(dev_stats().segments, 4); /* one per stream: each round fits one 2 MiB segment */
    for (int i = 0; i < 4; i++)
        ASSERT_OK(aclrtDestroyStream(w[i].s));
    t_teardown();
}

/* ---- sweep 4: a second record of one stream, a record on the block's own stream ---------------- */

/* Recording the same stream twice makes one use: a single erase after the
 * free leaves nothing to wait for, and the block is reused at once. */
TEST(cachealloc, a_stream_recorded_twice_is_erased_by_one_erase)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s2);
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheRecordStream(p, s2));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 1);
    ASSERT_OK(aclcpuCacheEraseStream(p, s2));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p); /* while s2's gate is still shut */
    ASSERT_OK(aclcpuCacheFree(p));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    close_pair(s1, s2);
}

/* Recording a block on its own stream adds no fence, even while that
 * stream has work queued: its own stream orders the reuse already. */
TEST(cachealloc, recording_a_block_on_its_own_busy_stream_holds_nothing)
{
    aclrtStream s1, s2;
    _Atomic int open = 0;
    void *p;
    open_pair(&s1, &s2);
    p = cmalloc(1000, s1);
    t_launch_flag_gate(&open, s1);
    ASSERT_OK(aclcpuCacheRecordStream(p, s1));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT(cmalloc(1000, s1) == p);
    ASSERT_OK(aclcpuCacheFree(p));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    close_pair(s1, s2);
}

/* ---- sweep 5 (2026-12-05): boundaries and second occurrences -------------- */

/* A segment is [base, base + size): the address just past a 2 MiB small
 * segment is not the cache's (never handed out), not inside the segment. */
TEST(cachealloc, the_address_just_past_a_segment_is_not_the_caches)
{
    aclrtStream s;
    char *p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    p = cmalloc(1000, s); /* the first block of a fresh small segment: its start */
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_RC(aclcpuCacheFree(p + 2 * MIB - 512), ACL_ERROR_RT_MEMORY_FREE); /* its last 512 bytes: inside */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "starts no block handed out");
    ASSERT_RC(aclcpuCacheFree(p + 2 * MIB), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never handed it out");
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Pending blocks are each looked at: one whose recorded stream is done goes
 * back to its pool even when a block freed after it (ahead of it in the
 * pending list) still waits for its own stream. */
TEST(cachealloc, a_pending_block_whose_stream_is_done_is_released_behind_one_still_waiting)
{
    aclrtStream s1, s2, s3;
    _Atomic int open2 = 0, open3 = 0;
    void *a, *b;
    open_pair(&s1, &s2);
    ASSERT_OK(aclrtCreateStream(&s3));
    a = cmalloc(64 * KIB, s1);
    b = cmalloc(64 * KIB, s1);
    t_launch_flag_gate(&open2, s2);
    t_launch_flag_gate(&open3, s3);
    ASSERT_OK(aclcpuCacheRecordStream(a, s2));
    ASSERT_OK(aclcpuCacheRecordStream(b, s3));
    ASSERT_OK(aclcpuCacheFree(a));
    ASSERT_OK(aclcpuCacheFree(b)); /* the later free: looked at first */
    ASSERT_EQ(dev_stats().pendingBlocks, 2);
    atomic_store(&open2, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(dev_stats().pendingBlocks, 1); /* a is back; b waits for s3 */
    atomic_store(&open3, 1);
    ASSERT_OK(aclrtSynchronizeStream(s3));
    ASSERT_EQ(dev_stats().pendingBlocks, 0);
    ASSERT_OK(aclrtDestroyStream(s3));
    close_pair(s1, s2);
}

/* A block split in two keeps the segment's order for its neighbours: the
 * block after the rest sees the rest before it, so freeing that block
 * merges it with the rest. Here b (512 KiB, between a and c) is split for
 * 1 KiB; c freed then merges with b's rest and the free end of the
 * segment: a 1 MiB request is served from b's rest, not from c. */
TEST(cachealloc, a_block_after_a_split_merges_with_the_split_off_rest)
{
    aclrtStream s;
    char *a, *b, *c, *x;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(512 * KIB, s);
    b = cmalloc(512 * KIB, s);
    c = cmalloc(512 * KIB, s); /* the segment's last 512 KiB stay free */
    ASSERT(b == a + 512 * KIB && c == b + 512 * KIB);
    ASSERT_OK(aclcpuCacheFree(b));
    x = cmalloc(1024, s); /* the best fit: b (the lower of two equal blocks), split */
    ASSERT(x == b);
    ASSERT_OK(aclcpuCacheFree(c)); /* merges with b's rest before it and the free end after it */
    ASSERT(cmalloc(MIB, s) == b + 1024);
    ASSERT_EQ(dev_stats().segments, 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A block merged with the free block before it is the one its live
 * neighbour before that links to: freeing that neighbour then merges the
 * whole segment back into one free block, which an empty gives back. */
TEST(cachealloc, a_merge_with_the_block_before_keeps_the_neighbour_before_that_linked)
{
    aclrtStream s;
    char *a, *b, *c, *d;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    a = cmalloc(512 * KIB, s);
    b = cmalloc(512 * KIB, s);
    c = cmalloc(512 * KIB, s);
    d = cmalloc(512 * KIB, s); /* the whole 2 MiB segment */
    ASSERT(d == c + 512 * KIB);
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_OK(aclcpuCacheFree(c)); /* merges with b before it: a links to the merged block */
    ASSERT_OK(aclcpuCacheFree(a)); /* merges with b+c after it */
    ASSERT_OK(aclcpuCacheFree(d)); /* merges with a+b+c before it */
    /* One free block, the whole segment: two 1 MiB blocks (the small
     * pool's largest) come from it one after the other. */
    b = cmalloc(MIB, s);
    c = cmalloc(MIB, s);
    ASSERT(b == a && c == a + MIB);
    ASSERT_OK(aclcpuCacheFree(b));
    ASSERT_OK(aclcpuCacheFree(c));
    ASSERT_OK(aclcpuCacheEmpty(0));
    ASSERT_EQ(dev_stats().segments, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A stream's cached blocks are its handle's: a new stream made in the
 * memory of a destroyed one (after more destroys than are held back) has a
 * handle of its own and never gets the old stream's cached block. */
TEST(cachealloc, a_new_stream_in_a_destroyed_streams_memory_never_gets_its_cached_block)
{
    aclrtStream old, s = NULL;
    void *p;
    bool reused = false;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&old));
    p = cmalloc(64 * KIB, old);
    ASSERT_OK(aclcpuCacheFree(p)); /* cached in old's pool */
    ASSERT_OK(aclrtDestroyStream(old));
    for (int i = 0; i < 200 && !reused; i++) {
        ASSERT_OK(aclrtCreateStream(&s));
        reused = ((uintptr_t)s & 0xFFFFFFFFu) == ((uintptr_t)old & 0xFFFFFFFFu); /* the same slot */
        if (!reused)
            ASSERT_OK(aclrtDestroyStream(s));
    }
    ASSERT(reused);
    ASSERT(cmalloc(64 * KIB, s) != p);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
