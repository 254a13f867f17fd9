/* sweep_opts.c — the scaling sweep's options as rows of the option table, their defaults, and the
 * rules across options (see sweep_opts.h). */
#include "sweep_opts.h"
#include "ddl.h"
#include "gbatch.h"
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int one_of(const char *v, const char *const *set, char *want, size_t wantlen, const char *phrase)
{
    for (int i = 0; set[i]; i++)
        if (!strcmp(v, set[i])) return 0;
    snprintf(want, wantlen, "%s", phrase);
    return 1;
}

static int check_backend(const char *v, char *want, size_t wantlen)
{
    static const char *const set[] = { "sim", "mpi", "emu", "model", NULL };
    return one_of(v, set, want, wantlen, "sim, mpi, emu or model");
}

static int check_device(const char *v, char *want, size_t wantlen)
{
    static const char *const set[] = { "cpu", "gpu", NULL };
    return one_of(v, set, want, wantlen, "cpu or gpu");
}

static int check_precision(const char *v, char *want, size_t wantlen)
{
    static const char *const set[] = { "fp32", "tf32", "bf16", "fp16", NULL };
    return one_of(v, set, want, wantlen, "fp32, tf32, bf16 or fp16");
}

static int is_list(const char *s) /* a comma list without empty items */
{
    size_t n = strlen(s);
    return n && s[0] != ',' && s[n - 1] != ',' && !strstr(s, ",,");
}

/* model:batch,...: each batch decimal digits, no leading zero, in 1..SWEEP_BATCH_MAX (the whole value,
 * however long: no copy into a bounded buffer). */
static int check_models(const char *v, char *want, size_t wantlen)
{
    if (!is_list(v)) return snprintf(want, wantlen, "a comma list of model:batch like resnet50:32"), 1;
    for (const char *mb = v; mb; mb = strchr(mb, ',') ? strchr(mb, ',') + 1 : NULL) {
        size_t n = strcspn(mb, ","), name = strcspn(mb, ":,");
        const char *b = mb + name + 1;
        size_t k = n > name ? n - name - 1 : 0, d = strspn(b, "0123456789");
        if (name == 0 || name >= n) return snprintf(want, wantlen, "a comma list of model:batch like resnet50:32"), 1;
        if (!k || d < k || (b[0] == '0') || k > 9 || strtol(b, NULL, 10) > SWEEP_BATCH_MAX)
            return snprintf(want, wantlen, "a batch in 1..%d for %.*s", SWEEP_BATCH_MAX, (int)(name < 64 ? name : 64),
                            mb), 1;
    }
    return 0;
}

