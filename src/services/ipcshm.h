/*
 * ipcshm.h - objects shared between processes by key: the table of this
 * process's exports, the peers' tables it maps, allow-lists, and the
 * shared words of IPC notifies and events.
 */
#ifndef ACLCPU_IPCSHM_H
#define ACLCPU_IPCSHM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

/* A key's bytes with its terminating NUL: the reference's fixed length. */
#define IPC_KEY_LEN 65u
/* The characters our keys have at most: they also fit the 64 bytes of an
 * aclrtIpcEventHandle with their NUL. */
#define IPC_KEY_MAX 57u
/* Processes one key may name in its allow-list. */
#define IPC_MAX_PIDS 64u

enum ipc_kind {
    IPC_MEMORY = 1,
    IPC_NOTIFY = 2,
    IPC_EVENT = 3,
};

struct ipc_slot;

/* One use of a shared slot: an export of this process, or an import of a
 * peer's. Filled by ipcshm_export / ipcshm_import / ipcshm_find_own. */
struct ipc_ref {
    struct ipc_slot *slot;
    void *peer;          /* the peer table mapped for an import; NULL for our own */
    uint32_t index;
};

/* What the exporter of a memory key published: its memory file (a
 * descriptor number in the exporter), where the block starts and its size. */
struct ipc_backing {
    int32_t pid;
    int32_t fd;
    uint64_t offset;
    uint64_t size;
};

/* Publishes a new object of kind under a key (written to key, NUL
 * included); without no_pid_check only processes later allowed
 * (ipcshm_allow) may import it. 207001 when the table is full. */
aclError ipcshm_export(enum ipc_kind kind, bool no_pid_check, const struct ipc_backing *b, char key[IPC_KEY_MAX + 1],
                       struct ipc_ref *out);
/* Ends an export: the key stops working for new imports. */
void ipcshm_unexport(struct ipc_ref *ref);
/* Adds pids to an export's allow-list; false (nothing added) if the list
 * would hold more than IPC_MAX_PIDS. */
bool ipcshm_allow(struct ipc_ref *ref, const int32_t *pids, size_t n);
/* An export of ours named by key; false if the key is not one. */
bool ipcshm_find_own(const char *key, enum ipc_kind kind, struct ipc_ref *out);
/* Maps the exporter's table and checks the key and that this process may
 * import it. 107000 for a key that names no live object of kind (malformed,
 * closed, its process gone), 207006 for a process not allowed; *why says
 * which. */
aclError ipcshm_import(const char *key, enum ipc_kind kind, struct ipc_ref *out, const char **why);
void ipcshm_unimport(struct ipc_ref *ref);
/* The backing of a memory slot. */
void ipcshm_backing(const struct ipc_ref *ref, struct ipc_backing *out);
/* Tables mapped now, ours and peers' (a test checks it returns to 0). */
uint32_t ipcshm_tables_mapped(void);

/* ---- shared synchronisation words ---- */
/* A notify's record: sets its flag (ipcshm_wake then tells the watchers;
 * the change counter moves here, so the wake may come later, outside a
 * spinlock). */
void ipcshm_notify_set(struct ipc_slot *s);
/* Consumes the flag if it is set. */
bool ipcshm_notify_take(struct ipc_slot *s);
/* An event's record is issued: its number, unique across the processes. */
uint64_t ipcshm_event_issue(struct ipc_slot *s);
/* An event exported after records were made starts from them. */
void ipcshm_event_seed(struct ipc_slot *s, uint64_t issued, uint64_t done);
/* The newest record issued anywhere, and the newest completed. */
uint64_t ipcshm_event_newest(struct ipc_slot *s);
uint64_t ipcshm_event_done(struct ipc_slot *s);
/* Record gen completed: done moves to it if newer (then ipcshm_wake). */
void ipcshm_event_reach(struct ipc_slot *s, uint64_t gen);
/* Wakes every process's watchers of s. */
void ipcshm_wake(struct ipc_slot *s);
/* A watcher's sleep: reads the change counter, then sleeps while it still
 * reads seq (ipcshm_poke and every set/reach change it). */
uint32_t ipcshm_seq(struct ipc_slot *s);
void ipcshm_sleep(struct ipc_slot *s, uint32_t seq);
void ipcshm_poke(struct ipc_slot *s);

#endif
