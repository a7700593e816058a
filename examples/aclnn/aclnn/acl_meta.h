/*
 * aclnn/acl_meta.h - a CPU stand-in for the tensor and scalar descriptions
 * of CANN's operator library (libnnopbase: aclCreateTensor, aclCreateScalar
 * and their destroy calls), enough for the runtime samples that call an
 * aclnn operator (0_quickstart/0_hello_cann, device/0_device_normal).
 *
 * A tensor here records its shape, data type and device address; a scalar
 * its value. Only what the samples use is kept: contiguous tensors of at
 * most ACLNN_STANDIN_MAX_DIMS dimensions. The declarations have the
 * library's names and parameters, so the vendor's host code compiles
 * against this header unchanged (C and C++).
 */
#ifndef ACLCPU_EXAMPLES_ACLNN_ACL_META_H
#define ACLCPU_EXAMPLES_ACLNN_ACL_META_H

#include <stdint.h>

#include <acl/acl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACLNN_STANDIN_MAX_DIMS 8

/* The operator library's status codes (0 is success). */
typedef int32_t aclnnStatus;
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002

typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;

/* A tensor over device memory at tensorData. The view must be the storage
 * (contiguous, offset 0), as the samples make it; NULL otherwise. */
aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format, const int64_t *storageDims,
                           uint64_t storageDimsNum, void *tensorData);
/* A scalar holding a copy of *value (ACL_FLOAT, ACL_FLOAT16 or ACL_INT32). */
aclScalar *aclCreateScalar(void *value, aclDataType dataType);
aclnnStatus aclDestroyTensor(const aclTensor *tensor);
aclnnStatus aclDestroyScalar(const aclScalar *scalar);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_EXAMPLES_ACLNN_ACL_META_H */
