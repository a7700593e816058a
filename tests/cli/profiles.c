/*
 * profiles.c - writes real aclcpu profiles of the multi-stream cases of
 * docs/multistream.md (§3, §5) for the aclcpu command's test (run.sh):
 *
 *   profiles DIR [CASE...]   writes DIR/<case>/ASCEND_PROFILER_OUTPUT/...
 *
 * Cases (all when none is named): fake_parallel (the side output consumed
 * before the dominator), fixed (the same program joined after it),
 * oversubscribed (two batch-mode kernels of 32 vector blocks on 48 cores),
 * limit_exceeded (a side kernel of 40 vector blocks under a v16 limit),
 * core_split (c16v32 / c8v16, within the limits), single_stream (stream 2
 * only carries events), prefetch (stream 2 only prefetches a weight),
 * near_tie (two main-stream kernels meet the side window within 0.001 us
 * of each other: summary.json and doctor must name the same dominator),
 * and the join-gap threshold, max(1% of E2E, 0.5 us), at its terms:
 * gap_under_min (a 0.45 us gap, E2E 40.45 us: over 1% of E2E, under
 * 0.5 us), gap_under_share (a 1 us gap, E2E 131 us: over 0.5 us, under
 * 1%), gap_at_min (a gap of exactly 0.5 us, E2E 40.5 us), and fork_wait
 * (the side stream, after a kernel of its own, idles 9 us waiting for the
 * main stream's fork record: slack, not a join gap). The fj_ cases are
 * fork/join programs of three iterations whose side stream is busier than
 * main: fj_serialised (joined right after each fork), fj_early_steps and
 * fj_late_steps (each iteration a step marked on main), fj_no_join,
 * fj_undeclared_early and fj_undeclared_late (the side kernel has no
 * declared cost), and fj_three_streams (a copy stream feeds main).
 * Exit 0 when every profile was written, 1 otherwise.
 *
 * DESIGN: every kernel declares its cost (aclcpuSetKernelCost) with a
 * fixed time only, so a kernel that gets its cores takes exactly that many
 * modelled us on the default Ascend910B1 (24 cube, 48 vector cores) and
 * the test can expect exact numbers; the ops compute nothing. Each case
 * is one profiling session on two fresh streams (ids 1 and 2), so each
 * profile starts at 0 and holds only that case; the two events are the
 * program's, so their ids do not depend on which cases ran before. The designs mirror the
 * hand fixtures of make_fixtures.py (same kernel names, blocks and
 * orders), except that events take no modelled time here.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>
#include <aclcpu/aclcpu.h>

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        aclError e_ = (call);                                                                           \
        if (e_ != ACL_SUCCESS) {                                                                        \
            fprintf(stderr, "profiles: %s failed with %d (%s)\n", #call, (int)e_, aclcpuGetErrorName(e_)); \
            exit(1);                                                                                    \
        }                                                                                               \
    } while (0)

enum engine { CUBE, VEC, MIX };

/* A kernel: its name and its modelled time in us (fixed, whatever the blocks). */
struct kern {
    const char *name;
    double us;
    uint64_t hbm_bytes;
    aclrtFuncHandle fn;
};

static struct kern kerns[] = {
    {"rms_norm", 10, 0, NULL},           {"cast_silu", 2, 0, NULL},          {"attention", 60, 0, NULL},
    {"matmul_out", 10, 0, NULL},         {"shared_expert_gate", 15, 0, NULL}, {"shared_expert_down", 14.6, 0, NULL},
    {"prep", 5, 0, NULL},                {"nonzero_full", 30, 0, NULL},      {"moe_dispatch", 20, 0, NULL},
    {"combine", 10, 0, NULL},            {"mla_prolog", 20, 0, NULL},        {"residual_add", 4, 0, NULL},
    {"moe_gmm", 55, 0, NULL},            {"moe_swiglu", 20, 0, NULL},        {"matmul", 5, 20000000, NULL},
    {"ffn_up", 20, 0, NULL},             {"ffn_down", 20.001, 0, NULL},      {"side_pre", 1, 0, NULL},
    {"side_post", 20.5, 0, NULL},        {"gap_lead", 10, 0, NULL},          {"gap_lead_long", 100, 0, NULL},
    {"gap_main", 20, 0, NULL},           {"gap_side_045", 20.45, 0, NULL},   {"gap_side_05", 20.5, 0, NULL},
    {"gap_side_1", 21, 0, NULL},         {"gap_tail", 10, 0, NULL},          {"undeclared", -1, 0, NULL},
};

