/*
 * ipcmem.h - device memory shared with other processes by key (the
 * exports of this process and the imports it mapped).
 */
#ifndef ACLCPU_IPCMEM_H
#define ACLCPU_IPCMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* Shares [p, p+size) of an aclrtMalloc block of device `device` under a
 * new key. 107000 (*why set) if the range is not inside one block backed
 * by a memory file. */
aclError ipcmem_export(void *p, size_t size, int32_t device, bool no_pid_check, char *key, const char **why);
/* Adds pids to the allow-list of one of our exports. */
aclError ipcmem_allow(const char *key, const int32_t *pids, size_t num, const char **why);
/* Maps the memory key names into this process for device `device`. */
aclError ipcmem_import(const char *key, int32_t device, void **out, const char **why);
/* Closes key here: the oldest import of it, else our export of it. */
aclError ipcmem_close(const char *key, const char **why);
/* Ends every export and import of device `device` (its close). */
void ipcmem_release_device(int32_t device);
/* Imports mapped and exports live now (a test checks teardown brings them to 0). */
uint32_t ipcmem_live(void);

#endif
