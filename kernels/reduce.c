/* reduce.c — vectorisable element-wise reductions (the real backend of reduce.h).
 * Each (type, op) has two loops: an accumulate loop (out == a) and a three-operand loop, both with
 * restrict pointers so the compiler vectorises without run-time alias checks. The loops run in
 * blocks of KERN_BLOCK elements with a scalar tail: a fixed-length inner loop is vectorised at -O2
 * too (GCC 12's -O2 "very cheap" cost model leaves a plain loop of unknown length scalar, which
 * halved in-cache throughput; ddlbench kernels measures it). */
#include "reduce.h"
#include "half.h"

#include <stdint.h>

typedef void (*acc_fn)(void *restrict o, const void *restrict b, size_t n);
typedef void (*tri_fn)(void *restrict o, const void *restrict a, const void *restrict b, size_t n);

#define KERN_BLOCK 16 /* elements per vectorised block: 64 bytes of float32 */

#define SUM(x, y) ((x) + (y))
#define MAX(x, y) ((x) > (y) ? (x) : (y))
#define MIN(x, y) ((x) < (y) ? (x) : (y))

/* Plain types: T is the element type, F the op. */
#define PLAIN_LOOPS(NAME, T, F)                                                              \
    static void NAME##_acc(void *restrict vo, const void *restrict vb, size_t n)            \
    {                                                                                        \
        T *restrict o = vo; const T *restrict b = vb;                                        \
        size_t i = 0;                                                                        \
        for (; i + KERN_BLOCK <= n; i += KERN_BLOCK)                                         \
            for (size_t j = i; j < i + KERN_BLOCK; j++) o[j] = F(o[j], b[j]);                \
        for (; i < n; i++) o[i] = F(o[i], b[i]);                                             \
    }                                                                                        \
    static void NAME##_tri(void *restrict vo, const void *restrict va, const void *restrict vb, \
                           size_t n)                                                         \
    {                                                                                        \
        T *restrict o = vo; const T *restrict a = va, *restrict b = vb;                      \
        size_t i = 0;                                                                        \
        for (; i + KERN_BLOCK <= n; i += KERN_BLOCK)                                         \
            for (size_t j = i; j < i + KERN_BLOCK; j++) o[j] = F(a[j], b[j]);                \
        for (; i < n; i++) o[i] = F(a[i], b[i]);                                             \
    }

/* 16-bit floats: widen to float, apply F, round back once. */
#define HALF_LOOPS(NAME, TOF, FROMF, F)                                                      \
    static void NAME##_acc(void *restrict vo, const void *restrict vb, size_t n)            \
    {                                                                                        \
        uint16_t *restrict o = vo; const uint16_t *restrict b = vb;                          \
        size_t i = 0;                                                                        \
        for (; i + KERN_BLOCK <= n; i += KERN_BLOCK)                                         \
            for (size_t j = i; j < i + KERN_BLOCK; j++) o[j] = FROMF(F(TOF(o[j]), TOF(b[j]))); \
        for (; i < n; i++) o[i] = FROMF(F(TOF(o[i]), TOF(b[i])));                            \
    }                                                                                        \
    static void NAME##_tri(void *restrict vo, const void *restrict va, const void *restrict vb, \
                           size_t n)                                                         \
    {                                                                                        \
        uint16_t *restrict o = vo; const uint16_t *restrict a = va, *restrict b = vb;        \
        size_t i = 0;                                                                        \
        for (; i + KERN_BLOCK <= n; i += KERN_BLOCK)                                         \
            for (size_t j = i; j < i + KERN_BLOCK; j++) o[j] = FROMF(F(TOF(a[j]), TOF(b[j]))); \
        for (; i < n; i++) o[i] = FROMF(F(TOF(a[i]), TOF(b[i])));                            \
    }

PLAIN_LOOPS(f32_sum, float, SUM)
PLAIN_LOOPS(f32_max, float, MAX)
PLAIN_LOOPS(f32_min, float, MIN)
PLAIN_LOOPS(f64_sum, double, SUM)
PLAIN_LOOPS(f64_max, double, MAX)
PLAIN_LOOPS(f64_min, double, MIN)
PLAIN_LOOPS(i32_sum, int32_t, SUM)
PLAIN_LOOPS(i32_max, int32_t, MAX)
PLAIN_LOOPS(i32_min, int32_t, MIN)
HALF_LOOPS(f16_sum, kern_f16_to_f32, kern_f32_to_f16, SUM)
HALF_LOOPS(f16_max, kern_f16_to_f32, kern_f32_to_f16, MAX)
HALF_LOOPS(f16_min, kern_f16_to_f32, kern_f32_to_f16, MIN)
HALF_LOOPS(bf16_sum, kern_bf16_to_f32, kern_f32_to_bf16, SUM)
HALF_LOOPS(bf16_max, kern_bf16_to_f32, kern_f32_to_bf16, MAX)
HALF_LOOPS(bf16_min, kern_bf16_to_f32, kern_f32_to_bf16, MIN)

#define ROW(t) { t##_sum_acc, t##_max_acc, t##_min_acc }
static const acc_fn acc_table[KERN_DTYPE_COUNT][KERN_OP_COUNT] = {
    ROW(f32), ROW(f64), ROW(f16), ROW(bf16), ROW(i32),
};
#undef ROW
#define ROW(t) { t##_sum_tri, t##_max_tri, t##_min_tri }
static const tri_fn tri_table[KERN_DTYPE_COUNT][KERN_OP_COUNT] = {
    ROW(f32), ROW(f64), ROW(f16), ROW(bf16), ROW(i32),
};
#undef ROW

void kern_reduce_set_working_set(size_t bytes) { (void)bytes; } /* a hint for the simulation only */

void kern_reduce(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n)
{
    if (n == 0) return;
    if (out == a)
        acc_table[dt][op](out, b, n);
    else if (out == b)
        acc_table[dt][op](out, a, n); /* every op here is commutative */
    else
        tri_table[dt][op](out, a, b, n);
}
