/*
 * posix.c - threads, locks, futexes, clocks and dlopen on Linux.
 *
 * DESIGN: this file owns every pthread, futex and dl call in aclcpu. It has
 * no state of its own beyond what the OS keeps; any thread may call any
 * function. Lock failures abort with the call and errno value, since they
 * can only come from a bug (double unlock, destroyed mutex). In debug
 * builds every lock and unlock also reports to the lock checker
 * (lockcheck.c), and a condition wait hands the mutex's owner back and forth.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "platform.h"

#include "../common/mem.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(plat_mutex), "plat_mutex too small");
_Static_assert(sizeof(pthread_cond_t) <= sizeof(plat_cond), "plat_cond too small");
_Static_assert(sizeof(pthread_t) <= sizeof(uint64_t), "pthread_t too large");
_Static_assert(sizeof(void *) == 8, "aclcpu encodes handles in 64-bit pointers");

static void check(int rc, const char *what)
{
    if (rc != 0) {
        fprintf(stderr, "aclcpu: fatal: %s failed: %s\n", what, strerror(rc));
        abort();
    }
}

void plat_mutex_init(plat_mutex *m, unsigned rank)
{
    pthread_mutexattr_t attr;
    check(pthread_mutexattr_init(&attr), "pthread_mutexattr_init");
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    /* Critical sections here are a few dozen instructions: a short spin
     * before sleeping beats a futex round trip under light contention. */
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    check(pthread_mutex_init((pthread_mutex_t *)m->opaque, &attr), "pthread_mutex_init");
    pthread_mutexattr_destroy(&attr);
#if ACLCPU_LOCK_CHECKS
    atomic_init(&m->check.owner, 0);
    m->check.rank = (uint16_t)rank;
    m->check.spin = false;
#else
    (void)rank;
#endif
}

void plat_mutex_destroy(plat_mutex *m) { pthread_mutex_destroy((pthread_mutex_t *)m->opaque); }

void plat_mutex_lock(plat_mutex *m)
{
#if ACLCPU_LOCK_CHECKS
    plat_lock_acquiring(&m->check);
#endif
    check(pthread_mutex_lock((pthread_mutex_t *)m->opaque), "mutex lock");
#if ACLCPU_LOCK_CHECKS
    plat_lock_acquired(&m->check);
#endif
}

void plat_mutex_unlock(plat_mutex *m)
{
#if ACLCPU_LOCK_CHECKS
    plat_lock_releasing(&m->check);
#endif
    check(pthread_mutex_unlock((pthread_mutex_t *)m->opaque), "mutex unlock");
}

void plat_spin_lock_slow(plat_spin *l)
{
    for (int i = 0; i < 200; i++) {
        uint32_t free_ = 0;
        plat_cpu_relax();
        /* Test before test-and-set: spin on a shared read, not on writes.
         * Acquire on taking it, as in plat_spin_lock. */
        if (load_relaxed(&l->locked) == 0 && cas_acquire(&l->locked, &free_, 1))
            return;
    }
    /* Mark "held with sleepers" and sleep until we take it that way; taking
     * it as 2 may cost one needless wake at unlock, never a lost one.
     * Acquire: the exchange that returns 0 takes the lock. */
    while (exchange_acquire(&l->locked, 2) != 0)
        plat_futex_wait(&l->locked, 2, 0);
}

void plat_spin_wake(plat_spin *l) { plat_futex_wake(&l->locked, 1); }

void plat_cond_init(plat_cond *c)
{
    pthread_condattr_t attr;
    check(pthread_condattr_init(&attr), "pthread_condattr_init");
    check(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC), "pthread_condattr_setclock");
    check(pthread_cond_init((pthread_cond_t *)c->opaque, &attr), "pthread_cond_init");
    pthread_condattr_destroy(&attr);
}

void plat_cond_destroy(plat_cond *c) { pthread_cond_destroy((pthread_cond_t *)c->opaque); }

/* The wait gives m up and takes it back: the owner the checks see follows
 * (the lock stays on the thread's held stack, in its place). */
static void cond_wait_begin(plat_mutex *m)
{
#if ACLCPU_LOCK_CHECKS
    plat_lock_assert_held(&m->check, "the mutex of a condition wait", __FILE__, __LINE__);
    store_relaxed(&m->check.owner, 0);
#else
    (void)m;
#endif
}

static void cond_wait_end(plat_mutex *m)
{
#if ACLCPU_LOCK_CHECKS
    store_relaxed(&m->check.owner, plat_thread_self());
#else
    (void)m;
#endif
}

