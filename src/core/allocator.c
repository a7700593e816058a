/*
 * allocator.c - custom allocator descriptions and their registration with
 * streams.
 *
 * DESIGN: a description is a small record named by a handle that is never
 * a pointer (a tag, a generation and a slot), so a destroyed or made-up
 * description is refused, never followed. Registering copies the record,
 * as the reference does (allocator.cpp): later changes to the description,
 * or its destruction, leave the registration as it was, and
 * aclrtAllocatorGetByStream hands back the description's handle as given.
 * A registration belongs to its stream and ends with it (stream_destroy
 * calls allocator_unregister); descriptions live until destroyed or
 * aclFinalize.
 *
 * Threads: any host thread. Locks: allocator_lock (rank: lockrank.h),
 * taken by stream_destroy with no other lock held.
 */
#include "../common/common.h"
#include "../platform/platform.h"
#include "allocator.h"

#define MAX_DESCS 4096u
#define DESC_TAG UINT64_C(0xA6)
#define GEN_MASK 0xFFFFFFFu

struct desc_slot {
    struct allocator_desc d;
    uint32_t gen; /* bumped at each destruction: survives the description */
    bool live;
};

struct registration {
    struct stream *s;
    const void *h;
    struct allocator_desc d;
};

static plat_mutex allocator_lock;
static struct desc_slot *descs; /* MAX_DESCS, allocated at the first create */
static size_t ndescs;
static struct registration *regs;
static size_t nregs, cap_regs;

__attribute__((constructor)) static void allocator_init(void) { plat_mutex_init(&allocator_lock, LOCK_ALLOCATOR); }

/* Called with allocator_lock held: the live description h names, or NULL. */
static struct desc_slot *resolve_locked(const void *h)
{
    PLAT_ASSERT_HELD(&allocator_lock);
    uint64_t v = (uint64_t)(uintptr_t)h;
    uint32_t slot = (uint32_t)(v & 0xFFFFF);
    if (descs == NULL || (v >> 56) != DESC_TAG || slot >= MAX_DESCS || !descs[slot].live ||
        descs[slot].gen != ((v >> 20) & GEN_MASK))
        return NULL;
    return &descs[slot];
}

void *allocdesc_create(void)
{
    void *h = NULL;
    plat_mutex_lock(&allocator_lock);
    if (descs == NULL)
        descs = acl_calloc(MAX_DESCS, sizeof(*descs));
    for (uint32_t slot = 0; descs != NULL && slot < MAX_DESCS; slot++) {
        if (!descs[slot].live) {
            descs[slot].live = true;
            descs[slot].d = (struct allocator_desc){0};
            descs[slot].gen = (descs[slot].gen + 1) & GEN_MASK;
            ndescs++;
            h = (void *)(uintptr_t)((DESC_TAG << 56) | ((uint64_t)descs[slot].gen << 20) | slot);
            break;
        }
    }
    plat_mutex_unlock(&allocator_lock);
    return h;
}

bool allocdesc_destroy(const void *h)
{
    struct desc_slot *ds;
    plat_mutex_lock(&allocator_lock);
    ds = resolve_locked(h);
    if (ds != NULL) {
        ds->live = false;
        ndescs--;
    }
    plat_mutex_unlock(&allocator_lock);
    return ds != NULL;
}

bool allocdesc_read(const void *h, struct allocator_desc *out)
{
    struct desc_slot *ds;
    plat_mutex_lock(&allocator_lock);
    ds = resolve_locked(h);
    if (ds != NULL)
        *out = ds->d;
    plat_mutex_unlock(&allocator_lock);
    return ds != NULL;
}

bool allocdesc_set(const void *h, enum allocdesc_field field, const struct allocator_desc *from)
{
    struct desc_slot *ds;
    plat_mutex_lock(&allocator_lock);
    ds = resolve_locked(h);
    if (ds != NULL) {
        switch (field) {
        case AD_OBJ: ds->d.obj = from->obj; break;
        case AD_ALLOC: ds->d.alloc = from->alloc; break;
        case AD_FREE: ds->d.free = from->free; break;
        case AD_ADVISE: ds->d.advise = from->advise; break;
        case AD_GET_ADDR: ds->d.get_addr = from->get_addr; break;
        }
    }
    plat_mutex_unlock(&allocator_lock);
    return ds != NULL;
}

size_t allocdesc_count(void)
{
    size_t n;
    plat_mutex_lock(&allocator_lock);
    n = ndescs;
    plat_mutex_unlock(&allocator_lock);
    return n;
}

/* Called with allocator_lock held: s's registration, or NULL. */
static struct registration *find_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&allocator_lock);
    for (size_t i = 0; i < nregs; i++)
        if (regs[i].s == s)
            return &regs[i];
    return NULL;
}

aclError allocator_register(struct stream *s, const void *h, const struct allocator_desc *d)
{
    struct registration *r;
    aclError err = ACL_SUCCESS;
    plat_mutex_lock(&allocator_lock);
    r = find_locked(s);
    if (r == NULL && nregs == cap_regs) {
        size_t ncap = cap_regs ? cap_regs * 2 : 16;
        struct registration *n = acl_realloc(regs, ncap * sizeof(*n));
        if (n != NULL)
            regs = n, cap_regs = ncap;
    }
    if (r == NULL && nregs < cap_regs)
        r = &regs[nregs++];
    if (r != NULL)
        *r = (struct registration){s, h, *d};
    else
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_unlock(&allocator_lock);
    return err;
}

bool allocator_lookup(struct stream *s, const void **h, struct allocator_desc *out)
{
    struct registration *r;
    plat_mutex_lock(&allocator_lock);
    r = find_locked(s);
    if (r != NULL)
        *h = r->h, *out = r->d;
    plat_mutex_unlock(&allocator_lock);
    return r != NULL;
}

void allocator_unregister(struct stream *s)
{
    struct registration *r;
    plat_mutex_lock(&allocator_lock);
    r = find_locked(s);
    if (r != NULL)
        *r = regs[--nregs];
    plat_mutex_unlock(&allocator_lock);
}

size_t allocator_count(void)
{
    size_t n;
    plat_mutex_lock(&allocator_lock);
    n = nregs;
    plat_mutex_unlock(&allocator_lock);
    return n;
}

void allocator_release_all(void)
{
    plat_mutex_lock(&allocator_lock);
    acl_free(regs);
    regs = NULL;
    nregs = cap_regs = 0;
    /* The slots' generations stay, so a handle from before stays dead. */
    for (uint32_t slot = 0; descs != NULL && slot < MAX_DESCS; slot++)
        descs[slot].live = false;
    ndescs = 0;
    plat_mutex_unlock(&allocator_lock);
}
