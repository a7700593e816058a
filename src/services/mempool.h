/*
 * mempool.h - stream-ordered memory pools (aclrtMemPool*): blocks of a
 * device's memory handed out and taken back in stream order.
 */
#ifndef ACLCPU_MEMPOOL_H
#define ACLCPU_MEMPOOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"

#define MEMPOOL_BLOCK ((size_t)2 << 20) /* blocks are multiples of 2 MiB, as the device's */

/* A pool of at most max_size bytes of device memory, charged to the
 * device's counter (*used, of total) as devmem_alloc charges. Its handle in
 * *out; 207001 when no slot or memory is left. */
aclError mempool_create(int32_t device, _Atomic uint64_t *used, uint64_t total, size_t max_size, void **out);
/* Whether h names a live pool. */
bool mempool_live(const void *h);
/* 507000: not a live pool, or blocks of it are in use or waiting for a free. */
aclError mempool_destroy(const void *h);
/* size bytes (rounded up to MEMPOOL_BLOCK) for work on stream (an opaque
 * key): a free block, or one whose free is queued on that same stream,
 * else new memory. 507000 when the pool is gone or full, or the device
 * has no memory left. */
aclError mempool_alloc(const void *h, size_t size, const void *stream, void **out);
/* How a free of ptr on stream starts (mempool_free_begin). */
enum pool_free_start { POOL_FREE_QUEUED, POOL_FREE_NOT_POOL, POOL_FREE_NOT_BLOCK };
/* Marks the pool block starting at ptr as freed on stream and gives the
 * ticket its free task carries (and the block's size): POOL_FREE_NOT_POOL if ptr is in no pool,
 * POOL_FREE_NOT_BLOCK if it is inside one but no block in use starts
 * there (an interior pointer, or freed already). */
enum pool_free_start mempool_free_begin(void *ptr, const void *stream, uint64_t *ticket, size_t *size);
/* The free task of (ptr, ticket) ran or was dropped: the block is free
 * for every stream, unless its stream took it back meanwhile. (Ticket 0,
 * an aclrtMalloc block freed on a stream, is core/task.c's to free.) */
void mempool_block_freed(void *ptr, uint64_t ticket);
/* The free task of (ptr, ticket) was refused by its stream: the block is
 * in use again, unless another stream took it in the meantime. */
void mempool_free_cancel(void *ptr, uint64_t ticket);
/* Frees free blocks until the pool holds at most keep bytes. */
aclError mempool_trim(const void *h, size_t keep);
/* Attributes (aclrtMemPoolAttr): value is an int for the REUSE ones, a
 * uint64_t for the others. 107000: read-only, out of range, or a HIGH mark
 * set to anything but 0. */
aclError mempool_set_attr(const void *h, int attr, const void *value);
aclError mempool_get_attr(const void *h, int attr, void *value);
size_t mempool_count(void);
/* Frees the pools of device (its close), or of every device (-1). */
void mempool_release_device(int32_t device);

#endif
