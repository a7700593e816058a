/*
 * hang.c - timeouts and hangs: saying why work does not finish (who waits
 * on whom), the hang watch of untimed syncs, and the watchdog that ends
 * waits with a deadline.
 *
 * DESIGN: when a sync times out, a wait task outlives its timeout, or an
 * untimed sync makes no progress for a while, the caller asks for the chain
 * that holds the work up. The walk starts at a stream; a stream parked on
 * an event leads to the stream its awaited record was issued on (the
 * record's stream is kept, as a handle, in the event and in each wait task),
 * and so on, up to MAX_HOPS. The chain ends at a stream that runs, is ready,
 * is stopped, is PERSISTENT, has been destroyed (stuck once its work is done
 * or dropped: nothing of it can record any more), or at a stream seen before
 * (a cycle, which only notifies can make: an event wait always follows a
 * record issued before it). A stream parked behind a model run branches
 * into the run's lanes (their runners): the run is stuck when every lane
 * being played is; a lane parked on an edge of the run leads to the lane
 * that records the edge, and one parked on the user's event to the stream
 * of its newest queued record, one parked on a conditional task to the
 * lanes of the sub model's run. The walk is a diagnosis, not a decision: it
 * takes each stream's lock on its own for a moment, so the picture may be
 * a little stale; callers only report it, or treat "stuck" as a reason to
 * give up after a timeout the user asked for.
 *
 * The hang watch: an untimed sync that sleeps looks at its stream (or
 * event) every HANG_CHECK_NS. When the stream made no progress and the
 * chain holding it up cannot move on by itself, it logs a warning once,
 * and gives up with a timeout after ACLCPU_HANG_TIMEOUT_MS if that is set:
 * a hang is never silent.
 *
 * The watchdog: a wait task with a timeout (aclrtStreamWaitEventWithTimeout
 * and the like) that parks registers its deadline (engine_watch_wait, from
 * event.c); one thread per engine, started with the engine (a wait is
 * watched under stream and event spinlocks, where no thread may be made),
 * makes the stream ready again when the deadline passes, and the wait then
 * fails with 107019 (kinds.c).
 *
 * Threads: any host thread (syncs), the watchdog, executors (parking).
 * Locks: capture_lock alone, to read a model's lanes; one stream->lock at
 * a time, and under it that stream's parked event's lock; e->wd_lock (a spinlock), taken under both by a wait that
 * parks (the watchdog drops it before it takes a stream's lock). Ranks:
 * lockrank.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "../core/model.h"
#include "engine_int.h"

#define MAX_HOPS 8          /* streams on one path of a walk */
#define MAX_LANES_WALKED 16 /* lanes of one model run followed */
#define MAX_DESCRIBED 24    /* streams described in all */

struct chain_text {
    char *buf;
    size_t cap, len;
    bool teardown;   /* a teardown asks: a wait only another process can end counts as stuck */
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

static const char *wait_noun(const struct event *ev)
{
    return ev->counting ? "counting notify" : ev->notify ? "notify" : "event";
}

/* The call whose record would release a wait on ev. */
static const char *record_call(const struct event *ev)
{
    return ev->counting ? "CntNotifyRecord" : ev->notify ? "RecordNotify" : "RecordEvent";
}

/* What one hop found: the stream it leads to next (or NULL to end) and
 * whether the chain ends in something that cannot move on by itself. */
struct hop {
    const void *next;       /* stream handle of the awaited record, or NULL */
    bool stuck;
    /* A model holds the stream up (the stream's head task is a run of it,
     * or a lane's part of one), and the edge event a lane waits on (NULL:
     * the stream waits for a whole run, so for all its lanes). */
    struct model *model;
    const struct event *edge;
};

/* Called with s->lock held, s PARKED: names the wait and where its record is. */
static struct hop describe_parked_locked(struct stream *s, struct chain_text *c, const char *which)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct hop h = {NULL, false, NULL, NULL};
    struct event *ev = load_relaxed(&s->park_event);
    struct task *t = squeue_next(s); /* PARKED: no owner moves head */
    uint64_t done;

