/*
 * html.c - writes the timeline page.
 *
 * DESIGN: the page carries the profile as data and draws it itself, so a
 * profile of any size makes a page of bounded cost to open. Each clock
 * (modelled, and measured when the profile has it) is one JSON object in a
 * <script type="application/json"> block: the kernels as columns (start as
 * the nanosecond delta from the previous kernel's start, duration, lane,
 * engine, step, name and tooltip facts as indexes into one string table,
 * task id, Block Num, Mix Block Num; the blocks each pool is asked for
 * follow from those by a per-engine rule taken from task_demand), the
 * other device tasks, the event edges, the Overlap Analysis lanes, the step
 * spans, each core pool's capacity and contention spans, and the fork/join
 * episodes. The script (timeline.js, embedded at build time) draws it on a
 * canvas: one lane per stream, none dropped (lanes shrink when there are
 * many), kernels closer than a pixel merged into runs per lane (the level
 * of detail follows the zoom), a cores-in-use lane per pool against its
 * capacity, the episodes, zoom and pan by wheel, drag, keys and buttons,
 * and a step selector. Everything exact stays in the data: zooming in
 * shows single kernels and their facts. The header (SoC, overlap_pct
 * verdicts, kernels modelled from measured time) is plain HTML.
 * Single-threaded (the command); no locks.
 */
#include "html.h"

#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "timeline_js.h"

static const struct {
    enum engine engine;
    const char *css, *colour, *label;
} engine_styles[] = {
    {ENG_CUBE, "cube", "#d1495b", "AI_CORE (cube)"},
    {ENG_VECTOR, "vector", "#2e86ab", "AI_VECTOR_CORE (vector)"},
    {ENG_MIX_AIC, "mixaic", "#8e44ad", "MIX_AIC"},
    {ENG_MIX_AIV, "mixaiv", "#16a085", "MIX_AIV"},
    {ENG_AICPU, "aicpu", "#f0a202", "AI_CPU"},
    {ENG_COMM, "comm", "#ff7f0e", "communication"},
    {ENG_OTHER, "other", "#7f8c8d", "other kernel"},
};

static const char *const lane_colours[OVERLAP_LANES] = {"#4caf50", "#ff9800", "#e65100", "#cfd8dc"};

static void escape(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* A JSON string that is also safe inside <script>: no "<" (so no
 * "</script>"), no control characters. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static int engine_index(enum engine e)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        if (engine_styles[i].engine == e)
            return (int)i;
    return (int)CLI_ARRAY_SIZE(engine_styles) - 1;
}

/* µs on the profile's clock to whole ns (the files' resolution). */
static long long ns_of(double us) { return llround(us * 1000.0); }

/* ---- the string table: names and tooltip facts, each once --------------------------- */

struct strtab {
    const char **strings;
    size_t n, cap;
    size_t *slots; /* index + 1, 0 empty */
    size_t nslots;
};

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ull & SIZE_MAX;
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
    return h;
}

