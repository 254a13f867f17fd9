/* bench_stats.c — median, min and p99 of per-iteration times (see bench.h). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_summarise(double *t, size_t n, bench_stats *out)
{
    size_t k;
    qsort(t, n, sizeof *t, cmp_double);
    out->min = t[0];
    out->median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    k = (size_t)ceil(0.99 * (double)n);
    out->p99 = t[(k ? k : 1) - 1];
}
