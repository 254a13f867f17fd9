/* nccl_compare_out.c — the outputs of `ddlbench nccl-compare` (nccl_compare.h): the table, and with
 * --out the CSV, the report and one gnuplot script per machine (published and predicted busbw
 * against size), each file written whole (outfile.h). */
#include "nccl_compare.h"
#include "csv.h"
#include "outfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CSV_HEADER "entry,machine,nodes,gpus_per_node,nccl,published_algo,algo,kind,role,size_B,published_GBps," \
                   "predicted_GBps,predicted_by,err_pct,tol_pct,status"

/* A point's status: ok or MISS against its goal, "-" below 1 MiB, "ref" where the entry does not score. */
static const char *status(const ncmp_run *r, int k)
{
    const double tol = ncmp_tol(r->e->pt[k].bytes);
    if (!nccl_cat_scored(r->e)) return !strcmp(r->e->role, "input") ? "input" : "ref";
    if (!tol) return "-";
    return fabs(ncmp_err(r->pred[k], r->e->pt[k].busbw)) <= tol ? "ok" : "MISS";
}

static const char *by(const ncmp_run *r, int k) { return r->from[k] == 's' ? "simulated" : "model"; }

static void summary(const ncmp_run *r, int n, FILE *f, const char *lead)
{
    int goal[2], met[2];
    ncmp_tally(r, n, goal, met);
    fprintf(f, "%s>= 1 MiB: %d of %d points within 15%%; >= 64 MiB: %d of %d within 10%% (scored entries: role "
               "prediction with a matching algorithm)\n", lead, met[0], goal[0], met[1], goal[1]);
}

void ncmp_print(const ncmp_run *r, int n, const char *source, FILE *f)
{
    fprintf(f, "# nccl-compare: published nccl-tests busbw against ddlbench's prediction (%s); err = predicted / "
               "published - 1\n", source);
    for (int i = 0; i < n; i++) {
        const nccl_entry *e = r[i].e;
        fprintf(f, "# %s: %s, %d nodes x %d GPUs, NCCL %s, published %s; compared with %s (%s, %s) %s\n", e->name,
                e->machine, r[i].pf.nodes, r[i].pf.gpus_per_node, e->nccl, e->published_algo, r[i].algo, e->kind,
                e->role, e->source);
        fprintf(f, "# %-22s %12s %14s %14s %9s %9s %6s\n", "entry", "size_B", "published_GBps", "predicted_GBps",
                "by", "err_pct", "goal");
        for (int k = r[i].first; k < e->npoints; k++)
            fprintf(f, "  %-22s %12.0f %14.2f %14.2f %9s %+9.1f %6s\n", e->name, e->pt[k].bytes, e->pt[k].busbw,
                    r[i].pred[k], by(&r[i], k), 100 * ncmp_err(r[i].pred[k], e->pt[k].busbw), status(&r[i], k));
    }
    summary(r, n, f, "# summary: ");
}

static void cell(FILE *f, const char *s, const char *sep)
{
    char c[600];
    csv_format_cell(s, c, sizeof c);
    fprintf(f, "%s%s", c, sep);
}

static void write_csv(const ncmp_run *r, int n, FILE *f)
{
    fprintf(f, "%s\n", CSV_HEADER);
    for (int i = 0; i < n; i++)
        for (int k = r[i].first; k < r[i].e->npoints; k++) {
            const nccl_entry *e = r[i].e;
            cell(f, e->name, ","), cell(f, e->machine, ",");
            fprintf(f, "%d,%d,", r[i].pf.nodes, r[i].pf.gpus_per_node);
            cell(f, e->nccl, ","), cell(f, e->published_algo, ","), cell(f, r[i].algo, ",");
            fprintf(f, "%s,%s,%.0f,%.6g,%.6g,%s,%.2f,%.0f,%s\n", e->kind, e->role, e->pt[k].bytes, e->pt[k].busbw,
                    r[i].pred[k], by(&r[i], k), 100 * ncmp_err(r[i].pred[k], e->pt[k].busbw),
                    100 * ncmp_tol(e->pt[k].bytes), status(&r[i], k));
        }
}

