/* model_bytes.c — per-layer bytes of the memory-bound kernels (see model_bytes.h). The kernel list
 * mirrors step_full.c: forward = im2col (convs that need it), BN, pool, conv and FC bias, a layer's
 * ReLU, add (a copy, then adds), concat and dropout (copies), and at a block's end add + ReLU;
 * backward = im2col again for the weight gradient and col2im for the data gradient (convs that
 * need them; the stem conv has no data gradient), ReLU backward, BN backward, pool backward, bias
 * gradients, the gradient copied (or added) to each input of an add, concat or dropout, and a
 * block end's ReLU backward (the residual add's
 * gradient needs no kernel: the shortcut shares the gradient buffer, and the data-gradient GEMM adds
 * onto it with beta = 1). col2im writes a fresh gradient: in ResNets the strided downsample conv is
 * the first to write its block input's gradient (step_full.c checks the order at run time).
 * Transformer layers: the kernels of kernels/xfmr.h as step_full.c calls them, at their
 * kern_xf_bytes_* (E = the output's elements over the batch; per head hd = L·dh, S = L·L):
 *   embed (tokens)   fwd gather; bwd the table's gradient zeroed (unless a linear is tied to it and
 *                    wrote it first), then the scatter-add
 *   pos, segment     fwd x + row; bwd the table's rows summed, and dY copied (or added) to dX
 *   norm, act        fwd, bwd; a dX written through the scratch slot adds its add, as BN's does
 *   attn             per sequence and head: fwd split q, k, v (rope inside), softmax, merge; bwd
 *                    split again, dO gathered, softmax backward, dq, dk, dv scattered; the packed
 *                    gradient zeroed first unless written. The scores are materialised (unfused, as
 *                    PyTorch's eager attention)
 *   linear first     fwd the first positions gathered; bwd gathered again and dX scattered (the
 *                    input's gradient zeroed elsewhere unless written) */
#include "model_bytes.h"
#include "xfmr.h"

#include <stdlib.h>

int model_window(const model *m, const model_layer *l, kern_window *g)
{
    if (l->kind != MODEL_CONV && l->kind != MODEL_POOL && l->kind != MODEL_FC) return -1;
    return kern_window_make2(g, l->in_c, model_batch(m), l->in_h, l->in_w, l->kh, l->kw, l->stride, l->pad, l->pad_w);
}

int model_needs_im2col(const model_layer *l)
{
    return (l->kind == MODEL_CONV || l->kind == MODEL_FC) && (l->kh > 1 || l->kw > 1 || l->stride > 1);
}

double model_out_elems(const model *m, const model_layer *l)
{
    return (double)l->out_c * model_batch(m) * l->out_h * l->out_w;
}

/* Has the gradient of layer l's k-th input been written, by a reader later in forward order, when
 * l's backward writes it? Then that write adds (a GEMM with beta 1, col2im accumulating, add for a
 * join's input, BN and pools through a scratch slot and an add), else it writes fresh. The order
 * of step_full.c: backward from the last layer, residual shortcuts sharing the output's buffer. */
static int written_before(const model *m, int l, int k)
{
    int n = model_layer_count(m), w = 0, *gbuf = malloc((size_t)n * sizeof *gbuf);
    char *written = calloc((size_t)n, 1);
    for (int j = 0; gbuf && j < n; j++) gbuf[j] = j;
    for (int j = 0; gbuf && j < n; j++) {
        const model_layer *L = model_layer_at(m, j);
        if (L->res_into < 0) continue;
        if (L->res_from == j) gbuf[j] = gbuf[L->res_into];
        else gbuf[L->res_into] = gbuf[L->res_from];
    }
    if (gbuf && written) written[gbuf[n - 1]] = 1;
    for (int j = n - 1; gbuf && written && j >= l; j--) {
        const model_layer *L = model_layer_at(m, j);
        int gemm = L->kind == MODEL_CONV || L->kind == MODEL_FC, ns = L->nsrc > 1 ? L->nsrc : 1;
        for (int i = 0; i < ns; i++) {
            int s = L->nsrc > 1 ? L->srcs[i] : L->src;
            if (s < 0 || (gemm && !L->data_grad_needed)) continue;
            if (j == l && i == k) {
                w = written[gbuf[s]];
                j = -1;
                break;
            }
            written[gbuf[s]] = 1;
        }
    }
    free(gbuf), free(written);
    return w;
}

