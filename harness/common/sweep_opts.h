/* sweep_opts.h — the scaling sweep's options (harness/scripts/sweep.sh, `make run`) as rows of the one
 * option table (opts.h): names, make spellings (NODES=4), ranges, defaults and help in one place.
 * `ddlbench sweep-check` parses them (and prints them resolved for sweep.sh), `ddlbench merge` takes
 * the same for scaling.csv's provenance lines. sweep_check adds the rules that join two options
 * (--rate only with emu, GPUs in all, ...). Pure: no MPI, no file. */
#ifndef HARN_SWEEP_OPTS_H
#define HARN_SWEEP_OPTS_H

#include "opts.h"

#include <stddef.h>

#define SWEEP_NODES_MAX 4096        /* sim, mpi, emu: node counts a launch reaches */
#define SWEEP_NODES_MAX_MODEL 65536 /* model: nothing is launched */
#define SWEEP_GPUS_MAX 65536        /* nodes x GPUs per node */
#define SWEEP_GPN_MAX 64
#define SWEEP_BUCKET_MAX 65536
#define SWEEP_JOBS_MAX 64
#define SWEEP_BATCH_MAX 65536
#define SWEEP_PLATFORM "minsky"     /* no --platform: this preset, reshaped by --gpus-per-node */

typedef struct sweep_params {
    const char *backend, *models, *algos, *platform, *profile, *rate, *delay; /* as given, or defaults */
    const char *train_args, *add_train_args, *device, *precision, *command, *build, *out;
    long n_nodes, n_gpn, n_bucket, n_jobs, n_ring_max; /* n_gpn 0: the platform's (cli_sweep_resolve) */
    long n_global;          /* --global-batch: images a step over all GPUs at every point (gbatch.h); 0 = off */
    int override;           /* --override-platform: GPUs per node and profile may differ from the platform's */
    int allreduce;          /* --allreduce: mpi's own allreduce sweep after the training launches */
    int partial_leaf;       /* --partial-leaf: a file's leaf over --nodes partly filled, as a preset's */
    int platform_given;     /* --platform given (cli_sweep_resolve): under mpi, passed to every launch */
    int resume, quiet, dry_run, force; /* sweep.sh's own: continue, no progress, print only, no refusal */
    int make;               /* messages name make's variables (NODES), as `make run` passes them */
    int plan, resolve, usage; /* sweep-check: print the launches / the resolved options / sweep.sh's usage */
} sweep_params;

/* The rows, bound to a sweep_params: the sweep's options (sweep.sh's and make's), then sweep-check's. */
extern const opt_row sweep_rows[];
extern const int sweep_nrows;
extern const opt_row sweep_check_rows[];
extern const int sweep_check_nrows;

/* The rows' defaults, before the parse (the others NULL or 0). */
void sweep_defaults(sweep_params *p);
/* After the parse: the defaults that follow from other options (models and train options by backend
 * and device; jobs: the core count, 1 under mpi and emu, whose ranks would share the cores). */
void sweep_fill(sweep_params *p);
/* The option as the user typed it: opt itself, or its make spelling when p->make ("--nodes" -> "NODES"). */
const char *sweep_name(const sweep_params *p, const char *opt);
/* The rules across options (backend, device, rate, node and GPU counts, --train-args under sim). 0, or
 * 2 with "NAME: what; expected ..." in err (one line). The values themselves were checked by the rows. */
int sweep_check(const sweep_params *p, char *err, size_t errlen);
/* The per-backend defaults (models, train options), as usage lines. */
void sweep_defaults_usage(FILE *f);

#endif
