/*
 * model.c - model run instances: the object, its lanes of recorded tasks,
 * build mode, and the bookkeeping of runs.
 *
 * DESIGN: a model is a set of lanes (model.h). While a lane records, the
 * stream that feeds it has s->rec_lane set, and stream_commit hands each
 * task to model_record_locked instead of the queue. aclmdlRIBuildEnd (or
 * the end of a capture, capture.c) closes the lanes and gives each one a
 * runner, an internal stream. A run (aclmdlRIExecuteAsync) is numbered
 * when issued; model_run_started starts it on the HEAD lanes' runners and
 * the last lane to end completes it, which is record number `run` of the
 * model's done event. Runs that were dropped before they started (their
 * stream was aborted) are skipped in order, so the done event always
 * counts runs ended in order. A destroy waits for the runs with no global
 * lock held, and drops runs that can never start (queued on a stream that
 * is stuck: hang.c's verdict), so teardown always returns.
 *
 * Threads: host threads (API), executors (run start/end, lane ends).
 * Locks: capture_lock guards lanes, edges and every state change of a model
 * (and, together with the stream's lock, s->rec_lane / s->model); m->lock
 * guards the run counters. How they nest with the stream and event locks:
 * common/lockrank.h.
 */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../services/profsub.h"
#include "model.h"
#include "squeue.h"

static plat_mutex capture_lock_;
/* Lanes that record (builds and captures under way). Written under
 * capture_lock; read without it (relaxed) as a hint that sends event calls
 * down the slow path, which re-checks everything under the lock; the fast
 * path also bails out when it meets a recording stream or a captured event
 * under their locks, so a stale hint only costs time. */
static _Atomic int recording_lanes;

__attribute__((constructor)) static void model_init(void) { plat_mutex_init(&capture_lock_, LOCK_CAPTURE); }

void capture_enter(void) { plat_mutex_lock(&capture_lock_); }
void capture_leave(void) { plat_mutex_unlock(&capture_lock_); }
void capture_assert_held(void) { PLAT_ASSERT_HELD(&capture_lock_); }

bool model_recording_anywhere(void) { return load_relaxed(&recording_lanes) > 0; }

/* ---- the object ---------------------------------------------------------------- */

/* An internal event (a model's edge or completion): Ex, so it takes no slot
 * of the SoC's event cap, and never handed to the user. */
struct event *model_new_event(struct model *m)
{
    struct event *ev;
    return event_create_internal(m->ctx, &ev) == ACL_SUCCESS ? ev : NULL;
}

