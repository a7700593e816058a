/*
 * model.h - model run instances (aclmdlRI): lanes of recorded tasks, the
 * build and capture states, task groups, and what the engine needs to run
 * a model (engine/replay.c).
 *
 * A model has one lane per stream that was bound to it (build mode) or
 * that took part in its capture. A lane is a list of recorded tasks, the
 * same records a launch makes, kept in the model instead of a queue, and a
 * runner: an internal stream that plays the lane in each run. Events
 * recorded and waited inside the model become edge events private to it,
 * whose generation is the run number, so runs never see each other's
 * records. Runs of one model are serialised: run r starts once r - 1 ended.
 * A captured model's conditional tasks own sub models (cond.c): models of
 * their own, run by the task, freed with the model that holds the task.
 *
 * Locks: capture_lock, model->lock (ranks: common/lockrank.h).
 */
#ifndef ACLCPU_MODEL_H
#define ACLCPU_MODEL_H

#include "core.h"

enum model_kind { MODEL_BUILT, MODEL_CAPTURED };
enum model_state { MODEL_BUILDING, MODEL_CAPTURING, MODEL_READY };

/* How a recorded event task is used (task->u.event.in_model). */
enum model_event_use {
    MEV_NONE = 0,  /* an eager task, not in a model */
    MEV_EDGE,      /* record or wait of a private edge event: the generation is the run number */
    MEV_LATEST,    /* build mode: waits for the event's newest record when the wait is reached */
    MEV_REAL,      /* a record, reset or wait on the user's event, done as an eager one would */
    /* A captured model's ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL
     * on the user's event; task->u.event.gen is its index in m->ext. Each
     * run fixes them when it is issued (struct ext_run). */
    MEV_EXT_RECORD,
    MEV_EXT_WAIT,
};

/* What one run of a captured model does with its external events, fixed
 * when the run is issued (aclmdlRIExecuteAsync), as the runtime commits
 * them at launch: slot i stands for m->ext[i]. An external record is a
 * record of the user's event issued then (rec, pending until the lane
 * plays it, or until the run's task is released), so a wait issued after
 * the launch, on any stream, waits for this run's record; an external
 * wait waits for the event's newest record at the launch (gen; 0: none,
 * it passes). Owned by the run's TASK_MODEL_RUN. */
struct ext_slot {
    struct task *rec;
    uint64_t gen;
};
struct ext_run {
    uint32_t n;
    struct ext_slot slot[];
};

/* Generations with a meaning of their own in waits (event.c). */
#define GEN_FLAG (UINT64_MAX - 1)   /* EXTERNAL events: wait until set (recorded, not reset) */
#define GEN_LATEST (UINT64_MAX - 2) /* the event's newest record when the wait is reached */

struct lane {
    struct model *m;
    uint32_t index;
    uint32_t flag;               /* ACL_MODEL_STREAM_FLAG_HEAD or _DEFAULT */
    struct stream *user;         /* the bound or captured stream; NULL once it is gone */
    const void *user_handle;
    struct task head;            /* sentinel: the recorded tasks follow head.next */
    struct task *tail;
    uint32_t ntasks;
    bool closed;                 /* build ended: the lane takes no more tasks */
    struct event *tail_edge;     /* capture: the edge the lane's last task records, if it does */
    bool joined;                 /* capture: its end is joined back into the origin stream */
    struct stream *runner;       /* plays the lane in runs (an internal stream) */
    bool targeted;               /* an aclrtActiveStream/aclrtSwitchStream may start it (it is never
                                  * played inline: it could then run twice at once) */
    /* Profiled runs: the entry the lane's first task comes after (the
     * run's begin, or the task that activated it), set by whoever starts
     * the lane before it pushes the lane's task (that push publishes it). */
    uint32_t prof_after;
    /* The lane's tasks that have an entry in m->mt (model_task.c), under
     * capture_lock: positions below it are numbered. */
    uint32_t numbered;
};

/* A wait in lane `lane` on the edge `edge` (capture join check). */
struct edge_use {
    struct event *edge;
    uint32_t lane;
};

#define MODEL_ERROR_RING 64

struct model {
    struct obj_header hdr;
    plat_mutex lock;             /* everything below, unless noted */
    struct context *ctx;         /* recycling clears from here on */
    struct device *dev;
    struct list ctx_link;        /* in ctx->models, under ctx->lock */
    enum model_kind kind;
    enum model_state state;
    char *name;                  /* aclmdlRISetName's, whole (NULL: none); under capture_lock */
    struct lane **lanes;
    uint32_t nlanes, cap_lanes;
    bool has_end;

