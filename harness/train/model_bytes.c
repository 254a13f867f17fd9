/* model_bytes.c — per-layer bytes of the memory-bound kernels (see model_bytes.h). The kernel list
 * mirrors step_full.c: forward = im2col (convs that need it), BN + optional ReLU, pool, FC bias, and
 * at a block's end add + ReLU; backward = im2col again for the weight gradient and col2im for the
 * data gradient (convs that need them; the stem conv has no data gradient), ReLU backward + BN
 * backward, pool backward, FC bias gradient, and a block end's ReLU backward (the residual add's
 * gradient needs no kernel: the shortcut shares the gradient buffer, and the data-gradient GEMM adds
 * onto it with beta = 1). col2im writes a fresh gradient: in ResNets the strided downsample conv is
 * the first to write its block input's gradient (step_full.c checks the order at run time). */
#include "model_bytes.h"

int model_window(const model *m, const model_layer *l, kern_window *g)
{
    if (l->kind != MODEL_CONV && l->kind != MODEL_POOL) return -1;
    return kern_window_make(g, l->in_c, model_batch(m), l->in_h, l->in_w, l->kh, l->stride, l->pad);
}

int model_needs_im2col(const model_layer *l) { return l->kind == MODEL_CONV && (l->kh > 1 || l->kw > 1 || l->stride > 1); }

double model_out_elems(const model *m, const model_layer *l)
{
    return (double)l->out_c * model_batch(m) * l->out_h * l->out_w;
}

static double block_end_bytes(const model *m, const model_layer *l, int pass)
{
    if (l->res_into < 0) return 0;
    double n = model_out_elems(m, model_layer_at(m, l->res_into));
    return pass == MODEL_FWD ? kern_bytes_add(n) + kern_bytes_relu_fwd(n) : kern_bytes_relu_bwd(n);
}

double model_mem_bytes(const model *m, int i, int pass)
{
    const model_layer *l = model_layer_at(m, i);
    kern_window g;
    double n = l ? model_out_elems(m, l) : 0, bytes = 0, per = n / (l && l->out_c ? l->out_c : 1);
    if (!l) return 0;
    switch (l->kind) {
    case MODEL_CONV:
        if (model_needs_im2col(l) && !model_window(m, l, &g))
            bytes = kern_bytes_im2col(&g) + (pass != MODEL_FWD && l->data_grad_needed ? kern_bytes_col2im(&g, 0) : 0);
        break;
    case MODEL_BN:
        bytes = pass == MODEL_FWD ? kern_bytes_bn_fwd(l->out_c, per) + (l->relu ? kern_bytes_relu_fwd(n) : 0)
                                  : kern_bytes_bn_bwd(l->out_c, per) + (l->relu ? kern_bytes_relu_bwd(n) : 0);
        break;
    case MODEL_POOL:
        if (l->avg) bytes = kern_bytes_avgpool((double)l->in_c * model_batch(m), l->in_h * l->in_w);
        else if (!model_window(m, l, &g)) bytes = pass == MODEL_FWD ? kern_bytes_maxpool_fwd(&g) : kern_bytes_maxpool_bwd(&g);
        break;
    case MODEL_FC:
        bytes = pass == MODEL_FWD ? kern_bytes_bias_fwd(l->out_c, model_batch(m)) : kern_bytes_bias_bwd(l->out_c, model_batch(m));
        break;
    }
    return bytes + block_end_bytes(m, l, pass);
}

double model_sgd_bytes(const model *m) { return kern_bytes_sgd_momentum((double)model_param_count(m)); }
