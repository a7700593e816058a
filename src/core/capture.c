/*
 * capture.c - stream capture: beginning and ending it, streams that join
 * it through events, invalidation, the capture modes that guard unsafe
 * calls, events inside models, and task groups with their updates.
 *
 * DESIGN: aclmdlRICaptureBegin makes a model whose first lane is fed by the
 * stream (the origin). A record on a recording stream becomes a record of
 * a fresh edge event private to the model; the user's event remembers it
 * (rec_model, rec_edge), so that a wait on that event, from any stream,
 * becomes a wait on the edge: a stream that is not recording joins the
 * capture with a lane of its own; until the capture ends, a record of the
 * event elsewhere does not take the captured record's place. A capturing
 * stream that waits on an event recorded outside the capture is refused
 * (107024; the capture goes on), and so are queries and syncs of
 * captured events (107028) and unsafe calls the capture mode forbids
 * (107030, 107041). A wait on an event recorded in another capture under
 * way invalidates both captures (107032).
 * aclmdlRICaptureEnd checks that every joined lane's last task is a record
 * that a lane joined back into the origin waits on; an invalid or unjoined
 * capture gives no model. External
 * records and waits (ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL)
 * stay the user's event's: the model keeps a list of them (m->ext), and
 * each run fixes them when it is issued (model.c model_issue_run).
 *
 * Capture modes follow the rule the runtime documents: a thread in RELAXED
 * mode may always make unsafe calls; in THREAD_LOCAL or GLOBAL mode it may
 * not while a capture it began in a mode other than RELAXED is under way,
 * and in GLOBAL mode not while any capture begun in GLOBAL mode is.
 *
 * Threads: host threads. Locks: capture_lock (model.c) around every state
 * change here, and under it stream and event locks (lockrank.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine/engine.h"
#include "model.h"

/* model.c's helpers for the capture side. */
struct event *model_new_event(struct model *m);
struct lane *model_add_lane(struct model *m, struct stream *s, const void *handle, uint32_t flag);
void model_feed(struct stream *s, struct lane *l);
aclError model_finish(struct model *m);
void model_free_unlocked_capture(struct model *m);

static struct list active = {&active, &active}; /* captures under way, under capture_lock */
/* Relaxed counters read without the lock by unsafe calls as a fast "no
 * capture" test; what follows a non-zero read re-checks under the lock. */
static _Atomic int active_count;
static _Atomic int global_mode_count;
static _Thread_local int thread_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
static _Thread_local int thread_strict; /* captures this thread began, not RELAXED, under way */

/* Called with capture_lock held: the capture that s records into, if any. */
static struct model *capture_of_locked(struct stream *s)
{
    capture_assert_held();
    struct lane *l = s->rec_lane;
    return l != NULL && l->m->state == MODEL_CAPTURING ? l->m : NULL;
}

static void stream_label(char *buf, size_t n, const struct model *m)
{
    if (m->origin != NULL && m->origin->user != NULL)
        snprintf(buf, n, "stream %d", load_relaxed(&m->origin->user->id));
    else
        snprintf(buf, n, "a destroyed stream");
}

/* Called with capture_lock held: the first reason wins. */
static void invalidate_locked(struct model *m, aclError why, const char *text)
{
    capture_assert_held();
    char origin[48];
    if (load_relaxed((_Atomic int *)&m->invalid) != 0)
        return;
    stream_label(origin, sizeof(origin), m);
    snprintf(m->invalid_why, sizeof(m->invalid_why), "%s; capture of %s invalidated", text, origin);
    /* Relaxed: launches read it under their stream lock as a refusal hint. */
    store_relaxed((_Atomic int *)&m->invalid, why);
    LOGW("%s", m->invalid_why);
}

void model_invalidate_for(struct stream *s, aclError why, const char *fmt, ...)
{
    char text[192];
    va_list ap;
    struct model *m;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    capture_enter();
    m = capture_of_locked(s);
    if (m != NULL)
        invalidate_locked(m, why, text);
    capture_leave();
}

aclmdlRICaptureStatus model_capture_status(struct stream *s, void **model_handle)
{
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    struct model *m;
    capture_enter();
    m = capture_of_locked(s);
    if (m != NULL) {
        st = m->invalid ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
        if (model_handle != NULL)
            *model_handle = obj_handle(&m->hdr);
    }
    capture_leave();
    return st;
}

