/*
 * profile.c - the profiler's record of a run: one record per task issued
 * (or played by a model run), per host synchronisation, marker and range.
 *
 * DESIGN: a profile is a session (struct prof_session), made by prof_begin
 * and freed by prof_end once its files are written. While it runs, the
 * runtime tells it of each eager task it queues (prof_issue, in plain
 * data: struct prof_task) and the session makes a record, one cache line
 * with what the model needs: stream and position, kernel name and declared
 * cost (copies kept in the session's arena, one per kernel and cost),
 * blocks, engine, schedule mode, core limits, copy sizes, and for event
 * tasks which record (event, object generation, record number) they make
 * or wait for; the host thread and its last sync make the host's side of
 * the ordering. The executor writes the measured times into a separate
 * array, so no cache line is shared per task between the issuing and the
 * executing thread. Model runs add a record per task a lane plays, with the
 * run number as the record number of their private edges. prof_end waits
 * for every profiled task to be released, expands the records into struct
 * prof_entry, models the run (chipsim.c) and writes the files
 * (profwrite.c, profsummary.c).
 *
 * What outlives a session, and why: the chunks records and times live in
 * (the store: a warm chunk for the next profile instead of page faults on
 * the launch path, and a task still running after prof_end gave up waiting
 * for it writes its times into memory that is still there); the last
 * session's expanded entries (reused, not given back to the system and
 * faulted in again by the program's next launches); whether a
 * session runs (live, and prof_on's flag); the host threads' indices
 * (thread-local, renewed per session by epoch); the ACLCPU_PROFILE and
 * collection-mode flags. Everything else is the session's.
 *
 * Growth, ahead of use: prof_issue runs under the issuing stream's
 * spinlock and takes prof_lock, also a spinlock, so nothing there may
 * allocate. Every store (record chunks, dep pool, side records, arena,
 * key tables) keeps headroom, and an entry only takes room that is there:
 * one that finds under half the headroom left sets prof_grow_flag, and the
 * next prof_prepare (called before the stream's lock: stream_submit; the
 * other hooks call it themselves) tops every store up under grow_lock,
 * allocating outside prof_lock and installing under it; a key table's
 * bigger block is made outside, filled and swapped under prof_lock, the
 * old one freed after. An entry that finds no room at all (threads that
 * outran the growth, or memory out) is dropped, counted and told at
 * prof_end, never allocated for.
 *
 * Threads: any. Locks: prof_lock (proc.lock, a spinlock taken under stream
 * and event locks; rank: lockrank.h) guards proc.live and, while it runs, the
 * session's records, dep pool, side table, key tables and arena. grow_lock
 * (a mutex, taken before any spinlock) serialises growth, session start
 * and the taking of a session off live. Writing (chipsim, profwrite)
 * happens on prof_end's thread after the session is taken off live.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common.h"
#include "../platform/platform.h"
#include "profile.h"

#define CHUNK_BITS 12
#define CHUNK (1u << CHUNK_BITS)
#define MAX_CHUNKS 4096 /* 16M entries */

/* Room kept ahead of use in each store (see "growth" below): prof_grow
 * tops a store up to this much, and the locked paths ask for more when
 * less than half of it is left. */
#define RECS_AHEAD CHUNK        /* records */
#define DEPS_AHEAD POOL_ITEMS   /* dep nodes */
#define SIDES_AHEAD POOL_ITEMS  /* side records */
#define ARENA_AHEAD 16384       /* arena bytes */
#define KEYS_AHEAD 64           /* kernels, models */
#define KEYS_FIRST 256          /* a key table's first size */
/* The most arena bytes one entry takes: a name (at most 127 bytes kept)
 * and a declared cost. */
#define ENTRY_BYTES (128 + ((sizeof(aclcpuKernelCost) + 7) & ~(size_t)7))

struct dep_node {
    uint32_t target, next;
};

/* Items of one size in chunks that never move (the dep pool, the side
 * records): the locked paths take items from the chunks there are, and
 * only prof_grow adds chunks (outside prof_lock, installed under it). */
#define POOL_BITS 12
#define POOL_ITEMS (1u << POOL_BITS)
#define POOL_CHUNKS 4096 /* 16M items */
struct pool {
    uint32_t used, cap; /* items taken; items the chunks hold */
    void *chunk[POOL_CHUNKS];
};

_Atomic bool prof_active_flag;
_Atomic bool prof_grow_flag;

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

/* Names (kernels, markers) and declared costs are copied into an arena of
 * chunks that never move, so records point at them until the session is
 * freed; a table by kernel object answers a kernel's next launches without
 * copying, and one by model keeps the end of its newest run. */
#define ARENA_CHUNK 65536
struct arena_chunk {
    struct arena_chunk *next;
    size_t used;
    _Alignas(8) char text[ARENA_CHUNK];
};
struct key_slot {
    const void *key;    /* the object (kernel, model): compared, never followed */
    uint32_t gen;       /* the object's generation when the slot was filled */
    uint32_t last_end;  /* models: the entry of the newest run's end */
    const char *name;   /* kernels: the profile's copy of the name */
    const aclcpuKernelCost *cost; /* kernels: the newest cost copied, or NULL */
};
struct key_table {
    struct key_slot *slots;
    uint32_t cap, used;
};

/* One profile, from prof_begin to the end of prof_end. */
struct prof_session {
    uint32_t nentries;                /* entries made */
    /* Tasks left out for want of room, and dep edges lost: told at
     * prof_end (a burst of threads outran prof_grow, or memory ran out). */
    uint32_t dropped;
    struct pool deps;                 /* struct dep_node; index 0 unused */
    struct pool sides;                /* struct prof_side, in id order */
    struct prof_entry *entries;       /* the expanded entries, made by prof_end */
    size_t entries_cap;
    struct arena_chunk *arena;
    struct key_table kernels, models;
    struct key_slot *last_kernel;     /* the slot of the last kernel launched, or NULL */
    struct prof_soc soc;
    uint32_t next_thread;             /* host thread indices handed out */
    uint32_t epoch;                   /* tells this session's thread indices from older ones */
    bool block_dim;
    /* Issue times of eager tasks are ticks (plat_ticks: cheaper than the
     * clock on the launch path), mapped to ns with the pairs read at begin
     * and end. */
    uint64_t begin_ns, begin_ticks, stop_ns, stop_ticks;
    char out_dir[4096];
};

