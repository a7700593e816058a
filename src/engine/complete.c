/*
 * complete.c - the owner's end of a stream: completing tasks, failures
 * (STOP mode), letting go of the stream (idle, halted by aclrtStreamStop,
 * back to the ready set), and the host calls that drop or stop a stream's
 * work: force destroy, abort, aclrtStreamStop, aclmdlRIAbort's nudge.
 *
 * DESIGN: the owner of a stream (the one executor running it) steps along
 * the stream's queue without the lock (core/squeue.h, which explains the
 * orderings). The lock is taken only where the owner meets launchers at
 * the tail: to go idle when the queue is empty, to drop tasks (STOP mode,
 * force destroy, abort), and to halt a stream that aclrtStreamStop stopped
 * (its queue is kept). The owner's state machine is here and in sched.c:
 * IDLE -> READY (a launch, engine_stream_kick) -> RUNNING (a worker or a
 * synchronising host takes it); from RUNNING back to READY (it yields),
 * to IDLE (it emptied, or halted), or to PARKED (its head waits on an
 * event, core/event.c), which the record, the watchdog or a nudge turns
 * back into READY.
 *
 * A failing task's exception callbacks are called from here
 * (engine_exc_notify), by its executor, before the task counts as done.
 *
 * Threads: executors (the owner end), any host thread (stop, abort,
 * discard, nudge). Locks: stream, event and engine locks (ranks:
 * lockrank.h); none is held while callbacks run.
 */
#include "../core/profhook.h"
#include "engine_int.h"

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

struct task *engine_go_idle_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct task *old = squeue_reset_locked(s);
    store_relaxed(&s->state, STREAM_IDLE);
    squeue_note_done(s, s->issued);
    return old;
}

void engine_halt_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* The queue stays as it is, head included (an abort or destroy drops
     * it, engine_discard_stream); done stays below issued. */
    store_relaxed(&s->state, STREAM_IDLE);
    engine_stream_killed(s); /* wakes an aclrtStreamStop waiting for the running task to end */
}

bool engine_owner_has_task(struct stream *s)
{
    struct task *chain = NULL, *dummy = NULL;
    bool more;

    /* squeue_discarding is seq_cst: it pairs with engine_discard_stream
     * (squeue.h, ordering 3). Relaxed stopped: the lock below settles it. */
    if (ACLCPU_LIKELY(!squeue_discarding(s) &&
                      !load_relaxed(&s->stopped)) &&
        squeue_next(s) != NULL)
        return true;
    plat_spin_lock(&s->lock);
    /* A force destroy or abort asked for the queue to be dropped. */
    if (load_relaxed(&s->discard))
        chain = squeue_detach_after_locked(s, squeue_head(s));
    /* Relaxed: under the lock no launcher is linking behind head. */
    more = load_relaxed(&squeue_head(s)->next) != NULL;
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
        load_relaxed(&stream_ctx(s)->failure_mode) == ACL_STOP_ON_FAILURE) {
        aclError none = ACL_SUCCESS;
        /* Relaxed store: a lingering worker reads it unlocked (sched.c). */
        if (load_relaxed(&s->stop_error) == ACL_SUCCESS)
            store_relaxed(&s->stop_error, err);
        /* The whole context stops: the first failure's code wins. */
        (void)cas_relaxed(&stream_ctx(s)->failure_error, &none, err);
        chain = squeue_detach_after_locked(s, &t->q);
    }
    plat_spin_unlock(&s->lock);
    return chain;
}

void engine_complete_current(struct stream *s, aclError err)
{
    struct task *t = squeue_next(s), *chain = NULL;

    if (ACLCPU_UNLIKELY(t->prof_id != 0))
        prof_task_ended(t->prof_id, profhook_run_end(t)); /* before anyone can see it done */
    if (ACLCPU_UNLIKELY(err != ACL_SUCCESS)) {
        /* The callbacks first: a sync that sees the failure returns after
         * them (the task is not done yet), and no lock is held. */
        if (load_relaxed(&engine_exc_armed))
            engine_exc_notify(s, t, err);
        chain = note_failure(s, t, err);
    }
    squeue_complete(s, t);
    if (ACLCPU_UNLIKELY(chain != NULL))
        engine_discard_chain(s, chain);
}

