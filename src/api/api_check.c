/*
 * api_check.c - the race and lifetime checker's API: turning it on, its
 * report count, and kernels' declared accesses (docs/checker.md). The
 * checker itself is core/check.c.
 *
 * Threads: any host thread. Locks: none here (check.c's check_lock).
 */
#include "api_int.h"
#include "../core/check.h"

#define DECLARED_WORDS_MAX 512u

ACLCPU_API aclError aclcpuCheckEnable(aclcpuCheckMode mode)
{
    if (mode != ACLCPU_CHECK_EXIT && mode != ACLCPU_CHECK_REPORT)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclcpuCheckEnable: argument 'mode' is %d; it must be "
                        "ACLCPU_CHECK_EXIT (1) or ACLCPU_CHECK_REPORT (2)", (int)mode);
    return check_enable((int)mode);
}

ACLCPU_API aclError aclcpuCheckGetReportCount(uint64_t *count)
{
    if (count == NULL)
        return null_arg("aclcpuCheckGetReportCount", "count");
    *count = check_report_count();
    return ACL_SUCCESS;
}

ACLCPU_API aclError aclcpuCheckDeclareArg(aclrtFuncHandle funcHandle, uint32_t argIndex, aclcpuCheckAccess access,
                                          size_t size, int32_t sizeArgIndex)
{
    const char *fn = "aclcpuCheckDeclareArg";
    struct kfunc *kf;
    if (funcHandle == NULL)
        return null_arg(fn, "funcHandle");
    if ((kf = (struct kfunc *)obj_resolve(funcHandle, OBJ_FUNC)) == NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'funcHandle' (%p) is no live kernel", fn, funcHandle);
    if (argIndex >= DECLARED_WORDS_MAX)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'argIndex' is %u; it must be below %u", fn, argIndex,
                        DECLARED_WORDS_MAX);
    if (access != ACLCPU_CHECK_READ && access != ACLCPU_CHECK_WRITE && access != ACLCPU_CHECK_READ_WRITE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'access' is %d; it must be ACLCPU_CHECK_READ, "
                        "ACLCPU_CHECK_WRITE or ACLCPU_CHECK_READ_WRITE", fn, (int)access);
    if (size == 0)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'size' is 0; it must be the bytes (or, with "
                        "'sizeArgIndex', the bytes per element) the kernel touches", fn);
    if (sizeArgIndex < -1 || sizeArgIndex >= (int32_t)DECLARED_WORDS_MAX)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'sizeArgIndex' is %d; it must be -1 (a constant "
                        "size) or an argument word below %u", fn, sizeArgIndex, DECLARED_WORDS_MAX);
    return check_declare(fn, kf, argIndex, (uint32_t)access, size, sizeArgIndex);
}
