/*
 * 4_custom_kernel_launch - the CANN runtime sample
 * example/0_quickstart/4_custom_kernel_launch, in C on aclcpu.
 *
 * The same vector add as 0_hello_cann (dst = srcA + alpha * srcB), done
 * by a kernel of the sample's own instead of an operator. On the device,
 * VectorAddKernel is an Ascend C kernel and VectorAddDo launches it with
 * <<<blockDim, nullptr, stream>>>; here it is a CPU kernel registered with
 * aclcpuRegisterKernel and VectorAddDo launches it with aclrtLaunchKernel,
 * returning the launch's code as the <<<>>> call does.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define CHECK_ERROR(ret)                                                                           \
    do {                                                                                           \
        int32_t check_ret_ = (int32_t)(ret);                                                       \
        if (check_ret_ != ACL_SUCCESS) {                                                           \
            printf("Error at line %d, ret = %d\n", __LINE__, check_ret_);                         \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

#define ELEMENT_COUNT 8u
#define TOLERANCE 1e-5f

/* ---- the kernel (vector_add_kernel.cpp) ---- */

struct vector_add_args {
    float *srcA, *srcB, *dst;
    float alpha;
    uint32_t elementCount;
};

/* One block adds every element, as the vendor's scalar loop does. */
static void VectorAddKernel(void *p)
{
    const struct vector_add_args *a = p;
    for (uint32_t i = 0; i < a->elementCount; i++)
        a->dst[i] = a->srcA[i] + a->alpha * a->srcB[i];
}

static int32_t VectorAddDo(uint32_t blockDim, void *stream, float *srcA, float *srcB, float *dst, float alpha,
                           uint32_t elementCount)
{
    struct vector_add_args args = {srcA, srcB, dst, alpha, elementCount};
    aclrtFuncHandle fn;
    aclError ret = aclcpuRegisterKernel("VectorAddKernel", VectorAddKernel, &fn);
    if (ret != ACL_SUCCESS)
        return (int32_t)ret;
    return (int32_t)aclrtLaunchKernel(fn, blockDim, &args, sizeof(args), stream);
}

/* ---- the host program (main.cpp) ---- */

int main(void)
{
    const int32_t deviceId = 0;
    const uint32_t blockDim = 1;
    const size_t bufferSize = ELEMENT_COUNT * sizeof(float);
    const float alpha = 1.0f;
    const float srcAHost[ELEMENT_COUNT] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    const float srcBHost[ELEMENT_COUNT] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
    float dstHost[ELEMENT_COUNT] = {0};
    float *srcADevice = NULL, *srcBDevice = NULL, *dstDevice = NULL;
    aclrtStream stream = NULL;
    int resultMatched = 1;

    CHECK_ERROR(aclInit(NULL));
    printf("ACL init successfully\n");
    CHECK_ERROR(aclrtSetDevice(deviceId));
    printf("Set device %d successfully\n", deviceId);
    CHECK_ERROR(aclrtCreateStream(&stream));
    printf("Create stream successfully\n");

    CHECK_ERROR(aclrtMalloc((void **)&srcADevice, bufferSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc((void **)&srcBDevice, bufferSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc((void **)&dstDevice, bufferSize, ACL_MEM_MALLOC_HUGE_FIRST));
    printf("Allocate device buffers successfully\n");
    CHECK_ERROR(aclrtMemcpy(srcADevice, bufferSize, srcAHost, bufferSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(srcBDevice, bufferSize, srcBHost, bufferSize, ACL_MEMCPY_HOST_TO_DEVICE));
    printf("Copy input vectors to device successfully\n");

    printf("Input vectors:\n");
    printf("  self:   [%.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f]\n", srcAHost[0], srcAHost[1], srcAHost[2],
           srcAHost[3], srcAHost[4], srcAHost[5], srcAHost[6], srcAHost[7]);
    printf("  other:  [%.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f]\n", srcBHost[0], srcBHost[1], srcBHost[2],
           srcBHost[3], srcBHost[4], srcBHost[5], srcBHost[6], srcBHost[7]);
    printf("  alpha:  %.1f\n", alpha);

    CHECK_ERROR(VectorAddDo(blockDim, stream, srcADevice, srcBDevice, dstDevice, alpha, ELEMENT_COUNT));
    printf("Custom AscendC kernel <<<>>> call successfully\n");
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    printf("Synchronize stream successfully\n");

    CHECK_ERROR(aclrtMemcpy(dstHost, bufferSize, dstDevice, bufferSize, ACL_MEMCPY_DEVICE_TO_HOST));
    printf("\nVector addition result:\n");
    for (uint32_t i = 0; i < ELEMENT_COUNT; ++i) {
        const float expected = srcAHost[i] + alpha * srcBHost[i];
        printf("  result[%u] = %.1f (expected: %.1f)\n", i, dstHost[i], expected);
        if (fabsf(dstHost[i] - expected) > TOLERANCE)
            resultMatched = 0;
    }

    CHECK_ERROR(aclrtFree(srcADevice));
    CHECK_ERROR(aclrtFree(srcBDevice));
    CHECK_ERROR(aclrtFree(dstDevice));
    printf("Free device memory successfully\n");
    CHECK_ERROR(aclrtDestroyStream(stream));
    printf("Destroy stream successfully\n");
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    printf("Reset device successfully\n");
    CHECK_ERROR(aclFinalize());
    printf("ACL finalize successfully\n");

    if (!resultMatched) {
        printf("\nSample run failed: vector addition result mismatched!\n");
        return -1;
    }
    printf("\nSample run successfully with <<<>>> kernel call!\n");
    return 0;
}
