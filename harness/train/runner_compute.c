/* runner_compute.c — the compute model of a training run's options (runner.h): --images-per-s pinned to
 * a scale of every layer's time, and the one line that says how compute is priced. */
#include "runner.h"

#include "perf_layer.h"
#include "profile.h"

#include <stdio.h>

int train_pin_compute(train_opts *o, const profile *pr, char *err, size_t errlen)
{
    double rate;
    long batch;
    layer_price lp;
    char why[200];
    if (!o->images_per_s) return o->compute_scale = 0, 0;
    if (perf_layer_pin_parse(o->images_per_s, &rate, &batch, why, sizeof why))
        return snprintf(err, errlen, "--images-per-s: %s", why), 2;
    perf_layer_make(profile_gemm_gflops(pr), pr->mem_gbps, o->full, pr, 1, &lp);
    return perf_layer_pin_scale(o->model, (int)o->image, rate, batch, &lp, profile_sgd_gbps(pr), &o->compute_scale,
                                err, errlen);
}

const char *train_compute_model(const train_opts *o, const profile *pr, char *buf, size_t len)
{
    char tiles[64] = "";
    int n;
    if (pr->sms > 0) snprintf(tiles, sizeof tiles, ", %.0f-wide tiles on %.0f SMs", pr->gemm_tile, pr->sms);
    if (!perf_layer_shaped(pr))
        n = snprintf(buf, len, "linear, %s: GEMMs 2mnk at %.6g GFLOP/s, other kernels at %.6g GB/s",
                     profile_precision_name(pr->precision), profile_gemm_gflops(pr), pr->mem_gbps);
    else
        n = snprintf(buf, len, "per-layer roofline, %s at %.6g GFLOP/s and %.6g GB/s, %s, %.3g us a kernel%s%s",
                     profile_precision_name(pr->precision), profile_gemm_gflops(pr), pr->mem_gbps,
                     profile_fused_name(pr), profile_kernel_s(pr) * 1e6,
                     pr->graphs > 0 ? " (CUDA graphs)" : "", tiles);
    if (o->compute_scale > 0 && n > 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "; pinned by --images-per-s %s (every layer x%.4f): that rate is an "
                 "input, not a prediction", o->images_per_s, o->compute_scale);
    return buf;
}
