/*
 * test_check.c - the race and lifetime checker (ACLCPU_CHECK, docs/checker.md).
 *
 * One buggy program per report class, each with its corrected twin that
 * draws no report. The checker decides at submission time, so no test
 * depends on how the tasks happen to run. Reports are counted with
 * aclcpuCheckGetReportCount (mode REPORT keeps the test's exit code), and
 * their text is read back from stderr, captured in a file. Exit 66 and
 * ACLCPU_CHECK=report are run in a forked child.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl_rt_memory_soma.h>

#include "test.h"

/* The buggy twins race for real when they run (that is what they are
 * for): under ThreadSanitizer their own race would be reported, so they
 * skip there; their corrected twins and the checker's threads still run. */
#ifdef T_TSAN
#define RACY() SKIP("the program races for real on purpose; ThreadSanitizer would report it")
#else
#define RACY() ((void)0)
#endif

static int saved_stderr = -1;
static char err_path[T_PATH_CAP];

/* Checker on (REPORT mode), stderr into a file, then aclInit and the device. */
static void on(void)
{
    int fd;
    fd = t_tmpfile(err_path, sizeof(err_path), "aclcpu-check");
    fflush(stderr);
    saved_stderr = dup(2);
    dup2(fd, 2);
    close(fd);
    ASSERT_OK(aclcpuCheckEnable(ACLCPU_CHECK_REPORT));
    t_setup();
}

/* What the checker wrote so far (a static buffer). */
static const char *said(void)
{
    static char buf[1 << 16];
    FILE *f;
    size_t n;
    fflush(stderr);
    f = fopen(err_path, "r");
    if (f == NULL)
        return "";
    n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

static uint64_t reports(void)
{
    uint64_t n = 0;
    ASSERT_OK(aclcpuCheckGetReportCount(&n));
    return n;
}

static void off(void)
{
    t_teardown();
    if (saved_stderr >= 0) {
        fflush(stderr);
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
    unlink(err_path);
}

static void *dev(size_t n)
{
    void *p = NULL;
    ASSERT_OK(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST));
    return p;
}

static aclrtStream stream(void)
{
    aclrtStream s = NULL;
    ASSERT_OK(aclrtCreateStream(&s));
    return s;
}

/* Orders everything issued so far on from before what is issued next on to. */
static void edge(aclrtStream from, aclrtStream to)
{
    aclrtEvent e;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtRecordEvent(e, from));
    ASSERT_OK(aclrtStreamWaitEvent(to, e));
    ASSERT_OK(aclrtDestroyEvent(e));
}

/* A kernel: args = {float *in, float *out, uint64_t n}: out[i] = 2 * in[i]. */
struct scale_args {
    float *in, *out;
    uint64_t n;
};
static void k_scale(void *args)
{
    struct scale_args *a = args;
    for (uint64_t i = aclcpuGetBlockIdx(); i < a->n; i += aclcpuGetBlockNum())
        a->out[i] = 2 * a->in[i];
}

static aclrtFuncHandle scale_kernel(bool declared)
{
    aclrtFuncHandle k = t_kernel(declared ? "check_scale_declared" : "check_scale", k_scale);
    if (declared) {
        ASSERT_OK(aclcpuCheckDeclareArg(k, 0, ACLCPU_CHECK_READ, sizeof(float), 2));
        ASSERT_OK(aclcpuCheckDeclareArg(k, 1, ACLCPU_CHECK_WRITE, sizeof(float), 2));
    }
    return k;
}

static void scale(aclrtFuncHandle k, float *in, float *out, uint64_t n, aclrtStream s)
{
    struct scale_args a = {in, out, n};
    ASSERT_OK(aclrtLaunchKernel(k, 2, &a, sizeof(a), s));
}

/* ---- cross-stream races --------------------------------------------------- */

TEST(check, write_read_race_across_streams_is_reported)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "==aclcpu-check== unsynchronised cross-stream write-read race");
    ASSERT_STR_CONTAINS(said(), "write by aclrtMemsetAsync");
    ASSERT_STR_CONTAINS(said(), "read by aclrtMemcpyAsync");
    ASSERT_STR_CONTAINS(said(), "record an event on stream");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, write_read_with_event_edge_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    edge(s1, s2);
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, write_write_race_across_streams_is_reported)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtMemsetAsync(buf + 128, 128, 2, 128, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "write-write race");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, write_write_in_one_stream_is_clean)
{
    on();
    aclrtStream s1 = stream();
    char *buf = dev(256);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 2, 256, s1));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* Boundary: ranges that touch but do not overlap do not conflict; one
 * shared byte does. */
