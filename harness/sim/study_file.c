/* study_file.c — catalogue entries of published scaling studies (study_file.h). */
#include "study_file.h"

#include "gbatch.h"
#include "kv.h"
#include "parse.h"
#include "platform.h"
#include "profile.h"
#include "shard_mem.h"
#include "study_terms.h"
#include "textfile.h"
#include "wire.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { T_TEXT, T_INT, T_INTS, T_PCT, T_HOURS, T_POS, T_ALTS, T_OVERLAP, T_WIRE, T_OPTIM, T_SHARD, T_HELD, T_ALGOS,
       T_FIXED, T_GRAPHS, T_GKERNEL, T_EPOCH, T_SPREAD };
enum { REQ = 1 };

typedef struct key {
    const char *name;
    int type, flags;
    size_t off, len;  /* T_TEXT: the field and its size; T_INT: the int */
    double max;       /* T_INT: the largest value */
} key;

#define F(f) offsetof(study_entry, f), sizeof(((study_entry *)0)->f)
static const key keys[] = {
    { "label", T_TEXT, REQ, F(label), 0 },
    { "model", T_TEXT, REQ, F(model), 0 },
    { "batch", T_INTS, 0, 0, 0, 65536 }, /* or global_batch: one of the two is required */
    { "gpus", T_INT, REQ, offsetof(study_entry, gpus), 0, PLATFORM_MAX_HOSTS },
    { "baseline", T_INT, REQ, offsetof(study_entry, baseline), 0, PLATFORM_MAX_HOSTS },
    { "published", T_PCT, REQ, offsetof(study_entry, published), 0, 0 },
    { "source", T_TEXT, REQ, F(source), 0 },
    { "algo", T_ALGOS, REQ, 0, 0, 0 },
    { "patterns", T_TEXT, 0, F(patterns), 0 },
    { "platforms", T_ALTS, REQ, 0, 0, 0 },
    { "overlap", T_OVERLAP, REQ, 0, 0, 0 },
    { "hours", T_HOURS, 0, offsetof(study_entry, published_hours), 0, 0 },
    { "hours_source", T_TEXT, 0, F(time_source), 0 },
    { "bucket_mb", T_INT, 0, offsetof(study_entry, bucket_mb), 0, 1024 },
    { "image_size", T_INT, 0, offsetof(study_entry, image_size), 0, 1024 },
    { "single_gpu_img_s", T_POS, 0, offsetof(study_entry, single_img_s), 0, 1e6 },
    { "single_gpu_backward_ms", T_POS, 0, offsetof(study_entry, single_backward_ms), 0, 1e6 },
    { "single_gpu_batch", T_INT, 0, offsetof(study_entry, single_batch), 0, 65536 },
    { "single_gpu_source", T_TEXT, 0, F(single_source), 0 },
    { "cycle_ms", T_POS, 0, offsetof(study_entry, cycle_ms), 0, 1000 },
    { "jitter_pct", T_POS, 0, offsetof(study_entry, jitter_pct), 0, 100 },
    { "jitter_source", T_TEXT, 0, F(jitter_source), 0 },
    { "overlap_from", T_POS, 0, offsetof(study_entry, overlap_from_pct), 0, 100 },
    { "overlap_source", T_TEXT, 0, F(overlap_source), 0 },
    { "global_batch", T_INT, 0, offsetof(study_entry, global_batch), 0, GBATCH_MAX },
    { "baseline_global_batch", T_INT, 0, offsetof(study_entry, baseline_global_batch), 0, GBATCH_MAX },
    { "grad_dtype", T_WIRE, 0, 0, 0, 0 },
    { "optimizer", T_OPTIM, 0, offsetof(study_entry, optim), 0, OPTIM_KINDS },
    { "shard", T_SHARD, 0, offsetof(study_entry, shard), 0, SHARD_MODES },
    { "fused_at_scale", T_INT, 0, offsetof(study_entry, fused_at_scale), 0, PROFILE_FUSED_MAX },
    { "bn_held", T_HELD, 0, 0, 0, 1 },
    { "step_fixed_us", T_FIXED, 0, 0, 0, 1e6 },
    { "step_fixed_source", T_TEXT, 0, F(fixed_source), 0 },
    { "cuda_graphs", T_GRAPHS, 0, offsetof(study_entry, graphs), 0, 0 },
    { "cuda_graphs_at_scale", T_GRAPHS, 0, offsetof(study_entry, graphs_at), 0, 0 },
    { "optimizer_shard", T_INT, 0, offsetof(study_entry, optim_shard), 0, PLATFORM_MAX_HOSTS },
    { "graph_kernel_us", T_GKERNEL, 0, 0, 0, 1e6 },
    { "graph_kernel_source", T_TEXT, 0, F(gk_source), 0 },
    { "kernel_us", T_GKERNEL, 0, 1, 0, 1e6 },
    { "kernel_source", T_TEXT, 0, F(k_source), 0 },
    { "kernels_at_scale", T_INT, 0, offsetof(study_entry, extra_kernels), 0, 1e6 },
    { "kernels_at_scale_source", T_TEXT, 0, F(xk_source), 0 },
    { "kernels_scaled", T_GRAPHS, 0, offsetof(study_entry, kscaled), 0, 0 },
    { "epoch_examples", T_INT, 0, offsetof(study_entry, epoch_examples), 0, 1e9 },
    { "epoch_steps", T_EPOCH, 0, offsetof(study_entry, epoch_steps), 0, 0 },
    { "baseline_epoch_steps", T_EPOCH, 0, offsetof(study_entry, base_epoch_steps), 0, 0 },
    { "epochs", T_INT, 0, offsetof(study_entry, epochs), 0, EPOCH_MAX_EPOCHS },
    { "epoch_source", T_TEXT, 0, F(epoch_source), 0 },
    { "horovod_sync_bytes", T_INT, 0, offsetof(study_entry, sync_bytes), 0, 1e6 },
    { "horovod_sync_source", T_TEXT, 0, F(sync_source), 0 },
    { "gpu_spread_pct", T_SPREAD, 0, 0, 0, 50 },
    { "gpu_spread_source", T_TEXT, 0, F(spread_source), 0 },
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))
enum { K_BASELINE = 4, K_HOURS = 11, K_HOURS_SOURCE = 12, K_IMG_S = 15, K_BWD_MS, K_SBATCH, K_SSOURCE, K_CYCLE,
       K_JITTER, K_JSOURCE, K_HOLD, K_HSOURCE, K_GLOBAL, K_BGLOBAL };
