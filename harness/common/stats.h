/* stats.h — the one statistics layer of ddlbench: one comparator, one median, quantiles, MAD and the
 * relative error, shared by the benchmark (bench_stats.c), the training rounds (rounds.c), the fidelity
 * report (fidelity.c) and the calibration.
 *   median     the middle of the sorted values, the mean of the two middle ones when n is even: the
 *              usual statistical median (R's median(), numpy.median), symmetric in the data, so that
 *              two runs that differ only in order give the same value and a breakdown of the two middle
 *              samples still adds up (rounds_median_breakdown). It equals stats_quantile(s, n, 0.5).
 *   quantile   linear interpolation between order statistics, Hyndman & Fan's type 7 (R's default,
 *              numpy's "linear"): Q(p) = s[h] + (h - floor h)(s[h+1] - s[h]) at h = (n - 1) p.
 *   p-th rank  the nearest-rank quantile (type 1): the ceil(p n)-th smallest (bench's p99, a time some
 *              iteration really took).
 *   MAD        median absolute deviation from the median, unscaled (no 1.4826 factor).
 *   rel. error (model - ref) / ref, signed; NAN when ref is not a positive number.
 * Every function takes n >= 1 values; the sorted forms expect ascending order (stats_sort). NANs are
 * not expected (the comparator orders them first, consistently, so qsort stays defined). */
#ifndef HARN_STATS_H
#define HARN_STATS_H

#include <stddef.h>

/* qsort's comparator of doubles, ascending; NAN before every number. */
int stats_cmp_double(const void *a, const void *b);
/* Sorts v[0..n) ascending in place. */
void stats_sort(double *v, size_t n);

/* The median of sorted s[0..n). */
double stats_median_sorted(const double *s, size_t n);
/* The type-7 p-quantile (0 <= p <= 1) of sorted s[0..n). */
double stats_quantile_sorted(const double *s, size_t n, double p);
/* The nearest-rank p-quantile (0 < p <= 1) of sorted s[0..n): s[ceil(p n) - 1] (s[0] when that is 0). */
double stats_rank_sorted(const double *s, size_t n, double p);
/* The median of v[0..n), v left sorted. */
double stats_median(double *v, size_t n);

typedef struct stats_summary {
    double min, max, median;
    double q1, q3;  /* type-7 quartiles */
    double mad;     /* median of |v - median| */
    size_t n;
} stats_summary;

/* Summarises v[0..n) (not modified); work: n doubles of scratch. */
void stats_summarise(const double *v, size_t n, double *work, stats_summary *out);
/* The median absolute deviation of v[0..n) (not modified); work: n doubles of scratch. */
double stats_mad(const double *v, size_t n, double *work);

/* (model - ref) / ref, or NAN when ref is not > 0. */
double stats_rel_error(double model, double ref);

#endif
