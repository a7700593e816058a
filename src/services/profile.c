/*
 * profile.c - the profiler's record of a run: one entry per task issued (or
 * played by a model run), per host synchronisation, marker and range.
 *
 * DESIGN: while a profile runs, stream_commit gives each eager task an
 * entry (task->prof_id) with what the model needs: stream and position,
 * kernel name, blocks, engine, schedule mode, core limits and cost, copy
 * sizes, and for event tasks which record (event, handle generation,
 * record number) they make or wait for; the host thread and its last sync
 * make the host's side of the ordering. The executor adds measured times.
 * Model runs add an entry per task a lane plays, with the run number as
 * the record number of their private edges. Entries live in fixed-size
 * chunks under a directory that never moves, so an entry's address is
 * stable and executors write their measured fields without a lock; nobody
 * reads those fields before prof_end has waited for every profiled task to
 * be released. prof_end models the run (chipsim.c) and writes the files
 * (profwrite.c).
 *
 * Threads: any. Locks: prof_lock (a leaf spinlock; taken under stream and
 * event locks) guards allocation, the dep pool and the per-thread table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/model.h"
#include "../engine/engine.h"
#include "profile.h"

#define CHUNK_BITS 12
#define CHUNK (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 16M entries */

struct dep_node {
    uint32_t target, next;
};

_Atomic bool prof_active_flag;

/* What the executor of an eager task writes: apart from the entry (which
 * the issuing thread wrote), so that the entry's cache line does not move
 * to the executor's core and back; merged into the entries by prof_end. */
struct prof_times {
    uint64_t start_ns, end_ns, busy_ns, took_gen;
    int32_t worker;
    uint8_t done, dropped, took;
    _Atomic uint8_t released;
};

static plat_spin prof_lock;
static struct prof_entry *chunks[MAX_CHUNKS];
static struct prof_times *time_chunks[MAX_CHUNKS];
static uint32_t nentries;                 /* entries made, under prof_lock */
static struct dep_node *deps;             /* the dep pool; index 0 unused */
static uint32_t ndeps, cap_deps;
static char out_dir[4096];
static bool block_dim;
static bool running;                      /* under prof_lock */
static uint32_t next_thread;              /* host thread indices handed out */
static uint64_t begin_ns;

/* Names (kernels, markers) are copied into an arena of chunks that never
 * move, so entries point at them until the next profile begins; a table by
 * kernel object answers a kernel's second launch without copying. */
#define ARENA_CHUNK 65536
struct arena_chunk {
    struct arena_chunk *next;
    size_t used;
    char text[ARENA_CHUNK];
};
struct name_slot {
    const void *key;
    uint32_t gen;       /* the kernel object's generation when copied */
    const char *name;
};
static struct arena_chunk *arena;
static struct name_slot *name_table;
static uint32_t name_cap, name_used;

/* The calling host thread's index and its last sync entry; epoch tells a
 * value from an earlier profile, which is reset. Read at every profiled
 * launch: initial-exec spares the __tls_get_addr call of a shared library
 * (12 bytes of static TLS). */
static _Thread_local uint32_t tls_thread __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t tls_last_sync __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t tls_epoch __attribute__((tls_model("initial-exec")));
static uint32_t epoch;

__attribute__((constructor)) static void prof_init(void) { plat_spin_init(&prof_lock); }

struct prof_entry *prof_entry(uint32_t id) { return &chunks[id >> CHUNK_BITS][id & (CHUNK - 1)]; }

static struct prof_times *prof_times(uint32_t id) { return &time_chunks[id >> CHUNK_BITS][id & (CHUNK - 1)]; }

uint32_t prof_count(void) { return nentries; }

bool prof_running(void)
{
    bool r;
    plat_spin_lock(&prof_lock);
    r = running;
    plat_spin_unlock(&prof_lock);
    return r;
}

/* Called with prof_lock held: a copy of s (at most 127 bytes kept) in the
 * arena, or NULL when memory is out. */
static const char *arena_copy_locked(const char *s)
{
    size_t n = strnlen(s, 127);
    char *out;
    if (arena == NULL || arena->used + n + 1 > ARENA_CHUNK) {
        struct arena_chunk *c = malloc(sizeof(*c));
        if (c == NULL)
            return NULL;
        c->next = arena;
        c->used = 0;
        arena = c;
    }
    out = arena->text + arena->used;
    memcpy(out, s, n);
    out[n] = '\0';
    arena->used += n + 1;
    return out;
}