/* The process-wide part, all a session does not own (see the top). */
static struct {
    plat_spin lock;                       /* prof_lock: a leaf */
    /* grow_lock: held by whoever grows the stores (prof_grow, prof_begin)
     * and by prof_end while it takes the session off live, so that a
     * session being grown is not freed meanwhile. */
    plat_mutex grow_lock;
    struct prof_session *live;            /* the running session, under lock */
    /* The session prof_end is writing: what chipsim and profwrite read
     * through prof_entry and its kin. prof_end's thread only (one stop at
     * a time: the API's lock, or the process's exit). */
    struct prof_session *writing;
    uint32_t epoch;                       /* sessions begun, under lock */
    bool env_profile;                     /* ACLCPU_PROFILE's session runs, under lock */
    bool collecting;                      /* aclprofInit .. aclprofFinalize, under lock */
    uint32_t acl_finalizes;               /* aclFinalize calls that ended collection, under lock */
    /* The chunks of records and times, by id, kept from one session to the
     * next; a session zeroes the times the previous one used. */
    uint32_t times_used;                  /* entries whose times may be dirty, under lock */
    /* Chunks made (recs[0..rec_chunks), with their times): written under
     * lock and grow_lock, so either one is enough to read it. */
    uint32_t rec_chunks;
    struct prof_rec *recs[MAX_CHUNKS];
    struct prof_times *times[MAX_CHUNKS];
    /* The last session's expanded entries (prof_end's thread only), kept
     * for the next: freeing megabytes when a profile stops gives them back
     * to the system, and the program's next launches fault the heap in
     * again (measured: unprofiled launches twice as slow for a while). */
    struct prof_entry *spare;
    size_t spare_cap;
} proc;

/* The calling host thread's index and its last sync entry; tls_epoch tells
 * a value from an earlier session, which is reset. Read at every profiled
 * launch: initial-exec spares the __tls_get_addr call of a shared library
 * (12 bytes of static TLS). */
static _Thread_local uint32_t tls_thread __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t tls_last_sync __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t tls_epoch __attribute__((tls_model("initial-exec")));

__attribute__((constructor)) static void prof_init(void)
{
    plat_spin_init(&proc.lock, LOCK_PROF);
    plat_mutex_init(&proc.grow_lock, LOCK_PROF_GROW);
}

static struct prof_rec *rec(uint32_t id) { return &proc.recs[id >> CHUNK_BITS][id & (CHUNK - 1)]; }
static struct prof_times *prof_times(uint32_t id) { return &proc.times[id >> CHUNK_BITS][id & (CHUNK - 1)]; }
static struct dep_node *dep_at(const struct prof_session *ps, uint32_t i)
{
    return &((struct dep_node *)ps->deps.chunk[i >> POOL_BITS])[i & (POOL_ITEMS - 1)];
}
static struct prof_side *side_at(const struct prof_session *ps, uint32_t i)
{
    return &((struct prof_side *)ps->sides.chunk[i >> POOL_BITS])[i & (POOL_ITEMS - 1)];
}

struct prof_entry *prof_entry(uint32_t id) { return &proc.writing->entries[id]; }

uint32_t prof_count(void) { return proc.writing != NULL && proc.writing->entries != NULL ? proc.writing->nentries : 0; }

bool prof_running(void)
{
    bool on;
    plat_spin_lock(&proc.lock);
    on = proc.live != NULL;
    plat_spin_unlock(&proc.lock);
    return on;
}

/* ---- the arena and the key tables --------------------------------------------------- */

/* Called with prof_lock held: n bytes (8-aligned) in the arena, or NULL
 * when the chunk is full (entry_room_locked checked there is room). */
static void *arena_alloc_locked(struct prof_session *ps, size_t n)
{
    PLAT_ASSERT_HELD(&proc.lock);
    void *out;
    n = (n + 7) & ~(size_t)7;
    if (ps->arena == NULL || ps->arena->used + n > ARENA_CHUNK)
        return NULL;
    out = ps->arena->text + ps->arena->used;
    ps->arena->used += n;
    return out;
}

