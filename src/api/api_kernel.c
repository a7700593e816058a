/*
 * api_kernel.c - kernel launches and argument handles.
 *
 * DESIGN: every launch variant funnels into launch(): resolve the kernel
 * (taking a reference on its binary), read the launch attributes, copy the
 * arguments into the task (inline up to TASK_INLINE_ARGS bytes) and patch
 * placeholders to point into that copy, so the caller may reuse its buffers
 * as soon as the call returns. Argument handles (aclrtKernelArgs*) are
 * objects in the handle table that collect parameter bytes.
 *
 * Threads: any host thread. Locks: none here; the stream's lock is taken
 * once, inside stream_submit, after the task is built.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"
#include "../engine/engine.h"

/* Which launch call it is, for the order of its checks. */
enum launch_form {
    FORM_PLAIN, /* aclrtLaunchKernel: the block count, then the arguments */
    FORM_CFG,   /* V2, WithHostArgs: the arguments, the block count, then cfg */
    FORM_HANDLE, /* WithConfig: as FORM_CFG; the placeholders come from the argument handle */
    FORM_GRID,  /* SIMT: the caller checked the grid; blocks is its product */
};

struct launch_desc {
    const char *fn;
    aclrtFuncHandle func;
    uint32_t blocks;
    aclrtStream stream;
    const aclrtLaunchKernelCfg *cfg;
    const void *args;
    size_t args_size;
    const aclrtPlaceHolderInfo *ph;   /* offsets inside args */
    size_t nph;
    enum launch_form form;
};

/* The most blocks a kernel launch takes: a task keeps its block count in
 * 16 bits (the runtime's kernel launch check refuses more, 107000). */
#define MAX_LAUNCH_BLOCKS 0xFFFFu

/* The kernel handle as the runtime's entry validates it, first of all:
 * a live kernel (107017). The launch takes its reference later. */
static aclError func_live(const char *fn, const char *arg, const void *func)
{
    if (obj_resolve(func, OBJ_FUNC) != NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                    "%s: argument '%s' (%p) is not a live kernel (its binary was unloaded, or it never came "
                    "from aclrtBinaryGetFunction/aclcpuRegisterKernel)",
                    fn, arg, func);
}

static aclError check_blocks(const struct launch_desc *d)
{
    if (d->blocks == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numBlocks' is 0; a kernel needs at least one block",
                        d->fn);
    if (d->form != FORM_GRID && d->blocks > MAX_LAUNCH_BLOCKS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numBlocks' is %u; it must be in [1, %u]", d->fn,
                        d->blocks, MAX_LAUNCH_BLOCKS);
    return ACL_SUCCESS;
}

/* Placeholders: an array when there are any, each offset inside the
 * argument bytes (107000). aclcpu also wants room for the pointer it
 * writes at addrOffset, so that it never writes past the copy. */
static aclError check_placeholders(const struct launch_desc *d)
{
    if (d->nph > 0 && d->ph == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'placeHolderArray' is NULL but 'placeHolderNum' is %zu",
                        d->fn, d->nph);
    for (size_t i = 0; i < d->nph; i++) {
        const aclrtPlaceHolderInfo *p = &d->ph[i];
        if (p->addrOffset >= d->args_size || p->dataOffset >= d->args_size)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: placeHolderArray[%zu] (addrOffset %u, dataOffset %u): both must be below the argument "
                            "size %zu",
                            d->fn, i, p->addrOffset, p->dataOffset, d->args_size);
        if ((size_t)p->addrOffset + sizeof(void *) > d->args_size)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: placeHolderArray[%zu].addrOffset %u leaves no room for a pointer in the %zu argument "
                            "bytes",
                            d->fn, i, p->addrOffset, d->args_size);
    }
    return ACL_SUCCESS;
}

/* A switch attribute (prefetch, data dump, profiling) is 0 or 1. */
static aclError check_switch(const struct launch_desc *d, const char *name, uint8_t v)
{
    if (v <= 1)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs: %s is %u; it must be 0 or 1", d->fn, name, v);
}

/* The attributes' values, as the runtime checks them before the launch:
 * the last of each id counts; TIMEOUT with TIMEOUT_US, then schemMode,
 * prefetch, data dump and profiling, in that order (107000). */
