/* model_resnet.c — ResNet-50/101 (torchvision v1.5: stride on the 3×3 conv of the bottleneck) built
 * from the stage table: stem 7×7/2 conv 64 + BN + 3×3/2 maxpool; four stages of bottlenecks
 * (1×1 width, 3×3 width stride s, 1×1 4·width, each + BN), the first block of each stage with a
 * 1×1/s conv + BN downsample on the shortcut; global average pool; FC with bias.
 * Shapes follow PyTorch's floor((H + 2p − k)/s) + 1. See model.h for the GEMM conventions. */
#include "model.h"
#include "gemm.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPANSION 4
#define STAGES 4
#define MAX_IMAGE 65536 /* keeps batch × H × W within long long; int GEMM sizes are checked too */

typedef struct resnet_def {
    const char *name;
    int blocks[STAGES]; /* bottlenecks per stage */
    int classes;
} resnet_def;

static const resnet_def defs[] = {
    { "resnet50", { 3, 4, 6, 3 }, 1000 },
    { "resnet101", { 3, 4, 23, 3 }, 1000 },
    { "resnet101-22k", { 3, 4, 23, 3 }, 21841 }, /* ImageNet-22K (fall 2011): 21,841 classes */
};
static const int stage_width[STAGES] = { 64, 128, 256, 512 };
static const int stage_stride[STAGES] = { 1, 2, 2, 2 };
enum { STEM_CHANNELS = 64, STEM_STRIDE = 2, POOL_STRIDE = 2 };

struct model {
    const resnet_def *def;
    int batch, image_size;
    model_layer *layers;
    model_tensor *tensors;
    int nlayers, ntensors, cap_layers, cap_tensors;
    int c, h, w; /* activation shape at the builder's cursor */
    int cur;     /* layer that produced it (-1: the image) */
    long long params, macs, max_tensor;
};

static char last_error[256];

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

const char *model_last_error(void) { return last_error; }
const char *model_names(void) { return "resnet50, resnet101, resnet101-22k"; }

static long long out_size(long long in, int k, int s, int p) { return (in + 2LL * p - k) / s + 1; }

/* Appends a layer reading the cursor shape; the caller fills kind-specific fields. */
static model_layer *add_layer(model *m, model_kind kind, const char *name)
{
    if (m->nlayers == m->cap_layers) return NULL;
    model_layer *l = &m->layers[m->nlayers++];
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", name);
    l->kind = kind;
    l->in_c = m->c, l->in_h = m->h, l->in_w = m->w;
    l->kh = l->kw = l->stride = 1;
    l->tensor0 = m->ntensors;
    l->src = m->cur;
    l->res_into = l->res_from = -1;
    m->cur = m->nlayers - 1;
    return l;
}

static int add_tensor(model *m, model_layer *l, const char *suffix, long long numel)
{
    if (m->ntensors == m->cap_tensors) return fail(MODEL_ENOMEM, "model: tensor table full (internal error)");
    model_tensor *t = &m->tensors[m->ntensors++];
    snprintf(t->name, sizeof t->name, "%s.%s", l->name, suffix);
    t->numel = numel;
    t->layer = (int)(l - m->layers);
    l->ntensors++;
    l->params += numel;
    m->params += numel;
    if (numel > m->max_tensor) m->max_tensor = numel;
    return MODEL_OK;
}

/* The three GEMMs of model.h for M = out channels, N = batch × spatial, K = in × window. */
static int set_gemms(model *m, model_layer *l, long long M, long long N, long long K)
{
    if (N > INT_MAX || K > INT_MAX || M > INT_MAX)
        return fail(MODEL_EARG, "--batch %d x --image-size %d: GEMM dimension N = %lld of %s exceeds %d; expected a smaller batch or image",
                    m->batch, m->image_size, N, l->name, INT_MAX);
    model_gemm *g = l->gemm;
    g[MODEL_FWD] = (model_gemm){ KERN_NOTRANS, KERN_NOTRANS, (int)M, (int)N, (int)K };
    g[MODEL_BWD_DATA] = (model_gemm){ KERN_TRANS, KERN_NOTRANS, (int)K, (int)N, (int)M };
    g[MODEL_BWD_WEIGHT] = (model_gemm){ KERN_NOTRANS, KERN_TRANS, (int)M, (int)K, (int)N };
    l->macs = M * K * (N / m->batch);
    m->macs += l->macs;
    l->data_grad_needed = m->nlayers > 1; /* the stem conv's input is the image */
    return MODEL_OK;
}

