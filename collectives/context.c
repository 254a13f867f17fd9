/* context.c — ddl_ctx_create / ddl_allreduce / ddl_ctx_free and the small public helpers.
 * Creation duplicates the communicator (MPI_ERRORS_RETURN on it), agrees on one segment size,
 * resolves ranks per node, allocates the scratch and runs the algorithm's setup; ddl_allreduce then
 * only validates its arguments and calls the algorithm. */
#include "coll.h"
#include "mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int coll_env_long(const char *name, long min, long max, long *out);
int coll_topology(MPI_Comm comm, int rank, int size, int override, int *rpn);

_Static_assert((int)DDL_FLOAT32 == (int)KERN_F32 && (int)DDL_INT32 == (int)KERN_I32 &&
                   (int)DDL_DTYPE_COUNT == (int)KERN_DTYPE_COUNT && (int)DDL_MIN == (int)KERN_MIN,
               "ddl.h and reduce.h enums must match");

static const char *const dtype_names[DDL_DTYPE_COUNT] = { "float32", "float64", "float16", "bfloat16",
                                                          "int32" };
static const char *const op_names[DDL_OP_COUNT] = { "sum", "max", "min" };

static ddl_ctx *ctx_new(void)
{
    ddl_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->comm = MPI_COMM_NULL;
    for (int i = 0; i < DDL_MAX_DIMS; i++) ctx->dim_comm[i] = MPI_COMM_NULL;
    for (int h = 0; h < 2; h++) {
        ctx->half_type[h] = MPI_DATATYPE_NULL;
        for (int o = 0; o < DDL_OP_COUNT; o++) ctx->half_op[h][o] = MPI_OP_NULL;
    }
    return ctx;
}

static int resolve_segment(ddl_ctx *ctx, size_t requested)
{
    long env;
    int rc;
    unsigned long mine, agreed;
    if (!requested) {
        if ((rc = coll_env_long("DDL_SEGMENT_BYTES", 1, COLL_MAX_SEGMENT, &env))) return rc;
        requested = env ? (size_t)env : COLL_DEFAULT_SEGMENT;
    }
    if (requested < 64 || requested > COLL_MAX_SEGMENT)
        return coll_fail(DDL_ERR_ARG, "segment_bytes: expected 64..%u, got %zu", COLL_MAX_SEGMENT, requested);
    mine = (unsigned long)(requested & ~(size_t)7);
    COLL_MPI(MPI_Allreduce(&mine, &agreed, 1, MPI_UNSIGNED_LONG, MPI_MIN, ctx->comm));
    ctx->segment_bytes = agreed;
    return 0;
}

static int resolve_poll(int requested, int *out)
{
    long env;
    int rc;
    if (requested < 0 || requested > 1000000)
        return coll_fail(DDL_ERR_ARG, "poll_us: expected 0..1000000, got %d", requested);
    if (!requested && (rc = coll_env_long("DDL_POLL_US", 0, 1000000, &env))) return rc; /* 0: block, as unset */
    *out = requested ? requested : (int)env;
    return 0;
}

int ddl_ctx_create(MPI_Comm comm, const ddl_config *cfg, ddl_ctx **out)
{
    static const ddl_config defaults = DDL_CONFIG_INIT;
    const char *name;
    ddl_ctx *ctx = NULL;
    int rc;

    if (!out) return coll_fail(DDL_ERR_ARG, "ddl_ctx_create: out is NULL");
    *out = NULL;
    if (comm == MPI_COMM_NULL) return coll_fail(DDL_ERR_ARG, "ddl_ctx_create: communicator is MPI_COMM_NULL");
    if (!cfg) cfg = &defaults;
    name = cfg->algo && *cfg->algo ? cfg->algo : "ddl";
    int algo = coll_algo_find(name);
    if (algo < 0) return coll_fail(DDL_ERR_ALGO, "unknown algorithm \"%.64s\" (see --list)", name);
    if (!(ctx = ctx_new())) return coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: out of memory");
    ctx->algo = algo;
    if (MPI_Comm_dup(comm, &ctx->comm) != MPI_SUCCESS) {
        rc = coll_fail(DDL_ERR_MPI, "MPI_Comm_dup failed");
        goto out;
    }
    if ((rc = MPI_Comm_set_errhandler(ctx->comm, MPI_ERRORS_RETURN)) ||
        (rc = MPI_Comm_rank(ctx->comm, &ctx->rank)) || (rc = MPI_Comm_size(ctx->comm, &ctx->size))) {
        rc = coll_mpi_fail(rc, "communicator setup");
        goto out;
    }
    if ((rc = resolve_segment(ctx, cfg->segment_bytes))) goto out;
    if ((rc = resolve_poll(cfg->poll_us, &ctx->poll_us))) goto out;
    if ((rc = coll_topology(ctx->comm, ctx->rank, ctx->size, cfg->ranks_per_node, &ctx->ranks_per_node)))
        goto out;
    /* kern_buf_alloc: under SMPI shared pages, so the simulator copies no message payloads */
    if (!(ctx->scratch = kern_buf_alloc(COLL_WINDOW * ctx->segment_bytes))) {
        rc = coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: no memory for %zu bytes of scratch",
                       COLL_WINDOW * ctx->segment_bytes);
        goto out;
    }
    if (cfg->device && (rc = coll_dev_setup(ctx))) goto out; /* device buffers: device.c */
    if (coll_algo_get(algo)->setup && (rc = coll_algo_get(algo)->setup(ctx, cfg))) goto out;
    *out = ctx;
    return 0;
