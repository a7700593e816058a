/*
 * test_capture.c - stream capture (spec/acl-api.md §3.8, §5 "Model RI /
 * capture"): recording instead of running, streams that join through
 * events, joining back, invalidation, the three capture modes from two
 * threads, task groups and their update between replays, replays from
 * several streams, and a property test: random programs of launches,
 * records and waits give the same results run eagerly and replayed.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

/* x = x * 3 + c: the order of two of them shows in the result (values
 * stay small in these tests). */
static void k_mad(void *args)
{
    int64_t *const *p = args;
    int64_t c = ((const int64_t *)args)[1];
    *p[0] = *p[0] * 3 + c;
}

static void launch_mad(int64_t *x, int64_t c, aclrtStream s)
{
    struct {
        int64_t *x;
        int64_t c;
    } a = {x, c};
    ASSERT_OK(aclrtLaunchKernel(t_kernel("cap_mad", k_mad), 1, &a, sizeof(a), s));
}

static aclmdlRICaptureStatus status_of(aclrtStream s, aclmdlRI *m)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, m));
    return st;
}

TEST(capture, tasks_are_recorded_and_each_replay_runs_them)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL, seen = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_add(&x[1], 5, s); /* eager work before the capture still runs */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_EQ(status_of(s, &seen), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT(seen != NULL);
    t_launch_add(&x[0], 1, s);
    ASSERT_OK(aclrtMemsetAsync(&x[1], 8, 0, 8, s));
    t_launch_add(&x[0], 1, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT(m == seen);
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 0); /* nothing captured ran */
    ASSERT_EQ(x[1], 5);
    for (int i = 0; i < 4; i++)
        ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 8);
    ASSERT_EQ(x[1], 0);
    t_launch_add(&x[0], 100, s); /* the stream is an ordinary one again */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 108);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(capture, begin_and_end_rules)
{
    aclrtStream s = NULL, p = NULL, def = NULL;
    aclmdlRI m = NULL, b = NULL;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&def));
    ASSERT_RC(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)3), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRICaptureBegin(def, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRICaptureBegin(p, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_RC(aclmdlRICaptureEnd(NULL, &m), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureEnd(s, NULL), ACL_ERROR_RT_STREAM_NOT_CAPTURED); /* modelRI: only looked at when capturing */
    ASSERT_RC(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclmdlRICaptureGetInfo(NULL, NULL, &m), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureGetInfo(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureThreadExchangeMode(NULL), ACL_ERROR_INVALID_PARAM);
    mode = (aclmdlRICaptureMode)3;
    ASSERT_RC(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_RT_PARAM_INVALID);
    mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ASSERT_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    ASSERT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL); /* the old mode comes back */
    ASSERT_OK(aclmdlRICaptureThreadExchangeMode(&mode));
    ASSERT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclmdlRIBindStream(b, s, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID); /* not PERSISTENT, first */
    ASSERT_RC(aclmdlRIExecuteAsync(b, s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclmdlRICaptureGetInfo(s, NULL, &m));
    ASSERT_RC(aclmdlRIDestroy(m), ACL_ERROR_RT_MODEL_CAPTURED);
    ASSERT_RC(aclmdlRIExecuteAsync(m, NULL), ACL_ERROR_RT_MODEL_CAPTURED); /* not ended */
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_RC(aclmdlRIExecute(m, -1), ACL_ERROR_RT_PARAM_INVALID); /* captured: async only */
    ASSERT_RC(aclmdlRIAbort(m), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIBindStream(b, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclmdlRICaptureBegin(p, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
}

TEST(capture, not_on_training_products)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Two streams: s2 joins through an event recorded in s1's capture, its
 * work is recorded too, and s1 waits on s2's last record (joining back).
 * Replays keep every cross-stream edge: the order shows in the result. */
TEST(capture, two_streams_joined_by_events)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent fork = NULL, join = NULL;
    aclmdlRI m = NULL, m2 = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    launch_mad(x, 1, s1);
    ASSERT_OK(aclrtRecordEvent(fork, s1));
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
    ASSERT_EQ(status_of(s2, &m2), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE); /* joined */
    launch_mad(x, 2, s2);
    ASSERT_OK(aclrtRecordEvent(join, s2));
    ASSERT_OK(aclrtStreamWaitEvent(s1, join));
    launch_mad(x, 3, s1);
    ASSERT_RC(aclmdlRICaptureEnd(s2, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED); /* only joined */
    ASSERT_OK(aclmdlRICaptureEnd(s1, &m));
    ASSERT(m == m2);
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_EQ(x[0], ((0 * 3 + 1) * 3 + 2) * 3 + 3); /* 1, 5, 18 */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s2)); /* from the other stream */
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(x[0], ((18 * 3 + 1) * 3 + 2) * 3 + 3);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A joined stream whose end is never joined back: no model, and both
 * streams are ordinary streams again. */
TEST(capture, unjoined_stream_fails_the_capture)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent fork = NULL;
    aclmdlRI m = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
    t_launch_add(x, 1, s2);
    ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not joined back");
    ASSERT_EQ(status_of(s1, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    t_launch_add(x, 10, s2);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_EQ(x[0], 10); /* the captured launch never runs */
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A joined stream is joined back only if its LAST task is the record the
 * origin waits on: a task captured after that record ends the stream
 * again, unjoined, and the capture fails (as CUDA's unjoined capture). */
TEST(capture, a_task_after_the_joining_record_leaves_the_stream_unjoined)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent fork = NULL, join = NULL;
    aclmdlRI m = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
    ASSERT_OK(aclrtRecordEvent(join, s2));
    ASSERT_OK(aclrtStreamWaitEvent(s1, join));
    t_launch_add(x, 1, s2); /* after the record s1 waited on */
    ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not joined back");
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A capturing stream that waits on an event recorded outside the capture
 * invalidates it; the capture then reports it at its end. */
/* A capturing stream's wait on an Ex event whose newest record was made
 * outside the capture is refused with 107024, naming the stream and the
 * event, and the capture goes on (api_impl.cc ApiImpl::StreamWaitEvent:
 * RT_ERROR_STREAM_CAPTURE_ISOLATION, returned without TerminateCapture;
 * errcode_manage.cc maps it to 107024). */
TEST(capture, wait_on_an_event_recorded_outside_is_refused_and_the_capture_goes_on)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m = NULL;
    char want[160];
    int32_t sid = 0;
    uint32_t eid = 0;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtStreamGetId(s, &sid));
    ASSERT_OK(aclrtRecordEvent(e, other));
    ASSERT_OK(aclrtGetEventId(e, &eid)); /* an Ex event has an id once recorded */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
        snprintf(want, sizeof(want), "aclrtStreamWaitEvent: stream %d waits on event %u, whose newest record is "
                 "outside the capture", sid, eid);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), want);
        ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    }
    t_launch_add(x, 1, s); /* the capture takes work as before */
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclrtFree(x));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* An Ex event recorded in a capture and then on a stream outside it while
 * the capture is under way: the outside record does not invalidate the
 * capture, and waits on the event, on a capturing stream or on another one
 * (which joins), are still waits on the captured record; once the capture
 * has ended, the outside record is the event's newest again
 * (api_impl.cc ApiImpl::EventRecord: a stream that is not capturing
 * records plainly; event_capture.cc Event::IsCapturing and
 * ApiImpl::StreamWaitEvent: the capture record stands until
 * CaptureModel::ExitCaptureNotify clears it). */
TEST(capture, record_outside_during_a_capture_leaves_the_capture_and_its_record)
{
    aclrtStream s = NULL, other = NULL, joiner = NULL;
    aclrtEvent e = NULL, back = NULL;
    aclmdlRI m = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    int64_t *x;
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateStream(&joiner));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&back, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(&x[0], 1, s);
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtRecordEvent(e, other)); /* outside, while the capture is under way */
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclrtStreamWaitEvent(s, e)); /* the captured record: accepted */
    ASSERT_OK(aclrtStreamWaitEvent(joiner, e)); /* joins the capture */
    launch_mad(&x[1], 2, joiner);
    ASSERT_OK(aclrtRecordEvent(back, joiner));
    ASSERT_OK(aclrtStreamWaitEvent(s, back));
    ASSERT_EQ(status_of(joiner, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclrtSynchronizeStream(joiner));
    ASSERT_EQ(x[1], 0); /* joiner's work was captured, not run */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 1);
    ASSERT_EQ(x[1], 2);
    /* The capture has ended: the outside record is the newest again. */
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclrtQueryEventStatus(e, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(back));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(joiner));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A capture records Ex events only (aclrtCreateEventExWithFlag; an
 * EXTERNAL event's record is the user's): a plain aclrtCreateEvent event
 * or a SYNC-flag event is refused with 207000 and the capture stays
 * active, twice over; a wait on such an event recorded outside is refused
 * the same way (api_impl.cc EventRecord, StreamWaitEvent). */
