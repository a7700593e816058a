/*
 * test_buf.c - shared buffers (aclrtAllocBuf ... aclrtCopyBufRef; memory.cpp
 * in the reference's ACL layer, the driver's mbuf pool below it): the ACL
 * layer's checks in order, the user-data area's 96-byte rule and its quirks,
 * data lengths, reference copies sharing a data area, chains and their
 * limit, and freed buffers refused (107017), never read. None of the calls
 * needs aclInit: the suite runs without t_setup, as the reference allows.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* aclGetRecentErrMsg hands a message out once: kept here for several checks. */
static char last[512];
static const char *recent(void)
{
    const char *m = aclGetRecentErrMsg();
    snprintf(last, sizeof(last), "%s", m != NULL ? m : "(null)");
    return last;
}

#define KIB 1024u

static aclrtMbuf alloc_buf(size_t size)
{
    aclrtMbuf b = NULL;
    ASSERT_OK(aclrtAllocBuf(&b, size));
    ASSERT(b != NULL);
    return b;
}

/* ---- aclrtAllocBuf / aclrtFreeBuf ------------------------------------------------------- */

TEST(buf, alloc_checks_buf_then_size_positive)
{
    aclrtMbuf b = NULL;
    ASSERT_RC(aclrtAllocBuf(NULL, 0), ACL_ERROR_INVALID_PARAM); /* both bad: buf is named */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocBuf: argument 'buf' is NULL");
    ASSERT_RC(aclrtAllocBuf(&b, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocBuf: argument 'size' is 0");
    ASSERT(b == NULL);
    b = alloc_buf(1); /* the first size accepted */
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, alloc_above_4_gib_is_107000)
{
#if SIZE_MAX > UINT32_MAX
    aclrtMbuf b = NULL;
    /* The first size refused (4 GiB itself: the next test). */
    ASSERT_RC(aclrtAllocBuf(&b, (size_t)4 * 1024 * 1024 * 1024 + 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAllocBuf: argument 'size' (4294967297) is above 4 GiB");
    ASSERT_RC(aclrtAllocBuf(&b, SIZE_MAX), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT(b == NULL);
#endif
}

/* 4 GiB itself is the largest buffer, not the first refused (api_error.cc
 * MbufAlloc). calloc maps that much lazily, so the test costs no memory;
 * valgrind's calloc would write every page of it, and so does not run it. */
TEST(buf, alloc_of_exactly_4_gib_passes_the_size_check)
{
#if SIZE_MAX > UINT32_MAX
    aclrtMbuf b = NULL;
    aclError rc;
    if (t_under_valgrind())
        SKIP("valgrind's calloc would fill 4 GiB");
    rc = aclrtAllocBuf(&b, (size_t)4 * 1024 * 1024 * 1024);
    /* Either the buffer, or the host is out of memory (207001): never 107000. */
    ASSERT(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_MEMORY_ALLOCATION);
    if (rc == ACL_SUCCESS) {
        size_t size = 0;
        void *data = NULL;
        ASSERT_OK(aclrtGetBufData(b, &data, &size));
        ASSERT_EQ(size, (size_t)4 * 1024 * 1024 * 1024);
        ASSERT_OK(aclrtFreeBuf(b));
    }
#endif
}

TEST(buf, alloc_needs_no_acl_init_and_gives_a_zeroed_area_of_size)
{
    aclrtMbuf b = alloc_buf(3 * KIB);
    void *data = NULL;
    size_t size = 0, len = 1;
    unsigned char user[96], zero[96] = {0};

    ASSERT_OK(aclrtGetBufData(b, &data, &size));
    ASSERT(data != NULL);
    ASSERT_EQ(size, 3 * KIB);
    for (size_t i = 0; i < size; i++)
        ASSERT_EQ(((unsigned char *)data)[i], 0);
    memset(data, 0x5a, size); /* the whole area is the caller's */
    ASSERT_OK(aclrtGetBufDataLen(b, &len));
    ASSERT_EQ(len, 0); /* nothing valid until aclrtSetBufDataLen */
    ASSERT_OK(aclrtGetBufUserData(b, user, sizeof(user), 0));
    ASSERT(memcmp(user, zero, sizeof(user)) == 0);
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, free_of_null_is_100000)
{
    ASSERT_RC(aclrtFreeBuf(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtFreeBuf: argument 'buf' is NULL");
}

TEST(buf, freed_buffer_is_107017_for_every_call)
{
    aclrtMbuf b = alloc_buf(64), other = alloc_buf(64), out = NULL;
    void *data;
    size_t size, len;
    uint32_t num;
    char u[4] = "abc";

    ASSERT_OK(aclrtFreeBuf(b));
    ASSERT_RC(aclrtFreeBuf(b), ACL_ERROR_RT_INVALID_HANDLE); /* the second free */
    ASSERT_STR_CONTAINS(recent(), "aclrtFreeBuf: argument 'buf' (");
    ASSERT_STR_CONTAINS(last, "is not a live shared buffer");
    ASSERT_RC(aclrtGetBufData(b, &data, &size), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetBufDataLen(b, &len), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetBufDataLen(b, 1), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtSetBufUserData(b, u, sizeof(u), 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetBufUserData(b, u, sizeof(u), 0), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtCopyBufRef(b, &out), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT(out == NULL);
    ASSERT_RC(aclrtGetBufChainNum(b, &num), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtGetBufFromChain(b, 0, &out), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtAppendBufChain(b, other), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "argument 'headBuf'");
    ASSERT_RC(aclrtAppendBufChain(other, b), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAppendBufChain: argument 'buf'");
    ASSERT_OK(aclrtGetBufChainNum(other, &num));
    ASSERT_EQ(num, 1); /* the refused append left other alone */
    ASSERT_OK(aclrtFreeBuf(other));
}

TEST(buf, forged_handle_is_107017_never_read)
{
    static char not_a_buffer[256];
    size_t len;
    ASSERT_RC(aclrtGetBufDataLen((aclrtMbuf)not_a_buffer, &len), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtFreeBuf((aclrtMbuf)(uintptr_t)0x1234), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST(buf, freed_slot_reused_does_not_revive_the_old_handle)
{
    aclrtMbuf old[70], fresh[80];
    size_t len;
    /* More frees than the handle table holds back, so the allocations
     * after them reuse the freed headers' memory. */
    for (int i = 0; i < 70; i++)
        old[i] = alloc_buf(8);
    for (int i = 0; i < 70; i++)
        ASSERT_OK(aclrtFreeBuf(old[i]));
    for (int i = 0; i < 80; i++)
        fresh[i] = alloc_buf(8);
    for (int i = 0; i < 70; i++)
        ASSERT_RC(aclrtGetBufDataLen(old[i], &len), ACL_ERROR_RT_INVALID_HANDLE);
    for (int i = 0; i < 80; i++) {
        for (int j = 0; j < 70; j++)
            ASSERT(fresh[i] != old[j]);
        ASSERT_OK(aclrtFreeBuf(fresh[i]));
    }
}

/* ---- data and its valid length ------------------------------------------------------------ */

TEST(buf, get_data_checks_buf_dataptr_size_in_order)
{
    aclrtMbuf b = alloc_buf(16);
    void *data;
    size_t size;
    ASSERT_RC(aclrtGetBufData(NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufData: argument 'buf' is NULL");
    ASSERT_RC(aclrtGetBufData(b, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufData: argument 'dataPtr' is NULL");
    ASSERT_RC(aclrtGetBufData(b, &data, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufData: argument 'size' is NULL");
    ASSERT_OK(aclrtGetBufData(b, &data, &size));
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, data_len_getter_checks_buf_then_len)
{
    aclrtMbuf b = alloc_buf(16);
    ASSERT_RC(aclrtGetBufDataLen(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufDataLen: argument 'buf' is NULL");
    ASSERT_RC(aclrtGetBufDataLen(b, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufDataLen: argument 'len' is NULL");
    ASSERT_RC(aclrtSetBufDataLen(NULL, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetBufDataLen: argument 'buf' is NULL");
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, set_data_len_up_to_the_area_size_then_107000)
{
    aclrtMbuf b = alloc_buf(100);
    size_t len;
    ASSERT_OK(aclrtSetBufDataLen(b, 100)); /* the last accepted */
    ASSERT_OK(aclrtGetBufDataLen(b, &len));
    ASSERT_EQ(len, 100);
    ASSERT_RC(aclrtSetBufDataLen(b, 101), ACL_ERROR_RT_PARAM_INVALID); /* the first refused */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetBufDataLen: argument 'len' (101) is above the buffer's data "
                                              "area (100 bytes");
    ASSERT_OK(aclrtGetBufDataLen(b, &len));
    ASSERT_EQ(len, 100); /* unchanged */
    ASSERT_OK(aclrtSetBufDataLen(b, 0));
    ASSERT_OK(aclrtGetBufDataLen(b, &len));
    ASSERT_EQ(len, 0);
    ASSERT_OK(aclrtFreeBuf(b));
}

/* ---- the user-data area ---------------------------------------------------------------------- */

TEST(buf, user_data_sum_above_96_is_100000_before_null_checks)
{
    aclrtMbuf b = alloc_buf(8);
    char u[97];
    ASSERT_RC(aclrtSetBufUserData(NULL, NULL, 90, 7), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetBufUserData: arguments 'size' (90) and 'offset' (7) add up to "
                                              "more than the 96 bytes");
    ASSERT_RC(aclrtGetBufUserData(NULL, NULL, 97, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufUserData: arguments 'size' (97)");
    ASSERT_RC(aclrtGetBufUserData(b, u, 0, 97), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtSetBufUserData(b, u, 96, 0)); /* the last accepted sum */
    ASSERT_OK(aclrtGetBufUserData(b, u, 90, 6));
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, user_data_checks_buf_then_dataptr)
{
    aclrtMbuf b = alloc_buf(8);
    ASSERT_RC(aclrtSetBufUserData(NULL, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetBufUserData: argument 'buf' is NULL");
    ASSERT_RC(aclrtSetBufUserData(b, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtSetBufUserData: argument 'dataPtr' is NULL");
    ASSERT_RC(aclrtGetBufUserData(NULL, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufUserData: argument 'buf' is NULL");
    ASSERT_RC(aclrtGetBufUserData(b, NULL, 4, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufUserData: argument 'dataPtr' is NULL");
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, user_data_round_trips_at_offsets)
{
    aclrtMbuf b = alloc_buf(8);
    unsigned char in[96], out[96];
    for (int i = 0; i < 96; i++)
        in[i] = (unsigned char)(i + 1);
    ASSERT_OK(aclrtSetBufUserData(b, in, 10, 86)); /* the area's last 10 bytes */
    ASSERT_OK(aclrtSetBufUserData(b, in + 50, 5, 0));
    memset(out, 0xee, sizeof(out));
    ASSERT_OK(aclrtGetBufUserData(b, out, 96, 0));
    ASSERT(memcmp(out, in + 50, 5) == 0);
    for (int i = 5; i < 86; i++)
        ASSERT_EQ(out[i], 0);
    ASSERT(memcmp(out + 86, in, 10) == 0);
    ASSERT_OK(aclrtGetBufUserData(b, out, 3, 87));
    ASSERT(memcmp(out, in + 1, 3) == 0);
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, user_data_read_of_zero_bytes_is_500001)
{
    aclrtMbuf b = alloc_buf(8);
    char u[1];
    ASSERT_RC(aclrtGetBufUserData(b, u, 0, 0), ACL_ERROR_FAILURE);
    ASSERT_STR_CONTAINS(recent(), "aclrtGetBufUserData: the copy of 0 bytes at offset 0");
    ASSERT_STR_CONTAINS(last, "'size' is 0");
    ASSERT_OK(aclrtSetBufUserData(b, u, 0, 95)); /* a write of 0 bytes inside the area is accepted */
    ASSERT_RC(aclrtSetBufUserData(b, u, 0, 96), ACL_ERROR_FAILURE); /* at its end there is no room */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'offset' is 96");
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, user_data_wrapped_sum_is_500001_after_the_buffer_check)
{
    aclrtMbuf b = alloc_buf(8);
    unsigned char u[8] = {0}, all[96], zero[96] = {0};
    /* size + offset wraps to 1: the first check passes, the copy is refused. */
    ASSERT_RC(aclrtSetBufUserData(b, u, 2, SIZE_MAX), ACL_ERROR_FAILURE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "overflows");
    ASSERT_RC(aclrtGetBufUserData(b, u, SIZE_MAX, 2), ACL_ERROR_FAILURE);
    ASSERT_OK(aclrtGetBufUserData(b, all, 96, 0));
    ASSERT(memcmp(all, zero, sizeof(all)) == 0); /* nothing was written */
    ASSERT_OK(aclrtFreeBuf(b));
    ASSERT_RC(aclrtSetBufUserData(b, u, 2, SIZE_MAX), ACL_ERROR_RT_INVALID_HANDLE); /* the buffer first */
}

/* ---- reference copies ------------------------------------------------------------------------ */

TEST(buf, copy_ref_checks_buf_then_newbuf)
{
    aclrtMbuf b = alloc_buf(8);
    ASSERT_RC(aclrtCopyBufRef(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCopyBufRef: argument 'buf' is NULL");
    ASSERT_RC(aclrtCopyBufRef(b, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtCopyBufRef: argument 'newBuf' is NULL");
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, copy_ref_shares_the_data_and_copies_len_and_user_data)
{
    aclrtMbuf b = alloc_buf(256), c = NULL;
    void *d1, *d2;
    size_t s1, s2, len;
    char u[8] = "header", got[8];

    ASSERT_OK(aclrtSetBufDataLen(b, 200));
    ASSERT_OK(aclrtSetBufUserData(b, u, sizeof(u), 10));
    ASSERT_OK(aclrtCopyBufRef(b, &c));
    ASSERT(c != NULL && c != b);
    ASSERT_OK(aclrtGetBufData(b, &d1, &s1));
    ASSERT_OK(aclrtGetBufData(c, &d2, &s2));
    ASSERT(d1 == d2);
    ASSERT_EQ(s1, s2);
    ASSERT_OK(aclrtGetBufDataLen(c, &len));
    ASSERT_EQ(len, 200);
    ASSERT_OK(aclrtGetBufUserData(c, got, sizeof(got), 10));
    ASSERT(memcmp(got, u, sizeof(u)) == 0);
    /* The headers are separate: a length or user data set on one stays there. */
    ASSERT_OK(aclrtSetBufDataLen(c, 7));
    ASSERT_OK(aclrtSetBufUserData(c, "XY", 2, 10));
    ASSERT_OK(aclrtGetBufDataLen(b, &len));
    ASSERT_EQ(len, 200);
    ASSERT_OK(aclrtGetBufUserData(b, got, sizeof(got), 10));
    ASSERT(memcmp(got, u, sizeof(u)) == 0);
    /* The data is one: a write through one is seen through the other. */
    memset(d1, 0x33, s1);
    ASSERT_EQ(((unsigned char *)d2)[255], 0x33);
    ASSERT_OK(aclrtFreeBuf(b));
    ASSERT_OK(aclrtFreeBuf(c));
}

TEST(buf, data_outlives_the_first_header_until_the_last_reference)
{
    aclrtMbuf b = alloc_buf(64), c1 = NULL, c2 = NULL;
    void *d, *d2;
    size_t s;
    ASSERT_OK(aclrtGetBufData(b, &d, &s));
    ASSERT_OK(aclrtCopyBufRef(b, &c1));
    ASSERT_OK(aclrtCopyBufRef(c1, &c2)); /* a copy of a copy: the same data */
    ASSERT_OK(aclrtFreeBuf(b));
    ASSERT_OK(aclrtGetBufData(c2, &d2, &s));
    ASSERT(d2 == d);
    memset(d2, 1, s); /* still the caller's memory (ASan would flag a freed area) */
    ASSERT_OK(aclrtFreeBuf(c2));
    ASSERT_OK(aclrtGetBufData(c1, &d2, &s));
    memset(d2, 2, s);
    ASSERT_OK(aclrtFreeBuf(c1)); /* the last reference frees the data */
    ASSERT_RC(aclrtGetBufData(c1, &d2, &s), ACL_ERROR_RT_INVALID_HANDLE);
}

/* ---- chains -------------------------------------------------------------------------------- */

TEST(buf, chain_calls_check_their_pointers_in_order)
{
    aclrtMbuf b = alloc_buf(8), out;
    uint32_t num;
    ASSERT_RC(aclrtAppendBufChain(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAppendBufChain: argument 'headBuf' is NULL");
    ASSERT_RC(aclrtAppendBufChain(b, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtAppendBufChain: argument 'buf' is NULL");
    ASSERT_RC(aclrtGetBufChainNum(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufChainNum: argument 'headBuf' is NULL");
    ASSERT_RC(aclrtGetBufChainNum(b, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufChainNum: argument 'num' is NULL");
    ASSERT_RC(aclrtGetBufFromChain(NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufFromChain: argument 'headBuf' is NULL");
    ASSERT_RC(aclrtGetBufFromChain(b, 0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufFromChain: argument 'buf' is NULL");
    ASSERT_OK(aclrtGetBufChainNum(b, &num));
    ASSERT_EQ(num, 1); /* a lone buffer is a chain of one */
    ASSERT_OK(aclrtGetBufFromChain(b, 0, &out));
    ASSERT(out == b);
    ASSERT_OK(aclrtFreeBuf(b));
}

TEST(buf, chain_appends_in_order_and_index_past_the_end_is_107000)
{
    aclrtMbuf h = alloc_buf(8), m[3], out;
    uint32_t num;
    for (int i = 0; i < 3; i++) {
        m[i] = alloc_buf(16 * (size_t)(i + 1));
        ASSERT_OK(aclrtAppendBufChain(h, m[i]));
    }
    ASSERT_OK(aclrtGetBufChainNum(h, &num));
    ASSERT_EQ(num, 4);
    ASSERT_OK(aclrtGetBufFromChain(h, 0, &out));
    ASSERT(out == h);
    for (uint32_t i = 1; i < 4; i++) {
        ASSERT_OK(aclrtGetBufFromChain(h, i, &out)); /* index 3: the last accepted */
        ASSERT(out == m[i - 1]);
    }
    out = NULL;
    ASSERT_RC(aclrtGetBufFromChain(h, 4, &out), ACL_ERROR_RT_PARAM_INVALID); /* the first refused */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufFromChain: argument 'index' (4) is not below the chain's 4");
    ASSERT(out == NULL);
    ASSERT_RC(aclrtGetBufFromChain(h, UINT32_MAX, &out), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFreeBuf(h)); /* frees the chain */
}

TEST(buf, chain_holds_128_and_the_129th_is_207012)
{
    aclrtMbuf h = alloc_buf(1), extra = alloc_buf(1), out;
    uint32_t num;
    for (int i = 1; i < 128; i++)
        ASSERT_OK(aclrtAppendBufChain(h, alloc_buf(1)));
    ASSERT_OK(aclrtGetBufChainNum(h, &num));
    ASSERT_EQ(num, 128); /* the last accepted */
    ASSERT_RC(aclrtAppendBufChain(h, extra), ACL_ERROR_RT_OVER_LIMIT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "already holds 128 buffers");
    ASSERT_OK(aclrtGetBufChainNum(extra, &num));
    ASSERT_EQ(num, 1); /* still alone: the caller frees it */
    ASSERT_OK(aclrtGetBufFromChain(h, 127, &out));
    ASSERT_OK(aclrtFreeBuf(h));
    ASSERT_RC(aclrtGetBufDataLen(out, &(size_t){0}), ACL_ERROR_RT_INVALID_HANDLE); /* went with the chain */
    ASSERT_OK(aclrtFreeBuf(extra));
}

TEST(buf, append_refuses_self_members_and_chains)
{
    aclrtMbuf h = alloc_buf(8), h2 = alloc_buf(8), m = alloc_buf(8), m2 = alloc_buf(8), lone = alloc_buf(8);
    uint32_t num;
    ASSERT_RC(aclrtAppendBufChain(h, h), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "are the same buffer");
    ASSERT_OK(aclrtAppendBufChain(h, m));
    ASSERT_RC(aclrtAppendBufChain(h, m), ACL_ERROR_RT_PARAM_INVALID); /* the second append */
    ASSERT_STR_CONTAINS(recent(), "aclrtAppendBufChain: argument 'buf' (");
    ASSERT_STR_CONTAINS(last, "is already appended to the chain headed by");
    ASSERT_RC(aclrtAppendBufChain(h2, m), ACL_ERROR_RT_PARAM_INVALID); /* into another chain */
    ASSERT_RC(aclrtAppendBufChain(m, lone), ACL_ERROR_RT_PARAM_INVALID); /* a member as head */
    ASSERT_STR_CONTAINS(recent(), "argument 'headBuf' (");
    ASSERT_STR_CONTAINS(last, "only a chain's first buffer heads it");
    ASSERT_OK(aclrtAppendBufChain(h2, m2));
    ASSERT_RC(aclrtAppendBufChain(h, h2), ACL_ERROR_RT_PARAM_INVALID); /* a chain of two */
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "heads a chain of 2 buffers");
    ASSERT_RC(aclrtAppendBufChain(m, h), ACL_ERROR_RT_PARAM_INVALID); /* a cycle, refused at its head */
    ASSERT_OK(aclrtGetBufChainNum(h, &num));
    ASSERT_EQ(num, 2);
    ASSERT_OK(aclrtFreeBuf(h));
    ASSERT_OK(aclrtFreeBuf(h2));
    ASSERT_OK(aclrtFreeBuf(lone));
}

TEST(buf, member_is_no_head_for_num_and_get)
{
    aclrtMbuf h = alloc_buf(8), m = alloc_buf(8), out;
    uint32_t num;
    ASSERT_OK(aclrtAppendBufChain(h, m));
    ASSERT_RC(aclrtGetBufChainNum(m, &num), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetBufChainNum: argument 'headBuf' (");
    ASSERT_RC(aclrtGetBufFromChain(m, 0, &out), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtFreeBuf(h));
}

TEST(buf, member_is_freed_with_its_head_never_alone)
{
    aclrtMbuf h = alloc_buf(8), m = alloc_buf(32);
    size_t len;
    void *d;
    size_t s;
    ASSERT_OK(aclrtAppendBufChain(h, m));
    ASSERT_RC(aclrtFreeBuf(m), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(recent(), "aclrtFreeBuf: argument 'buf' (");
    ASSERT_STR_CONTAINS(last, "freeing that head frees it");
    ASSERT_OK(aclrtGetBufData(m, &d, &s)); /* still whole, still usable */
    ASSERT_EQ(s, 32);
    memset(d, 9, s);
    ASSERT_OK(aclrtSetBufDataLen(m, 32));
    ASSERT_OK(aclrtFreeBuf(h));
    ASSERT_RC(aclrtGetBufDataLen(m, &len), ACL_ERROR_RT_INVALID_HANDLE);
    ASSERT_RC(aclrtFreeBuf(m), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST(buf, chained_copy_keeps_its_data_after_the_chain_is_freed)
{
    aclrtMbuf h = alloc_buf(8), m = alloc_buf(48), c = NULL;
    void *d, *dc;
    size_t s;
    uint32_t num;
    ASSERT_OK(aclrtAppendBufChain(h, m));
    ASSERT_OK(aclrtCopyBufRef(m, &c)); /* a lone buffer on the member's data */
    ASSERT_OK(aclrtGetBufChainNum(c, &num));
    ASSERT_EQ(num, 1);
    ASSERT_OK(aclrtGetBufData(m, &d, &s));
    ASSERT_OK(aclrtFreeBuf(h));
    ASSERT_OK(aclrtGetBufData(c, &dc, &s));
    ASSERT(dc == d);
    memset(dc, 7, s);
    ASSERT_OK(aclrtFreeBuf(c));
}

TEST(buf, copy_of_a_head_is_a_lone_buffer)
{
    aclrtMbuf h = alloc_buf(8), m = alloc_buf(8), c = NULL;
    uint32_t num;
    ASSERT_OK(aclrtAppendBufChain(h, m));
    ASSERT_OK(aclrtCopyBufRef(h, &c));
    ASSERT_OK(aclrtGetBufChainNum(c, &num));
    ASSERT_EQ(num, 1);
    ASSERT_OK(aclrtFreeBuf(h));
    ASSERT_OK(aclrtFreeBuf(c));
}

/* ---- threads ---------------------------------------------------------------------------------- */

struct worker {
    aclrtMbuf shared;
    int failures;
};

/* Each thread copies the shared buffer, chains copies under a head of its
 * own, reads and writes them, and frees the chain: the shared data area
 * outlives every copy, and no buffer of one thread is another's. */
static void *copy_chain_free(void *arg)
{
    struct worker *w = arg;
    for (int round = 0; round < 200; round++) {
        aclrtMbuf head = NULL, c = NULL;
        uint32_t num = 0;
        size_t len = 0;
        if (aclrtAllocBuf(&head, 16) != ACL_SUCCESS) {
            w->failures++;
            continue;
        }
        for (int i = 0; i < 4; i++) {
            if (aclrtCopyBufRef(w->shared, &c) != ACL_SUCCESS || aclrtSetBufDataLen(c, (size_t)i) != ACL_SUCCESS ||
                aclrtAppendBufChain(head, c) != ACL_SUCCESS)
                w->failures++;
        }
        if (aclrtGetBufChainNum(head, &num) != ACL_SUCCESS || num != 5)
            w->failures++;
        if (aclrtGetBufFromChain(head, 4, &c) != ACL_SUCCESS || aclrtGetBufDataLen(c, &len) != ACL_SUCCESS ||
            len != 3)
            w->failures++;
        if (aclrtFreeBuf(head) != ACL_SUCCESS)
            w->failures++;
    }
    return NULL;
}

TEST(buf, threads_copy_chain_and_free_at_once)
{
    pthread_t t[4];
    struct worker w[4];
    aclrtMbuf shared = alloc_buf(4096);
    void *d;
    size_t s;
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker){shared, 0};
        ASSERT(pthread_create(&t[i], NULL, copy_chain_free, &w[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        ASSERT(pthread_join(t[i], NULL) == 0);
        ASSERT_EQ(w[i].failures, 0);
    }
    ASSERT_OK(aclrtGetBufData(shared, &d, &s));
    memset(d, 1, s); /* still whole after 3200 copies came and went */
    ASSERT_OK(aclrtFreeBuf(shared));
}
