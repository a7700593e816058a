/*
 * sync.c - task completion, discarding, and host threads that wait.
 *
 * DESIGN: a stream's `done` counter says how far it has got; a host thread
 * waiting for position n spins briefly on it, then registers as a sleeper
 * under the stream lock and futex-waits on wake_word. The completer bumps
 * wake_word under the same lock only when sleepers exist, so the common
 * path (nobody waiting) costs no syscall. An untimed synchronize first
 * tries to run the stream's ready work itself (caller-runs), which avoids
 * a worker wake-up on an idle stream. A timed one never does: a long
 * kernel on the caller's thread could not honour the deadline.
 *
 * Threads: any. Lock order: stream->lock > event->lock > engine->lock.
 */
#include <stdlib.h>

#include "engine_int.h"

/* Synchronize spins this long before sleeping; FAST_SYNC streams longer. */
#define SYNC_SPIN_NS 20000u
#define FAST_SYNC_SPIN_NS 500000u

/* Called with s->lock held. */
static void free_task_locked(struct stream *s, struct task *t)
{
    if (s->free_count < 256) {
        t->next = s->free_tasks;
        s->free_tasks = t;
        s->free_count++;
    } else {
        free(t);
    }
}

/* Called with s->lock held: wakes sleepers after the caller unlocks. */
static bool note_progress_locked(struct stream *s, uint64_t done)
{
    /* Release: a waiter's acquire load of done sees the task's effects. */
    atomic_store_explicit(&s->done, done, memory_order_release);
    if (s->sync_waiters == 0)
        return false;
    atomic_fetch_add_explicit(&s->wake_word, 1, memory_order_relaxed);
    return true;
}

struct task *engine_detach_from_locked(struct stream *s, struct task *first)
{
    struct task *prev = NULL;
    if (first == NULL)
        return NULL;
    for (struct task *t = s->head; t != first; t = t->next)
        prev = t;
    if (prev != NULL)
        prev->next = NULL;
    else
        s->head = NULL;
    s->tail = prev;
    return first;
}

/* Completes discarded records so that nothing waits forever on them, then
 * frees the chain; runs without locks (records may release other streams). */
void engine_discard_chain(struct stream *s, struct task *chain)
{
    bool wake;
    if (chain == NULL)
        return;
    for (struct task *t = chain; t != NULL; t = t->next) {
        if (t->kind == TASK_EVENT_RECORD)
            event_record_done(t, plat_now_ns());
        task_release(t);
    }
    plat_mutex_lock(&s->lock);
    while (chain != NULL) {
        struct task *next = chain->next;
        free_task_locked(s, chain);
        chain = next;
    }
    wake = s->head == NULL ? note_progress_locked(s, s->issued) : false;
    plat_mutex_unlock(&s->lock);
    if (wake)
        plat_futex_wake_all(&s->wake_word);
}

bool engine_complete_head(struct stream *s, aclError err)
{
    struct task *t = s->head, *chain = NULL;
    bool more, wake;

    task_release(t);
    plat_mutex_lock(&s->lock);
    if (err != ACL_SUCCESS && s->error == ACL_SUCCESS)
        s->error = err;
    s->head = t->next;
    if (s->head == NULL)
        s->tail = NULL;
    if (err != ACL_SUCCESS &&
        atomic_load_explicit(&s->ctx->failure_mode, memory_order_relaxed) == ACL_STOP_ON_FAILURE) {
        /* STOP mode: nothing after a failed task runs, and the stream takes
         * no new work (stream_begin_task checks stop_error). */
        if (s->stop_error == ACL_SUCCESS)
            s->stop_error = err;
        chain = engine_detach_from_locked(s, s->head);
    } else if (s->discard) {
        chain = engine_detach_from_locked(s, s->head);
    }
    /* With an empty queue everything issued is done (or discarded). */
    wake = note_progress_locked(s, s->head == NULL ? s->issued : t->seq);
    free_task_locked(s, t);
    more = s->head != NULL;
    if (!more)
        atomic_store_explicit(&s->state, STREAM_IDLE, memory_order_relaxed);
    plat_mutex_unlock(&s->lock);
    if (wake)
        plat_futex_wake_all(&s->wake_word);
    engine_discard_chain(s, chain);
    return more;
}

bool engine_stream_idle(struct stream *s)
{
    uint64_t issued;
    plat_mutex_lock(&s->lock);
    issued = s->issued;
    plat_mutex_unlock(&s->lock);
    return atomic_load_explicit(&s->done, memory_order_acquire) >= issued;
}

/* Caller-runs: if s is waiting in the ready set, run it here up to target. */
static void help_run(struct stream *s, uint64_t target)
{
    bool took;
    plat_mutex_lock(&s->lock);
    took = engine_unready_locked(s);
    plat_mutex_unlock(&s->lock);
    if (took) {
        struct executor x = {s->dev->engine, NULL, target};
        engine_run_stream(&x, s);
    }
}

