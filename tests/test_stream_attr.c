/*
 * test_stream_attr.c - failure mode, overflow switch and stream attributes
 * (spec/acl-api.md §5 "Failure mode / attributes / overflow", §6 rows).
 */
#include <pthread.h>
#include <sched.h>
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
    /* Each stream keeps its own mode: another stream still reads CONTINUE,
     * so setting it to CONTINUE is a no-op (api_impl.cc StreamSetMode). */
    ASSERT_OK(aclrtSetStreamFailureMode(NULL, ACL_CONTINUE_ON_FAILURE));
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

/* ---- aclrtStreamAbort ------------------------------------------------------------ */

static _Atomic int abort_blocks_run, abort_release, abort_first_started;

/* Block 0 waits for the test; every block counts itself. */
static void k_abortable(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 0) {
        atomic_store(&abort_first_started, 1);
        t_wait_flag(&abort_release, 1);
    }
    atomic_fetch_add(&abort_blocks_run, 1);
}


struct abort_call {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc, done;
};

static void *abort_thread(void *p)
{
    struct abort_call *a = p;
    if (aclrtSetCurrentContext(a->ctx) == ACL_SUCCESS)
        atomic_store(&a->rc, aclrtStreamAbort(a->s));
    atomic_store(&a->done, 1);
    return NULL;
}

/* Abort stops the running kernel at its next block, drops queued tasks
 * (a dropped record still completes its event, which is how this test sees
 * the abort under way), and syncs of the aborted work return 107023; the
 * stream then takes and runs new work normally. */
TEST(stream_attr, abort_stops_running_kernel_and_drops_queue)
{
    static struct abort_call a;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclrtFuncHandle k = t_kernel("attr_abortable", k_abortable);
    aclrtEvent e = NULL;
    pthread_t th;
    uint64_t end;

    setenv("ACLCPU_WORKERS", "1", 1); /* one worker: block 1 can only start after block 0 */
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&a.ctx));
    ASSERT_OK(aclrtCreateStream(&a.s));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtLaunchKernel(k, 1000, NULL, 0, a.s));
    ASSERT(t_wait_flag(&abort_first_started, 1)); /* running: what follows stays queued */
    ASSERT_OK(aclrtRecordEvent(e, a.s));
    t_launch_log(7, a.s); /* queued behind: must never run */
    ASSERT_EQ(pthread_create(&th, NULL, abort_thread, &a), 0);
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (st != ACL_EVENT_RECORDED_STATUS_COMPLETE && t_now_ns() < end) {
        ASSERT_OK(aclrtQueryEventStatus(e, &st));
        sched_yield();
    }
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE); /* the abort has begun */
    ASSERT_EQ(atomic_load(&a.done), 0); /* and waits for the running kernel */
    atomic_store(&abort_release, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&a.rc));
    ASSERT_EQ(atomic_load(&abort_blocks_run), 1); /* blocks 1..999 never started */
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    /* The abort reset the stream's status before it returned: later syncs
     * report nothing (context.cc StreamAbort, ResetStreamConstruct). */
    ASSERT_OK(aclrtSynchronizeStream(a.s));
    ASSERT_OK(aclrtSynchronizeStream(a.s));
    t_launch_log(8, a.s);
    ASSERT_OK(aclrtSynchronizeStream(a.s)); /* new work runs and syncs normally */
    ASSERT_EQ(atomic_load(&t_log_v[0]), 8);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(a.s));
    t_teardown();
}

/* A stream waiting on an event recorded after aborted work is not left
 * hanging: the dropped record completes its event. */
TEST(stream_attr, abort_releases_streams_waiting_on_its_events)
{
    static struct t_gated_pair p;
    t_setup();
    t_gated_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEvent(p.s2, p.e));
    t_launch_log(5, p.s2);
    ASSERT(t_wait_at_least(&p.g.started, 1));
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtStreamAbort(p.s1));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(p.s2, 5000));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 5);
    t_gated_pair_close(&p);
    t_teardown();
}

TEST(stream_attr, abort_argument_rules)
{
    aclrtStream other = NULL;
    aclrtContext mine = NULL, ctx2 = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtStreamAbort(NULL)); /* A2: the default stream */
    ASSERT_RC(aclrtStreamAbort((aclrtStream)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateContext(&ctx2, 0));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtStreamAbort(other), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtDestroyContext(ctx2));
    t_teardown();
}

