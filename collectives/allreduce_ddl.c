/* allreduce_ddl.c — PowerAI DDL's topology-aware multi-dimensional allreduce (Cho et al. 2017).
 *
 * Ranks form a grid d1 x d2 x ... x dk, d1 the ranks of one node (fastest-varying rank index, i.e.
 * node-major placement), the next dimensions groups of nodes. Reduce-scatter runs along d1 over the
 * whole vector, then along d2 over the shard this rank owns, and so on; the allgathers run in reverse
 * order. Each dimension uses its own pattern: ring (any size) or rhd (halving-doubling, power of two).
 *
 *   4x2 grid, n elements:  RS along d1 (4 ranks in a node, n)      → shard n/4
 *                          RS along d2 (2 nodes, n/4)              → shard n/8
 *                          AG along d2, then AG along d1           → all n everywhere
 *
 * Cost: 2·Σ_i (d_i − 1)·(α_i + n·β_i/(d1·…·d_i)) + n(p−1)/p·γ — the bytes per rank equal a flat
 * ring's, but the slow outer levels carry only 1/(d1·…·d(i-1)) of the data and latency steps are
 * Σ 2(d_i − 1) instead of 2(p − 1). The grid must multiply to the communicator's size (else
 * DDL_ERR_GRID); a derived grid on non-uniform nodes falls back to one flat dimension (a ring).
 * ddl_cost prices it on a ddl_machine (cost.c), one dimension after the other; auto's candidates are
 * the grids d1 x rest, d1 the ranks of a node and rest the node count as one or two factors (on one
 * node, or without topology, p as two factors; p prime: p), with ring or rhd (power of two only) per
 * dimension.
 *
 * Reduce-scatter and allgather (rsag.c's conventions, n = p·count): the same walk cut in half, the
 * reduce-scatters along d1, d2, .. then the allgathers from dk back to d1, on the caller's blocks (each
 * dimension's pieces are whole blocks, so no balancing). Along d1 a rank keeps the piece of its node
 * coordinate c1, so the walk leaves it block Σ c_i·p/(d1···d_i) (partition.h: coll_grid_nest; c1 the
 * most significant digit), while MPI wants block rank = c1 + d1·c2 + ..: the same only on one
 * dimension. Keeping d1 first is the point of the grid (its slow outer dimensions carry 1/d1 of the
 * data), and a piece with c1 least significant would not be contiguous, so one plain exchange permutes
 * the blocks: the reduce-scatter ends by sending its block to the rank that owns it, the allgather
 * begins by sending this rank's contribution to where the walk expects it (α + count·β at most one
 * level out; none for ranks whose two indices agree):
 *
 *   2x2 (rank = c1 + 2·c2): the walk leaves r0 b0, r1 b2, r2 b1, r3 b3; r1 and r2 swap.
 *
 * Memory: the reduce-scatter's work area (rsag.c), ctx->depth segments of scratch. */
#include "coll.h"
#include "partition.h"

#include <stdio.h>
#include <stdlib.h>

/* Collective: one split per dimension, agreeing on failure before the next one. */
static int make_dim_comms(ddl_ctx *ctx)
{
    int stride = 1, rc;
    for (int i = 0; i < ctx->ndims; i++) {
        int c = (ctx->rank / stride) % ctx->dims[i], mrc;
        ctx->coords[i] = c;
        mrc = MPI_Comm_split(ctx->comm, ctx->rank - c * stride, c, &ctx->dim_comm[i]);
        if (mrc == MPI_SUCCESS) mrc = MPI_Comm_set_errhandler(ctx->dim_comm[i], MPI_ERRORS_RETURN);
        if ((rc = coll_agree(ctx->comm, mrc == MPI_SUCCESS ? 0 : coll_mpi_fail(mrc, "MPI_Comm_split (ddl)"))) ||
            (rc = coll_agree(ctx->comm, coll_nodes_add(ctx, ctx->dim_comm[i]))))
            return rc;
        stride *= ctx->dims[i];
    }
    return 0;
}

