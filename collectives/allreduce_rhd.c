/* allreduce_rhd.c — Rabenseifner: reduce-scatter by recursive halving, allgather by recursive doubling.
 *
 * Cost (p = 2^k):  2·lg p·α + 2n(p-1)/p·β + n(p-1)/p·γ
 * Other p: r = p - 2^⌊lg p⌋ extra ranks fold in first (the first 2r ranks pair up, even sends its
 * vector to odd) and get the result back last, adding about 2α + 2nβ + nγ (Thakur, Rabenseifner &
 * Gropp 2005). rhd_cost prices it on a ddl_machine (cost.c): the fold, then each halving step and
 * its doubling mirror at the slowest pair's level (across nodes while the mask spans them).
 *
 * Two orders of the same exchanges (partition.h: coll_rhd_mask, coll_rhd_range):
 *   farthest partner first, q=4 (v = virtual rank, blocks b0..b3):
 *     mask 2: v0<->v2, v1<->v3  keep b0b1 (v0,v1) or b2b3 (v2,v3), send the other half
 *     mask 1: v0<->v1, v2<->v3  keep one block: v owns block v
 *   nearest partner first (distance doubling, as Open MPI's Rabenseifner), q=4:
 *     mask 1: v0<->v1, v2<->v3  keep b0b1 (v0,v2) or b2b3 (v1,v3)
 *     mask 2: v0<->v2, v1<->v3  keep one block: v owns block bit-reverse(v)
 *   the allgather mirrors the halving: the same exchanges in reverse, each doubling the range owned.
 * On node-major ranks (nodes of k > 1 ranks) nearest first keeps the first lg k exchanges, the
 * largest (n/2, n/4, ..), inside a node: a rank's halving sends n/k·(1 - k/q) across the network
 * instead of n·(1 - k/q) farthest first (2 nodes x 2 ranks: n/4 instead of n/2 per rank, each way).
 * So the `rhd` row is nearest first when ranks per node > 1 and farthest first otherwise (one rank
 * per node: the orders cost the same); the `rhd-far` row is always farthest first (docs/BENCHMARKS.md
 * compares them). ddl's rhd dimensions run farthest first: its blocks must be block v.
 *
 * Blocks are balanced, so any n works (n < q gives empty blocks). The first exchange reads the
 * send buffer directly, later ones the receive buffer. Scratch: ctx->depth segments. */
#include "coll.h"
#include "partition.h"

int coll_halving_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near,
                                const void *src, void *dst, size_t n, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = src;
    char *out = dst;
    int lo = 0, hi = q;

    if (q == 1) return coll_copy(ctx, dst, src, n * es);
    for (int j = 0; j < coll_log2(q); j++) {
        int mask = coll_rhd_mask(q, j, near), mid = lo + (hi - lo) / 2, peer = coll_fold_real(v ^ mask, fold_r);
        int klo = (v & mask) ? mid : lo, khi = (v & mask) ? hi : mid;   /* kept */
        int slo = (v & mask) ? lo : mid, shi = (v & mask) ? mid : hi;   /* sent */
        const char *base = j == 0 ? in : out;
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

int coll_doubling_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near, void *buf,
                            size_t n, size_t esize)
{
    char *b = buf;
    for (int j = coll_log2(q) - 1; j >= 0; j--) { /* the halving steps in reverse: each doubles what v holds */
        int mask = coll_rhd_mask(q, j, near), peer = coll_fold_real(v ^ mask, fold_r), mlo, mhi, tlo, thi;
        coll_rhd_range(q, v, near, j + 1, &mlo, &mhi);
        coll_rhd_range(q, v ^ mask, near, j + 1, &tlo, &thi);
        size_t moff = coll_block_off(n, q, mlo), mend = coll_block_off(n, q, mhi);
        size_t toff = coll_block_off(n, q, tlo), tend = coll_block_off(n, q, thi);
        int rc = coll_exchange(ctx, comm, peer, b + moff * esize, (mend - moff) * esize, peer,
                               b + toff * esize, (tend - toff) * esize);
        if (rc) return rc;
    }
    return 0;
}

static int rhd_run(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op,
                   int near)
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
        rc = coll_halving_reduce_scatter(ctx, ctx->comm, q, v, r, near, src, rbuf, count, dt, op);
        if (rc) return rc;
        rc = coll_doubling_allgather(ctx, ctx->comm, q, v, r, near, rbuf, count, es);
        if (rc) return rc;
    }
    if (rank < 2 * r) /* unfold: the odd rank returns the result */
        return coll_exchange(ctx, ctx->comm, v < 0 ? MPI_PROC_NULL : rank - 1, rbuf, v < 0 ? 0 : count * es,
                             v < 0 ? rank + 1 : MPI_PROC_NULL, rbuf, v < 0 ? count * es : 0);
    return 0;
}

int coll_allreduce_rhd(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                       kern_op op)
{
    return rhd_run(ctx, sbuf, rbuf, count, dt, op, ctx->ranks_per_node > 1);
}

static int allreduce_rhd_far(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                             kern_op op)
{
    return rhd_run(ctx, sbuf, rbuf, count, dt, op, 0);
}

static int rhd_cost_order(const ddl_machine *m, int near, double bytes, double *seconds)
{
    double reduced = 0;
    int rc = coll_cost_dim(m, 1, m->ranks, near ? COLL_PAT_RHD_NEAR : COLL_PAT_RHD, bytes, seconds, &reduced);
    if (!rc) *seconds += reduced * m->gamma;
    return rc;
}

static int rhd_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    (void)sh;
    return rhd_cost_order(m, m->ranks_per_node > 1, bytes, seconds);
}

static int rhd_far_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    (void)sh;
    return rhd_cost_order(m, 0, bytes, seconds);
}

const coll_algo coll_algo_rhd = {
    .name = "rhd",
    .help = "Rabenseifner: halving reduce-scatter + doubling allgather, any rank count; nearest partner "
            "first on nodes of several ranks",
    .flags = DDL_ALGO_AUTO,
    .run = coll_allreduce_rhd,
    .cost = rhd_cost,
};

const coll_algo coll_algo_rhd_far = {
    .name = "rhd-far",
    .help = "rhd with the farthest partner first (its first, largest exchange crosses nodes)",
    .run = allreduce_rhd_far,
    .cost = rhd_far_cost,
};
