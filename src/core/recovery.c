/*
 * recovery.c - a device's state callbacks and its task abort.
 *
 * DESIGN: two tables of named callbacks, as the reference keeps them
 * (device_state_callback_manager.cc; runtime.cc SetTaskAbortCallBack): a
 * name registers once (again: 107000), a NULL callback removes the name
 * (removing one that is not there succeeds). Device state callbacks are
 * called in registration order; task abort callbacks in the order of
 * their names (the reference's std::map). Callbacks are copied out under
 * rcb_lock and called with no lock held, so they may call the API.
 *
 * device_task_abort follows ContextManage::DeviceTaskAbort: list the
 * device's contexts (none: 107002), tell the callbacks PRE, stop every
 * task (each stream of each context: the running kernel at its next
 * block, the queued tasks dropped, engine_abort_stream; each model run,
 * replay_abort), tell the callbacks POST, then clean up (the contexts'
 * STOP failures are forgotten, the streams take work again). The timeout
 * is checked between the steps with what is left handed to the callbacks
 * (0: no limit). A callback's non-zero return ends the abort with that
 * value as the code (the reference passes codes below its own range
 * through, "for callbacks"); a value from the runtime's range (0x07000000
 * up) is 507000.
 *
 * A stream or context destroyed during the abort is passed over (its
 * handle no longer matches); a stream destroyed and made again in that
 * window would be aborted as well.
 *
 * Threads: any host thread. Locks: rcb_lock (LOCK_RECOVERY_CB, taken
 * alone); the abort takes the admin lock to list contexts, capture_lock
 * to abort model runs (with each context's lock to list its models), and
 * none while it calls callbacks or stops streams.
 */
#include "core.h"
#include "model.h"
#include "../engine/engine.h"

#define RCB_MAX 64
#define RCB_NAME 128
#define RT_ERRORCODE_RANGE 0x07000000 /* the reference's inner codes start here */

struct named_cb {
    char name[RCB_NAME];
    void (*fn)(void);
    void *args;
};

struct cb_table {
    struct named_cb e[RCB_MAX];
    unsigned n;
};

static plat_mutex rcb_lock;
static struct cb_table devstate_cbs; /* under rcb_lock */
static struct cb_table abort_cbs;    /* under rcb_lock */

__attribute__((constructor)) static void recovery_init(void) { plat_mutex_init(&rcb_lock, LOCK_RECOVERY_CB); }

static aclError table_register(const char *fn, struct cb_table *t, const char *name, void (*cb)(void), void *args)
{
    aclError err = ACL_SUCCESS;
    unsigned i;
    plat_mutex_lock(&rcb_lock);
    for (i = 0; i < t->n; i++)
        if (strcmp(t->e[i].name, name) == 0)
            break;
    if (cb == NULL) {
        if (i < t->n) {
            memmove(&t->e[i], &t->e[i + 1], (t->n - i - 1) * sizeof(t->e[0]));
            t->n--;
        }
    } else if (i < t->n) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'regName' (\"%s\") is registered already; remove "
                       "it with a NULL callback first", fn, name);
    } else if (t->n == RCB_MAX || strlen(name) >= RCB_NAME) {
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: aclcpu keeps at most %d callbacks, with names under %d bytes",
                       fn, RCB_MAX, RCB_NAME);
    } else {
        strcpy(t->e[t->n].name, name);
        t->e[t->n].fn = cb;
        t->e[t->n].args = args;
        t->n++;
    }
    plat_mutex_unlock(&rcb_lock);
    return err;
}

static unsigned table_copy(struct cb_table *t, struct named_cb *out)
{
    unsigned n;
    plat_mutex_lock(&rcb_lock);
    n = t->n;
    memcpy(out, t->e, n * sizeof(out[0]));
    plat_mutex_unlock(&rcb_lock);
    return n;
}

/* ---- device state ------------------------------------------------------------- */

aclError devstate_register(const char *fn, const char *name, aclrtDeviceStateCallback cb, void *args)
{
    return table_register(fn, &devstate_cbs, name, (void (*)(void))cb, args);
}

void devstate_notify(int32_t device, aclrtDeviceState state)
{
    struct named_cb copy[RCB_MAX];
    unsigned n = table_copy(&devstate_cbs, copy);
    for (unsigned i = 0; i < n; i++)
        ((aclrtDeviceStateCallback)copy[i].fn)(device, state, copy[i].args);
}

/* ---- device task abort ---------------------------------------------------------- */

aclError taskabort_register(const char *fn, const char *name, aclrtDeviceTaskAbortCallback cb, void *args)
{
    return table_register(fn, &abort_cbs, name, (void (*)(void))cb, args);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct named_cb *)a)->name, ((const struct named_cb *)b)->name);
}

static aclError tell_abort(const char *fn, int32_t device, aclrtDeviceTaskAbortStage stage, uint32_t left)
{
    struct named_cb copy[RCB_MAX];
    unsigned n = table_copy(&abort_cbs, copy);
    qsort(copy, n, sizeof(copy[0]), by_name);
    for (unsigned i = 0; i < n; i++) {
        int32_t ret = ((aclrtDeviceTaskAbortCallback)copy[i].fn)(device, stage, left, copy[i].args);
        if (ret != 0) {
            aclError code = ret >= RT_ERRORCODE_RANGE ? ACL_ERROR_RT_INTERNAL_ERROR : ret;
            return acl_fail(code, "%s: the abort callback \"%s\" returned %d at %s", fn, copy[i].name, ret,
                            stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? "PRE" : "POST");
        }
    }
    return ACL_SUCCESS;
}