static uint32_t slot_of(const void *key, uint32_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & (cap - 1);
}

/* Called with prof_lock held: doubles the name table (false: out of memory). */
static bool grow_names_locked(void)
{
    uint32_t cap = name_cap ? name_cap * 2 : 256;
    struct name_slot *t = calloc(cap, sizeof(*t));
    if (t == NULL)
        return false;
    for (uint32_t i = 0; i < name_cap; i++) {
        if (name_table[i].key == NULL)
            continue;
        uint32_t j = slot_of(name_table[i].key, cap);
        while (t[j].key != NULL)
            j = (j + 1) & (cap - 1);
        t[j] = name_table[i];
    }
    free(name_table);
    name_table = t;
    name_cap = cap;
    return true;
}

/* Called with prof_lock held: the profile's copy of kernel kf's name. The
 * same object in the same generation has the same name; a recycled one
 * (another generation) gets a copy of its own. */
static const char *kernel_name_locked(const struct kfunc *kf)
{
    /* Relaxed: a launch holds a live kernel; its generation does not move. */
    uint32_t i, gen = atomic_load_explicit(&kf->hdr.gen, memory_order_relaxed);
    if (name_used * 2 >= name_cap && !grow_names_locked())
        return arena_copy_locked(kf->name);
    for (i = slot_of(kf, name_cap); name_table[i].key != NULL; i = (i + 1) & (name_cap - 1))
        if (name_table[i].key == kf)
            break;
    if (name_table[i].key == kf && name_table[i].gen == gen)
        return name_table[i].name;
    if (name_table[i].key == NULL)
        name_used++;
    name_table[i] = (struct name_slot){kf, gen, arena_copy_locked(kf->name)};
    return name_table[i].name;
}

/* Called with prof_lock held: forgets the names of the previous profile. */
static void forget_names_locked(void)
{
    while (arena != NULL) {
        struct arena_chunk *next = arena->next;
        free(arena);
        arena = next;
    }
    if (name_table != NULL)
        memset(name_table, 0, name_cap * sizeof(*name_table));
    name_used = 0;
}

/* Called with prof_lock held: a zeroed entry, or 0 when memory is out. */
static uint32_t alloc_locked(void)
{
    uint32_t id = nentries + 1; /* ids start at 1: 0 means none */
    struct prof_entry *e;
    if ((id >> CHUNK_BITS) >= MAX_CHUNKS)
        return 0;
    if (chunks[id >> CHUNK_BITS] == NULL && (chunks[id >> CHUNK_BITS] = calloc(CHUNK, sizeof(**chunks))) == NULL)
        return 0;
    if (time_chunks[id >> CHUNK_BITS] == NULL &&
        (time_chunks[id >> CHUNK_BITS] = calloc(CHUNK, sizeof(**time_chunks))) == NULL)
        return 0;
    nentries = id;
    e = prof_entry(id);
    memset(e, 0, sizeof(*e));
    memset(prof_times(id), 0, sizeof(struct prof_times));
    e->model_id = UINT32_MAX;
    e->stream_id = -1;
    e->worker = -1;
    return id;
}

/* Called with prof_lock held: the calling thread's index in this profile. */
static void thread_locked(void)
{
    if (tls_epoch != epoch) {
        tls_epoch = epoch;
        tls_thread = ++next_thread;
        tls_last_sync = 0;
    }
}

/* Called with prof_lock held. */
static void add_dep_locked(uint32_t entry, uint32_t target)
{
    struct prof_entry *e = prof_entry(entry);
    if (target == 0)
        return;
    if (ndeps + 1 >= cap_deps) {
        uint32_t c = cap_deps ? cap_deps * 2 : 1024;
        struct dep_node *d = realloc(deps, c * sizeof(*d));
        if (d == NULL)
            return; /* the model loses one edge; the run is not affected */
        deps = d;
        cap_deps = c;
    }
    deps[++ndeps] = (struct dep_node){target, e->dep_head};
    e->dep_head = ndeps;
}

