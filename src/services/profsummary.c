/*
 * profsummary.c - summary.json: what a performance engineer reads first
 * (docs/profile-format.md): end to end, computing and free time, each
 * stream's busy time, the top kernels, core usage against the SoC (where
 * kernels asked for more cores than there are, which ones exceeded their
 * core limit, batch kernels that waited for cores), the event waits that
 * held a stream, and the overlap of every pair of streams (the rule is
 * overlap.c's, which the aclcpu command shares).
 *
 * DESIGN: everything is computed from the view (profview.h) on the
 * modelled clock, in the view's fixed order, and printed with fixed
 * precision, so the file is as deterministic as the model.
 *
 * Threads: the thread that stops the profile, alone. No locks.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "episodes.h"
#include "overlap.h"
#include "profview.h"

#define TOP_KERNELS 10
#define EPS 1e-9

struct sum {
    FILE *f;
    const struct prof_view *v;
    const struct prof_soc *soc;
    double *ks, *ke;       /* kernel intervals, in view order */
    uint32_t *kid;         /* their entries */
    uint32_t nk;
};

static bool is_kernel(const struct prof_entry *e) { return e->kind == PK_KERNEL; }

static bool gather_kernels(struct sum *sm)
{
    const struct prof_view *v = sm->v;
    sm->ks = acl_malloc((v->ndev + 1) * (2 * sizeof(double) + sizeof(uint32_t)));
    if (sm->ks == NULL)
        return false;
    sm->ke = sm->ks + v->ndev + 1;
    sm->kid = (uint32_t *)(sm->ke + v->ndev + 1);
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        if (!is_kernel(e))
            continue;
        sm->ks[sm->nk] = pv_start(v, e);
        sm->ke[sm->nk] = pv_end(v, e);
        sm->kid[sm->nk++] = v->dev[i];
    }
    return true;
}

static void span_of(const struct prof_view *v, double *lo, double *hi)
{
    *lo = v->ndev > 0 ? 1e300 : 0;
    *hi = 0;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        *lo = pv_start(v, e) < *lo ? pv_start(v, e) : *lo;
        *hi = pv_end(v, e) > *hi ? pv_end(v, e) : *hi;
    }
}

/* ---- totals ------------------------------------------------------------------------------ */

static void write_totals(struct sum *sm)
{
    double lo, hi, comp;
    const struct prof_soc *soc = sm->soc;
    span_of(sm->v, &lo, &hi);
    comp = pv_union(sm->ks, sm->ke, sm->nk, lo, hi);
    fprintf(sm->f, "{\n  \"aclcpu_profile_version\": 1,\n  \"clock\": \"%s\",\n",
            sm->v->modelled ? "modelled" : "measured");
    fprintf(sm->f,
            "  \"soc\": {\"name\": \"%s\", \"cube_cores\": %u, \"vector_cores\": %u, \"hbm_gbps\": %.1f, "
            "\"h2d_gbps\": %.1f, \"l2_bytes\": %llu, \"hbm_sat_cores\": %.3f, \"dispatch_us\": %.3f, "
            "\"event_us\": %.3f},\n",
            soc->name, soc->cube_cores, soc->vector_cores, soc->hbm_gbps, soc->h2d_gbps,
            (unsigned long long)soc->l2_bytes, soc->hbm_sat_cores, soc->dispatch_us, soc->event_us);
    fprintf(sm->f, "  \"e2e_us\": %s, \"computing_us\": %s, \"free_us\": %s, \"communication_us\": 0.000,\n",
            pv_f3(hi - lo), pv_f3(comp), pv_f3(hi - lo - comp > 0 ? hi - lo - comp : 0));
}

/* ---- streams ------------------------------------------------------------------------------- */

struct stream_sum {
    int32_t device, id;
    uint32_t tasks, kernels;
    double busy, first, last, wait;
};

