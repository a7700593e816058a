/*
 * bench_streams_scale.c - what streams cost when there are many of them.
 *
 *  - create and destroy the SoC's maximum number of streams (as many as
 *    aclrtGetStreamAvailableNum allows; 1984 on the default SoC) and as many
 *    PoCL in-order queues: ms for the lot (target < 10 ms);
 *  - the process's thread count (/proc/self/status) before and while they
 *    exist (target: no thread added);
 *  - heap bytes per idle stream (mallinfo2 delta over the first, cold
 *    creation; VmRSS delta when mallinfo2 is missing) (target < 1 KiB);
 *  - launch_enqueue again with 1,000 idle streams / queues existing, as a
 *    ratio to the figure with none, both measured here alternately
 *    (target <= 1.1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "peer.h"

#define IDLE_STREAMS 1000u

struct scale_ctx {
    aclrtStream *streams;
    unsigned n;
};

struct cold_figures {
    double create_ms, destroy_ms;
    long threads_before, threads_with;
    double heap_per, rss_per;   /* bytes per stream (NAN if unknown) */
};

static double acl_create(struct scale_ctx *c, unsigned n)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++)
        CHECK(aclrtCreateStream(&c->streams[i]));
    return (double)(now_ns() - t0) / 1e6;
}

static double acl_destroy(struct scale_ctx *c, unsigned n)
{
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < n; i++)
        CHECK(aclrtDestroyStream(c->streams[i]));
    return (double)(now_ns() - t0) / 1e6;
}

static double acl_create_destroy(void *p)
{
    struct scale_ctx *c = p;
    return acl_create(c, c->n) + acl_destroy(c, c->n);
}

static double peer_create_destroy(void *p)
{
    struct scale_ctx *c = p;
    return peer_queues_create(c->n) + peer_queues_destroy();
}

/* The first creation of n streams (or queues), measured in detail. */
static struct cold_figures cold_round(struct scale_ctx *c, bool peer)
{
    struct cold_figures f;
    long long h0, h1;
    long r0, r1;

    f.threads_before = proc_threads();
    h0 = heap_in_use();
    r0 = proc_rss_bytes();
    f.create_ms = peer ? peer_queues_create(c->n) : acl_create(c, c->n);
    f.threads_with = proc_threads();
    h1 = heap_in_use();
    r1 = proc_rss_bytes();
    f.destroy_ms = peer ? peer_queues_destroy() : acl_destroy(c, c->n);
    f.heap_per = h0 < 0 || h1 < 0 ? NAN : (double)(h1 - h0) / c->n;
    f.rss_per = r0 < 0 || r1 < 0 ? NAN : (double)(r1 - r0) / c->n;
    settle();
    return f;
}

struct idle_ctx {
    aclrtStream stream;
    struct scale_ctx idle;
    unsigned launches;
};

static double acl_enq_none(void *p)
{
    struct idle_ctx *c = p;
    return aclcpu_enqueue_sample(c->stream, c->launches);
}

static double acl_enq_idle(void *p)
{
    struct idle_ctx *c = p;
    double v;
    acl_create(&c->idle, IDLE_STREAMS);
    v = aclcpu_enqueue_sample(c->stream, c->launches);
    acl_destroy(&c->idle, IDLE_STREAMS);
    return v;
}

static double peer_enq_none(void *p) { return peer_launch_enqueue(((struct idle_ctx *)p)->launches); }

static double peer_enq_idle(void *p)
{
    double v;
    if (isnan(peer_queues_create(IDLE_STREAMS))) {
        peer_queues_destroy();
        return NAN;
    }
    v = peer_launch_enqueue(((struct idle_ctx *)p)->launches);
    peer_queues_destroy();
    return v;
}

static double per_stream_bytes(const struct cold_figures *f)
{
    return isnan(f->heap_per) ? f->rss_per : f->heap_per;
}

