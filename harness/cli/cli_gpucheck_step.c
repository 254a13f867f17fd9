/* cli_gpucheck_step.c — parts 5 and 7 of `ddlbench gpu-check` (cli_gpucheck.c):
 * 5. the memory-bound kernels' rate on the device: batch norm + ReLU forward and backward over a
 *    256 MiB activation (kernels/layers_cuda.cu), bytes as layers.h counts them -> the profile's mem_gbps;
 * 7. the ResNet-50 training step at batch 32 and 256 (224×224; or one --step-batch) on this one GPU,
 *    --compute gemm and full, per precision, beside the reference figures measured on an H200
 *    (docs/SOURCES.md: PyTorch 2.11's torchvision resnet50, channels_last, SGD, random data, bf16 under
 *    autocast; and ddlbench's own first H200 run, before event-timed spans, at batch 32 and 256), with
 *    the ratio to PyTorch and whether the full step is within ±25%. Other batches have no reference. The step is the trainer's (one rank, MPI_COMM_WORLD of a singleton
 *    MPI_Init, ring allreduce of nothing to do): 2 warm-up and 5 timed steps, the median. */
#include "cli.h"
#include "devmem.h"
#include "engine.h"
#include "gemm.h"
#include "layers.h"
#include "model.h"
#include "trainer.h"
#include "rank.h"

#include <stdio.h>
#include <stdlib.h>

#define STEP_WARMUP 2
#define STEP_REPS 5

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
static double step_rate(const model *m, ddl_ctx *ctx, kern_precision prec, int full, double *gemm_ms, double *other_ms)
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

/* Reference images/s on one H200 (docs/SOURCES.md, "PyTorch reference" and "The H200 GEMM rates"):
 * PyTorch 2.11 and ddlbench's first run (commit 5b529be, a stream drain after every GEMM). */
static const struct ref_row { long batch; kern_precision p; double pytorch, first; } refs[] = {
    { 32, KERN_PREC_FP32, 830, 1314 },   { 32, KERN_PREC_TF32, 1949, 2954 },  { 32, KERN_PREC_BF16, 1807, 4793 },
    { 256, KERN_PREC_FP32, 1059, 1767 }, { 256, KERN_PREC_TF32, 3173, 5939 }, { 256, KERN_PREC_BF16, 4710, 9885 },
};

static const struct ref_row *ref_find(long batch, kern_precision p)
{
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++)
        if (refs[i].batch == batch && refs[i].p == p) return &refs[i];
    return NULL;
}

static int mpi_ours; /* 1: MPI was initialised here (a singleton), and gpucheck_mpi_done finalises it */

void gpucheck_mpi_done(void)
{
    int done = 0;
    if (mpi_ours && !MPI_Finalized(&done) && !done) MPI_Finalize();
    mpi_ours = 0;
}

int gpucheck_pytorch_step(long batch)
{
    static const kern_precision precs[] = { KERN_PREC_FP32, KERN_PREC_TF32, KERN_PREC_BF16 };
    model *m = NULL;
    ddl_ctx *ctx = NULL;
    ddl_config cfg = DDL_CONFIG_INIT;
    int inited = 0, provided, fails = 0;
    MPI_Initialized(&inited);
    if (!inited) MPI_Init_thread(NULL, NULL, engine_thread_level(), &provided), mpi_ours = 1;
    rank_release_stderr(); /* from here a failing rank says why itself (rank.h) */
    cfg.algo = "ring", cfg.device = 1;
    if (model_build("resnet50", (int)batch, 224, &m) || ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx)) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", m ? ddl_last_error() : model_last_error());
        model_free(m);
        return 1;
    }
    printf("# 7. ResNet-50 training step, batch %ld, 224x224, this GPU: images/s (median of %d steps after %d)\n"
           "#    beside the H200 references at this batch: PyTorch 2.11 (torchvision resnet50, channels_last, SGD,\n"
           "#    random data) and ddlbench's first run (gemm only, a drain after every GEMM); ratio = full / pytorch\n"
           "# %-5s %10s %10s %9s %9s %10s %10s %8s %s\n", batch, STEP_REPS, STEP_WARMUP, "prec", "gemm_only", "full",
           "gemm_ms", "other_ms", "pytorch", "first_run", "ratio", "full within +-25%");
    for (size_t i = 0; i < sizeof precs / sizeof precs[0]; i++) {
        const struct ref_row *r = ref_find(batch, precs[i]);
        double gm, om, gm2, om2, g = step_rate(m, ctx, precs[i], 0, &gm2, &om2), f = step_rate(m, ctx, precs[i], 1, &gm, &om);
        if (g < 0 || f < 0) {
            fails++;
            continue;
        }
        if (!r) {
            printf("  %-5s %10.1f %10.1f %9.2f %9.2f %10s %10s %8s %s\n", kern_precision_name(precs[i]), g, f, gm, om,
                   "-", "-", "-", "(no reference at this batch)");
            continue;
        }
        double ratio = f / r->pytorch;
        printf("  %-5s %10.1f %10.1f %9.2f %9.2f %10.0f %10.0f %8.3f %s\n", kern_precision_name(precs[i]), g, f, gm, om,
               r->pytorch, r->first, ratio, ratio >= 0.75 && ratio <= 1.25 ? "yes" : "NO");
    }
    ddl_ctx_free(ctx);
    model_free(m); /* MPI stays up for the next batch: gpucheck_mpi_done ends it (it cannot restart) */
    return fails ? 1 : 0;
}
