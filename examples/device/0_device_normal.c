/*
 * 0_device_normal - the CANN runtime sample
 * example/1_basic_features/device/0_device_normal, in C on aclcpu.
 *
 * The plain device life cycle around one operator: initialize, set device
 * 0, create a stream, make two 4x2 float tensors and an output in device
 * memory, run aclnnAdd (out = self + 1.2 * other) on the stream,
 * synchronize it, print the result, synchronize the device, and release
 * everything in reverse order. The operator is the CPU stand-in of
 * examples/aclnn; the runtime calls are the vendor's.
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"
#include "aclnnop/aclnn_add.h"

#define ELEMS 8 /* shape {4, 2} */

static int Init(int32_t deviceId, aclrtStream *stream)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateStream(stream));
    return 0;
}

/* Device memory holding host's ELEMS floats and a contiguous {4, 2} tensor over it. */
static int CreateAclTensor(const float *host, const int64_t *shape, void **deviceAddr, aclDataType dataType,
                           aclTensor **tensor)
{
    const size_t size = ELEMS * sizeof(float);
    const int64_t strides[2] = {shape[1], 1};
    CHECK_ERROR(aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(*deviceAddr, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
    *tensor = aclCreateTensor(shape, 2, dataType, strides, 0, ACL_FORMAT_ND, shape, 2, *deviceAddr);
    return 0;
}

static int GetAndPrintResult(void *outDeviceAddr)
{
    float resultData[ELEMS] = {0};
    CHECK_ERROR(aclrtMemcpy(resultData, sizeof(resultData), outDeviceAddr, sizeof(resultData),
                            ACL_MEMCPY_DEVICE_TO_HOST));
    for (int i = 0; i < ELEMS; i++)
        INFO_LOG("result[%d] is: %f", i, resultData[i]);
    return 0;
}

int main(void)
{
    const int32_t deviceId = 0;
    const int64_t shape[2] = {4, 2};
    const float selfHost[ELEMS] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float otherHost[ELEMS] = {1, 1, 1, 2, 2, 2, 3, 3};
    const float outHost[ELEMS] = {0};
    float alphaValue = 1.2f;
    void *selfDevice = NULL, *otherDevice = NULL, *outDevice = NULL, *workspace = NULL;
    aclTensor *self = NULL, *other = NULL, *out = NULL;
    aclScalar *alpha;
    aclOpExecutor *executor = NULL;
    uint64_t workspaceSize = 0;
    aclrtStream stream = NULL;

    INFO_LOG("Start to run device_normal sample.");
    CHECK_ERROR(Init(deviceId, &stream));

    CHECK_ERROR(CreateAclTensor(selfHost, shape, &selfDevice, ACL_FLOAT, &self));
    CHECK_ERROR(CreateAclTensor(otherHost, shape, &otherDevice, ACL_FLOAT, &other));
    alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    if (alpha == NULL) {
        ERROR_LOG("Create alpha Scalar failed.");
        return -1;
    }
    CHECK_ERROR(CreateAclTensor(outHost, shape, &outDevice, ACL_FLOAT, &out));

    CHECK_ERROR(aclnnAddGetWorkspaceSize(self, other, alpha, out, &workspaceSize, &executor));
    if (workspaceSize > 0)
        CHECK_ERROR(aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclnnAdd(workspace, workspaceSize, executor, stream));
    CHECK_ERROR(aclrtSynchronizeStream(stream));
    CHECK_ERROR(GetAndPrintResult(outDevice));
    CHECK_ERROR(aclrtSynchronizeDevice());

    aclDestroyTensor(self);
    aclDestroyTensor(other);
    aclDestroyScalar(alpha);
    aclDestroyTensor(out);
    CHECK_ERROR(aclrtFree(selfDevice));
    CHECK_ERROR(aclrtFree(otherDevice));
    CHECK_ERROR(aclrtFree(outDevice));
    if (workspaceSize > 0)
        CHECK_ERROR(aclrtFree(workspace));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    INFO_LOG("Run the device_normal sample successfully.");
    return 0;
}
