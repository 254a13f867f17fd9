/* layers.c — the real host backend of layers.h (the CPU and CUDA builds; the CUDA build uses it for
 * test references). Inner loops are unit-stride over restrict-qualified rows so GCC vectorises them
 * at -O2 -march=native; reductions use `omp simd reduction` (compiled with -fopenmp-simd: no OpenMP
 * runtime) with float64 partial sums, so batch statistics over a million elements stay accurate.
 * Pooling and col2im gather: each output element is computed once from the inputs that reach it, in
 * a fixed order, the same order the CUDA kernels use. */
#include "layers.h"
#include "xfmr.h"

#include <math.h>
#include <string.h>

static int bn_fwd(const float *restrict x, float *restrict y, const float *restrict gamma, const float *restrict beta,
                  float *restrict mean, float *restrict invstd, int c, size_t n, float eps)
{
    for (int ch = 0; ch < c && n; ch++) {
        const float *restrict xr = x + (size_t)ch * n;
        float *restrict yr = y + (size_t)ch * n;
        double s = 0, ss = 0;
#pragma omp simd reduction(+ : s, ss)
        for (size_t i = 0; i < n; i++) {
            double v = xr[i];
            s += v;
            ss += v * v;
        }
        double m = s / (double)n, var = ss / (double)n - m * m;
        float is = (float)(1.0 / sqrt((var > 0 ? var : 0) + eps));
        mean[ch] = (float)m, invstd[ch] = is;
        float a = gamma[ch] * is, b = beta[ch], mf = (float)m;
        for (size_t i = 0; i < n; i++) yr[i] = a * (xr[i] - mf) + b; /* exact β for a constant row */
    }
    return 0;
}

static int bn_bwd(const float *restrict x, const float *restrict dy, float *restrict dx, const float *restrict gamma,
                  const float *restrict mean, const float *restrict invstd, float *restrict dgamma,
                  float *restrict dbeta, int c, size_t n)
{
    for (int ch = 0; ch < c && n; ch++) {
        const float *restrict xr = x + (size_t)ch * n, *restrict dyr = dy + (size_t)ch * n;
        float *restrict dxr = dx + (size_t)ch * n;
        double sd = 0, sdx = 0; /* Σ dy, Σ dy·x */
#pragma omp simd reduction(+ : sd, sdx)
        for (size_t i = 0; i < n; i++) {
            sd += dyr[i];
            sdx += (double)dyr[i] * xr[i];
        }
        double is = invstd[ch], m = mean[ch], dg = (sdx - m * sd) * is; /* Σ dy·x̂ */
        dgamma[ch] = (float)dg, dbeta[ch] = (float)sd;
        double k1 = gamma[ch] * is, k2 = -k1 * is * dg / (double)n;
        float a = (float)k1, b = (float)k2, k = (float)(-k1 * sd / (double)n - k2 * m);
        for (size_t i = 0; i < n; i++) dxr[i] = a * dyr[i] + b * xr[i] + k;
    }
    return 0;
}

static int relu_fwd(float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] = y[i] > 0.0f ? y[i] : 0.0f;
    return 0;
}

static int relu_bwd(const float *restrict y, float *restrict dy, size_t n)
{
    for (size_t i = 0; i < n; i++) dy[i] = y[i] > 0.0f ? dy[i] : 0.0f;
    return 0;
}

static int add(float *restrict y, const float *restrict x, size_t n)
{
    for (size_t i = 0; i < n; i++) y[i] += x[i];
    return 0;
}

static int maxpool_fwd(const float *restrict x, float *restrict y, int32_t *restrict arg, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b, in = (size_t)g->h * g->w, out = (size_t)g->oh * g->ow;
    for (size_t p = 0; p < planes; p++)
        for (int oh = 0; oh < g->oh; oh++)
            for (int ow = 0; ow < g->ow; ow++) {
                float best = -INFINITY;
                int32_t at = -1;
                for (int i = 0; i < g->kh; i++) {
                    int ih = oh * g->stride - g->pad + i;
                    for (int j = 0; ih >= 0 && ih < g->h && j < g->kw; j++) {
                        int iw = ow * g->stride - g->pad_w + j;
                        if (iw < 0 || iw >= g->w) continue;
                        float v = x[p * in + (size_t)ih * g->w + iw];
                        if (at < 0 || v > best) best = v, at = ih * g->w + iw;
                    }
                }
                y[p * out + (size_t)oh * g->ow + ow] = best;
                arg[p * out + (size_t)oh * g->ow + ow] = at;
            }
    return 0;
}

/* First output index whose window (stride s, padding p, size k) covers input index i, and the last. */
static void covering(int i, int k, int s, int p, int n_out, int *lo, int *hi)
{
    int t = i + p - k + 1;
    *lo = t <= 0 ? 0 : (t + s - 1) / s;
    *hi = (i + p) / s;
    if (*hi > n_out - 1) *hi = n_out - 1;
}

