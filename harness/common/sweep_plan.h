/* sweep_plan.h — the scaling sweep's launches and their expected cost (the order sweep.sh starts
 * them in, the ETA of its progress lines, the refusal of a sweep estimated at over an hour). Pure. */
#ifndef HARN_SWEEP_PLAN_H
#define HARN_SWEEP_PLAN_H

#include "sweep_opts.h"

#define SWEEP_MAX_COUNTS 40     /* GPU counts of one model: 1, G, 2G, 4G, ... */
#define SWEEP_SEC_PER_KUNIT 15  /* seconds of one core here per 1000 cost units (docs/BENCHMARKS.md "Sweep ETA") */

typedef struct sweep_launch {
    int first;              /* 0 for the 1-GPU baseline (started first), 1 otherwise */
    long long weight;       /* expected cost, in units of about SEC_PER_KUNIT/1000 s of one core */
    char model[64], batch[16];
    long gpus;
} sweep_launch;

/* The GPU counts of a sweep: 1, then n·gpn for n = 1, 2, 4, ... and nodes itself (1 not repeated). */
int sweep_counts(long nodes, long gpn, long *counts, int max);
/* sim: the flat ring's rows at g GPUs come from the model (--sim-ring-max), not the simulation. */
int sweep_ring_modelled(const sweep_params *p, long g);
/* The expected cost of one launch of g GPUs of a model with nbuckets gradient buckets per step (0:
 * unknown, taken as 5): per algorithm g + 4, plus g²/64 per ring-like one (mpi, ring), times the
 * steps (--steps + --warmup of --train-args; 10 + 2 by default) and buckets / 5; model: O(g) loops. */
long long sweep_weight(const sweep_params *p, int nbuckets, long g);
/* Every launch (models x counts; nbuckets[i] of model i) in starting order: the baselines first, then
 * the most expensive first. Fills out[0..*n) (at most max). 0, or 2 when over max. */
int sweep_plan(const sweep_params *p, const int *nbuckets, sweep_launch *out, int max, int *n);
/* "42 s", "12 min", "1.5 h": how the sweep prints durations. */
void sweep_human(long long s, char *buf, size_t len);

#endif
