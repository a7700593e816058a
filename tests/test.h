/*
 * test.h - aclcpu's test harness.
 *
 * A test is TEST(suite, name) { ... } in any tests/test_*.c file; it
 * registers itself at start-up. The runner (runner.c) forks one child per
 * test with a timeout, so a crash or a hang fails that test alone.
 * Assertions print both operands and the error name for ACL codes.
 * Tests end by returning (pass), by a failed ASSERT (fail), or SKIP().
 */
#ifndef ACLCPU_TEST_H
#define ACLCPU_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

typedef void (*test_fn)(void);

void test_register(const char *suite, const char *name, test_fn fn, const char *file, int line);
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
void test_skip(const char *why) __attribute__((noreturn));

#define TEST(suite, name)                                                                                      \
    static void test_##suite##_##name(void);                                                                   \
    __attribute__((constructor)) static void register_##suite##_##name(void)                                   \
    {                                                                                                          \
        test_register(#suite, #name, test_##suite##_##name, __FILE__, __LINE__);                               \
    }                                                                                                          \
    static void test_##suite##_##name(void)

#define ASSERT(cond)                                                                                           \
    do {                                                                                                       \
        if (!(cond))                                                                                           \
            test_fail(__FILE__, __LINE__, "ASSERT(%s) failed", #cond);                                         \
    } while (0)

#define ASSERT_EQ(a, b)                                                                                        \
    do {                                                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                                                    \
        if (a_ != b_)                                                                                          \
            test_fail(__FILE__, __LINE__, "ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_);                  \
    } while (0)

#define ASSERT_NE(a, b)                                                                                        \
    do {                                                                                                       \
        long long a_ = (long long)(a), b_ = (long long)(b);                                                    \
        if (a_ == b_)                                                                                          \
            test_fail(__FILE__, __LINE__, "ASSERT_NE(%s, %s): both %lld", #a, #b, a_);                         \
    } while (0)

/* Compares ACL error codes and names them on failure. */
#define ASSERT_RC(call, want)                                                                                  \
    do {                                                                                                       \
        aclError got_ = (call), want_ = (want);                                                                \
        if (got_ != want_)                                                                                     \
            test_fail(__FILE__, __LINE__, "%s returned %d (%s), want %d (%s)", #call, got_,                    \
                      aclcpuGetErrorName(got_), want_, aclcpuGetErrorName(want_));                             \
    } while (0)

#define ASSERT_OK(call) ASSERT_RC(call, ACL_SUCCESS)

#define ASSERT_STR_CONTAINS(hay, needle)                                                                       \
    do {                                                                                                       \
        const char *h_ = (hay), *n_ = (needle);                                                                \
        if (h_ == NULL || strstr(h_, n_) == NULL)                                                              \
            test_fail(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"", h_ ? h_ : "(null)", n_);           \
    } while (0)

#define SKIP(why) test_skip(why)

/* Set in a sanitizer build (gcc and clang spell it differently): their
 * allocators abort on an impossible size instead of returning NULL. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define T_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define T_SANITIZED 1
#endif
#endif

/* Built with ThreadSanitizer, which cannot follow a longjmp out of a signal
 * handler: aclcpu does not take device faults there (vm.c), so the tests of
 * that rule skip. */
#if defined(__SANITIZE_THREAD__)
#define T_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define T_TSAN 1
#endif
#endif

/* Helpers shared by the suites (helpers.c). */

/* Temporary files and folders: under $TMPDIR (unset or empty: /tmp), which
 * inside the runner is the case's private folder, removed with all it holds
 * when the case ends, passed or failed (runner.c). T_PATH_CAP bytes hold
 * any path a test makes there. */
enum { T_PATH_CAP = 1024 };
/* The temporary folder: $TMPDIR, or /tmp. */
const char *t_tmp_base(void);
/* Makes a fresh folder $TMPDIR/<stem>-XXXXXX and writes its path to dir (cap bytes). */
void t_tmpdir(char *dir, size_t cap, const char *stem);
/* Makes a fresh empty file $TMPDIR/<stem>-XXXXXX, writes its path to path
 * (cap bytes) and returns it open for reading and writing. */
int t_tmpfile(char *path, size_t cap, const char *stem);
void t_setup(void);      /* aclInit + aclrtSetDevice(0) */
void t_teardown(void);   /* aclrtResetDeviceForce(0) + aclFinalize */
uint64_t t_now_ns(void); /* CLOCK_MONOTONIC, in nanoseconds */
/* Registers a kernel from the test program itself and returns its handle. */
aclrtFuncHandle t_kernel(const char *name, aclcpuKernelFn fn);

/* Kernel, args = {int64_t *x, int64_t by}: atomically x[0] += by. Its
 * handle; a launch of it (one block) on s; n zeroed int64s of device memory. */
void t_k_add(void *args);
aclrtFuncHandle t_add_kernel(void);
void t_launch_add(int64_t *x, int64_t by, aclrtStream s);
int64_t *t_dev_i64(int n);

/* Whether the program runs under valgrind (for the few tests whose cost
 * there is out of proportion, e.g. a 4 GiB calloc it fills page by page). */
int t_under_valgrind(void);

/* Busy for ns nanoseconds: a kernel's work, on its core (no yield). */
void t_busy_ns(uint64_t ns);
/* Idle for ns nanoseconds: a host thread's delay, yielding the core meanwhile. */
void t_idle_ns(uint64_t ns);

/* Bounded spins: each yields between looks and gives up after T_SPIN_LIMIT_NS. */
#define T_SPIN_LIMIT_NS (5ull * 1000000000ull)
/* Returns 1 once *f == want, 0 if T_SPIN_LIMIT_NS passes first. */
int t_wait_flag(_Atomic int *f, int want);
/* Returns 1 once *f >= want, 0 if T_SPIN_LIMIT_NS passes first. */
int t_wait_at_least(_Atomic int *f, int want);

/* A gate: work that blocks until the test sets open (counts show its progress). */
struct t_gate {
    _Atomic int open, started, finished, timed_out;
};
/* Kernel, args = struct t_gate *: started++, spins on open (timed_out = 1 if it never opens), finished++. */
void t_k_gate(void *args);
/* Launches t_k_gate for g on stream s, one block. */
void t_launch_gate(struct t_gate *g, aclrtStream s);
/* Two streams and an event recorded on s1 behind a shut gate: work that
 * waits on e can only go on once the test opens g (or something gives up). */
struct t_gated_pair {
    aclrtStream s1, s2;
    aclrtEvent e;
    struct t_gate g;
};
/* Creates the streams and the event, launches the gate on s1, records e. */
void t_gated_pair_open(struct t_gated_pair *p);
/* Destroys the event and both streams (s2 only if still set). */
void t_gated_pair_close(struct t_gated_pair *p);
/* Kernel, args = _Atomic int *: spins (bounded) until the flag it points to is 1. */
void t_k_flag_gate(void *args);
/* Launches t_k_flag_gate for the flag open on stream s, one block. */
void t_launch_flag_gate(_Atomic int *open, aclrtStream s);

/* Party me (0 or 1) sets flag[me], waits for flag[1 - me] and sets saw[me] if it came. */
void t_meet(_Atomic int flag[2], _Atomic int saw[2], int me);

/* An ordered log of who ran; zero at the start of each test (each runs in its own process). */
enum { T_LOG_CAP = 64 };
extern _Atomic int t_log_n;            /* slots taken */
extern _Atomic int t_log_stored;       /* slots written: read t_log_v up to this */
extern _Atomic int t_log_v[T_LOG_CAP]; /* the values, in the order they took their slots */
/* Takes the next slot, stores v there while the log has room, then counts it stored. */
void t_log_put(int v);
/* Kernel, args = int: t_log_put(that int). */
void t_k_log(void *args);
/* Launches t_k_log with v on stream s, one block. */
void t_launch_log(int v, aclrtStream s);

/* Stops s from another thread while its running kernel is held by the flag
 * open (a gate): checks that the stop takes effect at once but returns only
 * after the kernel ends (once the flag is set). Returns the stop's code. */
aclError t_stop_releasing(aclrtStream s, _Atomic int *open);

/* The library's log (ASCEND_SLOG_PRINT_TO_STDOUT=1, ASCEND_GLOBAL_LOG_LEVEL=level)
 * goes to a pipe from here on; call before anything logs. */
void t_capture_log(const char *level);
/* Reads the captured log until it contains needle: 1, or 0 after T_SPIN_LIMIT_NS. */
int t_log_shows(const char *needle);

#endif
