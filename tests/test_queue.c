/*
 * test_queue.c - the stream queue's rules under concurrency: launchers on
 * several threads append to one stream while its owner takes tasks off the
 * other end without a lock (src/core/squeue.h, src/engine/complete.c).
 *
 * Each kernel carries (thread, index) and checks, in plain memory, that the
 * indices of each launching thread reach it in order: the stream runs its
 * tasks one after another, so plain writes are safe exactly when the
 * runtime orders consecutive tasks (ThreadSanitizer checks that too).
 * Tests race launches against STOP mode, abort and destroy, and destroy,
 * stop or (STOP mode) drop tasks on a stream a worker keeps after emptying
 * it (the linger).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test.h"

enum { LAUNCHERS = 3, PER_THREAD = 3000 };

struct step {
    int thread, index;
    int trap; /* the kernel ends with aclcpuTrap() */
};

/* Written only by the tasks of the stream under test, which run in order. */
static int next_index[LAUNCHERS]; /* the index each thread's next task should carry */
static int out_of_order;          /* tasks that came with another index */
static int allow_gaps;            /* abort and force destroy drop tasks: indices may jump ahead */
static _Atomic int ran;

static void k_step(void *args)
{
    const struct step *st = args;
    int want = next_index[st->thread];
    if (allow_gaps ? st->index < want : st->index != want)
        out_of_order++;
    next_index[st->thread] = st->index + 1;
    atomic_fetch_add(&ran, 1);
    if (st->trap)
        aclcpuTrap();
}

static void reset_steps(int gaps)
{
    for (int t = 0; t < LAUNCHERS; t++)
        next_index[t] = 0;
    out_of_order = 0;
    allow_gaps = gaps;
    atomic_store(&ran, 0);
}

struct launcher {
    aclrtContext ctx;
    aclrtStream s;
    aclrtFuncHandle k;
    int thread, count, trap_at;
    aclError refusal;      /* the code a launch may get instead of success (0: none) */
    _Atomic int *go;       /* all start together */
    int ok, refused, other; /* launch results */
    int ok_after_refusal;  /* a success after a refusal */
};

static void *launcher_main(void *p)
{
    struct launcher *l = p;
    if (aclrtSetCurrentContext(l->ctx) != ACL_SUCCESS) {
        l->other = 1;
        return NULL;
    }
    while (!atomic_load(l->go))
        sched_yield();
    for (int i = 0; i < l->count; i++) {
        struct step st = {l->thread, i, i == l->trap_at};
        aclError rc = aclrtLaunchKernel(l->k, 1, &st, sizeof(st), l->s);
        if (rc == ACL_SUCCESS) {
            l->ok++;
            l->ok_after_refusal += l->refused > 0;
        } else if (l->refusal != ACL_SUCCESS && rc == l->refusal) {
            l->refused++;
        } else {
            l->other++;
        }
    }
    return NULL;
}

static struct launcher launchers[LAUNCHERS];
static pthread_t launcher_threads[LAUNCHERS];
static _Atomic int launch_go;

/* Starts n launcher threads on s, each launching count steps. */
static void start_launchers(int n, aclrtStream s, int count, aclError refusal, int trap_at_thread0)
{
    aclrtContext ctx;
    aclrtFuncHandle k = t_kernel("queue_step", k_step);
    ASSERT_OK(aclrtGetCurrentContext(&ctx));
    atomic_store(&launch_go, 0);
    for (int t = 0; t < n; t++) {
        launchers[t] = (struct launcher){ctx, s, k, t, count, t == 0 ? trap_at_thread0 : -1, refusal, &launch_go,
                                         0, 0, 0, 0};
        ASSERT_EQ(pthread_create(&launcher_threads[t], NULL, launcher_main, &launchers[t]), 0);
    }
    atomic_store(&launch_go, 1);
}

static void join_launchers(int n)
{
    for (int t = 0; t < n; t++)
        ASSERT_EQ(pthread_join(launcher_threads[t], NULL), 0);
}

static int launched_ok(int n)
{
    int sum = 0;
    for (int t = 0; t < n; t++)
        sum += launchers[t].ok;
    return sum;
}

/* Several threads launch onto one stream at once: every task runs exactly
 * once, and each thread's tasks run in the order it launched them. */
