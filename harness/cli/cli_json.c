/* cli_json.c — `ddlbench json [--kind K] CSV JSON`: the JSON document (results.h) of a ddlbench CSV —
 * provenance lines, header, rows — written whole. The sweep writes scaling.json with it; `train` and
 * `allreduce` write theirs directly with --json. No MPI. */
#include "cli.h"
#include "results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_IN_MAX ((size_t)256 << 20) /* 256 MB: far above any results CSV */

static void usage(FILE *f)
{
    fprintf(f, "usage: ddlbench json [--kind KIND] CSV JSON\n"
               "Writes the JSON document of a ddlbench CSV (results/README.md, \"JSON\"): its # key: value\n"
               "lines as \"provenance\", the header as \"columns\", each row as an object of those names;\n"
               "numbers as numbers, NA as null. KIND names the table (default: the CSV's file name without\n"
               ".csv, e.g. scaling). JSON is written to JSON.tmp and renamed when complete.\n");
}

static int read_all(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    if (!f) return snprintf(err, errlen, "%.200s: cannot read (%s)", path, strerror(errno)), 2;
    for (;;) {
        if (n + 65536 > cap) {
            if (cap + 65536 > JSON_IN_MAX) { snprintf(err, errlen, "%.200s: larger than 256 MB", path); rc = 2; break; }
            char *b = realloc(buf, cap += 65536);
            if (!b) { snprintf(err, errlen, "%.200s: out of memory reading it", path); rc = 1; break; }
            buf = b;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    if (!rc && ferror(f)) rc = 2, snprintf(err, errlen, "%.200s: read error", path);
    fclose(f);
    if (rc) free(buf);
    else *out = buf, *len = n;
    return rc;
}

int cli_json_main(int argc, char **argv)
{
    const char *kind = NULL, *paths[2] = { NULL, NULL };
    char err[400], kbuf[64];
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) { usage(stdout); return 0; }
        if (!strcmp(argv[i], "--kind")) {
            if (++i == argc || !*argv[i]) { fprintf(stderr, "ddlbench json: --kind: expected a name\n"); return 2; }
            kind = argv[i];
        } else if (np < 2 && argv[i][0] != '-') {
            paths[np++] = argv[i];
        } else {
            fprintf(stderr, "ddlbench json: unexpected \"%s\" (expected [--kind KIND] CSV JSON)\n", argv[i]);
            return 2;
        }
    }
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
    int rc = read_all(paths[0], &text, &len, err, sizeof err);
    if (rc) return fprintf(stderr, "ddlbench json: %s\n", err), rc;
    rc = results_write(NULL, paths[1], kind, text, len, err, sizeof err);
    if (rc == 2) fprintf(stderr, "ddlbench json: %.200s: not a ddlbench CSV: %s\n", paths[0], err);
    else if (rc) fprintf(stderr, "ddlbench json: %s\n", err);
    free(text);
    return rc;
}
