/*
 * aclnn_mul.h (stand-in) - out = self * other, as the vendor's model samples
 * call it; see aclnn_standin_base.h.
 */
#ifndef ACLCPU_VENDOR_SAMPLES_ACLNN_MUL_H
#define ACLCPU_VENDOR_SAMPLES_ACLNN_MUL_H

#include "aclnnop/aclnn_standin_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_VENDOR_SAMPLES_ACLNN_MUL_H */
