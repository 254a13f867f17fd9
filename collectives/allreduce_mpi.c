/* allreduce_mpi.c — the MPI library's own MPI_Allreduce: the baseline every algorithm is measured
 * against. float16 and bfloat16 have no standard MPI type, so setup makes 2-byte types with
 * user-defined ops that call the same reduction kernels. Counts above INT_MAX go in chunks.
 * Buffers MPI cannot reduce where they are (the context's location says: device buffers with a
 * staging MPI, or float16/bfloat16 user ops, which run on the host, with a CUDA-aware one) go in
 * chunks through the location's pinned bounce buffer: copy in, MPI_Allreduce in place, copy out.
 * Cost: what the library picks; the model (coll_mpi_cost, cost.c) assumes Open MPI 4.1's coll/tuned
 * fixed decision (ompi_decision.c): recursive doubling, lg p·(α + nβ + nγ), the ring, or Rabenseifner
 * (priced as rhd) by communicator and message size. */
#include "coll.h"

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

static int allreduce_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                         kern_op op)
{
    static const MPI_Op ops[KERN_OP_COUNT] = { MPI_SUM, MPI_MAX, MPI_MIN };
    MPI_Datatype type;
    MPI_Op mop = ops[op];
    const int half = dt == KERN_F16 || dt == KERN_BF16;

    switch (dt) {
    case KERN_F32: type = MPI_FLOAT; break;
    case KERN_F64: type = MPI_DOUBLE; break;
    case KERN_I32: type = MPI_INT32_T; break;
    case KERN_F16: type = ctx->half_type[0]; mop = ctx->half_op[0][op]; break;
    default: type = ctx->half_type[1]; mop = ctx->half_op[1][op]; break;
    }
    if (ctx->loc->mpi_moves && (ctx->loc->mpi_user_ops || !half))
        return allreduce_direct(ctx, sbuf, rbuf, count, kern_dtype_size(dt), type, mop);
    return allreduce_bounced(ctx, sbuf, rbuf, count, kern_dtype_size(dt), type, mop);
}

const coll_algo coll_algo_mpi = {
    .name = "mpi",
    .help = "MPI_Allreduce of the MPI library (the baseline)",
    .run = allreduce_mpi,
    .setup = mpi_setup,
    .teardown = mpi_teardown,
    .cost = coll_mpi_cost,
};