/* Streams in view order (the view is sorted by device and stream). */
static uint32_t stream_sums(const struct prof_view *v, struct stream_sum *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        struct stream_sum *s = n > 0 ? &out[n - 1] : NULL;
        double st = pv_start(v, e), en = pv_end(v, e);
        if (s == NULL || s->device != e->device || s->id != e->stream_id) {
            s = &out[n++];
            *s = (struct stream_sum){e->device, e->stream_id, 0, 0, 0, st, en, 0};
        }
        s->tasks++;
        s->first = st < s->first ? st : s->first;
        s->last = en > s->last ? en : s->last;
        if (is_kernel(e)) {
            s->kernels++;
            s->busy += en - st; /* one stream's kernels never overlap */
        } else if (e->kind == PK_EVENT_WAIT || e->kind == PK_NOTIFY_WAIT) {
            s->wait += en - st;
        }
    }
    return n;
}

static void write_streams(struct sum *sm, struct stream_sum *ss, uint32_t n)
{
    fputs("  \"streams\": [", sm->f);
    for (uint32_t i = 0; i < n; i++)
        fprintf(sm->f, "%s\n    {\"device\": %d, \"stream_id\": %d, \"tasks\": %u, \"kernels\": %u, \"busy_us\": %s, "
                       "\"first_start_us\": %s, \"last_end_us\": %s, \"wait_us\": %s}",
                i ? "," : "", ss[i].device, ss[i].id, ss[i].tasks, ss[i].kernels, pv_f3(ss[i].busy),
                pv_f3(ss[i].first), pv_f3(ss[i].last), pv_f3(ss[i].wait));
    fputs("\n  ],\n", sm->f);
}

/* ---- top kernels ------------------------------------------------------------------------------ */

struct top {
    const char *name;
    const char *engine;
    uint32_t count;
    double total;
};

static int cmp_top(const void *a, const void *b)
{
    const struct top *x = a, *y = b;
    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void write_top(struct sum *sm)
{
    struct top *t = acl_calloc(sm->nk + 1, sizeof(*t));
    uint32_t n = 0;
    if (t == NULL)
        return;
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        const char *name = pv_task_name(e);
        uint32_t j = 0;
        while (j < n && (strcmp(t[j].name, name) != 0 || strcmp(t[j].engine, pv_core_type(e)) != 0))
            j++;
        if (j == n)
            t[n++] = (struct top){name, pv_core_type(e), 0, 0};
        t[j].count++;
        t[j].total += sm->ke[i] - sm->ks[i];
    }
    qsort(t, n, sizeof(*t), cmp_top);
    fputs("  \"top_kernels\": [", sm->f);
    for (uint32_t i = 0; i < n && i < TOP_KERNELS; i++) {
        fprintf(sm->f, "%s\n    {\"name\": ", i ? "," : "");
        pv_json_string(sm->f, t[i].name);
        fprintf(sm->f, ", \"count\": %u, \"total_us\": %s, \"avg_us\": %s, \"engine\": \"%s\"}", t[i].count,
                pv_f3(t[i].total), pv_f3(t[i].total / t[i].count), t[i].engine);
    }
    fputs("\n  ],\n", sm->f);
    acl_free(t);
}

/* Kernels without a declared cost: their modelled time is the CPU time
 * they took here (docs/model.md), so it says little about the chip. One
 * entry per (name, engine), in name order, with the spread of durations. */
struct measured {
    const char *name, *engine;
    uint32_t count;
    double total, min, max;
};

static int cmp_measured(const void *a, const void *b)
{
    const struct measured *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c != 0 ? c : strcmp(x->engine, y->engine);
}

static void write_measured(struct sum *sm)
{
    struct measured *m = acl_calloc(sm->nk + 1, sizeof(*m));
    uint32_t n = 0;
    if (m == NULL)
        return;
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        const char *name = pv_task_name(e), *engine = pv_core_type(e);
        double d = sm->ke[i] - sm->ks[i];
        uint32_t j = 0;
        if (e->declared)
            continue;
        while (j < n && (strcmp(m[j].name, name) != 0 || strcmp(m[j].engine, engine) != 0))
            j++;
        if (j == n)
            m[n++] = (struct measured){name, engine, 0, 0, d, d};
        m[j].count++;
        m[j].total += d;
        m[j].min = d < m[j].min ? d : m[j].min;
        m[j].max = d > m[j].max ? d : m[j].max;
    }
    qsort(m, n, sizeof(*m), cmp_measured);
    fputs("  \"measured_kernels\": [", sm->f);
    for (uint32_t i = 0; i < n; i++) {
        fprintf(sm->f, "%s\n    {\"name\": ", i ? "," : "");
        pv_json_string(sm->f, m[i].name);
        fprintf(sm->f, ", \"engine\": \"%s\", \"launches\": %u, \"min_us\": %s,", m[i].engine, m[i].count,
                pv_f3(m[i].min));
        fprintf(sm->f, " \"avg_us\": %s,", pv_f3(m[i].total / m[i].count));
        fprintf(sm->f, " \"max_us\": %s}", pv_f3(m[i].max));
    }
    fputs(n > 0 ? "\n  ],\n" : "],\n", sm->f);
    acl_free(m);
}

