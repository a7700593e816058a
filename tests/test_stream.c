/*
 * test_stream.c - stream creation, flags, priority, ids, caps, destruction,
 * synchronisation and query, in-order execution, concurrency between
 * streams, priority dispatch, device-wide synchronisation, and what a
 * refused task leaves behind.
 *
 * Rules: spec/acl-api.md §4 (context requirement, NULL = default stream,
 * handle validation, default stream, stream caps, priority), §5 "Stream
 * creation / destruction", "Synchronization / query", "Queries", §6 stream
 * rows; DESIGN "Execution model".
 *
 * Blocked work is made with gate kernels that spin on a flag the test sets
 * (bounded by T_SPIN_LIMIT_NS); nothing sleeps to let the runtime settle. An
 * untimed synchronize may run a ready stream on the calling thread, so the
 * host never synchronizes a stream whose head waits for the host itself.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test.h"

#define BAD_HANDLE ((aclrtStream)(uintptr_t)0x1234)

/* Adds 1 to the counter its args point to. */
static void k_inc(void *args)
{
    _Atomic int *c = *(_Atomic int **)args;
    atomic_fetch_add(c, 1);
}

static void launch_inc(_Atomic int *c, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("stream_inc", k_inc), 1, &c, sizeof(c), s));
}

/* ---- creation: §6 rows -------------------------------------------------------- */

TEST(stream, create_null_out_pointer)
{
    /* The [acl] NULL check comes before the context check. */
    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    t_setup();
    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateStreamWithConfig(NULL, 0, ACL_STREAM_FAST_LAUNCH), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

TEST(stream, query_null_out_pointers)
{
    aclrtStream s = NULL;
    /* Without a context the [acl] check still answers first. */
    ASSERT_RC(aclrtStreamQuery(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetPriority(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetFlags(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetId(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetPriority(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetFlags(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamGetId(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtStreamQuery(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, no_context)
{
    aclrtStream s = NULL;
    aclrtStreamStatus st;
    uint32_t u;
    int32_t id;

    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, 0), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, 10), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamQuery(NULL, &st), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamGetPriority(NULL, &u), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamGetFlags(NULL, &u), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamGetId(NULL, &id), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetStreamAvailableNum(&u), ACL_ERROR_RT_CONTEXT_NULL);
    /* A handle is checked before the context (api_handle_guard.h). */
    ASSERT_RC(aclrtDestroyStream(BAD_HANDLE), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyStreamForce(BAD_HANDLE), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(10), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCtxGetCurrentDefaultStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

/* Every handle-taking stream call on a garbage handle, a handle of another
 * type, and a destroyed stream. */
static void check_stale_stream(aclrtStream h)
{
    aclrtStreamStatus st;
    uint32_t u;
    int32_t id;
    _Atomic int c = 0;
    _Atomic int *cp = &c;

    ASSERT_RC(aclrtSynchronizeStream(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(h, 100), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(h, -1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamQuery(h, &st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetPriority(h, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetFlags(h, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetId(h, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyStream(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyStreamForce(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtLaunchKernel(t_kernel("stream_inc", k_inc), 1, &cp, sizeof(cp), h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_EQ(atomic_load(&c), 0);
}

TEST(stream, garbage_handle)
{
    aclrtEvent ev = NULL;
    t_setup();
    check_stale_stream(BAD_HANDLE);
    check_stale_stream((aclrtStream)(uintptr_t)0xDEADBEEFCAFEF00Dull);
    check_stale_stream((aclrtStream)(uintptr_t)~(uintptr_t)0);
    /* A live handle of another type is not a stream. */
    ASSERT_OK(aclrtCreateEvent(&ev));
    check_stale_stream((aclrtStream)ev);
    ASSERT_OK(aclrtDestroyEvent(ev));
    t_teardown();
}

TEST(stream, destroyed_handle)
{
    aclrtStream s = NULL, s2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    check_stale_stream(s);
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtDestroyStreamForce(s2));
    check_stale_stream(s2);
    /* A new stream may reuse the memory; the old handle stays dead. */
    ASSERT_OK(aclrtCreateStream(&s2));
    check_stale_stream(s);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* A handle is a slot and a generation. Once a destroyed stream's slot is
 * reused (after 64 newer destroys of the type: the quarantine), its old
 * handle must still name nothing: checking only that the slot is live
 * would let it name the new stream. The test makes the reuse happen and
 * checks it did (same slot bits), then uses the old handle. */
#define T_QUARANTINE 64

TEST(stream, stale_handle_names_nothing_once_its_slot_is_reused)
{
    aclrtStream old = NULL, fresh = NULL, spare[T_QUARANTINE + 1];
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&old));
    for (int i = 0; i <= T_QUARANTINE; i++)
        ASSERT_OK(aclrtCreateStream(&spare[i]));
    ASSERT_OK(aclrtDestroyStream(old));
    for (int i = 0; i <= T_QUARANTINE; i++)
        ASSERT_OK(aclrtDestroyStream(spare[i]));
    /* More than the quarantine destroyed after it: its slot is next. */
    ASSERT_OK(aclrtCreateStream(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old);
    ASSERT(fresh != old);
    check_stale_stream(old);
    ASSERT_RC(aclrtDestroyStream(old), ACL_ERROR_RT_INVALID_HANDLE);
    /* The new stream is untouched by the stale calls. */
    t_launch_add(x, 5, fresh);
    ASSERT_OK(aclrtSynchronizeStream(fresh));
    ASSERT_EQ(*x, 5);
    ASSERT_OK(aclrtDestroyStream(fresh));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(stream, destroy_stream_of_other_context)
{
    aclrtContext primary = NULL, other = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtDestroyStreamForce(s), ACL_ERROR_RT_STREAM_CONTEXT);
    /* Synchronize works on another context's stream. */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

TEST(stream, sync_stream_of_other_context_waits)
{
    static struct t_gate g;
    static _Atomic int c;
    aclrtContext primary = NULL, other = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    launch_inc(&c, s);
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&c), 1);
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* ---- flags --------------------------------------------------------------------- */

TEST(stream, device_use_only_with_other_flag_rejected)
{
    aclrtStream s = NULL;
    uint32_t f = 0;
    t_setup();
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_SYNC),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 3, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_PERSISTENT),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_HUGE),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE),
              ACL_ERROR_RT_PARAM_INVALID);
    /* Alone it is fine. */
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, ACL_STREAM_DEVICE_USE_ONLY);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, unknown_flag_bits_dropped)
{
    aclrtStream s = NULL;
    uint32_t f = 0xFFFF;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, 0);
    ASSERT_OK(aclrtDestroyStream(s));

    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, 3);
    ASSERT_OK(aclrtDestroyStream(s));

    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, 0x100u | 0x80000000u | ACL_STREAM_FAST_LAUNCH));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, ACL_STREAM_FAST_LAUNCH);
    ASSERT_OK(aclrtDestroyStream(s));

    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, 0xFFFFFFC0u));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, 0);
    ASSERT_OK(aclrtDestroyStream(s));

    /* Dropped bits do not count as "other flags" next to DEVICE_USE_ONLY. */
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | 0x40u | 0x1000u));
    ASSERT_OK(aclrtStreamGetFlags(s, &f));
    ASSERT_EQ(f, ACL_STREAM_DEVICE_USE_ONLY);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- priority --------------------------------------------------------------------- */

TEST(stream, priority_clamped)
{
    aclrtStream s = NULL;
    uint32_t p = 99;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtStreamGetPriority(s, &p));
    ASSERT_EQ(p, 0);
    ASSERT_OK(aclrtDestroyStream(s));

    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 5, 0));
    ASSERT_OK(aclrtStreamGetPriority(s, &p));
    ASSERT_EQ(p, 5);
    ASSERT_OK(aclrtDestroyStream(s));

    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 8, 0));
    ASSERT_OK(aclrtStreamGetPriority(s, &p));
    ASSERT_EQ(p, 7);
    ASSERT_OK(aclrtDestroyStream(s));

    /* Read as signed: -1 is below the highest (see priority_is_clamped_as_a_signed_value). */
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, UINT32_MAX, 0));
    ASSERT_OK(aclrtStreamGetPriority(s, &p));
    ASSERT_EQ(p, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, default_stream_priority_is_zero)
{
    uint32_t p = 99;
    aclrtStream d = NULL;
    t_setup();
    ASSERT_OK(aclrtStreamGetPriority(NULL, &p));
    ASSERT_EQ(p, 0);
    p = 99;
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_OK(aclrtStreamGetPriority(d, &p));
    ASSERT_EQ(p, 0);
    t_teardown();
}

