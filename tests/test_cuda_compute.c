/* test_cuda_compute.c — the device layer kernels (kernels/layers_cuda.cu) against the host ones
 * (layers.c, im2col.c) on the same inputs: data movement bit for bit (ReLU forward and backward,
 * residual add, max pooling forward and backward, im2col, col2im with and without accumulation,
 * average pooling backward; Inception's 1x7 / 7x1 windows, windowed average pooling and copy),
 * arithmetic within float32 rounding (batch norm forward and backward with
 * its statistics, bias gradient, average pooling forward, SGD with momentum; the GPU contracts
 * multiply-adds into FMAs, the host build does not). Sizes are odd and span several blocks and, for
 * batch norm, several slices per channel. The 2-byte tables (bf16, fp16 activations) against the host
 * float32 kernels on the same rounded inputs, within the storage type's rounding. compute.h's spans
 * (event-timed, read at collect) and fences (a copy on another stream sees the fenced fill). Built only with nvcc
 * (the CUDA section of the Makefile);
 * without a device it prints one SKIP line and "0 passed, 0 failed". Runs on one process. */
#include "compute.h"
#include "devmem.h"
#include "gemm.h"
#include "half.h"
#include "layers.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const kern_layer_ops *H = &kern_layers_host, *D;

static unsigned seed = 4242;
static float *randv(size_t n)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    return v;
}

/* A device copy of n floats (or n int32) of host data; NULL on failure. */
static void *up(const void *h, size_t bytes)
{
    void *d = NULL;
    if (kern_dev_alloc(&d, bytes) || (h && kern_dev_copy(d, h, bytes, kern_dev_compute_stream())) ||
        kern_stream_sync(kern_dev_compute_stream())) {
        kern_dev_free(d);
        return NULL;
    }
    return d;
}

/* Copies device data back (after the compute stream drains); 0 or non-zero. */
static int down(void *h, const void *d, size_t bytes)
{
    return kern_stream_sync(kern_dev_compute_stream()) || kern_dev_copy(h, d, bytes, kern_dev_compute_stream()) ||
           kern_stream_sync(kern_dev_compute_stream());
}

/* Largest |a − b| / (1 + |b|) over n floats. */
static double rel(const float *a, const float *b, size_t n)
{
    double w = 0;
    for (size_t i = 0; i < n; i++) w = fmax(w, fabs((double)a[i] - b[i]) / (1 + fabs((double)b[i])));
    return w;
}

static void test_bn(int c, size_t n)
{
    size_t e = (size_t)c * n;
    float *x = randv(e), *dy = randv(e), *g = randv(c), *b = randv(c), *y = malloc(e * 4), *dx = malloc(e * 4);
    float *hm = malloc(c * 4), *hi = malloc(c * 4), *hdg = malloc(c * 4), *hdb = malloc(c * 4);
    float *ty = malloc(e * 4), *tdx = malloc(e * 4), *tm = malloc(c * 4), *ti = malloc(c * 4), *tdg = malloc(c * 4),
          *tdb = malloc(c * 4);
    float *dX = up(x, e * 4), *dDY = up(dy, e * 4), *dG = up(g, c * 4), *dB = up(b, c * 4), *dY = up(NULL, e * 4),
          *dDX = up(NULL, e * 4), *dM = up(NULL, c * 4), *dI = up(NULL, c * 4), *dDG = up(NULL, c * 4),
          *dDB = up(NULL, c * 4);
    int rc = !dX || !dDY || !dG || !dB || !dY || !dDX || !dM || !dI || !dDG || !dDB;
    H->bn_fwd(x, y, g, b, hm, hi, c, n, 1e-5f);
    H->bn_bwd(x, dy, dx, g, hm, hi, hdg, hdb, c, n);
    rc = rc || D->bn_fwd(dX, dY, dG, dB, dM, dI, c, n, 1e-5f) || D->bn_bwd(dX, dDY, dDX, dG, dM, dI, dDG, dDB, c, n) ||
         down(ty, dY, e * 4) || down(tdx, dDX, e * 4) || down(tm, dM, c * 4) || down(ti, dI, c * 4) ||
         down(tdg, dDG, c * 4) || down(tdb, dDB, c * 4);
    CHECK(!rc, "bn on the device (c=%d n=%zu): %s", c, n, kern_dev_last_error());
    if (!rc) {
        CHECK(rel(tm, hm, c) < 1e-6 && rel(ti, hi, c) < 1e-5, "bn statistics c=%d n=%zu", c, n);
        CHECK(rel(ty, y, e) < 1e-5, "bn_fwd c=%d n=%zu: %.3g", c, n, rel(ty, y, e));
        CHECK(rel(tdg, hdg, c) < 1e-4 && rel(tdb, hdb, c) < 1e-4, "bn dgamma/dbeta c=%d n=%zu", c, n);
        CHECK(rel(tdx, dx, e) < 1e-4, "bn_bwd c=%d n=%zu: %.3g", c, n, rel(tdx, dx, e));
    }
    kern_dev_free(dX), kern_dev_free(dDY), kern_dev_free(dG), kern_dev_free(dB), kern_dev_free(dY), kern_dev_free(dDX);
    kern_dev_free(dM), kern_dev_free(dI), kern_dev_free(dDG), kern_dev_free(dDB);
    free(x), free(dy), free(g), free(b), free(y), free(dx), free(hm), free(hi), free(hdg), free(hdb);
    free(ty), free(tdx), free(tm), free(ti), free(tdg), free(tdb);
}

