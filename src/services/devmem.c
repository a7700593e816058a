/*
 * devmem.c - device and pinned host memory: the arenas and the table.
 *
 * DESIGN: every device has an arena (arena.c): an address range of its
 * own backed by a memory file, never the host's malloc heap. aclrtMalloc
 * carves blocks from it; pinned host memory (aclrtMallocHost) comes from
 * one more arena, the host's. So a pointer's arena says what it is, the
 * allocator's books live outside the memory, and a kernel that writes into
 * memory freed under it writes into the arena, not into the host heap.
 *
 * Mappings made elsewhere - virtual memory maps, IPC imports, registered
 * host memory, managed memory - are entered in a table sorted by address
 * (devmem_map_add). A lookup asks the arenas first, then the table.
 *
 * Device allocations count against the device's budget (its profile, or
 * ACLCPU_DEVICE_MEMORY) with the reference's rounding: size up to 32 bytes
 * plus 32 bytes of padding (no padding for devmem_alloc_unpadded: the
 * reference's aclrtMallocAlign32, 1 GiB-page policies and configured
 * allocations), the block aligned to 64. The budget is the
 * device's counter of bytes in use, which the caller hands in (devmem knows
 * no device beyond its id): a charge is added only when it fits, and taken
 * back when the block is freed or retired (quarantined: the runtime keeps
 * a freed block out of reuse while tasks issued before the free may still
 * touch it, core/quarantine.c). A device's close destroys its arena.
 *
 * Every rounding and padding is checked for wrapping before it is done: a
 * size too large to round is refused, never turned into a small block.
 *
 * Threads: any host thread; executors read switch operands
 * (devmem_read_device). Locks: mem_lock (rank: lockrank.h) over arenas
 * and table; the backing of fresh memory (arena_populate) runs after it,
 * counted in the slot (`backing`) so that a device's close waits for it.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../common/config.h"
#include "../platform/platform.h"
#include "arena.h"
#include "devmem.h"

/* A mapping entered by devmem_map_add. */
struct region {
    uintptr_t base;
    size_t usable;
    int32_t device;
    enum mem_origin origin;
};

static plat_mutex mem_lock;
/* Broadcast when a slot's `backing` drops to zero: a device's close waits
 * for it before it unmaps the arena those stores go to. */
static plat_cond backing_done;
static unsigned host_backing; /* the same for the pinned host arena */
static struct region *regions;
static size_t nregions, cap;
/* Moves on at every release of mem_lock but a plain lookup's: a lookup
 * made since the same value is still right (devmem_generation). Relaxed:
 * a program orders its own free before a use of the range on another
 * thread, and that ordering carries the new value with it. */
static _Atomic uint64_t table_gen;

/* Releases mem_lock after anything that may have changed the table or an
 * arena: lookups cached under the old generation are dropped. */
static void mem_unlock(void)
{
    fetch_add_relaxed(&table_gen, 1);
    plat_mutex_unlock(&mem_lock);
}

uint64_t devmem_generation(void) { return load_relaxed(&table_gen); }

__attribute__((constructor)) static void devmem_init(void)
{
    plat_mutex_init(&mem_lock, LOCK_DEVMEM);
    plat_cond_init(&backing_done);
}

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


#define DEVMEM_SLOTS ACLCPU_DEVMEM_MAX_DEVICES

/* One device's memory: its arena (made at its first allocation) and the
 * budget it charges. */
struct dev_slot {
    int32_t device;
    _Atomic uint64_t *used;   /* NULL: slot free */
    uint64_t total;
    struct arena *arena;
    uint64_t arena_charged;   /* charges of the arena's used blocks */
    uint64_t peak;            /* the most arena_charged has been */
    unsigned backing;         /* allocations backing their cold pages outside mem_lock */
};

static struct dev_slot slots[DEVMEM_SLOTS];
static struct arena *host_arena;