TEST(stream, priority_range)
{
    int32_t least = -1, greatest = -1;
    t_setup();
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
    ASSERT_EQ(least, 7);
    ASSERT_EQ(greatest, 0);
    least = -1;
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(&least, NULL));
    ASSERT_EQ(least, 7);
    greatest = -1;
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
    ASSERT_EQ(greatest, 0);
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(NULL, NULL));
    t_teardown();
}

/* A stream config handle takes every priority of the range, 7 (the
 * lowest) included, and the stream made from it has it; 8 is refused
 * (checks.stream_config_handle_rules). */
TEST(stream, stream_config_priority_7_the_lowest_is_accepted)
{
    aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
    aclrtStream s = NULL;
    uint32_t prio = 7, got = 99;
    ASSERT(h != NULL);
    ASSERT_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof(prio)));
    t_setup();
    ASSERT_OK(aclrtCreateStreamV2(&s, h));
    ASSERT_OK(aclrtStreamGetPriority(s, &got));
    ASSERT_EQ(got, 7);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStreamConfigHandle(h));
    t_teardown();
}

/* ---- ids and caps -------------------------------------------------------------------- */

TEST(stream, first_user_stream_id_is_one)
{
    aclrtStream s = NULL, d = NULL;
    int32_t id = -1, id_null = -1, id_d = -2;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtStreamGetId(s, &id));
    ASSERT_EQ(id, 1);
    ASSERT_OK(aclrtStreamGetId(NULL, &id_null));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_OK(aclrtStreamGetId(d, &id_d));
    ASSERT_EQ(id_null, id_d);
    ASSERT_NE(id_null, id);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, ids_are_distinct)
{
    enum { N = 64 };
    aclrtStream s[N];
    int32_t ids[N];
    t_setup();
    for (int i = 0; i < N; i++) {
        ASSERT_OK(aclrtCreateStream(&s[i]));
        ASSERT_OK(aclrtStreamGetId(s[i], &ids[i]));
        for (int j = 0; j < i; j++)
            ASSERT_NE(ids[i], ids[j]);
    }
    for (int i = 0; i < N; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    t_teardown();
}

/* Creates streams until the device refuses; returns how many it made. */
static uint32_t fill_streams(aclrtStream *out, uint32_t cap)
{
    uint32_t n = 0;
    aclError rc = ACL_SUCCESS;
    while (n < cap && (rc = aclrtCreateStream(&out[n])) == ACL_SUCCESS)
        n++;
    ASSERT_RC(rc, ACL_ERROR_RT_NO_STREAM_RESOURCE);
    return n;
}

TEST(stream, stream_cap_default_soc)
{
    /* Atlas A2: 1984 streams per device, the default stream included. */
    enum { CAP = 4096 };
    static aclrtStream s[CAP];
    uint32_t avail = 0, n;

    unsetenv("ACLCPU_SOC");
    t_setup();
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 1984 - 1);
    n = fill_streams(s, CAP);
    ASSERT_EQ(n, 1984 - 1);
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 0);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s[n], 3, ACL_STREAM_FAST_LAUNCH), ACL_ERROR_RT_NO_STREAM_RESOURCE);
    /* Freeing one makes room for exactly one. */
    ASSERT_OK(aclrtDestroyStream(s[n / 2]));
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 1);
    ASSERT_OK(aclrtCreateStream(&s[n / 2]));
    ASSERT_RC(aclrtCreateStream(&s[n]), ACL_ERROR_RT_NO_STREAM_RESOURCE);
    for (uint32_t i = 0; i < n; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 1984 - 1);
    t_teardown();
}

