/*
 * vmm.c - virtual memory: reservations, physical allocations, mappings
 * and shareable handles.
 *
 * DESIGN: a reservation is address space with nothing behind it
 * (plat_vm_reserve); a physical allocation is a memory file of its own
 * (plat_memfd), charged to its device's memory budget like aclrtMalloc;
 * aclrtMapMem maps the file at a reserved address (plat_vm_map_file) and
 * enters the range in devmem's table as ORIGIN_VMM, so copies, kernels and
 * checks see device memory there; aclrtUnmapMem turns it back into
 * reserved space. One file mapped at two addresses shows the same bytes,
 * in this process or, through a shareable handle (services/share.c), in
 * another. Access flags are page protections; a range whose access is
 * NONE leaves devmem's table, so copies refuse it instead of faulting.
 *
 * A handle is the address of a struct phys, but it is only ever used after
 * it is found in the list of live allocations, so a stale or made-up handle
 * is an error, not a crash. Freeing a mapped allocation is legal (as the
 * reference documents): the handle dies at once, the memory when its last
 * mapping goes.
 *
 * Threads: any host thread. Locks: vmm_lock (rank: lockrank.h) guards the
 * three lists; devmem's mem_lock and share_lock are taken under it.
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "../services/devmem.h"
#include "../services/share.h"
#include "core.h"
#include "vmm.h"

#define KIB ((size_t)1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define RESERVE_ALIGN (2 * MIB)
#define SHARE_KIND_VMM 0x564d4d01u /* keys of shareable handles, not of IPC */
#define ACCESS_SLOTS 8

struct phys {
    struct phys *next;
    int fd;
    size_t size;                /* the request rounded to the granularity */
    aclrtPhysicalMemProp prop;
    int32_t device;             /* -1: host memory */
    _Atomic uint64_t *budget;   /* the device's bytes in use; NULL if not charged */
    uint32_t maps;
    bool freed;                 /* aclrtFreePhysical done, mappings left */
    bool imported;
    struct share_export *exp;
};

struct resv {
    struct resv *next;
    uintptr_t base;
    size_t size;
    int32_t device;
    uint32_t maps;
};

struct access_entry {
    aclrtMemLocationType type;
    uint32_t id;
    uint64_t flags;
};

struct mapping {
    struct mapping *next;
    uintptr_t base;
    size_t size;
    struct phys *p;
    struct resv *r;
    bool in_table;              /* entered in devmem's table */
    uint32_t naccess;
    struct access_entry acc[ACCESS_SLOTS];
};

/* What an importer learns from the exporter. */
struct share_meta {
    uint64_t size;
    aclrtPhysicalMemProp prop;
};

static plat_mutex vmm_lock;
static struct phys *physes;
static struct resv *resvs;
static struct mapping *maps;

__attribute__((constructor)) static void vmm_init(void) { plat_mutex_init(&vmm_lock, LOCK_VMM); }

/* ---- lookups (vmm_lock held) ------------------------------------------------ */

static struct phys *phys_find_locked(aclrtDrvMemHandle h)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct phys *p = physes; p != NULL; p = p->next)
        if (p == h && !p->freed)
            return p;
    return NULL;
}

static struct resv *resv_holding_locked(uintptr_t a)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct resv *r = resvs; r != NULL; r = r->next)
        if (a >= r->base && a - r->base < r->size)
            return r;
    return NULL;
}

static struct mapping *map_at_locked(uintptr_t a)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct mapping *m = maps; m != NULL; m = m->next)
        if (m->base == a)
            return m;
    return NULL;
}

static struct mapping *map_overlapping_locked(uintptr_t a, size_t size)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct mapping *m = maps; m != NULL; m = m->next)
        if (a < m->base + m->size && m->base < a + size)
            return m;
    return NULL;
}

/* ---- sizes ------------------------------------------------------------------ */

enum page_class { PAGES_NONE, PAGES_NORMAL, PAGES_HUGE, PAGES_HUGE1G };

