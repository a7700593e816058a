/*
 * sched.c - the ready set, the worker pool, the stream run loop and the
 * host-function thread.
 *
 * DESIGN: each device has one engine: a ready list per priority (0 first,
 * FIFO within a priority), a list of kernels whose blocks idle workers may
 * claim, and a fixed pool of workers. A worker takes the best ready stream
 * (or a shared kernel of at least that priority), runs the stream's tasks in
 * order, and gives the stream back when it empties, parks on an event, or
 * when a better stream is waiting (checked after every task).
 *
 * Lingering: a worker that empties a stream keeps it (RUNNING) for up to
 * linger_ns, looking for the next task every LINGER_LOOK_NS, before it
 * lets go. A launch burst
 * then reaches a worker that is already there: the launcher finds the
 * stream running, so it neither touches the ready set nor wakes anyone,
 * and the worker takes the task straight off the queue. The linger ends
 * at once when other work is waiting, or when the stream is being
 * destroyed, discarded or stopped, and never starts while a host synchronizes on
 * the stream (that host runs the next work itself). A lingering worker
 * counts as a spinner, so a host that makes another stream ready does not
 * wake a second worker.
 *
 * Waking: a futex wake costs microseconds, so wakes are rationed. A host
 * thread that makes a stream ready wakes one parked worker only when no
 * worker is spinning. A worker never wakes another for work it made ready
 * itself; instead, before any task that may run long, an executor checks
 * for waiting work and wakes a helper then (engine_offer_help), and a
 * worker that takes work while more is waiting passes the wake on.
 * Idle workers spin for spin_ns (ACLCPU_SPIN_US) before parking.
 *
 * Timed waits and hangs are hang.c's (the watchdog); what a stream's owner
 * does when a task ends or it lets go of the stream is complete.c's.
 *
 * Threads: workers, host threads (kick, sync), the host-function thread.
 * Locks: engine->lock, hf_lock (ranks: lockrank.h).
 */
#include <stdlib.h>

#include "../core/check.h"
#include "engine_int.h"

_Thread_local struct worker *tls_worker ACLCPU_TLS_HOT;

int engine_worker_index(void) { return tls_worker != NULL ? (int)tls_worker->index : -1; }

static uint32_t prio_bit(uint32_t p) { return 1u << p; }

/* Called with e->lock held. */
static void ready_push(struct engine *e, struct stream *s)
{
    list_add_tail(&e->ready[load_relaxed(&s->priority)], &s->ready_link);
    s->ready_order = ++e->ready_seq;
    store_relaxed(&s->state, STREAM_READY);
    fetch_or_relaxed(&e->ready_mask, prio_bit(load_relaxed(&s->priority)));
}

/* Called with e->lock held. */
static void ready_unlink(struct engine *e, struct stream *s)
{
    list_del(&s->ready_link);
    if (list_empty(&e->ready[load_relaxed(&s->priority)]))
        fetch_and_relaxed(&e->ready_mask, ~prio_bit(load_relaxed(&s->priority)));
}

static bool has_work(struct engine *e)
{
    return load_relaxed(&e->ready_mask) != 0 ||
           load_relaxed(&e->shared_count) != 0;
}

struct worker *engine_pick_sleeper(struct engine *e)
{
    struct worker *w = e->sleepers;
    if (w == NULL || load_relaxed(&e->spinners) > 0)
        return NULL;
    e->sleepers = w->next_sleeper;
    fetch_sub_relaxed(&e->sleeper_count, 1);
    return w;
}

void engine_wake(struct worker *w)
{
    if (w == NULL)
        return;
    /* Release: the worker's acquire load sees the work we queued. */
    store_release(&w->sleep_word, 0);
    plat_futex_wake(&w->sleep_word, 1);
}

void engine_offer_help(struct engine *e)
{
    struct worker *w;
    if (load_relaxed(&e->ready_mask) == 0 ||
        load_relaxed(&e->sleeper_count) == 0)
        return;
    plat_spin_lock(&e->lock);
    w = has_work(e) ? engine_pick_sleeper(e) : NULL;
    plat_spin_unlock(&e->lock);
    engine_wake(w);
}

