/* model_step.c — see model_step.h. */
#include "model_step.h"

#include "bucket.h"
#include "model_bytes.h"
#include "model_cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCLASS 21   /* auto's size classes, 2^10 .. 2^30 bytes (allreduce_auto.c) */
#define MAX_CAND 96

typedef struct cand {
    const char *algo;
    char grid[48], patterns[48];
} cand;

static void add(cand *c, int *n, const char *algo, const int *dims, int nd, int mask)
{
    if (*n == MAX_CAND) return;
    cand *x = &c[(*n)++];
    x->algo = algo;
    x->grid[0] = x->patterns[0] = '\0';
    for (int i = 0; i < nd; i++) {
        size_t g = strlen(x->grid), p = strlen(x->patterns);
        snprintf(x->grid + g, sizeof x->grid - g, "%s%d", i ? "x" : "", dims[i]);
        snprintf(x->patterns + p, sizeof x->patterns - p, "%s%s", i ? "," : "", (mask >> i) & 1 ? "rhd" : "ring");
    }
}

static int pow2(int x) { return x > 0 && !(x & (x - 1)); }

static void add_grid(cand *c, int *n, const int *dims, int nd)
{
    for (int mask = 0; mask < 1 << nd; mask++) {
        int ok = 1;
        for (int i = 0; i < nd; i++) ok &= !((mask >> i) & 1) || pow2(dims[i]);
        if (ok) add(c, n, "ddl", dims, nd, mask);
    }
}

/* auto's candidates for p ranks, rpn per node: the enumeration of allreduce_auto.c. */
static int enumerate(cand *c, int p, int rpn)
{
    int n = 0, nodes = rpn > 1 && p % rpn == 0 ? p / rpn : 0;
    add(c, &n, "ring", NULL, 0, 0);
    add(c, &n, "rhd", NULL, 0, 0);
    if (nodes > 1) {
        add_grid(c, &n, (int[]){ rpn, nodes }, 2);
        for (int a = 2; a < nodes; a++)
            if (nodes % a == 0) add_grid(c, &n, (int[]){ rpn, a, nodes / a }, 3);
    } else {
        for (int a = 2; a < p; a++)
            if (p % a == 0) add_grid(c, &n, (int[]){ a, p / a }, 2);
    }
    return n;
}

static double cost_of(const platform *pf, const cand *c, double bytes, double gamma)
{
    cost_opts o = { c->grid[0] ? c->grid : NULL, c->patterns[0] ? c->patterns : NULL, gamma };
    double t;
    char err[160];
    return model_cost(pf, c->algo, bytes, &o, &t, err, sizeof err) ? -1.0 : t;
}

typedef struct pricer { /* auto's candidates and its pick per size class, found once per step */
    cand c[MAX_CAND];
    int n, pick[NCLASS];
} pricer;

/* Seconds of one allreduce of `bytes` by algo; auto: its pick for the size class of `bytes`. */
static int allreduce_s(const platform *pf, const char *algo, double bytes, double gamma, pricer *pz, double *s,
                       char *err, size_t errlen)
{
    if (platform_ranks(pf) == 1) {
        *s = 0;
        return 0;
    }
    if (strcmp(algo, "auto")) {
        cost_opts o = { NULL, NULL, gamma };
        return model_cost(pf, algo, bytes, &o, s, err, errlen);
    }
    int k = bytes > 0 ? (int)lround(log2(bytes)) - 10 : 0;
    k = k < 0 ? 0 : k >= NCLASS ? NCLASS - 1 : k;
    if (pz->pick[k] < 0) {
        double best = INFINITY, cls = ldexp(1.0, 10 + k);
        pz->pick[k] = 0;
        for (int i = 0; i < pz->n; i++) {
            double t = cost_of(pf, &pz->c[i], cls, gamma);
            if (t >= 0 && t < best * 0.999) best = t, pz->pick[k] = i; /* ties: the simpler, earlier one */
        }
    }
    *s = cost_of(pf, &pz->c[pz->pick[k]], bytes, gamma);
    return *s < 0 ? (snprintf(err, errlen, "auto: no candidate priced"), 2) : 0;
}

static double layer_gemm_s(const model_layer *L, int g, double rate)
{
    const model_gemm *x = &L->gemm[g];
    return (L->kind == MODEL_CONV || L->kind == MODEL_FC) ? 2.0 * x->m * x->n * x->k / rate : 0;
}

int model_step(const model *m, const platform *pf, const char *algo, const step_inputs *in, step_prediction *out,
               char *err, size_t errlen)
{
    int nt = model_tensor_count(m), rc = 2;
    size_t *counts = malloc((size_t)nt * sizeof *counts);
    bucket_plan plan = { 0 };
    double *ready = NULL, rate = in->gemm_gflops * 1e9, t = 0;
    pricer *pz = malloc(sizeof *pz);
    memset(out, 0, sizeof *out);
    if (!counts || !pz) goto nomem;
    pz->n = enumerate(pz->c, platform_ranks(pf), pf->gpus_per_node);
    for (int k = 0; k < NCLASS; k++) pz->pick[k] = -1;
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    if (bucket_plan_make(counts, nt, 4, in->bucket_bytes, in->first_bucket_bytes, &plan) ||
        !(ready = calloc((size_t)plan.nbuckets, sizeof *ready)))
        goto nomem;
    double bw = in->mem_gbps * 1e9, gemm = 0, mem = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        gemm += layer_gemm_s(model_layer_at(m, l), MODEL_FWD, rate);
        if (in->full) mem += model_mem_bytes(m, l, MODEL_FWD) / bw;
    }
    for (int l = model_layer_count(m) - 1; l >= 0; l--) {
        const model_layer *L = model_layer_at(m, l);
        if (in->full) mem += model_mem_bytes(m, l, 1) / bw;
        gemm += layer_gemm_s(L, MODEL_BWD_WEIGHT, rate);
        if (L->data_grad_needed) gemm += layer_gemm_s(L, MODEL_BWD_DATA, rate);
        t = gemm + mem;
        for (int i = L->ntensors - 1; i >= 0; i--) {
            int b = plan.tensor_bucket[L->tensor0 + i];
            if (plan.buckets[b].lowest_tensor == L->tensor0 + i) ready[b] = t;
        }
    }
    out->compute_s = t;
    out->gemm_s = gemm;
    out->nongemm_s = mem;
    double end = 0;
    for (int b = 0; b < plan.nbuckets; b++) { /* buckets complete in index order (bucket.h) */
        double s, start = ready[b] > end ? ready[b] : end;
        if ((rc = allreduce_s(pf, algo, (double)plan.buckets[b].count * 4, in->gamma, pz, &s, err, errlen))) goto out;
        end = start + s;
        out->comm_s += s;
    }
    out->exposed_s = end > t ? end - t : 0;
    out->sgd_s = (in->full ? model_sgd_bytes(m) : 12.0 * (double)plan.total) / bw;
    out->step_s = t + out->exposed_s + out->sgd_s;
    out->buckets = plan.nbuckets;
    rc = 0;
    goto out;
nomem:
    snprintf(err, errlen, "out of memory");
out:
    free(counts);
    free(ready);
    free(pz);
    bucket_plan_free(&plan);
    return rc;
}
