/*
 * profwrite.c - the files of a profile: kernel_details.csv,
 * trace_view.json and step_trace_time.csv, on the modelled clock and
 * (the *_measured twins) on the measured one, op_statistic.csv and, beside
 * ASCEND_PROFILER_OUTPUT, profiler_info_0.json (what Ascend's analysis
 * tools look for); summary.json comes from profsummary.c. Formats:
 * docs/profile-format.md.
 *
 * DESIGN: a view (profview.h) puts the entries in an order that depends on
 * the program only (device, stream and task numbers; host thread and
 * order), never on entry ids, so a modelled file is byte-identical from
 * run to run. Every number is printed with a fixed precision.
 *
 * Threads: the thread that stops the profile, alone. No locks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "profview.h"

/* ---- the view ---------------------------------------------------------------------------- */

static bool device_entry(const struct prof_entry *e) { return e->stream_id >= 0 && !e->dropped; }
static bool host_entry(const struct prof_entry *e)
{
    return e->kind == PK_HOST_SYNC || e->kind == PK_HOST_MARK || e->kind == PK_HOST_RANGE;
}

static uint64_t device_key(const struct prof_entry *e)
{
    return ((uint64_t)(uint32_t)e->device << 56) | ((uint64_t)(uint32_t)e->stream_id << 32) | e->task_id;
}

static int cmp_device(const void *a, const void *b)
{
    uint64_t x = device_key(prof_entry(*(const uint32_t *)a)), y = device_key(prof_entry(*(const uint32_t *)b));
    return x < y ? -1 : x > y;
}

/* Host entries: by thread, then in the order the thread made them (ids
 * grow in that order within one thread). */
static int cmp_host(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t ti = prof_entry(i)->host_thread, tj = prof_entry(j)->host_thread;
    return ti != tj ? (ti < tj ? -1 : 1) : (i < j ? -1 : i > j);
}

static uint64_t first_ns(void)
{
    uint64_t t0 = UINT64_MAX;
    for (uint32_t id = 1; id <= prof_count(); id++) {
        const struct prof_entry *e = prof_entry(id);
        if (e->issue_ns != 0 && e->issue_ns < t0)
            t0 = e->issue_ns;
        if (e->start_ns != 0 && e->start_ns < t0)
            t0 = e->start_ns;
    }
    return t0 == UINT64_MAX ? 0 : t0;
}

struct step {
    double start, end; /* first: sorted as pairs of doubles */
    uint64_t index;
};

static int cmp_step(const void *a, const void *b)
{
    const struct step *x = a, *y = b;
    return x->start != y->start ? (x->start < y->start ? -1 : 1) : (x->index < y->index ? -1 : x->index > y->index);
}

/* Steps: a START and an END entry each (gen = the step info's index),
 * numbered 1, 2, ... in the order they started; a step that never ended
 * lasts no time. step_start holds (start, end) pairs. */
static void find_steps(struct prof_view *v)
{
    struct step *st;
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->ndev; i++)
        n += prof_entry(v->dev[i])->kind == PK_STEP_START;
    if (n == 0 || (st = acl_calloc(n, sizeof(*st))) == NULL)
        return;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        if (e->kind == PK_STEP_START)
            st[v->nsteps++] = (struct step){pv_start(v, e), pv_start(v, e), e->gen};
    }
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        for (uint32_t k = 0; e->kind == PK_STEP_END && k < v->nsteps; k++)
            if (st[k].index == e->gen && pv_end(v, e) >= st[k].start)
                st[k].end = pv_end(v, e);
    }
    qsort(st, v->nsteps, sizeof(*st), cmp_step);
    v->step_start = acl_calloc(v->nsteps, 2 * sizeof(double));
    for (uint32_t k = 0; v->step_start != NULL && k < v->nsteps; k++) {
        v->step_start[2 * k] = st[k].start;
        v->step_start[2 * k + 1] = st[k].end;
    }
    if (v->step_start == NULL)
        v->nsteps = 0;
    acl_free(st);
}

bool pv_build(struct prof_view *v, bool modelled)
{
    uint32_t n = prof_count();
    memset(v, 0, sizeof(*v));
    v->modelled = modelled;
    v->t0_ns = first_ns();
    v->dev = acl_malloc((n + 1) * sizeof(*v->dev));
    v->host = acl_malloc((n + 1) * sizeof(*v->host));
    v->conn = acl_calloc(n + 1, sizeof(*v->conn));
    if (v->dev == NULL || v->host == NULL || v->conn == NULL)
        return false;
    for (uint32_t id = 1; id <= n; id++) {
        if (device_entry(prof_entry(id)))
            v->dev[v->ndev++] = id;
        else if (host_entry(prof_entry(id)))
            v->host[v->nhost++] = id;
    }
    qsort(v->dev, v->ndev, sizeof(*v->dev), cmp_device);
    qsort(v->host, v->nhost, sizeof(*v->host), cmp_host);
    for (uint32_t i = 0; i < v->ndev; i++)
        v->conn[v->dev[i]] = i + 1;
    find_steps(v);
    return true;
}

