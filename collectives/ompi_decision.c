/* ompi_decision.c — Open MPI 4.1's fixed decision for MPI_Allreduce, which the simulated `mpi`
 * (allreduce_mpi_sim.c) runs and its cost model (coll_mpi_cost, cost.c) prices.
 * Source: open-mpi/ompi v4.1.x, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c,
 * ompi_coll_tuned_allreduce_intra_dec_fixed (the tables of PR #7952, averaged from the
 * ompi-collectives-tuning results; docs/SOURCES.md §7). Debian 12's Open MPI 4.1.4 runs it unless
 * coll_tuned_use_dynamic_rules is set. Only the commutative half of the table is here: ddlbench's
 * operations (sum, max, min) are all commutative.
 * One row per communicator-size band (p below `below`): byte thresholds, increasing, and the
 * algorithm for sizes under each; sizes from the last threshold up take `rest`. */
#include "coll.h"

typedef struct ompi_row {
    int below;                  /* the row holds for p < below (the last row: every larger p) */
    int n;                      /* thresholds */
    double bytes[6];            /* size < bytes[i] (and >= bytes[i-1]) -> algo[i] */
    int algo[6];
    int rest;                   /* size >= bytes[n-1] */
} ompi_row;

enum { NONOV = COLL_OMPI_NONOVERLAP, RDB = COLL_OMPI_RDB, RING = COLL_OMPI_RING, SEGR = COLL_OMPI_SEGRING,
       RSAG = COLL_OMPI_RSAG };

static const ompi_row rows[] = {
    { 4, 6, { 8, 4096, 8192, 16384, 65536, 262144 }, { RING, RDB, RING, RDB, RING, SEGR }, RSAG },
    { 8, 2, { 16, 8192 }, { RING, RDB }, RSAG },
    { 16, 1, { 8192 }, { RDB }, RSAG },
    { 32, 2, { 64, 4096 }, { SEGR, RDB }, RSAG },
    { 64, 1, { 128 }, { SEGR }, RSAG },
    { 128, 1, { 262144 }, { RDB }, RSAG },
    { 256, 2, { 131072, 262144 }, { NONOV, RDB }, RSAG },
    { 512, 1, { 4096 }, { NONOV }, RSAG },
    { 2048, 2, { 2048, 16384 }, { NONOV, RDB }, RSAG },
    { 4096, 3, { 2048, 4096, 16384 }, { NONOV, SEGR, RDB }, RSAG },
    { 0, 3, { 2048, 16384, 32768 }, { NONOV, SEGR, RDB }, RSAG }, /* below = 0: every larger p */
};

int coll_ompi_allreduce_pick(int p, double bytes)
{
    const int nrows = (int)(sizeof rows / sizeof rows[0]);
    int r = 0;
    while (r < nrows - 1 && p >= rows[r].below) r++;
    for (int i = 0; i < rows[r].n; i++)
        if (bytes < rows[r].bytes[i]) return rows[r].algo[i];
    return rows[r].rest;
}
