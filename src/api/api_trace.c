/*
 * api_trace.c - trace points in a stream (aclrtProfTrace) and the kernels'
 * hardware sync address (aclrtGetHardwareSyncAddr).
 *
 * A trace point is the runtime's PROFILER_TRACE_EX task (api_c.cc
 * rtsProfTrace, api_impl.cc ProfilerTraceEx): here a TASK_MARK whose text
 * names the record's id, model id and tag, which a running profile shows
 * as a mark and which otherwise does nothing. The sync address is the
 * device's C2C control register on A2 and A3 (api_c_kernel.cc
 * rtsGetHardwareSyncAddr, api_impl.cc GetC2cCtrlAddr): here a zeroed
 * 4 KiB area per device id, static, so it outlives any reset and every
 * kernel of the process sees the same one.
 *
 * Threads: any host thread. Locks: none here (stream_submit's).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "api_int.h"

/* The record rtsProfTrace copies the user's bytes into (packed: 18 bytes). */
#define TRACE_RECORD_SIZE 18

static _Alignas(64) unsigned char sync_area[ACLCPU_MAX_DEVICES][4096];

ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream)
{
    const char *fn = "aclrtProfTrace";
    unsigned char rec[TRACE_RECORD_SIZE] = {0};
    uint64_t id, model;
    uint16_t tag;
    struct stream *s;
    struct task *t;
    aclError err;

    if (userdata == NULL)
        return null_arg(fn, "userdata");
    if (length <= 0 || length > TRACE_RECORD_SIZE)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'length' (%d) must be in (0, %d], the bytes of "
                        "the trace record {id, modelId, tagId}", fn, (int)length, TRACE_RECORD_SIZE);
    memcpy(rec, userdata, (size_t)length);
    memcpy(&id, rec, sizeof(id));
    memcpy(&model, rec + 8, sizeof(model));
    memcpy(&tag, rec + 16, sizeof(tag));
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS || (err = task_stream(fn, stream, &s)) != ACL_SUCCESS ||
        (err = stream_task_new(fn, TASK_MARK, &t)) != ACL_SUCCESS)
        return err;
    (void)snprintf((char *)t->inline_args, TASK_INLINE_ARGS, "trace id=%" PRIu64 " model=%" PRIu64 " tag=%u", id,
                   model, (unsigned)tag);
    t->u.mark.msg = (const char *)t->inline_args;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void **addr)
{
    const char *fn = "aclrtGetHardwareSyncAddr";
    const struct soc_profile *soc = soc_configured();
    struct context *ctx;
    aclError err;

    if (addr == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'addr' is NULL", fn);
    if (soc->family != SOC_A2 && soc->family != SOC_A3)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no inter-core sync register (A2 and A3 have)",
                        fn, soc->name);
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    *addr = sync_area[ctx->dev->id];
    return ACL_SUCCESS;
}
