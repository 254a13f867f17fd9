/* allreduce_ring.c — ring allreduce: reduce-scatter then allgather around a ring of q ranks.
 *
 * Cost: 2(q-1)·α + 2n(q-1)/q·β + n(q-1)/q·γ   (bandwidth-optimal; latency grows with q; Thakur,
 * Rabenseifner & Gropp 2005). ring_cost prices it on a ddl_machine (cost.c): each step waits for
 * its slowest hop, which crosses nodes (and shares the NIC) once the ring spans several.
 *
 * Blocks are balanced (partition.h). At reduce-scatter step s rank v sends block v-s-1 to v+1 and
 * receives block v-s-2 from v-1, reducing it with its own contribution; after q-1 steps v holds
 * block v reduced. The allgather then passes finished blocks on for q-1 steps.
 *
 *   q=3, step 0:  r0 sends b2 → r1   r1 sends b0 → r2   r2 sends b1 → r0
 *   step 1:       r0 sends b1(+r2) → r1 ...              now r0 owns b0, r1 b1, r2 b2
 *
 * Each step is a segmented coll_exchange_reduce, so a block's segments are reduced while later
 * segments arrive. The first step reads the caller's send buffer directly: no copy of the input
 * (out-of-place costs the same as in-place). Memory: ctx->depth segments of scratch. q = 1 is a
 * copy; n < q leaves some blocks empty (zero-length messages).
 *
 * One channel: the ring crosses each node boundary on one GPU's rail (its last rank's NIC), so across
 * nodes of several rails it uses one rail of each; nccl-ring (allreduce_nccl_ring.c) runs one ring per
 * rail at once.
 *
 * The halves are also the `ring` row's reduce-scatter and allgather (rsag.c's conventions), on the
 * whole n = p·count vector: (p-1)·α + n(p-1)/p·β (+ n(p-1)/p·γ for the reduce-scatter) each. */
#include "coll.h"
#include "partition.h"

int coll_ring_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, const void *src, void *dst,
                             size_t n, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = src;
    char *out = dst;
    int right = coll_mod(v + 1, q), left = coll_mod(v - 1, q);

    if (q == 1) return coll_copy(ctx, dst, src, n * es);
    for (int s = 0; s < q - 1; s++) {
        int sb = coll_mod(v - s - 1, q), rb = coll_mod(v - s - 2, q);
        const char *from = (s == 0 ? in : out) + coll_block_off(n, q, sb) * es;
        size_t roff = coll_block_off(n, q, rb) * es;
        int rc = coll_exchange_reduce(ctx, comm, right, from, coll_block_len(n, q, sb), left, out + roff,
                                      in + roff, coll_block_len(n, q, rb), dt, op);
        if (rc) return rc;
    }
    return 0;
}

int coll_ring_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, void *buf, size_t n, size_t esize)
{
    char *b = buf;
    int right = coll_mod(v + 1, q), left = coll_mod(v - 1, q);
    for (int s = 0; s < q - 1; s++) {
        int sb = coll_mod(v - s, q), rb = coll_mod(v - s - 1, q);
        int rc = coll_exchange(ctx, comm, right, b + coll_block_off(n, q, sb) * esize,
                               coll_block_len(n, q, sb) * esize, left,
                               b + coll_block_off(n, q, rb) * esize, coll_block_len(n, q, rb) * esize);
        if (rc) return rc;
    }
    return 0;
}

int coll_allreduce_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                        kern_op op)
{
    int rc = coll_ring_reduce_scatter(ctx, ctx->comm, ctx->size, ctx->rank, sbuf, rbuf, count, dt, op);
    if (rc) return rc;
    return coll_ring_allgather(ctx, ctx->comm, ctx->size, ctx->rank, rbuf, count, kern_dtype_size(dt));
}

int coll_reduce_scatter_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                             kern_op op)
{
    char *work;
    int rc = coll_rs_work(ctx, sbuf, rbuf, count, dt, &work);
    if (!rc) rc = coll_ring_reduce_scatter(ctx, ctx->comm, ctx->size, ctx->rank, sbuf, work,
                                           (size_t)ctx->size * count, dt, op);
    return rc ? rc : coll_rs_done(ctx, work, ctx->rank, rbuf, count, dt);
}

int coll_allgather_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    int rc = coll_ag_own(ctx, sbuf, rbuf, count, dt);
    return rc ? rc : coll_ring_allgather(ctx, ctx->comm, ctx->size, ctx->rank, rbuf, (size_t)ctx->size * count,
                                         kern_dtype_size(dt));
}

static int ring_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    double reduced = 0;
    int rc = coll_cost_dim(m, 1, m->ranks, COLL_PAT_RING, bytes, seconds, &reduced);
    (void)sh;
    if (!rc) *seconds += reduced * m->gamma;
    return rc;
}

const coll_algo coll_algo_ring = {
    .name = "ring",
    .help = "one flat ring (one channel: crosses each node boundary on one GPU's rail, one rail per node): "
            "reduce-scatter + allgather, segmented and pipelined",
    .flags = DDL_ALGO_AUTO,
    .run = coll_allreduce_ring,
    .cost = ring_cost,
    .reduce_scatter = coll_reduce_scatter_ring,
    .allgather = coll_allgather_ring,
};
