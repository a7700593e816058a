/*
 * 3_cond_model - the CANN runtime sample
 * example/2_advanced_features/model_ri/3_cond_model, in C on aclcpu.
 *
 * Three captured models, each with one conditional task whose sub models
 * are captured on a second stream: IF over two adds (alpha 2 and 0.5),
 * WHILE over an add that then zeroes the condition, SWITCH over three adds
 * (alpha 1, 2, 0.5). Every condition is made with
 * ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT and a default of 0, so each
 * launch writes 0 into it over what the host copied there just before:
 * IF takes the false branch both times, WHILE never runs its body, SWITCH
 * runs case 0 three times (the vendor's README shows exactly that). The
 * WHILE test prints its output buffer untouched: a new allocation that
 * gets the IF test's freed output block, with the IF result still in it.
 *
 * On the device the adds are aclnnAdd operators; here they are one CPU
 * kernel, AddKernel (out = self + other * alpha), registered with
 * aclcpuRegisterKernel, with a workspace of 0 bytes as the operator asks.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#include "../utils.h"

#define ELEMS 8 /* shape {4, 2} */
#define SIZE (ELEMS * sizeof(float))

static const float srcAHost[ELEMS] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
static const float srcBHost[ELEMS] = {0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f, 4.0f};

struct add_args {
    const float *self, *other;
    float *out;
    float alpha;
    uint32_t n;
};

static void AddKernel(void *p)
{
    const struct add_args *a = p;
    for (uint32_t i = 0; i < a->n; i++)
        a->out[i] = a->self[i] + a->other[i] * a->alpha;
}

static aclrtFuncHandle addFunc;

/* The stand-in for aclnnAdd(workspace, 0, executor, stream). */
static aclError AddOp(aclrtStream stream, void *self, void *other, float alpha, void *out)
{
    struct add_args a = {self, other, out, alpha, ELEMS};
    return aclrtLaunchKernel(addFunc, 1, &a, sizeof(a), stream);
}

/* "[INFO]  The vector data is: 1.2500  2.5000  ..." as ModelUtils::PrintArray does. */
static void PrintArray(const float *data)
{
    char line[256];
    int off = snprintf(line, sizeof(line), "The vector data is: ");
    for (int j = 0; j < ELEMS && off < (int)sizeof(line); j++)
        off += snprintf(line + off, sizeof(line) - (size_t)off, "%.4f  ", data[j]);
    INFO_LOG("%s", line);
}

