/* cli_allreduce.c — `ddlbench allreduce`, `reduce-scatter` and `allgather`: option parsing (pure; see
 * bench_allreduce_parse) and main, shared: the subcommand's name picks the collective.
 * Options (the option table, opts.h) are parsed before MPI starts, so bad input costs no launch and exits 2 on every
 * rank;
 * only the rank the launcher calls 0 (or a lone process) prints. */
#include "bench_allreduce.h"
#include "meta.h"
#include "cli.h"
#include "compute.h"
#include "cli_rows.h"
#include "cost_hook.h"
#include "platform.h"
#include "opts.h"
#include "devmem.h"
#include "parse.h"
#include "rank.h"
#include "guard.h"
#include "outfile.h"
#include "profile.h"
#include "sim.h"
#include "watchdog.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AR_SIZE_MAX ((size_t)1 << 40) /* 1 TiB: far above any buffer this machine can hold */
#define AR_TIMEOUT_S 60               /* watchdog base per iteration: see bench_allreduce.c */

static const char *const devices[] = { "cpu", "gpu", NULL };
static const char *const places[] = { "both", "out", "in", NULL }; /* BENCH_PLACE_* */

static int dtype(const char *v, void *dst) { return ddl_dtype_parse(v, dst); }
static int op(const char *v, void *dst) { return ddl_op_parse(v, dst); }

static int label_check(const char *v, char *want, size_t wantlen)
{
    if (*v && !strchr(v, ',') && !strchr(v, '"')) return 0;
    snprintf(want, wantlen, "a name without , or \"");
    return 1;
}

#define O(f) offsetof(bench_allreduce_opts, f)
static const opt_row rows[] = {
    { .name = "--min-bytes", .alias = "-b", .type = OPT_SIZE, .min = 1, .max = AR_SIZE_MAX, .off = O(min_bytes),
      .help = "smallest message in bytes, K/M/G suffixes, whole elements of -d (default 1K)" },
    { .name = "--max-bytes", .alias = "-e", .type = OPT_SIZE, .min = 1, .max = AR_SIZE_MAX, .off = O(max_bytes),
      .help = "largest message (default 64M)" },
    { .name = "--factor", .alias = "-f", .type = OPT_LONG, .min = 2, .max = 1024, .off = O(factor),
      .help = "size factor between steps (default 2)" },
    CLI_ROW_ALGOS_HELP(bench_allreduce_opts, algos, nalgos, algo_buf, "default: every registered one"),
    { .name = "--dtype", .alias = "-d", .type = OPT_CUSTOM, .unit = "TYPE", .off = O(dtype), .parse = dtype,
      .expect = "float32|float64|float16|bfloat16|int32",
      .help = "float32 | float64 | float16 | bfloat16 | int32 (default float32)" },
    { .name = "--op", .alias = "-o", .type = OPT_CUSTOM, .unit = "OP", .off = O(op), .parse = op,
      .expect = "sum|max|min",
      .help = "sum | max | min (default sum; allgather reduces nothing and ignores it)" },
    { .name = "--warmup", .alias = "-w", .type = OPT_LONG, .min = 0, .max = 1000000, .off = O(warmup),
      .help = "warm-up iterations per size (default 5)" },
    { .name = "--iters", .alias = "-n", .type = OPT_LONG, .min = 1, .max = 1000000, .off = O(iters),
      .help = "timed iterations per size (default 20); a row whose p99 is over 2x its median, or\n"
              "its min under half of it, is marked \"#   noisy\" (separate runs may differ as much)" },
    { .name = "-c", .type = OPT_INT, .min = 0, .max = 1, .unit = "0|1", .off = O(check), .expect = "0 or 1",
      .help = "check every result (default 1; 0 under simulation, whose buffers hold no\ndata: #wrong reads N/A); any "
              "wrong element makes the exit status 1" },
    { .name = "--csv", .type = OPT_STRING, .unit = "FILE", .off = O(csv),
      .help = "also write the rows as CSV, whole at the end (FILE.tmp, renamed; a FIFO or a\n"
              "device such as /dev/null is written through; checked before the run)" },
    { .name = "--json", .type = OPT_STRING, .unit = "FILE", .off = O(json),
      .help = "the same rows as one JSON document (provenance, then rows; results/README.md),\n"
              "written and checked the same way" },
    { .name = "--per-rank", .type = OPT_FLAG, .off = O(per_rank),
      .help = "each rank's own median (min, p99) per size: a '#' line under each row (median\n"
              "of ranks, MAD, slowest rank and its lag, stragglers: > 2 MAD and > 10% over the\n"
              "median, judged from 3 ranks: NA below), and in the CSV/JSON a rank column (all = the\n"
              "row above) with one row per rank" },
    { .name = "--place", .type = OPT_CHOICE, .choices = places, .off = O(place),
      .help = "both (default) | out | in: time out-of-place and in-place, or only one of them" },
    { .name = "--label", .type = OPT_STRING, .unit = "S", .off = O(label), .check = label_check,
      .help = "name the rows S instead of the algorithm (one algorithm only), e.g. to tag\n"
              "runs of `mpi` under different MCA settings" },
    { .name = "--device", .type = OPT_CHOICE, .choices = devices, .off = O(device),
      .help = "buffers in host (default) or GPU memory (the CUDA build, build/cuda/ddlbench):\n"
              "libddl moves device buffers (CUDA-aware MPI or staged); copy = a D2D copy" },
    { .name = "--copy-reps", .type = OPT_LONG, .min = 1, .max = 1000, .off = O(copy_reps),
      .help = "memcpy repetitions for the copy-bandwidth roofline column (default 5)" },
    { .name = "--timeout", .type = OPT_LONG, .min = 0, .max = 1000000, .unit = "S", .off = O(timeout_s),
      .expect = "seconds, an integer in 0..1000000",
      .help = "watchdog: an iteration not done in S s prints one line per rank and aborts\n"
              "the job, exit 1 (0 = off; default: 60 s + 1 s per 10 MB of the message); setup,\n"
              "test data and the checks get S s + 1 s per 10 MB" },
};
#undef O

