/*
 * fuzz_calls.c - the fuzzer's table: one entry per API function.
 *
 * Each entry draws its arguments (fuzz_pool.c), makes the call, hands the
 * code to the oracle (fz_check) and updates the pools from what the call
 * made or destroyed. A new API family is one entry per function here, at
 * the end of the table: draw handles with fz_handle, device memory with
 * fz_dev_ptr, host memory with fz_host_ptr (host memory the library cannot
 * check is always real), and keep what a create call returns with fz_keep.
 *
 * The fuzzer commits only misuse the API can detect: every handle and every
 * device-side pointer may be anything, but host buffers are real and big
 * enough, and memory that queued work uses (the stable blocks) is not freed
 * before the run ends, as a correct program on the device must do too.
 *
 * Threads: both calling threads (FZ_MAIN entries run on thread 0 only).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* The deprecated calls are API too. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* ---- kernels and host functions ---- */

static _Atomic uint64_t ran;
static aclrtFuncHandle k_count, k_trap, k_sleep, k_overflow;

static void kern_count(void *args)
{
    (void)args;
    atomic_fetch_add_explicit(&ran, 1, memory_order_relaxed);
}

static void kern_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* Only block 0 sleeps: a 65535-block launch must not take 13 s. */
static void kern_sleep(void *args)
{
    struct timespec ts = {0, 200 * 1000};
    (void)args;
    if (aclcpuGetBlockIdx() == 0)
        nanosleep(&ts, NULL);
}

static void kern_overflow(void *args)
{
    (void)args;
    aclcpuSetOverflow();
}

static void host_count(void *args)
{
    (void)args;
    atomic_fetch_add_explicit(&ran, 1, memory_order_relaxed);
}

static void state_cb(aclrtStream s, aclrtStreamState st, void *args)
{
    (void)s, (void)st, (void)args;
}

static void device_state_cb(int32_t d, aclrtDeviceState st, void *args)
{
    (void)d, (void)st, (void)args;
}

static int32_t task_abort_cb(int32_t d, aclrtDeviceTaskAbortStage st, uint32_t timeout, void *args)
{
    (void)d, (void)st, (void)timeout, (void)args;
    return 0;
}

void fz_register_kernels(void)
{
    aclcpuRegisterKernel("fz_count", kern_count, &k_count);
    aclcpuRegisterKernel("fz_trap", kern_trap, &k_trap);
    aclcpuRegisterKernel("fz_sleep", kern_sleep, &k_sleep);
    aclcpuRegisterKernel("fz_overflow", kern_overflow, &k_overflow);
    fz_keep(FZ_FUNC, k_count, 0);
    fz_keep(FZ_FUNC, k_count, 0);
    fz_keep(FZ_FUNC, k_trap, 0);
    fz_keep(FZ_FUNC, k_sleep, 0);
    fz_keep(FZ_FUNC, k_overflow, 0);
}

#define CALL(name) static void c_##name(struct fz *f)
#define H(t) fz_handle(f, t)
#define STREAM() H(FZ_STREAM)
#define EVENT() H(FZ_EVENT)

/* A stream, or sometimes NULL meaning the default stream where allowed. */
static aclrtStream any_stream(struct fz *f) { return STREAM(); }

static uint32_t u32(struct fz *f) { return (uint32_t)FZ_INT(f, 0, 1, 2, 3, 4, 7, 8, 64); }

/* ---- device, context ---- */

CALL(SetDevice) { fz_check(f, aclrtSetDevice((int32_t)fz_enum(f, 0, 1))); }
CALL(ResetDevice)
{
    int32_t d = fz_enum(f, 0, 1);
    fz_check(f, fz_chance(f, 50) ? aclrtResetDevice(d) : aclrtResetDeviceForce(d));
    /* The device may or may not have gone (other contexts may hold it); the
     * pools keep their handles, which the API must refuse if they died. */
}
CALL(GetDevice) { int32_t d; fz_check(f, aclrtGetDevice(fz_out(f, &d))); }
CALL(GetDeviceCount) { uint32_t n; fz_check(f, aclrtGetDeviceCount(fz_out(f, &n))); }
CALL(CreateContext)
{
    aclrtContext c = NULL, cur = NULL;
    if (fz_full(FZ_CONTEXT))
        return;
    aclrtGetCurrentContext(&cur);
    if (fz_check(f, aclrtCreateContext(fz_out(f, &c), fz_enum(f, 0, 1))) == ACL_SUCCESS)
        fz_keep(FZ_CONTEXT, c, 0);
    if (cur != NULL && fz_chance(f, 70))
        aclrtSetCurrentContext(cur); /* mostly stay where the pools' streams are */
}
CALL(DestroyContext)
{
    aclrtContext c = H(FZ_CONTEXT);
    if (fz_check(f, aclrtDestroyContext(c)) == ACL_SUCCESS)
        fz_drop(FZ_CONTEXT, c);
}
CALL(SetCurrentContext) { fz_check(f, aclrtSetCurrentContext(H(FZ_CONTEXT))); }
CALL(GetCurrentContext) { aclrtContext c; fz_check(f, aclrtGetCurrentContext(fz_out(f, &c))); }
CALL(CtxGetCurrentDefaultStream) { aclrtStream s; fz_check(f, aclrtCtxGetCurrentDefaultStream(fz_out(f, &s))); }
CALL(SynchronizeDevice) { fz_check(f, aclrtSynchronizeDevice()); }
CALL(SynchronizeDeviceWithTimeout) { fz_check(f, aclrtSynchronizeDeviceWithTimeout(fz_timeout(f, 1))); }
CALL(GetRunMode) { aclrtRunMode m; fz_check(f, aclrtGetRunMode(fz_out(f, &m))); }
CALL(GetSocName) { fz_note(f, "%s", aclrtGetSocName() ? "name" : "NULL"); fz_check(f, ACL_SUCCESS); }
CALL(GetRecentErrMsg) { const char *m = aclGetRecentErrMsg(); fz_note(f, "%zu chars", m ? strlen(m) : 0); fz_check(f, ACL_SUCCESS); }

/* ---- streams ---- */

/* s is read after the call wrote it (not as an argument beside the call). */
static void keep_stream(struct fz *f, aclError rc, const aclrtStream *s)
{
    if (fz_check(f, rc) == ACL_SUCCESS)
        fz_keep(FZ_STREAM, *s, 0);
}

static uint32_t stream_flags(struct fz *f)
{
    return (uint32_t)FZ_INT(f, 0, 0, 0, 1, 2, 4, 8, 0x10, 0x20, 0x40, 0x7);
}

