/* cli_sweep.c — `ddlbench sweep-check`: the scaling sweep's parameters checked against their one set
 * of limits (sweep_params.h) and the registry's algorithm names, before sweep.sh launches anything;
 * and the option parsing `ddlbench merge` shares. No MPI. */
#include "bucket.h"
#include "cli.h"
#include "model.h"
#include "platform.h"
#include "sweep_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_MAX_MODELS 64

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench sweep-check [--make] [--plan [--dry-run] [--force]] [--resolve] [sweep options]\n"
               "       ddlbench sweep-check --usage   (sweep.sh --help: the sweep's options, defaults, limits)\n"
               "Checks the options of harness/scripts/sweep.sh (which asks this before any launch) and exits 0,\n"
               "or 2 with one line naming the option (with --make, the make variable: NODES). --plan then\n"
               "prints the launches in the order sweep.sh starts them, one a line: \"FIRST WEIGHT MODEL BATCH\n"
               "GPUS NODES GPUS_PER_NODE RING\" (FIRST 0 for the 1-GPU baselines, started first; then the largest\n"
               "WEIGHT, the expected cost in units of SEC_PER_KUNIT/1000 s (default %d) of one core; RING 1\n"
               "where the flat ring's rows come from the model, --sim-ring-max). A simulated sweep estimated at\n"
               "over an hour on --jobs cores is refused (2) unless --force or --dry-run. --resolve prints\n"
               "\"GPUS_PER_NODE PROFILE\" as the sweep runs them: the platform's own unless given; under sim and\n"
               "model another is refused (2) unless --override-platform, as is a file's leaf over --nodes.\n"
               "  --backend sim|mpi|emu|model   --device cpu|gpu (gpu: mpi only)\n"
               "  --nodes N            1..%d (--backend model: 1..%d); at most %d GPUs in all\n"
               "  --gpus-per-node G    1..%d (default: the platform's)\n"
               "  --models LIST        model:batch pairs, batch 1..%d\n"
               "  --algos LIST         registered algorithms (ddlbench list)\n"
               "  --bucket-mb N        0..%d          -j, --jobs N   1..%d\n"
               "  --sim-ring-max G     0..%d\n"
               "  --rate R, --delay D  emu only (emucluster.sh checks their values)\n"
               "  --train-args \"...\"   none of the options the sweep sets (--csv, --model, --batch, -a, --algo,\n"
               "                       --bucket-mb; under sim also --profile, --platform, --gpus-per-node)\n"
               "  --platform P, --profile P, --command C: taken as given (sweep.sh asks ddlbench model)\n",
            SWEEP_SEC_PER_KUNIT, SWEEP_NODES_MAX, SWEEP_NODES_MAX_MODEL, SWEEP_GPUS_MAX, SWEEP_GPN_MAX, SWEEP_BATCH_MAX,
            SWEEP_BUCKET_MAX,
            SWEEP_JOBS_MAX, SWEEP_GPUS_MAX);
}

