/*
 * profile.h - the profiler: what the runtime tells it (task issued, task
 * ran, host synchronised), the model of the SoC built from that
 * (chipsim.c), and the files written from both (profwrite.c).
 *
 * The runtime sees one narrow interface of plain data: it describes a task
 * in a struct prof_task (core/profhook.c fills one from a struct task) and
 * names entries by their ids; nothing here knows a core or engine object.
 * prof_on() is a relaxed load of one flag, and a task is profiled only when
 * it got an entry at issue (task->prof_id != 0), so profiling that is off
 * costs one predictable branch per launch.
 *
 * The profiler never allocates under a lock: prof_issue runs under the
 * stream's spinlock and takes its own (prof_lock), so its storage grows
 * ahead of use, in prof_prepare, which the runtime calls before it takes
 * the stream's lock. The other hooks prepare by themselves.
 */
#ifndef ACLCPU_PROFILE_H
#define ACLCPU_PROFILE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclcpu/aclcpu.h"
#include "../platform/atomics.h"
#include "../common/common.h"

/* What an entry is. 1..16 are the runtime's task kinds, by the same
 * numbers (core/profhook.c checks that); the rest are the profiler's own. */
enum prof_kind {
    PK_KERNEL = 1,
    PK_COPY,
    PK_SET,
    PK_HOST_FUNC,
    PK_CALLBACK,
    PK_EVENT_RECORD,
    PK_EVENT_WAIT,
    PK_EVENT_RESET,
    PK_NOTIFY_RECORD,
    PK_NOTIFY_WAIT,
    PK_MODEL_RUN,        /* issued: becomes PK_RUN_BEGIN and PK_RUN_END */
    PK_LANE_RUN,
    PK_ACTIVE,
    PK_SWITCH,
    PK_MODEL_END,
    PK_GROUP_UPDATE,
    PK_RUN_BEGIN = 32,   /* a model run starts (on the caller's stream) */
    PK_RUN_END,          /* it ends: after every lane's last task */
    PK_CMO,              /* aclrtCmoAsync */
    PK_MARK,             /* aclprofMarkEx on a stream */
    PK_STEP_START,       /* aclprofGetStepTimestamp */
    PK_STEP_END,
    PK_HOST_SYNC,        /* a host thread came back from a sync: what it waited for */
    PK_HOST_RANGE,       /* aclprofRangePushEx..Pop */
    PK_HOST_MARK,        /* aclprofMark */
};

/* A copy's direction, as the runtime's enum copy_dir numbers it. */
enum prof_copy_dir { PCD_NONE, PCD_H2D, PCD_D2H, PCD_D2D, PCD_H2H };

/* Which record of an event an entry makes or waits for: the event object
 * (compared, never followed), its generation, its id, the record number. */
struct prof_event_key {
    const void *ev;
    uint32_t objgen;
    int32_t id;
    uint64_t gen;
};

/* A task as the profiler is told of it, when it is issued or played. The
 * profiler reads kind, device, stream_id, task_id, model_id and the fields
 * of the kind only (kernels: engine to cost and args; copies: bytes and
 * copy_dir; sets: bytes; CMO: cmo_type, addr, bytes; marks: name; steps:
 * step; events: ev; model runs: object), so the rest may be left unset. */
struct prof_task {
    uint8_t kind;            /* enum prof_kind */
    uint8_t engine;          /* kernels: aclrtEngineType */
    uint8_t sched;           /* kernels: 0 normal, 1 batch */
    uint8_t copy_dir;        /* copies: enum prof_copy_dir */
    uint8_t cmo_type;        /* CMO: aclrtCmoType */
    uint16_t limit[2];       /* kernels: cube, vector cores in force at launch */
    int32_t device;
    int32_t stream_id;
    uint32_t task_id;        /* 1-based position in its stream */
    uint32_t model_id;       /* UINT32_MAX for eager tasks */
    uint32_t blocks;         /* kernels */
    /* Kernels: the kernel object (the profile copies its name once per
     * object and generation); model runs: the model (its runs are
     * serialised in the model). Compared, never followed. */
    const void *object;
    uint32_t object_gen;
    const char *name;        /* kernel or marker name (copied), or NULL */
    const aclcpuKernelCost *cost; /* kernels: the declared cost in force (copied), or NULL */
    const void *args;        /* kernels: the argument bytes (read at once) */
    size_t args_size;
    uint64_t bytes, addr;    /* copies, sets, CMO */
    uint64_t step;           /* steps: the step's index */
    struct prof_event_key ev; /* event and notify tasks */
};