struct worker *engine_requeue_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct engine *e = load_relaxed(&s->dev)->engine;
    struct worker *w = NULL;

    plat_spin_lock(&e->lock);
    ready_push(e, s);
    if (tls_worker == NULL)
        w = engine_pick_sleeper(e);
    plat_spin_unlock(&e->lock);
    return w;
}

struct worker *engine_kick_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    if (load_relaxed(&s->state) != STREAM_IDLE)
        return NULL;
    return engine_requeue_locked(s);
}

void engine_stream_kick(struct stream *s)
{
    struct worker *w = engine_kick_locked(s);
    plat_spin_unlock(&s->lock);
    engine_wake(w);
}

void engine_set_priority_locked(struct stream *s, uint32_t prio)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct engine *e = load_relaxed(&s->dev)->engine;
    plat_spin_lock(&e->lock);
    /* A ready stream sits in its priority's list: move it with the change. */
    if (load_relaxed(&s->state) == STREAM_READY) {
        ready_unlink(e, s);
        store_relaxed(&s->priority, prio);
        ready_push(e, s);
    } else {
        store_relaxed(&s->priority, prio);
    }
    plat_spin_unlock(&e->lock);
}

bool engine_unready_locked(struct stream *s)
{
    PLAT_ASSERT_HELD(&s->lock);
    struct engine *e = load_relaxed(&s->dev)->engine;
    bool took = false;

    if (load_relaxed(&s->state) != STREAM_READY)
        return false;
    plat_spin_lock(&e->lock);
    /* Re-check: a worker may have taken it between our load and the lock. */
    if (load_relaxed(&s->state) == STREAM_READY) {
        ready_unlink(e, s);
        store_relaxed(&s->state, STREAM_RUNNING);
        took = true;
    }
    plat_spin_unlock(&e->lock);
    return took;
}

void engine_unpark(struct stream *s)
{
    struct worker *w = NULL;
    plat_spin_lock(&s->lock);
    if (load_relaxed(&s->state) == STREAM_PARKED) {
        store_relaxed(&s->state, STREAM_IDLE);
        w = engine_kick_locked(s);
    }
    plat_spin_unlock(&s->lock);
    engine_wake(w);
}

static bool must_yield(struct executor *x, struct stream *s, unsigned n)
{
    uint32_t mask;
    if (x->worker == NULL)
        return load_relaxed(&s->done) >= x->until_seq;
    mask = load_relaxed(&x->eng->ready_mask);
    if (mask == 0)
        return false;
    /* A better stream waits: yield at once. An equal one: every 64 tasks,
     * so one busy stream cannot starve its peers. */
    return (mask & (prio_bit(load_relaxed(&s->priority)) - 1)) != 0 ||
           (n % 64 == 0 && (mask & prio_bit(load_relaxed(&s->priority))));
}

/* A lingering worker looks at the queue every LINGER_LOOK_NS. Each look
 * pulls the cache line the launcher writes next (the newest task's link),
 * and a launcher that finds the line taken waits for it, a cross-core
 * round trip (up to ~0.5 us on a 2-vCPU EPYC VM). Looking seldom lets the
 * launcher queue a batch on lines that stay its own, and the worker then
 * runs the batch without meeting it (FastForward's "temporal slipping").
 * Between looks it watches only lines launchers do not write. */
#define LINGER_LOOK_NS 2000u

/* True when a lingering worker should stop waiting for its stream: other
 * work waits, the stream is being discarded, destroyed or stopped (an
 * aclrtStreamStop waits for its owner to let go). Relaxed: hints, each
 * re-checked under a lock by whoever acts on it. */
static bool linger_interrupted(struct engine *e, struct stream *s)
{
    return has_work(e) || load_relaxed(&s->discard) ||
           load_relaxed(&s->stopped) ||
           !load_relaxed(&s->hdr.live);
}

/* Waits until the next look at the queue is due; false when the linger
 * should end instead (interrupted, or past until). A host that starts to
 * synchronize on s makes the look due at once: it waits for the task. */
static bool linger_wait_look(struct engine *e, struct stream *s, uint64_t look_at, uint64_t until)
{
    for (;;) {
        uint64_t now;
        for (unsigned i = 0; i < 8; i++)
            plat_cpu_relax();
        if (linger_interrupted(e, s))
            return false;
        now = plat_now_ns();
        if (now >= until)
            return false;
        /* Relaxed: a hint; the look itself is an acquire. */
        if (now >= look_at || load_relaxed(&s->sync_waiters) != 0)
            return true;
    }
}

