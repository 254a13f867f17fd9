/* layers_xfmr_sim.c — the simulation backend of xfmr.h: no data touched; each call issues its bytes
 * (kern_xf_bytes_*) at the profile's memory rate on the compute clock, as layers_sim.c does. */
#include "compute.h"
#include "sim.h"
#include "xfmr.h"

static int charge(double bytes)
{
    double gbps = kern_sim_mem_gbps();
    if (!(gbps > 0)) return -1;
    kern_compute_issue(bytes / (gbps * 1e9));
    return 0;
}

static int embed_fwd(const int32_t *ids, const float *table, float *y, int c, size_t n)
{
    (void)ids, (void)table, (void)y;
    return charge(kern_xf_bytes_embed_fwd((double)c * n, (double)n));
}
static int embed_bwd(const int32_t *ids, const float *dy, float *dtable, int c, size_t n)
{
    (void)ids, (void)dy, (void)dtable;
    return charge(kern_xf_bytes_embed_bwd((double)c * n));
}
static int pos_fwd(const float *x, const float *table, float *y, int c, int L, size_t n, int segment)
{
    (void)x, (void)table, (void)y, (void)L, (void)segment;
    return charge(kern_xf_bytes_pos_fwd((double)c * n));
}
static int pos_bwd(const float *dy, float *dtable, int c, int L, size_t n, int segment)
{
    (void)dy, (void)dtable, (void)L, (void)segment;
    return charge(kern_xf_bytes_pos_bwd((double)c * n));
}
static int norm_fwd(const float *x, float *y, const float *gamma, const float *beta, float *mu, float *r, int c,
                    size_t n, float eps, int rms)
{
    (void)x, (void)y, (void)gamma, (void)beta, (void)mu, (void)r, (void)eps, (void)rms;
    return charge(kern_xf_bytes_norm_fwd((double)c * n));
}
static int norm_bwd(const float *x, const float *dy, float *dx, const float *gamma, const float *mu, const float *r,
                    float *dgamma, float *dbeta, int c, size_t n, int rms)
{
    (void)x, (void)dy, (void)dx, (void)gamma, (void)mu, (void)r, (void)dgamma, (void)dbeta, (void)rms;
    return charge(kern_xf_bytes_norm_bwd((double)c * n));
}
static int act_fwd(const float *x, float *y, int act, int c, size_t n)
{
    (void)x, (void)y;
    return charge(kern_xf_bytes_act_fwd((double)c * n, act));
}
static int act_bwd(const float *x, const float *dy, float *dx, int act, int c, size_t n)
{
    (void)x, (void)dy, (void)dx;
    return charge(kern_xf_bytes_act_bwd((double)c * n, act));
}
static double head(const kern_attn *a) { return (double)a->L * a->dh; }
static int attn_split(const float *qkv, float *q, float *k, float *v, const kern_attn *a, int b, int h)
{
    (void)qkv, (void)q, (void)k, (void)v, (void)b, (void)h;
    return charge(kern_xf_bytes_split(head(a)));
}
static int attn_merge(const float *o, float *y, const kern_attn *a, int b, int h)
{
    (void)o, (void)y, (void)b, (void)h;
    return charge(kern_xf_bytes_merge(head(a)));
}
static int attn_scatter(const float *dq, const float *dk, const float *dv, float *dqkv, const kern_attn *a, int b,
                        int h)
{
    (void)dq, (void)dk, (void)dv, (void)dqkv, (void)b, (void)h;
    return charge(kern_xf_bytes_scatter(head(a)));
}
static int softmax_fwd(float *s, const kern_attn *a)
{
    (void)s;
    return charge(kern_xf_bytes_softmax_fwd((double)a->L * a->L));
}
static int softmax_bwd(const float *p, float *dp, const kern_attn *a)
{
    (void)p, (void)dp;
    return charge(kern_xf_bytes_softmax_bwd((double)a->L * a->L));
}
static int first_gather(const float *x, float *col, int c, int L, int batch)
{
    (void)x, (void)col, (void)L;
    return charge(kern_xf_bytes_first((double)c * batch));
}
static int first_scatter(const float *col, float *dx, int c, int L, int batch, int add)
{
    (void)col, (void)dx;
    return charge(kern_xf_bytes_first((double)c * batch) + (add ? 0 : kern_xf_bytes_zero((double)c * batch * L)));
}
static int zero(float *y, size_t n)
{
    (void)y;
    return charge(kern_xf_bytes_zero((double)n));
}

const kern_xfmr_ops kern_xfmr_host = { embed_fwd,  embed_bwd,   pos_fwd,      pos_bwd,      norm_fwd,
                                       norm_bwd,   act_fwd,     act_bwd,      attn_split,   attn_merge,
                                       attn_merge, attn_scatter, softmax_fwd, softmax_bwd, first_gather,
                                       first_scatter, zero };
