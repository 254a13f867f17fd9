/* cli_study.c — `ddlbench study`: the 2017 systems of the DDL study at 256 GPUs with each unknown as a
 * range, by the α-β-γ pricer of the one step schedule (harness/sim/model_step.h; the simulator checks it at spot points,
 * harness/scripts/study.sh). Per published figure: the platform files of the machine as sourced
 * (the .platform files in harness/sim/platforms, docs/SOURCES.md §1–§3, §10), the unknowns — whether the allreduce
 * overlapped backward (bucket 0 = one allreduce after backward; DDP-style 25 MiB buckets) and, for the
 * Minsky, 1 or 2 InfiniBand EDR ports per node — and the baseline the figure was measured against.
 * Prints every corner, then per figure the band (min..max efficiency over the corners), its centre,
 * and where the published figure falls; --out DIR writes DIR/study.csv and DIR/report.md. */
#include "cli.h"
#include "cli_study.h"
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

/* The GPUs a figure is predicted at: --gpus, else its published scale. */
int study_scale(const study_opts *o, const figure *fig) { return o->gpus ? (int)o->gpus : fig->gpus; }

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
                       tree_path("harness/sim/studies", cat, sizeof cat), NULL, 0, { 0 } };
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
                   int gpus, int overlap, int effects, step_prediction *t, char *err, size_t errlen)
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
                       two ? fig->patterns : NULL, { 0, 0, 0, 0, 0, 0 }, 0, pr->sgd_gbps };
    if ((effects & EFFECT_CYCLES) && overlap && fig->cycle_ms > 0) /* Horovod's cycles, fusing up to the cap */
        in.fw = (framework){ fig->cycle_ms / 1e3, in.bucket_bytes, 0, 0, 0, 0 };
    if ((effects & EFFECT_HOLD) && overlap) in.fw.overlap_from = fig->overlap_from_pct / 100; /* partial overlap */
    if (effects & EFFECT_JITTER) in.jitter = fig->jitter_pct / 100;
    return model_step(m, &pf, fig->algo, &in, t, err, errlen);
}

/* How much faster than the profile fig's GPU computed: the profile's prediction of the entry's published
 * single-GPU step (batch / images per second) or backward pass, over that figure; 1 without one. Measured
 * on the same model and framework, so it replaces the profile's one ResNet-50 calibration (p100.profile)
 * for models whose kernels run at other rates (VGG-16's 3x3 convolutions through Winograd). Never fitted
 * to the scaling figure itself. 0, or -1 (message printed). */
static int compute_scale(const study_opts *o, const profile *pr, const figure *fig, double *k)
{
    char err[300];
    model *m = NULL;
    step_prediction one;
    *k = 1;
    if (!fig->single_batch) return 0;
    if (model_build(fig->model, fig->single_batch, fig->image_size, &m))
        return fprintf(stderr, "ddlbench study: %s: %s\n", fig->name, model_last_error()), -1;
    int rc = step_on(o, pr, m, fig, fig->platforms[0], 1, 0, EFFECTS_ALL, &one, err, sizeof err);
    model_free(m);
    if (rc) return fprintf(stderr, "ddlbench study: %s: %s\n", fig->label, err), -1;
    double pred = fig->single_img_s > 0 ? one.step_s : one.compute_s - one.forward_s;
    *k = pred / (fig->single_img_s > 0 ? fig->single_batch / fig->single_img_s : fig->single_backward_ms / 1e3);
    return 0;
}

int study_effects_on(const figure *fig, int overlap)
{
    return (fig->cycle_ms > 0 && overlap ? EFFECT_CYCLES : 0) | (fig->jitter_pct > 0 ? EFFECT_JITTER : 0) |
           (fig->overlap_from_pct > 0 && overlap ? EFFECT_HOLD : 0);
}

/* Every corner of one figure: each batch x platform x overlap it may have run with, the profile's compute
 * rates times kscale. Returns the number of corners, or -1 (message printed). */
static int run_figure(const study_opts *o, const profile *base, double kscale, const figure *fig, corner *c)
{
    char err[300];
    int n = 0;
    profile scaled = *base, *pr = &scaled;
    scaled.gemm_gflops_fp32 *= kscale, scaled.mem_gbps *= kscale, scaled.sgd_gbps *= kscale;
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
                const char *pf = fig->platforms[p];
                c[n].platform = pf, c[n].overlap = ov, c[n].batch = fig->batches[b];
                if (step_on(o, pr, m, fig, pf, fig->baseline, ov, EFFECTS_ALL, &c[n].base, err, sizeof err) ||
                    step_on(o, pr, m, fig, pf, study_scale(o, fig), ov, EFFECTS_ALL, &c[n].full, err, sizeof err) ||
                    step_on(o, pr, m, fig, pf, 1, ov, EFFECTS_ALL, &one, err, sizeof err)) {
                    fprintf(stderr, "ddlbench study: %s: %s\n", fig->label, err);
                    model_free(m);
                    return -1;
                }
                c[n].eff = 100 * c[n].base.step_s / c[n].full.step_s;
                c[n].eff1 = 100 * one.step_s / c[n].full.step_s;
                for (int e = 0; e < STUDY_EFFECTS; e++) { /* each effect's share: the points it costs */
                    step_prediction b0, f0;
                    c[n].share[e] = 0;
                    if (!(study_effects_on(fig, ov) & (1 << e))) continue;
                    if (step_on(o, pr, m, fig, pf, fig->baseline, ov, EFFECTS_ALL & ~(1 << e), &b0, err, sizeof err) ||
                        step_on(o, pr, m, fig, pf, study_scale(o, fig), ov, EFFECTS_ALL & ~(1 << e), &f0, err, sizeof err)) {
                        fprintf(stderr, "ddlbench study: %s: %s\n", fig->label, err);
                        model_free(m);
                        return -1;
                    }
                    c[n].share[e] = 100 * b0.step_s / f0.step_s - c[n].eff;
                }
            }
        model_free(m);
    }
    return n;
}

