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
    const void *extra;                 /* bytes appended after args (argument handles) */
    size_t extra_size;
    bool grid;                         /* a SIMT launch: blocks is gridDim's product (simt_blocks) */
};

/* The most blocks a kernel launch takes: the runtime keeps a task's block
 * count in 16 bits and refuses more when it checks the launch (the
 * "[0, 0xffff]" rule of its kernel launch configuration). */
#define MAX_LAUNCH_BLOCKS 0xFFFFu

/* A switch attribute (prefetch, data dump, profiling) is 0 or 1. */
static aclError check_switch(const struct launch_desc *d, size_t i, const char *name, uint8_t v)
{
    if (v <= 1)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu].value.%s is %u; it must be 0 or 1", d->fn, i,
                    name, v);
}

/* One attribute into the kernel record. The device-side tuning attributes
 * (unified-buffer size, block offset, block prefetch, data dump,
 * profiling) are checked and accepted: they change nothing on a CPU. */
static aclError read_attr(const struct launch_desc *d, size_t i, struct task_kernel *k)
{
    const aclrtLaunchKernelAttr *a = &d->cfg->attrs[i];
    switch (a->id) {
    case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
        if (a->value.schemMode > 1)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: schemMode %u is neither 0 (normal) nor 1 (batch)", d->fn,
                            a->value.schemMode);
        k->schedule_mode = a->value.schemMode;
        return ACL_SUCCESS;
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE:
        if ((unsigned)a->value.engineType > ACL_RT_ENGINE_TYPE_AIV)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: engineType %d is neither AIC (0) nor AIV (1)", d->fn,
                            (int)a->value.engineType);
        k->engine = (uint8_t)a->value.engineType;
        return ACL_SUCCESS;
    case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        return ACL_SUCCESS; /* any value */
    case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
        return check_switch(d, i, "isBlockTaskPrefetch", a->value.isBlockTaskPrefetch);
    case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
        return check_switch(d, i, "isDataDump", a->value.isDataDump);
    case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        return check_switch(d, i, "enableProfiling", a->value.enableProfiling);
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT: /* seconds */
        k->timeout_us = (uint64_t)a->value.timeout * 1000000u;
        return ACL_SUCCESS;
    case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        k->timeout_us = ((uint64_t)a->value.timeoutUs.timeoutHigh << 32) | a->value.timeoutUs.timeoutLow;
        return ACL_SUCCESS;
    }
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu].id %d is not a launch attribute", d->fn, i,
                    (int)a->id);
}

static aclError read_cfg(const struct launch_desc *d, struct task_kernel *k)
{
    const aclrtLaunchKernelCfg *cfg = d->cfg;
    bool seconds = false, micros = false;
    if (cfg == NULL)
        return ACL_SUCCESS;
    if (cfg->numAttrs > 0 && cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: cfg->attrs is NULL but cfg->numAttrs is %zu", d->fn,
                        cfg->numAttrs);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        aclError err = read_attr(d, i, k);
        if (err != ACL_SUCCESS)
            return err;
        seconds |= cfg->attrs[i].id == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
        micros |= cfg->attrs[i].id == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
    }
    if (seconds && micros)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs has both TIMEOUT (7) and TIMEOUT_US (8); give "
                        "one of them", d->fn);
    return ACL_SUCCESS;
}

static aclError check_placeholders(const struct launch_desc *d)
{
    for (size_t i = 0; i < d->nph; i++) {
        const aclrtPlaceHolderInfo *p = &d->ph[i];
        if ((size_t)p->addrOffset + sizeof(void *) > d->args_size || p->dataOffset > d->args_size)
            return acl_fail(ACL_ERROR_INVALID_PARAM,
                            "%s: placeHolderArray[%zu] (addrOffset %u, dataOffset %u) lies outside the %zu argument "
                            "bytes",
                            d->fn, i, p->addrOffset, p->dataOffset, d->args_size);
    }
    return ACL_SUCCESS;
}

