/* trainer_gslots.c — gradient sharding's buffers (ZeRO-2 and -3; trainer_priv.h): a rank keeps its shard
 * of the summed gradients (gshard: per bucket its block of c = count / ranks elements and the remainder,
 * the optimizer state's layout) and writes backward's gradients into slots of a small arena, one bucket
 * a slot, instead of a whole-model buffer. A bucket's slot is live from the layer that first writes it
 * (backward order; a tied linear writes its embedding's) to its post; a slot is reused by a later bucket
 * once its bucket has been posted and GSLOT_INFLIGHT more buckets after it (so that many reductions
 * overlap the compute), and before the first write into it the step waits for that bucket's
 * reduce-scatter (engine_wait_bucket) and copies its block and remainder into the shard; the buckets
 * left in their slots are copied at the drain. Each slot is as large as the largest bucket it holds.
 * Under simulation the buffers hold no values: nothing is copied or waited for (engine_sim.c). Not with
 * --grad-dtype fp16/bf16, whose wire copy is whole: there the gradient buffer stays whole. */
#include "trainer_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GSLOT_INFLIGHT 2 /* buckets posted after a slot's bucket before the slot is reused */

int trainer_gslots_wanted(const trainer *t)
{
    return t->cfg.shard >= SHARD_GRADIENTS && t->size > 1 && t->cfg.grad_dtype == DDL_FLOAT32 && !t->cfg.device;
}

/* first[b], post[b]: the backward steps (layer n − 1 − j at step j) that first and last write bucket b. */
static void lives(const trainer *t, int *first, int *post)
{
    int n = model_layer_count(t->m);
    for (int b = 0; b < t->plan.nbuckets; b++) first[b] = post[b] = -1;
    for (int j = 0; j < n; j++) {
        const model_layer *L = model_layer_at(t->m, n - 1 - j);
        for (int k = 0; k < 2; k++) {
            const model_layer *P = k ? (L->tied >= 0 ? model_layer_at(t->m, L->tied) : NULL) : L;
            for (int i = 0; P && i < P->ntensors; i++) {
                int b = t->plan.tensor_bucket[P->tensor0 + i];
                if (first[b] < 0) first[b] = j;
                post[b] = j;
            }
        }
    }
}

/* Buckets by first write (ties: by index), each into the first slot whose bucket was posted before that
 * step with GSLOT_INFLIGHT posted after it, else a new slot. */
static void colour(trainer *t, const int *first, const int *post, int *occ)
{
    int nb = t->plan.nbuckets;
    for (int j = 0, done = 0; done < nb; j++)
        for (int b = 0; b < nb; b++) {
            if (first[b] != j) continue;
            done++;
            int s = 0;
            for (; s < t->ngslots; s++) {
                int o = occ[s], later = 0;
                if (post[o] >= j) continue;
                for (int c = 0; c < nb; c++) later += post[c] > post[o] && post[c] < j;
                if (later >= GSLOT_INFLIGHT) break;
            }
            if (s == t->ngslots) t->ngslots++, occ[s] = -1;
            t->gprev[b] = occ[s], occ[s] = b, t->gslot_of[b] = s;
        }
}

int trainer_gslots_plan(trainer *t)
{
    int nb = t->plan.nbuckets, nt = model_tensor_count(t->m), rc = 1;
    int *first = malloc((size_t)nb * sizeof *first), *post = malloc((size_t)nb * sizeof *post);
    int *occ = malloc((size_t)nb * sizeof *occ);
    t->gprev = malloc((size_t)nb * sizeof *t->gprev), t->gslot_of = malloc((size_t)nb * sizeof *t->gslot_of);
    t->gfirst = malloc((size_t)nb * sizeof *t->gfirst), t->gcopied = calloc((size_t)nb, sizeof *t->gcopied);
    t->goff = malloc((size_t)nt * sizeof *t->goff);
    if (!first || !post || !occ || !t->gprev || !t->gslot_of || !t->gfirst || !t->gcopied || !t->goff) goto out;
    lives(t, first, post);
    for (int b = 0; b < nb; b++)
        if (first[b] < 0) goto out; /* a bucket no layer writes: cannot happen with a planned model */
    colour(t, first, post, occ);
    if (!(t->gslot_at = calloc((size_t)t->ngslots + 1, sizeof *t->gslot_at))) goto out;
    for (int b = 0; b < nb; b++) {
        size_t *z = &t->gslot_at[t->gslot_of[b] + 1], c = t->plan.buckets[b].count;
        *z = c > *z ? c : *z;
    }
    for (int s = 0; s < t->ngslots; s++) t->gslot_at[s + 1] += t->gslot_at[s];
    for (int k = 0; k < nt; k++) {
        int b = t->plan.tensor_bucket[k];
        t->goff[k] = t->gslot_at[t->gslot_of[b]] + (t->plan.tensor_offset[k] - t->plan.buckets[b].offset);
    }
    memcpy(t->gfirst, first, (size_t)nb * sizeof *first);
    t->garena = t->mem->alloc_grad(t->gslot_at[t->ngslots] * 4 + 4); /* MPI moves it */
    t->gshard = t->mem->alloc_operand(t->state_n * 4 + 4);
    rc = !t->garena || !t->gshard;
out:
    free(first), free(post), free(occ);
    return rc;
}

int trainer_gslots_engine(trainer *t)
{
    for (int b = 0; t->garena && b < t->plan.nbuckets; b++)
        if (engine_set_bucket_buf(t->eng, b, t->garena + t->gslot_at[t->gslot_of[b]])) return 1;
    return 0;
}

/* Bucket b's reduced block and remainder from its slot into the shard (once a step). */
static void copy_out(trainer *t, int b)
{
    const bucket *bk = &t->plan.buckets[b];
    size_t c = bk->count / (size_t)t->size, all = c * (size_t)t->size, s = t->state_off[b];
    const float *slot = t->garena + t->gslot_at[t->gslot_of[b]];
    if (t->gcopied[b]) return;
    t->gcopied[b] = 1;
    if (!t->real) return;
    memcpy(t->gshard + s, slot, c * 4);
    memcpy(t->gshard + s + c, slot + all, (bk->count - all) * 4);
}

int trainer_gslots_layer(trainer *t, int l)
{
    int j = model_layer_count(t->m) - 1 - l;
    if (!t->garena) return 0;
    if (j == 0) memset(t->gcopied, 0, (size_t)t->plan.nbuckets * sizeof *t->gcopied);
    for (int b = 0; b < t->plan.nbuckets; b++) {
        int o = t->gprev[b];
        char why[200];
        if (t->gfirst[b] != j || o < 0 || t->gcopied[o]) continue;
        if (engine_wait_bucket(t->eng, o, why, sizeof why))
            return snprintf(t->err, sizeof t->err, "reduction of bucket %d: %s", o, why), 1;
        copy_out(t, o);
    }
    return 0;
}

void trainer_gslots_drain(trainer *t)
{
    for (int b = 0; t->garena && b < t->plan.nbuckets; b++) copy_out(t, b);
}

void trainer_gslots_free(trainer *t)
{
    free(t->gprev), free(t->gslot_of), free(t->gfirst), free(t->gcopied), free(t->goff), free(t->gslot_at);
    if (t->garena) t->mem->free_grad(t->garena);
    if (t->gshard) t->mem->free_operand(t->gshard, t->state_n * 4 + 4);
}
