/* cli_train.c — `ddlbench train`: synthetic data-parallel training steps of a ResNet under MPI.
 * For each algorithm (-a list) and bucket size (--bucket-mb list) it runs warm-up steps, then timed
 * steps; per step every figure is the maximum over ranks; the table shows medians over steps and
 * the spread (min..max) of the step time, then the projected time to train (workload.h). --csv and
 * --json write the same rows (cli_train_out.c: temporary files, renamed). */
#include "cli.h"
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
#include "outfile.h"
#include "platform.h"
#include "watchdog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -np N ddlbench train [options]\n"
            "  --model NAME        resnet50 | resnet101 | resnet101-22k (default resnet50)\n"
            "  --batch N           images per rank per step (default 32)\n"
            "  --image-size N      square image side in pixels, >= 32 (default 224)\n"
            "  -a, --algo LIST     comma list of allreduce algorithms (default ddl; see ddlbench list)\n"
            "  --bucket-mb LIST    gradient bucket caps in MB, comma list; 0 = one allreduce after the\n"
            "                      whole backward (default 25, PyTorch DDP; Horovod uses 128)\n"
            "  --first-bucket-mb N cap of the first bucket (default 1, as DDP)\n"
            "  --steps N           timed steps (default 10)   --warmup N  untimed steps first (default 2)\n"
            "  --grid G --patterns P  ddl grid (e.g. 4x16x4) and per-dimension ring|rhd (with -a ddl; they\n"
            "                      take precedence over DDL_GRID and DDL_PATTERNS)\n"
            "  --poll-us N         communication thread tests its requests every N us, sleeping\n"
            "                      between (0 = block in MPI_Wait; default DDL_POLL_US if set, else 50 on real\n"
            "                      MPI, where the thread shares cores with BLAS, and 0 under simulation)\n"
            "  --platform P --gpus-per-node G  machine preset (minsky, bigbasin, h200) or platform file and its GPUs\n"
            "                      per node: its alpha-beta-gamma model drives the auto algorithm's choice\n"
            "                      (without it, auto uses its built-in rule)\n"
            "  --profile P         device profile (name like p100, or a file) whose rates the simulation\n"
            "                      injects; required under simulation, ignored by the real build\n"
            "  --device cpu|gpu    where the step runs (default cpu); gpu needs the CUDA build\n"
            "                      (build/cuda/ddlbench): parameters, gradients and activations in device\n"
            "                      memory, cuBLAS GEMMs, allreduce of device buffers (CUDA-aware MPI or staged)\n"
            "  --precision P       GEMM inputs: fp32 | tf32 | bf16 | fp16 (default fp32; others need --device gpu)\n"
            "  --compute full|gemm full (default): the whole network on real activations: im2col/col2im,\n"
            "                      GEMMs, batch norm, ReLU, residual adds, pooling, FC bias, SGD with momentum\n"
            "                      and weight decay; gemm: the conv/FC GEMMs only on synthetic operands and\n"
            "                      plain SGD (ddlbench before the full step). Full with bf16/fp16 (GPU):\n"
            "                      2-byte activations (as autocast), float32 parameters and statistics\n"
            "  --jitter PCT        stragglers and noise: every rank's GEMMs in a step take (1 + x) times as\n"
            "                      long, x = PCT/100 x Exp(1) drawn per rank and step (mean PCT%%), seeded;\n"
            "                      real: the rank spins, simulation: injected compute (default 0)\n"
            "  --jitter-seed N     seed of the draws (default 1); the same seed gives the same draws\n"
            "  --check             known per-rank gradients; verify every allreduced value (exit 1 if wrong)\n"
            "  --timeout S         watchdog: a step (or a configuration's setup) not done in S seconds\n"
            "                      prints one line per rank and aborts the job, exit 1 (default 300; 0 = off)\n"
            "  --csv FILE          also write the rows as CSV, whole, when every configuration succeeded\n"
            "                      (checked before the run; a FIFO or a device is written through)\n"
            "  --json FILE         the same rows as one JSON document (provenance, then rows; results/README.md),\n"
            "                      written and checked the same way\n"
            "  --per-rank          each rank's own medians: a '#' line under each row (median of ranks' compute,\n"
            "                      MAD, slowest rank and its lag, stragglers: > 2 MAD and > 10%% over the median),\n"
            "                      and in the CSV/JSON a rank column (all = the row) with one row per rank\n"
            "Below the table: the projected time to train the model's workload (ResNet-50: 90 epochs of\n"
            "ImageNet-1K; ResNet-101-22K: 90 epochs of 7.5M ImageNet-22K images, epochs assumed) at the\n"
            "measured images/s, in hours and GPU-hours, beside the study's 50 min and 7 h on 256 GPUs;\n"
            "no data loading, no evaluation.\n");
}

