/*
 * test_hang.c - a hang is never silent: syncs that give up, waits that time
 * out, and untimed syncs that make no progress say which stream waits on
 * which event recorded on which stream, and what holds that one up.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

static int32_t stream_id(aclrtStream s)
{
    int32_t id = -1;
    ASSERT_OK(aclrtStreamGetId(s, &id));
    return id;
}

static uint32_t event_id(aclrtEvent e)
{
    uint32_t id = 0;
    ASSERT_OK(aclrtGetEventId(e, &id));
    return id;
}

/* A waiter stream parked on an event whose record sits behind a gate on a
 * stopped DEVICE_USE_ONLY stream: it can never go on by itself. */
struct stuck_pair {
    aclrtStream rec, waiter;
    aclrtEvent e;
    struct t_gate g;
};

static void stuck_pair_open(struct stuck_pair *p)
{
    memset(p, 0, sizeof(*p));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p->rec, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStream(&p->waiter));
    ASSERT_OK(aclrtCreateEvent(&p->e));
    t_launch_gate(&p->g, p->rec);
    ASSERT_OK(aclrtRecordEvent(p->e, p->rec));
    ASSERT_OK(aclrtStreamWaitEvent(p->waiter, p->e));
    t_launch_log(1, p->waiter);
    ASSERT(t_wait_flag(&p->g.started, 1));
    ASSERT_OK(t_stop_releasing(p->rec, &p->g.open));
}

/* Destroying the stopped stream drops its record, which completes the event
 * and releases the waiter. */
static void stuck_pair_close(struct stuck_pair *p)
{
    ASSERT_OK(aclrtDestroyStream(p->rec));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(p->waiter, 10000));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyEvent(p->e));
    ASSERT_OK(aclrtDestroyStream(p->waiter));
}

TEST(hang, timed_sync_names_the_chain)
{
    static struct stuck_pair p;
    char want[256];
    const char *msg;
    t_setup();
    stuck_pair_open(&p);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.waiter, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    msg = aclGetRecentErrMsg();
    snprintf(want, sizeof(want), "aclrtSynchronizeStreamWithTimeout: stream %d did not finish within 100 ms: stream %d "
             "waits on event %u (record #1; #0 is the newest done), recorded on stream %d, which was stopped by "
             "aclrtStreamStop", stream_id(p.waiter), stream_id(p.waiter), event_id(p.e), stream_id(p.rec));
    ASSERT_STR_CONTAINS(msg, want);
    stuck_pair_close(&p);
    t_teardown();
}

TEST(hang, timed_event_sync_names_the_chain)
{
    static struct stuck_pair p;
    char want[256];
    t_setup();
    stuck_pair_open(&p);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(p.e, 100), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    snprintf(want, sizeof(want), "event %u did not complete within 100 ms: event %u's record #1 (#0 is the newest "
             "done) was issued on stream %d, which was stopped by aclrtStreamStop", event_id(p.e), event_id(p.e),
             stream_id(p.rec));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), want);
    stuck_pair_close(&p);
    t_teardown();
}

TEST(hang, device_sync_names_the_late_stream)
{
    static struct stuck_pair p;
    char want[128];
    t_setup();
    stuck_pair_open(&p);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    snprintf(want, sizeof(want), "recorded on stream %d, which was stopped", stream_id(p.rec));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), want);
    stuck_pair_close(&p);
    t_teardown();
}

/* A slow stream is not a stuck one: the chain ends at a running task. */
TEST(hang, running_work_is_reported_as_running)
{
    static struct t_gated_pair p;
    char want[128];
    t_setup();
    t_gated_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEvent(p.s2, p.e));
    ASSERT(t_wait_flag(&p.g.started, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    snprintf(want, sizeof(want), "recorded on stream %d, which is running a task", stream_id(p.s1));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), want);
    atomic_store(&p.g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(p.s2));
    t_gated_pair_close(&p);
    t_teardown();
}

/* Notifies have no snapshot, so two streams can wait on each other. */
TEST(hang, notify_cycle_is_named)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtNotify n1 = NULL, n2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateNotify(&n1, 0));
    ASSERT_OK(aclrtCreateNotify(&n2, 0));
    ASSERT_OK(aclrtWaitAndResetNotify(n2, s1, 0));
    ASSERT_OK(aclrtRecordNotify(n1, s1));
    ASSERT_OK(aclrtWaitAndResetNotify(n1, s2, 0));
    ASSERT_OK(aclrtRecordNotify(n2, s2));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s1, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "a cycle of waits");
    ASSERT_OK(aclrtDestroyStreamForce(s1)); /* drops s1's record of n1: s2 goes on */
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s2, 10000));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyNotify(n1));
    ASSERT_OK(aclrtDestroyNotify(n2));
    t_teardown();
}

