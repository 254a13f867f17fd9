/* rounds.h — comparing training configurations you can believe (`ddlbench train` with several
 * algorithms or bucket sizes; no MPI here):
 *   interleaving  the configurations run in rounds, each round every configuration's timed steps once,
 *                 in order (A B A B ..., not A A B B), so a drift of the machine (another job, a
 *                 clock, the page cache) falls on every configuration alike;
 *   statistics    per configuration, over rounds x steps: median, min, max and the quartiles (the
 *                 spread = the interquartile range, IQR = q3 - q1); the breakdown of the median step
 *                 itself, so that its parts add up to the step (medians of parts do not);
 *   significance  two configurations differ when their medians are further apart than the larger of
 *                 their IQRs and than ROUNDS_FLOOR of the faster one's (a deterministic simulation has
 *                 no spread, yet 0.01% is no difference worth a mark) and, over two or more rounds,
 *                 every round's medians order them the same way; else "not significant"; not assessed
 *                 below ROUNDS_MIN_SAMPLES samples each. */
#ifndef HARN_ROUNDS_H
#define HARN_ROUNDS_H

#include <stddef.h>

#define ROUNDS_MAX 32          /* --rounds */
#define ROUNDS_DEFAULT_REAL 3  /* real MPI, two or more configurations */
#define ROUNDS_MIN_SAMPLES 3   /* fewer timed steps than this: no spread, nothing assessed */
#define ROUNDS_FLOOR 0.001     /* differences up to 0.1% of the faster median: not significant */

/* The default number of rounds: 1 under simulation (deterministic: a round repeats exactly) or for one
 * configuration (nothing to interleave), else ROUNDS_DEFAULT_REAL. */
int rounds_default(int nconfigs, int simulated);
/* The i-th run of the interleaved order (0 <= i < rounds x nconfigs): its round and configuration. */
void rounds_order(int i, int nconfigs, int *round, int *config);

typedef struct rounds_stats {
    double median, min, max;
    double q1, q3;        /* quartiles, linear between order statistics (R's type 7, numpy's default) */
    size_t n;             /* samples */
} rounds_stats;

/* Summarises v[0..n) (n >= 1; v is not modified; work: n doubles of scratch). */
void rounds_summarise(const double *v, size_t n, double *work, rounds_stats *out);
/* The breakdown of the median sample: x holds nf fields of n samples each (field f, sample i at
 * x[f * n + i]); key is the field that orders the samples (the step time). out[f] = field f of the
 * sample whose key is the median (n even: the mean of the two middle samples, so out[] adds up as
 * each sample does). work: n doubles of scratch. */
void rounds_median_breakdown(const double *x, int nf, size_t n, int key, double *work, double *out);

enum { ROUNDS_NA = -1, ROUNDS_SAME = 0, ROUNDS_DIFFER = 1 };
/* Whether a and b differ (see above): ROUNDS_DIFFER, ROUNDS_SAME (not significant) or ROUNDS_NA.
 * ra, rb: each round's median (nrounds of them; NULL or nrounds < 2 = no round check). */
int rounds_differ(const rounds_stats *a, const rounds_stats *b, const double *ra, const double *rb, int nrounds);

#endif
