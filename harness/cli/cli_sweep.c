/* cli_sweep.c — `ddlbench sweep-check`: the scaling sweep's options (rows of the option table,
 * sweep_opts.h) parsed, resolved against the platform and the registry's algorithm names before
 * sweep.sh launches anything, and printed resolved (--resolve) or as launches (--plan); and the option
 * parsing `ddlbench merge` shares. No MPI. */
#include "bucket.h"
#include "cli.h"
#include "model.h"
#include "platform.h"
#include "parse.h"
#include "sweep_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SWEEP_MAX_MODELS 64

/* The one usage (sweep-check --help, and sweep.sh --help through --usage): generated from the rows. */
static void usage(int sweep_sh)
{
    sweep_params p;
    const opts_set sets[] = { { sweep_rows, sweep_nrows, &p }, { sweep_check_rows, sweep_check_nrows, &p } };
    if (sweep_sh) printf("usage: sweep.sh [options]   (harness/scripts/sweep.sh; make run passes NODES=... as the\n"
                         "       make variables named in brackets)\n");
    else printf("usage: ddlbench sweep-check [--make] [--plan] [--resolve] [sweep options]\n"
                "Checks the options of harness/scripts/sweep.sh (which asks this before any launch) and exits 0, or\n"
                "2 with one line naming the option (with --make, or given as NODES=4, the make variable).\n");
    for (int i = 0; i < sweep_nrows; i++) {
        opts_set one = { sweep_rows + i, 1, &p };
        char var[40] = "";
        if (sweep_rows[i].var) snprintf(var, sizeof var, "[%s]", sweep_rows[i].var);
        opts_usage(stdout, &one, 1);
        if (*var) printf("%22s%s\n", "", var);
    }
    if (!sweep_sh) opts_usage(stdout, sets + 1, 1);
    sweep_defaults_usage(stdout);
    if (sweep_sh) return;
    printf("--plan prints the launches in the order sweep.sh starts them, one a line: \"FIRST WEIGHT MODEL BATCH\n"
           "GPUS NODES GPUS_PER_NODE RING\" (FIRST 0 for the 1-GPU baselines, started first; then the largest\n"
           "WEIGHT, the expected cost in units of SEC_PER_KUNIT/1000 s (default %d) of one core; RING 1 where\n"
           "the flat ring's rows come from the model, --sim-ring-max). A simulated sweep estimated at over an\n"
           "hour on --jobs cores is refused (2) unless --force or --dry-run. GPUs per node and the profile are\n"
           "the platform's unless given; under sim and model another is refused (2) unless\n"
           "--override-platform, as is a file's leaf over --nodes.\n", SWEEP_SEC_PER_KUNIT);
}

int cli_sweep_options(int argc, char **argv, sweep_params *p, const char **dir, char *err, size_t errlen)
{
    const opts_set sets[] = { { sweep_rows, sweep_nrows, p }, { sweep_check_rows, sweep_check_nrows, p } };
    opts_parser ps = { sets, 2, dir, dir ? 1 : 0, 0, { 0 } };
    int rc;
    sweep_defaults(p);
    rc = opts_parse(&ps, argc, argv, err, errlen);
    if (rc == OPTS_HELP) return 3;
    for (int i = 1; i < argc; i++) p->make |= !strcmp(argv[i], "--make");
    if (rc && p->make && !strncmp(err, "unknown option", 14)) { /* under make, options come from SWEEP_FLAGS */
        char why[400];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "SWEEP_FLAGS: %s", why);
    }
    if (rc) return 2;
    if (p->usage) return 4;
    sweep_fill(p);
    return 0;
}

/* --resolve: every option of the sweep as it runs, NAME='value' a line (NAME the option without its
 * dashes, '-' as '_'), for sweep.sh to read; values single-quoted for the shell. */
static void print_resolved(const sweep_params *p)
{
    for (int i = 0; i < sweep_nrows; i++) {
        const opt_row *r = &sweep_rows[i];
        const char *at = (const char *)p + r->off, *v;
        char name[40], num[32];
        snprintf(name, sizeof name, "%s", r->name + 2);
        for (char *c = name; *c; c++) if (*c == '-') *c = '_';
        if (r->type == OPT_LONG) snprintf(num, sizeof num, "%ld", *(const long *)at), v = num;
        else if (r->type == OPT_FLAG) snprintf(num, sizeof num, "%d", *(const int *)at), v = num;
        else v = *(const char *const *)at ? *(const char *const *)at : "";
        printf("%s='", name);
        for (; *v; v++) if (*v == '\'') fputs("'\\''", stdout); else putchar(*v);
        printf("'\n");
    }
}

/* Gradient buckets per step of each model (at the sweep's cap; 1 MB first bucket, as train), which
 * also checks the names and batches. 0, 2 with a message, or 1 out of memory. */
