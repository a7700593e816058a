/*
 * test_recovery.c - process snapshots, device task abort, device state
 * callbacks, memory UCE and the data-dump state (api_recovery.c,
 * core/snapshot.c, core/recovery.c).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

/* ---- snapshots: arguments ------------------------------------------------------------ */

/* snapshot.cpp: pid first, then the reserved argument (both 100000);
 * then the product (207000 off Ascend 950, A3 and A2). */
TEST(recovery, snapshot_lock_checks_pid_then_reserve_then_product)
{
    int dummy;
    t_setup();
    ASSERT_RC(aclrtSnapShotProcessLock(getpid() + 1, &dummy), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSnapShotProcessLock: argument 'pid'");
    ASSERT_RC(aclrtSnapShotProcessLock(getpid(), &dummy), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'reserve'");
    ASSERT_RC(aclrtSnapShotProcessUnlock(getpid() + 1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSnapShotProcessUnlock(getpid(), &dummy), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSnapShotProcessUnlock: argument 'reserve'");
    t_teardown();
}

TEST(recovery, snapshot_backup_restore_check_pid_then_args)
{
    aclrtSnapShotBackupArgs b;
    aclrtSnapShotRestoreArgs r;
    memset(&b, 0, sizeof(b));
    memset(&r, 0, sizeof(r));
    t_setup();
    ASSERT_RC(aclrtSnapShotProcessBackup(getpid() + 1, &b), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'pid'");
    ASSERT_RC(aclrtSnapShotProcessBackup(getpid(), &b), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSnapShotProcessBackup: argument 'args'");
    ASSERT_RC(aclrtSnapShotProcessRestore(getpid() + 1, &r), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'pid'");
    ASSERT_RC(aclrtSnapShotProcessRestore(getpid(), &r), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSnapShotProcessRestore: argument 'args'");
    t_teardown();
}

static uint32_t cb_ok(int32_t deviceId, void *args)
{
    (void)deviceId;
    (void)args;
    return 0;
}

TEST(recovery, snapshot_refused_off_950_a3_a2_after_arguments)
{
    int dummy;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_RC(aclrtSnapShotProcessLock(getpid(), &dummy), ACL_ERROR_INVALID_PARAM); /* arguments first */
    ASSERT_RC(aclrtSnapShotProcessLock(getpid(), NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend910A");
    ASSERT_RC(aclrtSnapShotProcessUnlock(getpid(), NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtSnapShotProcessBackup(getpid(), NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtSnapShotProcessRestore(getpid(), NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    /* The product comes before the stage and the callback. */
    ASSERT_RC(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)9, NULL, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)9, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
}

/* ---- snapshots: the state machine ---------------------------------------------------- */

/* RUNNING -> LOCKED -> BACKED_UP -> (restore) LOCKED -> RUNNING; every other
 * order is refused with the state's code (global_state_manager.cc,
 * api_error.cc SnapShotProcessBackup/Restore). */
TEST(recovery, snapshot_state_machine_refuses_wrong_order)
{
    int pid = getpid();
    t_setup();
    ASSERT_RC(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);
    ASSERT_RC(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_RC(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED); /* second lock */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "LOCKED");
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* no backup yet */
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    ASSERT_RC(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_BACKUP_FAILED); /* BACKED_UP */
    ASSERT_RC(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
    ASSERT_OK(aclrtSnapShotProcessRestore(pid, NULL));
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* LOCKED again */
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL)); /* a locked process backs up again */
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL)); /* from BACKED_UP */
    ASSERT_RC(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED); /* second unlock */
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* the backup went */
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL)); /* from LOCKED */
    t_teardown();
}

/* The restore copies the backup's contents back into the allocations
 * (while locked the program cannot free or allocate: those calls wait for
 * the unlock; the test writes device memory directly, one address space). */
TEST(recovery, snapshot_restore_brings_back_device_memory)
{
    int pid = getpid();
    enum { N = 4096 };
    static unsigned char host[N], back[N];
    void *a = NULL, *b = NULL;
    t_setup();
    ASSERT_OK(aclrtMalloc(&a, N, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&b, 100, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < N; i++)
        host[i] = (unsigned char)(i * 7 + 1);
    ASSERT_OK(aclrtMemcpy(a, N, host, N, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtMemcpy(b, 100, host + 1, 100, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    memset(a, 0xEE, N);
    memset(b, 0xEE, 100);
    ASSERT_OK(aclrtSnapShotProcessRestore(pid, NULL));
    ASSERT_EQ(memcmp(a, host, N), 0);
    ASSERT_EQ(memcmp(b, host + 1, 100), 0);
    memset(a, 0x55, N); /* a second restore needs a second backup */
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    memset(a, 0x66, N);
    ASSERT_OK(aclrtSnapShotProcessRestore(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_OK(aclrtMemcpy(back, N, a, N, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(back[i], 0x55); /* the last backup counts */
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    t_teardown();
}

/* Work queued before the lock goes on; the backup waits for it, so its
 * result is in the copy. */
TEST(recovery, snapshot_backup_waits_for_queued_work)
{
    int pid = getpid();
    aclrtStream s = NULL;
    int64_t *x, v = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    x = t_dev_i64(1);
    for (int i = 0; i < 50; i++)
        t_launch_add(x, 2, s);
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    ASSERT_EQ(atomic_load((_Atomic int64_t *)x), 100); /* no sync since: the backup waited */
    atomic_store((_Atomic int64_t *)x, 0);
    ASSERT_OK(aclrtSnapShotProcessRestore(pid, NULL));
    ASSERT_EQ(atomic_load((_Atomic int64_t *)x), 100);
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_OK(aclrtMemcpy(&v, sizeof(v), x, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(v, 100);
    ASSERT_OK(aclrtFree(x));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

enum held_call { HELD_LAUNCH, HELD_MALLOC, HELD_CREATE_EVENT, HELD_CREATE_STREAM, HELD_SET_DEVICE };

static void k_fail(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* The backup's wait reports a failed task as a device sync does, and the
 * process stays locked (snapshot_process_helper.cc SnapShotPreProcessBackup:
 * Synchronize's error); the failure is reported once. */
TEST(recovery, snapshot_backup_reports_a_failed_task_and_stays_locked)
{
    int pid = getpid();
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("recovery_fail", k_fail), 1, NULL, 0, s));
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_RC(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSnapShotProcessBackup: waiting for the streams");
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* still LOCKED */
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

struct launcher {
    aclrtContext ctx;
    aclrtStream s;
    enum held_call call;
    void *made;
    _Atomic int calling, done, saw_unlocking, rc;
};

static _Atomic int unlocking;

static void *launch_thread(void *p)
{
    struct launcher *l = p;
    if (aclrtSetCurrentContext(l->ctx) == ACL_SUCCESS) {
        aclError rc = ACL_SUCCESS;
        atomic_store(&l->calling, 1);
        switch (l->call) { /* each waits at the gate while the process is locked */
        case HELD_LAUNCH:
            t_launch_log(1, l->s);
            break;
        case HELD_MALLOC:
            rc = aclrtMalloc(&l->made, 64, ACL_MEM_MALLOC_HUGE_FIRST);
            break;
        case HELD_CREATE_EVENT:
            rc = aclrtCreateEvent((aclrtEvent *)&l->made);
            break;
        case HELD_CREATE_STREAM:
            rc = aclrtCreateStream((aclrtStream *)&l->made);
            break;
        case HELD_SET_DEVICE:
            rc = aclrtSetDevice(0);
            break;
        }
        atomic_store(&l->rc, rc);
        atomic_store(&l->saw_unlocking, atomic_load(&unlocking));
    }
    atomic_store(&l->done, 1);
    return NULL;
}

/* Runs call on another thread while the process is locked: it must not
 * return before the unlock, and succeed after it. */
static void held_until_unlock(struct launcher *l, enum held_call call)
{
    int pid = getpid();
    pthread_t th;
    uint64_t end;
    l->call = call;
    atomic_store(&unlocking, 0);
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_EQ(pthread_create(&th, NULL, launch_thread, l), 0);
    ASSERT(t_wait_flag(&l->calling, 1));
    end = t_now_ns() + 50000000ull; /* a call that is not held returns well within this */
    while (atomic_load(&l->done) == 0 && t_now_ns() < end)
        sched_yield();
    ASSERT_EQ(atomic_load(&l->done), 0);
    atomic_store(&unlocking, 1);
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(atomic_load(&l->saw_unlocking), 1); /* it returned only after the unlock began */
    ASSERT_OK(atomic_load(&l->rc));
}

/* A locked process holds new stream work back until the unlock. */
TEST(recovery, snapshot_lock_holds_new_stream_work_until_unlock)
{
    static struct launcher l;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&l.ctx));
    ASSERT_OK(aclrtCreateStream(&l.s));
    held_until_unlock(&l, HELD_LAUNCH);
    ASSERT_OK(aclrtSynchronizeStream(l.s));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 1);
    ASSERT_OK(aclrtDestroyStream(l.s));
    t_teardown();
}

/* It holds back memory, object and device calls too, as the reference's
 * API entries wait (docs/zh/api_ref/21_snapshot_management.md). */
TEST(recovery, snapshot_lock_holds_memory_object_and_device_calls)
{
    static struct launcher l[4];
    const enum held_call calls[4] = {HELD_MALLOC, HELD_CREATE_EVENT, HELD_CREATE_STREAM, HELD_SET_DEVICE};
    t_setup();
    for (int i = 0; i < 4; i++) {
        ASSERT_OK(aclrtGetCurrentContext(&l[i].ctx));
        held_until_unlock(&l[i], calls[i]);
    }
    ASSERT_OK(aclrtFree(l[0].made));
    ASSERT_OK(aclrtDestroyEvent(l[1].made));
    ASSERT_OK(aclrtDestroyStream(l[2].made));
    ASSERT_OK(aclrtResetDevice(0)); /* the thread's set */
    t_teardown();
}

/* The ACL layer's argument checks come before the wait. */
TEST(recovery, snapshot_lock_does_not_hold_bad_arguments_back)
{
    int pid = getpid();
    t_setup();
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_RC(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    t_teardown();
}

/* ---- snapshots: stage callbacks ------------------------------------------------------- */

static _Atomic int stage_log[64];
static _Atomic int stage_n;
static _Atomic uint32_t fail_with;

static void stage_put(int v)
{
    int i = atomic_fetch_add(&stage_n, 1);
    if (i < 64)
        atomic_store(&stage_log[i], v);
}

/* args = the stage, the device in the tens: log stage * 100 + tag * 10 + device. */
static uint32_t cb_a(int32_t deviceId, void *args)
{
    stage_put((int)(intptr_t)args * 100 + 10 + deviceId);
    return 0;
}

static uint32_t cb_b(int32_t deviceId, void *args)
{
    stage_put((int)(intptr_t)args * 100 + 20 + deviceId);
    return atomic_load(&fail_with);
}

/* Every stage calls its callbacks in registration order, each once for
 * every open device in device order (snapshot_callback_manager.cc
 * InvokeCallbacks); the flow runs the stages in the header's order. */
TEST(recovery, snapshot_stage_callbacks_run_once_per_open_device_in_order)
{
    int pid = getpid();
    static const int want[] = {
        10,  11,  20,  21,  /* LOCK_PRE: a on 0, 1; b on 0, 1 */
        110, 111, 120, 121, /* BACKUP_PRE */
        210, 211, 220, 221, /* BACKUP_POST */
        310, 311, 320, 321, /* RESTORE_PRE */
        410, 411, 420, 421, /* RESTORE_POST */
        510, 511, 520, 521, /* UNLOCK_POST */
    };
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtSetDevice(1));
    for (int st = ACL_RT_SNAPSHOT_LOCK_PRE; st <= ACL_RT_SNAPSHOT_UNLOCK_POST; st++) {
        ASSERT_OK(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)st, cb_a, (void *)(intptr_t)st));
        ASSERT_OK(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)st, cb_b, (void *)(intptr_t)st));
    }
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessBackup(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessRestore(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_EQ(atomic_load(&stage_n), (int)(sizeof(want) / sizeof(want[0])));
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        ASSERT_EQ(atomic_load(&stage_log[i]), want[i]);
    ASSERT_OK(aclrtResetDeviceForce(1));
    t_teardown();
}

/* A callback that fails fails its stage with 507912: LOCK_PRE leaves the
 * process running, BACKUP_POST leaves it locked (no backup to restore),
 * UNLOCK_POST comes after the unlock has happened. */
TEST(recovery, snapshot_failing_callback_fails_its_stage)
{
    int pid = getpid();
    t_setup();
    atomic_store(&fail_with, 3);
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_b, (void *)(intptr_t)0));
    ASSERT_RC(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "LOCK_PRE callback");
    ASSERT_RC(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED); /* still running */
    ASSERT_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_b));
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_POST, cb_b, (void *)(intptr_t)2));
    ASSERT_RC(aclrtSnapShotProcessBackup(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
    ASSERT_RC(aclrtSnapShotProcessRestore(pid, NULL), ACL_ERROR_SNAPSHOT_RESTORE_FAILED); /* still LOCKED */
    ASSERT_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_POST, cb_b));
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, cb_b, (void *)(intptr_t)5));
    ASSERT_RC(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
    ASSERT_RC(aclrtSnapShotProcessUnlock(pid, NULL), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED); /* it did unlock */
    t_teardown();
}

/* LOCK_PRE runs before the state is checked (api_impl.cc SnapShotProcessLock):
 * a second lock calls it again, then fails. */
TEST(recovery, snapshot_lock_pre_runs_before_the_state_check)
{
    int pid = getpid();
    t_setup();
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_a, (void *)(intptr_t)0));
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_RC(aclrtSnapShotProcessLock(pid, NULL), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
    ASSERT_EQ(atomic_load(&stage_n), 2);
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    t_teardown();
}

/* No open device: the stages call nobody. */
TEST(recovery, snapshot_callbacks_not_called_without_open_devices)
{
    int pid = getpid();
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_a, (void *)(intptr_t)0));
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    ASSERT_EQ(atomic_load(&stage_n), 0);
    ASSERT_OK(aclFinalize());
}

/* snapshot_callback_manager.cc RegisterCallback: the stage (107000), the
 * callback (107000), a second registration of one function for one stage
 * (507913); the same function may serve another stage. */
TEST(recovery, snapshot_callback_register_checks_stage_then_callback_then_duplicate)
{
    t_setup();
    ASSERT_RC(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)6, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'stage'");
    ASSERT_RC(aclrtSnapShotCallbackRegister((aclrtSnapShotStage)-1, cb_ok, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'callback'");
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, cb_ok, NULL)); /* last stage */
    ASSERT_RC(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, cb_ok, NULL),
              ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_ok, NULL)); /* first stage */
    t_teardown();
}

/* 65 distinct snapshot callbacks (a stage tells callbacks apart by their
 * address; each body differs so that none is folded into another). None
 * is ever called: no snapshot is taken in the test that registers them. */
static _Atomic int snap_cap_hits[100];
#define SNAP_CAP_CB(n)                                                                                                 \
    static uint32_t snap_cap_cb_##n(int32_t deviceId, void *args)                                                      \
    {                                                                                                                  \
        (void)deviceId;                                                                                                \
        (void)args;                                                                                                    \
        atomic_fetch_add(&snap_cap_hits[n], 1);                                                                        \
        return 0;                                                                                                      \
    }
#define SNAP_CAP_CB8(t)                                                                                                \
    SNAP_CAP_CB(t##0) SNAP_CAP_CB(t##1) SNAP_CAP_CB(t##2) SNAP_CAP_CB(t##3) SNAP_CAP_CB(t##4) SNAP_CAP_CB(t##5)         \
        SNAP_CAP_CB(t##6) SNAP_CAP_CB(t##7)
SNAP_CAP_CB8(1)
SNAP_CAP_CB8(2)
SNAP_CAP_CB8(3)
SNAP_CAP_CB8(4)
SNAP_CAP_CB8(5)
SNAP_CAP_CB8(6)
SNAP_CAP_CB8(7)
SNAP_CAP_CB8(8)
SNAP_CAP_CB(90)
#define SNAP_CAP_REF8(t)                                                                                               \
    snap_cap_cb_##t##0, snap_cap_cb_##t##1, snap_cap_cb_##t##2, snap_cap_cb_##t##3, snap_cap_cb_##t##4,                \
        snap_cap_cb_##t##5, snap_cap_cb_##t##6, snap_cap_cb_##t##7
static const aclrtSnapShotCallBack snap_cap_cbs[65] = {SNAP_CAP_REF8(1), SNAP_CAP_REF8(2), SNAP_CAP_REF8(3),
                                                        SNAP_CAP_REF8(4), SNAP_CAP_REF8(5), SNAP_CAP_REF8(6),
                                                        SNAP_CAP_REF8(7), SNAP_CAP_REF8(8), snap_cap_cb_90};

/* A stage holds 64 callbacks (aclcpu's table, named in the refusal): the
 * 64th registers, the 65th is refused (107000); the cap is per stage, and
 * unregistering one frees its place. */
TEST(recovery, a_snapshot_stage_holds_64_callbacks)
{
    t_setup();
    for (int i = 0; i < 64; i++)
        ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cap_cbs[i], NULL));
    ASSERT_RC(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cap_cbs[64], NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "has 64 callbacks, the most aclcpu keeps");
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_UNLOCK_POST, snap_cap_cbs[64], NULL)); /* another stage */
    ASSERT_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cap_cbs[0]));
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cap_cbs[64], NULL));
    ASSERT_RC(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, snap_cap_cbs[0], NULL),
              ACL_ERROR_RT_PARAM_INVALID);
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(atomic_load(&snap_cap_hits[i]), 0);
    t_teardown();
}

