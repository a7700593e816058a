/*
 * test_checks.c - the order of argument checks, and the §6/§5 validation
 * rows no other suite pins.
 *
 * Rules: spec/acl-api.md §5 (per-API checks, "[acl] checks first, then
 * [rt]"), §6 (summary table), §4 (context requirement, handle validation);
 * DESIGN "Errors and handles" (every failure leaves a message naming the
 * function for aclGetRecentErrMsg).
 *
 * An order test makes two things wrong at once and asserts the code of the
 * check that must answer first. Where the spec only lists checks without
 * saying which comes first, the test avoids the combination (or says which
 * reading it pins, and why). Capture, model, StreamStop, PersistentTaskClean
 * and Active/SwitchStream rows live with those features' own suites.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "test.h"

#define BAD ((void *)(uintptr_t)0x1234)
#define BAD_TYPE ((aclrtDevResLimitType)2)

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* aclrtQueryEvent is still part of the contract */

static void cb_nop(void *arg) { (void)arg; }

/* Runs call, which must fail with code, and checks that the message it
 * left names fn ("fn:" so that a longer name sharing the prefix does not
 * pass for it). Clears older messages first. */
#define ASSERT_FAILS_NAMING(call, code, fn)                                                                    \
    do {                                                                                                       \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), fn ":");                                                     \
    } while (0)

/* A stream made in a second context of device 0; the primary context is
 * current again on return. */
