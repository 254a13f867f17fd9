/* step_full.c — the full step's forward and backward over the model's data flow (see step_full.h).
 * Time: every group of non-GEMM kernels is a span (compute.h: the compute clock under simulation,
 * the thread's clock on a CPU, added to the caller's other_s at once; on the GPU a CUDA event pair,
 * summed by the trainer at the end of backward, with no drain); GEMM time is the trainer's business. */
#include "step_full_priv.h"

#include "gemm.h"
#include "half.h"
#include "model_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN_BYTES 256 /* aligned sub-buffers (cuBLAS and vector loads like 256) */
#define BN_EPS 1e-5f

static size_t up(size_t bytes) { return (bytes + ALIGN_BYTES - 1) / ALIGN_BYTES * ALIGN_BYTES; }

/* Does a BN or pool (whose backward writes its input's gradient, not adds to it) come, in backward
 * order, after another reader of its input (Inception: a pool branch written before the others)? */
static int needs_scratch(step_full *f)
{
    int need = 0;
    memset(f->written, 0, (size_t)f->n);
    for (int l = f->n - 1; l >= 0; l--) {
        const model_layer *L = model_layer_at(f->io.m, l);
        if (fresh_writer(L) && L->src >= 0 && f->written[f->gbuf[L->src]]) need = 1;
        for (int i = 0; i < nsrc(L); i++)
            if (writes_src(L, i)) f->written[f->gbuf[src_at(L, i)]] = 1;
    }
    return need;
}

/* Byte offsets of every sub-buffer; f->total bytes in all. 0, or -1 (plan failed). */
static int lay_out(step_full *f)
{
    const model *m = f->io.m;
    size_t off = 0, maxact = 1, col = 1, es = f->es, xscr = 0;
    for (int l = 0; l < f->n; l++) {
        const model_layer *L = model_layer_at(m, l);
        size_t out = (size_t)model_out_elems(m, L);
        kern_window g;
        f->act[l] = off, off += up(out * es);
        maxact = out > maxact ? out : maxact;
        if (L->kind == MODEL_BN) f->aux[l] = off, off += up(2 * (size_t)L->out_c * 4); /* mean, 1/std: float */
        if (L->kind == MODEL_POOL && L->avg == MODEL_AVG_NONE) f->aux[l] = off, off += up(out * 4); /* int32 indices */
        if (model_needs_im2col(L) && !model_window(m, L, &g) && (size_t)kern_window_cols(&g) > col)
            col = (size_t)kern_window_cols(&g);
        size_t pos = (size_t)model_batch(m) * L->in_h * L->in_w;
        if (L->kind == MODEL_NORM) f->aux[l] = off, off += up(2 * pos * 4); /* μ, r per position */
        if (L->kind == MODEL_ATTN) {
            kern_attn a = attn_of(m, L);
            size_t S = (size_t)a.L * a.L, need = 7 * (size_t)a.L * a.dh + S;
            f->aux[l] = off, off += up((size_t)a.batch * a.heads * S * 4); /* P of every head, kept for backward */
            xscr = need > xscr ? need : xscr;
        }
        if (L->kind == MODEL_FC && (L->flags & MODEL_F_FIRST)) {
            size_t kb = (size_t)L->in_c * model_batch(m); /* the first positions, and their gradient */
            col = kb > col ? kb : col, xscr = kb > xscr ? kb : xscr;
        }
    }
    if (model_seq_len(m)) f->ids = off, off += up((size_t)model_batch(m) * model_seq_len(m) * 4);
    f->xscr = xscr ? off : 0, off += up(xscr * 4);
    f->image = off, off += up((size_t)3 * model_batch(m) * model_image_size(m) * model_image_size(m) * es);
    f->dloss = off, off += up((size_t)model_out_elems(m, model_layer_at(m, f->n - 1)) * es);
    f->col = off, off += up(col * es);
    if (step_full_plan(m, f->gbuf, f->slot, &f->nslots)) return -1;
    f->slot_size = up(maxact * es);
    f->slots = off, off += (size_t)f->nslots * f->slot_size;
    f->scratch = needs_scratch(f) ? off : 0, off += f->scratch ? f->slot_size : 0;
    f->total = off;
    return 0;
}

