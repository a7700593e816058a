/*
 * aclnn_standin_base.h - what tools/vendor_samples.sh gives the vendor's model
 * samples in place of the operator library's headers: the tensor, scalar and
 * executor handles and their create/destroy calls. Declarations written for
 * aclcpu from the operator library's documented API; standin_aclnn.cpp
 * implements them (float, contiguous tensors only).
 */
#ifndef ACLCPU_VENDOR_SAMPLES_ACLNN_STANDIN_BASE_H
#define ACLCPU_VENDOR_SAMPLES_ACLNN_STANDIN_BASE_H

#include <stdint.h>

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t *stride,
                           int64_t offset, aclFormat format, const int64_t *storageDims, uint64_t storageDimsNum,
                           void *tensorData);
aclScalar *aclCreateScalar(void *value, aclDataType dataType);
aclnnStatus aclDestroyTensor(const aclTensor *tensor);
aclnnStatus aclDestroyScalar(const aclScalar *scalar);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_VENDOR_SAMPLES_ACLNN_STANDIN_BASE_H */
