/*
 * analysis.c - intervals, unions, per-stream figures, the core sweep and
 * overlap_pct.
 *
 * DESIGN: everything is computed from the kernel rows of
 * kernel_details.csv (plus, for E2E, the trace's other tasks), so that a
 * profile of Ascend's own profiler gets the same treatment as aclcpu's.
 * Multi-stream concurrency is counted once (unions), never summed, as
 * Ascend's Overlap Analysis does. The files' times have 3 decimals, so
 * start + duration may miss the next kernel's start by 0.001: unions merge
 * intervals that meet within EPS_US, a Free or gap below it is 0, and
 * overlaps that differ by less are equal (the earliest kernel wins). The
 * overlap_pct rule itself is the library's (services/overlap.c), so that
 * doctor and summary.json never disagree. The core sweep walks start/end points in time order,
 * handling all points of one instant before judging it, so a kernel that
 * ends exactly when another starts never counts as running with it. On
 * aclcpu's modelled clock kernels never run over the cores (one that asks
 * for busy cores queues), so the intervals of contention come from
 * summary.json, which knows when each kernel was ready. Results live in
 * the caller's arena.
 */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

static bool is_compute(const struct task *k) { return k->kind == TASK_KERNEL && k->engine != ENG_COMM; }

static int interval_order(const void *a, const void *b)
{
    const struct interval *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

size_t intervals_union(struct interval *iv, size_t n)
{
    size_t out = 0;
    if (n == 0)
        return 0;
    sort_items(iv, n, sizeof(*iv), interval_order);
    for (size_t i = 1; i < n; i++) {
        if (iv[i].start <= iv[out].end + EPS_US) {
            if (iv[i].end > iv[out].end)
                iv[out].end = iv[i].end;
        } else {
            iv[++out] = iv[i];
        }
    }
    return out + 1;
}

double intervals_length(const struct interval *iv, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += iv[i].end - iv[i].start;
    return sum;
}

/* The union of the compute kernels' intervals, into iv. */
static size_t kernel_union(const struct profile *p, struct interval *iv)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nkernels; i++)
        if (is_compute(&p->kernels[i]))
            iv[n++] = (struct interval){p->kernels[i].start, p->kernels[i].end};
    return intervals_union(iv, n);
}

size_t computing_intervals(const struct profile *p, struct arena *a, struct interval **out)
{
    struct interval *iv = arena_alloc(a, (p->nkernels + 1) * sizeof(*iv));
    *out = iv;
    return kernel_union(p, iv);
}

void profile_totals(const struct profile *p, struct totals *t)
{
    struct interval *iv = xmalloc((p->nkernels + 1) * sizeof(*iv));
    size_t n = kernel_union(p, iv);
    memset(t, 0, sizeof(*t));
    t->first = p->kernels[0].start;
    t->last = p->kernels[0].end;
    for (size_t i = 0; i < p->nkernels; i++)
        t->last = p->kernels[i].end > t->last ? p->kernels[i].end : t->last;
    for (size_t i = 0; i < p->ntasks; i++) {
        t->first = p->tasks[i].start < t->first ? p->tasks[i].start : t->first;
        t->last = p->tasks[i].end > t->last ? p->tasks[i].end : t->last;
    }
    t->e2e = t->last - t->first;
    t->computing = intervals_length(iv, n);
    t->free = t->e2e - t->computing < EPS_US ? 0 : t->e2e - t->computing;
    t->kernels = p->nkernels;
    free(iv);
}

/* ---- streams ------------------------------------------------------------------------ */

static struct stream_stat *stat_for(struct stream_stat **st, size_t *n, size_t *cap, int stream)
{
    for (size_t i = 0; i < *n; i++)
        if ((*st)[i].stream == stream)
            return &(*st)[i];
    struct stream_stat *s = VEC_PUSH(*st, *n, *cap);
    *s = (struct stream_stat){.stream = stream};
    return s;
}

static int stat_order(const void *a, const void *b)
{
    const struct stream_stat *x = a, *y = b;
    return (x->stream > y->stream) - (x->stream < y->stream);
}