/* Copies the arguments into t and points each placeholder into the copy. */
static aclError fill_args(const struct launch_desc *d, struct task *t)
{
    size_t total = d->args_size + d->extra_size;
    unsigned char *buf = task_args_reserve(t, total);
    if (buf == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for %zu argument bytes", d->fn, total);
    if (d->args_size > 0)
        memcpy(buf, d->args, d->args_size);
    if (d->extra_size > 0)
        memcpy(buf + d->args_size, d->extra, d->extra_size);
    for (size_t i = 0; i < d->nph; i++) {
        void *target = buf + d->ph[i].dataOffset;
        memcpy(buf + d->ph[i].addrOffset, &target, sizeof(target));
    }
    return ACL_SUCCESS; /* task_args_reserve noted where the bytes are */
}

/* Makes the kernel task without locks: the record, the launch attributes
 * and the argument copy. On failure it holds nothing. */
static aclError make_kernel_task(const struct launch_desc *d, aclcpuKernelFn kfn, const struct kfunc *kf,
                                 const uint32_t limits[2], struct task **out)
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
        .engine = ACL_RT_ENGINE_TYPE_AIV, /* vector unless told otherwise */
    };
    err = read_cfg(d, &t->u.kernel);
    if (err == ACL_SUCCESS)
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
    uint32_t limits[2];
    aclcpuKernelFn kfn;
    const struct kfunc *kf = NULL;
    struct binary *bin;
    struct stream *s;
    struct task *t;
    aclError err;

    if (d->blocks == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'numBlocks' is 0; a kernel needs at least one block",
                        d->fn);
    if (!d->grid && d->blocks > MAX_LAUNCH_BLOCKS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numBlocks' is %u; it must be in [1, %u]", d->fn,
                        d->blocks, MAX_LAUNCH_BLOCKS);
    if (d->args == NULL && d->args_size > 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: the argument pointer is NULL but its size is %zu", d->fn,
                        d->args_size);
    err = check_placeholders(d);
    if (err == ACL_SUCCESS)
        err = stream_resolve(d->fn, d->stream, &s);
    if (err == ACL_SUCCESS)
        err = kfunc_resolve_for_launch(d->fn, d->func, &kfn, &bin, &kf);
    if (err != ACL_SUCCESS)
        return err;
    /* The core limits in force for this thread, recorded with the kernel
     * (cooperative: the block count is not clamped). */
    reslimits_in_force(load_relaxed(&s->dev), limits);
    err = make_kernel_task(d, kfn, kf, limits, &t);
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

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream)
{
    struct launch_desc d = {"aclrtLaunchKernel", funcHandle, numBlocks, stream, NULL, argsData, argsSize,
                            NULL, 0, NULL, 0, false};
    return launch(&d);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                                 size_t argsSize, aclrtLaunchKernelCfg *cfg, aclrtStream stream)
{
    struct launch_desc d = {"aclrtLaunchKernelV2", funcHandle, numBlocks, stream, cfg, argsData, argsSize,
                            NULL, 0, NULL, 0, false};
    return launch(&d);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum)
{
    struct launch_desc d = {"aclrtLaunchKernelWithHostArgs", funcHandle, numBlocks, stream, cfg, hostArgs, argsSize,
                            placeHolderArray, placeHolderNum, NULL, 0, false};
    if (placeHolderNum > 0 && placeHolderArray == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "aclrtLaunchKernelWithHostArgs: 'placeHolderArray' is NULL but 'placeHolderNum' is %zu",
                        placeHolderNum);
    return launch(&d);
}

/* ---- argument handles ------------------------------------------------------ */

#define MAX_ARG_PARAMS 64

struct args_obj {
    struct obj_header hdr;
    aclrtFuncHandle func;
    unsigned char *bytes;            /* parameters, then placeholder data */
    size_t size, cap;
    size_t param_off[MAX_ARG_PARAMS], param_size[MAX_ARG_PARAMS];
    bool is_placeholder[MAX_ARG_PARAMS];
    unsigned char *ph_data[MAX_ARG_PARAMS];
    size_t ph_size[MAX_ARG_PARAMS];
    unsigned nparams;
    bool finalized;
};

