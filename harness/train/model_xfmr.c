/* model_xfmr.c — the shipped transformers written as model descriptions (docs/MODELS.md) from one
 * table of configurations (the published configs are cited in docs/SOURCES.md §4):
 *   gpt2         GPT-2 small: pre-norm, learned positions, GELU MLP, causal, lm_head tied to wte
 *   bert-large   BERT-large (BertModel): post-norm, positions and segments, GELU, the pooler
 *                (a linear over the first position, then tanh) as its output
 *   llama3.2-1b  Llama 3.2 1B: pre-norm RMS, rotary positions, grouped-query attention (32 heads,
 *                8 key/value heads), SwiGLU MLP, lm_head tied to the token embedding
 * q, k and v are one packed linear (and Llama's gate and up another), so tensor names differ from
 * the Hugging Face ones there; the parameter counts do not (tests/test_model_xfmr.c). */
#include "model_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { XF_GPT2, XF_BERT, XF_LLAMA };

typedef struct xfmr_def {
    const char *name;
    int style;          /* XF_*: the block's layout */
    int vocab, width, layers, heads, kv_heads, ffn, positions, seq;
} xfmr_def;

static const xfmr_def defs[] = {
    { "gpt2", XF_GPT2, 50257, 768, 12, 12, 12, 3072, 1024, 1024 },
    { "bert-large", XF_BERT, 30522, 1024, 24, 16, 16, 4096, 512, 512 },
    { "llama3.2-1b", XF_LLAMA, 128256, 2048, 16, 32, 8, 8192, 0, 2048 },
};

typedef struct text {
    char *s;
    size_t len, cap;
    int oom;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (t->oom || n < 0) return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 8192;
        char *s = realloc(t->s, cap);
        if (!s) return (void)(t->oom = 1);
        t->s = s, t->cap = cap;
    }
    memcpy(t->s + t->len, line, (size_t)n + 1);
    t->len += (size_t)n;
}

/* GPT-2's block i reading `x`: x + attn(ln_1(x)), then + mlp(ln_2(.)); its output is named h.i. */
static void gpt2_block(text *t, const xfmr_def *d, int i, const char *x)
{
    put(t, "norm h.%d.ln_1 in=%s eps=1e-5\n", i, x);
    put(t, "linear h.%d.attn.c_attn out=%d bias\n", i, 3 * d->width);
    put(t, "attn h.%d.attn.core heads=%d causal\n", i, d->heads);
    put(t, "linear h.%d.attn.c_proj out=%d bias\ndropout h.%d.attn.resid_dropout\n", i, d->width, i);
    put(t, "add h.%d.res in=%s,h.%d.attn.resid_dropout\n", i, x, i);
    put(t, "norm h.%d.ln_2 eps=1e-5\nlinear h.%d.mlp.c_fc out=%d bias\ngelu h.%d.mlp.act\n", i, i, d->ffn, i);
    put(t, "linear h.%d.mlp.c_proj out=%d bias\ndropout h.%d.mlp.dropout\n", i, d->width, i);
    put(t, "add h.%d in=h.%d.res,h.%d.mlp.dropout\n", i, i, i);
}

/* BERT's block i (post-norm): LN(x + attn(x)), then LN(. + ffn(.)); output layer.i.output.LayerNorm. */
static void bert_block(text *t, const xfmr_def *d, int i, const char *x)
{
    put(t, "linear layer.%d.attention.self.qkv in=%s out=%d bias\n", i, x, 3 * d->width);
    put(t, "attn layer.%d.attention.self heads=%d\n", i, d->heads);
    put(t, "linear layer.%d.attention.output.dense out=%d bias\n", i, d->width);
    put(t, "dropout layer.%d.attention.output.dropout\n", i);
    put(t, "add layer.%d.attention.output.add in=%s,layer.%d.attention.output.dropout\n", i, x, i);
    put(t, "norm layer.%d.attention.output.LayerNorm eps=1e-12\n", i);
    put(t, "linear layer.%d.intermediate.dense out=%d bias\ngelu layer.%d.intermediate.act\n", i, d->ffn, i);
    put(t, "linear layer.%d.output.dense out=%d bias\ndropout layer.%d.output.dropout\n", i, d->width, i);
    put(t, "add layer.%d.output.add in=layer.%d.attention.output.LayerNorm,layer.%d.output.dropout\n", i, i, i);
    put(t, "norm layer.%d.output.LayerNorm eps=1e-12\n", i);
}

