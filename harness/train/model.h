/* model.h — the layers of a network as a training step sees them: trainable tensors (sizes, names)
 * and, for convolutions and the classifier, the GEMMs of forward and backward in the im2col view.
 * Built from a model description (docs/MODELS.md: a DAG of layers, one a line, read by
 * model_file.c); the built-in networks are such texts (model_resnet.c writes the ResNets from their
 * stage table; model_vgg.c, model_inception.c), and a path names a user's file.
 *
 * Layers, in forward order: every conv, batch norm, FC and pool, and the layers that join or copy
 * activations (add, concat, dropout: no tensors, no GEMM), so activation shapes can be followed end
 * to end. A ReLU is not a layer here but the `relu` flag of the layer whose output it rectifies in
 * place (the stem's bn1, each bottleneck's bn1 and bn2; VGG's convs). A residual add followed by a
 * ReLU whose first input has no other reader is folded as in the ResNets: on the later of its two
 * inputs (bn3, or downsample.1 in a stage's first block) `res_into`/`res_from` say that after it,
 * out[res_into] (bn3) += out[res_from] (the shortcut: downsample.1, or the block's input) and a ReLU,
 * both in place. Any other add is a MODEL_ADD layer. `src` is the layer whose output a layer reads
 * (-1: the image; srcs[0 .. nsrc-1] for add and concat, srcs[0] = src), so the data flow, including
 * the shortcut's, can be followed (harness/train/step_full.c runs it). Tensors follow torchvision's
 * named_parameters() order and names: "conv1.weight", "bn1.weight" (BN scale), "bn1.bias" (BN
 * shift), "layer3.4.conv2.weight", "layer1.0.downsample.0.weight", ..., "fc.weight", "fc.bias"; a
 * conv with a bias (VGG) has "NAME.bias" after its weight.
 *
 * GEMMs (row-major, kern_gemm_f32 flags; tight leading dimensions lda = transa ? m : k,
 * ldb = transb ? k : n, ldc = n). For a conv with M = out channels, N = batch·H_out·W_out,
 * K = in channels·kh·kw, weights W stored M×K and the im2col matrix X stored K×N:
 *   MODEL_FWD        Y[M×N]  = W · X          (NOTRANS, NOTRANS)  m=M n=N k=K
 *   MODEL_BWD_DATA   dX[K×N] = Wᵀ · dY        (TRANS,   NOTRANS)  m=K n=N k=M   (then col2im)
 *   MODEL_BWD_WEIGHT dW[M×K] = dY · Xᵀ        (NOTRANS, TRANS)    m=M n=K k=N
 * The FC layer is the same with K = in features, N = batch (Y = W·X, X stored features × batch); an
 * FC over a C×H×W map (VGG's first classifier layer) flattens it as a conv whose window is the whole
 * map would (kh × kw = H × W, so K = C·H·W, through im2col).
 * All three have m·n·k = M·N·K, so each costs kern_gemm_flops(M, N, K).
 *
 * MACs counted (model_fwd_macs): conv and FC multiply-adds only, per image, as torchvision's
 * "GFLOPS" column does (BN, ReLU, pools, residual adds and biases are not counted). */
#ifndef HARN_MODEL_H
#define HARN_MODEL_H

#include <stddef.h>

typedef struct model model; /* opaque; model_create makes one, model_free releases it */

typedef enum {
    MODEL_CONV, MODEL_BN, MODEL_FC, MODEL_POOL, MODEL_ADD, MODEL_CONCAT, MODEL_DROPOUT,
    MODEL_EMBED, MODEL_NORM, MODEL_ATTN, MODEL_ACT /* transformers (docs/MODELS.md) */
} model_kind;
#define MODEL_KINDS 11
#define MODEL_MAX_SRC 8 /* inputs of one add or concat */
enum { MODEL_FWD, MODEL_BWD_DATA, MODEL_BWD_WEIGHT, MODEL_GEMM_COUNT };

typedef struct model_gemm {
    int transa, transb; /* KERN_NOTRANS (0) / KERN_TRANS (1) */
    int m, n, k;        /* all 0 for layers without a GEMM */
} model_gemm;

typedef struct model_tensor {
    char name[48];    /* torchvision name, e.g. "layer3.4.conv2.weight" */
    long long numel;  /* elements */
    int layer;        /* index of the layer that owns it */
} model_tensor;

