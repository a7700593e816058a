/*
 * acl/acl_prof.h - the CANN profiling API, as provided by aclcpu.
 *
 * Names, values and prototypes are CANN's (docs/api.md). What
 * aclcpu does differently, by design:
 *
 *  - aclprofStop writes the finished files itself, into
 *    <path>/ASCEND_PROFILER_OUTPUT/ (kernel_details.csv, trace_view.json,
 *    step_trace_time.csv, summary.json and the measured twins; see
 *    docs/profile-format.md). There is no raw PROF_* data and no export
 *    step. The times in them are those of a model of the SoC in force
 *    (ACLCPU_SOC), next to those this CPU measured.
 *  - One profile at a time covers every device; the device list of the
 *    config is checked as CANN checks it, and recorded.
 *  - The codes are those of released CANN: aclprofStart, aclprofStop and
 *    aclprofFinalize before aclprofInit return ACL_ERROR_PROF_NOT_RUN
 *    (100043), and so does aclprofStop when no profile runs.
 *  - aclprofStart(NULL) profiles with the default config (every data
 *    type), as the newest CANN does.
 *  - With ACLCPU_PROFILE=<dir> set, the whole run is profiled from aclInit
 *    to aclFinalize (or exit); aclprofInit then returns
 *    ACL_ERROR_PROF_ALREADY_RUN (100042), as CANN does when msprof runs.
 *  - Model subscription (aclprofModelSubscribe) writes one 80-byte record
 *    per kernel of each run of the model into the pipe, when the run ends;
 *    times are the measured ones, in us.
 */
#ifndef ACLCPU_ACL_ACL_PROF_H_
#define ACLCPU_ACL_ACL_PROF_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSVP_PROF_API __attribute__((visibility("default")))

#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_API_STATS 0x400000000ULL
#define ACL_PROF_AICORE_SHAPE 0x800000000ULL

#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65
#ifndef ACL_PROF_TENSOR_DATA_SHAPE_LEN
#define ACL_PROF_TENSOR_DATA_SHAPE_LEN 8
#endif
#define ACL_PROF_EVENT_ATTR_VERSION 1

typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum { ACL_STEP_START = 0, ACL_STEP_END = 1 } aclprofStepTag;

typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

typedef enum { ACL_SUBSCRIBE_ATTRI_THREADID = 0, ACL_SUBSCRIBE_ATTRI_NONE } aclprofSubscribeOpAttri;

typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

typedef enum { ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0 } aclprofMessageType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED
typedef struct aclprofTensor {
    uint32_t type; /* 0 input, 1 output */
    uint32_t format;
    uint32_t dataType;
    uint32_t shapeDim;
    uint32_t shape[ACL_PROF_TENSOR_DATA_SHAPE_LEN];
} aclprofTensor;

typedef struct aclprofTensorInfo {
    uint64_t opNameId; /* from aclprofStr2Id */
    uint64_t opTypeId;
    uint32_t resv;
    uint32_t tensorNum;
    uint32_t kernelType;
    uint32_t blockNums;
    void *stream;
    aclprofTensor *tensors;
} aclprofTensorInfo;
#endif

typedef struct aclprofEventAttributes {
    uint16_t version;
    uint16_t size;
    uint32_t messageType;
    union Message {
        aclprofTensorInfo *tensorInfo;
    } message;
} aclprofEventAttributes;

/* ---- collection ------------------------------------------------------------ */

/* Records where profiles go (made absolute; the directory is created at
 * aclprofStart). NULL path, length 0, length >= 4096 or strlen(path) !=
 * length -> 100000; a second call -> 100002; ACLCPU_PROFILE set -> 100042;
 * a control character in the path -> 100003. */
MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length);
/* Stops a profile still running (writing it) and returns to "off";
 * before aclprofInit -> 100043. */
MSVP_PROF_API aclError aclprofFinalize(void);
/* NULL when: deviceNums != 0 with a NULL list; aicoreEvents != NULL;
 * deviceNums above 64 or the device count; an id not below the device
 * count; an id twice; deviceNums == 0 without ACL_PROF_MSPROFTX. */
MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                 aclprofAicoreMetrics aicoreMetrics,
                                                 const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);
MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
/* Starts a profile: before aclprofInit -> 100043; data types 0 -> 100000;
 * an unknown data type bit -> 200007; a profile already running ->
 * 100042; the directory cannot be made or written -> 100003. */
MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig);
/* Stops the profile and writes its files. Before aclprofInit, or with no
 * profile running -> 100043; a config whose data types differ from the
 * running one's -> 100010; the files cannot be written -> 100003 (the
 * program is not affected). NULL stops whatever runs. */
MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig);
/* type outside (ARGS_MIN, ARGS_MAX), config NULL, configLength > 256 or
 * != strlen(config) -> 100000; a value the option does not take -> 100010
 * (100000 for NTS_METRICS). ACL_PROF_PATH sets the output directory. */
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

/* ---- model subscription (§1.5) ------------------------------------------------ */

MSVP_PROF_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                   aclprofAicoreMetrics aicoreMetrics, void *fd);
MSVP_PROF_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig);
MSVP_PROF_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig);
MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId);
MSVP_PROF_API aclError aclprofGetOpDescSize(size_t *opDescSize);
MSVP_PROF_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber);
MSVP_PROF_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen);
MSVP_PROF_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                        size_t opTypeLen);
MSVP_PROF_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen);
MSVP_PROF_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                        size_t opNameLen);
MSVP_PROF_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 aclprofSubscribeOpAttri attri);

/* ---- msproftx markers (§1.6): only while a profile started with
 * ACL_PROF_MSPROFTX runs; most failures return -1, as in CANN. ---------------- */

MSVP_PROF_API void *aclprofCreateStamp(void);
MSVP_PROF_API void aclprofDestroyStamp(void *stamp);
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);
MSVP_PROF_API aclError aclprofMark(void *stamp);
/* A marker task on stream: shows on the stream's timeline, with a flow
 * from the host thread that issued it. */
MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream);
MSVP_PROF_API aclError aclprofPush(void *stamp);
MSVP_PROF_API aclError aclprofPop(void);
MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);
MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);
MSVP_PROF_API uint64_t aclprofStr2Id(const char *message);
MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes *attr);
MSVP_PROF_API aclError aclprofRangePop(void);

/* ---- step markers (§1.7) ---------------------------------------------------------- */

MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo(void);
MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo);
/* Marks a step's start or end on stream (a task, in order with the
 * stream's work). NULL stepInfo, START twice or END twice -> 100000. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_PROF_H_ */