/* keys[]' rows */
enum { K_BATCH = 2, K_FIXED = 31, K_FSOURCE, K_GRAPHS, K_GRAPHS_AT, K_OSHARD, K_GK, K_GKSOURCE, K_K, K_KSOURCE, K_XK,
       K_XKSOURCE };
enum { K_KSCALED = K_XKSOURCE + 1 };
enum { K_EPOCH_N = K_KSCALED + 1, K_EPOCH_STEPS, K_BEPOCH_STEPS, K_EPOCHS, K_EPOCH_SOURCE, K_SYNC, K_SYNC_SOURCE,
       K_SPREAD, K_SPREAD_SOURCE };

/* A decimal number, the whole of v. */
static int number(const char *v, double *d)
{
    char *end;
    errno = 0;
    *d = strtod(v, &end);
    return !*v || *end || errno || !isfinite(*d) || parse_decimal_len(v) != strlen(v);
}

/* "a|b|c": 1..max items of [A-Za-z0-9._-], into items. The count, or -1. */
static int alternatives(const char *v, char items[][64], int max)
{
    int n = 0;
    for (const char *s = v;; n++) {
        size_t k = strcspn(s, "|");
        if (n == max || !k || k > 63 ||
            strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") < k)
            return -1;
        memcpy(items[n], s, k), items[n][k] = '\0';
        if (!s[k]) return n + 1;
        s += k + 1;
    }
}

/* gpu_spread_pct: 1 or 2 different numbers in [0, max], a|b. 0, or 2 with why. */
static int set_spread(const key *k, const char *v, study_entry *e, char *why, size_t wl)
{
    char alts[STUDY_MAX_ALTS][64];
    double d;
    int n = alternatives(v, alts, 2);
    for (int i = 0; i < n; i++)
        if (number(alts[i], &d) || d < 0 || d > k->max) n = -1;
        else e->spread_pct[i] = d;
    if (n < 0 || (n == 2 && e->spread_pct[0] == e->spread_pct[1]))
        return snprintf(why, wl, "expected one or two (a|b) percentages in [0, %g], got \"%.40s\"", k->max, v), 2;
    e->nspread = n;
    return 0;
}

/* One value into e. 0, or 2 with why. */
static int set(const key *k, const char *v, study_entry *e, char *why, size_t wl)
{
    double d;
    char alts[STUDY_MAX_ALTS][64];
    int n;
    switch (k->type) {
    case T_TEXT:
        if (!*v || strlen(v) >= k->len) return snprintf(why, wl, "expected 1..%zu characters", k->len - 1), 2;
        memcpy((char *)e + k->off, v, strlen(v) + 1);
        return 0;
    case T_INT:
        if (number(v, &d) || d != floor(d) || d < 1 || d > k->max)
            return snprintf(why, wl, "expected a whole number 1..%.0f, got \"%.40s\"", k->max, v), 2;
        *(int *)((char *)e + k->off) = (int)d;
        return 0;
    case T_INTS: /* batch: 1 or 2 whole numbers joined by | */
        n = alternatives(v, alts, 2);
        for (int i = 0; i < n; i++)
            if (number(alts[i], &d) || d != floor(d) || d < 1 || d > k->max) n = -1;
            else e->batches[i] = (int)d;
        if (n < 0 || (n == 2 && e->batches[0] == e->batches[1]))
            return snprintf(why, wl, "expected one or two (a|b) whole numbers 1..%.0f, got \"%.40s\"", k->max, v), 2;
        e->nbatches = n, e->batch = e->batches[0];
        return 0;
    case T_PCT:
    case T_HOURS:
    case T_POS: /* T_POS: (0, max] */
        if (number(v, &d) || !(d > 0) || d > (k->type == T_PCT ? 100 : k->type == T_HOURS ? 1e5 : k->max))
            return snprintf(why, wl, "expected a number in (0, %g], got \"%.40s\"",
                            k->type == T_PCT ? 100 : k->type == T_HOURS ? 1e5 : k->max, v), 2;
        *(double *)((char *)e + k->off) = d;
        return 0;
    case T_ALTS:
        if ((n = alternatives(v, e->platforms, STUDY_MAX_ALTS)) < 0)
            return snprintf(why, wl, "expected 1..%d platform names of [A-Za-z0-9._-] joined by |, got \"%.40s\"",
                            STUDY_MAX_ALTS, v), 2;
        e->nplatforms = n;
        return 0;
    case T_WIRE: { /* grad_dtype: the gradients on the wire (wire.h) */
        ddl_dtype t;
        if (wire_parse(v, &t)) return snprintf(why, wl, "expected fp32, fp16 or bf16, got \"%.40s\"", v), 2;
        e->grad_bytes = (int)wire_bytes(t);
        return 0;
    }
    case T_ALGOS: /* algo: 1..STUDY_MAX_ALGOS algorithm names, a|b|c, all different (checked by the pricer) */
        n = alternatives(v, alts, STUDY_MAX_ALGOS);
        for (int i = 0; i < n; i++)
            if (strlen(alts[i]) >= sizeof e->algo) n = -1;
            else memcpy(e->algos[i], alts[i], strlen(alts[i]) + 1);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n && n > 0; j++)
                if (!strcmp(e->algos[i], e->algos[j])) n = -1;
        if (n < 0)
            return snprintf(why, wl, "expected 1..%d different algorithm names (a|b|c) of 1..%zu characters, got "
                            "\"%.40s\"", STUDY_MAX_ALGOS, sizeof e->algo - 1, v), 2;
        e->nalgos = n;
        memcpy(e->algo, e->algos[0], sizeof e->algo);
        return 0;
    case T_FIXED: /* step_fixed_us: 1 or 2 numbers in [0, max], a|b */
        n = alternatives(v, alts, 2);
        for (int i = 0; i < n; i++)
            if (number(alts[i], &d) || d < 0 || d > k->max) n = -1;
            else e->fixed_us[i] = d;
        if (n < 0 || (n == 2 && e->fixed_us[0] == e->fixed_us[1]))
            return snprintf(why, wl, "expected one or two (a|b) numbers of microseconds in [0, %g], got \"%.40s\"",
                            k->max, v), 2;
        e->nfixed = n;
        return 0;
    case T_GKERNEL: { /* graph_kernel_us (off 0) or kernel_us (off 1): 1 or 2 numbers in [0, max], a|b */
        double *us = k->off ? e->k_us : e->gk_us;
        n = alternatives(v, alts, 2);
        for (int i = 0; i < n; i++)
            if (number(alts[i], &d) || d < 0 || d > k->max) n = -1;
            else us[i] = d;
        if (n < 0 || (n == 2 && us[0] == us[1]))
            return snprintf(why, wl, "expected one or two (a|b) numbers of microseconds in [0, %g], got \"%.40s\"",
                            k->max, v), 2;
        *(k->off ? &e->nk : &e->ngk) = n;
        return 0;
    }
    case T_GRAPHS: { /* cuda_graphs(_at_scale), kernels_scaled: on or off, then its set flag (the field after) */
        int *g = (int *)((char *)e + k->off);
        if (strcmp(v, "on") && strcmp(v, "off")) return snprintf(why, wl, "expected on or off, got \"%.40s\"", v), 2;
        g[0] = !strcmp(v, "on") ? 1 : 0, g[1] = 1;
        return 0;
    }
    case T_HELD: /* bn_held: 0, 1 or 0|1 (profile.h) */
        n = alternatives(v, alts, 2);
        for (int i = 0; i < n; i++)
            if (strcmp(alts[i], "0") && strcmp(alts[i], "1")) n = -1;
            else e->held_alts[i] = alts[i][0] == '1';
        if (n < 0 || (n == 2 && e->held_alts[0] == e->held_alts[1]))
            return snprintf(why, wl, "expected 0, 1 or 0|1 (profile.h's bn_held), got \"%.40s\"", v), 2;
        e->nheld = n;
        return 0;
    case T_OPTIM: /* optimizer, shard: one of shard_mem.h's names */
    case T_SHARD:
        for (n = 0; n < (int)k->max; n++)
            if (!strcmp(v, k->type == T_OPTIM ? optim_name(n) : shard_mode_name(n)))
                return *(int *)((char *)e + k->off) = n, 0;
        return snprintf(why, wl, "expected %s, got \"%.40s\"",
                        k->type == T_OPTIM ? "sgd, adam or lamb" : "none, optimizer, gradients or full", v), 2;
    case T_SPREAD: return set_spread(k, v, e, why, wl);
    case T_EPOCH: /* epoch_steps, baseline_epoch_steps: fill or carry (study_terms.h) */
        if (epoch_mode_parse(v, (int *)((char *)e + k->off)))
            return snprintf(why, wl, "expected fill or carry, got \"%.40s\"", v), 2;
        return 0;
    default: /* T_OVERLAP */
        n = alternatives(v, alts, 2);
        for (int i = 0; i < n; i++) {
            if (strcmp(alts[i], "off") && strcmp(alts[i], "on")) n = -1;
            else e->overlaps[i] = !strcmp(alts[i], "on");
        }
        if (n < 0 || (n == 2 && e->overlaps[0] == e->overlaps[1]))
            return snprintf(why, wl, "expected off, on, off|on or on|off, got \"%.40s\"", v), 2;
        e->noverlaps = n;
        return 0;
    }
}

