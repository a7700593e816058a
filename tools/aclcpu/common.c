/*
 * common.c - loading a profile from the common options, and the header
 * every profile subcommand prints.
 *
 * DESIGN: one place decides what --soc, --clock and --step mean, so that
 * summary, timeline and doctor read the same profile the same way and say
 * the same about where their numbers came from.
 */
#include "common.h"

#include <string.h>

#include "text.h"

static int pick_step(const struct args *a, struct profile *p, enum step_policy policy)
{
    const char *step = args_value(a, "--step");
    struct cli_error err;
    int *steps;
    size_t n;
    long v;
    if (step != NULL) {
        if (!parse_long(step, &v) || v < 0 || v > INT_MAX)
            return usage_error(a->cmd, "--step %s: not a step number", step);
        return profile_select_step(p, (int)v, &err) ? -1 : input_error(a->cmd, &err);
    }
    n = profile_steps(p, &steps);
    if (policy == STEPS_LAST && n > 1 && !profile_select_step(p, steps[n - 1], &err))
        return input_error(a->cmd, &err);
    return -1;
}

static bool has_stream(const struct profile *p, int stream)
{
    for (size_t i = 0; i < p->nkernels; i++)
        if (p->kernels[i].stream == stream)
            return true;
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].stream == stream)
            return true;
    return false;
}

int load_profile(const struct args *a, struct profile *p, bool need_streams, enum step_policy steps)
{
    const char *clock = args_value(a, "--clock");
    struct load_opts opts = {CLOCK_MODELLED, args_value(a, "--soc"), need_streams};
    const char *main_stream = args_value(a, "--main");
    struct cli_error err;
    long m = -1;
    int rc;
    if (clock != NULL && !str_eq(clock, "modelled") && !str_eq(clock, "measured"))
        return usage_error(a->cmd, "--clock %s: modelled or measured", clock);
    if (clock != NULL && str_eq(clock, "measured"))
        opts.clock = CLOCK_MEASURED;
    if (clock != NULL && path_is_file(a->positional[0]))
        return usage_error(a->cmd, "--clock picks the files of a profile directory; %s is read as it is",
                           a->positional[0]);
    if (main_stream != NULL && (!parse_long(main_stream, &m) || m < 0 || m > INT_MAX))
        return usage_error(a->cmd, "--main %s: not a stream id (a number >= 0)", main_stream);
    if (!profile_load(p, a->positional[0], &opts, &err))
        return input_error(a->cmd, &err);
    p->forced_main = (int)m;
    if (m >= 0 && !has_stream(p, (int)m)) {
        profile_free(p);
        return usage_error(a->cmd, "--main %s: no task of this profile ran on stream %ld", main_stream, m);
    }
    rc = pick_step(a, p, steps);
    if (rc >= 0)
        profile_free(p);
    return rc;
}

void describe_measured(const struct measured_kernel *m, char *buf, size_t n)
{
    snprintf(buf, n, "%s (%s): %u launch%s, %.3f-%.3f us (avg %.3f)", m->name, m->engine, m->launches,
             m->launches == 1 ? "" : "es", m->min, m->max, m->avg);
}

