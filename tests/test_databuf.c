/*
 * test_databuf.c - aclDataBuffer and aclDataTypeSize (data_buffer.cpp in
 * the reference): no argument checks but the buffer's own, no aclInit
 * needed, refused buffers give 100000 and never crash, nothing leaks.
 */
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* aclGetDataBufferSize */

/* A buffer holding data and size, read back through every getter. */
static void check_holds(aclDataBuffer *b, void *data, size_t size)
{
    ASSERT(b != NULL);
    ASSERT(aclGetDataBufferAddr(b) == data);
    ASSERT(aclGetDataBufferSizeV2(b) == size);
    ASSERT_EQ(aclGetDataBufferSize(b), (uint32_t)size);
}

/* No t_setup: none of these calls needs aclInit or a device. */
TEST(databuf, create_takes_any_data_and_size_without_acl_init)
{
    static char bytes[16];
    struct {
        void *data;
        size_t size;
    } cases[] = {{NULL, 0}, {NULL, 100}, {bytes, 0}, {bytes, sizeof(bytes)}, {bytes, SIZE_MAX}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        aclDataBuffer *b = aclCreateDataBuffer(cases[i].data, cases[i].size);
        check_holds(b, cases[i].data, cases[i].size);
        ASSERT_OK(aclDestroyDataBuffer(b));
    }
    ASSERT(aclGetRecentErrMsg() == NULL); /* nothing was refused */
}