/* ---- core usage -------------------------------------------------------------------------------- */

/* A change of demand at time t: +blocks when a kernel enters, - when it leaves. */
struct step_ev {
    double t;
    int64_t d;
    uint32_t k;
};

static int cmp_ev(const void *a, const void *b)
{
    const struct step_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->d < y->d ? -1 : x->d > y->d; /* leaving before entering at the same time */
}

/* The events of every kernel's [from, end) with its demand on one engine;
 * from = ready (what kernels ask for) or start (what runs). */
static uint32_t demand_events(struct sum *sm, bool vector, bool from_ready, struct step_ev *ev)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        uint32_t c, vv;
        double from = from_ready && sm->v->modelled ? e->m_ready : sm->ks[i];
        pv_demand(e, &c, &vv);
        if ((vector ? vv : c) == 0 || sm->ke[i] <= from)
            continue;
        ev[n++] = (struct step_ev){from, (int64_t)(vector ? vv : c), i};
        ev[n++] = (struct step_ev){sm->ke[i], -(int64_t)(vector ? vv : c), i};
    }
    qsort(ev, n, sizeof(*ev), cmp_ev);
    return n;
}

static uint32_t max_concurrent(struct sum *sm, bool vector, struct step_ev *ev)
{
    uint32_t n = demand_events(sm, vector, false, ev);
    int64_t cur = 0, most = 0;
    for (uint32_t i = 0; i < n; i++) {
        cur += ev[i].d;
        most = cur > most ? cur : most;
    }
    return (uint32_t)most;
}

/* The kernels whose demand is part of [lo, hi) on an engine. */
static void contention_kernels(struct sum *sm, bool vector, double lo, double hi)
{
    bool first = true;
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        uint32_t c, vv;
        pv_demand(e, &c, &vv);
        double from = sm->v->modelled ? e->m_ready : sm->ks[i];
        if ((vector ? vv : c) == 0 || from >= hi || sm->ke[i] <= lo)
            continue;
        fprintf(sm->f, "%s{\"stream_id\": %d, \"task_id\": %u, \"name\": ", first ? "" : ", ", e->stream_id,
                e->task_id);
        pv_json_string(sm->f, pv_task_name(e));
        fprintf(sm->f, ", \"ready_us\": %s, \"start_us\": %s}", pv_f3(from), pv_f3(sm->ks[i]));
        first = false;
    }
}

/* Streams with demand at the moment: a count per stream (dense index
 * sidx[k] of kernel k) and how many have any. */
struct stream_load {
    const uint32_t *sidx;
    uint32_t *count;
    uint32_t active;
};

static void load_apply(struct stream_load *l, const struct step_ev *e)
{
    uint32_t s = l->sidx[e->k];
    if (e->d > 0 && l->count[s]++ == 0)
        l->active++;
    else if (e->d < 0 && --l->count[s] == 0)
        l->active--;
}

/* Intervals where the blocks asked for (ready or running kernels) of at
 * least two streams exceed the engine's cores: on the device they cannot
 * all run at once. One stream over the cores alone is a launch wider than
 * the engine, whose blocks run in waves: its shape, not contention. */