/* UnregisterCallback: the stage, the callback, then a stage never
 * registered or a function not registered for it (107000 each). */
TEST(recovery, snapshot_callback_unregister_rules)
{
    int pid = getpid();
    t_setup();
    ASSERT_RC(aclrtSnapShotCallbackUnregister((aclrtSnapShotStage)6, cb_ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no callback was ever registered");
    ASSERT_OK(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_a, (void *)(intptr_t)0));
    ASSERT_RC(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not registered");
    ASSERT_OK(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_a));
    ASSERT_RC(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, cb_a), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSnapShotProcessLock(pid, NULL));
    ASSERT_EQ(atomic_load(&stage_n), 0); /* unregistered: not called */
    ASSERT_OK(aclrtSnapShotProcessUnlock(pid, NULL));
    t_teardown();
}

/* ---- device task abort ------------------------------------------------------------------ */

/* api_error.cc DeviceTaskAbort: the product (207000), the timeout (at most
 * 36 minutes, 107000), the device (107001); then a device with no context
 * (context_manage.cc DeviceAbort: 107002). */
TEST(recovery, task_abort_checks_product_then_timeout_then_device_then_context)
{
    const uint32_t max = 36u * 60u * 1000u;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtDeviceTaskAbort(99, max + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtDeviceTaskAbort: argument 'timeout'");
    ASSERT_RC(aclrtDeviceTaskAbort(99, max), ACL_ERROR_RT_INVALID_DEVICEID); /* last timeout accepted */
    ASSERT_RC(aclrtDeviceTaskAbort(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_CONTEXT_NULL); /* never set */
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDeviceTaskAbort(0, max));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_CONTEXT_NULL); /* reset: no context again */
    ASSERT_OK(aclFinalize());
}

