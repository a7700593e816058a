/*
 * replay.c - running models: a run on the caller's stream, and each lane's
 * part of it on the lane's runner.
 *
 * DESIGN: aclmdlRIExecuteAsync queues a TASK_MODEL_RUN on the caller's
 * stream. When the stream gets to it, it parks until the model's previous
 * run has ended (runs of one model are serialised), starts the run by
 * pushing a TASK_LANE_RUN onto each HEAD lane's runner, and parks again
 * until the run ends, then completes with the run's result. A TASK_LANE_RUN
 * plays the lane's recorded tasks in order on its runner (each as its
 * kind's row in kinds.c says), straight from the recorded records: no copy
 * and no queue per task, which is why a replay costs a fraction of the
 * launches it stands for. A wait that is not
 * satisfied parks the runner with the lane task at its head and where it
 * got to, to go on from there when released. Edge events take the run
 * number as their generation. aclrtActiveStream and a true aclrtSwitchStream
 * start another lane (a switch also ends the current one). A failing kernel
 * fails the run (its first failure is the run's result) but the run goes
 * on, so that its edges are all recorded and nothing waits forever. A lane
 * that cannot start (no memory for its task) fails the run as a whole
 * (model_fail_run): the other lanes stop, and the edges are reached. A
 * label switch moves the lane to the label's set in the same lane; a
 * conditional task starts a run of the sub model its condition names on
 * that model's runners and parks the lane on the sub model's done event
 * until that run ends.
 *
 * Threads: executors (workers, synchronising hosts). Locks: none held while
 * a task runs; the model's run counters take m->lock (model.c); a switch
 * reads its operands under devmem's mem_lock.
 */
#include <string.h>

#include "../core/model.h"
#include "../core/profhook.h"
#include "../services/devmem.h"
#include "../services/profsub.h"
#include "engine_int.h"

/* A lane's task record; ACLCPU_FAULT_LANE_START makes the Nth of m's fail,
 * to test that path. Relaxed: a countdown, nothing to publish. */
static struct task *lane_task_alloc(struct model *m)
{
    uint32_t n = load_relaxed(&m->fault_lane_start);
    while (ACLCPU_UNLIKELY(n != 0) && !cas_weak_relaxed(&m->fault_lane_start, &n, n - 1))
        ;
    return n == 1 ? NULL : task_alloc();
}

/* Pushes lane l's part of run onto its runner, to play from `from`
 * (prof_last: the profile entry of the lane's task before it, if any). */
static void start_lane_at(struct lane *l, uint64_t run, struct task *from, uint32_t prof_last)
{
    struct task *t = lane_task_alloc(l->m);
    if (t == NULL) {
        /* No memory for the lane's part: the run fails as a whole (its
         * other lanes may wait on this one's records), then this lane
         * ends, so the run ends. */
        LOGE("model %u: out of memory starting lane %u of run %llu; the run fails", l->m->hdr.index, l->index,
             (unsigned long long)run);
        model_note_error(l->m, ACL_ERROR_RT_MEMORY_ALLOCATION);
        model_fail_run(l->m, run);
        model_lane_finished(l->m, run);
        return;
    }
    memset(t, 0, offsetof(struct task, inline_args));
    t->kind = TASK_LANE_RUN;
    t->u.lane.lane = l;
    t->u.lane.cur = from;
    t->u.lane.run = run;
    t->u.lane.prof_last = prof_last;
    stream_push_internal(l->runner, t);
}

void replay_start_lane(struct lane *l, uint64_t run) { start_lane_at(l, run, task_next(&l->head), l->prof_after); }

static struct task *play_lane(struct executor *x, struct lane *l, struct task *rt, uint64_t run, struct task *lt,
                              uint32_t *prof_last);

/* A lane ended its part of run: the run's end (profiled) comes after its
 * last task; then the model learns it, and may be destroyed from then on. */
