/*
 * engine_int.h - what the engine's own files share: workers, executors and
 * the record of a kernel whose blocks are being shared.
 */
#ifndef ACLCPU_ENGINE_INT_H
#define ACLCPU_ENGINE_INT_H

#include "../core/squeue.h"
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

/* How running a task went: done (complete it), parked on an event or
 * handed to another thread (it stays at the head of its stream), or, in a
 * model's run, done and the rest of the lane skipped (a switch that
 * jumped). */
enum run_result { RUN_DONE, RUN_PARKED, RUN_HANDED_OFF, RUN_LANE_ENDS };

/* Where a model's run plays a recorded task. */
struct in_run {
    struct model *m;
    uint64_t run;
    uint64_t *busy_ns;             /* profiled: a kernel's block time goes here (NULL: not timed) */
};

/* Runs task t: at the head of stream s, which x owns (in NULL), or,
 * recorded, in a model's run (in), on the lane's runner s. *err gets the
 * task's failure (left as it is on success). */
typedef enum run_result task_run_fn(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                    aclError *err);

/* What a kind of task is: KIND_EVENT, its u.event is filled; KIND_WAIT, it
 * waits for an event's record (and may park). */
enum { KIND_EVENT = 1, KIND_WAIT = 2 };

/* One kind of task (kinds.c): how it runs on its stream (NULL: it is never
 * queued on one) and in a model's run (NULL: nothing to do there). */
struct task_kind_ops {
    task_run_fn *run;
    task_run_fn *play;
    uint8_t traits;
};

extern const struct task_kind_ops engine_task_kinds[TASK_KIND_END];

static inline const struct task_kind_ops *task_kind_of(const struct task *t)
{
    return &engine_task_kinds[t->kind < TASK_KIND_END ? t->kind : 0]; /* 0: no kind, an empty row */
}

