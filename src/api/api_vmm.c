/*
 * api_vmm.c - virtual memory and shareable handles: reserve, physical
 * allocations, map/unmap, access, handle queries, export/import between
 * processes.
 *
 * DESIGN: the checks of the reference's ACL layer come first, in its order
 * and with its code (100000: NULLs, size 0, reserved arguments, property
 * values), then those of its runtime layer (107000/107001/107002: flags,
 * share types, device ids, the current context); what the driver checks
 * (ranges, handles, pids) is core/vmm.c's. One call into core/vmm.c each.
 *
 * Threads: any host thread. Locks: none here (vmm_lock in core/vmm.c).
 */
#include <string.h>

#include "api_int.h"
#include "../core/vmm.h"
#include "../platform/platform.h"

static aclError reserved_nonzero(const char *fn, const char *arg, uint64_t value, const char *want)
{
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' (%llu) is reserved and must be %s", fn, arg,
                    (unsigned long long)value, want);
}

static int32_t current_device(void)
{
    struct context *ctx = ctx_current();
    return ctx != NULL ? ctx->dev->id : -1;
}

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags)
{
    const char *fn = "aclrtReserveMemAddress";
    if (virPtr == NULL)
        return null_arg(fn, "virPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0 && flags != 1) /* 1 is kept for older callers */
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' (%llu) must be 0", fn,
                        (unsigned long long)flags);
    return vmm_reserve(fn, size, alignment, expectPtr, current_device(), virPtr);
}

/* The reservation the runtime makes when the device must not back it with
 * uncached memory (bit 9 of the driver's flags): the same checks, and on a
 * CPU the same reservation, all memory being cached. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
                                                              void *expectPtr, uint64_t flags)
{
    const char *fn = "aclrtReserveMemAddressNoUCMemory";
    if (virPtr == NULL)
        return null_arg(fn, "virPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0 && flags != 1) /* 1 is kept for older callers */
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' (%llu) must be 0", fn,
                        (unsigned long long)flags);
    return vmm_reserve(fn, size, alignment, expectPtr, current_device(), virPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr)
{
    if (virPtr == NULL)
        return null_arg("aclrtReleaseMemAddress", "virPtr");
    return vmm_release("aclrtReleaseMemAddress", virPtr);
}

static bool is_ddr_attr(aclrtMemAttr a)
{
    return a == ACL_DDR_MEM_HUGE || a == ACL_DDR_MEM_NORMAL || a == ACL_DDR_MEM_P2P_HUGE ||
           a == ACL_DDR_MEM_P2P_NORMAL;
}

/* The property checks aclrtMallocPhysical and the granularity query share:
 * DDR pages only on the host, and only attributes that name a page size. */
static aclError check_mem_attr(const char *fn, const aclrtPhysicalMemProp *prop)
{
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE && is_ddr_attr(prop->memAttr))
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: prop->memAttr (%d) is a DDR attribute: only for location types HOST (0) or "
                        "HOST_NUMA (4)", fn, (int)prop->memAttr);
    if (vmm_granularity(prop->memAttr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM) == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: prop->memAttr (%d) is not a physical memory attribute (the *_HUGE, *_NORMAL and "
                        "*_HUGE1G ones)", fn, (int)prop->memAttr);
    return ACL_SUCCESS;
}

/* The runtime's device check of a property naming a device. */
static aclError check_prop_device(const char *fn, const aclrtPhysicalMemProp *prop)
{
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_DEVICE && prop->location.id >= device_count())
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: prop->location.id (%u) is not a device (there are %u)",
                        fn, prop->location.id, device_count());
    return ACL_SUCCESS;
}

static aclError check_physical_prop(const char *fn, const aclrtPhysicalMemProp *prop)
{
    aclrtMemLocationType t = prop->location.type;
    if (prop->handleType != ACL_MEM_HANDLE_TYPE_NONE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: prop->handleType (%d) must be ACL_MEM_HANDLE_TYPE_NONE (0)", fn,
                        (int)prop->handleType);
    if (prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: prop->allocationType (%d) must be ACL_MEM_ALLOCATION_TYPE_PINNED (0)", fn,
                        (int)prop->allocationType);
    if (t == ACL_MEM_LOCATION_TYPE_UNREGISTERED || t == ACL_MEM_LOCATION_TYPE_MANAGED)
        return acl_fail(ACL_ERROR_INVALID_PARAM,
                        "%s: prop->location.type (%d): physical memory is not of location type %s", fn, (int)t,
                        t == ACL_MEM_LOCATION_TYPE_MANAGED ? "MANAGED" : "UNREGISTERED");
    return check_mem_attr(fn, prop);
}