void pv_free(struct prof_view *v)
{
    acl_free(v->dev);
    acl_free(v->host);
    acl_free(v->conn);
    acl_free(v->step_start);
}

static double ns_us(const struct prof_view *v, uint64_t ns) { return ns > v->t0_ns ? (double)(ns - v->t0_ns) / 1e3 : 0; }

double pv_start(const struct prof_view *v, const struct prof_entry *e)
{
    return v->modelled ? e->m_start : ns_us(v, e->start_ns);
}

double pv_end(const struct prof_view *v, const struct prof_entry *e)
{
    if (v->modelled)
        return e->m_end;
    return e->end_ns >= e->start_ns ? ns_us(v, e->end_ns) : ns_us(v, e->start_ns);
}

double pv_issue(const struct prof_view *v, const struct prof_entry *e)
{
    return v->modelled ? e->m_host : ns_us(v, e->issue_ns);
}

uint32_t pv_step_of(const struct prof_view *v, double start)
{
    uint32_t step = 0;
    for (uint32_t i = 0; i < v->nsteps; i++)
        if (start >= v->step_start[2 * i] && start <= v->step_start[2 * i + 1])
            step = i + 1; /* the latest step holding it */
    return step;
}

/* ---- names ------------------------------------------------------------------------------------ */

const char *pv_core_type(const struct prof_entry *e)
{
    bool cube = e->engine == ACL_RT_ENGINE_TYPE_AIC;
    if (e->mix)
        return cube ? "MIX_AIC" : "MIX_AIV";
    return cube ? "AI_CORE" : "AI_VECTOR_CORE";
}

uint32_t pv_mix_blocks(const struct prof_entry *e)
{
    if (!e->mix)
        return 0;
    return e->engine == ACL_RT_ENGINE_TYPE_AIC ? 2 * e->blocks : (e->blocks + 1) / 2;
}

void pv_demand(const struct prof_entry *e, uint32_t *cube, uint32_t *vector)
{
    bool aic = e->engine == ACL_RT_ENGINE_TYPE_AIC;
    *cube = aic ? e->blocks : e->mix ? pv_mix_blocks(e) : 0;
    *vector = aic ? pv_mix_blocks(e) : e->blocks;
}

const char *pv_task_name(const struct prof_entry *e)
{
    static const char *const cmo[] = {"CMO_PREFETCH", "CMO_WRITEBACK", "CMO_INVALID", "CMO_FLUSH"};
    switch (e->kind) {
    case PK_KERNEL: return e->name != NULL ? e->name : "kernel";
    case PK_COPY: return "MEMCPY_ASYNC";
    case PK_SET: return "MEMSET_ASYNC";
    case PK_HOST_FUNC: return "HOST_FUNC";
    case PK_CALLBACK: return "CALLBACK";
    case PK_EVENT_RECORD: return "EVENT_RECORD";
    case PK_EVENT_WAIT: return "EVENT_WAIT";
    case PK_EVENT_RESET: return "EVENT_RESET";
    case PK_NOTIFY_RECORD: return "NOTIFY_RECORD";
    case PK_NOTIFY_WAIT: return "NOTIFY_WAIT";
    case PK_ACTIVE: return "STREAM_ACTIVE";
    case PK_SWITCH: return "STREAM_SWITCH";
    case PK_MODEL_END: return "MODEL_END";
    case PK_RUN_BEGIN: return "MODEL_RUN";
    case PK_RUN_END: return "MODEL_RUN_END";
    case PK_CMO: return e->cmo_type < 4 ? cmo[e->cmo_type] : "CMO";
    case PK_MARK: return e->name != NULL ? e->name : "MARK";
    case PK_STEP_START: return "STEP_START";
    case PK_STEP_END: return "STEP_END";
    default: return "TASK";
    }
}

/* ---- intervals ---------------------------------------------------------------------------------- */

struct span {
    double s, e;
};

static int cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return x->s != y->s ? (x->s < y->s ? -1 : 1) : (x->e < y->e ? -1 : x->e > y->e);
}

