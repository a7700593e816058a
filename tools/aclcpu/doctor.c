/*
 * doctor.c - runs the triage and holds its first steps: 3a (the side
 * stream never got any ops), 3b (fake or partial parallelism, and what
 * serialised the pair), and the list of waits the later checks share.
 *
 * DESIGN: overlap_pct is computed from kernel_details.csv alone
 * (analysis.c), so a bare Ascend CSV gets the same verdict as an aclcpu
 * profile. The extra facts of trace_view.json and summary.json only
 * explain a verdict: the barrier op of a fake pair is the first main-stream
 * op ordered after an EVENT_WAIT on the side stream's record and before
 * the dominator; a side stream held back by a wait on the main stream, or
 * a batch-mode kernel that waited for cores, are the other explanations.
 * Without those files the explanation is reported as not known, never
 * guessed from timing. A stream that ran no kernel but copies or
 * prefetches is a side stream doing its job, so it is not class 3a. Findings are kept in the guide's order of remedies:
 * dependencies first, then core limits, stream limits, prefetch.
 */
#include "doctor.h"

#include "common.h"

#include <stdlib.h>
#include <string.h>

/* "Right before": a kernel that starts within this share of the dominator
 * after a wait ended was released by it. */
#define FOLLOW_FRACTION 0.02

/* ---- findings ---------------------------------------------------------------------- */

struct finding *finding_new(struct doctor_report *r, const char *kind, const char *seed, enum remedy_order order,
                            enum route_problem problem)
{
    struct finding *f = VEC_PUSH(r->findings, r->nfindings, r->cap);
    memset(f, 0, sizeof(*f));
    f->kind = kind;
    f->seed = seed;
    f->order = order;
    f->problem = problem;
    return f;
}

void finding_number(struct finding *f, const char *key, double value, int decimals)
{
    if (f->nnumbers < FINDING_NUMBERS)
        f->numbers[f->nnumbers++] = (struct finding_number){key, value, decimals};
}

void finding_stream(struct finding *f, int stream)
{
    for (int i = 0; i < f->nstreams; i++)
        if (f->streams[i] == stream)
            return;
    if (f->nstreams < 4)
        f->streams[f->nstreams++] = stream;
}

const char *kernel_ref(char *buf, size_t n, const struct task *k)
{
    if (k->task_id >= 0)
        snprintf(buf, n, "%s (stream %d, task %ld)", k->name, k->stream, k->task_id);
    else
        snprintf(buf, n, "%s (stream %d)", k->name, k->stream);
    return buf;
}

static void note_unchecked(struct doctor_report *r, const char *what)
{
    if (r->nnot_checked < CLI_ARRAY_SIZE(r->not_checked))
        r->not_checked[r->nnot_checked++] = what;
}

void doctor_note(struct profile *p, struct doctor_report *r, const char *text)
{
    if (r->nnotes < CLI_ARRAY_SIZE(r->notes))
        r->notes[r->nnotes++] = arena_strdup(&p->arena, text);
}

/* ---- waits: summary.json's event_waits, else the trace's wait tasks ----------------------- */

static bool has_facts(const struct profile *p) { return p->has_facts; }

/* The event edge that ends at wait task w (edges are ordered by the stream
 * and time they end at), or NULL. */
static const struct edge *edge_into(const struct profile *p, const struct task *w)
{
    size_t lo = 0, hi = p->nedges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct edge *e = &p->edges[mid];
        if (e->to_stream < w->stream || (e->to_stream == w->stream && e->to_t <= w->end - EPS_US))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->nedges && p->edges[lo].to_stream == w->stream && p->edges[lo].to_t < w->end + EPS_US)
        return &p->edges[lo];
    return NULL;
}

/* The stream whose record released wait task w: the event edge that ends
 * at it, else the latest record of the same event on another stream. */
