/* layers_cuda.cu — the device backend of layers.h (the CUDA build): batch norm, ReLU, residual add,
 * average pooling, FC bias, SGD and the tables (max pooling and im2col/col2im: layers_cuda_window.cu),
 * each for activations stored as float32, bfloat16 or float16 (layers_cuda.h). Every kernel runs on
 * the compute stream (kern_dev_compute_stream, where cuBLAS runs the GEMMs), so the step's work stays
 * in issue order. Element-wise kernels are grid-stride loops, 256 threads a block. Per-channel reductions
 * (batch-norm statistics and their gradient sums, the FC bias gradient) run on a 2-D grid: blockIdx.y
 * is the channel, blockIdx.x a slice of its row; each block reduces its slice in float64 in shared
 * memory and adds it atomically into a per-channel float64 accumulator (a scratch buffer grown on
 * first use, i.e. in the warm-up step); a one-thread-per-channel kernel then derives the coefficients
 * and the element-wise pass applies them. Data movement in float32 agrees with the host bit for bit
 * (tests/test_cuda_compute.c). Compiled by nvcc; not run on a GPU yet. */
#include "layers_cuda.h"

#define THREADS LC_THREADS
#define MAX_BLOCKS LC_MAX_BLOCKS

static double *scratch;     /* 2·C float64 accumulators, then 3·C float coefficients */
static size_t scratch_bytes;

static cudaStream_t cs(void) { return lc_stream(); }
static unsigned blocks_for(size_t n) { return lc_blocks(n); }
static int launched(void) { return lc_launched(); }

/* Slices per channel: enough blocks to fill the GPU, at least one per channel. */
static dim3 row_grid(int c, size_t n)
{
    size_t per = (n + THREADS - 1) / THREADS, cap = MAX_BLOCKS / (size_t)c;
    if (cap < 1) cap = 1;
    return dim3((unsigned)(per < cap ? (per ? per : 1) : cap), (unsigned)c);
}

/* A zeroed scratch of 2·c doubles followed by 3·c floats, on the compute stream. */
static int get_scratch(int c, double **acc, float **coef)
{
    size_t need = (size_t)c * (2 * sizeof(double) + 3 * sizeof(float));
    if (need > scratch_bytes) {
        if (scratch) cudaFree(scratch);
        scratch = NULL, scratch_bytes = 0;
        KERN_CU(cudaMalloc(&scratch, need));
        scratch_bytes = need;
    }
    KERN_CU(cudaMemsetAsync(scratch, 0, (size_t)c * 2 * sizeof(double), cs()));
    *acc = scratch;
    *coef = reinterpret_cast<float *>(scratch + 2 * (size_t)c);
    return KERN_DEV_OK;
}

/* Block sum of two float64 values into acc[2·blockIdx.y], acc[2·blockIdx.y + 1]. */
__device__ void block_add2(double a, double b, double *acc)
{
    __shared__ double sa[THREADS], sb[THREADS];
    sa[threadIdx.x] = a, sb[threadIdx.x] = b;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if ((int)threadIdx.x < s) sa[threadIdx.x] += sa[threadIdx.x + s], sb[threadIdx.x] += sb[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(&acc[2 * blockIdx.y], sa[0]);
        atomicAdd(&acc[2 * blockIdx.y + 1], sb[0]);
    }
}

/* Σ x and Σ x² (mode 0), Σ dy and Σ dy·x (mode 1), or Σ dy (mode 2: x unused) per row. */
template <class T> __global__ void row_sums(const T *x, const T *dy, size_t n, int mode, double *acc)
{
    const T *xr = x ? x + (size_t)blockIdx.y * n : nullptr, *dr = dy ? dy + (size_t)blockIdx.y * n : nullptr;
    double a = 0, b = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (mode == 0) { double v = elt<T>::ld(xr[i]); a += v, b += v * v; }
        else if (mode == 1) { double d = elt<T>::ld(dr[i]); a += d, b += d * elt<T>::ld(xr[i]); }
        else a += elt<T>::ld(dr[i]);
    }
    block_add2(a, b, acc);
}

/* Per row, coefficients (a, b, k) = coef[3·row .. +2]: y = a·(x − k) + b (z NULL: BN forward) or
 * y = a·x + b·z + k (BN backward). */
