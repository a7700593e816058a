/*
 * profile.h - a profile as the aclcpu command sees it: the kernel rows of
 * kernel_details.csv, and when the directory has them the device tasks and
 * event edges of trace_view.json and the facts of summary.json
 * (docs/profile-format.md). A bare kernel_details.csv written by Ascend's
 * own profiler loads too; what it cannot tell is left marked unknown.
 */
#ifndef ACLCPU_CLI_PROFILE_H
#define ACLCPU_CLI_PROFILE_H

#include <limits.h>

#include "util.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The engine a kernel ran on, from "Accelerator Core" (or "Task Type"). */
enum engine { ENG_CUBE, ENG_VECTOR, ENG_MIX_AIC, ENG_MIX_AIV, ENG_AICPU, ENG_COMM, ENG_OTHER };
/* The two core pools Block Num is counted against. */
enum pool { POOL_CUBE, POOL_VECTOR };
#define POOLS 2

enum task_kind {
    TASK_KERNEL, TASK_EVENT_RECORD, TASK_EVENT_WAIT, TASK_NOTIFY_RECORD, TASK_NOTIFY_WAIT,
    TASK_MEMCPY, TASK_MEMSET, TASK_HOST_FUNC, TASK_CMO, TASK_MODEL_RUN, TASK_OTHER
};

enum clock { CLOCK_MODELLED, CLOCK_MEASURED };

#define NO_LIMIT (-1)

/* One device task: a row of kernel_details.csv or an "X" event of the
 * Ascend Hardware process in trace_view.json. */
struct task {
    const char *name;
    const char *core_name;  /* "Accelerator Core" / "Task Type" as written */
    enum task_kind kind;
    enum engine engine;     /* kernels only */
    int stream;             /* -1: the file does not say */
    long task_id;           /* -1: the file does not say */
    int step;               /* -1: no Step Id */
    int event_id;           /* event and notify tasks; -1 otherwise */
    int64_t start_ns;       /* as written (file clock, ns) */
    double start, dur, end; /* µs from the profile's origin */
    unsigned blocks, mix_blocks;
    int limit[POOLS];       /* core limit in force at launch (trace args), NO_LIMIT unknown */
    bool batch;             /* Schedule Mode batch (trace args) */
};

/* An event edge of trace_view.json: the record's end to the wait it released. */
struct edge {
    int event_id;
    int from_stream, to_stream;
    double from_t, to_t;
};

struct interval {
    double start, end;
};

/* Overlap Analysis lanes, in trace_view.json's thread order. */
enum { LANE_COMPUTING, LANE_COMMUNICATION, LANE_COMM_NOT_OVERLAPPED, LANE_FREE, OVERLAP_LANES };
extern const char *const overlap_lane_names[OVERLAP_LANES];

/* summary.json: kernels over their core limit, batch waits, event waits,
 * core contention. */
struct limit_hit {
    int stream;
    long task_id;
    const char *name;
    enum pool pool;
    unsigned blocks, limit;
};

struct batch_wait {
    int stream;
    long task_id;
    const char *name;
    enum pool pool;
    unsigned blocks;
    double ready, start, wait;
};

struct event_wait {
    int stream;
    long task_id;
    int event_id, recorded_on;
    double start, end, wait;
};

/* A kernel as summary.json names it. */
struct task_key {
    int stream;
    long task_id;
};

/* summary.json's core_usage.contention: an interval in which the kernels
 * running or ready and queued for cores asked one pool for more blocks
 * than it has (on the modelled chip they could not all run). */
struct contention {
    enum pool pool;
    double start, end;
    unsigned demand;
    struct task_key *kernels;
    size_t nkernels;
};

/* summary.json's measured_kernels: kernels without a declared cost, whose
 * modelled time is the CPU time they took (a name and engine each). */
struct measured_kernel {
    const char *name, *engine;
    unsigned launches;
    double min, avg, max; /* us */
};

struct soc_info {
    char name[64];
    unsigned cores[POOLS]; /* vector 0: coupled AI Cores, vector work counts as cube */
    char source[160];      /* where the numbers came from, said in the output */
    bool assumed;          /* not from the profile itself */
    /* What a join costs when the stream waited for is on time: the next
     * task's dispatch and the record's release of the wait (us). */
    double sync_us;
};