typedef struct model_layer {
    char name[40];                     /* e.g. "layer3.4.conv2", "fc", "maxpool" */
    model_kind kind;
    int in_c, in_h, in_w;              /* input activation per image (FC: in_h = in_w = 1) */
    int out_c, out_h, out_w;           /* output activation per image */
    int kh, kw, stride, pad;           /* conv and pool window (pad: rows); FC 1×1, or H×W over a map */
    int tensor0, ntensors;             /* its tensors: model_tensor_at(tensor0 .. tensor0+ntensors-1) */
    long long params;                  /* elements over its tensors */
    long long macs;                    /* forward multiply-adds per image (conv, FC; else 0) */
    int data_grad_needed;              /* 0 for the stem conv: the image needs no gradient */
    int src;                           /* layer whose output this one reads; -1 = the input image */
    int relu;                          /* a ReLU follows, in place on this layer's output */
    int avg;                           /* pools: 0 max, 1 global average, 2 windowed average (MODEL_AVG_*) */
    int res_into, res_from;            /* block end: out[res_into] += out[res_from], ReLU; else -1, -1 */
    model_gemm gemm[MODEL_GEMM_COUNT]; /* MODEL_FWD, MODEL_BWD_DATA, MODEL_BWD_WEIGHT */
    int pad_w;                         /* window padding of the columns (= pad unless asymmetric) */
    int nsrc, srcs[MODEL_MAX_SRC];     /* inputs (add, concat: several; else 1, srcs[0] = src) */
    long long gemm_reps;               /* GEMMs of each gemm[] shape: 1 (conv, fc), 2·batch·heads (attn), else 0 */
    int heads, kv_heads;               /* attn: query heads, key/value heads (grouped-query when fewer) */
    int flags;                         /* MODEL_F_*: causal, rope, rms, first token, positions, segment */
    int act;                           /* MODEL_ACT: MODEL_ACT_GELU, _SWIGLU or _TANH */
    int tied;                          /* a linear using an embedding's weight: that layer; else -1 */
    long long vocab;                   /* embed: rows of its table (tokens, positions or segments) */
} model_layer;

/* Transformer layers (sequences are C x L x 1 maps: channels = width, H = positions):
 *   MODEL_EMBED  token ids -> rows of a vocab x width table (flags 0), or a table of positions
 *                (MODEL_F_POS: row p added at position p) or segments (MODEL_F_SEGMENT: row 0 added)
 *   MODEL_NORM   layer norm over the channels of each position (weight, bias); MODEL_F_RMS: RMS norm
 *                (weight only)
 *   MODEL_FC     with kh = kw = 1 over an L-long map: a linear per position (N = batch·L);
 *                MODEL_F_FIRST: over the first position only (BERT's pooler, N = batch)
 *   MODEL_ATTN   packed q,k,v channels in ((heads + 2·kv_heads)·dh), heads·dh out; per sequence and
 *                head two GEMMs forward (QKᵀ: L x L x dh, then PV: same FLOPs), four backward;
 *                gemm[] holds the QKᵀ shape and gemm_reps = 2·batch·heads of each
 *   MODEL_ACT    GELU, tanh (same shape) or SwiGLU (2f channels in: silu(first half)·second, f out) */
enum { MODEL_F_CAUSAL = 1, MODEL_F_ROPE = 2, MODEL_F_RMS = 4, MODEL_F_FIRST = 8, MODEL_F_POS = 16,
       MODEL_F_SEGMENT = 32 };
enum { MODEL_ACT_GELU, MODEL_ACT_SWIGLU, MODEL_ACT_TANH };

enum { MODEL_AVG_NONE, MODEL_AVG_GLOBAL, MODEL_AVG_WINDOW }; /* model_layer.avg: max, global, windowed */

enum {
    MODEL_OK = 0,
    MODEL_EARG = 1, /* unknown name, a bad model file, batch < 1, image too small or too large */
    MODEL_ENOMEM = 2,
};

/* Build the layers of `name` (see model_names; a name with a '/' or ending in ".txt" is a model
 * file, docs/MODELS.md) at `batch` images of image_size × image_size.
 * Output sizes follow PyTorch's conv arithmetic floor((H + 2p − k)/s) + 1. The image must be at
 * least the network's total stride (32) so the final feature map covers at least 1×1 real pixels,
 * every window must fit its input, and every GEMM dimension must fit in an int. Returns MODEL_OK and
 * *out, or an error code with a one-line message in err naming what was wrong and what was expected
 * (for a model file "FILE:LINE: ..."). */
int model_create(const char *name, int batch, int image_size, model **out, char *err, size_t errlen);
void model_free(model *m);
const char *model_names(void); /* "resnet50, resnet101, resnet101-22k, vgg16, inception3" */
/* The built-in model description of `name` (NULL for an unknown name): what `ddlbench model text`
 * prints, a starting point for a user's file. The caller frees it. */
char *model_text(const char *name);
int model_is_file(const char *name); /* 1 when `name` is read as a model file */

const char *model_name(const model *m);
int model_batch(const model *m);
int model_image_size(const model *m);
int model_layer_count(const model *m);
const model_layer *model_layer_at(const model *m, int i);   /* NULL when out of range */
int model_tensor_count(const model *m);
const model_tensor *model_tensor_at(const model *m, int t); /* NULL when out of range */
long long model_param_count(const model *m);                /* elements over all tensors */
long long model_max_tensor(const model *m);                 /* largest tensor's elements */
long long model_fwd_macs(const model *m);                   /* per image, conv + FC (+ attention) */
/* FLOPs of layer l's GEMM g (MODEL_FWD, ...) over the batch: 2·m·n·k·gemm_reps; 0 without one. */
double model_gemm_flops(const model_layer *l, int g);
int model_seq_len(const model *m); /* a transformer's sequence length (embed's seq=); 0 for image networks */

#endif
