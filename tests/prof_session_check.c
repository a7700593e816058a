/*
 * prof_session_check.c - the profiler alone: a program built from
 * src/services with common and platform only (no core, no engine: it
 * would not link if a services file called up into them) runs profile
 * sessions told in plain data, as the runtime tells them, and reads back
 * the modelled kernel times. Built with the lock checks on
 * (ACLCPU_LOCK_CHECKS=1) whatever the build type, so that allocating,
 * formatting or logging under a spinlock aborts it.
 *
 *   prof-session-check          every part below
 *   prof-session-check sessions two sessions, their modelled times
 *   prof-session-check burst    threads issue, as the runtime does (prof_prepare,
 *                               then prof_issue under a spinlock of the
 *                               stream's rank), enough of every kind to grow
 *                               each store several times; nothing is dropped
 *   prof-session-check starve   issues without prof_prepare past the headroom:
 *                               the excess is dropped, counted and told on
 *                               stderr at prof_end, never allocated
 *
 * Exit 0 when every check holds. The profiles go to one folder,
 * $TMPDIR/aclcpu-prof-session-XXXXXX (TMPDIR unset: /tmp), removed at exit
 * whether the checks held or not.
 */
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "services/profile.h"

static int failures;

enum { PATH_CAP = 1024 };

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

/* The run's folder under $TMPDIR, made by the first make_dir and removed at exit. */
static char top[PATH_CAP];

static void remove_top(void) { (void)nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* Makes the fresh folder top/name and writes its path to dir (PATH_CAP
 * bytes): 0, or -1. A name ending in XXXXXX only makes top and the path,
 * for mkstemp. */
static int make_dir(char *dir, const char *name)
{
    if (top[0] == '\0') {
        const char *base = getenv("TMPDIR");
        snprintf(top, sizeof(top), "%s/aclcpu-prof-session-XXXXXX", base != NULL && base[0] != '\0' ? base : "/tmp");
        if (mkdtemp(top) == NULL) {
            top[0] = '\0';
            return -1;
        }
        atexit(remove_top);
    }
    if ((size_t)snprintf(dir, PATH_CAP, "%s/%s", top, name) >= PATH_CAP)
        return -1;
    if (strlen(name) >= 6 && strcmp(name + strlen(name) - 6, "XXXXXX") == 0)
        return 0;
    return mkdir(dir, 0700);
}

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "prof_session_check:%d: %s failed\n", __LINE__, #cond); \
            failures++;                                                          \
        }                                                                        \
    } while (0)

static const struct prof_soc soc = {"TestSoC", 24, 48, 192u << 20, 1600.0, 25.0, 24.0, 0.0, 0.0};

/* A vector kernel of `blocks` blocks with a declared fixed time, the
 * task_id-th task of stream 3. */
static struct prof_task kernel(const aclcpuKernelCost *cost, uint32_t task_id, uint32_t blocks)
{
    static const char key; /* the kernel object: compared, never followed */
    return (struct prof_task){.kind = PK_KERNEL, .engine = ACL_RT_ENGINE_TYPE_AIV, .limit = {24, 48},
                              .stream_id = 3, .task_id = task_id, .model_id = UINT32_MAX, .blocks = blocks,
                              .object = &key, .name = "addk", .cost = cost};
}

/* Issues pt and runs it on worker 0, as the engine would. */
static uint32_t run(const struct prof_task *pt)
{
    uint32_t end, id = prof_issue(pt, &end);
    CHECK(id != 0 && end == 0);
    prof_task_started(id, 0);
    prof_task_ended(id, end);
    prof_task_released(id, end);
    return id;
}