/* The device a physical allocation is charged to: NULL for host memory. */
static aclError physical_device(const char *fn, const aclrtPhysicalMemProp *prop, struct device **out)
{
    aclError err = check_prop_device(fn, prop);
    struct context *ctx;
    *out = NULL;
    if (err != ACL_SUCCESS)
        return err;
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_HOST_NUMA)
        return ctx_require(fn, &ctx);
    if (prop->location.type == ACL_MEM_LOCATION_TYPE_HOST)
        return ACL_SUCCESS;
    if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: prop->location.type (%d) is not HOST, DEVICE or HOST_NUMA",
                        fn, (int)prop->location.type);
    *out = device_get((int32_t)prop->location.id);
    if (!(*out)->open)
        return acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: device %u is not open in this process (aclrtSetDevice first)",
                        fn, prop->location.id);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags)
{
    const char *fn = "aclrtMallocPhysical";
    struct device *dev;
    aclError err;

    if (handle == NULL || prop == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "prop");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0)
        return reserved_nonzero(fn, "flags", flags, "0");
    err = check_physical_prop(fn, prop);
    if (err == ACL_SUCCESS)
        err = physical_device(fn, prop, &dev);
    if (err == ACL_SUCCESS)
        err = vmm_malloc_physical(fn, size, prop, dev, handle);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
    if (handle == NULL)
        return null_arg("aclrtFreePhysical", "handle");
    return vmm_free_physical("aclrtFreePhysical", handle);
}

ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags)
{
    const char *fn = "aclrtMapMem";
    if (virPtr == NULL || handle == NULL)
        return null_arg(fn, virPtr == NULL ? "virPtr" : "handle");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0)
        return reserved_nonzero(fn, "flags", flags, "0");
    return vmm_map(fn, virPtr, size, offset, handle);
}

/* aclrtMapMem's checks (memory.cpp aclrtMemMapNoAccessImpl), then a
 * mapping no location may touch until aclrtMemSetAccess grants it. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                                 uint64_t flags)
{
    const char *fn = "aclrtMemMapNoAccess";
    if (virPtr == NULL || handle == NULL)
        return null_arg(fn, virPtr == NULL ? "virPtr" : "handle");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (flags != 0)
        return reserved_nonzero(fn, "flags", flags, "0");
    return vmm_map_no_access(fn, virPtr, size, offset, handle);
}

/* memory.cpp aclrtMemMapSelectedLinkImpl: NULLs, size 0, linkIdx above 1
 * (100000); then api_impl.cc MemMapSelectedLink: from virPtrSrc on, each
 * mapping's physical allocation is mapped again at virPtrDst (the link
 * picks a route; a CPU has one). */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx)
{
    const char *fn = "aclrtMemMapSelectedLink";
    if (virPtrDst == NULL || virPtrSrc == NULL)
        return null_arg(fn, virPtrDst == NULL ? "virPtrDst" : "virPtrSrc");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0; it must be greater than 0", fn);
    if (linkIdx > ACL_RT_MEM_LINK_IDX_1)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'linkIdx' (%u) must be 0 or 1", fn, linkIdx);
    return vmm_map_like(fn, virPtrDst, size, virPtrSrc);
}