/* Called with prof_lock held: a copy of s (at most 127 bytes kept), or NULL. */
static const char *arena_copy_locked(struct prof_session *ps, const char *s)
{
    PLAT_ASSERT_HELD(&proc.lock);
    size_t n = strnlen(s, 127);
    char *out = arena_alloc_locked(ps, n + 1);
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

/* Whether table t takes n more keys and stays at most half full. */
static bool keys_fit(const struct key_table *t, uint32_t n) { return ((uint64_t)t->used + n) * 2 <= t->cap; }

/* Called with prof_lock held: the slot of object key in generation gen;
 * *fresh says it was (re)made empty here: a recycled object (another
 * generation) is another object. NULL when the table is full (it grows
 * only in prof_grow). */
static struct key_slot *key_slot_locked(struct key_table *t, const void *key, uint32_t gen, bool *fresh)
{
    PLAT_ASSERT_HELD(&proc.lock);
    uint32_t i;
    if (t->cap == 0)
        return NULL;
    for (i = slot_of(key, t->cap); t->slots[i].key != NULL; i = (i + 1) & (t->cap - 1))
        if (t->slots[i].key == key)
            break;
    *fresh = !(t->slots[i].key == key && t->slots[i].gen == gen);
    if (!*fresh)
        return &t->slots[i];
    if (t->slots[i].key == NULL) {
        if (!keys_fit(t, 1))
            return NULL;
        t->used++;
    }
    t->slots[i] = (struct key_slot){key, gen, 0, NULL, NULL};
    return &t->slots[i];
}

/* Called with prof_lock held: kernel pt's slot, filled with the profile's
 * copy of its name. The same object in the same generation has the same
 * name. NULL when out of memory. */
static struct key_slot *kernel_slot_locked(struct prof_session *ps, const struct prof_task *pt)
{
    PLAT_ASSERT_HELD(&proc.lock);
    bool fresh;
    struct key_slot *k = ps->last_kernel;
    if (k != NULL && k->key == pt->object && k->gen == pt->object_gen)
        return k; /* the kernel of the last launch: the common case, no hashing */
    k = key_slot_locked(&ps->kernels, pt->object, pt->object_gen, &fresh);
    if (k != NULL && fresh)
        k->name = pt->name != NULL ? arena_copy_locked(ps, pt->name) : NULL;
    ps->last_kernel = k; /* slots move only when prof_grow resizes the table (it moves this too) */
    return k;
}

/* Called with prof_lock held: the profile's copy of the cost declared for
 * the kernel at launch (a launch takes the cost in force when it is
 * issued), or NULL for none. */
static const aclcpuKernelCost *kernel_cost_locked(struct prof_session *ps, const struct prof_task *pt,
                                                  struct key_slot *slot)
{
    PLAT_ASSERT_HELD(&proc.lock);
    aclcpuKernelCost *copy;
    if (pt->cost == NULL)
        return NULL;
    if (slot != NULL && slot->cost != NULL && memcmp(slot->cost, pt->cost, sizeof(*pt->cost)) == 0)
        return slot->cost;
    if ((copy = arena_alloc_locked(ps, sizeof(*copy))) == NULL)
        return NULL;
    *copy = *pt->cost;
    if (slot != NULL)
        slot->cost = copy;
    return copy;
}

/* ---- records ---------------------------------------------------------------------------- */

/* How much room an entry needs, or the low-water marks below which the
 * locked paths ask for growth. */
struct room {
    uint32_t recs, deps, sides, keys;
    size_t bytes;
};

static size_t arena_left(const struct prof_session *ps)
{
    return ps->arena != NULL ? ARENA_CHUNK - ps->arena->used : 0;
}

/* Called with prof_lock held: whether every store holds need beyond what
 * is taken. */
static bool has_room_locked(const struct prof_session *ps, const struct room *need)
{
    PLAT_ASSERT_HELD(&proc.lock);
    return (uint64_t)ps->nentries + need->recs < (uint64_t)proc.rec_chunks * CHUNK &&
           (uint64_t)ps->deps.used + need->deps <= ps->deps.cap &&
           (uint64_t)ps->sides.used + need->sides <= ps->sides.cap && arena_left(ps) >= need->bytes &&
           keys_fit(&ps->kernels, need->keys) && keys_fit(&ps->models, need->keys);
}

/* Called with prof_lock held, before an entry takes anything: whether ids
 * records and deps dep nodes (and a side record, a name, a cost and a key
 * in each table) are there. Under half the headroom left, it asks the next
 * prof_prepare to grow the stores; no room at all, the entry is dropped
 * and counted (never allocated here: prof_lock is a spinlock). */
static bool entry_room_locked(struct prof_session *ps, uint32_t ids, uint32_t deps)
{
    PLAT_ASSERT_HELD(&proc.lock);
    const struct room low = {ids + RECS_AHEAD / 2, deps + DEPS_AHEAD / 2, SIDES_AHEAD / 2, KEYS_AHEAD / 2,
                             ARENA_AHEAD / 2};
    const struct room one = {ids, deps, 1, 1, ENTRY_BYTES};
    if (ACLCPU_LIKELY(has_room_locked(ps, &low)))
        return true;
    /* Relaxed: a hint; prof_grow reads what is missing under prof_lock. */
    store_relaxed(&prof_grow_flag, true);
    if (has_room_locked(ps, &one))
        return true;
    ps->dropped++;
    return false;
}

/* Called with prof_lock held, after entry_room_locked: a zeroed record
 * (its times were zeroed when the session began). */
static uint32_t alloc_locked(struct prof_session *ps)
{
    PLAT_ASSERT_HELD(&proc.lock);
    uint32_t id = ++ps->nentries; /* ids start at 1: 0 means none */
    struct prof_rec *r = rec(id);
    memset(r, 0, sizeof(*r));
    r->model_id = UINT32_MAX;
    r->stream_id = -1;
    return id;
}

/* Called with prof_lock held: the side record of id (made last), or NULL. */
static struct prof_side *side_locked(struct prof_session *ps, uint32_t id)
{
    PLAT_ASSERT_HELD(&proc.lock);
    struct prof_side *sd;
    if (ps->sides.used > 0 && (sd = side_at(ps, ps->sides.used - 1))->id == id)
        return sd;
    if (ps->sides.used == ps->sides.cap)
        return NULL;
    sd = side_at(ps, ps->sides.used++);
    *sd = (struct prof_side){id, 0, NULL, {0}};
    return sd;
}

/* Called with prof_lock held: the calling thread's index in this session. */
static void thread_locked(struct prof_session *ps)
{
    PLAT_ASSERT_HELD(&proc.lock);
    if (tls_epoch != ps->epoch) {
        tls_epoch = ps->epoch;
        tls_thread = ++ps->next_thread;
        tls_last_sync = 0;
    }
}

/* Called with prof_lock held. */
static void add_dep_locked(struct prof_session *ps, uint32_t entry, uint32_t target)
{
    PLAT_ASSERT_HELD(&proc.lock);
    struct prof_rec *r = rec(entry);
    if (target == 0)
        return;
    if (ps->deps.used == ps->deps.cap) { /* entry_room_locked makes it rare */
        ps->dropped++; /* the model loses one edge; the run is not affected */
        return;
    }
    *dep_at(ps, ps->deps.used) = (struct dep_node){target, r->dep_head};
    r->dep_head = ps->deps.used++;
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
    *cursor = dep_at(proc.writing, at)->next;
    return dep_at(proc.writing, at)->target;
}

const struct prof_soc *prof_soc(void) { return &proc.writing->soc; }

/* ---- growth, ahead of use ----------------------------------------------------------- */

/* What the running session's stores lack to hold their headroom (and
 * extra_deps more dep nodes), read under prof_lock by grow. */
struct prof_need {
    uint32_t rec_chunks;              /* record chunks wanted in all */
    uint32_t dep_chunks, side_chunks; /* chunks to add */
    bool arena;                       /* a fresh arena chunk */
    uint32_t kernels_cap, models_cap; /* the key tables' sizes wanted */
};

static uint32_t chunks_short(const struct pool *p, uint64_t want)
{
    return want <= p->cap ? 0 : (uint32_t)((want - p->cap + POOL_ITEMS - 1) / POOL_ITEMS);
}

static uint32_t keys_cap_for(const struct key_table *t)
{
    uint32_t cap = t->cap != 0 ? t->cap : KEYS_FIRST;
    while (((uint64_t)t->used + KEYS_AHEAD) * 2 > cap)
        cap *= 2;
    return cap;
}

/* Called with prof_lock held. */
static struct prof_need needs_locked(const struct prof_session *ps, uint32_t extra_deps)
{
    PLAT_ASSERT_HELD(&proc.lock);
    uint64_t chunks = ((uint64_t)ps->nentries + RECS_AHEAD) / CHUNK + 1; /* up to the last id wanted */
    return (struct prof_need){
        .rec_chunks = chunks < MAX_CHUNKS ? (uint32_t)chunks : MAX_CHUNKS,
        .dep_chunks = chunks_short(&ps->deps, (uint64_t)ps->deps.used + DEPS_AHEAD + extra_deps),
        .side_chunks = chunks_short(&ps->sides, (uint64_t)ps->sides.used + SIDES_AHEAD),
        .arena = arena_left(ps) < ARENA_AHEAD,
        .kernels_cap = keys_cap_for(&ps->kernels),
        .models_cap = keys_cap_for(&ps->models),
    };
}

/* The adders below run with grow_lock held and prof_lock not: each
 * allocates, then installs under prof_lock what the locked paths read.
 * The sizes they read outside it (rec_chunks, a pool's or table's cap)
 * change only under grow_lock. */

static bool add_rec_chunk(void)
{
    uint32_t c = proc.rec_chunks;
    struct prof_rec *r;
    struct prof_times *t;
    if (c >= MAX_CHUNKS)
        return false;
    r = acl_aligned_alloc(64, CHUNK * sizeof(*r));
    t = acl_calloc(CHUNK, sizeof(*t));
    if (r == NULL || t == NULL) {
        acl_free(r);
        acl_free(t);
        return false;
    }
    plat_spin_lock(&proc.lock);
    proc.recs[c] = r;
    proc.times[c] = t;
    proc.rec_chunks = c + 1;
    plat_spin_unlock(&proc.lock);
    return true;
}

static bool add_pool_chunk(struct pool *p, size_t item_size)
{
    uint32_t c = p->cap >> POOL_BITS;
    void *chunk;
    if (c >= POOL_CHUNKS || (chunk = acl_malloc(POOL_ITEMS * item_size)) == NULL)
        return false;
    plat_spin_lock(&proc.lock);
    p->chunk[c] = chunk;
    p->cap += POOL_ITEMS;
    plat_spin_unlock(&proc.lock);
    return true;
}

/* A fresh arena chunk: what is left of the old one stays unused. */
static void add_arena_chunk(struct prof_session *ps)
{
    struct arena_chunk *c = acl_malloc(sizeof(*c));
    if (c == NULL)
        return;
    c->used = 0;
    plat_spin_lock(&proc.lock);
    c->next = ps->arena;
    ps->arena = c;
    plat_spin_unlock(&proc.lock);
}

/* Called with prof_lock held: moves t's slots into n (cap slots, zeroed)
 * and returns the old block, which the caller frees after the unlock. The
 * new block is made outside the lock; the moves (of at most half the old
 * table, at each doubling) happen under it, since issuers fill slots until
 * the swap. last_kernel follows its slot. */
static struct key_slot *rehash_locked(struct prof_session *ps, struct key_table *t, struct key_slot *n, uint32_t cap)
{
    PLAT_ASSERT_HELD(&proc.lock);
    struct key_slot *old = t->slots;
    for (uint32_t i = 0, j; i < t->cap; i++) {
        if (old[i].key == NULL)
            continue;
        for (j = slot_of(old[i].key, cap); n[j].key != NULL;)
            j = (j + 1) & (cap - 1);
        n[j] = old[i];
        if (ps->last_kernel == &old[i])
            ps->last_kernel = &n[j];
    }
    t->slots = n;
    t->cap = cap;
    return old;
}

static void resize_keys(struct prof_session *ps, struct key_table *t, uint32_t cap)
{
    struct key_slot *n, *old;
    if (cap <= t->cap || (n = acl_calloc(cap, sizeof(*n))) == NULL)
        return;
    plat_spin_lock(&proc.lock);
    old = rehash_locked(ps, t, n, cap);
    plat_spin_unlock(&proc.lock);
    acl_free(old);
}

/* With grow_lock held: adds what need says ps lacks (as much as memory
 * gives: what is still missing makes entries dropped, not a failure). */
static void top_up(struct prof_session *ps, const struct prof_need *need)
{
    while (proc.rec_chunks < need->rec_chunks && add_rec_chunk())
        continue;
    for (uint32_t i = 0; i < need->dep_chunks && add_pool_chunk(&ps->deps, sizeof(struct dep_node)); i++)
        continue;
    for (uint32_t i = 0; i < need->side_chunks && add_pool_chunk(&ps->sides, sizeof(struct prof_side)); i++)
        continue;
    if (need->arena)
        add_arena_chunk(ps);
    resize_keys(ps, &ps->kernels, need->kernels_cap);
    resize_keys(ps, &ps->models, need->models_cap);
}

/* Tops the running session's stores up to their headroom, and to
 * extra_deps more dep nodes. The flag is cleared after the top-up, so
 * that threads which see it set meanwhile wait here for the growth rather
 * than outrun it; an entry still under the low-water mark sets it again.
 * Relaxed, both: a hint; what is missing is read under prof_lock. */
static void grow(uint32_t extra_deps)
{
    struct prof_session *ps;
    struct prof_need need = {0};
    PLAT_ASSERT_NO_SPIN("growing the profile");
    plat_mutex_lock(&proc.grow_lock);
    if (extra_deps == 0 && !load_relaxed(&prof_grow_flag)) {
        plat_mutex_unlock(&proc.grow_lock); /* grown by the thread this one waited for */
        return;
    }
    plat_spin_lock(&proc.lock);
    ps = proc.live;
    if (ps != NULL)
        need = needs_locked(ps, extra_deps);
    plat_spin_unlock(&proc.lock);
    if (ps != NULL) /* not freed meanwhile: prof_end takes it off live under grow_lock */
        top_up(ps, &need);
    store_relaxed(&prof_grow_flag, false);
    plat_mutex_unlock(&proc.grow_lock);
}

void prof_grow(void) { grow(0); }

/* Before an entry of the calling thread that takes n dep nodes, outside
 * every spinlock: a sync of many streams makes sure of its n. */
static void prepare_deps(unsigned n)
{
    if (n > DEPS_AHEAD / 4)
        grow(n);
    else
        prof_prepare();
}

/* ---- start and stop ---------------------------------------------------------------- */

/* Called with prof_lock held: the times of the previous session's entries
 * are zeroed here, not when an entry is made: the issuing thread must not
 * write the cache lines executors are writing the times of tasks just
 * before into (they hold about two entries' times each). */
static void zero_times_locked(void)
{
    PLAT_ASSERT_HELD(&proc.lock);
    for (uint32_t c = 0; proc.times_used > 0 && c <= (proc.times_used >> CHUNK_BITS) && c < MAX_CHUNKS; c++)
        if (proc.times[c] != NULL)
            memset(proc.times[c], 0, CHUNK * sizeof(**proc.times));
    proc.times_used = 0;
}

static void session_free(struct prof_session *ps)
{
    while (ps->arena != NULL) {
        struct arena_chunk *next = ps->arena->next;
        acl_free(ps->arena);
        ps->arena = next;
    }
    acl_free(ps->kernels.slots);
    acl_free(ps->models.slots);
    for (uint32_t c = 0; c < (ps->deps.cap >> POOL_BITS); c++)
        acl_free(ps->deps.chunk[c]);
    for (uint32_t c = 0; c < (ps->sides.cap >> POOL_BITS); c++)
        acl_free(ps->sides.chunk[c]);
    if (ps->entries != NULL) { /* kept for the next session (see proc.spare) */
        acl_free(proc.spare);
        proc.spare = ps->entries;
        proc.spare_cap = ps->entries_cap;
    }
    acl_free(ps);
}

/* With grow_lock held: fills the stores of ps, a session not yet live, to
 * their headroom (records: the process's chunks). */
static bool fill_new_session(struct prof_session *ps)
{
    const struct room one = {1, 1, 1, 1, ENTRY_BYTES};
    struct prof_need need;
    bool ready;
    ps->deps.used = 1; /* dep index 0 means none */
    plat_spin_lock(&proc.lock);
    need = needs_locked(ps, 0);
    plat_spin_unlock(&proc.lock);
    top_up(ps, &need);
    plat_spin_lock(&proc.lock);
    ready = has_room_locked(ps, &one);
    plat_spin_unlock(&proc.lock);
    return ready;
}

/* With grow_lock held: makes ps the running session. */
static aclError go_live(struct prof_session *ps)
{
    plat_spin_lock(&proc.lock);
    if (proc.live != NULL) { /* another thread began one meanwhile */
        plat_spin_unlock(&proc.lock);
        return ACL_ERROR_PROF_ALREADY_RUN;
    }
    zero_times_locked();
    ps->epoch = ++proc.epoch;
    ps->begin_ns = plat_now_ns();
    ps->begin_ticks = plat_ticks();
    proc.live = ps;
    plat_spin_unlock(&proc.lock);
    return ACL_SUCCESS;
}

aclError prof_begin(const char *dir, bool block_dim_names, const struct prof_soc *soc)
{
    struct prof_session *ps;
    aclError err;
    if (prof_running())
        return ACL_ERROR_PROF_ALREADY_RUN;
    if (strlen(dir) >= sizeof(ps->out_dir))
        return ACL_ERROR_INVALID_FILE; /* cut, the files would go elsewhere */
    if ((ps = acl_calloc(1, sizeof(*ps))) == NULL)
        return ACL_ERROR_PROFILING_FAILURE;
    snprintf(ps->out_dir, sizeof(ps->out_dir), "%s", dir);
    ps->block_dim = block_dim_names;
    ps->soc = *soc;
    plat_mutex_lock(&proc.grow_lock);
    err = fill_new_session(ps) ? go_live(ps) : ACL_ERROR_PROFILING_FAILURE;
    plat_mutex_unlock(&proc.grow_lock);
    if (err != ACL_SUCCESS) {
        session_free(ps);
        return err;
    }
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
        e->us_launch = r->u.k.cost->usLaunch;
        e->hbm_bytes = r->u.k.cost->hbmBytes;
        e->mix = (uint8_t)r->u.k.cost->mix;
    }
}