out:
    ddl_ctx_free(ctx);
    return rc;
}

void ddl_ctx_free(ddl_ctx *ctx)
{
    if (!ctx) return;
    if (coll_algo_get(ctx->algo)->teardown) coll_algo_get(ctx->algo)->teardown(ctx);
    if (ctx->comm != MPI_COMM_NULL) MPI_Comm_free(&ctx->comm);
    coll_dev_teardown(ctx);
    kern_buf_free(ctx->scratch);
    free(ctx);
}

int ddl_allreduce(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t count, ddl_dtype dtype,
                  ddl_op op)
{
    if (!ctx) return coll_fail(DDL_ERR_ARG, "ddl_allreduce: context is NULL");
    if ((unsigned)dtype >= DDL_DTYPE_COUNT)
        return coll_fail(DDL_ERR_ARG, "ddl_allreduce: unknown dtype %d", (int)dtype);
    if ((unsigned)op >= DDL_OP_COUNT) return coll_fail(DDL_ERR_ARG, "ddl_allreduce: unknown op %d", (int)op);
    if (count == 0) return 0;
    if (!recvbuf || !sendbuf)
        return coll_fail(DDL_ERR_ARG, "ddl_allreduce: %s buffer is NULL with count %zu",
                         recvbuf ? "send" : "receive", count);
    if (count > (size_t)-1 / 16) return coll_fail(DDL_ERR_ARG, "ddl_allreduce: count %zu too large", count);
    if (sendbuf == DDL_IN_PLACE) sendbuf = recvbuf;
    return coll_algo_get(ctx->algo)->run(ctx, sendbuf, recvbuf, count, (kern_dtype)dtype, (kern_op)op);
}

const char *ddl_ctx_algo(const ddl_ctx *ctx) { return ctx ? coll_algo_get(ctx->algo)->name : NULL; }

int ddl_ctx_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    size_t used = 0;
    if (!ctx || !buf || !len) return coll_fail(DDL_ERR_ARG, "ddl_ctx_describe: bad argument");
    used += (size_t)snprintf(buf, len, "%s ranks=%d ranks_per_node=%d segment=%zu", ddl_ctx_algo(ctx),
                             ctx->size, ctx->ranks_per_node, ctx->segment_bytes);
    if (ctx->dev && used < len) used += (size_t)snprintf(buf + used, len - used, " device=%s", coll_dev_path(ctx));
    if (ctx->algo_state && coll_algo_get(ctx->algo)->run == coll_allreduce_auto && used + 2 < len) {
        used += (size_t)snprintf(buf + used, len - used, " choices: ");
        if (used < len) coll_auto_describe(ctx, buf + used, len - used);
        return 0;
    }
    for (int i = 0; i < ctx->ndims && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%d:%s", i ? "x" : " grid=", ctx->dims[i],
                                 coll_pattern_name(ctx->patterns[i]));
    return 0;
}

size_t ddl_dtype_size(ddl_dtype dtype) { return kern_dtype_size((kern_dtype)dtype); }
const char *ddl_dtype_name(ddl_dtype d) { return (unsigned)d < DDL_DTYPE_COUNT ? dtype_names[d] : "?"; }
const char *ddl_op_name(ddl_op op) { return (unsigned)op < DDL_OP_COUNT ? op_names[op] : "?"; }

static int find_name(const char *s, const char *const *names, int n)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

int ddl_dtype_parse(const char *s, ddl_dtype *out)
{
    static const char *const aliases[DDL_DTYPE_COUNT] = { "float", "double", "half", "bf16", "int" };
    int i = find_name(s, dtype_names, DDL_DTYPE_COUNT);
    if (i < 0) i = find_name(s, aliases, DDL_DTYPE_COUNT);
    if (i < 0)
        return coll_fail(DDL_ERR_ARG, "type: expected float32, float64, float16, bfloat16 or int32, got \"%.32s\"",
                         s ? s : "");
    *out = (ddl_dtype)i;
    return 0;
}

int ddl_op_parse(const char *s, ddl_op *out)
{
    int i = find_name(s, op_names, DDL_OP_COUNT);
    if (i < 0) return coll_fail(DDL_ERR_ARG, "op: expected sum, max or min, got \"%.32s\"", s ? s : "");
    *out = (ddl_op)i;
    return 0;
}