double pv_union(const double *s, const double *e, uint32_t n, double lo, double hi)
{
    struct span *sp = acl_malloc((n + 1) * sizeof(*sp));
    double total = 0, cs = 0, ce = -1;
    uint32_t m = 0;
    if (sp == NULL)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        double a = s[i] > lo ? s[i] : lo, b = e[i] < hi ? e[i] : hi;
        if (b > a)
            sp[m++] = (struct span){a, b};
    }
    qsort(sp, m, sizeof(*sp), cmp_span);
    for (uint32_t i = 0; i < m; i++) {
        if (sp[i].s > ce) {
            total += ce > cs ? ce - cs : 0;
            cs = sp[i].s;
            ce = sp[i].e;
        } else if (sp[i].e > ce) {
            ce = sp[i].e;
        }
    }
    total += ce > cs ? ce - cs : 0;
    acl_free(sp);
    return total;
}

/* The kernels' intervals on v's clock (caller frees *s). */
static uint32_t kernel_spans(const struct prof_view *v, double **s, double **e)
{
    uint32_t n = 0;
    *s = acl_malloc((v->ndev + 1) * 2 * sizeof(double));
    if (*s == NULL)
        return 0;
    *e = *s + v->ndev + 1;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *k = prof_entry(v->dev[i]);
        if (k->kind != PK_KERNEL)
            continue;
        (*s)[n] = pv_start(v, k);
        (*e)[n++] = pv_end(v, k);
    }
    return n;
}

/* [first task start, last task end] of the device entries. */
static void device_span(const struct prof_view *v, double *lo, double *hi)
{
    *lo = v->ndev > 0 ? 1e300 : 0;
    *hi = 0;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        if (pv_start(v, e) < *lo)
            *lo = pv_start(v, e);
        if (pv_end(v, e) > *hi)
            *hi = pv_end(v, e);
    }
}


/* ---- lines ----------------------------------------------------------------------------------------------- */

/* A line built in memory and written at once: printf's parsing and its
 * exact float conversion cost most of a profile's stop, at several events
 * per task. Numbers are printed with fixed precision by hand. */
struct line {
    char b[1024];
    size_t n;
};

static void l_mem(struct line *l, const char *s, size_t len)
{
    if (len > sizeof(l->b) - l->n)
        len = sizeof(l->b) - l->n;
    memcpy(l->b + l->n, s, len);
    l->n += len;
}

static void l_s(struct line *l, const char *s) { l_mem(l, s, strlen(s)); }

static void l_u(struct line *l, uint64_t v)
{
    char d[24];
    int i = (int)sizeof(d);
    do
        d[--i] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    l_mem(l, d + i, sizeof(d) - (size_t)i);
}

static void l_i(struct line *l, int64_t v)
{
    if (v < 0) {
        l_mem(l, "-", 1);
        l_u(l, (uint64_t)0 - (uint64_t)v);
    } else {
        l_u(l, (uint64_t)v);
    }
}

/* v with three decimals, rounded to the nearest thousandth. */
static void l_f3(struct line *l, double v)
{
    char frac[4];
    int64_t m;
    if (!(v == v) || v > 9e15 || v < -9e15)
        v = 0; /* NaN or absurd: not a time */
    m = (int64_t)(v * 1000.0 + (v < 0 ? -0.5 : 0.5));
    if (m < 0) {
        l_mem(l, "-", 1);
        m = -m;
    }
    l_u(l, (uint64_t)(m / 1000));
    frac[0] = '.';
    frac[1] = (char)('0' + m / 100 % 10);
    frac[2] = (char)('0' + m / 10 % 10);
    frac[3] = (char)('0' + m % 10);
    l_mem(l, frac, 4);
}

const char *pv_f3(double v)
{
    static char bufs[16][32];
    static unsigned next;
    struct line l = {.n = 0};
    char *out = bufs[next++ % 16];
    l_f3(&l, v);
    memcpy(out, l.b, l.n);
    out[l.n] = '\0';
    return out;
}

static void l_json(struct line *l, const char *s)
{
    l_mem(l, "\"", 1);
    for (; s != NULL && *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            l_mem(l, esc, 2);
        } else if (c < 0x20) {
            char u[7];
            snprintf(u, sizeof(u), "\\u%04x", c);
            l_mem(l, u, 6);
        } else {
            l_mem(l, s, 1);
        }
    }
    l_mem(l, "\"", 1);
}

/* A CSV field: no commas, quotes or line breaks. */
static void l_csv(struct line *l, const char *s)
{
    for (; s != NULL && *s != '\0'; s++)
        l_mem(l, *s == ',' || *s == '"' || *s == '\n' || *s == '\r' ? "_" : s, 1);
}

static void l_out(struct line *l, FILE *f)
{
    fwrite(l->b, 1, l->n, f);
    l->n = 0;
}

void pv_json_string(FILE *f, const char *s)
{
    struct line l = {.n = 0};
    l_json(&l, s);
    l_out(&l, f);
}

/* ---- kernel_details.csv ----------------------------------------------------------------------------- */

struct row {
    uint32_t id;
    double start;
};