static void test_elementwise(size_t n)
{
    float *y = randv(n), *dy = randv(n), *x = randv(n), *w = randv(n), *v = randv(n), *t = malloc(n * 4),
          *u = malloc(n * 4);
    float *dY = up(y, n * 4), *dDY = up(dy, n * 4), *dX = up(x, n * 4), *dW = up(w, n * 4), *dV = up(v, n * 4);
    int rc = !dY || !dDY || !dX || !dW || !dV;
    H->relu_fwd(y, n), H->relu_bwd(y, dy, n), H->add(dy, x, n);
    rc = rc || D->relu_fwd(dY, n) || D->relu_bwd(dY, dDY, n) || D->add(dDY, dX, n) || down(t, dY, n * 4) ||
         down(u, dDY, n * 4);
    CHECK(!rc && !memcmp(t, y, n * 4) && !memcmp(u, dy, n * 4), "relu fwd/bwd and add, n=%zu: bit for bit", n);
    H->sgd_momentum(w, v, x, 0.1f, 0.9f, 1e-4f, n);
    rc = rc || D->sgd_momentum(dW, dV, dX, 0.1f, 0.9f, 1e-4f, n) || down(t, dW, n * 4) || down(u, dV, n * 4);
    CHECK(!rc && rel(t, w, n) < 1e-6 && rel(u, v, n) < 1e-6, "sgd_momentum n=%zu", n);
    kern_dev_free(dY), kern_dev_free(dDY), kern_dev_free(dX), kern_dev_free(dW), kern_dev_free(dV);
    free(y), free(dy), free(x), free(w), free(v), free(t), free(u);
}

static void test_pools(int c, int b, int h, int w)
{
    kern_window g;
    if (kern_window_make(&g, c, b, h, w, 3, 2, 1)) return;
    size_t in = (size_t)kern_window_in(&g), out = (size_t)kern_window_out(&g), planes = (size_t)c * b;
    float *x = randv(in), *dy = randv(out), *y = malloc(out * 4), *dx = malloc(in * 4), *t = malloc(in * 4);
    int32_t *arg = malloc(out * 4), *targ = malloc(out * 4);
    float *dX = up(x, in * 4), *dDY = up(dy, out * 4), *dY = up(NULL, out * 4), *dDX = up(NULL, in * 4);
    int32_t *dA = up(NULL, out * 4);
    int rc = !dX || !dDY || !dY || !dDX || !dA;
    H->maxpool_fwd(x, y, arg, &g), H->maxpool_bwd(dy, arg, dx, &g);
    rc = rc || D->maxpool_fwd(dX, dY, dA, &g) || D->maxpool_bwd(dDY, dA, dDX, &g) || down(t, dY, out * 4) ||
         down(targ, dA, out * 4);
    CHECK(!rc && !memcmp(t, y, out * 4) && !memcmp(targ, arg, out * 4), "maxpool_fwd %dx%d: values and indices", h, w);
    rc = rc || down(t, dDX, in * 4);
    CHECK(!rc && !memcmp(t, dx, in * 4), "maxpool_bwd %dx%d: bit for bit", h, w);
    int hw = h * w;
    H->avgpool_fwd(x, y, planes, hw), H->avgpool_bwd(dy, dx, planes, hw);
    rc = rc || D->avgpool_fwd(dX, dY, planes, hw) || D->avgpool_bwd(dDY, dDX, planes, hw) || down(t, dY, planes * 4);
    CHECK(!rc && rel(t, y, planes) < 1e-6, "avgpool_fwd %zu planes of %d", planes, hw);
    rc = rc || down(t, dDX, in * 4);
    CHECK(!rc && !memcmp(t, dx, in * 4), "avgpool_bwd: bit for bit");
    float db[64], tdb[64];
    H->bias_bwd(x, db, c, in / c);
    float *dDB = up(NULL, 64 * 4);
    rc = rc || !dDB || D->bias_bwd(dX, dDB, c, in / c) || down(tdb, dDB, c * 4);
    CHECK(!rc && rel(tdb, db, c) < 1e-5, "bias_bwd %d rows", c);
    H->bias_fwd(x, db, c, in / c);
    rc = rc || D->bias_fwd(dX, dDB, c, in / c) || down(t, dX, in * 4);
    CHECK(!rc && rel(t, x, in) < 1e-6, "bias_fwd");
    kern_dev_free(dX), kern_dev_free(dDY), kern_dev_free(dY), kern_dev_free(dDX), kern_dev_free(dA), kern_dev_free(dDB);
    free(x), free(dy), free(y), free(dx), free(t), free(arg), free(targ);
}

