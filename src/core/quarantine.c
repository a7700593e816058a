/*
 * quarantine.c - memory freed while tasks may still use it.
 *
 * DESIGN: aclrtFree and aclrtFreeHost free at once; they do not wait for
 * streams (the reference's free goes straight to the driver). A task
 * issued before the free - a kernel still running after a timed-out sync,
 * a memset queued behind it - may still write into the block. On the
 * device that late write lands in device memory nobody else holds only
 * if the memory is not handed out again first; this module makes sure it
 * is not: a freed block with work possibly in flight is retired (devmem:
 * freed for the program, its budget back, a second free refused) and kept
 * out of reuse until a fence passes, then released to the allocator.
 *
 * The fence is, for every stream with work queued at the free, the count
 * of tasks issued to it then: it passes when each such stream has done
 * that many, or was destroyed and made anew (which waits for or drops its
 * work first). A free with no stream busy - the usual case - frees at
 * once. Fences are checked lazily: on every free and allocation while
 * some are held; a device's close forgets its own.
 *
 * Managed memory (aclrtMemAllocManaged) is held the same way, its pages
 * left mapped until the fence passes (quarantine_free_managed): unmapped
 * at once, a late write could land in whatever the host maps there next.
 *
 * Every free that found its memory possibly in use is counted and the
 * latest are kept (pointer, size, a stream that was busy), for the race
 * and lifetime checker to report.
 *
 * Threads: any host thread. Locks: quar_lock (rank: lockrank.h) over the
 * held list; the fence is taken before it, under each stream's lock in
 * turn; the allocator's mem_lock is taken inside it (devmem_release).
 */
#include "../services/devmem.h"
#include "../services/hostmem.h"
#include "core.h"

#define RECENT_KEPT 16

struct fence_point {
    struct stream *s;
    void *handle;      /* the stream as it was: a new one in its memory has a new handle */
    uint64_t issued;   /* tasks issued to it at the free */
};

struct held {
    struct held *next;
    void *p;
    int32_t device;
    size_t managed_size;  /* managed memory (its pages unmapped at release); 0: an arena block */
    size_t npoints;
    struct fence_point points[];
};

static plat_mutex quar_lock;
static struct held *held_list;
static _Atomic size_t held_count; /* read without the lock to skip polling */
static struct quarantine_stats stats;

__attribute__((constructor)) static void quarantine_init(void) { plat_mutex_init(&quar_lock, LOCK_QUARANTINE); }

/* The busy streams' points, in a fresh array (*n of them); NULL with *n 0
 * when no stream has work queued, or when out of memory (then *oom). */
static struct fence_point *fence_take(size_t *n, bool *oom)
{
    struct fence_point *pts = NULL;
    size_t cap = 0;
    uint32_t slots = obj_slot_count(OBJ_STREAM);

    *n = 0;
    *oom = false;
    for (uint32_t i = 0; i < slots; i++) {
        /* Every stream's memory, live or being destroyed: one that is
         * draining its work on the way out counts as busy too. */
        struct obj_header *hdr = obj_header_at(OBJ_STREAM, i);
        struct stream *s = ACLCPU_CONTAINER_OF(hdr, struct stream, hdr);
        void *h;
        uint64_t issued;

        /* Acquire: pairs with obj_publish, so the stream's lock is made. */
        if (hdr == NULL || !load_acquire(&hdr->ready))
            continue; /* its first stream is still being made: no work yet */
        h = obj_handle(hdr);
        plat_spin_lock(&s->lock);
        issued = s->issued;
        plat_spin_unlock(&s->lock);
        if (load_acquire(&s->done) >= issued)
            continue;
        if (*n == cap) {
            size_t ncap = cap != 0 ? cap * 2 : 4;
            struct fence_point *grown = acl_realloc(pts, ncap * sizeof(*pts));
            if (grown == NULL) {
                *oom = true;
                break;
            }
            pts = grown;
            cap = ncap;
        }
        pts[(*n)++] = (struct fence_point){s, h, issued};
    }
    return pts;
}

/* The generation a handle names. */
static uint32_t handle_gen(const void *handle) { return (uint32_t)((uintptr_t)handle >> 32) & OBJ_GEN_MASK; }

static bool point_passed(const struct fence_point *pt)
{
    /* Acquire: the tasks' writes are done before their count is published
     * (squeue_complete stores done seq_cst), so reuse follows them. done
     * counts dropped tasks too, and outlives a destroy. */
    if (load_acquire(&pt->s->done) >= pt->issued)
        return true;
    /* A new stream in its memory (done starts again from 0): the old one's
     * work was waited for or dropped before its memory was reused. */
    return (load_acquire(&pt->s->hdr.gen) & OBJ_GEN_MASK) != handle_gen(pt->handle) &&
           load_acquire(&pt->s->hdr.live);
}

static bool fence_passed(const struct held *h)
{
    for (size_t i = 0; i < h->npoints; i++)
        if (!point_passed(&h->points[i]))
            return false;
    return true;
}