    /* A value wait (memtask.c): only a write releases it. */
    if (ev == NULL && load_relaxed(&s->park_value) != NULL) {
        char what[256];
        engine_value_explain_locked(s, which, what, sizeof(what));
        put(c, "%s", what);
        /* A write may come from anywhere (the host, a kernel, another
         * process), so a sync waits; a teardown cannot wait for one. */
        h.stuck = c->teardown;
        return h;
    }
    if (ev == NULL || t == NULL)
        return h;
    if (t->kind == TASK_MODEL_RUN) {
        put(c, "stream %d%s waits for model %u's run #%llu to %s", load_relaxed(&s->id), which, t->u.model.m->hdr.index,
            (unsigned long long)(t->u.model.phase == 0 ? t->u.model.run - 1 : t->u.model.run),
            t->u.model.phase == 0 ? "end before its own can start" : "end");
        h.model = t->u.model.m;
        return h;
    }
    if (t->kind == TASK_LANE_RUN) {
        const struct task *w = t->u.lane.cur; /* the recorded wait the lane is parked on */
        struct lane *l = t->u.lane.lane;
        if (l != NULL)
            put(c, "stream %d (lane %u of model %u)%s", load_relaxed(&s->id), l->index, l->m->hdr.index, which);
        else
            put(c, "stream %d (a lane of a model run)%s", load_relaxed(&s->id), which);
        if (w != NULL && w->kind == TASK_COND && l != NULL && w->u.cond.sub != NULL) {
            /* A conditional task waits for its sub model's run: it moves on when that run's lanes do. */
            put(c, " waits for run #%llu of sub model %u (its conditional task)",
                (unsigned long long)w->u.cond.sub_run, w->u.cond.sub->hdr.index);
            h.model = w->u.cond.sub;
            return h;
        }
        if (w != NULL && w->u.event.in_model == MEV_EDGE && l != NULL) {
            put(c, " waits for the lane that records its event %d in run #%llu", load_relaxed(&ev->id),
                (unsigned long long)t->u.lane.run);
            h.model = l->m;
            h.edge = ev;
            return h;
        }
        put(c, " waits on %s %d", wait_noun(ev), load_relaxed(&ev->id));
        /* The user's event: released by its newest record, if one is queued. */
        plat_spin_lock(&ev->lock);
        h.next = ev->pending_head != NULL || (ev->notify && ev->record_gen != ev->done_gen) ? ev->last_recorder
                                                                                             : NULL;
        plat_spin_unlock(&ev->lock);
        h.stuck = h.next == NULL;
        put(c, h.next == NULL ? ", which no queued task records" : ", recorded on ");
        return h;
    }
    plat_spin_lock(&ev->lock);
    done = ev->done_gen;
    h.next = ev->notify ? ev->last_recorder : t->u.event.recorder;
    if (ev->ipc != NULL) { /* its records may come from another process: not stuck */
        put(c, "stream %d%s waits on IPC %s %d, shared with another process", load_relaxed(&s->id), which,
            wait_noun(ev), load_relaxed(&ev->id));
        plat_spin_unlock(&ev->lock);
        put(c, ", which only a record in a process sharing it (or a later aclrt%s call) can release",
            record_call(ev));
        h.stuck = c->teardown; /* this process is going: it cannot wait for another one */
        return h;
    }
    if (ev->counting) {
        put(c, "stream %d%s waits on counting notify %d (its count is %u)", load_relaxed(&s->id), which,
            load_relaxed(&ev->id), ev->count);
    } else if (ev->notify) {
        put(c, "stream %d%s waits on notify %d", load_relaxed(&s->id), which, load_relaxed(&ev->id));
    } else if (t->u.event.gen == GEN_FLAG) {
        /* A flag event's wait waits for it to be set, by any record: only a
         * record still queued somewhere (the newest is last_recorder's) can. */
        put(c, "stream %d%s waits on event %d to be set (a flag event, %s)", load_relaxed(&s->id), which,
            load_relaxed(&ev->id), done == 0 ? "never recorded" : "reset since its last record");
        h.next = ev->pending_head != NULL ? ev->last_recorder : NULL;
    } else if (t->u.event.gen > done)
        put(c, "stream %d%s waits on event %d (record #%llu; #%llu is the newest done)", load_relaxed(&s->id), which,
            load_relaxed(&ev->id), (unsigned long long)t->u.event.gen, (unsigned long long)done);
    else /* records complete out of order across streams: a later one ran, this one not yet */
        put(c, "stream %d%s waits on event %d (record #%llu, not done yet; the later #%llu is)", load_relaxed(&s->id),
            which, load_relaxed(&ev->id), (unsigned long long)t->u.event.gen, (unsigned long long)done);
    if (ev->notify && ev->record_gen == ev->done_gen)
        h.next = NULL; /* no record of it is pending anywhere */
    plat_spin_unlock(&ev->lock);
    /* Nothing queued will release it: it cannot move on by itself, so a
     * teardown drops it after its grace (a sync only after the hang timeout). */
    h.stuck = h.next == NULL;
    if (h.next == NULL)
        put(c, ", which no queued task records (only a later aclrt%s call can release it)",
            record_call(ev));
    else
        put(c, ", recorded on ");
    return h;
}

