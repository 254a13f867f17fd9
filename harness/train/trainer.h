/* trainer.h — one synchronous data-parallel training step of a model, on one rank:
 * forward layer by layer; backward in reverse, each layer's gradients written into the flat
 * gradient buffer and every bucket handed to the communication engine the moment it is complete;
 * wait for all allreduces; the optimizer. Two compute modes (step_config.full):
 *   gemm  the conv/FC GEMMs only (kernels/gemm.h) on synthetic operands of the right sizes (the im2col
 *         matrices are buffers, not real images), plain SGD w −= lr·g;
 *   full  the whole network (step_full.h): im2col/col2im, GEMMs, batch norm, ReLU, residual adds,
 *         pooling and the FC bias on real activations, SGD with momentum 0.9 and weight decay 1e-4. */
#ifndef HARN_STEP_H
#define HARN_STEP_H

#include "ddl.h"
#include "framework.h"
#include "gemm.h"
#include "model.h"

#include <stddef.h>

typedef struct step_config {
    size_t bucket_bytes;       /* 0 = one allreduce after the whole backward */
    size_t first_bucket_bytes; /* cap of the first bucket (DDP: 1 MB); 0 = same as bucket_bytes */
    int check;                 /* write known per-rank values as gradients and verify the sums */
    float lr;                  /* SGD learning rate */
    int device;                /* 0: host buffers; 1: device buffers (CUDA build, device selected) */
    kern_precision precision;  /* GEMM inputs (gemm.h); the CPU and simulation offer fp32 only */
    int full;                  /* 1: --compute full (the whole network), 0: --compute gemm */
    double jitter;             /* mean extra compute per rank and step, a fraction (0.05 = 5%); 0 = none */
    unsigned long seed;        /* jitter draws: a function of (seed, rank, step) only */
    framework fw;              /* buckets or Horovod's cycles, per-call cost (framework.h; simulation
                                  only); with cycles every tensor is posted alone, fw.fusion_bytes caps
                                  a fused allreduce, and the bucket sizes are unused */
    const struct profile *shape; /* simulation: the profile, when its compute-model keys or compute_scale
                                  price each layer (perf_layer.h) in place of each kernel; NULL: kernels */
    double compute_scale;      /* --images-per-s: every layer's time x this (0: none) */
    int shard;                 /* SHARD_* (shard_mem.h): none; optimizer, gradients (ZeRO-1/2): buckets
                                  reduce-scattered, the update on this rank's blocks with its shard of
                                  the state, the parameters allgathered; full (ZeRO-3 / FSDP): not
                                  allgathered after the update but before each use, forward and backward,
                                  prefetched a bucket ahead (trainer_shard.c); host buffers, buckets */
    ddl_dtype grad_dtype;      /* the gradients on the wire (wire.h): DDL_FLOAT32 (0, the default), or
                                  DDL_FLOAT16 / DDL_BFLOAT16 (host buffers only), cast per bucket */
    int optim;                 /* OPTIM_* (shard_mem.h): sgd (0, the default: gemm mode plain, full mode with
                                  momentum), adam or lamb (host buffers; trainer_optim.c), their m and v on
                                  the rank's shard under --shard */
} step_config;

/* Jitter (stragglers and noise): at each step every rank draws x = jitter * E, E ~ Exp(1) (mean 1;
 * the shifted-exponential straggler model, docs/SOURCES.md §10), from (seed, rank, step) alone, so a
 * run is reproducible and every algorithm meets the same draws. Each GEMM of that step then takes
 * (1 + x) times as long: real build, the rank spins for x times the GEMM's measured time; simulation,
 * x times its injected time is issued on the compute clock. */
double trainer_jitter_draw(unsigned long seed, int rank, int step);

typedef struct step_times {
    double step_s;     /* start to end of the step, SGD included */
    double gemm_s;     /* in GEMMs (forward and backward) */
    double nongemm_s;  /* in the other kernels of forward and backward (full mode; 0 in gemm mode) */
    double compute_s;  /* forward + backward compute, start to the last gradient */
    double exposed_s;  /* waiting for communication after the last gradient */
    double sgd_s;      /* the update */
    double comm_s;     /* allreduce busy time (overlapped or not) */
    double other_s;    /* step - gemm - nongemm - exposed - sgd: the harness's own time */
    int buckets;       /* allreduces this step */
} step_times;

typedef struct trainer trainer;

/* Allocates every buffer and the engine; the step itself allocates nothing. On failure returns
 * 1 with a one-line message in err. cfg->device = 1 needs the CUDA build, the calling
 * thread's device selected, and ctx created with ddl_config.device = 1. */
int trainer_create(const model *m, ddl_ctx *ctx, const step_config *cfg, trainer **out, char *err,
                   size_t errlen);
/* Runs step number `step` through the one step schedule (schedule.h); 0, or 1 (a failed run) with a
 * one-line message in err. */
int trainer_run(trainer *t, int step, step_times *times, char *err, size_t errlen);
/* Check mode: elements of the gradient buffer that differ from the exact sum over ranks. */
long trainer_verify(const trainer *t, int step);
int trainer_buckets(const trainer *t);
/* The flat parameters (host buffers; tests) and their count; with --shard full, each rank's current
 * block only until trainer_gather_params allgathers them all (collective; 0, or ddl's code). */
const float *trainer_params(const trainer *t, size_t *count);
int trainer_gather_params(trainer *t);
/* Bytes this rank allocated for the parameters (with --shard full on 2+ ranks its shard), the buckets
 * held whole at a time (full sharding's parameter slots, trainer_gather.c, and gradient sharding's
 * gradient slots, trainer_gslots.c; else 0), the gradients (with --shard gradients or full on 2+ ranks
 * the rank's shard of their sums; whole with --grad-dtype fp16/bf16) and the optimizer state (SGD: the
 * velocities of --compute full, none in gemm mode; Adam: m and v; LAMB: m, v and two norms of 8 bytes
 * per tensor): sharded, the state is the rank's shard. */
void trainer_memory(const trainer *t, double *params, double *gathered, double *grads, double *state);
void trainer_free(trainer *t);

#endif
