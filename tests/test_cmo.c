/*
 * test_cmo.c - the cache tasks beyond aclrtCmoAsync: with a barrier id and
 * waiting on barriers (Ascend310B1 only), with a descriptor in device
 * memory (A2, A3, 950), both in models only; and aclrtDeviceL2CacheFlush.
 * The checks in the reference's order (memory.cpp, kernel.cpp,
 * device.cpp; api_c_memory.cc, api_c_standard_soc.cc, api_error.cc), the
 * descriptor's bytes, and the model-only rule (507000 elsewhere).
 */
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* The call fails with code and the recent message names needle. */
#define FAILS(call, code, needle)                                                                                \
    do {                                                                                                       \
        const char *msg_;                                                                                      \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        msg_ = aclGetRecentErrMsg();                                                                           \
        ASSERT_STR_CONTAINS(msg_, needle);                                                                     \
    } while (0)

static void use_soc(const char *name)
{
    ASSERT(setenv("ACLCPU_SOC", name, 1) == 0);
    ASSERT_OK(aclInit(NULL));
}

static aclrtStream dead_stream(void)
{
    aclrtStream s = NULL;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    return s;
}

/* Captures what fill() issues on a fresh stream, runs the model twice. */
static void capture_and_run(aclrtStream s, aclError (*fill)(aclrtStream, void *), void *arg)
{
    aclmdlRI m = NULL;
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(fill(s, arg));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
}

/* ---- aclrtCmoAsyncWithBarrier ---------------------------------------------------------------- */

TEST(cmo, with_barrier_src_null_then_soc_207000)
{
    static char buf[64];
    use_soc("Ascend910B1");
    FAILS(aclrtCmoAsyncWithBarrier(NULL, 0, ACL_RT_CMO_TYPE_INVALID, 0, NULL), ACL_ERROR_INVALID_PARAM,
          "aclrtCmoAsyncWithBarrier: argument 'src' is NULL");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 0, ACL_RT_CMO_TYPE_INVALID, 0, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "Ascend910B1 has no cache operations with barriers");
    ASSERT_OK(aclFinalize());
}

TEST(cmo, with_barrier_checks_size_barrier_type_before_the_stream)
{
    static char buf[64];
    aclrtStream dead;
    use_soc("Ascend310B1");
    /* No device yet: the argument checks come first. */
    FAILS(aclrtCmoAsyncWithBarrier(buf, 0, (aclrtCmoType)9, 0, NULL), ACL_ERROR_RT_PARAM_INVALID, "'size' is 0");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_INVALID, 0, NULL), ACL_ERROR_RT_PARAM_INVALID,
          "an INVALID operation needs a barrier id above 0");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_PREFETCH, 1, NULL), ACL_ERROR_RT_PARAM_INVALID,
          "'barrierId' is 1");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_FLUSH, 7, NULL), ACL_ERROR_RT_PARAM_INVALID,
          "'barrierId' is 7");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, (aclrtCmoType)4, 5, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
          "'cmoType' is 4");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_INVALID, 1, NULL), ACL_ERROR_RT_CONTEXT_NULL,
          "aclrtCmoAsyncWithBarrier");
    ASSERT_OK(aclrtSetDevice(0));
    dead = dead_stream();
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, (aclrtCmoType)4, 0, dead), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "'cmoType'");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_INVALID, 1, dead), ACL_ERROR_RT_INVALID_HANDLE,
          "'stream'");
    t_teardown();
}

TEST(cmo, with_barrier_outside_a_model_is_507000)
{
    static char buf[64];
    aclrtStream s = NULL;
    use_soc("Ascend310B1");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_INVALID, 3, s), ACL_ERROR_RT_INTERNAL_ERROR,
          "stream 1 is in no model");
    FAILS(aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_PREFETCH, 0, NULL), ACL_ERROR_RT_INTERNAL_ERROR,
          "is in no model");
    ASSERT_OK(aclrtSynchronizeStream(s)); /* nothing was queued */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static aclError barrier_pair(aclrtStream s, void *buf)
{
    aclrtBarrierTaskInfo info = {.barrierNum = 1, .cmoInfo = {{ACL_RT_CMO_TYPE_INVALID, 3}}};
    aclError err = aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_INVALID, 3, s);
    if (err == ACL_SUCCESS)
        err = aclrtCmoAsyncWithBarrier(buf, 64, ACL_RT_CMO_TYPE_WRITEBACK, 0, s);
    if (err == ACL_SUCCESS)
        err = aclrtCmoWaitBarrier(&info, s, 0);
    return err;
}

/* The 310B captures no stream: its model tasks go to a stream bound to a
 * model being built. */