static int recorded_on(const struct profile *p, const struct task *w)
{
    const struct task *best = NULL;
    const struct edge *e = edge_into(p, w);
    if (e != NULL)
        return e->from_stream;
    for (size_t i = 0; i < p->ntasks && w->event_id >= 0; i++) {
        const struct task *t = &p->tasks[i];
        if (task_is_record(t) && t->event_id == w->event_id && t->stream != w->stream && t->end <= w->end + EPS_US &&
            (best == NULL || t->end > best->end))
            best = t;
    }
    return best != NULL ? best->stream : -1;
}

static void collect_waits(const struct profile *p, struct arena *a, struct doctor_report *r)
{
    size_t n = 0;
    r->waits = arena_alloc(a, (p->nevent_waits + p->ntasks + 1) * sizeof(*r->waits));
    if (has_facts(p)) {
        for (size_t i = 0; i < p->nevent_waits; i++) {
            const struct event_wait *e = &p->event_waits[i];
            r->waits[n++] = (struct wait_fact){e->stream, e->task_id, e->event_id, e->recorded_on, e->start, e->end,
                                               e->wait};
        }
    } else {
        for (size_t i = 0; i < p->ntasks; i++) {
            const struct task *t = &p->tasks[i];
            if (task_is_wait(t) && t->dur > EPS_US)
                r->waits[n++] = (struct wait_fact){t->stream, t->task_id, t->event_id, recorded_on(p, t), t->start,
                                                   t->end, t->dur};
        }
    }
    r->nwaits = n;
}

/* ---- 3a: did anything leave the main stream? ------------------------------------------- */

static void list_kernelless_streams(const struct doctor_report *r, struct finding *f)
{
    for (size_t i = 0; i < r->nstreams; i++)
        if (r->streams[i].kernels == 0 && r->streams[i].tasks > 0) {
            append(f->facts, sizeof(f->facts), " Stream %d exists (%zu tasks in trace_view.json) but ran no kernel.",
                   r->streams[i].stream, r->streams[i].tasks);
            finding_stream(f, r->streams[i].stream);
        }
}

/* Copies and prefetches of trace_view.json on stream (none without it). */
size_t data_tasks(const struct profile *p, int stream)
{
    size_t n = 0;
    for (size_t i = 0; i < p->ntasks; i++)
        n += p->tasks[i].stream == stream &&
             (p->tasks[i].kind == TASK_CMO || p->tasks[i].kind == TASK_MEMCPY || p->tasks[i].kind == TASK_MEMSET);
    return n;
}

/* A stream without kernels that moves data (a prefetch or copy stream) is
 * a side stream doing its job, not ops that never left the main stream. */
static bool data_side_stream(const struct profile *p, const struct doctor_report *r)
{
    for (size_t i = 0; i < r->nstreams; i++)
        if (r->streams[i].kernels == 0 && data_tasks(p, r->streams[i].stream) > 0)
            return true;
    return false;
}

static void check_side_streams(const struct profile *p, struct doctor_report *r)
{
    const struct stream_stat *only = NULL;
    size_t with_kernels = 0;
    struct finding *f;
    for (size_t i = 0; i < r->nstreams; i++)
        if (r->streams[i].kernels > 0) {
            only = &r->streams[i];
            with_kernels++;
        }
    if (with_kernels != 1)
        return;
    if (data_side_stream(p, r)) {
        note_unchecked(r, "the prefetches and copies of the streams without kernels (their size against the "
                          "window before the op that reads them; see aclcpu advise --problem prefetch)");
        return;
    }
    f = finding_new(r, "no_side_stream", "3a", ORDER_DEPENDENCIES, RQ_switch);
    finding_stream(f, only->stream);
    snprintf(f->title, sizeof(f->title), "side-stream ops never left the main stream: all %zu kernels ran on stream %d",
             only->kernels, only->stream);
    snprintf(f->facts, sizeof(f->facts), "Only stream %d has kernels (busy %.3f us of %.3f us E2E).", only->stream,
             only->busy, r->totals.e2e);
    list_kernelless_streams(r, f);
    if (p->no_stream > 0)
        append(f->facts, sizeof(f->facts), " %zu rows have no Stream ID.", p->no_stream);
    finding_number(f, "streams_with_kernels", 1, 0);
    snprintf(f->remedy, sizeof(f->remedy),
             "Launch the branch's ops on the side stream, and check that the switch takes effect (in GE graphs "
             "npu_stream_switch is only a tag). Then profile again: a correct Stream ID is the start, overlap_pct the "
             "proof.");
}

