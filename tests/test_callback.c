/*
 * test_callback.c - aclrtLaunchHostFunc and aclrtLaunchCallback with
 * aclrtSubscribeReport / aclrtProcessReport.
 *
 * Rules: spec/acl-api.md §5 "Callbacks" and §6 (ProcessReport timeout,
 * LaunchCallback blockType), §2 (107012 thread not subscribed, 507012
 * report timeout, 107015 no callback registered).
 *
 * Host functions and callbacks that must stay blocked spin on a flag the
 * test sets (bounded). The host never synchronizes a stream whose head
 * waits for the host: an untimed synchronize may run that head itself.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "test.h"

/* A host function or callback: logs its value; if hold is set, stays
 * until the test releases it. */
struct host_step {
    int value;
    int hold;
    _Atomic int started, release, done;
    uint64_t thread;
};

static void host_step_fn(void *arg)
{
    struct host_step *h = arg;
    h->thread = (uint64_t)pthread_self();
    atomic_store(&h->started, 1);
    if (h->hold)
        (void)t_wait_flag(&h->release, 1);
    t_log_put(h->value);
    atomic_store(&h->done, 1);
}

/* ---- aclrtLaunchHostFunc ------------------------------------------------------------------ */

TEST(callback, host_func_runs_in_stream_order)
{
    static struct host_step h2 = {2, 1, 0, 0, 0, 0}, h4 = {4, 0, 0, 0, 0, 0};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_log(1, s);
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h2));
    t_launch_log(3, s);
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h4));
    t_launch_log(5, s);
    /* While the host function holds, nothing after it runs. */
    ASSERT(t_wait_flag(&h2.started, 1));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 1);
    atomic_store(&h2.release, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 5);
    for (int i = 0; i < 5; i++)
        ASSERT_EQ(atomic_load(&t_log_v[i]), i + 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, host_func_on_default_stream)
{
    static struct host_step h = {7, 0, 0, 0, 0, 0};
    t_setup();
    t_launch_log(6, NULL);
    ASSERT_OK(aclrtLaunchHostFunc(NULL, host_step_fn, &h));
    t_launch_log(8, NULL);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&t_log_n), 3);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 6);
    ASSERT_EQ(atomic_load(&t_log_v[1]), 7);
    ASSERT_EQ(atomic_load(&t_log_v[2]), 8);
    t_teardown();
}

TEST(callback, host_func_handle_checks)
{
    static struct host_step h = {1, 0, 0, 0, 0, 0};
    aclrtStream s = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtLaunchHostFunc(NULL, host_step_fn, &h), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtLaunchHostFunc((aclrtStream)(uintptr_t)0x1234, host_step_fn, &h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtLaunchHostFunc(s, host_step_fn, &h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&h.done), 0);
    t_teardown();
}

/* ---- aclrtLaunchCallback ---------------------------------------------------------------------- */

/* A thread that serves callbacks with aclrtProcessReport until stopped. */
struct reporter {
    pthread_t th;
    aclrtContext ctx;
    _Atomic int go, stop, served;
};

static void *reporter_main(void *arg)
{
    struct reporter *r = arg;
    if (aclrtSetCurrentContext(r->ctx) != ACL_SUCCESS)
        return NULL;
    (void)t_wait_flag(&r->go, 1);
    while (!atomic_load(&r->stop))
        if (aclrtProcessReport(10) == ACL_SUCCESS)
            atomic_fetch_add(&r->served, 1);
    return NULL;
}

static void reporter_start(struct reporter *r, aclrtStream s)
{
    ASSERT_OK(aclrtGetCurrentContext(&r->ctx));
    ASSERT_EQ(pthread_create(&r->th, NULL, reporter_main, r), 0);
    ASSERT_OK(aclrtSubscribeReport((uint64_t)r->th, s));
    atomic_store(&r->go, 1);
}

static void reporter_stop(struct reporter *r, aclrtStream s)
{
    atomic_store(&r->stop, 1);
    ASSERT_EQ(pthread_join(r->th, NULL), 0);
    ASSERT_OK(aclrtUnSubscribeReport((uint64_t)r->th, s));
}

