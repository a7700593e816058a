/*
 * bench_host_func.c - host-function round trip: aclrtLaunchHostFunc on an
 * idle stream plus aclrtSynchronizeStream, against a PoCL native kernel
 * (clEnqueueNativeKernel + clFinish; a callback on a marker's completion
 * when the device runs no native kernels). Figure: us per round trip. The
 * count of calls is checked, so a host function that never runs fails.
 */
#include <stdatomic.h>
#include <stdio.h>

#include "bench.h"
#include "peer.h"

struct hf_ctx {
    aclrtStream stream;
    unsigned n;
    _Atomic unsigned long calls;
    unsigned long expected;
};

static void host_fn(void *arg)
{
    struct hf_ctx *c = arg;
    atomic_fetch_add_explicit(&c->calls, 1, memory_order_relaxed);
}

static double acl_sample(void *p)
{
    struct hf_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++) {
        CHECK(aclrtLaunchHostFunc(c->stream, host_fn, c));
        CHECK(aclrtSynchronizeStream(c->stream));
    }
    c->expected += c->n;
    return (double)(now_ns() - t0) / 1e3 / c->n;
}

static double peer_sample(void *p) { return peer_host_func(((struct hf_ctx *)p)->n); }

void bench_host_func(void)
{
    struct hf_ctx c = {.n = SIZE(2000u, 50u)};
    char note[160];
    double a, p;

    atomic_init(&c.calls, 0);
    CHECK(aclrtCreateStream(&c.stream));
    measure_pair("us per round trip", 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a, &p);
    CHECK(aclrtDestroyStream(c.stream));
    if (atomic_load(&c.calls) != c.expected)
        bench_die("host_func: %lu host functions ran after synchronize, %lu were launched",
                  (unsigned long)atomic_load(&c.calls), c.expected);
    snprintf(note, sizeof(note), "peer side: %s", peer_host_func_kind());
    add_metric("host_func", "us", a, p, peer_name(), BETTER_LOWER, NO_TARGET, note);
}