/* sweep.sh --help: its options, with the defaults and limits checked here. */
static void sweep_usage(void)
{
    sweep_params d;
    sweep_params_defaults(&d);
    printf("usage: sweep.sh [options]   (harness/scripts/sweep.sh; make run passes the make variables)\n"
           "  --backend sim|mpi|emu|model  simulation (SMPI), real MPI, real MPI on an emulated cluster, or the\n"
           "                         alpha-beta-gamma model (default %s)\n"
           "  --nodes N              largest node count, 1..%d (model: ..%d; default %s); node counts 1, 2, 4, ... N\n"
           "  --gpus-per-node G      ranks per node, 1..%d (default: the platform's%s); at most %d GPUs in all\n"
           "  --models LIST          model:batch pairs (default %s)\n"
           "  --algos LIST           allreduce algorithms (default %s)\n"
           "  --bucket-mb N          gradient bucket cap, 0..%d (default %s)\n"
           "  --platform P           sim: platform preset or platform file (default %s; e.g. from\n"
           "                         ddlbench calibrate --network)\n"
           "  --profile P            sim: device profile (default: the platform's GPU%s)\n"
           "  --override-platform    sim, model: run --gpus-per-node and --profile other than the platform's\n"
           "  --rate R               emu: each node's NIC rate, e.g. 500mbit (default none = unshaped)\n"
           "  --delay D              emu: one-way delay per node egress, e.g. 100us (needs netem; default none)\n"
           "  --train-args \"...\"     extra ddlbench train options (e.g. \"--image-size 64 --steps 5\")\n"
           "  --device cpu|gpu       mpi: the CPU build (BUILD/ddlbench) or the CUDA build's GPU step\n"
           "                         (BUILD/cuda/ddlbench train --device gpu); default cpu\n"
           "  --build DIR            where ddlbench and sim/ddlbench-sim are (default build)\n"
           "  --out DIR              results folder (default results/<run-id>; results/latest points at it);\n"
           "                         one holding an earlier sweep's results is refused unless --resume\n"
           "  --resume               continue an interrupted sweep: skip configurations whose CSV is already in\n"
           "                         --out (default: the run results/latest points at); the options must match\n"
           "  --dry-run              print each launch command (one line each) instead of running it; writes nothing\n"
           "  -j, --jobs N           sim and model: launches at once, 1..%d (default: the core count); mpi: always 1\n"
           "  --force                run even when the estimate is over an hour (sim)\n"
           "  --sim-ring-max G       sim: above G GPUs the flat ring's rows come from the alpha-beta-gamma model\n"
           "                         (ddlbench model --train; rows labelled \"model\"), not from SMPI, whose max-min\n"
           "                         solver spends tens of minutes on a 1,024-GPU ring launch (default %s, where\n"
           "                         the model is within 0.1%% of the simulation; 0 = simulate every configuration)\n"
           "  -q                     no progress lines\n",
           d.backend, SWEEP_NODES_MAX, SWEEP_NODES_MAX_MODEL, d.nodes, SWEEP_GPN_MAX, "", SWEEP_GPUS_MAX,
           d.models, d.algos, SWEEP_BUCKET_MAX, d.bucket_mb, "minsky", "", SWEEP_JOBS_MAX, d.ring_max);
}

int cli_sweep_options(int argc, char **argv, sweep_params *p, const char **dir, char *err, size_t errlen)
{
    sweep_params_defaults(p);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 3;
        if (!strcmp(argv[i], "--usage")) return 4;
        if (!strcmp(argv[i], "--make")) { p->make = 1; continue; }
        if (!strcmp(argv[i], "--plan")) { p->plan = 1; continue; }
        if (!strcmp(argv[i], "--dry-run")) { p->dry_run = 1; continue; }
        if (!strcmp(argv[i], "--force")) { p->force = 1; continue; }
        if (!strcmp(argv[i], "--override-platform")) { p->override = 1; continue; }
        if (!strcmp(argv[i], "--resolve")) { p->resolve = 1; continue; }
        if (dir && argv[i][0] != '-' && !*dir) { *dir = argv[i]; continue; }
        if (i + 1 == argc && !sweep_params_set(p, argv[i], "")) {
            snprintf(err, errlen, "%s: expected a value after it", argv[i]);
            return 2;
        }
        if (i + 1 == argc || sweep_params_set(p, argv[i], argv[i + 1])) {
            snprintf(err, errlen, "unknown option \"%.200s\" (see --help)", argv[i]);
            return 2;
        }
        i++;
    }
    return 0;
}

/* Gradient buckets per step of each model (at the sweep's cap; 1 MB first bucket, as train), which
 * also checks the names and batches. 0, 2 with a message, or 1 out of memory. */