uint32_t prof_dep_first(uint32_t entry, uint32_t *cursor)
{
    *cursor = prof_entry(entry)->dep_head;
    return prof_dep_next(cursor);
}

uint32_t prof_dep_next(uint32_t *cursor)
{
    uint32_t at = *cursor;
    if (at == 0)
        return 0;
    *cursor = deps[at].next;
    return deps[at].target;
}

const struct soc_profile *prof_soc(void)
{
    struct device *d = device_get(0);
    return d != NULL && d->soc != NULL ? d->soc : soc_default();
}

/* ---- start and stop ---------------------------------------------------------------- */

aclError prof_begin(const char *dir, bool block_dim_names)
{
    plat_spin_lock(&prof_lock);
    if (running) {
        plat_spin_unlock(&prof_lock);
        return ACL_ERROR_PROF_ALREADY_RUN;
    }
    if (strlen(dir) >= sizeof(out_dir)) {
        plat_spin_unlock(&prof_lock);
        return ACL_ERROR_INVALID_FILE; /* cut, the files would go elsewhere */
    }
    forget_names_locked();
    nentries = ndeps = next_thread = 0;
    epoch++;
    snprintf(out_dir, sizeof(out_dir), "%s", dir);
    block_dim = block_dim_names;
    begin_ns = plat_now_ns();
    running = true;
    plat_spin_unlock(&prof_lock);
    atomic_store_explicit(&prof_active_flag, true, memory_order_relaxed);
    return ACL_SUCCESS;
}

/* Waits up to 10 s for the profiled tasks still queued or running to be
 * released (a task that never ends, say a hung kernel, must not hang the
 * program's profile stop too). Each entry says so itself: a counter shared
 * by the issuing and the executing threads would cost a cache-line
 * transfer per task. Acquire: pairs with prof_task_released's release, so
 * the entry's measured fields are seen. */
static bool drain_in_flight(uint32_t n)
{
    uint64_t end = plat_now_ns() + 10000000000ull;
    for (uint32_t id = 1; id <= n; id++) {
        while (!atomic_load_explicit(&prof_times(id)->released, memory_order_acquire)) {
            if (plat_now_ns() > end)
                return false;
            plat_sleep_ns(200000);
        }
    }
    return true;
}

/* What executors measured, into the entries (each once released). */
static void merge_times(uint32_t n)
{
    for (uint32_t id = 1; id <= n; id++) {
        struct prof_entry *e = prof_entry(id);
        struct prof_times *t = prof_times(id);
        if (!t->done && !t->dropped && !e->done && atomic_load_explicit(&t->released, memory_order_acquire))
            e->dropped = 1; /* released without running: the model gives it no time */
        if (!t->done)
            continue;
        e->start_ns = t->start_ns;
        e->end_ns = t->end_ns;
        e->busy_ns = t->busy_ns;
        e->worker = t->worker;
        e->done = 1;
        if (t->took)
            e->gen = t->took_gen;
    }
}

aclError prof_end(char *why, size_t cap)
{
    aclError err;
    uint32_t n;
    plat_spin_lock(&prof_lock);
    if (!running) {
        plat_spin_unlock(&prof_lock);
        snprintf(why, cap, "no profile is running");
        return ACL_ERROR_PROF_NOT_RUN;
    }
    running = false;
    n = nentries;
    plat_spin_unlock(&prof_lock);
    atomic_store_explicit(&prof_active_flag, false, memory_order_relaxed);
    if (!drain_in_flight(n))
        LOGW("profile: tasks still running after 10 s; their entries are left out of the model");
    merge_times(n);
    chipsim_run();
    err = profwrite_all(out_dir, block_dim, why, cap);
    return err;
}

/* ---- eager tasks ---------------------------------------------------------------------- */

/* Candidate device pointers among a kernel's first argument words (the
 * buffers it reads, for the model's L2: a prefetched range that starts in
 * [p, p + hbm_bytes) of such a word p is not read from HBM again). Only
 * kernels with declared HBM bytes need them. Words are not looked up in
 * the allocation table: executors (model runs) come here too. */
