/*
 * test_label.c - labels in built models (aclrtCreateLabel, aclrtSetLabel,
 * aclrtCreateLabelList, aclrtSwitchLabelByIndex, the destroys) and the
 * conditional tasks of captured models (aclmdlRICondHandleCreate,
 * aclmdlRICondHandleGetCondPtr, aclmdlRIAddCondTask): the reference's
 * checks in order, and what runs do with them.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "test.h"

/* ---- labels ---------------------------------------------------------------------- */

/* A built model on persistent stream p: switch by *idx (maxValue max) over
 * a list of two labels, then label 0, x += 1, label 1, x += 10. */
struct lmodel {
    aclrtStream p, exec;
    aclmdlRI m;
    aclrtLabel l[2];
    aclrtLabelList list;
    uint32_t *idx;
    int64_t *x;
};

static void lmodel_build(struct lmodel *t, uint32_t max)
{
    memset(t, 0, sizeof(*t));
    t->x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&t->idx, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStreamWithConfig(&t->p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&t->exec));
    ASSERT_OK(aclmdlRIBuildBegin(&t->m, 0));
    ASSERT_OK(aclmdlRIBindStream(t->m, t->p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtCreateLabel(&t->l[0]));
    ASSERT_OK(aclrtCreateLabel(&t->l[1]));
    ASSERT_OK(aclrtCreateLabelList(t->l, 2, &t->list));
    ASSERT_OK(aclrtSwitchLabelByIndex(t->idx, max, t->list, t->p));
    ASSERT_OK(aclrtSetLabel(t->l[0], t->p));
    t_launch_add(t->x, 1, t->p);
    ASSERT_OK(aclrtSetLabel(t->l[1], t->p));
    t_launch_add(t->x, 10, t->p);
    ASSERT_OK(aclmdlRIEndTask(t->m, t->p));
    ASSERT_OK(aclmdlRIBuildEnd(t->m, NULL));
}

/* Runs the model with index idx; returns x (reset to 0 before) and the sync's code in *rc. */
static int64_t lmodel_run(struct lmodel *t, uint32_t idx, aclError *rc)
{
    *t->idx = idx;
    t->x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(t->m, t->exec));
    *rc = aclrtSynchronizeStream(t->exec);
    return t->x[0];
}

static void lmodel_free(struct lmodel *t)
{
    ASSERT_OK(aclmdlRIDestroy(t->m));
    if (t->list != NULL)
        ASSERT_OK(aclrtDestroyLabelList(t->list));
    for (int i = 0; i < 2; i++)
        if (t->l[i] != NULL)
            ASSERT_OK(aclrtDestroyLabel(t->l[i]));
    ASSERT_OK(aclrtDestroyStream(t->p));
    ASSERT_OK(aclrtDestroyStream(t->exec));
    ASSERT_OK(aclrtFree(t->idx));
    ASSERT_OK(aclrtFree(t->x));
}

/* The switch lands on the label its index names, every run: index 0 runs
 * both adds, index 1 only the second; a second execution of the same
 * model reads the index again. */
TEST(label, switch_by_index_jumps_to_the_label_each_run)
{
    struct lmodel t;
    aclError rc;
    t_setup();
    lmodel_build(&t, 2);
    ASSERT_EQ(lmodel_run(&t, 0, &rc), 11);
    ASSERT_OK(rc);
    ASSERT_EQ(lmodel_run(&t, 1, &rc), 10);
    ASSERT_OK(rc);
    ASSERT_EQ(lmodel_run(&t, 0, &rc), 11);
    ASSERT_OK(rc);
    lmodel_free(&t);
    t_teardown();
}

/* An index of maxValue or more takes the last, maxValue - 1 (the device's
 * clamp): with maxValue 1, index 0 (last valid) and 1 (first past it)
 * both land on label 0. */