static int stream_start_order(const void *a, const void *b)
{
    const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* Busy time of kernels sorted by start: their union, in one pass. */
static double union_of_sorted(const struct task *const *k, size_t n)
{
    double busy = 0, lo = k[0]->start, hi = k[0]->end;
    for (size_t i = 1; i < n; i++) {
        if (k[i]->start > hi + EPS_US) {
            busy += hi - lo;
            lo = k[i]->start;
        }
        hi = k[i]->end > hi ? k[i]->end : hi;
    }
    return busy + hi - lo;
}

/* One stat per run of same-stream kernels in the sorted list. */
static void stats_from_kernels(const struct task **sorted, size_t n, struct stream_stat **st, size_t *nst, size_t *cap)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        struct stream_stat *s = stat_for(st, nst, cap, sorted[i]->stream);
        while (j < n && sorted[j]->stream == sorted[i]->stream) {
            s->last = j == i || sorted[j]->end > s->last ? sorted[j]->end : s->last;
            j++;
        }
        s->list = sorted + i;
        s->kernels = j - i;
        s->first = sorted[i]->start;
        s->busy = union_of_sorted(s->list, s->kernels);
        s->gaps = s->last - s->first - s->busy < EPS_US ? 0 : s->last - s->first - s->busy;
        i = j;
    }
}

size_t stream_stats(const struct profile *p, struct arena *a, struct stream_stat **out)
{
    const struct task **sorted = arena_alloc(a, (p->nkernels + 1) * sizeof(*sorted));
    struct stream_stat *st = NULL;
    size_t n = 0, cap = 0, nk = 0;
    for (size_t i = 0; i < p->nkernels; i++)
        if (p->kernels[i].stream >= 0 && is_compute(&p->kernels[i]))
            sorted[nk++] = &p->kernels[i];
    sort_items(sorted, nk, sizeof(*sorted), stream_start_order);
    stats_from_kernels(sorted, nk, &st, &n, &cap);
    for (size_t i = 0; i < p->ntasks; i++)
        stat_for(&st, &n, &cap, p->tasks[i].stream)->tasks++;
    sort_items(st, n, sizeof(*st), stat_order);
    *out = arena_memdup(a, st, n * sizeof(*st));
    free(st);
    return n;
}

/* ---- top kernels ------------------------------------------------------------------------ */

