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

/* Bytes a request of size charges against the budget (32 B rounding + 32 B). */
size_t devmem_charge(size_t size);
/* Device memory, charged to a device's bytes in use (*used, of total). */
aclError devmem_alloc(_Atomic uint64_t *used, uint64_t total, size_t size, void **out);
aclError devmem_alloc_host(size_t size, void **out);
bool devmem_free(void *p, bool device);
/* What [p, p+len) is. */
enum mem_kind devmem_classify(const void *p, size_t len);
void devmem_release_all(void);

#endif
