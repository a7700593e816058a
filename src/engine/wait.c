/*
 * wait.c - host threads that wait: stream and event syncs, and a destroy
 * waiting for a stream's owner to let go.
 *
 * DESIGN: a stream's `done` counter says how far it has got (core/squeue.h
 * publishes it). A host thread waiting for position n spins briefly on it,
 * then counts itself in sync_waiters and futex-waits on wake_word. The
 * completer bumps wake_word only when waiters exist, so the common path
 * (nobody waiting) costs no syscall; squeue.h explains the seq_cst pairing
 * (its ordering 2). An untimed synchronize first tries to run the stream's
 * ready work itself (caller-runs), which avoids a worker wake-up on an idle
 * stream. A timed one never does: a long kernel on the caller's thread
 * could not honour the deadline. An untimed sync that sleeps watches for a
 * hang (hang.c).
 *
 * A worker may keep an empty stream for a moment after publishing its last
 * completion (sched.c, linger), so `done` reaching `issued` does not mean
 * that the stream has no owner: a destroyer also waits for that
 * (engine_wait_unowned). A teardown (destroy, reset, finalize) waits as an
 * untimed sync does, but gives up once the work is stuck by hang.c's
 * verdict (engine_wait_teardown): its caller then drops the work.
 *
 * With the race checker on (core/check.c), a sync takes the checker's
 * snapshot of what it waits for before it reads its target and hands it
 * back when it ends: only a sync that succeeded orders the host after it.
 *
 * Threads: any host thread. Locks: stream, event and engine locks (ranks:
 * lockrank.h); the checker's check_lock, alone, before and after a wait.
 */
#include "engine_int.h"
#include "../core/check.h"

/* Synchronize spins this long before sleeping; FAST_SYNC streams longer. */
#define SYNC_SPIN_NS 20000u
#define FAST_SYNC_SPIN_NS 500000u

/* Lowers wake_at to target (atomic minimum). seq_cst: the waiter's store
 * in the completion pairing with squeue_note_done (see stream->done). */
static void want_wake_at(struct stream *s, uint64_t target)
{
    uint64_t at = load_seq_cst(&s->wake_at);
    while (target < at && !cas_weak_seq_cst(&s->wake_at, &at, target))
        ;
}

bool engine_stream_idle(struct stream *s)
{
    uint64_t issued;
    plat_spin_lock(&s->lock);
    issued = s->issued;
    plat_spin_unlock(&s->lock);
    /* Acquire: an idle answer sees the tasks' effects (squeue_note_done's
     * seq_cst store of done is also a release). */
    return load_acquire(&s->done) >= issued;
}

/* Caller-runs: if s is waiting in the ready set, run it here up to target. */
static void help_run(struct stream *s, uint64_t target)
{
    bool took;
    plat_spin_lock(&s->lock);
    took = engine_unready_locked(s);
    plat_spin_unlock(&s->lock);
    if (took) {
        struct executor x = {load_relaxed(&s->dev)->engine, NULL, target};
        engine_run_stream(&x, s);
    }
}

/* seq_cst: the waiter's load of done in the pairing at stream->done. */
static bool reached(struct stream *s, uint64_t target)
{
    return load_seq_cst(&s->done) >= target;
}

/* True while handle (if given) still names s: a stream destroyed by another
 * thread during the wait ends the wait (its memory may be reused). */
static bool still_alive(struct stream *s, const void *handle)
{
    return handle == NULL || obj_same(&s->hdr, handle);
}

static bool stop_ends(struct stream *s, unsigned how)
{
    return (how & WAIT_STOP_ENDS) && load_relaxed(&s->stopped);
}

