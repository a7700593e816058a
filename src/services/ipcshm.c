/*
 * ipcshm.c - objects shared between processes by key.
 *
 * DESIGN: a process that exports anything (IPC memory, notify or event)
 * keeps one table in a memory file (plat_memfd: mode 0600, never named in
 * the file system). A slot of the table describes one export: its kind,
 * the allow-list of processes that may import it, the exporter's memory
 * file behind an IPC memory key, and the shared words of a notify (flag)
 * or an event (record and done numbers) with a change counter that
 * watchers sleep on (a process-shared futex). A key names the exporter's
 * pid, the table's descriptor there, the slot, the slot's serial (bumped
 * at every export, so a closed key never names a later object) and the
 * table's random nonce. An importer opens the table through
 * /proc/<pid>/fd (the kernel allows that to the same user only) and maps
 * it; peers' tables are mapped once per process and counted. When the
 * last export ends the table is unmapped and closed; when every process
 * that mapped it is gone, the kernel frees it: nothing is left behind,
 * even if the exporter is killed.
 *
 * Threads: any host thread; executors and IPC watchers touch the shared
 * words (lock-free atomics only: another process cannot take our locks).
 * Locks: ipc_lock (rank: lockrank.h) guards this process's table, its
 * slots' allow-lists and the list of peers' tables.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "ipcshm.h"

#define IPC_SLOTS 256u
#define IPC_MAGIC 0x6163 /* "ac" */
#define IPC_VERSION 1u

enum { SLOT_FREE = 0, SLOT_LIVE = 1 };

struct ipc_slot {
    _Atomic uint32_t state;
    _Atomic uint32_t serial;
    uint32_t kind;
    _Atomic uint32_t no_pid_check;
    _Atomic uint32_t npids;
    int32_t pids[IPC_MAX_PIDS];
    struct ipc_backing backing;
    _Atomic uint32_t seq;         /* futex word: bumped at every change below */
    _Atomic uint32_t flag;        /* notify: set by a record, taken by a wait */
    _Atomic uint64_t record_gen;  /* event: records issued, in every process */
    _Atomic uint64_t done_gen;    /* event: newest record completed */
};

struct ipc_table {
    uint32_t magic, version;
    int32_t owner;
    uint32_t nslots;
    uint64_t nonce;
    struct ipc_slot slots[IPC_SLOTS];
};

struct peer {
    struct peer *next;
    int32_t pid;
    uint64_t nonce;
    struct ipc_table *map;
    uint32_t refs;
};

static plat_mutex ipc_lock;
static struct ipc_table *own;  /* NULL until the first export */
static int own_fd = -1;
static uint32_t own_live, own_cursor;
static struct peer *peers;
static _Atomic uint32_t tables_mapped; /* relaxed: a count for tests */

__attribute__((constructor)) static void ipcshm_init(void) { plat_mutex_init(&ipc_lock, LOCK_IPC); }

static size_t table_bytes(void) { return (sizeof(struct ipc_table) + 4095u) & ~(size_t)4095u; }

/* A key as the slot's exporter writes it; false if it does not fit. */
static bool format_key(char *key, int32_t pid, int fd, uint32_t index, uint32_t serial, uint64_t nonce)
{
    int n = snprintf(key, IPC_KEY_MAX + 1, "acl-%" PRId32 "-%d-%" PRIu32 "-%" PRIu32 "-%016" PRIx64, pid, fd, index,
                     serial, nonce);
    return n > 0 && (size_t)n <= IPC_KEY_MAX;
}

struct parsed_key {
    int32_t pid;
    int fd;
    uint32_t index, serial;
    uint64_t nonce;
};

