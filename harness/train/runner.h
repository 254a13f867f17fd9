/* runner.h — the training runner behind `ddlbench train` (harness/cli/cli_train.c parses, calls and
 * prints): the run's options, one row per configuration (algorithm x bucket size), one round of one
 * configuration and its statistics after the last (runner_config.c), and the whole run (runner.c):
 * the profile's rates, MPI, the cost hook, the watchdog, the device, the provenance and the rounds
 * loop. Errors as docs/DESIGN.md's convention: each call returns 0, 1 (a run failed) or 2 (bad input)
 * with one line in the caller's err buffer on the ranks that must say it — rank 0 for what every rank
 * sees, the failing rank (with its number) for what only it sees — and "" on the others; the caller
 * prints it. Nothing here prints to stderr; stdout: only through the caller's progress callbacks. */
#ifndef HARN_RUNNER_H
#define HARN_RUNNER_H

#include "cost_hook.h"
#include "ddl.h"
#include "framework.h"
#include "gemm.h"
#include "meta.h"
#include "model.h"
#include "rounds.h"

#include <stddef.h>

#define MAX_LIST 16
typedef struct train_opts {
    const char *model;                /* --model */
    long batch, image, steps, warmup; /* --batch --image-size --steps --warmup (per round) */
    ddl_dtype grad_dtype;             /* --grad-dtype: the gradients on the wire (wire.h); DDL_FLOAT32 = 0 */
    long global_batch;                /* --global-batch: images a step over all ranks (gbatch.h); 0 = off,
                                         else batch is its share once the ranks are known */
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
    const char *images_per_s;         /* --images-per-s R@B: compute pinned (simulation and model only) */
    double compute_scale;             /* its scale of every layer's time (perf_layer.h); 0 = none */
    const struct profile *shape;      /* the loaded --profile (train_runner_profile); NULL without one */
    const char *cost_platform;        /* --platform: preset whose model drives `auto` */
    long cost_gpn;                    /* --gpus-per-node of that platform */
    double gamma;                     /* the profile's reduction cost, s per byte */
    cost_hook *hook;                  /* set once MPI knows the rank count */
    int check;                        /* --check */
    int device;                       /* --device gpu: buffers and GEMMs on the GPU (CUDA build) */
    kern_precision precision;         /* --precision of the GEMM inputs */
    int full;                         /* --compute full (default) or gemm */
    double jitter_pct;                /* --jitter: mean extra compute per rank and step, % (trainer.h) */
    int shard;                        /* --shard: SHARD_* (shard_mem.h); model train only */
    int optim;                        /* --optimizer: OPTIM_* (shard_mem.h); model train only */
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
    double mem[4];            /* bytes a rank allocated (the most over ranks) for parameters, the buckets
                                 gathered at a time, gradients and the optimizer state (trainer_memory) */
    double model_mem[3];      /* shard_mem.h's formula for the same: parameters, gradients, state */
} train_row;
enum { TRAIN_BEST = 2, TRAIN_ALONE = 3 }; /* the fastest row; the only configuration */

/* Timed samples per configuration: rounds x steps; doubles of samples per configuration. */
#define TRAIN_SAMPLES(o) ((size_t)(o)->rounds * (size_t)(o)->steps)
#define TRAIN_STRIDE(o) (2 * (size_t)F_COUNT * TRAIN_SAMPLES(o))

/* The framework of o's options (framework.h) with the cycles' fusion cap bucket_mb. */
framework train_framework(const train_opts *o, long bucket_mb);
/* Round `round` of one configuration (algorithm a, bucket size b): a context, a trainer, warm-up and
 * timed steps into samples (TRAIN_STRIDE doubles: F_COUNT fields of the step's slowest rank, then this
 * rank's own, TRAIN_SAMPLES each, round-major); round 0 starts r. On rank 0, the context's description
 * into desc where the run shows it (round 0 of `auto`, or of the first configuration on the device;
 * "" otherwise). Collective. 0, or 1/2 (a run failed or bad input) with the message in err on the ranks
 * that say it (runner's convention, above). */
int train_run_config(const train_opts *o, const model *m, int a, int b, int round, double *samples, train_row *r,
                     char *desc, size_t desclen, char *err, size_t errlen);
/* After the last round: r's statistics, counter rates, --per-rank figures. Collective. 0, or 1 with err. */
int train_finish_config(const train_opts *o, double *samples, train_row *r, char *err, size_t errlen);

/* runner_compute.c: --images-per-s into o->compute_scale for the profile pr (0 without the option). 0,
 * or 2 with err. */
struct profile;
int train_pin_compute(train_opts *o, const struct profile *pr, char *err, size_t errlen);
/* The compute model's one line ("per-layer roofline, fp16 ...; pinned ...") in buf. */
const char *train_compute_model(const train_opts *o, const struct profile *pr, char *buf, size_t len);

/* Before MPI: the profile's rates (o->profile) into the simulated kernels and o->gamma; nothing
 * without one. 0, or 2 with a message in err. */
int train_runner_profile(train_opts *o, char *err, size_t errlen);

/* The whole run: the inputs (o, m, compute) and what it found. */
typedef struct train_runner {
    train_opts *o;             /* in: the options (o->hook set by train_runner_start) */
    const model *m;            /* in: the network, built for o->batch and o->image */
    const char *compute;       /* in: the provenance's "compute" line */
    int rank, size;            /* MPI_COMM_WORLD's, once started */
    run_meta meta;             /* the provenance (meta.h) */
    int no_counters;           /* PAPI unavailable: why says why */
    char why[200];
    train_row *rows;           /* one per configuration, c = algorithm x o->nbuckets + bucket */
    int nconf, nrows;          /* configurations; rows run so far */
    double *samples;           /* TRAIN_STRIDE(o) a configuration */
    cost_hook hook;            /* o->platform's links, when given */
} train_runner;

/* MPI (argc, argv as main's), the cost hook, the thread level, the watchdog, the device, the provenance
 * and the samples. Collective. 0, 1 or 2 with err (above); train_runner_end in every case. */
int train_runner_start(train_runner *r, int *argc, char ***argv, char *err, size_t errlen);
/* What a run reports as it goes, on every rank (either NULL: nothing): a context's description (the
 * ranks where train_run_config gave one), and the end of each round of every configuration. */
typedef struct train_progress {
    void (*context)(const train_runner *r, const char *desc, void *arg);
    void (*round_done)(const train_runner *r, int round, void *arg);
    void *arg;
} train_progress;
/* Every round of every configuration, interleaved (rounds.h), then each row's statistics. Collective.
 * 0, 1 or 2 with err (above). */
int train_runner_rounds(train_runner *r, const train_progress *p, char *err, size_t errlen);
/* Frees the rows' buffers and the samples, stops the watchdog and the counters, MPI_Finalize. */
void train_runner_end(train_runner *r);

#endif