TEST(check, adjacent_ranges_do_not_race_one_shared_byte_does)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256);
    ASSERT_OK(aclrtMemsetAsync(buf, 128, 1, 128, s1));
    ASSERT_OK(aclrtMemsetAsync(buf + 128, 128, 2, 128, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtMemsetAsync(buf + 127, 1, 3, 1, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* The three-stream program: the copy stream uploads step k's input,
 * the main stream's kernel reads it; step k + 1's upload overwrites the
 * input while step k's kernel may still read it (write after read). */
struct pipeline {
    aclrtStream copy_s, main_s, out_s;
    float *in, *out;
    aclrtFuncHandle k;
    aclrtEvent uploaded, consumed, downloaded;
};

/* One step; not inlined, so that every step issues from the same call
 * sites whatever the compiler does with the loop (reports are told once
 * per pair of call sites). */
static __attribute__((noinline)) void pipeline_step(struct pipeline *p, int step, bool fixed)
{
    enum { N = 256 };
    static float host_in[N], host_out[N];
    if (fixed && step > 0)
        ASSERT_OK(aclrtStreamWaitEvent(p->copy_s, p->consumed)); /* the input is free again */
    ASSERT_OK(aclrtMemcpyAsync(p->in, sizeof(host_in), host_in, sizeof(host_in), ACL_MEMCPY_HOST_TO_DEVICE,
                               p->copy_s));
    ASSERT_OK(aclrtRecordEvent(p->uploaded, p->copy_s));
    ASSERT_OK(aclrtStreamWaitEvent(p->main_s, p->uploaded));
    if (step > 0)
        ASSERT_OK(aclrtStreamWaitEvent(p->main_s, p->downloaded)); /* out is free again */
    scale(p->k, p->in, p->out, N, p->main_s);
    ASSERT_OK(aclrtRecordEvent(p->consumed, p->main_s));
    ASSERT_OK(aclrtStreamWaitEvent(p->out_s, p->consumed));
    ASSERT_OK(aclrtMemcpyAsync(host_out, sizeof(host_out), p->out, sizeof(host_out), ACL_MEMCPY_DEVICE_TO_HOST,
                               p->out_s));
    ASSERT_OK(aclrtRecordEvent(p->downloaded, p->out_s));
}

/* The three-stream program: the copy stream uploads step k's input,
 * the main stream's kernel reads it; step k + 1's upload overwrites the
 * input while step k's kernel may still read it (write after read). */
static void three_streams(bool fixed)
{
    struct pipeline p = {stream(), stream(), stream(), dev(1024), dev(1024), scale_kernel(true), NULL, NULL, NULL};
    ASSERT_OK(aclrtCreateEvent(&p.uploaded));
    ASSERT_OK(aclrtCreateEvent(&p.consumed));
    ASSERT_OK(aclrtCreateEvent(&p.downloaded));
    for (int step = 0; step < 3; step++)
        pipeline_step(&p, step, fixed);
    ASSERT_OK(aclrtSynchronizeDevice());
}

TEST(check, three_stream_reupload_while_kernel_reads_is_reported)
{
    RACY();
    on();
    three_streams(false);
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "read-write race");
    ASSERT_STR_CONTAINS(said(), "read by kernel 'check_scale_declared'");
    ASSERT_STR_CONTAINS(said(), "write by aclrtMemcpyAsync");
    off();
}

TEST(check, three_stream_reupload_after_consumed_event_is_clean)
{
    on();
    three_streams(true);
    ASSERT_EQ(reports(), 0);
    off();
}

/* Kernels: undeclared, a pointer argument counts as the whole allocation
 * read and written; declared, two kernels on disjoint halves are apart. */
static void halves(bool declared)
{
    aclrtStream s1 = stream(), s2 = stream();
    float *a = dev(1024 * sizeof(float)), *b = dev(1024 * sizeof(float));
    aclrtFuncHandle k = scale_kernel(declared);
    scale(k, a, b, 512, s1);
    scale(k, a + 512, b + 512, 512, s2);
    ASSERT_OK(aclrtSynchronizeDevice());
}

TEST(check, undeclared_kernels_share_whole_allocations)
{
    on();
    halves(false);
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "kernel 'check_scale'");
    off();
}

TEST(check, declared_kernels_have_no_false_sharing)
{
    on();
    halves(true);
    ASSERT_EQ(reports(), 0);
    off();
}

/* A kernel whose element count is its first argument: args = {uint64_t n,
 * float *p}: p[i] = 1 for i < n. */
struct fill_args {
    uint64_t n;
    float *p;
};
static void k_fill_counted(void *args)
{
    struct fill_args *a = args;
    for (uint64_t i = 0; i < a->n; i++)
        a->p[i] = 1;
}

/* A size argument may be any argument, the first (index 0) included: two
 * fills of 64 floats 32 apart overlap, which the checker sees only if it
 * reads the count from argument 0. The first fill waits behind a gate
 * until the second is done, so the program does not race for real. */
TEST(check, a_declared_size_argument_at_index_0_sizes_the_range)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    _Atomic int open = 0;
    float *buf = dev(128 * sizeof(float));
    aclrtFuncHandle k = t_kernel("check_fill_counted", k_fill_counted);
    struct fill_args a1 = {64, buf}, a2 = {64, buf + 32};
    ASSERT_OK(aclcpuCheckDeclareArg(k, 1, ACLCPU_CHECK_WRITE, sizeof(float), 0));
    t_launch_flag_gate(&open, s1);
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a1, sizeof(a1), s1));
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a2, sizeof(a2), s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "write-write race");
    ASSERT_OK(aclrtSynchronizeStream(s2));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s1));
    off();
}

/* Not inlined: its two calls are the same call sites every time. */
static __attribute__((noinline)) void racy_pair(char *buf, aclrtStream s1, aclrtStream s2)
{
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 2, 256, s2));
}

/* Identical reports (the same pair of call sites) are told once. */
TEST(check, identical_reports_are_deduplicated)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256);
    for (int i = 0; i < 5; i++)
        racy_pair(buf, s1, s2);
    ASSERT_EQ(reports(), 2); /* s2 after s1, then s1 after s2: two pairs of call sites */
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* ---- the host ----------------------------------------------------------------- */

TEST(check, host_read_of_pending_write_is_reported)
{
    RACY();
    on();
    aclrtStream s = stream();
    char *buf = dev(256);
    char host[256];
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 7, 256, s));
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "host reads device memory that a pending task writes");
    ASSERT_STR_CONTAINS(said(), "synchronise before reading");
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

TEST(check, host_read_after_stream_sync_is_clean)
{
    on();
    aclrtStream s = stream();
    char *buf = dev(256);
    char host[256];
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 7, 256, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 0);
    off();
}

