/*
 * overlap_rule.c - the overlap_pct rule (src/services/overlap.c) at its
 * boundaries: a pct of exactly 0.5 (real) and 0.05 (fake) and a hair to
 * either side, intersections that tie within OVERLAP_EPS_US (the earlier
 * kernel dominates) or differ by more, no kernel meeting the side window
 * (no dominator, the longest named instead, pct 0), the choice of the main
 * stream, and the files' rounding. CTest runs it (test "overlap_rule");
 * exit 0 when every check passed.
 */
#include <math.h>
#include <stdio.h>

#include "services/overlap.h"

static int failed;

#define EXPECT(cond)                                                       \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failed++;                                                      \
        }                                                                  \
    } while (0)

#define N(a) (sizeof(a) / sizeof((a)[0]))

static struct overlap_result judge(const struct overlap_iv *a, size_t na, const struct overlap_iv *b, size_t nb)
{
    struct overlap_result r;
    overlap_judge(a, na, b, nb, &r);
    return r;
}

static void boundaries(void)
{
    /* main [5, 25] (busier) against side [0, 10]: overlap 5 of min(10, 20). */
    struct overlap_iv side[] = {{0, 10}}, half[] = {{5, 25}}, under[] = {{5.001, 25}};
    struct overlap_iv twentieth[] = {{9.5, 30}}, over[] = {{9.499, 30}};
    struct overlap_result r = judge(half, 1, side, 1);
    EXPECT(!r.b_is_main && r.dominator == 0 && r.pct == 0.5 && r.verdict == OVERLAP_VERDICT_REAL);
    r = judge(under, 1, side, 1);
    EXPECT(r.dominator == 0 && r.pct < 0.5 && r.verdict == OVERLAP_VERDICT_PARTIAL);
    r = judge(twentieth, 1, side, 1);
    EXPECT(fabs(r.pct - 0.05) < 1e-12 && r.verdict == OVERLAP_VERDICT_FAKE);
    r = judge(over, 1, side, 1);
    EXPECT(r.pct > 0.05 && r.verdict == OVERLAP_VERDICT_PARTIAL);
    /* The division's rounding cannot move exactly 0.5 or 0.05 across the line. */
    EXPECT(overlap_verdict_of(0.1 / 0.2) == OVERLAP_VERDICT_REAL);
    EXPECT(overlap_verdict_of(0.5 - 1e-12) == OVERLAP_VERDICT_REAL);
    EXPECT(overlap_verdict_of(0.05 + 1e-12) == OVERLAP_VERDICT_FAKE);
    EXPECT(overlap_verdict_of(0.4999) == OVERLAP_VERDICT_PARTIAL);
}

static void near_ties(void)
{
    /* Side window [0, 40.5]; the main kernels meet it for 20.000 and 20.001 us: a tie. */
    struct overlap_iv side[] = {{0, 1}, {20, 40.5}};
    struct overlap_iv tie[] = {{0, 20}, {20, 40.001}}, beyond[] = {{0, 20}, {20, 40.002}};
    struct overlap_result r = judge(tie, 2, side, 2);
    EXPECT(!r.b_is_main && r.dominator == 0 && r.overlap_us == 20);
    r = judge(beyond, 2, side, 2);
    EXPECT(r.dominator == 1 && fabs(r.overlap_us - 20.002) < 1e-9);
    /* Busier by less than the tolerance is not busier: the lower id stays main. */
    struct overlap_iv a[] = {{0, 10}}, b_tie[] = {{0, 10.001}}, b_more[] = {{0, 10.002}};
    EXPECT(!judge(a, 1, b_tie, 1).b_is_main);
    EXPECT(judge(a, 1, b_more, 1).b_is_main);
}

static void no_dominator(void)
{
    /* Nothing of main meets the side window; touching, or meeting by less
     * than the tolerance, is not meeting. */
    struct overlap_iv side[] = {{0, 10}};
    struct overlap_iv apart[] = {{50, 60}, {60, 80}, {80, 100}}, touching[] = {{10, 30}}, hair[] = {{9.999, 30}};
    struct overlap_result r = judge(apart, N(apart), side, 1);
    EXPECT(r.dominator == -1 && r.longest == 1 && r.overlap_us == 0 && r.pct == 0);
    EXPECT(r.verdict == OVERLAP_VERDICT_FAKE && r.side_lo == 0 && r.side_hi == 10);
    r = judge(touching, 1, side, 1);
    EXPECT(r.dominator == -1 && r.longest == 0 && r.verdict == OVERLAP_VERDICT_FAKE);
    r = judge(hair, 1, side, 1);
    EXPECT(r.dominator == -1 && r.pct == 0);
}

/* A stream's busy time is the union of its kernels: one inside another
 * adds nothing and does not cut the first short, and kernels meeting
 * within the tolerance merge. The side window ends at the latest end, not
 * the last kernel's. */
static void unions_and_windows(void)
{
    struct overlap_iv nested[] = {{0, 10}, {2, 4}}, nine[] = {{0, 9}};
    struct overlap_iv near_gap[] = {{0, 5}, {5.001, 10}}, just_over[] = {{0, 10.001}};
    struct overlap_iv main_k[] = {{0, 100}};
    struct overlap_result r;
    EXPECT(!judge(nested, N(nested), nine, 1).b_is_main); /* busy 10 against 9 */
    EXPECT(!judge(near_gap, N(near_gap), just_over, 1).b_is_main); /* busy 10 against 10.001: a tie */
    r = judge(main_k, 1, nested, N(nested));
    EXPECT(r.side_lo == 0 && r.side_hi == 10);
}

static void file_times(void)
{
    EXPECT(overlap_file_ns(1.2344) == 1234 && overlap_file_ns(1.2346) == 1235);
    EXPECT(overlap_file_ns(20.001) == 20001 && overlap_file_ns(0) == 0 && overlap_file_ns(-0.0006) == -1);
    EXPECT(overlap_verdict_name(OVERLAP_VERDICT_PARTIAL)[0] == 'p');
}

int main(void)
{
    boundaries();
    near_ties();
    no_dominator();
    unions_and_windows();
    file_times();
    printf("overlap_rule: %s\n", failed ? "FAILED" : "ok");
    return failed ? 1 : 0;
}
