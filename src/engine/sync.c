/*
 * sync.c - task completion, discarding, stopping, and host threads that
 * wait.
 *
 * DESIGN: the owner of a stream (the one executor running it) steps along
 * the stream's queue without the lock (struct stream, stream_commit):
 * completing a task makes its record the queue's dummy node and frees the
 * previous one. The lock is taken only where the owner meets launchers at
 * the tail: to go idle when the queue is empty, to drop tasks (STOP mode,
 * force destroy, abort), and to halt a stream that aclrtStreamStop stopped
 * (its queue is kept). A stream's `done` counter says how far it has got;
 * a host thread waiting for position n spins briefly on it, then counts
 * itself in sync_waiters and futex-waits on wake_word. The completer bumps
 * wake_word only when waiters exist, so the common path (nobody waiting)
 * costs no syscall; the seq_cst pairing is explained at stream->done. An
 * untimed synchronize first tries to run the stream's ready work itself
 * (caller-runs), which avoids a worker wake-up on an idle stream. A timed
 * one never does: a long kernel on the caller's thread could not honour
 * the deadline.
 *
 * A worker may keep an empty stream for a moment after publishing its last
 * completion (sched.c, linger), so `done` reaching `issued` does not mean
 * that the stream has no owner: a destroyer also waits for that
 * (engine_wait_unowned).
 *
 * Threads: any. Lock order: stream->lock > event->lock > engine->lock.
 */
#include <assert.h>
#include <stdlib.h>

#include "../services/profile.h"
#include "engine_int.h"

/* Synchronize spins this long before sleeping; FAST_SYNC streams longer. */
#define SYNC_SPIN_NS 20000u
#define FAST_SYNC_SPIN_NS 500000u

/* Publishes progress and wakes sleeping synchronisers, if any (see the
 * comment on stream->done for why seq_cst). */
void engine_note_done(struct stream *s, uint64_t seq)
{
    /* seq_cst: store done, then load the waiters; a waiter does the reverse. */
    store_seq_cst(&s->done, seq);
    if (load_seq_cst(&s->sync_waiters) != 0 &&
        seq >= load_seq_cst(&s->wake_at)) {
        /* Reset before the bump: a waiter reads wake_word before it
         * registers its target, so one that registered after this reset
         * keeps its target, and one that registered before it sees the
         * bump and re-registers (see wait_done). seq_cst keeps one order. */
        store_seq_cst(&s->wake_at, UINT64_MAX);
        fetch_add_seq_cst(&s->wake_word, 1);
        plat_futex_wake_all(&s->wake_word);
    }
}

/* Lowers wake_at to target (atomic minimum). seq_cst: the waiter's store
 * in the completion pairing with engine_note_done (see stream->done). */
static void want_wake_at(struct stream *s, uint64_t target)
{
    uint64_t at = load_seq_cst(&s->wake_at);
    while (target < at &&
           !cas_weak_seq_cst(&s->wake_at, &at, target))
        ;
}

struct task *engine_detach_after_locked(struct stream *s, struct qnode *after)
{
    /* Relaxed: launchers write links under the lock we hold. */
    struct qnode *first = load_relaxed(&after->next);
    if (first == NULL)
        return NULL;
    store_relaxed(&after->next, NULL);
    s->tail = after;
    return task_of(first);
}

/* Completes discarded records so that nothing waits forever on them, then
 * frees the chain; runs without locks (records may release other streams). */
void engine_discard_chain(struct stream *s, struct task *chain)
{
    (void)s;
    while (chain != NULL) {
        /* Relaxed: the chain was detached under the lock and is ours. */
        struct task *next = task_next(chain);
        if (chain->kind == TASK_EVENT_RECORD || chain->kind == TASK_NOTIFY_RECORD)
            event_record_done(chain, plat_now_ns());
        task_release(chain);
        task_free(chain);
        chain = next;
    }
}

/* The owner's dummy node; relaxed: the owner's own write, or one made
 * under the lock the caller holds. */
static struct qnode *head_of(struct stream *s) { return load_relaxed(&s->head); }

struct task *engine_go_idle_locked(struct stream *s)
{
    struct qnode *old = head_of(s);
    assert(load_relaxed(&old->next) == NULL && s->tail == old);
    store_relaxed(&s->stub.next, NULL);
    store_relaxed(&s->head, &s->stub);
    s->tail = &s->stub;
    store_relaxed(&s->state, STREAM_IDLE);
    engine_note_done(s, s->issued);
    return old != &s->stub ? task_of(old) : NULL;
}