/* One key = value line (kv.h; a text value keeps its '#'). 0, or 2 with why; *which = the key's row. */
static int pair(const char *k, const char *v, study_entry *e, int *seen, int *which, char *why, size_t wl)
{
    int i = 0;
    while (i < NKEYS && strcmp(keys[i].name, k)) i++;
    if (i == NKEYS) return snprintf(why, wl, "unknown key \"%.40s\"", k), 2;
    if (seen[i]) return snprintf(why, wl, "key \"%s\" given twice", k), 2;
    seen[i] = 1, *which = i;
    char kwhy[200];
    if (set(&keys[i], v, e, kwhy, sizeof kwhy)) return snprintf(why, wl, "%.40s: %s", k, kwhy), 2;
    return 0;
}

/* Strong scaling (gbatch.h): global_batch, and the baseline run's own (default the same), divided by
 * each run's GPUs into batch and base_batch. 0, or 2 with "FILE:LINE: key: ..." in err. */
static int global_batches(study_entry *e, const int *seen, const int *at, const char *name, char *err, size_t errlen)
{
    char why[300];
    long per, base;
    if (seen[K_BGLOBAL] && !seen[K_GLOBAL])
        return snprintf(err, errlen, "%s:%d: baseline_global_batch: expected global_batch too", name, at[K_BGLOBAL]), 2;
    if (!seen[K_GLOBAL]) return 0;
    if (seen[K_BATCH])
        return snprintf(err, errlen, "%s:%d: batch: global_batch is given too; expected one of the two", name,
                        at[K_BATCH]), 2;
    if (!e->baseline_global_batch) e->baseline_global_batch = e->global_batch;
    if (gbatch_split(e->global_batch, e->gpus, 65536, "global_batch", &per, NULL, why, sizeof why))
        return snprintf(err, errlen, "%s:%d: %s", name, at[K_GLOBAL], why), 2;
    if (e->baseline <= e->gpus &&
        gbatch_split(e->baseline_global_batch, e->baseline, 65536, "baseline_global_batch", &base, NULL, why,
                     sizeof why))
        return snprintf(err, errlen, "%s:%d: %s", name, at[seen[K_BGLOBAL] ? K_BGLOBAL : K_GLOBAL], why), 2;
    e->batch = e->batches[0] = (int)per, e->nbatches = 1;
    e->base_batch = e->baseline <= e->gpus ? (int)base : 0;
    return 0;
}

