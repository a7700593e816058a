/*
 * api_ipc.c - sharing with other processes on the host: IPC memory keys,
 * IPC notifies and IPC events, and peer access between devices.
 *
 * DESIGN: argument checks in the reference's order (the acl layer's NULL
 * checks, 100000; then the runtime's: handles, lengths, flags, 107000),
 * then one call into core/ipc.c (notifies, events) or services/ipcmem.c
 * (memory). Keys are 64 characters and a NUL: a buffer shorter than 65
 * bytes is refused, as the driver refuses it. A key names the exporting
 * process; only processes on its allow-list may import it, unless the
 * export said DISABLE_PID_VALIDATION (207006 otherwise). The inter-server
 * allow-lists of a super node check their arguments, then say 207000:
 * one host has no other server. Takes no lock itself.
 *
 * Threads: any host thread.
 */
#include <string.h>

#include "api_int.h"
#include "../services/ipcshm.h"
#include "../services/ipcmem.h"

/* The driver's open flag for coprocessor notifies (not in acl_rt.h). */
#define NOTIFY_IMPORT_DOWNLOAD_TO_DEV 0x1u

static aclError check_key_len(const char *fn, size_t len)
{
    if (len == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'len' is 0; it must be at least %u", fn,
                        IPC_KEY_LEN);
    if (len < IPC_KEY_LEN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'len' is %zu; a key takes %u bytes with its NUL, so it must be at least %u", fn,
                        len, IPC_KEY_LEN, IPC_KEY_LEN);
    return ACL_SUCCESS;
}

/* The runtime's check of a Set*ImportPid's count: (0, INT32_MAX]. */
static aclError check_pid_count(const char *fn, size_t num)
{
    if (num == 0 || num > INT32_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'num' is %zu; it must be in (0, %d]", fn, num,
                        INT32_MAX);
    return ACL_SUCCESS;
}

/* The driver's, after the context: each entry a process id. */
static aclError check_pids(const char *fn, const int32_t *pid, size_t num)
{
    for (size_t i = 0; i < num; i++) {
        if (pid[i] <= 0)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'pid[%zu]' is %d, which is no process id", fn, i,
                            pid[i]);
    }
    return ACL_SUCCESS;
}

/* The checks both InterServer calls share after their NULL checks. */
static aclError check_server_pids(const char *fn, const aclrtServerPid *serverPids, size_t num, bool one_pid_each)
{
    if (num == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'num' is 0; it must not be", fn);
    for (size_t i = 0; i < num; i++) {
        if (serverPids[i].pid == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'serverPids[%zu].pid' is NULL", fn, i);
        if (one_pid_each && serverPids[i].num != 1)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'serverPids[%zu].num' is %zu; it must be 1", fn,
                            i, serverPids[i].num);
    }
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "%s: allow-lists across servers need a super node (Atlas A3 SuperPoD); aclcpu is one host", fn);
}

/* ---- peer access between devices (the IPC samples' first step) ---------------- */

/* The runtime's bound on device ids in the peer calls (RT_MAX_DEV_NUM). */
#define PEER_ID_LIMIT 64u

/* The checks of the enable and disable calls: distinct devices (100000), both
 * real (107001). */
static aclError check_peer(const char *fn, int32_t deviceId, int32_t peerDeviceId)
{
    if (deviceId == peerDeviceId)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceId' (%d) cannot be equal to 'peerDeviceId'", fn,
                        deviceId);
    if (device_get(peerDeviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'peerDeviceId' (%d) is not a device (there are "
                        "%u)", fn, peerDeviceId, device_count());
    if (device_get(deviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device (there are %u)",
                        fn, deviceId, device_count());
    return ACL_SUCCESS;
}

/* The reference's order: equal ids (100000); the peer's physical id (the
 * driver: 107001 for no device); then the runtime's checks, an id of 64 or
 * more (negative ones too, taken unsigned) 107000 and a NULL result 107000;
 * then the driver's for deviceId (107001). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)
{
    const char *fn = "aclrtDeviceCanAccessPeer";
    if (deviceId == peerDeviceId)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceId' (%d) cannot be equal to 'peerDeviceId'", fn,
                        deviceId);
    if (device_get(peerDeviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'peerDeviceId' (%d) is not a device (there are "
                        "%u)", fn, peerDeviceId, device_count());
    if ((uint32_t)deviceId >= PEER_ID_LIMIT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'deviceId' (%d) is outside [0, %u)", fn, deviceId,
                        PEER_ID_LIMIT);
    if (canAccessPeer == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'canAccessPeer' is NULL", fn);
    if (device_get(deviceId) == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) is not a device (there are %u)",
                        fn, deviceId, device_count());
    *canAccessPeer = 1; /* aclcpu's devices share one host's memory: every pair can */
    return ACL_SUCCESS;
}

/* Enable and disable: from the current device to a peer, one way, as the
 * driver keeps it (aclrtDevicePeerAccessStatus reports it). Every device
 * reaches every other's memory already, so copies do not depend on it. */
static aclError peer_access(const char *fn, int32_t peerDeviceId, bool enable)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = check_peer(fn, ctx->dev->id, peerDeviceId);
    if (err == ACL_SUCCESS)
        device_peer_set(ctx->dev, peerDeviceId, enable);
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)
{
    if (flags != 0)
        return acl_fail(ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtDeviceEnablePeerAccess: argument 'flags' (%u) is "
                        "reserved and must be 0", flags);
    return peer_access("aclrtDeviceEnablePeerAccess", peerDeviceId, true);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)
{
    return peer_access("aclrtDeviceDisablePeerAccess", peerDeviceId, false);
}

