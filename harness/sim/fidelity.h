/* fidelity.h — the statistics of `make fidelity` (harness/scripts/fidelity.sh launches the runs;
 * `ddlbench fidelity` calls these): merging repeated real runs, joining real and simulated times into
 * points, the error of each point, the per-group figures and the pass rule, and the calibration's
 * medians (the local profile, the contention probes). Pure: texts in, text or numbers out; every
 * median is stats.h's (the mean of the two middle values), every error stats_rel_error's.
 *   error    (sim - real) / real, in percent, on the median real time (and on the fastest real one)
 *   group    the points of one kind (allreduce, train), setup and rank count
 *   passes   a group whose median |error| <= FIDELITY_MEDIAN_PCT and max |error| <= FIDELITY_MAX_PCT */
#ifndef HARN_FIDELITY_H
#define HARN_FIDELITY_H

#include <stddef.h>

#define FIDELITY_MEDIAN_PCT 15.0
#define FIDELITY_MAX_PCT 35.0
#define FIDELITY_POINTS_HEADER "kind,setup,ranks,algo,size,real_us,sim_us,err_pct,real_min_us,err_min_pct"

typedef struct fidelity_text {
    const char *name;  /* its path, in messages */
    const char *text;  /* len bytes */
    size_t len;
} fidelity_text;

/* Every function below returns 0 with *out (malloc'd, NUL-terminated), 1 out of memory, or 2 with a
 * one-line message in err naming the input that is not what was expected. */

/* Repeated real allreduce CSVs -> one CSV: size_B,algo,placement,ranks,time_us_median,time_us_min,runs,
 * per point (in the order first seen) the median of the runs' medians and the min of their mins. */
int fidelity_merge(const fidelity_text *runs, int n, char **out, char *err, size_t errlen);

/* The rows of points.csv (FIDELITY_POINTS_HEADER, no header line) for one setup: in[0..4) are the
 * merged real allreduce, simulated allreduce, real train and simulated train CSVs; allreduce rows are
 * the out-of-place ones, train rows the step (ms -> us), points "resnet50-b2-32px-bucketB". A real
 * point without a simulated one, or with a real time <= 0, is left out; an error on a fastest real
 * time <= 0 reads NA. */
int fidelity_join(const char *setup, const fidelity_text in[4], char **out, char *err, size_t errlen);

/* 1 when a group with these |error| figures (percent) passes. */
int fidelity_passes(double median_pct, double max_pct);

/* The table and summary of points.csv: every point, the groups (median and max |error|, the median on
 * the fastest real time), and the last two lines
 *   fidelity (fastest real iteration): median |error| X%, max Y% over N points
 *   fidelity: median |error| X%, max Y% over N points; per group (median/max %, * = misses 15/35): ... */
int fidelity_report(const fidelity_text *points, char **out, char *err, size_t errlen);

/* local.profile from k concurrent calibrations: gemm[0..ng) are `ddlbench model --time --cold`
 * outputs (their GFLOP/s: the GEMM rate, fp32 and fp16), cpu[0..nc) `ddlbench calibrate` profiles
 * (every key but gemm_*): the median of each. */
int fidelity_profile(const fidelity_text *gemm, int ng, const fidelity_text *cpu, int nc, char **out, char *err,
                     size_t errlen);

/* Compute slowed beside communication: (median beside / median alone - 1) x 100 of the GEMM ms per
 * step of `model --time --cold` outputs, at least 0. */
int fidelity_contention(const fidelity_text *alone, int na, const fidelity_text *beside, int nb, double *pct,
                        char *err, size_t errlen);

/* Communication slowed beside compute: (beside / alone - 1) x 100 of the in-place rows' median times
 * of two allreduce CSVs, at least 0; 2 when either has no in-place row or alone's time is not > 0. */
int fidelity_comm_ratio(const fidelity_text *alone, const fidelity_text *beside, double *pct, char *err,
                        size_t errlen);

#endif