static int maxpool_bwd(const float *restrict dy, const int32_t *restrict arg, float *restrict dx, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b, in = (size_t)g->h * g->w, out = (size_t)g->oh * g->ow;
    for (size_t p = 0; p < planes; p++)
        for (int ih = 0; ih < g->h; ih++) {
            int olo, ohi;
            covering(ih, g->kh, g->stride, g->pad, g->oh, &olo, &ohi);
            for (int iw = 0; iw < g->w; iw++) {
                int wlo, whi;
                int32_t me = ih * g->w + iw;
                float s = 0.0f;
                covering(iw, g->kw, g->stride, g->pad_w, g->ow, &wlo, &whi);
                for (int oh = olo; oh <= ohi; oh++)
                    for (int ow = wlo; ow <= whi; ow++)
                        if (arg[p * out + (size_t)oh * g->ow + ow] == me) s += dy[p * out + (size_t)oh * g->ow + ow];
                dx[p * in + (size_t)me] = s;
            }
        }
    return 0;
}

static int avgpool_fwd(const float *restrict x, float *restrict y, size_t planes, int hw)
{
    for (size_t p = 0; p < planes && hw > 0; p++) {
        float s = 0.0f;
        for (int i = 0; i < hw; i++) s += x[p * (size_t)hw + i];
        y[p] = s / (float)hw;
    }
    return 0;
}

static int avgpool_bwd(const float *restrict dy, float *restrict dx, size_t planes, int hw)
{
    for (size_t p = 0; p < planes && hw > 0; p++) {
        float v = dy[p] / (float)hw;
        for (int i = 0; i < hw; i++) dx[p * (size_t)hw + i] = v;
    }
    return 0;
}

static int bias_fwd(float *restrict y, const float *restrict b, int c, size_t n)
{
    for (int i = 0; i < c; i++)
        for (size_t j = 0; j < n; j++) y[(size_t)i * n + j] += b[i];
    return 0;
}

static int bias_bwd(const float *restrict dy, float *restrict db, int c, size_t n)
{
    for (int i = 0; i < c; i++) {
        double s = 0;
#pragma omp simd reduction(+ : s)
        for (size_t j = 0; j < n; j++) s += dy[(size_t)i * n + j];
        db[i] = (float)s;
    }
    return 0;
}

static int sgd_momentum(float *restrict w, float *restrict v, const float *restrict g, float lr, float mu, float wd,
                        size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float vi = mu * v[i] + (g[i] + wd * w[i]);
        v[i] = vi;
        w[i] -= lr * vi;
    }
    return 0;
}

static int avgpool_win_fwd(const float *restrict x, float *restrict y, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b, in = (size_t)g->h * g->w, out = (size_t)g->oh * g->ow;
    float inv = 1.0f / (float)(g->kh * g->kw);
    for (size_t p = 0; p < planes; p++)
        for (int oh = 0; oh < g->oh; oh++)
            for (int ow = 0; ow < g->ow; ow++) {
                float s = 0.0f;
                for (int i = 0; i < g->kh; i++) {
                    int ih = oh * g->stride - g->pad + i;
                    for (int j = 0; ih >= 0 && ih < g->h && j < g->kw; j++) {
                        int iw = ow * g->stride - g->pad_w + j;
                        if (iw >= 0 && iw < g->w) s += x[p * in + (size_t)ih * g->w + iw];
                    }
                }
                y[p * out + (size_t)oh * g->ow + ow] = s * inv;
            }
    return 0;
}

static int avgpool_win_bwd(const float *restrict dy, float *restrict dx, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b, in = (size_t)g->h * g->w, out = (size_t)g->oh * g->ow;
    float inv = 1.0f / (float)(g->kh * g->kw);
    for (size_t p = 0; p < planes; p++)
        for (int ih = 0; ih < g->h; ih++) {
            int olo, ohi;
            covering(ih, g->kh, g->stride, g->pad, g->oh, &olo, &ohi);
            for (int iw = 0; iw < g->w; iw++) {
                int wlo, whi;
                float s = 0.0f;
                covering(iw, g->kw, g->stride, g->pad_w, g->ow, &wlo, &whi);
                for (int oh = olo; oh <= ohi; oh++)
                    for (int ow = wlo; ow <= whi; ow++) s += dy[p * out + (size_t)oh * g->ow + ow];
                dx[p * in + (size_t)ih * g->w + iw] = s * inv;
            }
        }
    return 0;
}

static int copy(float *restrict y, const float *restrict x, size_t n)
{
    if (n) memcpy(y, x, n * sizeof *y);
    return 0;
}

int kern_host_im2col(const float *x, float *col, const kern_window *g);
int kern_host_col2im(const float *col, float *x, const kern_window *g, int accumulate);

const kern_layer_ops kern_layers_host = { "host", bn_fwd, bn_bwd, relu_fwd, relu_bwd, add, maxpool_fwd, maxpool_bwd,
                                          avgpool_fwd, avgpool_bwd, bias_fwd, bias_bwd, kern_host_im2col,
                                          kern_host_col2im, sgd_momentum, avgpool_win_fwd, avgpool_win_bwd, copy,
                                          &kern_xfmr_host };