TEST(recovery, task_abort_refused_off_950_a3_a2_before_arguments)
{
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_RC(aclrtDeviceTaskAbort(99, 0xFFFFFFFFu), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
}

static _Atomic int k_blocks_run, k_release, k_first_started;

static void k_abortable(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 0) {
        atomic_store(&k_first_started, 1);
        t_wait_flag(&k_release, 1);
    }
    atomic_fetch_add(&k_blocks_run, 1);
}

struct abort_call {
    _Atomic int rc, done;
};

static void *device_abort_thread(void *p)
{
    struct abort_call *a = p;
    atomic_store(&a->rc, aclrtDeviceTaskAbort(0, 0));
    atomic_store(&a->done, 1);
    return NULL;
}

/* The abort stops every stream's work: the running kernel at its next
 * block, the queued tasks of every stream dropped (their records still
 * complete their events); the streams then take and run new work. */
TEST(recovery, task_abort_stops_running_and_queued_tasks_of_every_stream)
{
    static struct abort_call a;
    aclrtFuncHandle k = t_kernel("recovery_abortable", k_abortable);
    aclrtStream sa = NULL, sb = NULL;
    aclrtEvent ea = NULL, eb = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    pthread_t th;
    uint64_t end;

    setenv("ACLCPU_WORKERS", "1", 1); /* one worker: queued work waits behind the running kernel */
    t_setup();
    ASSERT_OK(aclrtCreateStream(&sa));
    ASSERT_OK(aclrtCreateStream(&sb));
    ASSERT_OK(aclrtCreateEvent(&ea));
    ASSERT_OK(aclrtCreateEvent(&eb));
    ASSERT_OK(aclrtLaunchKernel(k, 1000, NULL, 0, sb));
    ASSERT(t_wait_flag(&k_first_started, 1));
    t_launch_log(9, sa); /* queued: the only worker is busy */
    ASSERT_OK(aclrtRecordEvent(ea, sa));
    ASSERT_OK(aclrtRecordEvent(eb, sb));
    t_launch_log(7, sb);
    ASSERT_EQ(pthread_create(&th, NULL, device_abort_thread, &a), 0);
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (st != ACL_EVENT_RECORDED_STATUS_COMPLETE && t_now_ns() < end) {
        ASSERT_OK(aclrtQueryEventStatus(eb, &st));
        sched_yield();
    }
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE); /* the abort reached sb */
    ASSERT_EQ(atomic_load(&a.done), 0);                /* and waits for its running kernel */
    atomic_store(&k_release, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&a.rc));
    ASSERT_EQ(atomic_load(&k_blocks_run), 1); /* blocks 1..999 never started */
    ASSERT_EQ(atomic_load(&t_log_n), 0);      /* neither queued log ran */
    ASSERT_OK(aclrtQueryEventStatus(ea, &st));
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtSynchronizeStream(sa));
    ASSERT_OK(aclrtSynchronizeStream(sb));
    t_launch_log(1, sa);
    t_launch_log(2, sb);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_EQ(atomic_load(&t_log_n), 2);
    ASSERT_OK(aclrtDestroyEvent(ea));
    ASSERT_OK(aclrtDestroyEvent(eb));
    ASSERT_OK(aclrtDestroyStream(sa));
    ASSERT_OK(aclrtDestroyStream(sb));
    t_teardown();
}