aclError model_refuse_captured_event(const char *fn, struct event *ev)
{
    /* The capture is left as it is: the reference refuses before it
     * touches the capture (api_error.cc EventQuery*, EventSynchronize,
     * EventElapsedTime, EventGetTimeStamp; only TerminateCapture
     * invalidates). */
    if (!model_event_captured(ev))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_EVENT_CAPTURED, "%s: argument 'event': event %d was last recorded in a capture "
                    "that is under way; it has no state to query or wait for until the model runs", fn,
                    load_relaxed(&ev->id));
}

bool model_event_captured(struct event *ev)
{
    struct model *m = NULL;
    bool captured;
    if (load_relaxed(&active_count) == 0)
        return false;
    capture_enter();
    plat_spin_lock(&ev->lock);
    if (ev->newest_in_model)
        m = (struct model *)obj_resolve(ev->rec_model, OBJ_MODEL);
    plat_spin_unlock(&ev->lock);
    captured = m != NULL && m->state == MODEL_CAPTURING;
    capture_leave();
    return captured;
}

/* ---- begin and end ---------------------------------------------------------------- */

aclError model_capture_begin(struct stream *s, const void *handle, int mode, struct model *into, struct model **out)
{
    struct model *m = into;
    struct lane *l;
    aclError err = ACL_SUCCESS;

    capture_enter();
    if (m == NULL)
        err = model_create(stream_ctx(s), MODEL_CAPTURED, &m);
    if (err == ACL_SUCCESS) {
        m->kind = MODEL_CAPTURED;
        m->state = MODEL_CAPTURING;
        m->into_existing = into != NULL;
        m->mode = mode;
        m->begin_thread = plat_thread_self();
        store_relaxed((_Atomic int *)&m->invalid, 0);
        l = model_add_lane(m, s, handle, ACL_MODEL_STREAM_FLAG_HEAD);
        if (l == NULL)
            err = ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    if (err == ACL_SUCCESS) {
        m->origin = l;
        l->joined = true;
        model_feed(s, l);
        list_add_tail(&active, &m->capture_link);
        fetch_add_relaxed(&active_count, 1);
        if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
            fetch_add_relaxed(&global_mode_count, 1);
        if (mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
            thread_strict++;
        *out = m;
    }
    capture_leave();
    return err;
}

/* Called with capture_lock held: marks every lane whose last task is a
 * record that a joined lane waits on, until nothing changes; returns the
 * first lane left unjoined, or NULL. */
static struct lane *unjoined_lane(struct model *m)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t u = 0; u < m->nuses; u++) {
            if (!m->lanes[m->uses[u].lane]->joined)
                continue;
            for (uint32_t i = 0; i < m->nlanes; i++) {
                struct lane *l = m->lanes[i];
                if (!l->joined && l->tail_edge == m->uses[u].edge) {
                    l->joined = true;
                    changed = true;
                }
            }
        }
    }
    for (uint32_t i = 0; i < m->nlanes; i++)
        if (!m->lanes[i]->joined)
            return m->lanes[i];
    return NULL;
}

void capture_forget_events_locked(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->ncap_events; i++) {
        struct event *ev = (struct event *)obj_resolve(m->cap_events[i], OBJ_EVENT);
        if (ev == NULL)
            continue; /* destroyed since */
        plat_spin_lock(&ev->lock);
        if (obj_same(&ev->hdr, m->cap_events[i]) && ev->rec_model == obj_handle(&m->hdr))
            ev->rec_capturing = false;
        plat_spin_unlock(&ev->lock);
    }
    m->ncap_events = 0;
}

/* Called with capture_lock held: every stream of m stops recording, and
 * events recorded in m no longer count as captured. */
static void stop_capture_locked(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->nlanes; i++) {
        struct stream *s = m->lanes[i]->user;
        if (s == NULL)
            continue;
        plat_spin_lock(&s->lock);
        s->open_group = NULL;
        plat_spin_unlock(&s->lock);
        model_feed(s, NULL);
    }
    capture_forget_events_locked(m);
    list_del(&m->capture_link);
    fetch_sub_relaxed(&active_count, 1);
    if (m->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)
        fetch_sub_relaxed(&global_mode_count, 1);
    if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        thread_strict--; /* ended by the thread that began it (checked by the caller) */
}

