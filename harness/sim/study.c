/* study.c — the study engine (study.h): the 2017 systems of the DDL study and the catalogue's other
 * entries at their published scale (or s->gpus) with each unknown as a range, by the α-β-γ pricer of
 * the one step schedule (perf_step.h; the simulator checks it at spot points, harness/scripts/study.sh).
 * Per published figure: the platform files of the machine as sourced (harness/sim/platforms,
 * docs/SOURCES.md §1–§3, §10), the unknowns — whether the allreduce overlapped backward (bucket 0 = one
 * allreduce after backward; DDP-style 25 MiB buckets) and, for the Minsky, 1 or 2 InfiniBand EDR ports
 * per node — and the baseline the figure was measured against. */
#include "study.h"
#include "framework.h"
#include "perf_layer.h"
#include "platform.h"
#include "workload.h"

#include <stdio.h>
#include <string.h>

void study_platform_path(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s.platform", dir, name);
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        return;
    }
    for (int i = 0; i < platform_preset_count(); i++)
        if (!strcmp(name, platform_preset(i)->name)) {
            snprintf(path, len, "%s", name);
            return;
        }
}

int study_scale(const study_setup *s, const figure *fig) { return s->gpus ? (int)s->gpus : fig->gpus; }

int study_effects_on(const figure *fig, int overlap)
{
    return (fig->cycle_ms > 0 && overlap ? EFFECT_CYCLES : 0) | (fig->jitter_pct > 0 ? EFFECT_JITTER : 0) |
           (fig->overlap_from_pct > 0 && overlap ? EFFECT_HOLD : 0);
}

int study_step_on(const study_setup *s, const profile *pr, const model *m, const figure *fig, const char *name,
                  int gpus, int overlap, int effects, step_prediction *t, char *err, size_t errlen)
{
    char path[1024];
    platform pf;
    if (s->platform) snprintf(path, sizeof path, "%s", s->platform);
    else study_platform_path(s->dir, name, path, sizeof path);
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
    step_inputs in = {
        .gemm_gflops = pr->gemm_gflops_fp32,
        .gamma = pr->reduce_ns_per_byte * 1e-9,
        .mem_gbps = pr->mem_gbps,
        .full = 1,
        .bucket_bytes = overlap ? (size_t)(fig->bucket_mb ? fig->bucket_mb : s->bucket_mb) << 20 : 0,
        .first_bucket_bytes = (size_t)s->first_mb << 20,
        .grid = two ? grid : NULL,
        .patterns = two ? fig->patterns : NULL,
        .sgd_gbps = pr->sgd_gbps,
        .grad_bytes = (size_t)fig->grad_bytes,
        .shard = fig->shard,
        .optim = fig->optim,
        .fixed_s = fig->nfixed ? fig->fixed_us[0] * 1e-6 : 0,
        .update_shard = fig->optim_shard,
        /* the scaled run waits for its slowest GPU, the baseline's published rate for its own (study_terms.h) */
        .compute_scale = spread_factor(fig->nspread ? fig->spread_pct[0] : 0, gpus, fig->baseline),
    };
    if (perf_layer_shaped(pr)) in.gemm_gflops = profile_gemm_gflops(pr), in.shape = pr; /* perf_layer.h */
    if ((effects & EFFECT_CYCLES) && overlap && fig->cycle_ms > 0) /* Horovod's cycles, fusing up to the cap */
        in.fw = (framework){ .cycle_s = fig->cycle_ms / 1e3, .fusion_bytes = in.bucket_bytes };
    if ((effects & EFFECT_HOLD) && overlap) in.fw.overlap_from = fig->overlap_from_pct / 100; /* partial overlap */
    if (effects & EFFECT_JITTER) in.jitter = fig->jitter_pct / 100;
    if (perf_step(m, &pf, fig->algo, &in, t, err, errlen)) return 2;
    if (gpus > fig->baseline && fig->extra_kernels > 0) { /* kernels_at_scale: the scaled run's own */
        double x = fig->extra_kernels * (pr->graphs > 0 ? pr->graph_kernel_us : pr->kernel_us) * 1e-6;
        t->step_s += x, t->compute_s += x;
    }
    if (fig->sync_bytes && sync_seconds(&pf, fig->sync_bytes, &t->sync_s, err, errlen)) return 2;
    t->step_s += t->sync_s, t->comm_s += t->sync_s, t->exposed_s += t->sync_s; /* before the allreduce, exposed */
    return 0;
}

