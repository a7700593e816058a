/*
 * episodes_rule.c - the main stream by structure and overlap_pct per
 * fork/join episode (src/services/episodes.c) on hand-built kernels and
 * event edges: late join (real), early join (serialised: fake, and never
 * "1.00 real" over three iterations), no join, three streams (a copy
 * stream feeding main), a side stream busier than main, the --main choice,
 * the step marks' stream and busy time as the fallbacks, the earliest fork
 * between equals, the most forks between equal joins, no early join without
 * a join, per-step totals, and the 0.5 boundary. CTest runs it (test
 * "episodes_rule"); exit 0 when every check passed.
 */
#include <math.h>
#include <stdio.h>

#include "services/episodes.h"

static int failed;

#define EXPECT(cond)                                                       \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failed++;                                                      \
        }                                                                  \
    } while (0)

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_EP 16

struct run {
    struct ep_episode ep[MAX_EP];
    struct ep_result r;
};

static void judge(const struct ep_kernel *k, size_t nk, const struct ep_edge *e, size_t ne, int step_stream,
                  int forced, int busiest, struct run *out)
{
    struct ep_input in = {k, nk, e, ne, step_stream, forced, busiest};
    out->r.ep = out->ep;
    episodes_judge(&in, &out->r);
}

/* Main 0 forks side 1 (event 1) at 10, the side runs [11, 61) (busier than
 * main), main runs [10, 40) before waiting for the join (event 2). */
static void late_join_is_real_and_main_is_the_forking_stream(void)
{
    struct ep_kernel k[] = {{0, -1, 0, 10}, {0, -1, 10, 40}, {1, -1, 11, 61}, {0, -1, 62, 70}};
    struct ep_edge e[] = {{1, 0, 1, 10, 11}, {2, 1, 0, 61, 62}};
    struct run x;
    struct ep_total t;
    judge(k, N(k), e, N(e), -1, -1, 1, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_FORK_JOIN && x.r.nep == 1 && x.r.complete == 1);
    EXPECT(x.ep[0].side == 1 && x.ep[0].join_event == 2 && !x.ep[0].early && x.ep[0].main_kernels == 1);
    EXPECT(fabs(x.ep[0].overlap_us - 29) < 1e-9 && fabs(x.ep[0].pct - 29.0 / 30.0) < 1e-9);
    EXPECT(x.ep[0].verdict == OVERLAP_VERDICT_REAL);
    episodes_total(&x.r, EP_ANY_STEP, EP_ANY_SIDE, &t);
    EXPECT(t.episodes == 1 && t.real == 1 && t.verdict == OVERLAP_VERDICT_REAL);
}

/* Three iterations, each: main records the fork, waits for the join right
 * away, then runs its kernel: the side's work never overlaps. */
static void early_join_is_fake_in_every_iteration(void)
{
    struct ep_kernel k[6];
    struct ep_edge e[6];
    struct run x;
    struct ep_total t;
    for (int i = 0; i < 3; i++) {
        double b = 100.0 * i;
        k[2 * i] = (struct ep_kernel){1, i + 1, b + 1, b + 41};
        k[2 * i + 1] = (struct ep_kernel){0, i + 1, b + 42, b + 92};
        e[2 * i] = (struct ep_edge){10 + i, 0, 1, b, b + 1};
        e[2 * i + 1] = (struct ep_edge){20 + i, 1, 0, b + 41, b + 42};
    }
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.main_stream == 0 && x.r.nep == 3 && x.r.complete == 3);
    for (size_t i = 0; i < x.r.nep; i++)
        EXPECT(x.ep[i].early && x.ep[i].pct == 0 && x.ep[i].verdict == OVERLAP_VERDICT_FAKE &&
               x.ep[i].step == (int)i + 1 && x.ep[i].side_kernels == 1);
    episodes_total(&x.r, EP_ANY_STEP, EP_ANY_SIDE, &t);
    EXPECT(t.episodes == 3 && t.fake == 3 && t.early == 3 && t.pct == 0 && t.verdict == OVERLAP_VERDICT_FAKE);
    episodes_total(&x.r, 2, EP_ANY_SIDE, &t);
    EXPECT(t.episodes == 1 && t.verdict == OVERLAP_VERDICT_FAKE);
    episodes_total(&x.r, 4, EP_ANY_SIDE, &t);
    EXPECT(t.episodes == 0 && t.pct == 0);
}