static void strtab_rehash(struct strtab *t)
{
    size_t nslots = t->nslots ? t->nslots * 2 : 256;
    size_t *slots = xcalloc(nslots, sizeof(*slots));
    for (size_t i = 0; i < t->n; i++) {
        size_t h = str_hash(t->strings[i]) & (nslots - 1);
        while (slots[h] != 0)
            h = (h + 1) & (nslots - 1);
        slots[h] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
}

/* The index of s in the table, adding it: a copy in arena `copy`, or
 * when copy is NULL the pointer itself (s must then outlive the table). */
static size_t strtab_id(struct strtab *t, const char *s, struct arena *copy)
{
    size_t h;
    if ((t->n + 1) * 2 > t->nslots)
        strtab_rehash(t);
    h = str_hash(s) & (t->nslots - 1);
    while (t->slots[h] != 0) {
        if (strcmp(t->strings[t->slots[h] - 1], s) == 0)
            return t->slots[h] - 1;
        h = (h + 1) & (t->nslots - 1);
    }
    *VEC_PUSH(t->strings, t->n, t->cap) = copy != NULL ? arena_strdup(copy, s) : s;
    t->slots[h] = t->n;
    return t->n - 1;
}

static void strtab_free(struct strtab *t)
{
    free(t->strings);
    free(t->slots);
}

/* ---- what one clock's data needs ---------------------------------------------------------- */

struct clock_data {
    FILE *f;
    struct profile *p; /* not const: profile_steps allocates in its arena */
    struct arena a;
    struct strtab names;
    struct totals totals;
    int *streams; /* the lanes' stream ids, ascending (-1: rows whose Stream ID is N/A) */
    size_t nstreams;
    const struct task **trace_kernels; /* the trace's kernel tasks by stream, task id, start */
    size_t ntrace_kernels;
    long long *lane_prev; /* per lane: the previous row's value (task ids go as deltas per lane) */
};

static int int_order(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

static int task_key_order(const void *a, const void *b)
{
    const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->task_id != y->task_id)
        return x->task_id < y->task_id ? -1 : 1;
    return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* Every stream of the kernels and trace tasks, ascending, once each. */
static void plan_lanes(struct clock_data *d)
{
    const struct profile *p = d->p;
    size_t n = 0, kept = 0;
    d->streams = arena_alloc(&d->a, (p->nkernels + p->ntasks + 1) * sizeof(int));
    for (size_t i = 0; i < p->nkernels; i++)
        d->streams[n++] = p->kernels[i].stream < 0 ? -1 : p->kernels[i].stream;
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].kind != TASK_KERNEL && p->tasks[i].stream >= 0)
            d->streams[n++] = p->tasks[i].stream;
    sort_items(d->streams, n, sizeof(int), int_order);
    for (size_t i = 0; i < n; i++)
        if (kept == 0 || d->streams[kept - 1] != d->streams[i])
            d->streams[kept++] = d->streams[i];
    d->nstreams = kept;
    d->lane_prev = arena_alloc(&d->a, (kept + 1) * sizeof(*d->lane_prev));
    d->trace_kernels = arena_alloc(&d->a, (p->ntasks + 1) * sizeof(*d->trace_kernels));
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].kind == TASK_KERNEL)
            d->trace_kernels[d->ntrace_kernels++] = &p->tasks[i];
    sort_items(d->trace_kernels, d->ntrace_kernels, sizeof(*d->trace_kernels), task_key_order);
}

static int lane_of(const struct clock_data *d, int stream)
{
    size_t lo = 0, hi = d->nstreams;
    stream = stream < 0 ? -1 : stream;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->streams[mid] < stream)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nstreams && d->streams[lo] == stream ? (int)lo : -1;
}

/* The trace's task for kernel row k (core limit, schedule mode), or NULL. */
static const struct task *trace_twin(const struct clock_data *d, const struct task *k)
{
    const struct task *const *hit;
    if (d->ntrace_kernels == 0)
        return NULL;
    hit = bsearch(&k, d->trace_kernels, d->ntrace_kernels, sizeof(*d->trace_kernels), task_key_order);
    return hit != NULL ? *hit : NULL;
}

/* The tooltip facts of kernel k beyond its columns: engine as written,
 * core limit and schedule mode. Interned (few distinct values). */
static size_t kernel_info(struct clock_data *d, const struct task *k)
{
    const struct task *t = trace_twin(d, k);
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", k->core_name != NULL && k->core_name[0] != '\0' ? k->core_name
                                                                                      : engine_label(k->engine));
    if (t != NULL && t->limit[POOL_CUBE] != NO_LIMIT)
        append(buf, sizeof(buf), " · core limit c%dv%d · %s mode", t->limit[POOL_CUBE], t->limit[POOL_VECTOR],
               t->batch ? "batch" : "normal");
    return strtab_id(&d->names, buf, &d->a);
}

/* ---- the columns ---------------------------------------------------------------------------- */

struct column {
    const char *key;
    long long (*value)(struct clock_data *d, const struct task *t, long long *prev);
};