double step_full_bytes(const model *m, int storage)
{
    step_full f = { .n = model_layer_count(m), .es = storage == KERN_STORE_F32 ? 4 : 2 };
    f.io.m = m;
    f.act = malloc((size_t)f.n * sizeof *f.act), f.aux = malloc((size_t)f.n * sizeof *f.aux);
    f.gbuf = malloc((size_t)f.n * sizeof *f.gbuf), f.slot = malloc((size_t)f.n * sizeof *f.slot);
    f.written = calloc((size_t)f.n + 1, 1);
    double total = f.act && f.aux && f.gbuf && f.slot && f.written && !lay_out(&f) ? (double)f.total : -1;
    free(f.act), free(f.aux), free(f.gbuf), free(f.slot), free(f.written);
    return total;
}

/* n elements of the synthetic pattern scale·((i % 13) − 6) in the activation type at p. */
static int fill(step_full *f, size_t off, size_t n, float scale)
{
    if (f->es == 4) return f->io.mem->fill((float *)(f->arena + off), n, scale);
    uint16_t *h = malloc(n * 2 + 2);
    int rc = !h;
    for (size_t i = 0; !rc && i < n; i++) {
        float v = scale * (float)((int)(i % 13) - 6);
        h[i] = f->io.storage == KERN_STORE_BF16 ? kern_f32_to_bf16(v) : kern_f32_to_f16(v);
    }
    rc = rc || f->io.mem->put(f->arena + off, h, n * 2) ||
         f->io.mem->ready(); /* put is asynchronous: h lives until ready */
    free(h);
    return rc;
}

/* The synthetic tokens: id(t) = (7·t + 3) mod the smallest vocabulary of the token embeddings. */
static int put_ids(step_full *f)
{
    const model *m = f->io.m;
    long long vocab = 0;
    size_t n = (size_t)model_batch(m) * model_seq_len(m);
    for (int l = 0; l < f->n; l++) {
        const model_layer *L = model_layer_at(m, l);
        if (L->kind == MODEL_EMBED && !L->flags && (!vocab || L->vocab < vocab)) vocab = L->vocab;
    }
    int32_t *ids = malloc(n * 4 + 4);
    if (!ids) return -1;
    for (size_t t = 0; t < n; t++) ids[t] = (int32_t)((7 * (long long)t + 3) % (vocab ? vocab : 1));
    int rc = f->io.mem->put(f->arena + f->ids, ids, n * 4) || f->io.mem->ready();
    free(ids);
    return rc;
}

int step_full_create(const step_full_io *io, step_full **out, char *err, size_t errlen)
{
    step_full *f = calloc(1, sizeof *f);
    int n = model_layer_count(io->m), rc = -1;
    *out = NULL;
    if (!f) goto nomem;
    f->io = *io, f->n = n, f->es = io->storage == KERN_STORE_F32 ? 4 : 2;
    f->act = malloc((size_t)n * sizeof *f->act), f->aux = calloc((size_t)n, sizeof *f->aux);
    f->gbuf = malloc((size_t)n * sizeof *f->gbuf), f->slot = malloc((size_t)n * sizeof *f->slot);
    f->written = calloc((size_t)n, 1);
    if (!f->act || !f->aux || !f->gbuf || !f->slot || !f->written) goto nomem;
    for (int l = 0; l < n; l++)
        if ((model_layer_at(io->m, l)->kind >= MODEL_EMBED || model_layer_at(io->m, l)->flags) &&
            (!io->ops->xfmr || f->es != 4)) {
            snprintf(err, errlen, "--compute full: %s has transformer layers (%s), which have no %s kernels; "
                     "expected --compute gemm", model_name(io->m), model_layer_at(io->m, l)->name, io->ops->name);
            goto out;
        }
    if (lay_out(f)) {
        snprintf(err, errlen, "--compute full: %s has a data flow the step cannot run (internal error)",
                 model_name(io->m));
        goto out;
    }
    if (!(f->arena = io->mem->alloc_operand(f->total))) {
        snprintf(err, errlen, "--compute full: out of %s memory for %.1f MB of activations", io->mem->name,
                 f->total * 1e-6);
        goto out;
    }
    size_t img = (size_t)3 * model_batch(io->m) * model_image_size(io->m) * model_image_size(io->m);
    if (io->real && f->ids && put_ids(f)) {
        snprintf(err, errlen, "--compute full: cannot initialise the token ids");
        goto out;
    }
    if (io->real && (fill(f, f->image, img, 0.1f) ||
                     fill(f, f->dloss, (size_t)model_out_elems(io->m, model_layer_at(io->m, n - 1)), 1e-3f) ||
                     io->mem->ready())) {
        snprintf(err, errlen, "--compute full: cannot initialise the %s buffers", io->mem->name);
        goto out;
    }
    *out = f, f = NULL, rc = 0;
    goto out;
nomem:
    snprintf(err, errlen, "out of memory");
out:
    step_full_free(f);
    return rc;
}

