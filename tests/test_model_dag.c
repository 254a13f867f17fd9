/* test_model_dag.c — a model file's other layer kinds through the full step (harness/train/step_full.c)
 * on the CPU kernels: a small DAG with asymmetric windows (1×3, 3×1), a conv bias, a windowed
 * average pool whose input a later conv also reads (the scratch gradient), a concat, a folded
 * residual add, a plain add, a max pool, dropout and an FC over a 4×4 map. Its weight, BN and bias
 * gradients must match central finite differences of the implied loss L = Σ dloss · output; and
 * the new kernels against direct loops: an asymmetric im2col, windowed average pooling, copy. */
#include "gemm.h"
#include "layers.h"
#include "model.h"
#include "model_bytes.h"
#include "step_full.h"
#include "step_mem.h"
#include "test.h"

static char merr[512], ferr[256]; /* model_create's and step_full's messages */

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char dag[] =
    "conv stem in=image cin=3 out=8 k=3 s=2 p=1 bias relu\n"
    "conv a1 in=stem out=6 k=1x3 p=0x1\n"
    "bn a1.bn relu\n"
    "pool p1 in=stem avg k=3 s=1 p=1   # read before b1: its gradient is added through the scratch slot\n"
    "conv p1c out=4 k=1\n"
    "conv b1 in=stem out=6 k=3x1 p=1x0\n"
    "concat cat in=a1.bn,p1c,b1\n"
    "conv r1 cin=16 out=16 k=3 p=1\n"
    "bn r1.bn\n"
    "add res in=r1.bn,cat relu         # folded: r1.bn += cat, ReLU\n"
    "conv x out=16 k=1\n"
    "add plain in=x,res                # no ReLU: an add layer\n"
    "pool mp max k=2 s=2\n"
    "dropout drop p=0.5\n"
    "fc fc1 cin=256 out=10 relu\n"
    "fc fc2 out=5\n";

#define STEP_FULL_TEST_SEED 7u
#include "step_full_check.h"


/* Tensor `name`'s largest-gradient element against a central difference (h relative 1e-3, 5%). */
static void fd_check(const model *m, step_full *f, float *params, const float *grads, const size_t *off,
                     const char *name)
{
    int t = 0, n = model_layer_count(m), nt = model_tensor_count(m);
    size_t nout = (size_t)model_out_elems(m, model_layer_at(m, n - 1));
    while (t < nt && strcmp(model_tensor_at(m, t)->name, name)) t++;
    if (t == nt) {
        CHECK(0, "no tensor %s", name);
        return;
    }
    size_t i = off[t];
    for (size_t j = off[t]; j < off[t] + (size_t)model_tensor_at(m, t)->numel; j++)
        if (fabsf(grads[j]) > fabsf(grads[i])) i = j;
    double fd = central_difference(f, params, i, n, nout, 1e-3f);
    CHECK(fabs(fd - grads[i]) <= 0.05 * fabs(grads[i]) + 1e-4, "%s: backward %.6g, finite difference %.6g", name,
          grads[i], fd);
}

static void test_dag_gradients(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/ddl_dag_%ld.txt", (long)getpid());
    FILE *tf = fopen(path, "w");
    model *m = NULL;
    step_full *f = NULL;
    char err[256] = "";
    CHECK(tf && fputs(dag, tf) >= 0, "temp file");
    if (tf) fclose(tf);
    int rc = model_create(path, 2, 16, &m, merr, sizeof merr);
    unlink(path);
    CHECK(rc == 0, "build: %s", merr);
    if (rc) return;
    int nt = model_tensor_count(m), n = model_layer_count(m), kinds[MODEL_KINDS] = { 0 };
    for (int l = 0; l < n; l++) kinds[model_layer_at(m, l)->kind]++;
    CHECK(n == 15 && kinds[MODEL_ADD] == 1 && kinds[MODEL_CONCAT] == 1 && kinds[MODEL_DROPOUT] == 1 &&
              kinds[MODEL_POOL] == 2,
          "layers: %d (the relu and the folded add are flags)", n);
    size_t total = (size_t)model_param_count(m), *off = malloc(nt * sizeof *off), nout = 5 * 2;
    float *params = malloc(total * 4), *grads = calloc(total, 4);
    for (int t = 0, o = 0; t < nt; o += (int)model_tensor_at(m, t)->numel, t++) off[t] = (size_t)o;
    for (int l = 0; l < n; l++) {
        const model_layer *L = model_layer_at(m, l);
        for (int k = 0; k < L->ntensors; k++) {
            size_t cnt = (size_t)model_tensor_at(m, L->tensor0 + k)->numel, o = off[L->tensor0 + k];
            double fan = L->kind == MODEL_BN ? 1 : (double)cnt / L->out_c;
            for (size_t i = 0; i < cnt; i++)
                params[o + i] = L->kind == MODEL_BN ? (k == 0 ? 1.0f + 0.2f * rnd() : 0.1f * rnd())
                                : k == 1        ? 0.1f * rnd()
                                                : (float)(rnd() * sqrt(3.0 / fan));
        }
    }
    step_full_io io = {
        m, &kern_layers_host, &step_mem_host, 1, params, grads, off, NULL, KERN_STORE_F32, gemm_cb, NULL, NULL, NULL,
        NULL
    };
    CHECK(step_full_create(&io, &f, err, sizeof err) == 0, "create: %s", err);
    if (f) {
        float *d = step_full_loss_grad(f);
        double other = 0;
        for (size_t i = 0; i < nout; i++) d[i] = rnd();
        rc = step_full_forward(f, &other, ferr, sizeof ferr);
        step_full_begin_backward(f);
        for (int l = n - 1; l >= 0 && !rc; l--) rc = step_full_backward_layer(f, l, &other, ferr, sizeof ferr);
        CHECK(rc == 0, "forward and backward: %s", ferr);
        static const char *names[] = { "fc2.weight",   "fc1.weight", "fc1.bias",    "x.weight",
                                       "r1.bn.weight", "r1.weight",  "b1.weight",   "p1c.weight",
                                       "a1.bn.bias",   "a1.weight",  "stem.weight", "stem.bias" };
        for (size_t k = 0; !rc && k < sizeof names / sizeof *names; k++) fd_check(m, f, params, grads, off, names[k]);
    }
    step_full_free(f);
    free(off), free(params), free(grads);
    model_free(m);
}