CALL(CreateStream)
{
    aclrtStream s = NULL;
    if (!fz_full(FZ_STREAM))
        keep_stream(f, aclrtCreateStream(fz_out(f, &s)), &s);
}
CALL(CreateStreamWithConfig)
{
    aclrtStream s = NULL;
    uint32_t prio = u32(f);
    if (!fz_full(FZ_STREAM))
        keep_stream(f, aclrtCreateStreamWithConfig(fz_out(f, &s), prio, stream_flags(f)), &s);
}
CALL(CreateStreamConfigHandle)
{
    aclrtStreamConfigHandle *h;
    if (fz_full(FZ_STREAMCFG))
        return;
    h = aclrtCreateStreamConfigHandle();
    fz_check(f, h != NULL ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC);
    if (h != NULL)
        fz_keep(FZ_STREAMCFG, h, 0);
}
CALL(DestroyStreamConfigHandle)
{
    void *h = fz_live(f, FZ_STREAMCFG);
    if (fz_check(f, aclrtDestroyStreamConfigHandle(h)) == ACL_SUCCESS)
        fz_drop(FZ_STREAMCFG, h);
}
CALL(SetStreamConfigOpt)
{
    void *h = fz_live(f, FZ_STREAMCFG);
    int32_t attr = fz_enum(f, 0, 3);
    uint64_t v[4] = {(uint64_t)FZ_INT(f, 0, 1, 4, 7, 64)};
    size_t n = (size_t)FZ_PICK(f, 8, 4, 0, 1, 16, 32);
    fz_check(f, aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)attr, fz_chance(f, 95) ? v : NULL, n));
}
CALL(CreateStreamV2)
{
    aclrtStream s = NULL;
    void *h = fz_live(f, FZ_STREAMCFG);
    if (!fz_full(FZ_STREAM))
        keep_stream(f, aclrtCreateStreamV2(fz_out(f, &s), h), &s);
}
CALL(DestroyStream)
{
    aclrtStream s = STREAM();
    aclError rc = fz_check(f, fz_chance(f, 70) ? aclrtDestroyStream(s) : aclrtDestroyStreamForce(s));
    if (rc == ACL_SUCCESS)
        fz_drop(FZ_STREAM, s);
}
CALL(SynchronizeStream) { fz_check(f, aclrtSynchronizeStream(any_stream(f))); }
CALL(SynchronizeStreamWithTimeout)
{
    aclrtStream s = any_stream(f);
    fz_check(f, aclrtSynchronizeStreamWithTimeout(s, fz_timeout(f, 1)));
}
CALL(StreamQuery) { aclrtStreamStatus st; aclrtStream s = any_stream(f); fz_check(f, aclrtStreamQuery(s, fz_out(f, &st))); }
CALL(StreamGetPriority) { uint32_t v; aclrtStream s = any_stream(f); fz_check(f, aclrtStreamGetPriority(s, fz_out(f, &v))); }
CALL(StreamGetFlags) { uint32_t v; aclrtStream s = any_stream(f); fz_check(f, aclrtStreamGetFlags(s, fz_out(f, &v))); }
CALL(StreamGetId) { int32_t v; aclrtStream s = any_stream(f); fz_check(f, aclrtStreamGetId(s, fz_out(f, &v))); }
CALL(GetStreamAvailableNum) { uint32_t v; fz_check(f, aclrtGetStreamAvailableNum(fz_out(f, &v))); }
CALL(SetStreamFailureMode)
{
    aclrtStream s = any_stream(f);
    fz_check(f, aclrtSetStreamFailureMode(s, (uint64_t)FZ_INT(f, 0, 1, 2)));
}
CALL(SetStreamOverflowSwitch) { aclrtStream s = any_stream(f); fz_check(f, aclrtSetStreamOverflowSwitch(s, u32(f))); }
CALL(GetStreamOverflowSwitch) { uint32_t v; aclrtStream s = any_stream(f); fz_check(f, aclrtGetStreamOverflowSwitch(s, fz_out(f, &v))); }
CALL(SetStreamAttribute)
{
    aclrtStreamAttrValue v;
    aclrtStream s = any_stream(f);
    int32_t a = fz_enum(f, 1, 6);
    memset(&v, 0, sizeof(v));
    v.failureMode = (uint64_t)FZ_INT(f, 0, 1, 2, 7, 8);
    fz_check(f, aclrtSetStreamAttribute(s, (aclrtStreamAttr)a, fz_out(f, &v)));
}
CALL(GetStreamAttribute)
{
    aclrtStreamAttrValue v;
    aclrtStream s = any_stream(f);
    int32_t a = fz_enum(f, 1, 6);
    fz_check(f, aclrtGetStreamAttribute(s, (aclrtStreamAttr)a, fz_out(f, &v)));
}
CALL(StreamAbort) { fz_check(f, aclrtStreamAbort(any_stream(f))); }
CALL(DeviceTaskAbort)
{
    fz_check(f, aclrtDeviceTaskAbort((int32_t)fz_enum(f, 0, 1), fz_chance(f, 50) ? 0u : 60000u));
}
CALL(SetDeviceTaskAbortCallback)
{
    static const char *const names[] = {"fz", "fz2", "", NULL};
    const char *n = names[fz_below(f, 4)];
    fz_note(f, "\"%s\"", n ? n : "(null)");
    fz_check(f, aclrtSetDeviceTaskAbortCallback(n, fz_chance(f, 70) ? task_abort_cb : NULL, NULL));
}
CALL(RegDeviceStateCallback)
{
    static const char *const names[] = {"fz", "fz2", "", NULL};
    const char *n = names[fz_below(f, 4)];
    fz_note(f, "\"%s\"", n ? n : "(null)");
    fz_check(f, aclrtRegDeviceStateCallback(n, fz_chance(f, 70) ? device_state_cb : NULL, NULL));
}
CALL(GetMemUceInfo)
{
    aclrtMemUceInfo info[2];
    size_t n;
    fz_check(f, aclrtGetMemUceInfo((int32_t)fz_enum(f, 0, 1), fz_out(f, info), 2, fz_out(f, &n)));
}
CALL(StreamStop) { fz_check(f, aclrtStreamStop(any_stream(f))); }
CALL(PersistentTaskClean) { fz_check(f, aclrtPersistentTaskClean(any_stream(f))); }
CALL(ActiveStream)
{
    aclrtStream a = any_stream(f), s = any_stream(f);
    fz_check(f, aclrtActiveStream(a, s));
}
/* The operands are device memory the switch reads when the model runs. */
CALL(SwitchStream)
{
    void *l = fz_dev_ptr(f, 8, 0), *r = fz_dev_ptr(f, 8, 0);
    int32_t cond = fz_enum(f, 0, 5), type = fz_enum(f, 0, 1);
    aclrtStream t = any_stream(f), fa = any_stream(f), s = any_stream(f);
    fz_check(f, aclrtSwitchStream(l, (aclrtCondition)cond, r, (aclrtCompareDataType)type, t, fa, s));
}
CALL(RegStreamStateCallback)
{
    static const char *const names[] = {"fz", "fz2", "", NULL};
    const char *n = names[fz_below(f, 4)];
    fz_note(f, "\"%s\"", n ? n : "(null)");
    fz_check(f, aclrtRegStreamStateCallback(n, fz_chance(f, 70) ? state_cb : NULL, NULL));
}
CALL(DeviceGetStreamPriorityRange)
{
    int32_t a, b;
    fz_check(f, aclrtDeviceGetStreamPriorityRange(fz_out(f, &a), fz_out(f, &b)));
}
CALL(StreamWaitEvent)
{
    aclrtStream s = any_stream(f);
    aclrtEvent e = EVENT();
    switch (fz_below(f, 3)) {
    case 0: fz_check(f, aclrtStreamWaitEvent(s, e)); break;
    case 1: fz_check(f, aclrtStreamWaitEventWithFlag(s, e, (uint32_t)FZ_INT(f, 0, 1, 10, 1000), u32(f) & 3)); break;
    default: fz_check(f, aclrtStreamWaitEventWithTimeout(s, e, fz_timeout(f, 1))); break;
    }
}
CALL(NonBlockingLaunch)
{
    aclrtStream s = any_stream(f);
    uint64_t flag = (uint64_t)FZ_INT(f, 0, 1);
    fz_check(f, fz_chance(f, 50) ? aclrtNonBlockingLaunchBegin(s, flag) : aclrtNonBlockingLaunchEnd(s, flag));
}

/* ---- resource limits ---- */

CALL(DeviceResLimit)
{
    int32_t d = fz_enum(f, 0, 1), t = fz_enum(f, 0, 1);
    uint32_t v = u32(f);
    switch (fz_below(f, 3)) {
    case 0: fz_check(f, aclrtGetDeviceResLimit(d, (aclrtDevResLimitType)t, fz_out(f, &v))); break;
    case 1: fz_check(f, aclrtSetDeviceResLimit(d, (aclrtDevResLimitType)t, v)); break;
    default: fz_check(f, aclrtResetDeviceResLimit(d)); break;
    }
}
CALL(StreamResLimit)
{
    aclrtStream s = any_stream(f);
    int32_t t = fz_enum(f, 0, 1);
    uint32_t v = u32(f);
    switch (fz_below(f, 6)) {
    case 0: fz_check(f, aclrtGetStreamResLimit(s, (aclrtDevResLimitType)t, fz_out(f, &v))); break;
    case 1: fz_check(f, aclrtSetStreamResLimit(s, (aclrtDevResLimitType)t, v)); break;
    case 2: fz_check(f, aclrtResetStreamResLimit(s)); break;
    case 3: fz_check(f, aclrtUseStreamResInCurrentThread(s)); break;
    case 4: fz_check(f, aclrtUnuseStreamResInCurrentThread(s)); break;
    default: fz_check(f, aclrtGetResInCurrentThread((aclrtDevResLimitType)t, fz_out(f, &v))); break;
    }
}

/* ---- events ---- */

static uint32_t event_flags(struct fz *f) { return (uint32_t)FZ_INT(f, 0, 1, 2, 8, 0x10, 0x20, 0x40, 0x9, 0x100); }

