/* gemm_blas.c — real CPU backend of gemm.h: cblas_sgemm (OpenBLAS, found with pkg-config).
 * Threads: OpenBLAS's own pool, sized by OPENBLAS_NUM_THREADS (mpilaunch.sh sets 1 per rank).
 * With another CBLAS (no openblas_config.h) the backend string just says "cblas". */
#include "gemm.h"

#include <cblas.h>
#include <stdio.h>

int kern_gemm_init(void) { return KERN_GEMM_OK; }

int kern_gemm_f32(int transa, int transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc)
{
    int rc = kern_gemm_check(transa, transb, m, n, k, A, lda, B, ldb, C, ldc);
    if (rc != KERN_GEMM_OK) return rc;
    if (m == 0 || n == 0) return KERN_GEMM_OK;
    if (k == 0) { /* BLAS leaves this to the library; make beta = 0 clear NaNs, as documented */
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) C[(long)i * ldc + j] = beta == 0.0f ? 0.0f : beta * C[(long)i * ldc + j];
        return KERN_GEMM_OK;
    }
    cblas_sgemm(CblasRowMajor, transa ? CblasTrans : CblasNoTrans, transb ? CblasTrans : CblasNoTrans, m, n,
                k, alpha, A, lda, B, ldb, beta, C, ldc);
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
#ifdef OPENBLAS_CONFIG_H
    static char desc[256];
    snprintf(desc, sizeof desc, "%s (%d threads)", openblas_get_config(), openblas_get_num_threads());
    return desc;
#else
    return "cblas";
#endif
}