/* ---- 3b: what serialised a fake or partial pair ----------------------------------------- */

/* The last wait of the main stream on the side stream's record that ends
 * before the dominator starts and after the side window opened. */
static const struct wait_fact *main_wait_before(const struct doctor_report *r, const struct pair *pr)
{
    const struct wait_fact *best = NULL;
    for (size_t i = 0; i < r->nwaits; i++) {
        const struct wait_fact *w = &r->waits[i];
        if (w->stream == pr->main && w->recorded_on == pr->side && w->end <= pr->dominator->start + EPS_US &&
            w->end > pr->side_window.start + EPS_US && (best == NULL || w->end > best->end))
            best = w;
    }
    return best;
}

/* A wait of the side stream on the main stream's record, released after
 * the dominator started, right before the side stream's first kernel (a
 * wait released long before it does not explain the delay). */
static const struct wait_fact *side_wait_after(const struct doctor_report *r, const struct pair *pr)
{
    double follow = FOLLOW_FRACTION * pr->dominator->dur > EPS_US ? FOLLOW_FRACTION * pr->dominator->dur : EPS_US;
    for (size_t i = 0; i < r->nwaits; i++) {
        const struct wait_fact *w = &r->waits[i];
        if (w->stream == pr->side && w->recorded_on == pr->main && w->end >= pr->dominator->start - EPS_US &&
            w->end <= pr->side_window.start + EPS_US && pr->side_window.start - w->end <= follow)
            return w;
    }
    return NULL;
}

/* A batch-mode kernel of either stream that waited for cores and started
 * where the pair's overlap was lost (the side window opening, or the
 * dominator). */
static const struct batch_wait *pair_batch_wait(const struct profile *p, const struct pair *pr)
{
    for (size_t i = 0; i < p->nbatch_waits; i++) {
        const struct batch_wait *b = &p->batch_waits[i];
        bool side_first = b->stream == pr->side && b->start <= pr->side_window.start + EPS_US;
        bool dominator = b->stream == pr->main && b->start >= pr->dominator->start - EPS_US &&
                         b->start <= pr->dominator->start + EPS_US;
        if ((side_first || dominator) && b->wait > EPS_US)
            return b;
    }
    return NULL;
}

/* summary.json's contention (kernels running or ready at once over a
 * pool) inside the side window, with kernels of both streams: the side's
 * work queued for cores the main stream held. */
static const struct contention *pair_contention(const struct profile *p, const struct pair *pr)
{
    for (size_t i = 0; i < p->ncontention; i++) {
        const struct contention *c = &p->contention[i];
        bool main_k = false, side_k = false;
        if (c->end <= pr->side_window.start + EPS_US || c->start >= pr->side_window.end - EPS_US)
            continue;
        for (size_t k = 0; k < c->nkernels; k++) {
            main_k = main_k || c->kernels[k].stream == pr->main;
            side_k = side_k || c->kernels[k].stream == pr->side;
        }
        if (main_k && side_k)
            return c;
    }
    return NULL;
}

/* The first main-stream kernel that starts at or after t and no later than
 * the dominator. */
static const struct task *first_kernel_after(const struct profile *p, const struct pair *pr, double t)
{
    for (size_t i = 0; i < p->nkernels; i++) {
        const struct task *k = &p->kernels[i];
        if (k->stream == pr->main && k->start >= t - EPS_US && k->start <= pr->dominator->start + EPS_US)
            return k;
    }
    return pr->dominator;
}

