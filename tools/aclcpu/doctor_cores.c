/*
 * doctor_cores.c - the triage's class 3c (real overlap without speed-up)
 * and the acceptance checks of docs/multistream.md §3.3.
 *
 * DESIGN: core contention itself is doctor_contention.c's. A batch-mode
 * kernel that could not start, and the kernels that held its cores, come
 * from summary.json's batch_waits. A limit is "set" when the limit in
 * force at launch (trace_view.json's Core Limit, summary.json's limits, or
 * --limit for a bare CSV) is below the SoC's cores; Block Num above it is
 * a finding because limits are cooperative (the runtime never clamps).
 * A stream has a tail when, after the pair's overlap, one stream runs on
 * alone while the other's cores sit idle: the side stream (the main stream
 * then waits at the join: an EVENT_WAIT gap), or a core-limited dominator
 * that outlives the side window. Join gaps add up per pair of streams: a
 * layered program joins once a layer, and a gap too small to matter alone
 * repeats. A side stream's wait for its fork is not a join: a wait on the
 * other stream of a pair counts only on the pair's main stream (episodes.c),
 * where idling is lost time; on the side stream it is slack.
 */
#include "doctor.h"

#include <string.h>

/* A stream runs on alone for at least this share of its dominator. */
#define TAIL_FRACTION 0.2
/* An EVENT_WAIT gap worth a finding: this share of E2E, and at least this long. */
#define GAP_FRACTION 0.01
#define GAP_MIN_US 0.5

static enum pool primary_pool(const struct task *k)
{
    return k->engine == ENG_CUBE || k->engine == ENG_MIX_AIC ? POOL_CUBE : POOL_VECTOR;
}

