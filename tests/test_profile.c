/*
 * test_profile.c - the profiler's model of the SoC and the files it
 * writes: the cases of spec multistream.md §1.4 (core splitting,
 * oversubscription, fake parallelism, prefetch) checked on the modelled
 * numbers, determinism across worker counts and host load, the file
 * formats, model runs, copies, host syncs, and ACLCPU_PROFILE.
 *
 * Kernels here declare their cost (aclcpuSetKernelCost), so the modelled
 * times are exact: on the default SoC (Ascend910B1: 24 cube, 48 vector
 * cores, HBM 1600 GB/s, host link 25 GB/s) a kernel of B blocks with cost
 * {f, t} takes f + t / B us when it has its cores.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl_prof.h>

#include "test.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-3)
#define ASSERT_NEAR(a, b)                                                                                      \
    do {                                                                                                       \
        double a_ = (a), b_ = (b);                                                                             \
        if (!NEAR(a_, b_))                                                                                     \
            test_fail(__FILE__, __LINE__, "ASSERT_NEAR(%s, %s): %.6f != %.6f", #a, #b, a_, b_);                \
    } while (0)

static void k_noop(void *args) { (void)args; }

/* A kernel with a declared cost of any kind (aclcpuKernelCost's fields). */
static aclrtFuncHandle costed_mix(const char *name, double launch_us, double fixed, double total, uint64_t hbm,
                                  uint32_t mix)
{
    aclcpuKernelCost c;
    aclrtFuncHandle k = t_kernel(name, k_noop);
    memset(&c, 0, sizeof(c));
    c.usLaunch = launch_us;
    c.usFixed = fixed;
    c.usTotal = total;
    c.hbmBytes = hbm;
    c.mix = mix;
    ASSERT_OK(aclcpuSetKernelCost(k, &c));
    return k;
}

/* The per-block cost most tests declare (one engine, or mix). */
static aclrtFuncHandle cost_kernel(const char *name, double fixed, double total, uint64_t hbm, uint32_t mix)
{
    return costed_mix(name, 0, fixed, total, hbm, mix);
}

/* With a once-per-launch part, on one engine. */
static aclrtFuncHandle costed(const char *name, double launch_us, double fixed, double total, uint64_t hbm)
{
    return costed_mix(name, launch_us, fixed, total, hbm, 0);
}

/* Launches k with numBlocks, engine (AIC/AIV) and schedule mode (0/1). */
static void launch(aclrtFuncHandle k, uint32_t blocks, aclrtEngineType engine, int batch, aclrtStream s,
                   void *args, size_t argsize)
{
    aclrtLaunchKernelAttr attr[2];
    aclrtLaunchKernelCfg cfg;
    memset(attr, 0, sizeof(attr));
    attr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr[0].value.engineType = engine;
    attr[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr[1].value.schemMode = (uint8_t)batch;
    cfg.attrs = attr;
    cfg.numAttrs = 2;
    ASSERT_OK(aclrtLaunchKernelV2(k, blocks, args, argsize, &cfg, s));
}

/* t_setup and two streams; close_two destroys them and tears down. */
static void open_two(aclrtStream *s1, aclrtStream *s2)
{
    t_setup();
    ASSERT_OK(aclrtCreateStream(s1));
    ASSERT_OK(aclrtCreateStream(s2));
}

static void close_two(aclrtStream s1, aclrtStream s2)
{
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

/* ---- profiles ----------------------------------------------------------------------------- */

static void new_dir(char *dir, size_t cap)
{
    t_tmpdir(dir, cap, "aclcpu-prof");
}

/* The published worked examples count no synchronisation cost: the tests
 * of the other laws model with the dispatch and event latencies at 0
 * (ACLCPU_MODEL_*_NS), and those of the latencies ask for the SoC's
 * (with_sync_costs). */
static bool sync_costs;

static void set_sync_costs(void)
{
    if (sync_costs) {
        unsetenv("ACLCPU_MODEL_DISPATCH_NS");
        unsetenv("ACLCPU_MODEL_EVENT_NS");
    } else {
        setenv("ACLCPU_MODEL_DISPATCH_NS", "0", 1);
        setenv("ACLCPU_MODEL_EVENT_NS", "0", 1);
    }
}

/* Starts a profile into dir (a new one when dir is empty). */
static aclprofConfig *prof_start(char *dir, size_t cap)
{
    uint32_t dev = 0;
    aclprofConfig *cfg;
    set_sync_costs();
    if (dir[0] == '\0')
        new_dir(dir, cap);
    ASSERT_OK(aclprofInit(dir, strlen(dir)));
    cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
    ASSERT(cfg != NULL);
    ASSERT_OK(aclprofStart(cfg));
    return cfg;
}

static void prof_stop(aclprofConfig *cfg)
{
    ASSERT_OK(aclprofStop(cfg));
    ASSERT_OK(aclprofDestroyConfig(cfg));
    ASSERT_OK(aclprofFinalize());
}

/* The whole of dir/ASCEND_PROFILER_OUTPUT/name (malloc'd), or NULL. */
static char *read_out(const char *dir, const char *name)
{
    char path[512];
    FILE *f;
    long n;
    char *buf;
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/%s", dir, name);
    if ((f = fopen(path, "rb")) == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    ASSERT(buf != NULL);
    ASSERT_EQ(fread(buf, 1, (size_t)n, f), n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

struct krow {
    int stream, step;
    unsigned task, blocks, mix, model;
    char name[64], core[16];
    double start, dur, wait;
};

/* The index of column name in a CSV header line, or -1. */
static int column(const char *header, const char *name)
{
    int i = 0;
    size_t n = strlen(name);
    for (const char *p = header; *p != '\0' && *p != '\n'; i++) {
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\n'))
            return i;
        while (*p != ',' && *p != '\n' && *p != '\0')
            p++;
        if (*p == ',')
            p++;
    }
    return -1;
}

/* Field col of a CSV line, into out. */
static void field(const char *line, int col, char *out, size_t cap)
{
    size_t k = 0;
    for (int i = 0; i < col && *line != '\n' && *line != '\0'; line++)
        i += *line == ',';
    while (*line != ',' && *line != '\n' && *line != '\0' && k + 1 < cap)
        out[k++] = *line++;
    out[k] = '\0';
}

/* Parses kernel_details.csv (or its measured twin) into rows; the count. */
static int read_kernels(const char *dir, bool measured, struct krow *rows, int cap)
{
    char *csv = read_out(dir, measured ? "kernel_details_measured.csv" : "kernel_details.csv"), *line, buf[64];
    int n = 0, c[11];
    static const char *const cols[] = {"Stream ID", "Task ID", "Name", "Start Time(us)", "Duration(us)",
                                       "Wait Time(us)", "Block Num", "Mix Block Num", "Accelerator Core",
                                       "Model ID", "Step Id"};
    ASSERT(csv != NULL);
    for (int i = 0; i < 11; i++)
        c[i] = column(csv, cols[i]);
    for (int i = 0; i < 10; i++)
        ASSERT(c[i] >= 0);
    for (line = strchr(csv, '\n'); line != NULL && line[1] != '\0' && n < cap; line = strchr(line, '\n')) {
        struct krow *r = &rows[n++];
        line++;
        field(line, c[0], buf, sizeof(buf)), r->stream = atoi(buf);
        field(line, c[1], buf, sizeof(buf)), r->task = (unsigned)atoi(buf);
        field(line, c[2], r->name, sizeof(r->name));
        field(line, c[3], buf, sizeof(buf)), r->start = atof(buf);
        field(line, c[4], buf, sizeof(buf)), r->dur = atof(buf);
        field(line, c[5], buf, sizeof(buf)), r->wait = atof(buf);
        field(line, c[6], buf, sizeof(buf)), r->blocks = (unsigned)atoi(buf);
        field(line, c[7], buf, sizeof(buf)), r->mix = (unsigned)atoi(buf);
        field(line, c[8], r->core, sizeof(r->core));
        field(line, c[9], buf, sizeof(buf)), r->model = (unsigned)strtoul(buf, NULL, 10);
        r->step = -1;
        if (c[10] >= 0)
            field(line, c[10], buf, sizeof(buf)), r->step = atoi(buf);
    }
    free(csv);
    return n;
}

/* The number after "key": at or after from (NAN when missing). */
static double json_num(const char *from, const char *key)
{
    char pat[96];
    const char *p;
    snprintf(pat, sizeof(pat), "\"%s\": ", key);
    p = from != NULL ? strstr(from, pat) : NULL;
    return p != NULL ? strtod(p + strlen(pat), NULL) : NAN;
}

static double kernel_end(const struct krow *r) { return r->start + r->dur; }

/* ---- core splitting (§1.4): T on all cores, 1.5 T on half ------------------------------------ */

#define T_US 100.0

TEST(profile, core_split_two_halves_take_1_5T_where_two_full_ops_take_2T)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    aclrtStream s1, s2;
    aclrtEvent ev;
    uint32_t limit;
    char *sum;
    /* f + t/24 = T and f + t/12 = 1.5 T: f = 0.5 T, t = 12 T. */
    aclrtFuncHandle op = cost_kernel("op", 0.5 * T_US, 12 * T_US, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    ASSERT_OK(aclrtCreateEvent(&ev));
    cfg = prof_start(dir, sizeof(dir));
    launch(op, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0); /* serially, on all cores */
    launch(op, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(ev, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, ev));
    /* Then in parallel: each stream limited to half the cube cores, and the
     * op tiled to the limit, as a core-limited op is. */
    ASSERT_OK(aclrtSetStreamResLimit(s1, ACL_RT_DEV_RES_CUBE_CORE, 12));
    ASSERT_OK(aclrtSetStreamResLimit(s2, ACL_RT_DEV_RES_CUBE_CORE, 12));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s1));
    ASSERT_OK(aclrtGetStreamResLimit(s1, ACL_RT_DEV_RES_CUBE_CORE, &limit));
    launch(op, limit, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s2));
    launch(op, limit, ACL_RT_ENGINE_TYPE_AIC, 0, s2, NULL, 0);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s2));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);

    ASSERT_EQ(read_kernels(dir, false, r, 8), 4);
    ASSERT_NEAR(r[0].dur, T_US);
    ASSERT_NEAR(kernel_end(&r[1]) - r[0].start, 2 * T_US); /* serial: 2T */
    ASSERT_NEAR(r[2].start, 2 * T_US);                    /* the halves start together... */
    ASSERT_NEAR(r[3].start, 2 * T_US);
    ASSERT(r[2].stream != r[3].stream);
    ASSERT_NEAR(r[2].dur, 1.5 * T_US); /* ...and both end at 1.5T: the 25 % gain */
    ASSERT_NEAR(r[3].dur, 1.5 * T_US);
    ASSERT_EQ(r[2].blocks + r[3].blocks, 24); /* Block Num <= limit, sum <= cores */
    sum = read_out(dir, "summary.json");
    ASSERT_NEAR(json_num(sum, "e2e_us"), 3.5 * T_US);
    ASSERT_EQ(json_num(sum, "max_concurrent_cube_blocks"), 24);
    ASSERT_STR_CONTAINS(sum, "\"limits\": []");
    ASSERT_STR_CONTAINS(sum, "\"contention\": []");
    free(sum);
    ASSERT_OK(aclrtDestroyEvent(ev));
    close_two(s1, s2);
}

/* Contention is between streams: one kernel asking for more blocks than
 * the pool has runs in waves on its own, and summary.json lists no
 * contention for it; a kernel of a second stream ready meanwhile does. */
TEST(profile, a_kernel_wider_than_the_cores_alone_is_no_contention_two_streams_are)
{
    char dir[T_PATH_CAP] = "", dir2[T_PATH_CAP] = "";
    aclrtStream s1, s2;
    char *sum;
    aclrtFuncHandle wide = cost_kernel("wide", 10, 520, 0, 0), other = cost_kernel("other", 10, 80, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    cfg = prof_start(dir, sizeof(dir));
    launch(wide, 52, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0); /* 52 blocks on 48 vector cores */
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT_STR_CONTAINS(sum, "\"contention\": []");
    free(sum);

    cfg = prof_start(dir2, sizeof(dir2));
    launch(wide, 52, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    launch(other, 8, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir2, "summary.json");
    ASSERT_STR_CONTAINS(sum, "\"engine\": \"vector\"");
    ASSERT_STR_CONTAINS(sum, "\"name\": \"other\"");
    free(sum);
    close_two(s1, s2);
}

/* A kernel that ignores its stream's limit is flagged (and loses the gain:
 * the other stream's kernel waits for cores). */
TEST(profile, kernel_over_its_core_limit_is_flagged_and_queues_the_other_stream)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    char *sum;
    aclrtFuncHandle op = cost_kernel("greedy", 0.5 * T_US, 12 * T_US, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    ASSERT_OK(aclrtSetStreamResLimit(s1, ACL_RT_DEV_RES_CUBE_CORE, 12));
    ASSERT_OK(aclrtSetStreamResLimit(s2, ACL_RT_DEV_RES_CUBE_CORE, 12));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s1));
    launch(op, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0); /* ignores the limit of 12 */
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s2));
    launch(op, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s2, NULL, 0);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s2));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].dur, T_US);
    ASSERT_NEAR(r[1].start, T_US); /* no core was free before the greedy one ended */
    sum = read_out(dir, "summary.json");
    ASSERT_STR_CONTAINS(sum, "\"block_num\": 24, \"limit\": 12");
    ASSERT_STR_CONTAINS(sum, "\"demand_blocks\": 36, \"cores\": 24");
    free(sum);
    close_two(s1, s2);
}