static enum sync_result wait_counted(struct stream *s, const void *handle, uint64_t target, uint64_t deadline,
                                     unsigned how)
{
    uint64_t spin_until = plat_now_ns() + ((load_relaxed(&s->flags) & ACL_STREAM_FAST_SYNC) ? FAST_SYNC_SPIN_NS : SYNC_SPIN_NS);
    bool may_run = how & WAIT_MAY_RUN, watch = (how & WAIT_WATCH_HANGS) && deadline == 0;
    struct hang_watch hw;

    for (unsigned i = 1; !reached(s, target); i++) {
        if (may_run && load_relaxed(&s->state) == STREAM_READY &&
            still_alive(s, handle))
            help_run(s, target);
        plat_cpu_relax();
        if ((i & 63) == 0 && (plat_now_ns() >= spin_until || !still_alive(s, handle) || stop_ends(s, how)))
            break;
    }
    if (watch)
        hang_watch_start(&hw, s);
    while (!reached(s, target)) {
        uint32_t word;
        bool in_time;
        uint64_t until = watch ? hang_watch_deadline(&hw) : deadline;
        if (!still_alive(s, handle))
            return SYNC_DESTROYED;
        if (stop_ends(s, how))
            return SYNC_STOPPED;
        if (may_run && load_relaxed(&s->state) == STREAM_READY) {
            help_run(s, target);
            continue;
        }
        word = load_seq_cst(&s->wake_word);
        want_wake_at(s, target);
        /* seq_cst RMW, so also acquire: see engine_stream_killed. */
        fetch_add_seq_cst(&s->sync_waiters, 1);
        in_time = reached(s, target) || !still_alive(s, handle) || stop_ends(s, how) ||
                  plat_futex_wait(&s->wake_word, word, until);
        fetch_sub_relaxed(&s->sync_waiters, 1);
        if (!in_time && !reached(s, target) && (!watch || hang_watch_check(&hw, s)))
            return SYNC_TIMED_OUT;
    }
    return SYNC_DONE;
}

/* Waits until s has done target tasks. The waiter is counted in
 * sync_waiters for the whole wait, spinning or asleep, so a worker does not
 * keep the stream once it has emptied it (sched.c, linger): the next work
 * is likely this host's, and caller-runs does it faster. */
enum sync_result engine_wait_done(struct stream *s, const void *handle, uint64_t target, uint64_t deadline,
                                  unsigned how)
{
    enum sync_result r;
    /* seq_cst: as the increment in the sleep path (squeue.h, ordering 2). */
    fetch_add_seq_cst(&s->sync_waiters, 1);
    r = wait_counted(s, handle, target, deadline, how);
    fetch_sub_relaxed(&s->sync_waiters, 1);
    return r;
}

enum sync_result engine_wait_stream(struct stream *s, const void *handle, uint64_t deadline_ns, unsigned flags,
                                    aclError *task_err)
{
    unsigned how = WAIT_STOP_ENDS | (deadline_ns == 0 ? WAIT_MAY_RUN : 0) |
                   ((flags & SYNC_WATCH_HANGS) ? WAIT_WATCH_HANGS : 0);
    enum sync_result r;
    uint64_t target;
    aclError err;

    uint32_t aborts;
    bool aborting;

    *task_err = ACL_SUCCESS;
    /* The checker's snapshot comes before target is read, so it covers no
     * more than the wait does. */
    struct check_snap *snap = check_on() ? check_sync_stream_begin(obj_handle(&s->hdr)) : NULL;
    plat_spin_lock(&s->lock);
    target = s->issued;
    aborts = s->aborts;
    aborting = s->aborting;
    plat_spin_unlock(&s->lock);
    if (deadline_ns == 0 && still_alive(s, handle))
        help_run(s, target);
    r = engine_wait_done(s, handle, target, deadline_ns, how);
    if (ACLCPU_UNLIKELY(snap != NULL))
        check_sync_end(snap, r == SYNC_DONE); /* a timed-out or stopped sync orders nothing */
    if (r != SYNC_DONE)
        return r;
    plat_spin_lock(&s->lock);
    err = still_alive(s, handle) ? s->error : ACL_SUCCESS;
    if (err != ACL_SUCCESS)
        s->error = ACL_SUCCESS;
    if (load_relaxed(&s->stop_error) != ACL_SUCCESS)
        s->stop_reported = true; /* the host knows now: new tasks are refused */
    /* A sync that overlapped an abort reports it (the reference's sync sees
     * the abort status while the abort runs); one begun after it, not. */
    if ((aborting || aborts != s->aborts || s->aborting) && still_alive(s, handle))
        err = ACL_ERROR_RT_STREAM_ABORT;
    plat_spin_unlock(&s->lock);
    *task_err = err;
    return SYNC_DONE;
}

/* A teardown looks at a wait this often, and gives up once the chain
 * holding it up was stuck (hang.c's verdict) with no progress for
 * grace_ns: a stopped or PERSISTENT stream, or a cycle of waits, does not
 * move by itself, and a destroy must return. */
#define TEARDOWN_LOOK_NS 20000000ull

