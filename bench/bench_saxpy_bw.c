/*
 * bench_saxpy_bw.c - a bandwidth-bound kernel: y = a * x + y over two
 * 64 MiB float arrays, split into 64 blocks (aclcpu: one launch of 64
 * blocks; PoCL: 64 work-groups of one work-item, each looping over its
 * slice), plus a plain OpenMP parallel for over the same arrays on the same
 * cores, the machine's limit. One sample is one pass (launch + synchronize).
 * Figure: GB/s counting 3 x 64 MiB per pass (read x, read y, write y).
 * Target: aclcpu >= 0.95x OpenMP. The results are checked at the end.
 */
#include <math.h>
#include <stdio.h>

#include "bench.h"
#include "peer.h"

#define SAXPY_A 0.5f
#define SAXPY_BLOCKS 64u

struct saxpy_args {
    const float *x;
    float *y;
    uint64_t n;
    float a;
};

static void saxpy_range(const float *restrict x, float *restrict y, float a, uint64_t lo, uint64_t hi)
{
    for (uint64_t i = lo; i < hi; i++)
        y[i] = a * x[i] + y[i];
}

static void saxpy_kernel(void *p)
{
    const struct saxpy_args *k = p;
    uint64_t b = aclcpuGetBlockIdx(), nb = aclcpuGetBlockNum();
    saxpy_range(k->x, k->y, k->a, k->n * b / nb, k->n * (b + 1) / nb);
}

struct saxpy_ctx {
    aclrtStream stream;
    aclrtFuncHandle kernel;
    float *x, *y;
    uint64_t n;
    unsigned passes;   /* over x and y, by aclcpu and OpenMP together */
};

static double gbps(const struct saxpy_ctx *c, double seconds)
{
    return isnan(seconds) ? NAN : 3.0 * (double)c->n * sizeof(float) / seconds / 1e9;
}

static double acl_sample(void *p)
{
    struct saxpy_ctx *c = p;
    struct saxpy_args args = {c->x, c->y, c->n, SAXPY_A};
    uint64_t t0 = now_ns();
    CHECK(aclrtLaunchKernel(c->kernel, SAXPY_BLOCKS, &args, sizeof(args), c->stream));
    CHECK(aclrtSynchronizeStream(c->stream));
    c->passes++;
    return gbps(c, (double)(now_ns() - t0) / 1e9);
}

static double omp_sample(void *p)
{
    struct saxpy_ctx *c = p;
    double s = omp_saxpy_pass(c->x, c->y, SAXPY_A, c->n);
    c->passes++;
    return gbps(c, s);
}

static double peer_sample(void *p) { return gbps(p, peer_saxpy_pass()); }

void bench_saxpy_bw(void)
{
    struct saxpy_ctx c = {0};
    size_t bytes = SIZE(64u, 1u) << 20;
    bool have_peer = false;
    double out[3];
    char note[200];

    c.n = bytes / sizeof(float);
    CHECK(aclrtCreateStream(&c.stream));
    CHECK(aclcpuRegisterKernel("saxpy", saxpy_kernel, &c.kernel));
    CHECK(aclrtMalloc((void **)&c.x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&c.y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (uint64_t i = 0; i < c.n; i++) {
        c.x[i] = 1.0f;
        c.y[i] = 2.0f;
    }
    if (peer_ready())
        have_peer = peer_saxpy_setup(c.n, SAXPY_BLOCKS, SAXPY_A);

    struct side sides[3] = {
        {"aclcpu", acl_sample, &c, false},
        {peer_name(), have_peer ? peer_sample : NULL, &c, false},
        {"openmp", omp_available() ? omp_sample : NULL, &c, true},
    };
    measure_sides("GB/s", 2, SIZE(15, 2), sides, 3, out);

    /* Every pass added a * x = 0.5 to y (exact in float at these sizes). */
    float expect = 2.0f + (float)c.passes * SAXPY_A;
    uint64_t probe[3] = {0, c.n / 2 + 1, c.n - 1};
    for (int i = 0; i < 3; i++)
        if (c.y[probe[i]] != expect)
            bench_die("saxpy_bw: y[%llu] is %g after %u passes, expected %g", (unsigned long long)probe[i],
                      (double)c.y[probe[i]], c.passes, (double)expect);
    if (have_peer && !peer_saxpy_check()) {
        add_note("saxpy_bw: the %s result did not match (its figure is dropped)", peer_name());
        out[1] = NAN;
    }
    if (have_peer)
        peer_saxpy_teardown();

    double lo, best[3];
    for (unsigned i = 0; i < 3; i++)
        last_range(i, &lo, &best[i]);
    snprintf(note, sizeof(note),
             "%zu MiB arrays, %u blocks, %u OpenMP threads; best pass: aclcpu %s, %s %s, openmp %s GB/s", bytes >> 20,
             SAXPY_BLOCKS, omp_available() ? omp_threads() : 0, fmt_num(best[0]), peer_name(), fmt_num(best[1]),
             fmt_num(best[2]));
    add_metric("saxpy_bw", "GB/s", out[0], out[1], peer_name(), BETTER_HIGHER, NO_TARGET, note);
    add_metric("saxpy_bw", "GB/s", out[0], out[2], "openmp", BETTER_HIGHER,
               TARGET(TGT_RATIO_GE, 0.95, ">= 0.95x openmp"), NULL);
    CHECK(aclrtFree(c.x));
    CHECK(aclrtFree(c.y));
    CHECK(aclrtDestroyStream(c.stream));
}