/* The rows of dir's kernel_details.csv: names and modelled (start, duration). */
static int read_rows(const char *dir, char names[][32], double *start, double *dur, int cap)
{
    char path[PATH_CAP + 64], line[1024];
    int n = -1;
    FILE *f;
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", dir);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL && n < cap) {
        char *field[12], *save = NULL;
        int k = 0;
        if (n++ < 0)
            continue; /* the header */
        for (char *t = strtok_r(line, ",", &save); t != NULL && k < 12; t = strtok_r(NULL, ",", &save))
            field[k++] = t;
        if (k < 10)
            return -1;
        snprintf(names[n - 1], 32, "%s", field[4]);
        start[n - 1] = atof(field[8]);
        dur[n - 1] = atof(field[9]);
    }
    fclose(f);
    return n < 0 ? 0 : n;
}

static void sessions(void)
{
    char dir[PATH_CAP], why[512], names[4][32];
    double start[4], dur[4];
    aclcpuKernelCost cost = {.usFixed = 5.0};
    struct prof_task k1 = kernel(&cost, 1, 4), k2 = kernel(&cost, 2, 4);
    uint32_t end;

    CHECK(make_dir(dir, "sessions") == 0);
    CHECK(prof_issue(&k1, &end) == 0);                          /* no session: no entry */
    CHECK(prof_end(why, sizeof(why)) == ACL_ERROR_PROF_NOT_RUN);
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    CHECK(prof_on() && prof_running());
    CHECK(prof_begin(dir, false, &soc) == ACL_ERROR_PROF_ALREADY_RUN);
    run(&k1);
    cost.usFixed = 99.0; /* the session copied the cost in force at issue */
    run(&k2);
    CHECK(prof_end(why, sizeof(why)) == ACL_SUCCESS);
    CHECK(!prof_on() && !prof_running());
    CHECK(read_rows(dir, names, start, dur, 4) == 2);
    CHECK(strcmp(names[0], "addk") == 0 && strcmp(names[1], "addk") == 0);
    CHECK(start[0] == 0.0 && dur[0] == 5.0);
    CHECK(start[1] == 5.0 && dur[1] == 99.0);

    /* A second session starts from nothing: ids, names and times. */
    cost.usFixed = 2.0;
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    k1 = kernel(&cost, 7, 4);
    CHECK(run(&k1) == 1);
    CHECK(prof_end(why, sizeof(why)) == ACL_SUCCESS);
    CHECK(read_rows(dir, names, start, dur, 4) == 1);
    CHECK(start[0] == 0.0 && dur[0] == 2.0);
    if (failures == 0)
        printf("prof_session_check: the profiler ran two sessions without the runtime\n");
}

/* ---- growth outside the locks ---------------------------------------------------------- */

#define BURST_THREADS 3
#define BURST_TASKS 6000   /* per thread: 18000 records and more, the first chunks hold 8191 */
#define BURST_KERNELS 400  /* kernel objects: the kernel table doubles twice */
#define BURST_MODELS 300   /* model objects: the model table doubles twice */
#define BIG_SYNC 1500      /* the deps of a sync of many streams */

static const char kernel_objs[BURST_KERNELS], model_objs[BURST_MODELS];
static char kernel_names[BURST_KERNELS][120];

/* A stream of the burst: the lock the runtime holds around prof_issue. */
struct burst_stream {
    plat_spin lock;
    int32_t id;
    uint32_t tasks, kept;
};

/* Issues pt as stream_submit does: prepare, then prof_issue under the
 * stream's spinlock; runs it at once. Returns its entry (0: none). */
static uint32_t issue(struct burst_stream *bs, struct prof_task *pt, bool prepare)
{
    uint32_t id, end;
    if (prepare)
        prof_prepare();
    plat_spin_lock(&bs->lock);
    pt->stream_id = bs->id;
    pt->task_id = ++bs->tasks;
    id = prof_issue(pt, &end);
    plat_spin_unlock(&bs->lock);
    if (id != 0) {
        bs->kept++;
        prof_task_started(id, 0);
        prof_task_ended(id, end);
        prof_task_released(id, end);
    }
    return id;
}

