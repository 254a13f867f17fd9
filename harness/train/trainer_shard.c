/* trainer_shard.c — the trainer's optimizer ranges, SGD and its sharding (trainer_priv.h, shard_step.h):
 *   none       the update over every parameter (SGD; full mode with momentum, one velocity per parameter;
 *              Adam and LAMB: trainer_optim.c, over the same ranges)
 *   optimizer, per bucket of count elements, c = count / ranks: this rank's block [r·c, r·c + c) of
 *   gradients  the reduce-scattered sum and the remainder (count − ranks·c, allreduced) updated, with
 *              state for those alone (state_n elements: a shard, not the whole model), then the
 *              blocks allgathered in place after the update
 *   full       the same update, no allgather after it: the parameters stay sharded and each bucket is
 *              allgathered before the layers that use it, in forward and again in backward, one
 *              bucket prefetched ahead of the compute (FSDP's forward and backward prefetch) on the
 *              communication engine's one stream (engine_post_gather), in order with the reductions.
 * Under simulation the parameters are compute operands MPI cannot move (step_mem.h): the same bytes are
 * allgathered through the gradient buffer, whose values are simulated too. */
#include "trainer_priv.h"

#include "compute.h"
#include "devmem.h"
#include "layers.h"
#include "shard_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sharded(const trainer *t) { return t->cfg.shard != SHARD_NONE && t->size > 1; }

/* Bucket b's block: count / ranks elements (its remainder, count − ranks · block, is every rank's). */
static size_t block(const trainer *t, int b) { return t->plan.buckets[b].count / (size_t)t->size; }

/* The tensor whose elements hold flat element w: the last in `order` (tensors by offset) starting at or
 * before it. */
static int tensor_at(const trainer *t, const int *order, int nt, size_t w)
{
    int lo = 0, hi = nt - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (t->plan.tensor_offset[order[mid]] <= w) lo = mid;
        else hi = mid - 1;
    }
    return order[lo];
}

/* Range [w, w + n) appended (LAMB: split where tensors end). */
static void add_range(trainer *t, const int *order, size_t w, size_t g, size_t s, size_t n, int counted)
{
    int nt = model_tensor_count(t->m);
    while (n) {
        int k = order ? tensor_at(t, order, nt, w) : -1;
        size_t len = n;
        if (k >= 0) {
            size_t end = t->plan.tensor_offset[k] + (size_t)model_tensor_at(t->m, k)->numel;
            len = end - w < n ? end - w : n;
        }
        t->ranges[t->nranges++] = (trainer_range){ w, g, s, len, k, counted };
        w += len, g += len, s += len, n -= len;
    }
}

static const trainer *order_of;
static int by_offset(const void *a, const void *b)
{
    size_t x = order_of->plan.tensor_offset[*(const int *)a], y = order_of->plan.tensor_offset[*(const int *)b];
    return (x > y) - (x < y);
}

/* The ranges: unsharded everything; sharded, per bucket this rank's block (its gradient sum at the bucket's
 * start, shard_bucket_reduce) and the remainder. 0, or 1 (out of memory). */
static int make_ranges(trainer *t)
{
    int nt = model_tensor_count(t->m), nb = t->plan.nbuckets, *order = NULL;
    if (!(t->ranges = malloc((size_t)(2 * nb + nt + 2) * sizeof *t->ranges))) return 1;
    if (t->cfg.optim == OPTIM_LAMB) {
        if (!(order = malloc((size_t)nt * sizeof *order))) return 1;
        for (int k = 0; k < nt; k++) order[k] = k;
        order_of = t;
        qsort(order, (size_t)nt, sizeof *order, by_offset);
    }
    if (!sharded(t)) add_range(t, order, 0, 0, 0, t->plan.total, 1);
    for (int b = 0; sharded(t) && b < nb; b++) {
        const bucket *bk = &t->plan.buckets[b];
        size_t o = bk->offset, c = block(t, b), all = c * (size_t)t->size, v = t->state_off[b];
        add_range(t, order, o + (size_t)t->rank * c, o, v, c, 1);
        add_range(t, order, o + all, o + all, v + c, bk->count - all, t->rank == 0);
    }
    free(order);
    return 0;
}

