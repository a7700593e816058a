/*
 * vmm.h - virtual memory: reserved address ranges, physical allocations
 * (memory files charged to a device's budget), the mappings between them,
 * and shareable handles that carry a physical allocation to another
 * process. Each function checks what the driver checks and fails with the
 * reference's code and a message naming fn.
 */
#ifndef ACLCPU_VMM_H
#define ACLCPU_VMM_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

struct device;

aclError vmm_reserve(const char *fn, size_t size, size_t alignment, void *expect, int32_t device, void **out);
aclError vmm_release(const char *fn, void *base);
/* dev NULL: host memory, charged to no device. */
aclError vmm_malloc_physical(const char *fn, size_t size, const aclrtPhysicalMemProp *prop, struct device *dev,
                             aclrtDrvMemHandle *out);
aclError vmm_free_physical(const char *fn, aclrtDrvMemHandle h);
aclError vmm_map(const char *fn, void *at, size_t size, size_t offset, aclrtDrvMemHandle h);
/* aclrtMemMapNoAccess: vmm_map, with no location's access until aclrtMemSetAccess. */
aclError vmm_map_no_access(const char *fn, void *at, size_t size, size_t offset, aclrtDrvMemHandle h);
/* aclrtMemMapSelectedLink: maps at dst, mapping by mapping, the physical
 * allocations mapped from src on, until size bytes are covered. */
aclError vmm_map_like(const char *fn, void *dst, size_t size, void *src);
/* aclrtMemMapSetLink: h must be a live physical allocation. */
aclError vmm_set_link(const char *fn, aclrtDrvMemHandle h);
aclError vmm_unmap(const char *fn, void *at);
aclError vmm_set_access(const char *fn, void *at, size_t size, const aclrtMemAccessDesc *desc, size_t count);
aclError vmm_get_access(const char *fn, void *at, const aclrtMemLocation *loc, uint64_t *flags);
aclError vmm_retain(const char *fn, void *at, aclrtDrvMemHandle *out);
aclError vmm_properties(const char *fn, aclrtDrvMemHandle h, aclrtPhysicalMemProp *out);
/* The granularity of memAttr's pages; 0 if memAttr is not one aclcpu
 * allocates physically or option is not a granularity option. */
size_t vmm_granularity(aclrtMemAttr attr, aclrtMemGranularityOptions option);
aclError vmm_export(const char *fn, aclrtDrvMemHandle h, uint64_t flags, uint64_t *key);
aclError vmm_set_pids(const char *fn, uint64_t key, const int32_t *pids, size_t n);
aclError vmm_import(const char *fn, uint64_t key, int32_t device, aclrtDrvMemHandle *out);

/* A device's close: unmaps, frees and releases everything of the device. */
void vmm_release_device(int32_t device);
/* aclFinalize: everything left. */
void vmm_release_all(void);

#endif
