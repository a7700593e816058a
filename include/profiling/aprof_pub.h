/*
 * profiling/aprof_pub.h - the part of CANN's profiler interface a runtime
 * program meets: the model-id registration a model loader makes, which the
 * vendor's 2_subscribe_model sample makes itself in place of a loader.
 *
 * aclcpu has no model loader (aclmdlLoadFromFile is the graph engine's);
 * a model id registered here is one aclprofModelSubscribe and
 * aclprofModelUnSubscribe accept, as they do on CANN once a loader has
 * registered it. Its subscription receives the records of no run (nothing
 * runs under that id) and its pipe is closed when it is unsubscribed.
 */
#ifndef ACLCPU_PROFILING_APROF_PUB_H_
#define ACLCPU_PROFILING_APROF_PUB_H_

#include <stdint.h>

#ifndef MSVP_PROF_API
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Registers graph-engine model geModelIdx as loaded on deviceId: 0, or -1
 * for a device id no device has, or a full table (4096 ids). A second
 * registration of an id moves it to deviceId. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

/* Forgets geModelIdx's registration on deviceId: 0, or -1 if it has none there. */
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_PROFILING_APROF_PUB_H_ */
