/*
 * api_model_task.c - a model's tasks (aclmdlRITaskGetType, GetSeqId,
 * GetParams, SetParams, Disable, aclmdlRIKernelTaskGetAttribute),
 * aclmdlRIUpdate, and the model destroy callbacks.
 *
 * DESIGN: checks in the order of the reference runtime: the acl layer
 * (kernel.cpp, model_ri.cpp) checks nothing but the two NULLs of
 * aclmdlRIKernelTaskGetAttribute (100000); the runtime's NULL checks are
 * 107000 (api_error.cc), then the task, the chip's software-SQ feature
 * (capture_model_utils.cc CheckCaptureModelSupportSoftwareSq: A2, A3 and
 * 950; 207000 elsewhere), the model's kind and state, then the parameters
 * (api_impl.cc, kernel_utils.cc, memory_task.cc). A task handle is a name
 * core/model_task.c resolves; one that names nothing is 107017 (the
 * runtime takes a raw pointer and cannot tell). The replacement kernel of
 * aclmdlRITaskSetParams is built here, as a launch builds one.
 *
 * Threads: any host thread. Locks: capture_lock around each call's look
 * at the model (its state under the model's lock, in core).
 */
#include <string.h>

#include "api_int.h"
#include "../services/devmem.h"

static aclError null_rt(const char *fn, const char *arg)
{
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn, arg);
}

/* The chip feature every task change and GetParams needs (the ACL graph's
 * software SQ): the Atlas A2, A3 and Ascend 950 parts. */
static aclError check_software_sq(const char *fn, const struct model *m)
{
    enum soc_family f = m->dev->soc->family;
    if (f == SOC_A2 || f == SOC_A3 || f == SOC_950)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no software submission queues for ACL graphs; its "
                    "model tasks cannot be read or changed", fn, m->dev->soc->name);
}

/* ---- queries ------------------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type)
{
    const char *fn = "aclmdlRITaskGetType";
    struct context *ctx = ctx_current();
    const struct soc_profile *soc = ctx != NULL ? ctx->dev->soc : soc_configured();
    struct mtask_ref r;
    aclError err;
    /* api_c_task.cc rtTaskGetType: the chip's ACL graph feature first. */
    if (soc->family == SOC_910 || soc->family == SOC_200I500A2)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no ACL graphs", fn, soc->name);
    if (task == NULL || type == NULL)
        return null_rt(fn, task == NULL ? "task" : "type");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS)
        *type = (aclmdlRITaskType)model_task_type(r.t);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id)
{
    const char *fn = "aclmdlRITaskGetSeqId";
    struct mtask_ref r;
    aclError err;
    if (task == NULL || id == NULL)
        return null_rt(fn, task == NULL ? "task" : "id");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS && r.m->kind != MODEL_CAPTURED) /* api_impl.cc TaskGetSeqId */
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the task's model was built with aclmdlRIBuildBegin; "
                       "only a captured model's tasks have sequence ids", fn);
    if (err == ACL_SUCCESS)
        *id = r.seq;
    capture_leave();
    return err;
}

/* The flags the user's event h was created with (0 if it is gone). */
static uint32_t event_flags(const void *h)
{
    struct event *ev = h != NULL ? (struct event *)obj_resolve(h, OBJ_EVENT) : NULL;
    return ev != NULL ? load_relaxed(&ev->flags) : 0;
}

/* Called with capture_lock held: r's parameters (api_impl.cc TaskGetParams
 * and the getters of kernel_utils.cc, event_task.cc, memory_task.cc). */
