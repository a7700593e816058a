/*
 * test_errinfo.c - errors and exception information: the thread's last
 * error, the exception callbacks and the getters of what they are handed,
 * a binary's own exception callback, the thread's last task id, and the
 * calls a CPU refuses (docs/conformance.md, "Errors and exception
 * information").
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <acl/acl_prof.h>

#include "test.h"

static uint32_t my_tid(void) { return (uint32_t)syscall(SYS_gettid); }

/* What a callback saw, read through the getters inside the callback (the
 * information is valid only during the call). */
struct seen {
    uint32_t task, stream, thread, device, code;
    aclError args_rc, func_rc;
    int32_t arg0;
    uint32_t args_len;
    aclrtFuncHandle func;
    uint32_t caller_tid;
};

static _Atomic int calls_a, calls_b;
static struct seen seen_a[4];

static void record(struct seen *s, aclrtExceptionInfo *info)
{
    void *args = NULL;
    s->task = aclrtGetTaskIdFromExceptionInfo(info);
    s->stream = aclrtGetStreamIdFromExceptionInfo(info);
    s->thread = aclrtGetThreadIdFromExceptionInfo(info);
    s->device = aclrtGetDeviceIdFromExceptionInfo(info);
    s->code = aclrtGetErrorCodeFromExceptionInfo(info);
    s->args_rc = aclrtGetArgsFromExceptionInfo(info, &args, &s->args_len);
    if (s->args_rc == ACL_SUCCESS && s->args_len >= sizeof(int32_t))
        memcpy(&s->arg0, args, sizeof(int32_t));
    s->func_rc = aclrtGetFuncHandleFromExceptionInfo(info, &s->func);
    s->caller_tid = my_tid();
}

static void cb_a(aclrtExceptionInfo *info)
{
    int n = atomic_fetch_add(&calls_a, 1);
    if (n < 4)
        record(&seen_a[n], info);
}

static void cb_b(aclrtExceptionInfo *info)
{
    (void)info;
    atomic_fetch_add(&calls_b, 1);
}

static void k_nop(void *args) { (void)args; }

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

static aclrtFuncHandle trap_kernel(void) { return t_kernel("errinfo_trap", k_trap); }

static void launch_trap(aclrtStream s)
{
    int32_t arg = 7;
    ASSERT_OK(aclrtLaunchKernel(trap_kernel(), 1, &arg, sizeof(arg), s));
}

/* A trapping kernel: the callback is called once, before the sync returns,
 * and each getter answers from the failing task: its number on the stream
 * (the nop before it is 0), the stream's id, the launching thread, device
 * 0, the task's code, its argument bytes and its function. */
TEST(errinfo, trap_fills_every_getter)
{
    aclrtStream s = NULL;
    int32_t sid = -1;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtStreamGetId(s, &sid));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("errinfo_nop", k_nop), 1, NULL, 0, s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(seen_a[0].task, 1);
    ASSERT_EQ(seen_a[0].stream, (uint32_t)sid);
    ASSERT_EQ(seen_a[0].thread, my_tid());
    ASSERT_EQ(seen_a[0].device, 0);
    ASSERT_EQ(seen_a[0].code, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(seen_a[0].args_rc);
    ASSERT_EQ(seen_a[0].args_len, sizeof(int32_t));
    ASSERT_EQ(seen_a[0].arg0, 7);
    ASSERT_OK(seen_a[0].func_rc);
    ASSERT(seen_a[0].func == trap_kernel());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Unregistering a callback stops its calls; the others go on. Unregistering
 * one never registered succeeds; NULL is 107000 for both calls. */
TEST(errinfo, unregister_stops_the_calls)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_RC(aclrtExceptionInfoCallbackRegister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtExceptionInfoCallbackUnregister(NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtExceptionInfoCallbackUnregister: argument 'callback' is NULL");
    ASSERT_OK(aclrtExceptionInfoCallbackUnregister(cb_b)); /* never registered */
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_b));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(atomic_load(&calls_b), 1);
    ASSERT_OK(aclrtExceptionInfoCallbackUnregister(cb_a));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(atomic_load(&calls_b), 2);
    ASSERT_OK(aclrtExceptionInfoCallbackUnregister(cb_b));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_b), 2);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A second failure calls the callback again, with that task's number; a
 * callback registered twice is called once per failure. */
