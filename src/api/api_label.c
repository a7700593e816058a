/*
 * api_label.c - labels: aclrtCreateLabel, aclrtSetLabel, aclrtDestroyLabel,
 * aclrtCreateLabelList, aclrtDestroyLabelList, aclrtSwitchLabelByIndex.
 *
 * DESIGN: checks in the reference's order: the acl layer's NULL checks
 * (label.cpp, 100000), the handles (api_c.cc / api_c_model.cc: 107017),
 * then api_error.cc and api_impl.cc (context, the label's and the stream's
 * contexts, the stream bound to a model). Labels live only in streams bound
 * to a model (aclmdlRIBindStream): a set is recorded in the stream's lane
 * and a switch by index jumps to it when a run reaches the switch
 * (core/label.c, engine/replay.c).
 *
 * Threads: any host thread. Locks: none here (core/label.c takes its own
 * and capture_lock).
 */
#include "api_int.h"

static aclError label_resolve(const char *fn, const void *h, struct label **out)
{
    *out = (struct label *)obj_resolve(h, OBJ_LABEL);
    if (*out == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'label' (%p) is not a live label: it was "
                        "destroyed, or never made by aclrtCreateLabel", fn, h);
    return ACL_SUCCESS;
}

/* The label must be of the current context (api_impl.cc: 507031). */
static aclError label_ctx_check(const char *fn, const struct label *lb, struct context *ctx)
{
    if (lb->ctx != ctx)
        return acl_fail(ACL_ERROR_RT_LABEL_CONTEXT, "%s: argument 'label' belongs to another context", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label)
{
    const char *fn = "aclrtCreateLabel";
    struct context *ctx;
    struct label *lb;
    aclError err;
    if (label == NULL)
        return null_arg(fn, "label");
    err = ctx_require(fn, &ctx); /* api_impl.cc LabelCreate */
    if (err != ACL_SUCCESS)
        return err;
    err = label_create(ctx, &lb);
    if (err == ACL_ERROR_RT_INTERNAL_ERROR)
        return acl_fail(err, "%s: all 65535 labels of the process are in use (destroy some)", fn);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of memory", fn);
    *label = obj_handle(&lb->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label)
{
    const char *fn = "aclrtDestroyLabel";
    struct context *ctx;
    struct label *lb;
    aclError err;
    if (label == NULL)
        return null_arg(fn, "label");
    err = label_resolve(fn, label, &lb);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = label_ctx_check(fn, lb, ctx);
    if (err != ACL_SUCCESS)
        return err;
    if (label_destroy(lb, label) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the label first", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList)
{
    const char *fn = "aclrtCreateLabelList";
    struct label **lbs;
    struct label_list *ll;
    struct context *ctx;
    uint32_t bad = 0;
    aclError err = ACL_SUCCESS;
    if (labels == NULL || labelList == NULL)
        return null_arg(fn, labels == NULL ? "labels" : "labelList");
    if (num == 0 || num > 65535) /* api_c_model.cc rtsLabelSwitchListCreate */
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'num' (%zu) must be in (0, 65535]", fn, num);
    lbs = acl_calloc(num, sizeof(*lbs));
    if (lbs == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of memory", fn);
    for (size_t i = 0; i < num && err == ACL_SUCCESS; i++) { /* every handle, before the context */
        lbs[i] = (struct label *)obj_resolve(labels[i], OBJ_LABEL);
        if (lbs[i] == NULL)
            err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'labels[%zu]' (%p) is not a live label", fn,
                           i, labels[i]);
    }
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx); /* api_impl.cc LabelSwitchListCreate */
    if (err == ACL_SUCCESS) {
        err = label_list_create(ctx, lbs, (const void *const *)labels, (uint32_t)num, &ll, &bad);
        if (err == ACL_ERROR_RT_INTERNAL_ERROR)
            err = acl_fail(err, "%s: argument 'labels[%u]' is already in a label list, or twice in this one (a "
                           "label joins one list)", fn, bad);
        else if (err == ACL_ERROR_RT_INVALID_HANDLE)
            err = acl_fail(err, "%s: argument 'labels[%u]' was destroyed meanwhile", fn, bad);
        else if (err != ACL_SUCCESS)
            err = acl_fail(err, "%s: out of memory", fn);
    }
    acl_free(lbs);
    if (err != ACL_SUCCESS)
        return err;
    *labelList = obj_handle(&ll->hdr);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList)
{
    const char *fn = "aclrtDestroyLabelList";
    struct label_list *ll;
    if (labelList == NULL)
        return null_arg(fn, "labelList");
    ll = (struct label_list *)obj_resolve(labelList, OBJ_LABELLIST);
    if (ll == NULL)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'labelList' (%p) is not a live label list: it "
                        "was destroyed, or never made by aclrtCreateLabelList", fn, labelList);
    label_list_destroy(ll);
    return ACL_SUCCESS;
}

/* The stream of a label call: bound to a model (107005; label.cc
 * Label::Set, api_impl.cc LabelSwitchByIndex). Called with capture_lock
 * held, as s->model is guarded by it. */
static aclError model_stream_check(const char *fn, struct stream *s)
{
    if (s->model == NULL)
        return acl_fail(ACL_ERROR_RT_STREAM_MODEL, "%s: argument 'stream': stream %d is not bound to a model "
                        "(labels live in the streams of models: aclmdlRIBindStream)", fn, load_relaxed(&s->id));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream)
{
    const char *fn = "aclrtSetLabel";
    struct context *ctx;
    struct label *lb;
    struct stream *s;
    aclError err;
    if (label == NULL || stream == NULL)
        return null_arg(fn, label == NULL ? "label" : "stream");
    err = label_resolve(fn, label, &lb);
    if (err == ACL_SUCCESS)
        err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = label_ctx_check(fn, lb, ctx);
    if (err == ACL_SUCCESS && stream_ctx(s) != ctx)
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context",
                       fn, load_relaxed(&s->id));
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    err = model_stream_check(fn, s);
    if (err == ACL_SUCCESS)
        err = label_set_locked(fn, lb, label, s, stream);
    capture_leave();
    return err;
}

ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream)
{
    const char *fn = "aclrtSwitchLabelByIndex";
    struct context *ctx;
    struct stream *s;
    struct task *t;
    aclError err;
    if (ptr == NULL || labelList == NULL || stream == NULL)
        return null_arg(fn, ptr == NULL ? "ptr" : labelList == NULL ? "labelList" : "stream");
    err = stream_lookup(fn, stream, &s);
    if (err == ACL_SUCCESS)
        err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS && stream_ctx(s) != ctx)
        err = acl_fail(ACL_ERROR_RT_STREAM_CONTEXT, "%s: argument 'stream': stream %d belongs to another context",
                       fn, load_relaxed(&s->id));
    if (err != ACL_SUCCESS)
        return err;
    capture_enter();
    err = model_stream_check(fn, s);
    /* The runtime takes the list as device memory it does not check; here
     * it is a handle, checked last (aclcpu's). */
    if (err == ACL_SUCCESS && obj_resolve(labelList, OBJ_LABELLIST) == NULL)
        err = acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'labelList' (%p) is not a live label list", fn,
                       labelList);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, TASK_LABEL_SWITCH, &t);
    if (err == ACL_SUCCESS) {
        t->u.label.list = labelList;
        t->u.label.ptr = ptr;
        t->u.label.max = maxValue;
        t->u.label.index = 0;
        err = stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t); /* recorded into the lane */
    }
    capture_leave();
    return err;
}
