/* cli_train_opts.c — `ddlbench train`'s options (cli_train.h): its rows of the option table and the
 * shared ones, the usage, and the checks that need more than one option, the platform or this build. */
#include "cli.h"
#include "cli_rows.h"
#include "cli_train.h"
#include "compute.h"
#include "device_pick.h"
#include "parse.h"
#include "profile.h"
#include "sgd.h"
#include "sim.h"
#include "engine.h"
#include "counters.h"
#include "devmem.h"
#include "gemm.h"
#include "meta.h"
#include "trainer.h"
#include "guard.h"
#include "opts.h"
#include "outfile.h"
#include "platform.h"
#include "watchdog.h"
#include "wire.h"
#include "rank.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(MAX_LIST == CLI_LIST_MAX, "train_opts' lists are the shared rows' lists");

static const char *const devices[] = { "cpu", "gpu", NULL };

static int precision(const char *v, void *dst) { return kern_precision_parse(v, dst); }

/* train's own rows; the shared ones (cli_rows.h) are bound in parse_opts. */
static const char *const shards[] = { "none", "optimizer", "gradients", "full", NULL };
static const char *const optims[] = { "sgd", "adam", "lamb", NULL };

static const opt_row rows[] = {
    CLI_ROW_ALGOS(train_opts, algos, nalgos, listbuf[0]),
    CLI_ROW_BUCKET_MB(train_opts, bucket_mb, nbuckets),
    { .name = "--shard", .type = OPT_CHOICE, .choices = shards, .off = offsetof(train_opts, shard),
      .unit = "none|optimizer|gradients|full",
      .help = "none (default): allreduce the buckets; optimizer, gradients (ZeRO-1, -2): each bucket\n"
              "reduce-scattered, the update on this rank's blocks (its shard of the optimizer state),\n"
              "the parameters allgathered after it; full (ZeRO-3 / FSDP): not after the update\n"
              "but before each use, forward and again backward, a bucket prefetched ahead\n"
              "(trainer_shard.c; host buffers, algorithms with reduce-scatter and allgather);\n"
              "'#' lines under each row give the bytes a rank allocated (gradients: a shard and\n"
              "bucket slots with gradients and full; parameters: a shard and slots with full)\n"
              "beside the model's formula" },
    { .name = "--optimizer", .type = OPT_CHOICE, .choices = optims, .off = offsetof(train_opts, optim),
      .unit = "sgd|adam|lamb",
      .help = "the update (trainer_optim.c; host buffers): sgd (default: plain in --compute gemm,\n"
              "momentum 0.9 in full, 4 B of state a parameter), adam (m and v: 8 B), lamb (8 B,\n"
              "and 16 B a tensor for its norms, allreduced under --shard); state on the shard" },
    { .name = "--grid", .type = OPT_STRING, .min = 1, .unit = "G", .off = offsetof(train_opts, grid),
      .expect = "a grid like 4x16x4 (product = ranks)",
      .help = "ddl grid (e.g. 4x16x4), with -a ddl; takes precedence over DDL_GRID" },
    { .name = "--patterns", .type = OPT_STRING, .min = 1, .unit = "P", .off = offsetof(train_opts, patterns),
      .expect = "ring or rhd per dimension, like ring,rhd",
      .help = "ddl's per-dimension ring|rhd, with -a ddl; takes precedence over DDL_PATTERNS" },
    { .name = "--poll-us", .type = OPT_LONG, .min = 0, .max = 1000000, .off = offsetof(train_opts, poll_us),
      .help = "communication thread tests its requests every N us, sleeping between\n"
              "(0 = block in MPI_Wait; default DDL_POLL_US if set, else 50 on real\n"
              "MPI, where the thread shares cores with BLAS, and 0 under simulation)" },
    { .name = "--device", .type = OPT_CHOICE, .choices = devices, .off = offsetof(train_opts, device),
      .help = "where the step runs (default cpu); gpu needs the CUDA build\n"
              "(build/cuda/ddlbench): parameters, gradients and activations in device\n"
              "memory, cuBLAS GEMMs, allreduce of device buffers (CUDA-aware MPI or staged)" },
    { .name = "--precision", .type = OPT_CUSTOM, .unit = "P", .off = offsetof(train_opts, precision),
      .parse = precision, .expect = "fp32, tf32, bf16 or fp16",
      .help = "GEMM inputs: fp32 | tf32 | bf16 | fp16 (default fp32; others need --device gpu)" },
    { .name = "--jitter-seed", .type = OPT_LONG, .min = 0, .max = 2147483647, .off = offsetof(train_opts, seed),
      .help = "seed of the draws (default 1); the same seed gives the same draws" },
    { .name = "--rounds", .type = OPT_LONG, .min = 1, .max = ROUNDS_MAX, .off = offsetof(train_opts, rounds),
      .help = "interleaved rounds: each round runs every configuration's warm-up and timed\n"
              "steps once, in turn (A B A B, not A A B B), so a drift of the machine falls\n"
              "on all alike; statistics over rounds x steps (1..32; default 3 on real MPI\n"
              "with two or more configurations, else 1; simulation repeats exactly: 1)" },
    { .name = "--check", .type = OPT_FLAG, .off = offsetof(train_opts, check),
      .help = "known per-rank gradients; verify every allreduced value (exit 1 if wrong)" },
    { .name = "--timeout", .type = OPT_LONG, .min = 0, .max = 1000000, .unit = "S",
      .off = offsetof(train_opts, timeout_s),
      .expect = "seconds, an integer in 0..1000000",
      .help = "watchdog: a step (or a configuration's setup) not done in S seconds\n"
              "prints one line per rank and aborts the job, exit 1 (default 300; 0 = off)" },
    { .name = "--json", .type = OPT_STRING, .unit = "FILE", .off = offsetof(train_opts, json),
      .help = "the same rows as one JSON document (provenance, then rows; results/README.md),\n"
              "written and checked the same way as --csv" },
    { .name = "--per-rank", .type = OPT_FLAG, .off = offsetof(train_opts, per_rank),
      .help = "each rank's own medians: a '#' line under each row (median of ranks' compute,\n"
              "MAD, slowest rank and its lag, stragglers: > 2 MAD and > 10% over the median, judged\n"
              "from 3 ranks: NA below), and in the CSV/JSON a rank column (all = the row) with one row per rank" },
};

