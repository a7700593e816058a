/*
 * bench_device_memory.c - device memory: allocation, first and warm copies,
 * and what the arena spends beyond what the program asked for.
 *
 * mem_alloc_free: ns per aclrtMalloc + aclrtFree of one size, warm (the
 *   block comes back from the arena's cache), against glibc malloc + free
 *   and PoCL clCreateBuffer + clReleaseMemObject in the same run. Target:
 *   median <= 1 us for 4 KiB to 1 MiB.
 * mem_first_copy: GB/s of the first aclrtMemcpy H2D of 64 MiB into a fresh
 *   aclrtMalloc block (one never handed out before), against memcpy into
 *   warm host memory. Target: >= 0.5x memcpy. The arena backs fresh ranges
 *   when they are allocated (as a device's memory manager maps physical
 *   memory at allocation), so that cost shows in aclrtMalloc: printed too.
 * mem_copy_bw: GB/s of H2D, D2H and D2D aclrtMemcpy of 64 MiB into warm
 *   memory against memcpy. Target: >= 0.9x memcpy.
 * mem_overhead: the address span 10,000 blocks of log-uniform sizes from
 *   1 B to 1 MiB take in a fresh part of the arena, over the bytes they
 *   were charged (size rounded to 32 plus 32 of padding, the reference's
 *   rule). Target: <= 1.01.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peer.h"

#define COPY_BYTES (64u << 20)

/* ---- mem_alloc_free -------------------------------------------------------------- */

struct cycle_ctx {
    size_t bytes;
    unsigned n;
};

static double acl_cycle(void *p)
{
    struct cycle_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++) {
        void *d = NULL;
        CHECK(aclrtMalloc(&d, c->bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtFree(d));
    }
    return (double)(now_ns() - t0) / c->n;
}

static void *(*volatile libc_malloc)(size_t) = malloc; /* not folded away */

static double libc_cycle(void *p)
{
    struct cycle_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++)
        free(libc_malloc(c->bytes));
    return (double)(now_ns() - t0) / c->n;
}

static double ocl_cycle(void *p)
{
    struct cycle_ctx *c = p;
    return peer_buffer_cycle(c->bytes, c->n);
}

void bench_mem_alloc_free(void)
{
    static const size_t sizes[] = {4u << 10, 64u << 10, 1u << 20};
    static const char *names[] = {"mem_alloc_free_4k", "mem_alloc_free_64k", "mem_alloc_free_1m"};

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct cycle_ctx c = {sizes[i], SIZE(20000u, 200u)};
        struct side sides[] = {
            {"aclcpu", acl_cycle, &c, false},
            {"glibc", libc_cycle, &c, false},
            {peer_name(), peer_ready() ? ocl_cycle : NULL, &c, false},
        };
        double out[3];
        measure_sides("ns per malloc+free", 2, SIZE(9, 2), sides, 3, out);
        add_metric(names[i], "ns", out[0], out[2], peer_name(), BETTER_LOWER,
                   TARGET(TGT_ABS_LE, 1000, "<= 1000 ns"), NULL);
        add_note("%s: glibc malloc+free %s ns in the same run", names[i], fmt_num(out[1]));
    }
}

/* ---- mem_first_copy ------------------------------------------------------------- */

struct first_ctx {
    unsigned char *src, *warm;
    void *kept[16];          /* fresh blocks stay allocated: the next sample's is fresh too */
    unsigned nkept;
    double malloc_ms[16];
};

static double gbps(size_t bytes, uint64_t ns) { return (double)bytes / (double)ns; }

