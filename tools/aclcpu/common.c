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
    int w = snprintf(buf, n, "%s (%zu rows, %s%s%s", base_name(p->csv_path), p->nkernels,
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
