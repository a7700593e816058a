/*
 * cachealloc.c - the stream-ordered caching allocator: what frameworks on
 * Ascend put between tensors and aclrtMalloc (torch_npu's caching
 * allocator), in C.
 *
 * DESIGN: device memory is taken in segments (devmem_alloc, as aclrtMalloc
 * on the stream's device does) and carved into blocks. A segment belongs
 * to the stream whose request made it, and so do all its blocks: a freed
 * block is cached in that stream's pool and handed out again only to that
 * stream, at once, since the stream's own order keeps the old and the new
 * user apart. Sizes follow the framework: requests are rounded up to 512
 * bytes; up to 1 MiB they come from the small pool (2 MiB segments), above
 * from the large pool (20 MiB segments below 10 MiB, else a segment of the
 * request rounded up to 2 MiB). The best fit among the stream's free blocks
 * of the pool is taken (smallest, then lowest address) and split when the
 * rest is worth keeping (at least 512 bytes in the small pool, more than
 * 1 MiB in the large); a freed block merges with free neighbours of its
 * segment.
 *
 * Other streams that use a block are recorded (record_stream). Freeing such
 * a block makes it pending: for each recorded stream the count of tasks
 * issued to it at the free is kept (the fence an event recorded there at
 * that moment would be: it completes when the stream has done all work
 * issued before it), and the block goes back to its pool only when every
 * such stream has done that much (a stream being destroyed counts the
 * tasks it drops as done). No task is queued for this, so a stream being captured
 * or stopped is not disturbed. Pending blocks are looked at on every
 * allocation, stats query and empty of their device, as the framework
 * polls its events. erase_stream takes a stream off the users, and off a
 * pending block's fence.
 *
 * Segments of a destroyed stream stay cached (no stream can ask for them)
 * until an empty, or an allocation that finds the device's memory full,
 * gives free segments back; giving one back is an aclrtFree of it
 * (quarantine_free), so work still queued on it is waited for there.
 *
 * Threads: any host thread. Locks: cache_lock (rank: lockrank.h) over
 * everything here; a recorded stream's lock is taken inside it to read its
 * issued count, and devmem's and the quarantine's locks inside it when a
 * segment is taken or given back.
 */
#include "../services/devmem.h"
#include "cachealloc.h"
#include "check.h"

#define HASH_BUCKETS 4096u
#define BLOCK_FREE 0
#define BLOCK_LIVE 1
#define BLOCK_PENDING 2

/* A stream that uses a block; issued: its tasks issued at the block's free. */
struct use {
    struct stream *s;
    void *h;
    uint64_t issued;
};

/* The counters of one stream (or of a device: cdev.st), and the stream. */
struct sstat {
    struct sstat *next;
    struct stream *s;
    void *h;
    struct cache_stats c;
};

struct seg {
    struct seg *next;
    char *base;
    size_t size;
    struct sstat *st;  /* its stream's counters (st->h: the owner) */
    bool small;
};

struct cblock {
    char *ptr;
    size_t size;
    size_t requested;
    struct seg *seg;
    struct cblock *prev, *next;     /* neighbours in the segment, by address */
    struct cblock *lprev, *lnext;   /* the pool's free list, or the device's pending list */
    struct cblock *hnext;           /* the hash chain of live blocks */
    int32_t dev;
    uint8_t state;
    uint32_t nuses, cap;
    struct use *uses;
};

struct cdev {
    struct cblock *free_list[2]; /* [0] small pool, [1] large pool */
    struct cblock *pending;
    struct seg *segs;
    struct sstat *streams;
    struct sstat all;
};

static plat_mutex cache_lock;
static struct cdev devs[ACLCPU_MAX_DEVICES];
static struct cblock *live_hash[HASH_BUCKETS];
static _Atomic size_t seg_count; /* read without the lock: aclrtFree skips the lookup when 0 */
/* Block records kept for reuse (a split and a merge on every warm
 * allocation and free would otherwise cost a heap round trip each). */
#define SPARE_MAX 256u
static struct cblock *spare;
static size_t nspare;

__attribute__((constructor)) static void cachealloc_init(void) { plat_mutex_init(&cache_lock, LOCK_CACHEALLOC); }

size_t cachealloc_round(size_t n)
{
    if (n < CACHE_MIN_BLOCK)
        return CACHE_MIN_BLOCK;
    return (n + CACHE_MIN_BLOCK - 1) / CACHE_MIN_BLOCK * CACHE_MIN_BLOCK;
}