/* Worker owner of an emptied stream: waits for its next task for up to
 * linger_ns (see the file comment). True when one came. */
static bool linger(struct engine *e, struct stream *s)
{
    uint64_t now = plat_now_ns(), until = now + e->linger_ns;
    bool got = false;

    /* Relaxed: a hint. A host synchronizing on s will run what comes next
     * itself (caller-runs), which beats handing it across to us. Nor after
     * a failure tripped STOP mode: nothing is queued on s again (tasks
     * issued until a sync reports it are dropped, and count as done once s
     * goes idle: drop_after_stop_locked). stop_error is written under s->lock by
     * the owner (note_failure) and by an abort (engine_abort_stream), with
     * relaxed stores for this unlocked read. */
    if (e->linger_ns == 0 || load_relaxed(&s->sync_waiters) != 0 ||
        load_relaxed(&s->stop_error) != ACL_SUCCESS)
        return false;
    /* Relaxed: a hint for hosts deciding whether to wake a worker; this
     * worker looks at the ready set (under the lock) before it sleeps. */
    fetch_add_relaxed(&e->spinners, 1);
    while (linger_wait_look(e, s, now + LINGER_LOOK_NS, until)) {
        if (squeue_next(s) != NULL) {
            got = true;
            break;
        }
        now = plat_now_ns();
    }
    fetch_sub_relaxed(&e->spinners, 1);
    return got;
}

void engine_run_stream(struct executor *x, struct stream *s)
{
    if (!engine_owner_has_task(s))
        return;
    for (unsigned n = 1;; n++) {
        aclError err = ACL_SUCCESS;
        enum run_result r;
        if (ACLCPU_UNLIKELY(x->eng->perturb)) /* relaxed: done is the owner's own count */
            perturb_task(x->eng, s, load_relaxed(&s->done) + 1);
        r = exec_task(x, s, squeue_next(s), &err);
        if (r != RUN_DONE)
            return; /* parked or handed off: the task stays at the head */
        engine_complete_current(s, err);
        if (squeue_next(s) == NULL && x->worker != NULL)
            linger(x->eng, s);
        /* False when s went idle, or halted (aclrtStreamStop). */
        if (!engine_owner_has_task(s))
            return;
        if (must_yield(x, s, n)) {
            engine_give_back(s);
            return;
        }
    }
}

/* Called with e->lock held: the best shared kernel, if it beats prio. */
static struct kernel_run *best_shared(struct engine *e, uint32_t prio)
{
    struct kernel_run *best = NULL;
    struct list *pos;
    list_for_each(pos, &e->shared) {
        struct kernel_run *k = ACLCPU_CONTAINER_OF(pos, struct kernel_run, link);
        /* A batch-mode kernel takes no more helpers than it has blocks
         * (helpers only grow under e->lock until it starts). */
        if (k->gang != 0 && load_relaxed(&k->helpers) + 1 >= k->gang)
            continue;
        if (k->priority <= prio && (best == NULL || k->priority < best->priority))
            best = k;
    }
    return best;
}

/* Called with e->lock held: a seeded schedule's pick among the ready
 * streams of priority prio (all ready, so any of them may go first). */
static struct stream *random_ready(struct engine *e, uint32_t prio)
{
    uint32_t n = 0, k;
    struct list *pos;
    list_for_each(pos, &e->ready[prio])
        n++;
    k = perturb_pick(e, n);
    list_for_each(pos, &e->ready[prio]) {
        if (k-- == 0)
            break;
    }
    return ACLCPU_CONTAINER_OF(pos, struct stream, ready_link);
}

/* Called with e->lock held. */
static bool take_work(struct engine *e, struct stream **sp, struct kernel_run **kp)
{
    uint32_t mask = load_relaxed(&e->ready_mask);
    uint32_t prio = mask ? (uint32_t)__builtin_ctz(mask) : ACLCPU_PRIORITIES;
    struct kernel_run *k = list_empty(&e->shared) ? NULL : best_shared(e, prio);

    *sp = NULL;
    *kp = NULL;
    if (k != NULL) {
        fetch_add_relaxed(&k->helpers, 1);
        *kp = k;
        return true;
    }
    if (mask == 0)
        return false;
    struct stream *s = ACLCPU_CONTAINER_OF(e->ready[prio].next, struct stream, ready_link);
    if (ACLCPU_UNLIKELY(e->perturb))
        s = random_ready(e, prio);
    ready_unlink(e, s);
    store_relaxed(&s->state, STREAM_RUNNING);
    *sp = s;
    return true;
}

