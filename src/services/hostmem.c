/*
 * hostmem.c - host memory registered for device access, and managed
 * (unified) memory.
 *
 * DESIGN: aclcpu's devices share the host's address space, so a
 * registered range needs no second mapping: its device address is its
 * host address. What registration changes is how the runtime sees the
 * range: it enters devmem's table as ORIGIN_REGISTERED, so copies and
 * checks treat it as pinned host memory, as they treat aclrtMallocHost
 * memory (which is in the table already and is only noted here). The
 * registrations themselves are a list kept here, as the reference's
 * runtime keeps its own (register_memory.cc): overlaps are refused with
 * 507910, and only a range's start ends it.
 *
 * Managed memory is a mapping of its own (platform/vm.c: reserved, then
 * made readable and writable; pages appear on first touch, as the
 * device's UVM pages do), entered in devmem's table as ORIGIN_MANAGED.
 * Advice and prefetches work on 2 MiB pages, and each page keeps what was
 * advised and where it was last prefetched; a prefetch to a device backs
 * the pages with memory at once (the CPU's version of a migration).
 *
 * Each registration and allocation belongs to the device that was current
 * when it was made, and that device's close ends it
 * (hostmem_release_device).
 *
 * Threads: any host thread; stream workers (managed_prefetched). Locks:
 * hostmem_lock (rank: lockrank.h), held around devmem's calls so that a
 * check and the insertion it allows are one step.
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "devmem.h"
#include "hostmem.h"

struct registration {
    uintptr_t base;
    size_t size;
    uint32_t flags;
    int32_t device;
    bool in_table; /* entered in devmem's table here (not aclrtMallocHost memory) */
};

/* One 2 MiB page of managed memory: its advice and last prefetch. */
struct mpage {
    uint64_t accessed_by; /* device ids 0..63 */
    int32_t pref_id, last_id;
    uint8_t pref_type, last_type; /* aclrtMemManagedLocationType; 0: none */
    bool read_mostly, accessed_by_host;
};

struct managed {
    uintptr_t base;
    size_t size; /* a multiple of MANAGED_PAGE */
    int32_t device;
    struct mpage *pages;
};

static plat_mutex hostmem_lock;
static struct registration *regs;
static size_t nregs, cap_regs;
static struct managed *mans;
static size_t nmans, cap_mans;

__attribute__((constructor)) static void hostmem_init(void) { plat_mutex_init(&hostmem_lock, LOCK_HOSTMEM); }

/* Makes room for one more element of size elem in *arr; false when out of memory. */
static bool grow(void **arr, size_t n, size_t *cap, size_t elem)
{
    size_t ncap;
    void *p;
    if (n < *cap)
        return true;
    ncap = *cap ? *cap * 2 : 16;
    p = acl_realloc(*arr, ncap * elem);
    if (p == NULL)
        return false;
    *arr = p;
    *cap = ncap;
    return true;
}

/* ---- registered host memory ------------------------------------------------- */

static bool overlaps(uintptr_t a, size_t alen, uintptr_t b, size_t blen)
{
    return a < b + blen && b < a + alen;
}

/* Called with hostmem_lock held: the index of the registration starting at a, or nregs. */
static size_t reg_at_locked(uintptr_t a)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    size_t i = 0;
    while (i < nregs && regs[i].base != a)
        i++;
    return i;
}

/* Whether [a, a+size) lies inside aclrtMallocHost memory (already pinned
 * and in devmem's table). */
static bool inside_pinned_host(uintptr_t a, size_t size)
{
    struct mem_range r;
    if (!devmem_lookup((const void *)a, &r) || r.origin != ORIGIN_HOST)
        return false;
    return a - (uintptr_t)r.base <= r.size && size <= r.size - (a - (uintptr_t)r.base);
}

aclError hostreg_add(void *ptr, size_t size, uint32_t flags, int32_t device)
{
    uintptr_t a = (uintptr_t)ptr;
    struct registration r = {a, size, flags, device, false};
    aclError err = ACL_SUCCESS;

    if (a > UINTPTR_MAX - size)
        return ACL_ERROR_RT_PARAM_INVALID;
    plat_mutex_lock(&hostmem_lock);
    for (size_t i = 0; i < nregs; i++) {
        if (overlaps(a, size, regs[i].base, regs[i].size)) {
            err = ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
            goto out;
        }
    }
    if (!grow((void **)&regs, nregs, &cap_regs, sizeof(*regs))) {
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
        goto out;
    }
    if (!inside_pinned_host(a, size)) {
        err = devmem_map_add(ptr, size, -1, ORIGIN_REGISTERED);
        if (err != ACL_SUCCESS)
            goto out;
        r.in_table = true;
    }
    regs[nregs++] = r;
out:
    plat_mutex_unlock(&hostmem_lock);
    return err;
}