/* Main forks the side and never waits for it: one episode, no join; the
 * main kernels after the fork hide the side's work. */
static void no_join_is_an_episode_without_a_join(void)
{
    struct ep_kernel k[] = {{1, -1, 1, 21}, {0, -1, 2, 50}};
    struct ep_edge e[] = {{5, 0, 1, 1, 1}};
    struct run x;
    struct ep_total t;
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_FORK_JOIN && x.r.nep == 1 && x.r.complete == 0);
    EXPECT(x.ep[0].join_event == -1 && x.ep[0].join_t == -1 && x.ep[0].side_to == 21 && !x.ep[0].early);
    EXPECT(fabs(x.ep[0].overlap_us - 19) < 1e-9 && x.ep[0].verdict == OVERLAP_VERDICT_REAL);
    episodes_total(&x.r, EP_ANY_STEP, EP_ANY_SIDE, &t);
    EXPECT(t.no_join == 1 && t.episodes == 1);
}

/* Copy stream 2 fills a buffer main 0 waits for (event 30+i) and waits for
 * main to free it (event 40+i); main forks and joins side 1 each
 * iteration. Main is 0: it joins the most episodes. */
static void three_streams_main_joins_the_most(void)
{
    struct ep_kernel k[9];
    struct ep_edge e[12];
    size_t ne = 0;
    struct run x;
    struct ep_total t;
    for (int i = 0; i < 3; i++) {
        double b = 100.0 * i;
        k[3 * i] = (struct ep_kernel){2, -1, b, b + 5};
        k[3 * i + 1] = (struct ep_kernel){0, -1, b + 7, b + 57};
        k[3 * i + 2] = (struct ep_kernel){1, -1, b + 7, b + 47};
    }
    for (int i = 0; i < 3; i++) {
        double b = 100.0 * i;
        e[ne++] = (struct ep_edge){30 + i, 2, 0, b + 5, b + 6};
        e[ne++] = (struct ep_edge){10 + i, 0, 1, b + 6, b + 7};
        e[ne++] = (struct ep_edge){20 + i, 1, 0, b + 47, b + 57};
        e[ne++] = (struct ep_edge){40 + i, 0, 2, b + 57, b + 58};
    }
    judge(k, N(k), e, ne, -1, -1, 0, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_FORK_JOIN);
    episodes_total(&x.r, EP_ANY_STEP, 1, &t);
    EXPECT(t.episodes == 3 && t.real == 3 && t.verdict == OVERLAP_VERDICT_REAL);
    episodes_total(&x.r, EP_ANY_STEP, 2, &t);
    /* Main's buffer-free forks of the copy stream: main waits for the next
     * copy right away (one buffer), so those are serialised; the last one,
     * after which the copy stream runs nothing, is no episode. */
    EXPECT(t.episodes == 2 && t.early == 2 && t.no_join == 0 && t.verdict == OVERLAP_VERDICT_FAKE);
    /* Stream 2 ranks below: its episodes with main are fewer. */
    judge(k, N(k), e, ne, -1, 2, 0, &x);
    EXPECT(x.r.main_stream == 2 && x.r.by == EP_BY_OPTION);
}

/* One iteration: the side's join edge is no fork of main; with two
 * iterations the side's join and main's next fork look like a side episode,
 * one fewer than main's. */