#define AR_SETS(o, po)                                                                                 \
    { OPTS_SET(rows, (o)), OPTS_ONE(&cli_row_profile, &(o)->profile),                                  \
      { platform_rows + PLATFORM_ROW_PLATFORM, 1, (po) }, { platform_rows + PLATFORM_ROW_GPN, 1, (po) } }

void bench_allreduce_usage(const bench_allreduce_opts *o)
{
    const int ar = o->coll == BENCH_ALLREDUCE;
    bench_allreduce_opts u;
    platform_opts po;
    const opts_set sets[] = AR_SETS(&u, &po);
    printf("usage: ddlbench %s [options]      (start it with mpirun or harness/scripts/mpilaunch.sh)\n"
           "Sweeps message sizes over %s algorithms%s; times are the maximum over ranks per\n"
           "iteration, then median (min, p99) over iterations; out-of-place and in-place (--place).\n",
           o->cmd, o->cmd, ar ? "" : " (those that have one)");
    if (!ar)
        printf("Sizes (-b, -e, size_B) as nccl-tests': the whole vector of p x count elements, count per rank\n"
               "(ddl_%s's %s), so %s; rounded down to whole elements per rank.\n"
               "The count column is p x count.\n",
               o->coll == BENCH_REDUCE_SCATTER ? "reduce_scatter" : "allgather",
               o->coll == BENCH_REDUCE_SCATTER ? "recvcount" : "sendcount",
               o->coll == BENCH_REDUCE_SCATTER ? "the input of each rank" : "the output of each rank");
    opts_usage(stdout, sets, (int)(sizeof sets / sizeof sets[0]));
    printf("--profile: the reduction cost the simulation build injects (sim build; run it with -c 0); the\n"
           "real build ignores it. Without -a: every registered algorithm.\n"
           "--platform P [--gpus-per-node G]: the machine's links (a preset or a platform file; G default:\n"
           "its GPUs per node): they size libddl's segments and depth (ddl_config.machine: the\n"
           "bandwidth-delay product) and are auto's cost model; under simulation, the platform simulated.\n"
           "Columns: algbw = bytes/time; busbw = algbw*%s/p (nccl-tests' bus bandwidth); copy = memcpy GB/s\n"
           "of the same bytes, run concurrently on every rank in this run; bus/copy = busbw/copy.\n"
           "Exit status: 0 ok, 1 wrong results or a run failed, 2 bad options.\n",
           ar ? "2(p-1)" : "(p-1)");
}

