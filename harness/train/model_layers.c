/* model_layers.c — one line of a model description made into layers, tensors and GEMMs (see
 * model_layers.h and model.h): conv (weight, optional bias), bn (weight = scale, bias = shift), fc
 * (weight, bias; over a C×H×W map it flattens it as a whole-map window), pool (max, windowed or
 * global average), relu and add ... relu folded in place where model.h's flags can say it, add,
 * concat (channels in input order) and dropout (identity); the transformer lines are in
 * model_layers_xfmr.c. Shapes follow PyTorch's floor((H + 2p − k)/s) + 1; a window that does not
 * fit at this image size is recorded (the message names --image-size) and its output taken as 1×1
 * so the reading goes on. */
#include "model_layers.h"
#include "gemm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mf_kind_word[] = { "conv", "bn", "fc", "pool", "relu", "add", "concat", "dropout",
                                         "embed", "pos", "norm", "linear", "attn", "gelu", "swiglu", "tanh" };

static int image_side(const mf_parser *p) { return p->m->image_size < 1 ? 1 : p->m->image_size; }
static int layer_of(const mf_parser *p, int entry) { return entry == MF_IMAGE ? -1 : p->e[entry].layer; }
const char *mf_entry_name(const mf_parser *p, int entry) { return entry == MF_IMAGE ? "image" : p->e[entry].name; }

void mf_shape_of(const mf_parser *p, int entry, int *c, int *h, int *w)
{
    const model_layer *l = entry == MF_IMAGE ? NULL : &p->m->layers[p->e[entry].layer];
    *c = l ? l->out_c : 3, *h = l ? l->out_h : image_side(p), *w = l ? l->out_w : image_side(p);
}

/* Room for one more layer, two more tensors and one more name. */
static int grow(mf_parser *p)
{
    model *m = p->m;
    if (m->nlayers == m->cap_layers) {
        int cap = m->cap_layers ? 2 * m->cap_layers : 64;
        model_layer *l = realloc(m->layers, (size_t)cap * sizeof *l);
        int *r = realloc(p->readers, (size_t)cap * sizeof *r);
        if (l) m->layers = l;
        if (r) p->readers = r;
        int *n = realloc(p->lines, (size_t)cap * sizeof *n);
        if (n) p->lines = n;
        int *s = realloc(p->stride, (size_t)cap * sizeof *s);
        if (s) p->stride = s;
        if (!l || !r || !n || !s) return model_fail(m, MODEL_ENOMEM, "model: out of memory");
        m->cap_layers = p->cap = cap;
    }
    if (m->ntensors + 2 > m->cap_tensors) {
        int cap = m->cap_tensors ? 2 * m->cap_tensors : 64;
        model_tensor *t = realloc(m->tensors, (size_t)cap * sizeof *t);
        if (!t) return model_fail(m, MODEL_ENOMEM, "model: out of memory");
        m->tensors = t, m->cap_tensors = cap;
    }
    if (p->ne == p->cap_e) {
        int cap = p->cap_e ? 2 * p->cap_e : 64;
        mf_entry *e = realloc(p->e, (size_t)cap * sizeof *e);
        if (!e) return model_fail(m, MODEL_ENOMEM, "model: out of memory");
        p->e = e, p->cap_e = cap;
    }
    return MODEL_OK;
}

/* Names `name` the output of `layer` (alias: of an earlier layer, in place); the line's result. */
void mf_define(mf_parser *p, const char *name, int layer, int alias)
{
    mf_entry *e = &p->e[p->ne];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->layer = layer, e->line = p->line, e->alias = alias;
    p->prev = p->ne++;
}

