/*
 * helpers.c - small helpers the test suites share.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define T_HAVE_VALGRIND_H 1
#endif
#endif

int t_under_valgrind(void)
{
#ifdef T_HAVE_VALGRIND_H
    return RUNNING_ON_VALGRIND != 0;
#else
    return 0; /* built without its header: valgrind runs need it installed (make test-valgrind does) */
#endif
}

const char *t_tmp_base(void)
{
    const char *base = getenv("TMPDIR");
    return base != NULL && base[0] != '\0' ? base : "/tmp";
}

void t_tmpdir(char *dir, size_t cap, const char *stem)
{
    int n = snprintf(dir, cap, "%s/%s-XXXXXX", t_tmp_base(), stem);
    if (n < 0 || (size_t)n >= cap)
        test_fail(__FILE__, __LINE__, "t_tmpdir: %s/%s-XXXXXX does not fit %zu bytes", t_tmp_base(), stem, cap);
    if (mkdtemp(dir) == NULL)
        test_fail(__FILE__, __LINE__, "t_tmpdir: mkdtemp(%s) failed", dir);
}

int t_tmpfile(char *path, size_t cap, const char *stem)
{
    int fd, n = snprintf(path, cap, "%s/%s-XXXXXX", t_tmp_base(), stem);
    if (n < 0 || (size_t)n >= cap)
        test_fail(__FILE__, __LINE__, "t_tmpfile: %s/%s-XXXXXX does not fit %zu bytes", t_tmp_base(), stem, cap);
    if ((fd = mkstemp(path)) < 0)
        test_fail(__FILE__, __LINE__, "t_tmpfile: mkstemp(%s) failed", path);
    return fd;
}

void t_setup(void)
{
    aclError rc = aclInit(NULL);
    if (rc != ACL_SUCCESS && rc != ACL_ERROR_REPEAT_INITIALIZE)
        test_fail(__FILE__, __LINE__, "aclInit returned %d", rc);
    rc = aclrtSetDevice(0);
    if (rc != ACL_SUCCESS)
        test_fail(__FILE__, __LINE__, "aclrtSetDevice(0) returned %d", rc);
}

void t_teardown(void)
{
    aclrtResetDeviceForce(0);
    aclFinalize();
}

uint64_t t_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

aclrtFuncHandle t_kernel(const char *name, aclcpuKernelFn fn)
{
    aclrtFuncHandle h = NULL;
    aclError rc = aclcpuRegisterKernel(name, fn, &h);
    if (rc != ACL_SUCCESS)
        test_fail(__FILE__, __LINE__, "aclcpuRegisterKernel(%s) returned %d", name, rc);
    return h;
}

void t_busy_ns(uint64_t ns)
{
    uint64_t end = t_now_ns() + ns;
    while (t_now_ns() < end)
        ;
}

void t_idle_ns(uint64_t ns)
{
    uint64_t end = t_now_ns() + ns;
    while (t_now_ns() < end)
        sched_yield();
}

int t_wait_flag(_Atomic int *f, int want)
{
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (atomic_load(f) != want) {
        if (t_now_ns() > end)
            return 0;
        sched_yield();
    }
    return 1;
}

int t_wait_at_least(_Atomic int *f, int want)
{
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    while (atomic_load(f) < want) {
        if (t_now_ns() > end)
            return 0;
        sched_yield();
    }
    return 1;
}

void t_k_gate(void *args)
{
    struct t_gate *g = *(struct t_gate **)args;
    atomic_fetch_add(&g->started, 1);
    if (!t_wait_flag(&g->open, 1))
        atomic_store(&g->timed_out, 1);
    atomic_fetch_add(&g->finished, 1);
}

void t_launch_gate(struct t_gate *g, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("t_gate", t_k_gate), 1, &g, sizeof(g), s));
}

void t_k_flag_gate(void *args)
{
    _Atomic int *open = *(_Atomic int **)args;
    (void)t_wait_flag(open, 1);
}

void t_launch_flag_gate(_Atomic int *open, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("t_flag_gate", t_k_flag_gate), 1, &open, sizeof(open), s));
}

void t_meet(_Atomic int flag[2], _Atomic int saw[2], int me)
{
    atomic_store(&flag[me], 1);
    if (t_wait_flag(&flag[1 - me], 1))
        atomic_store(&saw[me], 1);
}

_Atomic int t_log_n;
_Atomic int t_log_stored;
_Atomic int t_log_v[T_LOG_CAP];

