/*
 * api_runtime.c - aclInit/aclFinalize, devices, contexts, run mode, SoC name.
 *
 * DESIGN: argument checks in the spec's order, then the core. Everything
 * here that creates or ends contexts or devices holds the admin lock
 * (context.c), so these calls are serialised; the getters are lock-free.
 * aclInit is optional for streams (the spec's runtime needs no init), but
 * it counts references: a second aclInit returns 100002, aclFinalize ends
 * every device and context, and a second aclFinalize returns 100037.
 *
 * Threads: any host thread.
 */
#include <stdio.h>

#include "api_int.h"
#include "../core/allocator.h"
#include "../services/devmem.h"
#include "../services/hostmem.h"
#include "../services/mempool.h"
#include "../core/profhook.h"
#include "../core/vmm.h"

static uint64_t init_refs;   /* under admin lock */
static bool initialised;     /* under admin lock */
static bool finalised;       /* under admin lock: aclFinalize ran since the last aclInit */

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
    aclError err = ACL_SUCCESS;
    struct prof_soc soc;
    admin_enter();
    log_configure();
    if (initialised) {
        init_refs++;
        err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialised (reference count now %llu)",
                       (unsigned long long)init_refs);
    } else {
        if (configPath != NULL && configPath[0] != '\0') {
            FILE *f = fopen(configPath, "r");
            if (f == NULL)
                LOGW("aclInit: config file \"%s\" cannot be read; continuing with defaults", configPath);
            else
                fclose(f);
        }
        devices_configure();
        stream_blocking_configure();
        profhook_soc(0, &soc);
        prof_env_start(&soc); /* ACLCPU_PROFILE */
        initialised = true;
        finalised = false;
        init_refs = 1;
    }
    admin_leave();
    return err;
}

/* Called with the admin lock held. */
static void finalize_locked(void)
{
    admin_assert_held();
    char why[512];
    prof_env_stop(); /* written while the devices still exist */
    if (prof_running()) { /* an aclprofStart the program did not stop */
        LOGW("aclFinalize: a profile is still running; it is written now (call aclprofStop before aclFinalize)");
        if (prof_end(why, sizeof(why)) != ACL_SUCCESS)
            LOGW("aclFinalize: %s", why);
    }
    prof_acl_finalized(); /* the aclprof API is off again (CANN's MsprofFinalize) */
    devices_shutdown();
    quarantine_forget_all();
    vmm_release_all(); /* host allocations and device-less reservations */
    allocator_release_all();
    mempool_release_device(-1);
    hostmem_release_device(-1);
    devmem_release_all();
    task_cache_release();
    initialised = false;
    finalised = true;
    init_refs = 0;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
    aclError err = ACL_SUCCESS;
    admin_enter();
    if (!initialised)
        err = finalised ? acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalised")
                        : acl_fail(ACL_ERROR_UNINITIALIZE, "aclFinalize: aclInit was never called");
    else
        finalize_locked();
    admin_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount)
{
    aclError err = ACL_SUCCESS;
    admin_enter();
    if (!initialised) {
        err = finalised ? acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: already finalised")
                        : acl_fail(ACL_ERROR_UNINITIALIZE, "aclFinalizeReference: aclInit was never called");
    } else if (--init_refs == 0) {
        finalize_locked();
    }
    if (refCount != NULL)
        *refCount = init_refs;
    admin_leave();
    return err;
}

static aclError bad_device(const char *fn, int32_t id)
{
    return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' is %d; valid ids are 0..%u (set "
                    "ACLCPU_DEVICE_COUNT for more devices)",
                    fn, id, device_count() - 1);
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
    struct device *d = device_get(deviceId);
    struct context *ctx;
    aclError err;

    if (d == NULL)
        return bad_device("aclrtSetDevice", deviceId);
    admin_enter();
    err = device_primary(d, &ctx);
    if (err == ACL_SUCCESS) {
        d->set_count++;
        ctx_set_current(ctx);
    } else {
        acl_fail(err, "aclrtSetDevice: device %d cannot be opened", deviceId);
    }
    admin_leave();
    return err;
}

static aclError reset_device(const char *fn, int32_t deviceId, bool force)
{
    struct device *d = device_get(deviceId);
    if (d == NULL)
        return bad_device(fn, deviceId);
    admin_enter();
    if (d->primary != NULL && (force || d->set_count <= 1)) {
        struct context *cur = ctx_current();
        if (cur == d->primary)
            ctx_set_current(NULL);
        ctx_destroy(d->primary);
    } else if (d->set_count > 0) {
        d->set_count--;
    }
    admin_leave();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) { return reset_device("aclrtResetDevice", deviceId, false); }

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId)
{
    return reset_device("aclrtResetDeviceForce", deviceId, true);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId)
{
    struct context *ctx;
    aclError err;
    if (deviceId == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: argument 'deviceId' is NULL");
    err = ctx_require("aclrtGetDevice", &ctx);
    if (err == ACL_SUCCESS)
        *deviceId = ctx->dev->id;
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count)
{
    if (count == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: argument 'count' is NULL");
    *count = device_count();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
    struct device *d;
    struct context *ctx;
    aclError err;

    if (context == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: argument 'context' is NULL");
    d = device_get(deviceId);
    if (d == NULL)
        return bad_device("aclrtCreateContext", deviceId);
    admin_enter();
    err = ctx_create(d, false, &ctx);
    if (err == ACL_SUCCESS) {
        ctx_set_current(ctx);
        *context = obj_handle(&ctx->hdr);
    } else {
        acl_fail(err, "aclrtCreateContext: cannot create a context on device %d", deviceId);
    }
    admin_leave();
    return err;
}

static struct context *resolve_ctx(const char *fn, aclrtContext h, aclError *err)
{
    struct context *ctx = (struct context *)obj_resolve(h, OBJ_CONTEXT);
    *err = ACL_SUCCESS;
    if (h == NULL)
        *err = acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'context' is NULL", fn);
    else if (ctx == NULL)
        *err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'context' (%p) is not a live context (destroyed, or its device was reset)", fn,
                        h);
    return ctx;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
    aclError err;
    struct context *ctx;

    admin_enter();
    ctx = resolve_ctx("aclrtDestroyContext", context, &err);
    if (ctx != NULL && ctx->primary) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtDestroyContext: the context is a device's default context "
                       "(made by aclrtSetDevice); release it with aclrtResetDevice");
    } else if (ctx != NULL) {
        if (ctx_current() == ctx)
            ctx_set_current(NULL);
        ctx_destroy(ctx);
    }
    admin_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
    aclError err;
    struct context *ctx = resolve_ctx("aclrtSetCurrentContext", context, &err);
    if (ctx != NULL)
        ctx_set_current(ctx);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
    struct context *ctx;
    aclError err;
    if (context == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: argument 'context' is NULL");
    err = ctx_require("aclrtGetCurrentContext", &ctx);
    if (err == ACL_SUCCESS)
        *context = obj_handle(&ctx->hdr);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode)
{
    if (runMode == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: argument 'runMode' is NULL");
    *runMode = ACL_HOST; /* a host program driving a (modelled) device */
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void)
{
    struct context *ctx = ctx_current();
    const struct soc_profile *soc;
    if (ctx != NULL)
        return ctx->dev->soc->name;
    soc = soc_find(config_str(CFG_SOC) != NULL ? config_str(CFG_SOC) : "");
    return soc != NULL ? soc->name : soc_default()->name;
}
