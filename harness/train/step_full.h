/* step_full.h — the whole network's compute for `ddlbench train --compute full`: the data flow of
 * the model (model.h: src, srcs, relu, res_into/res_from) run with real kernels on real activations —
 * im2col, the conv/FC GEMMs, batch norm with batch statistics, ReLU, residual adds and add layers,
 * concat and dropout (copies), max, windowed and global average pooling, the conv and FC biases —
 * forward, then backward layer by layer (the trainer posts gradient buckets between layers), and
 * the optimizer (SGD with momentum and weight decay, in trainer.c). An input read by several layers
 * gets its gradient summed: GEMMs add with beta = 1, col2im accumulates, joins add; a BN or pool
 * (whose kernels write, not add) that is not the first to write it goes through a scratch slot.
 *
 * Memory (one operand allocation, carved): every layer's output activation (what training keeps for
 * the backward pass), the input images, per-BN mean and 1/std, max-pool indices, the classifier's
 * output gradient (a fixed synthetic buffer: no loss is computed), one im2col matrix of the largest
 * conv that needs one, and a few gradient slots of the largest activation, reused as gradients die
 * (step_full_plan). Gradients of a residual block's shortcut share one slot with the block output's,
 * so the add's backward is the data-gradient GEMM's beta = 1.
 * Activations are float32, or 2-byte (bf16/fp16, io.storage) on the device when the GEMMs run in
 * that type: then the GEMMs read and write the 2-byte activations (kern_gemm_ex_c), the weights come
 * from the trainer's 2-byte copy (made at setup; the per-step cast is not performed), and weight
 * gradients, BN statistics and parameters stay float32. */
#ifndef HARN_STEP_FULL_H
#define HARN_STEP_FULL_H

#include "layers.h"
#include "model.h"
#include "step_mem.h"

#include <stddef.h>

/* The trainer's GEMM: C = op(A)·op(B) + beta·C for g, timed and counted as a GEMM; c16: C holds 2-byte
 * elements of the GEMM's input type (an activation), else float32 (a weight gradient). */
typedef int (*step_gemm_fn)(void *arg, const model_gemm *g, const void *a, const void *b, void *c, float beta, int c16);

typedef struct step_full_io {
    const model *m;
    const kern_layer_ops *ops;  /* host, simulated or device kernels */
    const step_mem *mem;        /* where the buffers live */
    int real;                   /* buffers hold data (not simulated operands) */
    const float *params;        /* flat parameters and gradients, tensor t at offset[t] */
    float *grads;
    const size_t *offset;
    const char *wh;             /* bf16/fp16: the 2-byte copy of the weights; NULL for fp32 */
    int storage;                /* activations: KERN_STORE_F32, or _BF16/_F16 (device, with wh) */
    step_gemm_fn gemm;
    void *gemm_arg;             /* also layer_hook's */
    int (*layer_hook)(void *arg, int l); /* optional: before layer l's forward (full sharding's gathers);
                                            non-zero fails the pass, its message the hook owner's */
    const size_t *poffset;      /* optional: tensor t's parameters at params + poffset[t] instead of offset[t]
                                   (full sharding: the gathered buckets' slots; the pass may change them) */
    const size_t *goffset;      /* optional: tensor t's gradient at grads + goffset[t] instead of offset[t]
                                   (gradient sharding: the buckets' slots) */
} step_full_io;

typedef struct step_full step_full;

/* The gradient-slot plan (pure; unit-tested): gbuf[l] = the gradient buffer layer l's output uses
 * (shared within a residual block), slot[l] = the slot it lives in during backward, *nslots slots
 * in all. gbuf and slot hold model_layer_count(m) ints. 0, or -1 when the data flow is not one the
 * step can run (a gradient read before it is written). */
int step_full_plan(const model *m, int *gbuf, int *slot, int *nslots);
/* Bytes of the one operand allocation step_full_create makes with float32 activations (for
 * guard_model_bytes), or with 2-byte ones (storage != KERN_STORE_F32). -1 when the plan fails. */
double step_full_bytes(const model *m, int storage);

int step_full_create(const step_full_io *io, step_full **out, char *err, size_t errlen);
/* The forward pass; *gemm_s gets nothing here (the GEMM callback times GEMMs), *other_s the time in
 * the other kernels. 0, or non-zero with a one-line message in err (empty when the GEMM callback
 * failed: the callback's owner has its message). */
int step_full_forward(step_full *f, double *other_s, char *err, size_t errlen);
/* Resets the per-step gradient bookkeeping (call before the first step_full_backward_layer). */
void step_full_begin_backward(step_full *f);
/* Layer l's backward: its weight and data gradients and its non-GEMM kernels; errors as forward. */
int step_full_backward_layer(step_full *f, int l, double *other_s, char *err, size_t errlen);
/* Tests: layer l's output activation, and the classifier's output gradient (the implied loss is
 * L = Σ dloss · output of the last layer); float32 storage. */
float *step_full_act(step_full *f, int l);
float *step_full_loss_grad(step_full *f);
void step_full_free(step_full *f);

#endif
