/*
 * test_kernel.c - kernel launches: blocks, arguments, errors, traps, launch
 * attributes, binaries, registered kernels, host arguments with
 * placeholders and argument handles.
 *
 * Rules: DESIGN "Kernels on the CPU" (block coordinates, parallel blocks,
 * arguments copied at launch, aclcpuTrap codes per engine), spec/acl-api.md
 * §3.7 and §4 (handle validation), aclcpu/aclcpu.h (aclcpuRegisterKernel,
 * aclcpuGetBlockIdx/Num outside a kernel).
 */
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>

#include "test.h"

static _Atomic int gate_open;

static _Atomic int counter;

static void k_inc(void *args)
{
    (void)args;
    atomic_fetch_add(&counter, 1);
}

static void k_nop(void *args) { (void)args; }

/* ---- blocks ------------------------------------------------------------------------ */

static _Atomic int meet_flag[2], meet_saw[2];

static void k_blocks_meet(void *args)
{
    uint32_t me = aclcpuGetBlockIdx();
    (void)args;
    if (me > 1 || aclcpuGetBlockNum() != 2)
        return;
    t_meet(meet_flag, meet_saw, (int)me);
}

TEST(kernel, blocks_run_in_parallel)
{
    setenv("ACLCPU_WORKERS", "2", 1);
    t_setup();
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_blocks_meet", k_blocks_meet), 2, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&meet_saw[0]), 1);
    ASSERT_EQ(atomic_load(&meet_saw[1]), 1);
    t_teardown();
}

enum { MANY = 1000 };
static _Atomic int block_hits[MANY];
static _Atomic int bad_block_num;

static void k_count_blocks(void *args)
{
    uint32_t idx = aclcpuGetBlockIdx();
    (void)args;
    if (aclcpuGetBlockNum() != MANY || idx >= MANY) {
        atomic_fetch_add(&bad_block_num, 1);
        return;
    }
    atomic_fetch_add(&block_hits[idx], 1);
}

TEST(kernel, every_block_index_runs_once)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_count_blocks", k_count_blocks), MANY, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&bad_block_num), 0);
    for (int i = 0; i < MANY; i++)
        ASSERT_EQ(atomic_load(&block_hits[i]), 1);
    /* Twice more: the same again, the next launch counted separately. */
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_count_blocks", k_count_blocks), MANY, NULL, 0, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_count_blocks", k_count_blocks), MANY, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < MANY; i++)
        ASSERT_EQ(atomic_load(&block_hits[i]), 3);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(kernel, block_coordinates_outside_a_kernel)
{
    ASSERT_EQ(aclcpuGetBlockIdx(), 0);
    ASSERT_EQ(aclcpuGetBlockNum(), 0);
    t_setup();
    ASSERT_EQ(aclcpuGetBlockIdx(), 0);
    ASSERT_EQ(aclcpuGetBlockNum(), 0);
    t_teardown();
}

/* ---- arguments ----------------------------------------------------------------------- */

struct small_args {
    int value;
    int slot;
};

static _Atomic int small_seen[4];

static void k_small_args(void *args)
{
    const struct small_args *a = args;
    if (a->slot >= 0 && a->slot < 4)
        atomic_store(&small_seen[a->slot], a->value);
}

enum { BIG = 4096 };
static _Atomic long big_sum;

static void k_big_args(void *args)
{
    const unsigned char *b = args;
    long sum = 0;
    for (int i = 0; i < BIG; i++)
        sum += b[i];
    atomic_store(&big_sum, sum);
}

TEST(kernel, args_copied_at_launch)
{
    static unsigned char big[BIG];
    struct small_args a;
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("kernel_small_args", k_small_args);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_flag_gate(&gate_open, s); /* everything below runs after the buffers were reused */
    a.value = 111;
    a.slot = 0;
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a, sizeof(a), s));
    a.value = 222;
    a.slot = 1;
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a, sizeof(a), s));
    a.value = 999;
    a.slot = 2;
    memset(big, 1, BIG);
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_big_args", k_big_args), 1, big, BIG, s));
    memset(big, 2, BIG);
    atomic_store(&gate_open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&small_seen[0]), 111);
    ASSERT_EQ(atomic_load(&small_seen[1]), 222);
    ASSERT_EQ(atomic_load(&small_seen[2]), 0);
    ASSERT_EQ(atomic_load(&big_sum), BIG);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- launch errors ----------------------------------------------------------------------- */

TEST(kernel, launch_argument_errors)
{
    aclrtFuncHandle k;
    aclrtStream s = NULL;
    aclrtEvent e = NULL;
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclrtCreateStream(&s));
    /* numBlocks 0 is the runtime's check (107000), not the acl layer's. */
    ASSERT_RC(aclrtLaunchKernel(k, 0, NULL, 0, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernelV2(k, 0, NULL, 0, NULL, s), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernel(NULL, 1, NULL, 0, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtLaunchKernelV2(NULL, 1, NULL, 0, NULL, s), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtLaunchKernel((aclrtFuncHandle)(uintptr_t)0x1234, 1, NULL, 0, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtLaunchKernelV2((aclrtFuncHandle)(uintptr_t)0xABCDEF0123456789ull, 1, NULL, 0, NULL, s),
              ACL_ERROR_RT_INVALID_HANDLE);
    /* A live handle of another type is not a kernel. */
    ASSERT_RC(aclrtLaunchKernel((aclrtFuncHandle)s, 1, NULL, 0, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_RC(aclrtLaunchKernel((aclrtFuncHandle)e, 1, NULL, 0, s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyEvent(e));
    ASSERT_RC(aclrtLaunchKernel(k, 1, NULL, 0, (aclrtStream)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 0); /* nothing refused ran */
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtLaunchKernel(k, 1, NULL, 0, s), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* numBlocks is at most 0xFFFF, as the runtime's launch check says (it
 * keeps the count in 16 bits): one more, and UINT32_MAX, are refused with
 * 107000 by every launch call that takes it; 0xFFFF runs every block once. */
TEST(kernel, num_blocks_bounded_as_the_runtime_does)
{
    static const uint32_t too_many[] = {0x10000u, 0xFFFFFFFFu};
    aclrtFuncHandle k;
    aclrtStream s = NULL;
    int32_t arg = 0;
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclrtCreateStream(&s));
    for (size_t i = 0; i < sizeof(too_many) / sizeof(too_many[0]); i++) {
        ASSERT_RC(aclrtLaunchKernel(k, too_many[i], NULL, 0, s), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtLaunchKernelV2(k, too_many[i], NULL, 0, NULL, s), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, too_many[i], s, NULL, &arg, sizeof(arg), NULL, 0),
                  ACL_ERROR_RT_PARAM_INVALID);
    }
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 0); /* nothing refused ran */
    ASSERT_OK(aclrtLaunchKernel(k, 0xFFFFu, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 0xFFFF);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(kernel, launch_without_context)
{
    aclrtFuncHandle k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtLaunchKernel(k, 1, NULL, 0, NULL), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_OK(aclFinalize());
}

/* ---- traps ----------------------------------------------------------------------------------- */

static _Atomic int trap_survivors;

static void k_trap_block_17(void *args)
{
    (void)args;
    if (aclcpuGetBlockIdx() == 17)
        aclcpuTrap();
    atomic_fetch_add(&trap_survivors, 1);
}

TEST(kernel, trap_fails_task_with_vector_exception)
{
    aclrtStream s = NULL, other = NULL;
    aclrtFuncHandle inc = t_kernel("kernel_inc", k_inc);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtLaunchKernel(inc, 1, NULL, 0, s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_trap17", k_trap_block_17), 64, NULL, 0, s));
    ASSERT_OK(aclrtLaunchKernel(inc, 1, NULL, 0, s));
    ASSERT_OK(aclrtLaunchKernel(inc, 1, NULL, 0, other));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    /* Reported once. */
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtSynchronizeStream(other));
    /* Failure mode CONTINUE (the default): the task after the trap still ran;
     * the other stream was not affected. */
    ASSERT_EQ(atomic_load(&counter), 3);
    ASSERT(atomic_load(&trap_survivors) < 64);
    /* The stream stays usable. */
    ASSERT_OK(aclrtLaunchKernel(inc, 1, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 4);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

static void launch_with_engine(aclrtFuncHandle k, aclrtEngineType engine, aclrtStream s)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg;
    memset(&attr, 0, sizeof(attr));
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr.value.engineType = engine;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    ASSERT_OK(aclrtLaunchKernelV2(k, 4, NULL, 0, &cfg, s));
}

TEST(kernel, trap_code_follows_engine_type)
{
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("kernel_trap", k_trap);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    launch_with_engine(k, ACL_RT_ENGINE_TYPE_AIC, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    ASSERT_OK(aclrtSynchronizeStream(s));
    launch_with_engine(k, ACL_RT_ENGINE_TYPE_AIV, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtLaunchKernelV2(k, 1, NULL, 0, NULL, s)); /* no cfg: vector */
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A kernel that follows a wild or NULL pointer touches no memory a device
 * kernel could reach: the kernel fails with its engine's exception code,
 * the process goes on, and so does the stream (a second fault, then a
 * kernel that works). */
static void k_wild_pointer(void *args)
{
    volatile int *p = *(volatile int *const *)args; /* the launch's bytes: one pointer */
    *p = 1;
}

TEST(kernel, a_wild_pointer_fails_the_kernel_not_the_process)
{
    aclrtStream s = NULL;
    int64_t *x = NULL;
    aclrtFuncHandle k = t_kernel("kernel_wild_pointer", k_wild_pointer);
    int *wild = (int *)(uintptr_t)64; /* no memory: the first page is never mapped */
    aclrtLaunchKernelAttr attr = {.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE,
                                  .value.engineType = ACL_RT_ENGINE_TYPE_AIC};
    aclrtLaunchKernelCfg aic = {.attrs = &attr, .numAttrs = 1};
#ifdef T_TSAN
    SKIP("kernel faults are not taken under ThreadSanitizer");
#endif
    t_setup();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(k, 3, &wild, sizeof(wild), s));
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtLaunchKernelV2(k, 2, &wild, sizeof(wild), &aic, s));
    t_launch_add(x, 5, s);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    ASSERT_EQ(x[0], 5);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(x));
    t_teardown();
}

TEST(kernel, trap_reported_by_timed_sync)
{
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_trap", k_trap), 3, NULL, 0, s));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtSynchronizeStreamWithTimeout(s, 5000));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- launch attributes ---------------------------------------------------------------- */

static aclError launch_with_attrs(aclrtFuncHandle k, uint32_t blocks, const void *args, size_t size,
                                  aclrtLaunchKernelAttr *attrs, size_t n, aclrtStream s)
{
    aclrtLaunchKernelCfg cfg = {attrs, n};
    return aclrtLaunchKernelV2(k, blocks, args, size, &cfg, s);
}

static aclrtLaunchKernelAttr attr_of(aclrtLaunchKernelAttrId id, uint32_t value)
{
    aclrtLaunchKernelAttr a;
    memset(&a, 0, sizeof(a));
    a.id = id;
    a.value.rsv[0] = value; /* every member starts at the union's first byte */
    return a;
}

/* Every attribute id, with a value it accepts and (where the runtime has
 * a rule) one it refuses: 107000, naming the attribute. */
TEST(kernel, launch_attribute_values)
{
    static const struct {
        aclrtLaunchKernelAttrId id;
        uint32_t good, bad; /* bad 0: any value goes */
        const char *names;
    } cases[] = {
        {ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 1, 2, "schemMode"},
        {ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, 4096, 0, NULL},
        {ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE, ACL_RT_ENGINE_TYPE_AIC, 2, "engineType"},
        {ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, 7, 0, NULL},
        {ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, 1, 2, "isBlockTaskPrefetch"},
        {ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 1, 2, "isDataDump"},
        {ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 30, 0, NULL},
        {ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 30000000, 0, NULL},
        {ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING, 1, 2, "enableProfiling"},
    };
    aclrtFuncHandle k;
    aclrtLaunchKernelAttr a, both[2];
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        a = attr_of(cases[i].id, cases[i].good);
        ASSERT_OK(launch_with_attrs(k, 2, NULL, 0, &a, 1, NULL));
        if (cases[i].bad == 0)
            continue;
        a = attr_of(cases[i].id, cases[i].bad);
        ASSERT_RC(launch_with_attrs(k, 2, NULL, 0, &a, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
        ASSERT(strstr(aclGetRecentErrMsg(), cases[i].names) != NULL);
    }
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&counter), 2 * 9);
    /* Two timeouts at once, and ids that name no attribute. */
    both[0] = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 1);
    both[1] = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 1000);
    ASSERT_RC(launch_with_attrs(k, 1, NULL, 0, both, 2, NULL), ACL_ERROR_RT_PARAM_INVALID);
    a = attr_of((aclrtLaunchKernelAttrId)0, 0);
    ASSERT_RC(launch_with_attrs(k, 1, NULL, 0, &a, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    a = attr_of((aclrtLaunchKernelAttrId)10, 0);
    ASSERT_RC(launch_with_attrs(k, 1, NULL, 0, &a, 1, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&counter), 2 * 9);
    t_teardown();
}

/* Launches a two-block gate kernel with attrs on the one worker: block 0
 * holds the worker until the gate opens delay_ns after it started, so
 * block 1 starts after that. Returns what the sync returns. */
static aclError late_second_block(aclrtLaunchKernelAttr *attrs, size_t n, uint64_t delay_ns)
{
    struct t_gate g = {0};
    struct t_gate *gp = &g;
    uint64_t open_at;
    ASSERT_OK(launch_with_attrs(t_kernel("t_gate", t_k_gate), 2, &gp, sizeof(gp), attrs, n, NULL));
    /* Block 0 may never start: a short TIMEOUT can run out before it. */
    (void)t_wait_at_least(&g.started, 1);
    for (open_at = t_now_ns() + delay_ns; t_now_ns() < open_at;)
        sched_yield();
    atomic_store(&g.open, 1);
    return aclrtSynchronizeStream(NULL);
}

/* The device-tuning attributes set no timeout: blocks that start more than
 * a second after the launch still run (each of the four, set to 1, was
 * once read as TIMEOUT = 1 s). A TIMEOUT_US shows the wait is long enough
 * to trip a timeout. */
TEST(kernel, tuning_attributes_set_no_timeout)
{
    aclrtLaunchKernelAttr tuning[4] = {
        attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, 1),
        attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, 1),
        attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH, 1),
        attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP, 1),
    };
    aclrtLaunchKernelAttr us = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 1000);
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_RC(late_second_block(&us, 1, 20000000ull), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    ASSERT_OK(late_second_block(tuning, 4, 1100000000ull));
    t_teardown();
}

/* ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT counts seconds: a TIMEOUT of 5 lets a
 * block that starts 50 ms late run (read as milliseconds it would trip),
 * while a TIMEOUT_US of 1000 trips on the same late start. */
TEST(kernel, timeout_attribute_counts_seconds)
{
    aclrtLaunchKernelAttr s5 = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT, 5);
    aclrtLaunchKernelAttr us = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 1000);
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(late_second_block(&s5, 1, 50000000ull));
    ASSERT_RC(late_second_block(&us, 1, 50000000ull), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    t_teardown();
}

