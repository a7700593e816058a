/*
 * 2_subscribe_model - the CANN runtime sample
 * example/5_performance/profiling/2_subscribe_model, in C on aclcpu.
 *
 * Model subscription: a pipe's write end goes into a subscribe config
 * (aclprofCreateSubscribeConfig, time info on), the model is subscribed
 * (aclprofModelSubscribe), and a thread reads op records out of the pipe
 * and takes them apart with the getters (aclprofGetOpDescSize,
 * aclprofGetOpNum, aclprofGetModelId, aclprofGetOpType/Name and their
 * lengths, aclprofGetOpStart/End/Duration) until the pipe ends, which
 * happens when the model is unsubscribed (aclprofModelUnSubscribe).
 *
 * Where this port differs from the vendor's: the vendor's sample has no
 * model. It registers model id 0 with the profiler itself
 * (MsprofSetDeviceIdByGeModelIdx from profiling/aprof_pub.h, the call
 * aclmdlLoadFromFile makes inside) and sleeps three seconds in place of
 * aclmdlExecute, so no record ever arrives. aclcpu's profiler knows the
 * models the runtime holds, so this port builds one (aclmdlRI: two EasyOP
 * kernels) where the vendor's comment says the model is loaded, and runs
 * it where the vendor's says it is executed; the reader then really gets
 * two records per run. If none arrives it says so with an [ERROR] line.
 *
 * The vendor's log lines end with " \n" inside the format, so each prints
 * a trailing space and an empty line (its README leaves both out).
 *
 * Usage: 2_subscribe_model [path/to/libexample_kernels.so]
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>

#include "../kernel_ops.h"
#include "../utils.h"

/* Records the reader took apart (checked at the end). */
static _Atomic uint32_t opsSeen;

/* Takes apart the records in data: each op's model id, type, name and times. */
static void getModelInfo(void *data, uint32_t len)
{
    uint32_t opNumber = 0;
    if (aclprofGetOpNum(data, len, &opNumber) != ACL_SUCCESS)
        return;
    for (uint32_t i = 0; i < opNumber; i++) {
        size_t opTypeLen = 0, opNameLen = 0;
        (void)aclprofGetModelId(data, len, i);
        aclprofGetOpTypeLen(data, len, i, &opTypeLen);
        char *opType = malloc(opTypeLen > 0 ? opTypeLen : 1);
        if (opType != NULL) {
            aclprofGetOpType(data, len, i, opType, opTypeLen);
            free(opType);
        }
        aclprofGetOpNameLen(data, len, i, &opNameLen);
        char *opName = malloc(opNameLen > 0 ? opNameLen : 1);
        if (opName != NULL) {
            aclprofGetOpName(data, len, i, opName, opNameLen);
            free(opName);
        }
        (void)aclprofGetOpStart(data, len, i);
        (void)aclprofGetOpEnd(data, len, i);
        (void)aclprofGetOpDuration(data, len, i);
        atomic_fetch_add(&opsSeen, 1);
    }
}

/* Reads records out of the pipe, ten at a time, until it ends. */
static void *profDataRead(void *fd)
{
    const uint64_t N = 10;
    size_t bufferSize = 0;
    aclprofGetOpDescSize(&bufferSize);
    size_t readbufLen = bufferSize * N;
    char *readbuf = malloc(readbufLen);
    if (readbuf == NULL)
        return NULL;
    ssize_t dataLen = read(*(int *)fd, readbuf, readbufLen);
    while (dataLen > 0) {
        getModelInfo(readbuf, (uint32_t)dataLen);
        memset(readbuf, 0, readbufLen);
        dataLen = read(*(int *)fd, readbuf, readbufLen);
    }
    free(readbuf);
    return NULL;
}

/* In place of aclmdlLoadFromFile: a model of two EasyOP kernels on x. */
static int BuildModel(aclmdlRI *model, aclrtStream *modelStream, int32_t *x, uint32_t *modelId)
{
    CHECK_ERROR(aclrtCreateStreamWithConfig(modelStream, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclmdlRIBuildBegin(model, 0));
    CHECK_ERROR(aclmdlRIBindStream(*model, *modelStream, ACL_MODEL_STREAM_FLAG_HEAD));
    EasyOP(1, *modelStream, x);
    EasyOP(1, *modelStream, x);
    CHECK_ERROR(aclmdlRIEndTask(*model, *modelStream));
    CHECK_ERROR(aclmdlRIBuildEnd(*model, NULL));
    CHECK_ERROR(aclmdlRIGetId(*model, modelId));
    return 0;
}

int main(int argc, char **argv)
{
    INFO_LOG("-------- Start -------- \n");
    SetKernelLibrary(argc, argv);
    aclInit(NULL);
    uint32_t deviceIdList[1] = {0};
    aclrtSetDevice((int32_t)deviceIdList[0]);
    aclrtStream stream = NULL;
    aclrtCreateStream(&stream);
    CHECK_ERROR(LoadKernels());

    uint32_t modelId = 0;
    aclmdlRI model = NULL;
    aclrtStream modelStream = NULL;
    int32_t *x = NULL;
    CHECK_ERROR(aclrtMalloc((void **)&x, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    if (BuildModel(&model, &modelStream, x, &modelId) != 0)
        return -1;

    /* subFd[0] is the read end, subFd[1] the write end. */
    int subFd[2];
    CHECK_ERROR(pipe(subFd));
    aclprofSubscribeConfig *config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &subFd[1]);
    aclprofModelSubscribe(modelId, config);

    pthread_t subTid;
    CHECK_ERROR(pthread_create(&subTid, NULL, profDataRead, &subFd[0]));

    /* In place of aclmdlExecute: run the model. */
    INFO_LOG("Running ...... \n");
    CHECK_ERROR(aclmdlRIExecuteAsync(model, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));

    INFO_LOG("Stopped ...... \n");
    /* Unsubscribing closes the write end: the reader sees the pipe end. */
    aclprofModelUnSubscribe(modelId);
    CHECK_ERROR(pthread_join(subTid, NULL));
    CHECK_ERROR(close(subFd[0]));
    aclprofDestroySubscribeConfig(config);
    if (atomic_load(&opsSeen) == 0)
        ERROR_LOG("No op record came out of the pipe");

    CHECK_ERROR(aclmdlRIUnbindStream(model, modelStream));
    CHECK_ERROR(aclmdlRIDestroy(model));
    CHECK_ERROR(aclrtDestroyStream(modelStream));
    CHECK_ERROR(aclrtFree(x));
    aclrtDestroyStream(stream);
    CHECK_ERROR(UnloadKernels());
    aclrtResetDeviceForce((int32_t)deviceIdList[0]);
    aclFinalize();
    INFO_LOG("-------- End -------- \n");
    return 0;
}