    /* Capture (under capture_lock as well). */
    struct lane *origin;
    int mode;                    /* aclmdlRICaptureMode */
    uint64_t begin_thread;
    aclError invalid;            /* why the capture was invalidated; 0 while valid */
    char invalid_why[256];
    struct list capture_link;    /* active captures */
    bool into_existing;          /* aclmdlRICaptureToModelRIBegin */

    /* Edge events, and the waits on them (capture join check). */
    struct event **edges;
    uint32_t nedges, cap_edges;
    struct edge_use *uses;
    uint32_t nuses, cap_uses;
    /* Capture: the user's events recorded in it (handles), whose
     * rec_capturing the capture's end clears. */
    const void **cap_events;
    uint32_t ncap_events, cap_cap_events;

    /* Runs. done counts them: record_gen = runs issued, done_gen = runs
     * ended in order (skipped ones included). */
    struct event *done;
    uint64_t issued, started, completed;
    uint64_t *skipped;           /* runs dropped before they started, above completed */
    uint32_t nskipped, cap_skipped;
    aclError errors[MODEL_ERROR_RING]; /* run r's result at r % MODEL_ERROR_RING */
    /* Lanes still running in the current run. Atomic: lanes end on their
     * runners without the model lock (see replay.c). */
    _Atomic uint32_t lanes_running;
    _Atomic uint64_t aborted_run;     /* aclmdlRIAbort: the run being stopped */
    _Atomic uint64_t failed_run;      /* a run that failed as a whole (a lane could not start) */
    /* ACLCPU_FAULT_LANE_START, read at build end: the lane start that
     * fails as out of memory (counts down; 0: none). */
    _Atomic uint32_t fault_lane_start;
    _Atomic int run_error;            /* first failure of the current run */
    /* TASK_MODEL_RUNs that still exist (they read the model until they are
     * released); destroy waits for none. Release on the decrement pairs
     * with destroy's acquire load. */
    _Atomic uint32_t run_tasks;
    struct task *graveyard;      /* kernels replaced by task updates, freed with the model */
    struct stream *exec_stream;  /* aclmdlRIExecute runs the model on it (internal, made at first use) */
    struct list groups;          /* task groups, by link */
    /* Capture: the lanes' external records and waits (MEV_EXT_*), in the
     * order they were captured; fixed once the model is READY. */
    struct task **ext;
    uint32_t next, cap_ext;
    /* The ext_run of the run going on (set by the executor that starts it;
     * runs are serialised; published to the lanes by their push). */
    struct ext_run *cur_ext;
    /* Profiling: the entries of the run going on (set by the executor
     * that starts it, engine/replay.c; runs of a model are serialised, so
     * there is one). The newest run's end is the profile session's. */
    uint32_t prof_run_begin, prof_run_end;
    /* aclprofModelSubscribe: set while subscribed (by api/api_profsub.c,
     * cleared there and when the model is freed; services/profsub.c holds
     * the subscription); relaxed, a hint checked again under its lock. */
    _Atomic bool subscribed;
    /* Conditional tasks (cond.c; under capture_lock): the conditions made
     * for this model, and, for a sub model of one, that condition (the sub
     * model is freed with it, never by itself). */
    struct list conds;
    struct cond *parent;
    /* Labels set on its streams (label.c; under capture_lock): a label
     * switch's index must stay below it. */
    uint32_t nlabels;
    /* The tasks as the aclmdlRITask* calls name them (model_task.c), under
     * capture_lock: entry i is the task of sequence id i. */
    struct mtask *mt;
    uint32_t nmt, cap_mt;
    /* The user's event each edge stands for (parallel to edges, under
     * capture_lock; NULL: none known). */
    const void **edge_user;
    uint32_t cap_edge_user;
    /* enum model_upd: a captured model's task changes (aclmdlRITaskSetParams,
     * aclmdlRITaskDisable, aclmdlRIUpdate); under m->lock, as runs are
     * issued under it. */
    uint8_t upd;
    /* aclmdlRIDestroyRegisterCallback's, sorted by function address, under
     * capture_lock. */
    struct destroy_cb *cbs;
    uint32_t ncbs, cap_cbs;
};

struct task_group {
    struct obj_header hdr;
    struct model *m;             /* recycling clears from here on */
    struct lane *lane;
    struct task *before;         /* the recorded task before the group's first */
    uint32_t count;
    bool open;
    struct list link;
};

