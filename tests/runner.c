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
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
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

/* Returns 0 pass, 1 fail, 2 skip. */
static int run_one(const struct test_entry *t, int timeout_s)
{
    struct timespec t0;
    int status = 0;
    pid_t pid;

    fflush(NULL);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid == 0) {
        alarm((unsigned)timeout_s);
        t->fn();
        fflush(NULL);
        if (__lsan_do_recoverable_leak_check != NULL && __lsan_do_recoverable_leak_check() != 0)
            _exit(1); /* LeakSanitizer has printed the leaks */
        _exit(0);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        printf("ok      %s.%s (%.2fs)\n", t->suite, t->name, seconds_since(&t0));
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