static long long col_start_delta(struct clock_data *d, const struct task *t, long long *prev)
{
    long long ns = ns_of(t->start), delta = ns - *prev;
    (void)d;
    *prev = ns;
    return delta;
}
static long long col_dur(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return ns_of(t->end) - ns_of(t->start);
}
static long long col_lane(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)prev;
    return lane_of(d, t->stream);
}
static long long col_engine(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return engine_index(t->engine);
}
static long long col_step(struct clock_data *d, const struct task *t, long long *prev)
{
    long long delta = t->step - *prev;
    (void)d;
    *prev = t->step;
    return delta;
}
static long long col_name(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)prev;
    return (long long)strtab_id(&d->names, t->name, NULL);
}
static long long col_info(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)prev;
    return (long long)kernel_info(d, t);
}
static long long col_task_id(struct clock_data *d, const struct task *t, long long *prev)
{
    int lane = lane_of(d, t->stream);
    long long delta;
    (void)prev;
    if (lane < 0)
        return t->task_id;
    delta = t->task_id - d->lane_prev[lane];
    d->lane_prev[lane] = t->task_id;
    return delta;
}
static long long col_blocks(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return t->blocks;
}
static long long col_mix(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return t->mix_blocks;
}
static long long col_event(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return t->event_id;
}
static long long col_wait(struct clock_data *d, const struct task *t, long long *prev)
{
    (void)d, (void)prev;
    return task_is_wait(t);
}

static const struct column kernel_columns[] = {
    {"s", col_start_delta}, {"d", col_dur},    {"l", col_lane},   {"e", col_engine},
    {"st", col_step},       {"n", col_name},   {"i", col_info},   {"id", col_task_id},
    {"b", col_blocks},      {"m", col_mix},
};
static const struct column task_columns[] = {
    {"s", col_start_delta}, {"d", col_dur}, {"l", col_lane}, {"n", col_name},
    {"id", col_task_id},    {"ev", col_event}, {"w", col_wait},
};

/* {"key":[v,...],...} of the columns over tasks t (pointers, in start
 * order). Start, step and task id go as deltas (from the previous row;
 * task ids from the previous row of the same lane): small numbers, a
 * smaller page. */
static void write_columns(struct clock_data *d, const struct column *cols, size_t ncols, const struct task *const *t,
                          size_t n)
{
    fputc('{', d->f);
    for (size_t c = 0; c < ncols; c++) {
        long long prev = 0;
        memset(d->lane_prev, 0, (d->nstreams + 1) * sizeof(*d->lane_prev));
        fprintf(d->f, "%s\"%s\":[", c ? "," : "", cols[c].key);
        for (size_t i = 0; i < n; i++)
            fprintf(d->f, i ? ",%lld" : "%lld", cols[c].value(d, t[i], &prev));
        fputc(']', d->f);
    }
    fputc('}', d->f);
}

static void write_kernels(struct clock_data *d)
{
    const struct task **k = arena_alloc(&d->a, (d->p->nkernels + 1) * sizeof(*k));
    for (size_t i = 0; i < d->p->nkernels; i++)
        k[i] = &d->p->kernels[i]; /* already in start order */
    fputs(",\"k\":", d->f);
    write_columns(d, kernel_columns, CLI_ARRAY_SIZE(kernel_columns), k, d->p->nkernels);
}

static int task_start_order(const void *a, const void *b)
{
    const struct task *x = *(const struct task *const *)a, *y = *(const struct task *const *)b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->stream > y->stream) - (x->stream < y->stream);
}

/* The trace's device tasks that are not kernels (events, copies, ...). */
static void write_tasks(struct clock_data *d)
{
    const struct task **t = arena_alloc(&d->a, (d->p->ntasks + 1) * sizeof(*t));
    size_t n = 0;
    for (size_t i = 0; i < d->p->ntasks; i++)
        if (d->p->tasks[i].kind != TASK_KERNEL && d->p->tasks[i].stream >= 0)
            t[n++] = &d->p->tasks[i];
    sort_items(t, n, sizeof(*t), task_start_order);
    fputs(",\"t\":", d->f);
    write_columns(d, task_columns, CLI_ARRAY_SIZE(task_columns), t, n);
}