/* ACLCPU_HANG_TIMEOUT_MS makes an untimed sync on a stuck chain give up. */
TEST(hang, untimed_sync_gives_up_after_hang_timeout)
{
    static struct stuck_pair p;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "200", 1);
    t_setup();
    stuck_pair_open(&p);
    ASSERT_RC(aclrtSynchronizeStream(p.waiter), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "made no progress for ACLCPU_HANG_TIMEOUT_MS");
    ASSERT_RC(aclrtSynchronizeEvent(p.e), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which was stopped by aclrtStreamStop");
    stuck_pair_close(&p);
    t_teardown();
}

/* A blocking launch (launch-blocking mode) onto a stuck chain is an untimed
 * wait like aclrtSynchronizeStream: it gives up after ACLCPU_HANG_TIMEOUT_MS
 * with the same code and chain (fuzz seed 5072 waited forever). The
 * kernel stays queued and runs once the chain is released. */
TEST(hang, blocking_launch_gives_up_after_hang_timeout)
{
    static struct stuck_pair p;
    aclrtStreamAttrValue v;
    int two = 2, three = 3;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "200", 1);
    t_setup();
    stuck_pair_open(&p);
    memset(&v, 0, sizeof(v));
    v.launchBlockingMode = ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING;
    ASSERT_OK(aclrtSetStreamAttribute(p.waiter, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    ASSERT_RC(aclrtLaunchKernel(t_kernel("t_log", t_k_log), 1, &two, sizeof(two), p.waiter),
              ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "made no progress for ACLCPU_HANG_TIMEOUT_MS");
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    /* the second blocking launch behind the same chain gives up the same way */
    ASSERT_RC(aclrtLaunchKernel(t_kernel("t_log", t_k_log), 1, &three, sizeof(three), p.waiter),
              ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_OK(aclrtDestroyStream(p.rec));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(p.waiter, 10000));
    ASSERT_EQ(atomic_load(&t_log_n), 3);
    ASSERT_OK(aclrtDestroyEvent(p.e));
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    t_teardown();
}

/* ---- the log ------------------------------------------------------------------------------ */

struct sync_call {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc, done;
};

static void *untimed_sync(void *arg)
{
    struct sync_call *c = arg;
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS)
        atomic_store(&c->rc, aclrtSynchronizeStream(c->s));
    atomic_store(&c->done, 1);
    return NULL;
}

/* Without a hang timeout the sync keeps waiting (as on the device), but it
 * warns once it has made no progress on a stuck chain; when the chain is
 * broken it returns normally. */
TEST(hang, untimed_sync_warns_and_keeps_waiting)
{
    static struct stuck_pair p;
    static struct sync_call c;
    char want[160];
    pthread_t th;
    t_capture_log("2");
    t_setup();
    stuck_pair_open(&p);
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.s = p.waiter;
    ASSERT_EQ(pthread_create(&th, NULL, untimed_sync, &c), 0);
    snprintf(want, sizeof(want), "a sync on stream %d has made no progress for", stream_id(p.waiter));
    ASSERT(t_log_shows(want));
    ASSERT(t_log_shows("which was stopped by aclrtStreamStop"));
    ASSERT_EQ(atomic_load(&c.done), 0);
    ASSERT_OK(aclrtDestroyStream(p.rec)); /* drops the record: the waiter finishes */
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_OK(aclrtDestroyEvent(p.e));
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    t_teardown();
}

/* A wait task that outlives its timeout logs (at info) what held its
 * record up. */
TEST(hang, timed_out_wait_logs_the_chain)
{
    static struct stuck_pair p;
    char want[200];
    t_capture_log("1");
    t_setup();
    memset(&p, 0, sizeof(p));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p.rec, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStream(&p.waiter));
    ASSERT_OK(aclrtCreateEvent(&p.e));
    t_launch_gate(&p.g, p.rec);
    ASSERT_OK(aclrtRecordEvent(p.e, p.rec));
    ASSERT(t_wait_flag(&p.g.started, 1));
    ASSERT_OK(t_stop_releasing(p.rec, &p.g.open));
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(p.waiter, p.e, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(p.waiter, 10000), ACL_ERROR_RT_WAIT_TIMEOUT);
    snprintf(want, sizeof(want), "stream %d: its wait on event %u timed out after 1000 ms (107019); the record it "
             "waited for was issued on stream %d, which was stopped", stream_id(p.waiter), event_id(p.e),
             stream_id(p.rec));
    ASSERT(t_log_shows(want));
    ASSERT_OK(aclrtDestroyStream(p.rec));
    ASSERT_OK(aclrtDestroyEvent(p.e));
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    t_teardown();
}

