/*
 * test_stream_attr.c - failure mode, overflow switch and stream attributes
 * (spec/acl-api.md §5 "Failure mode / attributes / overflow", §6 rows).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

static _Atomic int overflow_runs;

/* A kernel whose block reports a float overflow, then returns normally. */
static void k_overflow(void *args)
{
    (void)args;
    atomic_fetch_add(&overflow_runs, 1);
    aclcpuSetOverflow();
}

static aclrtFuncHandle overflow_kernel(void) { return t_kernel("attr_overflow", k_overflow); }

static void launch_overflow(aclrtStream s, aclrtEngineType engine)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr.value.engineType = engine;
    ASSERT_OK(aclrtLaunchKernelV2(overflow_kernel(), 2, NULL, 0, &cfg, s));
}

TEST(stream_attr, overflow_switch_arguments)
{
    aclrtStream s = NULL;
    uint32_t flag = 7;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSetStreamOverflowSwitch(s, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 0);
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 1);
    ASSERT_RC(aclrtSetStreamOverflowSwitch((aclrtStream)0x1234, 1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Overflow reaches sync only for kernels issued after the switch went on,
 * with the engine's code, and it is not a failure: STOP mode lets the
 * stream go on and take new work. */
TEST(stream_attr, overflow_reported_for_tasks_issued_after_switch)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIV);
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    ASSERT_OK(aclrtSynchronizeStream(s)); /* issued before the switch: not reported */
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIV);
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIV);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    ASSERT_EQ(atomic_load(&overflow_runs), 6); /* STOP did not drop the second kernel */
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIC);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_OVER_FLOW);
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 0));
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIV);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&overflow_runs), 10);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Products without the switch: setting it does nothing, reading gives 1. */
TEST(stream_attr, overflow_switch_on_310p_reads_one)
{
    aclrtStream s = NULL;
    uint32_t flag = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 0));
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 1);
    launch_overflow(s, ACL_RT_ENGINE_TYPE_AIV);
    ASSERT_OK(aclrtSynchronizeStream(s)); /* the stored switch is off */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream_attr, failure_mode_rules)
{
    aclrtStream s = NULL, dev_only = NULL, other = NULL;
    aclrtContext mine = NULL, ctx2 = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&dev_only, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_RC(aclrtSetStreamFailureMode(dev_only, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE)); /* same mode: no-op */
    ASSERT_OK(aclrtCreateContext(&ctx2, 0));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtSetStreamFailureMode(other, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetStreamFailureMode(NULL, 0x2)); /* only bit 0 counts: CONTINUE, a no-op */
    ASSERT_OK(aclrtSetStreamFailureMode(s, 0x3)); /* bit 0 set: STOP */
    ASSERT_RC(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* STOP spreads to the whole context: another stream of it is STOP too. */
    ASSERT_RC(aclrtSetStreamFailureMode(NULL, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(dev_only));
    ASSERT_OK(aclrtDestroyContext(ctx2));
    t_teardown();
}

TEST(stream_attr, failure_mode_null_stream_needs_ctrl_sq_soc)
{
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_RC(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetStreamFailureMode");
    t_teardown();
}

TEST(stream_attr, attribute_arguments)
{
    aclrtStream s = NULL;
    aclrtStreamAttrValue v;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
    memset(&v, 0, sizeof(v));
    ASSERT_RC(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetStreamAttribute(s, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_PARAM_INVALID);
    v.overflowSwitch = 2;
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_PARAM_INVALID);
    v.streamPriority = 3;
    ASSERT_RC(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream_attr, attributes_round_trip)
{
    aclrtStream s = NULL;
    aclrtStreamAttrValue v;
    uint32_t prio = 0, flag = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    v.userCustomTag = 0xC0FFEE;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    v.cacheOpInfoSwitch = 1;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    v.overflowSwitch = 1;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    v.streamPriority = 9; /* clamped to 7 */
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    ASSERT_EQ(v.userCustomTag, 0xC0FFEE);
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    ASSERT_EQ(v.cacheOpInfoSwitch, 1);
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    ASSERT_EQ(v.overflowSwitch, 1);
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 1);
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    ASSERT_EQ(v.streamPriority, 7);
    ASSERT_OK(aclrtStreamGetPriority(s, &prio));
    ASSERT_EQ(prio, 7);
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_EQ(v.failureMode, ACL_CONTINUE_ON_FAILURE);
    v.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_EQ(v.failureMode, ACL_STOP_ON_FAILURE);
    v.failureMode = ACL_CONTINUE_ON_FAILURE;
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A priority change moves a stream that is already waiting to be run. */
TEST(stream_attr, priority_change_reorders_ready_streams)
{
    static struct t_gate blocker;
    aclrtStream busy = NULL, low = NULL, high = NULL;
    aclrtStreamAttrValue v;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&busy));
    ASSERT_OK(aclrtCreateStreamWithConfig(&low, 1, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&high, 2, 0));
    t_launch_gate(&blocker, busy); /* holds the single worker */
    ASSERT(t_wait_at_least(&blocker.started, 1));
    t_launch_log(1, low);
    t_launch_log(2, high);
    memset(&v, 0, sizeof(v));
    v.streamPriority = 0; /* now "high" beats "low", which is already ready */
    ASSERT_OK(aclrtSetStreamAttribute(high, ACL_STREAM_ATTR_PRIORITY, &v));
    atomic_store(&blocker.open, 1);
    ASSERT(t_wait_at_least(&t_log_stored, 2));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 2);
    ASSERT_EQ(atomic_load(&t_log_v[1]), 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
}
