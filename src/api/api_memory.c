/*
 * api_memory.c - aclrtMalloc/Free, host memory, copies and memsets.
 *
 * DESIGN: checks in the reference's order: count 0 succeeds before any
 * other check; then the ACL layer's NULLs and kind (100000); then the
 * runtime's: a stream handle, count against destMax (107000), the current
 * context (107002); then the pointers are matched against devmem's table
 * as the driver would: the side a copy kind names as device must lie
 * inside one aclrtMalloc block (107000). Synchronous copies run on the
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
#include "../core/cachealloc.h"
#include "../services/devmem.h"
#include "../services/hostmem.h"
#include "../services/profile.h"

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    return malloc_device("aclrtMalloc", devPtr, size, policy, true);
}

/* Frees the device or managed block p starts; the driver's 207002 if none. */
aclError free_device_block(const char *fn, void *p)
{
    if (cachealloc_owns(p)) /* a segment of the caching allocator: its blocks are freed there */
        return acl_fail(ACL_ERROR_RT_MEMORY_FREE, "%s: %p is memory of the caching allocator (aclcpuCacheMalloc): "
                        "free its blocks with aclcpuCacheFree", fn, p);
    if (check_on())
        check_free(fn, p); /* reports a free of memory a pending task uses; the quarantine keeps it safe */
    if (quarantine_free(p, true) || quarantine_free_managed(p)) /* aclrtFree frees managed memory too */
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_MEMORY_FREE,
                    "%s: %p is not the start of a live aclrtMalloc block (freed twice, or not device memory)", fn, p);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
    CHECK_SITE();
    if (devPtr == NULL)
        return null_arg("aclrtFree", "devPtr");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    return free_device_block("aclrtFree", devPtr);
}

/* aclrtMallocHost: hostPtr NULL, size 0 (100000); the context (107002);
 * a size whose rounding to 32 bytes wraps (107000, the driver's). */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size)
{
    const char *fn = "aclrtMallocHost";
    struct context *ctx;
    aclError err;
    if (hostPtr == NULL)
        return null_arg(fn, "hostPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS) /* the runtime allocates for the current device */
        return err;
    if (size > DEVMEM_MAX_HOST_SIZE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is too large: rounded up to 32 bytes "
                        "it would wrap to 0 (at most %zu)", fn, size, (size_t)DEVMEM_MAX_HOST_SIZE);
    quarantine_poll();
    err = devmem_alloc_host(size, hostPtr);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory for %zu bytes", fn, size);
    return ACL_SUCCESS;
}

/* Frees the aclrtMallocHost block p starts. As the runtime reads the
 * pointer's attributes first, an address of the arenas no live block
 * holds (freed) and device or managed memory give 107000; anything else
 * that starts no live pinned block is the driver's free error (207002). */
aclError free_host_block(const char *fn, void *p)
{
    struct mem_range r;
    if (check_on())
        check_free(fn, p);
    if (quarantine_free(p, false))
        return ACL_SUCCESS;
    if (devmem_lookup(p, &r) ? r.origin != ORIGIN_HOST && r.origin != ORIGIN_REGISTERED : devmem_in_arena(p))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'hostPtr' (%p) must be a host address: it is %s",
                        fn, p, devmem_lookup(p, &r) ? "device or managed memory" : "memory no live block holds (freed)");
    return acl_fail(ACL_ERROR_RT_MEMORY_FREE, "%s: %p is not the start of a live aclrtMallocHost block", fn, p);
}

/* aclrtFreeHost: hostPtr NULL (100000), then free_host_block's checks. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr)
{
    CHECK_SITE();
    if (hostPtr == NULL)
        return null_arg("aclrtFreeHost", "hostPtr");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    return free_host_block("aclrtFreeHost", hostPtr);
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

/* The kinds the ACL layer translates for a 1D copy (memory.cpp
 * MemcpyKindTranslate): INNER_ and INTER_DEVICE_TO_DEVICE are not among
 * them, nor is anything outside the enum. */
aclError check_acl_kind(const char *fn, aclrtMemcpyKind kind)
{
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: case ACL_MEMCPY_HOST_TO_DEVICE: case ACL_MEMCPY_DEVICE_TO_HOST:
    case ACL_MEMCPY_DEVICE_TO_DEVICE: case ACL_MEMCPY_DEFAULT: case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
        return ACL_SUCCESS;
    default:
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'kind' (%d) is not one of HOST_TO_HOST, HOST_TO_DEVICE, "
                        "DEVICE_TO_HOST, DEVICE_TO_DEVICE, DEFAULT, HOST_TO_BUF_TO_DEVICE", fn, (int)kind);
    }
}

