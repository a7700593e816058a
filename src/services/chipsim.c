/*
 * chipsim.c - the modelled clock: a discrete-event simulation of a
 * profiled run on the SoC profile in force.
 *
 * DESIGN: every profile entry is a node of a graph whose edges are stream
 * order, event and notify records, the host's syncs (a task issued after a
 * sync cannot start before the sync returned), model runs (a lane's first
 * task after the run's begin, the run's end after every lane) and the
 * serialisation of one model's runs. A node runs once all its
 * predecessors ended. Kernels need cores: a cube kernel takes one cube
 * core per block, a vector kernel one vector core, a mix kernel a cube and
 * two vector cores per unit (MIX_AIC: a unit per block; MIX_AIV: a unit per
 * two blocks). Normal-mode kernels start blocks as cores free, oldest
 * ready kernel first; a batch-mode kernel starts all its blocks at once
 * and, while it waits, holds back the kernels behind it that need the
 * same cores. Each block reads its share of the kernel's HBM bytes, then
 * computes for its time; a launch's once-only cost rides on the blocks
 * that start with it. HBM bandwidth is shared by everything reading at
 * once (max-min fair, each block at most HBM / the SoC's saturating core
 * count); host<->device copies share the host link. A PREFETCH moves
 * bytes into L2 as it goes; the next kernel whose argument points at the
 * range reads those bytes from L2 instead. Every stream task starts the
 * SoC's dispatch latency after it could, and a wait ends the event
 * latency after its record (delay jobs); events, host functions and
 * markers cost nothing else. docs/model.md states the laws.
 *
 * Determinism: nothing here reads a clock, and ties are broken by stream
 * and task numbers, never by entry ids (which depend on the host's thread
 * interleaving), so the same program with the same costs gives the same
 * numbers.
 *
 * Threads: the thread that stops the profile, alone (prof_end waited for
 * every profiled task). No locks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "profile.h"

enum job_kind { JOB_READ, JOB_COMPUTE, JOB_COPY, JOB_PREFETCH, JOB_DELAY };
enum pool { POOL_NONE, POOL_HBM, POOL_LINK };

struct job {
    uint32_t node;
    uint8_t kind, pool;
    double left;   /* bytes, or us for JOB_COMPUTE */
    double cap;    /* most this flow may get (bytes/us) */
    double rate;
    double after;  /* JOB_READ: the compute time that follows (us) */
    uint32_t l2;   /* JOB_PREFETCH: its residency record + 1 */
};

struct node {
    uint32_t npred;
    uint32_t succ_at, nsucc;
    uint64_t key;           /* deterministic order among nodes ready at once */
    double reach, ready;    /* ends of the stream/host predecessors; of all of them */
    double cross;           /* end of the latest other predecessor (a record, for a wait) */
    bool done, queued;
    bool delayed;           /* its dispatch (or event release) latency has passed */
    /* Kernels. */
    uint32_t units, units_left, units_running;
    uint8_t need_c, need_v; /* cores one unit takes */
    bool batch;
    double unit_us, unit_bytes, unit_cap;
};

struct residency {
    uint64_t addr, bytes;
    double moved;
    bool live;
};

struct sim {
    const struct prof_soc *soc;
    uint32_t n;
    struct node *nodes;     /* by entry id */
    uint32_t *succ;
    struct job *jobs;
    uint32_t njobs, cap_jobs;
    uint32_t *queue;        /* kernels waiting for cores, oldest first */
    uint32_t nqueue;
    uint32_t *ready;        /* nodes that became ready now, to start in key order */
    uint32_t nready, cap_ready;
    struct residency *l2;
    uint32_t nl2, cap_l2;
    uint32_t free_c, free_v;
    double now;
    uint32_t left;          /* nodes not done */
};

/* ---- the graph ----------------------------------------------------------------------- */

static bool on_stream(const struct prof_entry *e) { return e->stream_id >= 0; }

static bool is_record(const struct prof_entry *e)
{
    return e->kind == PK_EVENT_RECORD || e->kind == PK_NOTIFY_RECORD;
}

static bool is_wait(const struct prof_entry *e)
{
    return e->kind == PK_EVENT_WAIT || e->kind == PK_NOTIFY_WAIT || (e->kind == PK_HOST_SYNC && e->ev != NULL);
}

