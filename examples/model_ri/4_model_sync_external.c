/*
 * 4_model_sync_external - the CANN runtime sample
 * example/2_advanced_features/model_ri/4_model_sync_external, in C on aclcpu.
 *
 * Three ways an Ex event (aclrtCreateEventExWithFlag, ACL_EVENT_SYNC)
 * links a captured model with work outside it:
 *  1. a record on an ordinary stream, and an external wait
 *     (ACL_EVENT_WAIT_EXTERNAL) inside the model: the model's copy runs
 *     after the record;
 *  2. an external record (ACL_EVENT_RECORD_EXTERNAL) inside the model, and
 *     an ordinary wait on another stream issued after aclmdlRIExecuteAsync:
 *     the wait is for that run's record, so the copy after it reads what
 *     the model wrote;
 *  3. an external record in one model and an external wait in another:
 *     the second model's copy runs after the first model's.
 * Each scenario copies eight int32 values through device memory and checks
 * that they arrived.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_mdl.h>

#include "../utils.h"

#define COUNT 8
#define BYTES (COUNT * sizeof(int32_t))

static const int32_t want[COUNT] = {1, 2, 3, 4, 5, 6, 7, 8};

static int Check(const int32_t *got)
{
    for (int i = 0; i < COUNT; i++) {
        if (got[i] != want[i]) {
            ERROR_LOG("Check result failed at index %d: actual=%d, expected=%d", i, got[i], want[i]);
            return -1;
        }
    }
    INFO_LOG("Check result success.");
    return 0;
}

/* Scenario 1: the model waits (external) for a record on another stream. */
static int StreamRecordGraphWait(void)
{
    int32_t got[COUNT] = {0};
    aclrtStream graph, other;
    aclrtEvent event;
    void *src, *dst;
    aclmdlRI model;

    INFO_LOG("=== Scenario 1: Stream Record + Graph Wait External ===");
    CHECK_ERROR(aclrtCreateStream(&graph));
    CHECK_ERROR(aclrtCreateStream(&other));
    CHECK_ERROR(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    CHECK_ERROR(aclrtMalloc(&src, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&dst, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ERROR(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERROR(aclrtStreamWaitEventWithFlag(graph, event, 0U, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_ERROR(aclrtMemcpyAsync(dst, BYTES, src, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, graph));
    CHECK_ERROR(aclmdlRICaptureEnd(graph, &model));

    CHECK_ERROR(aclrtMemcpy(src, BYTES, want, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtRecordEvent(event, other));
    CHECK_ERROR(aclmdlRIExecuteAsync(model, graph));
    CHECK_ERROR(aclrtSynchronizeStream(graph));

    CHECK_ERROR(aclrtMemcpy(got, BYTES, dst, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    if (Check(got) != 0)
        return -1;

    CHECK_ERROR(aclmdlRIDestroy(model));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtFree(src));
    CHECK_ERROR(aclrtFree(dst));
    CHECK_ERROR(aclrtDestroyStream(graph));
    CHECK_ERROR(aclrtDestroyStream(other));
    return 0;
}

/* Scenario 2: the model records (external); another stream waits for it. */
static int GraphRecordStreamWait(void)
{
    int32_t got[COUNT] = {0};
    aclrtStream graph, other;
    aclrtEvent event;
    void *src, *dst;
    aclmdlRI model;

    INFO_LOG("=== Scenario 2: Graph Record External + Stream Wait ===");
    CHECK_ERROR(aclrtCreateStream(&graph));
    CHECK_ERROR(aclrtCreateStream(&other));
    CHECK_ERROR(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    CHECK_ERROR(aclrtMalloc(&src, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&dst, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(src, BYTES, want, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ERROR(aclmdlRICaptureBegin(graph, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERROR(aclrtMemcpyAsync(dst, BYTES, src, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, graph));
    CHECK_ERROR(aclrtRecordEventWithFlag(event, graph, ACL_EVENT_RECORD_EXTERNAL));
    CHECK_ERROR(aclmdlRICaptureEnd(graph, &model));

    CHECK_ERROR(aclmdlRIExecuteAsync(model, graph));
    CHECK_ERROR(aclrtStreamWaitEvent(other, event));
    CHECK_ERROR(aclrtMemcpyAsync(got, BYTES, dst, BYTES, ACL_MEMCPY_DEVICE_TO_HOST, other));
    CHECK_ERROR(aclrtSynchronizeStream(other));
    if (Check(got) != 0)
        return -1;

    CHECK_ERROR(aclmdlRIDestroy(model));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtFree(src));
    CHECK_ERROR(aclrtFree(dst));
    CHECK_ERROR(aclrtDestroyStream(graph));
    CHECK_ERROR(aclrtDestroyStream(other));
    return 0;
}

/* Scenario 3: one model records (external), another waits (external). */
static int GraphRecordGraphWait(void)
{
    int32_t got[COUNT] = {0};
    aclrtStream graph1, graph2;
    aclrtEvent event;
    void *src, *mid, *dst;
    aclmdlRI model1, model2;

    INFO_LOG("=== Scenario 3: Graph1 Record External + Graph2 Wait External ===");
    CHECK_ERROR(aclrtCreateStream(&graph1));
    CHECK_ERROR(aclrtCreateStream(&graph2));
    CHECK_ERROR(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC));
    CHECK_ERROR(aclrtMalloc(&src, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&mid, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMalloc(&dst, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(src, BYTES, want, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ERROR(aclmdlRICaptureBegin(graph1, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERROR(aclrtMemcpyAsync(mid, BYTES, src, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, graph1));
    CHECK_ERROR(aclrtRecordEventWithFlag(event, graph1, ACL_EVENT_RECORD_EXTERNAL));
    CHECK_ERROR(aclmdlRICaptureEnd(graph1, &model1));

    CHECK_ERROR(aclmdlRICaptureBegin(graph2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    CHECK_ERROR(aclrtStreamWaitEventWithFlag(graph2, event, 0U, ACL_EVENT_WAIT_EXTERNAL));
    CHECK_ERROR(aclrtMemcpyAsync(dst, BYTES, mid, BYTES, ACL_MEMCPY_DEVICE_TO_DEVICE, graph2));
    CHECK_ERROR(aclmdlRICaptureEnd(graph2, &model2));

    CHECK_ERROR(aclmdlRIExecuteAsync(model1, graph1));
    CHECK_ERROR(aclmdlRIExecuteAsync(model2, graph2));
    CHECK_ERROR(aclrtSynchronizeStream(graph2));

    CHECK_ERROR(aclrtMemcpy(got, BYTES, dst, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    if (Check(got) != 0)
        return -1;

    CHECK_ERROR(aclmdlRIDestroy(model1));
    CHECK_ERROR(aclmdlRIDestroy(model2));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtFree(src));
    CHECK_ERROR(aclrtFree(mid));
    CHECK_ERROR(aclrtFree(dst));
    CHECK_ERROR(aclrtDestroyStream(graph1));
    CHECK_ERROR(aclrtDestroyStream(graph2));
    return 0;
}

int main(void)
{
    aclrtContext context;
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtCreateContext(&context, 0));

    CHECK_ERROR(StreamRecordGraphWait());
    CHECK_ERROR(GraphRecordStreamWait());
    CHECK_ERROR(GraphRecordGraphWait());

    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(0));
    CHECK_ERROR(aclFinalize());
    return 0;
}
