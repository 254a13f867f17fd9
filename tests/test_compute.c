/* test_compute.c — the host layer kernels (kernels/layers.c, im2col.c) against float64 references:
 * batch norm forward (batch statistics) and backward, with a central finite-difference check of the
 * backward through a random linear loss; ReLU; residual add; max pooling (3×3/2, padding 1) forward
 * against a brute-force window scan and backward against a scatter of dy; global average pooling;
 * FC bias; im2col against a direct convolution (im2col + GEMM = conv), col2im as its adjoint
 * (<im2col(x), c> = <x, col2im(c)>) and its 1×1 round trip; SGD with momentum and weight decay over
 * three steps against PyTorch's formula. Sizes are odd on purpose (vector tails). compute.h's host
 * spans and fences: a span returns its time at once, collect adds nothing, fences are NULL no-ops. */
#include "compute.h"
#include "gemm.h"
#include "layers.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const kern_layer_ops *K = &kern_layers_host; /* the kernels under test */

static unsigned seed = 12345;
static float rnd(void) /* in [-1, 1) */
{
    seed = seed * 1103515245u + 12345u;
    return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}
static float *randv(size_t n)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++) v[i] = rnd();
    return v;
}

/* L = Σ r·BN(x) for a fixed r: the loss whose gradient bn_bwd computes with dy = r. */
static double bn_loss(const float *x, const float *gamma, const float *beta, const float *r, int c, size_t n)
{
    float *y = malloc(c * n * sizeof *y), mean[8], is[8];
    double l = 0;
    K->bn_fwd(x, y, gamma, beta, mean, is, c, n, 1e-5f);
    for (size_t i = 0; i < c * n; i++) l += (double)r[i] * y[i];
    free(y);
    return l;
}

static void test_bn(void)
{
    enum { C = 3 };
    const size_t n = 1037;
    float *x = randv(C * n), *y = malloc(C * n * 4), *dy = randv(C * n), *dx = malloc(C * n * 4);
    float gamma[C] = { 1.5f, -0.5f, 0.25f }, beta[C] = { 0.1f, 0.2f, -0.3f }, mean[C], is[C], dg[C], db[C];
    for (size_t i = 0; i < n; i++)
        x[i] = 3.0f + 0.5f * x[i]; /* an offset row: catastrophic cancellation if done badly */
    K->bn_fwd(x, y, gamma, beta, mean, is, C, n, 1e-5f);
    double worst = 0;
    for (int c = 0; c < C; c++) {
        double s = 0, v = 0;
        for (size_t i = 0; i < n; i++) s += x[c * n + i];
        s /= (double)n;
        for (size_t i = 0; i < n; i++) v += (x[c * n + i] - s) * (x[c * n + i] - s);
        v /= (double)n;
        double inv = 1 / sqrt(v + 1e-5);
        CHECK(fabs(mean[c] - s) < 1e-6 * (1 + fabs(s)) && fabs(is[c] - inv) < 1e-5 * inv, "bn stats row %d", c);
        for (size_t i = 0; i < n; i++) {
            double want = gamma[c] * (x[c * n + i] - s) * inv + beta[c];
            worst = fmax(worst, fabs(y[c * n + i] - want));
        }
    }
    CHECK(worst < 1e-5, "bn_fwd vs float64: max error %.3g", worst);
    /* backward: float64 analytic reference, then finite differences of L = Σ dy·y */
    K->bn_bwd(x, dy, dx, gamma, mean, is, dg, db, C, n);
    worst = 0;
    for (int c = 0; c < C; c++) {
        double sd = 0, sdh = 0;
        for (size_t i = 0; i < n; i++) sd += dy[c * n + i], sdh += dy[c * n + i] * (x[c * n + i] - mean[c]) * is[c];
        CHECK(fabs(db[c] - sd) < 1e-4 && fabs(dg[c] - sdh) < 1e-4 * (1 + fabs(sdh)), "bn dbeta/dgamma row %d", c);
        for (size_t i = 0; i < n; i++) {
            double xh = (x[c * n + i] - mean[c]) * is[c];
            double want = gamma[c] * is[c] * (dy[c * n + i] - sd / n - xh * sdh / n);
            worst = fmax(worst, fabs(dx[c * n + i] - want));
        }
    }
    CHECK(worst < 1e-5, "bn_bwd vs float64: max error %.3g", worst);
    static const size_t probe[] = { 0, 17, 1036, 1037 + 5, 2 * 1037 + 999 };
    for (size_t k = 0; k < sizeof probe / sizeof *probe; k++) {
        size_t i = probe[k];
        float keep = x[i], h = 1e-2f;
        x[i] = keep + h;
        double lp = bn_loss(x, gamma, beta, dy, C, n);
        x[i] = keep - h;
        double lm = bn_loss(x, gamma, beta, dy, C, n);
        x[i] = keep;
        double fd = (lp - lm) / (2 * h);
        CHECK(fabs(fd - dx[i]) < 2e-3 * (1 + fabs(dx[i])), "bn_bwd dx[%zu] = %.6f, finite difference %.6f", i, dx[i],
              fd);
    }
    float g0 = gamma[1];
    gamma[1] = g0 + 1e-2f;
    double lp = bn_loss(x, gamma, beta, dy, C, n);
    gamma[1] = g0 - 1e-2f;
    double lm = bn_loss(x, gamma, beta, dy, C, n);
    gamma[1] = g0;
    CHECK(fabs((lp - lm) / 2e-2 - dg[1]) < 1e-2 * (1 + fabs(dg[1])), "bn dgamma vs finite difference");
    /* a constant row: variance 0, invstd = 1/sqrt(eps), output = beta */
    for (size_t i = 0; i < n; i++) x[i] = 2.5f;
    K->bn_fwd(x, y, gamma, beta, mean, is, 1, n, 1e-5f);
    CHECK(fabs(y[7] - beta[0]) < 1e-6 && fabs(mean[0] - 2.5f) < 1e-7, "bn constant row");
    free(x), free(y), free(dy), free(dx);
}

