/* half.h — float16 (IEEE binary16) and bfloat16 conversions to and from float32.
 * Both round to nearest, ties to even; NaN stays NaN. Static inline so loops vectorise. */
#ifndef KERN_HALF_H
#define KERN_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t kern_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float kern_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static inline float kern_bf16_to_f32(uint16_t h) { return kern_bits_f32((uint32_t)h << 16); }

static inline uint16_t kern_f32_to_bf16(float f)
{
    uint32_t u = kern_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

#if defined(__FLT16_MAX__) && !defined(__CUDACC__)
static inline float kern_f16_to_f32(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static inline uint16_t kern_f32_to_f16(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }
#else
static inline float kern_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) return kern_bits_f32(sign | 0x7f800000u | (man << 13));
    if (exp == 0) { /* zero or subnormal: man * 2^-24 */
        float v = (float)man * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return kern_bits_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t kern_f32_to_f16(float f)
{
    uint32_t u = kern_f32_bits(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);            /* overflow to inf */
    if (a < 0x38800000u) {                                               /* subnormal or zero */
        float v = kern_bits_f32(a) * 16777216.0f;                        /* scale to units of 2^-24 */
        uint32_t m = (uint32_t)v; float r = v - (float)m;
        if (r > 0.5f || (r == 0.5f && (m & 1u))) m++;
        return (uint16_t)(sign | m);
    }
    uint32_t e = (a >> 23) - 112u, man = a & 0x7fffffu;
    uint32_t h = (e << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}
#endif

#endif
