/*
 * test_wait_timeout.c - a stream wait that outlives its timeout fails the
 * wait task (ACL_ERROR_RT_WAIT_TIMEOUT at the next sync) instead of
 * hanging: aclrtStreamWaitEventWithTimeout, aclrtSetOpWaitTimeout,
 * aclrtWaitAndResetNotify.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

/* s2 waits on an event recorded behind a shut gate on s1; the wait must
 * give up after its timeout, the stream goes on (CONTINUE mode), and the
 * gate opening later changes nothing. */
static void check_wait_times_out(aclError (*issue_wait)(aclrtStream, aclrtEvent), uint64_t min_ms)
{
    static struct t_gate g;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    uint64_t t0;

    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    t0 = t_now_ns();
    ASSERT_OK(issue_wait(s2, e));
    t_launch_log(1, s2);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s2, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= min_ms * 1000000u);
    ASSERT_EQ(atomic_load(&t_log_stored), 1); /* the task after the failed wait still ran */
    ASSERT_EQ(atomic_load(&g.finished), 0);   /* and the gate is still shut */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
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
    static struct t_gate g;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(s2, e, 3));
    t_launch_log(1, s2);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&t_log_stored), 1);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* A notify wait with a timeout in ms, never recorded, fails in time; in
 * STOP mode the failure drops the rest of the stream. */
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
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 200));
    t_launch_log(1, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= 200u * 1000000u);
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped by STOP */
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    t_teardown();
}

/* Destroying a stream whose wait is being watched leaves nothing behind. */
TEST(wait_timeout, force_destroy_of_a_watched_wait)
{
    static struct t_gate g;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(s2, e, 1));
    ASSERT_OK(aclrtDestroyStreamForce(s2));
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    t_teardown();
}
