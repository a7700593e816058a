/*
 * acl/acl_base_rt.h - the runtime part of CANN's base header: system
 * parameter options, CANN attributes and the basic device capabilities,
 * as provided by aclcpu. acl_base.h includes it, as CANN's does.
 *
 * Names, types and numeric values follow the CANN headers.
 */
#ifndef ACLCPU_ACL_ACL_BASE_RT_H_
#define ACLCPU_ACL_ACL_BASE_RT_H_

#include <stdint.h>
#include <stddef.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

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