static void scan_args(struct prof_entry *e, const struct task *t)
{
    const unsigned char *a = task_kernel_args(t);
    for (uint32_t off = 0; off + sizeof(uint64_t) <= t->u.kernel.args_size && off < 256 && e->nptrs < PROF_MAX_PTRS;
         off += sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, a + off, sizeof(v));
        if (v >= 4096)
            e->ptrs[e->nptrs++] = v;
    }
}

/* Called with prof_lock held. */
static void fill_kernel(struct prof_entry *e, const struct task *t)
{
    aclcpuKernelCost cost;
    e->name = t->u.kernel.kf != NULL ? kernel_name_locked(t->u.kernel.kf) : NULL;
    e->engine = t->u.kernel.engine;
    e->sched = t->u.kernel.schedule_mode;
    e->blocks = t->u.kernel.blocks;
    e->limit[0] = t->u.kernel.core_limit[0];
    e->limit[1] = t->u.kernel.core_limit[1];
    if (t->u.kernel.kf != NULL && kfunc_cost(t->u.kernel.kf, &cost)) {
        e->declared = 1;
        e->us_fixed = cost.usFixed;
        e->us_total = cost.usTotal;
        e->hbm_bytes = cost.hbmBytes;
        e->mix = (uint8_t)cost.mix;
        if (cost.hbmBytes != 0)
            scan_args(e, t);
    }
}

void prof_event_key(struct prof_entry *e, struct event *ev, uint64_t gen)
{
    e->ev = ev;
    e->ev_objgen = atomic_load_explicit(&ev->hdr.gen, memory_order_relaxed);
    e->ev_id = atomic_load_explicit(&ev->id, memory_order_relaxed);
    e->gen = gen;
}

/* Called with prof_lock held: fills what a task of each kind tells the model. */
static void fill_task(struct prof_entry *e, const struct task *t)
{
    switch (t->kind) {
    case TASK_KERNEL:
        fill_kernel(e, t);
        break;
    case TASK_COPY:
        e->bytes = t->u.copy.count;
        e->copy_dir = t->u.copy.dir;
        break;
    case TASK_SET:
        e->bytes = t->u.set.count;
        break;
    case TASK_CMO:
        e->kind = PK_CMO;
        e->cmo_type = (uint8_t)t->u.set.value;
        e->addr = (uint64_t)(uintptr_t)t->u.set.dst;
        e->bytes = t->u.set.count;
        break;
    case TASK_MARK:
        e->kind = PK_MARK;
        e->name = t->u.host.arg != NULL ? arena_copy_locked(t->u.host.arg) : NULL;
        break;
    case TASK_STEP:
        e->kind = t->u.host.block ? PK_STEP_END : PK_STEP_START;
        e->gen = t->u.host.thread; /* the step's index */
        break;
    case TASK_EVENT_RECORD:
    case TASK_EVENT_WAIT:
    case TASK_EVENT_RESET:
    case TASK_NOTIFY_RECORD:
    case TASK_NOTIFY_WAIT:
        prof_event_key(e, t->u.event.ev, t->u.event.gen);
        break;
    default:
        break;
    }
}

/* Called with prof_lock held: the entry of an eager task on s. */
static uint32_t task_entry_locked(struct stream *s, const struct task *t)
{
    uint32_t id = alloc_locked();
    struct prof_entry *e;
    if (id == 0)
        return 0;
    thread_locked();
    e = prof_entry(id);
    e->kind = t->kind;
    e->device = s->dev->id;
    e->stream_id = s->id;
    e->task_id = (uint32_t)s->issued; /* s->lock held: stream_commit counted t just now */
    e->host_thread = tls_thread;
    e->host_dep = tls_last_sync;
    e->issue_ns = plat_now_ns();
    fill_task(e, t);
    return id;
}

/* Called with prof_lock held: a model run's end entry after its begin. */
static void run_entries_locked(struct stream *s, struct task *t, uint32_t begin)
{
    struct model *m = t->u.model.m;
    uint32_t end = alloc_locked();
    struct prof_entry *b = prof_entry(begin);
    b->kind = PK_RUN_BEGIN;
    b->model_id = m->hdr.index;
    add_dep_locked(begin, m->prof_last_end); /* runs of one model are serialised */
    if (end == 0)
        return;
    *prof_entry(end) = *b;
    prof_entry(end)->kind = PK_RUN_END;
    prof_entry(end)->dep_head = 0;
    t->u.model.prof_end = end;
    m->prof_last_end = end;
    (void)s;
}