void study_scale_rates(profile *p, double k, int kernels)
{
    p->gemm_gflops_fp32 *= k, p->mem_gbps *= k, p->sgd_gbps *= k, p->gemm_gflops_fp16 *= k; /* amp */
    if (kernels) p->kernel_us /= k, p->graph_kernel_us /= k;
}

int study_kernels_scaled(const figure *fig) { return !fig->kscaled_set || fig->kscaled; }

/* Measured on the same model and framework, so it replaces the profile's one ResNet-50 calibration
 * (p100.profile) for models whose kernels run at other rates (VGG-16's 3x3 convolutions through Winograd).
 * The one-GPU step is work / k + fixed: the part that scales and what does not (step_fixed_us, and each
 * kernel's fixed cost with kernels_scaled = off); the profile as it is and scaled by 2 give both, and k is
 * the work over the measured time less the fixed part, so that the pinned profile predicts the figure
 * exactly. */
int study_compute_scale(const study_setup *s, const profile *pr, const figure *fig, double *k, char *err,
                        size_t errlen)
{
    char why[300];
    model *m = NULL;
    step_prediction one[2];
    profile twice = *pr;
    *k = 1;
    if (!fig->single_batch) return 0;
    if (model_create(fig->model, fig->single_batch, fig->image_size, &m, why, sizeof why))
        return snprintf(err, errlen, "%s: %s", fig->name, why), 2;
    study_scale_rates(&twice, 2, study_kernels_scaled(fig));
    int rc = study_step_on(s, pr, m, fig, fig->platforms[0], 1, 0, EFFECTS_ALL, &one[0], why, sizeof why);
    if (!rc) rc = study_step_on(s, &twice, m, fig, fig->platforms[0], 1, 0, EFFECTS_ALL, &one[1], why, sizeof why);
    model_free(m);
    if (rc) return snprintf(err, errlen, "%s: %s", fig->label, why), 2;
    double p[2];
    for (int i = 0; i < 2; i++) p[i] = fig->single_img_s > 0 ? one[i].step_s : one[i].compute_s - one[i].forward_s;
    double work = 2 * (p[0] - p[1]), fixed = p[0] - work;
    *k = work / ((fig->single_img_s > 0 ? fig->single_batch / fig->single_img_s : fig->single_backward_ms / 1e3) -
                 fixed);
    if (!(*k >= STUDY_SCALE_MIN && *k <= 1 / STUDY_SCALE_MIN)) /* NaN too: an inf or NaN step otherwise */
        return snprintf(err, errlen,
                        "%s: %s: a single-GPU time %.4g times the profile's own prediction of its work (%.4g ms "
                        "unscaled); expected %g..%g times (a figure in other units, or of another model?)",
                        fig->name, fig->single_img_s > 0 ? "single_gpu_img_s" : "single_gpu_backward_ms", 1 / *k,
                        fixed * 1e3, STUDY_SCALE_MIN, 1 / STUDY_SCALE_MIN),
               2;
    return 0;
}

/* Per-GPU efficiency, %, of a step of t_full s at bfull images a GPU against t_base s at bbase: under
 * weak scaling (bfull = bbase) the steps' ratio; under strong scaling the per-GPU images/s' ratio. */
static double per_gpu_eff(double t_base, int bbase, double t_full, int bfull)
{
    return 100 * ((double)bfull / t_full) / ((double)bbase / t_base);
}

/* Corner c (its base and full steps, eff) without each effect that is on: the points that effect costs.
 * mb: the baseline run's network (m's own under weak scaling); pf: the scaled run's profile. */
static int effect_shares(const study_setup *s, const profile *pr, const profile *pf, const model *m, const model *mb,
                         const figure *fig, int bbase, corner *c, char *err, size_t errlen)
{
    for (int e = 0; e < STUDY_EFFECTS; e++) {
        step_prediction b0, f0;
        c->share[e] = 0;
        if (!(study_effects_on(fig, c->overlap) & (1 << e))) continue;
        if (study_step_on(s, pr, mb, fig, c->platform, fig->baseline, c->overlap, EFFECTS_ALL & ~(1 << e), &b0, err,
                          errlen) ||
            study_step_on(s, pf, m, fig, c->platform, study_scale(s, fig), c->overlap, EFFECTS_ALL & ~(1 << e), &f0,
                          err, errlen))
            return 2;
        c->share[e] = per_gpu_eff(b0.step_s, bbase, f0.step_s, c->batch) - c->eff;
    }
    return 0;
}