void engine_halt_locked(struct stream *s)
{
    /* The queue stays as it is, head included (an abort or destroy drops
     * it, engine_discard_stream); done stays below issued. */
    store_relaxed(&s->state, STREAM_IDLE);
    engine_stream_killed(s); /* wakes an aclrtStreamStop waiting for the running task to end */
}

bool engine_owner_has_task(struct stream *s)
{
    struct task *chain = NULL, *dummy = NULL;
    bool more;

    /* seq_cst: pairs with engine_discard_stream (see there). Relaxed
     * stopped: the lock below settles it. */
    if (ACLCPU_LIKELY(!load_seq_cst(&s->discard) &&
                      !load_relaxed(&s->stopped)) &&
        stream_next_task(s) != NULL)
        return true;
    plat_spin_lock(&s->lock);
    /* A force destroy or abort asked for the queue to be dropped. */
    if (load_relaxed(&s->discard))
        chain = engine_detach_after_locked(s, head_of(s));
    /* Relaxed: under the lock no launcher is linking behind head. */
    more = load_relaxed(&head_of(s)->next) != NULL;
    if (!more) {
        dummy = engine_go_idle_locked(s);
        if (ACLCPU_UNLIKELY(load_relaxed(&s->stopped)))
            engine_stream_killed(s); /* an aclrtStreamStop waits for us to let go */
    } else if (ACLCPU_UNLIKELY(load_relaxed(&s->stopped))) {
        /* aclrtStreamStop: the queue stays, but nothing more of it runs
         * (a discard was handled above, and left nothing queued). */
        engine_halt_locked(s);
        more = false;
    }
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, chain);
    if (dummy != NULL)
        task_free(dummy);
    return more;
}

/* A task failed: remember the error for the next sync; in STOP mode drop
 * everything after it (and, until a sync reports the failure, every task
 * issued later: stream_commit). Returns the dropped tasks. */
static struct task *note_failure(struct stream *s, struct task *t, aclError err)
{
    struct task *chain = NULL;
    plat_spin_lock(&s->lock);
    if (s->error == ACL_SUCCESS)
        s->error = err;
    if (!acl_is_overflow(err) &&
        load_relaxed(&s->ctx->failure_mode) == ACL_STOP_ON_FAILURE) {
        if (s->stop_error == ACL_SUCCESS)
            s->stop_error = err;
        chain = engine_detach_after_locked(s, &t->q);
    }
    plat_spin_unlock(&s->lock);
    return chain;
}

void engine_complete_current(struct stream *s, aclError err)
{
    struct task *t = stream_next_task(s), *chain = NULL;
    struct qnode *old = head_of(s);
    /* Relaxed: only the owner writes done while it owns the stream. */
    uint64_t seq = load_relaxed(&s->done) + 1;

    if (ACLCPU_UNLIKELY(t->prof_id != 0))
        prof_task_ended(t); /* before anyone can see it done */
    if (ACLCPU_UNLIKELY(err != ACL_SUCCESS))
        chain = note_failure(s, t, err);
    /* t's record is the dummy now. Relaxed: the seq_cst store of done in
     * engine_note_done publishes it to a discarder (engine_discard_stream). */
    store_relaxed(&s->head, &t->q);
    task_release(t);
    engine_note_done(s, seq);
    /* A discarder that set `discard` before our store of done may have read
     * the old head under the lock: let it finish before the old dummy is
     * freed. seq_cst: the other half of that pairing. */
    if (ACLCPU_UNLIKELY(load_seq_cst(&s->discard))) {
        plat_spin_lock(&s->lock);
        plat_spin_unlock(&s->lock);
    }
    if (old != &s->stub)
        task_free(task_of(old));
    if (ACLCPU_UNLIKELY(chain != NULL))
        engine_discard_chain(s, chain);
}

