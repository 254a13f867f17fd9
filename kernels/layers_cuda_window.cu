/* layers_cuda_window.cu — the windowed device kernels of layers.h: max and windowed average pooling
 * forward and backward, im2col and col2im, for activations stored as T (layers_cuda.h). One grid row per
 * plane (pooling), col row (im2col) or channel (col2im), one thread per element inside it. Max pooling's backward and
 * col2im gather: each element sums its terms in the same order as the host loops (layers.c,
 * im2col.c), so for T = float they agree with the host bit for bit (tests/test_cuda_compute.c).
 * Compiled by nvcc; not run on a GPU yet. */
#include "layers_cuda.h"

template <class T> __global__ void maxpool_fwd_k(const T *x, T *y, int32_t *arg, kern_window g, size_t planes)
{
    int out = g.oh * g.ow;
    LC_ROWS(p, planes) {
        const T *xp = x + p * g.h * g.w;
        LC_INNER(o, out) {
            int oh = o / g.ow, ow = o - oh * g.ow;
            float best = -INFINITY;
            int32_t at = -1;
            for (int i = 0; i < g.kh; i++) {
                int ih = oh * g.stride - g.pad + i;
                for (int j = 0; ih >= 0 && ih < g.h && j < g.kw; j++) {
                    int iw = ow * g.stride - g.pad_w + j;
                    if (iw < 0 || iw >= g.w) continue;
                    float v = elt<T>::ld(xp[ih * g.w + iw]);
                    if (at < 0 || v > best) best = v, at = ih * g.w + iw;
                }
            }
            y[p * out + o] = elt<T>::st(best), arg[p * out + o] = at;
        }
    }
}

/* First and last output index whose window (size k, stride s, padding p) covers input index i. */
__device__ static void covering(int i, int k, int s, int p, int n_out, int *lo, int *hi)
{
    int t = i + p - k + 1;
    *lo = t <= 0 ? 0 : (t + s - 1) / s;
    *hi = (i + p) / s;
    if (*hi > n_out - 1) *hi = n_out - 1;
}

template <class T> __global__ void maxpool_bwd_k(const T *dy, const int32_t *arg, T *dx, kern_window g, size_t planes)
{
    int in = g.h * g.w, out = g.oh * g.ow;
    LC_ROWS(p, planes) {
        LC_INNER(e, in) {
            int ih = e / g.w, iw = e - ih * g.w, olo, ohi, wlo, whi;
            covering(ih, g.kh, g.stride, g.pad, g.oh, &olo, &ohi);
            covering(iw, g.kw, g.stride, g.pad_w, g.ow, &wlo, &whi);
            float s = 0.0f;
            for (int oh = olo; oh <= ohi; oh++)
                for (int ow = wlo; ow <= whi; ow++)
                    if (arg[p * out + oh * g.ow + ow] == e) s += elt<T>::ld(dy[p * out + oh * g.ow + ow]);
            dx[p * in + e] = elt<T>::st(s);
        }
    }
}

/* Windowed average pooling (count_include_pad): one plane per grid row; backward gathers, as max
 * pooling's, each input's outputs in (oh, ow) order, so T = float agrees with the host bit for bit. */
template <class T> __global__ void avgpool_win_fwd_k(const T *x, T *y, kern_window g, size_t planes)
{
    int out = g.oh * g.ow;
    float inv = 1.0f / (float)(g.kh * g.kw);
    LC_ROWS(p, planes) {
        const T *xp = x + p * g.h * g.w;
        LC_INNER(o, out) {
            int oh = o / g.ow, ow = o - oh * g.ow;
            float s = 0.0f;
            for (int i = 0; i < g.kh; i++) {
                int ih = oh * g.stride - g.pad + i;
                for (int j = 0; ih >= 0 && ih < g.h && j < g.kw; j++) {
                    int iw = ow * g.stride - g.pad_w + j;
                    if (iw >= 0 && iw < g.w) s += elt<T>::ld(xp[ih * g.w + iw]);
                }
            }
            y[p * out + o] = elt<T>::st(s * inv);
        }
    }
}

template <class T> __global__ void avgpool_win_bwd_k(const T *dy, T *dx, kern_window g, size_t planes)
{
    int in = g.h * g.w, out = g.oh * g.ow;
    float inv = 1.0f / (float)(g.kh * g.kw);
    LC_ROWS(p, planes) {
        LC_INNER(e, in) {
            int ih = e / g.w, iw = e - ih * g.w, olo, ohi, wlo, whi;
            covering(ih, g.kh, g.stride, g.pad, g.oh, &olo, &ohi);
            covering(iw, g.kw, g.stride, g.pad_w, g.ow, &wlo, &whi);
            float s = 0.0f;
            for (int oh = olo; oh <= ohi; oh++)
                for (int ow = wlo; ow <= whi; ow++) s += elt<T>::ld(dy[p * out + oh * g.ow + ow]);
            dx[p * in + e] = elt<T>::st(s * inv);
        }
    }
}