/* ---- binaries and registered kernels ---------------------------------------------------------- */

/* The lengths a kernel's name and a binary's path may have: they fill
 * their buffers (128 and 512 bytes) with the NUL. A 127-byte name
 * registers, a 128-byte one is refused; a 511-byte path gets as far as
 * the loader (which cannot open it), a 512-byte one is refused as too
 * long. */
TEST(kernel, names_and_paths_fill_their_buffers_with_the_nul)
{
    static char name[129], path[513];
    aclrtFuncHandle h = NULL;
    aclrtBinHandle b = NULL;
    memset(name, 'k', 127);
    ASSERT_OK(aclcpuRegisterKernel(name, k_nop, &h));
    name[127] = 'k';
    ASSERT_RC(aclcpuRegisterKernel(name, k_nop, &h), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "1 to 127 bytes");
    t_setup();
    memset(path, 'p', 511);
    path[0] = '/';
    ASSERT_RC(aclrtBinaryLoadFromFile(path, NULL, &b), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(strstr(aclGetRecentErrMsg(), "too long") == NULL);
    path[511] = 'p';
    ASSERT_RC(aclrtBinaryLoadFromFile(path, NULL, &b), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "empty or too long");
    t_teardown();
}

TEST(kernel, binary_load_errors)
{
    aclrtBinHandle b = NULL;
    aclrtFuncHandle f = NULL;
    t_setup();
    ASSERT(aclrtBinaryLoadFromFile("/nonexistent/dir/libnokernel.so", NULL, &b) != ACL_SUCCESS);
    ASSERT(aclrtBinaryLoadFromFile("/dev/null", NULL, &b) != ACL_SUCCESS); /* not a shared object */
    ASSERT_RC(aclrtBinaryLoadFromFile(NULL, NULL, &b), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryLoadFromFile("/nonexistent.so", NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetFunction((aclrtBinHandle)(uintptr_t)0x1234, "k", &f), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtBinaryUnLoad((aclrtBinHandle)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* An empty path names no file (dlopen("") would hand back the program itself). */
TEST(kernel, binary_load_empty_path)
{
    aclrtBinHandle b = NULL;
    t_setup();
    ASSERT(aclrtBinaryLoadFromFile("", NULL, &b) != ACL_SUCCESS);
    t_teardown();
}

TEST(kernel, binary_function_lifecycle)
{
    /* The library itself is a shared object with known symbols. */
    const char *path = ACLCPU_BUILD_DIR "/libaclcpu.so";
    aclrtBinHandle b = NULL;
    aclrtFuncHandle f = NULL, f2 = NULL, missing = NULL;
    t_setup();
    ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &b));
    ASSERT(b != NULL);
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
    ASSERT(f != NULL);
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f2));
    ASSERT(f2 == f);
    ASSERT(aclrtBinaryGetFunction(b, "no_such_kernel_symbol", &missing) != ACL_SUCCESS);
    ASSERT_RC(aclrtBinaryGetFunction(b, NULL, &missing), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtBinaryUnLoad(b));
    /* Unloading kills the binary and its function handles. */
    ASSERT_RC(aclrtBinaryUnLoad(b), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f2), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtLaunchKernel(f, 1, NULL, 0, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

static void k_other(void *args) { (void)args; }

TEST(kernel, register_kernel_rules)
{
    aclrtFuncHandle h = NULL, h2 = NULL;
    static char long_name[300];
    ASSERT_RC(aclcpuRegisterKernel(NULL, k_nop, &h), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuRegisterKernel("kernel_reg", NULL, &h), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuRegisterKernel("kernel_reg", k_nop, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuRegisterKernel("", k_nop, &h), ACL_ERROR_INVALID_PARAM);
    memset(long_name, 'k', sizeof(long_name) - 1);
    ASSERT_RC(aclcpuRegisterKernel(long_name, k_nop, &h), ACL_ERROR_INVALID_PARAM);
    /* Works without aclInit or a device. */
    ASSERT_OK(aclcpuRegisterKernel("kernel_reg", k_nop, &h));
    ASSERT(h != NULL);
    /* Same name, same function: the same handle. */
    ASSERT_OK(aclcpuRegisterKernel("kernel_reg", k_nop, &h2));
    ASSERT(h2 == h);
    /* Same name, another function: refused, the first stays. */
    ASSERT_RC(aclcpuRegisterKernel("kernel_reg", k_other, &h2), ACL_ERROR_INVALID_PARAM);
    /* Another name for the same function is fine. */
    ASSERT_OK(aclcpuRegisterKernel("kernel_reg_alias", k_nop, &h2));
    ASSERT(h2 != NULL);
    t_setup();
    ASSERT_OK(aclrtLaunchKernel(h, 1, NULL, 0, NULL));
    ASSERT_OK(aclrtLaunchKernel(h2, 1, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    /* A registered kernel outlives a device reset. */
    t_teardown();
    t_setup();
    ASSERT_OK(aclrtLaunchKernel(h, 1, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    t_teardown();
}

/* ---- host arguments with placeholders ---------------------------------------------------------- */

enum { PH_ADDR = 0, PH_DATA = 16, PH_SIZE = 32 };
static _Atomic int ph_points_into_copy, ph_sum;

static void k_placeholder(void *args)
{
    const unsigned char *base = args;
    const int32_t *p;
    memcpy(&p, base + PH_ADDR, sizeof(p));
    atomic_store(&ph_points_into_copy, (const unsigned char *)p == base + PH_DATA);
    atomic_store(&ph_sum, p[0] + p[1] + p[2] + p[3]);
}

TEST(kernel, host_args_placeholders_point_into_copy)
{
    _Alignas(16) unsigned char host[PH_SIZE];
    int32_t data[4] = {11, 22, 33, 44};
    aclrtPlaceHolderInfo ph = {PH_ADDR, PH_DATA};
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("kernel_placeholder", k_placeholder);
    void *garbage = (void *)(uintptr_t)0x1;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(host, 0, sizeof(host));
    memcpy(host + PH_ADDR, &garbage, sizeof(garbage));
    memcpy(host + PH_DATA, data, sizeof(data));
    t_launch_flag_gate(&gate_open, s);
    ASSERT_OK(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &ph, 1));
    /* Reuse the buffer at once. */
    memset(host, 0xFF, sizeof(host));
    atomic_store(&gate_open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&ph_points_into_copy), 1);
    ASSERT_EQ(atomic_load(&ph_sum), 110);
    /* Refused: placeholder count without an array; numBlocks 0. */
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), NULL, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 0, s, NULL, host, sizeof(host), &ph, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(NULL, 1, s, NULL, host, sizeof(host), &ph, 1), ACL_ERROR_INVALID_PARAM);
    /* A placeholder outside the buffer is refused rather than written. */
    {
        aclrtPlaceHolderInfo bad = {PH_SIZE + 64, PH_DATA};
        ASSERT(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &bad, 1) != ACL_SUCCESS);
    }
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- argument handles -------------------------------------------------------------------------- */

static _Atomic long cfg_seen[4][3];

/* Parameters: int64 slot, int64 x, then a placeholder pointing at int32[2]. */
static void k_cfg(void *args)
{
    const unsigned char *b = args;
    int64_t slot, x;
    const int32_t *p;
    memcpy(&slot, b, 8);
    memcpy(&x, b + 8, 8);
    memcpy(&p, b + 16, sizeof(p));
    if (slot < 0 || slot >= 4)
        return;
    atomic_store(&cfg_seen[slot][0], 1);
    atomic_store(&cfg_seen[slot][1], (long)x);
    atomic_store(&cfg_seen[slot][2], (long)(p[0] + p[1]));
}

/* A finalized argument handle with no parameters launches the kernel with
 * no argument bytes (UBSan once saw memcpy from its NULL buffer; found by
 * aclcpu-fuzz). */
static void k_no_args(void *args)
{
    (void)args;
    t_log_put(0);
}

TEST(kernel, launch_with_an_empty_args_handle)
{
    aclrtArgsHandle ah = NULL;
    aclrtStream s = NULL;
    aclrtFuncHandle k;
    t_setup();
    k = t_kernel("k_no_args", k_no_args);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A placeholder buffer that could not be allocated leaves the placeholder
 * empty: the launch copies no data from it (it once kept the old size and
 * copied from NULL; found by aclcpu-fuzz, seed 1051). */
TEST(kernel, failed_placeholder_buffer_leaves_it_empty)
{
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle ph = NULL;
    aclrtStream s = NULL;
    aclrtFuncHandle k;
    void *buf = NULL;
#ifdef T_SANITIZED
    SKIP("a sanitizer's allocator aborts on the impossible allocation this test makes fail");
#endif
    t_setup();
    k = t_kernel("k_no_args", k_no_args);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsAppendPlaceHolder(ah, &ph));
    ASSERT_OK(aclrtKernelArgsGetPlaceHolderBuffer(ah, ph, 64, &buf));
    ASSERT_RC(aclrtKernelArgsGetPlaceHolderBuffer(ah, ph, SIZE_MAX, &buf), ACL_ERROR_RT_MEMORY_ALLOCATION);
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_n), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Parameters: two placeholders, an int32[1] and an int32[2]. */
static void k_two_placeholders(void *args)
{
    const int32_t *a, *b;
    memcpy(&a, args, sizeof(a));
    memcpy(&b, (const unsigned char *)args + sizeof(a), sizeof(b));
    t_log_put(a[0]);
    t_log_put(b[0]);
    t_log_put(b[1]);
}

/* Each placeholder of an argument handle points at its own data in the
 * launch's copy: the second one's data follows the first one's, so
 * neither overwrites the other. */
TEST(kernel, each_placeholder_of_an_args_handle_has_its_own_data)
{
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle p1 = NULL, p2 = NULL;
    aclrtStream s = NULL;
    aclrtFuncHandle k;
    int32_t *b1 = NULL, *b2 = NULL;
    t_setup();
    k = t_kernel("k_two_placeholders", k_two_placeholders);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsAppendPlaceHolder(ah, &p1));
    ASSERT_OK(aclrtKernelArgsAppendPlaceHolder(ah, &p2));
    ASSERT_OK(aclrtKernelArgsGetPlaceHolderBuffer(ah, p1, sizeof(int32_t), (void **)&b1));
    ASSERT_OK(aclrtKernelArgsGetPlaceHolderBuffer(ah, p2, 2 * sizeof(int32_t), (void **)&b2));
    b1[0] = 11;
    b2[0] = 22;
    b2[1] = 33;
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&t_log_stored), 3);
    ASSERT_EQ(atomic_load(&t_log_v[0]), 11);
    ASSERT_EQ(atomic_load(&t_log_v[1]), 22);
    ASSERT_EQ(atomic_load(&t_log_v[2]), 33);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(kernel, launch_with_config_and_args_handle)
{
    aclrtFuncHandle k;
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle p_slot = NULL, p_x = NULL, p_ph = NULL;
    aclrtStream s = NULL;
    int64_t slot = 0, x = 100;
    int32_t *buf = NULL;

    t_setup();
    k = t_kernel("kernel_cfg", k_cfg);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtKernelArgsInit(NULL, &ah), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtKernelArgsInit(k, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtKernelArgsInit((aclrtFuncHandle)(uintptr_t)0x1234, &ah), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsAppend(ah, &slot, sizeof(slot), &p_slot));
    ASSERT_OK(aclrtKernelArgsAppend(ah, &x, sizeof(x), &p_x));
    ASSERT_OK(aclrtKernelArgsAppendPlaceHolder(ah, &p_ph));
    ASSERT_OK(aclrtKernelArgsGetPlaceHolderBuffer(ah, p_ph, 2 * sizeof(int32_t), (void **)&buf));
    ASSERT(buf != NULL);
    buf[0] = 3;
    buf[1] = 4;
    /* Not finalized yet. */
    ASSERT(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL) != ACL_SUCCESS);
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    /* reserve must be NULL. */
    ASSERT(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, (void *)&x) != ACL_SUCCESS);

    t_launch_flag_gate(&gate_open, s); /* both launches run after every update below */
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL));
    slot = 1;
    x = 200;
    ASSERT_OK(aclrtKernelArgsParaUpdate(ah, p_slot, &slot, sizeof(slot)));
    ASSERT_OK(aclrtKernelArgsParaUpdate(ah, p_x, &x, sizeof(x)));
    /* An updated handle launches once it is finalized again. */
    ASSERT_RC(aclrtLaunchKernelWithConfig(k, 2, s, NULL, ah, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 2, s, NULL, ah, NULL));
    /* Changing the caller's variables after Append/ParaUpdate changes nothing. */
    slot = 3;
    x = 999;
    atomic_store(&gate_open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&cfg_seen[0][0]), 1);
    ASSERT_EQ(atomic_load(&cfg_seen[0][1]), 100);
    ASSERT_EQ(atomic_load(&cfg_seen[0][2]), 7);
    ASSERT_EQ(atomic_load(&cfg_seen[1][0]), 1);
    ASSERT_EQ(atomic_load(&cfg_seen[1][1]), 200);
    ASSERT_EQ(atomic_load(&cfg_seen[1][2]), 7);
    ASSERT_EQ(atomic_load(&cfg_seen[3][0]), 0);
    /* ParaUpdate refuses a size that does not match. */
    ASSERT(aclrtKernelArgsParaUpdate(ah, p_x, &x, 4) != ACL_SUCCESS);
    ASSERT_RC(aclrtLaunchKernelWithConfig(k, 1, s, NULL, (aclrtArgsHandle)(uintptr_t)0x1234, NULL),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtBinaryLoadFromData loads a kernel shared object from memory: the
 * bytes of the tests' kernel library (the examples' kernels), read here, give a working EasyOP. */
