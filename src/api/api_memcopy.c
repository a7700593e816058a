/*
 * api_memcopy.c - the rest of acl_rt.h's copies and fills: 2D async
 * copies, batches, descriptor and offset copies, the conditional copy,
 * 32-bit fills, value writes and waits, and aclrtMemP2PMap.
 *
 * DESIGN: each call checks its arguments in the reference's order - the
 * ACL layer's checks first (100000), then the runtime's (107000, 207000
 * for a feature the SoC lacks) - then makes one stream task (their
 * runners are engine/memtask.c) or, for a synchronous call, does the work
 * on the calling thread and tells the engine what it wrote, so that a
 * value wait on those bytes passes at once (engine_value_written). The
 * copy checks of aclrtMemcpy (api_memory.c) are shared through api_int.h.
 *
 * Threads: any host thread. Locks: none here.
 */
#include <string.h>

#include "api_int.h"
#include "../services/devmem.h"

/* The reference's limit on one synchronous batch (DEVMM_MEMCPY_BATCH_MAX_COUNT). */
#define BATCH_MAX 4096u
/* The reference's limit on a descriptor copy (MAX_MEMCPY_SIZE_OF_D2D), and
 * on a WithOffset copy's offsets. */
#define DESC_COPY_MAX (4ull << 30)
#define OFFSET_MAX 0xFFFFFFFFFFFFull
/* The ACL kinds (aclrtMemcpyKind, HOST_TO_HOST .. INTER_DEVICE_TO_DEVICE). */
#define MEMCPY_KINDS 8u

/* Queues task t, made by the caller, on stream (NULL: the default one). */
static aclError submit(const char *fn, aclrtStream stream, struct stream *s, struct task *t)
{
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

/* ---- the conditional copy ----------------------------------------------------- */

/* The conditional copy asks the runtime to check that its host side is
 * page-locked: pinned (aclrtMallocHost) or device memory, never pageable. */
static aclError check_pinned(const char *fn, const char *arg, const void *p, size_t n)
{
    enum mem_kind k = devmem_classify(p, n);
    if (k == MEM_DEVICE || k == MEM_HOST_PINNED)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: '%s' (%p) is pageable host memory; this copy takes only "
                    "page-locked memory (aclrtMallocHost) or device memory", fn, arg, p);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream)
{
    CHECK_SITE();
    const char *fn = "aclrtMemcpyAsyncWithCondition";
    struct stream *s;
    aclError err;

    if (count == 0)
        return ACL_SUCCESS;
    if ((err = check_copy_acl(fn, dst, src, kind)) != ACL_SUCCESS ||
        (err = stream_handle_first(fn, stream)) != ACL_SUCCESS ||
        (err = check_count(fn, count, "destMax", destMax)) != ACL_SUCCESS ||
        (err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS ||
        (err = check_copy_sides(fn, dst, src, count, kind)) != ACL_SUCCESS ||
        (err = check_pinned(fn, "dst", dst, count)) != ACL_SUCCESS ||
        (err = check_pinned(fn, "src", src, count)) != ACL_SUCCESS ||
        (err = check_async_kind(fn, kind)) != ACL_SUCCESS)
        return err;
    if (dst == src) /* nothing to copy: the runtime queues nothing */
        return ACL_SUCCESS;
    return queue_copy(fn, stream, dst, src, count, copy_direction(kind, dst, src, count));
}

/* ---- 2D ------------------------------------------------------------------------ */

/* The direction a 2D copy takes: the kind's, or for DEFAULT what the
 * memory is. Only H2D, D2H and D2D are 2D copies. */
static aclError copy2d_direction(const char *fn, void *dst, const void *src, aclrtMemcpyKind kind, uint8_t *dir)
{
    bool d = devmem_classify(dst, 1) == MEM_DEVICE, s = devmem_classify(src, 1) == MEM_DEVICE;
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE: *dir = CD_H2D; return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_HOST: *dir = CD_D2H; return ACL_SUCCESS;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: *dir = CD_D2D; return ACL_SUCCESS;
    default: break;
    }
    if (!d && !s)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'kind' is DEFAULT and neither side is device "
                        "memory: a 2D copy is only H2D, D2H or D2D", fn);
    *dir = d && s ? CD_D2D : d ? CD_H2D : CD_D2H;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                                size_t height, aclrtMemcpyKind kind, aclrtStream stream)
{
    CHECK_SITE();
    const char *fn = "aclrtMemcpy2dAsync";
    size_t dspan = 0, sspan = 0;
    struct stream *s;
    struct task *t;
    uint8_t dir = CD_NONE;
    aclError err;

    if (width == 0 || height == 0)
        return ACL_SUCCESS;
    if (dst == NULL || src == NULL)
        return null_arg(fn, dst == NULL ? "dst" : "src");
    if (width > dpitch || width > spitch)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'width' (%zu) exceeds a pitch (dpitch %zu, spitch %zu)", fn,
                        width, dpitch, spitch);
    if (kind != ACL_MEMCPY_HOST_TO_DEVICE && kind != ACL_MEMCPY_DEVICE_TO_HOST && kind != ACL_MEMCPY_DEVICE_TO_DEVICE &&
        kind != ACL_MEMCPY_DEFAULT)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) must be HOST_TO_DEVICE, DEVICE_TO_HOST, "
                        "DEVICE_TO_DEVICE or DEFAULT", fn, (int)kind);
    err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_2d_extent(fn, dpitch, spitch, width, height, &dspan, &sspan);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "dst", dst, dspan, kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE,
                         kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, sspan, kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE,
                         kind);
    if (err == ACL_SUCCESS)
        err = copy2d_direction(fn, dst, src, kind, &dir);
    if (err == ACL_SUCCESS && model_recording_anywhere() && touches_pageable(dst, src, 1, kind))
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_COPY2D, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.copy2d.dst = dst;
    t->u.copy2d.src = src;
    t->u.copy2d.dpitch = dpitch;
    t->u.copy2d.spitch = spitch;
    t->u.copy2d.width = (uint32_t)width; /* check_2d_extent capped both */
    t->u.copy2d.height = (uint32_t)height;
    t->u.copy2d.dir = dir;
    return submit(fn, stream, s, t);
}

