/*
 * traceview.c - reads trace_view.json (Chrome trace, docs/profile-format.md):
 * the device tasks of every stream, the event
 * edges between streams, and the Overlap Analysis lanes.
 *
 * DESIGN: two passes over the parsed events. The first reads the
 * metadata, to learn which pid is "Ascend Hardware" and which is "Overlap
 * Analysis" (and which thread of it is which lane) rather than trusting
 * fixed numbers; the second turns the "X" events of those processes into
 * tasks and lane intervals, and pairs the "s"/"f" flow events of category
 * "event" by id into edges. ts may be a string (as Ascend and aclcpu write
 * it) or a number; args values may be numbers or numeric strings. What a
 * device task must have (a name, tid, ts, dur) is checked and reported at
 * the event's position; the rest is optional. A task's stream is its args'
 * "Physic Stream Id" (newer Ascend releases), else "Stream Id" (older ones
 * and aclcpu), else its tid; flows carry only a tid, and are put on the
 * stream the tasks of that tid named.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "profile.h"

struct flow {
    char id[64];
    int event_id; /* from the name "Event <id>", -1 */
    int stream;
    int64_t ts_ns;
    bool start;
};

struct tid_stream {
    long tid;
    int stream;
};

struct trace_reader {
    struct profile *p;
    struct json_doc doc;
    double hw_pid, overlap_pid;
    bool have_hw, have_overlap;
    int lane_of_tid[16]; /* Overlap Analysis tid -> lane, -1 unknown */
    struct task *tasks;
    size_t ntasks, tasks_cap;
    struct flow *flows;
    size_t nflows, flows_cap;
    struct interval *lanes[OVERLAP_LANES];
    size_t nlanes[OVERLAP_LANES], lanes_cap[OVERLAP_LANES];
    struct tid_stream *tid_map; /* tids whose tasks name another stream */
    size_t ntid_map, tid_map_cap;
};

const char *const overlap_lane_names[OVERLAP_LANES] = {"Computing", "Communication",
                                                       "Communication(Not Overlapped)", "Free"};

/* ---- small accessors ------------------------------------------------------------ */

static const char *get_str(const struct json *obj, const char *key)
{
    const struct json *v = json_get(obj, key);
    return v != NULL && v->type == JSON_STRING ? v->u.string : NULL;
}

/* A number, or a string holding one. */
static bool get_num(const struct json *obj, const char *key, double *out)
{
    const struct json *v = json_get(obj, key);
    if (v == NULL)
        return false;
    if (v->type == JSON_NUMBER) {
        *out = v->u.number;
        return true;
    }
    return v->type == JSON_STRING && parse_double(v->u.string, out);
}

/* A whole number in [lo, hi] (a number or a numeric string). */
static bool get_int(const struct json *obj, const char *key, double lo, double hi, long *out)
{
    double v;
    if (!get_num(obj, key, &v) || !(v >= lo && v <= hi))
        return false;
    *out = (long)v;
    return true;
}

static bool get_time_ns(const struct json *obj, const char *key, int64_t *ns)
{
    const struct json *v = json_get(obj, key);
    if (v != NULL && v->type == JSON_STRING)
        return parse_us_ns(v->u.string, ns);
    if (v != NULL && v->type == JSON_NUMBER && fabs(v->u.number) < 9e15) {
        *ns = llround(v->u.number * 1000.0);
        return true;
    }
    return false;
}

static bool is_pid(const struct json *ev, double pid)
{
    double v;
    return get_num(ev, "pid", &v) && v == pid;
}

/* ---- pass 1: metadata ----------------------------------------------------------- */

static void note_process(struct trace_reader *r, const struct json *ev)
{
    const char *name = get_str(json_get(ev, "args"), "name");
    double pid;
    if (name == NULL || !get_num(ev, "pid", &pid))
        return;
    if (str_eq(name, "Ascend Hardware") && !r->have_hw) {
        r->hw_pid = pid;
        r->have_hw = true;
    } else if (str_eq(name, "Overlap Analysis") && !r->have_overlap) {
        r->overlap_pid = pid;
        r->have_overlap = true;
    }
}

