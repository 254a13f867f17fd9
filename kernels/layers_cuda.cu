/* layers_cuda.cu — the device backend of layers.h (the CUDA build): every kernel on the compute
 * stream (kern_dev_compute_stream, where cuBLAS runs the GEMMs), so the step's work stays in issue
 * order. Element-wise kernels are grid-stride loops, 256 threads a block. Per-channel reductions
 * (batch-norm statistics and their gradient sums, the FC bias gradient) run on a 2-D grid: blockIdx.y
 * is the channel, blockIdx.x a slice of its row; each block reduces its slice in float64 in shared
 * memory and adds it atomically into a per-channel float64 accumulator (a scratch buffer grown on
 * first use, i.e. in the warm-up step); a one-thread-per-channel kernel then derives the coefficients
 * and the element-wise pass applies them. Pooling and col2im gather: one thread per output element
 * sums its terms in the same order as the host loops (layers.c, im2col.c), so the data-movement
 * kernels agree with the host bit for bit (tests/test_cuda_compute.c). Not measured on a GPU yet. */
#include "devmem_cuda.h"

extern "C" {
#include "layers.h"
}

#define THREADS 256
#define MAX_BLOCKS 8192

static double *scratch;     /* 2·C float64 accumulators, then 3·C float coefficients */
static size_t scratch_bytes;

static cudaStream_t cs(void) { return kern_cu_stream(kern_dev_compute_stream()); }

static unsigned blocks_for(size_t n)
{
    size_t b = (n + THREADS - 1) / THREADS;
    return (unsigned)(b > MAX_BLOCKS ? MAX_BLOCKS : (b ? b : 1));
}

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

static int launched(void)
{
    KERN_CU(cudaGetLastError());
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
__global__ void row_sums(const float *x, const float *dy, size_t n, int mode, double *acc)
{
    const float *xr = x ? x + (size_t)blockIdx.y * n : nullptr, *dr = dy ? dy + (size_t)blockIdx.y * n : nullptr;
    double a = 0, b = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        if (mode == 0) { double v = xr[i]; a += v, b += v * v; }
        else if (mode == 1) { double d = dr[i]; a += d, b += d * xr[i]; }
        else a += dr[i];
    }
    block_add2(a, b, acc);
}

/* Per row, coefficients (a, b, k) = coef[3·row .. +2]: y = a·(x − k) + b (z NULL: BN forward) or
 * y = a·x + b·z + k (BN backward). */
__global__ void row_affine(const float *x, const float *z, float *y, size_t n, const float *coef)
{
    size_t off = (size_t)blockIdx.y * n;
    float a = coef[3 * blockIdx.y], b = coef[3 * blockIdx.y + 1], k = coef[3 * blockIdx.y + 2];
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[off + i] = z ? a * x[off + i] + b * z[off + i] + k : a * (x[off + i] - k) + b;
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

static int bn_fwd(const float *x, float *y, const float *gamma, const float *beta, float *mean, float *invstd, int c,
                  size_t n, float eps)
{
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    dim3 grid = row_grid(c, n);
    row_sums<<<grid, THREADS, 0, cs()>>>(x, nullptr, n, 0, acc);
    bn_fwd_coef<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, gamma, beta, mean, invstd, coef, c, n, eps);
    row_affine<<<grid, THREADS, 0, cs()>>>(x, nullptr, y, n, coef);
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

static int bn_bwd(const float *x, const float *dy, float *dx, const float *gamma, const float *mean,
                  const float *invstd, float *dgamma, float *dbeta, int c, size_t n)
{
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    dim3 grid = row_grid(c, n);
    row_sums<<<grid, THREADS, 0, cs()>>>(x, dy, n, 1, acc);
    bn_bwd_coef<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, gamma, mean, invstd, dgamma, dbeta, coef, c, n);
    row_affine<<<grid, THREADS, 0, cs()>>>(dy, x, dx, n, coef);
    return launched();
}

__global__ void relu_fwd_k(float *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = y[i] > 0.0f ? y[i] : 0.0f;
}
__global__ void relu_bwd_k(const float *y, float *dy, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        dy[i] = y[i] > 0.0f ? dy[i] : 0.0f;
}
__global__ void add_k(float *y, const float *x, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] += x[i];
}
static int relu_fwd(float *y, size_t n) { if (n) relu_fwd_k<<<blocks_for(n), THREADS, 0, cs()>>>(y, n); return launched(); }
static int relu_bwd(const float *y, float *dy, size_t n) { if (n) relu_bwd_k<<<blocks_for(n), THREADS, 0, cs()>>>(y, dy, n); return launched(); }
static int add(float *y, const float *x, size_t n) { if (n) add_k<<<blocks_for(n), THREADS, 0, cs()>>>(y, x, n); return launched(); }

