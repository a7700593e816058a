/*
 * acl/acl_mdl.h - model definitions of the CANN API needed by the runtime
 * part that aclcpu implements.
 *
 * In CANN the aclmdlRI* functions are declared in acl_rt.h, and these two
 * stream-binding flags come from acl_mdl.h of the graph-engine
 * package. aclcpu provides only the flags here.
 */
#ifndef ACLCPU_ACL_ACL_MDL_H_
#define ACLCPU_ACL_ACL_MDL_H_

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* aclmdlRIBindStream flag: the stream starts when the model starts. */
#define ACL_MODEL_STREAM_FLAG_HEAD 0x00000000U

/* aclmdlRIBindStream flag: the stream runs only when activated by aclrtActiveStream or aclrtSwitchStream. */
#define ACL_MODEL_STREAM_FLAG_DEFAULT 0x7FFFFFFFU

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_ACL_ACL_MDL_H_ */
