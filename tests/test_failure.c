/*
 * test_failure.c - what a failing task does to its stream and context
 * (spec/acl-api.md §4 "Failure mode", §5 aclrtSetStreamFailureMode), and
 * aborts racing with launches from other threads.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

static _Atomic int ran, survivors;

static void k_count(void *args)
{
    (void)args;
    atomic_fetch_add(&ran, 1);
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

static void k_overflow(void *args)
{
    (void)args;
    aclcpuSetOverflow();
}

/* Block 17 traps; every block before it counts itself. */
static void k_trap_block_17(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 17)
        aclcpuTrap();
    atomic_fetch_add(&survivors, 1);
}

static void launch(const char *name, aclcpuKernelFn fn, uint32_t blocks, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel(name, fn), blocks, NULL, 0, s));
}

/* STOP: the failing task discards the rest of its stream, the sync returns
 * the task's code, and the stream refuses new tasks with that code. */
TEST(failure, stop_discards_the_rest_and_refuses_new_tasks)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    t_launch_gate(&g, s); /* holds the stream until every launch is in */
    launch("fail_count", k_count, 1, s);
    launch("fail_trap", k_trap, 1, s);
    launch("fail_count", k_count, 1, s);
    launch("fail_count", k_count, 1, s);
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 1);
    ASSERT_RC(aclrtLaunchKernel(t_kernel("fail_count", k_count), 1, NULL, 0, s),
              ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_STOP_ON_FAILURE");
    ASSERT_RC(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM); /* argument checks still come first */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&ran), 1);
    t_teardown();
}

/* After a task fails in STOP mode the context refuses every launch at once
 * with the failure's code, and every sync returns it, again and again
 * (context.cc Context::CheckTaskSend, CheckStatus): no need to wait for a
 * sync to report it first. */
TEST(failure, stop_failure_refuses_launches_at_once_and_every_sync_reports_it)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    uint64_t end;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    t_launch_gate(&g, s); /* the record goes in before the failure */
    launch("fail_trap", k_trap, 1, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    atomic_store(&g.open, 1);
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (t_now_ns() < end && aclrtQueryEventStatus(e, &st) == ACL_SUCCESS) /* until the context fails */
        sched_yield();
    ASSERT_RC(aclrtLaunchKernel(t_kernel("fail_count", k_count), 1, NULL, 0, s),
              ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "STOP");
    for (int i = 0; i < 2; i++)
        ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtQueryEventStatus(e, &st), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtSynchronizeEvent(e), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&ran), 0);
    t_teardown();
}

/* CONTINUE (the default): later tasks still run, and the sync reports the
 * first failure once. */
TEST(failure, continue_runs_later_tasks_and_reports_once)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch("fail_trap", k_trap, 1, s);
    launch("fail_count", k_count, 1, s);
    launch("fail_trap", k_trap, 2, s);
    launch("fail_count", k_count, 1, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 2);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* STOP set on one stream puts its context in STOP mode, but each stream
 * reads its own setting (b still reads CONTINUE). A failure on b - set to
 * CONTINUE - then stops the whole context: b's rest is dropped, and a's
 * sync and launches return b's code too. A stream of another context
 * goes on (stream.cc Stream::EnterFailureAbort checks the context's mode;
 * context.cc CheckStatus / CheckTaskSend). */
