/* rsag_rhd.c — the `rhd` and `rhd-far` rows' reduce-scatter and allgather (allreduce_rhd.c holds the
 * rows and the halving-doubling steps): recursive halving and recursive doubling on the caller's
 * equal blocks, any rank count, in the row's order (rhd: nearest partner first on nodes of several
 * ranks, else farthest first; rhd-far: farthest first).
 *
 * Cost (p = 2^k): reduce-scatter lg p·α + n(p-1)/p·(β + γ), allgather lg p·α + n(p-1)/p·β, n = p·count.
 * Other p, as MPICH's reduce_scatter_block: r = p - 2^⌊lg p⌋; the first 2r ranks pair up and the
 * even one hands over its whole vector (α + nβ + nγ); virtual rank v < r then stands for real ranks
 * 2v and 2v+1, whose two blocks are adjacent, so the halving runs on q = 2^⌊lg p⌋ virtual blocks of
 * one or two real blocks (partition.h: coll_vblock_off) and v ends with the reduced blocks of the
 * ranks it stands for. Last the odd rank sends the even one its block (α + count·β):
 *
 *   p = 6, r = 2:  r0 → r1, r2 → r3 (whole vectors)      virtual ranks v0 = r1, v1 = r3, v2 = r4, v3 = r5
 *                  halving on blocks {b0 b1} {b2 b3} {b4} {b5}: mask 2, then mask 1 (farthest first)
 *                  r1 → r0: b0, r3 → r2: b2
 *
 * Farthest first leaves virtual rank v with virtual block v. Nearest first leaves it block
 * bit-reverse(v) (partition.h: coll_rhd_range), so one exchange with virtual rank bit-reverse(v) —
 * an involution: the two trade — puts every block in place (α + count·β, twice that for a folded
 * pair; none where v is its own reverse); its largest exchanges stay inside a node all the same.
 * The allgather mirrors it all: the even rank's block to the odd one (α + count·β), the trade,
 * doubling, then the odd rank hands back the whole vector (α + nβ). Memory: the reduce-scatter's
 * work area (rsag.c: none in place), ctx->depth segments of scratch. */
#include "coll.h"
#include "partition.h"

/* The block virtual rank v holds after a halving in this order; coll_rhd_range's last range. */
static int held_block(int q, int v, int near)
{
    int lo, hi;
    coll_rhd_range(q, v, near, coll_log2(q), &lo, &hi);
    return lo;
}

/* v and virtual rank `held` trade: v sends virtual block `give`, receives the other of (v, held). */
static int trade(ddl_ctx *ctx, int r, int v, int held, int give, char *buf, size_t count, size_t es)
{
    const int take = give == held ? v : held, peer = coll_fold_real(held, r);
    const size_t go = coll_vblock_off(count, r, give), to = coll_vblock_off(count, r, take);
    return coll_exchange(ctx, ctx->comm, peer, buf + go * es, (coll_vblock_off(count, r, give + 1) - go) * es, peer,
                         buf + to * es, (coll_vblock_off(count, r, take + 1) - to) * es);
}

static int reduce_scatter(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op,
                          int near)
{
    const int p = ctx->size, rank = ctx->rank, q = coll_pow2_floor(p), r = p - q, v = coll_fold_vrank(rank, r);
    const size_t es = kern_dtype_size(dt), n = (size_t)p * count;
    const void *src = sbuf;
    char *work;
    int rc = coll_rs_work(ctx, sbuf, rbuf, count, dt, &work);

    if (!rc && rank < 2 * r) { /* fold: the even rank hands its vector to the odd rank above */
        if (v < 0)
            rc = coll_exchange_reduce(ctx, ctx->comm, rank + 1, sbuf, n, MPI_PROC_NULL, NULL, NULL, 0, dt, op);
        else
            rc = coll_exchange_reduce(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank - 1, work, sbuf, n, dt, op);
        src = work;
    }
    if (!rc && v >= 0) rc = coll_halving_rs_units(ctx, ctx->comm, q, v, r, near, src, work, count, dt, op);
    if (!rc && v >= 0 && held_block(q, v, near) != v)
        rc = trade(ctx, r, v, held_block(q, v, near), held_block(q, v, near), work, count, es);
    if (rc) return rc;
    if (v < 0) /* unfold: the even rank's block comes back, straight into place */
        return coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank + 1, rbuf, count * es);
    if (rank < 2 * r && (rc = coll_exchange(ctx, ctx->comm, rank - 1, work + (size_t)(rank - 1) * count * es,
                                            count * es, MPI_PROC_NULL, NULL, 0)))
        return rc;
    return coll_rs_done(ctx, work, rank, rbuf, count, dt);
}

static int allgather(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, int near)
{
    const int p = ctx->size, rank = ctx->rank, q = coll_pow2_floor(p), r = p - q, v = coll_fold_vrank(rank, r);
    const size_t es = kern_dtype_size(dt), bytes = count * es, all = (size_t)p * bytes;
    char *b = rbuf;
    int rc = coll_ag_own(ctx, sbuf, rbuf, count, dt);

    if (!rc && rank < 2 * r) /* fold: the even rank's block to the odd rank above */
        rc = v < 0 ? coll_exchange(ctx, ctx->comm, rank + 1, b + (size_t)rank * bytes, bytes, MPI_PROC_NULL, NULL, 0)
                   : coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank - 1, b + (size_t)(rank - 1) * bytes,
                                   bytes);
    if (!rc && v >= 0 && held_block(q, v, near) != v) /* the doubling starts from the block a halving leaves */
        rc = trade(ctx, r, v, held_block(q, v, near), v, b, count, es);
    if (!rc && v >= 0) rc = coll_doubling_ag_units(ctx, ctx->comm, q, v, r, near, rbuf, count, es);
    if (rc || rank >= 2 * r) return rc;
    /* unfold: the odd rank hands back the whole vector */
    return v < 0 ? coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank + 1, rbuf, all)
                 : coll_exchange(ctx, ctx->comm, rank - 1, rbuf, all, MPI_PROC_NULL, NULL, 0);
}

int coll_reduce_scatter_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    return reduce_scatter(ctx, sbuf, rbuf, count, dt, op, ctx->ranks_per_node > 1);
}

int coll_allgather_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    return allgather(ctx, sbuf, rbuf, count, dt, ctx->ranks_per_node > 1);
}

int coll_reduce_scatter_rhd_far(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                                kern_op op)
{
    return reduce_scatter(ctx, sbuf, rbuf, count, dt, op, 0);
}

int coll_allgather_rhd_far(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    return allgather(ctx, sbuf, rbuf, count, dt, 0);
}