TEST(queue, concurrent_launchers_keep_each_threads_order)
{
    aclrtStream s;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    reset_steps(0);
    start_launchers(LAUNCHERS, s, PER_THREAD, ACL_SUCCESS, -1);
    join_launchers(LAUNCHERS);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(launched_ok(LAUNCHERS), LAUNCHERS * PER_THREAD);
    ASSERT_EQ(atomic_load(&ran), LAUNCHERS * PER_THREAD);
    ASSERT_EQ(out_of_order, 0);
    for (int t = 0; t < LAUNCHERS; t++)
        ASSERT_EQ(next_index[t], PER_THREAD);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* STOP mode while other threads keep launching: the stream runs a prefix of
 * its order and nothing behind the failed task, so each thread sees a
 * prefix of its own launches run; thread 0's run ends exactly at its
 * trapping kernel. Once a launch is refused with the failure's code, every
 * later one is too. */
TEST(queue, stop_mode_failure_races_launchers)
{
    enum { TRAP_AT = PER_THREAD / 2 };
    aclrtStream s;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    reset_steps(0);
    start_launchers(LAUNCHERS, s, PER_THREAD, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, TRAP_AT);
    join_launchers(LAUNCHERS);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(out_of_order, 0);
    ASSERT_EQ(next_index[0], TRAP_AT + 1);
    for (int t = 0; t < LAUNCHERS; t++) {
        ASSERT_EQ(launchers[t].other, 0);
        ASSERT_EQ(launchers[t].ok_after_refusal, 0);
        ASSERT(next_index[t] <= launchers[t].ok);
    }
    {
        struct step st = {0, PER_THREAD, 0};
        ASSERT_RC(aclrtLaunchKernel(launchers[0].k, 1, &st, sizeof(st), s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    }
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Aborts while other threads keep launching: no task runs twice or out of
 * order, launches never fail, and once the storm is over the stream takes
 * and runs new work normally. */
TEST(queue, abort_races_launchers)
{
    aclrtStream s;
    aclError rc;
    int aborts = 0;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    reset_steps(1);
    start_launchers(2, s, PER_THREAD, ACL_SUCCESS, -1);
    while (atomic_load(&ran) + aborts < 2 * PER_THREAD && aborts < 2000) {
        ASSERT_OK(aclrtStreamAbort(s));
        aborts++;
        sched_yield();
    }
    join_launchers(2);
    rc = aclrtSynchronizeStream(s);
    ASSERT(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_STREAM_ABORT);
    ASSERT_EQ(launched_ok(2), 2 * PER_THREAD);
    ASSERT_EQ(launchers[0].other + launchers[1].other, 0);
    ASSERT(atomic_load(&ran) <= 2 * PER_THREAD);
    ASSERT_EQ(out_of_order, 0);
    {
        struct step st = {0, PER_THREAD, 0};
        ASSERT_OK(aclrtLaunchKernel(launchers[0].k, 1, &st, sizeof(st), s));
        ASSERT_OK(aclrtSynchronizeStream(s));
        ASSERT_EQ(next_index[0], PER_THREAD + 1);
    }
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A destroy while other threads launch on the stream: each launch either
 * succeeds or gets 107017 (and every later one does too). A plain destroy
 * runs every task that was accepted; a force destroy runs at most those. */
TEST(queue, destroy_races_launchers)
{
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    for (int round = 0; round < 20; round++) {
        int force = round & 1;
        aclrtStream s;
        ASSERT_OK(aclrtCreateStream(&s));
        reset_steps(force);
        start_launchers(2, s, PER_THREAD / 10, ACL_ERROR_RT_INVALID_HANDLE, -1);
        ASSERT(t_wait_at_least(&ran, 10));
        ASSERT_OK(force ? aclrtDestroyStreamForce(s) : aclrtDestroyStream(s));
        join_launchers(2);
        for (int t = 0; t < 2; t++) {
            ASSERT_EQ(launchers[t].other, 0);
            ASSERT_EQ(launchers[t].ok_after_refusal, 0);
        }
        if (force)
            ASSERT(atomic_load(&ran) <= launched_ok(2));
        else
            ASSERT_EQ(atomic_load(&ran), launched_ok(2));
        ASSERT_EQ(out_of_order, 0);
    }
    t_teardown();
}

static _Atomic int counted;
static void k_count(void *args)
{
    (void)args;
    atomic_fetch_add(&counted, 1);
}

/* Polls (bounded) until s reports complete. Unlike a synchronize, a query
 * does not count as a host waiting on s, so the worker that emptied s
 * goes on to keep it (sched.c, linger). */
static int wait_complete(aclrtStream s)
{
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    while (aclrtStreamQuery(s, &st) == ACL_SUCCESS && st != ACL_STREAM_STATUS_COMPLETE && t_now_ns() < end)
        sched_yield();
    return st == ACL_STREAM_STATUS_COMPLETE;
}

/* Queries s until it returns rc: 1, or 0 after T_SPIN_LIMIT_NS. */
static int wait_query_rc(aclrtStream s, aclError rc)
{
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    aclrtStreamStatus st;
    while (aclrtStreamQuery(s, &st) != rc && t_now_ns() < end)
        sched_yield();
    return aclrtStreamQuery(s, &st) == rc;
}

/* A worker keeps a stream it has emptied for a while (here: longer than
 * the test may run), yet destroying the stream does not wait for that,
 * and the recycled stream memory is never touched by the old owner: each
 * new stream runs its kernel exactly once. */
TEST(queue, destroy_while_a_worker_keeps_the_emptied_stream)
{
    aclrtFuncHandle k;
    setenv("ACLCPU_WORKERS", "1", 1);
    setenv("ACLCPU_LINGER_US", "60000000", 1);
    t_setup();
    k = t_kernel("queue_count", k_count);
    for (int round = 0; round < 150; round++) {
        aclrtStream s;
        ASSERT_OK(aclrtCreateStream(&s));
        ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
        ASSERT(wait_complete(s));
        ASSERT_OK(round & 1 ? aclrtDestroyStreamForce(s) : aclrtDestroyStream(s));
        ASSERT_EQ(atomic_load(&counted), round + 1);
    }
    t_teardown();
}

/* A worker keeping an emptied stream leaves it as soon as another stream
 * has work: with one worker, the second stream's kernel still runs. */
TEST(queue, a_kept_stream_does_not_hold_up_other_streams)
{
    aclrtFuncHandle k;
    aclrtStream s1, s2;
    setenv("ACLCPU_WORKERS", "1", 1);
    setenv("ACLCPU_LINGER_US", "60000000", 1);
    t_setup();
    k = t_kernel("queue_count", k_count);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s1));
    ASSERT(wait_complete(s1)); /* the worker now keeps s1 */
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s2));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s2, 20000)); /* timed: never runs the work itself */
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s1)); /* and s1 still works */
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s1, 20000));
    ASSERT_EQ(atomic_load(&counted), 3);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* aclrtStreamStop of a stream a worker keeps after emptying it: the stop
 * ends the linger (it waits for the owner to let go) instead of waiting
 * it out, and the stream then takes no task. */
