/*
 * doctor_contention.c - the triage's core contention check (class 3c):
 * kernels that asked one pool for more blocks than it has cores.
 *
 * DESIGN: contention is judged by Block Num sums against the SoC's cores
 * per pool (MIX kernels count on both), never by op type ("a MatMul can
 * run with blk=1"). Where the intervals come from depends on the profile
 * (analysis.c, pool_usage): on Ascend's own CSVs kernels do run over the
 * cores (their blocks go in waves), and the sweep of kernels running at
 * once finds them; on aclcpu's modelled clock a kernel that asks for busy
 * cores queues until they free, so kernels never run over the cores and
 * the intervals are summary.json's, which count the kernels that were
 * ready and queued. An interval in which a batch-mode kernel waited is
 * left to the batch-wait finding (one cause, one finding). The split
 * suggested shares the cores out in proportion to the core time (blocks x
 * duration) of each stream's contending kernels, so that the streams
 * would end together if their kernels scaled with cores. Contention needs
 * two streams (analysis.c, pool_sweep): a kernel that asks a pool alone for
 * more blocks than it has runs in waves, which is its launch shape and is
 * said in a note, never as contention with a split of the cores.
 */
#include "doctor.h"

#include <stdint.h>
#include <string.h>

#define MAX_WAITED 4

/* A span in which a batch-mode kernel of it waited for cores. */
static bool batch_explains(const struct profile *p, const struct over_span *sp)
{
    for (size_t i = 0; i < p->nbatch_waits; i++) {
        const struct batch_wait *b = &p->batch_waits[i];
        if (b->wait <= EPS_US || b->ready >= sp->end - EPS_US || b->start <= sp->start + EPS_US)
            continue;
        for (size_t k = 0; k < sp->nkernels; k++)
            if (sp->kernels[k]->stream == b->stream && sp->kernels[k]->task_id == b->task_id)
                return true;
    }
    return false;
}

/* The spans of u no batch wait explains, into out; returns how many. */
static size_t unexplained(const struct profile *p, const struct pool_usage *u, const struct over_span **out,
                          double *over_us)
{
    size_t n = 0;
    *over_us = 0;
    for (size_t i = 0; i < u->nspans; i++)
        if (!u->queued || !batch_explains(p, &u->spans[i])) {
            out[n++] = &u->spans[i];
            *over_us += u->spans[i].end - u->spans[i].start;
        }
    return n;
}

static const struct over_span *worst_span(const struct over_span *const *sp, size_t n)
{
    const struct over_span *worst = sp[0];
    for (size_t i = 1; i < n; i++)
        if (sp[i]->demand > worst->demand ||
            (sp[i]->demand == worst->demand && sp[i]->end - sp[i]->start > worst->end - worst->start + EPS_US))
            worst = sp[i];
    return worst;
}

/* ---- the split ------------------------------------------------------------------------------ */

struct stream_work {
    int stream;
    double work;  /* core us: blocks x duration of its contending kernels */
    unsigned share;
    double rest;  /* the fraction of a core its exact share left over */
};

static int address_order(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(const struct task *const *)a, y = (uintptr_t)*(const struct task *const *)b;
    return (x > y) - (x < y);
}

/* Every kernel of the spans once, in the arena. */
static size_t distinct_kernels(struct profile *p, const struct over_span *const *sp, size_t n,
                               const struct task ***out)
{
    size_t total = 0, m = 0;
    const struct task **all;
    for (size_t i = 0; i < n; i++)
        total += sp[i]->nkernels;
    all = arena_alloc(&p->arena, (total + 1) * sizeof(*all));
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sp[i]->nkernels; k++)
            all[m++] = sp[i]->kernels[k];
    sort_items(all, m, sizeof(*all), address_order);
    total = 0;
    for (size_t i = 0; i < m; i++)
        if (total == 0 || all[total - 1] != all[i])
            all[total++] = all[i];
    *out = all;
    return total;
}

