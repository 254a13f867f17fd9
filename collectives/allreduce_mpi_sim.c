/* allreduce_mpi_sim.c — the `mpi` entry under simulation (replaces allreduce_mpi.c in the SMPI build).
 * SMPI's own MPI_Allreduce really copies and reduces every payload in private buffers: at 256 ranks
 * one ResNet-50 step took 159 s of wall time with SMPI's default selector (a 2.2 s simulated step)
 * and 418 s with its Open MPI selector (a 0.2 s step) — measured, docs/BENCHMARKS.md — beyond the
 * sweep's budget. So the simulated `mpi` is Open MPI's coll/tuned fixed decision for allreduce (the
 * real build's default MPI): the ring above 10,000 bytes, and below it recursive doubling, here
 * approximated by rhd (same bandwidth term, lg p more latency steps; no ResNet bucket is that small).
 * Its messages are ddlbench's ring's, so under simulation `mpi` and `ring` coincide above 10 KB. */
#include "coll.h"

int coll_mpi_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    (void)ctx;
    (void)cfg;
    return 0;
}

void coll_mpi_teardown(ddl_ctx *ctx) { (void)ctx; }

int coll_allreduce_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                       kern_op op)
{
    if ((double)count * (double)kern_dtype_size(dt) < 10000)
        return coll_allreduce_rhd(ctx, sbuf, rbuf, count, dt, op);
    return coll_allreduce_ring(ctx, sbuf, rbuf, count, dt, op);
}
