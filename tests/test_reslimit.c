/*
 * test_reslimit.c - core limits (core control): device and stream limits,
 * the per-thread stream binding, argument errors, and launches that ignore
 * the limits.
 *
 * Rules: spec/acl-api.md §3.2, §5 "Resource limits (D03, DG8)", §6 row
 * Get/SetStreamResLimit; spec/multistream.md §3.1. A value is looked up
 * stream limit (if that stream has one for the type) > device limit >
 * hardware core count of the SoC profile (Ascend910B1: 24 cube, 48 vector;
 * Ascend310P3: 8 cube, 7 vector). Limits are cooperative: the runtime never
 * clamps a launch's numBlocks.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

#define CUBE ACL_RT_DEV_RES_CUBE_CORE
#define VEC ACL_RT_DEV_RES_VECTOR_CORE
#define BAD_TYPE ((aclrtDevResLimitType)2)

enum { B1_CUBE = 24, B1_VEC = 48, P3_CUBE = 8, P3_VEC = 7 };

/* Sets up device 0 playing the default SoC (Ascend910B1). */
static void setup_910b1(void)
{
    unsetenv("ACLCPU_SOC");
    t_setup();
}

static uint32_t dev_limit(aclrtDevResLimitType type)
{
    uint32_t v = 0xdeadbeef;
    ASSERT_OK(aclrtGetDeviceResLimit(0, type, &v));
    return v;
}

static uint32_t stream_limit(aclrtStream s, aclrtDevResLimitType type)
{
    uint32_t v = 0xdeadbeef;
    ASSERT_OK(aclrtGetStreamResLimit(s, type, &v));
    return v;
}

static uint32_t thread_limit(aclrtDevResLimitType type)
{
    uint32_t v = 0xdeadbeef;
    ASSERT_OK(aclrtGetResInCurrentThread(type, &v));
    return v;
}

/* ---- defaults ------------------------------------------------------------------------ */

/* Every lookup path answers the profile's core count when nothing is set. */
static void check_defaults(uint32_t cube, uint32_t vec)
{
    aclrtStream s = NULL, def = NULL;
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&def));
    ASSERT_EQ(dev_limit(CUBE), cube);
    ASSERT_EQ(dev_limit(VEC), vec);
    ASSERT_EQ(stream_limit(s, CUBE), cube);
    ASSERT_EQ(stream_limit(s, VEC), vec);
    ASSERT_EQ(stream_limit(NULL, CUBE), cube);
    ASSERT_EQ(stream_limit(NULL, VEC), vec);
    ASSERT_EQ(stream_limit(def, CUBE), cube);
    ASSERT_EQ(stream_limit(def, VEC), vec);
    ASSERT_EQ(thread_limit(CUBE), cube);
    ASSERT_EQ(thread_limit(VEC), vec);
    /* Bound to a stream without limits: still the hardware counts. */
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(CUBE), cube);
    ASSERT_EQ(thread_limit(VEC), vec);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtDestroyStream(s));
}

TEST(reslimit, defaults_are_the_910b1_core_counts)
{
    setup_910b1();
    check_defaults(B1_CUBE, B1_VEC);
    t_teardown();
}

TEST(reslimit, defaults_are_the_310p3_core_counts)
{
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    check_defaults(P3_CUBE, P3_VEC);
    t_teardown();
}

/* ---- device limit --------------------------------------------------------------------- */

TEST(reslimit, device_limit_set_get_reset)
{
    setup_910b1();
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 16));
    ASSERT_EQ(dev_limit(VEC), 16);
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE); /* per type */
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 3));
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 5)); /* last call wins */
    ASSERT_EQ(dev_limit(CUBE), 5);
    ASSERT_EQ(dev_limit(VEC), 16);
    /* The hardware counts themselves are accepted. */
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, B1_CUBE));
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 5));
    /* Reset restores both types to the hardware counts. */
    ASSERT_OK(aclrtResetDeviceResLimit(0));
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_EQ(dev_limit(VEC), B1_VEC);
    t_teardown();
}

/* ---- lookup order: stream > device > hardware --------------------------------------------- */

