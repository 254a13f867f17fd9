/* workload.h — the study's training runs, for projecting time to train from a measured or simulated
 * images/s: epochs x dataset images / (images/s). Assumptions, stated wherever the figure is printed:
 * every step runs at the measured rate, no data loading, no evaluation, no checkpoints
 * (docs/SOURCES.md §1, §4 for the numbers). */
#ifndef HARN_WORKLOAD_H
#define HARN_WORKLOAD_H

typedef struct workload {
    const char *model;       /* model_create name */
    const char *dataset;     /* "ImageNet-1K", "ImageNet-22K" */
    long images;             /* training images per epoch */
    int epochs;
    const char *epochs_note; /* "sourced" or why it is an assumption */
    double study_hours;      /* the study's wall time for this run (0 = none) */
    int study_gpus;          /* on this many GPUs */
} workload;

#define WORKLOAD_ASSUMPTIONS "no data loading, no evaluation, every step at the measured rate"

/* The workload of a model name, or NULL. */
const workload *workload_of(const char *model);
/* Projected wall-clock hours of w at images_per_s (> 0), or -1 when it is not positive. */
double workload_hours(const workload *w, double images_per_s);
/* "50 min" / "7.0 h" / "3.2 d" into out. */
void workload_fmt_time(double hours, char *out, int len);

#endif
