/* cli_cost.c — `ddlbench model cost --algo LIST ...` (old spelling `model --algo LIST ...`): the
 * analytic α-β-γ prediction (perf_cost.h) of each algorithm for one message size on a platform. No MPI launch.
 * Reached from cli_model.c's
 * dispatch (first word `cost`, or `--algo` first).
 *   ddlbench model cost --algo ring,rhd,ddl --platform minsky --nodes 64 [--gpus-per-node 4] --bytes 100M
 *                  [--profile p100] [--grid 4x16x4] [--patterns ring,rhd,ring] */
#include "cli.h"
#include "perf_cost.h"
#include "cli_rows.h"
#include "opts.h"
#include "platform.h"
#include "profile.h"
#include "sim.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define MAX_ALGOS 8

static void usage(FILE *f);

typedef struct cost_cli {
    const char *algos[MAX_ALGOS], *profile;
    int nalgos;
    char buf[256];
    size_t bytes;
    cost_opts co;
    platform_opts po;
} cost_cli;

static const opt_row rows[] = {
    { .name = "--algo", .alias = "-a", .type = OPT_STRLIST, .unit = "LIST", .off = offsetof(cost_cli, algos),
      .count_off = offsetof(cost_cli, nalgos), .buf_off = offsetof(cost_cli, buf),
      .buf_len = sizeof ((cost_cli *)0)->buf,
      .max_items = MAX_ALGOS, .check = cli_algo_check,
      .help = "algorithms to price, comma list (those with a cost model; ddlbench list)" },
    { .name = "--bytes", .type = OPT_SIZE, .min = 0, .max = 1099511627776.0, .off = offsetof(cost_cli, bytes),
      .help = "message size: bytes with K/M/G/T (binary) suffixes (required)" },
    { .name = "--grid", .type = OPT_STRING, .min = 1, .unit = "AxBxC", .off = offsetof(cost_cli, co.grid),
      .help = "ddl's grid (with --algo ddl)" },
    { .name = "--patterns", .type = OPT_STRING, .min = 1, .unit = "P1,P2", .off = offsetof(cost_cli, co.patterns),
      .help = "ddl's ring|rhd per dimension (with --algo ddl)" },
};

#define COST_SETS(c)                                                                                   \
    { OPTS_SET(rows, (c)), { platform_rows, PLATFORM_ROWS, &(c)->po }, OPTS_ONE(&cli_row_profile, &(c)->profile) }

/* 0 ok, 1 help printed, 2 bad option (message printed). argv[1] is `cost` or the old `--algo`. */
static int parse(int argc, char **argv, cost_cli *c)
{
    char err[300];
    const opts_set sets[] = COST_SETS(c);
    opts_parser p = { sets, (int)(sizeof sets / sizeof sets[0]), NULL, 0, 0, { 0 } };
    int skip = !strcmp(argv[1], "cost");
    int rc = opts_parse(&p, argc - skip, argv + skip, err, sizeof err);
    if (rc == OPTS_HELP) usage(stdout);
    else if (rc) fprintf(stderr, "ddlbench model: %s\n", err);
    else if (!c->nalgos || !opts_given(&p, "--bytes")) {
        fprintf(stderr, "ddlbench model: %s: expected %s (required with model cost)\n",
                c->nalgos ? "--bytes" : "--algo", c->nalgos ? "a size" : "a list of algorithms");
        rc = 2;
    }
    return rc;
}

static void usage(FILE *f)
{
    cost_cli c;
    const opts_set sets[] = COST_SETS(&c);
    fprintf(
        f,
        "usage: ddlbench model cost --algo LIST --platform NAME|FILE --nodes N [--gpus-per-node N] --bytes SIZE\n"
        "                          [--profile NAME|FILE] [--grid AxBxC] [--patterns P1,P2,...]\n"
        "  (old spelling: ddlbench model --algo LIST ...)\n"
        "  Predicted allreduce time per algorithm (those with a cost model; ddlbench list) from\n"
        "  libddl's alpha-beta-gamma model, with alpha/beta per link level from the platform preset and\n"
        "  gamma from the device profile (default: the platform's own GPU, e.g. h100 on dgxh100).\n"
        "  --platform custom takes --intra-bw --intra-lat --inter-bw --inter-lat;\n"
        "  FILE: a platform file, e.g. from ddlbench calibrate --network (its links; SMPI factors only simulate).\n");
    opts_usage(f, sets, (int)(sizeof sets / sizeof sets[0]));
}

int cli_model_cost(int argc, char **argv)
{
    cost_cli c = { .po = PLATFORM_OPTS_INIT };
    platform pf;
    profile pr;
    char err[300];
    int rc = parse(argc, argv, &c);
    if (rc) return rc == 1 ? 0 : rc;
    if (platform_from_opts(&c.po, &pf, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return 2;
    }
    if (platform_profile(&pf, c.profile, c.po.override || !c.po.preset, &c.profile, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return 2;
    }
    if (profile_load(c.profile, &pr, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: --profile: %s\n", err);
        return 2;
    }
    /* the reduction cost at this vector size when the profile has a table (as the simulator prices it) */
    double gamma_ns = kern_sim_reduce_interp(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns, pr.reduce_ns_per_byte,
                                             c.bytes);
    c.co.gamma = gamma_ns * 1e-9;
    const char *const *items = c.algos;
    const int n = c.nalgos;
    int ddl = 0;
    for (int i = 0; i < n; i++) ddl |= !strcmp(items[i], "ddl");
    if ((c.co.grid || c.co.patterns) && !ddl) {
        fprintf(stderr, "ddlbench model: %s: applies to --algo ddl only; expected ddl in --algo\n",
                c.co.grid ? "--grid" : "--patterns");
        return 2;
    }
    const int p = platform_ranks(&pf);
    printf("# model: %s, %d nodes x %d GPUs = %d ranks, %zu bytes, profile %s (gamma %.4g ns/B)\n", pf.name,
           pf.nodes, pf.gpus_per_node, p, c.bytes, c.profile, gamma_ns);
    char links[400];
    platform_describe(&pf, links, sizeof links);
    printf("# links: %s\n", links);
    printf("# %-9s %12s %12s %12s\n", "algo", "time_us", "algbw_GBps", "busbw_GBps"); /* nccl-ring: 9 */
    for (int i = 0; i < n; i++) {
        double t;
        if (perf_cost(&pf, items[i], (double)c.bytes, &c.co, &t, err, sizeof err)) {
            int named = !strncmp(err, "grid: ", 6) || !strncmp(err, "patterns: ", 10); /* as typed: --grid */
            fprintf(stderr, "ddlbench model: %s%s\n", named ? "--" : "", err);
            return 2;
        }
        double algbw = t > 0 ? (double)c.bytes / t / 1e9 : 0;
        printf("  %-9s %12.1f %12.3f %12.3f\n", items[i], t * 1e6, algbw, algbw * 2.0 * (p - 1) / p);
    }
    return 0;
}
