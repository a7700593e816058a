/*
 * test_memcopy.c - the rest of acl_rt.h's memory calls: value writes and
 * waits, 32-bit fills, 2D async copies, batches, descriptor and offset
 * copies, the conditional copy and aclrtMemP2PMap.
 *
 * Rules: docs/conformance.md "Memory: copies, sets, values" (each row
 * names its test here). Codes: 100000 the ACL layer's checks, 107000 the
 * runtime's, 207000 a feature the SoC lacks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* aclrtMemcpyAsyncWithCondition is still part of the contract */

#define BAD_STREAM ((aclrtStream)(uintptr_t)0x1234)
#define TIMED_OUT ACL_ERROR_RT_STREAM_SYNC_TIMEOUT

static void *dev(size_t n)
{
    void *p = NULL;
    ASSERT_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemset(p, n, 0, n));
    return p;
}

static void *pinned(size_t n)
{
    void *p = NULL;
    ASSERT_OK(aclrtMallocHost(&p, n));
    memset(p, 0, n);
    return p;
}

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* True when s is still held up (a short timed sync gives up). */
static int held(aclrtStream s) { return aclrtSynchronizeStreamWithTimeout(s, 30) == TIMED_OUT; }

/* ---- value writes and waits ------------------------------------------------------ */

TEST(memcopy, value_wait_released_by_write_on_another_stream)
{
    aclrtStream a, b;
    uint64_t *w;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtValueWait(w, 100, ACL_STREAM_WAIT_VALUE_EQ, a));
    t_launch_log(1, a);
    ASSERT(held(a));
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* the kernel behind the wait has not run */
    ASSERT_OK(aclrtValueWrite(w, 99, 0, b)); /* not the value: still held */
    ASSERT_OK(aclrtSynchronizeStream(b));
    ASSERT(held(a));
    ASSERT_OK(aclrtValueWrite(w, 100, 0, b));
    ASSERT_OK(aclrtSynchronizeStream(a));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_EQ(*w, 100u);
    /* A second wait on a word that already passes goes straight on. */
    ASSERT_OK(aclrtValueWait(w, 100, ACL_STREAM_WAIT_VALUE_EQ, a));
    ASSERT_OK(aclrtSynchronizeStream(a));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

TEST(memcopy, value_wait_released_by_host_write_without_burning_a_core)
{
    aclrtStream a;
    uint64_t *w, cpu0, cpu;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtValueWait(w, 7, ACL_STREAM_WAIT_VALUE_GEQ, a));
    cpu0 = cpu_ns();
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(a, 300), TIMED_OUT);
    cpu = cpu_ns() - cpu0;
    ASSERT(cpu < 100000000ull); /* 300 ms parked: well under a third of a core */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "waits for the 64-bit value at");
    __atomic_store_n(w, 7, __ATOMIC_RELAXED); /* a plain host store: only the poll can see it */
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 5000));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

TEST(memcopy, value_wait_released_by_copies_and_fills)
{
    aclrtStream a, b;
    uint64_t *w, *h;
    t_setup();
    w = dev(64);
    h = pinned(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtValueWait(w, 5, ACL_STREAM_WAIT_VALUE_EQ, a));
    ASSERT(held(a));
    h[0] = 5;
    ASSERT_OK(aclrtMemcpyAsync(w, 8, h, 8, ACL_MEMCPY_HOST_TO_DEVICE, b));
    ASSERT_OK(aclrtSynchronizeStream(a));
    ASSERT_OK(aclrtValueWait(w, 0x0101010101010101ull, ACL_STREAM_WAIT_VALUE_EQ, a));
    ASSERT(held(a));
    ASSERT_OK(aclrtMemsetD32(w, 8, 0x01010101u, 2));
    ASSERT_OK(aclrtSynchronizeStream(a));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtFree(w));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* The four tests, each at its boundary: one value short of passing is
 * held, the boundary passes. */