static int group_order(const void *a, const void *b)
{
    const struct kernel_group *x = a, *y = b;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int name_order(const void *a, const void *b)
{
    const struct task *const *x = a, *const *y = b;
    int c = strcmp((*x)->name, (*y)->name);
    return c != 0 ? c : (int)(*x)->engine - (int)(*y)->engine;
}

size_t top_kernels(const struct profile *p, struct arena *a, struct kernel_group **out)
{
    struct kernel_group *g = arena_alloc(a, (p->nkernels + 1) * sizeof(*g));
    const struct task **by_name = xmalloc((p->nkernels + 1) * sizeof(*by_name));
    size_t n = 0;
    for (size_t i = 0; i < p->nkernels; i++)
        by_name[i] = &p->kernels[i];
    sort_items(by_name, p->nkernels, sizeof(*by_name), name_order);
    for (size_t i = 0; i < p->nkernels; i++) {
        const struct task *k = by_name[i];
        if (n == 0 || !str_eq(g[n - 1].name, k->name) || g[n - 1].engine != k->engine)
            g[n++] = (struct kernel_group){.name = k->name, .engine = k->engine};
        g[n - 1].count++;
        g[n - 1].total += k->dur;
        g[n - 1].max = k->dur > g[n - 1].max ? k->dur : g[n - 1].max;
    }
    free(by_name);
    sort_items(g, n, sizeof(*g), group_order);
    *out = g;
    return n;
}

/* ---- the core sweep ----------------------------------------------------------------------- */

struct point {
    double t;
    bool start;
    size_t k;
};

struct sweep {
    const struct profile *p;
    struct pool_usage *u;
    struct arena *a;
    size_t *active, *slot, nactive; /* running kernels; slot[k] = index in active */
    unsigned demand;                /* per stream the most any of its running kernels asks, summed */
    size_t streams;                 /* distinct streams among the running kernels */
    bool open;
    struct over_span cur;
    const struct task **cur_k;
    size_t ncur, cur_cap;
    struct over_span *spans;
    size_t nspans, spans_cap;
};

static int point_order(const void *a, const void *b)
{
    const struct point *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (int)x->start - (int)y->start; /* ends first */
}

static void apply_point(struct sweep *s, const struct point *pt)
{
    if (pt->start) {
        s->slot[pt->k] = s->nactive;
        s->active[s->nactive++] = pt->k;
    } else {
        size_t at = s->slot[pt->k], last = s->active[--s->nactive];
        s->active[at] = last;
        s->slot[last] = at;
    }
}

/* The demand of the running kernels. A stream runs one kernel at a time,
 * so rows of one stream that overlap (a duplicated row, a launch written
 * twice) are one kernel: each stream counts the most any of its running
 * kernels asks, not their sum. Quadratic in the kernels running at once,
 * which a device bounds by its streams. */
static void measure_active(struct sweep *s)
{
    s->demand = 0;
    s->streams = 0;
    for (size_t i = 0; i < s->nactive; i++) {
        const struct task *t = &s->p->kernels[s->active[i]];
        unsigned d = task_demand(t, s->u->pool, &s->p->soc);
        bool beaten = false;
        for (size_t j = 0; j < s->nactive && !beaten; j++) {
            const struct task *o = &s->p->kernels[s->active[j]];
            unsigned od;
            if (j == i || o->stream != t->stream)
                continue;
            od = task_demand(o, s->u->pool, &s->p->soc);
            beaten = od > d || (od == d && j < i);
        }
        if (!beaten) {
            s->demand += d;
            s->streams++;
        }
    }
}

static void add_to_span(struct sweep *s, size_t k) { *VEC_PUSH(s->cur_k, s->ncur, s->cur_cap) = &s->p->kernels[k]; }

static void close_span(struct sweep *s, double t)
{
    s->open = false;
    s->cur.end = t;
    if (s->cur.end <= s->cur.start)
        return;
    s->cur.kernels = arena_memdup(s->a, s->cur_k, s->ncur * sizeof(*s->cur_k));
    s->cur.nkernels = s->ncur;
    s->u->over_us += s->cur.end - s->cur.start;
    *VEC_PUSH(s->spans, s->nspans, s->spans_cap) = s->cur;
}

/* Judges the instant t after all its points (pts[from..to)) were applied. */
static void judge_instant(struct sweep *s, double t, const struct point *pts, size_t from, size_t to)
{
    bool over;
    measure_active(s);
    /* Contention is between streams: one stream over the cores alone is
     * a launch wider than the pool, whose blocks run in waves (wide_launches). */
    over = s->demand > s->u->cores && s->streams >= 2;
    if (s->demand > s->u->peak) {
        s->u->peak = s->demand;
        s->u->peak_at = t;
    }
    if (over && !s->open) {
        s->open = true;
        s->cur = (struct over_span){.start = t, .demand = s->demand};
        s->ncur = 0;
        for (size_t i = 0; i < s->nactive; i++)
            add_to_span(s, s->active[i]);
    } else if (over) {
        for (size_t i = from; i < to; i++)
            if (pts[i].start)
                add_to_span(s, pts[i].k);
        s->cur.demand = s->demand > s->cur.demand ? s->demand : s->cur.demand;
    } else if (s->open) {
        close_span(s, t);
    }
}

static size_t make_points(const struct profile *p, enum pool pool, struct point *pts)
{
    size_t n = 0;
    for (size_t k = 0; k < p->nkernels; k++) {
        const struct task *t = &p->kernels[k];
        if (task_demand(t, pool, &p->soc) == 0 || t->dur <= 0)
            continue;
        pts[n++] = (struct point){t->start, true, k};
        pts[n++] = (struct point){t->end, false, k};
    }
    sort_items(pts, n, sizeof(*pts), point_order);
    return n;
}

static int wide_order(const void *a, const void *b)
{
    const struct wide_launch *x = a, *y = b;
    int c;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if ((c = strcmp(x->name, y->name)) != 0)
        return c;
    return (x->blocks > y->blocks) - (x->blocks < y->blocks);
}

/* Kernels that ask the pool alone for more blocks than it has, grouped by
 * stream, name and blocks. */
static void find_wide(const struct profile *p, struct arena *a, struct pool_usage *u)
{
    struct wide_launch *w = arena_alloc(a, (p->nkernels + 1) * sizeof(*w));
    size_t n = 0;
    for (size_t k = 0; k < p->nkernels && u->cores > 0; k++) {
        const struct task *t = &p->kernels[k];
        unsigned d = task_demand(t, u->pool, &p->soc);
        if (d > u->cores)
            w[n++] = (struct wide_launch){.stream = t->stream, .name = t->name, .blocks = d,
                                          .waves = (d + u->cores - 1) / u->cores, .launches = 1, .first = t};
    }
    sort_items(w, n, sizeof(*w), wide_order);
    u->nwide = 0;
    for (size_t i = 0; i < n; i++) {
        struct wide_launch *last = u->nwide > 0 ? &w[u->nwide - 1] : NULL;
        if (last != NULL && wide_order(last, &w[i]) == 0) {
            last->launches++;
            last->first = w[i].first->start < last->first->start ? w[i].first : last->first;
        } else {
            w[u->nwide++] = w[i];
        }
    }
    u->wide = w;
}

void pool_sweep(const struct profile *p, enum pool pool, struct arena *a, struct pool_usage *u)
{
    struct point *pts = xmalloc((2 * p->nkernels + 1) * sizeof(*pts));
    struct sweep s = {.p = p, .u = u, .a = a};
    size_t n = make_points(p, pool, pts);
    memset(u, 0, sizeof(*u));
    u->pool = pool;
    u->cores = p->soc.cores[pool];
    s.active = xmalloc((p->nkernels + 1) * sizeof(size_t));
    s.slot = xmalloc((p->nkernels + 1) * sizeof(size_t));
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && pts[j].t == pts[i].t)
            apply_point(&s, &pts[j++]);
        judge_instant(&s, pts[i].t, pts, i, j);
        i = j;
    }
    u->spans = arena_memdup(a, s.spans, s.nspans * sizeof(*s.spans));
    u->nspans = s.nspans;
    find_wide(p, a, u);
    free(s.spans);
    free(s.cur_k);
    free(s.active);
    free(s.slot);
    free(pts);
}

