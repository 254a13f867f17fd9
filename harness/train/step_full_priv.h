/* step_full_priv.h — the full step's state and the small accessors shared by step_full.c (the data
 * flow, CNN layers) and step_full_xfmr.c (the transformer layers); nothing else includes it. */
#ifndef HARN_STEP_FULL_PRIV_H
#define HARN_STEP_FULL_PRIV_H

#include "step_full.h"

#include "compute.h"
#include "gemm.h"
#include "model_bytes.h"
#include "xfmr.h"

#include <stdint.h>

#define ALIGN_BYTES 256 /* aligned sub-buffers (cuBLAS and vector loads like 256) */
#define BN_EPS 1e-5f

struct step_full {
    step_full_io io;
    int n;                  /* layers */
    size_t *act, *aux;      /* per layer: output offset; BN mean (invstd follows) or max-pool indices */
    int *gbuf, *slot, nslots;
    char *written;          /* per gradient buffer (gbuf id): written this step */
    size_t es;              /* bytes per activation element: 4, or 2 (bf16/fp16 storage) */
    size_t image, dloss, col, slots, slot_size, total; /* offsets and sizes, in bytes */
    size_t scratch;         /* a gradient slot for a BN or pool whose input's gradient another reader wrote; 0: none */
    size_t ids;             /* transformers: the token ids (int32, batch x seq); 0: none */
    size_t xscr;            /* transformers: attention's per-head q, k, v, o, dq, dk, dv and dP, or a first-
                               position linear's data gradient; 0: none */
    char *arena;
    char err[256];
};

/* Layer L's inputs: src, or srcs[0 .. nsrc-1] (add, concat). */
static inline int nsrc(const model_layer *L) { return L->nsrc > 1 ? L->nsrc : 1; }
static inline int src_at(const model_layer *L, int i) { return L->nsrc > 1 ? L->srcs[i] : L->src; }
/* Does layer L write the gradient of its i-th input (and so need that input's gradient buffer)? */
static inline int writes_src(const model_layer *L, int i)
{
    return src_at(L, i) >= 0 && ((L->kind != MODEL_CONV && L->kind != MODEL_FC) || L->data_grad_needed);
}

/* Layers whose backward writes (not adds) their input's gradient: BN, pools, norms, activations. */
static inline int fresh_writer(const model_layer *L)
{
    return L->kind == MODEL_BN || L->kind == MODEL_POOL || L->kind == MODEL_NORM || L->kind == MODEL_ACT;
}

/* The attention of layer L as the kernels see it. */
static inline kern_attn attn_of(const model *m, const model_layer *L)
{
    kern_attn a = { model_batch(m), L->in_h * L->in_w, L->out_c / L->heads, L->heads, L->kv_heads,
                    !!(L->flags & MODEL_F_CAUSAL), !!(L->flags & MODEL_F_ROPE) };
    return a;
}

/* Activation and gradient buffers (float * for the kernel tables: 2-byte elements under bf16/fp16). */
static inline float *at(step_full *f, size_t off) { return (float *)(void *)(f->arena + off); }
static inline float *A(step_full *f, int l) { return at(f, l < 0 ? f->image : f->act[l]); }
static inline float *G(step_full *f, int l)
{
    return at(f, f->slot[l] < 0 ? f->dloss : f->slots + (size_t)f->slot[l] * f->slot_size);
}
static inline float *col_buf(step_full *f) { return at(f, f->col); }
/* Tensor ti's parameters (io.poffset: where full sharding gathered them). */
static inline const float *param(const step_full *f, int ti)
{
    return f->io.params + (f->io.poffset ? f->io.poffset[ti] : f->io.offset[ti]);
}
/* Tensor ti's gradient (io.goffset: the slot of its bucket under gradient sharding). */
static inline float *grad(const step_full *f, int ti)
{
    return f->io.grads + (f->io.goffset ? f->io.goffset[ti] : f->io.offset[ti]);
}
static inline const char *weights(step_full *f, const model_layer *L)
{
    return f->io.wh ? f->io.wh + f->io.offset[L->tensor0] * 2 : (const char *)param(f, L->tensor0);
}
/* Elements of layer l's output (l >= 0). */
static inline size_t elems(step_full *f, int l) { return (size_t)model_out_elems(f->io.m, model_layer_at(f->io.m, l)); }

/* A timed group of non-GEMM kernels: rc of the group, its time added to *other_s. */
#define SPAN(other_s, expr)                                                                                  \
    do {                                                                                                     \
        kern_span t0_ = kern_span_open();                                                                    \
        rc = rc || (expr);                                                                                   \
        *(other_s) += kern_span_close(t0_, KERN_SPAN_OTHER);                                                 \
    } while (0)

/* A kernel group of layer L failed: the message in f->err; -1. */
int step_full_failed(step_full *f, const char *what, const model_layer *L);
/* Each input's gradient of an add, concat or dropout (or pos): its slice of the output's. */
int step_full_join_bwd(step_full *f, const model_layer *L, int l);
/* The transformer layers (step_full_xfmr.c): an embed, pos, norm, act or attn layer's forward; its
 * backward; a first-position linear's backward. 0, or -1 (f->err, or empty: the GEMM callback's). */
int step_full_xf_fwd(step_full *f, const model_layer *L, int l, double *other_s);
int step_full_xf_backward_layer(step_full *f, const model_layer *L, int l, double *other_s);
int step_full_first_bwd(step_full *f, const model_layer *L, int l, double *other_s);

#endif
