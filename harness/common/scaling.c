/* scaling.c — scaling.csv from the raw per-launch CSVs, efficiencies included (see scaling.h).
 * Column for column what harness/scripts/sweep.sh's awk wrote before: backend and platform labels,
 * model, batch, image_size, gpus, nodes, gpus_per_node, the raw columns algo .. images_per_s (a 0
 * nongemm_ms inserted for raw CSVs from before the full step), the two efficiencies (%.4f), wrong,
 * the PAPI pair and SCALING_EXTRA. A baseline of 0 images/s gives NA (the awk stopped on it). */
#include "scaling.h"
#include "csv.h"
#include "parse.h"
#include "textfile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf { char *p; size_t n, cap; int oom; } sbuf; /* a growing NUL-terminated text */

static void sb_add(sbuf *b, const char *s, size_t k)
{
    if (b->oom) return;
    if (b->n + k + 1 > b->cap) {
        size_t cap = (b->n + k + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = 1; return; }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, s, k);
    b->n += k;
    b->p[b->n] = '\0';
}
static void sb_puts(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }
static void sb_cell(sbuf *b, const char *s) /* a cell read from a raw CSV, quoted again when it must be */
{
    if (!csv_needs_quotes(s)) { sb_puts(b, s); return; }
    sb_puts(b, "\"");
    for (const char *q; (q = strchr(s, '"')); s = q + 1) sb_add(b, s, (size_t)(q - s) + 1), sb_puts(b, "\"");
    sb_puts(b, s), sb_puts(b, "\"");
}
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_add(b, tmp, k < 0 ? 0 : (size_t)k < sizeof tmp ? (size_t)k : sizeof tmp - 1);
}

typedef struct srow {
    const char *model, *algo, *bucket;  /* the baseline key, pointing into the file's copy */
    double gpus, ips;
    size_t head, tail, end;             /* in the rows text: [head, tail) before the efficiencies, [tail, end) after */
} srow;

typedef struct merge_state {
    sbuf text;                  /* the rows' text, pieces indexed by srow */
    srow *rows;
    int nrows, caprows;
    int fmax;                   /* the file whose # lines head the table */
    double gmax;
    int fmax_model;
} merge_state;

double scaling_efficiency(double x, double n, double n0, double x0)
{
    double base = n / n0 * x0;
    return base > 0 ? x / base : NAN; /* NAN baseline: base > 0 is false */
}

/* sort -n's number at the start of s: blanks, an optional '-', digits, an optional '.' and digits. */
static double sort_number(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    const char *p = s + (*s == '-');
    size_t k = strspn(p, "0123456789");
    if (p[k] == '.') k += 1 + strspn(p + k + 1, "0123456789");
    char tmp[64];
    size_t len = (size_t)(p - s) + k < sizeof tmp ? (size_t)(p - s) + k : sizeof tmp - 1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    return strtod(tmp, NULL);
}

int scaling_order(const char *a, const char *b)
{
    const char *ka = strchr(a, '-'), *kb = strchr(b, '-');
    double x = ka ? sort_number(ka + 1) : 0, y = kb ? sort_number(kb + 1) : 0;
    if (x != y) return x < y ? -1 : 1;
    return strcmp(a, b);
}

/* awk's value of a cell: the decimal number it starts with, else 0. */
static double value(const char *s)
{
    size_t k = parse_decimal_len(s);
    char tmp[64];
    if (!k || k >= sizeof tmp) return 0;
    memcpy(tmp, s, k);
    tmp[k] = '\0';
    return strtod(tmp, NULL);
}

static int col(char *const *names, int n, const char *name) /* the last column of that name, or -1 */
{
    for (int i = n - 1; i >= 0; i--) if (!strcmp(names[i], name)) return i;
    return -1;
}

/* a number as awk prints it: integers whole, others %.6g */
static void sb_number(sbuf *b, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) sb_printf(b, "%.0f", v);
    else sb_printf(b, "%.6g", v);
}

typedef struct sfile { csv_doc d; } sfile; /* one raw CSV, read */

