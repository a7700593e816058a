/*
 * test_stop.c - aclrtStreamStop (spec/acl-api.md §5 "Abort / stop / clean",
 * §6 row "StreamStop | NULL | 107000"): its checks, and what a stopped
 * stream does: the running kernel starts no more blocks, the queue is kept
 * but never runs, syncs and queries return 507000, new tasks are refused,
 * an abort clears the stop, and destroying it never waits for the kept work.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "test.h"

static _Atomic int blocks_run, release, first_started;

/* Block 0 waits for the test; every block counts itself. */
static void k_held_first_block(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 0) {
        atomic_store(&first_started, 1);
        t_wait_flag(&release, 1);
    }
    atomic_fetch_add(&blocks_run, 1);
}

static void launch_held(aclrtStream s, uint32_t blocks)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("stop_held", k_held_first_block), blocks, NULL, 0, s));
}

static aclrtStream device_only_stream(void)
{
    aclrtStream s = NULL;
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY));
    return s;
}

TEST(stop, argument_rules_on_a2)
{
    aclrtStream plain = NULL, other = NULL;
    aclrtContext mine = NULL, ctx2 = NULL;
    t_setup();
    ASSERT_RC(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID); /* the default stream cannot be stopped */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamStop: argument 'stream' is NULL");
    ASSERT_RC(aclrtStreamStop((aclrtStream)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_RC(aclrtStreamStop(plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* A2: DEVICE_USE_ONLY streams only */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "DEVICE_USE_ONLY");
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&ctx2, 0));
    other = device_only_stream();
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtStreamStop(other), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyContext(ctx2));
    t_teardown();
}

/* NULL is refused before anything else, even with no context at all; a
 * handle that names no stream is refused (107017) before the context is
 * looked for (api_c.cc rtsStreamStop validates it first). */