static enum page_class page_class(aclrtMemAttr attr)
{
    switch (attr) {
    case ACL_DDR_MEM_NORMAL: case ACL_HBM_MEM_NORMAL: case ACL_DDR_MEM_P2P_NORMAL: case ACL_MEM_NORMAL:
    case ACL_MEM_P2P_NORMAL:
        return PAGES_NORMAL;
    case ACL_DDR_MEM_HUGE: case ACL_HBM_MEM_HUGE: case ACL_DDR_MEM_P2P_HUGE: case ACL_MEM_HUGE: case ACL_MEM_P2P_HUGE:
        return PAGES_HUGE;
    case ACL_HBM_MEM_HUGE1G: case ACL_MEM_HUGE1G: case ACL_MEM_P2P_HUGE1G:
        return PAGES_HUGE1G;
    default:
        return PAGES_NONE;
    }
}

size_t vmm_granularity(aclrtMemAttr attr, aclrtMemGranularityOptions option)
{
    static const size_t minimum[] = {0, 4 * KIB, 2 * MIB, GIB};
    static const size_t recommended[] = {0, 2 * MIB, 2 * MIB, GIB};
    enum page_class c = page_class(attr);
    if (option == ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM)
        return minimum[c];
    if (option == ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
        return recommended[c];
    return 0;
}

static size_t min_granularity(const aclrtPhysicalMemProp *prop)
{
    return vmm_granularity(prop->memAttr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM);
}

/* ---- reservations ----------------------------------------------------------- */

aclError vmm_reserve(const char *fn, size_t size, size_t alignment, void *expect, int32_t device, void **out)
{
    size_t align = RESERVE_ALIGN, span;
    struct resv *r;

    if (expect != NULL)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: argument 'expectPtr' (%p) must be NULL: aclcpu chooses the address itself", fn, expect);
    if (alignment != 0 && ((alignment & (alignment - 1)) != 0 || alignment > GIB))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'alignment' (%zu) must be 0 or a power of two of at most 1 GiB", fn, alignment);
    if (alignment > align)
        align = alignment;
    if (size > SIZE_MAX - (align - 1) - align)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is too large to reserve", fn, size);
    span = (size + 4 * KIB - 1) & ~(4 * KIB - 1);
    r = acl_calloc(1, sizeof(*r));
    void *base = r != NULL ? plat_vm_reserve(span, align) : NULL;
    if (base == NULL) {
        acl_free(r);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: no address space left for %zu bytes", fn, size);
    }
    r->base = (uintptr_t)base;
    r->size = span;
    r->device = device;
    plat_mutex_lock(&vmm_lock);
    r->next = resvs;
    resvs = r;
    plat_mutex_unlock(&vmm_lock);
    *out = base;
    return ACL_SUCCESS;
}

aclError vmm_release(const char *fn, void *base)
{
    struct resv **pp, *r = NULL;
    aclError err = ACL_SUCCESS;

    plat_mutex_lock(&vmm_lock);
    for (pp = &resvs; *pp != NULL; pp = &(*pp)->next)
        if ((*pp)->base == (uintptr_t)base)
            break;
    r = *pp;
    if (r == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: argument 'virPtr' (%p) is not the start of a range aclrtReserveMemAddress reserved", fn,
                       base);
    else if (r->maps != 0)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: the range at 'virPtr' (%p) still has %u mapping(s): aclrtUnmapMem them first", fn, base,
                       r->maps);
    else
        *pp = r->next;
    plat_mutex_unlock(&vmm_lock);
    if (err != ACL_SUCCESS)
        return err;
    plat_vm_release(base, r->size);
    acl_free(r);
    return ACL_SUCCESS;
}

/* ---- physical allocations --------------------------------------------------- */

/* Adds charge to *used if it fits in total. Relaxed: a budget counter, as
 * devmem's; the compare-exchange makes racing charges see each other. */
static bool take_budget(_Atomic uint64_t *used, uint64_t total, uint64_t charge)
{
    uint64_t now = load_relaxed(used);
    do {
        if (charge > total || now > total - charge)
            return false;
    } while (!cas_weak_relaxed(used, &now, now + charge));
    return true;
}

/* Called with vmm_lock held: the allocation's memory goes (handle and
 * mappings are already gone). */