static bool is_event_kind(uint8_t kind) { return kind >= PK_EVENT_RECORD && kind <= PK_NOTIFY_WAIT; }

/* The record's kind-specific part, into e. */
static void expand_payload(struct prof_entry *e, const struct prof_rec *r)
{
    if (r->kind == PK_KERNEL) {
        expand_kernel(e, r);
    } else if (is_event_kind(r->kind) || (r->kind == PK_HOST_SYNC && r->n != UINT32_MAX)) {
        e->ev = r->u.e.ev;
        e->gen = r->u.e.gen;
        e->ev_objgen = r->x.objgen;
        e->ev_id = (int32_t)r->n;
    } else if (r->kind == PK_COPY || r->kind == PK_SET || r->kind == PK_CMO) {
        e->bytes = r->u.c.bytes;
        e->addr = r->u.c.addr;
    } else if (r->kind == PK_STEP_START || r->kind == PK_STEP_END) {
        e->gen = r->u.gen;
    } else {
        e->name = r->u.name;
    }
}

/* A tick of plat_ticks() as monotonic ns (the two clocks were read
 * together when the session began and when it ended). */
static uint64_t ticks_ns(const struct prof_session *ps, uint64_t ticks)
{
    double per_tick;
    if (ps->stop_ticks <= ps->begin_ticks || ps->stop_ns <= ps->begin_ns)
        return ticks; /* no TSC: ticks are ns */
    per_tick = (double)(ps->stop_ns - ps->begin_ns) / (double)(ps->stop_ticks - ps->begin_ticks);
    return ps->begin_ns + (uint64_t)((double)(int64_t)(ticks - ps->begin_ticks) * per_tick);
}

