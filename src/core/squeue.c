/*
 * squeue.c - the stream queue's slow paths: waking waiters, detaching and
 * resetting the queue under the lock. The protocol, its invariants and its
 * orderings are described once, in squeue.h, beside the fast paths.
 *
 * Threads: launchers (any host thread), the owner, discarders. Locks:
 * stream->lock only.
 */
#include <assert.h>

#include "squeue.h"

void squeue_init(struct stream *s)
{
    store_relaxed(&s->stub.next, NULL);
    store_relaxed(&s->head, &s->stub); /* under lock, before the stream is published */
    s->tail = &s->stub;
    store_relaxed(&s->discard, false);
    store_relaxed(&s->done, 0);
}

void squeue_wake_waiters(struct stream *s, uint64_t seq)
{
    /* seq_cst: the completer's load of the waiters' target, in the pairing
     * at stream->done (squeue.h). */
    if (seq >= load_seq_cst(&s->wake_at)) {
        /* Reset before the bump: a waiter reads wake_word before it
         * registers its target, so one that registered after this reset
         * keeps its target, and one that registered before it sees the
         * bump and re-registers (wait_done, engine/wait.c). seq_cst keeps
         * one order. */
        store_seq_cst(&s->wake_at, UINT64_MAX);
        fetch_add_seq_cst(&s->wake_word, 1);
        plat_futex_wake_all(&s->wake_word);
    }
}

struct task *squeue_detach_after_locked(struct stream *s, struct qnode *after)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* Relaxed: launchers write links under the lock we hold. */
    struct qnode *first = load_relaxed(&after->next);
    if (first == NULL)
        return NULL;
    store_relaxed(&after->next, NULL);
    s->tail = after;
    return task_of(first);
}

/* Ordering 3 (squeue.h): this is the discarder's half. */
struct task *squeue_detach_behind_owner_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct qnode *head, *running;

    /* seq_cst, then acquire on head: our half of ordering 3 above. */
    store_seq_cst(&s->discard, true);
    (void)load_seq_cst(&s->done);
    head = load_acquire(&s->head);
    running = load_relaxed(&head->next); /* links change under our lock only */
    return running != NULL ? squeue_detach_after_locked(s, running) : NULL;
}

struct task *squeue_reset_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct qnode *old = squeue_head(s);
    assert(load_relaxed(&old->next) == NULL && s->tail == old);
    store_relaxed(&s->stub.next, NULL);
    store_relaxed(&s->head, &s->stub);
    s->tail = &s->stub;
    return old != &s->stub ? task_of(old) : NULL;
}

struct task *squeue_take_kept_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* Relaxed: no owner walks a persistent stream, and launchers link
     * under the lock we hold. */
    struct qnode *head = load_relaxed(&s->head);
    struct qnode *first = load_relaxed(&head->next);
    store_relaxed(&head->next, NULL);
    s->tail = head;
    return first != NULL ? task_of(first) : NULL;
}
