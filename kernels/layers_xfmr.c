/* layers_xfmr.c — the real host backend of xfmr.h: plain loops, float64 sums for the norms and
 * softmax rows. */
#include "xfmr.h"

#include <math.h>
#include <string.h>

#define ROPE_BASE 10000.0

static int embed_fwd(const int32_t *ids, const float *table, float *y, int c, size_t n)
{
    for (int j = 0; j < c; j++)
        for (size_t t = 0; t < n; t++) y[(size_t)j * n + t] = table[(size_t)ids[t] * c + j];
    return 0;
}

static int embed_bwd(const int32_t *ids, const float *dy, float *dtable, int c, size_t n)
{
    for (int j = 0; j < c; j++)
        for (size_t t = 0; t < n; t++) dtable[(size_t)ids[t] * c + j] += dy[(size_t)j * n + t];
    return 0;
}

static int pos_fwd(const float *x, const float *table, float *y, int c, int L, size_t n, int segment)
{
    for (int j = 0; j < c; j++)
        for (size_t t = 0; t < n; t++)
            y[(size_t)j * n + t] = x[(size_t)j * n + t] + table[(segment ? 0 : t % (size_t)L) * c + j];
    return 0;
}

static int pos_bwd(const float *dy, float *dtable, int c, int L, size_t n, int segment)
{
    size_t rows = segment ? 1 : (size_t)L;
    for (int j = 0; j < c; j++)
        for (size_t p = 0; p < rows; p++) {
            double s = 0;
            for (size_t t = p; t < n; t += segment ? 1 : (size_t)L) s += dy[(size_t)j * n + t];
            dtable[p * c + j] = (float)s;
        }
    return 0;
}

static int norm_fwd(const float *x, float *y, const float *gamma, const float *beta, float *mu, float *r, int c,
                    size_t n, float eps, int rms)
{
    for (size_t t = 0; t < n; t++) {
        double s = 0, ss = 0;
        for (int j = 0; j < c; j++) {
            double v = x[(size_t)j * n + t];
            s += v, ss += v * v;
        }
        double m = rms ? 0 : s / c, var = ss / c - m * m;
        mu[t] = (float)m, r[t] = (float)(1.0 / sqrt((var > 0 ? var : 0) + eps));
        for (int j = 0; j < c; j++) {
            float xh = (x[(size_t)j * n + t] - mu[t]) * r[t];
            y[(size_t)j * n + t] = gamma[j] * xh + (rms ? 0.0f : beta[j]);
        }
    }
    return 0;
}

static int norm_bwd(const float *x, const float *dy, float *dx, const float *gamma, const float *mu, const float *r,
                    float *dgamma, float *dbeta, int c, size_t n, int rms)
{
    for (int j = 0; j < c; j++) {
        double dg = 0, db = 0;
        for (size_t t = 0; t < n; t++) {
            double d = dy[(size_t)j * n + t];
            dg += d * (x[(size_t)j * n + t] - mu[t]) * r[t], db += d;
        }
        dgamma[j] = (float)dg;
        if (!rms) dbeta[j] = (float)db;
    }
    for (size_t t = 0; t < n; t++) { /* dx = r·(g − mean(g)·[ln] − x̂·mean(g·x̂)), g = γ·dy */
        double sg = 0, sgx = 0;
        for (int j = 0; j < c; j++) {
            double g = (double)gamma[j] * dy[(size_t)j * n + t], xh = (x[(size_t)j * n + t] - mu[t]) * r[t];
            sg += g, sgx += g * xh;
        }
        for (int j = 0; j < c; j++) {
            double g = (double)gamma[j] * dy[(size_t)j * n + t], xh = (x[(size_t)j * n + t] - mu[t]) * r[t];
            dx[(size_t)j * n + t] = (float)(r[t] * (g - (rms ? 0 : sg / c) - xh * sgx / c));
        }
    }
    return 0;
}

static double gelu(double v, double *d) /* the tanh form (GPT-2's gelu_new, BERT's is the erf form) */
{
    const double k = 0.7978845608028654, a = 0.044715;
    double u = k * (v + a * v * v * v), th = tanh(u);
    *d = 0.5 * (1 + th) + 0.5 * v * (1 - th * th) * k * (1 + 3 * a * v * v);
    return 0.5 * v * (1 + th);
}

static int act_fwd(const float *x, float *y, int act, int c, size_t n)
{
    size_t e = (size_t)c * n;
    for (size_t i = 0; i < e; i++) {
        double d, v = x[i];
        if (act == KERN_ACT_GELU) y[i] = (float)gelu(v, &d);
        else if (act == KERN_ACT_TANH) y[i] = (float)tanh(v);
        else y[i] = (float)(v / (1 + exp(-v)) * x[e + i]);
    }
    return 0;
}

static int act_bwd(const float *x, const float *dy, float *dx, int act, int c, size_t n)
{
    size_t e = (size_t)c * n;
    for (size_t i = 0; i < e; i++) {
        double d, v = x[i];
        if (act == KERN_ACT_GELU) gelu(v, &d), dx[i] = (float)(dy[i] * d);
        else if (act == KERN_ACT_TANH) d = tanh(v), dx[i] = (float)(dy[i] * (1 - d * d));
        else {
            double s = 1 / (1 + exp(-v)), silu = v * s;
            dx[i] = (float)(dy[i] * x[e + i] * (s + v * s * (1 - s)));
            dx[e + i] = (float)(dy[i] * silu);
        }
    }
    return 0;
}

