/* cli_cost.c — `ddlbench model --algo LIST ...`: the analytic α-β-γ prediction (model_cost.h) of each
 * algorithm for one message size on a platform preset. No MPI launch. Reached from cli_model.c's
 * dispatch when --algo is given.
 *   ddlbench model --algo ring,rhd,ddl --preset minsky --nodes 64 [--gpus-per-node 4] --bytes 100M
 *                  [--profile p100] [--grid 4x16x4] [--patterns ring,rhd,ring] */
#include "cli.h"
#include "model_cost.h"
#include "parse.h"
#include "platform.h"
#include "profile.h"
#include "sim.h"

#include <stdio.h>
#include <string.h>

#define MAX_ALGOS 8

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench model --algo LIST --preset NAME|FILE --nodes N [--gpus-per-node N] --bytes SIZE\n"
               "                      [--profile NAME|FILE] [--grid AxBxC] [--patterns P1,P2,...]\n"
               "  Predicted allreduce time per algorithm (those with a cost model; ddlbench list) from\n"
               "  libddl's alpha-beta-gamma model, with alpha/beta per link level from the platform preset and\n"
               "  gamma from the device profile (default: h200 for --preset h200, else p100).\n"
               "  SIZE: bytes with K/M/G (binary) suffixes.\n"
               "  --preset custom takes --intra-bw --intra-lat --inter-bw --inter-lat (see ddlbench platform --help);\n"
               "  FILE: a platform file, e.g. from ddlbench calibrate --network (its links; SMPI factors only simulate).\n");
}

typedef struct cost_cli {
    const char *algos, *profile;
    size_t bytes;
    int have_bytes;
    cost_opts co;
    platform_opts po;
} cost_cli;

/* 0 ok, 1 help printed, 2 bad option (message printed). */
static int parse(int argc, char **argv, cost_cli *c)
{
    char err[256];
    for (int i = 1; i < argc; i++) {
        int rc = platform_opt(argc, argv, &i, &c->po, err, sizeof err);
        if (rc == 0) continue;
        if (rc == 2) {
            fprintf(stderr, "ddlbench model: %s\n", err);
            return 2;
        }
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return 1;
        }
        if (!v || !*v) {
            fprintf(stderr, "ddlbench model: %s: expected a value (try --help)\n", o);
            return 2;
        }
        if (!strcmp(o, "--algo")) c->algos = v;
        else if (!strcmp(o, "--profile")) c->profile = v;
        else if (!strcmp(o, "--grid")) c->co.grid = v;
        else if (!strcmp(o, "--patterns")) c->co.patterns = v;
        else if (!strcmp(o, "--bytes")) {
            if (parse_size(v, 0, (size_t)1 << 40, &c->bytes)) {
                fprintf(stderr, "ddlbench model: --bytes: expected a size in 0..1T (e.g. 100M), got \"%s\"\n", v);
                return 2;
            }
            c->have_bytes = 1;
        } else {
            fprintf(stderr, "ddlbench model: unknown option \"%s\" with --algo (try --algo x --help)\n", o);
            return 2;
        }
        i++;
    }
    if (!c->have_bytes) {
        fprintf(stderr, "ddlbench model: --bytes: expected a size (required with --algo)\n");
        return 2;
    }
    return 0;
}

int cli_model_cost(int argc, char **argv)
{
    cost_cli c = { NULL, NULL, 0, 0, { NULL, NULL, 0 }, PLATFORM_OPTS_INIT };
    platform pf;
    profile pr;
    char err[300], buf[256];
    const char *items[MAX_ALGOS];
    int n, rc = parse(argc, argv, &c);
    if (rc) return rc == 1 ? 0 : rc;
    if (platform_from_opts(&c.po, &pf, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: %s\n", err);
        return 2;
    }
    if (!c.profile) c.profile = strcmp(pf.name, "h200") ? "p100" : "h200";
    if (profile_load(c.profile, &pr, err, sizeof err)) {
        fprintf(stderr, "ddlbench model: --profile: %s\n", err);
        return 2;
    }
    /* the reduction cost at this vector size when the profile has a table (as the simulator prices it) */
    double gamma_ns = kern_sim_reduce_interp(pr.reduce_points, pr.reduce_bytes, pr.reduce_ns, pr.reduce_ns_per_byte,
                                             c.bytes);
    c.co.gamma = gamma_ns * 1e-9;
    if (parse_list(c.algos, ',', buf, sizeof buf, items, MAX_ALGOS, &n)) {
        fprintf(stderr, "ddlbench model: --algo: expected a list like ring,rhd,ddl, got \"%.64s\"\n", c.algos);
        return 2;
    }
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
    printf("# %-6s %12s %12s %12s\n", "algo", "time_us", "algbw_GBps", "busbw_GBps");
    for (int i = 0; i < n; i++) {
        double t;
        if (model_cost(&pf, items[i], (double)c.bytes, &c.co, &t, err, sizeof err)) {
            int named = !strncmp(err, "grid: ", 6) || !strncmp(err, "patterns: ", 10); /* as typed: --grid */
            fprintf(stderr, "ddlbench model: %s%s\n", named ? "--" : "", err);
            return 2;
        }
        double algbw = t > 0 ? (double)c.bytes / t / 1e9 : 0;
        printf("  %-6s %12.1f %12.3f %12.3f\n", items[i], t * 1e6, algbw, algbw * 2.0 * (p - 1) / p);
    }
    return 0;
}
