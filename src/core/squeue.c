/*
 * squeue.c - the stream queue: how launchers and a stream's one owner share
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
 * THE ORDERINGS, all in this file but for the waiting side.
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
 *     without the lock (squeue_detach_behind_owner_locked says how).
 *
 * The owner's states (IDLE / READY / RUNNING / PARKED) and host waits are
 * the engine's (engine/complete.c, engine/wait.c): this file is the list
 * and its counters.
 *
 * Threads: launchers (any host thread), the owner, discarders. Locks:
 * stream->lock only.
 */
#include <assert.h>

#include "squeue.h"

void squeue_init(struct stream *s)
{
    atomic_store_explicit(&s->stub.next, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->head, &s->stub, memory_order_relaxed); /* under lock, before the stream is published */
    s->tail = &s->stub;
    atomic_store_explicit(&s->discard, false, memory_order_relaxed);
    atomic_store_explicit(&s->done, 0, memory_order_relaxed);
}

/* Publishes progress and wakes sleeping synchronisers, if any (ordering 2
 * above says why seq_cst). */
void squeue_note_done(struct stream *s, uint64_t seq)
{
    atomic_store_explicit(&s->done, seq, memory_order_seq_cst);
    if (atomic_load_explicit(&s->sync_waiters, memory_order_seq_cst) != 0 &&
        seq >= atomic_load_explicit(&s->wake_at, memory_order_seq_cst)) {
        /* Reset before the bump: a waiter reads wake_word before it
         * registers its target, so one that registered after this reset
         * keeps its target, and one that registered before it sees the
         * bump and re-registers (wait_done, engine/wait.c). seq_cst keeps
         * one order. */
        atomic_store_explicit(&s->wake_at, UINT64_MAX, memory_order_seq_cst);
        atomic_fetch_add_explicit(&s->wake_word, 1, memory_order_seq_cst);
        plat_futex_wake_all(&s->wake_word);
    }
}

void squeue_complete(struct stream *s, struct task *t)
{
    struct qnode *old = squeue_head(s);
    /* Relaxed: only the owner writes done while it owns the stream. */
    uint64_t seq = atomic_load_explicit(&s->done, memory_order_relaxed) + 1;

    /* t's record is the dummy now. Relaxed: the seq_cst store of done in
     * squeue_note_done publishes it to a discarder (ordering 3). */
    atomic_store_explicit(&s->head, &t->q, memory_order_relaxed);
    task_release(t);
    squeue_note_done(s, seq);
    /* A discarder that set `discard` before our store of done may have read
     * the old head under the lock: let it finish before the old dummy is
     * freed. seq_cst: the other half of that pairing. */
    if (ACLCPU_UNLIKELY(atomic_load_explicit(&s->discard, memory_order_seq_cst))) {
        plat_spin_lock(&s->lock);
        plat_spin_unlock(&s->lock);
    }
    if (old != &s->stub)
        task_free(task_of(old));
}

struct task *squeue_detach_after_locked(struct stream *s, struct qnode *after)
{
    /* Relaxed: launchers write links under the lock we hold. */
    struct qnode *first = atomic_load_explicit(&after->next, memory_order_relaxed);
    if (first == NULL)
        return NULL;
    atomic_store_explicit(&after->next, NULL, memory_order_relaxed);
    s->tail = after;
    return task_of(first);
}

/*
 * Ordering 3. The owner moves head without the lock. Pairing (all
 * seq_cst): the owner stores head (relaxed), then done, then loads discard
 * (squeue_complete, squeue_discarding); we store discard, then load done,
 * then head. If the owner's load saw no discard, its store of done precedes
 * our load of it, so we see its head or a later one: the task after that
 * head is the one it runs, and its next look at discard sees ours. If the
 * owner saw discard, it waits for our lock before freeing the dummy we may
 * have read (squeue_complete).
 */
struct task *squeue_detach_behind_owner_locked(struct stream *s)
{
    struct qnode *head, *running;

    atomic_store_explicit(&s->discard, true, memory_order_seq_cst);
    (void)atomic_load_explicit(&s->done, memory_order_seq_cst);
    head = atomic_load_explicit(&s->head, memory_order_acquire);
    running = atomic_load_explicit(&head->next, memory_order_relaxed); /* links change under our lock only */
    return running != NULL ? squeue_detach_after_locked(s, running) : NULL;
}

struct task *squeue_reset_locked(struct stream *s)
{
    struct qnode *old = squeue_head(s);
    assert(atomic_load_explicit(&old->next, memory_order_relaxed) == NULL && s->tail == old);
    atomic_store_explicit(&s->stub.next, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->head, &s->stub, memory_order_relaxed);
    s->tail = &s->stub;
    return old != &s->stub ? task_of(old) : NULL;
}

struct task *squeue_take_kept_locked(struct stream *s)
{
    /* Relaxed: no owner walks a persistent stream, and launchers link
     * under the lock we hold. */
    struct qnode *head = atomic_load_explicit(&s->head, memory_order_relaxed);
    struct qnode *first = atomic_load_explicit(&head->next, memory_order_relaxed);
    atomic_store_explicit(&head->next, NULL, memory_order_relaxed);
    s->tail = head;
    return first != NULL ? task_of(first) : NULL;
}
