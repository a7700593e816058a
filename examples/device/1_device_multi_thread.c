/*
 * 1_device_multi_thread - the CANN runtime sample
 * example/1_basic_features/device/1_device_multi_thread, in C on aclcpu.
 *
 * The main thread initializes, sets device 0 and limits the process's
 * vector cores on it to 1 (aclrtSetDeviceResLimit); a second thread then
 * sets the device itself, queries it (SoC name, device count, status, run
 * mode, utilization, stream priority range, vector core count), reads the
 * limit back and launches the vendor's add kernel on that many blocks over
 * 1024 floats, prints the first ten sums, resets the limit and releases
 * what it made. On the device the kernel is the Ascend C AddKernel of
 * example/kernel_func/kernel_add.cpp; here AddKernel is a CPU kernel
 * registered with aclcpuRegisterKernel, splitting the elements over the
 * blocks the same way.
 */
#include <pthread.h>
#include <stdint.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

/* ---- the kernel (example/kernel_func/kernel_add.cpp) ---- */

struct add_args {
    float *srcA, *srcB, *dst;
    uint32_t totalSize;
};

/* Each block adds its totalSize / blockDim elements. */
static void AddKernel(void *p)
{
    const struct add_args *a = p;
    uint32_t per = a->totalSize / aclcpuGetBlockNum(), start = aclcpuGetBlockIdx() * per;
    for (uint32_t i = start; i < start + per; i++)
        a->dst[i] = a->srcA[i] + a->srcB[i];
}

/* A <<<blockDim, nullptr, stream>>> launch: it returns nothing. */
static void AddDo(uint32_t blockDim, void *stream, float *srcA, float *srcB, float *dst, uint32_t totalSize)
{
    struct add_args args = {srcA, srcB, dst, totalSize};
    aclrtFuncHandle fn;
    if (aclcpuRegisterKernel("AddKernel", AddKernel, &fn) == ACL_SUCCESS)
        (void)aclrtLaunchKernel(fn, blockDim, &args, sizeof(args), stream);
}

/* ---- the host program (main.cpp) ---- */

static int Init(aclrtStream *stream)
{
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtCreateStream(stream));
    return 0;
}

static int DeviceInfoQuery(void)
{
    aclrtRunMode runMode;
    int64_t vectorCoreNum = 0;
    uint32_t deviceCount = 0;
    aclrtDeviceStatus deviceStatus;
    aclrtUtilizationInfo utilizationInfo;
    int32_t leastPriority, greatestPriority;

    INFO_LOG("Current Ascend chipset platform is: %s.", aclrtGetSocName());
    CHECK_ERROR(aclrtGetDeviceCount(&deviceCount));
    INFO_LOG("Get device count success. deviceCount: %d.", (int)deviceCount);
    CHECK_ERROR(aclrtQueryDeviceStatus(0, &deviceStatus));
    INFO_LOG("Query device status success. deviceStatus: %d.", (int)deviceStatus);
    CHECK_ERROR(aclrtGetRunMode(&runMode));
    if (runMode == 0)
        INFO_LOG("RunMode is ACL_DEVICE.");
    else if (runMode == 1)
        INFO_LOG("RunMode is ACL_HOST.");
    else
        INFO_LOG("RunMode is invalid.");

    utilizationInfo.utilizationExtend = NULL;
    CHECK_ERROR(aclrtGetDeviceUtilizationRate(0, &utilizationInfo));
    INFO_LOG("Get device utilizationRate success. cubeUtilization %d, vectorUtilization %d, aicpuUtilization %d,"
             "memoryUtilization %d.",
             utilizationInfo.cubeUtilization, utilizationInfo.vectorUtilization, utilizationInfo.aicpuUtilization,
             utilizationInfo.memoryUtilization);
    CHECK_ERROR(aclrtDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
    INFO_LOG("Get stream priorityRange success. leastPriority %d, greatestPriority %d.", leastPriority,
             greatestPriority);
    CHECK_ERROR(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &vectorCoreNum));
    INFO_LOG("Get device info success. vectorCoreNum %ld.", (long)vectorCoreNum);
    return 0;
}

#define TOTAL_SIZE 1024u
#define DATA_SIZE (TOTAL_SIZE * (uint32_t)sizeof(float))

static void *RunThread(void *unused)
{
    aclrtStream stream = NULL;
    uint32_t resLimitValue = 0;
    float *hostSrcA, *hostSrcB, *hostDst, *devSrcA, *devSrcB, *devDst;
    (void)unused;

    if (Init(&stream) != 0 || DeviceInfoQuery() != 0)
        return NULL;

    /* As the vendor's, the memory calls below go unchecked. */
    aclrtMallocHost((void **)&hostSrcA, DATA_SIZE);
    aclrtMallocHost((void **)&hostSrcB, DATA_SIZE);
    aclrtMallocHost((void **)&hostDst, DATA_SIZE);
    aclrtMalloc((void **)&devSrcA, DATA_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&devSrcB, DATA_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void **)&devDst, DATA_SIZE, ACL_MEM_MALLOC_HUGE_FIRST);
    for (uint32_t i = 0; i < TOTAL_SIZE; ++i) {
        hostSrcA[i] = (float)i;
        hostSrcB[i] = (float)i;
    }
    aclrtMemcpy(devSrcA, DATA_SIZE, hostSrcA, DATA_SIZE, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(devSrcB, DATA_SIZE, hostSrcB, DATA_SIZE, ACL_MEMCPY_HOST_TO_DEVICE);

    aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &resLimitValue);
    INFO_LOG("Get device resLimit success. VECTOR_CORE %d.", (int)resLimitValue);
    AddDo(resLimitValue, stream, devSrcA, devSrcB, devDst, TOTAL_SIZE);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(hostDst, DATA_SIZE, devDst, DATA_SIZE, ACL_MEMCPY_DEVICE_TO_HOST);

    INFO_LOG("The results (first 10 elements) of the kernel function:");
    for (int i = 0; i < 10; ++i)
        INFO_LOG("Result: hostDst[%d]: %f Expected value: %f", i, hostDst[i], hostSrcA[i] + hostSrcB[i]);

    aclrtResetDeviceResLimit(0);
    aclrtFree(devSrcA);
    aclrtFree(devSrcB);
    aclrtFree(devDst);
    aclrtFreeHost(hostSrcA);
    aclrtFreeHost(hostSrcB);
    aclrtFreeHost(hostDst);
    aclrtDestroyStream(stream);
    aclrtResetDeviceForce(0);
    return NULL;
}

int main(void)
{
    pthread_t t1;
    INFO_LOG("Start to run device_multi_thread sample.");
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 1));

    if (pthread_create(&t1, NULL, RunThread, NULL) != 0) {
        ERROR_LOG("Create thread failed.");
        return -1;
    }
    pthread_join(t1, NULL);

    CHECK_ERROR(aclFinalize());
    INFO_LOG("Run the device_multi_thread sample successfully.");
    return 0;
}
