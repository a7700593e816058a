/*
 * test_mempool.c - stream-ordered memory pools (acl_rt_memory_soma.h).
 *
 * Rules: the reference's checks in order (src/acl/aclrt_impl/memory.cpp
 * aclrtMemPool*Impl; src/runtime/api/impl/
 * api_impl_soma.cc; src/runtime/feature/soma/soma.cc: 2 MiB blocks,
 * maxSize rounding, read-only CURRENT attributes, a busy pool cannot be
 * destroyed), stream order (a block freed on a stream is reusable at once
 * by that stream, by others once the free ran), and the project's:
 * stale or made-up handles are refused, and nothing outlives its device.
 */
#include <pthread.h>
#include <stdatomic.h>

#include <acl/acl_rt_memory_soma.h>

#include "test.h"

#define MIB ((size_t)1 << 20)
#define BLOCK (2 * MIB)

static aclrtMemPoolProps props(size_t max)
{
    aclrtMemPoolProps p;
    memset(&p, 0, sizeof(p));
    p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    p.location.id = 0;
    p.maxSize = max;
    return p;
}

static uint64_t pool_attr(aclrtMemPool pool, aclrtMemPoolAttr a)
{
    uint64_t v = 0;
    ASSERT_OK(aclrtMemPoolGetAttr(pool, a, &v));
    return v;
}

/* ---- aclrtMemPoolCreate / Destroy ----------------------------------------------------- */

TEST(mempool, create_checks_in_order)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    size_t free_b = 0, total = 0;
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    ASSERT_RC(aclrtMemPoolCreate(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemPoolCreate(&pool, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemPoolCreate: argument 'poolProps' is NULL");
    p.allocType = (aclrtMemAllocationType)1;
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'poolProps->allocType' (1)");
    p = props(0);
    p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM);
    p = props(0);
    p.reserved[31] = 1;
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'poolProps->reserved'");
    p = props(0);
    p.location.id = 4096;
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_INVALID_DEVICEID);
    /* Boundary: the device's whole memory fits; one byte more does not. */
    p = props(total + 1);
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'poolProps->maxSize'");
    p = props(total);
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT(pool == NULL || 1);
    t_teardown();
}

/* A maxSize that is not a whole number of 2 MiB blocks is rounded up:
 * 3 MiB holds two blocks (4 MiB), not one; a third is refused. */
TEST(mempool, a_pools_max_size_is_rounded_up_to_whole_blocks)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(BLOCK + MIB);
    aclrtStream s = NULL;
    void *a = NULL, *b = NULL, *c = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&b, BLOCK, pool, s));
    ASSERT_RC(aclrtMemPoolMallocAsync(&c, 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cannot take");
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, destroy_twice_or_made_up_handle_is_refused)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    t_setup();
    ASSERT_RC(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_RC(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemPoolDestroy: argument 'memPool'");
    ASSERT_RC(aclrtMemPoolDestroy((aclrtMemPool)(uintptr_t)0x1234), ACL_ERROR_RT_INTERNAL_ERROR);
    t_teardown();
}

TEST(mempool, destroy_of_a_busy_pool_is_refused)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 100, pool, s));
    ASSERT_RC(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "still has blocks in use");
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- MallocAsync / FreeAsync -------------------------------------------------------------- */

/* The largest size a pool allocation takes is SIZE_MAX - 2 MiB (it
 * still rounds up to whole blocks): the pool cannot hold it (507000),
 * while one byte more would wrap and is refused as such (107000). */