static double first_copy_sample(void *p)
{
    struct first_ctx *c = p;
    void *d = NULL;
    uint64_t t0, t1;

    if (c->nkept == sizeof(c->kept) / sizeof(c->kept[0]))
        return NAN;
    t0 = now_ns();
    CHECK(aclrtMalloc(&d, COPY_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    t1 = now_ns();
    c->malloc_ms[c->nkept] = (double)(t1 - t0) / 1e6;
    c->kept[c->nkept++] = d;
    t0 = now_ns();
    CHECK(aclrtMemcpy(d, COPY_BYTES, c->src, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    return gbps(COPY_BYTES, now_ns() - t0);
}

static double warm_memcpy_sample(void *p)
{
    struct first_ctx *c = p;
    uint64_t t0 = now_ns();
    memcpy(c->warm, c->src, COPY_BYTES);
    return gbps(COPY_BYTES, now_ns() - t0);
}

static unsigned char *warm_host_buffer(void)
{
    unsigned char *b = malloc(COPY_BYTES);
    if (b == NULL)
        bench_die("out of host memory for %u bytes", COPY_BYTES);
    memset(b, 1, COPY_BYTES);
    return b;
}

void bench_mem_first_copy(void)
{
    struct first_ctx c = {warm_host_buffer(), warm_host_buffer(), {0}, 0, {0}};
    struct side sides[] = {
        {"aclcpu first H2D", first_copy_sample, &c, false},
        {"memcpy warm", warm_memcpy_sample, &c, false},
    };
    double out[2], ms[16];

    measure_sides("GB/s", 1, SIZE(7, 2), sides, 2, out);
    memcpy(ms, c.malloc_ms, sizeof(ms));
    add_metric("mem_first_copy", "GB/s", out[0], out[1], "memcpy", BETTER_HIGHER,
               TARGET(TGT_RATIO_GE, 0.5, ">= 0.5x memcpy"), NULL);
    add_note("mem_first_copy: aclrtMalloc of a fresh 64 MiB block took %s ms (median; it backs the range)",
             fmt_num(median(ms, c.nkept)));
    for (unsigned i = 0; i < c.nkept; i++)
        CHECK(aclrtFree(c.kept[i]));
    free(c.src);
    free(c.warm);
}

/* ---- mem_copy_bw ------------------------------------------------------------------ */

struct bw_ctx {
    unsigned char *host, *host2;
    void *dev, *dev2;
    aclrtMemcpyKind kind;
};

static double acl_copy_sample(void *p)
{
    struct bw_ctx *c = p;
    void *dst = c->kind == ACL_MEMCPY_DEVICE_TO_HOST ? (void *)c->host : c->dev;
    const void *src = c->kind == ACL_MEMCPY_HOST_TO_DEVICE ? (const void *)c->host : c->dev2;
    uint64_t t0 = now_ns();
    CHECK(aclrtMemcpy(dst, COPY_BYTES, src, COPY_BYTES, c->kind));
    return gbps(COPY_BYTES, now_ns() - t0);
}

static double host_copy_sample(void *p)
{
    struct bw_ctx *c = p;
    uint64_t t0 = now_ns();
    memcpy(c->host2, c->host, COPY_BYTES);
    return gbps(COPY_BYTES, now_ns() - t0);
}

void bench_mem_copy_bw(void)
{
    static const aclrtMemcpyKind kinds[] = {ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST,
                                            ACL_MEMCPY_DEVICE_TO_DEVICE};
    static const char *names[] = {"mem_copy_h2d", "mem_copy_d2h", "mem_copy_d2d"};
    struct bw_ctx c = {warm_host_buffer(), warm_host_buffer(), NULL, NULL, ACL_MEMCPY_HOST_TO_DEVICE};

    CHECK(aclrtMalloc(&c.dev, COPY_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&c.dev2, COPY_BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(c.dev, COPY_BYTES, c.host, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(c.dev2, COPY_BYTES, c.host, COPY_BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        struct side sides[] = {
            {"aclcpu", acl_copy_sample, &c, false},
            {"memcpy", host_copy_sample, &c, false},
        };
        double out[2];
        c.kind = kinds[i];
        measure_sides("GB/s", 2, SIZE(9, 2), sides, 2, out);
        add_metric(names[i], "GB/s", out[0], out[1], "memcpy", BETTER_HIGHER,
                   TARGET(TGT_RATIO_GE, 0.9, ">= 0.9x memcpy"), NULL);
    }
    CHECK(aclrtFree(c.dev));
    CHECK(aclrtFree(c.dev2));
    free(c.host);
    free(c.host2);
}

/* ---- mem_overhead ----------------------------------------------------------------- */

static size_t charged(size_t n) { return (n + 31) / 32 * 32 + 32; }

void bench_mem_overhead(void)
{
    unsigned n = SIZE(10000u, 200u);
    void **blocks = calloc(n, sizeof(*blocks));
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    double asked = 0;
    uint32_t rng = 12345;

    if (blocks == NULL)
        bench_die("out of host memory");
    for (unsigned i = 0; i < n; i++) {
        size_t size;
        rng = rng * 1664525u + 1013904223u;
        size = (size_t)exp((double)(rng >> 8) / (double)(1u << 24) * log(1u << 20)); /* 1 B .. 1 MiB */
        if (size == 0)
            size = 1;
        CHECK(aclrtMalloc(&blocks[i], size, ACL_MEM_MALLOC_HUGE_FIRST));
        asked += (double)charged(size);
        if ((uintptr_t)blocks[i] < lo)
            lo = (uintptr_t)blocks[i];
        if ((uintptr_t)blocks[i] + charged(size) > hi)
            hi = (uintptr_t)blocks[i] + charged(size);
    }
    add_metric("mem_overhead", "x", (double)(hi - lo) / asked, NAN, NULL, BETTER_LOWER,
               TARGET(TGT_ABS_LE, 1.01, "<= 1.01x charged"), NULL);
    for (unsigned i = 0; i < n; i++)
        CHECK(aclrtFree(blocks[i]));
    free(blocks);
}
