/*
 * profile.c - the profiler's record of a run: one record per task issued
 * (or played by a model run), per host synchronisation, marker and range.
 *
 * DESIGN: while a profile runs, stream_commit gives each eager task a
 * record (task->prof_id), one cache line with what the model needs: stream
 * and position, kernel name and declared cost (copies kept in an arena,
 * one per kernel and cost), blocks, engine, schedule mode, core limits,
 * copy sizes, and for event tasks which record (event, object generation,
 * record number) they make or wait for; the host thread and its last sync
 * make the host's side of the ordering. The executor writes the measured
 * times into a separate array, so no cache line is shared per task between
 * the issuing and the executing thread. Model runs add a record per task a
 * lane plays, with the run number as the record number of their private
 * edges. Records and times live in fixed-size chunks under a directory that
 * never moves. prof_end waits for every profiled task to be released,
 * expands the records into struct prof_entry, models the run (chipsim.c)
 * and writes the files (profwrite.c, profsummary.c).
 *
 * Threads: any. Locks: prof_lock (a leaf spinlock; taken under stream and
 * event locks) guards the records, the dep pool, the side table, the
 * kernel table and the arena.
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

/* What is recorded of a task when it is issued (or played, or of a host
 * event when it happens): one cache line, so that a profiled launch costs
 * one new line of memory. prof_end expands records into struct prof_entry
 * (profile.h) for the model and the writers. */
struct prof_rec {
    uint8_t kind, engine, sched, copy_dir;
    uint8_t cmo_type, device, done, ticked; /* ticked: issue is in plat_ticks() */
    union {
        uint16_t limit[2]; /* kernels: cube, vector cores in force */
        uint32_t objgen;   /* events: the event object's generation */
    } x;
    uint32_t host_thread;
    int32_t stream_id;
    uint32_t task_id;
    uint32_t model_id;
    uint32_t host_dep;
    uint32_t dep_head;
    uint32_t n; /* kernels: blocks; events: the event's id */
    uint64_t issue;  /* ns, or ticks (ticked) */
    union {
        struct {
            const char *name;
            const aclcpuKernelCost *cost; /* declared, or NULL */
        } k;
        struct {
            const void *ev;
            uint64_t gen;
        } e;
        struct {
            uint64_t bytes, addr;
        } c;
        const char *name; /* markers and host entries */
        uint64_t gen;     /* steps: the step's index */
    } u;
};
_Static_assert(sizeof(struct prof_rec) == 64, "a record is one cache line");

/* What the executor of an eager task writes: apart from the record (which
 * the issuing thread wrote), so that no cache line moves between the two
 * per task; merged into the entries by prof_end. */
struct prof_times {
    uint64_t start_ns, end_ns, busy_ns, took_gen;
    int32_t worker;
    uint8_t done, took;
    _Atomic uint8_t released;
};

/* The rare extras of a record: the argument pointers of a kernel that
 * reads declared HBM bytes (for L2), the API name of an event sync. In id
 * order (made under prof_lock). */
struct prof_side {
    uint32_t id;
    uint8_t nptrs;
    const char *name;
    uint64_t ptrs[PROF_MAX_PTRS];
};

static plat_spin prof_lock;
static struct prof_rec *rec_chunks[MAX_CHUNKS];
static struct prof_times *time_chunks[MAX_CHUNKS];
static uint32_t nentries;                 /* entries made, under prof_lock */
static struct dep_node *deps;             /* the dep pool; index 0 unused */
static uint32_t ndeps, cap_deps;
static struct prof_side *sides;
static uint32_t nsides, cap_sides;
static struct prof_entry *entries;        /* the expanded entries, from prof_end to the next begin */
static char out_dir[4096];
static bool block_dim;
static bool running;                      /* under prof_lock */
static uint32_t next_thread;              /* host thread indices handed out */
static uint64_t begin_ns;
/* Issue times of eager tasks are ticks (plat_ticks: cheaper than the clock
 * on the launch path), mapped to ns with the pairs read at begin and end. */
static uint64_t begin_ticks, stop_ns, stop_ticks;

/* Names (kernels, markers) and declared costs are copied into an arena of
 * chunks that never move, so records point at them until the next profile
 * begins; a table by kernel object answers a kernel's next launches
 * without copying. */
