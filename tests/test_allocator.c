/*
 * test_allocator.c - custom allocators registered per stream
 * (acl_rt_allocator.h).
 *
 * Rules: the reference's checks in order (src/acl/aclrt_impl/allocator.cpp:
 * NULL arguments, then the description's obj, allocFunc, freeFunc and
 * getAddrFromBlockFunc; a registration is a copy; GetByStream of a stream
 * without one is 100000; Unregister of none succeeds) and the project's:
 * a destroyed or made-up description and a dead stream are refused, a
 * registration ends with its stream, descriptions with aclFinalize.
 */
#include "test.h"

/* ---- custom allocators ------------------------------------------------------------------------ */

static int alloc_state;
static void *k_alloc(aclrtAllocator a, size_t n) { (void)a; return malloc(n); }
static void k_free(aclrtAllocator a, aclrtAllocatorBlock b) { (void)a; free(b); }
static void *k_advise(aclrtAllocator a, size_t n, aclrtAllocatorAddr addr) { (void)addr; return k_alloc(a, n); }
static void *k_addr(aclrtAllocatorBlock b) { return b; }

static aclrtAllocatorDesc full_desc(void)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    ASSERT(d != NULL);
    ASSERT_OK(aclrtAllocatorSetObjToDesc(d, &alloc_state));
    ASSERT_OK(aclrtAllocatorSetAllocFuncToDesc(d, k_alloc));
    ASSERT_OK(aclrtAllocatorSetFreeFuncToDesc(d, k_free));
    ASSERT_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, k_addr));
    return d;
}

