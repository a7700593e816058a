/*
 * report.c - delivery of callbacks and host functions to subscribed
 * threads.
 *
 * DESIGN: aclrtSubscribeReport(tid, stream) names the thread that runs the
 * stream's callbacks (aclrtLaunchCallback), aclrtSubscribeHostFunc the one
 * that runs its host functions (aclrtLaunchHostFunc): two kinds of
 * subscription, each with its own queues. When such a task reaches the
 * head of its stream, the executor posts it to that thread's queue of its
 * kind; the thread runs it inside aclrtProcessReport or
 * aclrtProcessHostFunc. A BLOCK callback, and every host function, keeps
 * the stream owned until it has run (later tasks wait); a NO_BLOCK
 * callback completes at once. One table of subscriptions, one queue per
 * subscribed thread and kind, all under report_lock; each queue has its
 * own condition variable. The thread id is not checked (the runtime does
 * not check it either): a thread that never processes its queue leaves
 * BLOCK callbacks undelivered, so a force destroy or an abort takes its
 * stream's undelivered items back (report_discard_stream) rather than wait
 * for them; a callback already being run is waited for.
 *
 * Threads: host threads (subscribe, process), executors (post).
 * Locks: report_lock (rank: lockrank.h); callbacks run with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/check.h"
#include "engine_int.h"

struct report_item {
    struct report_item *next;
    aclrtCallback fn;
    void *data;
    struct stream *stream;    /* non-NULL for BLOCK: finish this head after */
};

struct report_queue {
    struct report_queue *next;
    uint64_t thread;
    enum report_kind kind;
    plat_cond cond;
    struct report_item *head, *tail;
    unsigned streams;          /* subscriptions naming this thread */
};

struct subscription {
    struct subscription *next;
    struct stream *stream;
    enum report_kind kind;
    uint32_t gen;
    struct report_queue *queue;
};

static plat_mutex report_lock;
static struct report_queue *queues;
static struct subscription *subs;
/* Subscriptions of each kind: launches skip report_lock while there are none. */
static _Atomic uint32_t sub_count[2];

/* What differs between the kinds: the calls, for messages. */
static const struct {
    const char *subscribe, *unsubscribe, *process, *what;
} kinds[2] = {
    [REPORT_CALLBACK] = {"aclrtSubscribeReport", "aclrtUnSubscribeReport", "aclrtProcessReport", "callback"},
    [REPORT_HOSTFUNC] = {"aclrtSubscribeHostFunc", "aclrtUnSubscribeHostFunc", "aclrtProcessHostFunc",
                         "host function"},
};

/* The runtime's subscription table refuses a stream subscribed twice and
 * an unsubscription of a stream it does not hold with 107011; a callback
 * subscription held by another thread is 107012 (its thread map), a host
 * function's 107011 (the compact runtime checks the stream only). */
static aclError other_thread_code(enum report_kind kind)
{
    return kind == REPORT_CALLBACK ? ACL_ERROR_RT_THREAD_SUBSCRIBE : ACL_ERROR_RT_STREAM_SUBSCRIBE;
}

__attribute__((constructor)) static void report_init(void) { plat_mutex_init(&report_lock, LOCK_REPORT); }

/* Called with report_lock held. */
static struct subscription *find_sub(struct stream *s, enum report_kind kind)
{
    uint32_t gen = load_relaxed(&s->hdr.gen);
    for (struct subscription *sub = subs; sub != NULL; sub = sub->next)
        if (sub->stream == s && sub->gen == gen && sub->kind == kind)
            return sub;
    return NULL;
}

/* Called with report_lock held. */
static struct report_queue *find_queue(uint64_t thread, enum report_kind kind)
{
    for (struct report_queue *q = queues; q != NULL; q = q->next)
        if (q->thread == thread && q->kind == kind)
            return q;
    return NULL;
}