static void test_elementwise(void)
{
    const size_t n = 1001;
    float *y = randv(n), *keep = malloc(n * 4), *dy = randv(n), *dyk = malloc(n * 4), *x = randv(n);
    memcpy(keep, y, n * 4), memcpy(dyk, dy, n * 4);
    y[3] = -0.0f, keep[3] = -0.0f;
    K->relu_fwd(y, n);
    int ok = 1;
    for (size_t i = 0; i < n; i++) ok &= y[i] == (keep[i] > 0 ? keep[i] : 0.0f);
    CHECK(ok, "relu_fwd");
    K->relu_bwd(y, dy, n);
    ok = 1;
    for (size_t i = 0; i < n; i++) ok &= dy[i] == (keep[i] > 0 ? dyk[i] : 0.0f);
    CHECK(ok, "relu_bwd passes dy where the output is positive, else 0");
    memcpy(dy, dyk, n * 4);
    K->add(dy, x, n);
    ok = 1;
    for (size_t i = 0; i < n; i++) ok &= dy[i] == dyk[i] + x[i];
    CHECK(ok, "add");
    /* bias: 3 rows of 333 */
    float b[3] = { 1, -2, 0.5f }, db[3];
    memcpy(dy, dyk, n * 4);
    K->bias_fwd(dy, b, 3, 333);
    ok = 1;
    for (size_t i = 0; i < 999; i++) ok &= dy[i] == dyk[i] + b[i / 333];
    CHECK(ok, "bias_fwd");
    K->bias_bwd(dyk, db, 3, 333);
    for (int r = 0; r < 3; r++) {
        double s = 0;
        for (int j = 0; j < 333; j++) s += dyk[r * 333 + j];
        CHECK(fabs(db[r] - s) < 1e-4, "bias_bwd row %d: %.6f vs %.6f", r, db[r], s);
    }
    free(y), free(keep), free(dy), free(dyk), free(x);
}