size_t cachealloc_segment_size(size_t rounded)
{
    if (rounded <= CACHE_SMALL_SIZE)
        return CACHE_SMALL_SEGMENT;
    if (rounded < CACHE_MIN_LARGE_ALLOC)
        return CACHE_LARGE_SEGMENT;
    return (rounded + CACHE_ROUND_LARGE - 1) / CACHE_ROUND_LARGE * CACHE_ROUND_LARGE;
}

static size_t hash_of(const void *p) { return ((uintptr_t)p >> 9) % HASH_BUCKETS; }

/* ---- counters ------------------------------------------------------------- */

static void add_allocated(struct cache_stats *c, int64_t bytes, int64_t requested)
{
    c->allocated = (uint64_t)((int64_t)c->allocated + bytes);
    c->requested = (uint64_t)((int64_t)c->requested + requested);
    if (c->allocated > c->peak_allocated)
        c->peak_allocated = c->allocated;
}

static void add_reserved(struct cache_stats *c, int64_t bytes)
{
    c->reserved = (uint64_t)((int64_t)c->reserved + bytes);
    if (c->reserved > c->peak_reserved)
        c->peak_reserved = c->reserved;
}

/* Called with cache_lock held: both counters a change goes to. */
#define BOTH(d, st, stmt)            \
    do {                             \
        struct cache_stats *c_ = &(d)->all.c; \
        stmt;                        \
        c_ = &(st)->c;               \
        stmt;                        \
    } while (0)

/* Called with cache_lock held: the counters of stream handle h on d, made
 * if missing (NULL when out of memory and make). */
static struct sstat *sstat_of_locked(struct cdev *d, struct stream *s, void *h, bool make)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct sstat *st;
    for (st = d->streams; st != NULL; st = st->next)
        if (st->h == h)
            return st;
    if (!make || (st = acl_calloc(1, sizeof(*st))) == NULL)
        return NULL;
    st->s = s;
    st->h = h;
    st->next = d->streams;
    d->streams = st;
    return st;
}

/* Called with cache_lock held: drops the counters of streams that hold nothing. */
static void sstat_trim_locked(struct cdev *d)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct sstat **link = &d->streams, *st;
    while ((st = *link) != NULL) {
        if (st->c.segments == 0 && st->c.active_blocks == 0 && st->c.pending_blocks == 0) {
            *link = st->next;
            acl_free(st);
        } else {
            link = &st->next;
        }
    }
}

/* ---- block records ------------------------------------------------------------ */

/* Called with cache_lock held: a zeroed block record (NULL: out of memory). */
static struct cblock *block_new_locked(void)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct cblock *b = spare;
    if (b == NULL)
        return acl_calloc(1, sizeof(*b));
    spare = b->lnext;
    nspare--;
    *b = (struct cblock){0};
    return b;
}

/* Called with cache_lock held: gives a block record back. */
static void block_put_locked(struct cblock *b)
{
    PLAT_ASSERT_HELD(&cache_lock);
    acl_free(b->uses);
    if (nspare == SPARE_MAX) {
        acl_free(b);
        return;
    }
    b->lnext = spare;
    spare = b;
    nspare++;
}

/* ---- lists ------------------------------------------------------------------ */

static void list_push(struct cblock **head, struct cblock *b)
{
    b->lprev = NULL;
    b->lnext = *head;
    if (*head != NULL)
        (*head)->lprev = b;
    *head = b;
}

static void list_take(struct cblock **head, struct cblock *b)
{
    if (b->lprev != NULL)
        b->lprev->lnext = b->lnext;
    else
        *head = b->lnext;
    if (b->lnext != NULL)
        b->lnext->lprev = b->lprev;
    b->lprev = b->lnext = NULL;
}

static void hash_put(struct cblock *b)
{
    size_t i = hash_of(b->ptr);
    b->hnext = live_hash[i];
    live_hash[i] = b;
}

static void hash_take(struct cblock *b)
{
    struct cblock **link = &live_hash[hash_of(b->ptr)];
    while (*link != b)
        link = &(*link)->hnext;
    *link = b->hnext;
    b->hnext = NULL;
}

static struct cblock *hash_find(const void *p)
{
    struct cblock *b;
    for (b = live_hash[hash_of(p)]; b != NULL; b = b->hnext)
        if (b->ptr == p)
            return b;
    return NULL;
}

