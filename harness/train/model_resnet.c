/* model_resnet.c — ResNet-50/101 (torchvision v1.5: stride on the 3×3 conv of the bottleneck)
 * written as a model description (docs/MODELS.md) from the stage table: stem 7×7/2 conv 64 + BN +
 * ReLU + 3×3/2 maxpool; four stages of bottlenecks (1×1 width, 3×3 width stride s, 1×1 4·width,
 * each + BN), the first block of each stage with a 1×1/s conv + BN downsample on the shortcut, the
 * block's add + ReLU; global average pool; FC with bias. model_file.c builds the layers from it;
 * tests/test_model_file.c holds them to the dumps of the C builder this text replaced. */
#include "model_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPANSION 4
#define STAGES 4
#define LINE_BYTES 160 /* the longest line written, with room */

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

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    if (!t->s || t->len + LINE_BYTES > t->cap) return;
    va_start(ap, fmt);
    t->len += (size_t)vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
}

/* One bottleneck named prefix (layer2.0), reading `in` (in_c channels); its output is `prefix`. */
static void bottleneck(text *t, const char *prefix, const char *in, int in_c, int width, int stride, int downsample)
{
    put(t, "conv %s.conv1 in=%s cin=%d out=%d k=1\n", prefix, in, in_c, width);
    put(t, "bn %s.bn1 relu\n", prefix);
    put(t, "conv %s.conv2 out=%d k=3 s=%d p=1\n", prefix, width, stride);
    put(t, "bn %s.bn2 relu\n", prefix);
    put(t, "conv %s.conv3 out=%d k=1\n", prefix, width * EXPANSION);
    put(t, "bn %s.bn3\n", prefix);
    if (downsample) {
        put(t, "conv %s.downsample.0 in=%s out=%d k=1 s=%d\n", prefix, in, width * EXPANSION, stride);
        put(t, "bn %s.downsample.1\n", prefix);
        put(t, "add %s in=%s.bn3,%s.downsample.1 relu\n", prefix, prefix, prefix);
    } else {
        put(t, "add %s in=%s.bn3,%s relu\n", prefix, prefix, in);
    }
}

char *model_resnet_text(const char *name)
{
    const resnet_def *def = NULL;
    int nblocks = 0, c = 64;
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        if (name && !strcmp(name, defs[i].name)) def = &defs[i];
    if (!def) return NULL;
    for (int s = 0; s < STAGES; s++) nblocks += def->blocks[s];
    text t = { .cap = (size_t)(12 * nblocks + 16) * LINE_BYTES };
    if (!(t.s = malloc(t.cap))) return NULL;
    t.s[0] = '\0';
    put(&t, "# %s: torchvision's ResNet v1.5 (He et al. 2016; the stride on the bottleneck's 3x3 conv), "
            "%d classes\n", def->name, def->classes);
    put(&t, "conv conv1 in=image cin=3 out=64 k=7 s=2 p=3\n");
    put(&t, "bn bn1 relu\n");
    put(&t, "pool maxpool max k=3 s=2 p=1\n");
    char prev[24] = "maxpool";
    for (int s = 0; s < STAGES; s++)
        for (int b = 0; b < def->blocks[s]; b++) {
            char prefix[24];
            snprintf(prefix, sizeof prefix, "layer%d.%d", s + 1, b);
            bottleneck(&t, prefix, prev, c, stage_width[s], b == 0 ? stage_stride[s] : 1, b == 0);
            c = stage_width[s] * EXPANSION;
            snprintf(prev, sizeof prev, "%s", prefix);
        }
    put(&t, "pool avgpool avg global\n");
    put(&t, "fc fc cin=%d out=%d\n", c, def->classes);
    return t.s;
}