#define ARENA_CHUNK 65536
struct arena_chunk {
    struct arena_chunk *next;
    size_t used;
    _Alignas(8) char text[ARENA_CHUNK];
};
struct name_slot {
    const void *key;
    uint32_t gen;       /* the kernel object's generation when copied */
    const char *name;
    const aclcpuKernelCost *cost; /* the newest cost copied, or NULL */
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

static struct prof_rec *rec(uint32_t id) { return &rec_chunks[id >> CHUNK_BITS][id & (CHUNK - 1)]; }
static struct prof_times *prof_times(uint32_t id) { return &time_chunks[id >> CHUNK_BITS][id & (CHUNK - 1)]; }

struct prof_entry *prof_entry(uint32_t id) { return &entries[id]; }

uint32_t prof_count(void) { return entries != NULL ? nentries : 0; }

/* A flag that prof_lock guards, read under it. */
static bool locked_flag(const bool *flag)
{
    bool v;
    plat_spin_lock(&prof_lock);
    v = *flag;
    plat_spin_unlock(&prof_lock);
    return v;
}

bool prof_running(void) { return locked_flag(&running); }

/* ---- the arena and the kernel table ------------------------------------------------ */

/* Called with prof_lock held: n bytes (8-aligned) in the arena, or NULL. */
static void *arena_alloc_locked(size_t n)
{
    void *out;
    n = (n + 7) & ~(size_t)7;
    if (arena == NULL || arena->used + n > ARENA_CHUNK) {
        struct arena_chunk *c = malloc(sizeof(*c));
        if (c == NULL)
            return NULL;
        c->next = arena;
        c->used = 0;
        arena = c;
    }
    out = arena->text + arena->used;
    arena->used += n;
    return out;
}

/* Called with prof_lock held: a copy of s (at most 127 bytes kept), or NULL. */
static const char *arena_copy_locked(const char *s)
{
    size_t n = strnlen(s, 127);
    char *out = arena_alloc_locked(n + 1);
    if (out != NULL) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

static uint32_t slot_of(const void *key, uint32_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & (cap - 1);
}

/* Called with prof_lock held: doubles the kernel table (false: out of memory). */
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

/* Called with prof_lock held: kernel kf's slot, filled with the profile's
 * copy of its name. The same object in the same generation has the same
 * name; a recycled one (another generation) gets a copy of its own. NULL
 * when out of memory. */
static struct name_slot *kernel_slot_locked(const struct kfunc *kf)
{
    /* Relaxed: a launch holds a live kernel; its generation does not move. */
    uint32_t i, gen = load_relaxed(&kf->hdr.gen);
    if (name_used * 2 >= name_cap && !grow_names_locked())
        return NULL;
    for (i = slot_of(kf, name_cap); name_table[i].key != NULL; i = (i + 1) & (name_cap - 1))
        if (name_table[i].key == kf)
            break;
    if (name_table[i].key == kf && name_table[i].gen == gen)
        return &name_table[i];
    if (name_table[i].key == NULL)
        name_used++;
    name_table[i] = (struct name_slot){kf, gen, arena_copy_locked(kf->name), NULL};
    return &name_table[i];
}

/* Called with prof_lock held: the profile's copy of the cost declared for
 * the kernel now (a launch takes the cost in force when it is issued), or
 * NULL for none. */
static const aclcpuKernelCost *kernel_cost_locked(const struct kfunc *kf, struct name_slot *slot)
{
    aclcpuKernelCost c;
    aclcpuKernelCost *copy;
    if (!kfunc_cost(kf, &c))
        return NULL;
    if (slot != NULL && slot->cost != NULL && memcmp(slot->cost, &c, sizeof(c)) == 0)
        return slot->cost;
    if ((copy = arena_alloc_locked(sizeof(c))) == NULL)
        return NULL;
    *copy = c;
    if (slot != NULL)
        slot->cost = copy;
    return copy;
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

/* ---- records ---------------------------------------------------------------------------- */

/* Called with prof_lock held: a zeroed record (its times were zeroed when
 * the profile began), or 0 when memory is out. */
static uint32_t alloc_locked(void)
{
    uint32_t id = nentries + 1; /* ids start at 1: 0 means none */
    uint32_t c = id >> CHUNK_BITS;
    struct prof_rec *r;
    if (c >= MAX_CHUNKS)
        return 0;
    if (rec_chunks[c] == NULL && (rec_chunks[c] = aligned_alloc(64, CHUNK * sizeof(struct prof_rec))) == NULL)
        return 0;
    if (time_chunks[c] == NULL && (time_chunks[c] = calloc(CHUNK, sizeof(struct prof_times))) == NULL)
        return 0;
    nentries = id;
    r = rec(id);
    memset(r, 0, sizeof(*r));
    r->model_id = UINT32_MAX;
    r->stream_id = -1;
    return id;
}

/* Called with prof_lock held: the side record of id (made last), or NULL. */
static struct prof_side *side_locked(uint32_t id)
{
    if (nsides > 0 && sides[nsides - 1].id == id)
        return &sides[nsides - 1];
    if (nsides == cap_sides) {
        uint32_t c = cap_sides ? cap_sides * 2 : 256;
        struct prof_side *n = realloc(sides, c * sizeof(*n));
        if (n == NULL)
            return NULL;
        sides = n;
        cap_sides = c;
    }
    sides[nsides] = (struct prof_side){id, 0, NULL, {0}};
    return &sides[nsides++];
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
    struct prof_rec *r = rec(entry);
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
    deps[++ndeps] = (struct dep_node){target, r->dep_head};
    r->dep_head = ndeps;
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

/* Called with prof_lock held: the times of the previous profile's entries
 * are zeroed here, not when an entry is made: the issuing thread must not
 * write the cache lines executors are writing the times of tasks just
 * before into (they hold about two entries' times each). */
static void zero_times_locked(void)
{
    for (uint32_t c = 0; nentries > 0 && c <= (nentries >> CHUNK_BITS) && c < MAX_CHUNKS; c++)
        if (time_chunks[c] != NULL)
            memset(time_chunks[c], 0, CHUNK * sizeof(**time_chunks));
}

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
    zero_times_locked();
    free(entries);
    entries = NULL;
    nentries = ndeps = nsides = next_thread = 0;
    epoch++;
    snprintf(out_dir, sizeof(out_dir), "%s", dir);
    block_dim = block_dim_names;
    begin_ns = plat_now_ns();
    begin_ticks = plat_ticks();
    running = true;
    plat_spin_unlock(&prof_lock);
    store_relaxed(&prof_active_flag, true);
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
        while (!load_acquire(&prof_times(id)->released)) {
            if (plat_now_ns() > end)
                return false;
            plat_sleep_ns(200000);
        }
    }
    return true;
}

static void expand_kernel(struct prof_entry *e, const struct prof_rec *r)
{
    e->name = r->u.k.name;
    e->limit[0] = r->x.limit[0];
    e->limit[1] = r->x.limit[1];
    e->blocks = r->n;
    if (r->u.k.cost != NULL) {
        e->declared = 1;
        e->us_fixed = r->u.k.cost->usFixed;
        e->us_total = r->u.k.cost->usTotal;
        e->hbm_bytes = r->u.k.cost->hbmBytes;
        e->mix = (uint8_t)r->u.k.cost->mix;
    }
}

static bool is_event_kind(uint8_t kind) { return kind >= TASK_EVENT_RECORD && kind <= TASK_NOTIFY_WAIT; }

/* The record's kind-specific part, into e. */
static void expand_payload(struct prof_entry *e, const struct prof_rec *r)
{
    if (r->kind == TASK_KERNEL) {
        expand_kernel(e, r);
    } else if (is_event_kind(r->kind) || (r->kind == PK_HOST_SYNC && r->n != UINT32_MAX)) {
        e->ev = r->u.e.ev;
        e->gen = r->u.e.gen;
        e->ev_objgen = r->x.objgen;
        e->ev_id = (int32_t)r->n;
    } else if (r->kind == TASK_COPY || r->kind == TASK_SET || r->kind == PK_CMO) {
        e->bytes = r->u.c.bytes;
        e->addr = r->u.c.addr;
    } else if (r->kind == PK_STEP_START || r->kind == PK_STEP_END) {
        e->gen = r->u.gen;
    } else {
        e->name = r->u.name;
    }
}

/* A tick of plat_ticks() as monotonic ns (the two clocks were read
 * together when the profile began and when it ended). */
static uint64_t ticks_ns(uint64_t ticks)
{
    double per_tick;
    if (stop_ticks <= begin_ticks || stop_ns <= begin_ns)
        return ticks; /* no TSC: ticks are ns */
    per_tick = (double)(stop_ns - begin_ns) / (double)(stop_ticks - begin_ticks);
    return begin_ns + (uint64_t)((double)(int64_t)(ticks - begin_ticks) * per_tick);
}

/* One entry from its record and times. */
static void expand_one(struct prof_entry *e, const struct prof_rec *r, const struct prof_times *t)
{
    e->kind = r->kind;
    e->engine = r->engine;
    e->sched = r->sched;
    e->copy_dir = r->copy_dir;
    e->cmo_type = r->cmo_type;
    e->device = r->device;
    e->stream_id = r->stream_id;
    e->task_id = r->task_id;
    e->model_id = r->model_id;
    e->host_thread = r->host_thread;
    e->host_dep = r->host_dep;
    e->dep_head = r->dep_head;
    e->issue_ns = r->ticked ? ticks_ns(r->issue) : r->issue;
    e->worker = t->done ? t->worker : -1;
    expand_payload(e, r);
    if (t->done) {
        e->start_ns = t->start_ns;
        e->end_ns = t->end_ns;
        e->busy_ns = t->busy_ns;
        e->done = 1;
        if (t->took)
            e->gen = t->took_gen;
    } else {
        e->dropped = 1; /* released without running: the model gives it no time */
    }
}

/* The records, their times and side records, into the entries. */
static bool expand(uint32_t n)
{
    entries = calloc((size_t)n + 1, sizeof(*entries));
    if (entries == NULL)
        return false;
    for (uint32_t id = 1; id <= n; id++)
        expand_one(&entries[id], rec(id), prof_times(id));
    for (uint32_t i = 0; i < nsides; i++) {
        struct prof_entry *e = &entries[sides[i].id];
        if (sides[i].name != NULL)
            e->name = sides[i].name;
        e->nptrs = sides[i].nptrs;
        memcpy(e->ptrs, sides[i].ptrs, sizeof(e->ptrs));
    }
    return true;
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
    stop_ns = plat_now_ns();
    stop_ticks = plat_ticks();
    plat_spin_unlock(&prof_lock);
    store_relaxed(&prof_active_flag, false);
    if (!drain_in_flight(n))
        LOGW("profile: tasks still running after 10 s; their entries are left out of the model");
    if (!expand(n)) {
        snprintf(why, cap, "out of memory expanding %u profile entries", n);
        return ACL_ERROR_PROFILING_FAILURE;
    }
    chipsim_run();
    err = profwrite_all(out_dir, block_dim, why, cap);
    return err;
}

/* ---- eager tasks ---------------------------------------------------------------------- */

/* Called with prof_lock held: candidate device pointers among a kernel's
 * first argument words (the buffers it reads, for the model's L2: a
 * prefetched range that starts in [p, p + hbm_bytes) of such a word p is
 * not read from HBM again). Only kernels with declared HBM bytes need
 * them. Words are not looked up in the allocation table: executors (model
 * runs) come here too. */
static void scan_args_locked(uint32_t id, const struct task *t)
{
    const unsigned char *a = task_kernel_args(t);
    struct prof_side *sd = side_locked(id);
    for (uint32_t off = 0; sd != NULL && off + sizeof(uint64_t) <= t->u.kernel.args_size && off < 256 &&
                           sd->nptrs < PROF_MAX_PTRS;
         off += sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, a + off, sizeof(v));
        if (v >= 4096)
            sd->ptrs[sd->nptrs++] = v;
    }
}

/* Called with prof_lock held. */
static void fill_kernel(uint32_t id, struct prof_rec *r, const struct task *t)
{
    const struct kfunc *kf = t->u.kernel.kf;
    struct name_slot *slot = kf != NULL ? kernel_slot_locked(kf) : NULL;
    r->engine = t->u.kernel.engine;
    r->sched = t->u.kernel.schedule_mode;
    r->n = t->u.kernel.blocks;
    r->x.limit[0] = t->u.kernel.core_limit[0];
    r->x.limit[1] = t->u.kernel.core_limit[1];
    r->u.k.name = slot != NULL ? slot->name : kf != NULL ? arena_copy_locked(kf->name) : NULL;
    r->u.k.cost = kf != NULL ? kernel_cost_locked(kf, slot) : NULL;
    if (r->u.k.cost != NULL && r->u.k.cost->hbmBytes != 0)
        scan_args_locked(id, t);
}

/* Called with prof_lock held: the key of the record an event task or sync
 * makes or waits for. */
static void event_key(struct prof_rec *r, struct event *ev, uint64_t gen)
{
    r->u.e.ev = ev;
    r->u.e.gen = gen;
    r->x.objgen = load_relaxed(&ev->hdr.gen);
    r->n = (uint32_t)load_relaxed(&ev->id);
}

/* Called with prof_lock held: fills what a task of each kind tells the model. */
static void fill_task(uint32_t id, struct prof_rec *r, const struct task *t)
{
    switch (t->kind) {
    case TASK_KERNEL:
        fill_kernel(id, r, t);
        break;
    case TASK_COPY:
        r->u.c.bytes = t->u.copy.count;
        r->copy_dir = t->u.copy.dir;
        break;
    case TASK_SET:
        r->u.c.bytes = t->u.set.count;
        break;
    case TASK_CMO:
        r->kind = PK_CMO;
        r->cmo_type = (uint8_t)t->u.set.value;
        r->u.c.addr = (uint64_t)(uintptr_t)t->u.set.dst;
        r->u.c.bytes = t->u.set.count;
        break;
    case TASK_MARK:
        r->kind = PK_MARK;
        r->u.name = t->u.host.arg != NULL ? arena_copy_locked(t->u.host.arg) : NULL;
        break;
    case TASK_STEP:
        r->kind = t->u.host.block ? PK_STEP_END : PK_STEP_START;
        r->u.gen = t->u.host.thread; /* the step's index */
        break;
    case TASK_EVENT_RECORD:
    case TASK_EVENT_WAIT:
    case TASK_EVENT_RESET:
    case TASK_NOTIFY_RECORD:
    case TASK_NOTIFY_WAIT:
        event_key(r, t->u.event.ev, t->u.event.gen);
        break;
    default:
        break;
    }
}

/* Called with prof_lock held: the record of an eager task on s. */
static uint32_t task_entry_locked(struct stream *s, const struct task *t)
{
    uint32_t id = alloc_locked();
    struct prof_rec *r;
    if (id == 0)
        return 0;
    thread_locked();
    r = rec(id);
    r->kind = t->kind;
    r->device = (uint8_t)load_relaxed(&s->dev)->id;
    r->stream_id = load_relaxed(&s->id);
    r->task_id = (uint32_t)s->issued; /* s->lock held: stream_commit counted t just now */
    r->host_thread = tls_thread;
    r->host_dep = tls_last_sync;
    r->issue = plat_ticks();
    r->ticked = 1;
    fill_task(id, r, t);
    return id;
}

/* Called with prof_lock held: a model run's end record after its begin. */
static void run_entries_locked(struct task *t, uint32_t begin)
{
    struct model *m = t->u.model.m;
    uint32_t end = alloc_locked();
    struct prof_rec *b = rec(begin);
    b->kind = PK_RUN_BEGIN;
    b->model_id = m->hdr.index;
    add_dep_locked(begin, m->prof_last_end); /* runs of one model are serialised */
    if (end == 0)
        return;
    *rec(end) = *b;
    rec(end)->kind = PK_RUN_END;
    rec(end)->dep_head = 0;
    t->u.model.prof_end = end;
    m->prof_last_end = end;
}

void prof_issue_locked(struct stream *s, struct task *t)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = running ? task_entry_locked(s, t) : 0;
    if (id != 0 && t->kind == TASK_MODEL_RUN)
        run_entries_locked(t, id);
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
        end->worker = tm->worker;
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
    /* Release: what we wrote is seen by prof_end (expand). Not done means
     * dropped: it never ran. */
    if (end != 0)
        store_release(&prof_times(end)->released, 1);
    store_release(&tm->released, 1);
}

