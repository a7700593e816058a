/*
 * test_cntnotify.c - counting notifies (aclrtCntNotify*): the checks of
 * the Ascend 950's runtime in order, record and wait modes, clearing
 * waits, timeouts, destroy while waited, and order across streams
 * (docs/conformance.md, "Built-in tasks, counting notifies and task
 * update").
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

static void setup950(void)
{
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
}

static aclrtCntNotifyRecordInfo rec_info(aclrtCntNotifyRecordMode mode, uint32_t value)
{
    aclrtCntNotifyRecordInfo r = {mode, value};
    return r;
}

static aclrtCntNotifyWaitInfo wait_info(aclrtCntNotifyWaitMode mode, uint32_t value, uint32_t timeout_s, int clear)
{
    aclrtCntNotifyWaitInfo w;
    memset(&w, 0, sizeof(w));
    w.mode = mode;
    w.value = value;
    w.timeout = timeout_s;
    w.isClear = (uint8_t)clear;
    return w;
}

/* Off the Ascend 950 every call answers 207000 (api_c_stub.cc), after the
 * ACL layer's NULL checks of info (notify.cpp). */
TEST(cntnotify, only_on_ascend_950)
{
    aclrtCntNotify n = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 0, 0);
    uint32_t id;
    t_setup(); /* Ascend910B1 */
    ASSERT_RC(aclrtCntNotifyCreate(&n, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCntNotifyCreate: Ascend910B1 has no counting notifies");
    ASSERT_RC(aclrtCntNotifyCreate(NULL, 7), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCntNotifyDestroy(NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCntNotifyRecord(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCntNotifyRecord(NULL, NULL, &r), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(NULL, NULL, &w), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCntNotifyReset(NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCntNotifyGetId(NULL, &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
}

/* api_david.cc rtCntNotifyCreateServer: flag 0 (107000), a device
 * (107002); api_error_standard_soc.cc: the out-pointer (107000). */
TEST(cntnotify, create_checks_in_order)
{
    aclrtCntNotify n = NULL, m = NULL;
    uint32_t a = 0, b = 0;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCntNotifyCreate(NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'flag' (1)");
    ASSERT_RC(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtCntNotifyCreate(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'cntNotify' is NULL");
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCntNotifyCreate(&m, 0)); /* second occurrence: another id */
    ASSERT_OK(aclrtCntNotifyGetId(n, &a));
    ASSERT_OK(aclrtCntNotifyGetId(m, &b));
    ASSERT_NE(a, b);
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    ASSERT_OK(aclrtCntNotifyDestroy(m));
    t_teardown();
}

/* The handle is validated first (107017 stale, also for a plain notify's
 * handle), then NULL is 107000 (api_error_standard_soc.cc); GetId's
 * out-pointer after the handle. A second destroy is 107017. */
TEST(cntnotify, handles_destroy_and_get_id)
{
    aclrtCntNotify n = NULL;
    aclrtNotify plain = NULL;
    uint32_t id = UINT32_MAX;
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateNotify(&plain, ACL_NOTIFY_DEFAULT));
    ASSERT_RC(aclrtCntNotifyGetId(NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'cntNotify' is NULL");
    ASSERT_RC(aclrtCntNotifyGetId(n, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'notifyId' is NULL");
    ASSERT_RC(aclrtCntNotifyGetId(plain, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCntNotifyGetId(n, &id));
    ASSERT_NE(id, UINT32_MAX);
    ASSERT_RC(aclrtCntNotifyDestroy(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCntNotifyDestroy(plain), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    ASSERT_RC(aclrtCntNotifyDestroy(n), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCntNotifyGetId(n, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtRecordNotify((aclrtNotify)n, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyNotify(plain));
    t_teardown();
}

/* Record, wait and reset: info (ACL layer, 100000), the notify's handle,
 * the stream's (107017), NULL notify (107000), the mode (107000), then a
 * stream of the current context (107003). */
TEST(cntnotify, record_wait_reset_checks_in_order)
{
    aclrtCntNotify n = NULL;
    aclrtStream dead = NULL, foreign = NULL;
    aclrtContext mine = NULL, other = NULL;
    aclrtCntNotifyRecordInfo r = rec_info((aclrtCntNotifyRecordMode)3, 1);
    aclrtCntNotifyWaitInfo w = wait_info((aclrtCntNotifyWaitMode)5, 1, 0, 0);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_RC(aclrtCntNotifyRecord(n, dead, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCntNotifyRecord: argument 'info' is NULL");
    ASSERT_RC(aclrtCntNotifyRecord(n, dead, &r), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCntNotifyRecord(NULL, NULL, &r), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'cntNotify' is NULL");
    ASSERT_RC(aclrtCntNotifyRecord(n, NULL, &r), ACL_ERROR_RT_PARAM_INVALID); /* mode 3: not a mode */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'info->mode' (3)");
    r.mode = (aclrtCntNotifyRecordMode)5;
    ASSERT_RC(aclrtCntNotifyRecord(n, NULL, &r), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(n, dead, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(n, dead, &w), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(NULL, NULL, &w), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(n, NULL, &w), ACL_ERROR_RT_PARAM_INVALID); /* first refused mode */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'info->mode' (5)");
    ASSERT_RC(aclrtCntNotifyReset(n, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCntNotifyReset(NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    /* Streams of another context. */
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    r.mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE;
    w.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE; /* last accepted mode */
    ASSERT_RC(aclrtCntNotifyRecord(n, foreign, &r), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(n, foreign, &w), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtCntNotifyReset(n, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* One wait on the default stream: record(mode, v) then a wait for want
 * (EQUAL, 1 s): passes iff the record left the count at want. */
static aclError count_is(aclrtCntNotify n, uint32_t want)
{
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, want, 1, 0);
    aclError e = aclrtCntNotifyWaitWithTimeout(n, NULL, &w);
    return e != ACL_SUCCESS ? e : aclrtSynchronizeStreamWithTimeout(NULL, 4000);
}

/* The four record modes (docs/zh/api_ref/25-02 aclrtCntNotifyRecordMode):
 * set, add, or, and; a reset sets 0. */
TEST(cntnotify, record_modes_set_add_or_and)
{
    aclrtCntNotify n = NULL;
    aclrtCntNotifyRecordInfo r;
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(count_is(n, 0)); /* a new notify counts 0 */
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 5);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(count_is(n, 5));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 3);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r)); /* second occurrence adds again */
    ASSERT_OK(count_is(n, 11));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x30);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(count_is(n, 0x3b));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x0f);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(count_is(n, 0x0b));
    ASSERT_OK(aclrtCntNotifyReset(n, NULL));
    ASSERT_OK(count_is(n, 0));
    /* ADD wraps at 2^32, as a 32-bit count does. */
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, UINT32_MAX);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(count_is(n, 1));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* BIT_OR ORs the value in: a bit already set stays set and carries into
 * nothing (0x3 | 0x1 is 0x3; an add would make 0x4). */
TEST(cntnotify, a_bit_or_record_of_a_bit_already_set_changes_nothing)
{
    aclrtCntNotify n = NULL;
    aclrtCntNotifyRecordInfo r;
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0x3);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x1);
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(count_is(n, 0x3));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* The five wait modes (aclrtCntNotifyWaitMode) at their boundaries: with
 * the count at 6, each passes on one side and times out (107019) on the
 * other. */
TEST(cntnotify, wait_modes_at_their_boundaries)
{
    static const struct {
        aclrtCntNotifyWaitMode mode;
        uint32_t pass, fail;
    } cases[] = {
        {ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 7, 6},
        {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 6, 7},
        {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 5, 6},
        {ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 6, 7},
        {ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x6, 0x3},
    };
    aclrtCntNotify n = NULL;
    aclrtStream s = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 6);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        aclrtCntNotifyWaitInfo w = wait_info(cases[i].mode, cases[i].pass, 1, 0);
        ASSERT_OK(aclrtCreateStream(&s));
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 4000));
        w.value = cases[i].fail;
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
        ASSERT_OK(aclrtDestroyStreamForce(s));
    }
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* A wait parks its stream until a record on another stream brings the
 * count to its test (a gate holds the record back, so the wait is parked
 * first); the work queued after the wait runs only then. */
TEST(cntnotify, wait_parks_until_a_record_on_another_stream)
{
    static struct t_gate g;
    aclrtCntNotify n = NULL;
    aclrtStream rs = NULL, ws = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3, 0, 0);
    int64_t *x;
    setup950();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&rs));
    ASSERT_OK(aclrtCreateStream(&ws));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, ws, &w));
    t_launch_add(x, 1, ws);
    t_launch_gate(&g, rs);
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &r));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(ws, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(x[0], 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(ws, 4000));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclrtSynchronizeStream(rs));
    ASSERT_OK(aclrtDestroyStream(ws));
    ASSERT_OK(aclrtDestroyStream(rs));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* isClear: the wait that passes zeroes the count, so a second clearing
 * wait for the same count waits for new records; without it the count
 * stays. Order across streams: two waiters, one record releases both
 * only when neither clears. */
TEST(cntnotify, clearing_wait_zeroes_the_count)
{
    aclrtCntNotify n = NULL;
    aclrtStream a = NULL, b = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 4);
    aclrtCntNotifyWaitInfo keep = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 2, 0);
    aclrtCntNotifyWaitInfo clear = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 1, 1);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    /* Both parked, then one record releases both (neither clears). */
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, a, &keep));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, b, &keep));
    ASSERT_OK(aclrtCntNotifyRecord(n, NULL, &r));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 4000));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(b, 4000));
    /* A clearing wait passes once and leaves 0. */
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, a, &clear));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 4000));
    ASSERT_OK(count_is(n, 0));
    /* Second occurrence: nothing recorded since, the clearing wait times out. */
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, b, &clear));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(b, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    /* Parked first, then released by a record held behind a gate: the
     * record's release clears the count as well. */
    {
        static struct t_gate g;
        aclrtStream rs = NULL;
        aclrtCntNotifyWaitInfo clear_long = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 5, 1);
        ASSERT_OK(aclrtCreateStream(&rs));
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, a, &clear_long));
        t_launch_gate(&g, rs);
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &r));
        ASSERT(t_wait_flag(&g.started, 1));
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(a, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        atomic_store(&g.open, 1);
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(a, 4000));
        ASSERT_OK(aclrtSynchronizeStream(rs));
        ASSERT_OK(count_is(n, 0));
        ASSERT_OK(aclrtDestroyStream(rs));
    }
    ASSERT_OK(aclrtDestroyStreamForce(b));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* The timeout is in seconds (docs/zh/api_ref/25-04): a wait never
 * satisfied fails with 107019 after it, and STOP mode drops what
 * follows. */