/* ---- 32-bit fills ---------------------------------------------------------------- */

/* The ACL layer's checks of aclrtMemsetD32(Async), in its order. */
static aclError check_set32(const char *fn, void *ptr, size_t memSize, size_t n)
{
    enum mem_kind k;
    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (((uintptr_t)ptr & 3u) != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'ptr' (%p) is not 4-byte aligned", fn, ptr);
    if (n > memSize / sizeof(uint32_t))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'N' (%zu) times 4 is larger than 'memSize' (%zu)", fn,
                        n, memSize);
    k = devmem_classify(ptr, n * sizeof(uint32_t));
    if (k == MEM_OVERRUN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'ptr' (%p) + %zu bytes runs past the end of its block", fn,
                        ptr, n * sizeof(uint32_t));
    /* The ACL layer asks for the pointer's attributes: an address in the
     * arenas that no live block holds fails that query (107000). */
    if (k == MEM_UNKNOWN && devmem_in_arena(ptr))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'ptr' (%p) is device or pinned memory no live block holds "
                        "(freed, or past a block's end): its attributes cannot be read", fn, ptr);
    if (k != MEM_DEVICE && k != MEM_HOST_PINNED)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'ptr' (%p) is not memory from aclrtMalloc or aclrtMallocHost",
                        fn, ptr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N)
{
    const char *fn = "aclrtMemsetD32";
    uint32_t *p = ptr;
    aclError err;
    struct context *ctx;
    if (N == 0)
        return ACL_SUCCESS;
    err = check_set32(fn, ptr, memSize, N);
    if (err == ACL_SUCCESS) /* the runtime's fill runs on the current device */
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err != ACL_SUCCESS)
        return err;
    for (size_t i = 0; i < N; i++)
        p[i] = value;
    engine_value_written(ptr, N * sizeof(uint32_t));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream)
{
    CHECK_SITE();
    const char *fn = "aclrtMemsetD32Async";
    struct stream *s;
    struct task *t;
    aclError err;
    if (N == 0)
        return ACL_SUCCESS;
    err = check_set32(fn, ptr, memSize, N);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_SET32, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.set32.dst = ptr;
    t->u.set32.n = N;
    t->u.set32.value = value;
    return submit(fn, stream, s, t);
}