/* Appends a layer reading the entries src[0 .. nsrc-1] (input shape: the first's). */
model_layer *mf_new_layer(mf_parser *p, model_kind kind, const char *name, const int *src, int nsrc)
{
    model *m = p->m;
    model_layer *l = &m->layers[m->nlayers];
    int n = m->nlayers++, st = 1;
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", name);
    l->kind = kind;
    mf_shape_of(p, src[0], &l->in_c, &l->in_h, &l->in_w);
    l->kh = l->kw = l->stride = 1;
    l->tensor0 = m->ntensors;
    l->src = layer_of(p, src[0]);
    l->res_into = l->res_from = -1;
    l->tied = -1;
    l->nsrc = nsrc;
    for (int i = 0; i < nsrc; i++) {
        int s = layer_of(p, src[i]);
        l->srcs[i] = s;
        if (s >= 0) p->readers[s]++, st = p->stride[s] > st ? p->stride[s] : st;
    }
    p->readers[n] = 0, p->lines[n] = p->line, p->stride[n] = st;
    return l;
}

void mf_add_tensor(model *m, model_layer *l, const char *suffix, long long numel)
{
    model_tensor *t = &m->tensors[m->ntensors++];
    snprintf(t->name, sizeof t->name, "%s.%s", l->name, suffix);
    t->numel = numel;
    t->layer = (int)(l - m->layers);
    l->ntensors++;
    l->params += numel;
    m->params += numel;
    if (numel > m->max_tensor) m->max_tensor = numel;
}

/* The three GEMMs of model.h for M = out channels, N = batch × spatial, K = in × window. */
int mf_set_gemms(model *m, model_layer *l, long long M, long long N, long long K)
{
    if (N > INT_MAX || K > INT_MAX || M > INT_MAX)
        return model_fail(
            m, MODEL_EARG,
            "--batch %d x --image-size %d: GEMM dimension N = %lld of %s exceeds %d; expected a smaller batch or image",
            m->batch, m->image_size, N, l->name, INT_MAX);
    if ((double)M * (double)K * (double)N > 1e18)
        return model_fail(m, MODEL_EARG,
                          "%s: a GEMM of %lld x %lld x %lld: too large; expected a smaller layer, batch or image",
                          l->name, M, N, K);
    model_gemm *g = l->gemm;
    g[MODEL_FWD] = (model_gemm){ KERN_NOTRANS, KERN_NOTRANS, (int)M, (int)N, (int)K };
    g[MODEL_BWD_DATA] = (model_gemm){ KERN_TRANS, KERN_NOTRANS, (int)K, (int)N, (int)M };
    g[MODEL_BWD_WEIGHT] = (model_gemm){ KERN_NOTRANS, KERN_TRANS, (int)M, (int)K, (int)N };
    l->gemm_reps = 1;
    l->macs = M * K * (N / m->batch);
    m->macs += l->macs;
    l->data_grad_needed = l->src >= 0; /* a layer reading the image computes no data gradient */
    return MODEL_OK;
}

/* l's output size under its window; a window that does not fit is recorded and gives 1×1. */
static void window(mf_parser *p, model_layer *l)
{
    int n = (int)(l - p->m->layers);
    long long hp = (long long)l->in_h + 2LL * l->pad, wp = (long long)l->in_w + 2LL * l->pad_w;
    p->stride[n] *= l->stride;
    if (p->stride[n] > p->max_stride) p->max_stride = p->stride[n];
    if (hp >= l->kh && wp >= l->kw) {
        l->out_h = (int)((hp - l->kh) / l->stride + 1), l->out_w = (int)((wp - l->kw) / l->stride + 1);
        return;
    }
    l->out_h = l->out_w = 1;
    if (!p->win[0])
        snprintf(p->win, sizeof p->win,
                 "--image-size %d: too small for %s: %s's %dx%d window does not fit its %dx%d input "
                 "(padded %lldx%lld); expected a larger image",
                 p->m->image_size, p->m->name, l->name, l->kh, l->kw, l->in_h, l->in_w, hp, wp);
}

int mf_check_cin(mf_parser *p, int kind, const char *name, const mf_attrs *a, long long have, int src)
{
    if (!a->cin || a->cin == have) return MODEL_OK;
    return mf_bad(p, "%s %s: cin=%ld but its input %s has %lld %s; expected cin=%lld", mf_kind_word[kind], name, a->cin,
                  mf_entry_name(p, src), have, kind == MF_FC ? "features (C x H x W)" : "channels", have);
}