/* The epoch keys and Horovod's coordination (study_terms.h), each with the keys it needs. 0, or 2 with err. */
static int terms_keys(study_entry *e, const int *seen, const int *at, const char *name, char *err, size_t errlen)
{
    int carry;
    if (seen[K_SPREAD] != seen[K_SPREAD_SOURCE])
        return snprintf(err, errlen, "%s: gpu_spread_pct and gpu_spread_source: expected both or neither", name), 2;
    if (seen[K_SYNC] != seen[K_SYNC_SOURCE])
        return snprintf(err, errlen, "%s: horovod_sync_bytes and horovod_sync_source: expected both or neither",
                        name), 2;
    if (!seen[K_EPOCH_N]) {
        for (int k = K_EPOCH_STEPS; k <= K_EPOCH_SOURCE; k++)
            if (seen[k])
                return snprintf(err, errlen, "%s:%d: %s: expected epoch_examples too", name, at[k], keys[k].name), 2;
        return 0;
    }
    if (!seen[K_EPOCH_STEPS] || !seen[K_EPOCH_SOURCE])
        return snprintf(err, errlen, "%s: epoch_examples: expected epoch_steps and epoch_source too", name), 2;
    if (e->epoch_examples < e->gpus)
        return snprintf(err, errlen, "%s:%d: epoch_examples: %d, below the %d GPUs; expected at least one example a "
                        "GPU", name, at[K_EPOCH_N], e->epoch_examples, e->gpus), 2;
    if (!e->base_epoch_steps) e->base_epoch_steps = e->epoch_steps;
    carry = e->epoch_steps == EPOCH_CARRY || e->base_epoch_steps == EPOCH_CARRY;
    if (carry != seen[K_EPOCHS])
        return snprintf(err, errlen, "%s: epochs: expected %s", name, carry ? "it with carry (the epochs the "
                        "published median is over)" : "it only with carry"), 2;
    return 0;
}