void bench_streams_scale(void)
{
    struct scale_ctx c;
    struct cold_figures fa, fp = {NAN, NAN, -1, -1, NAN, NAN};
    struct idle_ctx ic;
    uint32_t avail;
    double a, p, out[4];
    char note[200];
    const char *pn = peer_name();

    CHECK(aclrtGetStreamAvailableNum(&avail));
    c.n = avail;
    c.streams = calloc(avail > IDLE_STREAMS ? avail : IDLE_STREAMS, sizeof(*c.streams));
    if (c.streams == NULL)
        bench_die("streams_scale: out of memory");
    printf("  %u streams available (aclrtGetStreamAvailableNum); PoCL gets as many queues\n", avail);

    /* Cold rounds first: the memory figures need objects never made before. */
    fa = cold_round(&c, false);
    if (peer_ready())
        fp = cold_round(&c, true);
    if (isnan(fp.create_ms) || isnan(fp.destroy_ms))
        fp = (struct cold_figures){NAN, NAN, -1, -1, NAN, NAN};
    printf("  cold round: aclcpu create %s ms destroy %s ms, threads %ld -> %ld, %s B/stream heap, %s B/stream RSS\n",
           fmt_num(fa.create_ms), fmt_num(fa.destroy_ms), fa.threads_before, fa.threads_with, fmt_num(fa.heap_per),
           fmt_num(fa.rss_per));
    if (peer_ready())
        printf("  cold round: %s create %s ms destroy %s ms, threads %ld -> %ld, %s B/queue heap, %s B/queue RSS\n",
               pn, fmt_num(fp.create_ms), fmt_num(fp.destroy_ms), fp.threads_before, fp.threads_with,
               fmt_num(fp.heap_per), fmt_num(fp.rss_per));

    measure_pair("ms to create+destroy all", 0, SIZE(9, 2), acl_create_destroy, &c, peer_create_destroy, &c, &a, &p);
    snprintf(note, sizeof(note),
             "%u streams/queues; first (cold) round: aclcpu create %s + destroy %s ms, %s %s + %s ms", c.n,
             fmt_num(fa.create_ms), fmt_num(fa.destroy_ms), pn, fmt_num(fp.create_ms), fmt_num(fp.destroy_ms));
    add_metric("streams_scale.create_destroy", "ms", a, p, pn, BETTER_LOWER, TARGET(TGT_ABS_LT, 10.0, "< 10 ms"),
               note);

    snprintf(note, sizeof(note), "process threads before -> with all streams: aclcpu %ld -> %ld, %s %s -> %s",
             fa.threads_before, fa.threads_with, pn, fmt_num(fp.threads_before < 0 ? NAN : (double)fp.threads_before),
             fmt_num(fp.threads_with < 0 ? NAN : (double)fp.threads_with));
    add_metric("streams_scale.threads_added", "threads", (double)(fa.threads_with - fa.threads_before),
               fp.threads_before < 0 ? NAN : (double)(fp.threads_with - fp.threads_before), pn, BETTER_LOWER,
               TARGET(TGT_ABS_LE, 0.0, "no thread added"), note);

    snprintf(note, sizeof(note), "%s delta over the cold round; VmRSS delta: aclcpu %s B, %s %s B per stream",
             isnan(fa.heap_per) ? "VmRSS" : "mallinfo2 heap", fmt_num(fa.rss_per), pn, fmt_num(fp.rss_per));
    add_metric("streams_scale.bytes_per_stream", "B", per_stream_bytes(&fa), per_stream_bytes(&fp), pn,
               BETTER_LOWER, TARGET(TGT_ABS_LT, 1024.0, "< 1 KiB"), note);

    /* launch_enqueue with and without 1,000 idle streams, alternately. */
    ic.idle = c;
    ic.launches = SIZE(100000u, 1000u);
    CHECK(aclrtCreateStream(&ic.stream));
    struct side sides[4] = {
        {"aclcpu", acl_enq_none, &ic, false},
        {"aclcpu+1000", acl_enq_idle, &ic, false},
        {pn, peer_ready() ? peer_enq_none : NULL, &ic, false},
        {"+1000", peer_ready() ? peer_enq_idle : NULL, &ic, false},
    };
    measure_sides("ns per launch, 0 / 1000 idle", 1, SIZE(15, 2), sides, 4, out);
    CHECK(aclrtDestroyStream(ic.stream));
    snprintf(note, sizeof(note), "ns per launch with 0 / 1000 idle streams: aclcpu %s / %s, %s %s / %s",
             fmt_num(out[0]), fmt_num(out[1]), pn, fmt_num(out[2]), fmt_num(out[3]));
    add_metric("streams_scale.enqueue_1000_idle", "x", out[1] / out[0], out[3] / out[2], pn, BETTER_LOWER,
               TARGET(TGT_ABS_LE, 1.1, "<= 1.1x (no idle streams)"), note);
    free(c.streams);
}
