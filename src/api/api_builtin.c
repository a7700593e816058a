/*
 * api_builtin.c - the built-in tasks: aclrtReduceAsync and
 * aclrtRandomNumAsync (queued as TASK_REDUCE / TASK_RANDOM and run by
 * engine/builtin.c), and aclrtTaskUpdateAsync (checked, then refused).
 *
 * Each checks in the reference's order: the ACL layer (memory.cpp
 * aclrtReduceAsyncImpl, kernel.cpp aclrtRandomNumAsyncImpl and
 * aclrtTaskUpdateAsyncImpl), the C entry (api_c_standard_soc.cc
 * rtsLaunchReduceAsyncTask and rtsLaunchUpdateTask, api_c_kernel.cc
 * rtsLaunchRandomNumTask), api_error.cc, api_impl.cc and the core
 * (memory_stars.cc CheckReduceCapability, random_num_task.cc
 * CheckRandomNumTaskInfo). Which products have which is the SoC
 * profile's family (docs/conformance.md cites each).
 *
 * Threads: any host thread. Locks: none of its own (stream_submit takes
 * the stream's).
 */
#include <string.h>

#include "../services/devmem.h"
#include "api_int.h"

/* 4 GiB: the largest reduction the reference takes in one task (base_info.hpp MAX_MEMCPY_SIZE_OF_D2D). */
#define REDUCE_MAX_BYTES (4ull * 1024ull * 1024ull * 1024ull)

static const struct soc_profile *soc_here(void)
{
    struct context *ctx = ctx_current();
    return ctx != NULL ? ctx->dev->soc : soc_configured();
}

/* ---- reductions ----------------------------------------------------------------- */

/* The element size of a type the ACL layer maps to a runtime data type
 * (memory.cpp kMapDataType); 0 for the others. INT4 maps but no product
 * reduces it (its size, half a byte, is given as 1). */
static size_t reduce_type_size(aclDataType type)
{
    switch (type) {
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_INT8: case ACL_UINT8: case ACL_INT4: return 1;
    default: return 0;
    }
}

/* The data types each product's reduce engine takes (docs/zh/api_ref/
 * 12_execution_control.md aclrtReduceAsync, constraints). */
static bool reduce_type_supported(enum soc_family fam, aclDataType type)
{
    bool base = type == ACL_INT8 || type == ACL_INT16 || type == ACL_INT32 || type == ACL_FLOAT16 ||
                type == ACL_FLOAT; /* the Atlas 200I/500 A2's, which the A2, A3 and 950 add to */
    switch (fam) {
    case SOC_950: return base || type == ACL_BF16 || type == ACL_UINT32;
    case SOC_A2: case SOC_A3: return base || type == ACL_BF16;
    case SOC_200I500A2: return base;
    case SOC_310P: return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_INT16;
    default: return type == ACL_FLOAT; /* SOC_910 */
    }
}

/* Atlas training (910) and inference (310P) products take the runtime's
 * second reduce path (their reduceOverflow property, dev_info_reg.cc):
 * SUM only. */
