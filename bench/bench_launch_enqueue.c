/*
 * bench_launch_enqueue.c - host cost of enqueuing one empty kernel on an
 * in-order stream (aclrtLaunchKernel) / queue (clEnqueueNDRangeKernel).
 *
 * One sample: 100k launches back to back on an idle stream, timed without
 * the drain that follows; the workers execute concurrently, as in a real
 * program. Figure: ns per launch. Target: <= 0.1x PoCL.
 */
#include <math.h>

#include "bench.h"
#include "peer.h"

double aclcpu_enqueue_sample(aclrtStream s, unsigned n)
{
    uint64_t t0, t1;
    t0 = now_ns();
    for (unsigned i = 0; i < n; i++)
        launch_empty(s);
    t1 = now_ns();
    CHECK(aclrtSynchronizeStream(s));
    return (double)(t1 - t0) / n;
}

struct enqueue_ctx {
    aclrtStream stream;
    unsigned n;
};

static double acl_sample(void *p)
{
    struct enqueue_ctx *c = p;
    return aclcpu_enqueue_sample(c->stream, c->n);
}

static double peer_sample(void *p) { return peer_launch_enqueue(((struct enqueue_ctx *)p)->n); }

void bench_launch_enqueue(void)
{
    struct enqueue_ctx c = {NULL, SIZE(100000u, 1000u)};
    double a, p;

    CHECK(aclrtCreateStream(&c.stream));
    measure_pair("ns per launch", 1, SIZE(15, 2), acl_sample, &c, peer_sample, &c, &a, &p);
    CHECK(aclrtDestroyStream(c.stream));
    add_metric("launch_enqueue", "ns/launch", a, p, peer_name(), BETTER_LOWER,
               TARGET(TGT_RATIO_LE, 0.1, "<= 0.1x peer"), NULL);
}

/* ---- launch_args: the same, with three device pointers in the arguments ------------ */
/*
 * One sample: n launches of the empty kernel with an argument block of three
 * pointers into device memory and one integer, as an elementwise op has.
 * aclcpu only (the peer's figure is launch_enqueue's). What it shows is the
 * race checker's cost per pointer argument (make bench-check: ACLCPU_CHECK=1
 * looks each word up in the device memory map and updates the shadow).
 */
struct args_ctx {
    aclrtStream stream;
    unsigned n;
    struct {
        void *a, *b, *c;
        uint64_t n;
    } args;
};

static double args_sample(void *p)
{
    struct args_ctx *c = p;
    uint64_t t0 = now_ns(), t1;
    for (unsigned i = 0; i < c->n; i++)
        CHECK(aclrtLaunchKernel(g_empty, 1, &c->args, sizeof(c->args), c->stream));
    t1 = now_ns();
    CHECK(aclrtSynchronizeStream(c->stream));
    return (double)(t1 - t0) / c->n;
}

void bench_launch_args(void)
{
    struct args_ctx c = {NULL, SIZE(100000u, 1000u), {NULL, NULL, NULL, 1024}};
    double a, p;

    CHECK(aclrtCreateStream(&c.stream));
    CHECK(aclrtMalloc(&c.args.a, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&c.args.b, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&c.args.c, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    measure_pair("ns per launch, 3 device pointers", 1, SIZE(15, 2), args_sample, &c, NULL, NULL, &a, &p);
    CHECK(aclrtFree(c.args.a));
    CHECK(aclrtFree(c.args.b));
    CHECK(aclrtFree(c.args.c));
    CHECK(aclrtDestroyStream(c.stream));
    add_metric("launch_args", "ns/launch", a, NAN, "-", BETTER_LOWER, NO_TARGET, NULL);
}