TEST(stream, stream_cap_counts_every_default_stream)
{
    /* Atlas inference: 1024 streams; two contexts hold two default streams. */
    enum { CAP = 2048 };
    static aclrtStream s[CAP];
    aclrtContext other = NULL;
    uint32_t avail = 0, n;

    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 1024 - 1);
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 1024 - 2);
    n = fill_streams(s, CAP);
    ASSERT_EQ(n, 1024 - 2);
    ASSERT_OK(aclrtGetStreamAvailableNum(&avail));
    ASSERT_EQ(avail, 0);
    for (uint32_t i = 0; i < n; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* ---- synchronize with timeout, query ---------------------------------------------------- */

TEST(stream, sync_with_timeout_bad_values)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    /* t < -1 is an [acl] check: it answers before the handle is looked at. */
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(BAD_HANDLE, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 1));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(NULL, 1000));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, sync_timeout_expires)
{
    static struct t_gate g;
    static _Atomic int c;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    launch_inc(&c, s);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&c), 0);
    /* The timeout abandoned nothing: the work finishes once released. */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    ASSERT_EQ(atomic_load(&c), 1);
    ASSERT_EQ(atomic_load(&g.timed_out), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(stream, sync_timeout_on_default_stream)
{
    static struct t_gate g;
    t_setup();
    t_launch_gate(&g, NULL);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    t_teardown();
}

TEST(stream, query_busy_then_complete)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    t_launch_gate(&g, s);
    st = ACL_STREAM_STATUS_RESERVED;
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    st = ACL_STREAM_STATUS_RESERVED;
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- PERSISTENT and DEVICE_USE_ONLY ----------------------------------------------------------- */

static void check_no_host_sync(uint32_t flag)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;

    memset(&g, 0, sizeof(g));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, flag));
    t_launch_gate(&g, s);
    /* Work is outstanding (the gate is shut), yet these answer at once. */
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 1));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&g.timed_out), 0);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtDestroyStreamForce(s));
}

TEST(stream, persistent_stream_sync_and_query_return_at_once)
{
    t_setup();
    check_no_host_sync(ACL_STREAM_PERSISTENT);
    t_teardown();
}

TEST(stream, device_use_only_stream_sync_and_query_return_at_once)
{
    t_setup();
    check_no_host_sync(ACL_STREAM_DEVICE_USE_ONLY);
    t_teardown();
}

TEST(stream, cpu_schedule_stream_sync_and_query_return_at_once)
{
    t_setup();
    check_no_host_sync(ACL_STREAM_CPU_SCHEDULE);
    t_teardown();
}

/* §5 flags: "PERSISTENT tasks don't run when issued" (they run when the
 * model they are bound to executes). One worker; the persistent stream has
 * the higher priority and its kernel is issued first, so if it were
 * runnable it would run before the probe on the ordinary stream. */
static _Atomic int persistent_ran;
static _Atomic int probe_saw;

static void k_probe(void *args)
{
    (void)args;
    atomic_store(&probe_saw, 1 + atomic_load(&persistent_ran));
}

TEST(stream, persistent_stream_tasks_do_not_run_when_issued)
{
    aclrtStream p = NULL, s = NULL;
    _Atomic int *pr = &persistent_ran;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 7, 0));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("stream_inc", k_inc), 1, &pr, sizeof(pr), p));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("stream_probe", k_probe), 1, NULL, 0, s));
    /* Spin rather than synchronize: a synchronizing host may run s itself. */
    ASSERT(t_wait_at_least(&probe_saw, 1));
    ASSERT_EQ(atomic_load(&probe_saw), 1); /* 2 would mean the persistent kernel ran first */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStreamForce(p));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A running low-priority stream yields to a higher-priority stream that
 * became ready, at its next task: not only at the every-64-tasks fairness
 * turn. One worker; it is inside the low stream's first kernel when the
 * high stream's kernel is issued, with 10 more queued behind it. */
TEST(stream, running_low_priority_stream_yields_to_a_ready_higher_one)
{
    static struct t_gate g;
    aclrtStream low = NULL, high = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&low, 7, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&high, 0, 0));
    t_launch_gate(&g, low);
    for (int i = 1; i <= 10; i++)
        t_launch_log(i, low);
    ASSERT(t_wait_at_least(&g.started, 1)); /* the worker runs low now */
    t_launch_log(100, high);
    atomic_store(&g.open, 1);
    /* Spin rather than synchronize: a synchronizing host may run a stream itself. */
    ASSERT(t_wait_at_least(&t_log_n, 11));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 100);
    for (int i = 1; i <= 10; i++)
        ASSERT_EQ(atomic_load(&t_log_v[i]), i);
    ASSERT_OK(aclrtDestroyStream(high));
    ASSERT_OK(aclrtDestroyStream(low));
    t_teardown();
}

/* ---- destroy ------------------------------------------------------------------------------------- */

static struct t_gate destroy_gate;
static _Atomic int destroy_pre_seen;

static void open_gate_on_destroy(aclrtStream stm, aclrtStreamState state, void *args)
{
    (void)stm;
    (void)args;
    if (state == ACL_RT_STREAM_STATE_DESTROY_PRE) {
        atomic_fetch_add(&destroy_pre_seen, 1);
        atomic_store(&destroy_gate.open, 1);
    }
}

TEST(stream, destroy_waits_for_queued_work)
{
    static _Atomic int c;
    aclrtStream s = NULL;
    uint32_t before = 0, after = 0;
    t_setup();
    ASSERT_OK(aclrtGetStreamAvailableNum(&before));
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&destroy_gate, s);
    for (int i = 0; i < 10; i++)
        launch_inc(&c, s);
    ASSERT(t_wait_flag(&destroy_gate.started, 1));
    /* The gate opens only once aclrtDestroyStream has been entered. */
    ASSERT_OK(aclrtRegStreamStateCallback("test_destroy_waits", open_gate_on_destroy, NULL));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_EQ(atomic_load(&destroy_pre_seen), 1);
    ASSERT_EQ(atomic_load(&destroy_gate.finished), 1);
    ASSERT_EQ(atomic_load(&c), 10);
    ASSERT_OK(aclrtRegStreamStateCallback("test_destroy_waits", NULL, NULL));
    ASSERT_OK(aclrtGetStreamAvailableNum(&after));
    ASSERT_EQ(after, before);
    t_teardown();
}