/* The first trace task at or after (stream, start) in the trace's order. */
static size_t lower_bound(const struct profile *p, int stream, double start)
{
    size_t lo = 0, hi = p->ntasks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct task *t = &p->tasks[mid];
        if (t->stream < stream || (t->stream == stream && t->start < start))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const struct task *trace_task_of(const struct profile *p, const struct task *k)
{
    for (size_t i = lower_bound(p, k->stream, k->start - EPS_US); i < p->ntasks; i++) {
        const struct task *t = &p->tasks[i];
        if (t->stream != k->stream || t->start >= k->start + EPS_US)
            break;
        if (t->kind == TASK_KERNEL)
            return t;
    }
    return NULL;
}

int limit_for(const struct task *k, const struct profile *p, const struct doctor_opts *o, enum pool pool)
{
    const struct task *t = trace_task_of(p, k);
    if (t != NULL && t->limit[pool] != NO_LIMIT)
        return t->limit[pool];
    for (size_t i = 0; i < o->nlimits; i++)
        if (o->limits[i].stream == k->stream)
            return o->limits[i].limit[pool];
    return NO_LIMIT;
}

/* ---- batch-mode kernels that could not start -------------------------------------------- */

static void batch_finding(struct profile *p, struct doctor_report *r, const struct batch_wait *b)
{
    struct finding *f = finding_new(r, "batch_wait", "3c", ORDER_CORE_LIMITS, RQ_limits);
    unsigned held = 0, cores = p->soc.cores[b->pool];
    char ref[256];
    finding_stream(f, b->stream);
    snprintf(f->title, sizeof(f->title), "batch-mode kernel could not start: %s (stream %d) waited %.3f us for %u %s cores",
             b->name, b->stream, b->wait, b->blocks, pool_name(b->pool));
    snprintf(f->facts, sizeof(f->facts), "%s (stream %d, task %ld) was ready at %.3f and started at %.3f; meanwhile",
             b->name, b->stream, b->task_id, b->ready, b->start);
    for (size_t i = 0; i < p->nkernels; i++) {
        const struct task *k = &p->kernels[i];
        unsigned d = task_demand(k, b->pool, &p->soc);
        if (k->stream == b->stream || d == 0 || k->end <= b->ready + EPS_US || k->start >= b->start - EPS_US)
            continue;
        append(f->facts, sizeof(f->facts), "%s %s held %u", held ? "," : "", kernel_ref(ref, sizeof(ref), k), d);
        held += d;
        finding_stream(f, k->stream);
    }
    append(f->facts, sizeof(f->facts), "%s: %u + %u = %u > %u %s cores. A batch-mode kernel starts only when all its "
           "blocks' cores are free at once.", held ? "" : " no other kernel is known to have held cores", b->blocks,
           held, b->blocks + held, cores, pool_name(b->pool));
    snprintf(f->remedy, sizeof(f->remedy),
             "Limit the streams so that kernels that can be ready together add up to at most %u %s cores (e.g. %u "
             "each for two streams); two gang kernels over the total can interlock and hang.",
             cores, pool_name(b->pool), cores / 2);
    finding_number(f, "wait_us", b->wait, 3);
    finding_number(f, "block_num", b->blocks, 0);
    finding_number(f, "held_blocks", held, 0);
    finding_number(f, "cores", cores, 0);
}

void check_batch_waits(struct profile *p, struct doctor_report *r)
{
    for (size_t i = 0; i < p->nbatch_waits; i++)
        if (p->batch_waits[i].wait > EPS_US)
            batch_finding(p, r, &p->batch_waits[i]);
}

/* ---- Block Num over the limit in force ------------------------------------------------------ */

struct limit_group {
    int stream;
    enum pool pool;
    unsigned limit, max_blocks;
    size_t count;
    const char *names[4];
    long task_ids[4];
    unsigned blocks[4];
};

static void add_hit(struct limit_group *g, size_t *ng, size_t max, int stream, enum pool pool, unsigned limit,
                    const char *name, long task_id, unsigned blocks)
{
    size_t i = 0;
    while (i < *ng && !(g[i].stream == stream && g[i].pool == pool && g[i].limit == limit))
        i++;
    if (i == *ng) {
        if (*ng == max)
            return;
        g[(*ng)++] = (struct limit_group){.stream = stream, .pool = pool, .limit = limit};
    }
    if (g[i].count < 4) {
        g[i].names[g[i].count] = name;
        g[i].task_ids[g[i].count] = task_id;
        g[i].blocks[g[i].count] = blocks;
    }
    g[i].count++;
    g[i].max_blocks = blocks > g[i].max_blocks ? blocks : g[i].max_blocks;
}

/* Hits from the limits in force per kernel (trace args, --limit). */
static size_t hits_from_kernels(const struct profile *p, const struct doctor_opts *o, struct limit_group *g, size_t max)
{
    size_t ng = 0;
    for (size_t i = 0; i < p->nkernels; i++)
        for (int pool = 0; pool < POOLS; pool++) {
            const struct task *k = &p->kernels[i];
            unsigned d = task_demand(k, (enum pool)pool, &p->soc);
            int lim = limit_for(k, p, o, (enum pool)pool);
            if (d > 0 && lim != NO_LIMIT && (unsigned)lim < p->soc.cores[pool] && d > (unsigned)lim)
                add_hit(g, &ng, max, k->stream, (enum pool)pool, (unsigned)lim, k->name, k->task_id, d);
        }
    return ng;
}

static void limit_finding(const struct profile *p, struct doctor_report *r, const struct limit_group *g)
{
    struct finding *f = finding_new(r, "limit_exceeded", "acceptance", ORDER_CORE_LIMITS, RQ_limits);
    const char *pool = pool_name(g->pool);
    finding_stream(f, g->stream);
    if (g->count == 1)
        snprintf(f->title, sizeof(f->title), "Block Num over the core limit: stream %d launched %s with %u %s blocks "
                 "under a limit of %u", g->stream, g->names[0], g->max_blocks, pool, g->limit);
    else
        snprintf(f->title, sizeof(f->title), "Block Num over the core limit: %zu kernels of stream %d exceed its %s "
                 "limit of %u (up to %u blocks)", g->count, g->stream, pool, g->limit, g->max_blocks);
    snprintf(f->facts, sizeof(f->facts), "Stream %d, %s limit %u:", g->stream, pool, g->limit);
    for (size_t i = 0; i < g->count && i < 4; i++)
        append(f->facts, sizeof(f->facts), "%s %s (task %ld) %u blocks", i ? "," : "", g->names[i], g->task_ids[i],
               g->blocks[i]);
    append(f->facts, sizeof(f->facts), "%s. Limits are cooperative: the runtime does not clamp numBlocks, so the "
           "stream takes more than its share of the %u %s cores and the split no longer holds.",
           g->count > 4 ? ", ..." : "", p->soc.cores[g->pool], pool);
    snprintf(f->remedy, sizeof(f->remedy),
             "Size numBlocks from the limit in force (read it back with the stream's limit), or launch through an "
             "op whose tiling reads it; ops that ignore limits (AI CPU, some TBE/ATB, HCCL outside AIV mode) cannot "
             "be split this way.");
    finding_number(f, "block_num", g->max_blocks, 0);
    finding_number(f, "limit", g->limit, 0);
    finding_number(f, "kernels", (double)g->count, 0);
}

void check_limits(struct profile *p, const struct doctor_opts *o, struct doctor_report *r)
{
    /* At most one group per hit: as many as there are kernels and facts. */
    size_t max = POOLS * p->nkernels + p->nlimits + 1, ng = 0;
    struct limit_group *groups = arena_alloc(&p->arena, max * sizeof(*groups));
    if (p->has_facts && o->nlimits == 0) {
        for (size_t i = 0; i < p->nlimits; i++) {
            const struct limit_hit *h = &p->limits[i];
            if (h->limit < p->soc.cores[h->pool] && h->blocks > h->limit)
                add_hit(groups, &ng, max, h->stream, h->pool, h->limit, h->name, h->task_id, h->blocks);
        }
    } else {
        ng = hits_from_kernels(p, o, groups, max);
    }
    for (size_t i = 0; i < ng; i++)
        limit_finding(p, r, &groups[i]);
}

/* ---- a stream with a tail ------------------------------------------------------------------ */

static void tail_finding(const struct profile *p, struct doctor_report *r, const struct pair *pr, int lim, double alone)
{
    const struct task *dom = pr->dominator;
    enum pool pool = primary_pool(dom);
    struct finding *f = finding_new(r, "stream_tail", "3c", ORDER_CORE_LIMITS, RQ_tail);
    char ref[256];
    unsigned cores = p->soc.cores[pool];
    finding_stream(f, pr->main);
    finding_stream(f, pr->side);
    snprintf(f->title, sizeof(f->title), "stream %d has a tail: %s runs %.3f us alone after stream %d's work, on a "
             "%s limit of %d", pr->main, dom->name, alone, pr->side, pool_name(pool), lim);
    snprintf(f->facts, sizeof(f->facts), "Stream %d's side window ends at %.3f; %s [%.3f, %.3f] runs on until %.3f "
             "limited to %d of %u %s cores: %u cores idle for %.3f us (%.0f%% of it).", pr->side, pr->side_window.end,
             kernel_ref(ref, sizeof(ref), dom), dom->start, dom->end, dom->end, lim, cores, pool_name(pool),
             cores - (unsigned)lim, alone, 100.0 * alone / dom->dur);
    snprintf(f->remedy, sizeof(f->remedy), "Rebalance the split so both streams end together: give stream %d more "
             "cores and stream %d fewer (core limits first, then stream limits); prefetch only if %s waits on weight "
             "reads.", pr->main, pr->side, dom->name);
    finding_number(f, "tail_us", alone, 3);
    finding_number(f, "limit", lim, 0);
    finding_number(f, "cores", cores, 0);
}

void check_stream_tails(struct profile *p, const struct doctor_opts *o, struct doctor_report *r)
{
    for (size_t i = 0; i < r->npairs; i++) {
        const struct pair *pr = &r->pairs[i];
        const struct task *dom = pr->dominator;
        enum pool pool = primary_pool(dom);
        int lim = limit_for(dom, p, o, pool);
        double from = pr->side_window.end > dom->start ? pr->side_window.end : dom->start;
        double alone = dom->end - from;
        if (pr->verdict != VERDICT_REAL || lim == NO_LIMIT || (unsigned)lim >= p->soc.cores[pool])
            continue;
        if (alone >= TAIL_FRACTION * dom->dur && alone > EPS_US)
            tail_finding(p, r, pr, lim, alone);
    }
}

/* ---- EVENT_WAIT gaps after the join --------------------------------------------------------- */

static bool is_barrier_wait(const struct doctor_report *r, const struct wait_fact *w)
{
    for (size_t i = 0; i < r->npairs; i++)
        if (r->barriers != NULL && r->barriers[i].wait == w)
            return true;
    return false;
}

/* A join: the stream had run a kernel before it waited (not a fork at its
 * start). Its kernels are in start order; the first to end is among them. */
static bool ran_before(const struct doctor_report *r, int stream, double t)
{
    for (size_t i = 0; i < r->nstreams; i++) {
        const struct stream_stat *s = &r->streams[i];
        if (s->stream != stream)
            continue;
        for (size_t k = 0; k < s->kernels && s->list[k]->start <= t + EPS_US; k++)
            if (s->list[k]->end <= t + EPS_US)
                return true;
    }
    return false;
}

/* The kernels of the stream w waited for that ran during it, into the facts. */
static void append_meanwhile(const struct profile *p, struct finding *f, const struct wait_fact *w, const char *lead)
{
    char ref[256];
    size_t shown = 0;
    for (size_t i = 0; i < p->nkernels && w->recorded_on >= 0 && shown < 3; i++) {
        const struct task *k = &p->kernels[i];
        if (k->stream != w->recorded_on || k->end <= w->start + EPS_US || k->start >= w->end - EPS_US)
            continue;
        append(f->facts, sizeof(f->facts), "%s %s [%.3f, %.3f]", shown++ ? "," : lead, kernel_ref(ref, sizeof(ref), k),
               k->start, k->end);
    }
    append(f->facts, sizeof(f->facts), "%s", shown ? ": that stream is the tail." : ".");
}

static void gap_title(struct finding *f, const struct wait_fact *const *w, size_t n, double total)
{
    double whole = 0;
    if (n == 1) {
        snprintf(f->title, sizeof(f->title), "EVENT_WAIT gap after the join: stream %d idled %.3f us waiting for "
                 "event %d of stream %d", w[0]->stream, total, w[0]->event_id, w[0]->recorded_on);
        snprintf(f->facts, sizeof(f->facts), "The wait (stream %d, task %ld) spans [%.3f, %.3f]", w[0]->stream,
                 w[0]->task_id, w[0]->start, w[0]->end);
        return;
    }
    snprintf(f->title, sizeof(f->title), "EVENT_WAIT gaps after the join: stream %d idled %.3f us in %zu waits for "
             "stream %d", w[0]->stream, total, n, w[0]->recorded_on);
    snprintf(f->facts, sizeof(f->facts), "The waits of stream %d (task:", w[0]->stream);
    for (size_t i = 0; i < n && i < 6; i++)
        append(f->facts, sizeof(f->facts), "%s %ld [%.3f, %.3f] %.3f us", i ? "," : "", w[i]->task_id, w[i]->start,
               w[i]->end, w[i]->wait);
    for (size_t i = 0; i < n; i++)
        whole += w[i]->wait;
    append(f->facts, sizeof(f->facts), "%s) add up to %.3f us.", n > 6 ? ", ..." : "", whole);
}

static void gap_finding(const struct profile *p, struct doctor_report *r, const struct wait_fact *const *w, size_t n,
                        double total, double threshold)
{
    struct finding *f = finding_new(r, "join_wait_gap", "acceptance", ORDER_CORE_LIMITS, RQ_tail);
    const struct wait_fact *longest = w[0];
    char lead[96];
    for (size_t i = 1; i < n; i++)
        longest = w[i]->wait > longest->wait ? w[i] : longest;
    finding_stream(f, w[0]->stream);
    if (w[0]->recorded_on >= 0)
        finding_stream(f, w[0]->recorded_on);
    gap_title(f, w, n, total);
    if (n == 1)
        snprintf(lead, sizeof(lead), "; meanwhile");
    else
        snprintf(lead, sizeof(lead), " In the longest, [%.3f, %.3f], stream %d ran", longest->start, longest->end,
                 longest->recorded_on);
    append_meanwhile(p, f, longest, lead);
    if (p->soc.sync_us > EPS_US)
        append(f->facts, sizeof(f->facts), " Idle beyond the %.3f us each join costs on this SoC when the stream "
               "waited for is on time (dispatch and event release): %.3f us.", p->soc.sync_us, total);
    if (p->step >= 0)
        append(f->facts, sizeof(f->facts), " Reported at or above %.3f us: the larger of %.0f%% of step %d's E2E (%.3f us) "
               "and %.3f us.", threshold, GAP_FRACTION * 100, p->step, r->totals.e2e, GAP_MIN_US);
    else
        append(f->facts, sizeof(f->facts), " Reported at or above %.3f us: the larger of %.0f%% of the profile's E2E "
               "(%.3f us, the whole profile) and %.3f us.", threshold, GAP_FRACTION * 100, r->totals.e2e, GAP_MIN_US);
    snprintf(f->remedy, sizeof(f->remedy), "Make stream %d finish in time: first fix what delays it (a batch wait, "
             "core contention or a dependency above), then move cores to it (core limits), or join later if stream "
             "%d has independent work to run meanwhile.", w[0]->recorded_on, w[0]->stream);
    finding_number(f, "wait_us", total, 3);
    finding_number(f, "waits", (double)n, 0);
    finding_number(f, "longest_us", longest->wait, 3);
    finding_number(f, "event_id", w[0]->event_id, 0);
    finding_number(f, "threshold_us", threshold, 3);
}

/* A side stream waiting for the main stream's record is a fork (the side
 * branch waits for its input, as every layer's branch does), not a join:
 * only the main stream of a pair joins. With no pair to say, any stream. */
static bool is_join(const struct doctor_report *r, const struct wait_fact *w)
{
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].side == w->stream && r->pairs[i].main == w->recorded_on)
            return false;
    return true;
}