/* One entry from its record and times. */
static void expand_one(const struct prof_session *ps, struct prof_entry *e, const struct prof_rec *r,
                       const struct prof_times *t)
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
    e->issue_ns = r->ticked ? ticks_ns(ps, r->issue) : r->issue;
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
static bool expand(struct prof_session *ps)
{
    uint32_t n = ps->nentries;
    if (proc.spare != NULL && proc.spare_cap >= (size_t)n + 1) {
        ps->entries = proc.spare;
        ps->entries_cap = proc.spare_cap;
        proc.spare = NULL;
        memset(ps->entries, 0, ((size_t)n + 1) * sizeof(*ps->entries));
    } else {
        ps->entries = acl_calloc((size_t)n + 1, sizeof(*ps->entries));
        ps->entries_cap = (size_t)n + 1;
    }
    if (ps->entries == NULL)
        return false;
    for (uint32_t id = 1; id <= n; id++)
        expand_one(ps, &ps->entries[id], rec(id), prof_times(id));
    for (uint32_t i = 0; i < ps->sides.used; i++) {
        const struct prof_side *sd = side_at(ps, i);
        struct prof_entry *e = &ps->entries[sd->id];
        if (sd->name != NULL)
            e->name = sd->name;
        e->nptrs = sd->nptrs;
        memcpy(e->ptrs, sd->ptrs, sizeof(e->ptrs));
    }
    return true;
}

