/*
 * core.h - the runtime's objects: SoC profile, device, context, stream,
 * task, event, kernel function and binary.
 *
 * Each field says which lock guards it; how the locks nest is in one place,
 * common/lockrank.h (checked in debug builds). A completer that must touch
 * a stream after an event (an event record that releases parked streams)
 * drops the event lock first: a stream's lock ranks above an event's.
 */
#ifndef ACLCPU_CORE_H
#define ACLCPU_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

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
    /* The modelled clock's laws (docs/model.md): how many cube (or coupled
     * AI) cores reading at once saturate HBM (the vector pool scales with
     * its size); the device's per-task dispatch latency; an event or
     * notify record's release of its waits. */
    double hbm_sat_cores;
    uint32_t dispatch_ns, event_ns;
};

const struct soc_profile *soc_find(const char *name);
const struct soc_profile *soc_default(void);
const struct soc_profile *soc_list(size_t *count);
/* The profile ACLCPU_SOC names (unset, empty or unknown: the default). */
const struct soc_profile *soc_configured(void);
/* Feature questions the spec answers per product line. */
bool soc_has_ctrl_sq(const struct soc_profile *soc); /* NULL stream ok for abort/failure mode */
/* Device task abort, memory UCE queries and process snapshots (the
 * reference's fast-recover and snapshot features). */
bool soc_has_recovery(const struct soc_profile *soc);
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
    TASK_CMO,           /* aclrtCmoAsync */
    TASK_MARK,          /* aclprofMarkEx */
    TASK_STEP,          /* aclprofGetStepTimestamp */
    /* Memory (api/api_managed.c, api/api_mempool.c). */
    TASK_MEM_PREFETCH,  /* aclrtMemManagedPrefetchAsync: managed pages move to a location */
    TASK_POOL_FREE,     /* aclrtMemPoolFreeAsync: the block returns to its pool when released */
    /* More memory tasks (api/api_memcopy.c; they run in engine/memtask.c). */
    TASK_COPY2D,        /* aclrtMemcpy2dAsync */
    TASK_COPY_DESC,     /* aclrtMemcpyAsyncWithDesc: the copy a descriptor in device memory describes */
    TASK_SET32,         /* aclrtMemsetD32Async */
    TASK_VALUE_WRITE,   /* aclrtValueWrite */
    TASK_VALUE_WAIT,    /* aclrtValueWait: parks its stream until the value passes */
    /* Model control flow (core/label.c, core/cond.c; played in replay.c). */
    TASK_LABEL_SET,     /* aclrtSetLabel: a place a label switch may jump to */
    TASK_LABEL_SWITCH,  /* aclrtSwitchLabelByIndex */
    TASK_COND,          /* aclmdlRIAddCondTask: runs a sub model as its condition says */
    /* Built-in tasks (api/api_builtin.c; they run in engine/builtin.c). */
    TASK_REDUCE,        /* aclrtReduceAsync: dst = dst op src, element by element */
    TASK_RANDOM,        /* aclrtRandomNumAsync: its task info is a copy in inline_args */
    TASK_KIND_END       /* not a kind: one past the last (engine/kinds.c has a row for each) */
};

#define TASK_INLINE_ARGS 128

/* What aclrtSetMemcpyDesc writes into the descriptor's device memory, and
 * a TASK_COPY_DESC reads when it runs (32 bytes: the A2/A3 size). */
struct memcpy_desc {
    void *src, *dst;
    size_t count;
    uint64_t reserved;
};

/* A copy's direction (profile model: host links vs device memory). */
enum copy_dir { CD_NONE, CD_H2D, CD_D2H, CD_D2D, CD_H2H };

struct event;
struct binary;
struct model;
struct lane;
struct task_group;
struct task_update;
struct cond;

/* A link in a stream's task queue (squeue.h); the stream's stub is a bare
 * one. */
struct qnode {
    /* Written by a launcher under the stream's lock (release) and read by
     * the stream's owner without it (acquire): see squeue_link_locked. */
    _Atomic(struct qnode *) next;
};

/* A kernel launch: every field is set by the launch (launch() in
 * api_kernel.c), so none needs clearing when the record is reused. The
 * fields the executor reads come first; kf, args_size and core_limit are
 * for the profiler and model printing. */
struct task_kernel {
    aclcpuKernelFn fn;
    struct binary *bin;     /* holds bin->inflight while queued */
    uint64_t timeout_us;    /* TIMEOUT / TIMEOUT_US launch attribute; 0 = none */
    const struct kfunc *kf; /* the kernel (type-stable: its name stays readable) */
    uint32_t blocks;
    /* Bytes of arguments (saturated at UINT32_MAX). Up to TASK_INLINE_ARGS
     * they are the task's inline_args; beyond, a heap copy the task owns,
     * whose address the inline_args hold (task_kernel_args). */
    uint32_t args_size;
    uint16_t core_limit[2]; /* cube / vector cores the launching thread was limited to */
    uint8_t engine;         /* aclrtEngineType */
    uint8_t schedule_mode;  /* 0 normal, 1 batch */
    bool overflow_check;    /* the stream's overflow switch when issued */
};

/*
 * A task record. The first cache line holds all a kernel launch writes and
 * its executor reads, so handing a launch to a worker moves one line; the
 * argument bytes follow, touched only by launches that have arguments.
 * Every way a record is made (stream_task_new, replay.c) sets prof_id.
 */