/* Describes s itself: one hop of the chain, as the subject of a sentence
 * ("stream 3 waits on ...") or as an object ("stream 3, which waits ..."). */
static struct hop describe_stream(struct stream *s, struct chain_text *c, bool subject)
{
    struct hop h = {NULL, false, NULL, NULL};
    /* Looked up first: report_lock is not taken under a stream's lock. */
    bool undelivered = report_holds_stream(s);
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->stopped)) {
        put(c, "stream %d, which was stopped by aclrtStreamStop (%llu of its tasks will not run)", load_relaxed(&s->id),
            (unsigned long long)(s->issued - load_relaxed(&s->done)));
        h.stuck = true;
    } else if ((load_relaxed(&s->flags) & ACL_STREAM_PERSISTENT) && squeue_next(s) != NULL) {
        put(c, "stream %d, which is PERSISTENT: its tasks run only when its model runs", load_relaxed(&s->id));
        h.stuck = true;
    } else {
        switch (load_relaxed(&s->state)) {
        case STREAM_PARKED:
            h = describe_parked_locked(s, c, subject ? "" : ", which");
            break;
        case STREAM_RUNNING:
            /* Its callback or host function waits in the queue of a thread
             * that has not taken it: only that thread can move it on. */
            h.stuck = undelivered;
            put(c, undelivered ? "stream %d, whose callback or host function was never taken by its subscribed "
                                 "thread (aclrtProcessReport / aclrtProcessHostFunc)"
                               : "stream %d, which is running a task",
                load_relaxed(&s->id));
            break;
        case STREAM_READY:
            put(c, "stream %d, which is ready and waits for a free worker", load_relaxed(&s->id));
            break;
        default:
            /* Reached from a wait on a record issued on it that has not
             * run: the record is not queued here but went into a model
             * being captured or built, so nothing queued will release the
             * wait (only a run of that model, or a later record, can). */
            put(c, subject ? "stream %d, which has nothing left to run"
                           : "stream %d, which has nothing left to run: the record is queued nowhere",
                load_relaxed(&s->id));
            h.stuck = !subject;
            break;
        }
    }
    plat_spin_unlock(&s->lock);
    return h;
}

/* Whether the stream in the slot handle names is still being destroyed
 * with work left (its destroy waits for that work or drops it, either way
 * it moves on) - as opposed to gone: its work done or dropped, or its slot
 * made into a new stream. A wait whose record was on a gone stream has
 * nothing left that could release it. */
