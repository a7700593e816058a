/*
 * test_event.c - events: creation flags, record/wait/reset, status queries,
 * host synchronisation, timestamps, snapshots, parking, caps.
 *
 * Rules: spec/acl-api.md §5 "Events", §6 event rows; DESIGN "Execution
 * model" (a record captures the stream's position at call time; a wait
 * captures the event's latest record at call time; a wait on a
 * never-recorded event does nothing; waits never block a worker).
 *
 * Blocked work is made with gate kernels the test opens. The host never
 * synchronizes a stream whose head waits for the host itself (an untimed
 * synchronize may run the stream on the calling thread).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "test.h"

#define BAD ((void *)(uintptr_t)0x1234)

/* Stores `value` into *target; args = {target, value}. */
struct store_args {
    _Atomic int *target;
    int value;
};

static void k_store(void *args)
{
    const struct store_args *a = args;
    atomic_store(a->target, a->value);
}

static void launch_store(_Atomic int *target, int value, aclrtStream s)
{
    struct store_args a = {target, value};
    ASSERT_OK(aclrtLaunchKernel(t_kernel("event_store", k_store), 1, &a, sizeof(a), s));
}

/* Copies *src into *dst when it runs; args = {dst, src}. */
struct copy_args {
    _Atomic int *dst, *src;
};

static void k_copy(void *args)
{
    const struct copy_args *a = args;
    atomic_store(a->dst, atomic_load(a->src));
}

static void launch_copy(_Atomic int *dst, _Atomic int *src, aclrtStream s)
{
    struct copy_args a = {dst, src};
    ASSERT_OK(aclrtLaunchKernel(t_kernel("event_copy", k_copy), 1, &a, sizeof(a), s));
}

/* ---- NULL arguments, context --------------------------------------------------- */

