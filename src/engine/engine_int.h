/*
 * engine_int.h - what the engine's own files share: workers, executors and
 * the record of a kernel whose blocks are being shared.
 */
#ifndef ACLCPU_ENGINE_INT_H
#define ACLCPU_ENGINE_INT_H

#include "engine.h"

struct worker {
    struct engine *eng;
    plat_thread thread;
    /* 1 while parked. The waker stores 0 (release) after taking the worker
     * off the sleeper stack; the worker loads it (acquire) in its futex loop. */
    _Atomic uint32_t sleep_word;
    struct worker *next_sleeper;   /* under eng->lock */
    unsigned index;
};

/* Who is running a stream right now, and until when. */
struct executor {
    struct engine *eng;
    struct worker *worker;         /* NULL when a synchronising host thread runs */
    uint64_t until_seq;            /* a host stops once done >= until_seq */
};

enum run_result { RUN_DONE, RUN_PARKED, RUN_HANDED_OFF };

struct kernel_run {
    struct list link;              /* in eng->shared, under eng->lock */
    bool listed;                   /* under eng->lock */
    struct task *task;
    uint32_t blocks;
    uint32_t priority;
    /* Block indices are claimed with relaxed fetch_add: each index goes to
     * exactly one thread, and the kernel's writes are published by the
     * helpers' release decrement of `helpers` (see engine_run_kernel). */
    _Atomic uint32_t next;
    /* Helpers inside the kernel; also the futex the owner joins on. */
    _Atomic uint32_t helpers;
    /* Relaxed: read by the owner after the join (whose acquire orders
     * them) or by other blocks only as a hint to skip work. */
    _Atomic int error;             /* first block error; later blocks skip */
    _Atomic bool overflow;
    /* The stream's abort counter and its value when the kernel started:
     * an aclrtStreamAbort in between stops the kernel at the next block. */
    _Atomic uint32_t *abort_epoch;
    uint32_t epoch;
    uint64_t deadline_ns;          /* TIMEOUT launch attribute: blocks not started by then are skipped */
    /* Batch schedule mode: the kernel starts only once `gang` threads (the
     * owner and gang - 1 helpers, one per block) are inside; then the
     * owner stores go (release, paired with the helpers' acquire load) and
     * each runs one block. 0 = normal mode. */
    uint32_t gang;
    _Atomic uint32_t go;
    /* Profiled: every block adds its time (relaxed; the owner reads the
     * sum after the join, whose acquire orders the adds). */
    bool timed;
    _Atomic uint64_t busy_ns;
};

extern _Thread_local struct worker *tls_worker ACLCPU_TLS_HOT;

/* sched.c */
void engine_run_stream(struct executor *x, struct stream *s);
/* Called with eng->lock held: pops a sleeping worker to wake, or NULL. */
struct worker *engine_pick_sleeper(struct engine *e);
void engine_wake(struct worker *w);
/* Wakes a parked worker if work is waiting and nobody is spinning for it;
 * an executor calls this before a task that may run long. */
void engine_offer_help(struct engine *e);
/* Called with s->lock held, s RUNNING: puts s back in the ready set and
 * returns a worker to wake (or NULL). */
struct worker *engine_requeue_locked(struct stream *s);
/* Called with s->lock held: unlinks a READY stream from the ready set. */
bool engine_unready_locked(struct stream *s);
void engine_hostfunc_post(struct engine *e, struct stream *s);

/* exec.c */
enum run_result exec_task(struct executor *x, struct stream *s, struct task *t, aclError *err);
void engine_help_kernel(struct engine *e, struct kernel_run *k);

/* sync.c */
/* Called with s->lock held, s PARKED: takes s off its event's waiter list. */
void engine_unlink_parked_locked(struct stream *s);
/* Owner side of a stream (sync.c); the task to run is stream_next_task(s).
 * engine_owner_has_task is true when there is one. Otherwise - nothing
 * queued, a force destroy or abort wants the queue dropped, or
 * aclrtStreamStop stopped the stream (its queue is kept) - the stream goes
 * idle and the caller no longer owns it. */
bool engine_owner_has_task(struct stream *s);
/* Completes the owner's current task (stream_next_task): publishes the
 * progress and, in STOP mode after a failure, drops the rest. The caller
 * still owns the stream. */
void engine_complete_current(struct stream *s, aclError err);
/* Called with s->lock held by whoever holds the consumer end (the owner,
 * or a thread holding a stream that has none): unlinks every task after
 * node `after` and returns them as a chain for engine_discard_chain (run
 * without locks). */
struct task *engine_detach_after_locked(struct stream *s, struct qnode *after);
/* Called with s->lock held and nothing queued behind head: everything
 * issued is done (or was discarded) and s has no owner any more. Points
 * the queue back at the stub and returns the old dummy record for the
 * caller to task_free once it has dropped the lock (NULL: it was the stub). */
struct task *engine_go_idle_locked(struct stream *s);
/* Called with s->lock held by the owner of a stream that aclrtStreamStop
 * stopped, with tasks still queued: gives the stream up with its queue
 * kept (done stays below issued: that work never ran) and wakes the
 * aclrtStreamStop waiting for the running task to end. */
void engine_halt_locked(struct stream *s);

/* report.c: posts a callback task to its stream's subscribed thread. */
enum run_result report_post(struct stream *s, struct task *t);

/* replay.c: executors of the model task kinds (exec.c dispatches to them). */
enum run_result replay_model_run(struct executor *x, struct stream *s, struct task *t, aclError *err);
enum run_result replay_lane_run(struct executor *x, struct stream *s, struct task *t, aclError *err);
void replay_group_update(struct task *t);

#endif