/* aclmdlRICaptureTaskUpdateBegin..End on a stream: the kernels issued to it
 * are collected here, to replace the group's when the update task runs. */
struct task_update {
    struct task_group *grp;
    const void *grp_handle;
    struct task *first, *last;
    uint32_t count;
};

/* A label (aclrtCreateLabel) and a label list (aclrtCreateLabelList). A
 * label joins one list in its life and is set once, on a model stream: the
 * set is a TASK_LABEL_SET recorded in the lane, naming the list and the
 * label's place in it, which a switch of the same lane finds when it runs. */
struct label {
    struct obj_header hdr;
    struct context *ctx;         /* recycling clears from here on */
    const void *list;            /* the list it joined (a handle; NULL: none yet) */
    uint32_t index;              /* its place in that list */
    const void *stream;          /* the stream it was set on (a handle; NULL: not set) */
    uint64_t checked_in;         /* the list check that last met it (label_lock): a second meeting is a twin */
};

struct label_list {
    struct obj_header hdr;
    struct context *ctx;         /* recycling clears from here on */
    uint32_t n;
};

/* A condition of a captured model (aclmdlRICondHandleCreate): its word of
 * device memory, and the sub models of the one conditional task that uses
 * it. Freed with its model. */
struct cond {
    struct obj_header hdr;
    struct model *m;             /* recycling clears from here on */
    uint64_t *word;              /* 8 bytes of device memory of m's device */
    uint32_t def;                /* written at each launch when flag is ASSIGN_DEFAULT */
    uint32_t flag;
    int type;                    /* aclmdlRICondTaskType; -1 until aclmdlRIAddCondTask */
    uint32_t nsubs;
    struct model **subs;
    struct list link;            /* in m->conds */
};

/* ---- label.c -------------------------------------------------------------------- */

aclError label_create(struct context *ctx, struct label **out);
/* 507031 if the label is not of ctx (then nothing changes). */
aclError label_destroy(struct label *lb, const void *handle);
/* 507000 (*bad: the offending index) when a label is already in a list or
 * twice in this one; nothing changes then. */
aclError label_list_create(struct context *ctx, struct label **labels, const void *const *handles, uint32_t n,
                           struct label_list **out, uint32_t *bad);
void label_list_destroy(struct label_list *ll);
/* Called with capture_lock held: records the set of lb on s (bound to a
 * model, checked by the caller), with the runtime's rules in order. fn
 * names the failure. */
aclError label_set_locked(const char *fn, struct label *lb, const void *label, struct stream *s, const void *stream);
/* The task a switch of lane l reaches: the set of label `index` of list in
 * l (NULL if it is not set there). */
struct task *label_find_set(const struct lane *l, const void *list, uint32_t index);

/* ---- cond.c --------------------------------------------------------------------- */

/* Called with capture_lock held: a condition of m (a capture under way). */
aclError cond_create(struct model *m, uint32_t def, uint32_t flag, struct cond **out);
/* Called with capture_lock held: c's sub models, size of them, made for a
 * conditional task of type on s; their handles go to out. */
aclError cond_add_subs(struct cond *c, int type, uint32_t size, void **out);
/* aclmdlRIAddCondTask after its argument checks: the runtime's rules in
 * order (the handle unused, context, stream's context, capturing, the
 * handle's model, the size for the type), then the task and the sub
 * models (handles to out). */
aclError cond_add_task(const char *fn, struct cond *c, const void *handle, struct stream *s, const void *stream,
                       int type, uint32_t size, void **out);
/* Writes the defaults of m's conditions and of its sub models', as a
 * launch of m does. */
void cond_assign_defaults(struct model *m);
/* The sub model a task on c runs for the value v of its condition (NULL:
 * none). */
struct model *cond_pick(const struct cond *c, uint64_t v);
/* Called with capture_lock held: frees m's conditions and their sub models
 * (their runs ended). */
void cond_free_all_locked(struct model *m);
/* Calls fn on every sub model of m's conditions (m is dead: they no longer change). */
void cond_each_sub(struct model *m, void (*fn)(struct model *));
/* Called with capture_lock held: true when a sub model of m's conditions is still being captured. */
bool cond_sub_capturing(const struct model *m);

/* ---- model.c --------------------------------------------------------------- */

