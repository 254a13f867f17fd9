/* registry.c — the one table of allreduce algorithms. The CLI's --list, the benchmark loops and the
 * tests iterate it: adding an algorithm is one file plus one row here. */
#include "coll.h"

#include <string.h>

static const coll_algo algos[] = {
    { "mpi", coll_allreduce_mpi, coll_mpi_setup, coll_mpi_teardown,
      "MPI_Allreduce of the MPI library (the baseline)" },
    { "ring", coll_allreduce_ring, NULL, NULL,
      "ring reduce-scatter + allgather, segmented and pipelined" },
    { "rhd", coll_allreduce_rhd, NULL, NULL,
      "Rabenseifner: recursive halving reduce-scatter + doubling allgather, any rank count" },
    { "ddl", coll_allreduce_ddl, coll_ddl_setup, coll_ddl_teardown,
      "hierarchical multi-dimensional (PowerAI DDL): per-dimension ring or rhd on a grid" },
    { "auto", coll_allreduce_auto, coll_auto_setup, coll_auto_teardown,
      "per message size, the fastest of ring, rhd and ddl (grid, patterns) by the cost model" },
};

#define NALGOS ((int)(sizeof algos / sizeof algos[0]))

const coll_algo *coll_algo_get(int i) { return i >= 0 && i < NALGOS ? &algos[i] : NULL; }

int coll_algo_find(const char *name)
{
    for (int i = 0; i < NALGOS; i++)
        if (strcmp(algos[i].name, name) == 0) return i;
    return -1;
}

int ddl_algo_count(void) { return NALGOS; }
const char *ddl_algo_name(int i) { return i >= 0 && i < NALGOS ? algos[i].name : NULL; }
const char *ddl_algo_help(int i) { return i >= 0 && i < NALGOS ? algos[i].help : NULL; }
