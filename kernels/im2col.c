/* im2col.c — host im2col and col2im over CNHW activations (layers.h), the data movement a
 * convolution's GEMM formulation implies when its kernel is larger than 1×1 or its stride above 1.
 * col row r = (c·kh + i)·kw + j holds, for every output position (b, oh, ow), the input element
 * x[c][b][oh·s − p + i][ow·s − pw + j], or 0 where that falls in the padding (p, pw: the row and
 * column padding).
 * Both loop over col rows and, inside, over the valid output columns of one output row, so the
 * innermost loop is a unit-stride copy (stride 1) that GCC vectorises. col2im adds each col row
 * onto x in row order (i, then j), i.e. every x element receives its terms in the same order as the
 * CUDA gather (layers_cuda.cu), so both give identical sums. */
#include "layers.h"

#include <stddef.h>
#include <string.h>

/* Output columns [lo, hi) whose input column ow·s − pw + j lies inside [0, w). */
static void valid_cols(const kern_window *g, int j, int *lo, int *hi)
{
    int a = g->pad_w - j, b = g->w + g->pad_w - j; /* need a <= ow·s < b */
    *lo = a <= 0 ? 0 : (a + g->stride - 1) / g->stride;
    *hi = b <= 0 ? 0 : (b + g->stride - 1) / g->stride;
    if (*hi > g->ow) *hi = g->ow;
    if (*lo > *hi) *lo = *hi;
}

int kern_host_im2col(const float *restrict x, float *restrict col, const kern_window *g)
{
    size_t plane = (size_t)g->h * g->w, ncol = (size_t)g->b * g->oh * g->ow;
    for (int c = 0; c < g->c; c++)
        for (int i = 0; i < g->kh; i++)
            for (int j = 0; j < g->kw; j++) {
                float *restrict row = col + ((size_t)(c * g->kh + i) * g->kw + j) * ncol;
                int lo, hi, s = g->stride;
                valid_cols(g, j, &lo, &hi);
                for (int b = 0; b < g->b; b++)
                    for (int oh = 0; oh < g->oh; oh++) {
                        float *restrict out = row + ((size_t)b * g->oh + oh) * g->ow;
                        int ih = oh * s - g->pad + i;
                        if (ih < 0 || ih >= g->h) {
                            memset(out, 0, (size_t)g->ow * sizeof *out);
                            continue;
                        }
                        /* input column of output column ow: ow·s + j − pw, valid for lo <= ow < hi */
                        const float *restrict in = x + ((size_t)c * g->b + b) * plane + (size_t)ih * g->w;
                        ptrdiff_t d = (ptrdiff_t)j - g->pad_w;
                        for (int ow = 0; ow < lo; ow++) out[ow] = 0.0f;
                        if (s == 1)
                            for (int ow = lo; ow < hi; ow++) out[ow] = in[ow + d];
                        else
                            for (int ow = lo; ow < hi; ow++) out[ow] = in[(ptrdiff_t)ow * s + d];
                        for (int ow = hi; ow < g->ow; ow++) out[ow] = 0.0f;
                    }
            }
    return 0;
}

int kern_host_col2im(const float *restrict col, float *restrict x, const kern_window *g, int accumulate)
{
    size_t plane = (size_t)g->h * g->w, ncol = (size_t)g->b * g->oh * g->ow;
    if (!accumulate) memset(x, 0, (size_t)g->c * g->b * plane * sizeof *x);
    for (int c = 0; c < g->c; c++)
        for (int i = 0; i < g->kh; i++)
            for (int j = 0; j < g->kw; j++) {
                const float *restrict row = col + ((size_t)(c * g->kh + i) * g->kw + j) * ncol;
                int lo, hi, s = g->stride;
                valid_cols(g, j, &lo, &hi);
                for (int b = 0; b < g->b; b++)
                    for (int oh = 0; oh < g->oh; oh++) {
                        int ih = oh * s - g->pad + i;
                        if (ih < 0 || ih >= g->h) continue;
                        const float *restrict in = row + ((size_t)b * g->oh + oh) * g->ow;
                        float *restrict out = x + ((size_t)c * g->b + b) * plane + (size_t)ih * g->w;
                        ptrdiff_t d = (ptrdiff_t)j - g->pad_w;
                        if (s == 1)
                            for (int ow = lo; ow < hi; ow++) out[ow + d] += in[ow];
                        else
                            for (int ow = lo; ow < hi; ow++) out[(ptrdiff_t)ow * s + d] += in[ow];
                    }
            }
    return 0;
}