template <class T> __global__ void row_affine(const T *x, const T *z, T *y, size_t n, const float *coef)
{
    size_t off = (size_t)blockIdx.y * n;
    float a = coef[3 * blockIdx.y], b = coef[3 * blockIdx.y + 1], k = coef[3 * blockIdx.y + 2];
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = elt<T>::ld(x[off + i]);
        y[off + i] = elt<T>::st(z ? a * v + b * elt<T>::ld(z[off + i]) + k : a * (v - k) + b);
    }
}

__global__ void bn_fwd_coef(const double *acc, const float *gamma, const float *beta, float *mean, float *invstd,
                            float *coef, int c, size_t n, float eps)
{
    int ch = blockIdx.x * blockDim.x + threadIdx.x;
    if (ch >= c) return;
    double m = acc[2 * ch] / (double)n, var = acc[2 * ch + 1] / (double)n - m * m;
    float is = (float)(1.0 / sqrt((var > 0 ? var : 0) + eps));
    mean[ch] = (float)m, invstd[ch] = is;
    float a = gamma[ch] * is;
    coef[3 * ch] = a, coef[3 * ch + 1] = beta[ch], coef[3 * ch + 2] = (float)m;
}

template <class T>
static int bn_fwd(const float *xf, float *yf, const float *gamma, const float *beta, float *mean, float *invstd, int c,
                  size_t n, float eps)
{
    const T *x = (const T *)xf;
    T *y = (T *)yf;
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    dim3 grid = row_grid(c, n);
    row_sums<T><<<grid, THREADS, 0, cs()>>>(x, nullptr, n, 0, acc);
    bn_fwd_coef<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, gamma, beta, mean, invstd, coef, c, n, eps);
    row_affine<T><<<grid, THREADS, 0, cs()>>>(x, nullptr, y, n, coef);
    return launched();
}

/* dx = k1·dy + k2·x + k3 (layers.c derives the same three coefficients). */
__global__ void bn_bwd_coef(const double *acc, const float *gamma, const float *mean, const float *invstd,
                            float *dgamma, float *dbeta, float *coef, int c, size_t n)
{
    int ch = blockIdx.x * blockDim.x + threadIdx.x;
    if (ch >= c) return;
    double sd = acc[2 * ch], sdx = acc[2 * ch + 1], is = invstd[ch], m = mean[ch], dg = (sdx - m * sd) * is;
    dgamma[ch] = (float)dg, dbeta[ch] = (float)sd;
    double k1 = gamma[ch] * is, k2 = -k1 * is * dg / (double)n;
    coef[3 * ch] = (float)k1, coef[3 * ch + 1] = (float)k2, coef[3 * ch + 2] = (float)(-k1 * sd / (double)n - k2 * m);
}

template <class T>
static int bn_bwd(const float *xf, const float *dyf, float *dxf, const float *gamma, const float *mean,
                  const float *invstd, float *dgamma, float *dbeta, int c, size_t n)
{
    const T *x = (const T *)xf, *dy = (const T *)dyf;
    T *dx = (T *)dxf;
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    dim3 grid = row_grid(c, n);
    row_sums<T><<<grid, THREADS, 0, cs()>>>(x, dy, n, 1, acc);
    bn_bwd_coef<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, gamma, mean, invstd, dgamma, dbeta, coef, c, n);
    row_affine<T><<<grid, THREADS, 0, cs()>>>(dy, x, dx, n, coef);
    return launched();
}

template <class T> __global__ void relu_fwd_k(T *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (!(elt<T>::ld(y[i]) > 0.0f)) y[i] = elt<T>::st(0.0f);
}
template <class T> __global__ void relu_bwd_k(const T *y, T *dy, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        if (!(elt<T>::ld(y[i]) > 0.0f)) dy[i] = elt<T>::st(0.0f);
}
template <class T> __global__ void add_k(T *y, const T *x, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = elt<T>::st(elt<T>::ld(y[i]) + elt<T>::ld(x[i]));
}
template <class T> static int relu_fwd(float *y, size_t n)
{
    if (n) relu_fwd_k<T><<<blocks_for(n), THREADS, 0, cs()>>>((T *)y, n);
    return launched();
}
template <class T> static int relu_bwd(const float *y, float *dy, size_t n)
{
    if (n) relu_bwd_k<T><<<blocks_for(n), THREADS, 0, cs()>>>((const T *)y, (T *)dy, n);
    return launched();
}
template <class T> static int add(float *y, const float *x, size_t n)
{
    if (n) add_k<T><<<blocks_for(n), THREADS, 0, cs()>>>((T *)y, (const T *)x, n);
    return launched();
}

