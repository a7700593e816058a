/*
 * cmd_doctor.c - `aclcpu doctor`: the triage of docs/multistream.md §3 on a
 * profile, with each remedy and its API for the program's execution path.
 *
 * DESIGN: doctor.c and doctor_cores.c find; this file parses the options
 * (--path, --limit), prints the findings in the order to fix them, and
 * exits 1 when there is any (0 when none, 2 on bad input). Each finding
 * ends with the routing-table row (routes.def) for its problem and path:
 * the ACL calls, the framework names, what to read.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "doctor.h"
#include "text.h"

static const struct option_spec doctor_options[] = {
    PROFILE_OPTIONS,
    {"--path", 0, "eager|ge|npugraph_ex", "the program's execution path, for the remedies' APIs (default eager)"},
    {"--limit", 0, "S=cNvM", "the core limits stream S ran under (for a bare CSV; repeatable)"},
};

static const char *const order_names[] = {"", "dependencies", "core limits", "stream limits", "prefetch"};

/* "2=c8v16", "2=v16", "2=c8". */
static bool parse_limit(const char *text, struct stated_limit *l)
{
    const char *s = strchr(text, '=');
    char *end;
    long stream = strtol(text, &end, 10);
    if (s == NULL || end != s || stream < 0)
        return false;
    l->stream = (int)stream;
    l->limit[POOL_CUBE] = l->limit[POOL_VECTOR] = NO_LIMIT;
    for (s++; *s != '\0';) {
        int pool = *s == 'c' ? POOL_CUBE : *s == 'v' ? POOL_VECTOR : -1;
        long v = pool >= 0 ? strtol(s + 1, &end, 10) : -1;
        if (pool < 0 || end == s + 1 || v < 1)
            return false;
        l->limit[pool] = (int)v;
        s = end;
    }
    return l->limit[POOL_CUBE] != NO_LIMIT || l->limit[POOL_VECTOR] != NO_LIMIT;
}

static int parse_doctor_opts(const struct args *a, struct doctor_opts *o, struct stated_limit *limits)
{
    const char *path = args_value(a, "--path");
    const char *const *values;
    int n = args_values(a, "--limit", &values);
    memset(o, 0, sizeof(*o));
    o->path = RP_eager;
    if (path != NULL && !route_path_parse(path, &o->path))
        return usage_error(a->cmd, "--path %s: not a path (%s)", path, route_path_choices());
    o->path_given = path != NULL;
    for (int i = 0; i < n; i++)
        if (!parse_limit(values[i], &limits[i]))
            return usage_error(a->cmd, "--limit %s: expected STREAM=cNvM, STREAM=cN or STREAM=vM", values[i]);
    o->limits = limits;
    o->nlimits = (size_t)n;
    return -1;
}

/* ---- text ---------------------------------------------------------------------------------- */

static void print_overlap(const struct doctor_report *r)
{
    print_structure(&r->structure, r->pairs, r->npairs);
}

static void print_streams(const struct profile *p, const struct doctor_report *r)
{
    text_heading(stdout, "Streams");
    for (size_t i = 0; i < r->nstreams; i++) {
        const struct stream_stat *s = &r->streams[i];
        size_t data = data_tasks(p, s->stream);
        if (s->kernels > 0)
            printf("  stream %-4d %4zu kernel%s, busy %.3f us in [%.3f, %.3f]\n", s->stream, s->kernels,
                   s->kernels == 1 ? "" : "s", s->busy, s->first, s->last);
        else if (data > 0)
            printf("  stream %-4d    0 kernels, %zu cop%s or prefetch%s of %zu tasks\n", s->stream, data,
                   data == 1 ? "y" : "ies", data == 1 ? "" : "es", s->tasks);
    }
}

static void print_route(const struct route *rt, const struct doctor_opts *o)
{
    char name[32], label[40];
    snprintf(name, sizeof(name), "%s:", route_paths[o->path].name);
    snprintf(label, sizeof(label), "%-9s ", name);
    text_wrapped(stdout, 3, "ACL:      ", rt->acl);
    text_wrapped(stdout, 3, label, rt->framework);
    text_wrapped(stdout, 3, "pitfalls: ", rt->pitfalls);
    text_wrapped(stdout, 3, "read:     ", rt->read);
}

