/* stats.c — comparator, median, type-7 quantiles, MAD and relative error (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int stats_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    if (isnan(x) || isnan(y)) return !isnan(x) - !isnan(y); /* NAN first, two NANs equal */
    return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n) { qsort(v, n, sizeof *v, stats_cmp_double); }

double stats_median_sorted(const double *s, size_t n) { return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]); }

double stats_quantile_sorted(const double *s, size_t n, double p)
{
    double h = (double)(n - 1) * p, lo = floor(h);
    size_t k = (size_t)lo;
    return k + 1 < n ? s[k] + (h - lo) * (s[k + 1] - s[k]) : s[n - 1];
}

double stats_rank_sorted(const double *s, size_t n, double p)
{
    size_t k = (size_t)ceil(p * (double)n);
    return s[(k ? k : 1) - 1];
}

double stats_median(double *v, size_t n)
{
    stats_sort(v, n);
    return stats_median_sorted(v, n);
}

double stats_mad(const double *v, size_t n, double *work)
{
    memcpy(work, v, n * sizeof *work);
    double m = stats_median(work, n);
    for (size_t i = 0; i < n; i++) work[i] = fabs(v[i] - m);
    return stats_median(work, n);
}

void stats_summarise(const double *v, size_t n, double *work, stats_summary *out)
{
    memcpy(work, v, n * sizeof *work);
    stats_sort(work, n);
    out->n = n;
    out->min = work[0], out->max = work[n - 1];
    out->median = stats_median_sorted(work, n);
    out->q1 = stats_quantile_sorted(work, n, 0.25), out->q3 = stats_quantile_sorted(work, n, 0.75);
    out->mad = stats_mad(v, n, work);
}

double stats_rel_error(double model, double ref) { return ref > 0 ? (model - ref) / ref : NAN; }