/* ---- IPC notifies ------------------------------------------------------------- */

static aclError resolve_notify(const char *fn, aclrtNotify h, struct event **out)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    *out = (struct event *)obj_resolve(h, OBJ_NOTIFY);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'notify' (%p) is not a live notify: destroyed, or never created", fn, h);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags)
{
    const char *fn = "aclrtNotifyGetExportKey";
    struct event *n;
    aclError err;
    if (notify == NULL || key == NULL)
        return null_arg(fn, notify == NULL ? "notify" : "key");
    err = resolve_notify(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = check_key_len(fn, len);
    if (err != ACL_SUCCESS)
        return err;
    if (flags != ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT && flags != ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flags' (0x%llx) must be ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (0) or "
                        "..._DISABLE_PID_VALIDATION (0x2)", fn, (unsigned long long)flags);
    err = ipc_event_export(n, flags == ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION, key);
    if (err == ACL_ERROR_RT_INTERNAL_ERROR)
        return acl_fail(err, "%s: the notify is an IPC notify already (exported once, or imported)", fn);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: no room for another shared object in this process", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num)
{
    const char *fn = "aclrtNotifySetImportPid";
    const char *why = "";
    struct event *n;
    aclError err;
    if (notify == NULL || pid == NULL)
        return null_arg(fn, notify == NULL ? "notify" : "pid");
    err = resolve_notify(fn, notify, &n);
    if (err == ACL_SUCCESS)
        err = check_pid_count(fn, num);
    if (err == ACL_SUCCESS)
        err = check_pids(fn, pid, num);
    if (err != ACL_SUCCESS)
        return err;
    err = ipc_event_allow(n, pid, num, &why);
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: argument 'notify': %s", fn, why);
}

ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
                                                                size_t num)
{
    const char *fn = "aclrtNotifySetImportPidInterServer";
    struct event *n;
    aclError err;
    if (notify == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'notify' is NULL", fn);
    if (serverPids == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'serverPids' is NULL", fn);
    if (num == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'num' is 0; it must not be", fn);
    err = resolve_notify(fn, notify, &n);
    return err != ACL_SUCCESS ? err : check_server_pids(fn, serverPids, num, true);
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags)
{
    const char *fn = "aclrtNotifyImportByKey";
    const char *why = "";
    struct context *ctx;
    struct event *n;
    aclError err;
    if (notify == NULL || key == NULL)
        return null_arg(fn, notify == NULL ? "notify" : "key");
    if (flags > (NOTIFY_IMPORT_DOWNLOAD_TO_DEV | ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flags' (0x%llx) must be ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT (0) or "
                        "..._ENABLE_PEER_ACCESS (0x2)", fn, (unsigned long long)flags);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (flags & NOTIFY_IMPORT_DOWNLOAD_TO_DEV)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: flag 0x1 opens a coprocessor (MC2) notify, which "
                        "aclcpu's devices do not have", fn);
    err = ipc_event_import(ctx, key, true, &n, &why);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: argument 'key' (\"%.64s\"): %s", fn, key, why);
    *notify = obj_handle(&n->hdr);
    return ACL_SUCCESS;
}

/* ---- IPC events ---------------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle)
{
    const char *fn = "aclrtIpcGetEventHandle";
    struct context *ctx;
    struct event *ev;
    aclError err;
    if (handle == NULL || event == NULL)
        return null_arg(fn, handle == NULL ? "handle" : "event");
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    ev = (struct event *)obj_resolve_user(event, OBJ_EVENT);
    if (ev == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE,
                        "%s: argument 'event' (%p) is not a live event: destroyed, or never created", fn, event);
    if (load_relaxed(&ev->flags) != ACL_EVENT_IPC)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'event' has flags 0x%x; only events created with ACL_EVENT_IPC have a handle",
                        fn, load_relaxed(&ev->flags));
    memset(handle, 0, sizeof(*handle));
    if (ipc_event_key(ev, handle->reserved)) /* the same handle every time */
        return ACL_SUCCESS;
    err = ipc_event_export(ev, true, handle->reserved); /* like the device's: any process may open it */
    if (err == ACL_ERROR_RT_INTERNAL_ERROR && ipc_event_key(ev, handle->reserved))
        return ACL_SUCCESS; /* another thread exported it first */
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: no room for another shared object in this process", fn);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event)
{
    const char *fn = "aclrtIpcOpenEventHandle";
    const char *why = "";
    char key[IPC_KEY_LEN];
    struct context *ctx;
    struct event *ev;
    aclError err;
    if (event == NULL)
        return null_arg(fn, "event");
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    memcpy(key, handle.reserved, sizeof(handle.reserved));
    key[sizeof(key) - 1] = '\0';
    err = ipc_event_import(ctx, key, false, &ev, &why);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: argument 'handle' (\"%.64s\"): %s", fn, key, why);
    *event = obj_handle(&ev->hdr);
    return ACL_SUCCESS;
}

/* ---- IPC memory ------------------------------------------------------------------- */

_Static_assert(IPC_KEY_MAX + 1 <= ACL_IPC_EVENT_HANDLE_SIZE, "a key must fit an aclrtIpcEventHandle");

ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags)
{
    const char *fn = "aclrtIpcMemGetExportKey";
    const char *why = "";
    struct context *ctx;
    aclError err;
    if (devPtr == NULL || key == NULL)
        return null_arg(fn, devPtr == NULL ? "devPtr" : "key");
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is 0; it must not be", fn);
    if (len == 0)
        return check_key_len(fn, len);
    if (flags > ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flags' (0x%llx) must be in [0, 1]: ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT or "
                        "..._DISABLE_PID_VALIDATION", fn, (unsigned long long)flags);
    err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = check_key_len(fn, len);
    if (err != ACL_SUCCESS)
        return err;
    err = ipcmem_export(devPtr, size, ctx->dev->id, flags == ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION, key,
                        &why);
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: argument 'devPtr' (%p, size %zu): %s", fn, devPtr, size, why);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num)
{
    const char *fn = "aclrtIpcMemSetImportPid";
    const char *why = "";
    struct context *ctx;
    aclError err;
    if (key == NULL || pid == NULL)
        return null_arg(fn, key == NULL ? "key" : "pid");
    err = check_pid_count(fn, num);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = check_pids(fn, pid, num);
    if (err != ACL_SUCCESS)
        return err;
    err = ipcmem_allow(key, pid, num, &why);
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: argument 'key' (\"%.64s\"): %s", fn, key, why);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num)
{
    const char *fn = "aclrtIpcMemImportPidInterServer";
    if (key == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'key' is NULL", fn);
    if (serverPids == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'serverPids' is NULL", fn);
    return check_server_pids(fn, serverPids, num, false);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags)
{
    const char *fn = "aclrtIpcMemImportByKey";
    const char *why = "";
    struct context *ctx;
    aclError err;
    if (devPtr == NULL || key == NULL)
        return null_arg(fn, devPtr == NULL ? "devPtr" : "key");
    if (flags > ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'flags' (0x%llx) must be in [0, 1]: ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT or "
                        "..._ENABLE_PEER_ACCESS", fn, (unsigned long long)flags);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = ipcmem_import(key, ctx->dev->id, devPtr, &why);
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: argument 'key' (\"%.64s\"): %s", fn, key, why);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key)
{
    const char *fn = "aclrtIpcMemClose";
    const char *why = "";
    struct context *ctx;
    aclError err;
    if (key == NULL)
        return null_arg(fn, "key");
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    err = ipcmem_close(key, &why);
    return err == ACL_SUCCESS ? err : acl_fail(err, "%s: argument 'key' (\"%.64s\"): %s", fn, key, why);
}

ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr)
{
    const char *fn = "aclrtIpcMemSetAttr";
    struct context *ctx;
    aclError err;
    if (key == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'key' is NULL", fn);
    if ((uint32_t)type != (uint32_t)ACL_RT_IPC_MEM_ATTR_ACCESS_LINK)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'type' (%u) must be ACL_RT_IPC_MEM_ATTR_ACCESS_LINK "
                        "(0)", fn, (unsigned)type);
    if (attr > ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'attr' (%llu) must be in [0, %d]: a link "
                        "(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_*)", fn, (unsigned long long)attr,
                        ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH);
    err = ctx_require(fn, &ctx);
    if (err != ACL_SUCCESS)
        return err;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: choosing the link of an IPC mapping needs a chip with "
                    "non-unified addressing (Ascend 950); aclcpu's devices share one host's memory", fn);
}
