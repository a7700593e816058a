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

/* Helpers shared by the suites (helpers.c). */
void t_setup(void);     /* aclInit + aclrtSetDevice(0) */
void t_teardown(void);  /* aclrtResetDeviceForce(0) + aclFinalize */
uint64_t t_now_ns(void);
/* Registers a kernel from the test program itself and returns its handle. */
aclrtFuncHandle t_kernel(const char *name, aclcpuKernelFn fn);

#endif