/* The grid and patterns, for checking that every rank read the same ones. */
static long grid_hash(const ddl_ctx *ctx)
{
    unsigned long h = (unsigned long)ctx->ndims;
    for (int i = 0; i < ctx->ndims; i++)
        h = (h * 1000003u + (unsigned long)ctx->dims[i]) * 3u + (unsigned long)ctx->patterns[i];
    return (long)(h & 0x7fffffffUL);
}

/* Local: the grid (given, or derived from ranks per node) and its patterns. */
static int resolve_grid(ddl_ctx *ctx, const ddl_config *cfg)
{
    const char *grid = cfg->grid ? cfg->grid : getenv("DDL_GRID");
    const char *pats = cfg->patterns ? cfg->patterns : getenv("DDL_PATTERNS");
    const coll_algo *a = coll_algo_get(ctx->algo);
    const int own = !(grid && *grid) && a && a->derive; /* the row's own grid and, unless given, patterns */
    long prod = 1;
    int rc;

    if (grid && *grid) {
        if ((rc = coll_grid_parse(grid, ctx->dims, &ctx->ndims))) return rc;
    } else {
        if (ctx->ranks_per_node <= 0)
            return coll_fail(DDL_ERR_TOPO, "ddl: ranks are not placed node-major on equal nodes; give "
                                           "the grid (DDL_GRID) or DDL_RANKS_PER_NODE");
        coll_grid_derive(ctx->size, ctx->ranks_per_node, ctx->dims, &ctx->ndims);
    }
    if (own) {
        coll_shape sh;
        a->derive(ctx->size, ctx->ranks_per_node, &sh);
        ctx->ndims = sh.ndims;
        for (int i = 0; i < sh.ndims; i++) ctx->dims[i] = sh.dims[i], ctx->patterns[i] = sh.patterns[i];
    }
    for (int i = 0; i < ctx->ndims; i++) prod *= ctx->dims[i];
    if (prod != ctx->size)
        return coll_fail(DDL_ERR_GRID, "ddl: grid %s has %ld ranks but the communicator has %d",
                         grid ? grid : "(derived)", prod, ctx->size);
    if ((!own || (pats && *pats)) && (rc = coll_patterns_parse(pats, ctx->ndims, ctx->patterns))) return rc;
    for (int i = 0; i < ctx->ndims; i++)
        if (ctx->patterns[i] == COLL_PAT_RHD && !coll_is_pow2(ctx->dims[i]))
            return coll_fail(DDL_ERR_GRID, "ddl: pattern rhd needs a power-of-two dimension, "
                                           "dimension %d has %d ranks", i + 1, ctx->dims[i]);
    return 0;
}

/* Collective: every rank resolves the grid, the ranks agree on success and on the same grid, then
 * the dimensions' communicators are split. */
int coll_ddl_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    int rc = resolve_grid(ctx, cfg);
    if (!rc) rc = coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG);
    if ((rc = coll_agree(ctx->comm, rc)) ||
        (rc = coll_agree_same(ctx->comm, grid_hash(ctx), "ddl: the grid or patterns (DDL_GRID, DDL_PATTERNS)")))
        return rc;
    return make_dim_comms(ctx);
}

void coll_ddl_teardown(ddl_ctx *ctx)
{
    for (int i = 0; i < DDL_MAX_DIMS; i++)
        if (ctx->dim_comm[i] != MPI_COMM_NULL) MPI_Comm_free(&ctx->dim_comm[i]);
}

