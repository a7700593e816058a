/*
 * html.c - writes the timeline page.
 *
 * DESIGN: the page is drawn here, as inline SVG, so it needs no script
 * and no network to show: one lane per stream on the modelled clock, each
 * task a rectangle coloured by engine with its facts (Block Num, Mix Block
 * Num, core limit, schedule mode) in a native tooltip (<title>), event
 * edges as arrows from a record's end to the end of the wait it released,
 * and the Overlap Analysis lanes (Computing, Communication, Communication
 * (Not Overlapped), Free) under them. The measured clock, when the profile
 * has it, is a second SVG that a checkbox swaps in by CSS alone. The only
 * script counts what was laid out (lanes, kernels, edges with a non-empty
 * box) into data- attributes of <body>, so a headless browser's DOM dump
 * can tell that the picture was really drawn.
 */
#include "html.h"

#include "common.h"

#include <math.h>
#include <string.h>

#include "analysis.h"

#define LABEL_W 190
#define LANE_H 30
#define LANE_GAP 8
#define OVERLAP_H 16
#define AXIS_H 28
#define PAD 12

struct view {
    FILE *f;
    const struct profile *p;
    struct totals totals;
    int width, height;
    int *streams; /* the lanes' stream ids, ascending */
    size_t nstreams;
    double t0, t1;
};

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

static const char *engine_css(enum engine e)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        if (engine_styles[i].engine == e)
            return engine_styles[i].css;
    return "other";
}

/* ---- geometry ------------------------------------------------------------------------ */

static double x_of(const struct view *v, double t)
{
    double span = v->t1 > v->t0 ? v->t1 - v->t0 : 1.0;
    return LABEL_W + (t - v->t0) / span * (double)v->width;
}

static int lane_index(const struct view *v, int stream)
{
    size_t lo = 0, hi = v->nstreams;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->streams[mid] < stream)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->nstreams && v->streams[lo] == stream ? (int)lo : -1;
}

static double lane_y(int index) { return AXIS_H + PAD + index * (LANE_H + LANE_GAP); }
static double overlap_y(const struct view *v, int lane)
{
    return lane_y((int)v->nstreams) + 10 + lane * (OVERLAP_H + 4);
}

