/*
 * aclnn_add.h (stand-in) - out = self + other * alpha, as the vendor's model
 * samples call it; see aclnn_standin_base.h.
 */
#ifndef ACLCPU_VENDOR_SAMPLES_ACLNN_ADD_H
#define ACLCPU_VENDOR_SAMPLES_ACLNN_ADD_H

#include "aclnnop/aclnn_standin_base.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha,
                                     aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_VENDOR_SAMPLES_ACLNN_ADD_H */
