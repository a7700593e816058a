/*
 * core.h - the runtime's objects: SoC profile, device, context, stream,
 * task, event, kernel function and binary.
 *
 * Lock order (outer to inner), for every file that takes more than one:
 *
 *     context->lock  >  stream->lock  >  event->lock  >  engine->lock
 *
 * device->lock and the handle-table locks are leaves taken alone. A
 * completer that must touch a stream after an event (an event record that
 * releases parked streams) drops the event lock first.
 */
#ifndef ACLCPU_CORE_H
#define ACLCPU_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "aclcpu/aclcpu.h"
#include "handle.h"

#define ACLCPU_MAX_DEVICES 16
#define ACLCPU_PRIORITIES 8 /* 0 highest .. 7 lowest */

/* ---- SoC profiles (soc.c) ------------------------------------------------ */

enum soc_family { SOC_A2, SOC_A3, SOC_950, SOC_310P, SOC_910, SOC_200I500A2 };

struct soc_profile {
    const char *name;        /* what aclrtGetSocName returns */
    enum soc_family family;
    const char *product;     /* human-readable product line */
    uint32_t cube_cores;     /* AIC (or coupled AI Cores) */
    uint32_t vector_cores;   /* AIV (0 on coupled parts) */
    uint64_t memory_bytes;   /* device memory */
    uint32_t max_streams;    /* default streams included */
    uint32_t max_events;
    uint64_t l2_bytes;
    double hbm_gbps;         /* device memory bandwidth, GB/s */
    double h2d_gbps;         /* host <-> device copy bandwidth, GB/s */
    uint32_t cube_mhz;
};

const struct soc_profile *soc_find(const char *name);
const struct soc_profile *soc_default(void);
const struct soc_profile *soc_list(size_t *count);
/* The profile ACLCPU_SOC names (unset, empty or unknown: the default). */
const struct soc_profile *soc_configured(void);
/* Feature questions the spec answers per product line. */
bool soc_has_ctrl_sq(const struct soc_profile *soc); /* NULL stream ok for abort/failure mode */
bool soc_has_cmo(const struct soc_profile *soc);     /* aclrtCmoAsync (950, A3, A2) */

/* Overflow codes are "successful" sync results (spec §4): reported, but a
 * task that overflowed did not fail, so STOP mode does not trip on them. */
static inline bool acl_is_overflow(aclError e)
{
    return e == ACL_ERROR_RT_AICORE_OVER_FLOW || e == ACL_ERROR_RT_AIVEC_OVER_FLOW || e == ACL_ERROR_RT_OVER_FLOW;
}

/* ---- tasks ----------------------------------------------------------------- */

enum task_kind {
    TASK_KERNEL = 1,
    TASK_COPY,
    TASK_SET,
    TASK_HOST_FUNC,
    TASK_CALLBACK,
    TASK_EVENT_RECORD,
    TASK_EVENT_WAIT,
    TASK_EVENT_RESET,
    TASK_NOTIFY_RECORD,
    TASK_NOTIFY_WAIT,
    /* Model run instances (model.c, engine/replay.c). */
    TASK_MODEL_RUN,     /* aclmdlRIExecuteAsync: one run of a model, on the caller's stream */
    TASK_LANE_RUN,      /* one model stream's part of a run, on its runner stream */
    TASK_ACTIVE,        /* recorded aclrtActiveStream */
    TASK_SWITCH,        /* recorded aclrtSwitchStream */
    TASK_MODEL_END,     /* recorded aclmdlRIEndTask */
    TASK_GROUP_UPDATE,  /* aclmdlRICaptureTaskUpdateEnd: swaps a task group's kernels when reached */
    /* Profiling (api/api_prof.c): nothing to do on a CPU, but they take
     * their place in the stream, and the profile models them. */
    TASK_CMO,           /* aclrtCmoAsync: u.set is (address, size, aclrtCmoType) */
    TASK_MARK,          /* aclprofMarkEx: u.host.arg is the message (heap_args) */
    TASK_STEP,          /* aclprofGetStepTimestamp: u.host.block = end, u.host.thread = step index */
};

#define TASK_INLINE_ARGS 128

/* A copy's direction (profile model: host links vs device memory). */
enum copy_dir { CD_NONE, CD_H2D, CD_D2H, CD_D2D, CD_H2H };

struct event;
struct binary;
struct model;
struct lane;
struct task_group;
struct task_update;