/* memory.cpp aclrtMemMapSetLinkImpl: handle NULL (100000); api_error.cc
 * MemMapSetLink: adviceLink above UB_MULTI_PORT_PATH (107000); then the
 * driver's: a live physical allocation (107000). */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink)
{
    const char *fn = "aclrtMemMapSetLink";
    if (handle == NULL)
        return null_arg(fn, "handle");
    if ((uint32_t)adviceLink > ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'adviceLink' (%d) is not an aclrtMemLinkType (0..3)",
                        fn, (int)adviceLink);
    return vmm_set_link(fn, handle);
}

ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr)
{
    if (virPtr == NULL)
        return null_arg("aclrtUnmapMem", "virPtr");
    return vmm_unmap("aclrtUnmapMem", virPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count)
{
    const char *fn = "aclrtMemSetAccess";
    /* The reference checks these in its runtime layer: 107000, not 100000. */
    if (virPtr == NULL || desc == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        virPtr == NULL ? "virPtr" : "desc");
    return vmm_set_access(fn, virPtr, size, desc, count);
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag)
{
    const char *fn = "aclrtMemGetAccess";
    if (virPtr == NULL)
        return null_arg(fn, "virPtr");
    if (location == NULL || flag == NULL)
        return null_arg(fn, location == NULL ? "location" : "flag");
    return vmm_get_access(fn, virPtr, location, flag);
}

ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle)
{
    const char *fn = "aclrtMemRetainAllocationHandle";
    if (virPtr == NULL || handle == NULL)
        return null_arg(fn, virPtr == NULL ? "virPtr" : "handle");
    return vmm_retain(fn, virPtr, handle);
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                                       aclrtPhysicalMemProp *prop)
{
    const char *fn = "aclrtMemGetAllocationPropertiesFromHandle";
    if (handle == NULL || prop == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "prop");
    return vmm_properties(fn, handle, prop);
}

ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option, size_t *granularity)
{
    const char *fn = "aclrtMemGetAllocationGranularity";
    aclError err;
    size_t g;

    if (prop == NULL || granularity == NULL)
        return null_arg(fn, prop == NULL ? "prop" : "granularity");
    err = check_mem_attr(fn, prop);
    if (err == ACL_SUCCESS)
        err = check_prop_device(fn, prop);
    if (err != ACL_SUCCESS)
        return err;
    g = vmm_granularity(prop->memAttr, option);
    if (g == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'option' (%d) is not MINIMUM (0) or RECOMMENDED (1)",
                        fn, (int)option);
    *granularity = g;
    return ACL_SUCCESS;
}

/* ---- shareable handles ------------------------------------------------------ */

static aclError check_export_flags(const char *fn, uint64_t flags)
{
    if (flags > ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flags' (%llu) is not in [0, 1]", fn,
                        (unsigned long long)flags);
    return ACL_SUCCESS;
}

/* The runtime's check of a V2 share type; FABRIC crosses servers, which
 * one host does not have. */
static aclError check_share_type(const char *fn, aclrtMemSharedHandleType t)
{
    if (t != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT && t != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'shareType' (%d) is not DEFAULT (1) or FABRIC (2)",
                        fn, (int)t);
    return ACL_SUCCESS;
}

/* A FABRIC handle (128 bytes): aclcpu's mark, the server it was exported on
 * and the shareable handle, then zeros. As the runtime's, it names the
 * server; one from this server imports as a DEFAULT one does, one from
 * another cannot: aclcpu's servers share no memory. */
#define FABRIC_MARK "aclcpuFB"
struct fabric_wire {
    char mark[8];
    uint64_t server;
    uint64_t key;
};
_Static_assert(sizeof(struct fabric_wire) <= sizeof(aclrtMemFabricHandle), "a FABRIC handle holds aclcpu's");

/* The runtime asks the device for its server id (GetServerId): only
 * devices that can reach other servers have one, the Atlas A3's here. */
static aclError fabric_server(const char *fn, uint64_t *server)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (ctx->dev->soc->family != SOC_A3)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: share type FABRIC: %s does not support cross-server communication (Atlas A3 does)", fn,
                        ctx->dev->soc->name);
    *server = plat_host_id();
    return ACL_SUCCESS;
}

