/*
 * api_cntnotify.c - counting notifies (aclrtCntNotify*) and
 * aclrtNotifyBatchReset.
 *
 * A counting notify is core/event.c's notify with a 32-bit count: its
 * records and resets are TASK_NOTIFY_RECORD tasks that set, add, OR or
 * AND the count, its waits TASK_NOTIFY_WAIT tasks that park their stream
 * until the count passes their test (event.c's DESIGN note). The checks
 * follow the reference's only implementation, the Ascend 950's
 * (api_david.cc rtCntNotify*, rtsCntNotify*; api_error_standard_soc.cc
 * CntNotify*; api_impl_david.cc CntNotify*); every other product's build
 * answers 207000 before looking at anything (api_c_stub.cc), after the
 * ACL layer's own NULL checks (notify.cpp).
 *
 * Threads: any host thread. Locks: none of its own.
 */
#include "api_int.h"

static const struct soc_profile *soc_here(void)
{
    struct context *ctx = ctx_current();
    return ctx != NULL ? ctx->dev->soc : soc_configured();
}

static aclError cnt_supported(const char *fn)
{
    const struct soc_profile *soc = soc_here();
    if (soc->family == SOC_950)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no counting notifies (the Ascend 950 does)", fn,
                    soc->name);
}

/* The C entry's handle check: a non-NULL handle must name a live counting
 * notify (107017); NULL is told by api_error's check after the stream's. */
static aclError cnt_handle(const char *fn, aclrtCntNotify h, struct event **out)
{
    *out = NULL;
    if (h == NULL)
        return ACL_SUCCESS;
    *out = (struct event *)obj_resolve(h, OBJ_CNT_NOTIFY);
    if (*out != NULL)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: argument 'cntNotify' (%p) is not a live counting notify: "
                    "destroyed, never created, or not a counting notify", fn, h);
}

