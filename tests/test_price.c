/* test_price.c — kernels/price.c by hand: a GEMM that fills whole waves costs its FLOPs at the rate, one
 * tile more costs a whole wave more, split-K fills idle SMs but no slice is shallower than a tile, the
 * memory side of the roofline wins when bytes are dear, the linear model without SMs, the kernel cost. */
#include "price.h"
#include "test.h"

#include <math.h>

static int near(double a, double b) { return fabs(a - b) <= 1e-12 * (fabs(b) + 1); }

int main(void)
{
    /* 4 SMs at 1 flop/s each, 2x2 tiles, memory nearly free, 0.5 s a kernel */
    kern_price p = { .flops = 4, .bytes = 1e12, .sms = 4, .tile = 2, .elem = 4, .kernel_s = 0.5 };
    CHECK(near(kern_price_gemm(&p, 4, 4, 3), 24.5), "4 tiles on 4 SMs: 96 flop / 4 + 0.5, got %g",
          kern_price_gemm(&p, 4, 4, 3));
    CHECK(near(kern_price_gemm(&p, 5, 4, 3), 48.5), "6 tiles: two waves, got %g", kern_price_gemm(&p, 5, 4, 3));
    CHECK(near(kern_price_gemm(&p, 3, 3, 3), 24.5), "a ragged tile costs a whole one, got %g",
          kern_price_gemm(&p, 3, 3, 3));
    CHECK(kern_price_slices(&p, 2, 2, 8) == 4, "one tile split 4 ways over k, got %g", kern_price_slices(&p, 2, 2, 8));
    CHECK(near(kern_price_gemm(&p, 2, 2, 8), 16.5), "split-K fills the SMs: 64 flop / 4, got %g",
          kern_price_gemm(&p, 2, 2, 8));
    CHECK(kern_price_slices(&p, 2, 2, 3) == 2, "no slice shallower than a tile: 2, got %g",
          kern_price_slices(&p, 2, 2, 3));
    CHECK(near(kern_price_gemm(&p, 2, 2, 3), 16.5), "2 slices of depth 2, got %g", kern_price_gemm(&p, 2, 2, 3));
    CHECK(kern_price_gemm(&p, 0, 4, 4) == 0 && kern_price_gemm(&p, 4, 4, 0) == 0, "an empty GEMM is no kernel");
    p.bytes = 1; /* 4 x (4 + 4 + 4) bytes at 1 B/s beat 16 s of FLOPs */
    CHECK(near(kern_price_gemm(&p, 2, 2, 2), 48.5), "memory-bound GEMM: 48 bytes, got %g",
          kern_price_gemm(&p, 2, 2, 2));
    p.elem = 2;
    CHECK(near(kern_price_gemm(&p, 2, 2, 2), 24.5), "2-byte operands halve it, got %g", kern_price_gemm(&p, 2, 2, 2));
    kern_price lin = { .flops = 4, .bytes = 1, .sms = 0, .tile = 0, .elem = 4, .kernel_s = 0 };
    CHECK(kern_price_gemm(&lin, 5, 4, 3) == 2.0 * 5 * 4 * 3 / 4, "no SMs: 2mnk / rate exactly, got %g",
          kern_price_gemm(&lin, 5, 4, 3));
    CHECK(kern_price_slices(&lin, 5, 4, 3) == 1, "no tile model: one slice");
    p.bytes = 10;
    CHECK(near(kern_price_mem(&p, 100, 3), 11.5), "100 bytes at 10 B/s + 3 kernels, got %g",
          kern_price_mem(&p, 100, 3));
    CHECK(kern_price_mem(&p, 0, 0) == 0, "nothing moved, no kernel: 0");
    /* small batches lose efficiency: per image, batch 1 costs more than batch 64 of the same layer */
    kern_price h = { .flops = 850e12, .bytes = 3e12, .sms = 132, .tile = 128, .elem = 2, .kernel_s = 2e-6 };
    double b1 = kern_price_gemm(&h, 256, 1 * 56 * 56, 576), b64 = kern_price_gemm(&h, 256, 64 * 56 * 56, 576) / 64;
    CHECK(b1 > 2 * b64, "batch 1 per image %g s, batch 64 %g s: expected the small batch dearer", b1, b64);
    return TEST_REPORT();
}