TEST(check, host_read_after_event_sync_is_clean)
{
    on();
    aclrtStream s = stream();
    aclrtEvent e;
    char *buf = dev(256);
    char host[256];
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 7, 256, s));
    ASSERT_OK(aclrtRecordEvent(e, s));
    ASSERT_OK(aclrtSynchronizeEvent(e));
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 0);
    off();
}

TEST(check, host_read_after_device_sync_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *a = dev(256), *b = dev(256);
    char host[256];
    ASSERT_OK(aclrtMemsetAsync(a, 256, 7, 256, s1));
    ASSERT_OK(aclrtMemsetAsync(b, 256, 7, 256, s2));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), a, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), b, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 0);
    off();
}

/* A query that finds the work complete orders the host after it, as a
 * sync does; one that finds it not ready orders nothing. */
TEST(check, host_read_after_complete_queries_is_clean)
{
    on();
    aclrtStream s = stream();
    aclrtEvent e;
    aclrtEventRecordedStatus es = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclrtStreamStatus ss = ACL_STREAM_STATUS_NOT_READY;
    char *a = dev(256), *b = dev(256);
    char host[256];
    uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtMemsetAsync(a, 256, 7, 256, s));
    ASSERT_OK(aclrtRecordEvent(e, s));
    while (es != ACL_EVENT_RECORDED_STATUS_COMPLETE && t_now_ns() < end)
        ASSERT_OK(aclrtQueryEventStatus(e, &es));
    ASSERT_EQ(es, ACL_EVENT_RECORDED_STATUS_COMPLETE);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), a, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_OK(aclrtMemsetAsync(b, 256, 7, 256, s));
    while (ss != ACL_STREAM_STATUS_COMPLETE && t_now_ns() < end)
        ASSERT_OK(aclrtStreamQuery(s, &ss));
    ASSERT_EQ(ss, ACL_STREAM_STATUS_COMPLETE);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), b, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 0);
    off();
}

TEST(check, not_ready_query_gives_no_edge)
{
    on();
    aclrtStream s = stream();
    aclrtStreamStatus ss;
    _Atomic int open = 0;
    char *buf = dev(256);
    char host[256];
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 7, 256, s));
    ASSERT_OK(aclrtStreamQuery(s, &ss));
    ASSERT_EQ(ss, ACL_STREAM_STATUS_NOT_READY);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 1);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

/* A sync that timed out orders nothing: the host read after it is still
 * reported. */
TEST(check, timed_out_sync_gives_no_edge)
{
    on();
    aclrtStream s = stream();
    _Atomic int open = 0;
    char *buf = dev(256);
    char host[256];
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 7, 256, s));
    ASSERT_RC(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 1);
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

/* ---- lifetimes ------------------------------------------------------------------ */

/* Issue 12's first crash: a free while an async memset still uses the buffer. */
TEST(check, free_during_async_memset_is_reported)
{
    on();
    aclrtStream s = stream();
    _Atomic int open = 0;
    char *buf = dev(1 << 20);
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemsetAsync(buf, 1 << 20, 0, 1 << 20, s));
    ASSERT_OK(aclrtFree(buf)); /* the quarantine keeps the late memset harmless */
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "free of memory that a pending task uses");
    ASSERT_STR_CONTAINS(said(), "write by aclrtMemsetAsync");
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

/* Issue 12's second crash: a free while a kernel still uses the buffer. */
TEST(check, free_during_kernel_is_reported)
{
    on();
    aclrtStream s = stream();
    float *in = dev(4096), *out = dev(4096);
    scale(scale_kernel(false), in, out, 1024, s);
    ASSERT_OK(aclrtFree(out));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "free of memory that a pending task uses");
    ASSERT_STR_CONTAINS(said(), "kernel 'check_scale'");
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

/* A pending read counts too: a copy still to read its source when the
 * source is freed (its bytes may be handed out and overwritten first). */
TEST(check, free_of_memory_a_pending_task_only_reads_is_reported)
{
    on();
    aclrtStream s = stream();
    _Atomic int open = 0;
    char *src = dev(4096), *dst = dev(4096);
    t_launch_flag_gate(&open, s);
    ASSERT_OK(aclrtMemcpyAsync(dst, 4096, src, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ASSERT_OK(aclrtFree(src)); /* the quarantine keeps the late read harmless */
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "free of memory that a pending task uses");
    ASSERT_STR_CONTAINS(said(), "read by aclrtMemcpyAsync");
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    off();
}

TEST(check, free_after_sync_is_clean)
{
    on();
    aclrtStream s = stream();
    float *in = dev(4096), *out = dev(4096);
    scale(scale_kernel(false), in, out, 1024, s);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtFree(out));
    ASSERT_OK(aclrtFree(in));
    ASSERT_EQ(reports(), 0);
    off();
}

/* ---- events ----------------------------------------------------------------------- */

/* A wait on an Ex event issued before its first record does nothing; the
 * record it meant comes later, and the read races the write. */
TEST(check, wait_before_first_record_is_reported)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e)); /* too early: nothing recorded yet */
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "wait issued before the record it evidently meant");
    ASSERT_STR_CONTAINS(said(), "had never been recorded");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, wait_after_the_record_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* The second occurrence: a wait that took the previous record (a stale
 * snapshot) when the program meant the next one. */
TEST(check, wait_on_stale_snapshot_is_reported)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtStreamWaitEvent(s2, e)); /* step 2: waits before step 2's record */
    edge(s2, s1);                           /* step 1's read is done before step 2's write */
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 2, 256, s1));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "wait issued before the record it evidently meant");
    ASSERT_STR_CONTAINS(said(), "stale snapshot");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, reset_of_event_still_waited_on_is_reported)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtResetEvent(e, s1));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "reset of an event that a stream may still wait on");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