static void find_barrier(const struct profile *p, const struct doctor_report *r, const struct pair *pr,
                         struct barrier *b)
{
    memset(b, 0, sizeof(*b));
    if ((b->wait = main_wait_before(r, pr)) != NULL) {
        b->op = first_kernel_after(p, pr, b->wait->end);
        b->kind = b->op == pr->dominator ? BARRIER_DOMINATOR_WAITS : BARRIER_OP;
    } else if ((b->wait = side_wait_after(r, pr)) != NULL) {
        b->kind = BARRIER_SIDE_WAITS;
    } else if ((b->batch = pair_batch_wait(p, pr)) != NULL) {
        b->kind = BARRIER_CORES;
    } else if ((b->contention = pair_contention(p, pr)) != NULL) {
        b->kind = BARRIER_CONTENTION;
    } else {
        b->kind = p->has_trace || has_facts(p) ? BARRIER_UNEXPLAINED : BARRIER_NO_TRACE;
    }
}

/* Where the dominator lies against the side window, when they do not meet. */
static void append_gap(struct finding *f, const struct pair *pr)
{
    if (pr->dominator->start >= pr->side_window.end)
        append(f->facts, sizeof(f->facts), " starts %.3f us after the side window ends",
               pr->dominator->start - pr->side_window.end);
    else
        append(f->facts, sizeof(f->facts), " ends %.3f us before the side window opens",
               pr->side_window.start - pr->dominator->end);
}

/* The pair's streams and figures, as every overlap finding carries them. */
static void pair_numbers(struct finding *f, const struct pair *pr)
{
    finding_stream(f, pr->main);
    finding_stream(f, pr->side);
    finding_number(f, "overlap_pct", pr->pct, 4);
    finding_number(f, "overlap_us", pr->overlap_us, 3);
    finding_number(f, "main_stream", pr->main, 0);
    finding_number(f, "side_stream", pr->side, 0);
}

/* The pair judged on its fork/join episodes: the totals, then the worst one. */
static void describe_episodes(struct finding *f, const struct pair *pr)
{
    const struct ep_episode *ep = pr->worst;
    const struct ep_total *t = &pr->total;
    char dom[256];
    kernel_ref(dom, sizeof(dom), pr->dominator);
    snprintf(f->facts, sizeof(f->facts),
             "Main stream %d (%s) forked side stream %d in %zu episode%s: %zu real, %zu partial, %zu fake (%zu joined "
             "right after the fork, %zu never joined). overlap_pct = %.3f / %.3f = %.2f: the side's work hidden "
             "behind the main kernels issued between fork and join, over the smaller of the two, summed over the "
             "episodes (%s; real >= 0.5, fake <= 0.05). The worst: fork event %d recorded at %.3f; side window "
             "[%.3f, %.3f] (%.3f us of kernels)",
             pr->main, main_reason(pr->by), pr->side, t->episodes, t->episodes == 1 ? "" : "s", t->real, t->partial,
             t->fake, t->early, t->no_join, t->overlap_us, t->base_us, pr->pct, verdict_name(pr->verdict),
             ep->fork_event, ep->fork_t, pr->side_window.start, pr->side_window.end, ep->side_us);
    if (ep->join_event >= 0)
        append(f->facts, sizeof(f->facts), "; join event %d recorded at %.3f, main's wait released at %.3f",
               ep->join_event, ep->side_to, ep->join_t);
    else
        append(f->facts, sizeof(f->facts), "; never joined");
    if (ep->early)
        append(f->facts, sizeof(f->facts), "; main issued no kernel between fork and join, so nothing could hide "
               "it; the op that should, %s [%.3f, %.3f], came after the join", dom, pr->dominator->start,
               pr->dominator->end);
    else if (pr->dominator_by_length)
        append(f->facts, sizeof(f->facts), "; no main kernel issued between fork and join meets it; the longest, "
               "%s [%.3f, %.3f], should hide it", dom, pr->dominator->start, pr->dominator->end);
    else
        append(f->facts, sizeof(f->facts), "; main's %s [%.3f, %.3f] meets it most; it hid %.3f of %.3f us "
               "(overlap_pct %.2f)", dom, pr->dominator->start, pr->dominator->end, ep->overlap_us, ep->side_us,
               ep->pct);
    append(f->facts, sizeof(f->facts), ".");
    pair_numbers(f, pr);
    finding_number(f, "episodes", (double)t->episodes, 0);
    finding_number(f, "early_joins", (double)t->early, 0);
}