/* The SoC a profile models (the profiled device's). */
struct prof_soc {
    const char *name;        /* static, as the runtime's SoC table */
    uint32_t cube_cores, vector_cores;
    uint64_t l2_bytes;
    double hbm_gbps, h2d_gbps;
    double hbm_sat_cores;    /* cube cores whose reads at once saturate HBM */
    double dispatch_us;      /* every stream task starts this long after it could */
    double event_us;         /* a record releases its waits this long after it ran */
};

#define PROF_MAX_PTRS 4

struct prof_entry {
    uint8_t kind;
    uint8_t engine;          /* aclrtEngineType */
    uint8_t sched;           /* 0 normal, 1 batch */
    uint8_t mix;
    uint8_t copy_dir;
    uint8_t cmo_type;
    uint8_t declared;        /* a declared cost (else measured) */
    uint8_t dropped;         /* discarded (abort, STOP, destroy): never ran */
    uint8_t nptrs;
    uint8_t done;            /* finished (measured times valid) */
    uint16_t limit[2];       /* cube, vector cores in force at launch */
    int32_t device;
    int32_t stream_id;       /* -1 for host entries */
    uint32_t task_id;        /* 1-based position in its stream */
    uint32_t model_id;       /* UINT32_MAX for eager tasks */
    uint32_t host_thread;    /* 1-based index of the issuing host thread */
    uint32_t host_dep;       /* the host thread's last sync before the issue, or 0 */
    uint32_t dep_head;       /* more entries it waits for (list in the dep pool), or 0 */
    uint32_t blocks;
    int32_t ev_id;           /* event / notify id */
    uint32_t ev_objgen;      /* with ev and gen: which record (the event object's generation) */
    const void *ev;
    uint64_t gen;
    const char *name;        /* kernel, marker or API name (the profile's copy), or NULL */
    double us_fixed, us_total, us_launch;
    uint64_t hbm_bytes, bytes;
    uint64_t addr;           /* CMO: the range [addr, addr + bytes) */
    uint64_t ptrs[PROF_MAX_PTRS]; /* kernels: device pointers among the arguments */
    /* Measured (ns, monotonic), filled by whoever runs the task. */
    uint64_t issue_ns, start_ns, end_ns, busy_ns;
    int32_t worker;          /* worker index, -1 for a host thread */
    /* Modelled (us from 0), filled by chipsim: when it could start, started
     * and ended, when its host thread issued it, and (waits) the record
     * that released it. */
    double m_ready, m_start, m_end, m_host;
    uint32_t m_record;
};

/* ---- switch ---------------------------------------------------------------- */

/* Relaxed: a hint for the issue path; entries made around a start or stop
 * are simply in or out of the profile. Set while a session runs. */
extern _Atomic bool prof_active_flag;
static inline bool prof_on(void) { return load_relaxed(&prof_active_flag); }

/* Starts a session written to dir when it stops, modelling soc (copied). */
aclError prof_begin(const char *dir, bool block_dim_names, const struct prof_soc *soc);
/* Stops: waits (bounded) for profiled tasks in flight, models the run and
 * writes the files, then frees the session; returns 0 or a code
 * (unwritable directory: 100003). why gets a message when it fails. */
aclError prof_end(char *why, size_t n);
bool prof_running(void);
/* ACLCPU_PROFILE_BLOCK_DIM=1: the older column names Block Dim / Mix Block Dim. */
bool prof_block_dim_names(void);

/* ACLCPU_PROFILE=<dir>: a profile of the whole run, begun at aclInit and
 * written at aclFinalize (or exit), modelling soc. */
void prof_env_start(const struct prof_soc *soc);
void prof_env_stop(void);
bool prof_env_active(void);
/* Collection mode (aclprofInit .. aclprofFinalize, or ACLCPU_PROFILE): model
 * subscription is refused meanwhile, and collection while subscribed. */
