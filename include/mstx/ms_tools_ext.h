/*
 * mstx/ms_tools_ext.h - the MindStudio Tools Extension (mstx) marker calls,
 * as aclcpu has them: each does what CANN's does while no profiling tool is
 * attached, that is nothing.
 *
 * In CANN these calls are forwarded to a profiling tool (msprof with
 * --msproftx=on, or mspti) when one has injected its functions; without one
 * a mark or a range end does nothing, a range start answers
 * MSTX_INVALID_RANGE_ID and a domain create answers NULL (the reference's
 * src/dfx/msprof/collector/dvvp/profapi/src/prof_mstx_plugin.cpp and
 * mstx_def.h give the calls, their types and that behaviour). aclcpu has no
 * such tool, so the calls are inline functions here and nothing is
 * exported; its own profiles (aclprofStart, ACLCPU_PROFILE) do not show
 * mstx markers (docs/differences.md, Profiling). Markers that do show are
 * the msproftx ones of acl/acl_prof.h (aclprofMark, aclprofPush, ...).
 */
#ifndef ACLCPU_MSTX_MS_TOOLS_EXT_H
#define ACLCPU_MSTX_MS_TOOLS_EXT_H

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_INVALID_RANGE_ID 0
#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* A range's id: MSTX_INVALID_RANGE_ID when no tool records it. */
typedef uint64_t mstxRangeId;

/* A domain: markers grouped under a name, which a tool can filter by. */
struct MstxDomainRegistrationSt;
typedef struct MstxDomainRegistrationSt MstxDomainHandle;
typedef MstxDomainHandle *mstxDomainHandle_t;

/* An instant event in the default domain (stream: the device's timeline, or NULL for the host's). */
static inline void mstxMarkA(const char *message, aclrtStream stream)
{
    (void)message;
    (void)stream;
}

/* Opens a range in the default domain; mstxRangeEnd closes it. */
static inline mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
    (void)message;
    (void)stream;
    return MSTX_INVALID_RANGE_ID;
}

static inline void mstxRangeEnd(mstxRangeId id) { (void)id; }

/* Creates the domain `name`: NULL when no tool is attached (the calls below take NULL). */
static inline mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
    (void)name;
    return (mstxDomainHandle_t)0;
}

static inline void mstxDomainDestroy(mstxDomainHandle_t domain) { (void)domain; }

static inline void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    (void)domain;
    (void)message;
    (void)stream;
}

static inline mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream)
{
    (void)domain;
    (void)message;
    (void)stream;
    return MSTX_INVALID_RANGE_ID;
}

static inline void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id)
{
    (void)domain;
    (void)id;
}

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_MSTX_MS_TOOLS_EXT_H */