/* ---- teardown never waits forever (issue 17, bug 2) ------------------------------------------ */

/* A stream parked behind a stopped stream: destroying it drops its work
 * (which can never run) and says why, instead of waiting forever. */
TEST(hang, destroy_drops_work_stuck_behind_a_stopped_stream)
{
    static struct stuck_pair p;
    t_setup();
    stuck_pair_open(&p);
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which was stopped by aclrtStreamStop");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclrtDestroyStream(p.rec));
    ASSERT_OK(aclrtDestroyEvent(p.e));
    t_teardown();
}

/* An event recorded on a PERSISTENT stream is recorded only when a model
 * runs it: a stream waiting on it is dropped by destroy, reset and
 * finalize alike. */
static void persistent_wait(aclrtStream *p, aclrtStream *w, aclrtEvent *e)
{
    ASSERT_OK(aclrtCreateStreamWithConfig(p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(w));
    ASSERT_OK(aclrtCreateEvent(e));
    ASSERT_OK(aclrtRecordEvent(*e, *p));
    ASSERT_OK(aclrtStreamWaitEvent(*w, *e));
    t_launch_log(1, *w);
}

TEST(hang, destroy_drops_a_wait_on_a_persistent_stream)
{
    aclrtStream p = NULL, w = NULL;
    aclrtEvent e = NULL;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "100", 1);
    t_setup();
    persistent_wait(&p, &w, &e);
    ASSERT_RC(aclrtSynchronizeStream(w), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which is PERSISTENT");
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(hang, reset_device_drops_stuck_work)
{
    aclrtStream p = NULL, w = NULL, w2 = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&w2)); /* made first, so reset meets it stuck */
    persistent_wait(&p, &w, &e);
    ASSERT_OK(aclrtStreamWaitEvent(w2, e));
    t_launch_log(2, w2);
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which is PERSISTENT");
    ASSERT_OK(aclFinalize());
}

TEST(hang, finalize_drops_stuck_work)
{
    static struct stuck_pair p;
    aclrtStream w0 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&w0)); /* made first, so finalize meets it stuck */
    stuck_pair_open(&p);
    ASSERT_OK(aclrtStreamWaitEvent(w0, p.e));
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclFinalize());
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which was stopped by aclrtStreamStop");
}

TEST(hang, destroy_drops_a_notify_cycle)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtNotify n1 = NULL, n2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateNotify(&n1, 0));
    ASSERT_OK(aclrtCreateNotify(&n2, 0));
    ASSERT_OK(aclrtWaitAndResetNotify(n2, s1, 0));
    ASSERT_OK(aclrtRecordNotify(n1, s1));
    ASSERT_OK(aclrtWaitAndResetNotify(n1, s2, 0));
    ASSERT_OK(aclrtRecordNotify(n2, s2));
    ASSERT_OK(aclrtDestroyStream(s1)); /* not forced: gives up on the cycle */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "a cycle of waits");
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s2, 10000)); /* s1's record was completed as dropped */
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyNotify(n1));
    ASSERT_OK(aclrtDestroyNotify(n2));
    t_teardown();
}

/* A wait on a notify that no queued task records cannot move on by itself:
 * a plain destroy drops it after its grace instead of waiting for an
 * aclrtRecordNotify that may never come (found by aclcpu-fuzz). */
TEST(hang, destroy_drops_a_wait_on_a_notify_never_recorded)
{
    aclrtStream s = NULL;
    aclrtNotify n = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 0));
    t_launch_log(1, s);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which no queued task records");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

/* A flag event (SYNC or EXTERNAL) reset since its last record: a wait on
 * it waits for the next record, and none is queued, so a destroy drops it
 * after its grace, although the stream of its last record still lives
 * (found by aclcpu-fuzz, seed 20: the destroy waited forever). */
TEST(hang, destroy_drops_a_wait_on_a_flag_event_reset_since)
{
    const char *msg;
    aclrtStream rec = NULL, w = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtRecordEvent(e, rec));
    ASSERT_OK(aclrtResetEvent(e, rec));
    ASSERT_OK(aclrtSynchronizeStream(rec));
    ASSERT_OK(aclrtStreamWaitEvent(w, e));
    t_launch_log(1, w);
    ASSERT_OK(aclrtDestroyStream(w));
    msg = aclGetRecentErrMsg(); /* read once: reading clears it */
    ASSERT_STR_CONTAINS(msg, "to be set (a flag event, reset since its last record)");
    ASSERT_STR_CONTAINS(msg, "which no queued task records");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclrtDestroyStream(rec));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* A value wait that no queued task writes can be released only by a
 * write from outside (the host, a kernel, another process): a sync waits
 * for one, a destroy cannot, and drops it after its grace; a force destroy
 * drops it at once. Both forms. */
