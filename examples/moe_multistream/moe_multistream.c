/*
 * moe_multistream - a MoE decoder step with its shared expert on a side
 * stream, profiled three ways on the modelled Ascend910B1 (24 cube and 48
 * vector cores), as docs/multistream.md §5.3 describes:
 *
 *   1. one stream: every op on the main stream, each on all the cores;
 *   2. two streams, no core limits: the shared expert (gate_up, swiglu,
 *      down) on a side stream from the post-attention norm to the final
 *      add, each op still asking for all the cores;
 *   3. two streams with core limits: main c16v32, side c8v16 (the
 *      LongCat-Flash split), each op tiled to the limit in force.
 *
 * Each run writes a profile (kernel_details.csv, trace_view.json,
 * summary.json ... in <dir>/<run>/ASCEND_PROFILER_OUTPUT; <dir> is argv[1]
 * or ./moe_profile) and the program prints the modelled step time of each
 * run and its speed-up over the first. The ops compute for real (a small
 * y = a*x + b per op on the hidden vector), and the three runs must give
 * the same hidden state. Op costs are declared (aclcpuSetKernelCost) from
 * the public latency-vs-cores figures (e.g. FA 118 us on 12C24V, 91.8 on
 * 24C48V), so the modelled times are those of the SoC, not of this CPU.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <aclcpu/aclcpu.h>

#define HIDDEN 4096
#define LAYERS 4

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError e_ = (call);                                                                           \
        if (e_ != ACL_SUCCESS) {                                                                        \
            const char *m_ = aclGetRecentErrMsg();                                                      \
            fprintf(stderr, "moe_multistream: %s failed with %d (%s): %s\n", #call, (int)e_,            \
                    aclcpuGetErrorName(e_), m_ != NULL ? m_ : "");                                      \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

enum engine { CUBE, VEC };

/* An op: its kernel, engine, how many blocks it wants, its cost on the
 * SoC (us: launch, paid once, + total / blocks per block), whether it is
 * a mix kernel, and the y = a*x + b it computes. */
struct op {
    const char *name;
    enum engine engine;
    uint32_t want;
    double launch, total;
    uint32_t mix;
    float a, b;
    aclrtFuncHandle fn;
};

static struct op ops[] = {
    /* main stream */
    {"attn_norm", VEC, 48, 4, 48, 0, 1.0f, 0.01f, NULL},
    {"qkv_proj", CUBE, 24, 6, 240, 0, 0.5f, 0.10f, NULL},
    {"flash_attention", CUBE, 24, 65.6, 629, 1, 1.0f, 0.02f, NULL}, /* MIX_AIC */
    {"o_proj", CUBE, 24, 10.4, 91.2, 0, 2.0f, 0.00f, NULL},
    {"ffn_norm", VEC, 48, 4, 48, 0, 1.0f, 0.01f, NULL},
    {"router", CUBE, 24, 6, 24, 0, 1.0f, 0.03f, NULL},
    {"routed_experts", CUBE, 24, 25, 360, 0, 0.9f, 0.00f, NULL},
    {"combine", VEC, 48, 5, 96, 0, 1.0f, 0.05f, NULL},
    /* side stream: the shared expert */
    {"shared_gate_up", CUBE, 24, 8, 192, 0, 1.1f, 0.00f, NULL},
    {"shared_swiglu", VEC, 48, 3, 48, 0, 0.5f, 0.20f, NULL},
    {"shared_down", CUBE, 24, 6, 144, 0, 0.8f, 0.00f, NULL},
    /* main stream, after the join */
    {"add_shared", VEC, 48, 2, 24, 0, 1.0f, 0.00f, NULL},
};

enum { ATTN_NORM, QKV, FA, O_PROJ, FFN_NORM, ROUTER, ROUTED, COMBINE, S_GATE_UP, S_SWIGLU, S_DOWN, ADD_SHARED };

struct op_args {
    const float *x;
    float *y;
    const float *z; /* add_shared: y = x + z */
    float a, b;
};