static void note_lane_thread(struct trace_reader *r, const struct json *ev)
{
    const char *name = get_str(json_get(ev, "args"), "name");
    long tid;
    if (name == NULL || !get_int(ev, "tid", 0, 15, &tid))
        return;
    for (int lane = 0; lane < OVERLAP_LANES; lane++)
        if (str_eq(name, overlap_lane_names[lane]))
            r->lane_of_tid[tid] = lane;
}

static void read_metadata(struct trace_reader *r, const struct json *events)
{
    for (size_t i = 0; i < events->n; i++) {
        const struct json *ev = &events->u.items[i];
        const char *ph = get_str(ev, "ph"), *name = get_str(ev, "name");
        if (ph == NULL || name == NULL || !str_eq(ph, "M"))
            continue;
        if (str_eq(name, "process_name"))
            note_process(r, ev);
    }
    for (size_t i = 0; i < events->n && r->have_overlap; i++) {
        const struct json *ev = &events->u.items[i];
        const char *ph = get_str(ev, "ph"), *name = get_str(ev, "name");
        if (ph != NULL && name != NULL && str_eq(ph, "M") && str_eq(name, "thread_name") && is_pid(ev, r->overlap_pid))
            note_lane_thread(r, ev);
    }
}

/* ---- pass 2: device tasks ---------------------------------------------------------- */

static double rel_us(const struct trace_reader *r, int64_t ns) { return (double)(ns - r->p->origin_ns) / 1000.0; }

/* "c24v48" (the core limits in force at launch). */
static void read_core_limit(const char *text, int limit[POOLS])
{
    unsigned c, v;
    char tail;
    if (text != NULL && sscanf(text, "c%uv%u%c", &c, &v, &tail) == 2) {
        limit[POOL_CUBE] = (int)c;
        limit[POOL_VECTOR] = (int)v;
    }
}

static void read_task_args(struct trace_reader *r, const struct json *args, struct task *t)
{
    long v;
    const char *mode = get_str(args, "Schedule Mode");
    const char *type = get_str(args, "Task Type");
    if (get_int(args, "Task Id", 0, INT_MAX, &v))
        t->task_id = v;
    if (get_int(args, "Physic Stream Id", 0, INT_MAX, &v) || get_int(args, "Stream Id", 0, INT_MAX, &v))
        t->stream = (int)v;
    if (get_int(args, "Block Num", 0, INT_MAX, &v) || get_int(args, "Block Dim", 0, INT_MAX, &v))
        t->blocks = (unsigned)v;
    if (get_int(args, "Mix Block Num", 0, INT_MAX, &v) || get_int(args, "Mix Block Dim", 0, INT_MAX, &v))
        t->mix_blocks = (unsigned)v;
    if (get_int(args, "Event Id", 0, INT_MAX, &v))
        t->event_id = (int)v;
    read_core_limit(get_str(args, "Core Limit"), t->limit);
    t->batch = mode != NULL && str_eq(mode, "batch");
    t->core_name = arena_strdup(&r->p->arena, type != NULL ? type : "");
}

static void note_tid(struct trace_reader *r, long tid, int stream)
{
    for (size_t i = 0; i < r->ntid_map; i++)
        if (r->tid_map[i].tid == tid)
            return;
    *VEC_PUSH(r->tid_map, r->ntid_map, r->tid_map_cap) = (struct tid_stream){tid, stream};
}

static int stream_of_tid(const struct trace_reader *r, int tid)
{
    for (size_t i = 0; i < r->ntid_map; i++)
        if (r->tid_map[i].tid == tid)
            return r->tid_map[i].stream;
    return tid;
}

