/*
 * api_cmo.c - the cache tasks beyond aclrtCmoAsync (api_memory.c): with a
 * barrier id and waiting on barriers (the Atlas 200I/500 A2's), with a
 * descriptor in device memory (A2, A3, 950), and the L2 flush. The checks
 * are the ACL layer's (memory.cpp, kernel.cpp, device.cpp) then the
 * runtime's (api_c_memory.cc rtsCmoAsyncWithBarrier, rtsLaunchBarrierTask,
 * api_c_standard_soc.cc rtsGetCmoDescSize, rtsSetCmoDesc,
 * rtsLaunchCmoAddrTask, rtCmoTaskLaunch, rtBarrierTaskLaunch; api_error.cc
 * CmoTaskLaunch, CmoAddrTaskLaunch, BarrierTaskLaunch, SetCmoDesc), in
 * their order. The barrier and descriptor tasks exist only in a model
 * (the runtime refuses them elsewhere: cmo_task.cc, barrier_task.cc,
 * context.cc CmoAddrTaskLaunch), which stream_submit enforces with
 * submit.model_only; they are TASK_CMO records, which do nothing on a CPU.
 *
 * Threads: any host thread. Locks: none here (stream_submit's).
 */
#include <string.h>

#include "../services/devmem.h"
#include "api_int.h"

/* The runtime's operation codes are aclrtCmoType + 6: PREFETCH 6 .. FLUSH 9. */
#define RT_CMO_PREFETCH 6u
#define RT_CMO_INVALID 8u
#define RT_CMO_RESERVED 10u

/* The SoCs whose runtime takes the barrier tasks (RT_FEATURE_TASK_ASYNC_CMO). */
static bool soc_has_async_cmo(const struct soc_profile *soc) { return soc->family == SOC_200I500A2; }

/* The bytes of a cache descriptor (cmoDDRStructInfoSize): the 950's is
 * larger; 0 where the SoC has none. */
static size_t cmo_desc_size(const struct soc_profile *soc)
{
    if (!soc_has_cmo(soc))
        return 0;
    return soc->family == SOC_950 ? 64 : 32;
}

/* Where the source address and the 32-bit length sit in a descriptor of
 * that size (rtCmoAddrInfo and rtDavidCmoAddrInfo, both packed). */
static void cmo_desc_fields(size_t desc_size, size_t *src_at, size_t *len_at)
{
    *src_at = desc_size == 64 ? 32 : 16;
    *len_at = desc_size == 64 ? 48 : 12;
}

