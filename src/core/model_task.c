/*
 * model_task.c - a model's tasks as the aclmdlRITask* calls name them,
 * their changes (aclmdlRITaskSetParams, aclmdlRITaskDisable) and
 * aclmdlRIUpdate, and the model's destroy callbacks.
 *
 * DESIGN: the runtime hands out its task records; aclcpu hands out names.
 * A model numbers its tasks in a table (m->mt) the first time a task call
 * looks at them: entry i is the task of sequence id i, kept as its lane
 * and place in the lane (a task-group update swaps records one for one,
 * so a place stays the task's). A task handle is the model's slot and
 * generation and the sequence id, so a handle of a destroyed model, or of
 * a task an update dropped (MT_GONE), resolves to nothing (107017).
 * Lanes are numbered one after the other, in lane order, as their tasks
 * come (the runtime numbers in the order tasks were issued across the
 * streams: the same for one stream; docs/differences.md).
 * A change is made to the model at once (a replacement record takes the
 * task's place; the old one waits in the graveyard for the model's end),
 * which is safe because the runtime's rule holds: no run may be under way
 * and none may start (the model is UPDATING, and runs are issued only to a
 * READY model) until aclmdlRIUpdate, which drops the disabled tasks.
 * Destroy callbacks are kept sorted by function address (the runtime keeps
 * a set ordered so) and called by the destroying thread, no lock held,
 * once the model's runs ended and it left its context (it is freed by
 * then: a callback may destroy the context itself).
 *
 * Threads: host threads. Locks: capture_lock around the table, the lanes
 * and the callbacks; m->lock for the update state (runs are issued under
 * it, model.c model_issue_run).
 */
#include <string.h>

#include "model.h"

/* Task handles: 0xD in the top nibble (object handles have 0xAC in the top
 * byte), 16 bits of the model's generation, 20 of its slot, 24 of the
 * sequence id. */
#define MT_TAG 0xDull
#define MT_SEQ_BITS 24
#define MT_SEQ_MAX ((1u << MT_SEQ_BITS) - 1u)

static void *task_handle(const struct model *m, uint32_t seq)
{
    uint64_t gen = load_relaxed(&m->hdr.gen) & 0xFFFFu;
    return (void *)(uintptr_t)((MT_TAG << 60) | (gen << 44) | ((uint64_t)m->hdr.index << 24) | seq);
}

/* Called with capture_lock held: gives every task of m not numbered yet
 * an entry. False when out of memory (or ids). */
static bool number_tasks(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->nlanes; i++) {
        struct lane *l = m->lanes[i];
        while (l->numbered < l->ntasks) {
            if (m->nmt == m->cap_mt) {
                uint32_t c = m->cap_mt ? m->cap_mt * 2 : 16;
                struct mtask *n;
                if (m->nmt >= MT_SEQ_MAX)
                    return false;
                n = acl_realloc(m->mt, (size_t)c * sizeof(*n));
                if (n == NULL)
                    return false;
                m->mt = n;
                m->cap_mt = c;
            }
            m->mt[m->nmt++] = (struct mtask){.lane = i, .pos = l->numbered++, .flag = MT_KEEP};
        }
    }
    return true;
}

aclError model_tasks_list(struct lane *l, void **tasks, uint32_t cap, uint32_t *total)
{
    struct model *m = l->m;
    uint32_t k = 0;
    capture_assert_held();
    if (!number_tasks(m))
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    *total = l->ntasks;
    if (tasks == NULL)
        return ACL_SUCCESS;
    /* A lane's entries come in the order of their places. */
    for (uint32_t i = 0; i < m->nmt && k < cap; i++) {
        const struct mtask *e = &m->mt[i];
        if (e->flag != MT_GONE && e->lane == l->index)
            tasks[k++] = task_handle(m, i);
    }
    return ACL_SUCCESS;
}

