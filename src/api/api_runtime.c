/*
 * api_runtime.c - aclInit/aclFinalize, devices, contexts, run mode, SoC name.
 *
 * DESIGN: argument checks in the spec's order, then the core. Everything
 * here that creates or ends contexts or devices holds the admin lock
 * (context.c), so these calls are serialised; the getters are lock-free.
 * aclInit is optional for streams (the spec's runtime needs no init), but
 * it counts references: a second aclInit returns 100002, aclFinalize ends
 * every device and context, and a second aclFinalize returns 100037.
 * The callbacks registered for aclInit and aclFinalize (api_sysinfo.c)
 * run with the admin lock released, between the configuration checks and
 * the state change, so that a callback may call the API.
 *
 * Threads: any host thread.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
static bool first_config_seen; /* under admin lock: an aclInit has succeeded in this process */
static uint64_t first_config_hash; /* under admin lock: the hash of that aclInit's configuration text */
static char *init_text;        /* under admin lock: the configuration text of the aclInit in force (or NULL) */
static size_t init_text_len;   /* under admin lock */

enum { CONFIG_FILE_MAX = 10 << 20, CONFIG_DEPTH_MAX = 10 };

/* Reads aclInit's configuration file into *text (NUL-terminated, from
 * acl_malloc; NULL with *len 0 for no file: NULL or ""). A file that
 * cannot be opened, is no regular file or is above 10 MiB is 100003. */
static aclError read_config(const char *path, char **text, size_t *len)
{
    struct stat st;
    FILE *f;
    aclError err = ACL_SUCCESS;
    *text = NULL;
    *len = 0;
    if (path == NULL || path[0] == '\0')
        return ACL_SUCCESS;
    if ((f = fopen(path, "rb")) == NULL)
        return acl_fail(ACL_ERROR_INVALID_FILE, "aclInit: argument 'configPath' (\"%s\") cannot be opened for "
                        "reading; pass NULL or \"\" for no configuration", path);
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        err = acl_fail(ACL_ERROR_INVALID_FILE, "aclInit: argument 'configPath' (\"%s\") is not a regular file",
                       path);
    else if (st.st_size > CONFIG_FILE_MAX)
        err = acl_fail(ACL_ERROR_INVALID_FILE, "aclInit: argument 'configPath' (\"%s\") is %lld bytes; a "
                       "configuration file may have at most %d", path, (long long)st.st_size, CONFIG_FILE_MAX);
    else if ((*text = acl_malloc((size_t)st.st_size + 1)) == NULL)
        err = acl_fail(ACL_ERROR_BAD_ALLOC, "aclInit: out of host memory reading \"%s\"", path);
    else
        *len = fread(*text, 1, (size_t)st.st_size, f);
    if (*text != NULL)
        (*text)[*len] = '\0';
    fclose(f);
    return err;
}

/* FNV-1a: only compared with itself, to tell one configuration from another. */
static uint64_t config_hash(const char *text, size_t len)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211ull;
    return h;
}

/* The reference's rules for the configuration text, in its order: the same
 * text as the first aclInit that succeeded (100000), nesting of at most 10
 * objects and 10 arrays counted naively, then JSON (100006). The text ends
 * at its first NUL; an empty one is no configuration. */