static void test_im2col(int c, int b, int h, int w, int k, int s, int p)
{
    kern_window g;
    if (kern_window_make(&g, c, b, h, w, k, s, p)) return;
    size_t in = (size_t)kern_window_in(&g), cols = (size_t)kern_window_cols(&g);
    float *x = randv(in), *cc = randv(cols), *col = malloc(cols * 4), *t = malloc((cols > in ? cols : in) * 4),
          *back = malloc(in * 4);
    float *dX = up(x, in * 4), *dC = up(NULL, cols * 4), *dCC = up(cc, cols * 4);
    int rc = !dX || !dC || !dCC;
    H->im2col(x, col, &g);
    rc = rc || D->im2col(dX, dC, &g) || down(t, dC, cols * 4);
    CHECK(!rc && !memcmp(t, col, cols * 4), "im2col c=%d %dx%d k=%d s=%d p=%d: bit for bit", c, h, w, k, s, p);
    for (int acc = 0; acc < 2; acc++) {
        memcpy(back, x, in * 4);
        H->col2im(cc, back, &g, acc);
        rc = rc || kern_dev_copy(dX, x, in * 4, kern_dev_compute_stream()) || D->col2im(dCC, dX, &g, acc) ||
             down(t, dX, in * 4);
        CHECK(!rc && !memcmp(t, back, in * 4), "col2im accumulate=%d k=%d s=%d p=%d: bit for bit", acc, k, s, p);
    }
    kern_dev_free(dX), kern_dev_free(dC), kern_dev_free(dCC);
    free(x), free(cc), free(col), free(t), free(back);
}

/* Host floats rounded to the 2-byte type (in place) and uploaded as such. */
static void *up16(float *h, size_t n, int bf)
{
    uint16_t *u = malloc(n * 2 + 2);
    for (size_t i = 0; u && i < n; i++) {
        u[i] = bf ? kern_f32_to_bf16(h[i]) : kern_f32_to_f16(h[i]);
        h[i] = bf ? kern_bf16_to_f32(u[i]) : kern_f16_to_f32(u[i]);
    }
    void *d = u ? up(u, n * 2) : NULL;
    free(u);
    return d;
}

/* Device 2-byte data as floats; 0 or non-zero. */
static int down16(float *h, const void *d, size_t n, int bf)
{
    uint16_t *u = malloc(n * 2 + 2);
    int rc = !u || down(u, d, n * 2);
    for (size_t i = 0; !rc && i < n; i++) h[i] = bf ? kern_bf16_to_f32(u[i]) : kern_f16_to_f32(u[i]);
    free(u);
    return rc;
}

/* The bf16 (bf = 1) or fp16 table: batch norm forward and backward, ReLU, add, max pooling forward,
 * im2col and col2im against the float32 host kernels on the same rounded inputs. */
