/* rsag.c — ddl_reduce_scatter and ddl_allgather: argument checks, MPI's in-place forms, p = 1, and
 * the buffer helpers the algorithms share.
 *
 * The blocks are the caller's: p equal blocks of `count` elements, rank i's block i (MPI's _block
 * form; FSDP, ZeRO and NCCL use it). Every algorithm's primitives run on the whole vector of n =
 * p·count elements, whose balanced blocks (partition.h) are then exactly the caller's.
 *
 *   reduce-scatter   input (sbuf, or rbuf in place) ─ the algorithm's steps in a work area of n
 *                    elements ─ this rank's block to rbuf (coll_rs_done: a copy, none when it is
 *                    already there)
 *   allgather        own contribution into its slot of rbuf (coll_ag_own; none in place) ─ the
 *                    algorithm's steps fill the other slots in place
 *
 * The work area: in place, rbuf itself (it holds the n inputs, which MPI lets the call overwrite);
 * out of place, the context's work buffer, made through the buffer location (host or device memory)
 * on the first call that needs it and grown when a larger one comes; every rank makes the same
 * calls, so they grow together and agree on the allocation (one MPI_Allreduce, on growth only). */
#include "coll.h"

static int check(ddl_ctx *ctx, const char *what, const char *noun, size_t count, ddl_dtype dtype, int op, int has)
{
    if (!ctx) return coll_fail(DDL_ERR_ARG, "%s: context is NULL", what);
    if ((unsigned)dtype >= DDL_DTYPE_COUNT) return coll_fail(DDL_ERR_ARG, "%s: unknown dtype %d", what, (int)dtype);
    if ((unsigned)op >= DDL_OP_COUNT) return coll_fail(DDL_ERR_ARG, "%s: unknown op %d", what, op);
    if (!has)
        return coll_fail(DDL_ERR_ALGO, "%s: algorithm \"%s\" has no %s (ddlbench list shows which have one)",
                         what, ddl_ctx_algo(ctx), noun);
    if (count > (size_t)-1 / 16 / (size_t)ctx->size)
        return coll_fail(DDL_ERR_ARG, "%s: count %zu too large for %d ranks", what, count, ctx->size);
    return 0;
}

int ddl_reduce_scatter(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t recvcount, ddl_dtype dtype,
                       ddl_op op)
{
    int rc = check(ctx, "ddl_reduce_scatter", "reduce-scatter", recvcount, dtype, (int)op,
                   ctx && coll_algo_get(ctx->algo)->reduce_scatter);
    if (rc || recvcount == 0) return rc;
    if (!recvbuf || !sendbuf)
        return coll_fail(DDL_ERR_ARG, "ddl_reduce_scatter: %s buffer is NULL with count %zu",
                         recvbuf ? "send" : "receive", recvcount);
    if (sendbuf == DDL_IN_PLACE) sendbuf = recvbuf;
    if (ctx->size == 1) return coll_copy(ctx, recvbuf, sendbuf, recvcount * ddl_dtype_size(dtype));
    return coll_algo_get(ctx->algo)->reduce_scatter(ctx, sendbuf, recvbuf, recvcount, (kern_dtype)dtype,
                                                    (kern_op)op);
}

int ddl_allgather(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t sendcount, ddl_dtype dtype)
{
    int rc =
        check(ctx, "ddl_allgather", "allgather", sendcount, dtype, DDL_SUM, ctx && coll_algo_get(ctx->algo)->allgather);
    if (rc || sendcount == 0) return rc;
    if (!recvbuf || !sendbuf)
        return coll_fail(DDL_ERR_ARG, "ddl_allgather: %s buffer is NULL with count %zu", recvbuf ? "send" : "receive",
                         sendcount);
    const size_t bytes = sendcount * ddl_dtype_size(dtype);
    if (sendbuf == DDL_IN_PLACE) sendbuf = (char *)recvbuf + (size_t)ctx->rank * bytes;
    if (ctx->size == 1) return coll_copy(ctx, recvbuf, sendbuf, bytes);
    return coll_algo_get(ctx->algo)->allgather(ctx, sendbuf, recvbuf, sendcount, (kern_dtype)dtype);
}

int coll_rs_work(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, char **work)
{
    if (sbuf == rbuf) {
        *work = rbuf;
        return 0;
    }
    return coll_work(ctx, (size_t)ctx->size * count * kern_dtype_size(dt), work);
}

int coll_work(ddl_ctx *ctx, size_t bytes, char **work)
{
    int rc = 0;
    if (bytes > ctx->work_bytes) { /* every rank is here in the same call: grow together */
        if (ctx->work) ctx->loc->work_free(ctx, ctx->work);
        ctx->work = NULL;
        ctx->work_bytes = 0;
        if (!(rc = ctx->loc->work_alloc(ctx, &ctx->work, bytes))) ctx->work_bytes = bytes;
        if ((rc = coll_agree(ctx->comm, rc))) return rc;
    }
    *work = ctx->work;
    return 0;
}

int coll_rs_done(ddl_ctx *ctx, const char *work, int at, void *rbuf, size_t count, kern_dtype dt)
{
    const size_t bytes = count * kern_dtype_size(dt);
    return coll_copy(ctx, rbuf, work + (size_t)at * bytes, bytes);
}

int coll_ag_own(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const size_t bytes = count * kern_dtype_size(dt);
    return coll_copy(ctx, (char *)rbuf + (size_t)ctx->rank * bytes, sbuf, bytes);
}