/* Parses key strictly: it must read back exactly as format_key writes it. */
static bool parse_key(const char *key, struct parsed_key *k)
{
    char again[IPC_KEY_MAX + 1];
    if (strnlen(key, IPC_KEY_MAX + 1) > IPC_KEY_MAX)
        return false;
    if (sscanf(key, "acl-%" SCNd32 "-%d-%" SCNu32 "-%" SCNu32 "-%16" SCNx64, &k->pid, &k->fd, &k->index,
               &k->serial, &k->nonce) != 5)
        return false;
    return format_key(again, k->pid, k->fd, k->index, k->serial, k->nonce) && strcmp(again, key) == 0;
}

/* Called with ipc_lock held: creates and maps this process's table. */
static bool own_table_locked(void)
{
    PLAT_ASSERT_HELD(&ipc_lock);
    int fd;
    struct ipc_table *t;
    if (own != NULL)
        return true;
    fd = plat_memfd("aclcpu-ipc", table_bytes());
    if (fd < 0)
        return false;
    t = plat_vm_map_shared(fd, table_bytes());
    if (t == NULL) {
        plat_close(fd);
        return false;
    }
    t->magic = IPC_MAGIC;
    t->version = IPC_VERSION;
    t->owner = plat_pid();
    t->nslots = IPC_SLOTS;
    t->nonce = plat_random64() ^ plat_now_ns();
    own = t;
    own_fd = fd;
    fetch_add_relaxed(&tables_mapped, 1);
    return true;
}

/* Called with ipc_lock held: the next free slot, round robin (a slot just
 * freed is the last to be reused, so a stale key's writes land late). */
static int32_t free_slot_locked(void)
{
    PLAT_ASSERT_HELD(&ipc_lock);
    for (uint32_t i = 0; i < IPC_SLOTS; i++) {
        uint32_t at = (own_cursor + i) % IPC_SLOTS;
        if (load_relaxed(&own->slots[at].state) == SLOT_FREE) {
            own_cursor = at + 1;
            return (int32_t)at;
        }
    }
    return -1;
}