aclError model_task_find(const char *fn, const void *handle, struct mtask_ref *r)
{
    uint64_t v = (uint64_t)(uintptr_t)handle;
    uint32_t idx = (uint32_t)(v >> 24) & 0xFFFFFu, seq = (uint32_t)v & MT_SEQ_MAX;
    const void *mh;
    struct model *m = NULL;
    struct task *prev, *t;
    capture_assert_held();
    if ((v >> 60) == MT_TAG && (mh = obj_handle_at(OBJ_MODEL, idx)) != NULL &&
        ((((uint64_t)(uintptr_t)mh) >> 32) & 0xFFFFu) == ((v >> 44) & 0xFFFFu))
        m = (struct model *)obj_resolve(mh, OBJ_MODEL);
    if (m == NULL || seq >= m->nmt || m->mt[seq].flag == MT_GONE || m->mt[seq].lane >= m->nlanes ||
        m->mt[seq].pos >= m->lanes[m->mt[seq].lane]->ntasks)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'task' (%p) names no task of a live model (its "
                        "model was destroyed, aclmdlRIUpdate dropped it, or it never came from "
                        "aclmdlRIGetTasksByStream)", fn, handle);
    r->m = m;
    r->seq = seq;
    r->e = &m->mt[seq];
    r->l = m->lanes[r->e->lane];
    prev = &r->l->head;
    for (uint32_t p = 0; p < r->e->pos; p++)
        prev = task_next(prev);
    t = task_next(prev);
    r->prev = prev;
    r->t = t;
    return ACL_SUCCESS;
}

int model_task_type(const struct task *t)
{
    switch (t->kind) {
    case TASK_KERNEL: return ACL_MODEL_RI_TASK_KERNEL;
    case TASK_EVENT_RECORD: return ACL_MODEL_RI_TASK_EVENT_RECORD;
    case TASK_EVENT_WAIT: return ACL_MODEL_RI_TASK_EVENT_WAIT;
    case TASK_EVENT_RESET: return ACL_MODEL_RI_TASK_EVENT_RESET;
    case TASK_VALUE_WRITE: return ACL_MODEL_RI_TASK_VALUE_WRITE;
    case TASK_VALUE_WAIT: return ACL_MODEL_RI_TASK_VALUE_WAIT;
    default: return ACL_MODEL_RI_TASK_DEFAULT; /* copies, host functions, notifies, stream control, the end */
    }
}

const void *model_task_event(const struct model *m, const struct task *t)
{
    capture_assert_held();
    if (t->u.event.in_model != MEV_EDGE)
        return obj_handle(&t->u.event.ev->hdr);
    for (uint32_t i = 0; i < m->nedges && m->edge_user != NULL; i++)
        if (m->edges[i] == t->u.event.ev)
            return m->edge_user[i];
    return NULL;
}

void *model_task_group(struct model *m, const struct lane *l, const struct task *t)
{
    struct list *pos;
    capture_assert_held();
    list_for_each(pos, &m->groups) {
        struct task_group *g = ACLCPU_CONTAINER_OF(pos, struct task_group, link);
        const struct task *x = g->before;
        if (g->lane != l || g->open)
            continue;
        for (uint32_t i = 0; i < g->count && x != NULL; i++) {
            x = task_next(x);
            if (x == t)
                return obj_handle(&g->hdr);
        }
    }
    return NULL;
}

aclError model_update_enter(const char *fn, struct model *m)
{
    bool busy;
    uint8_t upd;
    enum model_state st;
    if (m->kind != MODEL_CAPTURED)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: the task's model was built with aclmdlRIBuildBegin; "
                        "only a captured model's tasks change", fn);
    plat_mutex_lock(&m->lock);
    busy = m->completed < m->issued;
    upd = m->upd;
    st = m->state;
    if (!busy && st == MODEL_READY && upd != UPD_FAULT)
        m->upd = UPD_UPDATING;
    plat_mutex_unlock(&m->lock);
    if (busy || st != MODEL_READY || upd == UPD_FAULT)
        return acl_fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "%s: model %u %s; its tasks change only while it is "
                        "ready and no run of it is under way", fn, m->hdr.index,
                        busy ? "has a run under way (synchronise its stream first)"
                        : st != MODEL_READY ? "is being captured"
                                            : "had a task change fail (it cannot be updated or run again)");
    return ACL_SUCCESS;
}

void model_update_fault(struct model *m)
{
    plat_mutex_lock(&m->lock);
    m->upd = UPD_FAULT;
    plat_mutex_unlock(&m->lock);
}

void model_task_replace(struct mtask_ref *r, struct task *with)
{
    struct model *m = r->m;
    capture_assert_held();
    task_set_next(with, task_next(r->t));
    task_set_next(r->prev, with);
    if (r->l->tail == r->t)
        r->l->tail = with;
    plat_mutex_lock(&m->lock);
    task_set_next(r->t, m->graveyard);
    m->graveyard = r->t;
    plat_mutex_unlock(&m->lock);
    r->t = with;
    r->e->flag = MT_UPDATE;
}

