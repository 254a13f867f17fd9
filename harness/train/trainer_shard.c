/* trainer_shard.c — the trainer's optimizer and its sharding (trainer_priv.h, shard_step.h):
 *   none       SGD over every parameter (full mode: with momentum, one velocity per parameter)
 *   optimizer, per bucket of count elements, c = count / ranks: this rank's block [r·c, r·c + c) of
 *   gradients  the reduce-scattered sum and the remainder (count − ranks·c, allreduced) updated, with
 *              velocities for those alone (state_n elements: a shard, not the whole model), then the
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

int trainer_state_layout(trainer *t)
{
    t->state_n = t->plan.total;
    if (!sharded(t)) return 0;
    if (!(t->state_off = malloc((size_t)t->plan.nbuckets * sizeof *t->state_off))) return 1;
    t->state_n = 0;
    for (int b = 0; b < t->plan.nbuckets; b++) {
        size_t c = block(t, b);
        t->state_off[b] = t->state_n, t->state_n += c + (t->plan.buckets[b].count - c * (size_t)t->size);
    }
    return 0;
}

/* The update of n parameters at w (velocity at v), gradients at g: gemm mode w −= lr·g; full mode SGD
 * with momentum 0.9 and weight decay 1e-4 (PyTorch's). */
static int sgd_range(trainer *t, size_t w, size_t v, size_t g, size_t n)
{
    if (!n) return 0;
    return t->full ? t->ops->sgd_momentum(t->params + w, t->mom + v, t->grads + g, t->cfg.lr, 0.9f, 1e-4f, n)
                   : t->mem->sgd(t->params + w, t->grads + g, t->cfg.lr, n);
}

/* Every bucket's blocks allgathered in place (where gathers land: trainer_gather_buf). 0, or ddl's code. */
static int gather_all(trainer *t)
{
    int rc = 0;
    for (int b = 0; b < t->plan.nbuckets && !rc; b++) {
        size_t c = block(t, b);
        if (c) rc = ddl_allgather(t->ctx, DDL_IN_PLACE, trainer_gather_buf(t) + t->plan.buckets[b].offset, c,
                                  DDL_FLOAT32);
    }
    return rc;
}

/* Per bucket, this rank's block (its gradient sum at the bucket's start, shard_bucket_reduce) and the
 * remainder updated; then (optimizer, gradients) once that compute is done the blocks allgathered in
 * place, and the stream starts again after them (the simulation's compute clock waits for MPI). */
static int update_sharded(trainer *t)
{
    int rc = 0;
    for (int b = 0; b < t->plan.nbuckets && !rc; b++) {
        const bucket *bk = &t->plan.buckets[b];
        size_t o = bk->offset, c = block(t, b), mine = o + (size_t)t->rank * c, all = c * t->size, v = t->state_off[b];
        rc = sgd_range(t, mine, v, o, c) || sgd_range(t, o + all, v + c, o + all, bk->count - all);
    }
    if (rc || t->cfg.shard == SHARD_FULL) return rc; /* full: gathered before use (trainer_gather_layer) */
    kern_compute_wait_until(trainer_stream_time());
    rc = gather_all(t);
    kern_compute_begin();
    return rc;
}

int trainer_update(trainer *t)
{
    int rc = sharded(t) ? update_sharded(t) : sgd_range(t, 0, 0, 0, t->plan.total);
    if (rc) snprintf(t->err, sizeof t->err, "SGD: %s", t->cfg.device ? kern_dev_last_error() : "failed");
    return rc ? 1 : 0;
}

float *trainer_gather_buf(trainer *t) { return t->real ? t->params : t->grads; }

/* Full sharding's gathers. The order in which a pass first needs each bucket (layer by layer, forward
 * or backward; a tied linear needs its embedding's), and each bucket's place in it. */
static void need(trainer *t, int pass, int b)
{
    if (t->gpos[pass][b] < 0) t->gpos[pass][b] = t->gn[pass], t->gseq[pass][t->gn[pass]++] = b;
}

static void layer_needs(trainer *t, int pass, int l, void (*fn)(trainer *, int, int))
{
    const model_layer *L = model_layer_at(t->m, l);
    for (int k = 0; k < 2; k++) {
        const model_layer *P = k ? (L->tied >= 0 ? model_layer_at(t->m, L->tied) : NULL) : L;
        for (int i = 0; P && i < P->ntensors; i++) fn(t, pass, t->plan.tensor_bucket[P->tensor0 + i]);
    }
}

int trainer_gather_plan(trainer *t)
{
    int nb = t->plan.nbuckets, n = model_layer_count(t->m);
    if (t->cfg.shard != SHARD_FULL || t->size < 2) return 0;
    for (int p = 0; p < 2; p++) {
        t->gseq[p] = malloc((size_t)nb * sizeof *t->gseq[p]), t->gpos[p] = malloc((size_t)nb * sizeof *t->gpos[p]);
        if (!t->gseq[p] || !t->gpos[p]) return 1;
        for (int b = 0; b < nb; b++) t->gpos[p][b] = -1;
        t->gn[p] = 0;
        for (int i = 0; i < n; i++) layer_needs(t, p, p ? n - 1 - i : i, need);
    }
    t->gather = 1;
    return 0;
}

/* The gather of the pass's i-th bucket posted (none past the last). 0, or 1 with t->err. */
static int post(trainer *t, int pass, int i)
{
    if (i >= t->gn[pass]) return 0;
    if (engine_post_gather(t->eng, t->gseq[pass][i], trainer_gather_buf(t)))
        return snprintf(t->err, sizeof t->err, "cannot post the gather of bucket %d", t->gseq[pass][i]), 1;
    t->gpost = i + 1;
    return 0;
}

int trainer_gather_begin(trainer *t, int backward)
{
    if (!t->gather) return 0;
    t->gpass = backward, t->gpost = t->gwait = 0;
    return post(t, backward, 0);
}

static void wait_upto(trainer *t, int pass, int b)
{
    while (!t->gfail && t->gwait <= t->gpos[pass][b]) {
        char why[200];
        if (engine_wait_gather(t->eng, t->gseq[pass][t->gwait], why, sizeof why)) {
            snprintf(t->err, sizeof t->err, "allgather of the parameters: %s", why);
            t->gfail = 1;
            return;
        }
        t->gwait++;
        if (t->gpost <= t->gwait && post(t, pass, t->gwait)) t->gfail = 1; /* the next bucket prefetched */
    }
}

int trainer_gather_layer(trainer *t, int l)
{
    if (!t->gather) return 0;
    t->gfail = 0;
    layer_needs(t, t->gpass, l, wait_upto);
    return t->gfail;
}

int trainer_gather_params(trainer *t)
{
    return sharded(t) && t->cfg.shard == SHARD_FULL ? gather_all(t) : 0;
}

void trainer_memory(const trainer *t, double *params, double *grads, double *state)
{
    *params = (double)t->plan.total * 4, *grads = (double)t->plan.total * 4;
    *state = t->mom ? (double)t->state_n * 4 : 0;
}

void trainer_shard_free(trainer *t)
{
    free(t->state_off);
    for (int p = 0; p < 2; p++) free(t->gseq[p]), free(t->gpos[p]);
}
