/*
 * lockcheck_test.c - tests of the lock checker itself (src/platform/lockcheck.c).
 *
 * Built from the platform and common sources with ACLCPU_LOCK_CHECKS=1
 * whatever the build type, so every build proves that a broken lock rule
 * aborts with a message naming it. Each case runs in a forked child; a
 * "breaks" case must die by SIGABRT with the expected words on stderr, a
 * "keeps" case must exit 0. One "keeps" case checks the spinlock itself
 * (mutual exclusion with sleepers waiting), which only this program reaches.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "platform/platform.h"

#if !ACLCPU_LOCK_CHECKS
#error "lockcheck_test needs ACLCPU_LOCK_CHECKS=1"
#endif

struct counter {
    plat_mutex lock;
    int n;
};

/* A helper in the library's manner: its name says the caller holds c->lock. */
static void bump_locked(struct counter *c)
{
    PLAT_ASSERT_HELD(&c->lock);
    c->n++;
}

static plat_mutex outer, inner;
static plat_spin spin_a, spin_b;

static void init_locks(void)
{
    plat_mutex_init(&outer, LOCK_ADMIN);
    plat_mutex_init(&inner, LOCK_CONTEXT);
    plat_spin_init(&spin_a, LOCK_STREAM);
    plat_spin_init(&spin_b, LOCK_EVENT);
}

/* ---- cases that keep the rules (exit 0) ---- */

static void keeps_the_order(void)
{
    plat_mutex_lock(&outer);
    plat_mutex_lock(&inner);
    plat_spin_lock(&spin_a);
    plat_spin_lock(&spin_b);
    PLAT_ASSERT_HELD(&outer);
    PLAT_ASSERT_HELD(&spin_b);
    /* Out-of-order releases are allowed; what is still held stays checked. */
    plat_mutex_unlock(&outer);
    plat_spin_unlock(&spin_a);
    PLAT_ASSERT_HELD(&inner);
    PLAT_ASSERT_HELD(&spin_b);
    plat_spin_unlock(&spin_b);
    plat_mutex_unlock(&inner);
    /* After all releases the order starts afresh. */
    plat_mutex_lock(&inner);
    plat_mutex_unlock(&inner);
    plat_mutex_lock(&outer);
    plat_mutex_unlock(&outer);
}

static void locked_helper_with_the_lock(void)
{
    struct counter c = {.n = 0};
    plat_mutex_init(&c.lock, LOCK_MODEL);
    plat_mutex_lock(&c.lock);
    bump_locked(&c);
    plat_mutex_unlock(&c.lock);
    exit(c.n == 1 ? 0 : 1);
}

static void cond_wait_keeps_the_owner(void)
{
    plat_cond cond;
    plat_cond_init(&cond);
    plat_mutex_lock(&outer);
    (void)plat_cond_timedwait(&cond, &outer, plat_now_ns() + 1000000u);
    PLAT_ASSERT_HELD(&outer);
    plat_mutex_lock(&inner); /* the order still sees outer held */
    plat_mutex_unlock(&inner);
    plat_mutex_unlock(&outer);
}

static void allocation_and_formatting_without_spinlocks(void)
{
    plat_mutex_lock(&outer); /* mutexes do not forbid them */
    char *p = acl_malloc(16);
    acl_free(p);
    (void)acl_fail(ACL_ERROR_INVALID_PARAM, "lockcheck_test: %s", "a message");
    LOGE("lockcheck_test: a log line");
    plat_mutex_unlock(&outer);
}

/* The spinlock itself: held by this thread, with one waiter already asleep
 * on it (the word says 2, "held with sleepers"), a second waiter that finds
 * the 2 must sleep too, not take the lock. Whether it sleeps is read from
 * /proc (state S: the only place the taker can block is the futex). */
static _Atomic int entered, taker_tid[2];

