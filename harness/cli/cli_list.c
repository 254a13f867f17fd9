/* cli_list.c — `ddlbench list`: the algorithm registry, one line each (name, help; "(allreduce only)"
 * for a row without reduce-scatter and allgather); `--names`: the names alone, one per line, for
 * scripts (harness/scripts/sweep.sh). Needs no MPI launch. Also the one
 * check of algorithm names on a command line (cli_algos_parse), for allreduce and train. */
#include "cli.h"
#include "ddl.h"
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
    int names = argc == 2 && !strcmp(argv[1], "--names");
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: ddlbench list [--names]\n"
               "  The registered algorithms: name and one line of help; --names: names only. Each does\n"
               "  allreduce, reduce-scatter and allgather, but those marked (allreduce only).\n");
        return 0;
    }
    if (argc > 1 && !names) {
        fprintf(stderr, "ddlbench list: unknown option \"%s\" (expected --names or nothing)\n", argv[1]);
        return 2;
    }
    for (int i = 0; i < ddl_algo_count(); i++) {
        if (names) printf("%s\n", ddl_algo_name(i));
        else printf("%-6s %s%s\n", ddl_algo_name(i), ddl_algo_help(i),
                    ddl_algo_flags(i) & DDL_ALGO_RSAG ? "" : " (allreduce only)");
    }
    return 0;
}
