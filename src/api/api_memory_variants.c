/*
 * api_memory_variants.c - the allocation variants (aclrtMallocAlign32,
 * aclrtMallocCached, aclrtMallocWithCfg, aclrtMallocForTaskScheduler,
 * aclrtMallocHostWithCfg, the frees that synchronise the device first),
 * cache maintenance by address (aclrtMemFlush/aclrtMemInvalidate) and the
 * pointer and usage queries (aclrtPointerGetAttributes, aclrtCheckMemType,
 * aclrtMemGetAddressRange, aclrtGetMemUsageInfo).
 *
 * DESIGN: every call checks its arguments in the reference's order (the
 * ACL layer's checks, code 100000, before the runtime's, 107000) and then
 * asks devmem: a block's size, origin and device come from its arena or
 * from the table of mappings, so the answers are exact for everything
 * devmem knows. Padding follows the reference: aclrtMalloc and
 * aclrtMallocCached add 32 bytes unless the policy asks for 1 GiB pages;
 * aclrtMallocAlign32 and the configured allocations never do.
 *
 * Threads: any host thread. Locks: none here (devmem's mem_lock).
 */
#include <string.h>

#include "api_int.h"
#include "../services/devmem.h"

/* The runtime's mask of the kinds aclrtCheckMemType knows: device (0x2),
 * DVPP (0x8) and reserved virtual memory (0x20, RT_MEM_MASK_RSVD_TYPE;
 * the ACL header's ACL_RT_MEM_TYPE_RSVD says 0x10, which the runtime
 * refuses). */
#define MEM_TYPE_DEV 0x2u
#define MEM_TYPE_DVPP 0x8u
#define MEM_TYPE_RSVD 0x20u

/* Device memory of a size above this is backed by huge pages. */
#define HUGE_PAGE_BYTES (2u * 1024u * 1024u)
#define NORMAL_PAGE_BYTES 4096u

/* The largest configured request the runtime's rounding to 32 bytes does
 * not wrap (it has no padding, and no ACL-layer size check). */
#define CFG_MAX_SIZE (SIZE_MAX - 31)

static bool is_huge1g(aclrtMemMallocPolicy policy)
{
    return policy == ACL_MEM_MALLOC_HUGE1G_ONLY || policy == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

/* Charges an allocation of the current device: the failure names fn. */
static aclError alloc_on_current(const char *fn, void **devPtr, size_t size, bool padded)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    quarantine_poll(); /* blocks whose late work is done go back first */
    err = padded ? devmem_alloc(&ctx->dev->mem_used, ctx->dev->mem_total, size, devPtr)
                 : devmem_alloc_unpadded(&ctx->dev->mem_used, ctx->dev->mem_total, size, devPtr);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: %zu bytes (%zu with rounding%s) do not fit in device %d's memory: %llu of %llu "
                        "bytes in use (ACLCPU_DEVICE_MEMORY sets the size)",
                        fn, size, padded ? devmem_charge(size) : (size + 31) / 32 * 32,
                        padded ? " and padding" : "", ctx->dev->id,
                        (unsigned long long)load_relaxed(&ctx->dev->mem_used),
                        (unsigned long long)ctx->dev->mem_total);
    return ACL_SUCCESS;
}

aclError malloc_device(const char *fn, void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool padding)
{
    bool padded = padding && !is_huge1g(policy);
    size_t max = padded ? DEVMEM_MAX_DEVICE_SIZE : DEVMEM_MAX_UNPADDED_SIZE;

    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (size > max)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' (%zu) is too large: rounded up to 32 bytes%s "
                        "it would not fit a size_t (at most %zu)",
                        fn, size, padded ? " plus 32 bytes of padding" : "", max);
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    return alloc_on_current(fn, devPtr, size, padded);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    return malloc_device("aclrtMallocAlign32", devPtr, size, policy, false);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
    return malloc_device("aclrtMallocCached", devPtr, size, policy, true);
}

/* ---- configured allocations ------------------------------------------------------ */

static const char *attr_name(aclrtMallocAttrType a)
{
    static const char *const names[] = {"ACL_RT_MEM_ATTR_RSV", "ACL_RT_MEM_ATTR_MODULE_ID",
                                        "ACL_RT_MEM_ATTR_DEVICE_ID", "ACL_RT_MEM_ATTR_VA_FLAG"};
    return (unsigned)a < ACLCPU_ARRAY_SIZE(names) ? names[a] : "?";
}

/* A device allocation's attributes: RSV and MODULE_ID are free, any kind
 * but those and DEVICE_ID is refused; then the last DEVICE_ID (a repeated
 * attribute's last value counts) must name the current device. */