/* ---- summary.json's contention --------------------------------------------------------------- */

static int key_order(const void *a, const void *b)
{
    const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return (x->task_id > y->task_id) - (x->task_id < y->task_id);
}

const struct task **kernels_by_key(const struct profile *p, struct arena *a)
{
    const struct task **index = arena_alloc(a, (p->nkernels + 1) * sizeof(*index));
    for (size_t i = 0; i < p->nkernels; i++)
        index[i] = &p->kernels[i];
    sort_items(index, p->nkernels, sizeof(*index), key_order);
    return index;
}

const struct task *kernel_of_key(const struct task *const *index, size_t n, int stream, long task_id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct task *t = index[mid];
        if (t->stream < stream || (t->stream == stream && t->task_id < task_id))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && index[lo]->stream == stream && index[lo]->task_id == task_id ? index[lo] : NULL;
}

/* The span of summary.json's interval c, its kernels found among the rows. */
static struct over_span span_of(const struct contention *c, const struct task *const *index, size_t n,
                                struct arena *a)
{
    struct over_span sp = {.start = c->start, .end = c->end, .demand = c->demand};
    sp.kernels = arena_alloc(a, (c->nkernels + 1) * sizeof(*sp.kernels));
    for (size_t k = 0; k < c->nkernels; k++) {
        const struct task *t = kernel_of_key(index, n, c->kernels[k].stream, c->kernels[k].task_id);
        if (t != NULL)
            sp.kernels[sp.nkernels++] = t;
    }
    return sp;
}

void pool_usage(const struct profile *p, enum pool pool, struct arena *a, struct pool_usage *u)
{
    const struct task **index;
    size_t n = 0;
    pool_sweep(p, pool, a, u);
    if (!p->has_facts || p->summary_cores[pool] != u->cores) /* --soc named other cores */
        return;
    index = kernels_by_key(p, a);
    u->queued = true;
    u->over_us = 0;
    u->spans = arena_alloc(a, (p->ncontention + 1) * sizeof(*u->spans));
    for (size_t i = 0; i < p->ncontention; i++)
        if (p->contention[i].pool == pool) {
            u->spans[n] = span_of(&p->contention[i], index, p->nkernels, a);
            u->over_us += u->spans[n].end - u->spans[n].start;
            n++;
        }
    u->nspans = n;
}

/* ---- overlap_pct: the rule is the library's (services/overlap.c), as in summary.json ------------------ */

const char *verdict_name(enum verdict v) { return overlap_verdict_name((enum overlap_verdict)v); }

static struct overlap_iv *intervals_of(const struct stream_stat *st, struct arena *a)
{
    struct overlap_iv *iv = arena_alloc(a, (st->kernels + 1) * sizeof(*iv));
    for (size_t i = 0; i < st->kernels; i++)
        iv[i] = (struct overlap_iv){st->list[i]->start, st->list[i]->end};
    return iv;
}

