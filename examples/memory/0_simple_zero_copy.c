/*
 * 0_simple_zero_copy - the CANN runtime sample
 * example/3_memory_advanced/host_register/0_simple_zero_copy, in C on
 * aclcpu.
 *
 * Three buffers of pinned host memory (aclrtMallocHost) are registered for
 * device access (aclrtHostRegisterV2 with ACL_HOST_REG_MAPPED), their
 * device addresses fetched (aclrtHostGetDevicePointer) and handed to the
 * add_custom kernel, which adds two FP16 vectors straight into host
 * memory. After the stream synchronises, the host checks all 16,384 sums.
 * On aclcpu the device address of a registered range is its host address.
 *
 * Usage: 0_simple_zero_copy [path/to/libmemory_kernels.so]
 */
#include <stddef.h>
#include <stdint.h>

#include <acl/acl.h>

#include "../utils.h"

#define kDeviceId 0
#define kBlockDim 8u
#define kElementCount ((size_t)8 * 2048)
#define kBufferSize (kElementCount * sizeof(uint16_t))
#define kHalfOne 0x3C00
#define kHalfTwo 0x4000
#define kHalfThree 0x4200

struct MappedBuffer {
    uint16_t *host;
    void *device;
    int registered;
};

struct RuntimeSession {
    aclrtStream stream;
    aclrtBinHandle binary;
    int initialized, deviceSet, streamCreated, binaryLoaded;
    struct MappedBuffer inputA, inputB, output;
};

static const char *kernelPath = MEMORY_KERNELS_PATH;

static void RecordCleanupError(const char *operation, aclError error, int *result)
{
    if (error == ACL_SUCCESS)
        return;
    ERROR_LOG("Cleanup failed: %s returned error code %d", operation, (int)error);
    *result = -1;
}

static int InitializeRuntime(struct RuntimeSession *session)
{
    CHECK_ERROR(aclInit(NULL));
    session->initialized = 1;
    CHECK_ERROR(aclrtSetDevice(kDeviceId));
    session->deviceSet = 1;
    CHECK_ERROR(aclrtCreateStream(&session->stream));
    session->streamCreated = 1;
    return 0;
}

static int AllocateMappedBuffer(struct MappedBuffer *buffer)
{
    CHECK_ERROR(aclrtMallocHost((void **)&buffer->host, kBufferSize));
    CHECK_ERROR(aclrtHostRegisterV2(buffer->host, kBufferSize, ACL_HOST_REG_MAPPED));
    buffer->registered = 1;
    CHECK_ERROR(aclrtHostGetDevicePointer(buffer->host, &buffer->device, 0));
    if (buffer->device == NULL) {
        ERROR_LOG("Mapped Device address is null.");
        return -1;
    }
    return 0;
}

static void Fill(uint16_t *p, uint16_t v)
{
    for (size_t i = 0; i < kElementCount; i++)
        p[i] = v;
}

static int PrepareMappedBuffers(struct RuntimeSession *session)
{
    if (AllocateMappedBuffer(&session->inputA) != 0 || AllocateMappedBuffer(&session->inputB) != 0 ||
        AllocateMappedBuffer(&session->output) != 0)
        return -1;
    Fill(session->inputA.host, kHalfOne);
    Fill(session->inputB.host, kHalfTwo);
    Fill(session->output.host, 0);
    INFO_LOG("Registered three Host buffers and obtained their Device mapping addresses.");
    return 0;
}

static int AppendKernelPointer(aclrtArgsHandle argsHandle, void *devicePointer)
{
    aclrtParamHandle paramHandle = NULL;
    CHECK_ERROR(aclrtKernelArgsAppend(argsHandle, &devicePointer, sizeof(uintptr_t), &paramHandle));
    return 0;
}

static int LoadKernel(struct RuntimeSession *session, aclrtFuncHandle *function, aclrtArgsHandle *args)
{
    CHECK_ERROR(aclrtBinaryLoadFromFile(kernelPath, NULL, &session->binary));
    session->binaryLoaded = 1;
    CHECK_ERROR(aclrtBinaryGetFunction(session->binary, "add_custom", function));
    CHECK_ERROR(aclrtKernelArgsInit(*function, args));
    if (AppendKernelPointer(*args, session->inputA.device) != 0 ||
        AppendKernelPointer(*args, session->inputB.device) != 0 ||
        AppendKernelPointer(*args, session->output.device) != 0)
        return -1;
    CHECK_ERROR(aclrtKernelArgsFinalize(*args));
    return 0;
}

static int ExecuteAndVerify(struct RuntimeSession *session, aclrtFuncHandle function, aclrtArgsHandle args)
{
    CHECK_ERROR(aclrtLaunchKernelWithConfig(function, kBlockDim, session->stream, NULL, args, NULL));
    CHECK_ERROR(aclrtSynchronizeStream(session->stream));
    for (size_t index = 0; index < kElementCount; ++index) {
        if (session->output.host[index] != kHalfThree) {
            ERROR_LOG("Result mismatch at index %zu: actual=0x%04x, expected=0x%04x", index,
                      session->output.host[index], kHalfThree);
            return -1;
        }
    }
    INFO_LOG("Verified %zu FP16 additions through mapped Host memory.", kElementCount);
    return 0;
}

static void ReleaseMappedBuffer(const char *name, struct MappedBuffer *buffer, int *result)
{
    if (buffer->registered) {
        RecordCleanupError(name, aclrtHostUnregister(buffer->host), result);
        buffer->registered = 0;
    }
    if (buffer->host != NULL) {
        RecordCleanupError("aclrtFreeHost", aclrtFreeHost(buffer->host), result);
        buffer->host = NULL;
    }
    buffer->device = NULL;
}

static void ReleaseSession(struct RuntimeSession *session, int *result)
{
    if (session->binaryLoaded)
        RecordCleanupError("aclrtBinaryUnLoad", aclrtBinaryUnLoad(session->binary), result);
    ReleaseMappedBuffer("aclrtHostUnregister(output)", &session->output, result);
    ReleaseMappedBuffer("aclrtHostUnregister(inputB)", &session->inputB, result);
    ReleaseMappedBuffer("aclrtHostUnregister(inputA)", &session->inputA, result);
    if (session->streamCreated)
        RecordCleanupError("aclrtDestroyStream", aclrtDestroyStream(session->stream), result);
    if (session->deviceSet)
        RecordCleanupError("aclrtResetDeviceForce", aclrtResetDeviceForce(kDeviceId), result);
    if (session->initialized)
        RecordCleanupError("aclFinalize", aclFinalize(), result);
}

static int RunSimpleZeroCopy(void)
{
    struct RuntimeSession session = {0};
    aclrtFuncHandle function = NULL;
    aclrtArgsHandle args = NULL;
    int result = 0;

    if (InitializeRuntime(&session) != 0 || PrepareMappedBuffers(&session) != 0 ||
        LoadKernel(&session, &function, &args) != 0 || ExecuteAndVerify(&session, function, args) != 0)
        result = -1;
    ReleaseSession(&session, &result);
    return result;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        kernelPath = argv[1];
    INFO_LOG("Start to run simple_zero_copy sample.");
    if (RunSimpleZeroCopy() != 0) {
        ERROR_LOG("Run the simple_zero_copy sample failed.");
        return -1;
    }
    INFO_LOG("Run the simple_zero_copy sample successfully.");
    return 0;
}
