/*
 * arena.c - one device's memory, and the allocator that carves it.
 *
 * DESIGN: a device's memory is an address range of its own (so a device
 * pointer is recognisably one), mapped from one memory file (so another
 * process, or a second mapping, can share a block's bytes: IPC exports a
 * block as the file and its offset). The host heap is never involved, so a
 * kernel's late write into freed device memory lands in device memory, as
 * on the device, whatever it hits.
 *
 * The allocator keeps its books outside the memory it hands out: a write
 * anywhere in the arena cannot corrupt them. Each block (free, used or
 * quarantined) has a descriptor on the host heap, linked to its neighbours
 * in address order (to merge free ones in O(1)) and kept in a treap keyed
 * by address (to find the block holding any pointer in O(log n)). Free
 * blocks sit in size bins in the manner of TLSF: an exact bin per size
 * below 4 KiB, eight bins per power of two above, and a bitmap of the
 * non-empty ones. A request first tries a few blocks of its own bin (an
 * exact fit, a block freed at this size), then takes the first block of
 * the first non-empty bin whose every block fits, so allocation and free
 * are O(1) apart from the treap. A freed block goes to the front of its bin and is the first
 * taken again: memory that was touched is reused first.
 *
 * Memory stays mapped and backed across free and reuse, as a device's
 * memory manager keeps its physical memory: the first allocation of a
 * range backs it (arena_claim_cold + arena_populate, which the caller runs
 * outside its lock), up to a limit the caller sets, so that first copies
 * into fresh blocks run at memory speed instead of paying a page fault per
 * 4 KiB.
 *
 * Threads: any host thread, serialised by the caller (devmem.c's mem_lock);
 * arena_populate only asks the kernel to back pages. Locks: none here.
 */
#include "arena.h"

#include "../common/common.h"
#include "../platform/platform.h"

#define SMALL_UNITS 64u /* exact bins below 64 units (4 KiB) */
#define SUB_BITS 3u     /* eight bins per power of two above */
#define BIN_COUNT 320u  /* enough for 2^40 bytes of units */
#define BIN_WORDS (BIN_COUNT / 64u)
#define CHUNK_SHIFT 16u /* memory is backed 64 KiB at a time */
#define ARENA_ALIGN (2u << 20)
#define ARENA_MIN (64ull << 20)
#define SLAB_BLOCKS 256u
#define OWN_BIN_LOOKS 8 /* blocks of the request's own bin tried first */

struct blk {
    uint64_t off, size;           /* bytes from the arena's base; bytes */
    size_t usable, charged;       /* the owner's numbers */
    enum block_state state;
    uint32_t prio;                /* treap priority */
    struct blk *left, *right;     /* treap by off */
    struct blk *prev, *next;      /* neighbours in address order */
    struct blk *fprev, *fnext;    /* free bin list; fnext also links spares */
};

struct slab {
    struct slab *next;
    struct blk blocks[SLAB_BLOCKS];
};

struct arena {
    uint8_t *base;
    uint64_t capacity;
    int fd;
    struct blk *root;
    struct blk *bins[BIN_COUNT];
    uint64_t bin_map[BIN_WORDS];
    struct blk *spare;            /* unused descriptors */
    struct slab *slabs;
    uint32_t rng;
    uint64_t *chunk_backed;       /* one bit per 64 KiB chunk */
    uint64_t backed;
};

/* ---- descriptors ---------------------------------------------------------- */

static struct blk *blk_new(struct arena *a)
{
    struct blk *b = a->spare;
    if (b == NULL) {
        struct slab *s = acl_malloc(sizeof(*s));
        if (s == NULL)
            return NULL;
        s->next = a->slabs;
        a->slabs = s;
        for (uint32_t i = 0; i < SLAB_BLOCKS; i++) {
            s->blocks[i].fnext = a->spare;
            a->spare = &s->blocks[i];
        }
        b = a->spare;
    }
    a->spare = b->fnext;
    *b = (struct blk){0};
    /* xorshift32: priorities need only be independent of the keys. */
    a->rng ^= a->rng << 13;
    a->rng ^= a->rng >> 17;
    a->rng ^= a->rng << 5;
    b->prio = a->rng;
    return b;
}

static void blk_put(struct arena *a, struct blk *b)
{
    b->fnext = a->spare;
    a->spare = b;
}

/* ---- the treap: every block by address ------------------------------------ */

static struct blk *treap_merge(struct blk *l, struct blk *r)
{
    if (l == NULL)
        return r;
    if (r == NULL)
        return l;
    if (l->prio > r->prio) {
        l->right = treap_merge(l->right, r);
        return l;
    }
    r->left = treap_merge(l, r->left);
    return r;
}

