/*
 * harness.c - timing, medians, alternating measurement, threads, process
 * figures, and the results table / JSON file of aclcpu-bench.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef ACLCPU_BENCH_HAVE_MALLINFO2
#include <malloc.h>
#endif

#include "bench.h"
#include "peer.h"

struct bench_opts g_opts;
aclrtContext g_ctx;
aclrtFuncHandle g_empty;

/* ---- failures ------------------------------------------------------------------ */

void bench_check(aclError err, const char *what, const char *file, int line)
{
    if (err == ACL_SUCCESS)
        return;
    fprintf(stderr, "aclcpu-bench: %s:%d: %s failed: %d (%s: %s)\n", file, line, what, (int)err,
            aclcpuGetErrorName(err), aclcpuGetErrorString(err));
    exit(1);
}

void bench_die(const char *fmt, ...)
{
    va_list ap;
    fputs("aclcpu-bench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void launch_empty(aclrtStream s) { CHECK(aclrtLaunchKernel(g_empty, 1, NULL, 0, s)); }

/* ---- time and statistics ----------------------------------------------------- */

uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000u, (long)(ms % 1000u) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* aclcpu workers spin ~50 us before parking; PoCL's park at once. */
void settle(void) { sleep_ms(3); }
/* libgomp's idle threads spin up to ~300k pauses (milliseconds) first. */
void settle_long(void) { sleep_ms(30); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, unsigned n)
{
    if (n == 0)
        return NAN;
    for (unsigned i = 0; i < n; i++)
        if (isnan(v[i]))
            return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- alternating measurement -------------------------------------------------- */

#define MAX_SIDES 4
#define MAX_REPS 64

static void print_value(FILE *f, double v);

static double range_lo[MAX_SIDES], range_hi[MAX_SIDES];

void last_range(unsigned i, double *lo, double *hi)
{
    *lo = i < MAX_SIDES ? range_lo[i] : NAN;
    *hi = i < MAX_SIDES ? range_hi[i] : NAN;
}

void measure_sides(const char *what, unsigned warm, unsigned reps, const struct side *sides, unsigned nsides,
                   double *out)
{
    double samples[MAX_SIDES][MAX_REPS];
    bool failed[MAX_SIDES] = {false};

    if (nsides > MAX_SIDES || reps > MAX_REPS || reps == 0)
        bench_die("measure_sides(%s): %u sides, %u reps is outside the harness limits", what, nsides, reps);
    for (unsigned round = 0; round < warm + reps; round++) {
        for (unsigned k = 0; k < nsides; k++) {
            unsigned i = (round + k) % nsides;
            double v;
            if (sides[i].sample == NULL || failed[i])
                continue;
            v = sides[i].sample(sides[i].ctx);
            if (isnan(v))
                failed[i] = true;
            if (round >= warm)
                samples[i][round - warm] = v;
            if (sides[i].long_settle)
                settle_long();
            else
                settle();
        }
    }
    printf("  %-30s", what);
    for (unsigned i = 0; i < nsides; i++) {
        out[i] = (sides[i].sample == NULL || failed[i]) ? NAN : median(samples[i], reps);
        range_lo[i] = isnan(out[i]) ? NAN : samples[i][0];
        range_hi[i] = isnan(out[i]) ? NAN : samples[i][reps - 1];
        printf(" | %s ", sides[i].name);
        print_value(stdout, out[i]);
        if (!isnan(out[i]) && reps > 1) {
            /* median() sorted the samples: show their range */
            printf(" [");
            print_value(stdout, samples[i][0]);
            printf("..");
            print_value(stdout, samples[i][reps - 1]);
            printf("]");
        }
    }
    printf("\n");
    fflush(stdout);
}

void measure_pair(const char *what, unsigned warm, unsigned reps, double (*acl_fn)(void *), void *acl_ctx,
                  double (*peer_fn)(void *), void *peer_ctx, double *a, double *p)
{
    double out[2];
    struct side sides[2] = {
        {"aclcpu", acl_fn, acl_ctx, false},
        {peer_name(), peer_ready() ? peer_fn : NULL, peer_ctx, false},
    };
    measure_sides(what, warm, reps, sides, 2, out);
    *a = out[0];
    *p = out[1];
}

/* ---- threads --------------------------------------------------------------------- */

struct thread_run {
    pthread_barrier_t start;
    void (*setup)(unsigned, void *);
    void (*body)(unsigned, void *);
    void *ctx;
};

struct thread_slot {
    pthread_t thread;
    unsigned index;
    uint64_t t_start, t_end;
    struct thread_run *run;
};

static void *thread_main(void *arg)
{
    struct thread_slot *slot = arg;
    struct thread_run *r = slot->run;
    if (r->setup != NULL)
        r->setup(slot->index, r->ctx);
    pthread_barrier_wait(&r->start);
    slot->t_start = now_ns();
    r->body(slot->index, r->ctx);
    slot->t_end = now_ns();
    return NULL;
}

double run_threads(unsigned n, void (*setup)(unsigned i, void *ctx), void (*body)(unsigned i, void *ctx), void *ctx)
{
    struct thread_run r = {.setup = setup, .body = body, .ctx = ctx};
    struct thread_slot *slots = calloc(n, sizeof(*slots));
    uint64_t first = UINT64_MAX, last = 0;

    if (slots == NULL || pthread_barrier_init(&r.start, NULL, n + 1) != 0)
        bench_die("run_threads: out of memory");
    for (unsigned i = 0; i < n; i++) {
        slots[i].index = i;
        slots[i].run = &r;
        if (pthread_create(&slots[i].thread, NULL, thread_main, &slots[i]) != 0)
            bench_die("run_threads: cannot create thread %u of %u", i + 1, n);
    }
    pthread_barrier_wait(&r.start);
    for (unsigned i = 0; i < n; i++) {
        pthread_join(slots[i].thread, NULL);
        if (slots[i].t_start < first)
            first = slots[i].t_start;
        if (slots[i].t_end > last)
            last = slots[i].t_end;
    }
    pthread_barrier_destroy(&r.start);
    free(slots);
    return (double)(last - first) / 1e9;
}

/* ---- watchdog ------------------------------------------------------------------------ */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool started;
    const char *what;      /* armed workload, NULL when disarmed */
    uint64_t deadline;     /* now_ns() value */
    unsigned seconds;
} wd = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, NULL, 0, 0};

static void report_threads(void)
{
    char path[300], comm[64], wchan[64];
    struct dirent *de;
    DIR *d = opendir("/proc/self/task");
    if (d == NULL)
        return;
    while ((de = readdir(d)) != NULL) {
        FILE *f;
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
        f = fopen(path, "r");
        if (f == NULL || fgets(comm, sizeof(comm), f) == NULL)
            snprintf(comm, sizeof(comm), "?");
        if (f != NULL)
            fclose(f);
        comm[strcspn(comm, "\n")] = '\0';
        snprintf(path, sizeof(path), "/proc/self/task/%s/wchan", de->d_name);
        f = fopen(path, "r");
        if (f == NULL || fgets(wchan, sizeof(wchan), f) == NULL)
            snprintf(wchan, sizeof(wchan), "?");
        if (f != NULL)
            fclose(f);
        fprintf(stderr, "  thread %s (%s): %s\n", de->d_name, comm, strcmp(wchan, "0") == 0 ? "running" : wchan);
    }
    closedir(d);
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd.lock);
    for (;;) {
        if (wd.what != NULL && now_ns() >= wd.deadline) {
            fprintf(stderr,
                    "aclcpu-bench: WARNING: %s has run for %u s, far longer than it should; the runtime may be hung. "
                    "Threads and what they wait in:\n",
                    wd.what, wd.seconds);
            report_threads();
            wd.what = NULL; /* once per workload */
        }
        if (wd.what == NULL) {
            pthread_cond_wait(&wd.cond, &wd.lock);
        } else {
            uint64_t d = wd.deadline;
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            /* the condvar uses the realtime clock: convert the remaining time */
            uint64_t left = d > now_ns() ? d - now_ns() : 0;
            ts.tv_sec += (time_t)(left / 1000000000u);
            ts.tv_nsec += (long)(left % 1000000000u);
            if (ts.tv_nsec >= 1000000000L) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&wd.cond, &wd.lock, &ts);
        }
    }
    return NULL;
}