aclError report_subscribe(uint64_t thread, struct stream *s, enum report_kind kind)
{
    struct subscription *sub;
    struct report_queue *q;

    plat_mutex_lock(&report_lock);
    if (find_sub(s, kind) != NULL) {
        plat_mutex_unlock(&report_lock);
        return acl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d already has a subscribed thread (one thread per stream)",
                        kinds[kind].subscribe, load_relaxed(&s->id));
    }
    q = find_queue(thread, kind);
    sub = acl_calloc(1, sizeof(*sub));
    if (q == NULL && sub != NULL) {
        q = acl_calloc(1, sizeof(*q));
        if (q != NULL) {
            q->thread = thread;
            q->kind = kind;
            plat_cond_init(&q->cond);
            q->next = queues;
            queues = q;
        }
    }
    if (sub == NULL || q == NULL) {
        plat_mutex_unlock(&report_lock);
        acl_free(sub);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", kinds[kind].subscribe);
    }
    sub->stream = s;
    sub->kind = kind;
    sub->gen = load_relaxed(&s->hdr.gen);
    sub->queue = q;
    sub->next = subs;
    subs = sub;
    q->streams++;
    fetch_add_relaxed(&sub_count[kind], 1);
    plat_mutex_unlock(&report_lock);
    return ACL_SUCCESS;
}

bool report_is_subscribed(struct stream *s, enum report_kind kind)
{
    bool yes;
    /* Relaxed: a subscription made by another thread at this moment is
     * not ordered with this call anyway; the caller's own is seen. */
    if (load_relaxed(&sub_count[kind]) == 0)
        return false;
    plat_mutex_lock(&report_lock);
    yes = find_sub(s, kind) != NULL;
    plat_mutex_unlock(&report_lock);
    return yes;
}

/* Runs one item; for BLOCK callbacks, lets the stream go on afterwards. */
static void run_item(struct report_item *it)
{
    CHECK_TASK_CODE(it->fn(it->data));
    if (it->stream != NULL)
        engine_finish_handed_off(it->stream, ACL_SUCCESS);
    acl_free(it);
}

aclError report_unsubscribe(uint64_t thread, struct stream *s, enum report_kind kind)
{
    struct subscription **pp, *sub = NULL;
    struct report_item *orphans = NULL;
    bool elsewhere = false;

    plat_mutex_lock(&report_lock);
    for (pp = &subs; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->stream == s && (*pp)->kind == kind && (*pp)->queue->thread == thread) {
            sub = *pp;
            *pp = sub->next;
            fetch_sub_relaxed(&sub_count[kind], 1);
            break;
        }
    }
    if (sub == NULL)
        elsewhere = find_sub(s, kind) != NULL;
    if (sub != NULL && --sub->queue->streams == 0) {
        /* Nobody will process this queue again: run what is left here
         * rather than lose callbacks (and leave their streams blocked). */
        orphans = sub->queue->head;
        sub->queue->head = sub->queue->tail = NULL;
    }
    plat_mutex_unlock(&report_lock);
    if (sub == NULL && elsewhere)
        return acl_fail(other_thread_code(kind), "%s: stream %d is subscribed to another thread than %llu",
                        kinds[kind].unsubscribe, load_relaxed(&s->id), (unsigned long long)thread);
    if (sub == NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_SUBSCRIBE, "%s: stream %d is not subscribed to thread %llu",
                        kinds[kind].unsubscribe, load_relaxed(&s->id),
                        (unsigned long long)thread);
    acl_free(sub);
    while (orphans != NULL) {
        struct report_item *next = orphans->next;
        run_item(orphans);
        orphans = next;
    }
    return ACL_SUCCESS;
}

enum run_result report_post(struct stream *s, struct task *t)
{
    struct report_item *it = acl_malloc(sizeof(*it));
    struct subscription *sub;
    bool block = t->u.host.block; /* t may be freed once the item is posted */
    enum report_kind kind = t->kind == TASK_HOST_FUNC ? REPORT_HOSTFUNC : REPORT_CALLBACK;

