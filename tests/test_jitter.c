/* test_jitter.c — the straggler draws of `train --jitter` (trainer_jitter_draw, trainer.h): a function
 * of (seed, rank, step) only, positive, and distributed as Exp(1): mean 1, median ln 2, and the
 * expected maximum of 256 draws near the harmonic number H(256) = 6.12. */
#include "trainer.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    enum { N = 200000 };
    static double v[N];
    double sum = 0, maxsum = 0;
    int positive = 1;
    CHECK(trainer_jitter_draw(1, 3, 7) == trainer_jitter_draw(1, 3, 7), "same (seed, rank, step), same draw");
    CHECK(trainer_jitter_draw(1, 3, 7) != trainer_jitter_draw(2, 3, 7), "the seed changes it");
    CHECK(trainer_jitter_draw(1, 3, 7) != trainer_jitter_draw(1, 4, 7), "the rank changes it");
    CHECK(trainer_jitter_draw(1, 3, 7) != trainer_jitter_draw(1, 3, 8), "the step changes it");
    for (int i = 0; i < N; i++) {
        v[i] = trainer_jitter_draw(42, i % 1000, i / 1000);
        positive &= v[i] > 0 && isfinite(v[i]);
        sum += v[i];
    }
    CHECK(positive, "every draw positive and finite");
    CHECK(fabs(sum / N - 1) < 0.01, "mean %.4f, want 1 +- 0.01", sum / N);
    qsort(v, N, sizeof v[0], cmp);
    CHECK(fabs(v[N / 2] - log(2.0)) < 0.01, "median %.4f, want ln 2 = 0.693", v[N / 2]);
    CHECK(fabs(v[(int)(0.9 * N)] - log(10.0)) < 0.03, "90th percentile %.4f, want ln 10 = 2.303", v[(int)(0.9 * N)]);
    for (int s = 0; s < 400; s++) { /* the slowest of 256 ranks, averaged over steps */
        double m = 0;
        for (int r = 0; r < 256; r++) m = fmax(m, trainer_jitter_draw(7, r, s));
        maxsum += m;
    }
    CHECK(fabs(maxsum / 400 - 6.12) < 0.3, "mean max of 256 draws %.3f, want H(256) = 6.12", maxsum / 400);
    return TEST_REPORT();
}