static void write_contention(struct sum *sm, bool vector, uint32_t cores, struct step_ev *ev, struct stream_load *l,
                             bool *first)
{
    uint32_t n = demand_events(sm, vector, true, ev);
    int64_t cur = 0, peak = 0;
    double since = 0;
    bool over = false;
    l->active = 0;
    memset(l->count, 0, (sm->nk + 1) * sizeof(*l->count));
    for (uint32_t i = 0; i < n; i++) {
        bool was = over;
        cur += ev[i].d;
        load_apply(l, &ev[i]);
        over = cur > (int64_t)cores && l->active >= 2;
        if (!was && over) {
            since = ev[i].t;
            peak = cur;
        } else if (over && cur > peak) {
            peak = cur;
        }
        if (was && !over && ev[i].t > since + EPS) {
            fprintf(sm->f, "%s\n      {\"engine\": \"%s\", \"start_us\": %s, \"end_us\": %s, \"demand_blocks\": "
                           "%lld, \"cores\": %u, \"kernels\": [",
                    *first ? "" : ",", vector ? "vector" : "cube", pv_f3(since), pv_f3(ev[i].t), (long long)peak, cores);
            contention_kernels(sm, vector, since, ev[i].t);
            fputs("]}", sm->f);
            *first = false;
        }
    }
}

/* Dense stream indexes of the kernels (the view is sorted by device and
 * stream, so a stream's kernels are adjacent). */
static void index_streams(const struct sum *sm, uint32_t *sidx)
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]), *prev = i > 0 ? prof_entry(sm->kid[i - 1]) : NULL;
        if (prev != NULL && (prev->device != e->device || prev->stream_id != e->stream_id))
            next++;
        sidx[i] = next;
    }
}

static void write_core_usage(struct sum *sm)
{
    struct step_ev *ev = acl_malloc((2 * sm->nk + 1) * sizeof(*ev));
    uint32_t *counts = acl_malloc(2 * (sm->nk + 1) * sizeof(*counts));
    uint32_t vcores = sm->soc->vector_cores;
    struct stream_load load;
    bool first = true;
    if (ev == NULL || counts == NULL) {
        acl_free(ev);
        acl_free(counts);
        return;
    }
    load = (struct stream_load){.sidx = counts, .count = counts + sm->nk + 1};
    index_streams(sm, counts);
    fprintf(sm->f, "  \"core_usage\": {\n    \"cube_cores\": %u, \"vector_cores\": %u,\n", sm->soc->cube_cores,
            vcores);
    fprintf(sm->f, "    \"max_concurrent_cube_blocks\": %u, \"max_concurrent_vector_blocks\": %u,\n",
            max_concurrent(sm, false, ev), max_concurrent(sm, true, ev));
    fputs("    \"contention\": [", sm->f);
    write_contention(sm, false, sm->soc->cube_cores, ev, &load, &first);
    if (vcores > 0)
        write_contention(sm, true, vcores, ev, &load, &first);
    fputs(first ? "]\n  },\n" : "\n    ]\n  },\n", sm->f);
    acl_free(ev);
    acl_free(counts);
}

/* ---- limits, batch waits, event waits ---------------------------------------------------------------- */

static void write_limits(struct sum *sm)
{
    bool first = true;
    fputs("  \"limits\": [", sm->f);
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        uint32_t c, v;
        pv_demand(e, &c, &v);
        for (int eng = 0; eng < 2; eng++) {
            uint32_t blocks = eng == 0 ? c : v, limit = e->limit[eng];
            if (blocks == 0 || limit == 0 || blocks <= limit)
                continue;
            fprintf(sm->f, "%s\n    {\"stream_id\": %d, \"task_id\": %u, \"name\": ", first ? "" : ",", e->stream_id,
                    e->task_id);
            pv_json_string(sm->f, pv_task_name(e));
            fprintf(sm->f, ", \"engine\": \"%s\", \"block_num\": %u, \"limit\": %u}", eng == 0 ? "cube" : "vector",
                    blocks, limit);
            first = false;
        }
    }
    fputs(first ? "],\n" : "\n  ],\n", sm->f);
}

static void write_batch_waits(struct sum *sm)
{
    bool first = true;
    fputs("  \"batch_waits\": [", sm->f);
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[i]);
        if (!sm->v->modelled || e->sched != 1 || sm->ks[i] - e->m_ready <= EPS)
            continue; /* the measured clock does not know when a kernel could have started */
        fprintf(sm->f, "%s\n    {\"stream_id\": %d, \"task_id\": %u, \"name\": ", first ? "" : ",", e->stream_id,
                e->task_id);
        pv_json_string(sm->f, pv_task_name(e));
        fprintf(sm->f, ", \"block_num\": %u, \"engine\": \"%s\", \"ready_us\": %s, \"start_us\": %s, "
                       "\"wait_us\": %s}",
                e->blocks, e->engine == ACL_RT_ENGINE_TYPE_AIC ? "cube" : "vector", pv_f3(e->m_ready), pv_f3(sm->ks[i]),
                pv_f3(sm->ks[i] - e->m_ready));
        first = false;
    }
    fputs(first ? "],\n" : "\n  ],\n", sm->f);
}

