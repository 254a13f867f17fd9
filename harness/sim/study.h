/* study.h — the analytic step model behind `ddlbench study`: one data-parallel training step of a
 * model on a platform, priced the way the simulator runs it (harness/train/trainer.c and engine_sim.c)
 * but in closed form, so a band of unknowns at 256 GPUs costs milliseconds instead of SMPI runs:
 *   forward    Σ forward GEMM FLOPs / rate + the layer's memory-bound bytes / mem_gbps (model_bytes.h);
 *   backward   layer by layer in reverse, memory-bound bytes / mem_gbps, then (weight + data
 *              gradient FLOPs) / rate; a bucket
 *              (harness/train/bucket.h) is ready when its last tensor's layer is done;
 *   allreduce  one bucket at a time, in completion order, each starting when it is ready and the
 *              previous one is done, priced by the α-β-γ model (model_cost.h) of the platform;
 *              bucket 0 = one allreduce after the whole backward (no overlap);
 *   SGD        with momentum: model_sgd_bytes / mem_gbps (the full step, as layers_sim.c charges it);
 *              with mem_gbps = 0, 12 bytes per parameter at 3 / γ bytes/s (sgd_sim.c);
 *   step       max(backward end, last allreduce end) + SGD.
 * Compute and communication overlap for free (a GPU's copy engines and NIC); framework time and data
 * loading are left out: at a fixed per-GPU rate they cancel out of efficiency. */
#ifndef HARN_STUDY_H
#define HARN_STUDY_H

#include "model.h"
#include "platform.h"

#include <stddef.h>

typedef struct study_case {
    const platform *pf;         /* nodes x GPUs per node: the ranks */
    const char *algo;           /* allreduce algorithm of the cost model: ring, rhd, ddl, mpi */
    const char *grid, *patterns;/* ddl: grid ("8x32") and per-dimension ring|rhd; NULL = as the library */
    double gflops;              /* effective GEMM rate, 1e9 FLOP/s (device profile) */
    double gamma;               /* reduction cost, s per byte (device profile) */
    size_t bucket_bytes;        /* 0 = overlap off */
    size_t first_bucket_bytes;  /* DDP: 1 MiB */
    double mem_gbps;            /* memory-bound kernels' rate, 1e9 B/s (profile mem_gbps): the full step's
                                   batch norm, ReLU, pooling, im2col, SGD with momentum (model_bytes.h);
                                   0 = GEMMs only and plain SGD (train --compute gemm) */
} study_case;

typedef struct study_time {
    double step_s, compute_s, comm_s, exposed_s, sgd_s;
    int buckets;
} study_time;

/* Predicted step of model m (its batch is per GPU) on c. 0, or 2 with a one-line message. */
int study_step(const model *m, const study_case *c, study_time *out, char *err, size_t errlen);

#endif