/* The per-GPU batches of batch alternative b: at the figure's scale (*bfull) and of its baseline run
 * (*bbase); under strong scaling each run's global batch over its GPUs. 0, or 2 with err. */
static int batches_of(const study_setup *s, const figure *fig, int b, int *bfull, int *bbase, char *err,
                      size_t errlen)
{
    *bfull = *bbase = fig->batches[b];
    if (!fig->global_batch) return 0;
    *bfull = fig->global_batch / study_scale(s, fig), *bbase = fig->base_batch;
    if (*bfull < 1)
        return snprintf(err, errlen, "%s: global_batch %d is below the %d GPUs predicted; expected at least one "
                        "image per GPU", fig->name, fig->global_batch, study_scale(s, fig)), 2;
    return 0;
}

/* Variant v of fig's unknowns that are not platforms or overlaps (v = h + nh (a + na (f + nf (g + ng k))): bn_held
 * h, algorithm a, fixed step cost f, kernel cost under a graph g and without one k): the figure with that
 * algorithm and cost alone (*fv), the baseline's profile (*pr)
 * and the scaled run's (*at; its network fused_at_scale where the entry gives one), each rate x the
 * variant's own compute scale (kscale for the profile's own setting; a pinned entry pinned again with the
 * variant, whose 1-node run paid the fixed cost too). Into c: the variant's held (-1: the profile's),
 * algorithm and fixed cost. 0, or 2 with err. */
static int variant(const study_setup *s, const profile *base, double kscale, const figure *fig, int v, figure *fv,
                   profile *pr, profile *at, corner *c, char *err, size_t errlen)
{
    int shaped = perf_layer_shaped(base), nh = fig->nheld && shaped ? fig->nheld : 1;
    int na = fig->nalgos ? fig->nalgos : 1, nf = fig->nfixed ? fig->nfixed : 1, ng = fig->ngk && shaped ? fig->ngk : 1;
    int nk = fig->nk && shaped ? fig->nk : 1, a = v / nh % na, f = v / nh / na % nf, g = v / nh / na / nf % ng;
    int k = v / nh / na / nf / ng % nk, sp = v / nh / na / nf / ng / nk;
    *fv = *fig, *pr = *base;
    c->held = fig->nheld && shaped ? fig->held_alts[v % nh] : -1;
    c->algo = fig->nalgos ? fig->algos[a] : fig->algo;
    c->fixed_us = fig->nfixed ? fig->fixed_us[f] : 0;
    c->gk_us = fig->ngk && shaped ? fig->gk_us[g] : -1;
    c->k_us = fig->nk && shaped ? fig->k_us[k] : -1;
    c->vary_algo = fig->nalgos > 1, c->vary_fixed = fig->nfixed > 1, c->vary_gk = fig->ngk > 1 && shaped;
    c->vary_k = fig->nk > 1 && shaped;
    c->spread_pct = fig->nspread ? fig->spread_pct[sp] : 0, c->vary_spread = fig->nspread > 1;
    fv->spread_pct[0] = c->spread_pct, fv->nspread = fig->nspread ? 1 : 0; /* study_step_on's */
    snprintf(fv->algo, sizeof fv->algo, "%s", c->algo);
    fv->fixed_us[0] = c->fixed_us, fv->nfixed = fig->nfixed ? 1 : 0, fv->nalgos = 1, fv->nheld = 0;
    if (c->held >= 0) pr->bn_held = c->held;
    int graphs = fig->graphs_set && shaped && fig->graphs != (base->graphs > 0);
    if (graphs) pr->graphs = fig->graphs;
    if (c->gk_us >= 0) pr->graph_kernel_us = c->gk_us;
    if (c->k_us >= 0) pr->kernel_us = c->k_us;
    if (fig->single_batch &&
        ((c->held >= 0 && c->held != (base->bn_held > 0)) || (fig->nfixed && f > 0) || graphs || c->gk_us >= 0 ||
         c->k_us >= 0) &&
        study_compute_scale(s, pr, fv, &kscale, err, errlen))
        return 2;
    study_scale_rates(pr, kscale, study_kernels_scaled(fig)); /* kernels_scaled = off: the µs given */
    *at = *pr;
    if (fig->fused_at_scale && shaped) at->fused = fig->fused_at_scale;
    if (fig->graphs_at_set && shaped) at->graphs = fig->graphs_at;
    return 0;
}