/* What kernel_details.csv had. */
struct csv_shape {
    bool stream_id, step_id;
    bool block_dim_names; /* "Block Dim" (older Ascend) rather than "Block Num" */
    int metric_columns;   /* PMU metric columns (present and ignored) */
};

struct profile {
    struct arena arena;
    enum clock clock;
    char root[PATH_MAX];   /* the directory of the files, or the CSV's own */
    char csv_path[PATH_MAX];
    char trace_path[PATH_MAX];   /* empty when absent */
    char summary_path[PATH_MAX]; /* empty when absent */
    struct csv_shape csv;
    int64_t origin_ns;     /* the earliest task start, file clock */

    struct task *kernels;  /* kernel_details.csv, sorted by start, stream, task */
    size_t nkernels;
    size_t no_stream;      /* kernel rows whose Stream ID is N/A (communication ops) */
    size_t duplicates;     /* rows dropped as repeats of another of their stream (kdetails.c) */

    bool has_trace;
    struct task *tasks;    /* trace_view.json device tasks, sorted by stream, start */
    size_t ntasks;
    struct edge *edges;
    size_t nedges;
    bool has_overlap_lanes;
    struct interval *overlap[OVERLAP_LANES];
    size_t noverlap[OVERLAP_LANES];

    bool has_summary;
    bool has_facts;        /* summary.json's lists were read (its clock, modelled, is the one analysed) */
    unsigned summary_cores[POOLS]; /* the cores summary.json's contention was judged against */
    struct limit_hit *limits;
    size_t nlimits;
    struct batch_wait *batch_waits;
    size_t nbatch_waits;
    struct event_wait *event_waits;
    size_t nevent_waits;
    struct contention *contention;
    size_t ncontention;
    bool has_measured_list; /* summary.json has measured_kernels (newer aclcpu) */
    struct measured_kernel *measured;
    size_t nmeasured;

    struct soc_info soc;
    int step;              /* the step analysed, -1 all */
    /* With a step selected: the whole profile's kernels and edges as loaded,
     * for the program's structure (the main stream is judged on the whole
     * run, its episodes then kept for the step). NULL without a step. */
    struct task *all_kernels;
    size_t nall_kernels;
    struct edge *all_edges;
    size_t nall_edges;
    int forced_main;       /* --main: the main stream named by the user, -1: chosen by structure */
};

struct load_opts {
    enum clock clock;
    const char *soc;       /* --soc, or NULL */
    bool need_streams;     /* refuse a CSV without Stream ID */
};

/* Loads a profile directory (or a kernel_details.csv file). false and err
 * set on any input error; then the profile holds nothing to free. */
bool profile_load(struct profile *p, const char *path, const struct load_opts *opts, struct cli_error *err);
void profile_free(struct profile *p);

/* Keeps only step `step` (kernels with that Step Id, trace tasks, edges
 * and waits inside its span). */
bool profile_select_step(struct profile *p, int step, struct cli_error *err);
/* The distinct Step Id values, ascending, however many (in p's arena);
 * returns how many (0: no steps). */
size_t profile_steps(struct profile *p, int **steps);

/* Readers, one per file (kdetails.c, traceview.c, sumfile.c). */
bool kdetails_load(struct profile *p, const char *path, bool need_streams, struct cli_error *err);
bool traceview_load(struct profile *p, const char *path, struct cli_error *err);
bool sumfile_load(struct profile *p, const char *path, bool facts, struct cli_error *err);

/* Names. */
enum engine engine_from_name(const char *core);
const char *engine_label(enum engine e);   /* the Accelerator Core spelling */
const char *pool_name(enum pool pool);     /* "cube", "vector" */
enum task_kind task_kind_from_name(const char *name);
bool task_is_wait(const struct task *t);
bool task_is_record(const struct task *t);

/* Blocks kernel t asks of pool (MIX kernels count on both); on a coupled
 * SoC (no vector cores) vector blocks count as cube. */
unsigned task_demand(const struct task *t, enum pool pool, const struct soc_info *soc);

#endif
