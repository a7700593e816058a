/*
 * bench_prof_overhead.c - what profiling costs a launch: the enqueue
 * workload (empty one-block kernels back to back on one stream) with no
 * profile running, and with one running (aclprofStart before the sample,
 * aclprofStop after it; stopping, which models the run and writes the
 * files, is not timed). Figure: ns per launch. Target: on <= 2x off. The
 * peer column is the same loop with profiling off, measured alternately in
 * the same run, so the ratio is the profiler's cost alone.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl_prof.h>

#include "bench.h"

struct prof_ctx {
    aclrtStream stream;
    unsigned n;
    aclprofConfig *cfg;
};

static double off_sample(void *p)
{
    struct prof_ctx *c = p;
    uint64_t t0 = now_ns();
    for (unsigned i = 0; i < c->n; i++)
        launch_empty(c->stream);
    uint64_t t1 = now_ns();
    CHECK(aclrtSynchronizeStream(c->stream));
    return (double)(t1 - t0) / c->n;
}

static double on_sample(void *p)
{
    struct prof_ctx *c = p;
    double ns;
    CHECK(aclprofStart(c->cfg));
    ns = off_sample(p);
    CHECK(aclprofStop(c->cfg));
    return ns;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

void bench_prof_overhead(void)
{
    struct prof_ctx c = {NULL, SIZE(20000u, 500u), NULL};
    struct side sides[2] = {{"profiled", on_sample, &c, false}, {"not profiled", off_sample, &c, false}};
    /* In memory where possible: the files' write-back must not take a core
     * from the next sample. */
    char dir[64];
    double out[2];
    uint32_t dev = 0;

    snprintf(dir, sizeof(dir), "%s/aclcpu-bench-prof-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (mkdtemp(dir) == NULL)
        bench_die("prof_overhead: cannot make a directory for the profiles");
    CHECK(aclprofInit(dir, strlen(dir)));
    c.cfg = aclprofCreateConfig(&dev, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    if (c.cfg == NULL)
        bench_die("prof_overhead: aclprofCreateConfig failed");
    CHECK(aclrtCreateStream(&c.stream));
    measure_sides("ns per launch (profiled, not profiled)", 1, SIZE(15, 2), sides, 2, out);
    CHECK(aclrtDestroyStream(c.stream));
    CHECK(aclprofDestroyConfig(c.cfg));
    CHECK(aclprofFinalize());
    add_metric("prof_overhead", "ns/launch", out[0], out[1], "unprofiled", BETTER_LOWER,
               TARGET(TGT_RATIO_LE, 2.0, "<= 2x unprofiled"), NULL);
    /* Megabytes of profiles, in memory where /dev/shm is: not left there. */
    (void)nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
