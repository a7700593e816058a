/*
 * device.c - the devices: SoC profile, memory budget, stream and event
 * caps, and the engine (worker pool) that plays the device's cores.
 *
 * DESIGN: ACLCPU_DEVICE_COUNT devices (default 1) exist from the start; a
 * device opens (reads its configuration, starts its workers) when its
 * first context is created, and closes when its last context goes away.
 * device->lock guards the open state and the stream ids and counts (rank:
 * lockrank.h); the event count is an atomic, taken under event spinlocks.
 * Opening and closing themselves are serialised by the caller (context.c's
 * admin lock). The memory budget's counter (mem_used) belongs to devmem,
 * which keeps it equal to the charges of the device's live blocks; a close
 * frees those blocks, as the reference's driver does when the device
 * closes, so a reset neither leaks them nor leaves them to be freed
 * against the next opening's budget.
 *
 * The information getters (device_describe, device_busy_percent) take
 * device->lock only to read a consistent open state. The peer-access flags
 * (peers_enabled) are relaxed atomics without a lock: each is one bit the
 * caller switches, and no other state depends on it.
 *
 * Threads: any host thread (opened and closed under admin_lock); launchers
 * and executors read the SoC and caps.
 */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../services/devmem.h"
#include "../services/hostmem.h"
#include "../services/mempool.h"
#include "../services/ipcmem.h"
#include "check.h"
#include "core.h"
#include "cachealloc.h"
#include "vmm.h"

static struct device devices[ACLCPU_MAX_DEVICES];
_Static_assert(ACLCPU_MAX_DEVICES <= ACLCPU_DEVMEM_MAX_DEVICES, "every device has a memory slot");
_Static_assert(ACLCPU_MAX_DEVICES <= 32, "peers_enabled has a bit per device");
/* 0 until read; then ACLCPU_DEVICE_COUNT. Relaxed: any thread computes the
 * same value from the environment, so a race only repeats the work. */
static _Atomic uint32_t ndevices;

__attribute__((constructor)) static void devices_init(void)
{
    for (uint32_t i = 0; i < ACLCPU_MAX_DEVICES; i++) {
        devices[i].id = (int32_t)i;
        plat_mutex_init(&devices[i].lock, LOCK_DEVICE);
        list_init(&devices[i].contexts);
    }
}

/* Reads ACLCPU_DEVICE_COUNT: at aclInit, and at first use without it. */
void devices_configure(void)
{
    uint64_t n = config_u64(CFG_DEVICE_COUNT);
    if (n < 1)
        n = 1;
    if (n > ACLCPU_MAX_DEVICES)
        n = ACLCPU_MAX_DEVICES;
    store_relaxed(&ndevices, (uint32_t)n);
}

uint32_t device_count(void)
{
    uint32_t n = load_relaxed(&ndevices);
    if (n == 0) {
        devices_configure();
        n = load_relaxed(&ndevices);
    }
    return n;
}

struct device *device_get(int32_t id)
{
    if (id < 0 || (uint32_t)id >= device_count())
        return NULL;
    return &devices[id];
}

