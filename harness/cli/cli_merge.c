/* cli_merge.c — `ddlbench merge [sweep options] DIR`: DIR/raw/NAME.csv (one train CSV per launch of a
 * scaling sweep) -> DIR/scaling.csv with the efficiencies (scaling.c) and DIR/scaling.json (the same
 * rows: results_write, as `ddlbench json` writes them). Both are checked before any raw CSV is read
 * and written together, whole, or not at all (outfile.h, results_write); a malformed raw CSV, or a
 * number in it that is not finite (or negative where a count or time is meant), writes nothing.
 * The sweep options give the table's own provenance lines (as sweep.sh ran). */
#include "cli.h"
#include "platform.h"
#include "outfile.h"
#include "results.h"
#include "scaling.h"
#include "sweep_opts.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MERGE_MAX_FILES 4096

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench merge [sweep options] DIR\n"
               "Merges DIR/raw/*.csv, the CSVs of a scaling sweep's launches (harness/scripts/sweep.sh runs it\n"
               "after every launch), into DIR/scaling.csv and DIR/scaling.json: one row per configuration\n"
               "(with --per-rank, the \"all\" row), the backend (\"model\" for a *-model.csv) and platform,\n"
               "nodes and GPUs per node, and the scaling efficiency E(N) = X(N) / ((N/N0) X(N0)) of images/s\n"
               "against 1 GPU (eff_vs_1gpu) and against 1 node (eff_vs_1node; NA without that baseline).\n"
               "The sweep options (ddlbench sweep-check --help; --command: the sweep's command line) give\n"
               "its # provenance lines; --backend mpi labels the platform \"allocation\" when DDL_LAUNCHER (set by\n"
               "sweep.sh: launch.sh --which) names another launcher than this machine's mpilaunch.sh.\n"
               "Exit 0, 1 a write failed, 2 bad options or a raw CSV that is not one (nothing written).\n");
}

static int by_order(const void *a, const void *b) { return scaling_order(*(char *const *)a, *(char *const *)b); }

/* DIR/raw/NAME.csv, sorted (scaling_order). 0 with paths[0..*n) (malloc'd), or 2 (1: out of memory)
 * with a message. */
static int list_raw(const char *dir, char **paths, int *n, char *err, size_t errlen)
{
    char raw[4200];
    snprintf(raw, sizeof raw, "%s/raw", dir);
    DIR *d = opendir(raw);
    if (!d) return snprintf(err, errlen, "%.300s: cannot read (%s)", raw, strerror(errno)), 2;
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        size_t k = strlen(e->d_name);
        if (e->d_name[0] == '.' || k < 5 || strcmp(e->d_name + k - 4, ".csv")) continue;
        if (*n == MERGE_MAX_FILES) rc = 2, snprintf(err, errlen, "%.300s: over %d CSVs", raw, MERGE_MAX_FILES);
        else if (!(paths[*n] = malloc(strlen(raw) + k + 2))) rc = 1, snprintf(err, errlen, "out of memory");
        else sprintf(paths[(*n)++], "%s/%s", raw, e->d_name);
    }
    closedir(d);
    if (!rc && !*n)
        rc = 2, snprintf(err, errlen, "%.300s: no raw CSVs (*.csv); expected a sweep's results folder", raw);
    if (!rc) qsort(paths, (size_t)*n, sizeof *paths, by_order);
    return rc;
}