static int add_conv(model *m, const char *name, int out_c, int k, int stride, int pad)
{
    model_layer *l = add_layer(m, MODEL_CONV, name);
    if (!l) return fail(MODEL_ENOMEM, "model: layer table full (internal error)");
    long long oh = out_size(m->h, k, stride, pad), ow = out_size(m->w, k, stride, pad);
    l->kh = l->kw = k, l->stride = stride, l->pad = pad;
    l->out_c = out_c, l->out_h = (int)oh, l->out_w = (int)ow;
    long long K = (long long)m->c * k * k;
    int rc = add_tensor(m, l, "weight", out_c * K);
    if (!rc) rc = set_gemms(m, l, out_c, m->batch * oh * ow, K);
    m->c = out_c, m->h = (int)oh, m->w = (int)ow;
    return rc;
}

static int add_bn(model *m, const char *name, int relu)
{
    model_layer *l = add_layer(m, MODEL_BN, name);
    if (!l) return fail(MODEL_ENOMEM, "model: layer table full (internal error)");
    l->out_c = m->c, l->out_h = m->h, l->out_w = m->w;
    l->relu = relu;
    int rc = add_tensor(m, l, "weight", m->c); /* scale γ */
    return rc ? rc : add_tensor(m, l, "bias", m->c); /* shift β */
}

static int add_pool(model *m, const char *name, int k, int stride, int pad, int avg)
{
    model_layer *l = add_layer(m, MODEL_POOL, name);
    if (!l) return fail(MODEL_ENOMEM, "model: layer table full (internal error)");
    l->kh = l->kw = k, l->stride = stride, l->pad = pad, l->avg = avg;
    m->h = (int)out_size(m->h, k, stride, pad), m->w = (int)out_size(m->w, k, stride, pad);
    l->out_c = m->c, l->out_h = m->h, l->out_w = m->w;
    return MODEL_OK;
}

static int add_fc(model *m, int classes)
{
    model_layer *l = add_layer(m, MODEL_FC, "fc");
    if (!l) return fail(MODEL_ENOMEM, "model: layer table full (internal error)");
    l->out_c = classes, l->out_h = l->out_w = 1;
    int rc = add_tensor(m, l, "weight", (long long)classes * m->c);
    if (!rc) rc = add_tensor(m, l, "bias", classes);
    if (!rc) rc = set_gemms(m, l, classes, m->batch, m->c);
    m->c = classes;
    return rc;
}

/* One bottleneck: conv1/bn1 1×1, conv2/bn2 3×3 stride, conv3/bn3 1×1 ×4, optional downsample. */
static int add_bottleneck(model *m, const char *prefix, int width, int stride, int downsample)
{
    int in_c = m->c, in_h = m->h, in_w = m->w, in_layer = m->cur, rc = MODEL_OK;
    char name[40];
    static const struct { int k, mult, pad; } convs[3] = { { 1, 1, 0 }, { 3, 1, 1 }, { 1, EXPANSION, 0 } };
    for (int i = 0; i < 3 && !rc; i++) {
        snprintf(name, sizeof name, "%s.conv%d", prefix, i + 1);
        rc = add_conv(m, name, width * convs[i].mult, convs[i].k, i == 1 ? stride : 1, convs[i].pad);
        snprintf(name, sizeof name, "%s.bn%d", prefix, i + 1);
        if (!rc) rc = add_bn(m, name, i < 2);
    }
    int bn3 = m->nlayers - 1;
    if (!rc && !downsample) { /* identity shortcut: bn3 += the block's input, ReLU */
        m->layers[bn3].res_into = bn3, m->layers[bn3].res_from = in_layer;
    }
    if (rc || !downsample) return rc;
    int out_c = m->c, out_h = m->h, out_w = m->w;
    m->c = in_c, m->h = in_h, m->w = in_w, m->cur = in_layer; /* the shortcut reads the block's input */
    snprintf(name, sizeof name, "%s.downsample.0", prefix);
    rc = add_conv(m, name, width * EXPANSION, 1, stride, 0);
    snprintf(name, sizeof name, "%s.downsample.1", prefix);
    if (!rc) rc = add_bn(m, name, 0);
    if (!rc && (m->c != out_c || m->h != out_h || m->w != out_w))
        return fail(MODEL_EARG, "model: %s shortcut %dx%dx%d does not match the main path %dx%dx%d (internal error)",
                    prefix, m->c, m->h, m->w, out_c, out_h, out_w);
    if (!rc) { /* bn3 += downsample.1, ReLU, after both; the block's output is bn3's */
        m->layers[m->nlayers - 1].res_into = bn3, m->layers[m->nlayers - 1].res_from = m->nlayers - 1;
        m->cur = bn3;
    }
    return rc;
}

