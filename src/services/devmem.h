/*
 * devmem.h - device and pinned host memory (an arena per device, arena.h)
 * and the table of mappings made elsewhere.
 */
#ifndef ACLCPU_DEVMEM_H
#define ACLCPU_DEVMEM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

enum mem_kind {
    MEM_UNKNOWN,      /* not aclcpu's: ordinary (pageable) host memory, or garbage */
    MEM_DEVICE,       /* inside an aclrtMalloc block */
    MEM_HOST_PINNED,  /* inside an aclrtMallocHost block */
    MEM_OVERRUN,      /* starts inside a block but runs past its end */
};

/* The largest device request whose rounding to 32 bytes plus 32 bytes of
 * padding fits a size_t (the reference refuses larger ones). */
#define DEVMEM_MAX_DEVICE_SIZE (SIZE_MAX - 64)
/* The largest device request without padding (aclrtMallocAlign32, the
 * HUGE1G policies, aclrtMallocWithCfg) whose rounding to 32 bytes fits. */
#define DEVMEM_MAX_UNPADDED_SIZE (SIZE_MAX - 32)
/* The largest pinned host request whose rounding to 32 bytes fits a size_t. */
#define DEVMEM_MAX_HOST_SIZE (SIZE_MAX - 31)

/* Where a range of device-visible memory came from. */
enum mem_origin {
    ORIGIN_MALLOC,     /* aclrtMalloc and its variants: a block of a device's arena */
    ORIGIN_HOST,       /* aclrtMallocHost: pinned host memory */
    ORIGIN_VMM,        /* physical memory mapped into a reserved range (aclrtMapMem) */
    ORIGIN_IPC,        /* another process's memory imported (IPC keys, shareable handles) */
    ORIGIN_REGISTERED, /* host memory registered with aclrtHostRegister */
    ORIGIN_MANAGED,    /* aclrtMemAllocManaged */
};

/* One range of the table: an allocation, or a mapping added below. */
struct mem_range {
    void *base;
    size_t size;          /* the bytes a caller may touch */
    int32_t device;       /* -1 for host memory */
    enum mem_origin origin;
};

/* The range holding p; false if p lies in none. */
bool devmem_lookup(const void *p, struct mem_range *out);
/* A number that changes whenever a range or block may have come or gone:
 * a lookup made while it had the same value still holds (the race
 * checker's per-thread cache). */
uint64_t devmem_generation(void);
/* Enters a mapping made elsewhere (VMM, IPC import, host registration,
 * managed memory) in the table, so that copies, kernels and checks treat
 * it as the origin says: MALLOC, VMM, IPC and MANAGED ranges are device
 * memory, HOST and REGISTERED ones pinned host memory. Ranges never
 * overlap: 107000 (ACL_ERROR_INVALID_PARAM) if it would, 207001 if the
 * table cannot grow. */
aclError devmem_map_add(void *base, size_t size, int32_t device, enum mem_origin origin);
/* Takes out a range devmem_map_add entered (base exactly); false if none. */
bool devmem_map_remove(void *base);
/* The memory file behind the allocation holding p, for sharing it with
 * another process: its descriptor, the file offset of the block's start
 * and the block. False if p is not in an arena block. */
bool devmem_backing(const void *p, int *fd, uint64_t *offset, struct mem_range *block);

/* Bytes a request of size charges against the budget (32 B rounding + 32 B);
 * SIZE_MAX for a size above DEVMEM_MAX_DEVICE_SIZE, which can never fit. */
size_t devmem_charge(size_t size);
/* Device memory, charged to a device's bytes in use (*used, of total): the
 * counter is always the sum of its live blocks' charges. */
aclError devmem_alloc(_Atomic uint64_t *used, uint64_t total, size_t size, void **out);
/* As devmem_alloc without the 32 bytes of padding: the request rounded to
 * 32 bytes is charged, the request is usable. */
aclError devmem_alloc_unpadded(_Atomic uint64_t *used, uint64_t total, size_t size, void **out);
/* The most bytes the device charging *used had in use at once since its
 * memory began (0 if it has none). */
uint64_t devmem_peak(_Atomic uint64_t *used);
/* Whether p lies in an arena's address range (a device's or the host's),
 * live block or not: a freed device address is one, foreign memory not. */
bool devmem_in_arena(const void *p);
aclError devmem_alloc_host(size_t size, void **out);
/* Frees the block starting at p (of an aclrtMalloc if device, else of an
 * aclrtMallocHost) now; false if no live block of that kind starts there. */
bool devmem_free(void *p, bool device);

/* The most devices with memory of their own. */
#define ACLCPU_DEVMEM_MAX_DEVICES 16
/* A device's memory begins: its allocations charge *used, of total. */
void devmem_open_device(int32_t device, _Atomic uint64_t *used, uint64_t total);
/* Quarantine: the block starting at p is freed for the program (its
 * charge goes back, a second free is refused) but kept out of reuse, as
 * tasks issued before the free may still touch it; *size is its usable
 * size. False, as devmem_free. devmem_release later makes it reusable. */
bool devmem_retire(void *p, bool device, size_t *size);
void devmem_release(void *p);

struct devmem_stats {
    uint64_t backed;   /* bytes the arenas keep backed (warm across frees) */
    size_t arenas;     /* arenas mapped: one per device that allocated, and the host's */
    size_t mappings;   /* entries devmem_map_add made */
};
void devmem_stats(struct devmem_stats *out);
/* What [p, p+len) is. */
enum mem_kind devmem_classify(const void *p, size_t len);
/* Copies len bytes at p to out if [p, p+len) lies inside one live device
 * block, else returns false (a racing free cannot free it during the copy). */
bool devmem_read_device(const void *p, void *out, size_t len);
/* The same, writing len bytes of in at p. */
bool devmem_write_device(void *p, const void *in, size_t len);
/* A copy of the contents of every live device allocation (a snapshot's
 * backup): 200000 (ACL_ERROR_BAD_ALLOC) when host memory runs out. */
struct devmem_image;
aclError devmem_image_take(struct devmem_image **out);
/* Copies the image back into the allocations that are still the same live
 * blocks (same start and size); returns how many were. */
size_t devmem_image_restore(const struct devmem_image *img);
size_t devmem_image_blocks(const struct devmem_image *img);
void devmem_image_free(struct devmem_image *img);
/* Frees every block charged to *used: a device's memory at its close. */
void devmem_release_charged_to(_Atomic uint64_t *used);
void devmem_release_all(void);

#endif