int bench_allreduce_parse(int argc, char **argv, bench_allreduce_opts *o, char *err, size_t errlen)
{
    static const char *const cmds[] = { "allreduce", "reduce-scatter", "allgather" };
    memset(o, 0, sizeof *o);
    o->cmd = cmds[0];
    for (int c = 0; argc > 0 && c < 3; c++)
        if (!strcmp(argv[0], cmds[c])) o->coll = (bench_coll)c, o->cmd = cmds[c];
    o->min_bytes = 1024;
    o->max_bytes = (size_t)64 << 20;
    o->factor = 2;
    o->dtype = DDL_FLOAT32;
    o->op = DDL_SUM;
    o->warmup = 5;
    o->iters = 20;
    o->copy_reps = 5;
    o->timeout_s = AR_TIMEOUT_S;
    o->check = !kern_simulated(); /* simulated buffers hold no data: nothing to check (N/A) */
    char msg[300];
    platform_opts po = PLATFORM_OPTS_INIT;
    const opts_set sets[] = AR_SETS(o, &po);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, msg, sizeof msg);
    if (rc == OPTS_HELP) o->help = 1;
    if (rc == OPTS_HELP) return 0;
    if (rc) return snprintf(err, errlen, "%s: %s", o->cmd, msg), 2;
    o->platform = po.preset, o->gpn = (int)po.gpus_per_node;
    if (o->gpn && !o->platform)
        return snprintf(err, errlen, "%s: --gpus-per-node: applies to --platform only", o->cmd), 2;
    o->timeout_given = opts_given(&p, "--timeout") > 0;
    for (int k = 0; k < o->nalgos && o->coll != BENCH_ALLREDUCE; k++)
        if (!(ddl_algo_flags(ddl_algo_find(o->algos[k])) & DDL_ALGO_RSAG)) {
            snprintf(err, errlen, "%s: -a: algorithm \"%s\" has no %s (see ddlbench list)", o->cmd, o->algos[k],
                     o->cmd);
            return 2;
        }
    size_t es = ddl_dtype_size(o->dtype);
    if (o->min_bytes % es || o->max_bytes % es) { /* never rounded down to whole elements */
        snprintf(err, errlen, "%s: %s: expected a multiple of %zu bytes (one %s element), got %zu bytes", o->cmd,
                 o->min_bytes % es ? "-b" : "-e", es, ddl_dtype_name(o->dtype),
                 o->min_bytes % es ? o->min_bytes : o->max_bytes);
        return 2;
    }
    if (o->max_bytes < o->min_bytes) {
        snprintf(err, errlen, "%s: -e: expected at least -b (%zu bytes), got %zu bytes", o->cmd, o->min_bytes,
                 o->max_bytes);
        return 2;
    }
    for (int k = 0, all = !o->nalgos; all && k < ddl_algo_count() && o->nalgos < AR_MAX_ALGOS; k++) /* no -a */
        if (o->coll == BENCH_ALLREDUCE || (ddl_algo_flags(k) & DDL_ALGO_RSAG)) o->algos[o->nalgos++] = ddl_algo_name(k);
    if (o->label && o->nalgos != 1) {
        snprintf(err, errlen, "%s: --label: expected exactly one algorithm in -a, got %d", o->cmd, o->nalgos);
        return 2;
    }
    return 0;
}

/* --platform: the links of this job's shape (ranks / G nodes of G; G = --gpus-per-node, else the
 * platform's own when it divides the ranks), with the profile's γ. 0, or 2 with err. */
