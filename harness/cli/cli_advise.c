/* cli_advise.c — `ddlbench advise`: the bucket cap and first-bucket size with the least exposed
 * communication for a model on a platform and GPU count, from the α-β-γ step schedule (advise.h) and,
 * with --sim, from the simulator (cli_advise_sim.c); printed in the units of PyTorch DDP
 * (bucket_cap_mb, MiB; its first bucket is fixed at 1 MiB) and Horovod (HOROVOD_FUSION_THRESHOLD,
 * bytes; no separate first bucket). No MPI. */
#include "cli.h"
#include "cli_advise.h"
#include "cli_rows.h"
#include "gbatch.h"
#include "wire.h"
#include "opts.h"
#include "profile.h"
#include "shard_mem.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long default_caps[] = { 1, 2, 5, 10, 15, 25, 35, 50, 64, 100, 128, 256, 0 };
static const long default_firsts[] = { 0, 1, 2, 5, 10 };

/* A registered algorithm with a cost model (the registry's DDL_ALGO_COST: a new row is advised too). */
static int algo_check(const char *v, char *want, size_t wantlen)
{
    int i = ddl_algo_find(v);
    if (i >= 0 && (ddl_algo_flags(i) & DDL_ALGO_COST)) return 0;
    size_t used = (size_t)snprintf(want, wantlen, "an algorithm with a cost model (");
    for (int k = 0, n = 0; k < ddl_algo_count() && used < wantlen; k++)
        if (ddl_algo_flags(k) & DDL_ALGO_COST)
            used += (size_t)snprintf(want + used, wantlen - used, "%s%s", n++ ? ", " : "", ddl_algo_name(k));
    if (used < wantlen) snprintf(want + used, wantlen - used, ")");
    return 1;
}

static const char *const optims[] = { "sgd", "adam", "lamb", NULL };

static const opt_row rows[] = {
    { .name = "--gpus", .type = OPT_LONG, .min = 1, .max = PLATFORM_MAX_HOSTS, .off = offsetof(advise_opts, gpus),
      .help = "GPUs (ranks) in all: a multiple of the GPUs per node, or fewer than one node\n(instead of --nodes)" },
    { .name = "--algo", .type = OPT_STRING, .unit = "A", .off = offsetof(advise_opts, algo), .check = algo_check,
      .help = "an algorithm with a cost model: ring (one channel, one rail) | rhd | ddl | nccl-ring |\n"
              "nccl-tree | mpi | auto (default ddl; auto = per bucket what the library's auto\npicks among them, "
              "ddl_auto_choose)" },
    { .name = "--caps", .type = OPT_LIST, .min = 0, .max = CLI_BUCKET_MB_MAX, .off = offsetof(advise_opts, caps),
      .count_off = offsetof(advise_opts, ncaps), .max_items = ADV_MAX,
      .help = "bucket caps to try, MiB, 0 = one bucket (default 1,2,5,...,256,0)" },
    { .name = "--firsts", .type = OPT_LIST, .min = 0, .max = CLI_BUCKET_MB_MAX, .off = offsetof(advise_opts, firsts),
      .count_off = offsetof(advise_opts, nfirsts), .max_items = ADV_MAX,
      .help = "first-bucket caps to try, MiB, 0 = same as the cap (default 0,1,2,5,10)" },
    { .name = "--limit", .type = OPT_DOUBLE, .min = 0.001, .max = 100, .unit = "PCT",
      .off = offsetof(advise_opts, limit), .expect = "a percentage in (0, 100]",
      .help = "instead of the bucket advice: per algorithm with a cost model, the largest GPU\n"
              "count (1, 2, 4, ... up to --nodes nodes) keeping >= PCT% per-GPU efficiency\n"
              "against one node, as is and with the NICs' bandwidth or the step's compute\n"
              "halved or doubled (25 MiB buckets; --global-batch: strong scaling)" },
    { .name = "--sim", .type = OPT_FLAG, .off = offsetof(advise_opts, sim),
      .help = "also run the grid in the simulator (build/sim/ddlbench-sim; one launch\nper first-bucket size) and "
              "advise from its figures" },
    { .name = "--shards", .type = OPT_FLAG, .off = offsetof(advise_opts, shards),
      .help = "also every sharding (none, optimizer, gradients, full) with every algorithm that\nhas reduce-scatter "
              "and allgather: the communication left unhidden and the memory a GPU" },
    { .name = "--optimizer", .type = OPT_CHOICE, .choices = optims, .off = offsetof(advise_opts, optim),
      .unit = "sgd|adam|lamb", .help = "the optimizer of --shards (default sgd)" },
    { .name = "--sim-exe", .type = OPT_STRING, .unit = "PATH", .off = offsetof(advise_opts, sim_exe),
      .help = "the simulation binary (default: sim/ddlbench-sim beside this one)" },
};

