/*
 * 0_overflow_detection - the CANN runtime sample
 * example/4_reliability/overflow_detection/0_overflow_detection, in C on
 * aclcpu.
 *
 * Switches the saturation mode to SATURATION (it starts in INFNAN on an
 * A2), turns a stream's overflow switch on, and reads the context's
 * overflow status into a 64-byte device buffer before and after a reset.
 * No kernel runs, so both reads are 0 (on aclcpu a kernel that calls
 * aclcpuSetOverflow() would set it). Restores the mode at the end.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"

#define STATUS_SIZE 64u

static uint32_t ReadOverflowFlag(const uint8_t *status)
{
    uint32_t flag;
    memcpy(&flag, status, sizeof(flag));
    return flag;
}

static const char *OverflowModeToString(aclrtFloatOverflowMode mode)
{
    switch (mode) {
    case ACL_RT_OVERFLOW_MODE_SATURATION:
        return "ACL_RT_OVERFLOW_MODE_SATURATION";
    case ACL_RT_OVERFLOW_MODE_INFNAN:
        return "ACL_RT_OVERFLOW_MODE_INFNAN";
    case ACL_RT_OVERFLOW_MODE_UNDEF:
        return "ACL_RT_OVERFLOW_MODE_UNDEF";
    default:
        return "ACL_RT_OVERFLOW_MODE_UNKNOWN";
    }
}

/* 0 on success, 1 when the call is not supported here (207000: the sample
 * then stops after cleaning up), -1 on any other failure. */
static int Optional(const char *api, aclError ret, const char *reason)
{
    if (ret == ACL_SUCCESS)
        return 0;
    if (ret == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        WARN_LOG("%s is unavailable in the current environment (ret=%d): %s", api, (int)ret, reason);
        return 1;
    }
    ERROR_LOG("Operation failed: %s returned error code %d", api, (int)ret);
    return -1;
}

/* What main sets up, for the cleanup. */
struct sample {
    aclrtContext context;
    aclrtStream stream;
    uint8_t *statusDevice;
    aclrtFloatOverflowMode originalMode;
    int modeChanged;
};

static int ReadStatus(struct sample *s, const char *when)
{
    uint8_t statusHost[STATUS_SIZE] = {0};
    CHECK_ERROR(aclrtGetOverflowStatus(s->statusDevice, STATUS_SIZE, s->stream));
    CHECK_ERROR(aclrtSynchronizeStream(s->stream));
    CHECK_ERROR(aclrtMemcpy(statusHost, sizeof(statusHost), s->statusDevice, STATUS_SIZE, ACL_MEMCPY_DEVICE_TO_HOST));
    INFO_LOG("Overflow status %s=%u", when, ReadOverflowFlag(statusHost));
    return 0;
}

static int Run(struct sample *s)
{
    aclrtFloatOverflowMode currentMode = ACL_RT_OVERFLOW_MODE_UNDEF;
    uint32_t queriedSwitch = 0;
    int r;

    CHECK_ERROR(aclrtCreateContext(&s->context, 0));
    r = Optional("aclrtGetDeviceSatMode(&originalMode)", aclrtGetDeviceSatMode(&s->originalMode),
                 "the current device/runtime does not expose device saturation mode");
    if (r != 0)
        return r < 0 ? -1 : 0;
    r = Optional("aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION)",
                 aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION),
                 "stream overflow detection requires saturation mode");
    if (r != 0)
        return r < 0 ? -1 : 0;
    s->modeChanged = 1;
    CHECK_ERROR(aclrtGetDeviceSatMode(&currentMode));
    INFO_LOG("Device saturation mode switched from %s to %s.", OverflowModeToString(s->originalMode),
             OverflowModeToString(currentMode));

    CHECK_ERROR(aclrtCreateStream(&s->stream));
    r = Optional("aclrtSetStreamOverflowSwitch(stream, 1)", aclrtSetStreamOverflowSwitch(s->stream, 1),
                 "the current environment does not expose stream-level overflow detection");
    if (r != 0)
        return r < 0 ? -1 : 0;
    CHECK_ERROR(aclrtGetStreamOverflowSwitch(s->stream, &queriedSwitch));
    INFO_LOG("Overflow switch=%u", queriedSwitch);

    CHECK_ERROR(aclrtMalloc((void **)&s->statusDevice, STATUS_SIZE, ACL_MEM_MALLOC_HUGE_FIRST));
    if (ReadStatus(s, "before reset") != 0)
        return -1;
    CHECK_ERROR(aclrtResetOverflowStatus(s->stream));
    CHECK_ERROR(aclrtSynchronizeStream(s->stream));
    return ReadStatus(s, "after reset");
}

int main(void)
{
    struct sample s = {0};
    int result;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(0));
    result = Run(&s);
    if (s.statusDevice != NULL && aclrtFree(s.statusDevice) != ACL_SUCCESS)
        result = -1;
    if (s.modeChanged && aclrtSetDeviceSatMode(s.originalMode) != ACL_SUCCESS)
        result = -1;
    if (s.stream != NULL && aclrtDestroyStream(s.stream) != ACL_SUCCESS)
        result = -1;
    if (s.context != NULL && aclrtDestroyContext(s.context) != ACL_SUCCESS)
        result = -1;
    if (aclrtResetDeviceForce(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS)
        result = -1;
    if (result == 0)
        INFO_LOG("Overflow detection sample finished successfully.");
    return result == 0 ? 0 : 1;
}
