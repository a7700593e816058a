/*
 * kinds.c - what each kind of task does when it runs: one table, indexed by
 * enum task_kind, used by the executor (a task at the head of its stream,
 * exec_task) and by the replay (a task recorded in a model, replay.c).
 *
 * DESIGN: a kind has up to two entries, `run` on its stream and `play` in a
 * model's run, of one signature, so that a kind that does the same in both
 * (a kernel, a copy, a memset, a reset) names one function twice, and one
 * that differs says how in one place (a host function is handed to the
 * host-function thread on a stream, run in place in a model; an event
 * record completes the record the task made, or the run's). A kind without
 * `run` is never queued on a stream (a stream that met one fails with
 * 507000); a kind without `play` has nothing to do in a model. A new kind
 * is one row here, plus what its record holds (task_release, core/task.c)
 * and what the profile makes of it.
 *
 * Threads: executors (workers, synchronising hosts, the host-function
 * thread). Locks: none held while a task runs.
 */
#include <string.h>

#include "../core/check.h"
#include "../core/model.h"
#include "../core/profhook.h"
#include "../services/hostmem.h"
#include "engine_int.h"

static enum run_result run_nothing(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                   aclError *err)
{
    (void)x, (void)s, (void)t, (void)in, (void)err;
    return RUN_DONE;
}

