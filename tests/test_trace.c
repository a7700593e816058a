/*
 * test_trace.c - trace points (aclrtProfTrace: dfx.cpp in the reference's
 * ACL layer, api_c.cc rtsProfTrace, api_impl.cc ProfilerTraceEx) and the
 * kernels' hardware sync address (aclrtGetHardwareSyncAddr: kernel.cpp,
 * api_c_kernel.cc rtsGetHardwareSyncAddr, api_impl.cc GetC2cCtrlAddr):
 * checks in order, the trace record read from the caller's bytes, the
 * mark a profile shows, and one sync area per device.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl_prof.h>

#include "test.h"

#define FAILS(call, code, needle)                                                                                \
    do {                                                                                                       \
        const char *msg_;                                                                                      \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        msg_ = aclGetRecentErrMsg();                                                                           \
        ASSERT_STR_CONTAINS(msg_, needle);                                                                     \
    } while (0)

#pragma pack(push, 1)
struct trace_record {
    uint64_t id;
    uint64_t model;
    uint16_t tag;
};
#pragma pack(pop)

/* ---- aclrtProfTrace ----------------------------------------------------------------------------- */

TEST(trace, prof_trace_checks_userdata_length_stream_context_in_order)
{
    struct trace_record r = {1, 2, 3};
    aclrtStream dead = NULL;
    ASSERT_OK(aclInit(NULL));
    FAILS(aclrtProfTrace(NULL, 0, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_INVALID_PARAM,
          "aclrtProfTrace: argument 'userdata' is NULL");
    FAILS(aclrtProfTrace(&r, 0, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_PARAM_INVALID,
          "argument 'length' (0) must be in (0, 18]");
    FAILS(aclrtProfTrace(&r, -1, NULL), ACL_ERROR_RT_PARAM_INVALID, "argument 'length' (-1)");
    FAILS(aclrtProfTrace(&r, 19, NULL), ACL_ERROR_RT_PARAM_INVALID, "argument 'length' (19)"); /* the first refused */
    FAILS(aclrtProfTrace(&r, 18, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    FAILS(aclrtProfTrace(&r, 18, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtProfTrace");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    FAILS(aclrtProfTrace(&r, 18, dead), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_OK(aclrtProfTrace(&r, 18, NULL)); /* the last accepted length, the default stream */
    ASSERT_OK(aclrtProfTrace(&r, 1, NULL));
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
}

TEST(trace, prof_trace_in_another_context_is_107003)
{
    struct trace_record r = {1, 2, 3};
    aclrtContext primary = NULL, other = NULL;
    aclrtStream foreign = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    FAILS(aclrtProfTrace(&r, 18, foreign), ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtProfTrace(&r, 18, foreign));
    ASSERT_OK(aclrtSynchronizeStream(foreign));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    long n;
    char *buf;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ASSERT(buf != NULL);
    ASSERT_EQ(fread(buf, 1, (size_t)n, f), n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

TEST(trace, prof_trace_reads_the_first_length_bytes_and_a_profile_shows_the_mark)
{
    char dir[T_PATH_CAP], path[T_PATH_CAP + 64];
    struct trace_record r = {7, 0x0102030405060708ull, 0xBEEF};
    uint32_t dev = 0;
    aclprofConfig *cfg;
    aclrtStream s = NULL;
    char *t;
    t_setup();
    t_tmpdir(dir, sizeof(dir), "aclcpu-trace");
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclprofInit(dir, strlen(dir)));
    cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    ASSERT(cfg != NULL);
    ASSERT_OK(aclprofStart(cfg));
    ASSERT_OK(aclrtProfTrace(&r, 18, s));
    ASSERT_OK(aclrtProfTrace(&r, 9, s)); /* id and the low byte of the model id */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclprofStop(cfg));
    ASSERT_OK(aclprofDestroyConfig(cfg));
    ASSERT_OK(aclprofFinalize());
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/trace_view.json", dir);
    t = slurp(path);
    ASSERT(t != NULL);
    ASSERT_STR_CONTAINS(t, "\"name\":\"trace id=7 model=72623859790382856 tag=48879\"");
    ASSERT_STR_CONTAINS(t, "\"name\":\"trace id=7 model=8 tag=0\"");
    free(t);
    (void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- aclrtGetHardwareSyncAddr ---------------------------------------------------------------------- */

TEST(trace, hardware_sync_addr_checks_addr_soc_context_in_order)
{
    void *a = NULL;
    ASSERT(setenv("ACLCPU_SOC", "Ascend950PR", 1) == 0);
    ASSERT_OK(aclInit(NULL));
    FAILS(aclrtGetHardwareSyncAddr(NULL), ACL_ERROR_RT_PARAM_INVALID, "aclrtGetHardwareSyncAddr: argument 'addr'");
    FAILS(aclrtGetHardwareSyncAddr(&a), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "Ascend950PR has no inter-core sync");
    ASSERT_OK(aclFinalize());
    ASSERT(setenv("ACLCPU_SOC", "Ascend910_9392", 1) == 0); /* A3 has one */
    ASSERT_OK(aclInit(NULL));
    FAILS(aclrtGetHardwareSyncAddr(&a), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetHardwareSyncAddr");
    ASSERT(a == NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetHardwareSyncAddr(&a));
    ASSERT(a != NULL);
    t_teardown();
}

TEST(trace, hardware_sync_addr_is_one_zeroed_area_per_device_across_resets)
{
    void *a0 = NULL, *again = NULL, *a1 = NULL;
    uint32_t count = 0;
    t_setup();
    ASSERT_OK(aclrtGetHardwareSyncAddr(&a0));
    for (int i = 0; i < 4096; i++)
        ASSERT_EQ(((unsigned char *)a0)[i], 0);
    ((volatile uint32_t *)a0)[0] = 42; /* the kernels' to use */
    ASSERT_OK(aclrtGetHardwareSyncAddr(&again));
    ASSERT(again == a0);
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetHardwareSyncAddr(&again));
    ASSERT(again == a0); /* the same area after a reset */
    ASSERT_OK(aclrtGetDeviceCount(&count));
    if (count > 1) {
        ASSERT_OK(aclrtSetDevice(1));
        ASSERT_OK(aclrtGetHardwareSyncAddr(&a1));
        ASSERT(a1 != a0);
        ASSERT_OK(aclrtResetDeviceForce(1));
        ASSERT_OK(aclrtSetDevice(0));
    }
    t_teardown();
}
