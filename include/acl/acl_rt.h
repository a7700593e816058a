/*
 * acl/acl_rt.h - the CANN runtime C API (init, devices, contexts, streams,
 * events, memory, host callbacks, kernel loading and launch, model run
 * instances and capture), as provided by aclcpu.
 *
 * Prototypes, enum values and structure layouts follow CANN's acl_rt.h so
 * that Ascend programs compile unchanged. Behaviour is described below,
 * per function; where aclcpu differs from the device, docs/differences.md
 * says so, and docs/api.md says where the API facts come from.
 */
#ifndef ACLCPU_ACL_ACL_RT_H_
#define ACLCPU_ACL_ACL_RT_H_

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Interface version (CANN acl_rt.h 1.17.0) ---- */

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* ---- Event creation flags (aclrtCreateEventWithFlag / aclrtCreateEventExWithFlag) ---- */

#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* ---- Stream creation flags (aclrtCreateStreamWithConfig) ---- */

#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* ---- Stream failure modes (aclrtSetStreamFailureMode) ---- */

#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* ---- Notify creation flags (aclrtCreateNotify) ---- */

#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* ---- Per-operation event flags (aclrtRecordEventWithFlag / aclrtStreamWaitEventWithFlag) ---- */

#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U

/* ---- Size of an interprocess event handle ---- */

#define ACL_IPC_EVENT_HANDLE_SIZE 64U

/* ---- Capability answers, physical-address records, memory links, host links ---- */

/* Values aclrtGetDeviceCapability stores for a yes/no feature. */
#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000

/* Most physical addresses a memory UCE record holds per device. */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U

/* Link indexes of memory mapped over a chosen link (SIO, HCCS). */
#define ACL_RT_MEM_LINK_IDX_0 0U
#define ACL_RT_MEM_LINK_IDX_1 1U

/* How the host is connected to the device. */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* ---- Flags of aclmdlRIDebugJsonPrint ---- */

#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL

/* ---- Kernel binary magic numbers (ACL_RT_BINARY_LOAD_OPT_MAGIC) ---- */

#define ACL_RT_BINARY_MAGIC_ELF_AICORE 0x43554245U
#define ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE 0x41415246U
#define ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE 0x41494343U

/*
 * ---- Launch blocking modes (value of aclrtStreamAttrValue.launchBlockingMode) ----
 * The names come from newer CANN releases. Their numeric values could not be
 * confirmed from any public source; 0/1/2 are aclcpu's choice.
 */

#define ACL_STREAM_LAUNCH_BLOCKING_MODE_CTRL_BY_ENV 0U
#define ACL_STREAM_LAUNCH_BLOCKING_MODE_NON_BLOCKING 1U
#define ACL_STREAM_LAUNCH_BLOCKING_MODE_BLOCKING 2U

/* ---- Enumerations ---- */

/* Where the calling program runs. */
typedef enum aclrtRunMode {
    ACL_DEVICE = 0,
    ACL_HOST = 1
} aclrtRunMode;

/* Task scheduler selection. */
typedef enum aclrtTsId {
    ACL_TS_ID_AICORE = 0,
    ACL_TS_ID_AIVECTOR = 1,
    ACL_TS_ID_RESERVED = 2
} aclrtTsId;

/* Result of the deprecated aclrtQueryEvent. */
typedef enum aclrtEventStatus {
    ACL_EVENT_STATUS_COMPLETE = 0,
    ACL_EVENT_STATUS_NOT_READY = 1,
    ACL_EVENT_STATUS_RESERVED = 2
} aclrtEventStatus;

/* Result of aclrtQueryEventStatus; note NOT_READY is 0 here. */
typedef enum aclrtEventRecordedStatus {
    ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
    ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
} aclrtEventRecordedStatus;

/* Result of aclrtQueryEventWaitStatus. */
typedef enum aclrtEventWaitStatus {
    ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
    ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
    ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF
} aclrtEventWaitStatus;

/* Result of aclrtStreamQuery. */
typedef enum aclrtStreamStatus {
    ACL_STREAM_STATUS_COMPLETE = 0,
    ACL_STREAM_STATUS_NOT_READY = 1,
    ACL_STREAM_STATUS_RESERVED = 0xFFFF
} aclrtStreamStatus;

/* Whether a host callback blocks the later tasks of its stream. */
typedef enum aclrtCallbackBlockType {
    ACL_CALLBACK_NO_BLOCK = 0,
    ACL_CALLBACK_BLOCK = 1
} aclrtCallbackBlockType;

/* Direction of a memory copy. */
typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    ACL_MEMCPY_DEFAULT = 4,
    ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

/* Page-size policy (low values) and memory-type bits (high values) of aclrtMalloc. */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

/* Where memory lives (aclrtPtrAttributes, physical memory, managed
 * memory, batch copies). */
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE = 1,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
    ACL_MEM_LOCATION_TYPE_MANAGED = 3,
    ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;

/* Memory kind queried by aclrtGetMemInfo. */
typedef enum aclrtMemAttr {
    ACL_DDR_MEM = 0,
    ACL_HBM_MEM = 1,
    ACL_DDR_MEM_HUGE = 2,
    ACL_DDR_MEM_NORMAL = 3,
    ACL_HBM_MEM_HUGE = 4,
    ACL_HBM_MEM_NORMAL = 5,
    ACL_DDR_MEM_P2P_HUGE = 6,
    ACL_DDR_MEM_P2P_NORMAL = 7,
    ACL_HBM_MEM_P2P_HUGE = 8,
    ACL_HBM_MEM_P2P_NORMAL = 9,
    ACL_HBM_MEM_HUGE1G = 10,
    ACL_HBM_MEM_P2P_HUGE1G = 11,
    ACL_MEM_NORMAL = 12,
    ACL_MEM_HUGE = 13,
    ACL_MEM_HUGE1G = 14,
    ACL_MEM_P2P_NORMAL = 15,
    ACL_MEM_P2P_HUGE = 16,
    ACL_MEM_P2P_HUGE1G = 17
} aclrtMemAttr;

/* Page size and memory kind of an allocation (CANN's untagged-typedef enums). */
enum aclrtMemPgType {
    NORMAL_PAGE_TYPE = 0U,
    HUGE_PAGE_TYPE,
    HUGE1G_PAGE_TYPE,
};

enum aclrtMemType {
    HBM_TYPE = 0U,
    DDR_TYPE,
    P2P_HBM_TYPE,
    P2P_DDR_TYPE,
};