/* ---- oversubscription (§1.4) ---------------------------------------------------------------- */

TEST(profile, batch_kernels_demanding_more_than_the_soc_are_serialised_and_flagged)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    char *sum;
    aclrtFuncHandle gang = cost_kernel("gang", 100, 0, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    cfg = prof_start(dir, sizeof(dir));
    launch(gang, 16, ACL_RT_ENGINE_TYPE_AIC, 1, s1, NULL, 0); /* 16 + 16 > 24 cube cores */
    launch(gang, 16, ACL_RT_ENGINE_TYPE_AIC, 1, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].start, 0);
    ASSERT_NEAR(r[0].dur, 100);
    ASSERT_NEAR(r[1].start, 100); /* could not start together */
    ASSERT_NEAR(r[1].dur, 100);
    sum = read_out(dir, "summary.json");
    ASSERT_STR_CONTAINS(sum, "\"engine\": \"cube\", \"start_us\": 0.000, \"end_us\": 100.000, \"demand_blocks\": 32, "
                             "\"cores\": 24");
    ASSERT_NEAR(json_num(strstr(sum, "\"batch_waits\""), "wait_us"), 100);
    ASSERT_EQ(json_num(sum, "max_concurrent_cube_blocks"), 16);
    free(sum);
    close_two(s1, s2);
}

/* A batch kernel wider than its engine's pool runs in waves of the whole
 * pool: 96 vector blocks of 10 us on 48 vector cores take two waves, as
 * do 48 cube blocks on 24 cube cores. */
TEST(profile, a_batch_kernel_wider_than_the_soc_runs_in_waves_of_the_whole_pool)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s;
    aclrtFuncHandle wide = cost_kernel("wide", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(wide, 96, ACL_RT_ENGINE_TYPE_AIV, 1, s, NULL, 0);
    launch(wide, 48, ACL_RT_ENGINE_TYPE_AIC, 1, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].start, 0);
    ASSERT_NEAR(r[0].dur, 20);
    ASSERT_NEAR(r[1].start, 20);
    ASSERT_NEAR(r[1].dur, 20);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* On a coupled SoC (Ascend910A: 32 AI Cores, no vector pool) a vector
 * kernel reads HBM at an AI Core's share, as a cube kernel does: one block
 * reading 6 MB at 1200 GB/s over 20 saturating cores takes 100 us. */
TEST(profile, a_vector_kernel_on_a_coupled_soc_reads_hbm_at_an_ai_cores_share)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s;
    aclrtFuncHandle rd = cost_kernel("reader", 0, 0, 6000000, 0);
    aclprofConfig *cfg;
    setenv("ACLCPU_SOC", "Ascend910A", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(rd, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(rd, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].dur, 100);
    ASSERT_NEAR(r[1].dur, 100);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The same two kernels in normal mode share the cores: the second starts
 * its 8 blocks that fit at once and the rest as cores free. */
TEST(profile, normal_mode_kernels_run_in_waves_when_fewer_cores_are_free)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    aclrtFuncHandle k = cost_kernel("wave", 100, 0, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 16, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    launch(k, 16, ACL_RT_ENGINE_TYPE_AIC, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].dur, 100);
    ASSERT_NEAR(r[1].start, 0);   /* 8 blocks at once */
    ASSERT_NEAR(r[1].dur, 200);   /* the other 8 in a second wave */
    close_two(s1, s2);
}

/* ---- fake parallelism (§1.3, §1.4) ----------------------------------------------------------------- */

/* main: pre, record e0, [consume side], dominator, [consume side], tail;
 * side: wait e0, side op, record e1. With early, the main stream waits for
 * the side op before its dominator: the classic fake parallel. */
static double overlap_pct_of(bool early)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream mainst, side;
    aclrtEvent e0, e1;
    double pct;
    char *sum;
    aclrtFuncHandle pre = cost_kernel("pre", 10, 0, 0, 0), dom = cost_kernel("dominator", 100, 0, 0, 0);
    aclrtFuncHandle sop = cost_kernel("side_op", 50, 0, 0, 0), tail = cost_kernel("tail", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&mainst));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateEvent(&e0));
    ASSERT_OK(aclrtCreateEvent(&e1));
    cfg = prof_start(dir, sizeof(dir));
    launch(pre, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(e0, mainst));
    ASSERT_OK(aclrtStreamWaitEvent(side, e0));
    launch(sop, 16, ACL_RT_ENGINE_TYPE_AIV, 0, side, NULL, 0); /* vector cores: no contention */
    ASSERT_OK(aclrtRecordEvent(e1, side));
    if (early)
        ASSERT_OK(aclrtStreamWaitEvent(mainst, e1));
    launch(dom, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
    if (!early)
        ASSERT_OK(aclrtStreamWaitEvent(mainst, e1));
    launch(tail, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT_STR_CONTAINS(sum, "\"name\": \"dominator\"");
    pct = json_num(strstr(sum, "\"overlap\""), "overlap_pct");
    ASSERT_STR_CONTAINS(sum, early ? "\"verdict\": \"fake\"" : "\"verdict\": \"real\"");
    if (early) /* and the wait shows as the hole it is */
        ASSERT_NEAR(json_num(strstr(sum, "\"event_waits\""), "wait_us"), 50);
    free(sum);
    ASSERT_OK(aclrtDestroyEvent(e0));
    ASSERT_OK(aclrtDestroyEvent(e1));
    ASSERT_OK(aclrtDestroyStream(mainst));
    ASSERT_OK(aclrtDestroyStream(side));
    t_teardown();
    return pct;
}

TEST(profile, fake_parallel_side_op_consumed_before_the_dominator_overlaps_5pct_or_less)
{
    ASSERT(overlap_pct_of(true) <= 0.05);
}

TEST(profile, fixed_order_side_op_overlaps_the_dominator_by_half_or_more)
{
    ASSERT(overlap_pct_of(false) >= 0.5);
}

/* ---- prefetch (§1.4, §3.3) ---------------------------------------------------------------------- */

#define WEIGHT_BYTES 20000000ull /* 20 MB */

/* main: rmsnorm (10 us, vector, no HBM) then a matmul reading a 20 MB
 * weight; side: a prefetch of prefetch_bytes of the weight, started with
 * the rmsnorm. Returns the matmul's modelled duration. */
static double matmul_after_prefetch(uint64_t prefetch_bytes)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream mainst, side;
    aclrtEvent go;
    void *w;
    aclrtFuncHandle norm = cost_kernel("rmsnorm", 10, 0, 0, 0);
    aclrtFuncHandle mm = cost_kernel("matmul", 5, 0, WEIGHT_BYTES, 0);
    aclprofConfig *cfg;
    int n;
    t_setup();
    ASSERT_OK(aclrtMalloc(&w, WEIGHT_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&mainst));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateEvent(&go));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclrtRecordEvent(go, mainst));
    ASSERT_OK(aclrtStreamWaitEvent(side, go));
    if (prefetch_bytes > 0)
        ASSERT_OK(aclrtCmoAsync(w, prefetch_bytes, ACL_RT_CMO_TYPE_PREFETCH, side));
    launch(norm, 48, ACL_RT_ENGINE_TYPE_AIV, 0, mainst, NULL, 0);
    launch(mm, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, &w, sizeof(w)); /* its argument points at the weight */
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    n = read_kernels(dir, false, r, 4);
    ASSERT_EQ(n, 2);
    ASSERT_EQ(strcmp(r[1].name, "matmul"), 0);
    ASSERT_NEAR(r[1].start, 10);
    ASSERT_OK(aclrtDestroyEvent(go));
    ASSERT_OK(aclrtDestroyStream(mainst));
    ASSERT_OK(aclrtDestroyStream(side));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
    return r[1].dur;
}

TEST(profile, prefetch_shortens_the_consumer_by_bytes_over_bandwidth_within_the_window)
{
    double bw = 1600e3; /* bytes per us */
    double none = matmul_after_prefetch(0), half = matmul_after_prefetch(WEIGHT_BYTES / 2);
    double full = matmul_after_prefetch(WEIGHT_BYTES);
    ASSERT_NEAR(none, 5 + WEIGHT_BYTES / bw); /* 12.5 us of reading, 5 of compute */
    /* 10 MB fit the 10 us window: the matmul reads 10 MB less. */
    ASSERT_NEAR(none - half, (WEIGHT_BYTES / 2) / bw);
    /* 20 MB do not: at most 16 MB (bandwidth x window) were in L2 when the
     * matmul started, so it gains at most the window, and the rest of the
     * prefetch competes with it for bandwidth. */
    ASSERT(none - full <= 10.0 + 1e-6);
    ASSERT(none - full >= 9.0);
}

/* A MIX unit takes one cube and two vector cores. A 12-block MIX kernel on
 * an A2 (24 cube, 48 vector) leaves 24 vector cores: a 30-block batch
 * vector kernel issued beside it on another stream cannot start until the
 * MIX kernel ends (with one vector core per unit, 36 would be free and it
 * would start at once). A 24-block one fits beside it: the boundary. */
static double batch_vector_start_beside_mix(uint32_t vector_blocks)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    aclrtFuncHandle mix = cost_kernel("mix_op", 20, 0, 0, 1), vec = cost_kernel("vec_op", 5, 0, 0, 0);
    aclprofConfig *cfg;
    double start = -1;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    cfg = prof_start(dir, sizeof(dir));
    launch(mix, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    launch(vec, vector_blocks, ACL_RT_ENGINE_TYPE_AIV, 1, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    for (int i = 0; i < 2; i++)
        if (strcmp(r[i].name, "vec_op") == 0)
            start = r[i].start;
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
    return start;
}

TEST(profile, mix_unit_takes_two_vector_cores)
{
    ASSERT_NEAR(batch_vector_start_beside_mix(30), 20);
    ASSERT_NEAR(batch_vector_start_beside_mix(24), 0);
}

/* The second occurrence: a prefetched range serves its first reader only.
 * Two matmuls read the weight one after the other behind a 10 MB prefetch:
 * the first is sped up as above, the second reads all 20 MB again. */
TEST(profile, prefetched_range_serves_only_its_first_reader)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream mainst, side;
    aclrtEvent go;
    void *w;
    double bw = 1600e3, none = 5 + WEIGHT_BYTES / bw;
    aclrtFuncHandle norm = cost_kernel("rmsnorm", 10, 0, 0, 0);
    aclrtFuncHandle mm = cost_kernel("matmul", 5, 0, WEIGHT_BYTES, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtMalloc(&w, WEIGHT_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&mainst));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateEvent(&go));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclrtRecordEvent(go, mainst));
    ASSERT_OK(aclrtStreamWaitEvent(side, go));
    ASSERT_OK(aclrtCmoAsync(w, WEIGHT_BYTES / 2, ACL_RT_CMO_TYPE_PREFETCH, side));
    launch(norm, 48, ACL_RT_ENGINE_TYPE_AIV, 0, mainst, NULL, 0);
    launch(mm, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, &w, sizeof(w));
    launch(mm, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, &w, sizeof(w));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 3);
    ASSERT_NEAR(r[1].dur, none - (WEIGHT_BYTES / 2) / bw); /* the first reader gains the prefetch */
    ASSERT_NEAR(r[2].dur, none);                         /* the second reads every byte again */
    ASSERT_OK(aclrtDestroyEvent(go));
    ASSERT_OK(aclrtDestroyStream(mainst));
    ASSERT_OK(aclrtDestroyStream(side));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

/* ---- determinism ------------------------------------------------------------------------------- */

static atomic_bool spin_stop;

static void *spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&spin_stop))
        ;
    return NULL;
}

/* A small multi-stream program with a captured model run, profiled into
 * dir: the modelled files must not depend on workers or host load. */
static void det_program(char *dir, size_t cap)
{
    static uint64_t token = 7;
    aclrtStream s1, s2, cs;
    aclrtEvent ev;
    aclmdlRI model;
    float *buf;
    aclrtFuncHandle a = cost_kernel("a", 3, 48, 1000000, 0), b = cost_kernel("b", 7, 0, 0, 1);
    aclrtFuncHandle c = cost_kernel("c", 1, 100, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtMalloc((void **)&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&cs));
    ASSERT_OK(aclrtCreateEvent(&ev));
    ASSERT_OK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    for (int i = 0; i < 4; i++)
        launch(c, 8, ACL_RT_ENGINE_TYPE_AIV, 0, cs, &token, sizeof(token));
    ASSERT_OK(aclmdlRICaptureEnd(cs, &model));
    sync_costs = true; /* the latencies must not make the model depend on the host either */
    cfg = prof_start(dir, cap);
    for (int i = 0; i < 20; i++) {
        /* The kernels (the captured ones too) take a plain number, not
         * buf: s2's memset of buf is not ordered before the next step's
         * work on s1 (the race checker would rightly report a kernel
         * handed the pointer). */
        launch(a, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, &token, sizeof(token));
        ASSERT_OK(aclrtRecordEvent(ev, s1));
        ASSERT_OK(aclrtStreamWaitEvent(s2, ev));
        launch(b, 16, ACL_RT_ENGINE_TYPE_AIV, i % 2, s2, &token, sizeof(token));
        ASSERT_OK(aclrtMemsetAsync(buf, 4096, 0, 4096, s2));
        ASSERT_OK(aclmdlRIExecuteAsync(model, s1));
        if (i % 5 == 4)
            ASSERT_OK(aclrtSynchronizeStream(s2));
    }
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_OK(aclmdlRIDestroy(model));
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(cs));
    ASSERT_OK(aclrtFree(buf));
    t_teardown();
}

