/*
 * api_mempool.c - stream-ordered memory pools (acl/acl_rt_memory_soma.h).
 *
 * DESIGN: the reference's checks in its order: the ACL layer's
 * (memory.cpp: NULLs, the properties' fixed fields), then the runtime's
 * (api_impl_soma.cc, soma.cc: the stream and its context, the pool, the
 * pointer). Codes are the ones its runtime errors become: a pool that is
 * gone, full or busy is 507000 (its pool errors have no ACL code of their
 * own), a bad attribute or pointer 107000. An allocation takes effect at
 * once (the memory is usable by work issued after it); a free is a
 * stream task (TASK_POOL_FREE) that returns the block when it is released
 * (services/mempool.c). A pointer that is no pool's but starts an
 * aclrtMalloc block is freed in stream order too, as the reference does.
 *
 * Threads: any host thread. Locks: none here (pool_lock in services).
 */
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "api_int.h"
#include "../services/devmem.h"
#include "../services/mempool.h"

static aclError pool_gone(const char *fn, const void *h)
{
    return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'memPool' (%p) is not a live memory pool: it was "
                    "destroyed, or never made by aclrtMemPoolCreate", fn, h);
}

/* The device the properties name, open, with its memory counter. */
static aclError pool_device(const char *fn, int32_t id, struct device **out)
{
    struct device *d = device_get(id);
    bool open = false;
    if (d != NULL) {
        plat_mutex_lock(&d->lock);
        open = d->open;
        plat_mutex_unlock(&d->lock);
    }
    if (!open)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'poolProps->location.id' (%d) is not a device "
                        "in use (aclrtSetDevice opens one)", fn, id);
    *out = d;
    return ACL_SUCCESS;
}

static bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0)
            return false;
    return true;
}

/* The pool size asked for on a device of total bytes: 0 means its memory
 * rounded down to 2 MiB, anything else is rounded up; false if that
 * exceeds the device's memory. */