/* Which link a memory mapping uses (aclrtMemMapSetLink in CANN). */
typedef enum {
    ACL_RT_MEM_ACCESS_LINK_SIO = 0,
    ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
    ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
    ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

/* The page type, memory kind and host flag that an aclrtMemAttr stands for. */
struct MemAttrMapping {
    uint32_t pgType;
    uint32_t memType;
    bool isHostAlloc;
    aclrtMemAttr memAttr;
};

/* Stream attribute selected in aclrtSetStreamAttribute / aclrtGetStreamAttribute. */
typedef enum aclrtStreamAttr {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
    ACL_STREAM_ATTR_PRIORITY = 5,
    /* Newer CANN releases; the value 6 is aclcpu's choice, it could not be confirmed. */
    ACL_STREAM_LAUNCH_BLOCKING_MODE = 6
} aclrtStreamAttr;

/* Point in a stream's life at which a stream state callback fires. */
typedef enum aclrtStreamState {
    ACL_RT_STREAM_STATE_CREATE_POST = 1,
    ACL_RT_STREAM_STATE_DESTROY_PRE = 2
} aclrtStreamState;

/* Comparison used by aclrtSwitchStream. */
typedef enum aclrtCondition {
    ACL_RT_EQUAL = 0,
    ACL_RT_NOT_EQUAL = 1,
    ACL_RT_GREATER = 2,
    ACL_RT_GREATER_OR_EQUAL = 3,
    ACL_RT_LESS = 4,
    ACL_RT_LESS_OR_EQUAL = 5
} aclrtCondition;

/* Operand type compared by aclrtSwitchStream. */
typedef enum aclrtCompareDataType {
    ACL_RT_SWITCH_INT32 = 0,
    ACL_RT_SWITCH_INT64 = 1
} aclrtCompareDataType;

/* Kind of core counted by the resource-limit (core control) calls. */
typedef enum aclrtDevResLimitType {
    ACL_RT_DEV_RES_CUBE_CORE = 0,
    ACL_RT_DEV_RES_VECTOR_CORE = 1
} aclrtDevResLimitType;

/* Which threads may make capture-unsafe calls while a stream is being captured. */
typedef enum aclmdlRICaptureMode {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2
} aclmdlRICaptureMode;

/* Capture state of a stream, reported by aclmdlRICaptureGetInfo. */
typedef enum aclmdlRICaptureStatus {
    ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
    ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE = 1,
    ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED = 2
} aclmdlRICaptureStatus;

/* A condition of a captured model (aclmdlRICondHandleCreate): an 8-byte
 * device word that the model's conditional tasks read when they run. */
typedef void *aclmdlRICondHandle;

/* aclmdlRICondHandleCreate's flag: write the default into the condition
 * each time the model is launched. */
typedef enum {
    ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT = 1,
} aclmdlRICondHandleFlag;

/* What a conditional task (aclmdlRIAddCondTask) does with its sub models. */
typedef enum {
    ACL_MODEL_RI_COND_TYPE_IF = 0,
    ACL_MODEL_RI_COND_TYPE_WHILE = 1,
    ACL_MODEL_RI_COND_TYPE_SWITCH = 2,
} aclmdlRICondTaskType;

/* aclmdlRIAddCondTask's parameters: size is the number of sub models
 * (IF: 1 or 2, WHILE: 1, SWITCH: at least 1); modelRIArray receives them. */
typedef struct tagAclmdlRICondTaskParams {
    aclmdlRICondHandle handle;
    aclmdlRICondTaskType type;
    uint32_t size;
    aclmdlRI *modelRIArray;
} aclmdlRICondTaskParams;

/* Option set by aclrtSetStreamConfigOpt. */
typedef enum aclrtStreamConfigAttr {
    ACL_RT_STREAM_WORK_ADDR_PTR = 0,
    ACL_RT_STREAM_WORK_SIZE = 1,
    ACL_RT_STREAM_FLAG = 2,
    ACL_RT_STREAM_PRIORITY = 3
} aclrtStreamConfigAttr;

/* Core type a kernel runs on. */
typedef enum aclrtEngineType {
    ACL_RT_ENGINE_TYPE_AIC = 0,
    ACL_RT_ENGINE_TYPE_AIV = 1
} aclrtEngineType;

/* Kernel launch attribute identifier (aclrtLaunchKernelAttr.id). */
typedef enum aclrtLaunchKernelAttrId {
    ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
    ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE
        ACL_DEPRECATED_MESSAGE("Use ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE instead") = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
    ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
    ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
    ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
    ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9
} aclrtLaunchKernelAttrId;

/* Option kind in an aclrtBinaryLoadOption. */
typedef enum aclrtBinaryLoadOptionType {
    ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
    ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
    ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3
} aclrtBinaryLoadOptionType;

/* ---- Structures and unions ---- */

/* Value of a stream attribute; which member is used depends on the aclrtStreamAttr. */
typedef union aclrtStreamAttrValue {
    uint64_t failureMode;        /* ACL_STREAM_ATTR_FAILURE_MODE: ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE */
    uint32_t overflowSwitch;     /* ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: 0 off, 1 on */
    uint32_t userCustomTag;      /* ACL_STREAM_ATTR_USER_CUSTOM_TAG */
    uint32_t cacheOpInfoSwitch;  /* ACL_STREAM_ATTR_CACHE_OP_INFO */
    uint32_t streamPriority;     /* ACL_STREAM_ATTR_PRIORITY: 0 (highest) .. 7 */
    uint32_t launchBlockingMode; /* ACL_STREAM_LAUNCH_BLOCKING_MODE: ACL_STREAM_LAUNCH_BLOCKING_MODE_* */
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/* Options of a stream created with aclrtCreateStreamV2. */
typedef struct aclrtStreamConfigHandle {
    void *workptr;
    size_t workSize;
    size_t flag;
    uint32_t priority;
} aclrtStreamConfigHandle;

/* A 64-bit kernel timeout in microseconds, split in two halves. */
typedef struct aclrtTimeoutUs {
    uint32_t timeoutLow;  /* low 32 bits */
    uint32_t timeoutHigh; /* high 32 bits */
} aclrtTimeoutUs;

/* Value of a kernel launch attribute; which member is used depends on the aclrtLaunchKernelAttrId. */
typedef union aclrtLaunchKernelAttrValue {
    uint8_t schemMode; /* 0: start when any core is free; 1: start only when all numBlocks cores are free */
    ACL_DEPRECATED_MESSAGE("Use dynUBufSize instead") uint32_t localMemorySize;
    uint32_t dynUBufSize;
    aclrtEngineType engineType;
    uint32_t blockDimOffset;
    uint8_t isBlockTaskPrefetch;
    uint8_t isDataDump;
    uint16_t timeout;         /* seconds */
    aclrtTimeoutUs timeoutUs; /* microseconds */
    uint8_t enableProfiling;  /* 0 disable, 1 enable */
    uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

/* One kernel launch attribute. */
typedef struct aclrtLaunchKernelAttr {
    aclrtLaunchKernelAttrId id;
    aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

/* Kernel launch configuration: an array of attributes. */
typedef struct aclrtLaunchKernelCfg {
    aclrtLaunchKernelAttr *attrs;
    size_t numAttrs;
} aclrtLaunchKernelCfg;

/* Grid or block dimensions of a SIMT kernel launch. */
typedef struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
#if defined(__cplusplus) && __cplusplus >= 201103L
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#elif defined(__cplusplus)
    dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
#endif
} dim3;

/* Interprocess handle of an event created with ACL_EVENT_IPC. */
typedef struct aclrtIpcEventHandle {
    char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Placeholder in host kernel arguments: where a pointer goes and where its data lies. */
typedef struct aclrtPlaceHolderInfo {
    uint32_t addrOffset;
    uint32_t dataOffset;
} aclrtPlaceHolderInfo;

/* Value of a binary load option; which member is used depends on the aclrtBinaryLoadOptionType. */
typedef union aclrtBinaryLoadOptionValue {
    uint32_t isLazyLoad;
    uint32_t magic;
    int32_t cpuKernelMode;
    uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

/* One binary load option. */
typedef struct aclrtBinaryLoadOption {
    aclrtBinaryLoadOptionType type;
    aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

/* Options of aclrtBinaryLoadFromFile / aclrtBinaryLoadFromData: an array of options. */
typedef struct aclrtBinaryLoadOptions {
    aclrtBinaryLoadOption *options;
    size_t numOpt;
} aclrtBinaryLoadOptions;

/* Callback fired when any stream of the process is created or about to be destroyed. */
typedef void (*aclrtStreamStateCallback)(aclrtStream stm, aclrtStreamState state, void *args);

/* What a float overflow yields (aclrtSetDeviceSatMode). */
typedef enum aclrtFloatOverflowMode {
    ACL_RT_OVERFLOW_MODE_SATURATION = 0,
    ACL_RT_OVERFLOW_MODE_INFNAN,
    ACL_RT_OVERFLOW_MODE_UNDEF,
} aclrtFloatOverflowMode;

/* Attributes of a kernel (aclrtGetFunctionAttribute). */
typedef enum {
    ACL_FUNC_ATTR_KERNEL_TYPE = 1,
    ACL_FUNC_ATTR_KERNEL_RATIO = 2,
    ACL_FUNC_ATTR_KERNEL_SCHED_MODE = 3,
} aclrtFuncAttribute;

/* The kernel types ACL_FUNC_ATTR_KERNEL_TYPE reports. */
typedef enum {
    ACL_KERNEL_TYPE_AICORE = 0,
    ACL_KERNEL_TYPE_CUBE = 1,
    ACL_KERNEL_TYPE_VECTOR = 2,
    ACL_KERNEL_TYPE_MIX = 3,
    ACL_KERNEL_TYPE_AICPU = 100,
} aclrtKernelType;

/* ==== Initialisation ==== */

/** Initialises the runtime. configPath may be NULL or "" (no file); a file must be JSON, as in CANN,
 *  but aclcpu takes no setting from it (its settings are ACLCPU_* variables: docs/differences.md). */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/** Releases all runtime resources; call once before the process exits. aclcpu also closes every device
 *  and context here (CANN leaves them to the process's exit: docs/differences.md). */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/** Drops one aclInit reference, releasing resources when none remain, and reports the remaining count. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);

/* ==== Devices and contexts ==== */

/** Makes a device current for the calling thread, creating its default context and default stream. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/** Releases one reference to a device and frees its resources when the last one goes. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/** Frees a device's resources regardless of how many times it was set. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);

/** Returns the device of the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);

/** Returns the number of devices. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);

/** Creates a context on a device and makes it current for the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);

/** Destroys a context created with aclrtCreateContext. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);

/** Makes a context current for the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);

/** Returns the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/** Returns the default stream of the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);

/** Blocks until every stream of the current context has finished its work. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/** Blocks until every stream of the current context has finished, or until timeout ms pass (-1 waits forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/** Reports whether the program runs on the host or on the device. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);

/* ==== Streams ==== */

/** Creates a stream with default priority and no flags on the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/** Creates a stream with a priority (0 highest .. 7) and ACL_STREAM_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);

/** Creates a stream from a configuration handle (NULL means defaults). */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);

/** Allocates a stream configuration handle holding default options, or returns NULL on failure. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void);

/** Frees a stream configuration handle. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);

/** Sets one option of a stream configuration handle; valueSize must match the option's type. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle, aclrtStreamConfigAttr attr,
                                                     const void *attrValue, size_t valueSize);

/** Waits for a stream's outstanding tasks and destroys it. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/** Destroys a stream at once, discarding its outstanding tasks. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);

/** Blocks until every task issued to a stream (NULL: the default stream) has completed. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/** Blocks until a stream's tasks have completed or timeout ms pass (-1 waits forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/** Reports without blocking whether every task issued to a stream has completed. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/** Returns a stream's priority. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream, uint32_t *priority);

/** Returns the ACL_STREAM_* flags a stream was created with. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);

/** Returns a stream's numeric id. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);

/** Returns how many more streams the current device can create. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);

/** Sets what a stream does after a task fails: ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

/** Turns floating-point overflow detection on (1) or off (0) for a stream's later tasks. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag);

/** Returns a stream's floating-point overflow detection switch. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t *flag);

/** Sets one attribute of a stream. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);

/** Reads one attribute of a stream. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);

/**
 * Stops a stream's running tasks and discards its queued ones (and those
 * issued during the call); syncs of that work return 107023, new work runs
 * normally. NULL is the default stream (Ascend 950, A3, A2 only).
 * aclcpu: a running kernel stops at its next block; DEVICE_USE_ONLY
 * streams are refused with 207000; an abort also clears a stop.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);

/**
 * Stops a stream's running tasks without clearing its queue: nothing more
 * of it runs. NULL -> 107000; Ascend 950, A3 and A2 only (207000), and on A2
 * and A3 only DEVICE_USE_ONLY streams (207000).
 * aclcpu: the running kernel starts no more blocks, and the call returns
 * once it has ended (a block in progress runs to its end); afterwards sync and
 * query of the stream return 507000 and new tasks are refused with 507000
 * until aclrtStreamAbort clears the stop or the stream is destroyed
 * (aclrtDestroyStream then discards the kept tasks instead of waiting).
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);

/** Clears the tasks of a persistent, model-bound stream so that it can be filled again. */
ACL_FUNC_VISIBILITY aclError aclrtPersistentTaskClean(aclrtStream stream);

/** Issues a task to stream that activates the model stream activeStream. */
ACL_FUNC_VISIBILITY aclError aclrtActiveStream(aclrtStream activeStream, aclrtStream stream);

/** Issues a task to stream that jumps to trueStream when (*leftValue cond *rightValue) holds. */
ACL_FUNC_VISIBILITY aclError aclrtSwitchStream(void *leftValue, aclrtCondition cond, void *rightValue,
                                               aclrtCompareDataType dataType, aclrtStream trueStream,
                                               aclrtStream falseStream, aclrtStream stream);

/** Registers (or, with a NULL callback, unregisters) a named stream state callback. */
ACL_FUNC_VISIBILITY aclError aclrtRegStreamStateCallback(const char *regName, aclrtStreamStateCallback callback,
                                                         void *args);

/** Returns the values of the lowest (least) and highest (greatest) stream priority. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority, int32_t *greatestPriority);

/** Makes a stream's later tasks wait until an event's recorded work has completed. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/** Makes a stream wait for an event, with a timeout in seconds and an ACL_EVENT_WAIT_* flag. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream, aclrtEvent event, uint32_t timeout,
                                                          uint32_t flag);

/** Makes a stream wait for an event, failing the wait after timeout seconds (0 never times out). */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event, int32_t timeout);

/** Opens a nestable section in which launches on a stream stay asynchronous even in blocking mode (flag must be 0). */
ACL_FUNC_VISIBILITY aclError aclrtNonBlockingLaunchBegin(aclrtStream stream, uint64_t flag);

/** Closes a non-blocking launch section; the outermost close synchronises the stream if it would block. */
ACL_FUNC_VISIBILITY aclError aclrtNonBlockingLaunchEnd(aclrtStream stream, uint64_t flag);

/* ==== Core limits ==== */

/** Returns a device's limit on cores of one type. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t *value);

/** Limits the cores of one type that later tasks on a device may use. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value);

/** Restores a device's core limits to the hardware defaults. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);

/** Returns a stream's limit on cores of one type, or the device limit if the stream has none. */
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t *value);

/** Sets a stream's limit on cores of one type. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value);

/** Removes a stream's core limits so that the device limits apply again. */
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);

/** Makes a stream's core limits apply to launches from the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);

/** Stops applying a stream's core limits to the calling thread, if that stream is the one in use. */
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);

/** Returns the core limit of one type that applies to the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value);

/* ---- Labels (build-mode models: a switch by index jumps to a label set on
 * the same model stream, within the model's run) ---- */

/** Creates a label (at most 65535 live in the process). */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabel(aclrtLabel *label);

/**
 * Records the label's place in a stream bound to a model (aclmdlRIBindStream):
 * a stream not bound -> 107005; a label set before, or set on another
 * stream, or not yet in a label list -> 507000; of another context -> 507031.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetLabel(aclrtLabel label, aclrtStream stream);

/** Destroys a label; a place it was set keeps working as a target. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabel(aclrtLabel label);

/**
 * Makes a list of num labels (1..65535) for aclrtSwitchLabelByIndex; a label
 * joins one list in its life (a second, or twice in one list -> 507000).
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateLabelList(aclrtLabel *labels, size_t num, aclrtLabelList *labelList);

/** Destroys a label list. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyLabelList(aclrtLabelList labelList);

/**
 * Records in a model stream a jump to labelList[*ptr] (a uint32_t in device
 * memory, read when the run reaches the task; an index of maxValue or more
 * takes the last, maxValue - 1). The label must be set on the same stream;
 * an index past the labels set in the model fails the run (507011).
 */
ACL_FUNC_VISIBILITY aclError aclrtSwitchLabelByIndex(void *ptr, uint32_t maxValue, aclrtLabelList labelList,
                                                     aclrtStream stream);

/* ==== Events ==== */

/** Creates an event with default flags on the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);

/** Creates an event with ACL_EVENT_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);

/** Creates a reusable event, not limited by hardware event slots, with ACL_EVENT_* flags. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag);

/** Destroys an event; its resources are freed once its pending record completes. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/** Records in an event the work issued to a stream so far. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/** Records an event with an ACL_EVENT_RECORD_* flag. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event, aclrtStream stream, uint32_t flag);

/** Issues a task to a stream that resets an event to the not-recorded state. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/** Reports whether an event's recorded work has completed (deprecated form). */
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status);