static enum run_result run_copy(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                aclError *err)
{
    (void)x, (void)s, (void)in;
    if (!engine_guarded_move(t->u.copy.dst, t->u.copy.src, t->u.copy.count, "copy")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(t->u.copy.dst, t->u.copy.count); /* a value wait on it may pass now (memtask.c) */
    return RUN_DONE;
}

/* Managed pages move to the location (services/hostmem.c records it). */
static enum run_result run_prefetch(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                    aclError *err)
{
    (void)x, (void)s, (void)in, (void)err;
    managed_prefetched(t->u.prefetch.ptr, t->u.prefetch.size,
                       (struct managed_loc){t->u.prefetch.loc_type, t->u.prefetch.loc_id});
    return RUN_DONE;
}

static enum run_result run_pool_free(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                     aclError *err)
{
    (void)x, (void)s, (void)in, (void)err;
    t->u.pool_free.ran = true;
    return RUN_DONE;
}

static enum run_result run_set(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                               aclError *err)
{
    (void)x, (void)s, (void)in;
    if (!engine_guarded_set(t->u.set.dst, t->u.set.value, t->u.set.count)) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(t->u.set.dst, t->u.set.count);
    return RUN_DONE;
}

/* A worker hands a host function to the host-function thread (sched.c),
 * so that a slow or blocking callback never holds a device worker; a
 * synchronising host thread runs it itself, and so does the executor of a
 * model's run (a model has no host-function thread). On a stream with an
 * aclrtSubscribeHostFunc thread, that thread runs it (report.c). */
static enum run_result run_host_func(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                     aclError *err)
{
    (void)err;
    if (in == NULL && t->u.host.to_subscriber) /* aclrtSubscribeHostFunc: that thread runs it (report.c) */
        return report_post(s, t);
    if (in == NULL && x->worker != NULL) {
        engine_hostfunc_post(x->eng, s);
        return RUN_HANDED_OFF;
    }
    CHECK_TASK_CODE(t->u.host.fn(t->u.host.arg));
    return RUN_DONE;
}

static enum run_result run_callback(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                    aclError *err)
{
    (void)x, (void)in, (void)err;
    return report_post(s, t);
}

/* On a stream: the record the task made. In a model's run: the run's
 * record of an edge event, the newest of a notify, or the recorded one. */
static enum run_result run_record(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                  aclError *err)
{
    (void)x, (void)s, (void)err;
    if (in == NULL)
        event_record_done(t, plat_now_ns());
    else if (t->u.event.in_model == MEV_EXT_RECORD)
        replay_ext_record(in->m, t);
    else if (t->kind == TASK_NOTIFY_RECORD)
        event_notify_played(t, plat_now_ns());
    else
        event_reach(t->u.event.ev, replay_event_gen(t, in->m, in->run), plat_now_ns());
    return RUN_DONE;
}

/* On a stream only: a model's run plays its waits itself, parking the
 * lane's runner where the lane got to (replay.c, play_lane). */
static enum run_result run_wait(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                aclError *err)
{
    (void)x, (void)in;
    if (t->u.event.timed_out) { /* the watchdog ended it: the wait fails */
        *err = ACL_ERROR_RT_WAIT_TIMEOUT;
        return RUN_DONE;
    }
    return event_wait_or_park(s, t) ? RUN_DONE : RUN_PARKED;
}

static enum run_result run_reset(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                 aclError *err)
{
    (void)x, (void)s, (void)in, (void)err;
    event_reset_done(t);
    return RUN_DONE;
}

static enum run_result run_model_run(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                     aclError *err)
{
    (void)in;
    return replay_model_run(x, s, t, err);
}

static enum run_result run_lane_run(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                    aclError *err)
{
    (void)in;
    return replay_lane_run(x, s, t, err);
}

static enum run_result run_group_update(struct executor *x, struct stream *s, struct task *t,
                                        const struct in_run *in, aclError *err)
{
    (void)x, (void)s, (void)in, (void)err;
    replay_group_update(t);
    return RUN_DONE;
}

const struct task_kind_ops engine_task_kinds[TASK_KIND_END] = {
    /*                       on its stream      in a model's run    what it is */
    [TASK_KERNEL]        = {engine_kernel_task, engine_kernel_task, 0},
    [TASK_COPY]          = {run_copy,           run_copy,           0},
    [TASK_SET]           = {run_set,            run_set,            0},
    [TASK_HOST_FUNC]     = {run_host_func,      run_host_func,      0},
    [TASK_CALLBACK]      = {run_callback,       NULL,               0},
    [TASK_EVENT_RECORD]  = {run_record,         run_record,         KIND_EVENT},
    [TASK_EVENT_WAIT]    = {run_wait,           NULL,               KIND_EVENT | KIND_WAIT},
    [TASK_EVENT_RESET]   = {run_reset,          run_reset,          KIND_EVENT},
    [TASK_NOTIFY_RECORD] = {run_record,         run_record,         KIND_EVENT},
    [TASK_NOTIFY_WAIT]   = {run_wait,           NULL,               KIND_EVENT | KIND_WAIT},
    [TASK_MODEL_RUN]     = {run_model_run,      NULL,               0},
    [TASK_LANE_RUN]      = {run_lane_run,       NULL,               0},
    [TASK_ACTIVE]        = {NULL,               replay_activate,    0},
    [TASK_SWITCH]        = {NULL,               replay_switch,      0},
    [TASK_MODEL_END]     = {NULL,               run_nothing,        0}, /* the end of the model's work */
    [TASK_GROUP_UPDATE]  = {run_group_update,   NULL,               0},
    /* Coherent host memory: no cache to maintain. */
    [TASK_CMO]           = {run_nothing,        NULL,               0},
    /* Markers and steps only show in the profile. */
    [TASK_MARK]          = {run_nothing,        NULL,               0},
    [TASK_STEP]          = {run_nothing,        NULL,               0},
    [TASK_MEM_PREFETCH]  = {run_prefetch,       run_prefetch,       0},
    /* The block goes back when the task is released (core/task.c). */
    [TASK_POOL_FREE]     = {run_pool_free,      NULL,               0},
    /* More memory tasks (memtask.c). A value wait in a model's run is played
     * by the lane, as event waits are (replay.c). */
    [TASK_COPY2D]        = {engine_run_copy2d,      engine_run_copy2d,      0},
    [TASK_COPY_DESC]     = {engine_run_copy_desc,   engine_run_copy_desc,   0},
    [TASK_SET32]         = {engine_run_set32,       engine_run_set32,       0},
    [TASK_VALUE_WRITE]   = {engine_run_value_write, engine_run_value_write, 0},
    [TASK_VALUE_WAIT]    = {engine_run_value_wait,  NULL,                   0},
    /* Model control flow: only ever in a model. A label's set marks a place;
     * a label switch and a conditional task are played by the lane itself
     * (replay.c play_lane), as they move it or park it. */
    [TASK_LABEL_SET]     = {NULL,               run_nothing,        0},
    [TASK_LABEL_SWITCH]  = {NULL,               NULL,               0},
    [TASK_COND]          = {NULL,               NULL,               0},
    /* Built-in tasks (builtin.c). */
    [TASK_REDUCE]        = {engine_run_reduce,      engine_run_reduce,      0},
    [TASK_RANDOM]        = {engine_run_random,      engine_run_random,      0},
};

enum run_result exec_task(struct executor *x, struct stream *s, struct task *t, aclError *err)
{
    task_run_fn *run = task_kind_of(t)->run;
    if (ACLCPU_UNLIKELY(t->prof_id != 0))
        prof_task_started(t->prof_id, engine_worker_index());
    if (ACLCPU_UNLIKELY(run == NULL)) {
        *err = ACL_ERROR_RT_INTERNAL_ERROR;
        return RUN_DONE;
    }
    return run(x, s, t, NULL, err);
}
