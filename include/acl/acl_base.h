/*
 * acl/acl_base.h - base types, export macros and error codes of the CANN
 * runtime C API, as provided by aclcpu (a CPU implementation of that API).
 *
 * Names, types and numeric values follow the CANN headers so that programs
 * written for Ascend compile unchanged (docs/api.md says where these facts
 * come from).
 */
#ifndef ACLCPU_ACL_ACL_BASE_H_
#define ACLCPU_ACL_ACL_BASE_H_

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclcpu is built with hidden visibility, so every public declaration is
 * marked for export. Unlike CANN this does not depend on FUNC_VISIBILITY.
 */
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

/* Marks a declaration as deprecated, with a message where supported: as in
 * CANN, for GCC 6 and later only (clang reports __GNUC__ 4, so it warns not). */
#if defined(__GNUC__) && __GNUC__ >= 6
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* ---- Opaque handles: each is an untyped pointer. ---- */

typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclrtNotify;
typedef void *aclrtCntNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclmdlRITask;
typedef void *aclrtTaskGrp;
typedef void *aclmdlRI;
typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;
typedef void *aclrtDrvMemHandle;

/* ---- Scalar types ---- */

/* Return type of every API call: ACL_SUCCESS or one of the codes below. */
typedef int aclError;

/* Raw bits of an IEEE 754 half-precision number. */
typedef uint16_t aclFloat16;

/* ---- Opaque structures and callbacks ---- */

/* Information about a failed device task, passed to exception callbacks. */
typedef struct rtExceptionInfo aclrtExceptionInfo;

/* Core-group information (opaque). */
typedef struct tagRtGroupInfo aclrtGroupInfo;

/* Host callback queued with aclrtLaunchCallback. */
typedef void (*aclrtCallback)(void *userData);

/* Host function queued with aclrtLaunchHostFunc. */
typedef void (*aclrtHostFunc)(void *args);

/* Process-wide callback invoked when a device task fails. */
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

/* Per-binary callback invoked when a kernel of that binary fails. */
typedef void (*aclrtOpExceptionCallback)(aclrtExceptionInfo *exceptionInfo, void *userData);

/* ---- Error codes of the ACL layer (CANN declares these as static const int) ---- */

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;

static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;

static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;

static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/* The other codes of the ACL layer: model, operator, queue and file codes
 * of the full CANN headers (the dump codes come with the dump API). aclcpu's
 * runtime API returns none of them; they are declared so that host code that
 * names them compiles. */
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;
static const int ACL_ERROR_DRV_FAILURE = 500004;

/* ---- Error codes of the runtime layer (CANN declares these as macros) ---- */

#define ACL_RT_SUCCESS 0

#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_MODEL_CONTEXT 107004
#define ACL_ERROR_RT_STREAM_MODEL 107005
#define ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID 107006
#define ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL 107007
#define ACL_ERROR_RT_ADDR_UNALIGNED 107008
#define ACL_ERROR_RT_STREAM_SUBSCRIBE 107011
#define ACL_ERROR_RT_THREAD_SUBSCRIBE 107012
#define ACL_ERROR_RT_STREAM_NO_CB_REG 107015
#define ACL_ERROR_RT_INVALID_MEMORY_TYPE 107016
#define ACL_ERROR_RT_INVALID_HANDLE 107017
#define ACL_ERROR_RT_WAIT_TIMEOUT 107019
#define ACL_ERROR_RT_TASK_TIMEOUT 107020
#define ACL_ERROR_RT_SYSPARAMOPT_NOT_SET 107021
#define ACL_ERROR_RT_DEVICE_TASK_ABORT 107022
#define ACL_ERROR_RT_STREAM_ABORT 107023
#define ACL_ERROR_RT_CAPTURE_DEPENDENCY 107024
#define ACL_ERROR_RT_MODEL_CAPTURED 107026
#define ACL_ERROR_RT_STREAM_CAPTURED 107027
#define ACL_ERROR_RT_EVENT_CAPTURED 107028
#define ACL_ERROR_RT_STREAM_NOT_CAPTURED 107029
#define ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT 107030
#define ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT 107031
#define ACL_ERROR_STREAM_CAPTURE_CONFLICT 107032
#define ACL_ERROR_STREAM_TASK_GROUP_STATUS 107033
#define ACL_ERROR_STREAM_TASK_GROUP_INTR 107034
#define ACL_ERROR_RT_TASK_ABORT_STOP 107035
#define ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED 107036
#define ACL_ERROR_RT_MODEL_RUNNING 107037
#define ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD 107038
#define ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY 107039
#define ACL_ERROR_RT_MODEL_UPDATE_FAILED 107040
#define ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC 107041
#define ACL_ERROR_RT_INVALID_SYMBOL 107043
#define ACL_ERROR_RT_INVALID_DEVICE_FUNCTION 107044
#define ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING 107045