static void assert_same_file(const char *d1, const char *d2, const char *name)
{
    char *a = read_out(d1, name), *b = read_out(d2, name);
    ASSERT(a != NULL && b != NULL);
    if (strcmp(a, b) != 0)
        test_fail(__FILE__, __LINE__, "%s differs between %s and %s", name, d1, d2);
    free(a);
    free(b);
}

/* Runs det_program in a child process (model and stream ids then start
 * afresh, as in a new run of the program) with ACLCPU_WORKERS = workers,
 * and with busy threads on every host core when busy is set. */
static void det_run(char *dir, size_t cap, const char *workers, bool busy)
{
    pid_t pid;
    int status;
    new_dir(dir, cap);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        pthread_t spin[2];
        setenv("ACLCPU_WORKERS", workers, 1);
        for (int i = 0; busy && i < 2; i++)
            if (pthread_create(&spin[i], NULL, spinner, NULL) != 0)
                _exit(3);
        det_program(dir, cap);
        atomic_store(&spin_stop, true);
        for (int i = 0; busy && i < 2; i++)
            pthread_join(spin[i], NULL);
        _exit(0);
    }
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(profile, modelled_files_are_identical_whatever_the_workers_and_host_load)
{
    static const char *const files[] = {"kernel_details.csv", "trace_view.json", "step_trace_time.csv",
                                        "op_statistic.csv", "summary.json"};
    char d1[T_PATH_CAP], d2[T_PATH_CAP], d3[T_PATH_CAP];
    det_run(d1, sizeof(d1), "1", false);
    det_run(d2, sizeof(d2), "2", false);
    det_run(d3, sizeof(d3), "2", true);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        assert_same_file(d1, d2, files[i]);
        assert_same_file(d1, d3, files[i]);
    }
}

/* ---- file formats ---------------------------------------------------------------------------------- */

/* A JSON syntax check (RFC 8259, no extensions): true when *p starts with
 * one value; *p moves past it. */
static void ws(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\t' || **p == '\r')
        (*p)++;
}

static bool json_value(const char **p, int depth);

static bool json_string_ok(const char **p)
{
    if (**p != '"')
        return false;
    for ((*p)++; **p != '"'; (*p)++) {
        if ((unsigned char)**p < 0x20)
            return false;
        if (**p == '\\') {
            (*p)++;
            if (strchr("\"\\/bfnrtu", **p) == NULL || **p == '\0')
                return false;
        }
    }
    (*p)++;
    return true;
}

static bool json_container(const char **p, int depth, char close, bool object)
{
    (*p)++;
    ws(p);
    if (**p == close) {
        (*p)++;
        return true;
    }
    for (;;) {
        ws(p);
        if (object) {
            if (!json_string_ok(p))
                return false;
            ws(p);
            if (*(*p)++ != ':')
                return false;
        }
        if (!json_value(p, depth + 1))
            return false;
        ws(p);
        if (**p == close) {
            (*p)++;
            return true;
        }
        if (*(*p)++ != ',')
            return false;
    }
}

static bool json_value(const char **p, int depth)
{
    char *end;
    ws(p);
    if (depth > 64)
        return false;
    switch (**p) {
    case '{': return json_container(p, depth, '}', true);
    case '[': return json_container(p, depth, ']', false);
    case '"': return json_string_ok(p);
    case 't': return strncmp(*p, "true", 4) == 0 && (*p += 4, true);
    case 'f': return strncmp(*p, "false", 5) == 0 && (*p += 5, true);
    case 'n': return strncmp(*p, "null", 4) == 0 && (*p += 4, true);
    default:
        if (**p != '-' && (**p < '0' || **p > '9'))
            return false;
        strtod(*p, &end);
        *p = end;
        return true;
    }
}

static bool json_document_ok(const char *text)
{
    const char *p = text;
    if (!json_value(&p, 0))
        return false;
    ws(&p);
    return *p == '\0';
}

/* The value of "key": in one trace line (an event), as a long; -1 if none. */
static long line_int(const char *line, const char *key)
{
    char pat[64];
    const char *p;
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    p = strstr(line, pat);
    return p != NULL ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* Checks trace_view.json the way a viewer reads it. */
static void check_trace(const char *dir, const char *name)
{
    char *text = read_out(dir, name), *full = read_out(dir, name), *save = NULL;
    long flows_s[256], flows_f[256];
    int ns = 0, nf = 0, xs = 0;
    ASSERT(text != NULL);
    ASSERT(json_document_ok(text));
    ASSERT_STR_CONTAINS(text, "\"args\":{\"name\":\"Ascend Hardware\"}");
    ASSERT_STR_CONTAINS(text, "\"args\":{\"name\":\"Overlap Analysis\"}");
    ASSERT_STR_CONTAINS(text, "\"args\":{\"name\":\"CANN\"}"); /* the host API calls, as Ascend names them */
    ASSERT_STR_CONTAINS(text, "\"args\":{\"name\":\"Host Thread 1\"}");
    for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
        const char *ts = strstr(line, "\"ts\":");
        if (strstr(line, "\"ph\":\"M\"") != NULL || line[0] == '[' || line[0] == ']')
            continue;
        ASSERT(line_int(line, "pid") > 0 && line_int(line, "tid") >= 0);
        ASSERT(ts != NULL && ts[5] == '"'); /* ts is a string of us */
        if (strstr(line, "\"ph\":\"X\"") != NULL) {
            ASSERT(strstr(line, "\"dur\":") != NULL);
            if (line_int(line, "pid") == 2) { /* a device task: its stream's thread is named */
                char want[64];
                snprintf(want, sizeof(want), "\"tid\":%ld,\"args\":{\"name\":\"Stream %ld\"}", line_int(line, "tid"),
                         line_int(line, "tid"));
                ASSERT_STR_CONTAINS(full, want);
                xs++;
            }
        } else if (strstr(line, "\"ph\":\"s\"") != NULL && ns < 256) {
            flows_s[ns++] = line_int(line, "id");
        } else if (strstr(line, "\"ph\":\"f\"") != NULL && nf < 256) {
            ASSERT(strstr(line, "\"bp\":\"e\"") != NULL);
            flows_f[nf++] = line_int(line, "id");
        }
    }
    ASSERT(xs > 0);
    ASSERT_EQ(ns, nf); /* every flow has its two ends, with one id */
    for (int i = 0; i < ns; i++)
        ASSERT_EQ(flows_s[i], flows_f[i]);
    free(text);
    free(full);
}

/* A program with every kind of task: kernels of both engines and a mix
 * kernel, copies both ways, a memset, events, a host function, a marker,
 * a prefetch and a step. */
static void k_spin_100us(void *args)
{
    (void)args;
    t_busy_ns(100000);
}

static void host_fn(void *arg) { (*(int *)arg)++; }

static void every_kind(char *dir, size_t cap, aclprofStepInfo *step)
{
    aclrtStream s1, s2;
    aclrtEvent ev;
    void *dev;
    static char host[1 << 20];
    int calls = 0;
    aclrtFuncHandle cube = cost_kernel("cube_op", 10, 0, 0, 0), mix = cost_kernel("mix_op", 20, 0, 0, 1);
    aclrtFuncHandle measured = t_kernel("measured_op", k_spin_100us);
    aclprofConfig *cfg;
    ASSERT_OK(aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateEvent(&ev));
    cfg = prof_start(dir, cap);
    if (step != NULL)
        ASSERT_OK(aclprofGetStepTimestamp(step, ACL_STEP_START, s1));
    ASSERT_OK(aclrtMemcpyAsync(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE, s1));
    launch(cube, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    launch(mix, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(ev, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, ev));
    launch(measured, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtCmoAsync(dev, 4096, ACL_RT_CMO_TYPE_PREFETCH, s2));
    ASSERT_OK(aclrtMemsetAsync(dev, sizeof(host), 0, sizeof(host), s2));
    ASSERT_OK(aclrtLaunchHostFunc(s2, host_fn, &calls));
    ASSERT_OK(aclprofMarkEx("checkpoint", 10, s2));
    ASSERT_OK(aclrtMemcpyAsync(host, sizeof(host), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST, s2));
    if (step != NULL)
        ASSERT_OK(aclprofGetStepTimestamp(step, ACL_STEP_END, s2));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(calls, 1);
    ASSERT_OK(aclrtDestroyEvent(ev));
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtFree(dev));
}

TEST(profile, trace_view_is_a_chrome_trace_with_named_streams_and_paired_flows)
{
    char dir[T_PATH_CAP] = "";
    char *t;
    t_setup();
    every_kind(dir, sizeof(dir), NULL);
    check_trace(dir, "trace_view.json");
    check_trace(dir, "trace_view_measured.json");
    t = read_out(dir, "trace_view.json");
    ASSERT_STR_CONTAINS(t, "\"name\":\"checkpoint\""); /* the marker, on its stream */
    ASSERT_STR_CONTAINS(t, "\"name\":\"CMO_PREFETCH\"");
    ASSERT_STR_CONTAINS(t, "\"name\":\"HOST_FUNC\"");
    ASSERT_STR_CONTAINS(t, "\"name\":\"EVENT_WAIT\"");
    ASSERT_STR_CONTAINS(t, "\"cat\":\"event\",\"name\":\"Event");
    ASSERT_STR_CONTAINS(t, "\"name\":\"aclrtSynchronizeDevice\"");
    ASSERT_STR_CONTAINS(t, "\"tid\":0,\"args\":{\"name\":\"Computing\"}");
    ASSERT_STR_CONTAINS(t, "\"tid\":3,\"args\":{\"name\":\"Free\"}");
    free(t);
    ASSERT(json_document_ok(t = read_out(dir, "summary.json")));
    free(t);
    ASSERT(json_document_ok(t = read_out(dir, "summary_measured.json")));
    free(t);
    t_teardown();
}

TEST(profile, kernel_rows_name_the_core_type_blocks_and_model_the_copies)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    char *csv;
    t_setup();
    every_kind(dir, sizeof(dir), NULL);
    csv = read_out(dir, "kernel_details.csv");
    ASSERT(strncmp(csv, "Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
                        "Duration(us),Wait Time(us),Block Num,Mix Block Num,HF32 Eligible,Input Shapes,Input Data "
                        "Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID\n",
                   230) == 0);
    ASSERT_STR_CONTAINS(csv, "\t,"); /* Start Time ends in a TAB, as Ascend writes it */
    free(csv);
    ASSERT_EQ(read_kernels(dir, false, r, 8), 3);
    /* 1 MiB host -> device at 25 GB/s first: 41.943 us. */
    ASSERT_NEAR(r[0].start, (1 << 20) / 25e3);
    ASSERT_EQ(strcmp(r[0].core, "AI_CORE"), 0);
    ASSERT_EQ(r[0].model, 4294967295u);
    ASSERT_EQ(strcmp(r[1].core, "MIX_AIC"), 0);
    ASSERT_EQ(r[1].blocks, 12);
    ASSERT_EQ(r[1].mix, 24); /* two vector blocks per cube block */
    ASSERT_EQ(strcmp(r[2].name, "measured_op"), 0);
    ASSERT_EQ(strcmp(r[2].core, "AI_VECTOR_CORE"), 0);
    ASSERT(r[2].dur >= 100.0); /* no declared cost: its block's CPU time, which spun 100 us */
    t_teardown();
}

TEST(profile, steps_add_a_step_id_column_and_a_row_per_step)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    char *steps;
    aclprofStepInfo *si = aclprofCreateStepInfo();
    t_setup();
    every_kind(dir, sizeof(dir), si);
    ASSERT_EQ(read_kernels(dir, false, r, 8), 3);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(r[i].step, 1);
    steps = read_out(dir, "step_trace_time.csv");
    ASSERT_STR_CONTAINS(steps, "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
                               "Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n0,1,");
    free(steps);
    aclprofDestroyStepInfo(si);
    t_teardown();
}

/* A step's span includes its end: a kernel issued right after the step's
 * end mark on the same stream starts at the very instant the step ends (a
 * mark takes no modelled time) and is the step's; one issued after a
 * second kernel is not. */
TEST(profile, a_kernel_starting_at_its_steps_end_is_in_the_step)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    aclrtStream s;
    aclprofStepInfo *si = aclprofCreateStepInfo();
    aclrtFuncHandle k = cost_kernel("step_edge_op", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclprofGetStepTimestamp(si, ACL_STEP_START, s));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclprofGetStepTimestamp(si, ACL_STEP_END, s));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0); /* starts when the step ends */
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0); /* starts 10 us later */
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 8), 3);
    ASSERT_NEAR(r[1].start, r[0].start + r[0].dur);
    ASSERT_EQ(r[0].step, 1);
    ASSERT_EQ(r[1].step, 1);
    ASSERT(r[2].step != 1);
    ASSERT_OK(aclrtDestroyStream(s));
    aclprofDestroyStepInfo(si);
    t_teardown();
}

/* A kernel record destroyed with its binary and reused (same slot, a new
 * generation) for another kernel is the new kernel in the profile, also
 * when the launch right before was the old kernel's (the profiler's
 * last-kernel shortcut compares the generation too). */