static void print_finding(size_t i, const struct finding *f, const struct doctor_opts *o)
{
    printf("\n%s%zu. [%s] %s%s\n", text_warn(), i + 1, f->seed, f->title, text_reset());
    text_wrapped(stdout, 3, "facts:    ", f->facts);
    if (f->cause[0] != '\0')
        text_wrapped(stdout, 3, "cause:    ", f->cause);
    text_wrapped(stdout, 3, "fix:      ", f->remedy);
    printf("   step:     %d of 4 (%s)\n", f->order, order_names[f->order]);
    print_route(route_find(o->path, f->problem), o);
}

static void print_text(const struct profile *p, const struct doctor_opts *o, const struct doctor_report *r)
{
    print_profile_header(p, "doctor");
    printf("  path   %s%s\n", route_paths[o->path].name,
           o->path_given ? "" : " (the default; --path ge|npugraph_ex gives those APIs)");
    print_streams(p, r);
    print_overlap(r);
    if (r->nfindings > 0)
        text_heading(stdout, "Findings, in the order to fix them (dependencies first; only then core limits, "
                             "stream limits, prefetch)");
    for (size_t i = 0; i < r->nfindings; i++)
        print_finding(i, &r->findings[i], o);
    if (r->nnotes > 0)
        text_heading(stdout, "Notes");
    for (size_t i = 0; i < r->nnotes; i++)
        text_wrapped(stdout, 2, "- ", r->notes[i]);
    if (r->nnot_checked > 0)
        text_heading(stdout, "Not checked");
    for (size_t i = 0; i < r->nnot_checked; i++)
        text_wrapped(stdout, 2, "- ", r->not_checked[i]);
    if (r->nfindings > 0)
        printf("\n%sVerdict: %zu finding%s.%s\n", text_bold(), r->nfindings, r->nfindings == 1 ? "" : "s", text_reset());
    else
        printf("\n%sVerdict: no findings%s.%s\n", text_bold(), r->nnot_checked ? " in what could be checked" : "",
               text_reset());
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void write_barrier_json(struct jw *w, const struct barrier *b)
{
    static const char *const kinds[] = {"unknown_no_trace", "op", "dominator_waits", "side_waits", "cores",
                                        "unexplained", "contention"};
    jw_object(w, "barrier");
    jw_str(w, "kind", kinds[b->kind]);
    if (b->op != NULL && b->kind == BARRIER_OP)
        write_task_json(w, "op", b->op);
    else
        jw_null(w, "op");
    if (b->wait != NULL) {
        jw_object(w, "wait");
        jw_int(w, "stream_id", b->wait->stream);
        jw_int(w, "task_id", b->wait->task_id);
        jw_int(w, "event_id", b->wait->event_id);
        jw_int(w, "recorded_on_stream", b->wait->recorded_on);
        jw_us(w, "wait_us", b->wait->wait);
        jw_end(w);
    } else {
        jw_null(w, "wait");
    }
    jw_end(w);
}

static void write_overlap_json(struct jw *w, const struct doctor_report *r)
{
    jw_array(w, "overlap");
    for (size_t i = 0; i < r->npairs; i++) {
        jw_object(w, NULL);
        write_pair_fields_json(w, &r->pairs[i]);
        if (r->pairs[i].verdict != VERDICT_REAL)
            write_barrier_json(w, &r->barriers[i]);
        jw_end(w);
    }
    jw_end(w);
}

static void write_route_json(struct jw *w, const struct route *rt, const struct doctor_opts *o)
{
    jw_object(w, "route");
    jw_str(w, "path", route_paths[o->path].name);
    jw_str(w, "problem", route_problems[rt->problem].name);
    jw_str(w, "acl", rt->acl);
    jw_str(w, "framework", rt->framework);
    jw_str(w, "pitfalls", rt->pitfalls);
    jw_str(w, "read", rt->read);
    jw_end(w);
}

static void write_finding_json(struct jw *w, const struct finding *f, const struct doctor_opts *o)
{
    jw_object(w, NULL);
    jw_str(w, "kind", f->kind);
    jw_str(w, "class", f->seed);
    jw_int(w, "step", f->order);
    jw_str(w, "step_name", order_names[f->order]);
    jw_str(w, "title", f->title);
    jw_array(w, "streams");
    for (int i = 0; i < f->nstreams; i++)
        jw_int(w, NULL, f->streams[i]);
    jw_end(w);
    jw_object(w, "numbers");
    for (int i = 0; i < f->nnumbers; i++)
        jw_fixed(w, f->numbers[i].key, f->numbers[i].value, f->numbers[i].decimals);
    jw_end(w);
    jw_str(w, "facts", f->facts);
    jw_str(w, "cause", f->cause[0] != '\0' ? f->cause : NULL);
    jw_str(w, "fix", f->remedy);
    write_route_json(w, route_find(o->path, f->problem), o);
    jw_end(w);
}

static void write_json(const struct profile *p, const struct doctor_opts *o, const struct doctor_report *r)
{
    struct jw w;
    jw_begin(&w, stdout);
    write_profile_json(&w, p);
    jw_str(&w, "path", route_paths[o->path].name);
    jw_us(&w, "e2e_us", r->totals.e2e);
    jw_us(&w, "computing_us", r->totals.computing);
    jw_us(&w, "free_us", r->totals.free);
    write_overlap_json(&w, r);
    write_structure_json(&w, &r->structure);
    jw_array(&w, "findings");
    for (size_t i = 0; i < r->nfindings; i++)
        write_finding_json(&w, &r->findings[i], o);
    jw_end(&w);
    jw_array(&w, "notes");
    for (size_t i = 0; i < r->nnotes; i++)
        jw_str(&w, NULL, r->notes[i]);
    jw_end(&w);
    jw_array(&w, "not_checked");
    for (size_t i = 0; i < r->nnot_checked; i++)
        jw_str(&w, NULL, r->not_checked[i]);
    jw_end(&w);
    jw_int(&w, "exit_code", r->nfindings > 0 ? EXIT_FINDINGS : EXIT_OK);
    jw_finish(&w);
}

static int run_doctor(const struct args *a)
{
    struct stated_limit limits[MAX_REPEATS];
    struct doctor_opts o;
    struct doctor_report r;
    struct profile p;
    int rc = parse_doctor_opts(a, &o, limits);
    if (rc >= 0 || (rc = load_profile(a, &p, true, STEPS_LAST)) >= 0)
        return rc;
    text_init(stdout);
    doctor_run(&p, &o, &r);
    if (args_flag(a, "--json"))
        write_json(&p, &o, &r);
    else
        print_text(&p, &o, &r);
    rc = r.nfindings > 0 ? EXIT_FINDINGS : EXIT_OK;
    doctor_free(&r);
    profile_free(&p);
    return rc;
}

const struct command cmd_doctor = {
    .name = "doctor",
    .summary = "multi-stream triage: fake parallelism, core contention, tails, limits, join gaps",
    .usage = "<profile dir | kernel_details.csv> [--path eager|ge|npugraph_ex] [--limit S=cNvM]... [--soc NAME] "
             "[--step N] [--main N] [--clock modelled|measured] [--json]",
    .help = "Applies the triage of docs/multistream.md §3.2 to a profile, in the guide's order:\n"
            "  3a  side-stream ops never left the main stream;\n"
            "  3b  fake parallelism: overlap_pct per fork/join episode of the main stream (the one that forks\n"
            "      and joins, from trace_view.json's event edges; --main N names it; a bare CSV falls back\n"
            "      to the busiest stream and says so), and the main-stream op that acts as the barrier;\n"
            "  3c  real overlap without speed-up: core contention (Block Num sums of kernels running at\n"
            "      once against the cores; on an aclcpu profile, of kernels ready at once, from summary.json,\n"
            "      as a kernel that asks for cores in use queues), a batch-mode kernel that cannot start,\n"
            "      a stream with a tail;\n"
            "  and Block Num over the core limit in force, EVENT_WAIT gaps after the join (added up per\n"
            "  pair of streams).\n"
            "Each finding names the kernels and streams and the number behind it, and gives the remedy in\n"
            "the guide's order (fix dependencies first; only then core limits, stream limits, prefetch) with\n"
            "the API for the execution path (aclcpu advise prints the whole table). A multi-step profile is\n"
            "judged on its last step unless --step says otherwise. What the files cannot tell is listed as\n"
            "not checked. Exit 0: no findings, 1: findings, 2: usage or input error.",
    .options = doctor_options,
    .noptions = CLI_ARRAY_SIZE(doctor_options),
    .min_args = 1,
    .max_args = 1,
    .run = run_doctor,
};
