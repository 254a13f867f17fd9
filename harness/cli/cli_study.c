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
#include "study_file.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CORNERS (STUDY_MAX_ALTS * 2 * 2) /* platforms x overlaps x batches */

typedef study_entry figure; /* one published figure of the catalogue (study_file.h) */

typedef struct corner {
    const char *platform;
    int overlap, batch;
    step_prediction base, full;
    double eff;              /* % against the figure's baseline */
    double eff1;             /* % against one GPU */
} corner;

typedef struct study_opts {
    long gpus, bucket_mb, first_mb;   /* gpus 0: each figure at its published scale */
    const char *profile, *dir, *out, *catalogue;
    figure *figs;                     /* the catalogue's entries */
    int nfig;
} study_opts;

/* The GPUs a figure is predicted at: --gpus, else its published scale. */
static int scale(const study_opts *o, const figure *fig) { return o->gpus ? (int)o->gpus : fig->gpus; }

static const opt_row rows[] = {
    { .name = "--gpus", .type = OPT_LONG, .min = 8, .max = PLATFORM_MAX_HOSTS, .off = offsetof(study_opts, gpus),
      .help = "GPUs of every figure, a multiple of 8 (4- and 8-GPU nodes; default: each\nfigure's published scale)" },
    { .name = "--bucket-mb", .type = OPT_LONG, .min = 1, .max = CLI_BUCKET_MB_MAX, .off = offsetof(study_opts, bucket_mb),
      .help = "bucket cap of the overlapped corners, MiB (default 25)" },
    { .name = "--platform-dir", .type = OPT_STRING, .unit = "D", .off = offsetof(study_opts, dir),
      .help = "where minsky2017-*.platform and bigbasin2017.platform are\n(default harness/sim/platforms)" },
    { .name = "--catalogue", .type = OPT_STRING, .unit = "D", .off = offsetof(study_opts, catalogue),
      .help = "the folder of .study entries, one published figure each (study_file.h;\ndefault harness/sim/studies)" },
    { .name = "--out", .type = OPT_STRING, .unit = "DIR", .off = offsetof(study_opts, out),
      .help = "also write DIR/study.csv and DIR/report.md" },
};

#define STUDY_SETS(o)                                                                                  \
    { OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_first_mb, &(o)->first_mb), OPTS_ONE(&cli_row_profile, &(o)->profile) }