static void write_event_waits(struct sum *sm)
{
    const struct prof_view *v = sm->v;
    bool first = true;
    fputs("  \"event_waits\": [", sm->f);
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        double s = pv_start(v, e), en = pv_end(v, e);
        if ((e->kind != PK_EVENT_WAIT && e->kind != PK_NOTIFY_WAIT) || en - s <= EPS)
            continue;
        fprintf(sm->f, "%s\n    {\"stream_id\": %d, \"task_id\": %u, \"event_id\": %d, \"recorded_on_stream\": %d, "
                       "\"start_us\": %s, \"end_us\": %s, \"wait_us\": %s}",
                first ? "" : ",", e->stream_id, e->task_id, e->ev_id,
                e->m_record != 0 ? prof_entry(e->m_record)->stream_id : -1, pv_f3(s), pv_f3(en), pv_f3(en - s));
        first = false;
    }
    fputs(first ? "],\n" : "\n  ],\n", sm->f);
}

/* ---- overlap: the rule is overlap.c's, shared with the aclcpu command ---------------------------------- */

/* Every kernel as kernel_details.csv prints it (start and duration rounded
 * to 0.001 us, counted from the earliest kernel, as the aclcpu command
 * reads them), so that summary.json and `aclcpu doctor` judge the same
 * numbers. One stream's kernels are one run of the view order (stream_sums'
 * order), sorted here by start. */
struct ov_kernels {
    struct overlap_iv *iv;
    uint32_t *k;      /* each one's index in sm->ks */
    uint32_t *first;  /* per stream sum: where its run begins */
    double origin;
};

static void sort_run(struct overlap_iv *iv, uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) /* insertion: a stream's kernels nearly always come in start order */
        for (uint32_t j = i; j > 0 && iv[j].start < iv[j - 1].start; j--) {
            struct overlap_iv t = iv[j];
            uint32_t tk = k[j];
            iv[j] = iv[j - 1], k[j] = k[j - 1];
            iv[j - 1] = t, k[j - 1] = tk;
        }
}

static bool ov_build(const struct sum *sm, const struct stream_sum *ss, uint32_t ns, struct ov_kernels *o)
{
    long long origin = sm->nk > 0 ? overlap_file_ns(sm->ks[0]) : 0;
    o->iv = acl_malloc((sm->nk + 1) * sizeof(*o->iv));
    o->k = acl_malloc((sm->nk + ns + 1) * sizeof(*o->k));
    if (o->iv == NULL || o->k == NULL)
        return false;
    o->first = o->k + sm->nk;
    for (uint32_t i = 0; i < sm->nk; i++)
        origin = overlap_file_ns(sm->ks[i]) < origin ? overlap_file_ns(sm->ks[i]) : origin;
    for (uint32_t i = 0; i < sm->nk; i++) {
        double dur = sm->ke[i] - sm->ks[i];
        o->iv[i].start = (double)(overlap_file_ns(sm->ks[i]) - origin) / 1000.0;
        o->iv[i].end = o->iv[i].start + (double)overlap_file_ns(dur > 0 ? dur : 0) / 1000.0;
        o->k[i] = i;
    }
    for (uint32_t j = 0, at = 0; j < ns; at += ss[j++].kernels) {
        o->first[j] = at;
        sort_run(o->iv + at, o->k + at, ss[j].kernels);
    }
    o->origin = (double)origin / 1000.0;
    return true;
}

/* ---- the program's structure: the main stream and its fork/join episodes (episodes.c) ------------------ */

struct ep_build {
    struct ep_input in;
    struct ep_kernel *k;
    struct ep_edge *e;
    uint32_t *at; /* in.k[i] is o->iv[at[i]] */
    struct ep_result r;
};

struct ep_sorting {
    struct ep_kernel k;
    uint32_t at;
};

static int by_start(const void *a, const void *b)
{
    const struct ep_sorting *x = a, *y = b;
    if (x->k.start != y->k.start)
        return x->k.start < y->k.start ? -1 : 1;
    return x->k.stream != y->k.stream ? (x->k.stream < y->k.stream ? -1 : 1) : (x->at > y->at) - (x->at < y->at);
}