static aclError check_cfg_values(const struct launch_desc *d)
{
    const aclrtLaunchKernelCfg *cfg = d->cfg;
    uint8_t sched = 0, prefetch = 0, dump = 0, prof = 0;
    bool seconds = false, micros = false;
    aclError err;

    if (cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cfg->attrs' is NULL (cfg->numAttrs is %zu)",
                        d->fn, cfg->numAttrs);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *a = &cfg->attrs[i];
        switch (a->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE: sched = a->value.schemMode; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH: prefetch = a->value.isBlockTaskPrefetch; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP: dump = a->value.isDataDump; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING: prof = a->value.enableProfiling; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: seconds = true; break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US: micros = true; break;
        default: break;
        }
    }
    if (seconds && micros)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs has both TIMEOUT (7) and TIMEOUT_US (8); give "
                        "one of them", d->fn);
    if (sched > 1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs: schemMode %u is neither 0 (normal) nor 1 (batch)",
                        d->fn, sched);
    if ((err = check_switch(d, "isBlockTaskPrefetch", prefetch)) != ACL_SUCCESS ||
        (err = check_switch(d, "isDataDump", dump)) != ACL_SUCCESS)
        return err;
    return check_switch(d, "enableProfiling", prof);
}

/* The attributes into the kernel record, once their values passed: an
 * unknown id is refused here (107000), as the runtime's conversion into
 * its task configuration does. The device-side tuning attributes
 * (unified-buffer size, block offset, prefetch, data dump, profiling)
 * change nothing on a CPU. */
static aclError read_cfg(const struct launch_desc *d, struct task_kernel *k)
{
    const aclrtLaunchKernelCfg *cfg = d->cfg;
    if (cfg == NULL)
        return ACL_SUCCESS;
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtLaunchKernelAttr *a = &cfg->attrs[i];
        switch (a->id) {
        case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
            k->schedule_mode = a->value.schemMode;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
            /* aclcpu's own check: the engine picks a trap's code. */
            if ((unsigned)a->value.engineType > ACL_RT_ENGINE_TYPE_AIV)
                return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu]: engineType %d is neither AIC (0) "
                                "nor AIV (1)", d->fn, i, (int)a->value.engineType);
            k->engine = (uint8_t)a->value.engineType;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: /* seconds */
            k->timeout_us = (uint64_t)a->value.timeout * 1000000u;
            break;
        case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
            k->timeout_us = ((uint64_t)a->value.timeoutUs.timeoutHigh << 32) | a->value.timeoutUs.timeoutLow;
            break;
        default:
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu].id %d is not a launch attribute", d->fn,
                            i, (int)a->id);
        }
    }
    return ACL_SUCCESS;
}

/* The checks before the context, in the runtime's order: the kernel and
 * stream handles (107017), the arguments and the block count (their order
 * depends on the call), the attribute values, then the attribute ids. */
static aclError check_launch(const struct launch_desc *d, struct task_kernel *k, struct stream **s)
{
    aclError err = func_live(d->fn, d->form == FORM_GRID ? "func" : "funcHandle", d->func);
    if (err == ACL_SUCCESS)
        err = stream_handle_get(d->fn, d->stream, s);
    if (err != ACL_SUCCESS)
        return err;
    if (d->form == FORM_PLAIN) {
        err = check_blocks(d);
    } else {
        err = d->form == FORM_HANDLE ? ACL_SUCCESS : check_placeholders(d);
        if (err == ACL_SUCCESS)
            err = check_blocks(d);
        if (err == ACL_SUCCESS && d->cfg != NULL)
            err = check_cfg_values(d);
    }
    if (err == ACL_SUCCESS)
        err = read_cfg(d, k);
    /* Without a TIMEOUT attribute of its own, a kernel has the process's
     * operator execution timeout (aclrtSetOpExecuteTimeOut*; 0: none). */
    if (err == ACL_SUCCESS && k->timeout_us == 0)
        k->timeout_us = op_execute_timeout_us();
    return err;
}