static void lane_ended(struct lane *l, uint64_t run, uint32_t prof_last)
{
    if (l->m->prof_run_end != 0)
        prof_run_lane_ended(l->m->prof_run_end, prof_last);
    model_lane_finished(l->m, run);
}

/* The first HEAD lane that nothing activates is played by the executor
 * that starts the run, right away: a one-lane model then runs without
 * waking anyone. At the first wait that is not satisfied yet, the rest
 * goes to the lane's runner. */
static void play_inline(struct executor *x, struct lane *l, uint64_t run)
{
    uint32_t last = l->prof_after;
    struct task *rest = play_lane(x, l, task_next(&l->head), run, NULL, &last);
    if (rest != NULL)
        start_lane_at(l, run, rest, last);
    else
        lane_ended(l, run, last);
}

/* t starts run of m: its lanes' first tasks come after t's profile entry
 * (0 when the run is not profiled, and then neither are its tasks). */
static void start_run(struct executor *x, struct model *m, uint64_t run, const struct task *t)
{
    struct lane **lanes, *mine = NULL;
    uint32_t n;
    m->prof_run_begin = t->prof_id;
    m->prof_run_end = t->prof_id != 0 ? t->u.model.prof_end : 0;
    m->cur_ext = t->u.model.ext; /* the lanes read it after their push */
    model_run_started(m, run, &lanes, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (lanes[i]->flag != ACL_MODEL_STREAM_FLAG_HEAD)
            continue;
        lanes[i]->prof_after = m->prof_run_begin;
        if (mine == NULL && !lanes[i]->targeted)
            mine = lanes[i]; /* played below, after the others are on their way */
        else
            replay_start_lane(lanes[i], run);
    }
    if (mine != NULL)
        play_inline(x, mine, run);
}

enum run_result replay_model_run(struct executor *x, struct stream *s, struct task *t, aclError *err)
{
    struct model *m = t->u.model.m;
    uint64_t run = t->u.model.run;

    if (t->u.model.phase == 0) {
        if (!event_wait_gen_or_park(s, m->done, run - 1, NULL))
            return RUN_PARKED; /* the previous run has not ended */
        t->u.model.phase = 1;
        start_run(x, m, run, t);
    }
    if (!event_wait_gen_or_park(s, m->done, run, NULL))
        return RUN_PARKED;
    *err = model_run_result(m, run);
    return RUN_DONE;
}

/* *left cond *right, read from device memory as the switch's type says.
 * The operands were device memory when recorded, but may have been freed
 * since: they are read only while devmem vouches for them (false if not). */
static bool switch_read(const struct task *t, bool *holds)
{
    int64_t l, r;
    if (t->u.ctl.type == ACL_RT_SWITCH_INT64) {
        if (!devmem_read_device(t->u.ctl.left, &l, sizeof(l)) || !devmem_read_device(t->u.ctl.right, &r, sizeof(r)))
            return false;
    } else {
        int32_t l32, r32;
        if (!devmem_read_device(t->u.ctl.left, &l32, sizeof(l32)) ||
            !devmem_read_device(t->u.ctl.right, &r32, sizeof(r32)))
            return false;
        l = l32;
        r = r32;
    }
    switch (t->u.ctl.cond) {
    case ACL_RT_EQUAL: *holds = l == r; break;
    case ACL_RT_NOT_EQUAL: *holds = l != r; break;
    case ACL_RT_GREATER: *holds = l > r; break;
    case ACL_RT_GREATER_OR_EQUAL: *holds = l >= r; break;
    case ACL_RT_LESS: *holds = l < r; break;
    default: *holds = l <= r; break;
    }
    return true;
}

/* Slot i of the ext_run of the run going on (NULL if it has none). */
static const struct ext_slot *ext_slot(const struct model *m, uint64_t i)
{
    const struct ext_run *x = m->cur_ext;
    return x != NULL && i < x->n ? &x->slot[i] : NULL;
}