#define ADVISE_SETS(o, po)                                                                             \
    { OPTS_ONE(&cli_row_model, &(o)->model), { platform_rows, PLATFORM_ROW_LINKS, (po) },                 \
      { platform_rows + PLATFORM_ROW_PARTIAL, 2, (po) }, OPTS_SET(rows, (o)),                                      \
      OPTS_ONE(&cli_row_batch, &(o)->batch), OPTS_ONE(&cli_row_global_batch, &(o)->global_batch),       \
      OPTS_ONE(&cli_row_grad_dtype, &(o)->grad_dtype),                                                 \
      OPTS_ONE(&cli_row_image, &(o)->image),                                                           \
      OPTS_ONE(&cli_row_profile, &(o)->profile) }

static void usage(FILE *f)
{
    advise_opts o;
    platform_opts po;
    const opts_set sets[] = ADVISE_SETS(&o, &po);
    fprintf(f, "usage: ddlbench advise --model M --platform P (--nodes N | --gpus N) [options]\n"
               "The gradient bucket cap and first-bucket size with the least exposed communication per step\n"
               "(communication still running after the backward pass), over a grid of both, from the\n"
               "alpha-beta-gamma model of the step `ddlbench train` runs (its default full compute: GEMMs at the\n"
               "device profile's rate, the other layer kernels and SGD at its memory rate), buckets as train\n"
               "builds them, one allreduce at a time. Sizes in MiB, as PyTorch DDP's\n"
               "bucket_cap_mb and ddlbench train --bucket-mb; Horovod's HOROVOD_FUSION_THRESHOLD in bytes.\n"
               "--platform: a preset with its links (ddlbench platform --help) or a platform file; --batch\n"
               "default 32, 20 for resnet101-22k (as the study); --profile default: the platform's own GPU.\n");
    char rule[200];
    advise_rule(rule, sizeof rule);
    fprintf(f, "The advice (\"best\"), by this rule:\n  %s.\n"
               "Why a tolerance: the model charges each allreduce its latency but none of a framework's per-bucket\n"
               "cost (hook, launch: tens of us), so exposed times this close are a tie that fewer, larger buckets\n"
               "win; the least exposed setting is printed beside it. Each setting's exposed time is also shown as\n"
               "a share of its whole step (forward + backward + exposed + SGD).\n", rule);
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
    fprintf(f, "Exit status: 0, 1 a simulation failed, 2 bad input.\n");
}

/* 0 ok, 1 help printed, 2 bad input (message in err). */
static int parse(int argc, char **argv, advise_opts *o, char *err, size_t errlen)
{
    platform_opts po = PLATFORM_OPTS_INIT;
    const opts_set sets[] = ADVISE_SETS(o, &po);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) usage(stdout);
    if (rc) return rc;
    o->preset = po.preset, o->gpn = po.gpus_per_node, o->override = po.override;
    if (platform_gpn_check(o->preset, o->gpn, o->override, err, errlen)) return 2;
    if (!o->model || !o->preset || (!o->gpus && po.nodes < 0))
        return snprintf(err, errlen, "expected --model, --platform and --nodes or --gpus (see --help)"), 2;
    if (o->global_batch && opts_given(&p, "--batch"))
        return snprintf(err, errlen, "--global-batch: with --batch; expected one of them (images per GPU, or per step "
                        "over all GPUs)"), 2;
    if (o->gpus && po.nodes >= 0) return snprintf(err, errlen, "--nodes: expected --nodes or --gpus, not both"), 2;
    if (!strcmp(o->preset, "custom"))
        return snprintf(err, errlen,
                        "--platform: expected a preset with its links (ddlbench platform --help) or a platform file, "
                        "got \"custom\""),
               2;
    if (po.nodes >= 0) { /* --nodes N: N whole nodes of the platform's (or --gpus-per-node) GPUs */
        platform pf;
        if (platform_from_opts(&po, &pf, err, errlen)) return 2;
        o->gpus = platform_ranks(&pf);
    }
    return 0;
}