/* A model run under way is stopped too (as aclmdlRIAbort stops it): the
 * held kernel ends, nothing after it runs; the model then runs in full.
 * The models are stopped before the streams: once the record queued behind
 * the run completes (dropped by the abort), the run is marked aborted. */
TEST(recovery, task_abort_stops_a_running_model)
{
    static struct abort_call a;
    static struct t_gate g;
    aclmdlRI m = NULL;
    aclrtStream s = NULL, exec = NULL;
    aclrtEvent e = NULL;
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    pthread_t th;
    uint64_t end;
    int64_t *x;
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    t_launch_gate(&g, s);
    t_launch_add(x, 1, s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtRecordEvent(e, exec));
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_EQ(pthread_create(&th, NULL, device_abort_thread, &a), 0);
    end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (st != ACL_EVENT_RECORDED_STATUS_COMPLETE && t_now_ns() < end) {
        ASSERT_OK(aclrtQueryEventStatus(e, &st));
        sched_yield();
    }
    ASSERT_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    atomic_store(&g.open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(atomic_load(&a.rc));
    ASSERT_EQ(atomic_load(&g.timed_out), 0);
    (void)aclrtSynchronizeStream(exec); /* the aborted run's code, or none: the abort reset the stream */
    ASSERT_EQ(x[0], 0);
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_OK(aclrtSynchronizeStream(exec));
    ASSERT_EQ(x[0], 1);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

static _Atomic int abort_log[16];
static _Atomic int abort_n;
static _Atomic int32_t abort_fail;
static _Atomic uint32_t abort_left[16];

/* args = the tag (1 or 2): logs tag * 10 + stage. */
static int32_t abort_cb(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    int i = atomic_fetch_add(&abort_n, 1);
    if (i < 16) {
        atomic_store(&abort_log[i], (int)(intptr_t)args * 10 + (int)stage + deviceId * 100);
        atomic_store(&abort_left[i], timeout);
    }
    return stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? atomic_load(&abort_fail) : 0;
}

/* The callbacks hear PRE then POST, once each, in the order of their
 * names (runtime.cc TaskAbortCallBack walks a std::map), with what is
 * left of the timeout (0: none). */
TEST(recovery, task_abort_callbacks_hear_pre_then_post_once_in_name_order)
{
    t_setup();
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("zeta", abort_cb, (void *)(intptr_t)2));
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("alpha", abort_cb, (void *)(intptr_t)1));
    ASSERT_OK(aclrtDeviceTaskAbort(0, 0));
    ASSERT_EQ(atomic_load(&abort_n), 4);
    ASSERT_EQ(atomic_load(&abort_log[0]), 10); /* alpha PRE */
    ASSERT_EQ(atomic_load(&abort_log[1]), 20); /* zeta PRE */
    ASSERT_EQ(atomic_load(&abort_log[2]), 11); /* alpha POST */
    ASSERT_EQ(atomic_load(&abort_log[3]), 21); /* zeta POST */
    ASSERT_EQ(atomic_load(&abort_left[0]), 0);
    ASSERT_OK(aclrtDeviceTaskAbort(0, 60000));
    ASSERT_EQ(atomic_load(&abort_n), 8);
    ASSERT(atomic_load(&abort_left[4]) > 0 && atomic_load(&abort_left[4]) <= 60000);
    ASSERT(atomic_load(&abort_left[6]) <= atomic_load(&abort_left[4]));
    t_teardown();
}