static void *take_spin_a(void *arg)
{
    _Atomic int *tid = arg;
    atomic_store(tid, (int)syscall(SYS_gettid));
    plat_spin_lock(&spin_a);
    atomic_fetch_add(&entered, 1);
    plat_spin_unlock(&spin_a);
    return NULL;
}

static bool asleep(int tid)
{
    char path[64], text[512];
    FILE *f;
    size_t n;
    const char *paren;
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
    if ((f = fopen(path, "r")) == NULL)
        return false;
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    paren = strrchr(text, ')');
    return paren != NULL && paren[1] == ' ' && paren[2] == 'S';
}

static void spin_lock_with_sleepers_admits_no_second_holder(void)
{
    pthread_t th[2];
    uint64_t deadline = plat_now_ns() + 10000000000ull; /* a bound, not a timing: 10 s */
    plat_spin_lock(&spin_a);
    if (pthread_create(&th[0], NULL, take_spin_a, &taker_tid[0]) != 0)
        exit(2);
    while (atomic_load(&spin_a.locked) != 2)
        if (plat_now_ns() > deadline)
            exit(3);
    if (pthread_create(&th[1], NULL, take_spin_a, &taker_tid[1]) != 0)
        exit(2);
    while (atomic_load(&entered) == 0 && (atomic_load(&taker_tid[1]) == 0 || !asleep(atomic_load(&taker_tid[1]))))
        if (plat_now_ns() > deadline)
            exit(3);
    if (atomic_load(&entered) != 0)
        exit(4); /* a taker got in while this thread holds the lock */
    plat_spin_unlock(&spin_a);
    pthread_join(th[0], NULL);
    pthread_join(th[1], NULL);
    exit(atomic_load(&entered) == 2 ? 0 : 5);
}

/* ---- cases that break a rule (SIGABRT) ---- */

static void takes_two_mutexes_out_of_order(void)
{
    plat_mutex_lock(&inner);
    plat_mutex_lock(&outer);
}

static void takes_two_spinlocks_out_of_order(void)
{
    plat_spin_lock(&spin_b);
    plat_spin_lock(&spin_a);
}

/* Two streams' locks are one rank: the table orders no two of them, so a
 * thread may hold only one at a time (nesting them could deadlock against
 * a thread taking them the other way round). */
static void takes_two_locks_of_the_same_rank(void)
{
    plat_spin other;
    plat_spin_init(&other, LOCK_STREAM);
    plat_spin_lock(&spin_a);
    plat_spin_lock(&other);
}

static void takes_a_mutex_under_a_spinlock(void)
{
    plat_mutex m;
    plat_mutex_init(&m, LOCK_HANDLE);
    plat_spin_lock(&spin_b);
    plat_mutex_lock(&m);
}

static void takes_a_lock_twice(void)
{
    plat_spin_lock(&spin_a);
    plat_spin_lock(&spin_a);
}

static void takes_an_unranked_lock(void)
{
    plat_spin s;
    plat_spin_init(&s, LOCK_UNRANKED);
    plat_spin_lock(&s);
}

static void releases_a_lock_it_does_not_hold(void) { plat_mutex_unlock(&outer); }

static void locked_helper_without_the_lock(void)
{
    struct counter c = {.n = 0};
    plat_mutex_init(&c.lock, LOCK_MODEL);
    bump_locked(&c);
}

static void locked_helper_under_another_threads_lock(void)
{
    /* Held, but by the parent of this process's only thread: not by us. */
    struct counter c = {.n = 0};
    plat_mutex_init(&c.lock, LOCK_MODEL);
    atomic_store_explicit(&c.lock.check.owner, plat_thread_self() + 1, memory_order_relaxed);
    bump_locked(&c);
}

static void allocates_under_a_spinlock(void)
{
    plat_spin_lock(&spin_a);
    free(acl_malloc(16));
}

static void frees_under_a_spinlock(void)
{
    void *p = acl_malloc(16);
    plat_spin_lock(&spin_a);
    acl_free(p);
}

