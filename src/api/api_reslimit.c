/*
 * api_reslimit.c - core limits (控核): per device, per stream, and the
 * stream a thread is bound to.
 *
 * DESIGN: a limit says how many cube or vector cores work may use; the
 * value in force for a thread is its bound stream's limit (set with
 * aclrtSetStreamResLimit and bound with aclrtUseStreamResInCurrentThread),
 * else the device's (aclrtSetDeviceResLimit), else the SoC profile's core
 * count. Limits are cooperative, as on the device: a kernel's block count
 * is never clamped, but each launch records the limits in force so the
 * profiler can show Block Num against them. The thread binding is a
 * thread-local handle, so a destroyed stream simply stops binding.
 * Threads: any host thread. No locks: the device's limits are atomics, a
 * stream's are stream settings (stream_setting_*).
 */
#include "api_int.h"

static _Thread_local void *tls_res_stream ACLCPU_TLS_HOT; /* handle of the bound stream, or NULL */

static uint32_t hardware_cores(const struct device *d, int type)
{
    return type == ACL_RT_DEV_RES_CUBE_CORE ? d->soc->cube_cores : d->soc->vector_cores;
}

static uint32_t device_limit(struct device *d, int type)
{
    uint32_t v = load_relaxed(&d->res_limit[type]);
    return v != 0 ? v - 1 : hardware_cores(d, type);
}

static aclError check_type(const char *fn, aclrtDevResLimitType type)
{
    if ((unsigned)type > ACL_RT_DEV_RES_VECTOR_CORE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'type' (%d) must be ACL_RT_DEV_RES_CUBE_CORE (0) or ACL_RT_DEV_RES_VECTOR_CORE (1)",
                        fn, (int)type);
    return ACL_SUCCESS;
}

static aclError check_value(const char *fn, struct device *d, aclrtDevResLimitType type, uint32_t value)
{
    if (value > hardware_cores(d, type))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'value' (%u) is above the %u %s cores of %s", fn,
                        value, hardware_cores(d, type), type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector",
                        d->soc->name);
    return ACL_SUCCESS;
}

static aclError bad_device(const char *fn, int32_t id)
{
    return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device (0..%u)", fn, id,
                    device_count() - 1);
}

/* A negative id is refused first, before the type (the reference's C entry
 * checks it); an id past the last device after the type. */
static aclError check_negative_id(const char *fn, int32_t id)
{
    return id < 0 ? bad_device(fn, id) : ACL_SUCCESS;
}

/* An open device by id, or an error naming why not: a device that no
 * aclrtSetDevice or context has opened has no limits yet (507033). */
