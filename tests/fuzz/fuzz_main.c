/*
 * fuzz_main.c - aclcpu-fuzz: random API call sequences, checked by an oracle.
 *
 *   aclcpu-fuzz [--seed S] [--seeds N] [--calls C] [--timeout SEC]
 *               [--stop-after I] [--trace] [--one-thread] [--skip S1,S2,...]
 *
 * Runs N sequences, seeds S .. S+N-1, each in its own forked child: the
 * main thread makes C calls drawn from the table (fuzz_calls.c) with
 * arguments from the pools (fuzz_pool.c), while a second thread makes C/2
 * calls of its own; then the child tears everything down, finalizes and
 * asks LeakSanitizer (in ASan builds) for leaks. The oracle: no crash, no
 * sanitizer report (the sanitizers abort), every return code one that
 * errors.def lists, no hang (the watchdog: --timeout seconds a sequence),
 * no leak. A failure prints the seed, the last calls of each thread (kept
 * in memory shared with the parent, so a hang shows them too) and the
 * command that reruns it: --seed S --seeds 1 --stop-after I --trace makes
 * the same draws and prints every call up to I.
 *
 * --skip leaves out seeds that reproduce an open finding (docs/reliability.md
 * lists them), so a bounded run stays a regression check meanwhile.
 *
 * What the sequences write (profiles) goes to $TMPDIR/aclcpu-fuzz-XXXXXX
 * (TMPDIR unset: /tmp), the children's TMPDIR: emptied after each sequence
 * and removed at exit.
 *
 * Exit status: 0 when every sequence passed, 1 otherwise.
 */