/* The device's contexts and their handles, under the admin lock (one
 * allocation: free ctxs). */
static aclError list_contexts(const char *fn, struct device *d, struct context ***ctxs, void ***handles, size_t *n)
{
    struct list *pos;
    size_t i = 0;
    admin_enter();
    *n = 0;
    list_for_each(pos, &d->contexts) (*n)++;
    if (*n == 0) {
        admin_leave();
        return acl_fail(ACL_ERROR_RT_CONTEXT_NULL, "%s: device %d has no context (aclrtSetDevice or "
                        "aclrtCreateContext first)", fn, d->id);
    }
    *ctxs = acl_malloc(*n * (sizeof(**ctxs) + sizeof(**handles)));
    if (*ctxs == NULL) {
        admin_leave();
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    }
    *handles = (void **)(*ctxs + *n);
    list_for_each(pos, &d->contexts) {
        (*ctxs)[i] = ACLCPU_CONTAINER_OF(pos, struct context, dev_link);
        (*handles)[i] = obj_handle(&(*ctxs)[i]->hdr);
        i++;
    }
    admin_leave();
    return ACL_SUCCESS;
}

/* Stops the model runs of ctx, as aclmdlRIAbort does for one. */
static aclError abort_models(const char *fn, struct context *ctx)
{
    struct model **list;
    size_t n = 0, cap = 0;
    struct list *pos;
    capture_enter();
    plat_mutex_lock(&ctx->lock);
    list_for_each(pos, &ctx->models) cap++;
    /* Allocated under ctx->lock (a mutex): the list must not change between
     * the count and the copy. replay_abort takes model locks, which come
     * before ctx->lock in the lock order: it runs after the unlock. */
    list = acl_malloc((cap != 0 ? cap : 1) * sizeof(*list));
    if (list != NULL) {
        list_for_each(pos, &ctx->models) {
            struct model *m = ACLCPU_CONTAINER_OF(pos, struct model, ctx_link);
            if (m->kind != MODEL_CAPTURED && m->state == MODEL_READY)
                list[n++] = m;
        }
    }
    plat_mutex_unlock(&ctx->lock);
    /* capture_lock is held: none of them can be destroyed meanwhile. */
    for (size_t i = 0; i < n; i++)
        replay_abort(list[i]);
    capture_leave();
    acl_free(list);
    if (list == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    return ACL_SUCCESS;
}

static aclError abort_streams(const char *fn, struct context *ctx)
{
    void **handles = NULL;
    size_t n = 0;
    struct stream **list = stream_list_of(ctx, &handles, &n);
    if (list == NULL)
        return acl_fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "%s: out of host memory", fn);
    for (size_t i = 0; i < n; i++) {
        if (!obj_same(&list[i]->hdr, handles[i]) || list[i]->model != NULL)
            continue; /* destroyed meanwhile, or a model's: its runs were aborted */
        engine_abort_stream(list[i]);
    }
    acl_free(list);
    return ACL_SUCCESS;
}

/* What is left of timeout_ms after the time since t0; false if none is. */
static bool time_left(uint32_t timeout_ms, uint64_t t0, uint32_t *left)
{
    uint64_t spent = (plat_now_ns() - t0) / 1000000u;
    if (timeout_ms == 0) {
        *left = 0;
        return true;
    }
    if (spent > timeout_ms)
        return false;
    *left = timeout_ms - (uint32_t)spent;
    return true;
}

aclError device_task_abort(const char *fn, struct device *d, uint32_t timeout_ms)
{
    uint64_t t0 = plat_now_ns();
    struct context **ctxs = NULL;
    void **handles = NULL;
    size_t n = 0;
    uint32_t left = 0;
    aclError err = list_contexts(fn, d, &ctxs, &handles, &n);
    if (err != ACL_SUCCESS)
        return err;
    if (!time_left(timeout_ms, t0, &left))
        err = acl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, "%s: the abort took more than %u ms", fn, timeout_ms);
    if (err == ACL_SUCCESS)
        err = tell_abort(fn, d->id, ACL_RT_DEVICE_TASK_ABORT_PRE, left);
    for (size_t i = 0; i < n && err == ACL_SUCCESS; i++) {
        if (!obj_same(&ctxs[i]->hdr, handles[i]))
            continue;
        err = abort_models(fn, ctxs[i]);
        if (err == ACL_SUCCESS)
            err = abort_streams(fn, ctxs[i]);
    }
    if (err == ACL_SUCCESS && !time_left(timeout_ms, t0, &left))
        err = acl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, "%s: the abort took more than %u ms", fn, timeout_ms);
    if (err == ACL_SUCCESS)
        err = tell_abort(fn, d->id, ACL_RT_DEVICE_TASK_ABORT_POST, left);
    if (err == ACL_SUCCESS && !time_left(timeout_ms, t0, &left))
        err = acl_fail(ACL_ERROR_RT_WAIT_TIMEOUT, "%s: the abort took more than %u ms", fn, timeout_ms);
    for (size_t i = 0; i < n && err == ACL_SUCCESS; i++) {
        /* Relaxed: a status word (core.h); the device is clean again. */
        if (obj_same(&ctxs[i]->hdr, handles[i]))
            store_relaxed(&ctxs[i]->failure_error, ACL_SUCCESS);
    }
    acl_free(ctxs);
    return err;
}
