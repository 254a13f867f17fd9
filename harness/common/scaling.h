/* scaling.h — the scaling study's table (scaling.csv) from its launches' raw CSVs (the train CSV
 * format: `# key: value` lines, a header, rows), and the efficiency
 *   E(N) = X(N) / ((N / N0) · X(N0))       X images/s, N GPUs; N0 = 1 GPU, or 1 node of G GPUs
 * for every row whose (model, algo, bucket_MB) has a baseline row at N0 (else NA), and last,
 * eff_vs_smallest, the same against the key's smallest run (N0 = its fewest GPUs: MLPerf compares
 * per-GPU throughput against its 1-node run; under strong scaling the batch per GPU differs). Pure: text in,
 * text out; `ddlbench merge` (cli_merge.c) reads and writes the files. */
#ifndef HARN_SCALING_H
#define HARN_SCALING_H

#include <stddef.h>

/* The columns after the fixed ones, NA where a raw CSV lacks them (time to train; --per-rank summary). */
#define SCALING_EXTRA "dataset,epochs,dataset_images,time_to_train_h,gpu_hours,slowest_rank,lag_ms,mad_ms,stragglers"

typedef struct scaling_file {
    const char *name;   /* its path: in messages; a name ending in -model.csv labels its rows "model" */
    const char *text;   /* its contents, len bytes */
    size_t len;
} scaling_file;

typedef struct scaling_setup {
    long gpus_per_node;     /* G: a node's GPUs (N0 of the per-node efficiency) */
    const char *backend;    /* the rows' backend column (rows of a *-model.csv: "model") */
    const char *platform;   /* the rows' platform column */
    const char *meta;       /* the sweep's own `# key: value` lines, written first ("" for none) */
} scaling_setup;

/* x / ((n / n0) · x0); NAN when the baseline (n / n0) · x0 is not positive or is NAN (none). */
double scaling_efficiency(double x, double n, double n0, double x0);

/* The order the rows are merged in: as `sort -t- -k2n` orders the paths (the number at the start of
 * the text after the path's first '-', 0 when none; ties by bytes). <0, 0, >0 as strcmp. */
int scaling_order(const char *a, const char *b);

/* scaling.csv's text from files[0..n) in that order: setup->meta, the `#` lines of the file holding
 * the most GPUs (a simulated one before a *-model.csv; "# command:" renamed "# launch_command:"),
 * the header, one row per raw row (with --per-rank, only each file's "all" rows). 0 with *out
 * (malloc'd, NUL-terminated, *outlen bytes), 1 out of memory, or 2 with "NAME: line N: ..." in err
 * for a raw CSV that is not one (no header, a needed column missing, a row of another width, a
 * ranks cell that is not a positive integer). */
int scaling_merge(const scaling_file *files, int n, const scaling_setup *setup, char **out, size_t *outlen,
                  char *err, size_t errlen);

/* Weak-scaling efficiency of a run's steps against a baseline run (two train CSVs, as `make jitter`
 * compares 1 and N GPUs): for each row of run whose model, algo and bucket_MB have a row in base (the
 * last), the CSV row "gpus,step_ms_base,step_ms_median,step_ms_min,step_ms_max,eff_median_pct,
 * eff_min_pct,eff_max_pct" (SCALING_STEP_HEADER; %.3f ms, %.2f %), where images/s = ranks x batch /
 * step and eff = 100 x scaling_efficiency against the baseline's median step: on the run's median,
 * slowest (eff_min) and fastest (eff_max) steps. Header first. 0 with *out (malloc'd), 1 out of
 * memory, 2 with "NAME: ..." (not a train CSV, a step time not > 0, no row of base matching run's). */
#define SCALING_STEP_HEADER \
    "gpus,step_ms_base,step_ms_median,step_ms_min,step_ms_max,eff_median_pct,eff_min_pct,eff_max_pct"
int scaling_step_efficiency(const scaling_file *base, const scaling_file *run, char **out, char *err, size_t errlen);

#endif