TEST(check, reset_after_the_wait_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtResetEvent(e, s2)); /* in the waiting stream: after its wait */
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* The boundary of the reset rule: a sync of the waiting stream, its wait
 * the last task, orders the wait before a reset issued on another stream
 * afterwards (the host's clock for the waiter is the wait's own epoch). */
TEST(check, reset_after_a_sync_of_the_waiting_stream_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtEvent e;
    ASSERT_OK(aclrtCreateEvent(&e));
    ASSERT_OK(aclrtRecordEvent(e, s1));
    ASSERT_OK(aclrtStreamWaitEvent(s2, e));
    ASSERT_OK(aclrtSynchronizeStream(s2)); /* the wait has passed */
    ASSERT_OK(aclrtResetEvent(e, s1));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* A notify's wait issued before its record: the waiting stream's work is
 * ordered after the record once it is issued (no false report). */
TEST(check, notify_wait_before_record_is_an_edge)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtNotify n;
    char *buf = dev(256), *copy = dev(256);
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtWaitAndResetNotify(n, s2, 0));
    ASSERT_OK(aclrtRecordNotify(n, s1));
    ASSERT_OK(aclrtMemcpyAsync(copy, 256, buf, 256, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtDestroyNotify(n));
    off();
}

/* ---- launch-blocking mode: each launch is a sync --------------------------------- */

static void kernel_then_host_read(void)
{
    aclrtStream s = stream();
    float *in = dev(4096), *out = dev(4096);
    float host[16];
    scale(scale_kernel(false), in, out, 1024, s);
    ASSERT_OK(aclrtMemcpy(host, sizeof(host), out, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
}

TEST(check, launch_blocking_orders_the_host_after_the_kernel)
{
    setenv("ASCEND_RT_LAUNCH_BLOCKING", "1", 1);
    on();
    kernel_then_host_read();
    ASSERT_EQ(reports(), 0);
    off();
}

TEST(check, without_launch_blocking_the_host_read_is_reported)
{
    RACY();
    on();
    kernel_then_host_read();
    ASSERT_EQ(reports(), 1);
    off();
}

/* ---- exit code and modes ------------------------------------------------------------ */

static void racy_program(void)
{
    aclrtStream s1, s2;
    void *buf;
    if (aclrtCreateStream(&s1) != ACL_SUCCESS || aclrtCreateStream(&s2) != ACL_SUCCESS ||
        aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        _exit(3);
    aclrtMemsetAsync(buf, 64, 1, 64, s1);
    aclrtMemsetAsync(buf, 64, 2, 64, s2);
    aclrtSynchronizeDevice();
}

/* Runs racy_program (or a clean one) in a child: env ACLCPU_CHECK as given
 * (NULL: the API in mode), exit(0) at the end; returns its exit status. */
static int child_status(const char *env, int mode, bool racy)
{
    pid_t pid = fork();
    int status = 0;
    ASSERT(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        if (env != NULL)
            setenv("ACLCPU_CHECK", env, 1);
        else if (aclcpuCheckEnable((aclcpuCheckMode)mode) != ACL_SUCCESS)
            _exit(4);
        if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS)
            _exit(5);
        if (racy)
            racy_program();
        exit(0);
    }
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status));
    return WEXITSTATUS(status);
}

TEST(check, reports_make_the_process_exit_66)
{
    RACY();
    ASSERT_EQ(child_status("1", 0, true), 66);
    ASSERT_EQ(child_status(NULL, ACLCPU_CHECK_EXIT, true), 66);
}

TEST(check, a_clean_program_keeps_its_exit_code)
{
    ASSERT_EQ(child_status("1", 0, false), 0);
    ASSERT_EQ(child_status(NULL, ACLCPU_CHECK_EXIT, false), 0);
}

TEST(check, report_mode_keeps_the_exit_code)
{
    RACY();
    ASSERT_EQ(child_status("report", 0, true), 0);
    ASSERT_EQ(child_status(NULL, ACLCPU_CHECK_REPORT, true), 0);
}

TEST(check, checker_off_draws_no_report)
{
    RACY();
    unsetenv("ACLCPU_CHECK");
    ASSERT_EQ(child_status("0", 0, true), 0);
    t_setup();
    racy_program();
    ASSERT_EQ(reports(), 0);
    t_teardown();
}

/* ---- the API's arguments --------------------------------------------------------------- */

