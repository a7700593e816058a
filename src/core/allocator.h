/*
 * allocator.h - custom allocator descriptions and their registration with
 * streams (acl/acl_rt_allocator.h).
 */
#ifndef ACLCPU_ALLOCATOR_H
#define ACLCPU_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>

#include "acl/acl.h"

struct stream;

/* What a description holds, and what a registration keeps a copy of. */
struct allocator_desc {
    aclrtAllocator obj;
    aclrtAllocatorAllocFunc alloc;
    aclrtAllocatorFreeFunc free;
    aclrtAllocatorAllocAdviseFunc advise;
    aclrtAllocatorGetAddrFromBlockFunc get_addr;
};

/* A new, empty description's handle (never a pointer); NULL when out of
 * memory or handles. */
void *allocdesc_create(void);
/* False if h names no live description. */
bool allocdesc_destroy(const void *h);
bool allocdesc_read(const void *h, struct allocator_desc *out);
/* Copies one field from `from` into the description h names. */
enum allocdesc_field { AD_OBJ, AD_ALLOC, AD_FREE, AD_ADVISE, AD_GET_ADDR };
bool allocdesc_set(const void *h, enum allocdesc_field field, const struct allocator_desc *from);
size_t allocdesc_count(void);

/* Registers a copy of d (described by handle h) with s, replacing s's
 * earlier one; 207001 when out of memory. */
aclError allocator_register(struct stream *s, const void *h, const struct allocator_desc *d);
/* s's registration; false if none. */
bool allocator_lookup(struct stream *s, const void **h, struct allocator_desc *out);
/* Ends s's registration, if any: aclrtAllocatorUnregister, and the stream's destruction. */
void allocator_unregister(struct stream *s);
size_t allocator_count(void);
/* Frees every description and registration (aclFinalize). */
void allocator_release_all(void);

#endif