struct task {
    struct task *next;     /* stream FIFO / free list, under stream->lock */
    uint64_t seq;          /* 1-based position in its stream */
    uint8_t kind;
    union {
        struct {
            aclcpuKernelFn fn;
            void *args;             /* inline_args or heap_args */
            struct binary *bin;     /* holds bin->inflight while queued */
            uint32_t blocks;
            uint8_t engine;         /* aclrtEngineType */
            uint8_t schedule_mode;  /* 0 normal, 1 batch */
            bool overflow_check;    /* the stream's overflow switch when issued */
            uint16_t core_limit[2]; /* cube / vector cores the launching thread was limited to */
            uint64_t timeout_us;    /* TIMEOUT / TIMEOUT_US launch attribute; 0 = none */
            const struct kfunc *kf; /* the kernel (type-stable: its name stays readable) */
            uint32_t args_size;     /* bytes at args */
        } kernel;
        struct {
            void *dst;
            const void *src;
            size_t count;
            uint8_t dir;            /* enum copy_dir: what the profile's model charges it to */
        } copy;
        struct {
            void *dst;
            size_t count;
            int value;
        } set;
        struct {
            void (*fn)(void *);
            void *arg;
            uint64_t thread;        /* subscriber, for callbacks */
            bool block;
        } host;
        struct {
            struct event *ev;
            uint64_t gen;           /* the record this task makes or waits for */
            const void *recorder;   /* wait: handle of the stream record `gen` was issued on */
            uint8_t in_model;       /* recorded in a model: see enum model_event_use (model.h) */
        } event;
        struct {
            struct model *m;
            uint64_t run;           /* run number, given at issue */
            uint8_t phase;          /* 0: waits for the previous run; 1: started, waits for its end */
            uint32_t prof_end;      /* profiled: the run's end entry (its begin is prof_id) */
        } model;
        struct {
            struct lane *lane;
            struct task *cur;       /* next recorded task to run (resumed after a park) */
            uint64_t run;
            uint32_t prof_last;     /* profiled: the entry of the lane's last task played */
        } lane;
        struct {
            struct lane *target;    /* the lane activated or switched to */
            const void *left, *right;
            uint8_t cond, type;     /* aclrtCondition, aclrtCompareDataType */
        } ctl;
        struct {
            const void *grp;        /* the task group's handle (resolved when the update runs) */
            struct task *with;      /* the replacement kernels, linked by next */
        } update;
    } u;
    void *heap_args;
    uint32_t prof_id;       /* its profile entry (services/profile.c); 0 = not profiled */
    /* Waits: how long the head may stay parked (0 = forever), when that
     * ends (set when it first parks), and whether it ran out. */
    uint32_t wait_timeout_ms;
    uint64_t wait_deadline;
    bool wait_timed_out;
    _Alignas(16) unsigned char inline_args[TASK_INLINE_ARGS];
};

/* ---- devices (device.c) -------------------------------------------------- */

struct engine;
struct context;

struct device {
    int32_t id;
    const struct soc_profile *soc;
    plat_mutex lock;            /* everything below, unless noted */
    bool open;
    uint32_t set_count;         /* aclrtSetDevice references */
    struct context *primary;    /* created by aclrtSetDevice */
    struct list contexts;
    uint32_t streams_used;      /* counts default streams too */
    uint8_t *stream_ids;        /* one byte per id: in use */
    uint32_t stream_id_hint;    /* every id below it is in use */
    uint32_t events_used;       /* hardware-limited events only */
    uint64_t mem_total;
    _Atomic uint64_t mem_used;  /* also read by GetMemInfo without lock */
    /* Core limits (aclrtSetDeviceResLimit), per aclrtDevResLimitType; 0
     * means none set. Atomic (relaxed): launches read them to record the
     * limit in force, and a limit set concurrently may or may not apply. */
    _Atomic uint32_t res_limit[2];
    struct engine *engine;      /* workers, ready set: engine.h */
};

struct device *device_get(int32_t id);          /* NULL if id out of range */
uint32_t device_count(void);
void devices_configure(void);
aclError device_open(struct device *d);          /* called with d->lock held */
void device_close(struct device *d);             /* called with d->lock held */
aclError device_stream_id_alloc(struct device *d, int32_t *id);
void device_stream_id_free(struct device *d, int32_t id);
aclError device_event_slot_take(struct device *d);
void device_event_slot_give(struct device *d);
void devices_shutdown(void);

/* ---- contexts (context.c) ------------------------------------------------ */

struct stream;