TEST(stop, null_checked_before_context)
{
    ASSERT_RC(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamStop((aclrtStream)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST(stop, not_on_other_products)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_RC(aclrtStreamStop(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend310P3");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The vendor sample's flow: a long kernel on a DEVICE_USE_ONLY stream, stop,
 * then sync returns 507000; the tasks behind the kernel never run. */
TEST(stop, stopped_stream_keeps_queue_and_runs_none_of_it)
{
    aclrtStream s = NULL;
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    t_setup();
    s = device_only_stream();
    launch_held(s, 1);
    t_launch_log(1, s);
    t_launch_log(2, s);
    ASSERT(t_wait_flag(&first_started, 1));
    ASSERT_OK(t_stop_releasing(s, &release)); /* returns once the running kernel has ended */
    ASSERT_EQ(atomic_load(&blocks_run), 1);
    /* A DEVICE_USE_ONLY stream is not the host's to sync: 0 / COMPLETE. */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 1000));
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_RC(aclrtLaunchKernel(t_kernel("t_log", t_k_log), 1, &st, sizeof(int), s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "stopped");
    /* A plain destroy cannot wait for work that will never run: it discards
     * the kept tasks once the running kernel has ended. */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&blocks_run), 1);
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

/* Before the stopped stream's kernel runs at all: nothing of it runs. */
TEST(stop, stop_before_the_queue_starts)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    t_setup();
    s = device_only_stream();
    t_launch_gate(&g, s);
    ASSERT(t_wait_flag(&g.started, 1));
    t_launch_log(1, s);
    ASSERT_OK(t_stop_releasing(s, &g.open));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

struct sync_call {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int started, rc, done;
};

static void *sync_thread(void *p)
{
    struct sync_call *c = p;
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS) {
        atomic_store(&c->started, 1);
        atomic_store(&c->rc, aclrtSynchronizeStream(c->s));
    }
    atomic_store(&c->done, 1);
    return NULL;
}

/* On Ascend 950 any stream can be stopped; a kernel with many blocks starts
 * none after the stop, and a sync already waiting returns 507000 at once,
 * while the stop itself waits for the running block. */
TEST(stop, many_block_kernel_and_a_waiting_sync)
{
    static struct sync_call c;
    pthread_t th;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    setenv("ACLCPU_WORKERS", "1", 1); /* one worker: block 1 can only start after block 0 */
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    ASSERT_OK(aclrtCreateStream(&c.s));
    launch_held(c.s, 1000);
    t_launch_log(1, c.s);
    ASSERT(t_wait_flag(&first_started, 1));
    ASSERT_EQ(pthread_create(&th, NULL, sync_thread, &c), 0);
    ASSERT(t_wait_flag(&c.started, 1));
    ASSERT_OK(t_stop_releasing(c.s, &release));
    ASSERT(t_wait_flag(&c.done, 1));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(atomic_load(&c.rc), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtDestroyStream(c.s));
    ASSERT_EQ(atomic_load(&blocks_run), 1); /* blocks 1..999 never started */
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

/* A stopped kernel skips its unstarted blocks at once, however many: a SIMT
 * grid of 65535 x 65535 blocks (close to 2^32) is stopped after block 0,
 * and the stop returns promptly, not after walking four billion blocks. */
TEST(stop, huge_grid_skips_its_blocks_at_once)
{
    aclrtStream s = NULL;
    dim3 grid = {65535, 65535, 1}, block = {1, 1, 1};
    int32_t arg = 0;
    uint64_t t0;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchSIMTKernelWithHostArgs(t_kernel("stop_held", k_held_first_block), grid, block, 0, s, NULL,
                                                &arg, sizeof(arg), NULL, 0));
    ASSERT(t_wait_flag(&first_started, 1));
    t0 = t_now_ns();
    ASSERT_OK(t_stop_releasing(s, &release));
    /* The walk took about 30 s; the jump takes microseconds. 5 s is room
     * for a loaded machine and valgrind. */
    ASSERT(t_now_ns() - t0 < 5000000000ull);
    ASSERT_OK(aclrtStreamAbort(s));
    ASSERT_EQ(atomic_load(&blocks_run), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* An abort drops what a stop kept and clears the stop: syncs of the dropped
 * work return 107023, and new work runs. */
TEST(stop, abort_clears_a_stop)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch_held(s, 1);
    t_launch_log(1, s);
    ASSERT(t_wait_flag(&first_started, 1));
    ASSERT_OK(t_stop_releasing(s, &release));
    ASSERT_OK(aclrtStreamAbort(s));
    ASSERT_OK(aclrtSynchronizeStream(s)); /* the abort's status was reset before it returned */
    t_launch_log(2, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 2);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A device sync meets a stopped stream whose kept tasks will never run: it
 * reports 507000 (the runtime's "stream invalid"), not success, as a sync
 * of the stream itself does. Ascend 950 stops plain (host-synced) streams. */
TEST(stop, a_device_sync_reports_a_stopped_stream)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch_held(s, 1);
    t_launch_log(1, s);
    ASSERT(t_wait_flag(&first_started, 1));
    ASSERT_OK(t_stop_releasing(s, &release));
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(1000), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

/* A stopped stream that was parked on an event stays stopped when the event
 * completes: the record releases nothing. */
TEST(stop, parked_stream_stays_stopped_when_its_event_completes)
{
    static struct t_gated_pair p;
    aclrtStream dev_only = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    t_gated_pair_open(&p);
    dev_only = p.s2;
    ASSERT_OK(aclrtStreamWaitEvent(dev_only, p.e));
    t_launch_log(3, dev_only);
    ASSERT_OK(aclrtStreamStop(dev_only));
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s1)); /* the record ran */
    ASSERT_RC(aclrtSynchronizeStream(dev_only), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtDestroyStream(dev_only));
    p.s2 = NULL;
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_gated_pair_close(&p);
    t_teardown();
}

/* aclrtStreamAbort does not take DEVICE_USE_ONLY streams (the vendor's
 * sample says so; aclrtStreamStop is their tool). */
TEST(stop, abort_refuses_device_use_only)
{
    aclrtStream s = NULL;
    t_setup();
    s = device_only_stream();
    ASSERT_RC(aclrtStreamAbort(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamAbort");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* PERSISTENT and DEVICE_USE_ONLY streams are not the host's to sync: a
 * sync, a timed sync and a query answer 0 / COMPLETE at once, twice, also
 * after aclrtStreamStop (of a DEVICE_USE_ONLY one: the only kind A2 stops);
 * a bad timeout is checked first
 * (api_error.cc StreamSynchronize, StreamQuery). */
TEST(stop, device_only_and_persistent_streams_sync_at_once_even_stopped)
{
    uint32_t flags[2] = {ACL_STREAM_DEVICE_USE_ONLY, ACL_STREAM_PERSISTENT};
    t_setup();
    for (int i = 0; i < 2; i++) {
        aclrtStream s = NULL;
        aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
        ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, flags[i]));
        for (int stopped = 0; stopped < 2; stopped++) {
            ASSERT_OK(aclrtSynchronizeStream(s));
            ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 10));
            ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID); /* timeout first */
            ASSERT_OK(aclrtStreamQuery(s, &st));
            ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
            if (!stopped && flags[i] == ACL_STREAM_DEVICE_USE_ONLY) /* A2 stops only these */
                ASSERT_OK(aclrtStreamStop(s));
        }
        ASSERT_OK(aclrtDestroyStreamForce(s));
    }
    t_teardown();
}

/* A sync that overlaps an abort reports it (107023); the abort resets the
 * stream's status before it returns, so a sync begun afterwards reports
 * nothing, twice, and new work runs (context.cc Context::StreamAbort:
 * SetAbortStatus(ABORT) ... ResClear ... SetAbortStatus(NONE)). */
TEST(stop, sync_during_an_abort_reports_it_one_after_does_not)
{
    static struct sync_call c;
    static struct t_gate g;
    pthread_t th;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    ASSERT_OK(aclrtCreateStream(&c.s));
    t_launch_gate(&g, c.s);
    t_launch_log(1, c.s);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(pthread_create(&th, NULL, sync_thread, &c), 0);
    ASSERT(t_wait_flag(&c.started, 1));
    atomic_store(&g.open, 1); /* the abort waits for the running kernel */
    ASSERT_OK(aclrtStreamAbort(c.s));
    ASSERT(t_wait_flag(&c.done, 1));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    /* The sync began before the abort; if the stream ran dry first, it
     * returned 0 before the abort began. Either way, never a stale code. */
    ASSERT(atomic_load(&c.rc) == ACL_ERROR_RT_STREAM_ABORT || atomic_load(&c.rc) == ACL_SUCCESS);
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtSynchronizeStream(c.s));
    t_launch_log(2, c.s);
    ASSERT_OK(aclrtSynchronizeStream(c.s));
    ASSERT_EQ(atomic_load(&t_log_v[atomic_load(&t_log_n) - 1]), 2);
    ASSERT_OK(aclrtDestroyStream(c.s));
    t_teardown();
}