TEST(allocator, desc_setters_check_null_and_stale)
{
    aclrtAllocatorDesc d;
    t_setup();
    d = aclrtAllocatorCreateDesc();
    ASSERT(d != NULL);
    ASSERT_RC(aclrtAllocatorSetObjToDesc(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorSetObjToDesc: argument 'allocatorDesc' is NULL");
    ASSERT_RC(aclrtAllocatorSetObjToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'allocator' is NULL");
    ASSERT_RC(aclrtAllocatorSetAllocFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorSetFreeFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorSetAllocAdviseFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, k_advise));
    ASSERT_RC(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    /* Destroyed: every use is refused, the second destroy included. */
    ASSERT_RC(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not a live allocator description");
    ASSERT_RC(aclrtAllocatorSetAllocFuncToDesc(d, k_alloc), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorSetObjToDesc((aclrtAllocatorDesc)&alloc_state, &alloc_state), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

TEST(allocator, register_checks_in_order)
{
    aclrtAllocatorDesc d;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    d = aclrtAllocatorCreateDesc();
    ASSERT_RC(aclrtAllocatorRegister(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorRegister: argument 'stream' is NULL");
    ASSERT_RC(aclrtAllocatorRegister(s, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'allocatorDesc->obj'");
    ASSERT_OK(aclrtAllocatorSetObjToDesc(d, &alloc_state));
    ASSERT_RC(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'allocatorDesc->allocFunc'");
    ASSERT_OK(aclrtAllocatorSetAllocFuncToDesc(d, k_alloc));
    ASSERT_RC(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'allocatorDesc->freeFunc'");
    ASSERT_OK(aclrtAllocatorSetFreeFuncToDesc(d, k_free));
    ASSERT_RC(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'allocatorDesc->getAddrFromBlockFunc'");
    ASSERT_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, k_addr));
    ASSERT_OK(aclrtAllocatorRegister(s, d)); /* the advise callback is optional */
    ASSERT_RC(aclrtAllocatorRegister((aclrtStream)(uintptr_t)0x1234, d), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(allocator, get_by_stream_returns_the_registered_copy)
{
    aclrtAllocatorDesc d, got = NULL;
    aclrtAllocator obj = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtAllocatorFreeFunc ff = NULL;
    aclrtAllocatorAllocAdviseFunc adv = k_advise;
    aclrtAllocatorGetAddrFromBlockFunc gf = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    d = full_desc();
    ASSERT_RC(aclrtAllocatorGetByStream(s, NULL, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorGetByStream(NULL, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not registered with any allocator");
    ASSERT_OK(aclrtAllocatorRegister(s, d));
    /* Changing or destroying the description afterwards leaves the registration as it was. */
    ASSERT_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, k_advise));
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    ASSERT_OK(aclrtAllocatorGetByStream(s, &got, &obj, &af, &ff, &adv, &gf));
    ASSERT(got == d);
    ASSERT(obj == &alloc_state);
    ASSERT(af == k_alloc && ff == k_free && gf == k_addr);
    ASSERT(adv == NULL);
    ASSERT_OK(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL)); /* the rest may be NULL */
    /* Unregister twice is fine, as in the reference; then nothing is registered. */
    ASSERT_RC(aclrtAllocatorUnregister(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtAllocatorUnregister(s));
    ASSERT_OK(aclrtAllocatorUnregister(s));
    ASSERT_RC(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

TEST(allocator, registration_ends_with_its_stream)
{
    aclrtAllocatorDesc d, got = NULL;
    aclrtStream s = NULL, s2 = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    d = full_desc();
    ASSERT_OK(aclrtAllocatorRegister(s, d));
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_RC(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtAllocatorUnregister(s), ACL_ERROR_RT_INVALID_HANDLE);
    /* A new stream (it may reuse the old one's record) starts with none. */
    ASSERT_OK(aclrtCreateStream(&s2));
    ASSERT_RC(aclrtAllocatorGetByStream(s2, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtAllocatorRegister(s2, d));
    ASSERT_OK(aclrtDestroyStream(s2));
    /* Descriptions end with aclFinalize. */
    t_teardown();
    t_setup();
    ASSERT_RC(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* aclrtAllocatorCreateDesc needs neither aclInit nor a device (the
 * reference only allocates a record); aclrtAllocatorDestroyDesc: NULL is
 * 100000, and so is a second destroy (aclcpu's handles are not pointers,
 * so it can tell; the reference would free twice). */
TEST(allocator, create_desc_needs_no_init_and_destroy_checks_null_then_stale)
{
    aclrtAllocatorDesc d = aclrtAllocatorCreateDesc();
    ASSERT(d != NULL);
    ASSERT_OK(aclrtAllocatorSetObjToDesc(d, &alloc_state));
    ASSERT_OK(aclrtAllocatorSetAllocFuncToDesc(d, k_alloc));
    ASSERT_OK(aclrtAllocatorSetFreeFuncToDesc(d, k_free));
    ASSERT_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, k_advise));
    ASSERT_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, k_addr));
    ASSERT_RC(aclrtAllocatorDestroyDesc(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorDestroyDesc: argument 'allocatorDesc' is NULL");
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    ASSERT_RC(aclrtAllocatorDestroyDesc(d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorDestroyDesc: argument 'allocatorDesc'");
    /* Each setter names itself and its argument. */
    d = aclrtAllocatorCreateDesc();
    ASSERT_RC(aclrtAllocatorSetFreeFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorSetFreeFuncToDesc: argument 'func' is NULL");
    ASSERT_RC(aclrtAllocatorSetAllocAdviseFuncToDesc(NULL, k_advise), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorSetAllocAdviseFuncToDesc: argument 'allocatorDesc'");
    ASSERT_RC(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(d, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocatorSetGetAddrFromBlockFuncToDesc: argument 'func'");
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
}

/* 4096 descriptions may be live at once (aclcpu's table, named in the
 * refusal): the 4096th is made, the 4097th is NULL with the reason, and
 * destroying one makes room for exactly one. */
TEST(allocator, at_most_4096_descriptions_live)
{
    enum { MAX = 4096 };
    static aclrtAllocatorDesc d[MAX];
    for (int i = 0; i < MAX; i++) {
        d[i] = aclrtAllocatorCreateDesc();
        ASSERT(d[i] != NULL);
    }
    ASSERT(aclrtAllocatorCreateDesc() == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "4096 may be live at once");
    ASSERT_OK(aclrtAllocatorDestroyDesc(d[MAX / 2]));
    d[MAX / 2] = aclrtAllocatorCreateDesc();
    ASSERT(d[MAX / 2] != NULL);
    ASSERT(aclrtAllocatorCreateDesc() == NULL);
    for (int i = 0; i < MAX; i++)
        ASSERT_OK(aclrtAllocatorDestroyDesc(d[i]));
}

static void *k_alloc_other(aclrtAllocator a, size_t n) { return k_alloc(a, n); }

/* A description's handle carries its slot's generation: once destroyed,
 * the handle stays dead even after a new description takes the same slot
 * (the lowest free one, so the very next create reuses it). Without the
 * generation check the old handle would name - and change - the new one. */
TEST(allocator, a_destroyed_descriptions_handle_does_not_name_the_new_one_in_its_slot)
{
    aclrtAllocatorDesc old = aclrtAllocatorCreateDesc(), d, got = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtStream s = NULL;
    ASSERT(old != NULL);
    ASSERT_OK(aclrtAllocatorDestroyDesc(old));
    d = full_desc(); /* in the slot old had */
    ASSERT(d != old);
    ASSERT_RC(aclrtAllocatorSetAllocFuncToDesc(old, k_alloc_other), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not a live allocator description");
    ASSERT_RC(aclrtAllocatorDestroyDesc(old), ACL_ERROR_INVALID_PARAM);
    /* The new description is untouched: a registration copies its own alloc function. */
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    ASSERT_OK(aclrtAllocatorRegister(s, d));
    ASSERT_OK(aclrtAllocatorGetByStream(s, &got, NULL, &af, NULL, NULL, NULL));
    ASSERT(got == d);
    ASSERT(af == k_alloc);
    ASSERT_OK(aclrtDestroyStream(s));
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    t_teardown();
}

/* ---- sweep 4 (2026-12-05) ------------------------------------------------------------------ */

/* An advise function set on the description before registration is the
 * registration's: aclrtAllocatorGetByStream hands it back. */
TEST(allocator, get_by_stream_returns_the_advise_function_registered)
{
    aclrtAllocatorDesc d, got = NULL;
    aclrtAllocatorAllocAdviseFunc adv = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    d = full_desc();
    ASSERT_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(d, k_advise));
    ASSERT_OK(aclrtAllocatorRegister(s, d));
    ASSERT_OK(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, &adv, NULL));
    ASSERT(got == d);
    ASSERT(adv == k_advise);
    ASSERT_OK(aclrtAllocatorUnregister(s));
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* ---- sweep 4: a reused slot and a second registration ----------------------------------------- */

/* A description made in the slot of a destroyed one starts empty: the old
 * one's functions are not inherited, so registering it is refused for its
 * missing obj, as for any new description. */
TEST(allocator, a_new_description_in_a_reused_slot_starts_with_no_functions)
{
    aclrtAllocatorDesc old, d;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    old = full_desc();
    ASSERT_OK(aclrtAllocatorDestroyDesc(old));
    d = aclrtAllocatorCreateDesc(); /* the lowest free slot: old's */
    ASSERT(d != NULL);
    ASSERT_RC(aclrtAllocatorRegister(s, d), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'allocatorDesc->obj'");
    ASSERT_OK(aclrtAllocatorDestroyDesc(d));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* Registering a second description with a stream replaces the first:
 * GetByStream names the second, and one unregister leaves none. */
TEST(allocator, a_second_registration_of_a_stream_replaces_the_first)
{
    aclrtAllocatorDesc d1, d2, got = NULL;
    aclrtAllocatorAllocFunc af = NULL;
    aclrtStream s = NULL;
    t_setup();
    ASSERT_OK(aclrtCreateStream(&s));
    d1 = full_desc();
    d2 = full_desc();
    ASSERT_OK(aclrtAllocatorSetAllocFuncToDesc(d2, k_alloc_other));
    ASSERT_OK(aclrtAllocatorRegister(s, d1));
    ASSERT_OK(aclrtAllocatorRegister(s, d2));
    ASSERT_OK(aclrtAllocatorGetByStream(s, &got, NULL, &af, NULL, NULL, NULL));
    ASSERT(got == d2);
    ASSERT(af == k_alloc_other);
    ASSERT_OK(aclrtAllocatorUnregister(s));
    ASSERT_RC(aclrtAllocatorGetByStream(s, &got, NULL, NULL, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtAllocatorDestroyDesc(d1));
    ASSERT_OK(aclrtAllocatorDestroyDesc(d2));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}
