/*
 * bench_mt_launch.c - launch throughput from several host threads: 1, 2, 4
 * and 8 threads, each with its own stream (PoCL: its own in-order queue),
 * each launching a fixed number of empty kernels and then synchronising
 * its stream. Figure: aggregate launches per second, from the first
 * thread's start to the last thread's synchronize. Target: 8 threads
 * aggregate >= 1 thread.
 */
#include <stdio.h>

#include "bench.h"
#include "peer.h"

#define MAX_THREADS 8u

struct mt_ctx {
    unsigned threads, per_thread;
    aclrtStream streams[MAX_THREADS];
};

static void thread_setup(unsigned i, void *p)
{
    (void)i;
    (void)p;
    CHECK(aclrtSetCurrentContext(g_ctx));
}

static void thread_body(unsigned i, void *p)
{
    struct mt_ctx *c = p;
    for (unsigned k = 0; k < c->per_thread; k++)
        launch_empty(c->streams[i]);
    CHECK(aclrtSynchronizeStream(c->streams[i]));
}

static double acl_sample(void *p)
{
    struct mt_ctx *c = p;
    double secs;
    for (unsigned i = 0; i < c->threads; i++)
        CHECK(aclrtCreateStream(&c->streams[i]));
    secs = run_threads(c->threads, thread_setup, thread_body, c);
    for (unsigned i = 0; i < c->threads; i++)
        CHECK(aclrtDestroyStream(c->streams[i]));
    return (double)c->threads * c->per_thread / secs;
}

static double peer_sample(void *p)
{
    struct mt_ctx *c = p;
    return peer_mt_launch(c->threads, c->per_thread);
}

void bench_mt_launch(void)
{
    static const unsigned counts[] = {1, 2, 4, 8};
    double one_thread = 0;
    char name[64], what[64];

    for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        struct mt_ctx c = {counts[i], SIZE(20000u, 200u), {NULL}};
        double a, p;
        snprintf(what, sizeof(what), "%u thread%s, launches/s", c.threads, c.threads > 1 ? "s" : "");
        measure_pair(what, 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a, &p);
        snprintf(name, sizeof(name), "mt_launch.%ut", c.threads);
        if (c.threads == 1)
            one_thread = a;
        add_metric(name, "launches/s", a, p, peer_name(), BETTER_HIGHER,
                   c.threads == MAX_THREADS ? TARGET(TGT_ABS_GE, one_thread, ">= 1-thread aclcpu") : NO_TARGET,
                   NULL);
    }
}
