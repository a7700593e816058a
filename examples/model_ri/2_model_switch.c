/*
 * 2_model_switch - the CANN runtime sample
 * example/2_advanced_features/model_ri/2_model_switch, in C on aclcpu.
 *
 * A model built from five PERSISTENT streams. stream1 (HEAD) computes
 * out1 = self1 + other1 * alpha, copies a branch value into numDevice and
 * then switches: numDevice == 1 jumps to stream3, numDevice == 2 to
 * stream4. stream3 computes out3 and activates endStream; stream4 activates
 * stream2, which computes out2 and activates endStream; endStream holds the
 * model's end task. The model runs twice: with the branch value 1 (out1 and
 * out3 are written) and with 2 (out2 too; out3 keeps its value).
 *
 * On the device the three adds are aclnnAdd operators; here they are one
 * CPU kernel, AddKernel, registered with aclcpuRegisterKernel. The output
 * buffers are zeroed after allocation (the vendor's tensors start with
 * whatever the device memory held), so the printout is the same each run.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_mdl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

#define ELEMS 8 /* shape {4, 2} */

/* out[i] = self[i] + other[i] * alpha over the block's share of the elements. */
struct add_args {
    const float *self, *other;
    float *out;
    float alpha;
    uint32_t n;
};

static void AddKernel(void *p)
{
    const struct add_args *a = p;
    uint32_t per = (a->n + aclcpuGetBlockNum() - 1) / aclcpuGetBlockNum();
    uint32_t lo = aclcpuGetBlockIdx() * per, hi = lo + per < a->n ? lo + per : a->n;
    for (uint32_t i = lo; i < hi; i++)
        a->out[i] = a->self[i] + a->other[i] * a->alpha;
}

static aclrtFuncHandle addFunc;

static aclError AddOp(uint32_t blockDim, aclrtStream stream, void *self, void *other, float alpha, void *out)
{
    struct add_args a = {self, other, out, alpha, ELEMS};
    return aclrtLaunchKernel(addFunc, blockDim, &a, sizeof(a), stream);
}

/* "[INFO]  The vector data is: 3.4000  3.4000  ..." as ModelUtils::PrintArray does. */
static void PrintArray(const float *data)
{
    char line[256];
    int off = snprintf(line, sizeof(line), "The vector data is: ");
    for (int j = 0; j < ELEMS && off < (int)sizeof(line); j++)
        off += snprintf(line + off, sizeof(line) - (size_t)off, "%.4f  ", data[j]);
    INFO_LOG("%s", line);
}

