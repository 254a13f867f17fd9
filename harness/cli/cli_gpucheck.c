/* cli_gpucheck.c — `ddlbench gpu-check`: the one-call check of the CUDA build on one GPU (docs/GPU.md).
 * 1. cuBLAS against a float64 CPU reference, every precision: max |C - R| / Σ|a||b| within the
 *    precision's bound (input rounding 2u plus float32 accumulation k·2^-24);
 * 2. peak per precision: a square GEMM (--peak-n, default 8192), median of 5 timed by events;
 * 3. the three largest ResNet-50 GEMMs at batch 32 per precision, TFLOP/s beside that peak;
 * 4. the reduction kernel (float32 sum, 256 MB) in GB/s (3 bytes moved per byte) beside a D2D copy;
 * 5. the memory-bound layer kernels' rate (batch norm + ReLU, harness/calib/calib_gpu.c) in GB/s;
 *    writes a device profile (--profile-out) with gemm_gflops_fp32 (tf32 rate), gemm_gflops_fp16,
 *    reduce_ns_per_byte and mem_gbps, measured here, for the simulator;
 * 6. compute beside communication: the largest ResNet-50 GEMM beside the reduction kernel or pinned
 *    copies on a second stream, and the mirror (cli_gpucheck_contend.c);
 * 7. the ResNet-50 step at batch 32 and 256 (or --step-batch N; 0 skips), --compute gemm and full, per
 *    precision, beside the H200 reference figures at that batch (cli_gpucheck_step.c). Without a device: one SKIP line, exit 0.
 * Only rank 0 runs; timings are medians. */
#include "calib_gpu.h"
#include "cli.h"
#include "opts.h"
#include "devmem.h"
#include "gemm.h"
#include "half.h"
#include "model.h"
#include "outfile.h"
#include "parse.h"
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 5

static int cmp_d(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* Median seconds of REPS runs of one GEMM on device buffers (operands uninitialised: zeros). */
static int time_gemm(kern_precision p, const model_gemm *g, void *A, void *B, float *C, double *sec)
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
    qsort(t, REPS, sizeof *t, cmp_d);
    *sec = t[REPS / 2];
    return 0;
}

/* Max over C of |C - R| / Σ|a||b| for an m×n×k GEMM of values in [-1, 1). */
static int check_precision(kern_precision p, double *err)
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
    rc = rc || kern_dev_alloc(&da, es * M * K) || kern_dev_alloc(&db, es * K * N) || kern_dev_alloc(&dc, 4 * (size_t)M * N) ||
         kern_dev_copy(da, ha, es * M * K, NULL) || kern_dev_copy(db, hb, es * K * N, NULL) || kern_stream_sync(NULL) ||
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
static double bound(kern_precision p)
{
    double acc = 1024 * pow(2, -24);
    return (p == KERN_PREC_TF32 ? 2 * pow(2, -11) : 0) + acc + 1e-7;
}

/* Reduction kernel and D2D copy on 256 MB: median GB/s (reduce counts 3 bytes moved per byte). */
static int time_memory(double *reduce_gbs, double *copy_gbs, double *ns_per_byte)
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
    qsort(tr, REPS, sizeof *tr, cmp_d), qsort(tc, REPS, sizeof *tc, cmp_d);
    *reduce_gbs = 3.0 * bytes / tr[REPS / 2] / 1e9;
    *copy_gbs = 2.0 * bytes / tc[REPS / 2] / 1e9;
    *ns_per_byte = tr[REPS / 2] * 1e9 / bytes;
    return 0;
}

