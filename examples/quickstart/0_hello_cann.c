/*
 * 0_hello_cann - the CANN runtime sample example/0_quickstart/0_hello_cann,
 * in C on aclcpu.
 *
 * The smallest complete loop: initialize, set device 0, create a stream,
 * put two float vectors in device memory as tensors, wrap the output's
 * device memory in an aclDataBuffer, run the aclnnAdd operator
 * (out = self + alpha * other) on the stream, synchronize, copy the result
 * back through the buffer's address, and release everything. The operator
 * is the CPU stand-in of examples/aclnn (a CPU kernel behind the operator
 * library's interface); the runtime calls are the vendor's.
 */
#include <stdio.h>

#include <acl/acl.h>

#include "aclnnop/aclnn_add.h"

/* The sample's own check: the line of the failing call and its code. */
#define CHECK_ERROR(ret)                                                                           \
    do {                                                                                           \
        int check_ret_ = (int)(ret);                                                               \
        if (check_ret_ != ACL_SUCCESS) {                                                           \
            printf("Error at line %d, ret = %d\n", __LINE__, check_ret_);                         \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

#define LEN 8

/* Device memory holding host[0..LEN) and a contiguous 1-D tensor over it. */
static int CreateAclTensor(const float *host, const int64_t *shape, void **deviceAddr, aclDataType dataType,
                           aclTensor **tensor)
{
    const size_t size = LEN * sizeof(float);
    const int64_t strides[1] = {1};
    CHECK_ERROR(aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(*deviceAddr, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
    *tensor = aclCreateTensor(shape, 1, dataType, strides, 0, ACL_FORMAT_ND, shape, 1, *deviceAddr);
    if (*tensor == NULL) {
        printf("Create tensor failed\n");
        return -1;
    }
    return 0;
}

static void PrintVector(const char *label, const float *v)
{
    printf("  %s[%.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f, %.1f]\n", label, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
           v[7]);
}

int main(void)
{
    const int32_t deviceId = 0;
    const int64_t shape[1] = {LEN};
    const float selfHost[LEN] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
    const float otherHost[LEN] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};
    float outHost[LEN] = {0}, result[LEN] = {0};
    float alphaValue = 1.0f;
    void *selfDevice = NULL, *otherDevice = NULL, *outDevice = NULL, *workspace = NULL, *outBufferAddr;
    aclTensor *self = NULL, *other = NULL, *out = NULL;
    aclScalar *alpha;
    aclDataBuffer *outDataBuffer;
    aclOpExecutor *executor = NULL;
    uint64_t workspaceSize = 0;
    aclrtStream stream = NULL;

    CHECK_ERROR(aclInit(NULL));
    printf("ACL init successfully\n");
    CHECK_ERROR(aclrtSetDevice(deviceId));
    printf("Set device %d successfully\n", deviceId);
    CHECK_ERROR(aclrtCreateStream(&stream));
    printf("Create stream successfully\n");

    printf("Input vectors:\n");
    PrintVector("self:   ", selfHost);
    PrintVector("other:  ", otherHost);
    printf("  alpha:  %.1f\n", alphaValue);

    CHECK_ERROR(CreateAclTensor(selfHost, shape, &selfDevice, ACL_FLOAT, &self));
    CHECK_ERROR(CreateAclTensor(otherHost, shape, &otherDevice, ACL_FLOAT, &other));
    alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    if (alpha == NULL) {
        printf("Create alpha Scalar failed\n");
        return -1;
    }
    CHECK_ERROR(CreateAclTensor(outHost, shape, &outDevice, ACL_FLOAT, &out));

    /* The output's device memory, described by a data buffer. */
    outDataBuffer = aclCreateDataBuffer(outDevice, sizeof(outHost));
    if (outDataBuffer == NULL) {
        printf("Create output aclDataBuffer failed\n");
        return -1;
    }
    outBufferAddr = aclGetDataBufferAddr(outDataBuffer);
    if (outBufferAddr == NULL) {
        printf("Get output aclDataBuffer address failed\n");
        return -1;
    }
    printf("Create output aclDataBuffer successfully, buffer addr = %p\n", outBufferAddr);

    CHECK_ERROR(aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor));
    printf("Get workspace size successfully, workspace size = %lu\n", (unsigned long)workspaceSize);
    if (workspaceSize > 0) {
        CHECK_ERROR(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
        printf("Allocate workspace successfully\n");
    }
    CHECK_ERROR(aclnnAdd(workspace, workspaceSize, executor, stream));
    printf("Launch aclnnAdd successfully\n");
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    printf("Synchronize stream successfully\n");

    CHECK_ERROR(aclrtMemcpy(result, sizeof(result), outBufferAddr, sizeof(result), ACL_MEMCPY_DEVICE_TO_HOST));
    printf("\nVector addition result:\n");
    for (int i = 0; i < LEN; i++)
        printf("  result[%d] = %.1f (expected: %.1f)\n", i, result[i], selfHost[i] + alphaValue * otherHost[i]);

    aclDestroyTensor(self);
    aclDestroyTensor(other);
    aclDestroyScalar(alpha);
    aclDestroyTensor(out);
    aclDestroyDataBuffer(outDataBuffer);
    aclrtFree(selfDevice);
    aclrtFree(otherDevice);
    aclrtFree(outDevice);
    if (workspace != NULL)
        aclrtFree(workspace);
    printf("Free device memory successfully\n");
    aclrtDestroyStream(stream);
    printf("Destroy stream successfully\n");
    aclrtResetDeviceForce(deviceId);
    printf("Reset device successfully\n");
    aclFinalize();
    printf("ACL finalize successfully\n");
    printf("\nSample run successfully!\n");
    return 0;
}