TEST(memcopy, value_wait_conditions)
{
    static const struct { uint32_t flag; uint64_t want, held_at, passes_at; } c[] = {
        {ACL_STREAM_WAIT_VALUE_GEQ, 10, 9, 10},
        {ACL_STREAM_WAIT_VALUE_EQ, 10, 11, 10},
        {ACL_STREAM_WAIT_VALUE_AND, 0x10, 0xEF, 0x10},
        {ACL_STREAM_WAIT_VALUE_NOR, 0xF0, ~0xF0ull, ~0xF1ull},
    };
    aclrtStream a, b;
    uint64_t *w;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        ASSERT_OK(aclrtValueWrite(w, c[i].held_at, 0, b));
        ASSERT_OK(aclrtSynchronizeStream(b));
        ASSERT_OK(aclrtValueWait(w, c[i].want, c[i].flag, a));
        ASSERT(held(a));
        ASSERT_OK(aclrtValueWrite(w, c[i].passes_at, 0, b));
        ASSERT_OK(aclrtSynchronizeStream(a));
    }
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

/* AND passes when the value shares any bit with the mask, not only when it
 * holds every bit of it: with a mask of two bits, one of them is enough.
 * The value is written before the wait is issued, so the wait passes at
 * once on the real rule and never on the "every bit" one. */
TEST(memcopy, an_and_value_wait_passes_on_one_bit_of_a_wider_mask)
{
    aclrtStream a;
    uint64_t *w;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtValueWrite(w, 0x10, 0, a));
    ASSERT_OK(aclrtValueWait(w, 0x30, ACL_STREAM_WAIT_VALUE_AND, a));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 10000));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