static int by_release(const void *a, const void *b)
{
    const struct ep_edge *x = a, *y = b;
    if (x->wait_t != y->wait_t)
        return x->wait_t < y->wait_t ? -1 : 1;
    return (x->rec_t > y->rec_t) - (x->rec_t < y->rec_t);
}

/* A time of the view as the files print it, from the kernels' origin. */
static double file_us(const struct ov_kernels *o, double t)
{
    return (double)(overlap_file_ns(t) - overlap_file_ns(o->origin)) / 1000.0;
}

/* The record-to-wait edges trace_view.json draws (profwrite.c, trace_device). */
static uint32_t gather_edges(const struct sum *sm, const struct ov_kernels *o, struct ep_edge *e)
{
    const struct prof_view *v = sm->v;
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *w = prof_entry(v->dev[i]), *r;
        if (w->m_record == 0 || w->kind == PK_HOST_SYNC || v->conn[w->m_record] == 0)
            continue;
        r = prof_entry(w->m_record);
        e[n++] = (struct ep_edge){w->ev_id, r->stream_id, w->stream_id, file_us(o, pv_end(v, r)),
                                  file_us(o, pv_end(v, w))};
    }
    qsort(e, n, sizeof(*e), by_release);
    return n;
}

static int step_stream(const struct prof_view *v)
{
    for (uint32_t i = 0; i < v->ndev; i++)
        if (prof_entry(v->dev[i])->kind == PK_STEP_START)
            return prof_entry(v->dev[i])->stream_id;
    return -1;
}

static int busiest(const struct stream_sum *ss, uint32_t n)
{
    const struct stream_sum *best = NULL;
    for (uint32_t i = 0; i < n; i++)
        if (ss[i].kernels > 0 && (best == NULL || ss[i].busy > best->busy + OVERLAP_EPS_US))
            best = &ss[i];
    return best != NULL ? best->id : -1;
}

static bool ep_build(const struct sum *sm, const struct ov_kernels *o, const struct stream_sum *ss, uint32_t ns,
                     struct ep_build *b)
{
    struct ep_sorting *srt = acl_malloc((sm->nk + 1) * sizeof(*srt));
    b->k = acl_malloc((sm->nk + 1) * sizeof(*b->k));
    b->at = acl_malloc((sm->nk + 1) * sizeof(*b->at));
    b->e = acl_malloc((sm->v->ndev + 1) * sizeof(*b->e));
    b->r.ep = acl_malloc((sm->v->ndev + 1) * sizeof(*b->r.ep));
    if (srt == NULL || b->k == NULL || b->at == NULL || b->e == NULL || b->r.ep == NULL) {
        acl_free(srt);
        return false;
    }
    for (uint32_t i = 0; i < sm->nk; i++) {
        const struct prof_entry *e = prof_entry(sm->kid[o->k[i]]);
        uint32_t step = pv_step_of(sm->v, sm->ks[o->k[i]]);
        srt[i] = (struct ep_sorting){{e->stream_id, step != 0 ? (int)step : -1, o->iv[i].start, o->iv[i].end}, i};
    }
    qsort(srt, sm->nk, sizeof(*srt), by_start);
    for (uint32_t i = 0; i < sm->nk; i++)
        b->k[i] = srt[i].k, b->at[i] = srt[i].at;
    acl_free(srt);
    b->in = (struct ep_input){b->k, sm->nk, b->e, gather_edges(sm, o, b->e), step_stream(sm->v), -1, busiest(ss, ns)};
    episodes_judge(&b->in, &b->r);
    return true;
}

static void ep_free(struct ep_build *b)
{
    acl_free(b->k);
    acl_free(b->at);
    acl_free(b->e);
    acl_free(b->r.ep);
}

static void write_dominator(struct sum *sm, const struct ov_kernels *o, uint32_t at)
{
    const struct prof_entry *d = prof_entry(sm->kid[o->k[at]]);
    fprintf(sm->f, "{\"task_id\": %u, \"name\": ", d->task_id);
    pv_json_string(sm->f, pv_task_name(d));
    fprintf(sm->f, ", \"start_us\": %s, \"end_us\": %s}", pv_f3(o->origin + o->iv[at].start),
            pv_f3(o->origin + o->iv[at].end));
}

