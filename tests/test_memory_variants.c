/*
 * test_memory_variants.c - the allocation variants and the pointer and
 * usage queries: aclrtMallocAlign32/Cached/WithCfg/ForTaskScheduler,
 * aclrtMallocHostWithCfg, the frees with a device sync, aclrtMemFlush and
 * aclrtMemInvalidate, aclrtGetMemInfo per attribute, aclrtGetMemUsageInfo,
 * aclrtPointerGetAttributes, aclrtCheckMemType, aclrtMemGetAddressRange.
 *
 * Rules: the reference's src/acl/aclrt_impl/memory.cpp (aclMallocMemInner,
 * GetAlignedAndPaddingSize, aclrtMallocInnerWithCfg, ...), the runtime's
 * checks in api_error.cc and semantics in api_impl.cc (docs/conformance.md
 * lists each rule beside its test).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define MIB (1024u * 1024u)

static size_t used_now(void)
{
    size_t f = 0, t = 0;
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t));
    return t - f;
}

/* The bytes one allocation made by alloc charges against the budget. */
#define CHARGE_OF(call, p_out, bytes_out)                                                                      \
    do {                                                                                                       \
        size_t before_ = used_now();                                                                           \
        ASSERT_OK(call);                                                                                       \
        *(bytes_out) = used_now() - before_;                                                                   \
        ASSERT_OK(aclrtFree(*(p_out)));                                                                        \
    } while (0)

/* The latest message (reading it clears it) holds needle. */
#define ASSERT_MSG(needle) ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), needle)
/* ... and names the function too. */
#define ASSERT_MSG2(fn, needle)                                                                                \
    do {                                                                                                       \
        const char *m_ = aclGetRecentErrMsg();                                                                 \
        ASSERT_STR_CONTAINS(m_, fn);                                                                           \
        ASSERT_STR_CONTAINS(m_, needle);                                                                       \
    } while (0)

/* ---- padding ---------------------------------------------------------------------- */

TEST(memory_variants, align32_rounds_to_32_without_padding)
{
    void *p = NULL;
    size_t c = 0;
    t_setup();
    CHARGE_OF(aclrtMallocAlign32(&p, 1, ACL_MEM_MALLOC_HUGE_FIRST), &p, &c);
    ASSERT_EQ(c, 32);
    CHARGE_OF(aclrtMallocAlign32(&p, 32, ACL_MEM_MALLOC_NORMAL_ONLY), &p, &c);
    ASSERT_EQ(c, 32);
    CHARGE_OF(aclrtMallocAlign32(&p, 33, ACL_MEM_MALLOC_HUGE_ONLY), &p, &c);
    ASSERT_EQ(c, 64);
    CHARGE_OF(aclrtMalloc(&p, 33, ACL_MEM_MALLOC_HUGE_FIRST), &p, &c);
    ASSERT_EQ(c, 96); /* aclrtMalloc: 64 + 32 of padding */
    ASSERT_EQ((uintptr_t)p % 64, 0);
    t_teardown();
}