/* The ACL layer's checks of a 1D copy: the NULLs, then the kind (100000). */
aclError check_copy_acl(const char *fn, void *dst, const void *src, aclrtMemcpyKind kind)
{
    if (dst == NULL || src == NULL)
        return null_arg(fn, dst == NULL ? "dst" : "src");
    return check_acl_kind(fn, kind);
}

/* The runtime's first check of a copy or fill: count against the bound
 * the caller gave (107000, api_error.cc MemCopySync / MemcpyAsync /
 * MemsetAsync). */
aclError check_count(const char *fn, size_t count, const char *max_arg, size_t max)
{
    if (count > max)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is larger than '%s' (%zu)", fn,
                        count, max_arg, max);
    return ACL_SUCCESS;
}

/* A stream handle is validated as the runtime's entry unwraps it, before
 * the runtime's argument checks and its context lookup: a handle that is
 * not a live stream is 107017 first; NULL (the default stream) waits for
 * the context, resolved later by stream_resolve. */
aclError stream_handle_first(const char *fn, aclrtStream stream)
{
    if (stream == NULL || obj_resolve_user(stream, OBJ_STREAM) != NULL)
        return ACL_SUCCESS;
    return stream_stale(fn, stream);
}

/* Each side of a checked copy against what its kind says it is. */
aclError check_copy_sides(const char *fn, void *dst, const void *src, size_t count, aclrtMemcpyKind kind)
{
    bool dst_dev, src_dev;
    aclError err;

    switch (kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE: case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: dst_dev = true; src_dev = false; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: dst_dev = false; src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: dst_dev = src_dev = true; break;
    default: /* HOST_TO_HOST; DEFAULT: either side may be anything aclcpu knows or plain host memory */
        dst_dev = src_dev = false;
        break;
    }
    err = check_side(fn, "dst", dst, count, dst_dev, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, count, src_dev, kind);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind)
{
    const char *fn = "aclrtMemcpy";
    struct context *ctx;
    aclError err;
    CHECK_SITE();
    if (count == 0)
        return ACL_SUCCESS;
    if ((err = check_copy_acl(fn, dst, src, kind)) != ACL_SUCCESS ||
        (err = check_count(fn, count, "destMax", destMax)) != ACL_SUCCESS)
        return err;
    if (dst == src) /* nothing to copy: the runtime returns before it looks for a context */
        return ACL_SUCCESS;
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS) /* a synchronous copy is "unsafe" while capturing */
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err == ACL_SUCCESS)
        err = check_copy_sides(fn, dst, src, count, kind);
    if (err == ACL_SUCCESS && check_on()) { /* the host reads src and writes dst now */
        check_host_access(fn, src, count, false);
        check_host_access(fn, dst, count, true);
    }
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

/* An asynchronous copy the caller names HOST_TO_HOST is refused in the
 * host-driven (online) run mode aclcpu reports (aclrtGetRunMode: ACL_HOST):
 * 207000, after the location checks (api_error.cc MemcpyAsync). */