CALL(CreateEvent)
{
    aclrtEvent e = NULL;
    aclError rc;
    if (fz_full(FZ_EVENT))
        return;
    switch (fz_below(f, 3)) {
    case 0: rc = aclrtCreateEvent(fz_out(f, &e)); break;
    case 1: rc = aclrtCreateEventWithFlag(fz_out(f, &e), event_flags(f)); break;
    default: rc = aclrtCreateEventExWithFlag(fz_out(f, &e), event_flags(f)); break;
    }
    if (fz_check(f, rc) == ACL_SUCCESS)
        fz_keep(FZ_EVENT, e, 0);
}
CALL(DestroyEvent)
{
    aclrtEvent e = EVENT();
    if (fz_check(f, aclrtDestroyEvent(e)) == ACL_SUCCESS)
        fz_drop(FZ_EVENT, e);
}
CALL(RecordEvent)
{
    aclrtEvent e = EVENT();
    aclrtStream s = any_stream(f);
    fz_check(f, fz_chance(f, 70) ? aclrtRecordEvent(e, s) : aclrtRecordEventWithFlag(e, s, u32(f) & 3));
}
CALL(ResetEvent) { aclrtEvent e = EVENT(); fz_check(f, aclrtResetEvent(e, any_stream(f))); }
CALL(QueryEvent)
{
    aclrtEvent e = EVENT();
    int st;
    switch (fz_below(f, 3)) {
    case 0: fz_check(f, aclrtQueryEvent(e, fz_out(f, &st))); break;
    case 1: fz_check(f, aclrtQueryEventStatus(e, fz_out(f, &st))); break;
    default: fz_check(f, aclrtQueryEventWaitStatus(e, fz_out(f, &st))); break;
    }
}
CALL(SynchronizeEvent) { fz_check(f, aclrtSynchronizeEvent(EVENT())); }
CALL(SynchronizeEventWithTimeout) { aclrtEvent e = EVENT(); fz_check(f, aclrtSynchronizeEventWithTimeout(e, fz_timeout(f, 1))); }
CALL(EventElapsedTime)
{
    float ms;
    float *out = fz_out(f, &ms);
    aclrtEvent a = EVENT(), b = EVENT();
    fz_check(f, aclrtEventElapsedTime(out, a, b));
}
CALL(EventGetTimestamp) { uint64_t t; aclrtEvent e = EVENT(); fz_check(f, aclrtEventGetTimestamp(e, fz_out(f, &t))); }
CALL(GetEventId) { uint32_t v; aclrtEvent e = EVENT(); fz_check(f, aclrtGetEventId(e, fz_out(f, &v))); }
CALL(GetEventAvailNum) { uint32_t v; fz_check(f, aclrtGetEventAvailNum(fz_out(f, &v))); }
CALL(SetOpWaitTimeout) { fz_check(f, aclrtSetOpWaitTimeout((uint32_t)FZ_INT(f, 0, 1, 1000, 60000))); }
CALL(IpcEvent)
{
    aclrtIpcEventHandle h;
    aclrtEvent e = EVENT(), opened = NULL;
    memset(&h, 0, sizeof(h));
    if (fz_chance(f, 50)) {
        fz_check(f, aclrtIpcGetEventHandle(e, fz_out(f, &h)));
        return;
    }
    if (fz_chance(f, 50))
        memcpy(&h, &e, sizeof(e));
    else
        for (size_t i = 0; i < sizeof(h); i++)
            h.reserved[i] = (char)fz_rand(f);
    if (fz_check(f, aclrtIpcOpenEventHandle(h, fz_out(f, &opened))) == ACL_SUCCESS && opened != NULL)
        fz_keep(FZ_EVENT, opened, 0);
}

/* ---- notifies ---- */

CALL(CreateNotify)
{
    aclrtNotify n = NULL;
    if (!fz_full(FZ_NOTIFY) && fz_check(f, aclrtCreateNotify(fz_out(f, &n), (uint64_t)FZ_INT(f, 0, 1, 2))) == ACL_SUCCESS)
        fz_keep(FZ_NOTIFY, n, 0);
}
CALL(DestroyNotify)
{
    aclrtNotify n = H(FZ_NOTIFY);
    if (fz_check(f, aclrtDestroyNotify(n)) == ACL_SUCCESS)
        fz_drop(FZ_NOTIFY, n);
}
CALL(RecordNotify) { aclrtNotify n = H(FZ_NOTIFY); fz_check(f, aclrtRecordNotify(n, any_stream(f))); }
CALL(WaitAndResetNotify)
{
    aclrtNotify n = H(FZ_NOTIFY);
    aclrtStream s = any_stream(f);
    /* Seconds: only the untimed waits (0, and UINT32_MAX: the default), so
     * that an unrecorded wait is found stuck at once instead of holding its
     * stream for seconds. */
    fz_check(f, aclrtWaitAndResetNotify(n, s, (uint32_t)FZ_PICK(f, 0, UINT32_MAX)));
}
CALL(GetNotifyId) { uint32_t v; aclrtNotify n = H(FZ_NOTIFY); fz_check(f, aclrtGetNotifyId(n, fz_out(f, &v))); }

/* ---- memory ---- */

CALL(Malloc)
{
    void *p = NULL;
    size_t size = fz_size(f);
    int32_t policy = fz_enum(f, 0, 7);
    if (fz_chance(f, 5))
        policy = (int32_t)FZ_INT(f, 0x100, 0x1000, 0x100000);
    if (!fz_full(FZ_DEVMEM) &&
        fz_check(f, aclrtMalloc(fz_out(f, &p), size, (aclrtMemMallocPolicy)policy)) == ACL_SUCCESS)
        fz_keep(FZ_DEVMEM, p, size);
}
CALL(Free)
{
    void *p = fz_dev_ptr(f, 0, 1);
    if (fz_is_stable(p)) /* queued copies may still use it: freeing it is the caller's bug */
        p = NULL;
    if (fz_check(f, aclrtFree(p)) == ACL_SUCCESS)
        fz_drop(FZ_DEVMEM, p);
}
/* The caching allocator (aclcpu/aclcpu.h): its blocks join the device
 * memory pool, so copies, memsets and kernels get them too; aclrtFree of
 * one is refused, as aclcpuCacheFree of aclrtMalloc memory is. */
CALL(CacheMalloc)
{
    void *p = NULL;
    size_t size = fz_size(f);
    if (!fz_full(FZ_DEVMEM) && fz_check(f, aclcpuCacheMalloc(fz_out(f, &p), size, any_stream(f))) == ACL_SUCCESS)
        fz_keep(FZ_DEVMEM, p, size);
}
CALL(CacheFree)
{
    void *p = fz_dev_ptr(f, 0, 1);
    if (fz_is_stable(p))
        p = NULL;
    if (fz_check(f, aclcpuCacheFree(p)) == ACL_SUCCESS)
        fz_drop(FZ_DEVMEM, p);
}
CALL(CacheRecordStream)
{
    void *p = fz_dev_ptr(f, 0, 1);
    if (fz_chance(f, 50))
        fz_check(f, aclcpuCacheRecordStream(p, any_stream(f)));
    else
        fz_check(f, aclcpuCacheEraseStream(p, any_stream(f)));
}
CALL(CacheStats)
{
    aclcpuCacheStats st;
    switch (fz_below(f, 3)) {
    case 0: fz_check(f, aclcpuCacheGetStats(fz_enum(f, -1, 3), fz_out(f, &st))); break;
    case 1: fz_check(f, aclcpuCacheGetStreamStats(any_stream(f), fz_out(f, &st))); break;
    default: fz_check(f, aclcpuCacheEmpty(fz_enum(f, -1, 3))); break;
    }
}
CALL(MallocHost)
{
    void *p = NULL;
    size_t size = fz_size(f);
    if (!fz_full(FZ_HOSTMEM) && fz_check(f, aclrtMallocHost(fz_out(f, &p), size)) == ACL_SUCCESS)
        fz_keep(FZ_HOSTMEM, p, size);
}
CALL(FreeHost)
{
    void *p = fz_chance(f, 70) ? fz_live(f, FZ_HOSTMEM) : fz_dev_ptr(f, 0, 1);
    if (fz_check(f, aclrtFreeHost(p)) == ACL_SUCCESS)
        fz_drop(FZ_HOSTMEM, p);
}

/* ---- virtual memory, managed memory, host registration ---- */

enum { FZ_2M = 2 << 20 };

CALL(ReserveMemAddress)
{
    void *v = NULL;
    size_t size = (size_t)FZ_INT(f, FZ_2M, 2 * FZ_2M, FZ_2M + 1);
    size_t align = (size_t)FZ_PICK(f, 0, 0, FZ_2M, 3);
    uint64_t flags = (uint64_t)FZ_PICK(f, 0, 0, 0, 1, 7);
    if (!fz_full(FZ_VADDR) &&
        fz_check(f, aclrtReserveMemAddress(fz_out(f, &v), size, align, NULL, flags)) == ACL_SUCCESS)
        fz_keep(FZ_VADDR, v, size);
}
CALL(ReleaseMemAddress)
{
    void *v = H(FZ_VADDR);
    if (fz_check(f, aclrtReleaseMemAddress(v)) == ACL_SUCCESS)
        fz_drop(FZ_VADDR, v);
}
CALL(MallocPhysical)
{
    aclrtDrvMemHandle h = NULL;
    aclrtPhysicalMemProp prop;
    size_t size = (size_t)FZ_INT(f, FZ_2M, 2 * FZ_2M, 4096);
    memset(&prop, 0, sizeof(prop));
    prop.handleType = (aclrtMemHandleType)fz_enum(f, 0, 0);
    prop.allocationType = (aclrtMemAllocationType)fz_enum(f, 0, 0);
    prop.memAttr = (aclrtMemAttr)fz_enum(f, 0, 3);
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = (uint32_t)fz_enum(f, 0, 1);
    if (!fz_full(FZ_PHYS) &&
        fz_check(f, aclrtMallocPhysical(fz_out(f, &h), size, fz_chance(f, 95) ? &prop : NULL,
                                        (uint64_t)FZ_PICK(f, 0, 0, 0, 1))) == ACL_SUCCESS)
        fz_keep(FZ_PHYS, h, size);
}
CALL(FreePhysical)
{
    aclrtDrvMemHandle h = H(FZ_PHYS);
    if (fz_check(f, aclrtFreePhysical(h)) == ACL_SUCCESS)
        fz_drop(FZ_PHYS, h);
}
/* Mapped ranges stay out of the memory pools: no queued copy or kernel of
 * the fuzzer's own uses them, so unmapping one is never its own bug. */
