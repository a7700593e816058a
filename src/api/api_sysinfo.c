/*
 * api_sysinfo.c - system and device information: versions, CANN
 * attributes, device attributes and capabilities, id translations, UUID
 * and PCI bus ids, device limits, system parameter options, the primary
 * context's state, compute-power groups, and the aclInit / aclFinalize
 * callbacks (registered in core/initcb.c, run here for api_runtime.c).
 *
 * DESIGN: every answer comes from the device's SoC profile (core/soc.c)
 * and its memory size (device_describe: the same numbers aclrtGetSocName
 * and aclrtGetMemInfo give), or from aclcpu's own version
 * (ACLCPU_VERSION_TEXT, the project's version: docs/differences.md).
 * Argument checks follow the reference's acl layer, then its runtime
 * decorator. The process-wide system parameter options and device limits
 * are atomics of this file (relaxed: each is a value of its own).
 *
 * Threads: any host thread. Locks: none of this file's own; the core calls
 * take device->lock, the admin lock or initcb_lock briefly. Callbacks run
 * with no lock held.
 */
#include <stdio.h>
#include <string.h>

#include "api_int.h"

#ifndef ACLCPU_VERSION_TEXT
#error "ACLCPU_VERSION_TEXT comes from CMakeLists.txt (the project's version)"
#endif

/* ---- helpers ---------------------------------------------------------------- */

/* The device deviceId names, or NULL after recording code and why. */
static struct device *need_device(const char *fn, const char *arg, int64_t id, aclError code)
{
    struct device *d = (id < 0 || id > INT32_MAX) ? NULL : device_get((int32_t)id);
    if (d == NULL)
        acl_fail(code, "%s: argument '%s' (%lld) is not a device; valid ids are 0..%u (ACLCPU_DEVICE_COUNT)", fn, arg,
                 (long long)id, device_count() - 1);
    return d;
}

/* The SoC in force for questions not about one device: the current
 * context's device, else the configured profile (as aclrtGetSocName). */
static const struct soc_profile *current_soc(void)
{
    struct context *ctx = ctx_current();
    return ctx != NULL ? ctx->dev->soc : soc_configured();
}

/* The NPU architecture of a SoC family (aclcpu's numbering after CANN's
 * "DAV_xxxx" arch names): operators built for one family run on another
 * of the same architecture. */
static int64_t npu_arch(enum soc_family f)
{
    switch (f) {
    case SOC_A2:
    case SOC_A3:
        return 2201;
    case SOC_950:
        return 3510;
    case SOC_310P:
        return 2002;
    case SOC_910:
        return 1001;
    case SOC_200I500A2:
        return 3002;
    }
    return 0;
}

/* ---- versions --------------------------------------------------------------- */

/* aclcpu stands for these packages; the others are not installed (100003,
 * as the reference answers for a package without a version file). */
static bool known_package(const char *name)
{
    return strcmp(name, "runtime") == 0 || strcmp(name, "driver") == 0;
}

