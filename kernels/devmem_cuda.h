/* devmem_cuda.h — internals shared by the CUDA backend files (devmem_cuda.cu, reduce_cuda.cu,
 * gemm_cublas.cu, compute_cuda.cu): the handle casts and the error recorder. Not a public header. */
#ifndef KERN_DEVMEM_CUDA_H
#define KERN_DEVMEM_CUDA_H

#include "devmem.h"

#include <cuda_runtime.h>

static inline cudaStream_t kern_cu_stream(kern_stream *s) { return reinterpret_cast<cudaStream_t>(s); }
static inline cudaEvent_t kern_cu_event(kern_event *e) { return reinterpret_cast<cudaEvent_t>(e); }

/* Record "what: cudaErrorName: description" as the thread's last error; returns KERN_DEV_ECUDA. */
int kern_cu_fail(cudaError_t err, const char *what);
/* Record a free-form message; returns code. */
int kern_cu_failf(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define KERN_CU(call)                                        \
    do {                                                     \
        cudaError_t kern_cu_rc_ = (call);                    \
        if (kern_cu_rc_ != cudaSuccess) return kern_cu_fail(kern_cu_rc_, #call); \
    } while (0)

#endif