static aclError cnt_null(const char *fn)
{
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cntNotify' is NULL", fn);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag)
{
    const char *fn = "aclrtCntNotifyCreate";
    struct context *ctx;
    struct event *n;
    aclError err = cnt_supported(fn);
    if (err != ACL_SUCCESS)
        return err;
    if (flag != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'flag' (%llu) is reserved and must be 0", fn,
                        (unsigned long long)flag);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (cntNotify == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cntNotify' is NULL", fn);
    if ((err = cnt_notify_create(ctx, &n)) != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory", fn);
    *cntNotify = obj_handle(&n->hdr);
    return ACL_SUCCESS;
}

/* A destroy while streams wait on it: the handle dies at once; the waits
 * keep the memory until they end (their timeout, or a destroy of their
 * stream), as a plain notify's do. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify)
{
    const char *fn = "aclrtCntNotifyDestroy";
    struct event *n;
    aclError err = cnt_supported(fn);
    if (err == ACL_SUCCESS)
        err = cnt_handle(fn, cntNotify, &n);
    if (err != ACL_SUCCESS)
        return err;
    if (n == NULL)
        return cnt_null(fn);
    if (event_destroy(n, cntNotify) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: another thread destroyed the counting notify first", fn);
    return ACL_SUCCESS;
}

/* The common part of a record, reset or wait: the 950, the notify's and
 * the stream's handles (107017), the NULL notify (107000), then (after
 * the caller's own checks, in `checks`) a current context (107002), NULL
 * meaning its default stream, and a stream of that context (107003). */
struct cnt_call {
    struct event *n;
    struct stream *s;
};

static aclError cnt_prepare(const char *fn, aclrtCntNotify h, aclrtStream stream, struct cnt_call *c)
{
    aclError err = cnt_supported(fn);
    if (err == ACL_SUCCESS)
        err = cnt_handle(fn, h, &c->n);
    if (err == ACL_SUCCESS)
        err = stream_handle_get(fn, stream, &c->s);
    if (err == ACL_SUCCESS && c->n == NULL)
        err = cnt_null(fn);
    return err;
}

static aclError cnt_queue(const char *fn, aclrtCntNotify h, aclrtStream stream, struct cnt_call *c,
                          enum task_kind kind, uint8_t mode, uint32_t value, bool clear, uint32_t timeout_ms)
{
    struct task *t;
    aclError err = task_stream_of(fn, &c->s);
    if (err == ACL_SUCCESS && load_relaxed(&c->n->dev) != load_relaxed(&c->s->dev))
        err = acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: the counting notify belongs to device %d but stream %d to "
                       "device %d", fn, load_relaxed(&c->n->dev)->id, load_relaxed(&c->s->id),
                       load_relaxed(&c->s->dev)->id);
    if (err == ACL_SUCCESS)
        err = stream_task_new(fn, kind, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.event.ev = c->n;
    t->u.event.timeout_ms = timeout_ms;
    t->u.event.cnt_mode = mode;
    t->u.event.cnt_value = value;
    t->u.event.cnt_clear = clear;
    if (kind == TASK_NOTIFY_WAIT)
        t->u.event.gen = cnt_cond(mode, value, clear);
    return stream_submit(&(struct submit){.fn = fn, .stream = stream, .event = h}, c->s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                                                  aclrtCntNotifyRecordInfo *info)
{
    const char *fn = "aclrtCntNotifyRecord";
    struct cnt_call c;
    aclError err;
    if (info == NULL)
        return null_arg(fn, "info");
    if ((err = cnt_prepare(fn, cntNotify, stream, &c)) != ACL_SUCCESS)
        return err;
    if ((unsigned)info->mode > ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE || (unsigned)info->mode == 3)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info->mode' (%d) must be SET_VALUE (0), ADD (1), "
                        "BIT_OR (2) or BIT_AND (4)", fn, (int)info->mode);
    return cnt_queue(fn, cntNotify, stream, &c, TASK_NOTIFY_RECORD, (uint8_t)info->mode, info->value, false, 0);
}

/* The timeout is in seconds, 0 waiting forever (docs/zh/api_ref/25-04
 * aclrtCntNotifyWaitInfo); a wait still parked when it runs out fails
 * with 107019, which the next sync returns. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                           aclrtCntNotifyWaitInfo *info)
{
    const char *fn = "aclrtCntNotifyWaitWithTimeout";
    struct cnt_call c;
    uint32_t ms;
    aclError err;
    if (info == NULL)
        return null_arg(fn, "info");
    if ((err = cnt_prepare(fn, cntNotify, stream, &c)) != ACL_SUCCESS)
        return err;
    if ((unsigned)info->mode > ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'info->mode' (%d) must be in [0, 5)", fn,
                        (int)info->mode);
    ms = info->timeout > UINT32_MAX / 1000u ? UINT32_MAX : info->timeout * 1000u;
    return cnt_queue(fn, cntNotify, stream, &c, TASK_NOTIFY_WAIT, (uint8_t)info->mode, info->value,
                     info->isClear != 0, ms);
}

/* A record that sets the count to 0 (api_impl_david.cc CntNotifyReset). */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream)
{
    const char *fn = "aclrtCntNotifyReset";
    struct cnt_call c;
    aclError err = cnt_prepare(fn, cntNotify, stream, &c);
    if (err != ACL_SUCCESS)
        return err;
    return cnt_queue(fn, cntNotify, stream, &c, TASK_NOTIFY_RECORD, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 0,
                     false, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId)
{
    const char *fn = "aclrtCntNotifyGetId";
    struct event *n;
    aclError err = cnt_supported(fn);
    if (err == ACL_SUCCESS)
        err = cnt_handle(fn, cntNotify, &n);
    if (err != ACL_SUCCESS)
        return err;
    if (n == NULL)
        return cnt_null(fn);
    if (notifyId == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'notifyId' is NULL", fn);
    *notifyId = (uint32_t)load_relaxed(&n->id);
    return ACL_SUCCESS;
}

/* ---- aclrtNotifyBatchReset ------------------------------------------------------ */

/* notify.cpp: notifies (100000); api_c_event.cc rtsNotifyBatchReset: num,
 * as 32 bits, not 0 (107000); then rtNotifyReset on each in turn, which
 * stops at the first failure (those before it stay reset): the product
 * (A2, A3, 950: RT_FEATURE_NOTIFY_RESET, else 207000), the handle (107017,
 * NULL 107000), a current context (107002). */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
    const char *fn = "aclrtNotifyBatchReset";
    uint32_t n32 = (uint32_t)num;
    if (notifies == NULL)
        return null_arg(fn, "notifies");
    if (n32 == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'num' (%zu) must be in (0, 2^32) (it is taken as "
                        "32 bits)", fn, num);
    for (uint32_t i = 0; i < n32; i++) {
        const struct soc_profile *soc = soc_here();
        struct context *ctx;
        struct event *n;
        aclError err;
        if (soc->family != SOC_A2 && soc->family != SOC_A3 && soc->family != SOC_950)
            return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s cannot reset notifies (A2, A3 and 950 can)", fn,
                            soc->name);
        n = notifies[i] == NULL ? NULL : (struct event *)obj_resolve(notifies[i], OBJ_NOTIFY);
        if (notifies[i] != NULL && n == NULL)
            return acl_fail(ACL_ERROR_RT_INVALID_HANDLE, "%s: 'notifies[%u]' (%p) is not a live notify", fn, i,
                            notifies[i]);
        if (n == NULL)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: 'notifies[%u]' is NULL", fn, i);
        if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
            return err;
        notify_reset(n);
    }
    return ACL_SUCCESS;
}