static int check_algos(const char *v, char *want, size_t wantlen)
{
    if (is_list(v) && !v[strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789,_-")]) return 0;
    snprintf(want, wantlen, "a comma list of algorithms (see ddlbench list)");
    return 1;
}

/* The option a word of --train-args names: the word up to '=' (--csv=x is --csv). */
static int names(const char *w, size_t n, const char *opt)
{
    size_t k = strcspn(w, "=");
    return (k < n ? k : n) == strlen(opt) && !strncmp(w, opt, strlen(opt));
}

/* --train-args: no option the sweep sets itself, nor an output of train's (each launch's are the sweep's). */
static int check_train_args(const char *v, char *want, size_t wantlen)
{
    static const char *const set[] = { "--csv", "--json", "--model", "--batch", "--global-batch", "-a", "--algo",
                                       "--bucket-mb", NULL };
    for (const char *w = v + strspn(v, " \t\n"); *w; w += strcspn(w, " \t\n"), w += strspn(w, " \t\n"))
        for (int i = 0; set[i]; i++)
            if (names(w, strcspn(w, " \t\n"), set[i]))
                return snprintf(want, wantlen, "train options the sweep does not set (%s is its own)", set[i]), 1;
    return 0;
}

#define AT(f) offsetof(sweep_params, f)
#define STR(f) .type = OPT_STRING, .off = AT(f)
const opt_row sweep_rows[] = {
    { .name = "--backend", .var = "BACKEND", STR(backend), .unit = "B", .check = check_backend, .dflt = "sim",
      .help = "sim (SMPI), mpi (real MPI; MPILAUNCH or mpilaunch.sh), emu (real MPI on an emulated\n"
              "cluster) or model (alpha-beta-gamma); make run: mpi inside a batch allocation" },
    { .name = "--nodes", .var = "NODES", .type = OPT_LONG, .min = 1, .max = SWEEP_NODES_MAX_MODEL, .off = AT(n_nodes),
      .expect = "an integer in 1..4096 (--backend model: 1..65536)", .dflt = "2",
      .help = "largest node count: 1 GPU, then 1, 2, 4, ... N nodes; 1..4096 (model: ..65536)" },
    { .name = "--gpus-per-node", .var = "GPUS_PER_NODE", .type = OPT_LONG, .min = 1, .max = SWEEP_GPN_MAX,
      .off = AT(n_gpn), .unit = "G",
      .help = "ranks per node (default: the platform's); at most 65536 GPUs in all" },
    { .name = "--models", .var = "MODELS", STR(models), .unit = "LIST", .check = check_models,
      .help = "model:batch pairs, batch 1..65536 (default: by backend, below)" },
    { .name = "--global-batch", .var = "GLOBAL_BATCH", .type = OPT_LONG, .min = 0, .max = GBATCH_MAX,
      .off = AT(n_global), .unit = "N", .dflt = "0",
      .help = "strong scaling: N images a step over all GPUs at every point, instead of the\n"
              "models' per-GPU batches; " GBATCH_RULE "\n(at the largest point; 0 = off: weak scaling)" },
    { .name = "--algos", .var = "ALGOS", STR(algos), .unit = "LIST", .check = check_algos,
      .dflt = "mpi,ring,rhd,ddl,auto", .help = "allreduce algorithms (ddlbench list)" },
    { .name = "--bucket-mb", .var = "BUCKET_MB", .type = OPT_LONG, .min = 0, .max = SWEEP_BUCKET_MAX,
      .off = AT(n_bucket), .dflt = "25", .help = "gradient bucket cap in MB" },
    { .name = "--platform", .var = "PLATFORM", STR(platform), .unit = "P",
      .help = "sim, model: machine preset or platform file (ddlbench platform --help; e.g.\n"
              "from ddlbench calibrate --network); default " SWEEP_PLATFORM ", reshaped by --gpus-per-node;\n"
              "mpi: the allocation's machine, passed to every launch (auto's cost model, libddl's\n"
              "segments), its GPUs per node the allocation's or refused; default none" },
    { .name = "--profile", .var = "PROFILE", STR(profile), .unit = "P",
      .help = "sim: device profile of the simulated GPUs (default: the platform's GPU)" },
    { .name = "--override-platform", .type = OPT_FLAG, .off = AT(override),
      .help = "sim, model: run --gpus-per-node and --profile other than the platform's" },
    { .name = "--allreduce", .type = OPT_FLAG, .off = AT(allreduce),
      .help = "mpi: after the training launches, the allocation's own allreduce sweep at each\n"
              "GPU count from 2 (1K-64M, OUT/allreduce/; make run passes it)" },
    { .name = "--partial-leaf", .type = OPT_FLAG, .off = AT(partial_leaf),
      .help = "sim, model: a platform file's leaf larger than --nodes is partly filled, as a\n"
              "preset's is (make: SWEEP_FLAGS=--partial-leaf); else refused" },
    { .name = "--rate", .var = "RATE", STR(rate), .unit = "R", .dflt = "none",
      .help = "emu: each node's NIC rate, e.g. 500mbit (none = unshaped; emucluster.sh checks it)" },
    { .name = "--delay", .var = "DELAY", STR(delay), .unit = "D", .dflt = "none",
      .help = "emu: one-way delay per node egress, e.g. 100us (needs netem)" },
    { .name = "--train-args", .var = "TRAIN_ARGS", STR(train_args), .unit = "\"...\"", .check = check_train_args,
      .help = "ddlbench train options for each launch (default: by backend, below); not the\n"
              "ones the sweep sets (--csv, --json, --model, --batch, --global-batch, -a, --algo,\n"
              "--bucket-mb;"
              "under sim also --profile, --platform, --gpus-per-node)" },
    { .name = "--add-train-args", STR(add_train_args), .unit = "\"...\"", .check = check_train_args,
      .help = "more train options, after --train-args or its default (make run REALISM=study)" },
    { .name = "--device", .var = "DEVICE", STR(device), .unit = "cpu|gpu", .check = check_device, .dflt = "cpu",
      .help = "mpi: the CPU build (BUILD/ddlbench) or the CUDA build's GPU step\n"
              "(BUILD/cuda/ddlbench train --device gpu); make run: gpu where both are" },
    { .name = "--precision", .var = "PRECISION", STR(precision), .unit = "P", .check = check_precision,
      .dflt = "tf32", .help = "with --device gpu: the GEMMs' fp32 | tf32 | bf16 | fp16" },
    { .name = "--jobs", .alias = "-j", .var = "JOBS", .type = OPT_LONG, .min = 1, .max = SWEEP_JOBS_MAX,
      .off = AT(n_jobs), .help = "sim and model: launches at once (default: the core count); mpi, emu: 1" },
    { .name = "--sim-ring-max", .type = OPT_LONG, .min = 0, .max = SWEEP_GPUS_MAX, .off = AT(n_ring_max),
      .unit = "G", .dflt = "64",
      .help = "sim: above G GPUs the flat ring's rows come from the alpha-beta-gamma model\n"
              "(rows labelled \"model\"), not from SMPI, whose max-min solver spends minutes on\n"
              "a 256-GPU ring (ResNet-50: 38 s of CPU) and tens on a 1,024-GPU one; the model is\n"
              "within 0.01% of the simulated ring at 256 GPUs (docs/BENCHMARKS.md); 0 = simulate all" },
    { .name = "--build", .var = "BUILD", STR(build), .min = 1, .unit = "DIR", .dflt = "build",
      .help = "where ddlbench and sim/ddlbench-sim are" },
    { .name = "--out", .var = "OUT", STR(out), .unit = "DIR",
      .help = "results folder (default results/<run-id>; results/latest points at it); one\n"
              "holding an earlier sweep's results is refused unless --resume" },
    { .name = "--resume", .type = OPT_FLAG, .off = AT(resume),
      .help = "continue an interrupted sweep: skip configurations whose CSV is already in --out\n"
              "(default: the run results/latest points at); the options must match" },
    { .name = "--dry-run", .type = OPT_FLAG, .off = AT(dry_run),
      .help = "print each launch command (one line each) instead of running it; writes nothing" },
    { .name = "--force", .var = "FORCE", .type = OPT_FLAG, .off = AT(force),
      .help = "run even when the estimate is over an hour (sim)" },
    { .name = "--quiet", .alias = "-q", .type = OPT_FLAG, .off = AT(quiet), .help = "no progress lines" },
    { .name = "--command", STR(command), .unit = "C", .help = "the sweep's command line (provenance)" },
};
const int sweep_nrows = (int)(sizeof sweep_rows / sizeof sweep_rows[0]);

const opt_row sweep_check_rows[] = {
    { .name = "--make", .type = OPT_FLAG, .off = AT(make), .help = "messages name make's variables (NODES)" },
    { .name = "--plan", .type = OPT_FLAG, .off = AT(plan), .help = "print the launches (below)" },
    { .name = "--resolve", .type = OPT_FLAG, .off = AT(resolve),
      .help = "print every option as the sweep runs it, one NAME='value' a line (sweep.sh reads them)" },
    { .name = "--usage", .type = OPT_FLAG, .off = AT(usage), .help = "sweep.sh --help: the sweep's options" },
};
const int sweep_check_nrows = (int)(sizeof sweep_check_rows / sizeof sweep_check_rows[0]);

/* Models and train options by backend (and device): what each backend finishes in minutes here. */
static const struct {
    const char *backend, *device, *models, *train_args;
} by_backend[] = {
    /* sim: one timed step, no warm-up: the simulation is deterministic and its first step equals the
     * second (tests/sim_speed.sh checks it), so a warm-up step would only double the wall time */
    { "sim", NULL, "resnet50:32,resnet101-22k:20", "--steps 1 --warmup 0" },
    { "model", NULL, "resnet50:32,resnet101-22k:20", "" },
    { "mpi", "gpu", "resnet50:32,resnet101-22k:20", "--steps 5 --warmup 1" },
    { "mpi", "cpu", "resnet50:8", "--image-size 64 --steps 5 --warmup 1" }, /* a size a CPU finishes */
    { "emu", NULL, "resnet50:8", "--image-size 64 --steps 5 --warmup 1" },
};

void sweep_defaults(sweep_params *p)
{
    const opts_set set = { sweep_rows, sweep_nrows, p };
    char err[200];
    *p = (sweep_params){ .platform = "", .profile = "", .add_train_args = "", .out = "", .command = "" };
    opts_defaults(&set, 1, err, sizeof err);
}

void sweep_fill(sweep_params *p)
{
    for (size_t i = 0; i < sizeof by_backend / sizeof by_backend[0]; i++) {
        const char *dev = by_backend[i].device;
        if (strcmp(p->backend, by_backend[i].backend) || (dev && strcmp(p->device, dev))) continue;
        if (!p->models) p->models = by_backend[i].models;
        if (!p->train_args) p->train_args = by_backend[i].train_args;
    }
    if (!p->models) p->models = by_backend[0].models; /* a backend the rows refuse: its message comes first */
    if (!p->train_args) p->train_args = "";
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (!p->n_jobs) p->n_jobs = cores < 1 ? 1 : cores > SWEEP_JOBS_MAX ? SWEEP_JOBS_MAX : cores;
    if (!strcmp(p->backend, "mpi") || !strcmp(p->backend, "emu")) p->n_jobs = 1;
}

void sweep_defaults_usage(FILE *f)
{
    fprintf(f, "Defaults by backend (--models; --train-args):\n");
    for (size_t i = 0; i < sizeof by_backend / sizeof by_backend[0]; i++)
        fprintf(f, "  %-5s %-4s %-30s %s\n", by_backend[i].backend, by_backend[i].device ? by_backend[i].device : "",
                by_backend[i].models, *by_backend[i].train_args ? by_backend[i].train_args : "(none)");
}

const char *sweep_name(const sweep_params *p, const char *opt)
{
    for (int i = 0; p->make && i < sweep_nrows; i++)
        if (!strcmp(opt, sweep_rows[i].name) && sweep_rows[i].var) return sweep_rows[i].var;
    return opt;
}

/* Under sim, train options that name the machine: the sweep's own (--platform, --profile, ...). */
static int sim_owned(const sweep_params *p, const char *args, char *err, size_t errlen)
{
    static const char *const sim[] = { "--profile", "--platform", "--preset", "--gpus-per-node", NULL };
    for (const char *w = args + strspn(args, " \t\n"); *w; w += strcspn(w, " \t\n"), w += strspn(w, " \t\n"))
        for (int i = 0; sim[i]; i++)
            if (names(w, strcspn(w, " \t\n"), sim[i]))
                return snprintf(err, errlen, "%s: %s is set by the sweep %s (use %s)", sweep_name(p, "--train-args"),
                                sim[i], strcmp(p->backend, "mpi") ? "under simulation" : "when a platform is given",
                                sweep_name(p, strcmp(sim[i], "--preset") ? sim[i] : "--platform")), 2;
    return 0;
}

/* --shard with a value other than none among args (--shard X or --shard=X): that value in *mode (a
 * pointer into args, n its length); 0 when none is asked for. */
static int shard_asked(const char *args, const char **mode, size_t *n)
{
    for (const char *w = args + strspn(args, " \t\n"); *w; w += strcspn(w, " \t\n"), w += strspn(w, " \t\n")) {
        size_t k = strcspn(w, " \t\n");
        if (!names(w, k, "--shard") || !strncmp(w, "--shard-", 8)) continue;
        const char *v = w[7] == '=' ? w + 8 : w + k + strspn(w + k, " \t\n");
        *mode = v, *n = strcspn(v, " \t\n");
        if (*n && !(*n == 4 && !strncmp(v, "none", 4))) return 1;
    }
    return 0;
}

/* Sharding (train --shard, in --train-args or --add-train-args) needs reduce-scatter and allgather:
 * every algorithm of --algos that has none refused before any launch. 0, or 2 with err. */
static int shard_algos(const sweep_params *p, char *err, size_t errlen)
{
    const char *mode;
    size_t n;
    if (!shard_asked(p->train_args, &mode, &n) && !shard_asked(p->add_train_args, &mode, &n)) return 0;
    for (const char *a = p->algos; *a; a += strcspn(a, ","), a += *a == ',') {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(a, ","), a);
        int i = ddl_algo_find(name);
        if (i >= 0 && !(ddl_algo_flags(i) & DDL_ALGO_RSAG))
            return snprintf(err, errlen, "%s: --shard %.*s needs reduce-scatter and allgather, which %s has not; "
                            "expected algorithms that have (ddlbench list: not nccl-tree or nvls)",
                            sweep_name(p, "--algos"), (int)n, mode, name), 2;
    }
    return 0;
}

int sweep_check(const sweep_params *p, char *err, size_t errlen)
{
    int model = !strcmp(p->backend, "model"), sim = !strcmp(p->backend, "sim");
    if (strcmp(p->backend, "emu") && (strcmp(p->rate, "none") || strcmp(p->delay, "none")))
        return snprintf(err, errlen, "%s: only with --backend emu (--rate, --delay)", sweep_name(p, "--rate")), 2;
    if (!strcmp(p->device, "gpu") && strcmp(p->backend, "mpi"))
        return snprintf(err, errlen, "%s: gpu only with --backend mpi", sweep_name(p, "--device")), 2;
    if (!model && p->n_nodes > SWEEP_NODES_MAX)
        return snprintf(err, errlen, "%s: expected an integer in 1..%d, got \"%ld\"", sweep_name(p, "--nodes"),
                        SWEEP_NODES_MAX, p->n_nodes), 2;
    if (p->n_nodes * p->n_gpn > SWEEP_GPUS_MAX)
        return snprintf(err, errlen, "%s: expected at most %d GPUs in all, got %ld nodes x %ld = %ld",
                        sweep_name(p, "--nodes"), SWEEP_GPUS_MAX, p->n_nodes, p->n_gpn, p->n_nodes * p->n_gpn), 2;
    long per;
    if (p->n_global && (gbatch_split(p->n_global, p->n_nodes * p->n_gpn, 0, sweep_name(p, "--global-batch"), &per,
                                     NULL, err, errlen) ||
                        gbatch_split(p->n_global, 1, SWEEP_BATCH_MAX, sweep_name(p, "--global-batch"), &per, NULL, err,
                                     errlen)))
        return 2; /* below the largest point's GPUs, or over a GPU's batch at the 1-GPU point */
    if ((model || sim) && !strcmp(p->platform, "custom"))
        return snprintf(err, errlen, "%s: custom needs link figures the sweep cannot pass; expected a preset "
                        "(ddlbench platform --help) or a platform file (ddlbench platform --export h200 -o FILE, "
                        "edited)", sweep_name(p, "--platform")), 2;
    if (p->platform[strcspn(p->platform, ",\"")]) /* merge labels every row with it: one CSV cell, unquoted */
        return snprintf(err, errlen, "%s: a ',' or '\"' in the name would split scaling.csv's platform column; "
                        "expected a path without them", sweep_name(p, "--platform")), 2;
    int owned = sim || (!strcmp(p->backend, "mpi") && p->platform_given); /* the sweep passes the machine */
    if (owned && (sim_owned(p, p->train_args, err, errlen) || sim_owned(p, p->add_train_args, err, errlen))) return 2;
    return shard_algos(p, err, errlen);
}