static bool reduce_v2(enum soc_family fam) { return fam == SOC_910 || fam == SOC_310P; }

ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve)
{
    CHECK_SITE();
    const char *fn = "aclrtReduceAsync";
    size_t esize = reduce_type_size(type);
    enum soc_family fam;
    struct mem_range r;
    struct context *ctx;
    struct stream *s;
    struct task *t;
    aclError err;

    /* The ACL layer. */
    if (dst == NULL)
        return null_arg(fn, "dst");
    if (src == NULL)
        return null_arg(fn, "src");
    if (reserve != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'reserve' is reserved and must be NULL", fn);
    if (esize == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: argument 'type' (%d) is not a data type the reduce engine knows (float, float16, "
                        "bfloat16, int4, int8, int16, int32, uint8, uint16, uint32)", fn, (int)type);
    /* The runtime: the V2 path asks for the context's overflow address
     * first, then resolves the stream; the other the stream only. */
    fam = soc_here()->family;
    if (reduce_v2(fam) && (err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    err = stream_handle_get(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (count == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' is 0", fn);
    if (reduce_v2(fam)) {
        if (kind != ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: argument 'kind' (%d) must be ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM (10) on %s", fn,
                            (int)kind, soc_here()->name);
        if (count > REDUCE_MAX_BYTES)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%llu) must be in (0, 4 GiB]", fn,
                            (unsigned long long)count);
    } else {
        if (kind < ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM || kind > ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'kind' (%d) must be in [10, 14) (SUM, MAX, "
                            "MIN, EQUAL)", fn, (int)kind);
        if (kind == ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM && count > REDUCE_MAX_BYTES)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: argument 'count' (%llu) must be in (0, 4 GiB] when 'kind' is SUM", fn,
                            (unsigned long long)count);
    }
    err = task_stream_of(fn, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (!reduce_type_supported(fam, type))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s's reduce engine does not take data type %d", fn,
                        load_relaxed(&s->dev)->soc->name, (int)type);
    if (esize > 1 && (((uintptr_t)src % esize) != 0 || ((uintptr_t)dst % esize) != 0))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%p) is not aligned to its %zu-byte elements",
                        fn, ((uintptr_t)src % esize) != 0 ? "src" : "dst",
                        ((uintptr_t)src % esize) != 0 ? src : (const void *)dst, esize);
    /* The reduce engine works on device memory (docs: dst and src on the
     * stream's device); other memory would be the runtime's DMA address
     * translation failing. */
    for (int side = 0; side < 2; side++) {
        const void *p = side == 0 ? (const void *)dst : src;
        size_t n = (size_t)(count / esize) * esize;
        enum mem_kind k = devmem_classify(p, n != 0 ? n : 1);
        if (k != MEM_DEVICE)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%p) %s", fn, side == 0 ? "dst" : "src", p,
                            k == MEM_OVERRUN ? "+ 'count' runs past the end of its block"
                                             : "is not device memory from aclrtMalloc");
        if (devmem_lookup(p, &r) && r.device != load_relaxed(&s->dev)->id)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%p) is memory of device %d, not of the "
                            "stream's device %d", fn, side == 0 ? "dst" : "src", p, r.device,
                            load_relaxed(&s->dev)->id);
    }
    err = stream_task_new(fn, TASK_REDUCE, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.reduce.dst = dst;
    t->u.reduce.src = src;
    t->u.reduce.n = (size_t)(count / esize);
    t->u.reduce.kind = (uint8_t)kind;
    t->u.reduce.type = (uint8_t)type;
    t->u.reduce.esize = (uint8_t)esize;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

/* ---- random numbers ----------------------------------------------------------- */

_Static_assert(sizeof(aclrtRandomNumTaskInfo) <= TASK_INLINE_ARGS, "a random task's info fits its inline_args");

static size_t random_type_size(aclDataType type)
{
    switch (type) {
    case ACL_INT64: case ACL_UINT64: return 8;
    case ACL_INT32: case ACL_UINT32: case ACL_FLOAT: return 4;
    case ACL_FLOAT16: case ACL_BF16: return 2;
    default: return 0;
    }
}

/* random_num_task.cc CheckRandomParam: isAddr 0 or 1, then a size in
 * [1, max] (max: the data type's size for a value, 8 for an address). */
static aclError check_param(const char *fn, const char *name, const aclrtRandomParaInfo *p, size_t data_size)
{
    size_t max = p->isAddr == 1 ? sizeof(uint64_t) : data_size;
    if (p->isAddr != 0 && p->isAddr != 1)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->%s.isAddr' (%u) must be 0 or 1", fn,
                        name, p->isAddr);
    if (p->size == 0 || p->size > max)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->%s.size' (%u) must be in [1, %zu]", fn,
                        name, p->size, max);
    return ACL_SUCCESS;
}