/* The sweep's own provenance lines, as sweep.sh's sweep_meta wrote them. */
static void meta_lines(const sweep_params *p, const char *dir, char *m, size_t len)
{
    char run[512], plat[700];
    snprintf(run, sizeof run, "%s", dir);
    for (size_t k = strlen(run); k > 1 && run[k - 1] == '/'; k--) run[k - 1] = '\0';
    const char *base = strrchr(run, '/') && run[1] ? strrchr(run, '/') + 1 : run;
    const char *launcher = getenv("DDL_LAUNCHER");
    if (!strcmp(p->backend, "sim") || !strcmp(p->backend, "model"))
        snprintf(plat, sizeof plat, "# platform: %s (%s)\n# profile: %s\n# gpus_per_node_from: %s\n", p->platform,
                 *p->backend == 's' ? "simulated" : "alpha-beta-gamma model, not simulated", p->profile,
                 p->override ? "--override-platform (or no platform given)" : "the platform");
    else if (!strcmp(p->backend, "emu"))
        snprintf(plat, sizeof plat, "# platform: emulated cluster (harness/scripts/emucluster.sh), NIC %s, delay %s\n",
                 p->rate, p->delay);
    else if (p->platform_given)
        snprintf(plat, sizeof plat, "# platform: %s (real MPI: its links drive auto and libddl's segments), launcher: "
                 "%s\n", p->platform, launcher && *launcher ? launcher : "mpilaunch.sh");
    else
        snprintf(plat, sizeof plat, "# platform: real MPI (no platform given: auto's built-in rule), launcher: %s\n",
                 launcher && *launcher ? launcher : "mpilaunch.sh");
    char links[500] = "", line[400];
    platform pf;
    char why[400];
    int named = strcmp(p->backend, "emu") && (strcmp(p->backend, "mpi") || p->platform_given);
    if (named && strcmp(p->platform, "custom") &&
        !platform_init_partial(&pf, p->platform, (int)p->n_nodes, (int)p->n_gpn, why, sizeof why)) {
        platform_describe(&pf, line, sizeof line); /* the links as resolved at the largest scale */
        snprintf(links, sizeof links, "# links: %s\n", line);
    }
    snprintf(m, len, "# run: %s\n# backend: %s\n%s%s# nodes: %ld\n# gpus_per_node: %ld\n# models: %s\n# algos: %s\n"
                     "# bucket_MB: %ld\n# train_args: %s%s%s\n# sweep_command: %s\n",
             base, p->backend, plat, links, p->n_nodes, p->n_gpn, p->models, p->algos, p->n_bucket, p->train_args,
             *p->add_train_args ? " " : "", p->add_train_args, p->command);
    if (p->n_global) { /* strong scaling: each point's batch column is its share (gbatch.h) */
        size_t k = strlen(m);
        snprintf(m + k, len - k, "# global_batch: %ld (strong scaling: floor(%ld / GPUs) a GPU)\n", p->n_global,
                 p->n_global);
    }
}

/* The value of the "# key: " line in text[0..len) (not NUL-terminated), and its length in *n; NULL if none. */
static const char *meta_value(const char *text, size_t len, const char *key, int *n)
{
    size_t k = strlen(key);
    for (size_t i = 0; i + k <= len; i = (size_t)((const char *)memchr(text + i, '\n', len - i) - text) + 1) {
        if (!memcmp(text + i, key, k)) {
            size_t e = i + k;
            while (e < len && text[e] != '\n') e++;
            *n = (int)(e - i - k);
            return text + i + k;
        }
        if (!memchr(text + i, '\n', len - i)) break;
    }
    return NULL;
}

/* On an allocation (mpi, DDL_LAUNCHER not this machine's mpilaunch.sh): each launch's "# placement:"
 * (where its ranks landed: meta_placement) against the intended nodes x GPUs per node of its GPU count
 * (NAME-G.csv). Appends "# placement_check: ..." to m and warns on stderr for each launch that differs.
 * Returns the number that differ. */