/* ---- model runs ------------------------------------------------------------------------ */

/* Called with prof_lock held: an entry made done by its own thread (lane
 * tasks, host events): its times are written here. */
static void times_done_locked(uint32_t id, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns)
{
    struct prof_times *tm = prof_times(id);
    tm->start_ns = start_ns;
    tm->end_ns = end_ns;
    tm->busy_ns = busy_ns;
    tm->worker = engine_worker_index();
    tm->done = 1;
    /* Relaxed: prof_end takes prof_lock before it reads. */
    store_relaxed(&tm->released, 1);
}

uint32_t prof_lane_task(struct stream *runner, const struct task *rt, uint32_t model_id, uint64_t gen,
                        uint32_t after, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = running ? alloc_locked() : 0;
    if (id != 0) {
        struct prof_rec *r = rec(id);
        r->kind = rt->kind;
        r->device = (uint8_t)load_relaxed(&runner->dev)->id;
        r->stream_id = load_relaxed(&runner->id);
        r->task_id = ++runner->prof_seq; /* only the lane's player touches it */
        r->model_id = model_id;
        fill_task(id, r, rt);
        if (is_event_kind(rt->kind))
            r->u.e.gen = gen;
        r->issue = start_ns;
        times_done_locked(id, start_ns, end_ns, busy_ns);
        add_dep_locked(id, after);
    }
    plat_spin_unlock(&prof_lock);
    return id;
}

