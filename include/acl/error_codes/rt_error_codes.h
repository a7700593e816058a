/*
 * error_codes/rt_error_codes.h - the runtime's error codes (ACL_RT_SUCCESS,
 * ACL_ERROR_RT_*) by the path CANN's runtime package gives them. aclcpu
 * declares them in acl/acl_base.h; this header includes that one, so host
 * code that includes this path directly gets the same macros.
 */
#ifndef ACLCPU_ACL_ERROR_CODES_RT_ERROR_CODES_H_
#define ACLCPU_ACL_ERROR_CODES_RT_ERROR_CODES_H_

#include "../acl_base.h"

#endif /* ACLCPU_ACL_ERROR_CODES_RT_ERROR_CODES_H_ */
