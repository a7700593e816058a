/*
 * handle.c - the handle table that turns user handles into checked objects.
 *
 * DESIGN: one table per object type, each an array of chunk pointers that
 * never moves, so resolving is two loads and a compare with no lock (inline,
 * in handle.h). Slots are created under the table's lock and published with
 * release stores; resolvers use acquire loads. Object memory is never freed (see handle.h):
 * the table keeps every object it ever made, and live counts are bounded
 * by the caps each type enforces (streams, events, ...). Objects start on
 * a cache line, so the per-line layout of struct stream holds.
 *
 * Threads: any (resolution is lock-free; creation and recycling lock).
 * Locks: one per table, the innermost mutex (lockrank.h).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "handle.h"

#define QUARANTINE 64u /* destroyed objects held back before reuse, per type */

/* Resolvers read these without a lock (obj_resolve, handle.h); kept apart
 * from the tables' locks and counters, which creation writes. */
_Atomic(_Atomic(struct obj_header *) *) obj_chunks[OBJ_TYPE_COUNT][OBJ_MAX_CHUNKS];

struct table {
    plat_mutex lock;
    uint32_t slots;                /* slots ever made, under lock */
    struct obj_header *free_head;  /* destroyed objects, oldest first, under lock */
    struct obj_header *free_tail;
    uint32_t free_count;
    _Atomic uint32_t live;         /* statistics only: relaxed */
};

static struct table tables[OBJ_TYPE_COUNT];

/* Called once, from the library constructor. */
__attribute__((constructor)) static void tables_init(void)
{
    for (int i = 0; i < OBJ_TYPE_COUNT; i++)
        plat_mutex_init(&tables[i].lock, LOCK_HANDLE);
}

/* Zeroed memory for an object of size bytes, starting on a cache line. */
static void *alloc_zeroed_lines(size_t size)
{
    size_t rounded = (size + ACLCPU_CACHE_LINE - 1) & ~(size_t)(ACLCPU_CACHE_LINE - 1);
    void *p = acl_aligned_alloc(ACLCPU_CACHE_LINE, rounded);
    if (p != NULL)
        memset(p, 0, rounded);
    return p;
}

static struct obj_header *new_slot(struct table *t, enum obj_type type, size_t size)
{
    uint32_t idx = t->slots;
    uint32_t c = idx >> OBJ_CHUNK_SHIFT;
    _Atomic(struct obj_header *) *chunk;
    struct obj_header *h;

    if (c >= OBJ_MAX_CHUNKS)
        return NULL;
    chunk = load_relaxed(&obj_chunks[type][c]); /* written under t->lock only */
    if (chunk == NULL) {
        chunk = acl_calloc(OBJ_CHUNK_SIZE, sizeof(*chunk));
        if (chunk == NULL)
            return NULL;
        /* Release: a resolver that loads this chunk sees it zeroed. */
        store_release(&obj_chunks[type][c], chunk);
    }
    h = alloc_zeroed_lines(size);
    if (h == NULL)
        return NULL;
    h->type = (uint8_t)type;
    h->index = idx;
    store_relaxed(&h->gen, 1);
    /* Release: publishes type and index before the slot becomes visible. */
    store_release(&chunk[idx & (OBJ_CHUNK_SIZE - 1)], h);
    t->slots = idx + 1;
    return h;
}

void *obj_create(enum obj_type type, size_t size, size_t clear_from, bool *fresh)
{
    struct table *t = &tables[type];
    struct obj_header *h;

    plat_mutex_lock(&t->lock);
    /* Reuse only the oldest of more than QUARANTINE destroyed objects: a
     * thread still using a handle it raced with a destroy keeps reading
     * the dead object (and failing its generation check) long before the
     * memory is handed to a new object. */
    h = t->free_count > QUARANTINE ? t->free_head : NULL;
    if (h != NULL) {
        t->free_head = h->free_next;
        if (t->free_head == NULL)
            t->free_tail = NULL;
        t->free_count--;
        *fresh = false;
        /* Zero the body from clear_from on; the header keeps its slot and
         * generation, and the members before clear_from (locks, futex
         * words) stay valid for threads that still hold a stale pointer. */
        memset((char *)h + clear_from, 0, size - clear_from);
        h->free_next = NULL;
        store_relaxed(&h->hidden, false);
    } else {
        h = new_slot(t, type, size);
        *fresh = true;
    }
    plat_mutex_unlock(&t->lock);
    return h;
}

void obj_publish(struct obj_header *h)
{
    fetch_add_relaxed(&tables[h->type].live, 1);
    /* Release: the object's fields are initialised before it resolves. */
    store_release(&h->ready, true);
    store_release(&h->live, true);
}

void obj_kill(struct obj_header *h)
{
    store_release(&h->live, false);
    /* Release pairs with the resolver's acquire on gen. */
    fetch_add_release(&h->gen, 1);
    fetch_sub_relaxed(&tables[h->type].live, 1);
}

void obj_recycle(struct obj_header *h)
{
    struct table *t = &tables[h->type];
    plat_mutex_lock(&t->lock);
    h->free_next = NULL;
    if (t->free_tail != NULL)
        t->free_tail->free_next = h;
    else
        t->free_head = h;
    t->free_tail = h;
    t->free_count++;
    plat_mutex_unlock(&t->lock);
}

void *obj_handle(const struct obj_header *h)
{
    uint64_t gen = load_relaxed(&h->gen) & OBJ_GEN_MASK;
    uint64_t v = ((uint64_t)OBJ_HANDLE_TAG << 56) | ((uint64_t)h->type << OBJ_TYPE_SHIFT) | (gen << 32) | h->index;
    return (void *)(uintptr_t)v;
}

uint32_t obj_count(enum obj_type type) { return load_relaxed(&tables[type].live); }

uint32_t obj_slot_count(enum obj_type type)
{
    uint32_t n;
    plat_mutex_lock(&tables[type].lock);
    n = tables[type].slots;
    plat_mutex_unlock(&tables[type].lock);
    return n;
}

struct obj_header *obj_header_at(enum obj_type type, uint32_t index)
{
    uint32_t c = index >> OBJ_CHUNK_SHIFT;
    _Atomic(struct obj_header *) *chunk;
    if (c >= OBJ_MAX_CHUNKS)
        return NULL;
    /* Acquire: as in obj_resolve. */
    chunk = load_acquire(&obj_chunks[type][c]);
    return chunk != NULL ? load_acquire(&chunk[index & (OBJ_CHUNK_SIZE - 1)]) : NULL;
}

void *obj_handle_at(enum obj_type type, uint32_t index)
{
    uint32_t c = index >> OBJ_CHUNK_SHIFT;
    _Atomic(struct obj_header *) *chunk;
    struct obj_header *h;
    if (c >= OBJ_MAX_CHUNKS)
        return NULL;
    /* Acquire: as in obj_resolve. */
    chunk = load_acquire(&obj_chunks[type][c]);
    h = chunk != NULL ? load_acquire(&chunk[index & (OBJ_CHUNK_SIZE - 1)]) : NULL;
    if (h == NULL || !load_acquire(&h->live))
        return NULL;
    return obj_handle(h);
}
