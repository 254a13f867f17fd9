/* model_bytes.h — the memory-bound work of a model's training step (kernels/layers.h) per layer:
 * which window each conv and pool applies, whether a conv's GEMM needs im2col/col2im, and the bytes
 * the kernels of the full step (harness/train/step_full.c, `--compute full`) move, forward and
 * backward, next to the GEMM FLOPs of model.h. `ddlbench model` prints them; the simulation charges
 * the same bytes (layers_sim.c), so the two agree by construction (tests/sim_model.sh checks it). */
#ifndef HARN_MODEL_BYTES_H
#define HARN_MODEL_BYTES_H

#include "layers.h"
#include "model.h"

/* The input window of a conv or pool layer over the model's batch; 0, or -1 for other layers. */
int model_window(const model *m, const model_layer *l, kern_window *g);
/* 1 when a conv's GEMM reads an im2col matrix (kernel > 1×1 or stride > 1), else 0. */
int model_needs_im2col(const model_layer *l);
/* Elements of layer l's output activation over the batch (channels × batch × H × W). */
double model_out_elems(const model *m, const model_layer *l);
/* Bytes moved by layer l's non-GEMM kernels in the forward (pass MODEL_FWD) or backward pass
 * (pass 1): BN, ReLU, pools, biases, im2col/col2im, add, concat and dropout copies, and the
 * residual add + ReLU at a block's end. The GEMMs' own operand traffic is not counted (it is in their FLOP rate). */
double model_mem_bytes(const model *m, int l, int pass);
/* The same by kind of work: k[MODEL_MEM_KINDS] (below) filled, not added to. */
void model_mem_bytes_kinds(const model *m, int l, int pass, double *k);
/* Bytes of one SGD-with-momentum update over every parameter (w, v, g read; w, v written). */
double model_sgd_bytes(const model *m);

/* The step's bytes by kind of work (forward + backward + the update), k[MODEL_MEM_KINDS]. */
enum { MODEL_MEM_BN, MODEL_MEM_RELU, MODEL_MEM_ADD, MODEL_MEM_IM2COL, MODEL_MEM_POOL, MODEL_MEM_BIAS, MODEL_MEM_SGD,
       MODEL_MEM_COPY, MODEL_MEM_EMBED, MODEL_MEM_NORM, MODEL_MEM_SOFTMAX, MODEL_MEM_ACT, MODEL_MEM_KINDS };
void model_mem_by_kind(const model *m, double *k);
const char *model_mem_kind_name(int kind); /* "batchnorm", "relu", ..., "sgd_momentum" */

#endif
