/*
 * api_memory.c - aclrtMalloc/Free, host memory, copies and memsets.
 *
 * DESIGN: checks in the spec's order (count 0 succeeds before any other
 * check; then NULLs, then destMax, then kind), then the pointers are
 * matched against devmem's table: the side a copy kind names as device
 * must lie inside one aclrtMalloc block. Synchronous copies run on the
 * calling thread; async ones are stream tasks. A size whose rounding,
 * padding or 2D span would wrap a size_t is refused before anything is
 * allocated or touched.
 *
 * aclrtFree frees at once and does not wait for streams, as the reference's
 * does; memory that queued work may still touch is held from reuse until
 * that work is done (core/quarantine.c), so a late write lands in memory
 * nobody holds.
 *
 * Threads: any host thread. Locks: none here (devmem's mem_lock).
 */
#include <string.h>

#include "api_int.h"
#include "../services/devmem.h"
#include "../services/hostmem.h"
#include "../services/profile.h"

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    return malloc_device("aclrtMalloc", devPtr, size, policy, true);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
    if (devPtr == NULL)
        return null_arg("aclrtFree", "devPtr");
    if (!quarantine_free(devPtr, true) && !quarantine_free_managed(devPtr)) /* aclrtFree frees managed memory too */
        return acl_fail(ACL_ERROR_RT_MEMORY_FREE,
                        "aclrtFree: %p is not the start of a live aclrtMalloc block (freed twice, or not device memory)",
                        devPtr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    const char *fn = "aclrtMallocHost";
    aclError err;
    if (hostPtr == NULL)
        return null_arg(fn, "hostPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (size > DEVMEM_MAX_HOST_SIZE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is too large: rounded up to 32 bytes "
                        "it would wrap to 0 (at most %zu)", fn, size, (size_t)DEVMEM_MAX_HOST_SIZE);
    quarantine_poll();
    err = devmem_alloc_host(size, hostPtr);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory for %zu bytes", fn, size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
    if (hostPtr == NULL)
        return null_arg("aclrtFreeHost", "hostPtr");
    if (!quarantine_free(hostPtr, false))
        return acl_fail(ACL_ERROR_RT_MEMORY_FREE,
                        "aclrtFreeHost: %p is not the start of a live aclrtMallocHost block", hostPtr);
    return ACL_SUCCESS;
}

const char *memcpy_kind_name(aclrtMemcpyKind kind)
{
    static const char *const names[] = {"HOST_TO_HOST", "HOST_TO_DEVICE", "DEVICE_TO_HOST", "DEVICE_TO_DEVICE",
                                        "DEFAULT", "HOST_TO_BUF_TO_DEVICE", "INNER_DEVICE_TO_DEVICE",
                                        "INTER_DEVICE_TO_DEVICE"};
    return (unsigned)kind < ACLCPU_ARRAY_SIZE(names) ? names[kind] : "?";
}

/* Checks that [p, p+n) is device memory when want_device, and that host
 * memory is not device memory the caller mislabelled. */
aclError check_side(const char *fn, const char *arg, const void *p, size_t n, bool want_device,
                           aclrtMemcpyKind kind)
{
    enum mem_kind k = devmem_classify(p, n);
    if (k == MEM_OVERRUN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: '%s' (%p) + %zu bytes runs past the end of its block", fn,
                        arg, p, n);
    if (want_device && k != MEM_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: '%s' (%p) is not device memory from aclrtMalloc, but the kind %s says it is", fn, arg, p,
                        memcpy_kind_name(kind));
    return ACL_SUCCESS;
}

/* Validates a copy and, for DEFAULT, works out the direction. */
aclError check_copy(const char *fn, void *dst, size_t destMax, const void *src, size_t count,
                           aclrtMemcpyKind kind)
{
    bool dst_dev, src_dev;
    aclError err;

    if (dst == NULL || src == NULL)
        return null_arg(fn, dst == NULL ? "dst" : "src");
    if (count > destMax)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' (%zu) is larger than 'destMax' (%zu)", fn,
                        count, destMax);
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: dst_dev = src_dev = false; break;
    case ACL_MEMCPY_HOST_TO_DEVICE: case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: dst_dev = true; src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: dst_dev = false; src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE: case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
        dst_dev = src_dev = true;
        break;
    case ACL_MEMCPY_DEFAULT:
        dst_dev = src_dev = false; /* either side may be anything aclcpu knows or plain host memory */
        break;
    default:
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) is not an aclrtMemcpyKind", fn, (int)kind);
    }
    err = check_side(fn, "dst", dst, count, dst_dev, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, count, src_dev, kind);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind)
{
    aclError err;
    if (count == 0)
        return ACL_SUCCESS;
    err = check_copy("aclrtMemcpy", dst, destMax, src, count, kind);
    if (err == ACL_SUCCESS) /* a synchronous copy is "unsafe" while capturing */
        err = model_unsafe_call("aclrtMemcpy", ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err == ACL_SUCCESS)
        memmove(dst, src, count);
    return err;
}