    /* A blocking callback hands the stream over with the callback at its
     * head: the processing thread completes it (engine_finish_handed_off). */
    plat_mutex_lock(&report_lock);
    /* Relaxed: a discarder stores `discard` before it takes report_lock
     * to take our items back, so under the lock we see it, or it sees
     * the item we post. */
    if (ACLCPU_UNLIKELY(load_relaxed(&s->discard))) {
        plat_mutex_unlock(&report_lock);
        acl_free(it);
        return RUN_DONE; /* being dropped: the callback is dropped with the rest */
    }
    sub = find_sub(s, kind);
    if (it == NULL || sub == NULL) {
        plat_mutex_unlock(&report_lock);
        acl_free(it);
        /* Unsubscribed since the launch (or no memory): run it here so the
         * callback is not lost. */
        CHECK_TASK_CODE(t->u.host.fn(t->u.host.arg));
        if (t->u.host.block) {
            engine_finish_handed_off(s, ACL_SUCCESS);
            return RUN_HANDED_OFF;
        }
        return RUN_DONE;
    }
    it->next = NULL;
    it->fn = t->u.host.fn;
    it->data = t->u.host.arg;
    it->stream = t->u.host.block ? s : NULL;
    if (sub->queue->tail != NULL)
        sub->queue->tail->next = it;
    else
        sub->queue->head = it;
    sub->queue->tail = it;
    plat_cond_signal(&sub->queue->cond);
    plat_mutex_unlock(&report_lock);
    return block ? RUN_HANDED_OFF : RUN_DONE;
}

/* Called with report_lock held: unlinks q's items that hold s, onto *out. */
static void take_items_locked(struct report_queue *q, struct stream *s, struct report_item **out)
{
    PLAT_ASSERT_HELD(&report_lock);
    struct report_item **pp = &q->head;
    q->tail = NULL;
    while (*pp != NULL) {
        struct report_item *it = *pp;
        if (it->stream == s) {
            *pp = it->next;
            it->next = *out;
            *out = it;
        } else {
            q->tail = it;
            pp = &it->next;
        }
    }
}

void report_discard_stream(struct stream *s)
{
    struct report_item *taken = NULL;
    plat_mutex_lock(&report_lock);
    for (struct report_queue *q = queues; q != NULL; q = q->next)
        take_items_locked(q, s, &taken);
    plat_mutex_unlock(&report_lock);
    /* Each held s at its head: dropped unrun, the head completes and the
     * owner's next look finds the discard. */
    while (taken != NULL) {
        struct report_item *next = taken->next;
        acl_free(taken);
        engine_finish_handed_off(s, ACL_SUCCESS);
        taken = next;
    }
}

bool report_holds_stream(struct stream *s)
{
    bool held = false;
    plat_mutex_lock(&report_lock);
    for (struct report_queue *q = queues; q != NULL && !held; q = q->next)
        for (struct report_item *it = q->head; it != NULL && !held; it = it->next)
            held = it->stream == s;
    plat_mutex_unlock(&report_lock);
    return held;
}

aclError report_process(int32_t timeout_ms, enum report_kind kind)
{
    uint64_t deadline = plat_deadline_ms(timeout_ms);
    struct report_queue *q;
    struct report_item *it;

    plat_mutex_lock(&report_lock);
    q = find_queue(plat_thread_self(), kind);
    if (q == NULL || q->streams == 0) {
        plat_mutex_unlock(&report_lock);
        return acl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                        "%s: the calling thread is not subscribed to any stream (call %s with this thread's id "
                        "first)",
                        kinds[kind].process, kinds[kind].subscribe);
    }
    while (q->head == NULL) {
        if (deadline == 0)
            plat_cond_wait(&q->cond, &report_lock);
        else if (!plat_cond_timedwait(&q->cond, &report_lock, deadline) && q->head == NULL) {
            plat_mutex_unlock(&report_lock);
            return acl_fail(ACL_ERROR_RT_REPORT_TIMEOUT, "%s: no %s arrived within %d ms", kinds[kind].process,
                            kinds[kind].what, timeout_ms);
        }
    }
    it = q->head;
    q->head = it->next;
    if (q->head == NULL)
        q->tail = NULL;
    plat_mutex_unlock(&report_lock);
    run_item(it);
    return ACL_SUCCESS;
}
