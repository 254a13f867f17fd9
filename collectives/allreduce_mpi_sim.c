/* allreduce_mpi_sim.c — the `mpi` entry under simulation (replaces allreduce_mpi.c in the SMPI build).
 * SMPI's own MPI_Allreduce really copies and reduces every payload in private buffers: at 256 ranks
 * one ResNet-50 step took 159 s of wall time with SMPI's default selector (a 2.2 s simulated step)
 * and 418 s with its Open MPI selector (a 0.2 s step) — measured, docs/BENCHMARKS.md — beyond the
 * sweep's budget. So the simulated `mpi` is Open MPI 4.1's coll/tuned fixed decision for allreduce
 * (the real build's MPI; ompi_decision.c) run with ddlbench's algorithms: ring and segmented ring ->
 * ring; Rabenseifner -> rhd (nearest partner first on nodes of several ranks, as Open MPI's; with one
 * rank per node either order costs the same); recursive doubling
 * and, at 128+ ranks below 128 KB, reduce + bcast -> rhd (same bandwidth term, lg p more latency
 * steps; no ResNet bucket is that small). Its cost model is the real entry's (coll_mpi_cost, cost.c),
 * which prices recursive doubling as itself. Its reduce-scatter and allgather follow the same pick for
 * the whole p·count vector: the ring's where it picks a ring, else rhd's (allreduce_ring.c, rsag_rhd.c).
 * Being the SMPI build's one collectives file, it also answers coll_simulated() (coll.h). */
#include "coll.h"

int coll_simulated(void) { return 1; }

/* Open MPI's allreduce pick for `bytes` on this communicator takes a ring (else: rhd, as above). */
static int ring_pick(const ddl_ctx *ctx, double bytes)
{
    int alg = coll_ompi_allreduce_pick(ctx->size, bytes);
    return alg == COLL_OMPI_RING || alg == COLL_OMPI_SEGRING;
}

static int allreduce_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                             kern_op op)
{
    const double bytes = (double)count * (double)kern_dtype_size(dt);
    return (ring_pick(ctx, bytes) ? coll_allreduce_ring : coll_allreduce_rhd)(ctx, sbuf, rbuf, count, dt, op);
}

/* Reduce-scatter and allgather: the pick for the whole p·count vector. */
static int reduce_scatter_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                                  kern_op op)
{
    const double bytes = (double)ctx->size * (double)count * (double)kern_dtype_size(dt);
    return (ring_pick(ctx, bytes) ? coll_reduce_scatter_ring : coll_reduce_scatter_rhd)(ctx, sbuf, rbuf, count, dt, op);
}

static int allgather_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const double bytes = (double)ctx->size * (double)count * (double)kern_dtype_size(dt);
    return (ring_pick(ctx, bytes) ? coll_allgather_ring : coll_allgather_rhd)(ctx, sbuf, rbuf, count, dt);
}

const coll_algo coll_algo_mpi = {
    .name = "mpi",
    .help = "MPI_Allreduce of the MPI library (the baseline; simulated: Open MPI 4.1's pick of rhd or ring)",
    .run = allreduce_mpi_sim,
    .cost = coll_mpi_cost,
    .reduce_scatter = reduce_scatter_mpi_sim,
    .allgather = allgather_mpi_sim,
};
