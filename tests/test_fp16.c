/*
 * test_fp16.c - aclFloat16ToFloat and aclFloatToFloat16 against an oracle
 * built another way: the value of every half from its fields in double
 * arithmetic (ldexp), and the nearest half to a float found by a binary
 * search in the sorted table of those values, ties to the even pattern.
 * The reference's rules on top of IEEE (types/fp16_impl.cpp): no
 * infinity or NaN either way, a float at or past 2^16, or rounding to it,
 * gives +-65504.
 */
#include <fenv.h>
#include <math.h>

#include "test.h"

#define HALF_COUNT 0x7C00u /* finite non-negative halves: patterns 0 .. 0x7BFF */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

/* A half's value from its fields; the all-ones exponent read as 16, as the
 * reference does. */
static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1F, m = h & 0x3FF;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double table[HALF_COUNT];

static void table_fill(void)
{
    for (uint32_t h = 0; h < HALF_COUNT; h++)
        table[h] = half_value((uint16_t)h);
}

/* The half nearest to x, ties to the even pattern, saturating at 65504. */
static uint16_t nearest_half(float x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs((double)x);
    uint32_t lo = 0, hi = HALF_COUNT - 1;

    if (isnan(x) || a >= 65504.0)
        return sign | 0x7BFF;
    while (lo < hi) { /* the largest lo with table[lo] <= a */
        uint32_t mid = (lo + hi + 1) / 2;
        if (table[mid] <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (table[lo] == a)
        return sign | (uint16_t)lo;
    double below = a - table[lo], above = table[lo + 1] - a;
    if (below < above)
        return sign | (uint16_t)lo;
    if (above < below)
        return sign | (uint16_t)(lo + 1);
    return sign | (uint16_t)((lo & 1) ? lo + 1 : lo);
}

TEST(fp16, every_half_converts_to_its_exact_value_and_back)
{
    for (uint32_t h = 0; h <= 0xFFFF; h++) {
        float f = aclFloat16ToFloat((aclFloat16)h);
        float want = (float)half_value((uint16_t)h);
        if (fbits(f) != fbits(want))
            test_fail(__FILE__, __LINE__, "aclFloat16ToFloat(0x%04x) = %a (0x%08x), want %a (0x%08x)", h, (double)f,
                      fbits(f), (double)want, fbits(want));
        /* The all-ones exponent is 2^16 or more: back it comes saturated. */
        uint16_t back = ((h >> 10) & 0x1F) == 0x1F ? (uint16_t)((h & 0x8000) | 0x7BFF) : (uint16_t)h;
        if (aclFloatToFloat16(f) != back)
            test_fail(__FILE__, __LINE__, "aclFloatToFloat16(aclFloat16ToFloat(0x%04x)) = 0x%04x, want 0x%04x", h,
                      aclFloatToFloat16(f), back);
    }
}

TEST(fp16, half_infinity_and_nan_read_as_finite_numbers_from_65536)
{
    ASSERT(aclFloat16ToFloat(0x7C00) == 65536.0f);
    ASSERT(aclFloat16ToFloat(0xFC00) == -65536.0f);
    ASSERT(aclFloat16ToFloat(0x7E00) == 98304.0f); /* the usual quiet NaN */
    ASSERT(aclFloat16ToFloat(0xFE00) == -98304.0f);
    ASSERT(aclFloat16ToFloat(0x7C01) == 65600.0f);
    ASSERT(aclFloat16ToFloat(0x7FFF) == 131008.0f);
    ASSERT(aclFloat16ToFloat(0x7BFF) == 65504.0f); /* the largest finite half stays itself */
    ASSERT(!isinf(aclFloat16ToFloat(0x7C00)) && !isnan(aclFloat16ToFloat(0x7E00)));
}

TEST(fp16, half_subnormals_and_zeros_are_exact)
{
    ASSERT_EQ(fbits(aclFloat16ToFloat(0x0000)), 0x00000000u);
    ASSERT_EQ(fbits(aclFloat16ToFloat(0x8000)), 0x80000000u); /* -0 keeps its sign */
    ASSERT(aclFloat16ToFloat(0x0001) == ldexpf(1.0f, -24));
    ASSERT(aclFloat16ToFloat(0x8001) == -ldexpf(1.0f, -24));
    ASSERT(aclFloat16ToFloat(0x03FF) == ldexpf(1023.0f, -24));
    ASSERT(aclFloat16ToFloat(0x0400) == ldexpf(1.0f, -14));
    ASSERT(aclFloat16ToFloat(0x3C00) == 1.0f);
    ASSERT(aclFloat16ToFloat(0x3555) == 0x1.554p-2f);
}

TEST(fp16, float_nan_and_infinity_saturate_to_65504_of_their_sign)
{
    ASSERT_EQ(aclFloatToFloat16(INFINITY), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(-INFINITY), 0xFBFF);
    ASSERT_EQ(aclFloatToFloat16(bitsf(0x7FC00000u)), 0x7BFF); /* quiet NaN */
    ASSERT_EQ(aclFloatToFloat16(bitsf(0xFFC00000u)), 0xFBFF); /* its sign bit decides */
    ASSERT_EQ(aclFloatToFloat16(bitsf(0x7F800001u)), 0x7BFF); /* signalling NaN */
    ASSERT_EQ(aclFloatToFloat16(bitsf(0x7FFFFFFFu)), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(bitsf(0xFFFFFFFFu)), 0xFBFF);
    /* Every NaN pattern, sampled. */
    for (uint32_t u = 0x7F800001u; u <= 0x7FFFFFFFu && u >= 0x7F800001u; u += 4099u) {
        ASSERT_EQ(aclFloatToFloat16(bitsf(u)), 0x7BFF);
        ASSERT_EQ(aclFloatToFloat16(bitsf(u | 0x80000000u)), 0xFBFF);
    }
}

/* IEEE would give infinity from 65520 (the tie between 65504 and 2^16) on;
 * the reference keeps the largest finite half. */
TEST(fp16, float_overflow_saturates_instead_of_rounding_to_infinity)
{
    ASSERT_EQ(aclFloatToFloat16(65504.0f), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(65520.0f, 0.0f)), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(65520.0f), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(65520.0f, INFINITY)), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(65536.0f, 0.0f)), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(65536.0f), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(1e10f), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(3.4028235e38f), 0x7BFF);
    ASSERT_EQ(aclFloatToFloat16(-65520.0f), 0xFBFF);
    ASSERT_EQ(aclFloatToFloat16(-3.4028235e38f), 0xFBFF);
    /* The last tie below: 65488 lies between 65472 (0x7BFE, even) and 65504. */
    ASSERT_EQ(aclFloatToFloat16(65488.0f), 0x7BFE);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(65488.0f, INFINITY)), 0x7BFF);
}

