/*
 * bench_sync_roundtrip.c - latency of one empty kernel on an idle stream
 * followed by aclrtSynchronizeStream (PoCL: clEnqueueNDRangeKernel +
 * clFinish). One sample averages n round trips. Figure: us per round trip.
 * Target: <= 0.07x PoCL.
 */
#include "bench.h"
#include "peer.h"

struct rt_ctx {
    aclrtStream stream;
    unsigned n;
};

static double acl_sample(void *p)
{
    struct rt_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++) {
        launch_empty(c->stream);
        CHECK(aclrtSynchronizeStream(c->stream));
    }
    return (double)(now_ns() - t0) / 1e3 / c->n;
}

static double peer_sample(void *p) { return peer_sync_roundtrip(((struct rt_ctx *)p)->n); }

void bench_sync_roundtrip(void)
{
    struct rt_ctx c = {NULL, SIZE(2000u, 50u)};
    double a, p;

    CHECK(aclrtCreateStream(&c.stream));
    measure_pair("us per round trip", 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a, &p);
    CHECK(aclrtDestroyStream(c.stream));
    add_metric("sync_roundtrip", "us", a, p, peer_name(), BETTER_LOWER, TARGET(TGT_RATIO_LE, 0.07, "<= 0.07x peer"),
               NULL);
}