/* The sets of one parse: the shared rows bound to o's fields and to the machine po. */
#define TRAIN_SETS(o, po)                                                                              \
    { OPTS_ONE(&cli_row_model, &(o)->model), OPTS_ONE(&cli_row_batch, &(o)->batch),                    \
      OPTS_ONE(&cli_row_global_batch, &(o)->global_batch), OPTS_ONE(&cli_row_grad_dtype, &(o)->grad_dtype),  \
      OPTS_ONE(&cli_row_image, &(o)->image), OPTS_ONE(&cli_row_steps, &(o)->steps),                    \
      OPTS_ONE(&cli_row_warmup, &(o)->warmup), OPTS_ONE(&cli_row_first_mb, &(o)->first_mb),            \
      OPTS_ONE(&cli_row_compute, &(o)->full), OPTS_ONE(&cli_row_cycle_ms, &(o)->cycle_ms),           \
      OPTS_ONE(&cli_row_call_us, &(o)->call_us), OPTS_ONE(&cli_row_contention, &(o)->contention_pct),            \
      OPTS_ONE(&cli_row_comm_contention, &(o)->comm_contention_pct), OPTS_ONE(&cli_row_jitter, &(o)->jitter_pct), \
      OPTS_ONE(&cli_row_overlap_from, &(o)->overlap_from_pct),                                            \
      OPTS_SET(rows, (o)), { platform_rows + PLATFORM_ROW_PLATFORM, 1, (po) },                            \
      { platform_rows + PLATFORM_ROW_GPN, 1, (po) }, { platform_rows + PLATFORM_ROW_PARTIAL, 2, (po) },     \
      OPTS_ONE(&cli_row_profile, &(o)->profile),                                                        \
      OPTS_ONE(&cli_row_csv, &(o)->csv), OPTS_ONE(&cli_row_images_per_s, &(o)->images_per_s) }

