/*
 * 0_custom_allocator - the CANN runtime sample
 * example/3_memory_advanced/allocator/0_custom_allocator, in C on aclcpu.
 *
 * A custom allocator (an object counting its calls and four callbacks) is
 * described with aclrtAllocatorCreateDesc and the Set*ToDesc calls,
 * registered with a stream, read back with aclrtAllocatorGetByStream and
 * used: one block of 256 bytes, one advised block of 128 bytes, both
 * freed. The last line prints the description as the vendor's main.cpp
 * does (no commas; its README shows commas, and the source wins);
 * aclcpu's handles are not pointers but fixed values, so the first
 * description of a process always prints the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <acl/acl.h>
#include <acl/acl_rt_allocator.h>

#include "../utils.h"

struct CustomBlock {
    void *addr;
    size_t size;
};

struct CustomAllocatorState {
    uint32_t allocCount;
    uint32_t freeCount;
};

static void *CustomAlloc(aclrtAllocator allocator, size_t size)
{
    struct CustomAllocatorState *state = allocator;
    struct CustomBlock *block = malloc(sizeof(*block));
    if (block == NULL)
        return NULL;
    block->addr = malloc(size);
    if (block->addr == NULL) {
        free(block);
        return NULL;
    }
    block->size = size;
    if (state != NULL)
        ++state->allocCount;
    INFO_LOG("CustomAlloc size=%zu", size);
    return block;
}

static void CustomFree(aclrtAllocator allocator, aclrtAllocatorBlock block)
{
    struct CustomAllocatorState *state = allocator;
    struct CustomBlock *typedBlock = block;
    if (typedBlock != NULL) {
        free(typedBlock->addr);
        free(typedBlock);
    }
    if (state != NULL)
        ++state->freeCount;
    INFO_LOG("CustomFree invoked");
}

static void *CustomAllocAdvise(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr)
{
    (void)addr;
    INFO_LOG("CustomAllocAdvise size=%zu", size);
    return CustomAlloc(allocator, size);
}

static void *CustomGetAddrFromBlock(aclrtAllocatorBlock block)
{
    struct CustomBlock *typedBlock = block;
    return typedBlock == NULL ? NULL : typedBlock->addr;
}

#define CHECK_NOT_NULL(ptr, name)                                                                  \
    do {                                                                                           \
        if ((ptr) == NULL) {                                                                       \
            ERROR_LOG("%s is nullptr", name);                                                      \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

int main(void)
{
    const int32_t deviceId = 0;
    aclrtContext context = NULL;
    aclrtStream stream = NULL;
    struct CustomAllocatorState state = {0, 0};
    aclrtAllocatorDesc desc, descOut = NULL;
    aclrtAllocator allocatorOut = NULL;
    aclrtAllocatorAllocFunc allocFunc = NULL;
    aclrtAllocatorFreeFunc freeFunc = NULL;
    aclrtAllocatorAllocAdviseFunc allocAdviseFunc = NULL;
    aclrtAllocatorGetAddrFromBlockFunc getAddrFunc = NULL;
    aclrtAllocatorBlock block, advisedBlock;
    void *addr;

    CHECK_ERROR(aclInit(NULL));
    CHECK_ERROR(aclrtSetDevice(deviceId));
    CHECK_ERROR(aclrtCreateContext(&context, deviceId));
    CHECK_ERROR(aclrtCreateStream(&stream));
    desc = aclrtAllocatorCreateDesc();
    CHECK_NOT_NULL(desc, "aclrtAllocatorCreateDesc");
    CHECK_ERROR(aclrtAllocatorSetObjToDesc(desc, (aclrtAllocator)&state));
    CHECK_ERROR(aclrtAllocatorSetAllocFuncToDesc(desc, CustomAlloc));
    CHECK_ERROR(aclrtAllocatorSetFreeFuncToDesc(desc, CustomFree));
    CHECK_ERROR(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, CustomAllocAdvise));
    CHECK_ERROR(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, CustomGetAddrFromBlock));
    CHECK_ERROR(aclrtAllocatorRegister(stream, desc));
    CHECK_ERROR(aclrtAllocatorGetByStream(stream, &descOut, &allocatorOut, &allocFunc, &freeFunc, &allocAdviseFunc,
                                          &getAddrFunc));
    CHECK_NOT_NULL(allocFunc, "allocFunc");
    CHECK_NOT_NULL(freeFunc, "freeFunc");
    CHECK_NOT_NULL(getAddrFunc, "getAddrFunc");
    block = allocFunc(allocatorOut, 256);
    CHECK_NOT_NULL(block, "Custom block");
    addr = getAddrFunc(block);
    CHECK_NOT_NULL(addr, "Custom block addr");
    memset(addr, 0xAB, 256);
    if (allocAdviseFunc != NULL) {
        advisedBlock = allocAdviseFunc(allocatorOut, 128, NULL);
        if (advisedBlock != NULL)
            freeFunc(allocatorOut, advisedBlock);
    }
    freeFunc(allocatorOut, block);
    INFO_LOG("Allocator desc queried: descOut=%p allocCount=%u freeCount=%u", descOut, state.allocCount,
             state.freeCount);
    CHECK_ERROR(aclrtAllocatorUnregister(stream));
    CHECK_ERROR(aclrtAllocatorDestroyDesc(desc));
    CHECK_ERROR(aclrtDestroyStream(stream));
    CHECK_ERROR(aclrtDestroyContext(context));
    CHECK_ERROR(aclrtResetDeviceForce(deviceId));
    CHECK_ERROR(aclFinalize());
    return 0;
}