uint64_t replay_event_gen(const struct task *rt, const struct model *m, uint64_t run)
{
    const struct ext_slot *e;
    switch (rt->u.event.in_model) {
    case MEV_EDGE:
        return run;
    case MEV_EXT_WAIT: /* the newest record when the run was issued; 0 (none) passes */
        e = ext_slot(m, rt->u.event.gen);
        return e != NULL ? e->gen : 0;
    case MEV_EXT_RECORD:
        e = ext_slot(m, rt->u.event.gen);
        return e != NULL && e->rec != NULL ? e->rec->u.event.gen : 0;
    default:
        return rt->u.event.gen;
    }
}

void replay_ext_record(const struct model *m, const struct task *rt)
{
    const struct ext_slot *e = ext_slot(m, rt->u.event.gen);
    if (e != NULL && e->rec != NULL)
        event_record_done(e->rec, plat_now_ns()); /* the record issued with the run */
}

/* The rows of TASK_ACTIVE and TASK_SWITCH (kinds.c), in a model's run. */
enum run_result replay_activate(struct executor *x, struct stream *s, struct task *rt, const struct in_run *in,
                                aclError *err)
{
    (void)x, (void)s, (void)err;
    model_activate(in->m, rt->u.ctl.target, in->run);
    return RUN_DONE;
}

enum run_result replay_switch(struct executor *x, struct stream *s, struct task *rt, const struct in_run *in,
                              aclError *err)
{
    bool holds = false;
    (void)x, (void)s;
    if (!switch_read(rt, &holds)) { /* freed since it was recorded: the run fails, the lane goes on */
        LOGE("model %u: a switch's operands (%p, %p) are no longer device memory", in->m->hdr.index,
             rt->u.ctl.left, rt->u.ctl.right);
        *err = ACL_ERROR_RT_MODEL_EXECUTE;
        return RUN_DONE;
    }
    if (!holds)
        return RUN_DONE;
    model_activate(in->m, rt->u.ctl.target, in->run);
    return RUN_LANE_ENDS; /* the rest of this lane is skipped */
}

/* ---- labels and conditional tasks --------------------------------------------- */

/* A label switch (aclrtSwitchLabelByIndex) reached in lane l: the set of
 * the label its index names, to go on from. The index, read now, is
 * clamped to maxValue - 1, as the device does; one past the labels set in
 * the model, or a label set on no place of this lane, fails the run and
 * the lane goes on past the switch (NULL). */
static struct task *label_target(struct lane *l, const struct task *rt)
{
    struct model *m = l->m;
    uint32_t idx;
    struct task *to;
    if (!devmem_read_device(rt->u.label.ptr, &idx, sizeof(idx))) {
        LOGE("model %u: a label switch's index (%p) is not device memory", m->hdr.index, rt->u.label.ptr);
        model_note_error(m, ACL_ERROR_RT_MODEL_EXECUTE);
        return NULL;
    }
    if (idx >= rt->u.label.max)
        idx = rt->u.label.max > 0 ? rt->u.label.max - 1 : 0;
    /* Relaxed reads of nlabels: written while the model was built, which
     * the run's start published. */
    if (idx >= m->nlabels) {
        LOGE("model %u: a label switch's index %u is past the %u labels set in the model", m->hdr.index, idx,
             m->nlabels);
        model_note_error(m, ACL_ERROR_RT_MODEL_EXECUTE);
        return NULL;
    }
    to = label_find_set(l, rt->u.label.list, idx);
    if (to == NULL) {
        LOGE("model %u: label %u of the switch's list is not set on the switch's stream (aclcpu jumps within a "
             "stream only)", m->hdr.index, idx);
        model_note_error(m, ACL_ERROR_RT_MODEL_EXECUTE);
    }
    return to;
}

/* Starts run `run` of sub model sub (numbered by the caller) on its HEAD
 * lanes' runners. Runs of a sub model are serialised by its one
 * conditional task, which waits for each to end. */