TEST(memory_variants, malloc_cached_pads_as_malloc)
{
    void *p = NULL;
    size_t c = 0;
    t_setup();
    CHARGE_OF(aclrtMallocCached(&p, 1, ACL_MEM_MALLOC_HUGE_FIRST), &p, &c);
    ASSERT_EQ(c, 64);
    CHARGE_OF(aclrtMallocCached(&p, 100, ACL_MEM_MALLOC_NORMAL_ONLY), &p, &c);
    ASSERT_EQ(c, 160);
    ASSERT_RC(aclrtMallocCached(NULL, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMallocCached: argument 'devPtr' is NULL");
    ASSERT_RC(aclrtMallocCached(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMallocCached: argument 'size' is 0");
    t_teardown();
}

TEST(memory_variants, huge1g_policies_have_no_padding)
{
    void *p = NULL;
    size_t c = 0;
    t_setup();
    CHARGE_OF(aclrtMalloc(&p, 1, ACL_MEM_MALLOC_HUGE1G_ONLY), &p, &c);
    ASSERT_EQ(c, 32);
    CHARGE_OF(aclrtMalloc(&p, 33, ACL_MEM_MALLOC_HUGE1G_ONLY_P2P), &p, &c);
    ASSERT_EQ(c, 64);
    CHARGE_OF(aclrtMallocCached(&p, 1, ACL_MEM_MALLOC_HUGE1G_ONLY), &p, &c);
    ASSERT_EQ(c, 32);
    CHARGE_OF(aclrtMalloc(&p, 1, ACL_MEM_MALLOC_HUGE_ONLY_P2P), &p, &c);
    ASSERT_EQ(c, 64);
    t_teardown();
}

/* The reference refuses (100000) a size whose rounding and padding would
 * wrap, and lets one byte less through to the allocator (207001 here). */
TEST(memory_variants, size_that_would_wrap_is_refused)
{
    void *p = NULL;
    t_setup();
    ASSERT_RC(aclrtMallocAlign32(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMallocAlign32: argument 'size'");
    ASSERT_RC(aclrtMallocAlign32(&p, SIZE_MAX - 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_RC(aclrtMalloc(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMalloc(&p, SIZE_MAX - 32, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_RC(aclrtMallocCached(&p, SIZE_MAX - 63, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMallocCached(&p, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_RC(aclrtMallocWithCfg(&p, SIZE_MAX - 30, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("aclrtMallocWithCfg: argument 'size'");
    ASSERT_RC(aclrtMallocWithCfg(&p, SIZE_MAX - 31, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_RC(aclrtMallocHostWithCfg(&p, (uint64_t)SIZE_MAX - 30, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtMallocHostWithCfg(&p, (uint64_t)SIZE_MAX - 31, NULL), ACL_ERROR_RT_MEMORY_ALLOCATION); /* the last */
    ASSERT_EQ(used_now(), 0);
    t_teardown();
}

TEST(memory_variants, size_at_budget_fits_one_byte_over_does_not)
{
    void *p = NULL;
    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    ASSERT_OK(aclrtMallocAlign32(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(p));
    ASSERT_RC(aclrtMallocAlign32(&p, MIB + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_MSG("aclrtMallocAlign32");
    ASSERT_OK(aclrtMallocWithCfg(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
    ASSERT_OK(aclrtFree(p));
    ASSERT_RC(aclrtMallocWithCfg(&p, MIB + 1, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtMallocCached(&p, MIB - 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(p));
    ASSERT_RC(aclrtMallocCached(&p, MIB - 31, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_EQ(used_now(), 0);
    t_teardown();
}

/* ---- configured allocations ------------------------------------------------------- */

/* Checks each configured allocation shares, for fn = WithCfg or ForTaskScheduler. */
static void cfg_rules(aclError (*fn)(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *), const char *name)
{
    void *p = NULL;
    aclrtMallocAttribute at[2];
    aclrtMallocConfig none = {NULL, 0}, missing = {NULL, 1}, cfg = {at, 1};

    ASSERT_RC(fn(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG2(name, "argument 'devPtr' is NULL");
    ASSERT_RC(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &missing), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG2(name, "'cfg->attrs' is NULL but 'cfg->numAttrs' is 1");
    /* the attrs check comes before the size check, as in the reference */
    ASSERT_RC(fn(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, &missing), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("'cfg->numAttrs'");
    ASSERT_RC(fn(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("argument 'size' is 0");
    ASSERT_RC(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &none), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("'cfg->attrs' is NULL");

    at[0] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_VA_FLAG, .value.vaFlag = 1};
    ASSERT_RC(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("cfg->attrs[0].attr is 3 (ACL_RT_MEM_ATTR_VA_FLAG)");
    at[0] = (aclrtMallocAttribute){.attr = (aclrtMallocAttrType)7};
    ASSERT_RC(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    at[0] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_DEVICE_ID, .value.deviceId = 1};
    ASSERT_RC(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("ACL_RT_MEM_ATTR_DEVICE_ID 1, but the current device is 0");
    /* a repeated attribute: the last counts */
    at[1] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_DEVICE_ID, .value.deviceId = 0};
    cfg.numAttrs = 2;
    ASSERT_OK(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    ASSERT_OK(aclrtFree(p));
    at[0] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_MODULE_ID, .value.moduleId = 7};
    at[1] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_RSV};
    ASSERT_OK(fn(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH, &cfg));
    ASSERT_OK(aclrtFree(p));
    ASSERT_EQ(used_now(), 0);
}

TEST(memory_variants, with_cfg_checks_attrs_then_size_then_each_attribute)
{
    void *p = NULL;
    size_t c = 0;
    t_setup();
    cfg_rules(aclrtMallocWithCfg, "aclrtMallocWithCfg");
    CHARGE_OF(aclrtMallocWithCfg(&p, 1, ACL_MEM_MALLOC_HUGE_FIRST, NULL), &p, &c);
    ASSERT_EQ(c, 32); /* the runtime rounds to 32 and adds no padding */
    t_teardown();
}

TEST(memory_variants, task_scheduler_memory_has_the_same_checks)
{
    void *p = NULL;
    size_t c = 0;
    t_setup();
    cfg_rules(aclrtMallocForTaskScheduler, "aclrtMallocForTaskScheduler");
    CHARGE_OF(aclrtMallocForTaskScheduler(&p, 33, ACL_MEM_MALLOC_NORMAL_ONLY, NULL), &p, &c);
    ASSERT_EQ(c, 64);
    t_teardown();
}

TEST(memory_variants, host_with_cfg_takes_module_id_and_va_flag_only)
{
    void *p = NULL;
    aclrtMallocAttribute at[2] = {{.attr = ACL_RT_MEM_ATTR_MODULE_ID}, {.attr = ACL_RT_MEM_ATTR_VA_FLAG}};
    aclrtMallocConfig cfg = {at, 2}, none = {NULL, 0};

    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMallocHostWithCfg(&p, 64, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
    t_setup();
    ASSERT_RC(aclrtMallocHostWithCfg(NULL, 64, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMallocHostWithCfg: argument 'ptr' is NULL");
    ASSERT_RC(aclrtMallocHostWithCfg(&p, 0, &cfg), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("argument 'size' is 0");
    ASSERT_RC(aclrtMallocHostWithCfg(&p, 64, &none), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("'cfg->attrs' is NULL");
    at[1].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    ASSERT_RC(aclrtMallocHostWithCfg(&p, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("cfg->attrs[1].attr is 2 (ACL_RT_MEM_ATTR_DEVICE_ID)");
    at[1].attr = ACL_RT_MEM_ATTR_RSV;
    ASSERT_RC(aclrtMallocHostWithCfg(&p, 64, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    at[1].attr = ACL_RT_MEM_ATTR_VA_FLAG;
    ASSERT_OK(aclrtMallocHostWithCfg(&p, 64, &cfg));
    memset(p, 0xab, 64);
    ASSERT_OK(aclrtFreeHost(p));
    ASSERT_OK(aclrtMallocHostWithCfg(&p, 1, NULL));
    ASSERT_OK(aclrtFreeHost(p));
    ASSERT_EQ(used_now(), 0); /* host memory is not the device's */
    t_teardown();
}

/* ---- frees after a device sync -------------------------------------------------------- */

struct opener {
    struct t_gate *g;
    _Atomic int *calling;
};

/* Opens the gate once the main thread is inside the free. */
static void *open_when_freeing(void *arg)
{
    struct opener *o = arg;
    (void)t_wait_flag(o->calling, 1);
    atomic_store(&o->g->open, 1);
    return NULL;
}

/* The free returns only after the device's work is done: the gate kernel,
 * opened only once the free was called, has finished when it returns. */
static void free_waits_for(bool device)
{
    struct t_gate g = {0};
    _Atomic int calling = 0;
    struct opener o = {&g, &calling};
    aclrtStream s = NULL;
    pthread_t th;
    void *p = NULL;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(device ? aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST) : aclrtMallocHost(&p, 4096));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 1, 4096, s));
    ASSERT_EQ(pthread_create(&th, NULL, open_when_freeing, &o), 0);
    atomic_store(&calling, 1);
    ASSERT_OK(device ? aclrtFreeWithDevSync(p) : aclrtFreeHostWithDevSync(p));
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    /* A second free: the driver's 207002 for device memory; for pinned
     * memory the runtime's attribute check answers first (107000). */
    ASSERT_RC(device ? aclrtFreeWithDevSync(p) : aclrtFreeHostWithDevSync(p),
              device ? ACL_ERROR_RT_MEMORY_FREE : ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG(device ? "aclrtFreeWithDevSync" : "aclrtFreeHostWithDevSync");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(memory_variants, free_with_dev_sync_waits_for_the_device)
{
    free_waits_for(true);
}

TEST(memory_variants, free_host_with_dev_sync_waits_for_the_device)
{
    free_waits_for(false);
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* A failed device sync is returned and frees nothing: the block is still
 * live, and the next free takes it. */
TEST(memory_variants, free_with_dev_sync_frees_nothing_when_the_sync_fails)
{
    aclrtStream s = NULL;
    void *p = NULL, *base = NULL;
    aclError err;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("variants_trap", k_trap), 1, NULL, 0, s));
    err = aclrtFreeWithDevSync(p);
    ASSERT(err != ACL_SUCCESS);
    ASSERT_MSG("aclrtFreeWithDevSync: synchronising the device before the free failed");
    ASSERT_OK(aclrtMemGetAddressRange(p, &base, NULL));
    ASSERT(base == p);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(memory_variants, free_with_dev_sync_refuses_foreign_interior_and_freed_pointers)
{
    char *d = NULL, *h = NULL, stack[64];
    t_setup();
    ASSERT_RC(aclrtFreeWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtFreeWithDevSync: argument 'devPtr' is NULL");
    ASSERT_RC(aclrtFreeHostWithDevSync(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtFreeHostWithDevSync: argument 'hostPtr' is NULL");
    ASSERT_OK(aclrtMalloc((void **)&d, 256, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost((void **)&h, 256));
    ASSERT_RC(aclrtFreeWithDevSync(d + 64), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFreeWithDevSync(stack), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFreeWithDevSync(h), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFreeHostWithDevSync(d), ACL_ERROR_RT_PARAM_INVALID); /* as aclrtFreeHost: not a host address */
    ASSERT_MSG("aclrtFreeHostWithDevSync: argument 'hostPtr'");
    ASSERT_RC(aclrtFreeHostWithDevSync(stack), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_MSG("not the start of a live aclrtMallocHost block");
    ASSERT_OK(aclrtFreeWithDevSync(d));
    ASSERT_OK(aclrtFreeHostWithDevSync(h));
    ASSERT_RC(aclrtFreeWithDevSync(d), ACL_ERROR_RT_MEMORY_FREE);
    ASSERT_RC(aclrtFreeHostWithDevSync(h), ACL_ERROR_RT_PARAM_INVALID); /* freed: its attributes cannot be read */
    t_teardown();
}

/* ---- cache maintenance ------------------------------------------------------------------ */

TEST(memory_variants, flush_and_invalidate_check_null_and_size)
{
    void *p = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&p, 128, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_RC(aclrtMemFlush(NULL, 128), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMemFlush: argument 'devPtr' is NULL");
    ASSERT_RC(aclrtMemFlush(p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMemFlush: argument 'size' is 0");
    ASSERT_RC(aclrtMemInvalidate(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMemInvalidate: argument 'devPtr' is NULL");
    ASSERT_RC(aclrtMemInvalidate(p, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtMemFlush(p, 128));
    ASSERT_OK(aclrtMemInvalidate(p, 128));
    ASSERT_OK(aclrtMemFlush(p, 1));
    ASSERT_OK(aclrtFree(p));
    t_teardown();
}

/* ---- aclrtGetMemInfo ------------------------------------------------------------------- */

TEST(memory_variants, get_mem_info_every_attr_sees_the_arena_exactly)
{
    void *p = NULL, *q = NULL;
    size_t f = 0, t = 0;
    setenv("ACLCPU_DEVICE_MEMORY", "1M", 1);
    t_setup();
    ASSERT_OK(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST));    /* 1024 + 32 */
    ASSERT_OK(aclrtMallocAlign32(&q, 1000, ACL_MEM_MALLOC_NORMAL_ONLY)); /* 1024 */
    for (int a = ACL_DDR_MEM; a <= ACL_MEM_P2P_HUGE1G; a++) {
        ASSERT_OK(aclrtGetMemInfo((aclrtMemAttr)a, &f, &t));
        ASSERT_EQ(t, MIB);
        ASSERT_EQ(f, MIB - 1056 - 1024);
    }
    ASSERT_RC(aclrtGetMemInfo((aclrtMemAttr)(ACL_MEM_P2P_HUGE1G + 1), &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    ASSERT_MSG("aclrtGetMemInfo: argument 'attr' (18)");
    ASSERT_RC(aclrtGetMemInfo((aclrtMemAttr)-1, &f, &t), ACL_ERROR_RT_INVALID_MEMORY_TYPE);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtFree(q));
    ASSERT_OK(aclrtGetMemInfo(ACL_MEM_HUGE1G, &f, &t));
    ASSERT_EQ(f, MIB);
    t_teardown();
}

/* ---- aclrtGetMemUsageInfo ----------------------------------------------------------------- */

TEST(memory_variants, mem_usage_reports_current_and_peak)
{
    aclrtMemUsageInfo info[4];
    size_t n = 99;
    void *p = NULL, *q = NULL;

    t_setup();
    ASSERT_RC(aclrtGetMemUsageInfo(0, NULL, 4, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtGetMemUsageInfo: argument 'memUsageInfo' is NULL");
    ASSERT_RC(aclrtGetMemUsageInfo(0, info, 4, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetMemUsageInfo(0, info, 0, &n), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(n, 0);
    ASSERT_MSG("'inputNum' is 0");
    ASSERT_RC(aclrtGetMemUsageInfo(-1, info, 4, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetMemUsageInfo(1 << 20, info, 4, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_MSG("'deviceId' (1048576)");

    ASSERT_OK(aclrtMalloc(&p, 4000, ACL_MEM_MALLOC_HUGE_FIRST)); /* 4000 + 32 */
    ASSERT_OK(aclrtMalloc(&q, 100, ACL_MEM_MALLOC_HUGE_FIRST));  /* 128 + 32 */
    ASSERT_OK(aclrtGetMemUsageInfo(0, info, 4, &n));
    ASSERT_EQ(n, 1);
    ASSERT_STR_CONTAINS(info[0].name, "APP");
    ASSERT_EQ(info[0].curMemSize, 4032 + 160);
    ASSERT_EQ(info[0].memPeakSize, 4032 + 160);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtGetMemUsageInfo(0, info, 1, &n));
    ASSERT_EQ(info[0].curMemSize, 160);
    ASSERT_EQ(info[0].memPeakSize, 4032 + 160);
    ASSERT_OK(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST)); /* below the peak: it stays */
    ASSERT_OK(aclrtGetMemUsageInfo(0, info, 1, &n));
    ASSERT_EQ(info[0].curMemSize, 320);
    ASSERT_EQ(info[0].memPeakSize, 4032 + 160);
    ASSERT_OK(aclrtFree(p));
    ASSERT_OK(aclrtFree(q));
    t_teardown();
}

/* ---- aclrtPointerGetAttributes ------------------------------------------------------------- */

TEST(memory_variants, pointer_attributes_tell_device_host_and_pageable)
{
    aclrtPtrAttributes a;
    char *d = NULL, *big = NULL, *h = NULL, stack[16];

    t_setup();
    ASSERT_RC(aclrtPointerGetAttributes(NULL, &a), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtPointerGetAttributes: argument 'ptr' is NULL");
    ASSERT_RC(aclrtPointerGetAttributes(stack, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("argument 'attributes' is NULL");
    ASSERT_OK(aclrtMalloc((void **)&d, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&big, 4 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost((void **)&h, 100));

    memset(&a, 0xff, sizeof(a));
    ASSERT_OK(aclrtPointerGetAttributes(d, &a));
    ASSERT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    ASSERT_EQ(a.location.id, 0);
    ASSERT_EQ(a.pageSize, 4096);
    ASSERT_EQ(a.rsv[0], 0);
    ASSERT_OK(aclrtPointerGetAttributes(d + 131, &a)); /* the last byte: 100 + 32 of padding */
    ASSERT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    ASSERT_RC(aclrtPointerGetAttributes(d + 132, &a), ACL_ERROR_RT_PARAM_INVALID); /* one past */
    ASSERT_MSG("is device or pinned memory that is not allocated");
    ASSERT_OK(aclrtPointerGetAttributes(big + 4 * MIB - 1, &a));
    ASSERT_EQ(a.pageSize, 2 * MIB);
    ASSERT_OK(aclrtPointerGetAttributes(h + 50, &a));
    ASSERT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_HOST);
    ASSERT_OK(aclrtPointerGetAttributes(stack, &a));
    ASSERT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    ASSERT_EQ(a.location.id, 0);

    ASSERT_OK(aclrtFree(d));
    ASSERT_RC(aclrtPointerGetAttributes(d, &a), ACL_ERROR_RT_PARAM_INVALID); /* freed */
    ASSERT_OK(aclrtFree(big));
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_RC(aclrtPointerGetAttributes(h, &a), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

/* ---- aclrtCheckMemType -------------------------------------------------------------------- */

TEST(memory_variants, check_mem_type_checks_then_matches_every_address)
{
    uint32_t r = 7;
    char *d = NULL, *e = NULL, *h = NULL, stack[16];
    void *list[3];

    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocAlign32((void **)&e, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost((void **)&h, 64));
    list[0] = d;
    list[1] = e + 63;
    ASSERT_RC(aclrtCheckMemType(NULL, 1, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtCheckMemType: argument 'addrList' is NULL");
    ASSERT_RC(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(r, 0);
    ASSERT_MSG("'reserve' is 1");
    ASSERT_RC(aclrtCheckMemType(list, 0, ACL_RT_MEM_TYPE_DEV, &r, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("'size' is 0");
    /* the ACL header's RSVD value (0x10) is not among the runtime's (0x20) */
    ASSERT_RC(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_RSVD, &r, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("'memType' is 0x10");

    ASSERT_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV, &r, 0));
    ASSERT_EQ(r, 1);
    ASSERT_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | 0x20u, &r, 0));
    ASSERT_EQ(r, 1);
    ASSERT_OK(aclrtCheckMemType(list, 2, ACL_RT_MEM_TYPE_DVPP, &r, 0));
    ASSERT_EQ(r, 0);
    list[2] = h;
    ASSERT_OK(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
    ASSERT_EQ(r, 0);
    list[2] = stack;
    ASSERT_OK(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
    ASSERT_EQ(r, 0);
    list[2] = e + 64; /* one past Align32's 64 bytes */
    ASSERT_OK(aclrtCheckMemType(list, 3, ACL_RT_MEM_TYPE_DEV, &r, 0));
    ASSERT_EQ(r, 0);
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 0)); /* freed */
    ASSERT_EQ(r, 0);
    ASSERT_OK(aclrtFree(e));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- aclrtMemGetAddressRange --------------------------------------------------------------- */

TEST(memory_variants, address_range_is_the_block_holding_the_pointer)
{
    char *d = NULL, *e = NULL, *h = NULL, stack[16];
    void *base = NULL;
    size_t size = 0;

    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&d, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocAlign32((void **)&e, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMallocHost((void **)&h, 100));
    ASSERT_RC(aclrtMemGetAddressRange(NULL, &base, &size), ACL_ERROR_INVALID_PARAM);
    ASSERT_MSG("aclrtMemGetAddressRange: argument 'ptr' is NULL");
    ASSERT_RC(aclrtMemGetAddressRange(d, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("'pbase' and 'psize' are both NULL");

    ASSERT_OK(aclrtMemGetAddressRange(d + 50, &base, &size));
    ASSERT(base == d);
    ASSERT_EQ(size, 132);
    ASSERT_OK(aclrtMemGetAddressRange(d + 131, &base, NULL));
    ASSERT(base == d);
    ASSERT_RC(aclrtMemGetAddressRange(d + 132, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("lies in no live allocation");
    ASSERT_OK(aclrtMemGetAddressRange(e + 99, NULL, &size));
    ASSERT_EQ(size, 100);
    ASSERT_RC(aclrtMemGetAddressRange(e + 100, NULL, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtMemGetAddressRange(h + 99, &base, &size));
    ASSERT(base == h);
    ASSERT_EQ(size, 128); /* pinned host memory is rounded to 32 */
    ASSERT_RC(aclrtMemGetAddressRange(stack, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFree(d));
    ASSERT_RC(aclrtMemGetAddressRange(d, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFree(e));
    ASSERT_OK(aclrtFreeHost(h));
    t_teardown();
}

/* ---- sweep 4: page size boundary, device id, reserved memory (2026-12-05) -------------------- */

/* A device block reports 2 MiB pages from a size of exactly 2 MiB on (the
 * block's size: the request rounded to 32 plus 32 bytes of padding), 4 KiB
 * pages below. */
TEST(memory_variants, a_block_of_exactly_2mib_reports_huge_pages)
{
    aclrtPtrAttributes a;
    void *at = NULL, *below = NULL;
    size_t size = 0;
    t_setup();
    ASSERT_OK(aclrtMalloc(&at, 2 * MIB - 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&below, 2 * MIB - 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemGetAddressRange(at, NULL, &size));
    ASSERT_EQ(size, 2 * MIB);
    ASSERT_OK(aclrtPointerGetAttributes(at, &a));
    ASSERT_EQ(a.pageSize, 2 * MIB);
    ASSERT_OK(aclrtPointerGetAttributes(below, &a));
    ASSERT_EQ(a.pageSize, 4096);
    ASSERT_OK(aclrtFree(at));
    ASSERT_OK(aclrtFree(below));
    t_teardown();
}

/* A device block's attributes name the device it was allocated on. */
TEST(memory_variants, pointer_attributes_name_the_blocks_device)
{
    aclrtPtrAttributes a;
    void *d1 = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtSetDevice(0));
    memset(&a, 0xff, sizeof(a));
    ASSERT_OK(aclrtPointerGetAttributes(d1, &a));
    ASSERT_EQ(a.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
    ASSERT_EQ(a.location.id, 1);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtFree(d1));
    ASSERT_OK(aclrtResetDevice(1));
    t_teardown();
}

/* Memory mapped into a reserved range (aclrtMapMem) is of the runtime's
 * reserved type (0x20), not ACL_RT_MEM_TYPE_DEV. */
TEST(memory_variants, check_mem_type_tells_mapped_memory_as_reserved)
{
    aclrtPhysicalMemProp prop;
    aclrtDrvMemHandle h = NULL;
    void *v = NULL, *list[1];
    uint32_t r = 7;
    t_setup();
    memset(&prop, 0, sizeof(prop));
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    ASSERT_OK(aclrtReserveMemAddress(&v, 2 * MIB, 0, NULL, 0));
    ASSERT_OK(aclrtMallocPhysical(&h, 2 * MIB, &prop, 0));
    ASSERT_OK(aclrtMapMem(v, 2 * MIB, 0, h, 0));
    list[0] = v;
    ASSERT_OK(aclrtCheckMemType(list, 1, 0x20u, &r, 0));
    ASSERT_EQ(r, 1);
    ASSERT_OK(aclrtCheckMemType(list, 1, ACL_RT_MEM_TYPE_DEV, &r, 0));
    ASSERT_EQ(r, 0);
    ASSERT_OK(aclrtUnmapMem(v));
    ASSERT_OK(aclrtFreePhysical(h));
    ASSERT_OK(aclrtReleaseMemAddress(v));
    t_teardown();
}

/* A DEVICE_ID attribute that names another device is refused by its own
 * index in the list (the last DEVICE_ID's), not the first attribute's. */
TEST(memory_variants, cfg_device_id_mismatch_names_the_attribute_that_set_it)
{
    void *p = NULL;
    aclrtMallocAttribute at[2];
    aclrtMallocConfig cfg = {at, 2};
    t_setup();
    at[0] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_MODULE_ID, .value.moduleId = 7};
    at[1] = (aclrtMallocAttribute){.attr = ACL_RT_MEM_ATTR_DEVICE_ID, .value.deviceId = 3};
    ASSERT_RC(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("cfg->attrs[1] is ACL_RT_MEM_ATTR_DEVICE_ID 3");
    t_teardown();
}

/* A mapping from the table (here registered host memory) holds its
 * pointers up to its last byte: the byte just past it lies in none, like
 * the byte past an allocated block. */
TEST(memory_variants, address_range_of_a_mapping_ends_at_its_last_byte)
{
    char *buf = aligned_alloc(4096, 3 * 4096);
    void *dev = NULL, *base = NULL;
    size_t size = 0;
    ASSERT(buf != NULL);
    t_setup();
    ASSERT_OK(aclrtHostRegister(buf + 4096, 4096, ACL_HOST_REGISTER_MAPPED, &dev));
    ASSERT_OK(aclrtMemGetAddressRange(buf + 2 * 4096 - 1, &base, &size));
    ASSERT(base == buf + 4096);
    ASSERT_EQ(size, 4096);
    ASSERT_RC(aclrtMemGetAddressRange(buf + 2 * 4096, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_MSG("lies in no live allocation");
    ASSERT_OK(aclrtHostUnregister(buf + 4096));
    t_teardown();
    free(buf);
}