/* ---- batches ------------------------------------------------------------------- */

struct batch {
    void **dsts;
    size_t *destMaxs;
    void **srcs;
    size_t *sizes;
    size_t n;
    aclrtMemcpyBatchAttr *attrs;
    size_t *idx;
    size_t nattrs;
    size_t *failIndex;     /* NULL for the V2 calls */
};

/* The ACL layer's checks (ValidateMemcpyBatchParams), after its sizes and
 * count checks. */
static aclError check_batch_acl(const char *fn, const struct batch *b)
{
    const size_t rsv = sizeof(b->attrs->rsv);
    if (b->dsts == NULL || b->destMaxs == NULL || b->srcs == NULL || b->attrs == NULL || b->idx == NULL)
        return null_arg(fn, b->dsts == NULL ? "dsts" : b->destMaxs == NULL ? "destMaxs" : b->srcs == NULL ? "srcs"
                            : b->attrs == NULL ? "attrs" : "attrsIndexes");
    for (size_t i = 0; i < b->n; i++)
        if (b->destMaxs[i] < b->sizes[i])
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'sizes[%zu]' (%zu) is larger than 'destMaxs[%zu]' (%zu)", fn,
                            i, b->sizes[i], i, b->destMaxs[i]);
    for (size_t a = 0; a < b->nattrs; a++)
        for (size_t k = 0; k < rsv; k++)
            if (b->attrs[a].rsv[k] != 0)
                return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'attrs[%zu].rsv[%zu]' is %u; the reserved bytes must be 0",
                                fn, a, k, (unsigned)b->attrs[a].rsv[k]);
    return ACL_SUCCESS;
}

/* The runtime's checks (MemcpyBatch / MemcpyBatchAsync): the attribute
 * ranges start at 0, grow, and stay below the count; a synchronous batch
 * has at most BATCH_MAX copies. */
static aclError check_batch_rt(const char *fn, const struct batch *b, bool sync)
{
    if (b->nattrs == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numAttrs' is 0", fn);
    if (b->nattrs > b->n)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numAttrs' (%zu) is larger than 'numBatches' (%zu)",
                        fn, b->nattrs, b->n);
    if (sync && b->n > BATCH_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'numBatches' (%zu) is larger than %u", fn, b->n,
                        BATCH_MAX);
    if (b->idx[0] != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'attrsIndexes[0]' is %zu; it must be 0", fn, b->idx[0]);
    for (size_t i = 1; i < b->nattrs; i++) {
        if (b->idx[i] <= b->idx[i - 1])
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'attrsIndexes[%zu]' (%zu) is not larger than "
                            "'attrsIndexes[%zu]' (%zu)", fn, i, b->idx[i], i - 1, b->idx[i - 1]);
        if (b->idx[i] >= b->n)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'attrsIndexes[%zu]' (%zu) is not below 'numBatches' "
                            "(%zu)", fn, i, b->idx[i], b->n);
    }
    return ACL_SUCCESS;
}

/* What a location says a side is: device memory (true), host memory
 * (false), or not a location a copy takes (107000). */