static int placement_check(const sweep_params *p, const scaling_file *files, int n, char *m, size_t len)
{
    const char *launcher = getenv("DDL_LAUNCHER");
    char bad[1200] = "", want[64];
    size_t used = 0;
    int nbad = 0, checked = 0;
    if (strcmp(p->backend, "mpi") || !launcher || !*launcher || !strcmp(launcher, "mpilaunch.sh")) return 0;
    for (int i = 0; i < n; i++) {
        const char *base = strrchr(files[i].name, '/') ? strrchr(files[i].name, '/') + 1 : files[i].name;
        int got = 0;
        const char *dash = strrchr(base, '-'), *at = meta_value(files[i].text, files[i].len, "# placement: ", &got);
        long g = dash ? strtol(dash + 1, NULL, 10) : 0;
        if (g < 1 || strstr(base, "-model.csv")) continue;
        long nodes = g >= p->n_gpn ? (g + p->n_gpn - 1) / p->n_gpn : 1, k = g >= p->n_gpn ? p->n_gpn : g;
        snprintf(want, sizeof want, "%ld host%s x %ld rank%s", nodes, nodes == 1 ? "" : "s", k, k == 1 ? "" : "s");
        checked++;
        if (at && (size_t)got == strlen(want) && !strncmp(at, want, (size_t)got)) continue;
        nbad++;
        fprintf(stderr, "ddlbench merge: %s: ranks on %.*s, intended %s (%ld nodes x %ld GPUs; the launcher placed "
                "them otherwise)\n", base, at ? got : 7, at ? at : "unknown", want, nodes, p->n_gpn);
        if (used < sizeof bad)
            used += (size_t)snprintf(bad + used, sizeof bad - used, "%s%.100s %.*s, intended %s", nbad > 1 ? "; " : "",
                                     base, at ? (got < 60 ? got : 60) : 7, at ? at : "unknown", want);
    }
    size_t ml = strlen(m);
    if (nbad) snprintf(m + ml, len - ml, "# placement_check: MISMATCH %d of %d launches: %s\n", nbad, checked, bad);
    else if (checked) snprintf(m + ml, len - ml, "# placement_check: %d launches as intended\n", checked);
    return nbad;
}

static int merge(const sweep_params *p, const char *dir, char **paths, int n, char *err, size_t errlen)
{
    scaling_file *files = calloc((size_t)n, sizeof *files);
    char meta[16384], label[300], csv[4200], json[4200], *text = NULL;
    size_t len = 0;
    int rc = 1, nread = 0;
    if (!files) { snprintf(err, errlen, "out of memory"); goto out; }
    rc = 2; /* an output that cannot be written, or an unreadable raw CSV, is bad input */
    snprintf(csv, sizeof csv, "%s/scaling.csv", dir);
    snprintf(json, sizeof json, "%s/scaling.json", dir);
    if (outfile_check("DIR", csv, err, errlen) || outfile_check("DIR", json, err, errlen)) goto out;
    for (; nread < n; nread++) {
        files[nread].name = paths[nread];
        if (cli_read_all(paths[nread], (char **)&files[nread].text, &files[nread].len, err, errlen)) goto out;
    }
    const char *launcher = getenv("DDL_LAUNCHER");
    int alloc = launcher && *launcher && strcmp(launcher, "mpilaunch.sh");
    if (!strcmp(p->backend, "mpi")) snprintf(label, sizeof label, "%s", alloc ? "allocation" : "local");
    else if (!strcmp(p->backend, "emu")) snprintf(label, sizeof label, "emu-%.200s", p->rate);
    else snprintf(label, sizeof label, "%.200s", p->platform);
    meta_lines(p, dir, meta, sizeof meta);
    placement_check(p, files, n, meta, sizeof meta);
    scaling_setup s = { p->n_gpn, p->backend, label, meta };
    if ((rc = scaling_merge(files, n, &s, &text, &len, err, errlen))) goto out;
    rc = results_write(csv, json, "scaling", text, len, err, errlen);
out:
    for (int i = 0; files && i < nread; i++) free((char *)files[i].text);
    free(files);
    free(text);
    return rc;
}

int cli_merge_main(int argc, char **argv)
{
    sweep_params p;
    const char *dir = NULL;
    char err[800], *paths[MERGE_MAX_FILES];
    int n = 0, rc = cli_sweep_options(argc, argv, &p, &dir, err, sizeof err);
    if (rc == 3 || rc == 4) { usage(stdout); return 0; }
    if (!rc && !dir) rc = 2, snprintf(err, sizeof err, "expected the sweep's results folder DIR (see --help)");
    if (!rc) rc = cli_sweep_resolve(&p, err, sizeof err);
    if (!rc) rc = sweep_check(&p, err, sizeof err);
    if (!rc) rc = list_raw(dir, paths, &n, err, sizeof err);
    if (!rc) rc = merge(&p, dir, paths, n, err, sizeof err);
    if (rc) fprintf(stderr, "ddlbench merge: %s\n", err);
    for (int i = 0; i < n; i++) free(paths[i]);
    return rc;
}
