/*
 * cmd_stress.c - `aclcpu stress -n N -- prog args`: runs a program under N
 * seeded schedules and reports the seeds whose result differs from the
 * first's.
 *
 * DESIGN: each run is a child process with ACLCPU_SCHED=random:<seed>
 * (seeds --from, --from + 1, ...), its standard output read through a pipe
 * and its exit status taken; standard error passes through. A run's result
 * is its output and its exit status (or the signal that ended it, or
 * "did not finish within --timeout"). The first seed's result is the
 * reference; every other seed that differs is listed with its first
 * differing line. A seeded schedule only delays tasks and reorders ready
 * streams (docs/multistream.md §8.4), so a correct program
 * gives the same result under every seed: a difference is a race.
 *
 * Threads: one. Exit: 0 every seed agreed, 1 some differ, 2 usage or a
 * program that could not be started.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_SEEDS 100000
#define OUTPUT_CAP (16u << 20) /* a run's output kept for the comparison */

static const struct option_spec stress_options[] = {
    {"--seeds", 'n', "N", "how many seeds to run (default 20)"},
    {"--from", 0, "SEED", "the first seed (default 1)"},
    {"--timeout", 0, "SEC", "a run that takes longer is stopped and counts as a difference (default 60)"},
    {"--check", 0, NULL, "run each seed under the race checker (ACLCPU_CHECK=1): its verdict, exit 66 on reports, "
                         "is compared too"},
};

struct run {
    char *out;
    size_t len;
    int status;     /* from waitpid */
    bool timed_out;
    bool too_long;  /* more than OUTPUT_CAP bytes: the rest was read and dropped */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads the child's output until it closes its end or the deadline
 * passes; false on a time-out. */
static bool read_output(int fd, struct run *r, double deadline)
{
    char buf[65536];
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        double left = deadline - now_s();
        ssize_t n;
        if (left <= 0)
            return false;
        if (poll(&p, 1, (int)(left * 1000) + 1) == 0)
            continue;
        n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return true;
        if (r->len + (size_t)n > OUTPUT_CAP) {
            r->too_long = true;
            continue;
        }
        char *grown = realloc(r->out, r->len + (size_t)n + 1);
        if (grown == NULL) {
            r->too_long = true;
            continue;
        }
        r->out = grown;
        memcpy(r->out + r->len, buf, (size_t)n);
        r->len += (size_t)n;
        r->out[r->len] = '\0';
    }
}

/* Runs argv under seed (and, check, the race checker); false when it
 * could not be started. */
static bool run_seed(char **argv, unsigned long long seed, double timeout, bool check, struct run *r)
{
    int fds[2];
    char sched[48];
    pid_t pid;
    memset(r, 0, sizeof(*r));
    if (pipe(fds) != 0)
        return false;
    snprintf(sched, sizeof(sched), "random:%llu", seed);
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        setpgid(0, 0); /* a time-out ends the program's own children too */
        setenv("ACLCPU_SCHED", sched, 1);
        if (check)
            setenv("ACLCPU_CHECK", "1", 1); /* a report makes the exit status 66: compared like any */
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "aclcpu stress: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    r->timed_out = !read_output(fds[0], r, now_s() + timeout);
    close(fds[0]);
    if (r->timed_out)
        kill(-pid, SIGKILL);
    while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR) {
    }
    return !(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 && r->len == 0);
}

static void describe_end(const struct run *r, char *out, size_t cap)
{
    if (r->timed_out)
        snprintf(out, cap, "did not finish in time");
    else if (WIFSIGNALED(r->status))
        snprintf(out, cap, "killed by signal %d", WTERMSIG(r->status));
    else
        snprintf(out, cap, "exit %d", WEXITSTATUS(r->status));
}

/* The 1-based number of the first line where a and b differ, with each
 * side's line (copied, shortened) into la / lb; 0 when the texts agree. */
static size_t first_difference(const struct run *a, const struct run *b, char *la, char *lb, size_t cap)
{
    const char *p = a->out != NULL ? a->out : "", *q = b->out != NULL ? b->out : "";
    size_t line = 1;
    for (;;) {
        size_t np = strcspn(p, "\n"), nq = strcspn(q, "\n");
        if (np != nq || memcmp(p, q, np) != 0 || (p[np] == '\0') != (q[nq] == '\0')) {
            snprintf(la, cap, "%.*s", (int)(np < 120 ? np : 120), p);
            snprintf(lb, cap, "%.*s", (int)(nq < 120 ? nq : 120), q);
            if (p[np] == '\0' && np == 0)
                snprintf(la, cap, "(no more output)");
            if (q[nq] == '\0' && nq == 0)
                snprintf(lb, cap, "(no more output)");
            return line;
        }
        if (p[np] == '\0')
            return 0;
        p += np + 1;
        q += nq + 1;
        line++;
    }
}

/* The run ended with the checker's exit code (ACLCPU_CHECK=1 and reports). */
static bool drew_reports(const struct run *r)
{
    return !r->timed_out && WIFEXITED(r->status) && WEXITSTATUS(r->status) == 66;
}