TEST(queue, stop_while_a_worker_keeps_the_emptied_stream)
{
    aclrtFuncHandle k;
    aclrtStream s;
    aclrtEvent e;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    uint64_t t0, end;
    setenv("ACLCPU_WORKERS", "1", 1);
    setenv("ACLCPU_LINGER_US", "60000000", 1);
    t_setup();
    k = t_kernel("queue_count", k_count);
    /* What A2 can stop. Its syncs and queries do not wait (no host sync on
     * DEVICE_USE_ONLY streams), so an event says when its work is done. */
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_OK(aclrtRecordEvent(e, s));
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (st != ACL_EVENT_RECORDED_STATUS_COMPLETE && t_now_ns() < end) { /* the worker then keeps s */
        ASSERT_OK(aclrtQueryEventStatus(e, &st));
        sched_yield(); /* a bounded spin that lets the worker run (valgrind runs one thread at a time) */
    }
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    t0 = t_now_ns();
    ASSERT_OK(aclrtStreamStop(s));
    ASSERT(t_now_ns() - t0 < T_SPIN_LIMIT_NS); /* not the 60 s linger */
    ASSERT_RC(aclrtLaunchKernel(k, 1, NULL, 0, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtSynchronizeStream(s)); /* DEVICE_USE_ONLY: not the host's to sync, stopped or not */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_EQ(atomic_load(&counted), 1);
    t_teardown();
}

/* STOP mode with a worker that would keep the stream: once a kernel failed,
 * a task issued before any sync reported the failure is taken and dropped,
 * and the stream reads as complete (no owner sits on it waiting for tasks
 * that will never come); the sync then reports the failure and later
 * launches are refused. */
TEST(queue, stop_mode_drop_while_a_worker_would_keep_the_stream)
{
    aclrtFuncHandle k;
    aclrtStream s;
    struct step bad = {0, 0, 1}, next = {0, 1, 0};
    setenv("ACLCPU_WORKERS", "1", 1);
    setenv("ACLCPU_LINGER_US", "60000000", 1);
    t_setup();
    k = t_kernel("queue_step", k_step);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    reset_steps(0);
    ASSERT_OK(aclrtLaunchKernel(k, 1, &bad, sizeof(bad), s));
    /* The kernel failed: a query answers with the context's STOP failure
     * (api_impl.cc StreamQuery: CheckContextStatus). */
    ASSERT(wait_query_rc(s, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION));
    /* Refused at once: the context's STOP failure (context.cc CheckTaskSend). */
    ASSERT_RC(aclrtLaunchKernel(k, 1, &next, sizeof(next), s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&ran), 1);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtLaunchKernel(k, 1, &next, sizeof(next), s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&ran), 1);
    ASSERT_EQ(out_of_order, 0);
    t_teardown();
}