static int cmp_row(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    uint64_t kx, ky;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    kx = device_key(prof_entry(x->id));
    ky = device_key(prof_entry(y->id));
    return kx < ky ? -1 : kx > ky;
}

static void kernel_header(FILE *f, const struct prof_view *v, bool block_dim)
{
    if (v->nsteps > 0)
        fputs("Step Id,", f);
    fprintf(f, "Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
               "Duration(us),Wait Time(us),%s,%s,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
               "Output Shapes,Output Data Types,Output Formats,Context ID\n",
            block_dim ? "Block Dim" : "Block Num", block_dim ? "Mix Block Dim" : "Mix Block Num");
}

/* Wait Time as Ascend's op summary defines it: device-wide, the gap from
 * the end of the previous row of the same device (rows in start order,
 * whatever its stream) to this row's start; 0 when that row has not ended
 * yet (they overlap). The previous end is kept per device. */
struct last_end {
    int32_t device;
    double end;
};

static double wait_time(struct last_end *ends, uint32_t *nends, const struct prof_entry *e, double start,
                        double end)
{
    double w = 0;
    uint32_t i;
    for (i = 0; i < *nends; i++)
        if (ends[i].device == e->device)
            break;
    if (i == *nends)
        ends[(*nends)++] = (struct last_end){e->device, end};
    else if ((w = start - ends[i].end) < 0)
        w = 0;
    ends[i].end = end;
    return w;
}

static void kernel_row(FILE *f, const struct prof_view *v, const struct prof_entry *e, double wait)
{
    double start = pv_start(v, e), dur = pv_end(v, e) - start;
    uint32_t step = pv_step_of(v, start);
    struct line l = {.n = 0};
    if (v->nsteps > 0) {
        step != 0 ? l_u(&l, step) : l_s(&l, "N/A");
        l_s(&l, ",");
    }
    l_i(&l, e->device), l_s(&l, ","), l_u(&l, e->model_id), l_s(&l, ","), l_u(&l, e->task_id), l_s(&l, ",");
    l_i(&l, e->stream_id), l_s(&l, ","), l_csv(&l, pv_task_name(e)), l_s(&l, ","), l_csv(&l, pv_task_name(e));
    /* OP State: aclcpu's kernels have the shapes they were launched with (static). */
    l_s(&l, ",static,"), l_s(&l, pv_core_type(e)), l_s(&l, ","), l_f3(&l, start), l_s(&l, "\t,");
    l_f3(&l, dur > 0 ? dur : 0), l_s(&l, ","), l_f3(&l, wait), l_s(&l, ","), l_u(&l, e->blocks), l_s(&l, ",");
    l_u(&l, pv_mix_blocks(e)), l_s(&l, ",N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n");
    l_out(&l, f);
}

static bool write_kernels(FILE *f, const struct prof_view *v, bool block_dim)
{
    struct row *rows = acl_malloc((v->ndev + 1) * sizeof(*rows));
    struct last_end *ends = acl_malloc((v->ndev + 1) * sizeof(*ends));
    uint32_t n = 0, nends = 0;
    if (rows == NULL || ends == NULL) {
        acl_free(rows);
        acl_free(ends);
        return false;
    }
    for (uint32_t i = 0; i < v->ndev; i++)
        if (prof_entry(v->dev[i])->kind == PK_KERNEL)
            rows[n++] = (struct row){v->dev[i], pv_start(v, prof_entry(v->dev[i]))};
    qsort(rows, n, sizeof(*rows), cmp_row);
    kernel_header(f, v, block_dim);
    for (uint32_t i = 0; i < n; i++) {
        const struct prof_entry *e = prof_entry(rows[i].id);
        kernel_row(f, v, e, wait_time(ends, &nends, e, rows[i].start, pv_end(v, e)));
    }
    acl_free(rows);
    acl_free(ends);
    return true;
}

/* ---- trace_view.json ----------------------------------------------------------------------------------- */

#define PID_HOST 1
#define PID_OVERLAP 3

static int device_pid(int32_t device) { return device == 0 ? 2 : 100 + device; }

static void meta(FILE *f, bool *first, const char *what, int pid, int tid, const char *key, const char *val,
                 long num)
{
    fprintf(f, "%s{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"%s\":", *first ? "" : ",\n",
            what, pid, tid, key);
    *first = false;
    if (val != NULL)
        pv_json_string(f, val);
    else
        fprintf(f, "%ld", num);
    fputs("}}", f);
}

static void process_meta(FILE *f, bool *first, int pid, const char *name, const char *label, long sort)
{
    meta(f, first, "process_name", pid, 0, "name", name, 0);
    meta(f, first, "process_labels", pid, 0, "labels", label, 0);
    meta(f, first, "process_sort_index", pid, 0, "sort_index", NULL, sort);
}