static void phys_destroy_locked(struct phys *p)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct phys **pp = &physes; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    if (p->exp != NULL)
        share_unpublish(p->exp);
    plat_close(p->fd);
    if (p->budget != NULL)
        fetch_sub_relaxed(p->budget, p->size);
    acl_free(p);
}

static void phys_insert(struct phys *p)
{
    plat_mutex_lock(&vmm_lock);
    p->next = physes;
    physes = p;
    plat_mutex_unlock(&vmm_lock);
}

aclError vmm_malloc_physical(const char *fn, size_t size, const aclrtPhysicalMemProp *prop, struct device *dev,
                             aclrtDrvMemHandle *out)
{
    size_t gran = min_granularity(prop);
    size_t rounded = (size + gran - 1) / gran * gran;
    struct phys *p;

    if (size > SIZE_MAX - gran + 1 || (dev != NULL && !take_budget(&dev->mem_used, dev->mem_total, rounded)))
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION,
                        "%s: argument 'size' (%zu, %zu with the granularity) does not fit in device %d's memory: %llu "
                        "of %llu bytes in use (ACLCPU_DEVICE_MEMORY sets the size)",
                        fn, size, rounded, dev != NULL ? dev->id : -1,
                        dev != NULL ? (unsigned long long)load_relaxed(&dev->mem_used) : 0ull,
                        dev != NULL ? (unsigned long long)dev->mem_total : 0ull);
    p = acl_calloc(1, sizeof(*p));
    if (p != NULL)
        p->fd = plat_memfd("aclcpu-physical", rounded);
    if (p == NULL || p->fd < 0) {
        if (dev != NULL)
            fetch_sub_relaxed(&dev->mem_used, rounded);
        acl_free(p);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the host could not make a memory file of %zu bytes", fn,
                        rounded);
    }
    p->size = rounded;
    p->prop = *prop;
    p->device = dev != NULL ? dev->id : -1;
    p->budget = dev != NULL ? &dev->mem_used : NULL;
    phys_insert(p);
    *out = p;
    return ACL_SUCCESS;
}

aclError vmm_free_physical(const char *fn, aclrtDrvMemHandle h)
{
    struct phys *p;
    plat_mutex_lock(&vmm_lock);
    p = phys_find_locked(h);
    if (p == NULL) {
        plat_mutex_unlock(&vmm_lock);
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'handle' (%p) is not a live physical allocation (freed already, or never made "
                        "by aclrtMallocPhysical or an import)", fn, h);
    }
    if (p->exp != NULL) { /* the shareable handle dies with it; importers keep their files */
        share_unpublish(p->exp);
        p->exp = NULL;
    }
    if (p->maps == 0)
        phys_destroy_locked(p);
    else
        p->freed = true; /* the memory goes with its last mapping */
    plat_mutex_unlock(&vmm_lock);
    return ACL_SUCCESS;
}

aclError vmm_properties(const char *fn, aclrtDrvMemHandle h, aclrtPhysicalMemProp *out)
{
    struct phys *p;
    plat_mutex_lock(&vmm_lock);
    p = phys_find_locked(h);
    if (p != NULL)
        *out = p->prop;
    plat_mutex_unlock(&vmm_lock);
    if (p == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'handle' (%p) is not a live physical allocation",
                        fn, h);
    /* Host DDR pages read back under the names the reference reports. */
    if (out->location.type != ACL_MEM_LOCATION_TYPE_DEVICE && out->memAttr == ACL_DDR_MEM_HUGE)
        out->memAttr = ACL_MEM_HUGE;
    if (out->location.type != ACL_MEM_LOCATION_TYPE_DEVICE && out->memAttr == ACL_DDR_MEM_NORMAL)
        out->memAttr = ACL_MEM_NORMAL;
    out->handleType = ACL_MEM_HANDLE_TYPE_NONE;
    out->allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    return ACL_SUCCESS;
}

/* ---- mappings --------------------------------------------------------------- */

static enum mem_origin origin_of(const struct phys *p)
{
    return p->device >= 0 ? ORIGIN_VMM : ORIGIN_HOST;
}