/* Called with hostmem_lock held: ends registration i. */
static void reg_drop_locked(size_t i)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    if (regs[i].in_table)
        (void)devmem_map_remove((void *)regs[i].base);
    regs[i] = regs[--nregs];
}

bool hostreg_remove(void *ptr)
{
    size_t i;
    bool found;
    plat_mutex_lock(&hostmem_lock);
    i = reg_at_locked((uintptr_t)ptr);
    found = i < nregs;
    if (found)
        reg_drop_locked(i);
    plat_mutex_unlock(&hostmem_lock);
    return found;
}

bool hostreg_device_ptr(const void *host, void **dev)
{
    size_t i;
    bool mapped;
    plat_mutex_lock(&hostmem_lock);
    i = reg_at_locked((uintptr_t)host);
    /* V1 registrations always map; V2 ones only with MAPPED, IOMEMORY or
     * READONLY (PINNED alone pins without a device address). */
    mapped = i < nregs && (regs[i].flags & (HOSTREG_MAPPED | HOSTREG_IOMEMORY | HOSTREG_READONLY)) != 0;
    plat_mutex_unlock(&hostmem_lock);
    if (mapped)
        *dev = (void *)host;
    return mapped;
}

size_t hostreg_count(void)
{
    size_t n;
    plat_mutex_lock(&hostmem_lock);
    n = nregs;
    plat_mutex_unlock(&hostmem_lock);
    return n;
}

/* ---- managed memory ----------------------------------------------------------- */

/* Managed memory is host memory here: what is allocated (and not yet
 * released) may not exceed the host's physical memory, as a driver's
 * unified memory cannot outgrow what backs it. Without the bound one
 * program's memset of a huge allocation ends the process (the OOM killer)
 * instead of failing the allocation. Atomic, not under hostmem_lock: a
 * release comes under the quarantine's lock too. Relaxed: a budget, which
 * orders nothing else. */
static _Atomic uint64_t managed_bytes;

static bool managed_charge(size_t bytes)
{
    uint64_t host = plat_host_memory_bytes(), used = load_relaxed(&managed_bytes);
    do {
        if (bytes > host - used)
            return false;
    } while (!cas_weak_relaxed(&managed_bytes, &used, used + bytes));
    return true;
}

static void managed_uncharge(size_t bytes) { fetch_sub_relaxed(&managed_bytes, (uint64_t)bytes); }

aclError managed_alloc(uint64_t size, int32_t device, void **out)
{
    size_t bytes, npages;
    void *p;
    struct mpage *pages;
    aclError err;

    if (size == 0 || size > SIZE_MAX - (MANAGED_PAGE - 1) || size > (uint64_t)PTRDIFF_MAX)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    bytes = (size_t)(size + (MANAGED_PAGE - 1)) & ~(MANAGED_PAGE - 1);
    if (!managed_charge(bytes))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    npages = bytes / MANAGED_PAGE;
    pages = acl_calloc(npages, sizeof(*pages));
    p = pages != NULL ? plat_vm_reserve(bytes, MANAGED_PAGE) : NULL;
    if (p == NULL || !plat_vm_protect(p, bytes, true, true)) {
        if (p != NULL)
            plat_vm_release(p, bytes);
        acl_free(pages);
        managed_uncharge(bytes);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_lock(&hostmem_lock);
    err = grow((void **)&mans, nmans, &cap_mans, sizeof(*mans)) ? devmem_map_add(p, bytes, device, ORIGIN_MANAGED)
                                                               : ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (err == ACL_SUCCESS)
        mans[nmans++] = (struct managed){(uintptr_t)p, bytes, device, pages};
    plat_mutex_unlock(&hostmem_lock);
    if (err != ACL_SUCCESS) {
        plat_vm_release(p, bytes);
        acl_free(pages);
        managed_uncharge(bytes);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *out = p;
    return ACL_SUCCESS;
}

/* Called with hostmem_lock held: forgets allocation i, leaving its pages
 * mapped (the caller unmaps them, now or once late work is done). */
static void managed_forget_locked(size_t i)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    (void)devmem_map_remove((void *)mans[i].base);
    acl_free(mans[i].pages);
    mans[i] = mans[--nmans];
}

/* Called with hostmem_lock held: frees managed allocation i. */
static void managed_drop_locked(size_t i)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    void *base = (void *)mans[i].base;
    size_t size = mans[i].size;
    managed_forget_locked(i);
    plat_vm_release(base, size);
    managed_uncharge(size);
}

