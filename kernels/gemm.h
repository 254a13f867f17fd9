/* gemm.h — single-precision GEMM: the simulation seam for compute. One backend is linked per build:
 *   gemm_blas.c    real build: CBLAS (OpenBLAS)
 *   gemm_cublas.cu real build with nvcc: cuBLAS (A, B, C are then device pointers from kern_buf_alloc)
 *   gemm_sim.c     simulation build: injects kern_gemm_flops(m,n,k) / rate of simulated time and
 *                  touches no data (contents are meaningless under SMPI_SHARED_MALLOC anyway)
 * kernels/ knows nothing of MPI or models.
 *
 * Layout is ROW-MAJOR (C order), as in cblas_sgemm(CblasRowMajor, ...):
 *   C[m×n] = alpha · op(A)[m×k] · op(B)[k×n] + beta · C
 *   op(A) = A (A stored m×k, lda ≥ max(1,k)) or Aᵀ (A stored k×m, lda ≥ max(1,m)) by transa;
 *   op(B) = B (B stored k×n, ldb ≥ max(1,n)) or Bᵀ (B stored n×k, ldb ≥ max(1,k)) by transb;
 *   ldc ≥ max(1,n).
 * A column-major library (cuBLAS) computes the same thing as Cᵀ = op(B)ᵀ·op(A)ᵀ: swap A↔B, m↔n,
 * transa↔transb and pass the leading dimensions unchanged.
 * m = 0 or n = 0 is a no-op; k = 0 scales C by beta (beta = 0 sets C to 0, ignoring NaNs in C). */
#ifndef KERN_GEMM_H
#define KERN_GEMM_H

#include <stddef.h>
#include <string.h>

enum { KERN_NOTRANS = 0, KERN_TRANS = 1 };

enum {
    KERN_GEMM_OK = 0,
    KERN_GEMM_EARG = 1,     /* negative size, bad transpose flag, leading dimension too small, NULL */
    KERN_GEMM_EBACKEND = 2, /* the backend failed (cuBLAS error, simulation not configured) */
    KERN_GEMM_EPRECISION = 3, /* this backend does not offer that precision (CPU, simulation: fp32 only) */
};

/* Precisions of kern_gemm_ex (always float32 accumulation and a float32 C):
 *   fp32  float32 inputs, float32 arithmetic
 *   tf32  float32 inputs rounded to TF32 by tensor cores (cuBLAS CUBLAS_COMPUTE_32F_FAST_TF32)
 *   bf16  bfloat16 inputs (A, B hold 2-byte elements), float32 accumulation
 *   fp16  IEEE float16 inputs, float32 accumulation
 * The CPU and simulation backends offer fp32 only; the others return KERN_GEMM_EPRECISION. */
typedef enum { KERN_PREC_FP32, KERN_PREC_TF32, KERN_PREC_BF16, KERN_PREC_FP16, KERN_PREC_COUNT } kern_precision;

/* Optional setup outside any timed region (cuBLAS handle, simulated rate); idempotent. The first
 * kern_gemm_f32 call performs it if nobody did. Returns KERN_GEMM_OK or KERN_GEMM_EBACKEND. */
int kern_gemm_init(void);

/* C = alpha·op(A)·op(B) + beta·C, row-major (see above). Returns KERN_GEMM_OK or an error code;
 * on an argument error C is untouched. No backend prints: the CUDA backend leaves the detail of a
 * failure in kern_dev_last_error() (devmem.h) for the caller to report. */
int kern_gemm_f32(int transa, int transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc);

/* As kern_gemm_f32 with A and B in prec's input type (kern_precision_input_size bytes an element). */
int kern_gemm_ex(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha, const void *A,
                 int lda, const void *B, int ldb, float beta, float *C, int ldc);

/* As kern_gemm_ex with C in prec's input type as well: bf16/fp16 give a 2-byte C (float32
 * accumulation, one rounding on store; beta applies to the stored C); fp32 and tf32 a float32 C,
 * exactly as kern_gemm_ex. What the full step uses for activations kept in 2-byte form. The CPU and
 * simulation backends offer fp32 only. k = 0 with a 2-byte C: beta must be 0 (C zeroed). */
int kern_gemm_ex_c(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha, const void *A,
                   int lda, const void *B, int ldb, float beta, void *C, int ldc);

static inline size_t kern_precision_input_size(kern_precision p)
{
    return p == KERN_PREC_BF16 || p == KERN_PREC_FP16 ? 2 : 4;
}

static inline const char *kern_precision_name(kern_precision p)
{
    static const char *const names[KERN_PREC_COUNT] = { "fp32", "tf32", "bf16", "fp16" };
    return (unsigned)p < KERN_PREC_COUNT ? names[p] : "?";
}

/* "fp32" | "tf32" | "bf16" | "fp16" -> *out; 0 or -1 (unknown name). */
static inline int kern_precision_parse(const char *s, kern_precision *out)
{
    for (int i = 0; s && i < KERN_PREC_COUNT; i++)
        if (!strcmp(s, kern_precision_name((kern_precision)i))) {
            *out = (kern_precision)i;
            return 0;
        }
    return -1;
}

/* A one-line description of the backend, e.g. "openblas 0.3.21 ... (8 threads)"; never NULL. */
const char *kern_gemm_backend(void);

/* Message for a status code; never NULL. */
static inline const char *kern_gemm_strerror(int status)
{
    switch (status) {
    case KERN_GEMM_OK: return "ok";
    case KERN_GEMM_EARG:
        return "gemm: bad argument (negative size, transpose flag not 0/1, leading dimension too small or NULL matrix)";
    case KERN_GEMM_EBACKEND: return "gemm: backend failure";
    case KERN_GEMM_EPRECISION:
        return "gemm: precision not offered by this backend (CPU and simulation: fp32 only; tf32/bf16/fp16 need the "
               "CUDA build)";
    default: return "gemm: unknown status";
    }
}

/* Floating-point operations of one GEMM: 2·m·n·k (a multiply and an add per MAC). */
static inline double kern_gemm_flops(long long m, long long n, long long k) { return 2.0 * m * n * k; }

/* The argument check every backend applies first (shared so all backends reject the same calls). */
static inline int kern_gemm_check(int transa, int transb, int m, int n, int k, const void *A, int lda,
                                  const void *B, int ldb, const void *C, int ldc)
{
    int acols = transa ? m : k, bcols = transb ? k : n;
    if ((transa != 0 && transa != 1) || (transb != 0 && transb != 1)) return KERN_GEMM_EARG;
    if (m < 0 || n < 0 || k < 0) return KERN_GEMM_EARG;
    if (lda < (acols > 1 ? acols : 1) || ldb < (bcols > 1 ? bcols : 1) || ldc < (n > 1 ? n : 1))
        return KERN_GEMM_EARG;
    if (m > 0 && n > 0 && (!C || (k > 0 && (!A || !B)))) return KERN_GEMM_EARG;
    return KERN_GEMM_OK;
}

#endif
