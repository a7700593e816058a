/*
 * acl/acl.h - umbrella header of the CANN C API as provided by aclcpu.
 *
 * Include this one header. The interface version (ACL_MAJOR_VERSION,
 * ACL_MINOR_VERSION, ACL_PATCH_VERSION = 1.17.0) and aclInit, aclFinalize
 * and aclFinalizeReference are declared in acl_rt.h, where CANN declares
 * them, so that programs including only acl_rt.h also compile.
 * CANN's acl_op.h (operator execution) has no aclcpu counterpart. As in
 * CANN, the profiling API is a header of its own: acl/acl_prof.h.
 */
#ifndef ACLCPU_ACL_ACL_H_
#define ACLCPU_ACL_ACL_H_

#include "acl_rt.h"
#include "acl_mdl.h"

#endif /* ACLCPU_ACL_ACL_H_ */