static aclrtStream foreign_stream(aclrtContext *other)
{
    aclrtContext mine = NULL;
    aclrtStream s = NULL;
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(other, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    return s;
}

/* ---- [acl] checks answer before the context check (§5 legend, §4) ----------------- */

TEST(checks, stream_acl_checks_before_context)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateStreamWithConfig(NULL, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateStreamV2(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
    /* t < -1 is an [acl] check of the timed syncs (107000, not 100000). */
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(BAD, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtLaunchCallback(cb_nop, NULL, (aclrtCallbackBlockType)2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclFinalize());
}

TEST(checks, event_acl_checks_before_context)
{
    aclrtEventRecordedStatus rs;
    aclrtEventWaitStatus ws;
    aclrtEventStatus es;
    float ms;
    uint64_t ts;
    uint32_t id;

    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtRecordEventWithFlag(NULL, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEventWithFlag(BAD, NULL, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtResetEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, 100), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, BAD, 0, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, BAD, 1, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, BAD, -1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtQueryEventStatus(NULL, &rs), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventStatus(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventWaitStatus(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEventWaitStatus(NULL, &ws), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEvent(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtQueryEvent(NULL, &es), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventElapsedTime(NULL, BAD, BAD), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventElapsedTime(&ms, BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventGetTimestamp(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtEventGetTimestamp(NULL, &ts), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetEventId(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetEventId(NULL, &id), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclFinalize());
}

TEST(checks, memory_acl_checks_before_context)
{
    char host[8] = {0};
    void *p = NULL;
    size_t f = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetMemInfo(ACL_HBM_MEM, &f, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(NULL, 8, host, 8, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(host, 8, host, 8, (aclrtMemcpyKind)99, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemsetAsync(NULL, 8, 0, 8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclFinalize());
}

/* ---- [acl] checks answer before the handle is looked at ------------------------------- */

TEST(checks, acl_checks_before_handle)
{
    aclrtStreamAttrValue v;
    char host[8] = {0};
    t_setup();
    memset(&v, 0, sizeof(v));
    ASSERT_RC(aclrtStreamQuery(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetPriority(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetFlags(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetId(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(BAD, 2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamAttribute(BAD, ACL_STREAM_ATTR_FAILURE_MODE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(BAD, ACL_STREAM_ATTR_FAILURE_MODE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(BAD, ACL_RT_DEV_RES_CUBE_CORE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEvent(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtResetEvent(NULL, BAD), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRecordEvent(NULL, BAD), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(BAD, BAD, 5, ACL_EVENT_WAIT_EXTERNAL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(BAD, BAD, -1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchCallback(cb_nop, NULL, (aclrtCallbackBlockType)-1, BAD), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(NULL, 8, host, 8, ACL_MEMCPY_HOST_TO_HOST, BAD), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemcpyAsync(host, 8, host, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, BAD), ACL_ERROR_INVALID_PARAM);
    /* count > destMax is the runtime's check: the handle answers first */
    ASSERT_RC(aclrtMemcpyAsync(host, 4, host, 8, ACL_MEMCPY_HOST_TO_HOST, BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtMemsetAsync(NULL, 8, 0, 8, BAD), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* ---- orders inside one function ------------------------------------------------------------------ */

/* §6 "Set/GetStreamAttribute: value NULL → 100000; unknown attr 107000":
 * the NULL value is the [acl] check, so it answers first. */
TEST(checks, attribute_value_null_before_unknown_attr)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamAttribute(s, (aclrtStreamAttr)99, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(s, (aclrtStreamAttr)0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, (aclrtStreamAttr)99, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* [acl] t < -1 (107000) before e NULL (100000); the runtime validates the
 * handle (107017) before its own t == 0 rule (107000). */
TEST(checks, sync_event_timeout_orders)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(BAD, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* §6 "Get/SetStreamResLimit, GetResInCurrentThread: type ≥ 2 → 107000" is
 * an [rt] check; a NULL value pointer is [acl] and answers first. */
TEST(checks, reslimit_null_value_before_bad_type)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtGetStreamResLimit(s, BAD_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(NULL, (aclrtDevResLimitType)100, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetResInCurrentThread(BAD_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* §5 CreateEventWithFlag / CreateEventExWithFlag: "[acl] e NULL → 100000",
 * then the [rt] flag rules. */
TEST(checks, create_event_null_before_bad_flag)
{
    t_setup();
    ASSERT_RC(aclrtCreateEventWithFlag(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventWithFlag(NULL, 0x80), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventWithFlag(NULL, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventExWithFlag(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_IPC | ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* §5 StreamWaitEvent: "DEVICE_USE_ONLY event → 107000; non-SYNC event →
 * 207000". A DEVICE_USE_ONLY event must be created alone, so it never has
 * the SYNC bit: the 107000 row can only be reached if it is checked first. */
TEST(checks, wait_on_device_use_only_event)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY));
    ASSERT_RC(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, e, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, e, 0, ACL_EVENT_WAIT_DEFAULT), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* §5 RegStreamStateCallback: "[acl] name NULL → 100000. cb NULL =
 * unregister (always success)": the name check comes first, so a NULL
 * name with a NULL callback is still refused. */
TEST(checks, state_callback_name_null_before_unregister)
{
    ASSERT_RC(aclrtRegStreamStateCallback(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    t_setup();
    ASSERT_RC(aclrtRegStreamStateCallback(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* §5 Memory: "count == 0 → success before any other check" — also before
 * the destMax and no-context checks. */
TEST(checks, zero_count_before_dest_max)
{
    char host[8] = {0};
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtMemcpyAsync(host, 0, host, 0, ACL_MEMCPY_HOST_TO_HOST, NULL)); /* no context either */
    ASSERT_OK(aclrtMemsetAsync(host, 0, 0, 0, NULL));
    ASSERT_OK(aclFinalize());
}

/* ---- no current context: 107002 (§4, §6 "any stream op") ---------------------------------- */

TEST(checks, no_context_stream_control_calls)
{
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    uint32_t u;
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateStreamV2(&s, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    /* NULL has no default stream to stand for (runtime.cc GetCurStream:
     * 107000); a bad handle is refused before the context is looked for. */
    ASSERT_RC(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamFailureMode(BAD, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(NULL, 1), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(NULL, &u), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSetStreamAttribute(BAD, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamAbort(BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtLaunchCallback(cb_nop, NULL, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSubscribeReport((uint64_t)pthread_self(), NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

/* With no context, a handle that names nothing is 107017: the runtime
 * validates handles before it looks for a context (api_c.cc). Only the
 * calls that make something, and the stream tasks, need a context. */
TEST(checks, no_context_event_calls)
{
    aclrtEventRecordedStatus rs;
    aclrtEventWaitStatus ws;
    aclrtEventStatus es;
    aclrtNotify n = NULL;
    aclrtEvent e = NULL;
    float ms;
    uint64_t ts;
    uint32_t id;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtRecordEventWithFlag(BAD, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtResetEvent(BAD, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEvent(NULL, BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEventWithFlag(NULL, BAD, 0, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamWaitEventWithTimeout(NULL, BAD, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventStatus(BAD, &rs), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEventWaitStatus(BAD, &ws), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtQueryEvent(BAD, &es), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(BAD, 10), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtEventElapsedTime(&ms, BAD, BAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtEventGetTimestamp(BAD, &ts), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetEventId(BAD, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetEventAvailNum(&id), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

TEST(checks, no_context_memory_calls)
{
    void *p = NULL;
    size_t f = 0, t = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT(p == NULL);
    ASSERT_OK(aclFinalize());
}

/* ---- stale and foreign handles: 107017 (§4, §6 "any") ------------------------------------------- */

static void check_stale_stream_control(aclrtStream h)
{
    aclrtStreamAttrValue v;
    uint32_t u = 0;
    memset(&v, 0, sizeof(v));
    ASSERT_RC(aclrtSetStreamFailureMode(h, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(h, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetStreamAttribute(h, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetStreamAttribute(h, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetStreamAttribute(h, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetStreamAttribute(h, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetStreamResLimit(h, ACL_RT_DEV_RES_CUBE_CORE, 1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetStreamResLimit(h, ACL_RT_DEV_RES_CUBE_CORE, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtResetStreamResLimit(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtUseStreamResInCurrentThread(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtUnuseStreamResInCurrentThread(h), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST(checks, stale_stream_in_control_calls)
{
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    check_stale_stream_control(BAD);
    ASSERT_OK(aclrtCreateEvent(&e));
    check_stale_stream_control((aclrtStream)e); /* an event is not a stream */
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    check_stale_stream_control(s);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

TEST(checks, stale_notify_handles)
{
    aclrtNotify n = NULL;
    uint32_t id = 0;
    t_setup();
    ASSERT_RC(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetNotifyId(BAD, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    ASSERT_OK(aclrtDestroyNotify(n));
    ASSERT_RC(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordNotify(n, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtWaitAndResetNotify(n, NULL, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetNotifyId(n, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordNotify(BAD, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- stream of another context: 107003 (§6) ------------------------------------------------------ */

/* §6 "DestroyStream / SetFailureMode / Abort / overflow set: stream of
 * other context → 107003". Destroy, failure mode and abort are pinned in
 * test_stream*.c; this pins the overflow switch, set directly or through
 * its attribute (the same setting, §5). Reading it is restricted too
 * (api_impl.cc GetStreamOverflowSwitch). */
TEST(checks, overflow_set_on_stream_of_other_context)
{
    aclrtContext other = NULL;
    aclrtStreamAttrValue v;
    aclrtStream s;
    uint32_t flag = 7;
    t_setup();
    s = foreign_stream(&other);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_STREAM_CONTEXT);
    memset(&v, 0, sizeof(v));
    v.overflowSwitch = 1;
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtGetStreamOverflowSwitch(s, &flag), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 0); /* the refused sets changed nothing */
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* ---- SoC-dependent rules ------------------------------------------------------------------------- */

/* §5 Abort: "(A2/A3/950 only per D06) ... NULL → default stream on CTRL-SQ
 * SoCs else 107000; ... unsupported → 207000". */
TEST(checks, abort_on_product_without_it)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_FAILS_NAMING(aclrtStreamAbort(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "aclrtStreamAbort");
    t_launch_log(1, s); /* the stream was not aborted: it runs work */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(checks, abort_on_training_product)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtStreamAbort(s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* §5: the default stream's failure mode (NULL) only on 950/A3/A2; the
 * attribute path follows SetStreamFailureMode. */
TEST(checks, failure_mode_null_stream_on_200i_500a2)
{
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310B1", 1);
    t_setup();
    memset(&v, 0, sizeof(v));
    v.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_RC(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_FAILS_NAMING(aclrtSetStreamAttribute(NULL, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSetStreamAttribute");
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v)); /* a created stream is fine */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* §5: FLOAT_OVERFLOW_CHECK and USER_CUSTOM_TAG on products without them:
 * success, no-op; the overflow switch then reads 1. */
TEST(checks, overflow_attribute_on_product_without_it)
{
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    uint32_t flag = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
    ASSERT_OK(aclrtGetStreamOverflowSwitch(s, &flag));
    ASSERT_EQ(flag, 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- stream creation rules -------------------------------------------------------------------------- */

/* §5: "DEVICE_USE_ONLY when device failure mode ≠ CONTINUE → 207000". The runtime's 207000 for DEVICE_USE_ONLY concerns the *device's* failure
 * mode, which this API cannot set; a context in STOP mode takes such a
 * stream, as the vendor's sample 1_stream_with_failure_mode requires. */
TEST(checks, device_use_only_stream_in_stop_mode_context)
{
    aclrtStream s = NULL, d = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtCreateStreamWithConfig(&d, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtDestroyStream(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* §5 aclrtCreateStreamV2 and its config handle (the aclrt_c rules). */
TEST(checks, stream_config_handle_rules)
{
    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    uint32_t u32 = 0, prio = 0, flags = 9;
    size_t sz = 0;
    void *ptr = NULL;
    ASSERT(h != NULL);
    ASSERT_RC(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_PRIORITY, &u32, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, NULL, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM);
    /* valueSize must be exactly the attribute's size. */
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &u32, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &u32, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &sz, sizeof(sz)), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &u32, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    u32 = 8; /* priority above 7 is refused here (not clamped) */
    ASSERT_RC(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &u32, sizeof(u32)), ACL_ERROR_INVALID_PARAM);
    u32 = 4;
    ASSERT_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &u32, sizeof(u32)));
    sz = ACL_STREAM_FAST_SYNC;
    ASSERT_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &sz, sizeof(sz)));
    ASSERT_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &ptr, sizeof(ptr)));
    t_setup();
    {
        aclrtStream s = NULL, d = NULL;
        ASSERT_RC(aclrtCreateStreamV2(NULL, h), ACL_ERROR_INVALID_PARAM);
        ASSERT_OK(aclrtCreateStreamV2(&s, h));
        ASSERT_OK(aclrtStreamGetPriority(s, &prio));
        ASSERT_OK(aclrtStreamGetFlags(s, &flags));
        ASSERT_EQ(prio, 4);
        ASSERT_EQ(flags, ACL_STREAM_FAST_SYNC);
        ASSERT_OK(aclrtCreateStreamV2(&d, NULL)); /* NULL handle: defaults */
        ASSERT_OK(aclrtStreamGetPriority(d, &prio));
        ASSERT_EQ(prio, 0);
        ASSERT_OK(aclrtDestroyStream(s));
        ASSERT_OK(aclrtDestroyStream(d));
    }
    ASSERT_RC(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStreamConfigHandle(h));
    t_teardown();
}

/* §5 SetStreamAttribute PRIORITY: "AICPU/forbidden-default streams →
 * 207000" (NULL → 107000 is pinned in test_stream_attr.c). The default
 * stream is not a forbidden-default one (its flags are PRIMARY_DEFAULT:
 * context.cc, raw_device.cc), so its handle takes a priority. */
TEST(checks, priority_attribute_refused_streams)
{
    aclrtStreamAttrValue v;
    aclrtStream cpu = NULL, d = NULL;
    uint32_t prio = 9;
    t_setup();
    memset(&v, 0, sizeof(v));
    v.streamPriority = 3;
    ASSERT_OK(aclrtCreateStreamWithConfig(&cpu, 1, ACL_STREAM_CPU_SCHEDULE));
    ASSERT_RC(aclrtSetStreamAttribute(cpu, ACL_STREAM_ATTR_PRIORITY, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtStreamGetPriority(cpu, &prio));
    ASSERT_EQ(prio, 1);
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_OK(aclrtStreamGetPriority(NULL, &prio));
    ASSERT_EQ(prio, 0);
    ASSERT_OK(aclrtSetStreamAttribute(d, ACL_STREAM_ATTR_PRIORITY, &v));
    ASSERT_OK(aclrtStreamGetPriority(NULL, &prio));
    ASSERT_EQ(prio, 3);
    ASSERT_OK(aclrtDestroyStream(cpu));
    t_teardown();
}

/* ---- event rules not pinned elsewhere ------------------------------------------------------------- */

/* §5: EXTERNAL events are refused by SynchronizeEvent, QueryEventStatus,
 * EventElapsedTime and EventGetTimestamp (207000). The event is recorded
 * and done first, so no "never recorded" rule can answer instead. */
TEST(checks, external_event_refused_calls)
{
    aclrtEventRecordedStatus rs;
    aclrtEvent x = NULL, e = NULL;
    float ms;
    uint64_t ts;
    t_setup();
    ASSERT_OK(aclrtCreateEventWithFlag(&x, ACL_EVENT_EXTERNAL));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtRecordEvent(x, NULL));
    ASSERT_OK(aclrtRecordEvent(e, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_RC(aclrtSynchronizeEvent(x), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtSynchronizeEventWithTimeout(x, 100), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtQueryEventStatus(x, &rs), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtEventElapsedTime(&ms, x, e), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtEventElapsedTime(&ms, e, x), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtEventGetTimestamp(x, &ts), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtEventElapsedTime(&ms, e, e));
    ASSERT_OK(aclrtDestroyEvent(x));
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* IPC events exist (test_ipc.c shares them between processes); an
 * external record needs a capturing stream (107029, api_impl.cc
 * ApiImpl::EventRecord) and an Ex SYNC event (207000). */
TEST(checks, ipc_event_created_and_external_record_unsupported)
{
    aclrtEvent e = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_RC(aclrtRecordEventWithFlag(e, NULL, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_OK(aclrtDestroyEvent(e));
    t_teardown();
}

/* ---- stream state callbacks (§5 "Stream state callback", §6) ------------------------------------------ */

enum { STATE_LOG_CAP = 32 };
struct state_seen {
    aclrtStream stm;
    aclrtStreamState state;
    void *args;
    pthread_t thread;
};
static struct state_seen state_log[STATE_LOG_CAP];
static _Atomic int state_n;

static void state_cb(aclrtStream stm, aclrtStreamState state, void *args)
{
    int at = atomic_fetch_add(&state_n, 1);
    if (at < STATE_LOG_CAP) {
        state_log[at].stm = stm;
        state_log[at].state = state;
        state_log[at].args = args;
        state_log[at].thread = pthread_self();
    }
}

static void expect_state(int at, aclrtStream stm, aclrtStreamState state, void *args)
{
    ASSERT(at < atomic_load(&state_n));
    ASSERT(state_log[at].stm == stm);
    ASSERT_EQ(state_log[at].state, state);
    ASSERT(state_log[at].args == args);
    ASSERT(pthread_equal(state_log[at].thread, pthread_self()));
}

TEST(checks, state_callback_registration_rules)
{
    static int tag;
    /* Global, not per context: registering needs no device (example 1
     * registers right after aclInit). */
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("checks_a", state_cb, &tag));
    ASSERT_FAILS_NAMING(aclrtRegStreamStateCallback("checks_a", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtRegStreamStateCallback");
    ASSERT_OK(aclrtRegStreamStateCallback("checks_unknown", NULL, NULL)); /* unregistering the unknown: fine */
    ASSERT_OK(aclrtRegStreamStateCallback("checks_a", NULL, NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("checks_a", NULL, NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("checks_a", state_cb, NULL)); /* free again after unregistering */
    ASSERT_OK(aclrtRegStreamStateCallback("checks_a", NULL, NULL));
    ASSERT_OK(aclFinalize());
}

/* Fired synchronously in the creating/destroying thread, after create and
 * before destroy, once per registered name with its own args. */
TEST(checks, state_callbacks_fire_for_explicit_streams)
{
    static int a1, a2;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtRegStreamStateCallback("checks_one", state_cb, &a1));
    ASSERT_OK(aclrtRegStreamStateCallback("checks_two", state_cb, &a2));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_EQ(atomic_load(&state_n), 2);
    ASSERT(state_log[0].args != state_log[1].args);
    for (int i = 0; i < 2; i++)
        expect_state(i, s, ACL_RT_STREAM_STATE_CREATE_POST, state_log[i].args == &a1 ? &a1 : &a2);
    ASSERT_OK(aclrtRegStreamStateCallback("checks_two", NULL, NULL));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&state_n), 3);
    expect_state(2, s, ACL_RT_STREAM_STATE_DESTROY_PRE, &a1);
    ASSERT_OK(aclrtRegStreamStateCallback("checks_one", NULL, NULL));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&state_n), 3); /* unregistered: no more calls */
    t_teardown();
}

TEST(checks, state_callbacks_fire_for_default_streams)
{
    static int tag;
    aclrtStream d = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("checks_default", state_cb, &tag));
    ASSERT_OK(aclrtSetDevice(0)); /* makes the primary context and its default stream */
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_EQ(atomic_load(&state_n), 1);
    expect_state(0, d, ACL_RT_STREAM_STATE_CREATE_POST, &tag);
    ASSERT_OK(aclrtResetDevice(0)); /* releases it */
    ASSERT_EQ(atomic_load(&state_n), 2);
    expect_state(1, d, ACL_RT_STREAM_STATE_DESTROY_PRE, &tag);
    ASSERT_OK(aclrtRegStreamStateCallback("checks_default", NULL, NULL));
    ASSERT_OK(aclFinalize());
}

/* ---- init reference count (§5 "Init / device") -------------------------------------------------------- */

/* "aclInit: second call while initialized → 100002 (ref-count
 * incremented)": the count is what aclFinalizeReference takes down; the
 * library stays up until it reaches 0. */
TEST(checks, repeated_init_counts_references)
{
    uint64_t refs = 99;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 1);
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE); /* still initialised */
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 1);
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 0);
    ASSERT_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    ASSERT_RC(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE);
}

/* ---- every failure names its function (DESIGN "Errors and handles") ----------------------------------- */

TEST(checks, failure_messages_name_the_stream_function)
{
    aclrtStreamAttrValue v;
    aclrtStreamStatus st;
    aclrtStream s = NULL;
    uint32_t u;
    ASSERT_OK(aclInit(NULL));
    ASSERT_FAILS_NAMING(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream");
    ASSERT_FAILS_NAMING(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSynchronizeDeviceWithTimeout");
    ASSERT_OK(aclrtSetDevice(0));
    memset(&v, 0, sizeof(v));
    ASSERT_FAILS_NAMING(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_HUGE),
                        ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateStreamWithConfig");
    ASSERT_FAILS_NAMING(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream");
    ASSERT_FAILS_NAMING(aclrtDestroyStreamForce(BAD), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStreamForce");
    ASSERT_FAILS_NAMING(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSynchronizeStreamWithTimeout");
    ASSERT_FAILS_NAMING(aclrtStreamQuery(BAD, &st), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamQuery");
    ASSERT_FAILS_NAMING(aclrtStreamGetFlags(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamGetFlags");
    ASSERT_FAILS_NAMING(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetStreamAvailableNum");
    ASSERT_FAILS_NAMING(aclrtSetStreamOverflowSwitch(NULL, 2), ACL_ERROR_INVALID_PARAM,
                        "aclrtSetStreamOverflowSwitch");
    ASSERT_FAILS_NAMING(aclrtGetStreamAttribute(NULL, (aclrtStreamAttr)99, &v), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtGetStreamAttribute");
    ASSERT_FAILS_NAMING(aclrtSetStreamFailureMode(BAD, 1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetStreamFailureMode");
    ASSERT_FAILS_NAMING(aclrtStreamAbort(BAD), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamAbort");
    ASSERT_FAILS_NAMING(aclrtRegStreamStateCallback(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM,
                        "aclrtRegStreamStateCallback");
    ASSERT_FAILS_NAMING(aclrtSetStreamResLimit(NULL, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSetStreamResLimit");
    ASSERT_FAILS_NAMING(aclrtGetResInCurrentThread(BAD_TYPE, &u), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtGetResInCurrentThread");
    ASSERT_FAILS_NAMING(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1000), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSetDeviceResLimit");
    t_teardown();
}

TEST(checks, failure_messages_name_the_event_function)
{
    aclrtEvent e = NULL;
    float ms;
    uint64_t ts;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_FAILS_NAMING(aclrtCreateEventWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtCreateEventWithFlag");
    ASSERT_FAILS_NAMING(aclrtCreateEventExWithFlag(&e, 0x80), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtCreateEventExWithFlag");
    ASSERT_FAILS_NAMING(aclrtRecordEventWithFlag(e, NULL, 2), ACL_ERROR_INVALID_PARAM, "aclrtRecordEventWithFlag");
    ASSERT_FAILS_NAMING(aclrtStreamWaitEventWithFlag(NULL, e, 0, 2), ACL_ERROR_INVALID_PARAM,
                        "aclrtStreamWaitEventWithFlag");
    ASSERT_FAILS_NAMING(aclrtStreamWaitEventWithTimeout(NULL, e, -1), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtStreamWaitEventWithTimeout");
    ASSERT_FAILS_NAMING(aclrtSynchronizeEventWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtSynchronizeEventWithTimeout");
    ASSERT_FAILS_NAMING(aclrtSynchronizeEvent(BAD), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeEvent");
    ASSERT_FAILS_NAMING(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_INTERNAL_ERROR, "aclrtEventElapsedTime");
    ASSERT_FAILS_NAMING(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_INTERNAL_ERROR, "aclrtEventGetTimestamp");
    ASSERT_FAILS_NAMING(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent");
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_FAILS_NAMING(aclrtResetEvent(e, NULL), ACL_ERROR_RT_INVALID_HANDLE, "aclrtResetEvent");
    ASSERT_FAILS_NAMING(aclrtStreamWaitEvent(NULL, e), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamWaitEvent");
    t_teardown();
}

TEST(checks, failure_messages_name_the_other_functions)
{
    void *p = NULL;
    char host[8] = {0};
    int32_t dev;
    ASSERT_OK(aclFinalize()); /* the reference finalizes once even without aclInit */
    ASSERT_FAILS_NAMING(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize");
    ASSERT_OK(aclInit(NULL));
    ASSERT_FAILS_NAMING(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "aclInit");
    ASSERT_FAILS_NAMING(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice");
    ASSERT_FAILS_NAMING(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice");
    ASSERT_FAILS_NAMING(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_FAILS_NAMING(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "aclrtMalloc");
    ASSERT_FAILS_NAMING(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFree");
    ASSERT_FAILS_NAMING(aclrtMallocHost(NULL, 8), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost");
    ASSERT_FAILS_NAMING(aclrtMemcpy(host, 8, host, 8, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM, "aclrtMemcpy");
    ASSERT_FAILS_NAMING(aclrtMemcpyAsync(host, 4, host, 8, ACL_MEMCPY_HOST_TO_HOST, NULL), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtMemcpyAsync");
    ASSERT_FAILS_NAMING(aclrtMemset(NULL, 8, 0, 8), ACL_ERROR_INVALID_PARAM, "aclrtMemset");
    ASSERT_FAILS_NAMING(aclrtGetMemInfo(ACL_HBM_MEM, NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo");
    ASSERT_FAILS_NAMING(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM, "aclrtProcessReport");
    ASSERT_FAILS_NAMING(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE, "aclrtProcessReport");
    ASSERT_FAILS_NAMING(aclrtLaunchCallback(cb_nop, NULL, (aclrtCallbackBlockType)2, NULL), ACL_ERROR_INVALID_PARAM,
                        "aclrtLaunchCallback");
    ASSERT_FAILS_NAMING(aclrtLaunchCallback(cb_nop, NULL, ACL_CALLBACK_BLOCK, NULL), ACL_ERROR_RT_STREAM_NO_CB_REG,
                        "aclrtLaunchCallback");
    ASSERT_FAILS_NAMING(aclrtSubscribeReport(1, BAD), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSubscribeReport");
    ASSERT_FAILS_NAMING(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext");
    ASSERT_FAILS_NAMING(aclrtSetCurrentContext(BAD), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext");
    ASSERT_FAILS_NAMING(aclrtDestroyContext(BAD), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyContext");
    ASSERT_FAILS_NAMING(aclrtResetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice");
    t_teardown();
}

/* The state callback table's two bounds, each hit exactly: a name of 127
 * bytes fits (128 with its NUL), one of 128 does not; the 64th callback
 * registers, the 65th is refused; unregistering one frees its place. */
TEST(checks, state_callback_table_bounds)
{
    char name[160];
    ASSERT_OK(aclInit(NULL));
    memset(name, 'n', sizeof(name));
    name[127] = '\0';
    ASSERT_OK(aclrtRegStreamStateCallback(name, state_cb, NULL));
    ASSERT_OK(aclrtRegStreamStateCallback(name, NULL, NULL));
    name[127] = 'n';
    name[128] = '\0';
    ASSERT_FAILS_NAMING(aclrtRegStreamStateCallback(name, state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtRegStreamStateCallback");
    for (int i = 0; i < 64; i++) {
        snprintf(name, sizeof(name), "bounds_%d", i);
        ASSERT_OK(aclrtRegStreamStateCallback(name, state_cb, NULL));
    }
    ASSERT_FAILS_NAMING(aclrtRegStreamStateCallback("bounds_64", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtRegStreamStateCallback");
    ASSERT_OK(aclrtRegStreamStateCallback("bounds_0", NULL, NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("bounds_64", state_cb, NULL));
    ASSERT_FAILS_NAMING(aclrtRegStreamStateCallback("bounds_65", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID,
                        "aclrtRegStreamStateCallback");
    for (int i = 1; i <= 64; i++) {
        snprintf(name, sizeof(name), "bounds_%d", i);
        ASSERT_OK(aclrtRegStreamStateCallback(name, NULL, NULL));
    }
    ASSERT_OK(aclFinalize());
}

/* Each code names itself, not its neighbour in the table (107000..107002
 * are consecutive codes). */
TEST(checks, error_names_are_their_own_codes)
{
    ASSERT(strcmp(aclcpuGetErrorName(ACL_ERROR_RT_PARAM_INVALID), "ACL_ERROR_RT_PARAM_INVALID") == 0);
    ASSERT(strcmp(aclcpuGetErrorName(ACL_ERROR_RT_INVALID_DEVICEID), "ACL_ERROR_RT_INVALID_DEVICEID") == 0);
    ASSERT(strcmp(aclcpuGetErrorName(ACL_ERROR_RT_CONTEXT_NULL), "ACL_ERROR_RT_CONTEXT_NULL") == 0);
    ASSERT(strcmp(aclcpuGetErrorName(ACL_ERROR_INVALID_PARAM), "ACL_ERROR_INVALID_PARAM") == 0);
    ASSERT(strcmp(aclcpuGetErrorName(ACL_SUCCESS), "ACL_SUCCESS") == 0);
}

/* Every code of the one error table has its own name (its macro's
 * spelling) and a one-line meaning; a code the table does not know gets a
 * fixed "unknown" name and meaning, never NULL. */
static const struct {
    aclError code;
    const char *name;
} every_code[] = {
#define ACLCPU_ERROR(name, value, meaning) {value, #name},
#include "../src/common/errors.def"
#undef ACLCPU_ERROR
};

TEST(checks, every_code_has_its_name_and_a_meaning_an_unknown_code_says_so)
{
    const char *unknown_name = aclcpuGetErrorName(999999);
    const char *unknown_meaning = aclcpuGetErrorString(999999);
    size_t n = sizeof(every_code) / sizeof(every_code[0]);
    ASSERT(n > 50);
    for (size_t i = 0; i < n; i++) {
        const char *meaning = aclcpuGetErrorString(every_code[i].code);
        ASSERT(strcmp(aclcpuGetErrorName(every_code[i].code), every_code[i].name) == 0);
        ASSERT(meaning != NULL && meaning[0] != '\0' && strchr(meaning, '\n') == NULL);
        ASSERT(strcmp(meaning, unknown_meaning) != 0);
    }
    ASSERT(unknown_name != NULL && strstr(unknown_name, "UNKNOWN") != NULL);
    ASSERT(unknown_meaning != NULL && unknown_meaning[0] != '\0');
    ASSERT(strcmp(aclcpuGetErrorName(-1), unknown_name) == 0);
    ASSERT(strcmp(aclcpuGetErrorString(100001 - 2), unknown_meaning) == 0);
}

/* A code's meaning is a sentence of its own, not its name again: the
 * parameter error's reads "a parameter is invalid". */
TEST(checks, an_error_codes_meaning_is_not_its_name)
{
    size_t n = sizeof(every_code) / sizeof(every_code[0]);
    for (size_t i = 0; i < n; i++)
        ASSERT(strcmp(aclcpuGetErrorString(every_code[i].code), every_code[i].name) != 0);
    ASSERT(strcmp(aclcpuGetErrorString(ACL_ERROR_INVALID_PARAM), "a parameter is invalid") == 0);
}

/* aclGetRecentErrMsg's buffer (4096 bytes with the NUL) at its bound:
 * messages whose joined length would be exactly 4096 drop the oldest bytes,
 * so the text handed out stays under 4096 and starts with the newest. The
 * messages are duplicate registrations of names of 1..64 bytes, each one
 * byte longer than the last. */
TEST(checks, recent_messages_fill_their_buffer_exactly)
{
    char name[80];
    const char *msg;
    size_t base, m, total, extra;
    ASSERT_OK(aclInit(NULL));
    for (int k = 1; k <= 64; k++) {
        memset(name, 'x', (size_t)k);
        name[k] = '\0';
        ASSERT_OK(aclrtRegStreamStateCallback(name, state_cb, NULL));
    }
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtRegStreamStateCallback("x", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    base = strlen(aclGetRecentErrMsg()); /* a name of 1 byte; k bytes add k - 1 */
    /* m messages of base + e_i bytes, joined by m - 1 newlines, make 4096. */
    for (m = 1; m * (base + 1) - 1 + m * 63 < 4096; m++)
        ;
    ASSERT(m * (base + 1) - 1 <= 4096);
    extra = 4096 - (m * (base + 1) - 1);
    total = 0;
    for (size_t i = 0; i < m; i++) {
        size_t e = extra > 63 ? 63 : extra;
        extra -= e;
        memset(name, 'x', e + 1);
        name[e + 1] = '\0';
        ASSERT_RC(aclrtRegStreamStateCallback(name, state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
        total += (i ? 1 : 0) + base + e;
    }
    ASSERT_EQ(total, 4096);
    msg = aclGetRecentErrMsg();
    ASSERT(msg != NULL && strlen(msg) < 4096);
    ASSERT(strncmp(msg, "[ACL_ERROR_RT_PARAM_INVALID", 27) == 0);
    for (int k = 1; k <= 64; k++) {
        memset(name, 'x', (size_t)k);
        name[k] = '\0';
        ASSERT_OK(aclrtRegStreamStateCallback(name, NULL, NULL));
    }
    ASSERT_OK(aclFinalize());
}

/* ---- sweep 5 (2026-12-05): the recent-message stack's joints ---- */

/* Messages are joined newest first by one newline each: a single message
 * ends with its own text (no newline after it), two have exactly one
 * between them. */
TEST(checks, recent_messages_are_joined_by_one_newline_and_end_without_one)
{
    const char *m;
    size_t len, nl = 0;
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    m = aclGetRecentErrMsg();
    ASSERT(m != NULL);
    len = strlen(m);
    ASSERT(len > 0 && m[len - 1] != '\n' && strchr(m, '\n') == NULL);
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
    m = aclGetRecentErrMsg();
    ASSERT(m != NULL);
    len = strlen(m);
    for (size_t i = 0; i < len; i++)
        nl += m[i] == '\n';
    ASSERT_EQ(nl, 1);
    ASSERT(m[len - 1] != '\n');
}

/* Two messages pile up whole: the newest, one newline, then the older one
 * to its last byte (the same message read alone, twice over). */
TEST(checks, piled_messages_keep_the_older_one_to_its_last_byte)
{
    char one[512];
    const char *m;
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    m = aclGetRecentErrMsg();
    ASSERT(m != NULL && strlen(m) < sizeof(one) / 2);
    snprintf(one, sizeof(one), "%s", m);
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
    m = aclGetRecentErrMsg();
    ASSERT(m != NULL);
    ASSERT_EQ(strlen(m), 2 * strlen(one) + 1);
    ASSERT(strncmp(m, one, strlen(one)) == 0 && m[strlen(one)] == '\n');
    ASSERT(strcmp(m + strlen(one) + 1, one) == 0);
}