/* Called with capture_lock held: the captures into m's sub models that
 * are still going stop (m is dropped, and they with it). */
static void stop_sub_captures_locked(struct model *m)
{
    capture_assert_held();
    for (struct list *pos = m->conds.next; pos != &m->conds; pos = pos->next) {
        struct cond *c = ACLCPU_CONTAINER_OF(pos, struct cond, link);
        for (uint32_t i = 0; i < c->nsubs; i++) {
            if (c->subs[i]->state == MODEL_CAPTURING && list_linked(&c->subs[i]->capture_link))
                stop_capture_locked(c->subs[i]);
            stop_sub_captures_locked(c->subs[i]);
        }
    }
}

/* Called with capture_lock held: why m cannot become a model, or 0. */
static aclError capture_verdict(struct model *m, char *why, size_t n)
{
    aclError invalid = (aclError)load_relaxed((_Atomic int *)&m->invalid);
    struct lane *l;
    if (invalid != 0) {
        snprintf(why, n, "%s", m->invalid_why);
        return ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
    }
    /* context_aclgraph.cc StreamEndCapture: CheckSubModelsIsEndCapture,
     * after the invalidation and before the model's validity. */
    if (cond_sub_capturing(m)) {
        snprintf(why, n, "a sub model of one of its conditional tasks is still being captured (end that capture "
                 "first)");
        return ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING;
    }
    l = unjoined_lane(m);
    if (l != NULL) {
        char origin[48];
        stream_label(origin, sizeof(origin), m);
        snprintf(why, n, "stream %d joined the capture but its last task is not joined back into %s (record an event "
                 "at its end and wait for it on %s before aclmdlRICaptureEnd)",
                 l->user != NULL ? load_relaxed(&l->user->id) : -1, origin, origin);
        return ACL_ERROR_RT_CAPTURE_DEPENDENCY;
    }
    return ACL_SUCCESS;
}

aclError model_capture_end(struct stream *s, struct model **out, char *why, size_t n)
{
    struct model *m;
    aclError err;
    capture_enter();
    m = capture_of_locked(s);
    if (m == NULL) {
        capture_leave();
        snprintf(why, n, "stream %d is not being captured", load_relaxed(&s->id));
        return ACL_ERROR_RT_STREAM_NOT_CAPTURED;
    }
    if (m->origin->user != s) {
        capture_leave();
        snprintf(why, n, "stream %d only joined the capture; end it on the stream that began it", load_relaxed(&s->id));
        return ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED;
    }
    if (m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && m->begin_thread != plat_thread_self()) {
        capture_leave();
        snprintf(why, n, "the capture was begun in a mode other than RELAXED by another thread, which must end it");
        return ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD;
    }
    stop_capture_locked(m);
    err = capture_verdict(m, why, n);
    if (err == ACL_SUCCESS)
        err = model_finish(m);
    if (err == ACL_SUCCESS) {
        *out = m;
    } else {
        stop_sub_captures_locked(m); /* they go with m */
        model_free_unlocked_capture(m);
    }
    capture_leave();
    return err;
}

aclError model_exchange_mode(int *mode)
{
    int old = thread_mode;
    thread_mode = *mode;
    *mode = old;
    return ACL_SUCCESS;
}

aclError model_unsafe_call(const char *fn, aclError code)
{
    struct list *pos;
    bool mine, global;
    if (load_relaxed(&active_count) == 0 ||
        thread_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED)
        return ACL_SUCCESS;
    struct context *ctx = ctx_current();
    bool hit = false;
    mine = thread_strict > 0;
    global = thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL &&
             load_relaxed(&global_mode_count) > 0;
    if (!mine && !global)
        return ACL_SUCCESS;
    capture_enter();
    /* A GLOBAL capture counts in its own context only (context_aclgraph.cc
     * Context::IsCaptureModeSupport reads the calling context's mode). */
    list_for_each(pos, &active) {
        struct model *m = ACLCPU_CONTAINER_OF(pos, struct model, capture_link);
        if ((mine && m->begin_thread == plat_thread_self() && m->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) ||
            (global && m->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && m->ctx == ctx))
            hit = true; /* refused; the capture goes on (CHECK_CAPTURE_MODE_SUPPORT_AND_RETURN) */
    }
    capture_leave();
    if (!hit)
        return ACL_SUCCESS;
    return acl_fail(code, "%s: not allowed while a stream is being captured in %s mode (this thread's mode is %s; "
                    "aclmdlRICaptureThreadExchangeMode to RELAXED allows it); the capture goes on", fn,
                    mine ? "a non-RELAXED" : "GLOBAL",
                    thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? "GLOBAL" : "THREAD_LOCAL");
}

