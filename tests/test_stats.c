/* test_stats.c — the one statistics layer (harness/common/stats.c): the comparator, the median
 * (mean of the two middles), type-7 quantiles against R's quantile(), nearest-rank, MAD and relative
 * error; then the benchmark statistics (harness/bench/bench_stats.c) built on it: median, min, p99 over
 * iterations, and the per-rank spread: median and MAD of the ranks, the slowest rank, its lag, and the
 * straggler rule (> 2 MAD and > 10% over the median) on ranks that agree, disagree a little, and hold
 * one slow rank. No MPI needed. */
#include "bench.h"
#include "stats.h"
#include "test.h"

#include <string.h>

#include <math.h>

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void test_layer(void)
{
    double a[] = { 3, NAN, -1, 2 }, w[8];
    stats_sort(a, 4);
    CHECK(isnan(a[0]) && a[1] == -1 && a[2] == 2 && a[3] == 3, "NAN first, then ascending: %g %g %g", a[1], a[2], a[3]);
    double one = 7, z = 0;
    CHECK(stats_cmp_double(&one, &z) > 0 && stats_cmp_double(&z, &one) < 0 && stats_cmp_double(&z, &z) == 0, "cmp");
    double odd[] = { 9, 1, 5 }, even[] = { 10, 1, 4, 2 }, single[] = { 4 };
    CHECK(stats_median(odd, 3) == 5 && odd[0] == 1 && odd[2] == 9, "odd median, sorted after");
    CHECK(stats_median(even, 4) == 3, "even median: the mean of 2 and 4, got %g", even[1]);
    CHECK(stats_median(single, 1) == 4 && stats_quantile_sorted(single, 1, 0.75) == 4, "one value");
    /* R: quantile(c(1, 2, 4, 10), c(.25, .5, .75, .9)) = 1.75 3.00 5.50 8.20 (type 7) */
    double s[] = { 1, 2, 4, 10 };
    CHECK(near(stats_quantile_sorted(s, 4, 0.25), 1.75) && near(stats_quantile_sorted(s, 4, 0.5), 3) &&
          near(stats_quantile_sorted(s, 4, 0.75), 5.5) && near(stats_quantile_sorted(s, 4, 0.9), 8.2) &&
          stats_quantile_sorted(s, 4, 0) == 1 && stats_quantile_sorted(s, 4, 1) == 10, "type-7 quantiles");
    CHECK(stats_quantile_sorted(s, 4, 0.5) == stats_median_sorted(s, 4), "the median is the 0.5 quantile");
    CHECK(stats_rank_sorted(s, 4, 0.99) == 10 && stats_rank_sorted(s, 4, 0.5) == 2 &&
          stats_rank_sorted(s, 4, 0.01) == 1,
          "nearest rank");
    double v[] = { 10, 10.2, 30, 9.9, 10.1 };
    stats_summary st;
    stats_summarise(v, 5, w, &st);
    CHECK(st.n == 5 && st.min == 9.9 && st.max == 30 && st.median == 10.1 && near(st.mad, 0.1) && near(st.q1, 10) &&
          near(st.q3, 10.2) && v[2] == 30,
          "summary: %g %g %g %g %g %g", st.min, st.max, st.median, st.mad, st.q1, st.q3);
    CHECK(near(stats_mad(v, 5, w), 0.1) && v[0] == 10, "MAD, input kept");
    CHECK(near(stats_rel_error(115, 100), 0.15) && near(stats_rel_error(65, 100), -0.35) &&
          isnan(stats_rel_error(1, 0)) &&
          isnan(stats_rel_error(1, -2)) && isnan(stats_rel_error(1, NAN)), "relative error");
}

int main(void)
{
    test_layer();
    double t[] = { 5, 1, 4, 2, 3 }, even[] = { 4, 1, 3, 2 };
    bench_stats st;
    bench_summarise(t, 5, &st);
    CHECK(st.median == 3 && st.min == 1 && st.p99 == 5, "odd: %g %g %g", st.median, st.min, st.p99);
    bench_summarise(even, 4, &st);
    CHECK(st.median == 2.5 && st.p99 == 4, "even: %g %g", st.median, st.p99);

    bench_stats q = { 10, 9, 15 }, tail = { 10, 9, 21 }, fast = { 10, 4.9, 12 };
    CHECK(!bench_noisy(&q) && bench_noisy(&tail) && bench_noisy(&fast), "noisy: p99 over 2x or min under half");

    bench_ranks br;
    double one[] = { 7 };
    CHECK(bench_rank_spread(one, 1, &br) == 0 && br.slowest == 0 && br.lag == 0 && br.stragglers == 0, "p = 1");
    double two[] = { 1, 100 };
    char cell[16];
    CHECK(bench_rank_spread(two, 2, &br) == 0 && br.slowest == 1 && br.stragglers == 0 && !br.judged,
          "p = 2: not judged (the rule cannot fire)");
    CHECK(!strcmp(bench_stragglers_cell(&br, 0, cell), "NA") && strstr(bench_stragglers_none(&br), "needs at least 3"),
          "p = 2: NA in the CSV, the reason on the line: %s", bench_stragglers_none(&br));
    double same[] = { 10, 10, 10, 10 };
    bench_rank_spread(same, 4, &br);
    CHECK(br.mad == 0 && br.stragglers == 0 && br.slowest == 0 && br.judged,
          "equal ranks: no straggler, lowest rank slowest");
    CHECK(!strcmp(bench_stragglers_cell(&br, 0, cell), "0") && !strcmp(bench_stragglers_none(&br), " none"),
          "judged: 0 and none");
    double slow[] = { 10, 10.2, 30, 9.9, 10.1 };
    bench_rank_spread(slow, 5, &br);
    CHECK(br.median == 10.1 && near(br.mad, 0.1) && br.slowest == 2 && near(br.lag, 19.9) && br.stragglers == 1,
          "one slow rank: median %g MAD %g slowest %d lag %g stragglers %d", br.median, br.mad, br.slowest, br.lag,
          br.stragglers);
    CHECK(bench_rank_straggler(&br, 30) && !bench_rank_straggler(&br, 10.2), "the flag of single ranks");
    double noise[] = { 10, 10.3, 10.6, 10.9, 9.7 }; /* lag 0.6 = 2 MAD but 6% < 10%: noise */
    bench_rank_spread(noise, 5, &br);
    CHECK(br.stragglers == 0 && br.slowest == 3, "noise flagged: %d", br.stragglers);
    double wide[] = { 10, 5, 15, 12, 8, 14 }; /* lag 4 > 10% but < 2 MAD: a wide spread, not one straggler */
    bench_rank_spread(wide, 6, &br);
    CHECK(br.stragglers == 0, "wide spread flagged: %d (MAD %g)", br.stragglers, br.mad);
    double three[] = { 1.0, 1.5, 1.0 }; /* 3 ranks, 2 alike: MAD 0, the floor decides */
    bench_rank_spread(three, 3, &br);
    CHECK(br.stragglers == 1 && br.slowest == 1, "3 ranks, one slow: %d", br.stragglers);
    return TEST_REPORT();
}
