/*
 * test_sysinfo.c - system and device information: versions, CANN
 * attributes, device attributes and capabilities, id translations, UUID
 * and PCI bus ids, device limits, system parameter options, the primary
 * context's state, groups, and the aclInit / aclFinalize callbacks.
 *
 * Rules: docs/conformance.md, "System and device information". The numbers
 * come from the SoC profile (default Ascend910B1: 24 cube, 48 vector cores,
 * 64 GiB, 192 MiB L2; Ascend310P3: 8 cube, 7 vector, 24 GiB).
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "test.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* aclsysGetCANNVersion, aclrtGetVersion are still part of the contract */

#define GIB (1024ll * 1024ll * 1024ll)
#define MIB (1024ll * 1024ll)

static void setup_soc(const char *soc)
{
    if (soc != NULL)
        setenv("ACLCPU_SOC", soc, 1);
    else
        unsetenv("ACLCPU_SOC");
    t_setup();
}

/* ---- versions ------------------------------------------------------------------------------ */

TEST(sysinfo, version_str_is_aclcpus_own_for_runtime_and_driver)
{
    char v[ACL_PKG_VERSION_MAX_SIZE];
    int32_t num = 0;
    ASSERT_OK(aclsysGetVersionStr("runtime", v));
    ASSERT_EQ(strcmp(v, "0.1.0"), 0);
    ASSERT_OK(aclsysGetVersionStr("driver", v));
    ASSERT_EQ(strcmp(v, "0.1.0"), 0);
    ASSERT_OK(aclsysGetVersionNum("runtime", &num));
    ASSERT_EQ(num, 0 * 10000000 + 1 * 100000 + 0 * 1000);
}

TEST(sysinfo, version_unknown_package_is_invalid_file)
{
    char v[ACL_PKG_VERSION_MAX_SIZE];
    int32_t num;
    ASSERT_RC(aclsysGetVersionStr("hccl", v), ACL_ERROR_INVALID_FILE);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclsysGetVersionStr: argument 'pkgName'");
    ASSERT_RC(aclsysGetVersionNum("hccl", &num), ACL_ERROR_INVALID_FILE);
}

