/*
 * kdetails.c - reads kernel_details.csv: aclcpu's (docs/profile-format.md)
 * and Ascend's own (columns: docs/profile-format.md).
 *
 * DESIGN: columns are found by name, never by position, because Ascend's
 * files differ by release and settings: an optional leading "Step Id",
 * "Block Num"/"Mix Block Num" or the older "Block Dim"/"Mix Block Dim",
 * the op_summary spellings ("Op Name", "Task Type", "Task Start Time(us)",
 * ...), and PMU metric columns that come and go with aic_metrics. A metric
 * column is recognised by its shape (lower-case snake_case with an
 * optional "(unit)": aicore_time(us), aic_mac_ratio, cube_utilization(%))
 * and ignored; any other column this reader does not know is an error, as
 * is a missing one it needs, so that a file of another kind is never
 * analysed as if it were this one. Start times are parsed exactly into ns
 * (Ascend writes epoch-based µs like 1704161511420306.491, past a double's
 * ns precision). A row that repeats another of its stream (same task id,
 * start, duration and name: some releases write a task twice) is dropped
 * and counted, so that it is neither summed as a concurrent kernel nor
 * counted twice.
 */
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "profile.h"

enum kcol { KC_STEP, KC_DEVICE, KC_TASK, KC_STREAM, KC_NAME, KC_CORE, KC_START, KC_DUR, KC_WAIT,
            KC_BLOCK, KC_MIX, KC_COLS, KC_KNOWN = KC_COLS, KC_METRIC };

static const struct {
    const char *name;
    int col;
} known_columns[] = {
    {"Step Id", KC_STEP}, {"Device_id", KC_DEVICE}, {"Model ID", KC_KNOWN}, {"Task ID", KC_TASK},
    {"Stream ID", KC_STREAM}, {"Name", KC_NAME}, {"Op Name", KC_NAME}, {"Type", KC_KNOWN}, {"OP Type", KC_KNOWN},
    {"OP State", KC_KNOWN}, {"Accelerator Core", KC_CORE}, {"Task Type", KC_CORE}, {"Start Time(us)", KC_START},
    {"Task Start Time(us)", KC_START}, {"Duration(us)", KC_DUR}, {"Task Duration(us)", KC_DUR},
    {"Wait Time(us)", KC_WAIT}, {"Task Wait Time(us)", KC_WAIT}, {"Block Num", KC_BLOCK}, {"Block Dim", KC_BLOCK},
    {"Mix Block Num", KC_MIX}, {"Mix Block Dim", KC_MIX}, {"HF32 Eligible", KC_KNOWN}, {"Input Shapes", KC_KNOWN},
    {"Input Data Types", KC_KNOWN}, {"Input Formats", KC_KNOWN}, {"Output Shapes", KC_KNOWN},
    {"Output Data Types", KC_KNOWN}, {"Output Formats", KC_KNOWN}, {"Context ID", KC_KNOWN},
};

static const char *const required_names[KC_COLS] = {
    [KC_NAME] = "Name", [KC_CORE] = "Accelerator Core", [KC_START] = "Start Time(us)",
    [KC_DUR] = "Duration(us)", [KC_BLOCK] = "Block Num",
};

struct reader {
    struct profile *p;
    struct csv csv;
    int pos[KC_COLS];   /* field index of each column, -1 absent */
    const char *colname[KC_COLS]; /* as the header spells it */
    size_t ncols;
    long device;        /* Device_id of the rows seen, -1 none yet */
    int device_line;
    struct task *rows;
    size_t nrows, cap;
};

/* PMU metric columns: [a-z0-9_]+ with an optional "(unit)". */
static bool is_metric_column(const char *name)
{
    size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");
    if (n == 0)
        return false;
    if (name[n] == '\0')
        return true;
    return name[n] == '(' && name[strlen(name) - 1] == ')';
}

static int column_kind(const char *name)
{
    for (size_t i = 0; i < CLI_ARRAY_SIZE(known_columns); i++)
        if (str_eq(known_columns[i].name, name))
            return known_columns[i].col;
    return is_metric_column(name) ? KC_METRIC : -1;
}

