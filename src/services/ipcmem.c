/*
 * ipcmem.c - device memory shared with other processes by key.
 *
 * DESIGN: an export publishes, in a slot of this process's IPC table
 * (ipcshm.c), the memory file behind an aclrtMalloc block (devmem_backing),
 * the offset of the shared range in it and its size. An importer opens
 * that file through /proc/<exporter>/fd, reserves address space, maps the
 * file's pages there (both processes then see the same bytes) and enters
 * the range in the device memory table as ORIGIN_IPC, so copies, kernels
 * and pointer queries treat it as device memory. aclrtIpcMemClose undoes
 * the oldest import of a key in this process, or else ends our export of
 * it, as the reference does by name. A device's close ends the exports
 * and imports made on it.
 *
 * Threads: any host thread. Locks: ipcmem_lock (rank: lockrank.h) guards
 * the list; under it this file calls ipcshm and devmem (ranked after it).
 */
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "devmem.h"
#include "ipcmem.h"
#include "ipcshm.h"

#define PAGE 4096u

struct shared_range {
    struct shared_range *next;
    bool imported;
    int32_t device;
    struct ipc_ref ref;
    char key[IPC_KEY_MAX + 1];
    void *map;           /* import: the reserved, mapped span */
    size_t map_size;
    void *base;          /* import: what the caller got */
};

static plat_mutex ipcmem_lock;
static struct shared_range *ranges; /* newest first */
static uint32_t live;

__attribute__((constructor)) static void ipcmem_init(void) { plat_mutex_init(&ipcmem_lock, LOCK_IPCMEM); }