/* Is some linear tied to embedding layer l? */
static int is_tied(const model *m, int l)
{
    for (int j = 0; j < model_layer_count(m); j++)
        if (model_layer_at(m, j)->tied == l) return 1;
    return 0;
}

/* A transformer layer's bytes (the list in the header), n = its output's elements. */
static void xfmr_bytes(const model *m, int i, const model_layer *l, int fwd, double n, double *k)
{
    double tokens = (double)model_batch(m) * l->out_h * l->out_w;
    if (l->kind == MODEL_EMBED && !l->flags)
        k[MODEL_MEM_EMBED] += fwd ? kern_xf_bytes_embed_fwd(n, tokens)
                                  : kern_xf_bytes_embed_bwd(n) +
                                        (is_tied(m, i) ? 0 : kern_xf_bytes_zero((double)l->vocab * l->out_c));
    else if (l->kind == MODEL_EMBED) {
        k[MODEL_MEM_EMBED] += fwd ? kern_xf_bytes_pos_fwd(n) : kern_xf_bytes_pos_bwd(n);
        if (!fwd) k[MODEL_MEM_COPY] += written_before(m, i, 0) ? kern_bytes_add(n) : kern_bytes_copy(n);
    } else if (l->kind == MODEL_NORM) {
        k[MODEL_MEM_NORM] += fwd ? kern_xf_bytes_norm_fwd(n) : kern_xf_bytes_norm_bwd(n);
    } else if (l->kind == MODEL_ACT) {
        k[MODEL_MEM_ACT] += fwd ? kern_xf_bytes_act_fwd(n, l->act) : kern_xf_bytes_act_bwd(n, l->act);
    }
    else if (l->kind == MODEL_ATTN) {
        double heads = (double)model_batch(m) * l->heads, hd = (double)l->out_h * l->out_w * (l->out_c / l->heads),
               s = (double)l->out_h * l->out_w * l->out_h * l->out_w;
        if (fwd) k[MODEL_MEM_SOFTMAX] += heads * (kern_xf_bytes_split(hd) + kern_xf_bytes_softmax_fwd(s) +
                                                  kern_xf_bytes_merge(hd));
        else
            k[MODEL_MEM_SOFTMAX] += heads * (kern_xf_bytes_split(hd) + kern_xf_bytes_merge(hd) +
                                             kern_xf_bytes_softmax_bwd(s) + kern_xf_bytes_scatter(hd)) +
                                    (written_before(m, i, 0)
                                         ? 0
                                         : kern_xf_bytes_zero(model_out_elems(m, model_layer_at(m, l->src))));
    }
}

