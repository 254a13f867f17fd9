/* calib_gpu.c — gpu-check's device measurements (calib_gpu.h; the tables: harness/cli/cli_gpucheck*.c):
 * 1.-4. a GEMM timed by events, cuBLAS against a float64 CPU reference and its bound, the reduction
 *    kernel and a D2D copy;
 * 5. the memory-bound kernels' rate on the device: batch norm + ReLU forward and backward over a
 *    256 MiB activation (kernels/layers_cuda.cu), bytes as layers.h counts them -> the profile's mem_gbps;
 * 7. the trainer's step (one rank, MPI_COMM_WORLD) at one precision, gemm only or full: 2 warm-up and
 *    5 timed steps, the median. */
#include "calib_gpu.h"
#include "devmem.h"
#include "gemm.h"
#include "half.h"
#include "layers.h"
#include "model.h"
#include "stats.h"
#include "trainer.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define STEP_WARMUP GPUCHECK_STEP_WARMUP
#define STEP_REPS GPUCHECK_STEP_REPS


int gpucheck_mem_rate(double *gbps)
{
    const int c = 64;
    const size_t n = ((size_t)64 << 20) / c, e = (size_t)c * n; /* 256 MiB a buffer */
    const kern_layer_ops *k = kern_layers_device();
    float *x = NULL, *y = NULL, *dy = NULL, *dx = NULL, *p = NULL;
    kern_event *e0 = NULL, *e1 = NULL;
    kern_stream *s = kern_dev_compute_stream();
    double t[STEP_REPS];
    int rc = !k || kern_dev_alloc((void **)&x, e * 4) || kern_dev_alloc((void **)&y, e * 4) ||
             kern_dev_alloc((void **)&dy, e * 4) || kern_dev_alloc((void **)&dx, e * 4) ||
             kern_dev_alloc((void **)&p, (size_t)8 * c * 4) || kern_fill_device(x, e, 0.5f, s) ||
             kern_fill_device(dy, e, 0.25f, s) || kern_fill_device(p, (size_t)8 * c, 0.1f, s) ||
             kern_event_create(&e0) || kern_event_create(&e1);
    for (int r = -1; !rc && r < STEP_REPS; r++) {
        rc = kern_event_record(e0, s) || k->bn_fwd(x, y, p, p + c, p + 2 * c, p + 3 * c, c, n, 1e-5f) ||
             k->relu_fwd(y, e) || k->relu_bwd(y, dy, e) ||
             k->bn_bwd(x, dy, dx, p, p + 2 * c, p + 3 * c, p + 4 * c, p + 5 * c, c, n) || kern_event_record(e1, s) ||
             kern_event_sync(e1);
        if (!rc && r >= 0) rc = kern_event_elapsed(e0, e1, &t[r]);
    }
    if (!rc) {
        *gbps = (kern_bytes_bn_fwd(c, n) + kern_bytes_relu_fwd(e) + kern_bytes_relu_bwd(e) + kern_bytes_bn_bwd(c, n)) /
                stats_median(t, STEP_REPS) / 1e9;
    }
    kern_event_free(e0), kern_event_free(e1);
    kern_dev_free(x), kern_dev_free(y), kern_dev_free(dy), kern_dev_free(dx), kern_dev_free(p);
    return rc;
}

double gpucheck_step_rate(const model *m, ddl_ctx *ctx, kern_precision prec, int full, double *gemm_ms,
                          double *other_ms, char *why, size_t whylen)
{
    step_config sc = { (size_t)25 << 20, (size_t)1 << 20, 0, 1e-6f, 1, prec, full, 0.0, 0, { 0, 0, 0, 0, 0, 0 },
                       NULL, 0, 0, DDL_FLOAT32, 0 };
    trainer *t = NULL;
    char err[256];
    double s[STEP_REPS], g[STEP_REPS], o[STEP_REPS];
    if (trainer_create(m, ctx, &sc, &t, err, sizeof err)) {
        snprintf(why, whylen, "%s step: %s", full ? "full" : "gemm", err);
        return -1;
    }
    for (int r = -STEP_WARMUP; r < STEP_REPS; r++) {
        step_times st;
        if (trainer_run(t, r + STEP_WARMUP, &st, err, sizeof err)) {
            snprintf(why, whylen, "step: %s", err);
            trainer_free(t);
            return -1;
        }
        if (r >= 0) s[r] = st.step_s, g[r] = st.gemm_s, o[r] = st.nongemm_s + st.sgd_s;
    }
    trainer_free(t);
    *gemm_ms = stats_median(g, STEP_REPS) * 1e3, *other_ms = stats_median(o, STEP_REPS) * 1e3;
    return model_batch(m) / stats_median(s, STEP_REPS);
}

#define REPS GPUCHECK_REPS


/* Median seconds of REPS runs of one GEMM on device buffers (operands uninitialised: zeros). */
int gpucheck_time_gemm(kern_precision p, const model_gemm *g, void *A, void *B, float *C, double *sec)
{
    kern_event *e0 = NULL, *e1 = NULL;
    kern_stream *s = kern_dev_compute_stream();
    double t[REPS];
    int rc = kern_event_create(&e0) || kern_event_create(&e1);
    for (int r = -1; !rc && r < REPS; r++) { /* r = -1: warm-up (cuBLAS heuristics, clocks) */
        rc = kern_event_record(e0, s) ||
             kern_gemm_ex(p, g->transa, g->transb, g->m, g->n, g->k, 1.0f, A, g->transa ? g->m : g->k, B,
                          g->transb ? g->k : g->n, 0.0f, C, g->n) ||
             kern_event_record(e1, s) || kern_event_sync(e1);
        if (!rc && r >= 0) rc = kern_event_elapsed(e0, e1, &t[r]);
    }
    kern_event_free(e0), kern_event_free(e1);
    if (rc) return rc;
    *sec = stats_median(t, REPS);
    return 0;
}