TEST(reslimit, device_then_stream_then_reset_order)
{
    aclrtStream s = NULL, other = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));

    /* A device limit: streams without their own limit follow it. */
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 16));
    ASSERT_EQ(stream_limit(s, VEC), 16);
    ASSERT_EQ(stream_limit(NULL, VEC), 16);
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);

    /* A stream limit beats the device limit, even above it (doc: device 16, stream 20). */
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 20));
    ASSERT_EQ(stream_limit(s, VEC), 20);
    ASSERT_EQ(dev_limit(VEC), 16);              /* the device keeps its own */
    ASSERT_EQ(stream_limit(other, VEC), 16);    /* other streams are untouched */
    ASSERT_EQ(stream_limit(NULL, VEC), 16);     /* the default stream too */
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);  /* per type: no cube limit on s */

    /* Last set wins; changing the device limit does not move a stream limit. */
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 2));
    ASSERT_EQ(stream_limit(s, VEC), 2);
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 30));
    ASSERT_EQ(stream_limit(s, VEC), 2);
    ASSERT_EQ(stream_limit(other, VEC), 30);

    /* Stream reset: Get answers the device value again, for both types. */
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 4));
    ASSERT_EQ(stream_limit(s, CUBE), 4);
    ASSERT_OK(aclrtResetStreamResLimit(s));
    ASSERT_EQ(stream_limit(s, VEC), 30);
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);
    ASSERT_OK(aclrtResetStreamResLimit(s)); /* nothing set: still fine */
    ASSERT_EQ(stream_limit(s, VEC), 30);

    /* Device reset: the hardware counts again. */
    ASSERT_OK(aclrtResetDeviceResLimit(0));
    ASSERT_EQ(stream_limit(s, VEC), B1_VEC);
    ASSERT_EQ(stream_limit(other, VEC), B1_VEC);
    ASSERT_EQ(dev_limit(VEC), B1_VEC);

    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* The device reset restores the device's values; a stream's own limit
 * still comes first in the lookup. */
TEST(reslimit, device_reset_keeps_stream_limits)
{
    aclrtStream s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 10));
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 6));
    ASSERT_OK(aclrtResetDeviceResLimit(0));
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_EQ(stream_limit(s, CUBE), 6);
    ASSERT_OK(aclrtResetStreamResLimit(s));
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* A NULL stream means the context's default stream, for Set, Get and Reset. */
TEST(reslimit, null_stream_is_the_default_stream)
{
    aclrtStream def = NULL, s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCtxGetCurrentDefaultStream(&def));
    ASSERT(def != NULL);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetStreamResLimit(NULL, CUBE, 4));
    ASSERT_EQ(stream_limit(def, CUBE), 4);
    ASSERT_EQ(stream_limit(NULL, CUBE), 4);
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE); /* a stream limit, not a device one */
    ASSERT_OK(aclrtSetStreamResLimit(def, VEC, 9));
    ASSERT_EQ(stream_limit(NULL, VEC), 9);
    ASSERT_OK(aclrtResetStreamResLimit(NULL));
    ASSERT_EQ(stream_limit(def, CUBE), B1_CUBE);
    ASSERT_EQ(stream_limit(def, VEC), B1_VEC);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- the thread binding ----------------------------------------------------------------- */

TEST(reslimit, unbound_thread_sees_device_value)
{
    setup_910b1();
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 12));
    ASSERT_OK(aclrtSetStreamResLimit(NULL, VEC, 3)); /* not bound: no effect on the thread */
    ASSERT_EQ(thread_limit(VEC), 12);
    ASSERT_EQ(thread_limit(CUBE), B1_CUBE);
    t_teardown();
}

TEST(reslimit, use_binds_the_thread_to_the_stream)
{
    aclrtStream s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 10));
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 40));
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 3));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 3);
    ASSERT_EQ(thread_limit(CUBE), 10); /* no cube limit on s: the device value */
    /* The binding is to the stream: later changes to its limits show. */
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 7));
    ASSERT_EQ(thread_limit(VEC), 7);
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 2));
    ASSERT_EQ(thread_limit(CUBE), 2);
    ASSERT_OK(aclrtResetStreamResLimit(s));
    ASSERT_EQ(thread_limit(VEC), 40);
    ASSERT_EQ(thread_limit(CUBE), 10);
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 5));
    ASSERT_EQ(thread_limit(VEC), 5);
    /* Unuse of the bound stream: back to the device values. */
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 40);
    ASSERT_EQ(thread_limit(CUBE), 10);
    ASSERT_EQ(stream_limit(s, VEC), 5); /* the stream keeps its limit */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(reslimit, last_use_wins)
{
    aclrtStream s1 = NULL, s2 = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s1));
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_OK(aclrtSetStreamResLimit(s1, VEC, 3));
    ASSERT_OK(aclrtSetStreamResLimit(s2, VEC, 5));
    ASSERT_OK(aclrtSetStreamResLimit(NULL, VEC, 11));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s1));
    ASSERT_EQ(thread_limit(VEC), 3);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s2));
    ASSERT_EQ(thread_limit(VEC), 5);
    /* s1 is no longer the bound one: unusing it changes nothing. */
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s1));
    ASSERT_EQ(thread_limit(VEC), 5);
    /* Use(NULL) binds the default stream. */
    ASSERT_OK(aclrtUseStreamResInCurrentThread(NULL));
    ASSERT_EQ(thread_limit(VEC), 11);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s1));
    ASSERT_EQ(thread_limit(VEC), 3);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s1));
    ASSERT_EQ(thread_limit(VEC), B1_VEC);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDestroyStream(s2));
    t_teardown();
}

