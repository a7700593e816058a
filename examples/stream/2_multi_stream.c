/*
 * 2_multi_stream - the CANN runtime sample
 * example/1_basic_features/stream/2_multi_stream, in C on aclcpu.
 *
 * Two streams share one buffer: stream1 runs LongOP (about 1.3 s, then
 * x += 1) and stream2 runs ShortOP (x *= 2). Each phase makes stream2's
 * task wait for stream1's in a different way, so the answer is always
 * (0 + 1) * 2 = 2:
 *   1. stream synchronisation: the host waits for stream1 before it issues
 *      to stream2; then a sync with a 1000 ms timeout expires (507046);
 *   2. event synchronisation: stream2 waits on an event recorded on
 *      stream1; then an event sync with a 1000 ms timeout expires (507047);
 *   3. notify synchronisation (built only with ACLCPU_HAVE_NOTIFY).
 * Each phase is a complete program: aclInit ... aclFinalize.
 *
 * As in the vendor's code, after a timed-out sync LongOP is still running
 * when the buffer is freed, and writes to it later: aclrtFree does not wait
 * for tasks. On aclcpu, as on the device, that late write lands in device
 * memory, which is kept from reuse until LongOP is done.
 *
 * Usage: 2_multi_stream [path/to/libexample_kernels.so]
 */
#include <stdint.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static const int32_t kWaitTimeMs = 1000;
static const int32_t kDeviceId = 0;
static const uint32_t kBlockDim = 1;

/* Phase 1: the host orders the streams by synchronising stream1 first. */
static int StreamSynchronization(void)
{
    int32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(int32_t);
    aclrtContext context = NULL;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    (void)aclInit(NULL);

    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    /* The default is to continue after a failed task; stop instead. */
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    INFO_LOG("Use stream synchronize.");
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    INFO_LOG("Stream synchronize.");
    CHECK_ERROR(aclrtSynchronizeStream(stream1));

    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(stream2));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    /* In this order the result is 2. */
    INFO_LOG("The answer is %d.", num);

    /* A sync with a timeout shorter than the task fails with 507046. */
    INFO_LOG("Simulate timeout, wait 1000ms, the task will fail.");
    LongOP(kBlockDim, stream1, numDevice);
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeStreamWithTimeout(stream1, kWaitTimeMs));

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}

/* Phase 2: the device orders the streams: stream2 waits on an event. */
static int EventSynchronization(void)
{
    int32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(int32_t);
    aclrtContext context = NULL;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    aclrtEvent event = NULL;
    (void)aclInit(NULL);

    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtCreateEvent(&event));
    INFO_LOG("Use event synchronize.");
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream1));
    INFO_LOG("Event synchronize.");
    CHECK_ERROR(aclrtStreamWaitEvent(stream2, event));

    /* Reset the event once stream2 has waited for it, so it can be reused. */
    CHECK_ERROR(aclrtResetEvent(event, stream2));
    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream2));
    CHECK_ERROR(aclrtSynchronizeEvent(event));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("The answer is %d.", num);

    /* An event sync with a timeout shorter than the task fails with 507047. */
    INFO_LOG("Simulate timeout, wait 1000ms, the task will fail.");
    LongOP(kBlockDim, stream1, numDevice);
    CHECK_ERROR(aclrtRecordEvent(event, stream1));
    CHECK_ERROR_WITHOUT_RETURN(aclrtSynchronizeEventWithTimeout(event, kWaitTimeMs));

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyEvent(event));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}

#ifdef ACLCPU_HAVE_NOTIFY
/* Phase 3: stream2 waits for a notify that stream1 records. */
static int NotifySynchronization(void)
{
    int32_t num = 0;
    int32_t *numDevice = NULL;
    size_t size = sizeof(int32_t);
    aclrtContext context = NULL;
    aclrtNotify notify;
    aclrtStream stream1 = NULL;
    aclrtStream stream2 = NULL;
    (void)aclInit(NULL);

    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    CHECK_ERROR(aclrtCreateContext(&context, kDeviceId));
    CHECK_ERROR(LoadKernels());
    CHECK_ERROR(aclrtCreateStream(&stream1));
    CHECK_ERROR(aclrtCreateStream(&stream2));
    CHECK_ERROR(aclrtCreateNotify(&notify, 0x00U));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream1, ACL_STOP_ON_FAILURE));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream2, ACL_STOP_ON_FAILURE));
    INFO_LOG("Use notify synchronize.");
    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));
    INFO_LOG("Applied resource successfully, begin assigning task.");
    INFO_LOG("Begin a long task, num += 1.");
    LongOP(kBlockDim, stream1, numDevice);
    INFO_LOG("Stream synchronize.");
    CHECK_ERROR(aclrtRecordNotify(notify, stream1));

    CHECK_ERROR(aclrtWaitAndResetNotify(notify, stream2, 0));
    INFO_LOG("Begin a short task, num *= 2.");
    ShortOP(kBlockDim, stream2, numDevice);
    CHECK_ERROR(aclrtSynchronizeStream(stream2));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("The answer is %d.", num);

    CHECK_ERROR(aclrtFree(numDevice));
    CHECK_ERROR(aclrtDestroyNotify(notify));
    CHECK_ERROR(aclrtDestroyStreamForce(stream1));
    CHECK_ERROR(aclrtDestroyStreamForce(stream2));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(kDeviceId));
    aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return 0;
}
#endif

int main(int argc, char **argv)
{
    SetKernelLibrary(argc, argv);
    /* Each function shows one way to order work across streams. */
    (void)StreamSynchronization();
    (void)EventSynchronization();
#ifdef ACLCPU_HAVE_NOTIFY
    (void)NotifySynchronization();
#endif
    return 0;
}
