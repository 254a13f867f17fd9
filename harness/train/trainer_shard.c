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

/* The optimizer over this rank's ranges; then (optimizer, gradients) once that compute is done the blocks
 * allgathered in place, and the stream starts again after them (the simulation's compute clock waits
 * for MPI). */
int trainer_update(trainer *t)
{
    int rc = 0;
    if (t->cfg.optim != OPTIM_SGD) rc = trainer_optim_update(t);
    for (int i = 0; i < t->nranges && !rc && t->cfg.optim == OPTIM_SGD; i++) {
        const trainer_range *r = &t->ranges[i];
        rc = sgd_range(t, r->w, r->s, r->g, r->n);
    }
    if (rc) {
        snprintf(t->err, sizeof t->err, "%s: %s", optim_name(t->cfg.optim),
                 t->cfg.device ? kern_dev_last_error() : "failed");
        return 1;
    }
    if (!sharded(t) || t->cfg.shard == SHARD_FULL) return 0; /* full: gathered before use (trainer_gather_layer) */
    kern_compute_wait_until(trainer_stream_time());
    rc = gather_all(t);
    kern_compute_begin();
    if (rc) snprintf(t->err, sizeof t->err, "allgather of the parameters: %s", ddl_strerror(rc));
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
    int b = t->gseq[pass][i];
    if (engine_post_gather(t->eng, b, trainer_gather_buf(t) + t->plan.buckets[b].offset))
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
    *state = ((t->mom ? 4.0 : 0) + (t->mom2 ? 4.0 : 0)) * (double)t->state_n +
             (t->norms ? 16.0 * model_tensor_count(t->m) : 0);
}

void trainer_shard_free(trainer *t)
{
    free(t->state_off);
    free(t->ranges);
    for (int p = 0; p < 2; p++) free(t->gseq[p]), free(t->gpos[p]);
}
