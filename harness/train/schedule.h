/* schedule.h — the synchronous data-parallel training step's schedule, written once.
 *
 *   t0 ─ forward ─ backward: layer L-1 … 0, each layer's tensors highest first; the moment a
 *        tensor completes its bucket (bucket.h: its lowest tensor), the bucket is posted
 *      ─ t_bwd (end of compute) ─ drain: every posted allreduce done, in posting order, each one
 *        starting at max(its post, the previous one's end) ─ t_sgd ─ the optimizer ─ t_end
 *
 *   step = t_end − t0, compute = t_bwd − t0, exposed = max(0, last allreduce end − t_bwd),
 *   sgd = t_end − t_sgd.
 *
 * What each piece costs is the pricer's (ASTRA-sim's split of one workload layer from interchangeable
 * backends): trainer.c runs the kernels and hands buckets to the engine, measured by the real engine
 * (engine_thread.c, a communication thread) or by SMPI's virtual clock (engine_sim.c); perf_step.c
 * prices every piece on the α-β-γ model with no run at all. `ddlbench train`, `model train`, `study`
 * and `advise` all go through sched_step, so no copy of the schedule can drift from another. */
#ifndef HARN_SCHEDULE_H
#define HARN_SCHEDULE_H

#include "bucket.h"
#include "model.h"

typedef struct sched_pricer {
    double (*now)(void *arg);                /* the compute clock, s */
    int (*forward)(void *arg);               /* the whole forward pass */
    int (*backward)(void *arg, int layer);   /* layer's backward compute (its gradients' values) */
    int (*gradient)(void *arg, int tensor);  /* optional: tensor's gradient is written, before a post */
    int (*post)(void *arg, int bucket);      /* bucket complete: its allreduce may start */
    int (*end_backward)(void *arg, double *t_bwd); /* optional: after the last layer; may move t_bwd */
    int (*drain)(void *arg, double *t_bwd, double *comm_end, double *busy_s, int *buckets); /* all
                                              allreduces done: when the last ended, their summed time,
                                              how many; t_bwd moves later by the compute that contention
                                              slowed (framework.h); the clock is then where the
                                              optimizer may start */
    int (*update)(void *arg);                /* the optimizer */
} sched_pricer;

typedef struct sched_times {
    double step_s;     /* t_end − t0 */
    double forward_s;  /* the forward pass */
    double compute_s;  /* forward + backward: t_bwd − t0 */
    double exposed_s;  /* communication after t_bwd */
    double sgd_s;      /* the optimizer */
    double comm_s;     /* allreduce busy time, overlapped or not */
    int buckets;       /* allreduces */
} sched_times;

/* One step of model m with gradient buckets plan, priced by p (arg its state). 0, or the first
 * non-zero return of a pricer function (its message is the pricer's). */
int sched_step(const model *m, const bucket_plan *plan, const sched_pricer *p, void *arg, sched_times *out);

/* The GEMMs of layer L's pass in the order the trainer runs them (backward 0: forward, MODEL_FWD;
 * backward 1: the weight gradient, then the data gradient when the layer needs it). Fills which and
 * returns how many: 0 for a layer without GEMMs (neither conv nor FC). */
int sched_layer_gemms(const model_layer *L, int backward, int which[2]);

/* Every GEMM of one step in the schedule's order, for a measurement that runs the step's compute
 * alone (`model --time --cold`): forward, layers 0 … L-1; backward, layers L-1 … 0; each layer's as
 * sched_layer_gemms. Calls fn(arg, layer, which) for each; 0, or fn's first non-zero return. */
int sched_gemms(const model *m, int (*fn)(void *arg, int layer, int which), void *arg);

#endif