/* The three tensors of a test: inputs filled, output as allocated. */
static int Tensors(void **srcA, void **srcB, void **dst)
{
    CHECK_ERROR(aclrtMalloc(srcA, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(srcB, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(dst, SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(*srcA, SIZE, srcAHost, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemcpy(*srcB, SIZE, srcBHost, SIZE, ACL_MEMCPY_HOST_TO_DEVICE));
    return 0;
}

static int FreeTensors(void *srcA, void *srcB, void *dst)
{
    CHECK_ERROR(aclrtFree(srcA));
    CHECK_ERROR(aclrtFree(srcB));
    CHECK_ERROR(aclrtFree(dst));
    return 0;
}

/* Begins capturing stream and makes the model's condition (ASSIGN_DEFAULT, 0)
 * and its conditional task of type over size sub models. */
static int CondBegin(aclrtStream stream, aclmdlRICondTaskType type, uint32_t size, aclmdlRI *parent,
                     uint64_t **condDevPtr, aclmdlRI *subModels)
{
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRICondHandle condHandle = NULL;
    aclmdlRICondTaskParams params;
    CHECK_ERROR(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK_ERROR(aclmdlRICaptureGetInfo(stream, &status, parent));
    CHECK_ERROR(aclmdlRICondHandleCreate(*parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &condHandle));
    CHECK_ERROR(aclmdlRICondHandleGetCondPtr(condHandle, condDevPtr));
    params.handle = condHandle;
    params.type = type;
    params.size = size;
    params.modelRIArray = subModels;
    CHECK_ERROR(aclmdlRIAddCondTask(params, stream, 0));
    return 0;
}

/* Writes cond into the condition, runs the parent on execStream and prints dst. */
static int RunAndPrint(aclmdlRI parent, aclrtStream execStream, uint64_t *condDevPtr, uint64_t cond, void *dst)
{
    float out[ELEMS];
    memset(out, 0, sizeof(out));
    CHECK_ERROR(aclrtMemcpy(condDevPtr, sizeof(uint64_t), &cond, sizeof(uint64_t), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclmdlRIExecuteAsync(parent, execStream));
    CHECK_ERROR(aclrtSynchronizeStream(execStream));
    CHECK_ERROR(aclrtMemcpy(out, SIZE, dst, SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    PrintArray(out);
    return 0;
}

static int TestCondIf(void)
{
    aclrtStream stream, subStream, execStream;
    void *srcA, *srcB, *dst;
    aclmdlRI parent = NULL, subModels[2] = {NULL, NULL};
    uint64_t *condDevPtr = NULL;
    const float alpha[2] = {2.0f, 0.5f}; /* the true branch's, the false branch's */

    INFO_LOG("========== IF condition ==========");
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtCreateStream(&subStream));
    if (Tensors(&srcA, &srcB, &dst))
        return -1;
    if (CondBegin(stream, ACL_MODEL_RI_COND_TYPE_IF, 2, &parent, &condDevPtr, subModels))
        return -1;
    for (int i = 0; i < 2; i++) {
        CHECK_ERROR(aclmdlRICaptureToModelRIBegin(subStream, subModels[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        CHECK_ERROR(AddOp(subStream, srcA, srcB, alpha[i], dst));
        CHECK_ERROR(aclmdlRICaptureEnd(subStream, &subModels[i]));
    }
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &parent));
    CHECK_ERROR(aclrtCreateStream(&execStream));

    INFO_LOG("IF true branch result:");
    if (RunAndPrint(parent, execStream, condDevPtr, 1, dst))
        return -1;
    INFO_LOG("IF false branch result:");
    if (RunAndPrint(parent, execStream, condDevPtr, 0, dst))
        return -1;

    CHECK_ERROR(aclmdlRIDestroy(parent));
    CHECK_ERROR(aclrtDestroyStream(subStream));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyStream(execStream));
    if (FreeTensors(srcA, srcB, dst))
        return -1;
    INFO_LOG("IF condition PASSED");
    return 0;
}

static int TestCondWhile(void)
{
    aclrtStream stream, subStream, execStream;
    void *srcA, *srcB, *dst, *condZeroDev;
    aclmdlRI parent = NULL, body[1] = {NULL};
    uint64_t *condDevPtr = NULL;
    const uint64_t zero = 0;

    INFO_LOG("========== WHILE condition ==========");
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtCreateStream(&subStream));
    if (Tensors(&srcA, &srcB, &dst))
        return -1;
    CHECK_ERROR(aclrtMalloc(&condZeroDev, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(condZeroDev, sizeof(uint64_t), &zero, sizeof(uint64_t), ACL_MEMCPY_HOST_TO_DEVICE));
    if (CondBegin(stream, ACL_MODEL_RI_COND_TYPE_WHILE, 1, &parent, &condDevPtr, body))
        return -1;
    /* The body: an add, then the condition set to 0 (one iteration). */
    CHECK_ERROR(aclmdlRICaptureToModelRIBegin(subStream, body[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    CHECK_ERROR(AddOp(subStream, srcA, srcB, 1.0f, dst));
    CHECK_ERROR(aclrtMemcpyAsync(condDevPtr, sizeof(uint64_t), condZeroDev, sizeof(uint64_t),
                                 ACL_MEMCPY_DEVICE_TO_DEVICE, subStream));
    CHECK_ERROR(aclmdlRICaptureEnd(subStream, &body[0]));
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &parent));
    CHECK_ERROR(aclrtCreateStream(&execStream));

    INFO_LOG("WHILE single iteration result:");
    if (RunAndPrint(parent, execStream, condDevPtr, 1, dst))
        return -1;

    CHECK_ERROR(aclmdlRIDestroy(parent));
    CHECK_ERROR(aclrtDestroyStream(subStream));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyStream(execStream));
    if (FreeTensors(srcA, srcB, dst))
        return -1;
    CHECK_ERROR(aclrtFree(condZeroDev));
    INFO_LOG("WHILE condition PASSED");
    return 0;
}

static int TestCondSwitch(void)
{
    aclrtStream stream, subStream, execStream;
    void *srcA, *srcB, *dst;
    aclmdlRI parent = NULL, caseModels[3] = {NULL, NULL, NULL};
    uint64_t *condDevPtr = NULL;
    const float alpha[3] = {1.0f, 2.0f, 0.5f};

    INFO_LOG("========== SWITCH condition ==========");
    CHECK_ERROR(aclrtCreateStream(&stream));
    CHECK_ERROR(aclrtCreateStream(&subStream));
    if (Tensors(&srcA, &srcB, &dst))
        return -1;
    if (CondBegin(stream, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, &parent, &condDevPtr, caseModels))
        return -1;
    for (int i = 0; i < 3; i++) {
        CHECK_ERROR(aclmdlRICaptureToModelRIBegin(subStream, caseModels[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
        CHECK_ERROR(AddOp(subStream, srcA, srcB, alpha[i], dst));
        CHECK_ERROR(aclmdlRICaptureEnd(subStream, &caseModels[i]));
    }
    CHECK_ERROR(aclmdlRICaptureEnd(stream, &parent));
    CHECK_ERROR(aclrtCreateStream(&execStream));

    for (uint64_t i = 0; i < 3; i++) {
        INFO_LOG("SWITCH case %d result:", (int)i);
        if (RunAndPrint(parent, execStream, condDevPtr, i, dst))
            return -1;
    }

    CHECK_ERROR(aclmdlRIDestroy(parent));
    CHECK_ERROR(aclrtDestroyStream(subStream));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyStream(execStream));
    if (FreeTensors(srcA, srcB, dst))
        return -1;
    INFO_LOG("SWITCH condition PASSED");
    return 0;
}

int main(void)
{
    const int32_t deviceId = 0;
    aclrtContext context = NULL;
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclcpuRegisterKernel("AddKernel", AddKernel, &addFunc));

    /* As the vendor's main: a failing test prints its error and the next runs. */
    (void)TestCondIf();
    (void)TestCondWhile();
    (void)TestCondSwitch();

    INFO_LOG("========== All tests PASSED ==========");
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