/* A callback's non-zero return ends the abort with that code (POST is not
 * told); a value in the runtime's own range becomes 507000. */
TEST(recovery, task_abort_failing_callback_code_is_returned)
{
    t_setup();
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("one", abort_cb, (void *)(intptr_t)1));
    atomic_store(&abort_fail, 12345);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), 12345);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "\"one\" returned 12345 at PRE");
    ASSERT_EQ(atomic_load(&abort_n), 1);
    atomic_store(&abort_fail, 0x07000001);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_INTERNAL_ERROR);
    t_teardown();
}

/* Holds PRE for 5 ms (busy, bounded). */
static int32_t slow_pre(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    (void)deviceId;
    (void)timeout;
    (void)args;
    atomic_fetch_add(&abort_n, 1);
    if (stage == ACL_RT_DEVICE_TASK_ABORT_PRE) {
        uint64_t end = t_now_ns() + 5000000ull;
        while (t_now_ns() < end)
            sched_yield();
    }
    return 0;
}

/* The timeout bounds the whole abort: checked between its steps, it ends
 * the abort with 107019 before POST (context_manage.cc DeviceTaskAbort,
 * RT_ERROR_WAIT_TIMEOUT). */
TEST(recovery, task_abort_timeout_ends_the_abort_before_post)
{
    t_setup();
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("slow", slow_pre, NULL));
    ASSERT_RC(aclrtDeviceTaskAbort(0, 1), ACL_ERROR_RT_WAIT_TIMEOUT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "took more than 1 ms");
    ASSERT_EQ(atomic_load(&abort_n), 1); /* PRE only */
    ASSERT_OK(aclrtDeviceTaskAbort(0, 0)); /* no limit */
    ASSERT_EQ(atomic_load(&abort_n), 3);
    t_teardown();
}

/* callback.cpp: regName NULL (100000); runtime.cc SetTaskAbortCallBack: a
 * NULL callback removes the name (a missing name too), a name registered
 * already is 107000. */
TEST(recovery, task_abort_callback_register_rules)
{
    t_setup();
    ASSERT_RC(aclrtSetDeviceTaskAbortCallback(NULL, abort_cb, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetDeviceTaskAbortCallback: argument 'regName'");
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("missing", NULL, NULL));
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("m", abort_cb, NULL));
    ASSERT_RC(aclrtSetDeviceTaskAbortCallback("m", abort_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("m", NULL, NULL));
    ASSERT_OK(aclrtDeviceTaskAbort(0, 0));
    ASSERT_EQ(atomic_load(&abort_n), 0); /* removed: not called */
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("m", abort_cb, NULL)); /* the name is free again */
    t_teardown();
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* The clean-up forgets a context's STOP failure (context_manage.cc
 * DeviceClean): launches and syncs work again. */