/* The lock of every model's lanes and states (its rank: lockrank.h). */
void capture_enter(void);
void capture_leave(void);
/* Aborts in debug builds unless the calling thread holds capture_lock. */
void capture_assert_held(void);
aclError model_create(struct context *ctx, enum model_kind kind, struct model **out);
/* Called with capture_lock held: frees sub model sub of a condition (its
 * runs ended: cond_each_sub waited for them). */
void model_free_sub_locked(struct model *sub);
/* Waits for the model's runs, then frees it; 107017 if handle stopped
 * naming m. */
aclError model_destroy(struct model *m, const void *handle);
/* Called with capture_lock held (these five). */
aclError model_bind(struct model *m, struct stream *s, const void *handle, uint32_t flag);
aclError model_build_end(struct model *m);
struct lane *model_lane_of(const struct model *m, const struct stream *s);
void model_unbind(struct model *m, struct lane *l);
void model_clean_lane(struct lane *l);
/* True while runs issued to m have not all ended. */
bool model_busy(struct model *m);
/* Numbers a new run of a READY model (107000 otherwise; 507011 while its
 * task changes wait for aclmdlRIUpdate), and issues its
 * external records on behalf of the stream `recorder` (a handle): *ext is
 * the run's (NULL when the model has none; 207001 when out of memory). */
aclError model_issue_run(struct model *m, const void *recorder, uint64_t *run, struct ext_run **ext);
/* The run's task is released: its external records not played yet are
 * reached (as a dropped record is), and x is freed. NULL is ignored. */
void model_ext_release(struct ext_run *x);

/* ---- model_task.c ---------------------------------------------------------------- */

/* A task of a model as the task calls see it: where it is (lane, place in
 * the lane), and what aclmdlRIUpdate will do with it. Its sequence id is
 * its index in m->mt. */
enum mtask_flag { MT_KEEP, MT_UPDATE, MT_DISABLE, MT_GONE };
struct mtask {
    uint32_t lane, pos;
    uint8_t flag;
    void *opinfo;                /* aclmdlRITaskSetParams' opInfoPtr bytes (a copy) */
    size_t opinfo_size;
};
/* A captured model's update state (model->upd). */
enum model_upd { UPD_READY = 0, UPD_UPDATING, UPD_FAULT };
struct destroy_cb {
    aclrtCallback fn;
    void *arg;
};
/* What a task handle names, found with capture_lock held. */
struct mtask_ref {
    struct model *m;
    struct lane *l;
    struct mtask *e;
    uint32_t seq;
    struct task *t, *prev;       /* the record, and the one before it in its lane */
};

/* Called with capture_lock held (but the callbacks' calls). The handles of
 * lane l's tasks: the first min(cap, count) into tasks (NULL: none), the
 * count into *total; 207001 when out of memory. */
aclError model_tasks_list(struct lane *l, void **tasks, uint32_t cap, uint32_t *total);
/* The task handle names, or 107017 (with the message naming fn). */
aclError model_task_find(const char *fn, const void *handle, struct mtask_ref *r);
/* aclmdlRITaskType of a recorded task. */
int model_task_type(const struct task *t);
/* The user's event an event task stands for (its edge's, for an edge). */
const void *model_task_event(const struct model *m, const struct task *t);
/* The task group t is in, or NULL. */
void *model_task_group(struct model *m, const struct lane *l, const struct task *t);
/* The runtime's updatable rule for r's model: captured (207000), not
 * running and READY or UPDATING (107040); then it is UPDATING. */
aclError model_update_enter(const char *fn, struct model *m);
/* A change failed: the model is FAULT until destroyed. */
void model_update_fault(struct model *m);
/* Puts replacement `with` in r's place (r's record is kept until the model
 * goes); the entry is MT_UPDATE. */
void model_task_replace(struct mtask_ref *r, struct task *with);
/* aclmdlRIUpdate's work for a model in UPDATING: drops disabled tasks. */
void model_update_apply(struct model *m);
/* Lane numbering starts anew (a built model's lane was cleaned or
 * unbound): every task handle of m goes stale. */
void model_tasks_forget(struct model *m);
/* Takes m's destroy callbacks (its handle is dead), to be run, with no
 * lock held, once m is freed; model_run_callbacks frees the list. */
struct destroy_cb *model_take_callbacks(struct model *m, uint32_t *n);
void model_run_callbacks(struct destroy_cb *cbs, uint32_t n);
/* aclmdlRIDestroyRegisterCallback / UnregisterCallback on m, which handle
 * named when resolved (107017 if it stopped; 107000: registered already,
 * or not registered). They take capture_lock. */