int coll_allreduce_ddl(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                         kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    size_t off[DDL_MAX_DIMS + 1], len[DDL_MAX_DIMS + 1];
    const char *src = sbuf;
    char *out = rbuf;
    int rc;

    off[0] = 0;
    len[0] = count;
    for (int i = 0; i < ctx->ndims; i++) {
        int q = ctx->dims[i], v = ctx->coords[i];
        if (ctx->patterns[i] == COLL_PAT_RHD)
            rc = coll_halving_reduce_scatter(ctx, ctx->dim_comm[i], q, v, 0, 0, src + off[i] * es,
                                             out + off[i] * es, len[i], dt, op);
        else
            rc = coll_ring_reduce_scatter(ctx, ctx->dim_comm[i], q, v, src + off[i] * es,
                                          out + off[i] * es, len[i], dt, op);
        if (rc) return rc;
        off[i + 1] = off[i] + coll_block_off(len[i], q, v);
        len[i + 1] = coll_block_len(len[i], q, v);
        src = rbuf;
    }
    for (int i = ctx->ndims - 1; i >= 0; i--) {
        int q = ctx->dims[i], v = ctx->coords[i];
        if (ctx->patterns[i] == COLL_PAT_RHD)
            rc = coll_doubling_allgather(ctx, ctx->dim_comm[i], q, v, 0, 0, out + off[i] * es, len[i], es);
        else
            rc = coll_ring_allgather(ctx, ctx->dim_comm[i], q, v, out + off[i] * es, len[i], es);
        if (rc) return rc;
    }
    return 0;
}

/* One dimension's reduce-scatter or allgather over `len` elements (d pieces of whole blocks, so the
 * balanced blocks are exact); rhd dimensions farthest first, as the allreduce's: piece c_i on c_i. */
static int dim_rs(ddl_ctx *ctx, int i, const char *src, char *dst, size_t len, kern_dtype dt, kern_op op)
{
    const int q = ctx->dims[i], v = ctx->coords[i];
    if (ctx->patterns[i] == COLL_PAT_RHD)
        return coll_halving_reduce_scatter(ctx, ctx->dim_comm[i], q, v, 0, 0, src, dst, len, dt, op);
    return coll_ring_reduce_scatter(ctx, ctx->dim_comm[i], q, v, src, dst, len, dt, op);
}

static int dim_ag(ddl_ctx *ctx, int i, char *buf, size_t len, size_t es)
{
    const int q = ctx->dims[i], v = ctx->coords[i];
    if (ctx->patterns[i] == COLL_PAT_RHD)
        return coll_doubling_allgather(ctx, ctx->dim_comm[i], q, v, 0, 0, buf, len, es);
    return coll_ring_allgather(ctx, ctx->dim_comm[i], q, v, buf, len, es);
}

int coll_reduce_scatter_ddl(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt), bytes = count * es;
    const int held = coll_grid_nest(ctx->dims, ctx->ndims, ctx->rank);
    size_t off = 0, len = (size_t)ctx->size * count;
    const char *src = sbuf;
    char *work;
    int rc = coll_rs_work(ctx, sbuf, rbuf, count, dt, &work);

    for (int i = 0; !rc && i < ctx->ndims; i++) {
        rc = dim_rs(ctx, i, src + off * es, work + off * es, len, dt, op);
        len /= (size_t)ctx->dims[i];
        off += (size_t)ctx->coords[i] * len;
        src = work;
    }
    if (rc || held == ctx->rank) return rc ? rc : coll_rs_done(ctx, work, held, rbuf, count, dt);
    /* the permutation: this rank's block to its owner (rank `held`), ours from the rank holding it */
    return coll_exchange(ctx, ctx->comm, held, work + (size_t)held * bytes, bytes,
                         coll_grid_unnest(ctx->dims, ctx->ndims, ctx->rank), rbuf, bytes);
}