/* Open-addressing map: (device, stream) -> newest entry, or event key ->
 * newest record. */
struct map_slot {
    uint64_t a, b, c;
    uint32_t val;
};
struct map {
    struct map_slot *slots;
    uint32_t cap;
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static struct map_slot *map_find(struct map *m, uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t i = (uint32_t)mix64(a * 31 + mix64(b) * 17 + c) & (m->cap - 1);
    while (m->slots[i].val != 0 && !(m->slots[i].a == a && m->slots[i].b == b && m->slots[i].c == c))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static bool map_init(struct map *m, uint32_t n)
{
    m->cap = 16;
    while (m->cap < n * 2 + 16)
        m->cap *= 2;
    m->slots = acl_calloc(m->cap, sizeof(*m->slots));
    return m->slots != NULL;
}

static void map_put(struct map *m, uint64_t a, uint64_t b, uint64_t c, uint32_t v)
{
    struct map_slot *s = map_find(m, a, b, c);
    *s = (struct map_slot){a, b, c, v};
}

struct edge {
    uint32_t from, to;
};

struct edges {
    struct edge *e;
    uint32_t n, cap;
};

static void add_edge(struct edges *g, uint32_t from, uint32_t to)
{
    if (from == 0 || from == to)
        return;
    if (g->n == g->cap) {
        uint32_t c = g->cap ? g->cap * 2 : 1024;
        struct edge *e = acl_realloc(g->e, c * sizeof(*e));
        if (e == NULL)
            return; /* the model loses an edge rather than the profile */
        g->e = e;
        g->cap = c;
    }
    g->e[g->n++] = (struct edge){from, to};
}

/* The record a wait took: the newest with its key issued before it, or
 * (flags and notifies, whose record may come later) the newest at all. */
static uint32_t record_for(struct map *before, struct map *all, const struct prof_entry *w)
{
    struct map_slot *s;
    if (w->ev == NULL || w->gen == 0)
        return 0; /* never recorded: the wait is a no-op */
    s = map_find(before, (uint64_t)(uintptr_t)w->ev, w->ev_objgen, w->gen);
    if (s->val != 0)
        return s->val;
    s = map_find(all, (uint64_t)(uintptr_t)w->ev, w->ev_objgen, w->gen);
    return s->val;
}

/* One pass in id order: stream order, host syncs, records before waits. */
static bool collect_edges(struct sim *sm, struct edges *g, struct map *all)
{
    struct map streams = {NULL, 0}, before = {NULL, 0};
    bool ok = map_init(&streams, sm->n) && map_init(&before, sm->n);
    for (uint32_t id = 1; ok && id <= sm->n; id++) {
        const struct prof_entry *e = prof_entry(id);
        uint32_t cur, dep;
        if (on_stream(e)) {
            struct map_slot *s = map_find(&streams, (uint64_t)e->device, (uint64_t)e->stream_id, 0);
            add_edge(g, s->val, id);
            map_put(&streams, (uint64_t)e->device, (uint64_t)e->stream_id, 0, id);
        }
        if (e->host_dep != 0 && e->host_dep < id)
            add_edge(g, e->host_dep, id);
        for (dep = prof_dep_first(id, &cur); dep != 0; dep = prof_dep_next(&cur))
            if (dep <= sm->n)
                add_edge(g, dep, id);
        if (is_wait(e)) {
            prof_entry(id)->m_record = record_for(&before, all, e);
            add_edge(g, prof_entry(id)->m_record, id);
        }
        if (is_record(e))
            map_put(&before, (uint64_t)(uintptr_t)e->ev, e->ev_objgen, e->gen, id);
    }
    acl_free(streams.slots);
    acl_free(before.slots);
    return ok;
}

static bool build_records(struct sim *sm, struct map *all)
{
    if (!map_init(all, sm->n))
        return false;
    for (uint32_t id = 1; id <= sm->n; id++)
        if (is_record(prof_entry(id)))
            map_put(all, (uint64_t)(uintptr_t)prof_entry(id)->ev, prof_entry(id)->ev_objgen, prof_entry(id)->gen, id);
    return true;
}

static int edge_cmp(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return x->from != y->from ? (x->from < y->from ? -1 : 1) : (x->to < y->to ? -1 : x->to > y->to);
}

/* Successor lists in one array (by source), and predecessor counts. */
static bool build_graph(struct sim *sm)
{
    struct edges g = {NULL, 0, 0};
    struct map all = {NULL, 0};
    bool ok = build_records(sm, &all) && collect_edges(sm, &g, &all);
    acl_free(all.slots);
    if (ok && g.n > 0)
        qsort(g.e, g.n, sizeof(*g.e), edge_cmp);
    sm->succ = acl_malloc((g.n + 1) * sizeof(*sm->succ));
    ok = ok && sm->succ != NULL;
    for (uint32_t i = 0; ok && i < g.n; i++) {
        if (i > 0 && g.e[i].from == g.e[i - 1].from && g.e[i].to == g.e[i - 1].to)
            continue; /* one edge is enough */
        struct node *from = &sm->nodes[g.e[i].from];
        if (from->nsucc == 0)
            from->succ_at = i;
        sm->succ[from->succ_at + from->nsucc++] = g.e[i].to;
        sm->nodes[g.e[i].to].npred++;
    }
    acl_free(g.e);
    return ok;
}

/* ---- costs ------------------------------------------------------------------------- */

static uint32_t pool_size(const struct sim *sm, bool vector)
{
    /* Coupled parts have AI Cores only: vector work runs there too. */
    if (vector && sm->soc->vector_cores > 0)
        return sm->soc->vector_cores;
    return sm->soc->cube_cores > 0 ? sm->soc->cube_cores : 1;
}

/* Bytes per us. */
static double hbm_rate(const struct sim *sm) { return sm->soc->hbm_gbps * 1e3; }

/* How many cores of a pool reading at once saturate HBM: the SoC's count
 * for its cube (or coupled AI Core) pool, in proportion for the vector
 * pool, never more than the pool nor fewer than one core. A block reads
 * at most HBM / that many: fewer readers leave bandwidth unused, more
 * share it (set_rates). */
static double hbm_sat_cores(const struct sim *sm, bool vector)
{
    double pool = pool_size(sm, vector), cube = pool_size(sm, false);
    double sat = sm->soc->hbm_sat_cores * pool / cube;
    if (!(sat > 0) || sat > pool)
        return pool;
    return sat < 1 ? 1 : sat;
}
static double link_rate(const struct sim *sm) { return sm->soc->h2d_gbps * 1e3; }

static void kernel_cost(struct sim *sm, uint32_t id)
{
    const struct prof_entry *e = prof_entry(id);
    struct node *k = &sm->nodes[id];
    bool vector = e->engine != ACL_RT_ENGINE_TYPE_AIC;
    uint32_t blocks = e->blocks > 0 ? e->blocks : 1;
    bool coupled = sm->soc->vector_cores == 0;

    k->units = e->mix && vector ? (blocks + 1) / 2 : blocks;
    k->need_c = (uint8_t)(e->mix || !vector || coupled ? 1 : 0);
    k->need_v = (uint8_t)(coupled ? 0 : e->mix ? 2 : vector ? 1 : 0);
    k->batch = e->sched == 1;
    k->units_left = k->units;
    if (e->declared)
        k->unit_us = e->us_fixed + e->us_total / blocks;
    else if (e->busy_ns != 0)
        k->unit_us = (double)e->busy_ns / 1e3 / blocks;
    else /* one block, untimed: the task's own time */
        k->unit_us = e->end_ns > e->start_ns ? (double)(e->end_ns - e->start_ns) / 1e3 : 0;
    k->unit_cap = hbm_rate(sm) / hbm_sat_cores(sm, vector && !e->mix);
    k->unit_bytes = 0; /* set at start, after L2 */
}

/* ---- jobs and bandwidth ------------------------------------------------------------ */

static struct job *new_job(struct sim *sm, uint32_t node, uint8_t kind, uint8_t pool, double left, double cap)
{
    if (sm->njobs == sm->cap_jobs) {
        uint32_t c = sm->cap_jobs ? sm->cap_jobs * 2 : 256;
        struct job *j = acl_realloc(sm->jobs, c * sizeof(*j));
        if (j == NULL)
            return NULL;
        sm->jobs = j;
        sm->cap_jobs = c;
    }
    sm->jobs[sm->njobs] = (struct job){node, kind, pool, left, cap, 0, 0, 0};
    return &sm->jobs[sm->njobs++];
}

/* Max-min fair shares of one pool: flows capped below the fair share get
 * their cap, the rest split what is left. */
static void share_pool(struct sim *sm, uint8_t pool, double capacity)
{
    uint32_t n = 0;
    double left = capacity, share;
    bool changed = true;
    for (uint32_t i = 0; i < sm->njobs; i++)
        if (sm->jobs[i].pool == pool) {
            sm->jobs[i].rate = -1; /* not fixed yet */
            n++;
        }
    while (n > 0 && changed) {
        changed = false;
        share = left / n;
        for (uint32_t i = 0; i < sm->njobs; i++) {
            struct job *j = &sm->jobs[i];
            if (j->pool == pool && j->rate < 0 && j->cap <= share) {
                j->rate = j->cap;
                left -= j->cap;
                n--;
                changed = true;
            }
        }
    }
    share = n > 0 ? left / n : 0;
    for (uint32_t i = 0; i < sm->njobs; i++)
        if (sm->jobs[i].pool == pool && sm->jobs[i].rate < 0)
            sm->jobs[i].rate = share;
}

static void set_rates(struct sim *sm)
{
    share_pool(sm, POOL_HBM, hbm_rate(sm));
    share_pool(sm, POOL_LINK, link_rate(sm));
    for (uint32_t i = 0; i < sm->njobs; i++)
        if (sm->jobs[i].pool == POOL_NONE)
            sm->jobs[i].rate = 1; /* compute: one us per us */
}

/* ---- L2 -------------------------------------------------------------------------------- */

static uint32_t new_residency(struct sim *sm, uint64_t addr, uint64_t bytes)
{
    if (sm->nl2 == sm->cap_l2) {
        uint32_t c = sm->cap_l2 ? sm->cap_l2 * 2 : 64;
        struct residency *r = acl_realloc(sm->l2, c * sizeof(*r));
        if (r == NULL)
            return 0;
        sm->l2 = r;
        sm->cap_l2 = c;
    }
    sm->l2[sm->nl2] = (struct residency){addr, bytes, 0, true};
    return ++sm->nl2;
}

/* Bytes in L2 beyond its size are lost, oldest first. */
static void evict(struct sim *sm)
{
    double held = 0;
    for (uint32_t i = sm->nl2; i-- > 0;) {
        if (!sm->l2[i].live)
            continue;
        held += sm->l2[i].moved;
        if (held > (double)sm->soc->l2_bytes)
            sm->l2[i].live = false;
    }
}

/* What a starting kernel finds in L2 of what it reads: every live
 * prefetched range starting inside one of its buffers, consumed. */
static double take_from_l2(struct sim *sm, const struct prof_entry *e)
{
    double got = 0;
    for (uint32_t i = 0; i < sm->nl2; i++) {
        struct residency *r = &sm->l2[i];
        for (uint32_t p = 0; r->live && p < e->nptrs; p++) {
            if (r->addr >= e->ptrs[p] && r->addr - e->ptrs[p] < e->hbm_bytes) {
                got += r->moved;
                r->live = false; /* the next consumer reads it again from HBM */
            }
        }
    }
    return got < (double)e->hbm_bytes ? got : (double)e->hbm_bytes;
}

/* ---- nodes ------------------------------------------------------------------------------ */

static void finish_node(struct sim *sm, uint32_t id);

static void push_ready(struct sim *sm, uint32_t id)
{
    if (sm->nready == sm->cap_ready) {
        uint32_t c = sm->cap_ready ? sm->cap_ready * 2 : 256;
        uint32_t *r = acl_realloc(sm->ready, c * sizeof(*r));
        if (r == NULL)
            return;
        sm->ready = r;
        sm->cap_ready = c;
    }
    sm->ready[sm->nready++] = id;
}

static void finish_node(struct sim *sm, uint32_t id)
{
    struct node *nd = &sm->nodes[id];
    struct prof_entry *e = prof_entry(id);
    nd->done = true;
    e->m_end = sm->now;
    sm->left--;
    for (uint32_t i = 0; i < nd->nsucc; i++) {
        uint32_t s = sm->succ[nd->succ_at + i];
        struct node *sn = &sm->nodes[s];
        const struct prof_entry *se = prof_entry(s);
        bool order_edge = (on_stream(se) && on_stream(e) && se->device == e->device &&
                           se->stream_id == e->stream_id) || se->host_dep == id;
        if (order_edge && sm->now > sn->reach)
            sn->reach = sm->now;
        if (!order_edge && sm->now > sn->cross)
            sn->cross = sm->now;
        if (sm->now > sn->ready)
            sn->ready = sm->now;
        if (--sn->npred == 0)
            push_ready(sm, s);
    }
}

static void start_copy(struct sim *sm, uint32_t id, const struct prof_entry *e)
{
    bool link = e->copy_dir == PCD_H2D || e->copy_dir == PCD_D2H || e->copy_dir == PCD_H2H;
    double cap = link ? link_rate(sm) : hbm_rate(sm);
    if (e->bytes == 0 || new_job(sm, id, JOB_COPY, link ? POOL_LINK : POOL_HBM, (double)e->bytes, cap) == NULL)
        finish_node(sm, id);
}

static void start_prefetch(struct sim *sm, uint32_t id, const struct prof_entry *e)
{
    uint32_t r = new_residency(sm, e->addr, e->bytes);
    struct job *j = r != 0 ? new_job(sm, id, JOB_PREFETCH, POOL_HBM, (double)e->bytes, hbm_rate(sm)) : NULL;
    if (j == NULL) {
        finish_node(sm, id);
        return;
    }
    j->l2 = r;
}

/* When a ready stream task may start: the device dispatches a stream's
 * next task dispatch_us after its stream reached it, and a record
 * releases a wait event_us after it ran. Host entries and dropped tasks
 * take no time. */
static double earliest_start(const struct sim *sm, const struct node *nd, const struct prof_entry *e)
{
    double at = nd->reach + sm->soc->dispatch_us;
    if (!on_stream(e) || e->dropped)
        return sm->now;
    if (is_wait(e) && nd->cross > 0 && nd->cross + sm->soc->event_us > at)
        at = nd->cross + sm->soc->event_us;
    return at > sm->now ? at : sm->now;
}

static void start_node_now(struct sim *sm, uint32_t id);

/* A node all of whose predecessors ended: starts it now, or once its
 * latency has passed (a delay job; it comes back through the ready list). */
static void start_node(struct sim *sm, uint32_t id)
{
    struct node *nd = &sm->nodes[id];
    double at = nd->delayed ? sm->now : earliest_start(sm, nd, prof_entry(id));
    nd->delayed = true;
    if (at > sm->now && new_job(sm, id, JOB_DELAY, POOL_NONE, at - sm->now, 0) != NULL)
        return;
    start_node_now(sm, id);
}

static void start_node_now(struct sim *sm, uint32_t id)
{
    struct prof_entry *e = prof_entry(id);
    struct node *nd = &sm->nodes[id];
    e->m_ready = nd->ready;
    e->m_host = 0;
    if (e->host_dep != 0 && e->host_dep <= sm->n)
        e->m_host = prof_entry(e->host_dep)->m_end;
    /* A wait starts when its stream reaches it and ends when released. */
    e->m_start = is_wait(e) || e->kind == PK_HOST_SYNC ? nd->reach : sm->now;
    if (e->dropped) {
        finish_node(sm, id);
    } else if (e->kind == PK_KERNEL) {
        kernel_cost(sm, id);
        sm->queue[sm->nqueue++] = id;
        nd->queued = true;
        e->m_start = -1; /* set when its first block starts */
    } else if (e->kind == PK_COPY || e->kind == PK_SET) {
        start_copy(sm, id, e);
    } else if (e->kind == PK_CMO && e->cmo_type == ACL_RT_CMO_TYPE_PREFETCH && e->bytes > 0) {
        start_prefetch(sm, id, e);
    } else {
        finish_node(sm, id); /* events, host work, markers, run edges: no modelled time */
    }
}

static int key_cmp(const void *a, const void *b, void *ctx)
{
    const struct sim *sm = ctx;
    uint64_t x = sm->nodes[*(const uint32_t *)a].key, y = sm->nodes[*(const uint32_t *)b].key;
    return x < y ? -1 : x > y;
}

/* Starts every node made ready, in key order (finishing one may make more
 * ready at the same time: they follow in the next round). */
static void start_ready(struct sim *sm)
{
    while (sm->nready > 0) {
        uint32_t n = sm->nready, *batch = acl_malloc(n * sizeof(*batch));
        if (batch == NULL)
            return;
        memcpy(batch, sm->ready, n * sizeof(*batch));
        sm->nready = 0;
        qsort_r(batch, n, sizeof(*batch), key_cmp, sm);
        for (uint32_t i = 0; i < n; i++)
            start_node(sm, batch[i]);
        acl_free(batch);
    }
}

/* ---- cores ------------------------------------------------------------------------------- */

static bool fits(const struct sim *sm, const struct node *k, uint32_t units)
{
    return sm->free_c >= k->need_c * units && sm->free_v >= k->need_v * units;
}

static void start_unit(struct sim *sm, uint32_t id)
{
    struct node *k = &sm->nodes[id];
    struct prof_entry *e = prof_entry(id);
    struct job *j;
    double compute;
    if (k->units_left == k->units) {
        double from_l2 = e->hbm_bytes > 0 ? take_from_l2(sm, e) : 0;
        e->m_start = sm->now;
        k->unit_bytes = ((double)e->hbm_bytes - from_l2) / k->units;
    }
    sm->free_c -= k->need_c;
    sm->free_v -= k->need_v;
    k->units_left--;
    k->units_running++;
    /* The launch's once-only cost rides on the blocks that start with it:
     * later waves do not pay it again. */
    compute = k->unit_us + (sm->now == e->m_start ? e->us_launch : 0);
    if (k->unit_bytes > 0)
        j = new_job(sm, id, JOB_READ, POOL_HBM, k->unit_bytes, k->unit_cap);
    else
        j = new_job(sm, id, JOB_COMPUTE, POOL_NONE, compute, 0);
    if (j != NULL)
        j->after = compute;
}

/* Batch kernels bigger than the SoC run once the whole pool is free. */
static uint32_t batch_need(const struct sim *sm, const struct node *k)
{
    uint32_t most = UINT32_MAX;
    if (k->need_c > 0)
        most = pool_size(sm, false) / k->need_c;
    if (k->need_v > 0 && pool_size(sm, true) / k->need_v < most)
        most = pool_size(sm, true) / k->need_v;
    return k->units_left < most ? k->units_left : (most > 0 ? most : 1);
}

/* Gives free cores to queued kernels, oldest first. A waiting batch
 * kernel holds back later kernels needing the same cores. */
static void dispatch(struct sim *sm)
{
    bool held_c = false, held_v = false;
    uint32_t kept = 0;
    for (uint32_t q = 0; q < sm->nqueue; q++) {
        uint32_t id = sm->queue[q];
        struct node *k = &sm->nodes[id];
        bool blocked = (k->need_c && held_c) || (k->need_v && held_v);
        if (!blocked && k->batch && k->units_left == k->units) {
            uint32_t want = batch_need(sm, k);
            if (fits(sm, k, want))
                while (want-- > 0)
                    start_unit(sm, id);
        } else if (!blocked || k->units_left < k->units) {
            while (k->units_left > 0 && fits(sm, k, 1))
                start_unit(sm, id);
        }
        if (k->units_left > 0 && k->batch) {
            held_c |= k->need_c > 0;
            held_v |= k->need_v > 0;
        }
        if (k->units_left > 0)
            sm->queue[kept++] = id;
    }
    sm->nqueue = kept;
}

/* ---- time --------------------------------------------------------------------------------- */

static void job_done(struct sim *sm, struct job *j)
{
    struct node *k = &sm->nodes[j->node];
    if (j->kind == JOB_READ) { /* its compute phase follows */
        j->kind = JOB_COMPUTE;
        j->pool = POOL_NONE;
        j->left = j->after;
        j->cap = 0;
        return;
    }
    if (j->kind == JOB_DELAY) { /* started from the ready list: jobs may not grow here */
        push_ready(sm, j->node);
        j->node = 0;
        return;
    }
    if (j->kind == JOB_PREFETCH)
        sm->l2[j->l2 - 1].moved = (double)sm->l2[j->l2 - 1].bytes;
    if (j->kind == JOB_COMPUTE) {
        sm->free_c += k->need_c;
        sm->free_v += k->need_v;
        if (--k->units_running == 0 && k->units_left == 0)
            finish_node(sm, j->node);
    } else {
        finish_node(sm, j->node);
    }
    j->node = 0; /* removed below */
}

/* Advances to the next job end; false when nothing runs. */
static bool advance(struct sim *sm)
{
    double dt = INFINITY;
    uint32_t kept = 0;
    if (sm->njobs == 0)
        return false;
    set_rates(sm);
    for (uint32_t i = 0; i < sm->njobs; i++)
        if (sm->jobs[i].rate > 0 && sm->jobs[i].left / sm->jobs[i].rate < dt)
            dt = sm->jobs[i].left / sm->jobs[i].rate;
    if (!isfinite(dt))
        return false; /* nothing can progress (no bandwidth): left to finish_stuck */
    sm->now += dt;
    for (uint32_t i = 0; i < sm->njobs; i++) {
        struct job *j = &sm->jobs[i];
        j->left -= j->rate * dt;
        if (j->kind == JOB_PREFETCH)
            sm->l2[j->l2 - 1].moved += j->rate * dt;
        /* Ends now: within a part in 1e9 of what it had (rounding). */
        if (j->left <= 1e-9 * (j->rate * dt + 1e-3) || j->left <= 0)
            job_done(sm, j);
    }
    for (uint32_t i = 0; i < sm->njobs; i++)
        if (sm->jobs[i].node != 0)
            sm->jobs[kept++] = sm->jobs[i];
    sm->njobs = kept;
    evict(sm);
    return true;
}

/* ---- the run ---------------------------------------------------------------------------- */

/* Stream nodes by (stream, task); host nodes after them by (thread, order). */
static void set_keys(struct sim *sm)
{
    uint32_t *host_seq = acl_calloc(sm->n + 2, sizeof(*host_seq));
    for (uint32_t id = 1; id <= sm->n; id++) {
        const struct prof_entry *e = prof_entry(id);
        struct node *nd = &sm->nodes[id];
        if (on_stream(e)) {
            nd->key = ((uint64_t)(uint32_t)e->device << 56) | ((uint64_t)(uint32_t)e->stream_id << 32) | e->task_id;
        } else {
            uint32_t t = e->host_thread < sm->n + 2 ? e->host_thread : 0;
            nd->key = (1ull << 63) | ((uint64_t)t << 32) | (host_seq != NULL ? ++host_seq[t] : id);
        }
    }
    acl_free(host_seq);
}

/* Nodes left when nothing can run (a wait whose record never ran): they
 * end at the last time, so the files still show them. */
static void finish_stuck(struct sim *sm)
{
    for (uint32_t id = 1; id <= sm->n && sm->left > 0; id++) {
        struct prof_entry *e = prof_entry(id);
        if (sm->nodes[id].done)
            continue;
        if (!sm->nodes[id].queued)
            e->m_ready = e->m_start = sm->now;
        else if (e->m_start < 0)
            e->m_start = sm->now;
        sm->nodes[id].done = true;
        e->m_end = sm->now;
        sm->left--;
    }
}

static void run_sim(struct sim *sm)
{
    for (uint32_t id = 1; id <= sm->n; id++)
        if (sm->nodes[id].npred == 0)
            push_ready(sm, id);
    for (;;) {
        start_ready(sm);
        dispatch(sm);
        if (sm->left == 0 || !advance(sm))
            break;
    }
    if (sm->left > 0) {
        LOGW("profile: %u tasks could not run in the model (a wait on a record that never ran?); they are shown "
             "at the end", sm->left);
        finish_stuck(sm);
    }
}

bool chipsim_run(void)
{
    struct sim sm;
    memset(&sm, 0, sizeof(sm));
    sm.n = prof_count();
    sm.soc = prof_soc();
    if (sm.n == 0)
        return false;
    sm.nodes = acl_calloc(sm.n + 1, sizeof(*sm.nodes));
    sm.queue = acl_malloc((sm.n + 1) * sizeof(*sm.queue));
    if (sm.nodes != NULL && sm.queue != NULL && build_graph(&sm)) {
        sm.free_c = pool_size(&sm, false);
        sm.free_v = sm.soc->vector_cores > 0 ? sm.soc->vector_cores : 0;
        sm.left = sm.n;
        set_keys(&sm);
        run_sim(&sm);
    } else {
        LOGW("profile: out of memory modelling %u tasks; the modelled times are left out", sm.n);
    }
    acl_free(sm.nodes);
    acl_free(sm.queue);
    acl_free(sm.succ);
    acl_free(sm.jobs);
    acl_free(sm.ready);
    acl_free(sm.l2);
    return true;
}
