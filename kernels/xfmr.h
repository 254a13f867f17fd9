/* xfmr.h — the memory-bound work of a transformer's training step (the GEMMs go through the
 * trainer's GEMM, as every other layer's do): token and position embeddings, layer and RMS norm,
 * GELU, tanh and SwiGLU, and attention's per-head pieces around its batched GEMMs (split of the
 * packed q, k, v with rotary positions, the scaled and masked softmax, the merge of the heads).
 * Sequences are CNHW maps: c channel rows of n = batch·L positions, position t = b·L + i.
 * Two backends under one table: layers_xfmr.c (real, host) and layers_xfmr_sim.c (simulated: each
 * call issues its bytes, as layers_sim.c does). Bytes (float32, 4 each) are the kern_xf_bytes_*
 * below, which harness/train/model_bytes.c also counts. The CUDA build has no device table
 * (kern_layer_ops.xfmr NULL): transformers there run with --compute gemm. */
#ifndef KERN_XFMR_H
#define KERN_XFMR_H

#include <stddef.h>
#include <stdint.h>

/* One attention layer: per sequence b and query head h, q, k, v are L x dh row-major matrices. */
typedef struct kern_attn {
    int batch, L, dh;   /* sequences, positions, head size */
    int heads, kv;      /* query heads, key/value heads (heads / kv query heads share one) */
    int causal, rope;   /* mask the future; rotary positions on q and k (rotate-half, base 10,000) */
} kern_attn;

enum { KERN_ACT_GELU, KERN_ACT_SWIGLU, KERN_ACT_TANH }; /* model.h's MODEL_ACT_* */

typedef struct kern_xfmr_ops {
    /* y[j·n + t] = table[ids[t]·c + j]; its gradient dtable[ids[t]·c + j] += dy[j·n + t] (adds) */
    int (*embed_fwd)(const int32_t *ids, const float *table, float *y, int c, size_t n);
    int (*embed_bwd)(const int32_t *ids, const float *dy, float *dtable, int c, size_t n);
    /* y = x + table row (t mod L, or 0 for segments); dtable = Σ of dy over the positions of a row (writes) */
    int (*pos_fwd)(const float *x, const float *table, float *y, int c, int L, size_t n, int segment);
    int (*pos_bwd)(const float *dy, float *dtable, int c, int L, size_t n, int segment);
    /* Per position over its c channels: layer norm y = γ·(x − μ)·r + β, r = 1/√(var + ε), or (rms)
     * y = γ·x·r, r = 1/√(mean(x²) + ε); saves μ (0 for rms) and r, n each. Backward writes dx and
     * dγ, dβ (dβ unused for rms). */
    int (*norm_fwd)(const float *x, float *y, const float *gamma, const float *beta, float *mu, float *r, int c,
                    size_t n, float eps, int rms);
    int (*norm_bwd)(const float *x, const float *dy, float *dx, const float *gamma, const float *mu, const float *r,
                    float *dgamma, float *dbeta, int c, size_t n, int rms);
    /* GELU (tanh form), tanh: c rows; SwiGLU: x has 2c rows, y = silu(x[0..c)) · x[c..2c). Backward
     * writes dx (2c rows for SwiGLU). */
    int (*act_fwd)(const float *x, float *y, int act, int c, size_t n);
    int (*act_bwd)(const float *x, const float *dy, float *dx, int act, int c, size_t n);
    /* Attention of sequence b, head h. split: q, k, v (L x dh) from the packed qkv map (rope applied);
     * merge: o (L x dh) into head h's rows of y; gather_out: head h's rows of dy into do_ (L x dh);
     * scatter: dq, dk, dv (rope undone) added into dqkv's rows. */
    int (*attn_split)(const float *qkv, float *q, float *k, float *v, const kern_attn *a, int b, int h);
    int (*attn_merge)(const float *o, float *y, const kern_attn *a, int b, int h);
    int (*attn_gather_out)(const float *dy, float *do_, const kern_attn *a, int b, int h);
    int (*attn_scatter)(const float *dq, const float *dk, const float *dv, float *dqkv, const kern_attn *a, int b,
                        int h);
    /* s (L x L) in place: scaled by 1/√dh, the future masked (causal), each row softmaxed; backward
     * dp := p ⊙ (dp − Σ_row p·dp) / √dh, in place. */
    int (*softmax_fwd)(float *s, const kern_attn *a);
    int (*softmax_bwd)(const float *p, float *dp, const kern_attn *a);
    /* The first position of each sequence: col (c x batch) from x (c x batch·L); its adjoint into dx,
     * added (add = 1) or written with zeros elsewhere. */
    int (*first_gather)(const float *x, float *col, int c, int L, int batch);
    int (*first_scatter)(const float *col, float *dx, int c, int L, int batch, int add);
    int (*zero)(float *y, size_t n);
} kern_xfmr_ops;

extern const kern_xfmr_ops kern_xfmr_host; /* layers_xfmr.c (real) or layers_xfmr_sim.c (simulated) */

/* Bytes each moves (float32; ids int32). e = elements of the output (c·n), or per head L·dh. */
static inline double kern_xf_bytes_embed_fwd(double e, double n) { return 8.0 * e + 4.0 * n; }
static inline double kern_xf_bytes_embed_bwd(double e) { return 12.0 * e; }
static inline double kern_xf_bytes_pos_fwd(double e) { return 12.0 * e; }
static inline double kern_xf_bytes_pos_bwd(double e) { return 4.0 * e; } /* dy read; the table's rows written */
static inline double kern_xf_bytes_norm_fwd(double e) { return 12.0 * e; }
static inline double kern_xf_bytes_norm_bwd(double e) { return 20.0 * e; }
static inline double kern_xf_bytes_act_fwd(double e, int act) { return act == KERN_ACT_SWIGLU ? 12.0 * e : 8.0 * e; }
static inline double kern_xf_bytes_act_bwd(double e, int act) { return act == KERN_ACT_SWIGLU ? 20.0 * e : 12.0 * e; }
static inline double kern_xf_bytes_split(double head) { return 24.0 * head; }   /* q, k, v read and written */
static inline double kern_xf_bytes_merge(double head) { return 8.0 * head; }
static inline double kern_xf_bytes_scatter(double head) { return 36.0 * head; } /* 3 x (read both, write) */
static inline double kern_xf_bytes_softmax_fwd(double s) { return 8.0 * s; }
static inline double kern_xf_bytes_softmax_bwd(double s) { return 12.0 * s; }
static inline double kern_xf_bytes_first(double e) { return 8.0 * e; }          /* c x batch read and written */
static inline double kern_xf_bytes_zero(double e) { return 4.0 * e; }

#endif