bool engine_wait_teardown(struct stream *s, uint64_t grace_ns, char *why, size_t cap)
{
    uint64_t target, last, since = plat_now_ns();

    plat_spin_lock(&s->lock);
    target = s->issued;
    plat_spin_unlock(&s->lock);
    last = load_relaxed(&s->done); /* relaxed: a progress hint */
    for (;;) {
        uint64_t now, done;
        if (engine_wait_done(s, NULL, target, plat_now_ns() + TEARDOWN_LOOK_NS, WAIT_MAY_RUN) == SYNC_DONE)
            return true;
        now = plat_now_ns();
        done = load_relaxed(&s->done);
        if (done != last || !engine_explain_teardown(s, why, cap)) {
            last = done; /* progress, or a chain that can still move: wait on */
            since = now;
        } else if (now - since >= grace_ns) {
            return false;
        }
    }
}

/* Wakes every thread asleep in a wait on s so it notices s is gone (or
 * stopped). */
void engine_stream_killed(struct stream *s)
{
    /* Dekker with engine_wait_done, through RMWs on sync_waiters (no fences, which
     * TSan cannot see): a waiter counts itself with an RMW before checking
     * liveness and the stop flag; we killed the handle (or set the flag)
     * before this RMW. If ours comes first in sync_waiters' order, the
     * waiter's RMW reads from ours (release -> acquire) and sees the kill;
     * if the waiter's comes first, we read a count above 0 and wake it.
     * No waiter, no syscall. */
    if (fetch_add_seq_cst(&s->sync_waiters, 0) == 0)
        return;
    fetch_add_seq_cst(&s->wake_word, 1);
    plat_futex_wake_all(&s->wake_word);
}

void engine_wait_unowned(struct stream *s)
{
    /* A lingering owner lets go within a few polls of seeing the stream
     * dead; a preempted one needs a time slice, hence the yield. Relaxed:
     * the lock round trip below orders us after the owner's last critical
     * section (going idle is one). */
    for (unsigned i = 1; load_relaxed(&s->state) == STREAM_RUNNING; i++) {
        if (i < 1024)
            plat_cpu_relax();
        else
            plat_thread_yield();
    }
    plat_spin_lock(&s->lock);
    plat_spin_unlock(&s->lock);
}

static enum sync_result sync_event_wait(struct event *ev, const void *handle, uint64_t deadline_ns,
                                        struct hang_watch *hwp);

enum sync_result engine_sync_event(struct event *ev, const void *handle, uint64_t deadline_ns)
{
    struct hang_watch hw = {0, plat_now_ns(), plat_now_ns() + HANG_CHECK_NS, 0, false};
    struct check_snap *snap = check_on() ? check_sync_event_begin(obj_handle(&ev->hdr)) : NULL;
    enum sync_result r = sync_event_wait(ev, handle, deadline_ns, &hw);
    if (ACLCPU_UNLIKELY(snap != NULL))
        check_sync_end(snap, r == SYNC_DONE);
    return r;
}

/* engine_sync_event's wait, for the newest record when it begins. */
static enum sync_result sync_event_wait(struct event *ev, const void *handle, uint64_t deadline_ns,
                                        struct hang_watch *hwp)
{
    struct hang_watch hw = *hwp;
    struct device *dev;
    uint64_t target;

    plat_spin_lock(&ev->lock);
    target = event_newest_locked(ev);
    hw.last_done = ev->done_gen;
    dev = load_relaxed(&ev->dev);
    if (dev != NULL && dev->engine != NULL)
        hw.limit = dev->engine->hang_timeout_ns;
    while (!event_gen_done_locked(ev, target)) { /* that record itself, not a later one */
        if (!obj_same(&ev->hdr, handle)) { /* destroyed by another thread */
            plat_spin_unlock(&ev->lock);
            return SYNC_DESTROYED;
        }
        uint32_t word = load_relaxed(&ev->wake_word);
        uint64_t until = deadline_ns;
        bool in_time;
        if (until == 0) /* untimed: look for a hang every so often */
            until = hang_watch_deadline(&hw);
        ev->host_waiters++;
        plat_spin_unlock(&ev->lock);
        in_time = plat_futex_wait(&ev->wake_word, word, until);
        plat_spin_lock(&ev->lock);
        ev->host_waiters--;
        if (in_time || event_gen_done_locked(ev, target))
            continue;
        if (deadline_ns != 0) {
            plat_spin_unlock(&ev->lock);
            return SYNC_TIMED_OUT;
        }
        uint64_t done = ev->done_gen;
        plat_spin_unlock(&ev->lock);
        if (hang_watch_check_event(&hw, ev, done))
            return SYNC_TIMED_OUT;
        plat_spin_lock(&ev->lock);
    }
    plat_spin_unlock(&ev->lock);
    return SYNC_DONE;
}