TEST(fp16, float_rounds_every_tie_to_even_and_every_near_tie_to_nearest)
{
    table_fill();
    for (uint32_t lo = 0; lo + 1 < HALF_COUNT; lo++) {
        float mid = (float)((table[lo] + table[lo + 1]) / 2); /* 12 significant bits: exact */
        uint16_t even = (uint16_t)((lo & 1) ? lo + 1 : lo);
        ASSERT((double)mid == (table[lo] + table[lo + 1]) / 2);
        if (aclFloatToFloat16(mid) != even)
            test_fail(__FILE__, __LINE__, "tie %a between 0x%04x and 0x%04x gave 0x%04x, want 0x%04x", (double)mid,
                      lo, lo + 1, aclFloatToFloat16(mid), even);
        ASSERT_EQ(aclFloatToFloat16(-mid), 0x8000 | even);
        ASSERT_EQ(aclFloatToFloat16(nextafterf(mid, INFINITY)), lo + 1);
        ASSERT_EQ(aclFloatToFloat16(nextafterf(mid, 0.0f)), lo);
        ASSERT_EQ(aclFloatToFloat16(-nextafterf(mid, INFINITY)), 0x8000 | (lo + 1));
        ASSERT_EQ(aclFloatToFloat16(-nextafterf(mid, 0.0f)), 0x8000 | lo);
    }
}

