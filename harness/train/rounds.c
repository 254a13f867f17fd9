/* rounds.c — interleaved rounds, their statistics and the significance rule (rounds.h). */
#include "rounds.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int rounds_default(int nconfigs, int simulated) { return simulated || nconfigs < 2 ? 1 : ROUNDS_DEFAULT_REAL; }

void rounds_order(int i, int nconfigs, int *round, int *config)
{
    *round = i / nconfigs;
    *config = i % nconfigs;
}

void rounds_summarise(const double *v, size_t n, double *work, rounds_stats *out)
{
    stats_summary st;
    stats_summarise(v, n, work, &st);
    *out = (rounds_stats){ .median = st.median, .min = st.min, .max = st.max, .q1 = st.q1, .q3 = st.q3, .n = n };
}

void rounds_median_breakdown(const double *x, int nf, size_t n, int key, double *work, double *out)
{
    const double *k = x + (size_t)key * n;
    memcpy(work, k, n * sizeof *work);
    stats_sort(work, n);
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