static void the_side_never_outranks_the_forking_stream(void)
{
    struct ep_kernel k[] = {{1, -1, 1, 100}, {0, -1, 1, 2}, {1, -1, 102, 200}, {0, -1, 102, 103}};
    struct ep_edge e[] = {{1, 0, 1, 0, 1}, {2, 1, 0, 100, 101}, {3, 0, 1, 101, 102}, {4, 1, 0, 200, 201}};
    struct run x;
    judge(k, 2, e, 2, -1, -1, 1, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_FORK_JOIN);
    judge(k, N(k), e, N(e), -1, -1, 1, &x);
    EXPECT(x.r.main_stream == 0 && x.r.nep == 2 && x.r.complete == 2);
}

/* The join is recorded after the side's fork wait: an edge back from the
 * side recorded before it (released later) is no join of this fork. */
static void a_record_before_the_fork_wait_is_no_join(void)
{
    struct ep_kernel k[] = {{1, -1, 0, 50}, {0, -1, 10, 60}, {1, -1, 50, 80}};
    struct ep_edge e[] = {{1, 0, 1, 10, 50}, {2, 1, 0, 40, 60}, {3, 1, 0, 80, 90}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.main_stream == 0 && x.r.nep == 1 && x.ep[0].join_event == 3 && x.ep[0].side_to == 80);
}

/* Streams 3 and 0 each fork and join one side once: equal in joined
 * episodes, forks and step marks (none). The one that forked first (3, at
 * 1) is main, ahead of the lowest id (0, which forks at 101). */
static void between_equals_the_main_stream_is_the_one_that_forked_first(void)
{
    struct ep_kernel k[] = {{4, -1, 1, 50}, {1, -1, 101, 150}};
    struct ep_edge e[] = {{1, 3, 4, 0, 1}, {2, 4, 3, 50, 51}, {3, 0, 1, 100, 101}, {4, 1, 0, 150, 151}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, -1, &x);
    EXPECT(x.r.main_stream == 3 && x.r.by == EP_BY_FORK_JOIN);
}

/* Streams 0 and 1 join nothing (equal at 0 joined episodes): 0 forks side
 * 2 once, first (at 1); 1 forks side 3 twice (at 5 and 7). The one with
 * the most forks is main: 1, ahead of the earlier fork and the lower id. */
static void between_equal_joins_the_main_stream_is_the_one_with_the_most_forks(void)
{
    struct ep_kernel k[] = {{2, -1, 2, 20}, {3, -1, 6, 30}};
    struct ep_edge e[] = {{1, 0, 2, 1, 2}, {2, 1, 3, 5, 6}, {3, 1, 3, 7, 8}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, -1, &x);
    EXPECT(x.r.main_stream == 1 && x.r.by == EP_BY_FORK_JOIN && x.r.complete == 0);
}

/* A fork never joined, after which main runs nothing: no main kernel
 * hides the side, yet it is no early join (there is no join at all). */
static void an_episode_without_a_join_is_never_early(void)
{
    struct ep_kernel k[] = {{0, -1, 0, 1}, {1, -1, 1, 21}};
    struct ep_edge e[] = {{5, 0, 1, 1, 1}};
    struct run x;
    struct ep_total t;
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.main_stream == 0 && x.r.nep == 1 && x.ep[0].join_event == -1 && x.ep[0].main_kernels == 0);
    EXPECT(!x.ep[0].early);
    episodes_total(&x.r, EP_ANY_STEP, EP_ANY_SIDE, &t);
    EXPECT(t.early == 0 && t.no_join == 1);
}

static void fallbacks_step_marks_then_busy_time(void)
{
    struct ep_kernel k[] = {{0, -1, 0, 10}, {1, -1, 0, 50}};
    struct run x;
    judge(k, N(k), NULL, 0, 0, -1, 1, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_STEP_MARKS && x.r.nep == 0);
    judge(k, N(k), NULL, 0, -1, -1, 1, &x);
    EXPECT(x.r.main_stream == 1 && x.r.by == EP_BY_BUSY_TIME);
    judge(k, 0, NULL, 0, -1, -1, -1, &x);
    EXPECT(x.r.main_stream == -1 && x.r.by == EP_BY_NONE);
    EXPECT(episodes_by_name(EP_BY_FORK_JOIN)[0] == 'f' && episodes_by_name(EP_BY_BUSY_TIME)[0] == 'b');
}