static void write_edges(struct clock_data *d)
{
    fputs(",\"eg\":[", d->f);
    for (size_t i = 0; i < d->p->nedges; i++) {
        const struct edge *e = &d->p->edges[i];
        fprintf(d->f, "%s%d,%d,%d,%lld,%lld", i ? "," : "", e->event_id, e->from_stream, e->to_stream,
                ns_of(e->from_t), ns_of(e->to_t));
    }
    fputc(']', d->f);
}

static void write_intervals(FILE *f, const struct interval *iv, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%lld,%lld", i ? "," : "", ns_of(iv[i].start), ns_of(iv[i].end));
    fputc(']', f);
}

/* The lanes as trace_view.json has them, else Computing and Free computed
 * the same way (Communication is empty: no collectives in the rows). */
static void write_overlap(struct clock_data *d)
{
    struct interval *comp, *free_iv;
    size_t n, nfree = 0;
    double cursor = d->totals.first;
    fputs(",\"ov\":[", d->f);
    if (d->p->has_overlap_lanes) {
        for (int lane = 0; lane < OVERLAP_LANES; lane++) {
            fputs(lane ? "," : "", d->f);
            write_intervals(d->f, d->p->overlap[lane], d->p->noverlap[lane]);
        }
        fputc(']', d->f);
        return;
    }
    n = computing_intervals(d->p, &d->a, &comp);
    free_iv = arena_alloc(&d->a, (n + 1) * sizeof(*free_iv));
    for (size_t i = 0; i <= n; i++) {
        double until = i < n ? comp[i].start : d->totals.last;
        if (until > cursor)
            free_iv[nfree++] = (struct interval){cursor, until};
        cursor = i < n && comp[i].end > cursor ? comp[i].end : cursor;
    }
    write_intervals(d->f, comp, n);
    fputs(",[],[],", d->f);
    write_intervals(d->f, free_iv, nfree);
    fputc(']', d->f);
}

/* Every Step Id with the span of its kernels: [id, start, end, ...]. */
static void write_steps(struct clock_data *d)
{
    int *steps;
    size_t n = profile_steps(d->p, &steps);
    struct interval *span = arena_alloc(&d->a, (n + 1) * sizeof(*span));
    for (size_t i = 0; i < n; i++)
        span[i] = (struct interval){INFINITY, -INFINITY};
    for (size_t i = 0; i < d->p->nkernels; i++) {
        const struct task *k = &d->p->kernels[i];
        const int *hit = k->step >= 0 ? bsearch(&k->step, steps, n, sizeof(*steps), int_order) : NULL;
        if (hit == NULL)
            continue;
        span[hit - steps].start = fmin(span[hit - steps].start, k->start);
        span[hit - steps].end = fmax(span[hit - steps].end, k->end);
    }
    fputs(",\"steps\":[", d->f);
    for (size_t i = 0; i < n; i++)
        fprintf(d->f, "%s%d,%lld,%lld", i ? "," : "", steps[i], ns_of(span[i].start), ns_of(span[i].end));
    fputc(']', d->f);
}

/* How many blocks of each pool a kernel of each engine asks for, as
 * [cube per Block Num, cube per Mix Block Num, vector per Block Num,
 * vector per Mix Block Num] (task_demand is linear in both): the page
 * computes the demand of every kernel from its columns. */
static void write_demand(struct clock_data *d)
{
    fputs(",\"demand\":[", d->f);
    for (size_t e = 0; e < CLI_ARRAY_SIZE(engine_styles); e++) {
        struct task b = {.kind = TASK_KERNEL, .engine = engine_styles[e].engine, .blocks = 1};
        struct task m = {.kind = TASK_KERNEL, .engine = engine_styles[e].engine, .mix_blocks = 1};
        fprintf(d->f, "%s[%u,%u,%u,%u]", e ? "," : "", task_demand(&b, POOL_CUBE, &d->p->soc),
                task_demand(&m, POOL_CUBE, &d->p->soc), task_demand(&b, POOL_VECTOR, &d->p->soc),
                task_demand(&m, POOL_VECTOR, &d->p->soc));
    }
    fputc(']', d->f);
}

