/* test_model.c — the ResNet tables against torchvision's published totals (parameters, tensors,
 * largest tensors, forward MACs per 224² image), GEMM shapes and transposes, shape bookkeeping
 * through the blocks, non-224 image sizes, and rejected inputs. */
#include "gemm.h"
#include "model.h"
#include "model_bytes.h"
#include "test.h"

#include <math.h>
#include <string.h>

static char merr[512]; /* model_create's message */

static const model_tensor *find_tensor(const model *m, const char *name)
{
    for (int t = 0; t < model_tensor_count(m); t++)
        if (!strcmp(model_tensor_at(m, t)->name, name)) return model_tensor_at(m, t);
    return NULL;
}

static const model_layer *find_layer(const model *m, const char *name)
{
    for (int i = 0; i < model_layer_count(m); i++)
        if (!strcmp(model_layer_at(m, i)->name, name)) return model_layer_at(m, i);
    return NULL;
}

static void test_totals(void)
{
    static const struct { const char *name; long long params; int tensors; double gmacs; long long max; } want[] = {
        { "resnet50", 25557032, 161, 4.089, 2359296 },
        { "resnet101", 44549160, 314, 7.801, 2359296 },
        { "resnet101-22k", 87252369, 314, -1, 21841LL * 2048 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        model *m = NULL;
        int rc = model_create(want[i].name, 1, 224, &m, merr, sizeof merr);
        CHECK(rc == MODEL_OK && m, "%s: build failed: %s", want[i].name, merr);
        if (!m) continue;
        CHECK(model_param_count(m) == want[i].params, "%s: %lld params, expected %lld", want[i].name,
              model_param_count(m), want[i].params);
        CHECK(model_tensor_count(m) == want[i].tensors, "%s: %d tensors, expected %d", want[i].name,
              model_tensor_count(m), want[i].tensors);
        CHECK(model_max_tensor(m) == want[i].max, "%s: largest tensor %lld, expected %lld", want[i].name,
              model_max_tensor(m), want[i].max);
        if (want[i].gmacs > 0) /* 4 significant digits */
            CHECK(fabs(model_fwd_macs(m) / 1e9 - want[i].gmacs) < 0.0005, "%s: %.6f GMACs, expected %.3f",
                  want[i].name, model_fwd_macs(m) / 1e9, want[i].gmacs);
        long long sum = 0, layer_sum = 0, macs = 0;
        for (int t = 0; t < model_tensor_count(m); t++) sum += model_tensor_at(m, t)->numel;
        for (int l = 0; l < model_layer_count(m); l++) layer_sum += model_layer_at(m, l)->params;
        for (int l = 0; l < model_layer_count(m); l++) macs += model_layer_at(m, l)->macs;
        CHECK(sum == model_param_count(m) && layer_sum == sum, "%s: tensor/layer sums disagree", want[i].name);
        CHECK(macs == model_fwd_macs(m), "%s: layer MACs do not add up", want[i].name);
        CHECK(!strcmp(model_name(m), want[i].name), "model_name");
        model_free(m);
    }
}

static void test_resnet50_tensors(void)
{
    model *m = NULL;
    if (model_create("resnet50", 32, 224, &m, merr, sizeof merr)) {
        CHECK(0, "resnet50 build: %s", merr);
        return;
    }
    const model_tensor *fc = find_tensor(m, "fc.weight"), *big = find_tensor(m, "layer4.0.conv2.weight");
    CHECK(fc && fc->numel == 2048000, "fc.weight should have 2,048,000 elements");
    CHECK(big && big->numel == 2359296, "layer4.0.conv2.weight should have 3x3x512x512 = 2,359,296");
    CHECK(!strcmp(model_tensor_at(m, 0)->name, "conv1.weight") && model_tensor_at(m, 0)->numel == 9408,
          "first tensor conv1.weight 64x3x7x7");
    CHECK(!strcmp(model_tensor_at(m, 1)->name, "bn1.weight") && !strcmp(model_tensor_at(m, 2)->name, "bn1.bias"),
          "BN scale and shift are separate tensors, in that order");
    CHECK(!strcmp(model_tensor_at(m, 160)->name, "fc.bias") && model_tensor_at(m, 160)->numel == 1000, "last fc.bias");
    const model_tensor *t = find_tensor(m, "layer3.4.conv2.weight");
    CHECK(t && t->numel == 256 * 256 * 9, "layer3.4.conv2.weight");
    CHECK(find_tensor(m, "layer1.0.downsample.0.weight") && find_tensor(m, "layer4.0.downsample.1.bias") &&
          !find_tensor(m, "layer1.1.downsample.0.weight") && !find_tensor(m, "layer3.6.conv1.weight"),
          "downsample only on the first block of each stage; layer3 has 6 blocks");
    /* torchvision order inside a first block: conv1 bn1 conv2 bn2 conv3 bn3 downsample.0 downsample.1 */
    const model_tensor *bn3 = find_tensor(m, "layer2.0.bn3.bias"), *ds = find_tensor(m, "layer2.0.downsample.0.weight");
    CHECK(bn3 && ds && ds == bn3 + 1, "downsample tensors follow bn3");
    int convs = 0, bns = 0, fcs = 0;
    for (int l = 0; l < model_layer_count(m); l++) {
        model_kind k = model_layer_at(m, l)->kind;
        convs += k == MODEL_CONV, bns += k == MODEL_BN, fcs += k == MODEL_FC;
    }
    CHECK(convs == 53 && bns == 53 && fcs == 1, "resnet50: %d convs, %d BNs, %d FC; expected 53, 53, 1", convs, bns,
          fcs);
    CHECK(model_layer_at(m, -1) == NULL && model_layer_at(m, model_layer_count(m)) == NULL &&
          model_tensor_at(m, 161) == NULL, "out-of-range accessors return NULL");
    model_free(m);
}

static void check_gemm(const model_layer *l, int M, int N, int K)
{
    const model_gemm *g = l->gemm;
    CHECK(g[MODEL_FWD].m == M && g[MODEL_FWD].n == N && g[MODEL_FWD].k == K && !g[MODEL_FWD].transa &&
          !g[MODEL_FWD].transb, "%s fwd: got %d %d %d, expected %d %d %d", l->name, g[0].m, g[0].n, g[0].k, M, N, K);
    CHECK(g[MODEL_BWD_DATA].m == K && g[MODEL_BWD_DATA].n == N && g[MODEL_BWD_DATA].k == M &&
          g[MODEL_BWD_DATA].transa == KERN_TRANS && g[MODEL_BWD_DATA].transb == KERN_NOTRANS, "%s bwd data", l->name);
    CHECK(g[MODEL_BWD_WEIGHT].m == M && g[MODEL_BWD_WEIGHT].n == K && g[MODEL_BWD_WEIGHT].k == N &&
          g[MODEL_BWD_WEIGHT].transa == KERN_NOTRANS && g[MODEL_BWD_WEIGHT].transb == KERN_TRANS,
          "%s bwd weight", l->name);
}

static void test_gemm_shapes(void)
{
    model *m = NULL;
    if (model_create("resnet50", 32, 224, &m, merr, sizeof merr)) {
        CHECK(0, "resnet50 build: %s", merr);
        return;
    }
    const model_layer *l;
    if ((l = find_layer(m, "conv1"))) check_gemm(l, 64, 32 * 112 * 112, 3 * 49);
    if ((l = find_layer(m, "layer1.0.conv2"))) check_gemm(l, 64, 32 * 56 * 56, 64 * 9);
    if ((l = find_layer(m, "layer2.0.conv2"))) check_gemm(l, 128, 32 * 28 * 28, 128 * 9);
    if ((l = find_layer(m, "layer2.0.downsample.0"))) check_gemm(l, 512, 32 * 28 * 28, 256);
    if ((l = find_layer(m, "layer4.2.conv3"))) check_gemm(l, 2048, 32 * 7 * 7, 512);
    if ((l = find_layer(m, "fc"))) check_gemm(l, 1000, 32, 2048);
    CHECK(find_layer(m, "conv1") && !find_layer(m, "conv1")->data_grad_needed && find_layer(m, "fc") &&
          find_layer(m, "fc")->data_grad_needed, "only the stem conv skips the data gradient");
    double flops = 0;
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_gemm *g = &model_layer_at(m, i)->gemm[MODEL_FWD];
        flops += kern_gemm_flops(g->m, g->n, g->k);
    }
    CHECK(flops == 2.0 * 32 * model_fwd_macs(m), "forward GEMM flops at batch 32 = 2 x 32 x MACs per image");
    /* shapes chain: each layer reads what the previous one wrote, except a downsample conv, which reads
     * the block input (the output of the layer before the block's conv1) */
    int ok = 1;
    for (int i = 1; i < model_layer_count(m); i++) {
        const model_layer *cur = model_layer_at(m, i), *prev = model_layer_at(m, i - 1);
        if (strstr(cur->name, "downsample.0")) prev = model_layer_at(m, i - 7);
        ok &= cur->in_c == prev->out_c && cur->in_h == prev->out_h && cur->in_w == prev->out_w;
    }
    CHECK(ok, "activation shapes do not chain");
    model_free(m);
}