CALL(MapMem)
{
    void *v = H(FZ_VADDR);
    aclrtDrvMemHandle h = H(FZ_PHYS);
    fz_check(f, aclrtMapMem(v, (size_t)FZ_INT(f, FZ_2M, 2 * FZ_2M, 4096), (size_t)FZ_PICK(f, 0, 0, FZ_2M, 1), h,
                            (uint64_t)FZ_PICK(f, 0, 0, 0, 1)));
}
CALL(UnmapMem) { fz_check(f, aclrtUnmapMem(H(FZ_VADDR))); }
CALL(MemSetAccess)
{
    aclrtMemAccessDesc d;
    memset(&d, 0, sizeof(d));
    d.flags = (aclrtMemAccessFlags)fz_enum(f, 0, 3);
    d.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    d.location.id = (uint32_t)fz_enum(f, 0, 1);
    fz_check(f, aclrtMemSetAccess(H(FZ_VADDR), (size_t)FZ_INT(f, FZ_2M, 2 * FZ_2M), fz_chance(f, 95) ? &d : NULL,
                                  (size_t)FZ_PICK(f, 1, 1, 1, 0)));
}
CALL(MemAllocManaged)
{
    void *p = NULL;
    size_t size = fz_size(f);
    uint32_t flag = (uint32_t)FZ_PICK(f, ACL_RT_MEM_ATTACH_GLOBAL, ACL_RT_MEM_ATTACH_GLOBAL, 0, 2);
    /* Kept with the device blocks: aclrtFree frees managed memory too. */
    if (!fz_full(FZ_DEVMEM) && fz_check(f, aclrtMemAllocManaged(fz_out(f, &p), size, flag)) == ACL_SUCCESS)
        fz_keep(FZ_DEVMEM, p, size);
}
/* The host scratch buffer's second half: registered, looked up, ended. */
CALL(HostRegister)
{
    void *dev = NULL;
    void *at = fz_host_buf + FZ_HOST_BYTES / 2;
    uint64_t size = (uint64_t)FZ_PICK(f, 4096, 65536, FZ_HOST_BYTES / 2, 0);
    if (fz_chance(f, 50))
        fz_check(f, aclrtHostRegister(at, size, (aclrtHostRegisterType)FZ_PICK(f, 0, 0, 4, 8, 3), fz_out(f, &dev)));
    else
        fz_check(f, aclrtHostUnregister(fz_chance(f, 90) ? at : (void *)(fz_host_buf + 1)));
}

/* A copy's count: bounded by the host buffer when a side is host memory. */
static size_t copy_count(struct fz *f, int host_side)
{
    size_t n = fz_size(f);
    if (host_side && n > 65536)
        n = 65536;
    return n;
}

static int side_is_device(int32_t kind, int dst)
{
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_DEVICE: case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return dst;
    case ACL_MEMCPY_DEVICE_TO_HOST: return !dst;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return 1;
    case ACL_MEMCPY_HOST_TO_HOST: case ACL_MEMCPY_DEFAULT: return 0;
    default: return 1; /* refused before any byte moves */
    }
}

/* One side of a copy: device sides may be anything, host sides real memory
 * (DEFAULT: real host memory or a live stable device block). */
static void *copy_side(struct fz *f, int32_t kind, int dst, size_t count, int pool_ok)
{
    if (side_is_device(kind, dst))
        return fz_dev_ptr(f, count, pool_ok);
    return fz_host_ptr(f, count, pool_ok);
}

static void copy(struct fz *f, int async)
{
    int32_t kind = fz_enum(f, 0, 7);
    int host = !side_is_device(kind, 0) || !side_is_device(kind, 1);
    size_t count = copy_count(f, host);
    size_t max = fz_chance(f, 85) ? count : fz_size(f);
    void *dst = copy_side(f, kind, 1, count, !async), *src = copy_side(f, kind, 0, count, !async);
    if (host && max > 65536 && max > count)
        max = count;
    if (!async)
        fz_check(f, aclrtMemcpy(dst, max, src, count, (aclrtMemcpyKind)kind));
    else
        fz_check(f, aclrtMemcpyAsync(dst, max, src, count, (aclrtMemcpyKind)kind, any_stream(f)));
}

CALL(Memcpy) { copy(f, 0); }
CALL(MemcpyAsync) { copy(f, 1); }
CALL(Memcpy2d)
{
    int32_t kind = fz_enum(f, 0, 7);
    size_t dp = (size_t)FZ_INT(f, 0, 1, 16, 64, 256), sp = (size_t)FZ_INT(f, 0, 1, 16, 64, 256);
    size_t w = (size_t)FZ_INT(f, 0, 1, 16, 64, 300), h = (size_t)FZ_INT(f, 0, 1, 16, 200);
    void *dst = copy_side(f, kind, 1, dp * h, 1), *src = copy_side(f, kind, 0, sp * h, 1);
    if (w > 65536 || h > 256 || dp > 256 || sp > 256) /* an edge draw: host sides must stay in the buffer */
        w = h = 1, dp = sp = 1;
    fz_check(f, aclrtMemcpy2d(dst, dp, src, sp, w, h, (aclrtMemcpyKind)kind));
}
CALL(Memset)
{
    size_t count = fz_size(f);
    size_t max = fz_chance(f, 85) ? count : fz_size(f);
    void *p = fz_dev_ptr(f, count, 1);
    fz_check(f, aclrtMemset(p, max, (int32_t)fz_rand(f), count));
}
CALL(MemsetAsync)
{
    size_t count = fz_size(f);
    size_t max = fz_chance(f, 85) ? count : fz_size(f);
    void *p = fz_dev_ptr(f, count, 0);
    fz_check(f, aclrtMemsetAsync(p, max, (int32_t)fz_rand(f), count, any_stream(f)));
}
CALL(CmoAsync)
{
    size_t n = fz_size(f);
    void *p = fz_dev_ptr(f, n, 0);
    int32_t t = fz_enum(f, 0, 4);
    fz_check(f, aclrtCmoAsync(p, n, (aclrtCmoType)t, any_stream(f)));
}
CALL(GetMemInfo)
{
    size_t a, b;
    int32_t attr = fz_enum(f, 0, 11);
    fz_check(f, aclrtGetMemInfo((aclrtMemAttr)attr, fz_out(f, &a), fz_out(f, &b)));
}

/* ---- callbacks and host functions ---- */

static uint64_t some_thread(struct fz *f)
{
    uint64_t id = (uint64_t)pthread_self();
    if (fz_chance(f, 20))
        id = fz_chance(f, 50) ? 12345 : fz_rand(f);
    fz_note(f, "thread %s", id == (uint64_t)pthread_self() ? "self" : "other");
    return id;
}

CALL(SubscribeReport)
{
    uint64_t t = some_thread(f);
    aclrtStream s = any_stream(f);
    fz_check(f, fz_chance(f, 60) ? aclrtSubscribeReport(t, s) : aclrtUnSubscribeReport(t, s));
}
CALL(LaunchCallback)
{
    int32_t block = fz_enum(f, 0, 1);
    aclrtStream s = any_stream(f);
    fz_check(f, aclrtLaunchCallback(fz_chance(f, 95) ? host_count : NULL, NULL, (aclrtCallbackBlockType)block, s));
}
CALL(ProcessReport) { fz_check(f, aclrtProcessReport(fz_timeout(f, 0))); }
CALL(LaunchHostFunc)
{
    aclrtStream s = any_stream(f);
    fz_check(f, aclrtLaunchHostFunc(s, fz_chance(f, 95) ? host_count : NULL, NULL));
}
CALL(SubscribeHostFunc)
{
    uint64_t t = some_thread(f);
    aclrtStream s = any_stream(f);
    fz_check(f, fz_chance(f, 60) ? aclrtSubscribeHostFunc(t, s) : aclrtUnSubscribeHostFunc(t, s));
}
CALL(ProcessHostFunc) { fz_check(f, aclrtProcessHostFunc(fz_timeout(f, 0))); }

/* ---- binaries and kernels ---- */

const char *fz_kernel_so;

