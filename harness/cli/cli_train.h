/* cli_train.h — `ddlbench train`, private to cli_train.c (options, main) and cli_train_run.c (one
 * algorithm x bucket configuration, its row, the CSV). */
#ifndef HARN_CLI_TRAIN_H
#define HARN_CLI_TRAIN_H

#include "cost_hook.h"
#include "gemm.h"
#include "meta.h"
#include "model.h"

#include <stdio.h>

#define MAX_LIST 16
/* Watchdog default per step: 300 s. A step here takes 0.13 s (ResNet-50, batch 2, image 64, 2 ranks on
 * 2 cores) and grows with batch x image^2: batch 32 at 224 is about 200x that, ~30 s. 300 s leaves 10x
 * over the largest step we run yet ends a hung job minutes into an allocation, not hours. */
#define TRAIN_TIMEOUT_S 300

typedef struct train_opts {
    const char *model;                /* --model */
    long batch, image, steps, warmup; /* --batch --image-size --steps --warmup */
    const char *algos[MAX_LIST];      /* -a */
    int nalgos;
    long bucket_mb[MAX_LIST];         /* --bucket-mb list */
    int nbuckets;
    long first_mb;                    /* --first-bucket-mb */
    const char *grid, *patterns;      /* --grid --patterns (ddl) */
    long poll_us;                     /* --poll-us */
    long timeout_s;                   /* --timeout: watchdog per step, 0 = off */
    const char *profile;              /* --profile: device rates for the simulation backends */
    const char *cost_platform;        /* --platform: preset whose model drives `auto` */
    long cost_gpn;                    /* --gpus-per-node of that platform */
    double gamma;                     /* the profile's reduction cost, s per byte */
    cost_hook *hook;                  /* set once MPI knows the rank count */
    int check;                        /* --check */
    int device;                       /* --device gpu: buffers and GEMMs on the GPU (CUDA build) */
    kern_precision precision;         /* --precision of the GEMM inputs */
    int full;                         /* --compute full (default) or gemm */
    double jitter_pct;                /* --jitter: mean extra compute per rank and step, % (trainer.h) */
    long seed;                        /* --jitter-seed */
    const char *csv;                  /* --csv */
    const char *json;                 /* --json: the CSV's rows as one JSON document */
    int per_rank;                     /* --per-rank: each rank's own medians, slowest rank, stragglers */
    char listbuf[2][256];             /* storage for the parsed lists */
} train_opts;

enum { F_STEP, F_COMPUTE, F_GEMM, F_NONGEMM, F_COMM, F_EXPOSED, F_SGD, F_OTHER, F_COUNT };
#define TR_FIELDS (F_COUNT + 2) /* per rank: the F_COUNT medians, then step min and max */

typedef struct train_row {
    const char *algo;
    long bucket_mb;
    int buckets;
    double med[F_COUNT];      /* medians over steps of the max over ranks, seconds */
    double step_min, step_max;
    double images_per_s;
    long wrong; /* elements wrong over ranks with --check; -1 = not checked (NA) */
    double gflops, ipc;       /* PAPI over the GEMMs of the timed steps, all ranks; < 0 = NA */
    double *ranks;            /* rank 0, --per-rank: TR_FIELDS per rank, seconds (malloc'd), else NULL */
} train_row;

/* One configuration (algorithm a, bucket size b): warm-up and timed steps, the row filled on every
 * rank. 0, or 1 (a run failed; rank 0 printed why). samples: 2 x F_COUNT x steps doubles. */
int train_run_config(const train_opts *o, const model *m, int a, int b, double *samples, train_row *r);
/* cli_train_out.c — a row as the table (csv = 0; with --per-rank a '#' line of the ranks' spread
 * follows) or as CSV lines (with --per-rank the summary columns, then one line per rank). */
void train_print_row(FILE *f, int csv, const train_opts *o, int size, const train_row *r);
/* The projected time to train of each row (workload.h), '#' lines under the table. */
void train_print_time_to_train(FILE *f, const train_opts *o, int size, const train_row *rows, int n);
/* --csv and --json with the provenance lines, each written whole (temporary file, renamed); 0, or 1
 * with the reason printed. */
int train_write_results(const run_meta *meta, const train_opts *o, int size, const train_row *rows, int n);

#endif
