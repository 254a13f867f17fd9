/* model.c — a built model's accessors and model_create's dispatch: a built-in name is a model
 * description held in the program (model_resnet.c writes the ResNets from their stage table;
 * model_vgg.c and model_inception.c hold VGG-16 and Inception V3), a path is a user's file; both
 * are read by model_file.c. Files are read whole (textfile.h). */
#include "model_priv.h"
#include "textfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_IMAGE 65536 /* keeps batch × H × W within long long; int GEMM sizes are checked too */

int model_fail(model *m, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, sizeof m->err, fmt, ap);
    va_end(ap);
    return code;
}

const char *model_names(void)
{
    return "resnet50, resnet101, resnet101-22k, vgg16, inception3, gpt2, bert-large, llama3.2-1b";
}

static int builtin(const char *name)
{
    static const char *const names[] = { "resnet50", "resnet101", "resnet101-22k", "vgg16", "inception3",
                                         "gpt2", "bert-large", "llama3.2-1b" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i])) return 1;
    return 0;
}

int model_is_file(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return name && (strchr(name, '/') || (n > 4 && !strcmp(name + n - 4, ".txt")));
}

char *model_text(const char *name)
{
    if (!name || !builtin(name)) return NULL;
    const char *lit = !name ? NULL : !strcmp(name, "vgg16") ? model_vgg16_text
                                   : !strcmp(name, "inception3") ? model_inception3_text : NULL;
    if (!lit) {
        char *x = model_xfmr_text(name);
        return x ? x : model_resnet_text(name);
    }
    char *s = malloc(strlen(lit) + 1);
    return s ? strcpy(s, lit) : NULL;
}

/* The whole file at path (textfile.h), NUL-terminated; NULL with *rc and the message in err. */
static char *read_file(const char *path, int *rc, char *err, size_t errlen)
{
    char *buf = NULL, why[400];
    size_t n = 0;
    int r = textfile_read(path, &buf, &n, why, sizeof why);
    if (r == 1) return *rc = MODEL_ENOMEM, snprintf(err, errlen, "model: out of memory"), NULL;
    if (r) return *rc = MODEL_EARG, snprintf(err, errlen, "--model %s", why), NULL;
    if (memchr(buf, '\0', n)) {
        free(buf);
        *rc = MODEL_EARG;
        snprintf(err, errlen, "--model %s: holds a NUL byte; expected a text model description", path);
        return NULL;
    }
    return buf;
}

int model_create(const char *name, int batch, int image_size, model **out, char *err, size_t errlen)
{
    model *m = NULL;
    char *text = NULL;
    int rc = MODEL_OK, file = model_is_file(name);
    *out = NULL;
    if (!file && name && builtin(name) && !(text = model_text(name)))
        return snprintf(err, errlen, "model: out of memory"), MODEL_ENOMEM;
    if (!file && !text) {
        snprintf(err, errlen, "--model \"%s\": unknown; expected one of %s, or a model file (a path with a '/' "
                 "or ending in .txt; docs/MODELS.md)", name ? name : "(null)", model_names());
        return MODEL_EARG;
    }
    if (batch < 1) {
        rc = MODEL_EARG, snprintf(err, errlen, "--batch %d: expected a positive integer", batch);
        goto out;
    }
    if (image_size > MAX_IMAGE) {
        rc = MODEL_EARG,
        snprintf(err, errlen, "--image-size %d: too large; expected at most %d", image_size, MAX_IMAGE);
        goto out;
    }
    if (file && !(text = read_file(name, &rc, err, errlen))) return rc;
    if (!(m = calloc(1, sizeof *m))) {
        rc = MODEL_ENOMEM, snprintf(err, errlen, "model: out of memory");
        goto out;
    }
    snprintf(m->name, sizeof m->name, "%s", name);
    m->batch = batch, m->image_size = image_size;
    if ((rc = model_parse(m, text, file ? name : m->name))) snprintf(err, errlen, "%s", m->err);
out:
    free(text);
    if (rc) model_free(m);
    else *out = m;
    return rc;
}

void model_free(model *m)
{
    if (!m) return;
    free(m->layers);
    free(m->tensors);
    free(m);
}

const char *model_name(const model *m) { return m->name; }
int model_batch(const model *m) { return m->batch; }
int model_image_size(const model *m) { return m->image_size; }
int model_layer_count(const model *m) { return m->nlayers; }
int model_tensor_count(const model *m) { return m->ntensors; }
long long model_param_count(const model *m) { return m->params; }
long long model_max_tensor(const model *m) { return m->max_tensor; }
long long model_fwd_macs(const model *m) { return m->macs; }
int model_seq_len(const model *m) { return m->seq; }

double model_gemm_flops(const model_layer *l, int g)
{
    const model_gemm *x = &l->gemm[g];
    return 2.0 * x->m * x->n * x->k * (double)l->gemm_reps;
}

const model_layer *model_layer_at(const model *m, int i)
{
    return i >= 0 && i < m->nlayers ? &m->layers[i] : NULL;
}

const model_tensor *model_tensor_at(const model *m, int t)
{
    return t >= 0 && t < m->ntensors ? &m->tensors[t] : NULL;
}