/*
 * Force destroy runs what was launched (the reference waits for the
 * stream's hardware queue to drain: stream.cc, Stream::TearDown). The head
 * kernel blocks a worker; a helper thread opens its gate, and the gate of
 * the kernel on another stream whose event the queued work waits for, only
 * after the stream's handle has died (i.e. inside aclrtDestroyStreamForce).
 * Behind the head: that wait, the N kernels, and a record of `tail`. All N
 * have run when the destroy returns.
 */
struct force_ctx {
    aclrtContext ctx;
    aclrtStream s;
    struct t_gate *head, *other;
    _Atomic int released;
};

static void *force_helper(void *arg)
{
    struct force_ctx *f = arg;
    aclrtStreamStatus st;
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    if (aclrtSetCurrentContext(f->ctx) != ACL_SUCCESS)
        return NULL;
    while (aclrtStreamQuery(f->s, &st) != ACL_ERROR_RT_INVALID_HANDLE && t_now_ns() < end)
        sched_yield();
    atomic_store(&f->head->open, 1);
    atomic_store(&f->other->open, 1);
    atomic_store(&f->released, 1);
    return NULL;
}

TEST(stream, destroy_force_runs_what_was_launched)
{
    enum { N = 16 };
    static struct t_gate head, other;
    static _Atomic int c;
    static struct force_ctx f;
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent block = NULL, tail = NULL;
    pthread_t th;
    uint32_t before = 0, after = 0;
    aclError rc;

    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtGetStreamAvailableNum(&before));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&block));
    ASSERT_OK(aclrtCreateEvent(&tail));
    t_launch_gate(&other, s2);
    ASSERT_OK(aclrtRecordEvent(block, s2));

    t_launch_gate(&head, s);
    ASSERT(t_wait_flag(&head.started, 1));
    ASSERT_OK(aclrtStreamWaitEvent(s, block));
    for (int i = 0; i < N; i++)
        launch_inc(&c, s);
    ASSERT_OK(aclrtRecordEvent(tail, s));

    ASSERT_OK(aclrtGetCurrentContext(&f.ctx));
    f.s = s;
    f.head = &head;
    f.other = &other;
    ASSERT_EQ(pthread_create(&th, NULL, force_helper, &f), 0);
    ASSERT_OK(aclrtDestroyStreamForce(s));
    ASSERT_EQ(atomic_load(&c), N); /* every kernel launched before the destroy ran */
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(atomic_load(&f.released), 1);
    ASSERT_EQ(atomic_load(&head.timed_out), 0);
    ASSERT_EQ(atomic_load(&other.timed_out), 0);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    rc = aclrtSynchronizeEventWithTimeout(tail, 2000);
    ASSERT(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_INVALID_HANDLE);
    check_stale_stream(s);
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtGetStreamAvailableNum(&after));
    ASSERT_EQ(after, before);
    t_teardown();
}

/* A stream created after another was destroyed (its memory may be reused)
 * runs each kernel once, and a synchronize returns only after it ended. */
TEST(stream, recreated_stream_runs_each_kernel_once)
{
    enum { N = 24 };
    static struct t_gate g[N];
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    for (int i = 0; i < N; i++) {
        aclrtStream s = NULL;
        ASSERT_OK(aclrtCreateStream(&s));
        t_launch_gate(&g[i], s);
        ASSERT(t_wait_at_least(&g[i].started, 1)); /* a worker runs it */
        atomic_store(&g[i].open, 1);
        ASSERT_OK(aclrtSynchronizeStream(s));
        ASSERT_EQ(atomic_load(&g[i].finished), 1);
        ASSERT_OK(aclrtDestroyStream(s));
        for (int j = 0; j <= i; j++) {
            ASSERT_EQ(atomic_load(&g[j].started), 1);
            ASSERT_EQ(atomic_load(&g[j].finished), 1);
        }
    }
    t_teardown();
}

TEST(stream, destroy_null)
{
    t_setup();
    ASSERT_RC(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* ---- execution order ---------------------------------------------------------------------------------- */

enum { ORDER_N = 200 };
static _Atomic int order_completed;
static _Atomic int order_blocks[ORDER_N];
static _Atomic int order_violations;

struct order_args {
    int index, blocks;
};

/* Every block of kernel i must see exactly i kernels completed; the last
 * block of kernel i to finish completes it. */
static void k_order(void *args)
{
    const struct order_args *a = args;
    if (atomic_load(&order_completed) != a->index)
        atomic_fetch_add(&order_violations, 1);
    if ((int)aclcpuGetBlockNum() != a->blocks)
        atomic_fetch_add(&order_violations, 1);
    if (atomic_fetch_add(&order_blocks[a->index], 1) == a->blocks - 1)
        atomic_fetch_add(&order_completed, 1);
}

TEST(stream, in_order_execution)
{
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("stream_order", k_order);
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    for (int i = 0; i < ORDER_N; i++) {
        struct order_args a = {i, 1 + i % 4};
        ASSERT_OK(aclrtLaunchKernel(k, (uint32_t)a.blocks, &a, sizeof(a), s));
    }
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&order_violations), 0);
    ASSERT_EQ(atomic_load(&order_completed), ORDER_N);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Two kernels on two streams that each wait for the other: they can only
 * both finish if they run at the same time. */
static _Atomic int conc_flag[2];
static _Atomic int conc_saw_other[2];

static void k_meet(void *args) { t_meet(conc_flag, conc_saw_other, *(const int *)args); }

TEST(stream, different_streams_run_concurrently)
{
    aclrtStream s[2] = {NULL, NULL};
    aclrtFuncHandle k = t_kernel("stream_meet", k_meet);
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtCreateStream(&s[i]));
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtLaunchKernel(k, 1, &i, sizeof(i), s[i]));
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtSynchronizeStream(s[i]));
    ASSERT_EQ(atomic_load(&conc_saw_other[0]), 1);
    ASSERT_EQ(atomic_load(&conc_saw_other[1]), 1);
    for (int i = 0; i < 2; i++)
        ASSERT_OK(aclrtDestroyStream(s[i]));
    t_teardown();
}

