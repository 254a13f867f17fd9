/* cli_json.c — `ddlbench json [--kind K] CSV JSON`: the JSON document (results.h) of a ddlbench CSV —
 * provenance lines, header, rows — written whole. The sweep writes scaling.json with it; `train` and
 * `allreduce` write theirs directly with --json. No MPI. */
#include "cli.h"
#include "outfile.h"
#include "opts.h"
#include "results.h"
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench json [--kind KIND] CSV JSON\n"
               "Writes the JSON document of a ddlbench CSV (results/README.md, \"JSON\"): its # key: value\n"
               "lines as \"provenance\", the header as \"columns\", each row as an object of those names;\n"
               "numbers as numbers, NA as null. KIND names the table (default: the CSV's file name without\n"
               ".csv, e.g. scaling). JSON is written to JSON.tmp and renamed when complete.\n");
}

int cli_read_all(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    return textfile_read(path, out, len, err, errlen);
}

int cli_json_main(int argc, char **argv)
{
    const char *kind = NULL, *paths[2] = { NULL, NULL };
    char err[400], kbuf[64];
    int np = 0;
    const opt_row kind_row = { .name = "--kind", .type = OPT_STRING, .min = 1, .unit = "KIND", .expect = "a name",
                               .help = "the document's kind (default: the CSV's name without .csv)" };
    const opts_set sets[] = { OPTS_ONE(&kind_row, &kind) };
    opts_parser p = { sets, 1, paths, 2, 0, { 0 } };
    int prc = opts_parse(&p, argc, argv, err, sizeof err);
    if (prc == OPTS_HELP) usage(stdout);
    if (prc == OPTS_BAD) fprintf(stderr, "ddlbench json: %s\n", err);
    if (prc) return prc == OPTS_HELP ? 0 : 2;
    np = p.noperands;
    if (np != 2) { fprintf(stderr, "ddlbench json: expected CSV and JSON paths (see --help)\n"); return 2; }
    if (!kind) {
        const char *b = strrchr(paths[0], '/');
        snprintf(kbuf, sizeof kbuf, "%s", b ? b + 1 : paths[0]);
        char *dot = strstr(kbuf, ".csv");
        if (dot) *dot = '\0';
        kind = kbuf;
    }
    char *text = NULL;
    size_t len = 0;
    if (outfile_check("JSON", paths[1], err, sizeof err)) /* a bad output path is bad input: 2, before reading */
        return fprintf(stderr, "ddlbench json: %s\n", err), 2;
    int rc = cli_read_all(paths[0], &text, &len, err, sizeof err);
    if (rc) return fprintf(stderr, "ddlbench json: %s\n", err), rc;
    rc = results_write(NULL, paths[1], kind, text, len, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ddlbench json: %.200s: not a ddlbench CSV: %s\n", paths[0], err);
    else if (rc) fprintf(stderr, "ddlbench json: %s\n", err);
    free(text);
    return rc;
}