TEST(reslimit, unuse_of_another_stream_is_silent_and_keeps_binding)
{
    aclrtStream s = NULL, other = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtCreateStream(&other));
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 20));
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 4));
    ASSERT_OK(aclrtSetStreamResLimit(other, VEC, 6));
    /* Nothing bound yet: success, nothing changes. */
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 20);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(other));
    ASSERT_EQ(thread_limit(VEC), 4);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(NULL)); /* the default stream is not the bound one */
    ASSERT_EQ(thread_limit(VEC), 4);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 20);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s)); /* again: silent */
    ASSERT_EQ(thread_limit(VEC), 20);
    /* Bound to the default stream through NULL, and unbound the same way. */
    ASSERT_OK(aclrtSetStreamResLimit(NULL, VEC, 8));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(NULL));
    ASSERT_EQ(thread_limit(VEC), 8);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 8);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(NULL));
    ASSERT_EQ(thread_limit(VEC), 20);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtDestroyStream(other));
    t_teardown();
}

/* A second thread on the same context has a binding of its own. */
struct peer {
    aclrtContext ctx;
    aclrtStream main_stream, own_stream;
    _Atomic int step;   /* main -> peer: 1 = main changed its binding, 2 = finish */
    _Atomic int stage;  /* peer -> main: how far the peer got */
    aclError set_ctx, get_unbound, use_own, get_own, unuse_main, get_after_unuse_main, get_after_main_rebound;
    aclError unuse_own, get_final;
    uint32_t unbound, own, after_unuse_main, after_main_rebound, final_value;
};

static void *peer_main(void *arg)
{
    struct peer *p = arg;
    p->set_ctx = aclrtSetCurrentContext(p->ctx);
    /* Main is bound to main_stream; this thread is not bound at all. */
    p->get_unbound = aclrtGetResInCurrentThread(VEC, &p->unbound);
    p->use_own = aclrtUseStreamResInCurrentThread(p->own_stream);
    p->get_own = aclrtGetResInCurrentThread(VEC, &p->own);
    /* main_stream is bound in main, not here: a silent no-op here. */
    p->unuse_main = aclrtUnuseStreamResInCurrentThread(p->main_stream);
    p->get_after_unuse_main = aclrtGetResInCurrentThread(VEC, &p->after_unuse_main);
    atomic_store(&p->stage, 1);
    if (!t_wait_flag(&p->step, 1))
        return NULL;
    /* Main has unbound itself meanwhile: this binding stays. */
    p->get_after_main_rebound = aclrtGetResInCurrentThread(VEC, &p->after_main_rebound);
    p->unuse_own = aclrtUnuseStreamResInCurrentThread(p->own_stream);
    p->get_final = aclrtGetResInCurrentThread(VEC, &p->final_value);
    atomic_store(&p->stage, 2);
    return NULL;
}