static void defaults(advise_opts *o)
{
    memset(o, 0, sizeof *o);
    o->algo = "ddl";
    o->image = 224;
    o->ncaps = (int)(sizeof default_caps / sizeof default_caps[0]);
    memcpy(o->caps, default_caps, sizeof default_caps);
    o->nfirsts = (int)(sizeof default_firsts / sizeof default_firsts[0]);
    memcpy(o->firsts, default_firsts, sizeof default_firsts);
}

/* The platform at this GPU count: whole nodes of gpn, or one node of fewer. 0 or 2 (printed). */
static int make_platform(const advise_opts *o, platform *pf)
{
    char err[256];
    if (platform_lookup(pf, o->preset, err, sizeof err)) return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    int g = o->gpn ? (int)o->gpn : pf->gpus_per_node;
    if (o->gpus % g && o->gpus > g) {
        fprintf(stderr,
                "ddlbench advise: --gpus: expected a multiple of %d GPUs per node (or fewer than %d), got %ld\n", g, g,
                o->gpus);
        return 2;
    }
    long nodes = o->gpus < g ? 1 : o->gpus / g;
    if (platform_init_partial(pf, o->preset, (int)nodes, o->gpus < g ? (int)o->gpus : g, err, sizeof err))
        return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    return 0;
}

/* The grid of exposed times, ms; then the same as a share of each setting's step, %. */
static void print_grid(const advise_opts *o, const char *what, const double *exposed, const double *step)
{
    for (int pct = 0; pct < 2; pct++) {
        printf("# %s: %s (rows: bucket cap MiB, 0 = one bucket; columns: first bucket MiB, 0 = the cap)\n#  cap\\first",
               what, pct ? "exposed communication, % of the step" : "exposed communication per step, ms");
        for (int f = 0; f < o->nfirsts; f++) printf(" %8ld", o->firsts[f]);
        printf("\n");
        for (int c = 0; c < o->ncaps; c++) {
            printf("  %9ld", o->caps[c]);
            for (int f = 0; f < o->nfirsts; f++) {
                int i = f * o->ncaps + c;
                if (pct) printf(" %7.2f%%", step[i] > 0 ? 100 * exposed[i] / step[i] : 0.0);
                else printf(" %8.2f", exposed[i] * 1e3);
            }
            printf("\n");
        }
    }
}

/* The advice among the cells whose first bucket is want_first (-1 = any). */
static int best_cell(const advise_opts *o, const advise_out *cells, const double *exposed, long want_first)
{
    unsigned char use[ADV_MAX * ADV_MAX];
    for (int i = 0; i < o->ncaps * o->nfirsts; i++) use[i] = want_first < 0 || o->firsts[i / o->ncaps] == want_first;
    return advise_pick(cells, exposed, use, o->ncaps * o->nfirsts);
}

/* The share of cell i's step that its exposed time is, %. */
static double share(const double *exposed, const double *step, int i)
{
    return step[i] > 0 ? 100 * exposed[i] / step[i] : 0;
}

static void print_advice(const advise_opts *o, const advise_out *cells, const double *exposed, const double *step,
                         const char *src)
{
    int all = best_cell(o, cells, exposed, -1), ddp = best_cell(o, cells, exposed, 1),
        hvd = best_cell(o, cells, exposed, 0);
    int least = advise_least(exposed, NULL, o->ncaps * o->nfirsts);
    const advise_out *b = &cells[all];
    char rule[200];
    advise_rule(rule, sizeof rule);
    printf("best (%s): --bucket-mb %ld --first-bucket-mb %ld: %d buckets, exposed communication %.2f ms per step "
           "(%.2f%% of its %.1f ms step)\n", src, o->caps[all % o->ncaps], o->firsts[all / o->ncaps], b->buckets,
           exposed[all] * 1e3, share(exposed, step, all), step[all] * 1e3);
    printf("  rule: %s; the least exposed: --bucket-mb %ld --first-bucket-mb %ld, %d buckets, %.2f ms (%.2f%%)%s\n",
           rule, o->caps[least % o->ncaps], o->firsts[least / o->ncaps], cells[least].buckets, exposed[least] * 1e3,
           share(exposed, step, least), least == all ? ", the same setting" : "");
    if (ddp >= 0)
        printf(
            "  PyTorch DDP:  DistributedDataParallel(model, bucket_cap_mb=%ld)   (its first bucket is fixed at 1 MiB): "
            "exposed %.2f ms (%.2f%%)\n",
            o->caps[ddp % o->ncaps], exposed[ddp] * 1e3, share(exposed, step, ddp));
    if (hvd >= 0 && o->caps[hvd % o->ncaps])
        printf("  Horovod:      HOROVOD_FUSION_THRESHOLD=%ld   (%ld MiB; fusion has no separate first bucket): exposed "
               "%.2f ms (%.2f%%)\n",
               o->caps[hvd % o->ncaps] << 20, o->caps[hvd % o->ncaps], exposed[hvd] * 1e3, share(exposed, step, hvd));
    else if (hvd >= 0)
        printf(
            "  Horovod:      one fused allreduce after backward (no fusion threshold fits; exposed %.2f ms, %.2f%%)\n",
            exposed[hvd] * 1e3, share(exposed, step, hvd));
    else
        printf("  Horovod:      (not advised: --firsts has no 0, and Horovod has no separate first bucket)\n");
    if (ddp < 0) printf("  PyTorch DDP:  (not advised: --firsts has no 1, DDP's fixed first bucket)\n");
}