static void start_sub_run(struct model *sub, uint64_t run)
{
    struct lane **lanes;
    uint32_t n;
    sub->prof_run_begin = 0;
    sub->prof_run_end = 0;
    sub->cur_ext = NULL; /* a sub model takes no external events (capture.c) */
    model_run_started(sub, run, &lanes, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (lanes[i]->flag != ACL_MODEL_STREAM_FLAG_HEAD)
            continue;
        lanes[i]->prof_after = 0;
        replay_start_lane(lanes[i], run);
    }
}

/* Waits (parks on park_on, or only looks without) for run sr of sub. */
static bool sub_run_ended(struct stream *park_on, struct model *sub, uint64_t sr)
{
    return park_on != NULL ? event_wait_gen_or_park(park_on, sub->done, sr, NULL) : event_passed(sub->done, sr);
}

/* A conditional task (aclmdlRIAddCondTask) reached in lane l of run: reads
 * the condition, runs the sub model it names and waits for that run's end
 * (a WHILE reads it again after each). False when it waits (parked, or
 * only looked at): played again, it goes on waiting for the same sub run,
 * which the task keeps in its record (a lane plays one task at a time). */
static bool play_cond(struct lane *l, struct task *rt, uint64_t run, struct stream *park_on)
{
    struct model *m = l->m;
    const struct cond *c = rt->u.cond.c;
    if (rt->u.cond.for_run != 0 && rt->u.cond.for_run != run) {
        /* An aborted run left its sub run going: it ends before another starts. */
        if (!sub_run_ended(park_on, rt->u.cond.sub, rt->u.cond.sub_run))
            return false;
        rt->u.cond.for_run = 0;
    }
    /* Relaxed: a request, as in play_lane. */
    while (load_relaxed(&m->aborted_run) != run) {
        aclError e;
        if (rt->u.cond.for_run == 0) {
            uint64_t v, sr;
            struct ext_run *x = NULL;
            struct model *sub;
            if (!devmem_read_device(c->word, &v, sizeof(v))) { /* freed by the user: the run fails */
                LOGE("model %u: a condition's word (%p) is no longer device memory", m->hdr.index, (void *)c->word);
                model_note_error(m, ACL_ERROR_RT_MODEL_EXECUTE);
                return true;
            }
            sub = cond_pick(c, v);
            if (sub == NULL || model_issue_run(sub, NULL, &sr, &x) != ACL_SUCCESS)
                return true; /* no branch, or a sub model never captured: nothing to run */
            model_ext_release(x); /* none: a sub model has no external events */
            rt->u.cond.sub = sub;
            rt->u.cond.sub_run = sr;
            rt->u.cond.for_run = run;
            start_sub_run(sub, sr);
        }
        if (!sub_run_ended(park_on, rt->u.cond.sub, rt->u.cond.sub_run))
            return false;
        rt->u.cond.for_run = 0;
        e = model_run_result(rt->u.cond.sub, rt->u.cond.sub_run);
        if (e != ACL_SUCCESS)
            model_note_error(m, e);
        if (c->type != ACL_MODEL_RI_COND_TYPE_WHILE)
            return true;
    }
    return true;
}

/* Runs one recorded task that cannot park (its kind's `play`, kinds.c; a
 * kind without one has nothing to do here). A failing kernel fails the
 * run. Returns false when the lane ends here (a switch that jumped). */
static bool play(struct executor *x, struct stream *s, struct model *m, struct task *rt, uint64_t run,
                 uint64_t *busy_ns)
{
    task_run_fn *play_fn = task_kind_of(rt)->play;
    struct in_run in = {m, run, busy_ns};
    aclError e = ACL_SUCCESS;
    enum run_result r;

    if (play_fn == NULL)
        return true;
    r = play_fn(x, s, rt, &in, &e);
    if (e != ACL_SUCCESS)
        model_note_error(m, e);
    return r != RUN_LANE_ENDS;
}