static aclError open_device(const char *fn, int32_t id, struct device **out)
{
    *out = device_get(id);
    if (*out == NULL)
        return bad_device(fn, id);
    if (!(*out)->open)
        return acl_fail(ACL_ERROR_RT_DEV_SETUP_ERROR, "%s: device %d is not set up; call aclrtSetDevice(%d) or "
                        "create a context on it first", fn, id, id);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value)
{
    const char *fn = "aclrtSetDeviceResLimit";
    struct device *d;
    aclError err = check_negative_id(fn, deviceId);
    if (err == ACL_SUCCESS)
        err = check_type(fn, type);
    if (err == ACL_SUCCESS)
        err = open_device(fn, deviceId, &d);
    if (err == ACL_SUCCESS)
        err = check_value(fn, d, type, value);
    if (err == ACL_SUCCESS) /* stored plus one: 0 means "none set" */
        store_relaxed(&d->res_limit[type], value + 1);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value)
{
    const char *fn = "aclrtGetDeviceResLimit";
    struct device *d;
    aclError err;
    if (value == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'value' is NULL", fn);
    err = check_negative_id(fn, deviceId);
    if (err == ACL_SUCCESS)
        err = check_type(fn, type);
    if (err == ACL_SUCCESS)
        err = open_device(fn, deviceId, &d);
    if (err == ACL_SUCCESS)
        *value = device_limit(d, type);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
    struct device *d;
    aclError err = open_device("aclrtResetDeviceResLimit", deviceId, &d);
    if (err == ACL_SUCCESS) {
        store_relaxed(&d->res_limit[0], 0);
        store_relaxed(&d->res_limit[1], 0);
    }
    return err;
}

static enum stream_setting limit_setting(int type)
{
    return type == 0 ? STREAM_RES_LIMIT_CUBE : STREAM_RES_LIMIT_VECTOR;
}

/* The limit of type set on s, else the device's. */
static uint32_t stream_limit(struct stream *s, int type)
{
    uint32_t v = stream_setting_get(s, limit_setting(type));
    return v != 0 ? v - 1 : device_limit(load_relaxed(&s->dev), type);
}

/* The stream calls resolve the handle first (107017), then check the type
 * (107000); a named stream needs no current context, NULL (the default
 * stream) does (107002) (api_c_stream.cc rtsSetStreamResLimit, ...;
 * api_error.cc SetStreamResLimit, GetStreamResLimit; api_impl.cc
 * SetStreamResLimit, GetStreamResLimit, ResetStreamResLimit,
 * UseStreamResInCurrentThread, NotUseStreamResInCurrentThread). */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value)
{
    const char *fn = "aclrtSetStreamResLimit";
    struct stream *s = NULL;
    aclError err = stream != NULL ? stream_lookup(fn, stream, &s) : ACL_SUCCESS;
    if (err == ACL_SUCCESS)
        err = check_type(fn, type);
    if (err == ACL_SUCCESS && stream == NULL)
        err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = check_value(fn, load_relaxed(&s->dev), type, value);
    if (err == ACL_SUCCESS)
        stream_setting_set(s, limit_setting(type), value + 1); /* last set wins */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value)
{
    const char *fn = "aclrtGetStreamResLimit";
    struct stream *s = NULL;
    aclError err;
    if (value == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'value' is NULL", fn);
    err = stream != NULL ? stream_lookup(fn, stream, &s) : ACL_SUCCESS;
    if (err == ACL_SUCCESS)
        err = check_type(fn, type);
    if (err == ACL_SUCCESS && stream == NULL)
        err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        *value = stream_limit(s, type);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream)
{
    struct stream *s;
    aclError err = stream_lookup("aclrtResetStreamResLimit", stream, &s);
    if (err == ACL_SUCCESS) {
        stream_setting_set(s, STREAM_RES_LIMIT_CUBE, 0);
        stream_setting_set(s, STREAM_RES_LIMIT_VECTOR, 0);
    }
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
    struct stream *s;
    aclError err = stream_lookup("aclrtUseStreamResInCurrentThread", stream, &s);
    if (err == ACL_SUCCESS)
        tls_res_stream = obj_handle(&s->hdr); /* NULL means the default stream: bind that */
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
    struct stream *s;
    aclError err = stream_lookup("aclrtUnuseStreamResInCurrentThread", stream, &s);
    /* Clears only the stream that is bound; any other is a silent success. */
    if (err == ACL_SUCCESS && tls_res_stream == obj_handle(&s->hdr))
        tls_res_stream = NULL;
    return err;
}

/* The thread's bound stream, if it is still alive and on device d. */
static struct stream *bound_stream(struct device *d)
{
    struct stream *s = tls_res_stream != NULL ? (struct stream *)obj_resolve(tls_res_stream, OBJ_STREAM) : NULL;
    return s != NULL && load_relaxed(&s->dev) == d ? s : NULL;
}

uint32_t reslimit_in_force(struct device *d, int type)
{
    struct stream *s = bound_stream(d);
    return s != NULL ? stream_limit(s, type) : device_limit(d, type);
}

void reslimits_in_force(struct device *d, uint32_t out[2])
{
    struct stream *s = bound_stream(d); /* resolved once for both types */
    for (int type = 0; type < 2; type++)
        out[type] = s != NULL ? stream_limit(s, type) : device_limit(d, type);
}

/* The bound stream's own limit of this type, if the thread is bound to a
 * live stream that has one set: 0 when not (values are stored plus one). */
static uint32_t bound_stream_own_limit(int type)
{
    struct stream *s = tls_res_stream != NULL ? (struct stream *)obj_resolve(tls_res_stream, OBJ_STREAM) : NULL;
    return s != NULL ? stream_setting_get(s, limit_setting(type)) : 0;
}

/* A limit set on the bound stream answers without a context (whatever the
 * current context's device); otherwise the current context's device. */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
    const char *fn = "aclrtGetResInCurrentThread";
    struct context *ctx;
    uint32_t own;
    aclError err;
    if (value == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'value' is NULL", fn);
    err = check_type(fn, type);
    if (err != ACL_SUCCESS)
        return err;
    own = bound_stream_own_limit(type);
    if (own != 0) {
        *value = own - 1;
        return ACL_SUCCESS;
    }
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        *value = device_limit(ctx->dev, type);
    return err;
}
