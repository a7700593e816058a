/*
 * bigprofile.c - writes a large profile for the timeline's size and speed
 * check (timeline.sh):
 *
 *   bigprofile DIR KERNELS [OTHERS]   writes DIR/kernel_details.csv and DIR/trace_view.json
 *
 * KERNELS kernels in steps of 140 + OTHERS (20 when not given; KERNELS a
 * multiple of that): per step the main stream (1) records a fork event,
 * runs 100 kernels and waits on the join event; the side stream (2) waits
 * on the fork, runs 40 kernels and records the join; streams 3 to
 * OTHERS + 2 run one kernel each, stream 3's starting 3 us before the
 * step's fork, inside the previous step's span (a step is its Step Id,
 * not a time range). Kernel lengths, engines and
 * blocks come from a fixed linear congruential sequence, so the same
 * arguments always write the same files. The columns, Step Id first, and
 * the trace's processes, tasks, args and event flows are laid out as
 * aclcpu's profiler writes them (docs/profile-format.md); the Overlap
 * Analysis lanes and host slices are left out (the command computes
 * Computing and Free itself). Exit 0 written, 1 on a bad argument or a
 * write error.
 *
 * DESIGN: rows are generated per step and stream, collected, sorted by
 * start as the profiler sorts kernel_details.csv, and written with stdio.
 * Single-threaded; no locks.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAIN_KERNELS 100
#define SIDE_KERNELS 40
#define MAX_OTHERS 100000
#define MAIN 1
#define SIDE 2

enum kind { KERNEL, RECORD, WAIT };

struct row {
    enum kind kind;
    int stream, step, event;
    unsigned task, blocks;
    long long start, dur; /* ns */
    const char *core;
    unsigned name;
};

static unsigned long long lcg_state = 12345;

static unsigned rnd(unsigned n)
{
    lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((lcg_state >> 33) % n);
}

