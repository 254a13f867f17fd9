/* perf_step.h — one training step predicted without running it: the one step schedule
 * (harness/train/schedule.h, the trainer's) with the α-β-γ pricer. `model train` (the `--backend model`
 * sweep, 4,096-65,536 GPUs), `study` (study.h) and `advise` (advise.h) are front-ends of it;
 * tests/sim_speed.sh holds it within 0.5% of a fresh simulation of the same step (every algorithm,
 * full and gemm compute, at 8, 32 and 256 GPUs).
 *
 * The prices, as the simulation charges them (cli_train.c sets the simulation's rates from the same
 * profile): each GEMM 2mnk / the profile's GEMM rate; with --compute full each layer also moves
 * model_mem_bytes at mem_gbps, forward and backward; a bucket's allreduce perf_cost(algo, bytes) on
 * the platform (`auto`: what the library picks, ddl_auto_choose; grid and patterns for ddl); SGD at
 * mem_gbps (model_sgd_bytes with full, 12 bytes per parameter with gemm). What the model leaves out is
 * what the simulation adds: per-segment latencies inside a step, and the links' contention beyond the
 * NIC sharing perf_cost.h charges. */
#ifndef HARN_PERF_STEP_H
#define HARN_PERF_STEP_H

#include "framework.h"
#include "model.h"
#include "platform.h"
#include "profile.h"

#include <stddef.h>

typedef struct step_prediction {
    double step_s, compute_s, gemm_s, nongemm_s, comm_s, exposed_s, sgd_s; /* as the train CSV's columns */
    double forward_s;          /* the forward pass (part of compute_s) */
    int buckets;               /* the plan's buckets (cycles: its tensors) */
    int allreduces;            /* the allreduces the framework made of them (framework.h) */
    double slowed_s;           /* the backward compute that contention added (part of compute_s) */
    double comm_slowed_s;      /* the allreduce time that comm_contention added (part of comm_s) */
    double gather_s;           /* sharding: allgathers' busy time (part of comm_s) */
    double gather_wait_s;      /* full: compute waiting for a layer's allgather (part of compute_s) */
    double sync_s;             /* the framework's coordination a study entry adds (study_terms.h: part of step_s,
                                  comm_s and exposed_s); 0 from perf_step */
} step_prediction;

typedef struct step_inputs {
    double gemm_gflops;        /* profile: fp32 GEMM rate, 1e9 flop/s */
    double gamma;              /* profile: s per byte reduced */
    double mem_gbps;           /* profile: memory-bound kernels and SGD, 1e9 bytes/s */
    int full;                  /* --compute full: + each layer's non-GEMM bytes (model_bytes.h) */
    size_t bucket_bytes;       /* --bucket-mb << 20 (0 = one bucket) */
    size_t first_bucket_bytes; /* --first-bucket-mb << 20 */
    const char *grid;          /* ddl: "8x32"; NULL = derived as the library does */
    const char *patterns;      /* ddl: per-dimension ring|rhd; NULL = ring */
    framework fw;              /* buckets or cycles, per-call cost (framework.h); zeros: ideal. With
                                  cycles every tensor is posted alone, fw.fusion_bytes caps what is fused
                                  and the two bucket sizes are unused */
    double jitter;             /* stragglers: the mean of the Exp(1) draws of trainer.h (0.05 = 5%); every
                                  step waits for the slowest of the ranks, so the GEMMs are priced at
                                  1 + jitter x H(ranks), H the harmonic number (the expected largest of
                                  that many draws); 0: none */
    double sgd_gbps;           /* profile: SGD's own rate, 1e9 bytes/s (0: mem_gbps) */
    const profile *shape;      /* optional: the profile's compute-model keys (precision's bytes, fused, kernel
                                  costs, tiles: perf_layer.h); gemm_gflops is then the precision's rate
                                  (profile_gemm_gflops). NULL: the linear model of gemm_gflops and mem_gbps */
    double compute_scale;      /* --images-per-s: every layer's and SGD's time x this (0 or 1: none) */
    int shard;                 /* SHARD_* (shard_mem.h); 0: none, DDP's allreduce */
    int optim;                 /* OPTIM_*; 0: SGD (with momentum under full compute, as the step runs it) */
    size_t grad_bytes;         /* bytes per gradient element on the wire (wire.h; --grad-dtype): 2 for fp16
                                  and bf16, whose buckets and allreduces hold twice the elements; 0: 4 */
    double fixed_s;            /* a fixed cost every step pays after the rest (a study entry's step_fixed_us:
                                  framework and optimizer work no layer prices), s; in step_s only; 0: none */
    int update_shard;          /* shard none: the optimizer's update over 1/update_shard of the parameters on
                                  every run, one rank's too (apex DistributedFusedLAMB's group under full_ar);
                                  fixed_s is then the group's allgather, paid by runs wider than the group
                                  only (within one group apex's reduce-scatter + allgather is the allreduce
                                  itself); 0 or 1: the whole update, fixed_s on every run */
} step_inputs;

/* Sharding (shard_mem.h; the update itself: shard_step.h). A bucket is reduce-scattered instead of
 * allreduced; reduce-scatter and allgather are priced as the two halves of the algorithm's allreduce
 * (ring, rhd and ddl are reduce-scatter + allgather): allgather = allreduce(n, γ = 0) / 2,
 * reduce-scatter = allreduce(n, γ) − allgather. The optimizer updates 1/p of the parameters;
 * optimizer and gradients then allgather the parameters after the update (in the sgd column, as the
 * trainer times it: its update is the sharded SGD and the allgathers). full (ZeRO-3,
 * FSDP) allgathers each layer's parameters before its forward and again before its backward,
 * prefetched one layer ahead (a layer's allgather is issued when the previous layer's compute starts,
 * as FSDP's forward_prefetch and BACKWARD_PRE do), on the stream that reduce-scatters the gradients, in
 * posting order: a gather waits for the reductions posted before it (FSDP's default: one process group,
 * one NCCL communicator, which runs one collective at a time; docs/SOURCES.md §18b); compute waits for it
 * (gather_wait_s, inside compute). Optimizer bytes per parameter: SGD as before, Adam 28 (w, g, m, v
 * read; w, m, v written), LAMB 48 (Adam's, u written, then w and u read for the norms, w and u read
 * and w written). All fp32. */

/* The predicted step of model m with allreduce algorithm algo (any registered algorithm with a cost
 * model, auto included) on every rank of pf. Returns 0, or 2 with a one-line message (unknown
 * algorithm, bad grid, a rate not finite and > 0), or 1 (out of memory). */
int perf_step(const model *m, const platform *pf, const char *algo, const step_inputs *in, step_prediction *out,
               char *err, size_t errlen);

#endif
