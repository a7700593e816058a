/*
 * test_cond.c - conditional tasks of captured models
 * (aclmdlRICondHandleCreate, aclmdlRICondHandleGetCondPtr,
 * aclmdlRIAddCondTask): the reference's checks in order, the sub models
 * they make (captured with aclmdlRICaptureToModelRIBegin), and what runs
 * do: IF, WHILE, SWITCH, the default written at every launch.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "test.h"

/* A captured model on s with one conditional task of type over n sub
 * models; sub model i adds adds[i] to x. */
struct cmodel {
    aclrtStream s, sub, exec;
    aclmdlRI m;
    aclmdlRICondHandle c;
    uint64_t *word;
    aclmdlRI subs[4];
    int64_t *x;
};

static void cmodel_build(struct cmodel *t, aclmdlRICondTaskType type, uint32_t n, const int64_t *adds,
                         uint32_t def, aclmdlRICondHandleFlag flag)
{
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    memset(t, 0, sizeof(*t));
    t->x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&t->s));
    ASSERT_OK(aclrtCreateStream(&t->sub));
    ASSERT_OK(aclrtCreateStream(&t->exec));
    ASSERT_OK(aclmdlRICaptureBegin(t->s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_OK(aclmdlRICaptureGetInfo(t->s, &st, &t->m));
    ASSERT_OK(aclmdlRICondHandleCreate(t->m, def, flag, &t->c));
    ASSERT_OK(aclmdlRICondHandleGetCondPtr(t->c, &t->word));
    p.handle = t->c;
    p.type = type;
    p.size = n;
    p.modelRIArray = t->subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, t->s, 0));
    for (uint32_t i = 0; i < n; i++) {
        aclmdlRI got = NULL;
        ASSERT(t->subs[i] != NULL);
        ASSERT_OK(aclmdlRICaptureToModelRIBegin(t->sub, t->subs[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        t_launch_add(t->x, adds[i], t->sub);
        if (type == ACL_MODEL_RI_COND_TYPE_WHILE) /* the body counts the condition down */
            t_launch_add((int64_t *)t->word, -1, t->sub);
        ASSERT_OK(aclmdlRICaptureEnd(t->sub, &got));
        ASSERT(got == t->subs[i]);
    }
    t_launch_add(t->x, 1000, t->s); /* after the task: the stream goes on once the sub model ended */
    ASSERT_OK(aclmdlRICaptureEnd(t->s, &t->m));
}

/* Sets the condition to v (unless v is UINT64_MAX), runs the model; x
 * before the run is 0. */
static int64_t cmodel_run(struct cmodel *t, uint64_t v)
{
    if (v != UINT64_MAX)
        ASSERT_OK(aclrtMemcpy(t->word, sizeof(v), &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE));
    t->x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(t->m, t->exec));
    ASSERT_OK(aclrtSynchronizeStream(t->exec));
    return t->x[0];
}

static void cmodel_free(struct cmodel *t)
{
    ASSERT_OK(aclmdlRIDestroy(t->m));
    ASSERT_OK(aclrtDestroyStream(t->s));
    ASSERT_OK(aclrtDestroyStream(t->sub));
    ASSERT_OK(aclrtDestroyStream(t->exec));
    ASSERT_OK(aclrtFree(t->x));
}

/* IF: not 0 runs sub model 0, 0 runs sub model 1; each run reads the
 * condition anew (a second execution of the same model). */
TEST(cond, if_runs_the_branch_the_condition_names)
{
    const int64_t adds[2] = {1, 10};
    struct cmodel t;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_IF, 2, adds, 0, (aclmdlRICondHandleFlag)0);
    ASSERT_EQ(*t.word, 0u); /* a new condition is 0 */
    ASSERT_EQ(cmodel_run(&t, 1), 1001);
    ASSERT_EQ(cmodel_run(&t, 0), 1010);
    ASSERT_EQ(cmodel_run(&t, 7), 1001);
    cmodel_free(&t);
    t_teardown();
}

