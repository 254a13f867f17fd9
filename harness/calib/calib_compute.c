/* calib_compute.c — the device profile that `ddlbench calibrate` writes (calib_compute.h): this
 * machine's effective GEMM rate (kern_gemm_f32 on 1024^3, single BLAS thread), reduction cost
 * (kern_reduce float32 sum of two 64 MiB vectors, out of cache like a gradient bucket; and, for the
 * simulator's size-dependent cost, of vectors 64 KiB .. 64 MiB by 4x, summed again and again) and
 * memory-bound kernel rate (the layer kernels of the full step on a 64 MiB activation: batch norm
 * forward + ReLU, ReLU backward + batch norm backward, bytes as layers.h counts them), SGD's (momentum
 * updates of 64 MiB weights). Medians of several repetitions. No MPI; nothing printed. */
#include "calib_compute.h"
#include "gemm.h"
#include "layers.h"
#include "mem.h"
#include "reduce.h"
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define GEMM_N 1024
#define GEMM_REPS 7
#define RED_BYTES ((size_t)64 << 20)
#define RED_REPS 7

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Median GFLOP/s of GEMM_REPS 1024^3 GEMMs (after one warm-up). 0 on failure. */
static double measure_gemm(void)
{
    const size_t n = GEMM_N, bytes = n * n * sizeof(float);
    float *a = kern_buf_alloc(bytes), *b = kern_buf_alloc(bytes), *c = kern_buf_alloc(bytes);
    double t[GEMM_REPS], rate = 0;
    if (!a || !b || !c || kern_gemm_init()) goto out;
    for (size_t i = 0; i < n * n; i++) a[i] = b[i] = (float)(i % 7) * 0.25f, c[i] = 0;
    for (int r = -1; r < GEMM_REPS; r++) {
        double t0 = now();
        if (kern_gemm_f32(KERN_NOTRANS, KERN_NOTRANS, GEMM_N, GEMM_N, GEMM_N, 1.0f, a, GEMM_N, b, GEMM_N,
                          0.0f, c, GEMM_N))
            goto out;
        if (r >= 0) t[r] = now() - t0;
    }
    rate = kern_gemm_flops(GEMM_N, GEMM_N, GEMM_N) / stats_median(t, GEMM_REPS) / 1e9;
out:
    kern_buf_free(a);
    kern_buf_free(b);
    kern_buf_free(c);
    return rate;
}

/* Median ns per byte of one input vector for out = out + b, float32, on vectors of `bytes` bytes:
 * each timed sample sums them repeatedly for at least RED_BYTES in all, after one untimed pass, so a
 * vector that fits in the caches is summed from them (as an allreduce's, repeated on the same
 * buffers, is). -1 on failure. */
static double measure_reduce(size_t bytes)
{
    const size_t n = bytes / sizeof(float), passes = RED_BYTES / bytes ? RED_BYTES / bytes : 1;
    float *o = kern_buf_alloc(bytes), *b = kern_buf_alloc(bytes);
    double t[RED_REPS], ns = -1;
    if (!o || !b) goto out;
    for (size_t i = 0; i < n; i++) o[i] = (float)(i % 5), b[i] = 1.0f;
    for (int r = -1; r < RED_REPS; r++) {
        double t0 = now();
        for (size_t k = 0; k < passes; k++) kern_reduce(KERN_F32, KERN_SUM, o, o, b, n);
        if (r >= 0) t[r] = now() - t0;
    }
    ns = stats_median(t, RED_REPS) / ((double)bytes * (double)passes) * 1e9;
out:
    kern_buf_free(o);
    kern_buf_free(b);
    return ns;
}

/* The size-dependent reduction cost: vector sizes 64 KiB .. RED_BYTES by 4x (in L1/L2 .. the largest
 * a gradient bucket is). 0, or -1 on failure. */
static int measure_reduce_sizes(profile *pr)
{
    pr->reduce_points = 0;
    for (size_t b = (size_t)64 << 10; b <= RED_BYTES && pr->reduce_points < PROFILE_REDUCE_POINTS; b *= 4) {
        double ns = b == RED_BYTES ? pr->reduce_ns_per_byte : measure_reduce(b);
        if (ns < 0) return -1;
        pr->reduce_bytes[pr->reduce_points] = b, pr->reduce_ns[pr->reduce_points++] = ns;
    }
    return 0;
}

/* Median GB/s of the batch-norm + ReLU forward and backward kernels over 64 channels of 256 Ki floats
 * (64 MiB each array), the bytes counted by layers.h. 0 on failure. */
