/*
 * devmem.h - device memory and the table of every allocation aclcpu made.
 */
#ifndef ACLCPU_DEVMEM_H
#define ACLCPU_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>

#include "acl/acl.h"

struct device;

enum mem_kind {
    MEM_UNKNOWN,      /* not aclcpu's: ordinary (pageable) host memory, or garbage */
    MEM_DEVICE,       /* inside an aclrtMalloc block */
    MEM_HOST_PINNED,  /* inside an aclrtMallocHost block */
    MEM_OVERRUN,      /* starts inside a block but runs past its end */
};

/* Bytes a request of size charges against the budget (32 B rounding + 32 B). */
size_t devmem_charge(size_t size);
aclError devmem_alloc(struct device *d, size_t size, void **out);
aclError devmem_alloc_host(size_t size, void **out);
bool devmem_free(void *p, bool device);
/* What [p, p+len) is. */
enum mem_kind devmem_classify(const void *p, size_t len);
void devmem_release_all(void);

#endif