TEST(cmo, with_barrier_and_wait_are_taken_by_a_built_model_and_run)
{
    static char buf[64];
    aclrtStream s = NULL, exec = NULL;
    aclmdlRI m = NULL;
    use_soc("Ascend310B1");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(barrier_pair(s, buf));
    ASSERT_OK(aclmdlRIEndTask(m, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_OK(aclmdlRIUnbindStream(m, s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    t_teardown();
}

/* ---- aclrtCmoWaitBarrier --------------------------------------------------------------------- */

TEST(cmo, wait_barrier_checks_task_info_before_the_soc)
{
    aclrtBarrierTaskInfo info;
    use_soc("Ascend910B1");
    FAILS(aclrtCmoWaitBarrier(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM, "argument 'taskInfo' is NULL");
    memset(&info, 0, sizeof(info));
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_INVALID_PARAM, "'taskInfo->barrierNum' is 0");
    info.barrierNum = 7; /* the first refused */
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_INVALID_PARAM, "'taskInfo->barrierNum' is 7");
    info.barrierNum = 6; /* the last accepted: each entry is checked next */
    for (int i = 0; i < 6; i++)
        info.cmoInfo[i] = (aclrtBarrierCmoInfo){ACL_RT_CMO_TYPE_INVALID, (uint32_t)i + 1};
    info.cmoInfo[5].cmoType = ACL_RT_CMO_TYPE_PREFETCH;
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "'taskInfo->cmoInfo[5].cmoType' is 0");
    info.cmoInfo[5].cmoType = ACL_RT_CMO_TYPE_INVALID;
    info.cmoInfo[2].barrierId = 0;
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "'taskInfo->cmoInfo[2].barrierId' is 0");
    info.cmoInfo[2].barrierId = 9;
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "has no cache barriers");
    ASSERT_OK(aclFinalize());
}

TEST(cmo, wait_barrier_type_is_narrowed_to_16_bits_as_the_acl_layer_does)
{
    aclrtBarrierTaskInfo info = {.barrierNum = 1, .cmoInfo = {{(aclrtCmoType)0x10002, 4}}};
    use_soc("Ascend910B1");
    /* 0x10002 reads as INVALID: the entry passes and the SoC is refused. */
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "has no cache barriers");
    ASSERT_OK(aclFinalize());
}