/* --shards: every sharding with every algorithm that has reduce-scatter, allgather and a cost model,
 * at a 25 MiB cap and a 1 MiB first bucket (DDP's): the communication the step does not hide
 * (exposed, plus full sharding's compute waiting on allgathers, or the allgather after the update of
 * optimizer and gradients sharding) and each GPU's memory (fp32, as the
 * step is priced; shard_mem.h). The advice: the least unhidden communication, then the least memory. */
static int print_shards(const advise_opts *o, const advise_in *base)
{
    char err[256];
    double best = -1, best_mem = 0;
    const char *best_algo = NULL;
    int best_mode = 0, p = platform_ranks(base->pf);
    printf("# sharding (--optimizer %s, fp32; bucket cap 25 MiB, first 1 MiB): unhidden = exposed + waits for "
           "allgathers (+ the one after the update)\n#  %-10s %-10s %12s %10s %14s\n",
           optim_name(o->optim), "algo", "shard", "unhidden_ms", "step_ms", "memory_GB_gpu");
    for (int a = 0; a < ddl_algo_count(); a++) {
        unsigned fl = ddl_algo_flags(a);
        if (!(fl & DDL_ALGO_COST) || !(fl & DDL_ALGO_RSAG)) continue;
        for (int s = 0; s < SHARD_MODES; s++) {
            advise_in in = *base;
            advise_out c;
            shard_bytes mb;
            in.algo = ddl_algo_name(a), in.shard = s, in.optim = o->optim;
            if (advise_eval(&in, 25u << 20, 1u << 20, &c, err, sizeof err))
                return fprintf(stderr, "ddlbench advise: --shards: %s\n", err), 2;
            shard_mem(model_param_count(in.m), 0, s, o->optim, PREC_FP32, p, &mb);
            double un = c.exposed_s + c.gather_wait_s + (s == SHARD_FULL ? 0 : c.gather_s);
            printf("   %-10s %-10s %12.3f %10.3f %14.3f\n", in.algo, shard_mode_name(s), un * 1e3, c.step_s * 1e3,
                   mb.total / 1e9);
            if (best < 0 || un < best - 1e-12 || (un <= best + 1e-12 && mb.total < best_mem))
                best = un, best_mem = mb.total, best_algo = in.algo, best_mode = s;
        }
    }
    if (best_algo)
        printf("best sharding: --shard %s with %s: %.3f ms of communication unhidden, %.3f GB a GPU of parameters, "
               "gradients and %s state\n", shard_mode_name(best_mode), best_algo, best * 1e3, best_mem / 1e9,
               optim_name(o->optim));
    return 0;
}