/** Reports whether an event's recorded work has completed. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);

/** Reports whether every stream wait issued on an event has finished. */
ACL_FUNC_VISIBILITY aclError aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);

/** Blocks until an event's recorded work has completed. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);

/** Blocks until an event's recorded work has completed or timeout ms pass (-1 waits forever). */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);

/** Returns the time in milliseconds between two completed events. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/** Returns the time in microseconds since device start at which an event completed. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);

/** Returns an event's numeric id. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event, uint32_t *eventId);

/** Returns how many more events the current device can create. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);

/** Sets the process-wide timeout in seconds of stream waits on events (0 means none). */
ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout);

/** The process's operator execution timeout in seconds (0: none): a kernel launched without a TIMEOUT
 *  attribute fails with the engine's timeout code when it runs longer. */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout);
/** As aclrtSetOpExecuteTimeOut in milliseconds (at most 1000000: larger values are clamped). */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout);
/** As aclrtSetOpExecuteTimeOut in microseconds; *actualTimeout gets the timeout in force (UINT64_MAX: none). */
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout);
/** The granularity of the operator timeout in microseconds. Needs a current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetOpTimeOutInterval(uint64_t *interval);
/** The operator execution timeout in force, in milliseconds (0: none set). */
ACL_FUNC_VISIBILITY aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs);

/* ==== Saturation mode and overflow status ==== */

/** Sets the process's float overflow mode (SATURATION or INFNAN). */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);
/** The process's float overflow mode. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);
/** Queues a copy of the current context's overflow status (64 bytes, nonzero after a kernel's
 *  aclcpuSetOverflow) to outputAddr on stream (NULL: the default stream). */
ACL_FUNC_VISIBILITY aclError aclrtGetOverflowStatus(void *outputAddr, size_t outputSize, aclrtStream stream);
/** Queues the clearing of the current context's overflow status on stream. */
ACL_FUNC_VISIBILITY aclError aclrtResetOverflowStatus(aclrtStream stream);
/** The current context's overflow area (where the overflow status lives). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetFloatOverflowAddr(void **overflowAddr);
/** As aclrtGetOverflowStatus. */
ACL_FUNC_VISIBILITY aclError aclrtGetFloatOverflowStatus(void *outputAddr, uint64_t outputSize, aclrtStream stream);
/** As aclrtResetOverflowStatus. */
ACL_FUNC_VISIBILITY aclError aclrtResetFloatOverflowStatus(aclrtStream stream);
/** As aclrtGetOverflowStatus (checkMode changes nothing on aclcpu). */
ACL_FUNC_VISIBILITY aclError aclrtNpuGetFloatOverFlowStatus(void *outputAddr, uint64_t outputSize, uint32_t checkMode,
                                                            aclrtStream stream);
/** As aclrtResetOverflowStatus (checkMode changes nothing on aclcpu). */
ACL_FUNC_VISIBILITY aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream);

/** Exports an ACL_EVENT_IPC event as a handle another process can open. */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event, aclrtIpcEventHandle *handle);

/** Opens an event exported by another process. */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle, aclrtEvent *event);

/* ==== Notifies ==== */

/** Creates a notify, a one-shot signal between streams, with an ACL_NOTIFY_* flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);

/** Destroys a notify. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);

/** Issues a task to a stream that sets a notify. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/** Issues to a stream a task that waits for a notify and then clears it (timeout in seconds, 0 = forever). */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/** Returns a notify's numeric id. */
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);

/* ==== Memory ==== */

/** Allocates device memory. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/** Frees device memory allocated by aclrtMalloc. */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/** Allocates page-locked host memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);

/** Frees host memory allocated by aclrtMallocHost. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);

/** Copies count bytes synchronously; destMax is the capacity of dst. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);

/** Issues a copy of count bytes to a stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);

/** Copies a height x width byte matrix synchronously between buffers with the given row pitches. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, aclrtMemcpyKind kind);

/** Sets count bytes to a value synchronously; maxCount is the capacity of devPtr. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/** Issues to a stream a task that sets count bytes to a value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/* ==== Cache maintenance ==== */

typedef enum aclrtCmoType {
    ACL_RT_CMO_TYPE_PREFETCH = 0,
    ACL_RT_CMO_TYPE_WRITEBACK,
    ACL_RT_CMO_TYPE_INVALID,
    ACL_RT_CMO_TYPE_FLUSH
} aclrtCmoType;

/**
 * Issues to a stream a cache operation on size bytes of device memory at
 * src. On a CPU no cache needs maintaining, so the task does nothing to
 * the data; the profiler's model of the SoC moves a PREFETCH's bytes from
 * HBM into L2, where the next kernel reading that buffer finds them. As in
 * CANN: src NULL or size 0 -> 100000; a SoC without CMO (not A2, A3 or
 * 950) -> 207000; cmoType outside 0..3 -> 207000; the size is kept as a
 * 32-bit number (sizes of 4 GiB and more wrap, with a warning).
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream);

/* One barrier of aclrtCmoWaitBarrier: an INVALID operation's barrier id. */
typedef struct {
    aclrtCmoType cmoType;
    uint32_t barrierId;
} aclrtBarrierCmoInfo;

#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

typedef struct {
    size_t barrierNum;
    aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

/*
 * The cache tasks below exist only in a model: on a stream that is neither
 * being captured nor bound to a model being built they give 507000, as in
 * CANN. A CPU keeps no cache to maintain, so in a run they do nothing.
 */

/**
 * A cache operation with a barrier id, on the Atlas 200I/500 A2 (Ascend310B1) only. As in CANN: src NULL -> 100000;
 * another SoC -> 207000; size 0 -> 107000; INVALID with barrierId 0, or another operation with a barrierId -> 107000;
 * cmoType outside 0..3 -> 207000; a stale stream -> 107017; then the context (107002, 107003) and the model (507000).
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithBarrier(void *src, size_t size, aclrtCmoType cmoType, uint32_t barrierId,
                                                      aclrtStream stream);

/**
 * A barrier waiting for the INVALID operations of taskInfo's barrier ids (Ascend310B1 only). As in CANN: taskInfo
 * NULL, or barrierNum 0 or above 6 -> 100000; an entry not INVALID or with barrier id 0 -> 107000; another SoC ->
 * 207000; then the stream, the context and the model as aclrtCmoAsyncWithBarrier. flag is not checked.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo *taskInfo, aclrtStream stream, uint32_t flag);

/** The bytes of a cache descriptor: 32 on A2 and A3, 64 on the 950; another SoC -> 207000, then size NULL -> 107000. */
ACL_FUNC_VISIBILITY aclError aclrtCmoGetDescSize(size_t *size);

/**
 * Writes src and size (kept as 32 bits) into the cache descriptor at cmoDesc, device memory of aclrtCmoGetDescSize's
 * bytes. Another SoC -> 207000; cmoDesc NULL, src NULL, size 0 -> 107000; no current context -> 107002; a capture
 * forbidding synchronous copies in this thread -> 107030; cmoDesc not device memory -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoSetDesc(void *cmoDesc, void *src, size_t size);

/**
 * A cache operation on the range a descriptor names (A2, A3, 950), in a model only. reserve not NULL -> 107000;
 * another SoC -> 207000; a stale stream -> 107017; cmoDesc NULL or cmoType outside 0..3 -> 107000; the context
 * (107002, 107003); the model (507000); cmoDesc not device memory -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtCmoAsyncWithDesc(void *cmoDesc, aclrtCmoType cmoType, aclrtStream stream,
                                                   const void *reserve);

/**
 * Flushes the current device's L2 cache: rsv not NULL -> 100000; no current context -> 107002. A CPU's caches are
 * coherent, so nothing is left to flush (the profiler's modelled L2 keeps its contents).
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceL2CacheFlush(void *rsv);

/* ==== Shared buffers (mbufs) ==== */

/*
 * A shared buffer is a header (a checked handle) with a valid-data length
 * and a 96-byte user-data area, pointing at a data area that
 * aclrtCopyBufRef shares between headers; the data area goes when its last
 * header is freed. Buffers chain: the first buffer of a chain owns the ones
 * appended to it (at most 128 a chain) and freeing it frees them. None of
 * these calls needs aclInit or a device; the data area is host memory (the
 * CPU is the device). A NULL argument -> 100000; a buffer freed, or never
 * made -> 107017.
 */

/** The index-th buffer (0: headBuf itself) of the chain headBuf heads; index past the chain -> 107000. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufFromChain(aclrtMbuf headBuf, uint32_t index, aclrtMbuf *buf);

/** The buffers of the chain headBuf heads, itself included; a buffer appended to another's chain -> 107000. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufChainNum(aclrtMbuf headBuf, uint32_t *num);

/**
 * Appends a lone buffer to the end of headBuf's chain. headBuf appended to
 * another chain, buf == headBuf, buf already appended or heading a chain
 * of its own -> 107000; a chain of 128 already -> 207012.
 */
ACL_FUNC_VISIBILITY aclError aclrtAppendBufChain(aclrtMbuf headBuf, aclrtMbuf buf);

/** A new lone buffer on buf's data area, with a copy of buf's valid-data length and user data. */
ACL_FUNC_VISIBILITY aclError aclrtCopyBufRef(const aclrtMbuf buf, aclrtMbuf *newBuf);

/**
 * Copies size bytes at offset of buf's user-data area to dataPtr. As in
 * CANN: offset + size (modulo the size type) above 96 -> 100000, checked
 * first; size 0 or a sum that wrapped -> 500001.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetBufUserData(const aclrtMbuf buf, void *dataPtr, size_t size, size_t offset);

/** Copies size bytes from dataPtr to offset of buf's user-data area; checks as aclrtGetBufUserData, but size 0 is
 *  accepted below offset 96. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufUserData(aclrtMbuf buf, const void *dataPtr, size_t size, size_t offset);

/** The address and size of buf's data area. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufData(const aclrtMbuf buf, void **dataPtr, size_t *size);

/** buf's valid-data length: 0 until aclrtSetBufDataLen. */
ACL_FUNC_VISIBILITY aclError aclrtGetBufDataLen(aclrtMbuf buf, size_t *len);

/** Sets buf's valid-data length; above the data area's size -> 107000. */
ACL_FUNC_VISIBILITY aclError aclrtSetBufDataLen(aclrtMbuf buf, size_t len);

/** Frees buf and, if it heads a chain, every buffer appended to it; a buffer appended to a chain -> 107000. */
ACL_FUNC_VISIBILITY aclError aclrtFreeBuf(aclrtMbuf buf);

/** A buffer with a data area of size bytes (0 -> 100000, above 4 GiB -> 107000), valid-data length 0. */
ACL_FUNC_VISIBILITY aclError aclrtAllocBuf(aclrtMbuf *buf, size_t size);

/* ==== Trace points and the kernels' hardware sync address ==== */

/**
 * Issues to stream a trace point carrying the first length bytes of userdata read as the packed record {uint64_t
 * id; uint64_t modelId; uint16_t tagId} (18 bytes; the rest zero). A running profile shows it as a mark
 * "trace id=... model=... tag=...". As in CANN: userdata NULL -> 100000; length outside 1..18 -> 107000; a stale
 * stream -> 107017; then the context (107002, 107003).
 */
ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void *userdata, int32_t length, aclrtStream stream);

/**
 * The address of the current device's inter-core sync area, which its kernels may use for synchronisation between
 * cores (4096 bytes, zero at first, the device's for the whole process). As in CANN: addr NULL -> 107000; a SoC
 * other than A2 and A3 -> 207000; no current context -> 107002.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetHardwareSyncAddr(void **addr);

/** Returns the free and total bytes of one kind of device memory. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* ==== Memory: allocation variants and pointer queries ==== */

/* What an aclrtMallocConfig attribute sets. */
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID,
    ACL_RT_MEM_ATTR_DEVICE_ID,
    ACL_RT_MEM_ATTR_VA_FLAG,
} aclrtMallocAttrType;

