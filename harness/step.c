/* step.c — the training step (see step.h).
 * Buffers: params and grads (flat, bucket order, from bucket.h), the im2col input X and its gradient
 * dX (largest K×N over layers), the output Y / its gradient dY (largest M×N). Inputs stay constant
 * and outputs are write-only, so values neither grow nor underflow over steps.
 * Times: stream_time() is when the work issued so far completes — MPI_Wtime on a CPU, the virtual
 * compute clock under simulation — so the same code measures both. */
#include "step.h"

#include "bucket.h"
#include "comm_engine.h"
#include "compute.h"
#include "counters.h"
#include "gemm.h"
#include "mem.h"
#include "sgd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trainer {
    const model *m;
    ddl_ctx *ctx;
    step_config cfg;
    int rank, size;
    bucket_plan plan;
    comm_engine *engine;
    float *params, *grads;  /* flat, plan.total elements */
    float *x, *dx, *y;      /* activations (synthetic) */
    size_t kn, mn;          /* their sizes in elements (K×N, M×N) */
    char err[256];          /* last error */
};

static double stream_time(void)
{
    double m = kern_compute_mark();
    return m >= 0 ? m : MPI_Wtime();
}

/* The known gradient of element i in check mode: small integers, exact in float32 sums. */
static float check_value(int rank, size_t i, int step) { return (float)((rank * 3 + (int)(i % 29) + step) % 17 - 8); }

static void fill(float *p, size_t n, float scale)
{
    for (size_t i = 0; i < n; i++) p[i] = scale * (float)((int)(i % 13) - 6);
}

static int alloc_buffers(trainer *t)
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
    t->params = kern_operand_alloc(t->plan.total * 4); /* only GEMMs and SGD touch these */
    t->grads = kern_buf_alloc(t->plan.total * 4);      /* MPI moves this one */
    t->x = kern_operand_alloc(kn * 4);
    t->dx = kern_operand_alloc(kn * 4);
    t->y = kern_operand_alloc(mn * 4);
    if (!t->params || !t->grads || !t->x || !t->dx || !t->y) {
        snprintf(t->err, sizeof t->err, "out of memory for %.1f MB of parameters, gradients and activations",
                 (2.0 * (double)t->plan.total + 2.0 * (double)kn + (double)mn) * 4 / 1e6);
        return -1;
    }
    if (kern_compute_mark() < 0) { /* real buffers: give them values (simulated ones are shared) */
        fill(t->params, t->plan.total, 0.01f);
        fill(t->x, kn, 0.01f);
        fill(t->y, mn, 0.01f);
        memset(t->grads, 0, t->plan.total * 4);
    }
    return 0;
}

int trainer_create(const model *m, ddl_ctx *ctx, const step_config *cfg, trainer **out, char *err, size_t errlen)
{
    trainer *t = calloc(1, sizeof *t);
    size_t *counts = NULL;
    int nt = model_tensor_count(m), rc = -1;
    *out = NULL;
    if (!t || !(counts = malloc((size_t)nt * sizeof *counts))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    t->m = m;
    t->ctx = ctx;
    t->cfg = *cfg;
    MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t->size);
    for (int i = 0; i < nt; i++) counts[i] = (size_t)model_tensor_at(m, i)->numel;
    if (bucket_plan_make(counts, nt, 4, cfg->bucket_bytes, cfg->first_bucket_bytes, &t->plan)) {
        snprintf(err, errlen, "cannot plan gradient buckets");
        goto out;
    }
    if (alloc_buffers(t) || engine_create(ctx, t->grads, DDL_FLOAT32, &t->plan, &t->engine)) {
        snprintf(err, errlen, "%s", t->err[0] ? t->err : "cannot start the communication engine");
        goto out;
    }
    *out = t;
    t = NULL;
    rc = 0;
out:
    free(counts);
    trainer_free(t);
    return rc;
}

static int gemm(trainer *t, const model_gemm *g, const float *a, const float *b, float *c, double *gemm_s)
{
    double t0 = stream_time();
    counters_begin();
    int rc = kern_gemm_f32(g->transa, g->transb, g->m, g->n, g->k, 1.0f, a, g->transa ? g->m : g->k, b,
                           g->transb ? g->k : g->n, 0.0f, c, g->n);
    counters_end();
    *gemm_s += stream_time() - t0;
    if (rc) snprintf(t->err, sizeof t->err, "%s (m=%d n=%d k=%d)", kern_gemm_strerror(rc), g->m, g->n, g->k);
    return rc;
}

