/* model_priv.h — the model's storage, shared by its builder (model_file.c, which reads a model
 * description) and its accessors (model.c). Not for use outside harness/train/model*.c. */
#ifndef HARN_MODEL_PRIV_H
#define HARN_MODEL_PRIV_H

#include "model.h"

struct model {
    char name[256];        /* the built-in name, or the file's path as given */
    int batch, image_size;
    int seq;               /* a transformer's sequence length (embed's seq=); 0 for image networks */
    model_layer *layers;
    model_tensor *tensors;
    int nlayers, ntensors, cap_layers, cap_tensors;
    long long params, macs, max_tensor;
    char err[512];         /* while it is built: the one-line message model_create hands its caller */
};

/* Records the one-line message of m's failed build (model_create copies it to its caller's buffer)
 * and returns code. */
int model_fail(model *m, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Builds m's layers from a model description (docs/MODELS.md). `file` names the text in messages
 * ("FILE:LINE: ..."). m holds the name, batch and image size; MODEL_OK, or an error code. */
int model_parse(model *m, const char *text, const char *file);

/* The built-in descriptions (model_resnet.c writes the ResNets; the others are literal texts). */
char *model_resnet_text(const char *name); /* NULL: not a ResNet name, or out of memory */
char *model_xfmr_text(const char *name);  /* model_xfmr.c: gpt2, bert-large, llama3.2-1b; else NULL */
extern const char model_vgg16_text[];      /* model_vgg.c */
extern const char model_inception3_text[]; /* model_inception.c */

#endif