static int model_buckets(const sweep_params *p, int *nb, char *err, size_t errlen)
{
    char buf[4096], *save = NULL;
    int i = 0, rc = 0;
    snprintf(buf, sizeof buf, "%s", p->models);
    for (char *mb = strtok_r(buf, ",", &save); mb && !rc; mb = strtok_r(NULL, ",", &save), i++) {
        char *colon = strchr(mb, ':');
        model *m = NULL;
        bucket_plan plan = { 0 };
        size_t *counts = NULL;
        *colon = '\0';
        if (i == SWEEP_MAX_MODELS) {
            snprintf(err, errlen, "%s: over %d models", sweep_name(p, "--models"), SWEEP_MAX_MODELS);
            return 2;
        }
        if (model_build(mb, atoi(colon + 1), 224, &m)) {
            snprintf(err, errlen, "%s: %s", sweep_name(p, "--models"), model_last_error());
            return 2;
        }
        int nt = model_tensor_count(m);
        if (!(counts = malloc((size_t)nt * sizeof *counts))) rc = 1, snprintf(err, errlen, "out of memory");
        for (int t = 0; !rc && t < nt; t++) counts[t] = (size_t)model_tensor_at(m, t)->numel;
        if (!rc && bucket_plan_make(counts, nt, 4, (size_t)p->n_bucket << 20, (size_t)1 << 20, &plan))
            rc = 1, snprintf(err, errlen, "out of memory");
        nb[i] = rc ? 0 : plan.nbuckets;
        bucket_plan_free(&plan);
        free(counts);
        model_free(m);
    }
    return rc;
}

/* The launches, printed; refused when simulated and estimated at over an hour (not --force, --dry-run). */
static int print_plan(const sweep_params *p, const int *nb, char *err, size_t errlen)
{
    static sweep_launch l[SWEEP_MAX_MODELS * SWEEP_MAX_COUNTS];
    int n = 0;
    double units = 0;
    if (sweep_plan(p, nb, l, (int)(sizeof l / sizeof l[0]), &n)) return snprintf(err, errlen, "too many launches"), 2;
    for (int i = 0; i < n; i++) units += (double)l[i].weight;
    const char *spk = getenv("SEC_PER_KUNIT");
    long long sec = spk && *spk ? atoll(spk) : SWEEP_SEC_PER_KUNIT, jobs = strcmp(p->backend, "sim") ? 1 : p->n_jobs;
    long long est = (long long)(units + 0.5) * sec / 1000 / jobs;
    if (!strcmp(p->backend, "sim") && !p->dry_run && !p->force && est > 3600) {
        char h[40];
        sweep_human(est, h, sizeof h);
        snprintf(err, errlen, "%s %s: about %s estimated on this machine (%d launches, %lld at once; expected at most 1 h); "
                 "--force (make run FORCE=1) runs it anyway, --backend model predicts it at once", sweep_name(p, "--nodes"),
                 p->nodes, h, n, jobs);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        long g = l[i].gpus, nn = g >= p->n_gpn ? g / p->n_gpn : 1, gp = g >= p->n_gpn ? p->n_gpn : g;
        printf("%d %lld %s %s %ld %ld %ld %d\n", l[i].first, l[i].weight, l[i].model, l[i].batch, g, nn, gp,
               sweep_ring_modelled(p, g));
    }
    return 0;
}

/* The platform is the truth: GPUs per node and the profile default to the platform's; under sim and
 * model a different one is refused unless --override-platform. 0, or 2 with a message. */
