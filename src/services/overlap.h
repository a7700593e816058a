/*
 * overlap.h - the overlap_pct rule of one pair of streams: is the side
 * stream's work really hidden behind a main-stream kernel? One
 * implementation, used by summary.json (profsummary.c) and by the aclcpu
 * command (doctor, summary, timeline), so the two never disagree. The rule
 * is written out in docs/profile-format.md ("The overlap rule").
 *
 * Plain data in, plain data out: the kernels of each stream as intervals
 * in us, sorted by start, on the files' clock (times with three decimals).
 */
#ifndef ACLCPU_OVERLAP_H
#define ACLCPU_OVERLAP_H

#include <stddef.h>

/* The files print times with three decimals, so start + duration can miss
 * the next start by 0.001 us: times closer than this are the same time. */
#define OVERLAP_EPS_US 0.0015
/* overlap_pct at or above this: the overlap is real; at or below FAKE: fake. */
#define OVERLAP_REAL 0.5
#define OVERLAP_FAKE 0.05

struct overlap_iv {
    double start, end;
};

enum overlap_verdict { OVERLAP_VERDICT_REAL, OVERLAP_VERDICT_PARTIAL, OVERLAP_VERDICT_FAKE };

struct overlap_result {
    int b_is_main;         /* stream b is the main stream (else a) */
    double side_lo, side_hi; /* the side window: first start to last end of the side's kernels */
    long dominator;        /* index in the main stream's kernels, -1: none meets the side window */
    long longest;          /* the main stream's longest kernel: the one that should hide the window */
    double overlap_us;     /* |side window ∩ dominator|, 0 without one */
    double pct;            /* overlap_us / min(side window, dominator), 0 without one */
    enum overlap_verdict verdict;
};

/* Judges the pair (a, b): a and b are the kernels of two streams, each
 * sorted by start, both non-empty; a is the stream of the lower id, which
 * is main unless b is busier by more than OVERLAP_EPS_US. */
void overlap_judge(const struct overlap_iv *a, size_t na, const struct overlap_iv *b, size_t nb,
                   struct overlap_result *r);

/* The same with the main stream known (the program's structure, or the
 * user, said which): b_is_main is 0. */
void overlap_judge_main(const struct overlap_iv *main_k, size_t nmain, const struct overlap_iv *side, size_t nside,
                        struct overlap_result *r);

/* The verdict of an overlap_pct (a pct of exactly 0.5 is real). */
enum overlap_verdict overlap_verdict_of(double pct);
const char *overlap_verdict_name(enum overlap_verdict v);

/* A time in us as the files print it, in ns (the nearest thousandth of a
 * us). The aclcpu command reads the files' times into exact ns and makes
 * (ns - origin) / 1000.0 of them; summary.json does the same with these,
 * so both judge bit-identical intervals. */
long long overlap_file_ns(double us);

#endif
