/* calib_model_time.c — `ddlbench model --time [--cold]`: every GEMM of a network run through the
 * linked backend (calib_model_time.h). */
#include "calib_model_time.h"
#include "gemm.h"
#include "mem.h"
#include "schedule.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --time buffers: W (M×K) weights / weight gradient, X (K×N) im2col input / data gradient,
 * Y (M×N) output / output gradient, each sized for the largest layer and reused. */
typedef struct gemm_bufs {
    float *w, *x, *y;
    float *dw; /* --cold: the weight gradient's own array (NULL: into w) */
} gemm_bufs;

static void fill(float *v, size_t n, float x)
{
    for (size_t i = 0; i < n; i++) v[i] = x;
}

/* Seconds of one run of the layer's GEMM `which` on b; < 0 on error. */
static double run_gemm(const model_layer *l, int which, const gemm_bufs *b)
{
    const model_gemm *g = &l->gemm[which];
    const float *A = which == MODEL_BWD_WEIGHT ? b->y : b->w;
    const float *B = which == MODEL_FWD ? b->x : which == MODEL_BWD_DATA ? b->y : b->x;
    float *C = which == MODEL_FWD ? b->y : which == MODEL_BWD_DATA ? b->x : b->dw ? b->dw : b->w;
    double t0 = now_s();
    if (kern_gemm_f32(g->transa, g->transb, g->m, g->n, g->k, 1.0f, A, g->transa ? g->m : g->k, B,
                      g->transb ? g->k : g->n, 0.0f, C, g->n)) return -1;
    return now_s() - t0;
}

/* Median seconds of `reps` runs (after one warm-up) of the layer's GEMM `which`; < 0 on error. */
static double time_gemm(const model_layer *l, int which, const gemm_bufs *b, long reps)
{
    double t[1000];
    for (long r = -1; r < reps; r++) {
        double d = run_gemm(l, which, b);
        if (d < 0) return -1;
        if (r >= 0) t[r] = d;
    }
    return stats_median(t, (size_t)reps);
}

/* Floats of the --time buffers: the largest M x K, K x N and M x N over the layers. */
void model_time_buf_sizes(const model *m, size_t *nw, size_t *nx, size_t *ny)
{
    *nw = *nx = *ny = 1;
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_gemm *g = &model_layer_at(m, i)->gemm[MODEL_FWD];
        size_t M = (size_t)g->m, N = (size_t)g->n, K = (size_t)g->k;
        *nw = M * K > *nw ? M * K : *nw, *nx = K * N > *nx ? K * N : *nx, *ny = M * N > *ny ? M * N : *ny;
    }
}

static int time_layers(const model *m, long reps, double *ms, char *err, size_t errlen)
{
    size_t nw, nx, ny;
    gemm_bufs b = { NULL, NULL, NULL, NULL };
    int rc = 1;
    model_time_buf_sizes(m, &nw, &nx, &ny);
    b.w = kern_buf_alloc(nw * sizeof(float)), b.x = kern_buf_alloc(nx * sizeof(float));
    b.y = kern_buf_alloc(ny * sizeof(float));
    if (!b.w || !b.x || !b.y) {
        snprintf(err, errlen, "--time: cannot allocate %.1f MB of GEMM buffers", (nw + nx + ny) * 4.0 / 1e6);
        goto out;
    }
    fill(b.w, nw, 0.01f), fill(b.x, nx, 0.01f), fill(b.y, ny, 0.01f);
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_layer *l = model_layer_at(m, i);
        ms[2 * i] = ms[2 * i + 1] = 0;
        if (l->kind != MODEL_CONV && l->kind != MODEL_FC) continue;
        double f = time_gemm(l, MODEL_FWD, &b, reps), w = time_gemm(l, MODEL_BWD_WEIGHT, &b, reps);
        double d = l->data_grad_needed ? time_gemm(l, MODEL_BWD_DATA, &b, reps) : 0;
        if (f < 0 || w < 0 || d < 0) {
            snprintf(err, errlen, "--time: GEMM of %s failed", l->name);
            goto out;
        }
        ms[2 * i] = f * 1e3, ms[2 * i + 1] = (w + d) * 1e3;
    }
    rc = 0;
out:
    kern_buf_free(b.w), kern_buf_free(b.x), kern_buf_free(b.y);
    return rc;
}

/* One pass of --cold: every layer on its own weights (off[i] into w and dw), times into t and pass. */
typedef struct cold_pass {
    const model *m;
    const gemm_bufs *b;
    const size_t *off;
    double *t, *pass; /* [layer][fwd, wgrad, dgrad][rep]; [rep] */
    long r, reps;     /* the pass (-1: the warm-up) */
} cold_pass;

