/* cli_gpucheck_contend.c — part 6 of `ddlbench gpu-check` (cli_gpucheck.c): the table of compute beside
 * communication on one GPU; the measurement (kinds, rounds, what contention means) is
 * harness/calib/calib_contend.c. */
#include "calib_gpu.h"
#include "cli.h"
#include "devmem.h"
#include "model.h"

#include <stdio.h>

int gpucheck_contention(const model_gemm *g, void *A, void *B, float *C)
{
    static const kern_precision precs[] = { KERN_PREC_TF32, KERN_PREC_BF16 };
    static const struct { const char *name; int copy; unsigned blocks; } kinds[] = {
        { "reduce", 0, 0 }, { "red/32", 0, 32 }, { "copy", 1, 0 } };
    gpucheck_contend *c = NULL;
    int rc = gpucheck_contend_open(&c, g, A, B, C);
    if (!rc)
        printf("# 6. compute beside communication on this GPU (two streams; median of %d rounds):\n"
               "#    GEMM m=%d n=%d k=%d batches beside the reduction kernel (float32 sum, 64 MiB: reduce on every SM\n"
               "#    it can take, red/32 on 32 blocks as NCCL's channels) or pinned D2H + H2D copies of 64 MiB (copy\n"
               "#    engines), and the mirror; contention = beside / alone - 1\n"
               "# %-6s %-5s %9s %9s %16s %16s\n", GPUCHECK_CONTEND_ROUNDS, g->m, g->n, g->k, "comm", "prec", "gemm_ms",
               "comm_ms", "compute_slowed%", "comm_slowed%");
    for (size_t k = 0; !rc && k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t p = 0; !rc && p < sizeof precs / sizeof precs[0]; p++) {
            double pg = 0, pc = 0, mg = 0, mc = 0;
            if (!(rc = gpucheck_contend_measure(c, kinds[k].copy, kinds[k].blocks, precs[p], &pg, &pc, &mg, &mc)))
                printf("  %-6s %-5s %9.4f %9.4f %16.1f %16.1f\n", kinds[k].name, kern_precision_name(precs[p]), mg, mc,
                       pg, pc);
        }
    gpucheck_contend_close(c);
    return rc;
}
