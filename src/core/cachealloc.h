/*
 * cachealloc.h - the stream-ordered caching allocator (cachealloc.c): blocks
 * carved from device memory segments, kept per stream after a free, and
 * held back from reuse while other streams recorded as users still have
 * work queued from before the free.
 */
#ifndef ACLCPU_CORE_CACHEALLOC_H
#define ACLCPU_CORE_CACHEALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* The framework's sizes: every request is rounded up to CACHE_MIN_BLOCK;
 * rounded requests up to CACHE_SMALL_SIZE come from the small pool, whose
 * segments are CACHE_SMALL_SEGMENT; larger ones from the large pool, in
 * CACHE_LARGE_SEGMENT segments below CACHE_MIN_LARGE_ALLOC, else in a
 * segment of their own rounded up to CACHE_ROUND_LARGE. */
#define CACHE_MIN_BLOCK ((size_t)512)
#define CACHE_SMALL_SIZE ((size_t)1 << 20)
#define CACHE_SMALL_SEGMENT ((size_t)2 << 20)
#define CACHE_LARGE_SEGMENT ((size_t)20 << 20)
#define CACHE_MIN_LARGE_ALLOC ((size_t)10 << 20)
#define CACHE_ROUND_LARGE ((size_t)2 << 20)
/* The largest request whose rounding cannot wrap a size_t. */
#define CACHE_MAX_REQUEST (SIZE_MAX - CACHE_ROUND_LARGE)

/* The size a request of n bytes takes (n <= CACHE_MAX_REQUEST). */
size_t cachealloc_round(size_t n);
/* The segment a rounded size would make when no cached block fits. */
size_t cachealloc_segment_size(size_t rounded);

/* Counters of a device, or of one stream on it. */
struct cache_stats {
    uint64_t allocated;       /* bytes of blocks handed out (rounded sizes) */
    uint64_t requested;       /* the bytes those blocks were asked for */
    uint64_t reserved;        /* bytes of segments held */
    uint64_t peak_allocated;
    uint64_t peak_reserved;
    uint64_t active_blocks;   /* handed out and not freed */
    uint64_t pending_blocks;  /* freed, waiting for recorded streams' work */
    uint64_t segments;        /* segments held */
    uint64_t allocs;          /* blocks handed out, ever */
    uint64_t segment_allocs;  /* segments taken from device memory, ever */
    uint64_t segment_frees;   /* segments given back, ever */
};

/* What a pointer is to the cache. */
enum cache_find {
    CACHE_LIVE,        /* the start of a block handed out */
    CACHE_FREED,       /* the start of a block freed already (pending, or cached) */
    CACHE_INSIDE,      /* inside a segment, but no block handed out starts there */
    CACHE_NOT_OURS,    /* no segment of the cache holds it */
};

/* Hands out a block of at least size bytes (0 < size <= CACHE_MAX_REQUEST)
 * for use on stream s, of s's device: from s's cached blocks if one fits,
 * else from a new segment. 207001 if the device's memory has no room even
 * after the free segments of the device are given back. */
aclError cachealloc_malloc(struct stream *s, size_t size, void **out);
/* Frees the block p starts (*found says what p was when it is not a live
 * block: then nothing changes and 207002 is returned). The block goes back
 * to its stream's pool at once, or, if other streams were recorded as its
 * users, once each has done the work queued to it now. */
aclError cachealloc_free(void *p, enum cache_find *found);
/* Records that stream s uses the live block p (no-op for its own stream or
 * a stream recorded already). 107000 with *found set if p is no live
 * block; *other_device set (and 107000) if s is of another device. */
aclError cachealloc_record_stream(void *p, struct stream *s, enum cache_find *found, bool *other_device);
/* Takes s off p's users: p live or freed and pending (then the block may
 * go back to its pool now). As record for errors; a stream not recorded
 * is no error. */
aclError cachealloc_erase_stream(void *p, struct stream *s, enum cache_find *found, bool *other_device);
/* The counters of device id (all its streams), or of stream s alone. */
void cachealloc_device_stats(int32_t id, struct cache_stats *out);
void cachealloc_stream_stats(struct stream *s, struct cache_stats *out);
/* Gives back to device memory every segment of device id that is wholly
 * free (no block handed out or pending); how many bytes. */
uint64_t cachealloc_empty(int32_t id);
/* Whether p lies in a segment of the cache (aclrtFree refuses those). */
bool cachealloc_owns(const void *p);
/* The device is closing (its memory goes): forgets its segments. */
void cachealloc_forget_device(int32_t id);

#endif