/* Gives an owned stream that still has tasks back to the ready set, drops
 * its queue if a force destroy asked for that meanwhile, or halts it if
 * aclrtStreamStop stopped it. */
void engine_give_back(struct stream *s)
{
    struct worker *w = NULL;
    struct task *chain = NULL, *dummy = NULL;

    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->discard)) {
        chain = squeue_detach_after_locked(s, squeue_head(s)); /* ours */
        dummy = engine_go_idle_locked(s);
    } else if (ACLCPU_UNLIKELY(load_relaxed(&s->stopped))) {
        engine_halt_locked(s);
    } else {
        w = engine_requeue_locked(s);
    }
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, chain);
    if (dummy != NULL)
        task_free(dummy);
    engine_wake(w);
}

void engine_finish_handed_off(struct stream *s, aclError err)
{
    engine_complete_current(s, err);
    if (engine_owner_has_task(s)) /* false too when a stop halted s */
        engine_give_back(s);
}

/* Called with s->lock held, s PARKED: takes s off its event's waiter list. */
void engine_unlink_parked_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct event *ev = load_relaxed(&s->park_event);
    if (ev == NULL) { /* parked on a value (memtask.c) */
        engine_value_unlink_locked(s);
        return;
    }
    plat_spin_lock(&ev->lock);
    for (struct stream **pp = &ev->waiters; *pp != NULL; pp = &(*pp)->park_next) {
        if (*pp == s) {
            *pp = s->park_next;
            break;
        }
    }
    plat_spin_unlock(&ev->lock);
    store_relaxed(&s->park_event, NULL);
}

void engine_nudge(struct stream *s)
{
    struct worker *w = NULL;
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->state) == STREAM_PARKED &&
        (load_relaxed(&s->park_event) != NULL || load_relaxed(&s->park_value) != NULL)) {
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
    s->aborts++;
    s->aborting = true;
    /* Relaxed: a running kernel polls it between blocks (see run_blocks). */
    fetch_add_relaxed(&s->abort_epoch, 1);
    plat_spin_unlock(&s->lock);
    engine_discard_stream(s);
    /* Done: the stream's state is reset before the call returns, as the
     * reference's (context.cc Context::StreamAbort, ResetStreamConstruct):
     * what a stop kept is gone, the failed or aborted task's code is
     * forgotten. A context's STOP failure is not the stream's: it stays. */
    plat_spin_lock(&s->lock);
    store_relaxed(&s->stopped, false);
    s->error = ACL_SUCCESS;
    store_relaxed(&s->stop_error, ACL_SUCCESS); /* read unlocked by linger */
    s->stop_reported = false;
    s->aborting = false;
    plat_spin_unlock(&s->lock);
}

/* Waits until no executor owns s (its running task has ended: the owner
 * of a stopped stream halts after it, or lets go of an empty queue; a
 * lingering worker stops lingering, sched.c). The owner wakes us; the wait
 * is also sliced, in case a wake is missed in a race with going idle. */
static void wait_not_running(struct stream *s)
{
    for (;;) {
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
        chain = squeue_detach_after_locked(s, squeue_head(s));
        dummy = engine_go_idle_locked(s);
        /* A wait a notify's record released (granted) and not run since
         * goes with its grant: the stream's next wait must test afresh. */
        s->park_gen = 0;
    } else {
        chain = squeue_detach_behind_owner_locked(s);
    }
    plat_spin_unlock(&s->lock);
    engine_discard_chain(s, chain);
    if (dummy != NULL)
        task_free(dummy);
    else /* owned: its head may be a callback no thread will ever process */
        report_discard_stream(s);
    engine_wait_done(s, NULL, issued, 0, 0);
    plat_spin_lock(&s->lock);
    store_relaxed(&s->discard, false);
    plat_spin_unlock(&s->lock);
}