aclError check_async_kind(const char *fn, aclrtMemcpyKind kind)
{
    if (kind == ACL_MEMCPY_HOST_TO_HOST)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'kind' is HOST_TO_HOST: an asynchronous "
                        "copy from host to host is not supported when the host drives the device (run mode "
                        "ACL_HOST); use aclrtMemcpy", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream)
{
    const char *fn = "aclrtMemcpyAsync";
    struct stream *s;
    aclError err;
    CHECK_SITE();

    if (count == 0)
        return ACL_SUCCESS;
    if ((err = check_copy_acl(fn, dst, src, kind)) != ACL_SUCCESS ||
        (err = stream_handle_first(fn, stream)) != ACL_SUCCESS ||
        (err = check_count(fn, count, "destMax", destMax)) != ACL_SUCCESS ||
        (err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS ||
        (err = check_copy_sides(fn, dst, src, count, kind)) != ACL_SUCCESS ||
        (err = check_async_kind(fn, kind)) != ACL_SUCCESS)
        return err;
    if (dst == src) /* nothing to copy: the runtime queues nothing */
        return ACL_SUCCESS;
    if (model_recording_anywhere() && touches_pageable(dst, src, count, kind))
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
    struct context *ctx;
    bool d, s;
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
    if ((err = check_2d_extent(fn, dpitch, spitch, width, height, &dspan, &sspan)) != ACL_SUCCESS)
        return err;
    /* The runtime's synchronous 2D copy is host to device or device to host only. */
    if (kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'kind' is DEVICE_TO_DEVICE: a synchronous "
                        "2D copy is HOST_TO_DEVICE or DEVICE_TO_HOST (aclrtMemcpy2dAsync copies device to device)",
                        fn);
    err = check_side(fn, "dst", dst, dspan, kind == ACL_MEMCPY_HOST_TO_DEVICE, kind);
    if (err == ACL_SUCCESS)
        err = check_side(fn, "src", src, sspan, kind == ACL_MEMCPY_DEVICE_TO_HOST, kind);
    if (err != ACL_SUCCESS)
        return err;
    d = devmem_classify(dst, 1) == MEM_DEVICE;
    s = devmem_classify(src, 1) == MEM_DEVICE;
    if (kind == ACL_MEMCPY_DEFAULT && d == s)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'kind' is DEFAULT and %s: a synchronous 2D copy "
                        "is host to device or device to host only", fn,
                        d ? "both sides are device memory" : "neither side is device memory");
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err != ACL_SUCCESS)
        return err;
    for (size_t row = 0; row < height; row++)
        memmove((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
    return ACL_SUCCESS;
}

/* The driver's checks of a fill: devPtr + count must lie inside one
 * aclrtMalloc or aclrtMallocHost block, and count fit maxCount (107000).
 * host_ok: a synchronous fill may also write the caller's own stack, as
 * the driver's drvMemsetD8 writes host memory (the vendor's 12_cross_server
 * sample clears a sockaddr_in there). Other host memory is refused: aclcpu
 * cannot tell a live host buffer from a wild pointer, and a fill through
 * one would corrupt the host heap. */
static aclError check_set_memory(const char *fn, void *devPtr, size_t maxCount, size_t count, bool host_ok)
{
    aclError err = check_count(fn, count, "maxCount", maxCount);
    if (err != ACL_SUCCESS)
        return err;
    switch (devmem_classify(devPtr, count)) {
    case MEM_DEVICE:
    case MEM_HOST_PINNED:
        return ACL_SUCCESS;
    case MEM_OVERRUN:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) + %zu bytes runs past the end of its block",
                        fn, devPtr, count);
    case MEM_UNKNOWN:
        if (host_ok && plat_in_caller_stack(devPtr, count))
            return ACL_SUCCESS;
        /* fall through */
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'devPtr' (%p) is not memory from aclrtMalloc/aclrtMallocHost",
                        fn, devPtr);
    }
}

/* aclrtMemset: count 0 succeeds first; devPtr NULL (100000); then the
 * context (107002) and the capture; then the driver's checks. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)
{
    const char *fn = "aclrtMemset";
    struct context *ctx;
    aclError err;
    CHECK_SITE();
    if (count == 0)
        return ACL_SUCCESS;
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    if (err == ACL_SUCCESS)
        err = check_set_memory(fn, devPtr, maxCount, count, true);
    if (err == ACL_SUCCESS && check_on())
        check_host_access(fn, devPtr, count, true);
    if (err == ACL_SUCCESS)
        memset(devPtr, value, count);
    return err;
}

/* aclrtMemsetAsync: count 0 succeeds first; devPtr NULL (100000); a stale
 * stream (107017); count > maxCount (107000); the context (107002); then
 * the memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream)
{
    const char *fn = "aclrtMemsetAsync";
    struct stream *s;
    struct task *t;
    aclError err;
    CHECK_SITE();

    if (count == 0)
        return ACL_SUCCESS;
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if ((err = stream_handle_first(fn, stream)) != ACL_SUCCESS ||
        (err = check_count(fn, count, "maxCount", maxCount)) != ACL_SUCCESS ||
        (err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS ||
        (err = check_set_memory(fn, devPtr, maxCount, count, false)) != ACL_SUCCESS ||
        (err = stream_task_new(fn, TASK_SET, &t)) != ACL_SUCCESS)
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
