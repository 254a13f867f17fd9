/* shard_step.h — the optimizer step of sharded data parallelism on a flat gradient buffer, over
 * libddl's reduce-scatter and allgather (ddl.h), next to the unsharded one it must equal:
 *   none (DDP)       ddl_allreduce of the whole gradient; every rank updates every parameter
 *   optimizer,       ddl_reduce_scatter: rank r gets block r (count = ceil(P / p) elements, the
 *   gradients        buffer padded to p·count with zeros) summed; the optimizer updates that block
 *                    with its own state (count elements of each); ddl_allgather of the parameters
 *   full (ZeRO-3)    the same, but the parameters stay sharded after the step: shard_gather
 *                    allgathers them before they are used (before forward)
 * Gradients are averaged (sum × 1/p, the same float operation on both paths). Optimizers
 * (shard_mem.h's OPTIM_*): SGD with momentum and weight decay (PyTorch's SGD), Adam (PyTorch's Adam,
 * weight decay added to the gradient), LAMB (You et al., arXiv:1904.00962, Algorithm 2: Adam's
 * update plus decoupled weight decay, scaled per tensor by the trust ratio ‖w‖/‖u‖). LAMB's norms
 * are per tensor: a shard sums its part of each tensor's squares and the sums are allreduced, so
 * the sharded step adds them in another order than the unsharded one (equal within rounding);
 * SGD's and Adam's updates are elementwise, so with gradients whose sums are exact the sharded
 * parameters equal the unsharded ones bitwise (tests/test_shard_step.c). */
#ifndef HARN_SHARD_STEP_H
#define HARN_SHARD_STEP_H

#include "ddl.h"
#include "shard_mem.h"

#include <math.h>
#include <stddef.h>

typedef struct shard_optim {
    int kind;                  /* OPTIM_SGD, OPTIM_ADAM, OPTIM_LAMB */
    float lr, mu, wd;          /* learning rate, SGD's momentum, weight decay */
    float beta1, beta2, eps;   /* Adam and LAMB */
} shard_optim;

typedef struct shard_plan {
    int ntensors;
    const long long *numel;    /* the tensors' elements, in the flat buffer's order */
    size_t total;              /* P: their sum */
    size_t count;              /* a shard: ceil(P / ranks) elements */
    size_t padded;             /* ranks · count: the length of the flat buffers */
    int rank, ranks;
} shard_plan;

/* The plan for tensors numel[0 .. ntensors-1] over `ranks` ranks; 0, or -1 (ranks < 1, no tensor). */
int shard_plan_make(shard_plan *pl, int ntensors, const long long *numel, int rank, int ranks);

/* The update of flat elements [lo, lo + n) of w with the summed gradient g (g[0] is element lo's),
 * state s1, s2 (n each; zero before the first step), step t >= 1; scratch: n floats (LAMB). pl: read by
 * LAMB only (NULL otherwise).
 * LAMB's per-tensor norm sums are allreduced over comm unless it is MPI_COMM_NULL. 0, or -1. */
int shard_optim_apply(const shard_optim *o, const shard_plan *pl, size_t lo, size_t n, float *w, const float *g,
                      float *s1, float *s2, float *scratch, long t, MPI_Comm comm);

/* LAMB's pieces, shared with the trainer's LAMB over several ranges (trainer_optim.c): the moments m, v
 * of n elements; one element's update term u = m̂ / (√v̂ + ε) + wd·w (c1, c2: the bias
 * corrections 1 − β₁ᵗ, 1 − β₂ᵗ); a tensor's trust ratio ‖w‖/‖u‖ from its Σw² and Σu² (1 where
 * either is 0). */
void shard_lamb_moments(const shard_optim *o, size_t n, const float *g, float *s1, float *s2);
static inline float shard_lamb_u(const shard_optim *o, float m, float v, float w, float c1, float c2)
{
    return (m / c1) / (sqrtf(v / c2) + o->eps) + o->wd * w;
}
float shard_lamb_ratio(double w2, double u2);

/* One step (above) of mode SHARD_*: w and g hold pl->padded elements (g: this rank's gradient; it
 * is overwritten), s1, s2 and scratch pl->count (sharded) or pl->padded (none). 0, or a DDL_ERR_*
 * code (an algorithm without reduce-scatter and allgather: DDL_ERR_ALGO), or -1. */
int shard_step(ddl_ctx *ctx, MPI_Comm comm, const shard_plan *pl, int mode, const shard_optim *o, float *w,
               float *g, float *s1, float *s2, float *scratch, long t);
/* Full sharding: every rank's block of w allgathered (in place), before w is used. */
int shard_gather(ddl_ctx *ctx, const shard_plan *pl, float *w);

/* The trainer's buckets (engine.h) under sharding: a bucket of count elements, c = count / ranks,
 * is reduce-scattered over its first ranks·c elements in place (this rank's block of the sum lands
 * at buf[0 .. c)) and its remainder (count − ranks·c < ranks elements, at buf + ranks·c) allreduced;
 * not sharded: one allreduce. 0, or ddl's code. */
int shard_bucket_reduce(ddl_ctx *ctx, void *buf, size_t count, ddl_dtype dtype, int sharded, int ranks);

#endif
