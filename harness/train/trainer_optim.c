/* trainer_optim.c — the trainer's Adam and LAMB (step_config.optim; SGD: trainer_shard.c), over the
 * ranges this rank updates (t->ranges: everything, or under --shard its blocks and the buckets'
 * remainders), with shard_step.h's formulas:
 *   adam  PyTorch's Adam (weight decay added to the gradient), β = (0.9, 0.999), ε = 1e-8, wd = 1e-4;
 *         elementwise, so a shard updates its elements exactly as the unsharded step does;
 *   lamb  You et al. (arXiv:1904.00962, Algorithm 2), β = (0.9, 0.999), ε = 1e-6, wd = 0.01 (BERT's):
 *         pass 1 updates m and v and sums each tensor's Σw² and Σu² (u, the update term, not stored:
 *         no scratch buffer); under --shard a rank holds part of each tensor, so the 2·ntensors sums
 *         are allreduced (16 bytes per tensor, as DistributedFusedLAMB allreduces its per-tensor update
 *         norms: NVIDIA/apex apex/contrib/optimizers/distributed_fused_lamb.py); pass 2 recomputes u
 *         (the same float operations, so the same values) and applies w −= lr · ‖w‖/‖u‖ · u. The sums
 *         add in another order than the unsharded step's, so sharded parameters equal the unsharded
 *         ones within rounding, not bitwise.
 * State: m and v, 8 bytes per parameter of the rank's shard (and LAMB's sums). Under simulation the
 * buffers hold no values: the update's bytes (optim_update_bytes) are issued at the SGD rate and LAMB's
 * allreduce runs on SMPI. Host buffers only. */
#include "trainer_priv.h"

#include "compute.h"
#include "shard_step.h"
#include "sim.h"

#include <math.h>
#include <string.h>

static shard_optim hyper(const trainer *t)
{
    if (t->cfg.optim == OPTIM_ADAM) return (shard_optim){ OPTIM_ADAM, t->cfg.lr, 0, 1e-4f, 0.9f, 0.999f, 1e-8f };
    return (shard_optim){ OPTIM_LAMB, t->cfg.lr, 0, 0.01f, 0.9f, 0.999f, 1e-6f };
}

static int sharded(const trainer *t) { return t->cfg.shard != SHARD_NONE && t->size > 1; }

static int lamb(trainer *t, const shard_optim *o, long step)
{
    float c1 = 1.0f - powf(o->beta1, (float)step), c2 = 1.0f - powf(o->beta2, (float)step);
    int nt = model_tensor_count(t->m);
    memset(t->norms, 0, 2 * (size_t)nt * sizeof *t->norms);
    for (int i = 0; i < t->nranges; i++) {
        const trainer_range *r = &t->ranges[i];
        const float *w = trainer_wp(t, r), *m = t->mom + r->s, *v = t->mom2 + r->s;
        double w2 = 0, u2 = 0;
        shard_lamb_moments(o, r->n, trainer_gp(t, r), t->mom + r->s, t->mom2 + r->s);
        for (size_t j = 0; j < r->n && r->counted; j++) {
            float u = shard_lamb_u(o, m[j], v[j], w[j], c1, c2);
            w2 += (double)w[j] * w[j], u2 += (double)u * u;
        }
        t->norms[2 * r->tensor] += w2, t->norms[2 * r->tensor + 1] += u2;
    }
    if (sharded(t) && MPI_Allreduce(MPI_IN_PLACE, t->norms, 2 * nt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD))
        return 1;
    for (int i = 0; i < t->nranges; i++) {
        const trainer_range *r = &t->ranges[i];
        float *w = trainer_wp(t, r), *m = t->mom + r->s, *v = t->mom2 + r->s;
        float ratio = shard_lamb_ratio(t->norms[2 * r->tensor], t->norms[2 * r->tensor + 1]);
        for (size_t j = 0; j < r->n; j++) w[j] -= o->lr * ratio * shard_lamb_u(o, m[j], v[j], w[j], c1, c2);
    }
    return 0;
}

/* Simulation: the update's time on the compute clock, and LAMB's allreduce of its sums. */
static int simulated(trainer *t)
{
    double n = 0, gbps = kern_sim_sgd_gbps();
    for (int i = 0; i < t->nranges; i++) n += (double)t->ranges[i].n;
    if (!(gbps > 0)) return 1;
    kern_compute_issue(optim_update_bytes(t->cfg.optim) * n / (gbps * 1e9));
    if (t->cfg.optim != OPTIM_LAMB || !sharded(t)) return 0;
    int nt = model_tensor_count(t->m);
    kern_compute_wait_until(trainer_stream_time()); /* the sums exist once pass 1 is done */
    int rc = MPI_Allreduce(MPI_IN_PLACE, t->norms, 2 * nt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) ? 1 : 0;
    kern_compute_begin();
    return rc;
}

int trainer_optim_update(trainer *t)
{
    shard_optim o = hyper(t);
    long step = ++t->optim_step;
    if (!t->real) return simulated(t);
    if (o.kind == OPTIM_LAMB) return lamb(t, &o, step);
    for (int i = 0; i < t->nranges; i++) {
        const trainer_range *r = &t->ranges[i];
        if (shard_optim_apply(&o, NULL, 0, r->n, trainer_wp(t, r), trainer_gp(t, r), t->mom + r->s, t->mom2 + r->s,
                              NULL, step, MPI_COMM_NULL))
            return 1;
    }
    return 0;
}