int step_full_failed(step_full *f, const char *what, const model_layer *L)
{
    snprintf(f->err, sizeof f->err, "%s of %s failed (%s kernels)", what, L->name, f->io.ops->name);
    return -1;
}

float *step_full_act(step_full *f, int l) { return A(f, l); }
float *step_full_loss_grad(step_full *f) { return at(f, f->dloss); }

void step_full_free(step_full *f)
{
    if (!f) return;
    if (f->arena) f->io.mem->free_operand(f->arena, f->total);
    free(f->act), free(f->aux), free(f->gbuf), free(f->slot), free(f->written);
    free(f);
}

/* The residual add and ReLU after a block's last layer (forward). */
static int block_end_fwd(step_full *f, const model_layer *L)
{
    if (L->res_into < 0) return 0;
    size_t n = (size_t)model_out_elems(f->io.m, model_layer_at(f->io.m, L->res_into));
    return f->io.ops->add(A(f, L->res_into), A(f, L->res_from), n) || f->io.ops->relu_fwd(A(f, L->res_into), n);
}

/* Input i's place in the output of a join: concat stacks its inputs' channel rows (CNHW), so input i
 * starts at the elements of the inputs before it; add and dropout read and write the whole output. */
static float *slice(step_full *f, float *base, const model_layer *L, int i)
{
    size_t off = 0;
    for (int j = 0; L->kind == MODEL_CONCAT && j < i; j++) off += elems(f, L->srcs[j]);
    return (float *)(void *)((char *)base + off * f->es);
}

/* add: a copy of the first input, then the others added; concat and dropout: copies. */
static int join_fwd(step_full *f, const model_layer *L, int l)
{
    const kern_layer_ops *k = f->io.ops;
    int rc = 0;
    for (int i = 0; !rc && i < nsrc(L); i++) {
        int s = src_at(L, i);
        rc = L->kind == MODEL_ADD && i > 0 ? k->add(A(f, l), A(f, s), elems(f, l))
                                            : k->copy(slice(f, A(f, l), L, i), A(f, s), elems(f, s));
    }
    return rc;
}

/* Each input's gradient: its slice of the output's, copied, or added where already written. */
int step_full_join_bwd(step_full *f, const model_layer *L, int l)
{
    const kern_layer_ops *k = f->io.ops;
    int rc = 0;
    for (int i = 0; !rc && i < nsrc(L); i++) {
        int s = src_at(L, i);
        float *from = slice(f, G(f, l), L, i);
        rc = f->written[f->gbuf[s]] ? k->add(G(f, s), from, elems(f, s)) : k->copy(G(f, s), from, elems(f, s));
        f->written[f->gbuf[s]] = 1;
    }
    return rc;
}

/* The GEMM of a conv or FC, through im2col where its window needs it. */
static int gemm_fwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const float *x = A(f, L->src);
    kern_window g;
    if (L->flags & MODEL_F_FIRST) { /* the first position of each sequence (BERT's pooler) */
        kern_span t0 = kern_span_open();
        if (f->io.ops->xfmr->first_gather(x, col_buf(f), L->in_c, L->in_h, model_batch(f->io.m)))
            return step_full_failed(f, "the first positions", L);
        *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
        x = col_buf(f);
    } else if (model_needs_im2col(L)) {
        kern_span t0 = kern_span_open();
        if (model_window(f->io.m, L, &g) || f->io.ops->im2col(x, col_buf(f), &g))
            return step_full_failed(f, "im2col", L);
        *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
        x = col_buf(f);
    }
    return f->io.gemm(f->io.gemm_arg, &L->gemm[MODEL_FWD], weights(f, L), x, A(f, l), 0.0f, f->es == 2);
}

