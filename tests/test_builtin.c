/*
 * test_builtin.c - the built-in tasks: aclrtReduceAsync,
 * aclrtRandomNumAsync, aclrtTaskUpdateAsync and aclrtNotifyBatchReset
 * (docs/conformance.md, "Built-in tasks, counting notifies and task
 * update").
 */
#include <math.h>
#include <stdlib.h>

#include "test.h"

static void *dev(size_t n)
{
    void *p = NULL;
    ASSERT_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

/* ---- aclrtReduceAsync ----------------------------------------------------------- */

/* memory.cpp aclrtReduceAsyncImpl then api_error.cc ReduceAsync, in order;
 * two bad arguments at once give the first one's code. */
TEST(builtin, reduce_checks_in_the_reference_order)
{
    float *d, *s;
    aclrtStream st = NULL, dead = NULL;
    int reserve;
    t_setup();
    d = dev(64);
    s = dev(64);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_RC(aclrtReduceAsync(NULL, NULL, 0, 0, ACL_DT_UNDEFINED, dead, &reserve), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtReduceAsync: argument 'dst' is NULL");
    ASSERT_RC(aclrtReduceAsync(d, NULL, 0, 0, ACL_DT_UNDEFINED, dead, &reserve), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'src'");
    ASSERT_RC(aclrtReduceAsync(d, s, 0, 0, ACL_DT_UNDEFINED, dead, &reserve), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'reserve'");
    ASSERT_RC(aclrtReduceAsync(d, s, 0, 0, ACL_DOUBLE, dead, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'type'");
    ASSERT_RC(aclrtReduceAsync(d, s, 0, 0, ACL_FLOAT, dead, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtReduceAsync(d, s, 0, 0, ACL_FLOAT, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'count' is 0");
    ASSERT_RC(aclrtReduceAsync(d, s, 4, 9, ACL_FLOAT, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'kind'");
    ASSERT_RC(aclrtReduceAsync(d, s, 4, 14, ACL_FLOAT, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    /* SUM is capped at 4 GiB; the last accepted size is not tried (it
     * would run), the first refused is. */
    ASSERT_RC(aclrtReduceAsync(d, s, (4ull << 30) + 1, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "4 GiB");
    /* A type the ACL layer maps but no product reduces (A2: no uint8). */
    ASSERT_RC(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT8, st, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtReduceAsync(d, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT4, st, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* Elements must be aligned (context.cc CheckMemAlign). */
    ASSERT_RC(aclrtReduceAsync((char *)d + 2, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dst'");
    ASSERT_OK(aclrtReduceAsync((char *)d + 2, (char *)s + 2, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, st,
                               NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFree(s));
    t_teardown();
}

/* api_impl.cc ReduceAsync: the context after the arguments (107002), then
 * a stream of the current context (107003). */
TEST(builtin, reduce_needs_a_context_and_its_stream)
{
    float x[4] = {0};
    aclrtContext other = NULL, mine = NULL;
    aclrtStream foreign = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtReduceAsync(x, x, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, NULL, NULL),
              ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtReduceAsync(x, x, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, foreign, NULL),
              ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* Every kind on every A2 type: dst = dst op src, element by element. */
TEST(builtin, reduce_every_kind_and_type)
{
    static const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT16, ACL_INT32};
    static const double a[4] = {1, -2, 3, 4}, b[4] = {2, -5, 3, 1};
    aclrtStream st = NULL;
    void *d, *s;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(64);
    s = dev(64);
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++) {
        for (int kind = ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM; kind <= ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL; kind++) {
            aclDataType ty = types[ti];
            size_t es = aclDataTypeSize(ty);
            for (int i = 0; i < 4; i++) {
                switch (ty) {
                case ACL_FLOAT: ((float *)d)[i] = (float)a[i], ((float *)s)[i] = (float)b[i]; break;
                case ACL_FLOAT16:
                    ((aclFloat16 *)d)[i] = aclFloatToFloat16((float)a[i]);
                    ((aclFloat16 *)s)[i] = aclFloatToFloat16((float)b[i]);
                    break;
                case ACL_BF16: /* these values are exact in bfloat16: the top half of the float */
                {
                    float fa = (float)a[i], fb = (float)b[i];
                    uint32_t ua, ub;
                    memcpy(&ua, &fa, 4), memcpy(&ub, &fb, 4);
                    ((uint16_t *)d)[i] = (uint16_t)(ua >> 16), ((uint16_t *)s)[i] = (uint16_t)(ub >> 16);
                    break;
                }
                case ACL_INT8: ((int8_t *)d)[i] = (int8_t)a[i], ((int8_t *)s)[i] = (int8_t)b[i]; break;
                case ACL_INT16: ((int16_t *)d)[i] = (int16_t)a[i], ((int16_t *)s)[i] = (int16_t)b[i]; break;
                default: ((int32_t *)d)[i] = (int32_t)a[i], ((int32_t *)s)[i] = (int32_t)b[i]; break;
                }
            }
            ASSERT_OK(aclrtReduceAsync(d, s, 4 * es, (aclrtReduceKind)kind, ty, st, NULL));
            ASSERT_OK(aclrtSynchronizeStream(st));
            for (int i = 0; i < 4; i++) {
                double want = kind == 10 ? a[i] + b[i] : kind == 11 ? fmax(a[i], b[i]) : kind == 12 ? fmin(a[i], b[i])
                                                                                           : (a[i] == b[i]);
                double got;
                switch (ty) {
                case ACL_FLOAT: got = ((float *)d)[i]; break;
                case ACL_FLOAT16: got = aclFloat16ToFloat(((aclFloat16 *)d)[i]); break;
                case ACL_BF16: {
                    uint32_t u = (uint32_t)((uint16_t *)d)[i] << 16;
                    float f;
                    memcpy(&f, &u, 4);
                    got = f;
                    break;
                }
                case ACL_INT8: got = ((int8_t *)d)[i]; break;
                case ACL_INT16: got = ((int16_t *)d)[i]; break;
                default: got = ((int32_t *)d)[i]; break;
                }
                if (got != want)
                    test_fail(__FILE__, __LINE__, "type %d kind %d element %d: got %g, want %g", (int)ty, kind, i,
                              got, want);
            }
        }
    }
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A float16 reduce rounds its float result back to half the IEEE way: a
 * tie goes to the even pattern. 2048 + 1 = 2049 lies halfway between the
 * halves 2048 (0x6800, even) and 2050 (0x6801): it must give 2048; 2048 +
 * 3 = 2051, halfway between 2050 and 2052 (0x6802, even), gives 2052. */
TEST(builtin, a_float16_reduce_rounds_a_tie_to_even)
{
    aclrtStream st = NULL;
    aclFloat16 *d, *s;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(64);
    s = dev(64);
    d[0] = aclFloatToFloat16(2048.0f);
    s[0] = aclFloatToFloat16(1.0f);
    d[1] = aclFloatToFloat16(2048.0f);
    s[1] = aclFloatToFloat16(3.0f);
    ASSERT_OK(aclrtReduceAsync(d, s, 2 * sizeof(aclFloat16), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 0x6800);
    ASSERT_EQ(d[1], 0x6802);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A bfloat16 reduce rounds its float result back the IEEE way too: 256 + 1
 * = 257 lies halfway between 256 (0x4380, even) and 258 (0x4381): 256;
 * 256 + 3 = 259, halfway between 258 and 260 (0x4382, even), gives 260
 * (rounding ties down would give 258). */
TEST(builtin, a_bfloat16_reduce_rounds_a_tie_to_even)
{
    aclrtStream st = NULL;
    uint16_t *d, *s;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(64);
    s = dev(64);
    d[0] = d[1] = 0x4380; /* 256 */
    s[0] = 0x3f80;        /* 1 */
    s[1] = 0x4040;        /* 3 */
    ASSERT_OK(aclrtReduceAsync(d, s, 2 * sizeof(uint16_t), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_BF16, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 0x4380);
    ASSERT_EQ(d[1], 0x4382);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* The reduce takes its place in its stream: it sees the copy queued before
 * it, and the copy after it sees its result; count is in bytes (a partial
 * element at the end is not touched). */
TEST(builtin, reduce_keeps_stream_order)
{
    int32_t host[5] = {1, 2, 3, 4, 5}, out[5] = {0};
    int32_t *d, *s;
    aclrtStream st = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(sizeof(host));
    s = dev(sizeof(host));
    ASSERT_OK(aclrtMemset(d, sizeof(host), 0, sizeof(host)));
    ASSERT_OK(aclrtMemcpyAsync(s, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, st));
    ASSERT_OK(aclrtReduceAsync(d, s, 4 * sizeof(int32_t) + 3, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, st, NULL));
    ASSERT_OK(aclrtReduceAsync(d, s, 4 * sizeof(int32_t), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, st, NULL));
    ASSERT_OK(aclrtMemcpyAsync(out, sizeof(out), d, sizeof(out), ACL_MEMCPY_DEVICE_TO_HOST, st));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(out[i], 2 * host[i]);
    ASSERT_EQ(out[4], 0);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* Checks that a SUM of count bytes gets past the 4 GiB cap: exactly
 * 4 GiB does (on 64-byte blocks it fails later, running past them), one
 * byte more is refused by the cap. */
static void reduce_cap_is_4_gib(void)
{
    aclrtStream st = NULL;
    float *d, *s;
    t_setup();
    d = dev(64);
    s = dev(64);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_RC(aclrtReduceAsync(d, s, 4ull << 30, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end of its block");
    ASSERT_RC(aclrtReduceAsync(d, s, (4ull << 30) + 1, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "4 GiB]");
    ASSERT_OK(aclrtDestroyStream(st));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFree(s));
    t_teardown();
}

/* A SUM of exactly 4 GiB is taken, on the products of either reduce
 * path (910 and 310P have their own, api_impl.cc ReduceAsyncV2). */
TEST(builtin, reduce_takes_a_sum_of_exactly_4_gib)
{
    reduce_cap_is_4_gib();
}

TEST(builtin, reduce_v2_takes_a_sum_of_exactly_4_gib)
{
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    reduce_cap_is_4_gib();
}

/* Atlas training (910) takes SUM only, and float only; Atlas inference
 * (310P) SUM only, on float, float16 and int16 (api_impl.cc ReduceAsyncV2,
 * api_error.cc ReduceAsyncV2; docs, aclrtReduceKind). */
TEST(builtin, reduce_products_take_their_kinds_and_types)
{
    aclrtStream st = NULL;
    float *d;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(16);
    ASSERT_RC(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must be ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM");
    ASSERT_RC(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, st, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* The reduce engine works on the stream's device's memory (docs, the
 * constraint of aclrtReduceAsync): host memory, a range past its block's
 * end, or another device's memory give 107000, before anything is queued. */
TEST(builtin, reduce_needs_device_memory_of_the_streams_device)
{
    float host[4] = {0};
    float *d, *other;
    aclrtStream st = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(16);
    ASSERT_RC(aclrtReduceAsync(host, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dst' (0x");
    ASSERT_RC(aclrtReduceAsync(d, host, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not device memory from aclrtMalloc");
    ASSERT_RC(aclrtReduceAsync(d, d, 256, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end");
    ASSERT_OK(aclrtSetDevice(1));
    other = dev(16);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtReduceAsync(d, other, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not of the stream's device 0");
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    ASSERT_OK(aclrtResetDeviceForce(1));
    t_teardown();
}

/* Atlas inference (310P): SUM only, on float, float16 and int16; the
 * Ascend 950 adds uint32 to the A2's types (docs, aclrtReduceAsync). */
TEST(builtin, reduce_types_of_atlas_inference_and_950)
{
    aclrtStream st = NULL;
    uint32_t *d;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(16);
    ASSERT_RC(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN, ACL_INT16, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, st, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtReduceAsync(d, d, 16, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(16);
    d[0] = 7, d[1] = 0xffffffffu;
    d[2] = 1, d[3] = 1;
    ASSERT_OK(aclrtReduceAsync(d, d + 2, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT32, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 8);
    ASSERT_EQ(d[1], 0); /* wraps */
    ASSERT_RC(aclrtReduceAsync(d, d + 2, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT16, st, NULL),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* Captured into a model, a reduction runs at each replay, not at the
 * capture (stream capture records every task of its stream). */
TEST(builtin, reduce_is_captured_and_replayed)
{
    int32_t *d, *s;
    aclrtStream st = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(8);
    s = dev(8);
    d[0] = 1, d[1] = 0, s[0] = 2, s[1] = 3;
    ASSERT_OK(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtReduceAsync(d, s, 8, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, st, NULL));
    ASSERT_OK(aclmdlRICaptureEnd(st, &m));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 1); /* not run by the capture */
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclmdlRIExecuteAsync(m, st));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 7);
    ASSERT_EQ(d[1], 9);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* ---- aclrtRandomNumAsync ----------------------------------------------------------- */

static void para(aclrtRandomParaInfo *p, const void *v, uint8_t size)
{
    memset(p, 0, sizeof(*p));
    memcpy(p->valueOrAddr, v, size);
    p->size = size;
}

static aclrtRandomNumTaskInfo task_info(aclDataType type, aclrtRandomNumFuncType ft, uint64_t seed, uint64_t num,
                                        void *counter, void *out)
{
    aclrtRandomNumTaskInfo ti;
    memset(&ti, 0, sizeof(ti));
    ti.dataType = type;
    ti.randomNumFuncParaInfo.funcType = ft;
    ti.randomCounterAddr = counter;
    ti.randomResultAddr = out;
    para(&ti.randomSeed, &seed, 8);
    para(&ti.randomNum, &num, 8);
    return ti;
}

static void float_params(aclrtRandomParaInfo *p1, float a, aclrtRandomParaInfo *p2, float b)
{
    para(p1, &a, 4);
    para(p2, &b, 4);
}

/* kernel.cpp aclrtRandomNumAsyncImpl, api_c_kernel.cc rtsLaunchRandomNumTask,
 * api_error.cc LaunchRandomNumTask, random_num_task.cc CheckRandomNumTaskInfo,
 * in order. */
TEST(builtin, random_checks_in_the_reference_order)
{
    aclrtStream st = NULL, dead = NULL;
    void *ctr, *out;
    aclrtRandomNumTaskInfo ti;
    int reserve;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ctr = dev(16);
    out = dev(1024);
    ASSERT_RC(aclrtRandomNumAsync(NULL, dead, &reserve), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRandomNumAsync: argument 'taskInfo' is NULL");
    ti = task_info(ACL_INT8, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 8, ctr, out);
    ASSERT_RC(aclrtRandomNumAsync(&ti, dead, &reserve), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "taskInfo->dataType");
    ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 8, NULL, NULL);
    ASSERT_RC(aclrtRandomNumAsync(&ti, dead, &reserve), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, &reserve), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'reserve'");
    ti.randomNumFuncParaInfo.funcType = (aclrtRandomNumFuncType)4;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "funcType");
    ti.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS; /* int32: uniform only */
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "taskInfo->dataType");
    ti.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomCounterAddr");
    ti.randomCounterAddr = ctr;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomResultAddr");
    ti.randomResultAddr = out;
    ti.randomSeed.isAddr = 2;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomSeed.isAddr");
    ti.randomSeed.isAddr = 0;
    ti.randomSeed.size = 9;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomSeed.size");
    ti.randomSeed.size = 8;
    ti.randomNum.size = 0;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomNum.size");
    ti.randomNum.size = 8;
    /* A value parameter is at most the data type's size (int32: 4), an
     * address 8 bytes. */
    ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 5;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "uniformDisInfo.min.size");
    ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min.size = 4;
    ASSERT_RC(aclrtRandomNumAsync(&ti, st, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "uniformDisInfo.max.size");
    ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 8;
    ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.isAddr = 1;
    {
        int32_t hi = 10;
        int32_t *hip = dev(8);
        *hip = hi;
        memcpy(ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.valueOrAddr, &hip, sizeof(hip));
        ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.size = 4;
        ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
        ASSERT_OK(aclrtSynchronizeStream(st));
        for (int i = 0; i < 8; i++)
            ASSERT(((int32_t *)out)[i] >= 0 && ((int32_t *)out)[i] < 10);
    }
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A random task whose counter, results or parameters by address are not
 * device memory fails when it runs (107000 at the sync), touching nothing,
 * as a copy through a descriptor does. */
TEST(builtin, random_task_on_memory_not_the_devices_fails)
{
    aclrtStream st = NULL;
    uint64_t host_ctr[2] = {0, 0};
    uint32_t host_out[4] = {1, 2, 3, 4};
    void *ctr, *out;
    uint32_t lo = 0, hi = 10;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(16);
    ti = task_info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 4, host_ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    ti.randomCounterAddr = ctr;
    ti.randomResultAddr = host_out;
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(host_out[0], 1); /* untouched */
    {
        uint64_t many = 100; /* 100 results do not fit the 16-byte block */
        ti.randomResultAddr = out;
        para(&ti.randomNum, &many, 8);
        ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
        ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    }
    {
        uint64_t four = 4;
        const void *hp = &hi; /* max by address, in host memory */
        para(&ti.randomNum, &four, 8);
        memcpy(ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.valueOrAddr, &hp, sizeof(hp));
        ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.isAddr = 1;
        ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
        ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    }
    ASSERT_EQ(((uint64_t *)ctr)[0], 0); /* no failed task moved the counter */
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* RT_FEATURE_TASK_RAND_GENERATOR: Atlas A2 and A3 only (207000 elsewhere,
 * after the ACL layer's checks). */
TEST(builtin, random_only_on_a2_and_a3)
{
    aclrtRandomNumTaskInfo ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 1, NULL, NULL);
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_RC(aclrtRandomNumAsync(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRandomNumAsync(&ti, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no random number engine");
    t_teardown();
}

/* The same seed and counter give the same numbers; the counter advances so
 * the next task goes on, and a new counter at 0 starts over. */
TEST(builtin, random_reproducible_from_seed_and_counter)
{
    enum { N = 64 };
    aclrtStream st = NULL;
    uint64_t *ctr = NULL;
    uint32_t *a, *b, *c;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    a = dev(N * 4), b = dev(N * 4), c = dev(N * 4);
    memset(ctr, 0, 16);
    ti = task_info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 42, N, ctr, a);
    {
        uint32_t lo = 0, hi = 0xffffffffu;
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    }
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ti.randomResultAddr = b;
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL)); /* the counter went on: other numbers */
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(ctr[0], 2 * N / 4);
    ASSERT_EQ(ctr[1], 0);
    ASSERT(memcmp(a, b, N * 4) != 0);
    memset(ctr, 0, 16);
    ti.randomResultAddr = c;
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT(memcmp(a, c, N * 4) == 0);
    /* Another seed, same counter: other numbers. */
    memset(ctr, 0, 16);
    ti = task_info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 43, N, ctr, c);
    {
        uint32_t lo = 0, hi = 0xffffffffu;
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    }
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT(memcmp(a, c, N * 4) != 0);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* Philox4x32-10 itself: the published known-answer vector (Random123's
 * kat_vectors: counter and key all 0 give 6627e8d5 e169c58d bc57ac4c
 * 9b00dbd8) is the first four uint32 of seed 0 at counter 0. */
TEST(builtin, random_is_philox4x32_10)
{
    aclrtStream st = NULL;
    uint64_t *ctr;
    uint32_t *out;
    aclrtRandomNumTaskInfo ti;
    uint32_t lo = 0, hi = 0xffffffffu;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(16);
    memset(ctr, 0, 16);
    ti = task_info(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, 2, ctr, out);
    {
        uint64_t lo64 = 0, hi64 = 0;
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo64, 8);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi64, 8); /* empty range: min */
    }
    ti.dataType = ACL_UINT32;
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    {
        uint64_t four = 4;
        para(&ti.randomNum, &four, 8);
    }
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    /* [0, 2^32 - 1): a word below the top maps to itself. */
    ASSERT_EQ(out[0], 0x6627e8d5u);
    ASSERT_EQ(out[1], 0xe169c58du);
    ASSERT_EQ(out[2], 0xbc57ac4cu);
    ASSERT_EQ(out[3], 0x9b00dbd8u);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

static double mean_of(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s / n;
}

static double var_of(const double *x, int n, double m)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return s / (n - 1);
}

enum { NS = 20000 };

/* Runs one float task of NS numbers with seed 7 and returns them as doubles. */
static void draw_floats(aclDataType ty, aclrtRandomNumFuncType ft, float p1, float p2, double *res)
{
    aclrtStream st = NULL;
    void *ctr = dev(16), *out = dev(NS * 4);
    aclrtRandomNumTaskInfo ti = task_info(ty, ft, 7, NS, ctr, out);
    memset(ctr, 0, 16);
    if (ty == ACL_FLOAT) {
        float_params(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, p1,
                     &ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, p2);
    } else { /* fp16 */
        aclFloat16 h1 = aclFloatToFloat16(p1), h2 = aclFloatToFloat16(p2);
        para(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &h1, 2);
        para(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &h2, 2);
    }
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < NS; i++)
        res[i] = ty == ACL_FLOAT ? ((float *)out)[i] : aclFloat16ToFloat(((aclFloat16 *)out)[i]);
    ASSERT_OK(aclrtDestroyStream(st));
}

/* Uniform floats in [min, max): all in range, mean (a+b)/2 and variance
 * (b-a)^2/12 within 5 standard errors, and a chi-square over 10 bins
 * below 27.9 (p = 0.001 at 9 degrees of freedom). Fixed seed: the bounds
 * fail a broken generator (a constant, a half range, a skew). */
TEST(builtin, random_uniform_float_distribution)
{
    static double x[NS];
    int bins[10] = {0};
    double m, v, chi = 0;
    t_setup();
    draw_floats(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 2.0f, 6.0f, x);
    for (int i = 0; i < NS; i++) {
        ASSERT(x[i] >= 2.0 && x[i] < 6.0);
        bins[(int)((x[i] - 2.0) / 0.4)]++;
    }
    m = mean_of(x, NS);
    v = var_of(x, NS, m);
    ASSERT(fabs(m - 4.0) < 5 * sqrt(16.0 / 12 / NS));
    ASSERT(fabs(v - 16.0 / 12) < 0.05);
    for (int b = 0; b < 10; b++)
        chi += (bins[b] - NS / 10.0) * (bins[b] - NS / 10.0) / (NS / 10.0);
    ASSERT(chi < 27.9);
    t_teardown();
}

/* Uniform integers in [min, max): every value of [1, 100) appears, none
 * outside, chi-square over the 99 values below 148.2 (p = 0.001, 98 df). */
TEST(builtin, random_uniform_int_distribution)
{
    aclrtStream st = NULL;
    int32_t *out;
    void *ctr;
    int counts[100] = {0};
    int32_t lo = 1, hi = 100;
    double chi = 0, e = NS / 99.0;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ctr = dev(16);
    out = dev(NS * 4);
    memset(ctr, 0, 16);
    ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 11, NS, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < NS; i++) {
        ASSERT(out[i] >= 1 && out[i] < 100);
        counts[out[i]]++;
    }
    for (int v = 1; v < 100; v++)
        chi += (counts[v] - e) * (counts[v] - e) / e;
    ASSERT(chi < 148.2);
    /* 64-bit signed bounds across zero. */
    {
        int64_t lo64 = -5, hi64 = 5;
        int64_t *o64 = dev(1000 * 8);
        int seen[10] = {0};
        ti = task_info(ACL_INT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 11, 1000, ctr, o64);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo64, 8);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi64, 8);
        ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
        ASSERT_OK(aclrtSynchronizeStream(st));
        for (int i = 0; i < 1000; i++) {
            ASSERT(o64[i] >= -5 && o64[i] < 5);
            seen[o64[i] + 5] = 1;
        }
        for (int v = 0; v < 10; v++)
            ASSERT(seen[v]);
    }
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* INT32 bounds are signed: [-5, 5) crosses zero, every value of it
 * appears and none outside (read unsigned, -5 would be above 5: an empty
 * range, all -5). */
TEST(builtin, random_uniform_int32_bounds_are_signed)
{
    aclrtStream st = NULL;
    int32_t *out;
    void *ctr;
    int32_t lo = -5, hi = 5;
    int seen[10] = {0};
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ctr = dev(16);
    out = dev(1000 * 4);
    memset(ctr, 0, 16);
    ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 11, 1000, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < 1000; i++) {
        ASSERT(out[i] >= -5 && out[i] < 5);
        seen[out[i] + 5] = 1;
    }
    for (int v = 0; v < 10; v++)
        ASSERT(seen[v]);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* Normal numbers: mean within 5 standard errors, variance within 5%, and
 * about 68.3% within one standard deviation (+-2%). */
TEST(builtin, random_normal_distribution)
{
    static double x[NS];
    double m, v;
    int within = 0;
    t_setup();
    draw_floats(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 3.0f, 2.0f, x);
    m = mean_of(x, NS);
    v = var_of(x, NS, m);
    for (int i = 0; i < NS; i++)
        within += fabs(x[i] - 3.0) <= 2.0;
    ASSERT(fabs(m - 3.0) < 5 * 2.0 / sqrt(NS));
    ASSERT(fabs(v - 4.0) < 0.2);
    ASSERT(fabs(within / (double)NS - 0.6827) < 0.02);
    t_teardown();
}

/* Truncated normal numbers (fp16): none beyond two standard deviations;
 * the variance of a normal truncated at +-2 sigma is 0.774 sigma^2 (+-5%). */
TEST(builtin, random_truncated_normal_distribution)
{
    static double x[NS];
    double m, v;
    t_setup();
    draw_floats(ACL_FLOAT16, ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS, 1.0f, 2.0f, x);
    for (int i = 0; i < NS; i++)
        ASSERT(x[i] >= 1.0 - 4.0 - 0.01 && x[i] <= 1.0 + 4.0 + 0.01);
    m = mean_of(x, NS);
    v = var_of(x, NS, m);
    ASSERT(fabs(m - 1.0) < 0.05);
    ASSERT(fabs(v - 0.774 * 4.0) < 0.05 * 0.774 * 4.0);
    t_teardown();
}

/* A dropout bitmask keeps each element with probability 1 - ratio: with
 * ratio 0.4, 60% of NS bits set (+-5 standard errors). */
TEST(builtin, random_dropout_bitmask_distribution)
{
    aclrtStream st = NULL;
    uint8_t *out;
    void *ctr;
    float ratio = 0.4f;
    int set = 0;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ctr = dev(16);
    out = dev(NS / 8);
    memset(ctr, 0, 16);
    ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 5, NS, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < NS / 8; i++)
        set += __builtin_popcount(out[i]);
    ASSERT(fabs(set / (double)NS - 0.6) < 5 * sqrt(0.24 / NS));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* Captured into a model, a random number task draws at each replay from
 * the counter in device memory, so each replay gives the next numbers. */
TEST(builtin, random_is_captured_and_each_replay_goes_on)
{
    aclrtStream st = NULL;
    aclmdlRI m = NULL;
    uint64_t *ctr;
    uint32_t *out, first[4];
    uint32_t lo = 0, hi = 0xffffffffu;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(16);
    memset(ctr, 0, 16);
    ti = task_info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, 4, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    ASSERT_OK(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclmdlRICaptureEnd(st, &m));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(ctr[0], 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, st));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(out[0], 0x6627e8d5u); /* seed 0, counter 0 */
    memcpy(first, out, sizeof(first));
    ASSERT_OK(aclmdlRIExecuteAsync(m, st));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(ctr[0], 2);
    ASSERT(memcmp(first, out, sizeof(first)) != 0);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* ---- aclrtTaskUpdateAsync ----------------------------------------------------------- */

/* kernel.cpp (info, 100000), api_c_standard_soc.cc rtsLaunchUpdateTask and
 * api_error.cc LaunchSqeUpdateTask in order, then refused (207000). */
TEST(builtin, task_update_checks_then_refuses)
{
    aclrtStream st = NULL, dead = NULL;
    aclrtTaskUpdateInfo info;
    char src[sizeof(aclrtRandomNumTaskInfo)];
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    memset(&info, 0, sizeof(info));
    ASSERT_RC(aclrtTaskUpdateAsync(NULL, 0, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    info.id = (aclrtUpdateTaskAttrId)3;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'info->id'");
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    ASSERT_RC(aclrtTaskUpdateAsync(NULL, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'taskStream'");
    ASSERT_RC(aclrtTaskUpdateAsync(dead, 0, &info, st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "srcAddr");
    info.val.randomTaskAttr.srcAddr = src;
    info.val.randomTaskAttr.size = sizeof(src) - 1;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomTaskAttr.size");
    info.val.randomTaskAttr.size = sizeof(src);
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "does not rewrite a task");
    /* An AI Core task's: rtModelTaskUpdate's handles, then its NULLs in
     * order (api_error.cc ModelTaskUpdate), then refused. */
    memset(&info, 0, sizeof(info));
    info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    ASSERT_RC(aclrtTaskUpdateAsync(dead, 0, &info, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtTaskUpdateAsync(NULL, 0, &info, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtTaskUpdateAsync(NULL, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'taskStream' is NULL");
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'execStream' is NULL");
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "funcEntryAddr");
    info.val.aicAivTaskAttr.funcEntryAddr = src;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "blockDimAddr");
    info.val.aicAivTaskAttr.blockDimAddr = src;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "binHandle");
    info.val.aicAivTaskAttr.binHandle = src;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "does not rewrite a task");
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* RT_FEATURE_TASK_DSA_UPDATE: random task updates on A2 and A3 only
 * (207000 after the target stream's checks). */
TEST(builtin, task_update_of_a_random_task_only_on_a2_and_a3)
{
    aclrtStream st = NULL;
    aclrtTaskUpdateInfo info;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    memset(&info, 0, sizeof(info));
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    ASSERT_RC(aclrtTaskUpdateAsync(NULL, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cannot update random number tasks");
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* ---- aclrtNotifyBatchReset ------------------------------------------------------------ */

/* notify.cpp, api_c_event.cc rtsNotifyBatchReset, then rtNotifyReset on
 * each in turn: those before a bad one stay reset. A reset notify's next
 * wait waits for a new record. */
TEST(builtin, notify_batch_reset_checks_and_resets)
{
    aclrtNotify n[3] = {NULL, NULL, NULL}, dead = NULL;
    aclrtStream rec = NULL, w = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&w));
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtCreateNotify(&n[i], ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtCreateNotify(&dead, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtDestroyNotify(dead));
    ASSERT_RC(aclrtNotifyBatchReset(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtNotifyBatchReset(n, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtNotifyBatchReset(n, (size_t)1 << 32), ACL_ERROR_RT_PARAM_INVALID); /* 32 bits: 0 */
    ASSERT_OK(aclrtRecordNotify(n[0], rec));
    ASSERT_OK(aclrtRecordNotify(n[1], rec));
    ASSERT_OK(aclrtSynchronizeStream(rec));
    {
        aclrtNotify bad[3] = {n[0], dead, n[1]};
        ASSERT_RC(aclrtNotifyBatchReset(bad, 3), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "notifies[1]");
        bad[1] = NULL;
        ASSERT_RC(aclrtNotifyBatchReset(bad, 3), ACL_ERROR_RT_PARAM_INVALID);
    }
    /* n[0] was reset by the first call: its wait times out. n[1] was not. */
    ASSERT_OK(aclrtWaitAndResetNotify(n[1], w, 5));
    ASSERT_OK(aclrtSynchronizeStream(w));
    ASSERT_OK(aclrtWaitAndResetNotify(n[0], w, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(w, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    /* Second occurrence: reset all three, record one, only its wait passes. */
    ASSERT_OK(aclrtRecordNotify(n[2], rec));
    ASSERT_OK(aclrtSynchronizeStream(rec));
    ASSERT_OK(aclrtNotifyBatchReset(n, 3));
    ASSERT_OK(aclrtRecordNotify(n[1], rec));
    ASSERT_OK(aclrtWaitAndResetNotify(n[1], w, 5));
    ASSERT_OK(aclrtSynchronizeStream(w));
    ASSERT_OK(aclrtWaitAndResetNotify(n[2], w, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(w, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtDestroyNotify(n[i]));
    ASSERT_OK(aclrtDestroyStreamForce(w));
    ASSERT_OK(aclrtDestroyStream(rec));
    t_teardown();
}

/* RT_FEATURE_NOTIFY_RESET: A2, A3 and 950; Atlas inference answers 207000. */
TEST(builtin, notify_batch_reset_not_on_atlas_inference)
{
    aclrtNotify n = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    if (aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT) != ACL_SUCCESS)
        n = (aclrtNotify)&n; /* the check comes before the handle's */
    ASSERT_RC(aclrtNotifyBatchReset(&n, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
}

/* ---- sweep 4: boundaries of the reduce, random and update checks (2026-12-05) ----------------- */

/* A 2-byte element type is aligned to 2 bytes: an int16 reduce from or to
 * an odd address is refused (107000, context.cc CheckMemAlign). */
TEST(builtin, reduce_of_two_byte_elements_needs_two_byte_alignment)
{
    char *d, *s;
    aclrtStream st = NULL;
    t_setup();
    d = dev(64);
    s = dev(64);
    ASSERT_OK(aclrtCreateStream(&st));
    ASSERT_RC(aclrtReduceAsync(d + 1, s, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'dst'");
    ASSERT_RC(aclrtReduceAsync(d, s + 1, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16, st, NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'src'");
    ASSERT_OK(aclrtReduceAsync(d + 2, s + 2, 4, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT16, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    ASSERT_OK(aclrtFree(d));
    ASSERT_OK(aclrtFree(s));
    t_teardown();
}

/* A random parameter given by address may be 8 bytes (an address) whatever
 * the data type's size (int32: 4); a value is at most the type's size. */
TEST(builtin, random_parameter_by_address_takes_8_bytes)
{
    aclrtStream st = NULL;
    void *ctr, *out;
    int32_t *hip, lo = 0;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(64);
    hip = dev(8);
    *hip = 10;
    ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 8, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hip, 8);
    ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max.isAddr = 1;
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < 8; i++)
        ASSERT(((int32_t *)out)[i] >= 0 && ((int32_t *)out)[i] < 10);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* bf16 is a floating type: a normal distribution takes it (only uniform is
 * for the integer types). */
TEST(builtin, random_normal_distribution_takes_bf16)
{
    aclrtStream st = NULL;
    void *ctr, *out;
    uint16_t mean = 0x0000, sd = 0x3f80; /* bf16 0.0 and 1.0 */
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(64);
    ti = task_info(ACL_BF16, ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS, 1, 8, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.mean, &mean, 2);
    para(&ti.randomNumFuncParaInfo.paramInfo.normalDisInfo.stddev, &sd, 2);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* uint64 is a random data type (as int64): 8-byte results. */
TEST(builtin, random_takes_uint64)
{
    aclrtStream st = NULL;
    void *ctr, *out;
    uint64_t lo = 5, hi = 6;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(64);
    ti = task_info(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 1, 4, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 8);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 8);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(((uint64_t *)out)[i], 5);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A random task update's source is exactly one aclrtRandomNumTaskInfo: one
 * byte more is refused as one byte less is (107000). */
TEST(builtin, task_update_random_source_one_byte_too_long_is_refused)
{
    aclrtStream st = NULL;
    aclrtTaskUpdateInfo info;
    char src[sizeof(aclrtRandomNumTaskInfo) + 1];
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    memset(&info, 0, sizeof(info));
    info.id = ACL_RT_UPDATE_RANDOM_TASK;
    info.val.randomTaskAttr.srcAddr = src;
    info.val.randomTaskAttr.size = sizeof(src);
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "randomTaskAttr.size");
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* The Atlas inference products (310P) update AI Core tasks
 * (RT_FEATURE_MODEL_UPDATE_SQE_TILING_KEY): past the product check, only
 * aclcpu's own refusal is left. */
TEST(builtin, task_update_of_an_ai_core_task_passes_the_product_check_on_310p)
{
    aclrtStream st = NULL;
    aclrtTaskUpdateInfo info;
    char x[8];
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    memset(&info, 0, sizeof(info));
    info.id = ACL_RT_UPDATE_AIC_AIV_TASK;
    info.val.aicAivTaskAttr.funcEntryAddr = x;
    info.val.aicAivTaskAttr.blockDimAddr = x;
    info.val.aicAivTaskAttr.binHandle = x;
    ASSERT_RC(aclrtTaskUpdateAsync(st, 0, &info, st), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "does not rewrite a task");
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A count is taken as 32 bits before anything is reset: 2^32 reads as 0
 * and is refused with nothing reset (a notify recorded before still lets
 * its wait pass). */
TEST(builtin, notify_batch_reset_of_2_to_the_32_resets_nothing)
{
    aclrtNotify n[2] = {NULL, NULL};
    aclrtStream rec = NULL, w = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateNotify(&n[0], ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtRecordNotify(n[0], rec));
    ASSERT_OK(aclrtSynchronizeStream(rec));
    ASSERT_RC(aclrtNotifyBatchReset(n, (size_t)1 << 32), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'num'");
    ASSERT_OK(aclrtWaitAndResetNotify(n[0], w, 5));
    ASSERT_OK(aclrtSynchronizeStream(w));
    ASSERT_OK(aclrtDestroyNotify(n[0]));
    ASSERT_OK(aclrtDestroyStream(rec));
    ASSERT_OK(aclrtDestroyStream(w));
    t_teardown();
}

/* The Atlas A3 resets notifies in a batch (RT_FEATURE_NOTIFY_RESET: A2, A3
 * and 950). */
TEST(builtin, notify_batch_reset_on_the_atlas_a3)
{
    aclrtNotify n = NULL;
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    t_setup();
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtNotifyBatchReset(&n, 1));
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* A half NaN taken by a float16 reduce stays a NaN (its mantissa is kept
 * when widened, so it is not read as an infinity): NaN + 1 is the quiet
 * NaN 0x7E00, while infinity + 1 stays 0x7C00. */
TEST(builtin, a_float16_reduce_keeps_a_nan_a_nan)
{
    aclrtStream st = NULL;
    aclFloat16 *d, *s;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    d = dev(64);
    s = dev(64);
    d[0] = 0x7E00; /* NaN */
    d[1] = 0x7C00; /* infinity */
    s[0] = s[1] = aclFloatToFloat16(1.0f);
    ASSERT_OK(aclrtReduceAsync(d, s, 2 * sizeof(aclFloat16), ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT16, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(d[0], 0x7E00);
    ASSERT_EQ(d[1], 0x7C00);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* An empty uniform range [min, max) - max equal to min, or below it -
 * gives min for every number. */
TEST(builtin, an_empty_uniform_range_gives_its_min)
{
    aclrtStream st = NULL;
    int32_t *out;
    void *ctr;
    int32_t lo = 7, hi = 7;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ctr = dev(16);
    out = dev(64 * 4);
    memset(ctr, 0, 16);
    ASSERT_OK(aclrtCreateStream(&st));
    for (int round = 0; round < 2; round++) {
        if (round == 1)
            hi = -3; /* below min: as empty */
        ti = task_info(ACL_INT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 11, 64, ctr, out);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
        para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
        ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
        ASSERT_OK(aclrtSynchronizeStream(st));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(out[i], 7);
    }
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): boundaries of the engine's built-in tasks ---- */

/* The 128-bit Philox counter steps with a carry through all four of its
 * 32-bit words: at all ones it wraps to zero, written back to
 * randomCounterAddr. With the key all ones as well, the first block is
 * Random123's known answer (kat_vectors: ffffffff x6 give 408f276d 41c83b0e
 * a20bc7c6 6d5451fd), so the key's upper word is the seed's upper half. */
TEST(builtin, random_counter_at_all_ones_carries_through_every_word_to_zero)
{
    aclrtStream st = NULL;
    uint64_t *ctr;
    uint32_t *out;
    aclrtRandomNumTaskInfo ti;
    uint32_t lo = 0, hi = 0xffffffffu;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(16);
    ctr[0] = UINT64_MAX;
    ctr[1] = UINT64_MAX;
    ti = task_info(ACL_UINT32, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, UINT64_MAX, 4, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 4);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 4);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(out[0], 0x408f276du);
    ASSERT_EQ(out[1], 0x41c83b0eu);
    ASSERT_EQ(out[2], 0xa20bc7c6u);
    ASSERT_EQ(out[3], 0x6d5451fdu);
    ASSERT_EQ(ctr[0], 0);
    ASSERT_EQ(ctr[1], 0);
    /* Three words of ones: the carry stops in the fourth. */
    ctr[0] = UINT64_MAX;
    ctr[1] = 0xffffffffu;
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(ctr[0], 0);
    ASSERT_EQ(ctr[1], (uint64_t)1 << 32);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* The result's range is checked to its last byte: a dropout bitmask of n
 * bits takes ceil(n / 8) bytes (8 bits fit the last byte of a 32-byte
 * block, 9 do not), and a 64-bit type 8 bytes a number, unsigned as well
 * (3 from byte 8 end at the block's end, 4 do not). Each byte of the mask
 * is written whole: a ratio of 1 drops every bit of a byte that was 0xff.
 * The block comes from aclrtMallocAlign32, which adds no padding. */
TEST(builtin, random_result_range_is_checked_to_its_last_byte)
{
    aclrtStream st = NULL;
    uint8_t *out;
    void *ctr;
    float ratio = 1.0f;
    uint64_t n, zero = 0;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    ASSERT_OK(aclrtMallocAlign32((void **)&out, 32, ACL_MEM_MALLOC_HUGE_FIRST)); /* no padding: 32 bytes */
    memset(ctr, 0, 16);
    memset(out, 0xff, 32);
    ti = task_info(ACL_FLOAT, ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK, 5, 8, ctr, out + 31);
    para(&ti.randomNumFuncParaInfo.paramInfo.dropoutBitmaskInfo.dropoutRation, &ratio, 4);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT_EQ(out[31], 0);
    n = 9;
    para(&ti.randomNum, &n, 8);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    ti = task_info(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 5, 3, ctr, out + 8);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &zero, 8);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &zero, 8);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    n = 4;
    para(&ti.randomNum, &n, 8);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_RC(aclrtSynchronizeStream(st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}

/* A 64-bit uniform number joins two Philox words, the first as its upper
 * half: at seed 0 and counter 0 (the known answer 6627e8d5 e169c58d
 * bc57ac4c 9b00dbd8) the range [0, 2^64 - 1) gives 6627e8d5e169c58d and
 * bc57ac4c9b00dbd8, each below the top and so kept as drawn. */
TEST(builtin, a_64_bit_uniform_number_is_two_philox_words_first_word_high)
{
    aclrtStream st = NULL;
    uint64_t *ctr, *out, lo = 0, hi = UINT64_MAX;
    aclrtRandomNumTaskInfo ti;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&st));
    ctr = dev(16);
    out = dev(16);
    memset(ctr, 0, 16);
    ti = task_info(ACL_UINT64, ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS, 0, 2, ctr, out);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, &lo, 8);
    para(&ti.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, &hi, 8);
    ASSERT_OK(aclrtRandomNumAsync(&ti, st, NULL));
    ASSERT_OK(aclrtSynchronizeStream(st));
    ASSERT(out[0] == 0x6627e8d5e169c58dull);
    ASSERT(out[1] == 0xbc57ac4c9b00dbd8ull);
    ASSERT_EQ(ctr[0], 1); /* four words: one block */
    ASSERT_OK(aclrtDestroyStream(st));
    t_teardown();
}