int trainer_state_layout(trainer *t)
{
    t->state_n = t->plan.total;
    if (sharded(t)) {
        if (!(t->state_off = malloc((size_t)t->plan.nbuckets * sizeof *t->state_off))) return 1;
        t->state_n = 0;
        for (int b = 0; b < t->plan.nbuckets; b++) {
            size_t c = block(t, b);
            t->state_off[b] = t->state_n, t->state_n += c + (t->plan.buckets[b].count - c * (size_t)t->size);
        }
    }
    return make_ranges(t);
}

/* The update of range r: gemm mode w −= lr·g; full mode SGD with momentum 0.9 and weight decay 1e-4
 * (PyTorch's). */
static int sgd_range(trainer *t, const trainer_range *r)
{
    float *w = trainer_wp(t, r);
    if (!r->n) return 0;
    return t->full ? t->ops->sgd_momentum(w, t->mom + r->s, trainer_gp(t, r), t->cfg.lr, 0.9f, 1e-4f, r->n)
                   : t->mem->sgd(w, trainer_gp(t, r), t->cfg.lr, r->n);
}

/* Every bucket's blocks allgathered in place at base (its layout: the flat parameters'); with a parameter
 * shard (full sharding) each block and remainder first copied there from it. 0, or ddl's code. */
static int gather_all(trainer *t, float *base)
{
    int rc = 0;
    for (int b = 0; b < t->plan.nbuckets && !rc; b++) {
        size_t c = block(t, b);
        if (t->pshard) trainer_stage(t, b, base + t->plan.buckets[b].offset);
        if (c) rc = ddl_allgather(t->ctx, DDL_IN_PLACE, base + t->plan.buckets[b].offset, c, DDL_FLOAT32);
    }
    return rc;
}

int trainer_gather_params(trainer *t)
{
    if (!sharded(t) || t->cfg.shard != SHARD_FULL) return 0;
    if (!t->whole && !(t->whole = malloc(t->plan.total * 4 + 4))) return DDL_ERR_NOMEM;
    return gather_all(t, t->whole);
}

/* The optimizer over this rank's ranges; then (optimizer, gradients) once that compute is done the blocks
 * allgathered in place, and the stream starts again after them (the simulation's compute clock waits
 * for MPI). */
int trainer_update(trainer *t)
{
    int rc = 0;
    if (t->cfg.optim != OPTIM_SGD) rc = trainer_optim_update(t);
    for (int i = 0; i < t->nranges && !rc && t->cfg.optim == OPTIM_SGD; i++) rc = sgd_range(t, &t->ranges[i]);
    if (rc) {
        snprintf(t->err, sizeof t->err, "%s: %s", optim_name(t->cfg.optim),
                 t->cfg.device ? kern_dev_last_error() : "failed");
        return 1;
    }
    if (!sharded(t) || t->cfg.shard == SHARD_FULL) return 0; /* full: gathered before use (trainer_gather_layer) */
    kern_compute_wait_until(trainer_stream_time());
    rc = gather_all(t, trainer_gather_buf(t));
    kern_compute_begin();
    if (rc) snprintf(t->err, sizeof t->err, "allgather of the parameters: %s", ddl_strerror(rc));
    return rc ? 1 : 0;
}

float *trainer_gather_buf(trainer *t) { return t->real ? t->params : t->grads; }

void trainer_memory(const trainer *t, double *params, double *gathered, double *grads, double *state)
{
    *params = (double)(t->pshard ? t->state_n : t->plan.total) * 4;
    *grads = (double)(t->gshard ? t->state_n : t->plan.total) * 4;
    *gathered = ((double)t->slot_n + (t->garena ? (double)t->gslot_at[t->ngslots] : 0)) * 4;
    *state = ((t->mom ? 4.0 : 0) + (t->mom2 ? 4.0 : 0)) * (double)t->state_n +
             (t->norms ? 16.0 * model_tensor_count(t->m) : 0);
}

void trainer_shard_free(trainer *t)
{
    free(t->state_off);
    free(t->ranges);
    free(t->whole);
    trainer_gather_free(t);
    if (t->mem) trainer_gslots_free(t);
}
