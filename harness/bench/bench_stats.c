/* bench_stats.c — median, min and p99 of per-iteration times, and the spread of per-rank times with
 * its stragglers (see bench.h). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int bench_rank_straggler(const bench_ranks *r, double t)
{
    double lag = t - r->median;
    return lag > BENCH_STRAGGLER_MADS * r->mad && lag > BENCH_STRAGGLER_FLOOR * r->median;
}

int bench_rank_spread(const double *t, int p, bench_ranks *out)
{
    double *v = malloc((size_t)p * sizeof *v);
    bench_stats st;
    if (!v) return -1;
    memcpy(v, t, (size_t)p * sizeof *v);
    bench_summarise(v, (size_t)p, &st);
    out->median = st.median;
    out->slowest = 0;
    for (int r = 0; r < p; r++) {
        v[r] = fabs(t[r] - st.median);
        if (t[r] > t[out->slowest]) out->slowest = r;
    }
    bench_summarise(v, (size_t)p, &st);
    out->mad = st.median;
    out->lag = t[out->slowest] - out->median;
    out->stragglers = 0;
    for (int r = 0; r < p; r++) out->stragglers += bench_rank_straggler(out, t[r]);
    free(v);
    return 0;
}
