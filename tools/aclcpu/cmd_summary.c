/*
 * cmd_summary.c - `aclcpu summary`: E2E, Computing, Free, per-stream busy
 * time, top kernels, and the Block Num sums of concurrent kernels against
 * the cores, for an aclcpu profile or an Ascend kernel_details.csv.
 *
 * DESIGN: reports, never judges: the exit code is 0 whatever the numbers
 * (doctor is the one that judges); the overlap section prints the rule's
 * verdicts (analysis.c, services/episodes.c) exactly as doctor does. Everything is computed by analysis.c
 * from the kernel rows, so a bare Ascend CSV gets the same figures; what
 * the file cannot tell (streams without a Stream ID column) is said so.
 * The one exception is core contention on aclcpu's modelled clock: there a
 * kernel asking for busy cores queues, so only summary.json, which knows
 * when kernels were ready, can show it; its intervals are used when the
 * profile has them (analysis.c, pool_usage).
 */
#include <stdlib.h>

#include "analysis.h"
#include "common.h"
#include "text.h"

#define DEFAULT_TOP 10

static const struct option_spec summary_options[] = {
    PROFILE_OPTIONS,
    {"--top", 0, "N", "how many kernel names to list (default 10)"},
};

struct summary {
    struct totals totals;
    struct stream_stat *streams;
    size_t nstreams;
    struct kernel_group *groups;
    size_t ngroups, top;
    double kernel_time; /* the sum of all kernel durations */
    struct pool_usage pools[POOLS];
    int *steps;
    size_t nsteps;
    struct structure structure; /* the main stream and its fork/join episodes */
    struct pair *pairs;
    size_t npairs;
};

static void compute(struct profile *p, struct summary *s)
{
    profile_totals(p, &s->totals);
    s->nstreams = stream_stats(p, &p->arena, &s->streams);
    s->ngroups = top_kernels(p, &p->arena, &s->groups);
    s->top = s->top < s->ngroups ? s->top : s->ngroups;
    for (size_t i = 0; i < s->ngroups; i++)
        s->kernel_time += s->groups[i].total;
    for (int pool = 0; pool < POOLS; pool++)
        pool_usage(p, (enum pool)pool, &p->arena, &s->pools[pool]);
    s->nsteps = profile_steps(p, &s->steps);
    profile_structure(p, s->streams, s->nstreams, &p->arena, &s->structure);
    s->npairs = stream_pairs(s->streams, s->nstreams, &s->structure, &p->arena, &s->pairs);
}

/* ---- text ---------------------------------------------------------------------------- */

static void print_times(const struct summary *s)
{
    char pct[16];
    text_heading(stdout, "Time (us)");
    printf("  E2E        %12.3f\n", s->totals.e2e);
    printf("  Computing  %12.3f  %s\n", s->totals.computing, text_pct(pct, sizeof(pct), s->totals.computing, s->totals.e2e));
    printf("  Free       %12.3f  %s\n", s->totals.free, text_pct(pct, sizeof(pct), s->totals.free, s->totals.e2e));
}

static void print_streams(const struct profile *p, const struct summary *s)
{
    char pct[16];
    text_heading(stdout, "Streams");
    if (!p->csv.stream_id) {
        printf("  not known: kernel_details.csv has no Stream ID column\n");
        return;
    }
    printf("  %8s %8s %12s %7s %12s %12s %12s\n", "stream", "kernels", "busy_us", "busy%", "first_us", "last_us",
           "gaps_us");
    for (size_t i = 0; i < s->nstreams; i++) {
        const struct stream_stat *st = &s->streams[i];
        if (st->kernels == 0)
            continue;
        printf("  %8d %8zu %12.3f %7s %12.3f %12.3f %12.3f\n", st->stream, st->kernels, st->busy,
               text_pct(pct, sizeof(pct), st->busy, s->totals.e2e), st->first, st->last, st->gaps);
    }
    if (p->no_stream > 0)
        printf("  (%zu kernel row%s Stream ID N/A and %s left out here)\n", p->no_stream,
               p->no_stream == 1 ? " has" : "s have", p->no_stream == 1 ? "is" : "are");
}