TEST(mempool, a_malloc_size_is_taken_up_to_the_largest_that_rounds_up_to_blocks)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(2 * BLOCK);
    aclrtStream s = NULL;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, SIZE_MAX - BLOCK, pool, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cannot take");
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, SIZE_MAX - BLOCK + 1, pool, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "overflows when rounded up to 2 MiB");
    ASSERT(a == NULL);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, malloc_async_checks_in_order)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(2 * BLOCK);
    aclrtStream s = NULL;
    void *a = (void *)(uintptr_t)0x77;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_RC(aclrtMemPoolMallocAsync(NULL, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 0, pool, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemPoolMallocAsync: argument 'stream' is NULL");
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 0, pool, s)); /* size 0: nothing, as the reference */
    ASSERT(a == (void *)(uintptr_t)0x77);
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 1, pool, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 1, (aclrtMemPool)(uintptr_t)0x1234, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not a live memory pool");
    /* Boundary: exactly maxSize fits, one byte more does not. */
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 2 * BLOCK, pool, s));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 2 * BLOCK);
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 2 * BLOCK + 1, pool, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cannot take");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, blocks_are_whole_2mib_and_counted)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    char *a = NULL, *b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync((void **)&a, 1, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync((void **)&b, BLOCK + 1, pool, s));
    a[BLOCK - 1] = 1; /* the rounded size is usable */
    b[2 * BLOCK - 1] = 1;
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 3 * BLOCK);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 3 * BLOCK);
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 3 * BLOCK);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 3 * BLOCK);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, freed_block_is_reused_at_once_on_its_stream_only)
{
    static _Atomic int open;
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s1 = NULL, s2 = NULL;
    void *a = NULL, *b = NULL, *c = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s1));
    atomic_store(&open, 0);
    t_launch_flag_gate(&open, s1); /* the free cannot run yet */
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s1));
    /* Another stream may not have it while the free waits ... */
    ASSERT_OK(aclrtMemPoolMallocAsync(&b, BLOCK, pool, s2));
    ASSERT(b != a);
    /* ... but work later on the same stream may, at once. */
    ASSERT_OK(aclrtMemPoolMallocAsync(&c, BLOCK, pool, s1));
    ASSERT(c == a);
    ASSERT_OK(aclrtMemPoolFreeAsync(c, s1));
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s2));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    /* Second occurrence: still gated, so s2 gets b back, never a. */
    ASSERT_OK(aclrtMemPoolMallocAsync(&b, BLOCK, pool, s2));
    ASSERT(b != a);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    /* Once the free has run, any stream may have it. */
    ASSERT_OK(aclrtMemPoolMallocAsync(&c, BLOCK, pool, s2));
    ASSERT(c == a);
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s2));
    ASSERT_OK(aclrtMemPoolFreeAsync(c, s2));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* A malloc takes the smallest free block that holds it: of a free 2 MiB
 * and a free 4 MiB block, a 1-byte malloc gets the 2 MiB one (and the
 * 4 MiB one stays for a larger malloc), reserving nothing new. */
TEST(mempool, a_malloc_takes_the_smallest_free_block_that_fits)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *small = NULL, *large = NULL, *c = NULL, *d = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&small, 1, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&large, BLOCK + 1, pool, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(small, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(large, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&c, 1, pool, s));
    ASSERT(c == small);
    ASSERT_OK(aclrtMemPoolMallocAsync(&d, BLOCK + 1, pool, s));
    ASSERT(d == large);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 3 * BLOCK);
    ASSERT_OK(aclrtMemPoolFreeAsync(c, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(d, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, free_async_checks_in_order)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    char *a = NULL, *d = NULL;
    int local = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync((void **)&a, 64, pool, s));
    ASSERT_RC(aclrtMemPoolFreeAsync(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemPoolFreeAsync(a, NULL), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemPoolFreeAsync: argument 'stream' is NULL");
    ASSERT_RC(aclrtMemPoolFreeAsync(a + 64, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "interior pointer");
    ASSERT_RC(aclrtMemPoolFreeAsync(&local, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "neither a memory pool's block");
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_RC(aclrtMemPoolFreeAsync(a, s), ACL_ERROR_RT_PARAM_INVALID); /* twice, free still queued */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_RC(aclrtMemPoolFreeAsync(a, s), ACL_ERROR_RT_PARAM_INVALID); /* twice, free done */
    /* An aclrtMalloc block is freed in stream order, as the reference does. */
    ASSERT_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemPoolFreeAsync(d, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_RC(aclrtFree(d), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Outside every pool, only the start of an aclrtMalloc block may be freed
 * in stream order: a pointer inside one is refused at the call, and the
 * block stays its owner's to free. */
TEST(mempool, a_stream_ordered_free_refuses_a_pointer_inside_an_aclrt_malloc_block)
{
    aclrtStream s = NULL;
    char *d = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemPoolFreeAsync(d + 64, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "neither a memory pool's block nor the start of an aclrtMalloc block");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, free_queued_on_a_destroyed_stream_still_returns_the_block)
{
    static _Atomic int open;
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 64, pool, s));
    atomic_store(&open, 0);
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool)); /* not busy: the dropped free gave the block back */
    t_teardown();
}

/* ---- attributes and trimming --------------------------------------------------------------- */

TEST(mempool, attributes_checks_and_values)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    uint64_t v = 123;
    int flag = 0;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_RC(aclrtMemPoolSetAttr(NULL, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "read-only");
    ASSERT_RC(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)9, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 123);
    ASSERT_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &flag));
    flag = 7;
    ASSERT_OK(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &flag));
    ASSERT_EQ(flag, 0);
    /* A high mark resets to the current value, and only with 0. */
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    v = 1;
    ASSERT_RC(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "only be reset");
    v = 0;
    ASSERT_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 0);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_RC(aclrtMemPoolGetAttr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Resetting RESERVED_MEM_HIGH (with 0) sets it to what the pool reserves
 * now, not to 0: after a trim from two blocks to one the mark reads one. */
TEST(mempool, resetting_the_reserved_high_mark_sets_it_to_the_current_reserve)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL, *b = NULL;
    uint64_t zero = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&b, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolTrimTo(pool, BLOCK));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), BLOCK);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 2 * BLOCK);
    ASSERT_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &zero));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), BLOCK);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, trim_releases_free_blocks_down_to_keep)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL, *b = NULL, *c = NULL;
    size_t free0 = 0, free1 = 0, total = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_RC(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&b, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&c, BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    /* Keep 4 MiB: the used block stays, one free block goes. */
    ASSERT_OK(aclrtMemPoolTrimTo(pool, 2 * BLOCK));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 2 * BLOCK);
    ASSERT_OK(aclrtMemPoolTrimTo(pool, 0));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), BLOCK); /* what is in use cannot go */
    ASSERT_OK(aclrtMemPoolFreeAsync(c, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolTrimTo(pool, 0));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    ASSERT_EQ(free1, free0); /* every byte is back with the device */
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_RC(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(mempool, pools_end_with_their_device)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL;
    size_t free0 = 0, free1 = 0, total = 0;
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 3 * BLOCK, pool, s));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    ASSERT_EQ(free1, free0);
    ASSERT_RC(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
    t_teardown();
}