struct task {
    struct qnode q;            /* stream queue, model lane or free-list link (task_next) */
    uint8_t kind;
    /* The kernel's id of the thread that issued it to its stream (set by
     * stream_task_new; 0 for engine-made tasks): the exception information's
     * thread id. 24 bits, beside kind, so the record keeps its layout (Linux
     * thread ids stay below 2^22). */
    uint32_t issuer : 24;
    uint32_t prof_id;          /* its profile entry (set by core/profhook.c); 0 = not profiled */
    union {
        struct task_kernel kernel;
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
            uint64_t thread;        /* TASK_STEP: the step's index */
            bool block;
            bool to_subscriber;     /* host function: its stream's aclrtSubscribeHostFunc thread runs it */
        } host;
        struct {
            struct event *ev;
            uint64_t gen;           /* the record this task makes or waits for */
            union {
                struct {
                    uint64_t deadline;    /* waits: when a timed wait ends (set when it first parks) */
                    const void *recorder; /* wait: handle of the stream record `gen` was issued on */
                };
                /* A record issued on a stream and not reached yet: its
                 * neighbours in ev->pending (under ev->lock). */
                struct {
                    struct task *pend_prev, *pend_next;
                };
            };
            /* Waits: how long the head may stay parked (0 = forever), and
             * whether the watchdog ended it. */
            uint32_t timeout_ms;
            bool timed_out;
            uint8_t in_model;       /* recorded in a model: see enum model_event_use (model.h) */
            /* A record: linked in ev->pending. Cleared under ev->lock by the
             * thread that reaches it, which is also the one that releases it. */
            bool pending;
            /* A counting notify's record (aclrtCntNotifyRecordMode) or wait
             * (aclrtCntNotifyWaitMode, whether it clears the count): the
             * operation and its operand. */
            uint8_t cnt_mode;
            bool cnt_clear;
            uint32_t cnt_value;
        } event;
        struct {
            struct model *m;
            uint64_t run;           /* run number, given at issue */
            uint8_t phase;          /* 0: waits for the previous run; 1: started, waits for its end */
            uint32_t prof_end;      /* profiled: the run's end entry (its begin is prof_id) */
            struct ext_run *ext;    /* the run's external records and waits (model.h); NULL if none */
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
            const void *list;       /* the label list's handle */
            const void *ptr;        /* switch: the index, a uint32_t in device memory */
            uint32_t max;           /* switch: maxValue */
            uint32_t index;         /* set: the label's place in its list */
        } label;
        struct {
            struct cond *c;
            struct model *sub;      /* the sub model run in flight, if any */
            uint64_t for_run;       /* the run of the lane's model it was started for (0: none) */
            uint64_t sub_run;       /* its run number */
        } cond;
        struct {
            const void *grp;        /* the task group's handle (resolved when the update runs) */
            struct task *with;      /* the replacement kernels, linked by task_next */
        } update;
        struct {
            void *addr;
            uint32_t size;          /* bytes; 32 bits, as the runtime keeps it */
            uint8_t type;           /* aclrtCmoType */
        } cmo;
        struct {
            const char *msg;        /* in the task's inline_args */
        } mark;
        struct {
            void *dst;
            const void *src;
            size_t dpitch, spitch;
            uint32_t width, height; /* the reference caps both below 2^32 */
            uint8_t dir;            /* enum copy_dir */
        } copy2d;
        /* A copy whose addresses are read from device memory when it runs:
         * a descriptor (aclrtMemcpyAsyncWithDesc), or two words holding the
         * bases, plus offsets (aclrtMemcpyAsyncWithOffset, desc NULL). */
        struct {
            const void *desc;
            void *const *dst_at;
            const void *const *src_at;
            uint64_t dst_off, src_off;
            size_t count;           /* WithOffset: the bytes; WithDesc: what the descriptor said at issue */
        } copy_desc;
        struct {
            void *dst;
            size_t n;               /* 32-bit words */
            uint32_t value;
        } set32;
        struct {
            void *addr;             /* a 64-bit word of device memory */
            uint64_t value;
            uint32_t flag;          /* waits: ACL_STREAM_WAIT_VALUE_* */
        } value;
        struct {
            uint32_t index;         /* the step info's */
            bool end;               /* ACL_STEP_END (else ACL_STEP_START) */
        } step;
        struct {
            const void *ptr;        /* managed memory */
            size_t size;
            int32_t loc_id;
            uint8_t loc_type;       /* aclrtMemManagedLocationType */
        } prefetch;
        struct {
            void *dst;
            const void *src;
            size_t n;               /* elements */
            uint8_t kind;           /* aclrtReduceKind */
            uint8_t type;           /* aclDataType */
            uint8_t esize;          /* bytes per element */
        } reduce;
        struct {
            void *ptr;              /* a pool block, freed on this stream */
            uint64_t ticket;        /* the block's use this free ends (services/mempool.h); 0: an aclrtMalloc block */
            bool ran;               /* reached on its stream (an aclrtMalloc block is freed only then) */
        } pool_free;
    } u;
    _Alignas(16) unsigned char inline_args[TASK_INLINE_ARGS];
};

/* issuer packs beside kind: the first cache line keeps all a launch writes. */
_Static_assert(offsetof(struct task, prof_id) == sizeof(struct qnode) + sizeof(uint32_t),
               "struct task: issuer must share kind's word");

static inline struct task *task_of(struct qnode *n) { return ACLCPU_CONTAINER_OF(n, struct task, q); }

/* The next task of a chain outside a stream queue (a model lane, a task
 * update, a dropped chain): such chains are built and walked under locks
 * or after a release that publishes them, so the link is relaxed. */
static inline struct task *task_next(const struct task *t)
{
    struct qnode *n = load_relaxed(&t->q.next);
    return n != NULL ? task_of(n) : NULL;
}

static inline void task_set_next(struct task *t, struct task *next)
{
    store_relaxed(&t->q.next, next != NULL ? &next->q : NULL);
}

/* A kernel task's argument bytes (see task_kernel.args_size). */
static inline void *task_kernel_args(const struct task *t)
{
    void *heap;
    if (ACLCPU_LIKELY(t->u.kernel.args_size <= TASK_INLINE_ARGS))
        return (void *)t->inline_args;
    memcpy(&heap, t->inline_args, sizeof(heap));
    return heap;
}

/* ---- devices (device.c) -------------------------------------------------- */

struct engine;
struct context;

