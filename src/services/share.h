/*
 * share.h - memory files published to other processes of the same user.
 *
 * An exporter publishes a memory file (a plat_memfd descriptor) and gets a
 * 64-bit key; a process that knows the key opens the same file, if the
 * exporter allowed its pid (or exported with the pid check off). Used by
 * the shareable handles of virtual memory; IPC memory, notify and event
 * keys can use it the same way (their own kind value keeps keys of one
 * family from opening another's).
 */
#ifndef ACLCPU_SHARE_H
#define ACLCPU_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What went wrong, for the caller's message and code. */
enum share_status {
    SHARE_OK,
    SHARE_NO_MEMORY,   /* a memory file or the table could not be made */
    SHARE_BAD_KEY,     /* not a key any live process published (or of another kind) */
    SHARE_SELF,        /* the key is this process's own export */
    SHARE_DENIED,      /* the exporter did not allow this process's pid */
    SHARE_PIDS_FULL,   /* the allow-list holds SHARE_MAX_PIDS pids already */
};

/* The most pids one export can allow. */
#define SHARE_MAX_PIDS 1000
/* Bytes of caller data an export carries to importers (size, properties). */
#define SHARE_META_BYTES 64

struct share_export;

/* Publishes data_fd (kept open by the caller until share_unpublish) under
 * a new key. meta (meta_len <= SHARE_META_BYTES) travels to importers.
 * check_pids false lets any process of the user import. */
enum share_status share_publish(int data_fd, uint32_t kind, const void *meta, size_t meta_len, bool check_pids,
                                struct share_export **out, uint64_t *key);
/* The export of this process that key names, or NULL. */
struct share_export *share_find(uint64_t key, uint32_t kind);
/* Adds pids to the export's allow-list (a pid already there is kept once). */
enum share_status share_allow_pids(struct share_export *e, const int32_t *pids, size_t n);
/* Withdraws the export: later imports fail; files already opened by
 * importers stay valid (the kernel keeps the file while anyone holds it). */
void share_unpublish(struct share_export *e);
/* Opens the file a peer published under key: a new descriptor of this
 * process in *data_fd, and the export's meta. */
enum share_status share_open(uint64_t key, uint32_t kind, int *data_fd, void *meta, size_t meta_len);
/* Live exports of this process (tests count them). */
size_t share_count(void);

#endif