/* The most memory the arenas back ahead of first touch, in all: read
 * when the first arena is made. */
static uint64_t backed_max;

static uint64_t backed_limit(void)
{
    return backed_max;
}

/* Called with mem_lock held, before an arena is made. */
static void read_backed_limit_locked(void)
{
    PLAT_ASSERT_HELD(&mem_lock);
    if (backed_max == 0)
        backed_max = config_u64_or(CFG_MEMORY_BACKED_MAX, plat_host_memory_bytes() / 2);
}

static uint64_t backed_total_locked(void)
{
    PLAT_ASSERT_HELD(&mem_lock);
    uint64_t sum = host_arena != NULL ? arena_backed(host_arena) : 0;
    for (size_t i = 0; i < DEVMEM_SLOTS; i++)
        if (slots[i].arena != NULL)
            sum += arena_backed(slots[i].arena);
    return sum;
}

/* Called with mem_lock held: claims the cold part of a new block for
 * backing; the caller backs it after unlocking (arena_populate). */
static void claim_cold_locked(struct arena *a, void *p, size_t bytes, void **from, size_t *len)
{
    PLAT_ASSERT_HELD(&mem_lock);
    uint64_t limit = backed_limit(), total = backed_total_locked();
    uint64_t mine = arena_backed(a);
    arena_claim_cold(a, p, bytes, total - mine >= limit ? 0 : limit - (total - mine), from, len);
}

void devmem_open_device(int32_t device, _Atomic uint64_t *used, uint64_t total)
{
    struct dev_slot *free_slot = NULL;
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < DEVMEM_SLOTS; i++) {
        if (slots[i].used == used)
            free_slot = &slots[i];
        else if (slots[i].used == NULL && free_slot == NULL)
            free_slot = &slots[i];
    }
    if (free_slot != NULL && free_slot->arena == NULL)
        *free_slot = (struct dev_slot){device, used, total, NULL, 0, 0, 0};
    mem_unlock();
}

/* Called with mem_lock held: the slot of the device charging *used. */
static struct dev_slot *slot_of_locked(_Atomic uint64_t *used)
{
    PLAT_ASSERT_HELD(&mem_lock);
    for (size_t i = 0; i < DEVMEM_SLOTS; i++)
        if (slots[i].used == used)
            return &slots[i];
    return NULL;
}

/* Called with mem_lock held: the device's arena, made on first use with
 * room for its budget and the blocks' alignment slack. */
static struct arena *device_arena_locked(struct dev_slot *slot)
{
    PLAT_ASSERT_HELD(&mem_lock);
    read_backed_limit_locked();
    if (slot->arena == NULL)
        slot->arena = arena_create(slot->total + slot->total / 2);
    return slot->arena;
}

/* Called with mem_lock held: the arena holding p and whether it is a
 * device's (*slot set) or the host's; NULL if p is in none. */
static struct arena *arena_of_locked(const void *p, struct dev_slot **slot)
{
    PLAT_ASSERT_HELD(&mem_lock);
    *slot = NULL;
    if (host_arena != NULL && arena_contains(host_arena, p))
        return host_arena;
    for (size_t i = 0; i < DEVMEM_SLOTS; i++) {
        if (slots[i].arena != NULL && arena_contains(slots[i].arena, p)) {
            *slot = &slots[i];
            return slots[i].arena;
        }
    }
    return NULL;
}