static void describe_pair(struct finding *f, const struct pair *pr)
{
    char dom[256];
    double side_len = pr->side_window.end - pr->side_window.start;
    if (pr->by_episodes) {
        describe_episodes(f, pr);
        return;
    }
    kernel_ref(dom, sizeof(dom), pr->dominator);
    snprintf(f->facts, sizeof(f->facts), "Side stream %d's window is [%.3f, %.3f] (%.3f us). ", pr->side,
             pr->side_window.start, pr->side_window.end, side_len);
    if (pr->dominator_by_length) {
        append(f->facts, sizeof(f->facts), "It meets no kernel of main stream %d; the op that should hide it, its "
               "longest kernel %s [%.3f, %.3f],", pr->main, dom, pr->dominator->start, pr->dominator->end);
        append_gap(f, pr);
    } else {
        append(f->facts, sizeof(f->facts), "Main stream %d's dominator %s [%.3f, %.3f] meets it for %.3f us", pr->main,
               dom, pr->dominator->start, pr->dominator->end, pr->overlap_us);
    }
    append(f->facts, sizeof(f->facts), ". overlap_pct = %.3f / min(%.3f, %.3f) = %.2f (%s; real >= 0.5, fake <= 0.05).",
           pr->overlap_us, side_len, pr->dominator->dur, pr->pct, verdict_name(pr->verdict));
    pair_numbers(f, pr);
}

static void wait_ref(char *buf, size_t n, const struct wait_fact *w)
{
    snprintf(buf, n, "the EVENT_WAIT (stream %d, task %ld) on event %d recorded on stream %d", w->stream, w->task_id,
             w->event_id, w->recorded_on);
}

static void explain_op(struct finding *f, const struct pair *pr, const struct barrier *b)
{
    char op[256], wait[256];
    kernel_ref(op, sizeof(op), b->op);
    wait_ref(wait, sizeof(wait), b->wait);
    snprintf(f->cause, sizeof(f->cause),
             "Barrier: %s, the first main-stream op after %s, which held stream %d for %.3f us; it is ordered "
             "before %s, so stream %d cannot run %s beside stream %d.",
             op, wait, pr->main, b->wait->wait, pr->dominator->name, pr->main, pr->dominator->name, pr->side);
    snprintf(f->remedy, sizeof(f->remedy),
             "Fix the dependency first: %s consumes the side output, so move it into the side-stream block (pin the "
             "pre-compute there), and join stream %d after %s is issued, just before the first op that needs the "
             "side result.",
             b->op->name, pr->main, pr->dominator->name);
}

static void explain_dominator_waits(struct finding *f, const struct pair *pr, const struct barrier *b)
{
    char wait[256];
    wait_ref(wait, sizeof(wait), b->wait);
    snprintf(f->cause, sizeof(f->cause),
             "Barrier: %s comes right before the dominator %s and held stream %d for %.3f us: the dominator is "
             "ordered after the whole side stream.",
             wait, pr->dominator->name, pr->main, b->wait->wait);
    snprintf(f->remedy, sizeof(f->remedy),
             "Fix the dependency first: issue the wait after %s (join later), just before the first op of stream %d "
             "that needs the side result; if %s itself needs it, the branch cannot overlap it.",
             pr->dominator->name, pr->main, pr->dominator->name);
}

static void explain_side_waits(struct finding *f, const struct pair *pr, const struct barrier *b)
{
    char wait[256];
    wait_ref(wait, sizeof(wait), b->wait);
    snprintf(f->cause, sizeof(f->cause),
             "Barrier: stream %d started only when %s was released at %.3f, after %s started: the side branch is "
             "ordered after the main stream's work.",
             pr->side, wait, b->wait->end, pr->dominator->name);
    snprintf(f->remedy, sizeof(f->remedy),
             "Fix the dependency first: record the event on stream %d right after the op the branch really needs "
             "(before %s), or drop the wait if the branch does not depend on stream %d.",
             pr->main, pr->dominator->name, pr->main);
}

