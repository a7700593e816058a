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
    atomic_store_explicit(&s->stub.next, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->head, &s->stub, memory_order_relaxed); /* under lock, before the stream is published */
    s->tail = &s->stub;
    atomic_store_explicit(&s->discard, false, memory_order_relaxed);
    atomic_store_explicit(&s->done, 0, memory_order_relaxed);
}

void squeue_wake_waiters(struct stream *s, uint64_t seq)
{
    if (seq >= atomic_load_explicit(&s->wake_at, memory_order_seq_cst)) {
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

struct task *squeue_detach_after_locked(struct stream *s, struct qnode *after)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* Relaxed: launchers write links under the lock we hold. */
    struct qnode *first = atomic_load_explicit(&after->next, memory_order_relaxed);
    if (first == NULL)
        return NULL;
    atomic_store_explicit(&after->next, NULL, memory_order_relaxed);
    s->tail = after;
    return task_of(first);
}

/* Ordering 3 (squeue.h): this is the discarder's half. */
struct task *squeue_detach_behind_owner_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct qnode *head, *running;

    atomic_store_explicit(&s->discard, true, memory_order_seq_cst);
    (void)atomic_load_explicit(&s->done, memory_order_seq_cst);
    head = atomic_load_explicit(&s->head, memory_order_acquire);
    running = atomic_load_explicit(&head->next, memory_order_relaxed); /* links change under our lock only */
    return running != NULL ? squeue_detach_after_locked(s, running) : NULL;
}

struct task *squeue_reset_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct qnode *old = squeue_head(s);
    assert(atomic_load_explicit(&old->next, memory_order_relaxed) == NULL && s->tail == old);
    atomic_store_explicit(&s->stub.next, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->head, &s->stub, memory_order_relaxed);
    s->tail = &s->stub;
    return old != &s->stub ? task_of(old) : NULL;
}

struct task *squeue_take_kept_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    /* Relaxed: no owner walks a persistent stream, and launchers link
     * under the lock we hold. */
    struct qnode *head = atomic_load_explicit(&s->head, memory_order_relaxed);
    struct qnode *first = atomic_load_explicit(&head->next, memory_order_relaxed);
    atomic_store_explicit(&head->next, NULL, memory_order_relaxed);
    s->tail = head;
    return first != NULL ? task_of(first) : NULL;
}