aclError model_destroy_cb_add(const char *fn, struct model *m, const void *handle, aclrtCallback func, void *arg);
aclError model_destroy_cb_remove(const char *fn, struct model *m, const void *handle, aclrtCallback func);
/* Frees the task table and the callbacks (with capture_lock held). */
void model_tasks_free(struct model *m);

/* ---- capture.c --------------------------------------------------------------- */

aclError model_capture_begin(struct stream *s, const void *handle, int mode, struct model *into, struct model **out);
/* Ends the capture begun on s: the model, or a code with why filled in. */
aclError model_capture_end(struct stream *s, struct model **out, char *why, size_t n);
aclError model_exchange_mode(int *mode);
aclError model_group_begin(const char *fn, struct stream *s);
aclError model_group_end(const char *fn, struct stream *s, void **handle);
aclError model_update_begin(const char *fn, struct stream *s, const void *handle);
aclError model_update_end(const char *fn, struct stream *s, const void *stream);

/* True while some lane records tasks (a build or capture is under way): the
 * event calls then take the slow path through model_event_*. */
bool model_recording_anywhere(void);
/* Called with s->lock held by stream_submit for a stream that records
 * (s->rec_lane or s->update set): why it takes no task of this kind. */
enum refusal model_refusal_locked(const struct stream *s, enum task_kind kind);
/* Called with s->lock held: keeps t in the stream's lane or update. */
void model_record_locked(struct stream *s, struct task *t);

/* Event calls on a stream that records, or that may join a capture. They
 * return ACL_SUCCESS with *handled false when the eager path should run. */
aclError model_event_record(const char *fn, struct event *ev, const void *event, struct stream *s,
                            const void *stream, bool *handled);
/* ACL_EVENT_RECORD_EXTERNAL (record) or ACL_EVENT_WAIT_EXTERNAL of ev on
 * s, which must be capturing: kept in the model, fixed by each run. The
 * caller has checked ev is an Ex event of exactly ACL_EVENT_SYNC. */
aclError model_event_external(const char *fn, struct event *ev, struct stream *s, const void *stream, bool record);
aclError model_event_wait(const char *fn, struct event *ev, const void *event, struct stream *s, const void *stream,
                          bool *handled);
aclError model_event_reset(const char *fn, struct event *ev, const void *event, struct stream *s, const void *stream,
                           bool *handled);

/* Capture state of s, and its model's handle (NULL when not capturing). */
aclmdlRICaptureStatus model_capture_status(struct stream *s, void **model_handle);
/* Invalidates the capture s takes part in (if any) for the reason given. */
void model_invalidate_for(struct stream *s, aclError why, const char *fmt, ...) ACLCPU_PRINTF(3, 4);
/* aclcpu's capture-mode rules for an unsafe call (sync copies and memsets,
 * async copies of pageable memory): 0, or code (and the captures concerned
 * are invalidated). */
aclError model_unsafe_call(const char *fn, aclError code);
/* True when ev's newest record was made in a capture still under way. */
bool model_event_captured(struct event *ev);
/* 107028 when ev's newest record was made in a capture under way: it
 * cannot be queried, synchronised or timed. The capture goes on. */
aclError model_refuse_captured_event(const char *fn, struct event *ev);

/* Called with capture_lock held: the user's events recorded in capture m
 * stop counting as captured (its end, or its model freed while capturing). */
void capture_forget_events_locked(struct model *m);

/* Engine side of a run (replay.c uses these). */
void model_run_started(struct model *m, uint64_t run, struct lane ***heads, uint32_t *nheads);
void model_lane_finished(struct model *m, uint64_t run);
void model_skip_run(struct model *m, uint64_t run);
aclError model_run_result(struct model *m, uint64_t run);
void model_note_error(struct model *m, aclError err);
/* run cannot go on as a whole (a lane could not start): its lanes stop at
 * their next task and every edge of m is reached for run, so no lane waits
 * on a record that will not come; the run ends with the error noted. */
void model_fail_run(struct model *m, uint64_t run);
/* A lane is activated (aclrtActiveStream/aclrtSwitchStream) in run `run`. */
void model_activate(struct model *m, struct lane *l, uint64_t run);

/* A destroyed stream leaves the lanes it fed (they keep their tasks). */
void model_stream_gone(struct stream *s);
/* Drops every model of ctx (context teardown). */
void model_destroy_all(struct context *ctx);

#endif
