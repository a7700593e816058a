/*
 * squeue.h - the stream queue: how launchers and a stream's one owner share
 * a FIFO of task records, and how the stream's progress is published.
 *
 * THE QUEUE. A stream is a singly linked FIFO of task records (struct
 * qnode) with a dummy node. Launchers append at the tail under the stream's
 * lock, the issue lock (squeue_link_locked, from stream_commit: the one
 * place a task joins a stream). The stream's owner - the one executor
 * running it: a worker, a synchronising host or the host-function thread
 * (engine/sched.c) - takes tasks from the other end without the lock. head
 * is the last node taken off the queue: the stub, or the record of the
 * last task done, kept as the dummy so that the owner never needs the lock
 * to step to head->next, the task to run (squeue_next). Completing a task
 * makes its record the dummy and frees the previous one (squeue_complete).
 * Launcher and owner therefore share no lock and, on a busy stream, no
 * cache line but the task's own.
 *
 * Invariants:
 *  - tail and every link are written under the lock only: by a launcher
 *    appending, or by whoever holds the consumer end cutting the queue
 *    (squeue_detach_after_locked, squeue_reset_locked).
 *  - head is written by the owner without the lock, or under the lock by a
 *    thread holding a stream that has no owner (IDLE, PARKED, or the kept
 *    queue of a PERSISTENT or stopped stream).
 *  - the node the owner stands on is never one a launcher writes unless it
 *    is the tail, where the lock settles who goes on: the owner lets go of
 *    an empty queue only under the lock (engine/complete.c), so a launcher
 *    either links behind head before that, and the owner runs the task, or
 *    after, and finds the stream idle and makes it ready.
 *  - done (tasks completed or dropped) <= issued (tasks queued, under the
 *    lock); done == issued once the stream is idle, unless aclrtStreamStop
 *    kept its queue (then done stays below: that work never ran).
 *
 * THE ORDERINGS, all in this module but for the waiting side.
 *  1. A link is published with a release store and read by the owner with
 *     an acquire load: the owner sees the task as its launcher filled it.
 *  2. done and sync_waiters (all seq_cst): the owner stores done, then
 *     loads sync_waiters; a waiter increments sync_waiters, then loads done
 *     (engine/wait.c). In that total order one of the two sees the other,
 *     so a waiter never sleeps through its completion, and a completion
 *     that nobody waits for costs no syscall. Waiters lower wake_at to
 *     their target, so the owner wakes them only when done reaches one
 *     (squeue_note_done). The same RMW pairing on sync_waiters wakes
 *     waiters when a stream is killed or stopped (engine_stream_killed).
 *  3. discard, done and head (all seq_cst): a force destroy or an abort
 *     drops the tasks behind the running one while its owner moves head
 *     without the lock. The owner stores head (relaxed), then done, then
 *     loads discard (squeue_complete, squeue_discarding); the discarder
 *     (squeue_detach_behind_owner_locked, under the lock) stores discard,
 *     then loads done, then head. If the owner's load saw no discard, its
 *     store of done precedes the discarder's load of it, so the discarder
 *     sees that head or a later one: the task after it is the one the
 *     owner runs, and the owner's next look at discard sees the store. If
 *     the owner saw discard, it waits for the discarder's lock before it
 *     frees the dummy the discarder may have read (squeue_complete).
 *
 * The owner's states (IDLE / READY / RUNNING / PARKED) and host waits are
 * the engine's (engine/complete.c, engine/wait.c): this module is the
 * list and its counters. The fast paths are inline below; the rest is in
 * squeue.c.
 *
 * Threads: launchers (any host thread) at the tail, the owner at the
 * head, discarders under the lock. Locks: stream->lock only.
 */
#ifndef ACLCPU_SQUEUE_H
#define ACLCPU_SQUEUE_H

#include "core.h"

/* Called with s->lock held: links t (its link NULL, its fields filled)
 * behind the newest task of s. Release: the owner's acquire load of this
 * link (squeue_next) sees the task as filled. The owner reads the link
 * without the lock; the lock only orders launchers, and the owner against
 * them at the tail (going idle). The caller counts t in s->issued. */
