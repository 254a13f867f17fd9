/* model_step.h — one training step predicted without running it: the step composition of
 * harness/train/trainer.c and engine_sim.c, evaluated on the analytic α-β-γ model (model_cost.h)
 * instead of under SimGrid. The `--backend model` sweep (`ddlbench model --train`) uses it for
 * 4,096-65,536 GPUs, where the simulation is out of reach; tests/sim_speed.sh holds it within 5% of
 * the simulated step (every algorithm at 8 and 32 GPUs; ddl and rhd at 256 GPUs on 64 nodes).
 *
 * The composition, as the simulation runs it: forward GEMMs, then backward layer by layer (weight
 * gradient, then data gradient) at the profile's GEMM rate; a bucket is ready when the GEMMs of the
 * layer holding its last tensor end (with --compute full each layer also moves model_mem_bytes at
 * mem_gbps, forward and backward); bucket i's allreduce starts at max(its ready time, the end of
 * bucket i-1's) and lasts model_cost(algo, bytes); then SGD at mem_gbps (model_sgd_bytes with full,
 * 12 bytes per parameter with gemm), as cli_train.c sets the simulation's rates. `auto` is priced as the library picks it
 * (collectives/allreduce_auto.c): per power-of-two size class the cheapest candidate under this same
 * model. What the model leaves out is what the simulation adds: per-segment latencies inside a
 * step, and the links' contention beyond the NIC sharing model_cost.h charges. */
#ifndef HARN_MODEL_STEP_H
#define HARN_MODEL_STEP_H

#include "model.h"
#include "platform.h"

#include <stddef.h>

typedef struct step_prediction {
    double step_s, compute_s, gemm_s, nongemm_s, comm_s, exposed_s, sgd_s; /* as the train CSV's columns */
    int buckets;
} step_prediction;

typedef struct step_inputs {
    double gemm_gflops;        /* profile: fp32 GEMM rate, 1e9 flop/s */
    double gamma;              /* profile: s per byte reduced */
    double mem_gbps;           /* profile: memory-bound kernels and SGD, 1e9 bytes/s */
    int full;                  /* --compute full: + each layer's non-GEMM bytes (model_bytes.h) */
    size_t bucket_bytes;       /* --bucket-mb << 20 (0 = one bucket) */
    size_t first_bucket_bytes; /* --first-bucket-mb << 20 */
} step_inputs;

/* The predicted step of model m with allreduce algorithm algo (mpi, ring, rhd, ddl, auto) on every
 * rank of pf. Returns 0, or 2 with a one-line message (unknown algorithm, no memory). */
int model_step(const model *m, const platform *pf, const char *algo, const step_inputs *in, step_prediction *out,
               char *err, size_t errlen);

#endif