/* The out-pointer is checked before the package name. */
TEST(sysinfo, version_checks_output_before_package_name)
{
    char v[ACL_PKG_VERSION_MAX_SIZE];
    ASSERT_RC(aclsysGetVersionStr(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'versionStr'");
    ASSERT_RC(aclsysGetVersionStr(NULL, v), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'pkgName'");
    ASSERT_RC(aclsysGetVersionNum(NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'versionNum'");
}

TEST(sysinfo, cann_version_parts_and_package_names)
{
    aclCANNPackageVersion v;
    ASSERT_OK(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, &v));
    ASSERT_EQ(strcmp(v.version, "0.1.0"), 0);
    ASSERT_EQ(strcmp(v.majorVersion, "0"), 0);
    ASSERT_EQ(strcmp(v.minorVersion, "1"), 0);
    ASSERT_EQ(strcmp(v.releaseVersion, "0"), 0);
    ASSERT_OK(aclsysGetCANNVersion(ACL_PKG_NAME_DRIVER, &v));
    ASSERT_RC(aclsysGetCANNVersion(ACL_PKG_NAME_HCCL, &v), ACL_ERROR_INVALID_FILE);
    ASSERT_RC(aclsysGetCANNVersion((aclCANNPackageName)(ACL_PKG_NAME_DRIVER + 1), &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclsysGetCANNVersion(ACL_PKG_NAME_CANN, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(sysinfo, acl_version_is_the_header_macros)
{
    int32_t a = -1, b = -1, c = -1;
    ASSERT_OK(aclrtGetVersion(&a, &b, &c));
    ASSERT_EQ(a, ACL_MAJOR_VERSION);
    ASSERT_EQ(b, ACL_MINOR_VERSION);
    ASSERT_EQ(c, ACL_PATCH_VERSION);
    ASSERT_RC(aclrtGetVersion(&a, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'minorVersion'");
    ASSERT_RC(aclrtGetVersion(&a, &b, NULL), ACL_ERROR_INVALID_PARAM);
}

/* ---- CANN attributes and basic capabilities ----------------------------------------------------- */

TEST(sysinfo, cann_attribute_list_and_values_follow_the_soc)
{
    const aclCannAttr *list = NULL;
    size_t n = 0;
    int32_t v = -1;
    setup_soc(NULL);
    ASSERT_OK(aclGetCannAttributeList(&list, &n));
    ASSERT_EQ(n, 3);
    ASSERT_EQ(list[0], ACL_CANN_ATTR_INF_NAN);
    ASSERT_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
    ASSERT_EQ(v, 1);
    ASSERT_OK(aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
    ASSERT_EQ(v, 0);
    t_teardown();
    setup_soc("Ascend310P3");
    ASSERT_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
    ASSERT_EQ(v, 0);
    t_teardown();
}

TEST(sysinfo, cann_attribute_unknown_or_null_is_invalid_param)
{
    int32_t v;
    size_t n;
    ASSERT_RC(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclGetCannAttribute((aclCannAttr)3, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclGetCannAttributeList(NULL, &n), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'cannAttrList'");
}

TEST(sysinfo, device_capability_matches_soc_profile)
{
    int64_t v = -1;
    setup_soc(NULL);
    ASSERT_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &v));
    ASSERT_EQ(v, 24);
    ASSERT_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &v));
    ASSERT_EQ(v, 48);
    ASSERT_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &v));
    ASSERT_EQ(v, 192 * MIB);
    t_teardown();
}

/* Order: value, then the device id, then the info type (all 100000). */
TEST(sysinfo, device_capability_checks_value_then_device_then_info)
{
    int64_t v;
    ASSERT_RC(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclGetDeviceCapability(1, (aclDeviceInfo)7, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'deviceId'");
    ASSERT_RC(aclGetDeviceCapability(0, (aclDeviceInfo)7, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'deviceInfo'");
}

/* ---- device attributes --------------------------------------------------------------------------- */

TEST(sysinfo, device_info_matches_soc_and_mem_info)
{
    int64_t v = -1;
    size_t free_b = 0, total = 0;
    setup_soc(NULL);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    ASSERT_EQ(v, 24);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    ASSERT_EQ(v, 24);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    ASSERT_EQ(v, 48);
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    ASSERT_EQ(v, (long long)total);
    ASSERT_EQ(v, 64 * GIB);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
    ASSERT_EQ(v, 192 * MIB);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v));
    ASSERT_EQ(v, 0); /* no SIMT on Ascend910B1 */
    t_teardown();
}

TEST(sysinfo, device_info_follows_configured_soc_and_memory)
{
    int64_t v = -1;
    setenv("ACLCPU_DEVICE_MEMORY", "1G", 1);
    setup_soc("Ascend310P3");
    ASSERT_EQ(strcmp(aclrtGetSocName(), "Ascend310P3"), 0);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    ASSERT_EQ(v, 8);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    ASSERT_EQ(v, 7);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    ASSERT_EQ(v, GIB);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));
    ASSERT_EQ(v, ACL_DEVICE_FORM_FACTOR_PCIE_CARD);
    t_teardown();
}

/* A device that is not open answers what opening it would give. */
TEST(sysinfo, device_info_of_unopened_device_uses_configuration)
{
    int64_t v = -1;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    ASSERT_EQ(v, 18);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v));
    ASSERT_EQ(v, 32);
}

/* Order: value (100000), then the device id and the attribute (107000). */
TEST(sysinfo, device_info_checks_value_then_device_then_attr)
{
    int64_t v;
    ASSERT_RC(aclrtGetDeviceInfo(9, (aclrtDevAttr)999, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetDeviceInfo(1, (aclrtDevAttr)999, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'deviceId'");
    ASSERT_RC(aclrtGetDeviceInfo(0, (aclrtDevAttr)999, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attr'");
}

TEST(sysinfo, device_feature_capability_and_bad_feature)
{
    int32_t v = -1;
    ASSERT_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
    ASSERT_EQ(v, 1);
    ASSERT_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
    ASSERT_EQ(v, 0);
    ASSERT_RC(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)2, &v), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtGetDeviceCapability(-1, (aclrtDevFeatureType)2, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetDeviceCapability(-1, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(sysinfo, device_status_is_normal_and_checks_device)
{
    aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;
    ASSERT_OK(aclrtQueryDeviceStatus(0, &st));
    ASSERT_EQ(st, ACL_RT_DEVICE_STATUS_NORMAL);
    ASSERT_RC(aclrtQueryDeviceStatus(1, &st), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtQueryDeviceStatus(1, NULL), ACL_ERROR_INVALID_PARAM);
}

/* One worker running a kernel that waits on a gate: the device is 100%
 * busy while it waits. */
TEST(sysinfo, utilization_counts_workers_running_tasks)
{
    struct t_gate g = {0};
    aclrtStream s;
    aclrtUtilizationInfo u = {0, 0, 0, 0, NULL};
    setenv("ACLCPU_WORKERS", "1", 1);
    setup_soc(NULL);
    ASSERT_OK(aclrtCreateStream(&s));
    t_launch_gate(&g, s);
    ASSERT(t_wait_flag(&g.started, 1));
    ASSERT_OK(aclrtGetDeviceUtilizationRate(0, &u));
    ASSERT_EQ(u.cubeUtilization, 100);
    ASSERT_EQ(u.vectorUtilization, 100);
    ASSERT_EQ(u.aicpuUtilization, -1);
    ASSERT_EQ(u.memoryUtilization, -1);
    atomic_store(&g.open, 1);
    ASSERT_OK(aclrtSynchronizeStream(s));
    ASSERT_OK(aclrtDestroyStream(s));
    t_teardown();
}

/* The reference never fails on the device id: each figure is -1. */
TEST(sysinfo, utilization_bad_device_gives_minus_one_not_error)
{
    aclrtUtilizationInfo u = {5, 5, 5, 5, NULL};
    ASSERT_OK(aclrtGetDeviceUtilizationRate(7, &u));
    ASSERT_EQ(u.cubeUtilization, -1);
    ASSERT_EQ(u.vectorUtilization, -1);
    ASSERT_OK(aclrtGetDeviceUtilizationRate(0, &u));
    ASSERT_EQ(u.cubeUtilization, 0); /* device 0 is not open: no workers */
}

TEST(sysinfo, utilization_extend_must_be_null)
{
    aclrtUtilizationInfo u = {0, 0, 0, 0, (aclrtUtilizationExtendInfo *)&u};
    ASSERT_RC(aclrtGetDeviceUtilizationRate(0, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetDeviceUtilizationRate(0, &u), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "utilizationExtend");
}

TEST(sysinfo, topology_between_devices)
{
    uint64_t v = 99;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtGetDevicesTopo(0, 1, &v));
    ASSERT_EQ(v, ACL_RT_DEVS_TOPOLOGY_HCCS);
    ASSERT_OK(aclrtGetDevicesTopo(1, 1, &v));
    ASSERT_EQ(v, 0);
    ASSERT_RC(aclrtGetDevicesTopo(0, 2, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'otherDeviceId'");
    ASSERT_RC(aclrtGetDevicesTopo(2, 0, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetDevicesTopo(2, 2, NULL), ACL_ERROR_INVALID_PARAM);
}

/* ---- ids ---------------------------------------------------------------------------------------- */

TEST(sysinfo, device_ids_translate_to_themselves)
{
    int32_t out = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtGetLogicDevIdByUserDevId(1, &out));
    ASSERT_EQ(out, 1);
    ASSERT_OK(aclrtGetUserDevIdByLogicDevId(1, &out));
    ASSERT_OK(aclrtGetLogicDevIdByPhyDevId(1, &out));
    ASSERT_OK(aclrtGetPhyDevIdByLogicDevId(0, &out));
    ASSERT_EQ(out, 0);
    ASSERT_OK(aclrtGetUserDevIdByPhyDevId(1, &out));
    ASSERT_OK(aclrtGetPhyDevIdByUserDevId(1, &out));
    ASSERT_EQ(out, 1);
}

/* The out-pointer first (100000), then the id: below 0 or past the last device (107001). */
TEST(sysinfo, device_id_translation_checks_output_then_id)
{
    int32_t out;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_RC(aclrtGetLogicDevIdByUserDevId(-1, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetLogicDevIdByUserDevId(-1, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetUserDevIdByLogicDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtGetPhyDevIdByUserDevId(2, &out), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclrtGetPhyDevIdByUserDevId: argument 'userDevId' (2)");
}

TEST(sysinfo, uuid_is_stable_and_distinct_per_device)
{
    aclrtUuid a, b, c;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDeviceGetUuid(0, &a));
    ASSERT_OK(aclrtDeviceGetUuid(1, &b));
    ASSERT_OK(aclrtDeviceGetUuid(0, &c));
    ASSERT_EQ(memcmp(a.bytes, c.bytes, 16), 0);
    ASSERT_NE(memcmp(a.bytes, b.bytes, 16), 0);
    ASSERT_RC(aclrtDeviceGetUuid(2, &a), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDeviceGetUuid(-1, NULL), ACL_ERROR_INVALID_PARAM);
}

TEST(sysinfo, pci_bus_id_round_trips)
{
    char id[16];
    int32_t dev = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDeviceGetPCIBusId(1, id, 13));
    ASSERT_EQ(strlen(id), 12);
    ASSERT_OK(aclrtDeviceGetByPCIBusId(id, &dev));
    ASSERT_EQ(dev, 1);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:00:00.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDeviceGetByPCIBusId(NULL, &dev), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDeviceGetByPCIBusId(id, NULL), ACL_ERROR_INVALID_PARAM);
}

/* aclrtDeviceGetByPCIBusId knows the bus ids of the devices there are:
 * with 2 devices, the last one's (c2) maps back to 1 and the next one
 * (c3, the id 2 == the device count) is refused. */
TEST(sysinfo, a_pci_bus_id_one_past_the_last_device_is_refused)
{
    int32_t dev = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDeviceGetByPCIBusId("0000:c2:00.0", &dev));
    ASSERT_EQ(dev, 1);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:c3:00.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "0000:c3:00.0");
}

/* pciBusId (100000), deviceId below 0 (107001), len below 13 (107000), deviceId past the last (107001). */
TEST(sysinfo, pci_bus_id_checks_buffer_then_id_then_len)
{
    char id[16];
    ASSERT_RC(aclrtDeviceGetPCIBusId(-1, NULL, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDeviceGetPCIBusId(-1, id, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDeviceGetPCIBusId(5, id, 12), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'len' (12)");
    ASSERT_RC(aclrtDeviceGetPCIBusId(5, id, 13), ACL_ERROR_RT_INVALID_DEVICEID);
}

/* ---- limits ------------------------------------------------------------------------------------- */

TEST(sysinfo, device_limit_set_then_get)
{
    size_t v = 0;
    ASSERT_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    ASSERT_EQ(v, 32 * 1024);
    ASSERT_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, UINT32_MAX));
    ASSERT_OK(aclrtDeviceGetLimit(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE, &v));
    ASSERT_EQ(v, UINT32_MAX);
}

/* limit in [0, 4]; value at most UINT32_MAX (both 100000); get checks value first. */
TEST(sysinfo, device_limit_bounds)
{
    size_t v;
    ASSERT_OK(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE, 0));
    ASSERT_RC(aclrtDeviceSetLimit((aclrtDeviceLimit)5, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDeviceSetLimit((aclrtDeviceLimit)-1, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtDeviceSetLimit((aclrtDeviceLimit)5, (size_t)UINT32_MAX + 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'limit'");
    ASSERT_RC(aclrtDeviceSetLimit(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE, (size_t)UINT32_MAX + 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'value'");
    ASSERT_RC(aclrtDeviceGetLimit((aclrtDeviceLimit)5, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'value'");
    ASSERT_RC(aclrtDeviceGetLimit((aclrtDeviceLimit)5, &v), ACL_ERROR_INVALID_PARAM);
}

/* ---- atomics and peers -------------------------------------------------------------------------------- */

TEST(sysinfo, atomic_capabilities_per_operation)
{
    aclrtAtomicOperation ops[3] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_FLOAT_ADD,
                                   ACL_RT_ATOMIC_OPERATION_DMA_ADD};
    uint32_t caps[3] = {0, 0, 0};
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0));
    ASSERT(caps[0] & ACL_RT_ATOMIC_CAPABILITY_SCALAR64);
    ASSERT(caps[0] & ACL_RT_ATOMIC_CAPABILITY_UNSIGNED);
    ASSERT(caps[1] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
    ASSERT_EQ(caps[2], 0);
    ASSERT_OK(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 1));
}

/* capabilities, operations, count (107000), device (107001), each operation (107000). */
TEST(sysinfo, atomic_capabilities_check_order)
{
    aclrtAtomicOperation ops[2] = {ACL_RT_ATOMIC_OPERATION_CAS, (aclrtAtomicOperation)13};
    uint32_t caps[2];
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(NULL, NULL, 0, 9), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'capabilities'");
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 0, 9), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'count'");
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 9), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'operations[1]' (13)");
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 1, 0), ACL_SUCCESS);
    ASSERT_RC(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 1, 1), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "must differ");
    ASSERT_RC(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 2), ACL_ERROR_RT_INVALID_DEVICEID);
}

/* The status is the driver's flag: 1 from the enable on deviceId towards
 * peerDeviceId until the disable, one way only (the other direction stays
 * 0 until its own device enables it), 0 for a device and itself; the
 * checks come first. */
TEST(sysinfo, peer_access_status_is_one_only_while_enabled_one_way)
{
    int32_t st = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
    ASSERT_EQ(st, 0);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &st));
    ASSERT_EQ(st, 1);
    ASSERT_OK(aclrtDevicePeerAccessStatus(1, 0, &st));
    ASSERT_EQ(st, 0);
    ASSERT_OK(aclrtDevicePeerAccessStatus(1, 1, &st));
    ASSERT_EQ(st, 0);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtDeviceEnablePeerAccess(0, 0));
    ASSERT_OK(aclrtDevicePeerAccessStatus(1, 0, &st));
    ASSERT_EQ(st, 1);
    ASSERT_OK(aclrtDeviceDisablePeerAccess(0));
    ASSERT_OK(aclrtDevicePeerAccessStatus(1, 0, &st));
    ASSERT_EQ(st, 0);
    ASSERT_OK(aclrtDevicePeerAccessStatus(0, 1, &st)); /* device 0's flag is its own */
    ASSERT_EQ(st, 1);
    ASSERT_RC(aclrtDevicePeerAccessStatus(0, 64, &st), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDevicePeerAccessStatus(0, 63, &st), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDevicePeerAccessStatus(2, 64, &st), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_RC(aclrtDevicePeerAccessStatus(2, 64, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclFinalize());
}

/* ---- primary context ---------------------------------------------------------------------------------- */

TEST(sysinfo, primary_ctx_state_follows_set_and_reset)
{
    int32_t active = -1;
    ASSERT_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    ASSERT_EQ(active, 0);
    t_setup();
    ASSERT_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    ASSERT_EQ(active, 1);
    ASSERT_OK(aclrtResetDevice(0));
    ASSERT_OK(aclrtGetPrimaryCtxState(0, NULL, &active));
    ASSERT_EQ(active, 0);
    ASSERT_OK(aclFinalize());
}

/* active (100000), flags must be NULL (100000), then the device (107001). */
TEST(sysinfo, primary_ctx_state_checks_active_then_flags_then_device)
{
    uint32_t flags = 0;
    int32_t active;
    ASSERT_RC(aclrtGetPrimaryCtxState(9, &flags, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'active'");
    ASSERT_RC(aclrtGetPrimaryCtxState(9, &flags, &active), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'flags'");
    ASSERT_RC(aclrtGetPrimaryCtxState(9, NULL, &active), ACL_ERROR_RT_INVALID_DEVICEID);
}

/* ---- system parameter options ------------------------------------------------------------------------------ */

TEST(sysinfo, sys_param_process_set_then_get)
{
    int64_t v = -1;
    ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v));
    ASSERT_EQ(v, 0);
    ASSERT_OK(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 3));
    ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    ASSERT_EQ(v, 3);
    ASSERT_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1));
}

/* opt in 0..3 (100000); value: deterministic [0, 4), others [0, 2) (107000). */
TEST(sysinfo, sys_param_value_bounds)
{
    int64_t v;
    ASSERT_RC(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 4), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, -1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_OK(aclrtSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1));
    ASSERT_RC(aclrtSetSysParamOpt((aclSysParamOpt)4, 9), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'opt' (4)");
    ASSERT_RC(aclrtGetSysParamOpt((aclSysParamOpt)4, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'value'");
    ASSERT_RC(aclrtGetSysParamOpt((aclSysParamOpt)-1, &v), ACL_ERROR_INVALID_PARAM);
}

TEST(sysinfo, ctx_sys_param_unset_is_107021_then_set_value)
{
    int64_t v = -1;
    aclrtContext other;
    setup_soc(NULL);
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    ASSERT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 2));
    ASSERT_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    ASSERT_EQ(v, 2);
    ASSERT_OK(aclrtGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v)); /* the process sees it too */
    ASSERT_EQ(v, 2);
    ASSERT_OK(aclrtCreateContext(&other, 0)); /* a context of its own: nothing set there */
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    ASSERT_OK(aclrtDestroyContext(other));
    t_teardown();
}

/* Context forms: opt 0..2 (100000, early start refused), value range (107000), then a context (107002). */
TEST(sysinfo, ctx_sys_param_checks_opt_value_then_context)
{
    int64_t v;
    ASSERT_RC(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 0), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 2), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, 1), ACL_ERROR_RT_CONTEXT_NULL);
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'value'");
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v), ACL_ERROR_RT_CONTEXT_NULL);
}

TEST(sysinfo, ts_device_takes_aicore_or_aivector)
{
    ASSERT_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
    ASSERT_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
    ASSERT_RC(aclrtSetTsDevice(ACL_TS_ID_RESERVED), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'tsId' (2)");
}

/* ---- groups -------------------------------------------------------------------------------------------------- */

TEST(sysinfo, groups_not_supported_after_null_checks)
{
    uint32_t n;
    size_t ret;
    int32_t val;
    aclrtGroupInfo *fake = (aclrtGroupInfo *)&n;
    ASSERT_RC(aclrtSetGroup(0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtGetGroupCount(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetGroupCount(&n), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT(aclrtCreateGroupInfo() == NULL);
    ASSERT_RC(aclrtDestroyGroupInfo(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetAllGroupInfo(NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetAllGroupInfo(fake), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_RC(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, NULL, 4, &ret), ACL_ERROR_INVALID_PARAM);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'attrValue'");
    ASSERT_RC(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, &val, 4, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclrtGetGroupInfoDetail(fake, 0, ACL_GROUP_AICORE_INT, &val, 4, &ret), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "device groups are not supported");
}

/* ---- architecture -------------------------------------------------------------------------------------------- */

TEST(sysinfo, arch_compatibility_by_npu_arch)
{
    int32_t ok = -1;
    setup_soc(NULL);
    ASSERT_OK(aclrtCheckArchCompatibility("Ascend910B4", &ok));
    ASSERT_EQ(ok, 1);
    ASSERT_OK(aclrtCheckArchCompatibility("Ascend910_9392", &ok)); /* A3 shares A2's architecture */
    ASSERT_EQ(ok, 1);
    ASSERT_OK(aclrtCheckArchCompatibility("Ascend310P3", &ok));
    ASSERT_EQ(ok, 0);
    t_teardown();
}

/* socVersion NULL, canCompatible NULL, "" and an unknown SoC: all 107000. */
TEST(sysinfo, arch_compatibility_checks_order)
{
    int32_t ok;
    ASSERT_RC(aclrtCheckArchCompatibility(NULL, NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'socVersion' is NULL");
    ASSERT_RC(aclrtCheckArchCompatibility("", NULL), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "'canCompatible'");
    ASSERT_RC(aclrtCheckArchCompatibility("", &ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtCheckArchCompatibility("Ascend999", &ok), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "Ascend999");
}

/* ---- aclInit / aclFinalize callbacks -------------------------------------------------------------------------- */

static int cb_log[16];
static int cb_n;
static size_t cb_len;
static aclError cb_fail_with;

static void cb_put(int v)
{
    if (cb_n < 16)
        cb_log[cb_n++] = v;
}

static aclError init_a(const char *cfg, size_t len, void *user)
{
    (void)cfg;
    cb_len = len;
    cb_put((int)(intptr_t)user);
    return cb_fail_with;
}

static aclError init_b(const char *cfg, size_t len, void *user)
{
    (void)cfg, (void)len;
    cb_put((int)(intptr_t)user);
    return ACL_SUCCESS;
}

static aclError fini_a(void *user)
{
    cb_put((int)(intptr_t)user);
    return cb_fail_with;
}

static aclError fini_b(void *user)
{
    cb_put((int)(intptr_t)user);
    return ACL_SUCCESS;
}

/* aclInit runs model, op executor (only with a configuration path), DVPP,
 * then the others in registration order; types not on the list do not run. */
TEST(sysinfo, init_callbacks_run_in_reference_type_order)
{
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_b, (void *)5));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_b, (void *)3));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_b, (void *)2));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, init_b, (void *)9));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_a, (void *)1));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_a, (void *)6));
    ASSERT_OK(aclInit(NULL));
    ASSERT_EQ(cb_n, 4);
    ASSERT_EQ(cb_log[0], 1);
    ASSERT_EQ(cb_log[1], 3);
    ASSERT_EQ(cb_log[2], 5);
    ASSERT_EQ(cb_log[3], 6);
    ASSERT_EQ(cb_len, 0);
    ASSERT_OK(aclFinalize());
}

