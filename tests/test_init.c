/*
 * test_init.c - aclInit/aclFinalize, run mode, SoC name, devices, contexts
 * (thread-local current context, one default stream per context) and
 * aclGetRecentErrMsg.
 *
 * Rules: spec/acl-api.md §4 (context requirement, default stream), §5
 * "Init / device", §6 last row; DESIGN "Configuration".
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

/* ---- aclInit / aclFinalize ---------------------------------------------- */

TEST(init, init_twice_returns_repeat_initialize)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_OK(aclFinalize());
}

TEST(init, finalize_twice_returns_repeat_finalize)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclFinalize());
    ASSERT_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

static _Atomic int reinit_ran;
static void k_reinit(void *args)
{
    (void)args;
    atomic_fetch_add(&reinit_ran, 1);
}

TEST(init, reinit_after_finalize_works)
{
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("init_reinit", k_reinit);

    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclFinalize());

    /* Example 2_multi_stream calls aclInit again after aclFinalize. */
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&reinit_ran), 2);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclFinalize());
    ASSERT_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

TEST(init, streams_do_not_need_acl_init)
{
    /* §4: there is no init check on the stream path. */
    aclrtStream s = NULL;
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDeviceForce(0));
}

/* ---- run mode, SoC name ---------------------------------------------------- */

TEST(init, get_run_mode)
{
    aclrtRunMode mode = ACL_DEVICE;
    ASSERT_RC(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtGetRunMode(&mode));
    ASSERT_EQ(mode, ACL_HOST);
    t_setup();
    mode = ACL_DEVICE;
    ASSERT_OK(aclrtGetRunMode(&mode));
    ASSERT_EQ(mode, ACL_HOST);
    t_teardown();
}

TEST(init, soc_name_default)
{
    const char *name;
    unsetenv("ACLCPU_SOC");
    name = aclrtGetSocName();
    ASSERT(name != NULL);
    ASSERT(strcmp(name, "Ascend910B1") == 0);
    t_setup();
    name = aclrtGetSocName();
    ASSERT(name != NULL);
    ASSERT(strcmp(name, "Ascend910B1") == 0);
    t_teardown();
}

TEST(init, soc_name_from_env)
{
    const char *name;
    uint32_t events = 0;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    name = aclrtGetSocName();
    ASSERT(name != NULL);
    ASSERT(strcmp(name, "Ascend310P3") == 0);
    /* The device really plays that profile: Atlas inference has 1023 events. */
    ASSERT_OK(aclrtGetEventAvailNum(&events));
    ASSERT_EQ(events, 1023);
    t_teardown();
}

/* ---- devices ----------------------------------------------------------------- */

static uint32_t expected_device_count(void)
{
    const char *env = getenv("ACLCPU_DEVICE_COUNT");
    long n = env != NULL ? atol(env) : 1;
    if (n < 1)
        n = 1;
    return (uint32_t)n;
}

TEST(init, device_count)
{
    uint32_t n = 0;
    ASSERT_RC(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, expected_device_count());
    ASSERT_RC(aclrtSetDevice((int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID);
}

/* Runs this same test in a fresh process of the test program whose
 * environment has ACLCPU_DEVICE_COUNT=3 from the start. */
TEST(init, device_count_from_env)
{
    if (getenv("ACLCPU_TEST_REEXEC") == NULL) {
        int status = 0;
        pid_t pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0) {
            char exe[4096];
            ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
            if (len <= 0)
                _exit(3);
            exe[len] = '\0';
            setenv("ACLCPU_TEST_REEXEC", "1", 1);
            setenv("ACLCPU_DEVICE_COUNT", "3", 1);
            if (freopen("/dev/null", "w", stdout) == NULL)
                _exit(4);
            execl(exe, exe, "init", "device_count_from_env", (char *)NULL);
            _exit(5);
        }
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT(WIFEXITED(status));
        ASSERT_EQ(WEXITSTATUS(status), 0);
        return;
    }
    {
        uint32_t n = 0;
        int32_t dev = -1;
        ASSERT_OK(aclrtGetDeviceCount(&n));
        ASSERT_EQ(n, 3);
        ASSERT_OK(aclInit(NULL));
        ASSERT_OK(aclrtSetDevice(2));
        ASSERT_OK(aclrtGetDevice(&dev));
        ASSERT_EQ(dev, 2);
        ASSERT_RC(aclrtSetDevice(3), ACL_ERROR_RT_INVALID_DEVICEID);
        ASSERT_OK(aclrtResetDeviceForce(2));
        ASSERT_OK(aclFinalize());
    }
}

/* DESIGN "Configuration": variables are read once at aclInit (or at first
 * use), so a program may set ACLCPU_DEVICE_COUNT before calling aclInit. */
TEST(init, device_count_env_set_before_init)
{
    uint32_t n = 0;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 2);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclFinalize());
}

TEST(init, set_device_bad_id)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtSetDevice(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtSetDevice(INT32_MAX), ACL_ERROR_RT_INVALID_DEVICEID);
    /* A failed SetDevice leaves the thread without a context. */
    {
        int32_t dev = -1;
        ASSERT_RC(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    }
    ASSERT_OK(aclFinalize());
}

TEST(init, get_device_without_context)
{
    int32_t dev = -1;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetDevice(&dev));
    ASSERT_EQ(dev, 0);
    t_teardown();
}

/* ---- contexts ---------------------------------------------------------------- */