/* ---- events inside models ------------------------------------------------------------ */

/* What a recorded event task does, decided under capture_lock. */
struct event_plan {
    struct event *target;   /* the edge, or the user's event */
    uint64_t gen;           /* for waits: GEN_FLAG / GEN_LATEST; records: GEN_LATEST for real ones */
    uint8_t use;
    bool skip;              /* nothing to record (a wait on a never-recorded event) */
};

/* Called with capture_lock held: queues the planned event task on s, which
 * records into its lane. */
static aclError queue_planned(const char *fn, struct stream *s, const void *stream, enum task_kind kind,
                              const struct event_plan *p, struct task **out)
{
    struct task *t;
    aclError err = stream_task_new(fn, kind, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.event.ev = p->target;
    t->u.event.gen = p->gen;
    t->u.event.in_model = p->use;
    /* .event NULL: planned whole; the submit only counts it pending. */
    err = stream_submit(&(struct submit){.fn = fn, .stream = stream, .under_lock = true}, s, t);
    if (err != ACL_SUCCESS)
        return err;
    if (out != NULL)
        *out = t;
    return ACL_SUCCESS;
}

/* Called with capture_lock held: keeps ev in m's edge list, with the
 * user's event it stands for (the task calls report that one). */
static bool add_edge(struct model *m, struct event *edge, const void *user)
{
    if (m->nedges >= m->cap_edge_user) {
        uint32_t c = m->cap_edge_user ? m->cap_edge_user * 2 : 8;
        const void **u = acl_realloc(m->edge_user, c * sizeof(*u));
        if (u == NULL)
            return false;
        m->edge_user = u;
        m->cap_edge_user = c;
    }
    m->edge_user[m->nedges] = user;
    if (m->nedges == m->cap_edges) {
        uint32_t c = m->cap_edges ? m->cap_edges * 2 : 8;
        struct event **e = acl_realloc(m->edges, c * sizeof(*e));
        if (e == NULL)
            return false;
        m->edges = e;
        m->cap_edges = c;
    }
    m->edges[m->nedges++] = edge;
    return true;
}

static bool add_use(struct model *m, struct event *edge, uint32_t lane)
{
    if (m->nuses == m->cap_uses) {
        uint32_t c = m->cap_uses ? m->cap_uses * 2 : 8;
        struct edge_use *u = acl_realloc(m->uses, c * sizeof(*u));
        if (u == NULL)
            return false;
        m->uses = u;
        m->cap_uses = c;
    }
    m->uses[m->nuses].edge = edge;
    m->uses[m->nuses++].lane = lane;
    return true;
}

/* Which events a model's streams take (the reference's EventRecord and
 * StreamWaitEvent, api_impl.cc). A stream bound to a model being built
 * takes hardware-flag events only (aclrtCreateEventWithFlag): a plain
 * aclrtCreateEvent event or an Ex event is refused there, for records and
 * waits. A capture records Ex events (an EXTERNAL event's record is the
 * user's, outside the model), and waits on what it recorded, on EXTERNAL
 * events, or on Ex events; a plain or flag event recorded outside it is
 * refused. Refusals leave the capture as it was. */
static aclError event_kind_check_locked(const char *fn, const struct model *m, const struct event *ev,
                                        const struct stream *s, bool wait, bool recorded_here)
{
    capture_assert_held();
    bool ex = load_relaxed(&ev->ex), external = (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL) != 0;
    if (m->state == MODEL_BUILDING && (ex || ev->lazy_slot))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: stream %d is bound to a model: an event %s there must come from "
                        "aclrtCreateEventWithFlag (this one is %s)",
                        fn, load_relaxed(&s->id), wait ? "waited on" : "recorded",
                        ex ? "an Ex event" : "a plain aclrtCreateEvent event");
    if (m->state == MODEL_CAPTURING && !ex && !external && !recorded_here)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        "%s: stream %d is being captured: an event %s in a capture must come from "
                        "aclrtCreateEventExWithFlag (or be an EXTERNAL event)",
                        fn, load_relaxed(&s->id), wait ? "waited on" : "recorded");
    return ACL_SUCCESS;
}