TEST(sysinfo, init_callbacks_get_the_configuration_text)
{
    char path[T_PATH_CAP];
    FILE *f;
    close(t_tmpfile(path, sizeof(path), "aclcpu-sysinfo-cfg"));
    f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("{\"a\": 1}", f);
    fclose(f);
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_OP_EXECUTOR, init_a, (void *)2));
    ASSERT_OK(aclInit(path));
    remove(path);
    ASSERT_EQ(cb_n, 1);
    ASSERT_EQ(cb_len, 8);
    ASSERT_OK(aclFinalize());
}

/* A failing callback fails aclInit with its code, and aclInit can be tried again. */
TEST(sysinfo, init_callback_failure_fails_init)
{
    uint64_t refs = 9;
    cb_fail_with = 123456;
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_a, (void *)1));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_b, (void *)3));
    ASSERT_RC(aclInit(NULL), 123456);
    ASSERT_STR_CONTAINS(aclGetRecentErrMsg(), "aclInit: the aclInit callback of type 0 returned 123456");
    ASSERT_EQ(cb_n, 1); /* DVPP's did not run */
    ASSERT_RC(aclFinalizeReference(&refs), ACL_ERROR_REPEAT_FINALIZE); /* not initialised */
    cb_fail_with = ACL_SUCCESS;
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclFinalize());
}