TEST(event, null_arguments)
{
    aclrtEvent e = NULL;
    aclrtEventRecordedStatus rs;
    aclrtEventStatus es;
    aclrtEventWaitStatus ws;
    float ms;
    uint64_t ts;
    uint32_t id;

    /* [acl] NULL checks answer before the context check. */
    ASSERT_RC(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM);

    t_setup();
    ASSERT_RC(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEventWithFlag(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtResetEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, 100), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, NULL, 0), ACL_ERROR_RT_PARAM_INVALID); /* [rt] check */
    ASSERT_RC(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM);

    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtQueryEventStatus(NULL, &rs), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventWaitStatus(NULL, &ws), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventWaitStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_RC(aclrtQueryEvent(NULL, &es), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEvent(e, NULL), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop
    ASSERT_RC(aclrtEventElapsedTime(NULL, e, e), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventElapsedTime(&ms, NULL, e), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventElapsedTime(&ms, e, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventGetTimestamp(NULL, &ts), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventGetTimestamp(e, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetEventId(NULL, &id), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetEventId(e, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, no_context)
{
    aclrtEvent e = NULL;
    uint32_t n;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetEventAvailNum(&n), ACL_ERROR_RT_CONTEXT_NULL);
    /* A handle that names nothing answers first, context or not. */
    ASSERT_RC(aclrtSynchronizeEvent(BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordEvent(BAD, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyEvent(BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclFinalize());
}

/* A thread with no context may destroy, query, sync and time an event
 * (each of those uses the event's own context: api_impl.cc EventDestroy,
 * EventSynchronize, api_impl_event_common.cc); a record, wait or reset
 * needs a current context for its stream (107002), after the handles. */
struct no_ctx_args {
    aclrtEvent done, fresh;
    aclrtStream s;
    aclError rc[12];
};

static void *event_calls_without_context(void *arg)
{
    struct no_ctx_args *a = arg;
    aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    uint64_t ts = 0;
    uint32_t id = 0;
    float ms = -1;
    a->rc[0] = aclrtRecordEvent(a->done, NULL);
    a->rc[1] = aclrtRecordEvent(a->done, a->s);
    a->rc[2] = aclrtStreamWaitEvent(a->s, a->done);
    a->rc[3] = aclrtResetEvent(a->done, a->s);
    a->rc[4] = aclrtQueryEventStatus(a->done, &rs);
    a->rc[5] = rs == ACL_EVENT_RECORDED_STATUS_COMPLETE ? ACL_SUCCESS : ACL_ERROR_FAILURE;
    a->rc[6] = aclrtSynchronizeEvent(a->done);
    a->rc[7] = aclrtEventGetTimestamp(a->done, &ts);
    a->rc[8] = aclrtEventElapsedTime(&ms, a->done, a->done);
    a->rc[9] = aclrtGetEventId(a->done, &id);
    a->rc[10] = aclrtDestroyEvent(a->fresh);
    a->rc[11] = aclrtRecordEvent(a->fresh, a->s); /* gone now: the handle answers */
    return NULL;
}

TEST(event, calls_without_a_context_use_the_events_own)
{
    static struct no_ctx_args a;
    pthread_t th;
    static const aclError want[12] = {ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_RT_CONTEXT_NULL,
                                      ACL_ERROR_RT_CONTEXT_NULL, ACL_ERROR_RT_CONTEXT_NULL,
                                      ACL_SUCCESS, ACL_SUCCESS, ACL_SUCCESS, ACL_SUCCESS, ACL_SUCCESS, ACL_SUCCESS,
                                      ACL_SUCCESS, ACL_ERROR_RT_INVALID_HANDLE};
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a.s));
    ASSERT_OK(aclrtCreateEventWithFlag(&a.done, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtCreateEvent(&a.fresh));
    ASSERT_OK(aclrtRecordEvent(a.done, a.s));
    ASSERT_OK(aclrtSynchronizeStream(a.s));
    ASSERT_EQ(pthread_create(&th, NULL, event_calls_without_context, &a), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    for (int i = 0; i < 12; i++)
        ASSERT_RC(a.rc[i], want[i]);
    ASSERT_OK(aclrtDestroyEvent(a.done));
    ASSERT_OK(aclrtDestroyStream(a.s));
    t_teardown();
}

static void check_stale_event(aclrtEvent e)
{
    aclrtEventRecordedStatus rs;
    aclrtEventStatus es;
    aclrtEventWaitStatus ws;
    aclrtEvent good = NULL;
    float ms;
    uint64_t ts;
    uint32_t id;

    ASSERT_RC(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordEvent(e, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordEventWithFlag(e, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtResetEvent(e, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, e, 0, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, e, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventStatus(e, &rs), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventWaitStatus(e, &ws), ACL_ERROR_RT_INVALID_HANDLE);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_RC(aclrtQueryEvent(e, &es), ACL_ERROR_RT_INVALID_HANDLE);
#pragma GCC diagnostic pop
    ASSERT_RC(aclrtSynchronizeEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 10), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetEventId(e, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateEvent(&good));
    ASSERT_OK(aclrtRecordEvent(good, NULL));
    ASSERT_OK(aclrtSynchronizeEvent(good));
    ASSERT_RC(aclrtEventElapsedTime(&ms, e, good), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtEventElapsedTime(&ms, good, e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyEvent(good));
}

/* As for streams (test_stream.c): an event's old handle names nothing once
 * its slot holds a new event. */
TEST(event, stale_handle_names_nothing_once_its_slot_is_reused)
{
    aclrtEvent old = NULL, fresh = NULL, spare[65];
    aclrtStream s = NULL;
    aclrtEventRecordedStatus st;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&old));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtCreateEvent(&spare[i]));
    ASSERT_OK(aclrtDestroyEvent(old));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtDestroyEvent(spare[i]));
    ASSERT_OK(aclrtCreateEvent(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old);
    ASSERT(fresh != old);
    check_stale_event(old);
    ASSERT_RC(aclrtDestroyEvent(old), ACL_ERROR_RT_INVALID_HANDLE);
    /* The new event is untouched by the stale calls: it has no record yet
     * (the stale record above was refused), then takes one. */
    ASSERT_OK(aclrtQueryEventStatus(fresh, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ASSERT_OK(aclrtRecordEvent(fresh, s));
    ASSERT_OK(aclrtSynchronizeEvent(fresh));
    ASSERT_OK(aclrtQueryEventStatus(fresh, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyEvent(fresh));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(event, garbage_and_destroyed_handles)
{
    aclrtEvent e = NULL;
    aclrtStream s = NULL;
    t_setup();
    check_stale_event(BAD);
    check_stale_event((aclrtEvent)(uintptr_t)0xFEDCBA9876543210ull);
    ASSERT_OK(aclrtCreateStream(&s));
    check_stale_event((aclrtEvent)s); /* a stream is not an event */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtDestroyEvent(e));
    check_stale_event(e);
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    check_stale_event(e);
    t_teardown();
}

TEST(event, garbage_stream_in_event_calls)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtRecordEvent(e, BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordEvent(e, (aclrtStream)e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtResetEvent(e, BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_RC(aclrtStreamWaitEvent(BAD, e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* ---- creation flags ---------------------------------------------------------------- */

static void create_ok(uint32_t flag, int ex)
{
    aclrtEvent e = NULL;
    ASSERT_OK(ex ? aclrtCreateEventExWithFlag(&e, flag) : aclrtCreateEventWithFlag(&e, flag));
    ASSERT(e != NULL);
    ASSERT_OK(aclrtDestroyEvent(e));
}

TEST(event, create_with_flag_rules)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_RC(aclrtCreateEventWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, 0x40), ACL_ERROR_RT_PARAM_INVALID); /* IPC: outside 0x3F */
    ASSERT_RC(aclrtCreateEventWithFlag(&e, 0x80), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | 0x100), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, 0xFFFFFFFFu), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_TIME_LINE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_DEVICE_USE_ONLY),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    create_ok(ACL_EVENT_SYNC, 0);
    create_ok(ACL_EVENT_TIME_LINE, 0);
    create_ok(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 0);
    create_ok(ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE, 0);
    create_ok(0x4, 0);
    create_ok(ACL_EVENT_EXTERNAL, 0);
    t_teardown();
}

TEST(event, create_ex_with_flag_rules)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, 0x80), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    create_ok(ACL_EVENT_SYNC, 1);
    create_ok(ACL_EVENT_TIME_LINE, 1);
    create_ok(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE, 1);
    create_ok(ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | 0x4 | ACL_EVENT_TIME_LINE, 1);
    t_teardown();
}

TEST(event, ex_event_unsupported_calls)
{
    aclrtEvent e = NULL;
    aclrtEventStatus es;
    aclrtEventWaitStatus ws;
    t_setup();
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_RC(aclrtResetEvent(e, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_RC(aclrtQueryEvent(e, &es), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
#pragma GCC diagnostic pop
    ASSERT_RC(aclrtQueryEventWaitStatus(e, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, record_and_wait_flag_values)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtRecordEventWithFlag(e, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEventWithFlag(e, NULL, 0xFFFFFFFFu), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, e, 0, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, e, 0, 0x80000000u), ACL_ERROR_INVALID_PARAM);
    /* An external wait takes no timeout. */
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, e, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
    /* Flag 0 is the plain call. */
    ASSERT_OK(aclrtRecordEventWithFlag(e, NULL, ACL_EVENT_RECORD_DEFAULT));
    ASSERT_OK(aclrtStreamWaitEventWithFlag(NULL, e, 0, ACL_EVENT_WAIT_DEFAULT));
    ASSERT_OK(aclrtStreamWaitEventWithFlag(NULL, e, 3, ACL_EVENT_WAIT_DEFAULT));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, wait_and_reset_need_sync_bit)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, e, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtResetEvent(e, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtDestroyEvent(e));
    /* With SYNC both are fine. */
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtStreamWaitEvent(NULL, e));
    ASSERT_OK(aclrtResetEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, wait_with_timeout_negative)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, e, -1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, e, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, NULL, -1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtRecordEvent(e, NULL)); /* a plain event must be recorded before a wait */
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(NULL, e, 0));
    ASSERT_OK(aclrtStreamWaitEventWithTimeout(NULL, e, 10));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* ---- host synchronisation ----------------------------------------------------------------- */

TEST(event, sync_with_timeout_bad_values)
{
    aclrtEvent e = NULL;
    t_setup();
    /* t < -1 is checked before the event, even a NULL one. */
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(BAD, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_PARAM_INVALID);
    /* Never recorded: nothing to wait for. */
    ASSERT_OK(aclrtSynchronizeEventWithTimeout(e, -1));
    ASSERT_OK(aclrtSynchronizeEventWithTimeout(e, 1));
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, sync_with_timeout_expires)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 30), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 1), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeEventWithTimeout(e, 5000));
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A timed event sync that expires has waited its whole timeout: never less
 * (a lower bound only; the wait may run late on a loaded host). Three
 * times, so that a deadline rounded down to its second (up to a second
 * early) cannot pass by chance. */
TEST(event, a_timed_sync_that_expires_has_waited_its_whole_timeout)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    for (int i = 0; i < 3; i++) {
        uint64_t t0 = t_now_ns();
        ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 50), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
        ASSERT(t_now_ns() - t0 >= 50u * 1000000u);
    }
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(event, synchronize_event_waits_for_recorded_work)
{
    static struct t_gate g;
    static _Atomic int v;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s);
    launch_store(&v, 5, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT(t_wait_flag(&g.started, 1));
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_EQ(atomic_load(&v), 5);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- elapsed time and timestamps ----------------------------------------------------------------- */

TEST(event, elapsed_time_errors)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtEvent a = NULL, b = NULL;
    float ms = 0;
    uint64_t ts = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&a));
    ASSERT_OK(aclrtCreateEvent(&b));
    /* Neither recorded. */
    ASSERT_RC(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtEventGetTimestamp(a, &ts), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtRecordEvent(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    /* End never recorded. */
    ASSERT_RC(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtEventElapsedTime(&ms, b, a), ACL_ERROR_RT_INTERNAL_ERROR);
    /* End recorded but not complete. */
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(b, s));
    ASSERT_RC(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtEventElapsedTime(&ms, a, b));
    ASSERT(ms >= 0.0f);
    ASSERT_OK(aclrtDestroyEvent(a));
    ASSERT_OK(aclrtDestroyEvent(b));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void k_sleep_20ms(void *args)
{
    struct timespec ts = {0, 20 * 1000 * 1000};
    (void)args;
    while (nanosleep(&ts, &ts) != 0)
        ;
}

TEST(event, timestamps_and_elapsed_time)
{
    aclrtStream s = NULL;
    aclrtEvent a = NULL, b = NULL, c = NULL;
    uint64_t ta = 0, tb = 0, tc = 0;
    float ms = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&a));
    ASSERT_OK(aclrtCreateEvent(&b));
    ASSERT_OK(aclrtCreateEventWithFlag(&c, ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtRecordEvent(a, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("event_sleep", k_sleep_20ms), 1, NULL, 0, s));
    ASSERT_OK(aclrtRecordEvent(b, s));
    ASSERT_OK(aclrtRecordEvent(c, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtEventGetTimestamp(a, &ta));
    ASSERT_OK(aclrtEventGetTimestamp(b, &tb));
    ASSERT_OK(aclrtEventGetTimestamp(c, &tc));
    ASSERT(ta > 0);
    ASSERT(tb > ta);
    ASSERT(tb - ta >= 20000); /* µs */
    ASSERT(tc >= tb);
    ASSERT_OK(aclrtEventElapsedTime(&ms, a, b));
    ASSERT(ms >= 20.0f);
    ASSERT(ms < 60000.0f);
    /* Re-recording moves the stamps forward. */
    ASSERT_OK(aclrtRecordEvent(a, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    {
        uint64_t ta2 = 0;
        ASSERT_OK(aclrtEventGetTimestamp(a, &ta2));
        ASSERT(ta2 >= tc);
    }
    ASSERT_OK(aclrtDestroyEvent(a));
    ASSERT_OK(aclrtDestroyEvent(b));
    ASSERT_OK(aclrtDestroyEvent(c));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- status queries --------------------------------------------------------------------------------- */

static void check_recorded_status(aclrtEvent e, aclrtEventRecordedStatus want)
{
    aclrtEventRecordedStatus st = (aclrtEventRecordedStatus)7;
    ASSERT_OK(aclrtQueryEventStatus(e, &st));
    ASSERT_EQ(st, want);
}

TEST(event, query_status_after_create)
{
    aclrtEvent e = NULL, f = NULL, x = NULL, y = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtCreateEventWithFlag(&f, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&x, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&y, ACL_EVENT_TIME_LINE));
    /* Never recorded: a normal event is not ready (example 0_event_status
     * prints 0), an Ex event counts as complete. */
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    check_recorded_status(f, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    check_recorded_status(x, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    check_recorded_status(y, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(f));
    ASSERT_OK(aclrtDestroyEvent(x));
    ASSERT_OK(aclrtDestroyEvent(y));
    t_teardown();
}

static void status_lifecycle(aclrtEvent e)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    memset(&g, 0, sizeof(g));
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ASSERT(t_wait_at_least(&g.started, 1));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&g.started), 1);
    ASSERT_OK(aclrtDestroyStream(s));
}

TEST(event, query_status_follows_record)
{
    aclrtEvent e = NULL, x = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    status_lifecycle(e);
    /* Re-recorded behind new work: not ready again until it completes. */
    status_lifecycle(e);
    ASSERT_OK(aclrtCreateEventExWithFlag(&x, ACL_EVENT_SYNC));
    status_lifecycle(x);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(x));
    t_teardown();
}

/* The queries look at the newest record only: a reset changes what a wait
 * sees (for a SYNC event), not what they report (event.cc Event::Query,
 * Event::QueryEventStatus); a new record is not ready until it runs. */
TEST(event, reset_leaves_queries_on_the_newest_record)
{
    static struct t_gate g;
    aclrtEvent e = NULL;
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtResetEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_OK(aclrtQueryEvent(e, &st));
#pragma GCC diagnostic pop
    ASSERT_EQ(st, ACL_EVENT_STATUS_COMPLETE);
    /* A second record behind a gate: not ready until it runs. */
    t_launch_gate(&g, NULL);
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(event, deprecated_query_event)
{
    static struct t_gate g;
    aclrtEvent e = NULL;
    aclrtStream s = NULL;
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    /* Never recorded counts as complete here (unlike aclrtQueryEventStatus). */
    ASSERT_OK(aclrtQueryEvent(e, &st));
    ASSERT_EQ(st, ACL_EVENT_STATUS_COMPLETE);
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    st = ACL_EVENT_STATUS_RESERVED;
    ASSERT_OK(aclrtQueryEvent(e, &st));
    ASSERT_EQ(st, ACL_EVENT_STATUS_NOT_READY);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeEvent(e));
    st = ACL_EVENT_STATUS_RESERVED;
    ASSERT_OK(aclrtQueryEvent(e, &st));
    ASSERT_EQ(st, ACL_EVENT_STATUS_COMPLETE);
#pragma GCC diagnostic pop
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(event, query_wait_status)
{
    static struct t_gate g;
    aclrtEvent e = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    /* No waits issued: complete. */
    ASSERT_OK(aclrtQueryEventWaitStatus(e, &ws));
    ASSERT_EQ(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    ASSERT_OK(aclrtQueryEventWaitStatus(e, &ws));
    ASSERT_EQ(ws, ACL_EVENT_WAIT_STATUS_NOT_READY);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    ASSERT_OK(aclrtQueryEventWaitStatus(e, &ws));
    ASSERT_EQ(ws, ACL_EVENT_WAIT_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* ---- wait semantics ----------------------------------------------------------------------------------- */

/* A wait issued before any record: a plain event's is refused with 107000
 * and queues nothing; an Ex event's is skipped (0); both, twice (event.cc
 * Event::Wait, WaitSendCheck). */
TEST(event, wait_before_any_record_plain_refused_ex_skipped)
{
    static _Atomic int v;
    aclrtEvent e = NULL, x = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtCreateEventExWithFlag(&x, ACL_EVENT_SYNC));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never recorded");
        ASSERT_OK(aclrtStreamWaitEvent(s, x));
    }
    launch_store(&v, 1, s);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_EQ(atomic_load(&v), 1);
    /* Once recorded, a plain event's wait is accepted. */
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtStreamWaitEvent(s, e));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(x));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* An event from aclrtCreateEventWithFlag(ACL_EVENT_SYNC) is a hardware
 * flag: a wait issued before any record waits for a later record; a wait
 * does not clear the flag (a second wait passes); only a reset does, after
 * which a wait blocks again until the next record (event.cc WaitSendCheck:
 * the wait task is always sent; the flag is cleared by the reset task). */
TEST(event, sync_flag_event_wait_blocks_until_set_and_reset_clears)
{
    static _Atomic int v;
    aclrtEvent f = NULL;
    aclrtStream s = NULL, r = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&r));
    ASSERT_OK(aclrtCreateEventWithFlag(&f, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtStreamWaitEvent(s, f)); /* before any record */
    launch_store(&v, 1, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&v), 0);
    ASSERT_OK(aclrtRecordEvent(f, r));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_EQ(atomic_load(&v), 1);
    /* The wait did not clear it: a second wait passes at once. */
    ASSERT_OK(aclrtStreamWaitEvent(s, f));
    launch_store(&v, 2, s);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_EQ(atomic_load(&v), 2);
    /* A reset clears it: the next wait blocks until the next record. */
    ASSERT_OK(aclrtResetEvent(f, r));
    ASSERT_OK(aclrtSynchronizeStream(r));
    ASSERT_OK(aclrtStreamWaitEvent(s, f));
    launch_store(&v, 3, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&v), 2);
    ASSERT_OK(aclrtRecordEvent(f, r));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_EQ(atomic_load(&v), 3);
    ASSERT_OK(aclrtDestroyEvent(f));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(r));
    t_teardown();
}

TEST(event, cross_stream_ordering)
{
    static struct t_gate g;
    static _Atomic int x, seen;
    aclrtEvent e = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s1);
    launch_store(&x, 42, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch_copy(&seen, &x, s2);
    /* A worker is free, yet s2 must stay behind the event. */
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&seen), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&seen), 42);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(event, record_on_default_stream_and_wait_on_user_stream)
{
    static struct t_gate g;
    static _Atomic int x, seen;
    aclrtEvent e = NULL;
    aclrtStream s = NULL;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, NULL);
    launch_store(&x, 7, NULL);
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtStreamWaitEvent(s, e));
    launch_copy(&seen, &x, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&seen), 7);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A record snapshots the stream at call time; a wait issued between two
 * records of the same event waits only for the first: C on s2 must finish
 * while B (behind the first record, before the second) is still blocked. */