static bool read_device_task(struct trace_reader *r, const struct json *ev, struct cli_error *err)
{
    struct task t = {.task_id = -1, .step = -1, .event_id = -1, .limit = {NO_LIMIT, NO_LIMIT}};
    const char *name = get_str(ev, "name");
    long tid;
    double dur;
    if (name == NULL)
        return json_err(&r->doc, ev, err, "a device task (\"ph\":\"X\") without a string \"name\"");
    if (!get_int(ev, "tid", 0, INT_MAX, &tid))
        return json_err(&r->doc, ev, err, "device task '%s' has no \"tid\" (the stream id, a whole number >= 0)", name);
    if (!get_time_ns(ev, "ts", &t.start_ns))
        return json_err(&r->doc, ev, err, "device task '%s' has no \"ts\" in us", name);
    if (!get_num(ev, "dur", &dur) || !(dur >= 0 && dur < 1e15))
        return json_err(&r->doc, ev, err, "device task '%s' has no \"dur\" in us", name);
    t.name = arena_strdup(&r->p->arena, name);
    t.stream = (int)tid;
    t.dur = dur;
    t.kind = task_kind_from_name(name);
    read_task_args(r, json_get(ev, "args"), &t);
    if (t.stream != (int)tid)
        note_tid(r, tid, t.stream);
    t.engine = t.kind == TASK_KERNEL ? engine_from_name(t.core_name) : ENG_OTHER;
    *VEC_PUSH(r->tasks, r->ntasks, r->tasks_cap) = t;
    return true;
}

static void read_lane_interval(struct trace_reader *r, const struct json *ev)
{
    long tid;
    double dur;
    int64_t ns;
    struct interval *iv;
    int lane;
    if (!get_int(ev, "tid", 0, 15, &tid) || !get_time_ns(ev, "ts", &ns) || !get_num(ev, "dur", &dur) ||
        !(dur >= 0 && dur < 1e15))
        return;
    lane = r->lane_of_tid[tid] >= 0 ? r->lane_of_tid[tid] : tid < OVERLAP_LANES ? (int)tid : -1;
    if (lane < 0)
        return;
    iv = VEC_PUSH(r->lanes[lane], r->nlanes[lane], r->lanes_cap[lane]);
    iv->start = rel_us(r, ns);
    iv->end = iv->start + dur;
}

/* Flow events of category "event": "s" at a record's end, "f" at the end
 * of the wait it released. */
static void read_flow(struct trace_reader *r, const struct json *ev, bool start)
{
    const struct json *id = json_get(ev, "id");
    const char *cat = get_str(ev, "cat");
    const char *name = get_str(ev, "name");
    struct flow f = {.start = start, .event_id = -1};
    long tid;
    if (cat == NULL || !str_eq(cat, "event") || id == NULL || !get_int(ev, "tid", 0, INT_MAX, &tid) ||
        !get_time_ns(ev, "ts", &f.ts_ns))
        return;
    if (id->type == JSON_STRING)
        snprintf(f.id, sizeof(f.id), "s:%s", id->u.string);
    else if (id->type == JSON_NUMBER)
        snprintf(f.id, sizeof(f.id), "n:%.17g", id->u.number);
    else
        return;
    f.stream = (int)tid;
    if (name != NULL && sscanf(name, "Event %d", &f.event_id) != 1)
        f.event_id = -1;
    *VEC_PUSH(r->flows, r->nflows, r->flows_cap) = f;
}

static bool read_event(struct trace_reader *r, const struct json *ev, struct cli_error *err)
{
    const char *ph = get_str(ev, "ph");
    if (ev->type != JSON_OBJECT)
        return json_err(&r->doc, ev, err, "a trace event must be an object, this is %s", json_type_name(ev->type));
    if (ph == NULL)
        return true;
    if (str_eq(ph, "X") && is_pid(ev, r->hw_pid))
        return read_device_task(r, ev, err);
    if (str_eq(ph, "X") && r->have_overlap && is_pid(ev, r->overlap_pid))
        read_lane_interval(r, ev);
    else if ((str_eq(ph, "s") || str_eq(ph, "f")) && is_pid(ev, r->hw_pid))
        read_flow(r, ev, str_eq(ph, "s"));
    return true;
}

/* ---- pairing and hand-over ------------------------------------------------------------ */

static int flow_order(const void *a, const void *b)
{
    const struct flow *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    if (c != 0)
        return c;
    return (int)y->start - (int)x->start; /* the "s" first */
}

