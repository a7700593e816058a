/*
 * event.c - events: records, waits, resets, status and timestamps.
 *
 * DESIGN: an event counts its records. aclrtRecordEvent issues record
 * number g = ++record_gen on a stream; when that task runs, done_gen
 * becomes g (if newer: it never moves back) with its timestamp.
 * aclrtStreamWaitEvent snapshots record_gen at call time and queues a wait
 * for that number: the waiting stream's head parks on the event (it never
 * blocks a worker) until record g itself has completed. As on the device,
 * where each record sets its own flag and a wait waits on the one of the
 * newest record at the call, a later record that completes first (on
 * another stream) does not release it: records issued on streams and not
 * reached yet are kept in ev->pending (oldest first, linked through the
 * tasks themselves), and g is done when g <= done_gen and g is not there
 * (event_gen_done_locked). That is the plain (aclrtCreateEvent) and Ex
 * events' model. A wait on a never-recorded plain event is refused
 * (107000); on an Ex event it queues nothing. Events made by
 * aclrtCreateEventWithFlag with SYNC or EXTERNAL are one hardware flag
 * instead (ev->hw_flag): a record sets it, a wait - also one issued before
 * any record - waits until it is set, and only a reset clears it. A
 * destroyed event's memory lives until its queued tasks are done. The
 * numbering happens at issue, in event_issue_locked, which stream_submit
 * calls for event and notify tasks with the stream's lock held. An event or
 * notify shared with another process (ev->ipc, core/ipc.c) keeps its record
 * and done numbers, or its flag, in shared memory: the functions below read
 * and write those instead, and ipc.c's watcher calls event_ipc_refresh when
 * another process changed them. A counting notify (aclrtCntNotify) is a
 * notify whose record sets, adds, ORs or ANDs its 32-bit count, and whose
 * waits pass while the count passes their test: each parked waiter keeps
 * its test in park_gen (cnt_cond), and a record releases every waiter its
 * new count passes (a clearing wait zeroes the count as it passes).
 *
 * Threads: host threads (API), executors (record/wait/reset tasks).
 * Locks: event->lock (rank: lockrank.h); it is dropped before released
 * streams are made ready (engine_unpark takes their locks).
 */
#include <stddef.h>
#include <string.h>

#include "../engine/engine.h"
#include "../services/ipcshm.h"
#include "profhook.h"
#include "check.h"
#include "core.h"
#include "model.h"

/* Clears a recycled event under its lock: a thread still waiting on the
 * event this memory used to be reads these fields under it. */
static void event_clear(struct event *ev)
{
    plat_spin_lock(&ev->lock);
    memset(&ev->notify, 0, sizeof(*ev) - offsetof(struct event, notify));
    plat_spin_unlock(&ev->lock);
}

static aclError make_event(struct context *ctx, uint32_t flags, bool ex, bool lazy_slot, bool internal,
                           struct event **out);

aclError event_create(struct context *ctx, uint32_t flags, bool ex, bool lazy_slot, struct event **out)
{
    return make_event(ctx, flags, ex, lazy_slot, false, out);
}

aclError event_create_internal(struct context *ctx, struct event **out)
{
    return make_event(ctx, ACL_EVENT_SYNC, true, false, true, out);
}

static aclError make_event(struct context *ctx, uint32_t flags, bool ex, bool lazy_slot, bool internal,
                           struct event **out)
{
    bool fresh;
    struct event *ev;
    /* An aclrtCreateEventWithFlag event holds a hardware id from creation
     * unless it has none of these (api_impl.cc EventCreate: GenEventId;
     * event.cc InitEventAllocFlag: TIME_LINE and CAPTURE_STREAM_PROGRESS
     * alone take none). */
    uint32_t id_bits = ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL | ACL_EVENT_DEVICE_USE_ONLY | EVENT_FLAG_DDSYNC;
    bool needs_slot = !ex && !lazy_slot && (flags & id_bits) != 0;
    aclError err = needs_slot ? device_event_slot_take(ctx->dev) : ACL_SUCCESS;

