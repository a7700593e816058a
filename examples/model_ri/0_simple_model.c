/*
 * 0_simple_model - the CANN runtime sample
 * example/2_advanced_features/model_ri/0_simple_model, in C on aclcpu.
 *
 * A model captured in GLOBAL mode computes out = (self + other * alpha) *
 * other: an async copy of self from pinned host memory, then an add and a
 * multiply. In the middle the thread switches to RELAXED mode for a
 * synchronous copy of other (an unsafe call: it runs at once and is not
 * captured) and back. The model is written out as JSON
 * (aclmdlRIDebugJsonPrint) and run four times; each run prints out.
 *
 * On the device the add and the multiply are aclnnAdd and aclnnMul
 * operators; here they are CPU kernels registered with
 * aclcpuRegisterKernel, launched on the same stream in the same order.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

#define ELEMS 8 /* shape {4, 2} */
#define BYTES (ELEMS * sizeof(float))

/* The two operators: out[i] = a[i] + b[i] * alpha, out[i] = a[i] * b[i]. */
struct op_args {
    const float *a, *b;
    float *out;
    float alpha;
    uint32_t n;
};

static void AddKernel(void *p)
{
    const struct op_args *o = p;
    for (uint32_t i = 0; i < o->n; i++)
        o->out[i] = o->a[i] + o->b[i] * o->alpha;
}

static void MulKernel(void *p)
{
    const struct op_args *o = p;
    for (uint32_t i = 0; i < o->n; i++)
        o->out[i] = o->a[i] * o->b[i];
}

static aclError Launch(aclrtFuncHandle f, const void *a, const void *b, float alpha, void *out, aclrtStream s)
{
    struct op_args args = {a, b, out, alpha, ELEMS};
    return aclrtLaunchKernel(f, 1, &args, sizeof(args), s);
}

/* "[INFO]  The vector data is: 6.4000  8.4000  ..." as ModelUtils::PrintArray does. */
static void PrintArray(const float *data)
{
    char line[256];
    int off = snprintf(line, sizeof(line), "The vector data is: ");
    for (int j = 0; j < ELEMS && off < (int)sizeof(line); j++)
        off += snprintf(line + off, sizeof(line) - (size_t)off, "%.4f  ", data[j]);
    INFO_LOG("%s", line);
}

int main(void)
{
    const int32_t deviceId = 0;
    const int loopCount = 4;
    const float alpha = 1.1f;
    const float selfData[ELEMS] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float otherData[ELEMS] = {2, 2, 2, 2, 2, 2, 2, 2};
    float outData[ELEMS] = {0};
    void *self, *other, *out, *outTmp, *selfHost;
    aclrtFuncHandle add, mul;
    aclrtContext context;
    aclrtStream stream;
    aclmdlRI modelRI;
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclcpuRegisterKernel("SimpleModelAdd", AddKernel, &add));
    CHECK_ERROR(aclcpuRegisterKernel("SimpleModelMul", MulKernel, &mul));
    CHECK_ERROR(aclrtMalloc(&self, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&other, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&out, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&outTmp, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtMallocHost(&selfHost, BYTES));
    CHECK_ERROR(aclrtMemcpy(selfHost, BYTES, selfData, BYTES, ACL_MEMCPY_HOST_TO_HOST));

    CHECK_ERROR(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    CHECK_ERROR(aclrtMemcpyAsync(self, BYTES, selfHost, BYTES, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode)); /* to RELAXED: the sync copy runs now */
    CHECK_ERROR(aclrtMemcpy(other, BYTES, otherData, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclmdlRICaptureThreadExchangeMode(&mode)); /* back to GLOBAL */
    CHECK_ERROR(Launch(add, self, other, alpha, outTmp, stream));
    CHECK_ERROR(Launch(mul, outTmp, other, 0.0f, out, stream));
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &modelRI));
    CHECK_ERROR(aclmdlRIDebugJsonPrint(modelRI, "./modelRI.json", 0));

    for (int i = 0; i < loopCount; i++) {
        INFO_LOG("execute model, loop count: %d.", i + 1);
        CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, stream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(outData, BYTES, out, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
        PrintArray(outData);
    }

    CHECK_ERROR(aclmdlRIDestroy(modelRI));
    CHECK_ERROR(aclrtDestroyStreamForce(stream));
    CHECK_ERROR(aclrtFree(self));
    CHECK_ERROR(aclrtFree(other));
    CHECK_ERROR(aclrtFree(out));
    CHECK_ERROR(aclrtFree(outTmp));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
