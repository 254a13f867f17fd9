/* gemm_cublas.cu — the CUDA build's backend of gemm.h: cublasGemmEx on device pointers, on one
 * compute stream (kern_dev_compute_stream) that compute_cuda.cu fences.
 * Row-major to cuBLAS's column-major (gemm.h): C_rm = op(A)·op(B) is, read column-major,
 * Cᵀ = op(B)ᵀ·op(A)ᵀ, so B goes first, m and n swap, transa and transb swap, and the leading
 * dimensions pass unchanged. Precisions: fp32 (CUBLAS_COMPUTE_32F, default math: no TF32),
 * tf32 (CUBLAS_COMPUTE_32F_FAST_TF32), bf16/fp16 inputs with CUBLAS_COMPUTE_32F (float32
 * accumulation, tensor cores); C is float32 (kern_gemm_ex) or, for bf16/fp16, may be of the input type
 * (kern_gemm_ex_c: cuBLAS rounds the float32 accumulator once on store). Host pointers are refused with
 * KERN_GEMM_EARG (cudaPointerGetAttributes) instead of faulting on the device. Nothing here prints:
 * a failure returns its KERN_GEMM_* code with the detail in kern_dev_last_error() (devmem_cuda.cu's
 * recorder, kern_cu_fail/kern_cu_failf), for the caller to report. */
#include "devmem_cuda.h"

extern "C" {
#include "gemm.h"
}

#include <cublas_v2.h>
#include <cstdio>

static cublasHandle_t handle;
static cudaStream_t stream;
static int ready;
static char desc[256] = "cuBLAS (not initialised)";

static int cublas_fail(cublasStatus_t st, const char *what)
{
    kern_cu_failf(KERN_DEV_ECUDA, "%s: %s", what, cublasGetStatusString(st));
    return KERN_GEMM_EBACKEND;
}

extern "C" int kern_gemm_init(void)
{
    cublasStatus_t st;
    int version = 0;
    if (ready) return KERN_GEMM_OK;
    if (kern_dev_count(NULL) != KERN_DEV_OK) return KERN_GEMM_EBACKEND; /* it recorded why */
    cudaError_t err = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
        kern_cu_fail(err, "cudaStreamCreateWithFlags");
        return KERN_GEMM_EBACKEND;
    }
    if ((st = cublasCreate(&handle)) != CUBLAS_STATUS_SUCCESS) return cublas_fail(st, "cublasCreate");
    if ((st = cublasSetStream(handle, stream)) != CUBLAS_STATUS_SUCCESS) return cublas_fail(st, "cublasSetStream");
    if ((st = cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)) != CUBLAS_STATUS_SUCCESS)
        return cublas_fail(st, "cublasSetMathMode");
    cublasGetVersion(handle, &version);
    snprintf(desc, sizeof desc, "cuBLAS %d on %s", version, kern_dev_name());
    ready = 1;
    return KERN_GEMM_OK;
}

extern "C" kern_stream *kern_dev_compute_stream(void)
{
    return kern_gemm_init() == KERN_GEMM_OK ? reinterpret_cast<kern_stream *>(stream) : nullptr;
}

static int on_device(const void *p)
{
    cudaPointerAttributes a;
    if (!p) return 1; /* NULL with a zero extent was accepted by kern_gemm_check */
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* clear the sticky-free error of an unknown pointer */
        return 0;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* k = 0: C = beta·C (beta = 0 writes zeros, ignoring NaNs), as gemm.h says. */
static int scale_c(int m, int n, float beta, float *C, int ldc)
{
    cublasStatus_t st;
    const float zero = 0.0f;
    if (beta == 0.0f) {
        cudaError_t err =
            cudaMemset2DAsync(C, (size_t)ldc * sizeof(float), 0, (size_t)n * sizeof(float), (size_t)m, stream);
        if (err != cudaSuccess) {
            kern_cu_fail(err, "cudaMemset2DAsync");
            return KERN_GEMM_EBACKEND;
        }
        return KERN_GEMM_OK;
    }
    st = cublasSgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, &beta, C, ldc, &zero, C, ldc, C, ldc);
    return st == CUBLAS_STATUS_SUCCESS ? KERN_GEMM_OK : cublas_fail(st, "cublasSgeam");
}

/* C = alpha·op(A)·op(B) + beta·C with C of type ctype (float32, or the 2-byte input type). */
static int gemm_typed(kern_precision prec, int c16, int transa, int transb, int m, int n, int k, float alpha,
                      const void *A, int lda, const void *B, int ldb, float beta, void *C, int ldc)
{
    cudaDataType_t in;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    int rc = kern_gemm_check(transa, transb, m, n, k, A, lda, B, ldb, C, ldc);
    if (rc != KERN_GEMM_OK) return rc;
    switch (prec) {
    case KERN_PREC_FP32: in = CUDA_R_32F; break;
    case KERN_PREC_TF32: in = CUDA_R_32F; compute = CUBLAS_COMPUTE_32F_FAST_TF32; break;
    case KERN_PREC_BF16: in = CUDA_R_16BF; break;
    case KERN_PREC_FP16: in = CUDA_R_16F; break;
    default: return KERN_GEMM_EPRECISION;
    }
    cudaDataType_t ct = c16 && (prec == KERN_PREC_BF16 || prec == KERN_PREC_FP16) ? in : CUDA_R_32F;
    if ((rc = kern_gemm_init()) != KERN_GEMM_OK) return rc;
    if (m == 0 || n == 0) return KERN_GEMM_OK;
    if (!on_device(C) || (k > 0 && (!on_device(A) || !on_device(B)))) {
        kern_cu_failf(KERN_DEV_EARG,
                      "gemm_cublas: A, B and C must be device memory (kern_dev_alloc) in the CUDA build");
        return KERN_GEMM_EARG;
    }
    if (k == 0 && ct != CUDA_R_32F) { /* a 2-byte C: zeroing is all gemm.h promises */
        if (beta != 0.0f) return KERN_GEMM_EARG;
        cudaError_t err = cudaMemset2DAsync(C, (size_t)ldc * 2, 0, (size_t)n * 2, (size_t)m, stream);
        return err == cudaSuccess ? KERN_GEMM_OK : KERN_GEMM_EBACKEND;
    }
    if (k == 0) return scale_c(m, n, beta, (float *)C, ldc);
    cublasStatus_t st = cublasGemmEx(handle, transb ? CUBLAS_OP_T : CUBLAS_OP_N, transa ? CUBLAS_OP_T : CUBLAS_OP_N,
                                     n, m, k, &alpha, B, in, ldb, A, in, lda, &beta, C, ct, ldc, compute,
                                     CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? KERN_GEMM_OK : cublas_fail(st, "cublasGemmEx");
}

extern "C" int kern_gemm_ex(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha,
                            const void *A, int lda, const void *B, int ldb, float beta, float *C, int ldc)
{
    return gemm_typed(prec, 0, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" int kern_gemm_ex_c(kern_precision prec, int transa, int transb, int m, int n, int k, float alpha,
                              const void *A, int lda, const void *B, int ldb, float beta, void *C, int ldc)
{
    return gemm_typed(prec, 1, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" int kern_gemm_f32(int transa, int transb, int m, int n, int k, float alpha, const float *A, int lda,
                             const float *B, int ldb, float beta, float *C, int ldc)
{
    return kern_gemm_ex(KERN_PREC_FP32, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" const char *kern_gemm_backend(void)
{
    kern_gemm_init();
    return desc;
}
