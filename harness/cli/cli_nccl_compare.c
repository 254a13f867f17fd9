/* cli_nccl_compare.c — `ddlbench nccl-compare`: the published nccl-tests runs of the catalogue
 * (harness/sim/nccl, nccl_cat.h) predicted, point by point: ddlbench's matching algorithm on the
 * matching platform, from the α-β-γ model (perf_cost.h), or from simulated runs (--sim DIR: the CSVs
 * of `ddlbench-sim allreduce --csv`, one per machine, node count and algorithm, as `make nccl-compare`
 * writes them). Prints
 * published against predicted busbw with the error per point and the goals (every scored point at
 * >= 1 MiB within 15%, at >= 64 MiB within 10%); --out DIR writes compare.csv, report.md and a
 * gnuplot script per machine. --plan prints what to simulate, one entry a line, for the script. */
#include "cli.h"
#include "csv.h"
#include "nccl_cat.h"
#include "nccl_compare.h"
#include "opts.h"
#include "outfile.h"
#include "perf_cost.h"
#include "platform.h"
#include "profile.h"
#include "sim.h"
#include "tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ncmp_cli {
    const char *dir, *sim, *out;
    const char *names[NCCL_CAT_MAX_ENTRIES];
    int nnames, plan;
    size_t min_bytes;
    char buf[2048];
} ncmp_cli;

static const opt_row rows[] = {
    { .name = "--catalogue", .type = OPT_STRING, .min = 1, .unit = "DIR", .expect = "a folder",
      .off = offsetof(ncmp_cli, dir), .help = "the folder of .nccl entries (default harness/sim/nccl)" },
    { .name = "--entries", .type = OPT_STRLIST, .unit = "LIST", .off = offsetof(ncmp_cli, names),
      .count_off = offsetof(ncmp_cli, nnames), .buf_off = offsetof(ncmp_cli, buf), .buf_len = 2048,
      .max_items = NCCL_CAT_MAX_ENTRIES, .help = "only these entries (their names), comma list" },
    { .name = "--min-bytes", .type = OPT_SIZE, .min = 0, .max = 1e15, .off = offsetof(ncmp_cli, min_bytes),
      .help = "only points of at least this size (K/M/G suffixes)" },
    { .name = "--sim", .type = OPT_STRING, .min = 1, .unit = "DIR", .expect = "a folder",
      .off = offsetof(ncmp_cli, sim),
      .help = "predict from the simulated runs in DIR/KEY.csv (KEY: --plan's first word;\npoints it lacks and "
              "no file: the model's, said per point; default: the model)" },
    { .name = "--out", .type = OPT_STRING, .min = 1, .unit = "DIR", .expect = "an existing folder",
      .off = offsetof(ncmp_cli, out), .help = "write compare.csv, report.md and MACHINE.gp into DIR" },
    { .name = "--plan", .type = OPT_FLAG, .off = offsetof(ncmp_cli, plan),
      .help = "print KEY MACHINE NODES GPN ALGO MIN_B MAX_B per entry (what to simulate) and stop" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench nccl-compare [--catalogue DIR] [--entries LIST] [--min-bytes S] [--sim DIR]\n"
               "                             [--out DIR] [--plan]\n"
               "Published nccl-tests allreduce runs (harness/sim/nccl/*.nccl) against ddlbench's prediction of\n"
               "each point: the entry's algorithm (nccl-ring where it has none: shown for reference) on its\n"
               "platform and node count, busbw as nccl-tests reports it. err = predicted / published - 1.\n"
               "Goals (entries with role prediction and an algorithm): >= 1 MiB within 15%%, >= 64 MiB within\n"
               "10%%; entries of role input hold figures a preset was built from and never count.\n"
               "make nccl-compare simulates every entry and writes results/nccl-compare.\n");
}

static int parse(int argc, char **argv, ncmp_cli *c, char *err, size_t errlen)
{
    const opts_set sets[] = { OPTS_SET(rows, c) };
    opts_parser p = { sets, 1, NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, errlen);
    if (rc == OPTS_HELP) return usage(stdout), opts_usage(stdout, sets, 1), 1;
    return rc ? 2 : 0;
}

/* The entries asked for (all, or --entries), each in the catalogue. */
static int pick(const ncmp_cli *c, nccl_entry *all, int n, nccl_entry **out, int *k, char *err, size_t errlen)
{
    *k = 0;
    for (int i = 0; i < c->nnames; i++) {
        int j = 0;
        while (j < n && strcmp(all[j].name, c->names[i])) j++;
        if (j == n) return snprintf(err, errlen, "--entries: no entry \"%.64s\" in %s", c->names[i], c->dir), 2;
    }
    for (int j = 0; j < n; j++) {
        int want = !c->nnames;
        for (int i = 0; i < c->nnames; i++) want |= !strcmp(all[j].name, c->names[i]);
        if (want) out[(*k)++] = &all[j];
    }
    return 0;
}

int cli_nccl_compare_main(int argc, char **argv)
{
    static nccl_entry *sel[NCCL_CAT_MAX_ENTRIES];
    char tree[4200], err[800];
    ncmp_cli c = { .dir = tree_path("harness/sim/nccl", tree, sizeof tree) };
    nccl_entry *all = NULL;
    ncmp_run *runs = NULL;
    int n = 0, k = 0, rc = parse(argc, argv, &c, err, sizeof err);
    if (rc == 1) return 0;
    if (!rc) rc = nccl_cat_load_dir(c.dir, &all, &n, err, sizeof err);
    if (!rc) rc = pick(&c, all, n, sel, &k, err, sizeof err);
    if (!rc && !(runs = calloc((size_t)k, sizeof *runs))) rc = 1, snprintf(err, sizeof err, "out of memory");
    for (int i = 0; !rc && i < k; i++) rc = ncmp_setup(sel[i], (double)c.min_bytes, &runs[i], err, sizeof err);
    if (!rc && c.plan) {
        for (int i = 0; i < k; i++) ncmp_plan_line(&runs[i], stdout);
        goto out;
    }
    for (int i = 0; !rc && i < k; i++)
        rc = c.sim ? ncmp_from_sim(&runs[i], c.sim, err, sizeof err) : ncmp_from_model(&runs[i], err, sizeof err);
    if (!rc && c.out) rc = outfile_check_dir("--out", c.out, err, sizeof err);
    if (rc) goto out;
    ncmp_print(runs, k, c.sim ? "simulated" : "model", stdout);
    if (c.out) rc = ncmp_write(runs, k, c.sim ? "simulated" : "model", c.out, err, sizeof err);
out:
    if (rc) fprintf(stderr, "ddlbench nccl-compare: %s\n", err);
    free(runs);
    free(all);
    return rc;
}
