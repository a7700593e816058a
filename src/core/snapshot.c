/*
 * snapshot.c - process snapshots: the lock that holds new work back, the
 * backup of device memory and its restore, and the stage callbacks.
 *
 * DESIGN: one process-wide state, RUNNING -> LOCKED -> BACKED_UP, as the
 * reference's (global_state_manager.cc, api_impl.cc SnapShotProcess*,
 * api_error.cc): lock from RUNNING, backup from LOCKED, restore from
 * BACKED_UP (back to LOCKED), unlock from LOCKED or BACKED_UP. While the
 * process is locked, new stream work (stream_submit) and the API entries
 * the reference holds - devices set and reset, contexts, streams, events
 * and notifies created and destroyed, memory allocated, freed, copied and
 * set - wait at the gate (snapshot_gate) until the unlock; work queued
 * before goes on. A backup waits for every stream of every context, then
 * copies the contents of every live device allocation (devmem's image); a
 * restore copies them back into the allocations that are still the same
 * blocks. A CPU device has nothing else to save: its streams, events and
 * kernels live in this process and survive as they are.
 *
 * The stage callbacks are called, in registration order, once for each
 * open device, in device order; the first that returns non-zero fails the
 * stage (507912). LOCK_PRE runs before the state is checked and UNLOCK_POST
 * after it has changed, as in the reference; the backup and restore stages
 * run with snap_lock held, so a callback must not call the snapshot
 * functions (the reference holds its state mutex there too).
 *
 * Threads: any host thread; the gate is waited at by any thread that
 * submits work. Locks: snap_lock (LOCK_SNAPSHOT, outermost: a backup takes
 * the admin lock and waits for streams under it) over the state and the
 * image; snapcb_lock over the callback lists, held only to copy them.
 */
#include "core.h"
#include "../services/devmem.h"

enum snap_state { SNAP_RUNNING, SNAP_LOCKED, SNAP_BACKED_UP };

#define SNAP_STAGES (ACL_RT_SNAPSHOT_UNLOCK_POST + 1)
#define SNAP_MAX_CALLBACKS 64

struct snap_cb {
    aclrtSnapShotCallBack fn;
    void *args;
};

_Atomic uint32_t snapshot_gate_word;

static plat_mutex snap_lock;
static enum snap_state state;              /* under snap_lock */
static struct devmem_image *image;         /* under snap_lock: the last backup's, while BACKED_UP */

static plat_mutex snapcb_lock;
static struct snap_cb cbs[SNAP_STAGES][SNAP_MAX_CALLBACKS]; /* under snapcb_lock */
static unsigned ncbs[SNAP_STAGES];
static bool stage_used[SNAP_STAGES];       /* a callback was ever registered for the stage */

__attribute__((constructor)) static void snapshot_init(void)
{
    plat_mutex_init(&snap_lock, LOCK_SNAPSHOT);
    plat_mutex_init(&snapcb_lock, LOCK_SNAPSHOT_CB);
}

static const char *stage_name(aclrtSnapShotStage stage)
{
    static const char *const names[SNAP_STAGES] = {"LOCK_PRE",     "BACKUP_PRE",   "BACKUP_POST",
                                                   "RESTORE_PRE",  "RESTORE_POST", "UNLOCK_POST"};
    return names[stage];
}

static const char *state_name(enum snap_state s)
{
    return s == SNAP_RUNNING ? "RUNNING" : s == SNAP_LOCKED ? "LOCKED" : "BACKED_UP";
}

void snapshot_gate_wait(void)
{
    /* Bounded slices: a wake lost to a race with the unlock costs one. */
    while (load_acquire(&snapshot_gate_word) != 0)
        plat_futex_wait(&snapshot_gate_word, 1, plat_now_ns() + 10000000u);
}

static void gate_set(bool closed)
{
    /* Release: what the locker did before opening is seen by the waiters
     * that leave the gate (their acquire load). */
    store_release(&snapshot_gate_word, closed ? 1u : 0u);
    if (!closed)
        plat_futex_wake(&snapshot_gate_word, 1 << 30);
}

/* Calls the stage's callbacks (copied out under snapcb_lock) for every
 * open device. */
