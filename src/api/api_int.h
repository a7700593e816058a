/*
 * api_int.h - helpers the API files share (src/api only). The runtime's
 * own functions are declared by core.h, model.h and engine.h.
 */
#ifndef ACLCPU_API_INT_H
#define ACLCPU_API_INT_H

#include "../core/core.h"
#include "../core/model.h"
#include "../engine/engine.h"
#include "../core/check.h"

/* Records "fn: argument 'arg' is NULL" and returns 100000. Inline, so the
 * compiler sees that the code it returns is never ACL_SUCCESS. */
static inline aclError null_arg(const char *fn, const char *arg)
{
    (void)acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn, arg);
    return ACL_ERROR_INVALID_PARAM;
}

/* The start every stream getter shares: its out-pointer (named arg) must
 * not be NULL, then the stream handle resolves (the handle, then the
 * current context: stream_resolve). */
static inline aclError getter_stream(const char *fn, aclrtStream stream, const void *out, const char *arg,
                                     struct stream **s)
{
    return out == NULL ? null_arg(fn, arg) : stream_resolve(fn, stream, s);
}

/* ---- tasks on a stream (launches, host functions, cache operations) ------- */

/* A stream handle as the runtime's entry validates it, before the
 * argument checks: a non-NULL handle must be live (107017). */
static inline aclError stream_handle_live(const char *fn, aclrtStream stream)
{
    if (stream == NULL || obj_resolve_user(stream, OBJ_STREAM) != NULL)
        return ACL_SUCCESS;
    return stream_stale(fn, stream);
}

/* The same, keeping the stream it names for task_stream_of (*s NULL for
 * the default stream): a launch resolves its stream once. */
static inline aclError stream_handle_get(const char *fn, aclrtStream stream, struct stream **s)
{
    *s = stream == NULL ? NULL : (struct stream *)obj_resolve_user(stream, OBJ_STREAM);
    if (ACLCPU_LIKELY(stream == NULL || *s != NULL))
        return ACL_SUCCESS;
    return stream_stale(fn, stream);
}

/* The stream a task goes to, from one stream_handle_get gave (*s NULL:
 * the current context's default stream): a current context (107002), then
 * a stream of that context (107003). A stream destroyed since is refused
 * by the submit. */
static inline aclError task_stream_of(const char *fn, struct stream **s)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (ACLCPU_UNLIKELY(err != ACL_SUCCESS))
        return err;
    if (*s == NULL) {
        *s = ctx->default_stream;
        return ACL_SUCCESS;
    }
    if (ACLCPU_LIKELY(stream_ctx(*s) == ctx))
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_STREAM_CONTEXT,
                    "%s: argument 'stream' (stream %d) belongs to another context than the current one; make its "
                    "context current first",
                    fn, load_relaxed(&(*s)->id));
}

/* The stream a task goes to, once the arguments are checked: a current
 * context (107002), NULL meaning its default stream, a live handle
 * (107017), and a stream of that context (107003). */
static inline aclError task_stream(const char *fn, aclrtStream stream, struct stream **s)
{
    struct context *ctx;
    aclError err = ctx_require(fn, &ctx);
    if (err == ACL_SUCCESS)
        err = stream_resolve(fn, stream, s);
    return err == ACL_SUCCESS ? task_stream_of(fn, s) : err;
}

/* A stream priority as the reference clamps it: read as a signed 32-bit
 * value, below 0 is the highest (0), above the lowest is the lowest
 * (api_error.cc StreamCreate, SetStreamPriorityValue). */
static inline uint32_t clamp_priority(uint32_t priority)
{
    if ((int32_t)priority < 0)
        return 0;
    return priority > ACLCPU_PRIORITIES - 1 ? ACLCPU_PRIORITIES - 1 : priority;
}

/* ---- device allocations (api_memory_variants.c) --------------------------- */

/* aclrtMalloc and its variants, named fn: the reference's checks, then a
 * block of the current device with 32 bytes of padding if `padding` and
 * the policy is not a 1 GiB-page one. */
aclError malloc_device(const char *fn, void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool padding);

/* The frees behind aclrtFree(Host) and their ...WithDevSync forms (api_memory.c),
 * after the NULL check: device or managed memory (207002 if p starts no
 * live block); pinned host memory (107000 for device memory and freed
 * blocks, 207002 for other memory). */
aclError free_device_block(const char *fn, void *p);
aclError free_host_block(const char *fn, void *p);

/* ---- model run instances (api_model.c) ------------------------------------ */