TEST(failure, stop_mode_across_two_streams_of_one_context)
{
    static struct t_gate g;
    aclrtStream a = NULL, b = NULL, other = NULL;
    aclrtContext mine = NULL, ctx2 = NULL;
    aclrtStreamAttrValue v;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtGetStreamAttribute(b, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_EQ(v.failureMode, ACL_CONTINUE_ON_FAILURE);
    ASSERT_OK(aclrtGetStreamAttribute(a, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_EQ(v.failureMode, ACL_STOP_ON_FAILURE);
    t_launch_gate(&g, b);
    launch("fail_trap", k_trap, 1, b);
    launch("fail_count", k_count, 1, b);
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(b), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 0); /* b stopped at its failure */
    ASSERT_RC(aclrtLaunchKernel(t_kernel("fail_count", k_count), 1, NULL, 0, b),
              ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    /* a did not fail, but its context did. */
    ASSERT_RC(aclrtLaunchKernel(t_kernel("fail_count", k_count), 1, NULL, 0, a),
              ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtSynchronizeStream(a), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtCreateContext(&ctx2, 0));
    ASSERT_OK(aclrtCreateStream(&other));
    launch("fail_trap", k_trap, 1, other);
    launch("fail_count", k_count, 1, other);
    ASSERT_RC(aclrtSynchronizeStream(other), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 1); /* the other context continues */
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyContext(ctx2));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    t_teardown();
}

/* One block that keeps its core 2 ms, under a 1 us deadline: it ends past
 * it, or never starts when the deadline passed first (a slow machine);
 * either way a timeout (507034), a code other than the trap's. */
static void k_spin_2ms(void *args)
{
    (void)args;
    t_busy_ns(2000000u);
}

static void launch_timing_out(aclrtStream s)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr.value.timeoutUs.timeoutLow = 1;
    attr.value.timeoutUs.timeoutHigh = 0;
    ASSERT_OK(aclrtLaunchKernelV2(t_kernel("fail_spin_2ms", k_spin_2ms), 1, NULL, 0, &cfg, s));
}

/* STOP mode: when a second stream of the stopped context fails later (a
 * task it had taken before the first failure), the context keeps the first
 * failure's code: every launch and sync still reports the trap, not the
 * second failure's timeout (stream.cc
 * Stream::EnterFailureAbort sets the context's code only while it has none). */
TEST(failure, stop_mode_context_keeps_the_first_failure_code_after_a_second)
{
    static struct t_gate g;
    aclrtStream a = NULL, b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE));
    t_launch_gate(&g, b);
    launch_timing_out(b); /* taken now; it runs and fails after a's failure */
    launch("fail_trap", k_trap, 1, a);
    ASSERT_RC(aclrtSynchronizeStream(a), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtDestroyStream(b)); /* returns once b's tasks are done: its failure too */
    ASSERT_RC(aclrtSynchronizeStream(a), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtLaunchKernel(t_kernel("fail_count", k_count), 1, NULL, 0, a),
              ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 0);
    ASSERT_OK(aclrtDestroyStream(a));
    t_teardown();
}

/* A block that traps in the middle of a 64-block kernel: with one worker the
 * blocks run in order, so exactly blocks 0..16 complete; the blocks after
 * the trap never start, and in STOP mode the tasks behind it are dropped. */
TEST(failure, failure_in_the_middle_of_a_many_block_kernel)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    t_launch_gate(&g, s); /* holds the stream until both launches are in */
    launch("fail_trap17", k_trap_block_17, 64, s);
    launch("fail_count", k_count, 8, s);
    /* The worker must own the stream before the sync: a stream still ready
     * when it is synchronised is run by the syncing thread, with the worker
     * helping, and two threads need not run the blocks in order. */
    ASSERT(t_wait_at_least(&g.started, 1));
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&survivors), 17);
    ASSERT_EQ(atomic_load(&ran), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Block 17 traps; every other block works 100 us before it counts. */
static void k_trap_block_17_slow(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 17)
        aclcpuTrap();
    t_busy_ns(100000u);
    atomic_fetch_add(&survivors, 1);
}

/* With several workers the failing kernel's later blocks may already run,
 * but the ones not yet claimed are skipped: fewer than all complete. Each
 * block works 100 us, so all 4095 would take the other workers 0.4 s or
 * more: far longer than the trap takes to stop the kernel, even under a
 * sanitizer on a loaded machine (with blocks that do nothing, the others
 * once ran them all while the trapping worker was descheduled). */
TEST(failure, many_block_failure_with_all_workers)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch("fail_trap17_slow", k_trap_block_17_slow, 4096, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT(atomic_load(&survivors) < 4095);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* An overflow is a "successful" sync code (spec §4): reported, but it does
 * not trip STOP mode. */
TEST(failure, overflow_does_not_trip_stop_mode)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    launch("fail_overflow", k_overflow, 1, s);
    launch("fail_count", k_count, 1, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AIVEC_OVER_FLOW);
    ASSERT_EQ(atomic_load(&ran), 1);
    launch("fail_count", k_count, 1, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&ran), 2);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- abort racing with launches ------------------------------------------------------------ */

enum { RACE_LAUNCHERS = 3, RACE_LAUNCHES = 3000, RACE_MAX_ABORTS = 1000000 };

struct race {
    aclrtContext ctx;
    aclrtStream s, waiter;
    aclrtEvent ev[RACE_LAUNCHERS];
    _Atomic int launched, bad_rc, launchers_done;
    _Atomic int runs[RACE_LAUNCHERS * RACE_LAUNCHES]; /* blocks run, per launch */
};

/* Counts one block of its launch: args = the launch's slot in race.runs. */
static void k_count_slot(void *args)
{
    atomic_fetch_add(*(_Atomic int **)args, 1);
}