TEST(cntnotify, wait_times_out_in_seconds)
{
    aclrtCntNotify n = NULL;
    aclrtStream s = NULL;
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 0, 1, 0);
    int64_t *x;
    uint64_t t0;
    setup950();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    t0 = t_now_ns();
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
    t_launch_add(x, 1, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT(t_now_ns() - t0 >= 1000u * 1000000u);
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* Destroying the notify while a stream waits on it: the handle dies at
 * once (107017 to later calls), the parked wait keeps the memory and ends
 * by its timeout; nothing is left when the stream goes. */
TEST(cntnotify, destroy_while_waited)
{
    aclrtCntNotify n = NULL, m = NULL;
    aclrtStream s = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 1);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 1, 0);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    ASSERT_RC(aclrtCntNotifyRecord(n, NULL, &r), ACL_ERROR_RT_INVALID_HANDLE);
    /* A new notify does not take the waited one's place. */
    ASSERT_OK(aclrtCntNotifyCreate(&m, 0));
    ASSERT_OK(aclrtCntNotifyRecord(m, NULL, &r));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_OK(aclrtCntNotifyDestroy(m));
    t_teardown();
}

/* Records on one stream keep their order: ADD 1, SET 10, ADD 1 leaves 11
 * however the engine schedules; and a wait on another stream for 11 sees
 * exactly that. */