/* Called with quar_lock held: takes h off the list (prev's next, or the head). */
static void unlink_locked(struct held **link, struct held *h)
{
    PLAT_ASSERT_HELD(&quar_lock);
    *link = h->next;
    fetch_sub_relaxed(&held_count, 1);
    stats.held--;
}

/* Gives a held block back: an arena block to its allocator, managed
 * memory's pages to the host. */
static void release(const struct held *h)
{
    if (h->managed_size != 0)
        managed_release(h->p, h->managed_size);
    else
        devmem_release(h->p);
}

void quarantine_poll(void)
{
    struct held **link, *h, *done = NULL;

    /* Relaxed: a block released a moment late is still released later. */
    if (load_relaxed(&held_count) == 0)
        return;
    plat_mutex_lock(&quar_lock);
    for (link = &held_list; (h = *link) != NULL;) {
        if (!fence_passed(h)) {
            link = &h->next;
            continue;
        }
        unlink_locked(link, h);
        release(h);
        h->next = done;
        done = h;
    }
    plat_mutex_unlock(&quar_lock);
    while ((h = done) != NULL) {
        done = h->next;
        acl_free(h);
    }
}

/* Called with quar_lock held: remembers a free that found its memory in use. */
static void note_in_use_locked(void *p, size_t size, const struct fence_point *pt)
{
    PLAT_ASSERT_HELD(&quar_lock);
    struct quarantine_record *r = &stats.recent[stats.frees_in_use % RECENT_KEPT];
    *r = (struct quarantine_record){p, size, load_relaxed(&pt->s->id)};
    stats.frees_in_use++;
    stats.held++;
}

/* A hold for a free now, with the fence of the work queued at this moment;
 * NULL when nothing is in flight, or when there is no memory to remember
 * a fence in (freeing at once is then all that is left, as the device
 * does). */
static struct held *hold_new(void)
{
    struct fence_point *pts;
    struct held *h;
    size_t n;
    bool oom;

    quarantine_poll();
    pts = fence_take(&n, &oom);
    h = n != 0 && !oom ? acl_malloc(sizeof(*h) + n * sizeof(h->points[0])) : NULL;
    if (h != NULL) {
        h->npoints = n;
        memcpy(h->points, pts, n * sizeof(*pts));
    }
    acl_free(pts);
    return h;
}

/* Keeps h (p retired, size bytes) until its fence passes. */
static void hold_keep(struct held *h, size_t size, const char *what)
{
    plat_mutex_lock(&quar_lock);
    note_in_use_locked(h->p, size, &h->points[0]);
    h->next = held_list;
    held_list = h;
    fetch_add_relaxed(&held_count, 1);
    plat_mutex_unlock(&quar_lock);
    LOGD("freed %s %p (%zu bytes) while stream %d may still use it: kept until its work is done", what, h->p, size,
         (int)load_relaxed(&h->points[0].s->id));
}

bool quarantine_free(void *p, bool device)
{
    struct mem_range range;
    struct held *h = hold_new();
    size_t size;

    if (h == NULL)
        return devmem_free(p, device);
    if (!devmem_lookup(p, &range) || !devmem_retire(p, device, &size)) {
        acl_free(h);
        return false;
    }
    h->p = p;
    h->device = range.device;
    h->managed_size = 0;
    hold_keep(h, size, "block");
    return true;
}

bool quarantine_free_managed(void *p)
{
    struct held *h = hold_new();
    size_t size;
    int32_t device;

    if (h == NULL)
        return managed_free(p);
    if (!managed_retire(p, &size, &device)) {
        acl_free(h);
        return false;
    }
    h->p = p;
    h->device = device;
    h->managed_size = size; /* its pages are unmapped at release */
    hold_keep(h, size, "managed memory");
    return true;
}

/* Drops the held blocks of device (all of them if device is INT32_MIN):
 * arena blocks without releasing them, as their arena is going; managed
 * memory's pages are unmapped (they are no arena's). The device's work
 * was waited for or dropped first. */
static void forget(int32_t device, bool all)
{
    struct held **link, *h, *gone = NULL;
    plat_mutex_lock(&quar_lock);
    for (link = &held_list; (h = *link) != NULL;) {
        if (!all && h->device != device) {
            link = &h->next;
            continue;
        }
        unlink_locked(link, h);
        h->next = gone;
        gone = h;
    }
    plat_mutex_unlock(&quar_lock);
    while ((h = gone) != NULL) {
        gone = h->next;
        if (h->managed_size != 0)
            managed_release(h->p, h->managed_size);
        acl_free(h);
    }
}

void quarantine_forget_device(int32_t device) { forget(device, false); }
void quarantine_forget_all(void) { forget(0, true); }

void quarantine_get_stats(struct quarantine_stats *out)
{
    plat_mutex_lock(&quar_lock);
    *out = stats;
    plat_mutex_unlock(&quar_lock);
}
