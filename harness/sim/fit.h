/* fit.h — least squares of t = α + n·β for the network calibration (`ddlbench calibrate --network`):
 * relative residuals (each point weighted by 1/t², so 1 µs and 10 ms points count alike), bounds
 * α >= 0 and β > 0 (a bound that binds is refitted with it fixed), and a two-segment fit that
 * becomes SMPI's piecewise latency and bandwidth factors (docs/SOURCES.md §8) when it explains the
 * points clearly better than one line. Pure functions, no MPI. */
#ifndef HARN_FIT_H
#define HARN_FIT_H

typedef struct fit_line {
    double alpha;   /* s */
    double beta;    /* s per byte */
    double rms_pct; /* RMS of (fit - t) / t over its points, % */
} fit_line;

/* Fit points [0, count) (n ascending, t > 0); count >= 2. 0, or -1 if no positive β fits. */
int fit_linear(const double *n, const double *t, int count, fit_line *out);

#define FIT_MIN_SEGMENT 2      /* points per segment of a piecewise fit */
#define FIT_MAX_SEGMENTS 4     /* e.g. eager, single-copy in cache, out of cache, memory-bound */
#define FIT_SPLIT_GAIN 0.75    /* one more segment only if the RMS falls below this fraction */
#define FIT_SPLIT_MIN_PCT 1.0  /* and only while the RMS is above this (%): a line within 1% stays one */
#define FIT_MAX_POINTS 64
#define FIT_OUTLIER_MIN_PCT 50.0 /* an outlier: a point off the model by more than this (%) ... */
#define FIT_OUTLIER_RATIO 3.0    /* ... and by this many times the others' median residual (log), */
#define FIT_OUTLIER_FIT_PCT 10.0 /* ... while the fit with it is off by more than this (RMS, %); */
#define FIT_MAX_OUTLIERS 4       /* at most this many (and an eighth of the points) are left out */

typedef struct fit_model {
    fit_line whole;                     /* one line over every point */
    int nseg;                           /* segments (1 = one line) */
    int first[FIT_MAX_SEGMENTS];        /* index of each segment's first point (first[0] = 0) */
    fit_line seg[FIT_MAX_SEGMENTS];     /* each segment's own fit */
    double alpha, beta;                 /* the platform's link: α of the first segment, β of the last */
    double lat_f[FIT_MAX_SEGMENTS], bw_f[FIT_MAX_SEGMENTS]; /* SMPI factors from at[i] bytes on */
    double at[FIT_MAX_SEGMENTS];        /* segment i from this size (at[0] = 0): between the last size
                                           of segment i - 1 and the first of i, where their lines cross
                                           (else the gap's geometric middle): a size between two
                                           measured ones takes the closer line, not an extrapolation */
    double rms_pct;                     /* RMS relative residual of the model as SMPI applies it, % */
    int outliers;                       /* points left out of the fit (their residuals: not in rms_pct) */
    int outlier[FIT_MAX_OUTLIERS];      /* their indices */
} fit_model;

/* Fit one line, then the best partition into up to FIT_MAX_SEGMENTS segments of >= FIT_MIN_SEGMENT
 * points, each extra segment kept only if it cuts the RMS by FIT_SPLIT_GAIN. Robust: a point slower
 * than the next larger size (times do not fall with size: a scheduling outlier) that the
 * model made without it misses by more than FIT_OUTLIER_MIN_PCT and FIT_OUTLIER_RATIO times the
 * others' median residual, while the model with it is off by FIT_OUTLIER_FIT_PCT, is left
 * out and everything refitted, the worst first, up to FIT_MAX_OUTLIERS (and count / 8) points, so one
 * scheduling outlier cannot keep the breakpoints from being found. count <= FIT_MAX_POINTS. 0, or -1. */
int fit_model_make(const double *n, const double *t, int count, fit_model *m);
/* What the model predicts for n bytes: α·lat_f(n) + n·β / bw_f(n), as SMPI computes it (n: the points
 * the model was made from, for the breakpoints). */
double fit_model_predict(const fit_model *m, const double *n, double bytes);
/* RMS relative residual (%) of segment i of m over its points but the outliers (n, t: as made). */
double fit_segment_rms(const fit_model *m, const double *n, const double *t, int count, int i);

#endif
