/*
 * label.c - labels and label lists (aclrtCreateLabel, aclrtCreateLabelList,
 * aclrtSetLabel): the objects, and where a label switch lands.
 *
 * DESIGN: on the device a label list is a table the runtime fills when a
 * label is set (the label's queue and position), and a switch by index
 * reads the table when it runs. Here a label's set is a TASK_LABEL_SET
 * recorded in its model stream's lane, naming the list (by handle) and the
 * label's place in it; a switch looks for that record in its own lane when
 * it runs (label_find_set). Nothing then points at a lane from outside, so
 * destroying a label, its list, a lane or the model leaves nothing
 * dangling; a label destroyed after its set still marks the place, as the
 * device's table still does.
 *
 * Threads: host threads (API); executors read lanes in label_find_set
 * (lanes are closed by then: aclmdlRIBuildEnd published them). Locks:
 * label_lock (a leaf, see lockrank.h: LOCK_LABEL) guards the live-label
 * count and the labels' list and stream fields; label_set_locked runs
 * under capture_lock and takes label_lock inside it.
 */
#include <string.h>

#include "model.h"

/* The runtime's process-wide label ids (runtime.cc InitLabelAllocator: a
 * 16-bit allocator of 65535). */
#define LABEL_MAX 65535u

static plat_mutex label_lock;
static uint32_t live_labels; /* under label_lock */
static uint64_t list_checks; /* under label_lock: numbers each list's check of its labels */

__attribute__((constructor)) static void label_init(void) { plat_mutex_init(&label_lock, LOCK_LABEL); }

aclError label_create(struct context *ctx, struct label **out)
{
    bool fresh, room;
    struct label *lb;
    plat_mutex_lock(&label_lock);
    room = live_labels < LABEL_MAX;
    if (room)
        live_labels++;
    plat_mutex_unlock(&label_lock);
    if (!room)
        return ACL_ERROR_RT_INTERNAL_ERROR; /* RT_ERROR_LABEL_ID */
    lb = obj_create(OBJ_LABEL, sizeof(*lb), offsetof(struct label, ctx), &fresh);
    if (lb == NULL) {
        plat_mutex_lock(&label_lock);
        live_labels--;
        plat_mutex_unlock(&label_lock);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    (void)fresh;
    lb->ctx = ctx;
    obj_publish(&lb->hdr);
    *out = lb;
    return ACL_SUCCESS;
}

aclError label_destroy(struct label *lb, const void *handle)
{
    plat_mutex_lock(&label_lock);
    if (!obj_same(&lb->hdr, handle)) { /* destroyed by another thread meanwhile */
        plat_mutex_unlock(&label_lock);
        return ACL_ERROR_RT_INVALID_HANDLE;
    }
    obj_kill(&lb->hdr);
    live_labels--;
    plat_mutex_unlock(&label_lock);
    obj_recycle(&lb->hdr);
    return ACL_SUCCESS;
}

aclError label_list_create(struct context *ctx, struct label **labels, const void *const *handles, uint32_t n,
                           struct label_list **out, uint32_t *bad)
{
    bool fresh;
    struct label_list *ll = obj_create(OBJ_LABELLIST, sizeof(*ll), offsetof(struct label_list, ctx), &fresh);
    aclError err = ACL_SUCCESS;
    if (ll == NULL)
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    (void)fresh;
    ll->ctx = ctx;
    ll->n = n;
    plat_mutex_lock(&label_lock);
    /* Every label first (nothing changes on a refusal), then the joins. A
     * label met twice by this check is in the list twice: one pass, not a
     * search of the labels before it (a full list has 65535). */
    list_checks++;
    for (uint32_t i = 0; i < n && err == ACL_SUCCESS; i++) {
        if (!obj_same(&labels[i]->hdr, handles[i]))
            err = ACL_ERROR_RT_INVALID_HANDLE; /* destroyed meanwhile */
        else if (labels[i]->list != NULL || labels[i]->checked_in == list_checks)
            err = ACL_ERROR_RT_INTERNAL_ERROR; /* RT_ERROR_SAME_LABELS_IN_SWITCH */
        else
            labels[i]->checked_in = list_checks;
        if (err != ACL_SUCCESS)
            *bad = i;
    }
    if (err == ACL_SUCCESS) {
        for (uint32_t i = 0; i < n; i++) {
            labels[i]->list = obj_handle(&ll->hdr);
            labels[i]->index = i;
        }
    }
    plat_mutex_unlock(&label_lock);
    if (err != ACL_SUCCESS) {
        obj_kill(&ll->hdr);
        obj_recycle(&ll->hdr);
        return err;
    }
    obj_publish(&ll->hdr);
    *out = ll;
    return ACL_SUCCESS;
}

void label_list_destroy(struct label_list *ll)
{
    obj_kill(&ll->hdr);
    obj_recycle(&ll->hdr);
}

aclError label_set_locked(const char *fn, struct label *lb, const void *label, struct stream *s, const void *stream)
{
    capture_assert_held();
    struct task *t;
    const void *list;
    uint32_t index;
    aclError err = ACL_SUCCESS;
    /* label.cc Label::Set / label_starsv2.cc CondLabelSet, after the
     * model check the caller made: another stream, set before, no list. */
    plat_mutex_lock(&label_lock);
    if (!obj_same(&lb->hdr, label))
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'label' was destroyed meanwhile", fn);
    else if (lb->stream != NULL && lb->stream != stream)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'label' is already set on another stream", fn);
    else if (lb->stream != NULL)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'label' is already set (a label is set once)", fn);
    else if (lb->list == NULL)
        err = acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: argument 'label' is in no label list: put it in one with "
                       "aclrtCreateLabelList before setting it", fn);
    list = lb->list;
    index = lb->index;
    plat_mutex_unlock(&label_lock);
    if (err != ACL_SUCCESS)
        return err;
    err = stream_task_new(fn, TASK_LABEL_SET, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.label.list = list;
    t->u.label.ptr = NULL;
    t->u.label.max = 0;
    t->u.label.index = index;
    err = stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t); /* recorded into the lane */
    if (err != ACL_SUCCESS)
        return err;
    s->model->nlabels++;
    plat_mutex_lock(&label_lock);
    if (obj_same(&lb->hdr, label))
        lb->stream = stream;
    plat_mutex_unlock(&label_lock);
    return ACL_SUCCESS;
}

struct task *label_find_set(const struct lane *l, const void *list, uint32_t index)
{
    for (struct task *t = task_next(&l->head); t != NULL; t = task_next(t))
        if (t->kind == TASK_LABEL_SET && t->u.label.list == list && t->u.label.index == index)
            return t;
    return NULL;
}
