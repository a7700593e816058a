/*
 * engine.h - the scheduler: ready set, workers, task execution, host waits.
 *
 * A stream is a queue, not a thread. Each device has a fixed pool of
 * workers. A stream whose head can run sits in the ready set (one FIFO per
 * priority); a worker takes the best one and runs its tasks in order until
 * the stream empties, parks on an event, or must yield to a better stream.
 * A kernel's blocks are shared with idle workers. A thread that
 * synchronises on a stream may run that stream's work itself instead of
 * waiting for a worker to wake up.
 */
#ifndef ACLCPU_ENGINE_H
#define ACLCPU_ENGINE_H

#include "../core/core.h"

struct worker;

struct engine {
    plat_spin lock;                          /* ready lists, sleepers, shared */
    struct device *dev;
    struct list ready[ACLCPU_PRIORITIES];
    uint64_t ready_seq;
    /* Bit p set while ready[p] is non-empty. Written under lock; read
     * without it (relaxed) by spinning workers and yield checks, which
     * only use it as a hint and re-check under the lock. */
    _Atomic uint32_t ready_mask;
    struct list shared;                      /* kernels with blocks to claim */
    struct kernel_run *gang;                 /* the batch-mode kernel gathering its threads */
    _Atomic uint32_t shared_count;           /* hint, like ready_mask */
    _Atomic uint32_t join_seq;               /* bumped by a kernel's last helper; joining owners sleep on it */
    _Atomic int spinners;                    /* workers spinning for work */
    struct worker *sleepers;                 /* stack of parked workers */
    _Atomic int sleeper_count;               /* hint for wake decisions */
    struct worker *workers;
    unsigned nworkers;
    bool stopping;
    uint64_t spin_ns;                        /* worker spin before parking */
    uint64_t linger_ns;                      /* worker keeps an emptied stream (sched.c) */

    /* Host-function thread: runs aclrtLaunchHostFunc tasks met by workers. */
    plat_mutex hf_lock;
    plat_cond hf_cond;
    struct stream *hf_head, *hf_tail;        /* linked through park_next */
    bool hf_started, hf_stop;
    plat_thread hf_thread;

    uint64_t hang_timeout_ns;                /* ACLCPU_HANG_TIMEOUT_MS; 0 = never give up */

    /* Seeded schedules (ACLCPU_SCHED=random:<seed>, perturb.c): set at
     * engine_start, read-only after. picks counts the ready-stream picks,
     * under lock. */
    bool perturb;
    uint64_t perturb_seed;
    uint64_t perturb_picks;

    /* Watchdog: ends parked waits that outlive their timeout. Its lock is
     * a spinlock and its thread starts with the engine, since waits are
     * watched under the stream's and the event's spinlocks. */
    plat_spin wd_lock;                       /* timed, wd_stop, s->timed* */
    _Atomic uint32_t wd_seq;                 /* bumped at each change; the watchdog sleeps on it */
    struct list timed;                       /* streams, by timed_link */
    bool wd_started, wd_stop;
    plat_thread wd_thread;
};

/* Called with s->lock (and the event's lock) held: s parks on a wait with a
 * deadline; the watchdog (hang.c) makes it ready again when the deadline passes.
 * Takes only wd_lock (a spinlock) and wakes the watchdog: no allocation. */
void engine_watch_wait(struct stream *s, uint64_t deadline);
/* Takes s off the watchdog's list (its wait passed, or it is discarded). */
void engine_unwatch(struct stream *s);

/* Workers a device starts: ACLCPU_WORKERS, else the CPUs this process may
 * use; at most 256. */
unsigned engine_worker_count(void);
/* Percent of e's workers neither parked nor spinning for work at this
 * instant: an instantaneous sample, read without e->lock. */
int32_t engine_busy_percent(struct engine *e);
aclError engine_start(struct device *d);
void engine_stop(struct device *d);

/* Called with s->lock held: changes s's priority, also in the ready set. */
void engine_set_priority_locked(struct stream *s, uint32_t prio);

