/* fit.c — weighted least squares of t = α + n·β and the two-segment model (see fit.h). */
#include "fit.h"
#include "stats.h"

#include <math.h>

/* Minimise Σ ((α + n β - t) / t)² over [i0, i1). flat: a segment below another may be flat or fall
 * with size (latency-bound sizes whose noise outweighs their bandwidth term: a shaped link's small
 * messages, docs/BENCHMARKS.md "Notes moved from code comments"): then t = α, its best constant,
 * with a β so small that n β stays under 0.1% of α there. Otherwise (or the last segment, whose β is the link's) no
 * positive β: -1. */
static int fit_range(const double *n, const double *t, int i0, int i1, int flat, fit_line *out)
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
    if (b <= 0 && flat) { /* Σ w (α - t)² least at α = Σ w t / Σ w */
        a = swt / sw;
        b = 1e-3 * a / (n[i1 - 1] > 1 ? n[i1 - 1] : 1);
    }
    if (!(b > 0)) { /* β bound: no bandwidth term fits (flat or falling times) */
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
    return fit_range(n, t, 0, count, 0, out);
}

double fit_model_predict(const fit_model *m, const double *n, double bytes)
{
    int i = m->nseg - 1;
    (void)n; /* the breakpoints are sizes (m->at) */
    while (i > 0 && bytes < m->at[i]) i--;
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
        if (fit_range(n, t, first[i], i + 1 < nseg ? first[i + 1] : count, i + 1 < nseg, &m->seg[i])) return -1;
    }
    m->alpha = m->seg[0].alpha, m->beta = m->seg[nseg - 1].beta;
    for (int i = 0; i < nseg; i++) {
        /* a bandwidth-bound segment's α is poorly determined: at least 1% of the base */
        m->lat_f[i] = m->alpha > 0 ? fmax(m->seg[i].alpha, 0.01 * m->alpha) / m->alpha : 1;
        m->bw_f[i] = m->beta / m->seg[i].beta;
    }
    m->lat_f[0] = 1;
    m->at[0] = 0;
    for (int i = 1; i < nseg; i++) { /* where the two lines cross inside the gap, else its geometric middle */
        double lo = n[first[i] - 1], hi = n[first[i]], a0 = m->alpha * m->lat_f[i - 1], b0 = m->beta / m->bw_f[i - 1];
        double a1 = m->alpha * m->lat_f[i], b1 = m->beta / m->bw_f[i], c = b0 != b1 ? (a1 - a0) / (b0 - b1) : 0;
        m->at[i] = c > lo && c < hi ? ceil(c) : ceil(sqrt(lo * hi));
    }
    m->rms_pct = model_rms(m, n, t, count);
    return 0;
}

/* Segment i onwards of a partition into nseg: every first point leaving each segment FIT_MIN_SEGMENT
 * points, the best model so far in *best (exhaustive: a handful of sizes). */
static void partitions(fit_model *best, int *found, const double *n, const double *t, int count, int nseg, int *first,
                       int i)
{
    if (i == nseg) {
        fit_model c = *best;
        if (!make_segments(&c, n, t, count, nseg, first) && (!*found || c.rms_pct < best->rms_pct))
            *best = c, *found = 1;
        return;
    }
    for (int a = first[i - 1] + FIT_MIN_SEGMENT; a + (nseg - i) * FIT_MIN_SEGMENT <= count; a++) {
        first[i] = a;
        partitions(best, found, n, t, count, nseg, first, i + 1);
    }
}

/* Best partition of [0, count) into exactly nseg segments. */
static int best_of(fit_model *best, const double *n, const double *t, int count, int nseg)
{
    int first[FIT_MAX_SEGMENTS] = { 0 }, found = 0;
    if (nseg == 1) return make_segments(best, n, t, count, 1, first);
    partitions(best, &found, n, t, count, nseg, first, 1);
    return found ? 0 : -1;
}

static int make_all(const double *n, const double *t, int count, fit_model *m)
{
    if (fit_linear(n, t, count, &m->whole) || best_of(m, n, t, count, 1)) return -1;
    /* more segments while they pay: each count against the fit kept so far, so that a regime two lines
     * cannot split (a memory-bound tail) does not stop a three- or four-segment fit that can */
    for (int k = 2; k <= FIT_MAX_SEGMENTS && m->rms_pct > FIT_SPLIT_MIN_PCT; k++) {
        fit_model c = *m;
        if (!best_of(&c, n, t, count, k) && c.rms_pct < FIT_SPLIT_GAIN * m->rms_pct) *m = c;
    }
    return 0;
}

