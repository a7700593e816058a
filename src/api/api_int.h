/*
 * api_int.h - helpers the API files share (src/api only). The runtime's
 * own functions are declared by core.h, model.h and engine.h.
 */
#ifndef ACLCPU_API_INT_H
#define ACLCPU_API_INT_H

#include "../core/core.h"
#include "../core/model.h"
#include "../engine/engine.h"

/* Records "fn: argument 'arg' is NULL" and returns 100000. Inline, so the
 * compiler sees that the code it returns is never ACL_SUCCESS. */
static inline aclError null_arg(const char *fn, const char *arg)
{
    (void)acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument '%s' is NULL", fn, arg);
    return ACL_ERROR_INVALID_PARAM;
}

/* The start every stream getter shares: its out-pointer (named arg) must
 * not be NULL, then the stream handle resolves. */
static inline aclError getter_stream(const char *fn, aclrtStream stream, const void *out, const char *arg,
                                     struct stream **s)
{
    return out == NULL ? null_arg(fn, arg) : stream_resolve(fn, stream, s);
}

/* ---- device allocations (api_memory_variants.c) --------------------------- */

/* aclrtMalloc and its variants, named fn: the reference's checks, then a
 * block of the current device with 32 bytes of padding if `padding` and
 * the policy is not a 1 GiB-page one. */
aclError malloc_device(const char *fn, void **devPtr, size_t size, aclrtMemMallocPolicy policy, bool padding);

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

/* ---- core limits (api_reslimit.c) ----------------------------------------- */

/* The cores of type (0 cube, 1 vector) the calling thread may use on d:
 * its bound stream's limit, else the device's, else the hardware's. */
uint32_t reslimit_in_force(struct device *d, int type);
/* Both types at once (cube in out[0], vector in out[1]), for launches. */
void reslimits_in_force(struct device *d, uint32_t out[2]);

#endif
