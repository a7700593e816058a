/*
 * bench_event_hop.c - cross-stream dependency latency: a chain of empty
 * kernels alternating between two streams, each waiting
 * (aclrtStreamWaitEvent) on the event recorded after the previous kernel
 * on the other stream. PoCL: two in-order queues, each kernel with the
 * previous kernel's event in its wait list, and a clFlush after it, as the
 * OpenCL spec asks for waits across queues. Figure: us per hop.
 *
 * Two ways to run the chain:
 *  - event_hop: the whole chain is issued behind a closed gate (aclcpu: a
 *    host function that blocks until the gate opens; PoCL: a user event),
 *    then the gate opens and the clock runs until both streams are done:
 *    the runtime's own hop cost, with no host thread issuing meanwhile.
 *    Target: <= 0.25x PoCL.
 *  - event_hop.issue_and_run: the clock starts before the first call and
 *    the chain runs while the host is still issuing it.
 */
#include <pthread.h>
#include <stdbool.h>

#include "bench.h"
#include "peer.h"

struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
};

struct hop_ctx {
    aclrtStream s[2];
    aclrtEvent e[2];
    unsigned hops;
    bool gated;
    struct gate gate;
};

static void gate_wait(void *p)
{
    struct gate *g = p;
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_set(struct gate *g, bool open)
{
    pthread_mutex_lock(&g->lock);
    g->open = open;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static double acl_sample(void *p)
{
    struct hop_ctx *c = p;
    uint64_t t0 = now_ns();

    if (c->gated) {
        gate_set(&c->gate, false);
        CHECK(aclrtLaunchHostFunc(c->s[0], gate_wait, &c->gate));
    }
    launch_empty(c->s[0]);
    CHECK(aclrtRecordEvent(c->e[0], c->s[0]));
    for (unsigned i = 1; i < c->hops; i++) {
        unsigned me = i & 1, other = me ^ 1;
        CHECK(aclrtStreamWaitEvent(c->s[me], c->e[other]));
        launch_empty(c->s[me]);
        CHECK(aclrtRecordEvent(c->e[me], c->s[me]));
    }
    if (c->gated) {
        t0 = now_ns();
        gate_set(&c->gate, true);
    }
    CHECK(aclrtSynchronizeStream(c->s[(c->hops - 1) & 1]));
    CHECK(aclrtSynchronizeStream(c->s[c->hops & 1]));
    return (double)(now_ns() - t0) / 1e3 / c->hops;
}

static double peer_sample(void *p)
{
    struct hop_ctx *c = p;
    return peer_event_hop(c->hops, c->gated);
}

void bench_event_hop(void)
{
    struct hop_ctx c = {.hops = SIZE(2000u, 50u)};
    double a, p, a2, p2;

    pthread_mutex_init(&c.gate.lock, NULL);
    pthread_cond_init(&c.gate.cond, NULL);
    for (int i = 0; i < 2; i++) {
        CHECK(aclrtCreateStream(&c.s[i]));
        CHECK(aclrtCreateEvent(&c.e[i]));
    }
    c.gated = true;
    measure_pair("us per hop, chain issued first", 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a, &p);
    c.gated = false;
    measure_pair("us per hop, issued while running", 1, SIZE(9, 2), acl_sample, &c, peer_sample, &c, &a2, &p2);
    for (int i = 0; i < 2; i++) {
        CHECK(aclrtDestroyStream(c.s[i]));
        CHECK(aclrtDestroyEvent(c.e[i]));
    }
    pthread_cond_destroy(&c.gate.cond);
    pthread_mutex_destroy(&c.gate.lock);
    add_metric("event_hop", "us/hop", a, p, peer_name(), BETTER_LOWER, TARGET(TGT_RATIO_LE, 0.25, "<= 0.25x peer"),
               "whole chain issued behind a gate, then timed from the gate's opening to the end");
    add_metric("event_hop.issue_and_run", "us/hop", a2, p2, peer_name(), BETTER_LOWER, NO_TARGET,
               "timed from the first call; the chain runs while the host issues it");
}