/* Copies the arguments into t and points each placeholder into the copy. */
static aclError fill_args(const struct launch_desc *d, struct task *t)
{
    unsigned char *buf = task_args_reserve(t, d->args_size);
    if (buf == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for %zu argument bytes", d->fn,
                        d->args_size);
    if (d->args_size > 0)
        memcpy(buf, d->args, d->args_size);
    for (size_t i = 0; i < d->nph; i++) {
        void *target = buf + d->ph[i].dataOffset;
        memcpy(buf + d->ph[i].addrOffset, &target, sizeof(target));
    }
    return ACL_SUCCESS; /* task_args_reserve noted where the bytes are */
}

/* Makes the kernel task without locks: the record (with the attributes
 * check_launch read into cfgk) and the argument copy. On failure it holds
 * nothing. */
static aclError make_kernel_task(const struct launch_desc *d, aclcpuKernelFn kfn, const struct kfunc *kf,
                                 const uint32_t limits[2], const struct task_kernel *cfgk, struct task **out)
{
    struct task *t;
    aclError err = stream_task_new(d->fn, TASK_KERNEL, &t);
    if (err != ACL_SUCCESS)
        return err;
    /* Every field, so a reused record needs no clearing; fill_args sets
     * args_size, the binary comes with the submit and stream_submit copies
     * the overflow switch. */
    t->u.kernel = (struct task_kernel){
        .fn = kfn,
        .kf = kf,
        .blocks = d->blocks,
        .core_limit = {(uint16_t)limits[0], (uint16_t)limits[1]},
        .engine = cfgk->engine,
        .schedule_mode = cfgk->schedule_mode,
        .timeout_us = cfgk->timeout_us,
    };
    err = fill_args(d, t);
    if (err != ACL_SUCCESS) {
        stream_task_drop(t);
        return err;
    }
    *out = t;
    return ACL_SUCCESS;
}

static aclError launch(const struct launch_desc *d)
{
    struct submit sub = {.fn = d->fn, .stream = d->stream};
    struct task_kernel cfgk = {.engine = ACL_RT_ENGINE_TYPE_AIV}; /* vector unless told otherwise */
    uint32_t limits[2];
    aclcpuKernelFn kfn;
    const struct kfunc *kf = NULL;
    struct binary *bin;
    struct stream *s = NULL;
    struct task *t;
    aclError err;

    err = check_launch(d, &cfgk, &s);
    if (err == ACL_SUCCESS)
        err = task_stream_of(d->fn, &s);
    if (err == ACL_SUCCESS)
        err = kfunc_resolve_for_launch(d->fn, d->func, &kfn, &bin, &kf);
    if (err != ACL_SUCCESS)
        return err;
    /* The core limits in force for this thread, recorded with the kernel
     * (cooperative: the block count is not clamped). */
    reslimits_in_force(load_relaxed(&s->dev), limits);
    err = make_kernel_task(d, kfn, kf, limits, &cfgk, &t);
    if (err != ACL_SUCCESS) {
        if (bin != NULL)
            binary_put_inflight(bin);
        return err;
    }
    t->u.kernel.bin = bin; /* the task holds the binary reference now */
    err = stream_submit(&sub, s, t);
    /* ASCEND_RT_LAUNCH_BLOCKING: wait, and return what execution returned. */
    if (ACLCPU_UNLIKELY(sub.blocks))
        return launch_wait(d->fn, s, d->stream);
    return err;
}

/* The acl layer's checks of the plain launches: the kernel, then the
 * argument bytes, NULL (100000). aclcpu takes a kernel without arguments
 * (NULL and 0), which the device never has (differences.md). */