TEST(capture, a_capture_takes_ex_events_only)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent plain = NULL, flag = NULL, ex = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_OK(aclrtCreateEventWithFlag(&flag, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(plain, other));
    ASSERT_OK(aclrtRecordEvent(flag, other));
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC(aclrtRecordEvent(plain, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must come from aclrtCreateEventExWithFlag");
        ASSERT_RC(aclrtRecordEvent(flag, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_RC(aclrtStreamWaitEvent(s, plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_RC(aclrtStreamWaitEvent(s, flag), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    }
    ASSERT_OK(aclrtRecordEvent(ex, s));
    ASSERT_OK(aclrtStreamWaitEvent(s, ex)); /* recorded in this capture */
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyEvent(flag));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* Syncs, queries and destroys of a capturing stream, and queries, syncs
 * and timings of a captured event are refused (107027, 107028); the
 * capture goes on (api_error.cc refuses before the capture is touched). */
TEST(capture, capturing_stream_and_captured_event_refusals)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL, e2 = NULL;
    aclmdlRI m = NULL;
    aclrtStreamStatus st;
    aclrtEventRecordedStatus es;
    float ms;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtCreateEvent(&e2));
    ASSERT_OK(aclrtRecordEvent(e2, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_RC(aclrtQueryEventStatus(e, &es), ACL_ERROR_RT_EVENT_CAPTURED);
    ASSERT_RC(aclrtSynchronizeEvent(e), ACL_ERROR_RT_EVENT_CAPTURED);
    ASSERT_RC(aclrtEventElapsedTime(&ms, e2, e), ACL_ERROR_RT_EVENT_CAPTURED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtEventElapsedTime: argument 'event'");
    ASSERT_OK(aclrtQueryEventStatus(e2, &es)); /* recorded outside: fine */
    /* Refused without touching the capture (api_error.cc EventSynchronize,
     * EventQueryStatus, EventElapsedTime: 107028, no TerminateCapture). */
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclrtStreamQuery(s, &st), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyEvent(e2));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A sync or query of a capturing stream is refused (107027) and leaves the
 * capture active, however often: aclmdlRICaptureEnd then succeeds
 * (api_error.cc StreamSynchronize / StreamQuery return before the capture
 * is touched; only TerminateCapture invalidates). */
TEST(capture, sync_of_capturing_stream_refused_capture_stays_active)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclrtStreamStatus st;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_CAPTURED);
        ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
        ASSERT_RC(aclrtStreamQuery(s, &st), ACL_ERROR_RT_STREAM_CAPTURED);
        ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    }
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- capture modes from two threads ------------------------------------------------------ */

struct other_thread {
    aclrtContext ctx;
    void *dev;
    int mode;            /* the other thread's exchange mode before its copy */
    _Atomic int rc, done;
};

static void *unsafe_copy(void *p)
{
    struct other_thread *o = p;
    aclmdlRICaptureMode mode = (aclmdlRICaptureMode)o->mode;
    int64_t host = 1;
    if (aclrtSetCurrentContext(o->ctx) == ACL_SUCCESS && aclmdlRICaptureThreadExchangeMode(&mode) == ACL_SUCCESS)
        atomic_store(&o->rc, aclrtMemcpy(o->dev, 8, &host, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    atomic_store(&o->done, 1);
    return NULL;
}

/* Runs an unsafe copy in another thread whose own mode is `mode`. */
static aclError copy_in_other_thread(void *dev, int mode)
{
    static struct other_thread o;
    pthread_t th;
    memset(&o, 0, sizeof(o));
    ASSERT_OK(aclrtGetCurrentContext(&o.ctx));
    o.dev = dev;
    o.mode = mode;
    ASSERT_EQ(pthread_create(&th, NULL, unsafe_copy, &o), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    return atomic_load(&o.rc);
}

static aclError copy_here(void *dev)
{
    int64_t host = 1;
    return aclrtMemcpy(dev, 8, &host, 8, ACL_MEMCPY_HOST_TO_DEVICE);
}

TEST(capture, global_mode_forbids_unsafe_calls_in_every_thread)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    ASSERT_OK(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL)); /* not its capture */
    ASSERT_OK(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureThreadExchangeMode(&mode)); /* this thread: RELAXED */
    ASSERT_OK(copy_here(x));
    ASSERT_OK(aclmdlRICaptureThreadExchangeMode(&mode)); /* back to GLOBAL */
    /* Refusals leave the capture as it was (error_message_manage.hpp
     * CHECK_CAPTURE_MODE_SUPPORT_AND_RETURN: 107030, no TerminateCapture). */
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(copy_here(x)); /* no capture any more */
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A GLOBAL capture forbids unsafe calls in the threads of its own context
 * only: a thread of another context in GLOBAL mode makes them, and the
 * capture stays active (context_aclgraph.cc Context::IsCaptureModeSupport
 * reads the calling context's capture mode). */
TEST(capture, global_mode_counts_in_its_own_context_only)
{
    static struct other_thread o;
    aclrtContext a = NULL, b = NULL;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    pthread_t th;
    int64_t *x;
    t_setup();
    ASSERT_OK(aclrtCreateContext(&b, 0));
    ASSERT_OK(aclrtCreateContext(&a, 0)); /* current */
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    memset(&o, 0, sizeof(o));
    o.ctx = b;
    o.dev = x;
    o.mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    ASSERT_EQ(pthread_create(&th, NULL, unsafe_copy, &o), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&o.rc));
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_RC(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    ASSERT_OK(aclrtDestroyContext(a));
    ASSERT_OK(aclrtDestroyContext(b));
    t_teardown();
}

TEST(capture, thread_local_mode_forbids_only_the_capturing_thread)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    int64_t *x, host[2] = {1, 2};
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_OK(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclrtMemset(x, 8, 0, 8), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtMemset");
    ASSERT_RC(aclrtMemcpyAsync(x, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, s),
              ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC); /* pageable host memory */
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE); /* refusals leave it as it was */
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* An ACL_MEMCPY_DEFAULT async copy is read by where its pointers are: a
 * pageable host source (or destination) makes it as unsafe in capture as
 * a HOST_TO_DEVICE copy (107041), while device to device is captured. */
TEST(capture, a_default_async_copy_touching_pageable_host_memory_is_unsafe)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    int64_t *x, host[2] = {1, 2};
    t_setup();
    x = t_dev_i64(4);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_RC(aclrtMemcpyAsync(x, 16, host, 16, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    ASSERT_RC(aclrtMemcpyAsync(host, 16, x, 16, ACL_MEMCPY_DEFAULT, s), ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    ASSERT_OK(aclrtMemcpyAsync(x + 2, 16, x, 16, ACL_MEMCPY_DEFAULT, s));
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

struct end_call {
    aclrtContext ctx;
    aclrtStream s;
    aclmdlRI m;
    _Atomic int rc;
};

static void *end_elsewhere(void *p)
{
    struct end_call *c = p;
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS)
        atomic_store(&c->rc, aclmdlRICaptureEnd(c->s, &c->m));
    return NULL;
}

/* RELAXED: unsafe calls go on everywhere, the capture stays valid, and
 * another thread may end it; other modes must end in the thread that began. */
TEST(capture, relaxed_mode_and_the_ending_thread)
{
    static struct end_call c;
    pthread_t th;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    ASSERT_OK(aclrtCreateStream(&c.s));
    ASSERT_OK(aclmdlRICaptureBegin(c.s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_EQ(pthread_create(&th, NULL, end_elsewhere, &c), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(atomic_load(&c.rc), ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    ASSERT_OK(aclmdlRICaptureEnd(c.s, &c.m));
    ASSERT_OK(aclmdlRIDestroy(c.m));
    ASSERT_OK(aclmdlRICaptureBegin(c.s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(copy_here(x));
    ASSERT_OK(copy_in_other_thread(x, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    t_launch_add(x, 2, c.s);
    ASSERT_EQ(pthread_create(&th, NULL, end_elsewhere, &c), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_OK(aclmdlRIExecuteAsync(c.m, c.s));
    ASSERT_OK(aclrtSynchronizeStream(c.s));
    ASSERT_EQ(x[0], 3);
    ASSERT_OK(aclmdlRIDestroy(c.m));
    ASSERT_OK(aclrtDestroyStream(c.s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- task groups and updates ----------------------------------------------------------------- */

/* The vendor's 1_model_update flow: the model waits on an EXTERNAL event
 * before a task group; an update issued on another stream swaps the
 * group's kernel, and the record after it releases the model's wait. */
TEST(capture, task_group_update_between_replays)
{
    aclrtStream s = NULL, upd = NULL;
    aclrtEvent ev = NULL;
    aclrtTaskGrp grp = NULL;
    aclmdlRI m = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&upd));
    ASSERT_OK(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclrtStreamWaitEvent(s, ev));
    ASSERT_OK(aclrtResetEvent(ev, s));
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    ASSERT_RC(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_RC(aclrtMemsetAsync(x, 8, 0, 8, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT); /* kernels only */
    t_launch_add(x, 10, s);
    ASSERT_OK(aclmdlRICaptureTaskGrpEnd(s, &grp));
    ASSERT_RC(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(upd, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS); /* capture not ended */
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    /* Run 1: the original group (x += 1 + 10). */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtRecordEvent(ev, upd));
    ASSERT_OK(aclrtSynchronizeStream(upd));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 11);
    /* Run 2: updated on upd before the record that lets it go on. */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(upd, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    t_launch_add(x, 1000, upd); /* recorded as the replacement, not run */
    ASSERT_OK(aclmdlRICaptureTaskUpdateEnd(upd));
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_OK(aclrtRecordEvent(ev, upd));
    ASSERT_OK(aclrtSynchronizeStream(upd));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 11 + 1 + 1000);
    /* A mismatched update is refused and changes nothing. */
    ASSERT_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
    t_launch_add(x, 1, upd);
    t_launch_add(x, 1, upd);
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(upd), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtRecordEvent(ev, upd));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 1012 + 1 + 1000);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(upd, grp), ACL_ERROR_RT_INVALID_HANDLE); /* gone with its model */
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(upd));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(capture, task_group_needs_a_capturing_stream)
{
    aclrtStream s = NULL;
    aclrtTaskGrp g = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclmdlRICaptureTaskGrpBegin(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclmdlRICaptureTaskGrpEnd(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureTaskGrpEnd(s, &g), ACL_ERROR_RT_STREAM_NOT_CAPTURED); /* before the group's state */
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(s, (aclrtTaskGrp)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The order of the capture calls' checks (model_ri.cpp: the acl layer's
 * NULLs; api_c_standard_soc.cc rtStreamBeginCapture / rtStreamEndCapture:
 * the SoC, then the handle; api_error_aclgraph.cc: the mode, the stream's
 * kind (507000), task groups on a capturing stream (107029), updates on
 * a plain stream (107027, 107005); api_impl_aclgraph.cc: the stream's
 * context (107003), a model's stream (107005), the default stream
 * (207000); aclmdlRICaptureEnd's NULL modelRI is 107000, and only while
 * the stream is capturing; refusals leave the capture as it was. */
TEST(capture, checks_in_the_reference_order)
{
    aclrtContext a = NULL, b = NULL;
    aclrtStream s = NULL, stale = NULL, dev_only = NULL, p = NULL, other_ctx = NULL;
    aclmdlRI m = NULL, built = NULL;
    aclrtTaskGrp g = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateContext(&a, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&stale));
    ASSERT_OK(aclrtDestroyStream(stale));
    ASSERT_OK(aclrtCreateStreamWithConfig(&dev_only, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateContext(&b, 0));
    ASSERT_OK(aclrtCreateStream(&other_ctx));
    ASSERT_OK(aclrtSetCurrentContext(a));
    /* Begin: handle before mode, mode before the stream's kind and context. */
    ASSERT_RC(aclmdlRICaptureBegin(stale, (aclmdlRICaptureMode)7), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRICaptureBegin(dev_only, (aclmdlRICaptureMode)7), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRICaptureBegin(dev_only, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRICaptureBegin: argument 'stream'");
    ASSERT_RC(aclmdlRICaptureBegin(other_ctx, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclmdlRICaptureEnd(other_ctx, &m), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclmdlRICaptureTaskGrpBegin(other_ctx), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclmdlRICaptureEnd(dev_only, &m), ACL_ERROR_RT_INTERNAL_ERROR);
    /* End: a NULL modelRI of a capturing stream; the capture goes on. */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclmdlRICaptureEnd(s, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRICaptureEnd: argument 'modelRI' is NULL");
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    /* Updates: not on a capturing stream, not on a model's stream; a NULL
     * stream is the acl layer's 100000, not the default stream. */
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(NULL, (aclrtTaskGrp)0x1234), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(s, (aclrtTaskGrp)0x1234), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    t_launch_add(t_dev_i64(1), 1, s);
    ASSERT_OK(aclmdlRICaptureTaskGrpEnd(s, &g));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIBuildBegin(&built, 0));
    ASSERT_OK(aclmdlRIBindStream(built, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(p, g), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_RC(aclmdlRICaptureTaskUpdateEnd(p), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_RC(aclmdlRICaptureTaskUpdateBegin(other_ctx, g), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclmdlRIDestroy(built));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(dev_only));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtSetCurrentContext(b));
    ASSERT_OK(aclrtDestroyStream(other_ctx));
    ASSERT_OK(aclrtDestroyContext(b));
    ASSERT_OK(aclrtDestroyContext(a));
    t_teardown();
}

/* A capturing stream's wait on an event recorded in another capture under
 * way is 107032 and invalidates both captures (api_impl_capture_event.cc
 * ApiImpl::CaptureEventWait: IsCrossCaptureModel ->
 * RT_ERROR_STREAM_CAPTURE_CONFLICT; ApiImpl::StreamWaitEvent then calls
 * TerminateCapture, capture_model_utils.cc, which ends both). */
TEST(capture, wait_across_two_captures_invalidates_both)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_RC(aclrtStreamWaitEvent(s2, e), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamWaitEvent");
    ASSERT_EQ(status_of(s1, NULL), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    ASSERT_RC(aclmdlRICaptureEnd(s2, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* Capture into an empty model from aclmdlRIBuildBegin. */
TEST(capture, capture_into_an_existing_model)
{
    aclrtStream s = NULL, p = NULL;
    aclmdlRI b = NULL, m = NULL, full = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&full, 0));
    ASSERT_OK(aclmdlRIBindStream(full, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclmdlRICaptureToModelRIBegin(NULL, b, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureToModelRIBegin(s, NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICaptureToModelRIBegin(s, full, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(s, b, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    t_launch_add(x, 3, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT(m == b);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 3);
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclmdlRIDestroy(full));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* An external record (Ex event, exactly SYNC) is made by every replay. */
TEST(capture, external_record_is_made_by_each_replay)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent ex = NULL, plain = NULL;
    aclmdlRI m = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_RC(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclrtRecordEventWithFlag(plain, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtQueryEventStatus(ex, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* A captured model's external record is issued when aclmdlRIExecuteAsync
 * is called (capture_model.cc CaptureModel::PreModelExecute ->
 * CommitExternalEventRecords): a plain wait issued afterwards on another
 * stream waits for that run's record, even while the run cannot start yet
 * (its stream is held by a gate), and the event reads "recorded, not
 * complete" until the run has made it. Every run issues its own. */
TEST(capture, external_record_is_issued_with_the_run_and_a_later_wait_elsewhere_waits_for_it)
{
    aclrtStream g = NULL, other = NULL;
    aclrtEvent ex = NULL;
    aclmdlRI m = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    struct t_gate gate = {0};
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&g));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(g, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(x, 1, g);
    ASSERT_OK(aclrtRecordEventWithFlag(ex, g, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(g, &m));
    for (int run = 0; run < 2; run++) {
        atomic_store(&gate.open, 0);
        t_launch_gate(&gate, g); /* the run cannot start until the gate opens */
        ASSERT_OK(aclmdlRIExecuteAsync(m, g));
        ASSERT_OK(aclrtQueryEventStatus(ex, &st));
        ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY); /* the run's record, not made yet */
        ASSERT_OK(aclrtStreamWaitEvent(other, ex));
        launch_mad(x, 2, other);
        {
            aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
            ASSERT_OK(aclrtStreamQuery(other, &ss));
            ASSERT_EQ(ss, ACL_STREAM_STATUS_NOT_READY); /* parked on the run's record */
        }
        atomic_store(&gate.open, 1);
        ASSERT_OK(aclrtSynchronizeStream(other));
        ASSERT_OK(aclrtQueryEventStatus(ex, &st));
        ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    }
    ASSERT_OK(aclrtSynchronizeStream(g));
    ASSERT_EQ(x[0], (((0 * 3 + 1) * 3 + 2) * 3 + 1) * 3 + 2); /* model, other, model, other */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyStream(g));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A captured model's external wait waits for the event's newest record
 * when the run is issued (capture_model.cc PrepareExternalWaitsForReplay,
 * RetainRecordedEventForExternalWait): a record queued behind a gate holds
 * the run; a run issued when the event was never recorded does not wait,
 * whatever is recorded later. */
TEST(capture, external_wait_waits_for_the_newest_record_at_the_run)
{
    aclrtStream g = NULL, other = NULL;
    aclrtEvent ex = NULL;
    aclmdlRI m = NULL;
    aclrtStreamStatus ss = ACL_STREAM_STATUS_COMPLETE;
    struct t_gate gate = {0};
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&g));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(g, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtStreamWaitEventWithFlag(g, ex, 0, ACL_EVENT_WAIT_EXTERNAL));
    launch_mad(x, 1, g);
    ASSERT_OK(aclmdlRICaptureEnd(g, &m));
    /* Never recorded at the run: it passes. */
    ASSERT_OK(aclmdlRIExecuteAsync(m, g));
    ASSERT_OK(aclrtSynchronizeStream(g));
    ASSERT_EQ(x[0], 1);
    /* Recorded behind a gate: the run waits for that record. */
    t_launch_gate(&gate, other);
    launch_mad(x, 2, other);
    ASSERT_OK(aclrtRecordEvent(ex, other));
    ASSERT_OK(aclmdlRIExecuteAsync(m, g));
    ASSERT_OK(aclrtStreamQuery(g, &ss));
    ASSERT_EQ(ss, ACL_STREAM_STATUS_NOT_READY);
    atomic_store(&gate.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(g));
    ASSERT_EQ(x[0], (1 * 3 + 2) * 3 + 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyStream(g));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* The external record and wait rules: an Ex event with exactly
 * ACL_EVENT_SYNC (207000, checked first), a capturing stream (107029; a
 * stream bound to a model being built: 207000), and per model one
 * external record and one external wait of an event, not both (107000);
 * none of these refusals touches the capture (api_error.cc
 * ApiErrorDecorator::EventRecord / StreamWaitEvent; api_impl.cc
 * ApiImpl::EventRecord / StreamWaitEvent; capture_model.cc
 * CaptureModel::CheckExternalEventConstraints). */
TEST(capture, external_record_and_wait_rules)
{
    aclrtStream s = NULL, p = NULL;
    aclrtEvent ex = NULL, ex2 = NULL, exflag = NULL, flag = NULL;
    aclmdlRI m = NULL, b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex2, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&exflag, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));
    ASSERT_OK(aclrtCreateEventWithFlag(&flag, ACL_EVENT_SYNC));
    /* Not capturing. */
    ASSERT_RC(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEventWithFlag");
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, ex, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    /* The event's kind comes first. */
    ASSERT_RC(aclrtRecordEventWithFlag(flag, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, exflag, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* A stream bound to a model being built. */
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBindStream(b, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtRecordEventWithFlag(ex, p, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(p, ex, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* Once per model, and not both. */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_RC(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "once per model");
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, ex, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtStreamWaitEventWithFlag(s, ex2, 0, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, ex2, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtRecordEventWithFlag(ex2, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyEvent(ex2));
    ASSERT_OK(aclrtDestroyEvent(exflag));
    ASSERT_OK(aclrtDestroyEvent(flag));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
}

/* An event's records all use one flag, and so do its waits, the first
 * call's: a plain record then an external one (or the reverse) is 107000,
 * and so is a plain wait then an external one; the event's kind is checked
 * first (207000); the capture goes on (api_error.cc
 * ApiErrorDecorator::EventRecord / StreamWaitEvent: GetRecordFlag,
 * GetWaitFlag). */
TEST(capture, an_events_records_and_waits_keep_one_flag)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent rec = NULL, wait = NULL, ext = NULL, plain = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventExWithFlag(&rec, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&wait, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ext, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventWithFlag(&plain, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(rec, other));
    ASSERT_OK(aclrtStreamWaitEvent(other, wait)); /* never recorded: nothing queued, the flag is pinned */
    ASSERT_OK(aclrtRecordEvent(plain, other));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtRecordEventWithFlag(rec, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEventWithFlag: argument 'flag' (1): every record of one "
                        "event takes the flag its first one took (0)");
    ASSERT_RC(aclrtStreamWaitEventWithFlag(s, wait, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtRecordEventWithFlag(plain, s, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtRecordEventWithFlag(ext, s, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_EQ(status_of(s, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_RC(aclrtRecordEvent(ext, other), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRecordEvent: argument 'flag' (0): every record of one event "
                        "takes the flag its first one took (1)");
    ASSERT_OK(aclrtStreamWaitEvent(other, ext)); /* waits keep their own flag */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(rec));
    ASSERT_OK(aclrtDestroyEvent(wait));
    ASSERT_OK(aclrtDestroyEvent(ext));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* ---- property test: eager and replayed give the same results -------------------------------- */

enum { PROG_OPS = 60, PROG_STREAMS = 3, PROG_INPUTS = 3, PROG_SEEDS = 25 };

/* out = (in0 + in1 + in2) * 31 + salt, over int64 slots. */
static void k_node(void *args)
{
    int64_t *const *p = args;
    int64_t salt = ((const int64_t *)args)[PROG_INPUTS + 1];
    uint64_t sum = 0; /* unsigned: the values wrap */
    /* Busy for 0..39 us, so that lanes really interleave on the workers
     * and a missing edge shows as a wrong result. */
    uint64_t until = t_now_ns() + (uint64_t)((salt * 7919) % 40) * 1000u;
    while (t_now_ns() < until)
        ;
    for (int i = 0; i < PROG_INPUTS; i++)
        sum += p[i] != NULL ? (uint64_t)*p[i] : 0;
    *p[PROG_INPUTS] = (int64_t)(sum * 31 + (uint64_t)salt);
}

struct program {
    int stream[PROG_OPS];
    int input[PROG_OPS][PROG_INPUTS]; /* earlier ops, or -1 */
};

static uint32_t rnd(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void make_program(struct program *p, uint32_t seed)
{
    for (int i = 0; i < PROG_OPS; i++) {
        p->stream[i] = (int)(rnd(&seed) % PROG_STREAMS);
        for (int k = 0; k < PROG_INPUTS; k++)
            p->input[i][k] = i > 0 && rnd(&seed) % 3 != 0 ? (int)(rnd(&seed) % (uint32_t)i) : -1;
    }
}

/* k_node, its accesses declared to the race checker: each input slot
 * read, the output slot written (8 bytes each), so that nodes writing
 * different slots of one buffer are not taken for a race. */
static aclrtFuncHandle node_kernel(void)
{
    aclrtFuncHandle k = t_kernel("cap_node", k_node);
    for (uint32_t i = 0; i < PROG_INPUTS; i++)
        ASSERT_OK(aclcpuCheckDeclareArg(k, i, ACLCPU_CHECK_READ, sizeof(int64_t), -1));
    ASSERT_OK(aclcpuCheckDeclareArg(k, PROG_INPUTS, ACLCPU_CHECK_WRITE, sizeof(int64_t), -1));
    return k;
}

/* Issues the program: op i on its stream, after waiting on an event
 * recorded after each input made on another stream. Streams fork from and
 * join back into stream 0, so the same calls can be captured. */
static void issue_program(const struct program *p, aclrtStream *st, aclrtEvent *done, aclrtEvent *fork,
                          int64_t *slot)
{
    ASSERT_OK(aclrtRecordEvent(fork[0], st[0]));
    for (int k = 1; k < PROG_STREAMS; k++)
        ASSERT_OK(aclrtStreamWaitEvent(st[k], fork[0]));
    for (int i = 0; i < PROG_OPS; i++) {
        aclrtStream s = st[p->stream[i]];
        struct {
            int64_t *in[PROG_INPUTS];
            int64_t *out;
            int64_t salt;
        } a;
        for (int k = 0; k < PROG_INPUTS; k++) {
            int j = p->input[i][k];
            a.in[k] = j >= 0 ? &slot[j] : NULL;
            if (j >= 0 && p->stream[j] != p->stream[i])
                ASSERT_OK(aclrtStreamWaitEvent(s, done[j]));
        }
        a.out = &slot[i];
        a.salt = i + 1;
        ASSERT_OK(aclrtLaunchKernel(node_kernel(), 1, &a, sizeof(a), s));
        ASSERT_OK(aclrtRecordEvent(done[i], s));
    }
    for (int k = 1; k < PROG_STREAMS; k++) {
        ASSERT_OK(aclrtRecordEvent(fork[k], st[k]));
        ASSERT_OK(aclrtStreamWaitEvent(st[0], fork[k]));
    }
}

TEST(capture, random_programs_give_the_same_results_eager_and_replayed)
{
    static struct program p;
    static int64_t eager[PROG_OPS];
    aclrtStream st[PROG_STREAMS];
    aclrtEvent done[PROG_OPS], fork[PROG_STREAMS];
    int64_t *slot;
    t_setup();
    slot = t_dev_i64(PROG_OPS);
    for (int k = 0; k < PROG_STREAMS; k++) {
        ASSERT_OK(aclrtCreateStream(&st[k]));
        ASSERT_OK(aclrtCreateEventExWithFlag(&fork[k], ACL_EVENT_SYNC));
    }
    for (int i = 0; i < PROG_OPS; i++)
        ASSERT_OK(aclrtCreateEventExWithFlag(&done[i], ACL_EVENT_SYNC));
    for (uint32_t seed = 1; seed <= PROG_SEEDS; seed++) {
        aclmdlRI m = NULL;
        make_program(&p, seed);
        memset(slot, 0, PROG_OPS * sizeof(int64_t));
        issue_program(&p, st, done, fork, slot);
        ASSERT_OK(aclrtSynchronizeDevice());
        memcpy(eager, slot, sizeof(eager));
        memset(slot, 0, PROG_OPS * sizeof(int64_t));
        ASSERT_OK(aclmdlRICaptureBegin(st[0], ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        issue_program(&p, st, done, fork, slot);
        ASSERT_OK(aclmdlRICaptureEnd(st[0], &m));
        for (int i = 0; i < PROG_OPS; i++)
            ASSERT_EQ(slot[i], 0); /* recorded only */
        for (int run = 0; run < 2; run++) {
            ASSERT_OK(aclmdlRIExecuteAsync(m, st[run % PROG_STREAMS]));
            ASSERT_OK(aclrtSynchronizeStream(st[run % PROG_STREAMS]));
            for (int i = 0; i < PROG_OPS; i++)
                if (slot[i] != eager[i])
                    test_fail(__FILE__, __LINE__, "seed %u run %d: op %d gave %lld replayed, %lld eagerly", seed, run,
                              i, (long long)slot[i], (long long)eager[i]);
            memset(slot, 0, PROG_OPS * sizeof(int64_t));
        }
        ASSERT_OK(aclmdlRIDestroy(m));
    }
    for (int i = 0; i < PROG_OPS; i++)
        ASSERT_OK(aclrtDestroyEvent(done[i]));
    for (int k = 0; k < PROG_STREAMS; k++) {
        ASSERT_OK(aclrtDestroyEvent(fork[k]));
        ASSERT_OK(aclrtDestroyStream(st[k]));
    }
    ASSERT_OK(aclrtFree(slot));
    t_teardown();
}

static void k_noop_args(void *args) { (void)args; }

/* Begins an update on a new stream, collects two kernels (one with an
 * argument copy on the heap) and destroys the stream before UpdateEnd. */
static void update_then_destroy(aclrtTaskGrp grp, int64_t *x)
{
    aclrtStream upd = NULL;
    int64_t big[40] = {0}; /* over the inline size: the argument copy is on the heap */
    ASSERT_OK(aclrtCreateStream(&upd));
    ASSERT_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
    t_launch_add(x, 1000, upd);
    ASSERT_OK(aclrtLaunchKernel(t_kernel("cap_noop_big", k_noop_args), 1, big, sizeof(big), upd));
    ASSERT_OK(aclrtDestroyStream(upd));
}

/* Issue 17: a stream destroyed between aclmdlRICaptureTaskUpdateBegin and
 * ...UpdateEnd drops the update it was collecting; the group and the model
 * are untouched. Checked by the heap's growth over many rounds (after a
 * warm-up, a round allocates nothing it keeps); sanitizer allocators report
 * no figures, and LSan checks there. */
TEST(capture, destroying_an_updating_stream_frees_the_update)
{
    aclrtStream s = NULL;
    aclrtTaskGrp grp = NULL;
    aclmdlRI m = NULL;
    size_t before;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRICaptureTaskGrpEnd(s, &grp));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    for (int i = 0; i < 20; i++)
        update_then_destroy(grp, x);
    before = mallinfo2().uordblks;
    for (int i = 0; i < 200; i++) /* a leak keeps over 360 bytes a round; ~90 is noise */
        update_then_destroy(grp, x);
    ASSERT(mallinfo2().uordblks < before + 200 * 200);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 1); /* the group keeps its kernel */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* The second product without capture: the Atlas 200I/500 A2 (Ascend310B1)
 * refuses it as the training products do. */
TEST(capture, not_on_200i_500_a2)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310B1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend310B1");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A context destroyed while one of its streams captures frees the capture's
 * model with it: the events recorded in the capture are let go first, and
 * the model's list of them only after (ASan: no read of freed memory). */
TEST(capture, model_freed_with_its_context_mid_capture_lets_its_events_go_first)
{
    aclrtContext home = NULL, doomed = NULL;
    aclrtStream s = NULL;
    aclrtEvent ev[10];
    aclrtEventRecordedStatus st;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&home));
    ASSERT_OK(aclrtCreateContext(&doomed, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 10; i++) /* a capture records Ex events with SYNC */
        ASSERT_OK(aclrtCreateEventExWithFlag(&ev[i], ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < 10; i++) /* more than the first room for them: the list grows */
        ASSERT_OK(aclrtRecordEvent(ev[i], s));
    ASSERT_OK(aclrtDestroyContext(doomed));
    ASSERT_OK(aclrtSetCurrentContext(home));
    for (int i = 0; i < 10; i++) /* went with their context */
        ASSERT_RC(aclrtQueryEventStatus(ev[i], &st), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* A CPU_SCHEDULE stream is not captured, as a DEVICE_USE_ONLY one is not
 * (507000, api_impl_aclgraph.cc StreamBeginCapture). */
TEST(capture, a_cpu_schedule_stream_is_not_captured)
{
    aclrtStream c = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&c, 0, ACL_STREAM_CPU_SCHEDULE));
    ASSERT_RC(aclmdlRICaptureBegin(c, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "CPU_SCHEDULE");
    ASSERT_OK(aclrtDestroyStream(c));
    t_teardown();
}

/* ---- sweep 4: who may join a capture, and which lane is reported unjoined --------------------- */

/* A CPU_SCHEDULE stream cannot join a capture by waiting on an event
 * recorded in it (as PERSISTENT and DEVICE_USE_ONLY streams); the
 * capture goes on without it. */
TEST(capture, a_cpu_schedule_stream_cannot_join_a_capture)
{
    aclrtStream s = NULL, cpu = NULL;
    aclrtEvent fork = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&cpu, 0, ACL_STREAM_CPU_SCHEDULE));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s));
    ASSERT_RC(aclrtStreamWaitEvent(cpu, fork), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "cannot join a capture");
    ASSERT_EQ(status_of(cpu, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyStream(cpu));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The default stream never joins a capture: its wait on an event recorded
 * in one is refused with 107024 (api_impl.cc StreamWaitEvent). */
TEST(capture, the_default_stream_cannot_join_a_capture)
{
    aclrtStream s = NULL;
    aclrtEvent fork = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s));
    ASSERT_RC(aclrtStreamWaitEvent(NULL, fork), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "the default stream");
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A lane is joined back only through a wait of a lane that is itself
 * joined: s3's end is waited on by s2, which never joins back, so s3 is
 * unjoined too - and, joined to the capture before s2, it is the stream
 * the failure names. */
TEST(capture, a_wait_of_an_unjoined_stream_does_not_join_the_stream_it_waits_on)
{
    aclrtStream s1 = NULL, s2 = NULL, s3 = NULL;
    aclrtEvent fork = NULL, e3 = NULL;
    aclmdlRI m = NULL;
    int32_t id3 = -1;
    char want[64];
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&s3));
    ASSERT_OK(aclrtStreamGetId(s3, &id3));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e3, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s3, fork)); /* s3 joins first */
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
    ASSERT_OK(aclrtRecordEvent(e3, s3));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e3));
    t_launch_add(x, 1, s2);
    ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    snprintf(want, sizeof(want), "stream %d joined the capture", id3);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), want);
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(e3));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

static void sw4_callback(void *arg) { (void)arg; }

/* A model holds no aclrtLaunchCallback task: on a capturing stream (with
 * a subscribed thread, so the call gets that far) it is refused 507009
 * naming the rule, and the capture is not invalidated by it. */
TEST(capture, a_host_callback_cannot_be_captured)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    uint64_t me = (uint64_t)pthread_self();
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSubscribeReport(me, s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclrtLaunchCallback(sw4_callback, NULL, ACL_CALLBACK_NO_BLOCK, s), ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "a model cannot hold aclrtLaunchCallback tasks");
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtUnSubscribeReport(me, s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A flag (EXTERNAL) event recorded in a captured model is set by each
 * replay: reset between two runs, the second run's record sets it again,
 * so a stream wait issued after that run passes. */
TEST(capture, a_second_replay_sets_again_a_flag_event_reset_since_the_first)
{
    aclrtStream s = NULL, exec = NULL, other = NULL;
    aclrtEvent ev = NULL;
    aclmdlRI m = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventWithFlag(&ev, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclrtRecordEvent(ev, s));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_OK(aclrtStreamWaitEvent(other, ev)); /* set by run 1 */
    ASSERT_OK(aclrtResetEvent(ev, other));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(other, 10000));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 2);
    ASSERT_OK(aclrtStreamWaitEvent(other, ev)); /* set again by run 2 */
    t_launch_add(x, 10, other);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(other, 10000));
    ASSERT_EQ(x[0], 12);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- joins back through a chain of streams ------------------------------------------- */

/* s3 is joined back through s2, which is joined back through the origin:
 * the chain is found whatever the order of the waits (s2 waited on s3
 * before s1 waited on s2), and the run does s3's work before s2's. */
TEST(capture, a_stream_joined_back_through_a_chain_of_streams_is_joined)
{
    aclrtStream s1 = NULL, s2 = NULL, s3 = NULL;
    aclrtEvent fork = NULL, e2 = NULL, e3 = NULL;
    aclmdlRI m = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&s3));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e2, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e3, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtRecordEvent(fork, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s3, fork));
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
    launch_mad(x, 1, s3);
    ASSERT_OK(aclrtRecordEvent(e3, s3));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e3)); /* s2 waits on s3 first ... */
    launch_mad(x, 2, s2);
    ASSERT_OK(aclrtRecordEvent(e2, s2));
    ASSERT_OK(aclrtStreamWaitEvent(s1, e2)); /* ... and only then the origin on s2 */
    ASSERT_OK(aclmdlRICaptureEnd(s1, &m));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_EQ(x[0], (0 * 3 + 1) * 3 + 2); /* s3's, then s2's */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(e2));
    ASSERT_OK(aclrtDestroyEvent(e3));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- sweep 5 (issue 19): a model reused after a failed capture into it ---------------- */

/* A capture into a model (aclmdlRICaptureToModelRIBegin) that fails at its
 * end (a joined stream never joined back) gives the model back empty: its
 * lanes, edges and external records go, and the next capture into it makes
 * a model of that capture's tasks only. Twice, so a count left from the
 * first failure shows in the second. */
TEST(capture, a_model_a_failed_capture_went_into_is_empty_for_the_next)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent fork = NULL, ext = NULL;
    aclmdlRI b = NULL, m = NULL;
    uint32_t nstreams = 0;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ext, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    for (int round = 0; round < 2; round++) {
        ASSERT_OK(aclmdlRICaptureToModelRIBegin(s1, b, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
        t_launch_add(x, 100, s1);
        ASSERT_OK(aclrtRecordEventWithFlag(ext, s1, ACL_EVENT_RECORD_EXTERNAL));
        ASSERT_OK(aclrtRecordEvent(fork, s1));
        ASSERT_OK(aclrtStreamWaitEvent(s2, fork));
        t_launch_add(x, 1000, s2);
        ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
        ASSERT_EQ(status_of(s1, NULL), ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    }
    /* The same external record again: the failed captures' went with them. */
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(s1, b, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 3, s1);
    ASSERT_OK(aclrtRecordEventWithFlag(ext, s1, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(s1, &m));
    ASSERT(m == b);
    ASSERT_OK(aclmdlRIGetStreams(m, NULL, &nstreams));
    ASSERT_EQ(nstreams, 1u); /* s1's lane only */
    ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_EQ(x[0], 3);
    ASSERT_OK(aclrtSynchronizeEvent(ext));
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(ext));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A task group still open when its capture ends ends with it: the stream's
 * next capture opens a group of its own (the old one is no longer open on
 * the stream), and that group counts only its own tasks. */
TEST(capture, a_task_group_open_at_the_capture_end_is_closed_with_it)
{
    aclrtStream s = NULL, upd = NULL;
    aclmdlRI m1 = NULL, m2 = NULL;
    aclrtTaskGrp grp = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&upd));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m1)); /* the group is still open */
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    t_launch_add(x, 10, s);
    ASSERT_OK(aclmdlRICaptureTaskGrpEnd(s, &grp));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m2));
    /* One task in the group: an update of one task matches it. */
    ASSERT_OK(aclmdlRICaptureTaskUpdateBegin(upd, grp));
    t_launch_add(x, 100, upd);
    ASSERT_OK(aclmdlRICaptureTaskUpdateEnd(upd));
    ASSERT_OK(aclrtSynchronizeStream(upd));
    ASSERT_OK(aclmdlRIExecuteAsync(m2, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 100);
    ASSERT_OK(aclmdlRIDestroy(m1));
    ASSERT_OK(aclmdlRIDestroy(m2));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(upd));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A capture invalidated twice keeps the first reason: its end reports the
 * wait that invalidated it first, not a later one. */
TEST(capture, an_invalidated_capture_reports_its_first_reason)
{
    aclrtStream s1 = NULL, s2 = NULL, s3 = NULL;
    aclrtEvent e1 = NULL, e3 = NULL;
    aclmdlRI m = NULL;
    int32_t id1 = -1, id3 = -1;
    char first[64], later[64], end_msg[512];
    const char *msg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&s3));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e1, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e3, ACL_EVENT_SYNC));
    /* An Ex event has no event id to read; messages name it by its slot,
     * which is the handle's low 32 bits (handle.c obj_handle). */
    id1 = (int32_t)(uint32_t)(uintptr_t)e1;
    id3 = (int32_t)(uint32_t)(uintptr_t)e3;
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureBegin(s3, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordEvent(e1, s1));
    ASSERT_OK(aclrtRecordEvent(e3, s3));
    ASSERT_RC(aclrtStreamWaitEvent(s2, e1), ACL_ERROR_STREAM_CAPTURE_CONFLICT); /* s2's first reason */
    ASSERT_RC(aclrtStreamWaitEvent(s2, e3), ACL_ERROR_STREAM_CAPTURE_CONFLICT); /* a second one */
    ASSERT_RC(aclmdlRICaptureEnd(s2, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    snprintf(first, sizeof(first), "waits on event %d,", id1);
    snprintf(later, sizeof(later), "waits on event %d,", id3);
    /* Read once (a read clears it); its first line is the end's message
     * (the lines after it are the refused waits'). */
    msg = aclGetRecentErrMsg();
    ASSERT(msg != NULL);
    snprintf(end_msg, sizeof(end_msg), "%s", msg);
    end_msg[strcspn(end_msg, "\n")] = '\0';
    ASSERT_STR_CONTAINS(end_msg, first);
    ASSERT(strstr(end_msg, later) == NULL);
    ASSERT_RC(aclmdlRICaptureEnd(s1, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    ASSERT_RC(aclmdlRICaptureEnd(s3, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    ASSERT_OK(aclrtDestroyEvent(e1));
    ASSERT_OK(aclrtDestroyEvent(e3));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    t_teardown();
}

/* An event whose newest record was made in a capture that has ended (its
 * model's record, never a record of the event itself) is recorded outside
 * a new capture: a wait on it there is refused (the capture goes on), not
 * dropped as a wait on a never-recorded event would be. */
TEST(capture, a_wait_on_an_event_last_recorded_in_an_ended_capture_is_refused)
{
    aclrtStream s1 = NULL, s2 = NULL;
    aclrtEvent e = NULL;
    aclmdlRI m1 = NULL, m2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclmdlRICaptureEnd(s1, &m1));
    ASSERT_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtStreamWaitEvent(s2, e), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    ASSERT_EQ(status_of(s2, NULL), ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    ASSERT_OK(aclmdlRICaptureEnd(s2, &m2));
    ASSERT_OK(aclmdlRIDestroy(m1));
    ASSERT_OK(aclmdlRIDestroy(m2));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}
