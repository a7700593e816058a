/*
 * test_launch_blocking.c - ASCEND_RT_LAUNCH_BLOCKING, the per-stream
 * launch-blocking attribute and aclrtNonBlockingLaunchBegin/End
 * (spec/acl-api.md §9).
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

static _Atomic int ran;

static void k_mark(void *args)
{
    (void)args;
    atomic_fetch_add(&ran, 1);
}

static void k_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

static void setup_blocking(void)
{
    setenv("ASCEND_RT_LAUNCH_BLOCKING", "1", 1);
    t_setup();
}

/* With the variable at 1 a launch returns after its kernel ran, and returns
 * the kernel's own error. */
TEST(launch_blocking, env_makes_launches_wait)
{
    aclrtStream s = NULL;
    setup_blocking();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("lb_mark", k_mark), 4, NULL, 0, s));
    ASSERT_EQ(atomic_load(&ran), 4);
    ASSERT_RC(aclrtLaunchKernel(t_kernel("lb_trap", k_trap), 1, NULL, 0, s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Other values, or none, keep launches asynchronous. */
TEST(launch_blocking, env_other_values_are_async)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setenv("ASCEND_RT_LAUNCH_BLOCKING", "true", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s); /* returns while the gate is shut */
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Persistent and device-only streams never block (their tasks do not run
 * when issued, or not for the host). */
TEST(launch_blocking, never_on_persistent_or_device_only_streams)
{
    aclrtStream p = NULL, d = NULL;
    setup_blocking();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStreamWithConfig(&d, 0, ACL_STREAM_DEVICE_USE_ONLY));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("lb_mark", k_mark), 1, NULL, 0, p));
    ASSERT_EQ(atomic_load(&ran), 0); /* kept for a model, not run, and the launch did not wait */
    ASSERT_OK(aclrtDestroyStreamForce(p));
    ASSERT_OK(aclrtDestroyStreamForce(d));
    t_teardown();
}

/* Inside Begin/End launches stay asynchronous; the outermost End
 * synchronises the stream and returns its error; inner Ends return at once. */
TEST(launch_blocking, non_blocking_region_nests)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setup_blocking();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtNonBlockingLaunchEnd(s, 0), ACL_ERROR_RT_PARAM_INVALID); /* End without Begin */
    ASSERT_OK(aclrtNonBlockingLaunchBegin(s, 0));
    ASSERT_OK(aclrtNonBlockingLaunchBegin(s, 0));
    t_launch_gate(&g, s);
    ASSERT_OK(aclrtLaunchKernel(t_kernel("lb_trap", k_trap), 1, NULL, 0, s)); /* async: no error yet */
    ASSERT_OK(aclrtNonBlockingLaunchEnd(s, 0)); /* inner: returns at once */
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_RC(aclrtNonBlockingLaunchEnd(s, 0), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_EQ(atomic_load(&g.finished), 1);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The attribute overrides the variable either way; Get returns what was set. */
TEST(launch_blocking, stream_attribute_overrides_env)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtStreamAttrValue v;
    t_setup(); /* variable unset: launches are async by default */
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0xff, sizeof(v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    ASSERT_EQ(v.launchBlockingMode, ACL_STREAM_LAUNCH_BLOCKING_MODE_CTRL_BY_ENV);
    v.launchBlockingMode = 3;
    ASSERT_RC(aclrtSetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v), ACL_ERROR_RT_PARAM_INVALID);
    v.launchBlockingMode = ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("lb_mark", k_mark), 2, NULL, 0, s));
    ASSERT_EQ(atomic_load(&ran), 2);
    v.launchBlockingMode = ACL_STREAM_LAUNCH_BLOCKING_MODE_NON_BLOCKING;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    memset(&v, 0, sizeof(v));
    ASSERT_OK(aclrtGetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    ASSERT_EQ(v.launchBlockingMode, ACL_STREAM_LAUNCH_BLOCKING_MODE_NON_BLOCKING);
    t_launch_gate(&g, s);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(launch_blocking, non_blocking_attribute_wins_over_env)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    aclrtStreamAttrValue v;
    setup_blocking();
    ASSERT_OK(aclrtCreateStream(&s));
    memset(&v, 0, sizeof(v));
    v.launchBlockingMode = ACL_STREAM_LAUNCH_BLOCKING_MODE_NON_BLOCKING;
    ASSERT_OK(aclrtSetStreamAttribute(s, ACL_STREAM_LAUNCH_BLOCKING_MODE, &v));
    t_launch_gate(&g, s);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Only Ascend 950, A3 and A2 have the feature: elsewhere launches never block. */
TEST(launch_blocking, not_on_other_products)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    setup_blocking();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* A CPU_SCHEDULE stream never blocks its launches either (like persistent
 * and device-only streams): with the variable at 1 the launch returns
 * while its kernel still waits at a gate. */
TEST(launch_blocking, never_on_cpu_schedule_streams)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setup_blocking();
    ASSERT_OK(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_CPU_SCHEDULE));
    t_launch_gate(&g, s);
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

static void k_sw4_trap(void *args)
{
    (void)args;
    aclcpuTrap();
}

/* ASCEND_RT_LAUNCH_BLOCKING covers model runs too (spec §9): with the
 * variable at 1, aclmdlRIExecuteAsync returns after the run, with the
 * run's own error. */
TEST(launch_blocking, env_makes_a_model_run_wait_and_return_its_error)
{
    aclrtStream p = NULL, exec = NULL;
    aclmdlRI m = NULL;
    setup_blocking();
    ASSERT_OK(aclrtCreateStreamWithConfig(&p, 0, ACL_STREAM_PERSISTENT));
    ASSERT_OK(aclrtCreateStream(&exec));
    ASSERT_OK(aclmdlRIBuildBegin(&m, 0));
    ASSERT_OK(aclmdlRIBindStream(m, p, ACL_MODEL_STREAM_FLAG_HEAD));
    ASSERT_OK(aclrtLaunchKernel(t_kernel("lb_sw4_trap", k_sw4_trap), 1, NULL, 0, p));
    ASSERT_OK(aclmdlRIBuildEnd(m, NULL));
    ASSERT_RC(aclmdlRIExecuteAsync(m, exec), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    ASSERT_OK(aclmdlRIDestroy(m));
    ASSERT_OK(aclrtDestroyStream(exec));
    ASSERT_OK(aclrtDestroyStreamForce(p));
    t_teardown();
}

/* ---- sweep 5 (issue 19): the variable's exact value --------------------------------------- */

/* Only the value "1" itself asks for blocking: a value that begins with 1
 * and goes on ("10") keeps launches asynchronous. */
TEST(launch_blocking, env_1_followed_by_more_characters_is_async)
{
    static struct t_gate g;
    aclrtStream s = NULL;
    setenv("ASCEND_RT_LAUNCH_BLOCKING", "10", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s); /* returns while the gate is shut */
    ASSERT_EQ(atomic_load(&g.finished), 0);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
