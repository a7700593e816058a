/*
 * faultinj.c - aclcpu-faultinj: every allocation and every thread creation
 * of the library fails once, in a sweep.
 *
 *   aclcpu-faultinj [--from N] [--to N] [--verbose]
 *
 * Linked against the library's objects with -Wl,--wrap for malloc, calloc,
 * realloc, aligned_alloc, strdup and pthread_create (the library allocates
 * only through src/common/mem.h and makes threads only through
 * plat_thread_create, so these are all of its doors). Step N of the sweep
 * runs, in a forked child, a workload that touches every object type
 * (devices, streams, events, notifies, memory, kernels and argument
 * handles, callbacks and host functions, captured and built models and
 * their runs, profiling), with the Nth wrapped call failing. The oracle:
 * no crash or hang (a 60 s alarm), every code the workload gets is success
 * or one errors.def lists, after a device reset and aclFinalize the same
 * workload runs again with every call succeeding (the library is usable),
 * and LeakSanitizer (in ASan builds) finds nothing at the end. The sweep
 * ends at the first N the workload does not reach. Exit status 1 when a
 * step failed.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* ---- the injector ---- */

static _Atomic long armed_calls = -1; /* counts wrapped calls while armed; -1: off */
static long fail_at;
static _Atomic int injected;

/* True when this wrapped call is the one to fail. */
static int should_fail(void)
{
    long n;
    if (atomic_load(&armed_calls) < 0)
        return 0;
    n = atomic_fetch_add(&armed_calls, 1) + 1;
    if (n != fail_at)
        return 0;
    atomic_store(&injected, 1);
    return 1;
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
char *__real_strdup(const char *s);
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
char *__wrap_strdup(const char *s);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);

void *__wrap_malloc(size_t n) { return should_fail() ? (errno = ENOMEM, NULL) : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return should_fail() ? (errno = ENOMEM, NULL) : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return should_fail() ? (errno = ENOMEM, NULL) : __real_realloc(p, n); }
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return should_fail() ? (errno = ENOMEM, NULL) : __real_aligned_alloc(align, n);
}
char *__wrap_strdup(const char *s) { return should_fail() ? (errno = ENOMEM, NULL) : __real_strdup(s); }
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    return should_fail() ? EAGAIN : __real_pthread_create(t, a, fn, arg);
}

/* ---- the oracle for codes ---- */

static int strict;         /* the second pass: everything must succeed */
static int bad, errors_seen;
static const char *bad_call;
static aclError bad_rc;

static int documented(aclError rc)
{
#define ACLCPU_ERROR(name, value, meaning) \
    if (rc == (value))                     \
        return 1;
#include "errors.def"
#undef ACLCPU_ERROR
    return 0;
}

static aclError check(const char *call, aclError rc)
{
    if (rc != ACL_SUCCESS)
        errors_seen++;
    if ((strict && rc != ACL_SUCCESS) || !documented(rc)) {
        if (!bad)
            bad_call = call, bad_rc = rc;
        bad = 1;
    }
    return rc;
}
#define CHECK(call) check(#call, (call))

/* ---- the workload ---- */

static _Atomic int ran;
static void kern(void *args)
{
    (void)args;
    atomic_fetch_add(&ran, 1);
}
static void host_fn(void *args)
{
    (void)args;
    atomic_fetch_add(&ran, 1);
}

struct reporter {
    _Atomic int stop;
};

static void *report_main(void *arg)
{
    struct reporter *r = arg;
    while (!atomic_load(&r->stop))
        (void)aclrtProcessReport(5);
    return NULL;
}