/* Called with capture_lock held: the index of ev's external task of the
 * given kind in m, or -1. */
static int32_t ext_find(const struct model *m, const struct event *ev, enum task_kind kind)
{
    for (uint32_t i = 0; i < m->next; i++)
        if (m->ext[i]->u.event.ev == ev && m->ext[i]->kind == kind)
            return (int32_t)i;
    return -1;
}

/* Called with capture_lock held: the runtime's rules for an external record
 * (record true) or wait of ev on s, after the event's own (an Ex event with
 * exactly ACL_EVENT_SYNC, checked by the caller): a stream bound to a model
 * being built takes no Ex event (207000); the stream must be capturing
 * (107029); one model takes one external record and one external wait of
 * an event at most, and not both (107000). None of them touches the
 * capture. */
static aclError external_check_locked(const char *fn, struct stream *s, struct event *ev, bool record)
{
    capture_assert_held();
    const struct lane *l = s->rec_lane;
    const char *what = record ? "ACL_EVENT_RECORD_EXTERNAL" : "ACL_EVENT_WAIT_EXTERNAL";
    if (l != NULL && l->m->state == MODEL_BUILDING)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is bound to a model: an Ex event cannot be "
                        "used there", fn, load_relaxed(&s->id));
    if (l != NULL && l->m->parent != NULL) /* api_error.cc: IsStreamBindWithSubModel */
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: stream %d is captured into a sub model of a "
                        "conditional task, which takes no %s", fn, load_relaxed(&s->id), what);
    if (l == NULL || l->m->state != MODEL_CAPTURING)
        return acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: %s needs a capturing stream; stream %d is not being "
                        "captured", fn, what, load_relaxed(&s->id));
    if (ext_find(l->m, ev, record ? TASK_EVENT_RECORD : TASK_EVENT_WAIT) >= 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: event %d is already used with %s in this capture (once per "
                        "model)", fn, load_relaxed(&ev->id), what);
    if (ext_find(l->m, ev, record ? TASK_EVENT_WAIT : TASK_EVENT_RECORD) >= 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: event %d is already used with %s in this capture; one "
                        "model cannot both record and wait on an event externally", fn, load_relaxed(&ev->id),
                        record ? "ACL_EVENT_WAIT_EXTERNAL" : "ACL_EVENT_RECORD_EXTERNAL");
    return ACL_SUCCESS;
}

/* Called with capture_lock held: queues the external record or wait of ev
 * on s (checked) and keeps it in its model's external list. */
static aclError queue_external_locked(const char *fn, struct stream *s, const void *stream, struct event *ev,
                                      enum task_kind kind)
{
    capture_assert_held();
    struct model *m = s->rec_lane->m;
    struct event_plan p = {ev, m->next, kind == TASK_EVENT_RECORD ? MEV_EXT_RECORD : MEV_EXT_WAIT, false};
    struct task *t;
    aclError err;
    if (m->next == m->cap_ext) {
        uint32_t c = m->cap_ext ? m->cap_ext * 2 : 4;
        struct task **e = acl_realloc(m->ext, c * sizeof(*e));
        if (e == NULL)
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
        m->ext = e;
        m->cap_ext = c;
    }
    err = queue_planned(fn, s, stream, kind, &p, &t);
    if (err == ACL_SUCCESS)
        m->ext[m->next++] = t;
    return err;
}

aclError model_event_external(const char *fn, struct event *ev, struct stream *s, const void *stream, bool record)
{
    aclError err;
    capture_enter();
    err = external_check_locked(fn, s, ev, record);
    if (err == ACL_SUCCESS)
        err = queue_external_locked(fn, s, stream, ev, record ? TASK_EVENT_RECORD : TASK_EVENT_WAIT);
    capture_leave();
    return err;
}

