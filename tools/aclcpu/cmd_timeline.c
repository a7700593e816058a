/*
 * cmd_timeline.c - `aclcpu timeline`: writes the timeline page of a profile
 * (html.c): one lane per stream on the modelled clock, the measured clock on
 * a toggle, kernels coloured by engine, event edges, cores in use against
 * the SoC's cores, fork/join episodes, Overlap Analysis; zoom, pan and a
 * step selector on the page.
 *
 * DESIGN: loads the modelled files and, when the directory has them, the
 * measured ones (a bad measured file is an input error like any other); a
 * bare kernel_details.csv is drawn on its own clock. Prints one line saying
 * what it wrote (or --json with the counts).
 */
#include <string.h>

#include "analysis.h"
#include "common.h"
#include "html.h"
#include "text.h"

#define DEFAULT_WIDTH 1200

static const struct option_spec timeline_options[] = {
    {"--output", 'o', "FILE", "the page to write (default timeline.html)"},
    {"--width", 0, "PX", "drawing width in pixels (default 1200)"},
    {"--soc", 0, "NAME", "the SoC named on the page (default: summary.json's, else ACLCPU_SOC's)"},
    {"--step", 0, "N", "draw only the kernels of Step Id N"},
    {"--json", 0, NULL, "say what was written as JSON"},
};

/* Loads the measured files next to the modelled ones, if there are any. */
static int load_measured(const struct args *a, const struct profile *modelled, struct profile *m, bool *have)
{
    char csv[PATH_MAX];
    struct load_opts opts = {CLOCK_MEASURED, args_value(a, "--soc"), true};
    struct cli_error err;
    const char *step = args_value(a, "--step");
    *have = false;
    if (!path_is_dir(modelled->root) || !path_join(csv, sizeof(csv), modelled->root, "kernel_details_measured.csv") ||
        !path_is_file(csv))
        return -1;
    if (!profile_load(m, modelled->root, &opts, &err))
        return input_error(a->cmd, &err);
    if (step != NULL && !profile_select_step(m, modelled->step, &err)) {
        profile_free(m);
        return input_error(a->cmd, &err);
    }
    *have = true;
    return -1;
}

static void report(const struct args *a, const char *out, struct profile *p, bool measured)
{
    struct stream_stat *st;
    size_t nst = stream_stats(p, &p->arena, &st), streams = 0;
    for (size_t i = 0; i < nst; i++)
        streams += st[i].kernels > 0;
    if (args_flag(a, "--json")) {
        struct jw w;
        jw_begin(&w, stdout);
        jw_str(&w, "output", out);
        write_profile_json(&w, p);
        jw_int(&w, "streams_with_kernels", (long long)streams);
        jw_int(&w, "kernels", (long long)p->nkernels);
        jw_int(&w, "event_edges", (long long)p->nedges);
        jw_bool(&w, "measured_clock", measured);
        write_measured_json(&w, p);
        jw_finish(&w);
        return;
    }
    printf("wrote %s: %zu kernels on %zu streams, %zu event edges, %s\n", out, p->nkernels, streams,
           p->nedges, measured ? "the measured clock on the toggle" : "no measured clock in this profile");
    for (size_t i = 0; i < p->nmeasured; i++) {
        char line[512];
        describe_measured(&p->measured[i], line, sizeof(line));
        printf("  modelled from measured CPU time (no declared cost): %s\n", line);
    }
}

static int write_page(const struct args *a, const char *out, struct profile *p, struct profile *m, int width)
{
    struct timeline_page page = {a->positional[0], {p, NULL, 0}, {m, NULL, 0}, width, !path_is_dir(p->root)};
    struct timeline_episode *ep;
    struct arena arena = {0};
    FILE *f;
    /* The episodes doctor judges, on each clock. */
    page.modelled.nepisodes = timeline_episodes_of(p, &arena, &ep);
    page.modelled.episodes = ep;
    if (m != NULL) {
        page.measured.nepisodes = timeline_episodes_of(m, &arena, &ep);
        page.measured.episodes = ep;
    }
    f = fopen(out, "w");
    if (f == NULL) {
        arena_free(&arena);
        struct cli_error err;
        err_at(&err, out, 0, 0, "cannot write the page");
        return input_error(a->cmd, &err);
    }
    html_timeline(f, &page);
    arena_free(&arena);
    if (fclose(f) != 0) {
        struct cli_error err;
        err_at(&err, out, 0, 0, "write error");
        return input_error(a->cmd, &err);
    }
    report(a, out, p, m != NULL);
    return EXIT_OK;
}

static int run_timeline(const struct args *a)
{
    const char *out = args_value(a, "--output"), *width = args_value(a, "--width");
    struct profile p, m;
    bool have_measured;
    long w = DEFAULT_WIDTH;
    int rc;
    if (width != NULL && (!parse_long(width, &w) || w < 200 || w > 20000))
        return usage_error(a->cmd, "--width %s: a number of pixels from 200 to 20000", width);
    if ((rc = load_profile(a, &p, true, STEPS_ALL)) >= 0)
        return rc;
    if ((rc = load_measured(a, &p, &m, &have_measured)) < 0)
        rc = write_page(a, out != NULL ? out : "timeline.html", &p, have_measured ? &m : NULL, (int)w);
    if (have_measured)
        profile_free(&m);
    profile_free(&p);
    return rc;
}

const struct command cmd_timeline = {
    .name = "timeline",
    .summary = "a self-contained HTML picture of a profile: streams, kernels, event edges",
    .usage = "<profile dir | kernel_details.csv> [-o timeline.html] [--width PX] [--soc NAME] [--step N] [--main N] [--json]",
    .help = "Writes one self-contained HTML page (a canvas drawn by its own script from compact data, no\n"
            "network) showing one lane per stream, none left out, on the modelled clock (the measured clock\n"
            "on a toggle, when the profile has it), each kernel coloured by engine with its Block Num, Mix\n"
            "Block Num, core limit and schedule mode in the tooltip, event edges as arrows from a record to\n"
            "the wait it released, the fork/join episodes with their verdict, a cores-in-use lane per core\n"
            "pool against the SoC's cores (contention in red), and the Overlap Analysis lanes. Wheel or +/-\n"
            "zoom, drag or the arrows pan, 0 resets, a selector shows one step. Kernels closer than a pixel\n"
            "are drawn as one mark, so profiles of hundreds of thousands of kernels open quickly.",
    .options = timeline_options,
    .noptions = CLI_ARRAY_SIZE(timeline_options),
    .min_args = 1,
    .max_args = 1,
    .run = run_timeline,
};