static void print_top(const struct summary *s)
{
    char pct[16];
    text_heading(stdout, "Top kernels (by total time; share of all kernel time)");
    printf("  %-40s %-15s %6s %12s %10s %10s %7s\n", "name", "engine", "count", "total_us", "avg_us", "max_us",
           "share");
    for (size_t i = 0; i < s->top; i++) {
        const struct kernel_group *g = &s->groups[i];
        printf("  %-40.40s %-15s %6zu %12.3f %10.3f %10.3f %7s\n", g->name, engine_label(g->engine), g->count,
               g->total, g->total / (double)g->count, g->max, text_pct(pct, sizeof(pct), g->total, s->kernel_time));
    }
    if (s->ngroups > s->top)
        printf("  ... %zu more (--top)\n", s->ngroups - s->top);
}

static unsigned most_asked(const struct pool_usage *u)
{
    unsigned most = 0;
    for (size_t i = 0; i < u->nspans; i++)
        most = u->spans[i].demand > most ? u->spans[i].demand : most;
    return most;
}

/* Launches wider than the pool alone: waves of one stream, not contention. */
static void print_wide(const struct pool_usage *u)
{
    for (size_t i = 0; i < u->nwide && i < 3; i++) {
        const struct wide_launch *w = &u->wide[i];
        printf("         wider than the cores alone: %s (stream %d) %u blocks, %zu launch%s, %u waves "
               "(launch shape, not contention)\n", w->name, w->stream, w->blocks, w->launches,
               w->launches == 1 ? "" : "es", w->waves);
    }
    if (u->nwide > 3)
        printf("         ... %zu more wider than the cores (--json lists them)\n", u->nwide - 3);
}

static void print_pool(const struct profile *p, const struct pool_usage *u)
{
    printf("  %-6s peak %u of %u cores", pool_name(u->pool), u->peak, u->cores);
    if (u->nspans == 0) {
        printf(": %s\n", u->nwide > 0 ? "no contention between streams" : "within the cores");
        print_wide(u);
        return;
    }
    if (u->queued)
        printf(" running at once;\n         ready at once up to %u: over the cores for %.3f us in %zu interval%s "
               "(kernels queued; summary.json)\n", most_asked(u), u->over_us, u->nspans, u->nspans == 1 ? "" : "s");
    else
        printf(" at %.3f us: over the cores for %.3f us in %zu interval%s\n", u->peak_at, u->over_us, u->nspans,
               u->nspans == 1 ? "" : "s");
    for (size_t i = 0; i < u->nspans && i < 3; i++) {
        const struct over_span *sp = &u->spans[i];
        printf("         [%.3f, %.3f] asks %u:", sp->start, sp->end, sp->demand);
        for (size_t k = 0; k < sp->nkernels && k < 4; k++)
            printf("%s %s (stream %d, %u)", k ? "," : "", sp->kernels[k]->name, sp->kernels[k]->stream,
                   task_demand(sp->kernels[k], u->pool, &p->soc));
        printf("%s\n", sp->nkernels > 4 ? ", ..." : "");
    }
    if (u->nspans > 3)
        printf("         ... %zu more (--json lists them)\n", u->nspans - 3);
    print_wide(u);
}

static void print_cores(const struct profile *p, const struct summary *s)
{
    text_heading(stdout, "Cores (Block Num of kernels running at once, or ready (summary.json), against the cores)");
    for (int pool = 0; pool < POOLS; pool++)
        if (p->soc.cores[pool] > 0 || s->pools[pool].peak > 0)
            print_pool(p, &s->pools[pool]);
}

