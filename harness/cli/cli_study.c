/* cli_study.c — `ddlbench study`: the 2017 systems of the DDL study at 256 GPUs with each unknown as a
 * range, by the α-β-γ pricer of the one step schedule (harness/sim/model_step.h; the simulator checks it at spot points,
 * harness/scripts/study.sh). Per published figure: the platform files of the machine as sourced
 * (the .platform files in harness/sim/platforms, docs/SOURCES.md §1–§3, §10), the unknowns — whether the allreduce
 * overlapped backward (bucket 0 = one allreduce after backward; DDP-style 25 MiB buckets) and, for the
 * Minsky, 1 or 2 InfiniBand EDR ports per node — and the baseline the figure was measured against.
 * Prints every corner, then per figure the band (min..max efficiency over the corners), its centre,
 * and where the published figure falls; --out DIR writes DIR/study.csv and DIR/report.md. */
#include "cli.h"
#include "tree.h"
#include "outfile.h"
#include "model.h"
#include "cli_rows.h"
#include "opts.h"
#include "platform.h"
#include "profile.h"
#include "model_step.h"
#include "workload.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CORNERS 8

typedef struct figure {
    const char *label;       /* what was published */
    const char *model;
    int batch;               /* per GPU */
    const char *algo;        /* the allreduce the system used, in ddlbench's terms */
    const char *patterns;    /* ddl: "ring,rhd" = a node-level ring, then rhd across nodes on a grid of
                              * (GPUs per node) x (nodes); NULL = the library's grid, rings */
    const char *platforms[2];/* the unknown hardware: files under the platform dir; NULL = unused */
    int baseline;            /* N0 GPUs the figure is relative to */
    double published;        /* % */
    const char *source;      /* docs/SOURCES.md section */
    double published_hours;  /* the run's published wall time at 256 GPUs */
    const char *time_source; /* where that time is from */
} figure;

static const figure figures[] = {
    { "DDL ResNet-50 (Caffe) 95%", "resnet50", 32, "ddl", NULL, { "minsky2017-1port", "minsky2017-2port" }, 4, 95,
      "§1 (Hunter's blog)", 50.0 / 60, "50 min, the DDL abstract (§1)" },
    { "DDL ResNet-101 ImageNet-22K 88%", "resnet101-22k", 20, "ddl", NULL, { "minsky2017-1port", "minsky2017-2port" }, 4,
      88, "§1 (paper; 16 days on one node vs 7 h on 64)", 7.0, "about 7 h, the DDL abstract (§1)" },
    /* Goyal et al. §4: NCCL sums the 8 GPUs' buffers inside a server, recursive halving/doubling (Gloo)
     * across servers, NCCL broadcasts back: a node-level then network-level hierarchy (ddl, ring,rhd) */
    { "Facebook ResNet-50 (Goyal) 89%", "resnet50", 32, "ddl", "ring,rhd", { "bigbasin2017", NULL }, 8, 89, "§2", 1.0,
      "1 h, the title of Goyal et al. (§2)" },
};
#define NFIG ((int)(sizeof figures / sizeof figures[0]))

typedef struct corner {
    const char *platform;
    int overlap;
    step_prediction base, full;
    double eff;              /* % against the figure's baseline */
    double eff1;             /* % against one GPU */
} corner;

typedef struct study_opts {
    long gpus, bucket_mb, first_mb;
    const char *profile, *dir, *out;
} study_opts;