static void usage(FILE *f)
{
    train_opts o;
    platform_opts po;
    const opts_set sets[] = TRAIN_SETS(&o, &po);
    fprintf(f, "usage: mpirun -np N ddlbench train [options]   (--opt value or --opt=value)\n");
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
    fprintf(f,
            "--platform P --gpus-per-node G: a machine preset (ddlbench platform --help) or platform file\n"
            "and its GPUs per node, whose alpha-beta-gamma model drives the auto algorithm's choice (without\n"
            "it, auto uses its built-in rule); G and --profile default to the platform's own, and another\n"
            "is refused without --override-platform. --profile: the device rates the simulation injects;\n"
            "required under simulation, ignored by the real build.\n"
            "Rows: over rounds x timed steps, the median step, min, max and IQR (q3 - q1, the spread); the\n"
            "breakdown is the median step's own, on the rank whose step was longest, so step = gemm +\n"
            "nongemm + exposed + sgd + other. vs_best: each row's median against the fastest row's, marked\n"
            "(ns) when not significant: the medians differ by no more than the larger IQR or 0.1%%, or some\n"
            "round ordered the two the other way; NA below 3 timed steps. '#' lines under the table say which.\n"
            "Below the table: the projected time to train the model's workload (ResNet-50: 90 epochs of\n"
            "ImageNet-1K; ResNet-101-22K: 90 epochs of 7.5M ImageNet-22K images, epochs assumed) at the\n"
            "measured images/s, in hours and GPU-hours, beside the study's 50 min and 7 h on 256 GPUs at\n"
            "the study's image size (224); at another size labelled a projection of this configuration,\n"
            "with no study figure beside it; no data loading, no evaluation.\n");
}

/* --platform: a preset with its own link figures (custom has none to model with) or a platform file,
 * looked up once; --gpus-per-node and --profile against it, the profile defaulting to its GPU. */
static int check_platform(train_opts *o, int override, char *err, size_t errlen)
{
    platform pf;
    static char own[sizeof pf.profile]; /* the platform's profile name outlives pf */
    if (!strcmp(o->cost_platform, "custom"))
        return snprintf(err, errlen, "--platform: custom has no link figures to model with; expected a preset or a "
                                     "platform file"), 2;
    if (platform_lookup(&pf, o->cost_platform, err, errlen) ||
        platform_gpn_check(o->cost_platform, o->cost_gpn, override, err, errlen))
        return 2;
    if (!o->profile && !pf.profile[0]) return 0;
    if (platform_profile(&pf, o->profile, override, &o->profile, err, errlen)) return 2;
    if (o->profile == pf.profile) snprintf(own, sizeof own, "%s", pf.profile), o->profile = own;
    return 0;
}

/* Options that only mean something with others: refused alone rather than ignored. */
static int check_combinations(const train_opts *o, char *err, size_t errlen)
{
    int ddl = 0;
    for (int k = 0; o->shard && k < o->nalgos; k++) {
        int i = ddl_algo_find(o->algos[k]);
        if (i >= 0 && !(ddl_algo_flags(i) & DDL_ALGO_RSAG))
            return snprintf(err, errlen, "--shard %s: %s has no reduce-scatter and allgather; expected an algorithm "
                            "that has (ddlbench list: not nccl-tree or nvls)", shards[o->shard], o->algos[k]), 2;
    }
    if (o->optim && o->device)
        return snprintf(err, errlen, "--optimizer %s: host buffers only; expected --device cpu", optims[o->optim]), 2;
    if (o->shard && (o->check || o->cycle_ms > 0))
        return snprintf(err, errlen, "--shard: %s checks allreduced sums / fuses buckets; expected --shard without it",
                        o->check ? "--check" : "--cycle-ms"), 2;
    for (int k = 0; k < o->nalgos; k++) ddl |= !strcmp(o->algos[k], "ddl");
    if ((o->grid || o->patterns) && !ddl) {
        snprintf(err, errlen, "%s: applies to -a ddl only; expected ddl among the algorithms",
                 o->grid ? "--grid" : "--patterns");
        return 2;
    }
    if (o->cost_gpn && !o->cost_platform) {
        snprintf(err, errlen, "--gpus-per-node: applies to --platform only; expected --platform too");
        return 2;
    }
    if (o->device && o->grad_dtype != DDL_FLOAT32) {
        snprintf(err, errlen, "--grad-dtype %s: device gradients are cast on the host only; expected fp32 with "
                 "--device gpu", wire_name(o->grad_dtype));
        return 2;
    }
    if (!o->device && o->precision != KERN_PREC_FP32) {
        snprintf(err, errlen, "--precision %s: the CPU path computes fp32 only (tf32, bf16 and fp16 need --device gpu "
                 "in the CUDA build)", kern_precision_name(o->precision));
        return 2;
    }
    return 0;
}

