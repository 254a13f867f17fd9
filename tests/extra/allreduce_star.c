/* allreduce_star.c — a test fixture, never in the shipped library: the proof that an algorithm is
 * one file plus one row. The test build (Makefile: registry-extra) compiles collectives/registry.c
 * again with -DDDL_TEST_EXTRA_ALGO, which lists coll_algo_star below; tests/registry_extra.sh then
 * finds "star" in `ddlbench list`, in test_allreduce's matrix and among auto's choices.
 *
 * Every rank sends its vector to rank 0, which reduces them one after another, then sends the
 * result back to each rank in turn, on the primitives of collectives/exchange.c:
 *
 *   gather:   r1 → r0 (r0 = s0 op s1), r2 → r0 (r0 = r0 op s2), ...   one rank at a time
 *   return:   r0 → r1, r0 → r2, ...
 *
 * Cost: 2(p-1)·(α + nβ) + (p-1)·n·γ, each message at its own level (inside rank 0's node or
 * across); one message at a time, so no NIC sharing. rhd has fewer latency steps and moves fewer
 * bytes, so auto picks star only under a cost model that favours it. Any count and type; p = 1 is a
 * copy. Memory: the context's COLL_WINDOW segments of scratch. */
#include "coll.h"

static int allreduce_star(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const size_t bytes = count * kern_dtype_size(dt);
    int rc;
    if (ctx->size == 1) /* the primitives' q = 1 copy (host or device) */
        return coll_ring_reduce_scatter(ctx, ctx->comm, 1, 0, sbuf, rbuf, count, dt, op);
    if (ctx->rank != 0) {
        rc = coll_exchange_reduce(ctx, ctx->comm, 0, sbuf, count, MPI_PROC_NULL, NULL, NULL, 0, dt, op);
        return rc ? rc : coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, 0, rbuf, bytes);
    }
    for (int r = 1; r < ctx->size; r++) {
        rc = coll_exchange_reduce(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, r, rbuf, r == 1 ? sbuf : rbuf, count,
                                  dt, op);
        if (rc) return rc;
    }
    for (int r = 1; r < ctx->size; r++)
        if ((rc = coll_exchange(ctx, ctx->comm, r, rbuf, bytes, MPI_PROC_NULL, NULL, 0))) return rc;
    return 0;
}

static int star_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    const int p = m->ranks, g = m->ranks_per_node;
    const double beta_inter = 1 / m->nic_bw > 1 / m->intra_bw ? 1 / m->nic_bw : 1 / m->intra_bw;
    const double intra = m->intra_lat + bytes / m->intra_bw, inter = m->inter_lat + bytes * beta_inter;
    (void)sh;
    *seconds = 2.0 * ((g - 1) * intra + (p - g) * inter) + (p - 1) * bytes * m->gamma;
    return 0;
}

const coll_algo coll_algo_star = {
    .name = "star",
    .help = "test fixture: every rank sends to rank 0, which reduces and sends the result back",
    .flags = DDL_ALGO_AUTO,
    .run = allreduce_star,
    .cost = star_cost,
};
