/* fidelity.c — merge, join, report and calibration medians of `make fidelity` (see fidelity.h). */
#include "fidelity.h"
#include "fidelity_priv.h"
#include "csv.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fid_oom(char *err, size_t errlen) { return snprintf(err, errlen, "out of memory"), 1; }

double fid_num(const char *s) { return strtod(s, NULL); } /* awk's value of a cell: 0 when none */

/* t read as a CSV with the columns names[0..n) (their indexes in col[]). 0, 1, or 2 with a message. */
int fid_read_csv(const fidelity_text *t, const char *const *names, int n, int *col, csv_doc *d, char *err,
                    size_t errlen)
{
    char what[300];
    int rc = csv_read(t->text, t->len, 0, d, what, sizeof what);
    if (rc) return rc == 1 ? fid_oom(err, errlen) : (snprintf(err, errlen, "%.200s: %s", t->name, what), 2);
    for (int i = 0; i < n; i++)
        if ((col[i] = csv_col(d, names[i])) < 0)
            return snprintf(err, errlen, "%.200s: no %s column; expected a ddlbench CSV with it", t->name, names[i]), 2;
    return 0;
}

int fid_dvec_add(fid_dvec *a, double x)
{
    if (a->n == a->cap) {
        int cap = a->cap ? 2 * a->cap : 8;
        double *v = realloc(a->v, (size_t)cap * sizeof *v);
        if (!v) return 1;
        a->v = v, a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

fid_keyed *fid_key_get(fid_keyset *s, const char *key)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->k[i].key, key)) return &s->k[i];
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        fid_keyed *k = realloc(s->k, (size_t)cap * sizeof *k);
        if (!k) return NULL;
        s->k = k, s->cap = cap;
    }
    fid_keyed *k = &s->k[s->n++];
    memset(k, 0, sizeof *k);
    snprintf(k->key, sizeof k->key, "%s", key);
    k->lo = INFINITY;
    return k;
}

void fid_keys_free(fid_keyset *s)
{
    for (int i = 0; i < s->n; i++) free(s->k[i].a.v), free(s->k[i].b.v);
    free(s->k);
}

/* cells joined by commas, each a CSV cell (quoted where it must be) */
void fid_join_cells(char *out, size_t cap, const char *const *cells, int n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k < cap; i++) {
        char c[FID_KEY_MAX];
        csv_format_cell(cells[i], c, sizeof c);
        k += (size_t)snprintf(out + k, cap - k, "%s%s", i ? "," : "", c);
    }
}

/* The text of an open_memstream into *out: 0, or 1 (out of memory). */
int fid_mem_close(FILE *f, char **buf, char **out, char *err, size_t errlen)
{
    int bad = ferror(f);
    if (fclose(f) || bad) return free(*buf), *buf = NULL, fid_oom(err, errlen);
    *out = *buf;
    return 0;
}

int fidelity_merge(const fidelity_text *runs, int n, char **out, char *err, size_t errlen)
{
    static const char *const names[] = { "size_B", "algo", "placement", "ranks", "time_us_median", "time_us_min" };
    fid_keyset s = { 0 };
    char *buf = NULL, key[FID_KEY_MAX];
    size_t len = 0;
    int rc = 0, col[6];
    for (int f = 0; f < n && !rc; f++) {
        csv_doc d;
        if (!(rc = fid_read_csv(&runs[f], names, 6, col, &d, err, errlen)))
            for (int r = 0; r < d.nrows && !rc; r++) {
                const char *k[4] = { csv_cell(&d, r, col[0]), csv_cell(&d, r, col[1]), csv_cell(&d, r, col[2]),
                                     csv_cell(&d, r, col[3]) };
                fid_join_cells(key, sizeof key, k, 4);
                fid_keyed *p = fid_key_get(&s, key);
                double lo = fid_num(csv_cell(&d, r, col[5]));
                if (!p || fid_dvec_add(&p->a, fid_num(csv_cell(&d, r, col[4])))) rc = fid_oom(err, errlen);
                else if (lo < p->lo) p->lo = lo;
            }
        csv_free(&d);
    }
    FILE *o = rc ? NULL : open_memstream(&buf, &len);
    if (!rc && !o) rc = fid_oom(err, errlen);
    if (!rc) {
        fprintf(o, "size_B,algo,placement,ranks,time_us_median,time_us_min,runs\n");
        for (int i = 0; i < s.n; i++)
            fprintf(o, "%s,%.15g,%.15g,%d\n", s.k[i].key, stats_median(s.k[i].a.v, (size_t)s.k[i].a.n), s.k[i].lo,
                    s.k[i].a.n);
        rc = fid_mem_close(o, &buf, out, err, errlen);
    }
    fid_keys_free(&s);
    return rc;
}

