/* profile.c — the strict key=value parser and writer of device profiles (format in profile.h). */
#include "profile.h"
#include "kv.h"
#include "outfile.h"
#include "parse.h"
#include "textfile.h"
#include "tree.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

typedef struct key_row {
    const char *key;
    size_t off;        /* offset of the double in struct profile */
    double min, max;   /* the finite range allowed (profile.h): outside it a step would price 0 or inf */
    int optional;      /* may be absent (then 0) */
    int whole;         /* a whole number */
} key_row;

static const key_row keys[] = {
    { "gemm_gflops_fp32", offsetof(profile, gemm_gflops_fp32), PROFILE_RATE_MIN, PROFILE_GFLOPS_MAX, 0, 0 },
    { "gemm_gflops_fp16", offsetof(profile, gemm_gflops_fp16), PROFILE_RATE_MIN, PROFILE_GFLOPS_MAX, 0, 0 },
    { "reduce_ns_per_byte", offsetof(profile, reduce_ns_per_byte), 0, PROFILE_NS_PER_BYTE_MAX, 0, 0 },
    { "mem_gbps", offsetof(profile, mem_gbps), PROFILE_RATE_MIN, PROFILE_GBPS_MAX, 0, 0 },
    { "sgd_gbps", offsetof(profile, sgd_gbps), PROFILE_RATE_MIN, PROFILE_GBPS_MAX, 1, 0 },
    { "fused", offsetof(profile, fused), 0, PROFILE_FUSED_MAX, 1, 1 },
    { "graphs", offsetof(profile, graphs), 0, 1, 1, 1 },
    { "bn_held", offsetof(profile, bn_held), 0, 1, 1, 1 },
    { "kernel_us", offsetof(profile, kernel_us), 0, 1e6, 1, 0 },
    { "graph_kernel_us", offsetof(profile, graph_kernel_us), 0, 1e6, 1, 0 },
    { "sms", offsetof(profile, sms), 1, 1e6, 1, 1 },
    { "gemm_tile", offsetof(profile, gemm_tile), 1, 4096, 1, 1 },
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* A decimal number >= 0 from val (vlen bytes). 0, or 2 with err set. */
static int parse_value(const char *val, ptrdiff_t vlen, const char *name, int lineno, const char *key, double *v,
                       char *err, size_t errlen)
{
    char *vend;
    errno = 0;
    *v = strtod(val, &vend);
    if (vlen == 0 || vlen >= 127 || errno || *vend || vend == val || !isfinite(*v) ||
        parse_decimal_len(val) != strlen(val)) { /* strtod also reads 0x10, inf, nan */
        snprintf(err, errlen, "%s:%d: %s: expected a decimal number, got \"%s\"", name, lineno, key, val);
        return 2;
    }
    return 0;
}

/* "reduce_ns_per_byte_at_SIZE = X": one point of the size-dependent reduction cost, kept sorted by
 * size. 0, or 2 with err set. */
static int parse_reduce_point(const char *key, const char *val, ptrdiff_t vlen, const char *name, int lineno,
                              profile *out, char *err, size_t errlen)
{
    size_t bytes;
    double v;
    if (parse_size(key + strlen(PROFILE_REDUCE_KEY), 1, (size_t)1 << 40, &bytes)) {
        snprintf(err, errlen, "%s:%d: %s: expected a size after %s (e.g. %s64K)", name, lineno, key,
                 PROFILE_REDUCE_KEY, PROFILE_REDUCE_KEY);
        return 2;
    }
    if (parse_value(val, vlen, name, lineno, key, &v, err, errlen)) return 2;
    if (!(v >= 0 && v <= PROFILE_NS_PER_BYTE_MAX)) {
        snprintf(err, errlen, "%s:%d: %s: expected a number in 0..%g, got %s", name, lineno, key,
                 PROFILE_NS_PER_BYTE_MAX, val);
        return 2;
    }
    int n = out->reduce_points, i = n;
    if (n == PROFILE_REDUCE_POINTS) {
        snprintf(err, errlen, "%s:%d: more than %d %sSIZE keys", name, lineno, PROFILE_REDUCE_POINTS,
                 PROFILE_REDUCE_KEY);
        return 2;
    }
    for (int j = 0; j < n; j++)
        if (out->reduce_bytes[j] == bytes) {
            snprintf(err, errlen, "%s:%d: key \"%s\": size %zu given twice", name, lineno, key, bytes);
            return 2;
        }
    while (i > 0 && out->reduce_bytes[i - 1] > bytes) { /* insertion: sorted by size */
        out->reduce_bytes[i] = out->reduce_bytes[i - 1], out->reduce_ns[i] = out->reduce_ns[i - 1];
        i--;
    }
    out->reduce_bytes[i] = bytes, out->reduce_ns[i] = v;
    out->reduce_points = n + 1;
    return 0;
}

static const char *const precisions[] = { "fp32", "fp16", "bf16" };

const char *profile_precision_name(int precision)
{
    return precision >= PROFILE_FP32 && precision <= PROFILE_BF16 ? precisions[precision] : "?";
}

double profile_gemm_gflops(const profile *pr)
{
    return pr->precision == PROFILE_FP32 ? pr->gemm_gflops_fp32 : pr->gemm_gflops_fp16;
}

const char *profile_fused_name(const profile *pr)
{
    static const char *const name[2][PROFILE_FUSED_MAX + 1] = {
        { "unfused", "conv+bn+relu fused", "bn+relu kernels apart", "normconv (bn backward apart)" },
        { "unfused", "conv+bn+relu fused", "bn+relu kernels apart, held", "normconv (bn backward apart, held)" }
    };
    int f = pr->fused > PROFILE_FUSED_MAX ? PROFILE_FUSED_MAX : pr->fused > 0 ? (int)pr->fused : 0;
    return name[pr->bn_held > 0][f];
}

double profile_kernel_s(const profile *pr) { return (pr->graphs > 0 ? pr->graph_kernel_us : pr->kernel_us) * 1e-6; }

/* "precision = fp32|fp16|bf16", once. 0, or 2 with err set. */
static int parse_precision(const char *val, const char *name, int lineno, profile *out, int *seen, char *err,
                           size_t errlen)
{
    if (*seen) {
        snprintf(err, errlen, "%s:%d: key \"precision\" given twice", name, lineno);
        return 2;
    }
    for (int p = PROFILE_FP32; p <= PROFILE_BF16; p++)
        if (!strcmp(val, precisions[p])) {
            out->precision = p, *seen = 1;
            return 0;
        }
    snprintf(err, errlen, "%s:%d: precision: expected fp32, fp16 or bf16, got \"%.40s\"", name, lineno, val);
    return 2;
}

/* One key = value line (kv.h). 0, or 2 with err set. */
static int parse_pair(const char *key, char *val, const char *name, int lineno, profile *out, int *seen, char *err,
                      size_t errlen)
{
    char why[120];
    if (kv_word(val, why, sizeof why)) {
        snprintf(err, errlen, "%s:%d: %s", name, lineno, why);
        return 2;
    }
    if (!strncmp(key, PROFILE_REDUCE_KEY, strlen(PROFILE_REDUCE_KEY)) && strlen(key) < 63)
        return parse_reduce_point(key, val, (ptrdiff_t)strlen(val), name, lineno, out, err, errlen);
    if (!strcmp(key, "precision")) return parse_precision(val, name, lineno, out, &seen[NKEYS], err, errlen);
    int i = 0;
    while (i < NKEYS && strcmp(key, keys[i].key)) i++;
    if (i == NKEYS) {
        snprintf(err, errlen,
                 "%s:%d: unknown key \"%.63s\" (expected gemm_gflops_fp32, gemm_gflops_fp16, "
                 "reduce_ns_per_byte, mem_gbps, sgd_gbps, reduce_ns_per_byte_at_SIZE, precision, fused, graphs, "
                 "bn_held, kernel_us, graph_kernel_us, sms or gemm_tile)",
                 name, lineno, key);
        return 2;
    }
    if (seen[i]) {
        snprintf(err, errlen, "%s:%d: key \"%s\" given twice", name, lineno, key);
        return 2;
    }
    double v;
    if (parse_value(val, (ptrdiff_t)strlen(val), name, lineno, key, &v, err, errlen)) return 2;
    if (!(v >= keys[i].min && v <= keys[i].max) || (keys[i].whole && v != floor(v))) {
        snprintf(err, errlen, "%s:%d: %s: expected a %s in %g..%g, got %s", name, lineno, key,
                 keys[i].whole ? "whole number" : "number", keys[i].min, keys[i].max, val);
        return 2;
    }
    *(double *)((char *)out + keys[i].off) = v;
    seen[i] = 1;
    return 0;
}

int profile_parse(const char *text, size_t len, const char *name, profile *out, char *err, size_t errlen)
{
    int seen[NKEYS + 1] = { 0 }, got; /* the table's keys, then precision */
    profile pr = { 0 };
    kv_reader r;
    char *key, *val, why[200];
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "%s: contains a NUL byte (a binary file?); expected key = value text", name);
        return 2;
    }
    if (len == 0) {
        snprintf(err, errlen, "%s: empty; expected gemm_gflops_fp32, gemm_gflops_fp16, reduce_ns_per_byte, mem_gbps",
                 name);
        return 2;
    }
    kv_start(&r, text, len);
    while ((got = kv_next(&r, &key, &val, why, sizeof why)) == 1)
        if (parse_pair(key, val, name, r.lineno, &pr, seen, err, errlen)) return 2;
    if (got) {
        snprintf(err, errlen, "%s:%d: %s", name, r.lineno, why);
        return 2;
    }
    if (text[len - 1] != '\n') {
        snprintf(err, errlen, "%s:%d: last line has no newline (truncated file?)", name, r.lineno);
        return 2;
    }
    for (int i = 0; i < NKEYS; i++)
        if (!seen[i] && !keys[i].optional) {
            snprintf(err, errlen, "%s: missing key \"%s\"", name, keys[i].key);
            return 2;
        }
    if ((pr.sms > 0) != (pr.gemm_tile > 0)) {
        snprintf(err, errlen, "%s: sms and gemm_tile go together (the tile model needs both), got only %s", name,
                 pr.sms > 0 ? "sms" : "gemm_tile");
        return 2;
    }
    *out = pr;
    return 0;
}