static double measure_mem(void)
{
    const int c = 64;
    const size_t n = (RED_BYTES / sizeof(float)) / c, e = (size_t)c * n;
    float *x = kern_buf_alloc(e * 4), *y = kern_buf_alloc(e * 4), *dy = kern_buf_alloc(e * 4),
          *dx = kern_buf_alloc(e * 4);
    float g[64], b[64], m[64], is[64], dg[64], db[64];
    const kern_layer_ops *k = &kern_layers_host;
    double t[RED_REPS], rate = 0;
    if (!x || !y || !dy || !dx) goto out;
    for (size_t i = 0; i < e; i++) x[i] = (float)(i % 17) - 8, dy[i] = (float)(i % 5) - 2;
    for (int i = 0; i < c; i++) g[i] = 1, b[i] = 0;
    double bytes = kern_bytes_bn_fwd(c, n) + kern_bytes_relu_fwd(e) + kern_bytes_relu_bwd(e) + kern_bytes_bn_bwd(c, n);
    for (int r = -1; r < RED_REPS; r++) {
        double t0 = now();
        k->bn_fwd(x, y, g, b, m, is, c, n, 1e-5f), k->relu_fwd(y, e);
        k->relu_bwd(y, dy, e), k->bn_bwd(x, dy, dx, g, m, is, dg, db, c, n);
        if (r >= 0) t[r] = now() - t0;
    }
    rate = bytes / stats_median(t, RED_REPS) / 1e9;
out:
    kern_buf_free(x), kern_buf_free(y), kern_buf_free(dy), kern_buf_free(dx);
    return rate;
}

/* Median GB/s of RED_REPS SGD momentum updates of RED_BYTES-byte weights (with momentum and gradient
 * arrays as large: out of cache, as a network's parameters), bytes as layers.h counts them: a
 * streaming kernel, faster per byte than batch norm's passes, so an SGD priced at mem_gbps is too slow
 * (measured: docs/BENCHMARKS.md, "Notes moved from code comments"). 0 on failure. */
static double measure_sgd(void)
{
    const size_t n = RED_BYTES / sizeof(float);
    float *w = kern_buf_alloc(RED_BYTES), *v = kern_buf_alloc(RED_BYTES), *g = kern_buf_alloc(RED_BYTES);
    double t[RED_REPS], rate = 0;
    if (!w || !v || !g) goto out;
    for (size_t i = 0; i < n; i++) w[i] = 0.01f * (float)(i % 13), v[i] = 0, g[i] = 0.001f * (float)(i % 7);
    for (int r = -1; r < RED_REPS; r++) {
        double t0 = now();
        if (kern_layers_host.sgd_momentum(w, v, g, 0.01f, 0.9f, 1e-4f, n)) goto out;
        if (r >= 0) t[r] = now() - t0;
    }
    rate = kern_bytes_sgd_momentum((double)n) / stats_median(t, RED_REPS) / 1e9;
out:
    kern_buf_free(w), kern_buf_free(v), kern_buf_free(g);
    return rate;
}

int calib_compute_profile(profile *pr)
{
    pr->gemm_gflops_fp32 = measure_gemm();
    pr->reduce_ns_per_byte = measure_reduce(RED_BYTES);
    pr->mem_gbps = measure_mem();
    pr->sgd_gbps = measure_sgd();
    if (!(pr->gemm_gflops_fp32 > 0) || pr->reduce_ns_per_byte < 0 || !(pr->mem_gbps > 0) || !(pr->sgd_gbps > 0) ||
        measure_reduce_sizes(pr))
        return 1;
    pr->gemm_gflops_fp16 = pr->gemm_gflops_fp32;
    return 0;
}

void calib_compute_header(char *header, size_t len)
{
    snprintf(
        header, len,
        "local — measured by `ddlbench calibrate` on this machine.\n"
        "gemm_gflops_fp32: median of %d single-precision %dx%dx%d GEMMs, backend: %.300s\n"
        "gemm_gflops_fp16: no half-precision GEMM on the CPU: the fp32 rate\n"
        "reduce_ns_per_byte: median of %d float32 sums out = out + b of %zu MiB vectors\n"
        "reduce_ns_per_byte_at_SIZE: the same on SIZE-byte vectors, summed repeatedly (from cache where they fit)\n"
        "mem_gbps: median of %d batch norm + ReLU forward and backward passes over %zu MiB activations\n"
        "sgd_gbps: median of %d SGD momentum updates of %zu MiB weights (weights, momentum, gradients)",
        GEMM_REPS, GEMM_N, GEMM_N, GEMM_N, kern_gemm_backend(), RED_REPS, RED_BYTES >> 20, RED_REPS, RED_BYTES >> 20,
        RED_REPS, RED_BYTES >> 20);
}