/* One file of a join: its rows as fid_keyed points (the last value of a key wins, as the awk kept it). */
static int join_file(const fidelity_text *t, int train, fid_keyset *s, char *err, size_t errlen)
{
    static const char *const ar[] = { "ranks", "algo", "size_B", "time_us_median", "time_us_min", "placement" };
    static const char *const tr[] = { "ranks", "algo", "bucket_MB", "step_ms_median", "step_ms_min" };
    int col[6], rc;
    csv_doc d;
    if ((rc = fid_read_csv(t, train ? tr : ar, train ? 5 : 6, col, &d, err, errlen))) goto out;
    for (int r = 0; r < d.nrows; r++) {
        if (!train && strcmp(csv_cell(&d, r, col[5]), "out")) continue;
        char size[FID_KEY_MAX], key[FID_KEY_MAX];
        snprintf(size, sizeof size, "%s%s", train ? "resnet50-b2-32px-bucket" : "", csv_cell(&d, r, col[2]));
        const char *k[4] = { train ? "train" : "allreduce", csv_cell(&d, r, col[0]), csv_cell(&d, r, col[1]), size };
        fid_join_cells(key, sizeof key, k, 4);
        double scale = train ? 1000 : 1;
        fid_keyed *p = fid_key_get(s, key);
        if (!p) { rc = fid_oom(err, errlen); goto out; }
        p->a.n = 0, p->b.n = 0;
        if (fid_dvec_add(&p->a, scale * fid_num(csv_cell(&d, r, col[3]))) ||
            fid_dvec_add(&p->b, scale * fid_num(csv_cell(&d, r, col[4])))) {
            rc = fid_oom(err, errlen);
            goto out;
        }
    }
out:
    csv_free(&d);
    return rc;
}

static void print_err(FILE *o, double e) /* a relative error in percent, %.2f, or NA */
{
    if (isnan(e)) fprintf(o, ",NA");
    else fprintf(o, ",%.2f", 100 * e);
}

int fidelity_join(const char *setup, const fidelity_text in[4], char **out, char *err, size_t errlen)
{
    fid_keyset real = { 0 }, sim = { 0 };
    char *buf = NULL, kcopy[FID_KEY_MAX], *cells[4];
    size_t len = 0;
    int rc = 0;
    for (int f = 0; f < 4 && !rc; f++) rc = join_file(&in[f], f >= 2, f % 2 ? &sim : &real, err, errlen);
    FILE *o = rc ? NULL : open_memstream(&buf, &len);
    if (!rc && !o) rc = fid_oom(err, errlen);
    for (int i = 0; !rc && i < real.n; i++) {
        fid_keyed *r = &real.k[i], *s = fid_key_get(&sim, r->key);
        if (!s) { rc = fid_oom(err, errlen); break; }
        if (!s->a.n || !(r->a.v[0] > 0)) continue;
        snprintf(kcopy, sizeof kcopy, "%s", r->key);
        if (csv_split(kcopy, cells, 4) != 4) continue;
        double t = r->a.v[0], m = r->b.v[0], st = s->a.v[0];
        fprintf(o, "%s,%s,%s,%s,%s,%.3f,%.3f", cells[0], setup, cells[1], cells[2], cells[3], t, st);
        print_err(o, stats_rel_error(st, t));
        fprintf(o, ",%.3f", m);
        print_err(o, stats_rel_error(st, m));
        fputc('\n', o);
    }
    if (o && rc) fclose(o), free(buf);
    else if (o) rc = fid_mem_close(o, &buf, out, err, errlen);
    fid_keys_free(&real), fid_keys_free(&sim);
    return rc;
}

int fidelity_passes(double median_pct, double max_pct)
{
    return median_pct <= FIDELITY_MEDIAN_PCT && max_pct <= FIDELITY_MAX_PCT;
}

/* "median max n" of |v| over the finite values (%.1f), or "NA", "NA", 0 */
typedef struct figures { double median, max; int n; } figures;
static figures figures_of(fid_dvec *v)
{
    figures f = { NAN, NAN, 0 };
    for (int i = 0; i < v->n; i++)
        if (isfinite(v->v[i])) v->v[f.n++] = fabs(v->v[i]);
    v->n = f.n;
    if (f.n) f.median = stats_median(v->v, (size_t)f.n), f.max = v->v[f.n - 1];
    return f;
}

static void print_figure(FILE *o, double x, const char *unit)
{
    if (isnan(x)) fprintf(o, "NA%s", unit);
    else fprintf(o, "%.1f%s", x, unit);
}

static int by_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The groups' lines: table[i] "#   KIND SETUP RANKS ranks ..." and summary[i] "KIND-SETUP-RANKS m/M[*]", sorted. */
static int group_lines(fid_keyset *g, char **table, char **summary)
{
    for (int i = 0; i < g->n; i++) {
        char k[FID_KEY_MAX], *c[3], line[FID_KEY_MAX + 8], text[2 * FID_KEY_MAX];
        snprintf(k, sizeof k, "%s", g->k[i].key);
        if (csv_split(k, c, 3) != 3) c[0] = c[1] = c[2] = "";
        int n = g->k[i].a.n;
        figures e = figures_of(&g->k[i].a), f = figures_of(&g->k[i].b);
        snprintf(line, sizeof line, "%s %s %s ranks", c[0], c[1], c[2]);
        snprintf(text, sizeof text, "#   %-32s %6.1f%% %6.1f%%   %6.1f%%  (%d points)", line, e.median, e.max, f.median,
                 n);
        if (!(table[i] = strdup(text))) return 1;
        snprintf(text, sizeof text, "%s-%s-%s %.1f/%.1f%s", c[0], c[1], c[2], e.median, e.max,
                 fidelity_passes(e.median, e.max) ? "" : "*");
        if (!(summary[i] = strdup(text))) return 1;
    }
    qsort(table, (size_t)g->n, sizeof *table, by_text);
    qsort(summary, (size_t)g->n, sizeof *summary, by_text);
    return 0;
}