void model_update_apply(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->nmt; i++) {
        struct mtask *e = &m->mt[i];
        struct mtask_ref r;
        if (e->flag == MT_UPDATE)
            e->flag = MT_KEEP;
        if (e->flag != MT_DISABLE)
            continue;
        r.m = m;
        r.e = e;
        r.l = m->lanes[e->lane];
        r.prev = &r.l->head;
        for (uint32_t p = 0; p < e->pos; p++)
            r.prev = task_next(r.prev);
        r.t = task_next(r.prev);
        /* Out of the lane; kept with the model, as a replaced record is. */
        task_set_next(r.prev, task_next(r.t));
        if (r.l->tail == r.t)
            r.l->tail = r.prev;
        plat_mutex_lock(&m->lock);
        task_set_next(r.t, m->graveyard);
        m->graveyard = r.t;
        plat_mutex_unlock(&m->lock);
        r.l->ntasks--;
        r.l->numbered--;
        for (uint32_t j = 0; j < m->nmt; j++)
            if (m->mt[j].flag != MT_GONE && m->mt[j].lane == e->lane && m->mt[j].pos > e->pos)
                m->mt[j].pos--;
        e->flag = MT_GONE;
    }
    plat_mutex_lock(&m->lock);
    m->upd = UPD_READY;
    plat_mutex_unlock(&m->lock);
}

void model_tasks_forget(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->nmt; i++) {
        m->mt[i].flag = MT_GONE;
        acl_free(m->mt[i].opinfo);
        m->mt[i].opinfo = NULL;
    }
    for (uint32_t i = 0; i < m->nlanes; i++)
        m->lanes[i]->numbered = 0;
}

struct destroy_cb *model_take_callbacks(struct model *m, uint32_t *n)
{
    /* Nobody adds or removes callbacks now: the handle is dead. */
    struct destroy_cb *cbs = m->cbs;
    *n = m->ncbs;
    m->cbs = NULL;
    m->ncbs = m->cap_cbs = 0;
    return cbs;
}

void model_run_callbacks(struct destroy_cb *cbs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        cbs[i].fn(cbs[i].arg);
    acl_free(cbs);
}

void model_tasks_free(struct model *m)
{
    capture_assert_held();
    for (uint32_t i = 0; i < m->nmt; i++)
        acl_free(m->mt[i].opinfo);
    acl_free(m->mt);
    m->mt = NULL;
    m->nmt = m->cap_mt = 0;
    acl_free(m->edge_user);
    m->edge_user = NULL;
    m->cap_edge_user = 0;
    acl_free(m->cbs);
    m->cbs = NULL;
    m->ncbs = m->cap_cbs = 0;
}

/* ---- destroy callbacks ------------------------------------------------------------ */

aclError model_destroy_cb_add(const char *fn, struct model *m, const void *handle, aclrtCallback func, void *arg)
{
    uint32_t at = 0;
    aclError err = ACL_SUCCESS;
    capture_enter();
    if (!obj_same(&m->hdr, handle)) {
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'modelRI': another thread destroyed the model", fn);
    } else {
        while (at < m->ncbs && (uintptr_t)m->cbs[at].fn < (uintptr_t)func)
            at++;
        if (at < m->ncbs && m->cbs[at].fn == func)
            err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'func' is registered with this model already "
                           "(a function once per model, whatever its userData)", fn);
    }
    if (err == ACL_SUCCESS && m->ncbs == m->cap_cbs) {
        uint32_t c = m->cap_cbs ? m->cap_cbs * 2 : 4;
        struct destroy_cb *n = acl_realloc(m->cbs, (size_t)c * sizeof(*n));
        if (n == NULL) {
            err = acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
        } else {
            m->cbs = n;
            m->cap_cbs = c;
        }
    }
    if (err == ACL_SUCCESS) {
        memmove(&m->cbs[at + 1], &m->cbs[at], (size_t)(m->ncbs - at) * sizeof(*m->cbs));
        m->cbs[at] = (struct destroy_cb){func, arg};
        m->ncbs++;
    }
    capture_leave();
    return err;
}

aclError model_destroy_cb_remove(const char *fn, struct model *m, const void *handle, aclrtCallback func)
{
    uint32_t at = 0;
    aclError err = ACL_SUCCESS;
    capture_enter();
    if (!obj_same(&m->hdr, handle)) {
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'modelRI': another thread destroyed the model", fn);
    } else {
        while (at < m->ncbs && m->cbs[at].fn != func)
            at++;
        if (at == m->ncbs)
            err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'func' is not registered with this model", fn);
    }
    if (err == ACL_SUCCESS) {
        memmove(&m->cbs[at], &m->cbs[at + 1], (size_t)(m->ncbs - at - 1) * sizeof(*m->cbs));
        m->ncbs--;
    }
    capture_leave();
    return err;
}