bool managed_retire(void *p, size_t *size, int32_t *device)
{
    bool found = false;
    plat_mutex_lock(&hostmem_lock);
    for (size_t i = 0; i < nmans && !found; i++) {
        if (mans[i].base == (uintptr_t)p) {
            *size = mans[i].size;
            *device = mans[i].device;
            managed_forget_locked(i);
            found = true;
        }
    }
    plat_mutex_unlock(&hostmem_lock);
    return found;
}

void managed_release(void *p, size_t size)
{
    plat_vm_release(p, size);
    managed_uncharge(size);
}

bool managed_free(void *p)
{
    size_t size;
    int32_t device;
    if (!managed_retire(p, &size, &device))
        return false;
    managed_release(p, size);
    return true;
}

/* Called with hostmem_lock held: the allocation holding all of [p, p+size), or NULL. */
static struct managed *covering_locked(const void *p, size_t size)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < nmans; i++) {
        if (a >= mans[i].base && a - mans[i].base < mans[i].size && size <= mans[i].size - (a - mans[i].base))
            return &mans[i];
    }
    return NULL;
}

bool managed_covers(const void *p, size_t size)
{
    bool ok;
    plat_mutex_lock(&hostmem_lock);
    ok = covering_locked(p, size) != NULL;
    plat_mutex_unlock(&hostmem_lock);
    return ok;
}

/* The pages [*first, *last] of m that [p, p+size) touches. */
static void page_span(const struct managed *m, const void *p, size_t size, size_t *first, size_t *last)
{
    size_t off = (uintptr_t)p - m->base;
    *first = off / MANAGED_PAGE;
    *last = (off + size - 1) / MANAGED_PAGE;
}

static void advise_page(struct mpage *pg, int advice, struct managed_loc loc)
{
    bool device = loc.type == ACL_MEM_LOCATIONTYPE_DEVICE;
    switch (advice) {
    case ACL_MEM_ADVISE_SET_READ_MOSTLY: pg->read_mostly = true; break;
    case ACL_MEM_ADVISE_UNSET_READ_MOSTLY: pg->read_mostly = false; break;
    case ACL_MEM_ADVISE_SET_PREFERRED_LOCATION: pg->pref_type = (uint8_t)loc.type, pg->pref_id = loc.id; break;
    case ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION: pg->pref_type = 0, pg->pref_id = 0; break;
    case ACL_MEM_ADVISE_SET_ACCESSED_BY:
    case ACL_MEM_ADVISE_UNSET_ACCESSED_BY: {
        bool set = advice == ACL_MEM_ADVISE_SET_ACCESSED_BY;
        if (!device)
            pg->accessed_by_host = set;
        else if (loc.id < 0 || loc.id >= 64) /* the API allows only devices that exist */
            break;
        else if (set)
            pg->accessed_by |= UINT64_C(1) << loc.id;
        else
            pg->accessed_by &= ~(UINT64_C(1) << loc.id);
        break;
    }
    default: break;
    }
}

bool managed_advise(const void *p, size_t size, int advice, struct managed_loc loc)
{
    struct managed *m;
    size_t first, last;
    plat_mutex_lock(&hostmem_lock);
    m = covering_locked(p, size);
    if (m != NULL) {
        page_span(m, p, size, &first, &last);
        for (size_t i = first; i <= last; i++)
            advise_page(&m->pages[i], advice, loc);
    }
    plat_mutex_unlock(&hostmem_lock);
    return m != NULL;
}

void managed_prefetched(const void *p, size_t size, struct managed_loc loc)
{
    struct managed *m;
    size_t first, last;
    plat_mutex_lock(&hostmem_lock);
    m = covering_locked(p, size);
    if (m != NULL) {
        page_span(m, p, size, &first, &last);
        for (size_t i = first; i <= last; i++)
            m->pages[i].last_type = (uint8_t)loc.type, m->pages[i].last_id = loc.id;
        /* Under the lock: a racing aclrtFree cannot unmap the pages meanwhile. */
        if (loc.type == ACL_MEM_LOCATIONTYPE_DEVICE)
            (void)plat_vm_populate((void *)(m->base + first * MANAGED_PAGE), (last - first + 1) * MANAGED_PAGE);
    }
    plat_mutex_unlock(&hostmem_lock);
}

/* ---- attributes ------------------------------------------------------------- */

