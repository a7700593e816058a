/*
 * test_wait_timeout.c - a stream wait that outlives its timeout fails the
 * wait task (ACL_ERROR_RT_WAIT_TIMEOUT at the next sync) instead of
 * hanging: aclrtStreamWaitEventWithTimeout, aclrtSetOpWaitTimeout,
 * aclrtWaitAndResetNotify.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

/* s2 waits on an event recorded behind a shut gate on s1; the wait must
 * give up after its timeout, the stream goes on (CONTINUE mode), and the
 * gate opening later changes nothing. */
static void check_wait_times_out(aclError (*issue_wait)(aclrtStream, aclrtEvent), uint64_t min_ms)
{
    static struct t_gated_pair p;
    uint64_t t0;

    t_gated_pair_open(&p);
    t0 = t_now_ns();
    ASSERT_OK(issue_wait(p.s2, p.e));
    t_launch_log(1, p.s2);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.s2, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= min_ms * 1000000u);
    ASSERT_EQ(atomic_load(&t_log_stored), 1); /* the task after the failed wait still ran */
    ASSERT_EQ(atomic_load(&p.g.finished), 0); /* and the gate is still shut */
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s1));
    ASSERT_OK(aclrtSynchronizeStream(p.s2));
    t_gated_pair_close(&p);
}

static aclError wait_1s(aclrtStream s, aclrtEvent e) { return aclrtStreamWaitEventWithTimeout(s, e, 1); }
static aclError wait_plain(aclrtStream s, aclrtEvent e) { return aclrtStreamWaitEvent(s, e); }
static aclError wait_flag_1s(aclrtStream s, aclrtEvent e) { return aclrtStreamWaitEventWithFlag(s, e, 1, 0); }

TEST(wait_timeout, stream_wait_event_with_timeout)
{
    t_setup();
    check_wait_times_out(wait_1s, 1000);
    t_teardown();
}

TEST(wait_timeout, op_wait_timeout_bounds_plain_waits)
{
    t_setup();
    ASSERT_OK(aclrtSetOpWaitTimeout(1));
    check_wait_times_out(wait_plain, 1000);
    t_teardown();
}

TEST(wait_timeout, wait_with_flag_default_takes_seconds)
{
    t_setup();
    check_wait_times_out(wait_flag_1s, 1000);
    t_teardown();
}

/* A wait that is satisfied in time is not failed by its timeout. */
TEST(wait_timeout, satisfied_wait_is_not_failed)
{
    static struct t_gated_pair p;
    t_setup();
    t_gated_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(p.s2, p.e, 3));
    t_launch_log(1, p.s2);
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s2));
    ASSERT_EQ(atomic_load(&t_log_stored), 1);
    t_gated_pair_close(&p);
    t_teardown();
}

/* A notify wait's timeout is in seconds (docs/zh/api_ref/08: "单位是秒");
 * never recorded, it fails in time; in STOP mode the failure drops the
 * rest of the stream. */
TEST(wait_timeout, notify_wait_times_out)
{
    aclrtStream s = NULL;
    aclrtNotify n = NULL;
    uint64_t t0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    t0 = t_now_ns();
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 1));
    t_launch_log(1, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= 1000u * 1000000u);
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped by STOP */
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    t_teardown();
}

/* A notify wait consumes the record it found: one record releases one
 * wait. A second wait with no new record times out (107019); a new record
 * releases a third. */
TEST(wait_timeout, notify_wait_consumes_its_record)
{
    aclrtStream rec = NULL, s = NULL;
    aclrtNotify n = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtRecordNotify(n, rec));
    ASSERT_OK(aclrtSynchronizeStream(rec)); /* the notify is set before the waits are issued */
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 5));
    ASSERT_OK(aclrtSynchronizeStream(s));
    /* Second occurrence: nothing recorded since the first wait reset it. */
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    /* A new record releases the next wait. */
    ASSERT_OK(aclrtRecordNotify(n, rec));
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 5));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 4000));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(rec));
    t_teardown();
}

/* Destroying a stream whose wait is being watched leaves nothing behind. */
TEST(wait_timeout, force_destroy_of_a_watched_wait)
{
    static struct t_gated_pair p;
    t_setup();
    t_gated_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(p.s2, p.e, 1));
    ASSERT_OK(aclrtDestroyStreamForce(p.s2));
    p.s2 = NULL;
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s1));
    t_gated_pair_close(&p);
    t_teardown();
}

/* ---- kernel TIMEOUT / TIMEOUT_US launch attributes ------------------------------ */

static _Atomic int busy_blocks;

/* Each block keeps its core busy for the number of microseconds it is given. */
static void k_busy(void *args)
{
    uint64_t us;
    memcpy(&us, args, sizeof(us));
    t_busy_ns(us * 1000u);
    atomic_fetch_add(&busy_blocks, 1);
}

