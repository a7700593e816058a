/*
 * api_managed.c - managed (unified) memory: aclrtMemAllocManaged,
 * aclrtMemManagedAdvise, aclrtMemManagedGetAttr(s),
 * aclrtMemManagedPrefetchAsync and aclrtMemManagedPrefetchBatchAsync.
 *
 * DESIGN: checks in the reference's order: the ACL layer's (memory.cpp),
 * then the runtime's (api_error_uvm.cc: advice and attribute ranges,
 * device ids), then the context and the SoC (UVM is an A2 and A3
 * feature), then what the driver would refuse: a range that is not inside
 * one managed allocation, or not in whole 2 MiB pages where the reference
 * asks for them. A prefetch is a stream task (TASK_MEM_PREFETCH): when it
 * runs it records the pages' new location and, for a device, backs them
 * with memory; the profile's modelled chip costs it as a copy of its
 * bytes. aclrtFree frees managed memory (api_memory.c asks hostmem).
 *
 * Threads: any host thread. Locks: none here (hostmem's).
 */
#include <stdio.h>

#include "api_int.h"
#include "../services/hostmem.h"

#define ATTR_FIRST ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY
#define ATTR_LAST ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID

static bool soc_has_uvm(const struct soc_profile *soc) { return soc->family == SOC_A2 || soc->family == SOC_A3; }

static aclError require_uvm(const char *fn, const struct soc_profile *soc)
{
    if (soc_has_uvm(soc))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no unified virtual memory (A2 and A3 have)", fn,
                    soc->name);
}

/* The runtime's check of a location naming a device: its id must be one. */
static aclError check_location_device(const char *fn, const char *arg, aclrtMemManagedLocation loc)
{
    if (loc.type == ACL_MEM_LOCATIONTYPE_DEVICE && (loc.id < 0 || (uint32_t)loc.id >= device_count()))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s.id' (%d) is not a device: it must be in "
                        "[0, %u]", fn, arg, loc.id, device_count() - 1);
    return ACL_SUCCESS;
}

static bool location_type_valid(aclrtMemManagedLocationType type)
{
    return type >= ACL_MEM_LOCATIONTYPE_DEVICE && type <= ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT;
}

/* What the driver refuses in a range that must be whole pages of one allocation. */
static aclError check_pages(const char *fn, const char *arg, const void *ptr, uint64_t size)
{
    if ((uintptr_t)ptr % MANAGED_PAGE != 0 || size % MANAGED_PAGE != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%llu) ('%s') is not whole 2 MiB pages: address and "
                        "size must be multiples of 2 MiB", fn, ptr, (unsigned long long)size, arg);
    if (!managed_covers(ptr, size))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%llu) ('%s') is not inside one allocation of "
                        "aclrtMemAllocManaged", fn, ptr, (unsigned long long)size, arg);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag)
{
    const char *fn = "aclrtMemAllocManaged";
    struct context *ctx;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (flag != ACL_RT_MEM_ATTACH_GLOBAL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) must be ACL_RT_MEM_ATTACH_GLOBAL (1)", fn,
                        flag);
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is 0", fn);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if ((err = require_uvm(fn, ctx->dev->soc)) != ACL_SUCCESS)
        return err;
    if (managed_alloc(size, ctx->dev->id, ptr) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: cannot map %llu bytes (rounded up to 2 MiB) of "
                        "unified memory", fn, (unsigned long long)size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
                                                   aclrtMemManagedAdviseType advise,
                                                   aclrtMemManagedLocation location)
{
    const char *fn = "aclrtMemManagedAdvise";
    struct context *ctx;
    aclError err;
    bool needs_location;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if ((unsigned)advise > ACL_MEM_ADVISE_UNSET_ACCESSED_BY)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'advise' (%d) is out of range [0, %d]", fn,
                        (int)advise, ACL_MEM_ADVISE_UNSET_ACCESSED_BY);
    if ((err = check_location_device(fn, "location", location)) != ACL_SUCCESS)
        return err;
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if ((err = require_uvm(fn, ctx->dev->soc)) != ACL_SUCCESS)
        return err;
    needs_location = advise == ACL_MEM_ADVISE_SET_PREFERRED_LOCATION || advise == ACL_MEM_ADVISE_SET_ACCESSED_BY ||
                     advise == ACL_MEM_ADVISE_UNSET_ACCESSED_BY;
    if (needs_location && !location_type_valid(location.type))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'location.type' (%d) is not a location: advice %d "
                        "needs DEVICE, HOST, HOST_NUMA or HOST_NUMA_CURRENT", fn, (int)location.type, (int)advise);
    if ((err = check_pages(fn, "ptr", ptr, size)) != ACL_SUCCESS)
        return err;
    if (!managed_advise(ptr, size, advise, (struct managed_loc){location.type, location.id}))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%llu) was freed meanwhile", fn, ptr,
                        (unsigned long long)size);
    return ACL_SUCCESS;
}

