/* cli_model_train.c — `ddlbench model train ...` (old spelling `model --train`): the training step of
 * `ddlbench train` predicted by the α-β-γ model (harness/sim/perf_step.h) for a platform of any size, without MPI or
 * a launch.
 * Writes the rows and the CSV that `train` writes (same columns; `# backend: model` and the model's
 * inputs in the provenance lines), so the `--backend model` sweep merges them like simulated ones.
 *   ddlbench model train --model resnet50 --batch 32 -a ring,ddl,auto --bucket-mb 25 (or --global-batch N)
 *                  --platform minsky --nodes 4096 [--gpus-per-node 4] [--profile p100] [--csv FILE]
 * --steps and --warmup are accepted (the sweep passes train's options) and change nothing: the
 * model has no step-to-step variation. */
#include "cli.h"
#include "cli_rows.h"
#include "cli_train.h"
#include "gbatch.h"
#include "wire.h"
#include "opts.h"
#include "outfile.h"
#include "meta.h"
#include "perf_layer.h"
#include "perf_step.h"
#include "platform.h"
#include "profile.h"
#include "shard_mem.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const shards[] = { "none", "optimizer", "gradients", "full", NULL };
static const char *const optims[] = { "sgd", "adam", "lamb", NULL };

static const opt_row rows[] = {
    CLI_ROW_ALGOS(train_opts, algos, nalgos, listbuf[0]),
    CLI_ROW_BUCKET_MB(train_opts, bucket_mb, nbuckets),
    { .name = "--shard", .type = OPT_CHOICE, .choices = shards, .off = offsetof(train_opts, shard),
      .unit = "none|optimizer|gradients|full",
      .help = "sharded data parallelism (perf_step.h): none (default, DDP's allreduce); optimizer,\n"
              "gradients (ZeRO-1, -2: buckets reduce-scattered, the update on the rank's shard, the\n"
              "parameters allgathered after it); full (ZeRO-3, FSDP: also each layer's parameters\n"
              "allgathered before its forward and its backward, prefetched one layer ahead, behind the\n"
              "reductions posted before it: one stream, as FSDP's one communicator).\n"
              "Needs an algorithm with reduce-scatter and allgather (ddlbench list)" },
    { .name = "--optimizer", .type = OPT_CHOICE, .choices = optims, .off = offsetof(train_opts, optim),
      .unit = "sgd|adam|lamb", .help = "the update's bytes: sgd (default), adam (28 B a parameter), lamb (48 B)" },
};

/* The shared rows (cli_rows.h) bound to o and to the machine po; --steps and --warmup are checked
 * and ignored. */
#define MT_SETS(o, po)                                                                                 \
    { OPTS_ONE(&cli_row_model, &(o)->model), OPTS_ONE(&cli_row_batch, &(o)->batch),                    \
      OPTS_ONE(&cli_row_global_batch, &(o)->global_batch), OPTS_ONE(&cli_row_grad_dtype, &(o)->grad_dtype),  \
      OPTS_ONE(&cli_row_image, &(o)->image), OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_first_mb, &(o)->first_mb), \
      { platform_rows, PLATFORM_ROWS, (po) }, OPTS_ONE(&cli_row_profile, &(o)->profile),              \
      OPTS_ONE(&cli_row_compute, &(o)->full), OPTS_ONE(&cli_row_csv, &(o)->csv),                       \
      OPTS_ONE(&cli_row_steps, &(o)->steps), OPTS_ONE(&cli_row_warmup, &(o)->warmup),                 \
      OPTS_ONE(&cli_row_cycle_ms, &(o)->cycle_ms), OPTS_ONE(&cli_row_call_us, &(o)->call_us),         \
      OPTS_ONE(&cli_row_contention, &(o)->contention_pct),                                            \
      OPTS_ONE(&cli_row_comm_contention, &(o)->comm_contention_pct),                                  \
      OPTS_ONE(&cli_row_overlap_from, &(o)->overlap_from_pct), OPTS_ONE(&cli_row_jitter, &(o)->jitter_pct), \
      OPTS_ONE(&cli_row_images_per_s, &(o)->images_per_s) }