static void test_storage16(int bf)
{
    const kern_layer_ops *D16 = kern_layers_device_as(bf ? KERN_STORE_BF16 : KERN_STORE_F16);
    const double tol = bf ? 2e-2 : 2e-3; /* a few units of the type's last place */
    const int c = 8;
    const size_t n = 2 * 13 * 11, e = c * n;
    kern_window g;
    kern_window_make(&g, c, 2, 13, 11, 3, 2, 1);
    size_t out = (size_t)kern_window_out(&g), cols = (size_t)kern_window_cols(&g);
    float *x = randv(e), *dy = randv(e), *gm = randv(c), *bt = randv(c), *y = malloc(e * 4), *dx = malloc(e * 4);
    float *t = malloc((cols > e ? cols : e) * 4), *col = malloc(cols * 4), m[8], is[8], dg[8], db[8];
    int32_t *arg = malloc(out * 4);
    CHECK(D16 != NULL, "2-byte table %s", bf ? "bf16" : "fp16");
    void *dX = up16(x, e, bf), *dDY = up16(dy, e, bf), *dY = up(NULL, e * 2), *dDX = up(NULL, e * 2),
         *dC = up(NULL, cols * 2);
    float *dG = up(gm, c * 4), *dB = up(bt, c * 4), *dP = up(NULL, 4 * c * 4);
    int32_t *dA = up(NULL, out * 4);
    int rc = !D16 || !dX || !dDY || !dY || !dDX || !dC || !dG || !dB || !dP || !dA;
    H->bn_fwd(x, y, gm, bt, m, is, c, n, 1e-5f);
    rc = rc || D16->bn_fwd(dX, dY, dG, dB, dP, dP + c, c, n, 1e-5f) || down16(t, dY, e, bf);
    CHECK(!rc && rel(t, y, e) < tol, "%s bn_fwd: %.3g", bf ? "bf16" : "fp16", rc ? -1 : rel(t, y, e));
    H->bn_bwd(x, dy, dx, gm, m, is, dg, db, c, n);
    rc = rc || D16->bn_bwd(dX, dDY, dDX, dG, dP, dP + c, dP + 2 * c, dP + 3 * c, c, n) || down16(t, dDX, e, bf);
    CHECK(!rc && rel(t, dx, e) < 5 * tol, "%s bn_bwd: %.3g", bf ? "bf16" : "fp16", rc ? -1 : rel(t, dx, e));
    H->maxpool_fwd(x, y, arg, &g);
    rc = rc || D16->maxpool_fwd(dX, dY, dA, &g) || down16(t, dY, out, bf);
    CHECK(!rc && rel(t, y, out) == 0, "%s maxpool_fwd: the same maxima", bf ? "bf16" : "fp16");
    H->im2col(x, col, &g);
    rc = rc || D16->im2col(dX, dC, &g) || down16(t, dC, cols, bf);
    CHECK(!rc && rel(t, col, cols) == 0, "%s im2col: the same elements", bf ? "bf16" : "fp16");
    H->col2im(col, dx, &g, 0);
    rc = rc || D16->col2im(dC, dDX, &g, 0) || down16(t, dDX, e, bf);
    CHECK(!rc && rel(t, dx, e) < tol, "%s col2im: %.3g", bf ? "bf16" : "fp16", rc ? -1 : rel(t, dx, e));
    memcpy(y, x, e * 4);
    H->relu_fwd(y, e), H->add(y, dy, e);
    rc = rc || D16->relu_fwd(dX, e) || D16->add(dX, dDY, e) || down16(t, dX, e, bf);
    CHECK(!rc && rel(t, y, e) < tol, "%s relu + add: %.3g", bf ? "bf16" : "fp16", rc ? -1 : rel(t, y, e));
    kern_dev_free(dX), kern_dev_free(dDY), kern_dev_free(dY), kern_dev_free(dDX), kern_dev_free(dC);
    kern_dev_free(dG), kern_dev_free(dB), kern_dev_free(dP), kern_dev_free(dA);
    free(x), free(dy), free(gm), free(bt), free(y), free(dx), free(t), free(col), free(arg);
}

/* A span around a 256 MB fill on the compute stream: close returns 0 at once, collect (after a mark)
 * a positive time of the right kind; a fence recorded after the fill and waited for here lets a copy
 * on another stream read the filled tail (without the fence that copy could run before the fill). */
static void test_span_fence(void)
{
    size_t n = (size_t)64 << 20;
    void *d = NULL;
    kern_stream *other = NULL, *cs = kern_dev_compute_stream();
    kern_fence *f = NULL;
    float tail[4] = { 0 };
    double g = 0, o = 0, now = -1;
    int rc = kern_dev_alloc(&d, n * 4) || kern_stream_create(&other) || kern_fence_create(&f) || !f ||
             kern_dev_memset(d, 0, n * 4, cs) || kern_stream_sync(cs) || kern_span_collect(NULL, NULL);
    if (!rc) {
        kern_span sp = kern_span_open();
        rc = kern_fill_device(d, n, 1.0f, cs);
        now = kern_span_close(sp, KERN_SPAN_OTHER);
    }
    rc = rc || kern_fence_record(f) || kern_fence_wait(f) ||
         kern_dev_copy(tail, (float *)d + n - 4, sizeof tail, other) || kern_stream_sync(other);
    (void)kern_compute_mark();
    rc = rc || kern_span_collect(&g, &o);
    CHECK(!rc, "spans and fences: %s", kern_dev_last_error());
    CHECK(now == 0 && o > 0 && g == 0, "span: close %g s at once, collected other %g s, gemm %g s", now, o, g);
    int same = 1;
    for (int i = 0; i < 4; i++) same &= tail[i] == (float)((int)((n - 4 + i) % 13) - 6);
    CHECK(!rc && same, "fence: the copy on another stream read the fill's tail (%g %g %g %g)", tail[0], tail[1],
          tail[2], tail[3]);
    kern_fence_free(f);
    kern_stream_free(other);
    kern_dev_free(d);
}