static bool pool_size(size_t asked, uint64_t total, size_t *out)
{
    uint64_t rounded;
    if (asked == 0) {
        *out = (size_t)(total / MEMPOOL_BLOCK * MEMPOOL_BLOCK);
        return true;
    }
    if (asked > total) /* also keeps the rounding below from wrapping */
        return false;
    rounded = ((uint64_t)asked + MEMPOOL_BLOCK - 1) / MEMPOOL_BLOCK * MEMPOOL_BLOCK;
    *out = (size_t)rounded;
    return rounded <= total;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps)
{
    const char *fn = "aclrtMemPoolCreate";
    struct context *ctx;
    struct device *d = NULL;
    size_t max;
    aclError err;

    if (memPool == NULL)
        return null_arg(fn, "memPool");
    if (poolProps == NULL)
        return null_arg(fn, "poolProps");
    if (poolProps->allocType != ACL_MEM_ALLOCATION_TYPE_PINNED)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'poolProps->allocType' (%d) must be "
                        "MEM_ALLOCATION_TYPE_PINNED(0)", fn, (int)poolProps->allocType);
    if (poolProps->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'poolProps->location.type' (%d) must be "
                        "MEM_LOCATION_TYPE_DEVICE(1)", fn, (int)poolProps->location.type);
    if (!all_zero(poolProps->reserved, sizeof(poolProps->reserved)))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'poolProps->reserved' is reserved and must be all "
                        "zero", fn);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if ((err = pool_device(fn, poolProps->location.id, &d)) != ACL_SUCCESS)
        return err;
    if (!pool_size(poolProps->maxSize, d->mem_total, &max))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'poolProps->maxSize' (%zu) rounded up to 2 MiB "
                        "exceeds device %d's memory (%llu bytes)", fn, poolProps->maxSize, d->id,
                        (unsigned long long)d->mem_total);
    if (mempool_create(d->id, &d->mem_used, d->mem_total, max, memPool) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory or pool slots (1024)", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool)
{
    const char *fn = "aclrtMemPoolDestroy";
    if (memPool == NULL)
        return null_arg(fn, "memPool");
    if (!mempool_live(memPool))
        return pool_gone(fn, memPool);
    if (mempool_destroy(memPool) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: memory pool %p still has blocks in use or waiting for "
                        "their aclrtMemPoolFreeAsync to run: free them and synchronise first", fn, memPool);
    return ACL_SUCCESS;
}

/* The checks SetAttr and GetAttr share: pool, value, then a live pool. */
static aclError attr_args(const char *fn, aclrtMemPool memPool, const void *value)
{
    if (memPool == NULL)
        return null_arg(fn, "memPool");
    if (value == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'value' is NULL", fn);
    if (!mempool_live(memPool))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'memPool' (%p) is not a live memory pool: create "
                        "the pool before using its attributes", fn, memPool);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
    const char *fn = "aclrtMemPoolSetAttr";
    aclError err = attr_args(fn, memPool, value);
    if (err != ACL_SUCCESS)
        return err;
    if (attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT || attr == ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: attribute %d is read-only and cannot be set", fn, (int)attr);
    if (mempool_set_attr(memPool, attr, value) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: attribute %d: %s", fn, (int)attr,
                        attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH || attr == ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH
                            ? "a high mark can only be reset, with the value 0"
                            : "not an aclrtMemPoolAttr (1..8)");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value)
{
    const char *fn = "aclrtMemPoolGetAttr";
    aclError err = attr_args(fn, memPool, value);
    if (err != ACL_SUCCESS)
        return err;
    if (mempool_get_attr(memPool, attr, value) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: attribute %d is not an aclrtMemPoolAttr (1..8)", fn,
                        (int)attr);
    return ACL_SUCCESS;
}

/* The stream of a pool operation: live, and of the current context. */
static aclError pool_stream(const char *fn, aclrtStream stream, struct stream **s)
{
    aclError err = stream_resolve(fn, stream, s);
    if (err != ACL_SUCCESS)
        return err;
    if (stream_ctx(*s) != ctx_current())
        return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream' (%p) belongs to another context than "
                        "the current one", fn, stream);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream)
{
    const char *fn = "aclrtMemPoolMallocAsync";
    struct stream *s;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (memPool == NULL)
        return null_arg(fn, "memPool");
    if (stream == NULL)
        return null_arg(fn, "stream");
    if (size == 0)
        return ACL_SUCCESS; /* as the reference: nothing allocated, *ptr untouched */
    if ((err = pool_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if (size > SIZE_MAX - MEMPOOL_BLOCK)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) overflows when rounded up to 2 MiB",
                        fn, size);
    if (!mempool_live(memPool))
        return pool_gone(fn, memPool);
    if (mempool_alloc(memPool, size, s, ptr) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: memory pool %p cannot take %zu more bytes (rounded up to "
                        "2 MiB): its maxSize or the device's memory is used up", fn, memPool, size);
    return ACL_SUCCESS;
}

/* Queues on s the free task of (ptr, ticket); undoes the free if s refuses it. */
static aclError issue_free(const char *fn, aclrtStream stream, struct stream *s, void *ptr, uint64_t ticket)
{
    struct task *t;
    aclError err = stream_task_new(fn, TASK_POOL_FREE, &t);
    if (err == ACL_SUCCESS) {
        t->u.pool_free.ptr = ptr;
        t->u.pool_free.ticket = ticket;
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
    }
    if (err != ACL_SUCCESS)
        mempool_free_cancel(ptr, ticket);
    return err;
}

/* Whether p starts an aclrtMalloc block (which a stream-ordered free may free). */
static bool starts_device_block(void *p)
{
    struct mem_range r;
    return devmem_lookup(p, &r) && r.base == p && r.origin == ORIGIN_MALLOC;
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream)
{
    const char *fn = "aclrtMemPoolFreeAsync";
    struct stream *s;
    uint64_t ticket = 0;
    size_t size = 0;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (stream == NULL)
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'stream' is NULL", fn);
    if ((err = pool_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    switch (mempool_free_begin(ptr, s, &ticket, &size)) {
    case POOL_FREE_QUEUED: break;
    case POOL_FREE_NOT_BLOCK:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'ptr' (%p) is inside a memory pool but does not "
                        "start a block in use (freed already, or an interior pointer)", fn, ptr);
    case POOL_FREE_NOT_POOL:
        if (!starts_device_block(ptr))
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'ptr' (%p) is neither a memory pool's block "
                            "nor the start of an aclrtMalloc block", fn, ptr);
        break; /* ticket 0: freed with aclrtFree's rules when the task is released */
    }
    if (ticket != 0 && check_on())
        check_pool_free_next(ptr, size); /* reuse elsewhere waits for this free task */
    return issue_free(fn, stream, s, ptr, ticket);
}

ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep)
{
    const char *fn = "aclrtMemPoolTrimTo";
    if (memPool == NULL)
        return null_arg(fn, "memPool");
    if (mempool_trim(memPool, minBytesToKeep) != ACL_SUCCESS)
        return pool_gone(fn, memPool);
    return ACL_SUCCESS;
}