/* Called with cache_lock held: the segment holding p, its device in *dev. */
static struct seg *seg_of_locked(const void *p, int32_t *dev)
{
    PLAT_ASSERT_HELD(&cache_lock);
    for (int32_t i = 0; i < ACLCPU_MAX_DEVICES; i++)
        for (struct seg *g = devs[i].segs; g != NULL; g = g->next)
            if ((const char *)p >= g->base && (const char *)p < g->base + g->size) {
                *dev = i;
                return g;
            }
    return NULL;
}

/* Called with cache_lock held: what p is when no live block starts there. */
static enum cache_find classify_locked(const void *p)
{
    PLAT_ASSERT_HELD(&cache_lock);
    int32_t dev;
    struct seg *g = seg_of_locked(p, &dev);
    struct cblock *b;
    if (g == NULL)
        return CACHE_NOT_OURS;
    for (int pool = 0; pool < 2; pool++)
        for (b = devs[dev].free_list[pool]; b != NULL; b = b->lnext)
            if (b->ptr == p)
                return CACHE_FREED;
    for (b = devs[dev].pending; b != NULL; b = b->lnext)
        if (b->ptr == p)
            return CACHE_FREED;
    return CACHE_INSIDE;
}

/* ---- blocks ----------------------------------------------------------------- */

/* Called with cache_lock held: puts a free block in its pool, merged with
 * the free neighbours of its segment. */
static void block_cache_locked(struct cdev *d, struct cblock *b)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct cblock **pool = &d->free_list[b->seg->small ? 0 : 1];
    struct cblock *n;
    b->state = BLOCK_FREE;
    b->nuses = 0;
    if ((n = b->prev) != NULL && n->state == BLOCK_FREE) {
        list_take(pool, n);
        b->ptr = n->ptr;
        b->size += n->size;
        b->prev = n->prev;
        if (b->prev != NULL)
            b->prev->next = b;
        block_put_locked(n);
    }
    if ((n = b->next) != NULL && n->state == BLOCK_FREE) {
        list_take(pool, n);
        b->size += n->size;
        b->next = n->next;
        if (b->next != NULL)
            b->next->prev = b;
        block_put_locked(n);
    }
    list_push(pool, b);
}

/* The generation a handle names. */
static uint32_t handle_gen(const void *handle) { return (uint32_t)((uintptr_t)handle >> 32) & OBJ_GEN_MASK; }

/* Whether a new stream lives in the memory of the one u recorded: the old
 * one's work was waited for or dropped before its memory was reused (a
 * stream being destroyed is already dead, but may still be draining). */
static bool use_replaced(const struct use *u)
{
    return (load_acquire(&u->s->hdr.gen) & OBJ_GEN_MASK) != handle_gen(u->h) && load_acquire(&u->s->hdr.live);
}

/* Whether a recorded stream has done what was issued to it at the free. */
static bool use_passed(const struct use *u)
{
    /* Acquire: the stream's tasks wrote before publishing done (squeue.h),
     * so a block handed out after this sees their writes finished. done
     * counts dropped tasks too, and outlives a destroy. */
    if (load_acquire(&u->s->done) >= u->issued)
        return true;
    return use_replaced(u);
}

/* Called with cache_lock held: pending blocks of d whose streams are done go back to their pools. */
static void poll_locked(struct cdev *d)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct cblock *b, *next;
    for (b = d->pending; b != NULL; b = next) {
        uint32_t i;
        next = b->lnext;
        for (i = 0; i < b->nuses && use_passed(&b->uses[i]); i++)
            ;
        if (i < b->nuses)
            continue;
        list_take(&d->pending, b);
        BOTH(d, b->seg->st, c_->pending_blocks--);
        block_cache_locked(d, b);
    }
}

/* Called with cache_lock held: the best free block of st's in the pool for size, or NULL. */
static struct cblock *best_fit_locked(struct cdev *d, const struct sstat *st, bool small, size_t size)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct cblock *best = NULL;
    for (struct cblock *b = d->free_list[small ? 0 : 1]; b != NULL; b = b->lnext) {
        if (b->seg->st != st || b->size < size)
            continue;
        if (best == NULL || b->size < best->size || (b->size == best->size && b->ptr < best->ptr))
            best = b;
    }
    return best;
}

