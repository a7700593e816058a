/*
 * devmem.h - device memory and the table of every allocation aclcpu made.
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
/* The largest pinned host request whose rounding to 32 bytes fits a size_t. */
#define DEVMEM_MAX_HOST_SIZE (SIZE_MAX - 31)

/* Bytes a request of size charges against the budget (32 B rounding + 32 B);
 * SIZE_MAX for a size above DEVMEM_MAX_DEVICE_SIZE, which can never fit. */
size_t devmem_charge(size_t size);
/* Device memory, charged to a device's bytes in use (*used, of total): the
 * counter is always the sum of its live blocks' charges. */
aclError devmem_alloc(_Atomic uint64_t *used, uint64_t total, size_t size, void **out);
aclError devmem_alloc_host(size_t size, void **out);
bool devmem_free(void *p, bool device);
/* What [p, p+len) is. */
enum mem_kind devmem_classify(const void *p, size_t len);
/* Copies len bytes at p to out if [p, p+len) lies inside one live device
 * block, else returns false (a racing free cannot free it during the copy). */
bool devmem_read_device(const void *p, void *out, size_t len);
/* Frees every block charged to *used: a device's memory at its close. */
void devmem_release_charged_to(_Atomic uint64_t *used);
void devmem_release_all(void);

#endif
