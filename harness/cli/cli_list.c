/* cli_list.c — `ddlbench list`: the algorithm registry, one line each. Needs no MPI launch. */
#include "cli.h"
#include "ddl.h"

#include <stdio.h>
#include <string.h>

int cli_list_main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: ddlbench list   (the registered allreduce algorithms: name and one line each)\n");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "ddlbench list: unknown option \"%s\" (try ddlbench list --help)\n", argv[1]);
        return 2;
    }
    for (int i = 0; i < ddl_algo_count(); i++) printf("%-6s %s\n", ddl_algo_name(i), ddl_algo_help(i));
    return 0;
}