bool engine_stream_idle(struct stream *s)
{
    uint64_t issued;
    plat_spin_lock(&s->lock);
    issued = s->issued;
    plat_spin_unlock(&s->lock);
    /* Acquire: an idle answer sees the tasks' effects (engine_note_done's
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

enum wait_result { WAIT_DONE, WAIT_TIMEOUT, WAIT_DEAD, WAIT_STOPPED };

/* How a host thread waits: may it run the stream's work itself, does
 * aclrtStreamStop end the wait (it does for syncs, not for a discard), and
 * does it watch for hangs (untimed syncs). */
enum { WAIT_MAY_RUN = 1, WAIT_STOP_ENDS = 2, WAIT_WATCH_HANGS = 4 };

/* ---- hang watch ---------------------------------------------------------------- */

/* An untimed sync that sleeps looks at its stream every HANG_CHECK_NS. When
 * the stream made no progress and the chain holding it up cannot move on
 * by itself (hang.c), it logs a warning once, and gives up with a timeout
 * after ACLCPU_HANG_TIMEOUT_MS if that is set: a hang is never silent. */
#define HANG_CHECK_NS 1000000000ull

struct hang_watch {
    uint64_t last_done, since, next_check;
    uint64_t limit;          /* the engine's hang timeout, read while the object was known alive */
    bool warned;
};

static void hang_watch_start(struct hang_watch *w, struct stream *s)
{
    uint64_t now = plat_now_ns();
    w->last_done = load_relaxed(&s->done);
    w->since = now;
    w->next_check = now + HANG_CHECK_NS;
    w->limit = load_relaxed(&s->dev)->engine->hang_timeout_ns;
    w->warned = false;
}

/* When the next look is due: the sleep deadline of a watched wait. */
static uint64_t hang_watch_deadline(const struct hang_watch *w)
{
    uint64_t give_up = w->limit != 0 ? w->since + w->limit : UINT64_MAX;
    return w->next_check < give_up ? w->next_check : give_up;
}

/* A look of the hang watch at now: true when the wait made no progress
 * (done did not move) since the last look, which then starts over. */
static bool hang_no_progress(struct hang_watch *w, uint64_t done, uint64_t now)
{
    w->next_check = now + HANG_CHECK_NS;
    if (done != w->last_done) {
        w->last_done = done;
        w->since = now;
        w->warned = false;
        return false;
    }
    return true;
}

/* What a look found: a stuck wait is warned about once; true when it is
 * stuck and past the hang timeout, so the wait gives up. */
static bool hang_verdict(struct hang_watch *w, bool stuck, const char *what, int id, const char *why, uint64_t now)
{
    if (stuck && !w->warned) {
        LOGW("a sync on %s %d has made no progress for %llu ms: %s", what, id,
             (unsigned long long)((now - w->since) / 1000000u), why);
        w->warned = true;
    }
    return stuck && w->limit != 0 && now - w->since >= w->limit;
}

/* True when the wait should give up: no progress, stuck, and past the
 * hang timeout. Relaxed load of done: only a progress hint. */
static bool hang_watch_check(struct hang_watch *w, struct stream *s)
{
    uint64_t now = plat_now_ns();
    char why[640];
    if (!hang_no_progress(w, load_relaxed(&s->done), now))
        return false;
    return hang_verdict(w, engine_explain(s, true, why, sizeof(why)), "stream", load_relaxed(&s->id), why, now);
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

static enum wait_result wait_counted(struct stream *s, const void *handle, uint64_t target, uint64_t deadline,
                                     unsigned how)
{
    uint64_t spin_until =
        plat_now_ns() + ((load_relaxed(&s->flags) & ACL_STREAM_FAST_SYNC) ? FAST_SYNC_SPIN_NS : SYNC_SPIN_NS);
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
            return WAIT_DEAD;
        if (stop_ends(s, how))
            return WAIT_STOPPED;
        if (may_run && load_relaxed(&s->state) == STREAM_READY) {
            help_run(s, target);
            continue;
        }
        /* seq_cst: read the word before registering (see engine_note_done). */
        word = load_seq_cst(&s->wake_word);
        want_wake_at(s, target);
        /* seq_cst RMW, so also acquire: see engine_stream_killed. */
        fetch_add_seq_cst(&s->sync_waiters, 1);
        in_time = reached(s, target) || !still_alive(s, handle) || stop_ends(s, how) ||
                  plat_futex_wait(&s->wake_word, word, until);
        fetch_sub_relaxed(&s->sync_waiters, 1);
        if (!in_time && !reached(s, target) && (!watch || hang_watch_check(&hw, s)))
            return WAIT_TIMEOUT;
    }
    return WAIT_DONE;
}

/* Waits until s has done target tasks. The waiter is counted in
 * sync_waiters for the whole wait, spinning or asleep, so a worker does not
 * keep the stream once it has emptied it (sched.c, linger): the next work
 * is likely this host's, and caller-runs does it faster. */
static enum wait_result wait_done(struct stream *s, const void *handle, uint64_t target, uint64_t deadline,
                                  unsigned how)
{
    enum wait_result r;
    /* seq_cst: as the increment in the sleep path (see stream->done). */
    fetch_add_seq_cst(&s->sync_waiters, 1);
    r = wait_counted(s, handle, target, deadline, how);
    fetch_sub_relaxed(&s->sync_waiters, 1);
    return r;
}

aclError engine_sync_stream(struct stream *s, const void *handle, uint64_t deadline_ns, aclError timeout_code)
{
    unsigned how = WAIT_STOP_ENDS | (deadline_ns == 0 ? WAIT_MAY_RUN : 0) |
                   (timeout_code != ACL_SUCCESS ? WAIT_WATCH_HANGS : 0);
    uint64_t target;
    aclError err;

    plat_spin_lock(&s->lock);
    target = s->issued;
    plat_spin_unlock(&s->lock);
    if (deadline_ns == 0 && still_alive(s, handle))
        help_run(s, target);
    switch (wait_done(s, handle, target, deadline_ns, how)) {
    case WAIT_TIMEOUT:
        return timeout_code;
    case WAIT_DEAD:
        return ACL_ERROR_RT_INVALID_HANDLE;
    case WAIT_STOPPED:
        return ACL_ERROR_RT_INTERNAL_ERROR; /* the runtime's "stream invalid" */
    default:
        break;
    }
    plat_spin_lock(&s->lock);
    err = still_alive(s, handle) ? s->error : ACL_SUCCESS;
    if (err != ACL_SUCCESS)
        s->error = ACL_SUCCESS;
    if (s->stop_error != ACL_SUCCESS)
        s->stop_reported = true; /* the host knows now: new tasks are refused */
    if (s->abort_seq != 0 && target <= s->abort_seq && still_alive(s, handle))
        err = ACL_ERROR_RT_STREAM_ABORT; /* the work waited for was aborted */
    plat_spin_unlock(&s->lock);
    return err;
}

/* Wakes every thread asleep in a wait on s so it notices s is gone (or
 * stopped). */
void engine_stream_killed(struct stream *s)
{
    /* Dekker with wait_done, through RMWs on sync_waiters (no fences, which
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

/* Called with s->lock held, s PARKED: takes s off its event's waiter list. */
void engine_unlink_parked_locked(struct stream *s)
{
    struct event *ev = s->park_event;
    plat_spin_lock(&ev->lock);
    for (struct stream **pp = &ev->waiters; *pp != NULL; pp = &(*pp)->park_next) {
        if (*pp == s) {
            *pp = s->park_next;
            break;
        }
    }
    plat_spin_unlock(&ev->lock);
    s->park_event = NULL;
}

void engine_nudge(struct stream *s)
{
    struct worker *w = NULL;
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->state) == STREAM_PARKED && s->park_event != NULL) {
        engine_unlink_parked_locked(s);
        engine_unwatch(s);
        store_relaxed(&s->state, STREAM_IDLE);
        w = engine_requeue_locked(s);
    }
    plat_spin_unlock(&s->lock);
    engine_wake(w);
}

