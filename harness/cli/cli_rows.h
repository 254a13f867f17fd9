/* cli_rows.h — the option rows every subcommand shares (opts.h), each concept with one name, one
 * limit and one line of help: the workload (--model, --batch, --image-size, --bucket-mb,
 * --first-bucket-mb), the machine (--platform, --nodes, --gpus-per-node, its custom links) and the
 * device profile (--profile). A subcommand binds a scalar row to its own field with OPTS_ONE; the
 * machine rows fill a platform_opts (platform.h); list rows are macros naming the fields. */
#ifndef HARN_CLI_ROWS_H
#define HARN_CLI_ROWS_H

#include "framework.h"
#include "opts.h"
#include "platform.h"

#include <stddef.h>

#define CLI_BATCH_MAX 65536   /* images per GPU per step */
#define CLI_IMAGE_MAX 4096    /* pixels of the square image side */
#define CLI_BUCKET_MB_MAX 65536 /* MiB of a gradient bucket cap */
#define CLI_LIST_MAX 16       /* items of --bucket-mb and -a lists */

extern const opt_row cli_row_model;    /* --model NAME: const char * */
extern const opt_row cli_row_batch;    /* --batch N: long, 1..CLI_BATCH_MAX */
extern const opt_row cli_row_global_batch; /* --global-batch N: long, 1..GBATCH_MAX (gbatch.h); 0 = off */
extern const opt_row cli_row_grad_dtype; /* --grad-dtype fp32|fp16|bf16: ddl_dtype (wire.h) */
extern const opt_row cli_row_image;    /* --image-size N: long, 1..CLI_IMAGE_MAX */
extern const opt_row cli_row_first_mb; /* --first-bucket-mb N: long, 0..CLI_BUCKET_MB_MAX */
extern const opt_row cli_row_profile;  /* --profile P: const char * */
extern const opt_row cli_row_images_per_s; /* --images-per-s R@B: const char * (perf_layer.h) */
extern const opt_row cli_row_csv;      /* --csv FILE: const char * */
extern const opt_row cli_row_compute;  /* --compute full|gemm: int, 1 = full */
/* What --compute ran, for the "# compute:" provenance line (report.sh prints it as the compute mode). */
const char *cli_compute_desc(int full);
extern const opt_row cli_row_steps;    /* --steps N: long, 1..100000 timed steps */
extern const opt_row cli_row_cycle_ms; /* --cycle-ms MS: double, 0..1000 (framework.h) */
extern const opt_row cli_row_call_us;  /* --call-us US: double, 0..1e6 */
extern const opt_row cli_row_jitter;   /* --jitter PCT: double, 0..1000 (trainer.h, perf_step.h) */
extern const opt_row cli_row_contention; /* --contention PCT: double, 0..1000 */
extern const opt_row cli_row_comm_contention; /* --comm-contention PCT: double, 0..1000 */
extern const opt_row cli_row_overlap_from; /* --overlap-from PCT: double, 0..100 */
extern const opt_row cli_row_warmup;   /* --warmup N: long, 0..100000 untimed steps */

/* The machine: platform_rows (platform.h), bound to a platform_opts as
 * { platform_rows + PLATFORM_ROW_x, n, &po }. */

/* 0 if v is a registered algorithm name (the registry, ddlbench list); else 1 and the phrase. */
int cli_algo_check(const char *v, char *want, size_t wantlen);

/* --bucket-mb LIST into T's long field[CLI_LIST_MAX] and int count. */
#define CLI_ROW_BUCKET_MB(T, field, count)                                                          \
    { .name = "--bucket-mb", .type = OPT_LIST, .min = 0, .max = CLI_BUCKET_MB_MAX, .unit = "LIST",    \
      .off = offsetof(T, field), .count_off = offsetof(T, count), .max_items = CLI_LIST_MAX,     \
      .help = "gradient bucket caps in MiB, comma list; 0 = one allreduce after\n"                    \
              "the whole backward (default 25, PyTorch DDP; Horovod uses 128)" }
/* -a, --algo LIST of registered algorithms into T's const char *field[CLI_LIST_MAX], int count,
 * char buf[] (the items point into it). */
#define CLI_ROW_ALGOS(T, field, count, buf) CLI_ROW_ALGOS_HELP(T, field, count, buf, "default ddl")
#define CLI_ROW_ALGOS_HELP(T, field, count, buf, dflt)                                              \
    { .name = "--algo", .alias = "-a", .type = OPT_STRLIST, .unit = "LIST", .off = offsetof(T, field), \
      .count_off = offsetof(T, count), .buf_off = offsetof(T, buf),                              \
      .buf_len = sizeof(((T *)0)->buf), .max_items = CLI_LIST_MAX, .check = cli_algo_check,         \
      .help = "comma list of allreduce algorithms (" dflt "; see ddlbench list)" }

#endif