aclError ipcshm_export(enum ipc_kind kind, bool no_pid_check, const struct ipc_backing *b, char key[IPC_KEY_MAX + 1],
                       struct ipc_ref *out)
{
    struct ipc_slot *s;
    int32_t at;
    plat_mutex_lock(&ipc_lock);
    if (!own_table_locked() || (at = free_slot_locked()) < 0) {
        plat_mutex_unlock(&ipc_lock);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    s = &own->slots[at];
    s->kind = (uint32_t)kind;
    store_relaxed(&s->no_pid_check, no_pid_check ? 1u : 0u);
    store_relaxed(&s->npids, 0);
    if (b != NULL)
        s->backing = *b;
    store_relaxed(&s->flag, 0);
    store_relaxed(&s->record_gen, 0);
    store_relaxed(&s->done_gen, 0);
    fetch_add_relaxed(&s->serial, 1);
    (void)format_key(key, own->owner, own_fd, (uint32_t)at, load_relaxed(&s->serial), own->nonce);
    /* Release: an importer that sees LIVE sees the fields above. */
    store_release(&s->state, SLOT_LIVE);
    own_live++;
    plat_mutex_unlock(&ipc_lock);
    *out = (struct ipc_ref){s, NULL, (uint32_t)at};
    return ACL_SUCCESS;
}

void ipcshm_unexport(struct ipc_ref *ref)
{
    struct ipc_table *gone = NULL;
    int fd = -1;
    plat_mutex_lock(&ipc_lock);
    if (ref->slot != NULL && load_relaxed(&ref->slot->state) == SLOT_LIVE) {
        store_release(&ref->slot->state, SLOT_FREE);
        if (--own_live == 0) { /* the last export: the table goes */
            gone = own;
            fd = own_fd;
            own = NULL;
            own_fd = -1;
        }
    }
    plat_mutex_unlock(&ipc_lock);
    ref->slot = NULL;
    if (gone != NULL) {
        plat_vm_release(gone, table_bytes());
        plat_close(fd);
        fetch_sub_relaxed(&tables_mapped, 1);
    }
}

bool ipcshm_allow(struct ipc_ref *ref, const int32_t *pids, size_t n)
{
    struct ipc_slot *s = ref->slot;
    uint32_t have;
    bool fits = true;
    plat_mutex_lock(&ipc_lock);
    have = load_relaxed(&s->npids);
    for (size_t i = 0; i < n && fits; i++) {
        bool known = false;
        for (uint32_t j = 0; j < have && !known; j++)
            known = s->pids[j] == pids[i];
        if (!known && have == IPC_MAX_PIDS)
            fits = false;
        else if (!known)
            s->pids[have++] = pids[i];
    }
    /* Release: an importer that reads the count reads the pids. */
    if (fits)
        store_release(&s->npids, have);
    plat_mutex_unlock(&ipc_lock);
    return fits;
}

bool ipcshm_find_own(const char *key, enum ipc_kind kind, struct ipc_ref *out)
{
    struct parsed_key k;
    bool found = false;
    if (!parse_key(key, &k))
        return false;
    plat_mutex_lock(&ipc_lock);
    if (own != NULL && k.pid == own->owner && k.nonce == own->nonce && k.index < IPC_SLOTS) {
        struct ipc_slot *s = &own->slots[k.index];
        found = load_relaxed(&s->state) == SLOT_LIVE && load_relaxed(&s->serial) == k.serial &&
                s->kind == (uint32_t)kind;
        if (found)
            *out = (struct ipc_ref){s, NULL, k.index};
    }
    plat_mutex_unlock(&ipc_lock);
    return found;
}

/* Called with ipc_lock held: the peer's table the key names, mapped (a
 * reference taken), or NULL. */
static struct peer *peer_get_locked(const struct parsed_key *k)
{
    PLAT_ASSERT_HELD(&ipc_lock);
    struct peer *p;
    struct ipc_table *t;
    int fd;
    for (p = peers; p != NULL; p = p->next) {
        /* A table stays mapped after its process died: no new imports then. */
        if (p->pid == k->pid && p->nonce == k->nonce && plat_pid_alive(k->pid)) {
            p->refs++;
            return p;
        }
    }
    fd = plat_peer_fd_open(k->pid, k->fd);
    if (fd < 0)
        return NULL;
    t = plat_fd_size(fd) == (int64_t)table_bytes() ? plat_vm_map_shared(fd, table_bytes()) : NULL;
    plat_close(fd); /* the mapping keeps the file */
    if (t == NULL)
        return NULL;
    p = acl_calloc(1, sizeof(*p));
    if (p == NULL || t->magic != IPC_MAGIC || t->version != IPC_VERSION || t->owner != k->pid ||
        t->nonce != k->nonce || t->nslots != IPC_SLOTS) {
        acl_free(p);
        plat_vm_release(t, table_bytes());
        return NULL;
    }
    *p = (struct peer){peers, k->pid, k->nonce, t, 1};
    peers = p;
    fetch_add_relaxed(&tables_mapped, 1);
    return p;
}

/* Called with ipc_lock held: drops a reference; the last unmaps. */
static void peer_put_locked(struct peer *p)
{
    PLAT_ASSERT_HELD(&ipc_lock);
    struct peer **pp = &peers;
    if (--p->refs > 0)
        return;
    while (*pp != p)
        pp = &(*pp)->next;
    *pp = p->next;
    plat_vm_release(p->map, table_bytes());
    fetch_sub_relaxed(&tables_mapped, 1);
    acl_free(p);
}

static bool allowed(struct ipc_slot *s, int32_t me)
{
    /* Acquire: pairs with ipcshm_allow's release of the count. */
    uint32_t n = load_acquire(&s->npids);
    if (load_relaxed(&s->no_pid_check))
        return true;
    for (uint32_t i = 0; i < n && i < IPC_MAX_PIDS; i++) {
        if (s->pids[i] == me)
            return true;
    }
    return false;
}

aclError ipcshm_import(const char *key, enum ipc_kind kind, struct ipc_ref *out, const char **why)
{
    struct parsed_key k;
    struct peer *p;
    struct ipc_slot *s;
    if (!parse_key(key, &k)) {
        *why = "it is not a key an export wrote";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    plat_mutex_lock(&ipc_lock);
    p = peer_get_locked(&k);
    plat_mutex_unlock(&ipc_lock);
    if (p == NULL) {
        *why = "its exporting process is gone or the key is stale";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    s = &p->map->slots[k.index < IPC_SLOTS ? k.index : 0];
    /* Acquire: pairs with the exporter's release of LIVE. */
    if (k.index >= IPC_SLOTS || load_acquire(&s->state) != SLOT_LIVE || load_relaxed(&s->serial) != k.serial ||
        s->kind != (uint32_t)kind) {
        *why = "it names no live export of this kind (closed, destroyed, or never made)";
    } else if (!allowed(s, plat_pid())) {
        *why = "this process is not in the key's allow-list (the exporter's Set*ImportPid)";
        plat_mutex_lock(&ipc_lock);
        peer_put_locked(p);
        plat_mutex_unlock(&ipc_lock);
        return ACL_ERROR_RT_NO_PERMISSION;
    } else {
        *out = (struct ipc_ref){s, p, k.index};
        return ACL_SUCCESS;
    }
    plat_mutex_lock(&ipc_lock);
    peer_put_locked(p);
    plat_mutex_unlock(&ipc_lock);
    return ACL_ERROR_RT_PARAM_INVALID;
}

void ipcshm_unimport(struct ipc_ref *ref)
{
    if (ref->peer == NULL)
        return;
    plat_mutex_lock(&ipc_lock);
    peer_put_locked(ref->peer);
    plat_mutex_unlock(&ipc_lock);
    ref->peer = NULL;
    ref->slot = NULL;
}

void ipcshm_backing(const struct ipc_ref *ref, struct ipc_backing *out) { *out = ref->slot->backing; }

uint32_t ipcshm_tables_mapped(void) { return load_relaxed(&tables_mapped); }

/* ---- shared synchronisation words ------------------------------------------ */

/* Seq_cst on the words below: a watcher reads seq, then the state, then
 * sleeps on seq; a signaller changes the state, then seq, then wakes. One
 * of them sees the other (the same pairing as a stream's done counter). */
static void changed(struct ipc_slot *s) { fetch_add_seq_cst(&s->seq, 1); }

void ipcshm_wake(struct ipc_slot *s) { plat_futex_wake_all_shared(&s->seq); }

void ipcshm_poke(struct ipc_slot *s)
{
    changed(s);
    ipcshm_wake(s);
}

void ipcshm_notify_set(struct ipc_slot *s)
{
    store_seq_cst(&s->flag, 1);
    changed(s);
}

bool ipcshm_notify_take(struct ipc_slot *s)
{
    return exchange_seq_cst(&s->flag, 0) == 1;
}

uint64_t ipcshm_event_issue(struct ipc_slot *s) { return fetch_add_seq_cst(&s->record_gen, 1) + 1; }

void ipcshm_event_seed(struct ipc_slot *s, uint64_t issued, uint64_t done)
{
    store_seq_cst(&s->record_gen, issued);
    store_seq_cst(&s->done_gen, done);
}

uint64_t ipcshm_event_newest(struct ipc_slot *s) { return load_seq_cst(&s->record_gen); }

uint64_t ipcshm_event_done(struct ipc_slot *s) { return load_seq_cst(&s->done_gen); }

void ipcshm_event_reach(struct ipc_slot *s, uint64_t gen)
{
    uint64_t at = load_seq_cst(&s->done_gen);
    while (gen > at && !cas_weak_seq_cst(&s->done_gen, &at, gen))
        ;
    changed(s);
}

uint32_t ipcshm_seq(struct ipc_slot *s) { return load_seq_cst(&s->seq); }

void ipcshm_sleep(struct ipc_slot *s, uint32_t seq) { (void)plat_futex_wait_shared(&s->seq, seq, 0); }
