/* rsag_rhd.c — the `rhd` row's reduce-scatter and allgather (allreduce_rhd.c holds the row): recursive
 * halving and recursive doubling on the caller's equal blocks, any rank count.
 *
 * Cost (p = 2^k): reduce-scatter lg p·α + n(p-1)/p·(β + γ), allgather lg p·α + n(p-1)/p·β, n = p·count.
 * Other p, as MPICH's reduce_scatter_block: r = p - 2^⌊lg p⌋; the first 2r ranks pair up and the
 * even one hands over its whole vector (α + nβ + nγ); virtual rank v < r then stands for real ranks
 * 2v and 2v+1, whose two blocks are adjacent, so the halving runs on q = 2^⌊lg p⌋ virtual blocks of
 * one or two real blocks (partition.h: coll_vblock_off) and v ends with the reduced blocks of the
 * ranks it stands for. Last the odd rank sends the even one its block (α + count·β):
 *
 *   p = 6, r = 2:  r0 → r1, r2 → r3 (whole vectors)      virtual ranks v0 = r1, v1 = r3, v2 = r4, v3 = r5
 *                  halving on blocks {b0 b1} {b2 b3} {b4} {b5}: mask 2, then mask 1
 *                  r1 → r0: b0, r3 → r2: b2
 *
 * The allgather mirrors it: the even rank's block to the odd one (α + count·β), doubling, then the
 * odd rank hands back the whole vector (α + nβ). Order: farthest partner first (mask q/2 first), so
 * virtual rank v ends with virtual block v, in the caller's order: no final permutation. Memory:
 * the reduce-scatter's work area (rsag.c: none in place), ctx->depth segments of scratch. */
#include "coll.h"
#include "partition.h"

int coll_halving_rs_units(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, const void *src, void *dst,
                          size_t unit, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = src;
    char *out = dst;
    int lo = 0, hi = q;

    if (q == 1) return coll_copy(ctx, dst, src, coll_vblock_off(unit, fold_r, 1) * es);
    for (int mask = q / 2; mask >= 1; mask /= 2) {
        int mid = lo + (hi - lo) / 2, peer = coll_fold_real(v ^ mask, fold_r);
        int klo = (v & mask) ? mid : lo, khi = (v & mask) ? hi : mid; /* kept */
        int slo = (v & mask) ? lo : mid, shi = (v & mask) ? mid : hi; /* sent */
        const char *base = mask == q / 2 ? in : out;
        size_t soff = coll_vblock_off(unit, fold_r, slo), scnt = coll_vblock_off(unit, fold_r, shi) - soff;
        size_t koff = coll_vblock_off(unit, fold_r, klo), kcnt = coll_vblock_off(unit, fold_r, khi) - koff;
        int rc = coll_exchange_reduce(ctx, comm, peer, base + soff * es, scnt, peer, out + koff * es,
                                      base + koff * es, kcnt, dt, op);
        if (rc) return rc;
        lo = klo;
        hi = khi;
    }
    return 0;
}

int coll_doubling_ag_units(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, void *buf, size_t unit,
                           size_t esize)
{
    char *b = buf;
    for (int mask = 1; mask < q; mask *= 2) {
        int mine = v & ~(mask - 1), theirs = (v ^ mask) & ~(mask - 1);
        size_t moff = coll_vblock_off(unit, fold_r, mine), mend = coll_vblock_off(unit, fold_r, mine + mask);
        size_t toff = coll_vblock_off(unit, fold_r, theirs), tend = coll_vblock_off(unit, fold_r, theirs + mask);
        int rc = coll_exchange(ctx, comm, coll_fold_real(v ^ mask, fold_r), b + moff * esize, (mend - moff) * esize,
                               coll_fold_real(v ^ mask, fold_r), b + toff * esize, (tend - toff) * esize);
        if (rc) return rc;
    }
    return 0;
}

int coll_reduce_scatter_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
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
    if (!rc && v >= 0) rc = coll_halving_rs_units(ctx, ctx->comm, q, v, r, src, work, count, dt, op);
    if (rc) return rc;
    if (v < 0) /* unfold: the even rank's block comes back, straight into place */
        return coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank + 1, rbuf, count * es);
    if (rank < 2 * r && (rc = coll_exchange(ctx, ctx->comm, rank - 1, work + (size_t)(rank - 1) * count * es,
                                            count * es, MPI_PROC_NULL, NULL, 0)))
        return rc;
    return coll_rs_done(ctx, work, rank, rbuf, count, dt);
}

int coll_allgather_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const int p = ctx->size, rank = ctx->rank, q = coll_pow2_floor(p), r = p - q, v = coll_fold_vrank(rank, r);
    const size_t es = kern_dtype_size(dt), bytes = count * es, all = (size_t)p * bytes;
    char *b = rbuf;
    int rc = coll_ag_own(ctx, sbuf, rbuf, count, dt);

    if (!rc && rank < 2 * r) /* fold: the even rank's block to the odd rank above */
        rc = v < 0 ? coll_exchange(ctx, ctx->comm, rank + 1, b + (size_t)rank * bytes, bytes, MPI_PROC_NULL, NULL, 0)
                   : coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank - 1, b + (size_t)(rank - 1) * bytes,
                                   bytes);
    if (!rc && v >= 0) rc = coll_doubling_ag_units(ctx, ctx->comm, q, v, r, rbuf, count, es);
    if (rc || rank >= 2 * r) return rc;
    /* unfold: the odd rank hands back the whole vector */
    return v < 0 ? coll_exchange(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank + 1, rbuf, all)
                 : coll_exchange(ctx, ctx->comm, rank - 1, rbuf, all, MPI_PROC_NULL, NULL, 0);
}