/* An async copy whose host side is ordinary (pageable) host memory, not
 * aclrtMallocHost memory: the runtime stages it synchronously, which the
 * capture modes treat as unsafe. */
bool touches_pageable(const void *dst, const void *src, size_t count, aclrtMemcpyKind kind)
{
    bool src_host = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_DEFAULT;
    bool dst_host = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_HOST_TO_HOST || kind == ACL_MEMCPY_DEFAULT;
    return (src_host && devmem_classify(src, count) == MEM_UNKNOWN) ||
           (dst_host && devmem_classify(dst, count) == MEM_UNKNOWN);
}

/* Where the profile's model charges a copy: the kind says, and a DEFAULT
 * copy is looked up only while a profile runs (the lookup takes a lock). */
uint8_t copy_direction(aclrtMemcpyKind kind, const void *dst, const void *src, size_t count)
{
    bool d, s;
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return CD_H2H;
    case ACL_MEMCPY_HOST_TO_DEVICE: case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return CD_H2D;
    case ACL_MEMCPY_DEVICE_TO_HOST: return CD_D2H;
    case ACL_MEMCPY_DEFAULT: break;
    default: return CD_D2D;
    }
    if (!prof_on())
        return CD_NONE;
    d = devmem_classify(dst, count) == MEM_DEVICE;
    s = devmem_classify(src, count) == MEM_DEVICE;
    return d && s ? CD_D2D : d ? CD_H2D : s ? CD_D2H : CD_H2H;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream)
{
    const char *fn = "aclrtMemcpyAsync";
    aclError err;

    if (count == 0)
        return ACL_SUCCESS;
    err = check_copy(fn, dst, destMax, src, count, kind);
    if (err == ACL_SUCCESS && model_recording_anywhere() && touches_pageable(dst, src, count, kind))
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
    return err == ACL_SUCCESS ? queue_copy(fn, stream, dst, src, count, copy_direction(kind, dst, src, count)) : err;
}