void watchdog_arm(const char *what, unsigned seconds)
{
    pthread_mutex_lock(&wd.lock);
    if (!wd.started) {
        pthread_t t;
        wd.started = pthread_create(&t, NULL, watchdog_main, NULL) == 0;
        if (wd.started)
            pthread_detach(t);
    }
    wd.what = what;
    wd.seconds = seconds;
    wd.deadline = now_ns() + (uint64_t)seconds * 1000000000u;
    pthread_cond_signal(&wd.cond);
    pthread_mutex_unlock(&wd.lock);
}

void watchdog_disarm(void)
{
    pthread_mutex_lock(&wd.lock);
    wd.what = NULL;
    pthread_cond_signal(&wd.cond);
    pthread_mutex_unlock(&wd.lock);
}

/* ---- process figures ----------------------------------------------------------------- */

static long status_field(const char *key)
{
    char line[256];
    size_t klen = strlen(key);
    long v = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, klen) == 0) {
            v = strtol(line + klen, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

long proc_threads(void) { return status_field("Threads:"); }

long proc_rss_bytes(void)
{
    long kb = status_field("VmRSS:");
    return kb < 0 ? -1 : kb * 1024;
}

long long heap_in_use(void)
{
#ifdef ACLCPU_BENCH_HAVE_MALLINFO2
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd);
#else
    return -1;
#endif
}

/* ---- results --------------------------------------------------------------------------- */

#define MAX_METRICS 64
#define MAX_NOTES 32

struct metric {
    char name[64];
    char unit[24];
    double aclcpu, peer;
    const char *peer_name;
    enum better better;
    struct target target;
    char note[200];
};

static struct metric metrics[MAX_METRICS];
static unsigned nmetrics;
static char notes[MAX_NOTES][512];
static unsigned nnotes;

void add_metric(const char *name, const char *unit, double aclcpu, double peer, const char *peer_name,
                enum better better, struct target target, const char *note)
{
    struct metric *m;
    if (nmetrics == MAX_METRICS)
        bench_die("too many metrics");
    m = &metrics[nmetrics++];
    snprintf(m->name, sizeof(m->name), "%s", name);
    snprintf(m->unit, sizeof(m->unit), "%s", unit);
    m->aclcpu = aclcpu;
    m->peer = peer_name != NULL ? peer : NAN;
    m->peer_name = peer_name;
    m->better = better;
    m->target = target;
    snprintf(m->note, sizeof(m->note), "%s", note != NULL ? note : "");
}

void add_note(const char *fmt, ...)
{
    va_list ap;
    if (nnotes == MAX_NOTES)
        return;
    va_start(ap, fmt);
    vsnprintf(notes[nnotes++], sizeof(notes[0]), fmt, ap);
    va_end(ap);
}

static double ratio_of(const struct metric *m)
{
    if (isnan(m->aclcpu) || isnan(m->peer) || m->peer == 0)
        return NAN;
    return m->aclcpu / m->peer;
}

/* 1 met, 0 missed, -1 cannot tell. */
static int target_met(const struct metric *m)
{
    double r = ratio_of(m), v = m->target.value, a = m->aclcpu;
    switch (m->target.kind) {
    case TGT_RATIO_LE: return isnan(r) ? -1 : r <= v;
    case TGT_RATIO_GE: return isnan(r) ? -1 : r >= v;
    case TGT_ABS_LT: return isnan(a) || isnan(v) ? -1 : a < v;
    case TGT_ABS_LE: return isnan(a) || isnan(v) ? -1 : a <= v;
    case TGT_ABS_GE: return isnan(a) || isnan(v) ? -1 : a >= v;
    default: return -1;
    }
}

static void format_value(char *buf, size_t n, double v)
{
    double a = fabs(v);
    if (isnan(v))
        snprintf(buf, n, "n/a");
    else if (a >= 100000)
        snprintf(buf, n, "%.0f", v);
    else if (a >= 100)
        snprintf(buf, n, "%.1f", v);
    else if (a >= 1 || a == 0)
        snprintf(buf, n, "%.2f", v);
    else
        snprintf(buf, n, "%.3g", v);
}

const char *fmt_num(double v)
{
    static char bufs[8][32];
    static unsigned next;
    char *b = bufs[next++ % 8];
    format_value(b, sizeof(bufs[0]), v);
    return b;
}

static void print_value(FILE *f, double v)
{
    char buf[32];
    format_value(buf, sizeof(buf), v);
    fputs(buf, f);
}

void print_table(void)
{
    char a[32], p[32], r[32];
    printf("\n%-36s %-12s %12s %12s %-7s %9s %-7s %-30s %s\n", "metric", "unit", "aclcpu", "peer", "vs", "ratio",
           "better", "target", "met?");
    for (int i = 0; i < 36 + 1 + 12 + 1 + 12 + 1 + 12 + 1 + 7 + 1 + 9 + 1 + 7 + 1 + 30 + 1 + 4; i++)
        putchar('-');
    putchar('\n');
    for (unsigned i = 0; i < nmetrics; i++) {
        const struct metric *m = &metrics[i];
        int met = target_met(m);
        format_value(a, sizeof(a), m->aclcpu);
        format_value(p, sizeof(p), m->peer);
        format_value(r, sizeof(r), ratio_of(m));
        printf("%-36s %-12s %12s %12s %-7s %9s %-7s %-30s %s\n", m->name, m->unit, a, m->peer_name ? p : "-",
               m->peer_name ? m->peer_name : "-", m->peer_name ? r : "-",
               m->better == BETTER_LOWER ? "lower" : "higher",
               m->target.kind == TGT_NONE ? "-" : m->target.text,
               m->target.kind == TGT_NONE ? "" : met < 0 ? "n/a" : met ? "yes" : "NO");
    }
    for (unsigned i = 0; i < nmetrics; i++)
        if (metrics[i].note[0] != '\0')
            printf("  %s: %s\n", metrics[i].name, metrics[i].note);
    for (unsigned i = 0; i < nnotes; i++)
        printf("  note: %s\n", notes[i]);
    fflush(stdout);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_number(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

bool write_json(const char *path, const char *machine)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "aclcpu-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fputs("{\n  \"machine\": ", f);
    json_string(f, machine);
    fprintf(f, ",\n  \"quick\": %s,\n  \"metrics\": [", g_opts.quick ? "true" : "false");
    for (unsigned i = 0; i < nmetrics; i++) {
        const struct metric *m = &metrics[i];
        int met = target_met(m);
        fputs(i ? ",\n    {" : "\n    {", f);
        fputs("\"name\": ", f);
        json_string(f, m->name);
        fputs(", \"unit\": ", f);
        json_string(f, m->unit);
        fputs(", \"aclcpu\": ", f);
        json_number(f, m->aclcpu);
        fputs(", \"peer\": ", f);
        json_number(f, m->peer);
        fputs(", \"peer_name\": ", f);
        if (m->peer_name != NULL)
            json_string(f, m->peer_name);
        else
            fputs("null", f);
        fputs(", \"ratio\": ", f);
        json_number(f, ratio_of(m));
        fprintf(f, ", \"better\": \"%s\"", m->better == BETTER_LOWER ? "lower" : "higher");
        if (m->target.kind != TGT_NONE) {
            fputs(", \"target\": ", f);
            json_string(f, m->target.text);
            fprintf(f, ", \"target_met\": %s", met < 0 ? "null" : met ? "true" : "false");
        }
        if (m->note[0] != '\0') {
            fputs(", \"note\": ", f);
            json_string(f, m->note);
        }
        fputc('}', f);
    }
    fputs("\n  ],\n  \"notes\": [", f);
    for (unsigned i = 0; i < nnotes; i++) {
        fputs(i ? ", " : "", f);
        json_string(f, notes[i]);
    }
    fputs("]\n}\n", f);
    if (fclose(f) != 0) {
        fprintf(stderr, "aclcpu-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}