static void test_pools(void)
{
    kern_window g;
    CHECK(kern_window_make(&g, 3, 2, 13, 10, 3, 2, 1) == 0 && g.oh == 7 && g.ow == 5, "maxpool window 13x10 -> 7x5");
    CHECK(kern_window_make(&g, 1, 1, 1, 1, 3, 1, 0) == -1 && kern_window_make(&g, 1, 1, 4, 4, 3, 0, 0) == -1,
          "window that does not fit, stride 0: refused");
    kern_window_make(&g, 3, 2, 13, 10, 3, 2, 1);
    size_t in = 3 * 2 * 13 * 10, out = 3 * 2 * 7 * 5;
    float *x = randv(in), *y = malloc(out * 4), *dy = randv(out), *dx = malloc(in * 4), *want = calloc(in, 4);
    int32_t *arg = malloc(out * 4);
    x[5] = x[6]; /* a tie: the first in window order wins */
    K->maxpool_fwd(x, y, arg, &g);
    int ok = 1;
    for (size_t p = 0; p < 6; p++)
        for (int oh = 0; oh < 7; oh++)
            for (int ow = 0; ow < 5; ow++) {
                float best = -INFINITY;
                int at = -1;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++) {
                        int ih = 2 * oh - 1 + i, iw = 2 * ow - 1 + j;
                        if (ih < 0 || ih >= 13 || iw < 0 || iw >= 10) continue;
                        if (at < 0 || x[p * 130 + ih * 10 + iw] > best)
                            best = x[p * 130 + ih * 10 + iw], at = ih * 10 + iw;
                    }
                size_t o = p * 35 + oh * 5 + ow;
                ok &= y[o] == best && arg[o] == at;
                want[p * 130 + at] += dy[o]; /* the scatter the gather must equal */
            }
    CHECK(ok, "maxpool_fwd vs brute force (values and argmax)");
    K->maxpool_bwd(dy, arg, dx, &g);
    double worst = 0;
    for (size_t i = 0; i < in; i++) worst = fmax(worst, fabs(dx[i] - want[i]));
    CHECK(worst < 1e-6, "maxpool_bwd vs scatter: %.3g", worst);
    /* global average pool over 6 planes of 7x7 */
    float ya[6], dya[6] = { 1, 2, 3, 4, 5, 49 }, dxa[6 * 49];
    K->avgpool_fwd(x, ya, 6, 49);
    for (int p = 0; p < 6; p++) {
        double s = 0;
        for (int i = 0; i < 49; i++) s += x[p * 49 + i];
        CHECK(fabs(ya[p] - s / 49) < 1e-6, "avgpool_fwd plane %d", p);
    }
    K->avgpool_bwd(dya, dxa, 6, 49);
    CHECK(dxa[0] == 1.0f / 49 && dxa[5 * 49 + 48] == 1.0f, "avgpool_bwd spreads dy / hw");
    free(x), free(y), free(dy), free(dx), free(want), free(arg);
}

/* conv via im2col + GEMM against a direct float64 convolution, over several windows. */
static void test_im2col_case(int c, int b, int h, int w, int k, int s, int p)
{
    kern_window g;
    if (kern_window_make(&g, c, b, h, w, k, s, p)) {
        CHECK(0, "window c=%d h=%d k=%d s=%d p=%d", c, h, k, s, p);
        return;
    }
    const int M = 5;
    size_t in = (size_t)kern_window_in(&g), cols = (size_t)kern_window_cols(&g), N = (size_t)b * g.oh * g.ow,
           KK = (size_t)c * k * k;
    float *x = randv(in), *col = malloc(cols * 4), *wt = randv(M * KK), *y = malloc(M * N * 4), *cc = randv(cols),
          *back = malloc(in * 4);
    K->im2col(x, col, &g);
    kern_gemm_f32(KERN_NOTRANS, KERN_NOTRANS, M, (int)N, (int)KK, 1.0f, wt, (int)KK, col, (int)N, 0.0f, y, (int)N);
    double worst = 0;
    for (int m = 0; m < M; m++)
        for (int bi = 0; bi < b; bi++)
            for (int oh = 0; oh < g.oh; oh++)
                for (int ow = 0; ow < g.ow; ow++) {
                    double acc = 0;
                    for (int ci = 0; ci < c; ci++)
                        for (int i = 0; i < k; i++)
                            for (int j = 0; j < k; j++) {
                                int ih = oh * s - p + i, iw = ow * s - p + j;
                                if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                                    acc += (double)wt[m * KK + (ci * k + i) * k + j] *
                                           x[(((size_t)ci * b + bi) * h + ih) * w + iw];
                            }
                    worst = fmax(worst, fabs(y[m * N + ((size_t)bi * g.oh + oh) * g.ow + ow] - acc));
                }
    CHECK(worst < 1e-4, "im2col+GEMM = conv (c=%d b=%d %dx%d k=%d s=%d p=%d): max error %.3g", c, b, h, w, k, s, p,
          worst);
    /* adjoint: <im2col(x), cc> = <x, col2im(cc)>; accumulate adds onto what is there */
    K->col2im(cc, back, &g, 0);
    double l = 0, r = 0;
    for (size_t i = 0; i < cols; i++) l += (double)col[i] * cc[i];
    for (size_t i = 0; i < in; i++) r += (double)x[i] * back[i];
    CHECK(fabs(l - r) < 1e-3 * (1 + fabs(l)), "col2im is im2col's adjoint (k=%d s=%d p=%d): %.6f vs %.6f", k, s, p, l,
          r);
    memcpy(x, back, in * 4);
    K->col2im(cc, back, &g, 1);
    int ok = 1;
    for (size_t i = 0; i < in; i++) ok &= back[i] == x[i] + x[i];
    CHECK(ok, "col2im accumulate = twice the overwrite (k=%d s=%d)", k, s);
    if (k == 1 && s == 1 && p == 0) {
        K->col2im(col, back, &g, 0);
        CHECK(!memcmp(back, col, in * 4), "1x1 stride 1: im2col and col2im are copies");
    }
    free(x), free(col), free(wt), free(y), free(cc), free(back);
}

