/* cli_study.h — `ddlbench study`'s pieces (cli_study.c runs the catalogue, cli_study_out.c prints and
 * writes what it found). */
#ifndef HARN_CLI_STUDY_H
#define HARN_CLI_STUDY_H

#include "model_step.h"
#include "profile.h"
#include "study_file.h"

#include <stdio.h>

#define MAX_CORNERS (STUDY_MAX_ALTS * 2 * 2) /* platforms x overlaps x batches */

/* The non-ideal effects an entry may turn on (harness/train/framework.h, model_step.h), as bits. */
enum { EFFECT_CYCLES = 1, EFFECT_JITTER = 2, EFFECT_HOLD = 4, EFFECTS_ALL = 7, STUDY_EFFECTS = 3 };

typedef study_entry figure; /* one published figure of the catalogue (study_file.h) */

typedef struct corner {
    const char *platform;
    int overlap, batch;
    step_prediction base, full;
    double eff;              /* % against the figure's baseline */
    double eff1;             /* % against one GPU */
    double share[STUDY_EFFECTS]; /* points of efficiency each effect costs (0 when off) */
} corner;

typedef struct study_opts {
    long gpus, bucket_mb, first_mb;   /* gpus 0: each figure at its published scale */
    const char *profile, *dir, *out, *catalogue;
    figure *figs;                     /* the catalogue's entries */
    int nfig;
    double compute_scale[STUDY_MAX_ENTRIES]; /* per figure: its compute rates / the profile's (1: as is) */
} study_opts;


/* The GPUs a figure is predicted at: --gpus, else its published scale. */
int study_scale(const study_opts *o, const figure *fig);
/* The effects on for fig's corners with overlap off (0) or on (1). */
int study_effects_on(const figure *fig, int overlap);
/* The band of corners c[0..n): the lowest and highest efficiency. */
void study_band(const corner *c, int n, double *lo, double *hi);
/* The time-to-train line of a figure with a published time. */
void study_ttt_line(const study_opts *o, const figure *fig, const corner *c, int n, char *buf, size_t len);
/* The corners as a table: markdown (md) or the terminal's columns. */
void study_print_corners(FILE *f, int md, const study_opts *o, const figure *fig, const corner *c, int n);
/* "band lo-hi%, centre …; published … inside|OUTSIDE the band, … points from the centre" */
const char *study_verdict(double lo, double hi, double pub, char *buf, size_t len);
/* OUT/study.csv (pass 0) and OUT/report.md (pass 1); 0, or 2 with a message if path is too long. */
int study_out_path(const study_opts *o, int pass, char *path, size_t len);
/* "--gpus 256 " when given, for the command lines the outputs quote. */
const char *study_gpus_flag(const study_opts *o, char *buf, size_t len);
/* "compute: the profile's" or "compute: the profile's x2.74, to a published single GPU (…)" */
const char *study_compute_desc(const study_opts *o, int k, char *buf, size_t len);
/* "effects: …" — the non-ideal effects fig turns on, or "none (ideal …)". */
const char *study_effects_desc(const figure *fig, char *buf, size_t len);
/* Both files, written whole or not at all (outfile.h). 0, or 1 with a message. */
int study_write_outputs(const study_opts *o, const profile *pr, corner c[][MAX_CORNERS], const int *n);

#endif