/* Resolves a model handle for fn: 100000 if NULL, 107017 if not live. */
aclError model_resolve(const char *fn, const void *h, struct model **out);

/* ---- synchronisation (api_stream.c) --------------------------------------- */

/* How a sync of s ended, as the caller's code: the task error (noted in
 * the message log), or 107017 / 507000 / 107027 with a message naming why
 * (timeout in ms, -1 when untimed). */
aclError sync_outcome(const char *fn, struct stream *s, int32_t timeout, enum sync_result end, aclError task_err);
/* A blocking launch (ASCEND_RT_LAUNCH_BLOCKING) waits for s, named by
 * handle (NULL: a default stream), and returns what execution returned. */
aclError launch_wait(const char *fn, struct stream *s, const void *handle);

/* ---- copies (api_memory.c), shared with api_memcopy.c ---------------------- */

const char *memcpy_kind_name(aclrtMemcpyKind kind);
/* [p, p+n) is device memory when want_device; never runs past its block. */
aclError check_side(const char *fn, const char *arg, const void *p, size_t n, bool want_device, aclrtMemcpyKind kind);
/* The kinds aclrtMemcpy(Async) take (100000 for the others). */
aclError check_acl_kind(const char *fn, aclrtMemcpyKind kind);
/* The ACL layer's checks of a 1D copy: NULL dst, NULL src, the kind (100000). */
aclError check_copy_acl(const char *fn, void *dst, const void *src, aclrtMemcpyKind kind);
/* count > the bound named max_arg: 107000, the runtime's check. */
aclError check_count(const char *fn, size_t count, const char *max_arg, size_t max);
/* A non-NULL stream handle that is no live stream: 107017 (before the
 * runtime's argument checks; NULL is resolved with the context later). */
aclError stream_handle_first(const char *fn, aclrtStream stream);
/* HOST_TO_HOST on an async copy: 207000 in the host-driven run mode. */
aclError check_async_kind(const char *fn, aclrtMemcpyKind kind);
/* Each side of a checked 1D copy against what its kind says it is (107000). */
aclError check_copy_sides(const char *fn, void *dst, const void *src, size_t count, aclrtMemcpyKind kind);
/* An async copy whose host side is pageable memory (unsafe while capturing). */
bool touches_pageable(const void *dst, const void *src, size_t count, aclrtMemcpyKind kind);
/* The profile's direction of a copy (enum copy_dir). */
uint8_t copy_direction(aclrtMemcpyKind kind, const void *dst, const void *src, size_t count);
/* Queues a checked 1D copy on stream (dir: copy_direction's): the last
 * step of every async copy of a plain range. */
aclError queue_copy(const char *fn, aclrtStream stream, void *dst, const void *src, size_t count, uint8_t dir);
/* A 2D copy's limits, and the bytes each side spans. */
aclError check_2d_extent(const char *fn, size_t dpitch, size_t spitch, size_t width, size_t height, size_t *dspan,
                         size_t *sspan);

/* ---- core limits (api_reslimit.c) ----------------------------------------- */

/* The cores of type (0 cube, 1 vector) the calling thread may use on d:
 * its bound stream's limit, else the device's, else the hardware's. */
uint32_t reslimit_in_force(struct device *d, int type);
/* Both types at once (cube in out[0], vector in out[1]), for launches. */
void reslimits_in_force(struct device *d, uint32_t out[2]);

/* ---- aclInit / aclFinalize (api_runtime.c, api_sysinfo.c) ----------------- */

/* Whether aclInit is in force; if so, a copy of its configuration text
 * (NUL-terminated, from acl_malloc; NULL if out of memory) in *text. */
bool init_config_copy(char **text, size_t *len);
/* Whether aclInit is in force (api_runtime.c; takes the admin lock). */
bool acl_initialised(void);
/* Runs the aclInit callbacks in the reference's order of types (model,
 * op executor when a configuration path was given, DVPP, other) with the
 * configuration text; the first failure's code is returned. */
aclError initcb_run_init(const char *text, size_t len, bool has_path);
/* Runs the aclFinalize callbacks (op compiler, model, DVPP, other) for fn. */
aclError initcb_run_fini(const char *fn);

/* A sync or query in a context whose STOP mode tripped: the failure's code. */
/* The process's operator execution timeout in microseconds, 0 if none
 * (aclrtSetOpExecuteTimeOut*, api_funcs.c): a launch without its own
 * TIMEOUT attribute takes it. */
uint64_t op_execute_timeout_us(void);

aclError context_failed(const char *fn, struct context *ctx);

#endif