aclError model_event_record(const char *fn, struct event *ev, const void *event, struct stream *s,
                            const void *stream, bool *handled)
{
    struct event_plan p = {ev, GEN_LATEST, MEV_REAL, false};
    struct lane *l;
    struct model *m;
    aclError err;

    capture_enter();
    l = s->rec_lane;
    *handled = l != NULL;
    if (l == NULL) {
        capture_leave();
        return ACL_SUCCESS;
    }
    m = l->m;
    if ((err = event_kind_check_locked(fn, m, ev, s, false, false)) != ACL_SUCCESS) {
        capture_leave();
        return err;
    }
    if (!(load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL)) {
        /* A record inside the model: a private edge each run records. */
        p.target = model_new_event(m);
        p.use = MEV_EDGE;
        p.gen = 0;
        if (p.target == NULL || !add_edge(m, p.target, event)) {
            if (p.target != NULL)
                event_destroy(p.target, NULL);
            capture_leave();
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a model edge", fn);
        }
    }
    /* Room to remember the event, so the capture's end lets it go. */
    if (p.use == MEV_EDGE && m->state == MODEL_CAPTURING && m->ncap_events == m->cap_cap_events) {
        uint32_t c = m->cap_cap_events ? m->cap_cap_events * 2 : 8;
        const void **e = acl_realloc(m->cap_events, c * sizeof(*e));
        if (e == NULL) {
            capture_leave();
            return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
        }
        m->cap_events = e;
        m->cap_cap_events = c;
    }
    err = queue_planned(fn, s, stream, TASK_EVENT_RECORD, &p, NULL);
    if (err == ACL_SUCCESS && p.use == MEV_EDGE) {
        bool capturing = m->state == MODEL_CAPTURING;
        l->tail_edge = p.target;
        plat_spin_lock(&ev->lock);
        if (obj_same(&ev->hdr, event)) {
            ev->newest_in_model = true;
            ev->rec_capturing = capturing;
            ev->rec_model = obj_handle(&m->hdr);
            ev->rec_edge = p.target;
        }
        plat_spin_unlock(&ev->lock);
        if (capturing)
            m->cap_events[m->ncap_events++] = event;
    }
    capture_leave();
    return err;
}

/* Called with capture_lock held: s (not recording) joins the capture m. */
static aclError join_locked(const char *fn, struct model *m, struct stream *s, const void *stream, struct lane **out)
{
    capture_assert_held();
    if (load_relaxed(&s->flags) & (ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_CPU_SCHEDULE))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d cannot join a capture (PERSISTENT, "
                        "DEVICE_USE_ONLY and CPU_SCHEDULE streams cannot be captured)", fn, load_relaxed(&s->id));
    if (load_relaxed(&s->is_default)) /* api_impl.cc StreamWaitEvent: the default stream is never captured */
        return acl_fail(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, "%s: the default stream (stream %d) cannot join a "
                        "capture by waiting on an event recorded in it", fn, load_relaxed(&s->id));
    *out = model_add_lane(m, s, stream != NULL ? stream : obj_handle(&s->hdr), ACL_MODEL_STREAM_FLAG_HEAD);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory for a capture lane", fn);
    model_feed(s, *out);
    return ACL_SUCCESS;
}

/* Called with capture_lock held: what a wait by lane l on ev records; or an
 * error (and the capture invalidated). */
