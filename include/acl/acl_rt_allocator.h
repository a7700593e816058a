/*
 * acl/acl_rt_allocator.h - custom allocators registered per stream, as
 * provided by aclcpu.
 *
 * A program describes its own allocator (an object and four callbacks) in
 * an allocator description and registers a copy of it with a stream;
 * components that allocate for work on that stream ask the stream for it
 * (aclrtAllocatorGetByStream). Prototypes follow CANN's acl_rt_allocator.h,
 * which acl_rt.h includes. A registration ends with
 * aclrtAllocatorUnregister or with the stream.
 */
#ifndef ACLCPU_ACL_ACL_RT_ALLOCATOR_H_
#define ACLCPU_ACL_ACL_RT_ALLOCATOR_H_

#include <stddef.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;

typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/** Creates an empty allocator description (NULL when out of memory). */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

/** Destroys a description; registrations made from it keep their copy. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

/** Sets the allocator object handed to every callback. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func);

ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func);

/**
 * Registers a copy of the description with a stream (replacing an earlier
 * one). The object and the alloc, free and get-address callbacks must be
 * set (100000 otherwise); the advise callback is optional.
 */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

/** The registration of a stream; every out-pointer but allocatorDesc may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
                                                       aclrtAllocator *allocator, aclrtAllocatorAllocFunc *allocFunc,
                                                       aclrtAllocatorFreeFunc *freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);

/** Ends a stream's registration (none registered: success, as in CANN). */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_RT_ALLOCATOR_H_ */
