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
 * hands in (devmem knows no device). The counter is only ever the sum of
 * its live blocks' charges: a charge is added only when it fits, and a
 * device's close frees its blocks (devmem_release_charged_to), as the
 * driver's close of device memory does, so no later free can take away
 * what was never there.
 *
 * Every rounding and padding is checked for wrapping before it is done: a
 * size too large to round is refused, never turned into a small block.
 *
 * Threads: any host thread; executors read switch operands
 * (devmem_read_device). Locks: mem_lock (rank: lockrank.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "devmem.h"

struct region {
    uintptr_t base;
    size_t size;         /* what the caller asked for */
    size_t usable;       /* what the caller may touch: size + the padding, or the host rounding */
    size_t charged;      /* what counts against the budget */
    _Atomic uint64_t *used; /* the device's bytes in use; NULL for host memory */
    int32_t device;
    enum mem_origin origin;
    bool allocated;      /* ours to free (devmem_alloc*), not a mapping entered by devmem_map_add */
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

/* *out = n rounded up to a multiple of to (a power of two); false if that
 * does not fit a size_t. */
static bool round_up(size_t n, size_t to, size_t *out)
{
    if (n > SIZE_MAX - (to - 1))
        return false;
    *out = (n + (to - 1)) & ~(to - 1);
    return true;
}

size_t devmem_charge(size_t size)
{
    size_t rounded;
    if (size > DEVMEM_MAX_DEVICE_SIZE || !round_up(size, 32, &rounded))
        return SIZE_MAX;
    return rounded + 32;
}

/* Adds charged to *used_bytes if the sum stays within total. Relaxed:
 * mem_used is a budget counter; the compare-exchange makes two racing
 * allocations see each other's charge, and nothing else is published
 * through it. */
static bool take_budget(_Atomic uint64_t *used_bytes, uint64_t total, size_t charged)
{
    uint64_t used = load_relaxed(used_bytes);
    do {
        if (charged > total || used > total - charged)
            return false;
    } while (!cas_weak_relaxed(used_bytes, &used, used + charged));
    return true;
}

aclError devmem_alloc(_Atomic uint64_t *used_bytes, uint64_t total, size_t size, void **out)
{
    size_t charged = devmem_charge(size), backed;
    void *p;

    if (size == 0 || size > DEVMEM_MAX_DEVICE_SIZE)
        return ACL_ERROR_INVALID_PARAM;
    if (!round_up(charged, 64, &backed) || !take_budget(used_bytes, total, charged))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    p = acl_aligned_alloc(64, backed);
    if (p == NULL) {
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_lock(&mem_lock);
    /* The spec's 32-byte padding is usable slack, as on the device. */
    if (!insert_region((struct region){(uintptr_t)p, size, size + 32, charged, used_bytes, -1, ORIGIN_MALLOC, true})) {
        plat_mutex_unlock(&mem_lock);
        acl_free(p);
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_unlock(&mem_lock);
    *out = p;
    return ACL_SUCCESS;
}

/* Pinned host memory: the reference rounds it to 32 bytes, which the
 * caller may touch; the block is that rounded up to 64 (its alignment). A
 * size whose rounding wraps is refused as the reference's driver refuses
 * the 0 bytes it would ask for; one too large to back is out of memory
 * (above PTRDIFF_MAX without asking the allocator, which sanitizers abort). */
aclError devmem_alloc_host(size_t size, void **out)
{
    size_t usable, backed;
    void *p;

    if (size == 0 || !round_up(size, 32, &usable))
        return ACL_ERROR_RT_PARAM_INVALID;
    if (!round_up(usable, 64, &backed) || backed > PTRDIFF_MAX) /* no object is larger */
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    p = acl_aligned_alloc(64, backed);
    if (p == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_lock(&mem_lock);
    if (!insert_region((struct region){(uintptr_t)p, size, usable, 0, NULL, -1, ORIGIN_HOST, true})) {
        plat_mutex_unlock(&mem_lock);
        acl_free(p);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
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
    if (at == 0 || regions[at - 1].base != (uintptr_t)p || !regions[at - 1].allocated ||
        (regions[at - 1].used != NULL) != device) {
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

/* Called with mem_lock held: what [a, a+len) is. */
static enum mem_kind classify_locked(uintptr_t a, size_t len)
{
    PLAT_ASSERT_HELD(&mem_lock);
    size_t at = upper_bound(a);
    if (at == 0)
        return MEM_UNKNOWN;
    struct region *r = &regions[at - 1];
    if (a < r->base || a - r->base >= r->usable)
        return MEM_UNKNOWN;
    if (len > r->usable - (a - r->base))
        return MEM_OVERRUN;
    return r->origin == ORIGIN_HOST || r->origin == ORIGIN_REGISTERED ? MEM_HOST_PINNED : MEM_DEVICE;
}

/* Called with mem_lock held: the range holding a, or NULL. */
static struct region *find_locked(uintptr_t a)
{
    PLAT_ASSERT_HELD(&mem_lock);
    size_t at = upper_bound(a);
    if (at == 0 || a - regions[at - 1].base >= regions[at - 1].usable)
        return NULL;
    return &regions[at - 1];
}

bool devmem_lookup(const void *p, struct mem_range *out)
{
    struct region *r;
    plat_mutex_lock(&mem_lock);
    r = find_locked((uintptr_t)p);
    if (r != NULL)
        *out = (struct mem_range){(void *)r->base, r->usable, r->device, r->origin};
    plat_mutex_unlock(&mem_lock);
    return r != NULL;
}

aclError devmem_map_add(void *base, size_t size, int32_t device, enum mem_origin origin)
{
    uintptr_t a = (uintptr_t)base;
    size_t at;
    aclError err = ACL_SUCCESS;

    if (size == 0 || a > UINTPTR_MAX - size)
        return ACL_ERROR_INVALID_PARAM;
    plat_mutex_lock(&mem_lock);
    at = upper_bound(a);
    if ((at > 0 && a - regions[at - 1].base < regions[at - 1].usable) ||
        (at < nregions && regions[at].base < a + size))
        err = ACL_ERROR_INVALID_PARAM;
    else if (!insert_region((struct region){a, size, size, 0, NULL, device, origin, false}))
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_unlock(&mem_lock);
    return err;
}

bool devmem_map_remove(void *base)
{
    size_t at;
    plat_mutex_lock(&mem_lock);
    at = upper_bound((uintptr_t)base);
    if (at == 0 || regions[at - 1].base != (uintptr_t)base || regions[at - 1].allocated) {
        plat_mutex_unlock(&mem_lock);
        return false;
    }
    memmove(&regions[at - 1], &regions[at], (nregions - at) * sizeof(*regions));
    nregions--;
    plat_mutex_unlock(&mem_lock);
    return true;
}

bool devmem_backing(const void *p, int *fd, uint64_t *offset, struct mem_range *block)
{
    /* The host heap has no memory file behind it (the arena will). */
    (void)p, (void)fd, (void)offset, (void)block;
    return false;
}

enum mem_kind devmem_classify(const void *p, size_t len)
{
    enum mem_kind kind;
    plat_mutex_lock(&mem_lock);
    kind = classify_locked((uintptr_t)p, len);
    plat_mutex_unlock(&mem_lock);
    return kind;
}

bool devmem_read_device(const void *p, void *out, size_t len)
{
    bool ok;
    plat_mutex_lock(&mem_lock);
    ok = classify_locked((uintptr_t)p, len) == MEM_DEVICE;
    if (ok)
        memcpy(out, p, len);
    plat_mutex_unlock(&mem_lock);
    return ok;
}

void devmem_release_charged_to(_Atomic uint64_t *used)
{
    size_t kept = 0;
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nregions; i++) {
        if (regions[i].used != used) {
            regions[kept++] = regions[i];
            continue;
        }
        fetch_sub_relaxed(used, regions[i].charged);
        acl_free((void *)regions[i].base);
    }
    nregions = kept;
    plat_mutex_unlock(&mem_lock);
}

/* Called at aclFinalize: frees everything still allocated. */
void devmem_release_all(void)
{
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < nregions; i++) {
        if (regions[i].used != NULL)
            fetch_sub_relaxed(regions[i].used, regions[i].charged);
        if (regions[i].allocated) /* mappings belong to whoever entered them */
            acl_free((void *)regions[i].base);
    }
    acl_free(regions);
    regions = NULL;
    nregions = cap = 0;
    plat_mutex_unlock(&mem_lock);
}