TEST(cntnotify, records_keep_stream_order)
{
    aclrtCntNotify n = NULL;
    aclrtStream rs = NULL, ws = NULL;
    aclrtCntNotifyRecordInfo add = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    aclrtCntNotifyRecordInfo set = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 10);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 11, 5, 1);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&rs));
    ASSERT_OK(aclrtCreateStream(&ws));
    for (int round = 0; round < 50; round++) {
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, ws, &w));
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &add));
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &set));
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &add));
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(ws, 6000));
        ASSERT_OK(aclrtSynchronizeStream(rs));
    }
    ASSERT_OK(aclrtDestroyStream(ws));
    ASSERT_OK(aclrtDestroyStream(rs));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* A wait no queued record can release (waiting forever): a plain stream
 * destroy drops it after its grace, and the hang report names the
 * counting notify, its count and the call that would release it. */
TEST(cntnotify, destroy_drops_a_wait_nothing_records)
{
    aclrtCntNotify n = NULL;
    aclrtStream s = NULL;
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 9, 0, 0);
    int64_t *x;
    setup950();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclrtDestroyStream(s));
    {
        const char *m = aclGetRecentErrMsg(); /* read once: reading it clears it */
        ASSERT_STR_CONTAINS(m, "waits on counting notify");
        ASSERT_STR_CONTAINS(m, "its count is 0");
        ASSERT_STR_CONTAINS(m, "aclrtCntNotifyRecord");
    }
    ASSERT_EQ(x[0], 0); /* dropped, not run */
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* Counting notify tasks on a capturing stream become tasks of the model
 * (the reference's record and wait take a capture's task slot,
 * count_notify.cc): nothing runs at the capture; each replay adds, then
 * waits for and clears its count, so every replay finds the same state. */