/* Each pool with cores: its capacity and the spans over it (summary.json's
 * queued demand on aclcpu's model, else kernels running over the cores). */
static void write_cores(struct clock_data *d)
{
    const struct soc_info *soc = &d->p->soc;
    bool coupled = soc->cores[POOL_VECTOR] == 0;
    fputs(",\"cores\":[", d->f);
    for (int pool = 0; pool < POOLS; pool++) {
        struct pool_usage u;
        if (soc->cores[pool] == 0)
            continue;
        pool_usage(d->p, (enum pool)pool, &d->a, &u);
        fprintf(d->f, "%s{\"pool\":%d,\"name\":\"%s\",\"cap\":%u,\"queued\":%s,\"spans\":[", pool ? "," : "", pool,
                coupled ? "AI Cores (cube + vector)" : pool == POOL_CUBE ? "cube cores" : "vector cores", soc->cores[pool],
                u.queued ? "true" : "false");
        for (size_t i = 0; i < u.nspans; i++)
            fprintf(d->f, "%s%lld,%lld,%u", i ? "," : "", ns_of(u.spans[i].start), ns_of(u.spans[i].end),
                    u.spans[i].demand);
        fputs("]}", d->f);
    }
    fputc(']', d->f);
}

static void write_episodes(struct clock_data *d, const struct timeline_clock *c)
{
    fputs(",\"ep\":[", d->f);
    for (size_t i = 0; i < c->nepisodes; i++) {
        const struct timeline_episode *e = &c->episodes[i];
        fprintf(d->f, "%s%d,%d,%lld,%lld,%d,%d", i ? "," : "", e->main_stream, e->side_stream, ns_of(e->start),
                ns_of(e->end), e->joined ? 1 : 0, e->verdict);
    }
    fputc(']', d->f);
}

/* The clock's data block: <script type="application/json" id="data-CLOCK">. */
static void write_clock_data(FILE *f, const struct timeline_clock *c, const char *clock, const char *label)
{
    struct clock_data d = {.f = f, .p = c->profile};
    profile_totals(d.p, &d.totals);
    plan_lanes(&d);
    fprintf(f, "<script type=\"application/json\" id=\"data-%s\">{\"clock\":\"%s\",\"label\":\"%s\"", clock, clock,
            label);
    fprintf(f, ",\"nkernels\":%zu,\"nedges\":%zu,\"t0\":%lld,\"t1\":%lld,\"lanes\":[", d.p->nkernels, d.p->nedges,
            ns_of(d.totals.first), ns_of(d.totals.last));
    for (size_t i = 0; i < d.nstreams; i++)
        fprintf(f, "%s%d", i ? "," : "", d.streams[i]);
    fputc(']', f);
    write_kernels(&d);
    write_tasks(&d);
    write_edges(&d);
    write_overlap(&d);
    write_steps(&d);
    write_cores(&d);
    write_demand(&d);
    write_episodes(&d, c);
    fputs(",\"names\":[", f);
    for (size_t i = 0; i < d.names.n; i++) {
        fputs(i ? "," : "", f);
        json_string(f, d.names.strings[i]);
    }
    fputs("]}</script>\n", f);
    strtab_free(&d.names);
    arena_free(&d.a);
}

/* ---- the header ------------------------------------------------------------------------------ */

/* The main stream and overlap_pct of each pair (docs/multistream.md §3),
 * under the facts: the verdict doctor and summary give (analysis.c's
 * profile_structure and stream_pairs); past the first few pairs folded,
 * past a hundred counted (a profile of n streams has n(n-1)/2 pairs). */
