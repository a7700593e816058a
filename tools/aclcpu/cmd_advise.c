/*
 * cmd_advise.c - `aclcpu advise`: the routing table (routes.def) for an
 * execution path and a problem.
 *
 * DESIGN: prints the decision order, then the rows asked for: with
 * --path and --problem one row, with one of them every row that matches,
 * with neither the whole table. The text comes from routes.def only.
 */
#include "cli.h"
#include "jsonw.h"
#include "routes.h"
#include "text.h"

static const struct option_spec advise_options[] = {
    {"--path", 0, "eager|ge|npugraph_ex", "the program's execution path (default: every path)"},
    {"--problem", 0, "NAME", "switch|order|lifetime|tail|limits|prefetch (default: every problem)"},
    {"--json", 0, NULL, "write JSON instead of text"},
};

static void print_route_text(const struct route *r)
{
    const struct route_path_info *path = &route_paths[r->path];
    printf("\n%s%s: %s%s   (--path %s --problem %s)\n", text_bold(), path->title, route_problems[r->problem].title,
           text_reset(), path->name, route_problems[r->problem].name);
    text_wrapped(stdout, 2, "ACL/aclcpu: ", r->acl);
    text_wrapped(stdout, 2, "framework:  ", r->framework);
    text_wrapped(stdout, 2, "when:       ", r->when);
    text_wrapped(stdout, 2, "pitfalls:   ", r->pitfalls);
    text_wrapped(stdout, 2, "read:       ", r->read);
}

static void print_decisions_text(void)
{
    printf("%sThe order of decisions%s (docs/multistream.md §2):\n", text_bold(), text_reset());
    for (size_t i = 0; i < route_ndecisions; i++) {
        char label[8];
        snprintf(label, sizeof(label), "%d. ", route_decisions[i].step);
        text_wrapped(stdout, 2, label, route_decisions[i].text);
    }
}

static void write_route_json(struct jw *w, const struct route *r)
{
    jw_object(w, NULL);
    jw_str(w, "path", route_paths[r->path].name);
    jw_str(w, "path_title", route_paths[r->path].title);
    jw_str(w, "api_family", route_paths[r->path].family);
    jw_str(w, "problem", route_problems[r->problem].name);
    jw_str(w, "problem_title", route_problems[r->problem].title);
    jw_str(w, "acl", r->acl);
    jw_str(w, "framework", r->framework);
    jw_str(w, "when", r->when);
    jw_str(w, "pitfalls", r->pitfalls);
    jw_str(w, "read", r->read);
    jw_end(w);
}

static void write_decisions_json(struct jw *w)
{
    jw_array(w, "decision_order");
    for (size_t i = 0; i < route_ndecisions; i++)
        jw_str(w, NULL, route_decisions[i].text);
    jw_end(w);
}

/* Which paths and problems were asked for: [lo, hi] ranges. */
static int parse_selection(const struct args *a, int range[2][2])
{
    const char *path = args_value(a, "--path"), *problem = args_value(a, "--problem");
    enum route_path rp;
    enum route_problem rq;
    range[0][0] = 0, range[0][1] = ROUTE_PATHS - 1;
    range[1][0] = 0, range[1][1] = ROUTE_PROBLEMS - 1;
    if (path != NULL && !route_path_parse(path, &rp))
        return usage_error(a->cmd, "--path %s: not a path (%s)", path, route_path_choices());
    if (problem != NULL && !route_problem_parse(problem, &rq))
        return usage_error(a->cmd, "--problem %s: not a problem (%s)", problem, route_problem_choices());
    if (path != NULL)
        range[0][0] = range[0][1] = (int)rp;
    if (problem != NULL)
        range[1][0] = range[1][1] = (int)rq;
    return -1;
}

static int run_advise(const struct args *a)
{
    int range[2][2], rc = parse_selection(a, range);
    bool json = args_flag(a, "--json");
    struct jw w;
    if (rc >= 0)
        return rc;
    text_init(stdout);
    if (json) {
        jw_begin(&w, stdout);
        write_decisions_json(&w);
        jw_array(&w, "routes");
    } else {
        print_decisions_text();
    }
    for (int p = range[0][0]; p <= range[0][1]; p++)
        for (int q = range[1][0]; q <= range[1][1]; q++) {
            const struct route *r = route_find((enum route_path)p, (enum route_problem)q);
            if (r != NULL && json)
                write_route_json(&w, r);
            else if (r != NULL)
                print_route_text(r);
        }
    if (json)
        jw_finish(&w);
    return EXIT_OK;
}

const struct command cmd_advise = {
    .name = "advise",
    .summary = "the API routing table: which API for which execution path and problem",
    .usage = "[--path eager|ge|npugraph_ex] [--problem switch|order|lifetime|tail|limits|prefetch] [--json]",
    .help = "Prints the routing table for multi-stream and core-control work on Ascend (docs/multistream.md §2):\n"
            "the decision order, then for each execution path and problem the recommended APIs (the\n"
            "aclcpu/ACL runtime calls and the framework names), when to use them, the pitfalls and what\n"
            "to read. Without --path or --problem it prints every matching row.",
    .options = advise_options,
    .noptions = CLI_ARRAY_SIZE(advise_options),
    .min_args = 0,
    .max_args = 0,
    .run = run_advise,
};