static void workload(void)
{
    aclrtStream s = NULL, s2 = NULL;
    aclrtEvent e = NULL, ex = NULL; /* ex: a capture records Ex events */
    aclrtNotify n = NULL;
    aclrtFuncHandle k = NULL;
    aclrtArgsHandle args = NULL;
    aclrtParamHandle param = NULL;
    aclmdlRI m = NULL, built = NULL;
    aclrtContext ctx = NULL;
    void *dev = NULL, *host = NULL;
    int64_t x = 7;
    struct reporter rep = {0};
    pthread_t th;
    int reporting = 0;

    if (CHECK(aclInit(NULL)) != ACL_SUCCESS && !strict)
        return;
    if (CHECK(aclrtSetDevice(0)) != ACL_SUCCESS)
        goto out;
    CHECK(aclrtCreateContext(&ctx, 0));
    CHECK(aclrtSetDevice(0));
    CHECK(aclcpuRegisterKernel("fi_kern", kern, &k));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtCreateStreamWithConfig(&s2, 1, 0));
    CHECK(aclrtCreateEvent(&e));
    CHECK(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC));
    CHECK(aclrtCreateNotify(&n, 0));
    CHECK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMallocHost(&host, 4096));
    if (s != NULL && s2 != NULL && e != NULL && k != NULL) {
        CHECK(aclrtLaunchKernel(k, 4, &x, sizeof(x), s));
        CHECK(aclrtRecordEvent(e, s));
        CHECK(aclrtStreamWaitEvent(s2, e));
        CHECK(aclrtLaunchHostFunc(s2, host_fn, NULL));
        if (dev != NULL && host != NULL) {
            CHECK(aclrtMemcpyAsync(dev, 4096, host, 4096, ACL_MEMCPY_HOST_TO_DEVICE, s2));
            CHECK(aclrtMemsetAsync(dev, 4096, 1, 64, s2));
        }
        if (n != NULL) {
            CHECK(aclrtRecordNotify(n, s));
            CHECK(aclrtWaitAndResetNotify(n, s2, 1)); /* seconds */
        }
        CHECK(aclrtKernelArgsInit(k, &args));
        if (args != NULL) {
            CHECK(aclrtKernelArgsAppend(args, &x, sizeof(x), &param));
            CHECK(aclrtKernelArgsFinalize(args));
            CHECK(aclrtLaunchKernelWithConfig(k, 2, s, NULL, args, NULL));
        }
        reporting = pthread_create(&th, NULL, report_main, &rep) == 0;
        if (reporting && CHECK(aclrtSubscribeReport((uint64_t)th, s2)) == ACL_SUCCESS) {
            CHECK(aclrtLaunchCallback(host_fn, NULL, ACL_CALLBACK_BLOCK, s2));
            CHECK(aclrtSynchronizeStream(s2));
            CHECK(aclrtUnSubscribeReport((uint64_t)th, s2));
        }
        /* A captured model, run twice; a built one with its stream. */
        if (CHECK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED)) == ACL_SUCCESS) {
            CHECK(aclrtLaunchKernel(k, 2, &x, sizeof(x), s));
            if (ex != NULL)
                CHECK(aclrtRecordEvent(ex, s));
            CHECK(aclmdlRICaptureEnd(s, &m));
        }
        if (m != NULL) {
            CHECK(aclmdlRIExecuteAsync(m, s2));
            CHECK(aclmdlRIExecuteAsync(m, s2));
            CHECK(aclrtSynchronizeStream(s2));
            CHECK(aclmdlRIDestroy(m));
        }
        if (CHECK(aclmdlRIBuildBegin(&built, 0)) == ACL_SUCCESS) {
            aclrtStream bs = NULL;
            if (CHECK(aclrtCreateStreamWithConfig(&bs, 0, ACL_STREAM_PERSISTENT)) == ACL_SUCCESS) {
                CHECK(aclmdlRIBindStream(built, bs, 0));
                CHECK(aclrtLaunchKernel(k, 1, &x, sizeof(x), bs));
                CHECK(aclmdlRIEndTask(built, bs));
                if (CHECK(aclmdlRIBuildEnd(built, NULL)) == ACL_SUCCESS)
                    CHECK(aclmdlRIExecute(built, 5000));
                CHECK(aclmdlRIUnbindStream(built, bs));
                CHECK(aclrtDestroyStream(bs));
            }
            CHECK(aclmdlRIDestroy(built));
        }
        CHECK(aclrtSynchronizeDevice());
    }
    if (reporting) {
        atomic_store(&rep.stop, 1);
        pthread_join(th, NULL);
    }
    if (args != NULL)
        (void)args; /* argument handles go with their kernel's context */
    if (host != NULL)
        CHECK(aclrtFreeHost(host));
    if (dev != NULL)
        CHECK(aclrtFree(dev));
    if (n != NULL)
        CHECK(aclrtDestroyNotify(n));
    if (e != NULL)
        CHECK(aclrtDestroyEvent(e));
    if (ex != NULL)
        CHECK(aclrtDestroyEvent(ex));
    if (s2 != NULL)
        CHECK(aclrtDestroyStream(s2));
    if (s != NULL)
        CHECK(aclrtDestroyStream(s));
    if (ctx != NULL)
        CHECK(aclrtDestroyContext(ctx));
out:
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
}

/* One step: fail the Nth call, then check the library still works.
 * Exit codes: 0 passed, 1 failed, 3 the workload made fewer than N calls. */
static int step(long n, int verbose)
{
    int reached;
    alarm(60);
    fail_at = n;
    atomic_store(&armed_calls, 0);
    workload();
    atomic_store(&armed_calls, -1);
    reached = atomic_load(&injected);
    if (bad) {
        fprintf(stderr, "aclcpu-faultinj: step %ld: %s returned %d (not in errors.def)\n", n, bad_call, bad_rc);
        return 1;
    }
    /* Whatever the failure left behind goes with a forced reset (the
     * workload may have finalized already: these may fail). */
    aclrtResetDeviceForce(0);
    aclFinalize();
    errors_seen = 0;
    strict = 1;
    workload();
    if (bad) {
        fprintf(stderr, "aclcpu-faultinj: step %ld: after the failure, %s returned %d (%s)\n", n, bad_call, bad_rc,
                aclGetRecentErrMsg());
        return 1;
    }
    if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check() != 0) {
        fprintf(stderr, "aclcpu-faultinj: step %ld: leaks (above)\n", n);
        return 1;
    }
    if (verbose)
        fprintf(stderr, "step %ld: %s\n", n, reached ? "injected" : "not reached");
    return reached ? 0 : 3;
}

int main(int argc, char **argv)
{
    long from = 1, to = 100000, failed = 0, n;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--from") && i + 1 < argc) from = atol(argv[++i]);
        else if (!strcmp(argv[i], "--to") && i + 1 < argc) to = atol(argv[++i]);
        else if (!strcmp(argv[i], "--verbose")) verbose = 1;
        else {
            fprintf(stderr, "usage: aclcpu-faultinj [--from N] [--to N] [--verbose]\n");
            return 2;
        }
    }
    setenv("ACLCPU_WORKERS", "2", 0);
    for (n = from; n <= to; n++) {
        int status = 0;
        pid_t pid;
        fflush(NULL);
        pid = fork();
        if (pid == 0)
            _exit(step(n, verbose));
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
            break;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            failed++;
            if (WIFSIGNALED(status))
                fprintf(stderr, "aclcpu-faultinj: step %ld: killed by signal %d%s\n", n, WTERMSIG(status),
                        WTERMSIG(status) == SIGALRM ? " (a hang: 60 s)" : "");
            fprintf(stderr, "  rerun: aclcpu-faultinj --from %ld --to %ld --verbose\n", n, n);
        }
    }
    printf("aclcpu-faultinj: %ld allocations and thread creations failed one at a time: %ld failed steps\n",
           n - from, failed);
    return failed ? 1 : 0;
}
