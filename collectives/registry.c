/* registry.c — the one table of allreduce algorithms. Each row (coll.h's coll_algo: name, help,
 * flags, run, setup/teardown, describe, cost, auto's candidates, reduce-scatter and allgather) is defined in its
 * algorithm's file;
 * this table lists them in order. `ddlbench list`, the CLI's name checks, the benchmark loops, the
 * tests, auto's candidates, the cost model and ddl_ctx_describe all iterate it: adding an algorithm
 * is one file plus one row here.
 *
 * DDL_TEST_EXTRA_ALGO: the test build (tests/registry_extra.sh, the Makefile's registry-extra
 * target) compiles this file again with one more row, tests/extra/allreduce_star.c's; the shipped
 * library never has it. */
#include "coll.h"

#include <string.h>

extern const coll_algo coll_algo_mpi, coll_algo_ring, coll_algo_rhd, coll_algo_rhd_far, coll_algo_ddl,
    coll_algo_auto;
extern const coll_algo coll_algo_nccl_ring;
extern const coll_algo coll_algo_nccl_tree;
extern const coll_algo coll_algo_ddl_pipe;
extern const coll_algo coll_algo_nvls;
#ifdef DDL_TEST_EXTRA_ALGO
extern const coll_algo coll_algo_star;
#endif

static const coll_algo *const algos[] = {
    &coll_algo_mpi,
    &coll_algo_ring,
    &coll_algo_rhd,
    &coll_algo_rhd_far,
    &coll_algo_ddl,
    &coll_algo_ddl_pipe,
    &coll_algo_nccl_ring,
    &coll_algo_nccl_tree,
    &coll_algo_nvls,
    &coll_algo_auto,
#ifdef DDL_TEST_EXTRA_ALGO
    &coll_algo_star,
#endif
};

#define NALGOS ((int)(sizeof algos / sizeof algos[0]))

const coll_algo *coll_algo_get(int i) { return i >= 0 && i < NALGOS ? algos[i] : NULL; }

int coll_algo_find(const char *name)
{
    for (int i = 0; name && i < NALGOS; i++)
        if (strcmp(algos[i]->name, name) == 0) return i;
    return -1;
}

int ddl_algo_count(void) { return NALGOS; }
const char *ddl_algo_name(int i) { return i >= 0 && i < NALGOS ? algos[i]->name : NULL; }
const char *ddl_algo_help(int i) { return i >= 0 && i < NALGOS ? algos[i]->help : NULL; }
int ddl_algo_find(const char *name) { return coll_algo_find(name); }

unsigned ddl_algo_flags(int i)
{
    if (i < 0 || i >= NALGOS) return 0;
    return (algos[i]->flags & (DDL_ALGO_GRID | DDL_ALGO_AUTO)) | (algos[i]->cost ? DDL_ALGO_COST : 0u) |
           (algos[i]->reduce_scatter && algos[i]->allgather ? DDL_ALGO_RSAG : 0u);
}