/* Entries left out never go unsaid: stderr whatever the log level (the
 * user asked for the profile), and the log. */
static void report_dropped(uint32_t n)
{
    fprintf(stderr,
            "aclcpu: profile: %u tasks or edges were left out of the profile: its memory did not grow fast "
            "enough (a burst of launching threads, or memory ran out)\n",
            n);
    fflush(stderr);
    LOGW("profile: %u tasks or edges were left out of the profile (no room)", n);
}

/* Models the session and writes its files (prof_end's thread). */
static aclError write_session(struct prof_session *ps, char *why, size_t cap)
{
    aclError err;
    if (!drain_in_flight(ps->nentries))
        LOGW("profile: tasks still running after 10 s; their entries are left out of the model");
    if (!expand(ps)) {
        snprintf(why, cap, "out of memory expanding %u profile entries", ps->nentries);
        return ACL_ERROR_PROFILING_FAILURE;
    }
    proc.writing = ps;
    chipsim_run();
    err = profwrite_all(ps->out_dir, ps->block_dim, why, cap);
    proc.writing = NULL;
    return err;
}

aclError prof_end(char *why, size_t cap)
{
    aclError err;
    struct prof_session *ps;
    plat_mutex_lock(&proc.grow_lock); /* not while prof_grow fills the session */
    plat_spin_lock(&proc.lock);
    ps = proc.live;
    proc.live = NULL;
    if (ps != NULL) {
        ps->stop_ns = plat_now_ns();
        ps->stop_ticks = plat_ticks();
        proc.times_used = ps->nentries; /* the next session zeroes them */
    }
    plat_spin_unlock(&proc.lock);
    plat_mutex_unlock(&proc.grow_lock);
    if (ps == NULL) {
        snprintf(why, cap, "no profile is running");
        return ACL_ERROR_PROF_NOT_RUN;
    }
    store_relaxed(&prof_active_flag, false);
    err = write_session(ps, why, cap);
    if (ps->dropped != 0)
        report_dropped(ps->dropped);
    session_free(ps);
    return err;
}

/* ---- eager tasks ---------------------------------------------------------------------- */

/* Called with prof_lock held: candidate device pointers among a kernel's
 * first argument words (the buffers it reads, for the model's L2: a
 * prefetched range that starts in [p, p + hbm_bytes) of such a word p is
 * not read from HBM again). Only kernels with declared HBM bytes need
 * them. Words are not looked up in the allocation table: executors (model
 * runs) come here too. */
static void scan_args_locked(struct prof_session *ps, uint32_t id, const struct prof_task *pt)
{
    PLAT_ASSERT_HELD(&proc.lock);
    const unsigned char *a = pt->args;
    struct prof_side *sd = side_locked(ps, id);
    for (uint32_t off = 0; sd != NULL && off + sizeof(uint64_t) <= pt->args_size && off < 256 &&
                           sd->nptrs < PROF_MAX_PTRS;
         off += sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, a + off, sizeof(v));
        if (v >= 4096)
            sd->ptrs[sd->nptrs++] = v;
    }
}

/* Called with prof_lock held. */
static void fill_kernel(struct prof_session *ps, uint32_t id, struct prof_rec *r, const struct prof_task *pt)
{
    struct key_slot *slot = pt->object != NULL ? kernel_slot_locked(ps, pt) : NULL;
    r->engine = pt->engine;
    r->sched = pt->sched;
    r->n = pt->blocks;
    r->x.limit[0] = pt->limit[0];
    r->x.limit[1] = pt->limit[1];
    r->u.k.name = slot != NULL ? slot->name : pt->name != NULL ? arena_copy_locked(ps, pt->name) : NULL;
    r->u.k.cost = kernel_cost_locked(ps, pt, slot);
    if (r->u.k.cost != NULL && r->u.k.cost->hbmBytes != 0)
        scan_args_locked(ps, id, pt);
}

/* The key of the record an event task or sync makes or waits for. */
static void event_key(struct prof_rec *r, const struct prof_event_key *key)
{
    r->u.e.ev = key->ev;
    r->u.e.gen = key->gen;
    r->x.objgen = key->objgen;
    r->n = (uint32_t)key->id;
}

/* Called with prof_lock held: fills what a task of each kind tells the model. */
static void fill_task(struct prof_session *ps, uint32_t id, struct prof_rec *r, const struct prof_task *pt)
{
    switch (pt->kind) {
    case PK_KERNEL:
        fill_kernel(ps, id, r, pt);
        break;
    case PK_COPY:
        r->u.c.bytes = pt->bytes;
        r->copy_dir = pt->copy_dir;
        break;
    case PK_SET:
        r->u.c.bytes = pt->bytes;
        break;
    case PK_CMO:
        r->cmo_type = pt->cmo_type;
        r->u.c.addr = pt->addr;
        r->u.c.bytes = pt->bytes;
        break;
    case PK_MARK:
        r->u.name = pt->name != NULL ? arena_copy_locked(ps, pt->name) : NULL;
        break;
    case PK_STEP_START:
    case PK_STEP_END:
        r->u.gen = pt->step;
        break;
    case PK_EVENT_RECORD:
    case PK_EVENT_WAIT:
    case PK_EVENT_RESET:
    case PK_NOTIFY_RECORD:
    case PK_NOTIFY_WAIT:
        event_key(r, &pt->ev);
        break;
    default:
        break;
    }
}

