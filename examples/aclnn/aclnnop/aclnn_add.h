/*
 * aclnnop/aclnn_add.h - a CPU stand-in for CANN's aclnnAdd operator
 * (out = self + alpha * other), with the library's two-phase interface:
 * aclnnAddGetWorkspaceSize checks the tensors and makes an executor,
 * aclnnAdd runs it on a stream (as a CPU kernel, aclcpuRegisterKernel) and
 * frees it. Float tensors of equal element count only.
 */
#ifndef ACLCPU_EXAMPLES_ACLNNOP_ACLNN_ADD_H
#define ACLCPU_EXAMPLES_ACLNNOP_ACLNN_ADD_H

#include "../aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_EXAMPLES_ACLNNOP_ACLNN_ADD_H */