TEST(callback, blocking_callback_holds_later_tasks)
{
    static struct reporter r;
    static struct host_step cb = {2, 1, 0, 0, 0, 0};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    reporter_start(&r, s);
    t_launch_log(1, s);
    ASSERT_OK(aclrtLaunchCallback(host_step_fn, &cb, ACL_CALLBACK_BLOCK, s));
    t_launch_log(3, s);
    ASSERT(t_wait_flag(&cb.started, 1));
    /* It runs on the subscribed thread. */
    ASSERT(cb.thread == (uint64_t)r.th);
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    atomic_store(&cb.release, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 3);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(atomic_load(&t_log_v[i]), i + 1);
    /* The reporter counts after aclrtProcessReport returns: wait for it. */
    ASSERT(t_wait_flag(&r.served, 1));
    reporter_stop(&r, s);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, non_blocking_callback_lets_stream_go_on)
{
    static struct reporter r;
    static struct host_step cb = {1, 1, 0, 0, 0, 0};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    reporter_start(&r, s);
    ASSERT_OK(aclrtLaunchCallback(host_step_fn, &cb, ACL_CALLBACK_NO_BLOCK, s));
    t_launch_log(2, s);
    /* The kernel after it runs while the callback is still held. */
    ASSERT(t_wait_flag(&t_log_stored, 1));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 2);
    ASSERT_EQ(atomic_load(&cb.done), 0);
    atomic_store(&cb.release, 1);
    ASSERT(t_wait_flag(&cb.done, 1));
    ASSERT(cb.thread == (uint64_t)r.th);
    ASSERT_OK(aclrtSynchronizeStream(s));
    reporter_stop(&r, s);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void cb_count(void *arg) { atomic_fetch_add((_Atomic int *)arg, 1); }

