/*
 * mempool.c - stream-ordered memory pools.
 *
 * DESIGN: a pool is a list of blocks of one device's memory (devmem_alloc,
 * multiples of 2 MiB, charged to the device like any aclrtMalloc). A block
 * is USED (handed out), PENDING (freed on a stream, whose free task has not
 * been released yet) or FREE. Stream order is what makes reuse safe: a
 * block PENDING on stream s may go back out at once for work on s, which
 * runs after the free's predecessors; any other stream gets it only once
 * the free task is released (run, or dropped with its stream), which is
 * when mempool_block_freed makes it FREE. Each hand-out bumps the block's
 * ticket, so the free task of an earlier use that s took back finds a
 * newer ticket and does nothing.
 *
 * Pools are named by handles that are never pointers: a tag, a generation
 * and a slot, so a destroyed or made-up handle is refused, never followed.
 * Blocks stay reserved until aclrtMemPoolTrimTo, the pool's destruction or
 * its device's close (the release threshold is kept and reported only).
 *
 * Threads: any host thread; stream workers (mempool_block_freed, from a
 * free task's release). Locks: pool_lock (rank: lockrank.h); devmem's
 * mem_lock is taken inside it.
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "devmem.h"
#include "mempool.h"

#define MAX_POOLS 1024u
#define HANDLE_TAG UINT64_C(0xA5)
#define GEN_MASK 0xFFFFFFFu

enum block_state { B_USED, B_PENDING, B_FREE };

struct block {
    uintptr_t base;
    size_t size;
    enum block_state state;
    const void *stream; /* PENDING: the stream its free is queued on */
    uint64_t ticket;    /* bumped at each hand-out; never 0 */
};

struct pool {
    uint32_t gen;
    int32_t device;
    _Atomic uint64_t *dev_used;
    uint64_t dev_total;
    size_t max_size;
    int reuse[3]; /* the REUSE_* attributes */
    uint64_t release_threshold;
    uint64_t reserved, reserved_high, used, used_high;
    struct block *blocks;
    size_t nblocks, cap;
};

static plat_mutex pool_lock;
static struct pool *pools[MAX_POOLS];
static uint32_t gens[MAX_POOLS]; /* survives the pool: a slot's next generation */
static size_t npools;

__attribute__((constructor)) static void mempool_init(void) { plat_mutex_init(&pool_lock, LOCK_MEMPOOL); }

static void *handle_of(uint32_t slot, uint32_t gen)
{
    return (void *)(uintptr_t)((HANDLE_TAG << 56) | ((uint64_t)(gen & GEN_MASK) << 20) | slot);
}

/* Called with pool_lock held: the pool h names, or NULL. */
static struct pool *resolve_locked(const void *h)
{
    PLAT_ASSERT_HELD(&pool_lock);
    uint64_t v = (uint64_t)(uintptr_t)h;
    uint32_t slot = (uint32_t)(v & 0xFFFFF);
    if ((v >> 56) != HANDLE_TAG || slot >= MAX_POOLS || pools[slot] == NULL)
        return NULL;
    return pools[slot]->gen == ((v >> 20) & GEN_MASK) ? pools[slot] : NULL;
}