/* Task i of a burst: mostly kernels (each with a long name of its own
 * object, and declared HBM bytes: a side record of argument pointers),
 * markers (a name copied each), model runs (a lane task and the run's end
 * after it); a sync of many streams now and then, host marks and event
 * syncs. */
static void burst_task(struct burst_stream *bs, uint32_t i, uint32_t *deps, uint32_t *ndeps)
{
    static const aclcpuKernelCost cost = {.usFixed = 1.0, .hbmBytes = 4096};
    uint64_t args[4] = {0x10000 + i, 0x20000, 3, 0x30000};
    struct prof_task pt = {.kind = PK_KERNEL, .engine = ACL_RT_ENGINE_TYPE_AIV, .limit = {24, 48},
                           .model_id = UINT32_MAX, .blocks = 2};
    uint32_t id;
    if (i % 5 == 1) {
        pt.kind = PK_MARK;
        pt.name = kernel_names[(i * 7) % BURST_KERNELS];
    } else if (i % 11 == 2) {
        pt.kind = PK_MODEL_RUN;
        pt.object = &model_objs[i % BURST_MODELS];
        pt.model_id = i % BURST_MODELS;
    } else {
        pt.object = &kernel_objs[i % BURST_KERNELS];
        pt.name = kernel_names[i % BURST_KERNELS];
        pt.cost = &cost;
        pt.args = args;
        pt.args_size = sizeof(args);
    }
    id = issue(bs, &pt, true);
    CHECK(id != 0);
    if (pt.kind == PK_MODEL_RUN && id != 0) {
        struct prof_task lane = {.kind = PK_KERNEL, .stream_id = 1000 + bs->id, .task_id = i + 1,
                                 .model_id = pt.model_id, .blocks = 1, .object = &kernel_objs[0],
                                 .name = kernel_names[0]};
        uint64_t now = plat_now_ns();
        uint32_t played = prof_lane_task(&lane, id, now, now + 1000, 1000, 1);
        CHECK(played != 0);
        prof_run_lane_ended(id + 1, played); /* the run's end: made right after its begin, by this thread */
    }
    if (id != 0 && *ndeps < BIG_SYNC)
        deps[(*ndeps)++] = id;
    if (*ndeps == BIG_SYNC) {
        prof_host_sync("aclrtSynchronizeDevice", deps, BIG_SYNC, plat_now_ns(), plat_now_ns() + 10);
        *ndeps = 0;
    }
    if (i % 97 == 0) {
        struct prof_event_key key = {&model_objs[0], 1, 3, i};
        prof_host_mark(kernel_names[i % BURST_KERNELS], plat_now_ns());
        prof_host_range_end(prof_host_range_begin("range", plat_now_ns()), plat_now_ns() + 5);
        prof_host_sync_event("aclrtSynchronizeEvent", &key, plat_now_ns(), plat_now_ns() + 5);
    }
}

static void *burst_thread(void *arg)
{
    struct burst_stream *bs = arg;
    static uint32_t deps[BURST_THREADS][BIG_SYNC];
    uint32_t ndeps = 0;
    for (uint32_t i = 0; i < BURST_TASKS; i++)
        burst_task(bs, i, deps[bs->id], &ndeps);
    return NULL;
}

/* The data rows of dir's kernel_details.csv (markers and runs have none). */
static long kernel_rows(const char *dir)
{
    char path[PATH_CAP + 64], line[2048];
    long n = -1;
    FILE *f;
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", dir);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL)
        n += strchr(line, '\n') != NULL;
    fclose(f);
    return n;
}

/* The profiles of a burst are tens of megabytes: each part removes its
 * own as soon as it is done, and the exit whatever is left. */