static void explain_cores(struct finding *f, const struct profile *p, const struct pair *pr, const struct barrier *b)
{
    snprintf(f->cause, sizeof(f->cause),
             "No event orders them: %s (stream %d, task %ld, batch mode, %u %s blocks) was ready at %.3f but waited "
             "%.3f us for free cores (%u %s cores): the streams serialised on cores.",
             b->batch->name, b->batch->stream, b->batch->task_id, b->batch->blocks, pool_name(b->batch->pool),
             b->batch->ready, b->batch->wait, p->soc.cores[b->batch->pool], pool_name(b->batch->pool));
    snprintf(f->remedy, sizeof(f->remedy),
             "Not a dependency: limit the cores of streams %d and %d so that the kernels that must run together add "
             "up to at most %u %s cores (see the batch-mode finding).",
             pr->main, pr->side, p->soc.cores[b->batch->pool], pool_name(b->batch->pool));
    f->order = ORDER_CORE_LIMITS;
    f->problem = RQ_limits;
}

static void explain_contention(struct finding *f, const struct profile *p, const struct pair *pr,
                               const struct barrier *b)
{
    const struct contention *c = b->contention;
    snprintf(f->cause, sizeof(f->cause),
             "No event orders them: in [%.3f, %.3f] the kernels of streams %d and %d ready at once asked %u %s "
             "blocks of %u %s cores (summary.json): the side stream's kernels queued for cores the main stream "
             "held, so they ran mostly one after the other.",
             c->start, c->end, pr->main, pr->side, c->demand, pool_name(c->pool), p->soc.cores[c->pool],
             pool_name(c->pool));
    snprintf(f->remedy, sizeof(f->remedy),
             "Not a dependency: limit the cores of streams %d and %d so that the kernels that must run together add "
             "up to at most %u %s cores (see the core-contention finding).",
             pr->main, pr->side, p->soc.cores[c->pool], pool_name(c->pool));
    f->order = ORDER_CORE_LIMITS;
    f->problem = RQ_limits;
}

static void explain_unknown(struct finding *f, const struct pair *pr, bool no_trace)
{
    if (no_trace)
        snprintf(f->cause, sizeof(f->cause),
                 "Barrier: not known. kernel_details.csv has no event tasks; read the profile directory with "
                 "trace_view.json, or find the first op of stream %d that consumes a stream %d output and is ordered "
                 "before %s.",
                 pr->main, pr->side, pr->dominator->name);
    else
        snprintf(f->cause, sizeof(f->cause),
                 "Barrier: not found. No EVENT_WAIT of stream %d on stream %d precedes %s, stream %d waits on no "
                 "record of stream %d, and no batch-mode kernel waited: look for a host synchronisation between "
                 "the launches (the Host lane of trace_view.json).",
                 pr->main, pr->side, pr->dominator->name, pr->side, pr->main);
    snprintf(f->remedy, sizeof(f->remedy),
             "Fix the dependency first: the branch must not be ordered before %s; join after it, at the first op "
             "that needs the side result.",
             pr->dominator->name);
}

static void explain(struct finding *f, const struct profile *p, const struct pair *pr, const struct barrier *b)
{
    switch (b->kind) {
    case BARRIER_OP: explain_op(f, pr, b); break;
    case BARRIER_DOMINATOR_WAITS: explain_dominator_waits(f, pr, b); break;
    case BARRIER_SIDE_WAITS: explain_side_waits(f, pr, b); break;
    case BARRIER_CORES: explain_cores(f, p, pr, b); break;
    case BARRIER_CONTENTION: explain_contention(f, p, pr, b); break;
    case BARRIER_NO_TRACE: explain_unknown(f, pr, true); break;
    case BARRIER_UNEXPLAINED: explain_unknown(f, pr, false); break;
    }
}