aclError model_create(struct context *ctx, enum model_kind kind, struct model **out)
{
    bool fresh;
    struct model *m = obj_create(OBJ_MODEL, sizeof(*m), offsetof(struct model, ctx), &fresh);
    if (m == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    if (fresh)
        plat_mutex_init(&m->lock, LOCK_MODEL);
    m->ctx = ctx;
    m->dev = ctx->dev;
    m->kind = kind;
    m->state = kind == MODEL_BUILT ? MODEL_BUILDING : MODEL_CAPTURING;
    list_init(&m->groups);
    list_init(&m->capture_link);
    list_init(&m->conds);
    m->done = model_new_event(m);
    if (m->done == NULL) {
        obj_kill(&m->hdr);
        obj_recycle(&m->hdr);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    plat_mutex_lock(&ctx->lock);
    list_add_tail(&ctx->models, &m->ctx_link);
    plat_mutex_unlock(&ctx->lock);
    obj_publish(&m->hdr);
    *out = m;
    return ACL_SUCCESS;
}

/* Grows *arr (of *cap elements of size sz) to hold n + 1; false on OOM. */
static bool grow(void **arr, uint32_t *cap, uint32_t n, size_t sz)
{
    void *p;
    uint32_t c;
    if (n < *cap)
        return true;
    c = *cap < 8 ? 8 : *cap * 2;
    p = acl_realloc(*arr, (size_t)c * sz);
    if (p == NULL)
        return false;
    *arr = p;
    *cap = c;
    return true;
}

/* Called with capture_lock held: a new lane of m fed by s (the caller sets
 * s->rec_lane under s's lock). */
struct lane *model_add_lane(struct model *m, struct stream *s, const void *handle, uint32_t flag)
{
    struct lane *l;
    if (!grow((void **)&m->lanes, &m->cap_lanes, m->nlanes, sizeof(*m->lanes)))
        return NULL;
    l = acl_calloc(1, sizeof(*l));
    if (l == NULL)
        return NULL;
    l->m = m;
    l->index = m->nlanes;
    l->flag = flag;
    l->user = s;
    l->user_handle = handle;
    l->tail = &l->head;
    m->lanes[m->nlanes++] = l;
    fetch_add_relaxed(&recording_lanes, 1);
    return l;
}

/* Called with capture_lock held: s's tasks go to l from now on (l NULL:
 * back to its queue). */
void model_feed(struct stream *s, struct lane *l)
{
    plat_spin_lock(&s->lock);
    if (s->rec_lane != NULL && l == NULL)
        fetch_sub_relaxed(&recording_lanes, 1);
    s->rec_lane = l;
    if (l != NULL)
        s->last_lane = l;
    plat_spin_unlock(&s->lock);
}

/* Called with capture_lock held: releases and frees a lane's recorded tasks. */
static void drop_tasks(struct task *first)
{
    while (first != NULL) {
        struct task *next = task_next(first);
        task_release(first);
        task_free(first);
        first = next;
    }
}

static void lane_clear(struct lane *l)
{
    drop_tasks(task_next(&l->head));
    task_set_next(&l->head, NULL);
    l->tail = &l->head;
    l->ntasks = 0;
    l->tail_edge = NULL;
}

/* Called with capture_lock held: forgets s in every lane of m. */
static void forget_stream_locked(struct model *m, struct lane *l)
{
    PLAT_ASSERT_HELD(&capture_lock_);
    struct stream *s = l->user;
    if (s == NULL || !obj_same(&s->hdr, l->user_handle))
        return;
    plat_spin_lock(&s->lock);
    if (s->rec_lane == l) {
        s->rec_lane = NULL;
        fetch_sub_relaxed(&recording_lanes, 1);
    }
    if (s->model == m)
        s->model = NULL;
    if (s->last_lane == l)
        s->last_lane = NULL;
    plat_spin_unlock(&s->lock);
    l->user = NULL;
}

static void lane_free(struct model *m, struct lane *l)
{
    forget_stream_locked(m, l);
    if (l->runner != NULL)
        stream_destroy(l->runner, NULL, STREAM_END_DISCARD);
    lane_clear(l);
    acl_free(l);
}

/* Which run of m a stream holds, if any: none, one not started yet, or the
 * one being played (its TASK_MODEL_RUN waits for the run's end). */
enum held_run { HOLDS_NO_RUN, HOLDS_UNSTARTED_RUN, HOLDS_STARTED_RUN };

/* Called when s has no owner (so its queue stands still under its lock);
 * otherwise it holds no run this caller could act on. */
static enum held_run run_held_by(struct stream *s, const struct model *m)
{
    enum held_run held = HOLDS_NO_RUN;
    plat_spin_lock(&s->lock);
    int state = load_relaxed(&s->state);
    if (state == STREAM_IDLE || state == STREAM_PARKED) {
        for (struct task *t = squeue_next(s); t != NULL && held == HOLDS_NO_RUN; t = task_next(t))
            if (t->kind == TASK_MODEL_RUN && t->u.model.m == m)
                held = t->u.model.phase == 0 ? HOLDS_UNSTARTED_RUN : HOLDS_STARTED_RUN;
    }
    plat_spin_unlock(&s->lock);
    return held;
}

/* Ends the runs of m that cannot: a stream that holds a run which can
 * never start (the stream is PERSISTENT, stopped, or waits down a chain
 * that cannot move: hang.c) has its work dropped, so the run is skipped; a
 * run being played whose lanes are all stuck is stopped, as aclmdlRIAbort
 * stops it. Every stream is looked at, not only those of m's context: a
 * run may be issued on a stream of another context of the device. Streams
 * are type-stable, so a slot is safe to look at even as it dies. Reports
 * what it ended; true when it ended something. */
static bool end_runs_that_cannot_end(struct model *m)
{
    uint32_t slots = obj_slot_count(OBJ_STREAM); /* every slot: live ones may sit past the live count */
    bool ended = false;
    for (uint32_t i = 0; i < slots; i++) {
        char why[640];
        struct obj_header *hdr = obj_header_at(OBJ_STREAM, i);
        if (hdr == NULL || !load_acquire(&hdr->live))
            continue;
        struct stream *s = ACLCPU_CONTAINER_OF(hdr, struct stream, hdr);
        enum held_run held = run_held_by(s, m);
        if (held == HOLDS_NO_RUN || !engine_explain(s, true, why, sizeof(why)))
            continue;
        if (held == HOLDS_UNSTARTED_RUN) {
            engine_discard_stream(s);
        } else {
            capture_enter();
            replay_abort(m);
            capture_leave();
        }
        (void)acl_fail(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                       held == HOLDS_UNSTARTED_RUN
                           ? "destroying model %u: dropped the work of stream %d, which holds a run of it that can "
                             "never start: %s"
                           : "destroying model %u: stopped its run on stream %d, which can never end: %s",
                       m->hdr.index, load_relaxed(&s->id), why);
        ended = true;
    }
    return ended;
}

/* A teardown looks at the runs this often, and drops those that cannot
 * start once nothing moved for a teardown's grace (as engine_wait_teardown). */
#define RUNS_LOOK_NS 20000000ull

/* Waits for every run issued so far to end (it may run on other threads),
 * with no global lock held; runs that can never end are dropped or stopped. */
static void wait_for_runs(struct model *m)
{
    uint64_t since = plat_now_ns(), last = event_done_gen(m->done);
    while (engine_sync_event(m->done, obj_handle(&m->done->hdr), plat_now_ns() + RUNS_LOOK_NS) != SYNC_DONE) {
        uint64_t now = plat_now_ns(), done = event_done_gen(m->done);
        if (done != last) {
            last = done;
            since = now;
        } else if (now - since >= ENGINE_TEARDOWN_GRACE_NS) {
            (void)end_runs_that_cannot_end(m);
            since = now;
        }
    }
    /* The run tasks are at their end (the runs ended); let them finish.
     * Acquire: pairs with task_release's decrement (see model->run_tasks). */
    while (load_acquire(&m->run_tasks) != 0)
        plat_thread_yield();
}

/* wait_for_runs for m and for the sub models of its conditions, whose
 * runs m's runs started (an aborted run may leave one going). */
static void wait_tree(struct model *m)
{
    wait_for_runs(m);
    cond_each_sub(m, wait_tree);
}

/* Called with capture_lock held, m's handle already killed and its runs
 * ended (wait_for_runs, called without the lock). */
static void model_free_locked(struct model *m)
{
    PLAT_ASSERT_HELD(&capture_lock_);
    /* A subscription ends with its model (its pipe is closed: the reader
     * sees the end), so the id's next owner does not inherit it. */
    if (load_relaxed(&m->subscribed)) {
        profsub_remove(m->hdr.index);
        store_relaxed(&m->subscribed, false);
    }
    struct list *pos;
    cond_free_all_locked(m);
    for (uint32_t i = 0; i < m->nlanes; i++)
        lane_free(m, m->lanes[i]);
    acl_free(m->lanes);
    if (m->exec_stream != NULL)
        stream_destroy(m->exec_stream, NULL, STREAM_END_DISCARD);
    while (!list_empty(&m->groups)) {
        pos = m->groups.next;
        struct task_group *g = ACLCPU_CONTAINER_OF(pos, struct task_group, link);
        list_del(pos);
        obj_kill(&g->hdr);
        obj_recycle(&g->hdr);
    }
    drop_tasks(m->graveyard);
    for (uint32_t i = 0; i < m->nedges; i++)
        event_destroy(m->edges[i], NULL);
    acl_free(m->edges);
    acl_free(m->uses);
    acl_free(m->skipped);
    acl_free(m->ext);
    acl_free(m->name);
    model_tasks_free(m);
    event_destroy(m->done, NULL);
    if (list_linked(&m->capture_link)) { /* freed while capturing (its context went) */
        capture_forget_events_locked(m); /* reads cap_events: freed after */
        list_del(&m->capture_link);
    }
    acl_free(m->cap_events);
    plat_mutex_lock(&m->ctx->lock);
    list_del(&m->ctx_link);
    plat_mutex_unlock(&m->ctx->lock);
    obj_recycle(&m->hdr);
}

void model_free_sub_locked(struct model *sub)
{
    PLAT_ASSERT_HELD(&capture_lock_);
    obj_kill(&sub->hdr);
    model_free_locked(sub);
}

/* Called with capture_lock held: a capture that gives no model (invalid
 * or unjoined). A model of its own is dropped; one captured into with
 * aclmdlRICaptureToModelRIBegin goes back to empty, as it was. */
void model_free_unlocked_capture(struct model *m)
{
    if (!m->into_existing) {
        obj_kill(&m->hdr);
        model_free_locked(m);
        return;
    }
    cond_free_all_locked(m); /* its runs never started */
    model_tasks_forget(m);
    for (uint32_t i = 0; i < m->nlanes; i++)
        lane_free(m, m->lanes[i]);
    m->nlanes = 0;
    m->nlabels = 0;
    for (uint32_t i = 0; i < m->nedges; i++)
        event_destroy(m->edges[i], NULL);
    m->nedges = m->nuses = 0;
    m->next = 0; /* the tasks went with the lanes */
    m->origin = NULL;
    m->kind = MODEL_BUILT;
    m->state = MODEL_BUILDING;
}

aclError model_destroy(struct model *m, const void *handle)
{
    struct destroy_cb *cbs;
    uint32_t ncbs;
    capture_enter();
    if (handle != NULL && !obj_same(&m->hdr, handle)) {
        capture_leave();
        return ACL_ERROR_RT_INVALID_HANDLE;
    }
    obj_kill(&m->hdr); /* ours to free from here on: nobody else finds it */
    capture_leave();
    wait_tree(m); /* without capture_lock: other threads' capture calls go on */
    capture_enter();
    cbs = model_take_callbacks(m, &ncbs);
    model_free_locked(m);
    capture_leave();
    model_run_callbacks(cbs, ncbs); /* no lock held: they may call the API */
    return ACL_SUCCESS;
}

void model_destroy_all(struct context *ctx)
{
    for (;;) {
        struct model *m = NULL;
        struct destroy_cb *cbs;
        uint32_t ncbs;
        bool mine;
        plat_mutex_lock(&ctx->lock);
        if (!list_empty(&ctx->models))
            m = ACLCPU_CONTAINER_OF(ctx->models.next, struct model, ctx_link);
        plat_mutex_unlock(&ctx->lock);
        if (m == NULL)
            return;
        capture_enter();
        mine = load_relaxed(&m->hdr.live);
        if (mine)
            obj_kill(&m->hdr);
        capture_leave();
        if (!mine) { /* aclmdlRIDestroy on another thread frees it: let it */
            plat_thread_yield();
            continue;
        }
        wait_tree(m);
        capture_enter();
        cbs = model_take_callbacks(m, &ncbs);
        model_free_locked(m);
        capture_leave();
        model_run_callbacks(cbs, ncbs);
    }
}

/* ---- recording ------------------------------------------------------------------ */

enum refusal model_refusal_locked(const struct stream *s, enum task_kind kind)
{
    PLAT_ASSERT_HELD(&s->lock);
    const struct lane *l = s->rec_lane;
    if (s->update != NULL)
        return kind == TASK_KERNEL ? REFUSE_NONE : REFUSE_UPDATE_KERNELS_ONLY;
    if (l->closed)
        return REFUSE_LANE_CLOSED;
    if (l->m->state == MODEL_CAPTURING && load_relaxed((_Atomic int *)&l->m->invalid))
        return REFUSE_CAPTURE_INVALIDATED;
    if (kind == TASK_CALLBACK)
        return REFUSE_CALLBACK_IN_MODEL;
    if (s->open_group != NULL && kind != TASK_KERNEL)
        return REFUSE_GROUP_KERNELS_ONLY;
    return REFUSE_NONE;
}

void model_record_locked(struct stream *s, struct task *t)
{
    PLAT_ASSERT_HELD(&s->lock);
    task_set_next(t, NULL);
    if (s->update != NULL) {
        struct task_update *u = s->update;
        if (u->last != NULL)
            task_set_next(u->last, t);
        else
            u->first = t;
        u->last = t;
        u->count++;
        return;
    }
    struct lane *l = s->rec_lane;
    task_set_next(l->tail, t);
    l->tail = t;
    l->ntasks++;
    l->tail_edge = NULL; /* a later task ends the lane, not the record before it */
    if (s->open_group != NULL)
        s->open_group->count++;
}

/* ---- build mode ------------------------------------------------------------------ */

/* Called with capture_lock held: the HEAD lanes, as runs start them. */
static uint32_t count_heads(const struct model *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nlanes; i++)
        n += m->lanes[i]->flag == ACL_MODEL_STREAM_FLAG_HEAD;
    return n;
}

/* Called with capture_lock held: gives each lane its runner; the model can
 * run from here on. */
aclError model_finish(struct model *m)
{
    for (uint32_t i = 0; i < m->nlanes; i++) {
        struct lane *l = m->lanes[i];
        uint32_t prio = l->user != NULL ? load_relaxed(&l->user->priority) : 0;
        if (l->runner == NULL && stream_create_internal(m->ctx, prio, &l->runner) != ACL_SUCCESS)
            return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    }
    plat_mutex_lock(&m->lock);
    m->state = MODEL_READY;
    plat_mutex_unlock(&m->lock);
    store_relaxed(&m->fault_lane_start, (uint32_t)config_u64(CFG_FAULT_LANE_START));
    return ACL_SUCCESS;
}

/* Called with capture_lock held: the lane of m that s feeds, or NULL. */
struct lane *model_lane_of(const struct model *m, const struct stream *s)
{
    for (uint32_t i = 0; i < m->nlanes; i++)
        if (m->lanes[i]->user == s)
            return m->lanes[i];
    return NULL;
}

/* Called with capture_lock held: binds persistent stream s. Tasks it kept
 * before the bind move into its lane. */
aclError model_bind(struct model *m, struct stream *s, const void *handle, uint32_t flag)
{
    struct lane *l = model_add_lane(m, s, handle, flag);
    struct task *kept;
    if (l == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_spin_lock(&s->lock);
    kept = squeue_take_kept_locked(s);
    s->model = m;
    s->rec_lane = l;
    s->last_lane = l;
    while (kept != NULL) {
        struct task *next = task_next(kept);
        model_record_locked(s, kept);
        kept = next;
    }
    squeue_note_done(s, s->issued); /* what it kept is the model's now */
    plat_spin_unlock(&s->lock);
    return ACL_SUCCESS;
}

/* Called with capture_lock held: closes every lane (no more tasks) and
 * makes the model runnable. */
aclError model_build_end(struct model *m)
{
    for (uint32_t i = 0; i < m->nlanes; i++) {
        struct lane *l = m->lanes[i];
        struct stream *s = l->user;
        if (s == NULL)
            continue;
        plat_spin_lock(&s->lock);
        l->closed = true;
        plat_spin_unlock(&s->lock);
    }
    return model_finish(m);
}

/* Called with capture_lock held: reopens s's lane of m, empty. */
void model_clean_lane(struct lane *l)
{
    struct stream *s = l->user;
    model_tasks_forget(l->m);
    plat_spin_lock(&s->lock);
    lane_clear(l);
    l->closed = false;
    plat_spin_unlock(&s->lock);
}

/* Called with capture_lock held: takes l out of m (its stream goes back to
 * being a plain persistent stream). */
void model_unbind(struct model *m, struct lane *l)
{
    uint32_t j = 0;
    model_tasks_forget(m); /* the lanes' places change */
    for (uint32_t i = 0; i < m->nlanes; i++)
        if (m->lanes[i] != l)
            m->lanes[j++] = m->lanes[i];
    m->nlanes = j;
    for (uint32_t i = 0; i < m->nlanes; i++)
        m->lanes[i]->index = i;
    lane_free(m, l);
}

/* True while runs issued to m have not all ended. */
bool model_busy(struct model *m)
{
    bool busy;
    plat_mutex_lock(&m->lock);
    busy = m->completed < m->issued;
    plat_mutex_unlock(&m->lock);
    return busy;
}

/* A destroyed stream leaves the lanes it fed (they keep their tasks), and
 * drops a task-group update it was collecting. */
void model_stream_gone(struct stream *s)
{
    struct task_update *u;
    struct lane *l;
    bool in_model;
    plat_spin_lock(&s->lock);
    in_model = s->model != NULL || s->last_lane != NULL || s->rec_lane != NULL;
    u = s->update; /* an update begun and never ended dies with its stream */
    s->update = NULL;
    plat_spin_unlock(&s->lock);
    if (u != NULL) {
        drop_tasks(u->first);
        acl_free(u);
    }
    if (!in_model)
        return;
    capture_enter();
    l = s->last_lane;
    if (l != NULL && l->user == s)
        forget_stream_locked(l->m, l);
    if (s->model != NULL) {
        l = model_lane_of(s->model, s);
        if (l != NULL)
            forget_stream_locked(s->model, l);
    }
    capture_leave();
}

/* ---- runs --------------------------------------------------------------------------- */

/* The records and waits of x fixed for a run of m (m READY, so m->ext no
 * longer changes): waits first, as they take the event's newest record
 * before this run's own records are issued. */
static void ext_fix(struct model *m, struct ext_run *x, const void *recorder)
{
    for (uint32_t i = 0; i < x->n; i++)
        if (m->ext[i]->kind == TASK_EVENT_WAIT)
            x->slot[i].gen = event_wait_snapshot(m->ext[i]->u.event.ev);
    for (uint32_t i = 0; i < x->n; i++)
        if (m->ext[i]->kind == TASK_EVENT_RECORD)
            event_issue_detached_record(m->ext[i]->u.event.ev, x->slot[i].rec, recorder);
}

/* A run's ext_run, its record tasks allocated (not issued); NULL when out
 * of memory. */
static struct ext_run *ext_alloc(const struct model *m)
{
    struct ext_run *x = acl_calloc(1, sizeof(*x) + m->next * sizeof(x->slot[0]));
    if (x == NULL)
        return NULL;
    for (uint32_t i = 0; i < m->next; i++) {
        if (m->ext[i]->kind != TASK_EVENT_RECORD)
            continue;
        x->slot[i].rec = task_alloc();
        if (x->slot[i].rec == NULL) {
            for (uint32_t j = 0; j < i; j++)
                if (x->slot[j].rec != NULL)
                    task_free(x->slot[j].rec);
            acl_free(x);
            return NULL;
        }
    }
    x->n = m->next;
    return x;
}

aclError model_issue_run(struct model *m, const void *recorder, uint64_t *run, struct ext_run **ext)
{
    struct ext_run *x = NULL;
    plat_mutex_lock(&m->lock);
    if (m->state != MODEL_READY) {
        plat_mutex_unlock(&m->lock);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (m->upd != UPD_READY) { /* its tasks changed: aclmdlRIUpdate first (model_task.c) */
        plat_mutex_unlock(&m->lock);
        return ACL_ERROR_RT_MODEL_EXECUTE;
    }
    plat_mutex_unlock(&m->lock);
    /* READY is for good, and m->ext was fixed before it (under this lock). */
    if (m->next != 0 && (x = ext_alloc(m)) == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_mutex_lock(&m->lock);
    *run = ++m->issued;
    if (x != NULL) /* under m->lock: the runs' records go in the order of the runs */
        ext_fix(m, x, recorder);
    plat_spin_lock(&m->done->lock);
    m->done->record_gen = *run; /* a host sync on done waits for every run issued */
    plat_spin_unlock(&m->done->lock);
    plat_mutex_unlock(&m->lock);
    *ext = x;
    return ACL_SUCCESS;
}

void model_ext_release(struct ext_run *x)
{
    if (x == NULL)
        return;
    for (uint32_t i = 0; i < x->n; i++) {
        if (x->slot[i].rec == NULL)
            continue;
        task_release(x->slot[i].rec); /* reaches it if no lane did */
        task_free(x->slot[i].rec);
    }
    acl_free(x);
}

/* Called with m->lock held: run has ended; moves `completed` past it and
 * past the skipped runs right after it. Returns the new count. */
static uint64_t advance_locked(struct model *m, uint64_t run)
{
    PLAT_ASSERT_HELD(&m->lock);
    bool moved = true;
    if (run == m->completed + 1)
        m->completed = run;
    while (moved) {
        moved = false;
        for (uint32_t i = 0; i < m->nskipped; i++) {
            if (m->skipped[i] == m->completed + 1) {
                m->completed++;
                m->skipped[i] = m->skipped[--m->nskipped];
                moved = true;
                break;
            }
        }
    }
    return m->completed;
}

static void run_ended(struct model *m, uint64_t run)
{
    uint64_t through;
    int err = load_relaxed(&m->run_error);
    plat_mutex_lock(&m->lock);
    if (load_relaxed(&m->aborted_run) == run && load_relaxed(&m->failed_run) != run)
        err = ACL_ERROR_RT_MODEL_ABORT_NORMAL;
    m->errors[run % MODEL_ERROR_RING] = err;
    through = advance_locked(m, run);
    plat_mutex_unlock(&m->lock);
    event_reach(m->done, through, plat_now_ns());
}

void model_run_started(struct model *m, uint64_t run, struct lane ***heads, uint32_t *nheads)
{
    uint32_t n;
    plat_mutex_lock(&m->lock);
    m->started = run;
    n = count_heads(m);
    /* Relaxed: the lanes are pushed to their runners after this (the
     * runner queue's lock publishes it), and lanes count themselves out
     * with acq_rel RMWs (model_lane_finished). */
    store_relaxed(&m->lanes_running, n);
    store_relaxed(&m->run_error, ACL_SUCCESS);
    plat_mutex_unlock(&m->lock);
    *heads = m->lanes;
    *nheads = m->nlanes;
    if (n == 0)
        run_ended(m, run);
}

void model_lane_finished(struct model *m, uint64_t run)
{
    /* acq_rel: the lane that ends the run sees every other lane's writes
     * (their release), and publishes the run's end with its own. */
    if (fetch_sub_acq_rel(&m->lanes_running, 1) == 1)
        run_ended(m, run);
}

void model_activate(struct model *m, struct lane *l, uint64_t run)
{
    /* Counted before it is pushed, so the run cannot end in between
     * (relaxed: the activating lane is itself still counted). */
    fetch_add_relaxed(&m->lanes_running, 1);
    replay_start_lane(l, run);
}

void model_skip_run(struct model *m, uint64_t run)
{
    uint64_t before, through;
    plat_mutex_lock(&m->lock);
    before = m->completed;
    m->errors[run % MODEL_ERROR_RING] = ACL_SUCCESS;
    if (run == before + 1)
        through = advance_locked(m, run);
    else if (grow((void **)&m->skipped, &m->cap_skipped, m->nskipped, sizeof(uint64_t)))
        m->skipped[m->nskipped++] = run; /* ends when the runs before it have */
    else
        LOGE("model %u: out of memory noting dropped run %llu; later runs will wait for it", m->hdr.index,
             (unsigned long long)run);
    through = m->completed;
    plat_mutex_unlock(&m->lock);
    if (through != before)
        event_reach(m->done, through, plat_now_ns());
}

aclError model_run_result(struct model *m, uint64_t run)
{
    aclError err;
    plat_mutex_lock(&m->lock);
    err = m->errors[run % MODEL_ERROR_RING];
    plat_mutex_unlock(&m->lock);
    return err;
}

void model_note_error(struct model *m, aclError err)
{
    int cur = load_relaxed(&m->run_error);
    /* A real failure replaces an overflow, which is only a "successful"
     * code (spec §4); relaxed: read after the run's end (acq_rel above). */
    while ((cur == ACL_SUCCESS || (acl_is_overflow(cur) && !acl_is_overflow(err))) &&
           !cas_weak_relaxed(&m->run_error, &cur, err))
        ;
}

void model_fail_run(struct model *m, uint64_t run)
{
    uint64_t now = plat_now_ns();
    /* Relaxed: requests that lanes poll before each task (replay.c); the
     * edges reached below release any lane parked meanwhile. */
    store_relaxed(&m->failed_run, run);
    store_relaxed(&m->aborted_run, run);
    for (uint32_t i = 0; i < m->nedges; i++)
        event_reach(m->edges[i], run, now);
}
