/* bench_stats.c — median, min and p99 of per-iteration times, and the spread of per-rank times with
 * its stragglers (see bench.h), on the one statistics layer (common/stats.h). */
#include "bench.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>

void bench_summarise(double *t, size_t n, bench_stats *out)
{
    stats_sort(t, n);
    out->min = t[0];
    out->median = stats_median_sorted(t, n);
    out->p99 = stats_rank_sorted(t, n, 0.99);
}

int bench_rank_straggler(const bench_ranks *r, double t)
{
    double lag = t - r->median;
    return lag > BENCH_STRAGGLER_MADS * r->mad && lag > BENCH_STRAGGLER_FLOOR * r->median;
}

int bench_rank_spread(const double *t, int p, bench_ranks *out)
{
    double *v = malloc((size_t)p * sizeof *v);
    stats_summary st;
    if (!v) return -1;
    stats_summarise(t, (size_t)p, v, &st);
    out->median = st.median;
    out->mad = st.mad;
    out->slowest = 0;
    for (int r = 0; r < p; r++)
        if (t[r] > t[out->slowest]) out->slowest = r;
    out->lag = t[out->slowest] - out->median;
    out->stragglers = 0;
    out->judged = p >= BENCH_STRAGGLER_MIN_RANKS;
    for (int r = 0; out->judged && r < p; r++) out->stragglers += bench_rank_straggler(out, t[r]);
    free(v);
    return 0;
}

const char *bench_stragglers_cell(const bench_ranks *r, int n, char *buf)
{
    if (!r->judged) return "NA";
    snprintf(buf, 16, "%d", n);
    return buf;
}

const char *bench_stragglers_none(const bench_ranks *r)
{
    return r->judged ? " none" : " not judged (the rule needs at least 3 ranks)";
}

int bench_noisy(const bench_stats *st)
{
    return st->median > 0 && (st->p99 > BENCH_NOISY_P99 * st->median || st->min * BENCH_NOISY_P99 < st->median);
}
