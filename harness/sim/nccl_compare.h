/* nccl_compare.h — published nccl-tests points (nccl_cat.h) against ddlbench's prediction: the
 * matching algorithm on the matching platform, priced by the α-β-γ model (perf_cost.h) or read from a
 * simulated run's CSV; the error per point, the goals, and the outputs of `ddlbench nccl-compare`
 * (nccl_compare_out.c: the table, compare.csv, report.md, a gnuplot script per machine). */
#ifndef HARN_NCCL_COMPARE_H
#define HARN_NCCL_COMPARE_H

#include "nccl_cat.h"
#include "platform.h"

#include <stdio.h>

#define NCMP_GOAL_1M (1 << 20)  /* from 1 MiB: within NCMP_TOL_1M */
#define NCMP_GOAL_64M (64 << 20) /* from 64 MiB: within NCMP_TOL_64M */
#define NCMP_TOL_1M 0.15
#define NCMP_TOL_64M 0.10

typedef struct ncmp_run {
    const nccl_entry *e;     /* the published run */
    platform pf;             /* its machine at its node count */
    const char *algo;        /* compared with: e->algo, or nccl-ring for an entry without one (reference) */
    int first;               /* its first point of at least --min-bytes */
    double pred[NCCL_CAT_MAX_POINTS]; /* predicted busbw, GB/s, at e->pt[first..] */
    char from[NCCL_CAT_MAX_POINTS];   /* each prediction's origin: 's' simulated, 'm' the model */
    char key[128];           /* the simulation it shares with entries of the same machine, nodes and
                                algorithm: MACHINE-Nn-ALGO (its CSV: DIR/KEY.csv) */
} ncmp_run;

/* The entry's platform (nodes, the preset's GPUs per node) and algorithm; points from min_bytes on
 * (none left: an error). 0, or 2 with "NAME: ..." naming the key. */
int ncmp_setup(const nccl_entry *e, double min_bytes, ncmp_run *r, char *err, size_t errlen);
/* "KEY MACHINE NODES GPN ALGO MIN_B MAX_B": what make nccl-compare simulates for r (one run per KEY). */
void ncmp_plan_line(const ncmp_run *r, FILE *f);
/* r->pred from the α-β-γ model, γ from the platform's device profile. 0, or 2 with a message. */
int ncmp_from_model(ncmp_run *r, char *err, size_t errlen);
/* r->pred from DIR/KEY.csv (`ddlbench-sim allreduce --csv`) where it has the point: its in-place row
 * of r->algo at the size, busbw = size / time_us_median x 2(p-1)/p; every other point (above the
 * sizes simulated, or no file: nothing simulated) from the model, marked 'm'. 0, or 2 naming the file
 * (and line) when it is malformed or holds another rank count. */
int ncmp_from_sim(ncmp_run *r, const char *dir, char *err, size_t errlen);
/* The error predicted / published - 1, and the tolerance of a point of size bytes (0: no goal). */
double ncmp_err(double pred, double pub);
double ncmp_tol(double bytes);
/* Counts over runs that score (nccl_cat_scored): the points at >= 1 MiB (goal[0]) and those within
 * 15% (met[0]); the points at >= 64 MiB (goal[1]) and those within 10% (met[1]). */
void ncmp_tally(const ncmp_run *r, int n, int goal[2], int met[2]);
/* The table on f; source is "model" or "simulated". */
void ncmp_print(const ncmp_run *r, int n, const char *source, FILE *f);
/* DIR/compare.csv, DIR/report.md and DIR/MACHINE.gp (each written whole). 0, or 1 with a message. */
int ncmp_write(const ncmp_run *r, int n, const char *source, const char *dir, char *err, size_t errlen);

#endif