static const char *const needed[] = { "model", "batch", "image_size", "ranks", "algo", "bucket_MB", "buckets",
                                      "step_ms_median", "gemm_ms", "images_per_s", "wrong" };
enum { C_MODEL, C_BATCH, C_SIZE, C_RANKS, C_ALGO, C_BUCKET, C_BUCKETS, C_STEP, C_GEMM, C_IPS, C_WRONG, C_NEED };

/* One row's text pieces and key (cells of a row of the raw CSV whose columns are c[]). */
static int add_row(merge_state *m, const char *const *cells, char *const *names, int ncols, const int *c, int is_model,
                   const scaling_setup *s)
{
    if (m->nrows == m->caprows) {
        int cap = m->caprows ? 2 * m->caprows : 64;
        srow *r = realloc(m->rows, (size_t)cap * sizeof *r);
        if (!r) return 1;
        m->rows = r, m->caprows = cap;
    }
    srow *r = &m->rows[m->nrows++];
    double g = value(cells[c[C_RANKS]]);
    const char *gs = cells[c[C_RANKS]], *bk = is_model ? "model" : s->backend;
    *r = (srow){ cells[c[C_MODEL]], cells[c[C_ALGO]], cells[c[C_BUCKET]], g, value(cells[c[C_IPS]]), m->text.n, 0, 0 };
    sbuf *b = &m->text;
    sb_printf(b, "%s,%s,", bk, s->platform);
    sb_cell(b, cells[c[C_MODEL]]), sb_puts(b, ","), sb_cell(b, cells[c[C_BATCH]]), sb_puts(b, ",");
    sb_cell(b, cells[c[C_SIZE]]), sb_puts(b, ","), sb_cell(b, gs), sb_puts(b, ",");
    sb_number(b, g >= s->gpus_per_node ? g / s->gpus_per_node : 1);
    if (g >= s->gpus_per_node) sb_printf(b, ",%ld,", s->gpus_per_node);
    else sb_printf(b, ",%s,", gs);
    sb_cell(b, cells[c[C_ALGO]]), sb_puts(b, ","), sb_cell(b, cells[c[C_BUCKET]]), sb_puts(b, ",");
    sb_cell(b, cells[c[C_BUCKETS]]);
    int nongemm = col(names, ncols, "nongemm_ms") >= 0;
    for (int j = c[C_STEP]; j <= c[C_IPS]; j++) {
        sb_puts(b, ","), sb_cell(b, cells[j]);
        if (j == c[C_GEMM] && !nongemm) sb_puts(b, ",0"); /* a raw CSV from before the full step */
    }
    r->tail = b->n;
    sb_cell(b, cells[c[C_WRONG]]);
    int pg = col(names, ncols, "papi_gemm_GFLOPps"), pi = col(names, ncols, "papi_gemm_ipc");
    if (pg >= 0) sb_puts(b, ","), sb_cell(b, cells[pg]), sb_puts(b, ","), sb_cell(b, pi >= 0 ? cells[pi] : "NA");
    else sb_puts(b, ",NA,NA");
    char extra[] = SCALING_EXTRA, *save = NULL;
    for (char *x = strtok_r(extra, ",", &save); x; x = strtok_r(NULL, ",", &save)) {
        int k = col(names, ncols, x);
        sb_puts(b, ","), sb_cell(b, k >= 0 ? cells[k] : "NA");
    }
    r->end = b->n;
    return b->oom;
}

static int bad(char *err, size_t errlen, const char *name, long line, const char *what)
{
    snprintf(err, errlen, "%.200s: line %ld: %s", name, line, what);
    return 2;
}

/* Whether merge copies column j (named name) as a number: the train CSV's numbers it copies, and
 * every column from step_ms_median to images_per_s; *sign: it may be negative (a remainder, a lag). */
