/*
 * api_recovery.c - recovery and snapshots: device task abort and its
 * callbacks, device state callbacks, memory UCE queries, process
 * snapshots, and the data-dump state (aclmdlInitDump, aclmdlSetDump,
 * aclmdlFinalizeDump).
 *
 * DESIGN: the reference's argument checks in its order (the acl layer's
 * snapshot.cpp, callback.cpp, device.cpp, event.cpp and dump.cpp, then
 * api_error.cc and api_c_snapshot.cc), then one call into the core
 * (core/snapshot.c, core/recovery.c). The product checks read the SoC
 * profile in force (ACLCPU_SOC), as the reference reads its chip type:
 * task abort, UCE queries and snapshots exist on Ascend 950, A3 and A2.
 *
 * What a CPU cannot have: a CPU device's memory has no ECC, so it reports
 * no UCE (aclrtGetMemUceInfo answers 0 entries) and aclrtMemUceRepair has
 * nothing to repair (207000 after its checks). aclcpu has no data-dump
 * server (the adump component that writes operator data from the device's
 * dump tasks): the dump state machine is kept, an empty configuration sets
 * nothing, and a configuration that would turn dumping on is refused
 * (207000) rather than accepted and ignored.
 *
 * Threads: any host thread. Locks: dump_lock (a plain mutex of this file's,
 * taken alone) over the dump state; the core's for the rest.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "api_int.h"

#define TASK_ABORT_TIMEOUT_MAX (36u * 60u * 1000u) /* api_error.cc: 36 minutes */
#define UCE_REPAIR_MAX MAX_MEM_UCE_INFO_ARRAY_SIZE  /* RT_MAX_RECORD_PA_NUM_PER_DEV */
#define DUMP_CONFIG_MAX (10 << 20)                  /* json_parser.cpp: MAX_CONFIG_FILE_BYTE */
#define DUMP_DEPTH_MAX 10

static aclError no_recovery(const char *fn, const char *feature)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s exists only on Ascend 950, A3 and A2 (the SoC in "
                    "force is %s; set ACLCPU_SOC)", fn, feature, soc_configured()->name);
}

static bool recovery_soc(void) { return soc_has_recovery(soc_configured()); }

static aclError device_arg(const char *fn, int32_t deviceId, struct device **out)
{
    *out = device_get(deviceId);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' is %d; valid ids are 0..%u", fn,
                        deviceId, device_count() - 1);
    return ACL_SUCCESS;
}

/* ---- device task abort and device state ------------------------------------------- */

/* The reference's order (api_c_device.cc rtDeviceTaskAbort; api_error.cc
 * DeviceTaskAbort): a snapshot lock holds the call back, then the product
 * (207000), the timeout (107000 above 36 minutes), the device id (107001);
 * then the abort itself (context_manage.cc ContextManage::DeviceTaskAbort). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout)
{
    const char *fn = "aclrtDeviceTaskAbort";
    struct device *d;
    aclError err;
    snapshot_gate(); /* a snapshot lock holds it back (api_c_device.cc rtDeviceTaskAbort) */
    if (!recovery_soc())
        return no_recovery(fn, "device task abort");
    if (timeout > TASK_ABORT_TIMEOUT_MAX)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'timeout' is %u ms; at most %u (36 minutes), 0 for "
                        "none", fn, timeout, TASK_ABORT_TIMEOUT_MAX);
    err = device_arg(fn, deviceId, &d);
    if (err != ACL_SUCCESS)
        return err;
    return device_task_abort(fn, d, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(const char *regName,
                                                             aclrtDeviceTaskAbortCallback callback, void *args)
{
    const char *fn = "aclrtSetDeviceTaskAbortCallback";
    if (regName == NULL)
        return null_arg(fn, "regName");
    return taskabort_register(fn, regName, callback, args);
}

ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args)
{
    const char *fn = "aclrtRegDeviceStateCallback";
    if (regName == NULL)
        return null_arg(fn, "regName");
    return devstate_register(fn, regName, callback, args);
}

/* ---- memory UCE --------------------------------------------------------------------- */

/* The acl layer (event.cpp) checks its two pointers; api_error.cc
 * GetMemUceInfo the product and the device. A CPU device's memory has no
 * ECC: no UCE to report, so the array is left as it is and *retSize is 0
 * (arraySize below the count found, 0, can never fail). */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                                size_t *retSize)
{
    const char *fn = "aclrtGetMemUceInfo";
    struct device *d;
    aclError err;
    (void)arraySize;
    if (memUceInfoArray == NULL)
        return null_arg(fn, "memUceInfoArray");
    if (retSize == NULL)
        return null_arg(fn, "retSize");
    if (!recovery_soc())
        return no_recovery(fn, "the memory UCE query");
    err = device_arg(fn, deviceId, &d);
    if (err != ACL_SUCCESS)
        return err;
    *retSize = 0;
    return ACL_SUCCESS;
}