static aclError check_attribute(const char *fn, const char *arg, aclrtMemManagedRangeAttribute attribute)
{
    if (attribute < ATTR_FIRST || attribute > ATTR_LAST)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' (%d) is out of range [%d, %d]", fn, arg,
                        (int)attribute, ATTR_FIRST, ATTR_LAST);
    return ACL_SUCCESS;
}

/* One attribute into data, with the driver's refusals as messages. */
static aclError read_attribute(const char *fn, aclrtMemManagedRangeAttribute attribute, const void *ptr, size_t size,
                               void *data, size_t dataSize)
{
    if (!managed_covers(ptr, size))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%zu) is not inside one allocation of "
                        "aclrtMemAllocManaged", fn, ptr, size);
    if (managed_get_attr(attribute, ptr, size, data, dataSize) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: data size %zu does not suit attribute %d: %s", fn, dataSize,
                        (int)attribute, attribute == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY
                            ? "ACCESSED_BY fills an array of int32_t (a non-zero multiple of 4 bytes)"
                            : "it is one int32_t (4 bytes)");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
                                                    size_t size, void *data, size_t dataSize)
{
    const char *fn = "aclrtMemManagedGetAttr";
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (data == NULL)
        return null_arg(fn, "data");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if ((err = check_attribute(fn, "attribute", attribute)) != ACL_SUCCESS)
        return err;
    if ((err = require_uvm(fn, soc_configured())) != ACL_SUCCESS)
        return err;
    return read_attribute(fn, attribute, ptr, size, data, dataSize);
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes,
                                                     size_t numAttributes, const void *ptr, size_t size,
                                                     void **data, size_t *dataSizes)
{
    const char *fn = "aclrtMemManagedGetAttrs";
    char arg[48];
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (attributes == NULL)
        return null_arg(fn, "attributes");
    if (data == NULL)
        return null_arg(fn, "data");
    if (dataSizes == NULL)
        return null_arg(fn, "dataSizes");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    for (size_t i = 0; i < numAttributes; i++) {
        snprintf(arg, sizeof(arg), "attributes[%zu]", i);
        if ((err = check_attribute(fn, arg, attributes[i])) != ACL_SUCCESS)
            return err;
    }
    if ((err = require_uvm(fn, soc_configured())) != ACL_SUCCESS)
        return err;
    for (size_t i = 0; i < numAttributes; i++) {
        if (data[i] == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'data[%zu]' is NULL", fn, i);
        if ((err = read_attribute(fn, attributes[i], ptr, size, data[i], dataSizes[i])) != ACL_SUCCESS)
            return err;
    }
    return ACL_SUCCESS;
}

/* Checks one prefetch range and location after the argument checks. */
static aclError check_prefetch(const char *fn, const char *arg, const void *ptr, size_t size,
                               aclrtMemManagedLocation loc)
{
    if (!location_type_valid(loc.type))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: location type %d of '%s' is not a location: it must be "
                        "DEVICE, HOST, HOST_NUMA or HOST_NUMA_CURRENT", fn, (int)loc.type, arg);
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the size of '%s' is 0", fn, arg);
    return check_pages(fn, arg, ptr, size);
}

