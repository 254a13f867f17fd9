/* cli_train.h — `ddlbench train`, private to cli_train.c (main), cli_train_opts.c (options) and
 * cli_train_out.c (the table, the comparison, the CSV); the run itself: harness/train/runner.h. */
#ifndef HARN_CLI_TRAIN_H
#define HARN_CLI_TRAIN_H

#include "meta.h"
#include "runner.h"

#include <stdio.h>

/* Watchdog default per step: 300 s. A step here takes 0.13 s (ResNet-50, batch 2, image 64, 2 ranks on
 * 2 cores) and grows with batch x image^2: batch 32 at 224 is about 200x that, ~30 s. 300 s leaves 10x
 * over the largest step we run yet ends a hung job minutes into an allocation, not hours. */
#define TRAIN_TIMEOUT_S 300

/* cli_train_opts.c — the options, defaults resolved (rounds, poll interval, the platform's profile).
 * 0 ok, OPTS_HELP (usage printed), 2 bad input (message in err). */
int train_parse_opts(int argc, char **argv, train_opts *o, char *err, size_t errlen);
/* 1 when the options ask for a framework the simulation and the model price (framework.h). */
int train_fw_asked(const train_opts *o);
/* --device against this build, before MPI: 0 ok; 2 the wrong build; 1 no usable device (message in err). */
int train_check_device(const train_opts *o, char *err, size_t errlen);
/* cli_train_out.c — each row against the fastest (sig, vs_best: the rule of rounds.h). */
void train_compare_rows(train_row *rows, int n, int nrounds);
/* The same for predicted rows (model train): each step (med[F_STEP]) against the fastest, exact, so
 * every difference is significant (no (ns) mark). */
void train_compare_exact(train_row *rows, int n);
/* The header's line of modelled effects ("; jitter 2% (Exp, seed 1); 20 us a call ..."; "" for none) in buf. */
const char *train_effects_line(const train_opts *o, char *buf, size_t len);
/* The table's header lines. */
void train_print_header(FILE *f, const train_opts *o, int size, const char *jline);
/* A row as the table (csv = 0; with --per-rank a '#' line of the ranks' spread follows) or as CSV
 * lines (with --per-rank the summary columns, then one line per rank). */
void train_print_row(FILE *f, int csv, const train_opts *o, int size, const train_row *r);
/* '#' lines under the table: each row against the fastest, significant or not, and why. */
void train_print_comparison(FILE *f, const train_opts *o, const train_row *rows, int n);
/* The projected time to train of each row (workload.h), '#' lines under the table. */
void train_print_time_to_train(FILE *f, const train_opts *o, int size, const train_row *rows, int n);
/* --csv and --json with the provenance lines, each written whole (temporary file, renamed); 0, or 1
 * with the reason printed. */
int train_write_results(const run_meta *meta, const train_opts *o, int size, const train_row *rows, int n);

#endif