static int bad(const char *opt, const char *v, const char *expected)
{
    fprintf(stderr, "ddlbench train: %s: expected %s, got \"%s\"\n", opt, expected, v ? v : "");
    return 2;
}

/* Options that take a value (the others: --check, --help). */
static const char *const valued[] = { "--model", "--batch", "--image-size", "--steps", "--warmup", "--poll-us",
                                      "--timeout", "--first-bucket-mb", "-a", "--algo", "--bucket-mb", "--grid",
                                      "--patterns", "--csv", "--json", "--profile", "--device", "--precision", "--platform",
                                      "--gpus-per-node", "--compute", "--jitter",
                                      "--jitter-seed" };

static int known(const char *opt)
{
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++)
        if (!strcmp(opt, valued[i])) return 1;
    return 0;
}

/* --platform: a platform file (checked when loaded), or a preset with its own link figures (custom has
 * none to model with). */
static int check_platform(const char *v)
{
    char names[160] = "";
    if (platform_is_file(v)) return 0;
    for (int i = 0; i < platform_preset_count(); i++) {
        const char *n = platform_preset(i)->name;
        if (!strcmp(n, "custom")) continue;
        if (!strcmp(n, v)) return 0;
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", *names ? ", " : "one of ", n);
    }
    snprintf(names + strlen(names), sizeof names - strlen(names), " or a platform file");
    return bad("--platform", v, names);
}

/* --jitter: a decimal percentage (no hexadecimal, inf or nan). */
static int set_jitter(train_opts *o, const char *v)
{
    if (!*v || parse_decimal_len(v) != strlen(v) || !((o->jitter_pct = strtod(v, NULL)) >= 0 && o->jitter_pct <= 1000))
        return bad("--jitter", v, "a percentage in 0..1000");
    return 0;
}

static int set_list(train_opts *o, const char *opt, const char *v)
{
    if (!strcmp(opt, "-a") || !strcmp(opt, "--algo")) {
        const char *unknown = NULL;
        int arc = cli_algos_parse(v, o->listbuf[0], sizeof o->listbuf[0], o->algos, MAX_LIST, &o->nalgos, &unknown);
        if (arc == 1) return bad(opt, v, "a comma list of algorithm names (at most 16)");
        if (arc == 2) return bad(opt, unknown, "a registered algorithm (see ddlbench list)");
        return 0;
    }
    const char *items[MAX_LIST];
    if (parse_list(v, ',', o->listbuf[1], sizeof o->listbuf[1], items, MAX_LIST, &o->nbuckets))
        return bad(opt, v, "a comma list of at most 16 integers");
    for (int k = 0; k < o->nbuckets; k++)
        if (parse_int(items[k], 0, 65536, &o->bucket_mb[k])) return bad(opt, items[k], "an integer in 0..65536");
    return 0;
}

