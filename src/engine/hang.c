/*
 * hang.c - saying why work does not finish: who waits on whom.
 *
 * DESIGN: when a sync times out, a wait task outlives its timeout, or an
 * untimed sync makes no progress for a while, the caller asks for the chain
 * that holds the work up. The walk starts at a stream; a stream parked on
 * an event leads to the stream its awaited record was issued on (the
 * record's stream is kept, as a handle, in the event and in each wait task),
 * and so on, up to MAX_HOPS. The chain ends at a stream that runs, is ready,
 * is stopped, is PERSISTENT, has been destroyed, or at a stream seen before
 * (a cycle, which only notifies can make: an event wait always follows a
 * record issued before it). The walk is a diagnosis, not a decision: it
 * takes each stream's lock on its own for a moment, so the picture may be
 * a little stale; callers only report it, or treat "stuck" as a reason to
 * give up after a timeout the user asked for.
 *
 * Threads: any host thread (syncs), the watchdog. Locks: one stream->lock
 * at a time, and under it that stream's parked event's lock (stream->lock >
 * event->lock, as everywhere).
 */
#include <stdarg.h>
#include <stdio.h>

#include "../core/model.h"
#include "engine_int.h"

#define MAX_HOPS 8

struct chain_text {
    char *buf;
    size_t cap, len;
};

ACLCPU_PRINTF(2, 3) static void put(struct chain_text *c, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (c->len + 1 >= c->cap)
        return;
    va_start(ap, fmt);
    n = vsnprintf(c->buf + c->len, c->cap - c->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->len = c->len + (size_t)n < c->cap ? c->len + (size_t)n : c->cap - 1;
}

static const char *wait_noun(const struct event *ev) { return ev->notify ? "notify" : "event"; }

/* What one hop found: the stream it leads to next (or NULL to end) and
 * whether the chain ends in something that cannot move on by itself. */
struct hop {
    const void *next;       /* stream handle of the awaited record, or NULL */
    bool stuck;
};

/* Called with s->lock held, s PARKED: names the wait and where its record is. */
static struct hop describe_parked_locked(struct stream *s, struct chain_text *c, const char *which)
{
    struct hop h = {NULL, false};
    struct event *ev = s->park_event;
    struct task *t = stream_next_task(s); /* PARKED: no owner moves head */
    uint64_t done;

    if (ev == NULL || t == NULL)
        return h;
    if (t->kind == TASK_MODEL_RUN) {
        put(c, "stream %d%s waits for model %u's run #%llu to %s", load_relaxed(&s->id), which, t->u.model.m->hdr.index,
            (unsigned long long)(t->u.model.phase == 0 ? t->u.model.run - 1 : t->u.model.run),
            t->u.model.phase == 0 ? "end before its own can start" : "end");
        return h;
    }
    if (t->kind == TASK_LANE_RUN) {
        put(c, "stream %d%s (a lane of a model run) waits on event %d", load_relaxed(&s->id), which,
            load_relaxed(&ev->id));
        return h;
    }
    plat_spin_lock(&ev->lock);
    done = ev->done_gen;
    h.next = ev->notify ? ev->last_recorder : t->u.event.recorder;
    if (ev->notify)
        put(c, "stream %d%s waits on notify %d", load_relaxed(&s->id), which, load_relaxed(&ev->id));
    else
        put(c, "stream %d%s waits on event %d (record #%llu; #%llu is the newest done)", load_relaxed(&s->id), which,
            load_relaxed(&ev->id), (unsigned long long)t->u.event.gen, (unsigned long long)done);
    if (ev->notify && ev->record_gen == ev->done_gen)
        h.next = NULL; /* no record of it is pending anywhere */
    plat_spin_unlock(&ev->lock);
    if (h.next == NULL)
        put(c, ", which no queued task records (only a later aclrt%s call can release it)",
            ev->notify ? "RecordNotify" : "RecordEvent");
    else
        put(c, ", recorded on ");
    return h;
}

/* Describes s itself: one hop of the chain, as the subject of a sentence
 * ("stream 3 waits on ...") or as an object ("stream 3, which waits ..."). */
static struct hop describe_stream(struct stream *s, struct chain_text *c, bool subject)
{
    struct hop h = {NULL, false};
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->stopped)) {
        put(c, "stream %d, which was stopped by aclrtStreamStop (%llu of its tasks will not run)", load_relaxed(&s->id),
            (unsigned long long)(s->issued - load_relaxed(&s->done)));
        h.stuck = true;
    } else if ((load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) && stream_next_task(s) != NULL) {
        put(c, "stream %d, which is PERSISTENT: its tasks run only when its model runs", load_relaxed(&s->id));
        h.stuck = true;
    } else {
        switch (load_relaxed(&s->state)) {
        case STREAM_PARKED:
            h = describe_parked_locked(s, c, subject ? "" : ", which");
            break;
        case STREAM_RUNNING:
            put(c, "stream %d, which is running a task", load_relaxed(&s->id));
            break;
        case STREAM_READY:
            put(c, "stream %d, which is ready and waits for a free worker", load_relaxed(&s->id));
            break;
        default:
            put(c, "stream %d, which has nothing left to run", load_relaxed(&s->id));
            break;
        }
    }
    plat_spin_unlock(&s->lock);
    return h;
}

bool engine_explain(struct stream *s, bool subject, char *buf, size_t cap)
{
    struct chain_text c = {buf, cap, 0};
    struct stream *seen[MAX_HOPS];
    unsigned hops = 0;

    buf[0] = '\0';
    for (;;) {
        struct hop h;
        for (unsigned i = 0; i < hops; i++) {
            if (seen[i] == s) {
                put(&c, "stream %d again: a cycle of waits, which nothing inside it can break", load_relaxed(&s->id));
                return true;
            }
        }
        if (hops == MAX_HOPS) {
            put(&c, "...");
            return false;
        }
        seen[hops++] = s;
        h = describe_stream(s, &c, hops == 1 && subject);
        if (h.stuck || h.next == NULL)
            return h.stuck;
        s = (struct stream *)obj_resolve(h.next, OBJ_STREAM);
        if (s == NULL) {
            put(&c, "a stream destroyed since");
            return false;
        }
    }
}

bool engine_explain_event(struct event *ev, char *buf, size_t cap)
{
    const void *rec;
    uint64_t gen, done;
    struct stream *s;
    int n;

    plat_spin_lock(&ev->lock);
    rec = ev->last_recorder;
    gen = ev->record_gen;
    done = ev->done_gen;
    plat_spin_unlock(&ev->lock);
    n = snprintf(buf, cap, "%s %d's record #%llu (#%llu is the newest done) was issued on ", wait_noun(ev),
                 load_relaxed(&ev->id), (unsigned long long)gen, (unsigned long long)done);
    if (n < 0 || (size_t)n >= cap)
        return false;
    s = rec != NULL ? (struct stream *)obj_resolve(rec, OBJ_STREAM) : NULL;
    if (s == NULL) {
        snprintf(buf + n, cap - (size_t)n, "a stream destroyed since");
        return false;
    }
    return engine_explain(s, false, buf + n, cap - (size_t)n);
}