struct context {
    struct obj_header hdr;
    plat_mutex lock;            /* streams, events lists */
    struct device *dev;         /* recycling clears from here on */
    struct stream *default_stream;
    bool primary;
    struct list dev_link;       /* in dev->contexts, under dev->lock */
    struct list streams;        /* every stream, default included */
    struct list events;
    struct list models;         /* model run instances, by ctx_link */
    _Atomic int failure_mode;   /* ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE */
};

/* The calling thread's current context, or NULL (no context: 107002). */
struct context *ctx_current(void);
void ctx_set_current(struct context *ctx);
aclError ctx_create(struct device *d, bool primary, struct context **out);
void ctx_destroy(struct context *ctx);
/* Resolves the current context or fails with 107002 naming fn. */
aclError ctx_require(const char *fn, struct context **out);
/* Serialises creating and destroying contexts and devices. */
void admin_enter(void);
void admin_leave(void);
/* Called with the admin lock held: the device's primary context. */
aclError device_primary(struct device *d, struct context **out);

/* ---- streams (stream.c) ---------------------------------------------------- */

enum stream_state {
    STREAM_IDLE = 0,  /* nothing runnable; no executor */
    STREAM_READY,     /* in the engine's ready set */
    STREAM_RUNNING,   /* owned by one executor (worker, syncing host, host-func thread) */
    STREAM_PARKED,    /* head waits on an event; listed in that event's waiters */
};

struct stream {
    struct obj_header hdr;
    /* The lock and the atomics up to `ctx` survive recycling (obj_create
     * clears from `ctx` on): a thread holding a stale pointer may still
     * touch them. */
    plat_spin lock;
    /* Set under lock by a force destroy; the owner polls it (relaxed: it
     * takes the lock before going idle and re-checks there). */
    _Atomic bool discard;
    /* Set under lock by aclrtStreamStop (cleared by an abort): the owner
     * halts after its current task and the queue stays as it is. Relaxed
     * for the same reason as discard; waiters re-read it after waking. */
    _Atomic bool stopped;
    /* Completion is lock-free: the owner stores done (seq_cst) and then
     * loads sync_waiters (seq_cst); a waiter increments sync_waiters
     * (seq_cst) and then loads done. In that total order one of the two
     * sees the other, so a waiter never sleeps through its completion. */
    _Atomic uint64_t done;
    _Atomic uint32_t sync_waiters;
    _Atomic uint32_t wake_word;  /* futex the waiters sleep on */
    /* Smallest target among sleeping waiters (UINT64_MAX: none): the
     * completer wakes them only when done reaches it, not on every task. */
    _Atomic uint64_t wake_at;
    _Atomic uint32_t abort_epoch; /* bumped by aclrtStreamAbort; running kernels watch it */
    /* Written under lock (or engine lock for READY <-> RUNNING); atomic so a
     * launcher may read it while an executor changes RUNNING <-> PARKED. */
    _Atomic int state;

    /* Set once at creation; atomic (relaxed) because a thread that raced
     * with a destroy may still read them while a new stream is set up in
     * this memory, and its answer is then thrown away. */
    _Atomic int32_t id;
    _Atomic uint32_t priority;
    _Atomic uint32_t flags;      /* ACL_STREAM_* as created */

    struct context *ctx;
    struct device *dev;
    bool is_default;
    bool internal;               /* a model's lane runner: never handed to the user, no state callbacks */

    /* Under lock. */
    struct task *head, *tail;    /* queued tasks no executor has taken yet */
    uint64_t issued;             /* seq of the newest task */
    uint32_t prof_last;          /* the profile entry of the newest task (services/profile.c) */
    aclError error;              /* first task error since the last sync */
    aclError stop_error;         /* STOP mode tripped: the failing task's code */
    bool stop_reported;          /* a sync has returned it: from then on new tasks are refused */
    uint32_t failure_mode;       /* as set on this stream (the context's may be STOP) */
    uint32_t overflow_switch;    /* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK / aclrtSetStreamOverflowSwitch */
    uint32_t user_tag;           /* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
    uint32_t cache_op_info;      /* ACL_STREAM_ATTR_CACHE_OP_INFO */
    uint32_t res_limit[2];       /* aclrtSetStreamResLimit, per type; 0 = none set */
    uint64_t abort_seq;          /* issued when last aborted: syncs up to it report 107023 */
    uint32_t blocking_mode;      /* ACL_STREAM_LAUNCH_BLOCKING_MODE_*, set by attribute */
    uint32_t nonblocking_depth;  /* aclrtNonBlockingLaunchBegin nesting */
    /* Models (model.c), under lock: where issued tasks go instead of the
     * queue (a lane being built or captured), the model the stream is
     * bound to (build mode), the lane it last belonged to, an open task
     * group, and a task-group update being collected. */
    struct lane *rec_lane;
    struct model *model;
    struct lane *last_lane;
    struct task_group *open_group;
    struct task_update *update;
    struct list ctx_link;        /* in ctx->streams, under ctx->lock */