TEST(label, index_past_max_value_takes_the_last)
{
    struct lmodel t;
    aclError rc;
    t_setup();
    lmodel_build(&t, 1);
    ASSERT_EQ(lmodel_run(&t, 0, &rc), 11);
    ASSERT_OK(rc);
    ASSERT_EQ(lmodel_run(&t, 1, &rc), 11);
    ASSERT_OK(rc);
    ASSERT_EQ(lmodel_run(&t, UINT32_MAX, &rc), 11);
    ASSERT_OK(rc);
    lmodel_free(&t);
    t_teardown();
}

/* An index below maxValue but past the labels set in the model fails the
 * run (507011); the lane goes on past the switch, and the next run is
 * fine. */
TEST(label, index_past_the_labels_set_fails_the_run)
{
    struct lmodel t;
    aclError rc;
    t_setup();
    lmodel_build(&t, 3);
    ASSERT_EQ(lmodel_run(&t, 1, &rc), 10); /* last valid */
    ASSERT_OK(rc);
    ASSERT_EQ(lmodel_run(&t, 2, &rc), 11); /* first invalid: not set, the switch is passed */
    ASSERT_EQ(rc, ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_EQ(lmodel_run(&t, 0, &rc), 11);
    ASSERT_OK(rc);
    lmodel_free(&t);
    t_teardown();
}

/* Destroying the labels and their list after the build leaves the places
 * set: the runs still jump (as the device's table stays in the queue). */
TEST(label, destroyed_labels_keep_their_places_in_the_model)
{
    struct lmodel t;
    aclError rc;
    t_setup();
    lmodel_build(&t, 2);
    ASSERT_OK(aclrtDestroyLabelList(t.list));
    ASSERT_OK(aclrtDestroyLabel(t.l[0]));
    ASSERT_OK(aclrtDestroyLabel(t.l[1]));
    ASSERT_RC(aclrtDestroyLabel(t.l[0]), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyLabelList(t.list), ACL_ERROR_RT_INVALID_HANDLE);
    t.list = NULL;
    t.l[0] = t.l[1] = NULL;
    ASSERT_EQ(lmodel_run(&t, 1, &rc), 10);
    ASSERT_OK(rc);
    lmodel_free(&t);
    t_teardown();
}

TEST(label, create_and_destroy_checks_in_order)
{
    aclrtLabel l = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_RC(aclrtCreateLabel(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyLabel(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtDestroyLabel(s), ACL_ERROR_RT_INVALID_HANDLE); /* a handle of another type */
    ASSERT_OK(aclrtCreateLabel(&l));
    ASSERT(l != NULL);
    ASSERT_OK(aclrtDestroyLabel(l));
    ASSERT_RC(aclrtDestroyLabel(l), ACL_ERROR_RT_INVALID_HANDLE); /* stale */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtDestroyLabel");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void *create_label_without_context(void *arg)
{
    aclrtLabel l = NULL;
    *(aclError *)arg = aclrtCreateLabel(&l);
    return NULL;
}

/* A thread without a current context: 107002 (api_impl.cc LabelCreate). */
TEST(label, create_needs_a_context)
{
    pthread_t th;
    aclError rc = ACL_SUCCESS;
    t_setup();
    ASSERT_EQ(pthread_create(&th, NULL, create_label_without_context, &rc), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(rc, ACL_ERROR_RT_CONTEXT_NULL);
    t_teardown();
}

/* The list's checks: NULLs (100000), num out of (0, 65535] (107000), a
 * stale label (107017), a label already in a list or twice in one
 * (507000, and nothing changes: the other labels can still join). */
TEST(label, list_checks_in_order)
{
    aclrtLabel l[3] = {NULL, NULL, NULL}, dead = NULL, pair[2];
    aclrtLabelList a = NULL, b = NULL;
    t_setup();
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtCreateLabel(&l[i]));
    ASSERT_OK(aclrtCreateLabel(&dead));
    ASSERT_OK(aclrtDestroyLabel(dead));
    ASSERT_RC(aclrtCreateLabelList(NULL, 1, &a), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateLabelList(l, 1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateLabelList(NULL, 0, NULL), ACL_ERROR_INVALID_PARAM); /* NULLs before num */
    ASSERT_RC(aclrtCreateLabelList(l, 0, &a), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCreateLabelList(l, 65536, &a), ACL_ERROR_RT_PARAM_INVALID); /* first past 65535 */
    pair[0] = l[0];
    pair[1] = dead;
    ASSERT_RC(aclrtCreateLabelList(pair, 2, &a), ACL_ERROR_RT_INVALID_HANDLE);
    pair[1] = l[0];
    ASSERT_RC(aclrtCreateLabelList(pair, 2, &a), ACL_ERROR_RT_INTERNAL_ERROR); /* twice in one */
    ASSERT_OK(aclrtCreateLabelList(l, 1, &a));                                /* l[0] joined a */
    pair[0] = l[1];
    pair[1] = l[0];
    ASSERT_RC(aclrtCreateLabelList(pair, 2, &b), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "labels[1]");
    ASSERT_OK(aclrtCreateLabelList(&l[1], 2, &b)); /* l[1] did not join the refused list */
    ASSERT_OK(aclrtDestroyLabelList(a));
    ASSERT_OK(aclrtDestroyLabelList(b));
    ASSERT_RC(aclrtDestroyLabelList(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyLabelList(a), ACL_ERROR_RT_INVALID_HANDLE);
    /* A label joins one list in its life, even once the list is gone. */
    ASSERT_RC(aclrtCreateLabelList(l, 1, &a), ACL_ERROR_RT_INTERNAL_ERROR);
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtDestroyLabel(l[i]));
    t_teardown();
}

/* aclrtSetLabel: NULLs (100000), stale handles (107017), a stream not
 * bound to a model (107005: a plain one, a capturing one), then the
 * label's rules: in no list yet, set twice, set on another stream (507000). */
TEST(label, set_checks_in_order)
{
    aclrtStream plain = NULL, cap = NULL, p = NULL, q = NULL;
    aclrtLabel l = NULL, lonely = NULL, dead = NULL;
    aclrtLabelList list = NULL;
    aclmdlRI m = NULL, cm = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_OK(aclrtCreateStream(&cap));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStreamWithConfig(&q, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, q, ACL_MODEL_STREAM_FLAG_DEFAULT));
    ASSERT_OK(aclrtCreateLabel(&l));
    ASSERT_OK(aclrtCreateLabel(&lonely));
    ASSERT_OK(aclrtCreateLabel(&dead));
    ASSERT_OK(aclrtDestroyLabel(dead));
    ASSERT_OK(aclrtCreateLabelList(&l, 1, &list));

    ASSERT_RC(aclrtSetLabel(NULL, p), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetLabel(l, NULL), ACL_ERROR_INVALID_PARAM); /* the acl layer refuses the default stream */
    ASSERT_RC(aclrtSetLabel(dead, plain), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetLabel(l, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetLabel(lonely, plain), ACL_ERROR_RT_STREAM_MODEL); /* the stream before the label's list */
    ASSERT_OK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtSetLabel(l, cap), ACL_ERROR_RT_STREAM_MODEL); /* a capture is no bound model */
    ASSERT_OK(aclmdlRICaptureEnd(cap, &cm));
    ASSERT_RC(aclrtSetLabel(lonely, p), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCreateLabelList");
    ASSERT_OK(aclrtSetLabel(l, p));
    ASSERT_RC(aclrtSetLabel(l, p), ACL_ERROR_RT_INTERNAL_ERROR); /* once */
    ASSERT_RC(aclrtSetLabel(l, q), ACL_ERROR_RT_INTERNAL_ERROR); /* another stream */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "another stream");

    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclmdlRIDestroy(cm));
    ASSERT_OK(aclrtDestroyLabelList(list));
    ASSERT_OK(aclrtDestroyLabel(l));
    ASSERT_OK(aclrtDestroyLabel(lonely));
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyStream(cap));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(q));
    t_teardown();
}

/* aclrtSwitchLabelByIndex: NULLs in order (100000), a stale stream
 * (107017), a stream not bound to a model (107005), then a stale list
 * (107017, aclcpu's: the list is a handle here). */
TEST(label, switch_checks_in_order)
{
    aclrtStream plain = NULL, p = NULL, dead = NULL;
    aclrtLabel l = NULL;
    aclrtLabelList list = NULL;
    aclmdlRI m = NULL, cm = NULL;
    uint32_t *idx = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&idx, sizeof(*idx), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&plain));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtCreateLabel(&l));
    ASSERT_OK(aclrtCreateLabelList(&l, 1, &list));

    ASSERT_RC(aclrtSwitchLabelByIndex(NULL, 1, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'ptr'");
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'labelList'");
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, list, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, list, dead), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, plain, plain), ACL_ERROR_RT_STREAM_MODEL); /* stream before list */
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, plain, p), ACL_ERROR_RT_INVALID_HANDLE); /* not a list */
    ASSERT_OK(aclrtSwitchLabelByIndex(idx, 1, list, p));
    ASSERT_OK(aclmdlRICaptureBegin(plain, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_RC(aclrtSwitchLabelByIndex(idx, 1, list, plain), ACL_ERROR_RT_STREAM_MODEL); /* a capture is no bound model */
    ASSERT_OK(aclmdlRICaptureEnd(plain, &cm));
    ASSERT_OK(aclmdlRIDestroy(cm));

    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyLabelList(list));
    ASSERT_OK(aclrtDestroyLabel(l));
    ASSERT_OK(aclrtDestroyStream(plain));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtFree(idx));
    t_teardown();
}