static void usage(FILE *f)
{
    train_opts o;
    platform_opts po;
    const opts_set sets[] = MT_SETS(&o, &po);
    fprintf(f, "usage: ddlbench model train --platform P --nodes N [options]   (old spelling: model --train)\n"
               "  One training step per algorithm predicted by the alpha-beta-gamma model: GEMM times from the\n"
               "  profile (default: the platform's own GPU), buckets posted as backward completes them, each\n"
               "  allreduce priced by `model cost`, then SGD. Same columns as `ddlbench train --csv`; no MPI,\n"
               "  any number of nodes. One --bucket-mb value; --steps and --warmup are checked and ignored\n"
               "  (the model has no step-to-step variation).\n");
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
}

static int bad(const char *opt, const char *v, const char *expected)
{
    fprintf(stderr, "ddlbench model: %s: expected %s, got \"%s\"\n", opt, expected, v ? v : "");
    return 2;
}

/* 0 ok, 1 help printed, 2 bad option (message printed). argv[1] is the mode word (train, --train). */
static int parse(int argc, char **argv, train_opts *o, platform_opts *po)
{
    char err[300];
    const opts_set sets[] = MT_SETS(o, po);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc - 1, argv + 1, err, sizeof err);
    if (rc == OPTS_HELP) usage(stdout);
    else if (rc) fprintf(stderr, "ddlbench model: %s\n", err);
    else if (o->global_batch && opts_given(&p, "--batch")) {
        fprintf(stderr, "ddlbench model: --global-batch: with --batch; expected one of them (images per GPU, or per "
                "step over all GPUs)\n");
        rc = 2;
    } else if (o->nbuckets > 1) {
        fprintf(stderr, "ddlbench model: --bucket-mb: expected one cap with model train (one run per cap), got %d\n",
                o->nbuckets);
        rc = 2;
    }
    return rc;
}

/* Sharding's allgathers per algorithm: their busy time and the compute's wait for them, s. */
static double gathers[MAX_LIST][2];

static int predict(const train_opts *o, const model *m, const platform *pf, const profile *pr, train_row *rows)
{
    step_inputs in = { .gemm_gflops = profile_gemm_gflops(pr), .gamma = pr->reduce_ns_per_byte * 1e-9,
                       .mem_gbps = pr->mem_gbps, .full = o->full, .bucket_bytes = (size_t)o->bucket_mb[0] << 20,
                       .first_bucket_bytes = (size_t)o->first_mb << 20, .fw = train_framework(o, o->bucket_mb[0]),
                       .jitter = o->jitter_pct / 100, .sgd_gbps = pr->sgd_gbps, .shape = pr,
                       .compute_scale = o->compute_scale, .shard = o->shard,
                       .optim = o->optim };
    in.grad_bytes = wire_bytes(o->grad_dtype);
    char err[256];
    for (int a = 0; a < o->nalgos; a++) {
        step_prediction s;
        train_row *r = &rows[a];
        if (perf_step(m, pf, o->algos[a], &in, &s, err, sizeof err)) {
            fprintf(stderr, "ddlbench model: %s: %s\n", o->algos[a], err);
            return 2;
        }
        memset(r, 0, sizeof *r);
        r->algo = o->algos[a], r->wrong = -1; /* nothing checked: NA */
        r->bucket_mb = o->bucket_mb[0];
        r->buckets = s.buckets;
        r->med[F_STEP] = r->step_min = r->step_max = s.step_s;
        r->med[F_COMPUTE] = s.compute_s, r->med[F_GEMM] = s.gemm_s, r->med[F_COMM] = s.comm_s;
        r->med[F_NONGEMM] = s.nongemm_s;
        r->med[F_EXPOSED] = s.exposed_s, r->med[F_SGD] = s.sgd_s;
        r->med[F_OTHER] = 0; /* step = compute + exposed + SGD by construction */
        r->images_per_s = (double)o->batch * platform_ranks(pf) / s.step_s;
        r->slowed_s = s.slowed_s;
        r->comm_slowed_s = s.comm_slowed_s;
        r->gflops = r->ipc = -1;
        gathers[a][0] = s.gather_s, gathers[a][1] = s.gather_wait_s;
    }
    return 0;
}