double profile_sgd_gbps(const profile *pr) { return pr->sgd_gbps > 0 ? pr->sgd_gbps : pr->mem_gbps; }

static int path_is_name(const char *s) { return !strchr(s, '/') && !strchr(s, '.'); }

/* Where profile names are looked up: DDL_PROFILE_DIR, else the tree's harness/sim/profiles from
 * any working directory (tree_path). */
static const char *profile_dir(char *buf, size_t len)
{
    const char *env = getenv("DDL_PROFILE_DIR");
    return env && *env ? env : tree_path("harness/sim/profiles", buf, len);
}

/* "--profile h100x: no such profile; expected one of a100, h100, ... or a path" (the folder's). */
static void profile_unknown(const char *name, const char *dir, char *err, size_t errlen)
{
    char names[512] = "";
    size_t used = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) && used < sizeof names;) {
        size_t n = strlen(e->d_name);
        if (n > 8 && !strcmp(e->d_name + n - 8, ".profile"))
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%.*s", used ? ", " : "", (int)(n - 8),
                                     e->d_name);
    }
    if (d) closedir(d);
    snprintf(err, errlen, "\"%.64s\": no such profile; expected one of %s or a path", name,
             used ? names : "(none found)");
}

int profile_load(const char *name_or_path, profile *out, char *err, size_t errlen)
{
    char path[4400], dirbuf[4200], *buf = NULL;
    const char *dir = profile_dir(dirbuf, sizeof dirbuf);
    size_t len;
    int rc;
    if (!name_or_path || !*name_or_path) {
        snprintf(err, errlen, "expected a name (p100, h200, local) or a path, got \"\"");
        return 2;
    }
    if (strchr(name_or_path, '/') || strchr(name_or_path, '.'))
        snprintf(path, sizeof path, "%s", name_or_path);
    else
        snprintf(path, sizeof path, "%s/%s.profile", dir, name_or_path);
    if ((rc = textfile_read(path, &buf, &len, err, errlen))) {
        if (rc == 2 && errno == ENOENT && path_is_name(name_or_path)) profile_unknown(name_or_path, dir, err, errlen);
        return rc;
    }
    rc = profile_parse(buf, len, path, out, err, errlen);
    free(buf);
    return rc;
}