/* One worker at a time spins for new work before parking: it catches the
 * next launch without a futex wake, and a single spinner costs at most one
 * core, which a machine with as many workers as cores can spare. */
static void spin_for_work(struct engine *e)
{
    uint64_t until = plat_now_ns() + e->spin_ns;
    int none = 0;
    if (!cas_relaxed(&e->spinners, &none, 1)) {
        fetch_add_relaxed(&e->spinners, 1); /* decremented by the caller */
        return;
    }
    for (unsigned i = 1; !has_work(e); i++) {
        plat_cpu_relax();
        if ((i & 63) == 0 && plat_now_ns() >= until)
            break;
    }
}

/* Called with e->lock held; returns with it held. */
static void sleep_locked(struct engine *e, struct worker *w)
{
    PLAT_ASSERT_HELD(&e->lock);
    w->next_sleeper = e->sleepers;
    e->sleepers = w;
    fetch_add_relaxed(&e->sleeper_count, 1);
    store_relaxed(&w->sleep_word, 1);
    plat_spin_unlock(&e->lock);
    /* Acquire: pairs with engine_wake's release, so we see the work queued. */
    while (load_acquire(&w->sleep_word) == 1)
        plat_futex_wait(&w->sleep_word, 1, 0);
    plat_spin_lock(&e->lock);
}

static void worker_main(void *arg)
{
    struct worker *w = arg;
    struct engine *e = w->eng;
    struct executor x = {e, w, UINT64_MAX};

    tls_worker = w;
    plat_spin_lock(&e->lock);
    while (!e->stopping) {
        struct stream *s;
        struct kernel_run *k;
        if (take_work(e, &s, &k)) {
            struct worker *next = has_work(e) ? engine_pick_sleeper(e) : NULL;
            plat_spin_unlock(&e->lock);
            engine_wake(next);
            if (k != NULL)
                engine_help_kernel(e, k);
            else
                engine_run_stream(&x, s);
            plat_spin_lock(&e->lock);
            continue;
        }
        plat_spin_unlock(&e->lock);
        spin_for_work(e);
        plat_spin_lock(&e->lock);
        /* Decrement under the lock: a host that saw us spinning skipped
         * its wake, and must be sure we look again before parking. */
        fetch_sub_relaxed(&e->spinners, 1);
        if (!has_work(e) && !e->stopping)
            sleep_locked(e, w);
    }
    plat_spin_unlock(&e->lock);
}

/* ---- host-function thread ------------------------------------------------ */

/* Runs the host function at the head of s, which the caller owns. */
static void run_host_func(struct engine *e, struct stream *s)
{
    struct task *t = squeue_next(s);
    if (ACLCPU_UNLIKELY(e->perturb)) /* a host function late (relaxed: the owner's count) */
        perturb_task(e, s, load_relaxed(&s->done) + 1);
    CHECK_TASK_CODE(t->u.host.fn(t->u.host.arg));
    engine_finish_handed_off(s, ACL_SUCCESS);
}

static void hostfunc_main(void *arg)
{
    struct engine *e = arg;
    plat_mutex_lock(&e->hf_lock);
    for (;;) {
        struct stream *s = e->hf_head;
        if (s == NULL) {
            if (e->hf_stop)
                break;
            plat_cond_wait(&e->hf_cond, &e->hf_lock);
            continue;
        }
        e->hf_head = s->park_next;
        if (e->hf_head == NULL)
            e->hf_tail = NULL;
        plat_mutex_unlock(&e->hf_lock);
        run_host_func(e, s);
        plat_mutex_lock(&e->hf_lock);
    }
    plat_mutex_unlock(&e->hf_lock);
}

/* A worker met a host function: the host-function thread runs it so that a
 * slow or blocking callback never holds a device worker. The stream stays
 * RUNNING, owned by that thread, with the host function at its head. */