static aclError location_is_device(const char *fn, const char *arg, size_t i, aclrtMemLocation loc, bool *device)
{
    switch (loc.type) {
    case ACL_MEM_LOCATION_TYPE_DEVICE: *device = true; return ACL_SUCCESS;
    case ACL_MEM_LOCATION_TYPE_HOST: case ACL_MEM_LOCATION_TYPE_HOST_NUMA: *device = false; return ACL_SUCCESS;
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: copy %zu's %s location type is %d; it must be HOST, "
                        "HOST_NUMA or DEVICE", fn, i, arg, (int)loc.type);
    }
}

/* Copy i against the attribute that covers it: each side what its
 * location says, inside one block. */
static aclError check_batch_copy(const char *fn, const struct batch *b, size_t i, size_t a, uint8_t *dir)
{
    bool dd = false, sd = false;
    aclError err = location_is_device(fn, "destination", i, b->attrs[a].dstLoc, &dd);
    if (err == ACL_SUCCESS)
        err = location_is_device(fn, "source", i, b->attrs[a].srcLoc, &sd);
    if (err == ACL_SUCCESS && (b->dsts[i] == NULL || b->srcs[i] == NULL))
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: '%s[%zu]' is NULL", fn, b->dsts[i] == NULL ? "dsts" : "srcs", i);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "dsts[i]", b->dsts[i], b->sizes[i], dd, dd ? ACL_MEMCPY_HOST_TO_DEVICE : ACL_MEMCPY_DEVICE_TO_HOST);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "srcs[i]", b->srcs[i], b->sizes[i], sd, sd ? ACL_MEMCPY_DEVICE_TO_HOST : ACL_MEMCPY_HOST_TO_DEVICE);
    *dir = dd && sd ? CD_D2D : dd ? CD_H2D : sd ? CD_D2H : CD_H2H;
    return err;
}

/* The whole batch, or the index and error of the first copy that fails. */
static aclError check_batch_copies(const char *fn, const struct batch *b, size_t *bad)
{
    size_t a = 0;
    uint8_t dir;
    for (size_t i = 0; i < b->n; i++) {
        aclError err;
        while (a + 1 < b->nattrs && b->idx[a + 1] <= i)
            a++;
        if (b->sizes[i] == 0)
            continue;
        if ((err = check_batch_copy(fn, b, i, a, &dir)) != ACL_SUCCESS) {
            *bad = i;
            return err;
        }
    }
    return ACL_SUCCESS;
}

static aclError batch_run_sync(const char *fn, const struct batch *b)
{
    size_t bad = SIZE_MAX;
    aclError err = check_batch_copies(fn, b, &bad);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err != ACL_SUCCESS) {
        if (b->failIndex != NULL)
            *b->failIndex = bad;
        return err;
    }
    for (size_t i = 0; i < b->n; i++) {
        if (b->sizes[i] == 0)
            continue;
        memmove(b->dsts[i], b->srcs[i], b->sizes[i]);
        engine_value_written(b->dsts[i], b->sizes[i]);
    }
    return ACL_SUCCESS;
}

/* One copy task per non-empty copy, in order; all are checked first, so
 * a batch is queued whole or not at all unless the stream refuses work
 * midway (then failIndex names the first copy not queued). */
static aclError batch_run_async(const char *fn, const struct batch *b, aclrtStream stream)
{
    size_t bad = SIZE_MAX, a = 0;
    struct stream *s;
    aclError err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_batch_copies(fn, b, &bad);
    for (size_t i = 0; err == ACL_SUCCESS && i < b->n; i++) {
        struct task *t;
        uint8_t dir;
        while (a + 1 < b->nattrs && b->idx[a + 1] <= i)
            a++;
        if (b->sizes[i] == 0)
            continue;
        (void)check_batch_copy(fn, b, i, a, &dir); /* passed above: only the direction */
        if ((err = stream_task_new(fn, TASK_COPY, &t)) == ACL_SUCCESS) {
            t->u.copy.dst = b->dsts[i];
            t->u.copy.src = b->srcs[i];
            t->u.copy.count = b->sizes[i];
            t->u.copy.dir = dir;
            err = submit(fn, stream, s, t);
        }
        if (err != ACL_SUCCESS)
            bad = i;
    }
    if (err != ACL_SUCCESS && b->failIndex != NULL)
        *b->failIndex = bad;
    return err;
}

