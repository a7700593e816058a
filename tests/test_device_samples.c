/*
 * test_device_samples.c - rules the vendor's quickstart, context, device
 * and stream samples showed aclcpu lacking (docs/conformance.md, "Vendor
 * samples: quickstart, context, device and stream"): the SoC profile the
 * multi-thread device sample runs on, and copies between devices, each
 * device with its own memory budget.
 */
#include <stdlib.h>

#include <aclcpu/aclcpu.h>

#include "test.h"

/* The Ascend910_9362 (the chip of 1_device_multi_thread's README) plays the
 * reference's platform file: 20 cube and 40 vector cores, 64 GiB, 168 MiB of
 * L2, an A3 (so the A3's rules apply: fault reporting, for one). */
TEST(device_samples, soc_ascend910_9362_has_its_platform_files_cores_and_memory)
{
    int64_t v = -1;
    aclrtErrorInfo info;
    setenv("ACLCPU_SOC", "Ascend910_9362", 1);
    t_setup();
    ASSERT_EQ(strcmp(aclrtGetSocName(), "Ascend910_9362"), 0);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    ASSERT_EQ(v, 20);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    ASSERT_EQ(v, 40);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    ASSERT_EQ(v, 64LL << 30);
    ASSERT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_L2_CACHE_SIZE, &v));
    ASSERT_EQ(v, 168LL << 20);
    ASSERT_OK(aclrtGetErrorVerbose(0, &info));
    t_teardown();
}

/* out[i] = in[i] + 1, on whichever device launched it. */
static void plus_one(void *args)
{
    int32_t **p = args;
    p[1][aclcpuGetBlockIdx()] = p[0][aclcpuGetBlockIdx()] + 1;
}

/* 2_device_P2P: memory of device 0 copied to memory of device 1 with a
 * device-to-device copy issued on device 1, after each enabled access to
 * the other. Each device charges its own budget, and a kernel launched on
 * device 1 reads what the copy brought. */
TEST(device_samples, copy_between_devices_charges_each_device_and_its_kernel_reads_the_copy)
{
    enum { N = 8 };
    void *dev0 = NULL, *dev1 = NULL, *out1 = NULL;
    int32_t host[N], back[N];
    size_t free0a, free0b, free1a, free1b, total;
    aclrtFuncHandle fn;
    aclrtStream s1;
    setenv("ACLCPU_DEVICE_COUNT", "2", 1);
    ASSERT_OK(aclInit(NULL));
    ASSERT_OK(aclcpuRegisterKernel("plus_one", plus_one, &fn));
    for (int i = 0; i < N; i++)
        host[i] = 10 * i;
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1a, &total));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0a, &total));
    ASSERT_OK(aclrtDeviceEnablePeerAccess(1, 0));
    ASSERT_OK(aclrtMalloc(&dev0, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    ASSERT_OK(aclrtMemcpy(dev0, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0b, &total));
    ASSERT(free0b < free0a);
    ASSERT_OK(aclrtSetDevice(1));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1b, &total));
    ASSERT_EQ(free1b, free1a); /* device 0's block is not device 1's */
    ASSERT_OK(aclrtDeviceEnablePeerAccess(0, 0));
    ASSERT_OK(aclrtMalloc(&dev1, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    ASSERT_OK(aclrtMalloc(&out1, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST));
    ASSERT_OK(aclrtMemcpy(dev1, sizeof(host), dev0, sizeof(host), ACL_MEMCPY_DEVICE_TO_DEVICE));
    ASSERT_OK(aclrtCreateStream(&s1));
    {
        void *args[2] = {dev1, out1};
        ASSERT_OK(aclrtLaunchKernel(fn, N, args, sizeof(args), s1));
    }
    ASSERT_OK(aclrtSynchronizeStream(s1));
    ASSERT_OK(aclrtMemcpy(back, sizeof(back), out1, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(back[i], 10 * i + 1);
    ASSERT_OK(aclrtDestroyStream(s1));
    ASSERT_OK(aclrtDeviceDisablePeerAccess(0));
    ASSERT_OK(aclrtFree(dev1));
    ASSERT_OK(aclrtFree(out1));
    ASSERT_OK(aclrtResetDeviceForce(1));
    ASSERT_OK(aclrtSetDevice(0));
    ASSERT_OK(aclrtDeviceDisablePeerAccess(1));
    ASSERT_OK(aclrtFree(dev0));
    ASSERT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0b, &total));
    ASSERT_EQ(free0b, free0a);
    ASSERT_OK(aclrtResetDeviceForce(0));
    ASSERT_OK(aclFinalize());
}
