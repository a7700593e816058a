/*
 * mem.h - the library's only door to the C allocator.
 *
 * Every allocation and free in src/ goes through these (a test fails on a
 * raw malloc, calloc, realloc, aligned_alloc, strdup or free elsewhere), so
 * that debug builds can check that none happens under a spinlock, and so
 * that a fault injector has one place to hook. They behave exactly like the
 * functions they wrap; in release builds they are those functions.
 */
#ifndef ACLCPU_MEM_H
#define ACLCPU_MEM_H

#include <stdlib.h>
#include <string.h>

#include "../platform/platform.h"

static inline void *acl_malloc(size_t size)
{
    PLAT_ASSERT_NO_SPIN("allocating");
    return malloc(size);
}

static inline void *acl_calloc(size_t n, size_t size)
{
    PLAT_ASSERT_NO_SPIN("allocating");
    return calloc(n, size);
}

static inline void *acl_realloc(void *p, size_t size)
{
    PLAT_ASSERT_NO_SPIN("allocating");
    return realloc(p, size);
}

/* size must be a multiple of align (C11). */
static inline void *acl_aligned_alloc(size_t align, size_t size)
{
    PLAT_ASSERT_NO_SPIN("allocating");
    return aligned_alloc(align, size);
}

static inline char *acl_strdup(const char *s)
{
    PLAT_ASSERT_NO_SPIN("allocating");
    return strdup(s);
}

static inline void acl_free(void *p)
{
    PLAT_ASSERT_NO_SPIN("freeing");
    free(p);
}

#endif