/* Every stream of the spans' kernels, however many (in p's arena). */
static size_t work_by_stream(struct profile *p, enum pool pool, const struct over_span *const *sp, size_t n,
                             struct stream_work **out)
{
    const struct task **ks;
    size_t nk = distinct_kernels(p, sp, n, &ks), nw = 0;
    struct stream_work *w = arena_alloc(&p->arena, (nk + 1) * sizeof(*w));
    *out = w;
    for (size_t i = 0; i < nk; i++) {
        size_t j = 0;
        while (j < nw && w[j].stream != ks[i]->stream)
            j++;
        if (j == nw)
            w[nw++] = (struct stream_work){.stream = ks[i]->stream};
        w[j].work += task_demand(ks[i], pool, &p->soc) * ks[i]->dur;
    }
    return nw;
}

/* Shares cores in proportion to work, at least 1 each, adding up to cores
 * (largest remainders get the cores left). */
static void share_cores(struct stream_work *w, size_t n, unsigned cores)
{
    double total = 0;
    unsigned given = 0;
    for (size_t i = 0; i < n; i++)
        total += w[i].work;
    for (size_t i = 0; i < n; i++) {
        double exact = total > 0 ? cores * w[i].work / total : (double)cores / (double)n;
        w[i].share = (unsigned)exact;
        w[i].rest = exact - w[i].share;
        given += w[i].share;
    }
    while (given < cores) {
        size_t best = 0;
        for (size_t i = 1; i < n; i++)
            best = w[i].rest > w[best].rest ? i : best;
        w[best].share++;
        w[best].rest = -1;
        given++;
    }
    for (size_t i = 0; i < n; i++)
        w[i].share = w[i].share > 0 ? w[i].share : 1;
}

/* "stream 3 c17 + stream 5 c7". */
static void suggest_split(char *buf, size_t n, struct profile *p, const struct pool_usage *u,
                          const struct over_span *const *sp, size_t nsp)
{
    struct stream_work *w;
    size_t nw = work_by_stream(p, u->pool, sp, nsp, &w);
    share_cores(w, nw, u->cores);
    for (size_t i = 0; i < nw; i++)
        append(buf, n, "%sstream %d %c%u", i ? " + " : "", w[i].stream, u->pool == POOL_CUBE ? 'c' : 'v', w[i].share);
}

/* ---- the finding ----------------------------------------------------------------------------- */

struct waited {
    int stream;
    const char *name;
    size_t count;
};

/* The kernels that started after their span opened (they queued), by stream and name. */
static size_t waited_kernels(const struct over_span *const *sp, size_t n, struct waited w[MAX_WAITED], size_t *more)
{
    size_t nw = 0;
    *more = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sp[i]->nkernels; k++) {
            const struct task *t = sp[i]->kernels[k];
            size_t j = 0;
            if (t->start <= sp[i]->start + EPS_US)
                continue;
            while (j < nw && !(w[j].stream == t->stream && str_eq(w[j].name, t->name)))
                j++;
            if (j == nw && nw == MAX_WAITED) {
                (*more)++;
                continue;
            }
            if (j == nw)
                w[nw++] = (struct waited){t->stream, t->name, 0};
            w[j].count++;
        }
    return nw;
}

static void describe_waited(struct finding *f, const struct over_span *const *sp, size_t n)
{
    struct waited w[MAX_WAITED];
    size_t more, nw = waited_kernels(sp, n, w, &more);
    if (nw == 0)
        return;
    append(f->facts, sizeof(f->facts), " Kernels that waited for those cores:");
    for (size_t i = 0; i < nw; i++)
        append(f->facts, sizeof(f->facts), "%s %s (stream %d) %zu time%s", i ? "," : "", w[i].name, w[i].stream,
               w[i].count, w[i].count == 1 ? "" : "s");
    append(f->facts, sizeof(f->facts), "%s: a kernel that asks for cores in use waits for them, so the streams "
           "took turns on these cores instead of overlapping.", more ? ", ..." : "");
}

static void describe_worst(struct finding *f, const struct profile *p, const struct pool_usage *u,
                           const struct over_span *sp)
{
    char ref[256];
    for (size_t k = 0; k < sp->nkernels && k < 6; k++) {
        append(f->facts, sizeof(f->facts), "%s %s %u", k ? " +" : "", kernel_ref(ref, sizeof(ref), sp->kernels[k]),
               task_demand(sp->kernels[k], u->pool, &p->soc));
        finding_stream(f, sp->kernels[k]->stream);
    }
    append(f->facts, sizeof(f->facts), "%s = %u > %u %s cores (%s).", sp->nkernels > 6 ? " + ..." : "", sp->demand,
           u->cores, pool_name(u->pool), p->soc.source);
}

