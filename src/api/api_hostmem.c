/*
 * api_hostmem.c - host memory registered for device access:
 * aclrtHostRegister(V2), aclrtHostGetDevicePointer, aclrtHostUnregister,
 * aclrtHostMemMapCapabilities.
 *
 * DESIGN: checks in the reference's order: the ACL layer's NULL and size
 * checks (memory.cpp), then the runtime's flag checks (api_error.cc), then
 * the current context and the SoC, then the registration itself
 * (services/hostmem.c). The device shares the host's address space, so
 * the device address of a registered range is the range itself
 * (docs/differences.md).
 *
 * Threads: any host thread. Locks: none here (hostmem's).
 */
#include "api_int.h"
#include "../services/hostmem.h"

#define HAC_TYPE_COUNT 10 /* ACL_RT_HAC_TYPE_STARS .. ACL_RT_HAC_TYPE_CCU */

/* Host registration is a feature of the A2, A3 and 950 lines (the vendor's
 * host_register sample lists exactly these). */
static bool soc_has_host_register(const struct soc_profile *soc)
{
    return soc->family == SOC_A2 || soc->family == SOC_A3 || soc->family == SOC_950;
}

/* The current context, on a SoC that registers host memory. */
static aclError register_context(const char *fn, struct context **ctx)
{
    aclError err = ctx_require(fn, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (!soc_has_host_register((*ctx)->dev->soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s cannot register host memory (A2, A3 and 950 can)",
                        fn, (*ctx)->dev->soc->name);
    return ACL_SUCCESS;
}

static aclError add_registration(const char *fn, void *ptr, uint64_t size, uint32_t flags, int32_t device)
{
    aclError err;
    if ((uintptr_t)ptr > UINTPTR_MAX - size)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%llu) runs past the end of the address space", fn, ptr,
                        (unsigned long long)size);
    err = hostreg_add(ptr, size, flags, device);
    if (err == ACL_SUCCESS)
        return ACL_SUCCESS;
    if (err == ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
        return acl_fail(err, "%s: [%p, +%llu) overlaps a range already registered (aclrtHostUnregister ends one)", fn,
                        ptr, (unsigned long long)size);
    if (err == ACL_ERROR_RT_MEMORY_ALLOCATION)
        return acl_fail(err, "%s: out of host memory for the registration", fn);
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: [%p, +%llu) overlaps device memory or a mapping: only host "
                    "memory can be registered", fn, ptr, (unsigned long long)size);
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr)
{
    const char *fn = "aclrtHostRegister";
    const uint32_t valid = ACL_HOST_REGISTER_IOMEMORY | ACL_HOST_REGISTER_READONLY;
    struct context *ctx;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (devPtr == NULL)
        return null_arg(fn, "devPtr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if (((uint32_t)type & ~valid) != 0)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'type' (%#x) is not supported: it must be 0 "
                        "or an OR of ACL_HOST_REGISTER_IOMEMORY (0x4) and ACL_HOST_REGISTER_READONLY (0x8)",
                        fn, (unsigned)type);
    if ((err = register_context(fn, &ctx)) != ACL_SUCCESS)
        return err;
    /* The first API maps always: a mapped registration, with the type's extras. */
    err = add_registration(fn, ptr, size, HOSTREG_MAPPED | (uint32_t)type, ctx->dev->id);
    if (err == ACL_SUCCESS)
        *devPtr = ptr;
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag)
{
    const char *fn = "aclrtHostRegisterV2";
    struct context *ctx;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0", fn);
    if ((flag & HOSTREG_VALID_FLAGS) == 0 || (flag & ~HOSTREG_VALID_FLAGS) != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (%#x) is invalid: it must be an OR of "
                        "ACL_HOST_REG_MAPPED (0x2), ACL_HOST_REG_IOMEMORY (0x4), ACL_HOST_REG_READONLY (0x8) and "
                        "ACL_HOST_REG_PINNED (0x10000000), at least one of them", fn, flag);
    if ((err = register_context(fn, &ctx)) != ACL_SUCCESS)
        return err;
    return add_registration(fn, ptr, size, flag, ctx->dev->id);
}

ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag)
{
    const char *fn = "aclrtHostGetDevicePointer";
    struct context *ctx;
    aclError err;

    if (pHost == NULL)
        return null_arg(fn, "pHost");
    if (pDevice == NULL)
        return null_arg(fn, "pDevice");
    if (flag != 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flag' (%u) is reserved and must be 0", fn, flag);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (!hostreg_device_ptr(pHost, pDevice))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'pHost' (%p) is not the start of a host range "
                        "registered for device address mapping (aclrtHostRegister, or aclrtHostRegisterV2 with "
                        "ACL_HOST_REG_MAPPED)", fn, pHost);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr)
{
    const char *fn = "aclrtHostUnregister";
    struct context *ctx;
    aclError err;

    if (ptr == NULL)
        return null_arg(fn, "ptr");
    if ((err = register_context(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (!hostreg_remove(ptr))
        return acl_fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "%s: argument 'ptr' (%p) is not the start of a "
                        "registered host range (unregistered already, or never registered)", fn, ptr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                         aclrtHostMemMapCapability *capabilities)
{
    const char *fn = "aclrtHostMemMapCapabilities";
    struct context *ctx;
    aclError err;

    if (capabilities == NULL)
        return null_arg(fn, "capabilities");
    if (deviceId > INT32_MAX || device_get((int32_t)deviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%u) is not a device (0..%u)", fn,
                        deviceId, device_count() - 1);
    if ((unsigned)hacType >= HAC_TYPE_COUNT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'hacType' (%d) is out of range [0, %d)", fn,
                        (int)hacType, HAC_TYPE_COUNT);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    /* Every engine of a CPU device reaches host memory directly. */
    *capabilities =
        soc_has_host_register(ctx->dev->soc) ? ACL_RT_HOST_MEM_MAP_SUPPORTED : ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
    return ACL_SUCCESS;
}
