/* gemm_sim.c — simulation backend of gemm.h: no arithmetic, no data touched. Each call puts
 * kern_gemm_flops(m, n, k) / (gemm_gflops_fp32 x 1e9) seconds (sim.h, from the device profile) on
 * the rank's compute stream (compute.h): the simulated clock advances when the step fences the
 * stream, so GEMMs overlap with the communication already in flight, as on a GPU. */
#include "compute.h"
#include "gemm.h"
#include "sim.h"

#include <stdio.h>

int kern_gemm_init(void) { return kern_sim_gemm_gflops() > 0 ? KERN_GEMM_OK : KERN_GEMM_EBACKEND; }

int kern_gemm_f32(int transa, int transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc)
{
    (void)alpha;
    (void)beta;
    int rc = kern_gemm_check(transa, transb, m, n, k, A, lda, B, ldb, C, ldc);
    if (rc != KERN_GEMM_OK) return rc;
    if (kern_gemm_init() != KERN_GEMM_OK) return KERN_GEMM_EBACKEND; /* no profile rate set */
    if (!kern_sim_layer_priced()) kern_compute_issue(kern_gemm_flops(m, n, k) / (kern_sim_gemm_gflops() * 1e9));
    return KERN_GEMM_OK;
}

int kern_gemm_ex(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha, const void *A,
                 int lda, const void *B, int ldb, float beta, float *C, int ldc)
{
    if (prec != KERN_PREC_FP32) return KERN_GEMM_EPRECISION; /* fp32 only here (gemm.h) */
    return kern_gemm_f32(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

int kern_gemm_ex_c(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha, const void *A,
                   int lda, const void *B, int ldb, float beta, void *C, int ldc)
{
    return kern_gemm_ex(prec, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, (float *)C, ldc);
}

const char *kern_gemm_backend(void)
{
    static char desc[96];
    snprintf(desc, sizeof desc, "simulated (SMPI): %.6g GFLOP/s injected", kern_sim_gemm_gflops());
    return desc;
}
