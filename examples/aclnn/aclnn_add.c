/*
 * aclnn_add.c - the CPU stand-in for CANN's aclnnAdd operator and the
 * tensor and scalar descriptions it takes (aclnn/acl_meta.h,
 * aclnnop/aclnn_add.h), built into the static library example_aclnn.
 *
 * A tensor is a shape, a data type and a device address; a scalar a value
 * kept as a float. aclnnAddGetWorkspaceSize checks the three tensors (all
 * ACL_FLOAT, one element count) and makes an executor holding the kernel's
 * arguments; aclnnAdd launches the kernel AddKernel (a CPU kernel this
 * library registers with aclcpuRegisterKernel) on the stream and frees the
 * executor, as the library's executors are used once. The kernel computes
 * out[i] = self[i] + alpha * other[i], each block over its share.
 *
 * Threads: the host thread that calls the operator; the kernel runs on the
 * device's workers. Locks: none.
 */
#include <stdlib.h>
#include <string.h>

#include <aclcpu/aclcpu.h>

#include "aclnnop/aclnn_add.h"

/* Elements each block of the kernel adds, at most. */
#define ELEMENTS_PER_BLOCK 1024u

struct aclTensor {
    int64_t dims[ACLNN_STANDIN_MAX_DIMS];
    uint64_t ndims;
    aclDataType dtype;
    void *data;
};

struct aclScalar {
    float value;
};

/* The kernel's arguments, copied by the launch. */
struct add_args {
    const float *self, *other;
    float *out;
    float alpha;
    uint64_t count;
};

struct aclOpExecutor {
    struct add_args args;
};

static uint64_t element_count(const aclTensor *t)
{
    uint64_t n = 1;
    for (uint64_t i = 0; i < t->ndims; i++)
        n *= (uint64_t)t->dims[i];
    return n;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                           uint64_t storageDimsNum, void *tensorData)
{
    aclTensor *t;
    int64_t expect = 1;
    (void)format;
    if (viewDims == NULL || stride == NULL || storageDims == NULL || viewDimsNum > ACLNN_STANDIN_MAX_DIMS ||
        viewDimsNum != storageDimsNum || offset != 0)
        return NULL;
    /* Contiguous only: each stride is the product of the dims after it. */
    for (uint64_t i = viewDimsNum; i-- > 0;) {
        if (viewDims[i] < 0 || viewDims[i] != storageDims[i] || (viewDims[i] > 1 && stride[i] != expect))
            return NULL;
        expect *= viewDims[i];
    }
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return NULL;
    memcpy(t->dims, viewDims, viewDimsNum * sizeof(int64_t));
    t->ndims = viewDimsNum;
    t->dtype = dataType;
    t->data = tensorData;
    return t;
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
    aclScalar *s;
    if (value == NULL)
        return NULL;
    s = malloc(sizeof(*s));
    if (s == NULL)
        return NULL;
    switch (dataType) {
    case ACL_FLOAT: memcpy(&s->value, value, sizeof(float)); break;
    case ACL_FLOAT16: s->value = aclFloat16ToFloat(*(const aclFloat16 *)value); break;
    case ACL_INT32: s->value = (float)*(const int32_t *)value; break;
    default: free(s); return NULL;
    }
    return s;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
    free((void *)(uintptr_t)tensor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar)
{
    free((void *)(uintptr_t)scalar);
    return ACLNN_SUCCESS;
}

static void AddKernel(void *p)
{
    const struct add_args *a = p;
    uint64_t per = (a->count + aclcpuGetBlockNum() - 1) / aclcpuGetBlockNum();
    uint64_t lo = aclcpuGetBlockIdx() * per, hi = lo + per < a->count ? lo + per : a->count;
    for (uint64_t i = lo; i < hi; i++)
        a->out[i] = a->self[i] + a->alpha * a->other[i];
}

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor)
{
    aclOpExecutor *e;
    if (self == NULL || other == NULL || alpha == NULL || out == NULL || workspaceSize == NULL || executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    if (self->dtype != ACL_FLOAT || other->dtype != ACL_FLOAT || out->dtype != ACL_FLOAT ||
        element_count(self) != element_count(out) || element_count(other) != element_count(out))
        return ACLNN_ERR_PARAM_INVALID;
    e = malloc(sizeof(*e));
    if (e == NULL)
        return ACLNN_ERR_PARAM_INVALID;
    e->args.self = self->data;
    e->args.other = other->data;
    e->args.out = out->data;
    e->args.alpha = alpha->value;
    e->args.count = element_count(out);
    *workspaceSize = 0; /* an element-wise add needs none */
    *executor = e;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream)
{
    aclrtFuncHandle fn;
    uint32_t blocks;
    aclError ret;
    (void)workspace;
    (void)workspaceSize;
    if (executor == NULL)
        return ACLNN_ERR_PARAM_NULLPTR;
    /* Registering a name again gives the same handle. */
    ret = aclcpuRegisterKernel("aclnnAdd_AddKernel", AddKernel, &fn);
    if (ret == ACL_SUCCESS) {
        blocks = (uint32_t)((executor->args.count + ELEMENTS_PER_BLOCK - 1) / ELEMENTS_PER_BLOCK);
        ret = aclrtLaunchKernel(fn, blocks > 0 ? blocks : 1, &executor->args, sizeof(executor->args), stream);
    }
    free(executor);
    return (aclnnStatus)ret;
}