/* One pair: main m, side s (indices in ss). The side's episodes decide when
 * it has any; else the whole run, main as the structure (or busy time) said. */
static void write_pair(struct sum *sm, const struct ov_kernels *o, const struct ep_build *b,
                       const struct stream_sum *ss, uint32_t m, uint32_t s, bool busy_rule, bool *first)
{
    struct overlap_result r;
    struct ep_pair ep = {.worst = NULL};
    double lo, hi, ov, pct;
    enum overlap_verdict verdict;
    long dom;
    if (busy_rule) {
        overlap_judge(o->iv + o->first[m], ss[m].kernels, o->iv + o->first[s], ss[s].kernels, &r);
        if (r.b_is_main) {
            uint32_t t = m;
            m = s, s = t;
        }
    } else {
        overlap_judge_main(o->iv + o->first[m], ss[m].kernels, o->iv + o->first[s], ss[s].kernels, &r);
        episodes_pair(&b->in, &b->r, ss[s].id, &ep);
    }
    if (ep.worst != NULL && ep.dominator >= 0) {
        lo = ep.win_lo, hi = ep.win_hi, ov = ep.total.overlap_us, pct = ep.total.pct, verdict = ep.total.verdict;
        dom = ep.by_length ? -1 : (long)b->at[ep.dominator];
    } else {
        lo = r.side_lo, hi = r.side_hi, ov = r.overlap_us, pct = r.pct, verdict = r.verdict;
        dom = r.dominator >= 0 ? (long)(o->first[m] + (uint32_t)r.dominator) : -1;
        ep.worst = NULL;
    }
    fprintf(sm->f, "%s\n    {\"main_stream\": %d, \"side_stream\": %d, \"judged_on\": \"%s\", \"side_window_us\": "
                   "[%s, %s], \"dominator\": ",
            *first ? "" : ",", ss[m].id, ss[s].id, ep.worst != NULL ? "episodes" : "whole_run",
            pv_f3(o->origin + lo), pv_f3(o->origin + hi));
    if (dom >= 0)
        write_dominator(sm, o, (uint32_t)dom);
    else
        fputs("null", sm->f);
    fprintf(sm->f, ", \"overlap_us\": %s, \"overlap_pct\": %s, \"verdict\": \"%s\"}", pv_f3(ov), pv_f3(pct),
            overlap_verdict_name(verdict));
    *first = false;
}

/* Without episodes nothing was judged: the verdict is null, not the
 * "fake" an overlap_pct of 0 / 0 would give. */
static void write_total(struct sum *sm, const struct ep_total *t)
{
    fprintf(sm->f, "\"episodes\": %zu, \"real\": %zu, \"partial\": %zu, \"fake\": %zu, \"early_joins\": %zu, "
                   "\"never_joined\": %zu, \"overlap_us\": %s, \"base_us\": %s, \"overlap_pct\": %s, \"verdict\": ",
            t->episodes, t->real, t->partial, t->fake, t->early, t->no_join, pv_f3(t->overlap_us), pv_f3(t->base_us),
            pv_f3(t->pct));
    /* No episode, no verdict: null, not a name. */
    if (t->episodes)
        fprintf(sm->f, "\"%s\"}", overlap_verdict_name(t->verdict));
    else
        fputs("null}", sm->f);
}

static void write_episode(struct sum *sm, const struct ov_kernels *o, const struct ep_episode *ep, bool first)
{
    fprintf(sm->f, "%s\n    {\"side_stream\": %d, \"step\": ", first ? "" : ",", ep->side);
    ep->step >= 0 ? fprintf(sm->f, "%d", ep->step) : fputs("null", sm->f);
    fprintf(sm->f, ", \"fork_event\": %d, \"fork_recorded_us\": %s, \"fork_released_us\": %s, \"join_event\": ",
            ep->fork_event, pv_f3(o->origin + ep->fork_t), pv_f3(o->origin + ep->side_from));
    if (ep->join_event >= 0)
        fprintf(sm->f, "%d, \"join_recorded_us\": %s, \"join_released_us\": %s", ep->join_event,
                pv_f3(o->origin + ep->side_to), pv_f3(o->origin + ep->join_t));
    else
        fputs("null, \"join_recorded_us\": null, \"join_released_us\": null", sm->f);
    fprintf(sm->f, ", \"side_kernels\": %zu, \"main_kernels\": %zu, \"side_us\": %s, \"hide_us\": %s, "
                   "\"overlap_us\": %s, \"overlap_pct\": %s, \"verdict\": \"%s\", \"early_join\": %s}",
            ep->side_kernels, ep->main_kernels, pv_f3(ep->side_us), pv_f3(ep->hide_us), pv_f3(ep->overlap_us),
            pv_f3(ep->pct), overlap_verdict_name(ep->verdict), ep->early ? "true" : "false");
}