/* MemcpyBatchImpl and the runtime's checks, shared by the four calls. */
static aclError memcpy_batch(const char *fn, const struct batch *b, bool async, aclrtStream stream)
{
    bool all_empty = true;
    aclError err;
    if (b->sizes == NULL)
        return null_arg(fn, "sizes");
    if (b->n == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'numBatches' is 0", fn);
    for (size_t i = 0; i < b->n && all_empty; i++)
        all_empty = b->sizes[i] == 0;
    if (b->failIndex != NULL)
        *b->failIndex = SIZE_MAX;
    if (all_empty)
        return ACL_SUCCESS;
    err = check_batch_acl(fn, b);
    if (err == ACL_SUCCESS)
        err = check_batch_rt(fn, b, !async);
    if (err != ACL_SUCCESS)
        return err;
    return async ? batch_run_async(fn, b, stream) : batch_run_sync(fn, b);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                              size_t numAttrs, size_t *failIndex)
{
    struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex};
    if (failIndex == NULL)
        return null_arg("aclrtMemcpyBatch", "failIndex");
    return memcpy_batch("aclrtMemcpyBatch", &b, false, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                size_t numAttrs)
{
    struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL};
    return memcpy_batch("aclrtMemcpyBatchV2", &b, false, NULL);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                                                   aclrtStream stream)
{
    CHECK_SITE();
    struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex};
    if (failIndex == NULL)
        return null_arg("aclrtMemcpyBatchAsync", "failIndex");
    return memcpy_batch("aclrtMemcpyBatchAsync", &b, true, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream)
{
    CHECK_SITE();
    struct batch b = {dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, NULL};
    return memcpy_batch("aclrtMemcpyBatchAsyncV2", &b, true, stream);
}

/* ---- descriptor and offset copies ------------------------------------------------ */

/* The ACL layer's kind check of the descriptor calls: below RT_MEMCPY_KIND_MAX. */
static aclError check_desc_kind(const char *fn, aclrtMemcpyKind kind)
{
    if ((unsigned)kind >= MEMCPY_KINDS)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) is not an aclrtMemcpyKind (0..%u)", fn,
                        (int)kind, MEMCPY_KINDS - 1);
    return ACL_SUCCESS;
}

/* The runtime's: descriptors exist on SoCs with STARS (A2, A3, 950), for
 * INNER_DEVICE_TO_DEVICE copies only. */
static aclError check_desc_feature(const char *fn, aclrtMemcpyKind kind)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (!soc_has_cmo(ctx->dev->soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no memory copy descriptors (A2, A3 and 950 do)",
                        fn, ctx->dev->soc->name);
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'kind' is %s; descriptors describe only "
                        "INNER_DEVICE_TO_DEVICE copies", fn, memcpy_kind_name(kind));
    return ACL_SUCCESS;
}

