/* study.c — the closed-form training step of study.h. */
#include "study.h"

#include "bucket.h"
#include "model_bytes.h"
#include "gemm.h"
#include "model_cost.h"

#include <stdio.h>
#include <stdlib.h>

static double gemm_s(const model_gemm *g, double rate) { return kern_gemm_flops(g->m, g->n, g->k) / rate; }

/* One allreduce of `bytes` on all ranks of c (0 on one rank). 0, or 2 with err. */
static int allreduce_s(const study_case *c, double bytes, double *s, char *err, size_t errlen)
{
    cost_opts o = { c->grid, c->patterns, c->gamma };
    *s = 0;
    return platform_ranks(c->pf) > 1 ? model_cost(c->pf, c->algo, bytes, &o, s, err, errlen) : 0;
}

int study_step(const model *m, const study_case *c, study_time *out, char *err, size_t errlen)
{
    const double rate = c->gflops * 1e9, mem = c->mem_gbps * 1e9;
    int nt = model_tensor_count(m), rc = 2;
    size_t *counts = malloc((size_t)nt * sizeof *counts);
    double *ready = NULL, t = 0, done = 0, busy = 0;
    bucket_plan plan = { 0 };
    if (!counts || !(rate > 0)) {
        snprintf(err, errlen, counts ? "GEMM rate: expected > 0" : "out of memory");
        goto out;
    }
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    if (bucket_plan_make(counts, nt, 4, c->bucket_bytes, c->first_bucket_bytes, &plan) ||
        !(ready = calloc((size_t)plan.nbuckets, sizeof *ready))) {
        snprintf(err, errlen, "cannot plan gradient buckets");
        goto out;
    }
    for (int l = 0; l < model_layer_count(m); l++) {
        const model_layer *L = model_layer_at(m, l);
        if (L->kind == MODEL_CONV || L->kind == MODEL_FC) t += gemm_s(&L->gemm[MODEL_FWD], rate);
        if (mem > 0) t += model_mem_bytes(m, l, MODEL_FWD) / mem;
    }
    for (int l = model_layer_count(m) - 1; l >= 0; l--) {
        const model_layer *L = model_layer_at(m, l);
        if (mem > 0) t += model_mem_bytes(m, l, 1) / mem;
        if (L->kind == MODEL_CONV || L->kind == MODEL_FC)
            t += gemm_s(&L->gemm[MODEL_BWD_WEIGHT], rate) + (L->data_grad_needed ? gemm_s(&L->gemm[MODEL_BWD_DATA], rate) : 0);
        for (int i = 0; i < L->ntensors; i++) {
            int ti = L->tensor0 + i, b = plan.tensor_bucket[ti];
            if (plan.buckets[b].lowest_tensor == ti) ready[b] = t;
        }
    }
    for (int b = 0; b < plan.nbuckets; b++) {
        double s;
        if (allreduce_s(c, 4.0 * (double)plan.buckets[b].count, &s, err, errlen)) goto out;
        done = (done > ready[b] ? done : ready[b]) + s;
        busy += s;
    }
    out->compute_s = t;
    out->comm_s = busy;
    out->exposed_s = done > t ? done - t : 0;
    out->sgd_s = mem > 0 ? model_sgd_bytes(m) / mem : 12.0 * (double)plan.total * c->gamma / 3.0;
    out->step_s = (done > t ? done : t) + out->sgd_s;
    out->buckets = plan.nbuckets;
    rc = 0;
out:
    bucket_plan_free(&plan);
    free(counts);
    free(ready);
    return rc;
}