/* A reset ends the pools of its own device only: a pool of device 1
 * stays live, with its block, across device 0's reset. */
TEST(mempool, a_device_reset_leaves_other_devices_pools)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtSetDevice(1));
    p.location.id = 1;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, BLOCK, pool, s));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), BLOCK);
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDeviceForce(1));
    t_teardown();
}

/* The pool table holds 1024 pools at once: the 1024th is made, the 1025th
 * is out of memory (207001), and a destroy makes room again. */
TEST(mempool, at_most_1024_pools_exist_at_once)
{
    enum { N = 1024 };
    static aclrtMemPool pools[N];
    aclrtMemPool extra = NULL;
    aclrtMemPoolProps p = props(0);
    t_setup();
    for (int i = 0; i < N; i++)
        ASSERT_OK(aclrtMemPoolCreate(&pools[i], &p));
    ASSERT_RC(aclrtMemPoolCreate(&extra, &p), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "pool slots (1024)");
    ASSERT_OK(aclrtMemPoolDestroy(pools[N - 1]));
    ASSERT_OK(aclrtMemPoolCreate(&pools[N - 1], &p));
    for (int i = 0; i < N; i++)
        ASSERT_OK(aclrtMemPoolDestroy(pools[i]));
    t_teardown();
}

/* The byte just past a pool block is not in the pool: a stream-ordered
 * free of it is refused as no block of any pool (and no aclrtMalloc block
 * start), not as an interior pointer of the block before it. */
