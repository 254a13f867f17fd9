/* test_stats.c — the benchmark statistics (harness/bench/bench_stats.c): median, min, p99 over
 * iterations, and the per-rank spread: median and MAD of the ranks, the slowest rank, its lag, and the
 * straggler rule (> 2 MAD and > 10% over the median) on ranks that agree, disagree a little, and hold
 * one slow rank. No MPI needed. */
#include "bench.h"
#include "test.h"

#include <math.h>

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

int main(void)
{
    double t[] = { 5, 1, 4, 2, 3 }, even[] = { 4, 1, 3, 2 };
    bench_stats st;
    bench_summarise(t, 5, &st);
    CHECK(st.median == 3 && st.min == 1 && st.p99 == 5, "odd: %g %g %g", st.median, st.min, st.p99);
    bench_summarise(even, 4, &st);
    CHECK(st.median == 2.5 && st.p99 == 4, "even: %g %g", st.median, st.p99);

    bench_ranks br;
    double one[] = { 7 };
    CHECK(bench_rank_spread(one, 1, &br) == 0 && br.slowest == 0 && br.lag == 0 && br.stragglers == 0, "p = 1");
    double two[] = { 1, 100 };
    CHECK(bench_rank_spread(two, 2, &br) == 0 && br.slowest == 1 && br.stragglers == 0, "p = 2 never flags");
    double same[] = { 10, 10, 10, 10 };
    bench_rank_spread(same, 4, &br);
    CHECK(br.mad == 0 && br.stragglers == 0 && br.slowest == 0, "equal ranks: no straggler, lowest rank slowest");
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