TEST(profile, a_reused_kernel_record_is_profiled_under_its_new_name)
{
    const char *path = ACLCPU_TEST_KERNELS;
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle first = NULL, next = NULL;
    aclrtStream s;
    int32_t *x = NULL;
    aclprofConfig *cfg;
    int tries = 0;
    ASSERT_EQ(access(path, R_OK), 0); /* built with the tests */
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&x, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &bin));
    ASSERT_OK(aclrtBinaryGetFunction(bin, "EasyOP", &first));
    ASSERT_OK(aclrtLaunchKernel(first, 1, &x, sizeof(x), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    /* Destroyed slots are reused after a while: load until ShortOP gets
     * EasyOP's old slot (bounded). */
    for (; tries < 1000; tries++) {
        ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &bin));
        ASSERT_OK(aclrtBinaryGetFunction(bin, "ShortOP", &next));
        if ((uint32_t)(uintptr_t)next == (uint32_t)(uintptr_t)first)
            break;
        ASSERT_OK(aclrtBinaryUnLoad(bin));
    }
    ASSERT(tries < 1000);
    ASSERT(next != first); /* the same slot, a new generation */
    ASSERT_OK(aclrtLaunchKernel(next, 1, &x, sizeof(x), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_EQ(strcmp(r[0].name, "EasyOP"), 0);
    ASSERT_EQ(strcmp(r[1].name, "ShortOP"), 0);
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    ASSERT_OK(aclrtFree(x));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(profile, block_dim_switch_writes_the_older_column_names)
{
    char dir[T_PATH_CAP] = "";
    char *csv;
    setenv("ACLCPU_PROFILE_BLOCK_DIM", "1", 1);
    t_setup();
    every_kind(dir, sizeof(dir), NULL);
    csv = read_out(dir, "kernel_details.csv");
    ASSERT_STR_CONTAINS(csv, ",Block Dim,Mix Block Dim,");
    ASSERT(strstr(csv, "Block Num") == NULL);
    free(csv);
    t_teardown();
}

/* What Ascend's analysis tools read: OP State static (aclcpu's kernels keep
 * the shapes they were launched with), an empty Step without marked steps,
 * op_statistic.csv per (OP Type, Core Type), and profiler_info_0.json beside
 * ASCEND_PROFILER_OUTPUT naming rank 0 and the collection's settings. */
TEST(profile, files_ascend_tools_read_have_op_state_empty_step_op_statistic_and_profiler_info)
{
    char dir[T_PATH_CAP] = "", path[T_PATH_CAP + 64];
    char *csv, *steps, *stat, *info;
    FILE *f;
    long n;
    t_setup();
    every_kind(dir, sizeof(dir), NULL);
    csv = read_out(dir, "kernel_details.csv");
    ASSERT_STR_CONTAINS(csv, ",cube_op,cube_op,static,AI_CORE,");
    ASSERT(strstr(csv, ",N/A,AI_") == NULL);
    free(csv);
    steps = read_out(dir, "step_trace_time.csv");
    ASSERT_STR_CONTAINS(steps, "Preparing\n0,,"); /* no step marked: empty, not 0 */
    free(steps);
    stat = read_out(dir, "op_statistic.csv");
    ASSERT(stat != NULL);
    ASSERT(strncmp(stat, "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n",
                   85) == 0);
    ASSERT_STR_CONTAINS(stat, "\ncube_op,AI_CORE,1,10.000,10.000,10.000,10.000,");
    ASSERT_STR_CONTAINS(stat, "\nmix_op,MIX_AIC,1,20.000,20.000,20.000,20.000,");
    free(stat);
    snprintf(path, sizeof(path), "%s/profiler_info_0.json", dir);
    f = fopen(path, "rb");
    ASSERT(f != NULL);
    info = calloc(1, 4096);
    ASSERT(info != NULL);
    n = (long)fread(info, 1, 4095, f);
    fclose(f);
    ASSERT(n > 0);
    ASSERT(json_document_ok(info));
    ASSERT_STR_CONTAINS(info, "\"rank_id\": 0");
    ASSERT_STR_CONTAINS(info, "\"_profiler_level\": \"Level1\"");
    ASSERT_STR_CONTAINS(info, "\"_aic_metrics\": \"ACL_AICORE_NONE\"");
    free(info);
    t_teardown();
}

/* op_statistic.csv: one row per (OP Type, Core Type), so one kernel run on
 * both engines is two rows; each row's Min and Max are the shortest and
 * the longest of its runs, whatever their order (2, 4 then 1 us here). */
TEST(profile, op_statistic_rows_are_per_type_and_core_with_the_runs_min_and_max)
{
    char dir[T_PATH_CAP] = "";
    aclrtFuncHandle k;
    aclrtStream s;
    aclprofConfig *cfg;
    char *stat;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    k = cost_kernel("op", 0, 48, 0, 0); /* 48 / blocks us */
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 12, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 48, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    stat = read_out(dir, "op_statistic.csv");
    ASSERT(stat != NULL);
    ASSERT_STR_CONTAINS(stat, "\nop,AI_VECTOR_CORE,3,7.000,1.000,2.333,4.000,");
    ASSERT_STR_CONTAINS(stat, "\nop,AI_CORE,1,2.000,2.000,2.000,2.000,");
    free(stat);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* trace_view.json escapes every control character of a name as \u00XX,
 * the last one (0x1f) too, so the file stays JSON. */
TEST(profile, trace_view_escapes_every_control_character_of_a_name)
{
    char dir[T_PATH_CAP] = "";
    aclrtFuncHandle k;
    aclrtStream s;
    aclprofConfig *cfg;
    char *trace;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    k = cost_kernel("ctl\x1f\x01op", 0, 48, 0, 0);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    trace = read_out(dir, "trace_view.json");
    ASSERT(trace != NULL);
    ASSERT_STR_CONTAINS(trace, "\"ctl\\u001f\\u0001op\"");
    ASSERT(json_document_ok(trace));
    free(trace);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* summary.json lists the kernels modelled from their measured CPU time (no
 * declared cost), with their launches and the spread of their times; kernels
 * with a declared cost are not listed. */
TEST(profile, summary_lists_kernels_modelled_from_measured_cpu_time)
{
    char dir[T_PATH_CAP] = "";
    char *sum, *list;
    t_setup();
    every_kind(dir, sizeof(dir), NULL);
    sum = read_out(dir, "summary.json");
    ASSERT(json_document_ok(sum));
    list = strstr(sum, "\"measured_kernels\": [");
    ASSERT(list != NULL);
    ASSERT_STR_CONTAINS(list, "{\"name\": \"measured_op\", \"engine\": \"AI_VECTOR_CORE\", \"launches\": 1, \"min_us\": ");
    ASSERT(json_num(list, "min_us") >= 100.0); /* it spun 100 us */
    ASSERT(json_num(list, "max_us") >= json_num(list, "min_us"));
    *strstr(list, "]") = '\0';
    ASSERT(strstr(list, "cube_op") == NULL); /* declared: not listed */
    free(sum);
    t_teardown();
}

/* A launch takes the cost declared for its kernel when it is issued: a
 * cost changed between two launches of one kernel times the second with
 * the new cost (10 us, then 20 us). */
TEST(profile, a_launch_takes_the_kernel_cost_in_force_when_issued)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s;
    aclrtFuncHandle k = cost_kernel("recosted", 10, 0, 0, 0);
    aclcpuKernelCost c;
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    memset(&c, 0, sizeof(c));
    c.usFixed = 20;
    ASSERT_OK(aclcpuSetKernelCost(k, &c));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[0].dur, 10);
    ASSERT_NEAR(r[1].dur, 20);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Spins for the microseconds its argument says. */
static void k_spin_args(void *args)
{
    uint32_t us;
    memcpy(&us, args, sizeof(us));
    t_busy_ns((uint64_t)us * 1000);
}

/* measured_kernels: one entry per (name, engine), so a kernel run on both
 * engines is two; min_us and max_us are its shortest and longest runs, not
 * the first or last (a 300 us run, then a 100 us one: min <= avg <= max,
 * whichever order they took). */
TEST(profile, summary_measured_kernels_are_per_name_and_engine_with_their_spread)
{
    char dir[T_PATH_CAP] = "";
    aclrtFuncHandle k = t_kernel("spin_op", k_spin_args);
    aclrtStream s;
    aclprofConfig *cfg;
    uint32_t us;
    char *sum, *aiv, *aic;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    us = 300;
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, &us, sizeof(us));
    us = 100;
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, &us, sizeof(us));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, &us, sizeof(us));
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    aiv = strstr(sum, "{\"name\": \"spin_op\", \"engine\": \"AI_VECTOR_CORE\", \"launches\": 2, \"min_us\": ");
    aic = strstr(sum, "{\"name\": \"spin_op\", \"engine\": \"AI_CORE\", \"launches\": 1, \"min_us\": ");
    ASSERT(aiv != NULL && aic != NULL);
    ASSERT(json_num(aiv, "min_us") >= 100.0);
    ASSERT(json_num(aiv, "max_us") >= 300.0);
    ASSERT(json_num(aiv, "min_us") <= json_num(aiv, "avg_us"));
    ASSERT(json_num(aiv, "avg_us") <= json_num(aiv, "max_us"));
    free(sum);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* top_kernels: one entry per (name, engine), with its own count and total. */
TEST(profile, summary_top_kernels_are_per_name_and_engine)
{
    char dir[T_PATH_CAP] = "";
    aclrtFuncHandle k;
    aclrtStream s;
    aclprofConfig *cfg;
    char *sum;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    k = cost_kernel("both_op", 0, 48, 0, 0); /* 48 / blocks us */
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    ASSERT_STR_CONTAINS(sum, "{\"name\": \"both_op\", \"count\": 2, \"total_us\": 4.000, \"avg_us\": 2.000, "
                             "\"engine\": \"AI_VECTOR_CORE\"}");
    ASSERT_STR_CONTAINS(sum, "{\"name\": \"both_op\", \"count\": 1, \"total_us\": 2.000, \"avg_us\": 2.000, "
                             "\"engine\": \"AI_CORE\"}");
    free(sum);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Without fork/join structure the main stream is the busiest; a tie goes
 * to the first stream (the lower id), not the later one. */
TEST(profile, summary_main_stream_by_busy_time_goes_to_the_first_of_a_tie)
{
    char dir[T_PATH_CAP] = "", want[128];
    aclrtFuncHandle k;
    aclrtStream s1, s2;
    aclprofConfig *cfg;
    int32_t id1 = -1, id2 = -1;
    char *sum;
    open_two(&s1, &s2);
    ASSERT_OK(aclrtStreamGetId(s1, &id1));
    ASSERT_OK(aclrtStreamGetId(s2, &id2));
    ASSERT(id1 < id2);
    k = cost_kernel("tie_op", 0, 48, 0, 0);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    snprintf(want, sizeof(want), "\"main_stream\": {\"stream_id\": %d, \"by\": \"busy_time\"}", (int)id1);
    ASSERT_STR_CONTAINS(sum, want);
    free(sum);
    close_two(s1, s2);
}

/* ---- fork/join episodes: the main stream by structure (services/episodes.c) ------------------------- */

enum fj_join { FJ_EARLY, FJ_LATE, FJ_NONE };

/* A fork/join program: per iteration, main runs pre (10 us), records the
 * fork, side waits for it and runs side_op (50 us, or 150 us when the side
 * is busier than main's 120 us; no declared cost when undeclared: it spins
 * 100 us of CPU), side records the join; main waits for it right away
 * (early), after its dominator (late, 100 us) or never, then runs tail
 * (10 us). With steps, each iteration is a step marked on main; with a copy
 * stream, a third stream copies (5 us) before each iteration and main
 * waits for it, then frees the buffer. Returns summary.json (malloc'd) and
 * the main and side stream ids. */
struct fj_case {
    enum fj_join join;
    int iterations;
    bool steps, side_busier, undeclared, copy_stream;
};

static char *fork_join_summary(const struct fj_case *c, int32_t *main_id, int32_t *side_id)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream mainst, side, copy;
    aclrtEvent fork, join, ready, freed;
    aclprofStepInfo *si[4] = {NULL, NULL, NULL, NULL};
    aclrtFuncHandle pre = cost_kernel("fj_pre", 10, 0, 0, 0), dom = cost_kernel("fj_dominator", 100, 0, 0, 0);
    aclrtFuncHandle tail = cost_kernel("fj_tail", 10, 0, 0, 0), cp = cost_kernel("fj_copy", 5, 0, 0, 0);
    aclrtFuncHandle sop = c->undeclared ? t_kernel("fj_side_undeclared", k_spin_100us)
                                        : cost_kernel("fj_side", c->side_busier ? 150 : 50, 0, 0, 0);
    aclprofConfig *cfg;
    ASSERT(c->iterations <= 4);
    ASSERT_OK(aclrtCreateStream(&mainst));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateStream(&copy));
    ASSERT_OK(aclrtStreamGetId(mainst, main_id));
    ASSERT_OK(aclrtStreamGetId(side, side_id));
    ASSERT_OK(aclrtCreateEvent(&fork));
    ASSERT_OK(aclrtCreateEvent(&join));
    ASSERT_OK(aclrtCreateEvent(&ready));
    ASSERT_OK(aclrtCreateEvent(&freed));
    cfg = prof_start(dir, sizeof(dir));
    for (int i = 0; i < c->iterations; i++) {
        if (c->steps) {
            si[i] = aclprofCreateStepInfo();
            ASSERT_OK(aclprofGetStepTimestamp(si[i], ACL_STEP_START, mainst));
        }
        if (c->copy_stream) {
            launch(cp, 8, ACL_RT_ENGINE_TYPE_AIV, 0, copy, NULL, 0);
            ASSERT_OK(aclrtRecordEvent(ready, copy));
            ASSERT_OK(aclrtStreamWaitEvent(mainst, ready));
        }
        launch(pre, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
        ASSERT_OK(aclrtRecordEvent(fork, mainst));
        ASSERT_OK(aclrtStreamWaitEvent(side, fork));
        launch(sop, 16, ACL_RT_ENGINE_TYPE_AIV, 0, side, NULL, 0); /* vector cores: no contention */
        ASSERT_OK(aclrtRecordEvent(join, side));
        if (c->join == FJ_EARLY)
            ASSERT_OK(aclrtStreamWaitEvent(mainst, join));
        launch(dom, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
        if (c->join == FJ_LATE)
            ASSERT_OK(aclrtStreamWaitEvent(mainst, join));
        launch(tail, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, NULL, 0);
        if (c->copy_stream) {
            ASSERT_OK(aclrtRecordEvent(freed, mainst));
            ASSERT_OK(aclrtStreamWaitEvent(copy, freed));
        }
        if (c->steps)
            ASSERT_OK(aclprofGetStepTimestamp(si[i], ACL_STEP_END, mainst));
    }
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    for (int i = 0; i < 4; i++)
        if (si[i] != NULL)
            aclprofDestroyStepInfo(si[i]);
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyEvent(ready));
    ASSERT_OK(aclrtDestroyEvent(freed));
    ASSERT_OK(aclrtDestroyStream(mainst));
    ASSERT_OK(aclrtDestroyStream(side));
    ASSERT_OK(aclrtDestroyStream(copy));
    return read_out(dir, "summary.json");
}

/* "main_stream": {"stream_id": id, "by": "fork_join"} */
static void expect_main(const char *sum, int32_t id)
{
    char want[96];
    snprintf(want, sizeof(want), "\"main_stream\": {\"stream_id\": %d, \"by\": \"fork_join\"}", (int)id);
    ASSERT_STR_CONTAINS(sum, want);
}

/* The whole run's total of the episodes: its count and verdict. */
static void expect_run(const char *sum, int episodes, const char *verdict)
{
    const char *run = strstr(sum, "\"episode_totals\": {\"run\": {");
    char want[64];
    ASSERT(run != NULL);
    ASSERT_EQ((int)json_num(run, "episodes"), episodes);
    snprintf(want, sizeof(want), "\"verdict\": \"%s\"}", verdict);
    ASSERT(strstr(run, want) != NULL && strstr(run, want) < strstr(run, ", \"steps\""));
}

/* Three iterations joined right after each fork: serialised. Judged per
 * episode, every one is fake; the whole run is fake, never "1.00 real". */
TEST(profile, early_join_serialised_three_iterations_is_fake_in_every_episode)
{
    struct fj_case c = {FJ_EARLY, 3, false, false, false, false};
    int32_t m, sd;
    char *sum;
    t_setup();
    sum = fork_join_summary(&c, &m, &sd);
    ASSERT(json_document_ok(sum));
    expect_main(sum, m);
    expect_run(sum, 3, "fake");
    ASSERT_EQ((int)json_num(strstr(sum, "\"episode_totals\""), "early_joins"), 3);
    ASSERT_EQ((int)json_num(strstr(sum, "\"episode_totals\""), "fake"), 3);
    ASSERT_STR_CONTAINS(sum, "\"judged_on\": \"episodes\"");
    ASSERT_NEAR(json_num(strstr(sum, "\"overlap\": ["), "overlap_pct"), 0);
    free(sum);
    t_teardown();
}

/* Joined after the dominator: every episode real. The side busier than
 * main (150 us against 120) stays the side: main is the forking stream. */
TEST(profile, late_join_is_real_and_main_is_the_forking_stream_even_when_the_side_is_busier)
{
    struct fj_case c = {FJ_LATE, 3, false, true, false, false};
    int32_t m, sd;
    char *sum;
    char want[64];
    t_setup();
    sum = fork_join_summary(&c, &m, &sd);
    expect_main(sum, m);
    expect_run(sum, 3, "real");
    snprintf(want, sizeof(want), "{\"main_stream\": %d, \"side_stream\": %d, \"judged_on\": \"episodes\"", (int)m,
             (int)sd);
    ASSERT_STR_CONTAINS(sum, want);
    ASSERT_STR_CONTAINS(strstr(sum, "\"overlap\": ["), "\"name\": \"fj_dominator\"");
    free(sum);
    t_teardown();
}

/* Never joined: each episode says so (join_event null), and main is still
 * the stream that forks. */
TEST(profile, fork_without_join_is_an_episode_with_no_join_on_the_forking_main)
{
    struct fj_case c = {FJ_NONE, 2, false, false, false, false};
    int32_t m, sd;
    char *sum;
    t_setup();
    sum = fork_join_summary(&c, &m, &sd);
    ASSERT(json_document_ok(sum));
    expect_main(sum, m);
    ASSERT_EQ((int)json_num(strstr(sum, "\"episode_totals\""), "never_joined"), 2);
    ASSERT_STR_CONTAINS(sum, "\"join_event\": null, \"join_recorded_us\": null");
    free(sum);
    t_teardown();
}

/* With step marks, each step has its total: three steps, one episode each,
 * every one fake (early joins), and the steps' stream is main. */
TEST(profile, step_marks_give_a_total_per_step)
{
    struct fj_case c = {FJ_EARLY, 3, true, false, false, false};
    int32_t m, sd;
    char *sum, *steps;
    t_setup();
    sum = fork_join_summary(&c, &m, &sd);
    ASSERT(json_document_ok(sum));
    expect_main(sum, m);
    steps = strstr(sum, "\"steps\": [");
    ASSERT(steps != NULL);
    for (int i = 1; i <= 3; i++) {
        char want[96];
        snprintf(want, sizeof(want), "{\"step\": %d, \"episodes\": 1, \"real\": 0, \"partial\": 0, \"fake\": 1", i);
        ASSERT_STR_CONTAINS(steps, want);
    }
    ASSERT_STR_CONTAINS(sum, "\"side_stream\": ");
    ASSERT_STR_CONTAINS(strstr(sum, "\"episodes\": ["), "\"step\": 2,");
    free(sum);
    t_teardown();
}

/* A third stream copies for main: main forks and joins the most episodes,
 * so it stays main; the side's episodes are real (late join). */
TEST(profile, three_streams_main_is_the_stream_that_joins_the_most)
{
    struct fj_case c = {FJ_LATE, 3, false, false, false, true};
    int32_t m, sd;
    char *sum;
    char want[64];
    t_setup();
    sum = fork_join_summary(&c, &m, &sd);
    ASSERT(json_document_ok(sum));
    expect_main(sum, m);
    snprintf(want, sizeof(want), "{\"main_stream\": %d, \"side_stream\": %d, \"judged_on\": \"episodes\"", (int)m,
             (int)sd);
    ASSERT_STR_CONTAINS(sum, want);
    ASSERT_STR_CONTAINS(strstr(sum, want), "\"verdict\": \"real\"}");
    free(sum);
    t_teardown();
}

/* A side kernel without a declared cost (modelled from the CPU time it
 * spins) gets the same verdicts: early fake, late real. */
TEST(profile, undeclared_side_cost_gets_the_same_verdicts)
{
    struct fj_case early = {FJ_EARLY, 2, false, false, true, false}, late = {FJ_LATE, 2, false, false, true, false};
    int32_t m, sd;
    char *sum;
    t_setup();
    sum = fork_join_summary(&early, &m, &sd);
    expect_main(sum, m);
    expect_run(sum, 2, "fake");
    free(sum);
    sum = fork_join_summary(&late, &m, &sd);
    expect_main(sum, m);
    expect_run(sum, 2, "real");
    free(sum);
    t_teardown();
}

/* ---- host syncs, model runs, ACLCPU_PROFILE, results ------------------------------------------------ */

TEST(profile, a_task_issued_after_a_host_sync_starts_after_what_the_sync_waited_for)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    aclrtFuncHandle k = cost_kernel("k", 50, 0, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s1)); /* the host waits: the next launch is issued at 50 us */
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s2));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[1].start, 50);
    ASSERT(r[1].stream != r[0].stream);
    close_two(s1, s2);
}