/* Registered after aclInit: it runs at once; its result is not the registration's. */
TEST(sysinfo, init_callback_registered_after_init_runs_at_once)
{
    ASSERT_OK(aclInit(NULL));
    cb_fail_with = 1;
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_a, (void *)7));
    ASSERT_EQ(cb_n, 1);
    ASSERT_EQ(cb_log[0], 7);
    cb_fail_with = ACL_SUCCESS;
    ASSERT_OK(aclFinalize());
}

/* One callback per type, except ACL_REG_TYPE_OTHER (500000); NULL (100000). */
TEST(sysinfo, init_callback_second_of_a_type_is_refused)
{
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_a, NULL));
    ASSERT_RC(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_b, NULL), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_a, NULL));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_a, NULL));
    ASSERT_RC(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fini_a, NULL));
    ASSERT_RC(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fini_b, NULL), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_RC(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, NULL, NULL), ACL_ERROR_INVALID_PARAM);
}

/* Unregister: NULL (100000); a type or function not registered (500000); a second unregister (500000). */
TEST(sysinfo, callback_unregister_rules)
{
    ASSERT_RC(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_RC(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_a), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_MODEL, init_a, NULL));
    ASSERT_RC(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_b), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_a));
    ASSERT_RC(aclInitCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, init_a), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_OK(aclInit(NULL));
    ASSERT_EQ(cb_n, 0); /* unregistered: not run */
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fini_a, NULL));
    ASSERT_RC(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_ACL_MODEL, fini_a), ACL_ERROR_INTERNAL_ERROR);
    ASSERT_OK(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, fini_a));
    ASSERT_RC(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER, NULL), ACL_ERROR_INVALID_PARAM);
    ASSERT_OK(aclFinalize());
    ASSERT_EQ(cb_n, 0);
}