/* The record an event task of a profiled run made or took: the run
 * number for edges, else the event's newest done record (notifies, flags,
 * waits for the newest record) or the recorded number. */
static uint64_t profiled_gen(const struct task *rt, const struct model *m, uint64_t run)
{
    uint64_t g;
    if (!(task_kind_of(rt)->traits & KIND_EVENT))
        return 0;
    if (rt->u.event.in_model == MEV_EDGE || rt->u.event.in_model >= MEV_EXT_RECORD)
        return replay_event_gen(rt, m, run);
    g = rt->u.event.gen;
    if (rt->kind == TASK_NOTIFY_RECORD || rt->kind == TASK_NOTIFY_WAIT || g == GEN_LATEST || g == GEN_FLAG)
        return event_done_gen(rt->u.event.ev);
    return g;
}

/* Plays rt of a profiled or subscribed run; profiled, gives it an entry
 * after *last (a lane that rt activates comes after rt). */
static bool play_profiled(struct executor *x, struct lane *l, struct task *rt, uint64_t run, uint32_t *last)
{
    struct model *m = l->m;
    uint64_t busy = 0, t0 = plat_now_ns(), t1;
    uint32_t id;
    bool go_on;
    if ((rt->kind == TASK_ACTIVE || rt->kind == TASK_SWITCH) && m->prof_run_begin != 0) {
        id = profhook_lane_task(l->runner, rt, m->hdr.index, 0, *last, t0, t0, 0, engine_worker_index());
        *last = id != 0 ? id : *last;
        rt->u.ctl.target->prof_after = *last; /* published by the lane's push */
        return play(x, l->runner, m, rt, run, NULL);
    }
    go_on = play(x, l->runner, m, rt, run, rt->kind == TASK_KERNEL ? &busy : NULL);
    t1 = plat_now_ns();
    if (rt->kind == TASK_KERNEL && load_relaxed(&m->subscribed))
        profsub_kernel(m->hdr.index, (uint32_t)m->dev->id, rt->u.kernel.kf != NULL ? rt->u.kernel.kf->name : NULL,
                       t0, t1);
    if (m->prof_run_begin == 0)
        return go_on; /* subscribed, not profiled */
    id = profhook_lane_task(l->runner, rt, m->hdr.index, profiled_gen(rt, m, run), *last, t0, t1, busy,
                           engine_worker_index());
    *last = id != 0 ? id : *last;
    return go_on;
}

/* Plays lane l of run from rt on the calling executor. Returns the wait it
 * stopped at (not satisfied yet), or NULL when the lane ended. With lt
 * (the lane's task on its runner), the runner is parked on the
 * wait, and lt->u.lane.cur says where to go on before it is: once parked,
 * the runner may be released and taken by another executor at once.
 * Without, the wait is only looked at. *prof_last follows the lane's
 * profile entries. */