TEST(event, wait_keeps_the_record_it_saw)
{
    static struct t_gate a, b;
    static _Atomic int c_done;
    aclrtEvent e = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&a, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1)); /* record 1: after A */
    t_launch_gate(&b, s1);
    ASSERT_OK(aclrtStreamWaitEvent(s2, e)); /* sees record 1 */
    ASSERT_OK(aclrtRecordEvent(e, s1)); /* record 2: after B */
    launch_store(&c_done, 1, s2);
    atomic_store(&a.open, 1);
    ASSERT(t_wait_flag(&c_done, 1));
    ASSERT_EQ(atomic_load(&b.finished), 0);
    ASSERT(t_wait_flag(&b.started, 1));
    atomic_store(&b.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&a.timed_out) + atomic_load(&b.timed_out), 0);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* A wait captures the newest record at call time: with record 2 issued
 * before the wait, C must not run before B. One worker; s2 has the higher
 * priority, so were s2 released by record 1 the worker would switch to it
 * before running B. */
static _Atomic int snap_b_done, snap_c_saw_b, snap_b_saw_c;

static void k_snap_b(void *args)
{
    (void)args;
    atomic_store(&snap_b_saw_c, atomic_load(&snap_c_saw_b) != 0 ? 1 : 0);
    atomic_store(&snap_b_done, 1);
}

static void k_snap_c(void *args)
{
    (void)args;
    atomic_store(&snap_c_saw_b, 1 + atomic_load(&snap_b_done));
}

TEST(event, wait_captures_latest_record)
{
    static struct t_gate a;
    aclrtEvent e = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s1, 7, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s2, 0, 0));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&a, s1);
    ASSERT(t_wait_flag(&a.started, 1));
    ASSERT_OK(aclrtRecordEvent(e, s1)); /* record 1 */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("event_snap_b", k_snap_b), 1, NULL, 0, s1));
    ASSERT_OK(aclrtRecordEvent(e, s1)); /* record 2 */
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("event_snap_c", k_snap_c), 1, NULL, 0, s2));
    atomic_store(&a.open, 1);
    ASSERT(t_wait_flag(&snap_b_done, 1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_EQ(atomic_load(&snap_b_saw_c), 0);
    ASSERT_EQ(atomic_load(&snap_c_saw_b), 2); /* C ran, after B */
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* With a single worker, a stream parked on an event must not hold it: the
 * worker meets s2's wait first (s2 has the higher priority), and must still
 * run s1's record that releases it. */
TEST(event, parked_stream_does_not_block_worker)
{
    static struct t_gate a;
    static _Atomic int c_done, d_done;
    aclrtEvent e = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s1, 7, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s2, 0, 0));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&a, s1);
    ASSERT(t_wait_flag(&a.started, 1));
    launch_store(&d_done, 1, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch_store(&c_done, 1, s2);
    atomic_store(&a.open, 1);
    /* No synchronize: the host must not lend its own thread. */
    ASSERT(t_wait_flag(&c_done, 1));
    ASSERT_EQ(atomic_load(&d_done), 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(event, many_streams_wait_on_one_event)
{
    enum { N = 8 };
    static struct t_gate g;
    static _Atomic int x, seen[N];
    aclrtEvent e = NULL;
    aclrtStream src = NULL, s[N];
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&src));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, src);
    launch_store(&x, 9, src);
    ASSERT_OK(aclrtRecordEvent(e, src));
    for (int i = 0; i < N; i++) {
        ASSERT_OK(aclrtCreateStream(&s[i]));
        ASSERT_OK(aclrtStreamWaitEvent(s[i], e));
        launch_copy(&seen[i], &x, s[i]);
    }
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s[N - 1], 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    atomic_store(&g.open, 1);
    for (int i = 0; i < N; i++) {
        ASSERT_OK(aclrtSynchronizeStream(s[i]));
        ASSERT_EQ(atomic_load(&seen[i]), 9);
        ASSERT_OK(aclrtDestroyStream(s[i]));
    }
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(src));
    t_teardown();
}