aclError ipcmem_export(void *p, size_t size, int32_t device, bool no_pid_check, char *key, const char **why)
{
    struct mem_range block;
    struct ipc_backing b;
    struct shared_range *r;
    uint64_t offset;
    int fd;
    aclError err;
    if (!devmem_backing(p, &fd, &offset, &block) || block.origin != ORIGIN_MALLOC) {
        *why = "it is not inside an aclrtMalloc block";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (size > block.size - (size_t)((uint8_t *)p - (uint8_t *)block.base)) {
        *why = "the range runs past the end of its aclrtMalloc block";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    r = acl_calloc(1, sizeof(*r));
    if (r == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    b = (struct ipc_backing){plat_pid(), fd, offset + (uint64_t)((uint8_t *)p - (uint8_t *)block.base), size};
    plat_mutex_lock(&ipcmem_lock);
    err = ipcshm_export(IPC_MEMORY, no_pid_check, &b, r->key, &r->ref);
    if (err == ACL_SUCCESS) {
        r->device = device;
        r->next = ranges;
        ranges = r;
        live++;
        memcpy(key, r->key, strlen(r->key) + 1);
    }
    plat_mutex_unlock(&ipcmem_lock);
    if (err != ACL_SUCCESS) {
        acl_free(r);
        *why = "this process shares as many objects as it can";
    }
    return err;
}

aclError ipcmem_allow(const char *key, const int32_t *pids, size_t num, const char **why)
{
    struct ipc_ref ref;
    if (!ipcshm_find_own(key, IPC_MEMORY, &ref)) {
        *why = "it names no live export of this process (aclrtIpcMemGetExportKey)";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (!ipcshm_allow(&ref, pids, num)) {
        *why = "a key's allow-list holds at most 64 processes";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

/* Maps the exporter's file pages holding b's range; the range's address or NULL. */
static void *map_backing(const struct ipc_backing *b, struct shared_range *r)
{
    uint64_t first = b->offset & ~(uint64_t)(PAGE - 1);
    size_t lead = (size_t)(b->offset - first);
    int fd;
    if (b->size > SIZE_MAX - lead - PAGE)
        return NULL;
    r->map_size = (lead + b->size + PAGE - 1) & ~(size_t)(PAGE - 1);
    fd = plat_peer_fd_open(b->pid, b->fd);
    if (fd < 0)
        return NULL;
    r->map = plat_vm_reserve(r->map_size, PAGE);
    if (r->map != NULL && !plat_vm_map_file(r->map, r->map_size, fd, first, true)) {
        plat_vm_release(r->map, r->map_size);
        r->map = NULL;
    }
    plat_close(fd); /* the mapping keeps the file */
    return r->map == NULL ? NULL : (uint8_t *)r->map + lead;
}

aclError ipcmem_import(const char *key, int32_t device, void **out, const char **why)
{
    struct ipc_backing b;
    struct shared_range *r = acl_calloc(1, sizeof(*r));
    aclError err;
    if (r == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    err = ipcshm_import(key, IPC_MEMORY, &r->ref, why);
    if (err != ACL_SUCCESS) {
        acl_free(r);
        return err;
    }
    ipcshm_backing(&r->ref, &b);
    r->base = map_backing(&b, r);
    err = r->base == NULL ? ACL_ERROR_RT_PARAM_INVALID : devmem_map_add(r->base, (size_t)b.size, device, ORIGIN_IPC);
    if (err != ACL_SUCCESS) {
        *why = r->base == NULL ? "the exporter's memory file could not be mapped (is its process gone?)"
                               : "the device memory table cannot take the mapping";
        if (r->map != NULL)
            plat_vm_release(r->map, r->map_size);
        ipcshm_unimport(&r->ref);
        acl_free(r);
        return err;
    }
    r->imported = true;
    r->device = device;
    memcpy(r->key, key, strlen(key) + 1); /* parsed: at most IPC_KEY_MAX characters */
    plat_mutex_lock(&ipcmem_lock);
    r->next = ranges;
    ranges = r;
    live++;
    plat_mutex_unlock(&ipcmem_lock);
    *out = r->base;
    return ACL_SUCCESS;
}

static void range_end(struct shared_range *r)
{
    if (r->imported) {
        (void)devmem_map_remove(r->base);
        plat_vm_release(r->map, r->map_size);
        ipcshm_unimport(&r->ref);
    } else {
        ipcshm_unexport(&r->ref);
    }
    acl_free(r);
}

/* Called with ipcmem_lock held: unlinks *pp and counts it gone. */
static struct shared_range *unlink_locked(struct shared_range **pp)
{
    PLAT_ASSERT_HELD(&ipcmem_lock);
    struct shared_range *r = *pp;
    *pp = r->next;
    live--;
    return r;
}

aclError ipcmem_close(const char *key, const char **why)
{
    struct shared_range **pp, **import = NULL, **export = NULL, *r = NULL;
    plat_mutex_lock(&ipcmem_lock);
    for (pp = &ranges; *pp != NULL; pp = &(*pp)->next) {
        if (strcmp((*pp)->key, key) != 0)
            continue;
        if ((*pp)->imported)
            import = pp; /* newest first: the last one seen is the oldest */
        else
            export = pp;
    }
    if (import != NULL || export != NULL)
        r = unlink_locked(import != NULL ? import : export);
    plat_mutex_unlock(&ipcmem_lock);
    if (r == NULL) {
        *why = "no import or export of it is open in this process (closed already, or never made)";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    range_end(r);
    return ACL_SUCCESS;
}

void ipcmem_release_device(int32_t device)
{
    struct shared_range *gone = NULL, **pp = &ranges;
    plat_mutex_lock(&ipcmem_lock);
    while (*pp != NULL) {
        if ((*pp)->device == device) {
            struct shared_range *r = unlink_locked(pp);
            r->next = gone;
            gone = r;
        } else {
            pp = &(*pp)->next;
        }
    }
    plat_mutex_unlock(&ipcmem_lock);
    while (gone != NULL) {
        struct shared_range *next = gone->next;
        range_end(gone);
        gone = next;
    }
}

uint32_t ipcmem_live(void)
{
    uint32_t n;
    plat_mutex_lock(&ipcmem_lock);
    n = live;
    plat_mutex_unlock(&ipcmem_lock);
    return n;
}