aclError device_open(struct device *d)
{
    aclError err;
    if (d->open)
        return ACL_SUCCESS;
    check_configure(); /* ACLCPU_CHECK, for programs that never call aclInit */
    d->soc = soc_configured();
    d->mem_total = config_u64_or(CFG_DEVICE_MEMORY, d->soc->memory_bytes);
    d->stream_ids = acl_calloc(d->soc->max_streams, 1);
    if (d->stream_ids == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    d->streams_used = 0;
    d->stream_id_hint = 0;
    store_relaxed(&d->res_limit[0], 0);
    store_relaxed(&d->res_limit[1], 0);
    store_relaxed(&d->events_used, 0);
    err = engine_start(d);
    if (err != ACL_SUCCESS) {
        acl_free(d->stream_ids);
        d->stream_ids = NULL;
        return err;
    }
    devmem_open_device(d->id, &d->mem_used, d->mem_total);
    d->open = true;
    LOGI("device %d open: %s, %u workers", d->id, d->soc->name, d->engine->nworkers);
    return ACL_SUCCESS;
}

void device_close(struct device *d)
{
    if (!d->open)
        return;
    engine_stop(d);
    ipcmem_release_device(d->id); /* its IPC imports are mappings of the device's memory */
    quarantine_forget_device(d->id);
    cachealloc_forget_device(d->id); /* its segments are the device's memory */
    vmm_release_device(d->id); /* its mappings leave devmem's table first */
    mempool_release_device(d->id);
    hostmem_release_device(d->id);
    devmem_release_charged_to(&d->mem_used);
    acl_free(d->stream_ids);
    d->stream_ids = NULL;
    d->open = false;
    LOGI("device %d closed", d->id);
}

aclError device_stream_id_alloc(struct device *d, int32_t *id)
{
    aclError err = ACL_ERROR_RT_NO_STREAM_RESOURCE;
    plat_mutex_lock(&d->lock);
    if (d->streams_used < d->soc->max_streams) {
        /* Lowest free id, found from a hint below which every id is taken:
         * creating the SoC's maximum number of streams stays linear. */
        for (uint32_t i = d->stream_id_hint; i < d->soc->max_streams; i++) {
            if (!d->stream_ids[i]) {
                d->stream_ids[i] = 1;
                d->streams_used++;
                d->stream_id_hint = i + 1;
                *id = (int32_t)i;
                err = ACL_SUCCESS;
                break;
            }
        }
    }
    plat_mutex_unlock(&d->lock);
    return err;
}

void device_stream_id_free(struct device *d, int32_t id)
{
    plat_mutex_lock(&d->lock);
    if (d->stream_ids != NULL && id >= 0 && (uint32_t)id < d->soc->max_streams && d->stream_ids[id]) {
        d->stream_ids[id] = 0;
        d->streams_used--;
        if ((uint32_t)id < d->stream_id_hint)
            d->stream_id_hint = (uint32_t)id;
    }
    plat_mutex_unlock(&d->lock);
}

/* Event slots are a counter, not under d->lock: a lazy event takes its
 * slot under its own spinlock, where no mutex may be taken. Relaxed: the
 * count orders nothing else. */
aclError device_event_slot_take(struct device *d)
{
    uint32_t used = load_relaxed(&d->events_used);
    do {
        if (used >= d->soc->max_events)
            return ACL_ERROR_RT_NO_EVENT_RESOURCE;
    } while (!cas_weak_relaxed(&d->events_used, &used, used + 1));
    return ACL_SUCCESS;
}

uint32_t device_streams_left(struct device *d)
{
    uint32_t left;
    plat_mutex_lock(&d->lock);
    left = d->soc->max_streams - d->streams_used;
    plat_mutex_unlock(&d->lock);
    return left;
}

uint32_t device_events_left(struct device *d)
{
    /* Relaxed: a count for the caller to read, changed lock-free by records
     * of lazy events (device_event_slot_take). */
    return d->soc->max_events - load_relaxed(&d->events_used);
}

void device_event_slot_give(struct device *d)
{
    uint32_t used = load_relaxed(&d->events_used);
    while (used > 0 && !cas_weak_relaxed(&d->events_used, &used, used - 1))
        ;
}

void device_describe(struct device *d, const struct soc_profile **soc, uint64_t *mem_total)
{
    plat_mutex_lock(&d->lock);
    if (d->open) {
        *soc = d->soc;
        *mem_total = d->mem_total;
    } else {
        *soc = soc_configured();
        *mem_total = config_u64_or(CFG_DEVICE_MEMORY, (*soc)->memory_bytes);
    }
    plat_mutex_unlock(&d->lock);
}

bool device_primary_active(struct device *d)
{
    bool active;
    admin_enter();
    active = d->primary != NULL;
    admin_leave();
    return active;
}

bool device_is_open(struct device *d)
{
    bool open;
    plat_mutex_lock(&d->lock);
    open = d->open;
    plat_mutex_unlock(&d->lock);
    return open;
}

int32_t device_busy_percent(struct device *d)
{
    int32_t pct = 0;
    plat_mutex_lock(&d->lock);
    if (d->open)
        pct = engine_busy_percent(d->engine);
    plat_mutex_unlock(&d->lock);
    return pct;
}

void device_peer_set(struct device *d, int32_t peer, bool enabled)
{
    uint32_t bit = 1u << (uint32_t)peer;
    if (enabled)
        fetch_or_relaxed(&d->peers_enabled, bit);
    else
        fetch_and_relaxed(&d->peers_enabled, ~bit);
}

bool device_peer_enabled(struct device *d, int32_t peer)
{
    return (load_relaxed(&d->peers_enabled) >> (uint32_t)peer) & 1u;
}