static bool destroy_still_draining(const void *handle)
{
    struct obj_header *hdr = obj_header_at(OBJ_STREAM, (uint32_t)(uintptr_t)handle);
    struct stream *s;
    uint64_t issued;
    if (hdr == NULL || load_acquire(&hdr->live))
        return false;
    s = ACLCPU_CONTAINER_OF(hdr, struct stream, hdr);
    plat_spin_lock(&s->lock);
    issued = s->issued;
    plat_spin_unlock(&s->lock);
    return load_relaxed(&s->done) < issued; /* relaxed: a progress hint */
}

/* The walk so far: the streams on the path to here (for cycles), and how
 * many streams it described in all (a model's lanes branch it). */
struct walk {
    struct chain_text c;
    struct stream *path[MAX_HOPS];
    unsigned depth, described;
};

static bool walk_from(struct walk *w, struct stream *s, bool subject);

/* Does lane l record edge (a record task of it among its recorded tasks)?
 * Called with capture_lock held: a ready model's lanes stand still. */
static bool lane_records(const struct lane *l, const struct event *edge)
{
    for (const struct task *rt = task_next(&l->head); rt != NULL; rt = task_next(rt))
        if (rt->kind == TASK_EVENT_RECORD && rt->u.event.ev == edge)
            return true;
    return false;
}

/* Whether s's head task still refers to m (a run of it, or a lane's part
 * of one). Called with capture_lock held: while it does, m cannot be freed
 * (a destroy waits for its run tasks, and frees under capture_lock), even
 * if its handle died. Only a stream with no owner is looked at: an owner
 * may be moving its head on. */
static bool head_refers_to(struct stream *s, const struct model *m)
{
    bool refers = false;
    plat_spin_lock(&s->lock);
    int state = load_relaxed(&s->state);
    const struct task *t = state == STREAM_PARKED || state == STREAM_IDLE ? squeue_next(s) : NULL;
    if (t != NULL && t->kind == TASK_MODEL_RUN)
        refers = t->u.model.m == m;
    else if (t != NULL && t->kind == TASK_LANE_RUN) /* a lane of m, or one whose conditional task runs m */
        refers = t->u.lane.lane != NULL &&
                 (t->u.lane.lane->m == m ||
                  (t->u.lane.cur != NULL && t->u.lane.cur->kind == TASK_COND && t->u.lane.cur->u.cond.sub == m));
    plat_spin_unlock(&s->lock);
    return refers;
}

/* The runners of the lanes that hold h up (h found on stream `holder`):
 * the lanes that record h.edge, or every lane of the model. Up to cap; 0
 * if the holder moved on meanwhile. */
static unsigned lanes_holding(struct stream *holder, const struct hop *h, const void **out, unsigned cap)
{
    unsigned n = 0;
    struct model *m = h->model;
    capture_enter();
    if (head_refers_to(holder, m)) {
        for (uint32_t i = 0; i < m->nlanes && n < cap; i++) {
            struct lane *l = m->lanes[i];
            if (l->runner != NULL && (h->edge == NULL || lane_records(l, h->edge)))
                out[n++] = obj_handle(&l->runner->hdr);
        }
    }
    capture_leave();
    return n;
}

/* Whether a runner has its lane's task queued (a lane being played). */
static bool runner_busy(struct stream *r)
{
    uint64_t issued;
    plat_spin_lock(&r->lock);
    issued = r->issued;
    plat_spin_unlock(&r->lock);
    return load_relaxed(&r->done) < issued; /* relaxed: a hint, as the whole walk */
}

/* A model run (or a lane's edge) holds the chain up: it moves on when its
 * lanes do. Stuck when every lane being played is stuck; a lane not being
 * played may still be started by another, so none at all is not stuck. */
