/*
 * 0_runtime_compatibility.c - the CANN sample
 * example/0_quickstart/3_cross_version/0_runtime_compatibility, in C:
 * reads the runtime package's version, the CANN attributes, whether
 * operators built for this SoC run here, and one device capability.
 *
 * On aclcpu the version is aclcpu's own and the attributes and the
 * capability come from the SoC profile (docs/differences.md, "System and
 * device information").
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"

static const char *cann_attr_name(aclCannAttr attr)
{
    switch (attr) {
    case ACL_CANN_ATTR_INF_NAN:
        return "ACL_CANN_ATTR_INF_NAN";
    case ACL_CANN_ATTR_BF16:
        return "ACL_CANN_ATTR_BF16";
    case ACL_CANN_ATTR_JIT_COMPILE:
        return "ACL_CANN_ATTR_JIT_COMPILE";
    default:
        return "ACL_CANN_ATTR_UNKNOWN";
    }
}

static int query_version(void)
{
    char pkg[] = "runtime";
    char text[ACL_PKG_VERSION_MAX_SIZE] = {0};
    int32_t num = 0;
    CHECK_ERROR(aclsysGetVersionStr(pkg, text));
    CHECK_ERROR(aclsysGetVersionNum(pkg, &num));
    INFO_LOG("CANN package [%s] version string: %s", pkg, text);
    INFO_LOG("CANN package [%s] version number: %d", pkg, num);
    return 0;
}

static int query_attributes(void)
{
    const aclCannAttr *list = NULL;
    size_t count = 0;
    CHECK_ERROR(aclGetCannAttributeList(&list, &count));
    INFO_LOG("CANN attribute count: %zu", count);
    for (size_t i = 0; i < count && i < 3; i++) {
        int32_t value = 0;
        CHECK_ERROR(aclGetCannAttribute(list[i], &value));
        INFO_LOG("CANN attribute %s support value: %d", cann_attr_name(list[i]), value);
    }
    return 0;
}

static int query_compatibility(int32_t device)
{
    const char *soc = aclrtGetSocName();
    int32_t capability = 0;
    if (soc == NULL || soc[0] == '\0') {
        WARN_LOG("aclrtGetSocName returned empty soc name. Skip architecture compatibility check.");
    } else {
        int32_t compatible = 0;
        CHECK_ERROR(aclrtCheckArchCompatibility(soc, &compatible));
        INFO_LOG("Architecture compatibility for %s: %d", soc, compatible);
    }
    CHECK_ERROR(aclrtGetDeviceCapability(device, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &capability));
    INFO_LOG("Device capability ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV: %d", capability);
    return 0;
}

int main(void)
{
    const int32_t device = 0;
    aclError cleanup;
    int ret;
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(device));
    ret = query_version();
    if (ret == 0)
        ret = query_attributes();
    if (ret == 0)
        ret = query_compatibility(device);
    cleanup = aclrtResetDeviceForce(device);
    if (cleanup != ACL_SUCCESS) {
        ERROR_LOG("Operation failed: aclrtResetDeviceForce(deviceId) returned error code %d", (int)cleanup);
        ret = ret == 0 ? -1 : ret;
    }
    cleanup = aclFinalize();
    if (cleanup != ACL_SUCCESS) {
        ERROR_LOG("Operation failed: aclFinalize() returned error code %d", (int)cleanup);
        ret = ret == 0 ? -1 : ret;
    }
    if (ret == 0)
        INFO_LOG("[SUCCESS] Runtime compatibility sample completed successfully");
    return ret;
}