TEST(hang, destroy_drops_a_value_wait_nothing_queued_writes)
{
    uint64_t *w = NULL;
    const char *msg;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&w, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    *w = 0;
    for (int force = 0; force < 2; force++) {
        aclrtStream s = NULL;
        ASSERT_OK(aclrtCreateStream(&s));
        ASSERT_OK(aclrtValueWait(w, 1, ACL_STREAM_WAIT_VALUE_GEQ, s));
        t_launch_log(1, s);
        ASSERT_OK(force ? aclrtDestroyStreamForce(s) : aclrtDestroyStream(s));
        msg = aclGetRecentErrMsg();
        ASSERT_STR_CONTAINS(msg, "dropped its 2 unfinished task(s)");
        ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    }
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

/* aclrtDestroyStreamForce drops at once what can never run (here: behind a
 * wait on a notify no queued task records), and runs what can: the kernel
 * launched before that wait. */
TEST(hang, destroy_force_runs_what_it_can_and_drops_the_rest)
{
    aclrtStream s = NULL;
    aclrtNotify n = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    t_launch_log(1, s);
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 0));
    t_launch_log(1, s);
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which no queued task records");
    ASSERT_EQ(atomic_load(&t_log_n), 1); /* the first ran, the one behind the wait did not */
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

/* A wait whose newest record was issued on a stream that is gone (its
 * work done or dropped) has nothing left that could release it: here the
 * notify's record went into a captured model that never runs, and the
 * capturing stream was destroyed since. A destroy drops the wait, naming
 * why (found by aclcpu-fuzz, two threads, seed 16: the context's destroy
 * waited forever). The boundary: hang.destroy_waits_for_a_recorder_being_destroyed. */
TEST(hang, destroy_drops_a_wait_whose_recorder_is_gone)
{
    aclrtStream a = NULL, w = NULL;
    aclrtNotify n = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclmdlRICaptureBegin(a, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordNotify(n, a));
    ASSERT_OK(aclmdlRICaptureEnd(a, &m));
    ASSERT_OK(aclrtWaitAndResetNotify(n, w, 0));
    t_launch_log(1, w);
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "recorded on a stream destroyed since, whose work is done or dropped");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

struct late_open {
    _Atomic int *open;
    uint64_t after_ns;
};

static void *open_later(void *arg)
{
    struct late_open *o = arg;
    t_idle_ns(o->after_ns);
    atomic_store(o->open, 1);
    return NULL;
}

/* The boundary: work held up by a stream that is running (slow, not stuck)
 * is waited for, even well past the time a stuck chain is given. */
TEST(hang, destroy_waits_for_slow_work)
{
    static struct t_gate g;
    static struct late_open o;
    aclrtStream rec = NULL, w = NULL;
    aclrtEvent e = NULL;
    pthread_t th;
    t_setup();
    memset(&g, 0, sizeof(g));
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, rec);
    ASSERT_OK(aclrtRecordEvent(e, rec));
    ASSERT_OK(aclrtStreamWaitEvent(w, e));
    t_launch_log(1, w);
    ASSERT(t_wait_flag(&g.started, 1));
    o.open = &g.open;
    o.after_ns = 600000000u; /* three times the stuck verdict's grace */
    ASSERT_EQ(pthread_create(&th, NULL, open_later, &o), 0);
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_EQ(atomic_load(&t_log_n), 1); /* it ran: destroy waited */
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtDestroyStream(rec));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* The boundary of the flag rule: a record of the flag event still queued
 * (behind slow work) will set it, so the destroy waits for it. */
struct destroyer {
    aclrtContext ctx;
    aclrtStream s;
    aclError rc;
};

static void *destroy_in_thread(void *arg)
{
    struct destroyer *d = arg;
    if (aclrtSetCurrentContext(d->ctx) == ACL_SUCCESS)
        d->rc = aclrtDestroyStream(d->s);
    return NULL;
}

/* The boundary of hang.destroy_drops_a_wait_whose_recorder_is_gone: the
 * recorder is being destroyed by another thread and still has its record
 * queued behind slow work, so the waiter's destroy waits for it (well past
 * the stuck verdict's grace) and the waiter's work runs. */