/* IF with one sub model: 0 runs nothing, the stream goes on. */
TEST(cond, if_without_else_skips_on_zero)
{
    const int64_t adds[1] = {1};
    struct cmodel t;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_IF, 1, adds, 0, (aclmdlRICondHandleFlag)0);
    ASSERT_EQ(cmodel_run(&t, 0), 1000);
    ASSERT_EQ(cmodel_run(&t, 1), 1001);
    cmodel_free(&t);
    t_teardown();
}

/* ASSIGN_DEFAULT: every launch writes the default into the condition, so
 * a value written before the launch is overwritten, every time (why the
 * vendor's 3_cond_model prints the false branch twice). */
TEST(cond, default_is_written_at_every_launch)
{
    const int64_t adds[2] = {1, 10};
    struct cmodel t;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_IF, 2, adds, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT);
    ASSERT_EQ(cmodel_run(&t, 1), 1010);
    ASSERT_EQ(*t.word, 0u);
    ASSERT_EQ(cmodel_run(&t, 1), 1010); /* the second execution too */
    cmodel_free(&t);
    /* A default of 1 takes the true branch whatever was written. */
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_IF, 2, adds, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT);
    ASSERT_EQ(cmodel_run(&t, 0), 1001);
    ASSERT_EQ(cmodel_run(&t, 0), 1001);
    cmodel_free(&t);
    t_teardown();
}

/* WHILE: the body runs while the condition is not 0, read again after
 * each run of the body (which counts it down here); 0 runs it never. */
TEST(cond, while_runs_until_the_condition_is_zero)
{
    const int64_t adds[1] = {1};
    struct cmodel t;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_WHILE, 1, adds, 0, (aclmdlRICondHandleFlag)0);
    ASSERT_EQ(cmodel_run(&t, 3), 1003);
    ASSERT_EQ(*t.word, 0u);
    ASSERT_EQ(cmodel_run(&t, 0), 1000);
    ASSERT_EQ(cmodel_run(&t, 1), 1001);
    cmodel_free(&t);
    t_teardown();
}

/* SWITCH: the condition picks sub model [v]; size - 1 is the last that
 * runs, size (first past it) and above run nothing. */
TEST(cond, switch_index_at_size_runs_nothing)
{
    const int64_t adds[3] = {1, 10, 100};
    struct cmodel t;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, adds, 0, (aclmdlRICondHandleFlag)0);
    ASSERT_EQ(cmodel_run(&t, 0), 1001);
    ASSERT_EQ(cmodel_run(&t, 2), 1100);
    ASSERT_EQ(cmodel_run(&t, 3), 1000);
    ASSERT_EQ(cmodel_run(&t, UINT64_MAX - 1), 1000);
    cmodel_free(&t);
    t_teardown();
}

/* The handle checks of aclmdlRICondHandleCreate, in order: NULLs
 * (100000), a stale model (107017), the flag (107000), a model that is
 * not a capture (207000), a capture that ended (107000). */