void t_log_put(int v)
{
    int at = atomic_fetch_add(&t_log_n, 1);
    if (at < T_LOG_CAP)
        atomic_store(&t_log_v[at], v);
    atomic_fetch_add(&t_log_stored, 1);
}

void t_k_log(void *args) { t_log_put(*(const int *)args); }

void t_launch_log(int v, aclrtStream s)
{
    ASSERT_OK(aclrtLaunchKernel(t_kernel("t_log", t_k_log), 1, &v, sizeof(v), s));
}

void t_gated_pair_open(struct t_gated_pair *p)
{
    memset(p, 0, sizeof(*p));
    ASSERT_OK(aclrtCreateStream(&p->s1));
    ASSERT_OK(aclrtCreateStream(&p->s2));
    ASSERT_OK(aclrtCreateEvent(&p->e));
    t_launch_gate(&p->g, p->s1);
    ASSERT_OK(aclrtRecordEvent(p->e, p->s1));
}

void t_gated_pair_close(struct t_gated_pair *p)
{
    ASSERT_OK(aclrtDestroyEvent(p->e));
    ASSERT_OK(aclrtDestroyStream(p->s1));
    if (p->s2 != NULL)
        ASSERT_OK(aclrtDestroyStream(p->s2));
}

static int log_pipe[2] = {-1, -1};

void t_capture_log(const char *level)
{
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1);
    fflush(stdout);
    ASSERT_EQ(pipe(log_pipe), 0);
    ASSERT_EQ(fcntl(log_pipe[0], F_SETFL, O_NONBLOCK), 0);
    ASSERT(dup2(log_pipe[1], STDOUT_FILENO) >= 0);
}

int t_log_shows(const char *needle)
{
    static char seen[16384];
    static size_t len;
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    fflush(stdout);
    while (t_now_ns() < end) {
        ssize_t n = read(log_pipe[0], seen + len, sizeof(seen) - 1 - len);
        if (n > 0) {
            len += (size_t)n;
            seen[len] = '\0';
        }
        if (strstr(seen, needle) != NULL)
            return 1;
        usleep(1000);
    }
    return 0;
}

struct stop_call {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc, done;
};

static void t_k_noop(void *args) { (void)args; }

static void *stop_thread(void *p)
{
    struct stop_call *c = p;
    aclError rc = aclrtSetCurrentContext(c->ctx);
    atomic_store(&c->rc, rc == ACL_SUCCESS ? aclrtStreamStop(c->s) : rc);
    atomic_store(&c->done, 1);
    return NULL;
}

aclError t_stop_releasing(aclrtStream s, _Atomic int *open)
{
    static struct stop_call c;
    pthread_t th;
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    memset(&c, 0, sizeof(c));
    c.s = s;
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    ASSERT_EQ(pthread_create(&th, NULL, stop_thread, &c), 0);
    /* The stop has taken effect once the stream refuses work (507000); the
     * call itself still waits for the running task. (A query cannot say:
     * a DEVICE_USE_ONLY stream answers COMPLETE, stopped or not.) The
     * empty kernels accepted before are kept, and never run. */
    while (aclrtLaunchKernel(t_kernel("t_noop", t_k_noop), 1, NULL, 0, s) != ACL_ERROR_RT_INTERNAL_ERROR &&
           t_now_ns() < end)
        sched_yield();
    ASSERT_EQ(atomic_load(&c.done), 0);
    atomic_store(open, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    return atomic_load(&c.rc);
}

void t_k_add(void *args)
{
    int64_t *const *p = args;
    int64_t by = ((const int64_t *)args)[1];
    atomic_fetch_add((_Atomic int64_t *)p[0], by);
}

aclrtFuncHandle t_add_kernel(void) { return t_kernel("t_add", t_k_add); }

void t_launch_add(int64_t *x, int64_t by, aclrtStream s)
{
    struct {
        int64_t *x;
        int64_t by;
    } a = {x, by};
    ASSERT_OK(aclrtLaunchKernel(t_add_kernel(), 1, &a, sizeof(a), s));
}

int64_t *t_dev_i64(int n)
{
    void *p = NULL;
    ASSERT_OK(aclrtMalloc(&p, (size_t)n * sizeof(int64_t), ACL_MEM_MALLOC_HUGE_FIRST));
    memset(p, 0, (size_t)n * sizeof(int64_t));
    return p;
}