static int by_start(const void *a, const void *b)
{
    const struct row *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

static const char *const op_names[] = {"matmul", "rms_norm", "rope", "softmax", "flash_attention", "swiglu",
                                       "add", "cast", "gather", "scatter", "topk", "transpose"};

static unsigned *task_ids; /* per stream */
static int others = 20;

static struct row kernel(int stream, int step, long long start, long long dur)
{
    struct row r = {KERNEL, stream, step, -1, ++task_ids[stream], 0, start, dur, NULL, rnd(48)};
    r.core = rnd(2) ? "AI_CORE" : "AI_VECTOR_CORE";
    r.blocks = r.core[3] == 'C' ? 4 + rnd(21) : 8 + rnd(41);
    return r;
}

/* Fills rows for one step from t (ns); returns the step's end. */
static long long one_step(struct row *rows, size_t *n, int step, long long t, int *event)
{
    long long main_t = t, side_t, e;
    int fork = (*event)++, join = (*event)++;
    rows[(*n)++] = (struct row){RECORD, MAIN, step, fork, ++task_ids[MAIN], 0, main_t, 200, NULL, 0};
    main_t += 200;
    side_t = main_t;
    rows[(*n)++] = (struct row){WAIT, SIDE, step, fork, ++task_ids[SIDE], 0, t, main_t - t, NULL, 0};
    for (int i = 0; i < MAIN_KERNELS; i++) {
        long long d = 500 + rnd(20000);
        rows[(*n)++] = kernel(MAIN, step, main_t, d);
        main_t += d;
    }
    for (int i = 0; i < SIDE_KERNELS; i++) {
        long long d = 500 + rnd(30000);
        rows[(*n)++] = kernel(SIDE, step, side_t, d);
        side_t += d;
    }
    rows[(*n)++] = (struct row){RECORD, SIDE, step, join, ++task_ids[SIDE], 0, side_t, 200, NULL, 0};
    side_t += 200;
    e = side_t > main_t ? side_t : main_t;
    rows[(*n)++] = (struct row){WAIT, MAIN, step, join, ++task_ids[MAIN], 0, main_t, e - main_t, NULL, 0};
    main_t = e;
    for (int s = 0; s < others; s++)
        rows[(*n)++] = kernel(3 + s, step, t + 1000 + rnd(20000), 300 + rnd(5000));
    if (others > 0 && t >= 3000) /* the first of them starts while the previous step's kernels still run */
        rows[*n - (size_t)others].start = t - 3000;
    return main_t + 1000;
}

static void us(FILE *f, long long ns) { fprintf(f, "%lld.%03lld", ns / 1000, ns % 1000); }

static void write_csv(FILE *f, const struct row *rows, size_t n)
{
    fputs("Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
          "Duration(us),Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data Types,"
          "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID\n", f);
    for (size_t i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        if (r->kind != KERNEL)
            continue;
        fprintf(f, "%d,0,4294967295,%u,%d,%s_%u,%s,static,%s,", r->step, r->task, r->stream,
                op_names[r->name % 12], r->name, op_names[r->name % 12], r->core);
        us(f, r->start);
        fputs("\t,", f);
        us(f, r->dur);
        fprintf(f, ",0.000,%u,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n", r->blocks);
    }
}

static void write_trace(FILE *f, const struct row *rows, size_t n)
{
    size_t nevents = 0;
    const struct row **wait_of;
    for (size_t i = 0; i < n; i++)
        if (rows[i].event >= 0 && (size_t)rows[i].event >= nevents)
            nevents = (size_t)rows[i].event + 1;
    wait_of = calloc(nevents + 1, sizeof(*wait_of));
    if (wait_of == NULL)
        return;
    for (size_t i = 0; i < n; i++)
        if (rows[i].kind == WAIT)
            wait_of[rows[i].event] = &rows[i];
    fputs("[\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"CANN\"}},\n"
          "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"Ascend Hardware\"}},\n"
          "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_labels\",\"args\":{\"labels\":\"NPU 0\"}}", f);
    for (int s = 1; s <= others + 2; s++)
        fprintf(f, ",\n{\"ph\":\"M\",\"pid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"Stream %d\"},\"tid\":%d}", s, s);
    for (size_t i = 0; i < n; i++) {
        const struct row *r = &rows[i];
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":2,\"tid\":%d,\"name\":\"", r->stream);
        if (r->kind == KERNEL)
            fprintf(f, "%s_%u", op_names[r->name % 12], r->name);
        else
            fputs(r->kind == RECORD ? "EVENT_RECORD" : "EVENT_WAIT", f);
        fputs("\",\"ts\":\"", f);
        us(f, r->start);
        fputs("\",\"dur\":", f);
        us(f, r->dur);
        fprintf(f, ",\"args\":{\"Model Id\":4294967295,\"Task Type\":\"%s\",\"Stream Id\":%d,\"Task Id\":%u",
                r->kind == KERNEL ? r->core : r->kind == RECORD ? "EVENT_RECORD" : "EVENT_WAIT", r->stream, r->task);
        if (r->kind == KERNEL)
            fprintf(f, ",\"Block Num\":%u,\"Mix Block Num\":0,\"Core Limit\":\"c24v48\",\"Schedule Mode\":\"normal\"}}",
                    r->blocks);
        else
            fprintf(f, ",\"Event Id\":%d}}", r->event);
        if (r->kind == RECORD) { /* the flow from this record's end to the end of the wait it releases */
            const struct row *w = wait_of[r->event];
            if (w == NULL)
                continue;
            fprintf(f, ",\n{\"cat\":\"event\",\"name\":\"Event %d\",\"id\":%d,\"pid\":2,\"ph\":\"s\",\"tid\":%d,\"ts\":\"",
                    r->event, 100000 + r->event, r->stream);
            us(f, r->start + r->dur);
            fprintf(f, "\"},\n{\"cat\":\"event\",\"name\":\"Event %d\",\"id\":%d,\"pid\":2,\"ph\":\"f\",\"bp\":\"e\","
                       "\"tid\":%d,\"ts\":\"", r->event, 100000 + r->event, w->stream);
            us(f, w->start + w->dur);
            fputs("\"}", f);
        }
    }
    fputs("\n]\n", f);
    free(wait_of);
}

static int write_file(const char *dir, const char *name, const struct row *rows, size_t n, bool csv)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "w")) == NULL) {
        perror(path);
        return 1;
    }
    csv ? write_csv(f, rows, n) : write_trace(f, rows, n);
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long kernels = argc >= 3 ? strtol(argv[2], NULL, 10) : 0, per_step;
    size_t steps, n = 0;
    struct row *rows;
    long long t = 0;
    int event = 1, rc;
    if (argc == 4)
        others = (int)strtol(argv[3], NULL, 10);
    per_step = MAIN_KERNELS + SIDE_KERNELS + others;
    if (argc < 3 || argc > 4 || others < 0 || others > MAX_OTHERS || kernels < per_step || kernels > 10000000 ||
        kernels % per_step != 0) {
        fprintf(stderr, "usage: bigprofile DIR KERNELS [OTHERS] (OTHERS 0 to %d, default 20; KERNELS a multiple "
                        "of 140 + OTHERS)\n", MAX_OTHERS);
        return 1;
    }
    steps = (size_t)(kernels / per_step);
    rows = calloc(steps * (size_t)(per_step + 4), sizeof(*rows));
    task_ids = calloc((size_t)others + 3, sizeof(*task_ids));
    if (rows == NULL || task_ids == NULL)
        return 1;
    for (size_t s = 0; s < steps; s++)
        t = one_step(rows, &n, (int)s + 1, t, &event);
    qsort(rows, n, sizeof(*rows), by_start);
    rc = write_file(argv[1], "kernel_details.csv", rows, n, true) || write_file(argv[1], "trace_view.json", rows, n, false);
    free(rows);
    free(task_ids);
    return rc;
}