CALL(CreateBinary)
{
    aclrtBinary b;
    size_t n = fz_chance(f, 50) ? 64 : (size_t)FZ_INT(f, 0, 1, 4096);
    if (fz_full(FZ_BINARY))
        return;
    b = aclrtCreateBinary(fz_chance(f, 90) ? fz_host_buf : NULL, n);
    fz_check(f, ACL_SUCCESS);
    if (b != NULL)
        fz_keep(FZ_BINARY, b, 0);
}
CALL(DestroyBinary)
{
    aclrtBinary b = H(FZ_BINARY);
    if (fz_check(f, aclrtDestroyBinary(b)) == ACL_SUCCESS)
        fz_drop(FZ_BINARY, b);
}
CALL(BinaryLoad)
{
    aclrtBinHandle h = NULL;
    aclError rc;
    if (fz_full(FZ_BINHANDLE))
        return;
    switch (fz_below(f, 3)) {
    case 0: {
        aclrtBinary b = H(FZ_BINARY);
        rc = aclrtBinaryLoad(b, fz_out(f, &h));
        break;
    }
    case 1: {
        const char *path = fz_chance(f, 70) ? fz_kernel_so : fz_chance(f, 50) ? "/nonexistent.so" : NULL;
        aclrtBinaryLoadOption o = {ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD, {.isLazyLoad = 1}};
        aclrtBinaryLoadOptions opts = {&o, 1};
        o.type = (aclrtBinaryLoadOptionType)fz_enum(f, 1, 3);
        fz_note(f, "%s", path ? path : "(null)");
        rc = aclrtBinaryLoadFromFile(path, fz_chance(f, 30) ? &opts : NULL, fz_out(f, &h));
        break;
    }
    default:
        rc = aclrtBinaryLoadFromData(fz_host_buf, (size_t)FZ_INT(f, 0, 16, 4096), NULL, fz_out(f, &h));
        break;
    }
    if (fz_check(f, rc) == ACL_SUCCESS)
        fz_keep(FZ_BINHANDLE, h, 0);
}
CALL(BinaryUnLoad)
{
    aclrtBinHandle h = H(FZ_BINHANDLE);
    if (fz_check(f, aclrtBinaryUnLoad(h)) == ACL_SUCCESS)
        fz_drop(FZ_BINHANDLE, h);
}
CALL(BinaryGetFunction)
{
    /* EasyOP writes through its argument, so only ErrorOP (a trap) enters
     * the pool; the others are looked up and refused or left alone. */
    static const char *const names[] = {"ErrorOP", "EasyOP", "nonexistent", "", NULL};
    aclrtFuncHandle fn = NULL;
    aclrtBinHandle h = H(FZ_BINHANDLE);
    const char *n = names[fz_below(f, 5)];
    fz_note(f, "\"%s\"", n ? n : "(null)");
    if (fz_check(f, aclrtBinaryGetFunction(h, n, fz_out(f, &fn))) == ACL_SUCCESS && n == names[0] &&
        !fz_full(FZ_FUNC))
        fz_keep(FZ_FUNC, fn, 0);
}
CALL(KernelArgsGetSize)
{
    size_t n;
    aclrtFuncHandle fn = fz_func(f);
    if (fz_chance(f, 50))
        fz_check(f, aclrtKernelArgsGetHandleMemSize(fn, fz_out(f, &n)));
    else
        fz_check(f, aclrtKernelArgsGetMemSize(fn, fz_size(f), fz_out(f, &n)));
}
CALL(KernelArgsInit)
{
    aclrtArgsHandle a = NULL;
    aclrtFuncHandle fn = fz_func(f);
    if (!fz_full(FZ_ARGS) && fz_check(f, aclrtKernelArgsInit(fn, fz_out(f, &a))) == ACL_SUCCESS)
        fz_keep(FZ_ARGS, a, 0);
}
CALL(KernelArgsInitByUserMem)
{
    aclrtFuncHandle fn = fz_func(f);
    aclrtArgsHandle a = H(FZ_ARGS);
    size_t n = (size_t)FZ_PICK(f, 0, 64, 1024, 65536);
    fz_check(f, aclrtKernelArgsInitByUserMem(fn, a, fz_host_buf, n));
}
CALL(KernelArgsAppend)
{
    aclrtParamHandle p = NULL;
    aclrtArgsHandle a = H(FZ_ARGS);
    size_t n = (size_t)FZ_PICK(f, 0, 1, 8, 64, 4096, 65536, SIZE_MAX, SIZE_MAX - 8);
    aclError rc;
    if (fz_chance(f, 70))
        rc = aclrtKernelArgsAppend(a, n > FZ_HOST_BYTES ? NULL : fz_host_buf, n, fz_out(f, &p));
    else
        rc = aclrtKernelArgsAppendPlaceHolder(a, fz_out(f, &p));
    if (fz_check(f, rc) == ACL_SUCCESS && !fz_full(FZ_PARAM))
        fz_keep(FZ_PARAM, p, 0);
}
CALL(KernelArgsPlaceHolder)
{
    void *buf;
    aclrtArgsHandle a = H(FZ_ARGS);
    aclrtParamHandle p = H(FZ_PARAM);
    size_t n = (size_t)FZ_INT(f, 0, 1, 8, 64, 4096, SIZE_MAX);
    if (fz_chance(f, 50)) {
        fz_check(f, aclrtKernelArgsGetPlaceHolderBuffer(a, p, n, fz_out(f, &buf)));
        return;
    }
    if (n > 4096)
        n = 4096;
    fz_check(f, aclrtKernelArgsParaUpdate(a, p, fz_host_buf, n));
}
CALL(KernelArgsFinalize) { fz_check(f, aclrtKernelArgsFinalize(H(FZ_ARGS))); }

static uint32_t blocks(struct fz *f) { return (uint32_t)FZ_INT(f, 1, 1, 1, 2, 4, 8, 0, 65535, 65536, 0xFFFFFFFF); }

/* Launch attributes: none, or one of a random id and value. */
static aclrtLaunchKernelCfg *launch_cfg(struct fz *f, aclrtLaunchKernelCfg *cfg, aclrtLaunchKernelAttr *attr)
{
    if (fz_chance(f, 60)) {
        fz_note(f, "cfg NULL");
        return NULL;
    }
    memset(attr, 0, sizeof(*attr));
    attr->id = (aclrtLaunchKernelAttrId)fz_enum(f, 1, 9);
    attr->value.timeoutUs.timeoutLow = (uint32_t)FZ_INT(f, 0, 1, 2, 1000);
    cfg->attrs = fz_chance(f, 90) ? attr : NULL;
    cfg->numAttrs = (size_t)FZ_INT(f, 1, 1, 0, 2);
    if (cfg->numAttrs > 1)
        cfg->numAttrs = 1; /* the array has one entry: more is the caller's overrun */
    return cfg;
}

/* Argument bytes: the host buffer is 1 MiB, so only huge sizes exceed it,
 * and those the library must refuse before reading. */
static size_t args_size(struct fz *f) { return (size_t)FZ_PICK(f, 0, 8, 16, 64, 1024, 4096, 65536, FZ_HOST_BYTES); }

CALL(LaunchKernel)
{
    aclrtFuncHandle fn = fz_func(f);
    uint32_t nb = blocks(f);
    size_t n = args_size(f);
    aclrtLaunchKernelCfg cfg;
    aclrtLaunchKernelAttr attr;
    const void *args = fz_chance(f, 95) ? fz_host_buf : NULL;
    if (fz_chance(f, 70)) {
        fz_check(f, aclrtLaunchKernel(fn, nb, args, n, any_stream(f)));
    } else {
        aclrtLaunchKernelCfg *c = launch_cfg(f, &cfg, &attr);
        fz_check(f, aclrtLaunchKernelV2(fn, nb, args, n, c, any_stream(f)));
    }
}
CALL(LaunchKernelWithConfig)
{
    aclrtFuncHandle fn = fz_func(f);
    uint32_t nb = blocks(f);
    aclrtStream s = any_stream(f);
    aclrtLaunchKernelCfg cfg;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg *c = launch_cfg(f, &cfg, &attr);
    fz_check(f, aclrtLaunchKernelWithConfig(fn, nb, s, c, H(FZ_ARGS), NULL));
}
CALL(LaunchKernelWithHostArgs)
{
    aclrtFuncHandle fn = fz_func(f);
    uint32_t nb = blocks(f);
    aclrtStream s = any_stream(f);
    aclrtLaunchKernelCfg cfg;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg *c = launch_cfg(f, &cfg, &attr);
    size_t n = args_size(f);
    aclrtPlaceHolderInfo ph[2] = {{(uint32_t)FZ_INT(f, 0, 8, 4096, 0xFFFFFFF0), (uint32_t)FZ_INT(f, 8, 16, 4090)},
                                  {0, 8}};
    size_t nph = (size_t)FZ_INT(f, 0, 1, 2);
    if (nph > 2)
        nph = 2;
    fz_check(f, aclrtLaunchKernelWithHostArgs(fn, nb, s, c, fz_host_buf, n, nph ? ph : NULL, nph));
}
CALL(LaunchKernelArgsArray)
{
    void *ptrs[4] = {fz_host_buf, fz_host_buf + 8, fz_host_buf + 16, fz_host_buf + 24};
    aclrtFuncHandle fn = fz_func(f);
    uint32_t nb = blocks(f);
    aclrtStream s = any_stream(f);
    void **args = fz_chance(f, 90) ? ptrs : NULL;
    if (fz_chance(f, 50)) {
        fz_check(f, aclrtLaunchKernelWithArgsArray(fn, nb, s, NULL, args));
    } else {
        /* A grid has no block limit but its product's (a 4G-block grid is
         * legal, and runs for many minutes): its edge is that overflow. */
        dim3 g = {nb, nb > 65536 ? UINT32_MAX : 1, 1}, b = {(uint32_t)FZ_INT(f, 1, 2, 32, 0, 2048), 1, 1};
        size_t ub = (size_t)FZ_INT(f, 0, 64, 1 << 20);
        if (fz_chance(f, 50))
            fz_check(f, aclrtLaunchSIMTKernelWithArgsArray(fn, g, b, ub, s, NULL, args));
        else
            fz_check(f, aclrtLaunchSIMTKernelWithHostArgs(fn, g, b, ub, s, NULL, fz_host_buf,
                                                          (size_t)FZ_PICK(f, 0, 8, 64), NULL, 0));
    }
}
CALL(RegisterKernel)
{
    aclrtFuncHandle fn;
    static const char *const names[] = {"fz_count", "fz_other", "", NULL};
    const char *n = names[fz_below(f, 4)];
    fz_note(f, "\"%s\"", n ? n : "(null)");
    fz_check(f, aclcpuRegisterKernel(n, fz_chance(f, 90) ? kern_count : NULL, fz_out(f, &fn)));
}
CALL(SetKernelCost)
{
    aclcpuKernelCost cost;
    aclrtFuncHandle fn = fz_func(f);
    memset(&cost, 0, sizeof(cost));
    fz_check(f, aclcpuSetKernelCost(fn, fz_out(f, &cost)));
}