/* Kernels without a declared cost: their modelled time is this CPU's. */
static void print_measured(const struct profile *p)
{
    char line[512];
    if (!p->has_measured_list)
        return;
    text_heading(stdout, "Kernels modelled from measured CPU time (no declared cost)");
    if (p->nmeasured == 0)
        printf("  none: every kernel has a declared cost\n");
    for (size_t i = 0; i < p->nmeasured; i++) {
        describe_measured(&p->measured[i], line, sizeof(line));
        printf("  %s\n", line);
    }
}

static void print_text(const struct profile *p, const struct summary *s)
{
    print_profile_header(p, "summary");
    if (s->nsteps > 1 && p->step < 0)
        printf("  steps  %zu (Step Id %d..%d; --step N for one)\n", s->nsteps, s->steps[0], s->steps[s->nsteps - 1]);
    print_times(s);
    print_streams(p, s);
    if (p->csv.stream_id)
        print_structure(&s->structure, s->pairs, s->npairs);
    print_top(s);
    print_measured(p);
    print_cores(p, s);
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void write_streams_json(struct jw *w, const struct summary *s)
{
    jw_array(w, "streams");
    for (size_t i = 0; i < s->nstreams; i++) {
        const struct stream_stat *st = &s->streams[i];
        if (st->kernels == 0)
            continue;
        jw_object(w, NULL);
        jw_int(w, "stream_id", st->stream);
        jw_int(w, "kernels", (long long)st->kernels);
        jw_us(w, "busy_us", st->busy);
        jw_us(w, "first_kernel_start_us", st->first); /* summary.json's first_start_us counts every task */
        jw_us(w, "last_kernel_end_us", st->last);
        jw_us(w, "gaps_us", st->gaps);
        jw_end(w);
    }
    jw_end(w);
}

static void write_top_json(struct jw *w, const struct summary *s)
{
    jw_array(w, "top_kernels");
    for (size_t i = 0; i < s->top; i++) {
        const struct kernel_group *g = &s->groups[i];
        jw_object(w, NULL);
        jw_str(w, "name", g->name);
        jw_str(w, "engine", engine_label(g->engine));
        jw_int(w, "count", (long long)g->count);
        jw_us(w, "total_us", g->total);
        jw_us(w, "avg_us", g->total / (double)g->count);
        jw_us(w, "max_us", g->max);
        jw_end(w);
    }
    jw_end(w);
}

static void write_span_json(struct jw *w, const struct profile *p, const struct pool_usage *u, const struct over_span *sp)
{
    jw_object(w, NULL);
    jw_us(w, "start_us", sp->start);
    jw_us(w, "end_us", sp->end);
    jw_int(w, "demand_blocks", sp->demand);
    jw_int(w, "cores", u->cores);
    jw_array(w, "kernels");
    for (size_t k = 0; k < sp->nkernels; k++) {
        jw_object(w, NULL);
        jw_int(w, "stream_id", sp->kernels[k]->stream);
        jw_int(w, "task_id", sp->kernels[k]->task_id);
        jw_str(w, "name", sp->kernels[k]->name);
        jw_int(w, "blocks", task_demand(sp->kernels[k], u->pool, &p->soc));
        jw_end(w);
    }
    jw_end(w);
    jw_end(w);
}

static void write_cores_json(struct jw *w, const struct profile *p, const struct summary *s)
{
    jw_object(w, "core_usage");
    for (int pool = 0; pool < POOLS; pool++) {
        const struct pool_usage *u = &s->pools[pool];
        jw_object(w, pool_name(u->pool));
        jw_int(w, "cores", u->cores);
        jw_int(w, "peak_blocks", u->peak);
        jw_us(w, "peak_at_us", u->peak_at);
        jw_us(w, "over_us", u->over_us);
        jw_str(w, "contention_of", u->queued ? "kernels running or ready (summary.json)" : "kernels running at once");
        jw_array(w, "contention");
        for (size_t i = 0; i < u->nspans; i++)
            write_span_json(w, p, u, &u->spans[i]);
        jw_end(w);
        jw_array(w, "wider_than_cores");
        for (size_t i = 0; i < u->nwide; i++) {
            jw_object(w, NULL);
            jw_int(w, "stream_id", u->wide[i].stream);
            jw_str(w, "name", u->wide[i].name);
            jw_int(w, "blocks", u->wide[i].blocks);
            jw_int(w, "launches", (long long)u->wide[i].launches);
            jw_int(w, "waves", u->wide[i].waves);
            jw_end(w);
        }
        jw_end(w);
        jw_end(w);
    }
    jw_end(w);
}

static void write_json(const struct profile *p, const struct summary *s)
{
    struct jw w;
    jw_begin(&w, stdout);
    write_profile_json(&w, p);
    jw_us(&w, "e2e_us", s->totals.e2e);
    jw_us(&w, "computing_us", s->totals.computing);
    jw_us(&w, "free_us", s->totals.free);
    jw_int(&w, "kernels", (long long)p->nkernels);
    jw_array(&w, "steps");
    for (size_t i = 0; i < s->nsteps; i++)
        jw_int(&w, NULL, s->steps[i]);
    jw_end(&w);
    if (p->csv.stream_id)
        write_streams_json(&w, s);
    else
        jw_null(&w, "streams");
    jw_array(&w, "overlap");
    for (size_t i = 0; i < s->npairs; i++) {
        jw_object(&w, NULL);
        write_pair_fields_json(&w, &s->pairs[i]);
        jw_end(&w);
    }
    jw_end(&w);
    write_structure_json(&w, &s->structure);
    write_top_json(&w, s);
    write_measured_json(&w, p);
    write_cores_json(&w, p, s);
    jw_finish(&w);
}

static int run_summary(const struct args *a)
{
    const char *top = args_value(a, "--top");
    struct summary s = {.top = DEFAULT_TOP};
    struct profile p;
    long v;
    int rc;
    if (top != NULL && (!parse_long(top, &v) || v < 0))
        return usage_error(a->cmd, "--top %s: not a count", top);
    if (top != NULL)
        s.top = (size_t)v;
    if ((rc = load_profile(a, &p, false, STEPS_ALL)) >= 0)
        return rc;
    text_init(stdout);
    compute(&p, &s);
    if (args_flag(a, "--json"))
        write_json(&p, &s);
    else
        print_text(&p, &s);
    profile_free(&p);
    return EXIT_OK;
}

const struct command cmd_summary = {
    .name = "summary",
    .summary = "E2E, Computing, Free, per-stream busy time, top kernels, core demand",
    .usage = "<profile dir | kernel_details.csv> [--soc NAME] [--step N] [--main N] [--clock modelled|measured] "
             "[--top N] [--json]",
    .help = "Summarises a profile: E2E (first task start to last task end), Computing (the union of kernel\n"
            "intervals over all streams), Free (E2E - Computing), per-stream busy time, the kernels that\n"
            "took longest, the main stream (the one that forks and joins, or --main) with overlap_pct per\n"
            "fork/join episode and per step (the verdicts doctor gives), and the Block Num sums of kernels\n"
            "running at once against the cube and vector\n"
            "cores (MIX kernels count on both); on an aclcpu profile also summary.json's intervals in which\n"
            "kernels ready at once asked for more cores than there are (on the modelled chip they queue).\n"
            "Reads an aclcpu profile directory or any kernel_details.csv, including one written by Ascend's\n"
            "profiler (Block Num or Block Dim, Step Id or not, with or without PMU metric columns; a file is\n"
            "read alone). Times are us from the profile's first task; times closer than 0.001 us (the\n"
            "files' 3 decimals) are the same time.",
    .options = summary_options,
    .noptions = CLI_ARRAY_SIZE(summary_options),
    .min_args = 1,
    .max_args = 1,
    .run = run_summary,
};