void prof_issue_locked(struct stream *s, struct task *t)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = running ? task_entry_locked(s, t) : 0;
    if (id != 0 && t->kind == TASK_MODEL_RUN)
        run_entries_locked(s, t, id);
    plat_spin_unlock(&prof_lock);
    if (id == 0)
        return;
    t->prof_id = id;
    s->prof_last = t->kind == TASK_MODEL_RUN && t->u.model.prof_end != 0 ? t->u.model.prof_end : id;
}

uint32_t prof_stream_last(struct stream *s)
{
    uint32_t id;
    plat_spin_lock(&s->lock);
    id = s->prof_last;
    plat_spin_unlock(&s->lock);
    return id;
}

void prof_task_started(struct task *t)
{
    struct prof_times *tm = prof_times(t->prof_id);
    if (tm->start_ns == 0) { /* a parked wait starts again when released */
        tm->start_ns = plat_now_ns();
        tm->worker = engine_worker_index();
    }
}

void prof_kernel_busy(struct task *t, uint64_t busy_ns) { prof_times(t->prof_id)->busy_ns = busy_ns; }

void prof_task_ended(struct task *t)
{
    struct prof_times *tm = prof_times(t->prof_id);
    uint64_t now = plat_now_ns();
    if (tm->start_ns == 0)
        tm->start_ns = now;
    tm->end_ns = now;
    tm->done = 1;
    if (t->kind == TASK_MODEL_RUN && t->u.model.prof_end != 0) {
        struct prof_times *end = prof_times(t->u.model.prof_end);
        end->start_ns = end->end_ns = now;
        end->done = 1;
    }
}

void prof_wait_took(struct task *t, uint64_t gen)
{
    struct prof_times *tm = prof_times(t->prof_id);
    tm->took_gen = gen;
    tm->took = 1;
}

void prof_task_released(struct task *t)
{
    struct prof_times *tm = prof_times(t->prof_id);
    uint32_t end = t->kind == TASK_MODEL_RUN ? t->u.model.prof_end : 0;
    t->prof_id = 0;
    /* Release: what we wrote is seen by prof_end (merge_times). Not done
     * means dropped: it never ran. */
    if (end != 0)
        atomic_store_explicit(&prof_times(end)->released, 1, memory_order_release);
    atomic_store_explicit(&tm->released, 1, memory_order_release);
}

/* ---- model runs ------------------------------------------------------------------------ */

uint32_t prof_lane_task(struct stream *runner, const struct task *rt, uint32_t model_id, uint64_t gen,
                        uint32_t after, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = running ? alloc_locked() : 0;
    if (id != 0) {
        struct prof_entry *e = prof_entry(id);
        e->kind = rt->kind;
        e->device = runner->dev->id;
        e->stream_id = atomic_load_explicit(&runner->id, memory_order_relaxed);
        e->task_id = ++runner->prof_seq; /* only the lane's player touches it */
        e->model_id = model_id;
        fill_task(e, rt);
        e->gen = rt->kind >= TASK_EVENT_RECORD && rt->kind <= TASK_NOTIFY_WAIT ? gen : e->gen;
        e->issue_ns = e->start_ns = start_ns;
        e->end_ns = end_ns;
        e->busy_ns = busy_ns;
        e->done = 1;
        e->worker = engine_worker_index();
        atomic_store_explicit(&prof_times(id)->released, 1, memory_order_relaxed); /* prof_end takes prof_lock */
        add_dep_locked(id, after);
    }
    plat_spin_unlock(&prof_lock);
    return id;
}

void prof_run_lane_ended(uint32_t run_end, uint32_t last)
{
    plat_spin_lock(&prof_lock);
    if (run_end != 0 && run_end <= nentries)
        add_dep_locked(run_end, last);
    plat_spin_unlock(&prof_lock);
}

/* ---- host ------------------------------------------------------------------------------- */

