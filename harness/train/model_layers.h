/* model_layers.h — the model file reader's state (model_file.c reads the lines) and its layer
 * builders (model_layers.c turns one line into layers, tensors and GEMMs, with the shape checks).
 * Private to harness/train/model*.c. */
#ifndef HARN_MODEL_LAYERS_H
#define HARN_MODEL_LAYERS_H

#include "model_priv.h"

#define MF_MAX_DIM (1 << 20) /* largest number a line may give (channels, kernel, stride, padding) */
#define MF_IMAGE (-2)        /* the entry of the input image */

enum { MF_CONV, MF_BN, MF_FC, MF_POOL, MF_RELU, MF_ADD, MF_CONCAT, MF_DROPOUT, /* images */
       MF_EMBED, MF_POS, MF_NORM, MF_LINEAR, MF_ATTN, MF_GELU, MF_SWIGLU, MF_TANH, MF_KINDS }; /* sequences */

typedef struct mf_entry {
    char name[40];
    int layer;  /* the layer whose output it names */
    int line;   /* where it was defined */
    int alias;  /* a relu or folded add: names an earlier layer's output, overwritten in place */
    int dead;   /* the line that overwrote this output in place (then it may not be read); 0 */
} mf_entry;

typedef struct mf_attrs {
    const char *in;              /* in=: comma list, or NULL (the line above) */
    long out, kh, kw, s, ph, pw; /* out=, k=KH[xKW], s= (-1: not given), p=PH[xPW] */
    long cin;                    /* cin=: the input channels (FC: features) expected; 0 = not checked */
    int has_out, has_k, bias, relu, max, avg, global;
    long vocab, seq, n, heads, kv; /* embed vocab= seq=, pos n=, attn heads= kv= (-1: not given) */
    const char *tied;              /* linear tied=: the embedding whose weight it uses; NULL */
    int flags;                     /* model.h's MODEL_F_*: causal rope rms first segment */
} mf_attrs;

typedef struct mf_parser {
    model *m;
    const char *file, *cur; /* cur: the current line's start in the text */
    int line;
    mf_entry *e;            /* every name defined so far */
    int ne, cap_e;
    int prev;               /* entry of the line above's output; MF_IMAGE before the first */
    int *readers, *lines, *stride, cap; /* per layer: readers, its line, total stride from the image */
    int max_stride;
    char win[600];          /* the first window that does not fit at this image size */
} mf_parser;

int mf_bad(mf_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3))); /* "FILE:LINE: ..." */
/* The layer of one line (kind MF_*), reading the entries src[0 .. nsrc-1]; defines its name. */
int mf_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src, int nsrc);
/* After the last line: the image against the network's total stride, then every window. */
int mf_image_checks(mf_parser *p);

/* The transformer lines (model_layers_xfmr.c): embed, pos, norm, linear, attn, gelu, swiglu, tanh. */
int mf_xfmr_layer(mf_parser *p, int kind, const char *name, const mf_attrs *a, const int *src);

/* Shared by the builders: a kind's word, an entry's name and shape, a new layer (name defined by
 * mf_define), its tensors and GEMMs, the cin= check. */
extern const char *const mf_kind_word[];
const char *mf_entry_name(const mf_parser *p, int entry);
void mf_shape_of(const mf_parser *p, int entry, int *c, int *h, int *w);
void mf_define(mf_parser *p, const char *name, int layer, int alias);
model_layer *mf_new_layer(mf_parser *p, model_kind kind, const char *name, const int *src, int nsrc);
void mf_add_tensor(model *m, model_layer *l, const char *suffix, long long numel);
int mf_set_gemms(model *m, model_layer *l, long long M, long long N, long long K);
int mf_check_cin(mf_parser *p, int kind, const char *name, const mf_attrs *a, long long have, int src);

#endif