/* Queues one prefetch task of [ptr, ptr+size) to loc on s. */
static aclError issue_prefetch(const char *fn, aclrtStream stream, struct stream *s, const void *ptr, size_t size,
                               aclrtMemManagedLocation loc)
{
    struct task *t;
    aclError err = stream_task_new(fn, TASK_MEM_PREFETCH, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.prefetch.ptr = ptr;
    t->u.prefetch.size = size;
    t->u.prefetch.loc_type = (uint8_t)loc.type;
    t->u.prefetch.loc_id = loc.id;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
                                                          aclrtMemManagedLocation location, uint32_t flags,
                                                          aclrtStream stream)
{
    const char *fn = "aclrtMemManagedPrefetchAsync";
    struct stream *s;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' (%u) is reserved and must be 0", fn, flags);
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if ((err = check_location_device(fn, "location", location)) != ACL_SUCCESS)
        return err;
    if ((err = require_uvm(fn, load_relaxed(&s->dev)->soc)) != ACL_SUCCESS)
        return err;
    if ((err = check_prefetch(fn, "ptr", ptr, size, location)) != ACL_SUCCESS)
        return err;
    return issue_prefetch(fn, stream, s, ptr, size, location);
}

/* The runtime's checks of the batch's index array, in its order. */
static aclError check_batch_indexes(const char *fn, const void **ptrs, size_t count,
                                    const aclrtMemManagedLocation *locs, const size_t *idxs, size_t nlocs)
{
    aclError err;
    char arg[48];
    if (idxs[0] != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'prefetchLocIdxs[0]' (%zu) must be 0", fn, idxs[0]);
    for (size_t i = 0; i < count; i++)
        if (ptrs[i] == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'ptrs[%zu]' is NULL", fn, i);
    for (size_t k = 0; k < nlocs; k++) {
        if (idxs[k] >= count)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'prefetchLocIdxs[%zu]' (%zu) must be less "
                            "than count (%zu)", fn, k, idxs[k], count);
        if (k > 0 && idxs[k] <= idxs[k - 1])
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'prefetchLocIdxs[%zu]' (%zu) must be greater "
                            "than prefetchLocIdxs[%zu] (%zu)", fn, k, idxs[k], k - 1, idxs[k - 1]);
    }
    for (size_t k = 0; k < nlocs; k++) {
        snprintf(arg, sizeof(arg), "prefetchLocs[%zu]", k);
        if ((err = check_location_device(fn, arg, locs[k])) != ACL_SUCCESS)
            return err;
    }
    return ACL_SUCCESS;
}

/* The location that serves range i: the last k with idxs[k] <= i. */
static aclrtMemManagedLocation location_of(size_t i, const aclrtMemManagedLocation *locs, const size_t *idxs,
                                           size_t nlocs)
{
    size_t k = 0;
    while (k + 1 < nlocs && idxs[k + 1] <= i)
        k++;
    return locs[k];
}

ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                                               aclrtMemManagedLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               uint64_t flags, aclrtStream stream)
{
    const char *fn = "aclrtMemManagedPrefetchBatchAsync";
    struct stream *s;
    char arg[32];
    aclError err;

    if (ptrs == NULL)
        return null_arg(fn, "ptrs");
    if (sizes == NULL)
        return null_arg(fn, "sizes");
    if (prefetchLocs == NULL)
        return null_arg(fn, "prefetchLocs");
    if (prefetchLocIdxs == NULL)
        return null_arg(fn, "prefetchLocIdxs");
    if (count == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' is 0", fn);
    if (numPrefetchLocs == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'numPrefetchLocs' is 0", fn);
    if (flags != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' (%llu) is reserved and must be 0", fn,
                        (unsigned long long)flags);
    if (count < numPrefetchLocs)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'count' (%zu) must be greater than or equal to "
                        "numPrefetchLocs %zu", fn, count, numPrefetchLocs);
    if ((err = check_batch_indexes(fn, ptrs, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs)) != ACL_SUCCESS)
        return err;
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if ((err = require_uvm(fn, load_relaxed(&s->dev)->soc)) != ACL_SUCCESS)
        return err;
    /* Every range is checked before any is queued: the batch goes whole or not at all. */
    for (size_t i = 0; i < count; i++) {
        snprintf(arg, sizeof(arg), "ptrs[%zu]", i);
        err = check_prefetch(fn, arg, ptrs[i], sizes[i], location_of(i, prefetchLocs, prefetchLocIdxs,
                                                                      numPrefetchLocs));
        if (err != ACL_SUCCESS)
            return err;
    }
    for (size_t i = 0; i < count && err == ACL_SUCCESS; i++)
        err = issue_prefetch(fn, stream, s, ptrs[i], sizes[i],
                             location_of(i, prefetchLocs, prefetchLocIdxs, numPrefetchLocs));
    return err;
}