TEST(databuf, destroy_of_null_is_100000)
{
    ASSERT_RC(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclDestroyDataBuffer: argument 'dataBuffer' is NULL");
}

TEST(databuf, update_of_null_is_100000)
{
    int x;
    ASSERT_RC(aclUpdateDataBuffer(NULL, &x, sizeof(x)), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclUpdateDataBuffer: argument 'dataBuffer' is NULL");
}

TEST(databuf, getters_of_null_give_null_and_zero)
{
    ASSERT(aclGetDataBufferAddr(NULL) == NULL);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclGetDataBufferAddr: argument 'dataBuffer' is NULL");
    ASSERT_EQ(aclGetDataBufferSize(NULL), 0);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclGetDataBufferSize: argument 'dataBuffer' is NULL");
    ASSERT(aclGetDataBufferSizeV2(NULL) == 0);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclGetDataBufferSizeV2: argument 'dataBuffer' is NULL");
}

TEST(databuf, update_replaces_data_and_size_unchecked)
{
    static char a[8], b[32];
    aclDataBuffer *buf = aclCreateDataBuffer(a, sizeof(a));
    check_holds(buf, a, sizeof(a));
    ASSERT_OK(aclUpdateDataBuffer(buf, b, sizeof(b)));
    check_holds(buf, b, sizeof(b));
    ASSERT_OK(aclUpdateDataBuffer(buf, NULL, 0));
    check_holds(buf, NULL, 0);
    ASSERT_OK(aclUpdateDataBuffer(buf, NULL, 12345));
    check_holds(buf, NULL, 12345);
    ASSERT_OK(aclDestroyDataBuffer(buf));
}

/* The deprecated getter returns uint32_t: the reference casts the size. */
TEST(databuf, size_keeps_the_low_32_bits_and_v2_the_whole_size)
{
#if SIZE_MAX > UINT32_MAX
    static char bytes[1];
    aclDataBuffer *b = aclCreateDataBuffer(bytes, ((size_t)1 << 32) + 5);
    ASSERT_EQ(aclGetDataBufferSize(b), 5);
    ASSERT(aclGetDataBufferSizeV2(b) == ((size_t)1 << 32) + 5);
    ASSERT_OK(aclUpdateDataBuffer(b, bytes, UINT32_MAX));
    ASSERT_EQ(aclGetDataBufferSize(b), UINT32_MAX);
    ASSERT(aclGetDataBufferSizeV2(b) == UINT32_MAX);
    ASSERT_OK(aclUpdateDataBuffer(b, bytes, (size_t)UINT32_MAX + 1));
    ASSERT_EQ(aclGetDataBufferSize(b), 0);
    ASSERT(aclGetDataBufferSizeV2(b) == (size_t)UINT32_MAX + 1);
    ASSERT_OK(aclDestroyDataBuffer(b));
#else
    SKIP("size_t is 32 bits");
#endif
}

/* The reference would read freed memory; aclcpu's buffers are checked
 * handles, so every call refuses a destroyed one. */
TEST(databuf, a_destroyed_buffer_is_refused_by_every_call)
{
    static char bytes[4];
    aclDataBuffer *b = aclCreateDataBuffer(bytes, sizeof(bytes));
    ASSERT_OK(aclDestroyDataBuffer(b));
    ASSERT_RC(aclDestroyDataBuffer(b), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclDestroyDataBuffer: argument 'dataBuffer'");
    ASSERT_RC(aclUpdateDataBuffer(b, bytes, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "is not a live data buffer");
    ASSERT(aclGetDataBufferAddr(b) == NULL);
    ASSERT_EQ(aclGetDataBufferSize(b), 0);
    ASSERT(aclGetDataBufferSizeV2(b) == 0);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclGetDataBufferSizeV2: argument 'dataBuffer'");
}

TEST(databuf, a_pointer_not_made_by_create_is_refused)
{
    static char bytes[64];
    aclrtBinary bin = aclrtCreateBinary(bytes, sizeof(bytes));
    /* Plain memory; a handle of no type; one shaped like a data buffer's
     * (tag 0xAC, type 11) but of generation 0, which no object has; an
     * aclrtBinary. */
    aclDataBuffer *fake[] = {(aclDataBuffer *)bytes, (aclDataBuffer *)(uintptr_t)0xAC00000000000001ull,
                             (aclDataBuffer *)(uintptr_t)0xAC58000000000000ull, (aclDataBuffer *)bin};
    ASSERT(bin != NULL);
    for (size_t i = 0; i < sizeof(fake) / sizeof(fake[0]); i++) {
        ASSERT_RC(aclDestroyDataBuffer(fake[i]), ACL_ERROR_INVALID_PARAM);
        ASSERT_RC(aclUpdateDataBuffer(fake[i], NULL, 0), ACL_ERROR_INVALID_PARAM);
        ASSERT(aclGetDataBufferAddr(fake[i]) == NULL);
        ASSERT(aclGetDataBufferSizeV2(fake[i]) == 0);
        ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "not made by aclCreateDataBuffer");
    }
    ASSERT_OK(aclrtDestroyBinary(bin)); /* the binary was not touched */
}

/* A destroyed buffer's memory is reused (after 64 newer destroys), yet
 * its old pointer stays refused and names none of the new buffers. */
TEST(databuf, a_stale_buffer_stays_refused_after_its_memory_is_reused)
{
    static char bytes[4];
    aclDataBuffer *old = aclCreateDataBuffer(bytes, 1), *fresh[200];
    ASSERT_OK(aclDestroyDataBuffer(old));
    for (int i = 0; i < 200; i++) {
        aclDataBuffer *t = aclCreateDataBuffer(NULL, 0);
        ASSERT_OK(aclDestroyDataBuffer(t));
    }
    for (int i = 0; i < 200; i++) {
        fresh[i] = aclCreateDataBuffer(bytes, (size_t)i + 2);
        ASSERT(fresh[i] != old);
    }
    ASSERT_RC(aclDestroyDataBuffer(old), ACL_ERROR_INVALID_PARAM);
    ASSERT(aclGetDataBufferSizeV2(old) == 0);
    for (int i = 0; i < 200; i++) {
        check_holds(fresh[i], bytes, (size_t)i + 2);
        ASSERT_OK(aclDestroyDataBuffer(fresh[i]));
    }
}

static void create_destroy_round(int live)
{
    static aclDataBuffer *bufs[1000];
    for (int i = 0; i < live; i++)
        bufs[i] = aclCreateDataBuffer(&bufs[i], (size_t)i);
    for (int i = 0; i < live; i++) {
        check_holds(bufs[i], &bufs[i], (size_t)i);
        ASSERT_OK(aclDestroyDataBuffer(bufs[i]));
    }
}

/* A buffer costs at least 64 bytes; 100,000 of them kept would be 6 MB.
 * (Sanitizer allocators report no figures: LSan checks there.) */
TEST(databuf, creating_and_destroying_many_keeps_no_memory)
{
    size_t before;
    create_destroy_round(1000); /* warm-up: the slots the later rounds reuse */
    before = mallinfo2().uordblks;
    for (int i = 0; i < 100000; i++) {
        aclDataBuffer *b = aclCreateDataBuffer(&before, (size_t)i);
        ASSERT(b != NULL);
        ASSERT_OK(aclDestroyDataBuffer(b));
    }
    for (int r = 0; r < 50; r++)
        create_destroy_round(1000);
    ASSERT(mallinfo2().uordblks < before + 64 * 1024);
}

struct worker {
    pthread_t th;
    _Atomic int bad;
};

static void *worker_main(void *p)
{
    struct worker *w = p;
    for (int i = 0; i < 20000; i++) {
        aclDataBuffer *b = aclCreateDataBuffer(w, (size_t)i);
        if (b == NULL || aclGetDataBufferAddr(b) != w || aclGetDataBufferSizeV2(b) != (size_t)i ||
            aclUpdateDataBuffer(b, &w->bad, 1) != ACL_SUCCESS || aclGetDataBufferAddr(b) != &w->bad ||
            aclDestroyDataBuffer(b) != ACL_SUCCESS || aclDestroyDataBuffer(b) != ACL_ERROR_INVALID_PARAM)
            atomic_fetch_add(&w->bad, 1);
    }
    return NULL;
}

TEST(databuf, threads_create_and_destroy_their_own_buffers_at_once)
{
    struct worker w[4];
    for (int i = 0; i < 4; i++) {
        atomic_init(&w[i].bad, 0);
        ASSERT_EQ(pthread_create(&w[i].th, NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        ASSERT_EQ(pthread_join(w[i].th, NULL), 0);
        ASSERT_EQ(atomic_load(&w[i].bad), 0);
    }
}

/* data_buffer.cpp aclDataTypeSizeImpl, value by value. */
TEST(databuf, data_type_size_follows_the_reference_table)
{
    static const struct {
        int type;
        size_t size;
    } rows[] = {
        {ACL_DT_UNDEFINED, 0},  {ACL_STRING, 0},          {ACL_UINT1, 1},          {ACL_INT4, 1},
        {ACL_BOOL, 1},          {ACL_INT8, 1},            {ACL_UINT8, 1},          {ACL_HIFLOAT8, 1},
        {ACL_FLOAT8_E5M2, 1},   {ACL_FLOAT8_E4M3FN, 1},   {ACL_FLOAT8_E8M0, 1},    {ACL_FLOAT16, 2},
        {ACL_INT16, 2},         {ACL_UINT16, 2},          {ACL_BF16, 2},           {ACL_FLOAT, 4},
        {ACL_INT32, 4},         {ACL_UINT32, 4},          {ACL_COMPLEX32, 4},      {ACL_COMPLEX128, 16},
        {ACL_INT64, 8},         {ACL_UINT64, 8},          {ACL_DOUBLE, 8},         {ACL_COMPLEX64, 8},
        /* Not in the reference's switch: its default, 8. */
        {ACL_FLOAT6_E3M2, 8},   {ACL_FLOAT6_E2M3, 8},     {ACL_FLOAT4_E2M1, 8},    {ACL_FLOAT4_E1M2, 8},
        {5, 8},                 {14, 8},                  {18, 8},                 {42, 8},
        {-2, 8},                {1000, 8},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (aclDataTypeSize((aclDataType)rows[i].type) != rows[i].size)
            test_fail(__FILE__, __LINE__, "aclDataTypeSize(%d) = %zu, want %zu", rows[i].type,
                      aclDataTypeSize((aclDataType)rows[i].type), rows[i].size);
}

/* Racing destroys of one buffer: exactly one succeeds, the others get
 * 100000, and the buffer's memory goes back once (a second recycle would
 * hand it to two later buffers). The window between a destroy's lookup and
 * its kill is short: without the destroyed flag this fails in about one
 * run of three. */
enum { RACERS = 4, RACE_ROUNDS = 2000 };
static aclDataBuffer *_Atomic race_buf;
static _Atomic int race_round, race_arrived, race_won;

static void *racer_main(void *p)
{
    (void)p;
    for (int r = 1; r <= RACE_ROUNDS; r++) {
        while (atomic_load(&race_round) < r) /* bounded: the main thread opens every round */
            sched_yield();
        if (aclDestroyDataBuffer(atomic_load(&race_buf)) == ACL_SUCCESS)
            atomic_fetch_add(&race_won, 1);
        atomic_fetch_add(&race_arrived, 1);
    }
    return NULL;
}

TEST(databuf, racing_destroys_of_one_buffer_end_it_once)
{
    pthread_t th[RACERS];
    static aclDataBuffer *later[2 * RACE_ROUNDS];
    for (int i = 0; i < RACERS; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, racer_main, NULL), 0);
    for (int r = 1; r <= RACE_ROUNDS; r++) {
        uint64_t end = t_now_ns() + T_SPIN_LIMIT_NS;
        atomic_store(&race_buf, aclCreateDataBuffer(NULL, (size_t)r));
        atomic_store(&race_arrived, 0);
        atomic_store(&race_round, r);
        while (atomic_load(&race_arrived) < RACERS && t_now_ns() < end)
            sched_yield();
        ASSERT_EQ(atomic_load(&race_arrived), RACERS);
        ASSERT_EQ(atomic_load(&race_won), r);
    }
    for (int i = 0; i < RACERS; i++)
        ASSERT_EQ(pthread_join(th[i], NULL), 0);
    /* Every later buffer is its own: none shares memory with another. */
    for (int i = 0; i < 2 * RACE_ROUNDS; i++)
        later[i] = aclCreateDataBuffer(&later[i], (size_t)i);
    for (int i = 0; i < 2 * RACE_ROUNDS; i++) {
        check_holds(later[i], &later[i], (size_t)i);
        ASSERT_OK(aclDestroyDataBuffer(later[i]));
    }
}