static aclError plan_wait_locked(const char *fn, struct lane *l, struct event *ev, struct model *rec_in,
                                 struct event *edge, struct stream *s, struct event_plan *p)
{
    capture_assert_held();
    struct model *m = l->m;
    uint64_t recorded;
    if (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL) {
        *p = (struct event_plan){ev, GEN_FLAG, MEV_REAL, false};
        return ACL_SUCCESS;
    }
    if (rec_in == m) {
        *p = (struct event_plan){edge, 0, MEV_EDGE, false};
        return add_use(m, edge, l->index) ? ACL_SUCCESS
                                          : acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    }
    if (m->state != MODEL_CAPTURING) { /* build mode: the event's newest record when the run gets there */
        *p = (struct event_plan){ev, GEN_LATEST, MEV_LATEST, false};
        return ACL_SUCCESS;
    }
    if (rec_in != NULL && rec_in->state == MODEL_CAPTURING) {
        /* Recorded in another capture under way: both captures end
         * invalidated (api_impl_capture_event.cc CaptureEventWait:
         * IsCrossCaptureModel -> RT_ERROR_STREAM_CAPTURE_CONFLICT, and
         * ApiImpl::StreamWaitEvent terminates both). */
        char text[160];
        snprintf(text, sizeof(text), "stream %d waits on event %d, recorded in another capture under way",
                 load_relaxed(&s->id), load_relaxed(&ev->id));
        invalidate_locked(m, ACL_ERROR_STREAM_CAPTURE_CONFLICT, text);
        invalidate_locked(rec_in, ACL_ERROR_STREAM_CAPTURE_CONFLICT, text);
        return acl_fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT, "%s: %s; both captures are invalidated", fn, text);
    }
    plat_spin_lock(&ev->lock);
    recorded = ev->record_gen;
    plat_spin_unlock(&ev->lock);
    if (recorded == 0 && rec_in == NULL) {
        p->skip = true; /* never recorded: the wait does nothing, as outside a capture */
        return ACL_SUCCESS;
    }
    /* Refused, and the capture goes on (api_impl.cc ApiImpl::StreamWaitEvent:
     * RT_ERROR_STREAM_CAPTURE_ISOLATION, no TerminateCapture). */
    return acl_fail(ACL_ERROR_RT_CAPTURE_DEPENDENCY, "%s: stream %d waits on event %d, whose newest record is "
                    "outside the capture; a capture waits only on records it made (ACL_EVENT_WAIT_EXTERNAL waits "
                    "on one made outside); the capture goes on", fn, load_relaxed(&s->id), load_relaxed(&ev->id));
}

aclError model_event_wait(const char *fn, struct event *ev, const void *event, struct stream *s, const void *stream,
                          bool *handled)
{
    struct event_plan p = {NULL, 0, 0, false};
    struct model *rec_in = NULL;
    struct event *edge = NULL;
    struct lane *l;
    aclError err;

    capture_enter();
    plat_spin_lock(&ev->lock);
    if (obj_same(&ev->hdr, event) && ev->newest_in_model) {
        rec_in = (struct model *)obj_resolve(ev->rec_model, OBJ_MODEL);
        edge = ev->rec_edge;
    }
    plat_spin_unlock(&ev->lock);
    l = s->rec_lane;
    *handled = l != NULL || (rec_in != NULL && rec_in->state == MODEL_CAPTURING);
    if (!*handled) {
        capture_leave();
        return ACL_SUCCESS;
    }
    err = l != NULL && !ev->notify ? event_kind_check_locked(fn, l->m, ev, s, true, rec_in == l->m) : ACL_SUCCESS;
    if (err == ACL_SUCCESS && l == NULL)
        err = join_locked(fn, rec_in, s, stream, &l);
    if (err == ACL_SUCCESS)
        err = plan_wait_locked(fn, l, ev, rec_in, edge, s, &p);
    if (err == ACL_SUCCESS && !p.skip)
        err = queue_planned(fn, s, stream, TASK_EVENT_WAIT, &p, NULL);
    capture_leave();
    return err;
}

aclError model_event_reset(const char *fn, struct event *ev, const void *event, struct stream *s, const void *stream,
                           bool *handled)
{
    struct event_plan p = {ev, 0, MEV_REAL, false};
    aclError err = ACL_SUCCESS;
    (void)event;
    capture_enter();
    *handled = s->rec_lane != NULL;
    /* A capture takes the reset of an EXTERNAL event only; a stream bound
     * to a model refuses a plain aclrtCreateEvent event's (207000:
     * api_impl.cc EventReset, ToBeCaptured and the model-stream rule). */
    if (*handled && !(load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL) &&
        (s->rec_lane->m->state == MODEL_CAPTURING || ev->lazy_slot))
        err = acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                       "%s: stream %d records into a model, which takes the reset of %s", fn, load_relaxed(&s->id),
                       s->rec_lane->m->state == MODEL_CAPTURING ? "an EXTERNAL event only"
                                                                : "an event of aclrtCreateEventWithFlag only");
    /* Inside a model only an EXTERNAL event's reset means something (its
     * waits wait for it to be set); a reset of another event records
     * nothing, as its waits are edges of the run. */
    else if (*handled && (load_relaxed(&ev->flags) & ACL_EVENT_EXTERNAL))
        err = queue_planned(fn, s, stream, TASK_EVENT_RESET, &p, NULL);
    capture_leave();
    return err;
}

