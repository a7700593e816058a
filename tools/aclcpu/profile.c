/*
 * profile.c - finds a profile's files, loads them in order, and puts every
 * time on one clock.
 *
 * DESIGN: a directory argument may be the profile directory (holding
 * ASCEND_PROFILER_OUTPUT/), that directory itself, or a directory holding
 * exactly one Ascend "*_ascend_pt" run; a file argument is read alone, as
 * a bare kernel_details.csv (trace_view.json and summary.json next to it
 * are not consulted, so that the same file always gives the same verdict).
 * kernel_details.csv is read first and fixes the origin (its earliest
 * start); trace_view.json may move it earlier (an event task before the
 * first kernel), and then every time read so far shifts; summary.json is
 * read last, on the final origin. Times are µs from that origin, which is
 * the modelled clock's 0 on aclcpu's files. The SoC comes from
 * summary.json, else --soc, else the profile in force (ACLCPU_SOC), and the
 * output says which.
 */
#include "profile.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "libconf.h"

/* ---- names ---------------------------------------------------------------------- */

static const struct {
    const char *name;
    enum engine engine;
} engine_names[] = {
    {"AI_CORE", ENG_CUBE}, {"AI_VECTOR_CORE", ENG_VECTOR}, {"MIX_AIC", ENG_MIX_AIC},
    {"MIX_AIV", ENG_MIX_AIV}, {"AI_CPU", ENG_AICPU}, {"COMMUNICATION", ENG_COMM}, {"OTHER", ENG_OTHER},
};

enum engine engine_from_name(const char *core)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_names); i++)
        if (strcasecmp(engine_names[i].name, core) == 0)
            return engine_names[i].engine;
    if (strcasestr(core, "HCCL") != NULL || strcasestr(core, "COMMUNICATION") != NULL)
        return ENG_COMM;
    return ENG_OTHER;
}

const char *engine_label(enum engine e)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_names); i++)
        if (engine_names[i].engine == e)
            return engine_names[i].name;
    return "OTHER";
}

const char *pool_name(enum pool pool) { return pool == POOL_CUBE ? "cube" : "vector"; }

static const struct {
    const char *name;
    enum task_kind kind;
} task_names[] = {
    {"EVENT_RECORD", TASK_EVENT_RECORD}, {"EVENT_WAIT", TASK_EVENT_WAIT}, {"NOTIFY_RECORD", TASK_NOTIFY_RECORD},
    {"NOTIFY_WAIT", TASK_NOTIFY_WAIT}, {"MEMCPY_ASYNC", TASK_MEMCPY}, {"MEMSET_ASYNC", TASK_MEMSET},
    {"HOST_FUNC", TASK_HOST_FUNC}, {"CMO_PREFETCH", TASK_CMO}, {"CMO_WRITEBACK", TASK_CMO},
    {"CMO_INVALID", TASK_CMO}, {"CMO_FLUSH", TASK_CMO}, {"MODEL_RUN", TASK_MODEL_RUN},
};

enum task_kind task_kind_from_name(const char *name)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(task_names); i++)
        if (str_eq(task_names[i].name, name))
            return task_names[i].kind;
    return TASK_KERNEL;
}

bool task_is_wait(const struct task *t) { return t->kind == TASK_EVENT_WAIT || t->kind == TASK_NOTIFY_WAIT; }
bool task_is_record(const struct task *t) { return t->kind == TASK_EVENT_RECORD || t->kind == TASK_NOTIFY_RECORD; }

unsigned task_demand(const struct task *t, enum pool pool, const struct soc_info *soc)
{
    unsigned demand[POOLS] = {0, 0};
    if (t->kind != TASK_KERNEL)
        return 0;
    switch (t->engine) {
    case ENG_CUBE: demand[POOL_CUBE] = t->blocks; break;
    case ENG_VECTOR: demand[POOL_VECTOR] = t->blocks; break;
    case ENG_MIX_AIC: demand[POOL_CUBE] = t->blocks; demand[POOL_VECTOR] = t->mix_blocks; break;
    case ENG_MIX_AIV: demand[POOL_VECTOR] = t->blocks; demand[POOL_CUBE] = t->mix_blocks; break;
    default: break;
    }
    if (soc->cores[POOL_VECTOR] == 0) {
        demand[POOL_CUBE] += demand[POOL_VECTOR];
        demand[POOL_VECTOR] = 0;
    }
    return demand[pool];
}