static aclError check_device_cfg(const char *fn, const aclrtMallocConfig *cfg, int32_t current)
{
    uint32_t device = (uint32_t)current;
    size_t device_at = 0;
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        const aclrtMallocAttribute *at = &cfg->attrs[i];
        if (at->attr == ACL_RT_MEM_ATTR_DEVICE_ID) {
            device = at->value.deviceId;
            device_at = i;
        } else if (at->attr != ACL_RT_MEM_ATTR_RSV && at->attr != ACL_RT_MEM_ATTR_MODULE_ID) {
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu].attr is %d (%s); device memory takes "
                            "RSV, MODULE_ID or DEVICE_ID (0..2)", fn, i, (int)at->attr, attr_name(at->attr));
        }
    }
    if (device != (uint32_t)current)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu] is ACL_RT_MEM_ATTR_DEVICE_ID %u, but the "
                        "current device is %d: device memory is allocated on the current device",
                        fn, device_at, device, current);
    return ACL_SUCCESS;
}

/* aclrtMallocWithCfg and aclrtMallocForTaskScheduler: the policy's page
 * kind, bandwidth and read-only bits are hints a CPU has no use for. */
static aclError malloc_with_cfg(const char *fn, void **devPtr, size_t size, const aclrtMallocConfig *cfg)
{
    struct context *ctx;
    aclError err;

    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (cfg != NULL && cfg->numAttrs != 0 && cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'cfg->attrs' is NULL but 'cfg->numAttrs' is %zu",
                        fn, cfg->numAttrs);
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (cfg != NULL && cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cfg->attrs' is NULL; a cfg must have attributes "
                        "(pass cfg NULL for none)", fn);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (cfg != NULL && (err = check_device_cfg(fn, cfg, ctx->dev->id)) != ACL_SUCCESS)
        return err;
    if (size > CFG_MAX_SIZE) /* the runtime's rounding would wrap to a 0-byte request */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is too large: rounded up to 32 bytes "
                        "it would wrap to 0 (at most %zu)", fn, size, (size_t)CFG_MAX_SIZE);
    return alloc_on_current(fn, devPtr, size, false);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg)
{
    (void)policy;
    return malloc_with_cfg("aclrtMallocWithCfg", devPtr, size, cfg);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig *cfg)
{
    (void)policy; /* the scheduler's memory is any device memory on a CPU */
    return malloc_with_cfg("aclrtMallocForTaskScheduler", devPtr, size, cfg);
}

/* Host allocations take MODULE_ID and VA_FLAG only. */
static aclError check_host_cfg(const char *fn, const aclrtMallocConfig *cfg)
{
    if (cfg->attrs == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cfg->attrs' is NULL; a cfg must have attributes "
                        "(pass cfg NULL for none)", fn);
    for (size_t i = 0; i < cfg->numAttrs; i++) {
        aclrtMallocAttrType a = cfg->attrs[i].attr;
        if (a != ACL_RT_MEM_ATTR_MODULE_ID && a != ACL_RT_MEM_ATTR_VA_FLAG)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: cfg->attrs[%zu].attr is %d (%s); host memory takes "
                            "MODULE_ID or VA_FLAG only", fn, i, (int)a, attr_name(a));
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg)
{
    const char *fn = "aclrtMallocHostWithCfg";
    struct context *ctx;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (cfg != NULL && (err = check_host_cfg(fn, cfg)) != ACL_SUCCESS)
        return err;
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (size > DEVMEM_MAX_HOST_SIZE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%llu) is too large: rounded up to 32 bytes "
                        "it would wrap to 0 (at most %zu)", fn, (unsigned long long)size,
                        (size_t)DEVMEM_MAX_HOST_SIZE);
    quarantine_poll();
    err = devmem_alloc_host((size_t)size, ptr);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory for %llu bytes", fn, (unsigned long long)size);
    return ACL_SUCCESS;
}

/* ---- frees after a device synchronisation ---------------------------------------- */

/* Waits for the current device's streams, as the reference's runtime does
 * before it frees; a failed sync is returned and nothing is freed. */
static aclError sync_then_free(const char *fn, void *p, bool device)
{
    aclError err;
    if (p == NULL)
        return null_arg(fn, device ? "devPtr" : "hostPtr");
    if ((err = aclrtSynchronizeDevice()) != ACL_SUCCESS)
        return acl_fail(err, "%s: synchronising the device before the free failed; %p is not freed", fn, p);
    return device ? free_device_block(fn, p) : free_host_block(fn, p); /* as aclrtFree / aclrtFreeHost */
}

ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr)
{
    return sync_then_free("aclrtFreeWithDevSync", devPtr, true);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr)
{
    return sync_then_free("aclrtFreeHostWithDevSync", hostPtr, false);
}

/* ---- cache maintenance by address ------------------------------------------------ */