void prof_set_collecting(bool on);
bool prof_collecting(void);
/* aclFinalize ends collection as CANN's MsprofFinalize does (the aclprof
 * API is off again, not initialised); the API counts these to catch up. */
void prof_acl_finalized(void);
uint32_t prof_acl_finalize_count(void);

/* ---- runtime hooks ------------------------------------------------------------ */

/* Relaxed: set (under prof_lock) when an entry finds less than half the
 * headroom of a store left; prof_grow reads what is missing under locks. */
extern _Atomic bool prof_grow_flag;
/* Tops the running session's stores up to their headroom (records, dep
 * nodes, side records, arena bytes, key tables). No spinlock held. */
void prof_grow(void);
/* Called before the stream's lock is taken for an issue (and by the hooks
 * below for themselves), holding no spinlock: grows the profile's storage
 * when an entry asked for it. Off the profile, and almost always on it,
 * one relaxed load and a predictable branch. */
static inline void prof_prepare(void)
{
    PLAT_ASSERT_NO_SPIN("preparing the profile"); /* debug builds: every call site, every time */
    if (ACLCPU_UNLIKELY(load_relaxed(&prof_grow_flag)))
        prof_grow();
}

/* An eager task was queued (called under its stream's lock, after
 * prof_prepare): its entry id, or 0 when no session runs, or when the
 * profile had no room left for it (a burst outran prof_grow: the task is
 * counted as dropped, and prof_end says so). A model run gets two entries,
 * its begin (the id returned) and its end (*run_end), after the model's
 * previous run. */
uint32_t prof_issue(const struct prof_task *pt, uint32_t *run_end);
/* Entry id began running on worker (-1: a host thread); the first time
 * only counts. */
void prof_task_started(uint32_t id, int worker);
/* A profiled kernel's blocks took busy_ns of CPU time in all. */
void prof_kernel_busy(uint32_t id, uint64_t busy_ns);
/* Entry id finished (run_end: a model run's end entry, else 0). */
void prof_task_ended(uint32_t id, uint32_t run_end);
/* A wait that is not a snapshot (notify, EXTERNAL event) passed: the
 * record it took is the event's newest done one, gen. */
void prof_wait_took(uint32_t id, uint64_t gen);
/* The task of entry id is released: if it never ran, it was dropped. */
void prof_task_released(uint32_t id, uint32_t run_end);

/* Model runs: a lane task's entry (made when played, by the one executor
 * playing the lane, on worker) after entry `after`, returning its id; a
 * lane's end (its last entry) for the run's end. */
uint32_t prof_lane_task(const struct prof_task *pt, uint32_t after, uint64_t start_ns, uint64_t end_ns,
                        uint64_t busy_ns, int worker);
void prof_run_lane_ended(uint32_t run_end, uint32_t last);

/* A host thread came back from a sync that waited for entries deps[0..n)
 * (or for the record key of an event). */
void prof_host_sync(const char *api, const uint32_t *deps, unsigned n, uint64_t start_ns, uint64_t end_ns);
void prof_host_sync_event(const char *api, const struct prof_event_key *key, uint64_t start_ns, uint64_t end_ns);
/* Markers and ranges on the host (msg is copied). */
void prof_host_mark(const char *msg, uint64_t ns);
uint32_t prof_host_range_begin(const char *msg, uint64_t ns);
void prof_host_range_end(uint32_t id, uint64_t ns);

/* ---- what chipsim and profwrite see of the session being written ------------------ */

struct prof_entry *prof_entry(uint32_t id);
uint32_t prof_count(void);
/* The entries id depends on beyond stream order: walks the list. */
uint32_t prof_dep_first(uint32_t entry, uint32_t *cursor);
uint32_t prof_dep_next(uint32_t *cursor);
/* The SoC the profile models. */
const struct prof_soc *prof_soc(void);

/* chipsim.c: fills m_* of every entry; false when nothing was profiled. */
bool chipsim_run(void);

/* profwrite.c: writes every file into dir/ASCEND_PROFILER_OUTPUT. */
aclError profwrite_all(const char *dir, bool block_dim_names, char *why, size_t n);

#endif