static bool walk_lanes(struct walk *w, struct stream *holder, const struct hop *h)
{
    const void *runners[MAX_LANES_WALKED];
    unsigned n = lanes_holding(holder, h, runners, MAX_LANES_WALKED), walked = 0;
    bool stuck = true;
    for (unsigned i = 0; i < n && stuck; i++) {
        struct stream *r = (struct stream *)obj_resolve(runners[i], OBJ_STREAM);
        if (r == NULL || !runner_busy(r))
            continue;
        put(&w->c, walked++ == 0 ? ": " : "; and ");
        stuck = walk_from(w, r, false);
    }
    if (walked == 0)
        put(&w->c, ", whose lanes are not being played now");
    return walked > 0 && stuck;
}

/* Describes s and what holds it up, hop by hop; true when the chain
 * cannot move on by itself. */
static bool walk_from(struct walk *w, struct stream *s, bool subject)
{
    unsigned depth = w->depth;
    bool stuck;
    for (;;) {
        struct hop h;
        for (unsigned i = 0; i < w->depth; i++) {
            if (w->path[i] == s) {
                put(&w->c, "stream %d again: a cycle of waits, which nothing inside it can break", load_relaxed(&s->id));
                w->depth = depth;
                return true;
            }
        }
        if (w->depth == MAX_HOPS || w->described == MAX_DESCRIBED) {
            put(&w->c, "...");
            w->depth = depth;
            return false;
        }
        w->path[w->depth++] = s;
        w->described++;
        h = describe_stream(s, &w->c, subject);
        subject = false;
        if (h.model != NULL) {
            stuck = walk_lanes(w, s, &h);
            break;
        }
        if (h.stuck || h.next == NULL) {
            stuck = h.stuck;
            break;
        }
        s = (struct stream *)obj_resolve(h.next, OBJ_STREAM);
        for (unsigned i = 0; s == NULL && i < w->depth; i++)
            if ((uint32_t)(uintptr_t)h.next == w->path[i]->hdr.index)
                s = w->path[i]; /* its slot: the one being destroyed, in a cycle */
        if (s == NULL && destroy_still_draining(h.next)) {
            put(&w->c, "a stream being destroyed, which still ends its work");
            stuck = false;
            break;
        }
        if (s == NULL) {
            put(&w->c, "a stream destroyed since, whose work is done or dropped: nothing queued will release it");
            stuck = true;
            break;
        }
    }
    w->depth = depth; /* a sibling lane's walk starts from the same path */
    return stuck;
}

static bool explain(struct stream *s, bool subject, bool teardown, char *buf, size_t cap)
{
    struct walk w = {{buf, cap, 0, teardown}, {NULL}, 0, 0};
    buf[0] = '\0';
    return walk_from(&w, s, subject);
}

bool engine_explain(struct stream *s, bool subject, char *buf, size_t cap)
{
    return explain(s, subject, false, buf, cap);
}

bool engine_explain_teardown(struct stream *s, char *buf, size_t cap) { return explain(s, true, true, buf, cap); }

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

/* ---- hang watch: untimed syncs that make no progress ----------------------------- */

void hang_watch_start(struct hang_watch *w, struct stream *s)
{
    uint64_t now = plat_now_ns();
    w->last_done = load_relaxed(&s->done);
    w->since = now;
    w->next_check = now + HANG_CHECK_NS;
    w->limit = load_relaxed(&s->dev)->engine->hang_timeout_ns;
    w->warned = false;
}

/* When the next look is due: the sleep deadline of a watched wait. */
uint64_t hang_watch_deadline(const struct hang_watch *w)
{
    uint64_t give_up = w->limit != 0 ? w->since + w->limit : UINT64_MAX;
    return w->next_check < give_up ? w->next_check : give_up;
}

/* A look of the hang watch at now: true when the wait made no progress
 * (done did not move) since the last look, which then starts over. */
static bool hang_no_progress(struct hang_watch *w, uint64_t done, uint64_t now)
{
    w->next_check = now + HANG_CHECK_NS;
    if (done != w->last_done) {
        w->last_done = done;
        w->since = now;
        w->warned = false;
        return false;
    }
    return true;
}

/* What a look found: a stuck wait is warned about once; true when it is
 * stuck and past the hang timeout, so the wait gives up. */