enum {
    RMS_NORM, CAST_SILU, ATTENTION, MATMUL_OUT, GATE, DOWN, PREP, NONZERO, DISPATCH, COMBINE, MLA_PROLOG,
    RESIDUAL_ADD, MOE_GMM, MOE_SWIGLU, MATMUL, FFN_UP, FFN_DOWN, SIDE_PRE, SIDE_POST, GAP_LEAD, GAP_LEAD_LONG,
    GAP_MAIN, GAP_SIDE_045, GAP_SIDE_05, GAP_SIDE_1, GAP_TAIL, UNDECLARED
};

static void k_noop(void *args) { (void)args; }

static void register_kernels(void)
{
    for (size_t i = 0; i < sizeof(kerns) / sizeof(kerns[0]); i++)
        CHECK(aclcpuRegisterKernel(kerns[i].name, k_noop, &kerns[i].fn));
}

/* The cost, declared before each launch: mix kernels need mix = 1. A
 * kernel whose us is negative declares none: it is modelled from the CPU
 * time it takes. */
static void declare(struct kern *k, bool mix)
{
    aclcpuKernelCost c;
    if (k->us < 0)
        return;
    memset(&c, 0, sizeof(c));
    c.usFixed = k->us;
    c.hbmBytes = k->hbm_bytes;
    c.mix = mix ? 1 : 0;
    CHECK(aclcpuSetKernelCost(k->fn, &c));
}

/* Launches kernel `which` with `blocks` on engine e (MIX: MIX_AIC), batch
 * mode or not, on s; args (may be NULL) is the kernel's argument block. */
