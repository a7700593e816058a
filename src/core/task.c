/*
 * task.c - task records: a per-thread cache over a shared depot.
 *
 * DESIGN: launches allocate task records on host threads and executors
 * free them on worker threads, so records flow one way. Each thread keeps
 * a small cache (a magazine); a thread whose cache overflows hands a whole
 * chain of MAG_BATCH records to the depot, and a thread whose cache is
 * empty takes one back, so the depot lock is taken once per MAG_BATCH
 * records, and a launch usually touches no shared cache line at all. The
 * depot keeps at most DEPOT_MAX chains; beyond that records go back to
 * malloc, which bounds the memory a burst leaves behind.
 *
 * Threads: any. depot_lock is a leaf.
 */
#include <stdlib.h>

#include "core.h"

#define MAG_BATCH 64
#define MAG_MAX (2 * MAG_BATCH)
#define DEPOT_MAX 256 /* chains: 16K records, about 4 MiB */

struct magazine {
    struct task *head;
    unsigned n;
    bool registered;
};

static plat_mutex depot_lock;
static struct task *depot[DEPOT_MAX];   /* each a chain of MAG_BATCH records */
static unsigned depot_n;
static _Thread_local struct magazine mag ACLCPU_TLS_HOT;

static void magazine_flush(void);

__attribute__((constructor)) static void task_init(void) { plat_mutex_init(&depot_lock); }

static struct task *split_batch(void)
{
    struct task *chain = mag.head, *t = chain;
    for (unsigned i = 1; i < MAG_BATCH; i++)
        t = t->next;
    mag.head = t->next;
    t->next = NULL;
    mag.n -= MAG_BATCH;
    return chain;
}

static void free_chain(struct task *t)
{
    while (t != NULL) {
        struct task *next = t->next;
        free(t);
        t = next;
    }
}

struct task *task_alloc(void)
{
    struct task *t = mag.head;
    if (ACLCPU_LIKELY(t != NULL)) {
        mag.head = t->next;
        mag.n--;
        return t;
    }
    if (!mag.registered) {
        /* Give the cache back to the depot when this thread exits. */
        plat_thread_at_exit(magazine_flush);
        mag.registered = true;
    }
    plat_mutex_lock(&depot_lock);
    if (depot_n > 0) {
        mag.head = depot[--depot_n];
        mag.n = MAG_BATCH;
    }
    plat_mutex_unlock(&depot_lock);
    t = mag.head;
    if (t == NULL)
        return malloc(sizeof(struct task));
    mag.head = t->next;
    mag.n--;
    return t;
}

void task_free(struct task *t)
{
    struct task *chain;
    if (ACLCPU_UNLIKELY(!mag.registered)) {
        /* Give the cache back when this thread exits. */
        plat_thread_at_exit(magazine_flush);
        mag.registered = true;
    }
    t->next = mag.head;
    mag.head = t;
    if (ACLCPU_LIKELY(++mag.n <= MAG_MAX))
        return;
    chain = split_batch();
    plat_mutex_lock(&depot_lock);
    if (depot_n < DEPOT_MAX) {
        depot[depot_n++] = chain;
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
    while (depot_n > 0)
        free_chain(depot[--depot_n]);
    plat_mutex_unlock(&depot_lock);
}
