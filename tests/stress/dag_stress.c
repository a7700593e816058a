/*
 * dag_stress.c - aclcpu-dag-stress: random stream/event DAGs checked by an
 * ordering oracle.
 *
 *   aclcpu-dag-stress [--seed S] [--ops N] [--streams K] [--events E] [--round R]
 *
 * Issues N random operations in rounds of R: kernels and host functions
 * (aclrtLaunchHostFunc) that log when they run with a global sequence
 * number, event records (re-records included), waits (on events recorded
 * or never recorded), and stream, event and device syncs. The oracle
 * builds the happens-before the API promises, as the operations are issued:
 *   - stream order: a task runs after the task before it on its stream;
 *   - a wait on an event orders what follows it on its stream after every
 *     task before the record that was the event's newest when the wait was
 *     issued (a wait on a never-recorded event orders nothing);
 *   - a returned aclrtSynchronizeStream / Event / Device means every task
 *     before it (on that stream, before that record, anywhere) has run;
 * and checks each edge against the logged order, and at the end of a round
 * that every task ran exactly once. The worker count is the library's
 * (ACLCPU_WORKERS). Prints the figures; exit status 1 on any violation.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

enum { MAX_STREAMS = 32, MAX_EVENTS = 32, NO_TASK = -1 };

static struct {
    uint64_t seed, ops, round;
    int streams, events;
} opt = {1, 20000, 400, 8, 6};

/* The run log of a round: seq[t] is when task t ran, runs[t] how often. */
static _Atomic uint64_t clock_seq;
static _Atomic uint64_t *seq;
static _Atomic int *runs;

/* The oracle's view: per task its predecessors (stream order and the
 * record its stream last waited on), per stream its newest task and the
 * record pending for its next task, per event the task its newest record
 * follows. A record is ordered after its stream's newest task, so "after
 * the record" is "after that task" (the chain before it follows). */
struct task_deps {
    int prev, waited[MAX_EVENTS];
    int nwaited;
};
static struct task_deps *deps;
static int ntasks;
static int last_task[MAX_STREAMS];
static int pending[MAX_STREAMS][MAX_EVENTS], npending[MAX_STREAMS];
static int record_of[MAX_EVENTS]; /* NO_TASK: never recorded, or after no task */
static uint64_t violations, checks;
static uint64_t rng;

static uint64_t next_rand(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ull;
}

static uint32_t below(uint32_t n) { return (uint32_t)(next_rand() % n); }

static void log_run(int id)
{
    /* seq_cst: the log's order is the one the oracle reads. */
    atomic_store(&seq[id], atomic_fetch_add(&clock_seq, 1) + 1);
    atomic_fetch_add(&runs[id], 1);
}

static void kern_log(void *args)
{
    int id;
    memcpy(&id, args, sizeof(id));
    if (aclcpuGetBlockIdx() == 0)
        log_run(id);
}

static void host_log(void *args) { log_run((int)(intptr_t)args); }

static void violation(const char *what, int a, int b)
{
    if (violations++ < 20)
        fprintf(stderr, "aclcpu-dag-stress: seed %llu: %s: task %d (seq %llu) / task %d (seq %llu)\n",
                (unsigned long long)opt.seed, what, a, (unsigned long long)atomic_load(&seq[a]), b,
                b >= 0 ? (unsigned long long)atomic_load(&seq[b]) : 0ull);
}

/* Checks that task `before` ran, and ran before `after` (if given). */
static void check_before(const char *what, int before, int after)
{
    uint64_t sb, sa;
    if (before == NO_TASK)
        return;
    checks++;
    sb = atomic_load(&seq[before]);
    sa = after == NO_TASK ? UINT64_MAX : atomic_load(&seq[after]);
    if (sb == 0 || sb >= sa)
        violation(what, before, after);
}

static int new_task(int s)
{
    int id = ntasks++;
    deps[id].prev = last_task[s];
    deps[id].nwaited = npending[s];
    memcpy(deps[id].waited, pending[s], sizeof(int) * (size_t)npending[s]);
    npending[s] = 0;
    last_task[s] = id;
    return id;
}

static int launch(aclrtFuncHandle k, aclrtStream *st, int s)
{
    int id = new_task(s);
    aclError rc;
    if (below(3) == 0)
        rc = aclrtLaunchHostFunc(st[s], host_log, (void *)(intptr_t)id);
    else
        rc = aclrtLaunchKernel(k, 1 + below(4), &id, sizeof(id), st[s]);
    if (rc != ACL_SUCCESS) {
        fprintf(stderr, "aclcpu-dag-stress: a launch failed: %d %s\n", rc, aclGetRecentErrMsg());
        exit(1);
    }
    return id;
}

/* After a stream sync: every task issued on s has run (walk its chain). */
static void check_synced_stream(int s)
{
    for (int t = last_task[s]; t != NO_TASK; t = deps[t].prev)
        check_before("stream sync returned before its task ran", t, NO_TASK);
}

/* At the end of a round: each task ran once and after its predecessors. */
static void check_round(void)
{
    for (int t = 0; t < ntasks; t++) {
        checks++;
        if (atomic_load(&runs[t]) != 1)
            violation(atomic_load(&runs[t]) == 0 ? "task never ran" : "task ran more than once", t, NO_TASK);
        check_before("stream order", deps[t].prev, t);
        for (int i = 0; i < deps[t].nwaited; i++)
            check_before("event wait released before its record's work", deps[t].waited[i], t);
    }
}

