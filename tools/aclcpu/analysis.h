/*
 * analysis.h - the numbers every subcommand shares, computed from the
 * kernel rows the same way on aclcpu's files and on Ascend's: interval
 * unions (Computing, Free, busy), per-stream figures, top kernels, the
 * sweep of Block Num demand against the cores, and overlap_pct per
 * stream pair (the library's rule, services/overlap.h; docs/profile-format.md).
 */
#ifndef ACLCPU_CLI_ANALYSIS_H
#define ACLCPU_CLI_ANALYSIS_H

#include "profile.h"
#include "services/episodes.h"
#include "services/overlap.h"

/* The files' times have 3 decimals, so start + duration can miss the next
 * start by 0.001 us: times closer than this are the same time (one
 * tolerance for the command and the overlap rule). */
#define EPS_US OVERLAP_EPS_US

/* Sorts and merges iv[0..n) in place (intervals that meet within EPS_US
 * merge); returns the merged count. */
size_t intervals_union(struct interval *iv, size_t n);
double intervals_length(const struct interval *iv, size_t n);

struct totals {
    double first, last;  /* the earliest task start, the latest task end */
    double e2e, computing, free;
    size_t kernels;
};

/* E2E over every task (kernels, and the trace's other tasks); Computing =
 * the union of kernel intervals (communication excluded); Free = E2E -
 * Computing. */
void profile_totals(const struct profile *p, struct totals *t);
/* The union of the kernel intervals (the Computing lane), in the arena. */
size_t computing_intervals(const struct profile *p, struct arena *a, struct interval **out);

struct stream_stat {
    int stream;
    size_t kernels;  /* kernel rows */
    size_t tasks;    /* trace tasks (0 without trace_view.json) */
    double busy;     /* union of its kernel intervals */
    double first, last;
    double gaps;     /* last - first - busy */
    const struct task *const *list; /* its kernels, by start */
};

/* Streams with kernels or trace tasks, by id; Stream ID N/A rows left out. */
size_t stream_stats(const struct profile *p, struct arena *a, struct stream_stat **out);

struct kernel_group {
    const char *name;
    enum engine engine;
    size_t count;
    double total, max;
};

/* Kernels grouped by name, by total time (longest first). */
size_t top_kernels(const struct profile *p, struct arena *a, struct kernel_group **out);

/* An interval in which the kernels running at once asked one pool for more
 * blocks than it has cores. */
struct over_span {
    double start, end;
    unsigned demand;             /* the most asked for inside it */
    const struct task **kernels; /* every kernel that ran in it */
    size_t nkernels;
};

/* Launches of one kernel (stream, name, blocks) that ask the pool alone
 * for more blocks than it has cores: they run in waves of at most the
 * cores, which is the launch's shape, not contention between streams. */
struct wide_launch {
    int stream;
    const char *name;
    unsigned blocks, waves;
    size_t launches;
    const struct task *first; /* the earliest of them */
};

struct pool_usage {
    enum pool pool;
    unsigned cores, peak; /* peak: the most blocks running at once */
    double peak_at;
    double over_us;
    struct over_span *spans;
    size_t nspans;
    bool queued; /* spans are summary.json's: kernels running or ready and queued */
    struct wide_launch *wide;
    size_t nwide;
};

/* The running-at-once sweep: the peak, and the spans in which kernels of
 * at least two streams running at once ask for more blocks than the pool
 * has (each stream counting the most one of its running kernels asks:
 * overlapping rows of one stream are not concurrent kernels); and the
 * launches wider than the pool on their own. */
void pool_sweep(const struct profile *p, enum pool pool, struct arena *a, struct pool_usage *u);
/* The sweep's peak, and the spans over the cores: summary.json's when the
 * profile has them and its cores are the ones counted against (on the
 * modelled chip a kernel that asks for busy cores queues, so kernels never
 * run over the cores and only the ready times show the contention), else
 * the sweep's (Ascend's own CSVs, the measured clock, --soc elsewhere). */
void pool_usage(const struct profile *p, enum pool pool, struct arena *a, struct pool_usage *u);

/* The kernel row of (stream, task id), or NULL; index is every kernel
 * sorted by kernels_by_key. */
const struct task **kernels_by_key(const struct profile *p, struct arena *a);
const struct task *kernel_of_key(const struct task *const *index, size_t n, int stream, long task_id);

enum verdict { VERDICT_REAL = OVERLAP_VERDICT_REAL, VERDICT_PARTIAL = OVERLAP_VERDICT_PARTIAL,
               VERDICT_FAKE = OVERLAP_VERDICT_FAKE };
const char *verdict_name(enum verdict v);

/* The program's structure (services/episodes.h, the library's rule, as in
 * summary.json): the main stream, how it was chosen, and its fork/join
 * episodes, from the kernel rows and trace_view.json's event edges. */
struct structure {
    struct ep_input in;          /* the kernels and edges it was judged on (in the arena) */
    const struct task **task_of; /* in.k[i] is kernel task_of[i] */
    struct ep_result r;
    struct ep_total run; /* every episode */
    int *steps;          /* the distinct steps of the episodes, ascending (none: no step marks) */
    size_t nsteps;
};

/* --main (p->forced_main) wins; then fork/join, the step marks' stream,
 * and busy time (st: the stream stats) as the last resort. */
void profile_structure(const struct profile *p, const struct stream_stat *st, size_t n, struct arena *a,
                       struct structure *s);
/* "fork/join: it records the events ...": how the main stream was chosen, for the output. */
const char *main_reason(enum ep_main_by by);

struct pair {
    int main, side;
    enum ep_main_by by;           /* how main was chosen */
    bool by_episodes;             /* pct and verdict are the total of the side's fork/join episodes */
    struct ep_total total;        /* that total (by_episodes) */
    const struct ep_episode *worst; /* the lowest-scoring episode: the window and dominator are its */
    struct interval side_window;
    const struct task *dominator; /* the main-stream kernel that should hide the side window */
    bool dominator_by_length;     /* nothing meets the side window: the longest one, the op that should have
                                     hidden it (summary.json then has "dominator": null) */
    double overlap_us, pct;
    enum verdict verdict;
};

/* With a main stream by structure (or --main): main and each other stream
 * that ran kernels, judged on their fork/join episodes when they have any
 * (the window and dominator then come from the worst episode), else over
 * the whole run with that main. With main by busy time: every pair of
 * streams that both ran kernels, main the busier (the old rule). */
size_t stream_pairs(const struct stream_stat *st, size_t n, const struct structure *s, struct arena *a,
                    struct pair **out);

#endif
