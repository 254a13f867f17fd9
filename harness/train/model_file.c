/* model_file.c — the reader of a model description (docs/MODELS.md): one layer a line, in
 * topological order, `KIND NAME key=value ... flag ...`, inputs named (in=A or in=A,B; default the
 * line above; `image` is the input image). It builds model.h's layers, tensors and GEMMs, shapes
 * following PyTorch's floor((H + 2p − k)/s) + 1, and checks as it goes: known kinds and keys, names
 * defined once and read only after their line (an input naming a later line is a cycle or a layer
 * out of order), channel counts (cin=), add inputs of one shape, concat inputs of one H×W, every
 * output but the last one read, whole lines. Errors: "FILE:LINE: what, expected what", MODEL_EARG.
 * The window and stride checks depend on --image-size and name it (mf_image_checks, model_layers.c).
 * A `relu` line and an `add ... relu` line whose first input has no other reader run in place: they
 * set the flags of model.h (relu, res_into/res_from) and name the rectified or summed output. */
#include "model_layers.h"
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 1024
#define MAX_TOK 24

/* Records "FILE:LINE: message" and returns MODEL_EARG. */
int mf_bad(mf_parser *p, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return model_fail(p->m, MODEL_EARG, "%s:%d: %s", p->file, p->line, msg);
}

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof ((mf_entry *)0)->name) return 0;
    for (; *s; s++)
        if (!(*s == '_' || *s == '.' || *s == '-' || (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z')))
            return 0;
    return 1;
}

/* A non-negative integer (or a pair "AxB" when b is given) from the whole of s. */
static int number(const char *s, long *a, long *b)
{
    char *end;
    if (*s < '0' || *s > '9') return -1;
    *a = strtol(s, &end, 10);
    if (b) *b = *a;
    if (b && *end == 'x' && end[1] >= '0' && end[1] <= '9') *b = strtol(end + 1, &end, 10);
    return *end || *a > MF_MAX_DIM || (b && *b > MF_MAX_DIM) ? -1 : 0;
}

/* The line `NAME`'s number at or after the current one, 0 when no line defines it. */
static int defined_later(const mf_parser *p, const char *name)
{
    const char *s = p->cur;
    size_t n = strlen(name);
    for (int line = p->line; *s; line++) {
        const char *e = strchr(s, '\n'), *t = s;
        while (*t == ' ' || *t == '\t') t++;
        while (*t && *t != ' ' && *t != '\t' && *t != '\n') t++; /* the kind */
        while (*t == ' ' || *t == '\t') t++;
        if (!strncmp(t, name, n) && (t[n] == ' ' || t[n] == '\t' || t[n] == '\n' || t[n] == '\r' || !t[n])) return line;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

/* The entry an input names; -1 with the message recorded. */
static int lookup(mf_parser *p, const char *name, const char *kind, const char *me)
{
    if (!strcmp(name, "image") || !strcmp(name, "tokens")) return MF_IMAGE;
    for (int i = p->ne - 1; i >= 0; i--) {
        if (strcmp(p->e[i].name, name)) continue;
        if (p->e[i].dead)
            return mf_bad(
                       p,
                       "%s %s reads \"%s\", whose output line %d overwrote in place; expected the name line %d gave it",
                       kind, me, name, p->e[i].dead, p->e[i].dead),
                   -1;
        return i;
    }
    int later = defined_later(p, name);
    if (later == p->line)
        return mf_bad(p, "%s %s reads itself; expected an input defined on an earlier line", kind, me), -1;
    if (later)
        return mf_bad(p, "%s %s reads \"%s\", defined later at line %d: a cycle, or layers out of order; expected "
                      "every input defined on an earlier line (topological order)", kind, me, name, later), -1;
    return mf_bad(p, "%s %s reads \"%s\", which no line defines; expected an earlier layer's name or image", kind, me,
                  name),
           -1;
}

static const char *const kinds[] = { "conv", "bn", "fc", "pool", "relu", "add", "concat", "dropout",
                                     "embed", "pos", "norm", "linear", "attn", "gelu", "swiglu", "tanh" };
/* The keys and flags each kind takes (a space-separated list, in the order of kinds[]). */
static const char *const allowed[] = {
    " in out k s p cin bias relu ", " in cin relu ", " in out cin relu ", " in max avg global k s p ",
    " in ", " in relu ", " in ", " in p ",
    " in vocab out seq ", " in n segment ", " in cin rms eps ", " in out cin bias tied first ",
    " in heads kv causal rope ", " in ", " in ", " in ",
};

/* The flags of the transformer lines and their model.h bits. */
static const struct { const char *key; int bit; } xflags[] = {
    { " causal ", MODEL_F_CAUSAL }, { " rope ", MODEL_F_ROPE }, { " rms ", MODEL_F_RMS },
    { " first ", MODEL_F_FIRST },   { " segment ", MODEL_F_SEGMENT },
};

static int xflag(const char *key)
{
    for (size_t i = 0; i < sizeof xflags / sizeof xflags[0]; i++)
        if (!strcmp(key, xflags[i].key)) return xflags[i].bit;
    return 0;
}

/* Splits "key=value" or "flag" tokens into a; every one checked against the kind's list. */
static int parse_attrs(mf_parser *p, int kind, char **tok, int ntok, mf_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->s = -1, a->vocab = a->seq = a->n = a->heads = a->kv = -1;
    for (int i = 2; i < ntok; i++) {
        char key[16], *eq = strchr(tok[i], '='), *v = eq ? eq + 1 : NULL;
        int klen = eq ? (int)(eq - tok[i]) : (int)strlen(tok[i]);
        snprintf(key, sizeof key, " %.*s ", klen, tok[i]);
        if (klen < 1 || klen > 10 || !strstr(allowed[kind], key) || (eq && !*v))
            return mf_bad(p, "%s %s: unknown or incomplete attribute \"%s\"; expected one of%s", kinds[kind], tok[1],
                          tok[i], allowed[kind]);
        int flag = !strcmp(key, " bias ") || !strcmp(key, " relu ") || !strcmp(key, " max ") || !strcmp(key, " avg ") ||
                   !strcmp(key, " global ") || xflag(key);
        if (flag != !eq)
            return mf_bad(p, "%s %s: \"%s\" %s", kinds[kind], tok[1], tok[i],
                          flag ? "takes no value" : "needs a value (key=value)");
        long x, y;
        char *end = NULL;
        int rc = 0;
        if (!strcmp(key, " in ")) a->in = v;
        else if (!strcmp(key, " bias ")) a->bias = 1;
        else if (!strcmp(key, " relu ")) a->relu = 1;
        else if (!strcmp(key, " max ")) a->max = 1;
        else if (!strcmp(key, " avg ")) a->avg = 1;
        else if (!strcmp(key, " global ")) a->global = 1;
        else if (xflag(key)) a->flags |= xflag(key);
        else if (!strcmp(key, " tied ")) a->tied = v;
        else if (!strcmp(key, " eps ")) rc = !(strtod(v, &end) > 0) || *end; /* the norm's ε: no count changes */
        else if (!strcmp(key, " vocab ")) rc = number(v, &a->vocab, NULL) || a->vocab < 1;
        else if (!strcmp(key, " seq ")) rc = number(v, &a->seq, NULL) || a->seq < 1;
        else if (!strcmp(key, " n ")) rc = number(v, &a->n, NULL) || a->n < 1;
        else if (!strcmp(key, " heads ")) rc = number(v, &a->heads, NULL) || a->heads < 1;
        else if (!strcmp(key, " kv ")) rc = number(v, &a->kv, NULL) || a->kv < 1;
        else if (kind == MF_DROPOUT) rc = 0; /* p= the drop probability: identity here */
        else if (!strcmp(key, " out ")) rc = number(v, &a->out, NULL) || a->out < 1, a->has_out = 1;
        else if (!strcmp(key, " cin ")) rc = number(v, &a->cin, NULL) || a->cin < 1;
        else if (!strcmp(key, " s ")) rc = number(v, &a->s, NULL) || a->s < 1;
        else if (!strcmp(key, " k ")) rc = number(v, &x, &y) || x < 1 || y < 1, a->kh = x, a->kw = y, a->has_k = 1;
        else if (!strcmp(key, " p ")) rc = number(v, &x, &y), a->ph = x, a->pw = y;
        if (rc)
            return mf_bad(p, "%s %s: \"%s\": expected a positive %s%s", kinds[kind], tok[1], tok[i],
                          !strcmp(key, " eps ") ? "number" : "integer",
                          !strcmp(key, " k ") || !strcmp(key, " p ") ? " or a pair like 1x7 (rows x columns)" : "");
    }
    return 0;
}

/* The inputs of a line: in=A,B,... or the line above. n entries into src; -1 on error. */
static int inputs(mf_parser *p, int kind, const char *me, const char *in, int *src)
{
    char buf[MAX_LINE], *save = NULL;
    int n = 0;
    if (!in) {
        if (p->prev == MF_IMAGE && p->m->nlayers) return mf_bad(p, "%s %s: no input (in=)", kinds[kind], me), -1;
        src[0] = p->prev;
        return 1;
    }
    snprintf(buf, sizeof buf, "%s", in);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == MODEL_MAX_SRC) return mf_bad(p, "%s %s: over %d inputs", kinds[kind], me, MODEL_MAX_SRC), -1;
        if ((src[n++] = lookup(p, t, kinds[kind], me)) == -1) return -1;
    }
    if (n == 0 || in[strlen(in) - 1] == ',' || strstr(in, ",,"))
        return mf_bad(p, "%s %s: in=\"%s\": expected names separated by single commas", kinds[kind], me, in), -1;
    return n;
}

/* One line: tokens, attributes, inputs, then the layer (model_layers.c). */
static int parse_line(mf_parser *p, char *line)
{
    char *tok[MAX_TOK], *save = NULL;
    int ntok = 0, kind = -1, src[MODEL_MAX_SRC], nsrc;
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
        if (ntok == MAX_TOK) return mf_bad(p, "over %d words; expected KIND NAME key=value ...", MAX_TOK - 1);
        tok[ntok++] = t;
    }
    if (ntok == 0) return 0;
    for (int k = 0; k < MF_KINDS; k++)
        if (!strcmp(tok[0], kinds[k])) kind = k;
    if (kind < 0)
        return mf_bad(p, "unknown layer kind \"%s\"; expected conv, bn, fc, pool, relu, add, concat, dropout, embed, "
                      "pos, norm, linear, attn, gelu, swiglu or tanh", tok[0]);
    if (ntok < 2) return mf_bad(p, "%s without a name; expected %s NAME key=value ...", tok[0], tok[0]);
    if (!valid_name(tok[1]) || !strcmp(tok[1], "image") || !strcmp(tok[1], "tokens"))
        return mf_bad(p, "%s \"%s\": expected a name of at most 39 letters, digits, '_', '.' or '-' (not image "
                      "or tokens)",
                      tok[0], tok[1]);
    for (int i = 0; i < p->ne; i++)
        if (!strcmp(p->e[i].name, tok[1]))
            return mf_bad(p, "%s %s: the name is already defined at line %d", tok[0], tok[1], p->e[i].line);
    mf_attrs a;
    if (parse_attrs(p, kind, tok, ntok, &a) || (nsrc = inputs(p, kind, tok[1], a.in, src)) < 0) return MODEL_EARG;
    return mf_layer(p, kind, tok[1], &a, src, nsrc);
}

/* Every output but the last read, the last line a layer of its own; then the image-size checks. */
static int finish(mf_parser *p)
{
    model *m = p->m;
    if (!m->nlayers) return mf_bad(p, "no layers; expected lines like \"conv conv1 in=image out=64 k=7 s=2 p=3\"");
    if (p->e[p->prev].alias || p->e[p->prev].layer != m->nlayers - 1)
        return mf_bad(p, "the last line (%s) must be a layer of its own, the network's output; expected e.g. an fc",
                      p->e[p->prev].name);
    for (int l = 0; l + 1 < m->nlayers; l++)
        if (!p->readers[l]) {
            p->line = p->lines[l];
            return mf_bad(p, "%s's output is never read; only the last layer (the network's output) may be unread, "
                          "expected an input naming it", m->layers[l].name);
        }
    return mf_image_checks(p);
}

int model_parse(model *m, const char *text, const char *file)
{
    mf_parser p = { .m = m, .file = file, .prev = MF_IMAGE };
    char line[MAX_LINE + 2];
    int rc = MODEL_OK;
    for (p.cur = text; !rc && *p.cur;) {
        const char *nl = strchr(p.cur, '\n');
        size_t n = nl ? (size_t)(nl - p.cur) : strlen(p.cur);
        p.line++;
        long bad = parse_line_bad(p.cur, n);
        if (n > MAX_LINE) rc = mf_bad(&p, "a line over %d characters", MAX_LINE);
        else if (bad >= 0) rc = mf_bad(&p, "byte %ld is a control character or not UTF-8; expected text", bad + 1);
        else if (!nl)
            rc = mf_bad(&p, "the file ends in the middle of a line (no newline at its end); expected whole lines");
        if (rc) break;
        memcpy(line, p.cur, n), line[n] = '\0';
        rc = parse_line(&p, line);
        p.cur = nl + 1;
    }
    if (!rc) rc = finish(&p);
    free(p.e), free(p.readers), free(p.lines), free(p.stride);
    return rc;
}