int profile_write(const char *path, const profile *pr, const char *header, char *err, size_t errlen)
{
    outfile f;
    if (outfile_open(&f, path, err, errlen)) return 1;
    for (const char *h = header; h && *h;) {
        size_t n = strcspn(h, "\n");
        fprintf(f.f, "# %.*s\n", (int)n, h);
        h += n + (h[n] == '\n');
    }
    fprintf(f.f, "gemm_gflops_fp32 = %.6g\ngemm_gflops_fp16 = %.6g\nreduce_ns_per_byte = %.6g\nmem_gbps = %.6g\n",
            pr->gemm_gflops_fp32, pr->gemm_gflops_fp16, pr->reduce_ns_per_byte, pr->mem_gbps);
    if (pr->sgd_gbps > 0) fprintf(f.f, "sgd_gbps = %.6g\n", pr->sgd_gbps);
    if (pr->precision != PROFILE_FP32) fprintf(f.f, "precision = %s\n", profile_precision_name(pr->precision));
    if (pr->fused > 0) fprintf(f.f, "fused = %.0f\n", pr->fused);
    if (pr->graphs > 0) fprintf(f.f, "graphs = 1\n");
    if (pr->bn_held > 0) fprintf(f.f, "bn_held = 1\n");
    if (pr->kernel_us > 0) fprintf(f.f, "kernel_us = %.6g\n", pr->kernel_us);
    if (pr->graph_kernel_us > 0) fprintf(f.f, "graph_kernel_us = %.6g\n", pr->graph_kernel_us);
    if (pr->sms > 0) fprintf(f.f, "sms = %.0f\ngemm_tile = %.0f\n", pr->sms, pr->gemm_tile);
    for (int i = 0; i < pr->reduce_points && i < PROFILE_REDUCE_POINTS; i++) {
        size_t b = pr->reduce_bytes[i];
        if (b % (1 << 20) == 0) fprintf(f.f, "%s%zuM = %.6g\n", PROFILE_REDUCE_KEY, b >> 20, pr->reduce_ns[i]);
        else if (b % 1024 == 0) fprintf(f.f, "%s%zuK = %.6g\n", PROFILE_REDUCE_KEY, b >> 10, pr->reduce_ns[i]);
        else fprintf(f.f, "%s%zu = %.6g\n", PROFILE_REDUCE_KEY, b, pr->reduce_ns[i]);
    }
    return outfile_commit(&f, err, errlen);
}