/* Plane-wise kernels run on a 2-D grid: blockIdx.y strides over rows (planes, channels, col rows),
 * x over the elements inside one row, so index arithmetic is 32-bit division (64-bit division is
 * slow on a GPU) and a row never exceeds INT_MAX elements (checked by rows_grid). */
static int rows_grid(size_t rows, size_t inner, dim3 *grid)
{
    if (inner > 0x7fffffff) return kern_cu_failf(KERN_DEV_EARG, "layer kernel: %zu elements in one row (at most 2^31 - 1)", inner);
    size_t bx = (inner + THREADS - 1) / THREADS, by = rows < 65535 ? rows : 65535;
    if (bx > MAX_BLOCKS) bx = MAX_BLOCKS;
    *grid = dim3((unsigned)(bx ? bx : 1), (unsigned)(by ? by : 1));
    return KERN_DEV_OK;
}

#define ROWS(row, rows) for (size_t row = blockIdx.y; row < (rows); row += gridDim.y)
#define INNER(k, n) for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < (n); k += gridDim.x * blockDim.x)

__global__ void maxpool_fwd_k(const float *x, float *y, int32_t *arg, kern_window g, size_t planes)
{
    int out = g.oh * g.ow;
    ROWS(p, planes) {
        const float *xp = x + p * g.h * g.w;
        INNER(o, out) {
            int oh = o / g.ow, ow = o - oh * g.ow;
            float best = -INFINITY;
            int32_t at = -1;
            for (int i = 0; i < g.kh; i++) {
                int ih = oh * g.stride - g.pad + i;
                for (int j = 0; ih >= 0 && ih < g.h && j < g.kw; j++) {
                    int iw = ow * g.stride - g.pad + j;
                    if (iw < 0 || iw >= g.w) continue;
                    float v = xp[ih * g.w + iw];
                    if (at < 0 || v > best) best = v, at = ih * g.w + iw;
                }
            }
            y[p * out + o] = best, arg[p * out + o] = at;
        }
    }
}

__device__ void covering(int i, int k, int s, int p, int n_out, int *lo, int *hi)
{
    int t = i + p - k + 1;
    *lo = t <= 0 ? 0 : (t + s - 1) / s;
    *hi = (i + p) / s;
    if (*hi > n_out - 1) *hi = n_out - 1;
}

__global__ void maxpool_bwd_k(const float *dy, const int32_t *arg, float *dx, kern_window g, size_t planes)
{
    int in = g.h * g.w, out = g.oh * g.ow;
    ROWS(p, planes) {
        INNER(e, in) {
            int ih = e / g.w, iw = e - ih * g.w, olo, ohi, wlo, whi;
            covering(ih, g.kh, g.stride, g.pad, g.oh, &olo, &ohi);
            covering(iw, g.kw, g.stride, g.pad, g.ow, &wlo, &whi);
            float s = 0.0f;
            for (int oh = olo; oh <= ohi; oh++)
                for (int ow = wlo; ow <= whi; ow++)
                    if (arg[p * out + oh * g.ow + ow] == e) s += dy[p * out + oh * g.ow + ow];
            dx[p * in + e] = s;
        }
    }
}

static int maxpool_fwd(const float *x, float *y, int32_t *arg, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = rows_grid(planes, (size_t)g->oh * g->ow, &grid)) return rc;
    maxpool_fwd_k<<<grid, THREADS, 0, cs()>>>(x, y, arg, *g, planes);
    return launched();
}

static int maxpool_bwd(const float *dy, const int32_t *arg, float *dx, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = rows_grid(planes, (size_t)g->h * g->w, &grid)) return rc;
    maxpool_bwd_k<<<grid, THREADS, 0, cs()>>>(dy, arg, dx, *g, planes);
    return launched();
}

__global__ void avgpool_fwd_k(const float *x, float *y, size_t planes, int hw)
{
    for (size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x; p < planes; p += (size_t)gridDim.x * blockDim.x) {
        float s = 0.0f;
        for (int i = 0; i < hw; i++) s += x[p * hw + i];
        y[p] = s / (float)hw;
    }
}
__global__ void avgpool_bwd_k(const float *dy, float *dx, size_t total, int hw)
{
    for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (size_t)gridDim.x * blockDim.x)
        dx[e] = dy[e / hw] / (float)hw;
}
static int avgpool_fwd(const float *x, float *y, size_t planes, int hw)
{
    if (planes && hw > 0) avgpool_fwd_k<<<blocks_for(planes), THREADS, 0, cs()>>>(x, y, planes, hw);
    return launched();
}
static int avgpool_bwd(const float *dy, float *dx, size_t planes, int hw)
{
    if (planes && hw > 0) avgpool_bwd_k<<<blocks_for(planes * hw), THREADS, 0, cs()>>>(dy, dx, planes * hw, hw);
    return launched();
}