TEST(stream, default_stream_runs_concurrently_with_user_stream)
{
    /* §4: the default stream does not implicitly synchronize with others. */
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("stream_meet", k_meet);
    int zero = 0, one = 1;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(k, 1, &zero, sizeof(zero), NULL));
    ASSERT_OK(aclrtLaunchKernel(k, 1, &one, sizeof(one), s));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&conc_saw_other[0]), 1);
    ASSERT_EQ(atomic_load(&conc_saw_other[1]), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* With one worker blocked, a priority-7 then a priority-0 kernel are
 * queued; once the worker is free it must take the priority-0 one first.
 * Each logs its priority. */
TEST(stream, higher_priority_stream_runs_first)
{
    static struct t_gate g;
    aclrtStream blocker = NULL, low = NULL, high = NULL;

    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&blocker, 3, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&low, 7, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&high, 0, 0));
    t_launch_gate(&g, blocker);
    ASSERT(t_wait_flag(&g.started, 1));
    t_launch_log(7, low);
    t_launch_log(0, high);
    atomic_store(&g.open, 1);
    /* No synchronize yet: a synchronizing host may run a stream itself. */
    ASSERT(t_wait_at_least(&t_log_stored, 2)); /* read the log once both are stored */
    ASSERT_EQ(atomic_load(&t_log_v[0]), 0);
    ASSERT_EQ(atomic_load(&t_log_v[1]), 7);
    ASSERT_OK(aclrtSynchronizeStream(low));
    ASSERT_OK(aclrtSynchronizeStream(high));
    ASSERT_OK(aclrtSynchronizeStream(blocker));
    ASSERT_OK(aclrtDestroyStream(blocker));
    ASSERT_OK(aclrtDestroyStream(low));
    ASSERT_OK(aclrtDestroyStream(high));
    t_teardown();
}

/* ---- device-wide synchronisation ------------------------------------------------------------------------ */

struct release_ctx {
    _Atomic int go;
    struct t_gate *gates[3];
};

static void *release_when_told(void *arg)
{
    struct release_ctx *r = arg;
    (void)t_wait_flag(&r->go, 1);
    for (int i = 0; i < 3; i++)
        atomic_store(&r->gates[i]->open, 1);
    return NULL;
}

