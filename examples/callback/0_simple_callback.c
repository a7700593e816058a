/*
 * 0_simple_callback - the CANN runtime sample
 * example/2_advanced_features/callback/0_simple_callback, in C on aclcpu.
 *
 * One stream in ACL_STOP_ON_FAILURE mode gets two threads of the user's:
 * one subscribed for its callbacks (aclrtSubscribeReport, served by
 * aclrtProcessReport) and one for its host functions
 * (aclrtSubscribeHostFunc, served by aclrtProcessHostFunc). The stream
 * runs a blocking callback, LongOP (x += 1 after about a second), a host
 * function and five more blocking callbacks; each callback and the host
 * function print the thread they run on and the user data (520). After the
 * sync x is 1.
 *
 * Where this port differs from the vendor's: on the chip the first
 * callback reaches its thread only after the device has reported it, by
 * which time the main thread has printed "After begin a task, ..."; a CPU
 * gets there first. So the first callback waits (at most ten seconds) until
 * the main thread has printed that line, keeping the README's order; the
 * runtime calls are the vendor's. At the end the report thread is stopped
 * and joined before the host-function thread is told to stop, so that the
 * two "exit" lines come out in the README's order. Thread ids change from
 * run to run: the expected output matches those lines with "...".
 *
 * Usage: 0_simple_callback [path/to/libexample_kernels.so]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <acl/acl.h>

#include "../kernel_ops.h"
#include "../utils.h"

static int32_t deviceId_;
static aclrtContext context_;
static aclrtStream stream_;

static _Atomic int isReportLoop = 1;
static _Atomic int isHostFuncLoop = 1;
/* Set once the main thread has printed its launch line. */
static _Atomic int launchLinePrinted;

/* pthread_t as a number, the way the sample hands thread ids to the runtime. */
static uint64_t ThreadNumber(pthread_t t) { return (uint64_t)t; }

static void *ReportThreadFunc(void *arg)
{
    const int waitTime = 100;
    (void)arg;
    aclError ret = aclrtSetCurrentContext(context_);
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("aclrtSetCurrentContext failed in report thread: %d", (int)ret);
        return NULL;
    }
    while (atomic_load(&isReportLoop))
        aclrtProcessReport(waitTime);
    INFO_LOG("Report callback thread exit");
    return NULL;
}

static void *HostFuncThreadFunc(void *arg)
{
    const int waitTime = 100;
    (void)arg;
    aclError ret = aclrtSetCurrentContext(context_);
    if (ret != ACL_SUCCESS) {
        ERROR_LOG("aclrtSetCurrentContext failed in hostfunc thread: %d", (int)ret);
        return NULL;
    }
    while (atomic_load(&isHostFuncLoop))
        aclrtProcessHostFunc(waitTime);
    INFO_LOG("Hostfunc processing thread exit");
    return NULL;
}

/* Waits, at most ten seconds, for the main thread's launch line. */
static void WaitForLaunchLine(void)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (!atomic_load(&launchLinePrinted)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10)
            break;
        sched_yield();
    }
}

static void CallBackBeforeLaunchFunc(void *arg)
{
    WaitForLaunchLine();
    INFO_LOG("Report callback thread id is %llu", (unsigned long long)ThreadNumber(pthread_self()));
    INFO_LOG("This callback before task, result: user data is: %d.", *(int *)arg);
}

static void CallBackFunc(void *arg)
{
    INFO_LOG("Report callback thread id is %llu", (unsigned long long)ThreadNumber(pthread_self()));
    INFO_LOG("This callback after task and loop five times, result: user data is: %d.", *(int *)arg);
}

static void HostFunc(void *arg)
{
    INFO_LOG("Hostfunc callback thread id is %llu", (unsigned long long)ThreadNumber(pthread_self()));
    INFO_LOG("Hostfunc executed in subscribed thread, user data is: %d.", *(int *)arg);
}

static int Init(void)
{
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId_));
    CHECK_ERROR(aclrtCreateContext(&context_, deviceId_));
    CHECK_ERROR(aclrtCreateStream(&stream_));
    CHECK_ERROR(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE));
    return 0;
}

static int Callback(void)
{
    uint32_t num = 0;
    const uint32_t blockDim = 1;
    const size_t size = sizeof(uint32_t);
    int32_t *numDevice = NULL;
    const int count = 5;
    static int userData = 520;
    pthread_t reportThread, hostFuncThread;

    CHECK_ERROR(aclrtMalloc((void **)&numDevice, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ERROR(aclrtMemcpy(numDevice, size, &num, size, ACL_MEMCPY_HOST_TO_DEVICE));

    if (pthread_create(&reportThread, NULL, ReportThreadFunc, NULL) != 0) {
        ERROR_LOG("pthread_create failed");
        return -1;
    }
    if (pthread_create(&hostFuncThread, NULL, HostFuncThreadFunc, NULL) != 0) {
        ERROR_LOG("pthread_create failed");
        atomic_store(&isReportLoop, 0);
        pthread_join(reportThread, NULL);
        return -1;
    }
    uint64_t reportTidInt = ThreadNumber(reportThread);
    uint64_t hostFuncTidInt = ThreadNumber(hostFuncThread);
    INFO_LOG("The main thread id is %llu", (unsigned long long)ThreadNumber(pthread_self()));
    INFO_LOG("The created report thread id is %llu", (unsigned long long)reportTidInt);
    INFO_LOG("The created hostfunc thread id is %llu", (unsigned long long)hostFuncTidInt);

    CHECK_ERROR(aclrtSubscribeReport(reportTidInt, stream_));
    CHECK_ERROR(aclrtSubscribeHostFunc(hostFuncTidInt, stream_));

    CHECK_ERROR(aclrtLaunchCallback(CallBackBeforeLaunchFunc, &userData, ACL_CALLBACK_BLOCK, stream_));
    LongOP(blockDim, stream_, numDevice);
    CHECK_ERROR(aclrtLaunchHostFunc(stream_, HostFunc, &userData));
    INFO_LOG("After begin a task, launch one hostfunc and five callbacks.");
    atomic_store(&launchLinePrinted, 1);
    for (int i = 0; i < count; i++)
        CHECK_ERROR(aclrtLaunchCallback(CallBackFunc, &userData, ACL_CALLBACK_BLOCK, stream_));

    CHECK_ERROR(aclrtSynchronizeStream(stream_));
    CHECK_ERROR(aclrtMemcpy(&num, size, numDevice, size, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("After assigning the task, the current int is: %d.", (int)num);

    atomic_store(&isReportLoop, 0);
    pthread_join(reportThread, NULL);
    atomic_store(&isHostFuncLoop, 0);
    pthread_join(hostFuncThread, NULL);
    CHECK_ERROR(aclrtUnSubscribeReport(reportTidInt, stream_));
    CHECK_ERROR(aclrtUnSubscribeHostFunc(hostFuncTidInt, stream_));
    CHECK_ERROR(aclrtFree(numDevice));
    return 0;
}

static int Destroy(void)
{
    CHECK_ERROR(aclrtDestroyStreamForce(stream_));
    CHECK_ERROR(UnloadKernels());
    CHECK_ERROR(aclrtDestroyContext(context_));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId_));
    CHECK_ERROR(aclFinalize());
    return 0;
}

int main(int argc, char **argv)
{
    SetKernelLibrary(argc, argv);
    if (Init() != 0)
        return -1;
    if (LoadKernels() != ACL_SUCCESS) {
        ERROR_LOG("Loading the kernels failed");
        return -1;
    }
    int ret = Callback();
    if (Destroy() != 0 || ret != 0)
        return -1;
    return 0;
}
