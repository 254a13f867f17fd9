/* cli_catalogue.c — `ddlbench catalogue [--catalogue DIR]`: the catalogue of published figures
 * (the .study files of harness/sim/studies, study_file.h) as one CSV on stdout, so that the reports (report.sh,
 * summary.sh, report_study.sh) read published figures from the catalogue alone, by column name. */
#include "cli.h"
#include "csv.h"
#include "opts.h"
#include "study_file.h"
#include "tree.h"

#include <stdio.h>
#include <string.h>

#define CATALOGUE_HEADER "entry,model,gpus,baseline,published_pct,hours,platforms,label"

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench catalogue [--catalogue DIR]\n"
               "The catalogue of published scaling figures, one row per .study entry (study_file.h), as CSV:\n"
               "  " CATALOGUE_HEADER "\n"
               "published_pct: the published efficiency, %%; hours: the published wall time (NA: none);\n"
               "platforms: the platform alternatives, '|' between them; label: what was published (last: the\n"
               "one cell that may be quoted). Sources: the .study files and `ddlbench study`. With --platform P,\n"
               "only the figures comparable with a run on P: the entries of a model and scale of which some\n"
               "entry runs on P's family (its name up to the first digit, '-' or ' ': minsky, bigbasin, ...).\n"
               "The reports read published figures from it (harness/scripts/report.sh, summary.sh, plots.sh).\n");
}

static void cell(const char *s, int last) /* one CSV cell, quoted where it must be */
{
    char c[512];
    csv_format_cell(s, c, sizeof c);
    fputs(c, stdout);
    fputc(last ? '\n' : ',', stdout);
}

/* A platform's family: its file name without folder and .platform, up to the first digit, '-' or ' '. */
static void family(const char *p, char *out, size_t cap)
{
    const char *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
    size_t k = strcspn(b, "0123456789- .");
    snprintf(out, cap, "%.*s", (int)(k < cap ? k : cap - 1), b);
}

/* 1 when an entry of e's model and scale runs on the family fam. */
static int comparable(const study_entry *all, int n, const study_entry *e, const char *fam)
{
    char f[64];
    for (int i = 0; i < n; i++)
        for (int k = 0; !strcmp(all[i].model, e->model) && all[i].gpus == e->gpus && k < all[i].nplatforms; k++)
            if (family(all[i].platforms[k], f, sizeof f), !strcmp(f, fam)) return 1;
    return 0;
}

int cli_catalogue_main(int argc, char **argv)
{
    static study_entry e[STUDY_MAX_ENTRIES];
    char tree[4200], err[800], num[64], plats[STUDY_MAX_ALTS * 65], fam[64] = "";
    const char *dir = tree_path("harness/sim/studies", tree, sizeof tree), *plat = NULL;
    const opt_row rows[] = {
        { .name = "--catalogue", .type = OPT_STRING, .min = 1, .unit = "DIR", .expect = "a folder",
          .help = "the folder of .study entries (default harness/sim/studies)" },
        { .name = "--platform", .type = OPT_STRING, .min = 1, .unit = "P", .expect = "a platform name or file",
          .help = "only the figures comparable with a run on platform P" },
    };
    const opts_set sets[] = { OPTS_ONE(&rows[0], &dir), OPTS_ONE(&rows[1], &plat) };
    opts_parser p = { sets, 2, NULL, 0, 0, { 0 } };
    int n = 0, rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) return usage(stdout), opts_usage(stdout, sets, 2), 0;
    if (!rc) rc = study_catalogue(dir, e, STUDY_MAX_ENTRIES, &n, err, sizeof err);
    if (rc) return fprintf(stderr, "ddlbench catalogue: %s\n", err), 2;
    printf("%s\n", CATALOGUE_HEADER);
    if (plat) family(plat, fam, sizeof fam);
    for (int i = 0; i < n; i++) {
        if (plat && !comparable(e, n, &e[i], fam)) continue;
        plats[0] = '\0';
        for (int k = 0; k < e[i].nplatforms; k++) strcat(strcat(plats, k ? "|" : ""), e[i].platforms[k]);
        if (e[i].published_hours > 0) snprintf(num, sizeof num, "%g", e[i].published_hours);
        else snprintf(num, sizeof num, "NA");
        cell(e[i].name, 0), cell(e[i].model, 0);
        printf("%d,%d,%g,%s,", e[i].gpus, e[i].baseline, e[i].published, num);
        cell(plats, 0), cell(e[i].label, 1);
    }
    return fflush(stdout) ? 1 : 0;
}