static int forward(trainer *t, double *gemm_s)
{
    for (int l = 0; l < model_layer_count(t->m); l++) {
        const model_layer *L = model_layer_at(t->m, l);
        if (L->kind != MODEL_CONV && L->kind != MODEL_FC) continue;
        const float *w = t->params + t->plan.tensor_offset[L->tensor0];
        if (gemm(t, &L->gemm[MODEL_FWD], w, t->x, t->y, gemm_s)) return -1;
    }
    return 0;
}

/* Gradients of one layer's tensors, highest tensor first; posts every bucket they complete. */
static int backward_layer(trainer *t, const model_layer *L, int step, double *gemm_s)
{
    if (L->kind == MODEL_CONV || L->kind == MODEL_FC) {
        float *dw = t->grads + t->plan.tensor_offset[L->tensor0];
        const float *w = t->params + t->plan.tensor_offset[L->tensor0];
        if (gemm(t, &L->gemm[MODEL_BWD_WEIGHT], t->y, t->x, dw, gemm_s)) return -1;
        if (L->data_grad_needed && gemm(t, &L->gemm[MODEL_BWD_DATA], w, t->y, t->dx, gemm_s)) return -1;
    }
    for (int i = L->ntensors - 1; i >= 0; i--) {
        int ti = L->tensor0 + i;
        size_t off = t->plan.tensor_offset[ti], n = (size_t)model_tensor_at(t->m, ti)->numel;
        if (t->cfg.check) {
            for (size_t j = 0; j < n; j++) t->grads[off + j] = check_value(t->rank, off + j, step);
        } else if (!(i == 0 && L->kind != MODEL_BN) && kern_compute_mark() < 0) {
            fill(t->grads + off, n, 0.001f); /* BN scale/shift, FC bias: per-channel sums, negligible */
        }
        int b = t->plan.tensor_bucket[ti];
        if (t->plan.buckets[b].lowest_tensor == ti && engine_post(t->engine, b)) {
            snprintf(t->err, sizeof t->err, "cannot post bucket %d", b);
            return -1;
        }
    }
    return 0;
}

int trainer_step(trainer *t, int step, step_times *st)
{
    memset(st, 0, sizeof *st);
    kern_compute_begin();
    engine_begin_step(t->engine);
    double t0 = stream_time();
    if (forward(t, &st->gemm_s)) return -1;
    for (int l = model_layer_count(t->m) - 1; l >= 0; l--)
        if (backward_layer(t, model_layer_at(t->m, l), step, &st->gemm_s)) return -1;
    double t_bwd = stream_time();
    engine_stats es;
    if (engine_wait_all(t->engine, &es)) {
        snprintf(t->err, sizeof t->err, "allreduce failed: %s", engine_error(t->engine));
        return -1;
    }
    double t_comm = MPI_Wtime();
    kern_compute_begin(); /* the update starts once both the gradients and their sums are there */
    double t_sgd = stream_time();
    kern_sgd_f32(t->params, t->grads, t->cfg.lr, t->plan.total);
    double t_end = stream_time();
    kern_compute_wait_until(t_end);
    st->step_s = t_end - t0;
    st->compute_s = t_bwd - t0;
    st->exposed_s = t_comm > t_bwd ? t_comm - t_bwd : 0;
    st->sgd_s = t_end - t_sgd;
    st->comm_s = es.busy_s;
    st->buckets = es.buckets;
    st->other_s = st->step_s - st->gemm_s - st->exposed_s - st->sgd_s;
    return 0;
}

long trainer_verify(const trainer *t, int step)
{
    long wrong = 0;
    for (size_t i = 0; i < t->plan.total; i++) {
        float want = 0;
        for (int r = 0; r < t->size; r++) want += check_value(r, i, step);
        wrong += t->grads[i] != want;
    }
    return wrong;
}

int trainer_buckets(const trainer *t) { return t->plan.nbuckets; }
size_t trainer_grad_bytes(const trainer *t) { return t->plan.total * 4; }
const char *trainer_error(const trainer *t) { return t->err; }

void trainer_free(trainer *t)
{
    if (!t) return;
    engine_free(t->engine);
    kern_operand_free(t->params, t->plan.total * 4);
    kern_buf_free(t->grads);
    kern_operand_free(t->x, t->kn * 4);
    kern_operand_free(t->dx, t->kn * 4);
    kern_operand_free(t->y, t->mn * 4);
    bucket_plan_free(&t->plan);
    free(t);
}
