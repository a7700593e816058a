/*
 * context.c - contexts, the thread's current context, and the lifecycle of
 * devices (aclrtSetDevice/ResetDevice) and of the whole runtime.
 *
 * DESIGN: a context belongs to one device and owns a default stream, the
 * streams and events created in it. The current context is thread-local
 * and stored as a handle, so a context destroyed by another thread simply
 * stops resolving (107002) instead of dangling. Creating and destroying
 * contexts and devices is rare and serialised by admin_lock, which also
 * guards each device's context list and primary context.
 *
 * Threads: any host thread. Locks: admin_lock, context->lock, device->lock
 * (ranks: lockrank.h).
 */
#include <stdlib.h>

#include "../engine/engine.h"
#include "core.h"
#include "model.h"

static plat_mutex admin_lock;
/* The current context (read inline by ctx_current, core.h). */
_Thread_local void *tls_ctx_handle ACLCPU_TLS_HOT;
_Thread_local struct context *tls_ctx ACLCPU_TLS_HOT;

__attribute__((constructor)) static void context_init(void) { plat_mutex_init(&admin_lock, LOCK_ADMIN); }

void admin_enter(void) { plat_mutex_lock(&admin_lock); }
void admin_leave(void) { plat_mutex_unlock(&admin_lock); }
void admin_assert_held(void) { PLAT_ASSERT_HELD(&admin_lock); }

void ctx_set_current(struct context *ctx)
{
    tls_ctx_handle = ctx != NULL ? obj_handle(&ctx->hdr) : NULL;
    tls_ctx = ctx;
}

aclError ctx_missing(const char *fn)
{
    return acl_fail(ACL_ERROR_RT_CONTEXT_NULL,
                    "%s: the calling thread has no current context (call aclrtSetDevice, aclrtCreateContext or "
                    "aclrtSetCurrentContext in this thread first)",
                    fn);
}

/* Called with admin_lock held. */
void ctx_sysparam_set(struct context *ctx, uint32_t opt, int64_t value)
{
    /* The value first: a getter that sees the bit may still read the old
     * value, which a racing get may return anyway. */
    store_relaxed(&ctx->sysparam[opt], value);
    fetch_or_relaxed(&ctx->sysparam_set, 1u << opt);
}

bool ctx_sysparam_get(struct context *ctx, uint32_t opt, int64_t *value)
{
    if ((load_relaxed(&ctx->sysparam_set) & (1u << opt)) == 0)
        return false;
    *value = load_relaxed(&ctx->sysparam[opt]);
    return true;
}

aclError ctx_create(struct device *d, bool primary, struct context **out)
{
    bool fresh;
    struct context *ctx;
    aclError err;

    plat_mutex_lock(&d->lock);
    err = device_open(d);
    plat_mutex_unlock(&d->lock);
    if (err != ACL_SUCCESS)
        return err;
    ctx = obj_create(OBJ_CONTEXT, sizeof(*ctx), offsetof(struct context, dev), &fresh);
    if (ctx == NULL) {
        err = ACL_ERROR_RT_MEMORY_ALLOCATION;
        goto close_if_unused;
    }
    if (fresh)
        plat_mutex_init(&ctx->lock, LOCK_CONTEXT);
    ctx->dev = d;
    ctx->primary = primary;
    list_init(&ctx->streams);
    list_init(&ctx->events);
    list_init(&ctx->models);
    store_relaxed(&ctx->failure_mode, ACL_CONTINUE_ON_FAILURE);
    store_relaxed(&ctx->failure_error, ACL_SUCCESS);
    store_relaxed(&ctx->sysparam_set, 0);
    for (unsigned i = 0; i < ACLCPU_SYSPARAM_OPTS; i++)
        store_relaxed(&ctx->sysparam[i], 0);
    list_add_tail(&d->contexts, &ctx->dev_link);
    obj_publish(&ctx->hdr);
    /* The default stream carries FAST_LAUNCH and FAST_SYNC on the products
     * with a control queue (raw_device.cc, context.cc: the default stream's
     * flags), so aclrtStreamGetFlags(NULL) reports them there. */
    err = stream_create(ctx, 0, soc_has_ctrl_sq(d->soc) ? ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC : 0, true,
                        &ctx->default_stream);
    if (err != ACL_SUCCESS) {
        ctx_destroy(ctx);
        return err;
    }
    *out = ctx;
    return ACL_SUCCESS;

close_if_unused:
    plat_mutex_lock(&d->lock);
    if (list_empty(&d->contexts))
        device_close(d);
    plat_mutex_unlock(&d->lock);
    return err;
}