static struct task *play_lane(struct executor *x, struct lane *l, struct task *rt, uint64_t run, struct task *lt,
                              uint32_t *prof_last)
{
    struct stream *park_on = lt != NULL ? l->runner : NULL;
    struct model *m = l->m;
    /* Relaxed: a subscription made during a run may miss a kernel or two. */
    bool profiled = m->prof_run_begin != 0 || load_relaxed(&m->subscribed);
    /* Relaxed: aborted_run is a request; a lane that sees it a task late
     * only runs one task more. */
    while (rt != NULL && load_relaxed(&m->aborted_run) != run) {
        if (rt->kind == TASK_VALUE_WAIT) { /* parks the runner on the value, as below on an event (memtask.c) */
            if (lt != NULL)
                lt->u.lane.cur = rt;
            if (park_on != NULL ? !engine_value_wait_or_park(park_on, rt) : !engine_value_passed(rt))
                return rt;
        } else if (task_kind_of(rt)->traits & KIND_WAIT) {
            /* A notify's wait takes whatever record is there (a counting
             * notify's: its test, kept in gen). */
            uint64_t gen = rt->kind != TASK_NOTIFY_WAIT      ? replay_event_gen(rt, m, run)
                           : rt->u.event.ev->counting ? rt->u.event.gen
                                                      : 0,
                     t0 = plat_now_ns();
            if (lt != NULL)
                lt->u.lane.cur = rt;
            if (park_on != NULL ? !event_wait_gen_or_park(park_on, rt->u.event.ev, gen, NULL)
                                : !event_passed(rt->u.event.ev, gen))
                return rt;
            if (m->prof_run_begin != 0) {
                uint32_t id = profhook_lane_task(l->runner, rt, m->hdr.index, profiled_gen(rt, m, run), *prof_last,
                                                 t0, plat_now_ns(), 0, engine_worker_index());
                *prof_last = id != 0 ? id : *prof_last;
            }
        } else if (rt->kind == TASK_LABEL_SWITCH) {
            struct task *to = label_target(l, rt);
            if (to != NULL) {
                rt = to; /* on from the label's set */
                continue;
            }
        } else if (rt->kind == TASK_COND) {
            if (lt != NULL)
                lt->u.lane.cur = rt;
            if (!play_cond(l, rt, run, park_on))
                return rt;
        } else if (!(profiled ? play_profiled(x, l, rt, run, prof_last) : play(x, l->runner, m, rt, run, NULL))) {
            return NULL;
        }
        rt = task_next(rt);
    }
    return NULL;
}

enum run_result replay_lane_run(struct executor *x, struct stream *s, struct task *t, aclError *err)
{
    struct lane *l = t->u.lane.lane;
    struct task *rest;

    (void)s; /* s is l->runner */
    rest = play_lane(x, l, t->u.lane.cur, t->u.lane.run, t, &t->u.lane.prof_last);
    *err = ACL_SUCCESS; /* the run's failures are the run's, not the runner's */
    if (rest != NULL)
        return RUN_PARKED; /* t->u.lane.cur is the wait: it goes on from there when released */
    t->u.lane.lane = NULL; /* ended: its release must not end it again */
    lane_ended(l, t->u.lane.run, t->u.lane.prof_last);
    return RUN_DONE;
}

void replay_group_update(struct task *t)
{
    struct task_group *g = (struct task_group *)obj_resolve(t->u.update.grp, OBJ_TASKGRP);
    struct task *prev, *with = t->u.update.with;
    if (g == NULL)
        return; /* its model is gone: task_release drops the replacements */
    prev = g->before;
    for (uint32_t i = 0; i < g->count && with != NULL; i++) {
        struct task *old = task_next(prev), *next_new = task_next(with);
        task_set_next(with, task_next(old));
        task_set_next(prev, with);
        if (g->lane->tail == old)
            g->lane->tail = with;
        /* A run may still hold the old record: it lives until the model
         * goes (the graveyard). */
        plat_mutex_lock(&g->m->lock);
        task_set_next(old, g->m->graveyard);
        g->m->graveyard = old;
        plat_mutex_unlock(&g->m->lock);
        prev = with;
        with = next_new;
    }
    t->u.update.with = NULL;
}

void replay_abort(struct model *m)
{
    uint64_t run;
    plat_mutex_lock(&m->lock);
    run = m->started > m->completed ? m->started : 0;
    plat_mutex_unlock(&m->lock);
    if (run == 0)
        return; /* nothing runs */
    /* Relaxed: lanes poll it before each task (see replay_lane_run). */
    store_relaxed(&m->aborted_run, run);
    for (uint32_t i = 0; i < m->nlanes; i++) {
        struct stream *r = m->lanes[i]->runner;
        /* The running kernel starts no more blocks; a parked lane wakes to
         * see the abort. */
        fetch_add_relaxed(&r->abort_epoch, 1);
        engine_nudge(r);
    }
}