/* The published figure's units (study_terms.h) for corner c at bfull images a GPU against bbase: c's efficiencies
 * and effect shares scaled to the first epoch reading, and where the entry's iterators give two, a copy of c at
 * the second in c[1]. The corners added (0 or 1), or -1 with err. */
static int epoch_units(const study_setup *s, const figure *fig, int bfull, int bbase, corner *c, char *err,
                       size_t errlen)
{
    double rf[EPOCH_READINGS], rb[EPOCH_READINGS], r1[EPOCH_READINGS];
    int n = 1, gpus = study_scale(s, fig);
    c->units = 1, c->reading = 0, c->vary_epoch = 0;
    if (!fig->epoch_examples) return 0;
    if (epoch_ratio(fig->epoch_examples, gpus, bfull, fig->epoch_steps, fig->epochs, rf) < 0 ||
        epoch_ratio(fig->epoch_examples, fig->baseline, bbase, fig->base_epoch_steps, fig->epochs, rb) < 0 ||
        epoch_ratio(fig->epoch_examples, 1, bbase, fig->base_epoch_steps, fig->epochs, r1) < 0)
        return snprintf(err, errlen, "%s: epoch_examples %d below the %d GPUs predicted; expected at least one "
                        "example a GPU", fig->name, fig->epoch_examples, gpus), -1;
    n = fig->epoch_steps == EPOCH_CARRY || fig->base_epoch_steps == EPOCH_CARRY ? EPOCH_READINGS : 1;
    corner step = *c; /* the step efficiencies */
    for (int k = 0; k < n; k++) {
        c[k] = step, c[k].units = rf[k] / rb[k], c[k].reading = k, c[k].vary_epoch = n > 1;
        c[k].eff = step.eff * c[k].units, c[k].eff1 = step.eff1 * rf[k] / r1[k];
        for (int e = 0; e < STUDY_EFFECTS; e++) c[k].share[e] = step.share[e] * c[k].units;
    }
    return n - 1;
}

int study_variants(const profile *base, const figure *fig)
{
    int shaped = perf_layer_shaped(base);
    return (fig->nheld && shaped ? fig->nheld : 1) * (fig->nalgos ? fig->nalgos : 1) *
           (fig->nfixed ? fig->nfixed : 1) * (fig->ngk && shaped ? fig->ngk : 1) * (fig->nk && shaped ? fig->nk : 1) *
           (fig->nspread ? fig->nspread : 1);
}

int study_run_figure(const study_setup *s, const profile *base, double kscale, const figure *fig, corner *c,
                     char *err, size_t errlen)
{
    char why[300];
    int n = 0, nv = study_variants(base, fig), reads = fig->epoch_examples ? EPOCH_READINGS : 1;
    if ((long)fig->nbatches * fig->nplatforms * nv * fig->noverlaps * reads > MAX_CORNERS)
        return snprintf(err, errlen, "%s: more than %d corners; expected fewer alternatives", fig->name, MAX_CORNERS),
               -1;
    for (int b = 0; b < fig->nbatches; b++) {
        model *m = NULL, *mb = NULL;
        int bfull, bbase;
        if (batches_of(s, fig, b, &bfull, &bbase, err, errlen)) return -1;
        if (model_create(fig->model, bfull, fig->image_size, &m, why, sizeof why) ||
            (bbase != bfull && model_create(fig->model, bbase, fig->image_size, &mb, why, sizeof why))) {
            model_free(m);
            return snprintf(err, errlen, "%s: %s", fig->name, why), -1;
        }
        const model *base_m = mb ? mb : m; /* the baseline run's network: its own batch under strong scaling */
        for (int a = 0; a < fig->nplatforms * nv; a++)
            for (int k = 0; k < fig->noverlaps; k++, n++) {
                step_prediction one;
                profile pv, at;
                figure fv;
                int ov = fig->overlaps[k], extra = 0;
                const char *pf = fig->platforms[a / nv];
                c[n].platform = pf, c[n].overlap = ov, c[n].batch = bfull;
                if (variant(s, base, kscale, fig, a % nv, &fv, &pv, &at, &c[n], why, sizeof why) ||
                    study_step_on(s, &pv, base_m, &fv, pf, fig->baseline, ov, EFFECTS_ALL, &c[n].base, why,
                                  sizeof why) ||
                    study_step_on(s, &at, m, &fv, pf, study_scale(s, fig), ov, EFFECTS_ALL, &c[n].full, why,
                                  sizeof why) ||
                    study_step_on(s, &pv, base_m, &fv, pf, 1, ov, EFFECTS_ALL, &one, why, sizeof why) ||
                    (c[n].eff = per_gpu_eff(c[n].base.step_s, bbase, c[n].full.step_s, bfull),
                     c[n].eff1 = per_gpu_eff(one.step_s, bbase, c[n].full.step_s, bfull),
                     effect_shares(s, &pv, &at, m, base_m, &fv, bbase, &c[n], why, sizeof why)) ||
                    (extra = epoch_units(s, fig, bfull, bbase, &c[n], why, sizeof why)) < 0) {
                    snprintf(err, errlen, "%s: %s", fig->label, why);
                    model_free(m), model_free(mb);
                    return -1;
                }
                n += extra; /* the second epoch reading */
            }
        model_free(m), model_free(mb);
    }
    return n;
}

