/*
 * profhook.h - the runtime's side of the profiler: describes tasks, events
 * and SoCs to services/profile.c in its plain data, and keeps the ids the
 * runtime needs back (task->prof_id, the run's end, the stream's newest).
 */
#ifndef ACLCPU_PROFHOOK_H
#define ACLCPU_PROFHOOK_H

#include "../services/profile.h"
#include "core.h"

/* Called with s->lock held when stream_commit queues eager task t: gives
 * it a profile entry (t->prof_id) when a profile runs. */
void profhook_issue_locked(struct stream *s, struct task *t);
/* The newest entry issued to s (stream syncs wait for it), or 0. */
uint32_t profhook_stream_last(struct stream *s);
/* A lane task rt of a profiled run of model model_id, played on runner by
 * worker after entry `after`; gen is the record an event task made or
 * took. Returns its entry, or 0. The lane's player only. */
uint32_t profhook_lane_task(struct stream *runner, const struct task *rt, uint32_t model_id, uint64_t gen,
                            uint32_t after, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns, int worker);
/* A host sync on the record gen of ev came back. */
void profhook_host_sync_event(const char *api, struct event *ev, uint64_t gen, uint64_t start_ns, uint64_t end_ns);
/* The SoC a profile of device models: the device's, or the one it will
 * get when it opens. */
void profhook_soc(int32_t device, struct prof_soc *out);

/* A profiled model run's end entry (else 0): what prof_task_ended and
 * prof_task_released are told with its begin. */
static inline uint32_t profhook_run_end(const struct task *t)
{
    return t->kind == TASK_MODEL_RUN ? t->u.model.prof_end : 0;
}

#endif
