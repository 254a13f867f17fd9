/* model_layers_xfmr.c — a transformer line of a model description made into layers (see model_layers.h):
 * embed (token table), pos (positions or segments), norm (layer or RMS norm), linear (per position, or the
 * first position; weight tied to an embedding), attn (packed q, k, v in; the batched GEMMs QK^T and PV),
 * gelu, tanh and swiglu. Shapes are channels x sequence (h) x 1. */
#include "model_layers.h"
#include "gemm.h"

#include <string.h>

/* A transformer line's input: a layer (not the image), its shape into c, h, w; -1 with the message. */
static int seq_input(mf_parser *p, int kind, const char *name, const int *src, int *c, int *h, int *w)
{
    if (src[0] == MF_IMAGE)
        return mf_bad(p, "%s %s: reads the input; expected a layer (only embed reads tokens)", mf_kind_word[kind],
                      name);
    mf_shape_of(p, src[0], c, h, w);
    return 0;
}

/* embed: token ids (the input, seq= long) -> rows of a vocab= x out= table. */
static int embed_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    model *m = p->m;
    if (src[0] != MF_IMAGE) return mf_bad(p, "embed %s: reads %s; expected in=tokens", name, mf_entry_name(p, src[0]));
    if (a->vocab < 0 || !a->has_out || a->seq < 0) return mf_bad(p, "embed %s: expected vocab=, out= and seq=", name);
    if (m->seq && m->seq != a->seq)
        return mf_bad(p, "embed %s: seq=%ld but an earlier embed has seq=%d; expected one sequence length", name,
                      a->seq, m->seq);
    m->seq = (int)a->seq;
    model_layer *l = mf_new_layer(p, MODEL_EMBED, name, src, 1);
    l->in_c = 1, l->in_h = l->out_h = (int)a->seq, l->in_w = l->out_w = 1;
    l->out_c = (int)a->out, l->vocab = a->vocab;
    mf_add_tensor(m, l, "weight", a->vocab * a->out);
    mf_define(p, name, m->nlayers - 1, 0);
    return MODEL_OK;
}

/* pos: a table of n= positions (row p added at position p), or of segments (row 0 added). */
static int pos_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    int c, h, w;
    if (seq_input(p, MF_POS, name, src, &c, &h, &w)) return MODEL_EARG;
    if (a->n < 0) return mf_bad(p, "pos %s: expected n= (rows of the table)", name);
    if (!(a->flags & MODEL_F_SEGMENT) && a->n < (long)h * w)
        return mf_bad(p, "pos %s: n=%ld positions but the sequence is %d long; expected n >= seq", name, a->n, h * w);
    model_layer *l = mf_new_layer(p, MODEL_EMBED, name, src, 1);
    l->out_c = c, l->out_h = h, l->out_w = w, l->vocab = a->n;
    l->flags = a->flags & MODEL_F_SEGMENT ? MODEL_F_SEGMENT : MODEL_F_POS;
    mf_add_tensor(p->m, l, "weight", a->n * c);
    mf_define(p, name, p->m->nlayers - 1, 0);
    return MODEL_OK;
}

/* norm: layer norm (weight, bias) or, with rms, RMS norm (weight) over each position's channels. */
static int norm_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    int c = 0, h = 0, w = 0, rc;
    if (seq_input(p, MF_NORM, name, src, &c, &h, &w) || (rc = mf_check_cin(p, MF_NORM, name, a, c, src[0])))
        return MODEL_EARG;
    model_layer *l = mf_new_layer(p, MODEL_NORM, name, src, 1);
    l->out_c = c, l->out_h = h, l->out_w = w, l->flags = a->flags & MODEL_F_RMS;
    mf_add_tensor(p->m, l, "weight", c);
    if (!(a->flags & MODEL_F_RMS)) mf_add_tensor(p->m, l, "bias", c);
    mf_define(p, name, p->m->nlayers - 1, 0);
    return MODEL_OK;
}

/* The embedding layer tied= names: a token table of vocab = out rows of width k; -1 with the message. */
static int tied_to(mf_parser *p, const char *name, const mf_attrs *a, long k)
{
    for (int i = p->ne - 1; i >= 0; i--) {
        if (strcmp(p->e[i].name, a->tied)) continue;
        const model_layer *t = &p->m->layers[p->e[i].layer];
        if (t->kind != MODEL_EMBED || t->flags || t->vocab != a->out || t->out_c != k)
            return mf_bad(p, "linear %s: tied=%s is not a token embedding of %ld x %ld; expected an embed line with "
                          "vocab=%ld out=%ld", name, a->tied, a->out, k, a->out, k), -1;
        return p->e[i].layer;
    }
    return mf_bad(p, "linear %s: tied=%s: no earlier line defines it; expected an embed's name", name, a->tied), -1;
}

