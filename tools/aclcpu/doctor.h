/*
 * doctor.h - the triage of docs/multistream.md §3 on a profile.
 *
 * The checks, in the guide's order (docs/multistream.md §3.2):
 *   3a  side-stream ops never left the main stream
 *   3b  fake (or partial) parallelism: overlap_pct per stream pair, and
 *       what serialised the pair (the barrier op, a wait, or cores)
 *   3c  real overlap without speed-up: core contention (Block Num sums of
 *       concurrent kernels against the cores), batch-mode kernels that
 *       could not start, a stream with a tail under a core limit
 *   and the acceptance checks: Block Num over the limit in force, waits
 *   that left EVENT_WAIT gaps after the join.
 * Each finding names kernels and streams, the number behind it, and the
 * remedy from routes.def for the program's execution path. What a profile
 * cannot tell is listed as not checked, never guessed.
 */
#ifndef ACLCPU_CLI_DOCTOR_H
#define ACLCPU_CLI_DOCTOR_H

#include "analysis.h"
#include "routes.h"

/* A wait that held its stream, from summary.json or trace_view.json. */
struct wait_fact {
    int stream;
    long task_id;
    int event_id;
    int recorded_on; /* -1 unknown */
    double start, end, wait;
};

/* Remedy steps in the guide's order (docs/multistream.md §2.1: step 3 before step 4). */
enum remedy_order { ORDER_DEPENDENCIES = 1, ORDER_CORE_LIMITS, ORDER_STREAM_LIMITS, ORDER_PREFETCH };

#define FINDING_TEXT 1024
#define FINDING_NUMBERS 8

struct finding_number {
    const char *key;
    double value;
    int decimals;
};

struct finding {
    const char *kind;   /* "fake_parallel", "core_contention", ... */
    const char *seed;   /* "3a", "3b", "3c", "acceptance" */
    enum remedy_order order;
    enum route_problem problem;
    int streams[4];
    int nstreams;
    char title[256];
    char facts[FINDING_TEXT];
    char cause[FINDING_TEXT];  /* what serialised it, or "" */
    char remedy[FINDING_TEXT]; /* the specific fix; the API comes from routes.def */
    struct finding_number numbers[FINDING_NUMBERS];
    int nnumbers;
};

/* A core limit the user states for a bare CSV (--limit STREAM=cNvM). */
struct stated_limit {
    int stream;
    int limit[POOLS]; /* NO_LIMIT where not stated */
};

struct doctor_opts {
    enum route_path path;
    bool path_given;
    const struct stated_limit *limits;
    size_t nlimits;
};

/* What serialised a fake or partial pair. */
enum barrier_kind { BARRIER_NO_TRACE, BARRIER_OP, BARRIER_DOMINATOR_WAITS, BARRIER_SIDE_WAITS, BARRIER_CORES,
                    BARRIER_UNEXPLAINED, BARRIER_CONTENTION };

struct barrier {
    enum barrier_kind kind;
    const struct wait_fact *wait;  /* BARRIER_OP, _DOMINATOR_WAITS, _SIDE_WAITS */
    const struct task *op;         /* BARRIER_OP: the first main-stream op after the wait */
    const struct batch_wait *batch; /* BARRIER_CORES */
    const struct contention *contention; /* BARRIER_CONTENTION: kernels of both streams ready at once over a pool */
};

struct doctor_report {
    struct totals totals;
    struct stream_stat *streams;
    size_t nstreams;
    struct structure structure; /* the main stream and its fork/join episodes */
    struct pair *pairs;
    size_t npairs;
    struct barrier *barriers;   /* one per pair (fake/partial pairs only meaningful) */
    struct wait_fact *waits;
    size_t nwaits;
    struct finding *findings;
    size_t nfindings, cap;
    const char *not_checked[8];
    size_t nnot_checked;
    /* Facts worth knowing that are no finding (the exit code ignores
     * them): launches wider than the cores, which run in waves. */
    const char *notes[8];
    size_t nnotes;
};

/* Runs every check; results live in p's arena and in r (doctor_free). */
void doctor_run(struct profile *p, const struct doctor_opts *o, struct doctor_report *r);
void doctor_free(struct doctor_report *r);

/* The checks, by file: doctor.c (3a, 3b, waits), doctor_contention.c (3c
 * core contention), doctor_cores.c (the rest of 3c and the acceptance
 * checks). */
struct finding *finding_new(struct doctor_report *r, const char *kind, const char *seed, enum remedy_order order,
                            enum route_problem problem);
void finding_number(struct finding *f, const char *key, double value, int decimals);
void finding_stream(struct finding *f, int stream);
/* "name (stream S, task T)" into buf. */
const char *kernel_ref(char *buf, size_t n, const struct task *k);

void check_core_contention(struct profile *p, struct doctor_report *r);
/* Adds text (in p's arena) to r's notes. */
void doctor_note(struct profile *p, struct doctor_report *r, const char *text);
void check_batch_waits(struct profile *p, struct doctor_report *r);
void check_limits(struct profile *p, const struct doctor_opts *o, struct doctor_report *r);
void check_stream_tails(struct profile *p, const struct doctor_opts *o, struct doctor_report *r);
void check_join_gaps(struct profile *p, struct doctor_report *r);

/* Copies and prefetches (trace_view.json) on stream. */
size_t data_tasks(const struct profile *p, int stream);

/* The limit in force for kernel k in pool (trace args, else --limit), or NO_LIMIT. */
int limit_for(const struct task *k, const struct profile *p, const struct doctor_opts *o, enum pool pool);
/* The trace task that is CSV kernel k (same stream and start), or NULL. */
const struct task *trace_task_of(const struct profile *p, const struct task *k);

#endif