void engine_abort_stream(struct stream *s)
{
    plat_spin_lock(&s->lock);
    s->abort_seq = s->issued;
    /* Relaxed: a running kernel polls it between blocks (see run_blocks). */
    fetch_add_relaxed(&s->abort_epoch, 1);
    plat_spin_unlock(&s->lock);
    engine_discard_stream(s);
    /* An abort clears what a stop kept: the stream takes new work again. */
    plat_spin_lock(&s->lock);
    store_relaxed(&s->stopped, false);
    plat_spin_unlock(&s->lock);
}

/* Waits until no executor owns s (its running task has ended: the owner
 * of a stopped stream halts after it, or lets go of an empty queue; a
 * lingering worker stops lingering, sched.c). The owner wakes us; the wait
 * is also sliced, in case a wake is missed in a race with going idle. */
static void wait_not_running(struct stream *s)
{
    for (;;) {
        /* seq_cst: read the word before registering, as in wait_counted. */
        uint32_t word = load_seq_cst(&s->wake_word);
        bool running;
        /* seq_cst RMW: the Dekker pairing with engine_stream_killed. */
        fetch_add_seq_cst(&s->sync_waiters, 1);
        plat_spin_lock(&s->lock);
        running = load_relaxed(&s->state) == STREAM_RUNNING;
        plat_spin_unlock(&s->lock);
        if (running)
            plat_futex_wait(&s->wake_word, word, plat_now_ns() + 1000000u);
        fetch_sub_relaxed(&s->sync_waiters, 1);
        if (!running)
            return;
    }
}