/* im2col of a 1×3 window (padding 0×1) and of a 3×1 (1×0), against the direct gather. */
static void test_asymmetric_im2col(void)
{
    enum { C = 2, B = 2, H = 5, W = 4 };
    float x[C * B * H * W], col[C * 3 * B * H * W];
    for (int i = 0; i < C * B * H * W; i++) x[i] = (float)(i % 17) - 8;
    for (int v = 0; v < 2; v++) {
        kern_window g;
        int kh = v ? 3 : 1, kw = v ? 1 : 3, ph = v ? 1 : 0, pw = v ? 0 : 1, bad = 0;
        CHECK(kern_window_make2(&g, C, B, H, W, kh, kw, 1, ph, pw) == 0 && g.oh == H && g.ow == W, "window %dx%d", kh,
              kw);
        kern_layers_host.im2col(x, col, &g);
        for (int c = 0; c < C; c++)
            for (int i = 0; i < kh; i++)
                for (int j = 0; j < kw; j++)
                    for (int b = 0; b < B; b++)
                        for (int oh = 0; oh < H; oh++)
                            for (int ow = 0; ow < W; ow++) {
                                int ih = oh - ph + i, iw = ow - pw + j;
                                float want =
                                    ih < 0 || ih >= H || iw < 0 || iw >= W ? 0 : x[((c * B + b) * H + ih) * W + iw];
                                bad += col[(((c * kh + i) * kw + j) * B + b) * H * W + oh * W + ow] != want;
                            }
        CHECK(bad == 0, "im2col %dx%d: %d wrong", kh, kw, bad);
    }
}

/* Windowed average pooling 3×3/1, padding 1 (count_include_pad), forward and its adjoint; copy. */
static void test_avgpool_window(void)
{
    enum { H = 4, W = 5, N = H * W };
    float x[N], y[N], dy[N], dx[N], c[N];
    kern_window g;
    for (int i = 0; i < N; i++) x[i] = (float)(i % 7), dy[i] = (float)(i % 5) - 2;
    kern_window_make(&g, 1, 1, H, W, 3, 1, 1);
    kern_layers_host.avgpool_win_fwd(x, y, &g);
    kern_layers_host.avgpool_win_bwd(dy, dx, &g);
    int bad = 0;
    double lhs = 0, rhs = 0; /* <dy, A x> = <Aᵀ dy, x> */
    for (int oh = 0; oh < H; oh++)
        for (int ow = 0; ow < W; ow++) {
            float s = 0;
            for (int i = -1; i <= 1; i++)
                for (int j = -1; j <= 1; j++)
                    if (oh + i >= 0 && oh + i < H && ow + j >= 0 && ow + j < W) s += x[(oh + i) * W + ow + j];
            bad += fabsf(y[oh * W + ow] - s / 9) > 1e-6f;
        }
    for (int i = 0; i < N; i++) lhs += (double)dy[i] * y[i], rhs += (double)dx[i] * x[i];
    CHECK(bad == 0 && fabs(lhs - rhs) < 1e-4, "windowed average pool: %d wrong, adjoint %g vs %g", bad, lhs, rhs);
    kern_layers_host.copy(c, x, N);
    CHECK(!memcmp(c, x, sizeof c), "copy");
}

int main(void)
{
    test_asymmetric_im2col();
    test_avgpool_window();
    test_dag_gradients();
    return TEST_REPORT();
}