    if (err != ACL_SUCCESS)
        return err;
    ev = obj_create(OBJ_EVENT, sizeof(*ev), sizeof(*ev), &fresh);
    if (ev == NULL) {
        if (needs_slot)
            device_event_slot_give(ctx->dev);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (fresh)
        plat_spin_init(&ev->lock, LOCK_EVENT);
    event_clear(ev);
    store_relaxed(&ev->ctx, ctx); /* see event->id */
    store_relaxed(&ev->dev, ctx->dev); /* see event->id */
    store_relaxed(&ev->flags, flags);
    store_relaxed(&ev->ex, ex);
    store_relaxed(&ev->op_flag[0], EVENT_OP_FLAG_UNSET);
    store_relaxed(&ev->op_flag[1], EVENT_OP_FLAG_UNSET);
    ev->lazy_slot = lazy_slot;
    ev->hw_flag = !ex && !lazy_slot && (flags & (ACL_EVENT_SYNC | ACL_EVENT_EXTERNAL)) != 0;
    ev->holds_slot = needs_slot;
    store_relaxed(&ev->id, (int32_t)ev->hdr.index);
    store_relaxed(&ev->hdr.hidden, internal); /* before obj_publish: see obj_header */
    plat_mutex_lock(&ctx->lock);
    list_add_tail(&ctx->events, &ev->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    obj_publish(&ev->hdr);
    *out = ev;
    return ACL_SUCCESS;
}

/* A notify is an event whose records set a flag that one wait consumes
 * (aclrtRecordNotify / aclrtWaitAndResetNotify); it shares the event's
 * parking and lifetime rules, and its own handle type. */
#define NOTIFY_GRANTED UINT64_MAX

aclError notify_create(struct context *ctx, struct event **out)
{
    bool fresh;
    struct event *n = obj_create(OBJ_NOTIFY, sizeof(*n), sizeof(*n), &fresh);
    if (n == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (fresh)
        plat_spin_init(&n->lock, LOCK_EVENT);
    event_clear(n);
    store_relaxed(&n->flags, 0);
    store_relaxed(&n->ex, false);
    store_relaxed(&n->ctx, ctx);
    store_relaxed(&n->dev, ctx->dev); /* see event->id */
    n->notify = true;
    store_relaxed(&n->id, (int32_t)n->hdr.index);
    plat_mutex_lock(&ctx->lock);
    list_add_tail(&ctx->events, &n->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    obj_publish(&n->hdr);
    *out = n;
    return ACL_SUCCESS;
}

/* A counting notify: a notify of its own handle type whose records
 * change a count (see the DESIGN note). */
aclError cnt_notify_create(struct context *ctx, struct event **out)
{
    bool fresh;
    struct event *n = obj_create(OBJ_CNT_NOTIFY, sizeof(*n), sizeof(*n), &fresh);
    if (n == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (fresh)
        plat_spin_init(&n->lock, LOCK_EVENT);
    event_clear(n);
    store_relaxed(&n->flags, 0);
    store_relaxed(&n->ex, false);
    store_relaxed(&n->ctx, ctx);
    store_relaxed(&n->dev, ctx->dev); /* see event->id */
    n->notify = true;
    n->counting = true;
    store_relaxed(&n->id, (int32_t)n->hdr.index);
    plat_mutex_lock(&ctx->lock);
    list_add_tail(&ctx->events, &n->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    obj_publish(&n->hdr);
    *out = n;
    return ACL_SUCCESS;
}

/* A counting wait parked on its notify: its test, kept in park_gen (below
 * GEN_LATEST: bit 48 marks it, bit 40 the clear, bits 32-39 the mode). */
#define CNT_GRANTED (UINT64_MAX - 3)

uint64_t cnt_cond(uint8_t mode, uint32_t value, bool clear)
{
    return (1ull << 48) | ((uint64_t)clear << 40) | ((uint64_t)mode << 32) | value;
}

static bool cnt_passes(uint32_t count, uint64_t cond)
{
    uint32_t v = (uint32_t)cond;
    switch ((uint8_t)(cond >> 32)) {
    case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE: return count < v;
    case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE: return count == v;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE: return count > v;
    case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE: return count >= v;
    default: return (count & v) == v; /* EQUAL_WITH_BITMASK */
    }
}

static bool cnt_clears(uint64_t cond) { return ((cond >> 40) & 1u) != 0; }

/* Called with n->lock held: a counting record applies its operation. */
static void cnt_apply_locked(struct event *n, const struct task *rec)
{
    PLAT_ASSERT_HELD(&n->lock);
    uint32_t v = rec->u.event.cnt_value;
    switch (rec->u.event.cnt_mode) {
    case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE: n->count = v; break;
    case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE: n->count += v; break; /* wraps at 2^32, as a 32-bit register does */
    case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE: n->count |= v; break;
    default: n->count &= v; break; /* BIT_AND */
    }
}

void notify_reset(struct event *n)
{
    plat_spin_lock(&n->lock);
    if (n->ipc != NULL) /* a shared notify's flag is in the shared slot */
        (void)ipcshm_notify_take(ipc_event_slot(n));
    n->notified = false;
    plat_spin_unlock(&n->lock);
}

aclError event_destroy(struct event *ev, const void *handle)
{
    bool recycle;
    struct context *ctx = event_ctx(ev);

    if (check_on())
        check_forget_event(obj_handle(&ev->hdr)); /* before the lock: the checker's is a mutex */
    plat_spin_lock(&ev->lock);
    /* Of two destroyers, the first to kill it goes on; the other is told
     * 107017. A teardown (no handle) meeting an event a user's destroy has
     * killed and not yet unlinked waits for that destroy instead of ending
     * the event a second time (its IPC watcher would be joined twice). */
    if (handle != NULL ? !obj_same(&ev->hdr, handle) : !load_relaxed(&ev->hdr.live)) {
        plat_spin_unlock(&ev->lock);
        return ACL_ERROR_RT_INVALID_HANDLE;
    }
    obj_kill(&ev->hdr);
    plat_spin_unlock(&ev->lock);
    ipc_event_detach(ev); /* if it is shared: its watcher ends here */
    plat_mutex_lock(&ctx->lock);
    list_del(&ev->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    plat_spin_lock(&ev->lock);
    /* seq_cst: store destroyed, then load pending; the releaser does the
     * reverse, so one of us sees the other (Dekker; see event->waits_done).
     * Exchange, not load: of us and the last releaser, only one may see
     * "destroyed and nothing pending" and recycle (see pending_tasks). */
    store_seq_cst(&ev->destroyed, true);
    recycle = load_seq_cst(&ev->pending_tasks) == 0 &&
              !exchange_seq_cst(&ev->recycling, true);
    if (ev->holds_slot) {
        device_event_slot_give(load_relaxed(&ev->dev));
        ev->holds_slot = false;
    }
    if (ev->host_waiters > 0) { /* let them see it is gone */
        fetch_add_relaxed(&ev->wake_word, 1);
        plat_futex_wake_all(&ev->wake_word);
    }
    plat_spin_unlock(&ev->lock);
    if (recycle)
        obj_recycle(&ev->hdr);
    return ACL_SUCCESS;
}

/* Called with ev->lock held: the first record of a lazily created event
 * takes its place against the SoC's event cap. */
void event_snapshot(struct event *ev, struct event_view *out)
{
    plat_spin_lock(&ev->lock);
    out->record_gen = event_newest_locked(ev);
    out->done_gen = ev->ipc != NULL && !ev->notify ? ipcshm_event_done(ipc_event_slot(ev)) : ev->done_gen;
    out->ts = ev->timestamp_ns;
    out->reset_done = ev->reset_done;
    out->waits_issued = ev->waits_issued;
    /* Acquire: pairs with event_task_release, so a wait counted done is seen done. */
    out->waits_done = load_acquire(&ev->waits_done);
    plat_spin_unlock(&ev->lock);
}

/* Called with ev->lock held: an aclrtCreateEvent event takes its id (a
 * slot against the SoC's cap) at its first record. */
static bool take_lazy_slot_locked(struct event *ev)
{
    PLAT_ASSERT_HELD(&ev->lock);
    if (!ev->lazy_slot || ev->holds_slot)
        return true;
    ev->holds_slot = device_event_slot_take(load_relaxed(&ev->dev)) == ACL_SUCCESS;
    return ev->holds_slot;
}

/* Called with s->lock and n->lock held: a notify's record takes the next
 * record number; its wait consumes whatever record is there when it runs. */
static enum refusal issue_notify_locked(struct event *n, struct stream *s, struct task *t, const void *handle)
{
    PLAT_ASSERT_HELD(&s->lock);
    PLAT_ASSERT_HELD(&n->lock);
    if (!obj_same(&n->hdr, handle))
        return REFUSE_EVENT_DEAD;
    if (t->kind == TASK_NOTIFY_RECORD) {
        t->u.event.gen = ++n->record_gen;
        n->last_recorder = obj_handle(&s->hdr);
    }
    return REFUSE_NONE;
}

/* Called with ev->lock held: record t, just numbered, is pending until it
 * is reached; the newest goes last, so the list stays in gen order. */
static void pending_add_locked(struct event *ev, struct task *t)
{
    PLAT_ASSERT_HELD(&ev->lock);
    t->u.event.pend_prev = ev->pending_tail;
    t->u.event.pend_next = NULL;
    if (ev->pending_tail != NULL)
        ev->pending_tail->u.event.pend_next = t;
    else
        ev->pending_head = t;
    ev->pending_tail = t;
    t->u.event.pending = true;
}

/* Called with ev->lock held: record t has been reached (run or discarded). */
static void pending_remove_locked(struct event *ev, struct task *t)
{
    PLAT_ASSERT_HELD(&ev->lock);
    struct task *prev = t->u.event.pend_prev, *next = t->u.event.pend_next;
    if (prev != NULL)
        prev->u.event.pend_next = next;
    else
        ev->pending_head = next;
    if (next != NULL)
        next->u.event.pend_prev = prev;
    else
        ev->pending_tail = prev;
    t->u.event.pending = false;
}

uint64_t event_newest_locked(struct event *ev)
{
    PLAT_ASSERT_HELD(&ev->lock);
    return ev->ipc != NULL && !ev->notify ? ipcshm_event_newest(ipc_event_slot(ev)) : ev->record_gen;
}

bool event_gen_done_locked(struct event *ev, uint64_t gen)
{
    PLAT_ASSERT_HELD(&ev->lock);
    const struct task *p = ev->pending_head;
    /* An IPC event's records complete in several processes: the shared
     * done number is the newest completed anywhere. */
    if (ev->ipc != NULL && !ev->notify)
        return ipcshm_event_done(ipc_event_slot(ev)) >= gen;
    if (gen > ev->done_gen) /* not reached yet; done_gen itself is */
        return false;
    /* The common cases look at the ends only: nothing pending, or gen
     * older than the oldest pending record or newer than the newest. */
    if (ACLCPU_LIKELY(p == NULL || gen < p->u.event.gen || gen > ev->pending_tail->u.event.gen))
        return true;
    for (; p != NULL && p->u.event.gen <= gen; p = p->u.event.pend_next) {
        if (p->u.event.gen == gen)
            return false;
    }
    return true;
}

/* Called with s->lock and ev->lock held: fills event task t for s. A
 * record takes the next record number (and a lazy event its id); a wait
 * snapshots the newest record (an EXTERNAL event's waits wait until it is
 * set instead), and a wait on a never-recorded event queues nothing. A
 * task that belongs to a model after all (a capture began under our feet,
 * or the waited event was recorded in one) goes back to the caller. */
static enum refusal issue_event_locked(struct event *ev, struct stream *s, struct task *t, const struct submit *sub)
{
    PLAT_ASSERT_HELD(&s->lock);
    PLAT_ASSERT_HELD(&ev->lock);
    bool flag_event = ev->hw_flag;
    if (!sub->model_asked &&
        (s->rec_lane != NULL || s->update != NULL || (t->kind == TASK_EVENT_WAIT && ev->newest_in_model)))
        return SKIP_MODEL_PATH;
    if (!obj_same(&ev->hdr, sub->event))
        return REFUSE_EVENT_DEAD;
    if (t->kind == TASK_EVENT_RECORD && !take_lazy_slot_locked(ev))
        return REFUSE_NO_EVENT_SLOT;
    if (t->kind == TASK_EVENT_WAIT && event_newest_locked(ev) == 0 && !flag_event)
        return load_relaxed(&ev->ex) ? SKIP_NEVER_RECORDED : REFUSE_NEVER_RECORDED;
    if (t->kind == TASK_EVENT_RECORD) {
        /* An IPC event's record numbers are shared by every process. */
        t->u.event.gen = ev->ipc != NULL ? ipcshm_event_issue(ipc_event_slot(ev)) : ev->record_gen + 1;
        ev->record_gen = t->u.event.gen;
        ev->last_recorder = obj_handle(&s->hdr);
        /* This record is the newest now, unless the event was recorded in
         * a capture still under way (capture_model_utils.cc: the event's
         * capture record stands until the capture ends). */
        ev->newest_in_model = ev->rec_capturing;
        pending_add_locked(ev, t);
    } else if (t->kind == TASK_EVENT_WAIT) {
        t->u.event.gen = flag_event ? GEN_FLAG : event_newest_locked(ev); /* the snapshot: the newest record now */
        t->u.event.recorder = ev->last_recorder;
        ev->waits_issued++;
    }
    return REFUSE_NONE;
}

void event_issue_detached_record(struct event *ev, struct task *t, const void *recorder)
{
    memset(t, 0, offsetof(struct task, inline_args));
    t->kind = TASK_EVENT_RECORD;
    t->u.event.ev = ev;
    plat_spin_lock(&ev->lock);
    t->u.event.gen = ++ev->record_gen;
    ev->last_recorder = recorder;
    ev->newest_in_model = ev->rec_capturing; /* as issue_event_locked */
    pending_add_locked(ev, t);
    fetch_add_relaxed(&ev->pending_tasks, 1); /* under ev->lock; event_task_release gives it back */
    plat_spin_unlock(&ev->lock);
}

uint64_t event_wait_snapshot(struct event *ev)
{
    uint64_t g;
    plat_spin_lock(&ev->lock);
    g = event_newest_locked(ev);
    plat_spin_unlock(&ev->lock);
    return g;
}

enum refusal event_issue_locked(struct stream *s, struct task *t, const struct submit *sub)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct event *ev = t->u.event.ev;
    enum refusal why = REFUSE_NONE;
    plat_spin_lock(&ev->lock);
    if (sub->event != NULL) /* else planned whole by capture.c: target, record number and use */
        why = ev->notify ? issue_notify_locked(ev, s, t, sub->event) : issue_event_locked(ev, s, t, sub);
    if (why == REFUSE_NONE)
        fetch_add_relaxed(&ev->pending_tasks, 1); /* under ev->lock */
    plat_spin_unlock(&ev->lock);
    return why;
}

/* Called with ev->lock held: a hardware-flag event (SYNC or EXTERNAL from
 * aclrtCreateEventWithFlag) is set once recorded, until a reset runs (its
 * waits wait for that, not for a particular record). */
static bool flag_set_locked(const struct event *ev)
{
    PLAT_ASSERT_HELD(&ev->lock);
    return ev->done_gen > 0 && !ev->reset_done;
}

/* Called with ev->lock held: takes every parked stream whose wait is now
 * satisfied off the list and returns them, linked through park_next. */
static struct stream *take_released_locked(struct event *ev)
{
    PLAT_ASSERT_HELD(&ev->lock);
    struct stream *released = NULL, **pp = &ev->waiters;
    if (ev->counting) {
        /* Every waiter the count passes goes; one that clears takes the
         * count to 0 for those after it. */
        while (*pp != NULL) {
            struct stream *s = *pp;
            if (s->park_gen != CNT_GRANTED && cnt_passes(ev->count, s->park_gen)) {
                if (cnt_clears(s->park_gen))
                    ev->count = 0;
                *pp = s->park_next;
                s->park_next = released;
                store_relaxed(&s->park_event, NULL);
                s->park_gen = CNT_GRANTED;
                released = s;
            } else {
                pp = &s->park_next;
            }
        }
        return released;
    }
    if (ev->notify) {
        /* A notify releases the oldest waiter, which consumes the flag. */
        struct stream *oldest = NULL, **op = NULL;
        if (!ev->notified && ev->ipc == NULL)
            return NULL;
        for (; *pp != NULL; pp = &(*pp)->park_next) {
            oldest = *pp;
            op = pp;
        }
        /* An IPC notify's flag is shared: take it only for a waiter. */
        if (oldest == NULL || (ev->ipc != NULL && !ipcshm_notify_take(ipc_event_slot(ev))))
            return NULL;
        *op = oldest->park_next;
        oldest->park_next = NULL;
        store_relaxed(&oldest->park_event, NULL);
        oldest->park_gen = NOTIFY_GRANTED;
        ev->notified = false;
        return oldest;
    }
    while (*pp != NULL) {
        struct stream *s = *pp;
        if (s->park_gen == GEN_FLAG ? flag_set_locked(ev) : event_gen_done_locked(ev, s->park_gen)) {
            *pp = s->park_next;
            s->park_next = released;
            store_relaxed(&s->park_event, NULL);
            released = s;
        } else {
            pp = &s->park_next;
        }
    }
    return released;
}

/* Completes record gen of ev; rec is the stream task that made it, if any. */
/* After ev->lock is dropped: wakes host waiters, the IPC object's
 * watchers in every process, and makes the released streams ready. */
static void release(struct event *ev, struct stream *released, bool wake_hosts, struct ipc_slot *shared)
{
    if (wake_hosts)
        plat_futex_wake_all(&ev->wake_word);
    if (shared != NULL)
        ipcshm_wake(shared);
    while (released != NULL) {
        struct stream *next = released->park_next;
        engine_unpark(released);
        released = next;
    }
}

/* Called with ev->lock held: host threads waiting on ev must look again. */
static bool note_hosts_locked(struct event *ev)
{
    PLAT_ASSERT_HELD(&ev->lock);
    if (ev->host_waiters == 0)
        return false;
    fetch_add_relaxed(&ev->wake_word, 1);
    return true;
}

static void reach(struct event *ev, uint64_t gen, uint64_t now_ns, struct task *rec)
{
    struct stream *released;
    struct ipc_slot *shared = NULL;
    bool wake_hosts;

    plat_spin_lock(&ev->lock);
    if (rec != NULL && rec->u.event.pending)
        pending_remove_locked(ev, rec);
    if (gen == GEN_LATEST) /* a real record made when reached (model runs) */
        gen = ++ev->record_gen;
    /* Only a newer record moves the completed state: an older one that
     * finishes late (another stream) must not take it back. */
    if (gen > ev->done_gen) {
        ev->done_gen = gen;
        ev->timestamp_ns = now_ns;
        ev->reset_done = false;
    } else if (gen == ev->done_gen) {
        ev->reset_done = false; /* the same record again (a lane played twice): set once more */
    }
    if (ev->ipc != NULL) { /* published to every process that shares it */
        shared = ipc_event_slot(ev);
        if (ev->notify)
            ipcshm_notify_set(shared);
        else
            ipcshm_event_reach(shared, gen);
    } else if (ev->counting) {
        if (rec != NULL)
            cnt_apply_locked(ev, rec);
    } else if (ev->notify) {
        ev->notified = true;
    }
    released = take_released_locked(ev);
    wake_hosts = note_hosts_locked(ev);
    plat_spin_unlock(&ev->lock);
    release(ev, released, wake_hosts, shared);
}

void event_ipc_refresh(struct event *ev)
{
    struct stream *released;
    bool wake_hosts;
    plat_spin_lock(&ev->lock);
    if (!ev->notify && ev->ipc != NULL) { /* mirror the shared numbers for queries and reports */
        struct ipc_slot *shared = ipc_event_slot(ev);
        uint64_t done = ipcshm_event_done(shared), newest = ipcshm_event_newest(shared);
        if (done > ev->done_gen) {
            ev->done_gen = done;
            ev->timestamp_ns = plat_now_ns();
            ev->reset_done = false;
        }
        if (newest > ev->record_gen)
            ev->record_gen = newest;
    }
    released = take_released_locked(ev);
    wake_hosts = note_hosts_locked(ev);
    plat_spin_unlock(&ev->lock);
    release(ev, released, wake_hosts, NULL);
}

void event_reach(struct event *ev, uint64_t gen, uint64_t now_ns) { reach(ev, gen, now_ns, NULL); }

void event_notify_played(struct task *t, uint64_t now_ns) { reach(t->u.event.ev, GEN_LATEST, now_ns, t); }

void event_record_done(struct task *t, uint64_t now_ns) { reach(t->u.event.ev, t->u.event.gen, now_ns, t); }

/* Called with ev->lock (and s->lock) held: has the wait for gen passed? A
 * notify's waiter consumes the flag. */
static bool wait_passed_locked(struct stream *s, struct event *ev, uint64_t gen)
{
    PLAT_ASSERT_HELD(&s->lock);
    PLAT_ASSERT_HELD(&ev->lock);
    bool passed;
    if (ev->counting) {
        /* Released by a record (which applied any clear), or passing now. */
        passed = s->park_gen == CNT_GRANTED || cnt_passes(ev->count, gen);
        if (passed && s->park_gen != CNT_GRANTED && cnt_clears(gen))
            ev->count = 0;
        s->park_gen = 0;
        return passed;
    }
    if (ev->notify) {
        /* A waiter released by a record was handed the flag already
         * (NOTIFY_GRANTED); any other consumes the flag if it is set. */
        passed = s->park_gen == NOTIFY_GRANTED ||
                 (ev->ipc != NULL ? ipcshm_notify_take(ipc_event_slot(ev)) : ev->notified);
        if (s->park_gen != NOTIFY_GRANTED)
            ev->notified = false;
        s->park_gen = 0;
        return passed;
    }
    return gen == GEN_FLAG ? flag_set_locked(ev) : event_gen_done_locked(ev, gen);
}

bool event_wait_gen_or_park(struct stream *s, struct event *ev, uint64_t gen, struct task *timer)
{
    bool passed;

    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->discard)) {
        plat_spin_unlock(&s->lock);
        return true; /* being force-destroyed: let the owner drop the rest */
    }
    plat_spin_lock(&ev->lock);
    if (gen == GEN_LATEST)
        gen = ev->record_gen;
    passed = wait_passed_locked(s, ev, gen);
    if (passed && timer != NULL && ACLCPU_UNLIKELY(timer->prof_id != 0) && (gen == GEN_FLAG || ev->notify))
        prof_wait_took(timer->prof_id, ev->done_gen); /* not a snapshot: the profile learns which record it took */
    if (!passed) {
        if (timer != NULL && timer->u.event.timeout_ms != 0) {
            if (timer->u.event.deadline == 0) /* the clock starts when the wait is reached */
                timer->u.event.deadline = plat_now_ns() + (uint64_t)timer->u.event.timeout_ms * 1000000u;
            engine_watch_wait(s, timer->u.event.deadline);
        }
        store_relaxed(&s->park_event, ev); /* the task stays at the head of the queue */
        s->park_gen = gen;
        s->park_next = ev->waiters;
        ev->waiters = s;
        store_relaxed(&s->state, STREAM_PARKED);
    }
    plat_spin_unlock(&ev->lock);
    plat_spin_unlock(&s->lock);
    if (passed && timer != NULL && timer->u.event.deadline != 0)
        engine_unwatch(s);
    return passed;
}

bool event_passed(struct event *ev, uint64_t gen)
{
    bool passed;
    plat_spin_lock(&ev->lock);
    if (gen == GEN_LATEST)
        gen = ev->record_gen;
    passed = !ev->notify && (gen == GEN_FLAG ? flag_set_locked(ev) : event_gen_done_locked(ev, gen));
    plat_spin_unlock(&ev->lock);
    return passed;
}

bool event_wait_or_park(struct stream *s, struct task *t)
{
    return event_wait_gen_or_park(s, t->u.event.ev, t->u.event.gen, t);
}

uint64_t event_done_gen(struct event *ev)
{
    uint64_t g;
    plat_spin_lock(&ev->lock);
    g = ev->done_gen;
    plat_spin_unlock(&ev->lock);
    return g;
}

void event_reset_done(struct task *t)
{
    struct event *ev = t->u.event.ev;
    plat_spin_lock(&ev->lock);
    if (ev->done_gen > 0)
        ev->reset_done = true;
    plat_spin_unlock(&ev->lock);
}

void event_task_release(struct task *t)
{
    struct event *ev = t->u.event.ev;
    bool recycle;

    if (t->kind == TASK_EVENT_WAIT) /* release: a query that sees the count sees the wait done */
        fetch_add_release(&ev->waits_done, 1);
    /* A record freed unreached (every path reaches it first: this is the
     * safety net) must leave ev->pending, and counts as dropped. No lock:
     * only the thread that reaches a record clears the flag. */
    if (ACLCPU_UNLIKELY(t->kind == TASK_EVENT_RECORD && t->u.event.pending))
        event_record_done(t, plat_now_ns());
    /* seq_cst: the other half of event_destroy's Dekker pair. */
    recycle = fetch_sub_seq_cst(&ev->pending_tasks, 1) == 1 &&
              load_seq_cst(&ev->destroyed) &&
              !exchange_seq_cst(&ev->recycling, true);
    if (recycle)
        obj_recycle(&ev->hdr);
}
