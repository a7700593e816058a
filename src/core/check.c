/*
 * check.c - the race and lifetime checker (ACLCPU_CHECK; docs/checker.md).
 *
 * DESIGN: happens-before is computed when work is submitted, on the host,
 * with vector clocks, so a verdict depends on the program and never on the
 * schedule. Slot 0 of every clock is the host; each stream the checker
 * meets gets the next slot. A task ticks its stream's own entry; a record
 * keeps a copy of its stream's clock; a wait joins the copy of the record
 * it binds to (a snapshot event: the newest record at the wait; a notify:
 * the next record not yet taken, or, when none is issued yet, the stream
 * is "blind" - its accesses are neither checked nor remembered - until that
 * record is issued); a host sync that succeeds joins what it waited for
 * into the host's clock, and every later submission joins the host's
 * clock. Whenever the binding is uncertain the checker joins more, never
 * less: a missed edge would be a false report.
 *
 * Device memory has a shadow per allocation: byte ranges (segments), each
 * with its last writer and the readers since, as epochs (slot, clock,
 * description). An access conflicts with an epoch of another slot whose
 * clock its own clock does not cover. A conflict, a free of memory with an
 * uncovered epoch, a host read of an uncovered write, a reset of an event
 * with an uncovered wait, or a reused cache block becomes one report on
 * stderr, deduplicated by (class, both call sites) and capped.
 *
 * Threads: any host thread. Locks: check_lock (a mutex, rank LOCK_CHECK)
 * over everything here; stream_submit holds it around its own critical
 * section, so submissions reach the checker in the order the runtime
 * numbered them. Device memory is looked up (devmem_lookup, mem_lock)
 * before check_lock is taken. Reports are written under check_lock (a
 * mutex: formatting and I/O are allowed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../services/devmem.h"
#include "check.h"
#include "core.h"
#include "model.h"

_Atomic bool check_enabled;

#define REPORTS_SHOWN_MAX 100u
#define DESC_RING 16384u /* descriptions kept for reports (older ones say "details lost") */
#define SEG_READERS 4u   /* readers kept per segment: the newest of up to this many streams */
#define KERNEL_WORDS_MAX 512u /* argument words a kernel's block is searched for pointers */

/* ---- small containers ------------------------------------------------------ */

struct vc {
    uint32_t n, cap;
    uint32_t *c;
};

static uint32_t vc_get(const struct vc *v, uint32_t i) { return i < v->n ? v->c[i] : 0; }

static bool vc_reserve(struct vc *v, uint32_t n)
{
    if (n <= v->cap)
        return true;
    uint32_t cap = v->cap ? v->cap : 8;
    while (cap < n)
        cap *= 2;
    uint32_t *c = acl_realloc(v->c, (size_t)cap * sizeof(*c));
    if (c == NULL)
        return false;
    v->c = c;
    v->cap = cap;
    return true;
}

static void vc_set(struct vc *v, uint32_t i, uint32_t x)
{
    if (i >= v->n) {
        if (!vc_reserve(v, i + 1))
            return;
        memset(v->c + v->n, 0, (size_t)(i + 1 - v->n) * sizeof(*v->c));
        v->n = i + 1;
    }
    v->c[i] = x;
}

static void vc_join(struct vc *dst, const struct vc *src)
{
    for (uint32_t i = 0; i < src->n; i++)
        if (src->c[i] > vc_get(dst, i))
            vc_set(dst, i, src->c[i]);
}

static void vc_copy(struct vc *dst, const struct vc *src)
{
    dst->n = 0;
    if (!vc_reserve(dst, src->n))
        return;
    if (src->n > 0)
        memcpy(dst->c, src->c, (size_t)src->n * sizeof(*src->c));
    dst->n = src->n;
}

static void vc_free(struct vc *v)
{
    acl_free(v->c);
    *v = (struct vc){0};
}

/* Open addressing, linear probing, keys never 0; deletion shifts back. */
struct hmap {
    uintptr_t *keys, *vals;
    size_t cap, n;
};

static size_t h_slot(const struct hmap *m, uintptr_t k)
{
    uint64_t x = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 17) & (m->cap - 1);
}

static uintptr_t *h_find(const struct hmap *m, uintptr_t k)
{
    if (m->cap == 0)
        return NULL;
    for (size_t i = h_slot(m, k);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == k)
            return &m->vals[i];
        if (m->keys[i] == 0)
            return NULL;
    }
}

static bool h_put(struct hmap *m, uintptr_t k, uintptr_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        struct hmap g = {acl_calloc(m->cap ? m->cap * 2 : 64, sizeof(uintptr_t)),
                         acl_calloc(m->cap ? m->cap * 2 : 64, sizeof(uintptr_t)), m->cap ? m->cap * 2 : 64, 0};
        if (g.keys == NULL || g.vals == NULL) {
            acl_free(g.keys);
            acl_free(g.vals);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i] != 0)
                h_put(&g, m->keys[i], m->vals[i]);
        acl_free(m->keys);
        acl_free(m->vals);
        *m = g;
    }
    size_t i = h_slot(m, k);
    while (m->keys[i] != 0 && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    if (m->keys[i] == 0)
        m->n++;
    m->keys[i] = k;
    m->vals[i] = v;
    return true;
}