struct kernel_run {
    struct list link;              /* in eng->shared, under eng->lock */
    bool listed;                   /* under eng->lock */
    struct task *task;
    uint32_t blocks;
    uint32_t priority;
    /* Block indices are claimed with relaxed fetch_add: each index goes to
     * exactly one thread, and the kernel's writes are published by the
     * helpers' release decrement of `helpers` (see engine_run_kernel).
     * 64 bits: claims past the end (and a skip's jump to it) never wrap
     * back to block 0, whatever the block count. */
    _Atomic uint64_t next;
    /* Helpers inside the kernel (the owner joins on the engine's join_seq). */
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

/* exception.c: whether any exception callback is set (relaxed: a callback
 * registered before a launch is seen by the task's executor, which
 * acquired the task after the registering thread issued it), and the
 * calls of them for a task t of s that failed with err. Called with no
 * lock held, before t counts as done. */
extern _Atomic bool engine_exc_armed;
void engine_exc_notify(struct stream *s, const struct task *t, aclError err);

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
/* Called with s->lock held after queueing (or after a parked stream was
 * set IDLE): makes an idle stream ready; returns a worker to wake once the
 * caller has dropped the lock. */
struct worker *engine_kick_locked(struct stream *s);
/* Called with s->lock held: unlinks a READY stream from the ready set. */
bool engine_unready_locked(struct stream *s);
void engine_hostfunc_post(struct engine *e, struct stream *s);

/* kinds.c: runs the task at the head of s, which x owns. */
enum run_result exec_task(struct executor *x, struct stream *s, struct task *t, aclError *err);

/* exec.c */
task_run_fn engine_kernel_task;
void engine_help_kernel(struct engine *e, struct kernel_run *k);

/* replay.c: what kinds.c needs of it */
task_run_fn replay_activate, replay_switch;
/* The generation a recorded event task of m stands for in run. */
uint64_t replay_event_gen(const struct task *rt, const struct model *m, uint64_t run);
/* A lane plays an external record (MEV_EXT_RECORD) of the run going on:
 * the record issued with the run is reached. */
void replay_ext_record(const struct model *m, const struct task *rt);

/* complete.c: the owner's end of a stream */
/* Called with s->lock held, s PARKED: takes s off its event's waiter list. */
void engine_unlink_parked_locked(struct stream *s);
/* The task to run is squeue_next(s). engine_owner_has_task is true when
 * there is one. Otherwise - nothing queued, a force destroy or abort wants
 * the queue dropped, or aclrtStreamStop stopped the stream (its queue is
 * kept) - the stream goes idle and the caller no longer owns it. */
bool engine_owner_has_task(struct stream *s);
/* Completes the owner's current task (squeue_next): publishes the
 * progress and, in STOP mode after a failure, drops the rest. The caller
 * still owns the stream. */
void engine_complete_current(struct stream *s, aclError err);
/* Gives an owned stream that still has tasks back to the ready set, drops
 * its queue if a force destroy asked for that meanwhile, or halts it if
 * aclrtStreamStop stopped it. The caller no longer owns it. */
void engine_give_back(struct stream *s);
/* Called with s->lock held and nothing queued behind head: everything
 * issued is done (or was discarded) and s has no owner any more (IDLE).
 * Returns the old dummy record for the caller to task_free once it has
 * dropped the lock (NULL: it was the stub). */
struct task *engine_go_idle_locked(struct stream *s);
/* Called with s->lock held by the owner of a stream that aclrtStreamStop
 * stopped, with tasks still queued: gives the stream up with its queue
 * kept (done stays below issued: that work never ran) and wakes the
 * aclrtStreamStop waiting for the running task to end. */
void engine_halt_locked(struct stream *s);

/* wait.c */
/* How a host thread waits: may it run the stream's work itself, does
 * aclrtStreamStop end the wait (it does for syncs, not for a discard), and
 * does it watch for hangs (untimed syncs). */
enum { WAIT_MAY_RUN = 1, WAIT_STOP_ENDS = 2, WAIT_WATCH_HANGS = 4 };
/* Waits until s has done target tasks (deadline 0: none). */
enum sync_result engine_wait_done(struct stream *s, const void *handle, uint64_t target, uint64_t deadline,
                                  unsigned how);

/* hang.c: the hang watch of an untimed sync that sleeps */
#define HANG_CHECK_NS 1000000000ull /* how often it looks */
struct hang_watch {
    uint64_t last_done, since, next_check;
    uint64_t limit;          /* the engine's hang timeout, read while the object was known alive */
    bool warned;
};
void hang_watch_start(struct hang_watch *w, struct stream *s);
/* When the next look is due: the sleep deadline of a watched wait. */
uint64_t hang_watch_deadline(const struct hang_watch *w);
/* A look at s (or ev, whose newest done record is done): true when the
 * wait should give up (no progress, stuck, and past the hang timeout).
 * Called without locks. */
bool hang_watch_check(struct hang_watch *w, struct stream *s);
bool hang_watch_check_event(struct hang_watch *w, struct event *ev, uint64_t done);
/* hang.c: the watchdog's part of engine_start and engine_stop. */
void engine_watchdog_init(struct engine *e);
/* Starts the watchdog thread (false if it could not be made). */
bool engine_watchdog_start(struct engine *e);
void engine_watchdog_stop(struct engine *e);

/* builtin.c: the built-in tasks (aclrtReduceAsync, aclrtRandomNumAsync). */
task_run_fn engine_run_reduce, engine_run_random;
/* memtask.c: the memory tasks beyond a plain copy and memset, and value waits. */
task_run_fn engine_run_copy2d, engine_run_copy_desc, engine_run_set32, engine_run_value_write,
    engine_run_value_wait;
/* Runs op(arg), a memory task's work: false, with the fault logged, if it
 * faulted in device address space (the task then fails with 507013). */
bool engine_mem_guarded(void (*op)(void *arg), void *arg, const char *what);
bool engine_guarded_move(void *dst, const void *src, size_t n, const char *what);
bool engine_guarded_set(void *dst, int value, size_t n);
/* From engine_fault: longjmps out of the memory task running on this
 * thread, if one is. */
void engine_mem_fault(void *addr);
/* Parks s on value wait w unless it passes (true); with s->lock taken inside. */
bool engine_value_wait_or_park(struct stream *s, const struct task *w);
bool engine_value_passed(const struct task *w);
/* Called with s->lock held, s PARKED on a value: takes it off the list. */
void engine_value_unlink_locked(struct stream *s);
/* Called with s->lock held by the watchdog at a value wait's poll time:
 * makes s ready if its value passes (a worker to wake), else looks again later. */
struct worker *engine_value_poll_locked(struct stream *s, uint64_t now);
/* Called with s->lock held: what s's value wait waits for, for a hang report. */
void engine_value_explain_locked(struct stream *s, const char *which, char *buf, size_t cap);

/* report.c: posts a callback task to its stream's subscribed thread. */
enum run_result report_post(struct stream *s, struct task *t);
/* A force destroy or an abort of s (its `discard` set): drops the BLOCK
 * callbacks and host functions posted for s that no thread has taken yet,
 * completing the heads they held. One being run is left to finish. */
void report_discard_stream(struct stream *s);
/* True while a queue holds an item of s not yet taken by its thread (a
 * BLOCK callback or host function that s waits on). Takes report_lock. */
bool report_holds_stream(struct stream *s);

/* replay.c: executors of the model task kinds (kinds.c dispatches to them). */
enum run_result replay_model_run(struct executor *x, struct stream *s, struct task *t, aclError *err);
enum run_result replay_lane_run(struct executor *x, struct stream *s, struct task *t, aclError *err);
void replay_group_update(struct task *t);

/* ---- perturb.c: seeded schedules (ACLCPU_SCHED) ---- */

/* "random:<seed>" (decimal) -> true and *seed; anything else false. */
bool perturb_parse(const char *text, uint64_t *seed);
/* Reads ACLCPU_SCHED into e (engine_start). */
void perturb_configure(struct engine *e);
/* Delays the task seq (1-based, in its stream) of s as the seed says. */
void perturb_task(const struct engine *e, const struct stream *s, uint64_t seq);
/* Called with e->lock held: which of n ready streams to take. */
uint32_t perturb_pick(struct engine *e, uint32_t n);

#endif