#define PAIRS_SHOWN 6
#define PAIRS_LISTED 100
static void write_pairs(FILE *f, const struct profile *p)
{
    struct arena a = {0};
    struct stream_stat *st;
    struct pair *pairs;
    struct structure s;
    size_t ns = stream_stats(p, &a, &st), np;
    profile_structure(p, st, ns, &a, &s);
    np = stream_pairs(st, ns, &s, &a, &pairs);
    if (np > 0)
        fprintf(f, "<div class=\"facts\">main stream %d (%s); overlap_pct:", s.r.main_stream,
                episodes_by_name(s.r.by));
    for (size_t i = 0; i < np && i < PAIRS_LISTED; i++) {
        if (i == PAIRS_SHOWN)
            fprintf(f, "<details><summary>%zu more stream pairs</summary>", np - PAIRS_SHOWN);
        fprintf(f, "%s main %d / side %d <b>%.2f %s</b> (", i ? ";" : "", pairs[i].main, pairs[i].side,
                pairs[i].pct, verdict_name(pairs[i].verdict));
        if (pairs[i].by_episodes)
            fprintf(f, "%zu fork/join episode%s: %zu real, %zu partial, %zu fake; worst dominator ",
                    pairs[i].total.episodes, pairs[i].total.episodes == 1 ? "" : "s", pairs[i].total.real,
                    pairs[i].total.partial, pairs[i].total.fake);
        else
            fputs("whole run; dominator ", f);
        escape(f, pairs[i].dominator->name);
        fputc(')', f);
    }
    if (np > PAIRS_LISTED)
        fprintf(f, "; and %zu more (aclcpu doctor lists every pair)", np - PAIRS_LISTED);
    if (np > PAIRS_SHOWN)
        fputs("</details>", f);
    if (np > 0)
        fputs(" · aclcpu doctor explains it</div>\n", f);
    arena_free(&a);
}

static void write_clock_facts(FILE *f, const struct profile *p, const char *clock, const char *label)
{
    struct totals t;
    struct arena a = {0};
    struct stream_stat *st;
    size_t ns;
    profile_totals(p, &t);
    ns = stream_stats(p, &a, &st);
    fprintf(f, "<div class=\"%s\"><div class=\"facts\">%s: E2E %.3f us, Computing %.3f us, Free %.3f us, "
            "%zu kernels on %zu streams</div>\n", clock, label, t.e2e, t.computing, t.free, p->nkernels, ns);
    write_pairs(f, p);
    fputs("</div>\n", f);
    arena_free(&a);
}

static const char page_style[] =
    "body{font:13px system-ui,-apple-system,'Segoe UI',sans-serif;margin:16px;color:#222;background:#fff}\n"
    "h1{font-size:18px;margin:0 0 4px}.facts{color:#444;margin:6px 0}.legend span{display:inline-block;"
    "margin-right:14px}\n.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
    "vertical-align:-2px;border-radius:2px}\n"
    "#clock:checked~.modelled{display:none}#clock:not(:checked)~.measured{display:none}\n"
    ".bar{margin:8px 0;display:flex;gap:8px;align-items:center;flex-wrap:wrap}.bar button{font:inherit}\n"
    "#range{color:#555;font-variant-numeric:tabular-nums}\n"
    "#wrap{position:relative;overflow:auto;max-height:calc(100vh - 40px);border:1px solid #e5e7eb}\n"
    "#tl{display:block;cursor:grab;touch-action:none}#tl.dragging{cursor:grabbing}\n"
    "#tip{position:absolute;display:none;pointer-events:none;background:#fffffe;border:1px solid #999;"
    "padding:4px 6px;font-size:12px;white-space:pre;box-shadow:0 2px 6px rgba(0,0,0,.2);z-index:2}\n";

static void write_legend(FILE *f)
{
    fputs("<div class=\"legend\">", f);
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        fprintf(f, "<span><i style=\"background:%s\"></i>%s</span>", engine_styles[i].colour, engine_styles[i].label);
    fputs("<span>(kernels under one pixel: one mark, of the engine with the most time)</span><span><i style=\"background:#b0b0b0\"></i>event / copy task</span><span><i style=\"background:#e3e3e3;"
          "border:1px dashed #8a8a8a\"></i>wait</span><span>&#8594; event edge (record to wait)</span>"
          "<span>fork/join episode: <i style=\"background:#4caf50\"></i>real <i style=\"background:#ff9800\">"
          "</i>partial <i style=\"background:#c62828\"></i>fake</span><span><i style=\"background:#7a8fa6\"></i>"
          "cores in use, <i style=\"background:#c62828\"></i>over the capacity (dashed) or contention</span></div>\n", f);
}

