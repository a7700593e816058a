/*
 * test_model_task.c - a model's tasks: their handles (aclmdlRIGetTasksByStream),
 * types, sequence ids, parameters and launch attributes; changing them
 * (aclmdlRITaskSetParams, aclmdlRITaskDisable) and aclmdlRIUpdate; the
 * model destroy callbacks. Checks in the reference's order (api_error.cc,
 * api_impl.cc, kernel_utils.cc, memory_task.cc, model.cc; docs/conformance.md).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "test.h"

/* x = x * 3 + c: the order of two of them shows in the result (computed
 * unsigned: many runs wrap it, which is defined for unsigned arithmetic). */
static void k_mad(void *args)
{
    int64_t *const *p = args;
    int64_t c = ((const int64_t *)args)[1];
    *p[0] = (int64_t)((uint64_t)*p[0] * 3u + (uint64_t)c);
}

struct mad_args {
    int64_t *x;
    int64_t c;
};

static aclrtFuncHandle mad(void) { return t_kernel("mtask_mad", k_mad); }

static void launch_mad(int64_t *x, int64_t c, aclrtStream s)
{
    struct mad_args a = {x, c};
    ASSERT_OK(aclrtLaunchKernel(mad(), 1, &a, sizeof(a), s));
}

/* A captured model on s: mad(x, 1), mad(x, 2), a memset of x[1], and
 * nothing else; its four tasks in t. */
struct cap {
    aclrtStream s;
    aclmdlRI m;
    int64_t *x;
    aclmdlRITask t[4];
};

