/* cli_list.c — `ddlbench list`: the algorithm registry, one line each. Needs no MPI launch. */
#include "cli.h"
#include "ddl.h"

#include <stdio.h>

int cli_list_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    for (int i = 0; i < ddl_algo_count(); i++) printf("%-6s %s\n", ddl_algo_name(i), ddl_algo_help(i));
    return 0;
}
