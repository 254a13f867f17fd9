/* cli_fidelity.c — `ddlbench fidelity ACTION FILE...`: the statistics of `make fidelity`
 * (harness/sim/fidelity.h) for harness/scripts/fidelity.sh, which only launches the runs and draws:
 *   merge CSV...            repeated real allreduce CSVs -> one (median of medians, min of mins)
 *   join LABEL DIR          the rows of points.csv for one setup (DIR's four CSVs)
 *   report POINTS           the table, groups, pass rule and summary lines of points.csv
 *   profile FILE...         local.profile from gemm*.txt (model --time) and cpu*.profile (calibrate)
 *   contention FILE...      GEMMs beside communication: gemm*.txt alone, beside*.txt -> percent
 *   comm-ratio ALONE BESIDE communication beside compute: two allreduce CSVs -> percent
 * Text goes to stdout; bad input is one line on stderr and exit 2. No MPI. */
#include "cli.h"
#include "fidelity.h"
#include "opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FID_MAX_FILES 1024

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench fidelity ACTION FILE...\n"
               "The statistics of `make fidelity` (harness/scripts/fidelity.sh), to stdout:\n"
               "  merge CSV...             repeated real allreduce CSVs -> one: per point the median of the\n"
               "                           runs' medians, the min of their mins, the number of runs\n"
               "  join LABEL DIR           points.csv's rows for one setup from DIR/allreduce_real.csv,\n"
               "                           allreduce_sim.csv, train_real.csv, train_sim.csv:\n"
               "                           " FIDELITY_POINTS_HEADER "\n"
               "                           error = (sim - real) / real (allreduce: out-of-place; train: the step)\n"
               "  report POINTS            every point, per group (kind, setup, ranks) the median and max\n"
               "                           |error|; a group passes at median <= %g%% and max <= %g%%\n"
               "  profile FILE...          local.profile: the median GEMM rate of `model --time` outputs and\n"
               "                           the median of every key of cpu*.profile (`ddlbench calibrate`)\n"
               "  contention FILE...       (median beside / median alone - 1) x 100 of the GEMM ms of\n"
               "                           gemm*.txt (alone) and beside*.txt, at least 0\n"
               "  comm-ratio ALONE BESIDE  (beside / alone - 1) x 100 of two allreduce CSVs' in-place rows\n"
               "Medians are the mean of the two middle values when their count is even (docs/DESIGN.md).\n"
               "Exit 0, 1 out of memory, 2 bad input (one line on stderr).\n",
            FIDELITY_MEDIAN_PCT, FIDELITY_MAX_PCT);
}

typedef struct inputs { fidelity_text t[FID_MAX_FILES]; int n; } inputs;

static int load(inputs *in, const char *path, char *err, size_t errlen)
{
    fidelity_text *t = &in->t[in->n];
    t->name = path;
    int rc = cli_read_all(path, (char **)&t->text, &t->len, err, errlen);
    if (!rc) in->n++;
    return rc;
}

static void unload(inputs *in)
{
    for (int i = 0; i < in->n; i++) free((char *)in->t[i].text);
    in->n = 0;
}

static int ends_like(const char *path, const char *stem, const char *ext) /* .../STEM<digits>EXT */
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t s = strlen(stem), e = strlen(ext), n = strlen(b);
    if (n <= s + e || strncmp(b, stem, s) || strcmp(b + n - e, ext)) return 0;
    return strspn(b + s, "0123456789") == n - s - e;
}

/* The action on files[0..n): its text into *out, or a number into *pct (*out NULL). */
static int act(const char *a, const char **files, int n, char **out, double *pct, char *err, size_t errlen)
{
    static inputs in, other; /* large: not on the stack */
    static char path[4][4200];
    int rc = 0, want = !strcmp(a, "join") || !strcmp(a, "comm-ratio") ? 2 : !strcmp(a, "report") ? 1 : -1;
    if (want > 0 ? n != want : n < 1)
        return snprintf(err, errlen, "%s: expected %s file(s), got %d (see --help)", a,
                        want == 2 ? "2" : want == 1 ? "1" : "1 or more", n), 2;
    if (!strcmp(a, "join")) {
        static const char *const names[] = { "allreduce_real", "allreduce_sim", "train_real", "train_sim" };
        for (int i = 0; i < 4 && !rc; i++)
            snprintf(path[i], sizeof path[i], "%.4000s/%s.csv", files[1], names[i]),
                rc = load(&in, path[i], err, errlen);
        if (!rc) rc = fidelity_join(files[0], in.t, out, err, errlen);
    } else {
        for (int i = 0; i < n && !rc; i++) {
            int second = (!strcmp(a, "profile") && ends_like(files[i], "cpu", ".profile")) ||
                         (!strcmp(a, "contention") && !ends_like(files[i], "gemm", ".txt")) ||
                         (!strcmp(a, "comm-ratio") && i == 1);
            rc = load(second ? &other : &in, files[i], err, errlen);
        }
        if (rc) {
        } else if (!strcmp(a, "merge")) rc = fidelity_merge(in.t, in.n, out, err, errlen);
        else if (!strcmp(a, "report")) rc = fidelity_report(in.t, out, err, errlen);
        else if (!strcmp(a, "profile")) rc = fidelity_profile(in.t, in.n, other.t, other.n, out, err, errlen);
        else if (!strcmp(a, "contention")) rc = fidelity_contention(in.t, in.n, other.t, other.n, pct, err, errlen);
        else rc = fidelity_comm_ratio(&in.t[0], &other.t[0], pct, err, errlen);
    }
    unload(&in), unload(&other);
    return rc;
}

int cli_fidelity_main(int argc, char **argv)
{
    static const char *ops[FID_MAX_FILES + 1];
    static const char *const actions[] = { "merge", "join", "report", "profile", "contention", "comm-ratio" };
    char err[600], *out = NULL;
    double pct = 0;
    opts_parser p = { NULL, 0, ops, FID_MAX_FILES + 1, 0, { 0 } };
    int prc = opts_parse(&p, argc, argv, err, sizeof err), rc = 2, known = 0;
    if (prc == OPTS_HELP) return usage(stdout), 0;
    if (prc) return fprintf(stderr, "ddlbench fidelity: %s\n", err), 2;
    for (size_t i = 0; p.noperands && i < sizeof actions / sizeof *actions; i++) known |= !strcmp(ops[0], actions[i]);
    if (!known)
        snprintf(err, sizeof err, "expected an action (merge, join, report, profile, contention, comm-ratio), "
                 "got \"%.60s\"", p.noperands ? ops[0] : "");
    else rc = act(ops[0], ops + 1, p.noperands - 1, &out, &pct, err, sizeof err);
    if (rc) return fprintf(stderr, "ddlbench fidelity: %s\n", err), rc;
    if (out) fputs(out, stdout);
    else printf("%.1f\n", pct);
    free(out);
    return fflush(stdout) ? 1 : 0;
}