static struct stream *first_stream(struct context *ctx)
{
    struct stream *s = NULL;
    plat_mutex_lock(&ctx->lock);
    if (!list_empty(&ctx->streams))
        s = ACLCPU_CONTAINER_OF(ctx->streams.next, struct stream, ctx_link);
    plat_mutex_unlock(&ctx->lock);
    return s;
}

static struct event *first_event(struct context *ctx)
{
    struct event *ev = NULL;
    plat_mutex_lock(&ctx->lock);
    if (!list_empty(&ctx->events))
        ev = ACLCPU_CONTAINER_OF(ctx->events.next, struct event, ctx_link);
    plat_mutex_unlock(&ctx->lock);
    return ev;
}

/* Called with admin_lock held. Waits for each stream's work, then frees
 * streams (default stream last), events, and the context; closes the device
 * when no context is left on it. */
void ctx_destroy(struct context *ctx)
{
    struct device *d = ctx->dev;
    struct stream *s;
    struct event *ev;

    obj_kill(&ctx->hdr);
    model_destroy_all(ctx); /* their runs first: they use the context's streams */
    while ((s = first_stream(ctx)) != NULL) {
        if (s == ctx->default_stream && ctx->streams.next->next != &ctx->streams) {
            /* Move the default stream to the end: user streams go first. */
            plat_mutex_lock(&ctx->lock);
            list_del(&s->ctx_link);
            list_add_tail(&ctx->streams, &s->ctx_link);
            plat_mutex_unlock(&ctx->lock);
            continue;
        }
        stream_destroy(s, NULL, STREAM_END_WAIT);
    }
    while ((ev = first_event(ctx)) != NULL)
        if (event_destroy(ev, NULL) != ACL_SUCCESS)
            plat_thread_yield(); /* a user's destroy of it is under way: it unlinks it */
    plat_mutex_lock(&d->lock);
    list_del(&ctx->dev_link);
    if (d->primary == ctx) {
        d->primary = NULL;
        d->set_count = 0;
    }
    if (list_empty(&d->contexts))
        device_close(d);
    plat_mutex_unlock(&d->lock);
    obj_recycle(&ctx->hdr);
}

/* Called with admin_lock held: the device's primary context, made on first use. */
aclError device_primary(struct device *d, struct context **out)
{
    aclError err;
    if (d->primary != NULL) {
        *out = d->primary;
        return ACL_SUCCESS;
    }
    err = ctx_create(d, true, out);
    if (err == ACL_SUCCESS)
        d->primary = *out;
    return err;
}

/* Called with admin_lock held: ends every context of every device. */
void devices_shutdown(void)
{
    for (uint32_t i = 0; i < device_count(); i++) {
        struct device *d = device_get((int32_t)i);
        while (!list_empty(&d->contexts))
            ctx_destroy(ACLCPU_CONTAINER_OF(d->contexts.next, struct context, dev_link));
        d->set_count = 0;
    }
    ctx_set_current(NULL);
}

void ctx_note_overflow(struct context *ctx)
{
    /* Relaxed: kernels of several streams may set it at once; the status
     * tasks that copy and clear it (plain bytes, as device memory) are
     * ordered after the kernel by their stream or the program's events. */
    store_relaxed(&ctx->overflow_area.word, 1u);
}
