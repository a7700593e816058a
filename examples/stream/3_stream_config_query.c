/*
 * 3_stream_config_query - the CANN runtime sample
 * example/1_basic_features/stream/3_stream_config_query, in C on aclcpu.
 *
 * Looks up the stream-configuration calls at run time (dlsym: a runtime
 * library may lack them, and the sample then skips), makes a configuration
 * handle, sets its flags (0) and priority (0), creates a stream from it
 * (aclrtCreateStreamV2), reads back the stream's id, flags and priority,
 * synchronizes and destroys the stream and the handle. Failures go to
 * stderr, as in the vendor's sample.
 *
 * One difference from the vendor's: the flag value is a size_t. The
 * runtime's implementation (src/acl/aclrt_c/runtime/stream.c,
 * SetStreamFlag) takes exactly sizeof(size_t) bytes for ACL_RT_STREAM_FLAG
 * and refuses the vendor's 4-byte uint32_t with 100000, and aclcpu does
 * the same; the priority is a uint32_t in both.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>

#include "../utils.h"

#define DEVICE_ID 0

static const size_t kStreamFlags = 0;
static const uint32_t kStreamPriority = 0;

static int CheckAcl(aclError ret, const char *expr)
{
    if (ret != ACL_SUCCESS) {
        fprintf(stderr, "[ERROR]  Operation failed: %s returned error code %d\n", expr, (int32_t)ret);
        fflush(stderr);
        return -1;
    }
    return 0;
}

struct StreamConfigApi {
    aclrtStreamConfigHandle *(*createConfigHandle)(void);
    aclError (*destroyConfigHandle)(aclrtStreamConfigHandle *);
    aclError (*setConfigOpt)(aclrtStreamConfigHandle *, aclrtStreamConfigAttr, const void *, size_t);
    aclError (*createStreamV2)(aclrtStream *, const aclrtStreamConfigHandle *);
};

/* *func = the symbol's address, or a warning if the library lacks it. */
static int LoadSymbol(const char *name, void **func)
{
    *func = dlsym(RTLD_DEFAULT, name);
    if (*func == NULL) {
        WARN_LOG("Symbol %s is not exported by the current Runtime library.", name);
        return 0;
    }
    return 1;
}

/* Looks up all four (each missing one warns) and says whether all were found. */
static int LoadStreamConfigApi(struct StreamConfigApi *api)
{
    void *f[4];
    int ok = 1;
    ok = LoadSymbol("aclrtCreateStreamConfigHandle", &f[0]) && ok;
    ok = LoadSymbol("aclrtDestroyStreamConfigHandle", &f[1]) && ok;
    ok = LoadSymbol("aclrtSetStreamConfigOpt", &f[2]) && ok;
    ok = LoadSymbol("aclrtCreateStreamV2", &f[3]) && ok;
    /* POSIX guarantees a dlsym'd pointer converts to a function pointer. */
    *(void **)&api->createConfigHandle = f[0];
    *(void **)&api->destroyConfigHandle = f[1];
    *(void **)&api->setConfigOpt = f[2];
    *(void **)&api->createStreamV2 = f[3];
    return ok;
}

static int SetStreamConfigOptions(const struct StreamConfigApi *api, aclrtStreamConfigHandle *configHandle)
{
    if (CheckAcl(api->setConfigOpt(configHandle, ACL_RT_STREAM_FLAG, &kStreamFlags, sizeof(kStreamFlags)),
                 "aclrtSetStreamConfigOpt(ACL_RT_STREAM_FLAG)") != 0)
        return -1;
    if (CheckAcl(api->setConfigOpt(configHandle, ACL_RT_STREAM_PRIORITY, &kStreamPriority, sizeof(kStreamPriority)),
                 "aclrtSetStreamConfigOpt(ACL_RT_STREAM_PRIORITY)") != 0)
        return -1;
    INFO_LOG("Set stream config flags=%u priority=%u", (unsigned)kStreamFlags, kStreamPriority);
    return 0;
}

static int QueryStreamInfo(aclrtStream stream)
{
    int32_t streamId = -1;
    uint32_t flags = 0, priority = 0;
    if (CheckAcl(aclrtStreamGetId(stream, &streamId), "aclrtStreamGetId") != 0)
        return -1;
    INFO_LOG("Stream id: %d", streamId);
    if (CheckAcl(aclrtStreamGetFlags(stream, &flags), "aclrtStreamGetFlags") != 0)
        return -1;
    INFO_LOG("Stream flags: %u", flags);
    if (CheckAcl(aclrtStreamGetPriority(stream, &priority), "aclrtStreamGetPriority") != 0)
        return -1;
    INFO_LOG("Stream priority: %u", priority);
    return 0;
}

/* The part after the handle exists; the caller destroys the handle on
 * failure, as the vendor's guard does. */
static int RunWithHandle(const struct StreamConfigApi *api, aclrtStreamConfigHandle *configHandle)
{
    aclrtStream stream = NULL;
    if (SetStreamConfigOptions(api, configHandle) != 0)
        return -1;
    if (CheckAcl(api->createStreamV2(&stream, configHandle), "aclrtCreateStreamV2") != 0)
        return -1;
    INFO_LOG("Create stream with config successfully");
    if (QueryStreamInfo(stream) != 0 || CheckAcl(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream") != 0) {
        CHECK_ERROR_WITHOUT_RETURN(aclrtDestroyStream(stream));
        return -1;
    }
    return CheckAcl(aclrtDestroyStream(stream), "aclrtDestroyStream");
}

static int RunStreamConfigQuerySample(void)
{
    struct StreamConfigApi api;
    aclrtStreamConfigHandle *configHandle;
    if (!LoadStreamConfigApi(&api)) {
        INFO_LOG("[SKIP] Stream config query sample skipped because the current Runtime library does not export all "
                 "stream config APIs.");
        return 0;
    }
    configHandle = api.createConfigHandle();
    if (configHandle == NULL) {
        INFO_LOG("[SKIP] Stream config query sample skipped because aclrtCreateStreamConfigHandle returned nullptr.");
        return 0;
    }
    INFO_LOG("Create stream config handle successfully");
    if (RunWithHandle(&api, configHandle) != 0) {
        CHECK_ERROR_WITHOUT_RETURN(api.destroyConfigHandle(configHandle));
        return -1;
    }
    if (CheckAcl(api.destroyConfigHandle(configHandle), "aclrtDestroyStreamConfigHandle") != 0)
        return -1;
    INFO_LOG("[SUCCESS] Stream config query sample completed successfully");
    return 0;
}

int main(void)
{
    int ret;
    if (CheckAcl(aclInit(NULL), "aclInit") != 0)
        return -1;
    if (CheckAcl(aclrtSetDevice(DEVICE_ID), "aclrtSetDevice") != 0) {
        CHECK_ERROR(aclFinalize());
        return -1;
    }
    ret = RunStreamConfigQuerySample();
    CHECK_ERROR(aclrtResetDeviceForce(DEVICE_ID));
    CHECK_ERROR(aclFinalize());
    return ret;
}
