/*
 * test_schedule.c - the schedule mode of a kernel launch (launch attribute
 * SCHEM_MODE, spec/acl-api.md §1.4): normal mode starts a block whenever a
 * thread is free; batch mode starts all blocks together, once there is a
 * free thread for each, as the device waits for numBlocks free cores.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

/* Blocks of one launch meet here: each counts itself, then waits (bounded)
 * until all of them have arrived. */
struct meeting {
    _Atomic int arrived, met;
};

static _Atomic int blocks_started;

static void k_meet(void *args)
{
    struct meeting *m = *(struct meeting **)args;
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    atomic_fetch_add(&blocks_started, 1);
    atomic_fetch_add(&m->arrived, 1);
    while (atomic_load(&m->arrived) < (int)aclcpuGetBlockNum() && t_now_ns() < end)
        sched_yield();
    if (atomic_load(&m->arrived) >= (int)aclcpuGetBlockNum())
        atomic_fetch_add(&m->met, 1);
}

static void launch_meeting(struct meeting *m, uint32_t blocks, uint8_t mode, aclrtStream s)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = mode;
    ASSERT_OK(aclrtLaunchKernelV2(t_kernel("sched_meet", k_meet), blocks, &m, sizeof(m), &cfg, s));
}

/* Two workers, one held by a gate on another stream: a batch-mode kernel of
 * two blocks waits, with none of its blocks started, until the second
 * worker is free; then both blocks run side by side. */
TEST(schedule, batch_mode_waits_until_every_block_has_a_thread)
{
    static struct t_gate g;
    static struct meeting m;
    aclrtStream a = NULL, b = NULL;
    t_capture_log("0");
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    t_launch_gate(&g, a);
    ASSERT(t_wait_flag(&g.started, 1)); /* one worker is held */
    launch_meeting(&m, 2, 1, b);
    ASSERT(t_log_shows("a batch-mode kernel of 2 blocks waits for 2 threads"));
    ASSERT_EQ(atomic_load(&blocks_started), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(b));
    ASSERT_EQ(atomic_load(&m.met), 2);
    ASSERT_OK(aclrtSynchronizeStream(a));
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    t_teardown();
}

/* The same in normal mode: the first block starts on the free worker at
 * once, before the held one is free. */
TEST(schedule, normal_mode_starts_blocks_as_threads_come_free)
{
    static struct t_gate g;
    static struct meeting m;
    aclrtStream a = NULL, b = NULL;
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&a));
    ASSERT_OK(aclrtCreateStream(&b));
    t_launch_gate(&g, a);
    ASSERT(t_wait_flag(&g.started, 1));
    launch_meeting(&m, 2, 0, b);
    ASSERT(t_wait_at_least(&blocks_started, 1)); /* while the gate still holds the other worker */
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(b));
    ASSERT_EQ(atomic_load(&m.met), 2); /* block 1 came once the gate let go */
    ASSERT_OK(aclrtDestroyStream(a));
    ASSERT_OK(aclrtDestroyStream(b));
    t_teardown();
}

enum { ROUNDS = 50 };

struct gang_stream {
    aclrtContext ctx;
    aclrtStream s;
    struct meeting m[ROUNDS];
    _Atomic int rc;
};

static void *sync_gang_stream(void *arg)
{
    struct gang_stream *g = arg;
    if (aclrtSetCurrentContext(g->ctx) == ACL_SUCCESS)
        atomic_store(&g->rc, aclrtSynchronizeStream(g->s));
    return NULL;
}

/* Batch kernels on three streams at once, synchronised from three threads
 * (which may run them themselves): no two gathering kernels wait on each
 * other's threads, every kernel's blocks meet, nothing hangs. */
TEST(schedule, batch_kernels_on_several_streams_do_not_deadlock)
{
    static struct gang_stream gs[3];
    pthread_t th[3];
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    for (int i = 0; i < 3; i++) {
        ASSERT_OK(aclrtGetCurrentContext(&gs[i].ctx));
        ASSERT_OK(aclrtCreateStream(&gs[i].s));
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < 3; i++)
            launch_meeting(&gs[i].m[r], 2, 1, gs[i].s);
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, sync_gang_stream, &gs[i]), 0);
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
        ASSERT_OK(atomic_load(&gs[i].rc));
        for (int r = 0; r < ROUNDS; r++)
            ASSERT_EQ(atomic_load(&gs[i].m[r].met), 2);
        ASSERT_OK(aclrtDestroyStream(gs[i].s));
    }
    t_teardown();
}

static _Atomic int blocks_run;

static void k_count(void *args)
{
    (void)args;
    atomic_fetch_add(&blocks_run, 1);
}

/* More blocks than threads: they cannot start together here, so the kernel
 * runs as in normal mode (with a warning) rather than never. */