/* sched_gemms' callback: 0, or the failed layer + 1. */
static int cold_gemm(void *a, int i, int which)
{
    cold_pass *c = a;
    gemm_bufs lb = { c->b->w + c->off[i], c->b->x, c->b->y, c->b->dw + c->off[i] };
    double d = run_gemm(model_layer_at(c->m, i), which, &lb);
    if (d < 0) return i + 1;
    if (c->r >= 0) c->t[((size_t)i * 3 + (size_t)which) * (size_t)c->reps + (size_t)c->r] = d, c->pass[c->r] += d;
    return 0;
}

/* --cold: as time_layers, but every layer has its own weights (one array of all of them, as the
 * trainer's parameters) and each pass runs the step's order, forward 0..L-1 then backward L-1..0;
 * one warm-up pass, then reps timed passes, the median per GEMM, scaled so that the GEMMs sum to the
 * median pass: with more processes than cores each GEMM's median is one that the scheduler left
 * alone, while a pass (and a training step) waits out its share of the core (with more processes
 * than cores the per-GEMM medians sum to well under the step's GEMMs: docs/BENCHMARKS.md, "Notes
 * moved from code comments"). */
static int time_layers_cold(const model *m, long reps, double *ms, char *err, size_t errlen)
{
    int nl = model_layer_count(m), rc = 1;
    size_t nw = 0, nx, ny, dummy, *off = calloc((size_t)nl, sizeof *off);
    double *t = calloc((size_t)nl * 3 * (size_t)reps, sizeof *t); /* [layer][fwd, wgrad, dgrad][rep] */
    double *pass = calloc((size_t)reps, sizeof *pass), sum = 0, scale = 1;
    gemm_bufs b = { NULL, NULL, NULL, NULL };
    model_time_buf_sizes(m, &dummy, &nx, &ny);
    for (int i = 0; i < nl; i++) {
        const model_gemm *g = &model_layer_at(m, i)->gemm[MODEL_FWD];
        off[i] = nw, nw += (size_t)g->m * (size_t)g->k;
    }
    b.w = kern_buf_alloc((nw ? nw : 1) * sizeof(float)), b.x = kern_buf_alloc(nx * sizeof(float));
    b.y = kern_buf_alloc(ny * sizeof(float)), b.dw = kern_buf_alloc((nw ? nw : 1) * sizeof(float));
    if (!off || !t || !pass || !b.w || !b.x || !b.y || !b.dw) {
        snprintf(err, errlen, "--time --cold: cannot allocate %.1f MB of GEMM buffers", (2 * nw + nx + ny) * 4.0 / 1e6);
        goto out;
    }
    fill(b.w, nw, 0.01f), fill(b.dw, nw, 0), fill(b.x, nx, 0.01f), fill(b.y, ny, 0.01f);
    cold_pass c = { m, &b, off, t, pass, -1, reps };
    for (c.r = -1; c.r < reps; c.r++) { /* the step's GEMM order (schedule.h) */
        int bad = sched_gemms(m, cold_gemm, &c);
        if (bad) {
            snprintf(err, errlen, "--time: GEMM of %s failed", model_layer_at(m, bad - 1)->name);
            goto out;
        }
    }
    for (int i = 0; i < nl; i++) {
        double med[3];
        for (int which = 0; which < 3; which++) {
            med[which] = stats_median(t + ((size_t)i * 3 + (size_t)which) * (size_t)reps, (size_t)reps);
        }
        ms[2 * i] = med[MODEL_FWD] * 1e3, ms[2 * i + 1] = (med[MODEL_BWD_WEIGHT] + med[MODEL_BWD_DATA]) * 1e3;
        sum += ms[2 * i] + ms[2 * i + 1];
    }
    if (sum > 0) scale = stats_median(pass, (size_t)reps) * 1e3 / sum;
    for (int i = 0; i < 2 * nl; i++) ms[i] *= scale;
    rc = 0;
out:
    kern_buf_free(b.w), kern_buf_free(b.x), kern_buf_free(b.y), kern_buf_free(b.dw);
    free(off), free(t), free(pass);
    return rc;
}

int model_time_layers(const model *m, long reps, int cold, double *ms, char *err, size_t errlen)
{
    *err = '\0';
    return cold ? time_layers_cold(m, reps, ms, err, errlen) : time_layers(m, reps, ms, err, errlen);
}
