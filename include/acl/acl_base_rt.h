/*
 * acl/acl_base_rt.h - the runtime part of CANN's base header, as provided
 * by aclcpu: data types, tensor formats, data buffers, the half-precision
 * conversions and the application log; system parameter options, CANN
 * attributes and the basic device capabilities.
 *
 * CANN's acl_base.h includes this header; aclcpu's acl_base.h does too (at
 * its end), and this one includes acl_base.h, so either may be included
 * first. Names and numeric values follow CANN's acl_base_rt.h.
 */
#ifndef ACLCPU_ACL_ACL_BASE_RT_H_
#define ACLCPU_ACL_ACL_BASE_RT_H_

#include <stdint.h>
#include <stddef.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A (data, size) pair: the address and length of memory the caller owns.
 * Opaque; made by aclCreateDataBuffer, ended by aclDestroyDataBuffer. */
typedef struct aclDataBuffer aclDataBuffer;

/* Element types of tensors (values as in CANN). */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41,
} aclDataType;

/* Tensor layouts (values as in CANN). */
typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
    ACL_FORMAT_FRACTAL_NZ_C0_16 = 50,
    ACL_FORMAT_FRACTAL_NZ_C0_32 = 51,
    ACL_FORMAT_FRACTAL_NZ_C0_2 = 52,
    ACL_FORMAT_FRACTAL_NZ_C0_4 = 53,
    ACL_FORMAT_FRACTAL_NZ_C0_8 = 54,
} aclFormat;

/* Levels of aclAppLog, the same scale as ASCEND_GLOBAL_LOG_LEVEL. */
typedef enum {
    ACL_DEBUG = 0,
    ACL_INFO = 1,
    ACL_WARNING = 2,
    ACL_ERROR = 3,
} aclLogLevel;

/* Where a buffer lives (the model and operator APIs of CANN take it). */
typedef enum { ACL_MEMTYPE_DEVICE = 0, ACL_MEMTYPE_HOST = 1, ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT = 2 } aclMemType;

/**
 * Half to float, exactly, as CANN does it: every finite half becomes the
 * same number; a half whose exponent field is all ones (infinity or NaN)
 * is read as a finite number with exponent 16, so +Inf gives 65536.0f,
 * -Inf -65536.0f and the NaN 0x7E00 98304.0f. The sign of zero is kept.
 */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/**
 * Float to half, rounding to nearest with ties to even, saturating as
 * CANN does: a value that would round to infinity (65520 and above),
 * +Inf and every NaN give 65504 (0x7BFF), their negatives -65504 (0xFBFF;
 * a NaN's sign bit decides). Values below half of the smallest subnormal
 * (2^-25 itself included) give a zero of their sign.
 */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

/**
 * Makes a data buffer holding data and size. Neither is checked: NULL
 * data and size 0 are valid. The memory stays the caller's. Works without
 * aclInit. Returns NULL only when out of memory (or past 1048576 live
 * buffers).
 */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/**
 * Ends a data buffer (not the memory it names). NULL, or a buffer already
 * destroyed or not made by aclCreateDataBuffer: ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/**
 * Replaces the buffer's data and size (unchecked, as at creation); the old
 * memory stays the caller's. A NULL or dead buffer: ACL_ERROR_INVALID_PARAM.
 */
ACL_FUNC_VISIBILITY aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size);

/** The buffer's data address; NULL for a NULL or dead buffer. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/** The buffer's size cut to its low 32 bits; 0 for a NULL or dead buffer. */
ACL_DEPRECATED_MESSAGE("aclGetDataBufferSize is deprecated, use aclGetDataBufferSizeV2 instead")
ACL_FUNC_VISIBILITY uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer);

/** The buffer's size; 0 for a NULL or dead buffer. */
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/**
 * Bytes of one element of dataType, as CANN answers: 0 for ACL_STRING and
 * ACL_DT_UNDEFINED, 1 for the sub-byte ACL_INT4 and ACL_UINT1, 4 for
 * ACL_COMPLEX32, 16 for ACL_COMPLEX128, and 8 for ACL_INT64, ACL_UINT64,
 * ACL_DOUBLE, ACL_COMPLEX64 and every value CANN does not list (the
 * 6- and 4-bit float types among them).
 */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/**
 * Writes an application log line to aclcpu's log ("tid func:file:line:
 * \"message\""), at logLevel when ASCEND_GLOBAL_LOG_LEVEL lets it through
 * (printed with ASCEND_SLOG_PRINT_TO_STDOUT=1). NULL func, file or fmt,
 * or a level outside ACL_DEBUG..ACL_ERROR, writes nothing; a format with a
 * %n conversion is refused (an error line says so). A line longer than
 * 1023 characters is cut and ends in "...[truncated]".
 */
ACL_FUNC_VISIBILITY void aclAppLog(aclLogLevel logLevel, const char *func, const char *file, uint32_t line,
                                   const char *fmt, ...);

#define ACL_APP_LOG(level, fmt, ...) aclAppLog(level, __FUNCTION__, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* Options of aclrt(Ctx)SetSysParamOpt / aclrt(Ctx)GetSysParamOpt. */
typedef enum {
    ACL_OPT_DETERMINISTIC = 0, /* 0 off, 1 deterministic, 2 strong consistency, 3 batch consistency */
    ACL_OPT_ENABLE_DEBUG_KERNEL = 1,
    ACL_OPT_STRONG_CONSISTENCY ACL_DEPRECATED_MESSAGE(
        "ACL_OPT_STRONG_CONSISTENCY is deprecated, use ACL_OPT_DETERMINISTIC with value 2 instead") = 2,
    ACL_OPT_ENABLE_KERNEL_EARLY_START = 3
} aclSysParamOpt;

/* Attributes of the installed CANN (aclGetCannAttribute). */
typedef enum {
    ACL_CANN_ATTR_UNDEFINED = -1,
    ACL_CANN_ATTR_INF_NAN = 0,
    ACL_CANN_ATTR_BF16 = 1,
    ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

/* Device capabilities of aclGetDeviceCapability. */
typedef enum {
    ACL_DEVICE_INFO_UNDEFINED = -1,
    ACL_DEVICE_INFO_AI_CORE_NUM = 0,
    ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
    ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/** The CANN attributes this build knows (a static list; *num entries). */
ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);

/** Whether a CANN attribute is available: *value 1 yes, 0 no (100000 for an unknown attribute). */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value);

/** A capability of device deviceId (core counts, L2 size in bytes) from its SoC profile. */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_BASE_RT_H_ */