/* Inception's windows: 1x7 / 7x1 im2col and col2im, 3x3/1 windowed average pooling, copy; bit for bit. */
static void test_inception_windows(int c, int b, int h, int w)
{
    for (int v = 0; v < 3; v++) {
        kern_window g;
        int kh = v == 0 ? 1 : v == 1 ? 7 : 3, kw = v == 0 ? 7 : v == 1 ? 1 : 3, ph = kh / 2, pw = kw / 2;
        if (kern_window_make2(&g, c, b, h, w, kh, kw, 1, ph, pw)) return;
        size_t in = (size_t)kern_window_in(&g), out = (size_t)kern_window_out(&g), cols = (size_t)kern_window_cols(&g);
        float *x = randv(in), *dy = randv(out > cols ? out : cols), *y = malloc(cols * 4), *t = malloc(cols * 4),
              *dx = malloc(in * 4);
        float *dX = up(x, in * 4), *dDY = up(dy, cols * 4), *dY = up(NULL, cols * 4), *dDX = up(NULL, in * 4);
        int rc = !dX || !dDY || !dY || !dDX;
        if (v < 2) {
            H->im2col(x, y, &g), H->col2im(dy, dx, &g, 0);
            rc = rc || D->im2col(dX, dY, &g) || down(t, dY, cols * 4);
            CHECK(!rc && !memcmp(t, y, cols * 4), "im2col %dx%d", kh, kw);
            rc = rc || D->col2im(dDY, dDX, &g, 0) || down(t, dDX, in * 4);
            CHECK(!rc && !memcmp(t, dx, in * 4), "col2im %dx%d", kh, kw);
        } else {
            H->avgpool_win_fwd(x, y, &g), H->avgpool_win_bwd(dy, dx, &g);
            rc = rc || D->avgpool_win_fwd(dX, dY, &g) || down(t, dY, out * 4);
            CHECK(!rc && !memcmp(t, y, out * 4), "avgpool_win_fwd 3x3/1");
            rc = rc || D->avgpool_win_bwd(dDY, dDX, &g) || down(t, dDX, in * 4);
            CHECK(!rc && !memcmp(t, dx, in * 4), "avgpool_win_bwd 3x3/1");
            rc = rc || D->copy(dY, dX, in) || down(t, dY, in * 4);
            CHECK(!rc && !memcmp(t, x, in * 4), "copy");
        }
        kern_dev_free(dX), kern_dev_free(dDY), kern_dev_free(dY), kern_dev_free(dDX);
        free(x), free(dy), free(y), free(t), free(dx);
    }
}

int main(int argc, char **argv)
{
    int n = 0;
    (void)argc, (void)argv;
    if (kern_dev_count(&n) != KERN_DEV_OK || n == 0) {
        printf("SKIP: no CUDA device (%s)\n0 passed, 0 failed\n", kern_dev_last_error());
        return 0;
    }
    CHECK(kern_dev_select(0) == KERN_DEV_OK && kern_gemm_init() == KERN_GEMM_OK, "device 0: %s", kern_dev_last_error());
    D = kern_layers_device();
    CHECK(D != NULL, "kern_layers_device: a table once the compute stream exists");
    if (!D) return TEST_REPORT();
    printf("# %s\n", kern_dev_name());
    test_bn(3, 1037);
    test_bn(64, 2 * 112 * 112 + 3); /* many slices per channel, atomics across blocks */
    test_bn(2048, 49);              /* one slice per channel */
    test_elementwise(1);
    test_elementwise(8192 * 256 + 17);
    test_pools(3, 2, 13, 10);
    test_pools(64, 2, 112, 112);
    test_im2col(3, 2, 37, 35, 7, 2, 3);
    test_im2col(16, 3, 14, 14, 3, 1, 1);
    test_im2col(8, 2, 15, 13, 3, 2, 1);
    test_im2col(32, 2, 16, 16, 1, 2, 0);
    test_im2col(2, 1, 2, 2, 3, 1, 1);
    test_inception_windows(5, 2, 17, 17);
    test_storage16(1);
    test_storage16(0);
    test_span_fence();
    return TEST_REPORT();
}