/* ---- model run instances and capture ---- */

CALL(BuildBegin)
{
    aclmdlRI m = NULL;
    if (!fz_full(FZ_MODEL) && fz_check(f, aclmdlRIBuildBegin(fz_out(f, &m), u32(f) & 1)) == ACL_SUCCESS)
        fz_keep(FZ_MODEL, m, 0);
}
CALL(BindStream)
{
    aclmdlRI m = H(FZ_MODEL);
    aclrtStream s = any_stream(f);
    switch (fz_below(f, 3)) {
    case 0: fz_check(f, aclmdlRIBindStream(m, s, u32(f) & 3)); break;
    case 1: fz_check(f, aclmdlRIUnbindStream(m, s)); break;
    default: fz_check(f, aclmdlRIEndTask(m, s)); break;
    }
}
CALL(BuildEnd) { fz_check(f, aclmdlRIBuildEnd(H(FZ_MODEL), NULL)); }
CALL(ModelExecute)
{
    aclmdlRI m = H(FZ_MODEL);
    if (fz_chance(f, 50))
        fz_check(f, aclmdlRIExecute(m, fz_timeout(f, 1)));
    else
        fz_check(f, aclmdlRIExecuteAsync(m, any_stream(f)));
}
CALL(ModelDestroy)
{
    aclmdlRI m = H(FZ_MODEL);
    if (fz_check(f, aclmdlRIDestroy(m)) == ACL_SUCCESS)
        fz_drop(FZ_MODEL, m);
}
CALL(ModelAbort) { fz_check(f, aclmdlRIAbort(H(FZ_MODEL))); }
CALL(ModelName)
{
    static const char *const names[] = {"m", "a-longer-model-name", "", NULL};
    char buf[64];
    aclmdlRI m = H(FZ_MODEL);
    if (fz_chance(f, 50)) {
        const char *n = names[fz_below(f, 4)];
        fz_note(f, "\"%s\"", n ? n : "(null)");
        fz_check(f, aclmdlRISetName(m, n));
    } else {
        uint32_t len = (uint32_t)FZ_INT(f, 0, 1, 2, 64);
        if (len > sizeof(buf))
            len = sizeof(buf);
        fz_check(f, aclmdlRIGetName(m, len, fz_out(f, buf)));
    }
}
CALL(ModelQuery)
{
    aclrtStream streams[8];
    aclmdlRITask tasks[8];
    uint32_t id, n = (uint32_t)FZ_INT(f, 0, 1, 8);
    if (n > 8)
        n = 8;
    switch (fz_below(f, 3)) {
    case 0: { aclmdlRI m = H(FZ_MODEL); fz_check(f, aclmdlRIGetId(m, fz_out(f, &id))); break; }
    case 1: {
        aclmdlRI m = H(FZ_MODEL);
        aclrtStream *out = fz_out(f, streams);
        fz_check(f, aclmdlRIGetStreams(m, out, fz_out(f, &n)));
        break;
    }
    default: {
        aclrtStream s = any_stream(f);
        aclmdlRITask *out = fz_out(f, tasks);
        fz_check(f, aclmdlRIGetTasksByStream(s, out, fz_out(f, &n)));
        break;
    }
    }
}
/* A model's tasks: a handle from a random stream's model (or a made-up
 * one), then one of the task calls, a change, an update, or a destroy
 * callback registered or not. */
static void fz_on_destroy(void *arg) { (void)arg; }
static void fz_on_destroy2(void *arg) { (void)arg; }
CALL(ModelTask)
{
    aclmdlRITask tasks[8] = {NULL};
    aclmdlRITaskParams p;
    aclrtLaunchKernelAttrValue v;
    aclrtLaunchKernelCfg cfg;
    aclrtLaunchKernelAttr attr;
    aclmdlRITaskType type;
    uint32_t id, n = 8;
    aclmdlRITask t;
    (void)aclmdlRIGetTasksByStream(any_stream(f), tasks, &n);
    t = fz_chance(f, 85) ? tasks[fz_below(f, 8)] : (aclmdlRITask)(uintptr_t)(0xD000000000000000ull | u32(f));
    memset(&p, 0, sizeof(p));
    switch (fz_below(f, 8)) {
    case 0: fz_check(f, aclmdlRITaskGetType(t, fz_out(f, &type))); break;
    case 1: fz_check(f, aclmdlRITaskGetSeqId(t, fz_out(f, &id))); break;
    case 2: fz_check(f, aclmdlRITaskGetParams(t, fz_out(f, &p))); break;
    case 3:
        fz_check(f, aclmdlRIKernelTaskGetAttribute(t, (aclrtLaunchKernelAttrId)fz_enum(f, 0, 10), fz_out(f, &v)));
        break;
    case 4:
        p.type = (aclmdlRITaskType)fz_enum(f, 0, 7);
        if (p.type == ACL_MODEL_RI_TASK_KERNEL) {
            p.kernelTaskParams.funcHandle = fz_func(f);
            p.kernelTaskParams.args = fz_chance(f, 95) ? fz_host_buf : NULL;
            p.kernelTaskParams.argsSize = args_size(f);
            p.kernelTaskParams.numBlocks = blocks(f);
            p.kernelTaskParams.cfg = launch_cfg(f, &cfg, &attr);
        } else {
            p.valueWaitTaskParams.devAddr = fz_chance(f, 80) ? fz_dev_ptr(f, 8, 0) : fz_host_buf;
            p.valueWaitTaskParams.value = u32(f);
            p.valueWaitTaskParams.flag = (uint32_t)fz_enum(f, 0, 4);
        }
        fz_check(f, aclmdlRITaskSetParams(t, fz_out(f, &p)));
        break;
    case 5: fz_check(f, aclmdlRITaskDisable(t)); break;
    case 6: fz_check(f, aclmdlRIUpdate(H(FZ_MODEL))); break;
    default: {
        aclrtCallback cb = fz_chance(f, 50) ? fz_on_destroy : fz_chance(f, 90) ? fz_on_destroy2 : NULL;
        if (fz_chance(f, 60))
            fz_check(f, aclmdlRIDestroyRegisterCallback(H(FZ_MODEL), cb, NULL));
        else
            fz_check(f, aclmdlRIDestroyUnregisterCallback(H(FZ_MODEL), cb));
        break;
    }
    }
}
CALL(ModelDebugPrint)
{
    aclmdlRI m = H(FZ_MODEL);
    if (fz_chance(f, 50))
        fz_check(f, aclmdlRIDebugPrint(m));
    else
        fz_check(f, aclmdlRIDebugJsonPrint(m, fz_chance(f, 50) ? "/nonexistent/dir/m.json" : NULL, u32(f)));
}
CALL(CaptureBegin)
{
    aclrtStream s = any_stream(f);
    int32_t mode = fz_enum(f, 0, 2);
    if (fz_chance(f, 70)) {
        fz_check(f, aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)mode));
    } else {
        aclmdlRI m = H(FZ_MODEL);
        fz_check(f, aclmdlRICaptureToModelRIBegin(s, m, (aclmdlRICaptureMode)mode));
    }
}
CALL(CaptureEnd)
{
    aclmdlRI m = NULL;
    aclrtStream s = any_stream(f);
    if (fz_check(f, aclmdlRICaptureEnd(s, fz_out(f, &m))) == ACL_SUCCESS && m != NULL && !fz_full(FZ_MODEL))
        fz_keep(FZ_MODEL, m, 0);
}
CALL(CaptureGetInfo)
{
    aclmdlRICaptureStatus st;
    aclmdlRI m;
    aclrtStream s = any_stream(f);
    aclmdlRICaptureStatus *o = fz_out(f, &st);
    fz_check(f, aclmdlRICaptureGetInfo(s, o, fz_out(f, &m)));
}
CALL(CaptureThreadExchangeMode)
{
    aclmdlRICaptureMode mode = (aclmdlRICaptureMode)fz_enum(f, 0, 2);
    fz_check(f, aclmdlRICaptureThreadExchangeMode(fz_out(f, &mode)));
}
CALL(CaptureTaskGrp)
{
    aclrtStream s = any_stream(f);
    aclrtTaskGrp g = NULL;
    switch (fz_below(f, 4)) {
    case 0: fz_check(f, aclmdlRICaptureTaskGrpBegin(s)); break;
    case 1:
        if (fz_check(f, aclmdlRICaptureTaskGrpEnd(s, fz_out(f, &g))) == ACL_SUCCESS && !fz_full(FZ_TASKGRP))
            fz_keep(FZ_TASKGRP, g, 0);
        break;
    case 2: fz_check(f, aclmdlRICaptureTaskUpdateBegin(s, H(FZ_TASKGRP))); break;
    default: fz_check(f, aclmdlRICaptureTaskUpdateEnd(s)); break;
    }
}

