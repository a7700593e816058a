/*
 * report.c - aclrtLaunchCallback delivery to subscribed threads.
 *
 * DESIGN: aclrtSubscribeReport(tid, stream) names the thread that runs the
 * stream's callbacks. When a callback task reaches the head of its stream,
 * the executor posts it to that thread's queue; the thread runs it inside
 * aclrtProcessReport. A BLOCK callback keeps the stream owned until the
 * callback has run (later tasks wait); a NO_BLOCK one completes at once.
 * One table of subscriptions, one queue per subscribed thread, all under
 * report_lock; each queue has its own condition variable.
 *
 * Threads: host threads (subscribe, process), executors (post).
 * Lock order: report_lock is a leaf; callbacks run with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine_int.h"
#include "core.h"

struct report_item {
    struct report_item *next;
    aclrtCallback fn;
    void *data;
    struct stream *stream;    /* non-NULL for BLOCK: finish this head after */
};

struct report_queue {
    struct report_queue *next;
    uint64_t thread;
    plat_cond cond;
    struct report_item *head, *tail;
    unsigned streams;          /* subscriptions naming this thread */
};

struct subscription {
    struct subscription *next;
    struct stream *stream;
    uint32_t gen;
    struct report_queue *queue;
};

static plat_mutex report_lock;
static struct report_queue *queues;
static struct subscription *subs;

__attribute__((constructor)) static void report_init(void) { plat_mutex_init(&report_lock); }

/* Called with report_lock held. */
static struct subscription *find_sub(struct stream *s)
{
    uint32_t gen = load_relaxed(&s->hdr.gen);
    for (struct subscription *sub = subs; sub != NULL; sub = sub->next)
        if (sub->stream == s && sub->gen == gen)
            return sub;
    return NULL;
}

/* Called with report_lock held. */
static struct report_queue *find_queue(uint64_t thread)
{
    for (struct report_queue *q = queues; q != NULL; q = q->next)
        if (q->thread == thread)
            return q;
    return NULL;
}

aclError report_subscribe(uint64_t thread, struct stream *s)
{
    struct subscription *sub;
    struct report_queue *q;

    plat_mutex_lock(&report_lock);
    if (find_sub(s) != NULL) {
        plat_mutex_unlock(&report_lock);
        return acl_fail(ACL_ERROR_REPEAT_SUBSCRIBE,
                        "aclrtSubscribeReport: stream %d already has a subscribed thread (one thread per stream)",
                        load_relaxed(&s->id));
    }
    q = find_queue(thread);
    sub = calloc(1, sizeof(*sub));
    if (q == NULL && sub != NULL) {
        q = calloc(1, sizeof(*q));
        if (q != NULL) {
            q->thread = thread;
            plat_cond_init(&q->cond);
            q->next = queues;
            queues = q;
        }
    }
    if (sub == NULL || q == NULL) {
        plat_mutex_unlock(&report_lock);
        free(sub);
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtSubscribeReport: out of memory");
    }
    sub->stream = s;
    sub->gen = load_relaxed(&s->hdr.gen);
    sub->queue = q;
    sub->next = subs;
    subs = sub;
    q->streams++;
    plat_mutex_unlock(&report_lock);
    return ACL_SUCCESS;
}

bool report_is_subscribed(struct stream *s)
{
    bool yes;
    plat_mutex_lock(&report_lock);
    yes = find_sub(s) != NULL;
    plat_mutex_unlock(&report_lock);
    return yes;
}

/* Runs one item; for BLOCK callbacks, lets the stream go on afterwards. */
static void run_item(struct report_item *it)
{
    it->fn(it->data);
    if (it->stream != NULL)
        engine_finish_handed_off(it->stream, ACL_SUCCESS);
    free(it);
}

aclError report_unsubscribe(uint64_t thread, struct stream *s)
{
    struct subscription **pp, *sub = NULL;
    struct report_item *orphans = NULL;

    plat_mutex_lock(&report_lock);
    for (pp = &subs; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->stream == s && (*pp)->queue->thread == thread) {
            sub = *pp;
            *pp = sub->next;
            break;
        }
    }
    if (sub != NULL && --sub->queue->streams == 0) {
        /* Nobody will process this queue again: run what is left here
         * rather than lose callbacks (and leave their streams blocked). */
        orphans = sub->queue->head;
        sub->queue->head = sub->queue->tail = NULL;
    }
    plat_mutex_unlock(&report_lock);
    if (sub == NULL)
        return acl_fail(ACL_ERROR_STREAM_NOT_SUBSCRIBE,
                        "aclrtUnSubscribeReport: stream %d is not subscribed to thread %llu", load_relaxed(&s->id),
                        (unsigned long long)thread);
    free(sub);
    while (orphans != NULL) {
        struct report_item *next = orphans->next;
        run_item(orphans);
        orphans = next;
    }
    return ACL_SUCCESS;
}

enum run_result report_post(struct stream *s, struct task *t)
{
    struct report_item *it = malloc(sizeof(*it));
    struct subscription *sub;
    bool block = t->u.host.block; /* t may be freed once the item is posted */

    /* A blocking callback hands the stream over with the callback at its
     * head: the processing thread completes it (engine_finish_handed_off). */
    plat_mutex_lock(&report_lock);
    sub = find_sub(s);
    if (it == NULL || sub == NULL) {
        plat_mutex_unlock(&report_lock);
        free(it);
        /* Unsubscribed since the launch (or no memory): run it here so the
         * callback is not lost. */
        t->u.host.fn(t->u.host.arg);
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

aclError report_process(int32_t timeout_ms)
{
    uint64_t deadline = plat_deadline_ms(timeout_ms);
    struct report_queue *q;
    struct report_item *it;

    plat_mutex_lock(&report_lock);
    q = find_queue(plat_thread_self());
    if (q == NULL || q->streams == 0) {
        plat_mutex_unlock(&report_lock);
        return acl_fail(ACL_ERROR_RT_THREAD_SUBSCRIBE,
                        "aclrtProcessReport: the calling thread is not subscribed to any stream (call "
                        "aclrtSubscribeReport with this thread's id first)");
    }
    while (q->head == NULL) {
        if (deadline == 0)
            plat_cond_wait(&q->cond, &report_lock);
        else if (!plat_cond_timedwait(&q->cond, &report_lock, deadline) && q->head == NULL) {
            plat_mutex_unlock(&report_lock);
            return acl_fail(ACL_ERROR_RT_REPORT_TIMEOUT, "aclrtProcessReport: no callback arrived within %d ms",
                            timeout_ms);
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