/* aclFinalize runs op compiler, model, DVPP, then the others. */
TEST(sysinfo, finalize_callbacks_run_in_reference_type_order)
{
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER, fini_b, (void *)4));
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_DVPP, fini_b, (void *)3));
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fini_b, (void *)2));
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_OP_COMPILER, fini_b, (void *)1));
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_TDT_QUEUE, fini_b, (void *)9));
    ASSERT_OK(aclInit(NULL));
    ASSERT_EQ(cb_n, 0);
    ASSERT_OK(aclFinalize());
    ASSERT_EQ(cb_n, 4);
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(cb_log[i], i + 1);
}

/* A failing finalize callback fails aclFinalize, which leaves the runtime initialised. */
TEST(sysinfo, finalize_callback_failure_keeps_runtime)
{
    uint64_t refs = 0;
    ASSERT_OK(aclFinalizeCallbackRegister(ACL_REG_TYPE_ACL_MODEL, fini_a, (void *)1));
    ASSERT_OK(aclInit(NULL));
    cb_fail_with = 777;
    ASSERT_RC(aclFinalize(), 777);
    ASSERT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE); /* still initialised (count now 2) */
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 1);
    ASSERT_RC(aclFinalizeReference(&refs), 777); /* the last reference runs the callbacks */
    ASSERT_EQ(refs, 1);
    cb_fail_with = ACL_SUCCESS;
    ASSERT_OK(aclFinalizeReference(&refs));
    ASSERT_EQ(refs, 0);
    ASSERT_EQ(cb_n, 3);
}