static aclError check_config(const char *path, const char *text, size_t len, uint64_t hash)
{
    size_t used = text != NULL ? strnlen(text, len) : 0;
    size_t objs = json_naive_depth(text, used, '{', '}'), arrays = json_naive_depth(text, used, '[', ']');
    if (first_config_seen && hash != first_config_hash)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclInit: argument 'configPath' (\"%s\"): its content differs from "
                        "the configuration of the first aclInit of this process", path != NULL ? path : "");
    if (objs > CONFIG_DEPTH_MAX || arrays > CONFIG_DEPTH_MAX)
        return acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: argument 'configPath' (\"%s\") nests %zu objects and %zu "
                        "arrays; at most %d of each", path, objs, arrays, CONFIG_DEPTH_MAX);
    if (used != 0 && !json_text_is_valid(text, used))
        return acl_fail(ACL_ERROR_PARSE_FILE, "aclInit: argument 'configPath' (\"%s\") is not JSON text", path);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
    aclError err = ACL_SUCCESS;
    struct prof_soc soc;
    char *text = NULL;
    size_t len = 0;
    uint64_t hash = 0;
    admin_enter();
    log_configure();
    if (initialised) {
        init_refs++;
        err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialised (reference count now %llu)",
                       (unsigned long long)init_refs);
        admin_leave();
        return err;
    }
    err = read_config(configPath, &text, &len);
    if (err == ACL_SUCCESS) {
        hash = config_hash(text != NULL ? text : "", len);
        err = check_config(configPath, text, len, hash);
    }
    admin_leave();
    /* The registered callbacks run with no lock held (they may call the
     * API); one that fails fails aclInit, which stays uninitialised. */
    if (err == ACL_SUCCESS)
        err = initcb_run_init(text != NULL ? text : "", len, configPath != NULL && configPath[0] != '\0');
    if (err != ACL_SUCCESS) {
        acl_free(text);
        return err;
    }
    admin_enter();
    if (initialised) { /* another thread's aclInit finished meanwhile */
        init_refs++;
        err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialised (reference count now %llu)",
                       (unsigned long long)init_refs);
        acl_free(text);
    } else {
        if (!first_config_seen) {
            first_config_seen = true;
            first_config_hash = hash;
        }
        acl_free(init_text);
        init_text = text;
        init_text_len = len;
        devices_configure();
        stream_blocking_configure();
        check_configure(); /* ACLCPU_CHECK */
        profhook_soc(0, &soc);
        prof_env_start(&soc); /* ACLCPU_PROFILE */
        initialised = true;
        finalised = false;
        init_refs = 1;
    }
    admin_leave();
    return err;
}

bool acl_initialised(void)
{
    bool inited;
    admin_enter();
    inited = initialised;
    admin_leave();
    return inited;
}

bool init_config_copy(char **text, size_t *len)
{
    bool inited;
    *text = NULL;
    *len = 0;
    admin_enter();
    inited = initialised;
    if (inited) {
        *text = acl_malloc(init_text_len + 1);
        if (*text != NULL) {
            if (init_text_len != 0)
                memcpy(*text, init_text, init_text_len);
            (*text)[init_text_len] = '\0';
            *len = init_text_len;
        }
    }
    admin_leave();
    return inited;
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
    acl_free(init_text);
    init_text = NULL;
    init_text_len = 0;
    initialised = false;
    finalised = true;
    init_refs = 0;
}

/* aclFinalize looks only at whether a finalize ran since the last aclInit:
 * without any aclInit it finalizes (and succeeds) once, as the reference
 * does, whatever the reference count. The finalize callbacks run first,
 * with no lock held; one that fails fails aclFinalize, which leaves the
 * runtime as it was. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
    aclError err = ACL_SUCCESS;
    admin_enter();
    if (finalised)
        err = acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalised (call aclInit first)");
    admin_leave();
    if (err == ACL_SUCCESS)
        err = initcb_run_fini("aclFinalize");
    if (err != ACL_SUCCESS)
        return err;
    admin_enter();
    if (finalised) /* another thread's aclFinalize finished meanwhile */
        err = acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: already finalised (call aclInit first)");
    else
        finalize_locked();
    admin_leave();
    return err;
}

