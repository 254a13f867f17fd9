/* advise.c — the step schedule of the bucket advice (advise.h). */
#include "advise.h"
#include "bucket.h"
#include "gemm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double gemm_s(const advise_in *in, const model_gemm *g) { return kern_gemm_flops(g->m, g->n, g->k) / in->gemm_flops; }

/* Seconds of one allreduce of n bytes; auto = the cheapest of ring, rhd and ddl. 0 or 2. */
static int allreduce_s(const advise_in *in, double n, double *t, char *err, size_t errlen)
{
    static const char *const cands[] = { "ring", "rhd", "ddl" };
    cost_opts co = { NULL, NULL, in->gamma };
    if (strcmp(in->algo, "auto")) return model_cost(in->pf, in->algo, n, &co, t, err, errlen);
    *t = INFINITY;
    for (int i = 0; i < 3; i++) {
        double x;
        if (model_cost(in->pf, cands[i], n, &co, &x, err, errlen)) return 2;
        if (x < *t) *t = x;
    }
    return 0;
}

/* ready[t] = when tensor t's gradient is written, measured from the start of backward. */
static double backward(const advise_in *in, double *ready)
{
    double t = 0;
    for (int l = model_layer_count(in->m) - 1; l >= 0; l--) {
        const model_layer *L = model_layer_at(in->m, l);
        if (L->kind == MODEL_CONV || L->kind == MODEL_FC) {
            t += gemm_s(in, &L->gemm[MODEL_BWD_WEIGHT]);
            if (L->data_grad_needed) t += gemm_s(in, &L->gemm[MODEL_BWD_DATA]);
        }
        for (int i = 0; i < L->ntensors; i++) ready[L->tensor0 + i] = t;
    }
    return t;
}

int advise_eval(const advise_in *in, size_t cap, size_t first, advise_out *out, char *err, size_t errlen)
{
    const int nt = model_tensor_count(in->m);
    size_t *counts = malloc((size_t)nt * sizeof *counts);
    double *ready = malloc((size_t)nt * sizeof *ready);
    bucket_plan plan = { 0 };
    int rc = 1;
    memset(out, 0, sizeof *out);
    if (!counts || !ready) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(in->m, i)->numel;
    if (bucket_plan_make(counts, nt, 4, cap, first, &plan)) {
        snprintf(err, errlen, "cannot plan buckets of %zu bytes (first %zu)", cap, first);
        goto out;
    }
    out->cap = cap, out->first = first, out->buckets = plan.nbuckets;
    for (int l = 0; l < model_layer_count(in->m); l++) {
        const model_layer *L = model_layer_at(in->m, l);
        if (L->kind == MODEL_CONV || L->kind == MODEL_FC) out->fwd_s += gemm_s(in, &L->gemm[MODEL_FWD]);
    }
    out->bwd_s = backward(in, ready);
    double end = 0;
    for (int b = 0; b < plan.nbuckets; b++) {
        double t;
        if ((rc = allreduce_s(in, 4.0 * (double)plan.buckets[b].count, &t, err, errlen))) goto out;
        double start = ready[plan.buckets[b].lowest_tensor] > end ? ready[plan.buckets[b].lowest_tensor] : end;
        end = start + t;
        out->comm_s += t;
    }
    out->exposed_s = end > out->bwd_s ? end - out->bwd_s : 0;
    out->sgd_s = 4.0 * in->gamma * (double)plan.total;
    out->step_s = out->fwd_s + out->bwd_s + out->exposed_s + out->sgd_s;
    rc = 0;
out:
    bucket_plan_free(&plan);
    free(counts);
    free(ready);
    return rc;
}

int advise_pick(const advise_out *cells, const double *exposed, const unsigned char *use, int n)
{
    double least = INFINITY;
    int best = -1;
    for (int i = 0; i < n; i++)
        if ((!use || use[i]) && exposed[i] < least) least = exposed[i];
    double tol = least * ADVISE_TOL_REL > ADVISE_TOL_S ? least * ADVISE_TOL_REL : ADVISE_TOL_S;
    for (int i = 0; i < n; i++) {
        if ((use && !use[i]) || exposed[i] > least + tol) continue;
        size_t ci = cells[i].cap ? cells[i].cap : SIZE_MAX, cb = best >= 0 && cells[best].cap ? cells[best].cap : SIZE_MAX;
        if (best < 0 || cells[i].buckets < cells[best].buckets || (cells[i].buckets == cells[best].buckets && ci > cb)) best = i;
    }
    return best;
}