static void write_episodes(struct sum *sm, const struct ov_kernels *o, const struct ep_build *b)
{
    struct ep_total t;
    bool first = true;
    fprintf(sm->f, "  \"main_stream\": {\"stream_id\": %d, \"by\": \"%s\"},\n", b->r.main_stream,
            episodes_by_name(b->r.by));
    fputs("  \"episodes\": [", sm->f);
    for (size_t i = 0; i < b->r.nep; i++)
        write_episode(sm, o, &b->r.ep[i], i == 0);
    fputs(b->r.nep == 0 ? "],\n" : "\n  ],\n", sm->f);
    episodes_total(&b->r, EP_ANY_STEP, EP_ANY_SIDE, &t);
    fputs("  \"episode_totals\": {\"run\": {", sm->f);
    write_total(sm, &t);
    fputs(", \"steps\": [", sm->f);
    for (uint32_t step = 1; step <= sm->v->nsteps; step++) {
        episodes_total(&b->r, (int)step, EP_ANY_SIDE, &t);
        if (t.episodes == 0)
            continue;
        fprintf(sm->f, "%s\n    {\"step\": %u, ", first ? "" : ",", step);
        write_total(sm, &t);
        first = false;
    }
    fputs(first ? "]}\n" : "\n  ]}\n", sm->f);
}

static void write_overlap(struct sum *sm, struct stream_sum *ss, uint32_t n)
{
    struct ov_kernels o = {NULL, NULL, NULL, 0};
    struct ep_build b = {.r = {.ep = NULL}};
    bool first = true, built = ov_build(sm, ss, n, &o) && ep_build(sm, &o, ss, n, &b), busy_rule;
    uint32_t m = n;
    for (uint32_t i = 0; built && i < n; i++)
        if (ss[i].id == b.r.main_stream && ss[i].kernels > 0)
            m = i;
    busy_rule = !built || b.r.by == EP_BY_BUSY_TIME || m == n;
    fputs("  \"overlap\": [", sm->f);
    for (uint32_t i = 0; built && i < n; i++)
        for (uint32_t j = busy_rule ? i + 1 : 0; j < n; j++) {
            bool pair = ss[i].kernels > 0 && ss[j].kernels > 0 && ss[i].device == ss[j].device && i != j;
            if (pair && busy_rule)
                write_pair(sm, &o, &b, ss, i, j, true, &first);
            else if (pair && i == m)
                write_pair(sm, &o, &b, ss, m, j, false, &first);
        }
    fputs(first ? "]" : "\n  ]", sm->f);
    fputs(built ? ",\n" : "\n", sm->f);
    if (built)
        write_episodes(sm, &o, &b);
    ep_free(&b);
    acl_free(o.iv);
    acl_free(o.k);
}

bool profsummary_write(FILE *f, const struct prof_view *v)
{
    struct sum sm = {f, v, prof_soc(), NULL, NULL, NULL, 0};
    struct stream_sum *ss = acl_malloc((v->ndev + 1) * sizeof(*ss));
    uint32_t ns;
    bool ok = ss != NULL && gather_kernels(&sm);
    if (ok) {
        ns = stream_sums(v, ss);
        write_totals(&sm);
        write_streams(&sm, ss, ns);
        write_top(&sm);
        write_measured(&sm);
        write_core_usage(&sm);
        write_limits(&sm);
        write_batch_waits(&sm);
        write_event_waits(&sm);
        write_overlap(&sm, ss, ns);
        fputs("}\n", sm.f);
    }
    acl_free(ss);
    acl_free(sm.ks);
    return ok;
}