static const char *const point_cols[] = { "kind", "setup", "ranks", "algo", "size", "real_us", "sim_us", "err_pct",
                                          "real_min_us", "err_min_pct" };

static void print_report(FILE *o, const csv_doc *d, const int *c, fid_keyset *g, fid_dvec *all, fid_dvec *fast,
                         char **table, char **summary)
{
    fprintf(o, "# %-9s %-6s %5s %-5s %16s %12s %12s %8s %12s %8s\n", "kind", "setup", "ranks", "algo", "size",
            "real_us", "sim_us", "err%", "real_min_us", "err_min%");
    for (int r = 0; r < d->nrows; r++)
        fprintf(o, "  %-9s %-6s %5s %-5s %16s %12.1f %12.1f %8.1f %12.1f %8.1f\n", csv_cell(d, r, c[0]),
                csv_cell(d, r, c[1]), csv_cell(d, r, c[2]), csv_cell(d, r, c[3]), csv_cell(d, r, c[4]),
                fid_num(csv_cell(d, r, c[5])), fid_num(csv_cell(d, r, c[6])), fid_num(csv_cell(d, r, c[7])),
                fid_num(csv_cell(d, r, c[8])), fid_num(csv_cell(d, r, c[9])));
    fprintf(o, "# per group (kind, setup, ranks): |error| on the median real time: median, max; on the fastest real "
               "iteration: median\n");
    for (int i = 0; i < g->n; i++) fprintf(o, "%s\n", table[i]);
    fprintf(o, "# nothing fitted to these points: the platform and profile come from separate calibration runs\n"
               "# (calibrate --network's p2p, working-set, burst, fresh-page and whole-message sweeps; the kernel "
               "timings), made before them\n");
    figures f = figures_of(fast), a = figures_of(all);
    fprintf(o, "fidelity (fastest real iteration): median |error| ");
    print_figure(o, f.median, "%, max "), print_figure(o, f.max, "%");
    fprintf(o, " over %d points\nfidelity: median |error| ", f.n);
    print_figure(o, a.median, "%, max "), print_figure(o, a.max, "%");
    fprintf(o, " over %d points; per group (median/max %%, * = misses %g/%g): ", a.n, FIDELITY_MEDIAN_PCT,
            FIDELITY_MAX_PCT);
    for (int i = 0; i < g->n; i++) fprintf(o, "%s%s", i ? ", " : "", summary[i]);
    fputc('\n', o);
}

int fidelity_report(const fidelity_text *points, char **out, char *err, size_t errlen)
{
    csv_doc d;
    fid_keyset g = { 0 };
    fid_dvec all = { 0 }, fast = { 0 };
    char **table = NULL, **summary = NULL, *buf = NULL, key[FID_KEY_MAX];
    size_t len = 0;
    int c[10], rc = fid_read_csv(points, point_cols, 10, c, &d, err, errlen);
    for (int r = 0; !rc && r < d.nrows; r++) {
        const char *k[3] = { csv_cell(&d, r, c[0]), csv_cell(&d, r, c[1]), csv_cell(&d, r, c[2]) };
        const char *e = csv_cell(&d, r, c[7]), *m = csv_cell(&d, r, c[9]);
        double ev = strcmp(e, "NA") ? fid_num(e) : NAN, mv = strcmp(m, "NA") ? fid_num(m) : NAN;
        fid_join_cells(key, sizeof key, k, 3);
        fid_keyed *p = fid_key_get(&g, key);
        if (!p || fid_dvec_add(&p->a, ev) || fid_dvec_add(&p->b, mv) || fid_dvec_add(&all, ev) ||
            fid_dvec_add(&fast, mv))
            rc = fid_oom(err, errlen);
    }
    if (!rc && (!(table = calloc((size_t)g.n + 1, sizeof *table)) ||
                !(summary = calloc((size_t)g.n + 1, sizeof *summary)) || group_lines(&g, table, summary)))
        rc = fid_oom(err, errlen);
    FILE *o = rc ? NULL : open_memstream(&buf, &len);
    if (!rc && !o) rc = fid_oom(err, errlen);
    if (!rc) {
        print_report(o, &d, c, &g, &all, &fast, table, summary);
        rc = fid_mem_close(o, &buf, out, err, errlen);
    }
    for (int i = 0; i < g.n; i++) free(table ? table[i] : NULL), free(summary ? summary[i] : NULL);
    free(table), free(summary), free(all.v), free(fast.v);
    fid_keys_free(&g);
    csv_free(&d);
    return rc;
}

