/* test_reduce.c — every (type, op) kernel in its three aliasing forms, lengths around vector widths,
 * and the float16/bfloat16 conversions (all 65,536 bit patterns round-trip; ties go to even). */
#include "half.h"
#include "reduce.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define N 67

static double get(kern_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case KERN_F32: return ((const float *)p)[i];
    case KERN_F64: return ((const double *)p)[i];
    case KERN_F16: return kern_f16_to_f32(((const uint16_t *)p)[i]);
    case KERN_BF16: return kern_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const int32_t *)p)[i];
    }
}

static void put(kern_dtype dt, void *p, size_t i, int v)
{
    switch (dt) {
    case KERN_F32: ((float *)p)[i] = (float)v; break;
    case KERN_F64: ((double *)p)[i] = v; break;
    case KERN_F16: ((uint16_t *)p)[i] = kern_f32_to_f16((float)v); break;
    case KERN_BF16: ((uint16_t *)p)[i] = kern_f32_to_bf16((float)v); break;
    default: ((int32_t *)p)[i] = v; break;
    }
}

static int ref(kern_op op, int a, int b)
{
    return op == KERN_SUM ? a + b : op == KERN_MAX ? (a > b ? a : b) : (a < b ? a : b);
}

static void test_kernels(void)
{
    static const char *const form_names[3] = { "out=a", "out=b", "three-operand" };
    for (int dt = 0; dt < KERN_DTYPE_COUNT; dt++)
        for (int op = 0; op < KERN_OP_COUNT; op++)
            for (int form = 0; form < 3; form++)
                for (size_t n = 0; n <= N; n += (n < 20 ? 1 : 15)) {
                    double a[N], b[N], c[N];
                    int wrong = 0;
                    for (size_t i = 0; i < n; i++) {
                        put(dt, a, i, (int)(i * 7 % 19) - 9);
                        put(dt, b, i, (int)(i * 5 % 23) - 11);
                    }
                    void *out = form == 0 ? (void *)a : form == 1 ? (void *)b : (void *)c;
                    double sa[N], sb[N];
                    memcpy(sa, a, sizeof a);
                    memcpy(sb, b, sizeof b);
                    kern_reduce(dt, op, out, a, b, n);
                    for (size_t i = 0; i < n; i++) {
                        int want = ref(op, (int)get(dt, sa, i), (int)get(dt, sb, i));
                        wrong += get(dt, out, i) != want;
                    }
                    CHECK(wrong == 0, "kernel dtype %d op %d %s n=%zu: %d wrong", dt, op, form_names[form], n, wrong);
                }
}

static void test_half(void)
{
    int f16_bad = 0, bf16_bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = kern_f16_to_f32((uint16_t)h);
        if (!isnan(f) && kern_f32_to_f16(f) != h) f16_bad++;
        if (isnan(f) && !isnan(kern_f16_to_f32(kern_f32_to_f16(f)))) f16_bad++;
        float g = kern_bf16_to_f32((uint16_t)h);
        if (!isnan(g) && kern_f32_to_bf16(g) != h) bf16_bad++;
    }
    CHECK(f16_bad == 0, "float16 round trip: %d patterns differ", f16_bad);
    CHECK(bf16_bad == 0, "bfloat16 round trip: %d patterns differ", bf16_bad);
    CHECK(kern_f32_to_f16(2049.0f) == kern_f32_to_f16(2048.0f), "f16 tie 2049 -> 2048 (even)");
    CHECK(kern_f32_to_f16(2051.0f) == kern_f32_to_f16(2052.0f), "f16 tie 2051 -> 2052 (even)");
    CHECK(kern_f16_to_f32(kern_f32_to_f16(1e6f)) == INFINITY, "f16 overflow to inf");
    CHECK(kern_f16_to_f32(kern_f32_to_f16(5.9604645e-8f)) == 5.9604645e-8f, "f16 smallest subnormal");
    CHECK(kern_bf16_to_f32(kern_f32_to_bf16(257.0f)) == 256.0f, "bf16 tie 257 -> 256 (even)");
    CHECK(kern_bf16_to_f32(kern_f32_to_bf16(259.0f)) == 260.0f, "bf16 tie 259 -> 260 (even)");
    CHECK(isnan(kern_bf16_to_f32(kern_f32_to_bf16(NAN))), "bf16 NaN stays NaN");
}

int main(void)
{
    test_kernels();
    test_half();
    return TEST_REPORT();
}