struct device {
    int32_t id;
    const struct soc_profile *soc;
    plat_mutex lock;            /* open, the stream ids and counts */
    bool open;
    uint32_t set_count;         /* aclrtSetDevice references; admin_lock */
    struct context *primary;    /* created by aclrtSetDevice; admin_lock */
    struct list contexts;       /* admin_lock (context.c) */
    uint32_t streams_used;      /* counts default streams too */
    uint8_t *stream_ids;        /* one byte per id: in use */
    uint32_t stream_id_hint;    /* every id below it is in use */
    _Atomic uint32_t events_used; /* hardware-limited events only; lock-free: taken under event locks */
    uint64_t mem_total;
    _Atomic uint64_t mem_used;  /* also read by GetMemInfo without lock */
    /* Core limits (aclrtSetDeviceResLimit), per aclrtDevResLimitType; 0
     * means none set. Atomic (relaxed): launches read them to record the
     * limit in force, and a limit set concurrently may or may not apply. */
    _Atomic uint32_t res_limit[2];
    struct engine *engine;      /* workers, ready set: engine.h */
    /* Bit p: this device may reach device p's memory
     * (aclrtDeviceEnablePeerAccess from this device). Relaxed atomics: a
     * flag of the process, as the driver keeps it, past resets. */
    _Atomic uint32_t peers_enabled;
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
/* Stream and event ids left on d (aclrtGetStreamAvailableNum, ...). */
uint32_t device_streams_left(struct device *d);
uint32_t device_events_left(struct device *d);
void devices_shutdown(void);
/* What d is, open or not: its SoC profile and its memory size (the
 * open device's, else what opening it now would give). Takes d->lock. */
void device_describe(struct device *d, const struct soc_profile **soc, uint64_t *mem_total);
/* Whether d has a default context (aclrtSetDevice); takes the admin lock. */
bool device_primary_active(struct device *d);
/* Percent of d's workers running tasks at this instant (0 if d is closed). */
int32_t device_busy_percent(struct device *d);
/* Whether d is open: set (aclrtSetDevice) or holding a context. Takes d->lock. */
bool device_is_open(struct device *d);
/* Peer access from d to device `peer` (< ACLCPU_MAX_DEVICES): switched on
 * and off by aclrtDeviceEnablePeerAccess / DisablePeerAccess, one way. */
void device_peer_set(struct device *d, int32_t peer, bool enabled);
bool device_peer_enabled(struct device *d, int32_t peer);

/* ---- aclInit / aclFinalize callbacks (initcb.c) ---------------------------- */

/* A registration: fini selects the aclFinalize list. Register refuses a
 * second callback of one type (500000) except for `other_type`; unregister
 * refuses a type or function that is not registered (500000). */
aclError initcb_register(bool fini, int32_t type, int32_t other_type, void (*fn)(void), void *user);
aclError initcb_unregister(bool fini, int32_t type, void (*fn)(void));
/* The callbacks of a type, in registration order, copied into fns/users:
 * with cap 0 only their count, else how many were copied (at most cap). */
size_t initcb_list(bool fini, int32_t type, void (**fns)(void), void **users, size_t cap);

/* ---- memory freed while in use (quarantine.c) ------------------------------ */

/* A free that found its memory possibly still in use by queued work. */
struct quarantine_record {
    void *p;
    size_t size;
    int32_t stream_id; /* one stream that had work queued at the free */
};

struct quarantine_stats {
    uint64_t frees_in_use;   /* frees that found work in flight, ever */
    uint64_t held;           /* blocks held from reuse now */
    struct quarantine_record recent[16]; /* the latest, by frees_in_use % 16 */
};

/* Frees the live block starting at p (an aclrtMalloc's if device, else an
 * aclrtMallocHost's): at once when no stream has work queued, else held
 * from reuse until the work queued at this moment is done. False if no
 * live block of that kind starts at p (nothing changes). */
bool quarantine_free(void *p, bool device);
/* The same for the managed allocation starting at p (aclrtFree frees
 * those too): false if none does. */
bool quarantine_free_managed(void *p);
/* Releases held blocks whose work is done. */
void quarantine_poll(void);
/* A device closes (its arena goes) / the library finalises: forget holds. */
void quarantine_forget_device(int32_t device);
void quarantine_forget_all(void);
void quarantine_get_stats(struct quarantine_stats *out);

/* ---- contexts (context.c) ------------------------------------------------ */

struct stream;

/* System parameter options a context keeps (aclSysParamOpt 0..2). */
#define ACLCPU_SYSPARAM_OPTS 3
#define CTX_OVERFLOW_AREA 512u /* the reference's OVERFLOW_ADDR_MAX_SIZE */

struct context {
    struct obj_header hdr;
    plat_mutex lock;            /* streams, events lists */
    struct device *dev;         /* recycling clears from here on */
    struct stream *default_stream;
    bool primary;
    struct list dev_link;       /* in dev->contexts, under admin_lock */
    struct list streams;        /* every stream, default included */
    struct list events;
    struct list models;         /* model run instances, by ctx_link */
    _Atomic int failure_mode;   /* ACL_CONTINUE_ON_FAILURE / ACL_STOP_ON_FAILURE */
    /* STOP mode tripped: the first failing task's code. From then on every
     * sync, event sync or query, and launch in the context returns it,
     * until the context goes (context.cc Context::CheckStatus,
     * CheckTaskSend). Relaxed: a status word; the code is its own payload. */
    _Atomic aclError failure_error;
    /* aclrtCtxSetSysParamOpt: bit o of sysparam_set once option o was set
     * here, and its value. Relaxed: each is a value of its own (a getter
     * racing a setter may see the old value or the new one). */
    _Atomic uint32_t sysparam_set;
    _Atomic int64_t sysparam[ACLCPU_SYSPARAM_OPTS];
    /* The context's float overflow status (aclrtCtxGetFloatOverflowAddr):
     * device-visible bytes a kernel's reported overflow sets (the engine,
     * ctx_note_overflow) and the status tasks copy and clear in stream
     * order, as the device's overflow area. */
    _Alignas(64) union {
        _Atomic uint32_t word;   /* the status: 1 once a kernel reported an overflow */
        unsigned char bytes[CTX_OVERFLOW_AREA];
    } overflow_area;
};

/* The calling thread's current context (context.c): its handle, and the
 * object it named when set, so that checking it is one generation check
 * (objects are never freed, see handle.h). Inline: every call needs it. */
extern _Thread_local void *tls_ctx_handle ACLCPU_TLS_HOT;
extern _Thread_local struct context *tls_ctx ACLCPU_TLS_HOT;

/* The calling thread's current context, or NULL (no context: 107002). */
static inline struct context *ctx_current(void)
{
    if (tls_ctx_handle == NULL || !obj_same(&tls_ctx->hdr, tls_ctx_handle))
        return NULL;
    return tls_ctx;
}

void ctx_set_current(struct context *ctx);
aclError ctx_create(struct device *d, bool primary, struct context **out);
/* aclrtCtxSetSysParamOpt / Get: opt < ACLCPU_SYSPARAM_OPTS; get is false
 * if opt was never set in ctx. */
void ctx_sysparam_set(struct context *ctx, uint32_t opt, int64_t value);
bool ctx_sysparam_get(struct context *ctx, uint32_t opt, int64_t *value);
void ctx_destroy(struct context *ctx);
/* A kernel of a stream of ctx reported a float overflow: its overflow area
 * says so from now until a reset (the engine, at the kernel's end). */
void ctx_note_overflow(struct context *ctx);
/* Records why there is no current context and returns 107002. */
aclError ctx_missing(const char *fn);

/* Resolves the current context or fails with 107002 naming fn. */
static inline aclError ctx_require(const char *fn, struct context **out)
{
    *out = ctx_current();
    return ACLCPU_LIKELY(*out != NULL) ? ACL_SUCCESS : ctx_missing(fn);
}
/* Serialises creating and destroying contexts and devices. */
void admin_enter(void);
void admin_leave(void);
/* Aborts in debug builds unless the calling thread holds the admin lock. */
void admin_assert_held(void);
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
    /* Everything up to `tail` survives recycling (obj_create clears from
     * `ctx` on): a thread holding a stale pointer may still touch it. */