bool engine_stop_stream(struct stream *s, const void *handle)
{
    int state;
    plat_spin_lock(&s->lock);
    if (!obj_same(&s->hdr, handle)) { /* destroyed meanwhile */
        plat_spin_unlock(&s->lock);
        return false;
    }
    store_relaxed(&s->stopped, true);
    /* The running kernel starts no more blocks (see run_blocks). */
    fetch_add_relaxed(&s->abort_epoch, 1);
    /* A ready or parked stream is halted here; a running one by its owner
     * after the current task (engine_owner_has_task). Either way the
     * queue stays and done stays below issued. */
    state = load_relaxed(&s->state);
    if (state == STREAM_PARKED) {
        engine_unlink_parked_locked(s);
        engine_unwatch(s);
        store_relaxed(&s->state, STREAM_IDLE);
    } else if (state == STREAM_READY && engine_unready_locked(s)) {
        store_relaxed(&s->state, STREAM_IDLE);
    }
    plat_spin_unlock(&s->lock);
    engine_stream_killed(s); /* syncs that wait on s return 507000 now */
    wait_not_running(s);
    return true;
}

/*
 * Called with s->lock held, s RUNNING: drops every task behind the one the
 * owner runs (or is about to run), and sets `discard` so the owner drops
 * whatever is queued later and lets the stream go idle.
 *
 * The owner moves head without the lock. Pairing (all seq_cst): the owner
 * stores head (relaxed), then done, then loads discard; we store discard,
 * then load done, then head. If the owner's load saw no discard, its store
 * of done precedes our load of it, so we see its head or a later one: the
 * task after that head is the one it runs, and its next look at discard
 * sees ours. If the owner saw discard, it waits for our lock before freeing
 * the dummy we may have read (engine_complete_current).
 */
static struct task *detach_behind_owner_locked(struct stream *s)
{
    struct qnode *head, *running;

    /* seq_cst, then acquire on head: our half of the pairing above. */
    store_seq_cst(&s->discard, true);
    (void)load_seq_cst(&s->done);
    head = load_acquire(&s->head);
    running = load_relaxed(&head->next); /* links change under our lock only */
    return running != NULL ? engine_detach_after_locked(s, running) : NULL;
}

void engine_discard_stream(struct stream *s)
{
    struct task *chain = NULL, *dummy = NULL;
    uint64_t issued;
    int state;

    plat_spin_lock(&s->lock);
    issued = s->issued;
    state = load_relaxed(&s->state);
    if (state == STREAM_READY && engine_unready_locked(s))
        state = STREAM_IDLE; /* now ours, with nothing run */
    if (state == STREAM_PARKED) {
        engine_unlink_parked_locked(s);
        state = STREAM_IDLE;
    }
    engine_unwatch(s);
    if (state == STREAM_IDLE) { /* no owner (or a stopped stream's kept queue): ours to drop */
        chain = engine_detach_after_locked(s, head_of(s));
        dummy = engine_go_idle_locked(s);
    } else {
        chain = detach_behind_owner_locked(s);
    }
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, chain);
    if (dummy != NULL)
        task_free(dummy);
    wait_done(s, NULL, issued, 0, 0);
    plat_spin_lock(&s->lock);
    store_relaxed(&s->discard, false);
    plat_spin_unlock(&s->lock);
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

/* ---- events --------------------------------------------------------------- */

/* An untimed event sync's hang watch (see struct hang_watch): true when it
 * should give up. Called without ev->lock (the walk takes stream locks). */
static bool event_hang_check(struct hang_watch *w, struct event *ev, uint64_t done)
{
    uint64_t now = plat_now_ns();
    char why[640];
    if (!hang_no_progress(w, done, now))
        return false;
    return hang_verdict(w, engine_explain_event(ev, why, sizeof(why)), "event", load_relaxed(&ev->id), why, now);
}

aclError engine_sync_event(struct event *ev, const void *handle, uint64_t deadline_ns)
{
    struct hang_watch hw = {0, plat_now_ns(), plat_now_ns() + HANG_CHECK_NS, 0, false};
    struct device *dev;
    uint64_t target;

    plat_spin_lock(&ev->lock);
    target = ev->record_gen;
    hw.last_done = ev->done_gen;
    dev = load_relaxed(&ev->dev);
    if (dev != NULL && dev->engine != NULL)
        hw.limit = dev->engine->hang_timeout_ns;
    while (ev->done_gen < target) {
        if (!obj_same(&ev->hdr, handle)) { /* destroyed by another thread */
            plat_spin_unlock(&ev->lock);
            return ACL_ERROR_RT_INVALID_HANDLE;
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
        if (in_time || ev->done_gen >= target)
            continue;
        if (deadline_ns != 0) {
            plat_spin_unlock(&ev->lock);
            return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
        }
        uint64_t done = ev->done_gen;
        plat_spin_unlock(&ev->lock);
        if (event_hang_check(&hw, ev, done))
            return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
        plat_spin_lock(&ev->lock);
    }
    plat_spin_unlock(&ev->lock);
    return ACL_SUCCESS;
}
