/* step_full_xfmr.c — the full step's transformer layers (step_full.h, xfmr.h): token and position
 * embeddings, layer and RMS norms, GELU/SwiGLU activations, attention head by head, and the
 * first-position linear (BERT's pooler); forward and backward on the step's activations. */
#include "step_full_priv.h"

#include <stdio.h>
#include <string.h>

/* Transformers (xfmr.h). Tensor t of layer L in the flat parameters and gradients. */
static const float *P(step_full *f, const model_layer *L, int t) { return param(f, L->tensor0 + t); }
static float *dP(step_full *f, const model_layer *L, int t) { return grad(f, L->tensor0 + t); }
static int32_t *ids(step_full *f) { return (int32_t *)(void *)(f->arena + f->ids); }

/* Attention forward, head by head: split, S = Q·Kᵀ (into P), softmax, O = P·V, merge. */
static int attn_fwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const kern_xfmr_ops *x = f->io.ops->xfmr;
    kern_attn a = attn_of(f->io.m, L);
    size_t hd = (size_t)a.L * a.dh, S = (size_t)a.L * a.L;
    float *q = at(f, f->xscr), *k = q + hd, *v = k + hd, *o = v + hd;
    model_gemm qk = { KERN_NOTRANS, KERN_TRANS, a.L, a.L, a.dh }, pv = { KERN_NOTRANS, KERN_NOTRANS, a.L, a.dh, a.L };
    int rc = 0;
    for (int b = 0; b < a.batch && !rc; b++)
        for (int h = 0; h < a.heads && !rc; h++) {
            float *p = at(f, f->aux[l]) + ((size_t)b * a.heads + h) * S;
            SPAN(other_s, x->attn_split(A(f, L->src), q, k, v, &a, b, h));
            rc = rc || f->io.gemm(f->io.gemm_arg, &qk, q, k, p, 0.0f, 0);
            SPAN(other_s, x->softmax_fwd(p, &a));
            rc = rc || f->io.gemm(f->io.gemm_arg, &pv, p, v, o, 0.0f, 0);
            SPAN(other_s, x->attn_merge(o, A(f, l), &a, b, h));
        }
    return rc;
}

/* Attention backward: dV = Pᵀ·dO, dP = dO·Vᵀ, softmax backward, dQ = dS·K, dK = dSᵀ·Q, scattered
 * (added) into the packed gradient, zeroed first unless another reader wrote it. */
static int attn_bwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const kern_xfmr_ops *x = f->io.ops->xfmr;
    kern_attn a = attn_of(f->io.m, L);
    size_t hd = (size_t)a.L * a.dh, S = (size_t)a.L * a.L;
    float *q = at(f, f->xscr), *k = q + hd, *v = k + hd, *dO = v + hd, *dq = dO + hd, *dk = dq + hd, *dv = dk + hd;
    float *dp = dv + hd, *dx = G(f, L->src);
    model_gemm tn = { KERN_TRANS, KERN_NOTRANS, a.L, a.dh, a.L }, nt = { KERN_NOTRANS, KERN_TRANS, a.L, a.L, a.dh },
               nn = { KERN_NOTRANS, KERN_NOTRANS, a.L, a.dh, a.L };
    int rc = 0;
    if (!f->written[f->gbuf[L->src]]) SPAN(other_s, x->zero(dx, elems(f, L->src)));
    for (int b = 0; b < a.batch && !rc; b++)
        for (int h = 0; h < a.heads && !rc; h++) {
            const float *p = at(f, f->aux[l]) + ((size_t)b * a.heads + h) * S;
            SPAN(other_s, x->attn_split(A(f, L->src), q, k, v, &a, b, h) || x->attn_gather_out(G(f, l), dO, &a, b, h));
            rc = rc || f->io.gemm(f->io.gemm_arg, &tn, p, dO, dv, 0.0f, 0) ||
                 f->io.gemm(f->io.gemm_arg, &nt, dO, v, dp, 0.0f, 0);
            SPAN(other_s, x->softmax_bwd(p, dp, &a));
            rc = rc || f->io.gemm(f->io.gemm_arg, &nn, dp, k, dq, 0.0f, 0) ||
                 f->io.gemm(f->io.gemm_arg, &tn, dp, q, dk, 0.0f, 0);
            SPAN(other_s, x->attn_scatter(dq, dk, dv, dx, &a, b, h));
        }
    f->written[f->gbuf[L->src]] = 1;
    return rc;
}

/* Is some linear tied to embedding layer l (so its weight gradient is already written)? */
static int tied_to(const model *m, int l)
{
    for (int j = 0; j < model_layer_count(m); j++)
        if (model_layer_at(m, j)->tied == l) return 1;
    return 0;
}

