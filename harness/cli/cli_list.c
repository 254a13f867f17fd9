/* cli_list.c — `ddlbench list`: the algorithm registry, one line each (name, help; "(allreduce only)"
 * for a row without reduce-scatter and allgather); `--names`: the names alone, one per line, for
 * scripts (harness/scripts/sweep.sh). Needs no MPI launch. Also the one
 * check of algorithm names on a command line (cli_algos_parse), for allreduce and train. */
#include "cli.h"
#include "ddl.h"
#include "opts.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

int cli_algos_parse(const char *s, char *buf, size_t buflen, const char **items, int max, int *n,
                    const char **unknown)
{
    if (parse_list(s, ',', buf, buflen, items, max, n)) return 1;
    for (int i = 0; i < *n; i++)
        if (ddl_algo_find(items[i]) < 0) {
            *unknown = items[i];
            return 2;
        }
    return 0;
}

int cli_list_main(int argc, char **argv)
{
    int names = 0;
    char err[200];
    const opt_row row = { .name = "--names", .type = OPT_FLAG, .help = "names only, one a line" };
    const opts_set sets[] = { OPTS_ONE(&row, &names) };
    opts_parser p = { sets, 1, NULL, 0, 0, { 0 } };
    int rc = opts_parse(&p, argc, argv, err, sizeof err);
    if (rc == OPTS_HELP) {
        printf("usage: ddlbench list [--names]\n"
               "  The registered algorithms: name and one line of help. Each does allreduce, reduce-scatter\n"
               "  and allgather, but those marked (allreduce only).\n");
        opts_usage(stdout, sets, 1);
        return 0;
    }
    if (rc) {
        fprintf(stderr, "ddlbench list: %s\n", err);
        return 2;
    }
    int w = 0; /* the widest name: every help in one column */
    for (int i = 0; i < ddl_algo_count(); i++)
        w = (int)strlen(ddl_algo_name(i)) > w ? (int)strlen(ddl_algo_name(i)) : w;
    for (int i = 0; i < ddl_algo_count(); i++) {
        if (names) printf("%s\n", ddl_algo_name(i));
        else printf("%-*s %s%s\n", w, ddl_algo_name(i), ddl_algo_help(i),
                    ddl_algo_flags(i) & DDL_ALGO_RSAG ? "" : " (allreduce only)");
    }
    return 0;
}