/* Side [1, 21), main hides [11, 51): overlap 10 of min(20, 40) = 0.5, real;
 * main from 11.01: 9.99 / 20, partial. */
static void half_hidden_is_real_at_the_boundary(void)
{
    struct ep_kernel k[] = {{1, -1, 1, 21}, {0, -1, 11, 51}}, k2[] = {{1, -1, 1, 21}, {0, -1, 11.01, 51}};
    struct ep_edge e[] = {{1, 0, 1, 1, 1}, {2, 1, 0, 21, 51}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.ep[0].pct == 0.5 && x.ep[0].verdict == OVERLAP_VERDICT_REAL);
    judge(k2, N(k2), e, N(e), -1, -1, 0, &x);
    EXPECT(x.ep[0].pct < 0.5 && x.ep[0].verdict == OVERLAP_VERDICT_PARTIAL);
}

/* Streams 3 and 0 fork at the same moment and join once each: equal in
 * everything the ranking reads, so the lower id (0) is main. */
static void between_complete_equals_the_lower_stream_id_is_main(void)
{
    struct ep_kernel k[] = {{1, -1, 1, 50}, {4, -1, 1, 50}};
    struct ep_edge e[] = {{1, 3, 4, 0, 1}, {3, 0, 1, 0, 1}, {2, 4, 3, 50, 51}, {4, 1, 0, 50, 51}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, -1, &x);
    EXPECT(x.r.main_stream == 0 && x.r.by == EP_BY_FORK_JOIN);
}

/* An overlap under the tolerance is none: side [1, 21) and main's hiding
 * kernel from 20.999 meet for 0.001 us, read as 0 (fake). A side kernel
 * starting exactly at the window's low end (the fork's release less the
 * tolerance) is the episode's. */
static void an_overlap_under_the_tolerance_is_none_and_the_window_includes_its_start(void)
{
    struct ep_kernel k[] = {{1, -1, 1, 21}, {0, -1, 20.999, 51}};
    struct ep_kernel k2[] = {{1, -1, 1 - OVERLAP_EPS_US, 21}, {0, -1, 11, 51}};
    struct ep_edge e[] = {{1, 0, 1, 1, 1}, {2, 1, 0, 21, 51}};
    struct run x;
    judge(k, N(k), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.nep == 1 && x.ep[0].overlap_us == 0 && x.ep[0].pct == 0);
    EXPECT(x.ep[0].verdict == OVERLAP_VERDICT_FAKE);
    judge(k2, N(k2), e, N(e), -1, -1, 0, &x);
    EXPECT(x.r.nep == 1 && x.ep[0].side_kernels == 1);
}

int main(void)
{
    late_join_is_real_and_main_is_the_forking_stream();
    early_join_is_fake_in_every_iteration();
    no_join_is_an_episode_without_a_join();
    three_streams_main_joins_the_most();
    the_side_never_outranks_the_forking_stream();
    a_record_before_the_fork_wait_is_no_join();
    between_equals_the_main_stream_is_the_one_that_forked_first();
    between_equal_joins_the_main_stream_is_the_one_with_the_most_forks();
    an_episode_without_a_join_is_never_early();
    fallbacks_step_marks_then_busy_time();
    half_hidden_is_real_at_the_boundary();
    between_complete_equals_the_lower_stream_id_is_main();
    an_overlap_under_the_tolerance_is_none_and_the_window_includes_its_start();
    printf("episodes_rule: %s\n", failed ? "FAILED" : "ok");
    return failed ? 1 : 0;
}