static struct pair pair_of(const struct overlap_result *r, const struct stream_stat *main_st,
                           const struct stream_stat *side_st, enum ep_main_by by)
{
    struct pair pr = {.main = main_st->stream, .side = side_st->stream, .by = by};
    pr.side_window = (struct interval){r->side_lo, r->side_hi};
    pr.dominator_by_length = r->dominator < 0;
    pr.dominator = main_st->list[r->dominator >= 0 ? r->dominator : r->longest];
    pr.overlap_us = r->overlap_us;
    pr.pct = r->pct;
    pr.verdict = (enum verdict)r->verdict;
    return pr;
}

/* x has the lower id; main is the busier (the last resort). */
static void judge_pair(const struct stream_stat *x, const struct stream_stat *y, struct arena *a, struct pair *pr)
{
    struct overlap_result r;
    overlap_judge(intervals_of(x, a), x->kernels, intervals_of(y, a), y->kernels, &r);
    *pr = pair_of(&r, r.b_is_main ? y : x, r.b_is_main ? x : y, EP_BY_BUSY_TIME);
}

/* ---- the program's structure: the main stream and its fork/join episodes ----------------------------- */

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int edge_release_order(const void *a, const void *b)
{
    const struct ep_edge *x = a, *y = b;
    if (x->wait_t != y->wait_t)
        return x->wait_t < y->wait_t ? -1 : 1;
    return x->rec_t < y->rec_t ? -1 : x->rec_t > y->rec_t;
}

/* The stream the step marks were taken on (trace_view.json's STEP_START
 * tasks), -1 when the files do not say. */
static int step_stream(const struct profile *p)
{
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].stream >= 0 && str_eq(p->tasks[i].name, "STEP_START"))
            return p->tasks[i].stream;
    return -1;
}

static int busiest(const struct stream_stat *st, size_t n)
{
    const struct stream_stat *best = NULL;
    for (size_t i = 0; i < n; i++) /* by id: a stream busier by less than EPS_US is not busier */
        if (st[i].kernels > 0 && (best == NULL || st[i].busy > best->busy + EPS_US))
            best = &st[i];
    return best != NULL ? best->stream : -1;
}

/* The kernel of the selected step that is k (a kernel of the whole
 * profile), or k itself when the step does not hold it. */
static const struct task *in_step(const struct profile *p, const struct task *k)
{
    size_t lo = 0, hi = p->nkernels;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->kernels[mid].start < k->start - EPS_US)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < p->nkernels && p->kernels[lo].start <= k->start + EPS_US; lo++)
        if (p->kernels[lo].stream == k->stream && p->kernels[lo].task_id == k->task_id &&
            str_eq(p->kernels[lo].name, k->name))
            return &p->kernels[lo];
    return k;
}

/* Keeps the episodes of step `step`. */
static void keep_step(struct ep_result *r, int step)
{
    size_t kept = 0;
    r->complete = 0;
    for (size_t i = 0; i < r->nep; i++)
        if (r->ep[i].step == step) {
            r->complete += r->ep[i].join_event >= 0;
            r->ep[kept++] = r->ep[i];
        }
    r->nep = kept;
}