TEST(cond, create_checks_in_order)
{
    aclrtStream s = NULL;
    aclmdlRI built = NULL, m = NULL, dead = NULL;
    aclmdlRICondHandle c = NULL;
    aclmdlRICaptureStatus st;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRIBuildBegin(&built, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&dead, 0));
    ASSERT_OK(aclmdlRIDestroy(dead));
    ASSERT_RC(aclmdlRICondHandleCreate(NULL, 0, (aclmdlRICondHandleFlag)2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICondHandleCreate(built, 0, (aclmdlRICondHandleFlag)0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICondHandleCreate(dead, 0, (aclmdlRICondHandleFlag)2, &c), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRICondHandleCreate(built, 0, (aclmdlRICondHandleFlag)2, &c), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRICondHandleCreate(built, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &c),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 5, (aclmdlRICondHandleFlag)0, &c));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_RC(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not being captured");
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(built));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclmdlRICondHandleGetCondPtr: NULLs (100000); the word is device memory
 * (a copy takes it); the condition dies with its model (107017). */
TEST(cond, cond_ptr_is_device_memory_of_the_models_life)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRICondHandle c = NULL;
    aclmdlRICaptureStatus st;
    uint64_t *w = NULL, v = 42;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    ASSERT_RC(aclmdlRICondHandleGetCondPtr(NULL, &w), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICondHandleGetCondPtr(c, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRICondHandleGetCondPtr(s, &w), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclmdlRICondHandleGetCondPtr(c, &w));
    ASSERT_OK(aclrtMemcpy(w, sizeof(v), &v, sizeof(v), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_EQ(*w, 42u);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_RC(aclmdlRICondHandleGetCondPtr(c, &w), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclmdlRIAddCondTask, in order: stream NULL (100000); stale handles
 * (107017); type, flags, NULL handle, NULL array (107000); then the
 * stream not capturing (107029), a handle of another model (107000), the
 * size for the type (107000: last accepted / first refused), and a handle
 * used twice (107000). */
TEST(cond, add_task_checks_in_order)
{
    aclrtStream s = NULL, s2 = NULL, plain = NULL;
    aclmdlRI m = NULL, m2 = NULL, subs[3];
    aclmdlRICondHandle c = NULL, c2 = NULL, c3 = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s2, &st, &m2));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    ASSERT_OK(aclmdlRICondHandleCreate(m2, 0, (aclmdlRICondHandleFlag)0, &c2));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c3));

    p.handle = c;
    p.type = (aclmdlRICondTaskType)3;
    p.size = 0;
    p.modelRIArray = NULL;
    ASSERT_RC(aclmdlRIAddCondTask(p, NULL, 1), ACL_ERROR_INVALID_PARAM);
    p.handle = plain; /* not a condition */
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 1), ACL_ERROR_RT_INVALID_HANDLE);
    p.handle = c;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "params.type");
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "flags");
    p.handle = NULL;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "params.handle");
    p.handle = c;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "params.modelRIArray");
    p.modelRIArray = subs;
    ASSERT_RC(aclmdlRIAddCondTask(p, plain, 0), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    ASSERT_RC(aclmdlRIAddCondTask(p, s2, 0), ACL_ERROR_RT_PARAM_INVALID); /* c is m's, s2 captures m2 */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "another model");
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* IF, size 0 */
    p.size = 3;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* IF, first past 2 */
    p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
    p.size = 2;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* WHILE takes 1 */
    p.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
    p.size = 0;
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* SWITCH takes 1 or more */
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 2; /* last accepted */
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    ASSERT(subs[0] != NULL && subs[1] != NULL && subs[0] != subs[1]);
    ASSERT_RC(aclmdlRIAddCondTask(p, s, 0), ACL_ERROR_RT_PARAM_INVALID); /* c is used */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "already has its conditional task");
    p.handle = c3;
    p.size = 1;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0)); /* a fresh condition; IF with one sub model */

    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRICaptureEnd(s2, &m2));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(m2));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(plain));
    t_teardown();
}

/* Sub models run, abort and die only with their parent (207000), take
 * no build calls (107000), are captured into once, and go (107017) when
 * the parent is destroyed. */