#include <errno.h>
#include <execinfo.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* Sizes near 2^40 and SIZE_MAX reach the allocator: under ASan its answer
 * must be NULL (the library's ENOMEM path), not an abort. */
const char *__asan_default_options(void);
__attribute__((visibility("default"))) const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

enum { RING = 24, LINE = 256 };

/* What the parent can read of a child, dead or alive. */
struct shared {
    _Atomic uint64_t calls[2];
    char ring[2][RING][LINE];
    char verdict[LINE];
};

static struct shared *sh;
static struct {
    uint64_t seed, seeds, calls, stop_after;
    int timeout_s, trace, one_thread;
    const char *skip;
} opt = {1, 1, 5000, 0, 120, 0, 0, ""};

/* True when seed is in the --skip list. */
static int skipped(uint64_t seed)
{
    for (const char *p = opt.skip; *p != '\0';) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p)
            return 0;
        if (v == seed)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

static const char *code_name(aclError rc)
{
#define ACLCPU_ERROR(name, value, meaning) \
    if (rc == (value))                     \
        return #name;
#include "errors.def"
#undef ACLCPU_ERROR
    return NULL;
}

static aclError check(struct fz *f, aclError rc, int tx)
{
    const char *name = tx && rc == (aclError)-1 ? "-1 (msproftx)" : code_name(rc);
    snprintf(f->line + f->len, LINE - f->len, ") = %d", (int)rc);
    if (opt.trace)
        fprintf(stderr, "%s %s\n", f->line, name ? name : "");
    if (name == NULL) {
        snprintf(sh->verdict, LINE, "undocumented return code %d (not in errors.def)", (int)rc);
        fprintf(stderr, "aclcpu-fuzz: %s: %s\n", sh->verdict, f->line);
        abort();
    }
    return rc;
}

aclError fz_check(struct fz *f, aclError rc) { return check(f, rc, 0); }

aclError fz_check_tx(struct fz *f, aclError rc) { return check(f, rc, 1); }

static int pick_call(struct fz *f, int total)
{
    for (;;) {
        int w = (int)fz_below(f, (uint32_t)total), i = 0;
        while (w >= fz_calls[i].weight)
            w -= fz_calls[i++].weight;
        if (f->tid == 0 || !(fz_calls[i].flags & FZ_MAIN))
            return i;
    }
}

static void run_calls(struct fz *f, uint64_t n)
{
    int total = 0;
    for (int i = 0; i < fz_ncalls; i++)
        total += fz_calls[i].weight;
    for (f->call = 0; f->call < n; f->call++) {
        int i = pick_call(f, total);
        f->line = sh->ring[f->tid][f->call % RING];
        fz_begin(f, fz_calls[i].name);
        fz_calls[i].run(f);
        atomic_store_explicit(&sh->calls[f->tid], f->call + 1, memory_order_relaxed);
    }
}

struct second {
    aclrtContext ctx;
    struct fz f;
};

static void *second_thread(void *p)
{
    struct second *t = p;
    aclrtSetCurrentContext(t->ctx);
    run_calls(&t->f, opt.stop_after ? 0 : opt.calls / 2);
    return NULL;
}

/* The start of a sequence: a device with a few of everything, a second
 * device's context (the foreign one), and blocks for async copies. */
static aclrtContext setup(void)
{
    aclrtContext ctx = NULL, other = NULL;
    aclrtStream s;
    aclrtEvent e;
    void *p;
    char prof_path[4096];
    const char *tmp = getenv("TMPDIR");
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
        return NULL;
    /* An aclprofStart before any aclprofInit initialises by itself, under
     * ACL_PROF_PATH or else the working directory: keep it in the run's
     * folder (main), with the directory ProfInit names. */
    snprintf(prof_path, sizeof(prof_path), "%s/aclcpu-fuzz-prof-%d", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp",
             (int)getpid());
    aclprofSetConfig(ACL_PROF_PATH, prof_path, strlen(prof_path));
    if (aclrtCreateContext(&other, 1) == ACL_SUCCESS) {
        fz_keep(FZ_CONTEXT, other, 0);
        if (aclrtCreateStream(&s) == ACL_SUCCESS)
            fz_keep(FZ_STREAM, s, 0);
        if (aclrtCreateEvent(&e) == ACL_SUCCESS)
            fz_keep(FZ_EVENT, e, 0);
    }
    aclrtSetDevice(0);
    aclrtGetCurrentContext(&ctx);
    fz_keep(FZ_CONTEXT, ctx, 0);
    for (int i = 0; i < 4; i++)
        if (aclrtMalloc(&p, 65536, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
            fz_stable_add(p, 65536);
    for (int i = 0; i < 3; i++) {
        if (aclrtCreateStream(&s) == ACL_SUCCESS)
            fz_keep(FZ_STREAM, s, 0);
        if (aclrtCreateEvent(&e) == ACL_SUCCESS)
            fz_keep(FZ_EVENT, e, 0);
    }
    fz_register_kernels();
    return ctx;
}

/* What the caller owns and the API does not free by itself: destroyed
 * through the API; the rest goes with the device resets. */
static void teardown(void)
{
    void *h[256];
    int n;
    aclrtSetDevice(0);
    aclprofFinalize();
    n = fz_take_live(FZ_STREAMCFG, h, 256);
    while (n > 0)
        aclrtDestroyStreamConfigHandle(h[--n]);
    n = fz_take_live(FZ_PROFCFG, h, 256);
    while (n > 0)
        aclprofDestroyConfig(h[--n]);
    n = fz_take_live(FZ_STAMP, h, 256);
    while (n > 0)
        aclprofDestroyStamp(h[--n]);
    aclrtResetDeviceForce(0);
    aclrtResetDeviceForce(1);
    n = fz_take_live(FZ_HOSTMEM, h, 256);
    while (n > 0)
        aclrtFreeHost(h[--n]);
    n = fz_take_live(FZ_BINHANDLE, h, 256);
    while (n > 0)
        aclrtBinaryUnLoad(h[--n]);
    n = fz_take_live(FZ_BINARY, h, 256);
    while (n > 0)
        aclrtDestroyBinary(h[--n]);
    aclFinalize();
}

/* A crash in the sequence prints the crashing thread's stack before the
 * signal ends the child, so "killed by signal 11" comes with where (the
 * library's fault hook passes faults outside device memory on to us).
 * Addresses in libaclcpu are offsets: `addr2line -f -e libaclcpu.so ADDR`. */
static void on_crash(int sig)
{
    void *frames[64];
    static const char head[] = "aclcpu-fuzz: the sequence crashed; its stack:\n";
    int n = backtrace(frames, 64);
    (void)!write(STDERR_FILENO, head, sizeof(head) - 1);
    backtrace_symbols_fd(frames, n, STDERR_FILENO);
    signal(sig, SIG_DFL); /* the fault repeats on return and ends the child */
}

static void print_stack_on_crash(void)
{
    void *warm[1];
    (void)backtrace(warm, 1); /* loads the unwinder now, not in the handler */
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGABRT, on_crash); /* the C library's heap checks abort */
}

static int child(uint64_t seed)
{
    struct second t = {.f = {.rng = seed * 0x9E3779B97F4A7C15ull ^ 0xA5A5A5A5ull, .tid = 1}};
    struct fz f = {.rng = seed * 0x9E3779B97F4A7C15ull + 1, .tid = 0};
    pthread_t th;
    int threaded;

    print_stack_on_crash();
    fz_host_buf = aligned_alloc(64, FZ_HOST_BYTES);
    memset(fz_host_buf, 0, FZ_HOST_BYTES);
    t.ctx = setup();
    if (t.ctx == NULL) {
        snprintf(sh->verdict, LINE, "the setup failed: %s", aclGetRecentErrMsg());
        return 1;
    }
    threaded = !opt.one_thread && pthread_create(&th, NULL, second_thread, &t) == 0;
    run_calls(&f, opt.stop_after ? opt.stop_after : opt.calls);
    if (threaded)
        pthread_join(th, NULL);
    teardown();
    free(fz_host_buf);
    if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check() != 0) {
        snprintf(sh->verdict, LINE, "LeakSanitizer found leaks (above)");
        return 1;
    }
    return 0;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void print_rings(void)
{
    for (int t = 0; t < 2; t++) {
        uint64_t n = atomic_load(&sh->calls[t]);
        fprintf(stderr, "  thread %d made %llu calls; the last ones (the first may still be in flight):\n", t,
                (unsigned long long)n);
        for (uint64_t i = n + 1 > RING ? n + 1 - RING : 0; i <= n; i++)
            if (sh->ring[t][i % RING][0] != '\0')
                fprintf(stderr, "    %s\n", sh->ring[t][i % RING]);
    }
}

/* Every thread's stack of a hung child, where gdb is installed. */
static void print_stacks(pid_t pid)
{
    char cmd[160];
    snprintf(cmd, sizeof(cmd),
             "command -v gdb >/dev/null && gdb -p %d -batch -nx -ex 'thread apply all bt 30' 2>/dev/null "
             "| grep -E '^(Thread|#)' >&2",
             (int)pid);
    fflush(NULL);
    (void)!system(cmd);
}

/* Runs one sequence under the watchdog. Returns 1 if it passed. */
static int run_sequence(uint64_t seed)
{
    uint64_t deadline = now_ms() + (uint64_t)opt.timeout_s * 1000;
    int status = 0;
    pid_t pid;

    memset(sh, 0, sizeof(*sh));
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        if (!opt.trace) /* aclmdlRIDebugPrint and the library's log write to stdout */
            (void)!freopen("/dev/null", "w", stdout);
        _exit(child(seed));
    }
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            snprintf(sh->verdict, LINE, "hang: the sequence ran past %d s", opt.timeout_s);
            print_stacks(pid);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            status = -1;
            break;
        }
        usleep(5000);
    }
    if (status == 0)
        return 1;
    if (sh->verdict[0] == '\0') {
        if (WIFSIGNALED(status))
            snprintf(sh->verdict, LINE, "killed by signal %d", WTERMSIG(status));
        else
            snprintf(sh->verdict, LINE, "exit status %d (a sanitizer report is above)", WEXITSTATUS(status));
    }
    fprintf(stderr, "aclcpu-fuzz: seed %llu FAILED: %s\n", (unsigned long long)seed, sh->verdict);
    print_rings();
    fprintf(stderr, "  rerun: aclcpu-fuzz --seed %llu --seeds 1 --calls %llu --stop-after %llu --trace\n",
            (unsigned long long)seed, (unsigned long long)opt.calls,
            (unsigned long long)atomic_load(&sh->calls[0]) + 1);
    return 0;
}