/* Called with s->lock held after a task was queued: makes an idle stream
 * ready. */
void engine_stream_kick(struct stream *s);

/* How a host sync of a stream (engine_wait_stream) ended. */
enum sync_result {
    SYNC_DONE,       /* every task issued before the sync is done; *task_err says how they went */
    SYNC_TIMED_OUT,  /* the deadline passed, or (SYNC_WATCH_HANGS) the hang timeout */
    SYNC_DESTROYED,  /* handle stopped naming s during the wait: another thread destroyed it */
    SYNC_STOPPED,    /* aclrtStreamStop stopped s */
};

/* engine_wait_stream flags. SYNC_WATCH_HANGS: an untimed wait watches for
 * hangs (hang.c): it warns when it is stuck, and ends SYNC_TIMED_OUT after
 * ACLCPU_HANG_TIMEOUT_MS (if set) without progress. */
enum { SYNC_WATCH_HANGS = 1 };

/* Host synchronisation (wait.c): waits for every task issued to s so far;
 * deadline_ns 0 = none. handle (if not NULL) is what the caller resolved:
 * a stream destroyed meanwhile ends the wait. On SYNC_DONE, *task_err gets
 * the first task error since the last sync (and clears it), or 107023 when
 * that work was aborted; otherwise ACL_SUCCESS. */
enum sync_result engine_wait_stream(struct stream *s, const void *handle, uint64_t deadline_ns, unsigned flags,
                                    aclError *task_err);

void engine_stream_killed(struct stream *s);
/* How long a teardown waits on a chain that is stuck and makes no progress
 * before it gives up on it (a plain destroy's grace). */
#define ENGINE_TEARDOWN_GRACE_NS 200000000ull
/* Teardown's wait for s's work (destroy, reset, finalize): as an untimed
 * sync, but false, with the wait-for chain in why, once the work has been
 * stuck for grace_ns (no progress, and the chain cannot move by itself:
 * hang.c). The caller then discards it. */
bool engine_wait_teardown(struct stream *s, uint64_t grace_ns, char *why, size_t cap);
/* True when every task issued to s so far has completed. */
bool engine_stream_idle(struct stream *s);
/* Waits for the newest record of ev issued so far (SYNC_DONE, SYNC_TIMED_OUT
 * or SYNC_DESTROYED); an untimed wait watches for hangs. */
enum sync_result engine_sync_event(struct event *ev, const void *handle, uint64_t deadline_ns);

/* Force-destroy support: drop every queued task of s and wait until the
 * running one (if any) ends. */
void engine_discard_stream(struct stream *s);
/* Destroy support, once s has no task left: waits until no executor holds
 * s (a worker may keep an empty stream for a moment, see sched.c). */
void engine_wait_unowned(struct stream *s);
/* aclrtStreamAbort: stops the running kernel at its next block, drops the
 * queue (and what is issued meanwhile), makes syncs of that work return
 * 107023, and clears a stop. */
void engine_abort_stream(struct stream *s);

/* aclrtStreamStop: the running kernel starts no more blocks, nothing more
 * of the queue runs (it is kept), syncs of s return 507000 and new tasks
 * are refused, until an abort clears it or s is destroyed. Returns once
 * the running task has ended. False if handle no longer names s. */
bool engine_stop_stream(struct stream *s, const void *handle);

/* Hang reports (hang.c): write into buf what holds s (or ev's newest
 * record) up: "stream 3 waits on event 5 (record #2; ...), recorded on
 * stream 2, which was stopped by aclrtStreamStop ..." (with subject false
 * it starts "stream 3, which waits ..."). True when the chain ends in
 * something that cannot move on by itself (a stopped or PERSISTENT stream,
 * a cycle of waits). */
bool engine_explain(struct stream *s, bool subject, char *buf, size_t cap);
/* The same for a teardown, which also calls stuck a wait on an IPC notify
 * or event (only another process could end it, and this one is going). */
bool engine_explain_teardown(struct stream *s, char *buf, size_t cap);
bool engine_explain_event(struct event *ev, char *buf, size_t cap);