TEST(kernel, binary_load_from_data)
{
    const char *path = ACLCPU_TEST_KERNELS;
    FILE *f = fopen(path, "rb");
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    aclrtStream s = NULL;
    int32_t *dev = NULL, host = 41;
    char *bytes;
    long n;

    ASSERT(f != NULL); /* built with the tests */
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc((size_t)n);
    ASSERT(bytes != NULL);
    ASSERT_EQ(fread(bytes, 1, (size_t)n, f), n);
    fclose(f);
    t_setup();
    ASSERT_RC(aclrtBinaryLoadFromData(NULL, (size_t)n, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtBinaryLoadFromData(bytes, 0, NULL, &bin), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtBinaryLoadFromData(bytes, (size_t)n, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT(aclrtBinaryLoadFromData("not an ELF file", 15, NULL, &bin) != ACL_SUCCESS);
    ASSERT_OK(aclrtBinaryLoadFromData(bytes, (size_t)n, NULL, &bin));
    free(bytes); /* the binary must not depend on the caller's buffer */
    ASSERT_OK(aclrtBinaryGetFunction(bin, "EasyOP", &fn));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&dev, sizeof(*dev), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpy(dev, sizeof(*dev), &host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtLaunchKernel(fn, 1, &dev, sizeof(dev), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemcpy(&host, sizeof(host), dev, sizeof(*dev), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(host, 42);
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    ASSERT_RC(aclrtLaunchKernel(fn, 1, &dev, sizeof(dev), s), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- launches racing aclrtBinaryUnLoad ------------------------------------ */

enum { UNLOAD_LAUNCHERS = 2, UNLOAD_ROUNDS = 20, UNLOAD_MAX_LAUNCHES = 2000 };

struct unload_launcher {
    aclrtContext ctx;
    aclrtFuncHandle fn;
    aclrtStream s;
    int32_t *dev;            /* EasyOP adds 1 to it per launch that ran */
    _Atomic int *go;
    _Atomic int ok;          /* launches that returned success */
    int stale_then_ok, other;
};

static void *unload_launcher_main(void *p)
{
    struct unload_launcher *l = p;
    int stale = 0;
    if (aclrtSetCurrentContext(l->ctx) != ACL_SUCCESS) {
        l->other = 1;
        return NULL;
    }
    while (!atomic_load(l->go))
        sched_yield();
    for (int i = 0; i < UNLOAD_MAX_LAUNCHES; i++) {
        aclError rc = aclrtLaunchKernel(l->fn, 1, &l->dev, sizeof(l->dev), l->s);
        if (rc == ACL_SUCCESS) {
            atomic_fetch_add(&l->ok, 1);
            l->stale_then_ok += stale;
        } else if (rc == ACL_ERROR_RT_INVALID_HANDLE) {
            stale = 1;
        } else {
            l->other++;
        }
    }
    return NULL;
}

/* Threads launch a binary's kernel while the binary is unloaded: each
 * launch either succeeds or gets 107017 (and so does every later one), and
 * every launch that succeeded runs, so the library stays mapped until its
 * last queued kernel is done (a kernel run after dlclose would crash). */
TEST(kernel, launches_race_binary_unload)
{
    const char *path = ACLCPU_TEST_KERNELS;
    static struct unload_launcher l[UNLOAD_LAUNCHERS];
    static _Atomic int go;
    pthread_t th[UNLOAD_LAUNCHERS];
    aclrtContext ctx;
    FILE *probe = fopen(path, "rb");

    ASSERT(probe != NULL); /* built with the tests */
    fclose(probe);
    t_setup();
    ASSERT_OK(aclrtGetCurrentContext(&ctx));
    for (int round = 0; round < UNLOAD_ROUNDS; round++) {
        aclrtBinHandle bin;
        aclrtFuncHandle fn;
        ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &bin));
        ASSERT_OK(aclrtBinaryGetFunction(bin, "EasyOP", &fn));
        atomic_store(&go, 0);
        for (int t = 0; t < UNLOAD_LAUNCHERS; t++) {
            l[t] = (struct unload_launcher){ctx, fn, NULL, NULL, &go, 0, 0, 0};
            ASSERT_OK(aclrtCreateStream(&l[t].s));
            ASSERT_OK(aclrtMalloc((void **)&l[t].dev, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
            ASSERT_OK(aclrtMemset(l[t].dev, sizeof(int32_t), 0, sizeof(int32_t)));
            ASSERT_EQ(pthread_create(&th[t], NULL, unload_launcher_main, &l[t]), 0);
        }
        atomic_store(&go, 1);
        ASSERT(t_wait_at_least(&l[round % UNLOAD_LAUNCHERS].ok, 1 + round * 10));
        ASSERT_OK(aclrtBinaryUnLoad(bin));
        for (int t = 0; t < UNLOAD_LAUNCHERS; t++) {
            int32_t ran = -1;
            ASSERT_EQ(pthread_join(th[t], NULL), 0);
            ASSERT_OK(aclrtSynchronizeStream(l[t].s));
            ASSERT_OK(aclrtMemcpy(&ran, sizeof(ran), l[t].dev, sizeof(ran), ACL_MEMCPY_DEVICE_TO_HOST));
            ASSERT_EQ(l[t].other, 0);
            ASSERT_EQ(l[t].stale_then_ok, 0);
            ASSERT_EQ(ran, atomic_load(&l[t].ok));
            ASSERT_OK(aclrtFree(l[t].dev));
            ASSERT_OK(aclrtDestroyStream(l[t].s));
        }
    }
    t_teardown();
}

/* ---- aclrtCreateBinary / aclrtBinaryLoad / aclrtDestroyBinary -------------------
 * Rules (CANN): CreateBinary data NULL -> NULL (100000 in the message);
 * BinaryLoad binary or binHandle NULL -> 100000, then length 0 -> 107000;
 * DestroyBinary NULL -> 100000. aclcpu: a description that is not live
 * (destroyed, never created) -> 107017. */

/* The bytes of the tests' kernel library, or NULL. */
static char *read_kernel_library(size_t *size)
{
    FILE *f = fopen(ACLCPU_TEST_KERNELS, "rb");
    char *bytes;
    long n;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc((size_t)n);
    if (bytes != NULL && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

TEST(kernel, binary_description_loads_its_bytes)
{
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    aclrtStream s = NULL;
    int32_t *dev = NULL, host = 9;
    size_t n = 0;
    char *bytes = read_kernel_library(&n);
    aclrtBinary desc;

    ASSERT(bytes != NULL); /* built with the tests */
    t_setup();
    desc = aclrtCreateBinary(bytes, n);
    ASSERT(desc != NULL);
    ASSERT_OK(aclrtBinaryLoad(desc, &bin));
    /* Loaded: neither the description nor the bytes are needed any more. */
    ASSERT_OK(aclrtDestroyBinary(desc));
    free(bytes);
    ASSERT_OK(aclrtBinaryGetFunction(bin, "EasyOP", &fn));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtMalloc((void **)&dev, sizeof(*dev), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpy(dev, sizeof(*dev), &host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtLaunchKernel(fn, 1, &dev, sizeof(dev), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemcpy(&host, sizeof(host), dev, sizeof(*dev), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(host, 10);
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    ASSERT_OK(aclrtFree(dev));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(kernel, binary_description_checks)
{
    static const char not_elf[] = "not an ELF file";
    aclrtBinHandle bin = NULL;
    aclrtBinary desc, empty, gone;

    t_setup();
    ASSERT(aclrtCreateBinary(NULL, 16) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCreateBinary: argument 'data' is NULL");
    desc = aclrtCreateBinary(not_elf, sizeof(not_elf));
    ASSERT(desc != NULL);
    /* NULLs first, in CANN's order. */
    ASSERT_RC(aclrtBinaryLoad(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtBinaryLoad: argument 'binary' is NULL");
    ASSERT_RC(aclrtBinaryLoad(desc, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtBinaryLoad: argument 'binHandle' is NULL");
    /* Accepted with length 0 and refused at load, with the runtime's code. */
    empty = aclrtCreateBinary(not_elf, 0);
    ASSERT(empty != NULL);
    ASSERT_RC(aclrtBinaryLoad(empty, &bin), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "length is 0");
    ASSERT_OK(aclrtDestroyBinary(empty));
    /* Bytes that are no shared object fail to load, as with FromData. */
    ASSERT(aclrtBinaryLoad(desc, &bin) != ACL_SUCCESS);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtBinaryLoad");
    ASSERT_RC(aclrtDestroyBinary(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtDestroyBinary: argument 'binary' is NULL");
    ASSERT_OK(aclrtDestroyBinary(desc));
    /* Destroyed, or never made by aclrtCreateBinary. */
    gone = desc;
    ASSERT_RC(aclrtDestroyBinary(gone), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a live aclrtBinary");
    ASSERT_RC(aclrtBinaryLoad(gone, &bin), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtDestroyBinary((aclrtBinary)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
    t_teardown();
}

/* ---- SIMT launches ------------------------------------------------------------------
 * Rules (CANN): func or hostArgs NULL, argsSize 0 -> 100000 (acl layer);
 * then the stream (WithHostArgs) or the kernel (WithArgsArray) first;
 * gridDim or blockDim with a 0 -> 107000; placeholders: array NULL with a
 * count, or an offset not below argsSize -> 107000. A kernel without
 * parameter information (every CPU kernel) -> 107000 for WithArgsArray. */

static _Atomic int simt_seen[24];
static _Atomic uint32_t simt_num;

static void k_simt(void *args)
{
    int32_t add;
    memcpy(&add, args, sizeof(add));
    atomic_fetch_add(&simt_seen[aclcpuGetBlockIdx() % 24], add);
    atomic_store(&simt_num, aclcpuGetBlockNum());
}

TEST(kernel, simt_grid_runs_as_blocks)
{
    aclrtFuncHandle k = t_kernel("kernel_simt", k_simt);
    aclrtStream s = NULL;
    int32_t add = 3;
    dim3 grid = {2, 3, 4}, block = {32, 4, 1};

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_flag_gate(&gate_open, s);
    ASSERT_OK(aclrtLaunchSIMTKernelWithHostArgs(k, grid, block, 0, s, NULL, &add, sizeof(add), NULL, 0));
    add = 100; /* copied at the call */
    atomic_store(&gate_open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    /* x * y * z blocks, each once. */
    ASSERT_EQ(atomic_load(&simt_num), 24);
    for (int i = 0; i < 24; i++)
        ASSERT_EQ(atomic_load(&simt_seen[i]), 3);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A SIMT grid may make exactly UINT32_MAX blocks (65535 x 65537): that
 * grid passes the count check and fails on the next one (placeholders),
 * while 65536 x 65536 (UINT32_MAX + 1) is refused by the count. */
TEST(kernel, a_simt_grid_of_exactly_uint32_max_blocks_passes_the_count_check)
{
    aclrtFuncHandle k = t_kernel("kernel_simt_max", k_nop);
    int32_t args[2] = {0, 0};
    dim3 one = {1, 1, 1}, most = {65535, 65537, 1}, over = {65536, 65536, 1};
    t_setup();
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, most, one, 0, NULL, NULL, args, sizeof(args), NULL, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'placeHolderArray' is NULL");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, over, one, 0, NULL, NULL, args, sizeof(args), NULL, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "makes 4294967296 blocks");
    t_teardown();
}

TEST(kernel, simt_host_args_checks)
{
    aclrtFuncHandle k = t_kernel("kernel_simt", k_simt);
    aclrtStream s = NULL, gone = NULL;
    int32_t args[4] = {1, 2, 3, 4};
    dim3 one = {1, 1, 1}, zero_y = {4, 0, 1}, zero_z = {1, 1, 0}, huge = {65536, 65536, 2};
    aclrtPlaceHolderInfo ph_ok = {0, 8}, ph_addr = {sizeof(args), 0}, ph_data = {0, sizeof(args)};

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&gone));
    ASSERT_OK(aclrtDestroyStream(gone));
    /* The acl layer's checks come before the stream's. */
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(NULL, one, one, 0, gone, NULL, args, sizeof(args), NULL, 0),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtLaunchSIMTKernelWithHostArgs: argument 'func' is NULL");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, gone, NULL, NULL, sizeof(args), NULL, 0),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'hostArgs' is NULL");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, gone, NULL, args, 0, NULL, 0),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'argsSize' is 0");
    /* Then the stream, then the kernel, then the dimensions. */
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs((void *)(uintptr_t)0x1234, zero_y, one, 0, gone, NULL, args,
                                                sizeof(args), NULL, 0),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs((void *)(uintptr_t)0x1234, zero_y, one, 0, s, NULL, args,
                                                sizeof(args), NULL, 0),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'func'");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, zero_y, zero_z, 0, s, NULL, args, sizeof(args), NULL, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "gridDim (4, 0, 1)");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, zero_z, one, 0, s, NULL, args, sizeof(args), NULL, 0),
              ACL_ERROR_RT_PARAM_INVALID); /* each of the grid's three sizes */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "gridDim (1, 1, 0)");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, zero_z, 0, s, NULL, args, sizeof(args), NULL, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "blockDim (1, 1, 0)");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, huge, one, 0, s, NULL, args, sizeof(args), NULL, 0),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "8589934592 blocks");
    /* Placeholders. */
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, s, NULL, args, sizeof(args), NULL, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'placeHolderArray' is NULL");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, s, NULL, args, sizeof(args), &ph_addr, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "placeHolderArray[0]");
    ASSERT_RC(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, s, NULL, args, sizeof(args), &ph_data, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtLaunchSIMTKernelWithHostArgs(k, one, one, 0, s, NULL, args, sizeof(args), &ph_ok, 1));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(kernel, simt_args_array_needs_parameter_information)
{
    aclrtFuncHandle k = t_kernel("kernel_simt", k_simt);
    aclrtStream s = NULL, gone = NULL;
    int32_t add = 1;
    void *args[1] = {&add};
    dim3 one = {1, 1, 1}, zero = {0, 0, 0};

    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&gone));
    ASSERT_OK(aclrtDestroyStream(gone));
    ASSERT_RC(aclrtLaunchSIMTKernelWithArgsArray(NULL, one, one, 0, gone, NULL, args), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtLaunchSIMTKernelWithArgsArray: argument 'func' is NULL");
    /* The kernel before the stream here. */
    ASSERT_RC(aclrtLaunchSIMTKernelWithArgsArray((void *)(uintptr_t)0x1234, one, one, 0, gone, NULL, args),
              ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'func'");
    ASSERT_RC(aclrtLaunchSIMTKernelWithArgsArray(k, one, one, 0, gone, NULL, args), ACL_ERROR_RT_INVALID_HANDLE);
    /* Then the missing parameter information, before the grid. */
    ASSERT_RC(aclrtLaunchSIMTKernelWithArgsArray(k, zero, zero, 0, s, NULL, args), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "no parameter information");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void k_ph_noop(void *args) { (void)args; }

/* A placeholder's pointer slot may end exactly at the end of the argument
 * bytes (addrOffset = size - 8); one byte further is refused (aclcpu's
 * room for the pointer), as is data starting at the end or past it: the
 * runtime wants both offsets below the size (107000). */
TEST(kernel, host_args_placeholder_bounds_hit_exactly)
{
    _Alignas(16) unsigned char host[PH_SIZE];
    aclrtPlaceHolderInfo last = {PH_SIZE - 8, PH_SIZE - 1}, over = {PH_SIZE - 7, 0}, data_past = {0, PH_SIZE + 1},
                         data_at_end = {0, PH_SIZE};
    aclrtStream s = NULL;
    aclrtFuncHandle k = t_kernel("kernel_ph_noop", k_ph_noop);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(host, 0, sizeof(host));
    ASSERT_OK(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &last, 1));
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &over, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &data_past, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 1, s, NULL, host, sizeof(host), &data_at_end, 1),
              ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* An argument handle holds 128 parameters, as the runtime's (MAX_PARAM_CNT):
 * the 128th appends, the 129th (a value or a placeholder) is refused. */
TEST(kernel, args_handle_holds_exactly_128_parameters)
{
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle p = NULL;
    int32_t v = 7;
    t_setup();
    ASSERT_OK(aclrtKernelArgsInit(t_kernel("kernel_ph_noop", k_ph_noop), &ah));
    for (int i = 0; i < 128; i++)
        ASSERT_OK(aclrtKernelArgsAppend(ah, &v, sizeof(v), &p));
    ASSERT_RC(aclrtKernelArgsAppend(ah, &v, sizeof(v), &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtKernelArgsAppendPlaceHolder(ah, &p), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    t_teardown();
}

/* ---- the launch calls' checks, in the runtime's order (audit) -------------------------------- */

/* The call fails with code and the message names the rule by `needle`. */
#define ASSERT_FAILS_WITH(call, code, needle)                                                                   \
    do {                                                                                                       \
        (void)aclGetRecentErrMsg();                                                                            \
        ASSERT_RC(call, code);                                                                                 \
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), needle);                                                     \
    } while (0)

/* aclrtLaunchKernel: funcHandle NULL (100000); then the kernel handle and
 * the stream handle (107017) before any argument rule; then numBlocks
 * (0 and above 0xFFFF, 107000). */
TEST(kernel, launch_checks_kernel_then_stream_then_blocks)
{
    aclrtFuncHandle k;
    aclrtStream s = NULL, dead = NULL;
    int64_t arg = 0;
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_FAILS_WITH(aclrtLaunchKernel(NULL, 0, NULL, 8, dead), ACL_ERROR_INVALID_PARAM,
                      "aclrtLaunchKernel: argument 'funcHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernel(k, 1, NULL, 8, s), ACL_ERROR_INVALID_PARAM, "'argsData' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernel((aclrtFuncHandle)s, 0, &arg, sizeof(arg), dead), ACL_ERROR_RT_INVALID_HANDLE,
                      "'funcHandle'");
    ASSERT_FAILS_WITH(aclrtLaunchKernel(k, 0, &arg, sizeof(arg), dead), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_FAILS_WITH(aclrtLaunchKernel(k, 0, &arg, sizeof(arg), s), ACL_ERROR_RT_PARAM_INVALID, "'numBlocks' is 0");
    ASSERT_FAILS_WITH(aclrtLaunchKernel(k, 0x10000u, &arg, sizeof(arg), s), ACL_ERROR_RT_PARAM_INVALID,
                      "'numBlocks' is 65536");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* aclrtLaunchKernelV2 and ...WithHostArgs check the arguments (the
 * placeholders) before numBlocks, and numBlocks before cfg: NULL
 * cfg->attrs is refused whatever numAttrs is (107000). */
TEST(kernel, launch_v2_checks_arguments_then_blocks_then_cfg)
{
    _Alignas(16) unsigned char host[PH_SIZE];
    aclrtPlaceHolderInfo bad = {PH_SIZE, 0};
    aclrtLaunchKernelCfg no_attrs = {NULL, 0};
    aclrtFuncHandle k;
    aclrtStream s = NULL;
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclrtCreateStream(&s));
    memset(host, 0, sizeof(host));
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithHostArgs(k, 0, s, &no_attrs, host, sizeof(host), &bad, 1),
                      ACL_ERROR_RT_PARAM_INVALID, "placeHolderArray[0]");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithHostArgs(k, 0, s, &no_attrs, host, sizeof(host), NULL, 1),
                      ACL_ERROR_RT_PARAM_INVALID, "'placeHolderArray' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithHostArgs(k, 0, s, &no_attrs, host, sizeof(host), NULL, 0),
                      ACL_ERROR_RT_PARAM_INVALID, "'numBlocks' is 0");
    ASSERT_FAILS_WITH(aclrtLaunchKernelV2(k, 0, host, sizeof(host), &no_attrs, s), ACL_ERROR_RT_PARAM_INVALID,
                      "'numBlocks' is 0");
    ASSERT_FAILS_WITH(aclrtLaunchKernelV2(k, 1, host, sizeof(host), &no_attrs, s), ACL_ERROR_RT_PARAM_INVALID,
                      "'cfg->attrs' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithHostArgs(NULL, 1, s, NULL, host, sizeof(host), NULL, 0),
                      ACL_ERROR_INVALID_PARAM, "'funcHandle' is NULL");
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&counter), 0);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The attribute values are checked (107000) before the context; an
 * unknown id after them, and the context (107002) after the id. */
TEST(kernel, launch_cfg_values_then_ids_then_context)
{
    aclrtLaunchKernelAttr attrs[2];
    aclrtLaunchKernelCfg cfg = {attrs, 2};
    aclrtFuncHandle k = t_kernel("kernel_inc", k_inc);
    int64_t arg = 0;
    ASSERT_OK(aclInit(NULL));
    memset(attrs, 0, sizeof(attrs));
    attrs[0].id = (aclrtLaunchKernelAttrId)99;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    attrs[1].value.schemMode = 2;
    /* No context: the values are checked first, then the id, then the context. */
    ASSERT_FAILS_WITH(aclrtLaunchKernelV2(k, 1, &arg, sizeof(arg), &cfg, NULL), ACL_ERROR_RT_PARAM_INVALID,
                      "schemMode 2");
    attrs[1].value.schemMode = 1;
    ASSERT_FAILS_WITH(aclrtLaunchKernelV2(k, 1, &arg, sizeof(arg), &cfg, NULL), ACL_ERROR_RT_PARAM_INVALID,
                      "attrs[0].id 99");
    cfg.numAttrs = 1;
    attrs[0] = attrs[1];
    ASSERT_FAILS_WITH(aclrtLaunchKernelV2(k, 1, &arg, sizeof(arg), &cfg, NULL), ACL_ERROR_RT_CONTEXT_NULL,
                      "aclrtLaunchKernelV2");
    ASSERT_OK(aclFinalize());
}

/* A stream of another context is refused (107003) once the current
 * context is known; the kernel does not run. */
TEST(kernel, launch_on_a_stream_of_another_context_is_refused)
{
    aclrtContext primary = NULL, other = NULL;
    aclrtStream foreign = NULL;
    aclrtFuncHandle k;
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_FAILS_WITH(aclrtLaunchKernel(k, 1, NULL, 0, foreign), ACL_ERROR_RT_STREAM_CONTEXT,
                      "aclrtLaunchKernel: argument 'stream'");
    ASSERT_RC(aclrtLaunchKernelV2(k, 1, NULL, 0, NULL, foreign), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_RC(aclrtLaunchKernelWithHostArgs(k, 1, foreign, NULL, NULL, 0, NULL, 0), ACL_ERROR_RT_STREAM_CONTEXT);
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtSynchronizeStream(foreign));
    ASSERT_EQ(atomic_load(&counter), 0);
    ASSERT_OK(aclrtLaunchKernel(k, 1, NULL, 0, foreign));
    ASSERT_OK(aclrtSynchronizeStream(foreign));
    ASSERT_EQ(atomic_load(&counter), 1);
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* The argument-handle calls check their NULLs and sizes first (100000, in
 * the declared order), then the handles (107017), then the handle's state:
 * no parameter once a placeholder buffer was handed out or the handle is
 * finalized (207000), a buffer only for a placeholder and only before
 * Finalize, ParaUpdate only of a value of the same size (107000). */
TEST(kernel, args_handle_checks_nulls_then_handles_then_state)
{
    aclrtArgsHandle ah = NULL, stale = (aclrtArgsHandle)(uintptr_t)0x1234;
    aclrtParamHandle pv = NULL, pp = NULL, p = NULL;
    aclrtFuncHandle k;
    int64_t v = 5;
    void *buf = NULL;
    t_setup();
    k = t_kernel("kernel_ph_noop", k_ph_noop);
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(stale, NULL, 8, &p), ACL_ERROR_INVALID_PARAM, "'param' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(stale, &v, 0, NULL), ACL_ERROR_INVALID_PARAM, "'paramSize' is 0");
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(stale, &v, 8, NULL), ACL_ERROR_INVALID_PARAM, "'paramHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(stale, &v, 8, &p), ACL_ERROR_RT_INVALID_HANDLE, "'argsHandle'");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetPlaceHolderBuffer(stale, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM,
                      "'paramHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsParaUpdate(stale, (aclrtParamHandle)(uintptr_t)1, &v, 0), ACL_ERROR_INVALID_PARAM,
                      "'paramSize' is 0");
    ASSERT_FAILS_WITH(aclrtKernelArgsFinalize(NULL), ACL_ERROR_INVALID_PARAM, "aclrtKernelArgsFinalize");
    ASSERT_FAILS_WITH(aclrtKernelArgsFinalize(stale), ACL_ERROR_RT_INVALID_HANDLE, "aclrtKernelArgsFinalize");

    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsAppend(ah, &v, sizeof(v), &pv));
    ASSERT_OK(aclrtKernelArgsAppendPlaceHolder(ah, &pp));
    ASSERT_FAILS_WITH(aclrtKernelArgsGetPlaceHolderBuffer(ah, (aclrtParamHandle)(uintptr_t)77, 8, &buf),
                      ACL_ERROR_RT_INVALID_HANDLE, "'paramHandle'");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetPlaceHolderBuffer(ah, pv, 8, &buf), ACL_ERROR_RT_PARAM_INVALID,
                      "value parameter");
    ASSERT_FAILS_WITH(aclrtKernelArgsParaUpdate(ah, pp, &v, sizeof(v)), ACL_ERROR_RT_PARAM_INVALID, "placeholder");
    ASSERT_FAILS_WITH(aclrtKernelArgsParaUpdate(ah, pv, &v, 4), ACL_ERROR_RT_PARAM_INVALID, "'paramSize' is 4");
    ASSERT_OK(aclrtKernelArgsGetPlaceHolderBuffer(ah, pp, 16, &buf));
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(ah, &v, sizeof(v), &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      "placeholder buffer");
    ASSERT_FAILS_WITH(aclrtKernelArgsAppendPlaceHolder(ah, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "placeholder buffer");
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_FAILS_WITH(aclrtKernelArgsGetPlaceHolderBuffer(ah, pp, 16, &buf), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      "finalized");
    ASSERT_OK(aclrtKernelArgsParaUpdate(ah, pv, &v, sizeof(v)));
    /* Finalize needs a context (the runtime's Finalize looks at the device). */
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_FAILS_WITH(aclrtKernelArgsFinalize(ah), ACL_ERROR_RT_CONTEXT_NULL, "aclrtKernelArgsFinalize");
    ASSERT_OK(aclFinalize());
}

/* Appends after Finalize are refused with 207000, and a finalized handle's
 * launch (WithConfig) checks the kernel, the argument handle, then the
 * stream (107017 each), then the handle's state (107000). */
TEST(kernel, launch_with_config_checks_in_the_runtimes_order)
{
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle p = NULL;
    aclrtStream s = NULL, dead = NULL;
    aclrtFuncHandle k;
    int64_t v = 1;
    t_setup();
    k = t_kernel("kernel_ph_noop", k_ph_noop);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_OK(aclrtKernelArgsInit(k, &ah));
    ASSERT_OK(aclrtKernelArgsAppend(ah, &v, sizeof(v), &p));
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 0, dead, NULL, NULL, &v), ACL_ERROR_INVALID_PARAM,
                      "'numBlocks' is 0");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 1, dead, NULL, NULL, &v), ACL_ERROR_INVALID_PARAM,
                      "'argsHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 1, dead, NULL, ah, &v), ACL_ERROR_INVALID_PARAM, "'reserve'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig((aclrtFuncHandle)s, 1, dead, NULL, (aclrtArgsHandle)s, NULL),
                      ACL_ERROR_RT_INVALID_HANDLE, "'funcHandle'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 1, dead, NULL, (aclrtArgsHandle)s, NULL),
                      ACL_ERROR_RT_INVALID_HANDLE, "'argsHandle'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 0x10000u, dead, NULL, ah, NULL), ACL_ERROR_RT_INVALID_HANDLE,
                      "'stream'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 0x10000u, s, NULL, ah, NULL), ACL_ERROR_RT_PARAM_INVALID,
                      "not finalized");
    ASSERT_OK(aclrtKernelArgsFinalize(ah));
    ASSERT_FAILS_WITH(aclrtKernelArgsAppend(ah, &v, sizeof(v), &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "finalized");
    ASSERT_FAILS_WITH(aclrtKernelArgsAppendPlaceHolder(ah, &p), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "finalized");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithConfig(k, 0x10000u, s, NULL, ah, NULL), ACL_ERROR_RT_PARAM_INVALID,
                      "'numBlocks' is 65536");
    ASSERT_OK(aclrtLaunchKernelWithConfig(k, 0xFFFFu, s, NULL, ah, NULL));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static aclrtArgsHandle other_thread_handle;

static void *init_in_a_thread(void *arg)
{
    if (aclrtKernelArgsInit((aclrtFuncHandle)arg, &other_thread_handle) != ACL_SUCCESS)
        other_thread_handle = NULL;
    return NULL;
}

/* As the runtime's, the argument handle belongs to its thread: a second
 * aclrtKernelArgsInit starts the same handle afresh (its parameters are
 * gone), another thread gets its own, and a thread's handle ends with it. */
TEST(kernel, args_handle_is_one_per_thread_and_ends_with_it)
{
    aclrtArgsHandle a = NULL, b = NULL;
    aclrtParamHandle p = NULL;
    aclrtFuncHandle k;
    pthread_t th;
    int64_t v = 3;
    t_setup();
    k = t_kernel("kernel_ph_noop", k_ph_noop);
    ASSERT_OK(aclrtKernelArgsInit(k, &a));
    ASSERT_OK(aclrtKernelArgsAppend(a, &v, sizeof(v), &p));
    ASSERT_OK(aclrtKernelArgsFinalize(a));
    ASSERT_OK(aclrtKernelArgsInit(k, &b));
    ASSERT_EQ(a, b);
    ASSERT_RC(aclrtKernelArgsParaUpdate(b, p, &v, sizeof(v)), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtKernelArgsAppend(b, &v, sizeof(v), &p)); /* not finalized any more */
    ASSERT_EQ(pthread_create(&th, NULL, init_in_a_thread, k), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT(other_thread_handle != NULL);
    ASSERT(other_thread_handle != a);
    ASSERT_RC(aclrtKernelArgsFinalize(other_thread_handle), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtKernelArgsFinalize(a));
    t_teardown();
}

/* aclrtBinaryLoadFromFile / FromData: binPath or data, then binHandle NULL
 * (100000); FromData's length 0 (107000); then the load options as the
 * runtime's loader parses them (107000: options->options NULL, an unknown
 * type, isLazyLoad above 1, a magic from a file or not a kernel magic, a
 * CPU kernel mode other than 0/1 from a file or 2 from data); then a file
 * that cannot be loaded (107000). */
TEST(kernel, binary_loads_check_nulls_then_length_then_options_then_file)
{
    const char *path = ACLCPU_BUILD_DIR "/libaclcpu.so";
    aclrtBinaryLoadOption opt;
    aclrtBinaryLoadOptions opts = {&opt, 1}, no_array = {NULL, 1};
    aclrtBinHandle b = NULL;
    size_t n = 0;
    char *bytes = read_kernel_library(&n);
    t_setup();
    memset(&opt, 0, sizeof(opt));
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(NULL, &no_array, NULL), ACL_ERROR_INVALID_PARAM, "'binPath' is NULL");
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(path, &no_array, NULL), ACL_ERROR_INVALID_PARAM, "'binHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile("", &no_array, &b), ACL_ERROR_RT_PARAM_INVALID, "options->options");
    opt.type = (aclrtBinaryLoadOptionType)9;
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(path, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "type 9");
    opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 2;
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(path, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "isLazyLoad 2");
    opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
    opt.value.magic = ACL_RT_BINARY_MAGIC_ELF_AICORE;
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(path, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "aclrtBinaryLoadFromData");
    opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = 2;
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile(path, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "cpuKernelMode 2");
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile("", NULL, &b), ACL_ERROR_RT_PARAM_INVALID, "'binPath'");
    ASSERT_FAILS_WITH(aclrtBinaryLoadFromFile("/nonexistent/libnokernel.so", NULL, &b), ACL_ERROR_RT_PARAM_INVALID,
                      "aclrtBinaryLoadFromFile");
    opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 1;
    ASSERT_OK(aclrtBinaryLoadFromFile(path, &opts, &b));
    ASSERT_OK(aclrtBinaryUnLoad(b));
    if (bytes != NULL) {
        ASSERT_FAILS_WITH(aclrtBinaryLoadFromData(bytes, 0, &no_array, &b), ACL_ERROR_RT_PARAM_INVALID,
                          "'length' is 0");
        ASSERT_FAILS_WITH(aclrtBinaryLoadFromData(bytes, n, &no_array, &b), ACL_ERROR_RT_PARAM_INVALID,
                          "options->options");
        opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
        opt.value.magic = 0x1234;
        ASSERT_FAILS_WITH(aclrtBinaryLoadFromData(bytes, n, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "magic 0x1234");
        opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
        opt.value.cpuKernelMode = 1;
        ASSERT_FAILS_WITH(aclrtBinaryLoadFromData(bytes, n, &opts, &b), ACL_ERROR_RT_PARAM_INVALID, "cpuKernelMode 1");
        opt.value.cpuKernelMode = 2;
        ASSERT_OK(aclrtBinaryLoadFromData(bytes, n, &opts, &b));
        ASSERT_OK(aclrtBinaryUnLoad(b));
        free(bytes);
    }
    t_teardown();
}

/* aclrtBinaryGetFunction checks its three NULLs (100000) before the
 * binary handle (107017); a name the binary lacks is 107000.
 * aclrtBinaryLoad needs a current context (107002) after its own checks;
 * FromFile, GetFunction and UnLoad do not. */
TEST(kernel, binary_get_function_nulls_first_and_load_needs_a_context)
{
    const char *path = ACLCPU_BUILD_DIR "/libaclcpu.so";
    aclrtBinHandle b = NULL, stale = (aclrtBinHandle)(uintptr_t)0x1234;
    aclrtFuncHandle f = NULL;
    aclrtBinary desc, empty;
    static const char bytes[] = "some bytes";
    ASSERT_OK(aclInit(NULL));
    ASSERT_FAILS_WITH(aclrtBinaryGetFunction(stale, NULL, &f), ACL_ERROR_INVALID_PARAM, "'kernelName' is NULL");
    ASSERT_FAILS_WITH(aclrtBinaryGetFunction(stale, "k", NULL), ACL_ERROR_INVALID_PARAM, "'funcHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtBinaryGetFunction(stale, "k", &f), ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction");
    /* No context. */
    ASSERT_OK(aclrtBinaryLoadFromFile(path, NULL, &b));
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &f));
    ASSERT_FAILS_WITH(aclrtBinaryGetFunction(b, "no_such_kernel_symbol", &f), ACL_ERROR_RT_PARAM_INVALID,
                      "no_such_kernel_symbol");
    ASSERT_OK(aclrtBinaryUnLoad(b));
    desc = aclrtCreateBinary(bytes, sizeof(bytes));
    empty = aclrtCreateBinary(bytes, 0);
    ASSERT_FAILS_WITH(aclrtBinaryLoad(empty, &b), ACL_ERROR_RT_PARAM_INVALID, "length is 0");
    ASSERT_FAILS_WITH(aclrtBinaryLoad(desc, &b), ACL_ERROR_RT_CONTEXT_NULL, "aclrtBinaryLoad");
    ASSERT_OK(aclrtDestroyBinary(desc));
    ASSERT_OK(aclrtDestroyBinary(empty));
    ASSERT_OK(aclFinalize());
}

/* ---- aclrtCmoAsync (audit) -------------------------------------------------------------------- */

/* aclrtCmoAsync: src NULL, size 0 (100000); then the chip (207000 where
 * it has no cache operations) and the operation (207000) before the
 * stream handle (107017), the context (107002) and the stream's context
 * (107003). */
TEST(kernel, cmo_async_checks_chip_and_type_before_the_stream)
{
    static char buf[256];
    aclrtContext primary = NULL, other = NULL;
    aclrtStream dead = NULL, foreign = NULL;
    ASSERT_OK(aclInit(NULL));
    /* No context yet: the operation's checks come first. */
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, (aclrtCmoType)4, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "'cmoType'");
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_CONTEXT_NULL,
                      "aclrtCmoAsync");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetCurrentContext(&primary));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, (aclrtCmoType)4, dead), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "'cmoType'");
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_FLUSH, dead), ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_OK(aclrtCreateContext(&other, 0));
    ASSERT_OK(aclrtCreateStream(&foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_FLUSH, foreign), ACL_ERROR_RT_STREAM_CONTEXT,
                      "another context");
    ASSERT_OK(aclrtSetCurrentContext(other));
    ASSERT_OK(aclrtDestroyStream(foreign));
    ASSERT_OK(aclrtSetCurrentContext(primary));
    ASSERT_OK(aclrtDestroyContext(other));
    ASSERT_OK(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_FLUSH, NULL));
    ASSERT_OK(aclrtSynchronizeDevice());
    t_teardown();
}

/* On a chip without cache operations the chip's 207000 comes before the
 * stream handle and the context. */
TEST(kernel, cmo_async_chip_check_precedes_the_stream_and_context)
{
    static char buf[64];
    ASSERT(setenv("ACLCPU_SOC", "Ascend310P3", 1) == 0);
    ASSERT_OK(aclInit(NULL));
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_PREFETCH, (aclrtStream)(uintptr_t)0x1234),
                      ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "no cache operations");
    ASSERT_FAILS_WITH(aclrtCmoAsync(buf, 64, ACL_RT_CMO_TYPE_PREFETCH, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      "no cache operations");
    ASSERT_OK(aclFinalize());
}

/* aclrtLaunchKernelWithArgsArray: func NULL, numBlocks 0 (100000); the
 * stream handle (107017); a current context (107002); func must be a
 * kernel's symbol (the function aclcpuRegisterKernel registered) or a live
 * kernel handle (107017); then an argument array for a CPU kernel is not
 * supported (207000). The SIMT launches take a symbol too. */
TEST(kernel, args_array_launch_checks_then_is_not_supported)
{
    void *argv[1];
    int32_t one_arg = 5;
    dim3 one = {1, 1, 1};
    aclrtStream s = NULL, dead = NULL;
    aclrtFuncHandle k = t_kernel("kernel_simt", k_simt);
    ASSERT_OK(aclInit(NULL));
    argv[0] = &one_arg;
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray(NULL, 1, NULL, NULL, argv), ACL_ERROR_INVALID_PARAM,
                      "'func' is NULL");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray((void *)k, 0, NULL, NULL, argv), ACL_ERROR_INVALID_PARAM,
                      "'numBlocks' is 0");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray((void *)k, 1, NULL, NULL, argv), ACL_ERROR_RT_CONTEXT_NULL,
                      "aclrtLaunchKernelWithArgsArray");
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&dead));
    ASSERT_OK(aclrtDestroyStream(dead));
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray((void *)(uintptr_t)0x1234, 1, dead, NULL, argv),
                      ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray((void *)(uintptr_t)0x1234, 1, s, NULL, argv),
                      ACL_ERROR_RT_INVALID_HANDLE, "'func'");
    ASSERT_FAILS_WITH(aclrtLaunchKernelWithArgsArray((void *)k, 1, s, NULL, argv), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      "aclrtLaunchKernelWithArgsArray");
    ASSERT_RC(aclrtLaunchKernelWithArgsArray((void *)(uintptr_t)k_simt, 1, s, NULL, argv),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT); /* the kernel's symbol names it too */
    /* The SIMT launch by symbol runs the registered kernel. */
    ASSERT_OK(aclrtLaunchSIMTKernelWithHostArgs((void *)(uintptr_t)k_simt, one, one, 0, s, NULL, &one_arg,
                                                sizeof(one_arg), NULL, 0));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(atomic_load(&simt_seen[0]), 5);
    ASSERT_FAILS_WITH(aclrtLaunchSIMTKernelWithArgsArray((void *)(uintptr_t)k_simt, one, one, 0, dead, NULL, argv),
                      ACL_ERROR_RT_INVALID_HANDLE, "'stream'");
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The user-memory argument handles: their NULLs and sizes (100000, in the
 * declared order), the kernel handle (107017), then 207000: not supported
 * on aclcpu (differences.md). */
