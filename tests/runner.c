/*
 * runner.c - runs registered tests, each in its own forked process with a
 * timeout.
 *
 *   aclcpu-tests                 run every test
 *   aclcpu-tests SUITE [NAME]    run one suite, or one test
 *   aclcpu-tests --list          list suites and tests
 *
 * ACLCPU_TEST_TIMEOUT (seconds, default 30) bounds each test; scale it up
 * under valgrind. ACLCPU_TEST_STOP_ON_FAILURE=1 stops at the first failure
 * (the mutation run: one failure kills the mutant). The last line is "N passed, N failed, N skipped".
 *
 * Each test case gets a private temporary folder, $TMPDIR/aclcpu-case-XXXXXX
 * (TMPDIR unset or empty: /tmp), which is the child's TMPDIR; the runner
 * removes it with all it holds once the child has ended, whether the case
 * passed, failed an ASSERT, crashed or timed out, so that no run leaves
 * profiles or files behind (t_tmpdir in helpers.c makes folders there).
 * ACLCPU_TEST_KEEP_TMP=1 keeps the folder of a failed case for diagnosis
 * and prints its path.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define MAX_TESTS 2048
#define EXIT_SKIP 77

struct test_entry {
    const char *suite, *name, *file;
    int line;
    test_fn fn;
};

static struct test_entry tests[MAX_TESTS];
static int ntests;

/*
 * In AddressSanitizer builds LeakSanitizer checks for leaks from an atexit
 * handler, which a test child's _exit skips; the child runs the check itself.
 * The symbol is weak: NULL in builds without LeakSanitizer.
 */
extern int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

void test_register(const char *suite, const char *name, test_fn fn, const char *file, int line)
{
    if (ntests == MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        abort();
    }
    tests[ntests++] = (struct test_entry){suite, name, file, line, fn};
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(NULL);
    _exit(1);
}

void test_skip(const char *why)
{
    fprintf(stderr, "    skipped: %s\n", why);
    fflush(NULL);
    _exit(EXIT_SKIP);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Prints the case's verdict from the child's status; returns 0 pass, 1 fail, 2 skip. */
static int report(const struct test_entry *t, pid_t pid, int status, int timeout_s, const struct timespec *t0)
{
    if (pid < 0) {
        printf("FAIL    %s.%s: fork: %s (%s:%d)\n", t->suite, t->name, strerror(errno), t->file, t->line);
        return 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("ok      %s.%s (%.2fs)\n", t->suite, t->name, seconds_since(t0));
        return 0;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
        printf("skip    %s.%s\n", t->suite, t->name);
        return 2;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        printf("FAIL    %s.%s: timed out after %d s (%s:%d)\n", t->suite, t->name, timeout_s, t->file, t->line);
    else if (WIFSIGNALED(status))
        printf("FAIL    %s.%s: killed by signal %d (%s:%d)\n", t->suite, t->name, WTERMSIG(status), t->file, t->line);
    else
        printf("FAIL    %s.%s: exit %d (%s:%d)\n", t->suite, t->name, WEXITSTATUS(status), t->file, t->line);
    return 1;
}

/* A folder a case made unreadable or unwritable must still go: each one is
 * opened up before the depth-first removal reads and empties it. */
static int open_up(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_D || type == FTW_DNR)
        (void)chmod(path, (st->st_mode & 07777) | S_IRWXU);
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    if (remove(path) != 0 && errno != ENOENT)
        fprintf(stderr, "    cannot remove %s: %s\n", path, strerror(errno));
    return 0;
}

static void remove_tree(const char *dir)
{
    (void)nftw(dir, open_up, 16, FTW_PHYS);
    (void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Makes the case's private temporary folder in dir: 1, or 0 (the case then
 * runs with the runner's TMPDIR, and the runner says so). */
static int make_case_tmp(char *dir, size_t cap)
{
    const char *base = getenv("TMPDIR");

    if (base == NULL || base[0] == '\0')
        base = "/tmp";
    if ((size_t)snprintf(dir, cap, "%s/aclcpu-case-XXXXXX", base) < cap && mkdtemp(dir) != NULL)
        return 1;
    fprintf(stderr, "    no private temporary folder under %s: %s\n", base, strerror(errno));
    return 0;
}

/* Returns 0 pass, 1 fail, 2 skip. */
static int run_one(const struct test_entry *t, int timeout_s)
{
    struct timespec t0;
    int status = 0, rc, has_tmp;
    pid_t pid;
    char tmp[4096];
    const char *keep = getenv("ACLCPU_TEST_KEEP_TMP");

    has_tmp = make_case_tmp(tmp, sizeof(tmp));
    fflush(NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid == 0) {
        if (has_tmp && setenv("TMPDIR", tmp, 1) != 0)
            _exit(1);
        alarm((unsigned)timeout_s);
        t->fn();
        fflush(NULL);
        if (__lsan_do_recoverable_leak_check != NULL && __lsan_do_recoverable_leak_check() != 0)
            _exit(1); /* LeakSanitizer has printed the leaks */
        _exit(0);
    }
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    rc = report(t, pid, status, timeout_s, &t0);
    if (has_tmp) {
        /* After the child, however it ended: an ASSERT's _exit or the
         * timeout's SIGALRM runs none of the child's own clean-up. */
        if (rc == 1 && keep != NULL && strcmp(keep, "1") == 0)
            printf("        kept %s (ACLCPU_TEST_KEEP_TMP=1)\n", tmp);
        else
            remove_tree(tmp);
    }
    return rc;
}

int main(int argc, char **argv)
{
    const char *suite = argc > 1 ? argv[1] : NULL, *name = argc > 2 ? argv[2] : NULL;
    const char *env = getenv("ACLCPU_TEST_TIMEOUT");
    int timeout_s = env != NULL && atoi(env) > 0 ? atoi(env) : 30;
    int counts[3] = {0, 0, 0}, matched = 0;
    const char *stop_env = getenv("ACLCPU_TEST_STOP_ON_FAILURE");
    int stop_on_failure = stop_env != NULL && strcmp(stop_env, "1") == 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (suite != NULL && strcmp(suite, "--list") == 0) {
        for (int i = 0; i < ntests; i++)
            printf("%s %s\n", tests[i].suite, tests[i].name);
        return 0;
    }
    for (int i = 0; i < ntests; i++) {
        if (suite != NULL && strcmp(suite, tests[i].suite) != 0)
            continue;
        if (name != NULL && strcmp(name, tests[i].name) != 0)
            continue;
        matched++;
        counts[run_one(&tests[i], timeout_s)]++;
        if (stop_on_failure && counts[1] > 0)
            break;
    }
    if (matched == 0) {
        fprintf(stderr, "no test matches %s %s\n", suite ? suite : "", name ? name : "");
        return 2;
    }
    printf("%d passed, %d failed, %d skipped\n", counts[0], counts[1], counts[2]);
    return counts[1] == 0 ? 0 : 1;
}