static int numeric_col(const char *name, int j, const int *c, int *sign)
{
    static const char *const num[] = { "batch", "image_size", "ranks", "bucket_MB", "buckets", "wrong",
                                       "papi_gemm_GFLOPps", "papi_gemm_ipc", "epochs", "dataset_images",
                                       "time_to_train_h", "gpu_hours", "slowest_rank", "lag_ms", "mad_ms",
                                       "stragglers" };
    *sign = !strcmp(name, "other_ms") || !strcmp(name, "other_pct") || !strcmp(name, "lag_ms");
    if (j >= c[C_STEP] && j <= c[C_IPS]) return 1;
    for (size_t k = 0; k < sizeof num / sizeof num[0]; k++)
        if (!strcmp(name, num[k])) return 1;
    return 0;
}

/* Every number of a row merge copies: NA, or a whole decimal number that is finite (and not negative
 * where a count or a time is meant). 0, or 2 with what is wrong in what. */
static int row_numbers(const csv_doc *d, const char *const *cells, const int *c, char *what, size_t wlen)
{
    for (int j = 0; j < d->ncols; j++) {
        const char *v = cells[j];
        int sign;
        if (!numeric_col(d->names[j], j, c, &sign) || !strcmp(v, "NA")) continue;
        size_t k = parse_decimal_len(v);
        double x = k && !v[k] ? value(v) : NAN;
        if (k && !v[k] && k < 64 && isfinite(x) && (sign || x >= 0)) continue;
        char shown[100];
        textfile_escape(v, shown, sizeof shown);
        snprintf(what, wlen, "%.40s \"%.60s\": expected NA or a finite decimal number%s", d->names[j], shown,
                 sign ? "" : " (not negative)");
        return 2;
    }
    return 0;
}

/* One raw CSV: read (its # lines kept), its rows added. 0, 1 out of memory, 2 not a raw CSV (err). */
static int parse_file(merge_state *m, int fi, sfile *f, const scaling_file *in, const scaling_setup *s,
                      char *err, size_t errlen)
{
    char what[300];
    int c[C_NEED], rc;
    size_t nl = strlen(in->name);
    int is_model = nl >= 10 && !strcmp(in->name + nl - 10, "-model.csv");
    csv_doc *d = &f->d;
    if ((rc = csv_read(in->text, in->len, 0, d, what, sizeof what)) == 2 && !strcmp(what, "no header row"))
        return bad(err, errlen, in->name, 1, "no header row; expected a train CSV");
    if (rc) return rc == 2 ? (snprintf(err, errlen, "%.200s: %s", in->name, what), 2) : 1;
    for (int k = 0; k < C_NEED; k++)
        if ((c[k] = csv_col(d, needed[k])) < 0) {
            snprintf(what, sizeof what, "no %s column; expected a train CSV header (model,batch,...)", needed[k]);
            return bad(err, errlen, in->name, d->header_line, what);
        }
    int rk = csv_col(d, "rank"); /* --per-rank: one row per rank; the summary row is "all" */
    for (int r = 0; r < d->nrows; r++) {
        const char *const *cells = (const char *const *)d->cells + (size_t)r * (size_t)d->ncols;
        if (rk >= 0 && strcmp(cells[rk], "all")) continue;
        const char *g = cells[c[C_RANKS]];
        if (!*g || g[strspn(g, "0123456789")] || value(g) < 1) {
            snprintf(what, sizeof what, "ranks \"%.40s\": expected a positive integer", g);
            return bad(err, errlen, in->name, d->lines[r], what);
        }
        if (row_numbers(d, cells, c, what, sizeof what)) return bad(err, errlen, in->name, d->lines[r], what);
        double gv = value(g);
        if (gv > m->gmax || (gv == m->gmax && m->fmax_model && !is_model))
            m->gmax = gv, m->fmax = fi, m->fmax_model = is_model;
        if (add_row(m, cells, d->names, d->ncols, c, is_model, s)) return 1;
    }
    return 0;
}