/* Splits t into the blocks below key (*lo) and the rest (*hi). */
static void treap_split(struct blk *t, uint64_t key, struct blk **lo, struct blk **hi)
{
    if (t == NULL) {
        *lo = *hi = NULL;
    } else if (t->off < key) {
        treap_split(t->right, key, &t->right, hi);
        *lo = t;
    } else {
        treap_split(t->left, key, lo, &t->left);
        *hi = t;
    }
}

static void treap_insert(struct arena *a, struct blk *b)
{
    struct blk *lo, *hi;
    b->left = b->right = NULL;
    treap_split(a->root, b->off, &lo, &hi);
    a->root = treap_merge(treap_merge(lo, b), hi);
}

static void treap_erase(struct arena *a, struct blk *b)
{
    struct blk *lo, *mid, *hi;
    treap_split(a->root, b->off, &lo, &mid);
    treap_split(mid, b->off + 1, &mid, &hi);
    a->root = treap_merge(lo, hi);
}

/* The block with the largest start <= off. */
static struct blk *treap_floor(const struct arena *a, uint64_t off)
{
    struct blk *t = a->root, *best = NULL;
    while (t != NULL) {
        if (t->off <= off) {
            best = t;
            t = t->right;
        } else {
            t = t->left;
        }
    }
    return best;
}

/* ---- free bins ------------------------------------------------------------ */

static unsigned top_bit(uint64_t v) { return 63u - (unsigned)__builtin_clzll(v); }

/* The bin a free block of `units` goes to. */
static unsigned bin_of(uint64_t units)
{
    unsigned fl, sl;
    if (units < SMALL_UNITS)
        return (unsigned)units;
    fl = top_bit(units);
    sl = (unsigned)(units >> (fl - SUB_BITS)) & ((1u << SUB_BITS) - 1);
    return SMALL_UNITS + (fl - top_bit(SMALL_UNITS)) * (1u << SUB_BITS) + sl;
}

/* The first bin whose every block holds `units`: round the request up to
 * its bin's step, so that any block of the bin found is large enough. */
static unsigned bin_for_request(uint64_t units)
{
    uint64_t step;
    if (units < SMALL_UNITS)
        return (unsigned)units;
    step = (1ull << (top_bit(units) - SUB_BITS)) - 1;
    return bin_of(units + step);
}

static void bin_push(struct arena *a, struct blk *b)
{
    unsigned i = bin_of(b->size / ARENA_UNIT);
    b->state = BLOCK_FREE;
    b->fprev = NULL;
    b->fnext = a->bins[i];
    if (b->fnext != NULL)
        b->fnext->fprev = b;
    a->bins[i] = b;
    a->bin_map[i / 64] |= 1ull << (i % 64);
}

static void bin_remove(struct arena *a, struct blk *b)
{
    unsigned i = bin_of(b->size / ARENA_UNIT);
    if (b->fprev != NULL)
        b->fprev->fnext = b->fnext;
    else
        a->bins[i] = b->fnext;
    if (b->fnext != NULL)
        b->fnext->fprev = b->fprev;
    if (a->bins[i] == NULL)
        a->bin_map[i / 64] &= ~(1ull << (i % 64));
}

/* The first non-empty bin at or above `from`, or BIN_COUNT. */
static unsigned bin_search(const struct arena *a, unsigned from)
{
    for (unsigned w = from / 64; w < BIN_WORDS; w++) {
        uint64_t bits = a->bin_map[w];
        if (w == from / 64)
            bits &= ~0ull << (from % 64);
        if (bits != 0)
            return w * 64 + (unsigned)__builtin_ctzll(bits);
    }
    return BIN_COUNT;
}

/* ---- the arena ------------------------------------------------------------ */

/* The address ranges of destroyed arenas stay reserved (no access, and in
 * the platform's table of ranges whose faults a task may take): a task
 * still queued elsewhere that writes into the memory of a device reset
 * since faults there, and fails, instead of landing in whatever the host
 * maps at that address next. An arena of the same size takes a range back
 * (a device that opens again gets its old addresses). Under the caller's
 * lock, as every arena call. */
#define RETIRED_MAX 16

static struct retired_range {
    void *base;
    uint64_t size;
} retired[RETIRED_MAX];

static void *retired_take(uint64_t size)
{
    for (unsigned i = 0; i < RETIRED_MAX; i++) {
        if (retired[i].base != NULL && retired[i].size == size) {
            void *at = retired[i].base;
            retired[i].base = NULL;
            return at;
        }
    }
    return NULL;
}

/* Keeps [base, base+size) reserved for a later arena; releases it when
 * the list is full or the range cannot be turned back into reserved space. */