TEST(stream, synchronize_device_waits_for_every_stream)
{
    static struct t_gate g[3];
    static _Atomic int c[3];
    static struct release_ctx r;
    aclrtStream s1 = NULL, s2 = NULL;
    pthread_t th;

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    t_launch_gate(&g[0], s1);
    launch_inc(&c[0], s1);
    t_launch_gate(&g[1], s2);
    launch_inc(&c[1], s2);
    t_launch_gate(&g[2], NULL);
    launch_inc(&c[2], NULL);
    for (int i = 0; i < 3; i++)
        r.gates[i] = &g[i];
    ASSERT_EQ(pthread_create(&th, NULL, release_when_told, &r), 0);
    atomic_store(&r.go, 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(atomic_load(&c[i]), 1);
        ASSERT_EQ(atomic_load(&g[i].timed_out), 0);
    }
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(stream, synchronize_device_with_timeout)
{
    static struct t_gate g;
    static _Atomic int c;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(INT32_MIN), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(-1));
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(100));
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    launch_inc(&c, s);
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(30), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_EQ(atomic_load(&c), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(-1));
    ASSERT_EQ(atomic_load(&c), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- refused tasks ------------------------------------------------------------ */

/* A stopped stream (aclrtStreamStop: DEVICE_USE_ONLY streams on the
 * default A2) refuses every kind of task. The task was made before
 * the stream was looked at (stream_submit): a refused one gives back what
 * it held and changes nothing else. Its 300 argument bytes live on the
 * heap (the sanitizer and valgrind runs see a leak), a record takes no
 * record number (the event still reads as never recorded) and no event
 * id (aclrtCreateEvent events take theirs at their first record). */
TEST(stream, refused_tasks_leave_no_trace)
{
    unsigned char args[300] = {0};
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    uint32_t before = 0, after = 0;
    uint64_t ts;
    int32_t *buf = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtGetEventAvailNum(&before));
    ASSERT_OK(aclrtMalloc((void **)&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtStreamStop(s));
    ASSERT_RC(aclrtLaunchKernel(t_kernel("stream_nop", t_k_log), 1, args, sizeof(args), s),
              ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtLaunchKernel: stream");
    ASSERT_RC(aclrtRecordEvent(e, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "was stopped by aclrtStreamStop");
    ASSERT_RC(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "never recorded");
    ASSERT_OK(aclrtGetEventAvailNum(&after));
    ASSERT_EQ(after, before);
    ASSERT_RC(aclrtMemsetAsync(buf, 64, 0, 64, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtMemcpyAsync(buf, 32, buf + 8, 32, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtStreamWaitEvent(s, e), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtFree(buf));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static _Atomic int fair_a_done, fair_b_saw = -1;

static void k_fair_a(void *args)
{
    (void)args;
    atomic_fetch_add(&fair_a_done, 1);
}

static void k_fair_b(void *args)
{
    (void)args;
    atomic_store(&fair_b_saw, atomic_load(&fair_a_done));
}

/* A busy stream yields to a ready stream of its own priority at its
 * 64-task turn: one worker, inside the first of 200 tasks of stream a when
 * stream b's kernel is issued; b runs long before a's last task. */
TEST(stream, busy_stream_yields_to_a_ready_one_of_its_own_priority)
{
    static struct t_gate g;
    aclrtStream a = NULL, b = NULL;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&a, 3, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&b, 3, 0));
    t_launch_gate(&g, a);
    for (int i = 0; i < 200; i++)
        ASSERT_OK(aclrtLaunchKernel(t_kernel("fair_a", k_fair_a), 1, NULL, 0, a));
    ASSERT(t_wait_at_least(&g.started, 1)); /* the worker runs a now */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("fair_b", k_fair_b), 1, NULL, 0, b));
    atomic_store(&g.open, 1);
    /* Spin rather than synchronize: a synchronizing host may run a stream itself. */
    ASSERT(t_wait_at_least(&fair_a_done, 200));
    ASSERT(t_wait_at_least(&fair_b_saw, 0));
    ASSERT(atomic_load(&fair_b_saw) <= 64);
    ASSERT_OK(aclrtDestroyStream(b));
    ASSERT_OK(aclrtDestroyStream(a));
    t_teardown();
}

/* ---- the conformance audit: the reference's order of checks ------------------------------- */

/* Runs fn(arg) on a fresh thread, which has no current context. */
static void without_context(void *(*fn)(void *), void *arg)
{
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, fn, arg), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
}

/* The out-pointer, then the flags (CheckStreamFlags), then the context
 * (api_impl.cc StreamCreate): flags a device would refuse are refused even
 * where there is no context. */
TEST(stream, create_checks_pointer_then_flags_then_context)
{
    aclrtStream s = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateStreamWithConfig(NULL, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_FAST_LAUNCH),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCreateStreamWithConfig: argument 'flag'");
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT(s == NULL);
    ASSERT_OK(aclFinalize());
}

/* ACL_STREAM_HUGE is refused (207000) on the Atlas inference products,
 * whose runtime has no huge streams (RT_FEATURE_STREAM_HUGE_DEPTH is not
 * in config/dc), before the context; elsewhere the flag is kept. */
TEST(stream, create_huge_is_refused_on_310p_only)
{
    aclrtStream s = NULL;
    uint32_t flags = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_HUGE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_HUGE | ACL_STREAM_FAST_LAUNCH),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_STREAM_HUGE");
    ASSERT(s == NULL);
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend910B1", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_HUGE));
    ASSERT_OK(aclrtStreamGetFlags(s, &flags));
    ASSERT_EQ(flags, ACL_STREAM_HUGE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The default stream is made with FAST_LAUNCH and FAST_SYNC on the
 * products with a control queue (A2, A3, 950), with no flags elsewhere
 * (raw_device.cc, context.cc); aclrtStreamGetFlags shows them. */
TEST(stream, default_stream_flags_are_fast_launch_and_fast_sync_on_a2_a3_950)
{
    aclrtContext other = NULL;
    aclrtStream d = NULL;
    uint32_t flags = 99;
    t_setup();
    ASSERT_OK(aclrtStreamGetFlags(NULL, &flags));
    ASSERT_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    flags = 99;
    ASSERT_OK(aclrtStreamGetFlags(d, &flags));
    ASSERT_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    ASSERT_OK(aclrtCreateContext(&other, 0)); /* a context of its own: the same */
    flags = 99;
    ASSERT_OK(aclrtStreamGetFlags(NULL, &flags));
    ASSERT_EQ(flags, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtStreamGetFlags(NULL, &flags));
    ASSERT_EQ(flags, 0);
    t_teardown();
}

static void *stale_without_context(void *arg)
{
    aclrtStream h = arg;
    aclrtStreamStatus st;
    uint32_t u;
    int32_t id;
    ASSERT_RC(aclrtSynchronizeStream(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(h, 10), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamQuery(h, &st), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetPriority(h, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetFlags(h, &u), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtStreamGetId(h, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyStream(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyStreamForce(h), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtDestroyStreamForce: argument 'stream'");
    /* NULL names the default stream, which needs a context. */
    ASSERT_RC(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamQuery(NULL, &st), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID); /* before the context */
    return NULL;
}

/* A handle is validated at the reference's C entry, before any call looks
 * for the current context (api_handle_guard.h RT_VALIDATE_AND_UNWRAP_OBJECT):
 * a destroyed stream is 107017 in a thread with no context, not 107002. */
TEST(stream, handle_is_checked_before_the_context)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    without_context(stale_without_context, s);
    without_context(stale_without_context, BAD_HANDLE);
    t_teardown();
}

struct named_no_ctx {
    aclrtStream s, persistent;
    int32_t id;
};

static void *named_stream_without_context(void *arg)
{
    struct named_no_ctx *n = arg;
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    uint32_t u;
    ASSERT_OK(aclrtStreamGetId(n->s, &n->id));
    ASSERT_RC(aclrtStreamGetPriority(n->s, &u), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamGetFlags(n->s, &u), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtSynchronizeStream(n->s), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtStreamQuery(n->s, &st), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtDestroyStream(n->s), ACL_ERROR_RT_CONTEXT_NULL);
    /* A stream the host does not sync answers before the context is asked. */
    ASSERT_OK(aclrtSynchronizeStream(n->persistent));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(n->persistent, 5));
    ASSERT_OK(aclrtStreamQuery(n->persistent, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    return NULL;
}

/* Which calls need a current context for a named stream: GetId does not
 * (api_impl.cc GetStreamId); GetPriority, GetFlags, sync, query and
 * destroy do (107002), but a sync or query of a PERSISTENT stream answers
 * 0 before the context is looked for (api_error.cc StreamSynchronize). */
TEST(stream, get_id_and_syncs_the_host_skips_need_no_context)
{
    static struct named_no_ctx n;
    int32_t id = -1;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&n.s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&n.persistent, 0, ACL_STREAM_PERSISTENT));
    n.id = -1;
    without_context(named_stream_without_context, &n);
    ASSERT_OK(aclrtStreamGetId(n.s, &id));
    ASSERT_EQ(n.id, id);
    ASSERT_OK(aclrtDestroyStream(n.s));
    ASSERT_OK(aclrtDestroyStream(n.persistent));
    t_teardown();
}

/* A timeout below -1 is the acl layer's refusal, before the stream; 0 is
 * the runtime's, after the handle (stream.cpp
 * aclrtSynchronizeStreamWithTimeoutImpl; api_error.cc StreamSynchronize). */
TEST(stream, sync_timeout_below_minus_one_then_handle_then_zero)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(BAD_HANDLE, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSynchronizeStreamWithTimeout: argument 'timeout'");
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(BAD_HANDLE, 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(NULL, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 1));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Destroy: NULL (100000), the handle, a capture (107027), the context,
 * the stream's own context (107003), in that order (api_error.cc
 * StreamDestroy checks the capture before api_impl.cc looks at contexts). */
TEST(stream, destroy_checks_handle_then_capture_then_context_then_owner)
{
    aclrtContext ctx1 = NULL, other = NULL;
    aclmdlRI m = NULL;
    aclrtStream s = NULL, d = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&ctx1));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtCreateContext(&other, 0)); /* now current */
    ASSERT_RC(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtDestroyStream: stream");
    ASSERT_OK(aclrtSetCurrentContext(ctx1));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_RC(aclrtDestroyStreamForce(s), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(ctx1));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_RC(aclrtDestroyStream(d), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* A query in a context whose STOP mode tripped answers with the failure's
 * code, as its syncs do (api_impl.cc StreamQuery: CheckContextStatus). */
static void k_trap_query(void *args)
{
    (void)args;
    aclcpuTrap();
}

TEST(stream, query_reports_the_contexts_stop_failure)
{
    aclrtStream s = NULL, other = NULL;
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("stream_trap_query", k_trap_query), 1, NULL, 0, s));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtStreamQuery(s, &st), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtStreamQuery");
    ASSERT_RC(aclrtStreamQuery(other, &st), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION); /* the whole context */
    ASSERT_RC(aclrtStreamQuery(NULL, &st), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(st, ACL_STREAM_STATUS_NOT_READY); /* not written */
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void *clean_without_context(void *arg)
{
    aclrtStream *pair = arg;
    ASSERT_RC(aclrtPersistentTaskClean(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtPersistentTaskClean(BAD_HANDLE), ACL_ERROR_RT_INVALID_HANDLE);
    /* The stream's kind is checked before the context is looked for. */
    ASSERT_RC(aclrtPersistentTaskClean(pair[0]), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtPersistentTaskClean(pair[1]), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtPersistentTaskClean: stream");
    return NULL;
}

/* The model-control calls: aclrtSwitchStream checks its handles before its
 * ranges; aclrtActiveStream and aclrtSwitchStream refuse
 * a stream of another context (107003) after their model checks
 * (api_impl.cc StreamActive, StreamSwitchEx); aclrtPersistentTaskClean
 * checks NULL, the handle and the stream's kind before the context
 * (api_error_standard_soc.cc StreamTaskClean, then
 * api_impl_standard_soc.cc). */
TEST(stream, model_control_calls_check_the_streams_own_context_last)
{
    aclrtContext mine = NULL, other = NULL;
    aclrtStream s1 = NULL, s2 = NULL, plain = NULL;
    static aclrtStream pair[2];
    aclmdlRI m = NULL;
    int32_t *v = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtMalloc((void **)&v, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s1, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s2, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    /* The switch's handles come before its ranges. */
    ASSERT_RC(aclrtSwitchStream(v, (aclrtCondition)6, v, ACL_RT_SWITCH_INT32, BAD_HANDLE, NULL, s1),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSwitchStream(v, (aclrtCondition)6, v, ACL_RT_SWITCH_INT32, s2, NULL, s1),
              ACL_ERROR_RT_PARAM_INVALID);
    pair[0] = plain;
    pair[1] = s1; /* bound, but its model's build has not ended */
    without_context(clean_without_context, pair);
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtActiveStream(s2, s1), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtActiveStream: argument 'stream'");
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, s1), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtActiveStream(s2, s1));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtFree(v));
    t_teardown();
}

/* A stream of another context: the getters, the query, the priority
 * attribute, the cache-op switch and the core limits take it (the
 * reference checks no owner there: api_impl.cc StreamGetPriority,
 * StreamGetFlags, GetStreamId, StreamQuery, SetStreamPriorityValue,
 * SetStreamResLimit); the calls that change how it runs or fails refuse it
 * with 107003 (StreamSetMode, StreamAbort, SetStreamOverflowSwitch). */
TEST(stream, a_stream_of_another_context_is_read_by_every_getter_and_changed_by_few)
{
    aclrtContext mine = NULL, other = NULL;
    aclrtStreamAttrValue v;
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    aclrtStream s = NULL;
    uint32_t u = 99;
    int32_t id = -1;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 4, ACL_STREAM_FAST_SYNC));
    ASSERT_OK(aclrtCreateContext(&other, 0)); /* now current */
    ASSERT_OK(aclrtStreamGetPriority(s, &u));
    ASSERT_EQ(u, 4);
    ASSERT_OK(aclrtStreamGetFlags(s, &u));
    ASSERT_EQ(u, ACL_STREAM_FAST_SYNC);
    ASSERT_OK(aclrtStreamGetId(s, &id));
    ASSERT_EQ(id, 1);
    ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    memset(&v, 0, sizeof(v));
    v.streamPriority = 2;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    v.cacheOpInfoSwitch = 1;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
    ASSERT_OK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 2));
    ASSERT_RC(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetStreamFailureMode: stream");
    ASSERT_RC(aclrtStreamAbort(s), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtSetStreamOverflowSwitch(s, 1), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtStreamGetPriority(s, &u));
    ASSERT_EQ(u, 2);
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A priority is read as a signed 32-bit value and clamped to 0..7: one of
 * 2^31 or more is negative, so it becomes the highest (0), at creation
 * and through the attribute (api_c_stream.cc rtsStreamCreate stores it in
 * an int32_t; api_error.cc StreamCreate, SetStreamPriorityValue). */
TEST(stream, priority_is_clamped_as_a_signed_value)
{
    aclrtStreamAttrValue v;
    aclrtStream s = NULL;
    uint32_t prio = 99;
    t_setup();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0x80000000u, 0));
    ASSERT_OK(aclrtStreamGetPriority(s, &prio));
    ASSERT_EQ(prio, 0);
    memset(&v, 0, sizeof(v));
    v.streamPriority = 0x7fffffffu;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    ASSERT_OK(aclrtStreamGetPriority(s, &prio));
    ASSERT_EQ(prio, 7);
    v.streamPriority = 0xffffffffu;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
    ASSERT_OK(aclrtStreamGetPriority(s, &prio));
    ASSERT_EQ(prio, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- caller-runs stops at the caller's own target -------------------------------------------------- */

struct own_target_sync {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc, done;
};

static void *own_target_sync_thread(void *arg)
{
    struct own_target_sync *c = arg;
    aclError rc = aclrtSetCurrentContext(c->ctx);
    atomic_store(&c->rc, rc == ACL_SUCCESS ? aclrtSynchronizeStream(c->s) : rc);
    atomic_store(&c->done, 1);
    return NULL;
}

/* A host that runs its own stream in a synchronize (caller-runs) stops once
 * the stream has done the tasks issued before the sync: a task issued while
 * it ran is not its to run. One worker, held by a gate on another stream, so
 * only the syncing thread can run s; the task launched behind its target is
 * still unrun when the sync returns, and runs once the worker is free. */
TEST(stream, a_host_running_its_stream_in_a_sync_stops_at_its_own_target)
{
    static struct t_gate held, first;
    static struct own_target_sync c;
    aclrtStream other = NULL;
    pthread_t th;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateStream(&c.s));
    t_launch_gate(&held, other);
    ASSERT(t_wait_flag(&held.started, 1)); /* the one worker is busy */
    t_launch_gate(&first, c.s);            /* the sync's target: 1 task */
    ASSERT_EQ(pthread_create(&th, NULL, own_target_sync_thread, &c), 0);
    ASSERT(t_wait_flag(&first.started, 1)); /* run by the syncing thread */
    t_launch_log(1, c.s);                   /* behind the target */
    atomic_store(&first.open, 1);
    ASSERT(t_wait_flag(&c.done, 1));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_EQ(atomic_load(&t_log_n), 0); /* not run by the sync's thread */
    atomic_store(&held.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(c.s));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 1);
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclrtDestroyStream(c.s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* A device sync finds a stream of the context being captured and refuses
 * the whole sync (107027) before it waits for anything (context.cc
 * Context::Synchronize); the capture goes on and ends normally. */
TEST(stream, device_sync_is_refused_while_a_stream_of_the_context_is_captured)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSynchronizeDevice");
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(1000), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: the state callbacks' table at its end ---------------------------------------------- */

static void sw4_state_cb(aclrtStream stm, aclrtStreamState state, void *args)
{
    (void)stm, (void)state, (void)args;
}

/* 64 stream state callbacks may be registered at once: the 64th is taken,
 * the 65th refused naming the limit, and unregistering one makes room for
 * exactly one more. */
TEST(stream, at_most_64_state_callbacks_are_registered)
{
    char name[32];
    ASSERT_OK(aclInit(NULL));
    for (int i = 0; i < 64; i++) {
        snprintf(name, sizeof(name), "sw4_cb_%d", i);
        ASSERT_OK(aclrtRegStreamStateCallback(name, sw4_state_cb, NULL));
    }
    ASSERT_RC(aclrtRegStreamStateCallback("sw4_cb_64", sw4_state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "at most 64 callbacks");
    ASSERT_OK(aclrtRegStreamStateCallback("sw4_cb_10", NULL, NULL));
    ASSERT_OK(aclrtRegStreamStateCallback("sw4_cb_64", sw4_state_cb, NULL));
    ASSERT_RC(aclrtRegStreamStateCallback("sw4_cb_65", sw4_state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    for (int i = 0; i <= 64; i++) {
        snprintf(name, sizeof(name), "sw4_cb_%d", i);
        ASSERT_OK(aclrtRegStreamStateCallback(name, NULL, NULL));
    }
    ASSERT_OK(aclFinalize());
}

/* A plain destroy of a PERSISTENT stream drops what it kept at once: its
 * tasks never run by themselves, so there is nothing to wait for (no
 * teardown wait that gives up and reports them dropped), and none runs. */
TEST(stream, destroying_a_persistent_stream_drops_its_kept_tasks_without_waiting)
{
    aclrtStream p = NULL;
    int64_t *x;
    const char *msg;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    t_launch_add(x, 1, p);
    t_launch_add(x, 1, p);
    (void)aclGetRecentErrMsg(); /* a read takes the messages */
    ASSERT_OK(aclrtDestroyStream(p));
    msg = aclGetRecentErrMsg();
    ASSERT(msg == NULL || strstr(msg, "dropped its") == NULL);
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- sweep 5 (issue 19): what a device sync waits for --------------------------------------------- */

/* A device sync does not wait for a PERSISTENT stream's kept tasks: they
 * run only inside a model run, so the sync returns at once, nothing run
 * (a wait for them would end in the 2 s timeout instead). */
TEST(stream, a_device_sync_does_not_wait_for_a_persistent_streams_kept_tasks)
{
    aclrtStream p = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    t_launch_add(x, 1, p);
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(2000));
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- sweep 5 (issue 19): a reused stream slot's queue --------------------------------------------- */

/* A stream made in a destroyed stream's slot counts its tasks anew: the
 * old one's three completed tasks do not make the new one's first task
 * look done while it still waits on its gate. */
TEST(stream, a_stream_in_a_reused_slot_counts_its_tasks_anew)
{
    static struct t_gate g;
    aclrtStream old = NULL, fresh = NULL, spare[T_QUARANTINE + 1];
    aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&old));
    for (int i = 0; i < 3; i++)
        t_launch_add(x, 1, old);
    ASSERT_OK(aclrtSynchronizeStream(old));
    for (int i = 0; i <= T_QUARANTINE; i++)
        ASSERT_OK(aclrtCreateStream(&spare[i]));
    ASSERT_OK(aclrtDestroyStream(old));
    for (int i = 0; i <= T_QUARANTINE; i++)
        ASSERT_OK(aclrtDestroyStream(spare[i]));
    ASSERT_OK(aclrtCreateStream(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old); /* the same slot */
    t_launch_gate(&g, fresh);
    t_launch_add(x, 10, fresh);
    ASSERT_OK(aclrtStreamQuery(fresh, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_NOT_READY); /* the gate is shut */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(fresh));
    ASSERT_EQ(x[0], 13);
    ASSERT_OK(aclrtDestroyStream(fresh));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}