static void title_and_facts(struct finding *f, const struct pool_usage *u, const struct over_span *w, size_t n,
                            double over_us, size_t left)
{
    const char *pool = pool_name(u->pool);
    if (!u->queued) {
        snprintf(f->title, sizeof(f->title), "%s cores oversubscribed: kernels running at once ask %u blocks of %u for "
                 "%.3f us", pool, w->demand, u->cores, over_us);
        snprintf(f->facts, sizeof(f->facts), "In %zu interval%s (%.3f us in all); the worst, [%.3f, %.3f]:", n,
                 n == 1 ? "" : "s", over_us, w->start, w->end);
        return;
    }
    snprintf(f->title, sizeof(f->title), "%s cores oversubscribed: kernels ready at once asked %u blocks of %u, for "
             "%.3f us in %zu interval%s", pool, w->demand, u->cores, over_us, n, n == 1 ? "" : "s");
    snprintf(f->facts, sizeof(f->facts), "summary.json lists %zu interval%s (%.3f us in all) in which the kernels "
             "running or ready asked for more %s cores than there are", n, n == 1 ? "" : "s", over_us, pool);
    if (left > 0)
        append(f->facts, sizeof(f->facts), " (and %zu in which a batch-mode kernel waited, below)", left);
    append(f->facts, sizeof(f->facts), "; the worst, [%.3f, %.3f]:", w->start, w->end);
}

static void contention_finding(struct profile *p, struct doctor_report *r, const struct pool_usage *u,
                               const struct over_span *const *sp, size_t n, double over_us)
{
    const struct over_span *w = worst_span(sp, n);
    struct finding *f = finding_new(r, "core_contention", "3c", ORDER_CORE_LIMITS, RQ_limits);
    char split[256] = "";
    title_and_facts(f, u, w, n, over_us, u->nspans - n);
    describe_worst(f, p, u, w);
    if (u->queued)
        describe_waited(f, sp, n);
    suggest_split(split, sizeof(split), p, u, sp, n);
    snprintf(f->remedy, sizeof(f->remedy),
             "Size core limits so that the streams running together add up to at most %u %s cores, e.g. %s (in "
             "proportion to the core time of each stream's kernels here, so that both end together; halving cores "
             "costs about 1.2-1.6x latency), and tile each op to the limit in force.",
             u->cores, pool_name(u->pool), split);
    finding_number(f, "demand_blocks", w->demand, 0);
    finding_number(f, "cores", u->cores, 0);
    finding_number(f, "over_us", over_us, 3);
    finding_number(f, "intervals", (double)n, 0);
}

/* "one kernel wider than the cores": launches that run in waves alone. */
static void note_wide(struct profile *p, struct doctor_report *r, const struct pool_usage *u)
{
    for (size_t i = 0; i < u->nwide; i++) {
        const struct wide_launch *w = &u->wide[i];
        char note[512];
        unsigned last = w->blocks - (w->waves - 1) * u->cores;
        snprintf(note, sizeof(note), "Launch shape (no finding): %s (stream %d) asks %u %s blocks of %u cores on its "
                 "own, %zu launch%s (first at %.3f us): its blocks run in %u waves (the last of %u blocks), one "
                 "stream, no contention. A Block Num that is a multiple of the cores (or at most %u) leaves no "
                 "partial wave.", w->name, w->stream, w->blocks, pool_name(u->pool), u->cores, w->launches,
                 w->launches == 1 ? "" : "es", w->first->start, w->waves, last, u->cores);
        doctor_note(p, r, note);
    }
}

void check_core_contention(struct profile *p, struct doctor_report *r)
{
    for (int pool = 0; pool < POOLS; pool++) {
        struct pool_usage u;
        const struct over_span **sp;
        double over_us;
        size_t n;
        pool_usage(p, (enum pool)pool, &p->arena, &u);
        sp = arena_alloc(&p->arena, (u.nspans + 1) * sizeof(*sp));
        n = unexplained(p, &u, sp, &over_us);
        note_wide(p, r, &u);
        if (n > 0)
            contention_finding(p, r, &u, sp, n, over_us);
    }
}