/* The attribute types end at LAUNCH_BLOCKING_MODE (6): the next one is
 * refused by the getter and the setter alike (after the handle, see
 * attribute_calls_check_the_handle_before_the_attribute). */
TEST(stream_attr, attribute_type_past_the_last_refused)
{
    aclrtStream s = NULL;
    aclrtStreamAttrValue v;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    ASSERT_RC(aclrtGetStreamAttribute(s, (aclrtStreamAttr)(ACL_STREAM_LAUNCH_BLOCKING_MODE + 1), &v),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "stmAttrType");
    ASSERT_RC(aclrtSetStreamAttribute(s, (aclrtStreamAttr)(ACL_STREAM_LAUNCH_BLOCKING_MODE + 1), &v),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- the conformance audit: the reference's order of checks ------------------------------- */

#define STALE ((aclrtStream)(uintptr_t)0x1234)

static void without_context(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, fn, arg), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
}

/* NULL value (100000), then the handle (107017) whatever the attribute,
 * then the attribute (107000) (stream.cpp aclrtSetStreamAttributeImpl;
 * api_c_stream.cc rtsStreamSetAttribute, rtsStreamGetAttribute). */
TEST(stream_attr, attribute_calls_check_the_handle_before_the_attribute)
{
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    t_setup();
    ASSERT_RC(aclrtSetStreamAttribute(STALE, (aclrtStreamAttr)0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(STALE, (aclrtStreamAttr)0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamAttribute(STALE, (aclrtStreamAttr)0, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetStreamAttribute: argument 'stream'");
    ASSERT_RC(aclrtGetStreamAttribute(STALE, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetStreamAttribute: argument 'stmAttrType'");
    t_teardown();
}

static void *priority_without_context(void *arg)
{
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    ASSERT_RC(aclrtGetStreamAttribute(arg, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSetStreamAttribute(arg, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID);
    return NULL;
}

/* The priority attribute: NULL is refused (107000), not the default
 * stream, for the getter too; a CPU_SCHEDULE stream has none (207000);
 * then a current context is needed (107002); the default stream's handle
 * takes one (api_error.cc SetStreamPriorityValue, GetStreamPriorityValue). */
TEST(stream_attr, priority_attribute_refuses_null_and_cpu_schedule_streams)
{
    aclrtStreamAttrValue v;
    aclrtStream cpu = NULL, s = NULL, d = NULL;
    t_setup();
    memset(&v, 0, sizeof(v));
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetStreamAttribute: argument 'stream'");
    ASSERT_OK(aclrtCreateStreamWithConfig(&cpu, 2, ACL_STREAM_CPU_SCHEDULE));
    ASSERT_RC(aclrtGetStreamAttribute(cpu, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtCreateStream(&s));
    without_context(priority_without_context, s);
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    v.streamPriority = 5;
    ASSERT_OK(aclrtSetStreamAttribute(d, ACL_STREAM_ATTR_PRIORITY, &v));
    v.streamPriority = 0;
    ASSERT_OK(aclrtGetStreamAttribute(d, ACL_STREAM_ATTR_PRIORITY, &v));
    ASSERT_EQ(v.streamPriority, 5);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(cpu));
    t_teardown();
}

static void *cache_op_without_context(void *arg)
{
    aclrtStreamAttrValue v;
    memset(&v, 0, sizeof(v));
    v.cacheOpInfoSwitch = 1;
    ASSERT_OK(aclrtSetStreamAttribute(arg, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    v.cacheOpInfoSwitch = 0;
    ASSERT_OK(aclrtGetStreamAttribute(arg, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    ASSERT_EQ(v.cacheOpInfoSwitch, 1);
    ASSERT_OK(aclrtGetStreamAttribute(arg, ACL_STREAM_ATTR_FAILURE_MODE, &v)); /* no context needed either */
    ASSERT_EQ(v.failureMode, ACL_CONTINUE_ON_FAILURE);
    /* NULL stands for the default stream only where there is a context. */
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    /* A named stream: the handle is fine, then the context is missing. */
    ASSERT_RC(aclrtSetStreamFailureMode(arg, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamAbort(arg), ACL_ERROR_RT_CONTEXT_NULL);
    return NULL;
}

/* The cache-op-info switch takes 0 or 1 (107000) and, like the failure
 * mode's getter, needs no context for a named stream (api_error.cc
 * SetStreamCacheOpInfoSwitch; api_impl.cc does not look at the context);
 * NULL is the default stream only with a context, on A2/A3/950
 * (runtime.cc GetCurStream). */
TEST(stream_attr, cache_op_info_takes_zero_or_one_and_no_context)
{
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    v.cacheOpInfoSwitch = 2;
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cacheOpInfoSwitch");
    without_context(cache_op_without_context, s);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    v.cacheOpInfoSwitch = 1;
    ASSERT_RC(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_CACHE_OP_INFO, &v), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

/* The user tag and the overflow switch belong to the stream's context:
 * another context gets 107003 for the getter and the setter, a capture
 * is refused before that (107027) (api_error.cc SetStreamTag,
 * SetStreamOverflowSwitch; api_impl.cc SetStreamTag, GetStreamTag,
 * GetStreamOverflowSwitch). */
TEST(stream_attr, tag_and_overflow_need_the_streams_own_context)
{
    aclrtContext mine = NULL, other = NULL;
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    uint32_t flag;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    v.userCustomTag = 7;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetStreamAttribute");
    ASSERT_RC(aclrtGetStreamOverflowSwitch(s, &flag), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(mine));
    v.userCustomTag = 0;
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    ASSERT_EQ(v.userCustomTag, 7);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* Off A2/A3/950 the overflow switch and the user tag are set with success
 * before anything is checked, the handle and the value included, and read
 * as 1 (overflow) or left unwritten (tag) (api_c_stream.cc
 * rtSetStreamOverflowSwitch, rtsStreamSetAttribute, rtsStreamGetAttribute). */
TEST(stream_attr, overflow_and_tag_are_accepted_unchecked_off_a2_a3_950)
{
    aclrtStreamAttrValue v;
    uint32_t flag = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclrtSetStreamOverflowSwitch(STALE, 1));
    ASSERT_RC(aclrtSetStreamOverflowSwitch(STALE, 2), ACL_ERROR_INVALID_PARAM); /* the acl layer's check */
    v.overflowSwitch = 5;
    ASSERT_OK(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    ASSERT_RC(aclrtSetStreamAttribute(STALE, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_INVALID_HANDLE);
    v.userCustomTag = 9;
    ASSERT_OK(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    v.userCustomTag = 3;
    ASSERT_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    ASSERT_EQ(v.userCustomTag, 3);
    ASSERT_OK(aclrtGetStreamOverflowSwitch(NULL, &flag));
    ASSERT_EQ(flag, 1);
    t_teardown();
}

/* Abort: the context, the stream's own context, then on the Ascend 950 a
 * PERSISTENT stream (507000: api_impl_david.cc StreamAbort); elsewhere a
 * PERSISTENT stream that no model holds is aborted. */
TEST(stream_attr, abort_refuses_persistent_streams_on_950_only)
{
    aclrtStream p = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_RC(aclrtStreamAbort(p), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamAbort: stream 1 is PERSISTENT");
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend910B1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtStreamAbort(p));
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
}

/* aclrtNonBlockingLaunchBegin/End are aclcpu's (no reference): the stream
 * first, then the reserved flag, which must be 0 (107000); a refused
 * Begin opens nothing. */
TEST(stream_attr, nonblocking_launch_flag_must_be_zero)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtNonBlockingLaunchBegin(STALE, 1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtNonBlockingLaunchBegin(s, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtNonBlockingLaunchBegin: argument 'flag'");
    ASSERT_RC(aclrtNonBlockingLaunchEnd(s, 0), ACL_ERROR_RT_PARAM_INVALID); /* nothing was opened */
    ASSERT_OK(aclrtNonBlockingLaunchBegin(s, 0));
    ASSERT_RC(aclrtNonBlockingLaunchEnd(s, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtNonBlockingLaunchEnd(s, 0));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: second occurrences of the failure mode (2026-12-05) ---------------------------- */

/* Setting STOP on a stream already in STOP is the same mode again: a no-op
 * (0), not a refused way back (api_impl.cc StreamSetMode). */
TEST(stream_attr, failure_mode_stop_set_a_second_time_is_a_no_op)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_RC(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A stream bound to a model has no failure mode of its own (207000). */
TEST(stream_attr, failure_mode_of_a_model_bound_stream_is_refused)
{
    aclrtStream p = NULL;
    aclmdlRI b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBindStream(b, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtSetStreamFailureMode(p, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "bound to a model");
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
}