static aclError check_plain_args(const char *fn, const void *func, const void *args, size_t size, const char *arg)
{
    if (func == NULL)
        return null_arg(fn, "funcHandle");
    if (args == NULL && size > 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL but 'argsSize' is %zu", fn, arg, size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream)
{
    CHECK_SITE();
    struct launch_desc d = {"aclrtLaunchKernel", funcHandle, numBlocks, stream, NULL, argsData, argsSize,
                            NULL, 0, FORM_PLAIN};
    aclError err = check_plain_args(d.fn, funcHandle, argsData, argsSize, "argsData");
    return err == ACL_SUCCESS ? launch(&d) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream)
{
    CHECK_SITE();
    struct launch_desc d = {"aclrtLaunchKernelV2", funcHandle, numBlocks, stream, cfg, argsData, argsSize,
                            NULL, 0, FORM_CFG};
    aclError err = check_plain_args(d.fn, funcHandle, argsData, argsSize, "argsData");
    return err == ACL_SUCCESS ? launch(&d) : err;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum)
{
    CHECK_SITE();
    struct launch_desc d = {"aclrtLaunchKernelWithHostArgs", funcHandle, numBlocks, stream, cfg, hostArgs, argsSize,
                            placeHolderArray, placeHolderNum, FORM_CFG};
    aclError err = check_plain_args(d.fn, funcHandle, hostArgs, argsSize, "hostArgs");
    return err == ACL_SUCCESS ? launch(&d) : err;
}

/* ---- argument handles ------------------------------------------------------ */

/* The parameters one handle holds, as the runtime's (MAX_PARAM_CNT). */
#define MAX_ARG_PARAMS 128

/* As in the runtime, each thread has one argument handle: aclrtKernelArgsInit
 * starts it afresh and returns it again, and it goes when the thread ends
 * (a launch has copied what it needs by then). Only its own thread writes
 * it, except through a handle the program passed on. */
struct args_obj {
    struct obj_header hdr;
    aclrtFuncHandle func;
    unsigned char *bytes;            /* the parameters */
    size_t size, cap;
    size_t param_off[MAX_ARG_PARAMS], param_size[MAX_ARG_PARAMS];
    bool is_placeholder[MAX_ARG_PARAMS];
    unsigned char *ph_data[MAX_ARG_PARAMS];
    size_t ph_size[MAX_ARG_PARAMS];
    unsigned nparams;
    bool finalized;
    bool updating;                   /* a ParaUpdate since the last Finalize */
    bool got_buffer;                 /* a placeholder buffer was handed out */
};

static _Thread_local struct args_obj *tls_args;

static void args_clear(struct args_obj *a)
{
    for (unsigned i = 0; i < a->nparams; i++) {
        acl_free(a->ph_data[i]);
        a->ph_data[i] = NULL;
        a->ph_size[i] = 0;
    }
    a->size = 0;
    a->nparams = 0;
    a->finalized = a->updating = a->got_buffer = false;
}

/* Thread exit: the thread's handle stops resolving and its memory is reused. */
static void args_thread_exit(void)
{
    struct args_obj *a = tls_args;
    if (a == NULL)
        return;
    tls_args = NULL;
    obj_kill(&a->hdr);
    args_clear(a);
    acl_free(a->bytes);
    a->bytes = NULL;
    a->cap = 0;
    obj_recycle(&a->hdr);
}

static struct args_obj *resolve_args(const char *fn, aclrtArgsHandle h, aclError *err)
{
    struct args_obj *a = (struct args_obj *)obj_resolve(h, OBJ_ARGS);
    *err = ACL_SUCCESS;
    if (a == NULL)
        *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'argsHandle' (%p) is not a live argument handle (from aclrtKernelArgsInit, on a "
                        "thread that has not ended)",
                        fn, h);
    return a;
}

/* A parameter of a's by its handle (107017 if it names none). */
static int param_index(const char *fn, struct args_obj *a, aclrtParamHandle p, aclError *err)
{
    uintptr_t i = (uintptr_t)p;
    *err = ACL_SUCCESS;
    if (i >= 1 && i <= a->nparams)
        return (int)(i - 1);
    *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                    "%s: argument 'paramHandle' (%p) is not a parameter of this argument handle", fn, p);
    return -1;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    const char *fn = "aclrtKernelArgsInit";
    struct args_obj *a = tls_args;
    aclError err;
    bool fresh;

    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if ((err = func_live(fn, "funcHandle", funcHandle)) != ACL_SUCCESS)
        return err;
    if (a != NULL) {
        args_clear(a);
        a->func = funcHandle;
        *argsHandle = obj_handle(&a->hdr);
        return ACL_SUCCESS;
    }
    a = obj_create(OBJ_ARGS, sizeof(*a), OBJ_CLEAR_ALL, &fresh);
    if (a == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    a->func = funcHandle;
    obj_publish(&a->hdr);
    tls_args = a;
    plat_thread_at_exit(args_thread_exit);
    *argsHandle = obj_handle(&a->hdr);
    return ACL_SUCCESS;
}

static aclError args_add(const char *fn, struct args_obj *a, const void *param, size_t n, bool placeholder,
                         aclrtParamHandle *out)
{
    if (a->nparams == MAX_ARG_PARAMS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the handle already holds %d parameters, the most it takes",
                        fn, MAX_ARG_PARAMS);
    if (a->size + n > a->cap) {
        size_t cap = (a->size + n) * 2 + 64;
        unsigned char *b = acl_realloc(a->bytes, cap);
        if (b == NULL)
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
        a->bytes = b;
        a->cap = cap;
    }
    if (param != NULL)
        memcpy(a->bytes + a->size, param, n);
    else
        memset(a->bytes + a->size, 0, n);
    a->param_off[a->nparams] = a->size;
    a->param_size[a->nparams] = n;
    a->is_placeholder[a->nparams] = placeholder;
    a->size += n;
    *out = (aclrtParamHandle)(uintptr_t)(a->nparams + 1);
    a->nparams++;
    return ACL_SUCCESS;
}

/* Once finalized, or once a placeholder buffer was handed out, a handle
 * takes no more parameters (207000), in the order the call checks them. */
static aclError args_open(const char *fn, const struct args_obj *a, bool buffer_first)
{
    bool first = buffer_first ? a->got_buffer : a->finalized;
    bool second = buffer_first ? a->finalized : a->got_buffer;
    if (first || second) {
        bool buffer = buffer_first ? first : !first;
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the argument handle takes no more parameters %s", fn,
                        buffer ? "once a placeholder buffer was handed out" : "once it is finalized");
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle)
{
    const char *fn = "aclrtKernelArgsAppend";
    struct args_obj *a;
    aclError err;
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (param == NULL)
        return null_arg(fn, "param");
    if (paramSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'paramSize' is 0; it must be above 0", fn);
    if (paramHandle == NULL)
        return null_arg(fn, "paramHandle");
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((err = args_open(fn, a, false)) != ACL_SUCCESS)
        return err;
    return args_add(fn, a, param, paramSize, false, paramHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
    const char *fn = "aclrtKernelArgsAppendPlaceHolder";
    struct args_obj *a;
    aclError err;
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (paramHandle == NULL)
        return null_arg(fn, "paramHandle");
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((err = args_open(fn, a, true)) != ACL_SUCCESS)
        return err;
    return args_add(fn, a, NULL, sizeof(void *), true, paramHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr)
{
    const char *fn = "aclrtKernelArgsGetPlaceHolderBuffer";
    struct args_obj *a;
    aclError err;
    int i;
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (paramHandle == NULL)
        return null_arg(fn, "paramHandle");
    if (dataSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dataSize' is 0; it must be above 0", fn);
    if (bufferAddr == NULL)
        return null_arg(fn, "bufferAddr");
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((i = param_index(fn, a, paramHandle, &err)) < 0)
        return err;
    if (!a->is_placeholder[i])
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'paramHandle' names a value parameter; only a placeholder has a buffer", fn);
    if (a->finalized)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the argument handle is finalized; get placeholder "
                        "buffers before aclrtKernelArgsFinalize", fn);
    acl_free(a->ph_data[i]);
    a->ph_size[i] = 0; /* a failed allocation leaves no data, not the old size */
    a->ph_data[i] = acl_calloc(1, dataSize);
    if (a->ph_data[i] == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    a->ph_size[i] = dataSize;
    a->got_buffer = true;
    *bufferAddr = a->ph_data[i];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize)
{
    const char *fn = "aclrtKernelArgsParaUpdate";
    struct args_obj *a;
    aclError err;
    int i;
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (paramHandle == NULL)
        return null_arg(fn, "paramHandle");
    if (param == NULL)
        return null_arg(fn, "param");
    if (paramSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'paramSize' is 0; it must be above 0", fn);
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((i = param_index(fn, a, paramHandle, &err)) < 0)
        return err;
    if (a->is_placeholder[i])
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'paramHandle' names a placeholder; write its data through its buffer", fn);
    if (paramSize != a->param_size[i])
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'paramSize' is %zu; the parameter has %zu bytes", fn,
                        paramSize, a->param_size[i]);
    memcpy(a->bytes + a->param_off[i], param, paramSize);
    a->updating = true; /* a launch needs aclrtKernelArgsFinalize again */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    const char *fn = "aclrtKernelArgsFinalize";
    struct context *ctx;
    struct args_obj *a;
    aclError err;
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    a->finalized = true;
    a->updating = false;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve)
{
    CHECK_SITE();
    const char *fn = "aclrtLaunchKernelWithConfig";
    aclrtPlaceHolderInfo ph[MAX_ARG_PARAMS];
    unsigned char *blob;
    size_t nph = 0, size;
    aclError err;
    struct args_obj *a;

    /* The acl layer's checks, then the handles as the runtime's entry
     * validates them, then the argument handle's state. */
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (numBlocks == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'numBlocks' is 0; it must be above 0", fn);
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (reserve != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'reserve' must be NULL", fn);
    if ((err = func_live(fn, "funcHandle", funcHandle)) != ACL_SUCCESS)
        return err;
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS)
        return err;
    if (!a->finalized || a->updating)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'argsHandle' is %s; call aclrtKernelArgsFinalize "
                        "before launching", fn, a->finalized ? "being updated (aclrtKernelArgsParaUpdate)" :
                        "not finalized");
    /* Lay out parameters, then each placeholder's data, and let the
     * placeholder pointers point at their data inside the copy. */
    size = a->size;
    for (unsigned i = 0; i < a->nparams; i++)
        size += a->is_placeholder[i] ? a->ph_size[i] : 0;
    blob = acl_malloc(size > 0 ? size : 1);
    if (blob == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    if (a->size > 0) /* a handle with no parameters has no bytes (NULL) */
        memcpy(blob, a->bytes, a->size);
    for (unsigned i = 0, at = (unsigned)a->size; i < a->nparams; i++) {
        if (!a->is_placeholder[i])
            continue;
        if (a->ph_size[i] > 0)
            memcpy(blob + at, a->ph_data[i], a->ph_size[i]);
        /* A placeholder without data points at the end of the bytes. */
        ph[nph].addrOffset = (uint32_t)a->param_off[i];
        ph[nph].dataOffset = at;
        nph++;
        at += (unsigned)a->ph_size[i];
    }
    struct launch_desc d = {fn, funcHandle, numBlocks, stream, cfg, blob, size, ph, nph, FORM_HANDLE};
    err = launch(&d);
    acl_free(blob);
    return err;
}

static aclError not_on_cpu(const char *fn, const char *why)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s", fn, why);
}

/* The kernel a `void *func` names, as the runtime reads it: a kernel's
 * symbol first (on aclcpu the function given to aclcpuRegisterKernel),
 * which needs a current context (107002), else a live kernel handle
 * (107017). */
static aclError func_by_symbol_or_handle(const char *fn, void *func, aclrtFuncHandle *out)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (kfunc_by_symbol(func, out))
        return ACL_SUCCESS;
    *out = func;
    return func_live(fn, "func", func);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg *cfg, void **args)
{
    CHECK_SITE();
    const char *fn = "aclrtLaunchKernelWithArgsArray";
    aclrtFuncHandle h;
    aclError err;
    (void)cfg, (void)args;
    if (func == NULL)
        return null_arg(fn, "func");
    if (numBlocks == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'numBlocks' is 0; it must be above 0", fn);
    err = stream_handle_live(fn, stream);
    if (err == ACL_SUCCESS)
        err = func_by_symbol_or_handle(fn, func, &h);
    if (err != ACL_SUCCESS)
        return err;
    /* The runtime refuses an argument array for a CPU (AI CPU) kernel. */
    return not_on_cpu(fn, "a CPU kernel has no parameter list to size the array by; pack the arguments and use "
                      "aclrtLaunchKernel or aclrtLaunchKernelWithHostArgs");
}

/* The user-memory argument handles: the acl layer's checks and the
 * kernel handle, then 207000 (not supported on aclcpu). */
static aclError user_mem_handles(const char *fn, aclrtFuncHandle funcHandle)
{
    aclError err = func_live(fn, "funcHandle", funcHandle);
    if (err != ACL_SUCCESS)
        return err;
    return not_on_cpu(fn, "user-memory argument handles are not supported; use aclrtKernelArgsInit");
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize)
{
    const char *fn = "aclrtKernelArgsGetHandleMemSize";
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (memSize == NULL)
        return null_arg(fn, "memSize");
    return user_mem_handles(fn, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t *actualArgsSize)
{
    const char *fn = "aclrtKernelArgsGetMemSize";
    (void)userArgsSize;
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (actualArgsSize == NULL)
        return null_arg(fn, "actualArgsSize");
    return user_mem_handles(fn, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void *userHostMem, size_t actualArgsSize)
{
    const char *fn = "aclrtKernelArgsInitByUserMem";
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if (argsHandle == NULL)
        return null_arg(fn, "argsHandle");
    if (userHostMem == NULL)
        return null_arg(fn, "userHostMem");
    if (actualArgsSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'actualArgsSize' is 0; it must be above 0", fn);
    return user_mem_handles(fn, funcHandle);
}

/* ---- SIMT launches ------------------------------------------------------------
 * A grid of gridDim.x * y * z blocks runs as that many blocks of the launch
 * path above, numbered x fastest (aclcpuGetBlockIdx() is x + gx * (y + gy * z)).
 * A CPU kernel runs once per block and covers the block's blockDim threads
 * itself, so blockDim is checked but not otherwise used, nor is
 * dynUbufSize (no Unified Buffer on a CPU). `func` is a kernel's symbol or
 * its handle. Checks in the runtime's order (which differs between the two
 * calls): the acl layer's, the stream handle and the kernel, then the SIMT
 * arguments; launch() then checks the context and the stream's context. */

/* The grid's block count, or 0 after recording why the dimensions fail. */
static uint32_t simt_blocks(const char *fn, dim3 grid, dim3 block)
{
    uint64_t n = (uint64_t)grid.x * grid.y * grid.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) {
        acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: gridDim (%u, %u, %u): x, y and z must all be above 0", fn, grid.x,
                 grid.y, grid.z);
        return 0;
    }
    if (block.x == 0 || block.y == 0 || block.z == 0) {
        acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: blockDim (%u, %u, %u): x, y and z must all be above 0", fn,
                 block.x, block.y, block.z);
        return 0;
    }
    if (n > UINT32_MAX) {
        acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: gridDim (%u, %u, %u) makes %llu blocks; at most %u fit a launch",
                 fn, grid.x, grid.y, grid.z, (unsigned long long)n, UINT32_MAX);
        return 0;
    }
    return (uint32_t)n;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim,
                                                               size_t dynUbufSize, aclrtStream stream,
                                                               aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                               size_t argsSize,
                                                               aclrtPlaceHolderInfo *placeHolderArray,
                                                               size_t placeHolderNum)
{
    CHECK_SITE();
    const char *fn = "aclrtLaunchSIMTKernelWithHostArgs";
    struct launch_desc d = {fn, func, 0, stream, cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum,
                            FORM_GRID};
    aclError err;

    (void)dynUbufSize;
    if (func == NULL || hostArgs == NULL)
        return null_arg(fn, func == NULL ? "func" : "hostArgs");
    if (argsSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'argsSize' is 0; it must be above 0", fn);
    err = stream_handle_live(fn, stream);
    if (err == ACL_SUCCESS)
        err = func_by_symbol_or_handle(fn, func, &d.func);
    if (err != ACL_SUCCESS)
        return err;
    d.blocks = simt_blocks(fn, gridDim, blockDim);
    if (d.blocks == 0)
        return ACL_ERROR_RT_PARAM_INVALID;
    return launch(&d); /* the placeholders, then cfg */
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg *cfg, void **args)
{
    CHECK_SITE();
    const char *fn = "aclrtLaunchSIMTKernelWithArgsArray";
    aclrtFuncHandle h;
    aclError err;

    (void)gridDim, (void)blockDim, (void)dynUbufSize, (void)cfg, (void)args;
    if (func == NULL)
        return null_arg(fn, "func");
    err = func_by_symbol_or_handle(fn, func, &h);
    if (err == ACL_SUCCESS)
        err = stream_handle_live(fn, stream);
    if (err != ACL_SUCCESS)
        return err;
    /* The runtime refuses a kernel without parameter information here,
     * before it looks at the grid; a CPU kernel (void kernel(void *args))
     * never has any, so the sizes of the parameters args points at are
     * unknown. */
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument 'func' has no parameter information (a CPU kernel takes one packed argument "
                    "block), so 'args' cannot be laid out; pack the arguments and use "
                    "aclrtLaunchSIMTKernelWithHostArgs",
                    fn);
}