    /* Read-mostly: set at creation or on rare changes. */
    /* Written under lock (or engine lock for READY <-> RUNNING); atomic so a
     * launcher may read it while an executor changes RUNNING <-> PARKED. */
    _Atomic int state;
    _Atomic uint32_t abort_epoch; /* bumped by aclrtStreamAbort; running kernels watch it */
    /* Set once at creation, before obj_publish (whose release publishes
     * them), and read relaxed: atomic only because a thread that raced with
     * a destroy may still read them while a new stream is set up in this
     * memory, and its answer is then thrown away. */
    _Atomic int32_t id;
    /* As id, but also changed under s->lock and the engine lock
     * (engine_set_priority_locked); the ready lists read it under the latter. */
    _Atomic uint32_t priority;
    _Atomic uint32_t flags;      /* ACL_STREAM_* as created */
    _Atomic(struct device *) dev; /* a launch reads it before it takes the lock */
    _Atomic(struct context *) ctx; /* a sync reads it before it takes the lock */
    _Atomic bool is_default;      /* the context's default stream */
    /* Set under lock by aclrtStreamStop (cleared by an abort): the owner
     * halts after its current task and the queue stays as it is; launches
     * are refused. Read by launchers and by the owner after every task, so
     * it lives on this line, which neither writes. Relaxed: the owner takes
     * the lock before it acts on it; waiters re-read it after waking. */
    _Atomic bool stopped;

    /* ---- completion line: the owner writes it after every task ---- */
    /* The queue (squeue.h, which explains every ordering on this line):
     * completion is lock-free, and done pairs with sync_waiters so that a
     * waiter never sleeps through its completion. */
    _Alignas(ACLCPU_CACHE_LINE) _Atomic uint64_t done;
    _Atomic uint32_t sync_waiters;
    _Atomic uint32_t wake_word;  /* futex the waiters sleep on */
    /* Smallest target among sleeping waiters (UINT64_MAX: none): the
     * completer wakes them only when done reaches it, not on every task. */
    _Atomic uint64_t wake_at;
    /* Set under lock by a force destroy or abort; the owner polls it
     * (squeue_discarding) and takes the lock before dropping the queue. */
    _Atomic bool discard;
    /* The owner's end of the queue: the last node taken off it (the stub,
     * or the record of the last task done, kept as the dummy). Written by
     * the stream's owner, or under lock by a thread that holds the stream
     * while it has no owner (IDLE, PARKED); atomic because a discarder
     * reads it under the lock while an owner runs (squeue.h, ordering 3). */
    _Atomic(struct qnode *) head;
    struct qnode stub;

    /* ---- issue line: every launch takes the lock and reads or writes below ---- */
    _Alignas(ACLCPU_CACHE_LINE) plat_spin lock;
    /* Under lock. */
    struct qnode *tail;          /* the newest task, or head when none is queued */
    uint64_t issued;             /* tasks queued so far; done counts those completed */
    /* Models (model.c): where issued tasks go instead of the queue (a lane
     * being built or captured), and a task-group update being collected. */
    struct lane *rec_lane;
    struct task_update *update;
    /* STOP mode tripped: the failing task's code. Written under lock;
     * atomic because a lingering worker reads it unlocked (sched.c). */
    _Atomic(aclError) stop_error;
    uint32_t overflow_switch;    /* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK / aclrtSetStreamOverflowSwitch */
    uint32_t blocking_mode;      /* ACL_STREAM_LAUNCH_BLOCKING_MODE_*, set by attribute */
    uint32_t nonblocking_depth;  /* aclrtNonBlockingLaunchBegin nesting */

    /* Under lock, rarely touched. */
    bool stop_reported;          /* a sync has returned stop_error: from then on new tasks are refused */
    aclError error;              /* first task error since the last sync */
    uint32_t failure_mode;       /* as set on this stream (the context's may be STOP) */
    uint32_t aborts;             /* aclrtStreamAbort calls begun, under lock */
    bool aborting;               /* an aclrtStreamAbort is dropping the queue, under lock */
    uint32_t user_tag;           /* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
    uint32_t cache_op_info;      /* ACL_STREAM_ATTR_CACHE_OP_INFO */
    uint32_t res_limit[2];       /* aclrtSetStreamResLimit, per type; 0 = none set */
    uint32_t prof_last;          /* the profile entry of the newest task (core/profhook.c) */
    /* Models (model.c), under lock: the model the stream is bound to (build
     * mode), the lane it last belonged to, and an open task group. */
    struct model *model;
    struct lane *last_lane;
    struct task_group *open_group;
    struct list ctx_link;        /* in ctx->streams, under ctx->lock */

    /* Profiled lane tasks played on this runner (their Task IDs); touched
     * only by the one executor playing the lane. */
    uint32_t prof_seq;
    struct list ready_link;      /* engine ready list, under engine->lock */
    uint64_t ready_order;        /* age within its priority, engine->lock */

    /* In the engine's list of parked waits with a deadline (watchdog lock). */
    struct list timed_link;
    uint64_t timed_deadline;
    bool timed;

    /* Parking, under the event's lock (a value wait's: under val_lock,
     * engine/memtask.c, with park_event NULL). */
    struct stream *park_next;
    uint64_t park_gen;
    /* Atomic: the hang report reads it under s->lock only (relaxed: what
     * it reads there is a description, re-checked by whoever acts). */
    _Atomic(struct event *) park_event;
    /* The value wait it parked on, or NULL. Written under val_lock (memtask.c);
     * atomic because the hang report reads it under s->lock only. */
    _Atomic(const struct task *) park_value;
    uint32_t park_poll_us;         /* a value wait's next look without a write seen (backoff) */
};

aclError stream_create(struct context *ctx, uint32_t priority, uint32_t flags, bool is_default,
                       struct stream **out);
/* The number on its stream of the last task the calling thread issued (a
 * stream's tasks are numbered from 0 in issue order; the executor reads the
 * running task's number from done), for aclrtGetThreadLastTaskId;
 * 0xFFFFFFFF before the thread issued any. */
uint32_t stream_thread_last_task(void);
/* A model's lane runner: an internal stream, never handed to the user. */
aclError stream_create_internal(struct context *ctx, uint32_t priority, struct stream **out);
/* Queues an engine-made task on s (lane runs), bypassing the API checks. */
void stream_push_internal(struct stream *s, struct task *t);
/* How a destroy ends a stream's work. */
enum stream_end {
    STREAM_END_WAIT,    /* aclrtDestroyStream: wait; drop what can never run after a grace */
    STREAM_END_FORCE,   /* aclrtDestroyStreamForce: run what was launched; drop what cannot run at once */
    STREAM_END_DISCARD, /* internal streams: drop what has not started */
};
/* Ends the stream's tasks as `how` says, then frees it. With a handle,
 * fails with 107017 if the handle no longer names s (another thread
 * destroyed it first). */
