/* cli_gpucheck.c — `ddlbench gpu-check`: the one-call check of the CUDA build on one GPU (docs/GPU.md).
 * The measurements: harness/calib/calib_gpu.c, calib_contend.c; this file parses, calls and prints.
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
 *    precision, beside the H200 reference figures at that batch (cli_gpucheck_step.c). Without a device: one SKIP line,
 * exit 0.
 * Only rank 0 runs; timings are medians. */
#include "calib_gpu.h"
#include "cli.h"
#include "opts.h"
#include "devmem.h"
#include "gemm.h"
#include "model.h"
#include "outfile.h"
#include "parse.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        { .name = "--peak-n", .type = OPT_LONG, .min = 256, .max = 32768,
          .help = "side of the square peak GEMM (default 8192)" },
        { .name = "--step-batch", .type = OPT_LONG, .min = 0, .max = 4096,
          .help = "ResNet-50 step batch (--compute gemm and full) (default: 32, then 256,\n"
                  "the batches with H200 reference figures; 0 = skip)" },
    };
    const opts_set sets[] = { OPTS_ONE(&rows[0], &out), OPTS_ONE(&rows[1], &peak_n), OPTS_ONE(&rows[2], &step_batch) };
    opts_parser p = { sets, 3, NULL, 0, 0, { 0 } };
    rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) {
        printf(
            "usage: ddlbench gpu-check [--profile-out FILE] [--peak-n N] [--step-batch N]   (CUDA build, one GPU)\n");
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
        rc = gpucheck_check_precision((kern_precision)p, &e);
        int ok = !rc && e <= gpucheck_bound((kern_precision)p);
        fails += !ok;
        printf("%-5s max_rel_err %.3g bound %.3g %s%s\n", kern_precision_name((kern_precision)p), e,
               gpucheck_bound((kern_precision)p), ok ? "ok" : "FAIL", rc ? kern_dev_last_error() : "");
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
    printf("# 2. peak: %ldx%ldx%ld GEMM, median of %d\n", peak_n, peak_n, peak_n, GPUCHECK_REPS);
    for (int p = 0; p < KERN_PREC_COUNT; p++) {
        model_gemm g = { 0, 0, (int)peak_n, (int)peak_n, (int)peak_n };
        double s = 0;
        if (gpucheck_time_gemm((kern_precision)p, &g, A, B, C, &s)) { rc = 1; goto out; }
        peak[p] = kern_gemm_flops(peak_n, peak_n, peak_n) / s / 1e12;
        printf("%-5s peak %.1f TFLOP/s\n", kern_precision_name((kern_precision)p), peak[p]);
    }
    printf("# 3. the largest ResNet-50 GEMMs (batch 32, 224x224), TFLOP/s and share of peak\n");
    char why[512];
    if (model_create("resnet50", 32, 224, &m, why, sizeof why)) { rc = 1; goto out; }
    const model_gemm *top[3] = { NULL, NULL, NULL };
    for (int l = 0; l < model_layer_count(m); l++)
        for (int k = 0; k < MODEL_GEMM_COUNT; k++) {
            const model_gemm *g = &model_layer_at(m, l)->gemm[k];
            double f = kern_gemm_flops(g->m, g->n, g->k);
            if ((size_t)g->m * g->k > (size_t)64 << 20 || (size_t)g->k * g->n > (size_t)64 << 20 ||
                (size_t)g->m * g->n > (size_t)64 << 20)
                continue;
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
            if (gpucheck_time_gemm((kern_precision)p, top[t], A, B, C, &s)) { rc = 1; goto out; }
            double tf = kern_gemm_flops(top[t]->m, top[t]->n, top[t]->k) / s / 1e12;
            printf("m=%d n=%d k=%d %-5s %.1f TFLOP/s (%.0f%% of peak)\n", top[t]->m, top[t]->n, top[t]->k,
                   kern_precision_name((kern_precision)p), tf, 100 * tf / peak[p]);
        }
    double rgbs = 0, cgbs = 0, nspb = 0;
    if (gpucheck_time_memory(&rgbs, &cgbs, &nspb)) { rc = 1; goto out; }
    printf("# 4. memory: reduce (float32 sum, 256 MB) %.0f GB/s, D2D copy %.0f GB/s: %.2fx of the copy\n", rgbs,
           cgbs, cgbs > 0 ? rgbs / cgbs : 0.0);
    double mgbs = 0;
    if (gpucheck_mem_rate(&mgbs)) { rc = 1; goto out; }
    printf("# 5. layer kernels (batch norm + ReLU forward and backward, 256 MiB): %.0f GB/s\n", mgbs);
    if (top[0] && gpucheck_contention(top[0], A, B, C)) { rc = 1; goto out; }
    profile pr = { .gemm_gflops_fp32 = peak[KERN_PREC_TF32], .gemm_gflops_fp16 = peak[KERN_PREC_FP16],
                   .reduce_ns_per_byte = nspb, .mem_gbps = mgbs };
    if (out &&
        profile_write(
            out, &pr,
            "measured by ddlbench gpu-check (peak GEMM rates; tf32 as fp32; mem_gbps: batch norm + ReLU kernels)", err,
            sizeof err)) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", err);
        rc = 1;
        goto out;
    }
    if (step_batch < 0 ? gpucheck_pytorch_step(32) || gpucheck_pytorch_step(256)
                       : step_batch > 0 && gpucheck_pytorch_step(step_batch)) {
        rc = 1;
        goto out;
    }
    printf("# summary\n%-22s %s\n%-22s %.1f / %.1f / %.1f / %.1f\n%-22s %.0f (copy %.0f, %.2fx)\n%-22s %.0f\n%-22s "
           "%s\n%-22s %s\n",
           "device", kern_dev_name(), "peak TFLOP/s fp32/tf32/bf16/fp16", peak[0], peak[1], peak[2], peak[3],
           "reduce GB/s", rgbs, cgbs, cgbs > 0 ? rgbs / cgbs : 0.0, "layer kernels GB/s", mgbs, "gemm checks",
           fails ? "FAIL" : "ok", "profile", out ? out : "(not written)");
    rc = fails ? 1 : 0;
out:
    if (rc && !fails) fprintf(stderr, "ddlbench gpu-check: %s\n", kern_dev_last_error());
    model_free(m);
    kern_dev_free(A), kern_dev_free(B), kern_dev_free(C);
    gpucheck_mpi_done();
    return rc;
}