/* Process and thread names: host threads, one thread per stream. */
static void trace_meta(FILE *f, const struct prof_view *v, bool *first)
{
    char buf[64];
    int32_t last_dev = -1, last_stream = -1;
    uint32_t last_thread = 0;
    process_meta(f, first, PID_HOST, "CANN", "CPU", 0); /* the ACL API calls: Ascend names their process CANN */
    for (uint32_t i = 0; i < v->nhost; i++) {
        uint32_t t = prof_entry(v->host[i])->host_thread;
        if (t == last_thread)
            continue;
        snprintf(buf, sizeof(buf), "Host Thread %u", t);
        meta(f, first, "thread_name", PID_HOST, (int)t, "name", buf, 0);
        last_thread = t;
    }
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        if (e->device != last_dev) {
            snprintf(buf, sizeof(buf), "NPU %d", e->device);
            process_meta(f, first, device_pid(e->device), "Ascend Hardware", buf, device_pid(e->device));
            last_dev = e->device;
            last_stream = -1;
        }
        if (e->stream_id == last_stream)
            continue;
        snprintf(buf, sizeof(buf), "Stream %d", e->stream_id);
        meta(f, first, "thread_name", device_pid(e->device), e->stream_id, "name", buf, 0);
        meta(f, first, "thread_sort_index", device_pid(e->device), e->stream_id, "sort_index", NULL, e->stream_id);
        last_stream = e->stream_id;
    }
}

/* Host threads that issued device tasks without any host entry of their
 * own still need a name. */
static void issuing_threads_meta(FILE *f, const struct prof_view *v, bool *first)
{
    uint32_t most = 0;
    char buf[64];
    for (uint32_t i = 0; i < v->ndev; i++)
        if (prof_entry(v->dev[i])->host_thread > most)
            most = prof_entry(v->dev[i])->host_thread;
    for (uint32_t t = 1; t <= most; t++) {
        bool named = false;
        for (uint32_t i = 0; i < v->nhost && !named; i++)
            named = prof_entry(v->host[i])->host_thread == t;
        if (named)
            continue;
        snprintf(buf, sizeof(buf), "Host Thread %u", t);
        meta(f, first, "thread_name", PID_HOST, (int)t, "name", buf, 0);
    }
}

static void task_args(struct line *l, const struct prof_entry *e, uint32_t conn, double dur)
{
    l_s(l, ",\"args\":{\"Model Id\":"), l_u(l, e->model_id), l_s(l, ",\"Task Type\":");
    l_json(l, e->kind == PK_KERNEL ? pv_core_type(e) : pv_task_name(e));
    l_s(l, ",\"Stream Id\":"), l_i(l, e->stream_id), l_s(l, ",\"Task Id\":"), l_u(l, e->task_id);
    if (e->kind == PK_KERNEL) {
        l_s(l, ",\"Block Num\":"), l_u(l, e->blocks), l_s(l, ",\"Mix Block Num\":"), l_u(l, pv_mix_blocks(e));
        l_s(l, ",\"Core Limit\":\"c"), l_u(l, e->limit[0]), l_s(l, "v"), l_u(l, e->limit[1]);
        l_s(l, e->sched ? "\",\"Schedule Mode\":\"batch\"" : "\",\"Schedule Mode\":\"normal\"");
    }
    if (e->ev != NULL)
        l_s(l, ",\"Event Id\":"), l_i(l, e->ev_id);
    if (e->kind == PK_COPY || e->kind == PK_SET || e->kind == PK_CMO) {
        l_s(l, ",\"size(B)\":"), l_u(l, e->bytes), l_s(l, ",\"bandwidth(GB/s)\":");
        l_f3(l, dur > 0 ? (double)e->bytes / dur / 1e3 : 0.0);
    }
    l_s(l, ",\"connection_id\":"), l_u(l, conn), l_s(l, "}}");
}

static void device_event(FILE *f, const struct prof_view *v, const struct prof_entry *e, uint32_t conn)
{
    double start = pv_start(v, e), dur = pv_end(v, e) - start;
    struct line l = {.n = 0};
    if (dur < 0)
        dur = 0;
    l_s(&l, ",\n{\"ph\":\"X\",\"name\":"), l_json(&l, pv_task_name(e));
    l_s(&l, ",\"pid\":"), l_i(&l, device_pid(e->device)), l_s(&l, ",\"tid\":"), l_i(&l, e->stream_id);
    l_s(&l, ",\"ts\":\""), l_f3(&l, start), l_s(&l, "\",\"dur\":"), l_f3(&l, dur);
    task_args(&l, e, conn, dur);
    l_out(&l, f);
}