TEST(recovery, task_abort_clears_the_context_stop_failure)
{
    aclrtFuncHandle k = t_kernel("recovery_trap", k_trap);
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_NE(aclrtSynchronizeStream(s), ACL_SUCCESS);
    ASSERT_NE(aclrtSynchronizeDevice(), ACL_SUCCESS); /* the context is stopped */
    ASSERT_OK(aclrtDeviceTaskAbort(0, 0));
    ASSERT_OK(aclrtSynchronizeDevice());
    t_launch_log(3, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 3);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- device state callbacks ------------------------------------------------------------------ */

static _Atomic int state_log[32];
static _Atomic int state_n;

static void state_cb(int32_t deviceId, aclrtDeviceState state, void *args)
{
    int i = atomic_fetch_add(&state_n, 1);
    if (i < 32)
        atomic_store(&state_log[i], (int)(intptr_t)args * 100 + deviceId * 10 + (int)state);
}

/* SET_PRE when the device opens, SET_POST after every set; RESET_PRE and
 * RESET_POST around the last reset (runtime.cc PrepareDeviceRetain,
 * PrimaryContextCallBack*; api_impl.cc SetDevice). */
TEST(recovery, device_state_callbacks_hear_set_and_reset)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtRegDeviceStateCallback("state", state_cb, (void *)(intptr_t)1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_EQ(atomic_load(&state_n), 2);
    ASSERT_EQ(atomic_load(&state_log[0]), 100 + ACL_RT_DEVICE_STATE_SET_PRE);
    ASSERT_EQ(atomic_load(&state_log[1]), 100 + ACL_RT_DEVICE_STATE_SET_POST);
    ASSERT_OK(aclrtSetDevice(0)); /* open already: SET_POST alone */
    ASSERT_EQ(atomic_load(&state_n), 3);
    ASSERT_EQ(atomic_load(&state_log[2]), 100 + ACL_RT_DEVICE_STATE_SET_POST);
    ASSERT_OK(aclrtResetDevice(0)); /* one reference left: nothing */
    ASSERT_EQ(atomic_load(&state_n), 3);
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_EQ(atomic_load(&state_n), 5);
    ASSERT_EQ(atomic_load(&state_log[3]), 100 + ACL_RT_DEVICE_STATE_RESET_PRE);
    ASSERT_EQ(atomic_load(&state_log[4]), 100 + ACL_RT_DEVICE_STATE_RESET_POST);
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR); /* nothing to reset: no callback */
    ASSERT_EQ(atomic_load(&state_n), 5);
    ASSERT_RC(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID); /* refused: no callback */
    ASSERT_EQ(atomic_load(&state_n), 5);
    ASSERT_OK(aclFinalize());
}

/* A context opens its device too (api_impl.cc NewContext, DeviceRetain):
 * SET_PRE when the device was closed, no SET_POST (that is aclrtSetDevice's). */
TEST(recovery, device_state_create_context_tells_set_pre_when_it_opens_the_device)
{
    aclrtContext c1 = NULL, c2 = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtRegDeviceStateCallback("state", state_cb, NULL));
    ASSERT_OK(aclrtCreateContext(&c1, 0));
    ASSERT_EQ(atomic_load(&state_n), 1);
    ASSERT_EQ(atomic_load(&state_log[0]), ACL_RT_DEVICE_STATE_SET_PRE);
    ASSERT_OK(aclrtCreateContext(&c2, 0)); /* open already */
    ASSERT_EQ(atomic_load(&state_n), 1);
    ASSERT_OK(aclrtDestroyContext(c2));
    ASSERT_OK(aclrtDestroyContext(c1));
    ASSERT_OK(aclFinalize());
}

TEST(recovery, device_state_reset_force_tells_reset_once)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtRegDeviceStateCallback("state", state_cb, NULL));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_EQ(atomic_load(&state_n), 2);
    ASSERT_EQ(atomic_load(&state_log[0]), ACL_RT_DEVICE_STATE_RESET_PRE);
    ASSERT_EQ(atomic_load(&state_log[1]), ACL_RT_DEVICE_STATE_RESET_POST);
    ASSERT_OK(aclFinalize());
}

/* callback.cpp: regName NULL (100000); device_state_callback_manager.cc: a
 * NULL callback removes the name, a name registered already is 107000;
 * callbacks are told in registration order. */