/* ---- errors and exception information ---- */

/* Reads every field, as a careful callback would; runs on executors. */
static void exc_read_all(aclrtExceptionInfo *info)
{
    void *args = NULL;
    uint32_t len = 0;
    aclrtFuncHandle fn = NULL;
    (void)aclrtGetTaskIdFromExceptionInfo(info);
    (void)aclrtGetStreamIdFromExceptionInfo(info);
    (void)aclrtGetThreadIdFromExceptionInfo(info);
    (void)aclrtGetDeviceIdFromExceptionInfo(info);
    (void)aclrtGetErrorCodeFromExceptionInfo(info);
    (void)aclrtGetArgsFromExceptionInfo(info, &args, &len);
    (void)aclrtGetFuncHandleFromExceptionInfo(info, &fn);
}
static void exc_nothing(aclrtExceptionInfo *info) { (void)info; }
static void exc_binary(aclrtExceptionInfo *info, void *user)
{
    (void)user;
    exc_read_all(info);
}

CALL(ExceptionCallback)
{
    aclrtExceptionInfoCallback cb = fz_chance(f, 10) ? NULL : fz_chance(f, 50) ? exc_read_all : exc_nothing;
    switch (fz_enum(f, 0, 4)) {
    case 0: fz_check(f, aclrtExceptionInfoCallbackRegister(cb)); break;
    case 1: fz_check(f, aclrtExceptionInfoCallbackUnregister(cb)); break;
    case 2: fz_check(f, aclrtSetExceptionInfoCallback(cb)); break;
    case 3:
        fz_check(f, aclrtBinarySetExceptionCallback(H(FZ_BINHANDLE), fz_chance(f, 10) ? NULL : exc_binary, NULL));
        break;
    default: {
        /* A NULL info: 0xFFFFFFFF, which is not an error code (the reference's answer). */
        void *args = NULL;
        uint32_t len = 0;
        aclrtFuncHandle fn = NULL;
        int bad = aclrtGetTaskIdFromExceptionInfo(NULL) != 0xFFFFFFFFu ||
                  (uint32_t)aclrtGetArgsFromExceptionInfo(NULL, &args, &len) != 0xFFFFFFFFu ||
                  (uint32_t)aclrtGetFuncHandleFromExceptionInfo(NULL, &fn) != 0xFFFFFFFFu;
        fz_check(f, bad ? ACL_ERROR_FAILURE : ACL_SUCCESS);
        break;
    }
    }
}
CALL(LastError)
{
    uint32_t id = 0;
    aclrtLastErrLevel level = (aclrtLastErrLevel)FZ_PICK(f, 0, 0, 0, 1, -1);
    switch (fz_enum(f, 0, 2)) {
    case 0: fz_check(f, aclrtPeekAtLastError(level)); break;
    case 1: fz_check(f, aclrtGetLastError(level)); break;
    default: fz_check(f, aclrtGetThreadLastTaskId(fz_out(f, &id))); break;
    }
}
CALL(ErrorVerbose)
{
    aclrtErrorInfo info;
    memset(&info, 0, sizeof(info));
    switch (fz_enum(f, 0, 3)) {
    case 0: fz_check(f, aclrtGetErrorVerbose((int32_t)FZ_INT(f, 0, 1), fz_out(f, &info))); break;
    case 1: fz_check(f, aclrtRepairError((int32_t)FZ_INT(f, 0, 1), fz_chance(f, 10) ? NULL : &info)); break;
    case 2: fz_check(f, aclrtCacheLastTaskOpInfo(fz_chance(f, 10) ? NULL : fz_host_buf, (size_t)FZ_INT(f, 0, 16))); break;
    default: fz_check(f, aclrtCacheLastTaskExtendInfo((const char *)fz_host_buf, (size_t)FZ_INT(f, 0, 16))); break;
    }
}

/* ---- profiling ---- */

static char prof_dir[4096];

CALL(ProfInit)
{
    const char *p;
    size_t n;
    if (prof_dir[0] == '\0') { /* the run's folder (fuzz_main.c), removed by the parent */
        const char *tmp = getenv("TMPDIR");
        snprintf(prof_dir, sizeof(prof_dir), "%s/aclcpu-fuzz-prof-%d", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp",
                 (int)getpid());
    }
    p = fz_chance(f, 80) ? prof_dir : NULL;
    n = p ? strlen(p) : 0;
    if (fz_chance(f, 10))
        n = (size_t)FZ_PICK(f, 0, 1, sizeof(prof_dir)); /* cut short, empty, or past the terminator */
    fz_check(f, fz_chance(f, 70) ? aclprofInit(p, n) : aclprofFinalize());
}
CALL(ProfConfig)
{
    uint32_t devs[2] = {0, 1};
    if (fz_chance(f, 50) && !fz_full(FZ_PROFCFG)) {
        uint32_t n = (uint32_t)FZ_INT(f, 1, 2, 0, 3);
        aclprofConfig *c = aclprofCreateConfig(fz_chance(f, 90) ? devs : NULL, n > 2 ? 2 : n,
                                               (aclprofAicoreMetrics)fz_enum(f, 0, 8), NULL,
                                               (uint64_t)FZ_INT(f, 0, 1, 2, 0xFF, 0x4000));
        fz_check(f, ACL_SUCCESS);
        if (c != NULL)
            fz_keep(FZ_PROFCFG, c, 0);
        return;
    }
    void *c = H(FZ_PROFCFG);
    switch (fz_below(f, 3)) {
    case 0:
        if (fz_check(f, aclprofDestroyConfig(c)) == ACL_SUCCESS)
            fz_drop(FZ_PROFCFG, c);
        break;
    case 1: fz_check(f, aclprofStart(c)); break;
    default: fz_check(f, aclprofStop(c)); break;
    }
}
CALL(ProfMark)
{
    uint32_t id;
    switch (fz_below(f, 6)) {
    case 0: {
        void *s;
        if (fz_full(FZ_STAMP))
            return;
        s = aclprofCreateStamp();
        fz_check(f, ACL_SUCCESS);
        if (s != NULL)
            fz_keep(FZ_STAMP, s, 0);
        break;
    }
    case 1: {
        void *s = H(FZ_STAMP);
        if (s != NULL) {
            aclprofDestroyStamp(s);
            fz_drop(FZ_STAMP, s);
        }
        fz_check(f, ACL_SUCCESS);
        break;
    }
    case 2: {
        void *s = H(FZ_STAMP);
        fz_check_tx(f, aclprofSetStampTraceMessage(s, (const char *)fz_host_buf, (uint32_t)FZ_INT(f, 1, 0, 2, 127, 128, 4096)));
        break;
    }
    case 3: fz_check_tx(f, aclprofMarkEx((const char *)fz_host_buf, (size_t)FZ_PICK(f, 4, 0, 5, 4096), any_stream(f))); break;
    case 4: {
        void *s = H(FZ_STAMP);
        fz_check_tx(f, fz_chance(f, 50) ? aclprofPush(s) : aclprofMark(s));
        break;
    }
    default: {
        void *s = H(FZ_STAMP);
        if (fz_chance(f, 50))
            fz_check_tx(f, aclprofRangeStart(s, fz_out(f, &id)));
        else
            fz_check_tx(f, fz_chance(f, 50) ? aclprofPop() : aclprofRangeStop((uint32_t)FZ_INT(f, 0, 1, 2, 100)));
        break;
    }
    }
}