static void go(int which, uint32_t blocks, enum engine e, bool batch, aclrtStream s, void *args, size_t argsize)
{
    aclrtLaunchKernelAttr attr[2];
    aclrtLaunchKernelCfg cfg;
    declare(&kerns[which], e == MIX);
    memset(attr, 0, sizeof(attr));
    attr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr[0].value.engineType = e == VEC ? ACL_RT_ENGINE_TYPE_AIV : ACL_RT_ENGINE_TYPE_AIC;
    attr[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr[1].value.schemMode = batch ? 1 : 0;
    cfg.attrs = attr;
    cfg.numAttrs = 2;
    CHECK(aclrtLaunchKernelV2(kerns[which].fn, blocks, args, argsize, &cfg, s));
}

static void run_k(int which, uint32_t blocks, enum engine e, aclrtStream s) { go(which, blocks, e, false, s, NULL, 0); }

/* A session: the main stream, the side stream, events e[0] (fork) and e[1] (join). */
struct session {
    aclrtStream main, side;
    aclrtEvent e[2];
    aclprofConfig *cfg;
};

/* e[i] recorded on `from`, waited on by `to`. */
static void edge(struct session *s, int i, aclrtStream from, aclrtStream to)
{
    CHECK(aclrtRecordEvent(s->e[i], from));
    CHECK(aclrtStreamWaitEvent(to, s->e[i]));
}

/* ---- the cases ------------------------------------------------------------------------------ */

/* The side stream's cast is consumed on main before attention: main waits for the whole side. */
static void fake_parallel(struct session *s)
{
    run_k(RMS_NORM, 24, VEC, s->main);
    edge(s, 0, s->main, s->side);
    run_k(GATE, 16, VEC, s->side);
    run_k(DOWN, 4, CUBE, s->side);
    edge(s, 1, s->side, s->main);
    run_k(CAST_SILU, 8, VEC, s->main);
    run_k(ATTENTION, 20, CUBE, s->main);
    run_k(MATMUL_OUT, 24, CUBE, s->main);
}

/* The cast on the side stream, the join after attention. */
static void fixed(struct session *s)
{
    run_k(RMS_NORM, 24, VEC, s->main);
    edge(s, 0, s->main, s->side);
    run_k(ATTENTION, 20, CUBE, s->main);
    run_k(GATE, 16, VEC, s->side);
    run_k(DOWN, 4, CUBE, s->side);
    run_k(CAST_SILU, 8, VEC, s->side);
    edge(s, 1, s->side, s->main);
    run_k(MATMUL_OUT, 24, CUBE, s->main);
}

/* Two batch-mode kernels of 32 vector blocks: 32 + 32 > 48, the second waits. */
static void oversubscribed(struct session *s)
{
    run_k(PREP, 8, VEC, s->main);
    edge(s, 0, s->main, s->side);
    go(NONZERO, 32, VEC, true, s->main, NULL, 0);
    go(DISPATCH, 32, VEC, true, s->side, NULL, 0);
    edge(s, 1, s->side, s->main);
    run_k(COMBINE, 16, VEC, s->main);
}

static void limit_streams(struct session *s)
{
    CHECK(aclrtSetStreamResLimit(s->main, ACL_RT_DEV_RES_CUBE_CORE, 16));
    CHECK(aclrtSetStreamResLimit(s->main, ACL_RT_DEV_RES_VECTOR_CORE, 32));
    CHECK(aclrtSetStreamResLimit(s->side, ACL_RT_DEV_RES_CUBE_CORE, 8));
    CHECK(aclrtSetStreamResLimit(s->side, ACL_RT_DEV_RES_VECTOR_CORE, 16));
}

/* c16v32 / c8v16; swiglu_blocks over 16 breaks the side's limit. The
 * thread uses each stream's limits while it launches there. */
static void split(struct session *s, bool gmm_first, uint32_t swiglu_blocks)
{
    limit_streams(s);
    CHECK(aclrtUseStreamResInCurrentThread(s->main));
    CHECK(aclrtRecordEvent(s->e[0], s->main));
    run_k(ATTENTION, 16, CUBE, s->main);
    CHECK(aclrtUseStreamResInCurrentThread(s->side));
    CHECK(aclrtStreamWaitEvent(s->side, s->e[0]));
    if (gmm_first)
        run_k(MOE_GMM, 8, CUBE, s->side);
    run_k(MOE_SWIGLU, swiglu_blocks, VEC, s->side);
    if (!gmm_first)
        run_k(MOE_GMM, 8, CUBE, s->side);
    CHECK(aclrtRecordEvent(s->e[1], s->side));
    CHECK(aclrtUseStreamResInCurrentThread(s->main));
    run_k(MLA_PROLOG, 16, MIX, s->main);
    CHECK(aclrtStreamWaitEvent(s->main, s->e[1]));
    run_k(RESIDUAL_ADD, 32, VEC, s->main);
    CHECK(aclrtUnuseStreamResInCurrentThread(s->main));
}

static void core_split(struct session *s) { split(s, true, 16); }
static void limit_exceeded(struct session *s) { split(s, false, 40); }

/* One kernel wider than the vector cores (52 blocks of 48) on the main
 * stream while the side stream runs on the cube cores: waves of one
 * launch, no contention between the streams. */
static void wide_launch(struct session *s)
{
    run_k(RMS_NORM, 52, VEC, s->main);
    run_k(MATMUL_OUT, 8, CUBE, s->side);
}

/* A kernel without a declared cost, launched 3 times beside a declared one:
 * the tools list it as modelled from measured CPU time. */
static void measured_cost(struct session *s)
{
    run_k(RMS_NORM, 24, VEC, s->main);
    for (int i = 0; i < 3; i++)
        run_k(UNDECLARED, 8, VEC, s->main);
}

/* The side ops stayed on main: stream 2 only waits and records. */
static void single_stream(struct session *s)
{
    run_k(RMS_NORM, 24, VEC, s->main);
    edge(s, 0, s->main, s->side);
    edge(s, 1, s->side, s->main);
    run_k(ATTENTION, 20, CUBE, s->main);
    run_k(MATMUL_OUT, 24, CUBE, s->main);
}

/* Stream 2 prefetches half of the matmul's 20 MB weight behind the 10 us norm. */
static void prefetch(struct session *s)
{
    void *w;
    CHECK(aclrtMalloc(&w, kerns[MATMUL].hbm_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    edge(s, 0, s->main, s->side);
    CHECK(aclrtCmoAsync(w, kerns[MATMUL].hbm_bytes / 2, ACL_RT_CMO_TYPE_PREFETCH, s->side));
    run_k(RMS_NORM, 48, VEC, s->main);
    go(MATMUL, 24, CUBE, false, s->main, &w, sizeof(w)); /* its argument points at the weight */
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtFree(w));
}

/* Two main-stream kernels meet the side window for 20.000 and 20.001 us:
 * a tie within the files' precision, which the earlier one wins. */
static void near_tie(struct session *s)
{
    edge(s, 0, s->main, s->side);
    run_k(SIDE_PRE, 8, VEC, s->side);
    run_k(FFN_UP, 12, CUBE, s->main);
    edge(s, 1, s->main, s->side);
    run_k(SIDE_POST, 8, VEC, s->side);
    run_k(FFN_DOWN, 12, CUBE, s->main);
}

/* A real pair whose main stream waits at the join for the side kernel's
 * extra (side - 20) us: lead, fork, main 20 us beside the side kernel, join, tail. */
static void join_gap(struct session *s, int lead, int side)
{
    run_k(lead, 24, VEC, s->main);
    edge(s, 0, s->main, s->side);
    run_k(GAP_MAIN, 16, CUBE, s->main);
    run_k(side, 16, VEC, s->side);
    edge(s, 1, s->side, s->main);
    run_k(GAP_TAIL, 24, VEC, s->main);
}

static void gap_under_min(struct session *s) { join_gap(s, GAP_LEAD, GAP_SIDE_045); }
static void gap_under_share(struct session *s) { join_gap(s, GAP_LEAD_LONG, GAP_SIDE_1); }
static void gap_at_min(struct session *s) { join_gap(s, GAP_LEAD, GAP_SIDE_05); }

static void fork_wait(struct session *s)
{
    run_k(GAP_LEAD, 24, VEC, s->main);
    run_k(SIDE_PRE, 8, VEC, s->side);
    edge(s, 0, s->main, s->side);
    run_k(GAP_MAIN, 16, CUBE, s->main);
    run_k(FFN_UP, 16, VEC, s->side);
    edge(s, 1, s->side, s->main);
    run_k(GAP_TAIL, 24, VEC, s->main);
}

/* ---- fork/join episodes: the main stream by structure ------------------------------------------------ */

enum fj_join { FJ_EARLY, FJ_LATE, FJ_NONE };

/* Three iterations of: main rms_norm (10 us), fork; side moe_gmm (55) and
 * moe_swiglu (20), or the undeclared kernel; join; main attention (60)
 * after the join (early) or before it (late), or no join. The side (75 us
 * an iteration) is busier than main (70). With steps, each iteration is a
 * step marked on main. */
static void fork_join(struct session *s, enum fj_join join, bool steps, bool undeclared)
{
    for (int i = 0; i < 3; i++) {
        aclprofStepInfo *si = steps ? aclprofCreateStepInfo() : NULL;
        if (steps)
            CHECK(aclprofGetStepTimestamp(si, ACL_STEP_START, s->main));
        run_k(RMS_NORM, 24, VEC, s->main);
        CHECK(aclrtRecordEvent(s->e[0], s->main));
        CHECK(aclrtStreamWaitEvent(s->side, s->e[0]));
        if (undeclared) {
            run_k(UNDECLARED, 8, VEC, s->side);
        } else {
            run_k(MOE_GMM, 8, CUBE, s->side);
            run_k(MOE_SWIGLU, 16, VEC, s->side);
        }
        CHECK(aclrtRecordEvent(s->e[1], s->side));
        if (join == FJ_EARLY)
            CHECK(aclrtStreamWaitEvent(s->main, s->e[1]));
        run_k(ATTENTION, 16, CUBE, s->main);
        if (join == FJ_LATE)
            CHECK(aclrtStreamWaitEvent(s->main, s->e[1]));
        if (steps) {
            CHECK(aclprofGetStepTimestamp(si, ACL_STEP_END, s->main));
            aclprofDestroyStepInfo(si);
        }
    }
}

static void fj_serialised(struct session *s) { fork_join(s, FJ_EARLY, false, false); }
static void fj_late_steps(struct session *s) { fork_join(s, FJ_LATE, true, false); }
static void fj_early_steps(struct session *s) { fork_join(s, FJ_EARLY, true, false); }
static void fj_no_join(struct session *s) { fork_join(s, FJ_NONE, false, false); }
static void fj_undeclared_early(struct session *s) { fork_join(s, FJ_EARLY, false, true); }
static void fj_undeclared_late(struct session *s) { fork_join(s, FJ_LATE, false, true); }

/* Three streams: a copy stream (the third, id 3) fills a buffer main waits
 * for and waits for main to free it; main forks and joins the side (late)
 * each iteration. */
static void fj_three_streams(struct session *s)
{
    aclrtStream copy;
    aclrtEvent ready, freed;
    CHECK(aclrtCreateStream(&copy));
    CHECK(aclrtCreateEvent(&ready));
    CHECK(aclrtCreateEvent(&freed));
    for (int i = 0; i < 3; i++) {
        run_k(PREP, 8, VEC, copy);
        CHECK(aclrtRecordEvent(ready, copy));
        CHECK(aclrtStreamWaitEvent(s->main, ready));
        run_k(RMS_NORM, 24, VEC, s->main);
        edge(s, 0, s->main, s->side);
        run_k(MOE_GMM, 8, CUBE, s->side);
        CHECK(aclrtRecordEvent(s->e[1], s->side));
        run_k(ATTENTION, 16, CUBE, s->main);
        CHECK(aclrtStreamWaitEvent(s->main, s->e[1]));
        CHECK(aclrtRecordEvent(freed, s->main));
        CHECK(aclrtStreamWaitEvent(copy, freed));
    }
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclrtDestroyEvent(ready));
    CHECK(aclrtDestroyEvent(freed));
    CHECK(aclrtDestroyStream(copy));
}

static const struct {
    const char *name;
    void (*run)(struct session *s);
} cases[] = {
    {"fake_parallel", fake_parallel}, {"fixed", fixed},           {"oversubscribed", oversubscribed},
    {"limit_exceeded", limit_exceeded}, {"core_split", core_split}, {"single_stream", single_stream},
    {"prefetch", prefetch},           {"near_tie", near_tie},         {"gap_under_min", gap_under_min},
    {"gap_under_share", gap_under_share}, {"gap_at_min", gap_at_min}, {"fork_wait", fork_wait},
    {"measured_cost", measured_cost}, {"wide_launch", wide_launch}, {"fj_serialised", fj_serialised},
    {"fj_late_steps", fj_late_steps}, {"fj_early_steps", fj_early_steps}, {"fj_no_join", fj_no_join},
    {"fj_undeclared_early", fj_undeclared_early}, {"fj_undeclared_late", fj_undeclared_late},
    {"fj_three_streams", fj_three_streams},
};

/* ---- sessions --------------------------------------------------------------------------------- */

/* One case: two fresh streams (ids 1 and 2 again), the program's two events. */
static void profile_case(const char *root, int which, aclrtEvent events[2])
{
    char dir[4096];
    uint32_t dev = 0;
    struct session s = {.e = {events[0], events[1]}};
    snprintf(dir, sizeof(dir), "%s/%s", root, cases[which].name);
    CHECK(aclrtCreateStream(&s.main));
    CHECK(aclrtCreateStream(&s.side));
    CHECK(aclprofInit(dir, strlen(dir)));
    s.cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    if (s.cfg == NULL)
        exit(1);
    CHECK(aclprofStart(s.cfg));
    cases[which].run(&s);
    CHECK(aclrtSynchronizeDevice());
    CHECK(aclprofStop(s.cfg));
    CHECK(aclprofDestroyConfig(s.cfg));
    CHECK(aclprofFinalize());
    CHECK(aclrtDestroyStream(s.main));
    CHECK(aclrtDestroyStream(s.side));
}

static int find_case(const char *name)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (strcmp(cases[i].name, name) == 0)
            return (int)i;
    return -1;
}

int main(int argc, char **argv)
{
    int n = (int)(sizeof(cases) / sizeof(cases[0]));
    aclrtEvent events[2];
    if (argc < 2) {
        fprintf(stderr, "usage: profiles DIR [CASE...]\n");
        return 1;
    }
    for (int i = 2; i < argc; i++)
        if (find_case(argv[i]) < 0) {
            fprintf(stderr, "profiles: no case '%s'\n", argv[i]);
            return 1;
        }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    register_kernels();
    CHECK(aclrtCreateEvent(&events[0]));
    CHECK(aclrtCreateEvent(&events[1]));
    for (int i = 0; i < (argc > 2 ? argc - 2 : n); i++)
        profile_case(argv[1], argc > 2 ? find_case(argv[i + 2]) : i, events);
    CHECK(aclrtDestroyEvent(events[0]));
    CHECK(aclrtDestroyEvent(events[1]));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