aclError queue_copy(const char *fn, aclrtStream stream, void *dst, const void *src, size_t count, uint8_t dir)
{
    struct stream *s;
    struct task *t;
    aclError err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_COPY, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.copy.dst = dst;
    t->u.copy.src = src;
    t->u.copy.count = count;
    t->u.copy.dir = dir;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

/* The reference's limits on a 2D copy (RT_MAX_MEMCPY2D_HEIGHT and _WIDTH). */
#define MEMCPY2D_MAX_HEIGHT 5242880u
#define MEMCPY2D_MAX_WIDTH 5000000u

/* *span = the bytes a 2D side covers, pitch * (height - 1) + width; false
 * if that does not fit a size_t. */
static bool span_2d(size_t pitch, size_t width, size_t height, size_t *span)
{
    if (pitch != 0 && height - 1 > (SIZE_MAX - width) / pitch)
        return false;
    *span = pitch * (height - 1) + width;
    return true;
}

/* The limits and spans of a 2D copy, after its pitch check. */
aclError check_2d_extent(const char *fn, size_t dpitch, size_t spitch, size_t width, size_t height,
                                size_t *dspan, size_t *sspan)
{
    if (height > MEMCPY2D_MAX_HEIGHT || width > MEMCPY2D_MAX_WIDTH)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%zu) is larger than %u", fn,
                        height > MEMCPY2D_MAX_HEIGHT ? "height" : "width",
                        height > MEMCPY2D_MAX_HEIGHT ? height : width,
                        height > MEMCPY2D_MAX_HEIGHT ? MEMCPY2D_MAX_HEIGHT : MEMCPY2D_MAX_WIDTH);
    if (!span_2d(dpitch, width, height, dspan) || !span_2d(spitch, width, height, sspan))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%zu) times 'height' - 1 (%zu) plus 'width' "
                        "does not fit a size_t", fn, span_2d(dpitch, width, height, dspan) ? "spitch" : "dpitch",
                        span_2d(dpitch, width, height, dspan) ? spitch : dpitch, height - 1);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind)
{
    const char *fn = "aclrtMemcpy2d";
    size_t dspan = 0, sspan = 0;
    aclError err;
    if (width == 0 || height == 0)
        return ACL_SUCCESS;
    if (dst == NULL || src == NULL)
        return null_arg(fn, dst == NULL ? "dst" : "src");
    if (width > dpitch || width > spitch)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: 'width' (%zu) exceeds a pitch (dpitch %zu, spitch %zu)", fn,
                        width, dpitch, spitch);
    err = check_2d_extent(fn, dpitch, spitch, width, height, &dspan, &sspan);
    if (err == ACL_SUCCESS)
        err = check_copy(fn, dst, dspan, src, dspan, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, sspan,
                         kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE, kind);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err != ACL_SUCCESS)
        return err;
    for (size_t row = 0; row < height; row++)
        memmove((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
    return ACL_SUCCESS;
}

static aclError check_set(const char *fn, void *devPtr, size_t maxCount, size_t count)
{
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (count > maxCount)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' (%zu) is larger than 'maxCount' (%zu)", fn,
                        count, maxCount);
    switch (devmem_classify(devPtr, count)) {
    case MEM_DEVICE:
    case MEM_HOST_PINNED:
        return ACL_SUCCESS;
    case MEM_OVERRUN:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) + %zu bytes runs past the end of its block",
                        fn, devPtr, count);
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) is not memory from aclrtMalloc/aclrtMallocHost",
                        fn, devPtr);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    aclError err;
    if (count == 0)
        return ACL_SUCCESS;
    err = check_set("aclrtMemset", devPtr, maxCount, count);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call("aclrtMemset", ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err == ACL_SUCCESS)
        memset(devPtr, value, count);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream)
{
    const char *fn = "aclrtMemsetAsync";
    struct stream *s;
    struct task *t;
    aclError err;

    if (count == 0)
        return ACL_SUCCESS;
    err = check_set(fn, devPtr, maxCount, count);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_SET, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.set.dst = devPtr;
    t->u.set.value = value;
    t->u.set.count = count;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
    const char *fn = "aclrtGetMemInfo";
    struct context *ctx;
    uint64_t used;
    aclError err;

    if (free == NULL || total == NULL)
        return null_arg(fn, free == NULL ? "free" : "total");
    /* One pool on a CPU: every page kind is served from it, and every
     * attribute sees it whole. */
    if ((unsigned)attr > ACL_MEM_P2P_HUGE1G)
        return acl_fail(ACL_ERROR_RT_INVALID_MEMORY_TYPE, "%s: argument 'attr' (%d) is not an aclrtMemAttr "
                        "(0..%d)", fn, (int)attr, (int)ACL_MEM_P2P_HUGE1G);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    used = load_relaxed(&ctx->dev->mem_used);
    *total = (size_t)ctx->dev->mem_total;
    *free = (size_t)(ctx->dev->mem_total > used ? ctx->dev->mem_total - used : 0);
    return ACL_SUCCESS;
}

/* ---- cache maintenance ---------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream)
{
    const char *fn = "aclrtCmoAsync";
    struct stream *s;
    struct task *t;
    aclError err;
    if (src == NULL)
        return null_arg(fn, "src");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    /* The runtime asks its chip first, then the operation, then the
     * stream handle, the context and the stream's context. */
    if (!soc_has_cmo(soc_configured()))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache operations (A2, A3 and 950 do)", fn,
                        soc_configured()->name);
    if ((unsigned)cmoType > ACL_RT_CMO_TYPE_FLUSH)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'cmoType' is %d; it must be an aclrtCmoType "
                        "(0..3)", fn, (int)cmoType);
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS || (err = task_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if (size > UINT32_MAX) /* the runtime keeps a 32-bit length */
        LOGW("%s: size %zu does not fit 32 bits; the operation covers %u bytes, as on the device", fn, size,
             (uint32_t)size);
    if ((err = stream_task_new(fn, TASK_CMO, &t)) != ACL_SUCCESS)
        return err;
    t->u.cmo.addr = src;
    t->u.cmo.size = (uint32_t)size;
    t->u.cmo.type = (uint8_t)cmoType;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}
