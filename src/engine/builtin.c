/*
 * builtin.c - running the built-in tasks: reductions (aclrtReduceAsync)
 * and random numbers (aclrtRandomNumAsync).
 *
 * DESIGN. A reduction is dst[i] = dst[i] op src[i] over its elements, in
 * the element's own type (half and bfloat16 through float, rounded to
 * nearest even on the way back); EQUAL writes 1 where the two are equal
 * and 0 elsewhere. The random numbers come from Philox4x32-10 (the
 * generator the reference's DSA engine names): its key is the 64-bit
 * seed, its 128-bit counter the 16 bytes at randomCounterAddr (little
 * endian), and a task takes 32-bit words four per counter step, then
 * stores the counter advanced by the steps it used, so the next task on
 * that counter goes on where this one stopped and the same seed and
 * counter give the same numbers. Uniform numbers are in [min, max);
 * normal ones come in pairs by Marsaglia's polar method; truncated normal ones
 * are drawn again until within two standard deviations of the mean; a
 * dropout bitmask keeps element i (bit i%8 of byte i/8 set) when its
 * uniform number is at least the ratio. Parameters given by address
 * (isAddr 1) are read when the task runs. A random task whose memory is
 * not device memory (aclrtMalloc's) fails with 107000 before it touches
 * any; both run under the memory tasks' fault guard (memtask.c): a fault
 * fails the task with 507013.
 *
 * Threads: the executor running the task. Locks: none.
 */
#include <stdint.h>
#include <string.h>

#include "../services/devmem.h"
#include "engine_int.h"

/* ---- half and bfloat16 ------------------------------------------------------- */

static float bits_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof(f));
    return f;
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0) /* zero or subnormal: man * 2^-24 */
        return bits_float(sign) + (sign ? -1.0f : 1.0f) * (float)man * 5.9604644775390625e-8f;
    if (exp == 31)
        return bits_float(sign | 0x7f800000u | (man << 13));
    return bits_float(sign | ((exp + 112u) << 23) | (man << 13));
}

