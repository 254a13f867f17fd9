/* trainer_buffers.c — the trainer's buffers (trainer_priv.h): made once at trainer_create, so the
 * step itself allocates nothing, and freed with it. */
#include "trainer_priv.h"

#include "devmem.h"
#include "gemm.h"
#include "half.h"
#include "sim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device buffer of n 2-byte inputs (prec's type) holding the fill pattern, scale * ((i % 13) - 6). */
static void *half_copy(trainer *t, size_t n, float scale)
{
    uint16_t *h = malloc(n * 2 + 2);
    void *d = h ? t->mem->alloc_operand(n * 2) : NULL;
    for (size_t i = 0; d && i < n; i++) {
        float v = scale * (float)((int)(i % 13) - 6);
        h[i] = t->cfg.precision == KERN_PREC_BF16 ? kern_f32_to_bf16(v) : kern_f32_to_f16(v);
    }
    if (d && (t->mem->put(d, h, n * 2) || t->mem->ready())) {
        t->mem->free_operand(d, n * 2);
        d = NULL;
    }
    free(h);
    return d;
}

static int alloc_inputs(trainer *t)
{
    t->es = kern_precision_input_size(t->cfg.precision);
    t->in_w = (const char *)(t->gather ? t->arena : t->params); /* full sharding: the gathered slots */
    t->in_x = (const char *)t->x, t->in_y = (const char *)t->y;
    t->host = t->grads;
    if (t->mem != &step_mem_host && t->cfg.check && !(t->host = malloc(t->plan.total * 4 + 4))) return 1;
    if (t->es == 4) return 0;
    if (!(t->wh = half_copy(t, t->plan.total, 0.01f))) return 1;
    if (!t->cfg.full && (!(t->xh = half_copy(t, t->kn, 0.01f)) || !(t->yh = half_copy(t, t->mn, 0.01f))))
        return 1; /* full mode: the GEMMs read the 2-byte activations themselves */
    t->in_w = t->wh, t->in_x = t->xh, t->in_y = t->yh;
    return 0;
}

/* The parameters: the flat buffer filled with the pattern (step_mem.h), or under full sharding the rank's
 * shard (each of its ranges' elements as the flat buffer holds them) and the gather slots. 0, or 1. */
static int alloc_params(trainer *t)
{
    if (t->cfg.shard != SHARD_FULL || t->size < 2) {
        t->params = t->mem->alloc_operand(t->plan.total * 4); /* only compute kernels and SGD touch these */
        return !t->params || (t->real && t->mem->fill(t->params, t->plan.total, 0.01f));
    }
    if (!(t->pshard = t->mem->alloc_operand(t->state_n * 4 + 4)) || trainer_gather_plan(t)) return 1;
    for (int i = 0; t->real && i < t->nranges; i++) {
        const trainer_range *r = &t->ranges[i];
        for (size_t j = 0; j < r->n; j++) t->pshard[r->s + j] = 0.01f * (float)((int)((r->w + j) % 13) - 6);
    }
    return 0;
}

int trainer_alloc_buffers(trainer *t)
{
    size_t kn = 1, mn = 1;
    for (int l = 0; l < model_layer_count(t->m); l++) {
        const model_gemm *g = model_layer_at(t->m, l)->gemm;
        size_t k = (size_t)g[MODEL_FWD].k, n = (size_t)g[MODEL_FWD].n, mm = (size_t)g[MODEL_FWD].m;
        kn = k * n > kn ? k * n : kn;
        mn = mm * n > mn ? mm * n : mn;
    }
    t->kn = kn;
    t->mn = mn;
    const step_mem *mem = t->mem;
    int gs = trainer_gslots_wanted(t); /* gradient sharding: a shard and slots (trainer_gslots.c) */
    if (!gs || (!t->real && t->cfg.shard != SHARD_FULL)) /* simulated: the post-update gathers' stand-in */
        t->grads = mem->alloc_grad(t->plan.total * 4); /* MPI moves this one */
    int syn = !t->cfg.full; /* synthetic activations: gemm mode */
    if (trainer_state_layout(t) || alloc_params(t) || (gs && trainer_gslots_plan(t)))
        return snprintf(t->err, sizeof t->err, "out of %s memory for the parameters and gradients", mem->name), 1;
    int moments = t->cfg.optim != OPTIM_SGD, m1 = !syn || moments; /* gemm mode's SGD: plain, no state */
    if (syn) t->x = mem->alloc_operand(kn * 4), t->dx = mem->alloc_operand(kn * 4), t->y = mem->alloc_operand(mn * 4);
    if (m1) t->mom = mem->alloc_operand(t->state_n * 4);
    if (moments) t->mom2 = mem->alloc_operand(t->state_n * 4);
    if (t->cfg.optim == OPTIM_LAMB) t->norms = calloc(2 * (size_t)model_tensor_count(t->m), sizeof *t->norms);
    if ((!t->grads && !t->garena) || (syn && (!t->x || !t->dx || !t->y)) || (m1 && !t->mom) || (moments && !t->mom2) ||
        (t->cfg.optim == OPTIM_LAMB && !t->norms) || alloc_inputs(t)) {
        snprintf(t->err, sizeof t->err, "out of %s memory for %.1f MB of parameters, gradients%s and %s state",
                 mem->name,
                 (2.0 * (double)t->plan.total + (syn ? 2.0 * (double)kn + (double)mn : 0) +
                  (double)(m1 + moments) * (double)t->state_n) * 4 / 1e6,
                 syn ? ", activations" : "", optim_name(t->cfg.optim));
        return 1;
    }
    if (t->real && ((syn && mem->fill(t->x, kn, 0.01f)) ||
                    (syn && mem->fill(t->y, mn, 0.01f)) || (m1 && mem->zero(t->mom, t->state_n * 4)) ||
                    (moments && mem->zero(t->mom2, t->state_n * 4)) ||
                    (t->grads && mem->zero(t->grads, t->plan.total * 4)) || mem->ready())) {
        snprintf(t->err, sizeof t->err, "cannot initialise the %s buffers", mem->name);
        return 1;
    }
    return 0;
}

void trainer_free(trainer *t)
{
    if (!t) return;
    if (t->priced) kern_sim_set_layer_priced(0); /* the kernels price themselves again (sim.h) */
    const step_mem *mem = t->mem ? t->mem : &step_mem_host;
    engine_free(t->eng);
    step_full_free(t->full);
    mem->free_operand(t->mom, t->state_n * 4);
    mem->free_operand(t->mom2, t->state_n * 4);
    free(t->norms);
    trainer_shard_free(t);
    mem->free_operand(t->params, t->plan.total * 4);
    mem->free_operand(t->pshard, t->state_n * 4 + 4);
    if (t->grads) mem->free_grad(t->grads);
    if (t->wire) mem->free_grad(t->wire);
    mem->free_operand(t->x, t->kn * 4);
    mem->free_operand(t->dx, t->kn * 4);
    mem->free_operand(t->y, t->mn * 4);
    mem->free_operand(t->wh, t->plan.total * 2);
    mem->free_operand(t->xh, t->kn * 2);
    mem->free_operand(t->yh, t->mn * 2);
    if (t->host != t->grads) free(t->host);
    bucket_plan_free(&t->plan);
    free(t);
}