static bool same_end(const struct run *a, const struct run *b)
{
    return a->timed_out == b->timed_out && (a->timed_out || a->status == b->status);
}

static bool parse_count(const char *text, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
    char *end;
    if (text == NULL || text[0] < '0' || text[0] > '9')
        return false;
    *out = strtoull(text, &end, 10);
    return *end == '\0' && *out >= lo && *out <= hi;
}

static int run_stress(const struct args *a)
{
    unsigned long long n = 20, from = 1, timeout = 60;
    const char *v;
    struct run ref, cur;
    size_t differ = 0, checked_bad = 0;
    bool check = args_flag(a, "--check");
    char end_ref[64], end_cur[64], la[128], lb[128], seeds[256] = "";
    if (a->nrest == 0)
        return usage_error(a->cmd, "no program: usage: aclcpu stress %s", a->cmd->usage);
    if ((v = args_value(a, "--seeds")) != NULL && !parse_count(v, 1, MAX_SEEDS, &n))
        return usage_error(a->cmd, "--seeds %s: a count from 1 to %d", v, MAX_SEEDS);
    if ((v = args_value(a, "--from")) != NULL && !parse_count(v, 0, UINT64_MAX / 2, &from))
        return usage_error(a->cmd, "--from %s: a seed (a decimal number)", v);
    if ((v = args_value(a, "--timeout")) != NULL && !parse_count(v, 1, 86400, &timeout))
        return usage_error(a->cmd, "--timeout %s: seconds, 1 to 86400", v);
    printf("aclcpu stress: %s under %llu seeded schedules (ACLCPU_SCHED=random:%llu..%llu)%s\n", a->rest[0], n, from,
           from + n - 1, check ? ", each under the race checker (ACLCPU_CHECK=1)" : "");
    if (!run_seed(a->rest, from, (double)timeout, check, &ref)) {
        fprintf(stderr, "aclcpu stress: error: cannot run %s\n", a->rest[0]);
        free(ref.out);
        return EXIT_USAGE;
    }
    describe_end(&ref, end_ref, sizeof(end_ref));
    printf("  seed %llu: %s, %zu bytes of output (the reference)\n", from, end_ref, ref.len);
    checked_bad += check && drew_reports(&ref);
    for (unsigned long long i = 1; i < n; i++) {
        unsigned long long seed = from + i;
        size_t line;
        run_seed(a->rest, seed, (double)timeout, check, &cur);
        checked_bad += check && drew_reports(&cur);
        describe_end(&cur, end_cur, sizeof(end_cur));
        line = first_difference(&ref, &cur, la, lb, sizeof(la));
        if (!same_end(&ref, &cur) || line != 0 || cur.too_long != ref.too_long) {
            differ++;
            append(seeds, sizeof(seeds), "%s%llu", differ > 1 ? ", " : "", seed);
            if (!same_end(&ref, &cur))
                printf("  seed %llu: %s (seed %llu: %s)\n", seed, end_cur, from, end_ref);
            if (line != 0)
                printf("  seed %llu: output differs at line %zu: \"%s\" (seed %llu: \"%s\")\n", seed, line, lb, from,
                       la);
        }
        free(cur.out);
    }
    free(ref.out);
    if (checked_bad > 0)
        printf("The race checker reported in %zu of %llu runs (exit 66; its reports, each starting "
               "==aclcpu-check==, are on standard error): it finds a race from the program's order of calls, "
               "whatever the schedule.\n", checked_bad, n);
    if (differ == 0 && checked_bad == 0) {
        printf("Verdict: all %llu seeds agree.\n", n);
        return EXIT_OK;
    }
    if (differ == 0) {
        printf("Verdict: all %llu seeds agree, and the race checker reported in every run.\n", n);
        return EXIT_FINDINGS;
    }
    printf("Verdict: %zu of %llu seeds differ from seed %llu: %s. A correct program gives one result under every "
           "seed: look for a missing event or sync (rerun one with ACLCPU_SCHED=random:<seed>).\n",
           differ, n, from, seeds);
    return EXIT_FINDINGS;
}

const struct command cmd_stress = {
    .name = "stress",
    .summary = "run a program under seeded schedules and report the seeds that change its result",
    .usage = "[-n N] [--from SEED] [--timeout SEC] [--check] -- PROGRAM [ARGS...]",
    .help = "Runs PROGRAM N times (default 20), each with ACLCPU_SCHED=random:<seed>: stream tasks delayed\n"
            "and ready streams picked as the seed says, orders the API guarantees kept. Compares each run's\n"
            "standard output and exit status with the first seed's and lists the seeds that differ, with\n"
            "the first differing line. A difference means the program's result depends on the schedule:\n"
            "a race. With --check each run is also under the race checker (ACLCPU_CHECK=1), which reports a\n"
            "race from the order of the program's calls whatever the schedule, and exits 66 when it did.\n"
            "Exit: 0 all agree (and, with --check, no report), 1 some differ or the checker reported,\n"
            "2 usage or PROGRAM cannot be run.",
    .options = stress_options,
    .noptions = CLI_ARRAY_SIZE(stress_options),
    .min_args = 0,
    .max_args = 0,
    .takes_program = true,
    .run = run_stress,
};