#define NO_LOCATION_ID (-2) /* the pages disagree, or none was set */

/* A location's one-number form: a device's id, -1 for the host (either
 * form of NUMA node included), NO_LOCATION_ID for none. */
static int32_t location_number(uint8_t type, int32_t id)
{
    if (type == ACL_MEM_LOCATIONTYPE_DEVICE)
        return id;
    return type == 0 ? NO_LOCATION_ID : -1;
}

/* The location the pages agree on (type 0 if they do not). */
static struct managed_loc common_location(const struct managed *m, size_t first, size_t last, bool prefetch)
{
    const struct mpage *pg = &m->pages[first];
    struct managed_loc loc = {prefetch ? pg->last_type : pg->pref_type, prefetch ? pg->last_id : pg->pref_id};
    for (size_t i = first + 1; i <= last; i++) {
        pg = &m->pages[i];
        if ((prefetch ? pg->last_type : pg->pref_type) != loc.type || (prefetch ? pg->last_id : pg->pref_id) != loc.id)
            return (struct managed_loc){0, 0};
    }
    return loc;
}

static void write_accessed_by(const struct managed *m, size_t first, size_t last, int32_t *out, size_t n)
{
    uint64_t devices = UINT64_MAX;
    bool host = true;
    size_t k = 0;
    for (size_t i = first; i <= last; i++) {
        devices &= m->pages[i].accessed_by;
        host = host && m->pages[i].accessed_by_host;
    }
    if (host && k < n)
        out[k++] = -1;
    for (int32_t d = 0; d < 64 && k < n; d++) {
        if (devices & (UINT64_C(1) << d))
            out[k++] = d;
    }
    while (k < n)
        out[k++] = NO_LOCATION_ID;
}

/* Called with hostmem_lock held: one attribute of pages [first, last] of m. */
static void read_attr_locked(const struct managed *m, size_t first, size_t last, int attr, int32_t *out, size_t n)
{
    PLAT_ASSERT_HELD(&hostmem_lock);
    bool prefetch = attr >= ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION;
    struct managed_loc loc;
    bool all = true;

    switch (attr) {
    case ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
        for (size_t i = first; i <= last; i++)
            all = all && m->pages[i].read_mostly;
        *out = all ? 1 : 0;
        return;
    case ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: write_accessed_by(m, first, last, out, n); return;
    default: break;
    }
    loc = common_location(m, first, last, prefetch);
    switch (attr) {
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE: *out = loc.type; break;
    case ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
    case ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID: *out = loc.type == 0 ? NO_LOCATION_ID : loc.id; break;
    default: *out = location_number((uint8_t)loc.type, loc.id); break;
    }
}

aclError managed_get_attr(int attr, const void *p, size_t size, void *data, size_t data_size)
{
    struct managed *m;
    size_t first, last;
    /* ACCESSED_BY fills an array of ids; every other attribute is one int32. */
    bool array = attr == ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY;
    int32_t one;

    if (array ? data_size == 0 || data_size % sizeof(int32_t) != 0 : data_size != sizeof(int32_t))
        return ACL_ERROR_RT_PARAM_INVALID;
    plat_mutex_lock(&hostmem_lock);
    m = covering_locked(p, size);
    if (m != NULL) {
        page_span(m, p, size, &first, &last);
        if (array) {
            read_attr_locked(m, first, last, attr, data, data_size / sizeof(int32_t));
        } else {
            read_attr_locked(m, first, last, attr, &one, 1);
            memcpy(data, &one, sizeof(one));
        }
    }
    plat_mutex_unlock(&hostmem_lock);
    return m != NULL ? ACL_SUCCESS : ACL_ERROR_RT_PARAM_INVALID;
}

size_t managed_count(void)
{
    size_t n;
    plat_mutex_lock(&hostmem_lock);
    n = nmans;
    plat_mutex_unlock(&hostmem_lock);
    return n;
}

void hostmem_release_device(int32_t device)
{
    plat_mutex_lock(&hostmem_lock);
    for (size_t i = nregs; i-- > 0;) {
        if (device < 0 || regs[i].device == device)
            reg_drop_locked(i);
    }
    for (size_t i = nmans; i-- > 0;) {
        if (device < 0 || mans[i].device == device)
            managed_drop_locked(i);
    }
    if (nregs == 0) {
        acl_free(regs);
        regs = NULL, cap_regs = 0;
    }
    if (nmans == 0) {
        acl_free(mans);
        mans = NULL, cap_mans = 0;
    }
    plat_mutex_unlock(&hostmem_lock);
}
