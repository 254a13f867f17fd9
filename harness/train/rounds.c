/* rounds.c — interleaved rounds, their statistics and the significance rule (rounds.h). */
#include "rounds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rounds_default(int nconfigs, int simulated) { return simulated || nconfigs < 2 ? 1 : ROUNDS_DEFAULT_REAL; }

void rounds_order(int i, int nconfigs, int *round, int *config)
{
    *round = i / nconfigs;
    *config = i % nconfigs;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The p-quantile of sorted s[0..n): s[h] interpolated at h = (n - 1) p. */
static double quantile(const double *s, size_t n, double p)
{
    double h = (double)(n - 1) * p, lo = floor(h);
    size_t k = (size_t)lo;
    return k + 1 < n ? s[k] + (h - lo) * (s[k + 1] - s[k]) : s[n - 1];
}

void rounds_summarise(const double *v, size_t n, double *work, rounds_stats *out)
{
    memcpy(work, v, n * sizeof *work);
    qsort(work, n, sizeof *work, cmp_double);
    out->n = n;
    out->min = work[0], out->max = work[n - 1];
    out->median = n % 2 ? work[n / 2] : 0.5 * (work[n / 2 - 1] + work[n / 2]);
    out->q1 = quantile(work, n, 0.25), out->q3 = quantile(work, n, 0.75);
}

void rounds_median_breakdown(const double *x, int nf, size_t n, int key, double *work, double *out)
{
    const double *k = x + (size_t)key * n;
    memcpy(work, k, n * sizeof *work);
    qsort(work, n, sizeof *work, cmp_double);
    double lo = work[(n - 1) / 2], hi = work[n / 2];
    size_t i1 = 0, i2 = 0;
    while (k[i1] != lo) i1++;                             /* present: work is a permutation of k */
    while (k[i2] != hi || (n % 2 == 0 && i2 == i1)) i2++; /* n even: another sample, even when hi == lo */
    for (int f = 0; f < nf; f++) out[f] = 0.5 * (x[(size_t)f * n + i1] + x[(size_t)f * n + i2]);
}

int rounds_differ(const rounds_stats *a, const rounds_stats *b, const double *ra, const double *rb, int nrounds)
{
    if (a->n < ROUNDS_MIN_SAMPLES || b->n < ROUNDS_MIN_SAMPLES) return ROUNDS_NA;
    double d = a->median - b->median, ia = a->q3 - a->q1, ib = b->q3 - b->q1;
    double fast = a->median < b->median ? a->median : b->median;
    if (fabs(d) <= (ia > ib ? ia : ib) || fabs(d) <= ROUNDS_FLOOR * fast) return ROUNDS_SAME;
    for (int r = 0; ra && rb && nrounds >= 2 && r < nrounds; r++)
        if (d > 0 ? ra[r] <= rb[r] : ra[r] >= rb[r]) return ROUNDS_SAME; /* a round that orders them otherwise */
    return ROUNDS_DIFFER;
}
