/* test_model_xfmr.c — the transformer layers of the model format (harness/train/model_layers.c,
 * docs/MODELS.md) and the shipped transformers (model_xfmr.c): parameter totals against the
 * published configurations, counted here by hand from the config (docs/SOURCES.md §4); the shapes
 * and GEMMs of each kind (linear per position, attention's batched QKᵀ, tied weights, first
 * position, SwiGLU); the non-GEMM bytes per kind; bad files, one line naming FILE:LINE; and the full
 * step's forward and backward on the host kernels (kernels/layers_xfmr.c): every kind's parameter
 * gradients against central finite differences of the implied loss, in a small decoder (tied head,
 * RMS norm, grouped-query causal attention with rotary positions, SwiGLU, GELU) and a small encoder
 * (positions and segments, layer norm, attention, dropout, a first-position pooler with tanh). */
#include "layers.h"
#include "model.h"
#include "model_bytes.h"
#include "step_full.h"
#include "step_mem.h"
#include "test.h"

#define STEP_FULL_TEST_SEED 11u
#include "step_full_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char merr[512];

static int build_text(const char *text, int batch, model **m, char *path, size_t len)
{
    snprintf(path, len, "/tmp/ddl_xfmr_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) return -1;
    fclose(f);
    int rc = model_create(path, batch, 224, m, merr, sizeof merr);
    unlink(path);
    return rc;
}

/* A decoder's total from its config: embeddings, per block (norms, q k v o, MLP), final norm. */
static long long count(long long vocab, long long d, long long layers, long long kvd, long long ffn, int glu,
                       int bias, long long positions, int tied)
{
    long long b = bias ? 1 : 0, norm = bias ? 2 * d : d;
    long long attn = d * (d + 2 * kvd) + b * (d + 2 * kvd) + d * d + b * d;
    long long mlp = glu ? 3 * d * ffn : 2 * d * ffn + b * (ffn + d);
    return vocab * d + positions * d + layers * (2 * norm + attn + mlp) + norm + (tied ? 0 : vocab * d);
}

static void test_shipped(void)
{
    static const struct { const char *name; long long params; int seq, layers; } cases[] = {
        /* GPT-2 small (HF gpt2 config: vocab 50257, n_embd 768, 12 layers, n_positions 1024) */
        { "gpt2", 124439808LL, 1024, 12 },
        /* BertModel bert-large-uncased (vocab 30522, 1024, 24 layers, 4096, 512 positions, 2 types, pooler) */
        { "bert-large", 335141888LL, 512, 24 },
        /* Llama 3.2 1B (vocab 128256, 2048, 16 layers, 8 kv heads of 64, 8192, tied) */
        { "llama3.2-1b", 1235814400LL, 2048, 16 },
    };
    long long by_hand[3] = {
        count(50257, 768, 12, 768, 3072, 0, 1, 1024, 1),
        count(30522, 1024, 24, 1024, 4096, 0, 1, 512 + 2, 1) /* no head; the embeddings' norm for a final one */ +
            1024 * 1024 + 1024 /* the pooler */,
        count(128256, 2048, 16, 512, 8192, 1, 0, 0, 1),
    };
    for (int i = 0; i < 3; i++) {
        model *m = NULL;
        CHECK(model_create(cases[i].name, 2, 224, &m, merr, sizeof merr) == 0, "%s: %s", cases[i].name, merr);
        if (!m) continue;
        CHECK(model_param_count(m) == cases[i].params && by_hand[i] == cases[i].params,
              "%s: %lld parameters, by hand %lld, expected %lld", cases[i].name, model_param_count(m), by_hand[i],
              cases[i].params);
        CHECK(model_seq_len(m) == cases[i].seq, "%s: sequence %d", cases[i].name, model_seq_len(m));
        int attn = 0;
        for (int l = 0; l < model_layer_count(m); l++) attn += model_layer_at(m, l)->kind == MODEL_ATTN;
        CHECK(attn == cases[i].layers, "%s: %d attention layers", cases[i].name, attn);
        model_free(m);
    }
}

/* A small decoder: every kind, with hand-checked shapes, GEMMs, tensors and bytes. */
static void test_kinds(void)
{
    static const char text[] = "embed tok in=tokens vocab=50 out=16 seq=6\n"
                               "pos wpe n=8\n"
                               "norm ln rms\n"
                               "linear qkv out=32 bias\n" /* (4 + 2*2) heads of 4 */
                               "attn core heads=4 kv=2 causal rope\n"
                               "linear proj out=16\n"
                               "add res in=wpe,proj\n"
                               "linear up out=24\n"
                               "swiglu act\n"
                               "linear down out=16\n"
                               "gelu g\n"
                               "linear head out=50 tied=tok\n";
    model *m = NULL;
    char path[64];
    CHECK(build_text(text, 3, &m, path, sizeof path) == 0, "small decoder: %s", merr);
    if (!m) return;
    const model_layer *a = model_layer_at(m, 4), *q = model_layer_at(m, 3), *h = model_layer_at(m, 11);
    CHECK(a->kind == MODEL_ATTN && a->out_c == 16 && a->out_h == 6 && a->heads == 4 && a->kv_heads == 2 &&
              a->flags == (MODEL_F_CAUSAL | MODEL_F_ROPE),
          "attn shape");
    CHECK(a->gemm[MODEL_FWD].m == 6 && a->gemm[MODEL_FWD].n == 6 && a->gemm[MODEL_FWD].k == 4 && a->gemm_reps == 24 &&
              model_gemm_flops(a, MODEL_FWD) == 2.0 * 6 * 6 * 4 * 24,
          "attn GEMMs: QK^T 6x6x4, 2 x batch 3 x heads 4");
    CHECK(q->kind == MODEL_FC && q->gemm[MODEL_FWD].m == 32 && q->gemm[MODEL_FWD].n == 18 &&
              q->gemm[MODEL_FWD].k == 16 && q->params == 32 * 16 + 32 && !model_needs_im2col(q),
          "linear per position: N = batch x seq");
    CHECK(model_layer_at(m, 8)->out_c == 12 && model_layer_at(m, 8)->act == MODEL_ACT_SWIGLU, "swiglu halves");
    CHECK(h->tied == 0 && h->ntensors == 0 && h->params == 0 && h->tensor0 == 0 && h->gemm[MODEL_FWD].m == 50,
          "tied head uses tok.weight");
    CHECK(model_param_count(m) == 50 * 16 + 8 * 16 + 16 + (32 * 16 + 32) + 16 * 16 + 24 * 16 + 12 * 16,
          "small decoder: %lld parameters", model_param_count(m));
    double e = 3.0 * 6 * 16, s = 3.0 * 4 * 6 * 6;
    /* the norm's input (wpe) is also read by the later add, whose gradient comes first: the scratch add */
    CHECK(model_mem_bytes(m, 2, MODEL_FWD) == 12 * e && model_mem_bytes(m, 2, 1) == 20 * e + 12 * e, "norm bytes");
    double hd = 6.0 * 4, heads = 3.0 * 4; /* a head's L x dh; batch x heads of them */
    CHECK(model_mem_bytes(m, 4, MODEL_FWD) == 8 * s + heads * (24 + 8) * hd &&
              model_mem_bytes(m, 4, 1) == 12 * s + heads * (24 + 8 + 36) * hd + 4 * 32 * 18,
          "attention bytes: split, softmax, merge; backward the packed gradient zeroed first");
    CHECK(model_mem_bytes(m, 0, MODEL_FWD) == 8 * e + 4 * 18, "embedding gather bytes");
    model_free(m);
    static const char bert[] = "embed w in=tokens vocab=10 out=8 seq=5\npos t n=2 segment\nnorm ln\n"
                               "linear pool out=8 bias first\ntanh act\n";
    CHECK(build_text(bert, 2, &m, path, sizeof path) == 0, "pooler: %s", merr);
    if (!m) return;
    const model_layer *p = model_layer_at(m, 3);
    CHECK(p->out_h == 1 && p->gemm[MODEL_FWD].n == 2 && model_layer_at(m, 1)->flags == MODEL_F_SEGMENT &&
              model_param_count(m) == 80 + 16 + 16 + 72,
          "first position: N = batch");
    model_free(m);
}

static void test_bad(void)
{
    static const struct { const char *text; int line; const char *says; } cases[] = {
        { "embed e in=tokens vocab=9 out=12 seq=4\nlinear q out=36\nattn a heads=5\nlinear o out=12\n", 3,
          "the heads do not divide the width" },
        { "embed e in=tokens vocab=9 out=12 seq=0\nlinear o out=4\n", 1, "expected a positive integer" },
        { "embed e in=tokens vocab=9 out=12\nlinear o out=4\n", 1, "expected vocab=, out= and seq=" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nlinear q out=36\nattn a heads=6 kv=4\nlinear o out=12\n", 3,
          "not a multiple of kv=4" },
        { "embed e in=tokens vocab=9 out=12 seq=4\npos p n=3\nlinear o out=4\n", 2, "expected n >= seq" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nlinear o out=8 tied=e\n", 2, "is not a token embedding" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nlinear o out=9 tied=zz\n", 2, "no earlier line defines it" },
        { "norm n in=tokens\nlinear o out=9\n", 1, "expected a layer" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nlinear u out=7\nswiglu s\n", 3, "expected an even count" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nnorm n eps=0\n", 2, "expected a positive number" },
        { "embed e in=tokens vocab=9 out=12 seq=4\nembed f in=tokens vocab=9 out=12 seq=5\nadd s in=e,f\n", 2,
          "expected one sequence length" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model *m = (model *)&m;
        char path[64], where[96];
        int rc = build_text(cases[i].text, 2, &m, path, sizeof path);
        snprintf(where, sizeof where, "%s:%d: ", path, cases[i].line);
        CHECK(rc == MODEL_EARG && !m && !strncmp(merr, where, strlen(where)) && strstr(merr, cases[i].says) &&
                  !strchr(merr, '\n'),
              "case %zu: rc %d, \"%s\", expected \"%s...%s\"", i, rc, merr, where, cases[i].says);
    }
}

/* The built-in texts read back as themselves. */
static void test_texts(void)
{
    static const char *names[] = { "gpt2", "bert-large", "llama3.2-1b" };
    for (size_t i = 0; i < 3; i++) {
        char *t = model_text(names[i]), path[64];
        model *a = NULL, *b = NULL;
        CHECK(t && build_text(t, 2, &a, path, sizeof path) == 0 && model_create(names[i], 2, 224, &b, merr, 512) == 0,
              "%s text", names[i]);
        CHECK(a && b && model_param_count(a) == model_param_count(b) && model_layer_count(a) == model_layer_count(b),
              "%s: the printed text builds the same network", names[i]);
        free(t), model_free(a), model_free(b);
    }
}

static const char decoder[] = "embed tok in=tokens vocab=11 out=8 seq=5\npos wpe n=6\nnorm ln1 rms\n"
                               "linear qkv out=16 bias\nattn core heads=2 kv=1 causal rope\nlinear proj out=8\n"
                               "add res in=wpe,proj\nnorm ln2\nlinear up out=12\nswiglu act\nlinear down out=8\n"
                               "add res2 in=res,down\ngelu g\nlinear head out=11 tied=tok\n";
static const char encoder[] = "embed w in=tokens vocab=9 out=8 seq=4\npos p n=4\npos s n=2 segment\nnorm ln\n"
                               "linear qkv out=24 bias\nattn a heads=2\nlinear o out=8 bias\ndropout d\n"
                               "add r in=ln,d\nnorm ln2\nlinear pool out=6 bias first\ntanh t\n";

/* Every named tensor's largest-gradient element against a central difference (5%, as test_model_dag). */
static void fd_model(const char *text, const char *const *names, int nnames)
{
    model *m = NULL;
    step_full *f = NULL;
    char path[64], err[256];
    if (build_text(text, 2, &m, path, sizeof path)) {
        CHECK(0, "build: %s", merr);
        return;
    }
    int n = model_layer_count(m), nt = model_tensor_count(m), rc = 0;
    size_t total = (size_t)model_param_count(m), *off = malloc((size_t)nt * sizeof *off), o = 0;
    size_t nout = (size_t)model_out_elems(m, model_layer_at(m, n - 1));
    float *params = malloc(total * 4), *grads = calloc(total, 4);
    for (int t = 0; t < nt; o += (size_t)model_tensor_at(m, t)->numel, t++) {
        const model_tensor *T = model_tensor_at(m, t);
        const model_layer *L = model_layer_at(m, T->layer);
        off[t] = o;
        for (long long i = 0; i < T->numel; i++)
            params[o + i] = L->kind == MODEL_NORM ? (strstr(T->name, "bias") ? 0.1f * rnd() : 1.0f + 0.2f * rnd())
                            : strstr(T->name, "bias") ? 0.1f * rnd() : 0.5f * rnd();
    }
    step_full_io io = { m, &kern_layers_host, &step_mem_host, 1, params, grads, off, NULL, KERN_STORE_F32, gemm_cb,
                        NULL, NULL, NULL, NULL };
    CHECK(step_full_create(&io, &f, err, sizeof err) == 0, "create: %s", err);
    if (f) {
        float *d = step_full_loss_grad(f);
        double other = 0;
        for (size_t i = 0; i < nout; i++) d[i] = rnd();
        rc = step_full_forward(f, &other, err, sizeof err);
        step_full_begin_backward(f);
        for (int l = n - 1; l >= 0 && !rc; l--) rc = step_full_backward_layer(f, l, &other, err, sizeof err);
        CHECK(rc == 0, "forward and backward: %s", err);
        for (int k = 0; !rc && k < nnames; k++) {
            int t = 0;
            while (t < nt && strcmp(model_tensor_at(m, t)->name, names[k])) t++;
            if (t == nt) {
                CHECK(0, "no tensor %s", names[k]);
                continue;
            }
            size_t i = off[t];
            for (size_t j = off[t]; j < off[t] + (size_t)model_tensor_at(m, t)->numel; j++)
                if (fabsf(grads[j]) > fabsf(grads[i])) i = j;
            double fd = central_difference(f, params, i, n, nout, 1e-3f);
            CHECK(fabs(fd - grads[i]) <= 0.05 * fabs(grads[i]) + 1e-4 && grads[i] != 0,
                  "%s: backward %.6g, finite difference %.6g", names[k], grads[i], fd);
        }
    }
    step_full_free(f);
    free(off), free(params), free(grads);
    model_free(m);
}

static void test_gradients(void)
{
    static const char *const dec[] = { "tok.weight", "wpe.weight", "ln1.weight", "qkv.weight", "qkv.bias",
                                       "proj.weight", "ln2.weight", "ln2.bias", "up.weight", "down.weight" };
    static const char *const enc[] = { "w.weight",   "p.weight", "s.weight",   "ln.weight", "ln.bias",
                                       "qkv.weight", "o.weight", "ln2.weight", "pool.weight", "pool.bias" };
    fd_model(decoder, dec, 10);
    fd_model(encoder, enc, 10);
}

int main(void)
{
    test_gradients();
    test_shipped();
    test_kinds();
    test_bad();
    test_texts();
    return TEST_REPORT();
}
