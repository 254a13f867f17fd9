/* trainer_gather.c — full sharding's parameters (ZeRO-3 / FSDP FULL_SHARD; trainer_priv.h): each rank
 * keeps only its shard of the parameters (pshard: per bucket its block of c = count / ranks elements
 * and the bucket's remainder, the optimizer state's layout), and each bucket is allgathered into a slot
 * of a small arena before the layers that use it, in forward and again in backward, the next bucket's
 * gather posted as soon as the previous one is waited for (FSDP's forward and backward prefetch), on the
 * communication engine's one stream (engine_post_gather), in order with the reductions.
 * Slots: per pass, the buckets in the order first needed (layer by layer; a tied linear needs its
 * embedding's); bucket i is live from its post (when bucket i − 1 is first waited for) to the last layer
 * of the pass that reads it, and takes a slot whose previous bucket's life ended at an earlier layer
 * (greedy interval colouring: the fewest slots that order allows). Typically two or three slots; a
 * tied embedding holds its slot the whole pass. Each slot is as large as the largest bucket it holds,
 * so a rank allocates P / ranks + remainders for the shard and the slots' sum for what is gathered.
 * Under simulation the buffers hold no values: nothing is copied, the gathers still run (SMPI). */
#include "trainer_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The order in which a pass first needs each bucket, and each bucket's place in it. */
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

/* Pass p's slots (t->gslot[p]): first[i], the layer step at which bucket i is first needed; last[b], the
 * last step reading bucket b; bucket i posted at step first[i − 1] (-1: the pass's start). */
static void colour(trainer *t, int p, int *first, int *last, int *end)
{
    int n = model_layer_count(t->m);
    for (int i = 0; i < t->gn[p]; i++) first[i] = -1;
    for (int s = 0; s < t->nslots; s++) end[s] = -2; /* the other pass's buckets: dead */
    for (int j = 0; j < n; j++) {
        const model_layer *L = model_layer_at(t->m, p ? n - 1 - j : j);
        for (int k = 0; k < 2; k++) {
            const model_layer *P = k ? (L->tied >= 0 ? model_layer_at(t->m, L->tied) : NULL) : L;
            for (int i = 0; P && i < P->ntensors; i++) {
                int b = t->plan.tensor_bucket[P->tensor0 + i], pos = t->gpos[p][b];
                if (first[pos] < 0) first[pos] = j;
                last[b] = j;
            }
        }
    }
    for (int i = 0; i < t->gn[p]; i++) {
        int start = i ? first[i - 1] : -1, s = 0;
        while (s < t->nslots && end[s] >= start) s++;
        if (s == t->nslots) t->nslots++;
        end[s] = last[t->gseq[p][i]], t->gslot[p][i] = s;
    }
}

/* Where each tensor's parameters sit in the arena during pass p. */
static void offsets(trainer *t, int p)
{
    for (int k = 0; k < model_tensor_count(t->m); k++) {
        int b = t->plan.tensor_bucket[k], pos = t->gpos[p][b];
        size_t in = t->plan.tensor_offset[k] - t->plan.buckets[b].offset;
        t->poff[p][k] = pos < 0 ? 0 : t->slot_at[t->gslot[p][pos]] + in;
    }
}

int trainer_gather_plan(trainer *t)
{
    int nb = t->plan.nbuckets, nt = model_tensor_count(t->m), rc = 1;
    int *first = malloc((size_t)nb * sizeof *first), *last = malloc((size_t)nb * sizeof *last);
    int *end = malloc((size_t)nb * sizeof *end);
    if (t->cfg.shard != SHARD_FULL || t->size < 2) return free(first), free(last), free(end), 0;
    if (!first || !last || !end) goto out;
    for (int p = 0; p < 2; p++) {
        t->gseq[p] = malloc((size_t)nb * sizeof *t->gseq[p]), t->gpos[p] = malloc((size_t)nb * sizeof *t->gpos[p]);
        t->gslot[p] = malloc((size_t)nb * sizeof *t->gslot[p]), t->poff[p] = malloc((size_t)nt * sizeof *t->poff[p]);
        if (!t->gseq[p] || !t->gpos[p] || !t->gslot[p] || !t->poff[p]) goto out;
        for (int b = 0; b < nb; b++) t->gpos[p][b] = -1;
        t->gn[p] = 0;
        for (int i = 0, n = model_layer_count(t->m); i < n; i++) layer_needs(t, p, p ? n - 1 - i : i, need);
    }
    for (int p = 0; p < 2; p++) colour(t, p, first, last, end);
    if (!(t->slot_at = calloc((size_t)t->nslots + 1, sizeof *t->slot_at)) ||
        !(t->cur_off = malloc((size_t)nt * sizeof *t->cur_off)))
        goto out;
    for (int p = 0; p < 2; p++) /* each slot as large as the largest bucket it holds */
        for (int i = 0; i < t->gn[p]; i++) {
            size_t *z = &t->slot_at[t->gslot[p][i] + 1], c = t->plan.buckets[t->gseq[p][i]].count;
            *z = c > *z ? c : *z;
        }
    for (int s = 0; s < t->nslots; s++) t->slot_at[s + 1] += t->slot_at[s];
    t->slot_n = t->slot_at[t->nslots];
    for (int p = 0; p < 2; p++) offsets(t, p);
    memcpy(t->cur_off, t->poff[0], (size_t)nt * sizeof *t->cur_off);
    t->arena = t->mem->alloc_grad(t->slot_n * 4 + 4); /* MPI moves it */
    t->gather = t->arena != NULL;
    rc = !t->gather;
out:
    free(first), free(last), free(end);
    return rc;
}

void trainer_stage(trainer *t, int b, float *dst)
{
    const bucket *bk = &t->plan.buckets[b];
    size_t c = bk->count / (size_t)t->size, all = c * (size_t)t->size, s = t->state_off[b];
    if (!t->real) return;
    memcpy(dst + (size_t)t->rank * c, t->pshard + s, c * 4);
    memcpy(dst + all, t->pshard + s + c, (bk->count - all) * 4);
}

/* The gather of the pass's i-th bucket posted into its slot (none past the last). 0, or 1 with t->err. */
static int post(trainer *t, int pass, int i)
{
    if (i >= t->gn[pass]) return 0;
    int b = t->gseq[pass][i];
    float *dst = t->arena + t->slot_at[t->gslot[pass][i]];
    trainer_stage(t, b, dst);
    if (engine_post_gather(t->eng, b, dst))
        return snprintf(t->err, sizeof t->err, "cannot post the gather of bucket %d", b), 1;
    t->gpost = i + 1;
    return 0;
}

int trainer_gather_begin(trainer *t, int backward)
{
    if (!t->gather) return 0;
    t->gpass = backward, t->gpost = t->gwait = 0;
    memcpy(t->cur_off, t->poff[backward], (size_t)model_tensor_count(t->m) * sizeof *t->cur_off);
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

void trainer_gather_free(trainer *t)
{
    for (int p = 0; p < 2; p++) free(t->gseq[p]), free(t->gpos[p]), free(t->gslot[p]), free(t->poff[p]);
    free(t->cur_off), free(t->slot_at);
    if (t->arena) t->mem->free_grad(t->arena);
}
