/*
 * 2_device_P2P - the CANN runtime sample
 * example/1_basic_features/device/2_device_P2P, in C on aclcpu.
 *
 * Needs two devices (ACLCPU_DEVICE_COUNT=2; with one it prints its skip
 * line). Device 0 checks that it can reach device 1 and enables access to
 * it, allocates 10 bytes and fills them with rand() % 256; device 1
 * enables access back, allocates its own 10 bytes, copies device 0's bytes
 * into them (a device-to-device copy between two devices' memory), copies
 * them to pinned host memory and checks the first byte. Each device then
 * disables its access, frees its memory and is reset. rand() is not
 * seeded, as in the vendor's sample: glibc's first value gives 103.
 */
#include <stdint.h>
#include <stdlib.h>

#include <acl/acl.h>

#include "../utils.h"

#define UINT8_DATA_LEN 256

int main(void)
{
    uint32_t deviceCount = 0;
    int32_t canAccessPeer = 0;

    INFO_LOG("Start to run device_P2P sample.");
    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtGetDeviceCount(&deviceCount));
    if (deviceCount < 2) {
        INFO_LOG("[SKIP] Need at least 2 visible devices for P2P, but got %u.", deviceCount);
        CHECK_ERROR(aclFinalize());
        return 0;
    }

    CHECK_ERROR(aclrtSetDevice(0));
    CHECK_ERROR(aclrtDeviceCanAccessPeer(&canAccessPeer, 0, 1));
    if (canAccessPeer == 1) {
        void *dev0, *dev1, *host;
        uint32_t memSize = 10;
        int randValue;
        char *charPtr;

        CHECK_ERROR(aclrtDeviceEnablePeerAccess(1, 0));
        CHECK_ERROR(aclrtMalloc(&dev0, memSize, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
        randValue = rand() % UINT8_DATA_LEN;
        CHECK_ERROR(aclrtMemset(dev0, memSize, randValue, memSize));

        CHECK_ERROR(aclrtSetDevice(1));
        CHECK_ERROR(aclrtDeviceEnablePeerAccess(0, 0));
        CHECK_ERROR(aclrtMalloc(&dev1, memSize, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
        CHECK_ERROR(aclrtMemset(dev1, memSize, 0, memSize));

        CHECK_ERROR(aclrtMemcpy(dev1, memSize, dev0, memSize, ACL_MEMCPY_DEVICE_TO_DEVICE));
        INFO_LOG("Device 0 to device 1 memcpy success.");

        CHECK_ERROR(aclrtMallocHost(&host, memSize));
        CHECK_ERROR(aclrtMemset(host, memSize, 0, memSize));
        charPtr = host;
        CHECK_ERROR(aclrtMemcpy(host, memSize, dev1, memSize, ACL_MEMCPY_DEVICE_TO_HOST));
        INFO_LOG("Device 1 to host memcpy success.");
        if (charPtr[0] == randValue)
            INFO_LOG("The data read from the memory is %d, verify success!", charPtr[0]);

        CHECK_ERROR(aclrtSynchronizeDevice());
        CHECK_ERROR(aclrtDeviceDisablePeerAccess(0));
        CHECK_ERROR(aclrtFreeHost(host));
        CHECK_ERROR(aclrtFree(dev1));
        CHECK_ERROR(aclrtResetDeviceForce(1));

        CHECK_ERROR(aclrtSetDevice(0));
        CHECK_ERROR(aclrtDeviceDisablePeerAccess(1));
        CHECK_ERROR(aclrtFree(dev0));
        CHECK_ERROR(aclrtResetDeviceForce(0));
    } else {
        ERROR_LOG("The device does not support peer access feature.");
    }

    CHECK_ERROR(aclFinalize());
    INFO_LOG("Run the device_P2P sample successfully.");
    return 0;
}
