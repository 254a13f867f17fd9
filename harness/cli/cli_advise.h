/* cli_advise.h — `ddlbench advise`, private to cli_advise.c (options, the model sweep, the advice) and
 * cli_advise_sim.c (the same grid through the simulator, --sim). */
#ifndef HARN_CLI_ADVISE_H
#define HARN_CLI_ADVISE_H

#include "advise.h"
#include "ddl.h"
#include "platform.h"
#include "profile.h"

#define ADV_MAX 32 /* entries of --caps and --firsts */

typedef struct advise_opts {
    const char *model, *preset, *algo, *profile, *sim_exe;
    long gpus, gpn, batch, image;
    ddl_dtype grad_dtype;                /* --grad-dtype: the gradients on the wire (wire.h) */
    double limit;                        /* --limit PCT: the largest GPU counts keeping PCT% (limit.h); 0 = off */
    char algos_all[1][256];              /* --limit: -a list storage */
    long global_batch;                   /* --global-batch: images a step over all GPUs (gbatch.h); 0 = off */
    long caps[ADV_MAX], firsts[ADV_MAX]; /* MiB; cap 0 = one bucket, first 0 = the cap */
    int ncaps, nfirsts;
    int sim;                             /* --sim */
    int override;                        /* --override-platform */
    int shards, optim;                   /* --shards, --optimizer (OPTIM_*) */
    char listbuf[2][256];
} advise_opts;

/* --limit (cli_advise_limit.c): the table of the largest GPU count per algorithm and case, on pf's
 * platform up to its node count. 0, or 1/2 with the message printed. */
int advise_limit(const advise_opts *o, const platform *pf, const profile *pr);
/* --sim: 0 if the simulation binary and simlaunch.sh are there; else 2 with a message. */
int advise_sim_check(const advise_opts *o, char *err, size_t errlen);
/* The grid through the simulator: one `ddlbench-sim train` launch per first-bucket size with every
 * cap, on pf; fills exposed[f * ncaps + c] and step[...] in seconds. 0, or 1/2 with a message. */
int advise_sim_grid(const advise_opts *o, const platform *pf, double *exposed, double *step, char *err, size_t errlen);

#endif