/* The images/s of the last row of r's key at n0 GPUs, or NAN when there is none. */
static double baseline(const merge_state *m, const srow *r, double n0)
{
    for (int i = m->nrows - 1; i >= 0; i--) {
        const srow *b = &m->rows[i];
        if (b->gpus == n0 && !strcmp(b->model, r->model) && !strcmp(b->algo, r->algo) && !strcmp(b->bucket, r->bucket))
            return b->ips;
    }
    return NAN;
}

/* The fewest GPUs of r's key (model, algo, bucket): its smallest run. */
static double smallest(const merge_state *m, const srow *r)
{
    double g = r->gpus;
    for (int i = 0; i < m->nrows; i++) {
        const srow *b = &m->rows[i];
        if (b->gpus < g && !strcmp(b->model, r->model) && !strcmp(b->algo, r->algo) && !strcmp(b->bucket, r->bucket))
            g = b->gpus;
    }
    return g;
}

static void sb_eff(sbuf *b, double e)
{
    if (isnan(e)) sb_puts(b, ",NA");
    else sb_printf(b, ",%.4f", e);
}

static void write_table(const merge_state *m, const sfile *files, const scaling_setup *s, sbuf *o)
{
    sb_puts(o, s->meta ? s->meta : "");
    for (int i = 0; m->nrows && i < files[m->fmax].d.ncomments; i++) {
        const char *line = files[m->fmax].d.comments[i];
        if (!strncmp(line, "# command:", 10)) sb_puts(o, "# launch_command:"), sb_puts(o, line + 10);
        else sb_puts(o, line);
        sb_puts(o, "\n");
    }
    sb_puts(
        o, "backend,platform,model,batch,image_size,gpus,nodes,gpus_per_node,algo,bucket_MB,buckets,"
           "step_ms_median,step_ms_min,step_ms_max,compute_ms,gemm_ms,nongemm_ms,comm_ms,exposed_ms,sgd_ms,other_ms,"
           "other_pct,images_per_s,eff_vs_1gpu,eff_vs_1node,wrong,papi_gemm_GFLOPps,papi_gemm_ipc," SCALING_EXTRA
           ",eff_vs_smallest\n");
    double G = (double)s->gpus_per_node;
    for (int i = 0; i < m->nrows; i++) {
        const srow *r = &m->rows[i];
        sb_add(o, m->text.p + r->head, r->tail - r->head);
        sb_eff(o, scaling_efficiency(r->ips, r->gpus, 1, baseline(m, r, 1)));
        sb_eff(o, r->gpus >= G ? scaling_efficiency(r->ips, r->gpus, G, baseline(m, r, G)) : NAN);
        sb_puts(o, ",");
        sb_add(o, m->text.p + r->tail, r->end - r->tail);
        double n0 = smallest(m, r); /* per-GPU images/s against the key's smallest run (MLPerf's comparison) */
        sb_eff(o, scaling_efficiency(r->ips, r->gpus, n0, baseline(m, r, n0)));
        sb_puts(o, "\n");
    }
}