/* One option with its value: 0, or 2 (message printed). */
static int set_opt(train_opts *o, const char *opt, const char *v)
{
    if (!strcmp(opt, "--model")) o->model = v;
    else if (!strcmp(opt, "--batch")) { if (parse_int(v, 1, 65536, &o->batch)) return bad(opt, v, "an integer in 1..65536"); }
    else if (!strcmp(opt, "--image-size")) { if (parse_int(v, 1, 4096, &o->image)) return bad(opt, v, "an integer in 1..4096"); }
    else if (!strcmp(opt, "--steps")) { if (parse_int(v, 1, 100000, &o->steps)) return bad(opt, v, "an integer in 1..100000"); }
    else if (!strcmp(opt, "--warmup")) { if (parse_int(v, 0, 100000, &o->warmup)) return bad(opt, v, "an integer in 0..100000"); }
    else if (!strcmp(opt, "--poll-us")) { if (parse_int(v, 0, 1000000, &o->poll_us)) return bad(opt, v, "an integer in 0..1000000"); }
    else if (!strcmp(opt, "--timeout")) { if (parse_int(v, 0, 1000000, &o->timeout_s)) return bad(opt, v, "seconds, an integer in 0..1000000"); }
    else if (!strcmp(opt, "--first-bucket-mb")) { if (parse_int(v, 0, 65536, &o->first_mb)) return bad(opt, v, "an integer in 0..65536"); }
    else if (!strcmp(opt, "--gpus-per-node")) { if (parse_int(v, 1, 64, &o->cost_gpn)) return bad(opt, v, "an integer in 1..64"); }
    else if (!strcmp(opt, "--jitter")) return set_jitter(o, v);
    else if (!strcmp(opt, "--jitter-seed")) { if (parse_int(v, 0, 2147483647, &o->seed)) return bad(opt, v, "an integer in 0..2147483647"); }
    else if (!strcmp(opt, "-a") || !strcmp(opt, "--algo") || !strcmp(opt, "--bucket-mb")) return set_list(o, opt, v);
    else if (!strcmp(opt, "--grid")) { if (!*(o->grid = v)) return bad(opt, v, "a grid like 4x16x4 (product = ranks)"); }
    else if (!strcmp(opt, "--patterns")) { if (!*(o->patterns = v)) return bad(opt, v, "ring or rhd per dimension, like ring,rhd"); }
    else if (!strcmp(opt, "--csv")) o->csv = v;
    else if (!strcmp(opt, "--json")) o->json = v;
    else if (!strcmp(opt, "--profile")) o->profile = v;
    else if (!strcmp(opt, "--device")) {
        if (strcmp(v, "cpu") && strcmp(v, "gpu")) return bad(opt, v, "cpu or gpu");
        o->device = !strcmp(v, "gpu");
    } else if (!strcmp(opt, "--compute")) {
        if (strcmp(v, "full") && strcmp(v, "gemm")) return bad(opt, v, "full or gemm");
        o->full = !strcmp(v, "full");
    } else if (!strcmp(opt, "--precision")) {
        if (kern_precision_parse(v, &o->precision)) return bad(opt, v, "fp32, tf32, bf16 or fp16");
    } else if (!strcmp(opt, "--platform")) {
        if (check_platform(v)) return 2;
        o->cost_platform = v;
    }
    return 0;
}

/* Options that only mean something with others: refused alone rather than ignored. */
static int check_combinations(const train_opts *o)
{
    int ddl = 0;
    for (int k = 0; k < o->nalgos; k++) ddl |= !strcmp(o->algos[k], "ddl");
    if ((o->grid || o->patterns) && !ddl) {
        fprintf(stderr, "ddlbench train: %s: applies to -a ddl only; expected ddl among the algorithms\n",
                o->grid ? "--grid" : "--patterns");
        return 2;
    }
    if (o->cost_gpn && !o->cost_platform) {
        fprintf(stderr, "ddlbench train: --gpus-per-node: applies to --platform only; expected --platform too\n");
        return 2;
    }
    if (!o->device && o->precision != KERN_PREC_FP32) {
        fprintf(stderr, "ddlbench train: --precision %s: the CPU path computes fp32 only (tf32, bf16 and fp16 "
                        "need --device gpu in the CUDA build)\n", kern_precision_name(o->precision));
        return 2;
    }
    return 0;
}

/* The communication thread's polling interval: --poll-us, else DDL_POLL_US, else the engine's default.
 * DDL_POLL_US is checked whenever it is set. 0, or 2 (message printed). */
static int resolve_poll(train_opts *o)
{
    const char *env = getenv("DDL_POLL_US");
    long v = -1;
    if (env && *env && parse_int(env, 0, 1000000, &v))
        return bad("DDL_POLL_US", env, "an integer in 0..1000000 (microseconds; 0 = block in MPI_Wait)");
    if (o->poll_us < 0) o->poll_us = v >= 0 ? v : engine_default_poll_us();
    /* libddl reads DDL_POLL_US when poll_us is 0 ("block"): an explicit --poll-us 0 must win over it */
    if (o->poll_us == 0 && v > 0) unsetenv("DDL_POLL_US");
    return 0;
}