static int is_outlier(const fit_model *m, int i)
{
    for (int k = 0; k < m->outliers; k++)
        if (m->outlier[k] == i) return 1;
    return 0;
}

/* The median of |log(model / t)| over the points: the others' spread, which an outlier does not move. */
static double log_median(const fit_model *m, const double *n, const double *t, int count)
{
    double r[FIT_MAX_POINTS];
    for (int i = 0; i < count; i++) r[i] = fabs(log(fit_model_predict(m, n, n[i]) / t[i]));
    return stats_median(r, (size_t)count);
}

/* Leave one out: of the kept points (cn, ct) that took longer than the next larger size (which no
 * regime of a link explains; a memory-bound tail is no candidate), the one furthest from the model
 * made without it, in log ratio
 * (a point 1000x slow and one 1000x fast count alike), if it is an outlier: off by more than
 * FIT_OUTLIER_MIN_PCT and FIT_OUTLIER_RATIO times the others' median residual there, while the
 * current model (m) is off by more than FIT_OUTLIER_FIT_PCT RMS (a breakpoint of a good fit is no
 * outlier). Its model in *best. */
static int worst_outlier(const fit_model *m, const double *cn, const double *ct, int kept, fit_model *best)
{
    double tn[FIT_MAX_POINTS], tt[FIT_MAX_POINTS], worst = 0;
    int w = -1;
    if (!(m->rms_pct > FIT_OUTLIER_FIT_PCT)) return -1;
    for (int x = 0; x + 1 < kept; x++) {
        fit_model c;
        int k = 0;
        if (!(ct[x] > ct[x + 1])) continue; /* only a time above the next larger size's: no regime does that */
        for (int i = 0; i < kept; i++)
            if (i != x) tn[k] = cn[i], tt[k++] = ct[i];
        if (make_all(tn, tt, k, &c)) continue;
        double off = fabs(log(fit_model_predict(&c, tn, cn[x]) / ct[x])), rest = log_median(&c, tn, tt, k);
        if (off > log(1 + FIT_OUTLIER_MIN_PCT / 100) && off > FIT_OUTLIER_RATIO * rest && off > worst)
            worst = off, w = x, *best = c;
    }
    return w;
}

int fit_model_make(const double *n, const double *t, int count, fit_model *m)
{
    double cn[FIT_MAX_POINTS], ct[FIT_MAX_POINTS];
    int idx[FIT_MAX_POINTS], out[FIT_MAX_OUTLIERS], kept = count, nout = 0, w;
    if (count > FIT_MAX_POINTS || make_all(n, t, count, m)) return -1;
    for (int i = 0; i < count; i++) cn[i] = n[i], ct[i] = t[i], idx[i] = i;
    /* m->first[] index the kept points (cn, ct) until the end, where they go back to n's */
    fit_model c;
    while (nout < FIT_MAX_OUTLIERS && nout < count / 8 && (w = worst_outlier(m, cn, ct, kept, &c)) >= 0) {
        out[nout++] = idx[w], *m = c, kept--;
        for (int i = w; i < kept; i++) cn[i] = cn[i + 1], ct[i] = ct[i + 1], idx[i] = idx[i + 1];
    }
    for (int i = 0; i < m->nseg; i++) m->first[i] = idx[m->first[i]];
    m->first[0] = 0; /* the first segment starts at the first size, an outlier or not */
    m->outliers = nout;
    for (int i = 0; i < nout; i++) m->outlier[i] = out[i];
    return 0;
}

double fit_segment_rms(const fit_model *m, const double *n, const double *t, int count, int i)
{
    int end = i + 1 < m->nseg ? m->first[i + 1] : count, k = 0;
    double ss = 0;
    for (int j = m->first[i]; j < end; j++) {
        if (is_outlier(m, j)) continue;
        double r = (fit_model_predict(m, n, n[j]) - t[j]) / t[j];
        ss += r * r, k++;
    }
    return k ? 100 * sqrt(ss / k) : 0;
}