static void OpKernel(void *argsCopy)
{
    const struct op_args *p = argsCopy;
    uint32_t per = (HIDDEN + aclcpuGetBlockNum() - 1) / aclcpuGetBlockNum(), i = aclcpuGetBlockIdx() * per;
    for (uint32_t end = i + per < HIDDEN ? i + per : HIDDEN; i < end; i++)
        p->y[i] = p->z != NULL ? p->x[i] + p->z[i] : p->a * p->x[i] + p->b;
}

static void register_ops(void)
{
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        aclcpuKernelCost c;
        memset(&c, 0, sizeof(c));
        c.usLaunch = ops[i].launch;
        c.usTotal = ops[i].total;
        c.mix = ops[i].mix;
        CHECK(aclcpuRegisterKernel(ops[i].name, OpKernel, &ops[i].fn));
        CHECK(aclcpuSetKernelCost(ops[i].fn, &c));
        /* For the race checker (ACLCPU_CHECK=1): x and z are read, y is
         * written, HIDDEN floats each (z may be NULL: then nothing). */
        CHECK(aclcpuCheckDeclareArg(ops[i].fn, 0, ACLCPU_CHECK_READ, HIDDEN * sizeof(float), -1));
        CHECK(aclcpuCheckDeclareArg(ops[i].fn, 1, ACLCPU_CHECK_WRITE, HIDDEN * sizeof(float), -1));
        CHECK(aclcpuCheckDeclareArg(ops[i].fn, 2, ACLCPU_CHECK_READ, HIDDEN * sizeof(float), -1));
    }
}

/* Launches op on s, tiled to the cores this thread may use there. */
static void run_op(int which, aclrtStream s, const float *x, float *y, const float *z)
{
    struct op *o = &ops[which];
    struct op_args args = {x, y, z, o->a, o->b};
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg;
    uint32_t limit;
    CHECK(aclrtGetResInCurrentThread(o->engine == CUBE ? ACL_RT_DEV_RES_CUBE_CORE : ACL_RT_DEV_RES_VECTOR_CORE,
                                     &limit));
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr.value.engineType = o->engine == CUBE ? ACL_RT_ENGINE_TYPE_AIC : ACL_RT_ENGINE_TYPE_AIV;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CHECK(aclrtLaunchKernelV2(o->fn, o->want < limit ? o->want : limit, &args, sizeof(args), &cfg, s));
}

struct bufs {
    float *h, *t1, *t2, *side1, *side2;
};

/* One decoder layer: attention and routed experts on main, the shared
 * expert on side (or on main too, when side is main). Only the part where
 * the two streams overlap runs under the streams' limits (the thread uses
 * the stream's resources there); attention and the final add take every
 * core. */
static void layer(aclrtStream mainst, aclrtStream side, aclrtEvent fork, aclrtEvent join, struct bufs *b)
{
    bool two = side != mainst;
    run_op(ATTN_NORM, mainst, b->h, b->t1, NULL);
    run_op(QKV, mainst, b->t1, b->t2, NULL);
    run_op(FA, mainst, b->t2, b->t1, NULL);
    run_op(O_PROJ, mainst, b->t1, b->t2, NULL);
    run_op(FFN_NORM, mainst, b->t2, b->h, NULL);
    if (two) {
        CHECK(aclrtRecordEvent(fork, mainst));
        CHECK(aclrtStreamWaitEvent(side, fork));
        CHECK(aclrtUseStreamResInCurrentThread(side));
    }
    run_op(S_GATE_UP, side, b->h, b->side1, NULL);
    run_op(S_SWIGLU, side, b->side1, b->side2, NULL);
    run_op(S_DOWN, side, b->side2, b->side1, NULL);
    if (two) {
        CHECK(aclrtRecordEvent(join, side));
        CHECK(aclrtUseStreamResInCurrentThread(mainst));
    }
    run_op(ROUTER, mainst, b->h, b->t1, NULL);
    run_op(ROUTED, mainst, b->t1, b->t2, NULL);
    run_op(COMBINE, mainst, b->t2, b->t1, NULL);
    if (two) {
        CHECK(aclrtStreamWaitEvent(mainst, join)); /* joined just before the add: the side overlaps the experts */
        CHECK(aclrtUnuseStreamResInCurrentThread(mainst));
    }
    run_op(ADD_SHARED, mainst, b->t1, b->h, b->side1);
}