void profile_structure(const struct profile *p, const struct stream_stat *st, size_t n, struct arena *a,
                       struct structure *s)
{
    bool whole = p->step >= 0 && p->all_kernels != NULL; /* judged on the whole run, kept for the step */
    const struct task *kernels = whole ? p->all_kernels : p->kernels;
    const struct edge *edges = whole ? p->all_edges : p->edges;
    size_t nkernels = whole ? p->nall_kernels : p->nkernels, nedges = whole ? p->nall_edges : p->nedges, m = 0;
    struct ep_kernel *k = arena_alloc(a, (nkernels + 1) * sizeof(*k));
    struct ep_edge *e = arena_alloc(a, (nedges + 1) * sizeof(*e));
    struct ep_input in = {k, 0, e, 0, step_stream(p), p->forced_main, busiest(st, n)};
    s->task_of = arena_alloc(a, (nkernels + 1) * sizeof(*s->task_of));
    for (size_t i = 0; i < nkernels; i++) /* sorted by start */
        if (kernels[i].stream >= 0 && is_compute(&kernels[i])) {
            s->task_of[in.nk] = whole ? in_step(p, &kernels[i]) : &kernels[i];
            k[in.nk++] = (struct ep_kernel){kernels[i].stream, kernels[i].step, kernels[i].start, kernels[i].end};
        }
    for (size_t i = 0; i < nedges; i++)
        if (edges[i].from_stream >= 0 && edges[i].to_stream >= 0)
            e[in.ne++] = (struct ep_edge){edges[i].event_id, edges[i].from_stream, edges[i].to_stream,
                                          edges[i].from_t, edges[i].to_t};
    sort_items(e, in.ne, sizeof(*e), edge_release_order);
    s->r.ep = arena_alloc(a, (in.ne + 1) * sizeof(*s->r.ep));
    s->in = in;
    episodes_judge(&s->in, &s->r);
    if (p->step >= 0)
        keep_step(&s->r, p->step);
    episodes_total(&s->r, EP_ANY_STEP, EP_ANY_SIDE, &s->run);
    s->steps = arena_alloc(a, (s->r.nep + 1) * sizeof(*s->steps));
    s->nsteps = 0;
    for (size_t i = 0; i < s->r.nep; i++)
        if (s->r.ep[i].step >= 0)
            s->steps[s->nsteps++] = s->r.ep[i].step;
    sort_items(s->steps, s->nsteps, sizeof(*s->steps), int_cmp);
    for (size_t i = 0; i < s->nsteps; i++) /* each once */
        if (m == 0 || s->steps[m - 1] != s->steps[i])
            s->steps[m++] = s->steps[i];
    s->nsteps = m;
}

const char *main_reason(enum ep_main_by by)
{
    switch (by) {
    case EP_BY_OPTION: return "named by --main";
    case EP_BY_FORK_JOIN: return "it forks and joins: it records the events the side streams wait on and waits "
                                 "on theirs";
    case EP_BY_STEP_MARKS: return "it carries the step marks (no fork/join edges)";
    case EP_BY_BUSY_TIME: return "the busiest stream: no event edges and no step marks to show the structure "
                                 "(a bare kernel_details.csv), so busy time decides; --main names it";
    case EP_BY_NONE: break;
    }
    return "none: no stream ran kernels";
}

/* Main and side by structure: the side's episodes decide (services/episodes.c,
 * as summary.json), else the whole run with that main. */
static void judge_by_structure(const struct stream_stat *main_st, const struct stream_stat *side_st,
                               const struct structure *s, struct arena *a, struct pair *pr)
{
    struct overlap_result r;
    struct ep_pair ep;
    overlap_judge_main(intervals_of(main_st, a), main_st->kernels, intervals_of(side_st, a), side_st->kernels, &r);
    *pr = pair_of(&r, main_st, side_st, s->r.by);
    episodes_pair(&s->in, &s->r, side_st->stream, &ep);
    if (ep.worst == NULL || ep.dominator < 0)
        return;
    pr->by_episodes = true;
    pr->worst = ep.worst;
    pr->total = ep.total;
    pr->side_window = (struct interval){ep.win_lo, ep.win_hi};
    pr->dominator = s->task_of[ep.dominator];
    pr->dominator_by_length = ep.by_length;
    pr->overlap_us = ep.total.overlap_us;
    pr->pct = ep.total.pct;
    pr->verdict = (enum verdict)ep.total.verdict;
}

size_t stream_pairs(const struct stream_stat *st, size_t n, const struct structure *s, struct arena *a,
                    struct pair **out)
{
    struct pair *pairs = arena_alloc(a, (n * n / 2 + n + 1) * sizeof(*pairs));
    const struct stream_stat *main_st = NULL;
    size_t np = 0;
    for (size_t i = 0; i < n && s->r.by != EP_BY_BUSY_TIME; i++)
        if (st[i].stream == s->r.main_stream && st[i].kernels > 0)
            main_st = &st[i];
    for (size_t i = 0; i < n && main_st != NULL; i++)
        if (&st[i] != main_st && st[i].kernels > 0)
            judge_by_structure(main_st, &st[i], s, a, &pairs[np++]);
    for (size_t i = 0; i < n && main_st == NULL; i++)
        for (size_t j = i + 1; j < n; j++)
            if (st[i].kernels > 0 && st[j].kernels > 0)
                judge_pair(&st[i], &st[j], a, &pairs[np++]);
    *out = pairs;
    return np;
}