/* The forward of an embed, pos, norm, act or attn layer. */
int step_full_xf_fwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const kern_xfmr_ops *x = f->io.ops->xfmr;
    size_t n = (size_t)model_batch(f->io.m) * L->out_h * L->out_w;
    int rc = 0, seg = !!(L->flags & MODEL_F_SEGMENT), c = L->out_c;
    if (L->kind == MODEL_ATTN) return attn_fwd(f, L, l, other_s);
    if (L->kind == MODEL_EMBED && !L->flags) SPAN(other_s, x->embed_fwd(ids(f), P(f, L, 0), A(f, l), c, n));
    else if (L->kind == MODEL_EMBED) SPAN(other_s, x->pos_fwd(A(f, L->src), P(f, L, 0), A(f, l), c, L->out_h, n, seg));
    else if (L->kind == MODEL_NORM) {
        float *mu = at(f, f->aux[l]);
        SPAN(other_s, x->norm_fwd(A(f, L->src), A(f, l), P(f, L, 0), L->ntensors > 1 ? P(f, L, 1) : NULL, mu, mu + n,
                                  c, n, 1e-5f, !!(L->flags & MODEL_F_RMS)));
    } else
        SPAN(other_s, x->act_fwd(A(f, L->src), A(f, l), L->act, c, n));
    return rc;
}

/* The backward of an embed, pos, norm, act or attn layer; dx: where a norm's or act's input
 * gradient goes (its slot, or the scratch slot). */
static int xf_bwd(step_full *f, const model_layer *L, int l, float *dx, double *other_s)
{
    const kern_xfmr_ops *x = f->io.ops->xfmr;
    size_t n = (size_t)model_batch(f->io.m) * L->out_h * L->out_w;
    int rc = 0, seg = !!(L->flags & MODEL_F_SEGMENT), c = L->out_c;
    if (L->kind == MODEL_ATTN) return attn_bwd(f, L, l, other_s);
    if (L->kind == MODEL_EMBED && !L->flags) {
        if (!tied_to(f->io.m, l)) SPAN(other_s, x->zero(dP(f, L, 0), (size_t)L->vocab * c));
        SPAN(other_s, x->embed_bwd(ids(f), G(f, l), dP(f, L, 0), c, n));
    } else if (L->kind == MODEL_EMBED) {
        SPAN(other_s, x->pos_bwd(G(f, l), dP(f, L, 0), c, L->out_h, n, seg));
        kern_span t0 = kern_span_open();
        rc = rc || step_full_join_bwd(f, L, l); /* dx = dy: copied, or added where written */
        *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
    } else if (L->kind == MODEL_NORM) {
        const float *mu = at(f, f->aux[l]);
        SPAN(other_s, x->norm_bwd(A(f, L->src), G(f, l), dx, P(f, L, 0), mu, mu + n, dP(f, L, 0),
                                  L->ntensors > 1 ? dP(f, L, 1) : NULL, c, n, !!(L->flags & MODEL_F_RMS)));
    } else
        SPAN(other_s, x->act_bwd(A(f, L->src), G(f, l), dx, L->act, c, n));
    return rc;
}

/* A first-position linear's backward: the positions gathered again, dW; dX of them into the
 * transformer scratch, scattered to the input's gradient (added where written, else zeros elsewhere). */
int step_full_first_bwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const kern_xfmr_ops *x = f->io.ops->xfmr;
    int rc = 0, acc = f->written[f->gbuf[L->src]], B = model_batch(f->io.m);
    SPAN(other_s, x->first_gather(A(f, L->src), col_buf(f), L->in_c, L->in_h, B));
    rc = rc || f->io.gemm(f->io.gemm_arg, &L->gemm[MODEL_BWD_WEIGHT], G(f, l), col_buf(f),
                          grad(f, L->tensor0), 0.0f, 0) ||
         f->io.gemm(f->io.gemm_arg, &L->gemm[MODEL_BWD_DATA], weights(f, L), G(f, l), at(f, f->xscr), 0.0f, 0);
    SPAN(other_s, x->first_scatter(at(f, f->xscr), G(f, L->src), L->in_c, L->in_h, B, acc));
    f->written[f->gbuf[L->src]] = 1;
    return rc;
}

/* A transformer layer's backward: a norm's or act's input gradient through the scratch slot (then
 * added) when another reader wrote it first, as for BN and pools. */
int step_full_xf_backward_layer(step_full *f, const model_layer *L, int l, double *other_s)
{
    int fresh = fresh_writer(L), onto = fresh && L->src >= 0 && f->written[f->gbuf[L->src]], rc = 0;
    if (onto && !f->scratch) {
        snprintf(f->err, sizeof f->err, "%s: its input gradient was already written (internal error)", L->name);
        return -1;
    }
    float *dx = fresh && L->src >= 0 ? (onto ? at(f, f->scratch) : G(f, L->src)) : NULL;
    rc = xf_bwd(f, L, l, dx, other_s);
    if (onto) SPAN(other_s, f->io.ops->add(G(f, L->src), dx, elems(f, L->src)));
    if (rc) return f->err[0] ? -1 : step_full_failed(f, "the backward kernels", L);
    if (fresh && L->src >= 0) f->written[f->gbuf[L->src]] = 1;
    return 0;
}
