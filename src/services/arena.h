/*
 * arena.h - one device's memory: an address range of its own, backed by a
 * memory file, carved into blocks by an allocator whose books live apart
 * from the memory it hands out.
 *
 * The caller serialises every call on one arena (devmem.c holds mem_lock);
 * arena_populate is the exception: it only touches the kernel's page tables.
 */
#ifndef ACLCPU_ARENA_H
#define ACLCPU_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every block starts on and spans whole units: the reference aligns
 * device memory to 64 bytes. */
#define ARENA_UNIT 64u

enum block_state {
    BLOCK_FREE,
    BLOCK_USED,
    BLOCK_QUARANTINED, /* freed, but tasks issued before the free may still touch it */
};

/* What the arena knows of a block, and the two numbers its owner keeps
 * there (the arena only stores them). */
struct arena_block {
    void *base;
    size_t size;    /* bytes the block spans: a multiple of ARENA_UNIT */
    size_t usable;  /* owner's: what the program may touch */
    size_t charged; /* owner's: what it counts against the device's budget */
    enum block_state state;
};

struct arena;

/* An arena of up to `capacity` bytes (rounded up to 2 MiB). Where the host
 * refuses that much address space (valgrind allows about 32 GiB in all),
 * it takes the largest half of it it can get, down to 64 MiB; NULL if not
 * even that. */
struct arena *arena_create(uint64_t capacity);
/* Unmaps everything: every block is gone. */
void arena_destroy(struct arena *a);

bool arena_contains(const struct arena *a, const void *p);
uint64_t arena_capacity(const struct arena *a);
/* The memory file behind the arena; a block's file offset is its distance
 * from arena_base. */
int arena_fd(const struct arena *a);
void *arena_base(const struct arena *a);

/* A block of at least `bytes` (a multiple of ARENA_UNIT, not 0), in state
 * USED with the owner's numbers; NULL when no free range is large enough.
 * Reuses warm memory first. */
void *arena_carve(struct arena *a, size_t bytes, size_t usable, size_t charged);
/* The block holding p (of any state); false if p is in none. */
bool arena_find(struct arena *a, const void *p, struct arena_block *out);
/* The block after the one holding `after` in address order (NULL: the
 * first block), of any state; false when there is none. */
bool arena_next(struct arena *a, const void *after, struct arena_block *out);
/* USED -> QUARANTINED for the block starting exactly at p; false (nothing
 * changed) if no used block starts there. */
bool arena_retire(struct arena *a, void *p);
/* USED or QUARANTINED -> FREE for the block starting exactly at p, merged
 * with free neighbours; false if no such block starts there. */
bool arena_reclaim(struct arena *a, void *p);

/* Marks the 64 KiB chunks under [p, p+len) as backed and returns, in
 * *from and *len_out, the span the caller should back with memory now
 * (arena_populate, outside its lock): empty when all were backed already
 * or the arena has backed its limit. */
void arena_claim_cold(struct arena *a, void *p, size_t len, uint64_t limit, void **from, size_t *len_out);
/* Backs [p, p+len), the span arena_claim_cold returned for the block
 * [block, block+block_len) just carved, with memory now, so that first
 * touches do not fault. */
void arena_populate(void *p, size_t len, const void *block, size_t block_len);
/* Bytes backed so far (stays backed across frees: a caching allocator). */
uint64_t arena_backed(const struct arena *a);

#endif
