/* layers.h — the memory-bound work of a training step, besides its GEMMs: batch norm (forward with
 * batch statistics, backward), ReLU, residual add, max pooling, global average pooling, the FC
 * bias, im2col/col2im for the GEMM formulation of convolutions, windowed average pooling and a
 * copy (Inception's pools and concats), and SGD with momentum and weight decay. float32 throughout. Three backends
 * behind one table (kern_layer_ops):
 *   layers.c       host, real: restrict-qualified loops GCC vectorises (the CPU and CUDA builds)
 *   layers_sim.c   host, simulated: no data touched; kern_layer_bytes(...) x the profile's per-byte
 *                  cost is issued on the compute clock (compute.h)
 *   layers_cuda.cu device, real: kernels on the compute stream (kern_dev_compute_stream), in order
 *                  with the GEMMs; layers_nodev.c says "none" in builds without CUDA
 *
 * Layout: an activation of C channels, B images of H×W is stored channel-major, C × (B·H·W)
 * ("CNHW"): row c holds channel c of every image, image b's plane at offset b·H·W. That is the
 * row-major M×N output of a convolution's GEMM (model.h: M = channels, N = batch·H·W), so a conv's
 * output is read by the next layer as is, and batch norm works on contiguous rows.
 *
 * Every entry returns 0, or non-zero for bad arguments or a failed device call (device: the message
 * in kern_dev_last_error()). n = 0 (or c = 0) does nothing. */
#ifndef KERN_LAYERS_H
#define KERN_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A window over a CNHW activation: input c × b × h × w, kernel kh × kw, stride, padding of the rows
 * (pad) and of the columns (pad_w), and the output size oh = floor((h + 2·pad − kh)/stride) + 1,
 * ow = floor((w + 2·pad_w − kw)/stride) + 1 (kern_window_make fills them). */
typedef struct kern_window {
    int c, b, h, w;         /* input channels, images, height, width */
    int kh, kw, stride, pad;
    int oh, ow;             /* output height, width */
    int pad_w;              /* padding of the columns (= pad for a square window) */
} kern_window;

/* A kh × kw window (Inception's 1×7 and 7×1) with row and column padding ph, pw; 0, or -1 when a
 * size is < 1, a padding < 0 or the window does not fit. */
static inline int kern_window_make2(kern_window *g, int c, int b, int h, int w, int kh, int kw, int stride, int ph,
                                    int pw)
{
    if (c < 1 || b < 1 || h < 1 || w < 1 || kh < 1 || kw < 1 || stride < 1 || ph < 0 || pw < 0 || h + 2 * ph < kh ||
        w + 2 * pw < kw)
        return -1;
    g->c = c, g->b = b, g->h = h, g->w = w, g->kh = kh, g->kw = kw, g->stride = stride, g->pad = ph, g->pad_w = pw;
    g->oh = (h + 2 * ph - kh) / stride + 1, g->ow = (w + 2 * pw - kw) / stride + 1;
    return 0;
}

/* The square window: k × k, padding pad on every side. */
static inline int kern_window_make(kern_window *g, int c, int b, int h, int w, int k, int stride, int pad)
{
    return kern_window_make2(g, c, b, h, w, k, k, stride, pad, pad);
}

typedef struct kern_layer_ops {
    const char *name; /* "host", "simulated", "cuda" */
    /* Batch norm over each row of x (c rows of n): mean and biased variance of the row, then
     * y = γ·(x − mean)·invstd + β with invstd = 1/sqrt(var + eps); saves mean and invstd. */
    int (*bn_fwd)(const float *x, float *y, const float *gamma, const float *beta, float *mean, float *invstd,
                  int c, size_t n, float eps);
    /* Its gradient: dβ = Σ dy, dγ = Σ dy·x̂, dx = γ·invstd·(dy − dβ/n − x̂·dγ/n), x̂ = (x −
     * mean)·invstd. */
    int (*bn_bwd)(const float *x, const float *dy, float *dx, const float *gamma, const float *mean,
                  const float *invstd, float *dgamma, float *dbeta, int c, size_t n);
    int (*relu_fwd)(float *y, size_t n);                     /* y = max(y, 0), in place */
    int (*relu_bwd)(const float *y, float *dy, size_t n);    /* dy = y > 0 ? dy : 0 (y: the ReLU output) */
    int (*add)(float *y, const float *x, size_t n);          /* y += x (residual add) */
    /* Max pooling: y (c × b × oh × ow) and, per output, the input index ih·w + iw of its maximum
     * within its plane (the first in row-major window order on ties). Padding never wins. */
    int (*maxpool_fwd)(const float *x, float *y, int32_t *arg, const kern_window *g);
    /* dx (every input element) = the sum of dy over the outputs whose maximum it was. */
    int (*maxpool_bwd)(const float *dy, const int32_t *arg, float *dx, const kern_window *g);
    /* Global average pooling: planes of hw elements (planes = c·b) -> one value each, and back. */
    int (*avgpool_fwd)(const float *x, float *y, size_t planes, int hw);
    int (*avgpool_bwd)(const float *dy, float *dx, size_t planes, int hw);
    /* FC bias: y[i·n + j] += b[i]; its gradient db[i] = Σ_j dy[i·n + j]. */
    int (*bias_fwd)(float *y, const float *b, int c, size_t n);
    int (*bias_bwd)(const float *dy, float *db, int c, size_t n);
    /* col ((c·kh·kw) × (b·oh·ow), row-major) from x; zeros where the window covers padding. */
    int (*im2col)(const float *x, float *col, const kern_window *g);
    /* The adjoint: every element of x gets the sum of the col entries that im2col copied from it,
     * added in (kernel row, kernel column) order, onto x (accumulate = 1) or onto zero. */
    int (*col2im)(const float *col, float *x, const kern_window *g, int accumulate);
    /* PyTorch's SGD: v = μ·v + (g + wd·w); w −= lr·v, over n parameters. */
    int (*sgd_momentum)(float *w, float *v, const float *g, float lr, float mu, float wd, size_t n);
    /* Windowed average pooling (PyTorch's count_include_pad = True: every output divides by kh·kw),
     * and its gradient: dx (every input element) = Σ dy / (kh·kw) over the outputs covering it. */
    int (*avgpool_win_fwd)(const float *x, float *y, const kern_window *g);
    int (*avgpool_win_bwd)(const float *dy, float *dx, const kern_window *g);
    int (*copy)(float *y, const float *x, size_t n); /* y = x (concat, dropout as identity) */
    const struct kern_xfmr_ops *xfmr; /* transformer layers (xfmr.h); NULL: none (the device tables) */
} kern_layer_ops;

