/* cli_study.h — `ddlbench study`'s pieces: cli_study.c parses and runs the catalogue through the study
 * engine (harness/sim/study.h), cli_study_out.c prints and writes what it found. */
#ifndef HARN_CLI_STUDY_H
#define HARN_CLI_STUDY_H

#include "profile.h"
#include "study.h"

#include <stdio.h>

typedef struct study_opts {
    study_setup run;                  /* gpus, buckets, platform folder (study.h) */
    const char *profile, *out, *catalogue;
    figure *figs;                     /* the catalogue's entries */
    int nfig;
    double compute_scale[STUDY_MAX_ENTRIES]; /* per figure: its compute rates / the profile's (1: as is) */
    char gpu[STUDY_MAX_ENTRIES][32];  /* per figure: the GPU it was published on (its platforms' profile) */
    int compared[STUDY_MAX_ENTRIES];  /* per figure: the profile is that GPU, so the figure is compared */
    int own;                          /* no --profile, no --platform: each figure on its own GPU's profile */
} study_opts;


/* The time-to-train line of a figure with a published time. */
void study_ttt_line(const study_opts *o, const figure *fig, const corner *c, int n, char *buf, size_t len);
/* The corners as a table: markdown (md) or the terminal's columns. */
void study_print_corners(FILE *f, int md, const study_opts *o, const figure *fig, const corner *c, int n);
/* "band lo-hi%, centre …; published … inside|OUTSIDE the band, … points from the centre" */
const char *study_verdict(double lo, double hi, double pub, char *buf, size_t len);
/* A strong-scaling entry's points lost, compute at its small batch vs exposed communication: their ranges over
 * the corners and the split at the band's two ends (study_points_lost), one sentence into buf. */
const char *study_lost_line(const figure *fig, const corner *c, int n, char *buf, size_t len);
/* The same for figure k of o: "...; published on p100 GPUs, not compared with profile h200" where the
 * profile is another GPU than the figure's. */
const char *study_verdict_of(const study_opts *o, int k, double lo, double hi, char *buf, size_t len);
/* OUT/study.csv (pass 0) and OUT/report.md (pass 1); 0, or 2 with a message if path is too long. */
#define STUDY_NOUT 3 /* study.csv, report.md, bands.csv */
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