/* The kernels modelled from measured CPU time, under the header: their
 * bars are this CPU's times. */
static void write_measured(FILE *f, const struct profile *p)
{
    char line[512];
    if (p->nmeasured == 0)
        return;
    fputs("<div class=\"facts measured-kernels\">Modelled from measured CPU time (no declared cost):", f);
    for (size_t i = 0; i < p->nmeasured; i++) {
        describe_measured(&p->measured[i], line, sizeof(line));
        fputs(i ? "; " : " ", f);
        escape(f, line);
    }
    fputs("</div>\n", f);
}

/* What the script needs besides the data: the engines, lane colours, width. */
static void write_config(FILE *f, int width)
{
    fputs("<script type=\"application/json\" id=\"config\">{\"engines\":[", f);
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        fprintf(f, "%s[\"%s\",\"%s\",\"%s\"]", i ? "," : "", engine_styles[i].css, engine_styles[i].colour,
                engine_styles[i].label);
    fputs("],\"overlap\":[", f);
    for (int i = 0; i < OVERLAP_LANES; i++)
        fprintf(f, "%s[\"%s\",\"%s\"]", i ? "," : "", overlap_lane_names[i], lane_colours[i]);
    fputs("],\"verdicts\":[", f);
    for (int v = VERDICT_REAL; v <= VERDICT_FAKE; v++)
        fprintf(f, "%s\"%s\"", v > VERDICT_REAL ? "," : "", verdict_name((enum verdict)v));
    fprintf(f, "],\"width\":%d}</script>\n", width);
}

void html_timeline(FILE *f, const struct timeline_page *page)
{
    const struct profile *p = page->modelled.profile, *m = page->measured.profile;
    const char *label = page->from_file ? "the file's clock" : "modelled clock";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>aclcpu timeline: ", f);
    escape(f, page->title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>aclcpu timeline</h1>\n<div class=\"facts\">",
            page_style);
    escape(f, page->title);
    fprintf(f, " · SoC %s (%u cube / %u vector cores, %s)</div>\n", p->soc.name, p->soc.cores[POOL_CUBE],
            p->soc.cores[POOL_VECTOR], p->soc.source);
    write_measured(f, p);
    write_legend(f);
    fprintf(f, "<input type=\"checkbox\" id=\"clock\"%s><label for=\"clock\"> measured clock%s</label>\n",
            m != NULL ? "" : " disabled", m != NULL ? " (what this CPU really took)" : ": not in this profile");
    write_clock_facts(f, p, "modelled", label);
    if (m != NULL)
        write_clock_facts(f, m, "measured", "measured clock");
    fputs("<div class=\"bar\"><button id=\"reset\" title=\"the whole run or step (key 0)\">Reset zoom</button>"
          "<button id=\"zin\" title=\"key +\">Zoom in</button><button id=\"zout\" title=\"key -\">Zoom out</button>"
          "<label>Step <select id=\"step\"><option value=\"all\">all steps</option></select></label>"
          "<span id=\"range\"></span><span style=\"color:#777\">wheel: zoom · drag: pan · arrows: pan · "
          "hover: facts</span></div>\n<div id=\"wrap\"><canvas id=\"tl\"></canvas><div id=\"tip\"></div></div>\n",
          f);
    write_config(f, page->width);
    write_clock_data(f, &page->modelled, "modelled", label);
    if (m != NULL)
        write_clock_data(f, &page->measured, "measured", "measured clock");
    fputs("<script>\n", f);
    for (size_t i = 0; i < CLI_ARRAY_SIZE(timeline_js); i++)
        fputs(timeline_js[i], f);
    fputs("</script>\n</body></html>\n", f);
}