static aclError run_stage(const char *fn, aclrtSnapShotStage stage)
{
    struct snap_cb copy[SNAP_MAX_CALLBACKS];
    unsigned n;
    plat_mutex_lock(&snapcb_lock);
    n = ncbs[stage];
    memcpy(copy, cbs[stage], n * sizeof(copy[0]));
    plat_mutex_unlock(&snapcb_lock);
    for (unsigned i = 0; i < n; i++) {
        for (uint32_t id = 0; id < device_count(); id++) {
            uint32_t ret;
            if (!device_is_open(device_get((int32_t)id)))
                continue;
            ret = copy[i].fn((int32_t)id, copy[i].args);
            if (ret != 0)
                return acl_fail(ACL_ERROR_SNAPSHOT_CALLBACK_FAILED,
                                "%s: the %s callback %p returned %u for device %u", fn, stage_name(stage),
                                (void *)(uintptr_t)copy[i].fn, ret, id);
        }
    }
    return ACL_SUCCESS;
}

aclError snapshot_lock(const char *fn)
{
    aclError err = run_stage(fn, ACL_RT_SNAPSHOT_LOCK_PRE);
    if (err != ACL_SUCCESS)
        return err;
    plat_mutex_lock(&snap_lock);
    if (state != SNAP_RUNNING) {
        err = acl_fail(ACL_ERROR_SNAPSHOT_LOCK_FAILED, "%s: the process is %s; only a RUNNING process can be "
                       "locked", fn, state_name(state));
    } else {
        state = SNAP_LOCKED;
        gate_set(true);
    }
    plat_mutex_unlock(&snap_lock);
    return err;
}

aclError snapshot_unlock(const char *fn)
{
    aclError err = ACL_SUCCESS;
    struct devmem_image *old = NULL;
    plat_mutex_lock(&snap_lock);
    if (state == SNAP_RUNNING) {
        err = acl_fail(ACL_ERROR_SNAPSHOT_UNLOCK_FAILED, "%s: the process is RUNNING; only a LOCKED or BACKED_UP "
                       "process can be unlocked", fn);
    } else {
        state = SNAP_RUNNING;
        old = image;
        image = NULL;
        gate_set(false);
    }
    plat_mutex_unlock(&snap_lock);
    devmem_image_free(old);
    if (err != ACL_SUCCESS)
        return err;
    return run_stage(fn, ACL_RT_SNAPSHOT_UNLOCK_POST);
}

/* Called with snap_lock held: waits for every stream of every context of
 * every open device; the first task error is the backup's. */
static aclError sync_everything_locked(const char *fn)
{
    PLAT_ASSERT_HELD(&snap_lock);
    aclError first = ACL_SUCCESS;
    for (uint32_t id = 0; id < device_count() && first == ACL_SUCCESS; id++) {
        struct device *d = device_get((int32_t)id);
        struct list *pos;
        size_t nctx = 0, i = 0;
        struct context **ctxs;
        void **ctx_handles;
        if (!device_is_open(d))
            continue;
        admin_enter();
        list_for_each(pos, &d->contexts) nctx++;
        ctxs = acl_malloc((nctx != 0 ? nctx : 1) * (sizeof(*ctxs) + sizeof(*ctx_handles)));
        if (ctxs == NULL) {
            admin_leave();
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
        }
        ctx_handles = (void **)(ctxs + (nctx != 0 ? nctx : 1));
        list_for_each(pos, &d->contexts) {
            ctxs[i] = ACLCPU_CONTAINER_OF(pos, struct context, dev_link);
            ctx_handles[i] = obj_handle(&ctxs[i]->hdr);
            i++;
        }
        admin_leave();
        for (i = 0; i < nctx && first == ACL_SUCCESS; i++) {
            struct stream **list, *late = NULL;
            void **handles = NULL;
            size_t n = 0;
            if (!obj_same(&ctxs[i]->hdr, ctx_handles[i]))
                continue; /* destroyed meanwhile */
            if ((list = stream_list_of(ctxs[i], &handles, &n)) == NULL) {
                first = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
                break;
            }
            first = stream_sync_all(list, handles, n, 0, &late);
            acl_free(list);
            if (first != ACL_SUCCESS)
                first = acl_fail(first, "%s: waiting for the streams of device %u before the backup failed", fn, id);
        }
        acl_free(ctxs);
    }
    return first;
}