/* A label of another context: 507031 for the set and the destroy. */
TEST(label, label_of_another_context)
{
    aclrtContext other = NULL, mine = NULL;
    aclrtLabel l = NULL;
    aclrtStream p = NULL;
    aclmdlRI m = NULL;
    aclrtLabelList list = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&mine));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateLabel(&l)); /* of other, current now */
    ASSERT_OK(aclrtCreateLabelList(&l, 1, &list));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_RC(aclrtSetLabel(l, p), ACL_ERROR_RT_LABEL_CONTEXT);
    ASSERT_RC(aclrtDestroyLabel(l), ACL_ERROR_RT_LABEL_CONTEXT);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyLabel(l));
    ASSERT_OK(aclrtDestroyLabelList(list));
    ASSERT_OK(aclrtSetCurrentContext(mine));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* A switch reaches only labels set on its own stream here: one set on
 * another stream of the model fails the run (507011, differences.md). */
TEST(label, label_on_another_stream_fails_the_run)
{
    aclrtStream p = NULL, q = NULL, exec = NULL;
    aclrtLabel l = NULL;
    aclrtLabelList list = NULL;
    aclmdlRI m = NULL;
    uint32_t *idx = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&idx, sizeof(*idx), ACL_MEM_MALLOC_HUGE_FIRST));
    *idx = 0;
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStreamWithConfig(&q, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclmdlRIBindStream(m, q, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtCreateLabel(&l));
    ASSERT_OK(aclrtCreateLabelList(&l, 1, &list));
    ASSERT_OK(aclrtSwitchLabelByIndex(idx, 1, list, p));
    t_launch_add(x, 1, p);
    ASSERT_OK(aclrtSetLabel(l, q));
    t_launch_add(x, 10, q);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_RC(aclrtSynchronizeStream(exec), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_EQ(x[0], 11);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyLabelList(list));
    ASSERT_OK(aclrtDestroyLabel(l));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(q));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(idx));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* The process has 65535 label ids (runtime.cc InitLabelAllocator): the
 * last one is given, the next refused (507000), and a destroy gives one back.
 * A list may hold all of them: 65535 is inside the list's (0, 65535]. */