TEST(errinfo, second_failure_calls_again_and_a_double_registration_counts_once)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    launch_trap(s); /* CONTINUE mode (the default): it runs and fails too */
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 2);
    ASSERT_EQ(seen_a[0].task, 0);
    ASSERT_EQ(seen_a[1].task, 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* In STOP mode the failing task's callback is called once; the tasks it
 * drops never ran, so they call nothing. */
TEST(errinfo, stop_mode_calls_for_the_failing_task_only)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    launch_trap(s);
    (void)aclrtLaunchKernel(trap_kernel(), 1, NULL, 0, s); /* dropped, or refused if the first failed already */
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(seen_a[0].task, 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtSetExceptionInfoCallback keeps one callback: the last set wins, NULL
 * clears it, and it is independent of the registered ones (one function
 * both set and registered is called twice). */
TEST(errinfo, set_callback_last_wins_null_clears_and_coexists_with_registered)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    ASSERT_OK(aclrtSetExceptionInfoCallback(cb_b));
    ASSERT_OK(aclrtSetExceptionInfoCallback(cb_a)); /* replaces cb_b */
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(atomic_load(&calls_b), 0);
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 3);
    ASSERT_OK(aclrtSetExceptionInfoCallback(NULL));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 4);
#pragma GCC diagnostic pop
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A callback runs with no aclcpu lock held: it may change the callbacks
 * (the list's lock is free) and call the runtime. */
static void cb_reentrant(aclrtExceptionInfo *info)
{
    uint32_t id = 0;
    (void)info;
    atomic_fetch_add(&calls_a, 1);
    (void)aclrtExceptionInfoCallbackRegister(cb_b);
    (void)aclrtExceptionInfoCallbackUnregister(cb_reentrant);
    (void)aclrtGetThreadLastTaskId(&id);
}

TEST(errinfo, callback_runs_without_locks_and_may_change_the_callbacks)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_reentrant));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(atomic_load(&calls_b), 0); /* registered during this notification: not in its copy */
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(atomic_load(&calls_b), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The getters handed NULL answer 0xFFFFFFFF; the two with out-arguments
 * check info first, then each out-pointer (100000). */
TEST(errinfo, getters_with_null_info_return_all_ones_before_other_checks)
{
    void *args = NULL;
    uint32_t len = 0;
    aclrtFuncHandle f = NULL;
    ASSERT_EQ(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    ASSERT_EQ(aclrtGetStreamIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    ASSERT_EQ(aclrtGetThreadIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    ASSERT_EQ(aclrtGetDeviceIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    ASSERT_EQ(aclrtGetErrorCodeFromExceptionInfo(NULL), 0xFFFFFFFFu);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetErrorCodeFromExceptionInfo: argument 'info' is NULL");
    ASSERT_EQ((uint32_t)aclrtGetArgsFromExceptionInfo(NULL, NULL, NULL), 0xFFFFFFFFu);
    ASSERT_EQ((uint32_t)aclrtGetArgsFromExceptionInfo(NULL, &args, &len), 0xFFFFFFFFu);
    ASSERT_EQ((uint32_t)aclrtGetFuncHandleFromExceptionInfo(NULL, NULL), 0xFFFFFFFFu);
    ASSERT_EQ((uint32_t)aclrtGetFuncHandleFromExceptionInfo(NULL, &f), 0xFFFFFFFFu);
    ASSERT_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL)); /* none of these is a failed runtime call */
}

static aclError out_args_rc[3];
static void cb_out_args(aclrtExceptionInfo *info)
{
    void *args = NULL;
    out_args_rc[0] = aclrtGetArgsFromExceptionInfo(info, NULL, NULL);
    out_args_rc[1] = aclrtGetArgsFromExceptionInfo(info, &args, NULL);
    out_args_rc[2] = aclrtGetFuncHandleFromExceptionInfo(info, NULL);
    atomic_fetch_add(&calls_a, 1);
}

TEST(errinfo, args_and_func_getters_check_their_out_pointers)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_out_args));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_RC(out_args_rc[0], ACL_ERROR_INVALID_PARAM); /* devArgsPtr first */
    ASSERT_RC(out_args_rc[1], ACL_ERROR_INVALID_PARAM); /* then devArgsLen */
    ASSERT_RC(out_args_rc[2], ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- the last error ------------------------------------------------------- */

static _Atomic int phase;
static aclError other_peek, other_get, other_after;

static void *other_thread(void *arg)
{
    (void)arg;
    (void)aclrtGetThreadLastTaskId(NULL); /* fails: 100000 in this thread */
    atomic_store(&phase, 1);
    if (!t_wait_flag(&phase, 2))
        return NULL;
    other_peek = aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL);
    other_get = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    other_after = aclrtGetLastError(ACL_RT_THREAD_LEVEL);
    return NULL;
}

/* Each thread has its own last error: the code of its last failed call.
 * Peek leaves it, Get hands it out and clears it. */
TEST(errinfo, last_error_is_per_thread)
{
    pthread_t th;
    aclrtStream s = NULL;
    ASSERT_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    ASSERT_EQ(pthread_create(&th, NULL, other_thread, NULL), 0);
    ASSERT(t_wait_flag(&phase, 1));
    ASSERT_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL)); /* the other thread's failure is not ours */
    t_setup();
    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDestroyStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    atomic_store(&phase, 2);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(other_peek, ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(other_get, ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(other_after);
    ASSERT_RC(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_HANDLE); /* the last one */
    ASSERT_RC(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    ASSERT_OK(aclrtCreateStream(&s)); /* a success does not set it */
    ASSERT_OK(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The profiler's mstx calls fail with -1, their own code, not a runtime
 * error: the last error keeps the runtime's. */
TEST(errinfo, last_error_ignores_the_profilers_mstx_failures)
{
    ASSERT_RC(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclprofMark(NULL), -1);
    ASSERT_RC(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM);
}

/* A sync (of the stream or the device) that hands back a task's failure is
 * a failed call: it sets the thread's last error to the task's code. */
TEST(errinfo, last_error_set_by_a_sync_that_reports_a_failed_task)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_RC(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION); /* the device's sync too */
    ASSERT_RC(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* level must be ACL_RT_THREAD_LEVEL (100000, the acl layer's check); the
 * refusal names the argument and leaves the last error as it was. */
TEST(errinfo, last_error_level_must_be_thread_level)
{
    ASSERT_RC(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtPeekAtLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtPeekAtLastError: argument 'level' (1)");
    ASSERT_RC(aclrtGetLastError((aclrtLastErrLevel)-1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetLastError: argument 'level' (-1)");
    ASSERT_RC(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_INVALID_PARAM); /* the earlier failure's */
    ASSERT_RC(aclrtGetLastError((aclrtLastErrLevel)1), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtGetLastError(ACL_RT_THREAD_LEVEL)); /* the refusal did not set it */
}

/* ---- the thread's last task id ------------------------------------------- */

static uint32_t other_first_id, other_id;
static aclrtStream shared_stream;

static void *other_launcher(void *arg)
{
    (void)arg;
    (void)aclrtGetThreadLastTaskId(&other_first_id);
    (void)aclrtSetDevice(0);
    (void)aclrtLaunchKernel(t_kernel("errinfo_nop", k_nop), 1, NULL, 0, shared_stream);
    (void)aclrtGetThreadLastTaskId(&other_id);
    return NULL;
}

/* The number (on its stream, from 0) of the last task the calling thread
 * issued; 0xFFFFFFFF before it issued any; NULL is 100000. */
TEST(errinfo, thread_last_task_id_is_this_threads_last_issue)
{
    pthread_t th;
    uint32_t id = 0;
    t_setup();
    ASSERT_RC(aclrtGetThreadLastTaskId(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetThreadLastTaskId: argument 'taskId' is NULL");
    ASSERT_OK(aclrtGetThreadLastTaskId(&id));
    ASSERT_EQ(id, 0xFFFFFFFFu);
    ASSERT_OK(aclrtCreateStream(&shared_stream));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("errinfo_nop", k_nop), 1, NULL, 0, shared_stream));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("errinfo_nop", k_nop), 1, NULL, 0, shared_stream));
    ASSERT_OK(aclrtGetThreadLastTaskId(&id));
    ASSERT_EQ(id, 1);
    ASSERT_EQ(pthread_create(&th, NULL, other_launcher, NULL), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(other_first_id, 0xFFFFFFFFu);
    ASSERT_EQ(other_id, 2);
    ASSERT_OK(aclrtGetThreadLastTaskId(&id));
    ASSERT_EQ(id, 1); /* ours, not the other thread's */
    ASSERT_OK(aclrtSynchronizeStream(shared_stream));
    ASSERT_OK(aclrtDestroyStream(shared_stream));
    t_teardown();
}

/* ---- a binary's exception callback ----------------------------------------- */

static _Atomic int bin_calls;
static void *bin_user;
static aclrtFuncHandle bin_func;
static int bin_order; /* calls_a when the binary's callback ran */

static void cb_binary(aclrtExceptionInfo *info, void *user)
{
    bin_user = user;
    (void)aclrtGetFuncHandleFromExceptionInfo(info, &bin_func);
    bin_order = atomic_load(&calls_a);
    atomic_fetch_add(&bin_calls, 1);
}

/* A binary's callback is called when one of its kernels fails, with its
 * user data, after the process's callbacks. binHandle is checked first,
 * then callback (100000 each), then the handle (107017). */
TEST(errinfo, binary_callback_gets_its_user_data_after_the_process_callbacks)
{
    const char *path = ACLCPU_TEST_KERNELS;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle err_op = NULL, easy = NULL;
    aclrtStream s = NULL;
    int32_t *dev = NULL;
    int token = 5;

    ASSERT_EQ(access(path, R_OK), 0); /* built with the tests */
    t_setup();
    ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &bin));
    ASSERT_OK(aclrtBinaryGetFunction(bin, "ErrorOP", &err_op));
    ASSERT_OK(aclrtBinaryGetFunction(bin, "EasyOP", &easy));
    ASSERT_RC(aclrtBinarySetExceptionCallback(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'binHandle' is NULL");
    ASSERT_RC(aclrtBinarySetExceptionCallback(bin, NULL, &token), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'callback' is NULL");
    ASSERT_OK(aclrtBinarySetExceptionCallback(bin, cb_binary, &token));
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&dev, sizeof(*dev), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtLaunchKernel(easy, 1, &dev, sizeof(dev), s)); /* succeeds: no call */
    ASSERT_OK(aclrtLaunchKernel(err_op, 1, &dev, sizeof(dev), s));
    ASSERT(aclrtSynchronizeStream(s) != ACL_SUCCESS);
    ASSERT_EQ(atomic_load(&bin_calls), 1);
    ASSERT(bin_user == &token);
    ASSERT(bin_func == err_op);
    ASSERT_EQ(bin_order, 1); /* the process's callback ran first */
    ASSERT_EQ(seen_a[0].task, 1);
    /* A kernel the program registered (no binary) calls no binary callback. */
    launch_trap(s);
    ASSERT(aclrtSynchronizeStream(s) != ACL_SUCCESS);
    ASSERT_EQ(atomic_load(&bin_calls), 1);
    ASSERT_EQ(atomic_load(&calls_a), 2);
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    ASSERT_RC(aclrtBinarySetExceptionCallback(bin, cb_binary, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- what a CPU refuses --------------------------------------------------- */

/* On the SoCs with device fault reporting (A2, A3, 950): errorInfo NULL is
 * 100000, then a deviceId that is not a device 107001 (negative, and the
 * first past the count), then success with "no error": a CPU device has no
 * fault, and the fields the call answers are overwritten. */
TEST(errinfo, error_verbose_reports_no_fault_after_the_null_and_device_checks)
{
    aclrtErrorInfo info;
    uint32_t count = 0;
    memset(&info, 0x5a, sizeof(info));
    t_setup();
    ASSERT_OK(aclrtGetDeviceCount(&count));
    ASSERT_RC(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetErrorVerbose: argument 'errorInfo' is NULL");
    ASSERT_RC(aclrtGetErrorVerbose(-1, NULL), ACL_ERROR_INVALID_PARAM); /* NULL first */
    ASSERT_RC(aclrtGetErrorVerbose(-1, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetErrorVerbose((int32_t)count, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetErrorVerbose: argument 'deviceId'");
    ASSERT_OK(aclrtGetErrorVerbose((int32_t)count - 1, &info));
    ASSERT_EQ(info.errorType, ACL_RT_NO_ERROR);
    ASSERT_EQ(info.tryRepair, 0);
    ASSERT_EQ(info.hasDetail, 0);
    /* A success leaves the thread's last error as the calls before left it. */
    ASSERT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclrtGetErrorVerbose(0, &info));
    ASSERT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
    t_teardown();
}

/* Repair, on a SoC that reports faults: errorInfo NULL 100000, then
 * tryRepair 0 (107000) before the device id (107001, negative and the first
 * past the count), then the device set up (507033); then the fault type:
 * ACL_RT_NO_ERROR succeeds, a memory fault is 207000 (a CPU has none), any
 * other type 107000. */
TEST(errinfo, repair_error_checks_try_repair_then_device_then_fault_type)
{
    aclrtErrorInfo info;
    uint32_t count = 0;
    memset(&info, 0, sizeof(info));
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    t_setup();
    ASSERT_OK(aclrtGetDeviceCount(&count));
    ASSERT_EQ(count, 2);
    ASSERT_RC(aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRepairError(-1, &info), ACL_ERROR_RT_PARAM_INVALID); /* tryRepair 0 first */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRepairError: argument 'errorInfo->tryRepair' is 0");
    info.tryRepair = 1;
    ASSERT_RC(aclrtRepairError(-1, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtRepairError(2, &info), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtRepairError(1, &info), ACL_ERROR_RT_DEV_SETUP_ERROR); /* device 1 never set */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRepairError: device 1 is not set up");
    ASSERT_OK(aclrtRepairError(0, &info));
    info.errorType = ACL_RT_ERROR_MEMORY;
    ASSERT_RC(aclrtRepairError(0, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    info.errorType = ACL_RT_ERROR_LINK;
    ASSERT_RC(aclrtRepairError(0, &info), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'errorInfo->errorType' (4)");
    t_teardown();
}

/* On a SoC without the feature (the Atlas training series here) the query and
 * the repair are refused with 207000 after the NULL check, on any device id:
 * the feature check comes before the id's. */
TEST(errinfo, error_verbose_and_repair_are_not_supported_without_fault_reporting)
{
    aclrtErrorInfo info;
    memset(&info, 0, sizeof(info));
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_RC(aclrtGetErrorVerbose(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetErrorVerbose(0, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtGetErrorVerbose(999, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetErrorVerbose: SoC Ascend910A has no device fault reporting");
    ASSERT_RC(aclrtRepairError(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtRepairError(999, &info), ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* before tryRepair and the id */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtRepairError: SoC Ascend910A");
    t_teardown();
}

/* The ACL-graph caches: OpInfo checks infoPtr, then infoSize > 0 (100000),
 * then 207000; ExtendInfo checks nothing first. */
TEST(errinfo, cache_last_task_info_is_not_supported_after_its_checks)
{
    char buf[8] = {0};
    ASSERT_RC(aclrtCacheLastTaskOpInfo(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'infoPtr' is NULL");
    ASSERT_RC(aclrtCacheLastTaskOpInfo(buf, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'infoSize' (0) must be positive");
    ASSERT_RC(aclrtCacheLastTaskOpInfo(buf, 1), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCacheLastTaskExtendInfo(NULL, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtCacheLastTaskExtendInfo(buf, sizeof(buf)), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCacheLastTaskExtendInfo:");
}

/* ---- model runs ------------------------------------------------------------ */

/* A kernel that fails inside a model run fails the run's task on the
 * stream it was issued to: the callback is called once per run, for that
 * task, which is not a kernel, so it has no arguments or function (the
 * reference names the kernel inside the model: docs/differences.md). */
TEST(errinfo, model_run_failure_reports_the_run_task)
{
    aclmdlRI m = NULL;
    aclrtStream s = NULL, exec = NULL;
    int32_t exec_id = -1;
    t_setup();
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclrtStreamGetId(exec, &exec_id));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, s, ACL_MODEL_STREAM_FLAG_HEAD));
    launch_trap(s);
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_OK(aclmdlRIExecuteAsync(m, exec));
    ASSERT_RC(aclrtSynchronizeStream(exec), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(seen_a[0].stream, (uint32_t)exec_id);
    ASSERT_EQ(seen_a[0].task, 0);
    ASSERT_EQ(seen_a[0].thread, my_tid());
    ASSERT_EQ(seen_a[0].code, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ((uint32_t)seen_a[0].args_rc, 0xFFFFFFFFu);
    ASSERT_RC(seen_a[0].func_rc, ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(exec));
    t_teardown();
}

/* ---- sweep 4: the failing task's device, and more than 16 callbacks ------------------------------ */

/* The exception information names the device the failing task ran on:
 * device 1 when the stream is device 1's. */
TEST(errinfo, the_exception_information_names_the_failing_tasks_device)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtExceptionInfoCallbackRegister(cb_a));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&calls_a), 1);
    ASSERT_EQ(seen_a[0].device, 1);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDevice(1));
    ASSERT_OK(aclFinalize());
    unsetenv("ACLCPU_DEVICE_COUNT");
}

/* 20 distinct callbacks: more than the 16 the engine copies on its stack. */
static _Atomic int sw4_calls;
#define SW4_CB(n) static void sw4_cb_##n(aclrtExceptionInfo *info) { (void)info; atomic_fetch_add(&sw4_calls, 1); }
SW4_CB(0) SW4_CB(1) SW4_CB(2) SW4_CB(3) SW4_CB(4) SW4_CB(5) SW4_CB(6) SW4_CB(7) SW4_CB(8) SW4_CB(9)
SW4_CB(10) SW4_CB(11) SW4_CB(12) SW4_CB(13) SW4_CB(14) SW4_CB(15) SW4_CB(16) SW4_CB(17) SW4_CB(18) SW4_CB(19)

/* Every registered exception callback is called once per failure, the
 * 17th and later ones too. */
TEST(errinfo, every_one_of_20_registered_callbacks_is_called)
{
    static aclrtExceptionInfoCallback const cbs[20] = {
        sw4_cb_0,  sw4_cb_1,  sw4_cb_2,  sw4_cb_3,  sw4_cb_4,  sw4_cb_5,  sw4_cb_6,  sw4_cb_7,  sw4_cb_8,  sw4_cb_9,
        sw4_cb_10, sw4_cb_11, sw4_cb_12, sw4_cb_13, sw4_cb_14, sw4_cb_15, sw4_cb_16, sw4_cb_17, sw4_cb_18, sw4_cb_19};
    aclrtStream s = NULL;
    t_setup();
    for (int i = 0; i < 20; i++)
        ASSERT_OK(aclrtExceptionInfoCallbackRegister(cbs[i]));
    ASSERT_OK(aclrtCreateStream(&s));
    launch_trap(s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&sw4_calls), 20);
    for (int i = 0; i < 20; i++)
        ASSERT_OK(aclrtExceptionInfoCallbackUnregister(cbs[i]));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
