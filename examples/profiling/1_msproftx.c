/*
 * 1_msproftx - the CANN runtime sample
 * example/5_performance/profiling/1_msproftx, in C on aclcpu.
 *
 * msproftx markers in a profile collected with ACL_PROF_MSPROFTX: five
 * stamps, each with a message (aclprofCreateStamp,
 * aclprofSetStampTraceMessage); a step opened and closed with
 * aclprofGetStepTimestamp; an instant mark (aclprofMark); a push/pop range
 * holding a start/stop range and a nested push/pop range; the sample
 * sleeps inside the ranges (1 s, 1 s, 3 s) as its model stand-in. aclcpu
 * writes the markers to the profile under ./output.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>

#include "../utils.h"

static void *CreateStampWithMessage(const char *message)
{
    void *stamp = aclprofCreateStamp();
    if (stamp == NULL) {
        ERROR_LOG("aclprofCreateStamp failed for message %s", message);
        return NULL;
    }
    aclError ret = aclprofSetStampTraceMessage(stamp, message, (uint32_t)strlen(message));
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("aclprofSetStampTraceMessage(%s) failed with error code %d", message, (int)ret);
        aclprofDestroyStamp(stamp);
        return NULL;
    }
    return stamp;
}

static int CheckPtr(const void *ptr, const char *name)
{
    if (ptr == NULL) {
        ERROR_LOG("%s is nullptr", name);
        return 0;
    }
    return 1;
}

struct StampSet {
    void *loadMark, *outerRangePush, *innerRangePush, *preprocessRange, *execMark;
};

static int32_t CreateStampSet(struct StampSet *s)
{
    s->loadMark = CreateStampWithMessage("model_load_mark");
    s->outerRangePush = CreateStampWithMessage("forward_pass_push");
    s->innerRangePush = CreateStampWithMessage("operator_dispatch_push");
    s->preprocessRange = CreateStampWithMessage("preprocess_range");
    s->execMark = CreateStampWithMessage("model_exec_mark");
    if (!CheckPtr(s->loadMark, "load stamp") || !CheckPtr(s->outerRangePush, "outer push stamp") ||
        !CheckPtr(s->innerRangePush, "inner push stamp") || !CheckPtr(s->preprocessRange, "range stamp") ||
        !CheckPtr(s->execMark, "exec mark stamp"))
        return -1;
    return 0;
}

static void DestroyStampSet(const struct StampSet *s)
{
    aclprofDestroyStamp(s->loadMark);
    aclprofDestroyStamp(s->outerRangePush);
    aclprofDestroyStamp(s->innerRangePush);
    aclprofDestroyStamp(s->preprocessRange);
    aclprofDestroyStamp(s->execMark);
}

static int32_t RunTraceFlow(aclrtStream stream)
{
    aclprofStepInfo *stepInfo = aclprofCreateStepInfo();
    if (!CheckPtr(stepInfo, "aclprofCreateStepInfo"))
        return -1;
    CHECK_ERROR(aclprofGetStepTimestamp(stepInfo, ACL_STEP_START, stream));

    struct StampSet stamps = {0};
    if (CreateStampSet(&stamps) != 0) {
        aclprofDestroyStepInfo(stepInfo);
        return -1;
    }

    CHECK_ERROR(aclprofMark(stamps.loadMark));
    CHECK_ERROR(aclprofPush(stamps.outerRangePush));

    uint32_t preprocessRangeId = 0;
    CHECK_ERROR(aclprofRangeStart(stamps.preprocessRange, &preprocessRangeId));
    INFO_LOG("Preprocess range start");
    (void)sleep(1);
    CHECK_ERROR(aclprofRangeStop(preprocessRangeId));
    INFO_LOG("Preprocess range stop");

    CHECK_ERROR(aclprofPush(stamps.innerRangePush));
    INFO_LOG("Nested operator dispatch range start");
    (void)sleep(1);
    CHECK_ERROR(aclprofPop());
    INFO_LOG("Nested operator dispatch range stop");

    INFO_LOG("Model execute start");
    (void)sleep(3);
    INFO_LOG("Model execute end");
    CHECK_ERROR(aclprofMark(stamps.execMark));
    CHECK_ERROR(aclprofPop());

    CHECK_ERROR(aclprofGetStepTimestamp(stepInfo, ACL_STEP_END, stream));
    aclprofDestroyStepInfo(stepInfo);
    DestroyStampSet(&stamps);
    return 0;
}

static int32_t RunMsproftxSample(void)
{
    INFO_LOG("-------- Start --------");
    uint32_t deviceIdList[1] = {0};
    aclrtStream stream = NULL;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice((int32_t)deviceIdList[0]));
    CHECK_ERROR(aclrtCreateStream(&stream));

    const char *aclProfPath = "./output";
    CHECK_ERROR(aclprofInit(aclProfPath, strlen(aclProfPath)));
    aclprofConfig *config = aclprofCreateConfig(deviceIdList, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, NULL,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
    if (!CheckPtr(config, "aclprofCreateConfig"))
        return -1;

    const char *memFreq = "15";
    CHECK_ERROR(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, memFreq, strlen(memFreq)));
    CHECK_ERROR(aclprofStart(config));

    if (RunTraceFlow(stream) != 0)
        return -1;

    CHECK_ERROR(aclprofStop(config));
    CHECK_ERROR(aclprofDestroyConfig(config));
    CHECK_ERROR(aclprofFinalize());
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDeviceForce((int32_t)deviceIdList[0]));
    CHECK_ERROR(aclFinalize());
    INFO_LOG("-------- End --------");
    return 0;
}

int main(void) { return RunMsproftxSample(); }