int cli_gpucheck_main(int argc, char **argv)
{
    const char *out = NULL;
    long peak_n = 8192, step_batch = -1; /* -1: batch 32, then 256 */
    int ndev = 0, rc = 0, fails = 0;
    double peak[KERN_PREC_COUNT] = { 0 };
    char err[700];
    const opt_row rows[] = {
        { .name = "--profile-out", .type = OPT_STRING, .unit = "FILE",
          .help = "write the measured device profile (checked before the run)" },
        { .name = "--peak-n", .type = OPT_LONG, .min = 256, .max = 32768, .help = "side of the square peak GEMM (default 8192)" },
        { .name = "--step-batch", .type = OPT_LONG, .min = 0, .max = 4096,
          .help = "ResNet-50 step batch (--compute gemm and full) (default: 32, then 256,\n"
                  "the batches with H200 reference figures; 0 = skip)" },
    };
    const opts_set sets[] = { OPTS_ONE(&rows[0], &out), OPTS_ONE(&rows[1], &peak_n), OPTS_ONE(&rows[2], &step_batch) };
    opts_parser p = { sets, 3, NULL, 0, 0, { 0 } };
    rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) {
        printf("usage: ddlbench gpu-check [--profile-out FILE] [--peak-n N] [--step-batch N]   (CUDA build, one GPU)\n");
        opts_usage(stdout, sets, 3);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", err);
        return 2;
    }
    if (out && outfile_check("--profile-out", out, err, sizeof err)) { /* before minutes of measuring */
        fprintf(stderr, "ddlbench gpu-check: %s\n", err);
        return 2;
    }
    if (kern_dev_count(&ndev) || ndev == 0) {
        printf("SKIP: no CUDA device (%s)\n", kern_dev_last_error());
        return 0;
    }
    if ((rc = kern_gemm_init())) {
        fprintf(stderr, "ddlbench gpu-check: %s: %s\n", kern_gemm_strerror(rc), kern_dev_last_error());
        return 1;
    }
    printf("# ddlbench gpu-check on %s\n# %s\n", kern_dev_name(), kern_gemm_backend());
    printf("# 1. cuBLAS vs float64 reference (192x160x1024, values in [-1,1))\n");
    for (int p = 0; p < KERN_PREC_COUNT; p++) {
        double e = 0;
        rc = check_precision((kern_precision)p, &e);
        int ok = !rc && e <= bound((kern_precision)p);
        fails += !ok;
        printf("%-5s max_rel_err %.3g bound %.3g %s%s\n", kern_precision_name((kern_precision)p), e,
               bound((kern_precision)p), ok ? "ok" : "FAIL", rc ? kern_dev_last_error() : "");
    }
    size_t big = (size_t)peak_n * peak_n;
    void *A = NULL, *B = NULL;
    float *C = NULL;
    model *m = NULL;
    if (kern_dev_alloc(&A, big * 4 > ((size_t)64 << 20) * 4 ? big * 4 : ((size_t)64 << 20) * 4) ||
        kern_dev_alloc(&B, big * 4 > ((size_t)64 << 20) * 4 ? big * 4 : ((size_t)64 << 20) * 4) ||
        kern_dev_alloc((void **)&C, big * 4 > ((size_t)64 << 20) * 4 ? big * 4 : ((size_t)64 << 20) * 4) ||
        kern_dev_memset(A, 0, big * 4, NULL) || kern_dev_memset(B, 0, big * 4, NULL) || kern_stream_sync(NULL)) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", kern_dev_last_error());
        rc = 1;
        goto out;
    }
    printf("# 2. peak: %ldx%ldx%ld GEMM, median of %d\n", peak_n, peak_n, peak_n, REPS);
    for (int p = 0; p < KERN_PREC_COUNT; p++) {
        model_gemm g = { 0, 0, (int)peak_n, (int)peak_n, (int)peak_n };
        double s = 0;
        if (time_gemm((kern_precision)p, &g, A, B, C, &s)) { rc = 1; goto out; }
        peak[p] = kern_gemm_flops(peak_n, peak_n, peak_n) / s / 1e12;
        printf("%-5s peak %.1f TFLOP/s\n", kern_precision_name((kern_precision)p), peak[p]);
    }
    printf("# 3. the largest ResNet-50 GEMMs (batch 32, 224x224), TFLOP/s and share of peak\n");
    if (model_build("resnet50", 32, 224, &m)) { rc = 1; goto out; }
    const model_gemm *top[3] = { NULL, NULL, NULL };
    for (int l = 0; l < model_layer_count(m); l++)
        for (int k = 0; k < MODEL_GEMM_COUNT; k++) {
            const model_gemm *g = &model_layer_at(m, l)->gemm[k];
            double f = kern_gemm_flops(g->m, g->n, g->k);
            if ((size_t)g->m * g->k > (size_t)64 << 20 || (size_t)g->k * g->n > (size_t)64 << 20 || (size_t)g->m * g->n > (size_t)64 << 20) continue;
            for (int t = 0; t < 3; t++)
                if (!top[t] || f > kern_gemm_flops(top[t]->m, top[t]->n, top[t]->k)) {
                    for (int u = 2; u > t; u--) top[u] = top[u - 1];
                    top[t] = g;
                    break;
                }
        }
    for (int t = 0; t < 3 && top[t]; t++)
        for (int p = 0; p < KERN_PREC_COUNT; p++) {
            double s = 0;
            if (time_gemm((kern_precision)p, top[t], A, B, C, &s)) { rc = 1; goto out; }
            double tf = kern_gemm_flops(top[t]->m, top[t]->n, top[t]->k) / s / 1e12;
            printf("m=%d n=%d k=%d %-5s %.1f TFLOP/s (%.0f%% of peak)\n", top[t]->m, top[t]->n, top[t]->k,
                   kern_precision_name((kern_precision)p), tf, 100 * tf / peak[p]);
        }
    double rgbs = 0, cgbs = 0, nspb = 0;
    if (time_memory(&rgbs, &cgbs, &nspb)) { rc = 1; goto out; }
    printf("# 4. memory: reduce (float32 sum, 256 MB) %.0f GB/s, D2D copy %.0f GB/s: %.2fx of the copy\n", rgbs,
           cgbs, cgbs > 0 ? rgbs / cgbs : 0.0);
    double mgbs = 0;
    if (gpucheck_mem_rate(&mgbs)) { rc = 1; goto out; }
    printf("# 5. layer kernels (batch norm + ReLU forward and backward, 256 MiB): %.0f GB/s\n", mgbs);
    if (top[0] && gpucheck_contention(top[0], A, B, C)) { rc = 1; goto out; }
    profile pr = { .gemm_gflops_fp32 = peak[KERN_PREC_TF32], .gemm_gflops_fp16 = peak[KERN_PREC_FP16],
                   .reduce_ns_per_byte = nspb, .mem_gbps = mgbs };
    if (out && profile_write(out, &pr, "measured by ddlbench gpu-check (peak GEMM rates; tf32 as fp32; mem_gbps: batch norm + ReLU kernels)",
                             err, sizeof err)) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", err);
        rc = 1;
        goto out;
    }
    if (step_batch < 0 ? gpucheck_pytorch_step(32) || gpucheck_pytorch_step(256)
                       : step_batch > 0 && gpucheck_pytorch_step(step_batch)) {
        rc = 1;
        goto out;
    }
    printf("# summary\n%-22s %s\n%-22s %.1f / %.1f / %.1f / %.1f\n%-22s %.0f (copy %.0f, %.2fx)\n%-22s %.0f\n%-22s %s\n%-22s %s\n",
           "device", kern_dev_name(), "peak TFLOP/s fp32/tf32/bf16/fp16", peak[0], peak[1], peak[2], peak[3],
           "reduce GB/s", rgbs, cgbs, cgbs > 0 ? rgbs / cgbs : 0.0, "layer kernels GB/s", mgbs, "gemm checks", fails ? "FAIL" : "ok", "profile",
           out ? out : "(not written)");
    rc = fails ? 1 : 0;
out:
    if (rc && !fails) fprintf(stderr, "ddlbench gpu-check: %s\n", kern_dev_last_error());
    model_free(m);
    kern_dev_free(A), kern_dev_free(B), kern_dev_free(C);
    gpucheck_mpi_done();
    return rc;
}