/* ---- where the files are ------------------------------------------------------------ */

static const char *csv_name(enum clock c) { return c == CLOCK_MODELLED ? "kernel_details.csv" : "kernel_details_measured.csv"; }
static const char *trace_name(enum clock c) { return c == CLOCK_MODELLED ? "trace_view.json" : "trace_view_measured.json"; }

/* The one "<run>/ASCEND_PROFILER_OUTPUT" under dir, as Ascend's PyTorch
 * profiler lays a run out; several is an error, none leaves out empty. */
static bool find_run(const char *dir, char *out, size_t n, struct cli_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char cand[PATH_MAX], first[PATH_MAX] = "";
    int found = 0;
    out[0] = '\0';
    if (d == NULL)
        return err_at(err, dir, 0, 0, "cannot read the directory");
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !path_join(cand, sizeof(cand), dir, e->d_name) ||
            strlen(cand) + sizeof("/ASCEND_PROFILER_OUTPUT") > sizeof(cand))
            continue;
        strcat(cand, "/ASCEND_PROFILER_OUTPUT");
        /* The first by name, not by readdir's order (the file system's): the
         * message is the same on every machine. */
        if (path_is_dir(cand) && (found++ == 0 || strcmp(cand, first) < 0))
            snprintf(first, sizeof(first), "%s", cand);
    }
    closedir(d);
    if (found > 1)
        return err_at(err, dir, 0, 0, "holds %d profiler runs (one is %s): name the one to read", found, first);
    if (found == 1)
        snprintf(out, n, "%s", first);
    return true;
}

static bool locate_dir(struct profile *p, const char *dir, struct cli_error *err)
{
    char cand[PATH_MAX];
    if (path_join(cand, sizeof(cand), dir, "ASCEND_PROFILER_OUTPUT") && path_is_dir(cand))
        snprintf(p->root, sizeof(p->root), "%s", cand);
    else if (path_join(cand, sizeof(cand), dir, csv_name(p->clock)) && path_is_file(cand))
        snprintf(p->root, sizeof(p->root), "%s", dir);
    else if (!find_run(dir, p->root, sizeof(p->root), err))
        return false;
    if (p->root[0] == '\0' || !path_join(p->csv_path, sizeof(p->csv_path), p->root, csv_name(p->clock)) ||
        !path_is_file(p->csv_path))
        return err_at(err, dir, 0, 0, "no %s here (looked in %s/ASCEND_PROFILER_OUTPUT/ and %s/)", csv_name(p->clock),
                      dir, dir);
    if (!path_join(p->trace_path, sizeof(p->trace_path), p->root, trace_name(p->clock)) || !path_is_file(p->trace_path))
        p->trace_path[0] = '\0';
    if (!path_join(p->summary_path, sizeof(p->summary_path), p->root, "summary.json") ||
        !path_is_file(p->summary_path))
        p->summary_path[0] = '\0';
    return true;
}

static bool locate(struct profile *p, const char *path, struct cli_error *err)
{
    if (path_is_dir(path))
        return locate_dir(p, path, err);
    if (!path_is_file(path))
        return err_at(err, path, 0, 0, "no such file or directory");
    if (strlen(path) >= sizeof(p->csv_path))
        return err_at(err, path, 0, 0, "path too long");
    snprintf(p->csv_path, sizeof(p->csv_path), "%s", path);
    snprintf(p->root, sizeof(p->root), "%s", path);
    return true;
}

/* ---- the SoC ------------------------------------------------------------------------ */

static void use_soc(struct profile *p, const struct soc_row *soc)
{
    snprintf(p->soc.name, sizeof(p->soc.name), "%s", soc->name);
    p->soc.cores[POOL_CUBE] = soc->cube_cores;
    p->soc.cores[POOL_VECTOR] = soc->vector_cores;
    p->soc.sync_us = soc->dispatch_us + soc->event_us;
}

/* After summary.json: --soc overrides it; without either, the profile in
 * force is assumed (and said to be). */