static int gemm_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src)
{
    model *m = p->m;
    int c = 0, h = 0, w = 0, rc;
    mf_shape_of(p, src[0], &c, &h, &w);
    if ((rc = mf_check_cin(p, kind, name, a, kind == MF_FC ? (long long)c * h * w : c, src[0]))) return rc;
    if (!a->has_out || (kind == MF_CONV && !a->has_k))
        return mf_bad(p, "%s %s: expected out=%s", mf_kind_word[kind], name, kind == MF_CONV ? " and k=" : "");
    model_layer *l = mf_new_layer(p, kind == MF_CONV ? MODEL_CONV : MODEL_FC, name, src, 1);
    if (kind == MF_CONV)
        l->kh = (int)a->kh, l->kw = (int)a->kw, l->stride = a->s < 0 ? 1 : (int)a->s, l->pad = (int)a->ph,
        l->pad_w = (int)a->pw;
    else
        l->kh = h, l->kw = w; /* the whole map: a flatten, through im2col when it is over 1x1 */
    window(p, l);
    l->out_c = (int)a->out, l->relu = a->relu;
    long long K = (long long)c * l->kh * l->kw, N = (long long)m->batch * l->out_h * l->out_w;
    if ((rc = mf_set_gemms(m, l, a->out, N, K))) return rc;
    mf_add_tensor(m, l, "weight", a->out * K);
    if (kind == MF_FC || a->bias) mf_add_tensor(m, l, "bias", a->out);
    mf_define(p, name, m->nlayers - 1, 0);
    return MODEL_OK;
}

static int pool_layer(mf_parser *p, const char *name, const mf_attrs *a, const int *src)
{
    if (a->max == a->avg) return mf_bad(p, "pool %s: expected one of max or avg", name);
    if (a->global && a->max) return mf_bad(p, "pool %s: global is an average pool; expected avg global", name);
    if (!a->global && !a->has_k) return mf_bad(p, "pool %s: expected k= (or avg global)", name);
    if (a->global && (a->has_k || a->s >= 0 || a->ph || a->pw))
        return mf_bad(p, "pool %s: global takes no k=, s= or p=", name);
    model_layer *l = mf_new_layer(p, MODEL_POOL, name, src, 1);
    l->avg = a->max ? MODEL_AVG_NONE : a->global ? MODEL_AVG_GLOBAL : MODEL_AVG_WINDOW;
    if (a->global) l->kh = l->in_h, l->kw = l->in_w; /* adaptive average pool to 1x1 */
    else
        l->kh = (int)a->kh, l->kw = (int)a->kw, l->stride = a->s < 0 ? (int)a->kh : (int)a->s, l->pad = (int)a->ph,
        l->pad_w = (int)a->pw;
    window(p, l);
    l->out_c = l->in_c;
    mf_define(p, name, p->m->nlayers - 1, 0);
    return MODEL_OK;
}

/* relu: in place on the line above's layer (its flag), which the name now means. */
static int relu_line(mf_parser *p, const char *name, const int *src)
{
    int e = src[0];
    model_layer *l = e == MF_IMAGE ? NULL : &p->m->layers[p->e[e].layer];
    if (!l || e != p->prev || p->e[e].alias || p->e[e].layer != p->m->nlayers - 1 || l->relu)
        return mf_bad(p,
                      "relu %s: runs in place on the layer of the line above; expected in=%s (not a relu, an add "
                      "with relu or the image: write relu on that line)",
                      name, e == p->prev ? "that layer" : mf_entry_name(p, p->prev));
    l->relu = 1;
    p->e[e].dead = p->line;
    mf_define(p, name, p->e[e].layer, 1);
    return MODEL_OK;
}