TEST(cond, sub_models_go_with_their_parent)
{
    const int64_t adds[2] = {1, 10};
    struct cmodel t;
    aclrtStream p = NULL;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_IF, 2, adds, 0, (aclmdlRICondHandleFlag)0);
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_RC(aclmdlRIDestroy(t.subs[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIExecuteAsync(t.subs[0], t.exec), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIAbort(t.subs[1]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIGetStreams(t.subs[0], NULL, NULL), ACL_ERROR_RT_PARAM_INVALID); /* numStreams first */
    {
        uint32_t n = 0;
        ASSERT_RC(aclmdlRIGetStreams(t.subs[0], NULL, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    ASSERT_RC(aclmdlRIBindStream(t.subs[0], p, ACL_MODEL_STREAM_FLAG_HEAD), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRICaptureToModelRIBegin(t.sub, t.subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
              ACL_ERROR_RT_PARAM_INVALID); /* captured already */
    ASSERT_EQ(cmodel_run(&t, 1), 1001);
    ASSERT_OK(aclmdlRIDestroy(t.m));
    ASSERT_RC(aclmdlRIExecuteAsync(t.subs[0], t.exec), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRICondHandleGetCondPtr(t.c, &t.word), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(t.s));
    ASSERT_OK(aclrtDestroyStream(t.sub));
    ASSERT_OK(aclrtDestroyStream(t.exec));
    ASSERT_OK(aclrtFree(t.x));
    t_teardown();
}

/* Ending the parent's capture while a sub model's capture is under way:
 * 107045, and the capture gives no model (the sub capture stops with it). */
TEST(cond, parent_capture_end_refused_while_a_sub_model_captures)
{
    aclrtStream s = NULL, sub = NULL;
    aclmdlRI m = NULL, subs[1] = {NULL}, got = NULL;
    aclmdlRICondHandle c = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&sub));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    p.handle = c;
    p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
    p.size = 1;
    p.modelRIArray = subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclmdlRICaptureEnd(s, &got), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
    ASSERT(got == NULL);
    ASSERT_OK(aclmdlRICaptureGetInfo(sub, &st, &got));
    ASSERT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_RC(aclmdlRIDestroy(m), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(sub));
    t_teardown();
}

/* A stream captured into a sub model takes no external event (207000). */
TEST(cond, sub_model_takes_no_external_event)
{
    aclrtStream s = NULL, sub = NULL;
    aclmdlRI m = NULL, subs[1] = {NULL}, got = NULL;
    aclmdlRICondHandle c = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    aclrtEvent ex = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&sub));
    ASSERT_OK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    p.handle = c;
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 1;
    p.modelRIArray = subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtRecordEventWithFlag(ex, sub, ACL_EVENT_RECORD_EXTERNAL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclrtRecordEventWithFlag(ex, s, ACL_EVENT_RECORD_EXTERNAL)); /* the parent takes it */
    ASSERT_OK(aclmdlRICaptureEnd(sub, &got));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(ex));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(sub));
    t_teardown();
}

/* Destroying the parent right after launching runs (no sync) waits for
 * them, sub runs included: every run's work is done when it returns. */
TEST(cond, destroy_while_runs_are_going_waits_for_them)
{
    const int64_t adds[1] = {1};
    struct cmodel t;
    uint64_t three = 3;
    t_setup();
    cmodel_build(&t, ACL_MODEL_RI_COND_TYPE_WHILE, 1, adds, 0, (aclmdlRICondHandleFlag)0);
    t.x[0] = 0;
    for (int i = 0; i < 4; i++) { /* each run counts 3 down: the copy is ordered with the runs on exec */
        ASSERT_OK(aclrtMemcpyAsync(t.word, sizeof(three), &three, sizeof(three), ACL_MEMCPY_HOST_TO_DEVICE, t.exec));
        ASSERT_OK(aclmdlRIExecuteAsync(t.m, t.exec));
    }
    ASSERT_OK(aclmdlRIDestroy(t.m));
    ASSERT_OK(aclrtSynchronizeStream(t.exec));
    ASSERT_EQ(t.x[0], 4 * 1003);
    ASSERT_OK(aclrtDestroyStream(t.s));
    ASSERT_OK(aclrtDestroyStream(t.sub));
    ASSERT_OK(aclrtDestroyStream(t.exec));
    ASSERT_OK(aclrtFree(t.x));
    t_teardown();
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* A sub model whose kernel fails fails the parent's run with the kernel's
 * code; the parent's stream goes on past the task, and the next run with
 * the other branch succeeds. */
TEST(cond, a_failing_sub_model_fails_the_parent_run)
{
    aclrtStream s = NULL, sub = NULL, exec = NULL;
    aclmdlRI m = NULL, subs[2] = {NULL, NULL}, got = NULL;
    aclmdlRICondHandle c = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    uint64_t *w = NULL;
    int64_t *x;
    aclError rc;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&sub));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    ASSERT_OK(aclmdlRICondHandleGetCondPtr(c, &w));
    p.handle = c;
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 2;
    p.modelRIArray = subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("cond_trap", k_trap), 1, NULL, 0, sub));
    ASSERT_OK(aclmdlRICaptureEnd(sub, &got));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[1], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 10, sub);
    ASSERT_OK(aclmdlRICaptureEnd(sub, &got));
    t_launch_add(x, 1000, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    *w = 1;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    rc = aclrtSynchronizeStream(exec);
    ASSERT(rc == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION || rc == ACL_ERROR_RT_AICORE_EXCEPTION); /* the kernel's */
    ASSERT_EQ(x[0], 1000);
    *w = 0;
    x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1010);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(sub));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A sub model can hold a conditional task of its own: the inner sub model
 * runs when both conditions say so, and a launch of the root writes the
 * defaults of both (ASSIGN_DEFAULT, default 1 for the inner one). */