/* ---- task groups and updates --------------------------------------------------------- */

aclError model_group_begin(const char *fn, struct stream *s)
{
    struct model *m;
    struct task_group *g;
    bool fresh;
    capture_enter();
    m = capture_of_locked(s);
    if (m == NULL || s->open_group != NULL) {
        capture_leave();
        return m == NULL ? acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: stream %d is not being captured", fn,
                                    load_relaxed(&s->id))
                         : acl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d already has a task group open",
                                    fn, load_relaxed(&s->id));
    }
    g = obj_create(OBJ_TASKGRP, sizeof(*g), offsetof(struct task_group, m), &fresh);
    if (g == NULL) {
        capture_leave();
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    }
    g->m = m;
    g->lane = s->rec_lane;
    g->before = s->rec_lane->tail;
    g->open = true;
    list_add_tail(&m->groups, &g->link);
    plat_spin_lock(&s->lock);
    s->open_group = g;
    plat_spin_unlock(&s->lock);
    obj_publish(&g->hdr);
    capture_leave();
    return ACL_SUCCESS;
}

aclError model_group_end(const char *fn, struct stream *s, void **handle)
{
    struct task_group *g;
    capture_enter();
    g = s->open_group;
    if (g == NULL) {
        capture_leave();
        return acl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d has no task group open "
                        "(aclmdlRICaptureTaskGrpBegin)", fn, load_relaxed(&s->id));
    }
    plat_spin_lock(&s->lock);
    s->open_group = NULL;
    plat_spin_unlock(&s->lock);
    g->open = false;
    *handle = obj_handle(&g->hdr);
    capture_leave();
    return ACL_SUCCESS;
}

aclError model_update_begin(const char *fn, struct stream *s, const void *handle)
{
    struct task_group *g;
    struct task_update *u;
    aclError err = ACL_SUCCESS;
    capture_enter();
    g = (struct task_group *)obj_resolve(handle, OBJ_TASKGRP);
    if (g == NULL)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'handle' (%p) is not a live task group", fn, handle);
    else if (g->open || g->m->state != MODEL_READY)
        err = acl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: the task group's capture has not ended", fn);
    else if (s->rec_lane != NULL)
        err = acl_fail(ACL_ERROR_RT_STREAM_CAPTURED, "%s: stream %d records into a model; updates are issued to a "
                       "stream that is not being captured", fn, load_relaxed(&s->id));
    else if (s->update != NULL)
        err = acl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is already updating a task group", fn,
                       load_relaxed(&s->id));
    else if ((u = acl_calloc(1, sizeof(*u))) == NULL)
        err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    if (err == ACL_SUCCESS) {
        u->grp = g;
        u->grp_handle = handle;
        plat_spin_lock(&s->lock);
        s->update = u;
        plat_spin_unlock(&s->lock);
    }
    capture_leave();
    return err;
}

static void drop_chain(struct task *t)
{
    while (t != NULL) {
        struct task *next = task_next(t);
        task_release(t);
        task_free(t);
        t = next;
    }
}

aclError model_update_end(const char *fn, struct stream *s, const void *stream)
{
    struct task_update *u;
    struct task_group *g;
    struct task *t;
    aclError err = ACL_SUCCESS;

    capture_enter();
    plat_spin_lock(&s->lock);
    u = s->update;
    s->update = NULL;
    plat_spin_unlock(&s->lock);
    if (u == NULL) {
        capture_leave();
        return acl_fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "%s: stream %d is not updating a task group "
                        "(aclmdlRICaptureTaskUpdateBegin)", fn, load_relaxed(&s->id));
    }
    g = (struct task_group *)obj_resolve(u->grp_handle, OBJ_TASKGRP);
    if (g == NULL)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: the task group was destroyed with its model", fn);
    else if (u->count != g->count)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the update has %u tasks but the task group has %u; they must "
                       "match in number and type", fn, u->count, g->count);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_GROUP_UPDATE, &t);
    if (err != ACL_SUCCESS) {
        drop_chain(u->first);
    } else {
        t->u.update.grp = u->grp_handle;
        t->u.update.with = u->first; /* the task owns the chain now, refused or not */
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream, .under_lock = true}, s, t);
    }
    acl_free(u);
    capture_leave();
    return err;
}