TEST(check, enable_refuses_an_unknown_mode)
{
    ASSERT_RC(aclcpuCheckEnable((aclcpuCheckMode)0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuCheckEnable((aclcpuCheckMode)3), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCheckEnable: argument 'mode'");
    ASSERT_OK(aclcpuCheckEnable(ACLCPU_CHECK_REPORT));
}

TEST(check, report_count_refuses_null)
{
    ASSERT_RC(aclcpuCheckGetReportCount(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclcpuCheckGetReportCount");
}

TEST(check, declare_arg_checks_each_argument)
{
    t_setup();
    aclrtFuncHandle k = t_kernel("check_declared_args", k_scale);
    ASSERT_RC(aclcpuCheckDeclareArg(NULL, 0, ACLCPU_CHECK_READ, 4, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'funcHandle'");
    ASSERT_RC(aclcpuCheckDeclareArg(k, 512, ACLCPU_CHECK_READ, 4, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'argIndex'");
    ASSERT_OK(aclcpuCheckDeclareArg(k, 511, ACLCPU_CHECK_READ, 4, -1)); /* boundary */
    ASSERT_RC(aclcpuCheckDeclareArg(k, 0, (aclcpuCheckAccess)0, 4, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuCheckDeclareArg(k, 0, (aclcpuCheckAccess)4, 4, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'access'");
    ASSERT_RC(aclcpuCheckDeclareArg(k, 0, ACLCPU_CHECK_READ, 0, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'size'");
    ASSERT_RC(aclcpuCheckDeclareArg(k, 0, ACLCPU_CHECK_READ, 4, -2), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclcpuCheckDeclareArg(k, 0, ACLCPU_CHECK_READ, 4, 512), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'sizeArgIndex'");
    for (uint32_t i = 0; i < 15; i++)
        ASSERT_OK(aclcpuCheckDeclareArg(k, i, ACLCPU_CHECK_READ_WRITE, 8, -1)); /* 16 with word 511 */
    ASSERT_OK(aclcpuCheckDeclareArg(k, 3, ACLCPU_CHECK_WRITE, 8, -1));         /* again: replaces */
    ASSERT_RC(aclcpuCheckDeclareArg(k, 100, ACLCPU_CHECK_READ, 8, -1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "already has 16");
    t_teardown();
}

/* A destroyed stream's slot serves the next stream: the destroy orders the
 * host after the old stream's work (no report against it), and the new
 * stream's accesses are still told apart from the old one's (a race with
 * a third stream is reported). */
TEST(check, a_destroyed_streams_slot_is_reused_without_mixing_epochs)
{
    RACY();
    on();
    char *buf = dev(256);
    aclrtStream old = stream();
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, old));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, old));
    ASSERT_OK(aclrtDestroyStream(old));
    aclrtStream s2 = stream(), s3 = stream();
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 2, 256, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 3, 256, s3));
    ASSERT_EQ(reports(), 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* Host threads submit under the checker at once: each on its own stream
 * and buffer, then a device sync orders the host after all of it. */
struct check_thread_arg {
    aclrtStream s;
    char *buf;
};

static void *check_thread(void *p)
{
    struct check_thread_arg *a = p;
    aclrtSetDevice(0);
    for (int i = 0; i < 200; i++)
        if (aclrtMemsetAsync(a->buf, 256, i, 256, a->s) != ACL_SUCCESS)
            return (void *)1;
    return NULL;
}

TEST(check, threads_submitting_at_once_draw_no_false_report)
{
    on();
    pthread_t th[4];
    struct check_thread_arg args[4];
    char host[256];
    void *rc;
    for (int i = 0; i < 4; i++) {
        args[i] = (struct check_thread_arg){stream(), dev(256)};
        ASSERT_EQ(pthread_create(&th[i], NULL, check_thread, &args[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(pthread_join(th[i], &rc), 0);
        ASSERT(rc == NULL);
    }
    ASSERT_OK(aclrtSynchronizeDevice());
    for (int i = 0; i < 4; i++)
        ASSERT_OK(aclrtMemcpy(host, sizeof(host), args[i].buf, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST));
    ASSERT_EQ(reports(), 0);
    off();
}

/* A host function runs in its stream's order: its own aclrtMemcpy of what
 * the stream wrote before it is no host race (the host thread's same copy,
 * without a sync, is: host_read_of_pending_write_is_reported). */
struct hf_copy {
    aclrtContext ctx; /* the function may run on a thread of its own: it sets the context */
    char *dev;
    char host[256];
    aclError rc;
};

static void hf_copy_back(void *p)
{
    struct hf_copy *c = p;
    c->rc = aclrtSetCurrentContext(c->ctx);
    if (c->rc == ACL_SUCCESS)
        c->rc = aclrtMemcpy(c->host, sizeof(c->host), c->dev, sizeof(c->host), ACL_MEMCPY_DEVICE_TO_HOST);
}

TEST(check, host_function_copy_in_stream_order_is_clean)
{
    on();
    aclrtStream s = stream();
    static struct hf_copy c;
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.dev = dev(256);
    ASSERT_OK(aclrtMemsetAsync(c.dev, 256, 5, 256, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, hf_copy_back, &c));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(c.rc);
    ASSERT_EQ(c.host[255], 5);
    ASSERT_EQ(reports(), 0);
    off();
}

/* ---- the caching allocator ---------------------------------------------------------- */

/* A cached block written on a second stream, freed without
 * aclcpuCacheRecordStream and handed out again at once on its own stream
 * (stream-ordered reuse): the new write races the old one. */
TEST(check, cache_reuse_without_record_stream_is_reported)
{
    RACY();
    on();
    aclrtStream own = stream(), other = stream();
    _Atomic int open = 0;
    void *p = NULL, *q = NULL;
    ASSERT_OK(aclcpuCacheMalloc(&p, 4096, own));
    t_launch_flag_gate(&open, other);
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 1, 4096, other));
    ASSERT_OK(aclcpuCacheFree(p));
    ASSERT_OK(aclcpuCacheMalloc(&q, 4096, own));
    ASSERT(q == p); /* reused on its stream at once */
    ASSERT_OK(aclrtMemsetAsync(q, 4096, 2, 4096, own));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "caching-allocator reuse without record_stream");
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclcpuCacheFree(q));
    off();
}

/* The same with the other stream recorded: the block comes back only once
 * the other stream's work queued at the free is done, which orders that
 * work before the reuse - no report, although the host never synced with
 * the other stream (it only waited, unseen by the checker, for a flag). */
TEST(check, cache_reuse_after_record_stream_is_clean)
{
    on();
    aclrtStream own = stream(), other = stream();
    struct t_gate g = {0};
    void *p = NULL, *q = NULL;
    uint64_t deadline = t_now_ns() + 10ull * 1000 * 1000 * 1000;
    ASSERT_OK(aclcpuCacheMalloc(&p, 4096, own));
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 1, 4096, other));
    t_launch_gate(&g, other);
    ASSERT_OK(aclcpuCacheRecordStream(p, other));
    ASSERT_OK(aclcpuCacheFree(p));
    atomic_store(&g.open, 1);
    ASSERT(t_wait_flag(&g.finished, 1));
    /* The fence passes when the stream counts the gate done, a moment after
     * the flag: ask until the block comes back (bounded). */
    for (;;) {
        ASSERT_OK(aclcpuCacheMalloc(&q, 4096, own));
        if (q == p || t_now_ns() > deadline)
            break;
        ASSERT_OK(aclcpuCacheFree(q));
    }
    ASSERT(q == p);
    ASSERT_OK(aclrtMemsetAsync(q, 4096, 2, 4096, own));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclcpuCacheFree(q));
    off();
}

/* ---- memory pools -------------------------------------------------------------------- */

/* A pool block written on s1 and freed there in stream order goes to
 * another stream only once the free task ran: its new user is ordered
 * after the old one, though the host never synced with s1. */
TEST(check, pool_block_reused_on_another_stream_after_its_free_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtMemPool pool = NULL;
    aclrtMemPoolProps pp;
    struct t_gate g = {0};
    void *a = NULL, *b = NULL;
    uint64_t deadline = t_now_ns() + 10ull * 1000 * 1000 * 1000;
    memset(&pp, 0, sizeof(pp));
    pp.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    pp.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    ASSERT_OK(aclrtMemPoolCreate(&pool, &pp));
    ASSERT_OK(aclrtMemPoolMallocAsync(&a, 4096, pool, s1));
    ASSERT_OK(aclrtMemsetAsync(a, 4096, 1, 4096, s1));
    ASSERT_OK(aclrtMemPoolFreeAsync(a, s1));
    t_launch_gate(&g, s1);
    atomic_store(&g.open, 1);
    ASSERT(t_wait_flag(&g.finished, 1)); /* the free task ran before the gate */
    for (;;) { /* the pool hands a to s2 once it counts the free done (bounded) */
        ASSERT_OK(aclrtMemPoolMallocAsync(&b, 4096, pool, s2));
        if (b == a || t_now_ns() > deadline)
            break;
        ASSERT_OK(aclrtMemPoolFreeAsync(b, s2));
    }
    ASSERT(b == a);
    ASSERT_OK(aclrtMemsetAsync(b, 4096, 2, 4096, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtMemPoolFreeAsync(b, s2));
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtMemPoolDestroy(pool));
    off();
}

/* ---- the checker's own locking ----------------------------------------------------------- */

static void k_check_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* A model run the stream refuses (its context failed in STOP mode) is given
 * back after check_lock is dropped: ending the run takes the model's lock,
 * which ranks above it (fuzz seed 6033 stopped on the lock check). The run
 * is refused with the context's code, and the model stays usable. */
TEST(check, a_refused_model_run_is_given_back_outside_the_checkers_lock)
{
    on();
    aclrtStream s = stream(), cs = stream();
    aclmdlRI m = NULL;
    char *buf = dev(4096);
    ASSERT_OK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtMemsetAsync(buf, 4096, 1, 4096, cs));
    ASSERT_OK(aclmdlRICaptureEnd(cs, &m));
    ASSERT_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("check_trap", k_check_trap), 1, NULL, 0, s));
    ASSERT(aclrtSynchronizeStream(s) != ACL_SUCCESS);
    for (int i = 0; i < 2; i++) /* the second refusal too */
        ASSERT(aclmdlRIExecuteAsync(m, s) != ACL_SUCCESS);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtFree(buf));
    off();
}

/* ---- model runs ---------------------------------------------------------------------- */

/* A captured memset of buf; the model is returned in *m. */
static void capture_fill(aclmdlRI *m, char *buf, size_t n)
{
    aclrtStream cs = stream();
    ASSERT_OK(aclmdlRICaptureBegin(cs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    ASSERT_OK(aclrtMemsetAsync(buf, n, 3, n, cs));
    ASSERT_OK(aclmdlRICaptureEnd(cs, m));
    ASSERT_OK(aclrtDestroyStream(cs));
}

/* A replayed graph writes what it captured: a read on another stream with
 * no edge from the run races it, named as the model run's write. */
TEST(check, a_model_runs_write_races_an_unordered_read_on_another_stream)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclmdlRI m = NULL;
    char *buf = dev(4096), *out = dev(4096);
    capture_fill(&m, buf, 4096);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
    ASSERT_OK(aclrtMemcpyAsync(out, 4096, buf, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "unsynchronised cross-stream write-read race");
    ASSERT_STR_CONTAINS(said(), "write by model run");
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclmdlRIDestroy(m));
    off();
}

TEST(check, a_model_runs_write_read_after_an_event_edge_is_clean)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclmdlRI m = NULL;
    char *buf = dev(4096), *out = dev(4096);
    capture_fill(&m, buf, 4096);
    for (int i = 0; i < 2; i++) { /* the second run too */
        ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
        edge(s1, s2);
        ASSERT_OK(aclrtMemcpyAsync(out, 4096, buf, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
        edge(s2, s1); /* the next run overwrites buf after the read */
    }
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclmdlRIDestroy(m));
    off();
}

/* A model's runs follow one another whatever streams issue them: two runs
 * of one model on two streams never race each other. */
TEST(check, runs_of_one_model_on_two_streams_are_ordered)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclmdlRI m = NULL;
    char *buf = dev(4096);
    capture_fill(&m, buf, 4096);
    ASSERT_OK(aclmdlRIExecuteAsync(m, s1));
    ASSERT_OK(aclmdlRIExecuteAsync(m, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclmdlRIDestroy(m));
    off();
}

/* A kernel that touches nothing (its argument is only looked at). */
static void k_touch(void *args) { (void)args; }

/* The checker keeps the device ranges a thread looked up last; a free and
 * new allocations in the same place end them: a kernel handed the new,
 * smaller block touches that block only, not the old range that now holds
 * a neighbour another stream writes. */
TEST(check, lookups_kept_from_a_freed_range_are_not_reused)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtFuncHandle k = t_kernel("check_touch", k_touch);
    char *big = dev(1 << 20), *a, *b;
    ASSERT_OK(aclrtLaunchKernel(k, 1, &big, sizeof(big), s1)); /* looks big's range up */
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtFree(big));
    a = dev(4096);
    b = dev(4096);
    ASSERT((uintptr_t)a >= (uintptr_t)big && (uintptr_t)a < (uintptr_t)big + (1 << 20)); /* the arena reuses it */
    ASSERT((uintptr_t)b >= (uintptr_t)big && (uintptr_t)b < (uintptr_t)big + (1 << 20));
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a, sizeof(a), s1));
    ASSERT_OK(aclrtMemsetAsync(b, 4096, 0, 4096, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* ---- sweep 4: a 32-bit fill's range ------------------------------------------------------------- */

/* aclrtMemsetD32Async writes 4 bytes per element: a fill of 32 elements
 * covers bytes [0, 128), so a memset of byte 127 on another stream
 * races with it, while one of byte 128 does not. */
TEST(check, a_32_bit_fill_covers_four_bytes_per_element)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream();
    char *buf = dev(256);
    ASSERT_OK(aclrtMemsetD32Async(buf, 256, 7u, 32, s1));
    ASSERT_OK(aclrtMemsetAsync(buf + 128, 1, 3, 1, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtMemsetAsync(buf + 127, 1, 3, 1, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "write-write race");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* ---- sweep 5 (2026-12-05): an argument block's last word, a lookup's end ---------------------- */

/* An undeclared kernel may use every pointer of its argument block, the
 * last word included: a kernel whose only argument is the buffer (8 bytes
 * of arguments) shares it with a memset on another stream. */
TEST(check, an_undeclared_kernels_last_argument_word_is_a_pointer_it_may_use)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtFuncHandle k = t_kernel("check_touch", k_touch);
    char *buf = dev(4096);
    ASSERT_OK(aclrtLaunchKernel(k, 1, &buf, sizeof(buf), s1)); /* touches nothing for real */
    ASSERT_OK(aclrtMemsetAsync(buf, 4096, 0, 4096, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "kernel 'check_touch'");
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* A range the checker looked up is [base, base + size): the block that
 * starts exactly at its end is another block, whose accesses count. Here
 * b follows a; after a's range is looked up, a memset of b on s1 and one
 * on s2 race (s1 waits behind a gate, so they do not race for real). */
TEST(check, the_block_at_a_looked_up_ranges_end_is_another_block)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    _Atomic int open = 0;
    aclrtFuncHandle k = t_kernel("check_touch", k_touch);
    char *a = dev(4064), *b = dev(4064); /* 4064 + the 32 bytes of padding: 4096 usable, a multiple of 64 */
    ASSERT(b == a + 4096); /* the arena lays them side by side: b starts at a's range's end */
    t_launch_flag_gate(&open, s1);
    ASSERT_OK(aclrtLaunchKernel(k, 1, &a, sizeof(a), s1)); /* looks a's range up */
    ASSERT_OK(aclrtMemsetAsync(b, 4064, 1, 4064, s1));
    ASSERT_OK(aclrtMemsetAsync(b, 4064, 2, 4064, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "write-write race");
    ASSERT_OK(aclrtSynchronizeStream(s2));
    atomic_store(&open, 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* ---- sweep 5 (2026-12-05): a write's readers ----------------------------------------------------- */

/* A write takes the place of the reads before it: once a later write is
 * ordered after that write, the earlier readers are no longer compared with
 * it (the one race, a read on s1 and an unordered write on s2, is told
 * once; a write on s3 after s2's write adds nothing). */
TEST(check, a_write_replaces_the_reads_before_it)
{
    RACY();
    on();
    aclrtStream s1 = stream(), s2 = stream(), s3 = stream();
    char *buf = dev(4096), *other = dev(4096);
    ASSERT_OK(aclrtMemcpyAsync(other, 4096, buf, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, s1)); /* reads buf */
    ASSERT_OK(aclrtMemsetAsync(buf, 4096, 1, 4096, s2));
    ASSERT_EQ(reports(), 1);
    ASSERT_STR_CONTAINS(said(), "read-write race");
    edge(s2, s3);
    ASSERT_OK(aclrtMemsetAsync(buf, 4096, 2, 4096, s3));
    ASSERT_EQ(reports(), 1);
    ASSERT_OK(aclrtSynchronizeDevice());
    off();
}

/* A cached block recorded on two other streams comes back once both are
 * done, and that orders the work of both before the reuse, the second
 * recorded stream's as well as the first's: no report (the second's write,
 * the block's last, is not forgotten with the first's alone). */
TEST(check, cache_reuse_after_two_record_streams_is_clean)
{
    on();
    aclrtStream own = stream(), other[2] = {stream(), stream()};
    struct t_gate g[2] = {{0}, {0}};
    void *p = NULL, *q = NULL;
    uint64_t deadline = t_now_ns() + 10ull * 1000 * 1000 * 1000;
    ASSERT_OK(aclcpuCacheMalloc(&p, 4096, own));
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 1, 4096, other[0]));
    edge(other[0], other[1]); /* the two writes are ordered: no race between them */
    ASSERT_OK(aclrtMemsetAsync(p, 4096, 2, 4096, other[1]));
    for (int i = 0; i < 2; i++) {
        t_launch_gate(&g[i], other[i]);
        ASSERT_OK(aclcpuCacheRecordStream(p, other[i]));
    }
    ASSERT_OK(aclcpuCacheFree(p));
    for (int i = 0; i < 2; i++) {
        atomic_store(&g[i].open, 1);
        ASSERT(t_wait_flag(&g[i].finished, 1));
    }
    /* As above: ask until the block comes back (bounded). */
    for (;;) {
        ASSERT_OK(aclcpuCacheMalloc(&q, 4096, own));
        if (q == p || t_now_ns() > deadline)
            break;
        ASSERT_OK(aclcpuCacheFree(q));
    }
    ASSERT(q == p);
    ASSERT_OK(aclrtMemsetAsync(q, 4096, 3, 4096, own));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclcpuCacheFree(q));
    off();
}

/* A host function's aclrtFree runs in its stream's order, after the
 * stream's earlier tasks: freeing there the buffer a memset before it
 * wrote is no free of memory a pending task uses. */
static void hf_free(void *p)
{
    struct hf_copy *c = p;
    c->rc = aclrtSetCurrentContext(c->ctx);
    if (c->rc == ACL_SUCCESS)
        c->rc = aclrtFree(c->dev);
}

TEST(check, a_free_in_a_host_function_is_in_stream_order)
{
    on();
    aclrtStream s = stream();
    static struct hf_copy c;
    ASSERT_OK(aclrtGetCurrentContext(&c.ctx));
    c.dev = dev(256);
    ASSERT_OK(aclrtMemsetAsync(c.dev, 256, 5, 256, s));
    ASSERT_OK(aclrtLaunchHostFunc(s, hf_free, &c));
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(c.rc);
    ASSERT_EQ(reports(), 0);
    off();
}

/* A notify's wait takes the next record not taken yet: a second wait,
 * issued after the one record was taken by a first wait, is ordered after
 * the record still to come, not after the taken one - so it is not checked
 * against s1's write made after the first record (it runs after that
 * write's record, no race). */
TEST(check, a_notify_wait_takes_a_record_not_taken_yet)
{
    on();
    aclrtStream s1 = stream(), s2 = stream(), s3 = stream();
    aclrtNotify n;
    char *buf = dev(256);
    ASSERT_OK(aclrtCreateNotify(&n, 0));
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s1));
    ASSERT_OK(aclrtRecordNotify(n, s1));            /* record 1 */
    ASSERT_OK(aclrtWaitAndResetNotify(n, s2, 0));   /* takes record 1 */
    ASSERT_OK(aclrtSynchronizeStream(s2));          /* taken for real before record 2 exists */
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 2, 256, s1)); /* after record 1 */
    ASSERT_OK(aclrtWaitAndResetNotify(n, s3, 0));   /* takes record 2, not issued yet */
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 3, 256, s3));
    ASSERT_OK(aclrtRecordNotify(n, s1));            /* record 2 */
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtDestroyNotify(n));
    off();
}