TEST(hang, destroy_waits_for_a_recorder_being_destroyed)
{
    static struct t_gate g;
    static struct late_open o;
    static struct destroyer d;
    aclrtStream w = NULL;
    aclrtNotify n = NULL;
    aclrtStreamStatus st;
    pthread_t th, opener;
    uint64_t end;
    t_setup();
    memset(&g, 0, sizeof(g));
    ASSERT_OK(aclrtCreateStream(&d.s));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    t_launch_gate(&g, d.s);
    ASSERT_OK(aclrtRecordNotify(n, d.s));
    ASSERT_OK(aclrtWaitAndResetNotify(n, w, 0));
    t_launch_log(1, w);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtGetCurrentContext(&d.ctx));
    ASSERT_EQ(pthread_create(&th, NULL, destroy_in_thread, &d), 0);
    end = t_now_ns() + T_SPIN_LIMIT_NS; /* until the recorder's handle is dead: its destroy has begun */
    while (aclrtStreamQuery(d.s, &st) != ACL_ERROR_RT_INVALID_HANDLE && t_now_ns() < end)
        sched_yield();
    o.open = &g.open;
    o.after_ns = 600000000u; /* three times the stuck verdict's grace */
    ASSERT_EQ(pthread_create(&opener, NULL, open_later, &o), 0);
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_EQ(atomic_load(&t_log_n), 1); /* the wait was released by the record: it ran */
    ASSERT_EQ(pthread_join(opener, NULL), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(d.rc);
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

TEST(hang, destroy_waits_for_a_flag_event_record_still_queued)
{
    static struct t_gate g;
    static struct late_open o;
    aclrtStream rec = NULL, w = NULL;
    aclrtEvent e = NULL;
    pthread_t th;
    t_setup();
    memset(&g, 0, sizeof(g));
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtStreamWaitEvent(w, e)); /* issued before any record: waits to be set */
    t_launch_log(1, w);
    t_launch_gate(&g, rec);
    ASSERT_OK(aclrtRecordEvent(e, rec));
    ASSERT(t_wait_flag(&g.started, 1));
    o.open = &g.open;
    o.after_ns = 600000000u; /* three times the stuck verdict's grace */
    ASSERT_EQ(pthread_create(&th, NULL, open_later, &o), 0);
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_EQ(atomic_load(&t_log_n), 1); /* it ran: destroy waited */
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtDestroyStream(rec));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* ---- model runs: the walk follows a run into its lanes ----------------------------------------- */

/* A model of one or two HEAD lanes, run on `exec`. Lane a waits on the
 * EXTERNAL event `never` (never recorded); with two lanes, lane b waits on
 * an edge that lane a records after that wait, so b is held up by a. */
struct stuck_model {
    aclmdlRI m;
    aclrtStream a, b, exec;
    aclrtEvent never, edge;
};

static void stuck_model_open(struct stuck_model *sm, bool two_lanes)
{
    memset(sm, 0, sizeof(*sm));
    ASSERT_OK(aclrtCreateStreamWithConfig(&sm->a, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&sm->exec));
    /* EXTERNAL: a model's wait on it waits for it to be set. */
    ASSERT_OK(aclrtCreateEventWithFlag(&sm->never, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclmdlRIBuildBegin(&sm->m, 0));
    ASSERT_OK(aclmdlRIBindStream(sm->m, sm->a, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtStreamWaitEvent(sm->a, sm->never));
    t_launch_log(1, sm->a);
    if (two_lanes) {
        ASSERT_OK(aclrtCreateEventWithFlag(&sm->edge, ACL_EVENT_SYNC));
        ASSERT_OK(aclrtRecordEvent(sm->edge, sm->a));
    }
    if (!two_lanes)
        ASSERT_OK(aclmdlRIEndTask(sm->m, sm->a)); /* one end task per model */
    if (two_lanes) {
        ASSERT_OK(aclrtCreateStreamWithConfig(&sm->b, 0, ACL_STREAM_PERSISTENT));
        ASSERT_OK(aclmdlRIBindStream(sm->m, sm->b, ACL_MODEL_STREAM_FLAG_HEAD));
        ASSERT_OK(aclrtStreamWaitEvent(sm->b, sm->edge));
        t_launch_log(2, sm->b);
        ASSERT_OK(aclmdlRIEndTask(sm->m, sm->b));
    }
    ASSERT_OK(aclmdlRIBuildEnd(sm->m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(sm->m, sm->exec));
}

/* Records the event the run waits for on another stream: the run ends. */
static void stuck_model_release_and_close(struct stuck_model *sm, int lanes)
{
    aclrtStream other = NULL;
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtRecordEvent(sm->never, other));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(sm->exec, 10000));
    ASSERT_EQ(atomic_load(&t_log_n), lanes);
    ASSERT_OK(aclmdlRIUnbindStream(sm->m, sm->a));
    if (sm->b != NULL)
        ASSERT_OK(aclmdlRIUnbindStream(sm->m, sm->b));
    ASSERT_OK(aclmdlRIDestroy(sm->m));
    ASSERT_OK(aclrtDestroyEvent(sm->never));
    if (sm->edge != NULL)
        ASSERT_OK(aclrtDestroyEvent(sm->edge));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(sm->exec));
    ASSERT_OK(aclrtDestroyStream(sm->a));
    if (sm->b != NULL)
        ASSERT_OK(aclrtDestroyStream(sm->b));
}

