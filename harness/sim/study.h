/* study.h — the study engine: a catalogue entry (study_file.h) predicted at every corner of its unknowns
 * by the α-β-γ pricer of the one step schedule (perf_step.h), the band of efficiencies the corners
 * span, what each non-ideal effect costs, and the time to train at the band's ends. `ddlbench study`
 * (harness/cli/cli_study.c) parses, calls this and prints; nothing here prints. */
#ifndef HARN_STUDY_H
#define HARN_STUDY_H

#include "model.h"
#include "perf_step.h"
#include "profile.h"
#include "study_file.h"
#include "study_terms.h"

#include <stddef.h>

/* platforms x bn_held x algos x fixed costs x graphs' kernel costs x eager kernel costs x overlaps x batches x
 * epoch readings (study_terms.h); GPU spreads multiply the variants too, an entry with more corners refused */
#define MAX_CORNERS (STUDY_MAX_ALTS * 2 * STUDY_MAX_ALGOS * 2 * 2 * 2 * 2 * 2 * EPOCH_READINGS)

/* The non-ideal effects an entry may turn on (harness/train/framework.h, perf_step.h), as bits. */
enum { EFFECT_CYCLES = 1, EFFECT_JITTER = 2, EFFECT_HOLD = 4, EFFECTS_ALL = 7, STUDY_EFFECTS = 3 };

typedef study_entry figure; /* one published figure of the catalogue (study_file.h) */

/* What every figure is predicted with (`ddlbench study`'s options). */
typedef struct study_setup {
    long gpus;          /* 0: each figure at its published scale */
    long bucket_mb;     /* bucket cap of the overlapped corners, MiB, where the entry gives none */
    long first_mb;      /* the first bucket, MiB */
    const char *dir;    /* the folder of the entries' platform files */
    const char *platform; /* --platform: every corner on this machine (a preset or file); NULL: the entry's */
} study_setup;

typedef struct corner {
    const char *platform;
    int overlap, batch;
    int held;                /* the corner's bn_held (profile.h), -1: the profile's (the entry gives none) */
    const char *algo;        /* its allreduce (one of the entry's algo alternatives) */
    double fixed_us;         /* its fixed cost a step, us (the entry's step_fixed_us; 0: none) */
    double gk_us;            /* its kernels' cost under a graph, us (the entry's graph_kernel_us; -1: the profile's) */
    double k_us;             /* its kernels' cost launched one by one, us (the entry's kernel_us; -1: the profile's) */
    int vary_algo, vary_fixed, vary_gk, vary_k; /* the entry gives two of one: the corner's name says which */
    step_prediction base, full;
    double eff;              /* % against the figure's baseline */
    double eff1;             /* % against one GPU */
    double share[STUDY_EFFECTS]; /* points of efficiency each effect costs (0 when off) */
    double units;            /* eff and eff1 are the step efficiency x this: the published figure's units (the
                                epoch's padded last step, study_terms.h; 1: none) */
    int reading, vary_epoch; /* the epoch reading (0: median epoch, 1: mean epoch); the entry gives two */
    double spread_pct;       /* its GPU-to-GPU speed spread, % (the entry's gpu_spread_pct; 0: none) */
    int vary_spread;         /* the entry gives two */
} corner;

/* The GPUs a figure is predicted at: s->gpus, else its published scale. */
int study_scale(const study_setup *s, const figure *fig);
/* The effects on for fig's corners with overlap off (0) or on (1). */
int study_effects_on(const figure *fig, int overlap);
/* Where an entry's platform `name` is: dir/name.platform where that file opens, else name itself where a
 * preset is so called (platform.h), else the file (whose load then names it in its error). */
void study_platform_path(const char *dir, const char *name, char *path, size_t len);
/* The step of model m (built for fig) on `gpus` GPUs of platform `name` (study_platform_path in s->dir), with
 * the profile's rates, overlapped or not, with the effects `effects` of fig. 0, or 2 with err. */