TEST(label, at_most_65535_labels_live_and_one_list_takes_them_all)
{
    static aclrtLabel l[65535];
    aclrtLabel more = NULL;
    aclrtLabelList all = NULL;
    t_setup();
    for (int i = 0; i < 65535; i++)
        ASSERT_OK(aclrtCreateLabel(&l[i]));
    ASSERT_RC(aclrtCreateLabel(&more), ACL_ERROR_RT_INTERNAL_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "65535");
    ASSERT_OK(aclrtDestroyLabel(l[0]));
    ASSERT_OK(aclrtCreateLabel(&l[0]));
    ASSERT_OK(aclrtCreateLabelList(l, 65535, &all));
    ASSERT_OK(aclrtDestroyLabelList(all));
    for (int i = 0; i < 65535; i++)
        ASSERT_OK(aclrtDestroyLabel(l[i]));
    t_teardown();
}

/* ---- sweep 5 (issue 19): a reused label slot ------------------------------------------ */

/* A label made in a destroyed label's slot (after 65 newer destroys: the
 * quarantine holds 64 back) is a new label: the old one's list is not its
 * own, so it joins a list of its own. */
TEST(label, a_label_in_a_reused_slot_is_in_no_list_yet)
{
    static aclrtLabel spare[65];
    aclrtLabel old = NULL, fresh = NULL;
    aclrtLabelList a = NULL, b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateLabel(&old));
    ASSERT_OK(aclrtCreateLabelList(&old, 1, &a));
    ASSERT_OK(aclrtDestroyLabelList(a));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtCreateLabel(&spare[i]));
    ASSERT_OK(aclrtDestroyLabel(old));
    for (int i = 0; i < 65; i++)
        ASSERT_OK(aclrtDestroyLabel(spare[i]));
    ASSERT_OK(aclrtCreateLabel(&fresh));
    ASSERT_EQ((uint32_t)(uintptr_t)fresh, (uint32_t)(uintptr_t)old); /* the same slot */
    ASSERT_OK(aclrtCreateLabelList(&fresh, 1, &b));
    ASSERT_OK(aclrtDestroyLabelList(b));
    ASSERT_OK(aclrtDestroyLabel(fresh));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): the end of the label range ---- */