typedef union {
    uint16_t moduleId;
    uint32_t deviceId;
    uint32_t vaFlag;
    uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;

typedef struct {
    aclrtMallocAttribute *attrs;
    size_t numAttrs;
} aclrtMallocConfig;

/* Where a pointer's memory lives (aclrtPointerGetAttributes). */
typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize;
    uint32_t rsv[4];
} aclrtPtrAttributes;

/* One component's device memory (aclrtGetMemUsageInfo). */
typedef struct aclrtMemUsageInfo {
    char name[32];
    uint64_t curMemSize;
    uint64_t memPeakSize;
    size_t reserved[8];
} aclrtMemUsageInfo;

/* Kinds of device memory aclrtCheckMemType tells apart. */
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

/**
 * aclrtMalloc without the 32 bytes of padding: the size is rounded up to
 * 32 bytes only. devPtr NULL, size 0, or a size whose rounding wraps ->
 * 100000; more than the device's free memory -> 207001.
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/** aclrtMalloc's equal: device memory is cached and coherent with the host here as there. */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/**
 * Device memory with a configuration: rounded to 32 bytes, no padding.
 * cfg may be NULL; otherwise attrs must not be NULL (100000 when numAttrs
 * is not 0, 107000 when it is), and each attribute must be RSV, MODULE_ID
 * or DEVICE_ID naming the current device (107000 otherwise).
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);
/** aclrtMallocWithCfg for memory the task scheduler uses: the same checks and memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocForTaskScheduler(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                         aclrtMallocConfig *cfg);
/**
 * aclrtMallocHost with a configuration: attrs must not be NULL when cfg is
 * given, and each attribute must be MODULE_ID or VA_FLAG (107000 otherwise).
 */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg);
/** Synchronises the current device, then frees as aclrtFree does. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);
/** Synchronises the current device, then frees as aclrtFreeHost does. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);
/** Writes cached data back: CPU caches are coherent, so only the arguments are checked (NULL, size 0). */
ACL_FUNC_VISIBILITY aclError aclrtMemFlush(void *devPtr, size_t size);
/** Invalidates cached data: as aclrtMemFlush, checks only. */
ACL_FUNC_VISIBILITY aclError aclrtMemInvalidate(void *devPtr, size_t size);
/**
 * The device memory a component holds now and at its peak: aclcpu has one
 * component, "APP" (the program's allocations).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum,
                                                  size_t *outputNum);
/**
 * Where ptr's memory lives: DEVICE (with its device id), HOST (pinned or
 * registered), MANAGED, or UNREGISTERED (ordinary host memory), and its
 * page size. A freed device address -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);
/**
 * *checkResult = 1 if every address of addrList is of a kind memType
 * names (ACL_RT_MEM_TYPE_DEV: device memory; 0x20: mapped virtual memory),
 * else 0. reserve must be 0, size not 0, memType only 0x2 | 0x8 | 0x20.
 */
ACL_FUNC_VISIBILITY aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType,
                                               uint32_t *checkResult, uint32_t reserve);
/** The start and size of the allocation or mapping holding ptr (either out-pointer may be NULL, not both). */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize);

/* ==== Memory: copies, sets, values and symbols ==== */

/* aclrtValueWait's tests of the 64-bit word at devAddr against value. */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U /* word >= value */
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U  /* word == value */
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U /* (word & value) != 0 */
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U /* ~(word | value) != 0 */

/** Where the copies of an aclrtMemcpyBatch range read and write; rsv must be 0. */
typedef struct {
    aclrtMemLocation dstLoc;
    aclrtMemLocation srcLoc;
    uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

/**
 * Queues a copy whose host side must be page-locked (aclrtMallocHost) or
 * device memory. Deprecated: use aclrtMemcpyAsync.
 */
ACL_DEPRECATED_MESSAGE("aclrtMemcpyAsyncWithCondition is deprecated, use aclrtMemcpyAsync instead")
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src, size_t count,
                                                           aclrtMemcpyKind kind, aclrtStream stream);
/** Queues a copy of height rows of width bytes (H2D, D2H or D2D; DEFAULT looks). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                                size_t height, aclrtMemcpyKind kind, aclrtStream stream);
/** Fills N 32-bit words at ptr (4-byte aligned, aclrtMalloc or aclrtMallocHost memory) with value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize, uint32_t value, size_t N);
/** As aclrtMemsetD32, as a task of stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize, uint32_t value, size_t N,
                                                 aclrtStream stream);
/**
 * numBatches copies, synchronously; attrs[n] covers the copies from
 * attrsIndexes[n] up to the next range. *failIndex: the copy that failed,
 * or SIZE_MAX.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                              size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                              size_t numAttrs, size_t *failIndex);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                size_t numBatches, aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
                                                size_t numAttrs);
/** As aclrtMemcpyBatch, as tasks of stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                   size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                                                   aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
                                                     size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                                                     size_t *attrsIndexes, size_t numAttrs, aclrtStream stream);
/** The bytes of a copy descriptor (INNER_DEVICE_TO_DEVICE only). */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t *descSize);
/** Writes a copy of count bytes from srcAddr to dstAddr into desc (device memory, 64-byte aligned); config NULL. */
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc, aclrtMemcpyKind kind, void *srcAddr, void *dstAddr,
                                                size_t count, void *config);
/** Queues the copy desc describes, read when the task runs. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc, aclrtMemcpyKind kind, aclrtStream stream);
/**
 * Queues a device copy of count bytes from *src + srcDataOffset to *dst +
 * dstDataOffset, where dst and src are device words holding the bases,
 * read when the task runs.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
                                                        const void **src, size_t count, size_t srcDataOffset,
                                                        aclrtMemcpyKind kind, aclrtStream stream);
/** Queues a write of the 64-bit value at devAddr (device memory); flag 0. */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
/** Queues a wait: the stream goes on once the 64-bit word at devAddr passes flag's test against value. */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream);
/** Maps [devPtr, devPtr+size) for device dstDevId (on one host, every device sees it already); flags 0. */
ACL_FUNC_VISIBILITY aclError aclrtMemP2PMap(void *devPtr, size_t size, int32_t dstDevId, uint64_t flags);
/*
 * Device symbols. On aclcpu a device global a kernel uses is a host variable
 * the program registers with aclcpuRegisterSymbol (aclcpu/aclcpu.h); its
 * device address is its host address. Each call needs a current context;
 * a pointer that is not a registered symbol gives
 * ACL_ERROR_RT_INVALID_SYMBOL. The copies: count 0 succeeds at once; offset
 * + count at most the symbol's size (100000 past it); the kind is
 * HOST_TO_DEVICE or DEFAULT to a symbol, DEVICE_TO_HOST or DEFAULT from one.
 */
/** The device address of symbol. */
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolAddress(const void *symbol, void **devPtr);
/** The size in bytes of the object symbol names. */
ACL_FUNC_VISIBILITY aclError aclrtGetSymbolSize(const void *symbol, size_t *size);
/** Copies count bytes at offset of symbol to dst (dstMax bytes). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbol(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                   size_t offset, aclrtMemcpyKind kind);
/** As aclrtMemcpyFromSymbol, as a task of stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyFromSymbolAsync(void *dst, size_t dstMax, const void *symbol, size_t count,
                                                        size_t offset, aclrtMemcpyKind kind, aclrtStream stream);
/** Copies count bytes from src to symbol at offset. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                                 aclrtMemcpyKind kind);
/** As aclrtMemcpyToSymbol, as a task of stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                                      size_t offset, aclrtMemcpyKind kind, aclrtStream stream);

/* ==== Memory: virtual memory and shareable handles ==== */

/* aclrtMemExportToShareableHandle(V2) flags: whether importers must be on
 * the exporter's pid list (aclrtMemSetPidToShareableHandle). */
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

typedef enum aclrtMemAllocationType {
    ACL_MEM_ALLOCATION_TYPE_PINNED = 0
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
    ACL_MEM_HANDLE_TYPE_NONE = 0,
    ACL_MEM_HANDLE_TYPE_POSIX = 2
} aclrtMemHandleType;

typedef enum aclrtMemSharedHandleType {
    ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
    ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2
} aclrtMemSharedHandleType;

typedef struct aclrtMemFabricHandle {
    uint8_t data[128];
} aclrtMemFabricHandle;

typedef struct aclrtPhysicalMemProp {
    aclrtMemHandleType handleType;
    aclrtMemAllocationType allocationType;
    aclrtMemAttr memAttr;
    aclrtMemLocation location;
    uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
    ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
    ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
    ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF
} aclrtMemGranularityOptions;

/* A physical allocation (aclrtMallocPhysical, or imported). */
typedef void *aclrtDrvMemHandle;

typedef enum {
    ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
    ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
    ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3
} aclrtMemAccessFlags;

typedef struct {
    aclrtMemAccessFlags flags;
    aclrtMemLocation location;
    uint8_t rsv[12];
} aclrtMemAccessDesc;

ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr,
                                                    uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
                                                 const aclrtPhysicalMemProp *prop, uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                         uint64_t flags);
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag);
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                                       aclrtPhysicalMemProp *prop);
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
                                                              aclrtMemGranularityOptions option, size_t *granularity);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                                             uint64_t flags, uint64_t *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                                               aclrtMemSharedHandleType shareType,
                                                               void *shareableHandle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                                               aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
                                                                 aclrtMemSharedHandleType shareType, uint64_t flags,
                                                                 aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
                                                               aclrtMemSharedHandleType shareType, int32_t *pid,
                                                               size_t pidNum);
/* The pid other processes name this one by (pid lists of shareable
 * handles and IPC keys). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);

/** As aclrtReserveMemAddress (the same checks and reservation): a CPU has no uncached memory to leave out. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddressNoUCMemory(void **virPtr, size_t size, size_t alignment,
                                                              void *expectPtr, uint64_t flags);

/**
 * Maps handle at virPtr as aclrtMapMem does (the same checks, in its order), but no location may read or write the
 * range until aclrtMemSetAccess grants it: aclrtMemGetAccess reports NONE, copies refuse it (107000).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapNoAccess(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                                                 uint64_t flags);

/* The link indexes and aclrtMemLinkType are declared with the memory types above. */

/**
 * Maps at virPtrDst, mapping by mapping, the physical allocations mapped from virPtrSrc on, until size bytes are
 * covered (each step maps a whole source mapping; the steps before a failure stay). NULLs, size 0, linkIdx above 1
 * -> 100000; a source address that starts no mapping of a live allocation, or a destination aclrtMapMem would
 * refuse -> 107000. The link picks a route; a CPU has one.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSelectedLink(void *virPtrDst, size_t size, void *virPtrSrc, uint32_t linkIdx);

/** The link mappings of handle prefer: handle NULL -> 100000; adviceLink not an aclrtMemLinkType -> 107000; handle
 *  not a live physical allocation -> 107000. A CPU has one route, so the choice changes nothing. */
ACL_FUNC_VISIBILITY aclError aclrtMemMapSetLink(aclrtDrvMemHandle handle, aclrtMemLinkType adviceLink);

/* ==== Memory: IPC between processes ==== */

/* Keys (aclrtIpcMemGetExportKey, aclrtNotifyGetExportKey) are written to a
 * buffer of at least 65 bytes. aclcpu's keys name the exporting process;
 * only the processes on a key's allow-list (aclrt*SetImportPid) may import
 * it, unless it was exported with DISABLE_PID_VALIDATION: another process
 * gets 207006. The objects live in memory files private to the user, never
 * named in /dev/shm. IPC notifies and events (aclrtIpcGetEventHandle,
 * declared with the events) work across processes with the same waits and
 * records as local ones. */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL

/* Values of ACL_RT_IPC_MEM_ATTR_ACCESS_LINK. */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

typedef enum {
    ACL_RT_IPC_MEM_ATTR_ACCESS_LINK,
} aclrtIpcMemAttrType;

/* An allow-list entry of another server of a super node. */
typedef struct {
    uint32_t sdid;
    int32_t *pid;
    size_t num;
} aclrtServerPid;

