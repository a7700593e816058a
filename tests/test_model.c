/*
 * test_model.c - model run instances in build mode (spec/acl-api.md §3.8,
 * §5 "Model RI / capture", "Model-control stream APIs",
 * aclrtPersistentTaskClean): the flow, every check and code, runs and
 * their order, switches and activations, abort, clean and unbind.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <acl/acl_mdl.h>

#include "test.h"

static aclrtStream persistent_stream(void)
{
    aclrtStream s = NULL;
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    return s;
}

/* A one-lane model: x += 1 twice per run. */
struct one_lane {
    aclmdlRI m;
    aclrtStream s, exec;
    int64_t *x;
};

static void one_lane_build(struct one_lane *o)
{
    o->x = t_dev_i64(1);
    o->s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&o->exec));
    ASSERT_OK(aclmdlRIBuildBegin(&o->m, 0));
    ASSERT_OK(aclmdlRIBindStream(o->m, o->s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_add(o->x, 1, o->s);
    t_launch_add(o->x, 1, o->s);
    ASSERT_OK(aclmdlRIEndTask(o->m, o->s));
    ASSERT_OK(aclmdlRIBuildEnd(o->m, NULL));
}

static void one_lane_free(struct one_lane *o)
{
    ASSERT_OK(aclmdlRIUnbindStream(o->m, o->s));
    ASSERT_OK(aclmdlRIDestroy(o->m));
    ASSERT_OK(aclrtDestroyStream(o->s));
    ASSERT_OK(aclrtDestroyStream(o->exec));
    ASSERT_OK(aclrtFree(o->x));
}

TEST(model, build_flow_records_then_runs_each_execute)
{
    static struct one_lane o;
    t_setup();
    one_lane_build(&o);
    ASSERT_EQ(o.x[0], 0); /* recorded, not run */
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(o.x[0], 6);
    ASSERT_OK(aclmdlRIExecute(o.m, 5000));
    ASSERT_EQ(o.x[0], 8);
    ASSERT_OK(aclmdlRIExecute(o.m, -1));
    ASSERT_EQ(o.x[0], 10);
    /* After aclmdlRIBuildEnd the bound stream takes no more tasks. */
    ASSERT_RC(aclrtLaunchKernel(t_add_kernel(), 1, NULL, 0, o.s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIBuildEnd");
    one_lane_free(&o);
    t_teardown();
}

/* A model's internal objects (its completion and edge events, the
 * streams that run its lanes) are never the user's: a handle forged to
 * name their slots (a user handle plus a few) is not a live handle, and a
 * record on it cannot leave the model's teardown waiting (found by
 * aclcpu-fuzz, seed 15: an "interior" event handle named a model's
 * completion event, and the reset that destroyed the model never returned). */
TEST(model, forged_handles_never_name_internal_objects)
{
    static struct one_lane o;
    aclrtEvent e = NULL;
    aclrtStream user = NULL;
    int32_t id;
    t_setup();
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtCreateStream(&user));
    one_lane_build(&o);
    ASSERT_OK(aclmdlRIExecute(o.m, -1)); /* its lanes' runners exist now */
    for (uintptr_t k = 1; k <= 16; k++) {
        aclrtEvent fe = (aclrtEvent)((uintptr_t)e + k);
        aclrtStream fs = (aclrtStream)((uintptr_t)user + k);
        aclrtEventRecordedStatus st;
        ASSERT_RC(aclrtRecordEvent(fe, o.exec), ACL_ERROR_RT_INVALID_HANDLE);
        ASSERT_RC(aclrtQueryEventStatus(fe, &st), ACL_ERROR_RT_INVALID_HANDLE);
        if (fs != o.s && fs != o.exec)
            ASSERT_RC(aclrtStreamGetId(fs, &id), ACL_ERROR_RT_INVALID_HANDLE);
    }
    one_lane_free(&o);
    ASSERT_OK(aclrtDestroyStream(user));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtResetDeviceForce(0)); /* returns: nothing of the model's waits on a user's record */
    t_teardown();
}

/* A stream bound to a model being built takes hardware-flag events only
 * (aclrtCreateEventWithFlag): recording or waiting on a plain
 * aclrtCreateEvent event or an Ex event there is 207000, every time
 * (api_impl.cc EventRecord, StreamWaitEvent); a SYNC-flag event is fine. */
TEST(model, bound_stream_takes_flag_events_only)
{
    aclrtStream s = NULL, other = NULL;
    aclrtEvent plain = NULL, ex = NULL, flag = NULL;
    aclmdlRI m = NULL;
    t_setup();
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEvent(&plain));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventWithFlag(&flag, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtRecordEvent(plain, other));
    ASSERT_OK(aclrtRecordEvent(ex, other));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC(aclrtRecordEvent(plain, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must come from aclrtCreateEventWithFlag (this one is a plain");
        ASSERT_RC(aclrtRecordEvent(ex, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_RC(aclrtStreamWaitEvent(s, plain), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        ASSERT_RC(aclrtStreamWaitEvent(s, ex), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    ASSERT_OK(aclrtRecordEvent(flag, s));
    ASSERT_OK(aclrtStreamWaitEvent(s, flag));
    ASSERT_OK(aclmdlRIEndTask(m, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecute(m, 5000));
    ASSERT_OK(aclmdlRIUnbindStream(m, s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclrtDestroyEvent(plain));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyEvent(flag));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

TEST(model, null_arguments)
{
    aclmdlRI m = NULL;
    aclrtStream s = NULL;
    t_setup();
    s = persistent_stream();
    ASSERT_RC(aclmdlRIBuildBegin(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIBindStream(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_RC(aclmdlRIBindStream(m, NULL, 0), ACL_ERROR_RT_PARAM_INVALID); /* the default stream: not PERSISTENT */
    ASSERT_RC(aclmdlRIEndTask(NULL, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIBuildEnd(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIBuildEnd(m, (void *)1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIBuildEnd: argument 'reserve' must be NULL");
    ASSERT_RC(aclmdlRIUnbindStream(NULL, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIExecute(NULL, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIExecuteAsync(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIAbort(NULL), ACL_ERROR_RT_PARAM_INVALID); /* checked by the runtime */
    ASSERT_RC(aclmdlRISetName(m, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetName(m, 8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetId(m, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetStreams(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID); /* checked by the runtime */
    ASSERT_RC(aclmdlRIGetTasksByStream(s, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIDebugJsonPrint(m, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_RC(aclmdlRIDestroy(m), ACL_ERROR_RT_INVALID_HANDLE); /* stale */
    ASSERT_RC(aclmdlRIExecuteAsync((aclmdlRI)0x1234, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(model, bind_rules)
{
    aclmdlRI m = NULL, m2 = NULL;
    aclrtStream plain = NULL, dev_only = NULL, fast = NULL, p = NULL;
    t_setup();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&m2, 0));
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_OK(aclrtCreateStreamWithConfig(&dev_only, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtCreateStreamWithConfig(&fast, 0, ACL_STREAM_PERSISTENT | ACL_STREAM_FAST_LAUNCH));
    p = persistent_stream();
    ASSERT_RC(aclmdlRIBindStream(m, plain, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_STREAM_PERSISTENT");
    /* DEVICE_USE_ONLY streams cannot be PERSISTENT: the runtime's check of
     * them (507000) comes after the PERSISTENT one and is never reached. */
    ASSERT_RC(aclmdlRIBindStream(m, dev_only, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIBindStream(m, fast, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIBindStream(m, p, 5), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_RC(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_RC(aclmdlRIBindStream(m2, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_RC(aclmdlRIEndTask(m2, p), ACL_ERROR_RT_INTERNAL_ERROR); /* not bound to m2 (Context::ModelAddEndGraph) */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIEndTask: argument 'stream'");
    ASSERT_RC(aclmdlRIUnbindStream(m2, p), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_OK(aclmdlRIEndTask(m, p));
    ASSERT_RC(aclmdlRIEndTask(m, p), ACL_ERROR_RT_INTERNAL_ERROR); /* one end task per model */
    ASSERT_RC(aclmdlRIEndTask(m, NULL), ACL_ERROR_RT_INTERNAL_ERROR); /* the count is checked before the stream */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "already has its end task");
    ASSERT_RC(aclmdlRIExecuteAsync(m, NULL), ACL_ERROR_RT_PARAM_INVALID); /* not built yet */
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_RC(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIExecuteAsync(m, p), ACL_ERROR_RT_PARAM_INVALID); /* a model's stream */
    ASSERT_RC(aclmdlRIExecute(m, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIExecute(m, -2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(m2));
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyStream(dev_only));
    ASSERT_OK(aclrtDestroyStream(fast));
    ASSERT_OK(aclrtDestroyStream(p));
    t_teardown();
}

TEST(model, bind_refuses_stop_mode_and_bound_streams_refuse_control_calls)
{
    aclmdlRI m = NULL;
    aclrtStream p = NULL, other = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    p = persistent_stream();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtSetStreamFailureMode(p, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtStreamAbort(p), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIAbort");
    ASSERT_RC(aclrtStreamStop(p), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetStreamFailureMode(other, ACL_STOP_ON_FAILURE)); /* the context goes STOP */
    ASSERT_OK(aclrtDestroyStream(other));
    other = persistent_stream();
    ASSERT_RC(aclmdlRIBindStream(m, other, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* x2 = x1 * 10 + 1, reading x1 after the other lane wrote it. */
static void k_times10(void *args)
{
    int64_t *const *p = args;
    *p[1] = *p[0] * 10 + 1;
}

/* Two lanes joined by an event: lane 2 waits for lane 1's record in every
 * run, never for a record of another run. */
TEST(model, events_between_lanes_order_every_run)
{
    aclmdlRI m = NULL;
    aclrtStream s1, s2, exec;
    aclrtEvent e = NULL;
    static struct t_gate g;
    int64_t *x = NULL;
    int64_t *pair[2];
    t_setup();
    x = t_dev_i64(2);
    pair[0] = &x[0];
    pair[1] = &x[1];
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, s1); /* holds lane 1 in the first run */
    t_launch_add(&x[0], 1, s1);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_times10", k_times10), 1, pair, sizeof(pair), s2));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(x[1], 0); /* lane 2 waits on lane 1 */
    atomic_store(&g.open, 1);
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 3);
    ASSERT_EQ(x[1], 31);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* The switch flow: a true switch starts its stream and skips the rest of
 * the current one; a false one goes on; an activated stream runs in
 * parallel with the one that activated it. */
TEST(model, switch_and_active_streams)
{
    aclmdlRI m = NULL;
    aclrtStream s1, s2, s3, exec;
    int32_t *flag = NULL, *one = NULL;
    int64_t *x = NULL;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&flag, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&one, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    *one = 1;
    s1 = persistent_stream();
    s2 = persistent_stream();
    s3 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclmdlRIBindStream(m, s3, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclrtSwitchStream(flag, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, s2, NULL, s1));
    t_launch_add(x, 100, s1); /* skipped when the switch jumps */
    t_launch_add(x, 1, s2);
    ASSERT_OK(aclrtActiveStream(s3, s2));
    t_launch_add(x, 10, s3);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    *flag = 1;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 11);
    *flag = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 111); /* the default streams never started */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(flag));
    ASSERT_OK(aclrtFree(one));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(model, switch_and_active_rules)
{
    aclmdlRI m = NULL;
    aclrtStream s1, s2, plain;
    int32_t *v = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&v, 8, ACL_MEM_MALLOC_HUGE_FIRST));
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_RC(aclrtActiveStream(NULL, s1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtActiveStream(s2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchStream(NULL, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, s1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, NULL, ACL_RT_SWITCH_INT32, s2, NULL, s1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, NULL, NULL, s1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, plain, s1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "falseStream");
    ASSERT_RC(aclrtSwitchStream(v, (aclrtCondition)6, v, ACL_RT_SWITCH_INT32, s2, NULL, s1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v, (aclrtCompareDataType)2, s2, NULL, s1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtActiveStream(s2, s1), ACL_ERROR_RT_STREAM_MODEL); /* not bound */
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtActiveStream(plain, s1), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclrtActiveStream(s2, s1));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtFree(v));
    t_teardown();
}

TEST(model, model_control_calls_not_on_a3)
{
    aclrtStream s1, s2;
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    t_setup();
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_RC(aclrtActiveStream(s2, s1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* tmp = x; then x = tmp + 1: two runs that overlapped would lose updates. */
static void k_load(void *args)
{
    int64_t *const *p = args;
    uint64_t until = t_now_ns() + 20000; /* widens the window an overlapping run would hit */
    *p[1] = *p[0];
    while (t_now_ns() < until)
        ;
}

static void k_store_plus_one(void *args)
{
    int64_t *const *p = args;
    *p[0] = *p[1] + 1;
}

enum { RUNS_PER_THREAD = 40 };

struct runner_arg {
    aclrtContext ctx;
    aclmdlRI m;
    _Atomic int bad;
};

static void *run_many(void *p)
{
    struct runner_arg *a = p;
    aclrtStream s = NULL;
    if (aclrtSetCurrentContext(a->ctx) != ACL_SUCCESS || aclrtCreateStream(&s) != ACL_SUCCESS) {
        atomic_store(&a->bad, 1);
        return NULL;
    }
    for (int i = 0; i < RUNS_PER_THREAD; i++)
        if (aclmdlRIExecuteAsync(a->m, s) != ACL_SUCCESS)
            atomic_store(&a->bad, 1);
    if (aclrtSynchronizeStream(s) != ACL_SUCCESS || aclrtDestroyStream(s) != ACL_SUCCESS)
        atomic_store(&a->bad, 1);
    return NULL;
}

/* Runs of one model from three threads and streams at once are serialised:
 * no run overlaps another, so no increment is lost. */
TEST(model, runs_from_several_streams_are_serialised)
{
    static struct runner_arg a;
    pthread_t th[3];
    aclrtStream s;
    int64_t *x;
    int64_t *pair[2];
    t_setup();
    x = t_dev_i64(2);
    pair[0] = &x[0];
    pair[1] = &x[1];
    s = persistent_stream();
    ASSERT_OK(aclrtGetCurrentContext(&a.ctx));
    ASSERT_OK(aclmdlRIBuildBegin(&a.m, 0));
    ASSERT_OK(aclmdlRIBindStream(a.m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_load", k_load), 1, pair, sizeof(pair), s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_store", k_store_plus_one), 1, pair, sizeof(pair), s));
    ASSERT_OK(aclmdlRIBuildEnd(a.m, NULL));
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, run_many, &a), 0);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    ASSERT_EQ(atomic_load(&a.bad), 0);
    ASSERT_EQ(x[0], 3 * RUNS_PER_THREAD);
    ASSERT_OK(aclmdlRIDestroy(a.m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A run is ordered after earlier work on its stream and before later work. */
TEST(model, run_is_ordered_within_its_stream)
{
    static struct one_lane o;
    static struct t_gate g;
    t_setup();
    one_lane_build(&o);
    t_launch_gate(&g, o.exec);
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    t_launch_add(o.x, 100, o.exec);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(o.x[0], 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(o.x[0], 102);
    one_lane_free(&o);
    t_teardown();
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* A failing kernel fails its run (the sync of the run's stream says so);
 * the next run is not affected. */
TEST(model, failing_kernel_fails_its_run)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_trap", k_trap), 1, NULL, 0, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_RC(aclrtSynchronizeStream(exec), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_RC(aclmdlRIExecute(m, 5000), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(x[0], 2);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* aclmdlRIAbort stops the run under way: the held kernel ends, nothing
 * after it runs, the run reports 507023; the next run runs in full. */
TEST(model, abort_of_a_running_model)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec;
    static struct t_gate g;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, s);
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIAbort(m)); /* not running: nothing to do */
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclmdlRIAbort(m));
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(exec), ACL_ERROR_RT_MODEL_ABORT_NORMAL);
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec)); /* the gate is open now */
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* aclmdlRIExecute gives up after its timeout with the sync timeout code. */
TEST(model, execute_times_out)
{
    aclmdlRI m = NULL;
    aclrtStream s;
    static struct t_gate g;
    t_setup();
    s = persistent_stream();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_RC(aclmdlRIExecute(m, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIExecute: the model did not finish within 50 ms");
    atomic_store(&g.open, 1);
    ASSERT_OK(aclmdlRIDestroy(m)); /* waits for the run */
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(model, persistent_task_clean_refills_a_lane)
{
    static struct one_lane o;
    aclrtStream plain = NULL, unbound = NULL;
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStream(&plain));
    unbound = persistent_stream();
    ASSERT_RC(aclrtPersistentTaskClean(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtPersistentTaskClean(plain), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_RC(aclrtPersistentTaskClean(unbound), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_OK(aclrtPersistentTaskClean(o.s));
    t_launch_add(o.x, 5, o.s);
    ASSERT_OK(aclmdlRIExecute(o.m, 5000));
    ASSERT_EQ(o.x[0], 5);
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyStream(unbound));
    one_lane_free(&o);
    t_teardown();
}

TEST(model, unbind_waits_for_runs_and_lists_streams)
{
    static struct one_lane o;
    static struct t_gate g;
    aclrtStream streams[2] = {NULL, NULL};
    aclmdlRITask tasks[4];
    uint32_t n = 0;
    aclrtStream gate_s;
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStream(&gate_s));
    ASSERT_OK(aclmdlRIGetStreams(o.m, NULL, &n));
    ASSERT_EQ(n, 1);
    n = 0;
    /* Too small: what fits is given, and 107039 (Model::ModelGetStreams). */
    ASSERT_RC(aclmdlRIGetStreams(o.m, streams, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIGetStreams: argument 'numStreams' (0)");
    ASSERT_EQ(n, 0);
    n = 2;
    streams[1] = (aclrtStream)0x1;
    ASSERT_OK(aclmdlRIGetStreams(o.m, streams, &n));
    ASSERT_EQ(n, 1);
    ASSERT(streams[0] == o.s);
    ASSERT(streams[1] == NULL); /* the rest is cleared */
    ASSERT_OK(aclmdlRIGetTasksByStream(o.s, NULL, &n));
    ASSERT_EQ(n, 3); /* two kernels and the end task */
    n = 2;
    ASSERT_RC(aclmdlRIGetTasksByStream(o.s, tasks, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    ASSERT_EQ(n, 2);
    ASSERT(tasks[0] != NULL && tasks[1] != NULL && tasks[0] != tasks[1]);
    n = 4;
    ASSERT_OK(aclmdlRIGetTasksByStream(o.s, tasks, &n));
    ASSERT_EQ(n, 3);
    ASSERT(tasks[0] != tasks[1]);
    ASSERT(tasks[3] == NULL);
    ASSERT_RC(aclmdlRIGetTasksByStream(gate_s, NULL, &n), ACL_ERROR_RT_PARAM_INVALID); /* bound to no model */
    t_launch_gate(&g, o.exec);
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_RC(aclmdlRIUnbindStream(o.m, o.s), ACL_ERROR_RT_MODEL_RUNNING);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(o.x[0], 2);
    ASSERT_OK(aclrtDestroyStream(gate_s));
    one_lane_free(&o);
    t_teardown();
}

/* aclmdlRIGetName's maxLen must hold the name and its NUL: a maxLen of
 * exactly the name's length is refused (507000) and writes nothing, one
 * more is enough. */
TEST(model, get_name_needs_room_for_the_terminating_nul)
{
    static struct one_lane o;
    char name[8];
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclmdlRIGetName(o.m, 1, name)); /* unnamed: "" fits in its NUL */
    ASSERT_EQ(name[0], '\0');
    ASSERT_OK(aclmdlRISetName(o.m, "abc"));
    memset(name, 'x', sizeof(name));
    ASSERT_RC(aclmdlRIGetName(o.m, 3, name), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'maxLen' (3)");
    ASSERT_EQ(name[0], 'x');
    ASSERT_OK(aclmdlRIGetName(o.m, 4, name));
    ASSERT(strcmp(name, "abc") == 0);
    one_lane_free(&o);
    t_teardown();
}

TEST(model, names_ids_and_json)
{
    static struct one_lane o;
    static char long_name[1024];
    char name[8], path[T_PATH_CAP], buf[4096];
    uint32_t id = 0;
    size_t n;
    FILE *f;
    int fd;
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclmdlRIGetName(o.m, sizeof(name), name));
    ASSERT_EQ(strlen(name), 0); /* no name set */
    ASSERT_OK(aclmdlRISetName(o.m, "decoder-step"));
    /* The whole name or an error, never a part (Model::GetModelName:
     * memcpy_s fails, RT_ERROR_SEC_HANDLE, 507000). */
    ASSERT_RC(aclmdlRIGetName(o.m, sizeof(name), name), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIGetName: argument 'maxLen' (8)");
    ASSERT_OK(aclmdlRIGetName(o.m, sizeof(long_name), long_name));
    ASSERT(strcmp(long_name, "decoder-step") == 0);
    memset(long_name, 'n', 700);
    long_name[700] = '\0';
    ASSERT_OK(aclmdlRISetName(o.m, long_name)); /* kept whole, past 512 bytes */
    memset(long_name, 0, sizeof(long_name));
    ASSERT_OK(aclmdlRIGetName(o.m, sizeof(long_name), long_name));
    ASSERT_EQ(strlen(long_name), 700);
    ASSERT_OK(aclmdlRISetName(o.m, "decoder-step"));
    ASSERT_OK(aclmdlRIGetId(o.m, &id));
    fd = t_tmpfile(path, sizeof(path), "aclcpu-model");
    close(fd);
    ASSERT_OK(aclmdlRIDebugJsonPrint(o.m, path, ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
    f = fopen(path, "r");
    ASSERT(f != NULL);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    ASSERT_STR_CONTAINS(buf, "\"name\": \"decoder-step\"");
    ASSERT_STR_CONTAINS(buf, "\"type\": \"KERNEL\", \"name\": \"t_add\", \"blockNum\": 1");
    ASSERT_STR_CONTAINS(buf, "\"args\": \"");
    ASSERT_STR_CONTAINS(buf, "\"type\": \"MODEL_END\"");
    ASSERT_RC(aclmdlRIDebugJsonPrint(o.m, "/nonexistent-dir/x.json", 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIDebugJsonPrint(o.m, path, 2)); /* a bit set: unknown bits do nothing */
    f = fopen(path, "r");
    ASSERT(f != NULL);
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    ASSERT(strstr(buf, "\"args\"") == NULL); /* summary */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_OK(aclmdlRIDebugPrint(o.m));
#pragma GCC diagnostic pop
    one_lane_free(&o);
    t_teardown();
}

/* A wait in a model on an event recorded outside it waits for the event's
 * newest record when the run gets there. */
TEST(model, wait_on_an_outside_event)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec, other;
    aclrtEvent e = NULL;
    static struct t_gate g;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtStreamWaitEvent(s, e));
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    t_launch_gate(&g, other);
    ASSERT_OK(aclrtRecordEvent(e, other));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(x[0], 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtDestroyStream(other));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

static _Atomic int host_calls;
static void host_count(void *arg)
{
    (void)arg;
    atomic_fetch_add(&host_calls, 1);
}

/* Copies, memsets and host functions are recorded and replayed too; the
 * lane runners are internal (no stream-state callbacks). */
static _Atomic int state_calls;
static void on_state(aclrtStream s, aclrtStreamState st, void *args)
{
    (void)s, (void)st, (void)args;
    atomic_fetch_add(&state_calls, 1);
}

TEST(model, copies_memsets_and_host_functions_replay)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec;
    int64_t *x, src = 42;
    t_setup();
    x = t_dev_i64(2);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtRegStreamStateCallback("mdl", on_state, NULL));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtMemsetAsync(&x[1], 8, 0, 8, s));
    ASSERT_OK(aclrtMemcpyAsync(&x[0], 8, &src, 8, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, host_count, NULL));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_EQ(atomic_load(&state_calls), 0);
    x[1] = 7;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 42);
    ASSERT_EQ(x[1], 0);
    ASSERT_EQ(atomic_load(&host_calls), 2);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_EQ(atomic_load(&state_calls), 0);
    ASSERT_OK(aclrtRegStreamStateCallback("mdl", NULL, NULL));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* Destroying the context (device reset) takes its models with it. */
TEST(model, device_reset_releases_models)
{
    static struct one_lane o;
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_RC(aclmdlRIDestroy(o.m), ACL_ERROR_RT_INVALID_HANDLE);
    aclFinalize();
}

/* ---- switch operands (issue 17, bug 5) ---------------------------------------------------- */

/* aclrtSwitchStream's leftValue and rightValue are device addresses: the
 * reference translates each to the device's address when it makes the
 * task, which fails (107000) for anything that is not device memory. Each
 * must hold a whole value of the switch's type inside its block (with the
 * block's 32-byte padding). Nothing refused is recorded. */
TEST(model, switch_operands_must_be_device_memory)
{
    aclmdlRI m = NULL;
    aclrtStream s1, s2, exec;
    int32_t on_stack = 1;
    char *v = NULL;
    void *h = NULL;
    int64_t *x = NULL;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&v, 4, ACL_MEM_MALLOC_HUGE_FIRST)); /* 4 bytes + 32 of padding */
    ASSERT_OK(aclrtMallocHost(&h, 64));
    memset(v, 0, 36);
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    for (int round = 0; round < 2; round++) {
        ASSERT_RC(aclrtSwitchStream((void *)0x1234, ACL_RT_EQUAL, (void *)0x5678, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSwitchStream: argument 'leftValue'");
        ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, (void *)0x5678, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'rightValue'");
        ASSERT_RC(aclrtSwitchStream(&on_stack, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtSwitchStream(h, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID); /* pinned host memory is not device memory */
        /* At the end of the block: 36 usable bytes. */
        ASSERT_RC(aclrtSwitchStream(v + 29, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT64, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs past the end");
        ASSERT_RC(aclrtSwitchStream(v, ACL_RT_EQUAL, v + 33, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtSwitchStream(v + 36, ACL_RT_EQUAL, v, ACL_RT_SWITCH_INT32, s2, NULL, s1),
                  ACL_ERROR_RT_PARAM_INVALID);
    }
    ASSERT_OK(aclrtSwitchStream(v + 28, ACL_RT_EQUAL, v + 20, ACL_RT_SWITCH_INT64, s2, NULL, s1)); /* 0 == 0 */
    t_launch_add(x, 100, s1); /* skipped: the switch jumps */
    t_launch_add(x, 1, s2);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1); /* only the accepted switch was recorded */
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFreeHost(h));
    ASSERT_OK(aclrtFree(v));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* Operands freed after the switch was recorded are never read: the run
 * fails (507011) and ends, each time it runs; the lane goes on past the
 * switch as if it did not hold. */
TEST(model, switch_with_freed_operands_fails_the_run)
{
    aclmdlRI m = NULL;
    aclrtStream s1, s2, exec;
    int32_t *flag = NULL, *one = NULL;
    int64_t *x = NULL;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&flag, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&one, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    *flag = 1;
    *one = 1;
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclrtSwitchStream(flag, ACL_RT_EQUAL, one, ACL_RT_SWITCH_INT32, s2, NULL, s1));
    t_launch_add(x, 100, s1);
    t_launch_add(x, 1, s2);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclrtFree(one)); /* the right operand goes */
    for (int run = 0; run < 2; run++) {
        ASSERT_RC(aclmdlRIExecute(m, -1), ACL_ERROR_RT_MODEL_EXECUTE);
        ASSERT_EQ(x[0], 1 + 100 * (run + 1)); /* not taken: lane 1 went on */
    }
    ASSERT_OK(aclrtFree(flag)); /* both gone */
    ASSERT_RC(aclmdlRIExecute(m, -1), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_EQ(x[0], 301);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- runs that can never start, and runs that fail as a whole (issue 17) ------------------- */

/* aclmdlRIExecuteAsync on a PERSISTENT stream is accepted, as the reference
 * does, and the run never starts (the stream's tasks run only in its own
 * model): destroy drops it, says why, and returns. */
TEST(model, destroy_drops_a_run_that_can_never_start)
{
    static struct one_lane o;
    aclrtStream p;
    t_setup();
    one_lane_build(&o);
    p = persistent_stream();
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, p));
    (void)aclGetRecentErrMsg();
    ASSERT_OK(aclmdlRIDestroy(o.m));
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "can never start");
    ASSERT_EQ(o.x[0], 0);
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(o.s));
    ASSERT_OK(aclrtDestroyStream(o.exec));
    ASSERT_OK(aclrtFree(o.x));
    t_teardown();
}

/* The same through device reset (contexts end their models first). */
TEST(model, reset_drops_a_run_that_can_never_start)
{
    static struct one_lane o;
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, persistent_stream()));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec)); /* waits for the first: dropped in turn */
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclmdlRIDestroy(o.m), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclFinalize());
}

struct destroy_call {
    aclrtContext ctx;
    aclmdlRI m;
    _Atomic int rc, done;
};

static void *destroy_model(void *arg)
{
    struct destroy_call *c = arg;
    if (aclrtSetCurrentContext(c->ctx) == ACL_SUCCESS)
        atomic_store(&c->rc, aclmdlRIDestroy(c->m));
    atomic_store(&c->done, 1);
    return NULL;
}

/* A destroy waiting for a run that is slow (not stuck) waits for it, and
 * holds no global lock meanwhile: another thread's capture goes on. */
TEST(model, destroy_waits_for_a_slow_run_without_the_capture_lock)
{
    static struct t_gate g;
    static struct destroy_call c;
    aclrtStream s, exec, cap;
    aclmdlRI m = NULL, m2 = NULL;
    int64_t *x;
    pthread_t th;
    t_setup();
    memset(&g, 0, sizeof(g));
    memset(&c, 0, sizeof(c));
    x = t_dev_i64(1);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateStream(&cap));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, s);
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.m = m;
    ASSERT_EQ(pthread_create(&th, NULL, destroy_model, &c), 0);
    /* Capture calls take the capture lock: they return while the destroy
     * still waits for the gated run. */
    ASSERT_OK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 100, cap);
    ASSERT_OK(aclmdlRICaptureEnd(cap, &m2));
    ASSERT_EQ(atomic_load(&c.done), 0);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&c.rc));
    ASSERT_EQ(x[0], 1); /* the slow run finished: destroy waited for it */
    ASSERT_OK(aclmdlRIDestroy(m2));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtDestroyStream(cap));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* Issue 19: a run dropped by aclrtStreamAbort before it started is
 * skipped, so the model's next run does not wait for it. */
TEST(model, run_dropped_by_abort_before_it_starts_is_skipped)
{
    static struct one_lane o;
    static struct t_gate g;
    aclrtStream gated, exec2;
    aclrtEvent e = NULL;
    t_setup();
    memset(&g, 0, sizeof(g));
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStream(&gated));
    ASSERT_OK(aclrtCreateStream(&exec2));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    t_launch_gate(&g, gated);
    ASSERT_OK(aclrtRecordEvent(e, gated));
    ASSERT_OK(aclrtStreamWaitEvent(o.exec, e));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec)); /* run 1: behind the wait */
    ASSERT_OK(aclrtStreamAbort(o.exec));           /* dropped before it started */
    for (int i = 0; i < 2; i++) {                  /* runs 2 and 3 (a second occurrence) */
        ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec2));
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(exec2, 10000));
    }
    ASSERT_EQ(o.x[0], 4);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(gated));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(gated));
    ASSERT_OK(aclrtDestroyStream(exec2));
    one_lane_free(&o);
    t_teardown();
}

/* Two HEAD lanes; lane 1 (s1) waits on an event that lane 2 (s2) records:
 * x[1] += 1 on s2, then record; x[0] += 1 on s1 after the wait. */
static aclmdlRI cross_lanes(aclrtStream s1, aclrtStream s2, aclrtEvent e, int64_t *x)
{
    aclmdlRI m = NULL;
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_add(&x[1], 1, s2);
    ASSERT_OK(aclrtRecordEvent(e, s2));
    ASSERT_OK(aclrtStreamWaitEvent(s1, e));
    t_launch_add(&x[0], 1, s1);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    return m;
}

/* A lane that cannot start (no memory for its task, injected) fails the
 * whole run: the other lane, waiting on its record, ends too, the run
 * reports the error, and later runs go on as usual. */
TEST(model, lane_start_failure_fails_the_whole_run)
{
    aclrtStream s1, s2, exec;
    aclrtEvent e = NULL;
    aclmdlRI m;
    int64_t *x;
    int failed = 0;
    setenv("ACLCPU_FAULT_LANE_START", "1", 1); /* the first lane start: lane 2 of run 1 */
    t_setup();
    x = t_dev_i64(2);
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateEventWithFlag(&e, ACL_EVENT_SYNC));
    m = cross_lanes(s1, s2, e, x);
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(exec, 10000), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_EQ(x[0], 0); /* lane 1 stopped: its kernel did not run */
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(exec, 10000));
    ASSERT_EQ(x[0], 1);
    ASSERT_EQ(x[1], 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    /* A second occurrence, later in the runs (which lane start is the
     * third depends on whether lane 1 had to park): one run fails, no
     * run hangs, and destroy returns. */
    setenv("ACLCPU_FAULT_LANE_START", "3", 1);
    m = cross_lanes(s1, s2, e, x);
    for (int i = 0; i < 4; i++) {
        aclError rc;
        ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
        rc = aclrtSynchronizeStreamWithTimeout(exec, 10000);
        ASSERT(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_MEMORY_ALLOCATION);
        failed += rc != ACL_SUCCESS;
    }
    ASSERT_EQ(failed, 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* Each switch condition at its boundary: operands equal, left one below
 * and one above right, run after run of one model (a true switch jumps to
 * s2, x += 1; a false one goes on, x += 100). */
TEST(model, switch_conditions_at_equal_operands)
{
    static const struct {
        aclrtCondition cond;
        int holds[3]; /* left == right, left < right, left > right */
    } table[] = {
        {ACL_RT_EQUAL, {1, 0, 0}},   {ACL_RT_NOT_EQUAL, {0, 1, 1}}, {ACL_RT_GREATER, {0, 0, 1}},
        {ACL_RT_GREATER_OR_EQUAL, {1, 0, 1}}, {ACL_RT_LESS, {0, 1, 0}}, {ACL_RT_LESS_OR_EQUAL, {1, 1, 0}},
    };
    static const int32_t lefts[3] = {5, 4, 6};
    aclrtStream exec;
    int32_t *left = NULL, *right = NULL;
    int64_t *x = NULL;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&left, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc((void **)&right, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    *right = 5;
    ASSERT_OK(aclrtCreateStream(&exec));
    for (size_t c = 0; c < sizeof(table) / sizeof(table[0]); c++) {
        aclmdlRI m = NULL;
        aclrtStream s1 = persistent_stream(), s2 = persistent_stream();
        ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
        ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
        ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
        ASSERT_OK(aclrtSwitchStream(left, table[c].cond, right, ACL_RT_SWITCH_INT32, s2, NULL, s1));
        t_launch_add(x, 100, s1);
        t_launch_add(x, 1, s2);
        ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
        for (int i = 0; i < 3; i++) {
            x[0] = 0;
            *left = lefts[i];
            ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
            ASSERT_OK(aclrtSynchronizeStream(exec));
            if (x[0] != (table[c].holds[i] ? 1 : 100))
                test_fail(__FILE__, __LINE__, "condition %d, left %d, right 5: x = %lld", (int)table[c].cond, lefts[i],
                          (long long)x[0]);
        }
        ASSERT_OK(aclmdlRIDestroy(m));
        ASSERT_OK(aclrtDestroyStream(s1));
        ASSERT_OK(aclrtDestroyStream(s2));
    }
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(left));
    ASSERT_OK(aclrtFree(right));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* Two runs dropped before they started, the later one first: run 2 is
 * noted skipped while run 1 is still owed, and passes once run 1 is
 * dropped too; the model's next runs wait for neither. */
TEST(model, runs_dropped_out_of_order_are_both_skipped)
{
    static struct one_lane o;
    static struct t_gate g;
    aclrtStream gated, exec2, exec3;
    aclrtEvent e = NULL;
    t_setup();
    memset(&g, 0, sizeof(g));
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStream(&gated));
    ASSERT_OK(aclrtCreateStream(&exec2));
    ASSERT_OK(aclrtCreateStream(&exec3));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, gated);
    ASSERT_OK(aclrtRecordEvent(e, gated));
    ASSERT_OK(aclrtStreamWaitEvent(o.exec, e));
    ASSERT_OK(aclrtStreamWaitEvent(exec2, e));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec)); /* run 1 */
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec2));  /* run 2 */
    ASSERT_OK(aclrtStreamAbort(exec2));           /* run 2 dropped first */
    ASSERT_OK(aclrtStreamAbort(o.exec));          /* then run 1 */
    for (int i = 0; i < 2; i++) {                 /* runs 3 and 4 */
        ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec3));
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(exec3, 10000));
    }
    ASSERT_EQ(o.x[0], 4);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(gated));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(gated));
    ASSERT_OK(aclrtDestroyStream(exec2));
    ASSERT_OK(aclrtDestroyStream(exec3));
    one_lane_free(&o);
    t_teardown();
}

/* The order of the checks of the model calls, where it shows: the bind's
 * flag before the handles, PERSISTENT before the stream's other rules, a
 * stream bound elsewhere before a captured model (api_c_model.cc
 * rtsModelBindStream, api_error.cc ModelBindStream); the acl layer's NULL
 * checks (100000) before a stale handle (107017), and the runtime's own
 * checks (107000) after it (model_ri.cpp, api_error.cc ModelGetName,
 * ModelGetStreams, StreamGetTasks, ModelAbort); a reserved BuildBegin flag
 * (rtsModelCreate). */
TEST(model, checks_in_the_reference_order)
{
    aclmdlRI m = NULL, stale = NULL, cap = NULL, other = NULL;
    aclrtStream p = NULL, fast = NULL, s = NULL;
    char name[8];
    uint32_t n = 0, id = 0;
    t_setup();
    p = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStreamWithConfig(&fast, 0, ACL_STREAM_FAST_LAUNCH));
    ASSERT_RC(aclmdlRIBuildBegin(&m, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIBuildBegin: argument 'flag'");
    ASSERT_OK(aclmdlRIBuildBegin(&stale, 0));
    ASSERT_OK(aclmdlRIDestroy(stale));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&other, 0));
    /* Bind: flag, handles, PERSISTENT, bound elsewhere, captured model. */
    ASSERT_RC(aclmdlRIBindStream(stale, p, 7), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'flag'");
    ASSERT_RC(aclmdlRIBindStream(stale, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIBindStream(m, fast, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_STREAM_PERSISTENT");
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclmdlRIExecuteAsync(m, s), ACL_ERROR_RT_STREAM_CAPTURED);
    t_launch_add(t_dev_i64(1), 1, s);
    ASSERT_OK(aclmdlRICaptureGetInfo(s, NULL, &cap));
    ASSERT_RC(aclmdlRIExecuteAsync(cap, NULL), ACL_ERROR_RT_MODEL_CAPTURED); /* still capturing */
    ASSERT_OK(aclmdlRICaptureEnd(s, &cap));
    ASSERT_OK(aclmdlRIBindStream(other, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclmdlRIBindStream(cap, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_STREAM_MODEL);
    ASSERT_OK(aclmdlRIUnbindStream(other, p));
    ASSERT_RC(aclmdlRIBindStream(cap, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIBindStream: argument 'modelRI': a model made by a capture");
    /* The other build calls refuse a captured model too (107000). */
    ASSERT_RC(aclmdlRIEndTask(cap, p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIUnbindStream(cap, p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIBuildEnd(cap, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIBuildEnd: argument 'modelRI'");
    ASSERT_RC(aclmdlRIExecute(cap, -1), ACL_ERROR_RT_PARAM_INVALID);
    /* NULLs of the acl layer before the handle, the runtime's after it. */
    ASSERT_RC(aclmdlRISetName(stale, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetName(stale, 8, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetName(stale, 0, name), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIGetName(m, 0, name), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIGetName: argument 'maxLen' is 0");
    ASSERT_RC(aclmdlRIGetId(stale, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIDebugJsonPrint(stale, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIGetStreams(NULL, NULL, &n), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIGetStreams(stale, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIGetStreams(m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIGetStreams: argument 'numStreams' is NULL");
    ASSERT_RC(aclmdlRIGetTasksByStream(NULL, NULL, &n), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIGetTasksByStream: argument 'stream' is NULL");
    ASSERT_RC(aclmdlRIAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIAbort(stale), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclmdlRIGetId(m, &id));
    ASSERT_OK(aclmdlRIDestroy(cap));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(other));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(fast));
    t_teardown();
}

static void *destroy_without_context(void *m)
{
    static aclError rc;
    rc = aclmdlRIDestroy(m);
    return &rc;
}

/* The model calls need the model's context to be the calling thread's
 * current one (api_impl.cc: CHECK_CONTEXT_VALID, then the model's context;
 * 107002 without one, 107004 for another): names, streams, builds, runs,
 * abort, prints and destroy; aclmdlRIGetId does not look at contexts. */
TEST(model, calls_need_the_models_context)
{
    aclrtContext a = NULL, b = NULL;
    aclmdlRI m = NULL;
    aclrtStream p = NULL, s = NULL;
    char name[8];
    uint32_t n = 0, id = 0;
    pthread_t th;
    void *ret = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateContext(&a, 0));
    p = persistent_stream();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclrtCreateContext(&b, 0)); /* current from here on */
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclmdlRISetName(m, "x"), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRISetName: argument 'modelRI'");
    ASSERT_RC(aclmdlRIGetName(m, sizeof(name), name), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIGetStreams(m, NULL, &n), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIBuildEnd(m, NULL), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIExecuteAsync(m, s), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIExecute(m, -1), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_RC(aclmdlRIAbort(m), ACL_ERROR_RT_MODEL_CONTEXT);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_RC(aclmdlRIDebugPrint(m), ACL_ERROR_RT_MODEL_CONTEXT);
#pragma GCC diagnostic pop
    ASSERT_RC(aclmdlRIDestroy(m), ACL_ERROR_RT_MODEL_CONTEXT);
    ASSERT_OK(aclmdlRIGetId(m, &id));
    ASSERT(pthread_create(&th, NULL, destroy_without_context, m) == 0);
    ASSERT(pthread_join(th, &ret) == 0);
    ASSERT_EQ(*(aclError *)ret, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtSetCurrentContext(a));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyContext(b));
    ASSERT_OK(aclrtDestroyContext(a));
    t_teardown();
}

/* On Ascend 950 a model runs on plain streams only: aclmdlRIExecuteAsync
 * on a PERSISTENT or DEVICE_USE_ONLY stream is 107000 there (api_error.cc
 * ModelExecute, under RT_FEATURE_MODEL_STREAM_DOT_SYNC, which only the 950
 * has: config/950/dev_info_reg.cc); other SoCs accept a PERSISTENT stream
 * (model.destroy_drops_a_run_that_can_never_start). */
TEST(model, execute_async_on_950_takes_plain_streams_only)
{
    static struct one_lane o;
    aclrtStream p = NULL, dev_only = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    one_lane_build(&o);
    p = persistent_stream();
    ASSERT_OK(aclrtCreateStreamWithConfig(&dev_only, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_RC(aclmdlRIExecuteAsync(o.m, p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIExecuteAsync: argument 'stream'");
    ASSERT_RC(aclmdlRIExecuteAsync(o.m, dev_only), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec));
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(o.x[0], 2);
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(dev_only));
    one_lane_free(&o);
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------------------- */

/* aclmdlRIGetId gives each model its own id: two models, two ids. */
TEST(model, each_model_has_its_own_id)
{
    aclmdlRI a = NULL, b = NULL;
    uint32_t ia = UINT32_MAX, ib = UINT32_MAX;
    t_setup();
    ASSERT_OK(aclmdlRIBuildBegin(&a, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIGetId(a, &ia));
    ASSERT_OK(aclmdlRIGetId(b, &ib));
    ASSERT(ia != ib);
    ASSERT_OK(aclmdlRIDestroy(a));
    ASSERT_OK(aclmdlRIDestroy(b));
    t_teardown();
}

/* A context in STOP failure mode (a stream of it set to STOP) binds no
 * stream to a model (207000, api_error.cc ModelBindStream), FAST_LAUNCH or not. */
TEST(model, a_stream_of_a_context_in_stop_mode_cannot_be_bound)
{
    aclmdlRI m = NULL;
    aclrtStream p = NULL, other = NULL;
    t_setup();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    p = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetStreamFailureMode(other, ACL_STOP_ON_FAILURE));
    ASSERT_RC(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "in STOP failure mode");
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* On Ascend 950 a CPU_SCHEDULE stream is no plain stream either: a model
 * run there is 107000 (api_error.cc ModelExecute). */
TEST(model, execute_async_on_950_refuses_a_cpu_schedule_stream)
{
    static struct one_lane o;
    aclrtStream cpu = NULL;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStreamWithConfig(&cpu, 0, ACL_STREAM_CPU_SCHEDULE));
    ASSERT_RC(aclmdlRIExecuteAsync(o.m, cpu), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "runs models on plain streams only");
    ASSERT_OK(aclrtDestroyStream(cpu));
    one_lane_free(&o);
    t_teardown();
}

/* A model runs only on a stream of its own device: a stream of device 1
 * is refused for a model of device 0 (107000), and nothing runs. */
TEST(model, a_model_runs_only_on_a_stream_of_its_device)
{
    static struct one_lane o;
    aclrtStream other = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetDevice(0));
    one_lane_build(&o);
    ASSERT_RC(aclmdlRIExecuteAsync(o.m, other), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "the model is on device 0");
    ASSERT_OK(aclrtSynchronizeStream(o.exec));
    ASSERT_EQ(o.x[0], 0);
    one_lane_free(&o);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* The model-control calls check the stream's context after the model
 * checks (api_impl.cc StreamActive, StreamSwitchEx): both streams of one
 * model, called from another context, are 107003. */
TEST(model, a_control_call_from_another_context_is_refused)
{
    aclmdlRI m = NULL;
    aclrtContext mine = NULL, other = NULL;
    aclrtStream s1, s2;
    t_setup();
    s1 = persistent_stream();
    s2 = persistent_stream();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, s2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_RC(aclrtActiveStream(s2, s1), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtActiveStream: argument 'stream'");
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtActiveStream(s2, s1));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* The build calls refuse a stream being captured (107027, api_error.cc
 * ModelEndGraph, ModelUnbindStream) before looking for its lane. */
TEST(model, build_calls_refuse_a_stream_being_captured)
{
    aclmdlRI m = NULL, cap = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    ASSERT_RC(aclmdlRIEndTask(m, s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is being captured");
    ASSERT_RC(aclmdlRIUnbindStream(m, s), ACL_ERROR_RT_STREAM_CAPTURED);
    ASSERT_OK(aclmdlRICaptureEnd(s, &cap));
    ASSERT_OK(aclmdlRIDestroy(cap));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: a run's error when an overflow comes first --------------------------------------- */

static void k_sw4_overflow(void *args)
{
    (void)args;
    aclcpuSetOverflow();
}

/* An overflow is only a "successful" code (spec §4): a real failure later
 * in the same run replaces it, so the run reports the failure. */
TEST(model, a_real_failure_after_an_overflow_in_one_run_is_what_the_run_reports)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec;
    t_setup();
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtSetStreamOverflowSwitch(s, 1));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_sw4_overflow", k_sw4_overflow), 1, NULL, 0, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("mdl_trap", k_trap), 1, NULL, 0, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_RC(aclmdlRIExecute(m, 5000), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    t_teardown();
}

/* A persistent stream keeps what is launched on it before any bind; the
 * bind moves those tasks into its lane, ahead of the ones launched after
 * it: a run plays both, in that order. */
TEST(model, tasks_launched_on_a_persistent_stream_before_its_bind_join_its_lane)
{
    aclmdlRI m = NULL;
    aclrtStream s, exec;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    s = persistent_stream();
    ASSERT_OK(aclrtCreateStream(&exec));
    t_launch_add(x, 1, s); /* kept, not run */
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_add(x, 10, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 11);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- sweep 5 (issue 19): skipped runs, and the lanes after an unbind or a clean ----------- */

/* Three runs dropped before they started, the later ones first: runs 3 and
 * 2 are noted skipped while run 1 is owed; when run 1 is dropped, both pass
 * after it, one after the other (each move may let the next one go), and
 * the model's next runs wait for none of them. */
TEST(model, runs_dropped_behind_an_owed_run_all_pass_when_it_does)
{
    static struct one_lane o;
    static struct t_gate g;
    aclrtStream gated, exec2, exec3, exec4;
    aclrtEvent e = NULL;
    t_setup();
    memset(&g, 0, sizeof(g));
    one_lane_build(&o);
    ASSERT_OK(aclrtCreateStream(&gated));
    ASSERT_OK(aclrtCreateStream(&exec2));
    ASSERT_OK(aclrtCreateStream(&exec3));
    ASSERT_OK(aclrtCreateStream(&exec4));
    ASSERT_OK(aclrtCreateEvent(&e));
    t_launch_gate(&g, gated);
    ASSERT_OK(aclrtRecordEvent(e, gated));
    ASSERT_OK(aclrtStreamWaitEvent(o.exec, e));
    ASSERT_OK(aclrtStreamWaitEvent(exec2, e));
    ASSERT_OK(aclrtStreamWaitEvent(exec3, e));
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, o.exec)); /* run 1 */
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec2));  /* run 2 */
    ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec3));  /* run 3 */
    ASSERT_OK(aclrtStreamAbort(exec3));           /* run 3 dropped first */
    ASSERT_OK(aclrtStreamAbort(exec2));           /* then run 2 */
    ASSERT_OK(aclrtStreamAbort(o.exec));          /* then run 1 */
    for (int i = 0; i < 2; i++) {                 /* runs 4 and 5 */
        ASSERT_OK(aclmdlRIExecuteAsync(o.m, exec4));
        ASSERT_OK(aclrtSynchronizeStreamWithTimeout(exec4, 10000));
    }
    ASSERT_EQ(o.x[0], 4);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(gated));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(gated));
    ASSERT_OK(aclrtDestroyStream(exec2));
    ASSERT_OK(aclrtDestroyStream(exec3));
    ASSERT_OK(aclrtDestroyStream(exec4));
    one_lane_free(&o);
    t_teardown();
}

/* Unbinding a stream moves the lanes after it up: the lane left still
 * lists its own tasks by stream (the unbound one's are gone). */
TEST(model, a_lane_moved_up_by_an_unbind_still_lists_its_tasks)
{
    aclmdlRI m = NULL;
    aclrtStream p1, p2;
    aclmdlRITask t[4] = {NULL, NULL, NULL, NULL};
    uint32_t n = 4;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    p1 = persistent_stream();
    p2 = persistent_stream();
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p1, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, p2, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_add(x, 1, p1);
    t_launch_add(x, 10, p2);
    t_launch_add(x, 10, p2);
    ASSERT_OK(aclmdlRIUnbindStream(m, p1)); /* p2's lane is the first now */
    ASSERT_OK(aclmdlRIGetTasksByStream(p2, t, &n));
    ASSERT_EQ(n, 2u);
    ASSERT(t[0] != NULL && t[1] != NULL);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p1));
    ASSERT_OK(aclrtDestroyStream(p2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A lane cleaned by aclrtPersistentTaskClean starts counting its tasks
 * anew: after one new launch it lists that one task only. */
TEST(model, a_cleaned_lane_lists_only_the_tasks_issued_after_the_clean)
{
    static struct one_lane o;
    aclmdlRITask t[8];
    uint32_t n = 8;
    t_setup();
    one_lane_build(&o); /* two kernels and the end task */
    ASSERT_OK(aclrtPersistentTaskClean(o.s));
    t_launch_add(o.x, 5, o.s);
    ASSERT_OK(aclmdlRIGetTasksByStream(o.s, t, &n));
    ASSERT_EQ(n, 1u);
    one_lane_free(&o);
    t_teardown();
}