/* A stream parked behind a model run is stuck when every lane being played
 * is: the untimed sync gives up after the hang timeout, naming the lane's
 * wait, and the run still ends once the event is recorded. */
TEST(hang, model_run_stuck_in_its_lane_gives_up_after_hang_timeout)
{
    static struct stuck_model sm;
    const char *msg;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "150", 1);
    t_setup();
    stuck_model_open(&sm, false);
    ASSERT_RC(aclrtSynchronizeStream(sm.exec), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    msg = aclGetRecentErrMsg(); /* read once: a read takes the messages */
    ASSERT_STR_CONTAINS(msg, "waits for model");
    ASSERT_STR_CONTAINS(msg, "(lane 0 of model");
    ASSERT_STR_CONTAINS(msg, "which waits on event");
    ASSERT_STR_CONTAINS(msg, "which no queued task records");
    stuck_model_release_and_close(&sm, 1);
    t_teardown();
}

/* A lane waiting on an edge leads to the lane that records it: here one
 * stuck on an event never recorded, so both lanes and the run are stuck. */
TEST(hang, model_lane_waiting_on_an_edge_leads_to_the_lane_that_records_it)
{
    static struct stuck_model sm;
    const char *msg;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "150", 1);
    t_setup();
    stuck_model_open(&sm, true);
    ASSERT_RC(aclrtSynchronizeStream(sm.exec), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    msg = aclGetRecentErrMsg();
    ASSERT_STR_CONTAINS(msg, "waits for the lane that records its event");
    ASSERT_STR_CONTAINS(msg, "which no queued task records");
    stuck_model_release_and_close(&sm, 2);
    t_teardown();
}

/* The boundary: one lane that runs is enough for the run to move on, so
 * the hang watch does not give up while it runs, however long. */
TEST(hang, model_run_with_a_running_lane_is_not_stuck)
{
    static struct t_gate g;
    static struct sync_call c;
    aclmdlRI m = NULL;
    aclrtStream a = NULL, exec = NULL;
    pthread_t th;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "100", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&a, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, a, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, a);
    ASSERT_OK(aclmdlRIEndTask(m, a));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.s = exec;
    ASSERT_EQ(pthread_create(&th, NULL, untimed_sync, &c), 0);
    /* Three hang timeouts pass while the gate is shut: the untimed sync
     * must not give up. */
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(exec, 300), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which is running a task");
    ASSERT_EQ(atomic_load(&c.done), 0);
    atomic_store(&g.open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_OK(aclmdlRIUnbindStream(m, a));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtDestroyStream(a));
    t_teardown();
}

/* A model destroyed while its run is stuck in a lane: the destroy waits a
 * teardown's grace, then stops the run (as aclmdlRIAbort) and says why,
 * instead of waiting forever; the stream that ran it goes on. */
TEST(hang, destroy_of_a_model_whose_run_is_stuck_in_a_lane_stops_the_run)
{
    static struct stuck_model sm;
    t_setup();
    stuck_model_open(&sm, false);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(sm.exec, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclmdlRIDestroy(sm.m));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which no queued task records");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* the lane's kernel after the wait never ran */
    (void)aclrtSynchronizeStreamWithTimeout(sm.exec, 10000); /* the run's result: stopped */
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(sm.exec, 10000));
    ASSERT_OK(aclrtDestroyEvent(sm.never));
    ASSERT_OK(aclrtDestroyStream(sm.exec));
    ASSERT_OK(aclrtDestroyStream(sm.a));
    t_teardown();
}

/* The same through a context's destroy, which destroys its models: it
 * returns, and the stuck run is reported. */
TEST(hang, destroy_of_a_context_with_a_run_stuck_in_a_lane_returns)
{
    static struct stuck_model sm;
    aclrtContext ctx = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateContext(&ctx, 0));
    stuck_model_open(&sm, true);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(sm.exec, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclrtDestroyContext(ctx));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which can never end");
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    t_teardown();
}

/* A notify recorded only into a capture: the record went into the model,
 * so a wait on it outside is held by nothing queued. Its destroy drops it
 * after the grace instead of waiting forever (fuzz seed 30). */
TEST(hang, destroy_drops_a_wait_on_a_notify_recorded_only_into_a_capture)
{
    aclrtStream cap = NULL, w = NULL;
    aclrtNotify n = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&cap));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordNotify(n, cap));
    ASSERT_OK(aclmdlRICaptureEnd(cap, &m));
    ASSERT_OK(aclrtWaitAndResetNotify(n, w, 0));
    t_launch_log(1, w);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(w, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "the record is queued nowhere");
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "dropped its 2 unfinished task(s)");
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStream(cap));
    t_teardown();
}