extern const kern_layer_ops kern_layers_host;   /* layers.c (real) or layers_sim.c (simulated) */
const kern_layer_ops *kern_layers_device(void); /* layers_cuda.cu; NULL without CUDA (layers_nodev.c) */
/* Device tables whose activation arrays (x, y, dy, dx, col) hold 2-byte elements — bfloat16 or IEEE
 * float16, computed in float32 and rounded once on store — for steps whose GEMMs run in that type;
 * parameters, statistics, their gradients and SGD stay float32. KERN_STORE_F32 = kern_layers_device().
 * NULL without CUDA. */
enum { KERN_STORE_F32, KERN_STORE_BF16, KERN_STORE_F16 };
const kern_layer_ops *kern_layers_device_as(int storage);

/* Bytes each kernel moves through memory (float32, each array read or written once per pass; the
 * indices of max pooling are 4 bytes): what the simulation charges and `ddlbench model` prints. */
static inline double kern_bytes_bn_fwd(double c, double n) { return 4.0 * 3 * c * n; }     /* x twice, y */
static inline double kern_bytes_bn_bwd(double c, double n) { return 4.0 * 5 * c * n; }     /* x, dy twice; dx */
static inline double kern_bytes_relu_fwd(double n) { return 4.0 * 2 * n; }
static inline double kern_bytes_relu_bwd(double n) { return 4.0 * 3 * n; }
static inline double kern_bytes_add(double n) { return 4.0 * 3 * n; }
static inline double kern_bytes_bias_fwd(double c, double n) { return 4.0 * 2 * c * n; }
static inline double kern_bytes_bias_bwd(double c, double n) { return 4.0 * c * n; }
static inline double kern_bytes_avgpool(double planes, double hw) { return 4.0 * planes * (hw + 1); }
static inline double kern_window_in(const kern_window *g) { return (double)g->c * g->b * g->h * g->w; }
static inline double kern_window_out(const kern_window *g) { return (double)g->c * g->b * g->oh * g->ow; }
static inline double kern_window_cols(const kern_window *g)
{
    return (double)g->c * g->kh * g->kw * g->b * g->oh * g->ow;
}
static inline double kern_bytes_maxpool_fwd(const kern_window *g)
{
    return 4.0 * (kern_window_in(g) + 2 * kern_window_out(g));
}
static inline double kern_bytes_maxpool_bwd(const kern_window *g)
{
    return 4.0 * (kern_window_in(g) + 2 * kern_window_out(g));
}
static inline double kern_bytes_im2col(const kern_window *g) { return 4.0 * (kern_window_in(g) + kern_window_cols(g)); }
static inline double kern_bytes_col2im(const kern_window *g, int accumulate)
{
    return 4.0 * ((1.0 + (accumulate != 0)) * kern_window_in(g) + kern_window_cols(g));
}
static inline double kern_bytes_avgpool_win(const kern_window *g)
{
    return 4.0 * (kern_window_in(g) + kern_window_out(g));
}
static inline double kern_bytes_copy(double n) { return 4.0 * 2 * n; }
static inline double kern_bytes_sgd_momentum(double n) { return 4.0 * 5 * n; }            /* w, v, g; w, v */

#ifdef __cplusplus
}
#endif
#endif
