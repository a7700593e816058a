/*
 * memory_kernels.c - the kernel of the CANN runtime's advanced-memory
 * samples (example/3_memory_advanced: host_register/0_simple_zero_copy,
 * managed_memory/0_uvm_allocate), built into libmemory_kernels.so.
 *
 * add_custom is the vendor's Ascend C vector add of two FP16 vectors of
 * 8 * 2048 elements, z = x + y, split evenly over the launch's blocks. The
 * samples pass its three pointers with aclrtKernelArgsAppend, so `args`
 * holds them one after the other.
 */
#include <stdint.h>
#include <string.h>

#include <aclcpu/aclcpu.h>

#define KERNEL __attribute__((visibility("default")))
#define TOTAL_LENGTH (8 * 2048)

/* IEEE half <-> float, enough for finite values (what the samples add). */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1F, man = h & 0x3FF, bits;
    float f;
    if (exp == 0) { /* zero or subnormal: man * 2^-24 */
        f = (float)man / 16777216.0f;
        return sign ? -f : f;
    }
    bits = sign | ((exp + 112) << 23) | (man << 13);
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static uint16_t float_to_half(float f)
{
    uint32_t bits, sign, man;
    int32_t exp;
    memcpy(&bits, &f, sizeof(bits));
    sign = (bits >> 16) & 0x8000;
    exp = (int32_t)((bits >> 23) & 0xFF) - 112;
    man = bits & 0x7FFFFF;
    if (exp <= 0) /* too small for a normal half: flush to zero */
        return (uint16_t)sign;
    if (exp >= 31)
        return (uint16_t)(sign | 0x7C00);
    /* Round to nearest, ties to even. */
    man += 0xFFF + ((man >> 13) & 1);
    if (man & 0x800000) {
        man = 0;
        if (++exp >= 31)
            return (uint16_t)(sign | 0x7C00);
    }
    return (uint16_t)(sign | ((uint32_t)exp << 10) | (man >> 13));
}

KERNEL void add_custom(void *args)
{
    uint16_t *p[3];
    uint32_t n = aclcpuGetBlockNum(), i = aclcpuGetBlockIdx();
    uint32_t per = TOTAL_LENGTH / n, begin = i * per, end = i + 1 == n ? TOTAL_LENGTH : begin + per;
    memcpy(p, args, sizeof(p));
    for (uint32_t k = begin; k < end; k++)
        p[2][k] = float_to_half(half_to_float(p[0][k]) + half_to_float(p[1][k]));
}