static int edge_order(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->to_stream != y->to_stream)
        return x->to_stream < y->to_stream ? -1 : 1;
    return (x->to_t > y->to_t) - (x->to_t < y->to_t);
}

/* Edges come out ordered by the stream and time of the wait they end at. */
static void pair_flows(struct trace_reader *r)
{
    struct edge *edges = NULL;
    size_t n = 0, cap = 0;
    sort_items(r->flows, r->nflows, sizeof(*r->flows), flow_order);
    for (size_t i = 0; i + 1 < r->nflows; i++) {
        const struct flow *s = &r->flows[i], *f = &r->flows[i + 1];
        if (!s->start || f->start || strcmp(s->id, f->id) != 0)
            continue;
        *VEC_PUSH(edges, n, cap) = (struct edge){s->event_id >= 0 ? s->event_id : f->event_id,
                                                 stream_of_tid(r, s->stream), stream_of_tid(r, f->stream),
                                                 rel_us(r, s->ts_ns), rel_us(r, f->ts_ns)};
        i++;
    }
    sort_items(edges, n, sizeof(*edges), edge_order);
    r->p->edges = arena_memdup(&r->p->arena, edges, n * sizeof(*edges));
    r->p->nedges = n;
    free(edges);
}

static int by_stream_start(const void *a, const void *b)
{
    const struct task *x = a, *y = b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    return (x->task_id > y->task_id) - (x->task_id < y->task_id);
}

static void hand_over(struct trace_reader *r)
{
    struct profile *p = r->p;
    for (size_t i = 0; i < r->ntasks; i++) {
        r->tasks[i].start = rel_us(r, r->tasks[i].start_ns);
        r->tasks[i].end = r->tasks[i].start + r->tasks[i].dur;
    }
    sort_items(r->tasks, r->ntasks, sizeof(*r->tasks), by_stream_start);
    p->tasks = arena_memdup(&p->arena, r->tasks, r->ntasks * sizeof(*r->tasks));
    p->ntasks = r->ntasks;
    pair_flows(r);
    for (int lane = 0; lane < OVERLAP_LANES; lane++) {
        p->overlap[lane] = arena_memdup(&p->arena, r->lanes[lane], r->nlanes[lane] * sizeof(struct interval));
        p->noverlap[lane] = r->nlanes[lane];
        p->has_overlap_lanes = p->has_overlap_lanes || r->nlanes[lane] > 0;
    }
    p->has_trace = true;
}

/* The event array: the document itself, or its "traceEvents". */
static const struct json *event_array(struct trace_reader *r, struct cli_error *err)
{
    const struct json *root = &r->doc.root, *events = root;
    if (root->type == JSON_OBJECT)
        events = json_get(root, "traceEvents");
    if (events == NULL || events->type != JSON_ARRAY) {
        json_err(&r->doc, root, err, "expected an array of trace events (or an object with \"traceEvents\"), found %s",
                 json_type_name(root->type));
        return NULL;
    }
    return events;
}

static bool read_trace(struct trace_reader *r, const char *path, struct cli_error *err)
{
    const struct json *events;
    if (!json_load(&r->doc, path, err) || (events = event_array(r, err)) == NULL)
        return false;
    read_metadata(r, events);
    if (!r->have_hw)
        return json_err(&r->doc, events, err, "no \"Ascend Hardware\" process (process_name metadata): no device tasks");
    for (size_t i = 0; i < events->n; i++)
        if (!read_event(r, &events->u.items[i], err))
            return false;
    hand_over(r);
    return true;
}

bool traceview_load(struct profile *p, const char *path, struct cli_error *err)
{
    struct trace_reader r = {.p = p};
    bool ok;
    for (size_t i = 0; i < CLI_ARRAY_SIZE(r.lane_of_tid); i++)
        r.lane_of_tid[i] = -1;
    ok = read_trace(&r, path, err);
    json_free(&r.doc);
    free(r.tasks);
    free(r.flows);
    free(r.tid_map);
    for (int lane = 0; lane < OVERLAP_LANES; lane++)
        free(r.lanes[lane]);
    return ok;
}