/* Max over C of |C - R| / Σ|a||b| for an m×n×k GEMM of values in [-1, 1). */
int gpucheck_check_precision(kern_precision p, double *err)
{
    enum { M = 192, N = 160, K = 1024 };
    float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N), *c = malloc(sizeof(float) * M * N);
    char *ha = malloc(4 * (size_t)M * K), *hb = malloc(4 * (size_t)K * N);
    void *da = NULL, *db = NULL, *dc = NULL;
    size_t es = kern_precision_input_size(p);
    int rc = !a || !b || !c || !ha || !hb;
    unsigned x = 12345;
    for (int i = 0; !rc && i < M * K + K * N; i++) {
        x = x * 1103515245u + 12345u;
        float v = (float)((x >> 8) & 0xffff) / 32768.0f - 1.0f;
        if (i < M * K) a[i] = v; else b[i - M * K] = v;
    }
    for (int i = 0; !rc && i < M * K + K * N; i++) { /* inputs in the precision's type; the reference uses them */
        float *f = i < M * K ? &a[i] : &b[i - M * K];
        char *h = i < M * K ? ha + (size_t)i * es : hb + (size_t)(i - M * K) * es;
        if (es == 4) memcpy(h, f, 4);
        else {
            uint16_t u = p == KERN_PREC_BF16 ? kern_f32_to_bf16(*f) : kern_f32_to_f16(*f);
            memcpy(h, &u, 2);
            *f = p == KERN_PREC_BF16 ? kern_bf16_to_f32(u) : kern_f16_to_f32(u);
        }
    }
    rc = rc || kern_dev_alloc(&da, es * M * K) || kern_dev_alloc(&db, es * K * N) ||
         kern_dev_alloc(&dc, 4 * (size_t)M * N) || kern_dev_copy(da, ha, es * M * K, NULL) ||
         kern_dev_copy(db, hb, es * K * N, NULL) || kern_stream_sync(NULL) ||
         kern_gemm_ex(p, 0, 0, M, N, K, 1.0f, da, K, db, N, 0.0f, dc, N) ||
         kern_stream_sync(kern_dev_compute_stream()) || kern_dev_copy(c, dc, 4 * (size_t)M * N, NULL) ||
         kern_stream_sync(NULL);
    *err = 0;
    for (int i = 0; !rc && i < M; i++)
        for (int j = 0; j < N; j++) {
            double r = 0, mag = 0;
            for (int k = 0; k < K; k++) {
                r += (double)a[i * K + k] * b[k * N + j];
                mag += fabs((double)a[i * K + k] * b[k * N + j]);
            }
            double e = fabs(c[i * N + j] - r) / (mag > 0 ? mag : 1);
            if (e > *err) *err = e;
        }
    kern_dev_free(da), kern_dev_free(db), kern_dev_free(dc);
    free(a), free(b), free(c), free(ha), free(hb);
    return rc;
}

/* Bound on the relative error: the GEMM's own input rounding (tf32: 2^-11) plus float32 accumulation. */
double gpucheck_bound(kern_precision p)
{
    double acc = 1024 * pow(2, -24);
    return (p == KERN_PREC_TF32 ? 2 * pow(2, -11) : 0) + acc + 1e-7;
}

/* Reduction kernel and D2D copy on 256 MB: median GB/s (reduce counts 3 bytes moved per byte). */
int gpucheck_time_memory(double *reduce_gbs, double *copy_gbs, double *ns_per_byte)
{
    const size_t bytes = (size_t)256 << 20;
    void *a = NULL, *b = NULL;
    kern_event *e0 = NULL, *e1 = NULL;
    double tr[REPS], tc[REPS];
    int rc = kern_dev_alloc(&a, bytes) || kern_dev_alloc(&b, bytes) || kern_dev_memset(a, 0, bytes, NULL) ||
             kern_dev_memset(b, 0, bytes, NULL) || kern_event_create(&e0) || kern_event_create(&e1);
    for (int r = -1; !rc && r < REPS; r++) {
        double s1 = 0, s2 = 0;
        rc = kern_event_record(e0, NULL) || kern_reduce_device(KERN_F32, KERN_SUM, a, a, b, bytes / 4, NULL) ||
             kern_event_record(e1, NULL) || kern_event_sync(e1) || kern_event_elapsed(e0, e1, &s1) ||
             kern_event_record(e0, NULL) || kern_dev_copy(a, b, bytes, NULL) || kern_event_record(e1, NULL) ||
             kern_event_sync(e1) || kern_event_elapsed(e0, e1, &s2);
        if (r >= 0) tr[r] = s1, tc[r] = s2;
    }
    kern_event_free(e0), kern_event_free(e1), kern_dev_free(a), kern_dev_free(b);
    if (rc) return rc;
    double red = stats_median(tr, REPS), copy = stats_median(tc, REPS);
    *reduce_gbs = 3.0 * bytes / red / 1e9;
    *copy_gbs = 2.0 * bytes / copy / 1e9;
    *ns_per_byte = red * 1e9 / bytes;
    return 0;
}
