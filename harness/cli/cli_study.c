/* cli_study.c — `ddlbench study`: the catalogue of published scaling figures, each predicted with its
 * unknowns as a range by the study engine (harness/sim/study.h: corners, bands, effect shares).
 * Prints every corner, then per figure the band (min..max efficiency over the corners), its centre,
 * and where the published figure falls; --out DIR writes DIR/study.csv, DIR/report.md and DIR/bands.csv. */
#include "cli.h"
#include "cli_study.h"
#include "tree.h"
#include "outfile.h"
#include "model.h"
#include "cli_rows.h"
#include "opts.h"
#include "platform.h"
#include "profile.h"
#include "perf_step.h"
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

static const opt_row rows[] = {
    { .name = "--gpus", .type = OPT_LONG, .min = 8, .max = PLATFORM_MAX_HOSTS, .off = offsetof(study_opts, run.gpus),
      .help = "GPUs of every figure, a multiple of 8 (4- and 8-GPU nodes; default: each\nfigure's published scale)" },
    { .name = "--bucket-mb", .type = OPT_LONG, .min = 1, .max = CLI_BUCKET_MB_MAX,
      .off = offsetof(study_opts, run.bucket_mb),
      .help = "bucket cap of the overlapped corners, MiB (default 25)" },
    { .name = "--platform-dir", .type = OPT_STRING, .unit = "D", .off = offsetof(study_opts, run.dir),
      .help = "where the entries' platform files are (NAME.platform; a name with no file\n"
              "there: the preset, e.g. dgxh100; default harness/sim/platforms)" },
    { .name = "--catalogue", .type = OPT_STRING, .unit = "D", .off = offsetof(study_opts, catalogue),
      .help = "the folder of .study entries, one published figure each (study_file.h;\ndefault harness/sim/studies)" },
    { .name = "--platform", .type = OPT_STRING, .min = 1, .unit = "P", .off = offsetof(study_opts, run.platform),
      .help = "every figure's corners on machine P (a preset or platform file) instead of its\n"
              "own 2017 ones; --profile defaults to P's GPU. A figure is compared only where the\n"
              "profile is the GPU it was published on" },
    { .name = "--out", .type = OPT_STRING, .unit = "DIR", .off = offsetof(study_opts, out),
      .help = "also write DIR/study.csv, DIR/report.md and DIR/bands.csv (each entry's band)" },
};

#define STUDY_SETS(o)                                                                                  \
    { OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_first_mb, &(o)->run.first_mb), OPTS_ONE(&cli_row_profile, &(o)->profile) }

static void usage(void)
{
    study_opts o;
    const opts_set sets[] = STUDY_SETS(&o);
    printf("usage: ddlbench study [--gpus N] [--profile P] [--platform P] [--bucket-mb N] [--platform-dir DIR]\n"
           "                      [--catalogue DIR] [--out DIR]\n"
           "  The catalogue of published scaling figures (harness/sim/studies/*.study, docs/SOURCES.md), each at\n"
           "  its published scale (or N GPUs) by the alpha-beta-gamma step model (harness/sim/perf_step.h):\n"
           "  per figure every combination of its entry's unknowns (overlap off = one allreduce after backward /\n"
           "  on = DDP buckets of --bucket-mb MiB, default 25; its platform alternatives, e.g. 1 or 2 IB EDR\n"
           "  ports per Minsky node; with a compute-model profile, batch norm kernels that read their tensors\n"
           "  twice or hold them on chip, bn_held 0|1, and each kernel's cost under CUDA graphs, graph_kernel_us\n"
           "  a|b, or launched one by one, kernel_us a|b; algo a|b|c, step_fixed_us a|b; the GPUs' persistent speed\n"
           "  spread, gpu_spread_pct a|b: the scaled run waits for its slowest GPU), the band of efficiencies\n"
           "  and where the figure falls, where the profile is the GPU the figure was published on (else \"not\n"
           "  compared\"). For strong-scaling figures the points each corner loses: compute at the small batch,\n"
           "  exposed communication (Horovod's per-cycle coordination a part of it, horovod_sync_bytes) and the\n"
           "  epoch's padded last step (epoch_examples: the figure's own units, a corner per epoch reading).\n"
           "  --profile default: each figure's own GPU (its platform's: p100 for 2017's,\n"
           "  a100 and h100 for MLPerf's); with --platform, that machine's.\n");
    opts_usage(stdout, sets, (int)(sizeof sets / sizeof sets[0]));
}