#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_MEMORY_FREE 207002
#define ACL_ERROR_RT_AICORE_OVER_FLOW 207003
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_RESOURCE_ALLOC_FAIL 207005
#define ACL_ERROR_RT_NO_PERMISSION 207006
#define ACL_ERROR_RT_NO_EVENT_RESOURCE 207007
#define ACL_ERROR_RT_NO_STREAM_RESOURCE 207008
#define ACL_ERROR_RT_NO_NOTIFY_RESOURCE 207009
#define ACL_ERROR_RT_NO_MODEL_RESOURCE 207010
#define ACL_ERROR_RT_OVER_LIMIT 207012
#define ACL_ERROR_RT_AIVEC_OVER_FLOW 207016
#define ACL_ERROR_RT_OVER_FLOW 207017
#define ACL_ERROR_RT_DEVICE_OOM 207018

#define ACL_ERROR_RT_INTERNAL_ERROR 507000
#define ACL_ERROR_RT_STREAM_TASK_FULL 507002
#define ACL_ERROR_RT_STREAM_TASK_EMPTY 507003
#define ACL_ERROR_RT_STREAM_NOT_COMPLETE 507004
#define ACL_ERROR_RT_END_OF_SEQUENCE 507005
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE 507006
#define ACL_ERROR_RT_CONTEXT_RELEASE_ERROR 507007
#define ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT 507009
#define ACL_ERROR_RT_MODEL_EXECUTE 507011
#define ACL_ERROR_RT_REPORT_TIMEOUT 507012
#define ACL_ERROR_RT_SYS_DMA 507013
#define ACL_ERROR_RT_AICORE_TIMEOUT 507014
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015
#define ACL_ERROR_RT_AICORE_TRAP_EXCEPTION 507016
#define ACL_ERROR_RT_AICPU_EXCEPTION 507018
#define ACL_ERROR_RT_MODEL_ABORT_NORMAL 507023
#define ACL_ERROR_RT_LABEL_CONTEXT 507031
#define ACL_ERROR_RT_DEV_SETUP_ERROR 507033
#define ACL_ERROR_RT_VECTOR_CORE_TIMEOUT 507034
#define ACL_ERROR_RT_VECTOR_CORE_EXCEPTION 507035
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION 507036
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT 507046
#define ACL_ERROR_RT_EVENT_SYNC_TIMEOUT 507047
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899
#define ACL_ERROR_RT_AICPU_INTERNAL_ERROR 507900
#define ACL_ERROR_RT_SOCKET_CLOSE 507901
#define ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED 507903
#define ACL_ERROR_RT_COMM_OP_RETRY_FAIL 507904
#define ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT 507905
#define ACL_ERROR_SNAPSHOT_LOCK_FAILED 507906
#define ACL_ERROR_SNAPSHOT_UNLOCK_FAILED 507907
#define ACL_ERROR_SNAPSHOT_BACKUP_FAILED 507908
#define ACL_ERROR_SNAPSHOT_RESTORE_FAILED 507909
#define ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED 507910
#define ACL_ERROR_HOST_MEMORY_NOT_REGISTERED 507911
#define ACL_ERROR_SNAPSHOT_CALLBACK_FAILED 507912
#define ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED 507913