/* A device block charging `charged` of which `usable` bytes may be touched. */
static aclError alloc_device(_Atomic uint64_t *used_bytes, uint64_t total, size_t charged, size_t usable,
                             void **out)
{
    size_t bytes, cold_len = 0;
    struct dev_slot *slot;
    struct arena *a;
    void *p = NULL, *cold = NULL;

    if (!round_up(charged, ARENA_UNIT, &bytes) || !take_budget(used_bytes, total, charged))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_lock(&mem_lock);
    slot = slot_of_locked(used_bytes);
    a = slot != NULL ? device_arena_locked(slot) : NULL;
    if (a != NULL && (p = arena_carve(a, bytes, usable, charged)) != NULL) {
        slot->arena_charged += charged;
        if (slot->arena_charged > slot->peak)
            slot->peak = slot->arena_charged;
        claim_cold_locked(a, p, bytes, &cold, &cold_len);
        slot->backing += cold_len != 0;
    }
    mem_unlock();
    if (p == NULL) {
        fetch_sub_relaxed(used_bytes, charged);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (cold_len != 0) {
        /* Outside the lock (backing takes a while); the slot cannot close
         * meanwhile: its close waits for `backing` to drop. */
        arena_populate(cold, cold_len, p, bytes);
        plat_mutex_lock(&mem_lock);
        if (--slot->backing == 0)
            plat_cond_broadcast(&backing_done);
        mem_unlock();
    }
    *out = p;
    return ACL_SUCCESS;
}

aclError devmem_alloc(_Atomic uint64_t *used_bytes, uint64_t total, size_t size, void **out)
{
    if (size == 0 || size > DEVMEM_MAX_DEVICE_SIZE)
        return ACL_ERROR_INVALID_PARAM;
    /* The reference's 32-byte padding is usable slack, as on the device. */
    return alloc_device(used_bytes, total, devmem_charge(size), size + 32, out);
}

aclError devmem_alloc_unpadded(_Atomic uint64_t *used_bytes, uint64_t total, size_t size, void **out)
{
    size_t charged;
    if (size == 0 || !round_up(size, 32, &charged))
        return ACL_ERROR_INVALID_PARAM;
    return alloc_device(used_bytes, total, charged, size, out);
}

uint64_t devmem_peak(_Atomic uint64_t *used)
{
    struct dev_slot *slot;
    uint64_t peak;
    plat_mutex_lock(&mem_lock);
    slot = slot_of_locked(used);
    peak = slot != NULL ? slot->peak : 0;
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
    return peak;
}

bool devmem_in_arena(const void *p)
{
    struct dev_slot *slot;
    bool in;
    plat_mutex_lock(&mem_lock);
    in = arena_of_locked(p, &slot) != NULL;
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
    return in;
}

/* Pinned host memory: the reference rounds it to 32 bytes, which the
 * caller may touch; the block is that rounded up to 64 (its alignment). A
 * size whose rounding wraps is refused as the reference's driver refuses
 * the 0 bytes it would ask for; one larger than the host's memory is out
 * of memory. */
aclError devmem_alloc_host(size_t size, void **out)
{
    size_t usable, bytes, cold_len = 0;
    void *p = NULL, *cold = NULL;

    if (size == 0 || !round_up(size, 32, &usable))
        return ACL_ERROR_RT_PARAM_INVALID;
    if (!round_up(usable, ARENA_UNIT, &bytes))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_lock(&mem_lock);
    read_backed_limit_locked();
    if (host_arena == NULL)
        host_arena = arena_create(plat_host_memory_bytes());
    if (host_arena != NULL && (p = arena_carve(host_arena, bytes, usable, 0)) != NULL)
        claim_cold_locked(host_arena, p, bytes, &cold, &cold_len);
    host_backing += cold_len != 0;
    mem_unlock();
    if (p == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (cold_len != 0) {
        arena_populate(cold, cold_len, p, bytes);
        plat_mutex_lock(&mem_lock);
        if (--host_backing == 0)
            plat_cond_broadcast(&backing_done);
        mem_unlock();
    }
    *out = p;
    return ACL_SUCCESS;
}

/* Called with mem_lock held: the used block starting exactly at p in an
 * arena of the wanted kind, or NULL. */
static struct arena *used_block_locked(const void *p, bool device, struct dev_slot **slot, struct arena_block *b)
{
    PLAT_ASSERT_HELD(&mem_lock);
    struct arena *a = arena_of_locked(p, slot);
    if (a == NULL || (*slot != NULL) != device || !arena_find(a, p, b) || b->base != p ||
        b->state != BLOCK_USED)
        return NULL;
    return a;
}

/* Called with mem_lock held: gives back the block's charge. */
static void uncharge_locked(struct dev_slot *slot, const struct arena_block *b)
{
    PLAT_ASSERT_HELD(&mem_lock);
    if (slot == NULL)
        return;
    slot->arena_charged -= b->charged;
    fetch_sub_relaxed(slot->used, b->charged);
}

/* Ends the used block starting at p for the program: its charge goes back
 * and it is freed, or kept out of reuse (retired) when `hold`. */
static bool end_block(void *p, bool device, bool hold, size_t *usable)
{
    struct dev_slot *slot;
    struct arena_block b;
    struct arena *a;

    plat_mutex_lock(&mem_lock);
    a = used_block_locked(p, device, &slot, &b);
    if (a != NULL) {
        uncharge_locked(slot, &b);
        if (hold)
            arena_retire(a, p);
        else
            arena_reclaim(a, p);
        *usable = b.usable;
    }
    mem_unlock();
    return a != NULL;
}

bool devmem_free(void *p, bool device)
{
    size_t usable;
    return end_block(p, device, false, &usable);
}

bool devmem_retire(void *p, bool device, size_t *size)
{
    return end_block(p, device, true, size);
}

void devmem_release(void *p)
{
    struct dev_slot *slot;
    struct arena_block b;
    struct arena *a;

    plat_mutex_lock(&mem_lock);
    a = arena_of_locked(p, &slot);
    /* The arena may have gone with its device, and a new one taken the
     * range: release only a block still quarantined. */
    if (a != NULL && arena_find(a, p, &b) && b.base == p && b.state == BLOCK_QUARANTINED)
        arena_reclaim(a, p);
    mem_unlock();
}

static enum mem_kind kind_of_origin(enum mem_origin origin)
{
    return origin == ORIGIN_HOST || origin == ORIGIN_REGISTERED ? MEM_HOST_PINNED : MEM_DEVICE;
}

/* Called with mem_lock held: the live range holding a (an arena's used
 * block or a table entry), or false. */
static bool range_locked(uintptr_t a, struct mem_range *out)
{
    PLAT_ASSERT_HELD(&mem_lock);
    struct dev_slot *slot;
    struct arena_block b;
    struct arena *ar = arena_of_locked((const void *)a, &slot);
    size_t at;

    if (ar != NULL) {
        if (!arena_find(ar, (const void *)a, &b) || b.state != BLOCK_USED || a - (uintptr_t)b.base >= b.usable)
            return false;
        *out = (struct mem_range){b.base, b.usable, slot != NULL ? slot->device : -1,
                                  slot != NULL ? ORIGIN_MALLOC : ORIGIN_HOST};
        return true;
    }
    at = upper_bound(a);
    if (at == 0 || a - regions[at - 1].base >= regions[at - 1].usable)
        return false;
    *out = (struct mem_range){(void *)regions[at - 1].base, regions[at - 1].usable, regions[at - 1].device,
                              regions[at - 1].origin};
    return true;
}

/* Called with mem_lock held: what [a, a+len) is. */
static enum mem_kind classify_locked(uintptr_t a, size_t len)
{
    PLAT_ASSERT_HELD(&mem_lock);
    struct mem_range r;
    if (!range_locked(a, &r))
        return MEM_UNKNOWN;
    if (len > r.size - (a - (uintptr_t)r.base))
        return MEM_OVERRUN;
    return kind_of_origin(r.origin);
}

enum mem_kind devmem_classify(const void *p, size_t len)
{
    enum mem_kind kind;
    plat_mutex_lock(&mem_lock);
    kind = classify_locked((uintptr_t)p, len);
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
    return kind;
}

bool devmem_lookup(const void *p, struct mem_range *out)
{
    bool found;
    plat_mutex_lock(&mem_lock);
    found = range_locked((uintptr_t)p, out);
    plat_mutex_unlock(&mem_lock); /* nothing changed: the generation stays */
    return found;
}

bool devmem_read_device(const void *p, void *out, size_t len)
{
    bool ok;
    plat_mutex_lock(&mem_lock);
    ok = classify_locked((uintptr_t)p, len) == MEM_DEVICE;
    if (ok)
        memcpy(out, p, len);
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
    return ok;
}

bool devmem_write_device(void *p, const void *in, size_t len)
{
    bool ok;
    plat_mutex_lock(&mem_lock);
    ok = classify_locked((uintptr_t)p, len) == MEM_DEVICE;
    if (ok)
        memcpy(p, in, len);
    mem_unlock();
    return ok;
}

aclError devmem_map_add(void *base, size_t size, int32_t device, enum mem_origin origin)
{
    uintptr_t a = (uintptr_t)base;
    struct dev_slot *slot;
    size_t at;
    aclError err = ACL_SUCCESS;

    if (size == 0 || a > UINTPTR_MAX - size)
        return ACL_ERROR_INVALID_PARAM;
    plat_mutex_lock(&mem_lock);
    at = upper_bound(a);
    if ((at > 0 && a - regions[at - 1].base < regions[at - 1].usable) ||
        (at < nregions && regions[at].base < a + size) || arena_of_locked(base, &slot) != NULL)
        err = ACL_ERROR_INVALID_PARAM;
    else if (!insert_region((struct region){a, size, device, origin}))
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
    mem_unlock();
    return err;
}

bool devmem_map_remove(void *base)
{
    size_t at;
    plat_mutex_lock(&mem_lock);
    at = upper_bound((uintptr_t)base);
    if (at == 0 || regions[at - 1].base != (uintptr_t)base) {
        mem_unlock();
        return false;
    }
    memmove(&regions[at - 1], &regions[at], (nregions - at) * sizeof(*regions));
    nregions--;
    mem_unlock();
    return true;
}

bool devmem_backing(const void *p, int *fd, uint64_t *offset, struct mem_range *block)
{
    struct dev_slot *slot;
    struct arena *a;
    bool ok = false;

    plat_mutex_lock(&mem_lock);
    a = arena_of_locked(p, &slot);
    if (a != NULL && range_locked((uintptr_t)p, block)) {
        *fd = arena_fd(a);
        *offset = (uint64_t)((uintptr_t)block->base - (uintptr_t)arena_base(a));
        ok = true;
    }
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
    return ok;
}

void devmem_stats(struct devmem_stats *out)
{
    *out = (struct devmem_stats){0};
    plat_mutex_lock(&mem_lock);
    out->backed = backed_total_locked();
    out->mappings = nregions;
    out->arenas = host_arena != NULL;
    for (size_t i = 0; i < DEVMEM_SLOTS; i++)
        out->arenas += slots[i].arena != NULL;
    plat_mutex_unlock(&mem_lock); /* a read: the generation stays */
}

/* Called with mem_lock held: ends a device's memory (its arena and charges). */
static void close_slot_locked(struct dev_slot *slot)
{
    PLAT_ASSERT_HELD(&mem_lock);
    if (slot->used != NULL)
        fetch_sub_relaxed(slot->used, slot->arena_charged);
    arena_destroy(slot->arena);
    *slot = (struct dev_slot){0};
}

void devmem_release_charged_to(_Atomic uint64_t *used)
{
    struct dev_slot *slot;
    plat_mutex_lock(&mem_lock);
    /* A device reset racing an allocation on another thread: wait for the
     * allocation to finish backing its block before unmapping the arena it
     * stores into (the block then dies with the device, like any other). */
    while ((slot = slot_of_locked(used)) != NULL && slot->backing != 0)
        plat_cond_wait(&backing_done, &mem_lock);
    if (slot != NULL)
        close_slot_locked(slot);
    mem_unlock();
}

/* ---- images: the snapshot's copy of device memory ------------------------ */

struct image_entry {
    void *base;
    size_t len; /* the block's usable bytes, at data + offset */
    size_t offset;
};

struct devmem_image {
    size_t count;
    struct image_entry *entries;
    unsigned char *data;
};

/* Called with mem_lock held: counts (data NULL) or copies the live device
 * blocks into img; returns the bytes they hold. */
static size_t image_walk_locked(struct devmem_image *img)
{
    PLAT_ASSERT_HELD(&mem_lock);
    size_t bytes = 0, n = 0;
    for (size_t i = 0; i < DEVMEM_SLOTS; i++) {
        struct arena_block b;
        const void *at = NULL;
        if (slots[i].arena == NULL)
            continue;
        while (arena_next(slots[i].arena, at, &b)) {
            at = b.base;
            if (b.state != BLOCK_USED)
                continue;
            if (img->data != NULL) {
                img->entries[n] = (struct image_entry){b.base, b.usable, bytes};
                memcpy(img->data + bytes, b.base, b.usable);
            }
            n++;
            bytes += b.usable;
        }
    }
    img->count = n;
    return bytes;
}

aclError devmem_image_take(struct devmem_image **out)
{
    struct devmem_image *img = acl_calloc(1, sizeof(*img));
    size_t bytes;
    *out = NULL;
    if (img == NULL)
        return ACL_ERROR_BAD_ALLOC;
    plat_mutex_lock(&mem_lock);
    bytes = image_walk_locked(img);
    /* One allocation each, under the lock (a mutex): the set of blocks must
     * not change between the count and the copy. */
    img->entries = acl_malloc((img->count != 0 ? img->count : 1) * sizeof(img->entries[0]));
    img->data = acl_malloc(bytes != 0 ? bytes : 1);
    if (img->entries != NULL && img->data != NULL)
        (void)image_walk_locked(img);
    mem_unlock();
    if (img->entries == NULL || img->data == NULL) {
        devmem_image_free(img);
        return ACL_ERROR_BAD_ALLOC;
    }
    *out = img;
    return ACL_SUCCESS;
}

size_t devmem_image_restore(const struct devmem_image *img)
{
    size_t restored = 0;
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < img->count; i++) {
        const struct image_entry *e = &img->entries[i];
        struct dev_slot *slot;
        struct arena_block b;
        struct arena *a = arena_of_locked(e->base, &slot);
        /* Only a block that is still the same live device block. */
        if (a == NULL || slot == NULL || !arena_find(a, e->base, &b) || b.base != e->base ||
            b.state != BLOCK_USED || b.usable != e->len)
            continue;
        memcpy(e->base, img->data + e->offset, e->len);
        restored++;
    }
    mem_unlock();
    return restored;
}

size_t devmem_image_blocks(const struct devmem_image *img) { return img->count; }

void devmem_image_free(struct devmem_image *img)
{
    if (img == NULL)
        return;
    acl_free(img->entries);
    acl_free(img->data);
    acl_free(img);
}

/* Called at aclFinalize: every arena goes, and the table. */
void devmem_release_all(void)
{
    plat_mutex_lock(&mem_lock);
    for (size_t i = 0; i < DEVMEM_SLOTS; i++)
        while (slots[i].backing != 0)
            plat_cond_wait(&backing_done, &mem_lock);
    while (host_backing != 0)
        plat_cond_wait(&backing_done, &mem_lock);
    for (size_t i = 0; i < DEVMEM_SLOTS; i++)
        close_slot_locked(&slots[i]);
    arena_destroy(host_arena);
    host_arena = NULL;
    backed_max = 0; /* the next aclInit reads the configuration again */
    acl_free(regions);
    regions = NULL;
    nregions = cap = 0;
    mem_unlock();
}