/* A callback may call the API (no lock is held while it runs). */
static aclError init_sets_device(const char *cfg, size_t len, void *user)
{
    (void)cfg, (void)len, (void)user;
    return aclrtSetDevice(0);
}

TEST(sysinfo, init_callback_may_call_the_api)
{
    int32_t dev = -1;
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_sets_device, NULL));
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclrtGetDevice(&dev));
    ASSERT_EQ(dev, 0);
    t_teardown();
}

/* ---- sweep 4 (2026-12-05): each figure, each term of a check ------------------------------------------------ */

/* A bus id is exactly "0000:bb:00.0" of a device: function 1, domain 1,
 * device 1 or trailing text are no device's (107000). */
TEST(sysinfo, a_pci_bus_id_with_another_domain_device_function_or_trailing_text_is_refused)
{
    int32_t dev = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclrtDeviceGetByPCIBusId("0000:c1:00.0", &dev));
    ASSERT_EQ(dev, 0);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:c1:00.1", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0001:c1:00.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:c1:01.0", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:c1:00.0z", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_RC(aclrtDeviceGetByPCIBusId("0000:c1:00.0 ", &dev), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(dev, 0); /* the refusals wrote nothing */
}

/* Every operation is checked before any mask is written: a refused query
 * leaves the whole array as it was. */