template <class T> static int copy(float *y, const float *x, size_t n)
{
    if (n) KERN_CU(cudaMemcpyAsync(y, x, n * sizeof(T), cudaMemcpyDeviceToDevice, cs()));
    return KERN_DEV_OK;
}

template <class T> __global__ void avgpool_fwd_k(const T *x, T *y, size_t planes, int hw)
{
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < planes; p += (size_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int i = 0; i < hw; i++) s += elt<T>::ld(x[p * hw + i]);
        y[p] = elt<T>::st(s / (float)hw);
    }
}
template <class T> __global__ void avgpool_bwd_k(const T *dy, T *dx, size_t planes, int hw)
{
    LC_ROWS(p, planes) {
        T v = elt<T>::st(elt<T>::ld(dy[p]) / (float)hw);
        LC_INNER(i, hw) dx[p * hw + i] = v;
    }
}
template <class T> static int avgpool_fwd(const float *x, float *y, size_t planes, int hw)
{
    if (planes && hw > 0) avgpool_fwd_k<T><<<blocks_for(planes), THREADS, 0, cs()>>>((const T *)x, (T *)y, planes, hw);
    return launched();
}
template <class T> static int avgpool_bwd(const float *dy, float *dx, size_t planes, int hw)
{
    dim3 grid;
    if (!planes || hw <= 0) return KERN_DEV_OK;
    if (int rc = lc_rows_grid(planes, (size_t)hw, &grid)) return rc;
    avgpool_bwd_k<T><<<grid, THREADS, 0, cs()>>>((const T *)dy, (T *)dx, planes, hw);
    return launched();
}

/* FC bias: one row (class) per grid row. */
template <class T> __global__ void bias_fwd_k(T *y, const float *b, size_t c, int n)
{
    LC_ROWS(i, c) LC_INNER(j, n) y[i * n + j] = elt<T>::st(elt<T>::ld(y[i * n + j]) + b[i]);
}
__global__ void acc_to_float(const double *acc, float *out, int c)
{
    int ch = blockIdx.x * blockDim.x + threadIdx.x;
    if (ch < c) out[ch] = (float)acc[2 * ch];
}
template <class T> static int bias_fwd(float *y, const float *b, int c, size_t n)
{
    dim3 grid;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = lc_rows_grid((size_t)c, n, &grid)) return rc;
    bias_fwd_k<T><<<grid, THREADS, 0, cs()>>>((T *)y, b, (size_t)c, (int)n);
    return launched();
}
template <class T> static int bias_bwd(const float *dy, float *db, int c, size_t n)
{
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    row_sums<T><<<row_grid(c, n), THREADS, 0, cs()>>>(nullptr, (const T *)dy, n, 2, acc);
    acc_to_float<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, db, c);
    return launched();
}

__global__ void sgd_momentum_k(float *w, float *v, const float *g, float lr, float mu, float wd, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float vi = mu * v[i] + (g[i] + wd * w[i]);
        v[i] = vi;
        w[i] -= lr * vi;
    }
}
static int sgd_momentum(float *w, float *v, const float *g, float lr, float mu, float wd, size_t n)
{
    if (n) sgd_momentum_k<<<blocks_for(n), THREADS, 0, cs()>>>(w, v, g, lr, mu, wd, n);
    return launched();
}

template <class T> static const kern_layer_ops *table(const char *name)
{
    static const kern_layer_ops ops = { name, bn_fwd<T>, bn_bwd<T>, relu_fwd<T>, relu_bwd<T>, add<T>, lc_maxpool_fwd<T>,
                                        lc_maxpool_bwd<T>, avgpool_fwd<T>, avgpool_bwd<T>, bias_fwd<T>, bias_bwd<T>,
                                        lc_im2col<T>, lc_col2im<T>, sgd_momentum, lc_avgpool_win_fwd<T>,
                                        lc_avgpool_win_bwd<T>, copy<T>, NULL }; /* no transformer kernels (xfmr.h) */
    return &ops;
}

extern "C" const kern_layer_ops *kern_layers_device_as(int storage)
{
    if (!kern_dev_compute_stream()) return nullptr;
    switch (storage) {
    case KERN_STORE_F32: return table<float>("cuda");
    case KERN_STORE_BF16: return table<__nv_bfloat16>("cuda bf16");
    case KERN_STORE_F16: return table<__half>("cuda fp16");
    default: return nullptr;
    }
}

extern "C" const kern_layer_ops *kern_layers_device(void) { return kern_layers_device_as(KERN_STORE_F32); }