/* 0 ok, 1 help printed, 2 bad input (message in err). */
static int parse(int argc, char **argv, study_opts *o, char *err, size_t errlen)
{
    static char tree[4200], cat[4200]; /* the tree's platforms and catalogue from any working directory */
    *o = (study_opts){
        .run = { .bucket_mb = 25, .first_mb = 1, .dir = tree_path("harness/sim/platforms", tree, sizeof tree) },
        .profile = NULL, /* p100, or --platform's GPU */
        .catalogue = tree_path("harness/sim/studies", cat, sizeof cat)
    };
    const opts_set sets[] = STUDY_SETS(o);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage();
    if (rc) return rc;
    if (!o->profile && o->run.platform) { /* the machine's own GPU */
        platform pf;
        if (platform_lookup(&pf, o->run.platform, err, errlen) ||
            platform_profile(&pf, NULL, 0, &o->profile, err, errlen))
            return 2;
        static char own[32];
        snprintf(own, sizeof own, "%s", o->profile);
        o->profile = own;
    }
    o->own = !o->profile; /* each figure on the GPU it was published on (2017's: p100) */
    if (!o->profile) o->profile = "p100";
    if (o->run.gpus && o->run.gpus % 8)
        return snprintf(err, errlen, "--gpus: expected a multiple of 8 (4- and 8-GPU nodes), got %ld", o->run.gpus), 2;
    return 0;
}