static bool resolve_soc(struct profile *p, const char *wanted, struct cli_error *err)
{
    const char *env = libconf_soc_env();
    struct soc_row soc;
    if (wanted != NULL) {
        if (!libconf_soc_find(wanted, &soc))
            return err_set(err, "--soc %s: no such SoC profile ('aclcpu info' lists them)", wanted);
        if (p->has_summary && p->soc.name[0] != '\0' && !str_eq(p->soc.name, soc.name))
            snprintf(p->soc.source, sizeof(p->soc.source), "--soc (summary.json says %.60s)", p->soc.name);
        else
            snprintf(p->soc.source, sizeof(p->soc.source), "--soc");
        use_soc(p, &soc);
        p->soc.assumed = false;
        return true;
    }
    if (p->soc.name[0] != '\0')
        return true;
    libconf_soc_in_force(&soc);
    use_soc(p, &soc);
    snprintf(p->soc.source, sizeof(p->soc.source), "assumed: the profile in force (%s%.60s); pass --soc",
             env != NULL && env[0] != '\0' ? "ACLCPU_SOC=" : "ACLCPU_SOC unset, the default",
             env != NULL && env[0] != '\0' ? env : "");
    p->soc.assumed = true;
    return true;
}

/* ---- loading ------------------------------------------------------------------------ */

static void set_kernel_times(struct profile *p)
{
    p->origin_ns = p->kernels[0].start_ns;
    for (size_t i = 0; i < p->nkernels; i++) {
        struct task *k = &p->kernels[i];
        k->start = (double)(k->start_ns - p->origin_ns) / 1000.0;
        k->end = k->start + k->dur;
    }
}

static void shift_tasks(struct task *t, size_t n, double by)
{
    for (size_t i = 0; i < n; i++) {
        t[i].start += by;
        t[i].end += by;
    }
}

/* Moves the origin to the earliest trace task when that is earlier. */
static void rebase_on_trace(struct profile *p)
{
    int64_t first = p->origin_ns;
    double by;
    for (size_t i = 0; i < p->ntasks; i++)
        if (p->tasks[i].start_ns < first)
            first = p->tasks[i].start_ns;
    if (first == p->origin_ns)
        return;
    by = (double)(p->origin_ns - first) / 1000.0;
    p->origin_ns = first;
    shift_tasks(p->kernels, p->nkernels, by);
    shift_tasks(p->tasks, p->ntasks, by);
    for (size_t i = 0; i < p->nedges; i++) {
        p->edges[i].from_t += by;
        p->edges[i].to_t += by;
    }
    for (int lane = 0; lane < OVERLAP_LANES; lane++)
        for (size_t i = 0; i < p->noverlap[lane]; i++) {
            p->overlap[lane][i].start += by;
            p->overlap[lane][i].end += by;
        }
}

static bool load_files(struct profile *p, const struct load_opts *opts, struct cli_error *err)
{
    if (!kdetails_load(p, p->csv_path, opts->need_streams, err))
        return false;
    set_kernel_times(p);
    if (p->trace_path[0] != '\0') {
        if (!traceview_load(p, p->trace_path, err))
            return false;
        rebase_on_trace(p);
    }
    if (p->summary_path[0] != '\0' && !sumfile_load(p, p->summary_path, p->clock == CLOCK_MODELLED, err))
        return false;
    return resolve_soc(p, opts->soc, err);
}

bool profile_load(struct profile *p, const char *path, const struct load_opts *opts, struct cli_error *err)
{
    memset(p, 0, sizeof(*p));
    p->clock = opts->clock;
    p->step = -1;
    p->forced_main = -1;
    if (locate(p, path, err) && load_files(p, opts, err))
        return true;
    profile_free(p);
    return false;
}

void profile_free(struct profile *p) { arena_free(&p->arena); }

/* ---- steps ----------------------------------------------------------------------------- */

