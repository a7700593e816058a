/*
 * api_buf.c - shared buffers (aclrtAllocBuf ... aclrtCopyBufRef): the ACL
 * layer's argument checks (memory.cpp in the reference), in its order, then
 * one call into core/mbuf.c, which owns the buffers, their data blocks and
 * chains and checks what the driver checks.
 *
 * The user-data calls keep the reference's quirks: offset + size is
 * checked against 96 before anything else, with the sum taken modulo the
 * size type as the reference takes it; the copy is then the C library's
 * bounded copy, which refuses (500001) a read of 0 bytes, a write of 0
 * bytes at offset 96, and the huge sizes whose sum wrapped (the reference
 * may write out of bounds there; aclcpu refuses before touching memory).
 *
 * Threads: any. Locks: none here (mbuf_lock inside core/mbuf.c).
 */
#include "../core/mbuf.h"
#include "api_int.h"

ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size)
{
    const char *fn = "aclrtAllocBuf";

    if (buf == NULL)
        return null_arg(fn, "buf");
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0; it must be greater than 0", fn);
    return mbuf_alloc(fn, size, buf);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf)
{
    if (buf == NULL)
        return null_arg("aclrtFreeBuf", "buf");
    return mbuf_free("aclrtFreeBuf", buf);
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size)
{
    const char *fn = "aclrtGetBufData";

    if (buf == NULL || dataPtr == NULL || size == NULL)
        return null_arg(fn, buf == NULL ? "buf" : dataPtr == NULL ? "dataPtr" : "size");
    return mbuf_data(fn, buf, dataPtr, size);
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len)
{
    const char *fn = "aclrtGetBufDataLen";

    if (buf == NULL || len == NULL)
        return null_arg(fn, buf == NULL ? "buf" : "len");
    return mbuf_get_len(fn, buf, len);
}

ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len)
{
    if (buf == NULL)
        return null_arg("aclrtSetBufDataLen", "buf");
    return mbuf_set_len("aclrtSetBufDataLen", buf, len);
}

/* The checks both user-data calls share, then the copy (to_user: Get). */
static aclError user_data(const char *fn, aclrtMbuf buf, void *dataPtr, size_t size, size_t offset, bool to_user)
{
    size_t sum = size + offset; /* modulo SIZE_MAX + 1, as the reference adds them */
    size_t room;
    aclError err;

    if (sum > MBUF_USER_DATA_SIZE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: arguments 'size' (%zu) and 'offset' (%zu) add up to more than "
                        "the %u bytes of the user-data area", fn, size, offset, MBUF_USER_DATA_SIZE);
    if (buf == NULL || dataPtr == NULL)
        return null_arg(fn, buf == NULL ? "buf" : "dataPtr");
    /* The bounded copy's room: the caller's size when reading, what is
     * left after offset when writing; a wrapped sum leaves none. */
    room = sum < size || sum < offset ? 0 : to_user ? size : MBUF_USER_DATA_SIZE - offset;
    if (room == 0 || size > room) {
        size_t len;
        if ((err = mbuf_get_len(fn, buf, &len)) != ACL_SUCCESS) /* the buffer is looked up first */
            return err;
        return acl_fail(ACL_ERROR_FAILURE, "%s: the copy of %zu bytes at offset %zu of the user-data area is refused "
                        "(no room: %s)", fn, size, offset,
                        sum < size || sum < offset ? "'size' + 'offset' overflows" :
                        to_user ? "'size' is 0" : "'offset' is 96, the end of the area");
    }
    return mbuf_user_data(fn, buf, dataPtr, size, offset, to_user);
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset)
{
    return user_data("aclrtGetBufUserData", buf, dataPtr, size, offset, true);
}

ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset)
{
    return user_data("aclrtSetBufUserData", buf, (void *)(uintptr_t)dataPtr, size, offset, false);
}

ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf)
{
    const char *fn = "aclrtCopyBufRef";

    if (buf == NULL || newBuf == NULL)
        return null_arg(fn, buf == NULL ? "buf" : "newBuf");
    return mbuf_copy_ref(fn, buf, newBuf);
}

ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf)
{
    const char *fn = "aclrtAppendBufChain";

    if (headBuf == NULL || buf == NULL)
        return null_arg(fn, headBuf == NULL ? "headBuf" : "buf");
    return mbuf_chain_append(fn, headBuf, buf);
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num)
{
    const char *fn = "aclrtGetBufChainNum";

    if (headBuf == NULL || num == NULL)
        return null_arg(fn, headBuf == NULL ? "headBuf" : "num");
    return mbuf_chain_num(fn, headBuf, num);
}

ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf)
{
    const char *fn = "aclrtGetBufFromChain";

    if (headBuf == NULL || buf == NULL)
        return null_arg(fn, headBuf == NULL ? "headBuf" : "buf");
    return mbuf_chain_get(fn, headBuf, index, buf);
}