TEST(kernel, user_memory_argument_handles_check_then_are_not_supported)
{
    static unsigned char mem[256];
    size_t n = 0;
    aclrtFuncHandle k = t_kernel("kernel_ph_noop", k_ph_noop), stale = (aclrtFuncHandle)(uintptr_t)0x1234;
    t_setup();
    ASSERT_FAILS_WITH(aclrtKernelArgsGetHandleMemSize(NULL, &n), ACL_ERROR_INVALID_PARAM, "'funcHandle' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetHandleMemSize(stale, NULL), ACL_ERROR_INVALID_PARAM, "'memSize' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetHandleMemSize(stale, &n), ACL_ERROR_RT_INVALID_HANDLE, "'funcHandle'");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetHandleMemSize(k, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "user-memory");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetMemSize(stale, 8, NULL), ACL_ERROR_INVALID_PARAM, "'actualArgsSize' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetMemSize(stale, 8, &n), ACL_ERROR_RT_INVALID_HANDLE, "'funcHandle'");
    ASSERT_FAILS_WITH(aclrtKernelArgsGetMemSize(k, 8, &n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "user-memory");
    ASSERT_FAILS_WITH(aclrtKernelArgsInitByUserMem(k, (aclrtArgsHandle)mem, NULL, sizeof(mem)),
                      ACL_ERROR_INVALID_PARAM, "'userHostMem' is NULL");
    ASSERT_FAILS_WITH(aclrtKernelArgsInitByUserMem(stale, (aclrtArgsHandle)mem, mem, 0), ACL_ERROR_INVALID_PARAM,
                      "'actualArgsSize' is 0");
    ASSERT_FAILS_WITH(aclrtKernelArgsInitByUserMem(stale, (aclrtArgsHandle)mem, mem, sizeof(mem)),
                      ACL_ERROR_RT_INVALID_HANDLE, "'funcHandle'");
    ASSERT_FAILS_WITH(aclrtKernelArgsInitByUserMem(k, (aclrtArgsHandle)mem, mem, sizeof(mem)),
                      ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "user-memory");
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------------------- */

/* The attributes' values are checked as the last of each id left them:
 * a schemMode of 2 followed by one of 0 launches (the 0 counts), and the
 * other order is refused (107000, naming schemMode). */
TEST(kernel, the_last_schem_mode_attribute_is_the_one_checked)
{
    aclrtFuncHandle k;
    aclrtLaunchKernelAttr two_then_zero[2], zero_then_two[2];
    t_setup();
    k = t_kernel("kernel_inc", k_inc);
    two_then_zero[0] = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 2);
    two_then_zero[1] = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, 0);
    zero_then_two[0] = two_then_zero[1];
    zero_then_two[1] = two_then_zero[0];
    ASSERT_OK(launch_with_attrs(k, 1, NULL, 0, two_then_zero, 2, NULL));
    ASSERT_RC(launch_with_attrs(k, 1, NULL, 0, zero_then_two, 2, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "schemMode 2");
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    ASSERT_EQ(atomic_load(&counter), 1);
    t_teardown();
}

/* TIMEOUT_US is 64 bits, its high word first: high 1, low 1000 is about
 * 71 minutes, so a block that starts 50 ms late runs (low word alone, 1 ms,
 * would trip). */
TEST(kernel, timeout_us_takes_its_high_word)
{
    aclrtLaunchKernelAttr us = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 0);
    us.value.timeoutUs.timeoutHigh = 1;
    us.value.timeoutUs.timeoutLow = 1000;
    setenv("ACLCPU_WORKERS", "1", 1);
    t_setup();
    ASSERT_OK(late_second_block(&us, 1, 50000000ull));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* A one-block kernel keeps its timeout too (it runs on the launch's own
 * fast path, which must not drop it): held 20 ms past a TIMEOUT_US of
 * 1000, it fails with the vector core's timeout. */
TEST(kernel, a_one_block_kernel_that_outlasts_its_timeout_fails)
{
    aclrtLaunchKernelAttr us = attr_of(ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US, 1000);
    struct t_gate g = {0};
    struct t_gate *gp = &g;
    uint64_t open_at;
    t_setup();
    ASSERT_OK(launch_with_attrs(t_kernel("t_gate", t_k_gate), 1, &gp, sizeof(gp), &us, 1, NULL));
    ASSERT(t_wait_at_least(&g.started, 1));
    for (open_at = t_now_ns() + 20000000ull; t_now_ns() < open_at;)
        sched_yield();
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_VECTOR_CORE_TIMEOUT);
    t_teardown();
}

