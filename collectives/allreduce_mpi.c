/* allreduce_mpi.c — the MPI library's own MPI_Allreduce: the baseline every algorithm is measured
 * against. float16 and bfloat16 have no standard MPI type, so setup makes 2-byte types with
 * user-defined ops that call the same reduction kernels. Counts above INT_MAX go in chunks.
 * Buffers MPI cannot reduce where they are (the context's location says: device buffers with a
 * staging MPI, or float16/bfloat16 user ops, which run on the host, with a CUDA-aware one) go in
 * chunks through the location's pinned bounce buffer: copy in, MPI_Allreduce in place, copy out.
 * Cost: what the library picks; the model (coll_mpi_cost, cost.c) assumes Open MPI 4.1's coll/tuned
 * fixed decision (ompi_decision.c): recursive doubling, lg p·(α + nβ + nγ), the ring, or Rabenseifner
 * (priced as rhd) by communicator and message size.
 * The row's reduce-scatter and allgather are MPI_Reduce_scatter_block and MPI_Allgather, with the same
 * types and ops; through the bounce buffer in chunks of every block at once (p copies in or out per
 * chunk). A count above INT_MAX per rank is refused (DDL_ERR_ARG): their blocks are strided.
 * Being the real builds' one flavour-specific collectives file, it also answers coll_simulated(). */
#include "coll.h"

int coll_simulated(void) { return 0; }

#define HALF_OP(NAME, DT, OP)                                                      \
    static void NAME(void *in, void *inout, int *len, MPI_Datatype *type)         \
    {                                                                              \
        (void)type;                                                                \
        kern_reduce(DT, OP, inout, inout, in, (size_t)*len);                       \
    }
HALF_OP(f16_sum, KERN_F16, KERN_SUM)
HALF_OP(f16_max, KERN_F16, KERN_MAX)
HALF_OP(f16_min, KERN_F16, KERN_MIN)
HALF_OP(bf16_sum, KERN_BF16, KERN_SUM)
HALF_OP(bf16_max, KERN_BF16, KERN_MAX)
HALF_OP(bf16_min, KERN_BF16, KERN_MIN)

static MPI_User_function *const half_fns[2][DDL_OP_COUNT] = {
    { f16_sum, f16_max, f16_min },
    { bf16_sum, bf16_max, bf16_min },
};

static int mpi_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    (void)cfg;
    for (int h = 0; h < 2; h++) {
        COLL_MPI(MPI_Type_contiguous(2, MPI_BYTE, &ctx->half_type[h]));
        COLL_MPI(MPI_Type_commit(&ctx->half_type[h]));
        for (int o = 0; o < DDL_OP_COUNT; o++)
            COLL_MPI(MPI_Op_create(half_fns[h][o], 1, &ctx->half_op[h][o]));
    }
    return 0;
}

static void mpi_teardown(ddl_ctx *ctx)
{
    for (int h = 0; h < 2; h++) {
        if (ctx->half_type[h] != MPI_DATATYPE_NULL) MPI_Type_free(&ctx->half_type[h]);
        for (int o = 0; o < DDL_OP_COUNT; o++)
            if (ctx->half_op[h][o] != MPI_OP_NULL) MPI_Op_free(&ctx->half_op[h][o]);
    }
}

static int allreduce_direct(ddl_ctx *ctx, const char *sbuf, char *rbuf, size_t count, size_t es,
                            MPI_Datatype type, MPI_Op mop)
{
    for (size_t k = 0, n = coll_pieces(count, INT_MAX); k < n; k++) {
        const size_t len = coll_piece_len(count, INT_MAX, k), off = k * (size_t)INT_MAX * es;
        COLL_MPI(MPI_Allreduce(sbuf == rbuf ? MPI_IN_PLACE : sbuf + off, rbuf + off, (int)len, type, mop,
                               ctx->comm));
    }
    return 0;
}

static int allreduce_bounced(ddl_ctx *ctx, const char *sbuf, char *rbuf, size_t count, size_t es,
                             MPI_Datatype type, MPI_Op mop)
{
    size_t cap = 0;
    char *stage = ctx->loc->bounce(ctx, &cap);
    const size_t chunk = cap / es < INT_MAX ? cap / es : INT_MAX;
    int rc;
    if (!stage || !chunk) return coll_fail(DDL_ERR_ARG, "mpi: no bounce buffer for %s buffers", ctx->loc->name);
    for (size_t k = 0, n = coll_pieces(count, chunk); k < n; k++) {
        const size_t len = coll_piece_len(count, chunk, k), off = k * chunk * es;
        if ((rc = coll_copy(ctx, stage, sbuf + off, len * es))) return rc;
        COLL_MPI(MPI_Allreduce(MPI_IN_PLACE, stage, (int)len, type, mop, ctx->comm));
        if ((rc = coll_copy(ctx, rbuf + off, stage, len * es))) return rc;
    }
    return 0;
}