void write_measured_json(struct jw *w, const struct profile *p)
{
    if (!p->has_measured_list) {
        jw_null(w, "measured_kernels");
        return;
    }
    jw_array(w, "measured_kernels");
    for (size_t i = 0; i < p->nmeasured; i++) {
        const struct measured_kernel *m = &p->measured[i];
        jw_object(w, NULL);
        jw_str(w, "name", m->name);
        jw_str(w, "engine", m->engine);
        jw_int(w, "launches", m->launches);
        jw_us(w, "min_us", m->min);
        jw_us(w, "avg_us", m->avg);
        jw_us(w, "max_us", m->max);
        jw_end(w);
    }
    jw_end(w);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

void describe_files(const struct profile *p, char *buf, size_t n)
{
    const struct csv_shape *c = &p->csv;
    int w = snprintf(buf, n, "%s (%zu row%s, %s%s%s", base_name(p->csv_path), p->nkernels, p->nkernels == 1 ? "" : "s",
                     c->block_dim_names ? "Block Dim" : "Block Num", c->step_id ? ", Step Id" : "",
                     c->stream_id ? "" : ", no Stream ID");
    if (w < 0 || (size_t)w >= n)
        return;
    if (c->metric_columns > 0)
        w += snprintf(buf + w, n - (size_t)w, ", %d metric columns", c->metric_columns);
    if (p->duplicates > 0 && (size_t)w < n)
        w += snprintf(buf + w, n - (size_t)w, ", %zu repeated row%s dropped", p->duplicates,
                      p->duplicates == 1 ? "" : "s");
    if ((size_t)w < n)
        w += snprintf(buf + w, n - (size_t)w, ")%s%s%s%s", p->has_trace ? ", " : "",
                      p->has_trace ? base_name(p->trace_path) : "", p->has_summary ? ", " : "",
                      p->has_summary ? "summary.json" : "");
}

/* A bare CSV is on whatever clock its writer used (Ascend's device clock,
 * or aclcpu's modelled one): say so rather than call it modelled. */
static const char *clock_name(const struct profile *p)
{
    if (!path_is_dir(p->root))
        return "file";
    return p->clock == CLOCK_MODELLED ? "modelled" : "measured";
}

void write_profile_json(struct jw *w, const struct profile *p)
{
    char files[512];
    describe_files(p, files, sizeof(files));
    jw_str(w, "profile", p->root);
    jw_str(w, "files", files);
    jw_str(w, "clock", clock_name(p));
    jw_bool(w, "trace_view", p->has_trace);
    jw_bool(w, "summary_json", p->has_summary);
    jw_int(w, "repeated_rows_dropped", (long long)p->duplicates);
    if (p->step >= 0)
        jw_int(w, "step", p->step);
    else
        jw_null(w, "step");
    jw_object(w, "soc");
    jw_str(w, "name", p->soc.name);
    jw_int(w, "cube_cores", p->soc.cores[POOL_CUBE]);
    jw_int(w, "vector_cores", p->soc.cores[POOL_VECTOR]);
    jw_str(w, "source", p->soc.source);
    jw_bool(w, "assumed", p->soc.assumed);
    jw_end(w);
}

void print_profile_header(const struct profile *p, const char *what)
{
    char files[512];
    describe_files(p, files, sizeof(files));
    printf("%saclcpu %s%s: %s\n", text_bold(), what, text_reset(), p->root);
    printf("  files  %s\n", files);
    printf("  clock  %s\n", str_eq(clock_name(p), "file") ? "as written in the file" : clock_name(p));
    if (p->step >= 0)
        printf("  step   %d (Step Id; --step picks another)\n", p->step);
    printf("  SoC    %s: %u cube / %u vector cores (%s)\n", p->soc.name, p->soc.cores[POOL_CUBE],
           p->soc.cores[POOL_VECTOR], p->soc.source);
}

/* ---- the program's structure: the overlap section of doctor and summary ------------------------------ */

void pair_line(const struct pair *pr, char *buf, size_t n)
{
    char dom[512];
    snprintf(dom, sizeof(dom), pr->dominator_by_length ? "dominator none (no main-stream kernel meets it; the "
             "longest, %s [%.3f, %.3f], should hide it)" : "dominator %s [%.3f, %.3f]", pr->dominator->name,
             pr->dominator->start, pr->dominator->end);
    if (pr->by_episodes)
        snprintf(buf, n, "main %d / side %d: %zu episode%s (%zu real, %zu partial, %zu fake; %zu joined right after "
                 "the fork, %zu never joined): overlap %.3f of %.3f us, overlap_pct %.2f, %s; worst: side window "
                 "[%.3f, %.3f], %s", pr->main, pr->side, pr->total.episodes, pr->total.episodes == 1 ? "" : "s",
                 pr->total.real, pr->total.partial, pr->total.fake, pr->total.early, pr->total.no_join,
                 pr->overlap_us, pr->total.base_us, pr->pct, verdict_name(pr->verdict), pr->side_window.start,
                 pr->side_window.end, dom);
    else
        snprintf(buf, n, "main %d / side %d: side window [%.3f, %.3f], %s: overlap %.3f us, overlap_pct %.2f, %s",
                 pr->main, pr->side, pr->side_window.start, pr->side_window.end, dom, pr->overlap_us, pr->pct,
                 verdict_name(pr->verdict));
}

static void print_episode(size_t i, const struct ep_episode *ep)
{
    char step[32] = "", join[96];
    if (ep->step >= 0)
        snprintf(step, sizeof(step), " (step %d)", ep->step);
    if (ep->join_event >= 0)
        snprintf(join, sizeof(join), "join event %d recorded %.3f, waited for until %.3f", ep->join_event,
                 ep->side_to, ep->join_t);
    else
        snprintf(join, sizeof(join), "never joined");
    printf("    episode %zu%s, side %d: fork event %d recorded %.3f, waited for until %.3f; %s: side %.3f us "
           "(%zu kernel%s), main %.3f us (%zu kernel%s)%s, overlap %.3f us, overlap_pct %.2f, %s\n",
           i + 1, step, ep->side, ep->fork_event, ep->fork_t, ep->side_from, join, ep->side_us, ep->side_kernels,
           ep->side_kernels == 1 ? "" : "s", ep->hide_us, ep->main_kernels, ep->main_kernels == 1 ? "" : "s",
           ep->early ? " (joined right after the fork)" : "", ep->overlap_us, ep->pct, overlap_verdict_name(ep->verdict));
}

static void print_total(const char *what, const struct ep_total *t)
{
    printf("  %s: %zu episode%s (%zu real, %zu partial, %zu fake), overlap %.3f of %.3f us, overlap_pct %.2f, %s\n",
           what, t->episodes, t->episodes == 1 ? "" : "s", t->real, t->partial, t->fake, t->overlap_us, t->base_us,
           t->pct, overlap_verdict_name(t->verdict));
}

void print_structure(const struct structure *s, const struct pair *pairs, size_t np)
{
    char line[1024], what[32];
    text_heading(stdout, "Overlap (main stream by structure, overlap_pct per fork/join episode; docs/multistream.md §3)");
    if (s->r.main_stream >= 0)
        printf("  main stream %d: %s\n", s->r.main_stream, main_reason(s->r.by));
    if (np == 0)
        printf("  none: fewer than two streams ran kernels\n");
    for (size_t i = 0; i < np; i++) {
        pair_line(&pairs[i], line, sizeof(line));
        printf("  %s\n", line);
    }
    for (size_t i = 0; i < s->r.nep; i++)
        print_episode(i, &s->r.ep[i]);
    for (size_t i = 0; i < s->nsteps; i++) {
        struct ep_total t;
        episodes_total(&s->r, s->steps[i], EP_ANY_SIDE, &t);
        snprintf(what, sizeof(what), "step %d", s->steps[i]);
        print_total(what, &t);
    }
    if (s->r.nep > 0)
        print_total("all episodes", &s->run);
}

static void total_json(struct jw *w, const struct ep_total *t)
{
    jw_int(w, "episodes", (long long)t->episodes);
    jw_int(w, "real", (long long)t->real);
    jw_int(w, "partial", (long long)t->partial);
    jw_int(w, "fake", (long long)t->fake);
    jw_int(w, "early_joins", (long long)t->early);
    jw_int(w, "never_joined", (long long)t->no_join);
    jw_us(w, "overlap_us", t->overlap_us);
    jw_us(w, "base_us", t->base_us);
    jw_fixed(w, "overlap_pct", t->pct, 4);
    /* without episodes nothing was judged (not "fake", as 0 / 0 would say) */
    jw_str(w, "verdict", t->episodes ? overlap_verdict_name(t->verdict) : NULL);
}

static void episode_json(struct jw *w, const struct ep_episode *ep)
{
    jw_object(w, NULL);
    jw_int(w, "side_stream", ep->side);
    ep->step >= 0 ? jw_int(w, "step", ep->step) : jw_null(w, "step");
    jw_int(w, "fork_event", ep->fork_event);
    jw_us(w, "fork_recorded_us", ep->fork_t);
    jw_us(w, "fork_released_us", ep->side_from);
    if (ep->join_event >= 0) {
        jw_int(w, "join_event", ep->join_event);
        jw_us(w, "join_recorded_us", ep->side_to);
        jw_us(w, "join_released_us", ep->join_t);
    } else {
        jw_null(w, "join_event");
        jw_null(w, "join_recorded_us");
        jw_null(w, "join_released_us");
    }
    jw_int(w, "side_kernels", (long long)ep->side_kernels);
    jw_int(w, "main_kernels", (long long)ep->main_kernels);
    jw_us(w, "side_us", ep->side_us);
    jw_us(w, "hide_us", ep->hide_us);
    jw_us(w, "overlap_us", ep->overlap_us);
    jw_fixed(w, "overlap_pct", ep->pct, 4);
    jw_str(w, "verdict", overlap_verdict_name(ep->verdict));
    jw_bool(w, "early_join", ep->early);
    jw_end(w);
}

void write_structure_json(struct jw *w, const struct structure *s)
{
    jw_object(w, "main_stream");
    s->r.main_stream >= 0 ? jw_int(w, "stream_id", s->r.main_stream) : jw_null(w, "stream_id");
    jw_str(w, "by", episodes_by_name(s->r.by));
    jw_str(w, "why", main_reason(s->r.by));
    jw_end(w);
    jw_array(w, "episodes");
    for (size_t i = 0; i < s->r.nep; i++)
        episode_json(w, &s->r.ep[i]);
    jw_end(w);
    jw_object(w, "episode_totals");
    jw_object(w, "run");
    total_json(w, &s->run);
    jw_end(w);
    jw_array(w, "steps");
    for (size_t i = 0; i < s->nsteps; i++) {
        struct ep_total t;
        episodes_total(&s->r, s->steps[i], EP_ANY_SIDE, &t);
        jw_object(w, NULL);
        jw_int(w, "step", s->steps[i]);
        total_json(w, &t);
        jw_end(w);
    }
    jw_end(w);
    jw_end(w);
}

void write_task_json(struct jw *w, const char *key, const struct task *k)
{
    jw_object(w, key);
    jw_str(w, "name", k->name);
    jw_int(w, "stream_id", k->stream);
    jw_int(w, "task_id", k->task_id);
    jw_us(w, "start_us", k->start);
    jw_us(w, "end_us", k->end);
    jw_end(w);
}

void write_pair_fields_json(struct jw *w, const struct pair *pr)
{
    jw_int(w, "main_stream", pr->main);
    jw_int(w, "side_stream", pr->side);
    jw_str(w, "judged_on", pr->by_episodes ? "episodes" : "whole_run");
    jw_array(w, "side_window_us");
    jw_us(w, NULL, pr->side_window.start);
    jw_us(w, NULL, pr->side_window.end);
    jw_end(w);
    /* As summary.json's overlap: the dominator is the kernel that meets the
     * side window most; none meets it, none is (should_hide says which would). */
    if (pr->dominator_by_length) {
        jw_null(w, "dominator");
        write_task_json(w, "should_hide", pr->dominator);
    } else {
        write_task_json(w, "dominator", pr->dominator);
    }
    jw_us(w, "overlap_us", pr->overlap_us);
    jw_fixed(w, "overlap_pct", pr->pct, 4);
    jw_str(w, "verdict", verdict_name(pr->verdict));
}