static void write_report(const ncmp_run *r, int n, const char *source, FILE *f)
{
    fprintf(f, "# Published nccl-tests allreduce runs, predicted\n\n"
               "`ddlbench nccl-compare` (%s): each published point of the catalogue (harness/sim/nccl, sources in "
               "docs/SOURCES.md) against ddlbench's matching algorithm on the matching platform, busbw as "
               "nccl-tests reports it; err = predicted / published - 1. Goals: every point at >= 1 MiB within "
               "15%%, at >= 64 MiB within 10%%, for the entries of role `prediction` with a matching algorithm. "
               "`input`: the figure a preset's rate was taken from (never a prediction); `ref`: no matching "
               "algorithm in ddlbench (nccl-ring shown beside it). Charts: MACHINE.svg (gnuplot MACHINE.gp).\n\n",
            source);
    summary(r, n, f, "**Summary**: ");
    fprintf(f, "\n| entry | machine | nodes | NCCL | published algo | compared with | kind | role | points |\n"
               "|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "| [%s](%s) | %s | %d | %s | %s | %s | %s | %s | %d |\n", r[i].e->name, r[i].e->source,
                r[i].e->machine, r[i].pf.nodes, r[i].e->nccl, r[i].e->published_algo, r[i].algo, r[i].e->kind,
                r[i].e->role, r[i].e->npoints - r[i].first);
    for (int i = 0; i < n; i++) {
        fprintf(f, "\n## %s\n\n| size_B | published GB/s | predicted GB/s | by | err %% | goal |\n"
                   "|---:|---:|---:|---|---:|---|\n", r[i].e->name);
        for (int k = r[i].first; k < r[i].e->npoints; k++)
            fprintf(f, "| %.0f | %.2f | %.2f | %s | %+.1f | %s |\n", r[i].e->pt[k].bytes, r[i].e->pt[k].busbw,
                    r[i].pred[k], by(&r[i], k), 100 * ncmp_err(r[i].pred[k], r[i].e->pt[k].busbw), status(&r[i], k));
    }
}

/* The machine's name as a file name: its last path part, without ".platform". */
static void stem(const char *m, char *out, size_t cap)
{
    const char *b = strrchr(m, '/') ? strrchr(m, '/') + 1 : m;
    size_t l = strcspn(b, ".");
    snprintf(out, cap, "%.*s", (int)(l < cap ? l : cap - 1), b);
}

static void write_gp(const ncmp_run *r, int n, const char *machine, const char *source, FILE *f)
{
    char s[128];
    int d = 0;
    stem(machine, s, sizeof s);
    fprintf(f, "# gnuplot %s.gp: published and predicted (%s) allreduce busbw on %s (ddlbench nccl-compare)\n"
               "set terminal svg size 900,520 dynamic\nset output '%s.svg'\nset logscale x 2\n"
               "set format x '%%.0s%%cB'\n"
               "set xlabel 'message size (bytes)'\nset ylabel 'busbw (GB/s)'\nset key left top\nset grid\n"
               "set title '%s: nccl-tests published vs ddlbench (%s)'\n", s, source, machine, s, s, source);
    for (int i = 0; i < n; i++) {
        if (strcmp(r[i].e->machine, machine)) continue;
        fprintf(f, "$d%d << EOD\n", i);
        for (int k = r[i].first; k < r[i].e->npoints; k++)
            fprintf(f, "%.0f %.4g %.4g\n", r[i].e->pt[k].bytes, r[i].e->pt[k].busbw, r[i].pred[k]);
        fprintf(f, "EOD\n");
    }
    fprintf(f, "plot");
    for (int i = 0; i < n; i++) {
        if (strcmp(r[i].e->machine, machine)) continue;
        fprintf(f, "%s \\\n  $d%d using 1:2 with linespoints title '%s published (%s)', \\\n"
                   "  $d%d using 1:3 with linespoints dashtype 2 title '%s predicted: %s'", d++ ? "," : "", i,
                r[i].e->name, r[i].e->published_algo[0] == 'd' ? "default" : r[i].e->published_algo, i,
                r[i].e->name, r[i].algo);
    }
    fprintf(f, "\n");
}

static int write_one(const char *dir, const char *name, const ncmp_run *r, int n, const char *source,
                     const char *machine, char *err, size_t errlen)
{
    char path[4400];
    outfile o;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (outfile_open(&o, path, err, errlen)) return 1;
    if (machine) write_gp(r, n, machine, source, o.f);
    else if (!strcmp(name, "compare.csv")) write_csv(r, n, o.f);
    else write_report(r, n, source, o.f);
    return outfile_commit(&o, err, errlen) ? 1 : 0;
}

int ncmp_write(const ncmp_run *r, int n, const char *source, const char *dir, char *err, size_t errlen)
{
    if (write_one(dir, "compare.csv", r, n, source, NULL, err, errlen) ||
        write_one(dir, "report.md", r, n, source, NULL, err, errlen))
        return 1;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        char s[128], name[160];
        for (int j = 0; j < i; j++) seen |= !strcmp(r[j].e->machine, r[i].e->machine);
        if (seen) continue;
        stem(r[i].e->machine, s, sizeof s);
        snprintf(name, sizeof name, "%s.gp", s);
        if (write_one(dir, name, r, n, source, r[i].e->machine, err, errlen)) return 1;
    }
    return 0;
}