static int forward_pass(step_full *f, double *other_s)
{
    const kern_layer_ops *k = f->io.ops;
    const model *m = f->io.m;
    for (int l = 0; l < f->n; l++) {
        const model_layer *L = model_layer_at(m, l);
        size_t n = (size_t)model_out_elems(m, L), per = n / (size_t)L->out_c;
        int gemm = L->kind == MODEL_CONV || L->kind == MODEL_FC;
        kern_window g;
        if (f->io.layer_hook && f->io.layer_hook(f->io.gemm_arg, l)) return -1;
        if (gemm && gemm_fwd(f, L, l, other_s)) return -1;
        if (L->kind >= MODEL_EMBED) {
            if (step_full_xf_fwd(f, L, l, other_s))
                return f->err[0] ? -1 : step_full_failed(f, "the forward kernels", L);
            continue;
        }
        kern_span t0 = kern_span_open();
        int rc = 0;
        if (L->kind == MODEL_BN) {
            float *mean = at(f, f->aux[l]);
            const float *p = param(f, L->tensor0);
            rc = k->bn_fwd(A(f, L->src), A(f, l), p, p + L->out_c, mean, mean + L->out_c, L->out_c, per, BN_EPS);
        } else if (L->kind == MODEL_POOL && L->avg == MODEL_AVG_GLOBAL) {
            rc = k->avgpool_fwd(A(f, L->src), A(f, l), (size_t)L->in_c * model_batch(m), L->in_h * L->in_w);
        } else if (L->kind == MODEL_POOL) {
            rc = model_window(m, L, &g) ||
                 (L->avg ? k->avgpool_win_fwd(A(f, L->src), A(f, l), &g)
                         : k->maxpool_fwd(A(f, L->src), A(f, l), (int32_t *)(at(f, f->aux[l])), &g));
        } else if (gemm && L->ntensors > 1) { /* the bias */
            rc = k->bias_fwd(A(f, l), param(f, L->tensor0 + 1), L->out_c, per);
        } else if (!gemm) {
            rc = join_fwd(f, L, l);
        }
        rc = rc || (L->relu && k->relu_fwd(A(f, l), n)) || block_end_fwd(f, L);
        *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
        if (rc) return step_full_failed(f, "the forward kernels", L);
    }
    return 0;
}

void step_full_begin_backward(step_full *f)
{
    memset(f->written, 0, (size_t)f->n);
    f->written[f->gbuf[f->n - 1]] = 1; /* the loss gradient */
}

/* Weight gradient, then data gradient (through col2im where im2col was needed) of a conv or FC. */
static int gemm_bwd(step_full *f, const model_layer *L, int l, double *other_s)
{
    const kern_layer_ops *k = f->io.ops;
    const float *x = A(f, L->src);
    float *dx = L->src >= 0 ? G(f, L->src) : NULL;
    const float *dY = G(f, l);
    int col = model_needs_im2col(L), acc = L->src >= 0 && f->written[f->gbuf[L->src]];
    kern_window g;
    if (L->flags & MODEL_F_FIRST) return step_full_first_bwd(f, L, l, other_s);
    kern_span t0 = kern_span_open();
    if (col && (model_window(f->io.m, L, &g) || k->im2col(x, col_buf(f), &g)))
        return step_full_failed(f, "im2col", L);
    *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
    if (col) x = col_buf(f);
    if (f->io.gemm(f->io.gemm_arg, &L->gemm[MODEL_BWD_WEIGHT], dY, x, grad(f, L->tensor0), 0.0f, 0))
        return -1;
    if (!L->data_grad_needed) return 0;
    if (f->io.gemm(f->io.gemm_arg, &L->gemm[MODEL_BWD_DATA], weights(f, L), dY, col ? col_buf(f) : dx,
                   acc && !col ? 1.0f : 0.0f, f->es == 2))
        return -1;
    f->written[f->gbuf[L->src]] = 1;
    if (!col) return 0;
    t0 = kern_span_open();
    int rc = k->col2im(col_buf(f), dx, &g, acc);
    *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
    return rc ? step_full_failed(f, "col2im", L) : 0;
}