/* Corner c's step efficiency (per step, before its units) with both runs' times less base_s and full_s. */
static double eff_less(const figure *fig, const corner *c, double base_s, double full_s)
{
    int bb = fig->global_batch ? fig->base_batch : c->batch;
    return per_gpu_eff(c->base.step_s - base_s, bb, c->full.step_s - full_s, c->batch);
}

void study_points_lost(const figure *fig, const corner *c, double *compute, double *comm)
{
    double no_exp = eff_less(fig, c, c->base.exposed_s, c->full.exposed_s);
    *comm = c->units * no_exp - c->eff; /* the published figure's units: eff = units x the step efficiency */
    *compute = 100 - no_exp;
}

/* epoch + compute + comm = 100 - eff: the units' part of the loss is (1 - units) x the efficiency with no exposed
 * communication; the coordination's, what removing it from both runs gives back. */
void study_points_terms(const figure *fig, const corner *c, double *epoch, double *sync)
{
    *epoch = (1 - c->units) * eff_less(fig, c, c->base.exposed_s, c->full.exposed_s);
    *sync = c->units * eff_less(fig, c, c->base.sync_s, c->full.sync_s) - c->eff;
}

const char *study_corner_name(const corner *c, char *buf, size_t len)
{
    int at = snprintf(buf, len, "%s", c->platform);
    if (c->held >= 0 && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "/%s", c->held ? "bn-held" : "bn-reread");
    if (c->vary_algo && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/%s", c->algo);
    if (c->vary_fixed && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/+%gus", c->fixed_us);
    if (c->vary_gk && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "/%gus-kernels", c->gk_us);
    if (c->vary_k && at >= 0 && (size_t)at < len) at += snprintf(buf + at, len - (size_t)at, "/%gus-eager", c->k_us);
    if (c->vary_spread && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "/%g%%-spread", c->spread_pct);
    if (c->vary_epoch && at >= 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, "/%s-epoch", c->reading ? "mean" : "median");
    return buf;
}

void study_band(const corner *c, int n, double *lo, double *hi)
{
    *lo = 1e9, *hi = -1e9;
    for (int i = 0; i < n; i++) *lo = c[i].eff < *lo ? c[i].eff : *lo, *hi = c[i].eff > *hi ? c[i].eff : *hi;
}

int study_inside(double lo, double hi, double pub) { return pub >= lo - 1e-9 && pub <= hi + 1e-9; }

/* At efficiency E against the baseline step b, the full-scale step is b x 100 / E, and the run takes
 * epochs x images x step / (GPUs x batch). The ends use their own corners' baseline steps, the centre
 * the mean of the two. */
int study_band_hours(const study_setup *s, const figure *fig, const corner *c, int n, double h[3])
{
    const workload *w = workload_of(fig->model);
    int lo = 0, hi = 0;
    if (!w || n < 1) return -1;
    for (int i = 1; i < n; i++) lo = c[i].eff < c[lo].eff ? i : lo, hi = c[i].eff > c[hi].eff ? i : hi;
    double base[3] = { c[lo].base.step_s, c[hi].base.step_s, (c[lo].base.step_s + c[hi].base.step_s) / 2 };
    double eff[3] = { c[lo].eff, c[hi].eff, (c[lo].eff + c[hi].eff) / 2 };
    for (int k = 0; k < 3; k++) {
        double batch = k == 0 ? c[lo].batch : k == 1 ? c[hi].batch : (c[lo].batch + c[hi].batch) / 2.0;
        h[k] = workload_hours(w, (double)study_scale(s, fig) * batch / (base[k] * 100 / eff[k]));
    }
    return 0;
}