__global__ void bias_fwd_k(float *y, const float *b, size_t n, size_t total)
{
    for (size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (size_t)gridDim.x * blockDim.x)
        y[e] += b[e / n];
}
__global__ void acc_to_float(const double *acc, float *out, int c)
{
    int ch = blockIdx.x * blockDim.x + threadIdx.x;
    if (ch < c) out[ch] = (float)acc[2 * ch];
}
static int bias_fwd(float *y, const float *b, int c, size_t n)
{
    if (c && n) bias_fwd_k<<<blocks_for((size_t)c * n), THREADS, 0, cs()>>>(y, b, n, (size_t)c * n);
    return launched();
}
static int bias_bwd(const float *dy, float *db, int c, size_t n)
{
    double *acc;
    float *coef;
    if (!c || !n) return KERN_DEV_OK;
    if (int rc = get_scratch(c, &acc, &coef)) return rc;
    row_sums<<<row_grid(c, n), THREADS, 0, cs()>>>(nullptr, dy, n, 2, acc);
    acc_to_float<<<(c + THREADS - 1) / THREADS, THREADS, 0, cs()>>>(acc, db, c);
    return launched();
}

/* im2col: one col row r = (c, i, j) per grid row, one thread per column q = (b, oh, ow): coalesced
 * writes, and reads along iw for stride 1. */
__global__ void im2col_k(const float *x, float *col, kern_window g, int ncol, size_t rows)
{
    ROWS(r, rows) {
        int j = (int)(r % g.kw), i = (int)(r / g.kw % g.kh), c = (int)(r / g.kw / g.kh);
        const float *xc = x + (size_t)c * g.b * g.h * g.w;
        INNER(q, ncol) {
            int t = q / g.ow, ow = q - t * g.ow, b = t / g.oh, oh = t - b * g.oh;
            int ih = oh * g.stride - g.pad + i, iw = ow * g.stride - g.pad + j;
            col[r * ncol + q] = ih >= 0 && ih < g.h && iw >= 0 && iw < g.w ? xc[((size_t)b * g.h + ih) * g.w + iw] : 0.0f;
        }
    }
}

/* col2im: one channel per grid row, one thread per input element (b, ih, iw): its col terms in
 * (i, j) order, onto zero or onto x. */
__global__ void col2im_k(const float *col, float *x, kern_window g, int ncol, int per_channel, int accumulate)
{
    ROWS(c, (size_t)g.c) {
        float *xc = x + c * per_channel;
        INNER(e, per_channel) {
            int t = e / g.w, iw = e - t * g.w, b = t / g.h, ih = t - b * g.h;
            float s = accumulate ? xc[e] : 0.0f;
            for (int i = 0; i < g.kh; i++) {
                int th = ih + g.pad - i;
                if (th < 0 || th % g.stride || th / g.stride >= g.oh) continue;
                for (int j = 0; j < g.kw; j++) {
                    int tw = iw + g.pad - j;
                    if (tw < 0 || tw % g.stride || tw / g.stride >= g.ow) continue;
                    size_t r = (c * g.kh + i) * g.kw + j;
                    s += col[r * ncol + (b * g.oh + th / g.stride) * g.ow + tw / g.stride];
                }
            }
            xc[e] = s;
        }
    }
}

static int im2col(const float *x, float *col, const kern_window *g)
{
    size_t rows = (size_t)g->c * g->kh * g->kw, ncol = (size_t)g->b * g->oh * g->ow;
    dim3 grid;
    if (int rc = rows_grid(rows, ncol, &grid)) return rc;
    im2col_k<<<grid, THREADS, 0, cs()>>>(x, col, *g, (int)ncol, rows);
    return launched();
}

static int col2im(const float *col, float *x, const kern_window *g, int accumulate)
{
    size_t per = (size_t)g->b * g->h * g->w, ncol = (size_t)g->b * g->oh * g->ow;
    dim3 grid;
    if (int rc = rows_grid((size_t)g->c, per > ncol ? per : ncol, &grid)) return rc;
    col2im_k<<<grid, THREADS, 0, cs()>>>(col, x, *g, (int)ncol, (int)per, accumulate);
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

static const kern_layer_ops ops = { "cuda", bn_fwd, bn_bwd, relu_fwd, relu_bwd, add, maxpool_fwd, maxpool_bwd,
                                    avgpool_fwd, avgpool_bwd, bias_fwd, bias_bwd, im2col, col2im, sgd_momentum };

extern "C" const kern_layer_ops *kern_layers_device(void) { return kern_dev_compute_stream() ? &ops : nullptr; }