static int run(const advise_opts *o, const platform *pf, const advise_in *in, advise_out *cells, double *exposed,
               double *simx)
{
    char err[256];
    int n = o->ncaps * o->nfirsts, rc = 0;
    double *step = malloc((size_t)n * sizeof *step), *simstep = malloc((size_t)n * sizeof *simstep);
    if (!step || !simstep) {
        fprintf(stderr, "ddlbench advise: out of memory\n");
        rc = 1;
        goto out;
    }
    for (int i = 0; i < n; i++) {
        rc = advise_eval(in, (size_t)o->caps[i % o->ncaps] << 20, (size_t)o->firsts[i / o->ncaps] << 20, &cells[i], err,
                         sizeof err);
        if (rc) {
            fprintf(stderr, "ddlbench advise: %s\n", err);
            goto out;
        }
        exposed[i] = cells[i].exposed_s, step[i] = cells[i].step_s;
    }
    printf("# ddlbench advise: %s batch %ld (image %ld) on %s, %d GPUs (%d nodes x %d), algorithm %s, profile %s\n",
           o->model, o->batch, o->image, o->preset, platform_ranks(pf), pf->nodes, pf->gpus_per_node, o->algo,
           o->profile);
    if (o->global_batch) {
        char line[200];
        printf("# %s (strong scaling)\n", gbatch_describe(o->global_batch, platform_ranks(pf), line, sizeof line));
    }
    printf(
        "# model: the %s step, as train --compute %s (its default): forward %.1f ms, backward %.1f ms (GEMMs at %.0f "
        "GFLOP/s, other kernels at %.0f GB/s), SGD %.1f ms, gradients %.1f MiB\n",
        in->full ? "full" : "GEMM-only", in->full ? "full" : "gemm", cells[0].fwd_s * 1e3, cells[0].bwd_s * 1e3,
        in->gemm_flops / 1e9, in->full ? in->mem_gbps : 0.0, cells[0].sgd_s * 1e3,
        (double)model_param_count(in->m) * (double)(in->grad_bytes ? in->grad_bytes : 4) / 1048576.0);
    print_grid(o, "alpha-beta-gamma model", exposed, step);
    print_advice(o, cells, exposed, step, "model");
    if (!o->sim) goto out;
    if ((rc = advise_sim_grid(o, pf, simx, simstep, err, sizeof err))) {
        fprintf(stderr, "ddlbench advise: --sim: %s\n", err);
        goto out;
    }
    print_grid(o, "simulation (SMPI)", simx, simstep);
    print_advice(o, cells, simx, simstep, "simulation");
    int m = best_cell(o, cells, exposed, -1);
    printf("the model's choice in the simulation: --bucket-mb %ld --first-bucket-mb %ld: exposed %.2f ms\n",
           o->caps[m % o->ncaps], o->firsts[m / o->ncaps], simx[m] * 1e3);
out:
    free(step);
    free(simstep);
    return rc;
}

int cli_advise_main(int argc, char **argv)
{
    advise_opts o;
    defaults(&o);
    platform pf;
    profile pr;
    model *m = NULL;
    char err[256];
    int rc = parse(argc, argv, &o, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ddlbench advise: %s\n", err);
    if (rc) return rc == 1 ? 0 : rc;
    if ((rc = make_platform(&o, &pf))) return rc;
    if (o.sim && advise_sim_check(&o, err, sizeof err)) return fprintf(stderr, "ddlbench advise: --sim: %s\n", err), 2;
    if (platform_profile(&pf, o.profile, o.override, &o.profile, err, sizeof err))
        return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    if (o.global_batch &&
        gbatch_split(o.global_batch, platform_ranks(&pf), CLI_BATCH_MAX, "--global-batch", &o.batch, NULL, err,
                     sizeof err))
        return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    if (!o.batch) o.batch = strcmp(o.model, "resnet101-22k") ? 32 : 20;
    if (profile_load(o.profile, &pr, err, sizeof err)) return fprintf(stderr, "ddlbench advise: %s\n", err), 2;
    if (o.limit > 0) {
        if (o.sim) return fprintf(stderr, "ddlbench advise: --sim: not with --limit (the model's table)\n"), 2;
        return advise_limit(&o, &pf, &pr);
    }
    char merr[512];
    if (model_create(o.model, (int)o.batch, (int)o.image, &m, merr, sizeof merr))
        return fprintf(stderr, "ddlbench advise: %s\n", merr), 2;
    advise_in in = { m,           &pf, o.algo,     profile_gemm_gflops(&pr) * 1e9, pr.reduce_ns_per_byte * 1e-9,
                     pr.mem_gbps, 1,   pr.sgd_gbps, &pr, 0, 0, wire_bytes(o.grad_dtype) };
    size_t n = (size_t)o.ncaps * (size_t)o.nfirsts;
    advise_out *cells = malloc(n * sizeof *cells);
    double *exposed = malloc(n * sizeof *exposed), *simx = malloc(n * sizeof *simx);
    if (!cells || !exposed || !simx) {
        fprintf(stderr, "ddlbench advise: out of memory\n");
        rc = 1;
        goto out;
    }
    rc = run(&o, &pf, &in, cells, exposed, simx);
    if (!rc && o.shards) rc = print_shards(&o, &in);
out:
    free(cells);
    free(exposed);
    free(simx);
    model_free(m);
    return rc;
}
