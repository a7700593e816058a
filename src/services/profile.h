/*
 * profile.h - the profiler: what the engine tells it (task issued, task
 * ran, host synchronised), the model of the SoC built from that
 * (chipsim.c), and the files written from both (profwrite.c).
 *
 * The engine sees one narrow interface: prof_on() is a relaxed load of one
 * flag, and a task is profiled only when it got an entry at issue
 * (task->prof_id != 0), so profiling that is off costs one predictable
 * branch per launch.
 */
#ifndef ACLCPU_PROFILE_H
#define ACLCPU_PROFILE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/core.h"

/* Kinds of entry beyond the task kinds (core.h), which they extend. */
enum prof_kind {
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
    double us_fixed, us_total;
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
 * are simply in or out of the profile. */
extern _Atomic bool prof_active_flag;
static inline bool prof_on(void) { return load_relaxed(&prof_active_flag); }

/* Starts a profile written to dir when it stops. */
aclError prof_begin(const char *dir, bool block_dim_names);
/* Stops: waits (bounded) for profiled tasks in flight, models the run and
 * writes the files; returns 0 or a code (unwritable directory: 100003).
 * why gets a message when it fails. */
aclError prof_end(char *why, size_t n);
bool prof_running(void);
/* ACLCPU_PROFILE_BLOCK_DIM=1: the older column names Block Dim / Mix Block Dim. */
bool prof_block_dim_names(void);

/* ACLCPU_PROFILE=<dir>: a profile of the whole run, begun at aclInit and
 * written at aclFinalize (or exit). */
void prof_env_start(void);
void prof_env_stop(void);
bool prof_env_active(void);
/* Collection mode (aclprofInit .. aclprofFinalize, or ACLCPU_PROFILE): model
 * subscription is refused meanwhile, and collection while subscribed. */
void prof_set_collecting(bool on);
bool prof_collecting(void);

/* ---- engine hooks ------------------------------------------------------------- */

/* Called with s->lock held when an eager task is queued: gives it an entry. */
void prof_issue_locked(struct stream *s, struct task *t);
/* The owner of t's stream began running it (the first time only counts). */
void prof_task_started(struct task *t);
/* A profiled kernel's blocks took busy_ns of CPU time in all. */
void prof_kernel_busy(struct task *t, uint64_t busy_ns);
/* t finished. */
void prof_task_ended(struct task *t);
/* A wait that is not a snapshot (notify, EXTERNAL event) passed: the
 * record it took is the event's newest done one, gen. */
void prof_wait_took(struct task *t, uint64_t gen);
/* t is released: if it never ran, it was dropped. */
void prof_task_released(struct task *t);

/* Model runs: a lane task's entry (made when played, on the lane's runner,
 * by the one executor playing the lane) returning its id; gen is the
 * record an event task made or took; a lane's end (its last entry) for
 * the run's end. */
uint32_t prof_lane_task(struct stream *runner, const struct task *rt, uint32_t model_id, uint64_t gen,
                        uint32_t after, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns);
void prof_run_lane_ended(uint32_t run_end, uint32_t last);

/* A host thread came back from a sync that waited for entries deps[0..n)
 * (or, with ev, for the record gen of ev). */
void prof_host_sync(const char *api, const uint32_t *deps, unsigned n, uint64_t start_ns, uint64_t end_ns);
void prof_host_sync_event(const char *api, struct event *ev, uint64_t gen, uint64_t start_ns, uint64_t end_ns);
/* Markers and ranges on the host (msg is copied). */
void prof_host_mark(const char *msg, uint64_t ns);
uint32_t prof_host_range_begin(const char *msg, uint64_t ns);
void prof_host_range_end(uint32_t id, uint64_t ns);

/* The newest entry issued to s (stream syncs wait for it), or 0. */
uint32_t prof_stream_last(struct stream *s);
/* When the profile began (ns, monotonic): the measured clock's zero. */
uint64_t prof_begin_ns(void);

/* ---- what chipsim and profwrite see ---------------------------------------------- */

struct prof_entry *prof_entry(uint32_t id);
uint32_t prof_count(void);
/* The entries id depends on beyond stream order: walks the list. */
uint32_t prof_dep_first(uint32_t entry, uint32_t *cursor);
uint32_t prof_dep_next(uint32_t *cursor);
/* The SoC the profile models (device 0's, or the default). */
const struct soc_profile *prof_soc(void);

/* chipsim.c: fills m_* of every entry; false when nothing was profiled. */
bool chipsim_run(void);

/* profwrite.c: writes every file into dir/ASCEND_PROFILER_OUTPUT. */
aclError profwrite_all(const char *dir, bool block_dim_names, char *why, size_t n);

#endif