static int int_order(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

size_t profile_steps(struct profile *p, int **out)
{
    int *steps = arena_alloc(&p->arena, (p->nkernels + 1) * sizeof(*steps));
    size_t n = 0, m = 0;
    for (size_t i = 0; i < p->nkernels; i++)
        if (p->kernels[i].step >= 0)
            steps[n++] = p->kernels[i].step;
    sort_items(steps, n, sizeof(*steps), int_order);
    for (size_t i = 0; i < n; i++)
        if (m == 0 || steps[m - 1] != steps[i])
            steps[m++] = steps[i];
    *out = steps;
    return m;
}

static bool in_span(double start, double end, const struct interval *span)
{
    return end >= span->start && start <= span->end;
}

/* Keeps the tasks of t[0..*n) that lie in span (kernels: of the step). */
static void keep_tasks(struct task *t, size_t *n, const struct interval *span, int step)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++)
        if (step >= 0 ? t[i].step == step : in_span(t[i].start, t[i].end, span))
            t[kept++] = t[i];
    *n = kept;
}

static void keep_facts(struct profile *p, const struct interval *span)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->nedges; i++)
        if (in_span(p->edges[i].from_t, p->edges[i].to_t, span))
            p->edges[kept++] = p->edges[i];
    p->nedges = kept;
    kept = 0;
    for (size_t i = 0; i < p->nbatch_waits; i++)
        if (in_span(p->batch_waits[i].ready, p->batch_waits[i].start, span))
            p->batch_waits[kept++] = p->batch_waits[i];
    p->nbatch_waits = kept;
    kept = 0;
    for (size_t i = 0; i < p->nevent_waits; i++)
        if (in_span(p->event_waits[i].start, p->event_waits[i].end, span))
            p->event_waits[kept++] = p->event_waits[i];
    p->nevent_waits = kept;
    kept = 0;
    for (size_t i = 0; i < p->ncontention; i++)
        if (in_span(p->contention[i].start, p->contention[i].end, span))
            p->contention[kept++] = p->contention[i];
    p->ncontention = kept;
}

/* A limit hit belongs to the step when its kernel does. */
static void keep_limits(struct profile *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->nlimits; i++) {
        bool mine = false;
        for (size_t k = 0; k < p->nkernels && !mine; k++)
            mine = p->kernels[k].stream == p->limits[i].stream && p->kernels[k].task_id == p->limits[i].task_id;
        if (mine)
            p->limits[kept++] = p->limits[i];
    }
    p->nlimits = kept;
}

static void clip_lanes(struct profile *p, const struct interval *span)
{
    for (int lane = 0; lane < OVERLAP_LANES; lane++) {
        size_t kept = 0;
        for (size_t i = 0; i < p->noverlap[lane]; i++) {
            struct interval iv = p->overlap[lane][i];
            iv.start = iv.start > span->start ? iv.start : span->start;
            iv.end = iv.end < span->end ? iv.end : span->end;
            if (iv.end > iv.start)
                p->overlap[lane][kept++] = iv;
        }
        p->noverlap[lane] = kept;
    }
}

bool profile_select_step(struct profile *p, int step, struct cli_error *err)
{
    struct interval span = {0, 0};
    bool any = false;
    if (!p->csv.step_id)
        return err_at(err, p->csv_path, 1, 1, "--step %d: this kernel_details.csv has no 'Step Id' column", step);
    for (size_t i = 0; i < p->nkernels; i++) {
        const struct task *k = &p->kernels[i];
        if (k->step != step)
            continue;
        span.start = any && span.start < k->start ? span.start : k->start;
        span.end = any && span.end > k->end ? span.end : k->end;
        any = true;
    }
    if (!any)
        return err_at(err, p->csv_path, 0, 0, "--step %d: no kernel row has that Step Id", step);
    if (p->all_kernels == NULL) {
        p->all_kernels = arena_memdup(&p->arena, p->kernels, p->nkernels * sizeof(*p->kernels));
        p->nall_kernels = p->nkernels;
        p->all_edges = p->edges != NULL ? arena_memdup(&p->arena, p->edges, p->nedges * sizeof(*p->edges)) : NULL;
        p->nall_edges = p->edges != NULL ? p->nedges : 0;
    }
    keep_tasks(p->kernels, &p->nkernels, &span, step);
    keep_tasks(p->tasks, &p->ntasks, &span, -1);
    keep_facts(p, &span);
    keep_limits(p);
    clip_lanes(p, &span);
    p->step = step;
    return true;
}