static void formats_an_error_under_a_spinlock(void)
{
    plat_spin_lock(&spin_b);
    (void)acl_fail(ACL_ERROR_INVALID_PARAM, "lockcheck_test: %d", 1);
}

static void logs_under_a_spinlock(void)
{
    /* Checked whether or not the level is on (here it is off). */
    plat_spin_lock(&spin_b);
    LOGD("lockcheck_test: %d", 1);
}

struct lock_case {
    const char *name;
    void (*fn)(void);
    const char *abort_says; /* NULL: must exit 0 */
};

static const struct lock_case cases[] = {
    {"keeps_the_order", keeps_the_order, NULL},
    {"locked_helper_with_the_lock", locked_helper_with_the_lock, NULL},
    {"cond_wait_keeps_the_owner", cond_wait_keeps_the_owner, NULL},
    {"allocation_and_formatting_without_spinlocks", allocation_and_formatting_without_spinlocks, NULL},
    {"spin_lock_with_sleepers_admits_no_second_holder", spin_lock_with_sleepers_admits_no_second_holder, NULL},
    {"takes_two_mutexes_out_of_order", takes_two_mutexes_out_of_order,
     "taking admin_lock while holding context->lock: against the order"},
    {"takes_two_spinlocks_out_of_order", takes_two_spinlocks_out_of_order,
     "taking stream->lock (S) while holding event->lock (S)"},
    {"takes_two_locks_of_the_same_rank", takes_two_locks_of_the_same_rank,
     "taking stream->lock (S) while holding stream->lock (S)"},
    {"takes_a_mutex_under_a_spinlock", takes_a_mutex_under_a_spinlock,
     "taking the mutex handle table lock while holding a spinlock"},
    {"takes_a_lock_twice", takes_a_lock_twice, "which this thread already holds"},
    {"takes_an_unranked_lock", takes_an_unranked_lock, "not initialised with a rank"},
    {"releases_a_lock_it_does_not_hold", releases_a_lock_it_does_not_hold,
     "releasing admin_lock, which this thread does not hold"},
    {"locked_helper_without_the_lock", locked_helper_without_the_lock, "&c->lock (model->lock) is not held"},
    {"locked_helper_under_another_threads_lock", locked_helper_under_another_threads_lock, "is not held"},
    {"allocates_under_a_spinlock", allocates_under_a_spinlock, "allocating while holding a spinlock"},
    {"frees_under_a_spinlock", frees_under_a_spinlock, "freeing while holding a spinlock"},
    {"formats_an_error_under_a_spinlock", formats_an_error_under_a_spinlock,
     "formatting an error message while holding a spinlock"},
    {"logs_under_a_spinlock", logs_under_a_spinlock, "logging while holding a spinlock"},
};

/* Runs c in a child with stderr in a pipe; true if it ended as it must. */
static int run_case(const struct lock_case *c)
{
    int fds[2];
    char out[8192];
    size_t len = 0;
    int status;
    if (pipe(fds) != 0)
        return 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        init_locks();
        c->fn();
        exit(0);
    }
    close(fds[1]);
    for (ssize_t n; (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0;)
        len += (size_t)n;
    out[len] = '\0';
    close(fds[0]);
    waitpid(pid, &status, 0);
    int ok = c->abort_says == NULL
                 ? WIFEXITED(status) && WEXITSTATUS(status) == 0
                 : WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(out, c->abort_says) != NULL;
    printf("%s\t%s\n", ok ? "ok" : "FAIL", c->name);
    if (!ok)
        printf("  want %s; status %#x; stderr:\n%s\n", c->abort_says ? c->abort_says : "exit 0", status, out);
    return ok;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (argc < 2 || strcmp(argv[1], cases[i].name) == 0)
            failed += !run_case(&cases[i]);
    printf("%d failed\n", failed);
    return failed != 0;
}