TEST(init, create_context_becomes_current)
{
    aclrtContext primary = NULL, c = NULL, cur = NULL;
    aclrtStream dp = NULL, dc = NULL, cur_def = NULL;

    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT(primary != NULL);
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&dp));
    ASSERT(dp != NULL);
    ASSERT_RC(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCreateContext(&c, -1), ACL_ERROR_RT_INVALID_DEVICEID);

    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT(c != NULL && c != primary);
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == c);
    /* One default stream per context. */
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&dc));
    ASSERT(dc != NULL && dc != dp);

    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == primary);
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&cur_def));
    ASSERT(cur_def == dp);
    ASSERT_OK(aclrtSetCurrentContext(c));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&cur_def));
    ASSERT(cur_def == dc);
    ASSERT_OK(aclrtDestroyContext(c));
    t_teardown();
}

TEST(init, null_stream_is_current_contexts_default_stream)
{
    static _Atomic int gate;
    aclrtContext primary = NULL, c = NULL;
    aclrtStream dp = NULL, dc = NULL;
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    int32_t id_null = -1, id_dc = -2;

    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&dp));
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&dc));
    ASSERT_OK(aclrtStreamGetId(NULL, &id_null));
    ASSERT_OK(aclrtStreamGetId(dc, &id_dc));
    ASSERT_EQ(id_null, id_dc);

    /* A kernel launched on NULL in context c sits on c's default stream. */
    t_launch_flag_gate(&gate, NULL);
    ASSERT_OK(aclrtStreamQuery(dc, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_NOT_READY);
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtStreamQuery(NULL, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtStreamQuery(dp, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    atomic_store(&gate, 1);
    ASSERT_OK(aclrtSetCurrentContext(c));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_OK(aclrtStreamQuery(dc, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtDestroyContext(c));
    t_teardown();
}

TEST(init, default_stream_cannot_be_destroyed)
{
    aclrtStream d = NULL;
    t_setup();
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&d));
    ASSERT_RC(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT(aclrtDestroyStream(d) != ACL_SUCCESS);
    ASSERT(aclrtDestroyStreamForce(d) != ACL_SUCCESS);
    /* Still usable. */
    ASSERT_OK(aclrtSynchronizeStream(d));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    t_teardown();
}

TEST(init, destroy_context)
{
    aclrtContext primary = NULL, c = NULL, cur = NULL;
    aclrtStream s = NULL;
    aclrtStreamStatus st;

    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyContext(c));
    /* c was current: the thread has no context any more. */
    ASSERT_RC(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    /* A destroyed context is no context: setting it is an invalid value,
     * destroying it again finds no context (api_error.cc ContextSetCurrent,
     * api_impl.cc ContextDestroy). */
    ASSERT_RC(aclrtSetCurrentContext(c), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDestroyContext(c), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclrtSetCurrentContext(primary));
    /* The streams it owned went with it. */
    ASSERT_RC(aclrtStreamQuery(s, &st), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

TEST(init, set_current_context_garbage)
{
    aclrtContext cur = NULL;
    t_setup();
    ASSERT_RC(aclrtSetCurrentContext((aclrtContext)(uintptr_t)0x1234), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    /* A stream handle is not a context. */
    {
        aclrtStream s = NULL;
        ASSERT_OK(aclrtCreateStream(&s));
        ASSERT_RC(aclrtSetCurrentContext((aclrtContext)s), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtDestroyContext((aclrtContext)s), ACL_ERROR_RT_CONTEXT_NULL);
        ASSERT_OK(aclrtDestroyStream(s));
    }
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur != NULL);
    t_teardown();
}

/* A new thread has no current context; setting one there does not change
 * the creating thread's. */
struct thread_ctx_result {
    aclrtContext main_ctx;
    aclError get_ctx, create_stream, sync_null, query_null, create_event, get_device;
    aclError set_ctx, create_after, destroy_after, create_ctx;
    aclrtContext thread_ctx;
};

static void *thread_ctx_main(void *arg)
{
    struct thread_ctx_result *r = arg;
    aclrtContext cur = NULL;
    aclrtStream s = NULL;
    aclrtStreamStatus st;
    aclrtEvent e = NULL;
    int32_t dev;

    r->get_ctx = aclrtGetCurrentContext(&cur);
    r->create_stream = aclrtCreateStream(&s);
    r->sync_null = aclrtSynchronizeStream(NULL);
    r->query_null = aclrtStreamQuery(NULL, &st);
    r->create_event = aclrtCreateEvent(&e);
    r->get_device = aclrtGetDevice(&dev);
    r->set_ctx = aclrtSetCurrentContext(r->main_ctx);
    r->create_after = aclrtCreateStream(&s);
    r->destroy_after = r->create_after == ACL_SUCCESS ? aclrtDestroyStream(s) : -1;
    r->create_ctx = aclrtCreateContext(&r->thread_ctx, 0);
    return NULL;
}

TEST(init, current_context_is_thread_local)
{
    struct thread_ctx_result r;
    pthread_t th;
    aclrtContext cur = NULL;

    memset(&r, 0, sizeof(r));
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&r.main_ctx));
    ASSERT_EQ(pthread_create(&th, NULL, thread_ctx_main, &r), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(r.get_ctx, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.create_stream, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.sync_null, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.query_null, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.create_event, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.get_device, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(r.set_ctx);
    ASSERT_OK(r.create_after);
    ASSERT_OK(r.destroy_after);
    ASSERT_OK(r.create_ctx);
    /* The thread's aclrtCreateContext made its context current there only. */
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == r.main_ctx);
    ASSERT(r.thread_ctx != r.main_ctx);
    ASSERT_OK(aclrtDestroyContext(r.thread_ctx));
    t_teardown();
}

/* Several threads sharing one context share its default stream. */
static aclrtContext shared_ctx;
static aclrtStream shared_default_seen;

static void *thread_default_stream(void *arg)
{
    (void)arg;
    if (aclrtSetCurrentContext(shared_ctx) == ACL_SUCCESS)
        (void)aclrtCtxGetCurrentDefaultStream(&shared_default_seen);
    return NULL;
}

TEST(init, threads_sharing_a_context_share_its_default_stream)
{
    pthread_t th;
    aclrtStream mine = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&shared_ctx));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&mine));
    ASSERT_EQ(pthread_create(&th, NULL, thread_default_stream, NULL), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT(shared_default_seen != NULL);
    ASSERT(shared_default_seen == mine);
    t_teardown();
}

