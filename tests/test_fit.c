/* test_fit.c — the network calibration's least squares (harness/sim/fit.c): exact lines are
 * recovered, the bounds hold (α >= 0; no positive β is an error), and a machine with three regimes
 * (latency, in-cache, memory-bound) is recovered as three segments whose SMPI factors reproduce it,
 * also with two scheduling outliers among its points (left out, named; issue 26); and a measured
 * shared-memory exchange (2 ranks, 2026-12-02) whose memory-bound tail no two lines fit: the fit
 * goes on to more segments instead of stopping at one line (RMS 36%). */
#include "fit.h"
#include "test.h"

#include <math.h>

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

int main(void)
{
    double n[12], t[12];
    fit_line l;
    fit_model m;
    for (int i = 0; i < 12; i++) n[i] = 64.0 * pow(4, i), t[i] = 2e-6 + n[i] * 1e-10; /* 2 us, 10 GB/s */
    CHECK(fit_linear(n, t, 12, &l) == 0 && close_to(l.alpha, 2e-6, 1e-9) && close_to(l.beta, 1e-10, 1e-9) &&
              l.rms_pct < 1e-6, "exact line: alpha %g beta %g", l.alpha, l.beta);
    CHECK(fit_model_make(n, t, 12, &m) == 0 && m.nseg == 1 && m.rms_pct < 1e-6, "a line stays one segment (%d)",
          m.nseg);

    /* falling intercept: the unconstrained α would be negative; bounded to 0 */
    for (int i = 0; i < 6; i++) n[i] = 1e6 * (i + 1), t[i] = n[i] * 1e-9 - 1e-4 * (i == 0);
    CHECK(fit_linear(n, t, 6, &l) == 0 && l.alpha == 0 && l.beta > 0, "alpha bounded at 0 (alpha %g)", l.alpha);
    for (int i = 0; i < 6; i++) t[i] = 1e-3 / (i + 1); /* time falls with size: no bandwidth */
    CHECK(fit_linear(n, t, 6, &l) == -1, "no positive beta is an error");
    t[0] = 0;
    CHECK(fit_linear(n, t, 6, &l) == -1, "a zero time is refused");
    CHECK(fit_linear(n, t, 1, &l) == -1, "one point is refused");

    /* three regimes: below 16 KiB 1 us + 1/(2 GB/s); up to 4 MiB 3 us + 1/(20 GB/s); above 50 us + 1/(1 GB/s) */
    for (int i = 0; i < 12; i++) {
        n[i] = 64.0 * pow(4, i);
        t[i] = n[i] < 16384 ? 1e-6 + n[i] / 2e9 : n[i] < 4194304 ? 3e-6 + n[i] / 20e9 : 50e-6 + n[i] / 1e9;
    }
    CHECK(fit_model_make(n, t, 12, &m) == 0 && m.nseg == 3, "three segments (%d)", m.nseg);
    CHECK(m.first[1] == 4 && m.first[2] == 8, "breakpoints at 16 KiB and 4 MiB (%d, %d)", m.first[1], m.first[2]);
    CHECK(close_to(m.alpha, 1e-6, 1e-6) && close_to(m.beta, 1e-9, 1e-6), "base alpha %g, beta %g", m.alpha, m.beta);
    CHECK(close_to(m.bw_f[0], 2.0, 1e-6) && close_to(m.bw_f[1], 20.0, 1e-6) && m.bw_f[2] == 1, "bw factors %g %g %g",
          m.bw_f[0], m.bw_f[1], m.bw_f[2]);
    CHECK(m.lat_f[0] == 1 && close_to(m.lat_f[1], 3.0, 1e-6) && close_to(m.lat_f[2], 50.0, 1e-6), "lat factors");
    int exact = 1;
    for (int i = 0; i < 12; i++) exact &= close_to(fit_model_predict(&m, n, n[i]), t[i], 1e-9);
    CHECK(exact && m.rms_pct < 1e-6, "the factors reproduce every point (rms %g%%)", m.rms_pct);
    CHECK(m.whole.rms_pct > 10, "one line could not (rms %g%%)", m.whole.rms_pct);
    CHECK(m.outliers == 0, "no outlier in clean points (%d)", m.outliers);
    CHECK(fit_segment_rms(&m, n, t, 12, 1) < 1e-6, "segment residuals 0 (%g%%)", fit_segment_rms(&m, n, t, 12, 1));

    /* the same three regimes, 16 points, two of them scheduling outliers (64 B and 256 B took ms) */
    double n2[16], t2[16];
    for (int i = 0; i < 16; i++) {
        n2[i] = 64.0 * pow(2, i) * (i > 11 ? 64 : 1);
        t2[i] = n2[i] < 16384 ? 1e-6 + n2[i] / 2e9 : n2[i] < 4194304 ? 3e-6 + n2[i] / 20e9 : 50e-6 + n2[i] / 1e9;
    }
    t2[0] = 14e-3, t2[2] = 8e-3;
    CHECK(fit_model_make(n2, t2, 16, &m) == 0 && m.outliers == 2, "two outliers left out (%d)", m.outliers);
    CHECK(m.outliers == 2 && ((m.outlier[0] == 0 && m.outlier[1] == 2) || (m.outlier[0] == 2 && m.outlier[1] == 0)),
          "the outliers named (%d, %d)", m.outlier[0], m.outlier[1]);
    CHECK(m.nseg >= 2 && close_to(m.beta, 1e-9, 1e-3), "the piecewise fit not stopped: %d segments, beta %g", m.nseg,
          m.beta);
    CHECK(m.rms_pct < 1, "the rest fitted (rms %g%%)", m.rms_pct);
    /* a memory-bound tail of two sizes in noisy points is a regime, not an outlier: times that rise
     * with size are never left out */
    for (int i = 0; i < 12; i++)
        t[i] = (n[i] < 4194304 ? 1e-6 + n[i] / 10e9 : n[i] / 0.5e9) * (i % 2 ? 1.4 : 0.75);
    CHECK(fit_model_make(n, t, 12, &m) == 0 && m.outliers == 0, "a rising tail kept (%d left out, first %d)",
          m.outliers, m.outliers ? m.outlier[0] : -1);
    { /* 64 B .. 64 MiB by 4x, the exchange sweep of a quiet calibration (docs/BENCHMARKS.md, issue 26) */
        double xn[11], xt[11] = { 0.992, 1.069, 1.756, 2.719, 3.45, 6.218, 16.73, 74.62, 493.2, 2662, 21690 };
        fit_model x;
        for (int i = 0; i < 11; i++) xn[i] = 64.0 * pow(4, i), xt[i] *= 1e-6;
        CHECK(fit_model_make(xn, xt, 11, &x) == 0 && x.nseg >= 3 && x.rms_pct < 0.75 * x.whole.rms_pct,
              "a tail two lines cannot fit does not stop the split: %d segments, rms %.1f%% (one line %.1f%%)", x.nseg,
              x.rms_pct, x.whole.rms_pct);
        CHECK(x.nseg >= 3 && close_to(fit_model_predict(&x, xn, 16384), 3.45e-6, 0.15),
              "16 KiB priced near its measured 3.45 us, not the one line's 2.6: %.3g us",
              1e6 * fit_model_predict(&x, xn, 16384));
    }
    { /* the emulated cluster's inter-node exchange (500 Mbit/s, 2026-12-03): small sizes flat, and
       * falling with noise (4 KiB below 64 B), under a shaped link: a flat first segment fits them */
        double en[11], et[11] = { 35.53, 35.85, 34.39, 32.33, 533.2, 2164, 8747, 34940, 139900, 561900, 2252000 };
        fit_model e;
        for (int i = 0; i < 11; i++) en[i] = 64.0 * pow(4, i), et[i] *= 1e-6;
        CHECK(fit_model_make(en, et, 11, &e) == 0 && e.nseg >= 2 && e.first[e.nseg - 1] <= 4 && e.rms_pct < 10,
              "a flat latency segment does not push the link's segment past 16 KiB: %d segments, the last from point "
              "%d, rms %.1f%%",
              e.nseg, e.first[e.nseg - 1], e.rms_pct);
        CHECK(close_to(fit_model_predict(&e, en, 16384), 533.2e-6, 0.1) &&
                  close_to(fit_model_predict(&e, en, 1024), 34.4e-6, 0.1),
              "16 KiB and 1 KiB priced near their measured 533 and 34 us: %.4g, %.4g us",
              1e6 * fit_model_predict(&e, en, 16384), 1e6 * fit_model_predict(&e, en, 1024));
    }
    return TEST_REPORT();
}
