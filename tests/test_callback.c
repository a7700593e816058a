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