static bool note_column(struct reader *r, size_t i, struct cli_error *err)
{
    const struct csv_field *f = &r->csv.fields[i];
    int kind = column_kind(f->text);
    for (size_t j = 0; j < i; j++)
        if (str_eq(r->csv.fields[j].text, f->text) ||
            (kind < KC_COLS && kind >= 0 && column_kind(r->csv.fields[j].text) == kind))
            return err_at(err, r->csv.path, f->line, f->col, "column '%s' repeats column %zu ('%s')", f->text, j + 1,
                          r->csv.fields[j].text);
    if (kind < 0)
        return err_at(err, r->csv.path, f->line, f->col,
                      "unknown column '%s' (neither a kernel_details.csv column nor a PMU metric column)", f->text);
    if (kind < KC_COLS) {
        r->pos[kind] = (int)i;
        r->colname[kind] = f->text;
    }
    r->p->csv.metric_columns += kind == KC_METRIC;
    if (kind == KC_BLOCK)
        r->p->csv.block_dim_names = str_eq(f->text, "Block Dim");
    return true;
}

static bool read_header(struct reader *r, bool need_streams, struct cli_error *err)
{
    int got = csv_next(&r->csv, err);
    if (got < 0)
        return false;
    if (got == 0)
        return err_at(err, r->csv.path, 1, 1, "empty file (no header line): not a kernel_details.csv");
    r->ncols = r->csv.nfields;
    for (int k = 0; k < KC_COLS; k++)
        r->pos[k] = -1;
    for (size_t i = 0; i < r->ncols; i++)
        if (!note_column(r, i, err))
            return false;
    for (int k = 0; k < KC_COLS; k++)
        if (required_names[k] != NULL && r->pos[k] < 0)
            return err_at(err, r->csv.path, 1, 1, "missing column '%s'%s", required_names[k],
                          k == KC_BLOCK ? " (or 'Block Dim')" : "");
    if (need_streams && r->pos[KC_STREAM] < 0)
        return err_at(err, r->csv.path, 1, 1, "missing column 'Stream ID' (this command tells streams apart by it)");
    r->p->csv.stream_id = r->pos[KC_STREAM] >= 0;
    r->p->csv.step_id = r->pos[KC_STEP] >= 0;
    return true;
}

/* ---- values ------------------------------------------------------------------- */

static const struct csv_field *field(const struct reader *r, int kcol)
{
    return r->pos[kcol] >= 0 ? &r->csv.fields[r->pos[kcol]] : NULL;
}

static bool bad_value(const struct reader *r, int kcol, const char *what, struct cli_error *err)
{
    const struct csv_field *f = field(r, kcol);
    return err_at(err, r->csv.path, f->line, f->col, "column '%s': '%s' is not %s", r->colname[kcol], f->text, what);
}

/* A count column (blocks, ids): N/A and absent give dflt. */
static bool read_count(const struct reader *r, int kcol, long dflt, long *v, struct cli_error *err)
{
    const struct csv_field *f = field(r, kcol);
    *v = dflt;
    if (f == NULL || str_is_na(f->text))
        return true;
    if (!parse_long(f->text, v) || *v < 0 || *v > INT_MAX)
        return bad_value(r, kcol, "a whole number >= 0", err);
    return true;
}

static bool read_time(const struct reader *r, int kcol, int64_t *ns, struct cli_error *err)
{
    const struct csv_field *f = field(r, kcol);
    if (!parse_us_ns(f->text, ns))
        return bad_value(r, kcol, "a time in us", err);
    if (kcol == KC_DUR && *ns < 0)
        return bad_value(r, kcol, "a duration (it is negative)", err);
    return true;
}

/* Wait Time is derived again from the rows where needed; its values are
 * still checked, so that a damaged file is refused rather than half read. */
static bool check_wait(const struct reader *r, struct cli_error *err)
{
    const struct csv_field *f = field(r, KC_WAIT);
    double wait;
    if (f == NULL || str_is_na(f->text))
        return true;
    if (!parse_double(f->text, &wait))
        return bad_value(r, KC_WAIT, "a time in us", err);
    return true;
}