/* A kernel's declarations are its own: a kernel record recycled for a kernel
 * of another name (after enough binary kernels were destroyed) starts with
 * none of the old kernel's. Here the old kernel declared its argument 0;
 * the new one declares only argument 1, so a buffer passed as its argument 0
 * is no memory it touches and a memset of it on another stream no race. */
struct two_words {
    char *a, *b;
};

TEST(check, a_kernel_record_reused_for_another_kernel_starts_without_declarations)
{
    on();
    aclrtStream s1 = stream(), s2 = stream();
    aclrtBinHandle b = NULL;
    aclrtFuncHandle first = NULL, f = NULL;
    char *buf = dev(256), *other = dev(256);
    struct two_words args = {buf, other};
    bool reused = false;
    ASSERT_OK(aclrtBinaryLoadFromFile(ACLCPU_BUILD_DIR "/libaclcpu.so", NULL, &b));
    ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockIdx", &first));
    ASSERT_OK(aclcpuCheckDeclareArg(first, 0, ACLCPU_CHECK_READ, 8, -1));
    ASSERT_OK(aclrtBinaryUnLoad(b));
    /* Kernels of loaded binaries die with them; the record of `first` comes
     * back once more than the held-back number (64) died after it. */
    for (int i = 0; i < 200 && !reused; i++) {
        ASSERT_OK(aclrtBinaryLoadFromFile(ACLCPU_BUILD_DIR "/libaclcpu.so", NULL, &b));
        ASSERT_OK(aclrtBinaryGetFunction(b, "aclcpuGetBlockNum", &f));
        reused = ((uintptr_t)f & 0xFFFFFFFFu) == ((uintptr_t)first & 0xFFFFFFFFu); /* the same slot */
        if (!reused)
            ASSERT_OK(aclrtBinaryUnLoad(b));
    }
    ASSERT(reused);
    ASSERT_OK(aclcpuCheckDeclareArg(f, 1, ACLCPU_CHECK_WRITE, 8, -1));
    ASSERT_OK(aclrtLaunchKernel(f, 1, &args, sizeof(args), s1)); /* reads nothing for real */
    ASSERT_OK(aclrtMemsetAsync(buf, 256, 1, 256, s2));
    ASSERT_EQ(reports(), 0);
    ASSERT_OK(aclrtSynchronizeDevice());
    ASSERT_OK(aclrtBinaryUnLoad(b));
    off();
}