TEST(sysinfo, a_refused_atomic_query_writes_no_capability)
{
    aclrtAtomicOperation ops[2] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, (aclrtAtomicOperation)13};
    uint32_t caps[2] = {0xdeadu, 0xbeefu};
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_RC(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 2, 0), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(caps[0], 0xdeadu);
    ASSERT_EQ(caps[1], 0xbeefu);
    ASSERT_RC(aclrtDeviceGetP2PAtomicCapabilities(caps, ops, 2, 0, 1), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(caps[0], 0xdeadu);
}

/* The masks in full: integer operations every scalar width, signed and
 * unsigned; float ones signed 32 and 64 bits; DMA and SIMD none. */
TEST(sysinfo, atomic_capability_masks_are_exact)
{
    aclrtAtomicOperation ops[3] = {ACL_RT_ATOMIC_OPERATION_CAS, ACL_RT_ATOMIC_OPERATION_FLOAT_MAX,
                                   ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD};
    uint32_t caps[3] = {0, 0, 7};
    const uint32_t ints = ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_UNSIGNED |
                          ACL_RT_ATOMIC_CAPABILITY_SCALAR8 | ACL_RT_ATOMIC_CAPABILITY_SCALAR16 |
                          ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    const uint32_t floats =
        ACL_RT_ATOMIC_CAPABILITY_SIGNED | ACL_RT_ATOMIC_CAPABILITY_SCALAR32 | ACL_RT_ATOMIC_CAPABILITY_SCALAR64;
    ASSERT_OK(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 3, 0));
    ASSERT_EQ(caps[0], ints);
    ASSERT_EQ(caps[1], floats);
    ASSERT_EQ(caps[2], 0);
}

/* Inference cards (310P) meet over the host's PCIe, not HCCS. */
TEST(sysinfo, topology_of_inference_cards_is_the_host_bus)
{
    uint64_t v = 99;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    setup_soc("Ascend310P3");
    ASSERT_OK(aclrtGetDevicesTopo(0, 1, &v));
    ASSERT_EQ(v, ACL_RT_DEVS_TOPOLOGY_SYS);
    t_teardown();
}

/* Ascend 950's SIMT launch bounds, each of them (docs/differences.md). */
TEST(sysinfo, simt_attributes_of_the_950_are_each_their_own)
{
    static const struct {
        aclrtDevAttr attr;
        int64_t want;
    } table[] = {
        {ACL_DEV_ATTR_WARP_SIZE, 32},
        {ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE, 2048},
        {ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, 256 * 1024},
        {ACL_DEV_ATTR_MAX_GRID_DIM_X, INT32_MAX},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Y, 65535},
        {ACL_DEV_ATTR_MAX_GRID_DIM_Z, 65535},
        {ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, UINT32_MAX},
        {ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK, 1024},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_X, 1024},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, 1024},
        {ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, 64},
    };
    int64_t v;
    setenv("ACLCPU_SOC", "Ascend950PR", 1);
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        v = -1;
        ASSERT_OK(aclrtGetDeviceInfo(0, table[i].attr, &v));
        ASSERT_EQ(v, table[i].want);
    }
}

/* An A3 (Atlas A3, "Ascend910_9392") is a pod; an A2 an A_X board with
 * NPU architecture 2201; the physical chip id is the device id. */
TEST(sysinfo, form_factor_arch_and_chip_id_follow_the_soc_and_device)
{
    int64_t v = -1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    setenv("ACLCPU_SOC", "Ascend910_9392", 1);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));
    ASSERT_EQ(v, ACL_DEVICE_FORM_FACTOR_POD);
    ASSERT_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_NPU_ARCH, &v));
    ASSERT_EQ(v, 2201);
    ASSERT_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
    ASSERT_EQ(v, 1);
    ASSERT_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, &v));
    ASSERT_EQ(v, 1);
    setenv("ACLCPU_SOC", "Ascend910B4", 1);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));
    ASSERT_EQ(v, ACL_DEVICE_FORM_FACTOR_A_X);
}

/* The context forms take options 0..2: STRONG_CONSISTENCY (2), the last,
 * is set and read back; 3 is refused (100000). */
TEST(sysinfo, ctx_sys_param_takes_strong_consistency_the_last_context_option)
{
    int64_t v = -1;
    setup_soc(NULL);
    ASSERT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, 1));
    ASSERT_OK(aclrtCtxGetSysParamOpt(ACL_OPT_STRONG_CONSISTENCY, &v));
    ASSERT_EQ(v, 1);
    ASSERT_RC(aclrtCtxSetSysParamOpt(ACL_OPT_ENABLE_KERNEL_EARLY_START, 1), ACL_ERROR_INVALID_PARAM);
    t_teardown();
}

