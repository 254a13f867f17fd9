/* step_full_check.h — what the full-step tests share (test_step_full.c, test_model_dag.c): the GEMM
 * callback on the host BLAS, a seeded random source (STEP_FULL_TEST_SEED, defined before including
 * this), the loss whose gradient the finite-difference checks compare (sum of dL/dy · y over the
 * network's output, after a forward pass) and its central difference in one parameter. */
#ifndef TEST_STEP_FULL_CHECK_H
#define TEST_STEP_FULL_CHECK_H

#include "gemm.h"
#include "model.h"
#include "step_full.h"

#include <math.h>
#include <stddef.h>

static int gemm_cb(void *arg, const model_gemm *g, const void *a, const void *b, void *c, float beta, int c16)
{
    (void)arg;
    if (c16) return -1; /* float32 activations here */
    return kern_gemm_f32(g->transa, g->transb, g->m, g->n, g->k, 1.0f, a, g->transa ? g->m : g->k, b,
                         g->transb ? g->k : g->n, beta, c, g->n);
}

static unsigned seed = STEP_FULL_TEST_SEED;
static float rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static double loss(step_full *f, int n, size_t nout)
{
    double other = 0, l = 0;
    char why[256];
    if (step_full_forward(f, &other, why, sizeof why)) return NAN;
    const float *y = step_full_act(f, n - 1), *d = step_full_loss_grad(f);
    for (size_t i = 0; i < nout; i++) l += (double)d[i] * y[i];
    return l;
}

/* (L(p + h) − L(p − h)) / 2h in params[i], h = hrel relative (absolute below 0.1); params[i] restored. */
static double central_difference(step_full *f, float *params, size_t i, int n, size_t nout, float hrel)
{
    float keep = params[i], h = hrel * (fabsf(keep) > 0.1f ? fabsf(keep) * 10 : 1.0f);
    params[i] = keep + h;
    double lp = loss(f, n, nout);
    params[i] = keep - h;
    double lm = loss(f, n, nout);
    params[i] = keep;
    return (lp - lm) / (2.0 * h);
}

#endif