/* The other runtime codes of CANN's error_codes/rt_error_codes.h (hardware
 * faults, AICPU, die and CCU codes; the snapshot codes come with the snapshot
 * API). aclcpu returns only the codes its errors table lists; these are
 * declared for host code that names them. */
#define ACL_ERROR_RT_FILE_OPEN 107009
#define ACL_ERROR_RT_FILE_WRITE 107010
#define ACL_ERROR_RT_GROUP_NOT_SET 107013
#define ACL_ERROR_RT_GROUP_NOT_CREATE 107014
#define ACL_ERROR_RT_INVALID_MALLOC_TYPE 107018
#define ACL_ERROR_RT_STREAM_UNJOINED 107025
#define ACL_ERROR_RT_SYMBOL_NOT_FOUND 107042
#define ACL_ERROR_RT_NO_CDQ_RESOURCE 207011
#define ACL_ERROR_RT_QUEUE_EMPTY 207013
#define ACL_ERROR_RT_QUEUE_FULL 207014
#define ACL_ERROR_RT_REPEATED_INIT 207015
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP 207019
#define ACL_ERROR_RT_TIMEOUT 207020
#define ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED 207021
#define ACL_ERROR_RT_TS_ERROR 507001
#define ACL_ERROR_RT_SOC_VERSION 507008
#define ACL_ERROR_RT_LOST_HEARTBEAT 507010
#define ACL_ERROR_RT_AICPU_TIMEOUT 507017
#define ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR 507019
#define ACL_ERROR_RT_AICPU_MODEL_RSP_ERR 507020
#define ACL_ERROR_RT_PROFILING_ERROR 507021
#define ACL_ERROR_RT_IPC_ERROR 507022
#define ACL_ERROR_RT_KERNEL_UNREGISTERING 507024
#define ACL_ERROR_RT_RINGBUFFER_NOT_INIT 507025
#define ACL_ERROR_RT_RINGBUFFER_NO_DATA 507026
#define ACL_ERROR_RT_KERNEL_LOOKUP 507027
#define ACL_ERROR_RT_KERNEL_DUPLICATE 507028
#define ACL_ERROR_RT_DEBUG_REGISTER_FAIL 507029
#define ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL 507030
#define ACL_ERROR_RT_PROGRAM_USE_OUT 507032
#define ACL_ERROR_RT_CDQ_BATCH_ABNORMAL 507037
#define ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR 507038
#define ACL_ERROR_RT_DIE_SET_ERROR 507039
#define ACL_ERROR_RT_INVALID_DIEID 507040
#define ACL_ERROR_RT_DIE_MODE_NOT_SET 507041
#define ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW 507042
#define ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW 507043
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW 507044
#define ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW 507045
#define ACL_ERROR_RT_FFTS_PLUS_TIMEOUT 507048
#define ACL_ERROR_RT_FFTS_PLUS_EXCEPTION 507049
#define ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION 507050
#define ACL_ERROR_RT_SEND_MSG 507051
#define ACL_ERROR_RT_COPY_DATA 507052
#define ACL_ERROR_RT_DEVICE_MEM_ERROR 507053
#define ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR 507054
#define ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR 507055
#define ACL_ERROR_RT_LINK_ERROR 507056
#define ACL_ERROR_RT_SUSPECT_REMOTE_ERROR 507057
#define ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR 507902
#define ACL_ERROR_RT_L3_PORT_ERROR 507914
#define ACL_ERROR_RT_CCU_TIMEOUT 507915
#define ACL_ERROR_RT_CCU_EXCEPTION 507916

/* ---- Functions ---- */

/** Returns the name of the SoC being emulated, or NULL on failure. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/** Returns and clears the calling thread's accumulated error text, or NULL if there is none. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

/* Data types, formats, data buffers and the calls on them. CANN's
 * acl_base.h includes it first; it needs the declarations above, and
 * includes this header itself, so either order works. */
#include "acl_base_rt.h"
/* The GE codes (CANN: error_codes/ge_error_codes.h, which acl_base.h includes). */
#include "error_codes/ge_error_codes.h"

#endif /* ACLCPU_ACL_ACL_BASE_H_ */