/* A thread's args handle is one object that aclrtKernelArgsInit starts
 * afresh: the second Init's parameters are the only ones, from offset 0,
 * not appended behind the first's (api_kernel.c args_clear). */
TEST(kernel, a_second_args_init_starts_with_no_parameters)
{
    aclrtArgsHandle ah = NULL;
    aclrtParamHandle p = NULL;
    aclrtStream s = NULL;
    aclrtFuncHandle k;
    int64_t *x, by;
    t_setup();
    k = t_add_kernel();
    x = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    for (int round = 0; round < 2; round++) {
        by = round == 0 ? 1 : 10;
        ASSERT_OK(aclrtKernelArgsInit(k, &ah));
        ASSERT_OK(aclrtKernelArgsAppend(ah, &x, sizeof(x), &p));
        ASSERT_OK(aclrtKernelArgsAppend(ah, &by, sizeof(by), &p));
        ASSERT_OK(aclrtKernelArgsFinalize(ah));
        ASSERT_OK(aclrtLaunchKernelWithConfig(k, 1, s, NULL, ah, NULL));
        ASSERT_OK(aclrtSynchronizeStream(s));
    }
    ASSERT_EQ(x[0], 11); /* 1, then 10: the second launch read its own parameters */
    ASSERT_OK(aclrtFree(x));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A kernel handle holds a name of 127 bytes and its NUL: a binary's kernel
 * of 127 bytes is found; one of 128 is not (107000, as any name the binary
 * does not export), rather than given a handle under its name cut short. */
TEST(kernel, a_binary_kernel_name_of_128_bytes_is_not_found)
{
    char name[129];
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle f = NULL;
    t_setup();
    ASSERT_OK(aclrtBinaryLoadFromFile(ACLCPU_TEST_LONG_NAMES, NULL, &bin));
    memset(name, 'k', 126);
    name[126] = '7';
    name[127] = '\0';
    ASSERT_OK(aclrtBinaryGetFunction(bin, name, &f));
    memset(name, 'k', 127);
    name[127] = '8';
    name[128] = '\0';
    f = NULL;
    ASSERT_RC(aclrtBinaryGetFunction(bin, name, &f), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(f == NULL);
    ASSERT_OK(aclrtBinaryUnLoad(bin));
    t_teardown();
}

/* ---- sweep 5 (issue 19): the inline argument room, filled exactly ---------------------- */

/* 128 bytes: a result pointer and 15 words. */
struct args128 {
    int64_t *out;
    uint64_t v[15];
};
_Static_assert(sizeof(struct args128) == 128, "the inline argument room of a task");

static void k_sum15(void *args)
{
    const struct args128 *a = args;
    int64_t sum = 0;
    for (int i = 0; i < 15; i++)
        sum += (int64_t)a->v[i];
    *a->out = sum;
}

/* A launch's arguments of exactly 128 bytes (a task's inline room) reach
 * the kernel whole (the inline copy is read, not a heap pointer). */
TEST(kernel, arguments_that_fill_the_inline_room_exactly_reach_the_kernel)
{
    struct args128 a;
    int64_t *out;
    aclrtStream s = NULL;
    t_setup();
    out = t_dev_i64(1);
    ASSERT_OK(aclrtCreateStream(&s));
    a.out = out;
    for (int i = 0; i < 15; i++)
        a.v[i] = (uint64_t)1 << i;
    ASSERT_OK(aclrtLaunchKernel(t_kernel("kernel_sum15", k_sum15), 1, &a, sizeof(a), s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_EQ(out[0], (int64_t)0x7fff);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtFree(out));
    t_teardown();
}

/* ---- sweep 5 (2026-12-05): the fault report of one kernel is not the next one's ---- */

/* The error log of this test, read without waiting: stdout goes into a
 * pipe before aclInit reads the log switches, and every line is written
 * inside the call (or the block) that logs it. */
static int kfault_log_fd = -1;

static const char *kfault_log(void)
{
    static char text[16384];
    static size_t len;
    ssize_t n;
    fflush(stdout);
    while ((n = read(kfault_log_fd, text + len, sizeof(text) - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = '\0';
    return text;
}

/* A block that faulted names the address it touched; a later trap on the
 * same thread (aclcpuTrap, no fault) names none: the fault's address is
 * dropped once reported, not carried into the next kernel's report. */
TEST(kernel, a_trap_after_a_fault_reports_no_stale_address)
{
    aclrtStream s = NULL;
    aclrtFuncHandle wildk = t_kernel("kernel_wild_pointer", k_wild_pointer);
    aclrtFuncHandle trapk = t_kernel("kernel_trap", k_trap);
    int *wild = (int *)(uintptr_t)64;
    static struct t_gate g;
    int fds[2];
#ifdef T_TSAN
    SKIP("kernel faults are not taken under ThreadSanitizer");
#endif
    setenv("ACLCPU_WORKERS", "1", 1);
    setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "3", 1);
    fflush(stdout);
    ASSERT_EQ(pipe(fds), 0);
    ASSERT_EQ(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
    ASSERT(dup2(fds[1], STDOUT_FILENO) >= 0);
    kfault_log_fd = fds[0];
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    /* Both queued behind a gate: the worker that holds the stream runs them in turn. */
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtLaunchKernel(wildk, 1, &wild, sizeof(wild), s));
    ASSERT_OK(aclrtLaunchKernel(trapk, 1, NULL, 0, s));
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_STR_CONTAINS(kfault_log(), "kernel 'kernel_wild_pointer' block 0 touched address");
    if (strstr(kfault_log(), "kernel 'kernel_trap' block 0 touched") != NULL)
        test_fail(__FILE__, __LINE__, "the trap reported the earlier fault's address:\n%s", kfault_log());
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
