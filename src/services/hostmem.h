/*
 * hostmem.h - host memory registered for device access, and managed
 * (unified) memory: the ranges, their owners and, for managed memory, the
 * advice and prefetch state of each 2 MiB page.
 */
#ifndef ACLCPU_HOSTMEM_H
#define ACLCPU_HOSTMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* ---- registered host memory ------------------------------------------------ */

/* aclrtHostRegisterV2's flags, as the header numbers them. */
#define HOSTREG_MAPPED 0x2u
#define HOSTREG_IOMEMORY 0x4u
#define HOSTREG_READONLY 0x8u
#define HOSTREG_PINNED 0x10000000u
#define HOSTREG_VALID_FLAGS (HOSTREG_MAPPED | HOSTREG_IOMEMORY | HOSTREG_READONLY | HOSTREG_PINNED)

/* Registers [ptr, ptr+size) for device `device`: 507910 if it overlaps a
 * registered range, 107000 if it overlaps device memory or a mapping
 * (only host memory can be registered), 207001 when out of memory. A
 * mapped range enters devmem's table as ORIGIN_REGISTERED (unless it lies
 * inside aclrtMallocHost memory, which is there already). */
aclError hostreg_add(void *ptr, size_t size, uint32_t flags, int32_t device);
/* Ends the registration that starts at ptr; false if none does. */
bool hostreg_remove(void *ptr);
/* The device address of the mapped registration starting at host (the
 * same address: the device shares the host's address space); false if no
 * mapped registration starts there. */
bool hostreg_device_ptr(const void *host, void **dev);
size_t hostreg_count(void);

/* ---- managed memory ---------------------------------------------------------- */

#define MANAGED_PAGE ((size_t)2 << 20) /* advice and prefetch work on 2 MiB pages */

/* A location as aclrtMemManagedLocation gives it. */
struct managed_loc {
    int type; /* aclrtMemManagedLocationType */
    int32_t id;
};

/* size rounded up to MANAGED_PAGE, mapped readable and writable, entered
 * in devmem's table as ORIGIN_MANAGED for device `device`. 207001 when
 * the address space or the table cannot take it. */
aclError managed_alloc(uint64_t size, int32_t device, void **out);
/* Frees the managed allocation starting at p; false if none does. */
bool managed_free(void *p);
/* Takes the managed allocation starting at p out of the program's use (a
 * second free, copies and checks see it freed) but keeps its pages mapped,
 * for work still queued that may touch them; *size and *device say what it
 * was. Undo with managed_release. False if none starts at p. */
bool managed_retire(void *p, size_t *size, int32_t *device);
/* Unmaps an allocation managed_retire kept. */
void managed_release(void *p, size_t size);
/* Whether [p, p+size) lies inside one managed allocation. */
bool managed_covers(const void *p, size_t size);
/* Applies advice (aclrtMemManagedAdviseType) to the pages of [p, p+size),
 * which the caller has checked lie in one allocation; false if they no
 * longer do (freed meanwhile). */
bool managed_advise(const void *p, size_t size, int advice, struct managed_loc loc);
/* Records that the pages of [p, p+size) were prefetched to loc, and backs
 * them with memory now when loc is a device (as migration would); nothing
 * if the range is no longer managed memory. */
void managed_prefetched(const void *p, size_t size, struct managed_loc loc);
/* Writes attribute attr (aclrtMemManagedRangeAttribute) of the pages of
 * [p, p+size) to data: 107000 if dataSize does not suit it, or the range
 * is not inside one managed allocation. */
aclError managed_get_attr(int attr, const void *p, size_t size, void *data, size_t data_size);
size_t managed_count(void);

/* Ends every registration and frees every managed allocation made for
 * device (its close); -1: all of them (aclFinalize). */
void hostmem_release_device(int32_t device);

#endif