static aclError model_only_submit(const char *fn, aclrtStream stream, struct stream *s, void *addr, uint32_t size,
                                  uint8_t type)
{
    struct task *t;
    aclError err = stream_task_new(fn, TASK_CMO, &t);
    if (err != ACL_SUCCESS)
        return err;
    t->u.cmo.addr = addr;
    t->u.cmo.size = size;
    t->u.cmo.type = type;
    return stream_submit(&(struct submit){.fn = fn, .stream = stream, .model_only = true}, s, t);
}

ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                                      aclrtStream stream)
{
    const char *fn = "aclrtCmoAsyncWithBarrier";
    const struct soc_profile *soc = soc_configured();
    uint32_t op = (uint32_t)cmoType + RT_CMO_PREFETCH;
    struct stream *s;
    aclError err;

    if (src == NULL)
        return null_arg(fn, "src");
    if (!soc_has_async_cmo(soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache operations with barriers (the Atlas "
                        "200I/500 A2, Ascend310B1, has)", fn, soc->name);
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is 0; it must be greater than 0", fn);
    if (op == RT_CMO_INVALID && barrierId == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'barrierId' is 0; an INVALID operation needs a "
                        "barrier id above 0", fn);
    if (op != RT_CMO_INVALID && op >= RT_CMO_PREFETCH && op < RT_CMO_RESERVED && barrierId != 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'barrierId' is %u; only an INVALID operation takes "
                        "a barrier id (PREFETCH, WRITEBACK and FLUSH take 0)", fn, barrierId);
    if (op < RT_CMO_PREFETCH || op >= RT_CMO_RESERVED)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: argument 'cmoType' is %d; it must be an aclrtCmoType "
                        "(0..3)", fn, (int)cmoType);
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS || (err = task_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    return model_only_submit(fn, stream, s, src, (uint32_t)size, (uint8_t)cmoType);
}

ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag)
{
    const char *fn = "aclrtCmoWaitBarrier";
    const struct soc_profile *soc = soc_configured();
    struct stream *s;
    aclError err;

    (void)flag; /* reserved; nothing checks it */
    if (taskInfo == NULL)
        return null_arg(fn, "taskInfo");
    if (taskInfo->barrierNum == 0 || taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'taskInfo->barrierNum' is %zu; it must be in (0, %u]",
                        fn, taskInfo->barrierNum, ACL_RT_CMO_MAX_BARRIER_NUM);
    for (size_t i = 0; i < taskInfo->barrierNum; i++) {
        /* The ACL layer narrows the type to 16 bits before adding 6. */
        uint16_t op = (uint16_t)((uint16_t)taskInfo->cmoInfo[i].cmoType + RT_CMO_PREFETCH);
        if (op != RT_CMO_INVALID)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->cmoInfo[%zu].cmoType' is %d; a "
                            "barrier waits for INVALID operations only (ACL_RT_CMO_TYPE_INVALID)", fn, i,
                            (int)taskInfo->cmoInfo[i].cmoType);
        if (taskInfo->cmoInfo[i].barrierId == 0)
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'taskInfo->cmoInfo[%zu].barrierId' is 0; it "
                            "must not be 0", fn, i);
    }
    if (!soc_has_async_cmo(soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache barriers (the Atlas 200I/500 A2, "
                        "Ascend310B1, has)", fn, soc->name);
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS || (err = task_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    /* The barrier is kept as a cache task on no range: nothing to wait for on a CPU. */
    return model_only_submit(fn, stream, s, NULL, 0, ACL_RT_CMO_TYPE_INVALID);
}

ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size)
{
    const char *fn = "aclrtCmoGetDescSize";
    const struct soc_profile *soc = soc_configured();

    if (!soc_has_cmo(soc))
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache descriptors (A2, A3 and 950 do)", fn,
                        soc->name);
    if (size == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is NULL", fn);
    *size = cmo_desc_size(soc);
    return ACL_SUCCESS;
}

/* A descriptor's memory: desc_size bytes of device memory. */
static aclError check_cmo_desc(const char *fn, const void *cmoDesc, size_t desc_size)
{
    if (devmem_classify(cmoDesc, desc_size) == MEM_DEVICE)
        return ACL_SUCCESS;
    return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cmoDesc' (%p) is not %zu bytes of device memory "
                    "(aclrtMalloc it with aclrtCmoGetDescSize's size)", fn, cmoDesc, desc_size);
}

ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size)
{
    const char *fn = "aclrtCmoSetDesc";
    const struct soc_profile *soc = soc_configured();
    size_t desc_size = cmo_desc_size(soc), src_at, len_at;
    unsigned char d[64] = {0};
    uint64_t addr = (uint64_t)(uintptr_t)src;
    uint32_t len = (uint32_t)size; /* the descriptor keeps 32 bits */
    struct context *ctx;
    aclError err;

    if (desc_size == 0)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache descriptors (A2, A3 and 950 do)", fn,
                        soc->name);
    if (cmoDesc == NULL || src == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument '%s' is NULL", fn,
                        cmoDesc == NULL ? "cmoDesc" : "src");
    if (size == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'size' is 0; it must be greater than 0", fn);
    /* The runtime writes the descriptor with a synchronous host-to-device
     * copy: a context, the capture mode's rule for such a copy, device memory. */
    if ((err = ctx_require(fn, &ctx)) != ACL_SUCCESS ||
        (err = model_unsafe_call(fn, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT)) != ACL_SUCCESS ||
        (err = check_cmo_desc(fn, cmoDesc, desc_size)) != ACL_SUCCESS)
        return err;
    if (size > UINT32_MAX)
        LOGW("%s: size %zu does not fit the descriptor's 32 bits; it describes %u bytes, as on the device", fn, size,
             len);
    cmo_desc_fields(desc_size, &src_at, &len_at);
    memcpy(d + src_at, &addr, sizeof(addr));
    memcpy(d + len_at, &len, sizeof(len));
    memcpy(cmoDesc, d, desc_size);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                                   const void *reserve)
{
    const char *fn = "aclrtCmoAsyncWithDesc";
    const struct soc_profile *soc = soc_configured();
    size_t desc_size = cmo_desc_size(soc), src_at, len_at;
    uint32_t op = (uint32_t)cmoType + RT_CMO_PREFETCH;
    unsigned char d[64];
    uint64_t addr;
    uint32_t len;
    struct stream *s;
    aclError err;

    if (reserve != NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'reserve' is reserved and must be NULL", fn);
    if (desc_size == 0)
        return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: %s has no cache descriptors (A2, A3 and 950 do)", fn,
                        soc->name);
    if ((err = stream_handle_live(fn, stream)) != ACL_SUCCESS)
        return err;
    if (cmoDesc == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cmoDesc' is NULL", fn);
    if (op < RT_CMO_PREFETCH || op >= RT_CMO_RESERVED)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'cmoType' is %d; it must be an aclrtCmoType (0..3)",
                        fn, (int)cmoType);
    if ((err = task_stream(fn, stream, &s)) != ACL_SUCCESS)
        return err;
    /* The model first, then the descriptor the runtime writes its header into. */
    if (!stream_records(s))
        return acl_fail(ACL_ERROR_RT_INTERNAL_ERROR, "%s: stream %d is in no model; this task exists only in a model "
                        "(capture the stream, or bind it to a model being built)", fn, load_relaxed(&s->id));
    if ((err = check_cmo_desc(fn, cmoDesc, desc_size)) != ACL_SUCCESS)
        return err;
    /* The range, for the profile: the task reads it where it runs. */
    memcpy(d, cmoDesc, desc_size);
    cmo_desc_fields(desc_size, &src_at, &len_at);
    memcpy(&addr, d + src_at, sizeof(addr));
    memcpy(&len, d + len_at, sizeof(len));
    return model_only_submit(fn, stream, s, (void *)(uintptr_t)addr, len, (uint8_t)cmoType);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv)
{
    const char *fn = "aclrtDeviceL2CacheFlush";
    struct context *ctx;

    if (rsv != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'rsv' is reserved and must be NULL", fn);
    return ctx_require(fn, &ctx); /* the current device's: nothing to flush on a CPU */
}