/* One device per file: Start Time bases differ between devices. */
static bool check_device(struct reader *r, struct cli_error *err)
{
    const struct csv_field *f = field(r, KC_DEVICE);
    long dev;
    if (f == NULL || str_is_na(f->text))
        return true;
    if (!parse_long(f->text, &dev))
        return bad_value(r, KC_DEVICE, "a device id", err);
    if (r->device < 0) {
        r->device = dev;
        r->device_line = f->line;
    } else if (dev != r->device) {
        return err_at(err, r->csv.path, f->line, f->col,
                      "rows of device %ld here and of device %ld at line %d: one device per kernel_details.csv", dev,
                      r->device, r->device_line);
    }
    return true;
}

/* ---- rows ---------------------------------------------------------------------- */

static bool read_numbers(struct reader *r, struct task *t, struct cli_error *err)
{
    long stream, task_id, step, blocks, mix;
    int64_t dur_ns;
    if (!read_count(r, KC_STREAM, -1, &stream, err) || !read_count(r, KC_TASK, -1, &task_id, err) ||
        !read_count(r, KC_STEP, -1, &step, err) || !read_count(r, KC_BLOCK, 0, &blocks, err) ||
        !read_count(r, KC_MIX, 0, &mix, err) || !read_time(r, KC_START, &t->start_ns, err) ||
        !read_time(r, KC_DUR, &dur_ns, err) || !check_wait(r, err) || !check_device(r, err))
        return false;
    t->stream = (int)stream;
    t->task_id = task_id;
    t->step = (int)step;
    t->blocks = (unsigned)blocks;
    t->mix_blocks = (unsigned)mix;
    t->dur = (double)dur_ns / 1000.0;
    return true;
}

static bool read_row(struct reader *r, struct cli_error *err)
{
    struct task t = {.event_id = -1, .limit = {NO_LIMIT, NO_LIMIT}};
    if (r->csv.nfields != r->ncols)
        return err_at(err, r->csv.path, r->csv.fields[0].line, 1, "this row has %zu fields, the header has %zu",
                      r->csv.nfields, r->ncols);
    if (!read_numbers(r, &t, err))
        return false;
    t.name = arena_strdup(&r->p->arena, field(r, KC_NAME)->text);
    t.core_name = arena_strdup(&r->p->arena, field(r, KC_CORE)->text);
    t.kind = TASK_KERNEL;
    t.engine = engine_from_name(t.core_name);
    if (t.stream < 0)
        r->p->no_stream++;
    *VEC_PUSH(r->rows, r->nrows, r->cap) = t;
    return true;
}

static int by_start(const void *a, const void *b)
{
    const struct task *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return (x->task_id > y->task_id) - (x->task_id < y->task_id);
}

static bool same_row(const struct task *x, const struct task *y)
{
    return x->stream >= 0 && x->task_id >= 0 && x->stream == y->stream && x->task_id == y->task_id &&
           x->start_ns == y->start_ns && x->dur == y->dur && str_eq(x->name, y->name);
}

/* Drops rows that repeat the previous one (sorted by start, stream, task). */
static void drop_duplicates(struct reader *r)
{
    size_t kept = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (kept == 0 || !same_row(&r->rows[kept - 1], &r->rows[i]))
            r->rows[kept++] = r->rows[i];
    r->p->duplicates = r->nrows - kept;
    r->nrows = kept;
}

static bool read_rows(struct reader *r, struct cli_error *err)
{
    int got;
    while ((got = csv_next(&r->csv, err)) > 0)
        if (!read_row(r, err))
            return false;
    if (got < 0)
        return false;
    if (r->nrows == 0)
        return err_at(err, r->csv.path, r->csv.line, 1, "the profile is empty: a header and no kernel rows");
    sort_items(r->rows, r->nrows, sizeof(*r->rows), by_start);
    drop_duplicates(r);
    r->p->kernels = arena_memdup(&r->p->arena, r->rows, r->nrows * sizeof(*r->rows));
    r->p->nkernels = r->nrows;
    return true;
}

bool kdetails_load(struct profile *p, const char *path, bool need_streams, struct cli_error *err)
{
    struct reader r = {.p = p, .device = -1};
    bool ok = csv_open(&r.csv, path, err) && read_header(&r, need_streams, err) && read_rows(&r, err);
    csv_close(&r.csv);
    free(r.rows);
    return ok;
}