static void cap_make(struct cap *c)
{
    uint32_t n = 4;
    ASSERT_OK(aclrtCreateStream(&c->s));
    c->x = t_dev_i64(2);
    ASSERT_OK(aclmdlRICaptureBegin(c->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(&c->x[0], 1, c->s);
    launch_mad(&c->x[0], 2, c->s);
    ASSERT_OK(aclrtMemsetAsync(&c->x[1], 8, 0, 8, c->s));
    ASSERT_OK(aclmdlRICaptureEnd(c->s, &c->m));
    ASSERT_OK(aclmdlRIGetTasksByStream(c->s, c->t, &n));
    ASSERT_EQ(n, 3);
}

static int64_t cap_run(struct cap *c)
{
    c->x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(c->m, c->s));
    ASSERT_OK(aclrtSynchronizeStream(c->s));
    return c->x[0];
}

static void cap_free(struct cap *c)
{
    if (c->m != NULL)
        ASSERT_OK(aclmdlRIDestroy(c->m));
    ASSERT_OK(aclrtDestroyStream(c->s));
    ASSERT_OK(aclrtFree(c->x));
}

/* A kernel task's parameters: the mad kernel on x with c. */
static aclmdlRITaskParams kernel_params(struct mad_args *a, uint32_t blocks)
{
    aclmdlRITaskParams p;
    memset(&p, 0, sizeof(p));
    p.type = ACL_MODEL_RI_TASK_KERNEL;
    p.kernelTaskParams.funcHandle = mad();
    p.kernelTaskParams.args = a;
    p.kernelTaskParams.argsSize = sizeof(*a);
    p.kernelTaskParams.numBlocks = blocks;
    return p;
}

/* ---- handles, types and sequence ids ---------------------------------------------------- */

TEST(model_task, get_type_checks_soc_then_nulls_then_handle)
{
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    /* rtTaskGetType: the chip's ACL graph feature before the arguments. */
    ASSERT_RC(aclmdlRITaskGetType(NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
    unsetenv("ACLCPU_SOC");
    t_setup();
    ASSERT_RC(aclmdlRITaskGetType(NULL, &type), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetType((aclmdlRITask)0x1234, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetType((aclmdlRITask)0x1234, &type), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRITaskGetType: argument 'task'");
    t_teardown();
}

TEST(model_task, get_type_names_each_kind_of_task)
{
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent fork = NULL, join = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[8], t2[4];
    aclmdlRITaskType type;
    uint32_t n = 8, n2 = 4;
    int64_t *x;
    const aclmdlRITaskType want[] = {ACL_MODEL_RI_TASK_KERNEL,      ACL_MODEL_RI_TASK_EVENT_RECORD,
                                     ACL_MODEL_RI_TASK_DEFAULT,     ACL_MODEL_RI_TASK_VALUE_WRITE,
                                     ACL_MODEL_RI_TASK_VALUE_WAIT,  ACL_MODEL_RI_TASK_EVENT_WAIT};
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(&x[0], 1, s);
    ASSERT_OK(aclrtRecordEvent(fork, s));
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork)); /* s2 joins */
    launch_mad(&x[0], 1, s2);
    ASSERT_OK(aclrtRecordEvent(join, s2));
    ASSERT_OK(aclrtMemsetAsync(&x[1], 8, 0, 8, s));
    ASSERT_OK(aclrtValueWrite(&x[1], 7, 0, s));
    ASSERT_OK(aclrtValueWait(&x[1], 7, ACL_STREAM_WAIT_VALUE_EQ, s));
    ASSERT_OK(aclrtStreamWaitEvent(s, join));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_EQ(n, 6);
    for (uint32_t i = 0; i < n; i++) {
        ASSERT_OK(aclmdlRITaskGetType(t[i], &type));
        ASSERT_EQ(type, want[i]);
    }
    ASSERT_OK(aclmdlRIGetTasksByStream(s2, t2, &n2));
    ASSERT_EQ(n2, 3); /* the joining wait, the kernel, the record */
    ASSERT_OK(aclmdlRITaskGetType(t2[0], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_EVENT_WAIT);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(model_task, seq_ids_number_a_captured_models_tasks)
{
    struct cap c;
    aclmdlRI b = NULL;
    aclrtStream p = NULL;
    aclmdlRITask bt[2];
    uint32_t id = 99, n = 2;
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRITaskGetSeqId(NULL, &id), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetSeqId(c.t[0], NULL), ACL_ERROR_RT_PARAM_INVALID);
    for (uint32_t i = 0; i < 3; i++) {
        ASSERT_OK(aclmdlRITaskGetSeqId(c.t[i], &id));
        ASSERT_EQ(id, i);
    }
    /* A built model's tasks have none (api_impl.cc TaskGetSeqId: 207000). */
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBindStream(b, p, ACL_MODEL_STREAM_FLAG_HEAD));
    launch_mad(&c.x[0], 1, p);
    ASSERT_OK(aclmdlRIEndTask(b, p));
    ASSERT_OK(aclmdlRIBuildEnd(b, NULL));
    ASSERT_OK(aclmdlRIGetTasksByStream(p, bt, &n));
    ASSERT_RC(aclmdlRITaskGetSeqId(bt[0], &id), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRITaskGetType(bt[1], (aclmdlRITaskType *)&id));
    ASSERT_EQ(id, ACL_MODEL_RI_TASK_DEFAULT); /* the end task */
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyStream(p));
    cap_free(&c);
    t_teardown();
}

TEST(model_task, tasks_of_a_destroyed_model_are_stale_handles)
{
    struct cap c, d;
    aclmdlRITaskType type;
    aclmdlRITaskParams p;
    uint32_t id;
    t_setup();
    cap_make(&c);
    ASSERT_OK(aclmdlRIDestroy(c.m));
    c.m = NULL;
    ASSERT_RC(aclmdlRITaskGetType(c.t[0], &type), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskGetSeqId(c.t[1], &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskGetParams(c.t[0], &p), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskDisable(c.t[0]), ACL_ERROR_RT_INVALID_HANDLE);
    /* A new model in the same slot: the old names still name nothing. */
    cap_make(&d);
    ASSERT_RC(aclmdlRITaskGetType(c.t[0], &type), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclmdlRITaskGetType(d.t[0], &type));
    cap_free(&d);
    cap_free(&c);
    t_teardown();
}

/* ---- parameters ----------------------------------------------------------------------------- */

TEST(model_task, get_params_checks_in_order)
{
    struct cap c;
    aclmdlRITaskParams p;
    aclmdlRI b = NULL;
    aclrtStream ps = NULL;
    aclmdlRITask bt[2];
    uint32_t n = 2;
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRITaskGetParams(NULL, &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetParams(c.t[0], NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetParams((aclmdlRITask)0x77, &p), ACL_ERROR_RT_INVALID_HANDLE);
    /* The memset is of type DEFAULT: no parameters (107000). */
    ASSERT_RC(aclmdlRITaskGetParams(c.t[2], &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "ACL_MODEL_RI_TASK_DEFAULT");
    /* A built model's kernel: 207000 (kernel_utils.cc GetKernelTaskParams). */
    ASSERT_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBindStream(b, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    launch_mad(&c.x[0], 1, ps);
    ASSERT_OK(aclmdlRIBuildEnd(b, NULL));
    ASSERT_OK(aclmdlRIGetTasksByStream(ps, bt, &n));
    ASSERT_RC(aclmdlRITaskGetParams(bt[0], &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyStream(ps));
    cap_free(&c);
    t_teardown();
}

TEST(model_task, get_params_refused_without_software_sq)
{
    struct cap c;
    aclmdlRITaskParams p;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRITaskGetParams(c.t[2], &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* before the type's check */
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRITaskDisable(c.t[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIUpdate(c.m), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    cap_free(&c);
    t_teardown();
}

TEST(model_task, get_params_of_kernel_event_and_value_tasks)
{
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent fork = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[8];
    aclmdlRITaskParams p;
    aclrtTaskGrp grp = NULL;
    uint32_t n = 8;
    int64_t *x;
    struct mad_args a;
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(&x[0], 5, s);
    ASSERT_OK(aclmdlRICaptureTaskGrpBegin(s));
    a = (struct mad_args){&x[0], 6};
    ASSERT_OK(aclrtLaunchKernel(mad(), 3, &a, sizeof(a), s));
    ASSERT_OK(aclmdlRICaptureTaskGrpEnd(s, &grp));
    ASSERT_OK(aclrtRecordEvent(fork, s));
    ASSERT_OK(aclrtValueWrite(&x[1], 7, 0, s));
    ASSERT_OK(aclrtValueWait(&x[1], 7, ACL_STREAM_WAIT_VALUE_GEQ, s));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_EQ(n, 5);
    memset(&p, 0xff, sizeof(p));
    ASSERT_OK(aclmdlRITaskGetParams(t[0], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_KERNEL);
    ASSERT(p.kernelTaskParams.funcHandle == mad());
    ASSERT(p.kernelTaskParams.cfg == NULL);
    ASSERT_EQ(p.kernelTaskParams.isHostArgs, 0);
    ASSERT_EQ(p.kernelTaskParams.argsSize, sizeof(struct mad_args));
    ASSERT_EQ(p.kernelTaskParams.numBlocks, 1);
    ASSERT_EQ(((struct mad_args *)p.kernelTaskParams.args)->c, 5);
    ASSERT(p.taskGrp == NULL); /* not in a group */
    ASSERT(p.opInfoPtr == NULL && p.opInfoSize == 0);
    ASSERT_OK(aclmdlRITaskGetParams(t[1], &p));
    ASSERT_EQ(p.kernelTaskParams.numBlocks, 3);
    ASSERT(p.taskGrp == grp);
    ASSERT_OK(aclmdlRITaskGetParams(t[2], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    ASSERT(p.eventRecordTaskParams.event == fork); /* the user's event, not the model's edge */
    ASSERT_EQ(p.eventRecordTaskParams.eventFlag, ACL_EVENT_SYNC);
    ASSERT_EQ(p.eventRecordTaskParams.recordFlag, ACL_EVENT_RECORD_DEFAULT);
    ASSERT_OK(aclmdlRITaskGetParams(t[3], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    ASSERT(p.valueWriteTaskParams.devAddr == &x[1]);
    ASSERT_EQ(p.valueWriteTaskParams.value, 7);
    ASSERT_OK(aclmdlRITaskGetParams(t[4], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_VALUE_WAIT);
    ASSERT_EQ(p.valueWaitTaskParams.flag, ACL_STREAM_WAIT_VALUE_GEQ);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(model_task, kernel_task_get_attribute_checks_and_values)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[2];
    aclrtLaunchKernelAttrValue v;
    aclrtLaunchKernelAttr attrs[2];
    aclrtLaunchKernelCfg cfg = {attrs, 2};
    uint32_t n = 2;
    int64_t *x;
    struct mad_args a;
    t_setup();
    x = t_dev_i64(2);
    a = (struct mad_args){x, 1};
    ASSERT_OK(aclrtCreateStream(&s));
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[0].value.schemMode = 1;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attrs[1].value.timeoutUs.timeoutLow = 2500000;
    attrs[1].value.timeoutUs.timeoutHigh = 0;
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtLaunchKernelWithHostArgs(mad(), 1, s, &cfg, &a, sizeof(a), NULL, 0));
    ASSERT_OK(aclrtMemsetAsync(&x[1], 8, 0, 8, s));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    /* The acl layer's NULL checks (kernel.cpp): 100000. */
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(NULL, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, NULL),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute((aclmdlRITask)0x5, ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(t[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v),
              ACL_ERROR_RT_PARAM_INVALID); /* not a kernel */
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, &v),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(t[0], (aclrtLaunchKernelAttrId)99, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v));
    ASSERT_EQ(v.schemMode, 1);
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
    ASSERT_EQ(v.timeoutUs.timeoutLow, 2500000);
    ASSERT_EQ(v.timeoutUs.timeoutHigh, 0);
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(t[0], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v));
    ASSERT_EQ(v.timeout, 2);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* ---- changes and aclmdlRIUpdate ------------------------------------------------------------- */

TEST(model_task, set_params_takes_effect_at_update_and_not_before)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    t_setup();
    cap_make(&c);
    ASSERT_EQ(cap_run(&c), 5); /* (0*3+1)*3+2 */
    a = (struct mad_args){&c.x[0], 10};
    p = kernel_params(&a, 1);
    ASSERT_OK(aclmdlRITaskSetParams(c.t[1], &p));
    a.c = 99; /* the arguments were copied */
    /* Changed and not updated: the model does not run (CheckExecuteReady, 507011). */
    ASSERT_RC(aclmdlRIExecuteAsync(c.m, c.s), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlRIUpdate");
    ASSERT_OK(aclmdlRIUpdate(c.m));
    ASSERT_EQ(cap_run(&c), 13); /* (0*3+1)*3+10 */
    ASSERT_EQ(cap_run(&c), 13);
    ASSERT_OK(aclmdlRITaskGetParams(c.t[1], &p));
    ASSERT_EQ(((struct mad_args *)p.kernelTaskParams.args)->c, 10);
    ASSERT_OK(aclmdlRIUpdate(c.m)); /* nothing changed: nothing to do */
    cap_free(&c);
    t_teardown();
}

/* A replacement kernel's TIMEOUT attribute counts seconds, as a launch's:
 * 3 reads back as 3000000 us (and 3 s), not 3000 us. */
TEST(model_task, set_params_timeout_attribute_counts_seconds)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelAttrValue v;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    t_setup();
    cap_make(&c);
    a = (struct mad_args){&c.x[0], 10};
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attr.value.timeout = 3;
    p = kernel_params(&a, 1);
    p.kernelTaskParams.cfg = &cfg;
    ASSERT_OK(aclmdlRITaskSetParams(c.t[1], &p));
    ASSERT_OK(aclmdlRIUpdate(c.m));
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(c.t[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
    ASSERT_EQ(v.timeoutUs.timeoutLow, 3000000);
    ASSERT_EQ(v.timeoutUs.timeoutHigh, 0);
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(c.t[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, &v));
    ASSERT_EQ(v.timeout, 3);
    cap_free(&c);
    t_teardown();
}

/* aclcpu's bound on a replacement kernel's block count is inclusive:
 * 65535 blocks are taken, 65536 refused (107000). */
TEST(model_task, set_params_takes_a_block_count_up_to_65535)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    t_setup();
    cap_make(&c);
    a = (struct mad_args){&c.x[0], 10};
    p = kernel_params(&a, 65535);
    ASSERT_OK(aclmdlRITaskSetParams(c.t[1], &p));
    p = kernel_params(&a, 65536); /* last: a refused change faults the model */
    ASSERT_RC(aclmdlRITaskSetParams(c.t[1], &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "numBlocks is 65536");
    cap_free(&c);
    t_teardown();
}

TEST(model_task, set_params_checks_in_order)
{
    struct cap c;
    struct mad_args a = {NULL, 1};
    aclmdlRITaskParams p;
    aclmdlRI b = NULL;
    aclrtStream ps = NULL;
    aclmdlRITask bt[1];
    uint32_t n = 1;
    t_setup();
    cap_make(&c);
    a.x = &c.x[0];
    p = kernel_params(&a, 1);
    ASSERT_RC(aclmdlRITaskSetParams(NULL, &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskSetParams((aclmdlRITask)0x9, &p), ACL_ERROR_RT_INVALID_HANDLE);
    /* A built model's task: 207000 (CheckCaptureModelForUpdate). */
    ASSERT_OK(aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIBindStream(b, ps, ACL_MODEL_STREAM_FLAG_HEAD));
    launch_mad(&c.x[0], 1, ps);
    ASSERT_OK(aclmdlRIBuildEnd(b, NULL));
    ASSERT_OK(aclmdlRIGetTasksByStream(ps, bt, &n));
    ASSERT_RC(aclmdlRITaskSetParams(bt[0], &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRITaskDisable(bt[0]), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclmdlRIUpdate(b), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(aclrtDestroyStream(ps));
    cap_free(&c);
    t_teardown();
}

/* Each refused kernel change, on a fresh model: the refusal's code, and
 * the model left FAULT (its update 107040, its runs 507011). */
static void refused_change(aclmdlRITaskParams *p, int task, aclError want)
{
    struct cap c;
    cap_make(&c);
    if (p->type == ACL_MODEL_RI_TASK_KERNEL && p->kernelTaskParams.args != NULL)
        ((struct mad_args *)p->kernelTaskParams.args)->x = &c.x[0];
    ASSERT_RC(aclmdlRITaskSetParams(c.t[task], p), want);
    ASSERT_RC(aclmdlRIUpdate(c.m), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_RC(aclmdlRIExecuteAsync(c.m, c.s), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], p), ACL_ERROR_RT_MODEL_UPDATE_FAILED); /* FAULT until destroyed */
    cap_free(&c);
}

TEST(model_task, refused_kernel_change_leaves_the_model_fault)
{
    struct mad_args a = {NULL, 1};
    aclrtLaunchKernelAttr attr = {.id = (aclrtLaunchKernelAttrId)42};
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    aclmdlRITaskParams p;
    t_setup();
    p = kernel_params(&a, 1);
    refused_change(&p, 2, ACL_ERROR_RT_PARAM_INVALID); /* the memset is not a kernel */
    p = kernel_params(&a, 1);
    p.taskGrp = (aclrtTaskGrp)0x1;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 1);
    p.kernelTaskParams.funcHandle = (aclrtFuncHandle)0x1;
    refused_change(&p, 0, ACL_ERROR_RT_INVALID_HANDLE);
    p = kernel_params(&a, 1);
    p.kernelTaskParams.funcHandle = NULL;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 1);
    p.kernelTaskParams.args = NULL;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 1);
    p.kernelTaskParams.argsSize = 0;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 1);
    p.kernelTaskParams.cfg = &cfg;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 0); /* aclcpu: a block count in [1, 65535] */
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&a, 1);
    p.type = ACL_MODEL_RI_TASK_EVENT_RECORD; /* event tasks do not change */
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    p.type = ACL_MODEL_RI_TASK_DEFAULT;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    memset(&p, 0, sizeof(p));
    p.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    refused_change(&p, 2, ACL_ERROR_RT_PARAM_INVALID); /* DEFAULT task */
    p.opInfoSize = 4;
    refused_change(&p, 0, ACL_ERROR_RT_PARAM_INVALID);
    t_teardown();
}

TEST(model_task, set_params_turns_a_kernel_into_a_value_write)
{
    struct cap c;
    aclmdlRITaskParams p;
    aclmdlRITaskType type;
    t_setup();
    cap_make(&c);
    memset(&p, 0, sizeof(p));
    p.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    p.valueWriteTaskParams.devAddr = &c.x[1];
    p.valueWriteTaskParams.value = 41;
    ASSERT_OK(aclmdlRITaskSetParams(c.t[0], &p));
    ASSERT_OK(aclmdlRITaskGetType(c.t[0], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_VALUE_WRITE);
    ASSERT_OK(aclmdlRIUpdate(c.m));
    c.x[1] = 0;
    ASSERT_EQ(cap_run(&c), 2);  /* only the second kernel: 0*3+2 */
    ASSERT_EQ(c.x[1], 0);       /* written 41, then the memset */
    /* aclcpu's own rule: a value task's address is device memory (and the
     * model is not FAULT after it). */
    p.valueWriteTaskParams.devAddr = &type;
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], &p), ACL_ERROR_RT_PARAM_INVALID);
    p.valueWriteTaskParams.devAddr = &c.x[1];
    ASSERT_OK(aclmdlRITaskSetParams(c.t[0], &p));
    ASSERT_OK(aclmdlRIUpdate(c.m));
    cap_free(&c);
    t_teardown();
}

TEST(model_task, disabled_task_leaves_the_model_at_update)
{
    struct cap c;
    aclmdlRITask t[4];
    aclmdlRITaskType type;
    uint32_t n = 4, id = 0;
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRITaskDisable(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRITaskDisable(c.t[0]));
    ASSERT_RC(aclmdlRIExecuteAsync(c.m, c.s), ACL_ERROR_RT_MODEL_EXECUTE);
    ASSERT_OK(aclmdlRITaskGetType(c.t[0], &type)); /* still there until the update */
    ASSERT_OK(aclmdlRIUpdate(c.m));
    /* Twice: the task stays out. */
    ASSERT_EQ(cap_run(&c), 2);
    ASSERT_EQ(cap_run(&c), 2);
    ASSERT_RC(aclmdlRITaskGetType(c.t[0], &type), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclmdlRIGetTasksByStream(c.s, t, &n));
    ASSERT_EQ(n, 2);
    ASSERT(t[0] == c.t[1] && t[1] == c.t[2]); /* the others keep their names and ids */
    ASSERT_OK(aclmdlRITaskGetSeqId(t[0], &id));
    ASSERT_EQ(id, 1);
    /* A DEFAULT task cannot be disabled: 107000, and the model is FAULT. */
    ASSERT_RC(aclmdlRITaskDisable(c.t[2]), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIUpdate(c.m), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    cap_free(&c);
    t_teardown();
}

TEST(model_task, changes_refused_while_a_run_is_in_flight)
{
    static _Atomic int open;
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[2];
    uint32_t n = 2;
    int64_t *x;
    struct mad_args a;
    aclmdlRITaskParams p;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    t_launch_flag_gate(&open, s);
    launch_mad(x, 1, s);
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s)); /* held at the gate */
    a = (struct mad_args){x, 4};
    p = kernel_params(&a, 1);
    /* CheckCaptureModelForUpdate: a running model -> 107040. */
    ASSERT_RC(aclmdlRITaskSetParams(t[1], &p), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "run of it is under way");
    ASSERT_RC(aclmdlRITaskDisable(t[1]), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_OK(aclmdlRIUpdate(m)); /* READY: nothing to do, even now */
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 1);
    /* Not FAULT: the run ended, and the change goes through. */
    ASSERT_OK(aclmdlRITaskSetParams(t[1], &p));
    ASSERT_OK(aclmdlRIUpdate(m));
    x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 4);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(model_task, update_checks_in_order)
{
    struct cap c;
    aclrtStream s2 = NULL;
    aclmdlRI cm = NULL;
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRIUpdate(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIUpdate((aclmdlRI)0x3), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclmdlRIUpdate(c.m)); /* READY */
    /* A model still being captured: 107040. */
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclmdlRICaptureGetInfo(s2, NULL, &cm));
    ASSERT_RC(aclmdlRIUpdate(cm), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_OK(aclmdlRICaptureEnd(s2, &cm));
    ASSERT_OK(aclmdlRIDestroy(cm));
    ASSERT_OK(aclrtDestroyStream(s2));
    cap_free(&c);
    t_teardown();
}

/* ---- destroy callbacks ------------------------------------------------------------------------ */

static _Atomic int cb_calls[2];
static _Atomic int cb_order[4], cb_n;
static int64_t cb_seen_x;
static aclmdlRI cb_model;
static aclError cb_model_rc;

static void cb_a(void *arg)
{
    atomic_fetch_add(&cb_calls[0], 1);
    cb_order[atomic_fetch_add(&cb_n, 1) & 3] = 0;
    cb_seen_x = *(int64_t *)arg; /* the model's runs have ended */
    cb_model_rc = aclmdlRIGetId(cb_model, &(uint32_t){0});
}

static void cb_b(void *arg)
{
    (void)arg;
    atomic_fetch_add(&cb_calls[1], 1);
    cb_order[atomic_fetch_add(&cb_n, 1) & 3] = 1;
}

TEST(model_task, destroy_callbacks_run_once_each_in_address_order)
{
    struct cap c;
    int first = (uintptr_t)(void *)cb_a < (uintptr_t)(void *)cb_b ? 0 : 1;
    t_setup();
    cap_make(&c);
    cb_model = c.m;
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(c.m, cb_b, NULL));
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(c.m, cb_a, c.x));
    c.x[0] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(c.m, c.s)); /* not synchronised: destroy waits for it */
    ASSERT_OK(aclmdlRIDestroy(c.m));
    c.m = NULL;
    ASSERT_EQ(atomic_load(&cb_calls[0]), 1);
    ASSERT_EQ(atomic_load(&cb_calls[1]), 1);
    ASSERT_EQ(atomic_load(&cb_n), 2);
    ASSERT_EQ(cb_order[0], first); /* the runtime's set is ordered by function address */
    ASSERT_EQ(cb_order[1], 1 - first);
    ASSERT_EQ(cb_seen_x, 5);
    ASSERT_EQ(cb_model_rc, ACL_ERROR_RT_INVALID_HANDLE); /* the handle is dead by then */
    cap_free(&c);
    ASSERT_EQ(atomic_load(&cb_calls[0]), 1);
    t_teardown();
}

TEST(model_task, destroy_callback_register_and_unregister_rules)
{
    struct cap c;
    t_setup();
    cap_make(&c);
    ASSERT_RC(aclmdlRIDestroyRegisterCallback(NULL, cb_b, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIDestroyRegisterCallback((aclmdlRI)0x3, cb_b, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIDestroyRegisterCallback(c.m, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(c.m, cb_b, NULL));
    /* One function once, whatever its userData (model.cc: a set keyed by the function). */
    ASSERT_RC(aclmdlRIDestroyRegisterCallback(c.m, cb_b, c.x), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback(NULL, cb_b), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback((aclmdlRI)0x3, cb_b), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback(c.m, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback(c.m, cb_a), ACL_ERROR_RT_PARAM_INVALID); /* never registered */
    ASSERT_OK(aclmdlRIDestroyUnregisterCallback(c.m, cb_b));
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback(c.m, cb_b), ACL_ERROR_RT_PARAM_INVALID); /* the second time */
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(c.m, cb_b, NULL)); /* again, after it went */
    ASSERT_OK(aclmdlRIDestroyUnregisterCallback(c.m, cb_b));
    ASSERT_OK(aclmdlRIDestroy(c.m)); /* unregistered: not called */
    ASSERT_EQ(atomic_load(&cb_calls[1]), 0);
    ASSERT_RC(aclmdlRIDestroyRegisterCallback(c.m, cb_b, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    c.m = NULL;
    cap_free(&c);
    t_teardown();
}

TEST(model_task, destroy_callbacks_run_when_the_context_goes)
{
    aclmdlRI b = NULL;
    t_setup();
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0)); /* built models have them too */
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(b, cb_b, NULL));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_EQ(atomic_load(&cb_calls[1]), 1);
    t_teardown();
    ASSERT_EQ(atomic_load(&cb_calls[1]), 1);
}

/* ---- order of checks with two bad arguments, and two threads ---------------------------------- */

TEST(model_task, null_arguments_come_before_the_task_handle)
{
    aclmdlRITaskType type;
    aclmdlRITaskParams p;
    uint32_t id;
    aclmdlRITask stale = (aclmdlRITask)0xD000000000000001ull;
    t_setup();
    ASSERT_RC(aclmdlRITaskGetType(stale, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetSeqId(stale, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskGetParams(stale, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRITaskSetParams(stale, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclmdlRIKernelTaskGetAttribute(stale, ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, NULL), ACL_ERROR_INVALID_PARAM);
    /* The model handle is validated first, then func (rtModelDestroyRegisterCallback). */
    ASSERT_RC(aclmdlRIDestroyRegisterCallback((aclmdlRI)0x3, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRIDestroyUnregisterCallback((aclmdlRI)0x3, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskGetType(stale, &type), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskGetSeqId(stale, &id), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclmdlRITaskGetParams(stale, &p), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

struct racer {
    struct cap *c;
    _Atomic int stop;
    int bad;
};

static void *change_loop(void *arg)
{
    struct racer *r = arg;
    struct mad_args a = {&r->c->x[0], 2};
    aclmdlRITaskParams p = kernel_params(&a, 1);
    for (int i = 0; i < 300 && !atomic_load(&r->stop); i++) {
        aclError e = aclmdlRITaskSetParams(r->c->t[1], &p);
        if (e != ACL_SUCCESS && e != ACL_ERROR_RT_MODEL_UPDATE_FAILED)
            r->bad = e;
        if (aclmdlRIUpdate(r->c->m) != ACL_SUCCESS)
            r->bad = -1;
    }
    return NULL;
}

TEST(model_task, changes_and_runs_from_two_threads_never_overlap)
{
    struct cap c;
    struct racer r = {&c, 0, 0};
    pthread_t th;
    t_setup();
    cap_make(&c);
    ASSERT_EQ(pthread_create(&th, NULL, change_loop, &r), 0);
    for (int i = 0; i < 300; i++) {
        /* Either the model runs whole (it was READY) or it is refused while a change waits for its update. */
        aclError e = aclmdlRIExecuteAsync(c.m, c.s);
        ASSERT(e == ACL_SUCCESS || e == ACL_ERROR_RT_MODEL_EXECUTE);
        ASSERT_OK(aclrtSynchronizeStream(c.s));
    }
    atomic_store(&r.stop, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(r.bad, 0);
    ASSERT_OK(aclmdlRIUpdate(c.m));
    ASSERT_EQ(cap_run(&c), 5); /* the same kernel, as set: (0*3+1)*3+2 */
    cap_free(&c);
    t_teardown();
}

static aclrtContext cb_ctx;
static aclError cb_ctx_rc = -1;

static void cb_destroy_ctx(void *arg)
{
    (void)arg;
    cb_ctx_rc = aclrtDestroyContext(cb_ctx);
}

TEST(model_task, destroy_callback_may_destroy_the_models_context)
{
    aclmdlRI b = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateContext(&cb_ctx, 0));
    ASSERT_OK(aclmdlRIBuildBegin(&b, 0));
    ASSERT_OK(aclmdlRIDestroyRegisterCallback(b, cb_destroy_ctx, NULL));
    /* The model has left its context when the callback runs (context.cc
     * Context::ModelDestroy: removed, then TearDown): no wait on itself. */
    ASSERT_OK(aclmdlRIDestroy(b));
    ASSERT_OK(cb_ctx_rc);
    t_teardown();
}

TEST(model_task, set_params_keeps_the_operator_information)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    char info[24] = "shape:4x2;dtype:float";
    t_setup();
    cap_make(&c);
    a = (struct mad_args){&c.x[0], 3};
    p = kernel_params(&a, 1);
    p.opInfoPtr = info;
    p.opInfoSize = sizeof(info);
    ASSERT_OK(aclmdlRITaskSetParams(c.t[0], &p));
    info[0] = 'X'; /* copied */
    ASSERT_OK(aclmdlRITaskGetParams(c.t[0], &p));
    ASSERT_EQ(p.opInfoSize, sizeof(info));
    ASSERT(p.opInfoPtr != NULL && p.opInfoPtr != (void *)info);
    ASSERT(memcmp(p.opInfoPtr, "shape:4x2;dtype:float", 22) == 0);
    /* Changed again without it: gone (kernel_utils.cc ClearShapeInfo). */
    p = kernel_params(&a, 1);
    ASSERT_OK(aclmdlRITaskSetParams(c.t[0], &p));
    ASSERT_OK(aclmdlRITaskGetParams(c.t[0], &p));
    ASSERT(p.opInfoPtr == NULL && p.opInfoSize == 0);
    ASSERT_OK(aclmdlRIUpdate(c.m));
    ASSERT_EQ(cap_run(&c), 11); /* (0*3+3)*3+2 */
    cap_free(&c);
    t_teardown();
}

TEST(model_task, external_record_and_wait_report_their_flags)
{
    aclrtStream s = NULL;
    aclrtEvent rec = NULL, wait = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[2];
    aclmdlRITaskParams p;
    uint32_t n = 2;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateEventExWithFlag(&rec, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&wait, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtStreamWaitEventWithFlag(s, wait, 0U, ACL_EVENT_WAIT_EXTERNAL));
    ASSERT_OK(aclrtRecordEventWithFlag(rec, s, ACL_EVENT_RECORD_EXTERNAL));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_OK(aclmdlRITaskGetParams(t[0], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_EVENT_WAIT);
    ASSERT(p.eventWaitTaskParams.event == wait);
    ASSERT_EQ(p.eventWaitTaskParams.waitFlag, ACL_EVENT_WAIT_EXTERNAL);
    ASSERT_OK(aclmdlRITaskGetParams(t[1], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    ASSERT(p.eventRecordTaskParams.event == rec);
    ASSERT_EQ(p.eventRecordTaskParams.recordFlag, ACL_EVENT_RECORD_EXTERNAL);
    /* aclcpu: an event task does not become a value task (207000), and the model is not FAULT. */
    memset(&p, 0, sizeof(p));
    p.type = ACL_MODEL_RI_TASK_VALUE_WRITE;
    p.valueWriteTaskParams.devAddr = &n;
    ASSERT_RC(aclmdlRITaskSetParams(t[1], &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_OK(aclmdlRIUpdate(m));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(rec));
    ASSERT_OK(aclrtDestroyEvent(wait));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: attributes and value-wait flags read back (2026-12-05) ------------------------ */

/* A replacement kernel's SCHEM_MODE attribute is kept and reads back, as a
 * launch's does (kernel_task_get_attribute_checks_and_values). */
TEST(model_task, set_params_keeps_the_schedule_mode_attribute)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelAttrValue v;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    t_setup();
    cap_make(&c);
    a = (struct mad_args){&c.x[0], 10};
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = 1;
    p = kernel_params(&a, 1);
    p.kernelTaskParams.cfg = &cfg;
    ASSERT_OK(aclmdlRITaskSetParams(c.t[1], &p));
    ASSERT_OK(aclmdlRIUpdate(c.m));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(c.t[1], ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, &v));
    ASSERT_EQ(v.schemMode, 1);
    cap_free(&c);
    t_teardown();
}

/* A TIMEOUT_US attribute is 64 bits in two halves: a replacement kernel's
 * high half is kept, and reads back, not only the low one. */
TEST(model_task, set_params_timeout_us_keeps_its_high_half)
{
    struct cap c;
    struct mad_args a;
    aclmdlRITaskParams p;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelAttrValue v;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    t_setup();
    cap_make(&c);
    a = (struct mad_args){&c.x[0], 10};
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    attr.value.timeoutUs.timeoutLow = 7;
    attr.value.timeoutUs.timeoutHigh = 1;
    p = kernel_params(&a, 1);
    p.kernelTaskParams.cfg = &cfg;
    ASSERT_OK(aclmdlRITaskSetParams(c.t[1], &p));
    ASSERT_OK(aclmdlRIUpdate(c.m));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclmdlRIKernelTaskGetAttribute(c.t[1], ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, &v));
    ASSERT_EQ(v.timeoutUs.timeoutLow, 7);
    ASSERT_EQ(v.timeoutUs.timeoutHigh, 1);
    cap_free(&c);
    t_teardown();
}

/* A value wait's flag may be any ACL_STREAM_WAIT_VALUE_*, the last (NOR, 3)
 * included, and the task keeps it; 4 is refused (107000). */
TEST(model_task, set_params_value_wait_takes_the_last_flag_nor_and_keeps_it)
{
    struct cap c;
    aclmdlRITaskParams p, got;
    t_setup();
    cap_make(&c);
    memset(&p, 0, sizeof(p));
    p.type = ACL_MODEL_RI_TASK_VALUE_WAIT;
    p.valueWaitTaskParams.devAddr = &c.x[1];
    p.valueWaitTaskParams.value = 0;
    p.valueWaitTaskParams.flag = ACL_STREAM_WAIT_VALUE_NOR + 1;
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "valueWaitTaskParams.flag is 4");
    p.valueWaitTaskParams.flag = ACL_STREAM_WAIT_VALUE_NOR;
    ASSERT_OK(aclmdlRITaskSetParams(c.t[0], &p));
    memset(&got, 0, sizeof(got));
    ASSERT_OK(aclmdlRITaskGetParams(c.t[0], &got));
    ASSERT_EQ(got.type, ACL_MODEL_RI_TASK_VALUE_WAIT);
    ASSERT_EQ(got.valueWaitTaskParams.flag, ACL_STREAM_WAIT_VALUE_NOR);
    cap_free(&c);
    t_teardown();
}

/* The Ascend 950 has the ACL graph's software queues (A2, A3 and 950 do):
 * its model tasks are read and changed. */
TEST(model_task, the_ascend_950_reads_and_changes_model_tasks)
{
    struct cap c;
    aclmdlRITaskParams p;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    t_setup();
    cap_make(&c);
    ASSERT_OK(aclmdlRITaskGetParams(c.t[0], &p));
    ASSERT_EQ(p.type, ACL_MODEL_RI_TASK_KERNEL);
    ASSERT_OK(aclmdlRITaskDisable(c.t[0]));
    ASSERT_OK(aclmdlRIUpdate(c.m));
    ASSERT_EQ(cap_run(&c), 2); /* only the second kernel: 0*3+2 */
    cap_free(&c);
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): a lane refilled after a clean --------------------- */

/* aclrtPersistentTaskClean empties a built model's lane; the tasks launched
 * into it afterwards are numbered afresh: aclmdlRIGetTasksByStream lists
 * them, even fewer than the lane held before. */
TEST(model_task, a_lane_refilled_after_a_clean_lists_its_new_tasks)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[4];
    int64_t *x;
    uint32_t n = 4;
    aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    launch_mad(x, 1, s);
    launch_mad(x, 2, s);
    ASSERT_OK(aclmdlRIEndTask(m, s));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n)); /* numbers the three tasks */
    ASSERT_EQ(n, 3);
    ASSERT_OK(aclrtPersistentTaskClean(s));
    launch_mad(x, 5, s); /* one task now */
    n = 4;
    t[0] = NULL;
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_EQ(n, 1);
    ASSERT(t[0] != NULL); /* the new task, numbered afresh */
    ASSERT_OK(aclmdlRITaskGetType(t[0], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
    *x = 0;
    ASSERT_OK(aclmdlRIExecute(m, 5000));
    ASSERT_EQ(*x, 5);
    ASSERT_OK(aclmdlRIUnbindStream(m, s));
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

/* A task list with room for fewer tasks than the lane holds gets that many
 * handles and nothing past them (107039 says the rest did not fit). */
TEST(model_task, a_task_list_short_of_room_is_filled_to_its_room_and_no_further)
{
    struct cap c;
    aclmdlRITask t[4];
    aclmdlRITask sentinel = (aclmdlRITask)(uintptr_t)0x5e5e;
    uint32_t n = 2;
    t_setup();
    cap_make(&c); /* three tasks */
    t[0] = t[1] = NULL;
    t[2] = t[3] = sentinel;
    ASSERT_RC(aclmdlRIGetTasksByStream(c.s, t, &n), ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY);
    ASSERT(t[0] == c.t[0] && t[1] == c.t[1]);
    ASSERT(t[2] == sentinel);
    cap_free(&c);
    t_teardown();
}

/* A model whose task change failed stays failed: every later change is
 * refused, the second as the first (a refusal leaves the fault as it was). */
TEST(model_task, a_faulted_model_refuses_every_later_change)
{
    struct cap c;
    struct mad_args bad = {NULL, 1}, good = {NULL, 1};
    aclmdlRITaskParams p;
    t_setup();
    cap_make(&c);
    bad.x = good.x = &c.x[0];
    p = kernel_params(&bad, 0); /* a block count of 0: refused, the model faults */
    ASSERT_RC(aclmdlRITaskSetParams(c.t[0], &p), ACL_ERROR_RT_PARAM_INVALID);
    p = kernel_params(&good, 1);
    for (int i = 0; i < 2; i++)
        ASSERT_RC(aclmdlRITaskSetParams(c.t[0], &p), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    ASSERT_RC(aclmdlRIUpdate(c.m), ACL_ERROR_RT_MODEL_UPDATE_FAILED);
    cap_free(&c);
    t_teardown();
}

/* Disabling a task moves up the later tasks of its own lane only: after
 * the first task of one lane is dropped, the tasks of the other lane keep
 * their places (their handles still name the same tasks). */
TEST(model_task, a_disabled_task_moves_up_only_its_own_lanes_later_tasks)
{
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent fork = NULL, join = NULL;
    aclmdlRI m = NULL;
    aclmdlRITask t[4], t2[4];
    aclmdlRITaskType type;
    uint32_t n = 4, n2 = 4;
    int64_t *x;
    t_setup();
    x = t_dev_i64(2);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch_mad(&x[0], 1, s);
    ASSERT_OK(aclrtRecordEvent(fork, s));
    ASSERT_OK(aclrtStreamWaitEvent(s2, fork)); /* s2 joins: wait, kernel, record */
    launch_mad(&x[1], 2, s2);
    ASSERT_OK(aclrtRecordEvent(join, s2));
    ASSERT_OK(aclrtStreamWaitEvent(s, join));
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclmdlRIGetTasksByStream(s, t, &n));
    ASSERT_EQ(n, 3);
    ASSERT_OK(aclmdlRIGetTasksByStream(s2, t2, &n2));
    ASSERT_EQ(n2, 3);
    ASSERT_OK(aclmdlRITaskDisable(t[0])); /* lane s's first task */
    ASSERT_OK(aclmdlRIUpdate(m));
    ASSERT_OK(aclmdlRITaskGetType(t2[0], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_EVENT_WAIT);
    ASSERT_OK(aclmdlRITaskGetType(t2[1], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_KERNEL);
    ASSERT_OK(aclmdlRITaskGetType(t2[2], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    ASSERT_OK(aclmdlRITaskGetType(t[1], &type));
    ASSERT_EQ(type, ACL_MODEL_RI_TASK_EVENT_RECORD);
    x[0] = x[1] = 0;
    ASSERT_OK(aclmdlRIExecuteAsync(m, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(x[0], 0); /* its kernel dropped */
    ASSERT_EQ(x[1], 2);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}