/* Called with prof_lock held: the record of an eager task. */
static uint32_t task_entry_locked(struct prof_session *ps, const struct prof_task *pt)
{
    PLAT_ASSERT_HELD(&proc.lock);
    uint32_t id;
    struct prof_rec *r;
    if (ACLCPU_UNLIKELY(!entry_room_locked(ps, 2, 1))) /* a model run: 2 records, an edge */
        return 0;
    id = alloc_locked(ps);
    thread_locked(ps);
    r = rec(id);
    r->kind = pt->kind;
    r->device = (uint8_t)pt->device;
    r->stream_id = pt->stream_id;
    r->task_id = pt->task_id;
    r->host_thread = tls_thread;
    r->host_dep = tls_last_sync;
    r->issue = plat_ticks();
    r->ticked = 1;
    if (ACLCPU_LIKELY(pt->kind == PK_KERNEL)) /* the launch path: no switch */
        fill_kernel(ps, id, r, pt);
    else
        fill_task(ps, id, r, pt);
    return id;
}

/* Called with prof_lock held: a model run's end record after its begin;
 * runs of one model are serialised, so its begin comes after the model's
 * previous run's end. Returns the end's id, or 0. */
static uint32_t run_entries_locked(struct prof_session *ps, const struct prof_task *pt, uint32_t begin)
{
    PLAT_ASSERT_HELD(&proc.lock);
    bool fresh;
    struct key_slot *m = key_slot_locked(&ps->models, pt->object, pt->object_gen, &fresh);
    uint32_t end = alloc_locked(ps);
    struct prof_rec *b = rec(begin);
    b->kind = PK_RUN_BEGIN;
    b->model_id = pt->model_id;
    add_dep_locked(ps, begin, m != NULL ? m->last_end : 0);
    *rec(end) = *b;
    rec(end)->kind = PK_RUN_END;
    rec(end)->dep_head = 0;
    if (m != NULL)
        m->last_end = end;
    return end;
}

uint32_t prof_issue(const struct prof_task *pt, uint32_t *run_end)
{
    uint32_t id;
    plat_spin_lock(&proc.lock);
    id = proc.live != NULL ? task_entry_locked(proc.live, pt) : 0;
    *run_end = id != 0 && pt->kind == PK_MODEL_RUN ? run_entries_locked(proc.live, pt, id) : 0;
    plat_spin_unlock(&proc.lock);
    return id;
}

void prof_task_started(uint32_t id, int worker)
{
    struct prof_times *tm = prof_times(id);
    if (tm->start_ns == 0) { /* a parked wait starts again when released */
        tm->start_ns = plat_now_ns();
        tm->worker = worker;
    }
}

void prof_kernel_busy(uint32_t id, uint64_t busy_ns) { prof_times(id)->busy_ns = busy_ns; }

void prof_task_ended(uint32_t id, uint32_t run_end)
{
    struct prof_times *tm = prof_times(id);
    uint64_t now = plat_now_ns();
    if (tm->start_ns == 0)
        tm->start_ns = now;
    tm->end_ns = now;
    tm->done = 1;
    if (run_end != 0) {
        struct prof_times *end = prof_times(run_end);
        end->start_ns = end->end_ns = now;
        end->worker = tm->worker;
        end->done = 1;
    }
}

void prof_wait_took(uint32_t id, uint64_t gen)
{
    struct prof_times *tm = prof_times(id);
    tm->took_gen = gen;
    tm->took = 1;
}

void prof_task_released(uint32_t id, uint32_t run_end)
{
    /* Release: what we wrote is seen by prof_end (expand). Not done means
     * dropped: it never ran. */
    if (run_end != 0)
        store_release(&prof_times(run_end)->released, 1);
    store_release(&prof_times(id)->released, 1);
}

/* ---- model runs ------------------------------------------------------------------------ */

/* Called with prof_lock held: an entry made done by its own thread (lane
 * tasks, host events): its times are written here. */
static void times_done_locked(uint32_t id, uint64_t start_ns, uint64_t end_ns, uint64_t busy_ns, int worker)
{
    PLAT_ASSERT_HELD(&proc.lock);
    struct prof_times *tm = prof_times(id);
    tm->start_ns = start_ns;
    tm->end_ns = end_ns;
    tm->busy_ns = busy_ns;
    tm->worker = worker;
    tm->done = 1;
    /* Relaxed: prof_end takes prof_lock before it reads. */
    store_relaxed(&tm->released, 1);
}

uint32_t prof_lane_task(const struct prof_task *pt, uint32_t after, uint64_t start_ns, uint64_t end_ns,
                        uint64_t busy_ns, int worker)
{
    uint32_t id;
    prof_prepare();
    plat_spin_lock(&proc.lock);
    id = proc.live != NULL && entry_room_locked(proc.live, 1, 1) ? alloc_locked(proc.live) : 0;
    if (id != 0) {
        struct prof_rec *r = rec(id);
        r->kind = pt->kind;
        r->device = (uint8_t)pt->device;
        r->stream_id = pt->stream_id;
        r->task_id = pt->task_id;
        r->model_id = pt->model_id;
        fill_task(proc.live, id, r, pt);
        r->issue = start_ns;
        times_done_locked(id, start_ns, end_ns, busy_ns, worker);
        add_dep_locked(proc.live, id, after);
    }
    plat_spin_unlock(&proc.lock);
    return id;
}

void prof_run_lane_ended(uint32_t run_end, uint32_t last)
{
    prof_prepare();
    plat_spin_lock(&proc.lock);
    if (proc.live != NULL && run_end != 0 && run_end <= proc.live->nentries && entry_room_locked(proc.live, 0, 1))
        add_dep_locked(proc.live, run_end, last);
    plat_spin_unlock(&proc.lock);
}

/* ---- host ------------------------------------------------------------------------------- */

/* Called with prof_lock held: a host entry of the running session that
 * waits for deps entries, or 0. */