static void test_image_sizes(void)
{
    static const struct {
        int size, final;
    } cases[] = { { 224, 7 }, { 256, 8 }, { 32, 1 }, { 33, 2 }, { 100, 4 }, { 299, 10 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model *m = NULL;
        if (model_create("resnet101", 2, cases[i].size, &m, merr, sizeof merr)) {
            CHECK(0, "image %d: %s", cases[i].size, merr);
            continue;
        }
        const model_layer *pool = find_layer(m, "avgpool"), *fc = find_layer(m, "fc");
        CHECK(pool && pool->in_h == cases[i].final && pool->in_w == cases[i].final && pool->out_h == 1,
              "image %d: final map %dx%d, expected %dx%d", cases[i].size, pool ? pool->in_h : -1,
              pool ? pool->in_w : -1, cases[i].final, cases[i].final);
        CHECK(model_param_count(m) == 44549160, "parameters do not depend on the image size");
        CHECK(fc && fc->gemm[MODEL_FWD].n == 2, "fc N = batch");
        model_free(m);
    }
}

static void test_bad_inputs(void)
{
    static const struct { const char *name; int batch, size; const char *says; } cases[] = {
        { "resnet152", 1, 224, "resnet50, resnet101, resnet101-22k" },
        { NULL, 1, 224, "expected one of" },
        { "ResNet50", 1, 224, "unknown" },
        { "resnet50", 0, 224, "batch 0" },
        { "resnet50", -3, 224, "batch -3" },
        { "resnet50", 1, 16, "at least 32" },
        { "resnet101", 1, 31, "--image-size 31" },
        { "resnet50", 1, 0, "too small" },
        { "resnet50", 1, 100000, "too large" },
        { "resnet50", 1000000, 224, "exceeds" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model *m = (model *)&m; /* must be reset to NULL */
        int rc = model_create(cases[i].name, cases[i].batch, cases[i].size, &m, merr, sizeof merr);
        CHECK(rc == MODEL_EARG && m == NULL && strstr(merr, cases[i].says),
              "case %zu (%s, %d, %d): rc %d, message \"%s\", expected to mention \"%s\"", i,
              cases[i].name ? cases[i].name : "NULL", cases[i].batch, cases[i].size, rc, merr,
              cases[i].says);
    }
    model_free(NULL);
}

/* The data flow (src, relu, residual) and the non-GEMM bytes of model_bytes.c, counted by hand. */
static void test_flow_and_bytes(void)
{
    model *m = NULL;
    if (model_create("resnet50", 2, 64, &m, merr, sizeof merr)) {
        CHECK(0, "resnet50 build: %s", merr);
        return;
    }
    int i1 = -1, ip = -1, ib = -1, id = -1, ic = -1;
    for (int i = 0; i < model_layer_count(m); i++) {
        const char *n = model_layer_at(m, i)->name;
        if (!strcmp(n, "bn1")) i1 = i;
        if (!strcmp(n, "maxpool")) ip = i;
        if (!strcmp(n, "layer1.0.bn3")) ib = i;
        if (!strcmp(n, "layer1.0.downsample.1")) id = i;
        if (!strcmp(n, "layer1.1.conv1")) ic = i;
    }
    const model_layer *bn1 = model_layer_at(m, i1), *pool = model_layer_at(m, ip), *ds = model_layer_at(m, id);
    CHECK(bn1 && bn1->relu && bn1->src == 0 && model_layer_at(m, 0)->src == -1,
          "stem: conv1 reads the image, bn1 + ReLU");
    CHECK(pool && !pool->avg && pool->src == i1, "maxpool reads bn1");
    CHECK(ds && ds->res_into == ib && ds->res_from == id && model_layer_at(m, id - 1)->src == ip,
          "layer1.0: downsample.0 reads the block input, bn3 += downsample.1 after it");
    CHECK(ic >= 0 && model_layer_at(m, ic)->src == ib, "layer1.1.conv1 reads layer1.0's output (bn3)");
    /* bn1: 64 channels x (2 x 32 x 32): 12 + 8 bytes forward, 20 + 12 backward per element */
    double e = 64.0 * 2 * 32 * 32;
    CHECK(model_mem_bytes(m, i1, MODEL_FWD) == 20 * e && model_mem_bytes(m, i1, 1) == 32 * e, "bn1 bytes");
    /* maxpool 3x3/2: in 32x32, out 16x16: input + values + indices */
    CHECK(model_mem_bytes(m, ip, MODEL_FWD) == 4 * (e + 2 * e / 4), "maxpool bytes");
    /* the stem conv 7x7/2: im2col forward; backward im2col again, no col2im (no data gradient) */
    double cols = 3.0 * 49 * 2 * 32 * 32, in = 3.0 * 2 * 64 * 64;
    CHECK(model_mem_bytes(m, 0, MODEL_FWD) == 4 * (in + cols) && model_mem_bytes(m, 0, 1) == 4 * (in + cols),
          "stem conv");
    CHECK(model_mem_bytes(m, ic, MODEL_FWD) == 0, "1x1 stride-1 conv: no im2col");
    /* downsample.1 ends the block: BN + add + ReLU over 256 x 2 x 16 x 16 */
    double o = 256.0 * 2 * 16 * 16;
    CHECK(model_mem_bytes(m, id, MODEL_FWD) == 12 * o + 12 * o + 8 * o, "block end: BN + add + ReLU");
    double k[MODEL_MEM_KINDS], sum = 0, layers = model_sgd_bytes(m);
    model_mem_by_kind(m, k);
    for (int j = 0; j < MODEL_MEM_KINDS; j++) sum += k[j];
    for (int i = 0; i < model_layer_count(m); i++)
        layers += model_mem_bytes(m, i, MODEL_FWD) + model_mem_bytes(m, i, 1);
    CHECK(fabs(sum - layers) < 1e-6 * sum && k[MODEL_MEM_SGD] == 20.0 * model_param_count(m), "bytes by kind add up");
    CHECK(!strcmp(model_mem_kind_name(MODEL_MEM_IM2COL), "im2col_col2im"), "kind names");
    model_free(m);
}

int main(void)
{
    test_flow_and_bytes();
    test_totals();
    test_resnet50_tensors();
    test_gemm_shapes();
    test_image_sizes();
    test_bad_inputs();
    return TEST_REPORT();
}