static int model_buckets(const sweep_params *p, int *nb, char *err, size_t errlen)
{
    int i = 0, rc = 0;
    for (const char *mb = p->models; mb && !rc; mb = strchr(mb, ',') ? strchr(mb, ',') + 1 : NULL, i++) {
        char name[128];
        size_t k = strcspn(mb, ":");
        model *m = NULL;
        bucket_plan plan = { 0 };
        size_t *counts = NULL;
        if (i == SWEEP_MAX_MODELS) {
            snprintf(err, errlen, "%s: over %d models", sweep_name(p, "--models"), SWEEP_MAX_MODELS);
            return 2;
        }
        snprintf(name, sizeof name, "%.*s", (int)(k < sizeof name - 1 ? k : sizeof name - 1), mb);
        char why[512] = "a model name over 126 bytes";
        if (k >= sizeof name - 1 || model_create(name, atoi(mb + k + 1), 224, &m, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", sweep_name(p, "--models"), why);
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

/* SEC_PER_KUNIT: seconds of one core here per 1000 cost units (sweep_plan.h); 0, or 2 when malformed. */
static int sec_per_kunit(long *sec, char *err, size_t errlen)
{
    const char *spk = getenv("SEC_PER_KUNIT");
    *sec = SWEEP_SEC_PER_KUNIT;
    if (spk && *spk && parse_int(spk, 1, 1000000, sec))
        return snprintf(err, errlen, "SEC_PER_KUNIT: expected an integer in 1..1000000, got \"%.64s\"", spk), 2;
    return 0;
}

/* The launches, printed; refused when simulated and estimated at over an hour (not --force, --dry-run). */
static int print_plan(const sweep_params *p, const int *nb, char *err, size_t errlen)
{
    static sweep_launch l[SWEEP_MAX_MODELS * SWEEP_MAX_COUNTS];
    int n = 0;
    double units = 0;
    if (sweep_plan(p, nb, l, (int)(sizeof l / sizeof l[0]), &n)) return snprintf(err, errlen, "too many launches"), 2;
    for (int i = 0; i < n; i++) units += (double)l[i].weight;
    long sec;
    long long jobs = strcmp(p->backend, "sim") ? 1 : p->n_jobs;
    if (sec_per_kunit(&sec, err, errlen)) return 2;
    long long est = (long long)(units + 0.5) * sec / 1000 / jobs;
    if (!strcmp(p->backend, "sim") && !p->dry_run && !p->force && est > 3600) {
        char h[40];
        sweep_human(est, h, sizeof h);
        snprintf(err, errlen, "%s %ld: about %s estimated on this machine (%d launches, %lld at once; expected at most "
                 "1 h); --force (make run FORCE=1) runs it anyway, --backend model predicts it at once",
                 sweep_name(p, "--nodes"),
                 p->n_nodes, h, n, jobs);
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
    platform pf;
    const char *prof;
    char why[400];
    int sim = !strcmp(p->backend, "sim") || !strcmp(p->backend, "model");
    const char *hint = p->make ? "SWEEP_FLAGS=--override-platform" : "--override-platform";
    int given = *p->platform != '\0'; /* no --platform: minsky, reshaped by --gpus-per-node as asked */
    /* under mpi a platform given is the allocation's machine: its GPUs per node must be the allocation's */
    if (given && !strcmp(p->backend, "mpi")) sim = 1;
    p->platform_given = given;
    if (!given) p->platform = SWEEP_PLATFORM, p->override = 1, sim = 0;
    if (!strcmp(p->platform, "custom")) {
        if (!p->n_gpn) p->n_gpn = 1;
        if (!*p->profile) p->profile = "p100";
        return 0;
    }
    if (platform_lookup(&pf, p->platform, why, sizeof why))
        return snprintf(err, errlen, "%s: %s", sweep_name(p, "--platform"), why), 2;
    if (!p->n_gpn) p->n_gpn = pf.gpus_per_node;
    else if (sim && !p->override && p->n_gpn != pf.gpus_per_node)
        return snprintf(err, errlen, "%s: platform %s has %d GPUs per node, got %ld; expected %d, or %s",
                        sweep_name(p, "--gpus-per-node"), pf.name, pf.gpus_per_node, p->n_gpn, pf.gpus_per_node,
                        hint), 2;
    if (!strcmp(p->backend, "mpi")) sim = 0; /* the real build ignores the profile */
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
    if ((strcmp(p->backend, "sim") && strcmp(p->backend, "model")) || !platform_is_file(p->platform) ||
        p->partial_leaf)
        return 0;
    if (!platform_init(&pf, p->platform, (int)p->n_nodes, p->override ? (int)p->n_gpn : 0, why, sizeof why)) return 0;
    char *hint = strstr(why, " (or --partial-leaf)"); /* the sweep runs its smaller points that way itself */
    if (hint) snprintf(hint, sizeof why - (size_t)(hint - why), " (or %s)",
                       p->make ? "SWEEP_FLAGS=--partial-leaf" : "--partial-leaf");
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
    long sec;
    if (rc == 3 || rc == 4) { usage(rc == 4 || p.resolve); return 0; }
    if (!rc) rc = cli_sweep_resolve(&p, err, sizeof err);
    if (!rc) rc = sweep_check(&p, err, sizeof err);
    if (!rc) rc = check_leaf(&p, err, sizeof err);
    if (!rc && cli_algos_parse(p.algos, buf, sizeof buf, items, 256, &n, &unknown) == 2) {
        snprintf(err, sizeof err, "%s: unknown algorithm \"%.200s\" (see ddlbench list)", sweep_name(&p, "--algos"),
                 unknown);
        rc = 2;
    }
    if (!rc) rc = model_buckets(&p, nb, err, sizeof err);
    if (!rc && p.plan) rc = print_plan(&p, nb, err, sizeof err);
    if (!rc) rc = sec_per_kunit(&sec, err, sizeof err);
    if (!rc && p.resolve)
        print_resolved(&p), printf("sec_per_kunit='%ld'\nplatform_given='%d'\n", sec, p.platform_given);
    if (rc) fprintf(stderr, "ddlbench sweep-check: %s\n", err);
    return rc;
}