static void retire_range(void *base, uint64_t size)
{
    if (plat_vm_unmap_to_reserved(base, size)) {
        for (unsigned i = 0; i < RETIRED_MAX; i++) {
            if (retired[i].base == NULL) {
                retired[i] = (struct retired_range){base, size};
                return;
            }
        }
    }
    plat_vm_release(base, size);
}

static bool arena_map(struct arena *a, uint64_t capacity)
{
    for (uint64_t size = capacity; size >= ARENA_MIN; size /= 2) {
        size = (size + ARENA_ALIGN - 1) & ~(uint64_t)(ARENA_ALIGN - 1);
        void *at = retired_take(size);
        if (at == NULL)
            at = plat_vm_reserve(size, ARENA_ALIGN);
        if (at == NULL)
            continue;
        a->fd = plat_memfd("aclcpu-device-memory", size);
        if (a->fd >= 0 && plat_vm_map_file(at, size, a->fd, 0, true)) {
            plat_vm_advise_huge(at, size);
            a->base = at;
            a->capacity = size;
            return true;
        }
        if (a->fd >= 0)
            plat_close(a->fd);
        plat_vm_release(at, size);
    }
    return false;
}

struct arena *arena_create(uint64_t capacity)
{
    struct arena *a = acl_calloc(1, sizeof(*a));
    struct blk *all;

    if (a == NULL)
        return NULL;
    a->rng = 0x9e3779b9u;
    if (capacity > (1ull << 40))
        capacity = 1ull << 40; /* the bins cover this much */
    if (capacity < ARENA_MIN)
        capacity = ARENA_MIN;
    if (!arena_map(a, capacity)) {
        acl_free(a);
        return NULL;
    }
    a->chunk_backed = acl_calloc((a->capacity >> CHUNK_SHIFT) / 64 + 1, sizeof(uint64_t));
    all = blk_new(a);
    if (a->chunk_backed == NULL || all == NULL) {
        arena_destroy(a);
        return NULL;
    }
    all->size = a->capacity;
    treap_insert(a, all);
    bin_push(a, all);
    return a;
}

void arena_destroy(struct arena *a)
{
    if (a == NULL)
        return;
    if (a->base != NULL) {
        retire_range(a->base, a->capacity);
        plat_close(a->fd);
    }
    while (a->slabs != NULL) {
        struct slab *s = a->slabs;
        a->slabs = s->next;
        acl_free(s);
    }
    acl_free(a->chunk_backed);
    acl_free(a);
}

bool arena_contains(const struct arena *a, const void *p)
{
    return (uintptr_t)p - (uintptr_t)a->base < a->capacity;
}

uint64_t arena_capacity(const struct arena *a) { return a->capacity; }
int arena_fd(const struct arena *a) { return a->fd; }
void *arena_base(const struct arena *a) { return a->base; }
uint64_t arena_backed(const struct arena *a) { return a->backed; }

/* Cuts `bytes` off the front of free block b (taken out of its bin); the
 * rest, if any, goes back as a free block of its own. */
static bool split_front(struct arena *a, struct blk *b, uint64_t bytes)
{
    struct blk *rest;
    if (b->size == bytes)
        return true;
    rest = blk_new(a);
    if (rest == NULL)
        return false;
    rest->off = b->off + bytes;
    rest->size = b->size - bytes;
    rest->prev = b;
    rest->next = b->next;
    if (b->next != NULL)
        b->next->prev = rest;
    b->next = rest;
    b->size = bytes;
    treap_insert(a, rest);
    bin_push(a, rest);
    return true;
}

/* A block of the request's own bin that holds it, looking at the first
 * few only: a block freed at this size is found again (its pages warm),
 * where the first bin whose every block fits would skip it. */
static struct blk *fit_in_own_bin(struct arena *a, uint64_t bytes)
{
    struct blk *b = a->bins[bin_of(bytes / ARENA_UNIT)];
    for (int looked = 0; b != NULL && looked < OWN_BIN_LOOKS; b = b->fnext, looked++)
        if (b->size >= bytes)
            return b;
    return NULL;
}

void *arena_carve(struct arena *a, size_t bytes, size_t usable, size_t charged)
{
    unsigned i;
    struct blk *b;

    if (bytes == 0 || bytes % ARENA_UNIT != 0 || bytes > a->capacity)
        return NULL;
    b = fit_in_own_bin(a, bytes);
    if (b == NULL) {
        i = bin_search(a, bin_for_request(bytes / ARENA_UNIT));
        if (i == BIN_COUNT)
            return NULL;
        b = a->bins[i];
    }
    bin_remove(a, b);
    if (!split_front(a, b, bytes)) {
        bin_push(a, b);
        return NULL;
    }
    b->state = BLOCK_USED;
    b->usable = usable;
    b->charged = charged;
    return a->base + b->off;
}