int cli_study_main(int argc, char **argv)
{
    study_opts o;
    profile pr;
    static profile prs[STUDY_MAX_ENTRIES]; /* each figure's: --profile's, or its own GPU's (o.own) */
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
    char stem[64];
    profile_stem(o.profile, stem, sizeof stem);
    for (int k = 0; k < o.nfig; k++) { /* the GPU of each figure: its own platforms' (2017: p100) */
        platform pf;
        const char *gpu = "p100";
        for (int a = figs[k].nplatforms - 1; a >= 0; a--) { /* every alternative there before any work */
            study_platform_path(o.run.dir, figs[k].platforms[a], path, sizeof path);
            if (platform_lookup(&pf, path, err, sizeof err))
                return fprintf(stderr, "ddlbench study: %s.study: platforms: %s\n", figs[k].name, err), 2;
        }
        if (platform_profile(&pf, NULL, 0, &gpu, err, sizeof err))
            return fprintf(stderr, "ddlbench study: %s\n", err), 2;
        snprintf(o.gpu[k], sizeof o.gpu[k], "%s", gpu);
        o.compared[k] = o.own || !strcmp(stem, o.gpu[k]);
        if (profile_load(o.own ? o.gpu[k] : o.profile, &prs[k], err, sizeof err))
            return fprintf(stderr, "ddlbench study: %s\n", err), 2;
        if (o.run.platform) { /* every corner on the one machine */
            if (strlen(o.run.platform) >= sizeof figs[k].platforms[0])
                return fprintf(stderr, "ddlbench study: --platform: over %zu bytes\n",
                               sizeof figs[k].platforms[0] - 1), 2;
            snprintf(figs[k].platforms[0], sizeof figs[k].platforms[0], "%s", o.run.platform);
            figs[k].nplatforms = 1;
        }
    }
    for (int k = 0; k < o.nfig; k++)
        if (figs[k].baseline > study_scale(&o.run, &figs[k]))
            return fprintf(stderr, "ddlbench study: --gpus: %ld GPUs, below the baseline of %d of entry %s\n",
                           o.run.gpus, figs[k].baseline, figs[k].name),
                   2;
    if (!(c = calloc((size_t)o.nfig, sizeof *c))) return fprintf(stderr, "ddlbench study: out of memory\n"), 1;
    err[0] = '\0';
    made = o.out && *o.out && mkdir(o.out, 0777) == 0; /* one level, like mkdir; removed again on failure */
    rc = 2;
    if (o.out && outfile_check_dir("--out", o.out, err, sizeof err)) goto fail; /* says why mkdir failed */
    for (int pass = 0; o.out && pass < STUDY_NOUT; pass++) /* every file, before any work */
        if (study_out_path(&o, pass, path, sizeof path) || outfile_check("--out", path, err, sizeof err)) goto fail;
    int inside = 0, ncompared = 0;
    double wmax = 0, offmax = 0; /* the widest band; the centre farthest from its published figure */
    for (int k = 0; k < o.nfig; k++) /* every entry's compute scale (a bad one refused) before any line */
        if (study_compute_scale(&o.run, &prs[k], &figs[k], &o.compute_scale[k], err, sizeof err)) goto fail;
    printf(
        "# ddlbench study %s--profile %s: %d published figures, profile %s (%.0f GFLOP/s, %.5f ns/B), buckets %ld MiB "
        "(first 1 MiB) when overlapped\n# %-18s %-4s %5s %4s %10s %10s %10s %7s %7s %5s %5s %5s\n",
        study_gpus_flag(&o, g, sizeof g), o.own ? "each figure's GPU" : o.profile, o.nfig,
        o.own ? "p100 for 2017's" : o.profile, pr.gemm_gflops_fp32, pr.reduce_ns_per_byte,
        o.run.bucket_mb, "platform", "ovl", "batch", "ars", "base_ms", "step_ms", "exposed", "eff%", "vs1gpu%", "cyc",
        "jit", "hold");
    for (int k = 0; k < o.nfig; k++) {
        double lo, hi;
        if ((n[k] = study_run_figure(&o.run, &prs[k], o.compute_scale[k], &figs[k], c[k], err, sizeof err)) < 0)
            goto fail; /* rc 2, as a bad entry */
        study_band(c[k], n[k], &lo, &hi);
        wmax = hi - lo > wmax ? hi - lo : wmax;
        ncompared += o.compared[k];
        inside += o.compared[k] && study_inside(lo, hi, figs[k].published);
        if (o.compared[k] && fabs(figs[k].published - (lo + hi) / 2) > offmax)
            offmax = fabs(figs[k].published - (lo + hi) / 2);
        printf("# %s (efficiency at %d vs %d GPUs; entry %s)\n", figs[k].label, study_scale(&o.run, &figs[k]),
               figs[k].baseline, figs[k].name);
        printf("# %s\n", study_compute_desc(&o, k, cd, sizeof cd));
        printf("# %s\n", study_effects_desc(&figs[k], cd, sizeof cd));
        study_print_corners(stdout, 0, &o, &figs[k], c[k], n[k]);
        printf("# %s\n", study_verdict_of(&o, k, lo, hi, v, sizeof v));
        for (int i = 0; figs[k].global_batch && i < n[k]; i++) { /* strong scaling: where the points go */
            double cp, ep, pp, sp;
            char cn[96], tail[64] = "";
            study_points_lost(&figs[k], &c[k][i], &cp, &ep), study_points_terms(&figs[k], &c[k][i], &pp, &sp);
            if (figs[k].epoch_examples) snprintf(tail, sizeof tail, ", %.1f the epoch's padded last step", pp);
            printf("# points lost, %s overlap %s: %.1f compute at %d a GPU (vs %d), %.1f exposed communication%s\n",
                   study_corner_name(&c[k][i], cn, sizeof cn), c[k][i].overlap ? "on" : "off", cp, c[k][i].batch,
                   figs[k].base_batch, ep, tail);
        }
        if (figs[k].global_batch) printf("# %s\n", study_lost_line(&figs[k], c[k], n[k], ttt, sizeof ttt));
        if (figs[k].published_hours > 0) { /* a time-to-train run: its time beside the projection */
            study_ttt_line(&o, &figs[k], c[k], n[k], ttt, sizeof ttt);
            printf("# %s\n", ttt);
        }
    }
    char others[64] = "";
    if (ncompared < o.nfig) snprintf(others, sizeof others, " (%d of other GPUs not compared)", o.nfig - ncompared);
    if (ncompared)
        printf("# catalogue: %d of %d compared figures inside their bands%s; widest band %.1f points; centre at most "
               "%.1f points from its figure\n",
               inside, ncompared, others, wmax, offmax);
    else
        printf("# catalogue: no figure compared: none was published on %s GPUs (projections only); widest band %.1f "
               "points\n", stem, wmax);
    if (o.out && study_write_outputs(&o, &pr, c, n)) { rc = 1; goto quiet; }
    if (o.out) printf("# wrote %s/study.csv, %s/report.md and %s/bands.csv\n", o.out, o.out, o.out);
    free(c);
    return 0;
fail:
    if (*err) fprintf(stderr, "ddlbench study: %s\n", err);
quiet:
    if (made) rmdir(o.out); /* only when empty: nothing of the user's is removed */
    free(c);
    return rc;
}