int study_step_on(const study_setup *s, const profile *pr, const model *m, const figure *fig, const char *name,
                  int gpus, int overlap, int effects, step_prediction *t, char *err, size_t errlen);
#define STUDY_SCALE_MIN 1e-3 /* a published single-GPU time within 1/1000..1000 times the profile's */
/* p's compute rates (GEMMs fp32 and fp16, memory, the update's) times k; with kernels, each kernel's fixed
 * cost (kernel_us, graph_kernel_us) over k too. Those costs are µs measured (docs/SOURCES.md §16, §18), not
 * rates: an entry whose scale is the work a sample (BERT's packed and unpadded 256 tokens against the
 * model's 512, FP8) keeps them (kernels_scaled = off, study_file.h); the default scales them. */
void study_scale_rates(profile *p, double k, int kernels);
/* Whether fig's kernel costs scale with its compute scale (kernels_scaled; on unless set off). */
int study_kernels_scaled(const figure *fig);
/* How much faster than the profile fig's GPU computed (*k; 1 without a published single-GPU figure):
 * the profile's prediction of the work (the part that scales) of the entry's single-GPU step or backward
 * pass over that figure less the part that does not (step_fixed_us; the kernels' fixed costs with
 * kernels_scaled = off), so that the pinned profile predicts the figure. Never fitted to the scaling figure
 * itself. 0, or 2 with err ("entry: why"), also when *k is outside STUDY_SCALE_MIN..1/STUDY_SCALE_MIN (a
 * figure in other units, or one below the fixed part: it would give inf, 0 or negative steps). */
int study_compute_scale(const study_setup *s, const profile *pr, const figure *fig, double *k, char *err,
                        size_t errlen);
/* The corners per platform, overlap and batch of fig on profile base: its bn_held and graph_kernel_us (with the
 * compute model), algo, step_fixed_us and gpu_spread_pct alternatives combined. */
int study_variants(const profile *base, const figure *fig);
/* Every corner of fig (each batch x platform x variant x overlap x epoch reading) into c[0..MAX_CORNERS), the
 * profile's compute rates times kscale, with each effect's share. The number of corners, or -1 with err ("entry:
 * why"; also where the alternatives would make more than MAX_CORNERS). */
int study_run_figure(const study_setup *s, const profile *base, double kscale, const figure *fig, corner *c,
                     char *err, size_t errlen);
/* Where corner c's points below 100% go (strong-scaling entries above all): *comm the points exposed
 * communication costs (the efficiency with both steps' exposed time removed, minus the corner's, in the published
 * figure's units), *compute the step's compute and update at the smaller per-GPU batch against the baseline's;
 * the rest, where the entry gives epoch_examples, the epoch's padded last step (study_points_terms). */
void study_points_lost(const figure *fig, const corner *c, double *compute, double *comm);
/* The points of corner c's loss that the published figure's units (*epoch: the epoch's padded last step, beside
 * study_points_lost's compute and communication) and Horovod's coordination (*sync: part of *comm) account for. */
void study_points_terms(const figure *fig, const corner *c, double *epoch, double *sync);
/* Corner c's platform, with what varies between the entry's corners:
 * "dgxh100-mlperf/bn-held/nccl-ring/+260us/4.4us-kernels/median-epoch". */
const char *study_corner_name(const corner *c, char *buf, size_t len);
/* The band of corners c[0..n): the lowest and highest efficiency. */
void study_band(const corner *c, int n, double *lo, double *hi);
/* Whether pub lies in the band [lo, hi] (to 1e-9). */
int study_inside(double lo, double hi, double pub);
/* Time to train of fig's workload (harness/train/workload.c) at the band's low end, high end and centre,
 * hours in h[0..2]; 0, or -1 without a workload. */
int study_band_hours(const study_setup *s, const figure *fig, const corner *c, int n, double h[3]);

#endif
