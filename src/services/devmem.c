/*
 * devmem.c - device and pinned host memory.
 *
 * DESIGN: device memory is host memory that aclcpu hands out and tracks,
 * so kernels can use plain pointers. Every allocation, device or host, is
 * recorded in one table sorted by address; copies and frees look pointers
 * up there, which turns a stray or foreign pointer into an error instead of
 * a crash. Device allocations count against the device's memory budget
 * (its profile, or ACLCPU_DEVICE_MEMORY) with the spec's rounding: size up
 * to 32 bytes plus 32 bytes of padding.
 *
 * The budget is the device's counter of bytes in use, which the caller
 * hands in (devmem knows no device).
 *
 * Threads: any host thread; executors never call in. Locks: mem_lock
 * (rank: lockrank.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "devmem.h"

struct region {
    uintptr_t base;
    size_t size;         /* what the caller asked for */
    size_t charged;      /* what counts against the budget */
    _Atomic uint64_t *used; /* the device's bytes in use; NULL for host memory */
};

static plat_mutex mem_lock;
static struct region *regions;
static size_t nregions, cap;

__attribute__((constructor)) static void devmem_init(void) { plat_mutex_init(&mem_lock, LOCK_DEVMEM); }

/* Called with mem_lock held: index of the first region with base > p. */
static size_t upper_bound(uintptr_t p)
{
    size_t lo = 0, hi = nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (regions[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool insert_region(struct region r)
{
    size_t at;
    if (nregions == cap) {
        size_t ncap = cap ? cap * 2 : 256;
        struct region *n = acl_realloc(regions, ncap * sizeof(*n));
        if (n == NULL)
            return false;
        regions = n;
        cap = ncap;
    }
    at = upper_bound(r.base);
    memmove(&regions[at + 1], &regions[at], (nregions - at) * sizeof(*regions));
    regions[at] = r;
    nregions++;
    return true;
}

size_t devmem_charge(size_t size) { return ((size + 31) & ~(size_t)31) + 32; }

aclError devmem_alloc(_Atomic uint64_t *used_bytes, uint64_t total, size_t size, void **out)
{
    size_t charged = devmem_charge(size);
    /* Relaxed: mem_used is a budget counter; the fetch_add itself makes two
     * racing allocations see each other's charge, and nothing else is
     * published through it. */
    uint64_t used = fetch_add_relaxed(used_bytes, charged);
    void *p;

    if (used + charged > total || charged < size) {
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    p = acl_aligned_alloc(64, (charged + 63) & ~(size_t)63);
    if (p == NULL) {
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_lock(&mem_lock);
    if (!insert_region((struct region){(uintptr_t)p, size, charged, used_bytes})) {
        plat_mutex_unlock(&mem_lock);
        acl_free(p);
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_unlock(&mem_lock);
    *out = p;
    return ACL_SUCCESS;
}

aclError devmem_alloc_host(size_t size, void **out)
{
    void *p = acl_aligned_alloc(64, (size + 63) & ~(size_t)63);
    if (p == NULL)
        return ACL_ERROR_BAD_ALLOC;
    plat_mutex_lock(&mem_lock);
    if (!insert_region((struct region){(uintptr_t)p, size, 0, NULL})) {
        plat_mutex_unlock(&mem_lock);
        acl_free(p);
        return ACL_ERROR_BAD_ALLOC;
    }
    plat_mutex_unlock(&mem_lock);
    *out = p;
    return ACL_SUCCESS;
}

/* Frees p if it is the start of a region of the wanted kind. */
bool devmem_free(void *p, bool device)
{
    size_t at;
    struct region r;

    plat_mutex_lock(&mem_lock);
    at = upper_bound((uintptr_t)p);
    if (at == 0 || regions[at - 1].base != (uintptr_t)p || (regions[at - 1].used != NULL) != device) {
        plat_mutex_unlock(&mem_lock);
        return false;
    }
    r = regions[at - 1];
    memmove(&regions[at - 1], &regions[at], (nregions - at) * sizeof(*regions));
    nregions--;
    plat_mutex_unlock(&mem_lock);
    if (r.used != NULL)
        fetch_sub_relaxed(r.used, r.charged);
    acl_free(p);
    return true;
}

enum mem_kind devmem_classify(const void *p, size_t len)
{
    uintptr_t a = (uintptr_t)p;
    size_t at;
    enum mem_kind kind = MEM_UNKNOWN;

    plat_mutex_lock(&mem_lock);
    at = upper_bound(a);
    if (at > 0) {
        struct region *r = &regions[at - 1];
        if (a >= r->base && a - r->base < r->size + 32) {
            /* The spec's 32-byte padding is usable slack, as on the device. */
            bool fits = len <= r->size + 32 - (a - r->base);
            kind = !fits ? MEM_OVERRUN : r->used != NULL ? MEM_DEVICE : MEM_HOST_PINNED;
        }
    }
    plat_mutex_unlock(&mem_lock);
    return kind;
}

/* Called at aclFinalize: frees everything still allocated. */
void devmem_release_all(void)
{
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nregions; i++) {
        if (regions[i].used != NULL)
            fetch_sub_relaxed(regions[i].used, regions[i].charged);
        acl_free((void *)regions[i].base);
    }
    acl_free(regions);
    regions = NULL;
    nregions = cap = 0;
    plat_mutex_unlock(&mem_lock);
}