static const opt_row rows[] = {
    { .name = "--gpus", .type = OPT_LONG, .min = 8, .max = PLATFORM_MAX_HOSTS, .off = offsetof(study_opts, gpus),
      .help = "GPUs of every system, a multiple of 8 (4- and 8-GPU nodes; default 256)" },
    { .name = "--bucket-mb", .type = OPT_LONG, .min = 1, .max = CLI_BUCKET_MB_MAX, .off = offsetof(study_opts, bucket_mb),
      .help = "bucket cap of the overlapped corners, MiB (default 25)" },
    { .name = "--platform-dir", .type = OPT_STRING, .unit = "D", .off = offsetof(study_opts, dir),
      .help = "where minsky2017-*.platform and bigbasin2017.platform are\n(default harness/sim/platforms)" },
    { .name = "--out", .type = OPT_STRING, .unit = "DIR", .off = offsetof(study_opts, out),
      .help = "also write DIR/study.csv and DIR/report.md" },
};

#define STUDY_SETS(o)                                                                                  \
    { OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_first_mb, &(o)->first_mb), OPTS_ONE(&cli_row_profile, &(o)->profile) }

static void usage(void)
{
    study_opts o;
    const opts_set sets[] = STUDY_SETS(&o);
    printf("usage: ddlbench study [--gpus N] [--profile P] [--bucket-mb N] [--platform-dir DIR] [--out DIR]\n"
           "  The 2017 systems of the DDL study (docs/SOURCES.md) at N GPUs (default 256) by the alpha-beta-gamma\n"
           "  step model (harness/sim/model_step.h): per published figure every combination of the unknowns\n"
           "  (overlap off = one allreduce after backward / on = DDP buckets of --bucket-mb MiB, default 25;\n"
           "  Minsky: 1 or 2 IB EDR ports per node), the band of efficiencies and where the figure falls.\n"
           "  --profile default p100.\n");
    opts_usage(stdout, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* 0 ok, 1 help printed, 2 bad input (message in err). */
static int parse(int argc, char **argv, study_opts *o, char *err, size_t errlen)
{
    static char tree[4200]; /* the tree's platforms from any working directory */
    *o = (study_opts){ 256, 25, 1, "p100", tree_path("harness/sim/platforms", tree, sizeof tree), NULL };
    const opts_set sets[] = STUDY_SETS(o);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage();
    if (rc) return rc;
    if (o->gpus % 8)
        return snprintf(err, errlen, "--gpus: expected a multiple of 8 (4- and 8-GPU nodes), got %ld", o->gpus), 2;
    return 0;
}

/* Step of fig's model on `gpus` GPUs of the platform file `name`. 0, or 2 with err. */
static int step_on(const study_opts *o, const profile *pr, const model *m, const figure *fig, const char *name,
                   int gpus, int overlap, step_prediction *t, char *err, size_t errlen)
{
    char path[1024];
    platform pf;
    snprintf(path, sizeof path, "%s/%s.platform", o->dir, name);
    if (platform_lookup(&pf, path, err, errlen)) return 2;
    int g = pf.gpus_per_node < gpus ? pf.gpus_per_node : gpus;
    if (gpus % g) {
        snprintf(err, errlen, "%d GPUs are not whole nodes of %d", gpus, g);
        return 2;
    }
    if (platform_init_partial(&pf, path, gpus / g, g, err, errlen)) return 2;
    char grid[64];
    int two = fig->patterns && gpus > g;
    snprintf(grid, sizeof grid, "%dx%d", g, gpus / g);
    step_inputs in = { pr->gemm_gflops_fp32, pr->reduce_ns_per_byte * 1e-9, pr->mem_gbps, 1,
                       overlap ? (size_t)o->bucket_mb << 20 : 0, (size_t)o->first_mb << 20, two ? grid : NULL,
                       two ? fig->patterns : NULL };
    return model_step(m, &pf, fig->algo, &in, t, err, errlen);
}

/* Every corner of one figure. Returns the number of corners, or -1 (message printed). */
static int run_figure(const study_opts *o, const profile *pr, const figure *fig, corner *c)
{
    model *m = NULL;
    char err[300];
    int n = 0;
    if (model_build(fig->model, fig->batch, 224, &m)) {
        fprintf(stderr, "ddlbench study: %s\n", model_last_error());
        return -1;
    }
    for (int p = 0; p < 2 && fig->platforms[p]; p++)
        for (int ov = 0; ov < 2; ov++, n++) {
            step_prediction one;
            c[n].platform = fig->platforms[p], c[n].overlap = ov;
            if (step_on(o, pr, m, fig, fig->platforms[p], fig->baseline, ov, &c[n].base, err, sizeof err) ||
                step_on(o, pr, m, fig, fig->platforms[p], (int)o->gpus, ov, &c[n].full, err, sizeof err) ||
                step_on(o, pr, m, fig, fig->platforms[p], 1, ov, &one, err, sizeof err)) {
                fprintf(stderr, "ddlbench study: %s: %s\n", fig->label, err);
                model_free(m);
                return -1;
            }
            c[n].eff = 100 * c[n].base.step_s / c[n].full.step_s;
            c[n].eff1 = 100 * one.step_s / c[n].full.step_s;
        }
    model_free(m);
    return n;
}

static void band(const corner *c, int n, double *lo, double *hi)
{
    *lo = 1e9, *hi = -1e9;
    for (int i = 0; i < n; i++) *lo = c[i].eff < *lo ? c[i].eff : *lo, *hi = c[i].eff > *hi ? c[i].eff : *hi;
}

/* Time to train of fig's workload (harness/train/workload.c) at the band's low end, high end and centre:
 * at efficiency E against the baseline step b, the full-scale step is b x 100 / E, and the run takes
 * epochs x images x step / (GPUs x batch). The ends use their own corners' baseline steps, the centre
 * the mean of the two. Hours in h[0..2] (low, high, centre); 0, or -1 without a workload. */
static int band_hours(const study_opts *o, const figure *fig, const corner *c, int n, double h[3])
{
    const workload *w = workload_of(fig->model);
    int lo = 0, hi = 0;
    if (!w || n < 1) return -1;
    for (int i = 1; i < n; i++) lo = c[i].eff < c[lo].eff ? i : lo, hi = c[i].eff > c[hi].eff ? i : hi;
    double base[3] = { c[lo].base.step_s, c[hi].base.step_s, (c[lo].base.step_s + c[hi].base.step_s) / 2 };
    double eff[3] = { c[lo].eff, c[hi].eff, (c[lo].eff + c[hi].eff) / 2 };
    for (int k = 0; k < 3; k++)
        h[k] = workload_hours(w, (double)o->gpus * fig->batch / (base[k] * 100 / eff[k]));
    return 0;
}

/* "time to train (90 epochs x 1281167 images of ImageNet-1K): 55 min at the band's low end (92.5%), ..." */
static void ttt_line(const study_opts *o, const figure *fig, const corner *c, int n, char *buf, size_t len)
{
    const workload *w = workload_of(fig->model);
    double h[3], lo, hi;
    char t[3][32];
    if (band_hours(o, fig, c, n, h)) {
        snprintf(buf, len, "time to train: no workload for %s", fig->model);
        return;
    }
    band(c, n, &lo, &hi);
    for (int k = 0; k < 3; k++) workload_fmt_time(h[k], t[k], (int)sizeof t[k]);
    snprintf(buf, len, "time to train (%d epochs x %ld images of %s, %s; %s): %s at the band's low end (%.1f%%), "
                       "%s at its high end (%.1f%%), %s at the centre; published: %s",
             w->epochs, w->images, w->dataset, w->epochs_note, WORKLOAD_ASSUMPTIONS, t[0], lo, t[1], hi, t[2],
             fig->time_source);
}

static void print_corners(FILE *f, int md, const study_opts *o, const figure *fig, const corner *c, int n)
{
    if (md)
        fprintf(f, "| platform | overlap | buckets | step at %d GPUs (ms) | step at %ld GPUs (ms) | exposed comm (ms) | "
                   "efficiency vs %d GPUs | vs 1 GPU |\n|---|---|---|---|---|---|---|---|\n", fig->baseline, o->gpus,
                fig->baseline);
    for (int i = 0; i < n; i++)
        fprintf(f, md ? "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f%% | %.1f%% |\n"
                      : "  %-18s %-4s %4d %10.1f %10.1f %10.1f %7.1f %7.1f\n",
                c[i].platform, c[i].overlap ? "on" : "off", c[i].full.buckets, c[i].base.step_s * 1e3,
                c[i].full.step_s * 1e3, c[i].full.exposed_s * 1e3, c[i].eff, c[i].eff1);
}

static const char *verdict(double lo, double hi, double pub, char *buf, size_t len)
{
    double centre = (lo + hi) / 2;
    snprintf(buf, len, "band %.1f-%.1f%%, centre %.1f%%; published %.0f%% %s the band, %+.1f points from the centre",
             lo, hi, centre, pub, pub >= lo - 1e-9 && pub <= hi + 1e-9 ? "inside" : "OUTSIDE", pub - centre);
    return buf;
}

/* OUT/study.csv (pass 0) and OUT/report.md (pass 1); 0, or 2 with a message if path is too long. */
static int out_path(const study_opts *o, int pass, char *path, size_t len)
{
    if (snprintf(path, len, "%s/%s", o->out, pass ? "report.md" : "study.csv") < (int)len) return 0;
    fprintf(stderr, "ddlbench study: --out: path too long\n");
    return 2;
}

/* One of the two files, written into f. */
static void write_one(FILE *f, int pass, const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n)
{
    char v[200], t[400];
    if (!pass) fprintf(f, "# ddlbench study --gpus %ld --profile %s --bucket-mb %ld\nfigure,model,batch,algo,platform,"
                          "overlap,buckets,baseline_gpus,step_base_ms,step_ms,exposed_ms,eff_pct,eff_vs_1gpu_pct,published_pct,"
                          "time_to_train_h,published_h\n",
                       o->gpus, o->profile, o->bucket_mb);
    else fprintf(f, "# The 2017 study, with bands\n\n`ddlbench study --gpus %ld --profile %s --bucket-mb %ld` (`make study`): "
                    "the alpha-beta-gamma step of harness/sim/model_step.h on the platform files in %s, GEMM rate %.0f "
                    "GFLOP/s and reduction cost %.5f ns/B. Every constant and its source: docs/SOURCES.md. "
                    "The band of a figure spans its unknowns (overlap off/on; for the Minsky 1 or 2 EDR ports); "
                    "its centre is the middle of the band.\n\n", o->gpus, o->profile, o->bucket_mb, o->dir,
                 pr->gemm_gflops_fp32, pr->reduce_ns_per_byte);
    for (int k = 0; k < NFIG; k++) {
        const figure *fg = &figures[k];
        double lo, hi;
        band(c[k], n[k], &lo, &hi);
        if (pass) {
            fprintf(f, "## %s\n\n%s, batch %d per GPU, `%s%s%s` allreduce; published figure relative to %d GPU(s) "
                       "(docs/SOURCES.md %s).\n\n", fg->label, fg->model, fg->batch, fg->algo,
                    fg->patterns ? " --patterns " : "", fg->patterns ? fg->patterns : "", fg->baseline, fg->source);
            print_corners(f, 1, o, fg, c[k], n[k]);
            fprintf(f, "\n**%s.**\n\n", verdict(lo, hi, fg->published, v, sizeof v));
            ttt_line(o, fg, c[k], n[k], t, sizeof t);
            fprintf(f, "Projected %s.\n\n", t);
            continue;
        }
        for (int i = 0; i < n[k]; i++)
            fprintf(f, "\"%s\",%s,%d,%s,%s,%s,%d,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.0f,%.3f,%.3f\n", fg->label, fg->model,
                    fg->batch, fg->algo, c[k][i].platform, c[k][i].overlap ? "on" : "off", c[k][i].full.buckets,
                    fg->baseline, c[k][i].base.step_s * 1e3, c[k][i].full.step_s * 1e3, c[k][i].full.exposed_s * 1e3,
                    c[k][i].eff, c[k][i].eff1, fg->published,
                    workload_hours(workload_of(fg->model), (double)o->gpus * fg->batch / c[k][i].full.step_s),
                    fg->published_hours);
    }
}

/* Both files, written whole or not at all (outfile.h). 0, or 1 with a message. */
static int write_outputs(const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n)
{
    char path[4096], err[700] = "";
    outfile f[2];
    int opened = 0, rc = 1;
    for (; opened < 2; opened++) {
        if (out_path(o, opened, path, sizeof path) || outfile_open(&f[opened], path, err, sizeof err)) goto out;
        write_one(f[opened].f, opened, o, pr, c, n);
    }
    if (outfile_close(&f[0], err, sizeof err) || outfile_close(&f[1], err, sizeof err) ||
        outfile_commit(&f[0], err, sizeof err) || outfile_commit(&f[1], err, sizeof err))
        goto out;
    rc = 0;
out:
    if (rc && *err) fprintf(stderr, "ddlbench study: %s\n", err);
    for (int k = 0; k < opened; k++) outfile_discard(&f[k]);
    return rc;
}

int cli_study_main(int argc, char **argv)
{
    study_opts o;
    profile pr;
    corner c[NFIG][MAX_CORNERS];
    char err[700], v[200], path[4096], ttt[400];
    int n[NFIG], rc = parse(argc, argv, &o, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ddlbench study: %s\n", err);
    if (rc) return rc == 1 ? 0 : rc;
    if (profile_load(o.profile, &pr, err, sizeof err)) return fprintf(stderr, "ddlbench study: %s\n", err), 2;
    err[0] = '\0';
    int made = o.out && *o.out && mkdir(o.out, 0777) == 0; /* one level, like mkdir; removed again on failure */
    rc = 2;
    if (o.out && outfile_check_dir("--out", o.out, err, sizeof err)) goto fail; /* says why mkdir failed */
    for (int pass = 0; o.out && pass < 2; pass++) /* both files, before any work */
        if (out_path(&o, pass, path, sizeof path) || outfile_check("--out", path, err, sizeof err)) goto fail;
    printf("# ddlbench study: %ld GPUs, profile %s (%.0f GFLOP/s, %.5f ns/B), buckets %ld MiB (first 1 MiB) when "
           "overlapped\n# %-18s %-4s %4s %10s %10s %10s %7s %7s\n", o.gpus, o.profile, pr.gemm_gflops_fp32,
           pr.reduce_ns_per_byte, o.bucket_mb, "platform", "ovl", "bkts", "base_ms", "step_ms", "exposed", "eff%",
           "vs1gpu%");
    for (int k = 0; k < NFIG; k++) {
        double lo, hi;
        if ((n[k] = run_figure(&o, &pr, &figures[k], c[k])) < 0) goto quiet; /* run_figure said why */
        band(c[k], n[k], &lo, &hi);
        printf("# %s (efficiency vs %d GPUs)\n", figures[k].label, figures[k].baseline);
        print_corners(stdout, 0, &o, &figures[k], c[k], n[k]);
        printf("# %s\n", verdict(lo, hi, figures[k].published, v, sizeof v));
        ttt_line(&o, &figures[k], c[k], n[k], ttt, sizeof ttt);
        printf("# %s\n", ttt);
    }
    if (o.out && write_outputs(&o, &pr, c, n)) { rc = 1; goto quiet; }
    if (o.out) printf("# wrote %s/study.csv and %s/report.md\n", o.out, o.out);
    return 0;
fail:
    if (*err) fprintf(stderr, "ddlbench study: %s\n", err);
quiet:
    if (made) rmdir(o.out); /* only when empty: nothing of the user's is removed */
    return rc;
}