static void *race_launcher(void *p)
{
    struct race *r = p;
    static _Atomic int next_index;
    int me = atomic_fetch_add(&next_index, 1);
    aclrtFuncHandle k = t_kernel("fail_count_slot", k_count_slot);
    if (aclrtSetCurrentContext(r->ctx) != ACL_SUCCESS)
        atomic_fetch_add(&r->bad_rc, 1);
    for (int i = 0; i < RACE_LAUNCHES; i++) {
        _Atomic int *slot = &r->runs[me * RACE_LAUNCHES + i];
        aclError rc = aclrtLaunchKernel(k, 1 + (uint32_t)(i % 3), &slot, sizeof(slot), r->s);
        if (rc != ACL_SUCCESS)
            atomic_fetch_add(&r->bad_rc, 1);
        else
            atomic_fetch_add(&r->launched, 1);
        /* Now and then an event edge to the waiter stream: an abort must
         * never leave the waiter parked on a dropped record. */
        if (i % 97 == 0 && (aclrtRecordEvent(r->ev[me], r->s) != ACL_SUCCESS ||
                            aclrtStreamWaitEvent(r->waiter, r->ev[me]) != ACL_SUCCESS))
            atomic_fetch_add(&r->bad_rc, 1);
    }
    atomic_fetch_add(&r->launchers_done, 1);
    return NULL;
}

/* Launchers on three threads and an aborting thread on one stream: every
 * launch is accepted, no kernel runs twice, nothing crashes or hangs, the
 * waiter stream finishes, and work issued after the last abort runs. */
TEST(failure, abort_racing_with_launches_from_other_threads)
{
    static struct race r;
    pthread_t th[RACE_LAUNCHERS];
    aclError rc;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&r.ctx));
    ASSERT_OK(aclrtCreateStream(&r.s));
    ASSERT_OK(aclrtCreateStream(&r.waiter));
    for (int i = 0; i < RACE_LAUNCHERS; i++) {
        ASSERT_OK(aclrtCreateEvent(&r.ev[i]));
        ASSERT_EQ(pthread_create(&th[i], NULL, race_launcher, &r), 0);
    }
    /* Abort over and over while the launchers run (bounded). */
    for (int i = 0; i < RACE_MAX_ABORTS && atomic_load(&r.launchers_done) < RACE_LAUNCHERS; i++) {
        ASSERT_OK(aclrtStreamAbort(r.s));
        if (i % 16 == 0)
            sched_yield();
    }
    for (int i = 0; i < RACE_LAUNCHERS; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    ASSERT_EQ(atomic_load(&r.bad_rc), 0);
    rc = aclrtSynchronizeStream(r.s);
    ASSERT(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_STREAM_ABORT);
    ASSERT_EQ(atomic_load(&r.launched), RACE_LAUNCHERS * RACE_LAUNCHES);
    for (int i = 0; i < RACE_LAUNCHERS * RACE_LAUNCHES; i++) /* no block ran twice */
        ASSERT(atomic_load(&r.runs[i]) <= 1 + (i % RACE_LAUNCHES) % 3);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(r.waiter, 10000));
    atomic_store(&ran, 0);
    launch("fail_count", k_count, 2, r.s);
    ASSERT_OK(aclrtSynchronizeStream(r.s)); /* issued after the last abort: runs and syncs normally */
    ASSERT_EQ(atomic_load(&ran), 2);
    for (int i = 0; i < RACE_LAUNCHERS; i++)
        ASSERT_OK(aclrtDestroyEvent(r.ev[i]));
    ASSERT_OK(aclrtDestroyStream(r.waiter));
    ASSERT_OK(aclrtDestroyStream(r.s));
    t_teardown();
}

/* CONTINUE: of two failures before a sync, the sync reports the first
 * (a trap, 507035), not the later overflow (207010); the next sync, with
 * no new failure, succeeds. */
TEST(failure, sync_reports_the_first_of_two_failures)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    launch("fail_trap", k_trap, 1, s);
    launch("fail_overflow", k_overflow, 1, s);
    launch("fail_count", k_count, 1, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: the device sync's first error ------------------------------------------------------ */

/* aclrtSynchronizeDevice reports a failing stream's code even when a
 * stream made after it (so synchronised after it) finished fine: the
 * first error found is kept, not the last stream's result. */
TEST(failure, a_device_sync_reports_a_failing_stream_though_a_later_stream_is_fine)
{
    aclrtStream s1 = NULL, s2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    launch("fail_trap", k_trap, 1, s1);
    launch("fail_count", k_count, 1, s2);
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 1);
    ASSERT_OK(aclrtSynchronizeDevice()); /* reported once */
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}
