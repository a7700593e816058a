/*
 * profhook.c - the runtime's side of the profiler. services/profile.c
 * knows no core or engine object: this file describes a task to it in a
 * struct prof_task (kind, stream, kernel name, blocks, limits, declared
 * cost, copy bytes and direction, event record) and keeps what comes back.
 *
 * It owns the profiler's fields in core objects: task->prof_id and
 * task->u.model.prof_end (set here at issue; read by the engine's hooks
 * and task_release), stream->prof_last (here, under s->lock). The engine
 * owns stream->prof_seq (the lane's player counts its lane tasks through
 * profhook_lane_task) and model->prof_run_begin/prof_run_end.
 *
 * Threads: issuing host threads (under the stream's lock), the executor
 * playing a lane, syncing host threads. Locks: s->lock (taken by
 * profhook_stream_last; held by the caller of profhook_issue_locked);
 * profile.c takes its own leaf lock inside.
 */
#include "profhook.h"
#include "model.h"

/* The profile numbers kinds and copy directions as core.h does. */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(PK_KERNEL, TASK_KERNEL) && SAME(PK_COPY, TASK_COPY) && SAME(PK_SET, TASK_SET) &&
                   SAME(PK_HOST_FUNC, TASK_HOST_FUNC) && SAME(PK_CALLBACK, TASK_CALLBACK) &&
                   SAME(PK_EVENT_RECORD, TASK_EVENT_RECORD) && SAME(PK_EVENT_WAIT, TASK_EVENT_WAIT) &&
                   SAME(PK_EVENT_RESET, TASK_EVENT_RESET) && SAME(PK_NOTIFY_RECORD, TASK_NOTIFY_RECORD) &&
                   SAME(PK_NOTIFY_WAIT, TASK_NOTIFY_WAIT) && SAME(PK_MODEL_RUN, TASK_MODEL_RUN) &&
                   SAME(PK_LANE_RUN, TASK_LANE_RUN) && SAME(PK_ACTIVE, TASK_ACTIVE) &&
                   SAME(PK_SWITCH, TASK_SWITCH) && SAME(PK_MODEL_END, TASK_MODEL_END) &&
                   SAME(PK_GROUP_UPDATE, TASK_GROUP_UPDATE) && SAME(PK_RUN_BEGIN, 32) && TASK_STEP < 32,
               "prof_kind numbers the task kinds as enum task_kind does");
_Static_assert(SAME(PCD_NONE, CD_NONE) && SAME(PCD_H2D, CD_H2D) && SAME(PCD_D2H, CD_D2H) &&
                   SAME(PCD_D2D, CD_D2D) && SAME(PCD_H2H, CD_H2H),
               "prof_copy_dir numbers enum copy_dir's");
#undef SAME

static bool is_event_task(uint8_t kind) { return kind >= TASK_EVENT_RECORD && kind <= TASK_NOTIFY_WAIT; }

static struct prof_event_key event_key(struct event *ev, uint64_t gen)
{
    /* Relaxed: the task (or the sync) holds the event; neither moves meanwhile. */
    return (struct prof_event_key){ev, load_relaxed(&ev->hdr.gen),
                                   load_relaxed(&ev->id), gen};
}

/* A kernel: cost is where its declared cost in force is copied to. */
static void describe_kernel(const struct task *t, struct prof_task *pt, aclcpuKernelCost *cost)
{
    const struct kfunc *kf = t->u.kernel.kf;
    pt->engine = t->u.kernel.engine;
    pt->sched = t->u.kernel.schedule_mode;
    pt->blocks = t->u.kernel.blocks;
    pt->limit[0] = t->u.kernel.core_limit[0];
    pt->limit[1] = t->u.kernel.core_limit[1];
    pt->args = task_kernel_args(t);
    pt->args_size = t->u.kernel.args_size;
    pt->object = kf;
    pt->name = NULL;
    pt->cost = NULL;
    if (kf == NULL)
        return;
    /* Relaxed: a launch holds a live kernel; its generation does not move. */
    pt->object_gen = load_relaxed(&kf->hdr.gen);
    pt->name = kf->name;
    if (kfunc_cost(kf, cost))
        pt->cost = cost;
}

/* What t tells the profile, but where it runs: the fields of its kind only
 * (the profiler reads no other; not clearing the rest saves the launch
 * path a dozen stores). */