/* A descriptor: device memory, 64-byte aligned, with room for one. */
static aclError check_desc_memory(const char *fn, const void *desc)
{
    if (((uintptr_t)desc % 64u) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'desc' (%p) is not 64-byte aligned", fn, desc);
    if (devmem_classify(desc, sizeof(struct memcpy_desc)) != MEM_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'desc' (%p) is not %zu bytes of device memory", fn, desc,
                        sizeof(struct memcpy_desc));
    return ACL_SUCCESS;
}

/* aclrtGetMemcpyDescSize: descSize NULL, then a kind outside the enum
 * (100000, the ACL layer's); then the runtime's: a SoC without STARS and
 * a kind other than INNER_DEVICE_TO_DEVICE (207000). The chip type is the
 * process's: no context is needed. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize)
{
    const char *fn = "aclrtGetMemcpyDescSize";
    const struct soc_profile *soc = soc_configured();
    aclError err;
    if (descSize == NULL)
        return null_arg(fn, "descSize");
    if ((err = check_desc_kind(fn, kind)) != ACL_SUCCESS)
        return err;
    if (!soc_has_cmo(soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no memory copy descriptors (A2, A3 and 950 do)",
                        fn, soc->name);
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'kind' is %s; descriptors describe only "
                        "INNER_DEVICE_TO_DEVICE copies", fn, memcpy_kind_name(kind));
    *descSize = soc->family == SOC_950 ? 64 : 32; /* MEMCPY_DESC_SIZE_V2 / _V1 */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
                                                size_t count, void *config)
{
    const char *fn = "aclrtSetMemcpyDesc";
    struct memcpy_desc d = {srcAddr, dstAddr, count, 0};
    aclError err;
    if (desc == NULL)
        return null_arg(fn, "desc");
    if ((err = check_desc_kind(fn, kind)) != ACL_SUCCESS)
        return err;
    if (srcAddr == NULL || dstAddr == NULL)
        return null_arg(fn, srcAddr == NULL ? "srcAddr" : "dstAddr");
    if (count == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' is 0", fn);
    if (config != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'config' is reserved and must be NULL", fn);
    if ((err = check_desc_feature(fn, kind)) != ACL_SUCCESS)
        return err;
    if (count > DESC_COPY_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is larger than 4 GiB", fn, count);
    if ((err = check_desc_memory(fn, desc)) != ACL_SUCCESS)
        return err;
    err = check_side(fn, "dstAddr", dstAddr, count, true, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "srcAddr", srcAddr, count, true, kind);
    if (err != ACL_SUCCESS)
        return err;
    memcpy(desc, &d, sizeof(d));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream)
{
    const char *fn = "aclrtMemcpyAsyncWithDesc";
    struct memcpy_desc d = {0};
    struct stream *s;
    struct task *t;
    aclError err;
    if (desc == NULL)
        return null_arg(fn, "desc");
    if ((err = check_desc_kind(fn, kind)) != ACL_SUCCESS)
        return err;
    if (stream == NULL)
        return null_arg(fn, "stream");
    err = check_desc_feature(fn, kind);
    if (err == ACL_SUCCESS)
        err = check_desc_memory(fn, desc);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_COPY_DESC, &t);
    if (err != ACL_SUCCESS)
        return err;
    (void)devmem_read_device(desc, &d, sizeof(d)); /* the bytes, for the profile; the task reads it again */
    t->u.copy_desc.desc = desc;
    t->u.copy_desc.count = d.count;
    return submit(fn, stream, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                                                        const void **src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream)
{
    const char *fn = "aclrtMemcpyAsyncWithOffset";
    struct stream *s;
    struct task *t;
    aclError err;
    if (count == 0)
        return ACL_SUCCESS;
    if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'kind' is %s; it must be INNER_DEVICE_TO_DEVICE", fn,
                        memcpy_kind_name(kind));
    if (dst == NULL || src == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn, dst == NULL ? "dst" : "src");
    if (count > destMax)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is larger than 'destMax' (%zu)", fn,
                        count, destMax);
    if (srcDataOffset > OFFSET_MAX || dstDataOffset > OFFSET_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is larger than 0xFFFFFFFFFFFF", fn,
                        srcDataOffset > OFFSET_MAX ? "srcDataOffset" : "dstDataOffset");
    if (dstDataOffset >= destMax || count > destMax - dstDataOffset)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'dstDataOffset' (%zu) + 'count' (%zu) is larger than "
                        "'destMax' (%zu)", fn, dstDataOffset, count, destMax);
    err = check_side(fn, "dst", dst, sizeof(void *), true, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, sizeof(void *), true, kind);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_COPY_DESC, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.copy_desc.dst_at = dst;
    t->u.copy_desc.src_at = src;
    t->u.copy_desc.dst_off = dstDataOffset;
    t->u.copy_desc.src_off = srcDataOffset;
    t->u.copy_desc.count = count;
    return submit(fn, stream, s, t);
}