TEST(mempool, the_byte_past_a_pool_block_is_outside_the_pool)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    char *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync((void **)&a, BLOCK, pool, s));
    ASSERT_RC(aclrtMemPoolFreeAsync(a + BLOCK - 1, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "interior pointer");
    ASSERT_RC(aclrtMemPoolFreeAsync(a + BLOCK, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "neither a memory pool's block");
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Each reuse attribute, the last (ALLOW_INTERNAL_DEPENDENCIES) too, is set
 * and read back; any non-zero flag reads back as 1. */
TEST(mempool, every_reuse_attribute_reads_back_as_0_or_1)
{
    static const aclrtMemPoolAttr reuse[] = {ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES,
                                             ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
                                             ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES};
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    int flag;
    t_setup();
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    for (size_t i = 0; i < sizeof(reuse) / sizeof(reuse[0]); i++) {
        flag = 0;
        ASSERT_OK(aclrtMemPoolSetAttr(pool, reuse[i], &flag));
        flag = 7;
        ASSERT_OK(aclrtMemPoolGetAttr(pool, reuse[i], &flag));
        ASSERT_EQ(flag, 0);
        flag = 5;
        ASSERT_OK(aclrtMemPoolSetAttr(pool, reuse[i], &flag));
        flag = 7;
        ASSERT_OK(aclrtMemPoolGetAttr(pool, reuse[i], &flag));
        ASSERT_EQ(flag, 1);
    }
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    t_teardown();
}

struct pool_worker {
    aclrtContext ctx;
    aclrtMemPool pool;
};

/* One stream's loop: allocate, use, free, in stream order, many times. */
static void *pool_loop(void *arg)
{
    struct pool_worker *w = arg;
    aclrtStream s = NULL;
    void *p = NULL;
    ASSERT_OK(aclrtSetCurrentContext(w->ctx));
    ASSERT_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 200; i++) {
        ASSERT_OK(aclrtMemPoolMallocAsync(&p, (size_t)(i % 3 + 1) * MIB, w->pool, s));
        ASSERT_OK(aclrtMemsetAsync(p, MIB, i & 0xFF, MIB, s));
        ASSERT_OK(aclrtMemPoolFreeAsync(p, s));
    }
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    return NULL;
}

TEST(mempool, streams_on_several_threads_share_a_pool)
{
    enum { THREADS = 3 };
    struct pool_worker w = {0};
    aclrtMemPoolProps p = props(0);
    pthread_t th[THREADS];
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&w.ctx));
    ASSERT_OK(aclrtMemPoolCreate(&w.pool, &p));
    for (int i = 0; i < THREADS; i++)
        ASSERT(pthread_create(&th[i], NULL, pool_loop, &w) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    ASSERT_EQ(pool_attr(w.pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    /* Freed blocks are reused: without reuse the 600 allocations would
     * reserve over 1 GiB. How many blocks the streams hold at once depends
     * on how their frees and allocations interleave (a block freed on one
     * stream is another's only once the free has run), so the bound leaves
     * room for that: eight blocks of 4 MiB per stream. */
    ASSERT(pool_attr(w.pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT) <= THREADS * 8 * 2 * BLOCK);
    ASSERT_OK(aclrtMemPoolDestroy(w.pool));
    t_teardown();
}

TEST(mempool, refused_free_leaves_the_memory_to_its_owner)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL, *d = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1); /* a SoC that stops streams */
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 64, pool, s));
    ASSERT_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtStreamStop(s)); /* a stopped stream takes no task */
    ASSERT(aclrtMemPoolFreeAsync(a, s) != ACL_SUCCESS);
    ASSERT(aclrtMemPoolFreeAsync(d, s) != ACL_SUCCESS);
    /* Both are still in use: the pool is busy, the aclrtMalloc block still frees. */
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), BLOCK);
    ASSERT_RC(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    t_teardown(); /* the pool goes with its device */
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* Every byte of poolProps->reserved must be 0, the first as the last
 * (create_checks_in_order sets the last). */
TEST(mempool, create_refuses_a_set_first_reserved_byte)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    t_setup();
    p.reserved[0] = 1;
    ASSERT_RC(aclrtMemPoolCreate(&pool, &p), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'poolProps->reserved'");
    t_teardown();
}

/* A stream-ordered pool allocation takes a stream of the current context
 * only: one of another context is 107003. */
TEST(mempool, malloc_async_refuses_a_stream_of_another_context)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(2 * BLOCK);
    aclrtContext primary = NULL, other = NULL;
    aclrtStream foreign = NULL;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtCreateContext(&other, 0)); /* now current */
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_RC(aclrtMemPoolMallocAsync(&a, 1, pool, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT(a == NULL);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 1, pool, foreign));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, foreign));
    ASSERT_OK(aclrtSynchronizeStream(foreign));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    t_teardown();
}

/* A request served by a larger free block uses the whole block: the pool's
 * used memory grows by the block's size (2 blocks), not by the request's
 * rounded size (1 block), and a free gives the same back. */
TEST(mempool, a_small_request_in_a_larger_free_block_uses_the_whole_block)
{
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps p = props(0);
    aclrtStream s = NULL;
    void *a = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMemPoolCreate(&pool, &p));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 2 * BLOCK, pool, s));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 1, pool, s)); /* the one free block, of 2 */
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 2 * BLOCK);
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 2 * BLOCK);
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(pool_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