static uint32_t host_entry(uint8_t kind, const char *name, uint64_t start, uint64_t end)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = running ? alloc_locked() : 0;
    if (id != 0) {
        struct prof_entry *e = prof_entry(id);
        thread_locked();
        e->kind = kind;
        e->host_thread = tls_thread;
        e->host_dep = tls_last_sync;
        e->name = name != NULL ? arena_copy_locked(name) : NULL;
        e->start_ns = e->issue_ns = start;
        e->end_ns = end;
        e->done = 1;
        e->device = 0;
        atomic_store_explicit(&prof_times(id)->released, 1, memory_order_relaxed); /* prof_end takes prof_lock */
    }
    plat_spin_unlock(&prof_lock);
    return id;
}

void prof_host_sync(const char *api, const uint32_t *dep, unsigned n, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id = host_entry(PK_HOST_SYNC, api, start_ns, end_ns);
    if (id == 0)
        return;
    plat_spin_lock(&prof_lock);
    for (unsigned i = 0; i < n; i++)
        add_dep_locked(id, dep[i]);
    tls_last_sync = id;
    plat_spin_unlock(&prof_lock);
}

void prof_host_sync_event(const char *api, struct event *ev, uint64_t gen, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id = host_entry(PK_HOST_SYNC, api, start_ns, end_ns);
    if (id == 0)
        return;
    plat_spin_lock(&prof_lock);
    prof_event_key(prof_entry(id), ev, gen);
    tls_last_sync = id;
    plat_spin_unlock(&prof_lock);
}

void prof_host_mark(const char *msg, uint64_t ns) { (void)host_entry(PK_HOST_MARK, msg, ns, ns); }

uint32_t prof_host_range_begin(const char *msg, uint64_t ns) { return host_entry(PK_HOST_RANGE, msg, ns, 0); }

void prof_host_range_end(uint32_t id, uint64_t ns)
{
    plat_spin_lock(&prof_lock);
    if (id != 0 && id <= nentries && running)
        prof_entry(id)->end_ns = ns;
    plat_spin_unlock(&prof_lock);
}

uint64_t prof_begin_ns(void) { return begin_ns; }

/* ---- ACLCPU_PROFILE and options ------------------------------------------------------------ */

static bool env_profile; /* under prof_lock */

bool prof_block_dim_names(void)
{
    const char *v = plat_getenv("ACLCPU_PROFILE_BLOCK_DIM");
    return v != NULL && strcmp(v, "1") == 0;
}

bool prof_env_active(void)
{
    bool on;
    plat_spin_lock(&prof_lock);
    on = env_profile;
    plat_spin_unlock(&prof_lock);
    return on;
}

static void env_stop_at_exit(void) { prof_env_stop(); }

void prof_env_start(void)
{
    static bool hooked;
    const char *dir = plat_getenv("ACLCPU_PROFILE");
    if (dir == NULL || dir[0] == '\0' || prof_running())
        return;
    if (!plat_make_dirs(dir)) {
        LOGW("ACLCPU_PROFILE: the directory \"%s\" cannot be made or written; the run is not profiled", dir);
        return;
    }
    if (prof_begin(dir, prof_block_dim_names()) != ACL_SUCCESS) {
        LOGW("ACLCPU_PROFILE: the directory name is too long (%zu characters); the run is not profiled", strlen(dir));
        return;
    }
    plat_spin_lock(&prof_lock);
    env_profile = true;
    plat_spin_unlock(&prof_lock);
    if (!hooked) {
        hooked = true;
        atexit(env_stop_at_exit); /* a program that never calls aclFinalize still gets its profile */
    }
}

void prof_env_stop(void)
{
    char why[512];
    bool was;
    plat_spin_lock(&prof_lock);
    was = env_profile;
    env_profile = false;
    plat_spin_unlock(&prof_lock);
    if (was && prof_end(why, sizeof(why)) != ACL_SUCCESS)
        LOGW("ACLCPU_PROFILE: %s", why);
}

/* Collection mode: from aclprofInit to aclprofFinalize (or ACLCPU_PROFILE),
 * when model subscription is refused, and the other way round. */
static bool collecting; /* under prof_lock */

void prof_set_collecting(bool on)
{
    plat_spin_lock(&prof_lock);
    collecting = on;
    plat_spin_unlock(&prof_lock);
}

bool prof_collecting(void)
{
    bool on;
    plat_spin_lock(&prof_lock);
    on = collecting || env_profile;
    plat_spin_unlock(&prof_lock);
    return on;
}