/* Its boundary: when the captured model runs, its record releases the
 * wait outside, which was waiting rightly. */
TEST(hang, a_wait_on_a_notify_recorded_into_a_capture_passes_when_the_model_runs)
{
    aclrtStream cap = NULL, w = NULL;
    aclrtNotify n = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&cap));
    ASSERT_OK(aclrtCreateStream(&w));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordNotify(n, cap));
    ASSERT_OK(aclmdlRICaptureEnd(cap, &m));
    ASSERT_OK(aclrtWaitAndResetNotify(n, w, 0));
    t_launch_log(1, w);
    ASSERT_OK(aclmdlRIExecuteAsync(m, cap));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(w, 10000));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(cap, 10000));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStream(w));
    ASSERT_OK(aclrtDestroyStream(cap));
    t_teardown();
}

/* The run may be issued on a stream of another context of the device: the
 * destroy finds it there too (fuzz seed 6, two threads). */
TEST(hang, destroy_stops_a_stuck_run_issued_on_a_stream_of_another_context)
{
    static struct stuck_model sm;
    aclrtContext mine = NULL, other = NULL;
    aclrtStream xb = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    stuck_model_open(&sm, false);
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&xb));
    ASSERT_OK(aclrtSetCurrentContext(mine)); /* the model's calls need its context */
    ASSERT_OK(aclmdlRIExecuteAsync(sm.m, xb));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(sm.exec, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclmdlRIDestroy(sm.m));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which can never end");
    ASSERT_EQ(atomic_load(&t_log_n), 0);
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* A teardown's walk ends at a wait on an IPC notify: this process is going
 * and cannot wait for a record from another one, so that hop is where the
 * chain is stuck, even when a stream of this process has the newest record
 * of the notify queued (it is not walked to, and named nowhere). Here that
 * stream is stopped; the destroy drops the wait and its verdict names only
 * the IPC wait. */
TEST(hang, a_teardowns_walk_ends_at_a_stuck_ipc_wait)
{
    static struct t_gate g;
    char key[65], rec_text[64];
    const char *msg;
    aclrtStream rec = NULL, waiter = NULL;
    aclrtNotify n = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&rec, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStream(&waiter));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtNotifyGetExportKey(n, key, sizeof(key), 0)); /* an IPC notify now */
    t_launch_gate(&g, rec);
    ASSERT_OK(aclrtRecordNotify(n, rec)); /* the newest record: queued on rec */
    ASSERT_OK(aclrtWaitAndResetNotify(n, waiter, 0));
    t_launch_log(1, waiter);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(t_stop_releasing(rec, &g.open));
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclrtDestroyStream(waiter));
    msg = aclGetRecentErrMsg();
    ASSERT_STR_CONTAINS(msg, "waits on IPC notify");
    snprintf(rec_text, sizeof(rec_text), "stream %d,", stream_id(rec));
    ASSERT(strstr(msg, rec_text) == NULL);
    ASSERT(strstr(msg, "stopped by aclrtStreamStop") == NULL);
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclrtDestroyStream(rec));
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

/* ---- sweep 4: a second run's wait, and a notify whose records were all taken -------------------- */

/* A model run issued while the run before it is stuck waits for that run
 * to end before its own can start: the explanation names run #1, the run
 * it waits for, not its own #2. */
TEST(hang, a_model_run_not_started_yet_names_the_run_before_it)
{
    static struct stuck_model sm;
    aclrtStream exec2 = NULL, other = NULL;
    t_setup();
    stuck_model_open(&sm, false);
    ASSERT_OK(aclrtCreateStream(&exec2));
    ASSERT_OK(aclmdlRIExecuteAsync(sm.m, exec2));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(exec2, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'s run #1 to end before its own can start");
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtRecordEvent(sm.never, other));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(exec2, 10000));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(exec2));
    stuck_model_release_and_close(&sm, 2);
    t_teardown();
}

/* A notify recorded once and taken by a first wait: a second wait on it
 * has no record pending anywhere (its last recorder is idle), so it cannot
 * move on by itself and a destroy drops it, saying so. */
TEST(hang, a_second_wait_on_a_notify_whose_record_was_taken_is_dropped_by_a_destroy)
{
    aclrtStream rec = NULL, s = NULL;
    aclrtNotify n = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclrtRecordNotify(n, rec));
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 0));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 10000)); /* the first wait took the record */
    ASSERT_OK(aclrtWaitAndResetNotify(n, s, 0));
    t_launch_log(1, s);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which no queued task records");
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* dropped, not run */
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStream(rec));
    t_teardown();
}