aclError stream_destroy(struct stream *s, const void *handle, enum stream_end how);
/* Records why handle is not a live stream and returns 107017. */
aclError stream_stale(const char *fn, const void *handle);

/* The context a stream or event was created in. Read relaxed and without
 * the object's lock: a caller holding a stale pointer may read it while
 * the memory is set up again, and its answer is then thrown away (see
 * stream->id); contexts are recycled in place, so the pointer stays valid. */
static inline struct context *stream_ctx(const struct stream *s)
{
    return load_relaxed(&s->ctx);
}

/* Resolves a user stream handle without asking for a current context: a
 * non-NULL handle is checked alone (107017 if it names no live stream);
 * NULL means the current context's default stream, so it needs one
 * (107002). The reference's calls that never look at the context for a
 * named stream use this (api_impl.cc GetStreamId, SetStreamResLimit, ...). */
static inline aclError stream_lookup(const char *fn, const void *handle, struct stream **out)
{
    struct context *ctx;
    *out = NULL; /* set on every path, so no caller reads it unset */
    if (handle != NULL) {
        *out = (struct stream *)obj_resolve_user(handle, OBJ_STREAM);
        return ACLCPU_LIKELY(*out != NULL) ? ACL_SUCCESS : stream_stale(fn, handle);
    }
    ctx = ctx_current();
    if (ACLCPU_UNLIKELY(ctx == NULL))
        return ctx_missing(fn);
    *out = ctx->default_stream;
    return ACL_SUCCESS;
}

/* Resolves a user stream handle; NULL means the current context's default
 * stream. The handle is checked first (107017), then the calling thread
 * must have a current context (107002): the reference validates a handle
 * at its C entry, before any call looks for the context
 * (api_handle_guard.h RT_VALIDATE_AND_UNWRAP_OBJECT). Inline: every stream
 * call and launch starts here. */
static inline aclError stream_resolve(const char *fn, const void *handle, struct stream **out)
{
    aclError err = stream_lookup(fn, handle, out);
    if (ACLCPU_LIKELY(err == ACL_SUCCESS) && handle != NULL && ACLCPU_UNLIKELY(ctx_current() == NULL))
        return ctx_missing(fn);
    return err;
}

/* Event and notify tasks: filled at issue under the event's lock too. */
static inline bool task_kind_is_event(enum task_kind kind)
{
    return kind >= TASK_EVENT_RECORD && kind <= TASK_NOTIFY_WAIT;
}

/* Why a stream (or, for its tasks, an event) takes no task now: found
 * under the locks by stream_submit, told to the caller once they are
 * dropped. The last two are not failures. */
enum refusal {
    REFUSE_NONE = 0,
    REFUSE_STREAM_DEAD,          /* the stream was destroyed since it was resolved */
    REFUSE_STOPPED,              /* aclrtStreamStop */
    REFUSE_STOP_FAILED,          /* STOP mode tripped and a sync reported it */
    REFUSE_CONTEXT_FAILED,       /* a task failed in the context's STOP mode: it takes no new work */
    REFUSE_UPDATE_KERNELS_ONLY,  /* a task-group update takes kernels only */
    REFUSE_LANE_CLOSED,          /* bound to a model whose build ended */
    REFUSE_CAPTURE_INVALIDATED,
    REFUSE_CALLBACK_IN_MODEL,
    REFUSE_GROUP_KERNELS_ONLY,   /* an open task group takes kernels only */
    REFUSE_EVENT_DEAD,           /* the event (or notify) was destroyed since it was resolved */
    REFUSE_NO_EVENT_SLOT,        /* a lazy event's first record found no event id left */
    REFUSE_NEVER_RECORDED,       /* a wait on a plain event (aclrtCreateEvent) never recorded */
    SKIP_NEVER_RECORDED,         /* a wait on a never-recorded Ex event: nothing to queue */
    SKIP_MODEL_PATH,             /* an event task that belongs to a model after all (see submit.model_asked) */
    REFUSE_NOT_IN_MODEL,         /* a model-only task (submit.model_only) on a stream that records for no model */
};

/* What stream_submit needs besides the task, and what it tells back. */
struct submit {
    const char *fn;              /* the API function, for messages */
    const void *stream;          /* the caller's stream handle; NULL for a default stream */
    /* Event and notify tasks: the handle t->u.event.ev was resolved from
     * (NULL: a task capture.c planned whole), and whether the caller has
     * already offered the task to the model path. */
    const void *event;
    bool model_asked;
    /* The task exists only in a model (the cache tasks with a descriptor
     * or a barrier): a stream recording for no model refuses it (507000). */
    bool model_only;
    /* Out: the caller must wait for the stream (ASCEND_RT_LAUNCH_BLOCKING;
     * kernels and model runs). */
    bool blocks;
    /* Out: an event task found, under the locks, that it belongs to a
     * model (a capture began meanwhile): nothing was queued, ask the model
     * path. */
    bool model_path;
    /* The caller holds capture_lock: the snapshot gate is not waited at
     * (snapshot_gate would block with a lock held). */
    bool under_lock;
    /* Internal (stream.c): a refused task kept for the caller to give back
     * after check_lock is dropped (giving it back may end a model run,
     * whose lock ranks above check_lock). */
    struct task *refused_task;
};

/* ---- task records (task.c) ---------------------------------------------- */

/* Task records come from a per-thread cache. */
struct task *task_alloc(void);
void task_free(struct task *t);
void task_cache_release(void);
/* Releases what a finished or discarded task holds (its destructor); not
 * the task itself. */
void task_release(struct task *t);
/* Frees kernel task t's heap copy of its arguments, if it has one (all a
 * kernel task holds before it is committed). */
void task_free_kernel_args(struct task *t);

/*
 * A launch in two steps. The caller makes a task and fills it without
 * locks (arguments copied, references taken); stream_submit then takes
 * s->lock only to check that s takes it (and, for an event task, to give
 * it its record number under the event's lock), to copy the stream's
 * settings into it, and to queue it. On a refusal it gives the task back
 * (stream_task_drop) and returns the error, formatted after the unlock.
 */
static inline aclError stream_task_new(const char *fn, enum task_kind kind, struct task **out);
aclError stream_submit(struct submit *sub, struct stream *s, struct task *t);
/* Gives back a task that never reached a stream, with what it holds. */
void stream_task_drop(struct task *t);
/* Reads ASCEND_RT_LAUNCH_BLOCKING (once, at aclInit or first use). */
void stream_blocking_configure(void);
/* Settings of a stream the API sets and reads: each a uint32_t under
 * s->lock, read by launches at issue (stream_submit). */