TEST(cntnotify, tasks_are_captured_and_replayed)
{
    aclrtCntNotify n = NULL;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 2);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 2, 0, 1);
    int64_t *x;
    setup950();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_OK(aclrtCntNotifyRecord(n, s, &r));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &w));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(count_is(n, 0)); /* nothing ran at the capture */
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 4000));
    ASSERT_EQ(x[0], 3);
    ASSERT_OK(count_is(n, 0)); /* each replay's wait cleared its count */
    ASSERT_OK(aclmdlRIDestroy(m));
    /* A captured wait alone: a replay parks until a record on another
     * stream brings the count up. */
    {
        aclrtStream other = NULL;
        static struct t_gate g;
        aclrtCntNotifyRecordInfo one = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
        aclrtCntNotifyWaitInfo ge1 = wait_info(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 1, 0, 1);
        ASSERT_OK(aclrtCreateStream(&other));
        ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, s, &ge1));
        t_launch_add(x, 10, s);
        ASSERT_OK(aclmdlRICaptureEnd(s, &m));
        ASSERT_OK(aclmdlRIExecuteAsync(m, s));
        t_launch_gate(&g, other);
        ASSERT_OK(aclrtCntNotifyRecord(n, other, &one));
        ASSERT(t_wait_flag(&g.started, 1));
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        ASSERT_EQ(x[0], 3);
        atomic_store(&g.open, 1);
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 4000));
        ASSERT_EQ(x[0], 13);
        ASSERT_OK(count_is(n, 0)); /* the released wait cleared the count */
        ASSERT_OK(aclrtSynchronizeStream(other));
        ASSERT_OK(aclrtDestroyStream(other));
        ASSERT_OK(aclmdlRIDestroy(m));
    }
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* Eight streams parked on one notify, each for its own count (>= i): ADD
 * records released behind a gate bring the count up one at a time, and
 * each waiter goes on once the count reaches its value, not before. */
