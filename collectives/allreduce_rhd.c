/* allreduce_rhd.c — Rabenseifner: reduce-scatter by recursive halving, allgather by recursive doubling.
 *
 * Cost (p = 2^k):  2·lg p·α + 2n(p-1)/p·β + n(p-1)/p·γ
 * Other p: r = p - 2^⌊lg p⌋ extra ranks fold in first (the first 2r ranks pair up, even sends its
 * vector to odd) and get the result back last, adding about 2α + 2nβ + nγ (Thakur, Rabenseifner &
 * Gropp 2005). rhd_cost prices it on a ddl_machine (cost.c): the fold, then each halving step and
 * its doubling mirror at the slowest pair's level (across nodes while the mask spans them).
 *
 *   halving, q=4 (v = virtual rank, blocks b0..b3):
 *     mask 2: v0<->v2, v1<->v3  keep b0b1 (v0,v1) or b2b3 (v2,v3), send the other half
 *     mask 1: v0<->v1, v2<->v3  keep one block: v owns block v
 *   doubling mirrors it: mask 1 then 2, each exchange doubling the range owned.
 *
 * Blocks are balanced, so any n works (n < q gives empty blocks). The first exchange reads the
 * send buffer directly, later ones the receive buffer. Scratch: ctx->depth segments. */
#include "coll.h"
#include "partition.h"

int coll_halving_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r,
                                const void *src, void *dst, size_t n, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = src;
    char *out = dst;
    int lo = 0, hi = q;

    if (q == 1) return coll_copy(ctx, dst, src, n * es);
    for (int mask = q / 2; mask >= 1; mask /= 2) {
        int mid = lo + (hi - lo) / 2, peer = coll_fold_real(v ^ mask, fold_r);
        int klo = (v & mask) ? mid : lo, khi = (v & mask) ? hi : mid;   /* kept */
        int slo = (v & mask) ? lo : mid, shi = (v & mask) ? mid : hi;   /* sent */
        const char *base = mask == q / 2 ? in : out;
        size_t soff = coll_block_off(n, q, slo), scnt = coll_block_off(n, q, shi) - soff;
        size_t koff = coll_block_off(n, q, klo), kcnt = coll_block_off(n, q, khi) - koff;
        int rc = coll_exchange_reduce(ctx, comm, peer, base + soff * es, scnt, peer, out + koff * es,
                                      base + koff * es, kcnt, dt, op);
        if (rc) return rc;
        lo = klo;
        hi = khi;
    }
    return 0;
}

int coll_doubling_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, void *buf, size_t n,
                            size_t esize)
{
    char *b = buf;
    for (int mask = 1; mask < q; mask *= 2) {
        int mine = v & ~(mask - 1), theirs = (v ^ mask) & ~(mask - 1);
        int peer = coll_fold_real(v ^ mask, fold_r);
        size_t moff = coll_block_off(n, q, mine), mend = coll_block_off(n, q, mine + mask);
        size_t toff = coll_block_off(n, q, theirs), tend = coll_block_off(n, q, theirs + mask);
        int rc = coll_exchange(ctx, comm, peer, b + moff * esize, (mend - moff) * esize, peer,
                               b + toff * esize, (tend - toff) * esize);
        if (rc) return rc;
    }
    return 0;
}

int coll_allreduce_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                       kern_op op)
{
    const int p = ctx->size, rank = ctx->rank, q = coll_pow2_floor(p), r = p - q;
    const size_t es = kern_dtype_size(dt);
    int v = coll_fold_vrank(rank, r), rc;
    const void *src = sbuf;

    if (rank < 2 * r) { /* fold: even ranks hand their vector to the odd rank above */
        if (v < 0)
            rc = coll_exchange_reduce(ctx, ctx->comm, rank + 1, sbuf, count, MPI_PROC_NULL, NULL, NULL,
                                      0, dt, op);
        else
            rc = coll_exchange_reduce(ctx, ctx->comm, MPI_PROC_NULL, NULL, 0, rank - 1, rbuf, sbuf,
                                      count, dt, op);
        if (rc) return rc;
        src = rbuf;
    }
    if (v >= 0) {
        rc = coll_halving_reduce_scatter(ctx, ctx->comm, q, v, r, src, rbuf, count, dt, op);
        if (rc) return rc;
        rc = coll_doubling_allgather(ctx, ctx->comm, q, v, r, rbuf, count, es);
        if (rc) return rc;
    }
    if (rank < 2 * r) /* unfold: the odd rank returns the result */
        return coll_exchange(ctx, ctx->comm, v < 0 ? MPI_PROC_NULL : rank - 1, rbuf, v < 0 ? 0 : count * es,
                             v < 0 ? rank + 1 : MPI_PROC_NULL, rbuf, v < 0 ? count * es : 0);
    return 0;
}

static int rhd_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    double reduced = 0;
    int rc = coll_cost_dim(m, 1, m->ranks, COLL_PAT_RHD, bytes, seconds, &reduced);
    (void)sh;
    if (!rc) *seconds += reduced * m->gamma;
    return rc;
}

const coll_algo coll_algo_rhd = {
    .name = "rhd",
    .help = "Rabenseifner: recursive halving reduce-scatter + doubling allgather, any rank count",
    .flags = DDL_ALGO_AUTO,
    .run = coll_allreduce_rhd,
    .cost = rhd_cost,
    .reduce_scatter = coll_reduce_scatter_rhd, /* rsag_rhd.c */
    .allgather = coll_allgather_rhd,
};