/* aclFinalizeReference counts: above one it only counts down, at one it
 * finalizes (callbacks first, as aclFinalize), at zero (never initialised,
 * or finalised since) it is refused with 100037; *refCount is the count
 * after the call either way. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount)
{
    aclError err = ACL_SUCCESS;
    bool last = false;
    admin_enter();
    if (init_refs == 0)
        err = acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: the aclInit reference count is 0 (%s)",
                       finalised ? "already finalised" : "aclInit was never called");
    else if (init_refs > 1)
        init_refs--;
    else
        last = true;
    admin_leave();
    if (last)
        err = initcb_run_fini("aclFinalizeReference");
    admin_enter();
    if (last && err == ACL_SUCCESS) {
        if (init_refs == 0)
            err = acl_fail(ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference: the aclInit reference count is 0 "
                           "(already finalised)");
        else if (--init_refs == 0)
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
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    /* The device state callbacks hear SET_PRE before the device opens and
     * SET_POST after every set that succeeds (runtime.cc
     * PrepareDeviceRetain, api_impl.cc SetDevice), with no lock held: two
     * threads opening one device at once may both tell SET_PRE. */
    if (!device_is_open(d))
        devstate_notify(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
    admin_enter();
    err = device_primary(d, &ctx);
    if (err == ACL_SUCCESS) {
        d->set_count++;
        ctx_set_current(ctx);
    } else {
        acl_fail(err, "aclrtSetDevice: device %d cannot be opened", deviceId);
    }
    admin_leave();
    if (err == ACL_SUCCESS)
        devstate_notify(deviceId, ACL_RT_DEVICE_STATE_SET_POST);
    return err;
}

/* Drops one aclrtSetDevice reference (force: all of them); the last one
 * destroys the device's default context. A device with no default context
 * (never set, or reset since) has nothing to release: 507007. */
static aclError reset_device(const char *fn, int32_t deviceId, bool force)
{
    aclError err = ACL_SUCCESS;
    struct device *d = device_get(deviceId);
    bool last, destroyed = false;
    if (d == NULL)
        return bad_device(fn, deviceId);
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    /* The device state callbacks hear RESET_PRE before the default context
     * goes and RESET_POST after (runtime.cc PrimaryContextCallBack and
     * PrimaryContextCallBackAfterTeardown), with no lock held. */
    admin_enter();
    last = d->primary != NULL && (force || d->set_count <= 1);
    admin_leave();
    if (last)
        devstate_notify(deviceId, ACL_RT_DEVICE_STATE_RESET_PRE);
    admin_enter();
    if (d->primary == NULL) {
        err = acl_fail(ACL_ERROR_RT_CONTEXT_RELEASE_ERROR,
                       "%s: device %d has not been set (aclrtSetDevice) or has already been reset", fn, deviceId);
    } else if (force || d->set_count <= 1) {
        struct context *cur = ctx_current();
        if (cur == d->primary)
            ctx_set_current(NULL);
        ctx_destroy(d->primary);
        destroyed = true;
    } else {
        d->set_count--;
    }
    admin_leave();
    if (destroyed)
        devstate_notify(deviceId, ACL_RT_DEVICE_STATE_RESET_POST);
    return err;
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
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    if (!device_is_open(d)) /* a context opens its device too (api_impl.cc NewContext: DeviceRetain) */
        devstate_notify(deviceId, ACL_RT_DEVICE_STATE_SET_PRE);
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

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
    aclError err;
    struct context *ctx;

    if (context == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: argument 'context' is NULL");
    snapshot_gate(); /* a snapshot lock holds it back (snapshot.c) */
    admin_enter();
    ctx = (struct context *)obj_resolve(context, OBJ_CONTEXT);
    err = ACL_SUCCESS;
    if (ctx == NULL) {
        err = acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyContext: argument 'context' (%p) is not a live "
                       "context (destroyed, its device reset, or not a context)", context);
    } else if (ctx->primary) {
        err = acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyContext: argument 'context' is a device's default "
                       "context (made by aclrtSetDevice), which cannot be destroyed; release it with aclrtResetDevice");
    } else {
        if (ctx_current() == ctx)
            ctx_set_current(NULL);
        ctx_destroy(ctx);
    }
    admin_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
    struct context *ctx;
    if (context == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: argument 'context' is NULL");
    ctx = (struct context *)obj_resolve(context, OBJ_CONTEXT);
    if (ctx == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext: argument 'context' (%p) is not a live "
                        "context (destroyed, its device reset, or not a context)", context);
    ctx_set_current(ctx);
    return ACL_SUCCESS;
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