/* random_num_task.cc CheckRandomNumTaskInfo, in its order. */
static aclError check_task_info(const char *fn, const aclrtRandomNumTaskInfo *ti)
{
    aclrtRandomNumFuncType ft = ti->randomNumFuncParaInfo.funcType;
    const aclrtRandomNumFuncParaInfo *fp = &ti->randomNumFuncParaInfo;
    bool floating = ti->dataType == ACL_FLOAT || ti->dataType == ACL_FLOAT16 || ti->dataType == ACL_BF16;
    size_t size = random_type_size(ti->dataType);
    aclError err;
    if ((unsigned)ft > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->randomNumFuncParaInfo.funcType' (%d) "
                        "must be in [0, 4)", fn, (int)ft);
    if (ft != ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS && !floating)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->dataType' (%d) must be bf16, fp16 or "
                        "fp32 for function type %d (uniform numbers also take int32, int64, uint32, uint64)", fn,
                        (int)ti->dataType, (int)ft);
    if (ti->randomCounterAddr == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->randomCounterAddr' is NULL", fn);
    if (ti->randomResultAddr == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->randomResultAddr' is NULL", fn);
    if ((err = check_param(fn, "randomSeed", &ti->randomSeed, sizeof(uint64_t))) != ACL_SUCCESS ||
        (err = check_param(fn, "randomNum", &ti->randomNum, sizeof(uint64_t))) != ACL_SUCCESS)
        return err;
    switch (ft) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK:
        return check_param(fn, "dropoutBitmaskInfo.dropoutRation", &fp->paramInfo.dropoutBitmaskInfo.dropoutRation,
                           size);
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
        if ((err = check_param(fn, "uniformDisInfo.min", &fp->paramInfo.uniformDisInfo.min, size)) != ACL_SUCCESS)
            return err;
        return check_param(fn, "uniformDisInfo.max", &fp->paramInfo.uniformDisInfo.max, size);
    default:
        if ((err = check_param(fn, "normalDisInfo.mean", &fp->paramInfo.normalDisInfo.mean, size)) != ACL_SUCCESS)
            return err;
        return check_param(fn, "normalDisInfo.stddev", &fp->paramInfo.normalDisInfo.stddev, size);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve)
{
    const char *fn = "aclrtRandomNumAsync";
    const struct soc_profile *soc;
    struct stream *s;
    struct task *t;
    aclError err;

    /* The ACL layer. */
    if (taskInfo == NULL)
        return null_arg(fn, "taskInfo");
    if (random_type_size(taskInfo->dataType) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'taskInfo->dataType' (%d) is not supported (int32, "
                        "int64, uint32, uint64, bf16, fp16, fp32)", fn, (int)taskInfo->dataType);
    /* The C entry: the product's random number engine, then the stream. */
    soc = soc_here();
    if (soc->family != SOC_A2 && soc->family != SOC_A3)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: %s has no random number engine (the Atlas A2 and A3 products do)", fn, soc->name);
    err = stream_handle_get(fn, stream, &s);
    if (err != ACL_SUCCESS)
        return err;
    if (reserve != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'reserve' (%p) must be NULL", fn, reserve);
    err = task_stream_of(fn, &s);
    if (err == ACL_SUCCESS)
        err = check_task_info(fn, taskInfo);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_RANDOM, &t);
    if (err != ACL_SUCCESS)
        return err;
    memcpy(t->inline_args, taskInfo, sizeof(*taskInfo));
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

/* ---- task update --------------------------------------------------------------- */

/* rtsLaunchUpdateTask: info (ACL layer, 100000); by its id: a random
 * task's target stream (107000 NULL, 107017 stale), the product (A2/A3),
 * the executing stream, the source (107000 NULL) and its size (that of
 * the task info); an AI Core task's goes to the model task update's
 * checks. Then refused: aclcpu's tasks are not rewritten once queued. */
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                                  aclrtStream execStream)
{
    const char *fn = "aclrtTaskUpdateAsync";
    const struct soc_profile *soc;
    struct stream *s;
    aclError err;
    (void)taskId;
    if (info == NULL)
        return null_arg(fn, "info");
    switch (info->id) {
    case ACL_RT_UPDATE_RANDOM_TASK:
        if (taskStream == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskStream' is NULL", fn);
        if ((err = stream_handle_get(fn, taskStream, &s)) != ACL_SUCCESS)
            return err;
        soc = soc_here();
        if (soc->family != SOC_A2 && soc->family != SOC_A3)
            return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                            "%s: %s cannot update random number tasks (the Atlas A2 and A3 products can)", fn,
                            soc->name);
        if ((err = stream_handle_get(fn, execStream, &s)) != ACL_SUCCESS)
            return err;
        if (info->val.randomTaskAttr.srcAddr == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info->val.randomTaskAttr.srcAddr' is NULL", fn);
        if (info->val.randomTaskAttr.size != sizeof(aclrtRandomNumTaskInfo))
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: argument 'info->val.randomTaskAttr.size' (%zu) must be %zu (an "
                            "aclrtRandomNumTaskInfo)", fn, info->val.randomTaskAttr.size,
                            sizeof(aclrtRandomNumTaskInfo));
        break;
    case ACL_RT_UPDATE_AIC_AIV_TASK: {
        /* rtModelTaskUpdate: both streams' handles, then api_error.cc
         * ModelTaskUpdate: the streams, the tiling key (funcEntryAddr),
         * block dim and program addresses not NULL, then the product
         * (RT_FEATURE_MODEL_UPDATE_SQE_TILING_KEY: A2, A3, 950, 310P). */
        const aclrtAicAivTaskUpdateAttr *a = &info->val.aicAivTaskAttr;
        struct stream *sink;
        if ((err = stream_handle_get(fn, taskStream, &s)) != ACL_SUCCESS ||
            (err = stream_handle_get(fn, execStream, &sink)) != ACL_SUCCESS)
            return err;
        if (taskStream == NULL || execStream == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                            taskStream == NULL ? "taskStream" : "execStream");
        if (a->funcEntryAddr == NULL || a->blockDimAddr == NULL || a->binHandle == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info->val.aicAivTaskAttr.%s' is NULL", fn,
                            a->funcEntryAddr == NULL ? "funcEntryAddr"
                            : a->blockDimAddr == NULL ? "blockDimAddr" : "binHandle");
        soc = load_relaxed(&sink->dev)->soc;
        if (soc->family != SOC_A2 && soc->family != SOC_A3 && soc->family != SOC_950 && soc->family != SOC_310P)
            return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s cannot update AI Core tasks", fn, soc->name);
        break;
    }
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info->id' (%d) must be in [1, 3)", fn,
                        (int)info->id);
    }
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: aclcpu does not rewrite a task once it is queued (the device patches its queue entry); "
                    "queue a new task instead", fn);
}