/* The labels set in the model bound the index: with a list of three and
 * only its first and third set (two labels in the model), index 2 is one
 * past them and fails the run (507011) although the third label's place
 * is set; the lane goes on past the switch. */
TEST(label, an_index_equal_to_the_count_of_labels_set_fails_the_run)
{
    aclrtStream p = NULL, exec = NULL;
    aclmdlRI m = NULL;
    aclrtLabel l[3] = {NULL, NULL, NULL};
    aclrtLabelList list = NULL;
    uint32_t *idx = NULL;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtMalloc((void **)&idx, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtCreateLabel(&l[i]));
    ASSERT_OK(aclrtCreateLabelList(l, 3, &list));
    ASSERT_OK(aclrtSwitchLabelByIndex(idx, 3, list, p));
    ASSERT_OK(aclrtSetLabel(l[0], p));
    t_launch_add(x, 1, p);
    ASSERT_OK(aclrtSetLabel(l[2], p));
    t_launch_add(x, 10, p);
    ASSERT_OK(aclmdlRIEndTask(m, p));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    *idx = 2;
    x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_RC(aclrtSynchronizeStream(exec), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_EQ(x[0], 11);
    *idx = 0; /* the labels set still work: the next run is fine */
    x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 11);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyLabelList(list));
    for (int i = 0; i < 3; i++)
        ASSERT_OK(aclrtDestroyLabel(l[i]));
    ASSERT_OK(aclrtDestroyStream(p));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(idx));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}