TEST(fp16, float_subnormal_and_zero_boundaries)
{
    float tiny = ldexpf(1.0f, -25); /* half of the smallest subnormal half */
    ASSERT_EQ(aclFloatToFloat16(0.0f), 0x0000);
    ASSERT_EQ(aclFloatToFloat16(-0.0f), 0x8000);
    ASSERT_EQ(aclFloatToFloat16(bitsf(0x00000001u)), 0x0000); /* float subnormals */
    ASSERT_EQ(aclFloatToFloat16(bitsf(0x807FFFFFu)), 0x8000);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(tiny, 0.0f)), 0x0000);
    ASSERT_EQ(aclFloatToFloat16(tiny), 0x0000); /* a tie: to the even 0 */
    ASSERT_EQ(aclFloatToFloat16(-tiny), 0x8000);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(tiny, 1.0f)), 0x0001);
    ASSERT_EQ(aclFloatToFloat16(ldexpf(1.0f, -24)), 0x0001);
    ASSERT_EQ(aclFloatToFloat16(ldexpf(3.0f, -25)), 0x0002); /* 1.5 units: to the even 2 */
    ASSERT_EQ(aclFloatToFloat16(ldexpf(5.0f, -25)), 0x0002); /* 2.5 units: to the even 2 */
    ASSERT_EQ(aclFloatToFloat16(ldexpf(1023.0f, -24)), 0x03FF);
    ASSERT_EQ(aclFloatToFloat16(ldexpf(2047.0f, -25)), 0x0400); /* 1023.5 units: up to the smallest normal */
    ASSERT_EQ(aclFloatToFloat16(nextafterf(ldexpf(2047.0f, -25), 0.0f)), 0x03FF);
    ASSERT_EQ(aclFloatToFloat16(ldexpf(1.0f, -14)), 0x0400);
    ASSERT_EQ(aclFloatToFloat16(nextafterf(ldexpf(1.0f, -14), 0.0f)), 0x0400);
}

/* Every 997th float pattern of each sign, from 0 to infinity, against the
 * oracle: the ranges between the boundaries the other tests pin. */
TEST(fp16, float_converts_to_the_nearest_half_across_the_whole_range)
{
    table_fill();
    for (uint32_t u = 0; u <= 0x7F800000u; u += 997u) {
        float x = bitsf(u);
        if (aclFloatToFloat16(x) != nearest_half(x))
            test_fail(__FILE__, __LINE__, "aclFloatToFloat16(%a) = 0x%04x, want 0x%04x", (double)x,
                      aclFloatToFloat16(x), nearest_half(x));
        x = bitsf((u + 331u) | 0x80000000u);
        if (aclFloatToFloat16(x) != nearest_half(x))
            test_fail(__FILE__, __LINE__, "aclFloatToFloat16(%a) = 0x%04x, want 0x%04x", (double)x,
                      aclFloatToFloat16(x), nearest_half(x));
    }
}

/* The conversions work on bit patterns: the FPU's rounding mode changes
 * nothing. */
TEST(fp16, conversions_ignore_the_rounding_mode)
{
    static const int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO, FE_TONEAREST};
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        ASSERT_EQ(fesetround(modes[i]), 0);
        ASSERT_EQ(aclFloatToFloat16(1.0f + ldexpf(1.0f, -11)), 0x3C00);                      /* tie, to even */
        ASSERT_EQ(aclFloatToFloat16(1.0f + ldexpf(3.0f, -11)), 0x3C02);                      /* tie, to even */
        ASSERT_EQ(aclFloatToFloat16(-(1.0f + ldexpf(1.0f, -11) + ldexpf(1.0f, -20))), 0xBC01); /* above the tie */
        ASSERT_EQ(aclFloatToFloat16(ldexpf(1.0f, -25)), 0x0000);
        ASSERT(aclFloat16ToFloat(0x3555) == 0x1.554p-2f);
    }
}