TEST(cntnotify, records_release_each_waiter_at_its_count)
{
    enum { W = 8 };
    static struct t_gate g[W];
    aclrtCntNotify n = NULL;
    aclrtStream rs = NULL, ws[W] = {NULL};
    aclrtCntNotifyRecordInfo add = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    int64_t *x;
    setup950();
    x = t_dev_i64(W);
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&rs));
    for (int i = 0; i < W; i++) {
        aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, (uint32_t)i + 1, 10, 0);
        ASSERT_OK(aclrtCreateStream(&ws[i]));
        ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, ws[i], &w));
        t_launch_add(&x[i], 1, ws[i]);
    }
    for (int i = 0; i < W; i++) {
        t_launch_gate(&g[i], rs);
        ASSERT_OK(aclrtCntNotifyRecord(n, rs, &add));
    }
    for (int i = 0; i < W; i++) {
        /* Count i: waiters 0..i-1 have gone on, waiter i has not. */
        ASSERT(t_wait_flag(&g[i].started, 1));
        for (int j = 0; j < i; j++)
            ASSERT_OK(aclrtSynchronizeStreamWithTimeout(ws[j], 4000));
        ASSERT_RC(aclrtSynchronizeStreamWithTimeout(ws[i], 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
        ASSERT_EQ(x[i], 0);
        atomic_store(&g[i].open, 1);
    }
    for (int i = 0; i < W; i++) {
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(ws[i], 4000));
        ASSERT_EQ(x[i], 1);
        ASSERT_OK(aclrtDestroyStream(ws[i]));
    }
    ASSERT_OK(aclrtSynchronizeStream(rs));
    ASSERT_OK(aclrtDestroyStream(rs));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* A wait a record released but its stream dropped before it ran again
 * (an abort while every worker is busy) leaves nothing behind: the
 * stream's next wait still tests its count. One worker, held by a gate,
 * keeps the released stream from running; the record runs on the syncing
 * thread. */
TEST(cntnotify, abort_drops_a_released_wait_with_its_grant)
{
    static struct t_gate g;
    aclrtCntNotify n = NULL;
    aclrtStream a = NULL, gs = NULL, rs = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 1);
    aclrtCntNotifyWaitInfo w1 = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 0, 0);
    aclrtCntNotifyWaitInfo w5 = wait_info(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 5, 1, 0);
    setenv("ACLCPU_WORKERS", "1", 1);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&gs));
    ASSERT_OK(aclrtCreateStream(&rs));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, a, &w1));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(a, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT); /* parked */
    t_launch_gate(&g, gs);
    ASSERT(t_wait_flag(&g.started, 1)); /* the only worker is busy */
    ASSERT_OK(aclrtCntNotifyRecord(n, rs, &r));
    ASSERT_OK(aclrtSynchronizeStream(rs)); /* run here: a is released, not run */
    ASSERT_OK(aclrtStreamAbort(a));
    ASSERT_OK(aclrtCntNotifyWaitWithTimeout(n, a, &w5));
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(a, 4000), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT_OK(aclrtSynchronizeStream(gs));
    ASSERT_OK(aclrtDestroyStreamForce(a));
    ASSERT_OK(aclrtDestroyStream(gs));
    ASSERT_OK(aclrtDestroyStream(rs));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* A counting notify is a device's: a record or wait on a stream of another
 * device is refused (107000), though both handles are live. */
TEST(cntnotify, a_record_on_a_stream_of_another_device_is_refused)
{
    aclrtCntNotify n = NULL;
    aclrtStream s1 = NULL;
    aclrtCntNotifyRecordInfo r = rec_info(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1);
    aclrtCntNotifyWaitInfo w = wait_info(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 1, 1, 0);
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    setup950();
    ASSERT_OK(aclrtCntNotifyCreate(&n, 0));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_RC(aclrtCntNotifyRecord(n, s1, &r), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "belongs to device 0");
    ASSERT_RC(aclrtCntNotifyWaitWithTimeout(n, s1, &w), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtResetDevice(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCntNotifyDestroy(n));
    t_teardown();
}
