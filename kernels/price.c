/* price.c — the roofline of one kernel (see price.h). */
#include "price.h"

static double ceil_div(double a, double b) { return (double)(long long)((a + b - 1) / b); }

double kern_price_slices(const kern_price *p, int m, int n, int k)
{
    if (p->sms <= 0 || p->tile <= 0) return 1;
    double tiles = ceil_div(m, p->tile) * ceil_div(n, p->tile), split = 1;
    if (tiles < p->sms) {
        split = (double)(long long)(p->sms / tiles);
        double most = ceil_div(k, p->tile); /* no slice shallower than one tile */
        if (split > most) split = most;
        if (split < 1) split = 1;
    }
    return tiles * split;
}

double kern_price_gemm(const kern_price *p, int m, int n, int k)
{
    if (m <= 0 || n <= 0 || k <= 0) return 0;
    if (p->sms <= 0 || p->tile <= 0) return 2.0 * m * n * k / p->flops + p->kernel_s;
    double slices = kern_price_slices(p, m, n, k), tiles = ceil_div(m, p->tile) * ceil_div(n, p->tile);
    double depth = ceil_div(k, slices / tiles), waves = ceil_div(slices, p->sms);
    double t_flop = waves * p->sms * 2.0 * p->tile * p->tile * depth / p->flops;
    double t_byte = p->elem * ((double)m * k + (double)k * n + (double)m * n) / p->bytes;
    return (t_flop > t_byte ? t_flop : t_byte) + p->kernel_s;
}

double kern_price_mem(const kern_price *p, double bytes, int kernels)
{
    return (bytes > 0 ? bytes / p->bytes : 0) + (kernels > 0 ? kernels * p->kernel_s : 0);
}