int cli_study_main(int argc, char **argv)
{
    study_opts o;
    profile pr;
    figure figs[STUDY_MAX_ENTRIES];
    corner (*c)[MAX_CORNERS] = NULL;
    char err[700], v[200], path[4096], ttt[800], g[32], cd[500];
    int n[STUDY_MAX_ENTRIES], rc = parse(argc, argv, &o, err, sizeof err), made = 0;
    if (rc == 2) fprintf(stderr, "ddlbench study: %s\n", err);
    if (rc) return rc == 1 ? 0 : rc;
    if (study_catalogue(o.catalogue, figs, STUDY_MAX_ENTRIES, &o.nfig, err, sizeof err))
        return fprintf(stderr, "ddlbench study: --catalogue: %s\n", err), 2;
    if (profile_load(o.profile, &pr, err, sizeof err)) return fprintf(stderr, "ddlbench study: %s\n", err), 2;
    o.figs = figs;
    for (int k = 0; k < o.nfig; k++)
        if (figs[k].baseline > study_scale(&o, &figs[k]))
            return fprintf(stderr, "ddlbench study: --gpus: %ld GPUs, below the baseline of %d of entry %s\n", o.gpus,
                           figs[k].baseline, figs[k].name), 2;
    if (!(c = calloc((size_t)o.nfig, sizeof *c))) return fprintf(stderr, "ddlbench study: out of memory\n"), 1;
    err[0] = '\0';
    made = o.out && *o.out && mkdir(o.out, 0777) == 0; /* one level, like mkdir; removed again on failure */
    rc = 2;
    if (o.out && outfile_check_dir("--out", o.out, err, sizeof err)) goto fail; /* says why mkdir failed */
    for (int pass = 0; o.out && pass < 2; pass++) /* both files, before any work */
        if (study_out_path(&o, pass, path, sizeof path) || outfile_check("--out", path, err, sizeof err)) goto fail;
    printf("# ddlbench study %s--profile %s: %d published figures, profile %s (%.0f GFLOP/s, %.5f ns/B), buckets %ld MiB "
           "(first 1 MiB) when overlapped\n# %-18s %-4s %5s %4s %10s %10s %10s %7s %7s %5s %5s %5s\n", study_gpus_flag(&o, g, sizeof g),
           o.profile, o.nfig, o.profile, pr.gemm_gflops_fp32, pr.reduce_ns_per_byte, o.bucket_mb, "platform", "ovl",
           "batch", "ars", "base_ms", "step_ms", "exposed", "eff%", "vs1gpu%", "cyc", "jit", "hold");
    int inside = 0;
    double wmax = 0, offmax = 0; /* the widest band; the centre farthest from its published figure */
    for (int k = 0; k < o.nfig; k++) {
        double lo, hi;
        if (compute_scale(&o, &pr, &figs[k], &o.compute_scale[k]) ||
            (n[k] = run_figure(&o, &pr, o.compute_scale[k], &figs[k], c[k])) < 0)
            goto quiet; /* they said why */
        study_band(c[k], n[k], &lo, &hi);
        inside += figs[k].published >= lo - 1e-9 && figs[k].published <= hi + 1e-9;
        wmax = hi - lo > wmax ? hi - lo : wmax;
        offmax = fabs(figs[k].published - (lo + hi) / 2) > offmax ? fabs(figs[k].published - (lo + hi) / 2) : offmax;
        printf("# %s (efficiency at %d vs %d GPUs; entry %s)\n", figs[k].label, study_scale(&o, &figs[k]), figs[k].baseline,
               figs[k].name);
        printf("# %s\n", study_compute_desc(&o, k, cd, sizeof cd));
        printf("# %s\n", study_effects_desc(&figs[k], cd, sizeof cd));
        study_print_corners(stdout, 0, &o, &figs[k], c[k], n[k]);
        printf("# %s\n", study_verdict(lo, hi, figs[k].published, v, sizeof v));
        if (figs[k].published_hours > 0) { /* a time-to-train run: its time beside the projection */
            study_ttt_line(&o, &figs[k], c[k], n[k], ttt, sizeof ttt);
            printf("# %s\n", ttt);
        }
    }
    printf("# catalogue: %d of %d published figures inside their bands; widest band %.1f points; centre at most %.1f "
           "points from its figure (the goal, issue 25: all inside, at most 8 wide, within 3)\n", inside, o.nfig, wmax,
           offmax);
    if (o.out && study_write_outputs(&o, &pr, c, n)) { rc = 1; goto quiet; }
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