TEST(schedule, batch_kernel_wider_than_the_host_runs_in_normal_mode)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    aclrtStream s = NULL;
    t_capture_log("2");
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = 1;
    ASSERT_OK(aclrtLaunchKernelV2(t_kernel("sched_count", k_count), 48, NULL, 0, &cfg, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&blocks_run), 48);
    ASSERT(t_log_shows("a batch-mode kernel of 48 blocks cannot start them together"));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(schedule, schedule_mode_values)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attr.value.schemMode = 2;
    ASSERT_RC(aclrtLaunchKernelV2(t_kernel("sched_count", k_count), 2, NULL, 0, &cfg, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "schemMode");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&blocks_run), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- a free worker helps the best-priority shared kernel first ------------------------------------ */

/* Two blocks: the first to start waits on the kernel's gate; the other
 * logs the kernel's tag. */
struct tagged_gate {
    _Atomic int arrivals;
    struct t_gate g;
    int tag;
};

static void k_tagged_gate(void *args)
{
    struct tagged_gate *k = *(struct tagged_gate **)args;
    if (atomic_fetch_add(&k->arrivals, 1) == 0) {
        atomic_fetch_add(&k->g.started, 1);
        (void)t_wait_flag(&k->g.open, 1);
        return;
    }
    t_log_put(k->tag);
}

struct prio_sync {
    aclrtContext ctx;
    aclrtStream s;
    _Atomic int rc;
};

static void *prio_sync_thread(void *arg)
{
    struct prio_sync *p = arg;
    aclError rc = aclrtSetCurrentContext(p->ctx);
    atomic_store(&p->rc, rc == ACL_SUCCESS ? aclrtSynchronizeStream(p->s) : rc);
    return NULL;
}

/* Two shared kernels wait for help, one of a low-priority stream (7, shared
 * first) and one of a high-priority stream (0): the worker that comes free
 * helps the high one first. One worker, held by a gate on a third stream;
 * each kernel is run by a thread synchronizing its stream, whose first block
 * waits, so each kernel's second block is left for the worker. */
TEST(schedule, a_free_worker_helps_the_highest_priority_shared_kernel_first)
{
    static struct t_gate held;
    static struct tagged_gate low_k = {.tag = 7}, high_k = {.tag = 0};
    static struct prio_sync low = {.s = NULL}, high = {.s = NULL};
    struct tagged_gate *pl = &low_k, *ph = &high_k;
    aclrtStream other = NULL;
    pthread_t tl, tk;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&low.ctx));
    high.ctx = low.ctx;
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtCreateStreamWithConfig(&low.s, 7, 0));
    ASSERT_OK(aclrtCreateStreamWithConfig(&high.s, 0, 0));
    t_launch_gate(&held, other);
    ASSERT(t_wait_flag(&held.started, 1)); /* the one worker is busy */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("sched_tagged_gate", k_tagged_gate), 2, &pl, sizeof(pl), low.s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("sched_tagged_gate", k_tagged_gate), 2, &ph, sizeof(ph), high.s));
    ASSERT_EQ(pthread_create(&tl, NULL, prio_sync_thread, &low), 0);
    ASSERT(t_wait_flag(&low_k.g.started, 1)); /* the low kernel is shared */
    ASSERT_EQ(pthread_create(&tk, NULL, prio_sync_thread, &high), 0);
    ASSERT(t_wait_flag(&high_k.g.started, 1)); /* and then the high one */
    atomic_store(&held.open, 1);
    ASSERT(t_wait_at_least(&t_log_n, 2));
    ASSERT_EQ(atomic_load(&t_log_v[0]), 0);
    ASSERT_EQ(atomic_load(&t_log_v[1]), 7);
    atomic_store(&low_k.g.open, 1);
    atomic_store(&high_k.g.open, 1);
    ASSERT_EQ(pthread_join(tl, NULL), 0);
    ASSERT_EQ(pthread_join(tk, NULL), 0);
    ASSERT_OK(atomic_load(&low.rc));
    ASSERT_OK(atomic_load(&high.rc));
    ASSERT_OK(aclrtSynchronizeStream(other));
    ASSERT_OK(aclrtDestroyStream(low.s));
    ASSERT_OK(aclrtDestroyStream(high.s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): the worker count ---- */

/* ACLCPU_WORKERS sets the device's worker threads (the device's open says
 * how many, at info): 1 is one worker, not "one per CPU" (that is 0), and
 * more than 256 are capped at 256. */
TEST(schedule, the_worker_count_is_acl_workers_capped_at_256)
{
    t_capture_log("1");
    setenv("ACLCPU_WORKERS", "257", 1);
    t_setup();
    ASSERT(t_log_shows(", 256 workers"));
    t_teardown();
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT(t_log_shows(", 1 workers"));
    t_teardown();
}
