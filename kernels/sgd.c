/* sgd.c — real backend of sgd.h. */
#include "sgd.h"

void kern_sgd_f32(float *restrict w, const float *restrict g, float lr, size_t n)
{
    for (size_t i = 0; i < n; i++) w[i] -= lr * g[i];
}

void kern_sgd_set_rate(double bytes_per_s) { (void)bytes_per_s; }
