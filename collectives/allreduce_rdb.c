/* allreduce_rdb.c — recursive doubling, as Open MPI 4.1's coll/base runs it for small vectors
 * (ompi_coll_base_allreduce_intra_recursivedoubling, open-mpi/ompi v4.1.x,
 * ompi/mca/coll/base/coll_base_allreduce.c). Not a registry row: the simulated `mpi`
 * (allreduce_mpi_sim.c) runs it where Open MPI's fixed decision picks recursive doubling, so a small
 * allreduce costs lg p exchanges of the whole vector there, as the real one does, not Rabenseifner's
 * 2·lg p exchanges of halves (measured here, issue 26: 1 KiB on 2 ranks of one node, the real `mpi`
 * 1.7 µs against 2.8 simulated as rhd; docs/BENCHMARKS.md).
 *
 * Cost (p = 2^k):  lg p·(α + nβ + nγ); other p: the extra ranks fold in first and get the result back
 * last, as rhd's (partition.h), adding 2α + 2nβ + nγ. cost.c's rdb_time prices it.
 *
 *   q=4 (v = virtual rank): mask 1: v0<->v1, v2<->v3 swap whole vectors, each reduces
 *                           mask 2: v0<->v2, v1<->v3 swap the partial sums, each reduces: done
 *
 * Each step, as Open MPI's: a send-receive of the whole vector into a temporary (the context's work
 * buffer) and then one reduction of it into the result, not overlapped. Out of place the result
 * starts as a copy of the send vector (Open MPI copies it into the receive buffer first). */
#include "coll.h"
#include "partition.h"

/* rbuf = rbuf op tmp, through the buffer location (the reduction of a landed message). */
static int reduce_into(ddl_ctx *ctx, void *rbuf, void *tmp, size_t bytes, kern_dtype dt, kern_op op)
{
    coll_seg seg = { 0, rbuf, rbuf, tmp, bytes };
    int rc = ctx->loc->consume(ctx, &seg, dt, op);
    return rc ? rc : ctx->loc->finish(ctx);
}

int coll_allreduce_rdb(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const int p = ctx->size, rank = ctx->rank, q = coll_pow2_floor(p), r = p - q, v = coll_fold_vrank(rank, r);
    const size_t bytes = count * kern_dtype_size(dt);
    char *tmp = NULL;
    int rc;

    if ((rc = coll_work(ctx, bytes, &tmp)) || (rc = coll_copy(ctx, rbuf, sbuf, bytes))) return rc;
    if (rank < 2 * r) { /* fold: even ranks hand their vector to the odd rank above */
        rc = coll_exchange(ctx, ctx->comm, v < 0 ? rank + 1 : MPI_PROC_NULL, rbuf, v < 0 ? bytes : 0,
                           v < 0 ? MPI_PROC_NULL : rank - 1, tmp, v < 0 ? 0 : bytes);
        if (!rc && v >= 0) rc = reduce_into(ctx, rbuf, tmp, bytes, dt, op);
        if (rc) return rc;
    }
    for (int mask = 1; v >= 0 && mask < q; mask *= 2) {
        const int peer = coll_fold_real(v ^ mask, r);
        if ((rc = coll_exchange(ctx, ctx->comm, peer, rbuf, bytes, peer, tmp, bytes)) ||
            (rc = reduce_into(ctx, rbuf, tmp, bytes, dt, op)))
            return rc;
    }
    if (rank < 2 * r) /* unfold: the odd rank returns the result */
        return coll_exchange(ctx, ctx->comm, v < 0 ? MPI_PROC_NULL : rank - 1, rbuf, v < 0 ? 0 : bytes,
                             v < 0 ? rank + 1 : MPI_PROC_NULL, rbuf, v < 0 ? bytes : 0);
    return 0;
}