#define ENTRY(name, weight, flags) {#name, weight, flags, c_##name}

/* Weights: creations and launches often, teardown of whole devices rarely.
 * FZ_MAIN: the call touches the pool memory (which thread 0 alone frees) or
 * process-wide state a concurrent thread must not see change under it. */
const struct fz_call fz_calls[] = {
    ENTRY(SetDevice, 1, 0),
    ENTRY(ResetDevice, 1, FZ_MAIN),
    ENTRY(GetDevice, 2, 0),
    ENTRY(GetDeviceCount, 1, 0),
    ENTRY(CreateContext, 2, 0),
    ENTRY(DestroyContext, 2, 0),
    ENTRY(SetCurrentContext, 4, 0),
    ENTRY(GetCurrentContext, 1, 0),
    ENTRY(CtxGetCurrentDefaultStream, 1, 0),
    ENTRY(SynchronizeDevice, 2, 0),
    ENTRY(SynchronizeDeviceWithTimeout, 2, 0),
    ENTRY(GetRunMode, 1, 0),
    ENTRY(GetSocName, 1, 0),
    ENTRY(GetRecentErrMsg, 1, 0),
    ENTRY(CreateStream, 8, 0),
    ENTRY(CreateStreamWithConfig, 5, 0),
    ENTRY(CreateStreamConfigHandle, 1, FZ_MAIN),
    ENTRY(DestroyStreamConfigHandle, 1, FZ_MAIN),
    ENTRY(SetStreamConfigOpt, 2, FZ_MAIN),
    ENTRY(CreateStreamV2, 2, FZ_MAIN),
    ENTRY(DestroyStream, 8, 0),
    ENTRY(SynchronizeStream, 5, 0),
    ENTRY(SynchronizeStreamWithTimeout, 4, 0),
    ENTRY(StreamQuery, 3, 0),
    ENTRY(StreamGetPriority, 1, 0),
    ENTRY(StreamGetFlags, 1, 0),
    ENTRY(StreamGetId, 1, 0),
    ENTRY(GetStreamAvailableNum, 1, 0),
    ENTRY(SetStreamFailureMode, 2, 0),
    ENTRY(SetStreamOverflowSwitch, 1, 0),
    ENTRY(GetStreamOverflowSwitch, 1, 0),
    ENTRY(SetStreamAttribute, 2, 0),
    ENTRY(GetStreamAttribute, 1, 0),
    ENTRY(StreamAbort, 2, 0),
    ENTRY(DeviceTaskAbort, 1, 0),
    ENTRY(SetDeviceTaskAbortCallback, 1, 0),
    ENTRY(RegDeviceStateCallback, 1, 0),
    ENTRY(GetMemUceInfo, 1, 0),
    ENTRY(StreamStop, 1, 0),
    ENTRY(PersistentTaskClean, 1, 0),
    ENTRY(ActiveStream, 1, 0),
    ENTRY(SwitchStream, 1, 0),
    ENTRY(RegStreamStateCallback, 1, FZ_MAIN),
    ENTRY(DeviceGetStreamPriorityRange, 1, 0),
    ENTRY(StreamWaitEvent, 8, 0),
    ENTRY(NonBlockingLaunch, 1, 0),
    ENTRY(DeviceResLimit, 2, 0),
    ENTRY(StreamResLimit, 2, 0),
    ENTRY(CreateEvent, 6, 0),
    ENTRY(DestroyEvent, 5, 0),
    ENTRY(RecordEvent, 10, 0),
    ENTRY(ResetEvent, 2, 0),
    ENTRY(QueryEvent, 3, 0),
    ENTRY(SynchronizeEvent, 3, 0),
    ENTRY(SynchronizeEventWithTimeout, 3, 0),
    ENTRY(EventElapsedTime, 2, 0),
    ENTRY(EventGetTimestamp, 1, 0),
    ENTRY(GetEventId, 1, 0),
    ENTRY(GetEventAvailNum, 1, 0),
    ENTRY(SetOpWaitTimeout, 1, 0),
    ENTRY(IpcEvent, 2, 0),
    ENTRY(CreateNotify, 3, 0),
    ENTRY(DestroyNotify, 2, 0),
    ENTRY(RecordNotify, 3, 0),
    ENTRY(WaitAndResetNotify, 3, 0),
    ENTRY(GetNotifyId, 1, 0),
    ENTRY(Malloc, 4, FZ_MAIN),
    ENTRY(Free, 4, FZ_MAIN),
    ENTRY(CacheMalloc, 2, FZ_MAIN),
    ENTRY(CacheFree, 2, FZ_MAIN),
    ENTRY(CacheRecordStream, 1, FZ_MAIN),
    ENTRY(CacheStats, 1, FZ_MAIN),
    ENTRY(MallocHost, 2, FZ_MAIN),
    ENTRY(FreeHost, 2, FZ_MAIN),
    ENTRY(ReserveMemAddress, 1, FZ_MAIN),
    ENTRY(ReleaseMemAddress, 1, FZ_MAIN),
    ENTRY(MallocPhysical, 1, FZ_MAIN),
    ENTRY(FreePhysical, 1, FZ_MAIN),
    ENTRY(MapMem, 1, FZ_MAIN),
    ENTRY(UnmapMem, 1, FZ_MAIN),
    ENTRY(MemSetAccess, 1, FZ_MAIN),
    ENTRY(MemAllocManaged, 1, FZ_MAIN),
    ENTRY(HostRegister, 1, FZ_MAIN),
    ENTRY(Memcpy, 3, FZ_MAIN),
    ENTRY(MemcpyAsync, 4, FZ_MAIN),
    ENTRY(Memcpy2d, 2, FZ_MAIN),
    ENTRY(Memset, 2, FZ_MAIN),
    ENTRY(MemsetAsync, 3, FZ_MAIN),
    ENTRY(CmoAsync, 1, FZ_MAIN),
    ENTRY(GetMemInfo, 1, 0),
    ENTRY(SubscribeReport, 2, 0),
    ENTRY(LaunchCallback, 4, 0),
    ENTRY(ProcessReport, 3, 0),
    ENTRY(LaunchHostFunc, 4, 0),
    ENTRY(SubscribeHostFunc, 2, 0),
    ENTRY(ProcessHostFunc, 2, 0),
    ENTRY(CreateBinary, 1, FZ_MAIN),
    ENTRY(DestroyBinary, 1, FZ_MAIN),
    ENTRY(BinaryLoad, 1, FZ_MAIN),
    ENTRY(BinaryUnLoad, 1, FZ_MAIN),
    ENTRY(BinaryGetFunction, 2, 0),
    ENTRY(KernelArgsGetSize, 1, 0),
    ENTRY(KernelArgsInit, 2, FZ_MAIN),
    ENTRY(KernelArgsInitByUserMem, 1, FZ_MAIN),
    ENTRY(KernelArgsAppend, 2, FZ_MAIN),
    ENTRY(KernelArgsPlaceHolder, 2, FZ_MAIN),
    ENTRY(KernelArgsFinalize, 1, FZ_MAIN),
    ENTRY(LaunchKernel, 14, 0),
    ENTRY(LaunchKernelWithConfig, 2, FZ_MAIN),
    ENTRY(LaunchKernelWithHostArgs, 2, 0),
    ENTRY(LaunchKernelArgsArray, 2, 0),
    ENTRY(RegisterKernel, 1, 0),
    ENTRY(SetKernelCost, 1, 0),
    ENTRY(BuildBegin, 2, 0),
    ENTRY(BindStream, 3, 0),
    ENTRY(BuildEnd, 2, 0),
    ENTRY(ModelExecute, 3, 0),
    ENTRY(ModelDestroy, 2, 0),
    ENTRY(ModelAbort, 1, 0),
    ENTRY(ModelName, 1, 0),
    ENTRY(ModelQuery, 2, 0),
    ENTRY(ModelTask, 3, 0),
    ENTRY(ModelDebugPrint, 1, FZ_MAIN),
    ENTRY(CaptureBegin, 3, 0),
    ENTRY(CaptureEnd, 3, 0),
    ENTRY(CaptureGetInfo, 1, 0),
    ENTRY(CaptureThreadExchangeMode, 1, 0),
    ENTRY(CaptureTaskGrp, 3, 0),
    ENTRY(ProfInit, 1, FZ_MAIN),
    ENTRY(ProfConfig, 1, FZ_MAIN),
    ENTRY(ProfMark, 2, FZ_MAIN),
    ENTRY(ExceptionCallback, 2, 0),
    ENTRY(LastError, 2, 0),
    ENTRY(ErrorVerbose, 1, 0),
};
const int fz_ncalls = (int)(sizeof(fz_calls) / sizeof(fz_calls[0]));