/* ---- the hang timeout's unit --------------------------------------------------------- */

struct late_destroy {
    aclrtContext ctx;
    aclrtStream s;
    uint64_t after_ns;
    _Atomic int rc;
};

static void *destroy_later(void *arg)
{
    struct late_destroy *d = arg;
    t_idle_ns(d->after_ns);
    if (aclrtSetCurrentContext(d->ctx) != ACL_SUCCESS)
        atomic_store(&d->rc, -1);
    else
        atomic_store(&d->rc, (int)aclrtDestroyStream(d->s));
    return NULL;
}

/* ACLCPU_HANG_TIMEOUT_MS counts milliseconds: a chain stuck for 100 ms
 * under a 2000 ms timeout is not yet a hang, and the untimed sync waits
 * until the stopped recorder's destroy releases it. */
TEST(hang, a_chain_stuck_for_less_than_the_timeout_in_ms_is_waited_for)
{
    static struct stuck_pair p;
    static struct late_destroy d;
    pthread_t th;
    setenv("ACLCPU_HANG_TIMEOUT_MS", "2000", 1);
    t_setup();
    stuck_pair_open(&p);
    ASSERT_OK(aclrtGetCurrentContext(&d.ctx));
    d.s = p.rec;
    d.after_ns = 100000000u;
    atomic_store(&d.rc, 1);
    ASSERT_EQ(pthread_create(&th, NULL, destroy_later, &d), 0);
    ASSERT_OK(aclrtSynchronizeStream(p.waiter));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(atomic_load(&d.rc), 0);
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyEvent(p.e));
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): the hang watch after progress ---- */

/* The watch warns once per stall: a sync whose stream made progress since
 * its warning (the first stuck wait was released) and then stalls on a
 * second stuck wait warns again, naming the new wait. */
TEST(hang, an_untimed_sync_warns_again_when_it_stalls_after_progress)
{
    static struct stuck_pair p;
    static struct sync_call c;
    aclrtNotify n = NULL;
    aclrtStream other = NULL;
    pthread_t th;
    t_capture_log("2");
    t_setup();
    stuck_pair_open(&p);
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtWaitAndResetNotify(n, p.waiter, 0)); /* the second stall: nothing records n yet */
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.s = p.waiter;
    ASSERT_EQ(pthread_create(&th, NULL, untimed_sync, &c), 0);
    ASSERT(t_log_shows("which was stopped by aclrtStreamStop"));
    ASSERT_OK(aclrtDestroyStream(p.rec)); /* drops the record: the waiter moves on to the notify */
    ASSERT(t_log_shows(", which no queued task records (only a later aclrtRecordNotify call can release it)"));
    ASSERT_EQ(atomic_load(&c.done), 0);
    ASSERT_OK(aclrtRecordNotify(n, other));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyEvent(p.e));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(p.waiter));
    t_teardown();
}

struct stop_call5 {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc, done;
};

static void *stop_thread5(void *arg)
{
    struct stop_call5 *c = arg;
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS)
        atomic_store(&c->rc, aclrtStreamStop(c->s));
    atomic_store(&c->done, 1);
    return NULL;
}

/* A stopped stream in a chain says how many of its tasks will not run:
 * the tasks issued on it and not done. Stopped while its gate kernel runs,
 * with one record behind it (no other task queued: the stop is seen through
 * the waiter's timed sync), then the gate ends: one task, the record. */
TEST(hang, a_stopped_stream_in_a_chain_counts_the_tasks_that_will_not_run)
{
    static struct stop_call5 c;
    static struct t_gate g;
    aclrtStream rec = NULL, waiter = NULL;
    aclrtEvent e = NULL;
    pthread_t th;
    int stopped = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&rec, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStream(&waiter));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, rec);
    ASSERT_OK(aclrtRecordEvent(e, rec));
    ASSERT_OK(aclrtStreamWaitEvent(waiter, e));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.s = rec;
    ASSERT_EQ(pthread_create(&th, NULL, stop_thread5, &c), 0);
    for (int i = 0; i < 500 && !stopped; i++) {
        const char *m;
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(waiter, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        m = aclGetRecentErrMsg();
        stopped = m != NULL && strstr(m, "which was stopped by aclrtStreamStop") != NULL;
    }
    ASSERT(stopped);
    atomic_store(&g.open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(waiter, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "which was stopped by aclrtStreamStop (1 of its tasks will not run)");
    ASSERT_OK(aclrtDestroyStream(rec)); /* drops the record: the waiter goes on */
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(waiter, 10000));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(waiter));
    t_teardown();
}
