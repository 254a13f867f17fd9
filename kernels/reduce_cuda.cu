/* reduce_cuda.cu — device kernels of devmem.h: the element-wise reduction every allreduce algorithm
 * runs where the data is (kern_reduce_device, same semantics as kernels/reduce.c: float16/bfloat16
 * widened to float32 and rounded to nearest-even once; max/min as (x > y ? x : y)), the SGD update and
 * the synthetic fill. Grid-stride loops over size_t indexes, 256 threads a block; launches are
 * asynchronous on the given stream and checked with cudaGetLastError. */
#include "devmem_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#define THREADS 256
#define MAX_BLOCKS 8192 /* enough to fill any current GPU; the loop strides beyond */

struct op_sum { template <class T> __device__ static T f(T x, T y) { return x + y; } };
struct op_max { template <class T> __device__ static T f(T x, T y) { return x > y ? x : y; } };
struct op_min { template <class T> __device__ static T f(T x, T y) { return x < y ? x : y; } };

/* Element access: plain types load as themselves; 16-bit floats widen to float and round back. */
template <class T> struct elem {
    typedef T calc;
    __device__ static calc load(const T *p, size_t i) { return p[i]; }
    __device__ static void store(T *p, size_t i, calc v) { p[i] = v; }
};
template <> struct elem<__half> {
    typedef float calc;
    __device__ static float load(const __half *p, size_t i) { return __half2float(p[i]); }
    __device__ static void store(__half *p, size_t i, float v) { p[i] = __float2half_rn(v); }
};
template <> struct elem<__nv_bfloat16> {
    typedef float calc;
    __device__ static float load(const __nv_bfloat16 *p, size_t i) { return __bfloat162float(p[i]); }
    __device__ static void store(__nv_bfloat16 *p, size_t i, float v) { p[i] = __float2bfloat16_rn(v); }
};

/* Unsigned wrap-around for int32 sums, as two's complement hardware (and the CPU loop) does. */
struct op_sum_i32 {
    __device__ static int32_t f(int32_t x, int32_t y) { return (int32_t)((uint32_t)x + (uint32_t)y); }
};

template <class T, class OP>
__global__ void reduce_kernel(T *out, const T *a, const T *b, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        elem<T>::store(out, i, OP::f(elem<T>::load(a, i), elem<T>::load(b, i)));
}

static unsigned blocks_for(size_t n)
{
    size_t b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b > MAX_BLOCKS ? MAX_BLOCKS : (b ? b : 1));
}

static unsigned reduce_cap; /* kern_reduce_device_cap: at most this many blocks (0: blocks_for's) */

extern "C" int kern_reduce_device_cap(unsigned blocks)
{
    reduce_cap = blocks;
    return KERN_DEV_OK;
}

template <class T, class OP>
static int launch(void *out, const void *a, const void *b, size_t n, cudaStream_t s)
{
    unsigned g = blocks_for(n);
    if (reduce_cap && g > reduce_cap) g = reduce_cap;
    reduce_kernel<T, OP><<<g, THREADS, 0, s>>>((T *)out, (const T *)a, (const T *)b, n);
    KERN_CU(cudaGetLastError());
    return KERN_DEV_OK;
}

template <class T> static int launch_op(kern_op op, void *out, const void *a, const void *b, size_t n, cudaStream_t s)
{
    switch (op) {
    case KERN_SUM: return launch<T, op_sum>(out, a, b, n, s);
    case KERN_MAX: return launch<T, op_max>(out, a, b, n, s);
    case KERN_MIN: return launch<T, op_min>(out, a, b, n, s);
    default: return kern_cu_failf(KERN_DEV_EARG, "kern_reduce_device: unknown op %d", (int)op);
    }
}

extern "C" int kern_reduce_device(kern_dtype dt, kern_op op, void *out, const void *a, const void *b, size_t n,
                                  kern_stream *s)
{
    cudaStream_t cs = kern_cu_stream(s);
    if (n == 0) return KERN_DEV_OK;
    if (!out || !a || !b) return kern_cu_failf(KERN_DEV_EARG, "kern_reduce_device: NULL buffer with n = %zu", n);
    switch (dt) {
    case KERN_F32: return launch_op<float>(op, out, a, b, n, cs);
    case KERN_F64: return launch_op<double>(op, out, a, b, n, cs);
    case KERN_F16: return launch_op<__half>(op, out, a, b, n, cs);
    case KERN_BF16: return launch_op<__nv_bfloat16>(op, out, a, b, n, cs);
    case KERN_I32:
        return op == KERN_SUM ? launch<int32_t, op_sum_i32>(out, a, b, n, cs)
                              : launch_op<int32_t>(op, out, a, b, n, cs);
    default: return kern_cu_failf(KERN_DEV_EARG, "kern_reduce_device: unknown dtype %d", (int)dt);
    }
}

__global__ void sgd_kernel(float *w, const float *g, float lr, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) w[i] -= lr * g[i];
}

extern "C" int kern_sgd_device(float *w, const float *g, float lr, size_t n, kern_stream *s)
{
    if (n == 0) return KERN_DEV_OK;
    if (!w || !g) return kern_cu_failf(KERN_DEV_EARG, "kern_sgd_device: NULL buffer with n = %zu", n);
    sgd_kernel<<<blocks_for(n), THREADS, 0, kern_cu_stream(s)>>>(w, g, lr, n);
    KERN_CU(cudaGetLastError());
    return KERN_DEV_OK;
}

__global__ void fill_kernel(float *p, size_t n, float scale)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = scale * (float)((int)(i % 13) - 6);
}

extern "C" int kern_fill_device(float *p, size_t n, float scale, kern_stream *s)
{
    if (n == 0) return KERN_DEV_OK;
    if (!p) return kern_cu_failf(KERN_DEV_EARG, "kern_fill_device: NULL buffer with n = %zu", n);
    fill_kernel<<<blocks_for(n), THREADS, 0, kern_cu_stream(s)>>>(p, n, scale);
    KERN_CU(cudaGetLastError());
    return KERN_DEV_OK;
}