TEST(recovery, device_state_callback_register_rules)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtRegDeviceStateCallback(NULL, state_cb, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRegDeviceStateCallback: argument 'regName'");
    ASSERT_OK(aclrtRegDeviceStateCallback("b", state_cb, (void *)(intptr_t)2));
    ASSERT_OK(aclrtRegDeviceStateCallback("a", state_cb, (void *)(intptr_t)1));
    ASSERT_RC(aclrtRegDeviceStateCallback("b", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtRegDeviceStateCallback("gone", NULL, NULL)); /* removing a missing name succeeds */
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_EQ(atomic_load(&state_n), 4);
    ASSERT_EQ(atomic_load(&state_log[0]), 200 + ACL_RT_DEVICE_STATE_SET_PRE);
    ASSERT_EQ(atomic_load(&state_log[1]), 100 + ACL_RT_DEVICE_STATE_SET_PRE);
    ASSERT_OK(aclrtRegDeviceStateCallback("b", NULL, NULL));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_EQ(atomic_load(&state_n), 6); /* "a" alone */
    ASSERT_EQ(atomic_load(&state_log[4]), 100 + ACL_RT_DEVICE_STATE_RESET_PRE);
    ASSERT_OK(aclFinalize());
}

/* The named callback tables (device state and task abort share them)
 * hold 64 names of up to 127 bytes each, as the message says: a name of
 * 127 bytes fits (128 with its NUL), one of 128 is refused; the 64th name
 * registers, the 65th is refused; removing one frees its place. */
TEST(recovery, a_callback_table_holds_64_names_of_up_to_127_bytes)
{
    char name[160];
    ASSERT_OK(aclInit(NULL));
    memset(name, 'n', sizeof(name));
    name[127] = '\0';
    ASSERT_OK(aclrtRegDeviceStateCallback(name, state_cb, NULL));
    ASSERT_OK(aclrtRegDeviceStateCallback(name, NULL, NULL));
    name[127] = 'n';
    name[128] = '\0';
    ASSERT_RC(aclrtRegDeviceStateCallback(name, state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "at most 64 callbacks, with names under 128 bytes");
    for (int i = 0; i < 64; i++) {
        snprintf(name, sizeof(name), "cap_%d", i);
        ASSERT_OK(aclrtRegDeviceStateCallback(name, state_cb, NULL));
    }
    ASSERT_RC(aclrtRegDeviceStateCallback("cap_64", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtRegDeviceStateCallback("cap_0", NULL, NULL));
    ASSERT_OK(aclrtRegDeviceStateCallback("cap_64", state_cb, NULL));
    ASSERT_RC(aclrtRegDeviceStateCallback("cap_65", state_cb, NULL), ACL_ERROR_RT_PARAM_INVALID);
    for (int i = 1; i <= 64; i++) {
        snprintf(name, sizeof(name), "cap_%d", i);
        ASSERT_OK(aclrtRegDeviceStateCallback(name, NULL, NULL));
    }
    ASSERT_OK(aclFinalize());
}

/* ---- memory UCE ------------------------------------------------------------------------------ */

/* event.cpp: the array, then retSize (100000); api_error.cc: the product
 * (207000), the device (107001). A CPU device reports no UCE. */
TEST(recovery, uce_info_checks_pointers_then_device_and_reports_none)
{
    aclrtMemUceInfo info[2];
    size_t n = 77;
    t_setup();
    ASSERT_RC(aclrtGetMemUceInfo(99, NULL, 2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'memUceInfoArray'");
    ASSERT_RC(aclrtGetMemUceInfo(99, info, 2, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'retSize'");
    ASSERT_RC(aclrtGetMemUceInfo(99, info, 2, &n), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_EQ(n, 77);
    ASSERT_OK(aclrtGetMemUceInfo(0, info, 0, &n));
    ASSERT_EQ(n, 0);
    t_teardown();
}

TEST(recovery, uce_refused_off_950_a3_a2_after_pointers)
{
    aclrtMemUceInfo info[1];
    size_t n = 0;
    memset(info, 0, sizeof(info));
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_RC(aclrtGetMemUceInfo(0, info, 1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetMemUceInfo(99, info, 1, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtMemUceRepair(0, info, 129), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtMemUceRepair(99, info, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    t_teardown();
}

/* event.cpp aclrtMemUceRepairImpl: the array (100000), arraySize at most
 * 128 (100000), reserved bytes zero (100000); then the device (107001);
 * then there is nothing to repair (207000). */
TEST(recovery, uce_repair_checks_then_finds_nothing_to_repair)
{
    static aclrtMemUceInfo info[129];
    memset(info, 0, sizeof(info));
    t_setup();
    ASSERT_RC(aclrtMemUceRepair(0, NULL, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'memUceInfoArray'");
    ASSERT_RC(aclrtMemUceRepair(99, info, 129), ACL_ERROR_INVALID_PARAM); /* before the device */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'arraySize'");
    ASSERT_RC(aclrtMemUceRepair(99, info, 128), ACL_ERROR_RT_INVALID_DEVICEID); /* last size accepted */
    info[5].reserved[0] = 1;
    ASSERT_RC(aclrtMemUceRepair(99, info, 6), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "memUceInfoArray[5].reserved");
    ASSERT_RC(aclrtMemUceRepair(99, info, 5), ACL_ERROR_RT_INVALID_DEVICEID); /* only the first arraySize count */
    ASSERT_RC(aclrtMemUceRepair(0, info, 5), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "nothing to repair");
    t_teardown();
}

/* ---- the data-dump state ------------------------------------------------------------------------ */

static const char *write_file(const char *name, const char *text)
{
    static char path[T_PATH_CAP + 64];
    FILE *f;
    snprintf(path, sizeof(path), "%s/aclcpu-recovery-%d-%s", t_tmp_base(), (int)getpid(), name);
    f = fopen(path, "w");
    if (f == NULL)
        return NULL;
    fputs(text, f);
    fclose(f);
    return path;
}

/* dump.cpp: aclInit first (100001) for all three; aclmdlSetDump and
 * aclmdlFinalizeDump need aclmdlInitDump (100045); a second aclmdlInitDump
 * is 100002. */
TEST(recovery, dump_state_machine)
{
    ASSERT_RC(aclmdlInitDump(), ACL_ERROR_UNINITIALIZE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlInitDump: aclInit must be called first");
    ASSERT_RC(aclmdlSetDump(NULL), ACL_ERROR_UNINITIALIZE);
    ASSERT_RC(aclmdlFinalizeDump(), ACL_ERROR_UNINITIALIZE);
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclmdlSetDump(NULL), ACL_ERROR_DUMP_NOT_RUN); /* before the path */
    ASSERT_RC(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
    ASSERT_OK(aclmdlInitDump());
    ASSERT_RC(aclmdlInitDump(), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_OK(aclmdlFinalizeDump());
    ASSERT_RC(aclmdlFinalizeDump(), ACL_ERROR_DUMP_NOT_RUN);
    ASSERT_OK(aclmdlInitDump()); /* again after the finalize */
    ASSERT_OK(aclmdlFinalizeDump());
    ASSERT_OK(aclFinalize());
}

/* aclmdlSetDump's nesting rule is inclusive: 10 open braces (or
 * brackets) pass it and fail as no JSON (100009); 11 are refused as too
 * deep (100006). */
TEST(recovery, dump_config_nests_at_most_ten_deep)
{
    static const char opens[2] = {'{', '['};
    char deep[16];
    const char *p;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclmdlInitDump());
    for (int k = 0; k < 2; k++) {
        memset(deep, 0, sizeof(deep));
        memset(deep, opens[k], 10);
        ASSERT((p = write_file("deep10", deep)) != NULL);
        ASSERT_RC(aclmdlSetDump(p), ACL_ERROR_INVALID_DUMP_CONFIG);
        unlink(p);
        deep[10] = opens[k];
        ASSERT((p = write_file("deep11", deep)) != NULL);
        ASSERT_RC(aclmdlSetDump(p), ACL_ERROR_PARSE_FILE);
        unlink(p);
    }
    ASSERT_OK(aclmdlFinalizeDump());
    ASSERT_OK(aclFinalize());
}

/* A dump configuration file may have exactly 10 MiB: that one is read
 * (NUL bytes, no configuration the dump component takes: 100009); one
 * byte more is not read (100003). */
TEST(recovery, dump_config_file_of_exactly_10_mib_is_read)
{
    static char path[T_PATH_CAP];
    int fd;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclmdlInitDump());
    fd = t_tmpfile(path, sizeof(path), "aclcpu-dump");
    ASSERT(fd >= 0);
    ASSERT_EQ(ftruncate(fd, (off_t)10 << 20), 0);
    ASSERT_RC(aclmdlSetDump(path), ACL_ERROR_INVALID_DUMP_CONFIG);
    ASSERT_EQ(ftruncate(fd, ((off_t)10 << 20) + 1), 0);
    ASSERT_RC(aclmdlSetDump(path), ACL_ERROR_INVALID_FILE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "at most 10485760");
    ASSERT_EQ(close(fd), 0);
    unlink(path);
    ASSERT_OK(aclmdlFinalizeDump());
    ASSERT_OK(aclFinalize());
}

/* The path (100000), the file (100003: cannot be opened, no regular
 * file), nesting (100006), then the dump component: text that is not
 * JSON is 100009, an empty file sets nothing, a configuration would turn
 * dumping on, which aclcpu cannot do (207000). */
TEST(recovery, dump_config_file_rules)
{
    char deep[64] = "";
    const char *p;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclmdlInitDump());
    ASSERT_RC(aclmdlSetDump(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclmdlSetDump: argument 'dumpCfgPath'");
    ASSERT_RC(aclmdlSetDump("/nonexistent/aclcpu/dump.json"), ACL_ERROR_INVALID_FILE);
    ASSERT_RC(aclmdlSetDump("/tmp"), ACL_ERROR_INVALID_FILE);
    ASSERT((p = write_file("empty", "")) != NULL);
    ASSERT_OK(aclmdlSetDump(p));
    unlink(p);
    for (int i = 0; i < 11; i++)
        strcat(deep, "[");
    ASSERT((p = write_file("deep", deep)) != NULL);
    ASSERT_RC(aclmdlSetDump(p), ACL_ERROR_PARSE_FILE);
    unlink(p);
    ASSERT((p = write_file("text", "dump me")) != NULL);
    ASSERT_RC(aclmdlSetDump(p), ACL_ERROR_INVALID_DUMP_CONFIG);
    unlink(p);
    ASSERT((p = write_file("json", "{\"dump\": {\"dump_path\": \"/tmp\", \"dump_mode\": \"output\"}}")) != NULL);
    ASSERT_RC(aclmdlSetDump(p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no data-dump server");
    unlink(p);
    ASSERT_OK(aclmdlFinalizeDump());
    ASSERT_OK(aclFinalize());
}

/* ---- sweep 4: an abort callback's return at the edges ------------------------------------------ */

/* Any non-zero return of an abort callback fails the abort, a negative one
 * too (returned as it is); the runtime's own range starts exactly at
 * 0x07000000, which becomes 507000, while the value just below it is
 * returned as it is. */
TEST(recovery, task_abort_callback_returns_fail_it_whatever_their_sign_and_range)
{
    t_setup();
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("one", abort_cb, (void *)(intptr_t)1));
    atomic_store(&abort_fail, -1);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), (aclError)-1);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "\"one\" returned -1 at PRE");
    atomic_store(&abort_fail, 0x07000000);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), ACL_ERROR_RT_INTERNAL_ERROR);
    atomic_store(&abort_fail, 0x06FFFFFF);
    ASSERT_RC(aclrtDeviceTaskAbort(0, 0), 0x06FFFFFF);
    atomic_store(&abort_fail, 0);
    ASSERT_OK(aclrtDeviceTaskAbort(0, 0));
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("one", NULL, NULL));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): units --------------------------------------------- */

static _Atomic uint32_t post_left;

/* Holds PRE for 5 ms (busy, bounded); records what POST is told is left. */
static int32_t slow_pre_noting_post(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void *args)
{
    (void)deviceId;
    (void)args;
    if (stage == ACL_RT_DEVICE_TASK_ABORT_PRE) {
        uint64_t end = t_now_ns() + 5000000ull;
        while (t_now_ns() < end)
            sched_yield();
    } else {
        atomic_store(&post_left, timeout);
    }
    return 0;
}

/* The abort's timeout counts milliseconds: a PRE callback that takes 5 ms
 * fits in 1000 ms (5000 of them had they been microseconds), and POST is
 * told what is left of the 1000, at least those 5 ms less. */
TEST(recovery, the_task_abort_timeout_counts_milliseconds)
{
    t_setup();
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("slow", slow_pre_noting_post, NULL));
    atomic_store(&post_left, UINT32_MAX);
    ASSERT_OK(aclrtDeviceTaskAbort(0, 1000));
    ASSERT(atomic_load(&post_left) > 0 && atomic_load(&post_left) <= 995);
    ASSERT_OK(aclrtSetDeviceTaskAbortCallback("slow", NULL, NULL));
    t_teardown();
}