/* The shareable handle in a FABRIC handle exported on this server. */
static aclError fabric_key(const char *fn, const void *shareableHandle, uint64_t *key)
{
    struct fabric_wire w;
    uint64_t server = 0;
    aclError err = fabric_server(fn, &server);
    if (err != ACL_SUCCESS)
        return err;
    memcpy(&w, shareableHandle, sizeof(w));
    if (memcmp(w.mark, FABRIC_MARK, sizeof(w.mark)) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'shareableHandle' is not a FABRIC handle aclrtMemExportToShareableHandleV2 made",
                        fn);
    if (w.server != server)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: argument 'shareableHandle' was exported on another server: aclcpu shares physical memory "
                        "between the processes of one host",
                        fn);
    *key = w.key;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t *shareableHandle)
{
    const char *fn = "aclrtMemExportToShareableHandle";
    aclError err;
    if (handle == NULL)
        return null_arg(fn, "handle");
    if (handleType != ACL_MEM_HANDLE_TYPE_NONE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'handleType' (%d) must be ACL_MEM_HANDLE_TYPE_NONE (0)",
                        fn, (int)handleType);
    if (shareableHandle == NULL)
        return null_arg(fn, "shareableHandle");
    err = check_export_flags(fn, flags);
    return err != ACL_SUCCESS ? err : vmm_export(fn, handle, flags, shareableHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                               aclrtMemSharedHandleType shareType,
                                                               void *shareableHandle)
{
    const char *fn = "aclrtMemExportToShareableHandleV2";
    aclError err;
    if (handle == NULL || shareableHandle == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "shareableHandle");
    err = check_share_type(fn, shareType);
    if (err == ACL_SUCCESS)
        err = check_export_flags(fn, flags);
    if (err == ACL_SUCCESS && shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
        struct fabric_wire w = {FABRIC_MARK, 0, 0};
        if ((err = fabric_server(fn, &w.server)) == ACL_SUCCESS &&
            (err = vmm_export(fn, handle, flags, &w.key)) == ACL_SUCCESS) {
            memset(shareableHandle, 0, sizeof(aclrtMemFabricHandle));
            memcpy(shareableHandle, &w, sizeof(w));
        }
        return err;
    }
    return err != ACL_SUCCESS ? err : vmm_export(fn, handle, flags, (uint64_t *)shareableHandle);
}

static aclError import_device(const char *fn, int32_t deviceId)
{
    struct context *ctx;
    if (deviceId < 0 || (uint32_t)deviceId >= device_count())
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device (there are %u)",
                        fn, deviceId, device_count());
    return ctx_require(fn, &ctx);
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle)
{
    const char *fn = "aclrtMemImportFromShareableHandle";
    aclError err;
    if (handle == NULL)
        return null_arg(fn, "handle");
    err = import_device(fn, deviceId);
    return err != ACL_SUCCESS ? err : vmm_import(fn, shareableHandle, deviceId, handle);
}

ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
                                                                 aclrtMemSharedHandleType shareType, uint64_t flags,
                                                                 aclrtDrvMemHandle *handle)
{
    const char *fn = "aclrtMemImportFromShareableHandleV2";
    struct context *ctx;
    aclError err;
    uint64_t key;

    if (shareableHandle == NULL || handle == NULL)
        return null_arg(fn, shareableHandle == NULL ? "shareableHandle" : "handle");
    if (flags != 0)
        return reserved_nonzero(fn, "flags", flags, "0");
    err = ctx_require(fn, &ctx); /* the handle is made on the current device */
    if (err == ACL_SUCCESS)
        err = check_share_type(fn, shareType);
    if (err == ACL_SUCCESS && shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
        err = fabric_key(fn, shareableHandle, &key);
    else if (err == ACL_SUCCESS)
        memcpy(&key, shareableHandle, sizeof(key));
    if (err != ACL_SUCCESS)
        return err;
    return vmm_import(fn, key, ctx->dev->id, handle);
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum)
{
    const char *fn = "aclrtMemSetPidToShareableHandle";
    if (pid == NULL)
        return null_arg(fn, "pid");
    if (pidNum == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'pidNum' is 0", fn);
    return vmm_set_pids(fn, shareableHandle, pid, pidNum);
}

ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
                                                               aclrtMemSharedHandleType shareType, int32_t *pid,
                                                               size_t pidNum)
{
    const char *fn = "aclrtMemSetPidToShareableHandleV2";
    aclError err;
    uint64_t key;

    if (shareableHandle == NULL || pid == NULL)
        return null_arg(fn, shareableHandle == NULL ? "shareableHandle" : "pid");
    if (pidNum == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'pidNum' is 0", fn);
    err = check_share_type(fn, shareType);
    if (err == ACL_SUCCESS && shareType == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC)
        err = fabric_key(fn, shareableHandle, &key);
    else if (err == ACL_SUCCESS)
        memcpy(&key, shareableHandle, sizeof(key));
    if (err != ACL_SUCCESS)
        return err;
    return vmm_set_pids(fn, key, pid, pidNum);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid)
{
    if (pid == NULL)
        return null_arg("aclrtDeviceGetBareTgid", "pid");
    *pid = plat_pid();
    return ACL_SUCCESS;
}
