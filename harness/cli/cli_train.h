/* cli_train.h — `ddlbench train`, private to cli_train.c (options, main), cli_train_run.c (one round
 * of one algorithm x bucket configuration; its row from all rounds) and cli_train_out.c (the table,
 * the comparison, the CSV). */
#ifndef HARN_CLI_TRAIN_H
#define HARN_CLI_TRAIN_H

#include "cost_hook.h"
#include "gemm.h"
#include "meta.h"
#include "model.h"
#include "rounds.h"

#include <stdio.h>

#define MAX_LIST 16
/* Watchdog default per step: 300 s. A step here takes 0.13 s (ResNet-50, batch 2, image 64, 2 ranks on
 * 2 cores) and grows with batch x image^2: batch 32 at 224 is about 200x that, ~30 s. 300 s leaves 10x
 * over the largest step we run yet ends a hung job minutes into an allocation, not hours. */
#define TRAIN_TIMEOUT_S 300

typedef struct train_opts {
    const char *model;                /* --model */
    long batch, image, steps, warmup; /* --batch --image-size --steps --warmup (per round) */
    long rounds;                      /* --rounds (0 = rounds_default) */
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
    double cycle_ms, call_us;         /* --cycle-ms, --call-us (framework.h; simulation only) */
    double contention_pct;            /* --contention (framework.h; simulation only) */
    double comm_contention_pct;       /* --comm-contention (framework.h; simulation only) */
    double overlap_from_pct;          /* --overlap-from (framework.h; simulation only) */
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
    double med[F_COUNT];      /* the median step's breakdown (rounds.h): per step the rank whose step was
                                 longest, its own figures, so that they add up; seconds */
    rounds_stats step;        /* step time over rounds x steps, seconds */
    double step_min, step_max;
    double round_med[ROUNDS_MAX]; /* each round's median step */
    double images_per_s;
    double slowed_s;          /* model train: the compute that contention added (in gemm and nongemm) */
    double comm_slowed_s;     /* model train: the allreduce time that comm_contention added (in comm) */
    long wrong; /* elements wrong over ranks with --check; -1 = not checked (NA) */
    double gflops, ipc;       /* PAPI over the GEMMs of the timed steps, all ranks; < 0 = NA */
    double cnt[4];            /* this rank's counts over the rounds: flops, instructions, cycles, GEMM s */
    int cnt_na;               /* a round could not count */
    int sig;                  /* against the fastest row: ROUNDS_DIFFER, _SAME, _NA; TRAIN_BEST; TRAIN_ALONE */
    double vs_best;           /* median step / the fastest's - 1 */
    double *ranks;            /* rank 0, --per-rank: TR_FIELDS per rank, seconds (malloc'd), else NULL */
} train_row;
enum { TRAIN_BEST = 2, TRAIN_ALONE = 3 }; /* the fastest row; the only configuration */

/* Timed samples per configuration: rounds x steps; doubles of samples per configuration. */
#define TRAIN_SAMPLES(o) ((size_t)(o)->rounds * (size_t)(o)->steps)
#define TRAIN_STRIDE(o) (2 * (size_t)F_COUNT * TRAIN_SAMPLES(o))

/* Round `round` of one configuration (algorithm a, bucket size b): a context, a trainer, warm-up and
 * timed steps into samples (TRAIN_STRIDE doubles: F_COUNT fields of the step's slowest rank, then this
 * rank's own, TRAIN_SAMPLES each, round-major); round 0 starts r. Collective. 0, or 1/2 (a run
 * failed or bad input; rank 0 or the failing rank printed why). */
int train_run_config(const train_opts *o, const model *m, int a, int b, int round, double *samples, train_row *r);
/* After the last round: r's statistics, counter rates, --per-rank figures. Collective. 0, or 1. */
int train_finish_config(const train_opts *o, double *samples, train_row *r);
/* cli_train_out.c — each row against the fastest (sig, vs_best: the rule of rounds.h). */
void train_compare_rows(train_row *rows, int n, int nrounds);
/* The header's line of modelled effects ("; jitter 2% (Exp, seed 1); 20 us a call ..."; "" for none) in buf. */
const char *train_effects_line(const train_opts *o, char *buf, size_t len);
/* The table's header lines. */
void train_print_header(FILE *f, const train_opts *o, int size, const char *jline);
/* A row as the table (csv = 0; with --per-rank a '#' line of the ranks' spread follows) or as CSV
 * lines (with --per-rank the summary columns, then one line per rank). */
void train_print_row(FILE *f, int csv, const train_opts *o, int size, const train_row *r);
/* '#' lines under the table: each row against the fastest, significant or not, and why. */
void train_print_comparison(FILE *f, const train_opts *o, const train_row *rows, int n);
/* The projected time to train of each row (workload.h), '#' lines under the table. */
void train_print_time_to_train(FILE *f, const train_opts *o, int size, const train_row *rows, int n);
/* --csv and --json with the provenance lines, each written whole (temporary file, renamed); 0, or 1
 * with the reason printed. */
int train_write_results(const run_meta *meta, const train_opts *o, int size, const train_row *rows, int n);

#endif