static int machine_of(bench_allreduce_opts *o, cost_hook *h, char *err, size_t errlen)
{
    platform pf;
    int size, g = o->gpn;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!g) {
        if (platform_lookup(&pf, o->platform, err, errlen)) return 2;
        g = pf.gpus_per_node < size ? pf.gpus_per_node : size;
        if (size % g) return snprintf(err, errlen, "--platform: its %d GPUs per node do not divide the %d ranks; "
                                      "expected --gpus-per-node", g, size), 2;
    }
    if (cost_hook_init(h, o->platform, size, g, o->gamma, err, errlen)) return 2;
    o->hook = h;
    return 0;
}

int cli_allreduce_main(int argc, char **argv)
{
    bench_allreduce_opts o;
    char err[256];
    int rc;
    if (bench_allreduce_parse(argc, argv, &o, err, sizeof err)) {
        fprintf(stderr, "%s\n", err); /* once: other ranks hold stderr until MPI starts (rank.h) */
        return 2;
    }
    if (o.help) {
        if (launcher_rank() == 0) bench_allreduce_usage(&o);
        return 0;
    }
    long env_gpn = 0; /* under simulation, no --platform: the platform folder's machine (sim.env) */
    if (!o.platform && kern_simulated() && platform_env(&o.platform, &env_gpn, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", o.cmd, err);
        return 2;
    }
    if (env_gpn) o.gpn = (int)env_gpn;
    char why[600] = "";
    const char *what = ""; /* outfile_check's message names the option itself */
    if (guard_fault_init(why, sizeof why) || (o.csv && outfile_check("--csv", o.csv, why, sizeof why)) ||
        (o.json && outfile_check("--json", o.json, why, sizeof why)) ||
        guard_mem_check(2.0 * (double)o.max_bytes, "-e (two buffers)", "a smaller -e", why, sizeof why)) {
        fprintf(stderr, "%s: %s%s\n", o.cmd, what, why);
        return 2;
    }
    if (o.profile) { /* the simulation's γ; the real build stores and ignores it */
        profile pr;
        if (profile_load(o.profile, &pr, why, sizeof why)) {
            fprintf(stderr, "%s: %s\n", o.cmd, why);
            return 2;
        }
        kern_sim_set_rates(pr.gemm_gflops_fp32, pr.reduce_ns_per_byte);
        o.gamma = pr.reduce_ns_per_byte * 1e-9;
        kern_sim_set_reduce_table(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns); /* sorted, checked */
    }
    int ndev = 0, dst = o.device ? kern_dev_count(&ndev) : KERN_DEV_OK;
    if (o.device && (dst != KERN_DEV_OK || ndev == 0)) {
        fprintf(stderr, dst == KERN_DEV_ENOSUPPORT ? "%s: --device gpu: this build has no CUDA; expected "
                "--device cpu, or the CUDA build build/cuda/ddlbench\n" : "%s: --device gpu: no CUDA device (%s)\n",
                o.cmd, kern_dev_last_error());
        return dst == KERN_DEV_ENOSUPPORT ? 2 : 1;
    }
    MPI_Init(&argc, &argv);
    rank_release_stderr(); /* from here a failing rank says why itself */
    char who[32];
    snprintf(who, sizeof who, "ddlbench %s", o.cmd);
    if (o.timeout_s && watchdog_start(who)) {
        fprintf(stderr, "%s: cannot start the watchdog thread\n", o.cmd);
        MPI_Finalize();
        return 1;
    }
    cost_hook hook;
    if (o.platform && (rc = machine_of(&o, &hook, why, sizeof why))) {
        if (launcher_rank() == 0) fprintf(stderr, "%s: %s\n", o.cmd, why);
        watchdog_stop();
        MPI_Finalize();
        return rc;
    }
    run_meta meta;
    meta_collect(MPI_COMM_WORLD, argc, argv, NULL, &meta);
    if (kern_simulated()) /* not this host's CPU: the simulator's links time the run */
        snprintf(meta.device, sizeof meta.device, "simulated: SMPI ranks, links of %s", o.platform ? o.platform :
                 "the simulator's platform.xml");
    o.meta = &meta;
    rc = bench_allreduce_run(&o);
    watchdog_stop();
    MPI_Finalize();
    return rc;
}
