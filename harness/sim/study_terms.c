/* study_terms.c — the epoch's padded last step and Horovod's per-cycle coordination (study_terms.h). */
#include "study_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int epoch_mode_parse(const char *v, int *mode)
{
    if (!strcmp(v, "fill")) return *mode = EPOCH_FILL, 0;
    if (!strcmp(v, "carry")) return *mode = EPOCH_CARRY, 0;
    return -1;
}

const char *epoch_mode_name(int mode) { return mode == EPOCH_FILL ? "fill" : mode == EPOCH_CARRY ? "carry" : "?"; }

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* carry: each epoch's steps from a carried count (RateMatchInputIterator: it stops once the images of the
 * steps so far reach n, and keeps the surplus); the median of 1/steps and the mean steps over `epochs`. */
static int carry(long n, long g, int epochs, double *median_inv, double *mean_steps)
{
    double inv[EPOCH_MAX_EPOCHS], sum = 0;
    long surplus = 0;
    if (epochs < 1 || epochs > EPOCH_MAX_EPOCHS) return -1;
    for (int e = 0; e < epochs; e++) {
        long s = (n - surplus + g - 1) / g; /* the fewest steps that bring the count to n */
        surplus += s * g - n;
        inv[e] = 1.0 / (double)s, sum += (double)s;
    }
    qsort(inv, (size_t)epochs, sizeof *inv, by_value);
    *median_inv = epochs % 2 ? inv[epochs / 2] : (inv[epochs / 2 - 1] + inv[epochs / 2]) / 2;
    *mean_steps = sum / epochs;
    return 0;
}

int epoch_ratio(long n, long w, long b, int mode, int epochs, double r[EPOCH_READINGS])
{
    if (n < w || w < 1 || b < 1) return -1;
    double g = (double)w * (double)b;
    if (mode == EPOCH_FILL) {
        long steps = (n / w + b - 1) / b;
        r[0] = r[1] = (double)n / ((double)steps * g);
        return 1;
    }
    double median_inv, mean_steps;
    if (mode != EPOCH_CARRY || carry(n, w * b, epochs, &median_inv, &mean_steps)) return -1;
    r[0] = (double)n * median_inv / g, r[1] = (double)n / (mean_steps * g);
    return 2;
}

/* Latency between ranks a and b of pf, packed gpus_per_node a node: in a node, across a leaf, across the spine. */
static double pair_lat(const platform *pf, int a, int b)
{
    int g = pf->gpus_per_node, na = a / g, nb = b / g;
    if (na == nb) return pf->intra_lat;
    if (pf->leaf_nodes > 0 && na / pf->leaf_nodes != nb / pf->leaf_nodes && pf->spine_lat > 0) return pf->spine_lat;
    return pf->inter_lat;
}

/* Recursive doubling's latency over every rank: p = q + r (q a power of two), the first 2r ranks folded in
 * pairs (2v, 2v + 1) before and after, then lg q rounds of v <-> v ^ mask among the virtual ranks (v < r: real
 * rank 2v + 1, else v + r, as Open MPI's and collectives/allreduce_rdb.c's folding); each round as long as its
 * slowest pair. The vector's few words cost no bandwidth term. */
static double rdb_latency(const platform *pf, int p)
{
    int q = 1, r;
    double t = 0, x;
    while (q * 2 <= p) q *= 2;
    r = p - q;
    for (int v = 0; v < r; v++) x = pair_lat(pf, 2 * v, 2 * v + 1), t = x > t ? x : t;
    t *= 2; /* the fold in and the result back (0 without extra ranks) */
    for (int mask = 1; mask < q; mask *= 2) {
        double round = 0;
        for (int v = 0; v < q; v++) {
            int a = v < r ? 2 * v + 1 : v + r, w = v ^ mask, b = w < r ? 2 * w + 1 : w + r;
            x = pair_lat(pf, a, b), round = x > round ? x : round;
        }
        t += round;
    }
    return t;
}

int sync_seconds(const platform *pf, double bytes, double *seconds, char *err, size_t errlen)
{
    long p = (long)pf->nodes * pf->gpus_per_node;
    *seconds = 0;
    if (!(bytes > 0) || p > PLATFORM_MAX_HOSTS)
        return snprintf(err, errlen, "horovod_sync_bytes: %g bytes on %ld ranks; expected > 0 bytes, at most %d ranks",
                        bytes, p, PLATFORM_MAX_HOSTS), 2;
    if (p > 1) *seconds = rdb_latency(pf, (int)p);
    return 0;
}

/* Simpson's rule over [-12, 12] of x n phi(x) Phi(x)^(n - 1): the density of the largest of n draws, x-weighted. */
double spread_max_mean(int n)
{
    const int steps = 8000;
    const double a = -12, h = 24.0 / steps;
    double sum = 0;
    if (n <= 1) return 0;
    for (int i = 0; i <= steps; i++) {
        double x = a + i * h, w = i == 0 || i == steps ? 1 : i % 2 ? 4 : 2;
        double phi = 0.3989422804014327 * exp(-x * x / 2), cdf = 0.5 * erfc(-x / sqrt(2));
        sum += w * x * n * phi * pow(cdf, n - 1);
    }
    return sum * h / 3;
}

double spread_factor(double pct, int gpus, int base)
{
    if (!(pct > 0) || gpus <= base) return 1;
    return (1 + pct / 100 * spread_max_mean(gpus)) / (1 + pct / 100 * spread_max_mean(base));
}
