/*
 * check_cache.c - the race checker's hooks for the caching allocator
 * (core/check.h: check_cache_block, check_cache_release), called directly
 * as core/cachealloc.c will call them. Linked with the library's internal
 * objects; the checker runs in REPORT mode and its report count is read
 * after each case. Each case runs in its own process (fork), so that its
 * counts start at 0.
 *
 * A block used on stream A, released and handed out on stream B without
 * record_stream (no edge from A's use to B's) draws "caching-allocator
 * reuse without record_stream"; the same with A synchronised first draws
 * none; a block handed out again on the stream that used it draws none,
 * and so does one whose user was recorded (the allocator's fence orders
 * that stream's work before the reuse).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "core/check.h"

#define EXPECT(c)                                                                                              \
    do {                                                                                                       \
        if (!(c)) {                                                                                            \
            fprintf(stderr, "check_cache: %s:%d: %s failed\n", __FILE__, __LINE__, #c);                        \
            _exit(1);                                                                                          \
        }                                                                                                      \
    } while (0)

enum reuse { OTHER_STREAM_NO_EDGE, OTHER_STREAM_AFTER_SYNC, SAME_STREAM, OTHER_STREAM_RECORDED };

static uint64_t count(void)
{
    uint64_t n = 0;
    EXPECT(aclcpuCheckGetReportCount(&n) == ACL_SUCCESS);
    return n;
}

/* A pool segment of 1 MiB; the block is its second 4 KiB. */
/* What the checker wrote (stderr goes to path in the child). */
static const char *said(const char *path)
{
    static char buf[1 << 14];
    size_t n = 0;
    FILE *f = fopen(path, "r");
    fflush(stderr);
    if (f != NULL) {
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    return buf;
}

/* The case's stderr, under $TMPDIR (unset: /tmp): run() names it before the
 * fork and removes it after the child, passed or failed (showing it then). */
static char err_path[4096];

static void reuse_case(enum reuse how)
{
    aclrtStream a, b;
    char *seg;
    EXPECT(freopen(err_path, "w", stderr) != NULL);
    EXPECT(aclcpuCheckEnable(ACLCPU_CHECK_REPORT) == ACL_SUCCESS);
    EXPECT(aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS);
    EXPECT(aclrtCreateStream(&a) == ACL_SUCCESS && aclrtCreateStream(&b) == ACL_SUCCESS);
    EXPECT(aclrtMalloc((void **)&seg, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
    char *block = seg + 4096;
    check_cache_block(block, 4096, a);                                     /* first lifetime, on a */
    EXPECT(aclrtMemsetAsync(block, 4096, 1, 4096, a) == ACL_SUCCESS);
    void *recorded[1] = {a};
    /* freed to the cache; recorded: the allocator fences a's work before any reuse */
    check_cache_release(block, 4096, recorded, how == OTHER_STREAM_RECORDED ? 1 : 0);
    if (how == OTHER_STREAM_AFTER_SYNC)
        EXPECT(aclrtSynchronizeStream(a) == ACL_SUCCESS);
    check_cache_block(block, 4096, how == SAME_STREAM ? a : b);          /* second lifetime */
    EXPECT(aclrtMemsetAsync(block, 4096, 2, 4096, how == SAME_STREAM ? a : b) == ACL_SUCCESS);
    /* Bytes of the segment outside the block are not the block's: a
     * neighbour used on b is no reuse of it. */
    EXPECT(aclrtMemsetAsync(seg + 8192, 4096, 3, 4096, b) == ACL_SUCCESS);
    EXPECT(aclrtSynchronizeDevice() == ACL_SUCCESS);
    EXPECT(count() == (how == OTHER_STREAM_NO_EDGE ? 1u : 0u));
    if (how == OTHER_STREAM_NO_EDGE)
        EXPECT(strstr(said(err_path), "==aclcpu-check== caching-allocator reuse without record_stream") != NULL);
    else
        EXPECT(strstr(said(err_path), "==aclcpu-check==") == NULL);
    unlink(err_path);
    aclrtFree(seg);
    aclrtDestroyStream(a);
    aclrtDestroyStream(b);
    aclrtResetDevice(0);
    aclFinalize();
    _exit(0);
}

static int run(enum reuse how, const char *name)
{
    int status = 0;
    const char *tmp = getenv("TMPDIR");
    pid_t pid;
    snprintf(err_path, sizeof(err_path), "%s/aclcpu-check-cache-%d-%d.txt", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp",
             (int)getpid(), (int)how);
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        reuse_case(how);
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "check_cache: %s failed; its stderr:\n%s\n", name, said(err_path));
        unlink(err_path);
        return 1;
    }
    unlink(err_path);
    printf("ok      %s\n", name);
    return 0;
}

int main(void)
{
    int bad = 0;
    bad += run(OTHER_STREAM_NO_EDGE, "cache_reuse_on_another_stream_without_record_stream_is_reported");
    bad += run(OTHER_STREAM_AFTER_SYNC, "cache_reuse_after_the_old_stream_synced_is_clean");
    bad += run(SAME_STREAM, "cache_reuse_on_the_same_stream_is_clean");
    bad += run(OTHER_STREAM_RECORDED, "cache_reuse_after_a_recorded_streams_fence_is_clean");
    return bad != 0;
}