static bool reached(struct stream *s, uint64_t target)
{
    return atomic_load_explicit(&s->done, memory_order_acquire) >= target;
}

static bool wait_done(struct stream *s, uint64_t target, uint64_t deadline, bool may_run)
{
    uint64_t spin_until = plat_now_ns() + ((s->flags & ACL_STREAM_FAST_SYNC) ? FAST_SYNC_SPIN_NS : SYNC_SPIN_NS);

    for (unsigned i = 1; !reached(s, target); i++) {
        if (may_run && atomic_load_explicit(&s->state, memory_order_relaxed) == STREAM_READY)
            help_run(s, target);
        plat_cpu_relax();
        if ((i & 63) == 0 && plat_now_ns() >= spin_until)
            break;
    }
    while (!reached(s, target)) {
        uint32_t word;
        bool in_time;
        if (may_run && atomic_load_explicit(&s->state, memory_order_relaxed) == STREAM_READY) {
            help_run(s, target);
            continue;
        }
        plat_mutex_lock(&s->lock);
        s->sync_waiters++;
        word = atomic_load_explicit(&s->wake_word, memory_order_relaxed);
        plat_mutex_unlock(&s->lock);
        in_time = reached(s, target) || plat_futex_wait(&s->wake_word, word, deadline);
        plat_mutex_lock(&s->lock);
        s->sync_waiters--;
        plat_mutex_unlock(&s->lock);
        if (!in_time && !reached(s, target))
            return false;
    }
    return true;
}

aclError engine_sync_stream(struct stream *s, uint64_t deadline_ns, aclError timeout_code)
{
    uint64_t target;
    aclError err;

    plat_mutex_lock(&s->lock);
    target = s->issued;
    plat_mutex_unlock(&s->lock);
    if (deadline_ns == 0)
        help_run(s, target);
    if (!wait_done(s, target, deadline_ns, deadline_ns == 0))
        return timeout_code;
    plat_mutex_lock(&s->lock);
    err = s->error;
    s->error = ACL_SUCCESS;
    plat_mutex_unlock(&s->lock);
    return err;
}

/* Called with s->lock held, s PARKED: takes s off its event's waiter list. */
static void unpark_for_discard_locked(struct stream *s)
{
    struct event *ev = s->park_event;
    plat_mutex_lock(&ev->lock);
    for (struct stream **pp = &ev->waiters; *pp != NULL; pp = &(*pp)->park_next) {
        if (*pp == s) {
            *pp = s->park_next;
            break;
        }
    }
    plat_mutex_unlock(&ev->lock);
    s->park_event = NULL;
}

void engine_discard_stream(struct stream *s)
{
    struct task *chain = NULL;
    uint64_t issued;
    int state;

    plat_mutex_lock(&s->lock);
    issued = s->issued;
    state = atomic_load_explicit(&s->state, memory_order_relaxed);
    if (state == STREAM_READY && engine_unready_locked(s))
        state = STREAM_PARKED + 1; /* now owned by us */
    if (state == STREAM_PARKED)
        unpark_for_discard_locked(s);
    if (state == STREAM_PARKED || state == STREAM_PARKED + 1) {
        chain = engine_detach_from_locked(s, s->head);
        atomic_store_explicit(&s->state, STREAM_IDLE, memory_order_relaxed);
    } else if (s->head != NULL) {
        /* RUNNING (or it just became so): the owner finishes its head task
         * and then drops the rest, seeing `discard`. */
        s->discard = true;
        chain = engine_detach_from_locked(s, s->head->next);
    }
    plat_mutex_unlock(&s->lock);
    engine_discard_chain(s, chain);
    wait_done(s, issued, 0, false);
    plat_mutex_lock(&s->lock);
    s->discard = false;
    plat_mutex_unlock(&s->lock);
}

/* ---- events --------------------------------------------------------------- */

aclError engine_sync_event(struct event *ev, uint64_t deadline_ns)
{
    uint64_t target;
    plat_mutex_lock(&ev->lock);
    target = ev->record_gen;
    while (ev->done_gen < target) {
        uint32_t word = atomic_load_explicit(&ev->wake_word, memory_order_relaxed);
        bool in_time;
        ev->host_waiters++;
        plat_mutex_unlock(&ev->lock);
        in_time = plat_futex_wait(&ev->wake_word, word, deadline_ns);
        plat_mutex_lock(&ev->lock);
        ev->host_waiters--;
        if (!in_time && ev->done_gen < target) {
            plat_mutex_unlock(&ev->lock);
            return ACL_ERROR_RT_EVENT_SYNC_TIMEOUT;
        }
    }
    plat_mutex_unlock(&ev->lock);
    return ACL_SUCCESS;
}
