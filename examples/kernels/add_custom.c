/*
 * add_custom.c - the vendor's add_custom kernels (example/kernel_func/
 * add_custom.cpp and add_custom_tiling.cpp) as aclcpu kernels, for the
 * kernel-launch sample (example/2_advanced_features/kernel/0_launch_kernel).
 *
 * Both add two FP16 vectors, z = x + y, the work split over 8 blocks: block
 * i adds the i-th eighth, tile by tile (double-buffered on the chip: each
 * eighth is cut into 2 * tileNum tiles). Built twice, like the vendor's two
 * fatbins, into modules that both export "add_custom":
 *  - libadd_custom_simple.so: three pointer arguments x, y, z; 8 * 2048
 *    elements, 8 tiles, fixed as in add_custom.cpp;
 *  - libadd_custom_placeholder.so (ADD_CUSTOM_TILING): two more arguments,
 *    pointers to the total length and the tile count, which the sample
 *    passes as placeholders (aclrtKernelArgsAppendPlaceHolder): the
 *    runtime copies their data at launch and points the arguments at it.
 * The argument block holds the pointers one after the other.
 */
#include <stdint.h>
#include <string.h>

#include <acl/acl.h>
#include <aclcpu/aclcpu.h>

#define KERNEL __attribute__((visibility("default")))
#define USE_CORE_NUM 8u
#define BUFFER_NUM 2u

#ifdef ADD_CUSTOM_TILING
#define ARG_COUNT 5
#else
#define ARG_COUNT 3
#define TOTAL_LENGTH (8u * 2048u)
#define TILE_NUM 8u
#endif

/* Adds one tile: n elements from offset `at`. */
static void AddTile(const aclFloat16 *x, const aclFloat16 *y, aclFloat16 *z, uint32_t at, uint32_t n)
{
    for (uint32_t k = at; k < at + n; k++)
        z[k] = aclFloatToFloat16(aclFloat16ToFloat(x[k]) + aclFloat16ToFloat(y[k]));
}

KERNEL void add_custom(void *args)
{
    void *p[ARG_COUNT];
    uint32_t totalLength, tileNum;
    memcpy(p, args, sizeof(p));
#ifdef ADD_CUSTOM_TILING
    totalLength = (uint32_t) * (const int32_t *)p[3];
    tileNum = (uint32_t) * (const int32_t *)p[4];
#else
    totalLength = TOTAL_LENGTH;
    tileNum = TILE_NUM;
#endif
    if (tileNum == 0)
        return;
    uint32_t blockLength = totalLength / USE_CORE_NUM;
    uint32_t tileLength = blockLength / tileNum / BUFFER_NUM;
    uint32_t base = blockLength * aclcpuGetBlockIdx();
    for (uint32_t t = 0; t < tileNum * BUFFER_NUM; t++)
        AddTile(p[0], p[1], p[2], base + t * tileLength, tileLength);
}