int study_file_parse(const char *text, size_t len, const char *name, study_entry *e, char *err, size_t errlen)
{
    int seen[NKEYS] = { 0 }, at[NKEYS] = { 0 }, which;
    char why[700];
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%.*s", (int)(strlen(base) > 6 && !strcmp(base + strlen(base) - 6, ".study")
                                                         ? strlen(base) - 6 : strlen(base)), base);
    kv_reader r;
    char *k, *v;
    int got;
    kv_start(&r, text, len);
    while ((got = kv_next(&r, &k, &v, why, sizeof why)) == 1) {
        if (pair(k, v, e, seen, &which, why, sizeof why))
            return snprintf(err, errlen, "%.300s:%d: %s", name, r.lineno, why), 2;
        at[which] = r.lineno;
    }
    if (got) return snprintf(err, errlen, "%.300s:%d: %s", name, r.lineno, why), 2;
    for (int k = 0; k < NKEYS; k++)
        if ((keys[k].flags & REQ) && !seen[k])
            return snprintf(err, errlen, "%s: missing key \"%s\"", name, keys[k].name), 2;
    if (global_batches(e, seen, at, name, err, errlen)) return 2;
    if (!seen[K_BATCH] && !seen[K_GLOBAL])
        return snprintf(err, errlen, "%s: missing key \"batch\" (images per GPU) or \"global_batch\" (per step "
                        "over all GPUs)", name), 2;
    if (e->baseline > e->gpus)
        return snprintf(err, errlen, "%s:%d: baseline: %d GPUs, above the scale of %d GPUs; expected 1..%d", name,
                        at[K_BASELINE], e->baseline, e->gpus, e->gpus), 2;
    if (!e->image_size) e->image_size = 224;
    if (e->image_size < 32)
        return snprintf(err, errlen, "%s: image_size: %d; expected 32..1024 (a network's total stride)", name,
                        e->image_size), 2;
    if (seen[K_HOURS] != seen[K_HOURS_SOURCE])
        return snprintf(err, errlen, "%s: hours and hours_source: expected both or neither", name), 2;
    if (seen[K_IMG_S] && seen[K_BWD_MS])
        return snprintf(err, errlen,
                        "%s:%d: single_gpu_backward_ms: single_gpu_img_s is given too; expected one of the "
                        "two",
                        name, at[K_BWD_MS]),
               2;
    int rate = seen[K_IMG_S] || seen[K_BWD_MS];
    if (rate != seen[K_SBATCH] || rate != seen[K_SSOURCE])
        return snprintf(err, errlen, "%s: single_gpu_img_s or single_gpu_backward_ms, single_gpu_batch and "
                        "single_gpu_source: expected all three or none", name), 2;
    if (seen[K_FIXED] != seen[K_FSOURCE])
        return snprintf(err, errlen, "%s: step_fixed_us and step_fixed_source: expected both or neither", name), 2;
    if (seen[K_GK] != seen[K_GKSOURCE])
        return snprintf(err, errlen, "%s: graph_kernel_us and graph_kernel_source: expected both or neither", name),
               2;
    if (seen[K_K] != seen[K_KSOURCE])
        return snprintf(err, errlen, "%s: kernel_us and kernel_source: expected both or neither", name), 2;
    if (seen[K_XK] != seen[K_XKSOURCE])
        return snprintf(err, errlen, "%s: kernels_at_scale and kernels_at_scale_source: expected both or neither",
                        name), 2;
    if (seen[K_OSHARD] && e->shard != SHARD_NONE)
        return snprintf(err, errlen, "%s:%d: optimizer_shard: shard = %s is given too; expected shard = none (the "
                        "gradients allreduced, the update alone sharded)", name, at[K_OSHARD],
                        shard_mode_name(e->shard)), 2;
    if (seen[K_JITTER] != seen[K_JSOURCE])
        return snprintf(err, errlen, "%s: jitter_pct and jitter_source: expected both or neither", name), 2;
    if (seen[K_HOLD] != seen[K_HSOURCE])
        return snprintf(err, errlen, "%s: overlap_from and overlap_source: expected both or neither", name), 2;
    return terms_keys(e, seen, at, name, err, errlen);
}