void engine_hostfunc_post(struct engine *e, struct stream *s)
{
    plat_mutex_lock(&e->hf_lock);
    if (!e->hf_started) {
        if (plat_thread_create(&e->hf_thread, "aclcpu-hostfn", hostfunc_main, e) != 0) {
            plat_mutex_unlock(&e->hf_lock);
            /* No thread to be had: run it here rather than lose it. */
            run_host_func(e, s);
            return;
        }
        e->hf_started = true;
    }
    s->park_next = NULL;
    if (e->hf_tail != NULL)
        e->hf_tail->park_next = s;
    else
        e->hf_head = s;
    e->hf_tail = s;
    plat_cond_signal(&e->hf_cond);
    plat_mutex_unlock(&e->hf_lock);
}

/* ---- start and stop ------------------------------------------------------ */

unsigned engine_worker_count(void)
{
    uint64_t n = config_u64(CFG_WORKERS);
    if (n == 0)
        n = plat_cpu_count();
    return n > 256 ? 256u : (unsigned)n;
}

int32_t engine_busy_percent(struct engine *e)
{
    /* Relaxed: two hints read at slightly different instants; the sample
     * is clamped rather than exact. Lingering workers count as spinning. */
    int idle = load_relaxed(&e->sleeper_count) + load_relaxed(&e->spinners);
    int n = (int)e->nworkers;
    int busy = n - idle;
    if (busy < 0)
        busy = 0;
    return n > 0 ? (int32_t)(busy * 100 / n) : 0;
}

aclError engine_start(struct device *d)
{
    struct engine *e = acl_calloc(1, sizeof(*e));
    if (e == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    plat_spin_init(&e->lock, LOCK_ENGINE);
    plat_mutex_init(&e->hf_lock, LOCK_HOSTFUNC);
    plat_cond_init(&e->hf_cond);
    engine_watchdog_init(e);
    for (int p = 0; p < ACLCPU_PRIORITIES; p++)
        list_init(&e->ready[p]);
    list_init(&e->shared);
    e->dev = d;
    /* A kernel's or memory task's bad access to device memory fails that
     * task, as on the device, instead of ending the process. */
    plat_vm_fault_hook(engine_fault);
    e->spin_ns = config_u64(CFG_SPIN_US) * 1000u;
    e->linger_ns = config_u64(CFG_LINGER_US) * 1000u;
    e->hang_timeout_ns = config_u64(CFG_HANG_TIMEOUT_MS) * 1000000u;
    perturb_configure(e);
    e->nworkers = engine_worker_count();
    e->workers = acl_calloc(e->nworkers, sizeof(*e->workers));
    if (e->workers == NULL) {
        acl_free(e);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    d->engine = e;
    for (unsigned i = 0; i < e->nworkers; i++) {
        e->workers[i].eng = e;
        e->workers[i].index = i;
        if (plat_thread_create(&e->workers[i].thread, "aclcpu-worker", worker_main, &e->workers[i]) != 0) {
            e->nworkers = i;
            engine_stop(d);
            return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
        }
    }
    if (!engine_watchdog_start(e)) {
        engine_stop(d);
        return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    }
    return ACL_SUCCESS;
}

void engine_stop(struct device *d)
{
    struct engine *e = d->engine;
    struct worker *w;

    if (e == NULL)
        return;
    plat_spin_lock(&e->lock);
    e->stopping = true;
    w = e->sleepers;
    e->sleepers = NULL;
    plat_spin_unlock(&e->lock);
    while (w != NULL) {
        struct worker *next = w->next_sleeper;
        engine_wake(w);
        w = next;
    }
    for (unsigned i = 0; i < e->nworkers; i++)
        plat_thread_join(e->workers[i].thread);
    plat_mutex_lock(&e->hf_lock);
    e->hf_stop = true;
    plat_cond_signal(&e->hf_cond);
    plat_mutex_unlock(&e->hf_lock);
    if (e->hf_started)
        plat_thread_join(e->hf_thread);
    engine_watchdog_stop(e);
    plat_cond_destroy(&e->hf_cond);
    plat_mutex_destroy(&e->hf_lock);
    acl_free(e->workers);
    acl_free(e);
    d->engine = NULL;
}