static int int_order(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

/* Every stream id of the kernels and trace tasks, ascending, once each. */
static void plan_view(struct view *v, struct arena *a)
{
    size_t n = 0, kept = 0;
    profile_totals(v->p, &v->totals);
    v->t0 = v->totals.first;
    v->t1 = v->totals.last;
    v->streams = arena_alloc(a, (v->p->nkernels + v->p->ntasks + 1) * sizeof(int));
    for (size_t i = 0; i < v->p->nkernels; i++)
        v->streams[n++] = v->p->kernels[i].stream;
    for (size_t i = 0; i < v->p->ntasks; i++)
        v->streams[n++] = v->p->tasks[i].stream;
    sort_items(v->streams, n, sizeof(int), int_order);
    for (size_t i = 0; i < n; i++)
        if (v->streams[i] >= 0 && (kept == 0 || v->streams[kept - 1] != v->streams[i]))
            v->streams[kept++] = v->streams[i];
    v->nstreams = kept;
    v->height = (int)overlap_y(v, OVERLAP_LANES) + PAD;
}

/* A round tick step giving about `want` ticks over span. */
static double tick_step(double span, int want)
{
    double raw = span / want, mag = pow(10, floor(log10(raw > 0 ? raw : 1)));
    double steps[] = {1, 2, 5, 10};
    for (size_t i = 0; i < CLI_ARRAY_SIZE(steps); i++)
        if (raw <= steps[i] * mag)
            return steps[i] * mag;
    return 10 * mag;
}

/* ---- drawing --------------------------------------------------------------------------- */

static void draw_axis(const struct view *v)
{
    double step = tick_step(v->t1 - v->t0, 10);
    double first = ceil(v->t0 / step) * step;
    fprintf(v->f, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>\n", LABEL_W,
            AXIS_H, LABEL_W + v->width, AXIS_H);
    for (double t = first; t <= v->t1 + step * 1e-9; t += step) {
        double x = x_of(v, t);
        fprintf(v->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#999\"/>", x, AXIS_H - 5, x, AXIS_H);
        fprintf(v->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>", x, AXIS_H, x, v->height - PAD);
        fprintf(v->f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, AXIS_H - 9, t);
    }
    fprintf(v->f, "<text x=\"%d\" y=\"%d\">time (us)</text></g>\n", 4, AXIS_H - 9);
}

static void task_tooltip(FILE *f, const struct task *t)
{
    fputs("<title>", f);
    escape(f, t->name);
    fprintf(f, "\nstream %d", t->stream);
    if (t->task_id >= 0)
        fprintf(f, ", task %ld", t->task_id);
    if (t->kind == TASK_KERNEL) {
        fputs(" · ", f);
        escape(f, t->core_name[0] != '\0' ? t->core_name : engine_label(t->engine));
        fprintf(f, "\nBlock Num %u · Mix Block Num %u", t->blocks, t->mix_blocks);
        if (t->limit[POOL_CUBE] != NO_LIMIT)
            fprintf(f, "\ncore limit c%dv%d · %s mode", t->limit[POOL_CUBE], t->limit[POOL_VECTOR],
                    t->batch ? "batch" : "normal");
    } else if (t->event_id >= 0) {
        fprintf(f, " · event %d", t->event_id);
    }
    fprintf(f, "\nstart %.3f us · %.3f us</title>", t->start, t->dur);
}

static void draw_label(const struct view *v, const struct task *t, double x, double y, double w)
{
    size_t fit = (size_t)(w / 6.5), len = strlen(t->name);
    if (fit < 4)
        return;
    fprintf(v->f, "<text class=\"klabel\" x=\"%.1f\" y=\"%.1f\">", x + 3, y + LANE_H / 2.0 + 4);
    if (len <= fit) {
        escape(v->f, t->name);
    } else {
        char buf[256];
        snprintf(buf, sizeof(buf), "%.*s…", (int)(fit - 1 < sizeof(buf) - 4 ? fit - 1 : sizeof(buf) - 4), t->name);
        escape(v->f, buf);
    }
    fputs("</text>", v->f);
}

static void draw_task(const struct view *v, const struct task *t, double y)
{
    double x = x_of(v, t->start), w = x_of(v, t->end) - x;
    w = w < 1.0 ? 1.0 : w;
    if (t->kind == TASK_KERNEL) {
        fprintf(v->f, "<rect class=\"kernel %s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\">",
                engine_css(t->engine), x, y, w, LANE_H);
        task_tooltip(v->f, t);
        fputs("</rect>", v->f);
        draw_label(v, t, x, y, w);
    } else {
        fprintf(v->f, "<rect class=\"task%s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\">",
                task_is_wait(t) ? " wait" : "", x, y + LANE_H * 0.55, w, (int)(LANE_H * 0.45));
        task_tooltip(v->f, t);
        fputs("</rect>", v->f);
    }
    fputc('\n', v->f);
}

static void draw_lane(const struct view *v, int index)
{
    int stream = v->streams[index];
    double y = lane_y(index);
    const struct task *t = v->p->has_trace ? v->p->tasks : v->p->kernels;
    size_t n = v->p->has_trace ? v->p->ntasks : v->p->nkernels;
    fprintf(v->f, "<g class=\"lane\" data-stream=\"%d\"><rect class=\"lane-bg\" x=\"%d\" y=\"%.1f\" width=\"%d\" "
            "height=\"%d\"/><text x=\"%d\" y=\"%.1f\">Stream %d</text>\n",
            stream, LABEL_W, y, v->width, LANE_H, 8, y + LANE_H / 2.0 + 4, stream);
    for (size_t i = 0; i < n; i++)
        if (t[i].stream == stream)
            draw_task(v, &t[i], y);
    fputs("</g>\n", v->f);
}

static void draw_edges(const struct view *v, const char *clock)
{
    fputs("<g class=\"edges\">\n", v->f);
    for (size_t i = 0; i < v->p->nedges; i++) {
        const struct edge *e = &v->p->edges[i];
        int from = lane_index(v, e->from_stream), to = lane_index(v, e->to_stream);
        if (from < 0 || to < 0)
            continue;
        fprintf(v->f, "<line class=\"edge\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
                "marker-end=\"url(#arrow-%s)\"><title>Event %d: stream %d (record ends %.3f us) to stream %d "
                "(wait ends %.3f us)</title></line>\n",
                x_of(v, e->from_t), lane_y(from) + LANE_H / 2.0, x_of(v, e->to_t), lane_y(to) + LANE_H / 2.0, clock,
                e->event_id, e->from_stream, e->from_t, e->to_stream, e->to_t);
    }
    fputs("</g>\n", v->f);
}

static void draw_intervals(const struct view *v, int lane, const struct interval *iv, size_t n)
{
    double y = overlap_y(v, lane);
    fprintf(v->f, "<g class=\"overlap-lane\" data-lane=\"%s\"><text x=\"8\" y=\"%.1f\" class=\"olabel\">%s</text>",
            overlap_lane_names[lane], y + OVERLAP_H - 4, overlap_lane_names[lane]);
    fprintf(v->f, "<rect class=\"lane-bg\" x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\"/>", LABEL_W, y, v->width,
            OVERLAP_H);
    for (size_t i = 0; i < n; i++) {
        double x = x_of(v, iv[i].start), w = x_of(v, iv[i].end) - x;
        fprintf(v->f, "<rect class=\"ov\" fill=\"%s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\"><title>%s "
                "[%.3f, %.3f] %.3f us</title></rect>", lane_colours[lane], x, y, w < 1 ? 1 : w, OVERLAP_H,
                overlap_lane_names[lane], iv[i].start, iv[i].end, iv[i].end - iv[i].start);
    }
    fputs("</g>\n", v->f);
}

/* The lanes as trace_view.json has them, else Computing and Free computed
 * the same way (Communication is empty: no collectives in the rows). */
static void draw_overlap(const struct view *v)
{
    struct arena a = {0};
    struct interval *comp, *free_iv;
    size_t n, nfree = 0;
    double cursor = v->totals.first;
    if (v->p->has_overlap_lanes) {
        for (int lane = 0; lane < OVERLAP_LANES; lane++)
            draw_intervals(v, lane, v->p->overlap[lane], v->p->noverlap[lane]);
        return;
    }
    n = computing_intervals(v->p, &a, &comp);
    free_iv = arena_alloc(&a, (n + 1) * sizeof(*free_iv));
    for (size_t i = 0; i <= n; i++) {
        double until = i < n ? comp[i].start : v->totals.last;
        if (until > cursor)
            free_iv[nfree++] = (struct interval){cursor, until};
        cursor = i < n && comp[i].end > cursor ? comp[i].end : cursor;
    }
    draw_intervals(v, LANE_COMPUTING, comp, n);
    draw_intervals(v, LANE_COMMUNICATION, NULL, 0);
    draw_intervals(v, LANE_COMM_NOT_OVERLAPPED, NULL, 0);
    draw_intervals(v, LANE_FREE, free_iv, nfree);
    arena_free(&a);
}

/* The main stream and overlap_pct of each pair (docs/multistream.md §3),
 * under the facts: the verdict doctor and summary give (analysis.c's
 * profile_structure and stream_pairs). */
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
    for (size_t i = 0; i < np; i++) {
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
    if (np > 0)
        fputs(" · aclcpu doctor explains it</div>\n", f);
    arena_free(&a);
}

/* clock: "modelled" or "measured" (the CSS class); label: what to call it. */
static void draw_view(FILE *f, const struct profile *p, int width, const char *clock, const char *label)
{
    struct view v = {.f = f, .p = p, .width = width};
    struct arena a = {0};
    plan_view(&v, &a);
    fprintf(f, "<div class=\"%s\"><div class=\"facts\">%s: E2E %.3f us, Computing %.3f us, Free %.3f us, "
            "%zu kernels on %zu streams</div>\n", clock, label, v.totals.e2e, v.totals.computing, v.totals.free,
            p->nkernels, v.nstreams);
    write_pairs(f, p);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" data-clock=\"%s\">\n",
            LABEL_W + width + PAD, v.height, clock);
    fprintf(f, "<defs><marker id=\"arrow-%s\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
            "markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/></marker>"
            "</defs>\n", clock);
    draw_axis(&v);
    for (size_t i = 0; i < v.nstreams; i++)
        draw_lane(&v, (int)i);
    draw_edges(&v, clock);
    fprintf(f, "<text x=\"8\" y=\"%.1f\" class=\"section\">Overlap Analysis</text>\n", overlap_y(&v, 0) - 2);
    draw_overlap(&v);
    fputs("</svg></div>\n", f);
    arena_free(&a);
}

/* ---- the page ------------------------------------------------------------------------------ */

static const char page_style[] =
    "body{font:13px system-ui,-apple-system,'Segoe UI',sans-serif;margin:16px;color:#222;background:#fff}\n"
    "h1{font-size:18px;margin:0 0 4px}.facts{color:#444;margin:6px 0}.legend span{display:inline-block;"
    "margin-right:14px}\n.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
    "vertical-align:-2px;border-radius:2px}\nsvg text{font-size:11px;fill:#333}svg .klabel{fill:#fff;"
    "pointer-events:none}svg .section{font-weight:600}svg .olabel{font-size:10px}\n"
    ".lane-bg{fill:#f3f4f6}.grid{stroke:#e5e7eb}.task{fill:#b0b0b0}.task.wait{fill:#e3e3e3;stroke:#8a8a8a;"
    "stroke-dasharray:2 2}\n.edge{stroke:#222;stroke-width:1.3}.kernel:hover,.task:hover{stroke:#000;"
    "stroke-width:1.5}\n#clock:checked~.views .modelled{display:none}#clock:not(:checked)~.views .measured"
    "{display:none}\n";

static void write_engine_css(FILE *f)
{
    fputs("<style>\n", f);
    fputs(page_style, f);
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        fprintf(f, ".kernel.%s{fill:%s}", engine_styles[i].css, engine_styles[i].colour);
    fputs("\n</style>\n", f);
}

static void write_legend(FILE *f)
{
    fputs("<div class=\"legend\">", f);
    for (size_t i = 0; i < CLI_ARRAY_SIZE(engine_styles); i++)
        fprintf(f, "<span><i style=\"background:%s\"></i>%s</span>", engine_styles[i].colour, engine_styles[i].label);
    fputs("<span><i style=\"background:#b0b0b0\"></i>event / copy task</span><span><i style=\"background:#e3e3e3;"
          "border:1px dashed #8a8a8a\"></i>wait</span><span>&#8594; event edge (record to wait)</span></div>\n", f);
}

static const char page_script[] =
    "<script>\n(function(){var svg=document.querySelector('.modelled svg');\n"
    "function drawn(sel){var n=0;svg.querySelectorAll(sel).forEach(function(e){var b=e.getBBox();"
    "if(b.width>0||b.height>0)n++;});return n;}\n"
    "var d=document.body.dataset;d.lanes=drawn('g.lane>rect.lane-bg');d.kernels=drawn('rect.kernel');"
    "d.edges=drawn('line.edge');d.overlapLanes=drawn('g.overlap-lane>rect.lane-bg');})();\n</script>\n";

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

void html_timeline(FILE *f, const struct timeline_page *page)
{
    const struct profile *p = page->modelled;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>aclcpu timeline: ", f);
    escape(f, page->title);
    fputs("</title>\n", f);
    write_engine_css(f);
    fputs("</head><body>\n<h1>aclcpu timeline</h1>\n<div class=\"facts\">", f);
    escape(f, page->title);
    fprintf(f, " · SoC %s (%u cube / %u vector cores, %s)</div>\n", p->soc.name, p->soc.cores[POOL_CUBE],
            p->soc.cores[POOL_VECTOR], p->soc.source);
    write_measured(f, p);
    write_legend(f);
    fprintf(f, "<input type=\"checkbox\" id=\"clock\"%s><label for=\"clock\"> measured clock%s</label>\n",
            page->measured ? "" : " disabled", page->measured ? " (what this CPU really took)" : ": not in this profile");
    fputs("<div class=\"views\">\n", f);
    draw_view(f, p, page->width, "modelled", page->from_file ? "the file's clock" : "modelled clock");
    if (page->measured != NULL)
        draw_view(f, page->measured, page->width, "measured", "measured clock");
    fputs("</div>\n", f);
    fputs(page_script, f);
    fputs("</body></html>\n", f);
}
