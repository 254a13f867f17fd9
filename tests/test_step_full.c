/* test_step_full.c — the full step's data flow (harness/train/step_full.c) on the CPU kernels:
 * the gradient-slot plan (every gradient written before it is read, residual shortcuts sharing the
 * block output's buffer, few slots), the buffer total guard.c counts, and an end-to-end gradient
 * check: a ResNet-50 forward and backward at batch 2, 64×64, whose weight, BN and bias gradients
 * must match central finite differences of the implied loss L = Σ dloss · logits. */
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

static const model_layer *find(const model *m, const char *name, int *idx)
{
    for (int i = 0; i < model_layer_count(m); i++)
        if (!strcmp(model_layer_at(m, i)->name, name)) return *idx = i, model_layer_at(m, i);
    return *idx = -1, NULL;
}

static void test_plan(void)
{
    model *m = NULL;
    if (model_create("resnet101", 4, 224, &m, merr, sizeof merr)) {
        CHECK(0, "build: %s", merr);
        return;
    }
    int n = model_layer_count(m), *gbuf = malloc(n * sizeof(int)), *slot = malloc(n * sizeof(int)), ns = 0, a, b, c, d;
    CHECK(step_full_plan(m, gbuf, slot, &ns) == 0, "plan of resnet101");
    CHECK(ns >= 2 && ns <= 6, "gradient slots: %d (expected a handful, not one per layer)", ns);
    find(m, "layer2.0.bn3", &a), find(m, "layer2.0.downsample.1", &b), find(m, "layer2.1.bn3", &c),
        find(m, "layer2.1.conv1", &d);
    CHECK(a >= 0 && b >= 0 && c >= 0 && gbuf[b] == gbuf[a] && gbuf[c] == gbuf[a] && slot[c] == slot[a],
          "a stage's shortcut gradients share the first block output's buffer");
    CHECK(d >= 0 && gbuf[d] != gbuf[a] && model_layer_at(m, d)->src == a, "conv1 of block 1 reads block 0's output");
    CHECK(slot[n - 1] == -1, "the classifier's output gradient is the loss buffer");
    const model_layer *L = find(m, "layer3.5.bn3", &a);
    CHECK(L && L->res_into == a && model_layer_at(m, L->res_from)->res_into >= 0,
          "identity block: bn3 += previous block output");
    L = find(m, "layer3.0.downsample.1", &b);
    CHECK(L && L->res_from == b && model_layer_at(m, L->res_into)->kind == MODEL_BN,
          "downsample block: bn3 += downsample.1");
    CHECK(find(m, "bn1", &a)->relu && !find(m, "layer1.0.bn3", &a)->relu && find(m, "layer1.0.bn2", &a)->relu,
          "ReLU flags");
    CHECK(step_full_bytes(m, KERN_STORE_F32) > 0 &&
              step_full_bytes(m, KERN_STORE_BF16) < 0.6 * step_full_bytes(m, KERN_STORE_F32),
          "layout: 2-byte activations take about half the bytes");
    free(gbuf), free(slot);
    model_free(m);
}

#define STEP_FULL_TEST_SEED 99u
#include "step_full_check.h"


/* Central difference of L in parameter i against the backward's gradient. Batch statistics over 8
 * values (layer4 at batch 2, 64x64) and ReLU kinks make L visibly curved: h = 1e-4 (relative) and
 * 10% agree (h = 1e-3 is off by up to 50% in the stem; a wrong gradient flow is off by far more). */
static void fd_check(step_full *f, float *params, const float *grads, size_t i, int n, size_t nout, const char *what)
{
    double fd = central_difference(f, params, i, n, nout, 1e-4f);
    CHECK(fabs(fd - grads[i]) <= 0.1 * fabs(grads[i]) + 1e-3, "%s: backward %.6g, finite difference %.6g", what,
          grads[i], fd);
}

/* Index of the largest |gradient| within tensor t (a well-conditioned probe). */
static size_t probe(const model *m, const size_t *off, const float *grads, int t)
{
    size_t best = off[t];
    for (size_t i = off[t]; i < off[t] + (size_t)model_tensor_at(m, t)->numel; i++)
        if (fabsf(grads[i]) > fabsf(grads[best])) best = i;
    return best;
}

static void test_gradients(void)
{
    model *m = NULL;
    step_full *f = NULL;
    char err[256] = "";
    if (model_create("resnet50", 2, 64, &m, merr, sizeof merr)) {
        CHECK(0, "build: %s", merr);
        return;
    }
    int nt = model_tensor_count(m), n = model_layer_count(m);
    size_t total = (size_t)model_param_count(m), *off = malloc(nt * sizeof *off), nout = 1000 * 2;
    float *params = malloc(total * 4), *grads = calloc(total, 4);
    for (int t = 0, o = 0; t < nt; o += (int)model_tensor_at(m, t)->numel, t++) off[t] = (size_t)o;
    for (int l = 0; l < n; l++) { /* He-scaled weights, BN γ ≈ 1, β ≈ 0 */
        const model_layer *L = model_layer_at(m, l);
        for (int k = 0; k < L->ntensors; k++) {
            int t = L->tensor0 + k;
            size_t cnt = (size_t)model_tensor_at(m, t)->numel;
            double fan = L->kind == MODEL_BN ? 1 : (double)cnt / L->out_c;
            for (size_t i = 0; i < cnt; i++)
                params[off[t] + i] = L->kind == MODEL_BN ? (k == 0 ? 1.0f + 0.2f * rnd() : 0.1f * rnd())
                                                         : (float)(rnd() * sqrt(3.0 / fan));
        }
    }
    step_full_io io = {
        m, &kern_layers_host, &step_mem_host, 1, params, grads, off, NULL, KERN_STORE_F32, gemm_cb, NULL, NULL, NULL,
        NULL
    };
    CHECK(step_full_create(&io, &f, err, sizeof err) == 0, "create: %s", err);
    if (!f) goto out;
    float *d = step_full_loss_grad(f);
    for (size_t i = 0; i < nout; i++) d[i] = rnd();
    double other = 0;
    int rc = step_full_forward(f, &other, ferr, sizeof ferr);
    step_full_begin_backward(f);
    for (int l = n - 1; l >= 0 && !rc; l--) rc = step_full_backward_layer(f, l, &other, ferr, sizeof ferr);
    CHECK(rc == 0, "forward and backward: %s", ferr);
    size_t bad = 0;
    for (size_t i = 0; i < total; i++) bad += !isfinite(grads[i]);
    CHECK(bad == 0 && other >= 0, "%zu non-finite gradients", bad);
    static const char *names[] = { "fc.bias", "fc.weight", "layer4.2.bn3.weight", "layer4.0.downsample.1.bias",
                                   "layer3.1.conv2.weight", "layer2.0.downsample.0.weight", "layer1.0.conv1.weight",
                                   "layer1.0.bn1.weight", "bn1.bias", "conv1.weight" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        int t = 0;
        while (t < nt && strcmp(model_tensor_at(m, t)->name, names[k])) t++;
        if (t == nt) {
            CHECK(0, "no tensor %s", names[k]);
            continue;
        }
        fd_check(f, params, grads, probe(m, off, grads, t), n, nout, names[k]);
    }
out:
    step_full_free(f);
    free(off), free(params), free(grads);
    model_free(m);
}

int main(void)
{
    test_plan();
    test_gradients();
    return TEST_REPORT();
}