static bool hang_verdict(struct hang_watch *w, bool stuck, const char *what, int id, const char *why, uint64_t now)
{
    if (stuck && !w->warned) {
        LOGW("a sync on %s %d has made no progress for %llu ms: %s", what, id,
             (unsigned long long)((now - w->since) / 1000000u), why);
        w->warned = true;
    }
    return stuck && w->limit != 0 && now - w->since >= w->limit;
}

/* True when the wait should give up: no progress, stuck, and past the
 * hang timeout. Relaxed load of done: only a progress hint. */
bool hang_watch_check(struct hang_watch *w, struct stream *s)
{
    uint64_t now = plat_now_ns();
    char why[640];
    if (!hang_no_progress(w, load_relaxed(&s->done), now))
        return false;
    return hang_verdict(w, engine_explain(s, true, why, sizeof(why)), "stream", load_relaxed(&s->id), why, now);
}

/* An untimed event sync's hang watch: true when it should give up. Called
 * without ev->lock (the walk takes stream locks). */
bool hang_watch_check_event(struct hang_watch *w, struct event *ev, uint64_t done)
{
    uint64_t now = plat_now_ns();
    char why[640];
    if (!hang_no_progress(w, done, now))
        return false;
    return hang_verdict(w, engine_explain_event(ev, why, sizeof(why)), "event", load_relaxed(&ev->id), why, now);
}

/* ---- watchdog: waits with a deadline ---------------------------------------- */

/* What the watchdog ended, for the log line it writes without locks. */
struct timed_out {
    int32_t stream_id, event_id;
    uint32_t ms;
    const void *recorder;    /* stream handle the awaited record was issued on */
    bool notify;
};

/* Called with s->lock held: if s still waits on the wait that timed out,
 * take it off its event and make it ready; the wait then fails (kinds.c).
 * Fills *what when it did. */
static struct worker *time_out_locked(struct stream *s, uint64_t now, struct timed_out *what)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct event *ev = load_relaxed(&s->park_event);
    struct task *t;
    if (ev == NULL && load_relaxed(&s->park_value) != NULL) /* a value wait's poll (memtask.c) */
        return engine_value_poll_locked(s, now);
    if (load_relaxed(&s->state) != STREAM_PARKED || ev == NULL)
        return NULL;
    t = squeue_next(s); /* PARKED: no owner moves head, and t is the task parked */
    /* Only a wait task's park has a deadline (a model run or lane task
     * parks untimed). */
    if (t == NULL || !(task_kind_of(t)->traits & KIND_WAIT) || t->u.event.deadline == 0 ||
        now < t->u.event.deadline)
        return NULL;
    engine_unlink_parked_locked(s);
    t->u.event.timed_out = true;
    what->stream_id = load_relaxed(&s->id);
    what->event_id = load_relaxed(&ev->id);
    what->ms = t->u.event.timeout_ms;
    what->notify = ev->notify;
    what->recorder = ev->notify ? ev->last_recorder : t->u.event.recorder; /* ev->lock not needed for a hint */
    store_relaxed(&s->state, STREAM_IDLE);
    return engine_kick_locked(s);
}

/* Logs which wait gave up, and what held up the record it waited for. */
static void log_timed_out(const struct timed_out *what)
{
    char why[640] = "a stream destroyed since, or none";
    struct stream *rec;
    if (!log_enabled(LOG_INFO))
        return;
    rec = what->recorder != NULL ? (struct stream *)obj_resolve(what->recorder, OBJ_STREAM) : NULL;
    if (rec != NULL)
        engine_explain(rec, false, why, sizeof(why));
    LOGI("stream %d: its wait on %s %d timed out after %u ms (107019); the record it waited for was issued on %s",
         what->stream_id, what->notify ? "notify" : "event", what->event_id, what->ms, why);
}

#define WD_BATCH 32

/* Called with e->wd_lock held: takes up to WD_BATCH expired streams off the
 * list into out[] and returns how many; *next gets the earliest deadline
 * left (0: none). */