/* im2col: col row r = (c, i, j) per grid row, one thread per column q = (b, oh, ow). */
template <class T> __global__ void im2col_k(const T *x, T *col, kern_window g, int ncol, size_t rows)
{
    LC_ROWS(r, rows) {
        int j = (int)(r % g.kw), i = (int)(r / g.kw % g.kh), c = (int)(r / g.kw / g.kh);
        const T *xc = x + (size_t)c * g.b * g.h * g.w;
        LC_INNER(q, ncol) {
            int t = q / g.ow, ow = q - t * g.ow, b = t / g.oh, oh = t - b * g.oh;
            int ih = oh * g.stride - g.pad + i, iw = ow * g.stride - g.pad_w + j;
            col[r * ncol + q] = ih >= 0 && ih < g.h && iw >= 0 && iw < g.w ? xc[((size_t)b * g.h + ih) * g.w + iw]
                                                                           : elt<T>::st(0.0f);
        }
    }
}

/* col2im: one channel per grid row, one thread per input element (b, ih, iw): its col terms in
 * (i, j) order, onto zero or onto x, in float32, stored once. */
template <class T>
__global__ void col2im_k(const T *col, T *x, kern_window g, int ncol, int per_channel, int accumulate)
{
    LC_ROWS(c, (size_t)g.c) {
        T *xc = x + c * per_channel;
        LC_INNER(e, per_channel) {
            int t = e / g.w, iw = e - t * g.w, b = t / g.h, ih = t - b * g.h;
            float s = accumulate ? elt<T>::ld(xc[e]) : 0.0f;
            for (int i = 0; i < g.kh; i++) {
                int th = ih + g.pad - i;
                if (th < 0 || th % g.stride || th / g.stride >= g.oh) continue;
                for (int j = 0; j < g.kw; j++) {
                    int tw = iw + g.pad_w - j;
                    if (tw < 0 || tw % g.stride || tw / g.stride >= g.ow) continue;
                    size_t r = (c * g.kh + i) * g.kw + j;
                    s += elt<T>::ld(col[r * ncol + (b * g.oh + th / g.stride) * g.ow + tw / g.stride]);
                }
            }
            xc[e] = elt<T>::st(s);
        }
    }
}

template <class T> int lc_maxpool_fwd(const float *x, float *y, int32_t *arg, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = lc_rows_grid(planes, (size_t)g->oh * g->ow, &grid)) return rc;
    maxpool_fwd_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)x, (T *)y, arg, *g, planes);
    return lc_launched();
}

template <class T> int lc_maxpool_bwd(const float *dy, const int32_t *arg, float *dx, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = lc_rows_grid(planes, (size_t)g->h * g->w, &grid)) return rc;
    maxpool_bwd_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)dy, arg, (T *)dx, *g, planes);
    return lc_launched();
}

template <class T> int lc_avgpool_win_fwd(const float *x, float *y, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = lc_rows_grid(planes, (size_t)g->oh * g->ow, &grid)) return rc;
    avgpool_win_fwd_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)x, (T *)y, *g, planes);
    return lc_launched();
}

template <class T> int lc_avgpool_win_bwd(const float *dy, float *dx, const kern_window *g)
{
    size_t planes = (size_t)g->c * g->b;
    dim3 grid;
    if (int rc = lc_rows_grid(planes, (size_t)g->h * g->w, &grid)) return rc;
    avgpool_win_bwd_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)dy, (T *)dx, *g, planes);
    return lc_launched();
}

template <class T> int lc_im2col(const float *x, float *col, const kern_window *g)
{
    size_t rows = (size_t)g->c * g->kh * g->kw, ncol = (size_t)g->b * g->oh * g->ow;
    dim3 grid;
    if (int rc = lc_rows_grid(rows, ncol, &grid)) return rc;
    im2col_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)x, (T *)col, *g, (int)ncol, rows);
    return lc_launched();
}

template <class T> int lc_col2im(const float *col, float *x, const kern_window *g, int accumulate)
{
    size_t per = (size_t)g->b * g->h * g->w, ncol = (size_t)g->b * g->oh * g->ow;
    dim3 grid;
    if (int rc = lc_rows_grid((size_t)g->c, per > ncol ? per : ncol, &grid)) return rc;
    col2im_k<T><<<grid, LC_THREADS, 0, lc_stream()>>>((const T *)col, (T *)x, *g, (int)ncol, (int)per, accumulate);
    return lc_launched();
}

#define LC_INSTANTIATE(T)                                                                        \
    template int lc_maxpool_fwd<T>(const float *, float *, int32_t *, const kern_window *);     \
    template int lc_maxpool_bwd<T>(const float *, const int32_t *, float *, const kern_window *); \
    template int lc_im2col<T>(const float *, float *, const kern_window *);                      \
    template int lc_avgpool_win_fwd<T>(const float *, float *, const kern_window *);             \
    template int lc_avgpool_win_bwd<T>(const float *, float *, const kern_window *);             \
    template int lc_col2im<T>(const float *, float *, const kern_window *, int);
LC_INSTANTIATE(float)
LC_INSTANTIATE(__nv_bfloat16)
LC_INSTANTIATE(__half)