/* Called with cache_lock held: gives back segment g of d (wholly free: its one block b). */
static void seg_release_locked(struct cdev *d, struct seg *g, struct cblock *b)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct seg **link = &d->segs;
    list_take(&d->free_list[g->small ? 0 : 1], b);
    while (*link != g)
        link = &(*link)->next;
    *link = g->next;
    BOTH(d, g->st, add_reserved(c_, -(int64_t)g->size); c_->segments--; c_->segment_frees++);
    fetch_sub_relaxed(&seg_count, 1);
    /* An aclrtFree of the segment: work its stream still has queued on it
     * keeps it out of reuse until done (quarantine.c). */
    if (!quarantine_free(g->base, true))
        LOGW("caching allocator: segment %p (%zu bytes) was no live device block", (void *)g->base, g->size);
    block_put_locked(b);
    acl_free(g);
}

/* Called with cache_lock held: gives back d's wholly free segments (the
 * streams' records stay: sstat_trim_locked drops those left empty). */
static uint64_t release_free_locked(struct cdev *d)
{
    PLAT_ASSERT_HELD(&cache_lock);
    uint64_t bytes = 0;
    struct seg *g, *next;
    for (g = d->segs; g != NULL; g = next) {
        struct cblock *b;
        next = g->next;
        /* The segment's only block, free, starts it: find it in the pool. */
        for (b = d->free_list[g->small ? 0 : 1]; b != NULL; b = b->lnext)
            if (b->seg == g)
                break;
        if (b == NULL || b->prev != NULL || b->next != NULL)
            continue;
        bytes += g->size;
        seg_release_locked(d, g, b);
    }
    return bytes;
}

/* Called with cache_lock held: a new segment for st holding one free block, in its pool. */
static aclError seg_new_locked(struct cdev *d, struct device *dev, struct sstat *st, bool small, size_t size,
                               struct cblock **out)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct seg *g = acl_calloc(1, sizeof(*g));
    struct cblock *b = block_new_locked();
    void *p = NULL;
    aclError err = g != NULL && b != NULL ? ACL_SUCCESS : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (err == ACL_SUCCESS) {
        err = devmem_alloc(&dev->mem_used, dev->mem_total, size, &p);
        if (err == ACL_ERROR_RT_MEMORY_ALLOCATION && release_free_locked(d) != 0) /* st keeps its record */
            err = devmem_alloc(&dev->mem_used, dev->mem_total, size, &p); /* once more, the cache given back */
    }
    if (err != ACL_SUCCESS) {
        acl_free(g);
        if (b != NULL)
            block_put_locked(b);
        return err;
    }
    *g = (struct seg){.next = d->segs, .base = p, .size = size, .st = st, .small = small};
    d->segs = g;
    b->ptr = p;
    b->size = size;
    b->seg = g;
    b->dev = dev->id;
    BOTH(d, st, add_reserved(c_, (int64_t)size); c_->segments++; c_->segment_allocs++);
    fetch_add_relaxed(&seg_count, 1);
    block_cache_locked(d, b);
    *out = b;
    return ACL_SUCCESS;
}

/* Called with cache_lock held: cuts b (free, in its pool) to size, the rest
 * staying in the pool, when the rest is worth keeping. */
static void split_locked(struct cdev *d, struct cblock *b, size_t size)
{
    PLAT_ASSERT_HELD(&cache_lock);
    size_t rest = b->size - size;
    struct cblock *r;
    if (b->seg->small ? rest < CACHE_MIN_BLOCK : rest <= CACHE_SMALL_SIZE)
        return;
    if ((r = block_new_locked()) == NULL)
        return; /* the whole block is handed out: correct, only less frugal */
    r->ptr = b->ptr + size;
    r->size = rest;
    r->seg = b->seg;
    r->dev = b->dev;
    r->state = BLOCK_FREE;
    r->prev = b;
    r->next = b->next;
    if (r->next != NULL)
        r->next->prev = r;
    b->next = r;
    b->size = size;
    list_push(&d->free_list[b->seg->small ? 0 : 1], r);
}

aclError cachealloc_malloc(struct stream *s, size_t size, void **out)
{
    struct device *dev = load_relaxed(&s->dev);
    struct cdev *d = &devs[dev->id];
    void *h = obj_handle(&s->hdr);
    size_t rounded = cachealloc_round(size);
    bool small = rounded <= CACHE_SMALL_SIZE;
    struct sstat *st;
    struct cblock *b;
    aclError err = ACL_SUCCESS;

    plat_mutex_lock(&cache_lock);
    poll_locked(d);
    st = sstat_of_locked(d, s, h, true);
    if (st == NULL)
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
    else if ((b = best_fit_locked(d, st, small, rounded)) == NULL)
        err = seg_new_locked(d, dev, st, small, cachealloc_segment_size(rounded), &b);
    if (err != ACL_SUCCESS) {
        if (st != NULL)
            sstat_trim_locked(d);
        plat_mutex_unlock(&cache_lock);
        return err;
    }
    list_take(&d->free_list[small ? 0 : 1], b);
    split_locked(d, b, rounded);
    b->state = BLOCK_LIVE;
    b->requested = size;
    b->nuses = 0;
    hash_put(b);
    BOTH(d, st, add_allocated(c_, (int64_t)b->size, (int64_t)size); c_->active_blocks++; c_->allocs++);
    *out = b->ptr;
    /* The block's own size: a rest too small to split off is handed out too. */
    rounded = b->size;
    plat_mutex_unlock(&cache_lock);
    /* A new lifetime of [*out, *out + rounded) on stream s (handle h). */
    if (check_on())
        check_cache_block(*out, rounded, h);
    return ACL_SUCCESS;
}

