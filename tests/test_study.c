/* test_study.c — the study engine (harness/sim/study.c) on a small catalogue entry, without argv:
 * ResNet-50 at 16 GPUs against one 4-GPU Minsky (1 or 2 EDR ports, overlap off or on). The step's
 * inputs reach the pricer (overlap off: one allreduce; on: buckets; a grid that is not whole nodes is
 * refused), the compute scale is 1 without a single-GPU figure and the ratio to it with one, every
 * corner is made with its band, a second port never lowers the efficiency, only the effects an entry
 * turns on cost points, the time to train grows as the efficiency falls, and an entry's optimizer and
 * sharding reach the step. */
#include "profile.h"
#include "study.h"
#include "test.h"

#include <math.h>
#include <string.h>

static char merr[512]; /* model_create's message */

static const char entry[] = "label = test ResNet-50 at 16\nmodel = resnet50\nbatch = 32\ngpus = 16\nbaseline = 4\n"
                            "published = 90\nsource = a test\nalgo = ring\n"
                            "platforms = minsky2017-1port|minsky2017-2port\noverlap = off|on\n";

static int close_to(double a, double b, double rel) { return fabs(a - b) <= rel * fabs(b); }

int main(void)
{
    char err[300] = "", text[1024];
    profile pr;
    figure fig;
    corner c[MAX_CORNERS];
    step_prediction off, on, one;
    model *m = NULL;
    double k, lo, hi, h[3];
    study_setup s = { .bucket_mb = 25, .first_mb = 1, .dir = "harness/sim/platforms" };
    CHECK(profile_load("p100", &pr, err, sizeof err) == 0, "p100 profile: %s", err);
    CHECK(study_file_parse(entry, strlen(entry), "t16", &fig, err, sizeof err) == 0, "entry: %s", err);
    CHECK(study_scale(&s, &fig) == 16, "published scale");
    s.gpus = 32;
    CHECK(study_scale(&s, &fig) == 32, "--gpus overrides it");
    s.gpus = 0;
    CHECK(study_effects_on(&fig, 1) == 0, "no effects in the entry");

    CHECK(model_create("resnet50", 32, 224, &m, merr, sizeof merr) == 0, "resnet50: %s", merr);
    CHECK(study_step_on(&s, &pr, m, &fig, "minsky2017-1port", 16, 0, EFFECTS_ALL, &off, err, sizeof err) == 0 &&
              off.allreduces == 1, "overlap off: one allreduce after backward (%d; %s)", off.allreduces, err);
    CHECK(study_step_on(&s, &pr, m, &fig, "minsky2017-1port", 16, 1, EFFECTS_ALL, &on, err, sizeof err) == 0 &&
              on.allreduces > 1 && on.step_s < off.step_s,
          "overlap on: buckets (%d allreduces), a shorter step (%g < %g)", on.allreduces, on.step_s, off.step_s);
    CHECK(study_step_on(&s, &pr, m, &fig, "minsky2017-1port", 1, 0, EFFECTS_ALL, &one, err, sizeof err) == 0 &&
              one.step_s > 0 && one.step_s < off.step_s && close_to(one.compute_s, off.compute_s, 1e-9),
          "one GPU: the same compute, no communication (%g, %g)", one.step_s, one.compute_s);
    CHECK(study_step_on(&s, &pr, m, &fig, "minsky2017-1port", 6, 0, EFFECTS_ALL, &one, err, sizeof err) == 2 &&
              strstr(err, "not whole nodes"), "6 GPUs on 4-GPU nodes: %s", err);
    CHECK(study_step_on(&s, &pr, m, &fig, "nosuch", 4, 0, EFFECTS_ALL, &one, err, sizeof err) == 2, "unknown platform");
    char pp[256]; /* an entry's platform: the folder's file, else a preset of that name, else the file (its error) */
    study_platform_path(s.dir, "bigbasin2017", pp, sizeof pp);
    CHECK(!strcmp(pp, "harness/sim/platforms/bigbasin2017.platform"), "the folder's file: %s", pp);
    study_platform_path(s.dir, "dgxh100", pp, sizeof pp);
    CHECK(!strcmp(pp, "dgxh100"), "no file: the preset: %s", pp);
    study_platform_path(s.dir, "nosuch", pp, sizeof pp);
    CHECK(!strcmp(pp, "harness/sim/platforms/nosuch.platform"), "neither: the file: %s", pp);
    CHECK(study_step_on(&s, &pr, m, &fig, "dgxh100", 16, 0, EFFECTS_ALL, &one, err, sizeof err) == 0 &&
              one.step_s > 0, "priced on the preset dgxh100: %s", err);

    CHECK(study_compute_scale(&s, &pr, &fig, &k, err, sizeof err) == 0 && k == 1, "no single-GPU figure: x1 (%g)", k);
    CHECK(study_step_on(&s, &pr, m, &fig, "minsky2017-1port", 1, 0, EFFECTS_ALL, &one, err, sizeof err) == 0, "one");
    snprintf(text, sizeof text, "%ssingle_gpu_img_s = %.9g\nsingle_gpu_batch = 32\nsingle_gpu_source = a test\n", entry,
             2 * 32 / one.step_s);
    CHECK(study_file_parse(text, strlen(text), "t16", &fig, err, sizeof err) == 0, "entry with a single GPU: %s", err);
    CHECK(study_compute_scale(&s, &pr, &fig, &k, err, sizeof err) == 0 && close_to(k, 2, 1e-6),
          "a GPU twice the profile's: x2 (%g)", k);
    CHECK(study_file_parse(entry, strlen(entry), "t16", &fig, err, sizeof err) == 0, "entry again");

    int n = study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err);
    CHECK(n == 4, "4 corners: 2 platforms x 2 overlaps (%d; %s)", n, err);
    for (int i = 0; i < n && n == 4; i++) {
        CHECK(c[i].eff > 0 && c[i].eff <= 100 + 1e-9 && c[i].eff1 > 0, "corner %d: eff %g, vs 1 GPU %g", i, c[i].eff,
              c[i].eff1);
        CHECK(c[i].share[0] == 0 && c[i].share[1] == 0 && c[i].share[2] == 0, "corner %d: no effect costs points", i);
        CHECK(close_to(c[i].eff, 100 * c[i].base.step_s / c[i].full.step_s, 1e-12), "corner %d: eff = base/full", i);
    }
    if (n == 4) { /* the order: platform, then overlap (off, on) */
        CHECK(!strcmp(c[0].platform, "minsky2017-1port") && c[0].overlap == 0 && c[1].overlap == 1 &&
                  !strcmp(c[2].platform, "minsky2017-2port"), "corner order");
        CHECK(c[2].eff >= c[0].eff - 1e-9 && c[3].eff >= c[1].eff - 1e-9,
              "a second port never lowers it (%g/%g, %g/%g)", c[2].eff, c[0].eff, c[3].eff, c[1].eff);
        CHECK(close_to(c[0].full.step_s, off.step_s, 1e-12), "the corner is the step_on prediction");
        study_band(c, n, &lo, &hi);
        CHECK(lo <= hi && lo == fmin(fmin(c[0].eff, c[1].eff), fmin(c[2].eff, c[3].eff)), "band %g..%g", lo, hi);
        CHECK(study_inside(lo, hi, lo) && study_inside(lo, hi, hi) && !study_inside(lo, hi, hi + 0.1), "inside");
        CHECK(study_band_hours(&s, &fig, c, n, h) == 0 && h[0] >= h[1] && h[2] <= h[0] && h[2] >= h[1] && h[1] > 0,
              "time to train: %g h at the low end, %g at the high, %g at the centre", h[0], h[1], h[2]);
    }

    /* stragglers on: only that effect costs points, and they are positive */
    snprintf(text, sizeof text, "%sjitter_pct = 5\njitter_source = a test\n", entry);
    CHECK(study_file_parse(text, strlen(text), "t16", &fig, err, sizeof err) == 0, "entry with jitter: %s", err);
    CHECK(study_effects_on(&fig, 0) == EFFECT_JITTER, "jitter on");
    n = study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err);
    CHECK(n == 4 && c[0].share[1] > 0 && c[0].share[0] == 0 && c[0].share[2] == 0,
          "stragglers cost %g points, the others none", n == 4 ? c[0].share[1] : -1);

    /* strong scaling: global batch 256 over 16 GPUs (16 each) against 4 GPUs at 64 each: the per-GPU images/s' ratio */
    static const char strong[] = "label = strong\nmodel = resnet50\nglobal_batch = 256\ngpus = 16\nbaseline = 4\n"
                                 "published = 90\nsource = a test\nalgo = ring\nplatforms = minsky2017-1port\n"
                                 "overlap = on\n";
    step_prediction b64, f16;
    model *m16 = NULL, *m64 = NULL;
    CHECK(study_file_parse(strong, strlen(strong), "ts", &fig, err, sizeof err) == 0 && fig.batch == 16 &&
              fig.base_batch == 64, "a strong-scaling entry: %s", err);
    n = study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err);
    CHECK(n == 1 && c[0].batch == 16, "one corner at 16 a GPU (%d; %s)", n, err);
    if (n == 1 && model_create("resnet50", 16, 224, &m16, merr, sizeof merr) == 0 &&
        model_create("resnet50", 64, 224, &m64, merr, sizeof merr) == 0 &&
        study_step_on(&s, &pr, m64, &fig, "minsky2017-1port", 4, 1, EFFECTS_ALL, &b64, err, sizeof err) == 0 &&
        study_step_on(&s, &pr, m16, &fig, "minsky2017-1port", 16, 1, EFFECTS_ALL, &f16, err, sizeof err) == 0) {
        CHECK(close_to(c[0].eff, 100 * (16 / f16.step_s) / (64 / b64.step_s), 1e-12) && c[0].eff < 100,
              "per-GPU images/s at 16 over those at 64 on 4 GPUs: %g", c[0].eff);
        CHECK(close_to(c[0].base.step_s, b64.step_s, 1e-12), "the baseline run at its own batch");
        double cp, ep;
        study_points_lost(&fig, &c[0], &cp, &ep);
        CHECK(fabs(cp + ep - (100 - c[0].eff)) < 1e-9 && ep >= 0 &&
                  close_to(100 - cp, 100 * (16 / (f16.step_s - f16.exposed_s)) / (64 / (b64.step_s - b64.exposed_s)),
                           1e-12), "points lost: %g compute, %g exposed communication", cp, ep);
        /* the entry's optimizer and shard keys reach the pricer: LAMB's update on a 1/16 shard, then allgathers */
        static const char sharded[] = "optimizer = lamb\nshard = optimizer\n";
        figure fs;
        step_prediction s16;
        snprintf(text, sizeof text, "%s%s", strong, sharded);
        CHECK(study_file_parse(text, strlen(text), "ts", &fs, err, sizeof err) == 0 &&
                  !study_step_on(&s, &pr, m16, &fs, "minsky2017-1port", 16, 1, EFFECTS_ALL, &s16, err, sizeof err) &&
                  s16.gather_s > 0 && f16.gather_s == 0 && s16.sgd_s != f16.sgd_s,
              "shard = optimizer: allgathers %g s (unsharded %g), update %g s (%g): %s", s16.gather_s, f16.gather_s,
              s16.sgd_s, f16.sgd_s, err);
    } else CHECK(0, "strong-scaling steps: %s %s", err, merr);
    model_free(m16), model_free(m64);

    { /* on a profile with the compute model: fused_at_scale 2, the scaled run's batch norm apart, dearer than
       * the baseline's NormConv; bn_held 0|1 a corner each, held the cheaper; on a profile without the compute
       * model both keys change nothing */
        profile amp;
        corner ca[MAX_CORNERS];
        snprintf(text, sizeof text, "%sfused_at_scale = 2\nbn_held = 0|1\n", strong);
        CHECK(profile_load("h100-amp", &amp, err, sizeof err) == 0 && amp.fused == PROFILE_NORMCONV &&
                  study_file_parse(text, strlen(text), "tf", &fig, err, sizeof err) == 0, "h100-amp, 2, 0|1: %s", err);
        int na = study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err);
        CHECK(na == 2 && ca[0].held == 0 && ca[1].held == 1 && ca[1].base.step_s < ca[0].base.step_s &&
                  ca[1].full.compute_s < ca[0].full.compute_s, "held: both runs' compute cheaper than read twice "
              "(%g vs %g s at scale; %d corners; %s)", na == 2 ? ca[1].full.compute_s : -1,
              na == 2 ? ca[0].full.compute_s : -1, na, err);
        snprintf(text, sizeof text, "%sbn_held = 0|1\n", strong);
        CHECK(study_file_parse(text, strlen(text), "tn", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, c, err, sizeof err) == 2 && na == 2 &&
                  c[0].full.compute_s < ca[0].full.compute_s && c[1].full.compute_s < ca[1].full.compute_s &&
                  fabs(c[0].base.step_s - ca[0].base.step_s) < 1e-15,
              "the same baselines; the scaled run dearer with its batch norm apart: %g < %g s", c[0].full.compute_s,
              ca[0].full.compute_s);
        char nm[96];
        CHECK(!strcmp(study_corner_name(&ca[1], nm, sizeof nm), "minsky2017-1port/bn-held") &&
                  !strcmp(study_corner_name(&ca[0], nm, sizeof nm), "minsky2017-1port/bn-reread"), "names: %s", nm);
        snprintf(text, sizeof text, "%scuda_graphs = off\n", strong); /* h100-amp: graphs = 1 */
        CHECK(study_file_parse(text, strlen(text), "tg", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 1 &&
                  study_file_parse(strong, strlen(strong), "tn", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, c, err, sizeof err) == 1 &&
                  ca[0].full.compute_s > c[0].full.compute_s && ca[0].base.compute_s > c[0].base.compute_s,
              "cuda_graphs off: each kernel at kernel_us, both runs dearer (%g vs %g s; %s)", ca[0].full.compute_s,
              c[0].full.compute_s, err);
        snprintf(text, sizeof text, "%scuda_graphs_at_scale = off\n", strong); /* the scaled run's alone */
        CHECK(study_file_parse(text, strlen(text), "ta", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 1 &&
                  ca[0].full.compute_s > c[0].full.compute_s && fabs(ca[0].base.step_s - c[0].base.step_s) < 1e-15,
              "cuda_graphs_at_scale off: the scaled run dearer (%g vs %g s), the baseline the same (%s)",
              ca[0].full.compute_s, c[0].full.compute_s, err);
        /* graph_kernel_us a|b: a corner each, both runs' compute dearer with the dearer kernels; each corner
         * pinned on its own (below); ignored without the compute model */
        snprintf(text, sizeof text, "%sgraph_kernel_us = 1|8\ngraph_kernel_source = a test\n", strong);
        CHECK(study_file_parse(text, strlen(text), "tk", &fig, err, sizeof err) == 0 &&
                  study_variants(&amp, &fig) == 2 && study_variants(&pr, &fig) == 1 &&
                  study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 2 && ca[0].gk_us == 1 &&
                  ca[1].gk_us == 8 && ca[1].full.compute_s > ca[0].full.compute_s &&
                  ca[1].base.compute_s > ca[0].base.compute_s && ca[1].eff != ca[0].eff &&
                  !strcmp(study_corner_name(&ca[1], nm, sizeof nm), "minsky2017-1port/8us-kernels"),
              "graph_kernel_us 1|8: %g%% then %g%% (%s; %s)", ca[0].eff, ca[1].eff, nm, err);
        snprintf(text, sizeof text, "%sgraph_kernel_us = 1|8\ngraph_kernel_source = a test\n"
                 "single_gpu_img_s = 5000\nsingle_gpu_batch = 64\nsingle_gpu_source = a test\n", strong);
        step_prediction one[2];
        model *m64b = NULL;
        CHECK(study_file_parse(text, strlen(text), "tk2", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 2 &&
                  model_create("resnet50", 64, 224, &m64b, err, sizeof err) == MODEL_OK,
              "pinned with graph_kernel_us 1|8: %s", err);
        for (int i = 0; m64b && i < 2; i++) { /* each corner's own pin: one GPU at batch 64 takes 64 / 5000 s */
            profile q = amp;
            double k = 0;
            q.graph_kernel_us = ca[i].gk_us;
            CHECK(study_compute_scale(&s, &q, &fig, &k, err, sizeof err) == 0, "scale: %s", err);
            study_scale_rates(&q, k, 1); /* kernels_scaled unset: the kernels' cost over k too */
            CHECK(study_step_on(&s, &q, m64b, &fig, "minsky2017-1port", 1, 0, EFFECTS_ALL, &one[i], err, sizeof err) ==
                      0 && fabs(one[i].step_s - 64.0 / 5000) < 1e-9, "corner %d pinned: %g s at batch 64", i,
                  one[i].step_s);
        }
        model_free(m64b);
        /* kernel_us a|b with graph_kernel_us a|b: four corners, the graphs' cost varying first; with the baseline's
         * graphs on and the scaled run's off, kernel_us moves the scaled run alone, the pin untouched */
        snprintf(text, sizeof text, "%sgraph_kernel_us = 1|8\ngraph_kernel_source = a test\nkernel_us = 2|30\n"
                 "kernel_source = a test\ncuda_graphs = on\ncuda_graphs_at_scale = off\n", strong);
        CHECK(study_file_parse(text, strlen(text), "tk3", &fig, err, sizeof err) == 0 &&
                  study_variants(&amp, &fig) == 4 && study_variants(&pr, &fig) == 1 &&
                  study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 4 && ca[0].gk_us == 1 &&
                  ca[1].gk_us == 8 && ca[2].gk_us == 1 && ca[0].k_us == 2 && ca[1].k_us == 2 && ca[2].k_us == 30 &&
                  ca[3].k_us == 30 && ca[2].full.compute_s > ca[0].full.compute_s &&
                  fabs(ca[2].base.step_s - ca[0].base.step_s) < 1e-15 && ca[2].eff < ca[0].eff &&
                  !strcmp(study_corner_name(&ca[3], nm, sizeof nm), "minsky2017-1port/8us-kernels/30us-eager"),
              "kernel_us 2|30: %g%% then %g%% (%s; %s)", ca[0].eff, ca[2].eff, nm, err);
        /* kernels_scaled = off: the kernels' fixed cost is the µs given; pinned to another single-GPU figure
         * (another compute scale), the eager corners' difference in the scaled run's compute stays the same
         * (28 us a kernel); by default (scaled with the rates) it is inversely as the scale (k 2500 / k 5000) */
        double dk[2][2], kk[2];
        for (int sc = 1; sc >= 0; sc--) /* off last: ca is its 5000 images/s run, for kernels_at_scale below */
            for (int i = 0; i < 2; i++) {
                snprintf(text, sizeof text, "%sgraph_kernel_us = 4\ngraph_kernel_source = a test\nkernel_us = 2|30\n"
                         "kernel_source = a test\ncuda_graphs = on\ncuda_graphs_at_scale = off\nsingle_gpu_img_s = "
                         "%d\nsingle_gpu_batch = 64\nsingle_gpu_source = a test\n%s", strong, i ? 5000 : 2500,
                         sc ? "" : "kernels_scaled = off\n");
                CHECK(study_file_parse(text, strlen(text), "tk4", &fig, err, sizeof err) == 0 &&
                          study_run_figure(&s, &amp, 1, &fig, ca, err, sizeof err) == 2 &&
                          study_kernels_scaled(&fig) == sc && (!sc || study_compute_scale(&s, &amp, &fig, &kk[i], err,
                                                                                       sizeof err) == 0),
                      "pinned at %d images/s, kernels_scaled %s: %s", i ? 5000 : 2500, sc ? "on" : "off", err);
                dk[sc][i] = ca[1].full.compute_s - ca[0].full.compute_s;
            }
        CHECK(dk[0][0] > 0 && fabs(dk[0][0] - dk[0][1]) < 1e-9 * dk[0][0] + 1e-12,
              "kernels_scaled off: kernel_us 2|30 costs the same %g s at either compute scale (%g s)", dk[0][0],
              dk[0][1]);
        CHECK(kk[0] > 0 && kk[1] > kk[0] && fabs(dk[1][1] / dk[1][0] - kk[0] / kk[1]) < 1e-6,
              "kernels_scaled on: %g then %g s, as the scales %g and %g", dk[1][0], dk[1][1], kk[0], kk[1]);
        /* kernels_at_scale: the scaled run's own kernels, each at its corner's eager cost (2 or 30 us); the
         * baseline and the pin untouched */
        corner cx[4];
        snprintf(text, sizeof text, "%sgraph_kernel_us = 4\ngraph_kernel_source = a test\nkernel_us = 2|30\n"
                 "kernel_source = a test\ncuda_graphs = on\ncuda_graphs_at_scale = off\nsingle_gpu_img_s = 5000\n"
                 "single_gpu_batch = 64\nsingle_gpu_source = a test\nkernels_at_scale = 100\n"
                 "kernels_at_scale_source = a test\nkernels_scaled = off\n", strong);
        CHECK(study_file_parse(text, strlen(text), "tk5", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &amp, 1, &fig, cx, err, sizeof err) == 2, "kernels_at_scale 100: %s", err);
        for (int i = 0; i < 2; i++)
            CHECK(fabs(cx[i].full.step_s - ca[i].full.step_s - 100 * cx[i].k_us * 1e-6) < 1e-12 &&
                      fabs(cx[i].full.compute_s - ca[i].full.compute_s - 100 * cx[i].k_us * 1e-6) < 1e-12 &&
                      fabs(cx[i].base.step_s - ca[i].base.step_s) < 1e-15 && cx[i].eff < ca[i].eff,
                  "kernels_at_scale 100 at %g us: the scaled step %g s longer, the baseline the same (%g s)",
                  cx[i].k_us, cx[i].full.step_s - ca[i].full.step_s, cx[i].base.step_s - ca[i].base.step_s);
        snprintf(text, sizeof text, "%sfused_at_scale = 2\nbn_held = 0|1\n", strong);
        CHECK(study_file_parse(text, strlen(text), "tp", &fig, err, sizeof err) == 0 &&
                  study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err) == 1 && c[0].held == -1 &&
                  !strcmp(study_corner_name(&c[0], nm, sizeof nm), "minsky2017-1port"),
              "p100 (no compute model): one corner, the keys ignored (%s)", err);
    }
    { /* algo a|b and step_fixed_us a|b: a corner each (algorithm fastest-varying after bn_held), the fixed
       * cost added to both runs' steps and nothing else */
        static const char alts[] = "label = alts\nmodel = resnet50\nglobal_batch = 256\ngpus = 16\nbaseline = 4\n"
                                   "published = 90\nsource = a test\nalgo = ring|rhd\nplatforms = minsky2017-1port\n"
                                   "overlap = off\nstep_fixed_us = 0|500\nstep_fixed_source = a test\n";
        corner cv[MAX_CORNERS];
        char nm[96];
        CHECK(study_file_parse(alts, strlen(alts), "tv", &fig, err, sizeof err) == 0 && study_variants(&pr, &fig) == 4,
              "4 variants: %s", err);
        int nv = study_run_figure(&s, &pr, 1, &fig, cv, err, sizeof err);
        CHECK(nv == 4 && !strcmp(cv[0].algo, "ring") && !strcmp(cv[1].algo, "rhd") && cv[2].fixed_us == 500 &&
                  fabs(cv[2].full.step_s - cv[0].full.step_s - 500e-6) < 1e-12 &&
                  fabs(cv[2].base.step_s - cv[0].base.step_s - 500e-6) < 1e-12 && cv[2].eff != cv[0].eff &&
                  cv[1].full.exposed_s != cv[0].full.exposed_s,
              "ring, rhd, then +500 us on both runs (%d corners; %s)", nv, err);
        CHECK(nv == 4 && !strcmp(study_corner_name(&cv[3], nm, sizeof nm), "minsky2017-1port/rhd/+500us"),
              "the corner's name: %s", nm);
    }
    { /* the published figure's units (the epoch's padded last step: carry at scale, fill on the baseline, two
       * readings) and Horovod's coordination (study_terms.h): the same steps, the efficiency x the units, the points
       * adding up; the coordination in both runs' steps and exposed time */
        static const char plain[] = "label = terms\nmodel = resnet50\nglobal_batch = 256\ngpus = 16\nbaseline = 4\n"
                                    "published = 90\nsource = a test\nalgo = ring\nplatforms = minsky2017-1port\n"
                                    "overlap = off\n";
        static const char terms[] = "epoch_examples = 1100\nepoch_steps = carry\nbaseline_epoch_steps = fill\n"
                                    "epochs = 5\nepoch_source = t\nhorovod_sync_bytes = 24\nhorovod_sync_source = t\n";
        corner ct[MAX_CORNERS], cp0[MAX_CORNERS];
        figure ft, f0;
        double rf[EPOCH_READINGS], rb[EPOCH_READINGS], cpt, ept, ppt, spt;
        char nm[96], nm1[96];
        snprintf(text, sizeof text, "%s%s", plain, terms);
        CHECK(study_file_parse(text, strlen(text), "tt", &ft, err, sizeof err) == 0 &&
                  study_file_parse(plain, strlen(plain), "t0", &f0, err, sizeof err) == 0, "entries: %s", err);
        int nt = study_run_figure(&s, &pr, 1, &ft, ct, err, sizeof err);
        int n0 = study_run_figure(&s, &pr, 1, &f0, cp0, err, sizeof err);
        epoch_ratio(1100, 16, 16, EPOCH_CARRY, 5, rf), epoch_ratio(1100, 4, 64, EPOCH_FILL, 0, rb); /* 4 or 5 steps */
        CHECK(nt == 2 && n0 == 1 && close_to(ct[0].units, rf[0] / rb[0], 1e-12) &&
                  close_to(ct[1].units, rf[1] / rb[1], 1e-12) && ct[0].units != ct[1].units &&
                  ct[0].full.step_s == ct[1].full.step_s && close_to(ct[0].eff / ct[1].eff, ct[0].units / ct[1].units,
                                                                     1e-12),
              "two readings of one step: units %g and %g (%d corners; %s)", ct[0].units, ct[1].units, nt, err);
        CHECK(nt == 2 && !strcmp(study_corner_name(&ct[0], nm, sizeof nm), "minsky2017-1port/median-epoch") &&
                  !strcmp(study_corner_name(&ct[1], nm1, sizeof nm1), "minsky2017-1port/mean-epoch"),
              "named for the reading: %s, %s", nm, nm1);
        CHECK(nt == 2 && n0 == 1 && ct[0].full.sync_s > 0 && ct[0].base.sync_s > 0 &&
                  ct[0].full.sync_s > ct[0].base.sync_s && cp0[0].full.sync_s == 0 && cp0[0].units == 1 &&
                  close_to(ct[0].full.step_s - cp0[0].full.step_s, ct[0].full.sync_s, 1e-9) &&
                  close_to(ct[0].full.exposed_s - cp0[0].full.exposed_s, ct[0].full.sync_s, 1e-9) &&
                  close_to(ct[0].base.step_s - cp0[0].base.step_s, ct[0].base.sync_s, 1e-9),
              "the coordination in both runs: %g s at 16 GPUs, %g at 4", ct[0].full.sync_s, ct[0].base.sync_s);
        for (int i = 0; i < nt; i++) {
            study_points_lost(&ft, &ct[i], &cpt, &ept), study_points_terms(&ft, &ct[i], &ppt, &spt);
            CHECK(fabs(cpt + ept + ppt - (100 - ct[i].eff)) < 1e-9 && spt > 0 && spt < ept &&
                      fabs(ppt - (1 - ct[i].units) * (100 - cpt)) < 1e-9,
                  "corner %d: %g compute + %g communication (%g of it coordination) + %g epoch = 100 - %g", i, cpt, ept,
                  spt, ppt, ct[i].eff);
        }
        /* gpu_spread_pct 0|2: a corner each; the baseline the same, the scaled run's compute x spread_factor */
        snprintf(text, sizeof text, "%sgpu_spread_pct = 0|2\ngpu_spread_source = t\n", plain);
        CHECK(study_file_parse(text, strlen(text), "ts", &ft, err, sizeof err) == 0 && study_variants(&pr, &ft) == 2,
              "two spreads: %s", err);
        int ns = study_run_figure(&s, &pr, 1, &ft, ct, err, sizeof err);
        double fs = spread_factor(2, 16, 4);
        CHECK(ns == 2 && ct[0].spread_pct == 0 && ct[1].spread_pct == 2 && ct[0].base.step_s == ct[1].base.step_s &&
                  close_to(ct[1].full.compute_s, fs * ct[0].full.compute_s, 1e-9) && ct[1].eff < ct[0].eff &&
                  close_to(ct[0].eff, cp0[0].eff, 1e-12) &&
                  !strcmp(study_corner_name(&ct[1], nm, sizeof nm), "minsky2017-1port/2%-spread"),
              "the slowest of 16 against the slowest of 4: x%g, %s (%d corners; %s)", fs, nm, ns, err);
        study_points_terms(&f0, &cp0[0], &ppt, &spt);
        CHECK(n0 == 1 && ppt == 0 && fabs(spt) < 1e-12, "no terms: no points (%g, %g)", ppt, spt);
        snprintf(text, sizeof text, "%.*s4096%s", (int)(strstr(plain, "256") - plain), plain, strstr(plain, "\ngpus"));
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s", terms);
        s.gpus = 2048; /* 2 images a GPU, but fewer examples than GPUs */
        CHECK(study_file_parse(text, strlen(text), "tg", &ft, err, sizeof err) == 0 &&
                  study_run_figure(&s, &pr, 1, &ft, ct, err, sizeof err) == -1 &&
                  strstr(err, "epoch_examples 1100 below the 2048 GPUs"),
              "--gpus above epoch_examples refused: %s", err);
        s.gpus = 0;
    }
    s.gpus = 512;
    CHECK(study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err) == -1 && strstr(err, "below the 512 GPUs"),
          "--gpus above the global batch refused: %s", err);
    s.gpus = 0;

    snprintf(text, sizeof text, "%s", entry);
    memcpy(strstr(text, "resnet50"), "resnet99", 8);
    CHECK(study_file_parse(text, strlen(text), "t16", &fig, err, sizeof err) == 0, "entry with an unknown model");
    CHECK(study_run_figure(&s, &pr, 1, &fig, c, err, sizeof err) == -1 && !strncmp(err, "t16: ", 5), "its error: %s",
          err);
    model_free(m);
    return TEST_REPORT();
}