TEST(event, destroy_before_completion)
{
    static struct t_gate g;
    static _Atomic int c_done;
    aclrtEvent e = NULL, e2 = NULL;
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEventRecordedStatus st;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch_store(&c_done, 1, s2);
    /* Destroy returns at once; the pending record and wait still work. */
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_RC(aclrtQueryEventStatus(e, &st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&c_done), 1);
    /* Later work with fresh events is fine. */
    for (int i = 0; i < 4; i++) {
        ASSERT_OK(aclrtCreateEvent(&e2));
        ASSERT_OK(aclrtRecordEvent(e2, s1));
        ASSERT_OK(aclrtStreamWaitEvent(s2, e2));
        ASSERT_OK(aclrtSynchronizeStream(s2));
        check_recorded_status(e2, ACL_EVENT_RECORDED_STATUS_COMPLETE);
        ASSERT_OK(aclrtDestroyEvent(e2));
    }
    ASSERT_RC(aclrtQueryEventStatus(e, &st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(event, event_ids_distinct)
{
    aclrtEvent e[16];
    uint32_t id[16];
    t_setup();
    for (int i = 0; i < 16; i++) {
        ASSERT_OK(aclrtCreateEventWithFlag(&e[i], ACL_EVENT_SYNC));
        ASSERT_OK(aclrtGetEventId(e[i], &id[i]));
        for (int j = 0; j < i; j++)
            ASSERT_NE(id[i], id[j]);
    }
    for (int i = 0; i < 16; i++)
        ASSERT_OK(aclrtDestroyEvent(e[i]));
    t_teardown();
}

/* ---- event cap -------------------------------------------------------------------------------------------- */

TEST(event, event_cap_inference_soc)
{
    enum { CAP = 2048 };
    static aclrtEvent e[CAP];
    aclrtEvent extra = NULL;
    uint32_t avail = 0, n = 0;
    aclError rc = ACL_SUCCESS;

    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, 1023);
    while (n < CAP && (rc = aclrtCreateEventWithFlag(&e[n], ACL_EVENT_SYNC)) == ACL_SUCCESS)
        n++;
    ASSERT_RC(rc, ACL_ERROR_RT_NO_EVENT_RESOURCE);
    ASSERT_EQ(n, 1023);
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, 0);
    ASSERT_RC(aclrtCreateEventWithFlag(&extra, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE),
              ACL_ERROR_RT_NO_EVENT_RESOURCE);
    /* Ex events are not limited by the hardware. */
    ASSERT_OK(aclrtCreateEventExWithFlag(&extra, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtDestroyEvent(extra));
    /* One freed, one available. */
    ASSERT_OK(aclrtDestroyEvent(e[100]));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, 1);
    ASSERT_OK(aclrtCreateEventWithFlag(&e[100], ACL_EVENT_SYNC));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, 0);
    for (uint32_t i = 0; i < n; i++)
        ASSERT_OK(aclrtDestroyEvent(e[i]));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, 1023);
    t_teardown();
}

/* ---- records that complete out of order (issue 17, bug 1) ---------------------- */

/* A wait is for one record: the newest at the call. On the device each
 * record sets its own flag, so a later record of the same event that
 * completes first (on another, idle stream) releases nothing; and an older
 * record that completes late does not take the event's state back. Gates
 * hold the records; a stream that must stay behind is synced with a short
 * timeout, which it must hit. */

enum { OOO_STREAMS = 6 };

static void ooo_setup(aclrtStream s[OOO_STREAMS], aclrtEvent *e)
{
    setenv("ACLCPU_WORKERS", "4", 1); /* up to three gates held at once, and one to spare */
    t_setup();
    for (int i = 0; i < OOO_STREAMS; i++)
        ASSERT_OK(aclrtCreateStream(&s[i]));
    ASSERT_OK(aclrtCreateEvent(e));
}

static void ooo_teardown(aclrtStream s[OOO_STREAMS], aclrtEvent e)
{
    for (int i = 0; i < OOO_STREAMS; i++)
        ASSERT_OK(aclrtSynchronizeStream(s[i]));
    ASSERT_OK(aclrtDestroyEvent(e));
    for (int i = 0; i < OOO_STREAMS; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    t_teardown();
}

/* s waits on the newest record of e, then stores 1 into *done. */
static void wait_then_store(aclrtStream s, aclrtEvent e, _Atomic int *done)
{
    ASSERT_OK(aclrtStreamWaitEvent(s, e));
    launch_store(done, 1, s);
}

static void assert_still_waits(aclrtStream s, _Atomic int *done)
{
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(done), 0);
}

static void assert_released(aclrtStream s, _Atomic int *done)
{
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_EQ(atomic_load(done), 1);
}

/* The case: A on s0, record #1; s3 waits for #1, then B; record #2
 * on idle s1 completes at once. B must not run before A ends. */
TEST(event, later_record_on_another_stream_does_not_release_wait)
{
    static struct t_gate a;
    static _Atomic int b;
    aclrtStream s[OOO_STREAMS];
    aclrtEvent e = NULL;
    ooo_setup(s, &e);
    t_launch_gate(&a, s[0]);
    ASSERT_OK(aclrtRecordEvent(e, s[0]));
    wait_then_store(s[3], e, &b);
    ASSERT_OK(aclrtRecordEvent(e, s[1]));
    ASSERT_OK(aclrtSynchronizeStream(s[1])); /* record #2 is done */
    assert_still_waits(s[3], &b);
    ASSERT_EQ(atomic_load(&a.finished), 0);
    atomic_store(&a.open, 1);
    assert_released(s[3], &b);
    ASSERT_EQ(atomic_load(&a.finished), 1);
    ooo_teardown(s, e);
}

/* Two waits for record #1, and two later records (#2 on s1, #3 on a third
 * stream s2) done first: neither wait passes. A wait issued after #3 is for
 * #3, which is done: it passes at once although #1 is still pending. */
TEST(event, later_records_on_two_streams_release_neither_wait)
{
    static struct t_gate a;
    static _Atomic int w1, w2, w3;
    aclrtStream s[OOO_STREAMS];
    aclrtEvent e = NULL;
    ooo_setup(s, &e);
    t_launch_gate(&a, s[0]);
    ASSERT_OK(aclrtRecordEvent(e, s[0]));
    wait_then_store(s[3], e, &w1);
    wait_then_store(s[4], e, &w2);
    ASSERT_OK(aclrtRecordEvent(e, s[1]));
    ASSERT_OK(aclrtRecordEvent(e, s[2]));
    ASSERT_OK(aclrtSynchronizeStream(s[1]));
    ASSERT_OK(aclrtSynchronizeStream(s[2]));
    wait_then_store(s[5], e, &w3);
    assert_released(s[5], &w3);
    assert_still_waits(s[3], &w1);
    assert_still_waits(s[4], &w2);
    atomic_store(&a.open, 1);
    assert_released(s[3], &w1);
    assert_released(s[4], &w2);
    ooo_teardown(s, e);
}

/* Two records held by gates on s0 and s1, each with its own waiter; the
 * second completes first: only its waiter goes, and the event reads
 * complete (its newest record is done); then the first. */