/* Called with vmm_lock held: why [a, a+size) cannot take p, or 0. */
static aclError map_check_locked(const char *fn, uintptr_t a, size_t size, size_t offset, struct phys *p,
                                 struct resv **out)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    struct resv *r = resv_holding_locked(a);
    struct mapping *m;
    size_t gran = min_granularity(&p->prop);

    if (offset != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'offset' (%zu) must be 0", fn, offset);
    if (size != p->size)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'size' (%zu) must be the physical allocation's size (%zu, a multiple of its "
                        "granularity %zu)", fn, size, p->size, gran);
    if (r == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'virPtr' (%p) is not inside a range aclrtReserveMemAddress reserved", fn,
                        (void *)a);
    if ((a - r->base) % gran != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'virPtr' (%p) is not aligned to the allocation's granularity (%zu)", fn,
                        (void *)a, gran);
    if (size > r->size - (a - r->base))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: 'virPtr' (%p) + 'size' (%zu) runs past the end of its reserved range (%p, %zu bytes)", fn,
                        (void *)a, size, (void *)r->base, r->size);
    m = map_overlapping_locked(a, size);
    if (m != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: [%p, +%zu) overlaps the mapping at %p (%zu bytes): a range is mapped once; "
                        "aclrtUnmapMem it first", fn, (void *)a, size, (void *)m->base, m->size);
    *out = r;
    return ACL_SUCCESS;
}

static void apply_access_locked(struct mapping *m);

/* Called with vmm_lock held: maps p at [at, +size) (checked as aclrtMapMem
 * checks), readable and writable by p's location unless no_access (then
 * no location may touch it until aclrtMemSetAccess). */
static aclError map_locked(const char *fn, void *at, size_t size, size_t offset, struct phys *p, bool no_access)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    struct mapping *m;
    struct resv *r = NULL;
    aclError err = map_check_locked(fn, (uintptr_t)at, size, offset, p, &r);
    if (err != ACL_SUCCESS)
        return err;
    m = acl_calloc(1, sizeof(*m)); /* under a mutex, never a spinlock */
    if (m == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    if (!plat_vm_map_file(at, size, p->fd, 0, true)) {
        acl_free(m);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the host could not map %zu bytes at %p", fn, size, at);
    }
    err = devmem_map_add(at, size, p->device, origin_of(p));
    if (err != ACL_SUCCESS) {
        plat_vm_unmap_to_reserved(at, size);
        acl_free(m);
        return acl_fail(err, "%s: [%p, +%zu) could not enter the memory table", fn, at, size);
    }
    *m = (struct mapping){.next = maps, .base = (uintptr_t)at, .size = size, .p = p, .r = r, .in_table = true,
                          .naccess = 1};
    m->acc[0] = (struct access_entry){p->device >= 0 ? ACL_MEM_LOCATION_TYPE_DEVICE : ACL_MEM_LOCATION_TYPE_HOST,
                                      p->device >= 0 ? (uint32_t)p->device : 0,
                                      no_access ? ACL_RT_MEM_ACCESS_FLAGS_NONE : ACL_RT_MEM_ACCESS_FLAGS_READWRITE};
    maps = m;
    p->maps++;
    r->maps++;
    if (no_access)
        apply_access_locked(m);
    return ACL_SUCCESS;
}

static aclError map_handle(const char *fn, void *at, size_t size, size_t offset, aclrtDrvMemHandle h, bool no_access)
{
    struct phys *p;
    aclError err;

    plat_mutex_lock(&vmm_lock);
    p = phys_find_locked(h);
    if (p == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'handle' (%p) is not a live physical allocation", fn,
                       h);
    else
        err = map_locked(fn, at, size, offset, p, no_access);
    plat_mutex_unlock(&vmm_lock);
    return err;
}

aclError vmm_map(const char *fn, void *at, size_t size, size_t offset, aclrtDrvMemHandle h)
{
    return map_handle(fn, at, size, offset, h, false);
}

aclError vmm_map_no_access(const char *fn, void *at, size_t size, size_t offset, aclrtDrvMemHandle h)
{
    return map_handle(fn, at, size, offset, h, true);
}

