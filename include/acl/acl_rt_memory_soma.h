/*
 * acl/acl_rt_memory_soma.h - stream-ordered memory pools, as provided by
 * aclcpu.
 *
 * A pool hands out device memory in stream order: aclrtMemPoolMallocAsync
 * returns at once with memory usable by work issued after it on the
 * stream, and aclrtMemPoolFreeAsync gives a block back when the work
 * before it on its stream has run. A block freed on a stream may be
 * handed out again at once for later work on that stream, and to other
 * streams only once the free has run. Prototypes follow CANN's
 * acl_rt_memory_soma.h; include it after (or instead of) acl/acl.h.
 */
#ifndef ACLCPU_ACL_ACL_RT_MEMORY_SOMA_H_
#define ACLCPU_ACL_ACL_RT_MEMORY_SOMA_H_

#include <stddef.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclrtMemAllocationType and aclrtMemHandleType come from acl_rt.h (the
 * virtual-memory section), as in CANN. */

typedef void *aclrtMemPool;

typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

typedef struct {
    aclrtMemAllocationType allocType; /* ACL_MEM_ALLOCATION_TYPE_PINNED */
    aclrtMemHandleType handleType;
    aclrtMemLocation location;        /* ACL_MEM_LOCATION_TYPE_DEVICE and the device id */
    size_t maxSize;                   /* 0: the device's memory; rounded up to 2 MiB */
    unsigned char reserved[32];
} aclrtMemPoolProps;

/** Creates a pool of device memory on poolProps->location.id. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool, const aclrtMemPoolProps *poolProps);

/** Destroys a pool none of whose blocks is in use (else 507000). */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

/**
 * Sets an attribute from *value: the three REUSE attributes (int, 0 or
 * 1), RELEASE_THRESHOLD (uint64_t) and the two HIGH marks (uint64_t, 0
 * only: resets them). The CURRENT ones are read-only (107000).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

/** Reads an attribute into *value (int for REUSE, uint64_t for the others). */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void *value);

/** Takes size bytes (rounded up to 2 MiB) from the pool for work on stream; size 0 does nothing. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream);

/** Gives ptr back to its pool once the work issued before on stream has run. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr, aclrtStream stream);

/** Releases free blocks until the pool holds at most minBytesToKeep bytes (or what is in use). */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_RT_MEMORY_SOMA_H_ */