static void flow_end(struct line *l, const char *ph, const char *cat, const char *name, uint32_t id, int pid,
                     int tid, double ts)
{
    l_s(l, ",\n{\"ph\":\""), l_s(l, ph), l_s(l, "\",\"cat\":\""), l_s(l, cat), l_s(l, "\",\"name\":\"");
    l_s(l, name), l_s(l, "\",\"id\":"), l_u(l, id), l_s(l, ",\"pid\":"), l_i(l, pid), l_s(l, ",\"tid\":");
    l_i(l, tid), l_s(l, ",\"ts\":\""), l_f3(l, ts), l_s(l, "\"}");
}

static void flow_pair(FILE *f, const char *cat, const char *name, uint32_t id, int pid_s, int tid_s, double ts_s,
                      int pid_f, int tid_f, double ts_f)
{
    struct line l = {.n = 0};
    flow_end(&l, "s", cat, name, id, pid_s, tid_s, ts_s);
    flow_end(&l, "f\",\"bp\":\"e", cat, name, id, pid_f, tid_f, ts_f);
    l_out(&l, f);
}

/* Device tasks, the host-to-device flow of each one a host thread issued,
 * and the record-to-wait flow of each wait that was released. */
static void trace_device(FILE *f, const struct prof_view *v)
{
    char name[48];
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]), *r;
        device_event(f, v, e, i + 1);
        if (e->host_thread != 0)
            flow_pair(f, "async_npu", "HostToDevice", i + 1, PID_HOST, (int)e->host_thread, pv_issue(v, e),
                      device_pid(e->device), e->stream_id, pv_start(v, e));
        if (e->m_record == 0 || e->kind == PK_HOST_SYNC || v->conn[e->m_record] == 0)
            continue;
        r = prof_entry(e->m_record);
        snprintf(name, sizeof(name), "Event %d", e->ev_id);
        flow_pair(f, "event", name, 1000000000u + i + 1, device_pid(r->device), r->stream_id, pv_end(v, r),
                  device_pid(e->device), e->stream_id, pv_end(v, e));
    }
}

static void trace_host(FILE *f, const struct prof_view *v)
{
    for (uint32_t i = 0; i < v->nhost; i++) {
        const struct prof_entry *e = prof_entry(v->host[i]);
        double s = pv_start(v, e), d = pv_end(v, e) - s;
        struct line l = {.n = 0};
        if (v->modelled) { /* the host's modelled time is that of its last sync */
            s = e->kind == PK_HOST_SYNC ? e->m_start : e->m_host;
            d = e->kind == PK_HOST_SYNC ? e->m_end - e->m_start : 0;
        }
        l_s(&l, e->kind == PK_HOST_MARK ? ",\n{\"ph\":\"i\",\"name\":" : ",\n{\"ph\":\"X\",\"name\":");
        l_json(&l, e->name != NULL ? e->name : "range");
        l_s(&l, ",\"pid\":"), l_i(&l, PID_HOST), l_s(&l, ",\"tid\":"), l_u(&l, e->host_thread);
        l_s(&l, ",\"ts\":\""), l_f3(&l, s), l_s(&l, "\"");
        if (e->kind == PK_HOST_MARK) {
            l_s(&l, ",\"s\":\"t\"}");
        } else {
            l_s(&l, ",\"dur\":"), l_f3(&l, d > 0 ? d : 0);
            l_s(&l, e->kind == PK_HOST_SYNC ? ",\"args\":{\"Kind\":\"sync\"}}" : ",\"args\":{\"Kind\":\"range\"}}");
        }
        l_out(&l, f);
    }
}

/* The union of the kernels' intervals as sorted, disjoint spans (caller
 * frees *out); the count. */
static uint32_t busy_spans(const struct prof_view *v, struct span **out)
{
    double *s, *e;
    uint32_t n = kernel_spans(v, &s, &e), m = 0;
    *out = s != NULL ? acl_malloc((n + 1) * sizeof(**out)) : NULL;
    if (*out == NULL) {
        acl_free(s);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        (*out)[i] = (struct span){s[i], e[i]};
    acl_free(s);
    qsort(*out, n, sizeof(**out), cmp_span);
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && (*out)[i].s <= (*out)[m - 1].e) {
            if ((*out)[i].e > (*out)[m - 1].e)
                (*out)[m - 1].e = (*out)[i].e;
        } else {
            (*out)[m++] = (*out)[i];
        }
    }
    return m;
}

static void overlap_span(FILE *f, const char *name, int tid, double s, double e)
{
    struct line l = {.n = 0};
    if (e <= s)
        return;
    l_s(&l, ",\n{\"ph\":\"X\",\"name\":\""), l_s(&l, name), l_s(&l, "\",\"pid\":"), l_i(&l, PID_OVERLAP);
    l_s(&l, ",\"tid\":"), l_i(&l, tid), l_s(&l, ",\"ts\":\""), l_f3(&l, s), l_s(&l, "\",\"dur\":"), l_f3(&l, e - s);
    l_s(&l, "}");
    l_out(&l, f);
}