static aclError get_params(const char *fn, const struct mtask_ref *r, aclmdlRITaskParams *p)
{
    const struct task *t = r->t;
    const void *ev;
    memset(p, 0, sizeof(*p));
    p->type = (aclmdlRITaskType)model_task_type(t);
    switch (p->type) {
    case ACL_MODEL_RI_TASK_KERNEL: {
        const struct kfunc *kf = t->u.kernel.kf;
        aclmdlRIKernelTaskParams *k = &p->kernelTaskParams;
        k->funcHandle = kf != NULL && load_relaxed(&kf->hdr.live) ? obj_handle(&kf->hdr) : NULL;
        k->cfg = NULL;
        k->args = task_kernel_args(t);
        k->isHostArgs = 0;
        k->argsSize = t->u.kernel.args_size;
        k->numBlocks = t->u.kernel.blocks;
        if (r->m->kind != MODEL_CAPTURED)
            return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a kernel task of a model built with "
                            "aclmdlRIBuildBegin has no parameters to read; a captured model's has", fn);
        p->taskGrp = model_task_group(r->m, r->l, t);
        p->opInfoPtr = r->e->opinfo;
        p->opInfoSize = r->e->opinfo_size;
        return ACL_SUCCESS;
    }
    case ACL_MODEL_RI_TASK_EVENT_RECORD:
    case ACL_MODEL_RI_TASK_EVENT_WAIT:
    case ACL_MODEL_RI_TASK_EVENT_RESET:
        ev = model_task_event(r->m, t);
        if (ev == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the event task's event is not known", fn);
        /* The three event structs share their layout. */
        p->eventRecordTaskParams.event = (aclrtEvent)ev;
        p->eventRecordTaskParams.eventFlag = event_flags(ev);
        if (p->type == ACL_MODEL_RI_TASK_EVENT_RECORD && t->u.event.in_model == MEV_EXT_RECORD)
            p->eventRecordTaskParams.recordFlag = ACL_EVENT_RECORD_EXTERNAL;
        if (p->type == ACL_MODEL_RI_TASK_EVENT_WAIT && t->u.event.in_model == MEV_EXT_WAIT)
            p->eventWaitTaskParams.waitFlag = ACL_EVENT_WAIT_EXTERNAL;
        return ACL_SUCCESS;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
        p->valueWriteTaskParams.devAddr = t->u.value.addr;
        p->valueWriteTaskParams.value = t->u.value.value;
        return ACL_SUCCESS;
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
        p->valueWaitTaskParams.devAddr = t->u.value.addr;
        p->valueWaitTaskParams.value = t->u.value.value;
        p->valueWaitTaskParams.flag = t->u.value.flag;
        return ACL_SUCCESS;
    default:
        return ACL_SUCCESS; /* not reached: the caller refused DEFAULT */
    }
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    const char *fn = "aclmdlRITaskGetParams";
    struct mtask_ref r;
    aclError err;
    if (task == NULL || params == NULL)
        return null_rt(fn, task == NULL ? "task" : "params");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS)
        err = check_software_sq(fn, r.m);
    if (err == ACL_SUCCESS && model_task_type(r.t) == ACL_MODEL_RI_TASK_DEFAULT)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'task': a task of type ACL_MODEL_RI_TASK_DEFAULT "
                       "(a copy, a host function, a stream control or an internal task) has no parameters", fn);
    if (err == ACL_SUCCESS)
        err = get_params(fn, &r, params);
    capture_leave();
    return err;
}

/* ---- attributes ------------------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue *attrValue)
{
    const char *fn = "aclmdlRIKernelTaskGetAttribute";
    struct mtask_ref r;
    uint64_t us;
    aclError err;
    if (task == NULL || attrValue == NULL) /* kernel.cpp: the acl layer's */
        return null_arg(fn, task == NULL ? "task" : "attrValue");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS && r.t->kind != TASK_KERNEL) /* kernel_utils.cc GetKernelAttribute */
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'task' is not a kernel task (aclmdlRITaskGetType "
                       "says which it is)", fn);
    if (err != ACL_SUCCESS) {
        capture_leave();
        return err;
    }
    us = r.t->u.kernel.timeout_us;
    switch (attrId) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        attrValue->schemMode = r.t->u.kernel.schedule_mode;
        break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        attrValue->dynUBufSize = 0; /* a CPU has no unified buffer: aclcpu keeps none */
        break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        attrValue->isDataDump = 0;
        break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        attrValue->timeout = (uint16_t)(us / 1000000u);
        break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        attrValue->timeoutUs.timeoutLow = (uint32_t)us;
        attrValue->timeoutUs.timeoutHigh = (uint32_t)(us >> 32);
        break;
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'attrId' (%d): ENGINE_TYPE, BLOCKDIM_OFFSET and "
                       "BLOCK_TASK_PREFETCH are not kept with a task", fn, (int)attrId);
        break;
    default:
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'attrId' (%d) is not a readable launch attribute "
                       "(SCHEM_MODE, DYN_UBUF_SIZE, DATA_DUMP, TIMEOUT, TIMEOUT_US)", fn, (int)attrId);
        break;
    }
    capture_leave();
    return err;
}

