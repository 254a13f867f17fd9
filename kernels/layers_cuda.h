/* layers_cuda.h — internals shared by the CUDA layer kernels (layers_cuda.cu: batch norm, element-wise,
 * bias, SGD and the tables; layers_cuda_window.cu: pooling, im2col/col2im). Not a public header.
 * Activations (x, y, dy, dx, col) are stored as T — float, __nv_bfloat16 or __half — and computed in
 * float32 (elt<T>::ld widens, elt<T>::st rounds to nearest even once); parameters, statistics and
 * their gradients stay float32. */
#ifndef KERN_LAYERS_CUDA_H
#define KERN_LAYERS_CUDA_H

#include "devmem_cuda.h"

extern "C" {
#include "layers.h"
}

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define LC_THREADS 256
#define LC_MAX_BLOCKS 8192

template <class T> struct elt;
template <> struct elt<float> {
    __device__ static float ld(float v) { return v; }
    __device__ static float st(float v) { return v; }
};
template <> struct elt<__nv_bfloat16> {
    __device__ static float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
    __device__ static __nv_bfloat16 st(float v) { return __float2bfloat16_rn(v); }
};
template <> struct elt<__half> {
    __device__ static float ld(__half v) { return __half2float(v); }
    __device__ static __half st(float v) { return __float2half_rn(v); }
};

static inline cudaStream_t lc_stream(void) { return kern_cu_stream(kern_dev_compute_stream()); }

static inline int lc_launched(void)
{
    KERN_CU(cudaGetLastError());
    return KERN_DEV_OK;
}

static inline unsigned lc_blocks(size_t n)
{
    size_t b = (n + LC_THREADS - 1) / LC_THREADS;
    return (unsigned)(b > LC_MAX_BLOCKS ? LC_MAX_BLOCKS : (b ? b : 1));
}

/* Plane-wise kernels run on a 2-D grid: blockIdx.y strides over rows (planes, channels, col rows), x
 * over the elements inside one row, so index arithmetic is 32-bit division (64-bit division is slow on
 * a GPU); a row must hold at most INT_MAX elements. */
static inline int lc_rows_grid(size_t rows, size_t inner, dim3 *grid)
{
    if (inner > 0x7fffffff)
        return kern_cu_failf(KERN_DEV_EARG, "layer kernel: %zu elements in one row (at most 2^31 - 1)", inner);
    size_t bx = (inner + LC_THREADS - 1) / LC_THREADS, by = rows < 65535 ? rows : 65535;
    if (bx > LC_MAX_BLOCKS) bx = LC_MAX_BLOCKS;
    *grid = dim3((unsigned)(bx ? bx : 1), (unsigned)(by ? by : 1));
    return KERN_DEV_OK;
}

#define LC_ROWS(row, rows) for (size_t row = blockIdx.y; row < (rows); row += gridDim.y)
#define LC_INNER(k, n) for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < (n); k += gridDim.x * blockDim.x)

/* layers_cuda_window.cu, instantiated for float, __nv_bfloat16 and __half (pointers hold T). */
template <class T> int lc_maxpool_fwd(const float *x, float *y, int32_t *arg, const kern_window *g);
template <class T> int lc_maxpool_bwd(const float *dy, const int32_t *arg, float *dx, const kern_window *g);
template <class T> int lc_im2col(const float *x, float *col, const kern_window *g);
template <class T> int lc_avgpool_win_fwd(const float *x, float *y, const kern_window *g);
template <class T> int lc_avgpool_win_bwd(const float *dy, float *dx, const kern_window *g);
template <class T> int lc_col2im(const float *col, float *x, const kern_window *g, int accumulate);

#endif