/* Completes discarded tasks (their records, so nothing waits on them) and
 * frees them; called without locks. */
void engine_discard_chain(struct stream *s, struct task *chain);

/* Makes a parked stream ready at once, its wait unfinished: its head task
 * runs again and looks for itself (aclmdlRIAbort). */
void engine_nudge(struct stream *s);

/* A write the runtime made to [addr, addr+len) (a task, or a synchronous
 * copy or fill): releases the value waits on it that now pass (memtask.c). */
void engine_value_written(const void *addr, size_t len);

/* Makes a parked stream ready again (used by event completion). */
void engine_unpark(struct stream *s);
/* Completes the head task of s, owned by the caller, and lets the stream go
 * back to the ready set (host-function thread, report processing). */
void engine_finish_handed_off(struct stream *s, aclError err);

/* Executes a kernel's blocks on the calling thread (and idle workers);
 * returns the kernel's error. Used by the executor. */
aclError engine_run_kernel(struct engine *e, struct stream *s, struct task *t, uint64_t *busy_ns);
/* The calling worker's index, or -1 on a host thread. */
int engine_worker_index(void);

/* Kernel-side context (aclcpuGetBlockIdx...), kept per thread. */
struct block_ctx {
    uint32_t idx, num;
    void *trap_jmp;              /* jmp_buf of the running block */
    bool overflow;
};
extern _Thread_local struct block_ctx *tls_block ACLCPU_TLS_HOT;
/* The platform's fault hook (plat_vm_fault_hook): longjmps out of the
 * running kernel block (any fault) or memory task (one in device memory),
 * which then fails; returns if neither runs on this thread. */
void engine_fault(void *addr, bool device_memory);

/* ---- model runs (replay.c) ----------------------------------------------- */

struct lane;
struct model;
/* Pushes the run's first task onto a lane's runner. */
void replay_start_lane(struct lane *l, uint64_t run);
/* aclmdlRIAbort: stops the run under way at its next task or block. */
void replay_abort(struct model *m);

/* ---- callbacks to subscribed threads (report.c) ----------------------------- */

/* Callbacks (aclrtSubscribeReport) and host functions (aclrtSubscribeHostFunc). */
enum report_kind { REPORT_CALLBACK, REPORT_HOSTFUNC };

aclError report_subscribe(uint64_t thread, struct stream *s, enum report_kind kind);
aclError report_unsubscribe(uint64_t thread, struct stream *s, enum report_kind kind);
bool report_is_subscribed(struct stream *s, enum report_kind kind);
aclError report_process(int32_t timeout_ms, enum report_kind kind);

/* ---- exception information (exception.c) ---------------------------------- */

/* What a failing task tells the exception callbacks (aclrtExceptionInfo is
 * this type, opaque to the user; the getters of api_errinfo.c read it). It
 * lives on the stack of the thread that ran the task, for the callbacks'
 * duration. */
struct rtExceptionInfo {
    uint32_t taskid;   /* the task's number on its stream (from 0, in issue order) */
    uint32_t streamid;
    uint32_t tid;      /* the kernel's id of the thread that issued the task */
    uint32_t deviceid;
    uint32_t retcode;  /* the task's ACL code */
    bool kernel;       /* a kernel failed: the fields below are set */
    void *args;        /* its argument bytes */
    uint32_t args_len;
    void *func;        /* its function handle */
};

/* The process's exception callbacks: the one aclrtSetExceptionInfoCallback
 * sets (NULL clears it), and those registered (a second registration of
 * one is a no-op; unregistering one not registered too). */
void engine_exc_set_legacy(aclrtExceptionInfoCallback cb);
aclError engine_exc_register(const char *fn, aclrtExceptionInfoCallback cb);
void engine_exc_unregister(aclrtExceptionInfoCallback cb);
/* A binary's callback for its failing kernels (binary_set_exc_callback). */
void engine_exc_set_binary(struct binary *b, aclrtOpExceptionCallback cb, void *user);

#endif