static void one_op(aclrtFuncHandle k, aclrtStream *st, aclrtEvent *ev)
{
    int s = (int)below((uint32_t)opt.streams), e = (int)below((uint32_t)opt.events);
    uint32_t roll = below(100);
    if (roll < 50) {
        launch(k, st, s);
    } else if (roll < 68) {
        if (aclrtRecordEvent(ev[e], st[s]) == ACL_SUCCESS)
            record_of[e] = last_task[s];
    } else if (roll < 88) {
        if (aclrtStreamWaitEvent(st[s], ev[e]) == ACL_SUCCESS && record_of[e] != NO_TASK &&
            npending[s] < MAX_EVENTS)
            pending[s][npending[s]++] = record_of[e];
    } else if (roll < 94) {
        if (aclrtSynchronizeStream(st[s]) != ACL_SUCCESS)
            violation("aclrtSynchronizeStream failed", s, NO_TASK);
        check_synced_stream(s);
    } else if (roll < 99) {
        int rec = record_of[e];
        if (aclrtSynchronizeEvent(ev[e]) != ACL_SUCCESS)
            violation("aclrtSynchronizeEvent failed", e, NO_TASK);
        check_before("event sync returned before its record's work", rec, NO_TASK);
    } else {
        if (aclrtSynchronizeDevice() != ACL_SUCCESS)
            violation("aclrtSynchronizeDevice failed", 0, NO_TASK);
        for (int i = 0; i < opt.streams; i++)
            check_synced_stream(i);
    }
}

static void run_round(aclrtFuncHandle k, aclrtStream *st, aclrtEvent *ev, uint64_t n)
{
    ntasks = 0;
    atomic_store(&clock_seq, 0);
    for (uint64_t i = 0; i < n; i++) {
        atomic_store(&seq[i], 0);
        atomic_store(&runs[i], 0);
    }
    for (int s = 0; s < opt.streams; s++)
        last_task[s] = NO_TASK, npending[s] = 0;
    /* Fresh events each round: a wait on one of them before its first
     * record is a wait on a never-recorded event. */
    for (int e = 0; e < opt.events; e++) {
        record_of[e] = NO_TASK;
        if (aclrtCreateEvent(&ev[e]) != ACL_SUCCESS)
            exit(1);
    }
    for (uint64_t i = 0; i < n; i++)
        one_op(k, st, ev);
    if (aclrtSynchronizeDevice() != ACL_SUCCESS)
        violation("aclrtSynchronizeDevice failed", 0, NO_TASK);
    check_round();
    for (int e = 0; e < opt.events; e++)
        aclrtDestroyEvent(ev[e]);
}

int main(int argc, char **argv)
{
    aclrtStream st[MAX_STREAMS];
    aclrtEvent ev[MAX_EVENTS];
    aclrtFuncHandle k;
    struct timespec t0, t1;
    uint64_t done = 0;

    for (int i = 1; i + 1 < argc; i += 2) {
        uint64_t v = strtoull(argv[i + 1], NULL, 0);
        if (!strcmp(argv[i], "--seed")) opt.seed = v;
        else if (!strcmp(argv[i], "--ops")) opt.ops = v;
        else if (!strcmp(argv[i], "--round")) opt.round = v ? v : 1;
        else if (!strcmp(argv[i], "--streams")) opt.streams = v < 1 ? 1 : v > MAX_STREAMS ? MAX_STREAMS : (int)v;
        else if (!strcmp(argv[i], "--events")) opt.events = v < 1 ? 1 : v > MAX_EVENTS ? MAX_EVENTS : (int)v;
        else {
            fprintf(stderr, "usage: aclcpu-dag-stress [--seed S] [--ops N] [--streams K] [--events E] [--round R]\n");
            return 2;
        }
    }
    rng = opt.seed * 0x9E3779B97F4A7C15ull + 7;
    seq = calloc(opt.round, sizeof(*seq));
    runs = calloc(opt.round, sizeof(*runs));
    deps = calloc(opt.round, sizeof(*deps));
    if (seq == NULL || runs == NULL || deps == NULL || aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclcpuRegisterKernel("dag_log", kern_log, &k) != ACL_SUCCESS)
        return 1;
    for (int s = 0; s < opt.streams; s++)
        if (aclrtCreateStream(&st[s]) != ACL_SUCCESS)
            return 1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (done < opt.ops) {
        uint64_t n = opt.ops - done < opt.round ? opt.ops - done : opt.round;
        run_round(k, st, ev, n);
        done += n;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (int s = 0; s < opt.streams; s++)
        aclrtDestroyStream(st[s]);
    aclrtResetDevice(0);
    aclFinalize();
    free(seq);
    free(runs);
    free(deps);
    printf("aclcpu-dag-stress: seed %llu, %llu operations on %d streams and %d events, %llu checks, %.1f s: "
           "%llu violations\n",
           (unsigned long long)opt.seed, (unsigned long long)opt.ops, opt.streams, opt.events,
           (unsigned long long)checks,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           (unsigned long long)violations);
    return violations ? 1 : 0;
}