static struct args_obj *resolve_args(const char *fn, aclrtArgsHandle h, aclError *err)
{
    struct args_obj *a = (struct args_obj *)obj_resolve(h, OBJ_ARGS);
    *err = ACL_SUCCESS;
    if (h == NULL)
        *err = acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'argsHandle' is NULL", fn);
    else if (a == NULL)
        *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'argsHandle' (%p) is not a live argument handle",
                        fn, h);
    return a;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
    struct args_obj *a;
    bool fresh;
    if (funcHandle == NULL || argsHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsInit: argument '%s' is NULL",
                        funcHandle == NULL ? "funcHandle" : "argsHandle");
    if (obj_resolve(funcHandle, OBJ_FUNC) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsInit: 'funcHandle' is not a live kernel");
    a = obj_create(OBJ_ARGS, sizeof(*a), OBJ_CLEAR_ALL, &fresh);
    if (a == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtKernelArgsInit: out of memory");
    a->func = funcHandle;
    obj_publish(&a->hdr);
    *argsHandle = obj_handle(&a->hdr);
    return ACL_SUCCESS;
}

static aclError args_add(const char *fn, struct args_obj *a, const void *param, size_t n, bool placeholder,
                         aclrtParamHandle *out)
{
    if (a->finalized)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the argument handle is already finalized", fn);
    if (a->nparams == MAX_ARG_PARAMS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: at most %d parameters per kernel", fn, MAX_ARG_PARAMS);
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

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle)
{
    const char *fn = "aclrtKernelArgsAppend";
    aclError err;
    struct args_obj *a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if (param == NULL || paramHandle == NULL || paramSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'param' and 'paramHandle' must be non-NULL, 'paramSize' > 0", fn);
    return args_add(fn, a, param, paramSize, false, paramHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle)
{
    const char *fn = "aclrtKernelArgsAppendPlaceHolder";
    aclError err;
    struct args_obj *a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if (paramHandle == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'paramHandle' is NULL", fn);
    return args_add(fn, a, NULL, sizeof(void *), true, paramHandle);
}

static int param_index(struct args_obj *a, aclrtParamHandle p)
{
    uintptr_t i = (uintptr_t)p;
    return i >= 1 && i <= a->nparams ? (int)(i - 1) : -1;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr)
{
    const char *fn = "aclrtKernelArgsGetPlaceHolderBuffer";
    aclError err;
    struct args_obj *a = resolve_args(fn, argsHandle, &err);
    int i;
    if (a == NULL)
        return err;
    i = param_index(a, paramHandle);
    if (i < 0 || !a->is_placeholder[i] || bufferAddr == NULL || dataSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'paramHandle' must name a placeholder of this handle, "
                        "'bufferAddr' be non-NULL and 'dataSize' > 0", fn);
    acl_free(a->ph_data[i]);
    a->ph_size[i] = 0; /* a failed allocation leaves no data, not the old size */
    a->ph_data[i] = acl_calloc(1, dataSize);
    if (a->ph_data[i] == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    a->ph_size[i] = dataSize;
    *bufferAddr = a->ph_data[i];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize)
{
    const char *fn = "aclrtKernelArgsParaUpdate";
    aclError err;
    struct args_obj *a = resolve_args(fn, argsHandle, &err);
    int i;
    if (a == NULL)
        return err;
    i = param_index(a, paramHandle);
    if (i < 0 || param == NULL || a->is_placeholder[i] || paramSize != a->param_size[i])
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'paramHandle' must name a parameter of this handle and "
                        "'paramSize' equal its size", fn);
    memcpy(a->bytes + a->param_off[i], param, paramSize);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
    aclError err;
    struct args_obj *a = resolve_args("aclrtKernelArgsFinalize", argsHandle, &err);
    if (a != NULL)
        a->finalized = true;
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve)
{
    const char *fn = "aclrtLaunchKernelWithConfig";
    aclrtPlaceHolderInfo ph[MAX_ARG_PARAMS];
    unsigned char *blob;
    size_t nph = 0, size;
    aclError err;
    struct args_obj *a;

    if (reserve != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'reserve' must be NULL", fn);
    a = resolve_args(fn, argsHandle, &err);
    if (a == NULL)
        return err;
    if (!a->finalized)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: call aclrtKernelArgsFinalize before launching", fn);
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
        ph[nph].addrOffset = (uint32_t)a->param_off[i];
        ph[nph].dataOffset = at;
        nph++;
        at += (unsigned)a->ph_size[i];
    }
    struct launch_desc d = {fn, funcHandle, numBlocks, stream, cfg, blob, size, ph, nph, NULL, 0, false};
    err = launch(&d);
    acl_free(blob);
    return err;
}

static aclError not_on_cpu(const char *fn, const char *why)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s", fn, why);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg *cfg, void **args)
{
    (void)func, (void)numBlocks, (void)stream, (void)cfg, (void)args;
    return not_on_cpu("aclrtLaunchKernelWithArgsArray",
                      "a CPU kernel has no parameter list to size the array by; pack the arguments and use "
                      "aclrtLaunchKernel or aclrtLaunchKernelWithHostArgs");
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize)
{
    (void)funcHandle, (void)memSize;
    return not_on_cpu("aclrtKernelArgsGetHandleMemSize", "user-memory argument handles are not supported; use "
                      "aclrtKernelArgsInit");
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t *actualArgsSize)
{
    (void)funcHandle, (void)userArgsSize, (void)actualArgsSize;
    return not_on_cpu("aclrtKernelArgsGetMemSize", "user-memory argument handles are not supported; use "
                      "aclrtKernelArgsInit");
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void *userHostMem, size_t actualArgsSize)
{
    (void)funcHandle, (void)argsHandle, (void)userHostMem, (void)actualArgsSize;
    return not_on_cpu("aclrtKernelArgsInitByUserMem", "user-memory argument handles are not supported; use "
                      "aclrtKernelArgsInit");
}

/* ---- SIMT launches ------------------------------------------------------------
 * A grid of gridDim.x * y * z blocks runs as that many blocks of the launch
 * path above, numbered x fastest (aclcpuGetBlockIdx() is x + gx * (y + gy * z)).
 * A CPU kernel runs once per block and covers the block's blockDim threads
 * itself, so blockDim is checked but not otherwise used, nor is
 * dynUbufSize (no Unified Buffer on a CPU). Checks in CANN's order: the
 * acl layer's, the stream and kernel, then the SIMT arguments. */

/* The stream and the kernel are resolved here only to be checked in
 * CANN's order (which differs between the two calls); launch() resolves
 * them again for the launch itself. */
static aclError simt_check_stream(const char *fn, aclrtStream stream)
{
    struct stream *s;
    return stream_resolve(fn, stream, &s);
}

static aclError simt_check_func(const char *fn, void *func)
{
    if (obj_resolve(func, OBJ_FUNC) != NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                    "%s: argument 'func' (%p) is not a live kernel (its binary was unloaded, or it never came from "
                    "aclrtBinaryGetFunction/aclcpuRegisterKernel)",
                    fn, func);
}

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
    const char *fn = "aclrtLaunchSIMTKernelWithHostArgs";
    struct launch_desc d = {fn, func, 0, stream, cfg, hostArgs, argsSize, placeHolderArray, placeHolderNum, NULL, 0,
                            true};
    aclError err;

    (void)dynUbufSize;
    if (func == NULL || hostArgs == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn, func == NULL ? "func" : "hostArgs");
    if (argsSize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'argsSize' is 0; it must be above 0", fn);
    err = simt_check_stream(fn, stream);
    if (err == ACL_SUCCESS)
        err = simt_check_func(fn, func);
    if (err != ACL_SUCCESS)
        return err;
    d.blocks = simt_blocks(fn, gridDim, blockDim);
    if (d.blocks == 0)
        return ACL_ERROR_RT_PARAM_INVALID;
    if (placeHolderNum > 0 && placeHolderArray == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'placeHolderArray' is NULL but 'placeHolderNum' is %zu", fn,
                        placeHolderNum);
    for (size_t i = 0; i < placeHolderNum; i++)
        if (placeHolderArray[i].addrOffset >= argsSize || placeHolderArray[i].dataOffset >= argsSize)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: placeHolderArray[%zu] (addrOffset %u, dataOffset %u): both must be below 'argsSize' "
                            "(%zu)",
                            fn, i, placeHolderArray[i].addrOffset, placeHolderArray[i].dataOffset, argsSize);
    return launch(&d);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg *cfg, void **args)
{
    const char *fn = "aclrtLaunchSIMTKernelWithArgsArray";
    aclError err;

    (void)gridDim, (void)blockDim, (void)dynUbufSize, (void)cfg, (void)args;
    if (func == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'func' is NULL", fn);
    err = simt_check_func(fn, func);
    if (err == ACL_SUCCESS)
        err = simt_check_stream(fn, stream);
    if (err != ACL_SUCCESS)
        return err;
    /* CANN refuses a kernel without parameter information here, before it
     * looks at the grid; a CPU kernel (void kernel(void *args)) never has
     * any, so the sizes of the parameters args points at are unknown. */
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                    "%s: argument 'func' has no parameter information (a CPU kernel takes one packed argument "
                    "block), so 'args' cannot be laid out; pack the arguments and use "
                    "aclrtLaunchSIMTKernelWithHostArgs",
                    fn);
}