void prof_run_lane_ended(uint32_t run_end, uint32_t last)
{
    plat_spin_lock(&prof_lock);
    if (run_end != 0 && run_end <= nentries && running)
        add_dep_locked(run_end, last);
    plat_spin_unlock(&prof_lock);
}

/* ---- host ------------------------------------------------------------------------------- */

/* Called with prof_lock held. */
static uint32_t host_entry_locked(uint8_t kind, uint64_t start, uint64_t end)
{
    uint32_t id = running ? alloc_locked() : 0;
    if (id != 0) {
        struct prof_rec *r = rec(id);
        thread_locked();
        r->kind = kind;
        r->host_thread = tls_thread;
        r->host_dep = tls_last_sync;
        r->issue = start;
        times_done_locked(id, start, end, 0);
        prof_times(id)->worker = -1;
    }
    return id;
}

static uint32_t host_entry(uint8_t kind, const char *name, uint64_t start, uint64_t end)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = host_entry_locked(kind, start, end);
    if (id != 0)
        rec(id)->u.name = name != NULL ? arena_copy_locked(name) : NULL;
    plat_spin_unlock(&prof_lock);
    return id;
}

void prof_host_sync(const char *api, const uint32_t *dep, unsigned n, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = host_entry_locked(PK_HOST_SYNC, start_ns, end_ns);
    if (id != 0) {
        rec(id)->u.name = arena_copy_locked(api);
        rec(id)->n = UINT32_MAX; /* no event: the deps say what it waited for */
        for (unsigned i = 0; i < n; i++)
            add_dep_locked(id, dep[i]);
        tls_last_sync = id;
    }
    plat_spin_unlock(&prof_lock);
}

void prof_host_sync_event(const char *api, struct event *ev, uint64_t gen, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id;
    plat_spin_lock(&prof_lock);
    id = host_entry_locked(PK_HOST_SYNC, start_ns, end_ns);
    if (id != 0) {
        struct prof_side *sd = side_locked(id);
        event_key(rec(id), ev, gen);
        if (sd != NULL)
            sd->name = arena_copy_locked(api);
        tls_last_sync = id;
    }
    plat_spin_unlock(&prof_lock);
}

void prof_host_mark(const char *msg, uint64_t ns) { (void)host_entry(PK_HOST_MARK, msg, ns, ns); }

uint32_t prof_host_range_begin(const char *msg, uint64_t ns) { return host_entry(PK_HOST_RANGE, msg, ns, 0); }

void prof_host_range_end(uint32_t id, uint64_t ns)
{
    plat_spin_lock(&prof_lock);
    if (id != 0 && id <= nentries && running)
        prof_times(id)->end_ns = ns;
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

bool prof_env_active(void) { return locked_flag(&env_profile); }

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