/* ---- changes ------------------------------------------------------------------------------ */

/* The launch attributes into the replacement kernel (para_convertor.cc
 * ConvertLaunchCfgToTaskCfg: attrs NULL, an unknown id: 107000). */
static aclError read_cfg(const char *fn, const aclrtLaunchKernelCfg *cfg, struct task_kernel *k)
{
    if (cfg == NULL)
        return ACL_SUCCESS;
    if (cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->kernelTaskParams.cfg->attrs is NULL", fn);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *a = &cfg->attrs[i];
        switch (a->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE: k->schedule_mode = a->value.schemMode; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: k->engine = a->value.engineType == ACL_RT_ENGINE_TYPE_AIC
                                                                   ? ACL_RT_ENGINE_TYPE_AIC : ACL_RT_ENGINE_TYPE_AIV;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: k->timeout_us = (uint64_t)a->value.timeout * 1000000u; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            k->timeout_us = ((uint64_t)a->value.timeoutUs.timeoutHigh << 32) | a->value.timeoutUs.timeoutLow;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
            break;
        default:
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->kernelTaskParams.cfg->attrs[%zu].id %d is not a "
                            "launch attribute", fn, i, (int)a->id);
        }
    }
    return ACL_SUCCESS;
}

/* Called with capture_lock held: the kernel that replaces r's
 * (kernel_utils.cc UpdateKernelParams, in its order). */
static aclError set_kernel(const char *fn, struct mtask_ref *r, const aclmdlRITaskParams *p)
{
    const aclmdlRIKernelTaskParams *kp = &p->kernelTaskParams;
    struct task_kernel k = {.engine = ACL_RT_ENGINE_TYPE_AIV};
    const struct kfunc *kf = NULL;
    struct binary *bin = NULL;
    aclcpuKernelFn kfn = NULL;
    struct task *t;
    void *buf, *info = NULL;
    aclError err;
    if (r->t->kind != TASK_KERNEL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'task' is not a kernel task; only a kernel task "
                        "takes ACL_MODEL_RI_TASK_KERNEL parameters", fn);
    if (p->taskGrp != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->taskGrp must be NULL", fn);
    if (kp->funcHandle != NULL && obj_resolve(kp->funcHandle, OBJ_FUNC) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: params->kernelTaskParams.funcHandle (%p) is not a live "
                        "kernel", fn, kp->funcHandle);
    if (kp->funcHandle == NULL)
        return null_rt(fn, "params->kernelTaskParams.funcHandle");
    if (kp->args == NULL)
        return null_rt(fn, "params->kernelTaskParams.args");
    if (kp->argsSize == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->kernelTaskParams.argsSize is 0; it must be above 0",
                        fn);
    err = read_cfg(fn, kp->cfg, &k);
    /* aclcpu's own rule (the runtime keeps the count in 16 bits unchecked):
     * a launch's block count, 1 to 65535. */
    if (err == ACL_SUCCESS && (kp->numBlocks == 0 || kp->numBlocks > 0xFFFFu))
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->kernelTaskParams.numBlocks is %u; it must be in "
                       "[1, 65535]", fn, kp->numBlocks);
    if (err == ACL_SUCCESS)
        err = kfunc_resolve_for_launch(fn, kp->funcHandle, &kfn, &bin, &kf);
    if (err != ACL_SUCCESS)
        return err;
    if (p->opInfoPtr != NULL && p->opInfoSize != 0) {
        info = acl_malloc(p->opInfoSize);
        if (info == NULL) {
            if (bin != NULL)
                binary_put_inflight(bin);
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for the operator information", fn);
        }
        memcpy(info, p->opInfoPtr, p->opInfoSize);
    }
    err = stream_task_new(fn, TASK_KERNEL, &t);
    if (err != ACL_SUCCESS) {
        acl_free(info);
        if (bin != NULL)
            binary_put_inflight(bin);
        return err;
    }
    t->u.kernel = (struct task_kernel){
        .fn = kfn,
        .bin = bin, /* the task holds the reference now */
        .kf = kf,
        .blocks = kp->numBlocks,
        .core_limit = {r->t->u.kernel.core_limit[0], r->t->u.kernel.core_limit[1]},
        .engine = k.engine,
        .schedule_mode = k.schedule_mode,
        .timeout_us = k.timeout_us != 0 ? k.timeout_us : op_execute_timeout_us(),
        .overflow_check = r->t->u.kernel.overflow_check,
    };
    buf = task_args_reserve(t, kp->argsSize);
    if (buf == NULL) {
        acl_free(info);
        stream_task_drop(t);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for %zu argument bytes", fn, kp->argsSize);
    }
    memcpy(buf, kp->args, kp->argsSize); /* device memory is the host's: read now */
    model_task_replace(r, t);
    acl_free(r->e->opinfo);
    r->e->opinfo = info;
    r->e->opinfo_size = info != NULL ? p->opInfoSize : 0;
    return ACL_SUCCESS;
}

