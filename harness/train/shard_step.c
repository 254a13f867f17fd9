/* shard_step.c — the sharded and unsharded optimizer steps (see shard_step.h). */
#include "shard_step.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int shard_plan_make(shard_plan *pl, int ntensors, const long long *numel, int rank, int ranks)
{
    memset(pl, 0, sizeof *pl);
    if (ranks < 1 || ntensors < 1 || rank < 0 || rank >= ranks) return -1;
    for (int i = 0; i < ntensors; i++) {
        if (numel[i] < 0) return -1;
        pl->total += (size_t)numel[i];
    }
    pl->ntensors = ntensors, pl->numel = numel, pl->rank = rank, pl->ranks = ranks;
    pl->count = (pl->total + (size_t)ranks - 1) / (size_t)ranks;
    pl->padded = pl->count * (size_t)ranks;
    return 0;
}

/* SGD (PyTorch): v = μ·v + (g + wd·w); w −= lr·v. Adam: g' = g + wd·w, m and v, bias-corrected. */
static void elementwise(const shard_optim *o, size_t n, float *w, const float *g, float *s1, float *s2, long t)
{
    float c1 = 1.0f - powf(o->beta1, (float)t), c2 = 1.0f - powf(o->beta2, (float)t);
    for (size_t i = 0; i < n; i++) {
        float gi = g[i] + o->wd * w[i];
        if (o->kind == OPTIM_SGD) {
            s1[i] = o->mu * s1[i] + gi;
            w[i] -= o->lr * s1[i];
            continue;
        }
        s1[i] = o->beta1 * s1[i] + (1.0f - o->beta1) * gi;
        s2[i] = o->beta2 * s2[i] + (1.0f - o->beta2) * gi * gi;
        w[i] -= o->lr * (s1[i] / c1) / (sqrtf(s2[i] / c2) + o->eps);
    }
}

void shard_lamb_moments(const shard_optim *o, size_t n, const float *g, float *s1, float *s2)
{
    for (size_t i = 0; i < n; i++) {
        s1[i] = o->beta1 * s1[i] + (1.0f - o->beta1) * g[i];
        s2[i] = o->beta2 * s2[i] + (1.0f - o->beta2) * g[i] * g[i];
    }
}

float shard_lamb_ratio(double w2, double u2) { return w2 > 0 && u2 > 0 ? (float)(sqrt(w2) / sqrt(u2)) : 1; }

/* LAMB: u = m̂ / (√v̂ + ε) + wd·w into u; per tensor Σw² and Σu² over [lo, lo + n) (summed over comm);
 * then w −= lr · (‖w‖/‖u‖, or 1 where either is 0) · u. */
static int lamb(const shard_optim *o, const shard_plan *pl, size_t lo, size_t n, float *w, const float *g, float *s1,
                float *s2, float *u, long t, MPI_Comm comm)
{
    float c1 = 1.0f - powf(o->beta1, (float)t), c2 = 1.0f - powf(o->beta2, (float)t);
    double *sums = calloc(2 * (size_t)pl->ntensors, sizeof *sums);
    if (!sums) return -1;
    shard_lamb_moments(o, n, g, s1, s2);
    for (size_t i = 0; i < n; i++) u[i] = shard_lamb_u(o, s1[i], s2[i], w[i], c1, c2);
    size_t start = 0;
    for (int k = 0; k < pl->ntensors; k++) { /* each tensor's part of [lo, lo + n) */
        size_t end = start + (size_t)pl->numel[k], a = start > lo ? start : lo, b = end < lo + n ? end : lo + n;
        for (size_t i = a; i < b; i++)
            sums[2 * k] += (double)w[i - lo] * w[i - lo], sums[2 * k + 1] += (double)u[i - lo] * u[i - lo];
        start = end;
    }
    if (comm != MPI_COMM_NULL &&
        MPI_Allreduce(MPI_IN_PLACE, sums, 2 * pl->ntensors, MPI_DOUBLE, MPI_SUM, comm) != MPI_SUCCESS) {
        free(sums);
        return -1;
    }
    start = 0;
    for (int k = 0; k < pl->ntensors; k++) {
        size_t end = start + (size_t)pl->numel[k], a = start > lo ? start : lo, b = end < lo + n ? end : lo + n;
        float ratio = shard_lamb_ratio(sums[2 * k], sums[2 * k + 1]);
        for (size_t i = a; i < b; i++) w[i - lo] -= o->lr * ratio * u[i - lo];
        start = end;
    }
    free(sums);
    return 0;
}

int shard_optim_apply(const shard_optim *o, const shard_plan *pl, size_t lo, size_t n, float *w, const float *g,
                      float *s1, float *s2, float *scratch, long t, MPI_Comm comm)
{
    if (t < 1 || o->kind < 0 || o->kind >= OPTIM_KINDS) return -1;
    if (o->kind == OPTIM_LAMB) return lamb(o, pl, lo, n, w, g, s1, s2, scratch, t, comm);
    elementwise(o, n, w, g, s1, s2, t);
    return 0;
}

int shard_step(ddl_ctx *ctx, MPI_Comm comm, const shard_plan *pl, int mode, const shard_optim *o, float *w,
               float *g, float *s1, float *s2, float *scratch, long t)
{
    float inv = 1.0f / (float)pl->ranks;
    int rc;
    if (mode == SHARD_NONE) {
        if ((rc = ddl_allreduce(ctx, DDL_IN_PLACE, g, pl->padded, DDL_FLOAT32, DDL_SUM))) return rc;
        for (size_t i = 0; i < pl->padded; i++) g[i] *= inv;
        return shard_optim_apply(o, pl, 0, pl->padded, w, g, s1, s2, scratch, t, MPI_COMM_NULL);
    }
    if (mode < 0 || mode >= SHARD_MODES) return -1;
    /* in place: g's first count elements become this rank's block of the sum */
    if ((rc = ddl_reduce_scatter(ctx, DDL_IN_PLACE, g, pl->count, DDL_FLOAT32, DDL_SUM))) return rc;
    for (size_t i = 0; i < pl->count; i++) g[i] *= inv;
    size_t lo = (size_t)pl->rank * pl->count;
    if ((rc = shard_optim_apply(o, pl, lo, pl->count, w + lo, g, s1, s2, scratch, t, comm))) return rc;
    return mode == SHARD_FULL ? 0 : shard_gather(ctx, pl, w);
}

int shard_bucket_reduce(ddl_ctx *ctx, void *buf, size_t count, ddl_dtype dtype, int sharded, int ranks)
{
    if (!sharded || ranks < 2) return ddl_allreduce(ctx, DDL_IN_PLACE, buf, count, dtype, DDL_SUM);
    size_t c = count / (size_t)ranks, rem = count - c * (size_t)ranks, es = ddl_dtype_size(dtype);
    int rc = c ? ddl_reduce_scatter(ctx, DDL_IN_PLACE, buf, c, dtype, DDL_SUM) : 0;
    if (!rc && rem) rc = ddl_allreduce(ctx, DDL_IN_PLACE, (char *)buf + c * (size_t)ranks * es, rem, dtype, DDL_SUM);
    return rc;
}

int shard_gather(ddl_ctx *ctx, const shard_plan *pl, float *w)
{
    return ddl_allgather(ctx, DDL_IN_PLACE, w, pl->count, DDL_FLOAT32);
}
