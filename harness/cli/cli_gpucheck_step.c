/* cli_gpucheck_step.c — part 7 of `ddlbench gpu-check` (cli_gpucheck.c; the measurement:
 * harness/calib/calib_gpu.c):
 * 7. the ResNet-50 training step at batch 32 and 256 (224×224; or one --step-batch) on this one GPU,
 *    --compute gemm and full, per precision, beside the reference figures measured on an H200
 *    (docs/SOURCES.md: PyTorch 2.11's torchvision resnet50, channels_last, SGD, random data, bf16 under
 *    autocast; and ddlbench's own first H200 run, before event-timed spans, at batch 32 and 256), with
 *    the ratio to PyTorch and whether the full step is within ±25%. Other batches have no reference. The step is the
 * trainer's (one rank, MPI_COMM_WORLD of a singleton
 *    MPI_Init, ring allreduce of nothing to do): 2 warm-up and 5 timed steps, the median. */
#include "calib_gpu.h"
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

#define STEP_WARMUP GPUCHECK_STEP_WARMUP
#define STEP_REPS GPUCHECK_STEP_REPS

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
    char why[512];
    if (model_create("resnet50", (int)batch, 224, &m, why, sizeof why) || ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx)) {
        fprintf(stderr, "ddlbench gpu-check: %s\n", m ? ddl_last_error() : why);
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
        char eg[300], ef[300];
        double gm, om, gm2, om2, g = gpucheck_step_rate(m, ctx, precs[i], 0, &gm2, &om2, eg, sizeof eg);
        if (g < 0) fprintf(stderr, "ddlbench gpu-check: %s\n", eg);
        double f = gpucheck_step_rate(m, ctx, precs[i], 1, &gm, &om, ef, sizeof ef);
        if (f < 0) fprintf(stderr, "ddlbench gpu-check: %s\n", ef);
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