/* Parses "X.Y.Z" into the reference's number (X*10^7 + Y*10^5 + Z*10^3). */
static int32_t version_number(const char *text)
{
    unsigned major = 0, minor = 0, patch = 0;
    if (sscanf(text, "%u.%u.%u", &major, &minor, &patch) != 3)
        return 0;
    return (int32_t)(major * 10000000u + minor * 100000u + patch * 1000u);
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
    const char *fn = "aclsysGetVersionStr";
    if (versionStr == NULL)
        return null_arg(fn, "versionStr");
    if (pkgName == NULL)
        return null_arg(fn, "pkgName");
    if (!known_package(pkgName))
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'pkgName' (\"%s\") is no package aclcpu stands for "
                        "(it answers \"runtime\" and \"driver\")", fn, pkgName);
    snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", ACLCPU_VERSION_TEXT);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
    const char *fn = "aclsysGetVersionNum";
    if (versionNum == NULL)
        return null_arg(fn, "versionNum");
    if (pkgName == NULL)
        return null_arg(fn, "pkgName");
    if (!known_package(pkgName))
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'pkgName' (\"%s\") is no package aclcpu stands for "
                        "(it answers \"runtime\" and \"driver\")", fn, pkgName);
    *versionNum = version_number(ACLCPU_VERSION_TEXT);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion *version)
{
    const char *fn = "aclsysGetCANNVersion";
    unsigned parts[3] = {0, 0, 0};
    if (version == NULL)
        return null_arg(fn, "version");
    switch (name) {
    case ACL_PKG_NAME_CANN:
    case ACL_PKG_NAME_RUNTIME:
    case ACL_PKG_NAME_DRIVER:
        break;
    case ACL_PKG_NAME_COMPILER:
    case ACL_PKG_NAME_HCCL:
    case ACL_PKG_NAME_TOOLKIT:
    case ACL_PKG_NAME_OPP:
    case ACL_PKG_NAME_OPP_KERNEL:
        return acl_fail(ACL_ERROR_INVALID_FILE, "%s: argument 'name' (%d): that package is not part of aclcpu", fn,
                        (int)name);
    default:
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'name' (%d) is not an aclCANNPackageName (0..%d)", fn,
                        (int)name, (int)ACL_PKG_NAME_DRIVER);
    }
    memset(version, 0, sizeof(*version));
    (void)sscanf(ACLCPU_VERSION_TEXT, "%u.%u.%u", &parts[0], &parts[1], &parts[2]);
    snprintf(version->version, sizeof(version->version), "%s", ACLCPU_VERSION_TEXT);
    snprintf(version->majorVersion, sizeof(version->majorVersion), "%u", parts[0]);
    snprintf(version->minorVersion, sizeof(version->minorVersion), "%u", parts[1]);
    snprintf(version->releaseVersion, sizeof(version->releaseVersion), "%u", parts[2]);
    snprintf(version->patchVersion, sizeof(version->patchVersion), "0");
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)
{
    const char *fn = "aclrtGetVersion";
    if (majorVersion == NULL)
        return null_arg(fn, "majorVersion");
    if (minorVersion == NULL)
        return null_arg(fn, "minorVersion");
    if (patchVersion == NULL)
        return null_arg(fn, "patchVersion");
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

/* ---- CANN attributes and basic capabilities ----------------------------------- */

static const aclCannAttr cann_attrs[] = {ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16, ACL_CANN_ATTR_JIT_COMPILE};

ACL_FUNC_VISIBILITY aclError aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num)
{
    if (cannAttrList == NULL)
        return null_arg("aclGetCannAttributeList", "cannAttrList");
    if (num == NULL)
        return null_arg("aclGetCannAttributeList", "num");
    *cannAttrList = cann_attrs;
    *num = ACLCPU_ARRAY_SIZE(cann_attrs);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t *value)
{
    const char *fn = "aclGetCannAttribute";
    enum soc_family f;
    if (value == NULL)
        return null_arg(fn, "value");
    f = current_soc()->family;
    switch (cannAttr) {
    case ACL_CANN_ATTR_INF_NAN: /* a CPU's floats keep inf and nan */
        *value = 1;
        return ACL_SUCCESS;
    case ACL_CANN_ATTR_BF16: /* the SoC's vector units have bf16 */
        *value = (f == SOC_A2 || f == SOC_A3 || f == SOC_950) ? 1 : 0;
        return ACL_SUCCESS;
    case ACL_CANN_ATTR_JIT_COMPILE: /* aclcpu compiles no operators */
        *value = 0;
        return ACL_SUCCESS;
    default:
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'cannAttr' (%d) is not one of the attributes "
                        "aclGetCannAttributeList gives (0..2)", fn, (int)cannAttr);
    }
}

ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t *value)
{
    const char *fn = "aclGetDeviceCapability";
    const struct soc_profile *soc;
    uint64_t mem;
    struct device *d;
    if (value == NULL)
        return null_arg(fn, "value");
    d = need_device(fn, "deviceId", deviceId, ACL_ERROR_INVALID_PARAM);
    if (d == NULL)
        return ACL_ERROR_INVALID_PARAM;
    device_describe(d, &soc, &mem);
    switch (deviceInfo) {
    case ACL_DEVICE_INFO_AI_CORE_NUM:
        *value = soc->cube_cores;
        return ACL_SUCCESS;
    case ACL_DEVICE_INFO_VECTOR_CORE_NUM:
        *value = soc->vector_cores;
        return ACL_SUCCESS;
    case ACL_DEVICE_INFO_L2_SIZE:
        *value = (int64_t)soc->l2_bytes;
        return ACL_SUCCESS;
    default:
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'deviceInfo' (%d) is not an aclDeviceInfo (0..2)", fn,
                        (int)deviceInfo);
    }
}

/* ---- device attributes ---------------------------------------------------------- */

/* The SIMT figures aclcpu gives the SoC with SIMT (Ascend 950): its own
 * launch bounds, not a driver's (docs/differences.md). 0 elsewhere, as the
 * reference's chip properties say for SoCs without SIMT. */
