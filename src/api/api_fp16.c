/*
 * api_fp16.c - aclFloat16ToFloat and aclFloatToFloat16: IEEE 754 binary16
 * to and from binary32, bit by bit.
 *
 * DESIGN: rounding is to nearest, ties to even, and saturating where the
 * reference saturates (types/fp16_impl.cpp Fp16ToFloat, FloatToFp16, and
 * the notes in acl_base_rt.h): a float whose magnitude is 2^16 or more
 * (infinities and NaNs included) becomes the largest half of its sign,
 * and so does one that rounds up to 2^16 (65520 <= |x| < 65536); a half
 * with an all-ones exponent is read as 2^16 * (1 + mantissa / 1024). Both
 * directions work on the bit patterns alone, so the result does not depend
 * on the FPU's rounding mode or flush-to-zero setting.
 * Threads: any. Locks: none (pure functions).
 */
#include <string.h>

#include "api_int.h"

#define HALF_MAX_FINITE 0x7BFFu  /* 65504 */
#define F32_EXP_SHIFT 23
#define F32_HALF_BIAS_DIFF 112u  /* 127 - 15 */
#define F32_2P16 0x47800000u     /* 2^16: from here on, saturate */
#define F32_2PM14 0x38800000u    /* 2^-14: the smallest normal half */
#define F32_2PM25 0x33000000u    /* 2^-25: half the smallest subnormal half */

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static uint32_t float_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value)
{
    uint32_t sign = (uint32_t)(value & 0x8000u) << 16;
    uint32_t exp = (value >> 10) & 0x1Fu;
    uint32_t man = value & 0x3FFu;

    if (exp == 0) {
        if (man == 0)
            return bits_to_float(sign); /* a zero of its sign */
        /* Subnormal, man * 2^-24: move the leading one up to bit 10, each
         * step one below 2^-14; the float's biased exponent ends between
         * 103 (man 1) and 112. */
        uint32_t fexp = 1u + F32_HALF_BIAS_DIFF;
        while ((man & 0x400u) == 0) {
            man <<= 1;
            fexp--;
        }
        return bits_to_float(sign | fexp << F32_EXP_SHIFT | (man & 0x3FFu) << 13);
    }
    /* Normal, and the all-ones exponent read as 16 (the reference keeps no
     * infinity or NaN): 2^(exp-15) * (1 + man/1024), exact in a float. */
    return bits_to_float(sign | (exp + F32_HALF_BIAS_DIFF) << F32_EXP_SHIFT | man << 13);
}

/* Rounds mag >> shift to nearest, ties to even (shift 1..31). */
static uint32_t shift_round_even(uint32_t mag, unsigned shift)
{
    uint32_t q = mag >> shift;
    uint32_t rest = mag & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (q & 1u) != 0))
        q++;
    return q;
}

ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value)
{
    uint32_t bits = float_to_bits(value);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    uint32_t mag = bits & 0x7FFFFFFFu;
    uint32_t h;

    if (mag >= F32_2P16) /* too large, infinite or NaN: saturate */
        return (aclFloat16)(sign | HALF_MAX_FINITE);
    if (mag >= F32_2PM14) {
        /* Normal: rebias the exponent, then drop 13 mantissa bits. A carry
         * out of the mantissa steps the exponent up, which is the right
         * result; up to exponent 31, which is past the largest half. */
        h = shift_round_even(mag - (F32_HALF_BIAS_DIFF << F32_EXP_SHIFT), 13);
        return (aclFloat16)(sign | (h >= 0x7C00u ? HALF_MAX_FINITE : h));
    }
    if (mag <= F32_2PM25) /* at most half the smallest subnormal: zero (a tie goes to the even 0) */
        return (aclFloat16)sign;
    /* Subnormal result: (1.m * 2^23) * 2^(e-127) / 2^-24 = significand >> (126 - e),
     * e from 102 to 112, a shift of 14 to 24. Rounding up to 0x400 gives
     * the smallest normal, whose pattern it is. */
    {
        uint32_t e = mag >> F32_EXP_SHIFT;
        uint32_t significand = (mag & 0x7FFFFFu) | 0x800000u;
        h = shift_round_even(significand, 126u - e);
    }
    return (aclFloat16)(sign | h);
}
