/* layers_sim.c — the simulation backend of layers.h's host table: no arithmetic, no data touched
 * (the operands are address space only, mem.h). Each call issues, on the rank's compute clock
 * (compute.h), the bytes the real kernel moves (layers.h, kern_bytes_*) times the profile's cost per
 * byte (sim.h: 1 / mem_gbps), as gemm_sim.c issues a GEMM's FLOPs at the profile's GEMM rate. */
#include "compute.h"
#include "layers.h"
#include "sim.h"
#include "xfmr.h"

static int charge(double bytes)
{
    double gbps = kern_sim_mem_gbps();
    if (!(gbps > 0)) return -1; /* no profile rate set */
    if (!kern_sim_layer_priced()) kern_compute_issue(bytes / (gbps * 1e9)); /* else the trainer's (sim.h) */
    return 0;
}

static int bn_fwd(const float *x, float *y, const float *gamma, const float *beta, float *mean, float *invstd, int c,
                  size_t n, float eps)
{
    (void)x, (void)y, (void)gamma, (void)beta, (void)mean, (void)invstd, (void)eps;
    return charge(kern_bytes_bn_fwd(c, (double)n));
}

static int bn_bwd(const float *x, const float *dy, float *dx, const float *gamma, const float *mean,
                  const float *invstd, float *dgamma, float *dbeta, int c, size_t n)
{
    (void)x, (void)dy, (void)dx, (void)gamma, (void)mean, (void)invstd, (void)dgamma, (void)dbeta;
    return charge(kern_bytes_bn_bwd(c, (double)n));
}

static int relu_fwd(float *y, size_t n) { (void)y; return charge(kern_bytes_relu_fwd((double)n)); }
static int relu_bwd(const float *y, float *dy, size_t n)
{
    (void)y, (void)dy;
    return charge(kern_bytes_relu_bwd((double)n));
}
static int add(float *y, const float *x, size_t n) { (void)y, (void)x; return charge(kern_bytes_add((double)n)); }

static int maxpool_fwd(const float *x, float *y, int32_t *arg, const kern_window *g)
{
    (void)x, (void)y, (void)arg;
    return charge(kern_bytes_maxpool_fwd(g));
}

static int maxpool_bwd(const float *dy, const int32_t *arg, float *dx, const kern_window *g)
{
    (void)dy, (void)arg, (void)dx;
    return charge(kern_bytes_maxpool_bwd(g));
}

static int avgpool_fwd(const float *x, float *y, size_t planes, int hw)
{
    (void)x, (void)y;
    return charge(kern_bytes_avgpool((double)planes, hw));
}

static int avgpool_bwd(const float *dy, float *dx, size_t planes, int hw)
{
    (void)dy, (void)dx;
    return charge(kern_bytes_avgpool((double)planes, hw));
}

static int bias_fwd(float *y, const float *b, int c, size_t n)
{
    (void)y, (void)b;
    return charge(kern_bytes_bias_fwd(c, (double)n));
}
static int bias_bwd(const float *dy, float *db, int c, size_t n)
{
    (void)dy, (void)db;
    return charge(kern_bytes_bias_bwd(c, (double)n));
}
static int im2col(const float *x, float *col, const kern_window *g)
{
    (void)x, (void)col;
    return charge(kern_bytes_im2col(g));
}

static int col2im(const float *col, float *x, const kern_window *g, int accumulate)
{
    (void)col, (void)x;
    return charge(kern_bytes_col2im(g, accumulate));
}

static int sgd_momentum(float *w, float *v, const float *g, float lr, float mu, float wd, size_t n)
{
    (void)w, (void)v, (void)g, (void)lr, (void)mu, (void)wd;
    double gbps = kern_sim_sgd_gbps(); /* SGD's own rate where the profile has one, else mem_gbps */
    if (!(gbps > 0)) return -1;
    kern_compute_issue(kern_bytes_sgd_momentum((double)n) / (gbps * 1e9));
    return 0;
}

static int avgpool_win(const float *x, float *y, const kern_window *g)
{
    (void)x, (void)y;
    return charge(kern_bytes_avgpool_win(g));
}
static int copy(float *y, const float *x, size_t n) { (void)y, (void)x; return charge(kern_bytes_copy((double)n)); }

const kern_layer_ops kern_layers_host = { "simulated", bn_fwd, bn_bwd, relu_fwd, relu_bwd, add, maxpool_fwd,
                                          maxpool_bwd, avgpool_fwd, avgpool_bwd, bias_fwd, bias_bwd, im2col,
                                          col2im, sgd_momentum, avgpool_win, avgpool_win, copy,
                                          &kern_xfmr_host };