static int build_layers(model *m)
{
    int rc = add_conv(m, "conv1", STEM_CHANNELS, 7, STEM_STRIDE, 3);
    if (!rc) rc = add_bn(m, "bn1", 1);
    if (!rc) rc = add_pool(m, "maxpool", 3, POOL_STRIDE, 1, 0);
    for (int s = 0; s < STAGES && !rc; s++) {
        for (int b = 0; b < m->def->blocks[s] && !rc; b++) {
            char prefix[24];
            snprintf(prefix, sizeof prefix, "layer%d.%d", s + 1, b);
            rc = add_bottleneck(m, prefix, stage_width[s], b == 0 ? stage_stride[s] : 1, b == 0);
        }
    }
    if (!rc) rc = add_pool(m, "avgpool", m->h, 1, 0, 1); /* adaptive average pool to 1×1 */
    if (!rc) rc = add_fc(m, m->def->classes);
    return rc;
}

static int check_args(const resnet_def *def, int batch, int image_size)
{
    int total_stride = STEM_STRIDE * POOL_STRIDE;
    for (int s = 0; s < STAGES; s++) total_stride *= stage_stride[s];
    if (batch < 1) return fail(MODEL_EARG, "--batch %d: expected a positive integer", batch);
    if (image_size < total_stride)
        return fail(MODEL_EARG, "--image-size %d: too small for %s: expected at least %d (the network's total stride), "
                    "so that the final feature map covers at least 1x1 pixels", image_size, def->name, total_stride);
    if (image_size > MAX_IMAGE)
        return fail(MODEL_EARG, "--image-size %d: too large; expected at most %d", image_size, MAX_IMAGE);
    return MODEL_OK;
}

int model_build(const char *name, int batch, int image_size, model **out)
{
    const resnet_def *def = NULL;
    model *m = NULL;
    int rc = MODEL_OK, nblocks = 0;
    *out = NULL;
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (name && !strcmp(name, defs[i].name)) def = &defs[i];
    if (!def) return fail(MODEL_EARG, "--model \"%s\": unknown; expected one of %s", name ? name : "(null)", model_names());
    if ((rc = check_args(def, batch, image_size))) return rc;
    for (int s = 0; s < STAGES; s++) nblocks += def->blocks[s];
    m = calloc(1, sizeof *m);
    if (!m) return fail(MODEL_ENOMEM, "model: out of memory");
    m->def = def, m->batch = batch, m->image_size = image_size;
    m->cap_layers = 3 + 6 * nblocks + 2 * STAGES + 2;  /* stem, blocks, downsamples, avgpool + fc */
    m->cap_tensors = 3 + 9 * nblocks + 3 * STAGES + 2;
    m->layers = calloc((size_t)m->cap_layers, sizeof *m->layers);
    m->tensors = calloc((size_t)m->cap_tensors, sizeof *m->tensors);
    if (!m->layers || !m->tensors) {
        rc = fail(MODEL_ENOMEM, "model: out of memory");
        goto out;
    }
    m->c = 3, m->h = m->w = image_size, m->cur = -1;
    rc = build_layers(m);
out:
    if (rc) model_free(m);
    else *out = m;
    return rc;
}

void model_free(model *m)
{
    if (!m) return;
    free(m->layers);
    free(m->tensors);
    free(m);
}

const char *model_name(const model *m) { return m->def->name; }
int model_batch(const model *m) { return m->batch; }
int model_image_size(const model *m) { return m->image_size; }
int model_layer_count(const model *m) { return m->nlayers; }
int model_tensor_count(const model *m) { return m->ntensors; }
long long model_param_count(const model *m) { return m->params; }
long long model_max_tensor(const model *m) { return m->max_tensor; }
long long model_fwd_macs(const model *m) { return m->macs; }

const model_layer *model_layer_at(const model *m, int i)
{
    return i >= 0 && i < m->nlayers ? &m->layers[i] : NULL;
}

const model_tensor *model_tensor_at(const model *m, int t)
{
    return t >= 0 && t < m->ntensors ? &m->tensors[t] : NULL;
}