/** Shares [devPtr, devPtr+size) of an aclrtMalloc block with other processes; writes its key (len >= 65). */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags);

/** Closes a key in this process: its import (unmapped), or else its export (no new imports). */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);

/** Maps the memory another process exported under key; *devPtr is this process's address of it. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags);

/** Adds num processes to the allow-list of one of this process's memory keys. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num);

/**
 * Sets the link an import of key uses. Refused here (207000): aclcpu's devices share one memory, so there is no
 * link to choose.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key, aclrtIpcMemAttrType type, uint64_t attr);

/**
 * Allow-lists of other servers of a super node, after the argument checks. Refused here (207000): aclcpu runs on
 * one host, with no super node.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportPidInterServer(const char *key, aclrtServerPid *serverPids, size_t num);

/** Makes a notify an IPC notify and writes its key (len >= 65). */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify, char *key, size_t len, uint64_t flags);

/** Opens the notify another process exported under key. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify, const char *key, uint64_t flags);

/** Adds num processes to the allow-list of an exported notify. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify, int32_t *pid, size_t num);

/**
 * Allow-lists of other servers of a super node, after the argument checks. Refused here (207000): aclcpu runs on
 * one host, with no super node.
 */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPidInterServer(aclrtNotify notify, aclrtServerPid *serverPids,
                                                               size_t num);

/** Whether deviceId can reach peerDeviceId's memory: always 1 (aclcpu's devices share the host's memory). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId);

/** Lets the current device reach peerDeviceId's memory (flags must be 0); already so on aclcpu. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags);

/** Undoes aclrtDeviceEnablePeerAccess. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);

/* ==== Memory: host registration and managed memory ==== */

/* aclrtHostRegisterV2 flags (an OR of them; at least one). */
#define ACL_HOST_REG_MAPPED 0x2UL        /* map host memory to a device address */
#define ACL_HOST_REG_IOMEMORY 0x4UL      /* register as I/O memory */
#define ACL_HOST_REG_READONLY 0x8UL      /* the device only reads it */
#define ACL_HOST_REG_PINNED 0x10000000UL /* pin the pages */

/* aclrtMemAllocManaged's one flag: reachable from the host and every device. */
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U

/* aclrtHostRegister's type (0, or IOMEMORY and READONLY ORed). */
typedef enum {
    ACL_HOST_REGISTER_MAPPED = 0,
    ACL_HOST_REGISTER_IOMEMORY = 0x04,
    ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

/* The engines asked about by aclrtHostMemMapCapabilities. */
typedef enum {
    ACL_RT_HAC_TYPE_STARS = 0,
    ACL_RT_HAC_TYPE_AICPU,
    ACL_RT_HAC_TYPE_AIC,
    ACL_RT_HAC_TYPE_AIV,
    ACL_RT_HAC_TYPE_PCIEDMA,
    ACL_RT_HAC_TYPE_RDMA,
    ACL_RT_HAC_TYPE_SDMA,
    ACL_RT_HAC_TYPE_DVPP,
    ACL_RT_HAC_TYPE_UDMA,
    ACL_RT_HAC_TYPE_CCU
} aclrtHacType;

typedef enum { ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0, ACL_RT_HOST_MEM_MAP_SUPPORTED } aclrtHostMemMapCapability;

typedef enum aclrtMemManagedAdviseType {
    ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
    ACL_MEM_ADVISE_UNSET_READ_MOSTLY,
    ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
    ACL_MEM_ADVISE_SET_ACCESSED_BY,
    ACL_MEM_ADVISE_UNSET_ACCESSED_BY
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
    ACL_MEM_LOCATIONTYPE_INVALID = 0,
    ACL_MEM_LOCATIONTYPE_DEVICE,
    ACL_MEM_LOCATIONTYPE_HOST,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA,
    ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT
} aclrtMemManagedLocationType;

typedef struct aclrtMemManagedLocation {
    aclrtMemManagedLocationType type;
    int32_t id;
} aclrtMemManagedLocation;

typedef enum aclrtMemManagedRangeAttribute {
    ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE,
    ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID
} aclrtMemManagedRangeAttribute;

/**
 * Registers [ptr, ptr+size) of host memory for device access and returns
 * its device address in *devPtr. On aclcpu the device shares the host's
 * address space, so *devPtr == ptr (docs/differences.md). type: 0, or
 * ACL_HOST_REGISTER_IOMEMORY / _READONLY ORed (another bit: 207000). A
 * range overlapping a registered one: 507910.
 */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr);

/** Registers host memory with ACL_HOST_REG_* flags (MAPPED gives it a device address). */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag);

/** The device address of a mapped registration; pHost is its start; flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag);

/** Ends the registration that starts at ptr (none: 507911). */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);

/** Whether an engine of device deviceId can reach registered host memory. */
ACL_FUNC_VISIBILITY aclError aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
                                                         aclrtHostMemMapCapability *capabilities);

/**
 * Allocates unified (managed) memory, size rounded up to 2 MiB, reachable
 * from the host and the devices at one address; aclrtFree frees it. flag
 * must be ACL_RT_MEM_ATTACH_GLOBAL. A2 and A3 only (else 207000).
 */
ACL_FUNC_VISIBILITY aclError aclrtMemAllocManaged(void **ptr, uint64_t size, uint32_t flag);

/** Sets or clears an advice on 2 MiB pages of managed memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedAdvise(const void *const ptr, uint64_t size,
                                                   aclrtMemManagedAdviseType advise,
                                                   aclrtMemManagedLocation location);

/** Reads one advice or prefetch attribute of a range of managed memory. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttr(aclrtMemManagedRangeAttribute attribute, const void *ptr,
                                                    size_t size, void *data, size_t dataSize);

/** Reads several attributes of a range of managed memory at once. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedGetAttrs(aclrtMemManagedRangeAttribute *attributes,
                                                     size_t numAttributes, const void *ptr, size_t size,
                                                     void **data, size_t *dataSizes);

/** Issues to a stream a task that moves 2 MiB pages of managed memory to a location. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchAsync(const void *ptr, size_t size,
                                                          aclrtMemManagedLocation location, uint32_t flags,
                                                          aclrtStream stream);

/** Issues a batch of prefetches: prefetchLocs[k] serves ptrs[prefetchLocIdxs[k] .. prefetchLocIdxs[k+1]-1]. */
ACL_FUNC_VISIBILITY aclError aclrtMemManagedPrefetchBatchAsync(const void **ptrs, size_t *sizes, size_t count,
                                                               aclrtMemManagedLocation *prefetchLocs,
                                                               size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                               uint64_t flags, aclrtStream stream);

/* ==== Host callbacks ==== */

/** Makes a host thread the one that runs aclrtLaunchCallback callbacks of a stream. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);

/** Detaches a host thread from a stream's callbacks. */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);

/** Issues to a stream a task that runs fn(userData) on the stream's subscribed thread. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn, void *userData, aclrtCallbackBlockType blockType,
                                                 aclrtStream stream);

/** Runs the calling subscribed thread's pending callbacks, waiting up to timeout ms (-1 waits forever). */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);

/** Issues to a stream a task that runs fn(args) on a runtime thread and blocks the stream until it returns. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);

/**
 * Makes a host thread the one that runs the host functions
 * (aclrtLaunchHostFunc) later issued to a created stream: each runs inside
 * that thread's aclrtProcessHostFunc, and the stream waits until it has
 * returned. One thread per stream; a thread may serve several streams.
 * Separate from aclrtSubscribeReport (callbacks). exeStream NULL -> 107000;
 * already subscribed -> 107011. A host function recorded into a model
 * runs on the thread replaying the model instead.
 */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/**
 * Runs the next host function issued to a stream the calling thread is
 * subscribed to, waiting up to timeout ms for one (-1 waits forever).
 * timeout 0 or below -1 -> 107000; the thread serves no stream -> 107012;
 * none arrived in time -> 507012.
 */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);

/**
 * Detaches a host thread from a stream's host functions; those already
 * waiting for a thread that now serves no stream run in this call.
 * exeStream NULL -> 107000; not subscribed to that thread -> 107011.
 */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* ==== Kernel binaries ==== */

/**
 * Describes dataLen bytes of kernel binary (on aclcpu, a shared object's
 * bytes) as an aclrtBinary, or returns NULL (data NULL: the reason is in
 * aclGetRecentErrMsg). The bytes are not copied: keep them until
 * aclrtBinaryLoad has returned.
 */
ACL_FUNC_VISIBILITY aclrtBinary aclrtCreateBinary(const void *data, size_t dataLen);

/** Frees an aclrtBinary (not what was loaded from it). Already destroyed -> 107017. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyBinary(aclrtBinary binary);

/**
 * Loads the bytes an aclrtBinary describes, as aclrtBinaryLoadFromData
 * does, and returns a handle to their kernels. dataLen 0 -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle *binHandle);

/** Loads a kernel binary from a file (on aclcpu, a shared object); options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);

/** Loads a kernel binary from memory; options may be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void *data, size_t length,
                                                     const aclrtBinaryLoadOptions *options,
                                                     aclrtBinHandle *binHandle);

/** Unloads a kernel binary. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/** Finds a kernel of a loaded binary by name. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
                                                    aclrtFuncHandle *funcHandle);
/**
 * Finds the kernel whose host function is symbol (a kernel registered with
 * aclcpuRegisterKernel): 107044 if none is. Needs a current context.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncBySymbol(const void *symbol, aclrtFuncHandle *funcHandle);

/* ==== Kernel and binary queries (aclcpu: a binary is a CPU shared object, a kernel a host function) ==== */

/** The address range the binary's shared object spans in memory. */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void **binAddr, size_t *binSize);
/** The kernel of binHandle whose code starts at funcEntry (on aclcpu: the address aclrtGetFunctionAddr gives). */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle *funcHandle);
/** A global of the binary by name: its address and size (either out-pointer may be NULL, not both). */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char *name, void **dptr,
                                                  size_t *size);
/** Where the kernel's code starts; on aclcpu both engines run the same host function. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void **aicAddr, void **aivAddr);
/** The size of the kernel's code (0 when its object does not say). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t *aicSize, size_t *aivSize);
/** Copies the kernel's name (maxLen must hold it and its terminator). */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char *name);
/** Registers funcName of a binary loaded with a CPU kernel mode as an AI CPU kernel (kernelName: its op type). */
ACL_FUNC_VISIBILITY aclError aclrtRegisterCpuFunc(const aclrtBinHandle handle, const char *funcName,
                                                  const char *kernelName, aclrtFuncHandle *funcHandle);
/** An attribute of a kernel. */
ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                                       int64_t *attrValue);
/** The binary a kernel comes from (NULL for a kernel the program registered). */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle *binHandle);
/** The kernel's parameter count. Refused here (107000): a CPU kernel carries no parameter information. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount);
/** A parameter's offset and size. Refused here (107000): a CPU kernel carries no parameter information. */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                                       size_t *paramSize);
/** The dynamic unified buffer a SIMT kernel may still ask per block: 0 on aclcpu (no compiler-placed buffer). */
ACL_FUNC_VISIBILITY aclError aclrtFunctionGetAvailDynUbufPerBlock(void *func, uint32_t flags,
                                                                  size_t *dynamicUbufSize);

/* ==== Kernel argument builders ==== */

/** Returns the size of memory needed to hold an argument handle for a kernel. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize);

/**
 * Returns the size of the argument block the runtime needs for userArgsSize bytes of user arguments, after the
 * argument checks. Refused here (207000): argument handles in user memory need the device's argument layout,
 * which a CPU kernel does not have.
 */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                                       size_t *actualArgsSize);

/** Creates an empty argument handle for a kernel. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);

/**
 * Initialises an argument handle in caller-provided host memory of actualArgsSize bytes, after the argument
 * checks. Refused here (207000): argument handles in user memory need the device's argument layout, which a CPU
 * kernel does not have.
 */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                                          void *userHostMem, size_t actualArgsSize);