/* Called with cache_lock held: the uses of b (recorded streams) with the
 * fence each is at now; those already past it are dropped. */
static void fence_uses_locked(struct cblock *b)
{
    PLAT_ASSERT_HELD(&cache_lock);
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->nuses; i++) {
        struct use u = b->uses[i];
        if (use_replaced(&u))
            continue; /* destroyed, and its memory made into a new stream: its work is over */
        plat_spin_lock(&u.s->lock);
        u.issued = u.s->issued;
        plat_spin_unlock(&u.s->lock);
        if (!use_passed(&u))
            b->uses[n++] = u;
    }
    b->nuses = n;
}

/* Recorded streams the checker is told of at a free (more are rare; their
 * accesses would then be reported as reuse without record_stream). */
#define CHECKED_USES_MAX 16

aclError cachealloc_free(void *p, enum cache_find *found)
{
    struct cblock *b;
    struct cdev *d;
    size_t size, nrec;
    void *recorded[CHECKED_USES_MAX];

    plat_mutex_lock(&cache_lock);
    b = hash_find(p);
    if (b == NULL) {
        *found = classify_locked(p);
        plat_mutex_unlock(&cache_lock);
        return ACL_ERROR_RT_MEMORY_FREE;
    }
    *found = CACHE_LIVE;
    d = &devs[b->dev];
    size = b->size;
    hash_take(b);
    BOTH(d, b->seg->st, add_allocated(c_, -(int64_t)b->size, -(int64_t)b->requested); c_->active_blocks--);
    /* Every recorded stream, fenced or already past it: the checker orders
     * their work so far before the block's reuse. */
    for (nrec = 0; nrec < b->nuses && nrec < CHECKED_USES_MAX; nrec++)
        recorded[nrec] = b->uses[nrec].h;
    fence_uses_locked(b);
    if (b->nuses != 0) {
        b->state = BLOCK_PENDING;
        list_push(&d->pending, b);
        BOTH(d, b->seg->st, c_->pending_blocks++);
    } else {
        block_cache_locked(d, b);
    }
    plat_mutex_unlock(&cache_lock);
    /* The program's lifetime of [p, p + size) ends (the bytes are reused
     * only through a later hand-out, after the fence if one is pending). */
    if (check_on())
        check_cache_release(p, size, recorded, nrec);
    return ACL_SUCCESS;
}

/* Called with cache_lock held: the live block p for a use by s; an error
 * (and *found, *other_device) if p is none or s is of another device. */