/* ---- value writes and waits ------------------------------------------------------ */

/* The runtime's checks of both, in its order: the SoC has value waits
 * (A2, A3, 950: a property of the chip, known without a context), the
 * stream's handle, the flag, the address is device memory (8 bytes of it
 * here, so that the 64-bit access stays inside its block); then a
 * current context and a stream of it (api_c_memory.cc rtsValueWrite,
 * api_error.cc MemWriteValue, api_impl.cc MemWriteValue). */
static aclError check_value(const char *fn, void *devAddr, uint32_t flag, bool wait, struct stream **s,
                            aclrtStream stream)
{
    struct context *ctx = ctx_current();
    const struct soc_profile *soc = ctx != NULL ? ctx->dev->soc : soc_configured();
    enum mem_kind k;
    if (!soc_has_cmo(soc)) /* the same product lines */
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no value writes and waits (A2, A3 and 950 do)",
                        fn, soc->name);
    *s = stream != NULL ? (struct stream *)obj_resolve_user(stream, OBJ_STREAM) : NULL;
    if (stream != NULL && *s == NULL)
        return stream_stale(fn, stream);
    if (!wait && flag != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' is %u; it is reserved and must be 0", fn, flag);
    if (wait && flag > ACL_STREAM_WAIT_VALUE_NOR)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' is %u; it must be an ACL_STREAM_WAIT_VALUE_* "
                        "(0..3)", fn, flag);
    k = devmem_classify(devAddr, sizeof(uint64_t));
    if (k == MEM_OVERRUN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devAddr' (%p) + 8 bytes runs past the end of its block", fn,
                        devAddr);
    if (k != MEM_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devAddr' (%p) is not device memory", fn, devAddr);
    if (ctx == NULL)
        return ctx_missing(fn);
    if (*s == NULL) {
        *s = ctx->default_stream;
        return ACL_SUCCESS;
    }
    if (stream_ctx(*s) != ctx)
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT,
                        "%s: argument 'stream' (stream %d) belongs to another context than the current one", fn,
                        load_relaxed(&(*s)->id));
    return ACL_SUCCESS;
}

static aclError value_task(const char *fn, void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream, bool wait)
{
    struct stream *s = NULL;
    struct task *t;
    aclError err;
    if (devAddr == NULL)
        return null_arg(fn, "devAddr");
    err = check_value(fn, devAddr, flag, wait, &s, stream);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, wait ? TASK_VALUE_WAIT : TASK_VALUE_WRITE, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.value.addr = devAddr;
    t->u.value.value = value;
    t->u.value.flag = flag;
    return submit(fn, stream, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    return value_task("aclrtValueWrite", devAddr, value, flag, stream, false);
}

ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream)
{
    return value_task("aclrtValueWait", devAddr, value, flag, stream, true);
}

/* ---- peer mapping ----------------------------------------------------------------- */

/* Every device of aclcpu is the same host's memory: a peer sees a block
 * already, so the map checks what the reference checks and maps nothing. */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags)
{
    const char *fn = "aclrtMemP2PMap";
    enum mem_kind k;
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' is %llu; it is reserved and must be 0", fn,
                        (unsigned long long)flags);
    if (dstDevId < 0 || (uint32_t)dstDevId >= device_count())
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'dstDevId' (%d) is not a device (0..%u)", fn,
                        dstDevId, device_count() - 1);
    k = devmem_classify(devPtr, size);
    if (k == MEM_OVERRUN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) + %zu bytes runs past the end of its block", fn,
                        devPtr, size);
    if (k != MEM_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) is not device memory", fn, devPtr);
    return ACL_SUCCESS;
}