TEST(profile, model_run_kernels_carry_the_model_id_and_follow_the_run)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[16];
    aclrtStream s, side, cs;
    aclrtEvent fork, join;
    aclmdlRI model;
    uint32_t id;
    aclrtFuncHandle k = cost_kernel("k", 10, 0, 0, 0), pre = cost_kernel("pre", 5, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&cs));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateEventExWithFlag(&fork, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtCreateEventExWithFlag(&join, ACL_EVENT_SYNC));
    /* Captured: cs runs k, forks k onto side, joins, runs k. */
    ASSERT_OK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, cs, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(fork, cs));
    ASSERT_OK(aclrtStreamWaitEvent(side, fork));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, side, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(join, side));
    ASSERT_OK(aclrtStreamWaitEvent(cs, join));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, cs, NULL, 0);
    ASSERT_OK(aclmdlRICaptureEnd(cs, &model));
    ASSERT_OK(aclmdlRIGetId(model, &id));
    cfg = prof_start(dir, sizeof(dir));
    launch(pre, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclmdlRIExecuteAsync(model, s));
    ASSERT_OK(aclmdlRIExecuteAsync(model, s));
    launch(pre, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 16), 8);
    ASSERT_EQ(r[0].model, 4294967295u);
    ASSERT_NEAR(r[0].start, 0);
    for (int i = 1; i <= 6; i++)
        ASSERT_EQ(r[i].model, id);
    /* Run 1 after pre: k, then the forked k on the side lane, then the k
     * after the join; run 2 after run 1; then the caller's stream. */
    ASSERT_NEAR(r[1].start, 5);
    ASSERT_NEAR(r[2].start, 15);
    ASSERT_NEAR(r[3].start, 25);
    ASSERT_NEAR(r[4].start, 35); /* run 2 after run 1 */
    ASSERT_NEAR(r[6].start, 55);
    ASSERT_EQ(r[7].model, 4294967295u);
    ASSERT_NEAR(r[7].start, 65);
    ASSERT(r[2].stream != r[1].stream);
    ASSERT_OK(aclmdlRIDestroy(model));
    ASSERT_OK(aclrtDestroyEvent(fork));
    ASSERT_OK(aclrtDestroyEvent(join));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(cs));
    ASSERT_OK(aclrtDestroyStream(side));
    t_teardown();
}

TEST(profile, aclcpu_profile_env_profiles_the_whole_run_without_code)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s;
    aclrtFuncHandle k = cost_kernel("envk", 7, 0, 0, 0);
    new_dir(dir, sizeof(dir));
    setenv("ACLCPU_PROFILE", dir, 1);
    set_sync_costs();
    t_setup();
    ASSERT_RC(aclprofInit("/tmp", 4), ACL_ERROR_PROF_ALREADY_RUN); /* as with msprof running */
    ASSERT_OK(aclrtCreateStream(&s));
    launch(k, 4, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(k, 4, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT(read_out(dir, "kernel_details.csv") == NULL); /* written at aclFinalize */
    t_teardown();
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[1].start, 7);
}