    /* The batch an executor took from head..tail; touched only by the
     * stream's owner (state RUNNING), so without the lock. */
    struct task *run_head, *run_tail;
    uint32_t prof_seq;           /* profiled lane tasks played on this runner (Task IDs), by its owner */

    struct list ready_link;      /* engine ready list, under engine->lock */
    uint64_t ready_order;        /* age within its priority, engine->lock */

    /* In the engine's list of parked waits with a deadline (watchdog lock). */
    struct list timed_link;
    uint64_t timed_deadline;
    bool timed;

    /* Parking, under the event's lock. */
    struct stream *park_next;
    uint64_t park_gen;
    struct event *park_event;
};

aclError stream_create(struct context *ctx, uint32_t priority, uint32_t flags, bool is_default,
                       struct stream **out);
/* A model's lane runner: an internal stream, never handed to the user. */
aclError stream_create_internal(struct context *ctx, uint32_t priority, struct stream **out);
/* Queues an engine-made task on s (lane runs), bypassing the API checks. */
void stream_push_internal(struct stream *s, struct task *t);
/* Waits for the stream's tasks (or discards them if force), then frees it.
 * With a handle, fails with 107017 if the handle no longer names s (another
 * thread destroyed it first). */
aclError stream_destroy(struct stream *s, const void *handle, bool force);
/* Resolves a user stream handle; NULL means the current context's default
 * stream. Fails with 107002 / 107017 naming fn and the argument. */
aclError stream_resolve(const char *fn, const void *handle, struct stream **out);

/*
 * Starts a new task on s (named by handle, or NULL for a default stream):
 * returns with s->lock held and *out pointing at a task of the given kind,
 * or fails (lock not held). The caller fills the task and calls
 * stream_commit, which queues it and drops the lock.
 */
aclError stream_begin_task(const char *fn, struct stream *s, const void *handle, enum task_kind kind,
                           struct task **out);
void stream_commit(struct stream *s, struct task *t);
/* Gives back a task taken with stream_begin_task and drops the lock. */
void stream_abandon(struct stream *s, struct task *t);
/* Called with s->lock held by the stream's owner: puts the owner's batch
 * back at the front of the queue (before parking or handing off). */
void engine_return_batch_locked(struct stream *s);
/* Task records come from a per-thread cache (task.c). */
struct task *task_alloc(void);
void task_free(struct task *t);
void task_cache_release(void);
/* Reserves argument space of n bytes on t (inline or heap); NULL on OOM. */
void *task_args_reserve(struct task *t, size_t n);
/* Releases what a finished or discarded task holds; not the task itself. */
void task_release(struct task *t);

/* ---- events (event.c) ------------------------------------------------------ */

struct event {
    struct obj_header hdr;
    plat_spin lock;              /* everything below */
    _Atomic uint32_t wake_word;  /* futex for host waiters; survives recycling */
    /* Set once at creation; atomic for the reason given at stream->id. */
    _Atomic uint32_t flags;
    _Atomic bool ex;             /* created by aclrtCreateEventExWithFlag */
    _Atomic int32_t id;
    struct context *ctx;
    struct device *dev;
    bool notify;                 /* an aclrtNotify: records set it, a wait consumes it */
    bool notified;               /* notify: set by a record, cleared by the wait it releases */
    bool lazy_slot;              /* aclrtCreateEvent: takes its id at first record */
    bool holds_slot;             /* counts against the SoC's event cap */
    uint64_t record_gen;         /* newest record issued */
    const void *last_recorder;   /* handle of the stream the newest record was issued on */
    uint64_t done_gen;           /* newest record completed */
    bool reset_done;             /* a reset ran after the newest completion */
    uint64_t timestamp_ns;       /* when done_gen completed */
    uint64_t waits_issued;
    /* Decremented by executors without the lock. seq_cst pairs with
     * event_destroy: it sets `destroyed` (seq_cst) then reads pending; a
     * releaser decrements pending then reads `destroyed`; one of the two
     * sees the other, so exactly one of them recycles the event. */
    _Atomic uint64_t waits_done;
    _Atomic uint32_t pending_tasks; /* records and waits queued on streams; incremented under lock */
    _Atomic bool destroyed;      /* handle dead; memory waits for pending */
    _Atomic bool recycling;      /* set by whoever recycles it, exactly once */
    struct stream *waiters;      /* parked streams */
    uint32_t host_waiters;
    /* Models: the newest record was made in a model's lane (its handle,
     * and the edge event that stands for it there), not on a stream. */
    const void *rec_model;
    struct event *rec_edge;
    bool newest_in_model;
    bool internal;               /* a model's edge or completion event, never handed out */
    struct list ctx_link;        /* ctx->events, under ctx->lock */
};

