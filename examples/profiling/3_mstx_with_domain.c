/*
 * 3_mstx_with_domain - the CANN runtime sample
 * example/5_performance/profiling/3_mstx_with_domain, in C on aclcpu.
 *
 * mstx markers around an operator: a range and a mark in the default domain
 * (mstxRangeStartA, mstxMarkA, mstxRangeEnd) and, inside, a mark and a range
 * in a domain of the sample's own, "DoAclAdd_Inner" (mstxDomainCreateA,
 * mstxDomainMarkA, mstxDomainRangeStartA, mstxDomainRangeEnd,
 * mstxDomainDestroy), around an add of two 4 x 2 float tensors,
 * out = self + 1.2 * other, on the sample's stream; it prints the result.
 *
 * The mstx calls come from include/mstx/ms_tools_ext.h: as in CANN with no
 * profiling tool attached (msprof --msproftx=on), they record nothing.
 *
 * The operator (aclnnAdd with aclCreateTensor / aclCreateScalar, from the
 * operator library) is a CPU stand-in here: AddGetWorkspaceSize and Add
 * below keep its two phases, and the add runs as a kernel on the stream
 * (registered with aclcpuRegisterKernel).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>
#include <mstx/ms_tools_ext.h>

/* The sample's util_mstx.h: ACL_CALL returns the failing call's code. */
#define LOG_PRINT(...) printf(__VA_ARGS__)
#define ACL_CALL(call)                                                                                 \
    do {                                                                                               \
        aclError acl_call_ret_ = (call);                                                               \
        if (acl_call_ret_ != ACL_SUCCESS) {                                                            \
            LOG_PRINT("%s call failed, error code: %d\n", #call, (int)acl_call_ret_);                  \
            return acl_call_ret_;                                                                      \
        }                                                                                              \
    } while (0)

#define ELEMENTS 8 /* shape {4, 2} */

static aclrtContext context;
static aclrtStream stream;
static mstxDomainHandle_t domainRange;
static const char *g_domainRangeName = "DoAclAdd_Inner";

/* ---- the operator's stand-in: out = self + alpha * other on float tensors ---------------------- */

struct AddExecutor {
    const float *self, *other;
    float alpha;
    float *out;
    size_t count;
};

static void AddKernel(void *args)
{
    const struct AddExecutor *e = args;
    if (aclcpuGetBlockIdx() != 0)
        return;
    for (size_t i = 0; i < e->count; i++)
        e->out[i] = e->self[i] + e->alpha * e->other[i];
}

/* Phase one: the executor, no workspace. */
static aclError AddGetWorkspaceSize(const float *self, const float *other, float alpha, float *out, size_t count,
                                    uint64_t *workspaceSize, struct AddExecutor *executor)
{
    *executor = (struct AddExecutor){self, other, alpha, out, count};
    *workspaceSize = 0;
    return ACL_SUCCESS;
}

/* Phase two: the add, as a kernel on the stream. */
static aclError Add(void *workspace, uint64_t workspaceSize, const struct AddExecutor *executor, aclrtStream s)
{
    static aclrtFuncHandle kernel;
    (void)workspace, (void)workspaceSize;
    if (kernel == NULL)
        ACL_CALL(aclcpuRegisterKernel("add_stand_in", AddKernel, &kernel));
    return aclrtLaunchKernel(kernel, 1, executor, sizeof(*executor), s);
}

/* ---- the sample ---------------------------------------------------------------------------------- */

static int CreateDeviceTensor(const float *hostData, void **deviceAddr)
{
    const size_t size = ELEMENTS * sizeof(float);
    ACL_CALL(aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(*deviceAddr, size, hostData, size, ACL_MEMCPY_HOST_TO_DEVICE));
    return 0;
}

static int DoAclAdd(void)
{
    int ret = ACL_SUCCESS;
    void *selfDeviceAddr = NULL, *otherDeviceAddr = NULL, *outDeviceAddr = NULL;
    const float selfHostData[ELEMENTS] = {0, 1, 2, 3, 4, 5, 6, 7};
    const float otherHostData[ELEMENTS] = {1, 1, 1, 2, 2, 2, 3, 3};
    const float outHostData[ELEMENTS] = {0};
    const float alphaValue = 1.2f;
    struct AddExecutor executor;
    ACL_CALL(CreateDeviceTensor(selfHostData, &selfDeviceAddr));
    ACL_CALL(CreateDeviceTensor(otherHostData, &otherDeviceAddr));

    /* A mark in the "DoAclAdd_Inner" domain. */
    mstxDomainMarkA(domainRange, "Create alpha aclScalar", stream);

    ACL_CALL(CreateDeviceTensor(outHostData, &outDeviceAddr));
    uint64_t workspaceSize = 0;
    ACL_CALL(AddGetWorkspaceSize(selfDeviceAddr, otherDeviceAddr, alphaValue, outDeviceAddr, ELEMENTS,
                                 &workspaceSize, &executor));
    void *workspaceAddr = NULL;
    if (workspaceSize > 0)
        ACL_CALL(aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(Add(workspaceAddr, workspaceSize, &executor, stream));

    /* A range in the "DoAclAdd_Inner" domain, from here to the end. */
    mstxRangeId id = mstxDomainRangeStartA(domainRange, "After aclnnAdd", stream);

    ACL_CALL(aclrtSynchronizeStream(stream));
    float resultData[ELEMENTS] = {0};
    ACL_CALL(aclrtMemcpy(resultData, sizeof(resultData), outDeviceAddr, ELEMENTS * sizeof(float),
                         ACL_MEMCPY_DEVICE_TO_HOST));
    for (int64_t i = 0; i < ELEMENTS; i++)
        LOG_PRINT("result[%ld] is: %f\n", (long)i, resultData[i]);
    aclrtFree(selfDeviceAddr);
    aclrtFree(otherDeviceAddr);
    aclrtFree(outDeviceAddr);
    if (workspaceSize > 0)
        aclrtFree(workspaceAddr);

    mstxDomainRangeEnd(domainRange, id);
    return ret;
}

static int TestMstxWithDomain(void)
{
    /* A range in the default domain around everything. */
    mstxRangeId id = mstxRangeStartA("TestMstxWithDomain", stream);
    ACL_CALL(aclrtSetCurrentContext(context));
    mstxMarkA("DoAclAdd Start", stream);
    ACL_CALL(DoAclAdd());
    mstxRangeEnd(id);
    return ACL_SUCCESS;
}

/* The sample's util_acl.h. */
static int Init(int32_t deviceId)
{
    ACL_CALL(aclInit(NULL));
    ACL_CALL(aclrtSetDevice(deviceId));
    ACL_CALL(aclrtCreateContext(&context, deviceId));
    ACL_CALL(aclrtSetCurrentContext(context));
    ACL_CALL(aclrtCreateStream(&stream));
    return 0;
}

static int DeInit(int32_t deviceId)
{
    ACL_CALL(aclrtDestroyStream(stream));
    ACL_CALL(aclrtDestroyContext(context));
    ACL_CALL(aclrtResetDevice(deviceId));
    ACL_CALL(aclFinalize());
    return 0;
}

int main(void)
{
    int32_t deviceId = 0;
    int ret = Init(deviceId);
    if (ret != ACL_SUCCESS)
        return ret;

    domainRange = mstxDomainCreateA(g_domainRangeName);
    ret = TestMstxWithDomain();
    mstxDomainDestroy(domainRange);

    int deinitRet = DeInit(deviceId);
    return ret != ACL_SUCCESS ? ret : deinitRet;
}