/* Called with capture_lock held: r becomes a value write or wait
 * (memory_task.cc CheckUpdatingTaskParams, then the task's conversion). */
static aclError set_value(const char *fn, struct mtask_ref *r, const aclmdlRITaskParams *p, bool *fault)
{
    bool wait = p->type == ACL_MODEL_RI_TASK_VALUE_WAIT;
    void *addr = wait ? p->valueWaitTaskParams.devAddr : p->valueWriteTaskParams.devAddr;
    struct task *t;
    aclError err;
    *fault = true;
    if (model_task_type(r->t) == ACL_MODEL_RI_TASK_DEFAULT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'task' is of type ACL_MODEL_RI_TASK_DEFAULT, which "
                        "cannot be changed", fn);
    if (p->taskGrp != NULL || p->opInfoPtr != NULL || p->opInfoSize != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->taskGrp, opInfoPtr and opInfoSize must be NULL, NULL "
                        "and 0 for a value task", fn);
    /* aclcpu's own rules, after the runtime's; they leave the model as it
     * was (docs/differences.md). */
    *fault = false;
    if (task_kind_is_event(r->t->kind))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: aclcpu cannot turn an event task into a value task "
                        "(the model's other lanes may wait on it)", fn);
    if (devmem_classify(addr, sizeof(uint64_t)) != MEM_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the value task's devAddr (%p) is not 8 bytes of device memory",
                        fn, addr);
    if (wait && p->valueWaitTaskParams.flag > ACL_STREAM_WAIT_VALUE_NOR)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->valueWaitTaskParams.flag is %u; it must be an "
                        "ACL_STREAM_WAIT_VALUE_* (0..3)", fn, p->valueWaitTaskParams.flag);
    err = stream_task_new(fn, wait ? TASK_VALUE_WAIT : TASK_VALUE_WRITE, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.value.addr = addr;
    t->u.value.value = wait ? p->valueWaitTaskParams.value : p->valueWriteTaskParams.value;
    t->u.value.flag = wait ? p->valueWaitTaskParams.flag : 0;
    model_task_replace(r, t);
    acl_free(r->e->opinfo);
    r->e->opinfo = NULL;
    r->e->opinfo_size = 0;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params)
{
    const char *fn = "aclmdlRITaskSetParams";
    struct mtask_ref r;
    bool fault = true;
    aclError err;
    if (task == NULL || params == NULL)
        return null_rt(fn, task == NULL ? "task" : "params");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS)
        err = check_software_sq(fn, r.m);
    if (err == ACL_SUCCESS)
        err = model_update_enter(fn, r.m);
    if (err != ACL_SUCCESS) {
        capture_leave();
        return err;
    }
    switch (params->type) {
    case ACL_MODEL_RI_TASK_KERNEL:
        err = set_kernel(fn, &r, params);
        break;
    case ACL_MODEL_RI_TASK_VALUE_WRITE:
    case ACL_MODEL_RI_TASK_VALUE_WAIT:
        err = set_value(fn, &r, params, &fault);
        break;
    default:
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: params->type (%d) must be ACL_MODEL_RI_TASK_KERNEL (1), "
                       "ACL_MODEL_RI_TASK_VALUE_WRITE (5) or ACL_MODEL_RI_TASK_VALUE_WAIT (6)", fn,
                       (int)params->type);
        break;
    }
    /* A change the runtime refused leaves the model FAULT (api_impl.cc
     * TaskSetParams); out of memory is aclcpu's. */
    if (err != ACL_SUCCESS && fault && err != ACL_ERROR_RT_MEMORY_ALLOCATION)
        model_update_fault(r.m);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task)
{
    const char *fn = "aclmdlRITaskDisable";
    struct mtask_ref r;
    aclError err;
    if (task == NULL)
        return null_rt(fn, "task");
    capture_enter();
    err = model_task_find(fn, task, &r);
    if (err == ACL_SUCCESS)
        err = check_software_sq(fn, r.m);
    if (err == ACL_SUCCESS)
        err = model_update_enter(fn, r.m);
    if (err == ACL_SUCCESS && model_task_type(r.t) == ACL_MODEL_RI_TASK_DEFAULT) { /* api_impl.cc ModelTaskDisable */
        model_update_fault(r.m);
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'task' is of type ACL_MODEL_RI_TASK_DEFAULT, which "
                       "cannot be disabled", fn);
    }
    if (err == ACL_SUCCESS) {
        r.e->flag = MT_DISABLE;
        acl_free(r.e->opinfo);
        r.e->opinfo = NULL;
        r.e->opinfo_size = 0;
    }
    capture_leave();
    return err;
}