/* ---- aclGetRecentErrMsg ------------------------------------------------------- */

/* Messages not yet read pile up newest first, one a line; a failure's
 * message starts with its code's name and number, a note (a getter handed
 * no information: no failure code) with its own text. */
TEST(init, recent_messages_pile_up_newest_first_one_a_line_failures_with_their_code)
{
    static const char note[] = "aclrtGetTaskIdFromExceptionInfo: argument 'info' is NULL";
    static const char failure[] = "[ACL_ERROR_INVALID_PARAM 100000] aclrtCreateStream: argument";
    const char *msg;
    t_setup();
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtGetTaskIdFromExceptionInfo(NULL), 0xFFFFFFFFu);
    msg = aclGetRecentErrMsg();
    ASSERT(msg != NULL);
    ASSERT(strncmp(msg, note, strlen(note)) == 0);
    msg = strchr(msg, '\n');
    ASSERT(msg != NULL);
    ASSERT(strncmp(msg + 1, failure, strlen(failure)) == 0);
    ASSERT(strchr(msg + 1, '\n') == NULL);
    t_teardown();
}

TEST(init, recent_error_message)
{
    const char *msg;
    aclrtStream s = NULL;

    t_setup();
    (void)aclGetRecentErrMsg(); /* drop anything set-up left */
    ASSERT(aclGetRecentErrMsg() == NULL);

    ASSERT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    msg = aclGetRecentErrMsg();
    ASSERT(msg != NULL);
    ASSERT_STR_CONTAINS(msg, "aclrtCreateStream");
    /* Read once: cleared. */
    ASSERT(aclGetRecentErrMsg() == NULL);

    ASSERT_RC(aclrtSynchronizeStream((aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    msg = aclGetRecentErrMsg();
    ASSERT(msg != NULL);
    ASSERT_STR_CONTAINS(msg, "aclrtSynchronizeStream");
    ASSERT(aclGetRecentErrMsg() == NULL);

    /* Success leaves nothing behind. */
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT(aclGetRecentErrMsg() == NULL);
    t_teardown();
}

/* ACLCPU_DEVICE_COUNT at its bound: 16 devices are 16, 17 are clamped to
 * 16, and the last device (15) opens while 16 does not. */
TEST(init, device_count_clamped_at_sixteen)
{
    uint32_t n = 0;
    setenv("ACLCPU_DEVICE_COUNT", "17", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 16);
    ASSERT_OK(aclrtSetDevice(15));
    ASSERT_OK(aclrtResetDeviceForce(15));
    ASSERT_RC(aclrtSetDevice(16), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclFinalize());
    setenv("ACLCPU_DEVICE_COUNT", "16", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 16);
    ASSERT_OK(aclFinalize());
}

/* A size read from the environment: K is 1024 bytes (2048K = 2 MiB of
 * device memory), as M is 1024 K and G 1024 M. */
TEST(init, device_memory_size_in_k)
{
    size_t free_b = 0, total = 0;
    setenv("ACLCPU_DEVICE_MEMORY", "2048K", 1);
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    ASSERT_EQ(total, 2u << 20);
    t_teardown();
}

/* A number with trailing text is not taken: ACLCPU_DEVICE_COUNT=3x leaves
 * the default, one device. */
TEST(init, config_value_with_trailing_text_ignored)
{
    uint32_t n = 0;
    setenv("ACLCPU_DEVICE_COUNT", "3x", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 1);
    ASSERT_OK(aclFinalize());
}

/* Numbers in the environment are decimal: a leading 0 is no octal prefix
 * (ACLCPU_DEVICE_COUNT=010 is ten devices, not eight) and 0x is trailing
 * text, not hexadecimal (0x10 leaves the default, one device). */
TEST(init, config_numbers_are_decimal)
{
    uint32_t n = 0;
    setenv("ACLCPU_DEVICE_COUNT", "010", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 10);
    ASSERT_OK(aclFinalize());
    setenv("ACLCPU_DEVICE_COUNT", "0x10", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 1);
    ASSERT_OK(aclFinalize());
}

/* ---- the audit of this family against the reference (docs/conformance.md) ---- */

/* The reason left by the last failure, which must name fn ("fn:") and the
 * argument or rule; clears older messages first. */
#define ASSERT_RC_NAMING(call, code, fn, what)                                                                 \
    do {                                                                                                       \
        const char *m_;                                                                                        \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        m_ = aclGetRecentErrMsg();                                                                             \
        ASSERT_STR_CONTAINS(m_, fn ":");                                                                       \
        ASSERT_STR_CONTAINS(m_, what);                                                                         \
    } while (0)

/* acl.cpp aclFinalizeImpl: only "finalized since the last aclInit" is
 * checked, so the first aclFinalize of a process that never called aclInit
 * finalizes and succeeds; the next one is 100037. */
TEST(init, finalize_without_init_finalizes_once_then_repeat_finalize)
{
    ASSERT_OK(aclFinalize());
    ASSERT_RC_NAMING(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize", "already finalised");
    ASSERT_OK(aclInit(NULL)); /* a finalize does not stop the next aclInit */
    ASSERT_OK(aclFinalize());
}

/* acl.cpp aclFinalizeReferenceImpl: a reference count below one is 100037,
 * never initialised or finalised since; *refCount is written (0) either way. */
TEST(init, finalize_reference_at_count_zero_is_repeat_finalize)
{
    uint64_t refs = 99;
    ASSERT_RC_NAMING(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE, "aclFinalizeReference",
                     "reference count is 0");
    ASSERT_EQ(refs, 0);
    ASSERT_RC(aclFinalizeReference(NULL), ACL_ERROR_REPEAT_FINALIZE);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclFinalizeReference(NULL)); /* NULL is allowed: the count is only reported */
    refs = 99;
    ASSERT_RC(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE);
    ASSERT_EQ(refs, 0);
    ASSERT_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
}

/* acl_rt_impl_base.cpp GetStrFromConfigPath: a configPath that cannot be
 * opened is 100003 and initialises nothing; NULL and "" mean no file. */
TEST(init, init_refuses_a_config_file_it_cannot_open)
{
    ASSERT_RC_NAMING(aclInit("/nonexistent/aclcpu/acl.json"), ACL_ERROR_INVALID_FILE, "aclInit", "configPath");
    /* Nothing was initialised: a finalize finds no init to undo but runs once. */
    ASSERT_OK(aclInit(""));
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_OK(aclFinalize());
}

/* runtime.cc Runtime::PrimaryContextRelease: a device whose default context
 * is not held (never set, or reset since) gives RT_ERROR_CONTEXT_DEL, 507007
 * (errcode_manage.cc), for the plain and the force reset; the device id is
 * checked first (107001). */
TEST(init, reset_of_a_device_not_set_is_context_release_error)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC_NAMING(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDevice", "not been set");
    ASSERT_RC_NAMING(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "aclrtResetDeviceForce",
                     "not been set");
    ASSERT_RC_NAMING(aclrtResetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice", "deviceId");
    ASSERT_RC(aclrtResetDeviceForce(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR); /* already reset */
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_RC(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_OK(aclFinalize());
}

/* Runtime::PrimaryContextRelease counts aclrtSetDevice calls: each reset
 * takes one back and only the last one destroys the default context; a
 * force reset takes them all. */
TEST(init, reset_takes_back_one_set_and_the_last_destroys_the_context)
{
    aclrtContext primary = NULL, cur = NULL;
    aclrtStream s = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtGetCurrentContext(&cur)); /* two of three taken back: still there */
    ASSERT(cur == primary);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_RC(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_OK(aclFinalize());
}

/* A device opened only by aclrtCreateContext has no default context to
 * release: the reset is 507007 and the user's context lives on. */
TEST(init, reset_of_a_device_with_only_created_contexts_releases_nothing)
{
    aclrtContext c = NULL, cur = NULL;
    aclrtStream s = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_RC(aclrtResetDeviceForce(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == c);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyContext(c));
    ASSERT_OK(aclFinalize());
}

/* api_impl.cc ApiImpl::ContextDestroy: NULL is 100000 (context.cpp); a
 * handle that is no live context (destroyed, garbage, another kind) and a
 * device's default context are RT_ERROR_CONTEXT_NULL, 107002; the default
 * context stays usable. */
TEST(init, destroy_context_checks_null_then_liveness_then_default_context)
{
    aclrtContext primary = NULL, cur = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_RC_NAMING(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext", "'context'");
    ASSERT_RC_NAMING(aclrtDestroyContext(primary), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyContext", "default");
    ASSERT_RC_NAMING(aclrtDestroyContext((aclrtContext)(uintptr_t)0x1234), ACL_ERROR_RT_CONTEXT_NULL,
                     "aclrtDestroyContext", "'context'");
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == primary);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* api_error.cc ApiErrorDecorator::ContextSetCurrent: NULL is 100000
 * (context.cpp), a handle that is no live context 107000 (the check's
 * RT_ERROR_INVALID_VALUE); the current context stays as it was. */
TEST(init, set_current_context_checks_null_then_liveness)
{
    aclrtContext primary = NULL, c = NULL, cur = NULL;
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_OK(aclrtDestroyContext(c));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_RC_NAMING(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext", "'context'");
    ASSERT_RC_NAMING(aclrtSetCurrentContext(c), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext", "not a live");
    ASSERT_OK(aclrtGetCurrentContext(&cur));
    ASSERT(cur == primary);
    t_teardown();
}

/* context.cpp aclrtCreateContextImpl checks 'context' first (100000), then
 * api_impl.cc ApiImpl::ContextCreate the id: the last device is accepted,
 * the count refused (107001). */
TEST(init, create_context_checks_null_then_device_id)
{
    aclrtContext c = NULL;
    uint32_t n = 0;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_RC_NAMING(aclrtCreateContext(NULL, -1), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext", "'context'");
    ASSERT_RC_NAMING(aclrtCreateContext(&c, (int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtCreateContext",
                     "deviceId");
    ASSERT(c == NULL);
    ASSERT_OK(aclrtCreateContext(&c, (int32_t)n - 1));
    ASSERT_OK(aclrtDestroyContext(c));
    ASSERT_OK(aclFinalize());
}

/* device.cpp aclrtSetDeviceImpl -> api_error.cc ApiErrorDecorator::SetDevice:
 * ids outside [0, count) are 107001; the last one opens. */
TEST(init, set_device_accepts_the_last_id_and_refuses_the_count)
{
    uint32_t n = 0;
    int32_t dev = -1;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_RC_NAMING(aclrtSetDevice((int32_t)n), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice", "deviceId");
    ASSERT_OK(aclrtSetDevice((int32_t)n - 1));
    ASSERT_OK(aclrtGetDevice(&dev));
    ASSERT_EQ(dev, (int32_t)n - 1);
    ASSERT_OK(aclrtResetDevice((int32_t)n - 1));
    ASSERT_OK(aclFinalize());
}

/* The getters check their pointer (100000) before the context (107002):
 * device.cpp aclrtGetDeviceImpl, context.cpp aclrtGetCurrentContextImpl,
 * aclrtCtxGetCurrentDefaultStreamImpl; the outputs are left alone on error. */
TEST(init, getters_check_null_before_the_context)
{
    int32_t dev = 77;
    aclrtContext ctx = (aclrtContext)(uintptr_t)0x77;
    aclrtStream s = (aclrtStream)(uintptr_t)0x77;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC_NAMING(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice", "'deviceId'");
    ASSERT_RC_NAMING(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext", "'context'");
    ASSERT_RC_NAMING(aclrtCtxGetCurrentDefaultStream(NULL), ACL_ERROR_INVALID_PARAM,
                     "aclrtCtxGetCurrentDefaultStream", "'stream'");
    ASSERT_RC_NAMING(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice", "no current context");
    ASSERT_RC_NAMING(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext",
                     "no current context");
    ASSERT_RC_NAMING(aclrtCtxGetCurrentDefaultStream(&s), ACL_ERROR_RT_CONTEXT_NULL,
                     "aclrtCtxGetCurrentDefaultStream", "no current context");
    ASSERT_EQ(dev, 77);
    ASSERT(ctx == (aclrtContext)(uintptr_t)0x77);
    ASSERT(s == (aclrtStream)(uintptr_t)0x77);
    ASSERT_OK(aclFinalize());
}

/* api_impl.cc ApiImpl::DeviceGetStreamPriorityRange: either pointer may be
 * NULL; least priority 7 (base_info.hpp), greatest 0; no context needed. */
TEST(init, stream_priority_range_takes_null_pointers)
{
    int32_t least = -5, greatest = -5;
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(NULL, NULL));
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(&least, NULL));
    ASSERT_EQ(least, 7);
    ASSERT_OK(aclrtDeviceGetStreamPriorityRange(NULL, &greatest));
    ASSERT_EQ(greatest, 0);
}

/* memory.cpp aclrtDeviceGetBareTgidImpl: NULL is 100000; the value is the
 * process id; no context needed. */
TEST(init, bare_tgid_checks_null_and_is_the_process_id)
{
    int32_t pid = -1;
    ASSERT_RC_NAMING(aclrtDeviceGetBareTgid(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDeviceGetBareTgid", "'pid'");
    ASSERT_OK(aclrtDeviceGetBareTgid(&pid));
    ASSERT_EQ(pid, (int32_t)getpid());
}

/* device.cpp aclrtSynchronizeDeviceWithTimeoutImpl (below -1) and
 * api_error.cc ApiErrorDecorator::DeviceSynchronize (0): 107000, before the
 * context (api_impl.cc ApiImpl::DeviceSynchronize: 107002); -1 and 1 are
 * accepted. */
TEST(init, synchronize_device_checks_timeout_then_context)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC_NAMING(aclrtSynchronizeDeviceWithTimeout(-2), ACL_ERROR_RT_PARAM_INVALID,
                     "aclrtSynchronizeDeviceWithTimeout", "'timeout'");
    ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC_NAMING(aclrtSynchronizeDeviceWithTimeout(-1), ACL_ERROR_RT_CONTEXT_NULL,
                     "aclrtSynchronizeDeviceWithTimeout", "no current context");
    ASSERT_RC_NAMING(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice",
                     "no current context");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(-1));
    ASSERT_OK(aclrtSynchronizeDeviceWithTimeout(1));
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
}

/* api_impl.cc ApiImpl::SetOpWaitTimeOut: every value is taken; on the SoCs
 * whose setting is the process's (A2 here) no context is needed, on Atlas
 * inference (310P, "need TS version") the current context's device is asked
 * (107002 without one). */
TEST(init, set_op_wait_timeout_needs_a_context_only_on_310p)
{
    ASSERT_OK(aclrtSetOpWaitTimeout(0));
    ASSERT_OK(aclrtSetOpWaitTimeout(UINT32_MAX));
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    ASSERT_RC_NAMING(aclrtSetOpWaitTimeout(5), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetOpWaitTimeout",
                     "no current context");
    t_setup();
    ASSERT_OK(aclrtSetOpWaitTimeout(5));
    t_teardown();
}

/* acl.cpp aclGetRecentErrMsgImpl: NULL when there is nothing; the messages
 * are the calling thread's: another thread's failure is not reported here. */
static void *fail_in_thread(void *arg)
{
    (void)arg;
    (void)aclrtGetRunMode(NULL);
    return NULL;
}

TEST(init, recent_error_message_is_the_calling_threads)
{
    pthread_t th;
    (void)aclGetRecentErrMsg();
    ASSERT(aclGetRecentErrMsg() == NULL);
    ASSERT_EQ(pthread_create(&th, NULL, fail_in_thread, NULL), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT(aclGetRecentErrMsg() == NULL);
    ASSERT_RC(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetDeviceCount: argument 'count'");
}

/* Writes text (len bytes) to a fresh file under $TMPDIR and returns its path
 * (static storage: one file at a time). */
static const char *config_file(const char *text, size_t len)
{
    static char path[T_PATH_CAP];
    int fd = t_tmpfile(path, sizeof(path), "aclcpu-init");
    ASSERT_EQ(write(fd, text, len), (long long)len);
    ASSERT_EQ(close(fd), 0);
    return path;
}

static aclError init_with_text(const char *text)
{
    const char *path = config_file(text, strlen(text));
    aclError rc = aclInit(path);
    unlink(path);
    return rc;
}

/* json_parser.cpp JsonParser::ParseJsonFromFile (from acl.cpp
 * HandleErrorManagerConfig): a configuration that is not one JSON value is
 * ACL_ERROR_PARSE_FILE (100006) and initialises nothing; a directory is not
 * a regular file (100003, IsValidFileName); JSON of any shape is taken. */
TEST(init, init_config_must_be_json)
{
    static const char *const bad[] = {
        "{", "  \n", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "tru", "\"\\x\"", "01", "1.", "{}x", "[1,]",
        "{\"a\":1 \"b\":2}", "\"tab\there\"", "{1:2}", "-", "[\"\\u12\"]", "nul", "{\"a\":[}]}",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        (void)aclGetRecentErrMsg();
        if (init_with_text(bad[i]) != ACL_ERROR_PARSE_FILE)
            test_fail(__FILE__, __LINE__, "aclInit took the configuration '%s'", bad[i]);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclInit: argument 'configPath'");
    }
    ASSERT_RC(aclInit("/tmp"), ACL_ERROR_INVALID_FILE);
    ASSERT_OK(init_with_text(" {\"dump\": {\"list\": [1, -2.5e+3, 0.5, true, false, null, \"a\\n\\u00e9\"]},"
                             " \"x\": {}, \"y\": [] }\n"));
    ASSERT_OK(aclFinalize());
}

/* A \u escape is four hex digits: one that is not (or a quote among
 * the four) makes the file no JSON (100006); upper and lower case digits
 * are both taken. */
TEST(init, init_config_unicode_escape_needs_four_hex_digits)
{
    static const char *const bad[] = {"\"\\uzzzz\"", "[\"\\u00G0\"]", "\"\\u12\"\"", "{\"\\u 123\": 1}"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (init_with_text(bad[i]) != ACL_ERROR_PARSE_FILE)
            test_fail(__FILE__, __LINE__, "aclInit took the configuration '%s'", bad[i]);
    ASSERT_OK(init_with_text("[\"\\uABcd\\u09fF\"]"));
    ASSERT_OK(aclFinalize());
}

/* json_parser.cpp GetConfigStrFromFile: at most 10 nested objects and 10
 * nested arrays, counted byte by byte (braces inside strings count too):
 * 10 is taken, 11 refused with 100006. */
TEST(init, init_config_nests_at_most_ten_deep)
{
    char text[64];
    memset(text, 0, sizeof(text));
    memset(text, '[', 11);
    memset(text + 11, ']', 11);
    ASSERT_RC(init_with_text(text), ACL_ERROR_PARSE_FILE);
    memset(text, 0, sizeof(text));
    strcpy(text, "{\"a\":\"{{{{{{{{{{{\"}"); /* valid JSON, but 12 braces deep by the count */
    ASSERT_RC(init_with_text(text), ACL_ERROR_PARSE_FILE);
    memset(text, 0, sizeof(text));
    memset(text, '[', 10);
    memset(text + 10, ']', 10);
    ASSERT_OK(init_with_text(text));
    ASSERT_OK(aclFinalize());
}

/* The object half of the nesting rule: 10 nested objects are taken
 * (the array half's 10 is in init_config_nests_at_most_ten_deep; one
 * aclInit with a configuration per process, so a test of its own). */
TEST(init, init_config_takes_ten_nested_objects)
{
    char text[128] = "";
    for (int i = 0; i < 9; i++)
        strcat(text, "{\"a\":");
    strcat(text, "{}");
    for (int i = 0; i < 9; i++)
        strcat(text, "}");
    ASSERT_OK(init_with_text(text));
    ASSERT_OK(aclFinalize());
}

/* JSON's whitespace is space, tab, line feed and carriage return, and an
 * exponent is written with e or E: a configuration using each is valid. */
TEST(init, init_config_takes_every_json_whitespace_and_a_capital_exponent)
{
    ASSERT_OK(init_with_text("\t[1E5,\r\n2e-3,\t3E+2]\r\n"));
    ASSERT_OK(aclFinalize());
}

/* The nesting count reads the text byte by byte, strings included, and a
 * close bracket never takes it below zero: two stray closes in a string
 * do not pay for an eleventh open bracket later. */
TEST(init, init_config_nesting_count_never_goes_below_zero)
{
    ASSERT_RC(init_with_text("[\"]]\",[[[[[[[[[[[]]]]]]]]]]]]"), ACL_ERROR_PARSE_FILE);
    ASSERT_OK(init_with_text("[\"]]\",[[[[[[[[[[]]]]]]]]]]]"));
    ASSERT_OK(aclFinalize());
}

/* JSON's escapes include the solidus: a string with "\/" (as some
 * writers escape paths) is a valid configuration (one aclInit with a
 * configuration per process, so a test of its own). */
TEST(init, init_config_takes_an_escaped_slash)
{
    ASSERT_OK(init_with_text("{\"note\": \"a\\/b\"}"));
    ASSERT_OK(aclFinalize());
}

/* acl.cpp aclInitImpl: the configuration text of the first aclInit that
 * succeeded is remembered (NULL or "" is an empty text); a later aclInit
 * after aclFinalize with other text is 100000, with the same text it is
 * taken. An empty file is no configuration. */
TEST(init, init_after_finalize_needs_the_first_configuration)
{
    const char *path = config_file("{\"a\": 1}", 8);
    ASSERT_OK(aclInit(path));
    ASSERT_OK(aclFinalize());
    ASSERT_RC_NAMING(aclInit(NULL), ACL_ERROR_INVALID_PARAM, "aclInit", "differs");
    ASSERT_RC(aclInit(""), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclInit(path));
    ASSERT_OK(aclFinalize());
    unlink(path);
    ASSERT_RC(init_with_text("{\"a\": 2}"), ACL_ERROR_INVALID_PARAM);
}

/* Writes a file of size NUL bytes (sparse) and returns its path. */
static const char *nul_file(off_t size)
{
    static char path[T_PATH_CAP];
    int fd = t_tmpfile(path, sizeof(path), "aclcpu-init");
    ASSERT(fd >= 0);
    ASSERT_EQ(ftruncate(fd, size), 0);
    ASSERT_EQ(close(fd), 0);
    return path;
}

/* A configuration file may have exactly 10 MiB (json_parser.cpp's
 * MAX_CONFIG_FILE_BYTE): that one is read (its text, ending at the first
 * NUL, is empty: no configuration); one byte more is 100003. */
TEST(init, init_reads_a_config_file_of_exactly_10_mib)
{
    const char *path = nul_file((off_t)10 << 20);
    ASSERT_OK(aclInit(path));
    ASSERT_OK(aclFinalize());
    unlink(path);
    path = nul_file(((off_t)10 << 20) + 1);
    ASSERT_RC_NAMING(aclInit(path), ACL_ERROR_INVALID_FILE, "aclInit", "at most 10485760");
    unlink(path);
}

TEST(init, init_with_an_empty_config_file_is_init_without_one)
{
    const char *path = config_file("", 0);
    ASSERT_OK(aclInit(path));
    ASSERT_OK(aclFinalize());
    unlink(path);
    ASSERT_OK(aclInit(NULL)); /* the same (empty) configuration text */
    ASSERT_OK(aclFinalize());
    ASSERT_OK(aclInit(""));
    ASSERT_OK(aclFinalize());
}

/* memory.cpp aclrtDeviceEnablePeerAccessImpl / DisablePeerAccessImpl: the
 * reserved flags first (200006), then the current device (rtGetDevice:
 * 107002 without a context), then the peer: equal to the current device
 * 100000, not a device 107001. */
TEST(init, peer_access_checks_flags_then_context_then_peer)
{
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC_NAMING(aclrtDeviceEnablePeerAccess(0, 1), ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtDeviceEnablePeerAccess",
                     "'flags'");
    ASSERT_RC_NAMING(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceEnablePeerAccess",
                     "no current context");
    ASSERT_RC_NAMING(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceDisablePeerAccess",
                     "no current context");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_RC(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC_NAMING(aclrtDeviceEnablePeerAccess(-1, 0), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceEnablePeerAccess",
                     "'peerDeviceId'");
    ASSERT_RC(aclrtDeviceDisablePeerAccess(1000), ACL_ERROR_RT_INVALID_DEVICEID);
    t_teardown();
}

/* context.cc Context::Synchronize: a stream of the context that is being
 * captured refuses the device sync (RT_ERROR_STREAM_CAPTURED, 107027)
 * before anything is waited for, every time; the capture stays ACTIVE and
 * ends normally. */
TEST(init, synchronize_device_refused_while_a_stream_captures)
{
    aclrtStream s = NULL;
    aclmdlRI m = NULL;
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < 2; i++) {
        ASSERT_RC_NAMING(aclrtSynchronizeDevice(), ACL_ERROR_RT_STREAM_CAPTURED, "aclrtSynchronizeDevice",
                         "being captured");
        ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(100), ACL_ERROR_RT_STREAM_CAPTURED);
        ASSERT_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
        ASSERT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    }
    ASSERT_OK(aclmdlRICaptureEnd(s, &m));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void k_device_sync_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* context.cc Context::Synchronize -> CheckStatus: in CONTINUE mode a
 * failed task is reported by the device sync once; once a STOP-mode
 * failure has stopped the context, every device sync returns its code. */
TEST(init, synchronize_device_reports_a_stop_failure_every_time)
{
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("init_device_sync_trap", k_device_sync_trap);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    for (int i = 0; i < 2; i++) {
        ASSERT_RC_NAMING(aclrtSynchronizeDevice(), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, "aclrtSynchronizeDevice",
                         "STOP");
        ASSERT_RC(aclrtSynchronizeDeviceWithTimeout(100), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    }
    t_teardown();
}

/* memory.cpp aclrtDeviceCanAccessPeerImpl: equal ids 100000; the peer's
 * physical id (107001 when it is no device); then api_error.cc
 * ApiErrorDecorator::DeviceCanAccessPeer: 'deviceId' of 64 or more (a
 * negative one taken unsigned) 107000, NULL 'canAccessPeer' 107000; then
 * the driver's check of 'deviceId' (107001). No context is needed. */
TEST(init, can_access_peer_checks_in_the_references_order)
{
    int32_t can = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_RC_NAMING(aclrtDeviceCanAccessPeer(NULL, 5, 5), ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer",
                     "cannot be equal");
    ASSERT_RC_NAMING(aclrtDeviceCanAccessPeer(NULL, -1, 2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtDeviceCanAccessPeer",
                     "'peerDeviceId'");
    ASSERT_RC_NAMING(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceCanAccessPeer",
                     "'deviceId'");
    ASSERT_RC(aclrtDeviceCanAccessPeer(&can, 64, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC_NAMING(aclrtDeviceCanAccessPeer(NULL, 63, 0), ACL_ERROR_RT_PARAM_INVALID, "aclrtDeviceCanAccessPeer",
                     "'canAccessPeer'");
    ASSERT_RC(aclrtDeviceCanAccessPeer(&can, 63, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDeviceCanAccessPeer(&can, 2, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_EQ(can, -1);
    ASSERT_OK(aclrtDeviceCanAccessPeer(&can, 1, 0));
    ASSERT_EQ(can, 1);
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

static _Atomic int sweep_fini_ran;
static aclError sweep_count_fini(void *user)
{
    (void)user;
    atomic_fetch_add(&sweep_fini_ran, 1);
    return ACL_SUCCESS;
}

/* aclFinalizeReference at a count of two only counts down: the finalize
 * callbacks run at the last reference, not before (acl.cpp
 * aclFinalizeReferenceImpl). */
TEST(init, finalize_reference_at_two_only_counts_down)
{
    uint64_t refs = 99;
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE); /* a second reference */
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, sweep_count_fini, NULL));
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 1);
    ASSERT_EQ(atomic_load(&sweep_fini_ran), 0);
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 0);
    ASSERT_EQ(atomic_load(&sweep_fini_ran), 1);
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* A forced reset takes back every set: the device's count starts again
 * from zero, so after it one set is taken back by one reset, which
 * destroys the new default context. */
TEST(init, after_a_forced_reset_one_set_is_taken_back_by_one_reset)
{
    aclrtContext cur = NULL;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_RC(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);
    ASSERT_OK(aclFinalize());
}

/* ACLCPU_DEVICE_COUNT of 0 is taken as 1: there is always a device. */
TEST(init, a_device_count_of_zero_gives_one_device)
{
    uint32_t n = 0;
    setenv("ACLCPU_DEVICE_COUNT", "0", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDeviceCount(&n));
    ASSERT_EQ(n, 1);
    ASSERT_RC(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_OK(aclFinalize());
    unsetenv("ACLCPU_DEVICE_COUNT");
}

/* A literal may be the last bytes of the configuration: "null" alone is a
 * whole document (one configuration a process: the others are alike), a
 * literal cut short is not. */
TEST(init, init_config_literal_may_end_the_text)
{
    ASSERT_RC(init_with_text("tru"), ACL_ERROR_PARSE_FILE);
    ASSERT_RC(init_with_text("nul"), ACL_ERROR_PARSE_FILE);
    ASSERT_OK(init_with_text("null"));
    ASSERT_OK(aclFinalize());
}

/* ---- sweep 5 (2026-12-05): config values at their edges ---- */

/* A size variable that is only a unit letter ("K") holds no number: it
 * leaves the profile's device memory size, not zero bytes (the letter must
 * not be read as a scale of an empty number). */
TEST(init, a_size_that_is_only_a_unit_letter_leaves_the_default)
{
    size_t free_b = 0, total = 0, dflt = 0;
    unsetenv("ACLCPU_DEVICE_MEMORY");
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &dflt));
    t_teardown();
    ASSERT(dflt > 0);
    setenv("ACLCPU_DEVICE_MEMORY", "K", 1);
    t_setup();
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    ASSERT_EQ(total, dflt);
    t_teardown();
}

/* A \u escape takes exactly four hex digits: three and then the closing
 * quote ("\u123") is no JSON (100006), even though the string closes
 * right after them; the fourth digit is the one a short count would miss. */
TEST(init, init_config_unicode_escape_of_three_hex_digits_is_refused)
{
    ASSERT_RC(init_with_text("\"\\u123\""), ACL_ERROR_PARSE_FILE);
    ASSERT_RC(init_with_text("[\"\\u123\"]"), ACL_ERROR_PARSE_FILE);
    ASSERT_OK(init_with_text("\"\\u1234\""));
    ASSERT_OK(aclFinalize());
}

/* An object's member starts with a quote: a key missing its opening quote
 * (the first member's, or one after a comma) is no JSON (100006), even
 * when the rest of it would read as a string. */
TEST(init, init_config_member_key_needs_its_opening_quote)
{
    ASSERT_RC(init_with_text("{a\":1}"), ACL_ERROR_PARSE_FILE);
    ASSERT_RC(init_with_text("{\"a\":1,b\":2}"), ACL_ERROR_PARSE_FILE);
    ASSERT_OK(init_with_text("{\"a\":1,\"b\":2}"));
    ASSERT_OK(aclFinalize());
}

/* A container closes with its own bracket: "[1}" and "{\"a\":1]" are not
 * JSON, though their brackets balance by count. */
TEST(init, init_config_closer_must_match_its_opener)
{
    ASSERT_RC(init_with_text("[1}"), ACL_ERROR_PARSE_FILE);
    ASSERT_RC(init_with_text("{\"a\":1]"), ACL_ERROR_PARSE_FILE);
    ASSERT_RC(init_with_text("[{\"a\":[1}]}"), ACL_ERROR_PARSE_FILE);
    ASSERT_OK(init_with_text("[{\"a\":[1]}]"));
    ASSERT_OK(aclFinalize());
}
