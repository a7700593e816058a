/*
 * task.c - task records: a per-thread cache over a shared depot, and what
 * a record holds.
 *
 * DESIGN: launches allocate task records on host threads and executors
 * free them on worker threads, so records flow one way. Each thread keeps
 * a small cache (a magazine); a thread whose cache overflows hands a whole
 * chain of MAG_BATCH records to the depot, and a thread whose cache is
 * empty takes one back, so the depot lock is taken once per MAG_BATCH
 * records, and a launch usually touches no shared cache line at all.
 *
 * The depot is a FIFO, and a launcher takes a chain only while more than
 * DEPOT_REST wait (else it allocates new records): a chain an executor
 * has just handed in is still hot in that executor's cache, and a launcher
 * writing it at once stalls on every record (measured in a two-thread
 * model of the queue on a 2-vCPU EPYC VM: about 100 ns per launch,
 * against 20 ns for rested records). The
 * depot keeps at most DEPOT_MAX chains; beyond that records go back to
 * malloc, which bounds the memory a burst leaves behind (12 MiB). The
 * bound is generous because a 64-byte-aligned allocation is slow: with
 * eight threads each queueing 20k launches onto two workers, a 3 MiB
 * depot spent a fifth of the run in memalign and free. Records start on
 * a cache line, so a kernel task's first line is all a launch hands over
 * (plain malloc, 16-byte aligned, made back-to-back launches twice as
 * slow here).
 * Taking a record starts the move of the next one's line into this
 * thread's cache (plat_prefetch_write), so the next launch finds it there.
 *
 * The task's destructor, task_release, is here too: what each kind of task
 * holds (a binary reference, an argument copy, an event's pending count, a
 * model run) and gives back when it is done or dropped.
 *
 * Threads: any. Locks: depot_lock (rank: lockrank.h); task_release runs
 * without locks (the event and model calls it makes take their own).
 */
#include <stdlib.h>

#include "../services/mempool.h"
#include "../services/profile.h"
#include "core.h"
#include "model.h"
#include "profhook.h"

_Static_assert(offsetof(struct task, inline_args) == ACLCPU_CACHE_LINE,
               "a kernel task's fields fill exactly its first cache line");
_Static_assert(sizeof(struct task) % ACLCPU_CACHE_LINE == 0, "task records are whole cache lines");

#define MAG_BATCH 64
#define MAG_MAX (2 * MAG_BATCH)
#define DEPOT_MAX 1024 /* chains: 64K records, 12 MiB */
#define DEPOT_REST 2  /* chains left resting in the depot */

struct magazine {
    struct task *head;
    unsigned n;
    bool registered;
};

static plat_mutex depot_lock;
static struct task *depot[DEPOT_MAX];   /* a ring of chains of MAG_BATCH records, oldest at depot_first */
static unsigned depot_first, depot_n;
static _Thread_local struct magazine mag ACLCPU_TLS_HOT;

static void magazine_flush(void);

__attribute__((constructor)) static void task_init(void) { plat_mutex_init(&depot_lock, LOCK_TASK_DEPOT); }

static struct task *next_of(struct task *t)
{
    struct qnode *n = load_relaxed(&t->q.next); /* private list: no ordering */
    return n != NULL ? task_of(n) : NULL;
}

static void set_next(struct task *t, struct task *next)
{
    store_relaxed(&t->q.next, next != NULL ? &next->q : NULL);
}

static struct task *split_batch(void)
{
    struct task *chain = mag.head, *t = chain;
    for (unsigned i = 1; i < MAG_BATCH; i++)
        t = next_of(t);
    mag.head = next_of(t);
    set_next(t, NULL);
    mag.n -= MAG_BATCH;
    return chain;
}

static void free_chain(struct task *t)
{
    while (t != NULL) {
        struct task *next = next_of(t);
        acl_free(t);
        t = next;
    }
}

static void register_exit_flush(void)
{
    if (ACLCPU_UNLIKELY(!mag.registered)) {
        /* Give the cache back to the depot when this thread exits. */
        plat_thread_at_exit(magazine_flush);
        mag.registered = true;
    }
}

/* Takes the oldest resting chain into the (empty) magazine, if there is one. */
static void refill_from_depot(void)
{
    plat_mutex_lock(&depot_lock);
    if (depot_n > DEPOT_REST) {
        mag.head = depot[depot_first];
        mag.n = MAG_BATCH;
        depot_first = (depot_first + 1) % DEPOT_MAX;
        depot_n--;
    }
    plat_mutex_unlock(&depot_lock);
}