static aclError launch_busy(aclrtStream s, uint32_t blocks, uint64_t block_us, uint64_t timeout_us,
                            aclrtEngineType engine)
{
    aclrtLaunchKernelAttr attr[2];
    aclrtLaunchKernelCfg cfg = {attr, 2};
    attr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr[0].value.timeoutUs.timeoutLow = (uint32_t)timeout_us;
    attr[0].value.timeoutUs.timeoutHigh = (uint32_t)(timeout_us >> 32);
    attr[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr[1].value.engineType = engine;
    return aclrtLaunchKernelV2(t_kernel("wt_busy", k_busy), blocks, &block_us, sizeof(block_us), &cfg, s);
}

/* Blocks not started by the deadline never start, and the sync reports the
 * engine's timeout code. */
TEST(wait_timeout, kernel_timeout_stops_starting_blocks)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(launch_busy(s, 200, 2000, 20000, ACL_RT_ENGINE_TYPE_AIV)); /* 200 x 2 ms, 20 ms allowed */
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    ASSERT(atomic_load(&busy_blocks) < 200);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A single block that ends after its deadline is reported as timed out;
 * the cube engine has its own code. */
TEST(wait_timeout, kernel_timeout_single_block)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(launch_busy(s, 1, 30000, 5000, ACL_RT_ENGINE_TYPE_AIC));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT);
    ASSERT_OK(launch_busy(s, 1, 30000, 5000, ACL_RT_ENGINE_TYPE_AIV));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Within its timeout a kernel succeeds; the seconds attribute works too. */
TEST(wait_timeout, kernel_within_timeout_succeeds)
{
    aclrtStream s = NULL;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    uint64_t us = 100;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(launch_busy(s, 4, 100, 2000000, ACL_RT_ENGINE_TYPE_AIV));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attr.value.timeout = 2;
    ASSERT_OK(aclrtLaunchKernelV2(t_kernel("wt_busy", k_busy), 4, &us, sizeof(us), &cfg, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&busy_blocks), 8);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* rtsNotifyWaitAndReset: UINT32_MAX asks for the default wait, which is
 * forever on the chips with notify waits and aclrtSetOpWaitTimeout's on
 * Atlas inference (rtNotifyWait). */
static void notify_default_wait(int bounded)
{
    aclrtStream s = NULL;
    aclrtNotify n = NULL;
    ASSERT_OK(aclrtSetOpWaitTimeout(1));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, UINT32_MAX));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 2500),
              bounded ? ACL_ERROR_RT_WAIT_TIMEOUT : ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStreamForce(s));
}

TEST(wait_timeout, notify_default_wait_follows_the_chip)
{
    t_setup();
    notify_default_wait(0);
    t_teardown();
}

TEST(wait_timeout, notify_default_wait_on_atlas_inference_takes_op_wait_timeout)
{
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    notify_default_wait(1);
    t_teardown();
}

/* api_c_stream.cc rtStreamWaitEventWithTimeout / rtStreamWaitEvent and
 * each chip's streamWaitEventTimeout (src/runtime/config/): UINT32_MAX
 * asks for aclrtSetOpWaitTimeout's; Atlas inference (ZERO) takes only
 * that default, Atlas training (NOT_SUPPORT) no timeout at all. */
static aclError wait_flag_default_max(aclrtStream s, aclrtEvent e)
{
    return aclrtStreamWaitEventWithFlag(s, e, UINT32_MAX, ACL_EVENT_WAIT_DEFAULT);
}

TEST(wait_timeout, wait_with_flag_uint32_max_takes_the_op_wait_timeout)
{
    t_setup();
    ASSERT_OK(aclrtSetOpWaitTimeout(1));
    check_wait_times_out(wait_flag_default_max, 1000);
    t_teardown();
}

/* The wait holds past 1.5 s (no timeout fails it) until the gate opens. */
static void check_wait_holds(aclError (*issue_wait)(aclrtStream, aclrtEvent))
{
    static struct t_gated_pair p;
    atomic_store(&t_log_n, 0);
    atomic_store(&t_log_stored, 0);
    t_gated_pair_open(&p);
    ASSERT_OK(issue_wait(p.s2, p.e));
    t_launch_log(1, p.s2);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.s2, 1500), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&t_log_stored), 0);
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s2));
    ASSERT_EQ(atomic_load(&t_log_stored), 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s1));
    t_gated_pair_close(&p);
}

TEST(wait_timeout, atlas_inference_waits_take_only_the_default_timeout)
{
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    check_wait_holds(wait_1s);
    ASSERT_OK(aclrtSetOpWaitTimeout(1));
    atomic_store(&t_log_n, 0);
    atomic_store(&t_log_stored, 0);
    check_wait_times_out(wait_plain, 1000);
    t_teardown();
}

TEST(wait_timeout, atlas_training_waits_have_no_timeout)
{
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_OK(aclrtSetOpWaitTimeout(1));
    check_wait_holds(wait_plain);
    check_wait_holds(wait_1s);
    t_teardown();
}