TEST(event, two_records_complete_out_of_order)
{
    static struct t_gate a, b;
    static _Atomic int w1, w2;
    aclrtStream s[OOO_STREAMS];
    aclrtEvent e = NULL;
    ooo_setup(s, &e);
    t_launch_gate(&a, s[0]);
    ASSERT_OK(aclrtRecordEvent(e, s[0])); /* #1 */
    wait_then_store(s[3], e, &w1);
    t_launch_gate(&b, s[1]);
    ASSERT_OK(aclrtRecordEvent(e, s[1])); /* #2 */
    wait_then_store(s[4], e, &w2);
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    atomic_store(&b.open, 1);
    assert_released(s[4], &w2);
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    assert_still_waits(s[3], &w1);
    atomic_store(&a.open, 1);
    assert_released(s[3], &w1);
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ooo_teardown(s, e);
}

/* Three records on three streams, completed in the order #3, #1, #2: each
 * waiter goes exactly when its own record is done. */
TEST(event, three_records_complete_out_of_order)
{
    static struct t_gate g[3];
    static _Atomic int w[3];
    aclrtStream s[OOO_STREAMS];
    aclrtEvent e = NULL;
    ooo_setup(s, &e);
    for (int i = 0; i < 3; i++) {
        t_launch_gate(&g[i], s[i]);
        ASSERT_OK(aclrtRecordEvent(e, s[i])); /* #i+1 */
        wait_then_store(s[3 + i], e, &w[i]);
    }
    atomic_store(&g[2].open, 1);
    assert_released(s[5], &w[2]);
    assert_still_waits(s[3], &w[0]);
    assert_still_waits(s[4], &w[1]);
    atomic_store(&g[0].open, 1);
    assert_released(s[3], &w[0]);
    assert_still_waits(s[4], &w[1]);
    atomic_store(&g[1].open, 1);
    assert_released(s[4], &w[1]);
    ooo_teardown(s, e);
}

/* Record #1 (held) finishes after #2: the event stays complete, a host
 * sync returns at once and a new wait (for #2) passes. Were the older
 * record to move the completed state back, the event would read not ready
 * for good. */
TEST(event, older_record_finishing_late_keeps_event_complete)
{
    static struct t_gate a;
    static _Atomic int w;
    aclrtStream s[OOO_STREAMS];
    aclrtEvent e = NULL;
    ooo_setup(s, &e);
    t_launch_gate(&a, s[0]);
    ASSERT_OK(aclrtRecordEvent(e, s[0]));
    ASSERT_OK(aclrtRecordEvent(e, s[1]));
    ASSERT_OK(aclrtSynchronizeStream(s[1]));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    atomic_store(&a.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s[0]));
    check_recorded_status(e, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtSynchronizeEventWithTimeout(e, 1000));
    wait_then_store(s[3], e, &w);
    assert_released(s[3], &w);
    ooo_teardown(s, e);
}

/* A host sync is for the newest record at the call, too: a later record
 * issued and completed while it waits does not end it. Record #1 is kept
 * by a stopped stream, so the sync's hang watch logs that it is stuck:
 * from then on the sync has taken its record, and #2 is issued on an idle
 * stream. The sync must return only when the abort drops #1. */
struct event_sync_call {
    aclrtContext ctx;
    aclrtEvent e;
    _Atomic int *aborting;
    aclError rc;
    int aborting_at_return;
    _Atomic int done;
};

static void *event_sync_thread(void *arg)
{
    struct event_sync_call *c = arg;
    c->rc = aclrtSetCurrentContext(c->ctx);
    if (c->rc == ACL_SUCCESS)
        c->rc = aclrtSynchronizeEvent(c->e);
    c->aborting_at_return = atomic_load(c->aborting);
    atomic_store(&c->done, 1);
    return NULL;
}

TEST(event, later_record_does_not_end_a_host_sync)
{
    static struct t_gate a;
    static struct event_sync_call c;
    static _Atomic int aborting;
    aclrtStream s[OOO_STREAMS];
    pthread_t th;
    char want[96];
    uint32_t id = 0;
    t_capture_log("2");
    setenv("ACLCPU_SOC", "Ascend950PR", 1); /* any stream can be stopped */
    ooo_setup(s, &c.e);
    t_launch_gate(&a, s[0]);
    ASSERT_OK(aclrtRecordEvent(c.e, s[0])); /* #1, kept by the stop */
    ASSERT(t_wait_flag(&a.started, 1));
    ASSERT_OK(t_stop_releasing(s[0], &a.open));
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.aborting = &aborting;
    ASSERT_EQ(pthread_create(&th, NULL, event_sync_thread, &c), 0);
    ASSERT_OK(aclrtGetEventId(c.e, &id));
    snprintf(want, sizeof(want), "a sync on event %u has made no progress", id);
    ASSERT(t_log_shows(want));
    ASSERT_OK(aclrtRecordEvent(c.e, s[1])); /* #2, done at once */
    ASSERT_OK(aclrtSynchronizeStream(s[1]));
    for (uint64_t end = t_now_ns() + 50000000u; t_now_ns() < end;)
        ASSERT_EQ(atomic_load(&c.done), 0);
    atomic_store(&aborting, 1);
    ASSERT_OK(aclrtStreamAbort(s[0])); /* drops #1: the sync ends */
    ASSERT(t_wait_flag(&c.done, 1));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(c.rc);
    ASSERT_EQ(c.aborting_at_return, 1);
    ASSERT_OK(aclrtSynchronizeStream(s[0])); /* the abort is over: its status was reset */
    launch_store(&aborting, 2, s[0]); /* s0 works again */
    ooo_teardown(s, c.e);
    ASSERT_EQ(atomic_load(&aborting), 2);
}

/* An EXTERNAL event is set by a record until a reset runs: the second wait,
 * issued after the reset, holds its stream until the event is recorded
 * again (the first wait passed on the first record). */
TEST(event, external_event_reset_holds_the_next_wait)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent ev = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtRecordEvent(ev, s1));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, ev));
    t_launch_log(1, s2);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtResetEvent(ev, s1));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, ev));
    t_launch_log(2, s2);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s2, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtRecordEvent(ev, s1));
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(atomic_load(&t_log_n), 2);
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

static struct t_gate wake_gate;

static void *open_wake_gate_later(void *arg)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    (void)arg;
    /* Not needed for the result: it only makes it likely that the host
     * thread is asleep in its sync when the record runs, the case the
     * record must wake it from. */
    while (nanosleep(&ts, &ts) != 0)
        ;
    atomic_store(&wake_gate.open, 1);
    return NULL;
}

/* A record wakes a host thread asleep in a timed event sync at once, not
 * at its deadline (10 s here). */
TEST(event, record_wakes_a_host_sync_before_its_deadline)
{
    aclrtStream s = NULL;
    aclrtEvent ev = NULL;
    pthread_t th;
    uint64_t t0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&ev));
    t_launch_gate(&wake_gate, s);
    ASSERT_OK(aclrtRecordEvent(ev, s));
    ASSERT_EQ(pthread_create(&th, NULL, open_wake_gate_later, NULL), 0);
    t0 = t_now_ns();
    ASSERT_OK(aclrtSynchronizeEventWithTimeout(ev, 10000));
    ASSERT(t_now_ns() - t0 < 5000000000ull);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtCreateNotify takes exactly its two flags: DEFAULT (0) and
 * DEVICE_USE_ONLY (1); 2 is refused. */