int scaling_merge(const scaling_file *files, int n, const scaling_setup *setup, char **out, size_t *outlen,
                  char *err, size_t errlen)
{
    merge_state m = { 0 };
    sbuf o = { 0 };
    sfile *f = calloc((size_t)n + 1, sizeof *f);
    int rc = 1;
    if (!f || setup->gpus_per_node < 1) {
        snprintf(err, errlen, f ? "gpus per node: expected at least 1" : "out of memory");
        rc = f ? 2 : 1;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        if (memchr(files[i].text, '\0', files[i].len)) {
            rc = bad(err, errlen, files[i].name, 1, "a NUL byte; expected a text CSV");
            goto out;
        }
        if ((rc = parse_file(&m, i, &f[i], &files[i], setup, err, errlen))) {
            if (rc == 1) snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    rc = 1;
    write_table(&m, f, setup, &o);
    if (o.oom || m.text.oom) { snprintf(err, errlen, "out of memory"); goto out; }
    *out = o.p, *outlen = o.n;
    o.p = NULL;
    rc = 0;
out:
    for (int i = 0; f && i < n; i++) csv_free(&f[i].d);
    free(f), free(m.rows), free(m.text.p), free(o.p);
    return rc;
}

/* step efficiency: the columns read from a train CSV */
static const char *const step_cols[] = { "model", "algo", "bucket_MB", "ranks", "batch", "step_ms_median",
                                         "step_ms_min", "step_ms_max" };
enum { S_MODEL, S_ALGO, S_BUCKET, S_RANKS, S_BATCH, S_MED, S_MIN, S_MAX, S_NEED };

static int step_read(const scaling_file *f, csv_doc *d, int *c, char *err, size_t errlen)
{
    char what[300];
    int rc = csv_read(f->text, f->len, 0, d, what, sizeof what);
    if (rc) return rc == 1 ? 1 : (snprintf(err, errlen, "%.200s: %s", f->name, what), 2);
    for (int k = 0; k < S_NEED; k++)
        if ((c[k] = csv_col(d, step_cols[k])) < 0)
            return snprintf(err, errlen, "%.200s: no %s column; expected a train CSV", f->name, step_cols[k]), 2;
    return 0;
}

/* images/s of a step of t ms at n ranks of batch b */
static double step_rate(double n, double b, double t) { return t > 0 ? n * b / (t * 1e-3) : NAN; }

int scaling_step_efficiency(const scaling_file *base, const scaling_file *run, char **out, char *err, size_t errlen)
{
    csv_doc b = { 0 }, r = { 0 };
    int cb[S_NEED], cr[S_NEED], rc = step_read(base, &b, cb, err, errlen);
    sbuf o = { 0 };
    if (!rc) rc = step_read(run, &r, cr, err, errlen);
    sb_puts(&o, SCALING_STEP_HEADER "\n");
    for (int i = 0; !rc && i < r.nrows; i++) {
        int j = b.nrows - 1;
        while (j >= 0 && (strcmp(csv_cell(&b, j, cb[S_MODEL]), csv_cell(&r, i, cr[S_MODEL])) ||
                          strcmp(csv_cell(&b, j, cb[S_ALGO]), csv_cell(&r, i, cr[S_ALGO])) ||
                          strcmp(csv_cell(&b, j, cb[S_BUCKET]), csv_cell(&r, i, cr[S_BUCKET]))))
            j--;
        if (j < 0) {
            rc = 2, snprintf(err, errlen, "%.200s: line %ld: no row of %.200s with its model, algo and bucket_MB",
                             run->name, r.lines[i], base->name);
            break;
        }
        double n0 = value(csv_cell(&b, j, cb[S_RANKS])), t0 = value(csv_cell(&b, j, cb[S_MED]));
        double n = value(csv_cell(&r, i, cr[S_RANKS])), bt = value(csv_cell(&r, i, cr[S_BATCH]));
        double x0 = step_rate(n0, value(csv_cell(&b, j, cb[S_BATCH])), t0), t[3];
        for (int k = 0; k < 3; k++) t[k] = value(csv_cell(&r, i, cr[S_MED + k]));
        if (!(x0 > 0) || !(n0 >= 1) || !(n >= 1) || !(t[0] > 0 && t[1] > 0 && t[2] > 0)) {
            rc = 2, snprintf(err, errlen, "%.200s: a step time or rank count not > 0; expected a train CSV's",
                             !(x0 > 0) || !(n0 >= 1) ? base->name : run->name);
            break;
        }
        sb_printf(&o, "%.0f,%.3f,%.3f,%.3f,%.3f", n, t0, t[0], t[1], t[2]);
        int order[3] = { 0, 2, 1 }; /* eff_min on the slowest step, eff_max on the fastest */
        for (int k = 0; k < 3; k++)
            sb_printf(&o, ",%.2f", 100 * scaling_efficiency(step_rate(n, bt, t[order[k]]), n, n0, x0));
        sb_puts(&o, "\n");
    }
    csv_free(&b), csv_free(&r);
    if (!rc && o.oom) rc = 1;
    if (rc == 1) snprintf(err, errlen, "out of memory");
    if (rc) free(o.p);
    else *out = o.p;
    return rc;
}
