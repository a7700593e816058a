/*
 * episodes.c - the main stream by the program's structure, and overlap_pct
 * per fork/join episode (episodes.h, docs/profile-format.md "The overlap
 * rule").
 *
 * DESIGN: a fork is an edge from stream M to stream S (M records, S waits);
 * its join is the first edge back from S to M recorded after S's wait was
 * released and before M's next fork of S was (the search for it stops at
 * the fork after next, so a run of unjoined forks costs linear time). The main stream is the one
 * with the most joined episodes (then the most forks, then the step marks'
 * stream, then the earliest fork, then the lowest id); a caller's choice
 * wins, and with no edges the step marks' stream, then the busiest one.
 * Each episode's side work is S's kernels between its fork wait and its
 * join record; what should hide it is M's kernels issued between the fork
 * record and the join wait. Both are unions of intervals; their
 * intersection is |A| + |B| - |A u B|, so one pass over the kernels (sorted
 * by start) computes it with no allocation. Pure functions on the
 * caller's arrays, so summary.json and the aclcpu command agree.
 *
 * Threads: any; no shared state, no locks.
 */
#include "episodes.h"

#define FAR 1e300

struct span {
    int stream;
    double lo, hi; /* kernels of the stream starting in [lo, hi) */
};

/* The first kernel starting at or after t. */
static size_t first_at(const struct ep_input *in, double t)
{
    size_t lo = 0, hi = in->nk;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (in->k[mid].start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool in_span(const struct ep_kernel *k, const struct span *s)
{
    return s != NULL && k->stream == s->stream && k->start >= s->lo && k->start < s->hi;
}

struct pass {
    double union_us;
    size_t count;
    int step; /* of the first kernel, -1: none */
};

/* The union of the kernels in a or in b (b may be NULL). */
static void union_pass(const struct ep_input *in, const struct span *a, const struct span *b, struct pass *p)
{
    double lo = b != NULL && b->lo < a->lo ? b->lo : a->lo, hi = b != NULL && b->hi > a->hi ? b->hi : a->hi;
    double cur_lo = 0, cur_hi = -FAR;
    p->union_us = 0;
    p->count = 0;
    p->step = -1;
    for (size_t i = first_at(in, lo); i < in->nk && in->k[i].start < hi; i++) {
        const struct ep_kernel *k = &in->k[i];
        if (!in_span(k, a) && !in_span(k, b))
            continue;
        if (p->count++ == 0)
            p->step = k->step;
        if (k->start > cur_hi) {
            p->union_us += cur_hi > cur_lo ? cur_hi - cur_lo : 0;
            cur_lo = k->start;
            cur_hi = k->end;
        } else if (k->end > cur_hi) {
            cur_hi = k->end;
        }
    }
    p->union_us += cur_hi > cur_lo ? cur_hi - cur_lo : 0;
}

/* The end of the side's last kernel starting in [lo, hi), or lo. */
static double last_end(const struct ep_input *in, int stream, double lo, double hi)
{
    double end = lo;
    for (size_t i = first_at(in, lo); i < in->nk && in->k[i].start < hi; i++)
        if (in->k[i].stream == stream && in->k[i].end > end)
            end = in->k[i].end;
    return end;
}

struct fork_join {
    long join;       /* edge index, -1: none */
    long next_fork;  /* the main's next fork of the same side, -1: none */
};

/* The join of fork f (an edge m -> s), and the next fork of s. */
static struct fork_join find_join(const struct ep_input *in, size_t f)
{
    const struct ep_edge *fk = &in->e[f];
    struct fork_join fj = {-1, -1};
    for (size_t j = f + 1; j < in->ne; j++) {
        const struct ep_edge *e = &in->e[j];
        bool fork = e->rec_stream == fk->rec_stream && e->wait_stream == fk->wait_stream;
        if (fork && fj.next_fork >= 0)
            break; /* the fork after next: a join of f would have come by now (bounds the scan) */
        if (fork) {
            fj.next_fork = (long)j;
        } else if (e->rec_stream == fk->wait_stream && e->wait_stream == fk->rec_stream &&
                   e->rec_t >= fk->wait_t - OVERLAP_EPS_US) {
            if (fj.next_fork < 0 || e->rec_t < in->e[fj.next_fork].wait_t - OVERLAP_EPS_US)
                fj.join = (long)j;
            break;
        }
    }
    if (fj.join >= 0 && fj.next_fork < 0) /* the next fork may come after the join in wait order */
        for (size_t j = (size_t)fj.join + 1; j < in->ne && fj.next_fork < 0; j++)
            if (in->e[j].rec_stream == fk->rec_stream && in->e[j].wait_stream == fk->wait_stream)
                fj.next_fork = (long)j;
    return fj;
}

static bool is_fork_of(const struct ep_edge *e, int m) { return e->rec_stream == m && e->wait_stream != m; }

struct rank {
    int stream;
    size_t complete, forks;
    double first_fork;
};

static struct rank rank_of(const struct ep_input *in, int m)
{
    struct rank r = {m, 0, 0, FAR};
    for (size_t i = 0; i < in->ne; i++) {
        if (!is_fork_of(&in->e[i], m))
            continue;
        r.forks++;
        r.first_fork = in->e[i].wait_t < r.first_fork ? in->e[i].wait_t : r.first_fork;
        r.complete += find_join(in, i).join >= 0;
    }
    return r;
}

static bool outranks(const struct rank *a, const struct rank *b, int step_stream)
{
    if (a->complete != b->complete)
        return a->complete > b->complete;
    if (a->forks != b->forks)
        return a->forks > b->forks;
    if ((a->stream == step_stream) != (b->stream == step_stream))
        return a->stream == step_stream;
    if (a->first_fork != b->first_fork)
        return a->first_fork < b->first_fork;
    return a->stream < b->stream;
}

static bool seen_before(const struct ep_input *in, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (in->e[j].rec_stream == in->e[i].rec_stream)
            return true;
    return false;
}

static void choose_main(const struct ep_input *in, struct ep_result *r)
{
    struct rank best = {-1, 0, 0, FAR};
    for (size_t i = 0; i < in->ne; i++) {
        struct rank c;
        if (in->e[i].rec_stream == in->e[i].wait_stream || seen_before(in, i))
            continue;
        c = rank_of(in, in->e[i].rec_stream);
        if (best.stream < 0 || outranks(&c, &best, in->step_stream))
            best = c;
    }
    r->main_stream = best.stream, r->by = EP_BY_FORK_JOIN;
    if (in->forced_main >= 0)
        r->main_stream = in->forced_main, r->by = EP_BY_OPTION;
    else if (best.stream < 0 && in->step_stream >= 0)
        r->main_stream = in->step_stream, r->by = EP_BY_STEP_MARKS;
    else if (best.stream < 0)
        r->main_stream = in->busiest, r->by = in->busiest >= 0 ? EP_BY_BUSY_TIME : EP_BY_NONE;
}

static void judge_one(const struct ep_input *in, size_t f, struct ep_episode *ep)
{
    const struct ep_edge *fk = &in->e[f];
    struct fork_join fj = find_join(in, f);
    double side_limit = fj.next_fork >= 0 ? in->e[fj.next_fork].wait_t : FAR;
    double main_limit = fj.next_fork >= 0 ? in->e[fj.next_fork].rec_t : FAR;
    struct span side, hide;
    struct pass ps, pm, pu;
    double base;
    ep->side = fk->wait_stream;
    ep->fork_event = fk->event_id;
    ep->fork_t = fk->rec_t;
    ep->side_from = fk->wait_t;
    ep->join_event = fj.join >= 0 ? in->e[fj.join].event_id : -1;
    ep->join_t = fj.join >= 0 ? in->e[fj.join].wait_t : -1;
    ep->side_to = fj.join >= 0 ? in->e[fj.join].rec_t
                               : last_end(in, fk->wait_stream, fk->wait_t - OVERLAP_EPS_US, side_limit);
    side = (struct span){fk->wait_stream, fk->wait_t - OVERLAP_EPS_US, fj.join >= 0 ? ep->side_to : side_limit};
    hide = (struct span){fk->rec_stream, fk->rec_t - OVERLAP_EPS_US,
                         fj.join >= 0 ? ep->join_t - OVERLAP_EPS_US : main_limit - OVERLAP_EPS_US};
    union_pass(in, &side, NULL, &ps);
    union_pass(in, &hide, NULL, &pm);
    union_pass(in, &side, &hide, &pu);
    ep->step = pu.step;
    ep->side_kernels = ps.count;
    ep->main_kernels = pm.count;
    ep->side_us = ps.union_us;
    ep->hide_us = pm.union_us;
    ep->overlap_us = ps.union_us + pm.union_us - pu.union_us;
    if (ep->overlap_us < OVERLAP_EPS_US)
        ep->overlap_us = 0;
    base = ep->hide_us > 0 && ep->hide_us < ep->side_us ? ep->hide_us : ep->side_us;
    ep->pct = base > 0 ? ep->overlap_us / base : 0;
    ep->verdict = overlap_verdict_of(ep->pct);
    ep->early = fj.join >= 0 && pm.count == 0;
}

void episodes_judge(const struct ep_input *in, struct ep_result *r)
{
    r->nep = 0;
    r->complete = 0;
    choose_main(in, r);
    if (r->main_stream < 0)
        return;
    for (size_t i = 0; i < in->ne; i++) {
        if (!is_fork_of(&in->e[i], r->main_stream))
            continue;
        judge_one(in, i, &r->ep[r->nep]);
        if (r->ep[r->nep].side_kernels == 0)
            continue; /* the side ran nothing in it: no work to hide, no episode */
        r->complete += r->ep[r->nep].join_event >= 0;
        r->nep++;
    }
}

void episodes_total(const struct ep_result *r, int step, int side, struct ep_total *t)
{
    *t = (struct ep_total){0};
    for (size_t i = 0; i < r->nep; i++) {
        const struct ep_episode *ep = &r->ep[i];
        if ((step != EP_ANY_STEP && ep->step != step) || (side != EP_ANY_SIDE && ep->side != side))
            continue;
        t->episodes++;
        t->real += ep->verdict == OVERLAP_VERDICT_REAL;
        t->partial += ep->verdict == OVERLAP_VERDICT_PARTIAL;
        t->fake += ep->verdict == OVERLAP_VERDICT_FAKE;
        t->early += ep->early;
        t->no_join += ep->join_event < 0;
        t->overlap_us += ep->overlap_us;
        t->base_us += ep->hide_us > 0 && ep->hide_us < ep->side_us ? ep->hide_us : ep->side_us;
    }
    t->pct = t->base_us > 0 ? t->overlap_us / t->base_us : 0;
    t->verdict = overlap_verdict_of(t->pct);
}

static const struct ep_episode *worst_of(const struct ep_result *r, int side)
{
    const struct ep_episode *worst = NULL;
    for (size_t i = 0; i < r->nep; i++)
        if (r->ep[i].side == side && (worst == NULL || r->ep[i].pct < worst->pct))
            worst = &r->ep[i];
    return worst;
}

/* When main's next fork of the same side was recorded (FAR: none). */
static double next_fork_of(const struct ep_result *r, const struct ep_episode *ep)
{
    double next = FAR;
    for (size_t i = 0; i < r->nep; i++)
        if (r->ep[i].side == ep->side && r->ep[i].fork_t > ep->fork_t && r->ep[i].fork_t < next)
            next = r->ep[i].fork_t;
    return next;
}

static void window_of(const struct ep_input *in, const struct ep_episode *ep, struct ep_pair *p)
{
    bool any = false;
    p->win_lo = p->win_hi = ep->side_from;
    for (size_t i = first_at(in, ep->side_from - OVERLAP_EPS_US); i < in->nk && in->k[i].start < ep->side_to; i++) {
        if (in->k[i].stream != ep->side)
            continue;
        p->win_lo = any ? p->win_lo : in->k[i].start;
        p->win_hi = any && p->win_hi > in->k[i].end ? p->win_hi : in->k[i].end;
        any = true;
    }
}

static double meet(const struct ep_kernel *k, double lo, double hi)
{
    double a = k->start > lo ? k->start : lo, b = k->end < hi ? k->end : hi;
    return b > a ? b - a : 0;
}

static long longer(const struct ep_input *in, long best, size_t i)
{
    const struct ep_kernel *k = &in->k[i];
    return best < 0 || k->end - k->start > in->k[best].end - in->k[best].start + OVERLAP_EPS_US ? (long)i : best;
}

static void dominator_of(const struct ep_input *in, const struct ep_result *r, const struct ep_episode *ep,
                         struct ep_pair *p)
{
    long best = -1, longest = -1, after = -1;
    double most = 0, hide_end = ep->join_t >= 0 ? ep->join_t - OVERLAP_EPS_US : FAR, next = next_fork_of(r, ep);
    for (size_t i = first_at(in, ep->fork_t - OVERLAP_EPS_US); i < in->nk && in->k[i].start < next - OVERLAP_EPS_US;
         i++) {
        double x;
        if (in->k[i].stream != r->main_stream)
            continue;
        if (in->k[i].start >= hide_end) {
            after = longer(in, after, i);
            continue;
        }
        x = meet(&in->k[i], p->win_lo, p->win_hi);
        if (x > most + OVERLAP_EPS_US)
            best = (long)i, most = x;
        longest = longer(in, longest, i);
    }
    p->by_length = best < 0;
    p->dominator = best >= 0 ? best : longest >= 0 ? longest : after;
    if (p->dominator < 0) /* nothing of main after the fork: its longest kernel */
        for (size_t i = 0; i < in->nk; i++)
            if (in->k[i].stream == r->main_stream)
                p->dominator = longer(in, p->dominator, i);
}

void episodes_pair(const struct ep_input *in, const struct ep_result *r, int side, struct ep_pair *p)
{
    *p = (struct ep_pair){.dominator = -1};
    p->worst = worst_of(r, side);
    episodes_total(r, EP_ANY_STEP, side, &p->total);
    if (p->worst == NULL)
        return;
    window_of(in, p->worst, p);
    dominator_of(in, r, p->worst, p);
}

const char *episodes_by_name(enum ep_main_by by)
{
    static const char *const names[] = {"option", "fork_join", "step_marks", "busy_time", "none"};
    return names[by];
}