/* ---- the model ------------------------------------------------------------------------------ */

/* The model handle as the runtime's entry takes it: NULL -> 107000 (its
 * NULL check), a stale one -> 107017. */
static aclError model_arg(const char *fn, aclmdlRI modelRI, struct model **m)
{
    if (modelRI == NULL)
        return null_rt(fn, "modelRI");
    return model_resolve(fn, modelRI, m);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI)
{
    const char *fn = "aclmdlRIUpdate";
    struct model *m;
    uint8_t upd;
    aclError err = model_arg(fn, modelRI, &m);
    if (err == ACL_SUCCESS && m->kind != MODEL_CAPTURED) /* api_error.cc ModelUpdate */
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the model was built with aclmdlRIBuildBegin; only a "
                       "captured model is updated", fn);
    if (err == ACL_SUCCESS)
        err = check_software_sq(fn, m);
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    upd = m->upd; /* written under capture_lock too (every change holds it) */
    if (!obj_same(&m->hdr, modelRI))
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'modelRI': another thread destroyed the model", fn);
    else if (m->state != MODEL_READY || upd == UPD_FAULT) /* api_impl.cc ModelUpdate */
        err = acl_fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: model %u %s", fn, m->hdr.index,
                       m->state != MODEL_READY ? "is being captured" : "had a task change fail; it cannot be updated");
    else if (upd == UPD_UPDATING)
        model_update_apply(m);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData)
{
    const char *fn = "aclmdlRIDestroyRegisterCallback";
    struct model *m;
    aclError err = model_arg(fn, modelRI, &m);
    if (err == ACL_SUCCESS && func == NULL)
        err = null_rt(fn, "func");
    if (err == ACL_SUCCESS)
        err = model_destroy_cb_add(fn, m, modelRI, func, userData);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func)
{
    const char *fn = "aclmdlRIDestroyUnregisterCallback";
    struct model *m;
    aclError err = model_arg(fn, modelRI, &m);
    if (err == ACL_SUCCESS && func == NULL)
        err = null_rt(fn, "func");
    if (err == ACL_SUCCESS)
        err = model_destroy_cb_remove(fn, m, modelRI, func);
    return err;
}
