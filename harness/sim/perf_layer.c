/* perf_layer.c — the price of one layer's pass (see perf_layer.h). */
#include "perf_layer.h"

#include "model_bytes.h"
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int whole(double v) { return v > 0 ? (int)v : 0; }

int perf_layer_shaped(const profile *s)
{
    return s && (s->precision != PROFILE_FP32 || s->fused > 0 || s->graphs > 0 || s->kernel_us > 0 ||
                 s->graph_kernel_us > 0 || s->sms > 0);
}

void perf_layer_make(double gemm_gflops, double mem_gbps, int full, const profile *shape, double scale,
                     layer_price *lp)
{
    int half = shape && shape->precision != PROFILE_FP32;
    *lp = (layer_price){ .k = { .flops = gemm_gflops * 1e9, .bytes = mem_gbps * 1e9, .elem = half ? 2 : 4 },
                         .full = full,
                         .act = half ? 0.5 : 1,
                         .scale = scale > 0 ? scale : 1 };
    if (!shape) return;
    lp->k.sms = whole(shape->sms), lp->k.tile = whole(shape->gemm_tile);
    lp->k.kernel_s = profile_kernel_s(shape);
    lp->fused = shape->fused > PROFILE_FUSED_MAX ? PROFILE_FUSED_MAX : shape->fused > 0 ? (int)shape->fused : 0;
    lp->bn_held = shape->bn_held > 0;
}

static double gemm(const layer_price *lp, const model_layer *L, int g)
{
    const model_gemm *x = &L->gemm[g];
    if (L->gemm_reps <= 0) return 0;
    if (L->gemm_reps == 1) return kern_price_gemm(&lp->k, x->m, x->n, x->k); /* conv, fc */
    /* attention: QKᵀ and AV, each one batched launch of batch·heads GEMMs of this shape, their tiles
     * side by side as rows of one GEMM (the per-GEMM B operands counted once: a small undercount) */
    double each = (double)(L->gemm_reps / 2), rows = each * x->m;
    if (rows <= 2e9) return 2 * kern_price_gemm(&lp->k, (int)rows, x->n, x->k);
    return (double)L->gemm_reps * kern_price_gemm(&lp->k, x->m, x->n, x->k);
}

/* The memory-bound kernels of layer l's pass: bytes at the precision's size, a kernel per kind. */
static double mem(const model *m, int l, int backward, const layer_price *lp)
{
    double k[MODEL_MEM_KINDS], bytes = 0;
    int kernels = 0;
    model_mem_bytes_kinds(m, l, backward ? 1 : MODEL_FWD, k);
    if (lp->fused == PROFILE_FUSED || (lp->fused == PROFILE_NORMCONV && !backward))
        k[MODEL_MEM_BN] = k[MODEL_MEM_RELU] = k[MODEL_MEM_IM2COL] = 0;
    if (lp->fused >= PROFILE_BN_APART) { /* implicit GEMM; the ReLU inside the batch norm's kernel */
        k[MODEL_MEM_IM2COL] = 0, k[MODEL_MEM_RELU] = k[MODEL_MEM_BN] > 0 ? 0 : k[MODEL_MEM_RELU];
        if (lp->bn_held) k[MODEL_MEM_BN] *= backward ? 3.0 / 5 : 2.0 / 3; /* each tensor read once */
    }
    for (int j = 0; j < MODEL_MEM_KINDS; j++) bytes += k[j], kernels += k[j] > 0;
    return kern_price_mem(&lp->k, bytes * lp->act, lp->k.kernel_s > 0 ? kernels : 0);
}

void perf_layer(const model *m, int l, int backward, const layer_price *lp, double *gemm_s, double *mem_s)
{
    const model_layer *L = model_layer_at(m, l);
    double g = !backward ? gemm(lp, L, MODEL_FWD)
                         : gemm(lp, L, MODEL_BWD_WEIGHT) + (L->data_grad_needed ? gemm(lp, L, MODEL_BWD_DATA) : 0);
    double b = lp->full ? mem(m, l, backward, lp) : 0;
    *gemm_s = lp->scale == 1 ? g : g * lp->scale;
    *mem_s = lp->scale == 1 ? b : b * lp->scale;
}

/* The pass's seconds at kernel cost kernel_s, scale 1. */
static double pass_at(const model *m, const layer_price *lp, int backward, double kernel_s)
{
    layer_price one = *lp;
    double t = 0, g, b;
    one.k.kernel_s = kernel_s, one.scale = 1;
    for (int l = 0; l < model_layer_count(m); l++) perf_layer(m, l, backward, &one, &g, &b), t += g + b;
    return t;
}

double perf_layer_pass(const model *m, const layer_price *lp, int backward, int *kernels)
{
    double t = pass_at(m, lp, backward, lp->k.kernel_s);
    /* the price is linear in the kernel cost: a second of it more per kernel adds the count in seconds */
    if (kernels) *kernels = (int)(pass_at(m, lp, backward, 1) - pass_at(m, lp, backward, 0) + 0.5);
    return lp->scale == 1 ? t : t * lp->scale;
}

double perf_layer_sgd(const model *m, const layer_price *lp, double sgd_gbps)
{
    double bytes = lp->full ? model_sgd_bytes(m) : 12.0 * (double)model_param_count(m);
    double s = bytes / (sgd_gbps * 1e9);
    return lp->scale == 1 ? s : s * lp->scale;
}

double perf_layer_step(const model *m, const layer_price *lp, double sgd_gbps)
{
    double t = 0, g, b;
    for (int pass = 0; pass < 2; pass++)
        for (int l = 0; l < model_layer_count(m); l++) perf_layer(m, l, pass, lp, &g, &b), t += g + b;
    return t + perf_layer_sgd(m, lp, sgd_gbps);
}

int perf_layer_pin_parse(const char *s, double *images_per_s, long *batch, char *why, size_t len)
{
    const char *at = s ? strchr(s, '@') : NULL;
    char rate[64], *end;
    if (at && (size_t)(at - s) < sizeof rate && at > s) {
        memcpy(rate, s, (size_t)(at - s));
        rate[at - s] = 0;
        double r = strtod(rate, &end);
        long b = strtol(at + 1, &end, 10);
        if (parse_decimal_len(rate) == strlen(rate) && r > 0 && r < 1e12 && at[1] >= '0' && at[1] <= '9' &&
            !*end && b >= 1 && b <= 1000000) {
            *images_per_s = r, *batch = b;
            return 0;
        }
    }
    snprintf(why, len, "expected R@B (a rate R > 0 images/s on one GPU at batch B >= 1, e.g. 7008@400), got "
             "\"%.40s\"", s ? s : "");
    return 2;
}

int perf_layer_pin_scale(const char *model_name, int image, double images_per_s, long batch, const layer_price *lp,
                         double sgd_gbps, double *scale, char *err, size_t errlen)
{
    model *m = NULL;
    layer_price one = *lp;
    char why[300];
    if (model_create(model_name, (int)batch, image, &m, why, sizeof why) != MODEL_OK)
        return snprintf(err, errlen, "--images-per-s: %s", why), 2;
    one.scale = 1;
    double t = perf_layer_step(m, &one, sgd_gbps);
    model_free(m);
    if (!(t > 0)) return snprintf(err, errlen, "--images-per-s: the model prices no compute at batch %ld", batch), 2;
    *scale = (double)batch / images_per_s / t;
    return 0;
}