void plat_cond_wait(plat_cond *c, plat_mutex *m)
{
    cond_wait_begin(m);
    check(pthread_cond_wait((pthread_cond_t *)c->opaque, (pthread_mutex_t *)m->opaque), "cond wait");
    cond_wait_end(m);
}

static struct timespec to_timespec(uint64_t ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    return ts;
}

bool plat_cond_timedwait(plat_cond *c, plat_mutex *m, uint64_t deadline_ns)
{
    struct timespec ts = to_timespec(deadline_ns);
    cond_wait_begin(m);
    int rc = pthread_cond_timedwait((pthread_cond_t *)c->opaque, (pthread_mutex_t *)m->opaque, &ts);
    cond_wait_end(m);
    if (rc == ETIMEDOUT)
        return false;
    check(rc, "cond timedwait");
    return true;
}

void plat_cond_signal(plat_cond *c) { check(pthread_cond_signal((pthread_cond_t *)c->opaque), "cond signal"); }
void plat_cond_broadcast(plat_cond *c) { check(pthread_cond_broadcast((pthread_cond_t *)c->opaque), "cond broadcast"); }

struct thread_start {
    plat_thread_fn fn;
    void *arg;
};

static void *thread_trampoline(void *p)
{
    struct thread_start start = *(struct thread_start *)p;
    acl_free(p);
    start.fn(start.arg);
    return NULL;
}

int plat_thread_create(plat_thread *t, const char *name, plat_thread_fn fn, void *arg)
{
    struct thread_start *start = acl_malloc(sizeof(*start));
    pthread_t tid;
    int rc;

    if (start == NULL)
        return ENOMEM;
    start->fn = fn;
    start->arg = arg;
    rc = pthread_create(&tid, NULL, thread_trampoline, start);
    if (rc != 0) {
        acl_free(start);
        return rc;
    }
    if (name != NULL)
        pthread_setname_np(tid, name); /* best effort: names only help debugging */
    t->opaque = (uint64_t)tid;
    return 0;
}

void plat_thread_join(plat_thread t) { check(pthread_join((pthread_t)t.opaque, NULL), "pthread_join"); }
/* Per-thread exit hooks ride on one pthread key whose value is the list. */
#define MAX_EXIT_HOOKS 8
struct exit_hooks {
    void (*fn[MAX_EXIT_HOOKS])(void);
    int n;
};
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static _Thread_local struct exit_hooks exit_hooks;

static void run_exit_hooks(void *p)
{
    struct exit_hooks *h = p;
    for (int i = h->n - 1; i >= 0; i--)
        h->fn[i]();
    h->n = 0;
}

static void make_exit_key(void) { check(pthread_key_create(&exit_key, run_exit_hooks), "pthread_key_create"); }

void plat_thread_at_exit(void (*fn)(void))
{
    check(pthread_once(&exit_once, make_exit_key), "pthread_once");
    if (exit_hooks.n == MAX_EXIT_HOOKS)
        return; /* a cache left behind is a small leak, not a fault */
    exit_hooks.fn[exit_hooks.n++] = fn;
    pthread_setspecific(exit_key, &exit_hooks);
}

uint64_t plat_thread_self(void) { return (uint64_t)pthread_self(); }
_Thread_local uint32_t plat_tls_tid;

uint32_t plat_thread_tid_slow(void)
{
    plat_tls_tid = (uint32_t)syscall(SYS_gettid);
    return plat_tls_tid;
}
void plat_thread_yield(void) { sched_yield(); }

unsigned plat_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

uint64_t plat_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

/* Set once at load: is the kernel's clocksource the TSC? Then it is
 * invariant and synchronised across cores, so rdtsc orders events of
 * different threads like the monotonic clock does. */
static bool tsc_clock;

__attribute__((constructor)) static void ticks_init(void)
{
    char buf[16] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (f != NULL) {
        if (fgets(buf, sizeof(buf), f) == NULL)
            buf[0] = '\0';
        fclose(f);
    }
    tsc_clock = strncmp(buf, "tsc", 3) == 0 && (buf[3] == '\n' || buf[3] == '\0');
}

uint64_t plat_ticks(void) { return tsc_clock ? __rdtsc() : plat_now_ns(); }
#else
uint64_t plat_ticks(void) { return plat_now_ns(); }
#endif

uint64_t plat_deadline_ms(int64_t ms)
{
    if (ms < 0)
        return 0;
    return plat_now_ns() + (uint64_t)ms * 1000000u;
}