aclError snapshot_backup(const char *fn)
{
    aclError err;
    struct devmem_image *img = NULL;
    plat_mutex_lock(&snap_lock);
    if (state != SNAP_LOCKED) {
        err = acl_fail(ACL_ERROR_SNAPSHOT_BACKUP_FAILED, "%s: the process is %s; only a LOCKED process can be "
                       "backed up (aclrtSnapShotProcessLock first)", fn, state_name(state));
        plat_mutex_unlock(&snap_lock);
        return err;
    }
    err = run_stage(fn, ACL_RT_SNAPSHOT_BACKUP_PRE);
    if (err == ACL_SUCCESS)
        err = sync_everything_locked(fn);
    if (err == ACL_SUCCESS && devmem_image_take(&img) != ACL_SUCCESS)
        err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory for the copy of device memory", fn);
    if (err == ACL_SUCCESS)
        err = run_stage(fn, ACL_RT_SNAPSHOT_BACKUP_POST);
    if (err == ACL_SUCCESS) {
        devmem_image_free(image);
        image = img;
        img = NULL;
        state = SNAP_BACKED_UP;
    }
    plat_mutex_unlock(&snap_lock);
    devmem_image_free(img);
    return err;
}

aclError snapshot_restore(const char *fn)
{
    aclError err;
    plat_mutex_lock(&snap_lock);
    if (state != SNAP_BACKED_UP) {
        err = acl_fail(ACL_ERROR_SNAPSHOT_RESTORE_FAILED, "%s: the process is %s; only a BACKED_UP process can be "
                       "restored (aclrtSnapShotProcessBackup first)", fn, state_name(state));
        plat_mutex_unlock(&snap_lock);
        return err;
    }
    err = run_stage(fn, ACL_RT_SNAPSHOT_RESTORE_PRE);
    if (err == ACL_SUCCESS) {
        size_t done = devmem_image_restore(image);
        LOGD("%s: restored %zu of %zu device allocations", fn, done, devmem_image_blocks(image));
        err = run_stage(fn, ACL_RT_SNAPSHOT_RESTORE_POST);
    }
    if (err == ACL_SUCCESS)
        state = SNAP_LOCKED; /* the image stays until the unlock or the next backup */
    plat_mutex_unlock(&snap_lock);
    return err;
}

aclError snapshot_cb_register(const char *fn, aclrtSnapShotStage stage, aclrtSnapShotCallBack cb, void *args)
{
    aclError err = ACL_SUCCESS;
    unsigned i;
    plat_mutex_lock(&snapcb_lock);
    for (i = 0; i < ncbs[stage]; i++)
        if (cbs[stage][i].fn == cb)
            break;
    if (i < ncbs[stage])
        err = acl_fail(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED, "%s: argument 'callback' (%p) is registered for "
                       "stage %s already", fn, (void *)(uintptr_t)cb, stage_name(stage));
    else if (ncbs[stage] == SNAP_MAX_CALLBACKS)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: stage %s has %d callbacks, the most aclcpu keeps", fn,
                       stage_name(stage), SNAP_MAX_CALLBACKS);
    else {
        cbs[stage][ncbs[stage]++] = (struct snap_cb){cb, args};
        stage_used[stage] = true;
    }
    plat_mutex_unlock(&snapcb_lock);
    return err;
}

aclError snapshot_cb_unregister(const char *fn, aclrtSnapShotStage stage, aclrtSnapShotCallBack cb)
{
    aclError err = ACL_SUCCESS;
    unsigned i;
    plat_mutex_lock(&snapcb_lock);
    for (i = 0; i < ncbs[stage]; i++)
        if (cbs[stage][i].fn == cb)
            break;
    if (!stage_used[stage])
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: no callback was ever registered for stage %s", fn,
                       stage_name(stage));
    else if (i == ncbs[stage])
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'callback' (%p) is not registered for stage %s", fn,
                       (void *)(uintptr_t)cb, stage_name(stage));
    else {
        /* Keep the order of the others: they are called in registration order. */
        memmove(&cbs[stage][i], &cbs[stage][i + 1], (ncbs[stage] - i - 1) * sizeof(cbs[stage][0]));
        ncbs[stage]--;
    }
    plat_mutex_unlock(&snapcb_lock);
    return err;
}
