/* fidelity_calib.c — the calibration medians of `make fidelity`: the local profile of k concurrent
 * runs and the two contention probes (see fidelity.h). */
#include "fidelity.h"
#include "fidelity_priv.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The numbers of a text's lines that start with "# gemm_train_ms_per_step": its ms (the third word)
 * or its GFLOP/s (the number before " GFLOP/s"). */
static int gemm_values(const fidelity_text *t, int rate, fid_dvec *v)
{
    static const char tag[] = "# gemm_train_ms_per_step";
    for (size_t at = 0; at < t->len;) {
        const char *line = t->text + at, *nl = memchr(line, '\n', t->len - at);
        size_t k = nl ? (size_t)(nl - line) : t->len - at;
        char buf[1024];
        at += k + 1;
        if (k < sizeof tag - 1 || k >= sizeof buf || memcmp(line, tag, sizeof tag - 1)) continue;
        memcpy(buf, line, k);
        buf[k] = '\0';
        char *x = rate ? strstr(buf, " GFLOP/s") : buf + sizeof tag - 1;
        if (rate && x) { /* the number just before " GFLOP/s" */
            *x = '\0';
            while (x > buf && !strchr(" (", x[-1])) x--;
        }
        if (x && fid_dvec_add(v, strtod(x, NULL))) return 1;
    }
    return 0;
}

/* A profile's "key = value" lines (no '#', one " = "), keys not starting gemm_, into s (a in order). */
static int profile_values(const fidelity_text *t, fid_keyset *s)
{
    for (size_t at = 0; at < t->len;) {
        const char *line = t->text + at, *nl = memchr(line, '\n', t->len - at);
        size_t k = nl ? (size_t)(nl - line) : t->len - at;
        char buf[FID_KEY_MAX], *eq;
        at += k + 1;
        if (!k || *line == '#' || k >= sizeof buf) continue;
        memcpy(buf, line, k);
        buf[k] = '\0';
        if (!(eq = strstr(buf, " = ")) || strstr(eq + 3, " = ") || !strncmp(buf, "gemm_", 5)) continue;
        *eq = '\0';
        fid_keyed *p = fid_key_get(s, buf);
        if (!p || fid_dvec_add(&p->a, strtod(eq + 3, NULL))) return 1;
    }
    return 0;
}

int fidelity_profile(const fidelity_text *gemm, int ng, const fidelity_text *cpu, int nc, char **out, char *err,
                     size_t errlen)
{
    fid_dvec g = { 0 };
    fid_keyset s = { 0 };
    char *buf = NULL;
    size_t len = 0;
    int rc = 0;
    for (int i = 0; i < ng && !rc; i++) rc = gemm_values(&gemm[i], 1, &g);
    for (int i = 0; i < nc && !rc; i++) rc = profile_values(&cpu[i], &s);
    if (rc) rc = fid_oom(err, errlen);
    else if (!g.n || !s.n)
        rc = 2, snprintf(err, errlen, "%s; expected `ddlbench model --time` outputs and `ddlbench calibrate` profiles",
                         !g.n ? "no \"# gemm_train_ms_per_step\" line" : "no profile key");
    FILE *o = rc ? NULL : open_memstream(&buf, &len);
    if (!rc && !o) rc = fid_oom(err, errlen);
    if (!rc) {
        double rate = stats_median(g.v, (size_t)g.n);
        fprintf(o, "# local-%d: medians of %d concurrent runs (ranks sharing the cores): GEMM rate of\n"
                   "# `ddlbench model --model resnet50 --batch 2 --image-size 32 --time --cold`, the rest of "
                   "`ddlbench calibrate`\ngemm_gflops_fp32 = %.15g\ngemm_gflops_fp16 = %.15g\n", g.n, g.n, rate, rate);
        for (int i = 0; i < s.n; i++)
            fprintf(o, "%s = %.15g\n", s.k[i].key, stats_median(s.k[i].a.v, (size_t)s.k[i].a.n));
        rc = fid_mem_close(o, &buf, out, err, errlen);
    }
    free(g.v);
    fid_keys_free(&s);
    return rc;
}

int fidelity_contention(const fidelity_text *alone, int na, const fidelity_text *beside, int nb, double *pct,
                        char *err, size_t errlen)
{
    fid_dvec a = { 0 }, b = { 0 };
    int rc = 0;
    for (int i = 0; i < na && !rc; i++) rc = gemm_values(&alone[i], 0, &a);
    for (int i = 0; i < nb && !rc; i++) rc = gemm_values(&beside[i], 0, &b);
    if (rc) rc = fid_oom(err, errlen);
    else if (!a.n || !b.n)
        rc = 2, snprintf(err, errlen, "no \"# gemm_train_ms_per_step\" line %s; expected `ddlbench model --time`",
                         !a.n ? "alone" : "beside");
    else {
        double r = stats_rel_error(stats_median(b.v, (size_t)b.n), stats_median(a.v, (size_t)a.n));
        if (isnan(r)) rc = 2, snprintf(err, errlen, "the GEMM time alone is not > 0");
        else *pct = r > 0 ? 100 * r : 0;
    }
    free(a.v), free(b.v);
    return rc;
}

/* The in-place row's median time of an allreduce CSV (the last such row), or NAN. */
static int in_place_time(const fidelity_text *t, double *us, char *err, size_t errlen)
{
    static const char *const names[] = { "placement", "time_us_median" };
    int c[2], rc;
    csv_doc d;
    *us = NAN;
    if (!(rc = fid_read_csv(t, names, 2, c, &d, err, errlen)))
        for (int r = 0; r < d.nrows; r++)
            if (!strcmp(csv_cell(&d, r, c[0]), "in")) *us = fid_num(csv_cell(&d, r, c[1]));
    csv_free(&d);
    if (!rc && isnan(*us)) rc = 2, snprintf(err, errlen, "%.200s: no in-place row; expected an allreduce CSV", t->name);
    return rc;
}

int fidelity_comm_ratio(const fidelity_text *alone, const fidelity_text *beside, double *pct, char *err,
                        size_t errlen)
{
    double a, b;
    int rc = in_place_time(alone, &a, err, errlen);
    if (!rc) rc = in_place_time(beside, &b, err, errlen);
    if (rc) return rc;
    double r = stats_rel_error(b, a);
    if (isnan(r)) return snprintf(err, errlen, "%.200s: the in-place time is not > 0", alone->name), 2;
    *pct = r > 0 ? 100 * r : 0;
    return 0;
}