void plat_sleep_ns(uint64_t ns)
{
    struct timespec ts = to_timespec(ns);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static bool futex_wait_op(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns, int op)
{
    struct timespec ts, *tsp = NULL;
    long rc;

    if (deadline_ns != 0) {
        /* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC deadline,
         * which keeps repeated waits from drifting. */
        if (plat_now_ns() >= deadline_ns)
            return false;
        ts = to_timespec(deadline_ns);
        tsp = &ts;
    }
    rc = syscall(SYS_futex, (uint32_t *)word, op, expected, tsp, NULL, FUTEX_BITSET_MATCH_ANY);
    if (rc == -1 && errno == ETIMEDOUT)
        return false;
    return true; /* woken, EAGAIN (value changed) or EINTR: caller re-checks */
}

void plat_futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, count, NULL, NULL, 0);
}

void plat_futex_wake_all(_Atomic uint32_t *word) { plat_futex_wake(word, 0x7fffffff); }

bool plat_futex_wait(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns)
{
    return futex_wait_op(word, expected, deadline_ns, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG);
}

/* Shared futexes: the kernel keys them by the page of the file, so a word
 * in a memory file mapped by two processes is the same futex in both. */
bool plat_futex_wait_shared(_Atomic uint32_t *word, uint32_t expected, uint64_t deadline_ns)
{
    return futex_wait_op(word, expected, deadline_ns, FUTEX_WAIT_BITSET);
}

void plat_futex_wake_all_shared(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

void *plat_dl_open(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
void *plat_dl_sym(void *lib, const char *name) { return dlsym(lib, name); }
void plat_dl_close(void *lib) { dlclose(lib); }

bool plat_dl_symbol_at(const void *addr, const char **name, size_t *size, void **object_base)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || info.dli_sname == NULL || info.dli_saddr != addr)
        return false;
    *name = info.dli_sname;
    *size = sym != NULL ? (size_t)sym->st_size : 0;
    *object_base = info.dli_fbase;
    return true;
}

bool plat_dl_describe(const void *addr, const char **object, const char **symbol, uintptr_t *offset)
{
    Dl_info info;
    if (addr == NULL || dladdr(addr, &info) == 0)
        return false;
    *object = info.dli_fname;
    *symbol = info.dli_sname;
    *offset = (uintptr_t)addr - (uintptr_t)(info.dli_saddr != NULL ? info.dli_saddr : info.dli_fbase);
    return true;
}

/* What dl_iterate_phdr is asked for, and what it found. */
struct extent_query {
    ElfW(Addr) l_addr;
    const char *l_name;
    uintptr_t lo, hi;
    bool found;
};

static int extent_cb(struct dl_phdr_info *pi, size_t len, void *arg)
{
    struct extent_query *q = arg;
    (void)len;
    if (pi->dlpi_addr != q->l_addr || pi->dlpi_name == NULL || strcmp(pi->dlpi_name, q->l_name) != 0)
        return 0;
    for (ElfW(Half) i = 0; i < pi->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &pi->dlpi_phdr[i];
        uintptr_t lo, hi;
        if (ph->p_type != PT_LOAD)
            continue;
        lo = (uintptr_t)(pi->dlpi_addr + ph->p_vaddr);
        hi = lo + (uintptr_t)ph->p_memsz;
        if (!q->found || lo < q->lo)
            q->lo = lo;
        if (!q->found || hi > q->hi)
            q->hi = hi;
        q->found = true;
    }
    return q->found ? 1 : 0;
}

bool plat_dl_extent(void *lib, void **base, size_t *size)
{
    struct link_map *lm = NULL;
    struct extent_query q = {0};
    if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL)
        return false;
    q.l_addr = lm->l_addr;
    q.l_name = lm->l_name;
    dl_iterate_phdr(extent_cb, &q);
    if (!q.found)
        return false;
    *base = (void *)q.lo;
    *size = (size_t)(q.hi - q.lo);
    return true;
}

const char *plat_dl_error(void)
{
    const char *e = dlerror();
    return e != NULL ? e : "unknown dynamic loader error";
}

int plat_mem_file(const void *data, size_t len, char *path, size_t cap)
{
    const char *p = data;
    int fd = memfd_create("aclcpu-binary", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    return fd;
}

void plat_close(int fd) { close(fd); }

const char *plat_getenv(const char *name) { return getenv(name); }

/* ---- CPU features ---------------------------------------------------------- */

bool plat_has_prefetchw;

__attribute__((constructor)) static void detect_cpu_features(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    /* CPUID 0x80000001, ECX bit 8: PREFETCHW (3DNowPrefetch / PRFCHW). */
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
        plat_has_prefetchw = (c >> 8) & 1u;
#endif
}

bool plat_getcwd(char *buf, size_t cap) { return getcwd(buf, cap) != NULL; }

bool plat_make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(buf)) {
        errno = ENAMETOOLONG;
        return false;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p != '\0'; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return false;
    return access(buf, W_OK | X_OK) == 0;
}

bool plat_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}