/* event.cpp aclrtMemUceRepairImpl: the array (100000), arraySize at most
 * 128 (100000), each entry's reserved bytes zero (the first
 * UCE_INFO_RESERVED_SIZE bytes, as its memcmp compares; 100000); then
 * api_error.cc MemUceRepair: the product (207000), the device (107001). */
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize)
{
    const char *fn = "aclrtMemUceRepair";
    static const unsigned char zero[UCE_INFO_RESERVED_SIZE];
    struct device *d;
    aclError err;
    if (memUceInfoArray == NULL)
        return null_arg(fn, "memUceInfoArray");
    if (arraySize > UCE_REPAIR_MAX)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'arraySize' is %zu; at most %d", fn, arraySize,
                        UCE_REPAIR_MAX);
    for (size_t i = 0; i < arraySize; i++)
        if (memcmp(memUceInfoArray[i].reserved, zero, sizeof(zero)) != 0)
            return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'memUceInfoArray[%zu].reserved' is reserved and "
                            "must be 0", fn, i);
    if (!recovery_soc())
        return no_recovery(fn, "the memory UCE repair");
    err = device_arg(fn, deviceId, &d);
    if (err != ACL_SUCCESS)
        return err;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: a CPU device's memory has no ECC and reports no UCE "
                    "(aclrtGetMemUceInfo finds none), so there is nothing to repair", fn);
}

/* ---- process snapshots -------------------------------------------------------------------- */

/* snapshot.cpp: pid must be this process's (100000), then the reserved
 * argument must be NULL (100000); api_c_snapshot.cc: the product (207000). */
static aclError snapshot_args(const char *fn, int pid, const void *reserved, const char *name)
{
    if (pid != plat_pid())
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'pid' is %d; it must be this process's (%d): "
                        "another process cannot be snapshotted", fn, pid, (int)plat_pid());
    if (reserved != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is reserved and must be NULL", fn, name);
    if (!recovery_soc())
        return no_recovery(fn, "the process snapshot");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void *reserve)
{
    const char *fn = "aclrtSnapShotProcessLock";
    aclError err = snapshot_args(fn, pid, reserve, "reserve");
    return err != ACL_SUCCESS ? err : snapshot_lock(fn);
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void *reserve)
{
    const char *fn = "aclrtSnapShotProcessUnlock";
    aclError err = snapshot_args(fn, pid, reserve, "reserve");
    return err != ACL_SUCCESS ? err : snapshot_unlock(fn);
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args)
{
    const char *fn = "aclrtSnapShotProcessBackup";
    aclError err = snapshot_args(fn, pid, args, "args");
    return err != ACL_SUCCESS ? err : snapshot_backup(fn);
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args)
{
    const char *fn = "aclrtSnapShotProcessRestore";
    aclError err = snapshot_args(fn, pid, args, "args");
    return err != ACL_SUCCESS ? err : snapshot_restore(fn);
}

/* api_c_snapshot.cc: the product (207000); snapshot_callback_manager.cc:
 * the stage in [LOCK_PRE, UNLOCK_POST] (107000), the callback (107000). */
static aclError stage_args(const char *fn, aclrtSnapShotStage stage, aclrtSnapShotCallBack callback)
{
    if (!recovery_soc())
        return no_recovery(fn, "the process snapshot");
    if ((int)stage < (int)ACL_RT_SNAPSHOT_LOCK_PRE || (int)stage > (int)ACL_RT_SNAPSHOT_UNLOCK_POST)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'stage' is %d; valid stages are %d..%d", fn,
                        (int)stage, (int)ACL_RT_SNAPSHOT_LOCK_PRE, (int)ACL_RT_SNAPSHOT_UNLOCK_POST);
    if (callback == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'callback' is NULL", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                                           void *args)
{
    const char *fn = "aclrtSnapShotCallbackRegister";
    aclError err = stage_args(fn, stage, callback);
    return err != ACL_SUCCESS ? err : snapshot_cb_register(fn, stage, callback, args);
}

ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback)
{
    const char *fn = "aclrtSnapShotCallbackUnregister";
    aclError err = stage_args(fn, stage, callback);
    return err != ACL_SUCCESS ? err : snapshot_cb_unregister(fn, stage, callback);
}

/* ---- the data-dump state -------------------------------------------------------------------- */