/* Computing = the union of kernel intervals, Free = the span minus it. */
static void trace_overlap(FILE *f, const struct prof_view *v, bool *first)
{
    static const char *const names[] = {"Computing", "Communication", "Communication(Not Overlapped)", "Free"};
    struct span *busy;
    uint32_t n = busy_spans(v, &busy);
    double lo, hi, cur;
    process_meta(f, first, PID_OVERLAP, "Overlap Analysis", "NPU 0", PID_OVERLAP);
    for (int t = 0; t < 4; t++)
        meta(f, first, "thread_name", PID_OVERLAP, t, "name", names[t], 0);
    device_span(v, &lo, &hi);
    cur = lo;
    for (uint32_t i = 0; i < n; i++) {
        overlap_span(f, "Free", 3, cur, busy[i].s);
        overlap_span(f, "Computing", 0, busy[i].s, busy[i].e);
        cur = busy[i].e;
    }
    overlap_span(f, "Free", 3, cur, hi);
    acl_free(busy);
}

static bool write_trace(FILE *f, const struct prof_view *v)
{
    bool first = true;
    fputs("[\n", f);
    trace_meta(f, v, &first);
    issuing_threads_meta(f, v, &first);
    trace_overlap(f, v, &first);
    trace_host(f, v);
    trace_device(f, v);
    fputs("\n]\n", f);
    return true;
}

/* ---- step_trace_time.csv ---------------------------------------------------------------------------------- */

static void step_row(FILE *f, const struct prof_view *v, uint32_t step, double lo, double hi, double *s, double *e,
                     uint32_t n)
{
    double computing = pv_union(s, e, n, lo, hi), first = hi;
    for (uint32_t i = 0; i < v->ndev; i++) { /* the step's first device task, its markers aside */
        const struct prof_entry *t = prof_entry(v->dev[i]);
        double ts = pv_start(v, t);
        if (t->kind != PK_STEP_START && t->kind != PK_STEP_END && ts >= lo && ts <= hi && ts < first)
            first = ts;
    }
    /* No step marked: the Step column is empty (Ascend's writer leaves it so), not 0. */
    if (step != 0)
        fprintf(f, "0,%u,", step);
    else
        fputs("0,,", f);
    fprintf(f, "%s,0.000,0.000,0.000,%s,%s,0.000,0.000,%s\n", pv_f3(computing),
            pv_f3(hi - lo - computing > 0 ? hi - lo - computing : 0), pv_f3(hi - lo), pv_f3(step != 0 ? first - lo : 0.0));
}

static bool write_steps(FILE *f, const struct prof_view *v)
{
    double *s, *e, lo, hi;
    uint32_t n = kernel_spans(v, &s, &e);
    if (s == NULL)
        return false;
    fputs("Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
          "Communication(Not Overlapped and Exclude Receive),Preparing\n", f);
    if (v->nsteps == 0) {
        device_span(v, &lo, &hi);
        step_row(f, v, 0, lo, hi, s, e, n);
    }
    for (uint32_t i = 0; i < v->nsteps; i++)
        step_row(f, v, i + 1, v->step_start[2 * i], v->step_start[2 * i + 1], s, e, n);
    acl_free(s);
    return true;
}

/* ---- op_statistic.csv --------------------------------------------------------------------------------------- */

/* One row per (OP Type, Core Type): aclcpu's OP Type is the kernel name. */
struct op_stat {
    const char *type, *core;
    uint32_t count;
    double total, min, max;
};

static int cmp_op_stat(const void *a, const void *b)
{
    const struct op_stat *x = a, *y = b;
    int c;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    if ((c = strcmp(x->type, y->type)) != 0)
        return c;
    return strcmp(x->core, y->core);
}

