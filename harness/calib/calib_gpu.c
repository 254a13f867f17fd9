/* calib_gpu.c — gpu-check's device measurements of the step (calib_gpu.h; the table: harness/cli/
 * cli_gpucheck_step.c):
 * 5. the memory-bound kernels' rate on the device: batch norm + ReLU forward and backward over a
 *    256 MiB activation (kernels/layers_cuda.cu), bytes as layers.h counts them -> the profile's mem_gbps;
 * 7. the trainer's step (one rank, MPI_COMM_WORLD) at one precision, gemm only or full: 2 warm-up and
 *    5 timed steps, the median. */
#include "calib_gpu.h"
#include "devmem.h"
#include "gemm.h"
#include "layers.h"
#include "model.h"
#include "trainer.h"

#include <stdio.h>
#include <stdlib.h>

#define STEP_WARMUP GPUCHECK_STEP_WARMUP
#define STEP_REPS GPUCHECK_STEP_REPS

static int cmp_d(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

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
        qsort(t, STEP_REPS, sizeof *t, cmp_d);
        *gbps = (kern_bytes_bn_fwd(c, n) + kern_bytes_relu_fwd(e) + kern_bytes_relu_bwd(e) + kern_bytes_bn_bwd(c, n)) /
                t[STEP_REPS / 2] / 1e9;
    }
    kern_event_free(e0), kern_event_free(e1);
    kern_dev_free(x), kern_dev_free(y), kern_dev_free(dy), kern_dev_free(dx), kern_dev_free(p);
    return rc;
}

/* Median images/s of the step (full or gemm) at prec; < 0 on failure (message printed). */
double gpucheck_step_rate(const model *m, ddl_ctx *ctx, kern_precision prec, int full, double *gemm_ms, double *other_ms)
{
    step_config sc = { (size_t)25 << 20, (size_t)1 << 20, 0, 1e-6f, 1, prec, full, 0.0, 0, { 0, 0, 0, 0, 0, 0 } };
    trainer *t = NULL;
    char err[256];
    double s[STEP_REPS], g[STEP_REPS], o[STEP_REPS];
    if (trainer_create(m, ctx, &sc, &t, err, sizeof err)) {
        fprintf(stderr, "ddlbench gpu-check: %s step: %s\n", full ? "full" : "gemm", err);
        return -1;
    }
    for (int r = -STEP_WARMUP; r < STEP_REPS; r++) {
        step_times st;
        if (trainer_step(t, r + STEP_WARMUP, &st)) {
            fprintf(stderr, "ddlbench gpu-check: step: %s\n", trainer_error(t));
            trainer_free(t);
            return -1;
        }
        if (r >= 0) s[r] = st.step_s, g[r] = st.gemm_s, o[r] = st.nongemm_s + st.sgd_s;
    }
    trainer_free(t);
    qsort(s, STEP_REPS, sizeof *s, cmp_d), qsort(g, STEP_REPS, sizeof *g, cmp_d), qsort(o, STEP_REPS, sizeof *o, cmp_d);
    *gemm_ms = g[STEP_REPS / 2] * 1e3, *other_ms = o[STEP_REPS / 2] * 1e3;
    return model_batch(m) / s[STEP_REPS / 2];
}