struct task *task_alloc(void)
{
    struct task *t = mag.head;
    if (ACLCPU_UNLIKELY(t == NULL)) {
        register_exit_flush();
        refill_from_depot();
        t = mag.head;
        if (t == NULL)
            return acl_aligned_alloc(ACLCPU_CACHE_LINE, sizeof(struct task));
    }
    mag.head = next_of(t);
    mag.n--;
    /* The next launch writes that record, which an executor freed and so
     * holds in its cache: start moving the line now, while this launch
     * runs, instead of waiting for it then. */
    if (mag.head != NULL)
        plat_prefetch_write(mag.head);
    return t;
}

void task_free(struct task *t)
{
    struct task *chain;
    register_exit_flush();
    set_next(t, mag.head);
    mag.head = t;
    if (ACLCPU_LIKELY(++mag.n <= MAG_MAX))
        return;
    chain = split_batch();
    plat_mutex_lock(&depot_lock);
    if (depot_n < DEPOT_MAX) {
        depot[(depot_first + depot_n) % DEPOT_MAX] = chain;
        depot_n++;
        chain = NULL;
    }
    plat_mutex_unlock(&depot_lock);
    free_chain(chain);
}

static void magazine_flush(void)
{
    free_chain(mag.head);
    mag.head = NULL;
    mag.n = 0;
}

/* Called at aclFinalize: returns the depot's memory (and this thread's). */
void task_cache_release(void)
{
    magazine_flush();
    plat_mutex_lock(&depot_lock);
    for (; depot_n > 0; depot_n--, depot_first = (depot_first + 1) % DEPOT_MAX)
        free_chain(depot[depot_first]);
    depot_first = 0;
    plat_mutex_unlock(&depot_lock);
}

/* ---- what a task holds ------------------------------------------------------ */

void task_free_kernel_args(struct task *t)
{
    if (ACLCPU_UNLIKELY(t->u.kernel.args_size > TASK_INLINE_ARGS))
        acl_free(task_kernel_args(t));
}

void task_release(struct task *t)
{
    if (ACLCPU_UNLIKELY(t->prof_id != 0)) {
        prof_task_released(t->prof_id, profhook_run_end(t));
        t->prof_id = 0;
    }
    if (ACLCPU_LIKELY(t->kind == TASK_KERNEL)) {
        if (t->u.kernel.bin != NULL)
            binary_put_inflight(t->u.kernel.bin);
        task_free_kernel_args(t);
        return;
    }
    switch (t->kind) {
    case TASK_EVENT_RECORD:
    case TASK_EVENT_WAIT:
    case TASK_EVENT_RESET:
    case TASK_NOTIFY_RECORD:
    case TASK_NOTIFY_WAIT:
        event_task_release(t);
        break;
    case TASK_MODEL_RUN:
        if (t->u.model.phase == 0) /* dropped before it started: later runs must not wait for it */
            model_skip_run(t->u.model.m, t->u.model.run);
        model_ext_release(t->u.model.ext); /* its external records, played or not, are reached */
        t->u.model.ext = NULL;
        /* Release: our last touch of the model (see model->run_tasks). */
        fetch_sub_release(&t->u.model.m->run_tasks, 1);
        break;
    case TASK_LANE_RUN:
        if (t->u.lane.lane != NULL) /* dropped unfinished: its run must still end */
            model_lane_finished(t->u.lane.lane->m, t->u.lane.run);
        break;
    case TASK_POOL_FREE:
        /* An aclrtMalloc block is freed (as aclrtFree frees) only by a free
         * that ran: a refused or dropped one leaves it to its owner. A pool
         * block goes back to its pool either way. */
        if (t->u.pool_free.ticket == 0) {
            if (t->u.pool_free.ran)
                (void)quarantine_free(t->u.pool_free.ptr, true);
        } else {
            mempool_block_freed(t->u.pool_free.ptr, t->u.pool_free.ticket);
        }
        break;
    case TASK_GROUP_UPDATE:
        for (struct task *r = t->u.update.with, *next; r != NULL; r = next) {
            next = task_next(r);
            task_release(r);
            task_free(r);
        }
        t->u.update.with = NULL;
        break;
    default:
        break;
    }
}
