/*
 * ipc.c - notifies and events shared with other processes.
 *
 * DESIGN: an exported or imported notify or event is an ordinary one of
 * this process (it parks streams, counts host waiters, shows in hang
 * reports) whose state lives in a slot of a shared table
 * (services/ipcshm.c): a notify's flag, an event's record and done
 * numbers. event.c reads and writes those words instead of its own when
 * ev->ipc is set. A record in this process releases this process's
 * waiters itself; a record in another process only changes the shared
 * words and wakes the slot's process-shared futex. Each shared object
 * therefore has a watcher thread here that sleeps on that futex and, at
 * each change, lets event.c release whatever waits have passed
 * (event_ipc_refresh). It never polls: it sleeps until a record (or its
 * stop) changes the slot. The watcher ends, and the slot or the mapping of
 * the peer's table is given back, when the object is destroyed (by the
 * user, or by its context's teardown), so nothing stays behind.
 *
 * Threads: API threads (export, import, destroy) and one watcher per
 * shared object. Locks: event->lock, only to attach and detach the link.
 */
#include <string.h>

#include "../services/ipcshm.h"
#include "core.h"

struct ipc_link {
    struct ipc_ref ref;
    struct event *ev;
    plat_thread watcher;
    _Atomic bool stop;
    char key[IPC_KEY_MAX + 1];
};

static _Atomic uint32_t links; /* relaxed: a count for tests */

static void watch(void *arg)
{
    struct ipc_link *l = arg;
    for (;;) {
        uint32_t seq = ipcshm_seq(l->ref.slot);
        /* seq_cst: pairs with stop_watcher's store, then poke (seq). */
        if (load_seq_cst(&l->stop))
            return;
        event_ipc_refresh(l->ev);
        ipcshm_sleep(l->ref.slot, seq);
    }
}

static void stop_watcher(struct ipc_link *l)
{
    store_seq_cst(&l->stop, true);
    ipcshm_poke(l->ref.slot);
    plat_thread_join(l->watcher);
}

static void link_free(struct ipc_link *l)
{
    if (l->ref.peer != NULL)
        ipcshm_unimport(&l->ref);
    else
        ipcshm_unexport(&l->ref);
    acl_free(l);
    fetch_sub_relaxed(&links, 1);
}

/* Binds ev to the slot l names and starts its watcher. Fails (l freed) if
 * ev is shared already or no thread can start. */
static aclError attach(struct event *ev, struct ipc_link *l)
{
    bool taken;
    l->ev = ev;
    fetch_add_relaxed(&links, 1);
    if (plat_thread_create(&l->watcher, "aclcpu-ipc", watch, l) != 0) {
        link_free(l);
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    plat_spin_lock(&ev->lock);
    taken = ev->ipc != NULL;
    if (!taken)
        ev->ipc = l;
    plat_spin_unlock(&ev->lock);
    if (taken) {
        stop_watcher(l);
        link_free(l);
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    return ACL_SUCCESS;
}

aclError ipc_event_export(struct event *ev, bool no_pid_check, char *key)
{
    struct ipc_link *l;
    aclError err;
    bool shared;
    plat_spin_lock(&ev->lock);
    shared = ev->ipc != NULL; /* looked at again in attach: a racing export loses there */
    plat_spin_unlock(&ev->lock);
    if (shared)
        return ACL_ERROR_RT_INTERNAL_ERROR;
    l = acl_calloc(1, sizeof(*l));
    if (l == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    err = ipcshm_export(ev->notify ? IPC_NOTIFY : IPC_EVENT, no_pid_check, NULL, l->key, &l->ref);
    if (err != ACL_SUCCESS) {
        acl_free(l);
        return err;
    }
    /* What happened before the export counts: a record already made. */
    plat_spin_lock(&ev->lock);
    if (ev->notify && ev->notified)
        ipcshm_notify_set(l->ref.slot);
    if (!ev->notify)
        ipcshm_event_seed(l->ref.slot, ev->record_gen, ev->done_gen);
    plat_spin_unlock(&ev->lock);
    err = attach(ev, l);
    if (err == ACL_SUCCESS)
        (void)ipc_event_key(ev, key);
    return err;
}

aclError ipc_event_allow(struct event *ev, const int32_t *pids, size_t n, const char **why)
{
    struct ipc_link *l;
    plat_spin_lock(&ev->lock);
    l = ev->ipc;
    plat_spin_unlock(&ev->lock);
    if (l == NULL || l->ref.peer != NULL) {
        *why = l == NULL ? "it was never exported (aclrtNotifyGetExportKey)" : "it was imported, not exported here";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (!ipcshm_allow(&l->ref, pids, n)) {
        *why = "a key's allow-list holds at most 64 processes";
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

aclError ipc_event_import(struct context *ctx, const char *key, bool notify, struct event **out, const char **why)
{
    struct ipc_link *l = acl_calloc(1, sizeof(*l));
    struct event *ev;
    aclError err;
    if (l == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    err = ipcshm_import(key, notify ? IPC_NOTIFY : IPC_EVENT, &l->ref, why);
    if (err != ACL_SUCCESS) {
        acl_free(l);
        return err;
    }
    memcpy(l->key, key, strlen(key) + 1); /* parsed: at most IPC_KEY_MAX characters */
    err = notify ? notify_create(ctx, &ev) : event_create(ctx, ACL_EVENT_IPC, true, false, &ev);
    if (err != ACL_SUCCESS) {
        ipcshm_unimport(&l->ref);
        acl_free(l);
        *why = "no event or notify is left";
        return err;
    }
    err = attach(ev, l);
    if (err != ACL_SUCCESS) {
        (void)event_destroy(ev, NULL);
        *why = "no watcher thread could start";
        return err;
    }
    *out = ev;
    return ACL_SUCCESS;
}

void ipc_event_detach(struct event *ev)
{
    struct ipc_link *l;
    plat_spin_lock(&ev->lock);
    l = ev->ipc;
    plat_spin_unlock(&ev->lock);
    if (l == NULL)
        return;
    stop_watcher(l);
    plat_spin_lock(&ev->lock);
    ev->ipc = NULL;
    plat_spin_unlock(&ev->lock);
    link_free(l);
}

bool ipc_event_key(struct event *ev, char *key)
{
    bool have;
    plat_spin_lock(&ev->lock);
    have = ev->ipc != NULL;
    if (have) /* at most IPC_KEY_MAX characters and the NUL */
        memcpy(key, ev->ipc->key, strlen(ev->ipc->key) + 1);
    plat_spin_unlock(&ev->lock);
    return have;
}

struct ipc_slot *ipc_event_slot(const struct event *ev) { return ev->ipc->ref.slot; }

uint32_t ipc_event_links(void) { return load_relaxed(&links); }