static void describe(const struct task *t, struct prof_task *pt, aclcpuKernelCost *cost)
{
    pt->kind = t->kind;
    pt->model_id = UINT32_MAX;
    switch (t->kind) {
    case TASK_KERNEL: describe_kernel(t, pt, cost); break;
    case TASK_COPY: pt->bytes = t->u.copy.count, pt->copy_dir = t->u.copy.dir; break;
    case TASK_SET: pt->bytes = t->u.set.count; break;
    case TASK_MEM_PREFETCH: /* the modelled chip moves the pages as a copy of their bytes */
        pt->kind = PK_COPY;
        pt->bytes = t->u.prefetch.size;
        pt->copy_dir = t->u.prefetch.loc_type == ACL_MEM_LOCATIONTYPE_DEVICE ? CD_H2D : CD_D2H;
        break;
    /* The other memory tasks are costed as the copy or set they are. */
    case TASK_COPY2D:
        pt->kind = PK_COPY, pt->copy_dir = t->u.copy2d.dir;
        pt->bytes = (uint64_t)t->u.copy2d.width * t->u.copy2d.height;
        break;
    case TASK_COPY_DESC: pt->kind = PK_COPY, pt->copy_dir = CD_D2D, pt->bytes = t->u.copy_desc.count; break;
    case TASK_SET32: pt->kind = PK_SET, pt->bytes = (uint64_t)t->u.set32.n * sizeof(uint32_t); break;
    case TASK_VALUE_WRITE: case TASK_VALUE_WAIT: pt->kind = PK_SET, pt->bytes = sizeof(uint64_t); break;
    case TASK_REDUCE: /* a device-to-device copy that adds (or compares) on the way */
        pt->kind = PK_COPY, pt->copy_dir = CD_D2D;
        pt->bytes = (uint64_t)t->u.reduce.n * t->u.reduce.esize;
        break;
    case TASK_RANDOM: pt->kind = PK_SET; break; /* writes its results where it is told */
    case TASK_CMO:
        pt->kind = PK_CMO;
        pt->cmo_type = t->u.cmo.type;
        pt->addr = (uint64_t)(uintptr_t)t->u.cmo.addr;
        pt->bytes = t->u.cmo.size;
        break;
    case TASK_MARK: pt->kind = PK_MARK, pt->name = t->u.mark.msg; break;
    /* Model control flow: shown as the stream switches they are. */
    case TASK_LABEL_SET: case TASK_LABEL_SWITCH: case TASK_COND: pt->kind = PK_SWITCH; break;
    case TASK_STEP: pt->kind = t->u.step.end ? PK_STEP_END : PK_STEP_START, pt->step = t->u.step.index; break;
    case TASK_MODEL_RUN:
        pt->object = t->u.model.m;
        /* Relaxed: the run task holds its model. */
        pt->object_gen = load_relaxed(&t->u.model.m->hdr.gen);
        pt->model_id = t->u.model.m->hdr.index;
        break;
    default:
        if (is_event_task(t->kind))
            pt->ev = event_key(t->u.event.ev, t->u.event.gen);
        break;
    }
}

void profhook_issue_locked(struct stream *s, struct task *t)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct prof_task pt;
    aclcpuKernelCost cost;
    uint32_t run_end;
    if (ACLCPU_LIKELY(t->kind == TASK_KERNEL)) { /* the launch path: no switch */
        pt.kind = PK_KERNEL;
        pt.model_id = UINT32_MAX;
        describe_kernel(t, &pt, &cost);
    } else {
        describe(t, &pt, &cost);
    }
    pt.device = load_relaxed(&s->dev)->id;
    pt.stream_id = load_relaxed(&s->id);
    pt.task_id = (uint32_t)s->issued; /* s->lock held: stream_commit counted t just now */
    t->prof_id = prof_issue(&pt, &run_end);
    if (t->prof_id == 0)
        return;
    if (t->kind == TASK_MODEL_RUN)
        t->u.model.prof_end = run_end;
    s->prof_last = run_end != 0 ? run_end : t->prof_id;
}

uint32_t profhook_stream_last(struct stream *s)
{
    uint32_t id;
    plat_spin_lock(&s->lock);
    id = s->prof_last;
    plat_spin_unlock(&s->lock);
    return id;
}

uint32_t profhook_lane_task(struct stream *runner, const struct task *rt, uint32_t model_id, uint64_t gen,
                            uint32_t after, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns, int worker)
{
    struct prof_task pt;
    aclcpuKernelCost cost;
    uint32_t id;
    describe(rt, &pt, &cost);
    pt.device = load_relaxed(&runner->dev)->id;
    pt.stream_id = load_relaxed(&runner->id);
    pt.task_id = runner->prof_seq + 1; /* only the lane's player touches prof_seq */
    pt.model_id = model_id;
    if (is_event_task(rt->kind))
        pt.ev.gen = gen;
    id = prof_lane_task(&pt, after, start_ns, end_ns, busy_ns, worker);
    if (id != 0)
        runner->prof_seq++;
    return id;
}

void profhook_host_sync_event(const char *api, struct event *ev, uint64_t gen, uint64_t start_ns, uint64_t end_ns)
{
    struct prof_event_key key = event_key(ev, gen);
    prof_host_sync_event(api, &key, start_ns, end_ns);
}

void profhook_soc(int32_t device, struct prof_soc *out)
{
    struct device *d = device_get(device);
    const struct soc_profile *soc = d != NULL && d->soc != NULL ? d->soc : soc_configured();
    /* The two latencies can be set to what a user measured on the chip. */
    uint64_t dispatch_ns = config_u64_or(CFG_MODEL_DISPATCH_NS, soc->dispatch_ns);
    uint64_t event_ns = config_u64_or(CFG_MODEL_EVENT_NS, soc->event_ns);
    *out = (struct prof_soc){soc->name,      soc->cube_cores,      soc->vector_cores,   soc->l2_bytes,
                             soc->hbm_gbps,  soc->h2d_gbps,        soc->hbm_sat_cores, (double)dispatch_ns / 1e3,
                             (double)event_ns / 1e3};
}