static uint16_t float_to_half(float f)
{
    uint32_t b = float_bits(f), sign = (b >> 16) & 0x8000u, mag = b & 0x7fffffffu;
    if (mag >= 0x7f800000u) /* infinity or NaN */
        return (uint16_t)(sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0));
    if (mag >= 0x477ff000u) /* rounds past the largest half */
        return (uint16_t)(sign | 0x7c00u);
    if (mag < 0x38800000u) { /* below 2^-14: a subnormal half, man = round(|f| * 2^24) */
        float scaled = bits_float(mag) * 16777216.0f; /* exact: a power of two */
        uint32_t q = (uint32_t)scaled;
        float rest = scaled - (float)q;
        if (rest > 0.5f || (rest == 0.5f && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
    {
        uint32_t r = mag - 0x38000000u; /* rebias the exponent */
        uint32_t q = r >> 13, rest = r & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
}

static float bf16_to_float(uint16_t h) { return bits_float((uint32_t)h << 16); }

static uint16_t float_to_bf16(float f)
{
    uint32_t b = float_bits(f);
    if ((b & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((b >> 16) | 0x40u); /* a quiet NaN */
    b += 0x7fffu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

/* ---- reductions ---------------------------------------------------------------- */

#define REDUCE_SUM ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM
#define REDUCE_MAX ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX
#define REDUCE_MIN ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN

/* One operation on a and b in double (exact for every reduced type but
 * wrapping integer sums, done apart below). */
static double reduce_op(uint8_t kind, double a, double b)
{
    switch (kind) {
    case REDUCE_SUM: return a + b;
    case REDUCE_MAX: return a > b ? a : b;
    case REDUCE_MIN: return a < b ? a : b;
    default: return a == b ? 1.0 : 0.0; /* EQUAL */
    }
}

#define REDUCE_INT(T, UT)                                                                                \
    static void reduce_##T(T *d, const T *s, size_t n, uint8_t kind)                                 \
    {                                                                                                    \
        for (size_t i = 0; i < n; i++) {                                                                 \
            if (kind == REDUCE_SUM) /* wraps, as the engine's integer adder does */                     \
                d[i] = (T)(UT)((UT)d[i] + (UT)s[i]);                                                     \
            else                                                                                         \
                d[i] = (T)reduce_op(kind, (double)d[i], (double)s[i]);                                   \
        }                                                                                                \
    }
REDUCE_INT(int8_t, uint8_t)
REDUCE_INT(int16_t, uint16_t)
REDUCE_INT(int32_t, uint32_t)
REDUCE_INT(uint8_t, uint8_t)
REDUCE_INT(uint16_t, uint16_t)
REDUCE_INT(uint32_t, uint32_t)

static void reduce_run(void *arg)
{
    const struct task *t = arg;
    void *dst = t->u.reduce.dst;
    const void *src = t->u.reduce.src;
    size_t n = t->u.reduce.n;
    uint8_t kind = t->u.reduce.kind;
    switch (t->u.reduce.type) {
    case ACL_FLOAT: {
        float *d = dst;
        const float *s = src;
        for (size_t i = 0; i < n; i++)
            d[i] = kind == REDUCE_SUM ? d[i] + s[i] : (float)reduce_op(kind, d[i], s[i]);
        break;
    }
    case ACL_FLOAT16: {
        uint16_t *d = dst;
        const uint16_t *s = src;
        for (size_t i = 0; i < n; i++)
            d[i] = float_to_half((float)reduce_op(kind, half_to_float(d[i]), half_to_float(s[i])));
        break;
    }
    case ACL_BF16: {
        uint16_t *d = dst;
        const uint16_t *s = src;
        for (size_t i = 0; i < n; i++)
            d[i] = float_to_bf16((float)reduce_op(kind, bf16_to_float(d[i]), bf16_to_float(s[i])));
        break;
    }
    case ACL_INT8: reduce_int8_t(dst, src, n, kind); break;
    case ACL_INT16: reduce_int16_t(dst, src, n, kind); break;
    case ACL_INT32: reduce_int32_t(dst, src, n, kind); break;
    case ACL_UINT8: reduce_uint8_t(dst, src, n, kind); break;
    case ACL_UINT16: reduce_uint16_t(dst, src, n, kind); break;
    default: reduce_uint32_t(dst, src, n, kind); break; /* ACL_UINT32: the API admits no other */
    }
}

enum run_result engine_run_reduce(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                  aclError *err)
{
    (void)x, (void)s, (void)in;
    if (!engine_mem_guarded(reduce_run, t, "reduction")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(t->u.reduce.dst, t->u.reduce.n * t->u.reduce.esize);
    return RUN_DONE;
}

/* ---- Philox4x32-10 ----------------------------------------------------------------- */

struct philox {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t out[4];
    unsigned used;   /* words of out[] handed out; 4: generate the next block */
};

static void philox_block(const uint32_t ctr_in[4], const uint32_t key_in[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr_in[0], ctr_in[1], ctr_in[2], ctr_in[3]}, k[2] = {key_in[0], key_in[1]};
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k[0], n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k[1];
        c[1] = (uint32_t)p1;
        c[3] = (uint32_t)p0;
        c[0] = n0;
        c[2] = n2;
        k[0] += 0x9E3779B9u;
        k[1] += 0xBB67AE85u;
    }
    memcpy(out, c, sizeof(c));
}

static void ctr_step(uint32_t ctr[4])
{
    for (int i = 0; i < 4; i++)
        if (++ctr[i] != 0)
            break;
}

static uint32_t philox_next(struct philox *g)
{
    if (g->used == 4) {
        philox_block(g->ctr, g->key, g->out);
        ctr_step(g->ctr);
        g->used = 0;
    }
    return g->out[g->used++];
}

/* The library links no libm (its pkg-config and static-link contracts
 * name pthread and dl only): the two functions the polar method needs. */

/* ln x for x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), and ln m =
 * 2 atanh((m - 1) / (m + 1)) by its series (|s| < 0.172: 12 terms). */
static double ln(double x)
{
    uint64_t b;
    int e;
    double m, s, s2, term, sum = 0.0;
    memcpy(&b, &x, sizeof(b));
    e = (int)((b >> 52) & 0x7ff) - 1023;
    b = (b & 0x000fffffffffffffull) | 0x3ff0000000000000ull; /* m in [1, 2) */
    memcpy(&m, &b, sizeof(m));
    if (m > 1.4142135623730951) {
        m *= 0.5;
        e++;
    }
    s = (m - 1.0) / (m + 1.0);
    s2 = s * s;
    term = s;
    for (int k = 1; k < 26; k += 2) {
        sum += term / k;
        term *= s2;
    }
    return 2.0 * sum + e * 0.6931471805599453;
}

/* The square root of x >= 0 by Newton's method from a halved exponent. */
static double root(double x)
{
    uint64_t b;
    double r;
    if (x <= 0.0)
        return 0.0;
    memcpy(&b, &x, sizeof(b));
    b = (b >> 1) + 0x1ff8000000000000ull;
    memcpy(&r, &b, sizeof(r));
    for (int i = 0; i < 6; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* A uniform float in [0, 1) from a word's top 24 bits. */
static float unit(struct philox *g) { return (float)(philox_next(g) >> 8) * (1.0f / 16777216.0f); }

/* ---- random number tasks ---------------------------------------------------------- */

/* The value of a parameter: its bytes, or (isAddr) the bytes at the
 * address it holds, size of them, as a little-endian integer. */
static uint64_t param_raw(const aclrtRandomParaInfo *p)
{
    uint64_t v = 0;
    if (p->isAddr) {
        const void *addr;
        memcpy(&addr, p->valueOrAddr, sizeof(addr));
        memcpy(&v, addr, p->size);
    } else {
        memcpy(&v, p->valueOrAddr, p->size);
    }
    return v;
}

/* A floating parameter of the task's data type, as a float. */
static float param_float(const aclrtRandomParaInfo *p, aclDataType type)
{
    uint64_t raw = param_raw(p);
    if (type == ACL_FLOAT16)
        return half_to_float((uint16_t)raw);
    if (type == ACL_BF16)
        return bf16_to_float((uint16_t)raw);
    return bits_float((uint32_t)raw);
}

static void store_float(void *out, uint64_t i, aclDataType type, float v)
{
    if (type == ACL_FLOAT16)
        ((uint16_t *)out)[i] = float_to_half(v);
    else if (type == ACL_BF16)
        ((uint16_t *)out)[i] = float_to_bf16(v);
    else
        ((float *)out)[i] = v;
}

static void uniform_ints(struct philox *g, const aclrtRandomNumTaskInfo *ti, void *out, uint64_t num)
{
    const aclrtUniformDisInfo *u = &ti->randomNumFuncParaInfo.paramInfo.uniformDisInfo;
    uint64_t lo = param_raw(&u->min), hi = param_raw(&u->max);
    bool wide = ti->dataType == ACL_INT64 || ti->dataType == ACL_UINT64;
    bool is_signed = ti->dataType == ACL_INT32 || ti->dataType == ACL_INT64;
    uint64_t span;
    if (!wide) { /* widen 32-bit bounds, keeping their sign */
        lo = is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)lo : (uint32_t)lo;
        hi = is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)hi : (uint32_t)hi;
    }
    /* An empty range [min, max) gives min. */
    if (is_signed ? (int64_t)hi <= (int64_t)lo : hi <= lo)
        span = 0;
    else
        span = hi - lo;
    for (uint64_t i = 0; i < num; i++) {
        uint64_t w = philox_next(g);
        uint64_t v;
        if (wide)
            w = (w << 32) | philox_next(g);
        v = lo + (span != 0 ? w % span : 0);
        if (wide)
            ((uint64_t *)out)[i] = v;
        else
            ((uint32_t *)out)[i] = (uint32_t)v;
    }
}

static void random_run(void *arg)
{
    const struct task *t = arg;
    aclrtRandomNumTaskInfo ti;
    const aclrtRandomNumFuncParaInfo *fp;
    struct philox g;
    uint64_t seed, num, words[2];
    void *out;

    memcpy(&ti, t->inline_args, sizeof(ti));
    fp = &ti.randomNumFuncParaInfo;
    out = ti.randomResultAddr;
    seed = param_raw(&ti.randomSeed);
    num = param_raw(&ti.randomNum);
    memcpy(words, ti.randomCounterAddr, sizeof(words));
    g.key[0] = (uint32_t)seed;
    g.key[1] = (uint32_t)(seed >> 32);
    g.ctr[0] = (uint32_t)words[0];
    g.ctr[1] = (uint32_t)(words[0] >> 32);
    g.ctr[2] = (uint32_t)words[1];
    g.ctr[3] = (uint32_t)(words[1] >> 32);
    g.used = 4;

    switch (fp->funcType) {
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK: {
        float ratio = param_float(&fp->paramInfo.dropoutBitmaskInfo.dropoutRation, ti.dataType);
        uint8_t *bytes = out;
        for (uint64_t i = 0; i < num; i++) {
            if (i % 8 == 0)
                bytes[i / 8] = 0;
            if (unit(&g) >= ratio)
                bytes[i / 8] |= (uint8_t)(1u << (i % 8));
        }
        break;
    }
    case ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS:
        if (ti.dataType == ACL_FLOAT || ti.dataType == ACL_FLOAT16 || ti.dataType == ACL_BF16) {
            float lo = param_float(&fp->paramInfo.uniformDisInfo.min, ti.dataType);
            float hi = param_float(&fp->paramInfo.uniformDisInfo.max, ti.dataType);
            for (uint64_t i = 0; i < num; i++)
                store_float(out, i, ti.dataType, lo + unit(&g) * (hi - lo));
        } else {
            uniform_ints(&g, &ti, out, num);
        }
        break;
    default: { /* normal and truncated normal */
        float mean = param_float(&fp->paramInfo.normalDisInfo.mean, ti.dataType);
        float sd = param_float(&fp->paramInfo.normalDisInfo.stddev, ti.dataType);
        bool truncated = fp->funcType == ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS;
        uint64_t i = 0;
        while (i < num) {
            /* Marsaglia's polar method: a point in the unit disc gives two. */
            double u = 2.0 * unit(&g) - 1.0, v = 2.0 * unit(&g) - 1.0, q = u * u + v * v, f;
            double z[2];
            if (q >= 1.0 || q == 0.0)
                continue;
            f = root(-2.0 * ln(q) / q);
            z[0] = u * f;
            z[1] = v * f;
            for (int k = 0; k < 2 && i < num; k++) {
                if (truncated && (z[k] > 2.0 || z[k] < -2.0))
                    continue; /* drawn again */
                store_float(out, i++, ti.dataType, mean + sd * (float)z[k]);
            }
        }
        break;
    }
    }
    /* The counter, advanced by the steps this task took. */
    words[0] = (uint64_t)g.ctr[0] | ((uint64_t)g.ctr[1] << 32);
    words[1] = (uint64_t)g.ctr[2] | ((uint64_t)g.ctr[3] << 32);
    memcpy(ti.randomCounterAddr, words, sizeof(words));
}

static bool in_device(const void *p, uint64_t n) { return n <= SIZE_MAX && devmem_classify(p, (size_t)n) == MEM_DEVICE; }

static bool param_in_device(const aclrtRandomParaInfo *p)
{
    const void *addr;
    if (!p->isAddr)
        return true;
    memcpy(&addr, p->valueOrAddr, sizeof(addr));
    return in_device(addr, p->size);
}

/* What the task reads and writes is device memory: the parameters given
 * by address, the counter, and the results (num of them, or num bits). */
static bool random_ranges_ok(const aclrtRandomNumTaskInfo *ti)
{
    const aclrtRandomNumFuncParaInfo *fp = &ti->randomNumFuncParaInfo;
    uint64_t num, size;
    if (!param_in_device(&ti->randomSeed) || !param_in_device(&ti->randomNum) ||
        !param_in_device(&fp->paramInfo.uniformDisInfo.min) || /* the union's first parameter, whichever */
        (fp->funcType != ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK &&
         !param_in_device(&fp->paramInfo.uniformDisInfo.max)))
        return false;
    if (!in_device(ti->randomCounterAddr, 16))
        return false;
    num = param_raw(&ti->randomNum);
    if (num == 0)
        return true;
    if (fp->funcType == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK)
        return in_device(ti->randomResultAddr, num / 8 + (num % 8 != 0));
    size = ti->dataType == ACL_INT64 || ti->dataType == ACL_UINT64 ? 8
           : ti->dataType == ACL_FLOAT16 || ti->dataType == ACL_BF16 ? 2 : 4;
    return num <= UINT64_MAX / size && in_device(ti->randomResultAddr, num * size);
}

/* One whose memory is not (or no longer) device memory fails (107000)
 * instead of touching memory that is not the device's. */
enum run_result engine_run_random(struct executor *x, struct stream *s, struct task *t, const struct in_run *in,
                                  aclError *err)
{
    aclrtRandomNumTaskInfo ti;
    (void)x, (void)s, (void)in;
    memcpy(&ti, t->inline_args, sizeof(ti));
    if (!random_ranges_ok(&ti)) {
        *err = ACL_ERROR_RT_PARAM_INVALID;
        return RUN_DONE;
    }
    if (!engine_mem_guarded(random_run, t, "random number task")) {
        *err = ACL_ERROR_RT_SYS_DMA;
        return RUN_DONE;
    }
    engine_value_written(ti.randomCounterAddr, 16); /* the counter moved: a value wait on it may pass now */
    return RUN_DONE;
}
