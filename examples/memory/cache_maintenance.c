/*
 * cache_maintenance - the CANN runtime sample topic
 * example/3_memory_advanced/cache_maintenance, in C on aclcpu.
 *
 * The vendor's directory describes the topic (flushing and invalidating
 * caches around transfers and shared memory) and ships no program; this is
 * the program it describes. The host fills a pinned buffer and flushes it,
 * copies it to the device, invalidates the device copy before reading it
 * back, and checks the bytes. On a CPU the caches are coherent, so the
 * flush and the invalidate only check their arguments; they still belong
 * where a device needs them, and a bad argument is still refused.
 *
 * Usage: cache_maintenance
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>

#include "../utils.h"

#define BYTES 1024u

static int RoundTrip(unsigned char *host, void *dev)
{
    aclrtPtrAttributes attr;
    size_t same = 0;

    memset(host, 0x5a, BYTES);
    INFO_LOG("Host buffer of %u bytes filled with 0x5a.", BYTES);
    CHECK_ERROR(aclrtMemFlush(host, BYTES));
    INFO_LOG("aclrtMemFlush on the host buffer: success.");
    CHECK_ERROR(aclrtMemcpy(dev, BYTES, host, BYTES, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ERROR(aclrtMemInvalidate(dev, BYTES));
    INFO_LOG("Copied to the device; aclrtMemInvalidate on the device buffer: success.");
    CHECK_ERROR(aclrtPointerGetAttributes(dev, &attr));
    INFO_LOG("Device buffer located on device %u (location type %d).", attr.location.id, (int)attr.location.type);
    memset(host, 0, BYTES);
    CHECK_ERROR(aclrtMemcpy(host, BYTES, dev, BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < BYTES; i++)
        same += host[i] == 0x5a;
    INFO_LOG("Copied back; %zu of %u bytes match.", same, BYTES);
    INFO_LOG("aclrtMemFlush with size 0 returned %d.", (int)aclrtMemFlush(host, 0));
    return same == BYTES ? 0 : -1;
}

int main(void)
{
    int32_t deviceId = 0;
    void *host = NULL, *dev = NULL;
    int ret;

    (void)aclInit(NULL);
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtMallocHost(&host, BYTES));
    CHECK_ERROR(aclrtMalloc(&dev, BYTES, ACL_MEM_MALLOC_HUGE_FIRST));
    ret = RoundTrip(host, dev);
    CHECK_ERROR(aclrtFree(dev));
    CHECK_ERROR(aclrtFreeHost(host));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    (void)aclFinalize();
    INFO_LOG("Resource cleanup completed.");
    return ret;
}