/** Appends a copy of one parameter to an argument handle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                                                   aclrtParamHandle *paramHandle);

/** Appends a pointer placeholder whose data is supplied later. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                                              aclrtParamHandle *paramHandle);

/** Returns a buffer of dataSize bytes that a placeholder parameter will point to. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                                                 aclrtParamHandle paramHandle, size_t dataSize,
                                                                 void **bufferAddr);

/** Replaces the value of a parameter already appended to an argument handle. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                                       void *param, size_t paramSize);

/** Marks an argument handle complete so that it can be launched. */
ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/* ==== Kernel launch ==== */

/** Issues a kernel on numBlocks blocks to a stream, with arguments packed in device memory. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData,
                                               size_t argsSize, aclrtStream stream);

/** Issues a kernel with packed device-memory arguments and a launch configuration (cfg may be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                 const void *argsData, size_t argsSize, aclrtLaunchKernelCfg *cfg,
                                                 aclrtStream stream);

/** Issues a kernel whose arguments were built with the aclrtKernelArgs* calls (reserve must be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                         aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                         aclrtArgsHandle argsHandle, void *reserve);

/** Issues a kernel with arguments packed in host memory, patching the listed placeholders. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                                           aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                                           void *hostArgs, size_t argsSize,
                                                           aclrtPlaceHolderInfo *placeHolderArray,
                                                           size_t placeHolderNum);

/**
 * Issues a kernel given one host pointer per parameter, in order, after the kernel, stream and argument checks.
 * Refused here (207000): laying the pointers out needs the kernel's parameter information, which a CPU kernel
 * does not have (use aclrtLaunchKernelWithHostArgs).
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream,
                                                            aclrtLaunchKernelCfg *cfg, void **args);

/**
 * Issues a SIMT kernel over a grid of blocks given one host pointer per
 * parameter. A CPU kernel has no parameter information to lay args out by,
 * so on aclcpu a live kernel on a valid stream gets 107000, as CANN
 * answers for such a kernel: use aclrtLaunchSIMTKernelWithHostArgs.
 * Refused here (107000): a CPU kernel has no parameter information.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithArgsArray(void *func, dim3 gridDim, dim3 blockDim,
                                                                size_t dynUbufSize, aclrtStream stream,
                                                                aclrtLaunchKernelCfg *cfg, void **args);

/**
 * Issues a SIMT kernel over a grid of blocks with arguments packed in host
 * memory (copied at the call), patching the listed placeholders. On aclcpu
 * the grid's x * y * z blocks run as those of aclrtLaunchKernelWithHostArgs,
 * numbered x fastest (aclcpuGetBlockIdx() = x + gridDim.x * (y +
 * gridDim.y * z)); the kernel covers a block's blockDim threads itself, and
 * dynUbufSize is unused. Any dimension 0 -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchSIMTKernelWithHostArgs(void *func, dim3 gridDim, dim3 blockDim,
                                                               size_t dynUbufSize, aclrtStream stream,
                                                               aclrtLaunchKernelCfg *cfg, void *hostArgs,
                                                               size_t argsSize,
                                                               aclrtPlaceHolderInfo *placeHolderArray,
                                                               size_t placeHolderNum);

/* ==== Model run instances: their tasks ==== */

/* What aclmdlRITaskGetType and aclmdlRITaskGetParams say a model's task is. */
typedef enum aclmdlRITaskType {
    ACL_MODEL_RI_TASK_DEFAULT,
    ACL_MODEL_RI_TASK_KERNEL,
    ACL_MODEL_RI_TASK_EVENT_RECORD,
    ACL_MODEL_RI_TASK_EVENT_WAIT,
    ACL_MODEL_RI_TASK_EVENT_RESET,
    ACL_MODEL_RI_TASK_VALUE_WRITE,
    ACL_MODEL_RI_TASK_VALUE_WAIT,
} aclmdlRITaskType;

typedef struct aclmdlRIKernelTaskParams {
    aclrtFuncHandle funcHandle;
    aclrtLaunchKernelCfg *cfg;
    void *args;
    uint32_t isHostArgs;
    size_t argsSize;
    uint32_t numBlocks;
    uint32_t rsv[10];
} aclmdlRIKernelTaskParams;

typedef struct aclmdlRIEventRecordTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;  /* the flags the event was created with */
    uint32_t recordFlag; /* ACL_EVENT_RECORD_DEFAULT or ACL_EVENT_RECORD_EXTERNAL */
} aclmdlRIEventRecordTaskParams;

typedef struct aclmdlRIEventWaitTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t waitFlag;   /* ACL_EVENT_WAIT_DEFAULT or ACL_EVENT_WAIT_EXTERNAL */
} aclmdlRIEventWaitTaskParams;

typedef struct aclmdlRIEventResetTaskParams {
    aclrtEvent event;
    uint32_t eventFlag;
    uint32_t resetFlag;
} aclmdlRIEventResetTaskParams;

typedef struct aclmdlRIValueWriteTaskParams {
    void *devAddr;
    uint64_t value;
} aclmdlRIValueWriteTaskParams;

typedef struct aclmdlRIValueWaitTaskParams {
    void *devAddr;
    uint64_t value;
    uint32_t flag;
} aclmdlRIValueWaitTaskParams;

typedef struct aclmdlRITaskParams {
    aclmdlRITaskType type;
    uint32_t rsv0[3];
    aclrtTaskGrp taskGrp;
    void *opInfoPtr;
    size_t opInfoSize;
    uint8_t rsv1[32];
    union {
        uint8_t rsv2[128];
        struct aclmdlRIKernelTaskParams kernelTaskParams;
        struct aclmdlRIEventRecordTaskParams eventRecordTaskParams;
        struct aclmdlRIEventWaitTaskParams eventWaitTaskParams;
        struct aclmdlRIEventResetTaskParams eventResetTaskParams;
        struct aclmdlRIValueWriteTaskParams valueWriteTaskParams;
        struct aclmdlRIValueWaitTaskParams valueWaitTaskParams;
    };
} aclmdlRITaskParams;

/**
 * A task's parameters (a captured model's; the event tasks of a built
 * model too). A kernel's args point at aclcpu's copy of its argument
 * bytes (isHostArgs 0, cfg NULL). The handles of aclmdlRIGetTasksByStream
 * name a task until its model is destroyed or an aclmdlRIUpdate drops it
 * (disabled); a stale one -> 107017. Not on Atlas inference (310P):
 * 207000.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetParams(aclmdlRITask task, aclmdlRITaskParams *params);

/**
 * Changes a captured model's task: a kernel task takes a kernel, its
 * arguments (copied now), block count and launch attributes; a kernel or
 * value task can become a value write or wait. The model then refuses to
 * run (507011) until aclmdlRIUpdate. A model that runs or is captured ->
 * 107040; a failed change leaves the model unusable (its update fails,
 * 107040), as in the runtime. aclcpu: an event task cannot be changed
 * (207000), and value tasks need device memory (107000).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskSetParams(aclmdlRITask task, aclmdlRITaskParams *params);

/**
 * A kernel task's launch attribute: SCHEM_MODE, DYN_UBUF_SIZE (0 on
 * aclcpu), DATA_DUMP (0), TIMEOUT (s), TIMEOUT_US; ENGINE_TYPE,
 * BLOCKDIM_OFFSET, BLOCK_TASK_PREFETCH and other ids -> 107000.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIKernelTaskGetAttribute(aclmdlRITask task, aclrtLaunchKernelAttrId attrId,
                                                            aclrtLaunchKernelAttrValue *attrValue);

/**
 * Applies a captured model's task changes: disabled tasks leave the model
 * (their handles go stale), changed ones stay, and the model runs again.
 * Nothing changed -> success; a failed change -> 107040.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIUpdate(aclmdlRI modelRI);

/** Marks a captured model's task to leave the model at the next aclmdlRIUpdate. */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskDisable(aclmdlRITask task);

/* ==== Model run instances: building ==== */

/** Creates an empty model run instance to be built from bound streams (flag must be 0). */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildBegin(aclmdlRI *modelRI, uint32_t flag);

/** Binds a persistent stream to a model as ACL_MODEL_STREAM_FLAG_HEAD or ACL_MODEL_STREAM_FLAG_DEFAULT. */
ACL_FUNC_VISIBILITY aclError aclmdlRIBindStream(aclmdlRI modelRI, aclrtStream stream, uint32_t flag);

/** Adds the model's end task to a bound stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRIEndTask(aclmdlRI modelRI, aclrtStream stream);

/** Finishes building a model so that it can be executed (reserve must be NULL). */
ACL_FUNC_VISIBILITY aclError aclmdlRIBuildEnd(aclmdlRI modelRI, void *reserve);

/** Unbinds a stream from a model. */
ACL_FUNC_VISIBILITY aclError aclmdlRIUnbindStream(aclmdlRI modelRI, aclrtStream stream);

/**
 * Runs a model and blocks until it finishes or timeout ms pass (-1 waits
 * forever; 0 or < -1 -> 107000). aclcpu: a timeout returns 507046 (the
 * run goes on); a captured model -> 107000 (aclmdlRIExecuteAsync only).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout);

/**
 * Issues one run of a model to a stream: it starts when the stream gets to
 * it and later work on the stream waits for it. Runs of one model are
 * serialised, from any number of streams. A model stream -> 107000, a
 * capturing stream -> 107027, a model still being captured -> 107026; on
 * Ascend 950 a PERSISTENT, CPU_SCHEDULE or DEVICE_USE_ONLY stream ->
 * 107000. A captured model's external records (ACL_EVENT_RECORD_EXTERNAL)
 * are issued by this call, so a wait issued afterwards waits for this
 * run's; its external waits wait for the event's newest record now. aclcpu: the run's result (its first failing
 * kernel's code, 507023 after aclmdlRIAbort) is what a sync of the stream
 * returns; a failing kernel does not stop the rest of the run.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream);

/** Destroys a model run instance. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

/**
 * Stops the run under way: the running kernel starts no more blocks and
 * nothing more of the run starts; its stream's sync returns 507023. Not
 * for captured models (207000).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIAbort(aclmdlRI modelRI);

/**
 * Makes a condition for the model being captured (modelRI from
 * aclmdlRICaptureGetInfo): an 8-byte device word, 0 at first; with
 * ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, each aclmdlRIExecuteAsync of the
 * model writes defaultLaunchValue into it when it launches the run.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue,
                                                      aclmdlRICondHandleFlag flag, aclmdlRICondHandle *handle);

/** The condition's device word. */
ACL_FUNC_VISIBILITY aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t **ptr);

/**
 * Adds to a capturing stream a conditional task on params.handle, and makes
 * its sub models (params.modelRIArray), to be captured with
 * aclmdlRICaptureToModelRIBegin. When a run reaches it: IF runs sub model
 * 0 when the condition is not 0, else sub model 1 (if any); WHILE runs its
 * sub model while the condition is not 0; SWITCH runs sub model
 * [condition] (none when it is size or more). The stream goes on once the
 * sub model's run has ended.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags);

/** Sets a model's name. */
ACL_FUNC_VISIBILITY aclError aclmdlRISetName(aclmdlRI modelRI, const char *name);

/** Copies a model's whole name into name, which holds maxLen bytes (too small -> 507000; 0 -> 107000). */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetName(aclmdlRI modelRI, uint32_t maxLen, char *name);

/** Returns a model's numeric id. */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetId(aclmdlRI modelRI, uint32_t *modelRIId);

/**
 * With streams NULL, sets *numStreams to the model's stream count; else
 * fills the first min(*numStreams, count), NULLs the rest of the array and
 * sets *numStreams to the number given (107039 when not all fitted).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetStreams(aclmdlRI modelRI, aclrtStream *streams, uint32_t *numStreams);

/**
 * Like aclmdlRIGetStreams, for the tasks of the model stream (the bound or
 * last captured lane of stream; 107000 if it has none). The handles are
 * opaque names, not pointers, that the aclmdlRITask* calls take.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIGetTasksByStream(aclrtStream stream, aclmdlRITask *tasks, uint32_t *numTasks);

/** A task's type (207000 on Atlas training and Atlas 200I/500 A2, before the arguments). */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetType(aclmdlRITask task, aclmdlRITaskType *type);