/* CPU caches are coherent with every core: nothing to write back or drop. */
static aclError check_cache_op(const char *fn, const void *devPtr, size_t size)
{
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size)
{
    return check_cache_op("aclrtMemFlush", devPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size)
{
    return check_cache_op("aclrtMemInvalidate", devPtr, size);
}

/* ---- pointer queries --------------------------------------------------------------- */

static bool origin_is_device(enum mem_origin o)
{
    return o == ORIGIN_MALLOC || o == ORIGIN_VMM || o == ORIGIN_IPC;
}

static void describe_range(const struct mem_range *r, aclrtPtrAttributes *out)
{
    memset(out, 0, sizeof(*out));
    if (origin_is_device(r->origin) || r->origin == ORIGIN_MANAGED) {
        out->location.type = r->origin == ORIGIN_MANAGED ? ACL_MEM_LOCATION_TYPE_MANAGED
                                                         : ACL_MEM_LOCATION_TYPE_DEVICE;
        out->location.id = r->device < 0 ? 0u : (uint32_t)r->device;
        out->pageSize = r->size >= HUGE_PAGE_BYTES ? HUGE_PAGE_BYTES : NORMAL_PAGE_BYTES;
    } else {
        out->location.type = ACL_MEM_LOCATION_TYPE_HOST; /* pinned or registered: id has no meaning */
        out->pageSize = NORMAL_PAGE_BYTES;
    }
}

ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
    const char *fn = "aclrtPointerGetAttributes";
    struct mem_range r;

    if (ptr == NULL || attributes == NULL)
        return null_arg(fn, ptr == NULL ? "ptr" : "attributes");
    if (devmem_lookup(ptr, &r)) {
        describe_range(&r, attributes);
        return ACL_SUCCESS;
    }
    if (devmem_in_arena(ptr))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'ptr' (%p) is device or pinned memory that is not "
                        "allocated (freed, or past the end of its block)", fn, ptr);
    memset(attributes, 0, sizeof(*attributes));
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED; /* ordinary host memory */
    attributes->pageSize = NORMAL_PAGE_BYTES;
    return ACL_SUCCESS;
}

/* Whether p is of a kind mem_type names. */
static bool of_mem_type(const void *p, uint32_t mem_type)
{
    struct mem_range r;
    if (p == NULL || !devmem_lookup(p, &r))
        return false;
    if (r.origin == ORIGIN_VMM)
        return (mem_type & MEM_TYPE_RSVD) != 0;
    return (mem_type & MEM_TYPE_DEV) != 0 && (r.origin == ORIGIN_MALLOC || r.origin == ORIGIN_IPC);
}

ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
                                               uint32_t *checkResult, uint32_t reserve)
{
    const char *fn = "aclrtCheckMemType";
    struct context *ctx;
    aclError err;

    if (addrList == NULL || checkResult == NULL)
        return null_arg(fn, addrList == NULL ? "addrList" : "checkResult");
    *checkResult = 0;
    if (reserve != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'reserve' is %u; it is reserved and must be 0", fn,
                        reserve);
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is 0; addrList must hold an address", fn);
    if ((memType & ~(MEM_TYPE_DEV | MEM_TYPE_RSVD | MEM_TYPE_DVPP)) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'memType' is %#x; it may only OR together 0x2 "
                        "(ACL_RT_MEM_TYPE_DEV), 0x8 (ACL_RT_MEM_TYPE_DVPP) and 0x20 (reserved memory)", fn, memType);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    for (uint32_t i = 0; i < size; i++)
        if (!of_mem_type(addrList[i], memType))
            return ACL_SUCCESS;
    *checkResult = 1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize)
{
    const char *fn = "aclrtMemGetAddressRange";
    struct mem_range r;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (pbase == NULL && psize == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: arguments 'pbase' and 'psize' are both NULL; at least one "
                        "must receive the answer", fn);
    if (!devmem_lookup(ptr, &r))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'ptr' (%p) lies in no live allocation or mapping (freed, "
                        "past the end of its block, or host memory aclcpu did not allocate)", fn, ptr);
    if (pbase != NULL)
        *pbase = r.base;
    if (psize != NULL)
        *psize = r.size;
    return ACL_SUCCESS;
}

/* ---- usage --------------------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum)
{
    const char *fn = "aclrtGetMemUsageInfo";
    struct device *d;

    if (memUsageInfo == NULL || outputNum == NULL)
        return null_arg(fn, memUsageInfo == NULL ? "memUsageInfo" : "outputNum");
    *outputNum = 0;
    if (inputNum == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'inputNum' is 0; ask for one component or more", fn);
    if ((d = device_get(deviceId)) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device: the range is "
                        "[0, %u)", fn, deviceId, device_count());
    /* One component: the program's own allocations. */
    memset(&memUsageInfo[0], 0, sizeof(memUsageInfo[0]));
    strcpy(memUsageInfo[0].name, "APP");
    memUsageInfo[0].curMemSize = load_relaxed(&d->mem_used);
    memUsageInfo[0].memPeakSize = devmem_peak(&d->mem_used);
    if (memUsageInfo[0].memPeakSize < memUsageInfo[0].curMemSize) /* a racing allocation's charge came first */
        memUsageInfo[0].memPeakSize = memUsageInfo[0].curMemSize;
    *outputNum = 1;
    return ACL_SUCCESS;
}
