/*
 * bench_graph_replay.c - a captured chain replayed against the same chain
 * launched one by one: 1,000 one-block kernels (each adds 1 to a counter)
 * on one stream, captured once with aclmdlRICaptureBegin/End, then each
 * sample is aclmdlRIExecuteAsync + aclrtSynchronizeStream; the eager side
 * is 1,000 aclrtLaunchKernel + aclrtSynchronizeStream. Figure: ns per task,
 * issue plus execution. Target: replay under 100 ns per task. The counter
 * is checked after every sample, so a replay that skipped work fails.
 */
#include <stdio.h>

#include "bench.h"

struct chain_ctx {
    aclrtStream stream;
    aclrtFuncHandle add;
    aclmdlRI model;
    unsigned n;
    int64_t *counter;
    int64_t expect;
};

static void k_inc(void *args) { (**(int64_t **)args)++; }

static void issue_chain(struct chain_ctx *c)
{
    for (unsigned i = 0; i < c->n; i++)
        CHECK(aclrtLaunchKernel(c->add, 1, &c->counter, sizeof(c->counter), c->stream));
}

static void check_count(struct chain_ctx *c, const char *side)
{
    c->expect += c->n;
    if (*c->counter != c->expect)
        bench_die("graph_replay: the %s chain left the counter at %lld, expected %lld", side,
                  (long long)*c->counter, (long long)c->expect);
}

static double eager_sample(void *p)
{
    struct chain_ctx *c = p;
    uint64_t t0 = now_ns();
    issue_chain(c);
    CHECK(aclrtSynchronizeStream(c->stream));
    double ns = (double)(now_ns() - t0) / c->n;
    check_count(c, "eager");
    return ns;
}

static double replay_sample(void *p)
{
    struct chain_ctx *c = p;
    uint64_t t0 = now_ns();
    CHECK(aclmdlRIExecuteAsync(c->model, c->stream));
    CHECK(aclrtSynchronizeStream(c->stream));
    double ns = (double)(now_ns() - t0) / c->n;
    check_count(c, "replayed");
    return ns;
}

void bench_graph_replay(void)
{
    struct chain_ctx c = {.n = 1000};
    struct side sides[2] = {{"replay", replay_sample, &c, false}, {"eager", eager_sample, &c, false}};
    double out[2];
    char note[160];

    CHECK(aclrtMalloc((void **)&c.counter, sizeof(*c.counter), ACL_MEM_MALLOC_HUGE_FIRST));
    *c.counter = 0;
    CHECK(aclcpuRegisterKernel("bench_inc", k_inc, &c.add));
    CHECK(aclrtCreateStream(&c.stream));
    CHECK(aclmdlRICaptureBegin(c.stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    issue_chain(&c);
    CHECK(aclmdlRICaptureEnd(c.stream, &c.model));
    measure_sides("ns per task (replay, eager)", 2, SIZE(15, 2), sides, 2, out);
    CHECK(aclmdlRIDestroy(c.model));
    CHECK(aclrtDestroyStream(c.stream));
    CHECK(aclrtFree(c.counter));
    snprintf(note, sizeof(note), "1,000-kernel chain: replay %s us per run, eager %s us", fmt_num(out[0] * c.n / 1e3),
             fmt_num(out[1] * c.n / 1e3));
    add_metric("graph_replay", "ns/task", out[0], out[1], "eager", BETTER_LOWER,
               TARGET(TGT_ABS_LT, 100.0, "< 100 ns/task"), note);
}
