/*
 * api_databuf.c - aclDataBuffer (a caller's address and length, held for
 * the model and operator calls that take tensors) and aclDataTypeSize.
 *
 * DESIGN: a data buffer is a checked handle (core/handle.h, OBJ_DATABUF)
 * rather than a pointer, so NULL, a buffer already destroyed and a
 * pointer aclcpu never made are refused with 100000 (the one code the
 * reference's ACL layer has for these calls) instead of being read. The
 * reference checks nothing else: any address and any size are taken, and
 * none of the calls needs aclInit or a device. Destroyed buffers go back to
 * the handle table's free list, so creating and destroying keeps no memory.
 * Threads: any. Locks: the handle table's, inside obj_create/obj_recycle;
 * a buffer's fields are relaxed atomics (an update racing a read gives the
 * reader the old or the new field; the reference gives no more).
 */
#include "api_int.h"

struct data_buffer {
    struct obj_header hdr;
    _Atomic(void *) data;
    _Atomic size_t size;
    _Atomic bool destroyed; /* the first of two racing destroys wins */
};

/* The live buffer the handle names, or NULL after recording why (fn's
 * argument 'dataBuffer' is NULL, destroyed or not a data buffer). */
static struct data_buffer *buffer_resolve(const char *fn, const aclDataBuffer *dataBuffer)
{
    struct data_buffer *b;

    if (dataBuffer == NULL) {
        (void)null_arg(fn, "dataBuffer");
        return NULL;
    }
    b = (struct data_buffer *)obj_resolve(dataBuffer, OBJ_DATABUF);
    if (b == NULL)
        (void)acl_fail(ACL_ERROR_INVALID_PARAM,
                       "%s: argument 'dataBuffer' (%p) is not a live data buffer: it was destroyed, or not made by "
                       "aclCreateDataBuffer",
                       fn, (const void *)dataBuffer);
    return b;
}

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
    struct data_buffer *b;
    bool fresh;

    b = obj_create(OBJ_DATABUF, sizeof(*b), OBJ_CLEAR_ALL, &fresh);
    if (b == NULL) {
        (void)acl_fail(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer: out of memory (or of data buffer handles)");
        return NULL;
    }
    store_relaxed(&b->data, data);
    store_relaxed(&b->size, size);
    store_relaxed(&b->destroyed, false);
    obj_publish(&b->hdr); /* release: the fields are set before the handle resolves */
    return (aclDataBuffer *)obj_handle(&b->hdr);
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
    const char *fn = "aclDestroyDataBuffer";
    struct data_buffer *b = buffer_resolve(fn, dataBuffer);

    if (b == NULL)
        return ACL_ERROR_INVALID_PARAM;
    /* Relaxed: only which of two racing destroys wins matters; the handle
     * table orders the kill. */
    if (exchange_relaxed(&b->destroyed, true) || !obj_same(&b->hdr, dataBuffer))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'dataBuffer' (%p) is already destroyed", fn,
                        (const void *)dataBuffer);
    obj_kill(&b->hdr);
    obj_recycle(&b->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
    struct data_buffer *b = buffer_resolve("aclUpdateDataBuffer", dataBuffer);

    if (b == NULL)
        return ACL_ERROR_INVALID_PARAM;
    store_relaxed(&b->data, data);
    store_relaxed(&b->size, size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
    struct data_buffer *b = buffer_resolve("aclGetDataBufferAddr", dataBuffer);
    return b == NULL ? NULL : load_relaxed(&b->data);
}

ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
    struct data_buffer *b = buffer_resolve("aclGetDataBufferSize", dataBuffer);
    /* The reference keeps the low 32 bits of a larger size. */
    return b == NULL ? 0u : (uint32_t)load_relaxed(&b->size);
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
    struct data_buffer *b = buffer_resolve("aclGetDataBufferSizeV2", dataBuffer);
    return b == NULL ? 0u : load_relaxed(&b->size);
}

/* The reference's table (data_buffer.cpp aclDataTypeSizeImpl): note the
 * default, 8 bytes, which every type it does not list gets, the 6- and
 * 4-bit float types included. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType)
{
    switch ((int)dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
        return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
        return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
        return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
        return 4;
    case ACL_COMPLEX128:
        return 16;
    default:
        return 8;
    }
}