static int backward_layer(step_full *f, int l, double *other_s)
{
    const kern_layer_ops *k = f->io.ops;
    const model *m = f->io.m;
    const model_layer *L = model_layer_at(m, l);
    size_t n = (size_t)model_out_elems(m, L), per = n / (size_t)L->out_c;
    int gemm = L->kind == MODEL_CONV || L->kind == MODEL_FC, fresh = fresh_writer(L);
    kern_window g;
    int rc = 0;
    if (L->kind >= MODEL_EMBED) return step_full_xf_backward_layer(f, L, l, other_s);
    kern_span t0 = kern_span_open();
    if (L->res_into >= 0) /* the block's ReLU; the add's gradient is the shared buffer itself */
        rc = k->relu_bwd(A(f, L->res_into), G(f, L->res_into),
                         (size_t)model_out_elems(m, model_layer_at(m, L->res_into)));
    /* BN and pools write their input's gradient: into the scratch slot, then added, if another reader wrote it */
    int onto = fresh && L->src >= 0 && f->written[f->gbuf[L->src]];
    if (onto && !f->scratch) {
        snprintf(f->err, sizeof f->err, "%s: its input gradient was already written (internal error)", L->name);
        return -1;
    }
    float *dx = fresh && L->src >= 0 ? (onto ? at(f, f->scratch) : G(f, L->src)) : NULL;
    rc = rc || (L->relu && k->relu_bwd(A(f, l), G(f, l), n));
    if (!rc && L->kind == MODEL_BN) {
        const float *p = param(f, L->tensor0), *mean = at(f, f->aux[l]);
        float *dg = grad(f, L->tensor0);
        rc = k->bn_bwd(A(f, L->src), G(f, l), dx, p, mean, mean + L->out_c, dg, dg + L->out_c, L->out_c, per);
    } else if (!rc && L->kind == MODEL_POOL && L->src < 0) {
        rc = 0; /* the image's gradient: none */
    } else if (!rc && L->kind == MODEL_POOL && L->avg == MODEL_AVG_GLOBAL) {
        rc = k->avgpool_bwd(G(f, l), dx, (size_t)L->in_c * model_batch(m), L->in_h * L->in_w);
    } else if (!rc && L->kind == MODEL_POOL) {
        rc = model_window(m, L, &g) || (L->avg ? k->avgpool_win_bwd(G(f, l), dx, &g)
                                               : k->maxpool_bwd(G(f, l), (const int32_t *)(at(f, f->aux[l])), dx, &g));
    } else if (!rc && gemm && L->ntensors > 1) {
        rc = k->bias_bwd(G(f, l), grad(f, L->tensor0 + 1), L->out_c, per);
    } else if (!rc && !gemm) {
        rc = step_full_join_bwd(f, L, l);
    }
    rc = rc || (onto && k->add(G(f, L->src), dx, elems(f, L->src)));
    *other_s += kern_span_close(t0, KERN_SPAN_OTHER);
    if (rc) return step_full_failed(f, "the backward kernels", L);
    if (fresh && L->src >= 0) f->written[f->gbuf[L->src]] = 1;
    return gemm ? gemm_bwd(f, L, l, other_s) : 0;
}

/* The public passes: the message of a failure (empty when the GEMM callback failed: its caller says
 * why) into the caller's buffer. */
int step_full_forward(step_full *f, double *other_s, char *err, size_t errlen)
{
    int rc = forward_pass(f, other_s);
    if (rc) snprintf(err, errlen, "%s", f->err);
    return rc;
}

int step_full_backward_layer(step_full *f, int l, double *other_s, char *err, size_t errlen)
{
    int rc = backward_layer(f, l, other_s);
    if (rc) snprintf(err, errlen, "%s", f->err);
    return rc;
}