/* Callbacks of one type run in registration order and the first failure
 * ends the run: the next one of the same type does not run. */
TEST(sysinfo, the_first_failing_init_callback_of_a_type_stops_the_rest)
{
    cb_fail_with = 4321;
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_a, (void *)1));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_b, (void *)2));
    ASSERT_RC(aclInit(NULL), 4321);
    ASSERT_EQ(cb_n, 1);
    ASSERT_EQ(cb_log[0], 1);
    cb_fail_with = ACL_SUCCESS;
}

/* bf16 is on the SoCs whose vector units have it: A2, A3 and 950, not the
 * Atlas training (910) one. */
TEST(sysinfo, bf16_is_an_attribute_of_a2_a3_and_950_only)
{
    static const struct {
        const char *soc;
        int32_t want;
    } table[] = {{"Ascend910_9392", 1}, {"Ascend950PR", 1}, {"Ascend910A", 0}, {"Ascend310B1", 0}};
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        int32_t v = -1;
        setup_soc(table[i].soc);
        ASSERT_OK(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v));
        ASSERT_EQ(v, table[i].want);
        t_teardown();
    }
}

/* The task-update capability is 1 only where the SoC has it (A2, A3,
 * 950): Atlas inference answers 0. */
TEST(sysinfo, the_task_update_capability_is_zero_on_a_soc_without_it)
{
    int32_t v = -1;
    setenv("ACLCPU_SOC", "Ascend310P3", 1);
    ASSERT_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
    ASSERT_EQ(v, 0);
}

/* The CANN version's patch part is "0" (aclcpu's versions have none). */
TEST(sysinfo, cann_version_patch_part_is_zero)
{
    aclCANNPackageVersion v;
    memset(&v, 'x', sizeof(v));
    ASSERT_OK(aclsysGetCANNVersion(ACL_PKG_NAME_RUNTIME, &v));
    ASSERT_EQ(strcmp(v.patchVersion, "0"), 0);
}

/* A device's UUID is "aclcpu-device" padded with zeros and the id in the
 * last byte (docs/differences.md). */
TEST(sysinfo, uuid_is_the_stem_zeros_and_the_id_in_the_last_byte)
{
    aclrtUuid u;
    char want[16] = "aclcpu-device";
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    memset(&u, 0x55, sizeof(u));
    ASSERT_OK(aclrtDeviceGetUuid(1, &u));
    want[15] = 1;
    ASSERT_EQ(memcmp(u.bytes, want, 16), 0);
}

/* aclcpu models no AI CPU: its core count is 0 (docs/differences.md). */
TEST(sysinfo, a_device_has_no_ai_cpu_cores)
{
    int64_t v = -1;
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICPU_CORE_NUM, &v));
    ASSERT_EQ(v, 0);
}

/* ---- sweep 4 ------------------------------------------------------------------------------------- */

/* Unregistering an OTHER init callback keeps those registered after it,
 * in their order: of 5, 6 and 7, taking 5 back leaves 6 then 7. */
TEST(sysinfo, unregistering_an_init_callback_keeps_the_ones_after_it_in_order)
{
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_a, (void *)5));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_OTHER, init_b, (void *)6));
    ASSERT_OK(aclInitCallbackRegister(ACL_REG_TYPE_ACL_DVPP, init_b, (void *)7));
    ASSERT_OK(aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, init_a));
    ASSERT_OK(aclInit(NULL));
    ASSERT_EQ(cb_n, 2);
    ASSERT_EQ(cb_log[0], 7); /* DVPP before the others */
    ASSERT_EQ(cb_log[1], 6);
    ASSERT_OK(aclFinalize());
}

/* ---- sweep 5 (2026-12-05): a SoC name in any case ---------------------------------------- */

/* ACLCPU_SOC names a profile whatever the case of its letters: "ascend310p3"
 * is the Ascend310P3 (8 cube cores), not the default profile. */
TEST(sysinfo, a_soc_profile_is_found_whatever_the_case_of_its_name)
{
    int64_t v = -1;
    setup_soc("ascend310p3");
    ASSERT_EQ(strcmp(aclrtGetSocName(), "Ascend310P3"), 0);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    ASSERT_EQ(v, 8);
    t_teardown();
}

/* Each option of a context is set or not on its own: with the deterministic
 * option set, the debug-kernel option still reads back as not set (107021). */
TEST(sysinfo, a_ctx_option_not_set_reads_back_unset_while_another_is_set)
{
    int64_t v = -1;
    setup_soc(NULL);
    ASSERT_OK(aclrtCtxSetSysParamOpt(ACL_OPT_DETERMINISTIC, 1));
    ASSERT_RC(aclrtCtxGetSysParamOpt(ACL_OPT_ENABLE_DEBUG_KERNEL, &v), ACL_ERROR_RT_SYSPARAMOPT_NOT_SET);
    ASSERT_OK(aclrtCtxGetSysParamOpt(ACL_OPT_DETERMINISTIC, &v));
    ASSERT_EQ(v, 1);
    t_teardown();
}
