/* sweep_params.h — the scaling sweep's parameters (harness/scripts/sweep.sh, `make run`) and their one
 * set of limits. sweep.sh and the Makefile ask `ddlbench sweep-check` (cli_sweep.c) instead of
 * re-typing them; `ddlbench merge` takes the same options for scaling.csv's provenance lines. Pure. */
#ifndef HARN_SWEEP_PARAMS_H
#define HARN_SWEEP_PARAMS_H

#include <stddef.h>

#define SWEEP_NODES_MAX 4096        /* sim, mpi, emu: node counts a launch reaches */
#define SWEEP_NODES_MAX_MODEL 65536 /* model: nothing is launched */
#define SWEEP_GPUS_MAX 65536        /* nodes x GPUs per node */
#define SWEEP_GPN_MAX 64
#define SWEEP_BUCKET_MAX 65536
#define SWEEP_JOBS_MAX 64
#define SWEEP_BATCH_MAX 65536

typedef struct sweep_params {
    const char *backend, *nodes, *gpus_per_node, *models, *algos, *bucket_mb, *platform, *profile;
    const char *rate, *delay, *train_args, *jobs, *ring_max, *device; /* each as given on the command line */
    const char *command;    /* the sweep's own command line (provenance) */
    int make;               /* messages name make's variables (NODES), as `make run` sets them */
    int plan, dry_run, force; /* sweep-check --plan: print the launches; --dry-run, --force: no refusal */
    int override;           /* --override-platform: GPUs per node and profile may differ from the platform's */
    int resolve;            /* sweep-check --resolve: print "GPUS_PER_NODE PROFILE" as the sweep runs them */
    long n_nodes, n_gpn, n_bucket, n_jobs, n_ring_max; /* set by sweep_check */
} sweep_params;

/* sweep.sh's defaults ("" GPUs per node and profile: the platform's own, cli_sweep.c). */
void sweep_params_defaults(sweep_params *p);
/* Sets the parameter of option opt ("--nodes") to val: 0, or -1 when opt is not a sweep parameter. */
int sweep_params_set(sweep_params *p, const char *opt, const char *val);
/* The option as the user typed it: opt itself, or its make variable when p->make ("--nodes" -> "NODES"). */
const char *sweep_name(const sweep_params *p, const char *opt);
/* Every limit (backend, device, counts, GPUs in all, the lists' syntax, train options the sweep
 * sets). 0 with the n_* fields set, or 2 with "NAME: what; expected ..." in err (one line). */
int sweep_check(sweep_params *p, char *err, size_t errlen);

#endif