static plat_mutex dump_lock;
static bool dump_inited; /* under dump_lock: aclmdlInitDump ran, aclmdlFinalizeDump not since */

__attribute__((constructor)) static void dump_init(void) { plat_mutex_init(&dump_lock, LOCK_API_DUMP); }

static aclError dump_needs_init(const char *fn)
{
    if (!acl_initialised())
        return acl_fail(ACL_ERROR_UNINITIALIZE, "%s: aclInit must be called first", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void)
{
    const char *fn = "aclmdlInitDump";
    aclError err = dump_needs_init(fn);
    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&dump_lock);
    if (dump_inited)
        err = acl_fail(ACL_ERROR_REPEAT_INITIALIZE, "%s: called again before aclmdlFinalizeDump", fn);
    dump_inited = true;
    plat_mutex_unlock(&dump_lock);
    return err;
}

/* The reference reads the file (json_parser.cpp GetConfigStrFromFile: a
 * file that cannot be opened, is no regular file or is above 10 MiB is
 * 100003; nesting deeper than 10 objects or arrays 100006) and hands the
 * text to the dump component, which refuses what is not a dump
 * configuration (100009). Text is read into *text (acl_malloc). */
static aclError read_dump_config(const char *fn, const char *path, char **text, size_t *len)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    aclError err = ACL_SUCCESS;
    *text = NULL;
    *len = 0;
    if (f == NULL)
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'dumpCfgPath' (\"%s\") cannot be opened for reading",
                        fn, path);
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
        err = acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'dumpCfgPath' (\"%s\") is not a regular file", fn, path);
    else if (st.st_size > DUMP_CONFIG_MAX)
        err = acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'dumpCfgPath' (\"%s\") is %lld bytes; at most %d", fn,
                       path, (long long)st.st_size, DUMP_CONFIG_MAX);
    else if ((*text = acl_malloc((size_t)st.st_size + 1)) == NULL)
        err = acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of host memory reading \"%s\"", fn, path);
    else
        *len = fread(*text, 1, (size_t)st.st_size, f);
    if (*text != NULL)
        (*text)[*len] = '\0';
    fclose(f);
    return err;
}

/* dump.cpp aclmdlSetDumpImpl: aclInit (100001), aclmdlInitDump (100045),
 * the path (100000), the file (read_dump_config), then the dump component. */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath)
{
    const char *fn = "aclmdlSetDump";
    char *text = NULL;
    size_t len = 0, used;
    bool inited;
    aclError err = dump_needs_init(fn);
    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&dump_lock);
    inited = dump_inited;
    plat_mutex_unlock(&dump_lock);
    if (!inited)
        return acl_fail(ACL_ERROR_DUMP_NOT_RUN, "%s: aclmdlInitDump must be called first", fn);
    if (dumpCfgPath == NULL)
        return null_arg(fn, "dumpCfgPath");
    err = read_dump_config(fn, dumpCfgPath, &text, &len);
    used = text != NULL ? strnlen(text, len) : 0;
    if (err == ACL_SUCCESS && (json_naive_depth(text, used, '{', '}') > DUMP_DEPTH_MAX ||
                               json_naive_depth(text, used, '[', ']') > DUMP_DEPTH_MAX))
        err = acl_fail(ACL_ERROR_PARSE_FILE, "%s: argument 'dumpCfgPath' (\"%s\") nests more than %d objects or "
                       "arrays", fn, dumpCfgPath, DUMP_DEPTH_MAX);
    else if (err == ACL_SUCCESS && len != 0 && !json_text_is_valid(text, used))
        err = acl_fail(ACL_ERROR_INVALID_DUMP_CONFIG, "%s: argument 'dumpCfgPath' (\"%s\") is not JSON text", fn,
                       dumpCfgPath);
    else if (err == ACL_SUCCESS && len != 0)
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: aclcpu has no data-dump server to write operator data "
                       "(\"%s\" configures a dump); only an empty configuration is accepted", fn, dumpCfgPath);
    acl_free(text);
    return err;
}

/* dump.cpp aclmdlFinalizeDumpImpl: aclInit (100001), aclmdlInitDump
 * (100045); then the dump state ends. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void)
{
    const char *fn = "aclmdlFinalizeDump";
    aclError err = dump_needs_init(fn);
    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&dump_lock);
    if (!dump_inited)
        err = acl_fail(ACL_ERROR_DUMP_NOT_RUN, "%s: aclmdlInitDump must be called first", fn);
    dump_inited = false;
    plat_mutex_unlock(&dump_lock);
    return err;
}