/* The communication thread's polling interval: --poll-us, else DDL_POLL_US, else the engine's default.
 * DDL_POLL_US is checked whenever it is set. 0, or 2 (message in err). */
static int resolve_poll(train_opts *o, char *err, size_t errlen)
{
    const char *env = getenv("DDL_POLL_US");
    long v = -1;
    if (env && *env && parse_int(env, 0, 1000000, &v)) {
        snprintf(err, errlen, "DDL_POLL_US: expected an integer in 0..1000000 (microseconds; 0 = block in MPI_Wait), "
                 "got \"%.64s\"", env);
        return 2;
    }
    if (o->poll_us < 0) o->poll_us = v >= 0 ? v : engine_default_poll_us();
    /* libddl reads DDL_POLL_US when poll_us is 0 ("block"): an explicit --poll-us 0 must win over it */
    if (o->poll_us == 0 && v > 0) unsetenv("DDL_POLL_US");
    return 0;
}

int train_parse_opts(int argc, char **argv, train_opts *o, char *err, size_t errlen)
{
    *o = (train_opts){ .model = "resnet50", .batch = 32, .image = 224, .steps = 10, .warmup = 2,
                       .algos = { "ddl" }, .nalgos = 1, .bucket_mb = { 25 }, .nbuckets = 1, .first_mb = 1,
                       .poll_us = -1,
                       .timeout_s = TRAIN_TIMEOUT_S, .full = 1, .seed = 1 };
    platform_opts po = PLATFORM_OPTS_INIT;
    const opts_set sets[] = TRAIN_SETS(o, &po);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage(stdout);
    if (rc) return rc;
    o->cost_platform = po.preset, o->cost_gpn = po.gpus_per_node;
    if (o->global_batch && opts_given(&p, "--batch"))
        return snprintf(err, errlen, "--global-batch: with --batch; expected one of them (images per GPU, or per "
                        "step over all GPUs)"), 2;
    if (!o->cost_platform && kern_simulated()) { /* no --platform: the platform folder's machine (sim.env) */
        if (platform_env(&o->cost_platform, &o->cost_gpn, err, errlen)) return 2;
        po.override |= o->cost_platform != NULL; /* the folder's GPUs per node, as `ddlbench platform` made it */
    }
    if (o->cost_platform && check_platform(o, po.override, err, errlen)) return 2;
    if (check_combinations(o, err, errlen)) return 2;
    if (!o->rounds) o->rounds = rounds_default(o->nalgos * o->nbuckets, kern_simulated());
    return resolve_poll(o, err, errlen);
}

int train_fw_asked(const train_opts *o)
{
    return o->cycle_ms > 0 || o->call_us > 0 || o->contention_pct > 0 || o->comm_contention_pct > 0 ||
           o->overlap_from_pct > 0;
}

int train_check_device(const train_opts *o, char *err, size_t errlen)
{
    int n = 0, st = kern_dev_count(&n);
    if (!o->device && st != KERN_DEV_ENOSUPPORT) {
        snprintf(err, errlen, "--device cpu: this is the CUDA build (cuBLAS GEMMs on device memory); expected "
                 "--device gpu, or the CPU build build/ddlbench");
        return 2;
    }
    if (!o->device) return 0;
    if (st == KERN_DEV_ENOSUPPORT) {
        snprintf(err, errlen, "--device gpu: this build has no CUDA (built without nvcc); expected --device cpu, or "
                 "the CUDA build build/cuda/ddlbench (docs/GPU.md)");
        return 2;
    }
    if (st || n == 0) {
        snprintf(err, errlen, "--device gpu: no CUDA device (%s)", kern_dev_last_error());
        return 1;
    }
    return 0;
}