static void test_im2col(void)
{
    test_im2col_case(3, 2, 11, 9, 7, 2, 3);  /* the stem: 7x7/2 pad 3 */
    test_im2col_case(4, 3, 8, 8, 3, 1, 1);   /* bottleneck 3x3 */
    test_im2col_case(5, 2, 9, 7, 3, 2, 1);   /* strided 3x3, odd sizes */
    test_im2col_case(6, 2, 8, 10, 1, 2, 0);  /* strided 1x1 downsample: skipped positions get 0 */
    test_im2col_case(3, 1, 5, 5, 1, 1, 0);   /* identity */
    test_im2col_case(2, 1, 2, 2, 3, 1, 1);   /* window larger than the image */
}

static void test_sgd(void)
{
    const size_t n = 1003;
    float *w = randv(n), *v = calloc(n, 4), *g = randv(n);
    double *rw = malloc(n * 8), *rv = calloc(n, 8);
    for (size_t i = 0; i < n; i++) rw[i] = w[i];
    for (int step = 0; step < 3; step++) {
        K->sgd_momentum(w, v, g, 0.1f, 0.9f, 1e-4f, n);
        for (size_t i = 0; i < n; i++) {
            rv[i] = 0.9 * rv[i] + (g[i] + 1e-4 * rw[i]);
            rw[i] -= 0.1 * rv[i];
        }
    }
    double worst = 0;
    for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs(w[i] - rw[i]) + fabs(v[i] - rv[i]));
    CHECK(worst < 1e-5, "sgd_momentum over 3 steps vs float64: %.3g", worst);
    free(w), free(v), free(g), free(rw), free(rv);
}

static void test_bytes(void)
{
    kern_window g;
    kern_window_make(&g, 64, 2, 112, 112, 3, 2, 1); /* ResNet-50's max pool at batch 2 */
    CHECK(g.oh == 56 && kern_bytes_maxpool_fwd(&g) == 4.0 * (64 * 2 * 112 * 112 + 2.0 * 64 * 2 * 56 * 56),
          "maxpool bytes");
    CHECK(kern_bytes_bn_fwd(64, 100) == 4.0 * 3 * 6400 && kern_bytes_bn_bwd(64, 100) == 4.0 * 5 * 6400, "bn bytes");
    CHECK(kern_bytes_col2im(&g, 1) - kern_bytes_col2im(&g, 0) == 4.0 * kern_window_in(&g), "col2im accumulate reads x");
    CHECK(!strcmp(K->name, "host"), "host table");
}

static void test_spans(void)
{
    kern_span sp = kern_span_open();
    volatile double x = 0;
    for (int i = 0; i < 1000000; i++) x += i;
    double d = kern_span_close(sp, KERN_SPAN_GEMM), g = 0, o = 0;
    kern_fence *f = (kern_fence *)&sp;
    CHECK(d > 0 && !kern_span_collect(&g, &o) && g == 0 && o == 0, "host span: %g s at once, nothing collected", d);
    CHECK(!kern_fence_create(&f) && f == NULL && !kern_fence_record(f) && !kern_fence_wait(f),
          "host fences: NULL no-ops");
}

int main(void)
{
    test_spans();
    test_bn();
    test_elementwise();
    test_pools();
    test_im2col();
    test_sgd();
    test_bytes();
    return TEST_REPORT();
}
