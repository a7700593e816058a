/*
 * squeue.h - the stream queue: launchers append task records under the
 * stream's lock, and the stream's one owner takes them off the other end
 * without it. The protocol, its invariants and every ordering it relies on
 * are described once, at the top of squeue.c; the fast paths (appending,
 * peeking) are inline here.
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
    atomic_store_explicit(&s->tail->next, &t->q, memory_order_release);
    s->tail = &t->q;
}

/* The owner's dummy node; relaxed: the owner's own write, or one made
 * under the lock the caller holds. */
static inline struct qnode *squeue_head(struct stream *s)
{
    return atomic_load_explicit(&s->head, memory_order_relaxed);
}

/* Called by the stream's owner (or under s->lock by a thread holding a
 * stream that has none): the task to run next, or NULL when the queue is
 * empty. Acquire: pairs with squeue_link_locked's release of the link, so
 * the task's fields are seen as the launcher wrote them. */
static inline struct task *squeue_next(struct stream *s)
{
    struct qnode *n = atomic_load_explicit(&squeue_head(s)->next, memory_order_acquire);
    return n != NULL ? task_of(n) : NULL;
}

/* Called by the owner before it takes the next task: true when a force
 * destroy or abort wants the queue dropped (the owner then takes the lock
 * and drops it). seq_cst: pairs with squeue_detach_behind_owner_locked. */
static inline bool squeue_discarding(struct stream *s)
{
    return atomic_load_explicit(&s->discard, memory_order_seq_cst);
}

/* An empty queue, nothing done: for a stream being set up, under its lock
 * and before it is published. */
void squeue_init(struct stream *s);

/* Publishes that s has done seq tasks and wakes the waiters whose target
 * that reaches (the done / sync_waiters pairing). */
void squeue_note_done(struct stream *s, uint64_t seq);

/* Called by the owner: t, the task squeue_next returned, is done. Its
 * record becomes the dummy, what it holds is released (task_release), the
 * progress is published and the previous dummy freed. */
void squeue_complete(struct stream *s, struct task *t);

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
