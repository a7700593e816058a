/*
 * overlap.c - the overlap_pct rule (overlap.h, docs/profile-format.md):
 * the main stream, the side window, the dominator, the pct and the
 * verdict, for one pair of streams.
 *
 * DESIGN: pure functions on the caller's arrays, no state, no allocation,
 * so the library's summary.json writer and the aclcpu command (which reads
 * the same numbers back from kernel_details.csv) compute the same verdict
 * from the same inputs. One tolerance, OVERLAP_EPS_US, for every
 * comparison of times: two intersections within it are equal (the earlier
 * kernel wins), a stream busier by less is not busier.
 *
 * Threads: any; no shared state, no locks.
 */
#include "overlap.h"

/* The union length of intervals sorted by start; ones that meet within
 * OVERLAP_EPS_US merge. */
static double busy_of(const struct overlap_iv *iv, size_t n)
{
    double busy = 0, lo = iv[0].start, hi = iv[0].end;
    for (size_t i = 1; i < n; i++) {
        if (iv[i].start > hi + OVERLAP_EPS_US) {
            busy += hi - lo;
            lo = iv[i].start;
        }
        hi = iv[i].end > hi ? iv[i].end : hi;
    }
    return busy + hi - lo;
}

static double intersect(const struct overlap_iv *k, double lo, double hi)
{
    double a = k->start > lo ? k->start : lo, b = k->end < hi ? k->end : hi;
    return b > a ? b - a : 0;
}

static void side_window(const struct overlap_iv *side, size_t n, struct overlap_result *r)
{
    r->side_lo = side[0].start;
    r->side_hi = side[0].end;
    for (size_t i = 1; i < n; i++)
        r->side_hi = side[i].end > r->side_hi ? side[i].end : r->side_hi;
}

/* The main-stream kernel meeting the side window most (by more than the
 * tolerance; the earlier of equals), and the longest (the earlier of equals). */
static void find_dominator(const struct overlap_iv *main_k, size_t n, struct overlap_result *r)
{
    double longest = -1;
    r->dominator = r->longest = -1;
    r->overlap_us = 0;
    for (size_t i = 0; i < n; i++) {
        double x = intersect(&main_k[i], r->side_lo, r->side_hi), len = main_k[i].end - main_k[i].start;
        if (x > r->overlap_us + OVERLAP_EPS_US) {
            r->dominator = (long)i;
            r->overlap_us = x;
        }
        if (len > longest + OVERLAP_EPS_US) {
            r->longest = (long)i;
            longest = len;
        }
    }
}

void overlap_judge(const struct overlap_iv *a, size_t na, const struct overlap_iv *b, size_t nb,
                   struct overlap_result *r)
{
    if (busy_of(b, nb) > busy_of(a, na) + OVERLAP_EPS_US) {
        overlap_judge_main(b, nb, a, na, r);
        r->b_is_main = 1;
    } else {
        overlap_judge_main(a, na, b, nb, r);
    }
}

void overlap_judge_main(const struct overlap_iv *main_k, size_t nmain, const struct overlap_iv *side, size_t nside,
                        struct overlap_result *r)
{
    r->b_is_main = 0;
    side_window(side, nside, r);
    find_dominator(main_k, nmain, r);
    r->pct = 0;
    if (r->dominator >= 0) { /* then both lengths exceed the overlap, which exceeds the tolerance */
        const struct overlap_iv *d = &main_k[r->dominator];
        double side_len = r->side_hi - r->side_lo, dom_len = d->end - d->start;
        r->pct = r->overlap_us / (side_len < dom_len ? side_len : dom_len);
    }
    r->verdict = overlap_verdict_of(r->pct);
}

/* The division's rounding must not move a pct of exactly 0.5 or 0.05
 * across the line: compare within a billionth. */
#define PCT_ROUNDING 1e-9

enum overlap_verdict overlap_verdict_of(double pct)
{
    if (pct >= OVERLAP_REAL - PCT_ROUNDING)
        return OVERLAP_VERDICT_REAL;
    return pct <= OVERLAP_FAKE + PCT_ROUNDING ? OVERLAP_VERDICT_FAKE : OVERLAP_VERDICT_PARTIAL;
}

const char *overlap_verdict_name(enum overlap_verdict v)
{
    static const char *const names[] = {"real", "partial", "fake"};
    return names[v];
}

/* Rounds as the writers' l_f3 does: to the nearest thousandth, half away
 * from zero. */
long long overlap_file_ns(double us) { return (long long)(us * 1000.0 + (us < 0 ? -0.5 : 0.5)); }