enum stream_setting {
    STREAM_FAILURE_MODE,         /* as set on this stream (the context's may be STOP) */
    STREAM_OVERFLOW_SWITCH,
    STREAM_USER_TAG,
    STREAM_CACHE_OP_INFO,
    STREAM_BLOCKING_MODE,        /* ACL_STREAM_LAUNCH_BLOCKING_MODE_* */
    STREAM_RES_LIMIT_CUBE,       /* aclrtSetStreamResLimit: 0 = none, else the limit + 1 */
    STREAM_RES_LIMIT_VECTOR,
};
void stream_setting_set(struct stream *s, enum stream_setting which, uint32_t value);
uint32_t stream_setting_get(struct stream *s, enum stream_setting which);
/* aclrtSetStreamAttribute(PRIORITY): moves s within the ready set too. */
void stream_set_priority(struct stream *s, uint32_t prio);
/* aclrtNonBlockingLaunchBegin / End. End returns false when no region is
 * open; *sync: the region closed and its launches would have blocked, so
 * the caller synchronises the stream. */
/* Whether s records its tasks for a model now (a capture, or a model
 * being built): a model-only task would be taken (submit.model_only). */
bool stream_records(struct stream *s);
void stream_nonblocking_begin(struct stream *s);
bool stream_nonblocking_end(struct stream *s, bool *sync);
/* The streams of ctx and their handles, taken under its lock (one
 * allocation: free the list). NULL when out of memory. */
struct stream **stream_list_of(struct context *ctx, void ***handles, size_t *n);
/* Streams whose work the host never waits for (aclrtSynchronize* returns
 * at once): kept for a model, or run by the device alone. */
#define STREAM_NO_HOST_SYNC (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY)
/* aclrtSynchronizeDevice: waits for each of the n streams (skipping those
 * the host does not wait for or that record for a capture, and those
 * destroyed meanwhile) until deadline_ns (0 = none). Returns the first
 * task error, or ACL_ERROR_RT_STREAM_SYNC_TIMEOUT with *late the stream
 * that ran out of time. */
aclError stream_sync_all(struct stream **list, void **handles, size_t n, uint64_t deadline_ns, struct stream **late);
/* Records that no task record could be had for fn. */
void stream_task_oom(const char *fn);