static bool write_op_statistic(FILE *f, const struct prof_view *v)
{
    struct op_stat *st = acl_malloc((v->ndev + 1) * sizeof(*st));
    uint32_t n = 0;
    double all = 0;
    if (st == NULL)
        return false;
    for (uint32_t i = 0; i < v->ndev; i++) {
        const struct prof_entry *e = prof_entry(v->dev[i]);
        const char *type, *core;
        double dur;
        uint32_t k;
        if (e->kind != PK_KERNEL)
            continue;
        type = pv_task_name(e);
        core = pv_core_type(e);
        dur = pv_end(v, e) - pv_start(v, e);
        dur = dur > 0 ? dur : 0;
        for (k = 0; k < n && (strcmp(st[k].type, type) != 0 || strcmp(st[k].core, core) != 0); k++)
            ;
        if (k == n)
            st[n++] = (struct op_stat){type, core, 0, 0, dur, dur};
        st[k].count++;
        st[k].total += dur;
        st[k].min = dur < st[k].min ? dur : st[k].min;
        st[k].max = dur > st[k].max ? dur : st[k].max;
        all += dur;
    }
    qsort(st, n, sizeof(*st), cmp_op_stat);
    fputs("OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n", f);
    for (uint32_t k = 0; k < n; k++) {
        struct line l = {.n = 0};
        l_csv(&l, st[k].type), l_s(&l, ","), l_s(&l, st[k].core), l_s(&l, ","), l_u(&l, st[k].count);
        l_s(&l, ","), l_f3(&l, st[k].total), l_s(&l, ","), l_f3(&l, st[k].min), l_s(&l, ",");
        l_f3(&l, st[k].total / st[k].count), l_s(&l, ","), l_f3(&l, st[k].max), l_s(&l, ",");
        l_f3(&l, all > 0 ? 100.0 * st[k].total / all : 0), l_s(&l, "\n");
        l_out(&l, f);
    }
    acl_free(st);
    return true;
}

/* ---- profiler_info_{rank}.json -------------------------------------------------------------------------------- */

/* What msprof-analyze and MindStudio Insight look for beside
 * ASCEND_PROFILER_OUTPUT: the rank in the file's name (and rank_id), and
 * the collection's settings as torch_npu writes them (task time, no PMU
 * metrics). aclcpu runs one rank: 0. */
static bool write_profiler_info(FILE *f, const struct prof_view *v)
{
    fprintf(f, "{\n  \"config\": {\n    \"common_config\": {\"activities\": [\"ProfilerActivity.NPU\"], "
               "\"schedule\": {}, \"record_shapes\": false, \"profile_memory\": false, \"with_stack\": false, "
               "\"with_flops\": false, \"with_modules\": false},\n    \"experimental_config\": {\"_profiler_level\": "
               "\"Level1\", \"_aic_metrics\": \"ACL_AICORE_NONE\", \"_l2_cache\": false, \"_op_attr\": false, "
               "\"_data_simplification\": true, \"_record_op_args\": false, \"_export_type\": [\"text\"]}\n  },\n"
               "  \"rank_id\": 0,\n  \"clock\": \"%s\",\n  \"writer\": \"aclcpu\"\n}\n",
            v->modelled ? "modelled" : "measured");
    return true;
}

/* ---- files -------------------------------------------------------------------------------------------------- */

typedef bool (*writer_fn)(FILE *f, const struct prof_view *v);

static bool write_kernels_dim(FILE *f, const struct prof_view *v) { return write_kernels(f, v, true); }
static bool write_kernels_num(FILE *f, const struct prof_view *v) { return write_kernels(f, v, false); }

static bool write_file(const char *dir, const char *name, writer_fn fn, const struct prof_view *v, char *why,
                       size_t n)
{
    char path[4300];
    FILE *f;
    bool ok;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "w")) == NULL) {
        snprintf(why, n, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    ok = fn(f, v);
    ok = !ferror(f) && ok;
    if (fclose(f) != 0 || !ok) {
        snprintf(why, n, "writing %s failed (disk full?)", path);
        return false;
    }
    return true;
}

aclError profwrite_all(const char *dir, bool block_dim_names, char *why, size_t n)
{
    char out[4200];
    struct prof_view mod = {0}, meas = {0};
    writer_fn kernels = block_dim_names ? write_kernels_dim : write_kernels_num;
    bool ok;
    snprintf(out, sizeof(out), "%s/ASCEND_PROFILER_OUTPUT", dir);
    if (!plat_make_dirs(out)) {
        snprintf(why, n, "the profile directory \"%s\" cannot be made or written: %s", out, strerror(errno));
        return ACL_ERROR_INVALID_FILE;
    }
    ok = pv_build(&mod, true) && pv_build(&meas, false);
    ok = ok && write_file(out, "kernel_details.csv", kernels, &mod, why, n) &&
         write_file(out, "kernel_details_measured.csv", kernels, &meas, why, n) &&
         write_file(out, "trace_view.json", write_trace, &mod, why, n) &&
         write_file(out, "trace_view_measured.json", write_trace, &meas, why, n) &&
         write_file(out, "step_trace_time.csv", write_steps, &mod, why, n) &&
         write_file(out, "op_statistic.csv", write_op_statistic, &mod, why, n) &&
         write_file(dir, "profiler_info_0.json", write_profiler_info, &mod, why, n) &&
         write_file(out, "summary.json", profsummary_write, &mod, why, n) &&
         write_file(out, "summary_measured.json", profsummary_write, &meas, why, n);
    pv_free(&mod);
    pv_free(&meas);
    return ok ? ACL_SUCCESS : ACL_ERROR_INVALID_FILE;
}