/* How long a wait idled beyond what the join itself costs when the
 * stream waited for is on time (the SoC's dispatch and event release). */
static double idle_beyond_sync(const struct profile *p, const struct wait_fact *w)
{
    return w->wait - p->soc.sync_us;
}

/* A wait that left a gap after a join: not a fork, not the barrier of a
 * fake pair, on a stream that had run a kernel before it. */
static bool is_join_gap(const struct profile *p, const struct doctor_report *r, const struct wait_fact *w)
{
    return idle_beyond_sync(p, w) > EPS_US && !is_barrier_wait(r, w) && is_join(r, w) &&
           ran_before(r, w->stream, w->start);
}

/* The gaps add up per (stream, stream waited for): a layered program joins
 * once a layer, and each small gap repeats. */
void check_join_gaps(struct profile *p, struct doctor_report *r)
{
    double threshold = GAP_FRACTION * r->totals.e2e > GAP_MIN_US ? GAP_FRACTION * r->totals.e2e : GAP_MIN_US;
    const struct wait_fact **group = arena_alloc(&p->arena, (r->nwaits + 1) * sizeof(*group));
    bool *used = arena_alloc(&p->arena, r->nwaits + 1);
    for (size_t i = 0; i < r->nwaits; i++) {
        const struct wait_fact *w = &r->waits[i];
        size_t n = 0;
        double total = 0;
        if (used[i] || !is_join_gap(p, r, w))
            continue;
        for (size_t j = i; j < r->nwaits; j++)
            if (!used[j] && r->waits[j].stream == w->stream && r->waits[j].recorded_on == w->recorded_on &&
                is_join_gap(p, r, &r->waits[j])) {
                used[j] = true;
                group[n++] = &r->waits[j];
                total += idle_beyond_sync(p, &r->waits[j]);
            }
        if (total >= threshold)
            gap_finding(p, r, group, n, total, threshold);
    }
}