static int parse_opts(int argc, char **argv, train_opts *o)
{
    *o = (train_opts){ .model = "resnet50", .batch = 32, .image = 224, .steps = 10, .warmup = 2,
                       .algos = { "ddl" }, .nalgos = 1, .bucket_mb = { 25 }, .nbuckets = 1, .first_mb = 1, .poll_us = -1,
                       .timeout_s = TRAIN_TIMEOUT_S, .full = 1, .seed = 1 };
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--check")) { o->check = 1; continue; }
        if (!strcmp(opt, "--per-rank")) { o->per_rank = 1; continue; }
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) { usage(stdout); return 1; }
        if (!known(opt)) {
            fprintf(stderr, "ddlbench train: unknown option \"%s\" (see ddlbench train --help)\n", opt);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ddlbench train: %s: expected a value after it\n", opt);
            return 2;
        }
        if (set_opt(o, opt, argv[++i])) return 2;
    }
    if (check_combinations(o)) return 2;
    return resolve_poll(o);
}

/* --device against this build, before MPI: 0 ok; 2 the wrong build; 1 no usable device. */
static int check_device(const train_opts *o)
{
    int n = 0, st = kern_dev_count(&n);
    if (!o->device && st != KERN_DEV_ENOSUPPORT) {
        fprintf(stderr, "ddlbench train: --device cpu: this is the CUDA build (cuBLAS GEMMs on device memory); "
                        "expected --device gpu, or the CPU build build/ddlbench\n");
        return 2;
    }
    if (!o->device) return 0;
    if (st == KERN_DEV_ENOSUPPORT) {
        fprintf(stderr, "ddlbench train: --device gpu: this build has no CUDA (built without nvcc); expected "
                        "--device cpu, or the CUDA build build/cuda/ddlbench (docs/GPU.md)\n");
        return 2;
    }
    if (st || n == 0) {
        fprintf(stderr, "ddlbench train: --device gpu: no CUDA device (%s)\n", kern_dev_last_error());
        return 1;
    }
    return 0;
}

