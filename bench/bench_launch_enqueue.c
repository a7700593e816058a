/*
 * bench_launch_enqueue.c - host cost of enqueuing one empty kernel on an
 * in-order stream (aclrtLaunchKernel) / queue (clEnqueueNDRangeKernel).
 *
 * One sample: 100k launches back to back on an idle stream, timed without
 * the drain that follows; the workers execute concurrently, as in a real
 * program. Figure: ns per launch. Target: <= 0.1x PoCL.
 */
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