TEST(memcopy, value_write_wait_argument_checks)
{
    uint64_t *w, host = 0;
    char *blk;
    t_setup();
    w = dev(64);
    blk = dev(32);
    ASSERT_RC(aclrtValueWait(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtValueWait: argument 'devAddr' is NULL");
    ASSERT_RC(aclrtValueWrite(NULL, 1, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtValueWait(w, 1, 0, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtValueWait(w, 1, 4, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'flag' is 4");
    ASSERT_OK(aclrtValueWait(w, 0, ACL_STREAM_WAIT_VALUE_NOR, NULL)); /* 3, the last flag: ~(0|0) != 0 passes */
    ASSERT_RC(aclrtValueWrite(w, 1, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtValueWrite: argument 'flag' is 1");
    ASSERT_RC(aclrtValueWrite(&host, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not device memory");
    ASSERT_RC(aclrtValueWait(&host, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    /* A 32-byte block gives 64 usable bytes (its padding included). */
    ASSERT_RC(aclrtValueWrite(blk + 60, 1, 0, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_OK(aclrtValueWrite(blk + 56, 1, 0, NULL)); /* the last 8 bytes */
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(w));
    ASSERT_OK(aclrtFree(blk));
    t_teardown();
}

TEST(memcopy, value_wait_needs_a_soc_with_value_waits)
{
    uint64_t *w;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    w = dev(64);
    ASSERT_RC(aclrtValueWait(w, 1, 0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend310P3 has no value writes and waits");
    ASSERT_RC(aclrtValueWrite(w, 1, 0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

TEST(memcopy, value_wait_dropped_by_force_destroy_and_stop)
{
    aclrtStream a, b;
    uint64_t *w;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtValueWait(w, 1, 0, a));
    ASSERT(held(a));
    ASSERT_OK(aclrtDestroyStreamForce(a));
    ASSERT_OK(aclrtValueWait(w, 1, 0, b));
    ASSERT(held(b));
    ASSERT_OK(aclrtStreamAbort(b)); /* drops the parked wait: b takes work again */
    ASSERT_OK(aclrtValueWrite(w, 1, 0, b));
    ASSERT_OK(aclrtSynchronizeStream(b));
    ASSERT_EQ(*w, 1u);
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

TEST(memcopy, value_wait_captured_in_a_model)
{
    aclrtStream s, run;
    aclmdlRI m = NULL;
    uint64_t *w;
    t_setup();
    w = dev(64);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&run));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtValueWait(w, 3, ACL_STREAM_WAIT_VALUE_GEQ, s));
    t_launch_log(1, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* captured, not run */
    ASSERT_OK(aclmdlRIExecuteAsync(m, run));
    ASSERT(held(run));
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    ASSERT_OK(aclrtValueWrite(w, 3, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(run));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(run));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

/* ---- 32-bit fills ------------------------------------------------------------------ */

TEST(memcopy, memset_d32_fills_words)
{
    uint32_t *d, *h;
    t_setup();
    d = dev(64);
    h = pinned(64);
    ASSERT_OK(aclrtMemsetD32(d, 64, 0xDEADBEEFu, 16)); /* N * 4 == memSize: the boundary */
    for (int i = 0; i < 16; i++)
        ASSERT_EQ(d[i], 0xDEADBEEFu);
    ASSERT_OK(aclrtMemsetD32Async(h + 1, 60, 0x01020304u, 2, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(h[0], 0u);
    ASSERT_EQ(h[1], 0x01020304u);
    ASSERT_EQ(h[2], 0x01020304u);
    ASSERT_EQ(h[3], 0u);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

TEST(memcopy, memset_d32_argument_checks)
{
    uint32_t *d, host[4];
    t_setup();
    d = dev(64);
    ASSERT_OK(aclrtMemsetD32(NULL, 0, 1, 0)); /* N == 0 succeeds before any other check */
    ASSERT_RC(aclrtMemsetD32(NULL, 4, 1, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemsetD32: argument 'ptr' is NULL");
    ASSERT_RC(aclrtMemsetD32((char *)d + 2, 8, 1, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not 4-byte aligned");
    ASSERT_RC(aclrtMemsetD32(d, 63, 1, 16), ACL_ERROR_INVALID_PARAM); /* 64 bytes into 63 */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'N' (16) times 4 is larger than 'memSize' (63)");
    ASSERT_RC(aclrtMemsetD32(d, SIZE_MAX, 1, SIZE_MAX / 2), ACL_ERROR_INVALID_PARAM); /* N * 4 wraps */
    ASSERT_RC(aclrtMemsetD32(host, 16, 1, 4), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not memory from aclrtMalloc or aclrtMallocHost");
    ASSERT_RC(aclrtMemsetD32(d + 23, 8, 1, 2), ACL_ERROR_RT_PARAM_INVALID); /* 96 usable bytes */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_OK(aclrtMemsetD32(d + 22, 8, 1, 2));
    ASSERT_RC(aclrtMemsetD32Async(d, 64, 1, 16, BAD_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemsetD32Async(host, 16, 1, 4, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemsetD32Async: 'ptr'");
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* The ACL layer reads the pointer's attributes: for an address of the
 * arenas that no live block holds that query fails (107000), and its code
 * is the fill's; plain host memory reads as unregistered (100000). */
TEST(memcopy, memset_d32_of_a_freed_block_fails_the_attribute_query)
{
    uint32_t *d, *h;
    t_setup();
    d = dev(64);
    h = pinned(64);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_RC(aclrtMemsetD32(d, 64, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemsetD32: 'ptr'");
    ASSERT_RC(aclrtMemsetD32Async(d, 64, 1, 16, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemsetD32(h, 64, 1, 16), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

static void *memset_d32_without_context(void *p)
{
    static aclError rc;
    rc = aclrtMemsetD32(p, 16, 1, 4);
    return &rc;
}

/* aclrtMemsetD32 needs a current context (107002), after the ACL layer's
 * checks: the runtime fills on the current device. */
TEST(memcopy, memset_d32_needs_a_context_after_its_argument_checks)
{
    static uint32_t host[4];
    uint32_t *d;
    pthread_t th;
    void *rc = NULL;
    t_setup();
    d = dev(16);
    ASSERT_EQ(pthread_create(&th, NULL, memset_d32_without_context, d), 0);
    ASSERT_EQ(pthread_join(th, &rc), 0);
    ASSERT_EQ(*(aclError *)rc, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_EQ(d[3], 0); /* nothing was written */
    ASSERT_EQ(pthread_create(&th, NULL, memset_d32_without_context, host), 0);
    ASSERT_EQ(pthread_join(th, &rc), 0);
    ASSERT_EQ(*(aclError *)rc, ACL_ERROR_INVALID_PARAM); /* the ACL layer's check answers first */
    ASSERT_OK(aclrtMemsetD32(d, 16, 1, 4));
    ASSERT_EQ(d[3], 1);
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* ---- 2D async copies ------------------------------------------------------------------- */

TEST(memcopy, memcpy2d_async_copies_rows)
{
    char *d, *h;
    t_setup();
    d = dev(256);
    h = pinned(256);
    for (int i = 0; i < 256; i++)
        h[i] = (char)i;
    /* 4 rows of 8 bytes, host pitch 16, device pitch 32. */
    ASSERT_OK(aclrtMemcpy2dAsync(d, 32, h, 16, 8, 4, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    for (int r = 0; r < 4; r++) {
        ASSERT_EQ(memcmp(d + r * 32, h + r * 16, 8), 0);
        ASSERT_EQ(d[r * 32 + 8], 0);
    }
    memset(h, 0, 256);
    ASSERT_OK(aclrtMemcpy2dAsync(h, 8, d, 32, 8, 4, ACL_MEMCPY_DEFAULT, NULL)); /* D2H, found out */
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(h[8], 16);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

TEST(memcopy, memcpy2d_async_argument_checks)
{
    char *d, *h;
    t_setup();
    d = dev(128);
    h = pinned(128);
    ASSERT_OK(aclrtMemcpy2dAsync(NULL, 0, NULL, 0, 0, 4, ACL_MEMCPY_HOST_TO_DEVICE, NULL)); /* width 0 */
    ASSERT_RC(aclrtMemcpy2dAsync(NULL, 8, h, 8, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpy2dAsync: argument 'dst' is NULL");
    ASSERT_RC(aclrtMemcpy2dAsync(d, 8, h, 16, 9, 1, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'width' (9) exceeds a pitch");
    ASSERT_RC(aclrtMemcpy2dAsync(d, 8, h, 8, 8, 1, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'kind' (0)");
    ASSERT_RC(aclrtMemcpy2dAsync(d, 8, h, 8, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE, BAD_STREAM),
              ACL_ERROR_RT_INVALID_HANDLE);
    /* 16 rows of 8 at pitch 8 fit 128 bytes; 17 do not. */
    ASSERT_OK(aclrtMemcpy2dAsync(d, 8, h, 8, 8, 16, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_RC(aclrtMemcpy2dAsync(d, 8, h, 8, 8, 17, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_RC(aclrtMemcpy2dAsync(h, 8, d, 8, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not device memory");
    ASSERT_RC(aclrtMemcpy2dAsync(h, 8, h + 64, 8, 8, 1, ACL_MEMCPY_DEFAULT, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "neither side is device memory");
    ASSERT_RC(aclrtMemcpy2dAsync(d, 8, h, 8, 8, 5242881, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- batches --------------------------------------------------------------------------------- */

static aclrtMemcpyBatchAttr attr(aclrtMemLocationType dst, aclrtMemLocationType src)
{
    aclrtMemcpyBatchAttr a;
    memset(&a, 0, sizeof(a));
    a.dstLoc.type = dst;
    a.srcLoc.type = src;
    return a;
}

TEST(memcopy, memcpy_batch_copies_each_range)
{
    char *d, *h;
    void *dsts[3], *srcs[3];
    size_t maxs[3] = {16, 16, 16}, sizes[3] = {16, 0, 8}, idx[2] = {0, 2}, fail = 0;
    aclrtMemcpyBatchAttr at[2];
    t_setup();
    d = dev(64);
    h = pinned(64);
    for (int i = 0; i < 64; i++)
        h[i] = (char)(i + 1);
    /* copies 0 and 1 H2D, copy 2 D2D. */
    at[0] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
    at[1] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_DEVICE);
    dsts[0] = d, srcs[0] = h;
    dsts[1] = NULL, srcs[1] = NULL; /* size 0: never looked at */
    dsts[2] = d + 32, srcs[2] = d + 4;
    ASSERT_OK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 3, at, idx, 2, &fail));
    ASSERT_EQ(fail, SIZE_MAX);
    ASSERT_EQ(memcmp(d, h, 16), 0);
    ASSERT_EQ(memcmp(d + 32, h + 4, 8), 0);
    memset(d, 0, 64);
    ASSERT_OK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 3, at, idx, 2, &fail, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(memcmp(d + 32, h + 4, 8), 0);
    memset(d, 0, 64);
    ASSERT_OK(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 3, at, idx, 2));
    ASSERT_EQ(memcmp(d, h, 16), 0);
    memset(d, 0, 64);
    ASSERT_OK(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, 3, at, idx, 2, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(memcmp(d, h, 16), 0);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

TEST(memcopy, memcpy_batch_argument_checks)
{
    char *d, *h;
    void *dsts[2], *srcs[2];
    size_t maxs[2] = {16, 16}, sizes[2] = {16, 16}, zero[2] = {0, 0}, idx[2] = {0, 1}, fail = 7;
    aclrtMemcpyBatchAttr at[2];
    t_setup();
    d = dev(64);
    h = pinned(64);
    at[0] = at[1] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
    dsts[0] = d, dsts[1] = d + 16, srcs[0] = h, srcs[1] = h + 16;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyBatch: argument 'failIndex' is NULL");
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, NULL, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 0, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'numBatches' is 0");
    /* Every size 0: success before the other checks. */
    ASSERT_OK(aclrtMemcpyBatch(NULL, NULL, NULL, zero, 2, NULL, NULL, 0, &fail));
    ASSERT_EQ(fail, SIZE_MAX);
    ASSERT_RC(aclrtMemcpyBatch(dsts, NULL, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'destMaxs' is NULL");
    maxs[1] = 15;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'sizes[1]' (16) is larger than 'destMaxs[1]' (15)");
    maxs[1] = 16;
    at[1].rsv[15] = 1;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attrs[1].rsv[15]' is 1");
    at[1].rsv[15] = 0;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 0, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 1, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'numAttrs' (2) is larger than 'numBatches' (1)");
    idx[0] = 1;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attrsIndexes[0]' is 1");
    idx[0] = 0, idx[1] = 0;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not larger than 'attrsIndexes[0]'");
    idx[1] = 2;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not below 'numBatches'");
    idx[1] = 1;
    /* Copy 1 says its source is device memory, but it is host memory: it fails, and failIndex says so. */
    at[1] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_DEVICE);
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(fail, 1u);
    ASSERT_RC(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, 2, at, idx, 2, &fail, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(fail, 1u);
    at[1] = attr(ACL_MEM_LOCATION_TYPE_MANAGED, ACL_MEM_LOCATION_TYPE_HOST);
    ASSERT_RC(aclrtMemcpyBatchV2(dsts, maxs, srcs, sizes, 2, at, idx, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "copy 1's destination location type is 3");
    ASSERT_RC(aclrtMemcpyBatchAsyncV2(dsts, maxs, srcs, sizes, 2, at, idx, 2, BAD_STREAM),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

TEST(memcopy, memcpy_batch_sync_count_limit)
{
    enum { N = 4097 };
    static void *dsts[N], *srcs[N];
    static size_t maxs[N], sizes[N];
    size_t idx[1] = {0}, fail = 0;
    aclrtMemcpyBatchAttr at[1];
    char *d, *h;
    t_setup();
    d = dev(N);
    h = pinned(N);
    at[0] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
    for (int i = 0; i < N; i++) {
        dsts[i] = d + i, srcs[i] = h + i, maxs[i] = 1, sizes[i] = 1;
        h[i] = (char)i;
    }
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N, at, idx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'numBatches' (4097) is larger than 4096");
    ASSERT_OK(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, N - 1, at, idx, 1, &fail));
    /* The async batch has no limit. */
    ASSERT_OK(aclrtMemcpyBatchAsync(dsts, maxs, srcs, sizes, N, at, idx, 1, &fail, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(memcmp(d, h, N), 0);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- descriptor and offset copies ------------------------------------------------------------ */

TEST(memcopy, memcpy_desc_copies_what_the_descriptor_says)
{
    aclrtStream s;
    size_t size = 0;
    char *desc, *d;
    t_setup();
    desc = dev(64);
    d = dev(256);
    for (int i = 0; i < 64; i++)
        d[i] = (char)(i + 1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size));
    ASSERT_EQ(size, 32u);
    ASSERT_OK(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, d, d + 128, 64, NULL));
    ASSERT_OK(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(memcmp(d + 128, d, 64), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(desc));
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

TEST(memcopy, memcpy_desc_argument_checks)
{
    aclrtStream s;
    size_t size = 0;
    char *desc, *d, host[64];
    const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    t_setup();
    desc = dev(128);
    d = dev(256);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &size), ACL_ERROR_INVALID_PARAM);
    /* 7, the last kind: past the ACL layer, the runtime refuses it. */
    ASSERT_RC(aclrtGetMemcpyDescSize((aclrtMemcpyKind)7, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "only INNER_DEVICE_TO_DEVICE");
    ASSERT_RC(aclrtGetMemcpyDescSize(inner, NULL), ACL_ERROR_INVALID_PARAM); /* the ACL layer's first check */
    ASSERT_RC(aclrtSetMemcpyDesc(NULL, inner, d, d + 64, 8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, NULL, d + 64, 8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'srcAddr' is NULL");
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, d, d + 64, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, d, d + 64, 8, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'config' is reserved");
    ASSERT_RC(aclrtSetMemcpyDesc(desc + 32, inner, d, d + 64, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not 64-byte aligned");
    ASSERT_RC(aclrtSetMemcpyDesc(host, inner, d, d + 64, 8, NULL), ACL_ERROR_RT_PARAM_INVALID); /* unaligned or host */
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, host, d + 64, 8, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, d, d + 284, 8, NULL), ACL_ERROR_RT_PARAM_INVALID); /* 288 usable */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_OK(aclrtSetMemcpyDesc(desc, inner, d, d + 280, 8, NULL)); /* the last 8 bytes */
    ASSERT_RC(aclrtMemcpyAsyncWithDesc(NULL, inner, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsyncWithDesc(desc, inner, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemcpyAsyncWithDesc: argument 'stream' is NULL");
    ASSERT_RC(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtMemcpyAsyncWithDesc(host, inner, s), ACL_ERROR_RT_PARAM_INVALID);
    /* A descriptor rewritten to garbage after issue fails the task, not the process. */
    memset(desc, 0xFF, 32);
    ASSERT_OK(aclrtMemcpyAsyncWithDesc(desc, inner, s));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(desc));
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

TEST(memcopy, memcpy_desc_needs_a_soc_with_descriptors)
{
    size_t size = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_RC(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend310P3 has no memory copy descriptors");
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size));
    ASSERT_EQ(size, 64u);
    t_teardown();
}

/* aclrtGetMemcpyDescSize: descSize NULL answers first, then the kind
 * (both 100000, the ACL layer's); the size is the chip type's, which the
 * process has before any device is set: no context is needed. */
TEST(memcopy, get_memcpy_desc_size_checks_null_then_kind_without_a_context)
{
    size_t size = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetMemcpyDescSize: argument 'descSize' is NULL");
    ASSERT_RC(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'kind'");
    ASSERT_OK(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size));
    ASSERT(size == 32 || size == 64);
    ASSERT_OK(aclFinalize());
}

/* The maxima of the descriptor and offset copies are inclusive: a
 * descriptor of exactly 4 GiB passes the size check (and fails on its
 * 256-byte block), 4 GiB + 1 does not; an offset of exactly 0xFFFFFFFFFFFF
 * passes its check (and fails on destMax), one more does not. */
TEST(memcopy, copy_sizes_and_offsets_are_taken_up_to_their_maxima)
{
    const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    const size_t off_max = 0xFFFFFFFFFFFFull;
    void **holders;
    char *desc, *d;
    t_setup();
    desc = dev(128);
    d = dev(256);
    holders = dev(16);
    holders[0] = d + 128;
    holders[1] = d;
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, d, d + 128, (size_t)4 << 30, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_RC(aclrtSetMemcpyDesc(desc, inner, d, d + 128, ((size_t)4 << 30) + 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is larger than 4 GiB");
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 64, (const void **)&holders[1], 1, off_max, inner, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dstDataOffset' (64) + 'count' (1) is larger than 'destMax' (64)");
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 64, (const void **)&holders[1], 1, off_max + 1, inner,
                                         NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'srcDataOffset' is larger than 0xFFFFFFFFFFFF");
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, off_max, (const void **)&holders[1], 1, 0, inner, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dstDataOffset' (281474976710655) + 'count'");
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, off_max + 1, (const void **)&holders[1], 1, 0, inner,
                                         NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'dstDataOffset' is larger than 0xFFFFFFFFFFFF");
    ASSERT_OK(aclrtFree(holders));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFree(desc));
    t_teardown();
}

TEST(memcopy, memcpy_with_offset_reads_the_bases_when_it_runs)
{
    void **holders;
    char *d;
    const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    t_setup();
    holders = dev(16);
    d = dev(256);
    for (int i = 0; i < 64; i++)
        d[i] = (char)(i + 1);
    holders[0] = d + 128; /* dst base */
    holders[1] = d;       /* src base */
    ASSERT_OK(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 8, (const void **)&holders[1], 16, 4, inner, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(memcmp(d + 136, d + 4, 16), 0);
    ASSERT_OK(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 0, 0, inner, NULL)); /* count 0 */
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 8, (const void **)&holders[1], 16, 4,
                                         ACL_MEMCPY_DEVICE_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "it must be INNER_DEVICE_TO_DEVICE");
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 64, (const void **)&holders[1], 1, 0, inner, NULL),
              ACL_ERROR_RT_PARAM_INVALID); /* dstDataOffset == destMax */
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 60, (const void **)&holders[1], 5, 0, inner, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 60, (const void **)&holders[1], 4, 0, inner, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(holders));
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* A dstDataOffset beyond destMax is refused, however small the count:
 * destMax - dstDataOffset would wrap to a huge room and let the copy
 * through. The write would land inside d here (d + 128 + 100), so only
 * the check tells the two apart; d's bytes stay untouched. */
TEST(memcopy, a_destination_offset_past_dest_max_is_refused)
{
    void **holders;
    char *d;
    const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    t_setup();
    holders = dev(16);
    d = dev(256);
    memset(d, 0x3c, 64);
    holders[0] = d + 128; /* dst base */
    holders[1] = d;       /* src base */
    ASSERT_RC(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 100, (const void **)&holders[1], 1, 0, inner, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dstDataOffset' (100) + 'count' (1) is larger than 'destMax' (64)");
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(d[128 + 100], 0);
    ASSERT_OK(aclrtFree(holders));
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* ---- the conditional copy and peer mapping --------------------------------------------------- */

TEST(memcopy, memcpy_with_condition_takes_only_page_locked_memory)
{
    char *d, *h, pageable[64];
    t_setup();
    d = dev(64);
    h = pinned(64);
    h[0] = 42;
    ASSERT_OK(aclrtMemcpyAsyncWithCondition(d, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(d[0], 42);
    ASSERT_OK(aclrtMemcpyAsyncWithCondition(NULL, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_RC(aclrtMemcpyAsyncWithCondition(d, 64, pageable, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'src' (");
    ASSERT_RC(aclrtMemcpyAsyncWithCondition(d, 64, h, 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, NULL),
              ACL_ERROR_INVALID_PARAM);
    /* count > destMax is the runtime's check (107000) */
    ASSERT_RC(aclrtMemcpyAsyncWithCondition(d, 63, h, 64, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

TEST(memcopy, mem_p2p_map_checks)
{
    char *d, host[8];
    uint32_t n = 0;
    t_setup();
    d = dev(64);
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_OK(aclrtMemP2PMap(d, 64, 0, 0));
    ASSERT_RC(aclrtMemP2PMap(NULL, 64, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemP2PMap(d, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemP2PMap(d, 64, 0, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'flags' is 1");
    ASSERT_RC(aclrtMemP2PMap(d, 64, (int32_t)n, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtMemP2PMap(d, 64, -1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclrtMemP2PMap(d, 96, 0, 0)); /* 64 bytes and their padding */
    ASSERT_RC(aclrtMemP2PMap(d, 97, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemP2PMap(host, 8, 0, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------------------- */

/* A 2D copy's width must fit both pitches: one wider than the source
 * pitch alone is refused too (100000, ACL layer), a width equal to both
 * is taken. */
TEST(memcopy, memcpy2d_width_must_fit_the_source_pitch_too)
{
    char *d, *h;
    t_setup();
    d = dev(128);
    h = pinned(128);
    ASSERT_RC(aclrtMemcpy2dAsync(d, 16, h, 8, 9, 1, ACL_MEMCPY_HOST_TO_DEVICE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'width' (9) exceeds a pitch (dpitch 16, spitch 8)");
    ASSERT_OK(aclrtMemcpy2dAsync(d, 16, h, 16, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* A value write or wait on a stream of another context than the current
 * one is 107003 (api_impl.cc MemWriteValue), after the argument checks. */
TEST(memcopy, a_value_write_on_a_stream_of_another_context_is_refused)
{
    aclrtContext mine = NULL, other = NULL;
    aclrtStream foreign = NULL;
    uint64_t *v;
    t_setup();
    v = (uint64_t *)dev(64);
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtValueWrite(v, 1, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtValueWrite: argument 'stream'");
    ASSERT_RC(aclrtValueWait(v, 1, ACL_STREAM_WAIT_VALUE_EQ, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtFree(v));
    t_teardown();
}

/* A batch copy with a NULL source (as one with a NULL destination) is
 * refused (107000), naming it, and failIndex names that copy. */
TEST(memcopy, a_batch_copy_with_a_null_source_is_refused_by_name)
{
    char *d, *h;
    void *dsts[2], *srcs[2];
    size_t maxs[2] = {16, 16}, sizes[2] = {16, 16}, idx[1] = {0}, fail = 7;
    aclrtMemcpyBatchAttr at[1];
    t_setup();
    d = dev(64);
    h = pinned(64);
    at[0] = attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
    dsts[0] = d, dsts[1] = d + 16, srcs[0] = h, srcs[1] = NULL;
    ASSERT_RC(aclrtMemcpyBatch(dsts, maxs, srcs, sizes, 2, at, idx, 1, &fail), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'srcs[1]' is NULL");
    ASSERT_EQ(fail, 1);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* An offset copy reads its bases when it runs, as the device does: a
 * destination base that is host memory fails the task (107000 at the
 * sync) and the host bytes are not written. */
TEST(memcopy, an_offset_copy_whose_destination_base_is_host_memory_fails_when_it_runs)
{
    static char host[64];
    void **holders;
    char *d;
    const aclrtMemcpyKind inner = ACL_MEMCPY_INNER_DEVICE_TO_DEVICE;
    t_setup();
    holders = dev(16);
    d = dev(64);
    memset(d, 0x3c, 64);
    holders[0] = host; /* dst base: not device memory */
    holders[1] = d;    /* src base */
    ASSERT_OK(aclrtMemcpyAsyncWithOffset(&holders[0], 64, 0, (const void **)&holders[1], 16, 0, inner, NULL));
    ASSERT_RC(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(host[0], 0);
    ASSERT_OK(aclrtFree(holders));
    ASSERT_OK(aclrtFree(d));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): a value wait's explanation ---- */

/* A timed sync on a stream parked on a value says which rule the wait
 * wants, the value it wants and what the word holds: one stream per rule,
 * each word holding a value that fails its rule; the host then writes one
 * that passes (the poll sees it). */
TEST(memcopy, a_value_waits_explanation_names_its_rule_and_both_values)
{
    static const struct {
        uint32_t flag;
        uint64_t want, now, pass;
        const char *text;
    } rule[] = {
        {ACL_STREAM_WAIT_VALUE_GEQ, 7, 3, 7, "to be >= 7 (it is 3)"},
        {ACL_STREAM_WAIT_VALUE_EQ, 100, 3, 100, "to be == 100 (it is 3)"},
        {ACL_STREAM_WAIT_VALUE_AND, 16, 1, 17, "to be to share a bit with 16 (it is 1)"},
        {ACL_STREAM_WAIT_VALUE_NOR, 0xffffffff00000000ull, 0xffffffffull, 0,
         "to be to leave a bit clear together with 18446744069414584320 (it is 4294967295)"},
    };
    t_setup();
    for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++) {
        aclrtStream a;
        uint64_t *w = dev(64);
        *w = rule[i].now;
        ASSERT_OK(aclrtCreateStream(&a));
        ASSERT_OK(aclrtValueWait(w, rule[i].want, rule[i].flag, a));
        const char *m = NULL;
        /* Until the stream has parked on the word (a busy machine may be slow to run it). */
        for (int k = 0; k < 250 && (m == NULL || strstr(m, "waits for the 64-bit value") == NULL); k++) {
            ASSERT_RC(aclrtSynchronizeStreamWithTimeout(a, 20), TIMED_OUT);
            m = aclGetRecentErrMsg();
        }
        ASSERT_STR_CONTAINS(m, rule[i].text);
        __atomic_store_n(w, rule[i].pass, __ATOMIC_RELAXED);
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 5000));
        ASSERT_OK(aclrtDestroyStream(a));
        ASSERT_OK(aclrtFree(w));
    }
    t_teardown();
}
