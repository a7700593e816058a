/*
 * cond.c - conditions of captured models (aclmdlRICondHandleCreate) and
 * the sub models of their conditional tasks (aclmdlRIAddCondTask).
 *
 * DESIGN: a condition is an 8-byte word of device memory owned by its
 * model, plus the sub models of the one conditional task that uses it. A
 * sub model is an ordinary model object that starts empty (BUILDING, no
 * lanes), is captured into with aclmdlRICaptureToModelRIBegin, and has
 * `parent` set: it is kept out of its context's model list, so that only
 * its condition frees it, with the parent model (model.c model_free_locked).
 * A TASK_COND in the parent's lane reads the word when a run reaches it and
 * runs the sub model cond_pick names, as a run of its own, parking the lane
 * until that run ends (engine/replay.c). With ASSIGN_DEFAULT the default is
 * written into the word when a run of the root model is launched
 * (cond_assign_defaults, from aclmdlRIExecuteAsync), for the conditions of
 * every model of the tree, as the runtime does at launch.
 *
 * Threads: host threads (API); executors read conditions (the tree no
 * longer changes once the root is READY). Locks: capture_lock guards the
 * lists; the word is read and written under devmem's mem_lock.
 */
#include <string.h>

#include "../services/devmem.h"
#include "model.h"

