/*
 * 0_create_config - the CANN runtime sample
 * example/5_performance/profiling/0_create_config, in C on aclcpu.
 *
 * Profiling around a (placeholder) model run: aclprofInit with the output
 * directory ./output, a collection config for device 0 (aclprofCreateConfig
 * with the ACL API, task time, AI Core metrics, AI CPU, L2 cache, HCCL,
 * msproftx and runtime API switches), the memory sampling frequency
 * (aclprofSetConfig ACL_PROF_SYS_HARDWARE_MEM_FREQ "15"), aclprofStart,
 * aclprofStop, aclprofDestroyConfig, aclprofFinalize. As in the vendor's
 * sample, only aclprofSetConfig's result is checked; aclcpu writes its
 * profile under ./output.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_prof.h>

#include "../utils.h"

int main(void)
{
    INFO_LOG("-------- Start --------");
    uint32_t deviceIdList[1] = {0};
    aclrtStream stream = NULL;
    aclInit(NULL);
    aclrtSetDevice((int32_t)deviceIdList[0]);
    aclrtCreateStream(&stream);

    /* The output directory; aclprofSetConfig could give it instead. */
    const char *aclProfPath = "./output";
    aclprofInit(aclProfPath, strlen(aclProfPath));
    INFO_LOG("profiling init done");
    aclprofConfig *config = aclprofCreateConfig(deviceIdList, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, NULL,
                                                ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
                                                    ACL_PROF_AICPU | ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE |
                                                    ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API);
    const char *memFreq = "15";
    aclError ret = aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, memFreq, strlen(memFreq));
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("profiling set config error: %d", (int)ret);
        return -1;
    }
    INFO_LOG("profiling set config done");

    aclprofStart(config);
    INFO_LOG("profiling start");
    /* Here the vendor's sample would load a model, run it and unload it. */
    INFO_LOG("model running ....");

    aclprofStop(config);
    aclprofDestroyConfig(config);
    aclprofFinalize();
    INFO_LOG("profiling stop and finalize done");

    aclrtDestroyStream(stream);
    aclrtResetDeviceForce((int32_t)deviceIdList[0]);
    aclFinalize();
    INFO_LOG("-------- End --------");
    return 0;
}