/* linear: a GEMM per position (MODEL_FC with a 1x1 window), or over the first position only. */
static int linear_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    model *m = p->m;
    int c = 0, h = 0, w = 0, rc, tied = -1;
    if (seq_input(p, MF_LINEAR, name, src, &c, &h, &w) || (rc = mf_check_cin(p, MF_LINEAR, name, a, c, src[0])))
        return MODEL_EARG;
    if (!a->has_out) return mf_bad(p, "linear %s: expected out=", name);
    if (a->tied && a->bias) return mf_bad(p, "linear %s: tied= and bias together; expected one of them", name);
    if (a->tied && (tied = tied_to(p, name, a, c)) < 0) return MODEL_EARG;
    model_layer *l = mf_new_layer(p, MODEL_FC, name, src, 1);
    int first = !!(a->flags & MODEL_F_FIRST);
    l->out_c = (int)a->out, l->out_h = first ? 1 : h, l->out_w = first ? 1 : w, l->flags = a->flags & MODEL_F_FIRST;
    if ((rc = mf_set_gemms(m, l, a->out, (long long)m->batch * l->out_h * l->out_w, c))) return rc;
    if (tied >= 0) l->tied = tied, l->tensor0 = m->layers[tied].tensor0; /* its weight; no tensor of its own */
    else mf_add_tensor(m, l, "weight", a->out * c);
    if (a->bias) mf_add_tensor(m, l, "bias", a->out);
    mf_define(p, name, m->nlayers - 1, 0);
    return MODEL_OK;
}

/* attn: packed q, k, v channels ((heads + 2·kv)·dh) in, heads·dh out; the batched GEMMs QKᵀ and PV. */
static int attn_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    model *m = p->m;
    int c, h, w;
    if (seq_input(p, MF_ATTN, name, src, &c, &h, &w)) return MODEL_EARG;
    long heads = a->heads, kv = a->kv < 0 ? a->heads : a->kv;
    if (heads < 0) return mf_bad(p, "attn %s: expected heads=", name);
    if (heads % kv) return mf_bad(p, "attn %s: heads=%ld is not a multiple of kv=%ld; expected kv dividing heads", name,
                                  heads, kv);
    if (c % (heads + 2 * kv))
        return mf_bad(p, "attn %s: the heads do not divide the width: input %s has %d channels, not a multiple of "
                      "heads + 2*kv = %ld (packed q, k, v); expected (heads + 2*kv) x head size", name,
                      mf_entry_name(p, src[0]), c, heads + 2 * kv);
    long dh = c / (heads + 2 * kv), L = (long)h * w;
    model_layer *l = mf_new_layer(p, MODEL_ATTN, name, src, 1);
    l->out_c = (int)(heads * dh), l->out_h = h, l->out_w = w;
    l->heads = (int)heads, l->kv_heads = (int)kv, l->flags = a->flags & (MODEL_F_CAUSAL | MODEL_F_ROPE);
    l->gemm[MODEL_FWD] = (model_gemm){ KERN_NOTRANS, KERN_TRANS, (int)L, (int)L, (int)dh };         /* S = Q·Kᵀ */
    l->gemm[MODEL_BWD_DATA] = (model_gemm){ KERN_NOTRANS, KERN_NOTRANS, (int)L, (int)dh, (int)L };  /* dQ = dS·K */
    l->gemm[MODEL_BWD_WEIGHT] = (model_gemm){ KERN_TRANS, KERN_NOTRANS, (int)L, (int)dh, (int)L };  /* dV = Pᵀ·dO */
    l->gemm_reps = 2LL * m->batch * heads;
    l->macs = 2LL * heads * L * L * dh;
    m->macs += l->macs;
    l->data_grad_needed = 1;
    mf_define(p, name, m->nlayers - 1, 0);
    return MODEL_OK;
}

/* gelu, tanh: elementwise; swiglu: silu(first half of the channels) x second half. */
static int act_layer(mf_parser *p, int kind, const char *name, const int *src)
{
    int c, h, w;
    if (seq_input(p, kind, name, src, &c, &h, &w)) return MODEL_EARG;
    if (kind == MF_SWIGLU && c % 2)
        return mf_bad(p, "swiglu %s: input %s has %d channels; expected an even count (gate and up halves)", name,
                      mf_entry_name(p, src[0]), c);
    model_layer *l = mf_new_layer(p, MODEL_ACT, name, src, 1);
    l->act = kind == MF_GELU ? MODEL_ACT_GELU : kind == MF_SWIGLU ? MODEL_ACT_SWIGLU : MODEL_ACT_TANH;
    l->out_c = kind == MF_SWIGLU ? c / 2 : c, l->out_h = h, l->out_w = w;
    mf_define(p, name, p->m->nlayers - 1, 0);
    return MODEL_OK;
}

int mf_xfmr_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src)
{
    switch (kind) {
    case MF_EMBED:
        return embed_layer(p, name, a, src);
    case MF_POS:
        return pos_layer(p, name, a, src);
    case MF_NORM:
        return norm_layer(p, name, a, src);
    case MF_LINEAR:
        return linear_layer(p, name, a, src);
    case MF_ATTN:
        return attn_layer(p, name, a, src);
    default:
        return act_layer(p, kind, name, src);
    }
}
