/*
 * episodes.h - triage on the program's structure: which stream is main
 * (the one that forks side streams and joins them back, by events), and
 * how well each fork/join episode hid its side work behind the main
 * stream's kernels. One implementation, used by summary.json
 * (profsummary.c) and by the aclcpu command (doctor, summary, timeline),
 * fed the structure as plain data: kernels and event edges. The rule is
 * written out in docs/profile-format.md ("The overlap rule").
 */
#ifndef ACLCPU_EPISODES_H
#define ACLCPU_EPISODES_H

#include <stdbool.h>
#include <stddef.h>

#include "overlap.h"

/* A kernel: its stream, its interval in us, its step (-1: none marked). */
struct ep_kernel {
    int stream;
    int step;
    double start, end;
};

/* An event edge: a record on rec_stream, done at rec_t, released a wait on
 * wait_stream at wait_t (wait_t >= rec_t). */
struct ep_edge {
    int event_id;
    int rec_stream, wait_stream;
    double rec_t, wait_t;
};

enum ep_main_by {
    EP_BY_OPTION,     /* the caller named it (--main) */
    EP_BY_FORK_JOIN,  /* it forks and joins the most episodes */
    EP_BY_STEP_MARKS, /* it carries the step marks (no fork/join decided) */
    EP_BY_BUSY_TIME,  /* no edges, no step marks: the busiest stream (last resort) */
    EP_BY_NONE        /* no kernels */
};

struct ep_input {
    const struct ep_kernel *k; /* sorted by start */
    size_t nk;
    const struct ep_edge *e;   /* sorted by wait_t */
    size_t ne;
    int step_stream;           /* the stream the step marks were taken on, -1: unknown */
    int forced_main;           /* -1: choose */
    int busiest;               /* the stream with the most busy time (the caller's), -1: none */
};

/* One fork/join episode of the main stream with one side stream. */
struct ep_episode {
    int side;
    int fork_event, join_event; /* join_event -1: never joined */
    double fork_t;    /* main's record of the fork event done */
    double side_from; /* the side's wait on it released */
    double side_to;   /* the side's record of the join event (no join: the end of its last kernel) */
    double join_t;    /* main's wait on the join event released (no join: -1) */
    int step;         /* the step of its first kernel, -1: none */
    size_t side_kernels, main_kernels; /* main_kernels: main's kernels issued between fork and join */
    double side_us;    /* union of the side's kernels in the episode */
    double hide_us;    /* union of those main kernels: what is meant to hide the side's work */
    double overlap_us; /* |side union ∩ hide union| */
    double pct;        /* overlap_us / min(side_us, hide_us); / side_us when hide_us is 0 */
    enum overlap_verdict verdict;
    bool early;        /* joined with no main kernel issued between fork and join: serialised */
};

/* The verdict of a set of episodes: sum of overlap over sum of bases. */
struct ep_total {
    size_t episodes, real, partial, fake, early, no_join;
    double overlap_us, base_us, pct;
    enum overlap_verdict verdict;
};

struct ep_result {
    int main_stream;    /* -1: no kernels */
    enum ep_main_by by;
    size_t complete;    /* the main stream's joined episodes (with side work) */
    struct ep_episode *ep; /* the caller's array, ne + 1 long */
    size_t nep;
};

/* Chooses the main stream and lists its episodes (ordered by the side's
 * fork wait) into r->ep, which the caller sized ne + 1. A fork after
 * which the side ran no kernel is no episode (nothing to hide). */
void episodes_judge(const struct ep_input *in, struct ep_result *r);

/* Totals of the episodes of step `step` (EP_ANY_STEP: all) and side
 * `side` (EP_ANY_SIDE: all). */
#define EP_ANY_STEP (-2)
#define EP_ANY_SIDE (-2)
void episodes_total(const struct ep_result *r, int step, int side, struct ep_total *t);

/* Main and one side stream as a pair: the total of the side's episodes,
 * and what explains the worst of them (the lowest overlap_pct, the first
 * of equals): the side's window in it (its kernels' first start and last
 * end) and the main kernel that should hide it. That dominator is the
 * main kernel issued between fork and join that meets the window most;
 * none meeting it, the longest of those (by_length); none issued there
 * (an early join), the longest issued after the join and before the next
 * fork of the side (by_length); none at all, main's longest kernel. */
struct ep_pair {
    const struct ep_episode *worst; /* NULL: the side has no episode */
    struct ep_total total;
    double win_lo, win_hi;
    long dominator; /* index in in->k, -1: main ran no kernel */
    bool by_length;
};
void episodes_pair(const struct ep_input *in, const struct ep_result *r, int side, struct ep_pair *p);

const char *episodes_by_name(enum ep_main_by by);

#endif