/* The modelled step time: e2e_us of the profile's summary.json. */
static double modelled_step(const char *dir)
{
    char path[1024], buf[8192];
    const char *p;
    size_t n;
    FILE *f;
    snprintf(path, sizeof(path), "%s/ASCEND_PROFILER_OUTPUT/summary.json", dir);
    if ((f = fopen(path, "r")) == NULL)
        return -1;
    n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    fclose(f);
    p = strstr(buf, "\"e2e_us\": ");
    return p != NULL ? strtod(p + 10, NULL) : -1;
}

/* Runs the step one way, profiled into dir, and leaves the hidden state in out. */
static void run(const char *dir, bool two, bool limits, float *out)
{
    aclrtStream mainst, side;
    aclrtEvent fork, join;
    aclprofConfig *cfg;
    struct bufs b;
    float init[HIDDEN];
    uint32_t dev = 0;
    CHECK(aclrtCreateStream(&mainst));
    CHECK(aclrtCreateStream(&side));
    CHECK(aclrtCreateEvent(&fork));
    CHECK(aclrtCreateEvent(&join));
    if (limits) {
        CHECK(aclrtSetStreamResLimit(mainst, ACL_RT_DEV_RES_CUBE_CORE, 16));
        CHECK(aclrtSetStreamResLimit(mainst, ACL_RT_DEV_RES_VECTOR_CORE, 32));
        CHECK(aclrtSetStreamResLimit(side, ACL_RT_DEV_RES_CUBE_CORE, 8));
        CHECK(aclrtSetStreamResLimit(side, ACL_RT_DEV_RES_VECTOR_CORE, 16));
    }
    float **all[] = {&b.h, &b.t1, &b.t2, &b.side1, &b.side2};
    for (size_t i = 0; i < 5; i++)
        CHECK(aclrtMalloc((void **)all[i], HIDDEN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < HIDDEN; i++)
        init[i] = (float)(i % 17) * 0.125f;
    CHECK(aclrtMemcpy(b.h, sizeof(init), init, sizeof(init), ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK(aclprofInit(dir, strlen(dir)));
    cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    CHECK(aclprofStart(cfg));
    for (int l = 0; l < LAYERS; l++)
        layer(mainst, two ? side : mainst, fork, join, &b);
    CHECK(aclrtSynchronizeStream(mainst));
    CHECK(aclprofStop(cfg));
    CHECK(aclprofDestroyConfig(cfg));
    CHECK(aclprofFinalize());

    CHECK(aclrtMemcpy(out, HIDDEN * sizeof(float), b.h, HIDDEN * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < 5; i++)
        CHECK(aclrtFree(*all[i]));
    CHECK(aclrtDestroyEvent(fork));
    CHECK(aclrtDestroyEvent(join));
    CHECK(aclrtDestroyStream(mainst));
    CHECK(aclrtDestroyStream(side));
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"single", "dual", "dual_limited"};
    static const char *const what[] = {"one stream", "two streams, no core limits",
                                       "two streams, c16v32 / c8v16"};
    const char *root = argc > 1 ? argv[1] : "moe_profile";
    static float out[3][HIDDEN];
    double step[3];
    char dir[3][900];
    int mismatch = 0;

    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    register_ops();
    for (int w = 0; w < 3; w++) {
        snprintf(dir[w], sizeof(dir[w]), "%s/%s", root, names[w]);
        run(dir[w], w > 0, w == 2, out[w]);
        step[w] = modelled_step(dir[w]);
        if (w == 0)
            printf("%-30s modelled step %9.3f us\n", what[w], step[w]);
        else
            printf("%-30s modelled step %9.3f us  speed-up %.3fx\n", what[w], step[w], step[0] / step[w]);
    }
    for (int w = 1; w < 3; w++)
        for (int i = 0; i < HIDDEN; i++)
            mismatch += fabsf(out[w][i] - out[0][i]) > 1e-5f * (1.0f + fabsf(out[0][i]));
    printf("hidden state after %d layers: %s\n", LAYERS, mismatch == 0 ? "the same in all three runs" : "DIFFERS");
    printf("profiles: %s/{single,dual,dual_limited}/ASCEND_PROFILER_OUTPUT\n", root);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return mismatch == 0 && step[0] > 0 ? 0 : 1;
}
