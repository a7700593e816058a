/*
 * api_allocator.c - custom allocators registered per stream
 * (acl/acl_rt_allocator.h).
 *
 * DESIGN: the reference's checks in its order (allocator.cpp: NULL
 * arguments, then the description's mandatory callbacks), plus two it
 * cannot make because its handles are pointers: a description that was
 * destroyed or never created, and a stream that is not live, are refused
 * (100000 and 107017) instead of being followed. The records live in
 * core/allocator.c; a stream's registration ends with the stream.
 *
 * Threads: any host thread. Locks: none here (allocator_lock in core).
 */
#include "api_int.h"
#include "../core/allocator.h"

static aclError stale_desc(const char *fn, const void *h)
{
    return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'allocatorDesc' (%p) is not a live allocator description: "
                    "it was destroyed, or never made by aclrtAllocatorCreateDesc", fn, h);
}

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
    aclrtAllocatorDesc h = allocdesc_create();
    if (h == NULL)
        (void)acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtAllocatorCreateDesc: out of memory or of descriptions "
                       "(4096 may be live at once)");
    return h;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
    const char *fn = "aclrtAllocatorDestroyDesc";
    if (allocatorDesc == NULL)
        return null_arg(fn, "allocatorDesc");
    return allocdesc_destroy(allocatorDesc) ? ACL_SUCCESS : stale_desc(fn, allocatorDesc);
}

/* The setters: both arguments checked, then one field of the description set. */
static aclError set_field(const char *fn, aclrtAllocatorDesc h, const char *arg, bool missing,
                          enum allocdesc_field field, const struct allocator_desc *from)
{
    if (h == NULL)
        return null_arg(fn, "allocatorDesc");
    if (missing)
        return null_arg(fn, arg);
    return allocdesc_set(h, field, from) ? ACL_SUCCESS : stale_desc(fn, h);
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator)
{
    return set_field("aclrtAllocatorSetObjToDesc", allocatorDesc, "allocator", allocator == NULL, AD_OBJ,
                     &(struct allocator_desc){.obj = allocator});
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func)
{
    return set_field("aclrtAllocatorSetAllocFuncToDesc", allocatorDesc, "func", func == NULL, AD_ALLOC,
                     &(struct allocator_desc){.alloc = func});
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func)
{
    return set_field("aclrtAllocatorSetFreeFuncToDesc", allocatorDesc, "func", func == NULL, AD_FREE,
                     &(struct allocator_desc){.free = func});
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func)
{
    return set_field("aclrtAllocatorSetAllocAdviseFuncToDesc", allocatorDesc, "func", func == NULL, AD_ADVISE,
                     &(struct allocator_desc){.advise = func});
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func)
{
    return set_field("aclrtAllocatorSetGetAddrFromBlockFuncToDesc", allocatorDesc, "func", func == NULL,
                     AD_GET_ADDR, &(struct allocator_desc){.get_addr = func});
}

/* The mandatory parts of a description being registered. */
static aclError check_complete(const char *fn, const struct allocator_desc *d)
{
    if (d->obj == NULL)
        return null_arg(fn, "allocatorDesc->obj");
    if (d->alloc == NULL)
        return null_arg(fn, "allocatorDesc->allocFunc");
    if (d->free == NULL)
        return null_arg(fn, "allocatorDesc->freeFunc");
    if (d->get_addr == NULL)
        return null_arg(fn, "allocatorDesc->getAddrFromBlockFunc");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc)
{
    const char *fn = "aclrtAllocatorRegister";
    struct allocator_desc d;
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return null_arg(fn, "stream");
    if (allocatorDesc == NULL)
        return null_arg(fn, "allocatorDesc");
    if (!allocdesc_read(allocatorDesc, &d))
        return stale_desc(fn, allocatorDesc);
    if ((err = check_complete(fn, &d)) != ACL_SUCCESS)
        return err;
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if ((err = allocator_register(s, allocatorDesc, &d)) != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory for the registration", fn);
    /* A destroy that raced the resolve: its unregister may have run before ours. */
    if (!obj_same(&s->hdr, stream)) {
        allocator_unregister(s);
        return stream_stale(fn, stream);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
    const char *fn = "aclrtAllocatorGetByStream";
    struct allocator_desc d;
    struct stream *s;
    const void *h;
    aclError err;

    if (allocatorDesc == NULL)
        return null_arg(fn, "allocatorDesc");
    if (stream == NULL)
        return null_arg(fn, "stream");
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    if (!allocator_lookup(s, &h, &d))
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'stream' (%p): the stream is not registered with "
                        "any allocator", fn, stream);
    *allocatorDesc = (aclrtAllocatorDesc)h;
    if (allocator != NULL)
        *allocator = d.obj;
    if (allocFunc != NULL)
        *allocFunc = d.alloc;
    if (freeFunc != NULL)
        *freeFunc = d.free;
    if (allocAdviseFunc != NULL)
        *allocAdviseFunc = d.advise;
    if (getAddrFromBlockFunc != NULL)
        *getAddrFromBlockFunc = d.get_addr;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream)
{
    const char *fn = "aclrtAllocatorUnregister";
    struct stream *s;
    aclError err;

    if (stream == NULL)
        return null_arg(fn, "stream");
    if ((err = stream_resolve(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    allocator_unregister(s); /* none registered: nothing to do, as in the reference */
    return ACL_SUCCESS;
}