bool arena_find(struct arena *a, const void *p, struct arena_block *out)
{
    struct blk *b;
    uint64_t off = (uintptr_t)p - (uintptr_t)a->base;

    if (off >= a->capacity || (b = treap_floor(a, off)) == NULL || off - b->off >= b->size)
        return false;
    *out = (struct arena_block){a->base + b->off, b->size, b->usable, b->charged, b->state};
    return true;
}

/* The block starting exactly at p, or NULL. */
static struct blk *block_at(struct arena *a, const void *p)
{
    uint64_t off = (uintptr_t)p - (uintptr_t)a->base;
    struct blk *b;
    if (off >= a->capacity || (b = treap_floor(a, off)) == NULL || b->off != off)
        return NULL;
    return b;
}

bool arena_next(struct arena *a, const void *after, struct arena_block *out)
{
    struct blk *b;
    if (after == NULL) {
        b = treap_floor(a, 0);
    } else {
        uint64_t off = (uintptr_t)after - (uintptr_t)a->base;
        b = off < a->capacity ? treap_floor(a, off) : NULL;
        b = b != NULL ? b->next : NULL;
    }
    if (b == NULL)
        return false;
    *out = (struct arena_block){a->base + b->off, b->size, b->usable, b->charged, b->state};
    return true;
}

bool arena_retire(struct arena *a, void *p)
{
    struct blk *b = block_at(a, p);
    if (b == NULL || b->state != BLOCK_USED)
        return false;
    b->state = BLOCK_QUARANTINED;
    return true;
}

/* Folds `gone`, keep's right neighbour and in no bin, into keep. */
static void merge_into(struct arena *a, struct blk *keep, struct blk *gone)
{
    treap_erase(a, gone);
    keep->size += gone->size;
    keep->next = gone->next;
    if (gone->next != NULL)
        gone->next->prev = keep;
    blk_put(a, gone);
}

bool arena_reclaim(struct arena *a, void *p)
{
    struct blk *b = block_at(a, p);
    if (b == NULL || b->state == BLOCK_FREE)
        return false;
    b->state = BLOCK_FREE;
    if (b->next != NULL && b->next->state == BLOCK_FREE) {
        bin_remove(a, b->next);
        merge_into(a, b, b->next);
    }
    if (b->prev != NULL && b->prev->state == BLOCK_FREE) {
        struct blk *prev = b->prev;
        bin_remove(a, prev);
        merge_into(a, prev, b);
        b = prev;
    }
    bin_push(a, b);
    return true;
}

void arena_claim_cold(struct arena *a, void *p, size_t len, uint64_t limit, void **from, size_t *len_out)
{
    uint64_t off = (uintptr_t)p - (uintptr_t)a->base;
    uint64_t first = UINT64_MAX, last = 0;

    *from = NULL;
    *len_out = 0;
    if (len == 0 || off >= a->capacity)
        return;
    for (uint64_t c = off >> CHUNK_SHIFT; c <= (off + len - 1) >> CHUNK_SHIFT; c++) {
        uint64_t bit = 1ull << (c % 64);
        if ((a->chunk_backed[c / 64] & bit) != 0)
            continue;
        if (a->backed + (1ull << CHUNK_SHIFT) > limit)
            break;
        a->chunk_backed[c / 64] |= bit;
        a->backed += 1ull << CHUNK_SHIFT;
        if (first == UINT64_MAX)
            first = c;
        last = c;
    }
    if (first == UINT64_MAX)
        return;
    *from = a->base + (first << CHUNK_SHIFT);
    *len_out = (size_t)((last - first + 1) << CHUNK_SHIFT);
}

void arena_populate(void *p, size_t len, const void *block, size_t block_len)
{
    uintptr_t lo, hi;

    if (len == 0)
        return;
    (void)plat_vm_populate(p, len); /* an old kernel: pages fault in on first touch */
    /* Some hypervisors back a guest page only at its first store from the
     * guest, which the kernel's zeroing does not count as: store once to
     * each page of the block itself (fresh memory: zeros stay zeros). Pages
     * the block shares with a neighbour are left alone: another thread may
     * be writing there. */
    lo = ((uintptr_t)block + 4095) & ~(uintptr_t)4095;
    hi = ((uintptr_t)block + block_len) & ~(uintptr_t)4095;
    if (lo < (uintptr_t)p)
        lo = (uintptr_t)p;
    if (hi > (uintptr_t)p + len)
        hi = (uintptr_t)p + len;
    for (uintptr_t at = lo; at < hi; at += 4096)
        *(volatile unsigned char *)at = 0;
}