static void usage(void)
{
    study_opts o;
    const opts_set sets[] = STUDY_SETS(&o);
    printf("usage: ddlbench study [--gpus N] [--profile P] [--bucket-mb N] [--platform-dir DIR] [--catalogue DIR]\n"
           "                      [--out DIR]\n"
           "  The catalogue of published scaling figures (harness/sim/studies/*.study, docs/SOURCES.md), each at\n"
           "  its published scale (or N GPUs) by the alpha-beta-gamma step model (harness/sim/model_step.h):\n"
           "  per figure every combination of its entry's unknowns (overlap off = one allreduce after backward /\n"
           "  on = DDP buckets of --bucket-mb MiB, default 25; its platform alternatives, e.g. 1 or 2 IB EDR\n"
           "  ports per Minsky node), the band of efficiencies and where the figure falls. --profile default p100.\n");
    opts_usage(stdout, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* 0 ok, 1 help printed, 2 bad input (message in err). */
static int parse(int argc, char **argv, study_opts *o, char *err, size_t errlen)
{
    static char tree[4200], cat[4200]; /* the tree's platforms and catalogue from any working directory */
    *o = (study_opts){ 0, 25, 1, "p100", tree_path("harness/sim/platforms", tree, sizeof tree), NULL,
                       tree_path("harness/sim/studies", cat, sizeof cat), NULL, 0 };
    const opts_set sets[] = STUDY_SETS(o);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage();
    if (rc) return rc;
    if (o->gpus && o->gpus % 8)
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
    int two = *fig->patterns && gpus > g;
    snprintf(grid, sizeof grid, "%dx%d", g, gpus / g);
    step_inputs in = { pr->gemm_gflops_fp32, pr->reduce_ns_per_byte * 1e-9, pr->mem_gbps, 1,
                       overlap ? (size_t)(fig->bucket_mb ? fig->bucket_mb : o->bucket_mb) << 20 : 0,
                       (size_t)o->first_mb << 20, two ? grid : NULL,
                       two ? fig->patterns : NULL };
    return model_step(m, &pf, fig->algo, &in, t, err, errlen);
}

/* Every corner of one figure: each batch x platform x overlap it may have run with. Returns the
 * number of corners, or -1 (message printed). */
static int run_figure(const study_opts *o, const profile *pr, const figure *fig, corner *c)
{
    char err[300];
    int n = 0;
    for (int b = 0; b < fig->nbatches; b++) {
        model *m = NULL;
        if (model_build(fig->model, fig->batches[b], fig->image_size, &m)) {
            fprintf(stderr, "ddlbench study: %s: %s\n", fig->name, model_last_error());
            return -1;
        }
        for (int p = 0; p < fig->nplatforms; p++)
            for (int k = 0; k < fig->noverlaps; k++, n++) {
                step_prediction one;
                int ov = fig->overlaps[k];
                c[n].platform = fig->platforms[p], c[n].overlap = ov, c[n].batch = fig->batches[b];
                if (step_on(o, pr, m, fig, fig->platforms[p], fig->baseline, ov, &c[n].base, err, sizeof err) ||
                    step_on(o, pr, m, fig, fig->platforms[p], scale(o, fig), ov, &c[n].full, err, sizeof err) ||
                    step_on(o, pr, m, fig, fig->platforms[p], 1, ov, &one, err, sizeof err)) {
                    fprintf(stderr, "ddlbench study: %s: %s\n", fig->label, err);
                    model_free(m);
                    return -1;
                }
                c[n].eff = 100 * c[n].base.step_s / c[n].full.step_s;
                c[n].eff1 = 100 * one.step_s / c[n].full.step_s;
            }
        model_free(m);
    }
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
        h[k] = workload_hours(w, (double)scale(o, fig) * (k == 0 ? c[lo].batch : k == 1 ? c[hi].batch
                                                         : (c[lo].batch + c[hi].batch) / 2.0) / (base[k] * 100 / eff[k]));
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
        fprintf(f, "| platform | overlap | batch | buckets | step at %d GPUs (ms) | step at %d GPUs (ms) | exposed comm "
                   "(ms) | efficiency vs %d GPUs | vs 1 GPU |\n|---|---|---|---|---|---|---|---|---|\n", fig->baseline,
                scale(o, fig), fig->baseline);
    for (int i = 0; i < n; i++)
        fprintf(f, md ? "| %s | %s | %d | %d | %.1f | %.1f | %.1f | %.1f%% | %.1f%% |\n"
                      : "  %-18s %-4s %5d %4d %10.1f %10.1f %10.1f %7.1f %7.1f\n",
                c[i].platform, c[i].overlap ? "on" : "off", c[i].batch, c[i].full.buckets, c[i].base.step_s * 1e3,
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

/* "32" or "32 or 64": the batches a figure may have run with. */
static const char *batches(const figure *fig, char *buf, size_t len)
{
    if (fig->nbatches == 2) snprintf(buf, len, "%d or %d", fig->batches[0], fig->batches[1]);
    else snprintf(buf, len, "%d", fig->batch);
    return buf;
}

/* "--gpus 256 " when given, for the command lines the outputs quote. */
static const char *gpus_flag(const study_opts *o, char *buf, size_t len)
{
    if (o->gpus) snprintf(buf, len, "--gpus %ld ", o->gpus);
    else buf[0] = '\0';
    return buf;
}

/* One of the two files, written into f. */
static void write_one(FILE *f, int pass, const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n)
{
    char v[200], t[800], g[32], bs[32];
    if (!pass) fprintf(f, "# ddlbench study %s--profile %s --bucket-mb %ld\nfigure,model,batch,algo,platform,"
                          "overlap,buckets,baseline_gpus,step_base_ms,step_ms,exposed_ms,eff_pct,eff_vs_1gpu_pct,published_pct,"
                          "time_to_train_h,published_h,gpus,entry\n",
                       gpus_flag(o, g, sizeof g), o->profile, o->bucket_mb);
    else fprintf(f, "# Published scaling figures, predicted with bands\n\n`ddlbench study %s--profile %s --bucket-mb %ld` "
                    "(`make study`): the alpha-beta-gamma step of harness/sim/model_step.h for every entry of the catalogue "
                    "(%s) on the platform files in %s, GEMM rate %.0f GFLOP/s and reduction cost %.5f ns/B. Every constant "
                    "and its source: docs/SOURCES.md. The band of a figure spans its entry's unknowns (overlap off/on; its "
                    "platform alternatives, e.g. 1 or 2 EDR ports for the Minsky); its centre is the middle of the band.\n\n",
                 gpus_flag(o, g, sizeof g), o->profile, o->bucket_mb, o->catalogue, o->dir, pr->gemm_gflops_fp32,
                 pr->reduce_ns_per_byte);
    for (int k = 0; k < o->nfig; k++) {
        const figure *fg = &o->figs[k];
        double lo, hi;
        band(c[k], n[k], &lo, &hi);
        if (pass) {
            fprintf(f, "## %s\n\n%s, batch %s per GPU, %d GPUs, `%s%s%s` allreduce; published figure relative to %d "
                       "GPU(s) (docs/SOURCES.md %s; entry %s).\n\n", fg->label, fg->model, batches(fg, bs, sizeof bs), scale(o, fg), fg->algo,
                    *fg->patterns ? " --patterns " : "", fg->patterns, fg->baseline, fg->source, fg->name);
            print_corners(f, 1, o, fg, c[k], n[k]);
            fprintf(f, "\n**%s.**\n\n", verdict(lo, hi, fg->published, v, sizeof v));
            if (fg->published_hours > 0) {
                ttt_line(o, fg, c[k], n[k], t, sizeof t);
                fprintf(f, "Projected %s.\n\n", t);
            }
            continue;
        }
        for (int i = 0; i < n[k]; i++)
            fprintf(f, "\"%s\",%s,%d,%s,%s,%s,%d,%d,%.3f,%.3f,%.3f,%.2f,%.2f,%.0f,%.3f,%.3f,%d,%s\n", fg->label, fg->model,
                    c[k][i].batch, fg->algo, c[k][i].platform, c[k][i].overlap ? "on" : "off", c[k][i].full.buckets,
                    fg->baseline, c[k][i].base.step_s * 1e3, c[k][i].full.step_s * 1e3, c[k][i].full.exposed_s * 1e3,
                    c[k][i].eff, c[k][i].eff1, fg->published,
                    workload_hours(workload_of(fg->model), (double)scale(o, fg) * c[k][i].batch / c[k][i].full.step_s),
                    fg->published_hours, scale(o, fg), fg->name);
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
    figure figs[STUDY_MAX_ENTRIES];
    corner (*c)[MAX_CORNERS] = NULL;
    char err[700], v[200], path[4096], ttt[800], g[32];
    int n[STUDY_MAX_ENTRIES], rc = parse(argc, argv, &o, err, sizeof err), made = 0;
    if (rc == 2) fprintf(stderr, "ddlbench study: %s\n", err);
    if (rc) return rc == 1 ? 0 : rc;
    if (study_catalogue(o.catalogue, figs, STUDY_MAX_ENTRIES, &o.nfig, err, sizeof err))
        return fprintf(stderr, "ddlbench study: --catalogue: %s\n", err), 2;
    if (profile_load(o.profile, &pr, err, sizeof err)) return fprintf(stderr, "ddlbench study: %s\n", err), 2;
    o.figs = figs;
    for (int k = 0; k < o.nfig; k++)
        if (figs[k].baseline > scale(&o, &figs[k]))
            return fprintf(stderr, "ddlbench study: --gpus: %ld GPUs, below the baseline of %d of entry %s\n", o.gpus,
                           figs[k].baseline, figs[k].name), 2;
    if (!(c = calloc((size_t)o.nfig, sizeof *c))) return fprintf(stderr, "ddlbench study: out of memory\n"), 1;
    err[0] = '\0';
    made = o.out && *o.out && mkdir(o.out, 0777) == 0; /* one level, like mkdir; removed again on failure */
    rc = 2;
    if (o.out && outfile_check_dir("--out", o.out, err, sizeof err)) goto fail; /* says why mkdir failed */
    for (int pass = 0; o.out && pass < 2; pass++) /* both files, before any work */
        if (out_path(&o, pass, path, sizeof path) || outfile_check("--out", path, err, sizeof err)) goto fail;
    printf("# ddlbench study %s--profile %s: %d published figures, profile %s (%.0f GFLOP/s, %.5f ns/B), buckets %ld MiB "
           "(first 1 MiB) when overlapped\n# %-18s %-4s %5s %4s %10s %10s %10s %7s %7s\n", gpus_flag(&o, g, sizeof g),
           o.profile, o.nfig, o.profile, pr.gemm_gflops_fp32, pr.reduce_ns_per_byte, o.bucket_mb, "platform", "ovl",
           "batch", "bkts", "base_ms", "step_ms", "exposed", "eff%", "vs1gpu%");
    int inside = 0;
    double wmax = 0, offmax = 0; /* the widest band; the centre farthest from its published figure */
    for (int k = 0; k < o.nfig; k++) {
        double lo, hi;
        if ((n[k] = run_figure(&o, &pr, &figs[k], c[k])) < 0) goto quiet; /* run_figure said why */
        band(c[k], n[k], &lo, &hi);
        inside += figs[k].published >= lo - 1e-9 && figs[k].published <= hi + 1e-9;
        wmax = hi - lo > wmax ? hi - lo : wmax;
        offmax = fabs(figs[k].published - (lo + hi) / 2) > offmax ? fabs(figs[k].published - (lo + hi) / 2) : offmax;
        printf("# %s (efficiency at %d vs %d GPUs; entry %s)\n", figs[k].label, scale(&o, &figs[k]), figs[k].baseline,
               figs[k].name);
        print_corners(stdout, 0, &o, &figs[k], c[k], n[k]);
        printf("# %s\n", verdict(lo, hi, figs[k].published, v, sizeof v));
        if (figs[k].published_hours > 0) { /* a time-to-train run: its time beside the projection */
            ttt_line(&o, &figs[k], c[k], n[k], ttt, sizeof ttt);
            printf("# %s\n", ttt);
        }
    }
    printf("# catalogue: %d of %d published figures inside their bands; widest band %.1f points; centre at most %.1f "
           "points from its figure (the goal, issue 25: all inside, at most 8 wide, within 3)\n", inside, o.nfig, wmax,
           offmax);
    if (o.out && write_outputs(&o, &pr, c, n)) { rc = 1; goto quiet; }
    if (o.out) printf("# wrote %s/study.csv and %s/report.md\n", o.out, o.out);
    free(c);
    return 0;
fail:
    if (*err) fprintf(stderr, "ddlbench study: %s\n", err);
quiet:
    if (made) rmdir(o.out); /* only when empty: nothing of the user's is removed */
    free(c);
    return rc;
}