static int64_t simt_attr(enum soc_family f, aclrtDevAttr attr)
{
    if (f != SOC_950)
        return 0;
    switch ((int)attr) {
    case ACL_DEV_ATTR_WARP_SIZE:
        return 32;
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
        return 2048;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
        return 256 * 1024;
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
        return INT32_MAX;
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
        return 65535;
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
        return UINT32_MAX;
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
        return 1024;
    default: /* ACL_DEV_ATTR_MAX_BLOCK_DIM_Z */
        return 64;
    }
}

static int64_t form_factor(enum soc_family f)
{
    switch (f) {
    case SOC_A3:
        return ACL_DEVICE_FORM_FACTOR_POD;
    case SOC_310P:
    case SOC_200I500A2:
        return ACL_DEVICE_FORM_FACTOR_PCIE_CARD;
    default:
        return ACL_DEVICE_FORM_FACTOR_A_X;
    }
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
    const char *fn = "aclrtGetDeviceInfo";
    const struct soc_profile *soc;
    uint64_t mem;
    struct device *d;
    if (value == NULL)
        return null_arg(fn, "value");
    d = need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_PARAM_INVALID);
    if (d == NULL)
        return ACL_ERROR_RT_PARAM_INVALID;
    device_describe(d, &soc, &mem);
    switch ((int)attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM:
        *value = 0; /* aclcpu models no AI CPU (docs/differences.md) */
        break;
    case ACL_DEV_ATTR_AICORE_CORE_NUM:
    case ACL_DEV_ATTR_CUBE_CORE_NUM:
        *value = soc->cube_cores;
        break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM:
        *value = soc->vector_cores;
        break;
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
    case ACL_DEV_ATTR_MAX_GRID_DIM_X:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
    case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
    case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
    case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
    case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z:
        *value = simt_attr(soc->family, attr);
        break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
        *value = (int64_t)mem;
        break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE:
        *value = (int64_t)soc->l2_bytes;
        break;
    case ACL_DEV_ATTR_PHY_CHIP_ID:
    case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID:
        *value = d->id;
        break;
    case ACL_DEV_ATTR_SMP_ID:
    case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
    case ACL_DEV_ATTR_SUPER_POD_ID:
    case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
    case ACL_DEV_ATTR_MAINBOARD_ID:
    case ACL_DEV_ATTR_HD_CONNECT_TYPE:
    case ACL_DEV_ATTR_IS_VIRTUAL:
        *value = 0; /* one host, one board, no splitting */
        break;
    case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
        *value = form_factor(soc->family);
        break;
    case ACL_DEV_ATTR_NPU_ARCH:
        *value = npu_arch(soc->family);
        break;
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'attr' (%d) is not an aclrtDevAttr", fn, (int)attr);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
                                                      int32_t *value)
{
    const char *fn = "aclrtGetDeviceCapability";
    const struct soc_profile *soc;
    uint64_t mem;
    struct device *d;
    if (value == NULL)
        return null_arg(fn, "value");
    d = need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID);
    if (d == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    device_describe(d, &soc, &mem);
    switch (devFeatureType) {
    case ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV: /* aclmdlRICaptureTaskUpdate* works where the SoC has it */
        *value = soc_has_ctrl_sq(soc) ? 1 : 0;
        return ACL_SUCCESS;
    case ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV: /* no memory queues on aclcpu */
        *value = 0;
        return ACL_SUCCESS;
    default:
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'devFeatureType' (%d) is not an aclrtDevFeatureType "
                        "(1 or 21)", fn, (int)devFeatureType);
    }
}

ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus)
{
    const char *fn = "aclrtQueryDeviceStatus";
    if (deviceStatus == NULL)
        return null_arg(fn, "deviceStatus");
    if (need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    *deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL; /* a modelled device has no hardware to fail */
    return ACL_SUCCESS;
}

/* The reference's utilization never fails on the device: each figure it
 * cannot read is -1. Cube and vector: the share of the device's workers
 * running tasks at this instant (they play both kinds of core); AI CPU and
 * memory: not measured (-1). */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)
{
    const char *fn = "aclrtGetDeviceUtilizationRate";
    struct device *d;
    int32_t busy = -1;
    if (utilizationInfo == NULL)
        return null_arg(fn, "utilizationInfo");
    if (utilizationInfo->utilizationExtend != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'utilizationInfo->utilizationExtend' is reserved and "
                        "must be NULL", fn);
    d = device_get(deviceId);
    if (d != NULL)
        busy = device_busy_percent(d);
    utilizationInfo->cubeUtilization = busy;
    utilizationInfo->vectorUtilization = busy;
    utilizationInfo->aicpuUtilization = -1;
    utilizationInfo->memoryUtilization = -1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t *value)
{
    const char *fn = "aclrtGetDevicesTopo";
    const struct soc_profile *soc;
    uint64_t mem;
    struct device *d;
    if (value == NULL)
        return null_arg(fn, "value");
    d = need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID);
    if (d == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    if (need_device(fn, "otherDeviceId", otherDeviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    if (deviceId == otherDeviceId) {
        *value = 0; /* no link to itself */
        return ACL_SUCCESS;
    }
    device_describe(d, &soc, &mem);
    /* The modelled board: training parts share HCCS links, inference cards
     * meet over the host's PCIe. */
    *value = (soc->family == SOC_310P || soc->family == SOC_200I500A2) ? ACL_RT_DEVS_TOPOLOGY_SYS
                                                                       : ACL_RT_DEVS_TOPOLOGY_HCCS;
    return ACL_SUCCESS;
}

/* ---- device ids: user, logical and physical ids are one on aclcpu ------------------ */

static aclError same_id(const char *fn, const char *in_arg, int32_t in, const char *out_arg, int32_t *out)
{
    if (out == NULL)
        return null_arg(fn, out_arg);
    if (need_device(fn, in_arg, in, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    *out = in;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
    return same_id("aclrtGetLogicDevIdByUserDevId", "userDevid", userDevid, "logicDevId", logicDevId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
    return same_id("aclrtGetUserDevIdByLogicDevId", "logicDevId", logicDevId, "userDevid", userDevid);
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
    return same_id("aclrtGetLogicDevIdByPhyDevId", "phyDevId", phyDevId, "logicDevId", logicDevId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
    return same_id("aclrtGetPhyDevIdByLogicDevId", "logicDevId", logicDevId, "phyDevId", phyDevId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
    return same_id("aclrtGetUserDevIdByPhyDevId", "phyDevId", phyDevId, "userDevId", userDevId);
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
    return same_id("aclrtGetPhyDevIdByUserDevId", "userDevId", userDevId, "phyDevId", phyDevId);
}

/* ---- UUID and PCI bus ids ------------------------------------------------------------ */

enum { PCI_BUS_ID_MIN_LEN = 13, PCI_BUS_BASE = 0xc1 };

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId, aclrtUuid *uuid)
{
    const char *fn = "aclrtDeviceGetUuid";
    static const char stem[] = "aclcpu-device";
    if (uuid == NULL)
        return null_arg(fn, "uuid");
    if (need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    /* Stable and distinct per device id: a fixed stem and the id. */
    memset(uuid->bytes, 0, sizeof(uuid->bytes));
    memcpy(uuid->bytes, stem, sizeof(stem) - 1);
    uuid->bytes[15] = (char)deviceId;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId, char *pciBusId, int32_t len)
{
    const char *fn = "aclrtDeviceGetPCIBusId";
    if (pciBusId == NULL)
        return null_arg(fn, "pciBusId");
    if (deviceId < 0)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'deviceId' (%d) must be at least 0", fn,
                        deviceId);
    if (len < PCI_BUS_ID_MIN_LEN)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'len' (%d) must be at least %d (\"dddd:bb:dd.f\" "
                        "and its NUL)", fn, len, PCI_BUS_ID_MIN_LEN);
    if (need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", (unsigned)(PCI_BUS_BASE + deviceId));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId, int32_t *deviceId)
{
    const char *fn = "aclrtDeviceGetByPCIBusId";
    unsigned domain, bus, dev, func;
    int end = 0;
    if (pciBusId == NULL)
        return null_arg(fn, "pciBusId");
    if (deviceId == NULL)
        return null_arg(fn, "deviceId");
    if (sscanf(pciBusId, "%x:%x:%x.%x%n", &domain, &bus, &dev, &func, &end) != 4 || pciBusId[end] != '\0' ||
        domain != 0 || dev != 0 || func != 0 || bus < PCI_BUS_BASE || bus - PCI_BUS_BASE >= device_count())
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'pciBusId' (\"%s\") is not the bus id of a device "
                        "(aclrtDeviceGetPCIBusId gives them)", fn, pciBusId);
    *deviceId = (int32_t)(bus - PCI_BUS_BASE);
    return ACL_SUCCESS;
}

/* ---- device limits (process-wide; aclcpu keeps them, kernels do not use them) ---------- */

static _Atomic uint32_t device_limits[ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE + 1] = {
    1024, 1024, 32 * 1024, 1024 * 1024, 1024 * 1024, /* aclcpu's defaults (docs/differences.md) */
};

static aclError check_limit(const char *fn, aclrtDeviceLimit limit)
{
    if ((uint32_t)limit > ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'limit' (%d) is not an aclrtDeviceLimit ([0, 4])", fn,
                        (int)limit);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceSetLimit(aclrtDeviceLimit limit, size_t value)
{
    const char *fn = "aclrtDeviceSetLimit";
    aclError err = check_limit(fn, limit);
    if (err != ACL_SUCCESS)
        return err;
    if (value > UINT32_MAX)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'value' (%zu) is above UINT32_MAX", fn, value);
    store_relaxed(&device_limits[limit], (uint32_t)value);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetLimit(aclrtDeviceLimit limit, size_t *value)
{
    const char *fn = "aclrtDeviceGetLimit";
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    err = check_limit(fn, limit);
    if (err != ACL_SUCCESS)
        return err;
    *value = load_relaxed(&device_limits[limit]);
    return ACL_SUCCESS;
}

/* ---- atomics and peers --------------------------------------------------------------- */

/* What C11 atomics on shared host memory give each operation (aclcpu's
 * devices and the host share one memory): integer read-modify-writes of
 * every scalar width, float ones of 32 and 64 bits (a compare-exchange
 * loop); no DMA engine and no SIMD atomics (0). Returns false for a value
 * that is no aclrtAtomicOperation. */
static bool atomic_caps(aclrtAtomicOperation op, uint32_t *caps)
{
    const uint32_t ints = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED |
                          ACL_RT_ATOMIC_CAPABILITY_SCALAR8 | ACL_RT_ATOMIC_CAPABILITY_SCALAR16 |
                          ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    switch (op) {
    case ACL_RT_ATOMIC_OPERATION_INTEGER_ADD:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MIN:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_MAX:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT:
    case ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT:
    case ACL_RT_ATOMIC_OPERATION_AND:
    case ACL_RT_ATOMIC_OPERATION_OR:
    case ACL_RT_ATOMIC_OPERATION_XOR:
    case ACL_RT_ATOMIC_OPERATION_EXCHANGE:
    case ACL_RT_ATOMIC_OPERATION_CAS:
        *caps = ints;
        return true;
    case ACL_RT_ATOMIC_OPERATION_FLOAT_ADD:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MIN:
    case ACL_RT_ATOMIC_OPERATION_FLOAT_MAX:
        *caps = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
        return true;
    case ACL_RT_ATOMIC_OPERATION_DMA_ADD:
    case ACL_RT_ATOMIC_OPERATION_DMA_MIN:
    case ACL_RT_ATOMIC_OPERATION_DMA_MAX:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS:
    case ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH:
        *caps = 0;
        return true;
    }
    return false;
}

/* The checks both atomic queries share after their device ids, and the
 * answer: every operation must be one (107000), then the masks. */
static aclError fill_atomic_caps(const char *fn, uint32_t *capabilities, const aclrtAtomicOperation *operations,
                                 uint32_t count)
{
    uint32_t c;
    for (uint32_t i = 0; i < count; i++)
        if (!atomic_caps(operations[i], &c))
            return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'operations[%u]' (%d) is not an "
                            "aclrtAtomicOperation", fn, i, (int)operations[i]);
    for (uint32_t i = 0; i < count; i++)
        (void)atomic_caps(operations[i], &capabilities[i]);
    return ACL_SUCCESS;
}

static aclError check_atomic_args(const char *fn, const uint32_t *capabilities,
                                  const aclrtAtomicOperation *operations, uint32_t count)
{
    if (capabilities == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'capabilities' is NULL", fn);
    if (operations == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'operations' is NULL", fn);
    if (count == 0)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'count' is 0", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetHostAtomicCapabilities(uint32_t *capabilities,
                                                                  const aclrtAtomicOperation *operations,
                                                                  const uint32_t count, int32_t deviceId)
{
    const char *fn = "aclrtDeviceGetHostAtomicCapabilities";
    aclError err = check_atomic_args(fn, capabilities, operations, count);
    if (err != ACL_SUCCESS)
        return err;
    if (need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    return fill_atomic_caps(fn, capabilities, operations, count);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetP2PAtomicCapabilities(uint32_t *capabilities,
                                                                 const aclrtAtomicOperation *operations,
                                                                 const uint32_t count, int32_t srcDeviceId,
                                                                 int32_t dstDeviceId)
{
    const char *fn = "aclrtDeviceGetP2PAtomicCapabilities";
    aclError err = check_atomic_args(fn, capabilities, operations, count);
    if (err != ACL_SUCCESS)
        return err;
    if (srcDeviceId == dstDeviceId)
        return acl_fail(ACL_ERROR_RT_INVALID_DEVICEID, "%s: argument 'srcDeviceId' (%d) must differ from "
                        "'dstDeviceId'", fn, srcDeviceId);
    if (need_device(fn, "srcDeviceId", srcDeviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL ||
        need_device(fn, "dstDeviceId", dstDeviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    return fill_atomic_caps(fn, capabilities, operations, count);
}

/* The runtime's bound on device ids in the P2P status query (RT_MAX_DEV_NUM). */
enum { P2P_ID_LIMIT = 64 };

ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId, int32_t peerDeviceId, int32_t *status)
{
    const char *fn = "aclrtDevicePeerAccessStatus";
    struct device *d;
    if (status == NULL)
        return null_arg(fn, "status");
    if ((d = need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID)) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    if ((uint32_t)peerDeviceId >= P2P_ID_LIMIT)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'peerDeviceId' (%d) is outside [0, %d)", fn,
                        peerDeviceId, P2P_ID_LIMIT);
    if (need_device(fn, "peerDeviceId", peerDeviceId, ACL_ERROR_RT_INVALID_DEVICEID) == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    /* 1 once deviceId enabled access to peerDeviceId (and did not disable
     * it since); a device is no peer of itself. */
    *status = deviceId != peerDeviceId && device_peer_enabled(d, peerDeviceId) ? 1 : 0;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t *flags, int32_t *active)
{
    const char *fn = "aclrtGetPrimaryCtxState";
    struct device *d;
    if (active == NULL)
        return null_arg(fn, "active");
    if (flags != NULL)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'flags' is reserved and must be NULL", fn);
    d = need_device(fn, "deviceId", deviceId, ACL_ERROR_RT_INVALID_DEVICEID);
    if (d == NULL)
        return ACL_ERROR_RT_INVALID_DEVICEID;
    *active = device_primary_active(d) ? 1 : 0;
    return ACL_SUCCESS;
}

/* ---- system parameter options ---------------------------------------------------------- */

/* The process's options (aclrtSetSysParamOpt, and every context's set
 * too, as the reference's runtime records them); 0 until set. */
static _Atomic int64_t process_sysparam[ACL_OPT_ENABLE_KERNEL_EARLY_START + 1];

/* ctx: the context forms take options 0..2, the process ones 0..3. */
static aclError check_opt(const char *fn, aclSysParamOpt opt, bool ctx)
{
    int last = ctx ? 2 : (int)ACL_OPT_ENABLE_KERNEL_EARLY_START;
    if ((int)opt < 0 || (int)opt > last)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "%s: argument 'opt' (%d) must be ACL_OPT_DETERMINISTIC (0), "
                        "ACL_OPT_ENABLE_DEBUG_KERNEL (1) or ACL_OPT_STRONG_CONSISTENCY (2)%s", fn, (int)opt,
                        ctx ? "" : " or ACL_OPT_ENABLE_KERNEL_EARLY_START (3)");
    return ACL_SUCCESS;
}

/* Deterministic takes [0, 4), the switches [0, 2) (107000). */
static aclError check_opt_value(const char *fn, aclSysParamOpt opt, int64_t value)
{
    int64_t end = opt == ACL_OPT_DETERMINISTIC ? 4 : 2;
    if (value < 0 || value >= end)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'value' (%lld) is outside [0, %lld) for option %d",
                        fn, (long long)value, (long long)end, (int)opt);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    const char *fn = "aclrtGetSysParamOpt";
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    if ((err = check_opt(fn, opt, false)) != ACL_SUCCESS)
        return err;
    *value = load_relaxed(&process_sysparam[opt]);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    const char *fn = "aclrtSetSysParamOpt";
    aclError err;
    if ((err = check_opt(fn, opt, false)) != ACL_SUCCESS || (err = check_opt_value(fn, opt, value)) != ACL_SUCCESS)
        return err;
    store_relaxed(&process_sysparam[opt], value);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
    const char *fn = "aclrtCtxGetSysParamOpt";
    struct context *ctx;
    aclError err;
    if (value == NULL)
        return null_arg(fn, "value");
    if ((err = check_opt(fn, opt, true)) != ACL_SUCCESS || (err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    if (!ctx_sysparam_get(ctx, (uint32_t)opt, value))
        return acl_fail(ACL_ERROR_RT_SYSPARAMOPT_NOT_SET, "%s: option %d has not been set in the current context "
                        "(aclrtCtxSetSysParamOpt)", fn, (int)opt);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
    const char *fn = "aclrtCtxSetSysParamOpt";
    struct context *ctx;
    aclError err;
    if ((err = check_opt(fn, opt, true)) != ACL_SUCCESS || (err = check_opt_value(fn, opt, value)) != ACL_SUCCESS ||
        (err = ctx_require(fn, &ctx)) != ACL_SUCCESS)
        return err;
    ctx_sysparam_set(ctx, (uint32_t)opt, value);
    store_relaxed(&process_sysparam[opt], value);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetTsDevice(aclrtTsId tsId)
{
    if (tsId != ACL_TS_ID_AICORE && tsId != ACL_TS_ID_AIVECTOR)
        return acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetTsDevice: argument 'tsId' (%d) must be ACL_TS_ID_AICORE or "
                        "ACL_TS_ID_AIVECTOR", (int)tsId);
    return ACL_SUCCESS; /* one scheduler plays both on aclcpu */
}

/* ---- compute-power groups: none of the modelled SoCs has them ---------------------------- */

static aclError no_groups(const char *fn)
{
    return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "%s: device groups are not supported on %s (no modelled SoC "
                    "has compute-power groups)", fn, current_soc()->name);
}

ACL_FUNC_VISIBILITY aclError aclrtSetGroup(int32_t groupId)
{
    (void)groupId;
    return no_groups("aclrtSetGroup");
}

ACL_FUNC_VISIBILITY aclError aclrtGetGroupCount(uint32_t *count)
{
    if (count == NULL)
        return null_arg("aclrtGetGroupCount", "count");
    return no_groups("aclrtGetGroupCount");
}

ACL_FUNC_VISIBILITY aclrtGroupInfo *aclrtCreateGroupInfo(void)
{
    (void)no_groups("aclrtCreateGroupInfo");
    return NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyGroupInfo(aclrtGroupInfo *groupInfo)
{
    if (groupInfo == NULL)
        return null_arg("aclrtDestroyGroupInfo", "groupInfo");
    /* aclrtCreateGroupInfo never made one, so this is not aclcpu's to free. */
    return no_groups("aclrtDestroyGroupInfo");
}

ACL_FUNC_VISIBILITY aclError aclrtGetAllGroupInfo(aclrtGroupInfo *groupInfo)
{
    if (groupInfo == NULL)
        return null_arg("aclrtGetAllGroupInfo", "groupInfo");
    return no_groups("aclrtGetAllGroupInfo");
}

ACL_FUNC_VISIBILITY aclError aclrtGetGroupInfoDetail(const aclrtGroupInfo *groupInfo, int32_t groupIndex,
                                                     aclrtGroupAttr attr, void *attrValue, size_t valueLen,
                                                     size_t *paramRetSize)
{
    const char *fn = "aclrtGetGroupInfoDetail";
    (void)groupIndex, (void)attr, (void)valueLen;
    if (groupInfo == NULL)
        return null_arg(fn, "groupInfo");
    if (attrValue == NULL)
        return null_arg(fn, "attrValue");
    if (paramRetSize == NULL)
        return null_arg(fn, "paramRetSize");
    return no_groups(fn);
}

/* ---- architecture compatibility ------------------------------------------------------------ */

ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion, int32_t *canCompatible)
{
    const char *fn = "aclrtCheckArchCompatibility";
    const struct soc_profile *theirs;
    if (socVersion == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'socVersion' is NULL", fn);
    if (canCompatible == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'canCompatible' is NULL", fn);
    if (socVersion[0] == '\0')
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'socVersion' is empty", fn);
    theirs = soc_find(socVersion);
    if (theirs == NULL)
        return acl_fail(ACL_ERROR_RT_PARAM_INVALID, "%s: argument 'socVersion' (\"%s\") is not a SoC aclcpu knows "
                        "(the aclcpu command lists them)", fn, socVersion);
    *canCompatible = npu_arch(theirs->family) == npu_arch(current_soc()->family) ? 1 : 0;
    return ACL_SUCCESS;
}

/* ---- aclInit / aclFinalize callbacks ----------------------------------------------------------- */

typedef void (*any_fn)(void);

ACL_FUNC_VISIBILITY aclError aclInitCallbackRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc,
                                                     void *userData)
{
    const char *fn = "aclInitCallbackRegister";
    char *text;
    size_t len;
    aclError err;
    if (cbFunc == NULL)
        return null_arg(fn, "cbFunc");
    err = initcb_register(false, (int32_t)type, ACL_REG_TYPE_OTHER, (any_fn)cbFunc, userData);
    if (err == ACL_ERROR_INTERNAL_ERROR)
        return acl_fail(err, "%s: an aclInit callback of type %d is already registered (only ACL_REG_TYPE_OTHER "
                        "takes several)", fn, (int)type);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory", fn);
    /* Registered after aclInit: it runs now, with aclInit's configuration;
     * what it returns is not the registration's result. */
    if (init_config_copy(&text, &len)) {
        (void)cbFunc(text != NULL ? text : "", text != NULL ? len : 0, userData);
        acl_free(text);
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInitCallbackUnRegister(aclRegisterCallbackType type, aclInitCallbackFunc cbFunc)
{
    const char *fn = "aclInitCallbackUnRegister";
    if (cbFunc == NULL)
        return null_arg(fn, "cbFunc");
    if (initcb_unregister(false, (int32_t)type, (any_fn)cbFunc) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_INTERNAL_ERROR, "%s: argument 'cbFunc' is not registered as an aclInit callback of "
                        "type %d", fn, (int)type);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type, aclFinalizeCallbackFunc cbFunc,
                                                         void *userData)
{
    const char *fn = "aclFinalizeCallbackRegister";
    aclError err;
    if (cbFunc == NULL)
        return null_arg(fn, "cbFunc");
    err = initcb_register(true, (int32_t)type, ACL_REG_TYPE_OTHER, (any_fn)cbFunc, userData);
    if (err == ACL_ERROR_INTERNAL_ERROR)
        return acl_fail(err, "%s: an aclFinalize callback of type %d is already registered (only "
                        "ACL_REG_TYPE_OTHER takes several)", fn, (int)type);
    if (err != ACL_SUCCESS)
        return acl_fail(err, "%s: out of host memory", fn);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                                           aclFinalizeCallbackFunc cbFunc)
{
    const char *fn = "aclFinalizeCallbackUnRegister";
    if (cbFunc == NULL)
        return null_arg(fn, "cbFunc");
    if (initcb_unregister(true, (int32_t)type, (any_fn)cbFunc) != ACL_SUCCESS)
        return acl_fail(ACL_ERROR_INTERNAL_ERROR, "%s: argument 'cbFunc' is not registered as an aclFinalize "
                        "callback of type %d", fn, (int)type);
    return ACL_SUCCESS;
}

/* The callbacks of one type, copied out and then run in registration
 * order with no lock held; the first failure ends the run. */
static aclError run_type(bool fini, int32_t type, const char *text, size_t len, const char *fn)
{
    size_t n = initcb_list(fini, type, NULL, NULL, 0);
    any_fn *fns;
    void **users;
    aclError err = ACL_SUCCESS;
    if (n == 0)
        return ACL_SUCCESS;
    fns = acl_malloc(n * sizeof(*fns));
    users = acl_malloc(n * sizeof(*users));
    if (fns == NULL || users == NULL) {
        acl_free(fns);
        acl_free(users);
        return acl_fail(ACL_ERROR_BAD_ALLOC, "%s: out of host memory running the callbacks", fn);
    }
    n = initcb_list(fini, type, fns, users, n); /* at most the first n if more came meanwhile */
    for (size_t i = 0; i < n && err == ACL_SUCCESS; i++) {
        err = fini ? ((aclFinalizeCallbackFunc)fns[i])(users[i]) : ((aclInitCallbackFunc)fns[i])(text, len, users[i]);
        if (err != ACL_SUCCESS)
            acl_fail(err, "%s: the %s callback of type %d returned %d", fn, fini ? "aclFinalize" : "aclInit",
                     (int)type, err);
    }
    acl_free(fns);
    acl_free(users);
    return err;
}

aclError initcb_run_init(const char *text, size_t len, bool has_path)
{
    aclError err = run_type(false, ACL_REG_TYPE_ACL_MODEL, text, len, "aclInit");
    if (err == ACL_SUCCESS && has_path)
        err = run_type(false, ACL_REG_TYPE_ACL_OP_EXECUTOR, text, len, "aclInit");
    if (err == ACL_SUCCESS)
        err = run_type(false, ACL_REG_TYPE_ACL_DVPP, text, len, "aclInit");
    if (err == ACL_SUCCESS)
        err = run_type(false, ACL_REG_TYPE_OTHER, text, len, "aclInit");
    return err;
}

aclError initcb_run_fini(const char *fn)
{
    static const aclRegisterCallbackType order[] = {ACL_REG_TYPE_ACL_OP_COMPILER, ACL_REG_TYPE_ACL_MODEL,
                                                    ACL_REG_TYPE_ACL_DVPP, ACL_REG_TYPE_OTHER};
    for (size_t i = 0; i < ACLCPU_ARRAY_SIZE(order); i++) {
        aclError err = run_type(true, order[i], NULL, 0, fn);
        if (err != ACL_SUCCESS)
            return err;
    }
    return ACL_SUCCESS;
}