static aclError use_target_locked(void *p, struct stream *s, bool pending_too, enum cache_find *found,
                                  bool *other_device, struct cblock **out)
{
    PLAT_ASSERT_HELD(&cache_lock);
    struct cblock *b = hash_find(p);
    *other_device = false;
    if (b == NULL && pending_too) {
        int32_t dev;
        if (seg_of_locked(p, &dev) != NULL)
            for (b = devs[dev].pending; b != NULL && b->ptr != p; b = b->lnext)
                ;
    }
    if (b == NULL) {
        *found = classify_locked(p);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    *found = b->state == BLOCK_LIVE ? CACHE_LIVE : CACHE_FREED;
    if (load_relaxed(&s->dev)->id != b->dev) {
        *other_device = true;
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    *out = b;
    return ACL_SUCCESS;
}

aclError cachealloc_record_stream(void *p, struct stream *s, enum cache_find *found, bool *other_device)
{
    void *h = obj_handle(&s->hdr);
    struct cblock *b;
    aclError err;

    plat_mutex_lock(&cache_lock);
    err = use_target_locked(p, s, false, found, other_device, &b);
    if (err != ACL_SUCCESS || b->seg->st->h == h)
        goto out; /* its own stream orders it already */
    for (uint32_t i = 0; i < b->nuses; i++)
        if (b->uses[i].h == h)
            goto out;
    if (b->nuses == b->cap) {
        uint32_t cap = b->cap != 0 ? b->cap * 2 : 4;
        struct use *grown = acl_realloc(b->uses, cap * sizeof(*grown));
        if (grown == NULL) {
            err = ACL_ERROR_RT_MEMORY_ALLOCATION;
            goto out;
        }
        b->uses = grown;
        b->cap = cap;
    }
    b->uses[b->nuses++] = (struct use){s, h, 0};
out:
    plat_mutex_unlock(&cache_lock);
    return err;
}

aclError cachealloc_erase_stream(void *p, struct stream *s, enum cache_find *found, bool *other_device)
{
    void *h = obj_handle(&s->hdr);
    struct cblock *b;
    aclError err;

    plat_mutex_lock(&cache_lock);
    err = use_target_locked(p, s, true, found, other_device, &b);
    if (err == ACL_SUCCESS) {
        for (uint32_t i = 0; i < b->nuses; i++) {
            if (b->uses[i].h != h)
                continue;
            b->uses[i] = b->uses[--b->nuses];
            break;
        }
        if (b->state == BLOCK_PENDING)
            poll_locked(&devs[b->dev]); /* no fence left: back to the pool now */
    }
    plat_mutex_unlock(&cache_lock);
    return err;
}

void cachealloc_device_stats(int32_t id, struct cache_stats *out)
{
    plat_mutex_lock(&cache_lock);
    poll_locked(&devs[id]);
    *out = devs[id].all.c;
    plat_mutex_unlock(&cache_lock);
}

void cachealloc_stream_stats(struct stream *s, struct cache_stats *out)
{
    struct cdev *d = &devs[load_relaxed(&s->dev)->id];
    struct sstat *st;
    plat_mutex_lock(&cache_lock);
    poll_locked(d);
    st = sstat_of_locked(d, s, obj_handle(&s->hdr), false);
    if (st != NULL)
        *out = st->c;
    else
        memset(out, 0, sizeof(*out));
    plat_mutex_unlock(&cache_lock);
}

uint64_t cachealloc_empty(int32_t id)
{
    uint64_t bytes;
    plat_mutex_lock(&cache_lock);
    poll_locked(&devs[id]);
    bytes = release_free_locked(&devs[id]);
    sstat_trim_locked(&devs[id]);
    plat_mutex_unlock(&cache_lock);
    return bytes;
}

bool cachealloc_owns(const void *p)
{
    int32_t dev;
    bool owns;
    /* Relaxed: a segment made concurrently with this free is not the
     * pointer being freed, which was handed out before. */
    if (load_relaxed(&seg_count) == 0)
        return false;
    plat_mutex_lock(&cache_lock);
    owns = seg_of_locked(p, &dev) != NULL;
    plat_mutex_unlock(&cache_lock);
    return owns;
}


void cachealloc_forget_device(int32_t id)
{
    struct cdev *d = &devs[id];
    struct cblock *b, *next;
    struct sstat *st;
    struct seg *g;

    plat_mutex_lock(&cache_lock);
    /* Every block is in one place: a pool's free list, the pending list,
     * or (handed out) the hash. */
    for (int pool = 0; pool < 2; pool++)
        for (b = d->free_list[pool]; b != NULL; b = next) {
            next = b->lnext;
            block_put_locked(b);
        }
    for (b = d->pending; b != NULL; b = next) {
        next = b->lnext;
        block_put_locked(b);
    }
    for (size_t i = 0; i < HASH_BUCKETS; i++) {
        struct cblock **link = &live_hash[i];
        while ((b = *link) != NULL) {
            if (b->dev != id) {
                link = &b->hnext;
                continue;
            }
            *link = b->hnext;
            block_put_locked(b);
        }
    }
    while ((g = d->segs) != NULL) {
        d->segs = g->next;
        fetch_sub_relaxed(&seg_count, 1);
        acl_free(g);
    }
    while ((st = d->streams) != NULL) {
        d->streams = st->next;
        acl_free(st);
    }
    memset(d, 0, sizeof(*d)); /* the memory is the arena's, which goes with the device */
    if (load_relaxed(&seg_count) == 0) /* no device has a segment left: the spare records go too */
        while ((b = spare) != NULL) {
            spare = b->lnext;
            nspare--;
            acl_free(b);
        }
    plat_mutex_unlock(&cache_lock);
}