TEST(profile, an_unwritable_env_directory_warns_and_the_program_runs)
{
    aclrtStream s;
    aclrtFuncHandle k = cost_kernel("k", 7, 0, 0, 0);
    t_capture_log("1");
    setenv("ACLCPU_PROFILE", "/proc/aclcpu-cannot-be-here", 1);
    t_setup();
    ASSERT(t_log_shows("ACLCPU_PROFILE: the directory"));
    ASSERT_OK(aclrtCreateStream(&s));
    launch(k, 4, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Runs aclInit .. aclFinalize in a child with ACLCPU_PROFILE=dir and the
 * log off, and returns what it wrote to stderr (exit status in *status). */
static void env_run_stderr(const char *dir, char *out, size_t cap, int *status)
{
    int fds[2];
    size_t len = 0;
    ssize_t n;
    pid_t pid;
    ASSERT_EQ(pipe(fds), 0);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        setenv("ACLCPU_PROFILE", dir, 1);
        setenv("ASCEND_GLOBAL_LOG_LEVEL", "4", 1);
        unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
        _exit(aclInit(NULL) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS ? 0 : 3);
    }
    close(fds[1]);
    while (len + 1 < cap && (n = read(fds[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)n;
    out[len] = '\0';
    close(fds[0]);
    ASSERT_EQ(waitpid(pid, status, 0), pid);
}

/* The user asked for a profile: when it cannot be written, stderr says
 * which path, why, and that none will come, though the log is off. A
 * parent that is a file (ENOTDIR) fails the same for root. */
TEST(profile, an_unwritable_env_directory_says_so_on_stderr_with_the_log_off)
{
    char dir[T_PATH_CAP] = "", file[T_PATH_CAP + 16], bad[T_PATH_CAP + 32], err[2048];
    int status;
    FILE *f;
    new_dir(dir, sizeof(dir));
    snprintf(file, sizeof(file), "%s/plain-file", dir);
    ASSERT((f = fopen(file, "w")) != NULL);
    fclose(f);
    snprintf(bad, sizeof(bad), "%s/prof", file);
    env_run_stderr(bad, err, sizeof(err), &status);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT(strstr(err, bad) != NULL);
    ASSERT(strstr(err, strerror(ENOTDIR)) != NULL);
    ASSERT(strstr(err, "no profile will be written") != NULL);
    env_run_stderr("/proc/aclcpu-cannot-be-here/prof", err, sizeof(err), &status);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT(strstr(err, "/proc/aclcpu-cannot-be-here/prof") != NULL);
    ASSERT(strstr(err, "no profile will be written") != NULL);
    env_run_stderr(dir, err, sizeof(err), &status); /* a writable one: silent */
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_EQ(err[0], '\0');
}

static void k_scale(void *args)
{
    float *v = *(float **)args;
    uint32_t b = aclcpuGetBlockIdx();
    for (int i = 0; i < 64; i++)
        v[b * 64 + i] = v[b * 64 + i] * 2.0f + (float)b;
}

/* Runs the same small computation, profiled or not, and returns a checksum. */
static double compute(bool profiled)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream s;
    float *v, host[8 * 64];
    double sum = 0;
    aclrtFuncHandle k = t_kernel("scale", k_scale);
    aclprofConfig *cfg = NULL;
    t_setup();
    for (int i = 0; i < 8 * 64; i++)
        host[i] = (float)i;
    ASSERT_OK(aclrtMalloc((void **)&v, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpy(v, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtCreateStream(&s));
    if (profiled)
        cfg = prof_start(dir, sizeof(dir));
    for (int r = 0; r < 10; r++)
        ASSERT_OK(aclrtLaunchKernel(k, 8, &v, sizeof(v), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    if (profiled)
        prof_stop(cfg);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), v, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < 8 * 64; i++)
        sum += host[i] * (i + 1);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(v));
    t_teardown();
    return sum;
}

TEST(profile, profiling_does_not_change_what_the_program_computes)
{
    double plain = compute(false), profiled = compute(true);
    ASSERT(plain == profiled);
}

/* ---- the profile's storage grows outside the locks ------------------------------------- */

/* Runs build/tests/prof-session-check part (the profiler alone, built with
 * the lock checks on, tests/CMakeLists.txt) and returns its exit status;
 * out gets what it printed. */
static int session_check(const char *part, char *out, size_t cap)
{
    int fds[2], status;
    size_t len = 0;
    ssize_t n;
    pid_t pid;
    ASSERT_EQ(pipe(fds), 0);
    pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        execl(ACLCPU_BUILD_DIR "/tests/prof-session-check", "prof-session-check", part, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    while (len + 1 < cap && (n = read(fds[0], out + len, cap - 1 - len)) > 0)
        len += (size_t)n;
    out[len] = '\0';
    close(fds[0]);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    return status;
}

/* Issuers hold their stream's spinlock around prof_issue, and the profile
 * takes its own: three threads issue 18000 tasks of every kind the way the
 * runtime does (prof_prepare, then prof_issue under a spinlock), enough to
 * grow the records, dep pool, side records, name arena and both key tables
 * several times. With the lock checks on, one allocation (or free) under a
 * spinlock aborts the child; and nothing may be dropped. */
TEST(profile, the_profile_grows_outside_every_spinlock_in_a_burst_of_issuers)
{
    char out[8192];
    int status = session_check("burst", out, sizeof(out));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        test_fail(__FILE__, __LINE__, "prof-session-check burst failed (status %d):\n%s", status, out);
    ASSERT(strstr(out, "lock check failed") == NULL);
}

/* When the locked path finds no room (issues that outran prof_prepare),
 * it allocates nothing: the task gets no entry, the count of dropped ones
 * is told on stderr at the stop, and the next prof_prepare grows again. */
TEST(profile, tasks_the_profile_has_no_room_for_are_dropped_counted_and_told)
{
    char out[8192];
    int status = session_check("starve", out, sizeof(out));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        test_fail(__FILE__, __LINE__, "prof-session-check starve failed (status %d):\n%s", status, out);
    ASSERT_STR_CONTAINS(out, "were dropped and told");
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

#define BURST_THREADS 3
#define BURST_LAUNCHES 4500 /* per thread: 13500 entries; a session starts with room for 8191 */
#define BURST_KERNELS 300   /* the kernel table doubles twice; their names fill an arena chunk */

struct burst {
    aclrtContext ctx;
    aclrtStream s;
    const aclrtFuncHandle *k;
    int index;
    _Atomic int failed;
};

static void *burst_thread(void *arg)
{
    static const char mark[] = "a marker of the burst, copied into the profile each time";
    struct burst *b = arg;
    uint64_t word = 0;
    void *args = &word;
    if (aclrtSetCurrentContext(b->ctx) != ACL_SUCCESS || aclrtCreateStream(&b->s) != ACL_SUCCESS) {
        atomic_fetch_add(&b->failed, 1);
        return NULL;
    }
    for (int i = 0; i < BURST_LAUNCHES; i++) {
        const aclrtFuncHandle k = b->k[(i * 7 + b->index * 100) % BURST_KERNELS];
        if (aclrtLaunchKernel(k, 1, &args, sizeof(args), b->s) != ACL_SUCCESS)
            atomic_fetch_add(&b->failed, 1);
        if (i % 50 == 0 && aclprofMarkEx(mark, sizeof(mark) - 1, b->s) != ACL_SUCCESS)
            atomic_fetch_add(&b->failed, 1);
        if (i % 1500 == 1499 && aclrtSynchronizeStream(b->s) != ACL_SUCCESS)
            atomic_fetch_add(&b->failed, 1);
    }
    if (aclrtSynchronizeStream(b->s) != ACL_SUCCESS || aclrtDestroyStream(b->s) != ACL_SUCCESS)
        atomic_fetch_add(&b->failed, 1);
    return NULL;
}

/* The same through the runtime: threads launching on their streams, with
 * markers and syncs, while the profile grows several times. Every launch
 * keeps its row (the runtime prepares before each issue, so none is
 * dropped); in a Debug build, where the lock checks are on, an allocation
 * under the stream's or the profile's spinlock aborts the test. */
TEST(profile, a_burst_of_launches_that_grows_the_profile_keeps_every_kernel)
{
    char dir[T_PATH_CAP] = "", name[160];
    static aclrtFuncHandle k[BURST_KERNELS];
    struct burst b[BURST_THREADS];
    pthread_t th[BURST_THREADS];
    aclprofConfig *cfg;
    char *csv;
    long rows = -1;
    t_setup();
    for (int i = 0; i < BURST_KERNELS; i++) {
        snprintf(name, sizeof(name), "burst_%03d_%s", i,
                 "a_kernel_name_long_enough_that_three_hundred_of_them_fill_most_of_an_arena_chunk_of_the_profile");
        k[i] = t_kernel(name, k_noop);
    }
    cfg = prof_start(dir, sizeof(dir));
    for (int t = 0; t < BURST_THREADS; t++) {
        b[t] = (struct burst){.k = k, .index = t};
        ASSERT_OK(aclrtGetCurrentContext(&b[t].ctx));
        ASSERT_EQ(pthread_create(&th[t], NULL, burst_thread, &b[t]), 0);
    }
    for (int t = 0; t < BURST_THREADS; t++) {
        ASSERT_EQ(pthread_join(th[t], NULL), 0);
        ASSERT_EQ(atomic_load(&b[t].failed), 0);
    }
    prof_stop(cfg);
    t_teardown();
    ASSERT((csv = read_out(dir, "kernel_details.csv")) != NULL);
    for (const char *p = csv; (p = strchr(p, '\n')) != NULL; p++)
        rows++;
    free(csv);
    (void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); /* megabytes: not kept to the end of the case */
    ASSERT_EQ(rows, (long)BURST_THREADS * BURST_LAUNCHES);
}

/* A MIX_AIV kernel's units are its vector blocks in pairs, an odd last
 * block making a unit of its own: 49 blocks are 25 units, one more than
 * the A2's 24 cube cores, so they run in two waves (48 blocks: one). */
static double mix_aiv_duration(uint32_t blocks, unsigned mix_blocks)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    aclrtFuncHandle mix = cost_kernel("mix_aiv_op", 20, 0, 0, 1);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(mix, blocks, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_EQ(r[0].mix, mix_blocks);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    return r[0].dur;
}

TEST(profile, odd_mix_aiv_block_is_a_unit_of_its_own)
{
    ASSERT_NEAR(mix_aiv_duration(48, 24), 20);
    ASSERT_NEAR(mix_aiv_duration(49, 25), 40); /* Mix Block Num too: 25 cube blocks, not 24 */
}

/* A prefetch of exactly L2's size (192 MiB on the A2) stays whole in L2:
 * its reader, after a norm long enough to cover the prefetch, reads
 * nothing from HBM. */
TEST(profile, prefetch_of_exactly_l2_size_stays_in_l2)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream mainst, side;
    aclrtEvent go;
    void *w;
    const uint64_t l2 = 192ull << 20;
    aclrtFuncHandle norm = cost_kernel("long_norm", 400, 0, 0, 0);
    aclrtFuncHandle mm = cost_kernel("l2_matmul", 5, 0, l2, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtMalloc(&w, l2, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtCreateStream(&mainst));
    ASSERT_OK(aclrtCreateStream(&side));
    ASSERT_OK(aclrtCreateEvent(&go));
    cfg = prof_start(dir, sizeof(dir));
    ASSERT_OK(aclrtRecordEvent(go, mainst));
    ASSERT_OK(aclrtStreamWaitEvent(side, go));
    ASSERT_OK(aclrtCmoAsync(w, l2, ACL_RT_CMO_TYPE_PREFETCH, side));
    launch(norm, 48, ACL_RT_ENGINE_TYPE_AIV, 0, mainst, NULL, 0);
    launch(mm, 24, ACL_RT_ENGINE_TYPE_AIC, 0, mainst, &w, sizeof(w));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_NEAR(r[1].dur, 5);
    ASSERT_OK(aclrtDestroyEvent(go));
    ASSERT_OK(aclrtDestroyStream(mainst));
    ASSERT_OK(aclrtDestroyStream(side));
    ASSERT_OK(aclrtFree(w));
    t_teardown();
}

/* A waiting batch-mode kernel holds back a later batch-mode kernel that
 * would fit: on the A2's 48 vector cores, 30 blocks run for 20 us; a
 * 30-block batch kernel waits for them, and a 10-block one issued after it
 * (18 cores are free) waits behind it instead of starting at once. */
TEST(profile, waiting_batch_kernel_holds_back_a_later_one_that_fits)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2, s3;
    aclrtFuncHandle busy = cost_kernel("busy_vec", 20, 0, 0, 0), big = cost_kernel("big_batch", 5, 0, 0, 0),
                    small = cost_kernel("small_batch", 5, 0, 0, 0);
    aclprofConfig *cfg;
    double small_start = -1, big_start = -1;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtCreateStream(&s3));
    cfg = prof_start(dir, sizeof(dir));
    launch(busy, 30, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    launch(big, 30, ACL_RT_ENGINE_TYPE_AIV, 1, s2, NULL, 0);
    launch(small, 10, ACL_RT_ENGINE_TYPE_AIV, 1, s3, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 4), 3);
    for (int i = 0; i < 3; i++) {
        if (strcmp(r[i].name, "small_batch") == 0)
            small_start = r[i].start;
        if (strcmp(r[i].name, "big_batch") == 0)
            big_start = r[i].start;
    }
    ASSERT_NEAR(big_start, 20);
    ASSERT_NEAR(small_start, 20);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    ASSERT_OK(aclrtDestroyStream(s3));
    t_teardown();
}

/* summary.json's per-stream span and its top kernels: a stream running
 * short (10 us), long (30 us), short again spans [0, 50] (its first start
 * is its earliest, not its latest), and the long op, 30 us in all, comes
 * before the short one's 20. */
TEST(profile, summary_stream_span_and_top_kernels_longest_first)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream s;
    aclrtFuncHandle shortk = cost_kernel("short_op", 10, 0, 0, 0), longk = cost_kernel("long_op", 30, 0, 0, 0);
    aclprofConfig *cfg;
    char *sum;
    const char *top, *streams;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(shortk, 8, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(longk, 8, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    launch(shortk, 8, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    streams = strstr(sum, "\"streams\"");
    ASSERT_NEAR(json_num(streams, "first_start_us"), 0);
    ASSERT_NEAR(json_num(streams, "last_end_us"), 50);
    top = strstr(sum, "\"top_kernels\"");
    ASSERT(top != NULL && strstr(top, "long_op") != NULL && strstr(top, "short_op") != NULL);
    ASSERT(strstr(top, "long_op") < strstr(top, "short_op"));
    ASSERT_NEAR(json_num(top, "total_us"), 30);
    free(sum);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* summary.json's top kernels are the ten longest in total: of eleven ops
 * of 10 to 20 us, the 10 us one is left out. */
TEST(profile, summary_top_kernels_are_the_ten_longest)
{
    char dir[T_PATH_CAP] = "";
    char name[16];
    aclrtStream s;
    aclprofConfig *cfg;
    aclrtFuncHandle k[11];
    char *sum, *top, *end;
    int listed = 0;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    for (int i = 0; i < 11; i++) {
        snprintf(name, sizeof(name), "op_%02d", i);
        k[i] = cost_kernel(name, 10 + i, 0, 0, 0);
    }
    cfg = prof_start(dir, sizeof(dir));
    for (int i = 0; i < 11; i++)
        launch(k[i], 8, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    top = strstr(sum, "\"top_kernels\"");
    ASSERT(top != NULL && (end = strchr(top, ']')) != NULL);
    *end = '\0';
    for (const char *p = top; (p = strstr(p, "\"name\": ")) != NULL; p++)
        listed++;
    ASSERT_EQ(listed, 10);
    ASSERT(strstr(top, "op_01") != NULL && strstr(top, "op_10") != NULL);
    ASSERT(strstr(top, "op_00") == NULL);
    free(sum);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A notify wait that holds its stream is one of summary.json's
 * event_waits, as an event wait is: main waits for the notify a side
 * stream records after a 50 us op, 50 us. */
TEST(profile, summary_event_waits_include_notify_waits)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream mainst, side;
    aclrtNotify n = NULL;
    aclrtFuncHandle sop = cost_kernel("side_op", 50, 0, 0, 0);
    aclprofConfig *cfg;
    char *sum;
    const char *waits;
    open_two(&mainst, &side);
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    cfg = prof_start(dir, sizeof(dir));
    launch(sop, 8, ACL_RT_ENGINE_TYPE_AIV, 0, side, NULL, 0);
    ASSERT_OK(aclrtRecordNotify(n, side));
    ASSERT_OK(aclrtWaitAndResetNotify(n, mainst, 0));
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    waits = strstr(sum, "\"event_waits\"");
    ASSERT(waits != NULL && strstr(waits, "wait_us") != NULL);
    ASSERT_NEAR(json_num(waits, "wait_us"), 50);
    free(sum);
    ASSERT_OK(aclrtDestroyNotify(n));
    close_two(mainst, side);
}

/* A profile without fork/join episodes (one stream) judged none: the run's
 * total has no verdict, not the "fake" that an overlap_pct of 0 / 0 gives. */
TEST(profile, episode_totals_without_episodes_have_no_verdict)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream s;
    aclrtFuncHandle k = cost_kernel("lone_op", 10, 0, 0, 0);
    aclprofConfig *cfg;
    char *sum;
    const char *run;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 8, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sum = read_out(dir, "summary.json");
    ASSERT(sum != NULL);
    ASSERT(json_document_ok(sum));
    run = strstr(sum, "\"episode_totals\": {\"run\": {");
    ASSERT(run != NULL);
    ASSERT_EQ((int)json_num(run, "episodes"), 0);
    ASSERT(strstr(run, "\"verdict\": null}") != NULL);
    free(sum);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The measured clock starts at the profile's first issue, not its first
 * start: a lone kernel, handed from the launching thread to a worker,
 * starts after 0 in kernel_details_measured.csv (its issue is 0). The
 * host waits for it by queries, which the profile does not record: a
 * sync's own entry could start before the kernel and hide a clock that
 * began at the first start. */
TEST(profile, measured_clock_starts_at_the_first_issue)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    aclrtFuncHandle k = cost_kernel("lone_op", 5, 0, 0, 0);
    aclprofConfig *cfg;
    aclrtStreamStatus st = ACL_STREAM_STATUS_NOT_READY;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    for (uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS; st != ACL_STREAM_STATUS_COMPLETE && t_now_ns() < end;)
        ASSERT_OK(aclrtStreamQuery(s, &st));
    ASSERT_EQ(st, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtSynchronizeStream(s));
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, true, r, 2), 1);
    ASSERT(r[0].start > 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A msproftx range that is the newest entry when it stops (nothing was
 * recorded inside it) keeps its end: the host spins 5 us on the profile's
 * clock (CLOCK_MONOTONIC, t_now_ns) between start and stop, and the measured trace
 * gives the range at least that long (with its end lost it would last 0). */
TEST(profile, a_range_stopped_with_nothing_recorded_inside_keeps_its_end)
{
    char dir[T_PATH_CAP] = "";
    aclprofConfig *cfg;
    void *stamp;
    uint32_t id = 0;
    char *trace;
    const char *p;
    t_setup();
    cfg = prof_start(dir, sizeof(dir));
    ASSERT((stamp = aclprofCreateStamp()) != NULL);
    ASSERT_OK(aclprofSetStampTraceMessage(stamp, "lone_range", 10));
    ASSERT_OK(aclprofRangeStart(stamp, &id));
    for (uint64_t t0 = t_now_ns(); t_now_ns() - t0 < 5000;) /* the clock moves on: bounded */
        ;
    ASSERT_OK(aclprofRangeStop(id));
    aclprofDestroyStamp(stamp);
    prof_stop(cfg);
    t_teardown();
    ASSERT((trace = read_out(dir, "trace_view_measured.json")) != NULL);
    ASSERT((p = strstr(trace, "\"name\":\"lone_range\"")) != NULL);
    ASSERT((p = strstr(p, "\"dur\":")) != NULL);
    ASSERT(strtod(p + 6, NULL) > 4.99); /* 5 us, but for the rounding of us to 3 places */
    free(trace);
}

/* ---- the chip's laws (docs/model.md) ------------------------------------------------------------ */

#define READ_BYTES 16000000ull /* 16 MB: 10 us at the 910B1's 1600 GB/s */

/* The modelled duration of a kernel reading READ_BYTES alone on the SoC
 * with `blocks` blocks of engine. */
static double read_alone(uint32_t blocks, aclrtEngineType engine)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    t_setup();
    k = costed("reader", 0, 0, 0, READ_BYTES);
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(k, blocks, engine, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    return r[0].dur;
}

/* HBM saturates with 15 of the 24 cube cores (30 of the 48 vector cores):
 * a memory-bound op loses bandwidth only below that, so half the cores
 * cost 1.25x, not 2x. */
TEST(profile, memory_bound_op_at_half_the_cores_costs_between_1_2_and_1_6_times)
{
    double all = read_alone(24, ACL_RT_ENGINE_TYPE_AIC), half = read_alone(12, ACL_RT_ENGINE_TYPE_AIC);
    ASSERT_NEAR(all, 10);
    ASSERT_NEAR(half, 12.5);
    ASSERT(half / all >= 1.2 && half / all <= 1.6);
    ASSERT_NEAR(read_alone(6, ACL_RT_ENGINE_TYPE_AIC), 25); /* a quarter: 2.5x */
    /* The vector pool saturates at the same share of its cores. */
    ASSERT_NEAR(read_alone(48, ACL_RT_ENGINE_TYPE_AIV), 10);
    ASSERT_NEAR(read_alone(24, ACL_RT_ENGINE_TYPE_AIV), 12.5);
}

/* The boundary: exactly the saturating count reads at full bandwidth, one
 * core fewer does not. */
TEST(profile, hbm_saturates_at_exactly_the_socs_core_count)
{
    ASSERT_NEAR(read_alone(15, ACL_RT_ENGINE_TYPE_AIC), 10);
    ASSERT_NEAR(read_alone(16, ACL_RT_ENGINE_TYPE_AIC), 10);
    ASSERT_NEAR(read_alone(14, ACL_RT_ENGINE_TYPE_AIC), READ_BYTES / (14.0 / 15 * 1600e3));
}

/* A MIX_AIV kernel's units (a cube core and two vector cores each) read
 * at the cube pool's share of HBM, 1/15 each, not the vector pool's 1/30:
 * 12 vector blocks are 6 units reading 16 MB in 25 us, as 6 cube blocks
 * do (at 1/30, 50 us). */
TEST(profile, a_mix_kernels_units_read_hbm_at_the_cube_pools_share)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    t_setup();
    k = costed_mix("mix_reader", 0, 0, 0, READ_BYTES, 1);
    ASSERT_OK(aclrtCreateStream(&s));
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 12, ACL_RT_ENGINE_TYPE_AIV, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_EQ(r[0].mix, 6);
    ASSERT_NEAR(r[0].dur, 25);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Two kernels of 12 blocks on two streams read at once: 24 readers share
 * the whole bandwidth, so both take as long as 32 MB at 1600 GB/s. */
TEST(profile, concurrent_kernels_of_all_streams_share_the_hbm_total)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s1, s2;
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    k = costed("reader", 0, 0, 0, READ_BYTES);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    launch(k, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 2);
    ASSERT_NEAR(r[0].start, 0);
    ASSERT_NEAR(r[1].start, 0);
    ASSERT_NEAR(r[0].dur, 2 * READ_BYTES / 1600e3);
    ASSERT_NEAR(r[1].dur, 2 * READ_BYTES / 1600e3);
    close_two(s1, s2);
}

/* FA from the published figures: 91.8 us tiled for 24 cores, 118 for 12,
 * i.e. {usLaunch 65.6, usTotal 628.8}. Launched for 24 blocks while
 * another stream holds 12 cube cores, it runs in two waves and pays its
 * launch once: 118 us, as tiled for 12. The same cost declared per block
 * (usFixed) pays it in each wave: 183.6 us. */
TEST(profile, op_tiled_beyond_the_free_cores_pays_its_launch_cost_once)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    aclrtStream holder, s;
    aclrtFuncHandle hold, fa, fa_per_block;
    aclprofConfig *cfg;
    int n;
    open_two(&holder, &s);
    hold = costed("holder", 0, 1000, 0, 0);
    fa = costed("fa", 65.6, 0, 628.8, 0);
    fa_per_block = costed("fa_per_block", 0, 65.6, 628.8, 0);
    cfg = prof_start(dir, sizeof(dir));
    launch(hold, 12, ACL_RT_ENGINE_TYPE_AIC, 0, holder, NULL, 0);
    launch(fa, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    launch(fa, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0); /* the second launch pays its own, once */
    launch(fa, 12, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0); /* tiled to the free cores */
    launch(fa_per_block, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    n = read_kernels(dir, false, r, 8);
    ASSERT_EQ(n, 5);
    for (int i = 0; i < n; i++) {
        if (strcmp(r[i].name, "holder") == 0)
            ASSERT_NEAR(r[i].dur, 1000);
        else if (strcmp(r[i].name, "fa") == 0)
            ASSERT_NEAR(r[i].dur, 118.0);
        else
            ASSERT_NEAR(r[i].dur, 183.6);
    }
    close_two(holder, s);
}

/* kA and k1 run at once; s2 waits for k1's record, then runs kB. With the
 * SoC's latencies (1 us dispatch, 2 us event release on the 910B1) kB
 * starts dispatch + event + dispatch after k1 ends, and its Wait Time
 * shows the whole gap since kA. Returns kB's start. */
static double released_kernel_start(bool costs, double *k1_end, double *kb_wait)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    aclrtEvent e;
    aclrtFuncHandle k1, ka, kb;
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    k1 = costed("k1", 0, 10, 0, 0);
    ka = costed("kA", 0, 5, 0, 0);
    kb = costed("kB", 0, 5, 0, 0);
    ASSERT_OK(aclrtCreateEvent(&e));
    sync_costs = costs;
    cfg = prof_start(dir, sizeof(dir));
    launch(k1, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    launch(ka, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch(kb, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sync_costs = false;
    ASSERT_EQ(read_kernels(dir, false, r, 4), 3);
    for (int i = 0; i < 3; i++) {
        if (strcmp(r[i].name, "k1") == 0)
            *k1_end = kernel_end(&r[i]);
        if (strcmp(r[i].name, "kB") == 0)
            *kb_wait = r[i].wait;
    }
    ASSERT_OK(aclrtDestroyEvent(e));
    close_two(s1, s2);
    for (int i = 0; i < 3; i++)
        if (strcmp(r[i].name, "kB") == 0)
            return r[i].start;
    return NAN;
}

/* The ts of the first trace_view.json event whose text starts with head. */
static double trace_ts_after(const char *trace, const char *head)
{
    const char *p = strstr(trace, head), *ts;
    ts = p != NULL ? strstr(p, "\"ts\":\"") : NULL;
    return ts != NULL ? strtod(ts + 6, NULL) : NAN;
}

/* The record-to-wait flow runs from the record's end to the wait's end:
 * its length is the release latency. */
TEST(profile, event_flow_in_the_trace_spans_the_release_latency)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream s1, s2;
    aclrtEvent e;
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    char *trace;
    open_two(&s1, &s2);
    k = costed("k", 0, 10, 0, 0);
    ASSERT_OK(aclrtCreateEvent(&e));
    sync_costs = true;
    cfg = prof_start(dir, sizeof(dir));
    sync_costs = false;
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    trace = read_out(dir, "trace_view.json");
    ASSERT(trace != NULL);
    /* The record: dispatched 1 us after k ends at 11; released 2 us later. */
    ASSERT_NEAR(trace_ts_after(trace, "{\"ph\":\"s\",\"cat\":\"event\""), 12);
    ASSERT_NEAR(trace_ts_after(trace, "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"event\""), 14);
    free(trace);
    ASSERT_OK(aclrtDestroyEvent(e));
    close_two(s1, s2);
}

TEST(profile, event_pairs_cost_the_profiles_dispatch_and_release_latency)
{
    double k1_end = 0, kb_wait = 0, kb;
    kb = released_kernel_start(true, &k1_end, &kb_wait);
    ASSERT_NEAR(k1_end, 1 + 10); /* its own dispatch first */
    ASSERT_NEAR(kb, k1_end + 1 + 2 + 1);
    ASSERT_NEAR(kb_wait, kb - (1 + 5)); /* Wait Time: since the previous row, kA, ended */
    /* Without them (the published examples' arithmetic) kB follows k1 at once. */
    kb = released_kernel_start(false, &k1_end, &kb_wait);
    ASSERT_NEAR(k1_end, 10);
    ASSERT_NEAR(kb, 10);
}

/* Wait Time is device-wide, as Ascend's op summary has it: the gap from
 * the previous row's end (rows in start order, whatever their stream) to
 * the row's start. kB, the first kernel of its stream, starts dispatch +
 * event + dispatch after k1 (the row before it) ends: that gap, not 0. */
TEST(profile, wait_time_is_the_gap_since_the_previous_row_of_the_device_whatever_its_stream)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[4];
    aclrtStream s1, s2;
    aclrtEvent e;
    aclrtFuncHandle k1 = costed("k1", 0, 10, 0, 0), kb = costed("kB", 0, 5, 0, 0);
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    ASSERT_OK(aclrtCreateEvent(&e));
    sync_costs = true;
    cfg = prof_start(dir, sizeof(dir));
    launch(k1, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    launch(kb, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sync_costs = false;
    ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
    ASSERT_EQ(strcmp(r[1].name, "kB"), 0);
    ASSERT_NEAR(r[0].wait, 0);
    ASSERT(r[1].wait > 1);
    ASSERT_NEAR(r[1].wait, r[1].start - kernel_end(&r[0]));
    ASSERT_OK(aclrtDestroyEvent(e));
    close_two(s1, s2);
}

/* ACLCPU_MODEL_*_NS set what a user measured on the chip. */
TEST(profile, model_latencies_follow_the_environment)
{
    double k1_end = 0, kb_wait = 0, kb;
    setenv("ACLCPU_MODEL_DISPATCH_NS", "0", 1);
    setenv("ACLCPU_MODEL_EVENT_NS", "5500", 1);
    t_setup();
    {
        char dir[T_PATH_CAP] = "";
        struct krow r[4];
        aclrtStream s1, s2;
        aclrtEvent e;
        aclrtFuncHandle k1 = costed("k1", 0, 10, 0, 0), kb_k = costed("kB", 0, 5, 0, 0);
        aclprofConfig *cfg;
        uint32_t dev = 0;
        ASSERT_OK(aclrtCreateStream(&s1));
        ASSERT_OK(aclrtCreateStream(&s2));
        ASSERT_OK(aclrtCreateEvent(&e));
        new_dir(dir, sizeof(dir));
        ASSERT_OK(aclprofInit(dir, strlen(dir))); /* not prof_start: it would reset the variables */
        cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
        ASSERT_OK(aclprofStart(cfg));
        launch(k1, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s1, NULL, 0);
        ASSERT_OK(aclrtRecordEvent(e, s1));
        ASSERT_OK(aclrtStreamWaitEvent(s2, e));
        launch(kb_k, 24, ACL_RT_ENGINE_TYPE_AIV, 0, s2, NULL, 0);
        ASSERT_OK(aclrtSynchronizeDevice());
        prof_stop(cfg);
        ASSERT_EQ(read_kernels(dir, false, r, 4), 2);
        k1_end = kernel_end(&r[0]);
        kb = r[1].start;
        {
            char *sum = read_out(dir, "summary.json");
            kb_wait = json_num(sum, "event_us");
            free(sum);
        }
        ASSERT_NEAR(k1_end, 10);
        ASSERT_NEAR(kb, 15.5);
        ASSERT_NEAR(kb_wait, 5.5); /* summary.json says what was modelled */
        ASSERT_OK(aclrtDestroyEvent(e));
        ASSERT_OK(aclrtDestroyStream(s1));
        ASSERT_OK(aclrtDestroyStream(s2));
    }
    t_teardown();
}

/* 20 record/wait pairs handing one chain of kernels between two streams
 * cost 20 x (dispatch + event release) more than the same kernels on one
 * stream: more streams can make a step slower. */
static double chain_e2e(bool two_streams)
{
    char dir[T_PATH_CAP] = "";
    aclrtStream s[2];
    aclrtEvent e[20];
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    struct krow r[21];
    double e2e;
    int cur = 0;
    open_two(&s[0], &s[1]);
    k = costed("link", 0, 5, 0, 0);
    for (int i = 0; i < 20; i++)
        ASSERT_OK(aclrtCreateEvent(&e[i]));
    sync_costs = true;
    cfg = prof_start(dir, sizeof(dir));
    for (int i = 0; i < 20; i++) {
        launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s[cur], NULL, 0);
        if (two_streams) {
            ASSERT_OK(aclrtRecordEvent(e[i], s[cur]));
            ASSERT_OK(aclrtStreamWaitEvent(s[1 - cur], e[i]));
            cur = 1 - cur;
        }
    }
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s[cur], NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    sync_costs = false;
    /* From the first kernel's start to the last one's end (a wait on an
     * idle stream starts at 0, when that stream reaches it). */
    ASSERT_EQ(read_kernels(dir, false, r, 21), 21);
    e2e = kernel_end(&r[20]) - r[0].start;
    for (int i = 0; i < 20; i++)
        ASSERT_OK(aclrtDestroyEvent(e[i]));
    close_two(s[0], s[1]);
    return e2e;
}

TEST(profile, twenty_cross_stream_pairs_make_the_chain_slower_by_their_latency)
{
    double one = chain_e2e(false), two = chain_e2e(true);
    ASSERT_NEAR(one, 21 * 5 + 20 * 1);    /* each kernel: its dispatch, then 5 us */
    ASSERT_NEAR(two - one, 20 * (1 + 2)); /* each hop: the record's dispatch and the release */
}

/* Two streams whose kernels are ready at the same modelled instant and
 * need the same cores start in stream id order, lower first, whatever the
 * order the host issued them in (the event-order case's 110 us needs it). */
TEST(profile, streams_ready_at_the_same_instant_start_lower_id_first)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s1, s2;
    aclrtFuncHandle k;
    aclprofConfig *cfg;
    open_two(&s1, &s2);
    k = costed("whole", 0, 10, 0, 0);
    cfg = prof_start(dir, sizeof(dir));
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s2, NULL, 0); /* issued first, on the higher id */
    launch(k, 24, ACL_RT_ENGINE_TYPE_AIC, 0, s1, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 2);
    ASSERT(r[0].stream != r[1].stream);
    for (int i = 0; i < 2; i++)
        ASSERT_NEAR(r[i].start, r[i].stream < r[1 - i].stream ? 0 : 10);
    close_two(s1, s2);
}

/* The published event-order case (multi-stream principles, "Event"):
 * stream A runs Vector 20, Cube 40, Vector 20 us; stream B Vector 30, Cube
 * 20, Vector 20, each op on all the cores of its kind. Unordered, B (the
 * lower stream id) starts first and the step takes 110 us; with an event
 * that makes B wait for A's first op, 100 us. Returns the step. */
static double event_order_step(bool with_event)
{
    char dir[T_PATH_CAP] = "";
    struct krow r[8];
    aclrtStream a, b;
    aclrtEvent e;
    aclprofConfig *cfg;
    double lo = INFINITY, hi = 0;
    aclrtFuncHandle v20, v30, c40, c20;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&b)); /* B first: the lower id */
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateEvent(&e));
    v20 = costed("vector20", 0, 20, 0, 0);
    v30 = costed("vector30", 0, 30, 0, 0);
    c40 = costed("cube40", 0, 40, 0, 0);
    c20 = costed("cube20", 0, 20, 0, 0);
    cfg = prof_start(dir, sizeof(dir));
    launch(v20, 48, ACL_RT_ENGINE_TYPE_AIV, 0, a, NULL, 0);
    if (with_event) {
        ASSERT_OK(aclrtRecordEvent(e, a));
        ASSERT_OK(aclrtStreamWaitEvent(b, e));
    }
    launch(c40, 24, ACL_RT_ENGINE_TYPE_AIC, 0, a, NULL, 0);
    launch(v20, 48, ACL_RT_ENGINE_TYPE_AIV, 0, a, NULL, 0);
    launch(v30, 48, ACL_RT_ENGINE_TYPE_AIV, 0, b, NULL, 0);
    launch(c20, 24, ACL_RT_ENGINE_TYPE_AIC, 0, b, NULL, 0);
    launch(v20, 48, ACL_RT_ENGINE_TYPE_AIV, 0, b, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 8), 6);
    for (int i = 0; i < 6; i++) {
        lo = r[i].start < lo ? r[i].start : lo;
        hi = kernel_end(&r[i]) > hi ? kernel_end(&r[i]) : hi;
    }
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    t_teardown();
    return hi - lo;
}

TEST(profile, published_event_order_case_takes_110_us_unordered_and_100_with_the_event)
{
    ASSERT_NEAR(event_order_step(false), 110);
    ASSERT_NEAR(event_order_step(true), 100);
}

/* ---- sweep 4: memory tasks modelled as the copy or set of their bytes ---------------------------- */

enum sw4_fill { SW4_MEMSET, SW4_D32, SW4_COPY, SW4_COPY2D };

/* Where a costed kernel starts after one memory task of 64 MiB (as a
 * memset, a 32-bit fill, a copy or a 2D copy of 1024 rows of 64 KiB) on
 * its stream: the task's modelled time. */
static double start_after(enum sw4_fill how)
{
    enum { BYTES = 64 << 20, ROW = 65536 };
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    void *a = NULL, *b = NULL;
    aclrtFuncHandle k = cost_kernel("sw4_after_op", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&a, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&b, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    cfg = prof_start(dir, sizeof(dir));
    switch (how) {
    case SW4_MEMSET: ASSERT_OK(aclrtMemsetAsync(a, BYTES, 0, BYTES, s)); break;
    case SW4_D32: ASSERT_OK(aclrtMemsetD32Async(a, BYTES, 0u, BYTES / 4, s)); break;
    case SW4_COPY: ASSERT_OK(aclrtMemcpyAsync(a, BYTES, b, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, s)); break;
    case SW4_COPY2D:
        ASSERT_OK(aclrtMemcpy2dAsync(a, ROW, b, ROW, ROW, BYTES / ROW, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
        break;
    }
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    return r[0].start;
}

/* A 32-bit fill of N elements is modelled as the memset of its 4 N bytes. */
TEST(profile, a_32_bit_fill_is_modelled_as_the_memset_of_its_bytes)
{
    double set = start_after(SW4_MEMSET);
    ASSERT(set > 1.0);
    ASSERT_NEAR(start_after(SW4_D32), set);
}

/* A 2D copy is modelled as the copy of all its rows' bytes (width x height). */
TEST(profile, a_2d_copy_is_modelled_as_the_copy_of_all_its_rows)
{
    double copy = start_after(SW4_COPY);
    ASSERT(copy > 1.0);
    ASSERT_NEAR(start_after(SW4_COPY2D), copy);
}

/* ---- sweep 5 (2026-12-05): a reduce modelled as the copy of its bytes -------------------------- */

/* Where a costed kernel starts after one 64 MiB reduce (SUM of floats: 16 Mi
 * elements of 4 bytes) or one 64 MiB device copy on its stream. */
static double start_after_sw5(bool reduce)
{
    enum { BYTES = 64 << 20 };
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    void *a = NULL, *b = NULL;
    aclrtFuncHandle k = cost_kernel("sw5_after_op", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc(&a, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMalloc(&b, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    cfg = prof_start(dir, sizeof(dir));
    if (reduce)
        ASSERT_OK(aclrtReduceAsync(a, b, BYTES, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_FLOAT, s, NULL));
    else
        ASSERT_OK(aclrtMemcpyAsync(a, BYTES, b, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_OK(aclrtFree(a));
    ASSERT_OK(aclrtFree(b));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    return r[0].start;
}

/* A reduce of N elements is modelled as the device copy of its N x element
 * size bytes, not of N bytes. */
TEST(profile, a_reduce_is_modelled_as_the_copy_of_its_elements_bytes)
{
    double copy = start_after_sw5(false);
    ASSERT(copy > 1.0);
    ASSERT_NEAR(start_after_sw5(true), copy);
}

/* Where a costed kernel starts after one 64 MiB prefetch of managed memory
 * to the device, or one 64 MiB host-to-device copy, on its stream. */
static double start_after_sw5_h2d(bool prefetch)
{
    enum { BYTES = 64 << 20 };
    char dir[T_PATH_CAP] = "";
    struct krow r[2];
    aclrtStream s;
    void *a = NULL, *h = NULL;
    aclrtMemManagedLocation to_dev = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    aclrtFuncHandle k = cost_kernel("sw5_after_h2d", 10, 0, 0, 0);
    aclprofConfig *cfg;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    if (prefetch) {
        ASSERT_OK(aclrtMemAllocManaged(&a, BYTES, ACL_RT_MEM_ATTACH_GLOBAL));
    } else {
        ASSERT_OK(aclrtMalloc(&a, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
        ASSERT_OK(aclrtMallocHost(&h, BYTES));
    }
    cfg = prof_start(dir, sizeof(dir));
    if (prefetch)
        ASSERT_OK(aclrtMemManagedPrefetchAsync(a, BYTES, to_dev, 0, s));
    else
        ASSERT_OK(aclrtMemcpyAsync(a, BYTES, h, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, s));
    launch(k, 1, ACL_RT_ENGINE_TYPE_AIC, 0, s, NULL, 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    prof_stop(cfg);
    ASSERT_EQ(read_kernels(dir, false, r, 2), 1);
    ASSERT_OK(aclrtFree(a));
    if (h != NULL)
        ASSERT_OK(aclrtFreeHost(h));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
    return r[0].start;
}

/* A prefetch of managed memory to the device is modelled as the
 * host-to-device copy of its bytes. */
TEST(profile, a_prefetch_to_the_device_is_modelled_as_the_copy_of_its_bytes)
{
    double copy = start_after_sw5_h2d(false);
    ASSERT(copy > 1.0);
    ASSERT_NEAR(start_after_sw5_h2d(true), copy);
}