/* Llama's block i: x + o(attn(qkv(rms(x)))), then + down(swiglu(gate_up(rms(.)))); output layers.i. */
static void llama_block(text *t, const xfmr_def *d, int i, const char *x)
{
    int dh = d->width / d->heads;
    put(t, "norm layers.%d.input_layernorm in=%s rms eps=1e-5\n", i, x);
    put(t, "linear layers.%d.self_attn.qkv_proj out=%d\n", i, d->width + 2 * d->kv_heads * dh);
    put(t, "attn layers.%d.self_attn heads=%d kv=%d causal rope\n", i, d->heads, d->kv_heads);
    put(t, "linear layers.%d.self_attn.o_proj out=%d\n", i, d->width);
    put(t, "add layers.%d.res in=%s,layers.%d.self_attn.o_proj\n", i, x, i);
    put(t, "norm layers.%d.post_attention_layernorm rms eps=1e-5\n", i);
    put(t, "linear layers.%d.mlp.gate_up_proj out=%d\nswiglu layers.%d.mlp.act\n", i, 2 * d->ffn, i);
    put(t, "linear layers.%d.mlp.down_proj out=%d\n", i, d->width);
    put(t, "add layers.%d in=layers.%d.res,layers.%d.mlp.down_proj\n", i, i, i);
}

static void write_model(text *t, const xfmr_def *d)
{
    char x[64];
    put(t, "# %s: %d layers, width %d, %d heads (%d key/value), MLP %d, vocabulary %d, sequence %d\n", d->name,
        d->layers, d->width, d->heads, d->kv_heads, d->ffn, d->vocab, d->seq);
    if (d->style == XF_GPT2) {
        put(t, "embed wte in=tokens vocab=%d out=%d seq=%d\npos wpe n=%d\ndropout drop\n", d->vocab, d->width, d->seq,
            d->positions);
        snprintf(x, sizeof x, "drop");
    } else if (d->style == XF_BERT) {
        put(t, "embed embeddings.word_embeddings in=tokens vocab=%d out=%d seq=%d\n", d->vocab, d->width, d->seq);
        put(t, "pos embeddings.position_embeddings n=%d\npos embeddings.token_type_embeddings n=2 segment\n",
            d->positions);
        put(t, "norm embeddings.LayerNorm eps=1e-12\ndropout embeddings.dropout\n");
        snprintf(x, sizeof x, "embeddings.dropout");
    } else {
        put(t, "embed embed_tokens in=tokens vocab=%d out=%d seq=%d\n", d->vocab, d->width, d->seq);
        snprintf(x, sizeof x, "embed_tokens");
    }
    for (int i = 0; i < d->layers; i++) {
        if (d->style == XF_GPT2) gpt2_block(t, d, i, x), snprintf(x, sizeof x, "h.%d", i);
        else if (d->style == XF_BERT) bert_block(t, d, i, x), snprintf(x, sizeof x, "layer.%d.output.LayerNorm", i);
        else llama_block(t, d, i, x), snprintf(x, sizeof x, "layers.%d", i);
    }
    if (d->style == XF_GPT2) put(t, "norm ln_f eps=1e-5\nlinear lm_head out=%d tied=wte\n", d->vocab);
    else if (d->style == XF_BERT) put(t, "linear pooler.dense out=%d bias first\ntanh pooler.activation\n", d->width);
    else put(t, "norm norm rms eps=1e-5\nlinear lm_head out=%d tied=embed_tokens\n", d->vocab);
}

char *model_xfmr_text(const char *name)
{
    for (size_t i = 0; name && i < sizeof defs / sizeof defs[0]; i++) {
        if (strcmp(name, defs[i].name)) continue;
        text t = { 0 };
        write_model(&t, &defs[i]);
        if (t.oom) free(t.s), t.s = NULL;
        return t.s;
    }
    return NULL;
}