/* Rotate-half rotary position on row i of an L x dh matrix (sign -1: the inverse, for gradients). */
static void rope(float *m, const kern_attn *a, int sign)
{
    int half = a->dh / 2;
    for (int i = 0; i < a->L; i++)
        for (int d = 0; d < half; d++) {
            double th = i * pow(ROPE_BASE, -2.0 * d / a->dh), cs = cos(th), sn = sign * sin(th);
            float *p = m + (size_t)i * a->dh, x1 = p[d], x2 = p[d + half];
            p[d] = (float)(x1 * cs - x2 * sn), p[d + half] = (float)(x2 * cs + x1 * sn);
        }
}

/* Rows of head h's q, of its key/value group's k and v, in the packed map. */
static void rows_of(const kern_attn *a, int h, size_t *q, size_t *k, size_t *v)
{
    int g = h / (a->heads / a->kv);
    *q = (size_t)h * a->dh, *k = (size_t)(a->heads + g) * a->dh, *v = (size_t)(a->heads + a->kv + g) * a->dh;
}

static void take(const float *map, size_t row0, float *m, const kern_attn *a, int b)
{
    size_t n = (size_t)a->batch * a->L;
    for (int i = 0; i < a->L; i++)
        for (int d = 0; d < a->dh; d++) m[(size_t)i * a->dh + d] = map[(row0 + d) * n + (size_t)b * a->L + i];
}

static int attn_split(const float *qkv, float *q, float *k, float *v, const kern_attn *a, int b, int h)
{
    size_t rq, rk, rv;
    rows_of(a, h, &rq, &rk, &rv);
    take(qkv, rq, q, a, b), take(qkv, rk, k, a, b), take(qkv, rv, v, a, b);
    if (a->rope) rope(q, a, 1), rope(k, a, 1);
    return 0;
}

static int attn_merge(const float *o, float *y, const kern_attn *a, int b, int h)
{
    size_t n = (size_t)a->batch * a->L;
    for (int i = 0; i < a->L; i++)
        for (int d = 0; d < a->dh; d++)
            y[((size_t)h * a->dh + d) * n + (size_t)b * a->L + i] = o[(size_t)i * a->dh + d];
    return 0;
}

static int attn_gather_out(const float *dy, float *do_, const kern_attn *a, int b, int h)
{
    take(dy, (size_t)h * a->dh, do_, a, b);
    return 0;
}

static void put_add(const float *m, float *map, size_t row0, const kern_attn *a, int b)
{
    size_t n = (size_t)a->batch * a->L;
    for (int i = 0; i < a->L; i++)
        for (int d = 0; d < a->dh; d++) map[(row0 + d) * n + (size_t)b * a->L + i] += m[(size_t)i * a->dh + d];
}

static int attn_scatter(const float *dq, const float *dk, const float *dv, float *dqkv, const kern_attn *a, int b,
                        int h)
{
    size_t rq, rk, rv;
    rows_of(a, h, &rq, &rk, &rv);
    if (a->rope) rope((float *)dq, a, -1), rope((float *)dk, a, -1); /* the rotation's transpose */
    put_add(dq, dqkv, rq, a, b), put_add(dk, dqkv, rk, a, b), put_add(dv, dqkv, rv, a, b);
    return 0;
}

static int softmax_fwd(float *s, const kern_attn *a)
{
    double scale = 1.0 / sqrt((double)a->dh);
    for (int i = 0; i < a->L; i++) {
        float *row = s + (size_t)i * a->L;
        int last = a->causal ? i : a->L - 1;
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j <= last; j++) mx = fmax(mx, row[j] * scale);
        for (int j = 0; j <= last; j++) sum += exp(row[j] * scale - mx);
        for (int j = 0; j < a->L; j++) row[j] = j <= last ? (float)(exp(row[j] * scale - mx) / sum) : 0.0f;
    }
    return 0;
}

static int softmax_bwd(const float *p, float *dp, const kern_attn *a)
{
    double scale = 1.0 / sqrt((double)a->dh);
    for (int i = 0; i < a->L; i++) {
        const float *pr = p + (size_t)i * a->L;
        float *dr = dp + (size_t)i * a->L;
        double s = 0;
        for (int j = 0; j < a->L; j++) s += (double)pr[j] * dr[j];
        for (int j = 0; j < a->L; j++) dr[j] = (float)(pr[j] * (dr[j] - s) * scale);
    }
    return 0;
}

static int first_gather(const float *x, float *col, int c, int L, int batch)
{
    size_t n = (size_t)batch * L;
    for (int j = 0; j < c; j++)
        for (int b = 0; b < batch; b++) col[(size_t)j * batch + b] = x[(size_t)j * n + (size_t)b * L];
    return 0;
}

static int first_scatter(const float *col, float *dx, int c, int L, int batch, int add)
{
    size_t n = (size_t)batch * L;
    if (!add) memset(dx, 0, (size_t)c * n * sizeof *dx);
    for (int j = 0; j < c; j++)
        for (int b = 0; b < batch; b++) dx[(size_t)j * n + (size_t)b * L] += col[(size_t)j * batch + b];
    return 0;
}

static int zero(float *y, size_t n)
{
    memset(y, 0, n * sizeof *y);
    return 0;
}

const kern_xfmr_ops kern_xfmr_host = { embed_fwd,  embed_bwd,   pos_fwd,         pos_bwd,      norm_fwd,
                                       norm_bwd,   act_fwd,     act_bwd,         attn_split,   attn_merge,
                                       attn_gather_out, attn_scatter, softmax_fwd, softmax_bwd, first_gather,
                                       first_scatter, zero };