/* The MPI type and op of (dt, op); returns 1 when MPI may work on the buffers where they are. */
static int mpi_type(const ddl_ctx *ctx, kern_dtype dt, kern_op op, MPI_Datatype *type, MPI_Op *mop)
{
    static const MPI_Op ops[KERN_OP_COUNT] = { MPI_SUM, MPI_MAX, MPI_MIN };
    const int half = dt == KERN_F16 || dt == KERN_BF16;
    *mop = ops[op];
    switch (dt) {
    case KERN_F32: *type = MPI_FLOAT; break;
    case KERN_F64: *type = MPI_DOUBLE; break;
    case KERN_I32: *type = MPI_INT32_T; break;
    case KERN_F16: *type = ctx->half_type[0]; *mop = ctx->half_op[0][op]; break;
    default: *type = ctx->half_type[1]; *mop = ctx->half_op[1][op]; break;
    }
    return ctx->loc->mpi_moves && (ctx->loc->mpi_user_ops || !half);
}

static int allreduce_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                         kern_op op)
{
    MPI_Datatype type;
    MPI_Op mop;
    if (mpi_type(ctx, dt, op, &type, &mop))
        return allreduce_direct(ctx, sbuf, rbuf, count, kern_dtype_size(dt), type, mop);
    return allreduce_bounced(ctx, sbuf, rbuf, count, kern_dtype_size(dt), type, mop);
}

/* Reduce-scatter (reduce = 1) and allgather: the MPI type and op; *stage NULL when MPI takes the
 * buffers as they are, else the bounce buffer and the chunk (elements) that p blocks of fit in it.
 * A count per rank above INT_MAX is refused: the blocks are strided, so no simple chunking. */
static int rsag_plan(ddl_ctx *ctx, size_t count, kern_dtype dt, kern_op op, int reduce, MPI_Datatype *type,
                     MPI_Op *mop, char **stage, size_t *chunk)
{
    size_t cap = 0;
    const int direct = mpi_type(ctx, dt, op, type, mop) || (!reduce && ctx->loc->mpi_moves);
    *stage = NULL;
    if (count > INT_MAX) return coll_fail(DDL_ERR_ARG, "mpi: %zu elements per rank (at most INT_MAX)", count);
    if (direct) return 0;
    *stage = ctx->loc->bounce(ctx, &cap);
    *chunk = cap / kern_dtype_size(dt) / (size_t)ctx->size;
    if (!*stage || !*chunk)
        return coll_fail(DDL_ERR_ARG, "mpi: no bounce buffer for %d blocks of %s buffers", ctx->size, ctx->loc->name);
    return 0;
}

static int reduce_scatter_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = sbuf;
    char *out = rbuf, *stage;
    MPI_Datatype type;
    MPI_Op mop;
    size_t chunk = 0;
    int rc = rsag_plan(ctx, count, dt, op, 1, &type, &mop, &stage, &chunk);
    if (rc) return rc;
    if (!stage) {
        COLL_MPI(MPI_Reduce_scatter_block(sbuf == rbuf ? MPI_IN_PLACE : sbuf, rbuf, (int)count, type, mop, ctx->comm));
        return 0;
    }
    for (size_t k = 0, n = coll_pieces(count, chunk); k < n; k++) { /* in place, chunk k of block 0 is read first */
        const size_t len = coll_piece_len(count, chunk, k);
        for (int i = 0; i < ctx->size; i++)
            if ((rc =
                     coll_copy(ctx, stage + (size_t)i * len * es, in + ((size_t)i * count + k * chunk) * es, len * es)))
                return rc;
        COLL_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, stage, (int)len, type, mop, ctx->comm));
        if ((rc = coll_copy(ctx, out + k * chunk * es, stage, len * es))) return rc;
    }
    return 0;
}

static int allgather_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const size_t es = kern_dtype_size(dt);
    const char *in = sbuf;
    char *out = rbuf, *stage;
    MPI_Datatype type;
    MPI_Op unused;
    size_t chunk = 0;
    int rc = rsag_plan(ctx, count, dt, KERN_SUM, 0, &type, &unused, &stage, &chunk);
    if (rc) return rc;
    if (!stage) {
        COLL_MPI(MPI_Allgather(in == out + (size_t)ctx->rank * count * es ? MPI_IN_PLACE : sbuf, (int)count, type, rbuf,
                               (int)count, type, ctx->comm));
        return 0;
    }
    for (size_t k = 0, n = coll_pieces(count, chunk); k < n; k++) {
        const size_t len = coll_piece_len(count, chunk, k);
        if ((rc = coll_copy(ctx, stage + (size_t)ctx->rank * len * es, in + k * chunk * es, len * es))) return rc;
        COLL_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, stage, (int)len, type, ctx->comm));
        for (int i = 0; i < ctx->size; i++)
            if ((rc = coll_copy(ctx, out + ((size_t)i * count + k * chunk) * es, stage + (size_t)i * len * es,
                                len * es)))
                return rc;
    }
    return 0;
}

const coll_algo coll_algo_mpi = {
    .name = "mpi",
    .help = "MPI_Allreduce of the MPI library (the baseline)",
    .run = allreduce_mpi,
    .setup = mpi_setup,
    .teardown = mpi_teardown,
    .cost = coll_mpi_cost,
    .reduce_scatter = reduce_scatter_mpi,
    .allgather = allgather_mpi,
};
