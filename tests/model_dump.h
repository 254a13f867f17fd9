/* model_dump.h — every field of a built model as text, one line per layer and per tensor, then the
 * totals: what tests/test_model_file.c compares against the golden dumps in tests/models/, which
 * were written from the C ResNet builder before the model files replaced it (so today's ResNets
 * are shown identical field by field: names, shapes, tensors, GEMMs, data flow). */
#ifndef TEST_MODEL_DUMP_H
#define TEST_MODEL_DUMP_H

#include "model.h"

#include <stdio.h>

static inline void model_dump(const model *m, FILE *f)
{
    fprintf(f, "model %s batch %d image %d layers %d tensors %d params %lld max %lld macs %lld\n", model_name(m),
            model_batch(m), model_image_size(m), model_layer_count(m), model_tensor_count(m), model_param_count(m),
            model_max_tensor(m), model_fwd_macs(m));
    for (int i = 0; i < model_layer_count(m); i++) {
        const model_layer *l = model_layer_at(m, i);
        fprintf(f, "L %d %s kind %d in %dx%dx%d out %dx%dx%d win %dx%d s %d p %d t %d+%d params %lld macs %lld dgn %d "
                   "src %d relu %d avg %d res %d,%d",
                i, l->name, (int)l->kind, l->in_c, l->in_h, l->in_w, l->out_c, l->out_h, l->out_w, l->kh, l->kw,
                l->stride, l->pad, l->tensor0, l->ntensors, l->params, l->macs, l->data_grad_needed, l->src, l->relu,
                l->avg, l->res_into, l->res_from);
        for (int g = 0; g < MODEL_GEMM_COUNT; g++)
            fprintf(f, " g%d %d%d %dx%dx%d", g, l->gemm[g].transa, l->gemm[g].transb, l->gemm[g].m, l->gemm[g].n,
                    l->gemm[g].k);
        fputc('\n', f);
    }
    for (int t = 0; t < model_tensor_count(m); t++) {
        const model_tensor *x = model_tensor_at(m, t);
        fprintf(f, "T %d %s %lld %d\n", t, x->name, x->numel, x->layer);
    }
}

#endif