TEST(reslimit, binding_is_per_thread)
{
    static struct peer p;
    pthread_t th;
    setup_910b1();
    ASSERT_OK(aclrtGetCurrentContext(&p.ctx));
    ASSERT_OK(aclrtCreateStream(&p.main_stream));
    ASSERT_OK(aclrtCreateStream(&p.own_stream));
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 9));
    ASSERT_OK(aclrtSetStreamResLimit(p.main_stream, VEC, 2));
    ASSERT_OK(aclrtSetStreamResLimit(p.own_stream, VEC, 5));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(p.main_stream));
    ASSERT_EQ(thread_limit(VEC), 2);

    ASSERT_EQ(pthread_create(&th, NULL, peer_main, &p), 0);
    ASSERT(t_wait_flag(&p.stage, 1));
    /* The peer's own binding and its Unuse(main_stream) left main's binding alone. */
    ASSERT_EQ(thread_limit(VEC), 2);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(p.main_stream));
    ASSERT_EQ(thread_limit(VEC), 9);
    atomic_store(&p.step, 1);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(atomic_load(&p.stage), 2);

    ASSERT_OK(p.set_ctx);
    ASSERT_OK(p.get_unbound);
    ASSERT_EQ(p.unbound, 9); /* main's binding is not this thread's */
    ASSERT_OK(p.use_own);
    ASSERT_OK(p.get_own);
    ASSERT_EQ(p.own, 5);
    ASSERT_OK(p.unuse_main);
    ASSERT_OK(p.get_after_unuse_main);
    ASSERT_EQ(p.after_unuse_main, 5);
    ASSERT_OK(p.get_after_main_rebound);
    ASSERT_EQ(p.after_main_rebound, 5); /* main's Unuse did not touch the peer */
    ASSERT_OK(p.unuse_own);
    ASSERT_OK(p.get_final);
    ASSERT_EQ(p.final_value, 9);

    ASSERT_OK(aclrtDestroyStream(p.main_stream));
    ASSERT_OK(aclrtDestroyStream(p.own_stream));
    t_teardown();
}

/* ---- argument errors -------------------------------------------------------------------- */