aclError mempool_create(int32_t device, _Atomic uint64_t *used, uint64_t total, size_t max_size, void **out)
{
    struct pool *p = acl_calloc(1, sizeof(*p));
    uint32_t slot = 0;

    if (p == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    *p = (struct pool){.device = device, .dev_used = used, .dev_total = total, .max_size = max_size,
                       .reuse = {1, 1, 1}};
    plat_mutex_lock(&pool_lock);
    while (slot < MAX_POOLS && pools[slot] != NULL)
        slot++;
    if (slot < MAX_POOLS) {
        p->gen = ++gens[slot] & GEN_MASK;
        pools[slot] = p;
        npools++;
        *out = handle_of(slot, p->gen);
    }
    plat_mutex_unlock(&pool_lock);
    if (slot == MAX_POOLS) {
        acl_free(p);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    return ACL_SUCCESS;
}

bool mempool_live(const void *h)
{
    bool live;
    plat_mutex_lock(&pool_lock);
    live = resolve_locked(h) != NULL;
    plat_mutex_unlock(&pool_lock);
    return live;
}

/* Called with pool_lock held: gives block i of p back to the device. */
static void drop_block_locked(struct pool *p, size_t i)
{
    PLAT_ASSERT_HELD(&pool_lock);
    (void)devmem_free((void *)p->blocks[i].base, true);
    p->reserved -= p->blocks[i].size;
    if (p->blocks[i].state == B_USED)
        p->used -= p->blocks[i].size;
    p->blocks[i] = p->blocks[--p->nblocks];
}

/* Called with pool_lock held: frees the pool in slot (every block). */
static void free_pool_locked(uint32_t slot)
{
    PLAT_ASSERT_HELD(&pool_lock);
    struct pool *p = pools[slot];
    while (p->nblocks > 0)
        drop_block_locked(p, p->nblocks - 1);
    acl_free(p->blocks);
    acl_free(p);
    pools[slot] = NULL;
    npools--;
}

aclError mempool_destroy(const void *h)
{
    struct pool *p;
    aclError err = ACL_SUCCESS;
    plat_mutex_lock(&pool_lock);
    p = resolve_locked(h);
    if (p == NULL) {
        err = ACL_ERROR_RT_INTERNAL_ERROR;
    } else {
        for (size_t i = 0; i < p->nblocks; i++)
            if (p->blocks[i].state != B_FREE)
                err = ACL_ERROR_RT_INTERNAL_ERROR;
        if (err == ACL_SUCCESS)
            free_pool_locked((uint32_t)((uintptr_t)h & 0xFFFFF));
    }
    plat_mutex_unlock(&pool_lock);
    return err;
}

/* Called with pool_lock held: the smallest block of p that stream may
 * take for need bytes, or p->nblocks. */
static size_t best_fit_locked(struct pool *p, size_t need, const void *stream)
{
    PLAT_ASSERT_HELD(&pool_lock);
    size_t best = p->nblocks;
    for (size_t i = 0; i < p->nblocks; i++) {
        const struct block *b = &p->blocks[i];
        bool takable = b->state == B_FREE || (b->state == B_PENDING && b->stream == stream);
        if (takable && b->size >= need && (best == p->nblocks || b->size < p->blocks[best].size))
            best = i;
    }
    return best;
}

/* Called with pool_lock held: frees FREE blocks of p until reserved <= keep. */
static void trim_locked(struct pool *p, size_t keep)
{
    PLAT_ASSERT_HELD(&pool_lock);
    for (size_t i = p->nblocks; i-- > 0 && p->reserved > keep;) {
        if (p->blocks[i].state == B_FREE)
            drop_block_locked(p, i);
    }
}

/* Called with pool_lock held: a new block of need bytes at the end of p's list. */
static aclError new_block_locked(struct pool *p, size_t need)
{
    PLAT_ASSERT_HELD(&pool_lock);
    void *mem;
    if (need > p->max_size || p->reserved > p->max_size - need)
        trim_locked(p, p->max_size - need); /* make room from free blocks first */
    if (need > p->max_size || p->reserved > p->max_size - need)
        return ACL_ERROR_RT_INTERNAL_ERROR;
    if (p->nblocks == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 8;
        struct block *nb = acl_realloc(p->blocks, ncap * sizeof(*nb));
        if (nb == NULL)
            return ACL_ERROR_RT_INTERNAL_ERROR;
        p->blocks = nb;
        p->cap = ncap;
    }
    if (devmem_alloc(p->dev_used, p->dev_total, need, &mem) != ACL_SUCCESS)
        return ACL_ERROR_RT_INTERNAL_ERROR;
    p->blocks[p->nblocks++] = (struct block){(uintptr_t)mem, need, B_FREE, NULL, 0};
    p->reserved += need;
    if (p->reserved > p->reserved_high)
        p->reserved_high = p->reserved;
    return ACL_SUCCESS;
}

aclError mempool_alloc(const void *h, size_t size, const void *stream, void **out)
{
    struct pool *p;
    size_t need = (size + (MEMPOOL_BLOCK - 1)) & ~(MEMPOOL_BLOCK - 1), i;
    aclError err = ACL_SUCCESS;

    plat_mutex_lock(&pool_lock);
    p = resolve_locked(h);
    if (p == NULL) {
        err = ACL_ERROR_RT_INTERNAL_ERROR;
        goto out;
    }
    i = best_fit_locked(p, need, stream);
    if (i == p->nblocks) {
        err = new_block_locked(p, need);
        if (err != ACL_SUCCESS)
            goto out;
        i = p->nblocks - 1;
    }
    p->blocks[i].state = B_USED;
    p->blocks[i].stream = NULL;
    p->blocks[i].ticket++;
    p->used += p->blocks[i].size; /* the block's size, not the request's */
    if (p->used > p->used_high)
        p->used_high = p->used;
    *out = (void *)p->blocks[i].base;
out:
    plat_mutex_unlock(&pool_lock);
    return err;
}

/* Called with pool_lock held: the pool block holding a (*pool, *index), or false. */
static bool find_block_locked(uintptr_t a, struct pool **pool, size_t *index)
{
    PLAT_ASSERT_HELD(&pool_lock);
    size_t seen = 0;
    for (uint32_t s = 0; s < MAX_POOLS && seen < npools; s++) {
        struct pool *p = pools[s];
        seen += p != NULL;
        for (size_t i = 0; p != NULL && i < p->nblocks; i++) {
            if (a >= p->blocks[i].base && a - p->blocks[i].base < p->blocks[i].size) {
                *pool = p;
                *index = i;
                return true;
            }
        }
    }
    return false;
}

enum pool_free_start mempool_free_begin(void *ptr, const void *stream, uint64_t *ticket, size_t *size)
{
    struct pool *p;
    size_t i;
    enum pool_free_start start = POOL_FREE_NOT_POOL;

    plat_mutex_lock(&pool_lock);
    if (find_block_locked((uintptr_t)ptr, &p, &i)) {
        struct block *b = &p->blocks[i];
        start = POOL_FREE_NOT_BLOCK;
        if (b->base == (uintptr_t)ptr && b->state == B_USED) {
            b->state = B_PENDING;
            b->stream = stream;
            p->used -= b->size;
            *ticket = b->ticket;
            *size = b->size;
            start = POOL_FREE_QUEUED;
        }
    }
    plat_mutex_unlock(&pool_lock);
    return start;
}

void mempool_block_freed(void *ptr, uint64_t ticket)
{
    struct pool *p;
    size_t i;

    plat_mutex_lock(&pool_lock);
    if (find_block_locked((uintptr_t)ptr, &p, &i) && p->blocks[i].ticket == ticket &&
        p->blocks[i].state == B_PENDING) {
        p->blocks[i].state = B_FREE;
        p->blocks[i].stream = NULL;
    }
    plat_mutex_unlock(&pool_lock);
}

void mempool_free_cancel(void *ptr, uint64_t ticket)
{
    struct pool *p;
    size_t i;
    plat_mutex_lock(&pool_lock);
    if (ticket != 0 && find_block_locked((uintptr_t)ptr, &p, &i) && p->blocks[i].ticket == ticket &&
        p->blocks[i].state != B_USED) {
        p->blocks[i].state = B_USED;
        p->blocks[i].stream = NULL;
        p->used += p->blocks[i].size;
    }
    plat_mutex_unlock(&pool_lock);
}

aclError mempool_trim(const void *h, size_t keep)
{
    struct pool *p;
    plat_mutex_lock(&pool_lock);
    p = resolve_locked(h);
    if (p != NULL)
        trim_locked(p, keep);
    plat_mutex_unlock(&pool_lock);
    return p != NULL ? ACL_SUCCESS : ACL_ERROR_RT_INTERNAL_ERROR;
}

aclError mempool_set_attr(const void *h, int attr, const void *value)
{
    struct pool *p;
    aclError err = ACL_SUCCESS;
    int flag;
    uint64_t v;

    plat_mutex_lock(&pool_lock);
    p = resolve_locked(h);
    if (p == NULL) {
        err = ACL_ERROR_RT_PARAM_INVALID;
    } else if (attr >= ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
               attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        memcpy(&flag, value, sizeof(flag));
        p->reuse[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES] = flag != 0;
    } else if (attr == ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD) {
        memcpy(&p->release_threshold, value, sizeof(uint64_t));
    } else if (attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH || attr == ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH) {
        memcpy(&v, value, sizeof(v));
        if (v != 0) /* a high mark can only be reset, to the current value */
            err = ACL_ERROR_RT_PARAM_INVALID;
        else if (attr == ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH)
            p->reserved_high = p->reserved;
        else
            p->used_high = p->used;
    } else { /* the CURRENT ones are read-only; anything else is no attribute */
        err = ACL_ERROR_RT_PARAM_INVALID;
    }
    plat_mutex_unlock(&pool_lock);
    return err;
}

aclError mempool_get_attr(const void *h, int attr, void *value)
{
    struct pool *p;
    aclError err = ACL_SUCCESS;
    uint64_t v = 0;
    int flag;

    plat_mutex_lock(&pool_lock);
    p = resolve_locked(h);
    if (p == NULL) {
        err = ACL_ERROR_RT_PARAM_INVALID;
    } else if (attr >= ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES &&
               attr <= ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES) {
        flag = p->reuse[attr - ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES];
        memcpy(value, &flag, sizeof(flag));
    } else {
        switch (attr) {
        case ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD: v = p->release_threshold; break;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT: v = p->reserved; break;
        case ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH: v = p->reserved_high; break;
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT: v = p->used; break;
        case ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH: v = p->used_high; break;
        default: err = ACL_ERROR_RT_PARAM_INVALID; break;
        }
        if (err == ACL_SUCCESS)
            memcpy(value, &v, sizeof(v));
    }
    plat_mutex_unlock(&pool_lock);
    return err;
}

size_t mempool_count(void)
{
    size_t n;
    plat_mutex_lock(&pool_lock);
    n = npools;
    plat_mutex_unlock(&pool_lock);
    return n;
}

void mempool_release_device(int32_t device)
{
    plat_mutex_lock(&pool_lock);
    for (uint32_t s = 0; s < MAX_POOLS && npools > 0; s++) {
        if (pools[s] != NULL && (device < 0 || pools[s]->device == device))
            free_pool_locked(s);
    }
    plat_mutex_unlock(&pool_lock);
}