/* Inline: every launch makes one. */
static inline aclError stream_task_new(const char *fn, enum task_kind kind, struct task **out)
{
    struct task *t = task_alloc();
    if (ACLCPU_UNLIKELY(t == NULL)) {
        stream_task_oom(fn);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    store_relaxed(&t->q.next, NULL);
    t->kind = (uint8_t)kind;
    t->issuer = plat_thread_tid() & 0xFFFFFFu; /* before any lock: the first call asks the kernel */
    /* Every kind: the profiler's hooks test it (0 unless profhook_issue_locked
     * gives the task an entry). */
    t->prof_id = 0;
    if (kind != TASK_KERNEL) {
        /* A kernel launch sets every field of its kind; the others rely on
         * zeroes for what they leave unset. */
        memset(&t->u, 0, sizeof(t->u));
    }
    *out = t;
    return ACL_SUCCESS;
}
/* Argument space of n bytes for kernel task t (inline or heap), noted in
 * t->u.kernel.args_size (see task_kernel_args); NULL on OOM. */
void *task_args_reserve(struct task *t, size_t n);

/* ---- events (event.c) ------------------------------------------------------ */

struct event {
    struct obj_header hdr;
    plat_spin lock;              /* everything below */
    _Atomic uint32_t wake_word;  /* futex for host waiters; survives recycling */
    /* Set once at creation and read relaxed, for the reason given at
     * stream->id. */
    _Atomic uint32_t flags;
    _Atomic bool ex;             /* created by aclrtCreateEventExWithFlag */
    _Atomic int32_t id;
    _Atomic(struct device *) dev; /* read before the lock by calls that check devices match */
    _Atomic(struct context *) ctx; /* read before the lock by a sync */
    /* The flag (ACL_EVENT_RECORD_* / ACL_EVENT_WAIT_*) the first record
     * [0] and the first wait [1] were made with, EVENT_OP_FLAG_UNSET until
     * then: every later one must use the same. Set once by compare and
     * exchange, relaxed: only this word is read, it publishes nothing. */
    _Atomic uint32_t op_flag[2];
    bool notify;                 /* an aclrtNotify: records set it, a wait consumes it */
    bool notified;               /* notify: set by a record, cleared by the wait it releases */
    /* An aclrtCntNotify (also `notify`): records change `count` (set, add,
     * or, and) and a wait passes while it passes the wait's test. */
    bool counting;
    uint32_t count;
    bool lazy_slot;              /* aclrtCreateEvent: takes its id at first record */
    /* aclrtCreateEventWithFlag with SYNC or EXTERNAL: one hardware flag for
     * all records. A record sets it, only a reset clears it, and a wait
     * waits for it to be set (also before any record), whichever record
     * set it. Plain and Ex events are snapshots: a wait waits for the
     * newest record at the call. Set at creation, read under lock. */
    bool hw_flag;
    bool holds_slot;             /* counts against the SoC's event cap */
    uint64_t record_gen;         /* newest record issued */
    const void *last_recorder;   /* handle of the stream the newest record was issued on */
    uint64_t done_gen;           /* newest record completed (never moves back) */
    /* Records issued on streams and not reached yet, oldest first (so in
     * gen order): a record below done_gen may still be one of them, and a
     * wait for it must not pass (event_gen_done_locked). */
    struct task *pending_head, *pending_tail;
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
    /* ... and that model is a capture still under way: a record of the
     * event on another stream does not take its place until the capture
     * ends (waits on the event stay waits on the captured record). */
    bool rec_capturing;
    struct list ctx_link;        /* ctx->events, under ctx->lock */
    /* Shared with another process (core/ipc.c): the shared words hold its
     * records, flag and done number; set once under the lock. */
    struct ipc_link *ipc;
};

#define EVENT_OP_FLAG_UNSET UINT32_MAX
/* aclrtCreateEventWithFlag's bit 0x4 (the runtime's DDSYNC, no ACL name):
 * a waitable event that holds an id from creation, a snapshot as the
 * events of aclrtCreateEvent are (event.hpp IsEventWithoutWaitTask). */
#define EVENT_FLAG_DDSYNC 0x4u

/* As stream_ctx. */
static inline struct context *event_ctx(const struct event *ev)
{
    return load_relaxed(&ev->ctx);
}

/* ---- kernels and binaries (kernel.c) ------------------------------------- */

struct binary {
    struct obj_header hdr;
    plat_mutex lock;             /* funcs; load and unload */
    /* Launches take and drop references without the lock (kernel.c):
     * atomic and kept across recycling, as a stale launcher may still try
     * one on this memory. */
    _Atomic uint32_t inflight;   /* the load's reference + queued launches */
    _Atomic bool unloaded;
    void *lib;                   /* recycling clears from here on */
    char path[512];
    struct list funcs;
    bool cpu;                    /* loaded with a CPU kernel mode: its kernels are AI CPU kernels */
    /* aclrtBinarySetExceptionCallback, under lock: called when one of the
     * binary's kernels fails (engine/exception.c). */
    aclrtOpExceptionCallback exc_cb;
    void *exc_user;
};

struct kfunc {
    struct obj_header hdr;
    /* Set at creation; atomic (relaxed) and kept across recycling because
     * a launch reads them before it knows the handle still holds. */
    _Atomic(aclcpuKernelFn) fn;
    _Atomic(struct binary *) bin; /* NULL for kernels the program registered */
    char name[128];              /* recycling clears from here on */
    struct list bin_link;
    /* aclcpuSetKernelCost, under cost_lock (kernel.c); launches copy it.
     * has_cost is also read without the lock, as a hint. */
    aclcpuKernelCost cost;
    _Atomic bool has_cost;
    bool cpu;                    /* an AI CPU kernel (aclrtRegisterCpuFunc, or of a CPU binary) */
};

/* The mechanism under api/api_binary.c, which has checked the arguments;
 * fn names the API call in messages. */
/* Registers kernel under name (1 to 127 bytes), or finds it registered. */
aclError kfunc_register(const char *fn, const char *name, aclcpuKernelFn kernel, aclrtFuncHandle *funcHandle);
/* Loads the shared object at path; what names it in messages. */
aclError binary_load(const char *fn, const char *path, const char *what, bool cpu, aclrtBinHandle *binHandle);
/* Loads length bytes of a shared object from memory. */
aclError binary_load_data(const char *fn, const void *data, size_t length, bool cpu, aclrtBinHandle *binHandle);
/* The kernel of b whose code starts at entry (aclrtBinaryGetFunctionByEntry). */
aclError binary_function_at(const char *fn, struct binary *b, const void *entry, aclrtFuncHandle *funcHandle);
/* The address range b's shared object spans (aclrtBinaryGetDevAddress). */
aclError binary_extent(const char *fn, struct binary *b, void **base, size_t *size);
/* A global of b's shared object by name: its address and size (0 when the
 * object does not say). */
aclError binary_global(const char *fn, struct binary *b, const char *name, void **addr, size_t *size);
/* The size in bytes of a kernel's code (0 when its object does not say). */
size_t kfunc_code_size(const struct kfunc *f);
/* The loaded binary h names, or NULL (*err: 107017). */
struct binary *binary_resolve(const char *fn, aclrtBinHandle h, aclError *err);
aclError binary_function(const char *fn, struct binary *b, const char *kernelName, aclrtFuncHandle *funcHandle);
/* Sets b's exception callback and its user data (the last set wins). */
void binary_set_exc_callback(struct binary *b, aclrtOpExceptionCallback cb, void *user);
/* b's exception callback (NULL: none) and its user data, read under b->lock. */
aclrtOpExceptionCallback binary_exc_callback(struct binary *b, void **user);
aclError binary_unload(const char *fn, struct binary *b, aclrtBinHandle binHandle);
/* Declares f's cost (a checked one), or forgets it (cost NULL). */
void kfunc_set_cost(struct kfunc *f, const aclcpuKernelCost *cost);

void binary_put_inflight(struct binary *b);
/* The rest of kfunc_resolve_for_launch: a kernel of a binary (takes the
 * reference), or a handle that does not resolve (f NULL). */
aclError kfunc_resolve_binary(const char *fn, aclrtFuncHandle h, struct kfunc *f, aclcpuKernelFn *kfn,
                              struct binary **bin);

/* Resolves a function handle for a launch and takes an inflight reference
 * on its binary (dropped by task_release); *kf gets the kernel itself.
 * Inline for the common case, a kernel the program registered, which has
 * no binary. */
static inline aclError kfunc_resolve_for_launch(const char *fn, aclrtFuncHandle h, aclcpuKernelFn *kfn,
                                                struct binary **bin, const struct kfunc **kf)
{
    struct kfunc *f = (struct kfunc *)obj_resolve(h, OBJ_FUNC);
    *kf = f;
    if (ACLCPU_LIKELY(f != NULL) && load_relaxed(&f->bin) == NULL) {
        /* Relaxed: set before the handle was published (obj_publish). The
         * handle is checked again after the read: f's memory may have been
         * reused meanwhile (binary kernels are recycled at unload). */
        *kfn = load_relaxed(&f->fn);
        *bin = NULL;
        if (ACLCPU_LIKELY(obj_same(&f->hdr, h)))
            return ACL_SUCCESS;
    }
    return kfunc_resolve_binary(fn, h, f, kfn, bin);
}
/* The cost aclcpuSetKernelCost declared for f, if any. */
bool kfunc_cost(const struct kfunc *f, aclcpuKernelCost *out);
/* The handle of the first kernel registered (kfunc_register) with the
 * function sym; false if none is (kernels of binaries are found by name). */
bool kfunc_by_symbol(const void *sym, aclrtFuncHandle *funcHandle);

/* ---- device symbols (symbol.c) --------------------------------------------- */

/* The longest name a symbol keeps for messages (longer ones are cut). */
#define SYMBOL_NAME_MAX 63

struct symbol_info {
    void *dev;                       /* its device address (its host address) */
    size_t size;                     /* the bytes registered */
    char name[SYMBOL_NAME_MAX + 1];  /* "" if registered without a name */
};

/* Registers the object at addr, size bytes (not 0), under name (may be
 * NULL); registering it again with the same size succeeds, with another
 * size gives 100000. fn names the API call in messages. */
aclError symbol_register(const char *fn, const void *addr, size_t size, const char *name);
/* Forgets addr's registration; false if it had none. */
bool symbol_unregister(const void *addr);
/* What addr is registered as; false if it is not a registered symbol. */
bool symbol_lookup(const void *addr, struct symbol_info *out);

/* ---- events (event.c) ------------------------------------------------------ */

/* Executor hooks (called by the engine while it owns the task's stream). */
bool event_wait_or_park(struct stream *s, struct task *t);
void event_record_done(struct task *t, uint64_t now_ns);
/* Completes record gen of ev (GEN_LATEST: a new record made now) and
 * releases what waits for it. Called without locks. */
void event_reach(struct event *ev, uint64_t gen, uint64_t now_ns);
/* A notify record t played in a model's run: a new record made now, with
 * t's operation when the notify counts. */
void event_notify_played(struct task *t, uint64_t now_ns);
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
/* Called with ev->lock held: has record gen itself completed? (Records
 * complete out of order across streams: a later one being done says
 * nothing of this one.) */
bool event_gen_done_locked(struct event *ev, uint64_t gen);
/* An event's state, read at once under its lock (queries, timestamps). */
struct event_view {
    uint64_t record_gen, done_gen, ts;
    bool reset_done;
    uint64_t waits_issued, waits_done;
};
void event_snapshot(struct event *ev, struct event_view *out);
/* Called with s->lock held by stream_submit: fills event or notify task t
 * for s under the event's lock (a record takes the next record number, a
 * wait snapshots the newest) and counts it pending. */
enum refusal event_issue_locked(struct stream *s, struct task *t, const struct submit *sub);

aclError event_create(struct context *ctx, uint32_t flags, bool ex, bool lazy_slot, struct event **out);
/* An internal event (Ex, SYNC): a model's edge or completion; user
 * handles never resolve to it. */
aclError event_create_internal(struct context *ctx, struct event **out);
aclError notify_create(struct context *ctx, struct event **out);
/* A counting notify of ctx (aclrtCntNotifyCreate); a counting wait's
 * test, as its task's gen. */
aclError cnt_notify_create(struct context *ctx, struct event **out);
/* aclrtNotifyBatchReset: clears a record no wait has consumed yet. */
void notify_reset(struct event *n);
uint64_t cnt_cond(uint8_t mode, uint32_t value, bool clear);
/* Ends an event (or notify); fails with 107017 if handle (when given) no
 * longer names it. */
aclError event_destroy(struct event *ev, const void *handle);
/* An IPC event or notify changed in another process: releases the streams
 * and host threads whose wait has passed (the IPC watcher calls it). */
void event_ipc_refresh(struct event *ev);
/* Called with ev->lock held: the newest record a sync waits for. */
uint64_t event_newest_locked(struct event *ev);
/* A record of ev issued now on no stream: t (fresh) becomes record number
 * record_gen + 1, made on behalf of the stream `recorder` (a handle); it
 * is pending until event_record_done(t) or event_task_release(t) reaches
 * it (a captured model's external record, issued with its run). */
void event_issue_detached_record(struct event *ev, struct task *t, const void *recorder);
/* The record a wait issued now would wait for: the newest, or 0 when ev
 * was never recorded (a captured model's external wait, fixed with its run). */
uint64_t event_wait_snapshot(struct event *ev);

/* ---- IPC events and notifies (ipc.c) ---------------------------------------- */

struct ipc_link;
/* Exports ev (an ACL_EVENT_IPC event, or a notify) under a new key. */
aclError ipc_event_export(struct event *ev, bool no_pid_check, char *key);
/* The allow-list of an exported notify; 107000 if it is not exported here. */
aclError ipc_event_allow(struct event *ev, const int32_t *pids, size_t n, const char **why);
/* A new event or notify of ctx bound to the export key names. */
aclError ipc_event_import(struct context *ctx, const char *key, bool notify, struct event **out, const char **why);
/* The key ev was exported or imported under (false if it is not shared). */
bool ipc_event_key(struct event *ev, char *key);
/* Ends ev's sharing: stops its watcher, drops the export or the import. */
void ipc_event_detach(struct event *ev);
/* For event.c, under ev->lock: the shared words of an IPC object. */
struct ipc_slot *ipc_event_slot(const struct event *ev);
/* IPC objects live now (a test checks teardown brings it to 0). */
uint32_t ipc_event_links(void);

/* ---- stream state callbacks (stream.c) ------------------------------------ */

void stream_state_notify(struct stream *s, aclrtStreamState state);
aclError stream_state_register(const char *name, aclrtStreamStateCallback cb, void *args);

/* ---- process snapshots (snapshot.c) ------------------------------------------ */

/* The gate new stream work passes (stream_submit): closed from a snapshot
 * lock to its unlock. Relaxed: a submission racing the lock may pass; the
 * backup waits for every stream, so what passed is in it. */
extern _Atomic uint32_t snapshot_gate_word;
static inline bool snapshot_gate_closed(void) { return load_relaxed(&snapshot_gate_word) != 0; }
/* Blocks the calling thread until the gate opens. */
void snapshot_gate_wait(void);
/* The API entries the reference holds while locked (GLOBAL_STATE_WAIT_IF_LOCKED:
 * devices, contexts, streams, events, notifies, memory) call this after
 * their ACL-layer checks. */
static inline void snapshot_gate(void)
{
    if (ACLCPU_UNLIKELY(snapshot_gate_closed()))
        snapshot_gate_wait();
}
/* The state machine, each with the reference's codes: lock from RUNNING
 * (507906), unlock from LOCKED or BACKED_UP (507907), backup from LOCKED
 * (507908), restore from BACKED_UP (507909); a stage callback that fails:
 * 507912. fn names the API function in messages. */
aclError snapshot_lock(const char *fn);
aclError snapshot_unlock(const char *fn);
aclError snapshot_backup(const char *fn);
aclError snapshot_restore(const char *fn);
/* stage is valid and cb not NULL (the caller checked): a second
 * registration of cb for stage is 507913; unregistering one that is not
 * registered is 107000. */
aclError snapshot_cb_register(const char *fn, aclrtSnapShotStage stage, aclrtSnapShotCallBack cb, void *args);
aclError snapshot_cb_unregister(const char *fn, aclrtSnapShotStage stage, aclrtSnapShotCallBack cb);

/* ---- device state and device task abort (recovery.c) ------------------------ */

/* Registers (cb NULL: removes) a named device state callback; a name
 * registered already is 107000. */
aclError devstate_register(const char *fn, const char *name, aclrtDeviceStateCallback cb, void *args);
/* Tells every device state callback, with no lock held by the caller. */
void devstate_notify(int32_t device, aclrtDeviceState state);
/* The same pair for device task abort callbacks. */
aclError taskabort_register(const char *fn, const char *name, aclrtDeviceTaskAbortCallback cb, void *args);
/* Aborts every task of d: its contexts' streams (running task at its next
 * block, queued ones dropped) and model runs, with the callbacks told PRE
 * before and POST after; clears the contexts' STOP failures. timeout_ms
 * (0: none) bounds the whole (107019). No context on d: 107002. */
aclError device_task_abort(const char *fn, struct device *d, uint32_t timeout_ms);

#endif
