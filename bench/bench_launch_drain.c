/*
 * bench_launch_drain.c - sustained throughput of empty kernels: enqueue
 * 100k on one stream / queue and drain them (aclrtSynchronizeStream /
 * clFinish). Figure: ns per task, enqueue plus execution. Target:
 * >= 5 million tasks/s on aclcpu, i.e. <= 200 ns per task.
 */
#include <stdio.h>

#include "bench.h"
#include "peer.h"

struct drain_ctx {
    aclrtStream stream;
    unsigned n;
};

static double acl_sample(void *p)
{
    struct drain_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++)
        launch_empty(c->stream);
    CHECK(aclrtSynchronizeStream(c->stream));
    return (double)(now_ns() - t0) / c->n;
}

static double peer_sample(void *p) { return peer_launch_drain(((struct drain_ctx *)p)->n); }

void bench_launch_drain(void)
{
    struct drain_ctx c = {NULL, SIZE(100000u, 1000u)};
    char note[128];
    double a, p;

    CHECK(aclrtCreateStream(&c.stream));
    measure_pair("ns per task", 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a, &p);
    CHECK(aclrtDestroyStream(c.stream));
    snprintf(note, sizeof(note), "aclcpu %s M tasks/s, %s %s M tasks/s", fmt_num(1e3 / a), peer_name(),
             fmt_num(1e3 / p));
    add_metric("launch_drain", "ns/task", a, p, peer_name(), BETTER_LOWER,
               TARGET(TGT_ABS_LE, 200.0, ">= 5M tasks/s (<= 200 ns)"), note);
}