TEST(cond, nested_conditional_tasks_run_and_take_defaults)
{
    aclrtStream s = NULL, sub = NULL, inner = NULL, exec = NULL;
    aclmdlRI m = NULL, subs[1] = {NULL}, isubs[1] = {NULL}, got = NULL;
    aclmdlRICondHandle c = NULL, ic = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    uint64_t *w = NULL, *iw = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&sub));
    ASSERT_OK(aclrtCreateStream(&inner));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    ASSERT_OK(aclmdlRICondHandleGetCondPtr(c, &w));
    p.handle = c;
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 1;
    p.modelRIArray = subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 1, sub);
    ASSERT_OK(aclmdlRICondHandleCreate(subs[0], 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ic));
    ASSERT_OK(aclmdlRICondHandleGetCondPtr(ic, &iw));
    p.handle = ic;
    p.modelRIArray = isubs;
    ASSERT_OK(aclmdlRIAddCondTask(p, sub, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(inner, isubs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_add(x, 10, inner);
    ASSERT_OK(aclmdlRICaptureEnd(inner, &got));
    ASSERT_OK(aclmdlRICaptureEnd(sub, &got));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    *w = 1;
    *iw = 0; /* overwritten with 1 by the launch */
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 11);
    ASSERT_EQ(*iw, 1u);
    *w = 0;
    x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(sub));
    ASSERT_OK(aclrtDestroyStream(inner));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* The parent of a gated sub model run, for the hang tests: IF over one
 * sub model (gate, then x += 1), then x += 1000 on the parent's stream. */
static void gated_model(struct cmodel *t, _Atomic int *open)
{
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    aclmdlRI got = NULL;
    memset(t, 0, sizeof(*t));
    t->x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&t->s));
    ASSERT_OK(aclrtCreateStream(&t->sub));
    ASSERT_OK(aclrtCreateStream(&t->exec));
    ASSERT_OK(aclmdlRICaptureBegin(t->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(t->s, &st, &t->m));
    ASSERT_OK(aclmdlRICondHandleCreate(t->m, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &t->c));
    p.handle = t->c;
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 1;
    p.modelRIArray = t->subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, t->s, 0));
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(t->sub, t->subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_flag_gate(open, t->sub);
    t_launch_add(t->x, 1, t->sub);
    ASSERT_OK(aclmdlRICaptureEnd(t->sub, &got));
    t_launch_add(t->x, 1000, t->s);
    ASSERT_OK(aclmdlRICaptureEnd(t->s, &t->m));
}

/* A timed sync that expires while a sub model's kernel runs says so: the
 * run waits for the sub model's run, whose lane runs (not a hang). */