/** A captured model's task's sequence id: its place among the model's tasks (built model -> 207000). */
ACL_FUNC_VISIBILITY aclError aclmdlRITaskGetSeqId(aclmdlRITask task, uint32_t *id);

/**
 * Registers func(userData) to be called when the model is destroyed
 * (aclmdlRIDestroy, or its context's teardown), once, on the destroying
 * thread, after its runs ended. Callbacks run in the order of their
 * functions' addresses; a function registered already -> 107000. aclcpu:
 * those run by a context's teardown (aclrtDestroyContext, aclrtResetDevice,
 * aclFinalize) must not set, reset or create devices and contexts.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyRegisterCallback(aclmdlRI modelRI, aclrtCallback func, void *userData);

/** Unregisters a model's destroy callback (not registered -> 107000). */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroyUnregisterCallback(aclmdlRI modelRI, aclrtCallback func);

/** Prints a description of a model to the log (deprecated form). */
ACL_DEPRECATED_MESSAGE("aclmdlRIDebugPrint is deprecated, use aclmdlRIDebugJsonPrint instead")
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugPrint(aclmdlRI modelRI);

/** Writes a JSON description of a model to a file; the ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE bit of flags adds details. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags);

/* ==== Model run instances: stream capture ==== */

/**
 * Starts recording the tasks issued to a stream into a new model instead
 * of running them. A stream that waits on an event recorded in the capture
 * joins it. While capturing: sync/query/destroy of the stream -> 107027,
 * query/sync/elapsed of a captured event -> 107028, a wait on an event
 * recorded outside -> 107024; the mode decides which threads may make
 * unsafe calls (sync copies and memsets -> 107030, async copies of
 * pageable memory -> 107041); none of these touches the capture. A wait
 * on an event recorded in another capture under way -> 107032, and both
 * captures are invalidated. aclcpu: host functions replay on the executor; callbacks are
 * refused (507009); wait timeouts are not kept in models.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode);

/** Reports a stream's capture status and, while capturing, the model being recorded. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
                                                    aclmdlRI *modelRI);

/**
 * Ends the capture begun on stream and returns the recorded model. Not
 * capturing -> 107029; modelRI NULL while capturing -> 107000 (the
 * capture goes on); a stream that only joined -> 107036; a mode other
 * than RELAXED ended by another thread -> 107038; invalidated -> 507903;
 * a joined stream whose last task is not joined back into this one ->
 * 107024. A capture that fails gives no model.
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI);

/** Swaps the calling thread's capture mode with *mode. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);

/**
 * Starts recording the tasks issued to a stream into an existing model: a
 * sub model of aclmdlRIAddCondTask not captured yet, or (aclcpu's own) an
 * empty model from aclmdlRIBuildBegin of the stream's context (107000
 * otherwise).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI,
                                                           aclmdlRICaptureMode mode);

/** Starts a task group within the capture on a stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream);

/** Ends the task group on a capturing stream and returns its handle. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp *handle);

/**
 * Starts collecting replacements for a task group's kernels: kernels issued
 * to stream (which must not be capturing) until aclmdlRICaptureTaskUpdateEnd
 * are recorded, not run. The swap itself is a task of stream (a different
 * count -> 107000 at the end).
 */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle);

/** Ends the task group update started on a stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream);

/* ---- System and device information ---------------------------------------- */

typedef enum aclrtGroupAttr {
    ACL_GROUP_AICORE_INT,
    ACL_GROUP_AIV_INT,
    ACL_GROUP_AIC_INT,
    ACL_GROUP_SDMANUM_INT,
    ACL_GROUP_ASQNUM_INT,
    ACL_GROUP_GROUPID_INT
} aclrtGroupAttr;

typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;

typedef struct aclrtUtilizationInfo {
    int32_t cubeUtilization;
    int32_t vectorUtilization;
    int32_t aicpuUtilization;
    int32_t memoryUtilization;
    aclrtUtilizationExtendInfo *utilizationExtend; /* reserved: must be NULL */
} aclrtUtilizationInfo;

typedef enum aclrtDeviceStatus {
    ACL_RT_DEVICE_STATUS_NORMAL = 0,
    ACL_RT_DEVICE_STATUS_ABNORMAL,
    ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

typedef enum {
    ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
    ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
    ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
    ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
    ACL_DEV_ATTR_WARP_SIZE = 202,
    ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
    ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE ACL_DEPRECATED_MESSAGE("Use ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE instead") =
        204,
    ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,
    ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
    ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
    ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
    ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
    ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
    ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,
    ACL_DEV_ATTR_L2_CACHE_SIZE = 302,
    ACL_DEV_ATTR_SMP_ID = 401U,
    ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
    ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U, /* deprecated spelling */
    ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
    ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
    ACL_DEV_ATTR_SUPER_POD_ID = 405U,
    ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
    ACL_DEV_ATTR_MAINBOARD_ID = 407U,
    ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,
    ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,
    ACL_DEV_ATTR_IS_VIRTUAL = 501U,
    ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

/* What ACL_DEV_ATTR_DEVICE_FORM_FACTOR answers. */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

typedef enum {
    ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
    ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

/* The links aclrtGetDevicesTopo reports (a bit set). */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL

typedef struct aclrtUuid {
    char bytes[16];
} aclrtUuid;

#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

typedef enum aclCANNPackageName {
    ACL_PKG_NAME_CANN,
    ACL_PKG_NAME_RUNTIME,
    ACL_PKG_NAME_COMPILER,
    ACL_PKG_NAME_HCCL,
    ACL_PKG_NAME_TOOLKIT,
    ACL_PKG_NAME_OPP,
    ACL_PKG_NAME_OPP_KERNEL,
    ACL_PKG_NAME_DRIVER
} aclCANNPackageName;

typedef struct aclCANNPackageVersion {
    char version[ACL_PKG_VERSION_MAX_SIZE];
    char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
    char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

typedef enum aclrtAtomicOperationCapability {
    ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
    ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
    ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2, /* deprecated spelling */
    ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
    ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
    ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

typedef enum aclrtAtomicOperation {
    ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
    ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
    ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
    ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
    ACL_RT_ATOMIC_OPERATION_AND = 5,
    ACL_RT_ATOMIC_OPERATION_OR = 6,
    ACL_RT_ATOMIC_OPERATION_XOR = 7,
    ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
    ACL_RT_ATOMIC_OPERATION_CAS = 9,
    ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
    ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,

    ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
    ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
    ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,

    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
    ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

typedef enum aclrtDeviceLimit {
    ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
    ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
    ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
    ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
    ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

/* Who registers an aclInit / aclFinalize callback. */
typedef enum aclRegisterCallbackType {
    ACL_REG_TYPE_ACL_MODEL,
    ACL_REG_TYPE_ACL_OP_EXECUTOR,
    ACL_REG_TYPE_ACL_OP_CBLAS,
    ACL_REG_TYPE_ACL_OP_COMPILER,
    ACL_REG_TYPE_ACL_TDT_CHANNEL,
    ACL_REG_TYPE_ACL_TDT_QUEUE,
    ACL_REG_TYPE_ACL_DVPP,
    ACL_REG_TYPE_ACL_RETR,
    ACL_REG_TYPE_OTHER = 0xFFFF,
} aclRegisterCallbackType;
typedef aclError (*aclInitCallbackFunc)(const char *configStr, size_t len, void *userData);
typedef aclError (*aclFinalizeCallbackFunc)(void *userData);

/** Deprecated: a CANN package's version, split in parts (aclcpu's own version: docs/differences.md). */
ACL_DEPRECATED_MESSAGE("aclsysGetCANNVersion is deprecated, use aclsysGetVersionStr and aclsysGetVersionNum instead")
ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version);

/** A package's version as text ("runtime", "driver", ...; 100003 for a package aclcpu does not stand for). */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr);

/** A package's version as a number: major*10000000 + minor*100000 + patch*1000, less 300/200/100 for alpha/beta/rc. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum);

/** Deprecated: the ACL interface version (ACL_MAJOR_VERSION.ACL_MINOR_VERSION.ACL_PATCH_VERSION). */
ACL_DEPRECATED_MESSAGE("aclrtGetVersion is deprecated, use aclSysGetVersion instead")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

/** Whether operators built for socVersion run on this device's architecture (*canCompatible 1 or 0). */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible);

/** A device attribute (core counts, memory size, ids) from the device's SoC profile. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value);

/** Whether the device supports a feature (*value 1 or 0). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value);

/** The device's running status (always normal on aclcpu's devices). */
ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);

/** How busy the device's cores are, in percent (-1 where not measured). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo);

/** The links between two devices (ACL_RT_DEVS_TOPOLOGY_*). */
ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value);

/** Device id translations (user, logical and physical ids are the same on aclcpu). */
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);

/** The device's UUID (stable for a device id within aclcpu). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid);

/** The device's PCI bus id, "dddd:bb:dd.f" (len: at least 13). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len);

/** The device with a PCI bus id aclrtDeviceGetPCIBusId gave. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId);

/** Sets a per-process device limit (stack and printf FIFO sizes, bytes). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value);

/** Reads a device limit. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value);

/** Which atomic operations device memory supports against the host (one capability mask per operation). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
                                                                  const aclrtAtomicOperation *operations,
                                                                  const uint32_t count, int32_t deviceId);

/** Which atomic operations one device supports on another's memory. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
                                                                 const aclrtAtomicOperation *operations,
                                                                 const uint32_t count, int32_t srcDeviceId,
                                                                 int32_t dstDeviceId);

/** Whether deviceId can reach peerDeviceId's memory (*status 1 or 0). */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status);

/** Whether the device's default context exists (*active 1 or 0); flags is reserved and must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active);

/** A system parameter option in the current context (107021 if never set there). */
ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/** Sets a system parameter option in the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value);

/** A system parameter option of the process (0 until set). */
ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value);

/** Sets a system parameter option for the process. */
ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value);

/** Picks the task scheduler (AI Core or AI Vector); aclcpu has one, so this only checks tsId. */
ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId);

/* Compute-power groups, not on the modelled SoCs: each call makes its
 * argument checks first. */
/** Selects a group. Refused here (207000): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId);
/** The number of groups. Refused here (207000): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count);
/** Makes a group information block. Refused here (NULL): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void);
/** Frees a group information block. Refused here (207000): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo);
/** Fills every group's information. Refused here (207000): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo);
/** One group's attribute. Refused here (207000): no modelled SoC has compute-power groups. */
ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex,
                                                     aclrtGroupAttr attr, void *attrValue, size_t valueLen,
                                                     size_t *paramRetSize);

/** A callback aclInit runs (at once if aclInit already ran); one per type but ACL_REG_TYPE_OTHER. */
ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData);
ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc);

/** A callback aclFinalize runs; one per type but ACL_REG_TYPE_OTHER. */
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                                         void *userData);
ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc);

/* ==== Errors and exception information ==== */

#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14

typedef struct aclrtMemUceInfo {
    void *addr;
    size_t len;
    size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef enum {
    ACL_RT_NO_ERROR = 0,
    ACL_RT_ERROR_MEMORY = 1,
    ACL_RT_ERROR_L2 = 2,
    ACL_RT_ERROR_AICORE = 3,
    ACL_RT_ERROR_LINK = 4,
    ACL_RT_ERROR_L3_PORT = 5,
    ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
    ACL_RT_AICORE_ERROR_UNKNOWN,
    ACL_RT_AICORE_ERROR_SW,
    ACL_RT_AICORE_ERROR_HW_LOCAL,
} aclrtAicoreErrorType;

#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
typedef struct {
    size_t arraySize;
    aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
    aclrtMemUceInfoArray uceInfo;
    aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

typedef struct aclrtErrorInfo {
    uint8_t tryRepair;
    uint8_t hasDetail;
    uint8_t reserved[2];
    aclrtErrorType errorType;
    aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;

/**
 * The calling thread's last runtime error: the code of the last call of
 * this thread that failed (ACL_SUCCESS if none since it was cleared).
 * Peek leaves it; Get clears it. level must be ACL_RT_THREAD_LEVEL.
 */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);

/**
 * The process's exception callback (one; the last set wins, NULL clears it).
 * Called when a task fails, on the thread that ran the task, before any
 * sync can see the failure.
 */
ACL_DEPRECATED_MESSAGE("aclrtSetExceptionInfoCallback is deprecated, use aclrtExceptionInfoCallbackRegister and aclrtExceptionInfoCallbackUnregister instead")
ACL_FUNC_VISIBILITY aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback);

/** Registers one more exception callback (registering it twice keeps one). */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback);