TEST(callback, one_thread_serves_several_streams)
{
    static struct reporter r;
    static _Atomic int n;
    aclrtStream s1 = NULL, s2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    reporter_start(&r, s1);
    ASSERT_OK(aclrtSubscribeReport((uint64_t)r.th, s2));
    for (int i = 0; i < 10; i++) {
        ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, s1));
        ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, s2));
    }
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&n), 20);
    ASSERT_OK(aclrtUnSubscribeReport((uint64_t)r.th, s2));
    reporter_stop(&r, s1);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(callback, process_report_timeout_values)
{
    /* [acl] checks, before anything else: also for an unsubscribed thread. */
    ASSERT_RC(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtProcessReport(INT32_MIN), ACL_ERROR_INVALID_PARAM);
    t_setup();
    ASSERT_RC(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

TEST(callback, process_report_unsubscribed_thread)
{
    t_setup();
    ASSERT_RC(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    ASSERT_RC(aclrtProcessReport(-1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    t_teardown();
}

TEST(callback, process_report_times_out)
{
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_RC(aclrtProcessReport(20), ACL_ERROR_RT_REPORT_TIMEOUT);
    ASSERT_RC(aclrtProcessReport(1), ACL_ERROR_RT_REPORT_TIMEOUT);
    /* With a callback queued it serves it. */
    {
        static _Atomic int n;
        ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_NO_BLOCK, s));
        ASSERT_OK(aclrtProcessReport(5000));
        ASSERT_EQ(atomic_load(&n), 1);
    }
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_RC(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A timed aclrtProcessReport waits its whole timeout on the monotonic
 * clock before it says 507012: 100 ms with nothing queued take at least
 * 100 ms (a lower bound, which a wait on the right clock always keeps; a
 * deadline read on the wall clock would pass at once). */
TEST(callback, process_report_waits_its_whole_timeout)
{
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self(), t0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeReport(me, s));
    t0 = t_now_ns();
    ASSERT_RC(aclrtProcessReport(100), ACL_ERROR_RT_REPORT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= 100000000ull);
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, launch_callback_checks)
{
    static _Atomic int n;
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    /* Bad block type: [acl], before the subscriber check. */
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, (aclrtCallbackBlockType)2, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, (aclrtCallbackBlockType)-1, s), ACL_ERROR_INVALID_PARAM);
    /* Nobody subscribed to the stream. */
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_NO_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, (aclrtCallbackBlockType)2, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    /* Unsubscribed again. */
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, (aclrtStream)(uintptr_t)0x1234),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&n), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, subscribe_handle_checks)
{
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_RC(aclrtSubscribeReport(me, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtUnSubscribeReport(me, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtSubscribeReport(me, s), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- aclrtSubscribeHostFunc / aclrtProcessHostFunc ----------------------------------------------
 * Rules (CANN's runtime): a created stream only (NULL -> 107000); one
 * thread per stream (again -> 107011); unsubscribing a thread the stream
 * does not name -> 107011; ProcessHostFunc timeout 0 or below -1 -> 107000,
 * before anything else; a thread serving no stream -> 107012; nothing in
 * time -> 507012. Host functions and callbacks have separate
 * subscriptions and queues. */

/* A thread that serves host functions with aclrtProcessHostFunc until stopped. */
static void *hostfunc_server_main(void *arg)
{
    struct reporter *r = arg;
    if (aclrtSetCurrentContext(r->ctx) != ACL_SUCCESS)
        return NULL;
    (void)t_wait_flag(&r->go, 1);
    while (!atomic_load(&r->stop))
        if (aclrtProcessHostFunc(10) == ACL_SUCCESS)
            atomic_fetch_add(&r->served, 1);
    return NULL;
}

TEST(callback, subscribed_thread_runs_host_funcs_in_stream_order)
{
    static struct reporter r;
    static struct host_step h2 = {2, 1, 0, 0, 0, 0}, h4 = {4, 0, 0, 0, 0, 0}, h6 = {6, 0, 0, 0, 0, 0};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtGetCurrentContext(&r.ctx));
    ASSERT_EQ(pthread_create(&r.th, NULL, hostfunc_server_main, &r), 0);
    ASSERT_OK(aclrtSubscribeHostFunc((uint64_t)r.th, s));
    atomic_store(&r.go, 1);
    t_launch_log(1, s);
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h2));
    t_launch_log(3, s);
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h4));
    t_launch_log(5, s);
    /* It runs on the subscribed thread, and holds the stream until it returns. */
    ASSERT(t_wait_flag(&h2.started, 1));
    ASSERT(h2.thread == (uint64_t)r.th);
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    atomic_store(&h2.release, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 5);
    for (int i = 0; i < 5; i++)
        ASSERT_EQ(atomic_load(&t_log_v[i]), i + 1);
    ASSERT(h4.thread == (uint64_t)r.th);
    ASSERT(t_wait_flag(&r.served, 2));
    /* Unsubscribed: the runtime's own thread runs them again (compared
     * while the server lives: a joined thread's id may be reused). */
    ASSERT_OK(aclrtUnSubscribeHostFunc((uint64_t)r.th, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h6));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&h6.done), 1);
    ASSERT(h6.thread != (uint64_t)r.th);
    atomic_store(&r.stop, 1);
    ASSERT_EQ(pthread_join(r.th, NULL), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, process_host_func_serves_host_funcs_not_callbacks)
{
    static _Atomic int n_host, n_cb;
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeHostFunc(me, s));
    ASSERT_RC(aclrtProcessHostFunc(20), ACL_ERROR_RT_REPORT_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtProcessHostFunc");
    /* Subscribed for host functions only: no callback subscription. */
    ASSERT_RC(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n_cb, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&n_cb, ACL_CALLBACK_NO_BLOCK, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, cb_count, (void *)&n_host));
    /* Each call serves its own kind, whichever was queued first. */
    ASSERT_OK(aclrtProcessHostFunc(5000));
    ASSERT_EQ(atomic_load(&n_host), 1);
    ASSERT_EQ(atomic_load(&n_cb), 0);
    ASSERT_OK(aclrtProcessReport(5000));
    ASSERT_EQ(atomic_load(&n_cb), 1);
    ASSERT_RC(aclrtProcessHostFunc(1), ACL_ERROR_RT_REPORT_TIMEOUT);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtUnSubscribeHostFunc(me, s));
    ASSERT_RC(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, unsubscribe_host_func_releases_the_stream)
{
    static struct host_step h = {1, 0, 0, 0, 0, 0};
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeHostFunc(me, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, host_step_fn, &h));
    t_launch_log(2, s);
    /* Nobody processes it: the stream waits behind it... */
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&h.done), 0);
    /* ...until the thread leaves its last stream: then it runs (in that
     * call if it was already queued for the thread, else on the runtime's
     * thread) and the stream goes on. */
    ASSERT_OK(aclrtUnSubscribeHostFunc(me, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&h.done), 1);
    ASSERT_EQ(atomic_load(&t_log_n), 2);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, subscribe_host_func_checks)
{
    aclrtStream s = NULL, gone = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSubscribeHostFunc(me, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSubscribeHostFunc: argument 'exeStream' is NULL");
    ASSERT_RC(aclrtUnSubscribeHostFunc(me, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtUnSubscribeHostFunc: argument 'exeStream' is NULL");
    ASSERT_RC(aclrtSubscribeHostFunc(me, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateStream(&gone));
    ASSERT_OK(aclrtDestroyStream(gone));
    ASSERT_RC(aclrtSubscribeHostFunc(me, gone), ACL_ERROR_RT_INVALID_HANDLE);
    /* Not subscribed yet. */
    ASSERT_RC(aclrtUnSubscribeHostFunc(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not subscribed to thread");
    ASSERT_OK(aclrtSubscribeHostFunc(me, s));
    /* One thread per stream, whichever thread asks. */
    ASSERT_RC(aclrtSubscribeHostFunc(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSubscribeHostFunc");
    ASSERT_RC(aclrtSubscribeHostFunc(me + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    /* A callback subscription of the same stream is a separate one. */
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_RC(aclrtUnSubscribeHostFunc(me + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    ASSERT_OK(aclrtUnSubscribeHostFunc(me, s));
    ASSERT_RC(aclrtUnSubscribeHostFunc(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(callback, process_host_func_timeout_values)
{
    /* Checked before anything else: also for an unsubscribed thread. */
    ASSERT_RC(aclrtProcessHostFunc(0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtProcessHostFunc: argument 'timeout' is 0 ms");
    ASSERT_RC(aclrtProcessHostFunc(-2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtProcessHostFunc(INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    t_setup();
    ASSERT_RC(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSubscribeHostFunc");
    ASSERT_RC(aclrtProcessHostFunc(-1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    t_teardown();
}

/* ---- dropping undelivered callbacks (issue 17, bug 6) ------------------------------------- */

/* aclrtSubscribeReport takes any thread id, as the runtime does (it checks
 * none); a thread that never processes leaves a BLOCK callback undelivered,
 * holding its stream. An abort or a force destroy drops it, unrun, and
 * returns; one already being run by aclrtProcessReport is waited for. The
 * dropping call runs on a helper thread, so that a hang fails the test. */

#define NO_SUCH_THREAD 12345u

enum drop_how { DROP_ABORT, DROP_FORCE_DESTROY, DROP_DESTROY };

struct dropper {
    pthread_t th;
    aclrtContext ctx;
    aclrtStream s;
    enum drop_how how;
    aclError rc;
    _Atomic int returned;
};

static void *dropper_main(void *arg)
{
    struct dropper *d = arg;
    d->rc = aclrtSetCurrentContext(d->ctx);
    if (d->rc == ACL_SUCCESS)
        d->rc = d->how == DROP_ABORT           ? aclrtStreamAbort(d->s)
                : d->how == DROP_FORCE_DESTROY ? aclrtDestroyStreamForce(d->s)
                                               : aclrtDestroyStream(d->s);
    atomic_store(&d->returned, 1);
    return NULL;
}

static void drop_start(struct dropper *d, aclrtStream s, enum drop_how how)
{
    d->s = s;
    d->how = how;
    ASSERT_OK(aclrtGetCurrentContext(&d->ctx));
    ASSERT_EQ(pthread_create(&d->th, NULL, dropper_main, d), 0);
}

static void drop_finish(struct dropper *d)
{
    ASSERT(t_wait_flag(&d->returned, 1)); /* else it hangs: the test fails, the child is killed */
    ASSERT_EQ(pthread_join(d->th, NULL), 0);
    ASSERT_OK(d->rc);
}

/* A stream whose head is a BLOCK callback for a thread that never comes:
 * the kernel before it has run and the stream stays behind the callback. */
static void stuck_on_callback(aclrtStream s, struct host_step *cb, int before)
{
    ASSERT_OK(aclrtSubscribeReport(NO_SUCH_THREAD, s));
    t_launch_log(before, s);
    ASSERT_OK(aclrtLaunchCallback(host_step_fn, cb, ACL_CALLBACK_BLOCK, s));
    t_launch_log(before + 100, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

TEST(callback, abort_drops_an_undelivered_blocking_callback)
{
    static struct host_step cb = {9, 0, 0, 0, 0, 0};
    static struct dropper d;
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    stuck_on_callback(s, &cb, 1);
    drop_start(&d, s, DROP_ABORT);
    drop_finish(&d);
    ASSERT_EQ(atomic_load(&cb.started), 0);
    ASSERT_EQ(atomic_load(&t_log_n), 1); /* the kernel before it; not the one after */
    ASSERT_OK(aclrtSynchronizeStream(s)); /* the abort's status was reset before it returned */
    /* The stream works again; a second stuck callback is dropped the same way. */
    t_launch_log(2, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 2);
    ASSERT_OK(aclrtLaunchCallback(host_step_fn, &cb, ACL_CALLBACK_BLOCK, s));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    memset(&d, 0, sizeof(d));
    drop_start(&d, s, DROP_ABORT);
    drop_finish(&d);
    ASSERT_EQ(atomic_load(&cb.started), 0);
    ASSERT_OK(aclrtUnSubscribeReport(NO_SUCH_THREAD, s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Two streams stuck on callbacks for the same absent thread: aborting one
 * leaves the other stuck; a force destroy drops the other's. */
TEST(callback, force_destroy_drops_an_undelivered_blocking_callback)
{
    static struct host_step cb1 = {1, 0, 0, 0, 0, 0}, cb2 = {2, 0, 0, 0, 0, 0};
    static struct dropper d1, d2;
    aclrtStream s1 = NULL, s2 = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    stuck_on_callback(s1, &cb1, 1);
    stuck_on_callback(s2, &cb2, 2);
    drop_start(&d1, s1, DROP_ABORT);
    drop_finish(&d1);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s2, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    drop_start(&d2, s2, DROP_FORCE_DESTROY);
    drop_finish(&d2);
    ASSERT_EQ(atomic_load(&cb1.started) + atomic_load(&cb2.started), 0);
    ASSERT_EQ(atomic_load(&t_log_n), 2);
    ASSERT_OK(aclrtUnSubscribeReport(NO_SUCH_THREAD, s1));
    ASSERT_OK(aclrtDestroyStream(s1));
    t_teardown();
}

/* A plain destroy does not wait forever either: a callback no thread ever
 * took cannot move by itself (hang.c), so after the teardown's grace the
 * destroy drops it, unrun, and returns (found by aclcpu-fuzz). */
TEST(callback, destroy_drops_an_undelivered_blocking_callback)
{
    static struct host_step cb = {3, 0, 0, 0, 0, 0};
    static struct dropper d;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    stuck_on_callback(s, &cb, 1);
    drop_start(&d, s, DROP_DESTROY);
    drop_finish(&d);
    ASSERT_EQ(atomic_load(&cb.started), 0);
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never taken by its subscribed thread");
    t_teardown();
}

/* A callback that aclrtProcessReport is running when the abort comes is
 * not dropped: the abort returns after it ends. */
TEST(callback, abort_waits_for_a_callback_being_run)
{
    static struct reporter r;
    static struct host_step cb = {5, 1, 0, 0, 0, 0};
    static struct dropper d;
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    reporter_start(&r, s);
    ASSERT_OK(aclrtLaunchCallback(host_step_fn, &cb, ACL_CALLBACK_BLOCK, s));
    ASSERT(t_wait_flag(&cb.started, 1));
    drop_start(&d, s, DROP_ABORT);
    /* Bounded look: while the callback is held, the abort must not return. */
    for (uint64_t end = t_now_ns() + 50000000u; t_now_ns() < end;)
        ASSERT_EQ(atomic_load(&d.returned), 0);
    atomic_store(&cb.release, 1);
    drop_finish(&d);
    ASSERT_EQ(atomic_load(&cb.done), 1);
    reporter_stop(&r, s);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A subscription belongs to the stream it was made for: destroyed without
 * an unsubscribe, and its slot reused (64 newer destroys: the quarantine),
 * the new stream in that slot is not subscribed: a callback is refused and
 * a subscribe is a first one, not a repeat. */
TEST(callback, subscription_ends_with_its_stream_even_in_a_reused_slot)
{
    static _Atomic int n;
    aclrtStream old = NULL, fresh = NULL, spare[65];
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&old));
    ASSERT_OK(aclrtSubscribeReport(me, old));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtCreateStream(&spare[i]));
    ASSERT_OK(aclrtDestroyStream(old));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtDestroyStream(spare[i]));
    ASSERT_OK(aclrtCreateStream(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old); /* the reuse happened */
    ASSERT_RC(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_NO_BLOCK, fresh), ACL_ERROR_RT_STREAM_NO_CB_REG);
    ASSERT_OK(aclrtSubscribeReport(me, fresh));
    ASSERT_OK(aclrtUnSubscribeReport(me, fresh));
    ASSERT_OK(aclrtDestroyStream(fresh));
    ASSERT_EQ(atomic_load(&n), 0);
    t_teardown();
}

/* ---- the checks in the runtime's order (audit) ------------------------------------------------ */

#define ASSERT_FAILS_WITH(call, code, needle)                                                                   \
    do {                                                                                                       \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), needle);                                                     \
    } while (0)

/* aclrtLaunchHostFunc and aclrtLaunchCallback: (callback: blockType,
 * 100000), the stream handle (107017), fn NULL (the runtime's 107000),
 * the stream's context (107003), then (callback) a subscribed thread
 * (107010). */
TEST(callback, launches_check_stream_then_fn_then_context_then_subscriber)
{
    static _Atomic int n;
    aclrtContext primary = NULL, other = NULL;
    aclrtStream s = NULL, dead = NULL, foreign = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_FAILS_WITH(aclrtLaunchHostFunc(dead, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE,
                      "aclrtLaunchHostFunc: argument 'stream'");
    ASSERT_FAILS_WITH(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID,
                      "aclrtLaunchHostFunc: argument 'fn' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchCallback(NULL, NULL, (aclrtCallbackBlockType)2, dead), ACL_ERROR_INVALID_PARAM,
                      "'blockType'");
    ASSERT_FAILS_WITH(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, dead), ACL_ERROR_RT_INVALID_HANDLE,
                      "aclrtLaunchCallback: argument 'stream'");
    ASSERT_FAILS_WITH(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_PARAM_INVALID,
                      "aclrtLaunchCallback: argument 'fn' is NULL");
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_FAILS_WITH(aclrtLaunchHostFunc(foreign, cb_count, (void *)&n), ACL_ERROR_RT_STREAM_CONTEXT,
                      "another context");
    ASSERT_FAILS_WITH(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, foreign),
                      ACL_ERROR_RT_STREAM_CONTEXT, "another context");
    ASSERT_FAILS_WITH(aclrtLaunchCallback(cb_count, (void *)&n, ACL_CALLBACK_BLOCK, s), ACL_ERROR_RT_STREAM_NO_CB_REG,
                      "aclrtSubscribeReport");
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&n), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The runtime's callback subscription table: a stream subscribed twice,
 * by any thread, or unsubscribed without a subscription, is 107011; a
 * subscription held by another thread is 107012. A NULL stream is the
 * default stream and needs a context (107002); a named one does not. */
TEST(callback, subscribe_report_codes_follow_the_runtime_table)
{
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    ASSERT_OK(aclInit(NULL));
    ASSERT_FAILS_WITH(aclrtSubscribeReport(me, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSubscribeReport");
    ASSERT_FAILS_WITH(aclrtUnSubscribeReport(me, NULL), ACL_ERROR_RT_CONTEXT_NULL, "aclrtUnSubscribeReport");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_FAILS_WITH(aclrtUnSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "is not subscribed");
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_FAILS_WITH(aclrtSubscribeReport(me, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "aclrtSubscribeReport");
    ASSERT_FAILS_WITH(aclrtSubscribeReport(me + 1, s), ACL_ERROR_RT_STREAM_SUBSCRIBE, "already has");
    ASSERT_FAILS_WITH(aclrtUnSubscribeReport(me + 1, s), ACL_ERROR_RT_THREAD_SUBSCRIBE, "another thread");
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtSubscribeReport(me, NULL));
    ASSERT_OK(aclrtUnSubscribeReport(me, NULL));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A capture records host functions and kernels; a callback (aclrtLaunchCallback)
 * cannot be recorded on aclcpu (507009, differences.md): the capture goes
 * on, and the host function recorded next to it replays. */
TEST(callback, capture_records_host_funcs_and_refuses_callbacks)
{
    static _Atomic int n_cb, n_host;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_FAILS_WITH(aclrtLaunchCallback(cb_count, (void *)&n_cb, ACL_CALLBACK_NO_BLOCK, s),
                      ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, "aclrtLaunchCallback");
    ASSERT_OK(aclrtLaunchHostFunc(s, cb_count, (void *)&n_host));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_EQ(atomic_load(&n_host), 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&n_host), 1);
    ASSERT_EQ(atomic_load(&n_cb), 0);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

static _Atomic int sw4_hf_started, sw4_kernel_ran, sw4_hf_saw;

static void sw4_waiting_host_func(void *arg)
{
    (void)arg;
    atomic_store(&sw4_hf_started, 1);
    atomic_store(&sw4_hf_saw, t_wait_flag(&sw4_kernel_ran, 1));
}

static void sw4_k_mark(void *args)
{
    (void)args;
    atomic_store(&sw4_kernel_ran, 1);
}

/* A host function runs on the host-function thread, not on the worker
 * that reached it: with one worker, a host function waiting for a kernel
 * of another stream sees it run (on a worker it would hold that worker). */
TEST(callback, a_host_function_does_not_hold_the_only_worker)
{
    aclrtStream a = NULL, b = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    ASSERT_OK(aclrtLaunchHostFunc(a, sw4_waiting_host_func, NULL));
    ASSERT(t_wait_flag(&sw4_hf_started, 1));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("cb_sw4_mark", sw4_k_mark), 1, NULL, 0, b));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 60000));
    ASSERT_EQ(atomic_load(&sw4_hf_saw), 1);
    ASSERT_OK(aclrtSynchronizeStream(b));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): a thread's queue after a stream's items are taken out ---- */

/* A force destroy takes the destroyed stream's undelivered blocking
 * callback out of the thread's queue and leaves another stream's item
 * there as the queue's last: a callback queued after it lines up behind
 * it, so the thread serves both, the older first. */
TEST(callback, items_left_after_a_force_destroy_keep_their_place_in_the_queue)
{
    static _Atomic int dropped, first, later;
    aclrtStream s1 = NULL, s2 = NULL;
    uint64_t me = (uint64_t)pthread_self();
    int queued = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtSubscribeReport(me, s1));
    ASSERT_OK(aclrtSubscribeReport(me, s2));
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&dropped, ACL_CALLBACK_BLOCK, s1));
    /* Until s1's callback waits in this thread's queue (a timed sync names it). */
    for (int i = 0; i < 500 && !queued; i++) {
        const char *m;
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s1, 10), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        m = aclGetRecentErrMsg();
        queued = m != NULL && strstr(m, "never taken by its subscribed thread") != NULL;
    }
    ASSERT(queued);
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&first, ACL_CALLBACK_NO_BLOCK, s2));
    ASSERT_OK(aclrtSynchronizeStream(s2)); /* a non-blocking callback's task ends once it is queued */
    ASSERT_OK(aclrtDestroyStreamForce(s1));
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&later, ACL_CALLBACK_NO_BLOCK, s2));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtProcessReport(5000));
    ASSERT_EQ(atomic_load(&first), 1);
    ASSERT_EQ(atomic_load(&later), 0);
    ASSERT_OK(aclrtProcessReport(5000));
    ASSERT_EQ(atomic_load(&later), 1);
    ASSERT_EQ(atomic_load(&dropped), 0);
    ASSERT_OK(aclrtUnSubscribeReport(me, s2));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* The last unsubscribe of a thread runs what its queue still held and
 * empties the queue, head and tail: the same thread subscribed again
 * (the same queue, found by its id) gets its next callback. */
TEST(callback, a_thread_subscribed_again_after_its_queue_was_emptied_gets_new_callbacks)
{
    static _Atomic int orphan, fresh;
    aclrtStream s = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&orphan, ACL_CALLBACK_NO_BLOCK, s));
    ASSERT_OK(aclrtSynchronizeStream(s)); /* queued, not taken */
    ASSERT_OK(aclrtUnSubscribeReport(me, s)); /* runs it here */
    ASSERT_EQ(atomic_load(&orphan), 1);
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclrtLaunchCallback(cb_count, (void *)&fresh, ACL_CALLBACK_NO_BLOCK, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtProcessReport(5000));
    ASSERT_EQ(atomic_load(&fresh), 1);
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
