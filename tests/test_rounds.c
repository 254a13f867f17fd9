/* test_rounds.c — `ddlbench train`'s comparisons (harness/train/rounds.c): the default rounds (1 under
 * simulation or for one configuration), the interleaved order (A B A B, each round every
 * configuration once), median / min / max / quartiles, the median step's breakdown (its parts add up
 * where the medians of the parts do not), and the significance rule (the spread, the 0.1% floor,
 * the rounds' order, too few samples). No MPI needed. */
#include "rounds.h"
#include "test.h"

#include <math.h>

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void check_order(void)
{
    CHECK(rounds_default(1, 0) == 1 && rounds_default(2, 0) == ROUNDS_DEFAULT_REAL && rounds_default(4, 1) == 1,
          "default rounds");
    int seq[6], ok = 1; /* 2 configurations x 3 rounds: 0 1 0 1 0 1, rounds 0 0 1 1 2 2 */
    for (int i = 0; i < 6; i++) {
        int r, c;
        rounds_order(i, 2, &r, &c);
        seq[i] = c;
        ok &= r == i / 2;
    }
    CHECK(ok && seq[0] == 0 && seq[1] == 1 && seq[2] == 0 && seq[3] == 1 && seq[4] == 0 && seq[5] == 1, "ABAB order");
}

static void check_stats(void)
{
    double v[] = { 5, 1, 4, 2, 3 }, w[8];
    rounds_stats s;
    rounds_summarise(v, 5, w, &s);
    CHECK(s.median == 3 && s.min == 1 && s.max == 5 && s.q1 == 2 && s.q3 == 4 && s.n == 5, "odd: %g %g %g %g %g",
          s.median, s.min, s.max, s.q1, s.q3);
    CHECK(v[0] == 5 && v[1] == 1, "input untouched");
    double e[] = { 4, 1, 3, 2 }; /* type 7: q1 at h = 0.75 -> 1.75, q3 at h = 2.25 -> 3.25 */
    rounds_summarise(e, 4, w, &s);
    CHECK(s.median == 2.5 && near(s.q1, 1.75) && near(s.q3, 3.25), "even: %g %g %g", s.median, s.q1, s.q3);
    double one[] = { 7 };
    rounds_summarise(one, 1, w, &s);
    CHECK(s.median == 7 && s.q1 == 7 && s.q3 == 7 && s.min == 7 && s.max == 7, "one sample");
}

/* Three fields per sample: step = a + b, with the medians of a and b from different samples. */
static void check_breakdown(void)
{
    /* samples:    0    1    2  */
    double x[] = { 10, 12, 11,   /* step */
                   9,   2,  6,   /* a */
                   1,  10,  5 }; /* b */
    double w[3], out[3];
    rounds_median_breakdown(x, 3, 3, 0, w, out);
    CHECK(out[0] == 11 && out[1] == 6 && out[2] == 5, "odd: the median step's own parts: %g %g %g", out[0], out[1],
          out[2]);
    CHECK(out[1] + out[2] == out[0], "its parts add up");
    double y[] = { 10, 14, 12, 20,   /* step */
                   1,   13, 2, 10,   /* a */
                   9,   1, 10, 10 }; /* b */
    double w4[4], o4[3];
    rounds_median_breakdown(y, 3, 4, 0, w4, o4); /* middle steps: 12 (sample 2) and 14 (sample 1) */
    CHECK(o4[0] == 13 && o4[1] == 7.5 && o4[2] == 5.5 && o4[1] + o4[2] == o4[0], "even: %g %g %g", o4[0], o4[1], o4[2]);
    /* medians of the parts would be a 6, b 9.5: 15.5 > the median step 13 */
    double z[] = { 5, 5, 5, 5,  1, 2, 3, 4 }; /* ties in the step: two different samples */
    rounds_median_breakdown(z, 2, 4, 0, w4, o4);
    CHECK(o4[0] == 5 && o4[1] == 1.5, "ties: %g %g", o4[0], o4[1]);
}

static rounds_stats st(double med, double q1, double q3, size_t n)
{
    rounds_stats s = { med, q1, q1, q1, q3, n };
    return s;
}

static void check_differ(void)
{
    rounds_stats a = st(100, 95, 105, 30), b = st(120, 115, 125, 30), c = st(104, 90, 110, 30);
    CHECK(rounds_differ(&a, &b, NULL, NULL, 0) == ROUNDS_DIFFER &&
              rounds_differ(&b, &a, NULL, NULL, 0) == ROUNDS_DIFFER,
          "20 apart, spreads 10: differ");
    CHECK(rounds_differ(&a, &c, NULL, NULL, 0) == ROUNDS_SAME, "4 apart, spread 20: not significant");
    rounds_stats few = st(100, 100, 100, 2), exact = st(100.5, 100.5, 100.5, 3), exact2 = st(100, 100, 100, 3);
    CHECK(rounds_differ(&few, &b, NULL, NULL, 0) == ROUNDS_NA, "2 samples: not assessed");
    CHECK(rounds_differ(&exact, &exact2, NULL, NULL, 0) == ROUNDS_DIFFER, "no spread (simulation): any difference");
    CHECK(rounds_differ(&exact2, &exact2, NULL, NULL, 0) == ROUNDS_SAME, "equal: not significant");
    rounds_stats hair = st(100.05, 100.05, 100.05, 3); /* 0.05%: under ROUNDS_FLOOR */
    CHECK(rounds_differ(&hair, &exact2, NULL, NULL, 0) == ROUNDS_SAME, "no spread, 0.05%%: not significant");
    double ra[] = { 99, 101, 100 }, rb[] = { 121, 119, 120 }, rbad[] = { 121, 100, 120 };
    CHECK(rounds_differ(&a, &b, ra, rb, 3) == ROUNDS_DIFFER, "every round orders them alike");
    CHECK(rounds_differ(&a, &b, ra, rbad, 3) == ROUNDS_SAME && rounds_differ(&b, &a, rbad, ra, 3) == ROUNDS_SAME,
          "a round that orders them otherwise: not significant");
    CHECK(rounds_differ(&a, &b, ra, rbad, 1) == ROUNDS_DIFFER, "one round: no round check");
}

int main(void)
{
    check_order();
    check_stats();
    check_breakdown();
    check_differ();
    return TEST_REPORT();
}