/** Unregisters a callback registered by aclrtExceptionInfoCallbackRegister (unknown: no-op). */
ACL_FUNC_VISIBILITY aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback);

/** The fields of the exception information handed to a callback; 0xFFFFFFFF if info is NULL. */
ACL_FUNC_VISIBILITY uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo *info);
ACL_FUNC_VISIBILITY uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo *info);

/** The failing kernel's argument bytes (valid during the callback). */
ACL_FUNC_VISIBILITY aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo *info, void **devArgsPtr,
                                                           uint32_t *devArgsLen);

/** The failing kernel's function handle. */
ACL_FUNC_VISIBILITY aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo *info,
                                                                 aclrtFuncHandle *func);

/** A binary's own exception callback: called when one of its kernels fails. */
ACL_FUNC_VISIBILITY aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                                             aclrtOpExceptionCallback callback, void *userData);

/** The id of the last task the calling thread issued to a stream. */
ACL_FUNC_VISIBILITY aclError aclrtGetThreadLastTaskId(uint32_t *taskId);

/** A device fault's details: on the A2, A3 and 950 families "no error" (a CPU device never has a fault), refused
 * with 207000 on the other SoCs, as the reference refuses it on chips without fault reporting. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo);
/** Repairs a device fault: "no error" needs none and succeeds; a memory fault (a CPU has none) gives 207000. */
ACL_FUNC_VISIBILITY aclError aclrtRepairError(int32_t deviceId, const aclrtErrorInfo *errorInfo);

/**
 * Caches an operator's information for graph profiling. Refused here (207000): it serves the device's ACL graph
 * profiling, which aclcpu does not have.
 */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskOpInfo(const void *const infoPtr, const size_t infoSize);
/**
 * Caches extended task information for graph profiling. Refused here (207000): it serves the device's ACL graph
 * profiling, which aclcpu does not have.
 */
ACL_FUNC_VISIBILITY aclError aclrtCacheLastTaskExtendInfo(const char *const extendInfoPtr, const size_t infoSize);

/* ---- Recovery: device task abort, device state, memory UCE, snapshots, dump ---- */

/* The stage a device task abort callback is called at. */
typedef enum {
    ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
    ACL_RT_DEVICE_TASK_ABORT_POST,
} aclrtDeviceTaskAbortStage;

/* A device's state change, as a device state callback hears of it. */
typedef enum {
    ACL_RT_DEVICE_STATE_SET_PRE = 0,
    ACL_RT_DEVICE_STATE_SET_POST,
    ACL_RT_DEVICE_STATE_RESET_PRE,
    ACL_RT_DEVICE_STATE_RESET_POST,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId, aclrtDeviceState state, void *args);

/*
 * The snapshot stages. Backing up: LOCK_PRE, aclrtSnapShotProcessLock, BACKUP_PRE, aclrtSnapShotProcessBackup,
 * BACKUP_POST, aclrtSnapShotProcessUnlock, UNLOCK_POST. Restoring: RESTORE_PRE, aclrtSnapShotProcessRestore,
 * RESTORE_POST, aclrtSnapShotProcessUnlock, UNLOCK_POST.
 */
typedef enum {
    ACL_RT_SNAPSHOT_LOCK_PRE = 0,
    ACL_RT_SNAPSHOT_BACKUP_PRE,
    ACL_RT_SNAPSHOT_BACKUP_POST,
    ACL_RT_SNAPSHOT_RESTORE_PRE,
    ACL_RT_SNAPSHOT_RESTORE_POST,
    ACL_RT_SNAPSHOT_UNLOCK_POST,
} aclrtSnapShotStage;

/* A snapshot stage callback, called once per open device; non-zero fails the stage. */
typedef uint32_t (*aclrtSnapShotCallBack)(int32_t deviceId, void *args);

typedef struct aclrtSnapShotBackupArgs {
    uint32_t backupFlags;
    char reserved[60];
} aclrtSnapShotBackupArgs;

typedef struct aclrtSnapShotRestoreArgs {
    uint32_t restoreFlags;
    char reserved[60];
} aclrtSnapShotRestoreArgs;

/* A device task abort callback: non-zero fails the abort. timeout is what is left of the abort's (0: none). */
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout,
                                                void *args);

/* The process's snapshot state. */
typedef enum aclrtProcessState {
    ACL_RT_PROCESS_STATE_RUNNING = 0,
    ACL_RT_PROCESS_STATE_LOCKED,
} aclrtProcessState;

/**
 * The device's memory UCE (uncorrectable ECC error) addresses. A CPU device's memory reports none: *retSize is 0
 * after the checks.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUceInfo(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize,
                                                size_t *retSize);

/**
 * Stops every task of a device: every stream's running task at its next block and its queued ones; the
 * registered abort callbacks hear PRE before and POST after. Streams stay usable.
 */
ACL_FUNC_VISIBILITY aclError aclrtDeviceTaskAbort(int32_t deviceId, uint32_t timeout);

/**
 * Repairs memory UCE addresses, after the argument checks. Refused here (207000): a CPU device's memory reports
 * no UCE, so there is nothing to repair.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemUceRepair(int32_t deviceId, aclrtMemUceInfo *memUceInfoArray, size_t arraySize);

/** Starts the data-dump state (after aclInit; once until aclmdlFinalizeDump). */
ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void);

/**
 * Sets the dump configuration from a JSON file, after the state and file checks. Refused here (207000): aclcpu
 * has no data-dump server to write operator data, so only an empty configuration file is accepted.
 */
ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char *dumpCfgPath);

/** Ends the data-dump state aclmdlInitDump started. */
ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void);

/** Registers (or, with a NULL callback, unregisters) a named device state callback. */
ACL_FUNC_VISIBILITY aclError aclrtRegDeviceStateCallback(const char *regName, aclrtDeviceStateCallback callback,
                                                         void *args);

/** Registers (or, with a NULL callback, unregisters) a named device task abort callback. */
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceTaskAbortCallback(const char *regName,
                                                             aclrtDeviceTaskAbortCallback callback, void *args);

/**
 * Locks the process for a snapshot: until aclrtSnapShotProcessUnlock, new work submitted to streams waits, and so
 * do device, context, stream, event, notify and memory calls (after their argument checks).
 */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessLock(int pid, void *reserve);

/** Unlocks the process (locked or backed up); waiting submissions go on. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessUnlock(int pid, void *reserve);

/** Backs up the locked process: waits for every stream, then copies the contents of every device allocation. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessBackup(int pid, aclrtSnapShotBackupArgs *args);

/** Restores the device allocations of the last backup that still exist; the process is locked again. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotProcessRestore(int pid, aclrtSnapShotRestoreArgs *args);

/** Registers a callback for a snapshot stage (once per stage and function). */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackRegister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback,
                                                           void *args);

/** Unregisters a snapshot stage callback. */
ACL_FUNC_VISIBILITY aclError aclrtSnapShotCallbackUnregister(aclrtSnapShotStage stage, aclrtSnapShotCallBack callback);
/* ---- built-in tasks: reduce and random numbers (acl_rt.h of the reference) ---- */

typedef enum {
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
    ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/** One parameter of a random number task: a value (isAddr 0) of size bytes, or (isAddr 1) the address of one. */
typedef struct {
    uint8_t isAddr;
    uint8_t valueOrAddr[8];
    uint8_t size;
    uint8_t rsv[6];
} aclrtRandomParaInfo;

typedef struct {
    aclrtRandomParaInfo dropoutRation;
} aclrtDropoutBitmaskInfo;

typedef struct {
    aclrtRandomParaInfo min;
    aclrtRandomParaInfo max;
} aclrtUniformDisInfo;

typedef struct {
    aclrtRandomParaInfo mean;
    aclrtRandomParaInfo stddev;
} aclrtNormalDisInfo;

typedef enum {
    ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK = 0,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS,
    ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS,
} aclrtRandomNumFuncType;

typedef struct {
    aclrtRandomNumFuncType funcType;
    union {
        aclrtDropoutBitmaskInfo dropoutBitmaskInfo;
        aclrtUniformDisInfo uniformDisInfo;
        aclrtNormalDisInfo normalDisInfo;
    } paramInfo;
} aclrtRandomNumFuncParaInfo;

typedef struct {
    aclDataType dataType;
    aclrtRandomNumFuncParaInfo randomNumFuncParaInfo;
    void *randomParaAddr;
    void *randomResultAddr;
    void *randomCounterAddr;
    aclrtRandomParaInfo randomSeed;
    aclrtRandomParaInfo randomNum;
    uint8_t rsv[8];
} aclrtRandomNumTaskInfo;

typedef enum {
    ACL_RT_UPDATE_RANDOM_TASK = 1,
    ACL_RT_UPDATE_AIC_AIV_TASK,
} aclrtUpdateTaskAttrId;

typedef struct {
    void *srcAddr;
    size_t size;
    uint32_t rsv[4];
} aclrtRandomTaskUpdateAttr;

typedef struct {
    void *binHandle;
    void *funcEntryAddr;
    void *blockDimAddr;
    uint32_t rsv[4];
} aclrtAicAivTaskUpdateAttr;

typedef union {
    aclrtRandomTaskUpdateAttr randomTaskAttr;
    aclrtAicAivTaskUpdateAttr aicAivTaskAttr;
} aclrtUpdateTaskAttrVal;

typedef struct {
    aclrtUpdateTaskAttrId id;
    aclrtUpdateTaskAttrVal val;
} aclrtTaskUpdateInfo;

/* ---- counting notifies ---- */

typedef enum {
    ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
    ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
    ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,

    ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
    aclrtCntNotifyRecordMode mode;
    uint32_t value;
} aclrtCntNotifyRecordInfo;

typedef enum {
    ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
    ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
    ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

typedef struct {
    aclrtCntNotifyWaitMode mode;
    uint32_t value;
    uint32_t timeout;
    uint8_t isClear;
    uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

/** Reduces count bytes of src into dst (dst = dst op src, element by element) on the stream; reserve must be NULL. */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src, uint64_t count, aclrtReduceKind kind,
                                              aclDataType type, aclrtStream stream, void *reserve);

/** Generates random numbers on the stream (Philox4x32-10 from the seed and the 16-byte counter, which it advances). */
ACL_FUNC_VISIBILITY aclError aclrtRandomNumAsync(const aclrtRandomNumTaskInfo *taskInfo, const aclrtStream stream,
                                                 void *reserve);

/**
 * Updates a queued task's parameters, after the checks. Refused here (207000): aclcpu does not rewrite a queued
 * task.
 */
ACL_FUNC_VISIBILITY aclError aclrtTaskUpdateAsync(aclrtStream taskStream, uint32_t taskId, aclrtTaskUpdateInfo *info,
                                                  aclrtStream execStream);

/** Resets num notifies (clears a record no wait has consumed). */
ACL_FUNC_VISIBILITY aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num);

/** Creates a counting notify (a 32-bit value records change and waits test); flag must be 0. Ascend 950 only. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag);
/** Destroys a counting notify. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify);
/** Queues a record on the stream: sets, adds, ORs or ANDs info->value into the notify's value. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
                                                  aclrtCntNotifyRecordInfo *info);
/** Queues a wait on the stream until the value passes info's test (timeout in s, 0 forever); isClear zeroes it. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify, aclrtStream stream,
                                                           aclrtCntNotifyWaitInfo *info);
/** Queues a reset of the value to 0 on the stream. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream);
/** The counting notify's id. */
ACL_FUNC_VISIBILITY aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_RT_H_ */
