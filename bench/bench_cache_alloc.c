/*
 * bench_cache_alloc.c - the caching allocator (aclcpuCacheMalloc/Free) on a
 * warm cache against aclrtMalloc/aclrtFree, in the same run.
 *
 * cache_alloc_free_{4k,64k,1m}: ns per aclcpuCacheMalloc + aclcpuCacheFree
 *   of one size on one stream, the block coming back from that stream's
 *   cache each time, against aclrtMalloc + aclrtFree of the same size
 *   (the arena's own warm path). Target: <= 0.5x aclrtMalloc + aclrtFree.
 *   The stream is idle: a free with streams busy goes the same way (the
 *   cache looks at recorded streams only), and so does aclrtFree (the
 *   quarantine looks at every stream).
 */
#include <math.h>

#include "bench.h"

struct cache_ctx {
    size_t bytes;
    unsigned n;
    aclrtStream s;
};

static double cache_cycle(void *p)
{
    struct cache_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++) {
        void *d = NULL;
        CHECK(aclcpuCacheMalloc(&d, c->bytes, c->s));
        CHECK(aclcpuCacheFree(d));
    }
    return (double)(now_ns() - t0) / c->n;
}

static double plain_cycle(void *p)
{
    struct cache_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++) {
        void *d = NULL;
        CHECK(aclrtMalloc(&d, c->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtFree(d));
    }
    return (double)(now_ns() - t0) / c->n;
}

void bench_cache_alloc(void)
{
    static const size_t sizes[] = {4u << 10, 64u << 10, 1u << 20};
    static const char *names[] = {"cache_alloc_free_4k", "cache_alloc_free_64k", "cache_alloc_free_1m"};
    aclrtStream s;

    CHECK(aclrtCreateStream(&s));
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct cache_ctx c = {sizes[i], SIZE(20000u, 200u), s};
        struct side sides[] = {
            {"cache", cache_cycle, &c, false},
            {"aclrtMalloc", plain_cycle, &c, false},
        };
        double out[2];
        measure_sides("ns per malloc+free", 2, SIZE(9, 2), sides, 2, out);
        /* The baseline is aclcpu's own aclrtMalloc, in the peer columns. */
        add_metric(names[i], "ns", out[0], out[1], "aclrtMalloc", BETTER_LOWER,
                   TARGET(TGT_RATIO_LE, 0.5, "<= 0.5x aclrtMalloc+Free"), NULL);
    }
    CHECK(aclcpuCacheEmpty(0));
    CHECK(aclrtDestroyStream(s));
}