static void h_del(struct hmap *m, uintptr_t k)
{
    if (m->cap == 0)
        return;
    size_t i = h_slot(m, k);
    while (m->keys[i] != k) {
        if (m->keys[i] == 0)
            return;
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = 0;
    m->n--;
    for (size_t j = (i + 1) & (m->cap - 1); m->keys[j] != 0; j = (j + 1) & (m->cap - 1)) {
        uintptr_t kk = m->keys[j], vv = m->vals[j];
        m->keys[j] = 0;
        m->n--;
        h_put(m, kk, vv);
    }
}

/* ---- the checker's state (under check_lock) --------------------------------- */

/* An access as a report names it. */
struct desc {
    uint32_t id;             /* 0: free slot */
    int32_t stream_id;       /* -1: the host */
    uint64_t task_no;
    const char *what;
    const char *name;        /* a kernel's: its record is type-stable, the name stays readable */
    uintptr_t lo, hi;
    const void *site;
    bool write;
};

struct ep {
    uint32_t slot, clk, desc;
    bool old;                /* of a cache block's previous lifetime */
};

struct seg {
    uintptr_t lo, hi;
    struct ep w;             /* w.clk 0: no write seen */
    uint32_t nr;
    struct ep r[SEG_READERS];
};

struct shadow {
    uintptr_t base;
    size_t size;
    struct seg *s;
    uint32_t n, cap;
};

struct lastwait {
    uintptr_t ev;            /* event handle; 0: none */
    uint64_t gen;            /* the record it bound to (0: none issued yet) */
    const void *site;
    uint64_t task_no;
};

struct cstream {
    uintptr_t handle;
    int32_t id;
    uint32_t clock;
    uint64_t host_ver;       /* the host clock version joined last */
    struct vc vc;
    bool blind;
    uintptr_t blind_ev;      /* the event whose future record it waits for */
    struct lastwait lw;
};

struct cwait {
    uint32_t slot, clk;
    int32_t stream_id;
    uint64_t task_no;
    const void *site;
};

struct cevent {
    uintptr_t handle;
    bool recorded;
    uint64_t last_gen;
    uint32_t rec_slot, rec_clk;
    int32_t rec_stream_id;
    const void *rec_site;
    struct vc rec_vc;
    uint64_t nrec, ntaken;   /* notifies: records issued, waits bound */
    struct cwait *waits;     /* the newest wait of each stream since the last reset */
    uint32_t nwaits, capwaits;
};

static struct {
    plat_mutex lock;
    _Atomic int configured;  /* 0 no, 1 yes */
    int mode;                /* ACLCPU_CHECK_EXIT or ACLCPU_CHECK_REPORT */
    bool exit_hooked;
    struct cstream **streams; /* by slot; slot 0 is the host (NULL) */
    uint32_t nslots, capslots;
    uint32_t *free_slots;    /* slots of destroyed streams, for new ones */
    uint32_t nfree, capfree;
    struct hmap stream_by_handle, event_by_handle, shadow_by_base, seen_reports, decl_by_kf;
    _Atomic uint32_t ndecl;  /* declared kernels: launches look them up only when some exist */
    struct vc host;
    uint64_t host_ver;
    uint32_t nblind;
    struct desc *ring;
    uint32_t next_desc;
    _Atomic uint64_t reports;
    uint64_t suppressed;
} ck;

static _Thread_local const void *site_now;

static _Thread_local bool in_task_code;

void check_note_site(const void *site) { site_now = site; }

void check_in_task_code(bool in) { in_task_code = in; }

static void check_atexit(void)
{
    uint64_t n = load_relaxed(&ck.reports);
    if (n == 0)
        return;
    fprintf(stderr, "==aclcpu-check== %llu report%s", (unsigned long long)n, n == 1 ? "" : "s");
    if (ck.suppressed > 0)
        fprintf(stderr, " (%llu more not shown, or repeats)", (unsigned long long)ck.suppressed);
    fprintf(stderr, "%s\n", ck.mode == ACLCPU_CHECK_EXIT ? "; exiting with 66 (ACLCPU_CHECK=report keeps the "
                                                           "program's exit code)" : "");
    fflush(NULL);
    if (ck.mode == ACLCPU_CHECK_EXIT)
        _exit(66);
}

static _Atomic int lock_ready; /* 0 never, 1 being set up, 2 ready */

static void lock_init_once(void)
{
    int expect = 0;
    if (load_acquire(&lock_ready) == 2) /* acquire: the mutex's initialisation */
        return;
    if (cas_relaxed(&lock_ready, &expect, 1)) {
        plat_mutex_init(&ck.lock, LOCK_CHECK);
        store_release(&lock_ready, 2); /* release: publishes the mutex */
        return;
    }
    while (load_acquire(&lock_ready) != 2)
        plat_cpu_relax();
}

void check_lock(void) { plat_mutex_lock(&ck.lock); }
void check_unlock(void) { plat_mutex_unlock(&ck.lock); }

aclError check_enable(int mode)
{
    lock_init_once();
    check_lock();
    if (ck.ring == NULL) {
        ck.ring = acl_calloc(DESC_RING, sizeof(*ck.ring));
        if (ck.ring == NULL) {
            check_unlock();
            return acl_fail(ACL_ERROR_BAD_ALLOC, "aclcpuCheckEnable: out of host memory for the checker");
        }
        ck.nslots = 1; /* slot 0: the host */
    }
    ck.mode = mode;
    if (!ck.exit_hooked) {
        ck.exit_hooked = true;
        atexit(check_atexit);
    }
    /* Relaxed: hooks that see the flag take check_lock before touching
     * anything, which orders them after this setup. */
    store_relaxed(&check_enabled, true);
    check_unlock();
    return ACL_SUCCESS;
}

void check_configure(void)
{
    int expect = 0;
    if (load_relaxed(&ck.configured) != 0 || !cas_relaxed(&ck.configured, &expect, 1))
        return;
    if (load_relaxed(&check_enabled))
        return; /* aclcpuCheckEnable came first: the program's choice stands */
    const char *v = config_str(CFG_CHECK);
    if (v == NULL || v[0] == '\0' || strcmp(v, "0") == 0)
        return;
    if (strcmp(v, "report") == 0)
        (void)check_enable(ACLCPU_CHECK_REPORT);
    else if (strcmp(v, "1") == 0)
        (void)check_enable(ACLCPU_CHECK_EXIT);
    else
        LOGW("ACLCPU_CHECK=\"%s\" is not 1, report or 0: the checker stays off", v);
}

uint64_t check_report_count(void) { return load_relaxed(&ck.reports); }

/* ---- descriptions and reports ----------------------------------------------- */

static uint32_t desc_new(int32_t stream_id, uint64_t task_no, const struct check_op *op, const struct check_acc *a)
{
    uint32_t id = ++ck.next_desc;
    if (id == 0)
        id = ++ck.next_desc;
    struct desc *d = &ck.ring[id % DESC_RING];
    d->id = id;
    d->stream_id = stream_id;
    d->task_no = task_no;
    d->what = op->what;
    d->name = op->name != NULL ? op->name : "";
    d->lo = a != NULL ? a->lo : 0;
    d->hi = a != NULL ? a->hi : 0;
    d->write = a != NULL && a->write;
    d->site = op->site;
    return id;
}

static const struct desc *desc_get(uint32_t id)
{
    const struct desc *d = &ck.ring[id % DESC_RING];
    return id != 0 && d->id == id ? d : NULL;
}

static void put_site(const void *site)
{
    const char *obj, *sym;
    uintptr_t off;
    if (site == NULL) {
        fputs("an unknown call site", stderr);
        return;
    }
    if (plat_dl_describe(site, &obj, &sym, &off)) {
        const char *slash = obj != NULL ? strrchr(obj, '/') : NULL;
        fprintf(stderr, "%p (%s+0x%lx in %s)", site, sym != NULL ? sym : "", (unsigned long)off,
                slash != NULL ? slash + 1 : obj != NULL && obj[0] ? obj : "the program");
    } else {
        fprintf(stderr, "%p", site);
    }
}

static void put_desc(const char *label, const struct desc *d)
{
    if (d == NULL) {
        fprintf(stderr, "==aclcpu-check==   %s: an older access (its details are no longer kept)\n", label);
        return;
    }
    fprintf(stderr, "==aclcpu-check==   %s: ", label);
    if (d->stream_id < 0)
        fprintf(stderr, "the host");
    else
        fprintf(stderr, "stream %d task %llu", d->stream_id, (unsigned long long)d->task_no);
    fprintf(stderr, ", %s %s%s%s%s", d->write ? "write by" : "read by", d->what, d->name[0] ? " '" : "", d->name,
            d->name[0] ? "'" : "");
    if (d->hi > d->lo)
        fprintf(stderr, ", bytes [%p, %p) (%zu)", (void *)d->lo, (void *)d->hi, (size_t)(d->hi - d->lo));
    fprintf(stderr, ", issued at ");
    put_site(d->site);
    fputc('\n', stderr);
}

/* Counts a report; false if it repeats one already shown (same class and
 * call sites) or the cap is reached: then nothing is printed. */
static bool report_open(const char *cls, const void *site_a, const void *site_b)
{
    uint64_t key = 1469598103934665603ull;
    for (const char *c = cls; *c; c++)
        key = (key ^ (unsigned char)*c) * 1099511628211ull;
    key = (key ^ (uintptr_t)site_a) * 1099511628211ull;
    key = (key ^ (uintptr_t)site_b) * 1099511628211ull;
    if (key == 0)
        key = 1;
    if (h_find(&ck.seen_reports, (uintptr_t)key) != NULL) {
        ck.suppressed++;
        return false;
    }
    (void)h_put(&ck.seen_reports, (uintptr_t)key, 1);
    uint64_t n = fetch_add_relaxed(&ck.reports, 1) + 1; /* relaxed: a count */
    if (n > REPORTS_SHOWN_MAX) {
        ck.suppressed++;
        return false;
    }
    fprintf(stderr, "==aclcpu-check== %s\n", cls);
    return true;
}

static void report_close(const char *edge, const char *fix)
{
    fprintf(stderr, "==aclcpu-check==   missing edge: %s\n", edge);
    fprintf(stderr, "==aclcpu-check==   fix: %s\n", fix);
    fflush(stderr);
}

/* ---- streams and events ----------------------------------------------------- */

static struct cstream *stream_of(uintptr_t handle, int32_t id, uint32_t *slot)
{
    uintptr_t *v = h_find(&ck.stream_by_handle, handle);
    if (v != NULL) {
        *slot = (uint32_t)*v;
        return ck.streams[*slot];
    }
    if (ck.nfree > 0) {
        /* A destroyed stream's slot: its clock goes on from where it was,
         * so its old epochs (all covered by the host since the destroy)
         * are never taken for the new stream's. */
        uint32_t s = ck.free_slots[--ck.nfree];
        struct cstream *cs = ck.streams[s];
        if (!h_put(&ck.stream_by_handle, handle, s)) {
            ck.nfree++;
            return NULL;
        }
        uint32_t clock = cs->clock;
        struct vc keep = cs->vc;
        keep.n = 0;
        *cs = (struct cstream){.handle = handle, .id = id, .clock = clock, .vc = keep};
        vc_set(&cs->vc, s, clock);
        *slot = s;
        return cs;
    }
    if (ck.nslots >= ck.capslots) {
        uint32_t cap = ck.capslots ? ck.capslots * 2 : 16;
        struct cstream **a = acl_realloc(ck.streams, (size_t)cap * sizeof(*a));
        if (a == NULL)
            return NULL;
        ck.streams = a;
        ck.capslots = cap;
    }
    struct cstream *cs = acl_calloc(1, sizeof(*cs));
    if (cs == NULL || !h_put(&ck.stream_by_handle, handle, ck.nslots)) {
        acl_free(cs);
        return NULL;
    }
    cs->handle = handle;
    cs->id = id;
    *slot = ck.nslots;
    ck.streams[ck.nslots++] = cs;
    return cs;
}

static struct cevent *event_of(uintptr_t handle, bool create)
{
    uintptr_t *v = h_find(&ck.event_by_handle, handle);
    if (v != NULL)
        return (struct cevent *)*v;
    if (!create)
        return NULL;
    struct cevent *ce = acl_calloc(1, sizeof(*ce));
    if (ce == NULL || !h_put(&ck.event_by_handle, handle, (uintptr_t)ce)) {
        acl_free(ce);
        return NULL;
    }
    ce->handle = handle;
    return ce;
}

void check_forget_stream(const void *stream_handle)
{
    check_lock();
    uintptr_t *v = h_find(&ck.stream_by_handle, (uintptr_t)stream_handle);
    if (v != NULL) {
        uint32_t slot = (uint32_t)*v;
        struct cstream *cs = ck.streams[slot];
        if (ck.nfree == ck.capfree) {
            uint32_t cap = ck.capfree ? ck.capfree * 2 : 16;
            uint32_t *a = acl_realloc(ck.free_slots, (size_t)cap * sizeof(*a));
            if (a == NULL) {
                check_unlock();
                return; /* the slot stays taken: only memory is lost */
            }
            ck.free_slots = a;
            ck.capfree = cap;
        }
        h_del(&ck.stream_by_handle, (uintptr_t)stream_handle);
        if (cs->blind)
            ck.nblind--;
        cs->blind = false;
        ck.free_slots[ck.nfree++] = slot;
    }
    check_unlock();
}

void check_forget_event(const void *event_handle)
{
    check_lock();
    struct cevent *ce = event_of((uintptr_t)event_handle, false);
    if (ce != NULL) {
        h_del(&ck.event_by_handle, (uintptr_t)event_handle);
        vc_free(&ce->rec_vc);
        acl_free(ce->waits);
        acl_free(ce);
    }
    check_unlock();
}

/* ep is covered by v: ordered before whatever v's owner does next. */
static bool covered(const struct ep *e, uint32_t slot, const struct vc *v)
{
    return e->clk == 0 || e->slot == slot || e->clk <= vc_get(v, e->slot);
}

/* ---- shadow memory ------------------------------------------------------------ */

static struct shadow *shadow_of(uintptr_t base, size_t size, bool create)
{
    uintptr_t *v = h_find(&ck.shadow_by_base, base);
    struct shadow *sh = v != NULL ? (struct shadow *)*v : NULL;
    if (sh != NULL && sh->size != size && create) {
        sh->n = 0; /* the same start, another allocation: what we knew is stale */
        sh->size = size;
    }
    if (sh != NULL || !create)
        return sh;
    sh = acl_calloc(1, sizeof(*sh));
    if (sh == NULL || !h_put(&ck.shadow_by_base, base, (uintptr_t)sh)) {
        acl_free(sh);
        return NULL;
    }
    sh->base = base;
    sh->size = size;
    return sh;
}

static void shadow_drop(struct shadow *sh)
{
    h_del(&ck.shadow_by_base, sh->base);
    acl_free(sh->s);
    acl_free(sh);
}

static bool seg_insert(struct shadow *sh, uint32_t at, const struct seg *s)
{
    if (sh->n == sh->cap) {
        uint32_t cap = sh->cap ? sh->cap * 2 : 4;
        struct seg *a = acl_realloc(sh->s, (size_t)cap * sizeof(*a));
        if (a == NULL)
            return false;
        sh->s = a;
        sh->cap = cap;
    }
    memmove(sh->s + at + 1, sh->s + at, (size_t)(sh->n - at) * sizeof(*s));
    sh->s[at] = *s;
    sh->n++;
    return true;
}

/* Makes [lo, hi) exactly a run of segments; returns the first one's index
 * and sets *end one past the last. */
static bool seg_cover(struct shadow *sh, uintptr_t lo, uintptr_t hi, uint32_t *first, uint32_t *end)
{
    uint32_t i = 0;
    uintptr_t at = lo;
    while (i < sh->n && sh->s[i].hi <= lo)
        i++;
    *first = i;
    while (at < hi) {
        if (i == sh->n || sh->s[i].lo >= hi) { /* a gap up to hi */
            if (!seg_insert(sh, i, &(struct seg){.lo = at, .hi = hi}))
                return false;
            at = hi;
            i++;
            break;
        }
        struct seg *s = &sh->s[i];
        if (s->lo > at) { /* a gap before s */
            if (!seg_insert(sh, i, &(struct seg){.lo = at, .hi = s->lo}))
                return false;
            at = sh->s[i].hi;
            i++;
            continue;
        }
        if (s->lo < at) { /* s starts before: split it at `at` */
            struct seg right = *s;
            right.lo = at;
            sh->s[i].hi = at;
            if (!seg_insert(sh, i + 1, &right))
                return false;
            i++;
            continue;
        }
        if (s->hi > hi) { /* s runs past hi: split */
            struct seg right = *s;
            right.lo = hi;
            sh->s[i].hi = hi;
            if (!seg_insert(sh, i + 1, &right))
                return false;
        }
        at = sh->s[i].hi;
        i++;
    }
    *end = i;
    return true;
}

static bool ep_same(const struct ep *a, const struct ep *b)
{
    return a->slot == b->slot && a->clk == b->clk && a->desc == b->desc && a->old == b->old;
}

static bool seg_same_state(const struct seg *a, const struct seg *b)
{
    if (!ep_same(&a->w, &b->w) || a->nr != b->nr)
        return false;
    for (uint32_t i = 0; i < a->nr; i++)
        if (!ep_same(&a->r[i], &b->r[i]))
            return false;
    return true;
}

static void seg_merge(struct shadow *sh, uint32_t from, uint32_t to)
{
    uint32_t lo = from > 0 ? from - 1 : 0, hi = to < sh->n ? to : sh->n - 1;
    for (uint32_t i = lo; i < hi && i + 1 < sh->n;) {
        if (sh->s[i].hi == sh->s[i + 1].lo && seg_same_state(&sh->s[i], &sh->s[i + 1])) {
            sh->s[i].hi = sh->s[i + 1].hi;
            memmove(sh->s + i + 1, sh->s + i + 2, (size_t)(sh->n - i - 2) * sizeof(*sh->s));
            sh->n--;
            hi--;
        } else {
            i++;
        }
    }
}

/* The stream slot's latest wait that, had it bound to a later record of
 * its event, would have ordered `other` before it: a wait issued before the
 * record it evidently meant. */
static const struct lastwait *stale_wait(uint32_t slot, const struct ep *other)
{
    if (slot == 0 || slot >= ck.nslots)
        return NULL;
    const struct lastwait *lw = &ck.streams[slot]->lw;
    if (lw->ev == 0)
        return NULL;
    const struct cevent *ce = event_of(lw->ev, false);
    if (ce == NULL || !ce->recorded || ce->last_gen <= lw->gen)
        return NULL;
    return ce->rec_slot == other->slot && ce->rec_clk >= other->clk ? lw : NULL;
}

static void report_conflict(const char *kind, const struct ep *earlier, uint32_t slot, uint32_t cur_desc)
{
    const struct desc *a = desc_get(earlier->desc), *b = desc_get(cur_desc);
    const struct lastwait *lw = stale_wait(slot, earlier);
    char edge[256], fix[512];
    int sa = a != NULL ? a->stream_id : -1, sb = b != NULL ? b->stream_id : -1;
    const char *cls;

    if (earlier->old) {
        cls = "caching-allocator reuse without record_stream";
    } else if (lw != NULL) {
        cls = "wait issued before the record it evidently meant";
    } else if (slot == 0) {
        cls = strcmp(kind, "write-read") == 0 ? "host reads device memory that a pending task writes"
                                              : "host access to device memory that a pending task uses";
    } else {
        cls = strcmp(kind, "write-write") == 0 ? "unsynchronised cross-stream write-write race"
              : strcmp(kind, "write-read") == 0 ? "unsynchronised cross-stream write-read race"
                                                : "unsynchronised cross-stream read-write race";
    }
    if (!report_open(cls, a != NULL ? a->site : NULL, b != NULL ? b->site : NULL))
        return;
    put_desc("earlier access", a);
    put_desc("this access", b);
    if (lw != NULL) {
        const char *why = lw->gen == 0 ? "had never been recorded when the wait was issued (the wait did nothing)"
                                       : "was recorded again after the wait was issued (the wait took the older "
                                         "record: a stale snapshot)";
        fprintf(stderr, "==aclcpu-check==   the wait: stream %d task %llu, issued at ", sb,
                (unsigned long long)lw->task_no);
        put_site(lw->site);
        fprintf(stderr, "; its event %s\n", why);
    }
    if (slot == 0)
        snprintf(edge, sizeof(edge), "nothing orders stream %d's task before the host's access", sa);
    else
        snprintf(edge, sizeof(edge), "nothing orders %s%d's access before stream %d's", sa < 0 ? "host/stream " : "stream ",
                 sa, sb);
    if (earlier->old)
        snprintf(fix, sizeof(fix),
                 "the block's previous user, stream %d, was not recorded on the block (record_stream) before it "
                 "was freed and handed out again: record the block's use by stream %d, or synchronise",
                 sa, sa);
    else if (lw != NULL)
        snprintf(fix, sizeof(fix), "issue the wait on stream %d after the record on stream %d that it means (record "
                 "an event on s1 and wait on it in s2, in that order on the host)", sb, sa);
    else if (slot == 0)
        snprintf(fix, sizeof(fix), "synchronise before reading: aclrtSynchronizeStream(stream %d), or record an event "
                 "after the task and aclrtSynchronizeEvent before the host touches the memory", sa);
    else
        snprintf(fix, sizeof(fix), "record an event on stream %d after its access and wait on it in stream %d before "
                 "this one (aclrtRecordEvent + aclrtStreamWaitEvent)", sa, sb);
    report_close(edge, fix);
}

/* One access by slot (whose clock is v) with epoch e to acc; reports the
 * first conflict it finds, then updates the shadow. */
static void shadow_access(const struct check_acc *acc, uint32_t slot, const struct vc *v, struct ep e)
{
    struct shadow *sh = shadow_of(acc->base, acc->size, true);
    uint32_t first, end;
    bool told = false;
    if (sh == NULL || acc->hi <= acc->lo || !seg_cover(sh, acc->lo, acc->hi, &first, &end))
        return;
    for (uint32_t i = first; i < end; i++) {
        struct seg *s = &sh->s[i];
        if (!told && !covered(&s->w, slot, v)) {
            report_conflict(acc->write ? "write-write" : "write-read", &s->w, slot, e.desc);
            told = true;
        }
        if (acc->write) {
            for (uint32_t r = 0; r < s->nr && !told; r++) {
                if (!covered(&s->r[r], slot, v)) {
                    report_conflict("read-write", &s->r[r], slot, e.desc);
                    told = true;
                }
            }
            s->w = e;
            s->nr = 0;
        } else {
            uint32_t r = 0;
            while (r < s->nr && s->r[r].slot != slot)
                r++;
            if (r == s->nr) {
                if (s->nr < SEG_READERS) {
                    s->nr++;
                } else { /* full: forget the oldest reader (a race may be missed, never invented) */
                    memmove(s->r, s->r + 1, (SEG_READERS - 1) * sizeof(*s->r));
                    r = SEG_READERS - 1;
                }
            }
            s->r[r] = e;
        }
    }
    seg_merge(sh, first, end);
}

/* ---- submissions ---------------------------------------------------------------- */

static void wait_note(struct cevent *ce, uint32_t slot, uint32_t clk, int32_t id, uint64_t task_no, const void *site)
{
    uint32_t i = 0;
    while (i < ce->nwaits && ce->waits[i].slot != slot)
        i++;
    if (i == ce->nwaits) {
        if (ce->nwaits == ce->capwaits) {
            uint32_t cap = ce->capwaits ? ce->capwaits * 2 : 4;
            struct cwait *a = acl_realloc(ce->waits, (size_t)cap * sizeof(*a));
            if (a == NULL)
                return;
            ce->waits = a;
            ce->capwaits = cap;
        }
        ce->nwaits++;
    }
    ce->waits[i] = (struct cwait){slot, clk, id, task_no, site};
}

static void unblind_on(const struct cevent *ce)
{
    for (uint32_t i = 1; i < ck.nslots && ck.nblind > 0; i++) {
        struct cstream *cs = ck.streams[i];
        if (cs->blind && cs->blind_ev == ce->handle) {
            vc_join(&cs->vc, &ce->rec_vc);
            cs->blind = false;
            ck.nblind--;
        }
    }
}

static void go_blind(struct cstream *cs, uintptr_t ev)
{
    if (!cs->blind)
        ck.nblind++;
    cs->blind = true;
    cs->blind_ev = ev;
}

static void reset_check(struct cevent *ce, uint32_t slot, const struct cstream *cs, uint64_t task_no,
                        const void *site)
{
    for (uint32_t i = 0; i < ce->nwaits; i++) {
        const struct cwait *w = &ce->waits[i];
        if (w->slot == slot || w->clk <= vc_get(&cs->vc, w->slot))
            continue;
        if (!report_open("reset of an event that a stream may still wait on", w->site, site))
            break;
        fprintf(stderr, "==aclcpu-check==   the wait: stream %d task %llu, issued at ", w->stream_id,
                (unsigned long long)w->task_no);
        put_site(w->site);
        fprintf(stderr, "\n==aclcpu-check==   the reset: stream %d task %llu, issued at ", cs->id,
                (unsigned long long)task_no);
        put_site(site);
        fputc('\n', stderr);
        report_close("nothing orders the wait before the reset: the reset may clear the record before the wait "
                     "sees it, and the wait then waits for a record that never comes",
                     "reset the event only after every wait on it has passed: record an event on the waiting "
                     "stream after its wait and wait on it in the resetting stream, or synchronise");
        break;
    }
    ce->nwaits = 0;
}

/* A memory pool's free (further down, with the pool hooks). */
static void pool_free_range(struct check_op *op, const struct task *t);
static void pool_free_forget(const struct check_op *op, uint32_t slot, const struct vc *v);

/* A model's runs follow one another, whatever streams issue them (a run
 * starts once the one before it ended): a run is ordered after the
 * model's previous run, kept as a record is (keyed by the model's address,
 * its low bit set so that no event handle is the same key). */
static void model_run_order(struct cstream *cs, const void *model)
{
    struct cevent *mc = event_of((uintptr_t)model | 1u, true);
    if (mc == NULL)
        return;
    if (mc->recorded)
        vc_join(&cs->vc, &mc->rec_vc);
    vc_copy(&mc->rec_vc, &cs->vc);
    mc->recorded = true;
}

void check_submitted(struct stream *s, int32_t stream_id, const void *stream_handle, const struct check_op *op,
                     const struct check_note *note, uint8_t kind)
{
    (void)s;
    uint32_t slot;
    if (!note->live)
        return;
    struct cstream *cs = stream_of((uintptr_t)stream_handle, stream_id, &slot);
    if (cs == NULL)
        return;
    cs->id = stream_id;
    if (cs->host_ver != ck.host_ver) {
        vc_join(&cs->vc, &ck.host);
        cs->host_ver = ck.host_ver;
    }
    if (!note->queued) { /* an Ex event's wait before any record: it does nothing */
        if (kind == TASK_EVENT_WAIT)
            cs->lw = (struct lastwait){(uintptr_t)op->ev, 0, op->site, note->task_no};
        return;
    }
    cs->clock++;
    vc_set(&cs->vc, slot, cs->clock);
    struct ep e = {slot, cs->clock, 0, false};
    struct cevent *ce = op->ev != NULL ? event_of((uintptr_t)op->ev, true) : NULL;

    switch (kind) {
    case TASK_EVENT_RECORD:
    case TASK_NOTIFY_RECORD:
        if (ce == NULL)
            return;
        ce->recorded = true;
        ce->last_gen = note->gen;
        ce->rec_slot = slot;
        ce->rec_clk = cs->clock;
        ce->rec_stream_id = stream_id;
        ce->rec_site = op->site;
        ce->nrec++;
        vc_copy(&ce->rec_vc, &cs->vc);
        if (ck.nblind > 0)
            unblind_on(ce);
        return;
    case TASK_EVENT_WAIT:
        if (ce == NULL)
            return;
        if (ce->recorded)
            vc_join(&cs->vc, &ce->rec_vc); /* the newest record: at least what the snapshot covers */
        else
            go_blind(cs, ce->handle); /* recorded before the checker saw it, or a flag set later */
        wait_note(ce, slot, cs->clock, stream_id, note->task_no, op->site);
        cs->lw = (struct lastwait){ce->handle, ce->recorded ? note->gen : 0, op->site, note->task_no};
        return;
    case TASK_NOTIFY_WAIT:
        if (ce == NULL)
            return;
        if (ce->nrec > ce->ntaken)
            vc_join(&cs->vc, &ce->rec_vc);
        else
            go_blind(cs, ce->handle); /* the record it takes is not issued yet */
        ce->ntaken++;
        wait_note(ce, slot, cs->clock, stream_id, note->task_no, op->site);
        return;
    case TASK_EVENT_RESET:
        if (ce != NULL)
            reset_check(ce, slot, cs, note->task_no, op->site);
        return;
    default:
        break;
    }
    if (op->model != NULL)
        model_run_order(cs, op->model);
    if (op->pool_hi != 0)
        pool_free_forget(op, slot, &cs->vc);
    if (cs->blind)
        return;
    for (uint32_t i = 0; i < op->nacc; i++) {
        e.desc = desc_new(stream_id, note->task_no, op, &op->acc[i]);
        shadow_access(&op->acc[i], slot, &cs->vc, e);
    }
    for (uint32_t i = 0; i < op->nmore; i++) {
        e.desc = desc_new(stream_id, note->task_no, op, &op->more[i]);
        shadow_access(&op->more[i], slot, &cs->vc, e);
    }
}

/* ---- what a task touches ---------------------------------------------------------- */

struct decl_arg {
    uint32_t arg;
    uint32_t access;         /* aclcpuCheckAccess */
    uint64_t size;
    int32_t size_arg;
};

struct decl {
    char name[128];
    uint32_t n;
    struct decl_arg a[CHECK_ACC_MAX];
};

/* The device memory ranges this thread looked up last: a launch names the
 * same few buffers again and again, and the table's lock and search cost
 * more than the rest of a checked launch. Valid while devmem's generation
 * stays (any allocation, free or mapping moves it). */
#define LOOKUPS_KEPT 4
static _Thread_local struct {
    uint64_t gen;
    uint32_t n, next;
    struct mem_range r[LOOKUPS_KEPT];
} looked;

static bool lookup(const void *p, struct mem_range *out)
{
    uint64_t gen = devmem_generation();
    uintptr_t a = (uintptr_t)p;
    if (looked.gen == gen) {
        for (uint32_t i = 0; i < looked.n; i++) {
            if (a >= (uintptr_t)looked.r[i].base && a - (uintptr_t)looked.r[i].base < looked.r[i].size) {
                *out = looked.r[i];
                return true;
            }
        }
    } else {
        looked.gen = gen;
        looked.n = looked.next = 0;
    }
    if (!devmem_lookup(p, out))
        return false;
    looked.r[looked.next] = *out;
    looked.next = (looked.next + 1) % LOOKUPS_KEPT;
    looked.n += looked.n < LOOKUPS_KEPT;
    return true;
}

/* The end of [lo, lo + n) cut at its allocation's end r: a range the
 * program passes may run past its block (the library reports that
 * elsewhere); the checker's shadow covers only the block. */
static uintptr_t end_within(uintptr_t lo, size_t n, const struct mem_range *r)
{
    uintptr_t stop = (uintptr_t)r->base + r->size;
    return n > stop - lo ? stop : lo + n;
}

static void add_range(struct check_op *op, const void *p, size_t n, bool write)
{
    struct mem_range r;
    if (op->nacc >= CHECK_ACC_MAX || p == NULL || n == 0 || !lookup(p, &r))
        return;
    uintptr_t lo = (uintptr_t)p;
    op->acc[op->nacc++] = (struct check_acc){(uintptr_t)r.base, r.size, lo, end_within(lo, n, &r), write};
}

static void add_whole(struct check_op *op, uintptr_t v)
{
    struct mem_range r;
    if (op->nacc >= CHECK_ACC_MAX || v < 4096 || !lookup((const void *)v, &r))
        return;
    for (uint32_t i = 0; i < op->nacc; i++)
        if (op->acc[i].base == (uintptr_t)r.base)
            return; /* the same allocation through another word */
    op->acc[op->nacc++] =
        (struct check_acc){(uintptr_t)r.base, r.size, (uintptr_t)r.base, (uintptr_t)r.base + r.size, true};
}

static uint64_t arg_word(const unsigned char *args, size_t size, uint32_t i)
{
    uint64_t w = 0;
    if ((size_t)i * 8 + 8 <= size)
        memcpy(&w, args + (size_t)i * 8, sizeof(w));
    return w;
}

static void kernel_accesses(struct check_op *op, const struct task *t)
{
    const unsigned char *args = task_kernel_args(t);
    size_t size = t->u.kernel.args_size;
    struct decl d;
    bool declared = false;
    const struct kfunc *kf = t->u.kernel.kf;

    if (kf != NULL && load_relaxed(&ck.ndecl) > 0) { /* relaxed: a hint; the table is read under check_lock */
        check_lock();
        uintptr_t *v = h_find(&ck.decl_by_kf, (uintptr_t)kf);
        if (v != NULL && strcmp(((struct decl *)*v)->name, kf->name) == 0) {
            d = *(struct decl *)*v;
            declared = true;
        }
        check_unlock();
    }
    if (declared) {
        for (uint32_t i = 0; i < d.n; i++) {
            uint64_t p = arg_word(args, size, d.a[i].arg);
            uint64_t count = d.a[i].size_arg >= 0 ? arg_word(args, size, (uint32_t)d.a[i].size_arg) : 1;
            uint64_t bytes = count != 0 && d.a[i].size > UINT64_MAX / count ? UINT64_MAX : count * d.a[i].size;
            if (d.a[i].access & ACLCPU_CHECK_READ)
                add_range(op, (const void *)(uintptr_t)p, (size_t)bytes, false);
            if (d.a[i].access & ACLCPU_CHECK_WRITE)
                add_range(op, (const void *)(uintptr_t)p, (size_t)bytes, true);
        }
        return;
    }
    for (uint32_t i = 0; i < KERNEL_WORDS_MAX && (size_t)i * 8 + 8 <= size; i++)
        add_whole(op, (uintptr_t)arg_word(args, size, i));
}

/* The memory a data task touches (kernels, copies, memsets, reduce),
 * added to op; op->what says what the task is. False for other tasks. */
static bool data_accesses(struct check_op *op, const struct task *t)
{
    switch ((enum task_kind)t->kind) {
    case TASK_KERNEL:
        op->what = "kernel";
        op->name = t->u.kernel.kf != NULL ? t->u.kernel.kf->name : NULL;
        kernel_accesses(op, t);
        break;
    case TASK_COPY:
        add_range(op, t->u.copy.src, t->u.copy.count, false);
        add_range(op, t->u.copy.dst, t->u.copy.count, true);
        break;
    case TASK_SET:
        add_range(op, t->u.set.dst, t->u.set.count, true);
        break;
    case TASK_SET32:
        add_range(op, t->u.set32.dst, t->u.set32.n * 4, true);
        break;
    case TASK_COPY2D:
        if (t->u.copy2d.height > 0) {
            add_range(op, t->u.copy2d.src, t->u.copy2d.spitch * (t->u.copy2d.height - 1) + t->u.copy2d.width, false);
            add_range(op, t->u.copy2d.dst, t->u.copy2d.dpitch * (t->u.copy2d.height - 1) + t->u.copy2d.width, true);
        }
        break;
    case TASK_REDUCE:
        add_range(op, t->u.reduce.src, t->u.reduce.n * t->u.reduce.esize, false);
        add_range(op, t->u.reduce.dst, t->u.reduce.n * t->u.reduce.esize, false);
        add_range(op, t->u.reduce.dst, t->u.reduce.n * t->u.reduce.esize, true);
        break;
    default:
        return false;
    }
    return true;
}

/* Most accesses a model run's list may hold: past it, the run's accesses
 * are not checked (a false report is worse than a missed one). */
#define MODEL_ACC_MAX 65536u

/* Appends op's own accesses to run's list; false when it is full. */
static bool append_accesses(struct check_op *run, const struct check_op *op, uint32_t *cap)
{
    if (run->nmore + op->nacc > MODEL_ACC_MAX)
        return false;
    if (run->nmore + op->nacc > *cap) {
        uint32_t n = *cap != 0 ? *cap : 64;
        while (n < run->nmore + op->nacc)
            n *= 2;
        struct check_acc *grown = acl_realloc(run->more, (size_t)n * sizeof(*grown));
        if (grown == NULL)
            return false;
        run->more = grown;
        *cap = n;
    }
    memcpy(run->more + run->nmore, op->acc, op->nacc * sizeof(*op->acc));
    run->nmore += op->nacc;
    return true;
}

/* A run of model m: everything its lanes' copies, memsets and kernels
 * touch, as accesses of the run (ordered in its stream as one unit). The
 * lanes are read under capture_lock (their tasks change only under it). */
static void model_accesses(struct check_op *op, struct model *m)
{
    uint32_t cap = 0;
    bool ok = true;
    capture_enter();
    for (uint32_t i = 0; ok && i < m->nlanes; i++) {
        for (const struct task *x = task_next(&m->lanes[i]->head); ok && x != NULL; x = task_next(x)) {
            struct check_op one = {.nacc = 0};
            if (data_accesses(&one, x))
                ok = append_accesses(op, &one, &cap);
        }
    }
    capture_leave();
    if (!ok) {
        check_op_done(op);
        op->accesses_unknown = true;
    }
}

void check_op_done(struct check_op *op)
{
    acl_free(op->more);
    op->more = NULL;
    op->nmore = 0;
}

void check_op_of(struct check_op *op, const struct task *t, const char *fn, bool capture_held)
{
    op->what = fn;
    op->name = NULL;
    op->site = site_now;
    site_now = NULL; /* taken: a later call that notes none shows no stale site */
    op->ev = NULL;
    op->model = NULL;
    op->nacc = 0;
    op->accesses_unknown = false;
    op->more = NULL;
    op->nmore = 0;
    op->pool_base = op->pool_lo = op->pool_hi = 0;
    op->pool_span = 0;
    if (data_accesses(op, t))
        return;
    switch ((enum task_kind)t->kind) {
    case TASK_EVENT_RECORD:
    case TASK_EVENT_WAIT:
    case TASK_EVENT_RESET:
    case TASK_NOTIFY_RECORD:
    case TASK_NOTIFY_WAIT:
        op->ev = t->u.event.ev != NULL ? obj_handle(&t->u.event.ev->hdr) : NULL;
        break;
    case TASK_POOL_FREE:
        pool_free_range(op, t);
        break;
    case TASK_MODEL_RUN:
        op->what = "model run";
        op->model = t->u.model.m;
        /* A run with external data sets patches its tasks' arguments as it
         * starts, and a submission under capture_lock cannot take it: not
         * seen (no report rather than a wrong one). */
        if (capture_held || t->u.model.ext != NULL)
            op->accesses_unknown = true;
        else
            model_accesses(op, t->u.model.m);
        break;
    default:
        break;
    }
}

/* ---- host syncs and host accesses ------------------------------------------------- */

struct check_snap {
    struct vc v;
};

static struct check_snap *snap_of(const struct vc *v)
{
    struct check_snap *sn = acl_calloc(1, sizeof(*sn));
    if (sn != NULL)
        vc_copy(&sn->v, v);
    return sn;
}

struct check_snap *check_sync_stream_begin(const void *stream_handle)
{
    struct check_snap *sn = NULL;
    check_lock();
    uintptr_t *v = h_find(&ck.stream_by_handle, (uintptr_t)stream_handle);
    if (v != NULL)
        sn = snap_of(&ck.streams[*v]->vc);
    check_unlock();
    return sn;
}

struct check_snap *check_sync_event_begin(const void *event_handle)
{
    struct check_snap *sn = NULL;
    check_lock();
    struct cevent *ce = event_of((uintptr_t)event_handle, false);
    if (ce != NULL && ce->recorded)
        sn = snap_of(&ce->rec_vc);
    check_unlock();
    return sn;
}

void check_sync_end(struct check_snap *snap, bool done)
{
    if (snap == NULL)
        return;
    if (done) {
        check_lock();
        vc_join(&ck.host, &snap->v);
        ck.host_ver++;
        check_unlock();
    }
    vc_free(&snap->v);
    acl_free(snap);
}

void check_host_access(const char *fn, const void *p, size_t n, bool write)
{
    struct check_op op = {.what = fn, .site = site_now};
    if (in_task_code)
        return;
    add_range(&op, p, n, write); /* the site stays: aclrtMemcpy notes both of its sides with it */
    if (op.nacc == 0)
        return;
    check_lock();
    uint32_t clk = vc_get(&ck.host, 0) + 1;
    vc_set(&ck.host, 0, clk);
    ck.host_ver++;
    struct ep e = {0, clk, desc_new(-1, 0, &op, &op.acc[0]), false};
    shadow_access(&op.acc[0], 0, &ck.host, e);
    check_unlock();
}

void check_free(const char *fn, const void *p)
{
    struct mem_range r;
    if (p == NULL || !devmem_lookup(p, &r) || r.base != p)
        return;
    check_lock();
    struct shadow *sh = shadow_of((uintptr_t)p, r.size, false);
    if (sh != NULL && in_task_code) { /* freed in stream order: forget it, report nothing */
        shadow_drop(sh);
        sh = NULL;
    }
    if (sh == NULL) {
        check_unlock();
        return;
    }
    const struct ep *pending = NULL;
    for (uint32_t i = 0; i < sh->n && pending == NULL; i++) {
        if (!covered(&sh->s[i].w, 0, &ck.host))
            pending = &sh->s[i].w;
        for (uint32_t k = 0; k < sh->s[i].nr && pending == NULL; k++)
            if (!covered(&sh->s[i].r[k], 0, &ck.host))
                pending = &sh->s[i].r[k];
    }
    if (pending != NULL && report_open("free of memory that a pending task uses", desc_get(pending->desc) != NULL
                                                                                     ? desc_get(pending->desc)->site
                                                                                     : NULL,
                                       site_now)) {
        put_desc("pending access", desc_get(pending->desc));
        fprintf(stderr, "==aclcpu-check==   the free: %s(%p), %zu bytes, called at ", fn, p, r.size);
        put_site(site_now);
        fputc('\n', stderr);
        report_close("nothing orders the task before the free (no sync of its stream, or of an event recorded "
                     "after it)",
                     "synchronise before freeing: aclrtSynchronizeStream on the task's stream (or an event "
                     "recorded after it) before aclrtFree");
    }
    shadow_drop(sh);
    check_unlock();
}

/* ---- the caching allocator's blocks ------------------------------------------------- */

void check_cache_block(void *base, size_t size, const void *stream_handle)
{
    struct mem_range r;
    (void)stream_handle;
    if (!check_on() || base == NULL || size == 0 || !devmem_lookup(base, &r))
        return;
    check_lock();
    struct shadow *sh = shadow_of((uintptr_t)r.base, r.size, false);
    uint32_t first, end;
    uintptr_t lo = (uintptr_t)base, hi = end_within(lo, size, &r);
    if (sh != NULL && seg_cover(sh, lo, hi, &first, &end)) {
        for (uint32_t i = first; i < end; i++) {
            sh->s[i].w.old = sh->s[i].w.clk != 0;
            for (uint32_t k = 0; k < sh->s[i].nr; k++)
                sh->s[i].r[k].old = true;
        }
        seg_merge(sh, first, end);
    }
    check_unlock();
}

static bool slot_in(uint32_t slot, const uint32_t *slots, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (slots[i] == slot)
            return true;
    return false;
}

/* Forgets, in [lo, hi) of the allocation at base (span bytes), every
 * epoch `gone` picks: work ordered before a block's reuse by the
 * allocator that hands it out (a cache's fence, a pool's free task). */
static void shadow_forget(uintptr_t base, size_t span, uintptr_t lo, uintptr_t hi,
                          bool (*gone)(const struct ep *e, const void *ctx), const void *ctx)
{
    struct shadow *sh = shadow_of(base, span, false);
    uint32_t first, end;
    if (sh == NULL || !seg_cover(sh, lo, hi, &first, &end))
        return;
    for (uint32_t i = first; i < end; i++) {
        struct seg *g = &sh->s[i];
        if (g->w.clk != 0 && gone(&g->w, ctx))
            g->w = (struct ep){0};
        for (uint32_t k = 0; k < g->nr;) {
            if (gone(&g->r[k], ctx))
                g->r[k] = g->r[--g->nr];
            else
                k++;
        }
    }
    seg_merge(sh, first, end);
}

struct slot_set {
    const uint32_t *slots;
    size_t n;
};

/* An epoch of one of the recorded streams' slots. */
static bool of_recorded(const struct ep *e, const void *ctx)
{
    const struct slot_set *set = ctx;
    return slot_in(e->slot, set->slots, set->n);
}

void check_cache_release(void *base, size_t size, void *const *recorded, size_t n)
{
    struct mem_range r;
    uint32_t slots[16];
    size_t ns = 0;
    if (!check_on() || base == NULL || size == 0 || n == 0 || !devmem_lookup(base, &r))
        return;
    check_lock();
    for (size_t i = 0; i < n && ns < ACLCPU_ARRAY_SIZE(slots); i++) {
        uintptr_t *v = h_find(&ck.stream_by_handle, (uintptr_t)recorded[i]);
        if (v != NULL)
            slots[ns++] = (uint32_t)*v;
    }
    uintptr_t lo = (uintptr_t)base, hi = end_within(lo, size, &r);
    struct slot_set set = {slots, ns};
    if (ns != 0)
        shadow_forget((uintptr_t)r.base, r.size, lo, hi, of_recorded, &set);
    check_unlock();
}

/* ---- memory pools' stream-ordered frees ---------------------------------------------- */

struct clock_of {
    uint32_t slot;
    const struct vc *v;
};

/* An epoch the free's stream clock covers: ordered before the free. */
static bool before_free(const struct ep *e, const void *ctx)
{
    const struct clock_of *c = ctx;
    return covered(e, c->slot, c->v);
}

/* The pool free this thread is about to submit (check_pool_free_next). */
static _Thread_local struct {
    void *ptr;
    size_t size;
} pool_free_next;

void check_pool_free_next(void *ptr, size_t size)
{
    pool_free_next.ptr = ptr;
    pool_free_next.size = size;
}

/* check_op_of's part for a pool's free task: the block's range, looked up
 * before check_lock is taken. */
static void pool_free_range(struct check_op *op, const struct task *t)
{
    struct mem_range r;
    void *p = pool_free_next.ptr;
    size_t n = pool_free_next.size;
    pool_free_next.ptr = NULL;
    if (p == NULL || p != t->u.pool_free.ptr || n == 0 || !devmem_lookup(p, &r))
        return;
    op->pool_base = (uintptr_t)r.base;
    op->pool_span = r.size;
    op->pool_lo = (uintptr_t)p;
    op->pool_hi = end_within(op->pool_lo, n, &r);
}

/* Called with check_lock held, as the free task is submitted on the stream
 * of slot (clock v). */
static void pool_free_forget(const struct check_op *op, uint32_t slot, const struct vc *v)
{
    struct clock_of c = {slot, v};
    shadow_forget(op->pool_base, op->pool_span, op->pool_lo, op->pool_hi, before_free, &c);
}

/* ---- declared kernels ---------------------------------------------------------------- */

aclError check_declare(const char *fn, const struct kfunc *kf, uint32_t arg, uint32_t access, uint64_t size,
                       int32_t size_arg)
{
    lock_init_once();
    check_lock();
    uintptr_t *v = h_find(&ck.decl_by_kf, (uintptr_t)kf);
    struct decl *d = v != NULL ? (struct decl *)*v : NULL;
    if (d != NULL && strcmp(d->name, kf->name) != 0)
        d->n = 0; /* the record was reused for another kernel */
    if (d == NULL) {
        d = acl_calloc(1, sizeof(*d));
        if (d == NULL || !h_put(&ck.decl_by_kf, (uintptr_t)kf, (uintptr_t)d)) {
            acl_free(d);
            check_unlock();
            return acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of host memory", fn);
        }
        store_relaxed(&ck.ndecl, load_relaxed(&ck.ndecl) + 1); /* under check_lock */
    }
    snprintf(d->name, sizeof(d->name), "%s", kf->name);
    uint32_t i = 0;
    while (i < d->n && d->a[i].arg != arg)
        i++;
    if (i == CHECK_ACC_MAX) {
        check_unlock();
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'argIndex' (%u): the kernel '%s' already has %u "
                        "declared arguments, the most a kernel may declare", fn, arg, kf->name, CHECK_ACC_MAX);
    }
    if (i == d->n)
        d->n++;
    d->a[i] = (struct decl_arg){arg, access, size, size_arg};
    check_unlock();
    return ACL_SUCCESS;
}
