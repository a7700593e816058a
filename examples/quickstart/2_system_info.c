/*
 * 2_system_info - the CANN runtime sample example/0_quickstart/2_system_info,
 * in C on aclcpu.
 *
 * Queries what needs no device: the runtime package's version (string and
 * number; on aclcpu its own version), the run mode, a float to float16 and
 * back conversion, and the byte sizes of three data types.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

static const char *RunModeToString(aclrtRunMode runMode) { return runMode == ACL_HOST ? "ACL_HOST" : "ACL_DEVICE"; }

static aclError PrintCannVersionInfo(void)
{
    char pkgName[] = "runtime";
    char versionStr[ACL_PKG_VERSION_MAX_SIZE] = {0};
    int32_t versionNum = 0;
    aclError ret = aclsysGetVersionStr(pkgName, versionStr);
    if (ret != ACL_SUCCESS)
        return ret;
    ret = aclsysGetVersionNum(pkgName, &versionNum);
    if (ret != ACL_SUCCESS)
        return ret;
    INFO_LOG("CANN package [%s] version string: %s", pkgName, versionStr);
    INFO_LOG("CANN package [%s] version number: %d", pkgName, versionNum);
    return ACL_SUCCESS;
}

int main(void)
{
    aclrtRunMode runMode = ACL_HOST;
    float originalValue = 1.625f, restoredValue;
    aclFloat16 fp16Value;

    CHECK_ERROR(aclInit(NULL));
    INFO_LOG("ACL init successfully");
    CHECK_ERROR(PrintCannVersionInfo());

    CHECK_ERROR(aclrtGetRunMode(&runMode));
    INFO_LOG("Current run mode: %s", RunModeToString(runMode));

    fp16Value = aclFloatToFloat16(originalValue);
    restoredValue = aclFloat16ToFloat(fp16Value);
    INFO_LOG("Float conversion: %.6f -> 0x%04x -> %.6f", originalValue, (unsigned int)fp16Value, restoredValue);
    INFO_LOG("Data type size: ACL_FLOAT=%zu, ACL_FLOAT16=%zu, ACL_INT64=%zu", aclDataTypeSize(ACL_FLOAT),
             aclDataTypeSize(ACL_FLOAT16), aclDataTypeSize(ACL_INT64));

    CHECK_ERROR(aclFinalize());
    INFO_LOG("ACL finalize successfully");
    return 0;
}