static int Alloc(void **dev, size_t size, const float *host)
{
    CHECK_ERROR(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host != NULL)
        CHECK_ERROR(aclrtMemcpy(*dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
    else
        CHECK_ERROR(aclrtMemset(*dev, size, 0, size));
    return 0;
}

/* Copies the three outputs back on copyStream and prints them. */
static int PrintOutputs(aclrtStream copyStream, void *out[3], const char *when)
{
    static float host[3][ELEMS];
    size_t size = sizeof(host[0]);
    memset(host, 0, sizeof(host));
    for (int i = 0; i < 3; i++)
        CHECK_ERROR(aclrtMemcpyAsync(host[i], size, out[i], size, ACL_MEMCPY_DEVICE_TO_HOST, copyStream));
    CHECK_ERROR(aclrtSynchronizeStream(copyStream));
    for (int i = 0; i < 3; i++) {
        INFO_LOG("%s, print data%d.", when, i + 1);
        PrintArray(host[i]);
    }
    return 0;
}

int main(void)
{
    const int32_t deviceId = 0;
    const uint32_t blockDim = 1;
    const float alpha = 1.2f;
    static float selfHost[3][ELEMS], otherHost[3][ELEMS];
    void *self[3], *other[3], *out[3];
    int32_t rightValue1 = 1, rightValue2 = 2;
    uint32_t numInit = 0, val1 = 1, val2 = 2;
    void *rightDevice1, *rightDevice2, *numDevice, *targetValDev;
    size_t size = sizeof(selfHost[0]);
    aclrtStream stream1, stream2, stream3, stream4, endStream, copyStream, executeStream;
    aclrtContext context;
    aclmdlRI modelRI;

    for (int i = 0; i < 3; i++)
        for (int j = 0; j < ELEMS; j++) {
            selfHost[i][j] = (float)(i + 1);
            otherHost[i][j] = 2.0f;
        }
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclcpuRegisterKernel("AddKernel", AddKernel, &addFunc));
    for (int i = 0; i < 3; i++)
        if (Alloc(&self[i], size, NULL) || Alloc(&other[i], size, NULL) || Alloc(&out[i], size, NULL))
            return -1;
    /* The switch compares device values: numDevice against 1 and against 2. */
    CHECK_ERROR(aclrtMalloc(&rightDevice1, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(rightDevice1, sizeof(int32_t), &rightValue1, sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMalloc(&rightDevice2, sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(rightDevice2, sizeof(int32_t), &rightValue2, sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMalloc(&numDevice, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, sizeof(uint32_t), &numInit, sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMalloc(&targetValDev, sizeof(uint32_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(targetValDev, sizeof(uint32_t), &val1, sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE));

    /* Five model streams (four working ones and endStream), plus two plain ones. */
    CHECK_ERROR(aclrtCreateStreamWithConfig(&stream1, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclrtCreateStreamWithConfig(&stream2, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclrtCreateStreamWithConfig(&stream3, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclrtCreateStreamWithConfig(&stream4, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclrtCreateStreamWithConfig(&endStream, 0, ACL_STREAM_PERSISTENT));
    CHECK_ERROR(aclrtCreateStream(&copyStream));
    CHECK_ERROR(aclmdlRIBuildBegin(&modelRI, 0));
    CHECK_ERROR(aclmdlRIBindStream(modelRI, stream1, ACL_MODEL_STREAM_FLAG_HEAD));
    CHECK_ERROR(aclmdlRIBindStream(modelRI, stream2, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_ERROR(aclmdlRIBindStream(modelRI, stream3, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_ERROR(aclmdlRIBindStream(modelRI, stream4, ACL_MODEL_STREAM_FLAG_DEFAULT));
    CHECK_ERROR(aclmdlRIBindStream(modelRI, endStream, ACL_MODEL_STREAM_FLAG_DEFAULT));
    /* Each stream copies its own inputs in when it runs. */
    aclrtStream feeds[3] = {stream1, stream2, stream3};
    for (int i = 0; i < 3; i++) {
        CHECK_ERROR(aclrtMemcpyAsync(self[i], size, selfHost[i], size, ACL_MEMCPY_HOST_TO_DEVICE, feeds[i]));
        CHECK_ERROR(aclrtMemcpyAsync(other[i], size, otherHost[i], size, ACL_MEMCPY_HOST_TO_DEVICE, feeds[i]));
    }
    CHECK_ERROR(AddOp(blockDim, stream1, self[0], other[0], alpha, out[0]));
    CHECK_ERROR(aclrtMemcpyAsync(numDevice, sizeof(uint32_t), targetValDev, sizeof(uint32_t),
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, stream1));
    /* stream2: an add, then endStream. stream3: the same. */
    CHECK_ERROR(AddOp(blockDim, stream2, self[1], other[1], alpha, out[1]));
    CHECK_ERROR(aclrtActiveStream(endStream, stream2));
    CHECK_ERROR(AddOp(blockDim, stream3, self[2], other[2], alpha, out[2]));
    CHECK_ERROR(aclrtActiveStream(endStream, stream3));
    /* numDevice == 1 jumps to stream3; otherwise == 2 jumps to stream4. */
    CHECK_ERROR(aclrtSwitchStream(numDevice, ACL_RT_EQUAL, rightDevice1, ACL_RT_SWITCH_INT32, stream3, NULL, stream1));
    CHECK_ERROR(aclrtSwitchStream(numDevice, ACL_RT_EQUAL, rightDevice2, ACL_RT_SWITCH_INT32, stream4, NULL, stream1));
    /* stream4 starts stream2, which then runs in parallel. */
    CHECK_ERROR(aclrtActiveStream(stream2, stream4));
    /* One end task, on endStream. */
    CHECK_ERROR(aclmdlRIEndTask(modelRI, endStream));
    CHECK_ERROR(aclmdlRIBuildEnd(modelRI, NULL));

    CHECK_ERROR(aclrtCreateStream(&executeStream));
    CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, executeStream));
    CHECK_ERROR(aclrtSynchronizeStream(executeStream));
    if (PrintOutputs(copyStream, out, "After executing"))
        return -1;

    /* Branch value 2 for the second run. */
    CHECK_ERROR(aclrtMemcpyAsync(targetValDev, sizeof(uint32_t), &val2, sizeof(uint32_t), ACL_MEMCPY_HOST_TO_DEVICE,
                                 copyStream));
    CHECK_ERROR(aclrtSynchronizeStream(copyStream));
    CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, executeStream));
    CHECK_ERROR(aclrtSynchronizeStream(executeStream));
    if (PrintOutputs(copyStream, out, "After second execution"))
        return -1;

    aclrtStream bound[5] = {stream1, stream2, stream3, stream4, endStream};
    for (int i = 0; i < 5; i++)
        CHECK_ERROR(aclmdlRIUnbindStream(modelRI, bound[i]));
    CHECK_ERROR(aclmdlRIDestroy(modelRI));
    CHECK_ERROR(aclrtDestroyStream(copyStream));
    CHECK_ERROR(aclrtDestroyStream(executeStream));
    for (int i = 0; i < 5; i++)
        CHECK_ERROR(aclrtDestroyStream(bound[i]));
    for (int i = 0; i < 3; i++) {
        CHECK_ERROR(aclrtFree(self[i]));
        CHECK_ERROR(aclrtFree(other[i]));
        CHECK_ERROR(aclrtFree(out[i]));
    }
    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtFree(targetValDev));
    CHECK_ERROR(aclrtFree(rightDevice1));
    CHECK_ERROR(aclrtFree(rightDevice2));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
