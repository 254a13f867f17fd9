/* fit.c — weighted least squares of t = α + n·β and the two-segment model (see fit.h). */
#include "fit.h"

#include <math.h>

/* Minimise Σ ((α + n β - t) / t)² over [i0, i1). */
static int fit_range(const double *n, const double *t, int i0, int i1, fit_line *out)
{
    double sw = 0, swn = 0, swnn = 0, swt = 0, swnt = 0;
    for (int i = i0; i < i1; i++) {
        double w = 1.0 / (t[i] * t[i]);
        sw += w, swn += w * n[i], swnn += w * n[i] * n[i], swt += w * t[i], swnt += w * n[i] * t[i];
    }
    double det = sw * swnn - swn * swn, a = 0, b = 0;
    if (det > 0) {
        a = (swt * swnn - swn * swnt) / det;
        b = (sw * swnt - swn * swt) / det;
    }
    if (!(det > 0) || a < 0) { /* α bound: t = n β through the origin */
        a = 0;
        b = swnn > 0 ? swnt / swnn : 0;
    }
    if (b <= 0) { /* β bound: no bandwidth term fits (flat or falling times) */
        return -1;
    }
    double ss = 0;
    for (int i = i0; i < i1; i++) {
        double r = (a + n[i] * b - t[i]) / t[i];
        ss += r * r;
    }
    out->alpha = a, out->beta = b, out->rms_pct = 100 * sqrt(ss / (i1 - i0));
    return 0;
}

int fit_linear(const double *n, const double *t, int count, fit_line *out)
{
    if (count < 2) return -1;
    for (int i = 0; i < count; i++)
        if (!(t[i] > 0) || !(n[i] >= 0)) return -1;
    return fit_range(n, t, 0, count, out);
}

double fit_model_predict(const fit_model *m, const double *n, double bytes)
{
    int i = m->nseg - 1;
    while (i > 0 && bytes < n[m->first[i]]) i--;
    return m->alpha * m->lat_f[i] + bytes * m->beta / m->bw_f[i];
}

static double model_rms(const fit_model *m, const double *n, const double *t, int count)
{
    double ss = 0;
    for (int i = 0; i < count; i++) {
        double r = (fit_model_predict(m, n, n[i]) - t[i]) / t[i];
        ss += r * r;
    }
    return 100 * sqrt(ss / count);
}

/* Fit segments at the given first points; factors relative to α of the first, β of the last. -1 if
 * a segment has no positive β. */
static int make_segments(fit_model *m, const double *n, const double *t, int count, int nseg, const int *first)
{
    m->nseg = nseg;
    for (int i = 0; i < nseg; i++) {
        m->first[i] = first[i];
        if (fit_range(n, t, first[i], i + 1 < nseg ? first[i + 1] : count, &m->seg[i])) return -1;
    }
    m->alpha = m->seg[0].alpha, m->beta = m->seg[nseg - 1].beta;
    for (int i = 0; i < nseg; i++) {
        /* a bandwidth-bound segment's α is poorly determined: at least 1% of the base */
        m->lat_f[i] = m->alpha > 0 ? fmax(m->seg[i].alpha, 0.01 * m->alpha) / m->alpha : 1;
        m->bw_f[i] = m->beta / m->seg[i].beta;
    }
    m->lat_f[0] = 1;
    m->rms_pct = model_rms(m, n, t, count);
    return 0;
}

/* Best partition of [0, count) into exactly nseg segments (exhaustive: a handful of sizes). */
static int best_of(fit_model *best, const double *n, const double *t, int count, int nseg)
{
    int first[FIT_MAX_SEGMENTS] = { 0 }, found = 0, k = FIT_MIN_SEGMENT;
    fit_model c;
    if (nseg == 1) return make_segments(best, n, t, count, 1, first);
    for (int a = k; a + (nseg - 1) * k <= count; a++) {
        first[1] = a;
        for (int b = nseg == 3 ? a + k : count; b + k <= count || nseg == 2; b++) {
            if (nseg == 3) first[2] = b;
            c = *best;
            if (!make_segments(&c, n, t, count, nseg, first) && (!found || c.rms_pct < best->rms_pct)) *best = c, found = 1;
            if (nseg == 2) break;
        }
    }
    return found ? 0 : -1;
}

int fit_model_make(const double *n, const double *t, int count, fit_model *m)
{
    if (fit_linear(n, t, count, &m->whole) || best_of(m, n, t, count, 1)) return -1;
    for (int k = 2; k <= FIT_MAX_SEGMENTS && m->rms_pct > FIT_SPLIT_MIN_PCT; k++) {
        fit_model c = *m;
        if (best_of(&c, n, t, count, k) || !(c.rms_pct < FIT_SPLIT_GAIN * m->rms_pct)) break;
        *m = c;
    }
    return 0;
}