int cli_sweep_resolve(sweep_params *p, char *err, size_t errlen)
{
    static char gpn[16];
    platform pf;
    const char *prof;
    char why[400];
    int sim = !strcmp(p->backend, "sim") || !strcmp(p->backend, "model");
    const char *hint = p->make ? "SWEEP_FLAGS=--override-platform" : "--override-platform";
    int given = *p->platform != '\0'; /* no --platform: minsky, reshaped by --gpus-per-node as asked */
    if (!given) p->platform = "minsky", sim = 0;
    if (!strcmp(p->platform, "custom")) {
        if (!*p->gpus_per_node) p->gpus_per_node = "1";
        if (!*p->profile) p->profile = "p100";
        return 0;
    }
    if (platform_lookup(&pf, p->platform, why, sizeof why))
        return snprintf(err, errlen, "%s: %s", sweep_name(p, "--platform"), why), 2;
    if (!*p->gpus_per_node) snprintf(gpn, sizeof gpn, "%d", pf.gpus_per_node), p->gpus_per_node = gpn;
    else if (sim && !p->override && strlen(p->gpus_per_node) <= 9 && /* else sweep_check's own message */
             strspn(p->gpus_per_node, "0123456789") == strlen(p->gpus_per_node) && atol(p->gpus_per_node) != pf.gpus_per_node)
        return snprintf(err, errlen, "%s: platform %s has %d GPUs per node, got %.20s; expected %d, or %s",
                        sweep_name(p, "--gpus-per-node"), pf.name, pf.gpus_per_node, p->gpus_per_node, pf.gpus_per_node,
                        hint), 2;
    if (platform_profile(&pf, *p->profile ? p->profile : NULL, p->override || !sim, &prof, why, sizeof why))
        return snprintf(err, errlen, "%s: platform %s has %s GPUs, got %.64s; expected %s, or %s",
                        sweep_name(p, "--profile"), pf.name, pf.profile, p->profile, pf.profile, hint), 2;
    static char own[sizeof pf.profile]; /* prof may point into pf */
    snprintf(own, sizeof own, "%s", prof);
    p->profile = prof == pf.profile ? own : prof;
    return 0;
}

/* Under sim and model: the platform at the sweep's largest node count (a file's leaf must fit in it). */
static int check_leaf(const sweep_params *p, char *err, size_t errlen)
{
    platform pf;
    char why[400];
    if ((strcmp(p->backend, "sim") && strcmp(p->backend, "model")) || !platform_is_file(p->platform)) return 0;
    if (!platform_init(&pf, p->platform, (int)p->n_nodes, p->override ? (int)p->n_gpn : 0, why, sizeof why)) return 0;
    char *hint = strstr(why, " (or --partial-leaf)"); /* the sweep runs its smaller points that way itself */
    if (hint) *hint = '\0';
    snprintf(err, errlen, "%s: %s", sweep_name(p, strstr(why, "leaf_nodes") ? "--nodes" : "--platform"), why);
    return 2;
}

int cli_sweep_check_main(int argc, char **argv)
{
    int nb[SWEEP_MAX_MODELS];
    sweep_params p;
    char err[600], buf[4096];
    const char *items[256], *unknown = NULL;
    int n = 0, rc = cli_sweep_options(argc, argv, &p, NULL, err, sizeof err);
    if (rc == 3) { usage(stdout); return 0; }
    if (rc == 4) { sweep_usage(); return 0; }
    if (!rc) rc = cli_sweep_resolve(&p, err, sizeof err);
    if (!rc) rc = sweep_check(&p, err, sizeof err);
    if (!rc) rc = check_leaf(&p, err, sizeof err);
    if (!rc && cli_algos_parse(p.algos, buf, sizeof buf, items, 256, &n, &unknown) == 2) {
        snprintf(err, sizeof err, "%s: unknown algorithm \"%.200s\" (see ddlbench list)", sweep_name(&p, "--algos"), unknown);
        rc = 2;
    }
    if (!rc) rc = model_buckets(&p, nb, err, sizeof err);
    if (!rc && p.plan) rc = print_plan(&p, nb, err, sizeof err);
    if (!rc && p.resolve) printf("%s %s\n", p.gpus_per_node, p.profile);
    if (rc) fprintf(stderr, "ddlbench sweep-check: %s\n", err);
    return rc;
}