TEST(cond, a_timed_out_sync_names_the_sub_model_run)
{
    struct cmodel t;
    _Atomic int open = 0;
    t_setup();
    gated_model(&t, &open);
    ASSERT_OK(aclmdlRIExecuteAsync(t.m, t.exec));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(t.exec, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "sub model");
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(t.exec));
    ASSERT_EQ(t.x[0], 1001);
    cmodel_free(&t);
    t_teardown();
}

struct opener {
    _Atomic int *open;
    uint64_t after_ns;
};

static void *open_later(void *arg)
{
    const struct opener *o = arg;
    struct timespec ts = {(time_t)(o->after_ns / 1000000000ull), (long)(o->after_ns % 1000000000ull)};
    nanosleep(&ts, NULL);
    atomic_store(o->open, 1);
    return NULL;
}

/* Destroying the parent while a sub model's kernel runs longer than the
 * teardown's grace (200 ms) waits for it: a lane waiting for its sub
 * model's run is not a hang, so the run is not stopped (the parent's
 * stream still adds its 1000). */
TEST(cond, teardown_waits_for_a_long_sub_model_run)
{
    struct cmodel t;
    _Atomic int open = 0;
    struct opener o = {&open, 600000000ull}; /* three graces */
    pthread_t th;
    t_setup();
    gated_model(&t, &open);
    ASSERT_OK(aclmdlRIExecuteAsync(t.m, t.exec));
    ASSERT_EQ(pthread_create(&th, NULL, open_later, &o), 0);
    ASSERT_OK(aclmdlRIDestroy(t.m));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(aclrtSynchronizeStream(t.exec));
    ASSERT_EQ(t.x[0], 1001);
    ASSERT_OK(aclrtDestroyStream(t.s));
    ASSERT_OK(aclrtDestroyStream(t.sub));
    ASSERT_OK(aclrtDestroyStream(t.exec));
    ASSERT_OK(aclrtFree(t.x));
    t_teardown();
}

/* ---- sweep 5 (issue 19): a sub model's sub model still capturing ------------------------ */

/* Ending a capture checks the sub models of its sub models too: a capture
 * into a sub model of a sub model (whose own capture has ended) still
 * under way refuses the outer end (107045), and the capture gives no model. */
TEST(cond, parent_capture_end_refused_while_a_nested_sub_model_captures)
{
    aclrtStream s = NULL, sub = NULL, inner = NULL;
    aclmdlRI m = NULL, subs[1] = {NULL}, nested[1] = {NULL}, got = NULL;
    aclmdlRICondHandle c = NULL, c2 = NULL;
    aclmdlRICaptureStatus st;
    aclmdlRICondTaskParams p;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&sub));
    ASSERT_OK(aclrtCreateStream(&inner));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, &m));
    ASSERT_OK(aclmdlRICondHandleCreate(m, 0, (aclmdlRICondHandleFlag)0, &c));
    p.handle = c;
    p.type = ACL_MODEL_RI_COND_TYPE_IF;
    p.size = 1;
    p.modelRIArray = subs;
    ASSERT_OK(aclmdlRIAddCondTask(p, s, 0));
    /* The sub model takes a conditional task of its own, and its capture ends. */
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(sub, subs[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICondHandleCreate(subs[0], 0, (aclmdlRICondHandleFlag)0, &c2));
    p.handle = c2;
    p.modelRIArray = nested;
    ASSERT_OK(aclmdlRIAddCondTask(p, sub, 0));
    ASSERT_OK(aclmdlRICaptureEnd(sub, &got));
    ASSERT(got == subs[0]);
    /* Its sub model's capture goes on when the outer one ends. */
    ASSERT_OK(aclmdlRICaptureToModelRIBegin(inner, nested[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    got = NULL;
    ASSERT_RC(aclmdlRICaptureEnd(s, &got), ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING);
    ASSERT(got == NULL);
    ASSERT_OK(aclmdlRICaptureGetInfo(inner, &st, &got));
    ASSERT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(sub));
    ASSERT_OK(aclrtDestroyStream(inner));
    t_teardown();
}