aclError vmm_map_like(const char *fn, void *dst, size_t size, void *src)
{
    aclError err = ACL_SUCCESS;
    size_t done = 0;

    plat_mutex_lock(&vmm_lock);
    /* Mapping by mapping, as the runtime walks it: each step maps the whole
     * of the next source mapping; the steps made before a failure stay. */
    while (err == ACL_SUCCESS && done < size) {
        uintptr_t from = (uintptr_t)src + done;
        struct mapping *m = map_at_locked(from);
        if (m == NULL || m->p->freed)
            err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                           "%s: 'virPtrSrc' + %zu (%p) is not the start of a mapping of a live physical allocation "
                           "(the source is walked mapping by mapping)", fn, done, (void *)from);
        else if ((err = map_locked(fn, (char *)dst + done, m->size, 0, m->p, false)) == ACL_SUCCESS)
            done += m->size;
    }
    plat_mutex_unlock(&vmm_lock);
    return err;
}

aclError vmm_set_link(const char *fn, aclrtDrvMemHandle h)
{
    struct phys *p;

    plat_mutex_lock(&vmm_lock);
    p = phys_find_locked(h);
    plat_mutex_unlock(&vmm_lock);
    if (p == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'handle' (%p) is not a live physical allocation",
                        fn, h);
    return ACL_SUCCESS; /* one memory, one route: nothing to choose on a CPU */
}

/* Called with vmm_lock held: takes m out and frees what it leaves unused. */
static void unmap_locked(struct mapping *m)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    for (struct mapping **pp = &maps; *pp != NULL; pp = &(*pp)->next) {
        if (*pp == m) {
            *pp = m->next;
            break;
        }
    }
    if (m->in_table)
        devmem_map_remove((void *)m->base);
    plat_vm_unmap_to_reserved((void *)m->base, m->size);
    m->r->maps--;
    if (--m->p->maps == 0 && m->p->freed)
        phys_destroy_locked(m->p);
    acl_free(m);
}

aclError vmm_unmap(const char *fn, void *at)
{
    struct mapping *m;
    plat_mutex_lock(&vmm_lock);
    m = map_at_locked((uintptr_t)at);
    if (m != NULL)
        unmap_locked(m);
    plat_mutex_unlock(&vmm_lock);
    if (m == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'virPtr' (%p) is not the start of a mapping aclrtMapMem made (unmapped already, "
                        "or never mapped)", fn, at);
    return ACL_SUCCESS;
}

aclError vmm_retain(const char *fn, void *at, aclrtDrvMemHandle *out)
{
    struct mapping *m;
    plat_mutex_lock(&vmm_lock);
    m = map_at_locked((uintptr_t)at);
    if (m != NULL && !m->p->freed)
        *out = m->p;
    plat_mutex_unlock(&vmm_lock);
    if (m == NULL || m->p->freed)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'virPtr' (%p) is not the start of a mapping of a live physical allocation", fn,
                        at);
    return ACL_SUCCESS;
}

/* ---- access ----------------------------------------------------------------- */

static bool location_valid(const aclrtMemLocation *loc)
{
    if (loc->type == ACL_MEM_LOCATION_TYPE_HOST)
        return true;
    return loc->type == ACL_MEM_LOCATION_TYPE_DEVICE && loc->id < device_count();
}

static bool flags_valid(uint64_t f)
{
    return f == ACL_RT_MEM_ACCESS_FLAGS_NONE || f == ACL_RT_MEM_ACCESS_FLAGS_READ ||
           f == ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
}

static struct access_entry *access_slot(struct mapping *m, aclrtMemLocationType type, uint32_t id, bool add)
{
    if (type == ACL_MEM_LOCATION_TYPE_HOST)
        id = 0;
    for (uint32_t i = 0; i < m->naccess; i++)
        if (m->acc[i].type == type && m->acc[i].id == id)
            return &m->acc[i];
    if (!add || m->naccess == ACCESS_SLOTS)
        return NULL;
    m->acc[m->naccess] = (struct access_entry){type, id, ACL_RT_MEM_ACCESS_FLAGS_NONE};
    return &m->acc[m->naccess++];
}

/* Called with vmm_lock held: the pages take the flags of the allocation's
 * own location (one address space serves every device here). */