/* Destroying a stopped stream drops its kept tasks at once, a rule of its
 * own (stream.c: a stopped stream's tasks never run again): it neither
 * runs them nor waits for them; a teardown wait would give up only after
 * its grace and then report the drop in aclGetRecentErrMsg. */
TEST(stop, destroy_drops_the_kept_tasks_without_waiting)
{
    aclrtStream s = NULL;
    const char *msg;
    t_setup();
    s = device_only_stream();
    launch_held(s, 1);
    t_launch_log(1, s);
    t_launch_log(2, s);
    ASSERT(t_wait_flag(&first_started, 1));
    ASSERT_OK(t_stop_releasing(s, &release));
    (void)aclGetRecentErrMsg(); /* only what the destroy says counts */
    ASSERT_OK(aclrtDestroyStream(s));
    msg = aclGetRecentErrMsg();
    ASSERT(msg == NULL || strstr(msg, "dropped") == NULL);
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

/* ---- the conformance audit: the reference's order of checks ------------------------------- */

static void *stop_without_context(void *arg)
{
    ASSERT_RC(aclrtStreamStop(arg), ACL_ERROR_RT_CONTEXT_NULL);
    return NULL;
}

/* Stop: the handle, NULL, the context (107002), the product, the stream's
 * own context (107003), and only then a model binding (507000)
 * (api_impl.cc StreamClear, api_impl_david.cc StreamStop, context.cc
 * Context::StreamClear). */
TEST(stop, stop_checks_context_then_owner_then_model_binding)
{
    aclrtContext mine = NULL, other = NULL;
    aclrtStream p = NULL;
    aclmdlRI m = NULL;
    pthread_t th;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_EQ(pthread_create(&th, NULL, stop_without_context, p), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtStreamStop(p), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamStop: stream");
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_RC(aclrtStreamStop(p), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* ---- an abort begun and ended while a sync sleeps -------------------------------------------------- */

/* The syncing thread's id, and a signal handler that holds it (bounded)
 * until the test lets it go: the sync cannot look at the stream while the
 * whole abort runs. */
static _Atomic int sleeper_tid, held_in_handler, let_go;

static void hold_here(int sig)
{
    (void)sig;
    atomic_store(&held_in_handler, 1);
    (void)t_wait_flag(&let_go, 1);
}

static void *timed_sync_thread(void *p)
{
    struct sync_call *c = p;
    atomic_store(&sleeper_tid, (int)syscall(SYS_gettid));
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS) {
        atomic_store(&c->started, 1);
        /* Timed: it never runs the stream itself, and sleeps in one futex wait. */
        atomic_store(&c->rc, aclrtSynchronizeStreamWithTimeout(c->s, 60000));
    }
    atomic_store(&c->done, 1);
    return NULL;
}

/* True once thread tid sleeps in a futex wait (/proc: syscall 202 on x86-64,
 * 98 on arm64). */
static int sleeps_in_futex(int tid)
{
    char path[64], line[64] = {0};
    FILE *f;
    long nr = -2;
    snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", tid);
    f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (fgets(line, sizeof(line), f) != NULL)
        nr = strtol(line, NULL, 10);
    fclose(f);
#if defined(__x86_64__)
    return nr == 202;
#elif defined(__aarch64__)
    return nr == 98;
#else
    return nr >= 0;
#endif
}

/* A sync that was waiting when an abort began reports the abort (107023)
 * even when the whole abort, start to end, passed while it slept: it looks
 * only after the abort has reset the stream (context.cc Context::StreamAbort
 * sets the abort status for the syncs that overlap it). The sync sleeps on a
 * stream parked on an event behind a gate; a signal holds the syncing thread
 * in its handler while the abort runs, then lets it look. */
TEST(stop, a_sync_asleep_through_a_whole_abort_reports_it)
{
    static struct sync_call c;
    static struct t_gated_pair p;
    struct sigaction sa, old;
    uint64_t end;
    pthread_t th;
    t_setup();
    t_gated_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEvent(p.s2, p.e));
    t_launch_log(1, p.s2);
    /* Once a worker has parked s2 on the event, a timed sync says so (on a
     * loaded machine s2 may wait a while for a free worker first). */
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    for (;;) {
        const char *msg;
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.s2, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        msg = aclGetRecentErrMsg();
        if (msg != NULL && strstr(msg, "waits on event") != NULL)
            break;
        ASSERT(t_now_ns() < end);
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = hold_here;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR1, &sa, &old), 0);
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.s = p.s2;
    ASSERT_EQ(pthread_create(&th, NULL, timed_sync_thread, &c), 0);
    ASSERT(t_wait_flag(&c.started, 1));
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (!sleeps_in_futex(atomic_load(&sleeper_tid)) && t_now_ns() < end)
        sched_yield();
    ASSERT(sleeps_in_futex(atomic_load(&sleeper_tid)));
    ASSERT_EQ(pthread_kill(th, SIGUSR1), 0);
    ASSERT(t_wait_flag(&held_in_handler, 1));
    ASSERT_OK(aclrtStreamAbort(p.s2)); /* begins and ends while the sync is held */
    ASSERT_EQ(atomic_load(&c.done), 0);
    atomic_store(&let_go, 1);
    ASSERT(t_wait_flag(&c.done, 1));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(sigaction(SIGUSR1, &old, NULL), 0);
    ASSERT_RC(atomic_load(&c.rc), ACL_ERROR_RT_STREAM_ABORT);
    ASSERT_OK(aclrtSynchronizeStream(p.s2)); /* one begun after it: nothing to report */
    ASSERT_EQ(atomic_load(&t_log_n), 0);     /* the abort dropped the wait and what followed */
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s1));
    t_gated_pair_close(&p);
    t_teardown();
}