int cli_train_main(int argc, char **argv)
{
    train_opts o;
    run_meta meta;
    char why[200] = "";
    model *m = NULL;
    train_row rows[MAX_LIST * MAX_LIST];
    double *samples = NULL;
    int rank, size, nrows = 0, rc = parse_opts(argc, argv, &o);
    if (rc) return rc == 1 ? 0 : rc;
    char ferr[700];
    if (guard_fault_init(ferr, sizeof ferr)) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return 2;
    }
    if ((o.csv && outfile_check("--csv", o.csv, ferr, sizeof ferr)) ||
        (o.json && outfile_check("--json", o.json, ferr, sizeof ferr))) { /* before any work */
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        return 2;
    }
    if ((rc = check_device(&o))) return rc;
    if (model_build(o.model, (int)o.batch, (int)o.image, &m)) {
        fprintf(stderr, "ddlbench train: %s\n", model_last_error());
        return 2;
    }
    /* simulated operands take address space only (mem.h) */
    if (!o.device && !kern_simulated() && guard_mem_check(guard_model_bytes(m, o.full), "--batch x --image-size", "a smaller batch or image", ferr, sizeof ferr)) {
        fprintf(stderr, "ddlbench train: %s\n", ferr);
        model_free(m);
        return 2;
    }

    if (o.profile) { /* the simulation backends' rates; the real build stores and ignores them */
        profile pr;
        char err[600];
        if (profile_load(o.profile, &pr, err, sizeof err)) {
            fprintf(stderr, "ddlbench train: --profile: %s\n", err);
            model_free(m);
            return 2;
        }
        kern_sim_set_rates(pr.gemm_gflops_fp32, pr.reduce_ns_per_byte);
        kern_sim_set_reduce_table(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns); /* sorted, checked */
        kern_sim_set_mem_gbps(pr.mem_gbps); /* the layer kernels and SGD: bytes at the memory rate */
        kern_sgd_set_rate(pr.mem_gbps * 1e9);
        o.gamma = pr.reduce_ns_per_byte * 1e-9;
    }
    int provided;
    MPI_Init_thread(&argc, &argv, engine_thread_level(), &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cost_hook hook;
    if (o.cost_platform) {
        char herr[256];
        int hrc = cost_hook_init(&hook, o.cost_platform, size, o.cost_gpn ? (int)o.cost_gpn : 1, o.gamma, herr,
                                 sizeof herr);
        if (hrc) {
            if (rank == 0) fprintf(stderr, "ddlbench train: %s\n", herr);
            rc = 2;
            goto out;
        }
        o.hook = &hook;
    }
    if (provided < engine_thread_level()) {
        if (rank == 0) fprintf(stderr, "ddlbench train: the MPI library gives thread level %d, need %d\n", provided,
                               engine_thread_level());
        rc = 1;
        goto out;
    }
    if (o.timeout_s && watchdog_start("ddlbench train")) {
        fprintf(stderr, "ddlbench train: rank %d: cannot start the watchdog thread\n", rank);
        rc = 1;
        goto out;
    }
    int no_dev = o.device && device_pick_local(), any_no_dev = 0;
    MPI_Allreduce(&no_dev, &any_no_dev, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_no_dev) {
        if (no_dev) fprintf(stderr, "ddlbench train: rank %d: cannot select a CUDA device: %s\n", rank, kern_dev_last_error());
        rc = 1;
        goto out;
    }
    meta_collect(MPI_COMM_WORLD, argc, argv, o.device ? kern_dev_name() : NULL, &meta);
    if (kern_simulated())
        snprintf(meta.device, sizeof meta.device, "simulated: profile %s", o.profile ? o.profile : "none");
    int no_counters = o.device ? snprintf(why, sizeof why, "the GEMMs run on the GPU") : counters_open(why, sizeof why);
    if (o.device) meta_add(&meta, "gemm_precision", kern_precision_name(o.precision));
    meta_add(&meta, "compute", o.full ? "full: GEMMs, batch norm, ReLU, residual adds, pooling, im2col/col2im, SGD with momentum"
                                      : "gemm: the conv/FC GEMMs and plain SGD only");
    if (o.jitter_pct > 0) {
        char jdesc[160];
        snprintf(jdesc, sizeof jdesc, "%g%% mean extra GEMM time, x = %g x Exp(1) per rank and step, seed %ld",
                 o.jitter_pct, o.jitter_pct / 100, o.seed);
        meta_add(&meta, "jitter", jdesc);
    }
    char cdesc[240];
    snprintf(cdesc, sizeof cdesc, "%s%s", no_counters ? "unavailable: " : "PAPI on the main thread's GEMMs", why);
    meta_add(&meta, "counters", cdesc);
    if (!(samples = malloc(2 * (size_t)F_COUNT * (size_t)o.steps * sizeof *samples))) {
        fprintf(stderr, "ddlbench train: out of memory\n");
        rc = 1;
        goto out;
    }
    if (rank == 0 && no_counters) printf("# hardware counters unavailable (papi_* CSV columns read NA): %s\n", why);
    if (rank == 0 && o.device) printf("# device: %s; %s GEMMs (%s)\n", kern_dev_name(), kern_precision_name(o.precision), kern_gemm_backend());
    char jline[96] = "";
    if (o.jitter_pct > 0) snprintf(jline, sizeof jline, "; jitter %g%% (Exp, seed %ld)", o.jitter_pct, o.seed);
    if (rank == 0)
        printf("# ddlbench train: %s batch %ld image %ld, %d ranks, %ld warm-up + %ld timed steps%s, compute %s\n"
               "# times in ms: median over steps of the max over ranks; step min..max beside it%s; compute = gemm +\n"
               "# nongemm (batch norm, ReLU, residual adds, pooling, im2col/col2im, FC bias) + harness time\n"
               "#  algo bucket bkts   step_ms       min       max   compute      gemm   nongemm      comm   exposed       sgd "
               "other%%   images/s  wrong\n",
               o.model, o.batch, o.image, size, o.warmup, o.steps, o.check ? ", checking gradients" : "",
               o.full ? "full" : "gemm", jline);
    for (int a = 0; a < o.nalgos && !rc; a++)
        for (int b = 0; b < o.nbuckets && !rc; b++) {
            rc = train_run_config(&o, m, a, b, samples, &rows[nrows]);
            if (!rc && rank == 0) {
                train_print_row(stdout, 0, &o, size, &rows[nrows]);
                fflush(stdout);
            }
            if (!rc && rows[nrows].wrong) rc = 1;
            nrows++;
        }
    if (rank == 0 && !rc) train_print_time_to_train(stdout, &o, size, rows, nrows);
    /* --csv, --json: written only when every configuration succeeded */
    if (rank == 0 && (o.csv || o.json) && nrows && !rc && train_write_results(&meta, &o, size, rows, nrows)) rc = 1;
out:
    for (int i = 0; i < nrows; i++) free(rows[i].ranks);
    watchdog_stop();
    counters_close();
    free(samples);
    model_free(m);
    MPI_Finalize();
    return rc;
}