/* Layer i's bytes in pass `pass`, added per kind of work into k[MODEL_MEM_KINDS]. */
static void layer_bytes(const model *m, int i, int pass, double *k)
{
    const model_layer *l = model_layer_at(m, i);
    kern_window g;
    int fwd = pass == MODEL_FWD;
    if (!l) return;
    double n = model_out_elems(m, l), per = n / (l->out_c ? l->out_c : 1);
    switch (l->kind) {
    case MODEL_CONV:
    case MODEL_FC:
        if (model_needs_im2col(l) && !model_window(m, l, &g))
            k[MODEL_MEM_IM2COL] += kern_bytes_im2col(&g) +
                                   (!fwd && l->data_grad_needed ? kern_bytes_col2im(&g, written_before(m, i, 0)) : 0);
        if (l->ntensors > 1)
            k[MODEL_MEM_BIAS] += fwd ? kern_bytes_bias_fwd(l->out_c, per) : kern_bytes_bias_bwd(l->out_c, per);
        if (l->flags & MODEL_F_FIRST) { /* the first positions gathered; backward again, and dX scattered */
            double kb = (double)l->in_c * model_batch(m), zero = kern_xf_bytes_zero(kb * l->in_h * l->in_w);
            k[MODEL_MEM_COPY] += fwd ? kern_xf_bytes_first(kb)
                                     : 2 * kern_xf_bytes_first(kb) + (written_before(m, i, 0) ? 0 : zero);
        }
        break;
    case MODEL_BN:
        k[MODEL_MEM_BN] += fwd ? kern_bytes_bn_fwd(l->out_c, per) : kern_bytes_bn_bwd(l->out_c, per);
        break;
    case MODEL_POOL:
        if (l->avg == MODEL_AVG_GLOBAL)
            k[MODEL_MEM_POOL] += kern_bytes_avgpool((double)l->in_c * model_batch(m), l->in_h * l->in_w);
        else if (model_window(m, l, &g)) break;
        else if (l->avg) k[MODEL_MEM_POOL] += kern_bytes_avgpool_win(&g);
        else k[MODEL_MEM_POOL] += fwd ? kern_bytes_maxpool_fwd(&g) : kern_bytes_maxpool_bwd(&g);
        break;
    case MODEL_EMBED:
    case MODEL_NORM:
    case MODEL_ATTN:
    case MODEL_ACT:
        xfmr_bytes(m, i, l, fwd, n, k);
        break;
    case MODEL_ADD: /* forward: a copy of the first input, then the others added; backward: a copy or add each */
    case MODEL_CONCAT: /* each input copied in, and its gradient slice copied (or added) out */
    case MODEL_DROPOUT:
        for (int s = 0; s < l->nsrc; s++) {
            double e = model_out_elems(m, model_layer_at(m, l->srcs[s]));
            double b = fwd ? (l->kind == MODEL_ADD && s > 0 ? kern_bytes_add(e) : kern_bytes_copy(e))
                           : (written_before(m, i, s) ? kern_bytes_add(e) : kern_bytes_copy(e));
            k[l->kind == MODEL_ADD ? MODEL_MEM_ADD : MODEL_MEM_COPY] += b;
        }
        break;
    }
    if (!fwd && (l->kind == MODEL_BN || l->kind == MODEL_POOL || l->kind == MODEL_NORM || l->kind == MODEL_ACT) &&
        l->src >= 0 && written_before(m, i, 0))
        k[MODEL_MEM_ADD] += kern_bytes_add(model_out_elems(m, model_layer_at(m, l->src))); /* the scratch slot added */
    if (l->relu) k[MODEL_MEM_RELU] += fwd ? kern_bytes_relu_fwd(n) : kern_bytes_relu_bwd(n);
    if (l->res_into >= 0) { /* the block's add + ReLU; backward: the ReLU only */
        double r = model_out_elems(m, model_layer_at(m, l->res_into));
        if (fwd) k[MODEL_MEM_ADD] += kern_bytes_add(r);
        k[MODEL_MEM_RELU] += fwd ? kern_bytes_relu_fwd(r) : kern_bytes_relu_bwd(r);
    }
}

double model_mem_bytes(const model *m, int i, int pass)
{
    double k[MODEL_MEM_KINDS] = { 0 }, sum = 0;
    layer_bytes(m, i, pass, k);
    for (int j = 0; j < MODEL_MEM_KINDS; j++) sum += k[j];
    return sum;
}

void model_mem_bytes_kinds(const model *m, int l, int pass, double *k)
{
    for (int j = 0; j < MODEL_MEM_KINDS; j++) k[j] = 0;
    layer_bytes(m, l, pass, k);
}

void model_mem_by_kind(const model *m, double *k)
{
    for (int j = 0; j < MODEL_MEM_KINDS; j++) k[j] = 0;
    for (int i = 0; i < model_layer_count(m); i++) layer_bytes(m, i, MODEL_FWD, k), layer_bytes(m, i, 1, k);
    k[MODEL_MEM_SGD] = model_sgd_bytes(m);
}

const char *model_mem_kind_name(int kind)
{
    static const char *const names[MODEL_MEM_KINDS] = { "batchnorm", "relu", "residual_add", "im2col_col2im",
                                                        "pooling", "fc_bias", "sgd_momentum", "copy",
                                                        "embedding", "norm", "softmax", "activation" };
    return kind >= 0 && kind < MODEL_MEM_KINDS ? names[kind] : "?";
}

double model_sgd_bytes(const model *m) { return kern_bytes_sgd_momentum((double)model_param_count(m)); }