static uint64_t arg_u64(char **argv, int *i, int argc)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "aclcpu-fuzz: %s needs a value\n", argv[*i]);
        exit(2);
    }
    return strtoull(argv[++*i], NULL, 0);
}

/* The run's temporary folder (main), the children's TMPDIR; "" if none could be made. */
static char run_tmp[4096];

/* Removes everything under the folder but the folder itself (level 0). */
static int remove_below(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type;
    if (ftw->level > 0)
        (void)remove(path);
    return 0;
}

static int remove_all(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    (void)remove(path);
    return 0;
}

static void remove_run_tmp(void)
{
    if (run_tmp[0] != '\0')
        (void)nftw(run_tmp, remove_all, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes the run's folder and gives it to the children as TMPDIR: what a
 * sequence leaves there, crash or not, goes when the sequence ends. */
static void make_run_tmp(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(run_tmp, sizeof(run_tmp), "%s/aclcpu-fuzz-XXXXXX", base != NULL && base[0] != '\0' ? base : "/tmp");
    if (mkdtemp(run_tmp) == NULL || setenv("TMPDIR", run_tmp, 1) != 0) {
        fprintf(stderr, "aclcpu-fuzz: no temporary folder %s (%s); profiles go under TMPDIR and stay\n", run_tmp,
                strerror(errno));
        run_tmp[0] = '\0';
        return;
    }
    atexit(remove_run_tmp);
}

int main(int argc, char **argv)
{
    uint64_t failed = 0, start = now_ms(), total_calls = 0, nskipped = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed")) opt.seed = arg_u64(argv, &i, argc);
        else if (!strcmp(argv[i], "--seeds")) opt.seeds = arg_u64(argv, &i, argc);
        else if (!strcmp(argv[i], "--calls")) opt.calls = arg_u64(argv, &i, argc);
        else if (!strcmp(argv[i], "--stop-after")) opt.stop_after = arg_u64(argv, &i, argc);
        else if (!strcmp(argv[i], "--timeout")) opt.timeout_s = (int)arg_u64(argv, &i, argc);
        else if (!strcmp(argv[i], "--trace")) opt.trace = 1;
        else if (!strcmp(argv[i], "--one-thread")) opt.one_thread = 1;
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) opt.skip = argv[++i];
        else {
            fprintf(stderr, "usage: aclcpu-fuzz [--seed S] [--seeds N] [--calls C] [--timeout SEC] "
                            "[--stop-after I] [--trace] [--one-thread] [--skip S1,S2,...]\n");
            return 2;
        }
    }
    /* Two devices (the second is the foreign one), a small memory so that
     * big allocations fail fast, and syncs that give up on stuck work. */
    fz_kernel_so = ACLCPU_TEST_KERNELS;
    setenv("ACLCPU_DEVICE_COUNT", "2", 0);
    setenv("ACLCPU_DEVICE_MEMORY", "256M", 0);
    setenv("ACLCPU_HANG_TIMEOUT_MS", "300", 0);
    setenv("ACLCPU_WORKERS", "2", 0);
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    make_run_tmp();
    for (uint64_t s = opt.seed; s < opt.seed + opt.seeds; s++) {
        if (skipped(s)) {
            nskipped++;
            continue;
        }
        if (!run_sequence(s))
            failed++;
        if (run_tmp[0] != '\0')
            (void)nftw(run_tmp, remove_below, 16, FTW_DEPTH | FTW_PHYS);
        total_calls += atomic_load(&sh->calls[0]) + atomic_load(&sh->calls[1]);
        if ((s - opt.seed + 1) % 50 == 0) { /* a long campaign reports as it goes */
            printf("aclcpu-fuzz: through seed %llu: %llu calls, %.1f s, %llu failed\n", (unsigned long long)s,
                   (unsigned long long)total_calls, (double)(now_ms() - start) / 1000.0, (unsigned long long)failed);
            fflush(stdout);
        }
    }
    printf("aclcpu-fuzz: %llu sequences (seeds %llu..%llu, %llu skipped), %llu calls, %.1f s: %llu failed\n",
           (unsigned long long)(opt.seeds - nskipped), (unsigned long long)opt.seed,
           (unsigned long long)(opt.seed + opt.seeds - 1), (unsigned long long)nskipped,
           (unsigned long long)total_calls,
           (double)(now_ms() - start) / 1000.0, (unsigned long long)failed);
    return failed ? 1 : 0;
}