static uint32_t host_entry_locked(uint8_t kind, uint64_t start, uint64_t end, uint32_t deps)
{
    PLAT_ASSERT_HELD(&proc.lock);
    uint32_t id = proc.live != NULL && entry_room_locked(proc.live, 1, deps) ? alloc_locked(proc.live) : 0;
    if (id != 0) {
        struct prof_rec *r = rec(id);
        thread_locked(proc.live);
        r->kind = kind;
        r->host_thread = tls_thread;
        r->host_dep = tls_last_sync;
        r->issue = start;
        times_done_locked(id, start, end, 0, -1);
    }
    return id;
}

static uint32_t host_entry(uint8_t kind, const char *name, uint64_t start, uint64_t end)
{
    uint32_t id;
    prof_prepare();
    plat_spin_lock(&proc.lock);
    id = host_entry_locked(kind, start, end, 0);
    if (id != 0)
        rec(id)->u.name = name != NULL ? arena_copy_locked(proc.live, name) : NULL;
    plat_spin_unlock(&proc.lock);
    return id;
}

void prof_host_sync(const char *api, const uint32_t *dep, unsigned n, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id;
    prepare_deps(n);
    plat_spin_lock(&proc.lock);
    id = host_entry_locked(PK_HOST_SYNC, start_ns, end_ns, n);
    if (id != 0) {
        rec(id)->u.name = arena_copy_locked(proc.live, api);
        rec(id)->n = UINT32_MAX; /* no event: the deps say what it waited for */
        for (unsigned i = 0; i < n; i++)
            add_dep_locked(proc.live, id, dep[i]);
        tls_last_sync = id;
    }
    plat_spin_unlock(&proc.lock);
}

void prof_host_sync_event(const char *api, const struct prof_event_key *key, uint64_t start_ns, uint64_t end_ns)
{
    uint32_t id;
    prof_prepare();
    plat_spin_lock(&proc.lock);
    id = host_entry_locked(PK_HOST_SYNC, start_ns, end_ns, 0);
    if (id != 0) {
        struct prof_side *sd = side_locked(proc.live, id);
        event_key(rec(id), key);
        if (sd != NULL)
            sd->name = arena_copy_locked(proc.live, api);
        tls_last_sync = id;
    }
    plat_spin_unlock(&proc.lock);
}

void prof_host_mark(const char *msg, uint64_t ns) { (void)host_entry(PK_HOST_MARK, msg, ns, ns); }

uint32_t prof_host_range_begin(const char *msg, uint64_t ns) { return host_entry(PK_HOST_RANGE, msg, ns, 0); }

void prof_host_range_end(uint32_t id, uint64_t ns)
{
    plat_spin_lock(&proc.lock);
    if (proc.live != NULL && id != 0 && id <= proc.live->nentries)
        prof_times(id)->end_ns = ns;
    plat_spin_unlock(&proc.lock);
}

/* ---- ACLCPU_PROFILE and options ------------------------------------------------------------ */

bool prof_block_dim_names(void)
{
    return config_is(CFG_PROFILE_BLOCK_DIM, "1");
}

bool prof_env_active(void)
{
    bool on;
    plat_spin_lock(&proc.lock);
    on = proc.env_profile;
    plat_spin_unlock(&proc.lock);
    return on;
}

/* The user asked for a profile by setting ACLCPU_PROFILE: when none will
 * come, stderr says so whatever the log level (the log is silent by
 * default); the log gets the same line. */
static void ACLCPU_PRINTF(1, 2) env_notice(const char *fmt, ...)
{
    char line[5120];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fprintf(stderr, "aclcpu: ACLCPU_PROFILE: %s\n", line);
    fflush(stderr);
    LOGW("ACLCPU_PROFILE: %s", line);
}

static void env_stop_at_exit(void) { prof_env_stop(); }

void prof_env_start(const struct prof_soc *soc)
{
    static bool hooked;
    aclError err;
    const char *dir = config_str(CFG_PROFILE);
    if (dir == NULL || dir[0] == '\0' || prof_running())
        return;
    if (!plat_make_dirs(dir)) {
        env_notice("the directory \"%s\" cannot be made or written (%s); no profile will be written", dir,
                   strerror(errno));
        return;
    }
    if ((err = prof_begin(dir, prof_block_dim_names(), soc)) == ACL_ERROR_INVALID_FILE) {
        env_notice("the directory name \"%s\" is too long (%zu characters); no profile will be written", dir,
                   strlen(dir));
        return;
    }
    if (err != ACL_SUCCESS) {
        env_notice("a profile into \"%s\" cannot begin (error %d); no profile will be written", dir, (int)err);
        return;
    }
    plat_spin_lock(&proc.lock);
    proc.env_profile = true;
    plat_spin_unlock(&proc.lock);
    if (!hooked) {
        hooked = true;
        atexit(env_stop_at_exit); /* a program that never calls aclFinalize still gets its profile */
    }
}

void prof_env_stop(void)
{
    char why[512];
    bool was;
    plat_spin_lock(&proc.lock);
    was = proc.env_profile;
    proc.env_profile = false;
    plat_spin_unlock(&proc.lock);
    if (was && prof_end(why, sizeof(why)) != ACL_SUCCESS)
        env_notice("%s; no profile was written", why);
}

/* Collection mode: from aclprofInit to aclprofFinalize (or ACLCPU_PROFILE),
 * when model subscription is refused, and the other way round. */
void prof_set_collecting(bool on)
{
    plat_spin_lock(&proc.lock);
    proc.collecting = on;
    plat_spin_unlock(&proc.lock);
}

void prof_acl_finalized(void)
{
    plat_spin_lock(&proc.lock);
    proc.collecting = false;
    proc.acl_finalizes++;
    plat_spin_unlock(&proc.lock);
}

uint32_t prof_acl_finalize_count(void)
{
    uint32_t n;
    plat_spin_lock(&proc.lock);
    n = proc.acl_finalizes;
    plat_spin_unlock(&proc.lock);
    return n;
}

bool prof_collecting(void)
{
    bool on;
    plat_spin_lock(&proc.lock);
    on = proc.collecting || proc.env_profile;
    plat_spin_unlock(&proc.lock);
    return on;
}
