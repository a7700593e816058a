/*
 * api_cachealloc.c - the caching allocator's API (aclcpu/aclcpu.h:
 * aclcpuCacheMalloc ... aclcpuCacheEmpty), the C form of a framework's
 * stream-ordered caching allocator with record_stream / erase_stream.
 *
 * DESIGN: aclcpu's own calls, checked as the runtime checks its memory
 * calls: NULL out-pointers, a size of 0 or one whose rounding would wrap
 * are 100000; a stream handle that names no live stream is 107017, no
 * current context 107002; a stream of another device than the memory it
 * is used with is 107000; a pointer the cache never handed out, or freed
 * already, is 207002 on a free (aclrtFree's code) and 107000 as an
 * argument of record/erase; a device id out of range 107001. Then one call
 * into core/cachealloc.c, which holds the state.
 *
 * Threads: any host thread. Locks: none here (cache_lock in core).
 */
#include "api_int.h"
#include "../core/cachealloc.h"

/* Why p is no live block of the cache, for a message. */
static const char *why_not_live(enum cache_find f)
{
    switch (f) {
    case CACHE_FREED:
        return "it was freed already (aclcpuCacheFree)";
    case CACHE_INSIDE:
        return "it points inside the cache's memory but starts no block handed out (freed already, or not a "
               "block's start)";
    default:
        return "the caching allocator never handed it out (aclcpuCacheMalloc gives its blocks)";
    }
}

ACLCPU_API aclError aclcpuCacheMalloc(void **devPtr, size_t size, aclrtStream stream)
{
    const char *fn = "aclcpuCacheMalloc";
    struct context *ctx;
    struct stream *s;
    aclError err;

    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0: a block has at least one byte", fn);
    if (size > CACHE_MAX_REQUEST)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' (%zu) is too large: rounded up to whole "
                        "segments it would not fit a size_t (at most %zu)", fn, size, (size_t)CACHE_MAX_REQUEST);
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (load_relaxed(&s->dev) != ctx->dev)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' (stream %d) is of device %d, but the "
                        "current device is %d: the cache allocates on the current device for its streams",
                        fn, load_relaxed(&s->id), load_relaxed(&s->dev)->id, ctx->dev->id);
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    quarantine_poll(); /* memory whose late work is done goes back first */
    err = cachealloc_malloc(s, size, devPtr);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: %zu bytes (a segment of %zu) do not fit in device %d's memory, even with the "
                        "cache's free segments given back: %llu of %llu bytes in use", fn, size,
                        cachealloc_segment_size(cachealloc_round(size)), ctx->dev->id,
                        (unsigned long long)load_relaxed(&ctx->dev->mem_used),
                        (unsigned long long)ctx->dev->mem_total);
    return ACL_SUCCESS;
}

ACLCPU_API aclError aclcpuCacheFree(void *devPtr)
{
    const char *fn = "aclcpuCacheFree";
    enum cache_find found;

    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (cachealloc_free(devPtr, &found) == ACL_SUCCESS)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_MEMORY_FREE, "%s: argument 'devPtr' (%p) is no live block of the caching "
                    "allocator: %s%s", fn, devPtr, why_not_live(found), found == CACHE_FREED ? ": a double free" : "");
}

/* record and erase: the pointer, then the stream, then the rule. */
static aclError use_call(const char *fn, void *devPtr, aclrtStream stream, bool erase)
{
    enum cache_find found = CACHE_NOT_OURS;
    bool other_device = false;
    struct stream *s;
    aclError err;

    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    err = erase ? cachealloc_erase_stream(devPtr, s, &found, &other_device)
                : cachealloc_record_stream(devPtr, s, &found, &other_device);
    if (err == ACL_SUCCESS)
        return ACL_SUCCESS;
    if (other_device)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stream' (stream %d) is of device %d, another "
                        "device than the block %p's: a block's users are streams of its own device", fn,
                        load_relaxed(&s->id), load_relaxed(&s->dev)->id, devPtr);
    if (err == ACL_ERROR_RT_MEMORY_ALLOCATION)
        return acl_fail(err, "%s: out of host memory to record stream %d's use of %p", fn, load_relaxed(&s->id),
                        devPtr);
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'devPtr' (%p) is no %sblock of the caching "
                    "allocator: %s", fn, devPtr, erase ? "live or pending " : "live ", why_not_live(found));
}

ACLCPU_API aclError aclcpuCacheRecordStream(void *devPtr, aclrtStream stream)
{
    return use_call("aclcpuCacheRecordStream", devPtr, stream, false);
}

ACLCPU_API aclError aclcpuCacheEraseStream(void *devPtr, aclrtStream stream)
{
    return use_call("aclcpuCacheEraseStream", devPtr, stream, true);
}

static void stats_out(const struct cache_stats *c, aclcpuCacheStats *out)
{
    memset(out, 0, sizeof(*out));
    out->allocatedBytes = c->allocated;
    out->requestedBytes = c->requested;
    out->reservedBytes = c->reserved;
    out->peakAllocatedBytes = c->peak_allocated;
    out->peakReservedBytes = c->peak_reserved;
    out->activeBlocks = c->active_blocks;
    out->pendingBlocks = c->pending_blocks;
    out->segments = c->segments;
    out->allocations = c->allocs;
    out->segmentAllocations = c->segment_allocs;
    out->segmentFrees = c->segment_frees;
}

static aclError device_arg(const char *fn, int32_t deviceId)
{
    if (deviceId >= 0 && (uint32_t)deviceId < device_count() && deviceId < ACLCPU_MAX_DEVICES)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device: valid ids are 0 "
                    "to %u", fn, deviceId, device_count() - 1);
}

ACLCPU_API aclError aclcpuCacheGetStats(int32_t deviceId, aclcpuCacheStats *stats)
{
    const char *fn = "aclcpuCacheGetStats";
    struct cache_stats c;
    aclError err;

    if (stats == NULL)
        return null_arg(fn, "stats");
    if ((err = device_arg(fn, deviceId)) != ACL_SUCCESS)
        return err;
    cachealloc_device_stats(deviceId, &c);
    stats_out(&c, stats);
    return ACL_SUCCESS;
}

ACLCPU_API aclError aclcpuCacheGetStreamStats(aclrtStream stream, aclcpuCacheStats *stats)
{
    const char *fn = "aclcpuCacheGetStreamStats";
    struct cache_stats c;
    struct stream *s;
    aclError err;

    if (stats == NULL)
        return null_arg(fn, "stats");
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    cachealloc_stream_stats(s, &c);
    stats_out(&c, stats);
    return ACL_SUCCESS;
}

ACLCPU_API aclError aclcpuCacheEmpty(int32_t deviceId)
{
    const char *fn = "aclcpuCacheEmpty";
    aclError err = device_arg(fn, deviceId);
    if (err != ACL_SUCCESS)
        return err;
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    (void)cachealloc_empty(deviceId);
    return ACL_SUCCESS;
}
