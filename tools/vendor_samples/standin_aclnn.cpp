// standin_aclnn.cpp - aclnnAdd and aclnnMul for the vendor's model samples
// (tools/vendor_samples.sh --run): float, contiguous tensors, one CPU kernel
// that computes the whole output on block 0. A tensor is its data pointer and
// element count; the workspace is always 0 bytes.
#include <cstdint>
#include <cstdio>

#include "aclcpu/aclcpu.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"

struct aclTensor {
    float* data;
    int64_t count;
};
struct aclScalar {
    float value;
};
struct aclOpExecutor {
    const aclTensor* self;
    const aclTensor* other;
    float alpha;
    aclTensor* out;
    bool multiply;
};

namespace {
struct OpArgs {
    const float* self;
    const float* other;
    float* out;
    float alpha;
    int64_t count;
    bool multiply;
};

void BinaryKernel(void* args)
{
    const OpArgs* a = static_cast<const OpArgs*>(args);
    if (aclcpuGetBlockIdx() != 0) {
        return;
    }
    for (int64_t i = 0; i < a->count; i++) {
        a->out[i] = a->multiply ? a->self[i] * a->other[i] : a->self[i] + a->other[i] * a->alpha;
    }
}

aclnnStatus Run(aclOpExecutor* executor, aclrtStream stream)
{
    static aclrtFuncHandle fn = nullptr;
    if (fn == nullptr && aclcpuRegisterKernel("aclnn_binary", BinaryKernel, &fn) != ACL_SUCCESS) {
        return ACL_ERROR_FAILURE;
    }
    OpArgs args{executor->self->data, executor->other->data, executor->out->data, executor->alpha,
                executor->out->count, executor->multiply};
    aclError ret = aclrtLaunchKernel(fn, 1, &args, sizeof(args), stream);
    if (ret != ACL_SUCCESS) {
        fprintf(stderr, "[standin] aclnn launch returned %d\n", static_cast<int>(ret));
    }
    return ret;
}
} // namespace

extern "C" {
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType, const int64_t*, int64_t,
                           aclFormat, const int64_t*, uint64_t, void* tensorData)
{
    int64_t count = 1;
    for (uint64_t i = 0; i < viewDimsNum; i++) {
        count *= viewDims[i];
    }
    return new aclTensor{static_cast<float*>(tensorData), count};
}

aclScalar* aclCreateScalar(void* value, aclDataType) { return new aclScalar{*static_cast<float*>(value)}; }

aclnnStatus aclDestroyTensor(const aclTensor* tensor)
{
    delete tensor;
    return 0;
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar)
{
    delete scalar;
    return 0;
}

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor)
{
    *workspaceSize = 0;
    *executor = new aclOpExecutor{self, other, alpha->value, out, false};
    return 0;
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor)
{
    *workspaceSize = 0;
    *executor = new aclOpExecutor{self, other, 1.0f, out, true};
    return 0;
}

aclnnStatus aclnnAdd(void*, uint64_t, aclOpExecutor* executor, aclrtStream stream) { return Run(executor, stream); }

aclnnStatus aclnnMul(void*, uint64_t, aclOpExecutor* executor, aclrtStream stream) { return Run(executor, stream); }
}