static void check_pairs(const struct profile *p, struct doctor_report *r)
{
    r->barriers = xcalloc(r->npairs + 1, sizeof(*r->barriers));
    for (size_t i = 0; i < r->npairs; i++) {
        const struct pair *pr = &r->pairs[i];
        bool fake = pr->verdict == VERDICT_FAKE;
        struct finding *f;
        if (pr->verdict == VERDICT_REAL)
            continue;
        find_barrier(p, r, pr, &r->barriers[i]);
        f = finding_new(r, fake ? "fake_parallel" : "partial_overlap", "3b", ORDER_DEPENDENCIES, RQ_order);
        snprintf(f->title, sizeof(f->title), "%s: streams %d and %d ran %s (overlap_pct %.2f)",
                 fake ? "fake parallelism" : "partial overlap", pr->main, pr->side,
                 fake ? "one after the other" : "mostly one after the other", pr->pct);
        describe_pair(f, pr);
        explain(f, p, pr, &r->barriers[i]);
    }
}

/* ---- the run ------------------------------------------------------------------------------ */

static void list_unchecked(const struct profile *p, const struct doctor_opts *o, struct doctor_report *r)
{
    if (!p->has_trace && !has_facts(p))
        note_unchecked(r, "the barrier op of fake parallelism and EVENT_WAIT gaps after the join: "
                          "kernel_details.csv has no event tasks (read the profile directory with trace_view.json)");
    if (!has_facts(p))
        note_unchecked(r, "batch-mode kernels that could not start, and kernels queued for cores in use: needs "
                          "summary.json (batch_waits, core_usage.contention); only kernels running at once over "
                          "the cores were checked");
    if (!p->has_trace && !has_facts(p) && o->nlimits == 0)
        note_unchecked(r, "Block Num against the core limits in force: kernel_details.csv does not carry them "
                          "(pass --limit STREAM=cNvM)");
    if (r->npairs == 0)
        note_unchecked(r, "overlap_pct: fewer than two streams ran kernels");
}

/* Stable: findings keep their order of discovery within a remedy step. */
static void sort_by_order(struct doctor_report *r)
{
    for (size_t i = 1; i < r->nfindings; i++) {
        struct finding f = r->findings[i];
        size_t j = i;
        for (; j > 0 && r->findings[j - 1].order > f.order; j--)
            r->findings[j] = r->findings[j - 1];
        r->findings[j] = f;
    }
}

/* Kernels modelled from their measured CPU time (summary.json's
 * measured_kernels): every verdict on them is about this host's times. */
static void note_measured(struct profile *p, struct doctor_report *r)
{
    char note[1024], one[256];
    if (p->nmeasured == 0)
        return;
    snprintf(note, sizeof(note), "Modelled from measured CPU time (no declared cost, so their times are this CPU's, "
             "not the chip's; aclcpuSetKernelCost declares one): ");
    for (size_t i = 0; i < p->nmeasured && i < 4; i++) {
        describe_measured(&p->measured[i], one, sizeof(one));
        append(note, sizeof(note), "%s%s", i ? "; " : "", one);
    }
    if (p->nmeasured > 4)
        append(note, sizeof(note), "; and %zu more (aclcpu summary lists them)", p->nmeasured - 4);
    append(note, sizeof(note), ".");
    doctor_note(p, r, note);
}

void doctor_run(struct profile *p, const struct doctor_opts *o, struct doctor_report *r)
{
    memset(r, 0, sizeof(*r));
    profile_totals(p, &r->totals);
    r->nstreams = stream_stats(p, &p->arena, &r->streams);
    profile_structure(p, r->streams, r->nstreams, &p->arena, &r->structure);
    r->npairs = stream_pairs(r->streams, r->nstreams, &r->structure, &p->arena, &r->pairs);
    collect_waits(p, &p->arena, r);
    check_side_streams(p, r);
    check_pairs(p, r);
    check_core_contention(p, r);
    check_batch_waits(p, r);
    check_limits(p, o, r);
    check_stream_tails(p, o, r);
    check_join_gaps(p, r);
    note_measured(p, r);
    list_unchecked(p, o, r);
    sort_by_order(r);
}

void doctor_free(struct doctor_report *r)
{
    free(r->findings);
    free(r->barriers);
    r->findings = NULL;
    r->barriers = NULL;
}