static void apply_access_locked(struct mapping *m)
{
    PLAT_ASSERT_HELD(&vmm_lock);
    uint64_t f = m->acc[0].flags;
    plat_vm_protect((void *)m->base, m->size, f != ACL_RT_MEM_ACCESS_FLAGS_NONE,
                    f == ACL_RT_MEM_ACCESS_FLAGS_READWRITE);
    if (f == ACL_RT_MEM_ACCESS_FLAGS_NONE && m->in_table) {
        devmem_map_remove((void *)m->base);
        m->in_table = false;
    } else if (f != ACL_RT_MEM_ACCESS_FLAGS_NONE && !m->in_table) {
        m->in_table = devmem_map_add((void *)m->base, m->size, m->p->device, origin_of(m->p)) == ACL_SUCCESS;
    }
}

static aclError access_descs_check(const char *fn, const aclrtMemAccessDesc *desc, size_t count)
{
    if (count == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' is 0: at least one descriptor", fn);
    if (count > ACCESS_SLOTS)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' (%zu) is more than %d descriptors", fn,
                        count, ACCESS_SLOTS);
    for (size_t i = 0; i < count; i++) {
        if (!flags_valid(desc[i].flags))
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: desc[%zu].flags (%#x) is not NONE (0), READ (1) or READWRITE (3)", fn, i,
                            (unsigned)desc[i].flags);
        if (!location_valid(&desc[i].location))
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                            "%s: desc[%zu].location (type %d, id %u) is neither the host nor a device", fn, i,
                            (int)desc[i].location.type, desc[i].location.id);
    }
    return ACL_SUCCESS;
}

aclError vmm_set_access(const char *fn, void *at, size_t size, const aclrtMemAccessDesc *desc, size_t count)
{
    aclError err = access_descs_check(fn, desc, count);
    struct mapping *m;

    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&vmm_lock);
    m = map_at_locked((uintptr_t)at);
    if (m == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'virPtr' (%p) is not the start of a mapping", fn,
                       at);
    else if (size != m->size)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' (%zu) is not the mapping's size (%zu)", fn,
                       size, m->size);
    for (size_t i = 0; err == ACL_SUCCESS && i < count; i++) {
        struct access_entry *e = access_slot(m, desc[i].location.type, desc[i].location.id, true);
        if (e != NULL)
            e->flags = desc[i].flags;
    }
    if (err == ACL_SUCCESS)
        apply_access_locked(m);
    plat_mutex_unlock(&vmm_lock);
    return err;
}

aclError vmm_get_access(const char *fn, void *at, const aclrtMemLocation *loc, uint64_t *flags)
{
    aclError err = ACL_SUCCESS;
    struct mapping *m;

    if (!location_valid(loc))
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'location' (type %d, id %u) is neither the host "
                        "nor a device", fn, (int)loc->type, loc->id);
    plat_mutex_lock(&vmm_lock);
    m = map_at_locked((uintptr_t)at);
    if (m == NULL) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'virPtr' (%p) is not the start of a mapping", fn,
                       at);
    } else {
        struct access_entry *e = access_slot(m, loc->type, loc->id, false);
        *flags = e != NULL ? e->flags : ACL_RT_MEM_ACCESS_FLAGS_NONE;
    }
    plat_mutex_unlock(&vmm_lock);
    return err;
}

/* ---- shareable handles ------------------------------------------------------ */

aclError vmm_export(const char *fn, aclrtDrvMemHandle h, uint64_t flags, uint64_t *key)
{
    aclError err = ACL_SUCCESS;
    struct phys *p;

    plat_mutex_lock(&vmm_lock);
    p = phys_find_locked(h);
    if (p == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'handle' (%p) is not a live physical allocation", fn,
                       h);
    else if (p->imported)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: argument 'handle' (%p) was imported: only aclrtMallocPhysical's handles can be exported",
                       fn, h);
    else if (p->exp != NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: argument 'handle' (%p) is exported already: a handle has one shareable handle", fn, h);
    if (err == ACL_SUCCESS) {
        struct share_meta meta = {p->size, p->prop};
        bool check = (flags & ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION) == 0;
        if (share_publish(p->fd, SHARE_KIND_VMM, &meta, sizeof(meta), check, &p->exp, key) != SHARE_OK)
            err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: the host could not make the control file", fn);
    }
    plat_mutex_unlock(&vmm_lock);
    return err;
}