int coll_allgather_ddl(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const size_t es = kern_dtype_size(dt), bytes = count * es;
    const int held = coll_grid_nest(ctx->dims, ctx->ndims, ctx->rank);
    size_t off[DDL_MAX_DIMS + 1], len[DDL_MAX_DIMS + 1];
    char *b = rbuf;
    int rc;

    if (held == ctx->rank) /* the permutation: the walk starts from block `held` */
        rc = coll_ag_own(ctx, sbuf, rbuf, count, dt);
    else
        rc = coll_exchange(ctx, ctx->comm, coll_grid_unnest(ctx->dims, ctx->ndims, ctx->rank), sbuf, bytes, held,
                           b + (size_t)held * bytes, bytes);
    off[0] = 0;
    len[0] = (size_t)ctx->size * count;
    for (int i = 0; i < ctx->ndims; i++) {
        len[i + 1] = len[i] / (size_t)ctx->dims[i];
        off[i + 1] = off[i] + (size_t)ctx->coords[i] * len[i + 1];
    }
    for (int i = ctx->ndims - 1; !rc && i >= 0; i--) rc = dim_ag(ctx, i, b + off[i] * es, len[i], es);
    return rc;
}

int coll_ddl_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    size_t used = 0;
    for (int i = 0; i < ctx->ndims && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d:%s", i ? "x" : " grid=", ctx->dims[i],
                                 coll_pattern_name(ctx->patterns[i]));
    return 0;
}

static int ddl_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds)
{
    double chunk = bytes, reduced = 0, x;
    int stride = 1, rc;
    *seconds = 0;
    for (int i = 0; i < sh->ndims; i++) {
        if ((rc = coll_cost_dim(m, stride, sh->dims[i], sh->patterns[i], chunk, &x, &reduced))) return rc;
        *seconds += x;
        stride *= sh->dims[i];
        chunk /= sh->dims[i];
    }
    *seconds += reduced * m->gamma;
    return 0;
}

/* dims with every ring/rhd combination (rhd only on power-of-two dimensions), from out[n]. */
static int add_grid(coll_shape *out, int n, int max, const int *dims, int nd)
{
    for (int mask = 0; mask < 1 << nd && n < max; mask++) {
        int ok = 1;
        for (int i = 0; i < nd; i++) ok &= !((mask >> i) & 1) || coll_is_pow2(dims[i]);
        if (!ok) continue;
        out[n].ndims = nd;
        for (int i = 0; i < nd; i++) {
            out[n].dims[i] = dims[i];
            out[n].patterns[i] = (mask >> i) & 1 ? COLL_PAT_RHD : COLL_PAT_RING;
        }
        n++;
    }
    return n;
}

int coll_ddl_candidates(int p, int rpn, coll_shape *out, int max)
{
    int nodes = rpn > 1 && p % rpn == 0 ? p / rpn : 0, n = 0;
    if (nodes > 1) { /* rpn x nodes, rpn x a x nodes/a */
        n = add_grid(out, n, max, (int[]){ rpn, nodes }, 2);
        for (int a = 2; a < nodes; a++)
            if (nodes % a == 0) n = add_grid(out, n, max, (int[]){ rpn, a, nodes / a }, 3);
    } else {         /* one node, or no topology: p as two factors */
        for (int a = 2; a < p; a++)
            if (p % a == 0) n = add_grid(out, n, max, (int[]){ a, p / a }, 2);
    }
    return n ? n : add_grid(out, n, max, (int[]){ p }, 1); /* p prime or 1: the flat grid */
}

const coll_algo coll_algo_ddl = {
    .name = "ddl",
    .help = "hierarchical multi-dimensional (PowerAI DDL): per-dimension ring or rhd on a grid",
    .flags = DDL_ALGO_GRID | DDL_ALGO_AUTO,
    .run = coll_allreduce_ddl,
    .setup = coll_ddl_setup,
    .teardown = coll_ddl_teardown,
    .describe = coll_ddl_describe,
    .cost = ddl_cost,
    .candidates = coll_ddl_candidates,
    .reduce_scatter = coll_reduce_scatter_ddl,
    .allgather = coll_allgather_ddl,
};