/* add, concat, dropout: inputs that are layers, of one shape (concat: one H x W). */
static int join_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src, int nsrc)
{
    model *m = p->m;
    int c0, h0, w0, c, h, w, sum = 0;
    if ((kind == MF_DROPOUT) != (nsrc == 1))
        return mf_bad(p, "%s %s: %d input(s); expected %s", mf_kind_word[kind], name, nsrc,
                      kind == MF_DROPOUT ? "one" : "two or more");
    mf_shape_of(p, src[0], &c0, &h0, &w0);
    for (int i = 0; i < nsrc; i++) {
        if (src[i] == MF_IMAGE) return mf_bad(p, "%s %s: reads the image; expected layers", mf_kind_word[kind], name);
        mf_shape_of(p, src[i], &c, &h, &w);
        if (h != h0 || w != w0 || (kind == MF_ADD && c != c0))
            return mf_bad(p, "%s %s: input %s is %dx%dx%d but %s is %dx%dx%d; expected %s", mf_kind_word[kind], name,
                          mf_entry_name(p, src[i]), c, h, w, mf_entry_name(p, src[0]), c0, h0, w0,
                          kind == MF_ADD ? "one shape (C x H x W)" : "one H x W");
        if ((sum += c) > MF_MAX_DIM) return mf_bad(p, "%s %s: over %d channels", mf_kind_word[kind], name, MF_MAX_DIM);
    }
    int la = layer_of(p, src[0]), lb = nsrc == 2 ? layer_of(p, src[1]) : -1, hold = la > lb ? la : lb;
    if (kind == MF_ADD && nsrc == 2 && a->relu && la != lb && !p->readers[la] && hold == m->nlayers - 1 &&
        m->layers[hold].res_into < 0) { /* the ResNet fold: out[la] += out[lb], ReLU, after the later */
        m->layers[hold].res_into = la, m->layers[hold].res_from = lb;
        p->readers[la]++, p->readers[lb]++;
        p->e[src[0]].dead = p->line;
        mf_define(p, name, la, 1);
        return MODEL_OK;
    }
    model_layer *l = mf_new_layer(p,
                               kind == MF_ADD      ? MODEL_ADD
                               : kind == MF_CONCAT ? MODEL_CONCAT
                                                   : MODEL_DROPOUT,
                               name, src, nsrc);
    l->out_c = kind == MF_CONCAT ? sum : c0, l->out_h = h0, l->out_w = w0, l->relu = a->relu;
    mf_define(p, name, m->nlayers - 1, 0);
    return MODEL_OK;
}

int mf_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src, int nsrc)
{
    int rc = grow(p);
    if (rc) return rc;
    if (nsrc > 1 && kind != MF_ADD && kind != MF_CONCAT)
        return mf_bad(p, "%s %s: %d inputs; expected one", mf_kind_word[kind], name, nsrc);
    switch (kind) {
    case MF_CONV:
    case MF_FC:
        return gemm_layer(p, kind, name, a, src);
    case MF_BN: {
        int c, h, w;
        mf_shape_of(p, src[0], &c, &h, &w);
        if ((rc = mf_check_cin(p, kind, name, a, c, src[0]))) return rc;
        if (src[0] == MF_IMAGE) return mf_bad(p, "bn %s: reads the image; expected a layer", name);
        model_layer *l = mf_new_layer(p, MODEL_BN, name, src, 1);
        l->out_c = c, l->out_h = h, l->out_w = w, l->relu = a->relu;
        mf_add_tensor(p->m, l, "weight", c); /* scale γ */
        mf_add_tensor(p->m, l, "bias", c);   /* shift β */
        mf_define(p, name, p->m->nlayers - 1, 0);
        return MODEL_OK;
    }
    case MF_POOL:
        return pool_layer(p, name, a, src);
    case MF_RELU:
        return relu_line(p, name, src);
    case MF_EMBED:
    case MF_POS:
    case MF_NORM:
    case MF_LINEAR:
    case MF_ATTN:
    case MF_GELU:
    case MF_SWIGLU:
    case MF_TANH:
        return mf_xfmr_layer(p, kind, name, a, src);
    default:
        return join_layer(p, kind, name, a, src, nsrc);
    }
}

int mf_image_checks(mf_parser *p)
{
    if (p->m->image_size < p->max_stride)
        return model_fail(p->m, MODEL_EARG,
                          "--image-size %d: too small for %s: expected at least %d (the network's total stride), "
                          "so that the final feature map covers at least 1x1 pixels",
                          p->m->image_size, p->m->name, p->max_stride);
    return p->win[0] ? model_fail(p->m, MODEL_EARG, "%s", p->win) : MODEL_OK;
}