static inline void squeue_link_locked(struct stream *s, struct task *t)
{
    PLAT_ASSERT_HELD(&s->lock);
    store_release(&s->tail->next, &t->q);
    s->tail = &t->q;
}

/* The owner's dummy node; relaxed: the owner's own write, or one made
 * under the lock the caller holds. */
static inline struct qnode *squeue_head(struct stream *s)
{
    return load_relaxed(&s->head);
}

/* Called by the stream's owner (or under s->lock by a thread holding a
 * stream that has none): the task to run next, or NULL when the queue is
 * empty. Acquire: pairs with squeue_link_locked's release of the link, so
 * the task's fields are seen as the launcher wrote them. */
static inline struct task *squeue_next(struct stream *s)
{
    struct qnode *n = load_acquire(&squeue_head(s)->next);
    return n != NULL ? task_of(n) : NULL;
}

/* Called by the owner before it takes the next task: true when a force
 * destroy or abort wants the queue dropped (the owner then takes the lock
 * and drops it). seq_cst: pairs with squeue_detach_behind_owner_locked. */
static inline bool squeue_discarding(struct stream *s)
{
    return load_seq_cst(&s->discard);
}

/* An empty queue, nothing done: for a stream being set up, under its lock
 * and before it is published. */
void squeue_init(struct stream *s);

/* The slow path of squeue_note_done: waiters are counted. */
void squeue_wake_waiters(struct stream *s, uint64_t seq);

/* Publishes that s has done seq tasks and wakes the sleeping waiters whose
 * target that reaches, if any (ordering 2 says why seq_cst). */
static inline void squeue_note_done(struct stream *s, uint64_t seq)
{
    store_seq_cst(&s->done, seq);
    if (load_seq_cst(&s->sync_waiters) != 0)
        squeue_wake_waiters(s, seq);
}

/* Called by the owner: t, the task squeue_next returned, is done. Its
 * record becomes the dummy, what it holds is released (task_release), the
 * progress is published and the previous dummy freed. */
static inline void squeue_complete(struct stream *s, struct task *t)
{
    struct qnode *old = squeue_head(s);
    /* Relaxed: only the owner writes done while it owns the stream. */
    uint64_t seq = load_relaxed(&s->done) + 1;

    /* t's record is the dummy now. Relaxed: the seq_cst store of done in
     * squeue_note_done publishes it to a discarder (ordering 3). */
    store_relaxed(&s->head, &t->q);
    task_release(t);
    squeue_note_done(s, seq);
    /* A discarder that set `discard` before our store of done may have read
     * the old head under the lock: let it finish before the old dummy is
     * freed. seq_cst: the other half of that pairing. */
    if (ACLCPU_UNLIKELY(load_seq_cst(&s->discard))) {
        plat_spin_lock(&s->lock);
        plat_spin_unlock(&s->lock);
    }
    if (old != &s->stub)
        task_free(task_of(old));
}

/* Called with s->lock held by whoever holds the consumer end (the owner,
 * or a thread holding a stream that has none): unlinks every task after
 * node `after` and returns them as a chain (linked by task_next) for the
 * caller to complete and free without locks (engine_discard_chain). */
struct task *squeue_detach_after_locked(struct stream *s, struct qnode *after);

/* Called with s->lock held, s owned by an executor that moves head without
 * the lock: detaches every task behind the one the owner runs (or is about
 * to run) and sets `discard`, so the owner drops whatever is queued later.
 * The caller clears `discard` (under the lock) once the owner let go. */
struct task *squeue_detach_behind_owner_locked(struct stream *s);

/* Called with s->lock held and nothing queued behind head: points the
 * queue back at the stub and returns the old dummy record for the caller
 * to task_free once it has dropped the lock (NULL: it was the stub). */
struct task *squeue_reset_locked(struct stream *s);

/* Called with s->lock held on a PERSISTENT stream (which no executor ever
 * owns): unlinks the tasks it kept and returns them, linked by task_next. */
struct task *squeue_take_kept_locked(struct stream *s);

#endif