TEST(reslimit, type_two_or_more_is_invalid)
{
    aclrtStream s = NULL;
    uint32_t v = 0;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtGetDeviceResLimit(0, BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetDeviceResLimit(0, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetStreamResLimit(s, BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(s, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetStreamResLimit(NULL, BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(NULL, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetResInCurrentThread(BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetResInCurrentThread((aclrtDevResLimitType)100, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_RC(aclrtGetResInCurrentThread(BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    /* Nothing was changed by the refused calls. */
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_EQ(dev_limit(VEC), B1_VEC);
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);
    ASSERT_EQ(stream_limit(s, VEC), B1_VEC);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(reslimit, value_above_core_count_is_invalid_910b1)
{
    aclrtStream s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSetDeviceResLimit(0, CUBE, B1_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetDeviceResLimit(0, VEC, B1_VEC + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetDeviceResLimit(0, CUBE, UINT32_MAX), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(s, CUBE, B1_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(NULL, CUBE, B1_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(s, VEC, B1_VEC + 1), ACL_ERROR_RT_PARAM_INVALID);
    /* Refused values leave the limits as they were. */
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_EQ(dev_limit(VEC), B1_VEC);
    ASSERT_EQ(stream_limit(s, CUBE), B1_CUBE);
    ASSERT_EQ(stream_limit(s, VEC), B1_VEC);
    /* 25 is a valid vector count, and the counts themselves are valid. */
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, B1_CUBE + 1));
    ASSERT_EQ(stream_limit(s, VEC), B1_CUBE + 1);
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, B1_CUBE));
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, B1_VEC));
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, B1_VEC));
    /* The bound is the hardware count, not the device limit. */
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 4));
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 20));
    ASSERT_EQ(stream_limit(s, CUBE), 20);
    ASSERT_RC(aclrtSetStreamResLimit(s, CUBE, B1_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(stream_limit(s, CUBE), 20);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(reslimit, value_above_core_count_is_invalid_310p3)
{
    aclrtStream s = NULL;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtSetDeviceResLimit(0, CUBE, P3_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetDeviceResLimit(0, VEC, P3_VEC + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetStreamResLimit(s, CUBE, P3_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    /* 8 is the cube count but one more than the vector count. */
    ASSERT_RC(aclrtSetStreamResLimit(s, VEC, P3_CUBE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, P3_CUBE));
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, P3_VEC));
    ASSERT_EQ(stream_limit(s, CUBE), P3_CUBE);
    ASSERT_EQ(stream_limit(s, VEC), P3_VEC);
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, P3_VEC));
    ASSERT_EQ(dev_limit(VEC), P3_VEC);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(reslimit, null_value_pointer_is_invalid)
{
    aclrtStream s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_RC(aclrtGetDeviceResLimit(0, CUBE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetDeviceResLimit(0, VEC, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(s, VEC, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(NULL, CUBE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetResInCurrentThread(VEC, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_RC(aclrtGetResInCurrentThread(CUBE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(reslimit, bad_device_id)
{
    uint32_t v = 77;
    setup_910b1();
    ASSERT_RC(aclrtGetDeviceResLimit(99, CUBE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_EQ(v, 77);
    ASSERT_RC(aclrtSetDeviceResLimit(99, CUBE, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtResetDeviceResLimit(99), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetDeviceResLimit(-1, VEC, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtSetDeviceResLimit(-1, VEC, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtResetDeviceResLimit(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    /* Device 0 is untouched. */
    ASSERT_EQ(dev_limit(CUBE), B1_CUBE);
    ASSERT_EQ(dev_limit(VEC), B1_VEC);
    t_teardown();
}

/* A thread that never set a context has no default stream and no device. */
struct no_ctx {
    aclError get_stream, set_stream, reset_stream, use, unuse, get_thread;
    uint32_t value;
};

static void *no_ctx_main(void *arg)
{
    struct no_ctx *r = arg;
    r->value = 77;
    r->get_stream = aclrtGetStreamResLimit(NULL, VEC, &r->value);
    r->set_stream = aclrtSetStreamResLimit(NULL, VEC, 1);
    r->reset_stream = aclrtResetStreamResLimit(NULL);
    r->use = aclrtUseStreamResInCurrentThread(NULL);
    r->unuse = aclrtUnuseStreamResInCurrentThread(NULL);
    r->get_thread = aclrtGetResInCurrentThread(VEC, &r->value);
    return NULL;
}

TEST(reslimit, no_context_in_a_fresh_thread)
{
    static struct no_ctx r;
    pthread_t th;
    setup_910b1();
    ASSERT_EQ(pthread_create(&th, NULL, no_ctx_main, &r), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_RC(r.get_stream, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.set_stream, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.reset_stream, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.use, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.unuse, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(r.get_thread, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_EQ(r.value, 77);
    /* The refused Set changed nothing on this context's default stream. */
    ASSERT_EQ(stream_limit(NULL, VEC), B1_VEC);
    t_teardown();
}

/* ---- limits are cooperative: numBlocks is never clamped ------------------------------------- */

enum { LAUNCH_BLOCKS = 48 };
static _Atomic int block_hits[LAUNCH_BLOCKS];
static _Atomic int blocks_run, bad_block;

static void k_count(void *args)
{
    uint32_t idx = aclcpuGetBlockIdx();
    (void)args;
    atomic_fetch_add(&blocks_run, 1);
    if (aclcpuGetBlockNum() != LAUNCH_BLOCKS || idx >= LAUNCH_BLOCKS) {
        atomic_fetch_add(&bad_block, 1);
        return;
    }
    atomic_fetch_add(&block_hits[idx], 1);
}

static void check_launch_counts(int launches)
{
    ASSERT_EQ(atomic_load(&bad_block), 0);
    ASSERT_EQ(atomic_load(&blocks_run), launches * LAUNCH_BLOCKS);
    for (int i = 0; i < LAUNCH_BLOCKS; i++)
        ASSERT_EQ(atomic_load(&block_hits[i]), launches);
}

TEST(reslimit, num_blocks_not_clamped)
{
    aclrtStream s = NULL;
    aclrtFuncHandle k;
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg = {&attr, 1};
    setup_910b1();
    k = t_kernel("reslimit_count", k_count);
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 1));
    ASSERT_OK(aclrtSetDeviceResLimit(0, VEC, 1));
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 1));
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 1));
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_EQ(thread_limit(VEC), 1);

    /* On the limited, bound stream: every one of the 48 blocks runs. */
    ASSERT_OK(aclrtLaunchKernel(k, LAUNCH_BLOCKS, NULL, 0, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    check_launch_counts(1);

    /* Explicitly on the vector and the cube engine. */
    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attr.value.engineType = ACL_RT_ENGINE_TYPE_AIV;
    ASSERT_OK(aclrtLaunchKernelV2(k, LAUNCH_BLOCKS, NULL, 0, &cfg, s));
    attr.value.engineType = ACL_RT_ENGINE_TYPE_AIC;
    ASSERT_OK(aclrtLaunchKernelV2(k, LAUNCH_BLOCKS, NULL, 0, &cfg, s));
    ASSERT_OK(aclrtSynchronizeStream(s));
    check_launch_counts(3);

    /* On the default stream, under the device limit of 1. */
    ASSERT_OK(aclrtLaunchKernel(k, LAUNCH_BLOCKS, NULL, 0, NULL));
    ASSERT_OK(aclrtSynchronizeStream(NULL));
    check_launch_counts(4);

    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- the conformance audit: the reference's order of checks ------------------------------- */

#define STALE_STREAM ((aclrtStream)(uintptr_t)0x1234)

/* The handle is checked before the type (api_c_stream.cc validates it at
 * entry, api_error.cc checks the type after); the getter's NULL value is
 * the acl layer's and comes first of all. */
TEST(reslimit, stream_calls_check_handle_then_type)
{
    uint32_t v = 77;
    setup_910b1();
    ASSERT_RC(aclrtGetStreamResLimit(STALE_STREAM, BAD_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetStreamResLimit(STALE_STREAM, BAD_TYPE, &v), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetStreamResLimit: argument 'stream'");
    ASSERT_RC(aclrtSetStreamResLimit(STALE_STREAM, BAD_TYPE, 1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetStreamResLimit(NULL, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetStreamResLimit: argument 'type'");
    ASSERT_RC(aclrtResetStreamResLimit(STALE_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtUseStreamResInCurrentThread(STALE_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtUnuseStreamResInCurrentThread(STALE_STREAM), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_EQ(v, 77);
    t_teardown();
}

static void *named_without_context(void *arg)
{
    aclrtStream s = arg;
    uint32_t v = 0;
    ASSERT_OK(aclrtSetStreamResLimit(s, VEC, 5));
    ASSERT_OK(aclrtGetStreamResLimit(s, VEC, &v));
    ASSERT_EQ(v, 5);
    ASSERT_RC(aclrtSetStreamResLimit(s, VEC, B1_VEC + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtUseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtUnuseStreamResInCurrentThread(s));
    ASSERT_OK(aclrtResetStreamResLimit(s));
    ASSERT_OK(aclrtSetStreamResLimit(s, CUBE, 3)); /* left for the test to see */
    return NULL;
}

/* A named stream needs no current context for the stream limit calls;
 * only NULL (the default stream) does (api_impl.cc SetStreamResLimit,
 * GetStreamResLimit, ResetStreamResLimit, UseStreamResInCurrentThread,
 * NotUseStreamResInCurrentThread). */
TEST(reslimit, a_named_stream_needs_no_context)
{
    pthread_t th;
    aclrtStream s = NULL;
    setup_910b1();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_EQ(pthread_create(&th, NULL, named_without_context, s), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_EQ(stream_limit(s, CUBE), 3);
    ASSERT_EQ(stream_limit(s, VEC), B1_VEC); /* reset there */
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- the audit of the device calls against the reference (docs/conformance.md) ---- */

/* api_c_device.cc rtsSetDeviceResLimit / rtsGetDeviceResLimit refuse a
 * negative id (107001) before the decorator checks the type (107000);
 * api_error.cc ApiErrorDecorator::Set/GetDeviceResLimit then check the type
 * before an id past the last device (107001). The NULL 'value' of the get
 * is the ACL layer's, first of all (100000). */
TEST(reslimit, negative_device_id_before_type_before_id_range)
{
    uint32_t v = 77;
    setup_910b1();
    ASSERT_RC(aclrtSetDeviceResLimit(-1, BAD_TYPE, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetDeviceResLimit(-1, BAD_TYPE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetDeviceResLimit(-1, BAD_TYPE, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtSetDeviceResLimit(99, BAD_TYPE, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetDeviceResLimit(99, BAD_TYPE, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetDeviceResLimit(1, CUBE, B1_CUBE + 1), ACL_ERROR_RT_INVALID_DEVICEID); /* id before value */
    ASSERT_RC(aclrtResetDeviceResLimit(1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_EQ(v, 77);
    /* The last core count is accepted, the next refused. */
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, B1_CUBE));
    ASSERT_RC(aclrtSetDeviceResLimit(0, CUBE, B1_CUBE + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 0));
    ASSERT_EQ(dev_limit(CUBE), 0);
    t_teardown();
}

/* api_impl.cc ApiImpl::Set/Get/ResetDeviceResLimit: a device that no
 * aclrtSetDevice or context has opened has no Device object
 * (RT_ERROR_DEVICE_NULL, 507033 by errcode_manage.cc); a context created
 * on it is enough. */
TEST(reslimit, device_not_set_up_is_dev_setup_error)
{
    uint32_t v = 77;
    aclrtContext c = NULL;
    unsetenv("ACLCPU_SOC");
    ASSERT_OK(aclInit(NULL));
    ASSERT_RC(aclrtSetDeviceResLimit(0, CUBE, 1), ACL_ERROR_RT_DEV_SETUP_ERROR);
    ASSERT_RC(aclrtGetDeviceResLimit(0, VEC, &v), ACL_ERROR_RT_DEV_SETUP_ERROR);
    ASSERT_RC(aclrtResetDeviceResLimit(0), ACL_ERROR_RT_DEV_SETUP_ERROR);
    (void)aclGetRecentErrMsg();
    ASSERT_RC(aclrtGetDeviceResLimit(0, VEC, &v), ACL_ERROR_RT_DEV_SETUP_ERROR);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetDeviceResLimit: device 0 is not set up");
    ASSERT_EQ(v, 77);
    ASSERT_OK(aclrtCreateContext(&c, 0));
    ASSERT_OK(aclrtSetDeviceResLimit(0, CUBE, 3));
    ASSERT_EQ(dev_limit(CUBE), 3);
    ASSERT_OK(aclrtDestroyContext(c));
    ASSERT_RC(aclrtGetDeviceResLimit(0, CUBE, &v), ACL_ERROR_RT_DEV_SETUP_ERROR);
    ASSERT_OK(aclFinalize());
}

/* api_impl.cc ApiImpl::GetResInCurrentThread: a limit set on the stream the
 * thread is bound to answers without a context; a type the stream has not
 * set falls to the current context's device, which needs one (107002). */
struct bound_no_ctx {
    aclrtContext primary;
    aclrtStream s;
    aclError use, make_ctx, drop_ctx, get_cube, get_vec;
    uint32_t cube, vec;
};

static void *bound_no_ctx_main(void *arg)
{
    struct bound_no_ctx *b = arg;
    aclrtContext other = NULL;
    b->vec = 77;
    if (aclrtSetCurrentContext(b->primary) != ACL_SUCCESS)
        return NULL;
    b->use = aclrtUseStreamResInCurrentThread(b->s);
    /* Leave the thread without a current context, still bound to s. */
    b->make_ctx = aclrtCreateContext(&other, 0);
    b->drop_ctx = aclrtDestroyContext(other);
    b->get_cube = aclrtGetResInCurrentThread(CUBE, &b->cube);
    b->get_vec = aclrtGetResInCurrentThread(VEC, &b->vec);
    return NULL;
}

TEST(reslimit, bound_stream_limit_answers_without_a_context)
{
    static struct bound_no_ctx b;
    pthread_t th;
    setup_910b1();
    ASSERT_OK(aclrtGetCurrentContext(&b.primary));
    ASSERT_OK(aclrtCreateStream(&b.s));
    ASSERT_OK(aclrtSetStreamResLimit(b.s, CUBE, 5));
    ASSERT_EQ(pthread_create(&th, NULL, bound_no_ctx_main, &b), 0);
    ASSERT_EQ(pthread_join(th, NULL), 0);
    ASSERT_OK(b.use);
    ASSERT_OK(b.make_ctx);
    ASSERT_OK(b.drop_ctx);
    ASSERT_OK(b.get_cube);
    ASSERT_EQ(b.cube, 5);
    ASSERT_RC(b.get_vec, ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_EQ(b.vec, 77);
    ASSERT_OK(aclrtDestroyStream(b.s));
    t_teardown();
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* A device's limits go with its default context: after the last reset
 * closed the device, a new aclrtSetDevice reads the profile's core counts
 * again, not the limits set before. */
TEST(reslimit, a_device_limit_does_not_outlive_the_reset_that_closes_the_device)
{
    uint32_t cube, vec;
    setup_910b1();
    cube = dev_limit(ACL_RT_DEV_RES_CUBE_CORE);
    vec = dev_limit(ACL_RT_DEV_RES_VECTOR_CORE);
    ASSERT_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 3));
    ASSERT_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 5));
    ASSERT_EQ(dev_limit(ACL_RT_DEV_RES_CUBE_CORE), 3);
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_EQ(dev_limit(ACL_RT_DEV_RES_CUBE_CORE), cube);
    ASSERT_EQ(dev_limit(ACL_RT_DEV_RES_VECTOR_CORE), vec);
    t_teardown();
}
