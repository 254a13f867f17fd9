/* perf_layer.h — the price of one layer's pass, the one pricer of compute: the α-β-γ model
 * (perf_step.c: `model train`, `study`, `advise`) and the simulation's compute injection (trainer.c
 * under SMPI, when the profile has the compute model's keys or --images-per-s is given) both call it,
 * so the two agree by construction (tests/test_perf_layer.c).
 *
 * A layer's pass: its GEMMs (conv and FC: forward; backward the weight gradient, then the data gradient
 * where the layer needs one), each priced by kern_price_gemm (kernels/price.h: tiles and waves over the
 * SMs against its operand bytes, plus a kernel's fixed cost); with --compute full also its memory-bound
 * kernels (model_bytes.h) at the memory rate, one kernel per kind of work the layer does in the pass,
 * activations at the precision's bytes (half of float32's for fp16 and bf16). Fused (cuDNN's conv + batch
 * norm + ReLU, as MLPerf's code runs them): the batch norm, ReLU and im2col/col2im passes vanish with
 * their kernels; residual adds, pools, copies and biases stay. Every time x scale (--images-per-s).
 * Without the profile's compute-model keys the price is the linear one of before: 2mnk / rate and
 * bytes / rate, bit for bit. */
#ifndef HARN_PERF_LAYER_H
#define HARN_PERF_LAYER_H

#include "model.h"
#include "price.h"
#include "profile.h"

#include <stddef.h>

typedef struct layer_price {
    kern_price k;     /* rates, tile model, kernel cost */
    int full;         /* --compute full: the layer's memory-bound kernels too */
    int fused;        /* profile.h's fused: PROFILE_UNFUSED .. PROFILE_NORMCONV */
    int bn_held;      /* batch-norm kernels of their own read each tensor once (profile.h's bn_held) */
    double act;       /* activation bytes per float32 byte: 1 (fp32) or 0.5 (fp16, bf16) */
    double scale;     /* every layer's time (and SGD's) x scale: --images-per-s; 1 = none */
} layer_price;

/* The pricer of rates gemm_gflops (1e9 flop/s) and mem_gbps (1e9 B/s), with the compute-model keys of
 * profile shape (precision's bytes, fused, kernel costs, tiles; NULL: none). scale 1 = none. */
void perf_layer_make(double gemm_gflops, double mem_gbps, int full, const profile *shape, double scale,
                     layer_price *lp);
/* 1 when shape has any compute-model key (then the simulation injects compute per layer). */
int perf_layer_shaped(const profile *shape);
/* Seconds of layer l's pass (backward 0: forward, 1: backward): in its GEMMs, in its other kernels. */
void perf_layer(const model *m, int l, int backward, const layer_price *lp, double *gemm_s, double *mem_s);
/* Seconds of m's whole forward (backward 0) or backward (1) pass, every layer's GEMMs and other kernels, x
 * scale; *kernels (when not NULL): how many kernels the pass launches, each paying lp's kernel cost. */
double perf_layer_pass(const model *m, const layer_price *lp, int backward, int *kernels);
/* SGD's seconds over every parameter at sgd_gbps (1e9 B/s): with momentum (full) or plain (12 bytes a
 * parameter), x scale. */
double perf_layer_sgd(const model *m, const layer_price *lp, double sgd_gbps);
/* One GPU's whole step of m (forward, backward, SGD; no communication, no jitter): seconds. */
double perf_layer_step(const model *m, const layer_price *lp, double sgd_gbps);

/* --images-per-s R@B: a user's measured single-GPU rate R images/s (> 0, decimal) at batch B (a whole
 * number >= 1). 0, or 2 with why ("expected R@B ...") in why. */
int perf_layer_pin_parse(const char *s, double *images_per_s, long *batch, char *why, size_t len);
/* The scale that pins the compute to that rate: the one-GPU step of model_name (image size image) at
 * batch B priced by lp (its scale ignored) is B / R seconds once every layer's and SGD's time is x scale.
 * A figure so used is an input, not a prediction (docs/SOURCES.md §16). 0, or 2 with err. */
int perf_layer_pin_scale(const char *model_name, int image, double images_per_s, long batch, const layer_price *lp,
                         double sgd_gbps, double *scale, char *err, size_t errlen);

#endif