/* ---- kernels and binaries (kernel.c) ------------------------------------- */

struct binary {
    struct obj_header hdr;
    plat_mutex lock;
    void *lib;                   /* recycling clears from here on */
    char path[512];
    _Atomic uint32_t inflight;   /* queued launches of its kernels */
    bool unloaded;
    struct list funcs;
};

struct kfunc {
    struct obj_header hdr;
    aclcpuKernelFn fn;
    struct binary *bin;          /* NULL for kernels the program registered */
    char name[128];
    struct list bin_link;
    /* aclcpuSetKernelCost, under cost_lock (kernel.c); launches copy it.
     * has_cost is also read without the lock, as a hint. */
    aclcpuKernelCost cost;
    _Atomic bool has_cost;
};

void binary_put_inflight(struct binary *b);
/* Resolves a function handle for a launch and takes an inflight reference
 * on its binary (dropped by task_release). */
aclError kfunc_resolve_for_launch(const char *fn, aclrtFuncHandle h, aclcpuKernelFn *kfn, struct binary **bin,
                                  const struct kfunc **kf);
/* The cost aclcpuSetKernelCost declared for f, if any. */
bool kfunc_cost(const struct kfunc *f, aclcpuKernelCost *out);

/* ---- launch blocking (api_stream_attr.c) ------------------------------------- */

/* Reads ASCEND_RT_LAUNCH_BLOCKING (once, at aclInit or first use). */
void launch_blocking_configure(void);
/* True when a launch on s must wait for the stream (spec §9). */
bool launch_blocks(struct stream *s);

/* ---- core limits (api_reslimit.c) ----------------------------------------- */

/* The cores of type (0 cube, 1 vector) the calling thread may use on d:
 * its bound stream's limit, else the device's, else the hardware's. */
uint32_t reslimit_in_force(struct device *d, int type);
/* Both types at once (cube in out[0], vector in out[1]), for launches. */
void reslimits_in_force(struct device *d, uint32_t out[2]);

/* ---- callbacks to subscribed threads (report.c) ------------------------- */

aclError report_subscribe(uint64_t thread, struct stream *s);
aclError report_unsubscribe(uint64_t thread, struct stream *s);
bool report_is_subscribed(struct stream *s);
aclError report_process(int32_t timeout_ms);

/* ---- events (event.c) ------------------------------------------------------ */

/* Executor hooks (called by the engine while it owns the task's stream). */
bool event_wait_or_park(struct stream *s, struct task *t);
void event_record_done(struct task *t, uint64_t now_ns);
/* Completes record gen of ev (GEN_LATEST: a new record made now) and
 * releases what waits for it. Called without locks. */
void event_reach(struct event *ev, uint64_t gen, uint64_t now_ns);
/* Parks s on ev until record gen (or GEN_FLAG / GEN_LATEST, model.h) is
 * done, unless it is already: returns whether it passed. timer (may be
 * NULL) is the task whose wait timeout applies. */
bool event_wait_gen_or_park(struct stream *s, struct event *ev, uint64_t gen, struct task *timer);
/* Whether a wait for gen would pass now, without parking (false for a
 * notify, whose wait consumes it). */
bool event_passed(struct event *ev, uint64_t gen);
void event_reset_done(struct task *t);
void event_task_release(struct task *t);
/* The newest record of ev that ran (for the profile). */
uint64_t event_done_gen(struct event *ev);
aclError event_take_lazy_slot_locked(struct event *ev);

aclError event_create(struct context *ctx, uint32_t flags, bool ex, bool lazy_slot, struct event **out);
aclError notify_create(struct context *ctx, struct event **out);
/* Ends an event (or notify); fails with 107017 if handle (when given) no
 * longer names it. */
aclError event_destroy(struct event *ev, const void *handle);

/* ---- stream state callbacks (stream.c) ------------------------------------ */

void stream_state_notify(struct stream *s, aclrtStreamState state);
aclError stream_state_register(const char *name, aclrtStreamStateCallback cb, void *args);

#endif