aclError cond_create(struct model *m, uint32_t def, uint32_t flag, struct cond **out)
{
    bool fresh;
    struct cond *c;
    void *word = NULL;
    uint64_t zero = 0;
    aclError err;
    capture_assert_held();
    err = devmem_alloc(&m->dev->mem_used, m->dev->mem_total, sizeof(uint64_t), &word);
    if (err != ACL_SUCCESS)
        return err;
    (void)devmem_write_device(word, &zero, sizeof(zero)); /* cond_handle.cc Setup: set to 0 */
    c = obj_create(OBJ_COND, sizeof(*c), offsetof(struct cond, m), &fresh);
    if (c == NULL) {
        (void)devmem_free(word, true);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    (void)fresh;
    c->m = m;
    c->word = word;
    c->def = def;
    c->flag = flag;
    c->type = -1;
    list_add_tail(&m->conds, &c->link);
    obj_publish(&c->hdr);
    *out = c;
    return ACL_SUCCESS;
}

aclError cond_add_subs(struct cond *c, int type, uint32_t size, void **out)
{
    struct model **subs = acl_calloc(size, sizeof(*subs));
    uint32_t made = 0;
    aclError err = ACL_SUCCESS;
    capture_assert_held();
    if (subs == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    while (made < size && err == ACL_SUCCESS) {
        struct model *sub;
        err = model_create(c->m->ctx, MODEL_BUILT, &sub);
        if (err != ACL_SUCCESS)
            break;
        /* Out of the context's list: the condition frees it (see above). */
        plat_mutex_lock(&sub->ctx->lock);
        list_del(&sub->ctx_link);
        plat_mutex_unlock(&sub->ctx->lock);
        sub->parent = c;
        subs[made++] = sub;
    }
    if (err != ACL_SUCCESS) { /* context_aclgraph.cc: the ones made go, the array is cleared */
        for (uint32_t i = 0; i < made; i++)
            model_free_sub_locked(subs[i]);
        acl_free(subs);
        memset(out, 0, (size_t)size * sizeof(*out));
        return err;
    }
    c->subs = subs;
    c->nsubs = size;
    c->type = type;
    for (uint32_t i = 0; i < size; i++)
        out[i] = obj_handle(&subs[i]->hdr);
    return ACL_SUCCESS;
}

static void assign_locked(struct model *m)
{
    capture_assert_held();
    struct list *pos;
    for (pos = m->conds.next; pos != &m->conds; pos = pos->next) {
        struct cond *c = ACLCPU_CONTAINER_OF(pos, struct cond, link);
        if (c->flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
            uint64_t v = c->def;
            (void)devmem_write_device(c->word, &v, sizeof(v)); /* false only if the user freed it */
        }
        for (uint32_t i = 0; i < c->nsubs; i++)
            assign_locked(c->subs[i]);
    }
}

void cond_assign_defaults(struct model *m)
{
    capture_enter();
    assign_locked(m);
    capture_leave();
}

struct model *cond_pick(const struct cond *c, uint64_t v)
{
    switch (c->type) {
    case ACL_MODEL_RI_COND_TYPE_IF: /* not 0: the first; 0: the second, if there is one */
        return v != 0 ? c->subs[0] : c->nsubs > 1 ? c->subs[1] : NULL;
    case ACL_MODEL_RI_COND_TYPE_WHILE:
        return v != 0 ? c->subs[0] : NULL;
    case ACL_MODEL_RI_COND_TYPE_SWITCH: /* past the last: none, the task is skipped */
        return v < c->nsubs ? c->subs[v] : NULL;
    default:
        return NULL;
    }
}

void cond_free_all_locked(struct model *m)
{
    capture_assert_held();
    while (!list_empty(&m->conds)) {
        struct cond *c = ACLCPU_CONTAINER_OF(m->conds.next, struct cond, link);
        list_del(&c->link);
        obj_kill(&c->hdr);
        for (uint32_t i = 0; i < c->nsubs; i++)
            model_free_sub_locked(c->subs[i]);
        acl_free(c->subs);
        (void)devmem_free(c->word, true);
        obj_recycle(&c->hdr);
    }
}

void cond_each_sub(struct model *m, void (*fn)(struct model *))
{
    for (struct list *pos = m->conds.next; pos != &m->conds; pos = pos->next) {
        struct cond *c = ACLCPU_CONTAINER_OF(pos, struct cond, link);
        for (uint32_t i = 0; i < c->nsubs; i++)
            fn(c->subs[i]);
    }
}

bool cond_sub_capturing(const struct model *m)
{
    capture_assert_held();
    for (const struct list *pos = m->conds.next; pos != &m->conds; pos = pos->next) {
        const struct cond *c = ACLCPU_CONTAINER_OF(pos, const struct cond, link);
        for (uint32_t i = 0; i < c->nsubs; i++)
            if (c->subs[i]->state == MODEL_CAPTURING || cond_sub_capturing(c->subs[i]))
                return true;
    }
    return false;
}

aclError cond_add_task(const char *fn, struct cond *c, const void *handle, struct stream *s, const void *stream,
                       int type, uint32_t size, void **out)
{
    struct context *ctx = ctx_current();
    struct lane *l;
    struct task *t;
    aclError err = ACL_SUCCESS;
    capture_enter();
    l = s->rec_lane;
    /* api_impl_aclgraph.cc StreamAddCondTaskParasCheck, in its order. */
    /* Acquire: as obj_same; a model being destroyed takes no more sub
     * models (its destroy walks them without the lock). */
    if (!obj_same(&c->hdr, handle) || !load_acquire(&c->m->hdr.live))
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'params.handle' was destroyed meanwhile", fn);
    else if (c->type >= 0)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'params.handle' already has its conditional task "
                       "(make a new condition for another)", fn);
    else if (ctx == NULL)
        err = ctx_missing(fn);
    else if (stream_ctx(s) != ctx)
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context", fn,
                       load_relaxed(&s->id));
    else if (l == NULL || l->m->state != MODEL_CAPTURING)
        err = acl_fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "%s: argument 'stream': stream %d is not being captured", fn,
                       load_relaxed(&s->id));
    else if (l->m != c->m)
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'params.handle' belongs to another model than the "
                       "one stream %d is captured into", fn, load_relaxed(&s->id));
    else if ((type == ACL_MODEL_RI_COND_TYPE_IF && size != 1 && size != 2) ||
             (type == ACL_MODEL_RI_COND_TYPE_WHILE && size != 1) || (type == ACL_MODEL_RI_COND_TYPE_SWITCH && size == 0))
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'params.size' (%u) does not fit the type: IF takes "
                       "1 or 2 sub models, WHILE 1, SWITCH 1 or more", fn, size);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_COND, &t);
    if (err == ACL_SUCCESS) {
        memset(&t->u.cond, 0, sizeof(t->u.cond));
        t->u.cond.c = c;
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t); /* recorded into the capture */
    }
    if (err == ACL_SUCCESS) {
        err = cond_add_subs(c, type, size, out);
        if (err != ACL_SUCCESS)
            err = acl_fail(err, "%s: out of memory for the sub models", fn);
        /* The task stays, with no sub model: it runs nothing. */
    }
    capture_leave();
    return err;
}