static unsigned take_expired_locked(struct engine *e, uint64_t now, struct stream **out, uint64_t *next)
{
    PLAT_ASSERT_HELD(&e->wd_lock);
    unsigned n = 0;
    struct list *pos = e->timed.next;
    *next = 0;
    while (pos != &e->timed) {
        struct stream *s = ACLCPU_CONTAINER_OF(pos, struct stream, timed_link);
        pos = pos->next;
        if (s->timed_deadline <= now && n < WD_BATCH) {
            list_del(&s->timed_link);
            s->timed = false;
            out[n++] = s;
        } else if (*next == 0 || s->timed_deadline < *next) {
            *next = s->timed_deadline;
        }
    }
    return n;
}

static void watchdog_main(void *arg)
{
    struct engine *e = arg;
    struct stream *expired[WD_BATCH];
    plat_spin_lock(&e->wd_lock);
    while (!e->wd_stop) {
        uint64_t now = plat_now_ns(), next;
        unsigned n = take_expired_locked(e, now, expired, &next);
        if (n == 0) {
            /* Read under the lock: a change made once it is released bumps
             * wd_seq first, so the wait returns at once (next 0: none). */
            uint32_t seen = load_relaxed(&e->wd_seq);
            plat_spin_unlock(&e->wd_lock);
            plat_futex_wait(&e->wd_seq, seen, next);
            plat_spin_lock(&e->wd_lock);
            continue;
        }
        plat_spin_unlock(&e->wd_lock);
        for (unsigned i = 0; i < n; i++) {
            struct timed_out what = {-1, -1, 0, NULL, false};
            struct worker *w;
            plat_spin_lock(&expired[i]->lock);
            w = time_out_locked(expired[i], now, &what);
            plat_spin_unlock(&expired[i]->lock);
            engine_wake(w);
            if (what.stream_id >= 0)
                log_timed_out(&what);
        }
        plat_spin_lock(&e->wd_lock);
    }
    plat_spin_unlock(&e->wd_lock);
}

/* Wakes the watchdog after a change of its list or of wd_stop (made under
 * wd_lock, which orders the relaxed bump). */
static void watchdog_nudge_locked(struct engine *e)
{
    PLAT_ASSERT_HELD(&e->wd_lock);
    fetch_add_relaxed(&e->wd_seq, 1);
}

void engine_watch_wait(struct stream *s, uint64_t deadline)
{
    struct engine *e = load_relaxed(&s->dev)->engine;
    plat_spin_lock(&e->wd_lock);
    if (!s->timed) {
        list_add_tail(&e->timed, &s->timed_link);
        s->timed = true;
    }
    s->timed_deadline = deadline;
    watchdog_nudge_locked(e);
    plat_spin_unlock(&e->wd_lock);
    plat_futex_wake(&e->wd_seq, 1);
}

void engine_unwatch(struct stream *s)
{
    struct engine *e = load_relaxed(&s->dev)->engine;
    plat_spin_lock(&e->wd_lock);
    if (s->timed) {
        list_del(&s->timed_link);
        s->timed = false;
    }
    plat_spin_unlock(&e->wd_lock);
}

void engine_watchdog_init(struct engine *e)
{
    plat_spin_init(&e->wd_lock, LOCK_WATCHDOG);
    list_init(&e->timed);
}

bool engine_watchdog_start(struct engine *e)
{
    e->wd_started = plat_thread_create(&e->wd_thread, "aclcpu-watchdog", watchdog_main, e) == 0;
    return e->wd_started;
}

void engine_watchdog_stop(struct engine *e)
{
    plat_spin_lock(&e->wd_lock);
    e->wd_stop = true;
    watchdog_nudge_locked(e);
    plat_spin_unlock(&e->wd_lock);
    plat_futex_wake(&e->wd_seq, 1);
    if (e->wd_started)
        plat_thread_join(e->wd_thread);
}