TEST(event, notify_flags_both_accepted)
{
    aclrtNotify n0 = NULL, n1 = NULL, n2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateNotify(&n0, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtCreateNotify(&n1, ACL_NOTIFY_DEVICE_USE_ONLY));
    ASSERT_RC(aclrtCreateNotify(&n2, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyNotify(n0));
    ASSERT_OK(aclrtDestroyNotify(n1));
    t_teardown();
}

/* ---- the reference's checks of record, wait and reset, in order ------------------------------------ */

/* A stream made in a second context of device 0; the first context is
 * current again on return. */
static aclrtStream stream_of_another_context(aclrtContext *other)
{
    aclrtContext mine = NULL;
    aclrtStream s = NULL;
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(other, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    return s;
}

/* api_impl.cc EventRecord, StreamWaitEvent, EventReset, NotifyRecord,
 * NotifyWait: a stream of another context than the current one is 107003;
 * the handles (107017) and the event's kind (107000) answer first. */
TEST(event, record_wait_reset_refuse_a_stream_of_another_context)
{
    aclrtContext other = NULL;
    aclrtStream foreign = NULL, own = NULL;
    aclrtEvent e = NULL, dead = NULL, dev_only = NULL;
    aclrtNotify n = NULL;
    t_setup();
    foreign = stream_of_another_context(&other);
    ASSERT_OK(aclrtCreateStream(&own));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtCreateEvent(&dead));
    ASSERT_OK(aclrtDestroyEvent(dead));
    ASSERT_OK(aclrtCreateEventWithFlag(&dev_only, ACL_EVENT_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRecordEvent(e, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEvent: argument 'stream'");
    ASSERT_RC(aclrtRecordEventWithFlag(e, foreign, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtResetEvent(e, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtRecordEvent(e, own));
    ASSERT_RC(aclrtStreamWaitEvent(foreign, e), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(foreign, e, 1), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(foreign, e, 0, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtRecordNotify(n, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtWaitAndResetNotify(n, foreign, 0), ACL_ERROR_RT_STREAM_CONTEXT);
    /* What answers first. */
    ASSERT_RC(aclrtRecordEvent(dead, foreign), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEvent(foreign, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordEvent(dev_only, foreign), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEvent(foreign, dev_only), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtResetEvent(dev_only, foreign), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(own));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(dev_only));
    ASSERT_OK(aclrtDestroyStream(own));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* api_error.cc EventRecord, StreamWaitEvent, EventReset: an event made
 * with DEVICE_USE_ONLY is the device's: every host task on it is 107000. */
TEST(event, device_use_only_event_refused_by_record_wait_and_reset)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRecordEvent(e, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEvent: argument 'event'");
    ASSERT_RC(aclrtRecordEventWithFlag(e, NULL, ACL_EVENT_RECORD_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtResetEvent(e, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* api_error.cc EventRecord / StreamWaitEvent: the first record of an
 * event fixes the flag every later record must use, and the first wait
 * the flag of every later wait (107000); a call that fails further on
 * still fixes it. The EXTERNAL rules come first: an Ex event of exactly
 * SYNC (207000), then, after the context, a capturing stream (107029). */
TEST(event, record_flag_and_wait_flag_are_fixed_by_the_first_call)
{
    aclrtEvent a = NULL, b = NULL, plain = NULL, timed = NULL;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&a, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&b, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_OK(aclrtCreateEventExWithFlag(&timed, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    /* EXTERNAL takes only an Ex event of exactly SYNC. */
    ASSERT_RC(aclrtRecordEventWithFlag(plain, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtRecordEventWithFlag(timed, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, plain, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* ... and so the plain event's record flag is still free. */
    ASSERT_OK(aclrtRecordEvent(plain, s));
    /* a: the first record is a default one; an external one is refused. */
    ASSERT_OK(aclrtRecordEvent(a, s));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRecordEventWithFlag(a, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEventWithFlag: argument 'flag'");
    ASSERT_OK(aclrtStreamWaitEvent(s, a));
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, a, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    /* b: the first record and wait are external ones that fail (not
     * capturing); they fix the flags all the same. */
    ASSERT_RC(aclrtRecordEventWithFlag(b, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, b, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclrtRecordEvent(b, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEvent(s, b), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(s, b, 1), ACL_ERROR_RT_PARAM_INVALID);
    /* In a capture both are taken (one model takes an event's external
     * record or its external wait, not both: two captures). */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEventWithFlag(b, s, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtStreamWaitEventWithFlag(s, b, 0, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(a));
    ASSERT_OK(aclrtDestroyEvent(b));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyEvent(timed));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_c_stream.cc rtStreamWaitEventWithTimeout: the stream's handle is
 * validated before the event's, and a NULL event (no ACL-layer check in
 * this call) is the runtime's 107000 after both. */
TEST(event, wait_checks_the_stream_handle_before_the_event)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(s, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'stream'");
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamWaitEvent: argument 'event'");
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

/* event.cc GetEventID, InitEventAllocFlag; api_impl_event_common.cc:
 * only an event holding a hardware id has one to give (507000 otherwise):
 * SYNC, EXTERNAL and DEVICE_USE_ONLY events from creation, those of
 * aclrtCreateEvent and aclrtCreateEventExWithFlag from their first
 * record; TIME_LINE alone never. An IPC event is 207000. */
TEST(event, get_event_id_needs_a_hardware_id)
{
    aclrtEvent plain = NULL, ex = NULL, sync = NULL, timed = NULL, ext = NULL, dev = NULL, ipc = NULL;
    uint32_t id = 0;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventWithFlag(&sync, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventWithFlag(&timed, ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtCreateEventWithFlag(&ext, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtCreateEventWithFlag(&dev, ACL_EVENT_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtGetEventId(plain, &id), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetEventId:");
    ASSERT_RC(aclrtGetEventId(ex, &id), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtGetEventId(timed, &id), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtGetEventId(ipc, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtGetEventId(sync, &id));
    ASSERT_OK(aclrtGetEventId(ext, &id));
    ASSERT_OK(aclrtGetEventId(dev, &id));
    ASSERT_OK(aclrtRecordEvent(plain, NULL));
    ASSERT_OK(aclrtRecordEvent(ex, NULL));
    ASSERT_OK(aclrtRecordEvent(timed, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtGetEventId(plain, &id));
    ASSERT_OK(aclrtGetEventId(ex, &id));
    ASSERT_RC(aclrtGetEventId(timed, &id), ACL_ERROR_RT_INTERNAL_ERROR);
    aclrtEvent all[] = {plain, ex, sync, timed, ext, dev, ipc};
    for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        ASSERT_OK(aclrtDestroyEvent(all[i]));
    t_teardown();
}

/* event.cc Event::ElapsedTime: a never-recorded event of either side
 * (507000) answers before a record of the other not yet complete
 * (107006). The ACL layer checks aclrtEventGetTimestamp's 'timestamp'
 * before its 'event'. */
TEST(event, elapsed_time_checks_both_records_before_their_times)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtEvent a = NULL, b = NULL;
    float ms = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&a));
    ASSERT_OK(aclrtCreateEvent(&b));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtRecordEvent(a, s)); /* recorded, not complete */
    ASSERT_RC(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtEventElapsedTime(&ms, b, a), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtEventElapsedTime(&ms, a, a), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtEventGetTimestamp(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtEventGetTimestamp: argument 'timestamp'");
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtEventElapsedTime(&ms, a, a));
    ASSERT_OK(aclrtDestroyEvent(a));
    ASSERT_OK(aclrtDestroyEvent(b));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_error.cc EventQuery, EventQueryWaitStatus: an EXTERNAL event's
 * status cannot be queried by either (207000), as by aclrtQueryEventStatus. */
TEST(event, queries_refuse_external_events)
{
    aclrtEvent x = NULL;
    aclrtEventStatus es;
    aclrtEventWaitStatus ws;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&x, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtRecordEvent(x, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_RC(aclrtQueryEvent(x, &es), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
#pragma GCC diagnostic pop
    ASSERT_RC(aclrtQueryEventWaitStatus(x, &ws), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyEvent(x));
    t_teardown();
}

/* api_error.cc EventCreateEx: an IPC event needs a chip with IPC events
 * (A2, A3, 950): Atlas inference says 207000, after the flag's own rule. */
TEST(event, ipc_event_needs_a_soc_with_ipc_events)
{
    aclrtEvent e = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* event.cc Event::Wait (CrossDeviceEventWait): a stream may wait on an
 * event of another device; on the chips with value waits the wait holds
 * until the record is done. A record or reset on a stream of another
 * device than the event's is refused here (107000; differences.md). */
TEST(event, wait_on_an_event_of_another_device)
{
    static struct t_gate g;
    aclrtStream s0 = NULL, s1 = NULL;
    aclrtEvent e = NULL;
    int64_t *x1 = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s0));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s0);
    ASSERT_OK(aclrtRecordEvent(e, s0));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&s1));
    x1 = t_dev_i64(1);
    ASSERT_OK(aclrtStreamWaitEvent(s1, e));
    t_launch_add(x1, 1, s1);
    ASSERT_RC(aclrtRecordEvent(e, s1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtResetEvent(e, s1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s1, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(x1[0], 0); /* held by the wait */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_EQ(x1[0], 1);
    ASSERT_OK(aclrtFree(x1));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s0));
    t_teardown();
}

/* On a chip without value waits the wait across devices is not made: the
 * call succeeds and the stream goes on (event.cc CrossDeviceEventWait). */
TEST(event, wait_across_devices_without_value_waits_is_not_made)
{
    static struct t_gate g;
    aclrtStream s0 = NULL, s1 = NULL;
    aclrtEvent e = NULL;
    int64_t *x1 = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s0));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, s0);
    ASSERT_OK(aclrtRecordEvent(e, s0));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&s1));
    x1 = t_dev_i64(1);
    ASSERT_OK(aclrtStreamWaitEvent(s1, e));
    t_launch_add(x1, 1, s1);
    ASSERT_OK(aclrtSynchronizeStream(s1)); /* the gate is still shut */
    ASSERT_EQ(x1[0], 1);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtFree(x1));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSynchronizeStream(s0));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s0));
    t_teardown();
}

/* api_c.cc rtNotify*, api_impl.cc Notify*: the notify's handle is checked
 * before the context (107017 without one); destroying and reading the id
 * need a context (107002); the ACL layer checks 'notify' before
 * 'notifyId'. */
struct notify_no_ctx {
    aclrtNotify live, dead;
    aclError rc[5];
};

static void *notify_calls_without_context(void *arg)
{
    struct notify_no_ctx *a = arg;
    uint32_t id = 0;
    a->rc[0] = aclrtRecordNotify(a->dead, NULL);
    a->rc[1] = aclrtDestroyNotify(a->dead);
    a->rc[2] = aclrtDestroyNotify(a->live);
    a->rc[3] = aclrtGetNotifyId(a->live, &id);
    a->rc[4] = aclrtRecordNotify(a->live, NULL);
    return NULL;
}

TEST(event, notify_calls_check_the_handle_then_the_context)
{
    static struct notify_no_ctx a;
    pthread_t th;
    t_setup();
    ASSERT_OK(aclrtCreateNotify(&a.live, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtCreateNotify(&a.dead, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtDestroyNotify(a.dead));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtGetNotifyId(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetNotifyId: argument 'notify'");
    ASSERT_EQ(pthread_create(&th, NULL, notify_calls_without_context, &a), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(a.rc[0], ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(a.rc[1], ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(a.rc[2], ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(a.rc[3], ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(a.rc[4], ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtDestroyNotify(a.live));
    t_teardown();
}

/* api_c_memory.cc rtsValueWrite / rtsValueWait, api_error.cc
 * MemWriteValue / MemWaitValue, api_impl.cc: the chip, the stream's
 * handle, the flag and the address are checked before the context
 * (107002); a stream of another context is 107003. */
struct value_no_ctx {
    int64_t *w;
    aclrtStream s;
    aclError rc[4];
};

static void *value_calls_without_context(void *arg)
{
    struct value_no_ctx *a = arg;
    a->rc[0] = aclrtValueWrite(a->w, 1, 1, NULL);
    a->rc[1] = aclrtValueWait(a->w, 1, 4, a->s);
    a->rc[2] = aclrtValueWrite(a->w, 1, 0, a->s);
    a->rc[3] = aclrtValueWait(a->w, 1, 0, NULL);
    return NULL;
}

TEST(event, value_write_and_wait_check_their_arguments_before_the_context)
{
    static struct value_no_ctx a;
    aclrtContext other = NULL;
    aclrtStream foreign = NULL;
    pthread_t th;
    t_setup();
    a.w = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&a.s));
    foreign = stream_of_another_context(&other);
    ASSERT_EQ(pthread_create(&th, NULL, value_calls_without_context, &a), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(a.rc[0], ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(a.rc[1], ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(a.rc[2], ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(a.rc[3], ACL_ERROR_RT_CONTEXT_NULL);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtValueWrite(a.w, 1, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtValueWrite: argument 'stream'");
    ASSERT_RC(aclrtValueWait(a.w, 1, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtValueWrite(a.w, 1, 0, a.s));
    ASSERT_OK(aclrtSynchronizeStream(a.s));
    ASSERT_EQ(a.w[0], 1);
    ASSERT_OK(aclrtFree(a.w));
    ASSERT_OK(aclrtDestroyStream(a.s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* api_error.cc EventSynchronize (IsEventInModel): an event whose newest
 * record was made on a stream bound to a model cannot be waited for by the
 * host (107000); once that model is gone it can. */
TEST(event, sync_refuses_an_event_recorded_on_a_model_bound_stream)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclmdlRIEndTask(m, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtSynchronizeEvent(e), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSynchronizeEvent:");
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 100), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIExecute(m, 5000));
    ASSERT_OK(aclmdlRIUnbindStream(m, s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_error.cc EventRecord, StreamWaitEvent, EventReset: an IPC event
 * takes no record or wait on a capturing stream, and no reset at all
 * (207000). */
TEST(event, ipc_event_takes_no_task_on_a_capturing_stream_and_no_reset)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    ASSERT_RC(aclrtResetEvent(e, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRecordEvent(e, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEvent: an IPC event");
    ASSERT_RC(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_impl.cc EventReset: on a capturing stream only an EXTERNAL event
 * may be reset (207000 for others: ToBeCaptured); a stream bound to a
 * model refuses a plain aclrtCreateEvent event's reset (207000). */
TEST(event, reset_in_a_model_takes_the_events_the_reference_takes)
{
    aclrtStream s = NULL, b = NULL;
    aclrtEvent plain = NULL, sync = NULL, ext = NULL;
    aclmdlRI m = NULL, built = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&b, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_OK(aclrtCreateEventWithFlag(&sync, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventWithFlag(&ext, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtResetEvent(plain, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtResetEvent:");
    ASSERT_RC(aclrtResetEvent(sync, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtResetEvent(ext, s));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIBuildBegin(&built, 0));
    ASSERT_OK(aclmdlRIBindStream(built, b, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtResetEvent(plain, b), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtResetEvent(sync, b));
    ASSERT_OK(aclmdlRIEndTask(built, b));
    ASSERT_OK(aclmdlRIBuildEnd(built, NULL));
    ASSERT_OK(aclmdlRIUnbindStream(built, b));
    ASSERT_OK(aclmdlRIDestroy(built));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyEvent(sync));
    ASSERT_OK(aclrtDestroyEvent(ext));
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_impl.cc StreamWaitEvent: a wait on an event recorded in a capture
 * under way joins the waiting stream to the capture, but never the
 * default stream (107031). */
TEST(event, default_stream_cannot_join_a_capture_by_a_wait)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(e, s));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamWaitEvent:");
    ASSERT_OK(aclrtStreamWaitEvent(other, e)); /* joins */
    ASSERT_OK(aclrtRecordEvent(e, other));
    ASSERT_OK(aclrtStreamWaitEvent(s, e));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* runtime_handle_guard.cc ValidateInnerObject: a handle of another kind
 * (a notify for an event, an event for a notify) is 107017, and so is an
 * event's handle once aclrtResetDevice has ended its context, even
 * though the thread has no context left. */
TEST(event, wrong_kind_and_reset_device_handles_are_invalid)
{
    aclrtEvent e = NULL;
    aclrtNotify n = NULL;
    aclrtEventRecordedStatus rs;
    uint32_t id = 0;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_RC(aclrtRecordEvent((aclrtEvent)n, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventStatus((aclrtEvent)n, &rs), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyEvent((aclrtEvent)n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordNotify((aclrtNotify)e, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetNotifyId((aclrtNotify)e, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyNotify((aclrtNotify)e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclrtRecordEvent(e, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventStatus(e, &rs), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyEvent(e), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclFinalize());
}

/* aclrtCreateEventWithFlag's bit 0x4 (the runtime's DDSYNC): the event
 * holds an id from creation, as SYNC, EXTERNAL and DEVICE_USE_ONLY events
 * do (one fewer available), streams can wait on it and it can be reset
 * (event.hpp IsEventWithoutWaitTask), and, like an aclrtCreateEvent
 * event, a wait before any record is 107000 (event.cc Event::Wait). */
TEST(event, ddsync_bit_event_is_waitable_and_holds_an_id)
{
    aclrtEvent e = NULL, d = NULL;
    uint32_t before = 0, after = 0, id = 0;
    t_setup();
    ASSERT_OK(aclrtGetEventAvailNum(&before));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, 0x4));
    ASSERT_OK(aclrtCreateEventWithFlag(&d, ACL_EVENT_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtGetEventAvailNum(&after));
    ASSERT_EQ(after, before - 2);
    ASSERT_OK(aclrtGetEventId(e, &id));
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtStreamWaitEvent(NULL, e));
    ASSERT_OK(aclrtResetEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(d));
    ASSERT_OK(aclrtGetEventAvailNum(&after));
    ASSERT_EQ(after, before);
    t_teardown();
}

/* api_impl.cc EventCreate / NotifyCreate (CheckSupportMC2Feature): Atlas
 * training and Atlas 200I/500 A2 have no DEVICE_USE_ONLY events or
 * notifies (207000, after the flag rules and the context). */
static void device_use_only_refused_on(const char *soc)
{
    aclrtEvent e = NULL;
    aclrtNotify n = NULL;
    setenv("ACLCPU_SOC", soc, 1);
    t_setup();
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_SYNC), ACL_ERROR_RT_PARAM_INVALID);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCreateEventWithFlag: argument 'flag'");
    ASSERT_RC(aclrtCreateNotify(&n, ACL_NOTIFY_DEVICE_USE_ONLY), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

TEST(event, device_use_only_needs_a_soc_with_it_training)
{
    device_use_only_refused_on("Ascend910A");
}

TEST(event, device_use_only_needs_a_soc_with_it_200i_500_a2)
{
    device_use_only_refused_on("Ascend310B1");
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------------------- */

/* An IPC event's reset is refused for being IPC (207000, api_error.cc
 * EventReset), before the context and the Ex rule are looked at: the
 * message says so. */
TEST(event, an_ipc_event_reset_is_refused_as_ipc_before_the_ex_rule)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtResetEvent(e, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtResetEvent: an IPC event cannot be reset");
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtEventElapsedTime checks the end event's kind too: an IPC end event
 * has no time (207000, naming 'endEvent'), before its records are looked at. */
TEST(event, elapsed_time_refuses_an_ipc_end_event_before_its_records)
{
    aclrtStream s = NULL;
    aclrtEvent start = NULL, ipc = NULL;
    float ms = -1.0f;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&start));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
    ASSERT_OK(aclrtRecordEvent(start, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtEventElapsedTime(&ms, start, ipc), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'endEvent' is an EXTERNAL or IPC event");
    ASSERT_OK(aclrtRecordEvent(ipc, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_RC(aclrtEventElapsedTime(&ms, start, ipc), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyEvent(start));
    ASSERT_OK(aclrtDestroyEvent(ipc));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtEventGetTimestamp answers microseconds of the monotonic clock: a
 * record made between two readings of that clock lies between them. */
TEST(event, the_timestamp_is_in_microseconds_of_the_monotonic_clock)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    uint64_t before, after, ts = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&e));
    before = t_now_ns() / 1000u;
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    after = t_now_ns() / 1000u + 1u;
    ASSERT_OK(aclrtEventGetTimestamp(e, &ts));
    ASSERT(ts >= before);
    ASSERT(ts <= after);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A notify takes records and waits only on streams of its own device
 * (107000): with device 1 current, a notify of device 0 is refused on a
 * stream of device 1, and nothing is queued there. */
TEST(event, a_notify_takes_no_task_on_a_stream_of_another_device)
{
    aclrtNotify n = NULL;
    aclrtStream s1 = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&s1));
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRecordNotify(n, s1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordNotify: the event belongs to device 0");
    ASSERT_RC(aclrtWaitAndResetNotify(n, s1, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(s1)); /* nothing queued: no wait to hang on */
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDestroyNotify(n));
    t_teardown();
}

/* ACL_EVENT_IPC is used alone: combined with any other flag (TIME_LINE,
 * EXTERNAL, not only SYNC) it is refused (107000). */
TEST(event, an_ipc_event_flag_with_any_other_flag_is_refused)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_TIME_LINE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_EVENT_IPC must be used alone");
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_CAPTURE_STREAM_PROGRESS),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(e == NULL);
    t_teardown();
}

/* ---- sweep 4: a plain event's id at its second record ----------------------------------------- */

/* An aclrtCreateEvent event takes its event id (one of the SoC's) at its
 * first record only: a second record keeps it, so the count available
 * drops by one in all, and comes back at the destroy. */
TEST(event, a_second_record_of_a_plain_event_takes_no_second_event_id)
{
    aclrtEvent e = NULL;
    aclrtStream s = NULL;
    uint32_t before = 0, avail = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtGetEventAvailNum(&before));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, before); /* none until the first record */
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, before - 1);
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, before - 1);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtGetEventAvailNum(&avail));
    ASSERT_EQ(avail, before);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A destroyed event's slot (its id) is held back until more than 64
 * destroyed events wait for reuse, so a stale handle keeps failing its
 * check long after the destroy: after 64 destroys a new event takes a new
 * id; after one more, the oldest destroyed one's id comes back. */
TEST(event, an_event_id_is_reused_only_after_more_than_64_destroys)
{
    enum { N = 64 };
    static aclrtEvent e[N];
    static int32_t ids[N];
    aclrtEvent fresh = NULL, reused = NULL;
    int32_t id = -1;
    t_setup();
    for (int i = 0; i < N; i++) {
        ASSERT_OK(aclrtCreateEventWithFlag(&e[i], ACL_EVENT_SYNC));
        ASSERT_OK(aclrtGetEventId(e[i], (uint32_t *)&ids[i]));
    }
    for (int i = 0; i < N; i++)
        ASSERT_OK(aclrtDestroyEvent(e[i]));
    ASSERT_OK(aclrtCreateEventWithFlag(&fresh, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtGetEventId(fresh, (uint32_t *)&id));
    for (int i = 0; i < N; i++)
        ASSERT(id != ids[i]);
    ASSERT_OK(aclrtDestroyEvent(fresh)); /* the 65th waiting */
    ASSERT_OK(aclrtCreateEventWithFlag(&reused, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtGetEventId(reused, (uint32_t *)&id));
    ASSERT_EQ(id, ids[0]);
    ASSERT_OK(aclrtDestroyEvent(reused));
    t_teardown();
}

/* ---- sweep 5 (issue 19): state a reused event slot must not keep ---------------------- */

/* Makes `old`'s slot the next one a create reuses: 65 more destroyed
 * events queue behind it (the quarantine holds 64 back), and the caller
 * destroys `old` first. */
static void queue_65_destroys_after(void (*destroy_old)(void *), void *old, aclError (*make)(void **),
                                    aclError (*drop)(void *))
{
    static void *spare[65];
    for (int i = 0; i < 65; i++)
        ASSERT_OK(make(&spare[i]));
    destroy_old(old);
    for (int i = 0; i < 65; i++)
        ASSERT_OK(drop(spare[i]));
}

static aclError make_plain_event(void **e) { return aclrtCreateEvent((aclrtEvent *)e); }
static aclError drop_event(void *e) { return aclrtDestroyEvent((aclrtEvent)e); }
static void destroy_event_ok(void *e) { ASSERT_OK(aclrtDestroyEvent((aclrtEvent)e)); }
static aclError make_notify(void **n) { return aclrtCreateNotify((aclrtNotify *)n, ACL_NOTIFY_DEFAULT); }
static aclError drop_notify(void *n) { return aclrtDestroyNotify((aclrtNotify)n); }
static void destroy_notify_ok(void *n) { ASSERT_OK(aclrtDestroyNotify((aclrtNotify)n)); }

/* An event made in a destroyed event's slot is a new event: the old
 * one's completed record is not its own, so it reads NOT_READY until it
 * is recorded itself. */
TEST(event, an_event_in_a_reused_slot_starts_with_no_record)
{
    aclrtEvent old = NULL, fresh = NULL;
    aclrtStream s = NULL;
    aclrtEventRecordedStatus st;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEvent(&old));
    ASSERT_OK(aclrtRecordEvent(old, s));
    ASSERT_OK(aclrtSynchronizeEvent(old));
    ASSERT_OK(aclrtQueryEventStatus(old, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    queue_65_destroys_after(destroy_event_ok, old, make_plain_event, drop_event);
    ASSERT_OK(aclrtCreateEvent(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old); /* the same slot */
    ASSERT_OK(aclrtQueryEventStatus(fresh, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
    ASSERT_OK(aclrtDestroyEvent(fresh));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A notify made in a destroyed notify's slot starts unset, though the old
 * one was set when destroyed: a wait on it times out (1 s) instead of
 * taking the old one's flag. */
TEST(event, a_notify_in_a_reused_slot_starts_unset)
{
    aclrtNotify old = NULL, fresh = NULL;
    aclrtStream s = NULL, rec = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&rec));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtCreateNotify(&old, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtRecordNotify(old, rec));
    ASSERT_OK(aclrtSynchronizeStream(rec)); /* set, and never waited on */
    queue_65_destroys_after(destroy_notify_ok, old, make_notify, drop_notify);
    ASSERT_OK(aclrtCreateNotify(&fresh, ACL_NOTIFY_DEFAULT));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old); /* the same slot */
    ASSERT_OK(aclrtWaitAndResetNotify(fresh, s, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT_OK(aclrtDestroyNotify(fresh));
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_OK(aclrtDestroyStream(rec));
    t_teardown();
}
