/*
 * bench.h - the harness shared by aclcpu-bench's workloads.
 *
 * Each workload (bench_<name>.c) measures the same work on aclcpu and on a
 * peer (PoCL through OpenCL, see peer.h; OpenMP for saxpy) in one run. The
 * harness alternates the sides rep by rep, after a warm-up, takes the median
 * of each side's samples and collects the resulting metrics for the table
 * and the JSON file. Timing is clock_gettime(CLOCK_MONOTONIC).
 */
#ifndef ACLCPU_BENCH_H
#define ACLCPU_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

/* ---- options and sizes ------------------------------------------------------ */

struct bench_opts {
    bool quick;              /* --quick: a few iterations of everything (smoke test) */
    bool no_peer;            /* --no-peer: aclcpu side only */
    const char *json_path;   /* --json PATH */
    const char *only;        /* --only NAME: one workload */
};
extern struct bench_opts g_opts;

/* Picks the full-run or the --quick value. */
#define SIZE(full_run, quick_run) (g_opts.quick ? (quick_run) : (full_run))

/* ---- aclcpu state shared by the workloads --------------------------------------- */

extern aclrtContext g_ctx;        /* the context of device 0, for extra threads */
extern aclrtFuncHandle g_empty;   /* the registered empty kernel */

/* Exits the program with a message when an aclcpu call fails: a broken
 * runtime must fail the smoke test, a slow one never does. */
#define CHECK(call) bench_check((call), #call, __FILE__, __LINE__)
void bench_check(aclError err, const char *what, const char *file, int line);
/* Exits with a message (for failures that are not aclError codes). */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Launches the empty kernel (one block, no arguments) on s. */
void launch_empty(aclrtStream s);

/* ---- time and statistics ------------------------------------------------------- */

uint64_t now_ns(void);
/* Sleeps long enough for idle runtime threads (spinning workers) to park, so
 * that one side's leftovers do not steal the other side's cores. */
void settle(void);
void settle_long(void);
/* Median of n values (sorts v); NAN if n == 0 or any value is NAN. */
double median(double *v, unsigned n);

/* ---- alternating measurement ----------------------------------------------------- */

/* One side of a comparison: sample() runs the work once and returns the
 * figure (NAN when it could not). A NULL sample means "side unavailable". */
struct side {
    const char *name;
    double (*sample)(void *ctx);
    void *ctx;
    bool long_settle;   /* its threads spin long after work (OpenMP): wait longer */
};

/*
 * Runs warm rounds and then reps rounds; each round calls every side once,
 * starting with a different side each round, with settle() after each call
 * (settle_long() after a long_settle side). A side whose sample fails once
 * is not called again.
 * Writes each side's median to out[i] (NAN when unavailable or failing).
 */
void measure_sides(const char *what, unsigned warm, unsigned reps, const struct side *sides, unsigned nsides,
                   double *out);

/* The smallest and largest sample of side i in the last measure_sides()
 * call (NAN when it had none). */
void last_range(unsigned i, double *lo, double *hi);

/*
 * The common case: aclcpu against the peer. peer_fn is skipped when the peer
 * is not available. Writes the medians to *a and *p (NAN when unavailable).
 */
void measure_pair(const char *what, unsigned warm, unsigned reps, double (*acl_fn)(void *), void *acl_ctx,
                  double (*peer_fn)(void *), void *peer_ctx, double *a, double *p);

/* ---- threads ----------------------------------------------------------------------- */

/*
 * Runs body(i, ctx) on n new threads, each after setup(i, ctx) (may be NULL)
 * and a common start barrier. Returns the seconds from the first body's start
 * to the last body's end (thread creation excluded).
 */
double run_threads(unsigned n, void (*setup)(unsigned i, void *ctx), void (*body)(unsigned i, void *ctx), void *ctx);

/*
 * A watchdog that never fails the run: when one workload has gone on for
 * seconds, it prints to stderr that the runtime may be hung, with what each
 * thread of the process is blocked in (/proc/self/task/N/wchan), once per
 * workload. A hang stays a hang (CTest's timeout ends it), but says where.
 */
void watchdog_arm(const char *what, unsigned seconds);
void watchdog_disarm(void);

/* ---- process figures ----------------------------------------------------------------- */

long proc_threads(void);          /* Threads: in /proc/self/status, -1 if unknown */
long proc_rss_bytes(void);        /* VmRSS: in /proc/self/status, -1 if unknown */
long long heap_in_use(void);      /* malloc'd bytes in use (mallinfo2), -1 if unknown */

/* ---- results ------------------------------------------------------------------------- */

enum better { BETTER_LOWER, BETTER_HIGHER };

enum target_kind {
    TGT_NONE,
    TGT_RATIO_LE,   /* aclcpu / peer <= value */
    TGT_RATIO_GE,   /* aclcpu / peer >= value */
    TGT_ABS_LT,     /* aclcpu <  value */
    TGT_ABS_LE,     /* aclcpu <= value */
    TGT_ABS_GE,     /* aclcpu >= value */
};

struct target {
    enum target_kind kind;
    double value;
    const char *text;   /* as printed, e.g. "<= 0.1x peer" */
};
#define TARGET(kind, value, text) ((struct target){(kind), (value), (text)})
#define NO_TARGET TARGET(TGT_NONE, 0, NULL)

/* Records one metric row. peer may be NAN (no peer); peer_name is "pocl",
 * "openmp" or NULL (no peer for this metric). note may be NULL. */
void add_metric(const char *name, const char *unit, double aclcpu, double peer, const char *peer_name,
                enum better better, struct target target, const char *note);
/* Adds a free-text line printed under the table (and in the JSON "notes"). */
void add_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* v as the table prints it ("n/a" for NAN); 8 rotating static buffers, so
 * up to 8 calls may appear in one printf. Main thread only. */
const char *fmt_num(double v);

void print_table(void);
/* Writes the JSON file; returns false (with a message) if it could not. */
bool write_json(const char *path, const char *machine);

/* ---- workloads --------------------------------------------------------------------------- */

void bench_launch_enqueue(void);
void bench_launch_args(void);
void bench_launch_drain(void);
void bench_sync_roundtrip(void);
void bench_event_hop(void);
void bench_host_func(void);
void bench_saxpy_bw(void);
void bench_streams_scale(void);
void bench_mt_launch(void);
void bench_graph_replay(void);
void bench_prof_overhead(void);
void bench_mem_alloc_free(void);
void bench_mem_first_copy(void);
void bench_mem_copy_bw(void);
void bench_mem_overhead(void);
void bench_cache_alloc(void);

/* Shared by launch_enqueue and streams_scale: one aclcpu sample of the
 * host cost of n launches on stream s, in ns per launch (drain excluded). */
double aclcpu_enqueue_sample(aclrtStream s, unsigned n);

/* The OpenMP baseline for saxpy_bw (omp_saxpy.c): false when the bench was
 * built without OpenMP. */
bool omp_available(void);
/* One pass y = a * x + y over n floats with an OpenMP parallel for; returns
 * the seconds it took. */
double omp_saxpy_pass(const float *x, float *y, float a, size_t n);
unsigned omp_threads(void);

#endif
