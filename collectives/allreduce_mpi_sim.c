/* allreduce_mpi_sim.c — the `mpi` entry under simulation (replaces allreduce_mpi.c in the SMPI build).
 * SMPI's own MPI_Allreduce really copies and reduces every payload in private buffers: at 256 ranks
 * one ResNet-50 step took 159 s of wall time with SMPI's default selector (a 2.2 s simulated step)
 * and 418 s with its Open MPI selector (a 0.2 s step) — measured, docs/BENCHMARKS.md — beyond the
 * sweep's budget. So the simulated `mpi` is Open MPI's coll/tuned fixed decision for allreduce (the
 * real build's default MPI): the ring from COLL_OMPI_RDB_BYTES (coll.h) up, and below it recursive
 * doubling, here approximated by rhd (same bandwidth term, lg p more latency steps; no ResNet bucket
 * is that small). Its messages are ddlbench's ring's, so under simulation `mpi` and `ring` coincide
 * above 10 KB. Its cost model is the real entry's (coll_mpi_cost, cost.c). Its reduce-scatter and
 * allgather make the same choice on the whole p·count vector: rhd's below COLL_OMPI_RDB_BYTES, else
 * the ring's (rsag_rhd.c, allreduce_ring.c). */
#include "coll.h"

static int allreduce_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                             kern_op op)
{
    if ((double)count * (double)kern_dtype_size(dt) < COLL_OMPI_RDB_BYTES)
        return coll_allreduce_rhd(ctx, sbuf, rbuf, count, dt, op);
    return coll_allreduce_ring(ctx, sbuf, rbuf, count, dt, op);
}

static int small(const ddl_ctx *ctx, size_t count, kern_dtype dt)
{
    return (double)ctx->size * (double)count * (double)kern_dtype_size(dt) < COLL_OMPI_RDB_BYTES;
}

static int reduce_scatter_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                                  kern_op op)
{
    return (small(ctx, count, dt) ? coll_reduce_scatter_rhd : coll_reduce_scatter_ring)(ctx, sbuf, rbuf, count, dt, op);
}

static int allgather_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    return (small(ctx, count, dt) ? coll_allgather_rhd : coll_allgather_ring)(ctx, sbuf, rbuf, count, dt);
}

const coll_algo coll_algo_mpi = {
    .name = "mpi",
    .help = "MPI_Allreduce of the MPI library (the baseline; simulated: Open MPI's pick of rhd or ring)",
    .run = allreduce_mpi_sim,
    .cost = coll_mpi_cost,
    .reduce_scatter = reduce_scatter_mpi_sim,
    .allgather = allgather_mpi_sim,
};
