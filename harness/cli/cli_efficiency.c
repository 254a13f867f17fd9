/* cli_efficiency.c — `ddlbench efficiency BASE RUN`: the weak-scaling efficiency of a run's steps
 * against a baseline run, two train CSVs (common/scaling.c, scaling_step_efficiency): per row of RUN,
 * E = X(N) / ((N/N0) X(N0)) of images/s on its median, slowest and fastest steps against BASE's
 * median step, as CSV on stdout. `make jitter` (harness/scripts/jitter.sh) prints its table from it. */
#include "cli.h"
#include "opts.h"
#include "scaling.h"

#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench efficiency BASE RUN\n"
               "The weak-scaling efficiency of the train CSV RUN (N GPUs) against the train CSV BASE (N0 GPUs,\n"
               "e.g. 1): for each row of RUN with a row of the same model, algo and bucket_MB in BASE,\n"
               "E = X(N) / ((N/N0) X(N0)), X = images/s = ranks x batch / step time, in percent, on RUN's\n"
               "median step (eff_median_pct), its slowest (eff_min_pct) and its fastest (eff_max_pct), each\n"
               "against BASE's median step. CSV on stdout:\n  " SCALING_STEP_HEADER "\n"
               "Exit 0, 1 out of memory, 2 bad input (one line on stderr).\n");
}

int cli_efficiency_main(int argc, char **argv)
{
    const char *ops[3];
    char err[600], *out = NULL;
    opts_parser p = { NULL, 0, ops, 3, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) return usage(stdout), 0;
    if (!rc && p.noperands != 2)
        rc = 2, snprintf(err, sizeof err, "expected BASE and RUN, two train CSVs (see --help)");
    scaling_file f[2] = { { 0 } };
    for (int i = 0; !rc && i < 2; i++) {
        f[i].name = ops[i];
        rc = cli_read_all(ops[i], (char **)&f[i].text, &f[i].len, err, sizeof err);
    }
    if (!rc) rc = scaling_step_efficiency(&f[0], &f[1], &out, err, sizeof err);
    if (rc) fprintf(stderr, "ddlbench efficiency: %s\n", err);
    else fputs(out, stdout);
    free(out), free((char *)f[0].text), free((char *)f[1].text);
    return rc ? rc : fflush(stdout) ? 1 : 0;
}