/* Partial overlap's own term: each algorithm's step against the same step overlapped from the first
 * bucket (everything else as asked). 0, or 2 (message printed). */
static int print_hold_term(const train_opts *o, const model *m, const platform *pf, const profile *pr,
                           const train_row *rows)
{
    train_opts full = *o;
    train_row *ideal = calloc(MAX_LIST, sizeof *ideal);
    int rc;
    if (!ideal) return fprintf(stderr, "ddlbench model: out of memory\n"), 1;
    full.overlap_from_pct = 0;
    if (!(rc = predict(&full, m, pf, pr, ideal)))
        for (int a = 0; a < o->nalgos; a++)
            printf("# partial overlap, %s: %+.4f ms a step (exposed %.4f ms; %.4f ms when overlapped from the "
                   "first bucket), nothing enqueued before %g%% of the gradients are ready\n", rows[a].algo,
                   (rows[a].med[F_STEP] - ideal[a].med[F_STEP]) * 1e3, rows[a].med[F_EXPOSED] * 1e3,
                   ideal[a].med[F_EXPOSED] * 1e3, o->overlap_from_pct);
    free(ideal);
    return rc;
}

int cli_model_train(int argc, char **argv)
{
    train_opts o = { .model = "resnet50", .batch = 32, .image = 224, .algos = { "ddl" }, .nalgos = 1,
                     .bucket_mb = { 25 }, .nbuckets = 1, .first_mb = 1, .full = 1 };
    platform_opts po = PLATFORM_OPTS_INIT;
    platform pf;
    profile pr;
    model *m = NULL;
    train_row rows[MAX_LIST];
    run_meta meta;
    char err[300], line[160];
    int rc = parse(argc, argv, &o, &po);
    if (rc) return rc == 1 ? 0 : rc;
    if (platform_from_opts(&po, &pf, err, sizeof err)) return bad("platform", err, "--preset NAME --nodes N");
    if (platform_profile(&pf, o.profile, po.override || !po.preset, &o.profile, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return 2;
    }
    if (profile_load(o.profile, &pr, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return 2;
    }
    char ferr[600], gline[200] = "";
    if (o.global_batch) {
        if (gbatch_split(o.global_batch, platform_ranks(&pf), CLI_BATCH_MAX, "--global-batch", &o.batch, NULL, ferr,
                         sizeof ferr)) {
            fprintf(stderr, "ddlbench model: %s\n", ferr);
            return 2;
        }
        gbatch_describe(o.global_batch, platform_ranks(&pf), gline, sizeof gline);
    }
    if (o.csv && outfile_check("--csv", o.csv, ferr, sizeof ferr)) { /* before any work */
        fprintf(stderr, "ddlbench model: %s\n", ferr);
        return 2;
    }
    if (model_create(o.model, (int)o.batch, (int)o.image, &m, ferr, sizeof ferr) != MODEL_OK) {
        fprintf(stderr, "ddlbench model: %s\n", ferr);
        return 2;
    }
    if (o.images_per_s && (rc = train_pin_compute(&o, &pr, ferr, sizeof ferr))) {
        fprintf(stderr, "ddlbench model: %s\n", ferr);
        goto out;
    }
    if ((rc = predict(&o, m, &pf, &pr, rows))) goto out;
    train_compare_exact(rows, o.nalgos);
    int p = platform_ranks(&pf);
    printf("# ddlbench model --train: %s, batch %ld, %s %d nodes x %d GPUs = %d ranks, profile %s "
           "(alpha-beta-gamma model, not simulated)\n",
           o.model, o.batch, pf.name, pf.nodes, pf.gpus_per_node, p, o.profile);
    char links[400];
    platform_describe(&pf, links, sizeof links);
    printf("# links: %s\n", links);
    framework fw = train_framework(&o, o.bucket_mb[0]);
    char fdesc[256], jdesc[200];
    fw_describe(&fw, fdesc, sizeof fdesc);
    snprintf(jdesc, sizeof jdesc, "%g%% mean extra GEMM time (Exp); priced at the slowest rank's expectation, "
             "1 + %g x H(%d)", o.jitter_pct, o.jitter_pct / 100, p);
    if (!fw_ideal(&fw)) printf("# framework: %s\n", fdesc);
    char cdesc[300];
    printf("# compute model: %s\n", train_compute_model(&o, &pr, cdesc, sizeof cdesc));
    if (o.jitter_pct > 0) printf("# jitter: %s\n", jdesc);
    if (*gline) printf("# %s (strong scaling)\n", gline);
    if (o.grad_dtype != DDL_FLOAT32)
        printf("# gradients allreduced in %s (%zu bytes an element; compute at profile %s's rates)\n",
               wire_name(o.grad_dtype), wire_bytes(o.grad_dtype), o.profile);
    printf(
        "#  algo bucket bkts   step_ms       min       max       iqr   compute      gemm   nongemm      comm   exposed "
        "      sgd     other    vs_best   images/s  wrong\n"); /* train's columns (cli_train_out.c) */
    for (int a = 0; a < o.nalgos; a++) train_print_row(stdout, 0, &o, p, &rows[a]);
    for (int a = 0; a < o.nalgos && (o.shard || o.optim); a++)
        printf("# sharding %s, optimizer %s, %s: allgathers %.4f ms a step (in comm), compute waited %.4f ms for "
               "them (in compute)\n", shard_mode_name(o.shard), optim_name(o.optim), rows[a].algo,
               gathers[a][0] * 1e3, gathers[a][1] * 1e3);
    for (int a = 0; a < o.nalgos && o.contention_pct > 0; a++) /* the effect's own term */
        printf("# contention, %s: %+.4f ms of compute a step (in gemm and nongemm), backward beside its allreduces\n",
               rows[a].algo, rows[a].slowed_s * 1e3);
    for (int a = 0; a < o.nalgos && o.comm_contention_pct > 0; a++)
        printf("# comm contention, %s: %+.4f ms of allreduce a step (in comm), its allreduces beside backward\n",
               rows[a].algo, rows[a].comm_slowed_s * 1e3);
    if (o.overlap_from_pct > 0 && (rc = print_hold_term(&o, m, &pf, &pr, rows))) goto out;
    meta_local(argc, argv, NULL, &meta);
    snprintf(meta.mpi, sizeof meta.mpi, "none: alpha-beta-gamma model, no launch");
    snprintf(meta.blas, sizeof meta.blas, "modelled: %.6g GFLOP/s (profile %s)", profile_gemm_gflops(&pr), o.profile);
    snprintf(meta.device, sizeof meta.device, "modelled: profile %s", o.profile);
    snprintf(meta.hosts, sizeof meta.hosts, "none: %d modelled ranks", p);
    snprintf(line, sizeof line, "%s, %d nodes x %d GPUs", pf.name, pf.nodes, pf.gpus_per_node);
    meta_add(&meta, "model_platform", line);
    meta_add(&meta, "counters", "unavailable: alpha-beta-gamma model (nothing runs)");
    meta_add(&meta, "compute", cli_compute_desc(o.full));
    meta_add(&meta, "compute_model", cdesc);
    if (o.jitter_pct > 0) meta_add(&meta, "jitter", jdesc);
    if (*gline) meta_add(&meta, "global_batch", gline);
    if (o.grad_dtype != DDL_FLOAT32) meta_add(&meta, "grad_dtype", wire_name(o.grad_dtype));
    if (!fw_ideal(&fw)) meta_add(&meta, "framework", fdesc);
    if (o.csv && train_write_results(&meta, &o, p, rows, o.nalgos)) rc = 1; /* says why */
out:
    model_free(m);
    return rc;
}