TEST(cmo, wait_barrier_stream_context_and_model_on_the_310b)
{
    aclrtBarrierTaskInfo info = {.barrierNum = 1, .cmoInfo = {{ACL_RT_CMO_TYPE_INVALID, 1}}};
    aclrtStream dead, s = NULL;
    use_soc("Ascend310B1");
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 123), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCmoWaitBarrier");
    ASSERT_OK(aclrtSetDevice(0));
    dead = dead_stream();
    FAILS(aclrtCmoWaitBarrier(&info, dead, 0), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_OK(aclrtCreateStream(&s));
    FAILS(aclrtCmoWaitBarrier(&info, s, 0), ACL_ERROR_RT_INTERNAL_ERROR, "is in no model");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- descriptors ------------------------------------------------------------------------------ */

TEST(cmo, desc_size_is_32_on_a2_and_a3_and_64_on_the_950)
{
    size_t n = 0;
    use_soc("Ascend910B3");
    FAILS(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtCmoGetDescSize: argument 'size' is NULL");
    ASSERT_OK(aclrtCmoGetDescSize(&n)); /* no device needed */
    ASSERT_EQ(n, 32);
    ASSERT_OK(aclFinalize());
    use_soc("Ascend910_9392");
    ASSERT_OK(aclrtCmoGetDescSize(&n));
    ASSERT_EQ(n, 32);
    ASSERT_OK(aclFinalize());
    use_soc("Ascend950PR");
    ASSERT_OK(aclrtCmoGetDescSize(&n));
    ASSERT_EQ(n, 64);
    ASSERT_OK(aclFinalize());
}

TEST(cmo, desc_calls_check_the_soc_first)
{
    size_t n = 0;
    use_soc("Ascend310P3");
    FAILS(aclrtCmoGetDescSize(NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "Ascend310P3 has no cache descriptors");
    FAILS(aclrtCmoSetDesc(NULL, NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoSetDesc: Ascend310P3");
    FAILS(aclrtCmoAsyncWithDesc(NULL, (aclrtCmoType)9, (aclrtStream)(uintptr_t)0x1234, NULL),
          ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtCmoAsyncWithDesc: Ascend310P3");
    ASSERT(n == 0);
    ASSERT_OK(aclFinalize());
}

TEST(cmo, set_desc_checks_in_order)
{
    static char host[64];
    void *desc = NULL, *data = NULL;
    use_soc("Ascend910B1");
    FAILS(aclrtCmoSetDesc(NULL, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "argument 'cmoDesc' is NULL");
    FAILS(aclrtCmoSetDesc(host, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "argument 'src' is NULL");
    FAILS(aclrtCmoSetDesc(host, host, 0), ACL_ERROR_RT_PARAM_INVALID, "argument 'size' is 0");
    FAILS(aclrtCmoSetDesc(host, host, 1), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCmoSetDesc");
    ASSERT_OK(aclrtSetDevice(0));
    FAILS(aclrtCmoSetDesc(host, host, 1), ACL_ERROR_RT_PARAM_INVALID, "is not 32 bytes of device memory");
    ASSERT_OK(aclrtMalloc(&desc, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&data, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtFree(desc));
    FAILS(aclrtCmoSetDesc(desc, data, 4096), ACL_ERROR_RT_PARAM_INVALID, "not 32 bytes"); /* freed */
    ASSERT_OK(aclrtFree(data));
    t_teardown();
}

/* A cache operation's size is kept in 32 bits: a size of exactly
 * UINT32_MAX fits and is taken silently, one byte more is taken cut to
 * 32 bits with a warning naming the size (aclrtCmoSetDesc and
 * aclrtCmoAsync alike). The sizes above UINT32_MAX are issued last, so
 * once their warnings are read any warning for UINT32_MAX would have
 * been read too; its absence costs one full look (T_SPIN_LIMIT_NS). */
TEST(cmo, a_size_of_exactly_uint32_max_fits_the_32_bit_length)
{
    static char src[64];
    const size_t most = UINT32_MAX;
    aclrtStream s = NULL;
    void *desc = NULL;
    t_capture_log("2");
    use_soc("Ascend910B1");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtMalloc(&desc, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCmoSetDesc(desc, src, most));
    ASSERT_OK(aclrtCmoAsync(src, most, ACL_RT_CMO_TYPE_PREFETCH, s));
    ASSERT_OK(aclrtCmoSetDesc(desc, src, most + 1));
    ASSERT_OK(aclrtCmoAsync(src, most + 1, ACL_RT_CMO_TYPE_PREFETCH, s));
    ASSERT(t_log_shows("aclrtCmoSetDesc: size 4294967296 does not fit"));
    ASSERT(t_log_shows("aclrtCmoAsync: size 4294967296 does not fit"));
    ASSERT(!t_log_shows("size 4294967295 does not fit"));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(desc));
    t_teardown();
}

/* The descriptor is written by a synchronous copy, which a capture in the
 * calling thread's mode forbids (api_impl.cc MemCopySync's capture check). */
TEST(cmo, set_desc_is_a_sync_copy_refused_while_capturing)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    void *desc = NULL;
    static char src[64];
    use_soc("Ascend910B1");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtMalloc(&desc, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    FAILS(aclrtCmoSetDesc(desc, src, sizeof(src)), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, "aclrtCmoSetDesc");
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtCmoSetDesc(desc, src, sizeof(src))); /* after the capture */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(desc));
    t_teardown();
}

/* The bytes a descriptor holds: the source address and a 32-bit length
 * where the runtime's rtCmoAddrInfo (A2, A3) and rtDavidCmoAddrInfo (950)
 * keep them, the rest zero. */
static void check_desc_bytes(const char *soc, size_t size, size_t src_at, size_t len_at)
{
    unsigned char bytes[64], want[64] = {0};
    void *desc = NULL, *data = NULL;
    uint64_t addr;
    uint32_t len = 0x12345;
    use_soc(soc);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtMalloc(&desc, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&data, 0x20000, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemset(desc, size, 0xff, size));
    ASSERT_OK(aclrtCmoSetDesc(desc, data, len));
    ASSERT_OK(aclrtMemcpy(bytes, size, desc, size, ACL_MEMCPY_DEVICE_TO_HOST));
    addr = (uint64_t)(uintptr_t)data;
    memcpy(want + src_at, &addr, sizeof(addr));
    memcpy(want + len_at, &len, sizeof(len));
    ASSERT(memcmp(bytes, want, size) == 0);
#if SIZE_MAX > UINT32_MAX
    ASSERT_OK(aclrtCmoSetDesc(desc, data, (size_t)0x100000010)); /* kept as 32 bits: 0x10 */
    ASSERT_OK(aclrtMemcpy(bytes, size, desc, size, ACL_MEMCPY_DEVICE_TO_HOST));
    memcpy(&len, bytes + len_at, sizeof(len));
    ASSERT_EQ(len, 0x10);
#endif
    ASSERT_OK(aclrtFree(desc));
    ASSERT_OK(aclrtFree(data));
    t_teardown();
}

TEST(cmo, set_desc_writes_address_and_32_bit_length_a2_layout)
{
    check_desc_bytes("Ascend910B1", 32, 16, 12);
}

TEST(cmo, set_desc_writes_address_and_32_bit_length_950_layout)
{
    check_desc_bytes("Ascend950PR", 64, 32, 48);
}

TEST(cmo, async_with_desc_checks_in_order)
{
    static char host[64];
    aclrtStream dead, s = NULL;
    void *desc = NULL;
    use_soc("Ascend910B1");
    FAILS(aclrtCmoAsyncWithDesc(NULL, (aclrtCmoType)9, (aclrtStream)(uintptr_t)0x1234, host),
          ACL_ERROR_RT_PARAM_INVALID, "'reserve' is reserved");
    ASSERT_OK(aclrtSetDevice(0));
    dead = dead_stream();
    FAILS(aclrtCmoAsyncWithDesc(NULL, (aclrtCmoType)9, dead, NULL), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    FAILS(aclrtCmoAsyncWithDesc(NULL, (aclrtCmoType)9, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "'cmoDesc' is NULL");
    FAILS(aclrtCmoAsyncWithDesc(host, (aclrtCmoType)4, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "'cmoType' is 4");
    FAILS(aclrtCmoAsyncWithDesc(host, (aclrtCmoType)-1, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID, "'cmoType' is -1");
    /* Not in a model: refused before the descriptor's memory is looked at. */
    ASSERT_OK(aclrtCreateStream(&s));
    FAILS(aclrtCmoAsyncWithDesc(host, ACL_RT_CMO_TYPE_FLUSH, s, NULL), ACL_ERROR_RT_INTERNAL_ERROR, "is in no model");
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    FAILS(aclrtCmoAsyncWithDesc(host, ACL_RT_CMO_TYPE_FLUSH, s, NULL), ACL_ERROR_RT_PARAM_INVALID,
          "is not 32 bytes of device memory");
    ASSERT_OK(aclrtMalloc(&desc, 32, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_FLUSH, s, NULL));
    {
        aclmdlRI m = NULL;
        ASSERT_OK(aclmdlRICaptureEnd(s, &m));
        ASSERT_OK(aclmdlRIDestroy(m));
    }
    ASSERT_OK(aclrtFree(desc));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static aclError desc_ops(aclrtStream s, void *desc)
{
    aclError err = aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, s, NULL);
    if (err == ACL_SUCCESS)
        err = aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_INVALID, s, NULL);
    return err;
}

TEST(cmo, async_with_desc_in_a_capture_runs_and_leaves_the_data)
{
    aclrtStream s = NULL;
    void *desc = NULL, *data = NULL;
    unsigned char back[256];
    use_soc("Ascend950PR");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&desc, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&data, sizeof(back), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemset(data, sizeof(back), 0x5c, sizeof(back)));
    ASSERT_OK(aclrtCmoSetDesc(desc, data, sizeof(back)));
    capture_and_run(s, desc_ops, desc);
    ASSERT_OK(aclrtMemcpy(back, sizeof(back), data, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < sizeof(back); i++)
        ASSERT_EQ(back[i], 0x5c); /* an invalidation loses nothing on a CPU */
    ASSERT_OK(aclrtFree(desc));
    ASSERT_OK(aclrtFree(data));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- aclrtDeviceL2CacheFlush ------------------------------------------------------------------- */

TEST(cmo, l2_flush_rsv_first_then_the_context)
{
    static int x;
    ASSERT_OK(aclInit(NULL));
    FAILS(aclrtDeviceL2CacheFlush(&x), ACL_ERROR_INVALID_PARAM, "aclrtDeviceL2CacheFlush: argument 'rsv'");
    FAILS(aclrtDeviceL2CacheFlush(NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceL2CacheFlush");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDeviceL2CacheFlush(NULL));
    ASSERT_OK(aclrtDeviceL2CacheFlush(NULL)); /* a second flush */
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* Each barrier entry is checked, the first as the others: a first entry
 * that is not an INVALID operation is refused by its index (107000). */
TEST(cmo, wait_barrier_checks_its_first_entry)
{
    aclrtBarrierTaskInfo info;
    use_soc("Ascend910B1");
    memset(&info, 0, sizeof(info));
    info.barrierNum = 2;
    info.cmoInfo[0] = (aclrtBarrierCmoInfo){ACL_RT_CMO_TYPE_PREFETCH, 1};
    info.cmoInfo[1] = (aclrtBarrierCmoInfo){ACL_RT_CMO_TYPE_INVALID, 2};
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "'taskInfo->cmoInfo[0].cmoType' is 0");
    info.cmoInfo[0] = (aclrtBarrierCmoInfo){ACL_RT_CMO_TYPE_INVALID, 0};
    FAILS(aclrtCmoWaitBarrier(&info, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "'taskInfo->cmoInfo[0].barrierId' is 0");
    ASSERT_OK(aclFinalize());
}