static void remove_tree(const char *dir) { (void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

/* prof_end, with what it writes to stderr into out. */
static aclError end_telling(char *out, size_t cap)
{
    char why[512], path[PATH_CAP];
    int fd = make_dir(path, "stderr-XXXXXX") == 0 ? mkstemp(path) : -1, saved = dup(STDERR_FILENO);
    aclError err;
    ssize_t n;
    CHECK(fd >= 0 && saved >= 0);
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    err = prof_end(why, sizeof(why));
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    n = pread(fd, out, cap - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    if (err != ACL_SUCCESS)
        fprintf(stderr, "prof_end: %s\n", why);
    return err;
}

static void burst(void)
{
    char dir[PATH_CAP], told[1024];
    struct burst_stream bs[BURST_THREADS];
    pthread_t th[BURST_THREADS];
    long kernels = 0;
    for (uint32_t k = 0; k < BURST_KERNELS; k++)
        snprintf(kernel_names[k], sizeof(kernel_names[k]), "burst_kernel_%03u_%s", k,
                 "with_a_name_long_enough_that_four_hundred_of_them_fill_the_arena_more_than_once_over_");
    CHECK(make_dir(dir, "burst") == 0);
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    for (int t = 0; t < BURST_THREADS; t++) {
        bs[t] = (struct burst_stream){.id = t};
        plat_spin_init(&bs[t].lock, LOCK_STREAM);
        CHECK(pthread_create(&th[t], NULL, burst_thread, &bs[t]) == 0);
    }
    for (int t = 0; t < BURST_THREADS; t++)
        CHECK(pthread_join(th[t], NULL) == 0);
    for (uint32_t i = 0; i < BURST_TASKS; i++)
        kernels += i % 5 != 1; /* a kernel, or a model run that plays one */
    CHECK(end_telling(told, sizeof(told)) == ACL_SUCCESS);
    CHECK(strstr(told, "left out") == NULL); /* nothing dropped: the stores grew ahead */
    CHECK(kernel_rows(dir) == kernels * BURST_THREADS); /* every kernel a row */
    remove_tree(dir);
    if (failures == 0)
        printf("prof_session_check: %d threads issued %d tasks each under a spinlock; the profile grew outside it\n",
               BURST_THREADS, BURST_TASKS);
}

static void starve(void)
{
    char dir[PATH_CAP], told[1024], want[64];
    struct burst_stream bs = {.id = 0};
    struct prof_task pt = {.kind = PK_KERNEL, .engine = ACL_RT_ENGINE_TYPE_AIV, .limit = {24, 48},
                           .model_id = UINT32_MAX, .blocks = 1, .object = &kernel_objs[0], .name = "starved"};
    uint32_t tasks = 0, dropped = 0;
    plat_spin_init(&bs.lock, LOCK_STREAM);
    CHECK(make_dir(dir, "starve") == 0);
    CHECK(prof_begin(dir, false, &soc) == ACL_SUCCESS);
    /* Nobody grows the store: the records the process has run out (a
     * session starts with room for 4096 more at least), then 1000 more. */
    while (dropped < 1000 && tasks < (1u << 24)) {
        dropped += issue(&bs, &pt, false) == 0;
        tasks++;
    }
    CHECK(bs.kept > 0 && dropped > 0);
    CHECK(issue(&bs, &pt, true) != 0); /* the dropped entries asked for growth: prof_prepare grows */
    CHECK(end_telling(told, sizeof(told)) == ACL_SUCCESS);
    snprintf(want, sizeof(want), "%u tasks or edges were left out", dropped);
    CHECK(strstr(told, want) != NULL);
    CHECK(kernel_rows(dir) == (long)bs.kept);
    remove_tree(dir);
    if (failures == 0)
        printf("prof_session_check: %u of %u tasks issued without prof_prepare were dropped and told\n", dropped,
               tasks);
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "all";
    bool all = strcmp(part, "all") == 0;
    if (all || strcmp(part, "sessions") == 0)
        sessions();
    if (all || strcmp(part, "burst") == 0)
        burst();
    if (all || strcmp(part, "starve") == 0)
        starve();
    return failures == 0 ? 0 : 1;
}
