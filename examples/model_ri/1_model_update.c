/*
 * 1_model_update - the CANN runtime sample
 * example/2_advanced_features/model_ri/1_model_update, in C on aclcpu.
 *
 * A model captured in RELAXED mode computes outTmp = self + other * alpha,
 * waits on an EXTERNAL event (and resets it), then, in a task group,
 * out = outTmp + other * alpha. It runs twice; before the second run's
 * wait is released, the task group's add is replaced on another stream
 * (aclmdlRICaptureTaskUpdateBegin..End) by one with updateAlpha, and the
 * event recorded after the update lets the model go on: the second run
 * prints the updated result. The two synchronous copies inside the
 * capture run at once (RELAXED mode allows them) and are not captured.
 *
 * On the device the adds are aclnnAdd operators; here they are one CPU
 * kernel registered with aclcpuRegisterKernel.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

#define ELEMS 8 /* shape {4, 2} */
#define BYTES (ELEMS * sizeof(float))

/* out[i] = a[i] + b[i] * alpha */
struct add_args {
    const float *a, *b;
    float *out;
    float alpha;
    uint32_t n;
};

static void AddKernel(void *p)
{
    const struct add_args *o = p;
    for (uint32_t i = 0; i < o->n; i++)
        o->out[i] = o->a[i] + o->b[i] * o->alpha;
}

static aclError Add(aclrtFuncHandle f, const void *a, const void *b, float alpha, void *out, aclrtStream s)
{
    struct add_args args = {a, b, out, alpha, ELEMS};
    return aclrtLaunchKernel(f, 1, &args, sizeof(args), s);
}

/* "[INFO]  The vector data is: 5.4000  6.4000  ..." as ModelUtils::PrintArray does. */
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
    const int loopCount = 2;
    const float alpha = 1.1f, updateAlpha = 2.2f;
    const float selfData[ELEMS] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float otherData[ELEMS] = {2, 2, 2, 2, 2, 2, 2, 2};
    float outData[ELEMS] = {0};
    void *self, *other, *out, *outTmp;
    aclrtFuncHandle add;
    aclrtContext context;
    aclrtStream stream, updateStream;
    aclrtEvent event;
    aclrtTaskGrp handle;
    aclmdlRI modelRI;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclcpuRegisterKernel("ModelUpdateAdd", AddKernel, &add));
    CHECK_ERROR(aclrtMalloc(&self, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&other, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&out, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&outTmp, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ERROR(aclrtCreateStream(&stream));
    /* An EXTERNAL event: the model waits on it; the update's record frees it. */
    CHECK_ERROR(aclrtCreateEventWithFlag(&event, ACL_EVENT_EXTERNAL));

    CHECK_ERROR(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERROR(aclrtMemcpy(self, BYTES, selfData, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(other, BYTES, otherData, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(Add(add, self, other, alpha, outTmp, stream));
    CHECK_ERROR(aclrtStreamWaitEvent(stream, event));
    CHECK_ERROR(aclrtResetEvent(event, stream));
    CHECK_ERROR(aclmdlRICaptureTaskGrpBegin(stream));
    CHECK_ERROR(Add(add, outTmp, other, alpha, out, stream));
    CHECK_ERROR(aclmdlRICaptureTaskGrpEnd(stream, &handle));
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &modelRI));

    CHECK_ERROR(aclrtCreateStream(&updateStream));
    for (int i = 0; i < loopCount; i++) {
        INFO_LOG("Execute model, loop count: %d.", i + 1);
        CHECK_ERROR(aclmdlRIExecuteAsync(modelRI, stream));
        if (i == 1) {
            /* The same number and kind of tasks: one add, with updateAlpha. */
            CHECK_ERROR(aclmdlRICaptureTaskUpdateBegin(updateStream, handle));
            CHECK_ERROR(Add(add, outTmp, other, updateAlpha, out, updateStream));
            INFO_LOG("Update alpha value of aclnnAdd");
            CHECK_ERROR(aclmdlRICaptureTaskUpdateEnd(updateStream));
        }
        CHECK_ERROR(aclrtRecordEvent(event, updateStream));
        CHECK_ERROR(aclrtSynchronizeStream(updateStream));
        CHECK_ERROR(aclrtSynchronizeStream(stream));
        CHECK_ERROR(aclrtMemcpy(outData, BYTES, out, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
        PrintArray(outData);
    }

    CHECK_ERROR(aclmdlRIDestroy(modelRI));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyStream(updateStream));
    CHECK_ERROR(aclrtFree(self));
    CHECK_ERROR(aclrtFree(other));
    CHECK_ERROR(aclrtFree(out));
    CHECK_ERROR(aclrtFree(outTmp));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