aclError vmm_set_pids(const char *fn, uint64_t key, const int32_t *pids, size_t n)
{
    aclError err = ACL_SUCCESS;
    struct share_export *e;

    for (size_t i = 0; i < n; i++)
        if (pids[i] <= 0)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: pid[%zu] (%d) is not a process id", fn, i, pids[i]);
    plat_mutex_lock(&vmm_lock); /* the export cannot be withdrawn meanwhile */
    e = share_find(key, SHARE_KIND_VMM);
    if (e == NULL)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                       "%s: argument 'shareableHandle' (%#llx) is not a live export of this process", fn,
                       (unsigned long long)key);
    else if (share_allow_pids(e, pids, n) != SHARE_OK)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the pid list is full (%d pids)", fn, SHARE_MAX_PIDS);
    plat_mutex_unlock(&vmm_lock);
    return err;
}

static aclError import_failure(const char *fn, enum share_status st, uint64_t key)
{
    unsigned long long k = (unsigned long long)key;
    switch (st) {
    case SHARE_DENIED:
        return acl_fail(ACL_ERROR_RT_NO_PERMISSION,
                        "%s: this process (pid %d) is not on the pid list of shareable handle %#llx "
                        "(aclrtMemSetPidToShareableHandle), and its export kept pid validation on",
                        fn, (int)plat_pid(), k);
    case SHARE_SELF:
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: shareable handle %#llx was exported by this process: import only in another process",
                        fn, k);
    case SHARE_NO_MEMORY:
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
                        "%s: argument 'shareableHandle' (%#llx) is not a live export of a process of this user", fn,
                        k);
    }
}

aclError vmm_import(const char *fn, uint64_t key, int32_t device, aclrtDrvMemHandle *out)
{
    struct share_meta meta;
    struct phys *p;
    int fd = -1;
    enum share_status st = share_open(key, SHARE_KIND_VMM, &fd, &meta, sizeof(meta));

    if (st == SHARE_OK && (plat_fd_size(fd) < 0 || (uint64_t)plat_fd_size(fd) < meta.size)) {
        plat_close(fd);
        st = SHARE_BAD_KEY; /* mapping past the file's end would fault */
    }
    if (st != SHARE_OK)
        return import_failure(fn, st, key);
    p = acl_calloc(1, sizeof(*p));
    if (p == NULL) {
        plat_close(fd);
        return import_failure(fn, SHARE_NO_MEMORY, key);
    }
    p->fd = fd;
    p->size = (size_t)meta.size;
    p->prop = meta.prop;
    p->prop.location.id = (uint32_t)device;
    p->device = device;
    p->imported = true; /* the exporter's budget holds it */
    phys_insert(p);
    *out = p;
    return ACL_SUCCESS;
}

/* ---- teardown --------------------------------------------------------------- */

static bool of_device(int32_t device, int32_t owner) { return device < 0 || owner == device; }

/* device -1: everything. */
static void release_matching(int32_t device)
{
    plat_mutex_lock(&vmm_lock);
    for (struct mapping *m = maps, *next; m != NULL; m = next) {
        next = m->next;
        if (of_device(device, m->r->device) || of_device(device, m->p->device))
            unmap_locked(m);
    }
    for (struct phys *p = physes, *next; p != NULL; p = next) {
        next = p->next;
        if (of_device(device, p->device) && p->maps == 0)
            phys_destroy_locked(p);
    }
    for (struct resv **pp = &resvs; *pp != NULL;) {
        struct resv *r = *pp;
        if (of_device(device, r->device) && r->maps == 0) {
            *pp = r->next;
            plat_vm_release((void *)r->base, r->size);
            acl_free(r);
        } else {
            pp = &r->next;
        }
    }
    plat_mutex_unlock(&vmm_lock);
}

void vmm_release_device(int32_t device) { release_matching(device); }

void vmm_release_all(void) { release_matching(-1); }
