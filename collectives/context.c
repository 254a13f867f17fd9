/* context.c — ddl_ctx_create / ddl_allreduce / ddl_ctx_free and the small public helpers.
 *
 * ddl_ctx_create is collective, and a failure on one rank must not leave its peers waiting in the
 * next collective call. So it first makes every local check and choice (algorithm, buffer location,
 * requested segment, depth, polling), then runs its collective steps, each preceded by an agreement
 * on every local failure so far (coll_agree, errors.c), so all ranks fail together:
 *
 *   local checks ─ dup ─ agree ─ segment/plain sizes ─ topology (agrees inside) ─ location buffers
 *   ─ agree ─ algorithm setup (agrees before its own collective steps) ─ agree ─ done
 *
 * ddl_allreduce then only validates its arguments and calls the algorithm. */
#include "coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    ctx->loc = &coll_loc_host;
    for (int i = 0; i < DDL_MAX_DIMS; i++) ctx->dim_comm[i] = MPI_COMM_NULL;
    for (int h = 0; h < 2; h++) {
        ctx->half_type[h] = MPI_DATATYPE_NULL;
        for (int o = 0; o < DDL_OP_COUNT; o++) ctx->half_op[h][o] = MPI_OP_NULL;
    }
    return ctx;
}

/* A message size: requested (the config field `what`), else env, else def; 0 only when def is 0 (off).
 * The segment's default is never 0; the network segment's is 0 where it is off, and agree_sizes makes
 * it at most the agreed segment, which sizes the landing slots. */
static int resolve_bytes(const char *what, const char *env_name, size_t requested, size_t def, size_t *out)
{
    long env;
    int rc;
    if (!requested) {
        if ((rc = coll_env_long(env_name, 1, COLL_MAX_SEGMENT, &env))) return rc;
        requested = env ? (size_t)env : def;
        if (!requested) return *out = 0, 0;
    }
    if (requested < 64 || requested > COLL_MAX_SEGMENT)
        return coll_fail(DDL_ERR_ARG, "%s: expected 64..%u, got %zu", what, COLL_MAX_SEGMENT, requested);
    *out = requested & ~(size_t)7;
    return 0;
}

static int resolve_depth(ddl_ctx *ctx, int requested, int def)
{
    const int lo = 1 + ctx->loc->lag;
    long env;
    int rc;
    if (!requested) {
        if ((rc = coll_env_long("DDL_PIPELINE_DEPTH", 1, COLL_MAX_DEPTH, &env))) return rc;
        requested = env ? (int)env : def;
    }
    if (requested < lo || requested > COLL_MAX_DEPTH)
        return coll_fail(DDL_ERR_ARG, "pipeline_depth: expected %d..%d for %s buffers, got %d", lo, COLL_MAX_DEPTH,
                         ctx->loc->device ? "device" : "host", requested);
    ctx->depth = requested;
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

/* Everything decided before any communication: local failures only. */
static int configure(ddl_ctx *ctx, const ddl_config *cfg, size_t *segment, size_t *net)
{
    const char *name = cfg->algo && *cfg->algo ? cfg->algo : "ddl";
    int algo = coll_algo_find(name), rc;
    if (algo < 0) return coll_fail(DDL_ERR_ALGO, "unknown algorithm \"%.64s\" (see --list)", name);
    ctx->algo = algo;
    if ((rc = coll_loc_choose(ctx, cfg)) || (cfg->machine && (rc = coll_machine_check(cfg->machine, 0))))
        return rc;
    size_t seg = ctx->loc->default_segment; /* the defaults: the location's, or the links' (links.c) */
    if (cfg->machine) seg = coll_link_segment(cfg->machine, seg);
    ctx->split_bytes = ctx->loc->default_segment; /* the same on every rank (exchange.c) */
    /* Under SMPI the simulated network has no TCP rendezvous to queue behind data: one size
     * everywhere, as the simulation was calibrated (nodes.c). */
    const size_t net_default = coll_simulated() ? 0 : ctx->loc->default_net_segment;
    if ((rc = resolve_bytes("segment_bytes", "DDL_SEGMENT_BYTES", cfg->segment_bytes, seg, segment)) ||
        (rc = resolve_bytes("net_segment_bytes", "DDL_NET_SEGMENT_BYTES", cfg->net_segment_bytes, net_default,
                            net)) ||
        (rc = resolve_depth(ctx, cfg->pipeline_depth, cfg->machine ? coll_link_depth(cfg->machine, *segment,
                                                                                     ctx->loc->default_depth)
                                                                   : ctx->loc->default_depth)))
        return rc;
    return resolve_poll(cfg->poll_us, &ctx->poll_us);
}

/* The first collective step: duplicate comm (MPI errors returned, not fatal), then agree on rc, the
 * local checks made before. Without a context (out NULL, no memory) the duplicate is freed at once. */
static int open_comm(ddl_ctx *ctx, MPI_Comm comm, int rc)
{
    MPI_Comm dup = MPI_COMM_NULL;
    int mrc = MPI_Comm_dup(comm, &dup);
    if (mrc != MPI_SUCCESS) return rc ? rc : coll_mpi_fail(mrc, "MPI_Comm_dup");
    mrc = MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    if (mrc == MPI_SUCCESS && ctx) mrc = MPI_Comm_rank(dup, &ctx->rank);
    if (mrc == MPI_SUCCESS && ctx) mrc = MPI_Comm_size(dup, &ctx->size);
    if (mrc != MPI_SUCCESS && !rc) rc = coll_mpi_fail(mrc, "communicator setup");
    rc = coll_agree(dup, rc);
    if (ctx)
        ctx->comm = dup;
    else
        MPI_Comm_free(&dup);
    return rc;
}

/* Collective: one segment (the smallest requested) on every rank, one size for the plain steps'
 * messages: COLL_CHUNK when every rank's MPI moves its buffers, else the segment (staging slots), and
 * one for steps across nodes (the smallest set, at most the segment; off only if off everywhere);
 * with that set, the node map (nodes.c). */
static int agree_sizes(ddl_ctx *ctx, size_t requested, size_t net)
{
    unsigned long mine[3] = { (unsigned long)requested, (unsigned long)ctx->loc->mpi_moves,
                              net ? (unsigned long)net : ULONG_MAX }, all[3];
    COLL_MPI(MPI_Allreduce(mine, all, 3, MPI_UNSIGNED_LONG, MPI_MIN, ctx->comm));
    ctx->segment_bytes = all[0];
    ctx->plain_bytes = all[1] ? COLL_CHUNK : all[0];
    ctx->net_bytes = all[2] == ULONG_MAX ? 0 : (all[2] < all[0] ? all[2] : all[0]) & ~(size_t)7;
    return ctx->net_bytes ? coll_nodes_init(ctx) : 0;
}

int ddl_ctx_create(MPI_Comm comm, const ddl_config *cfg, ddl_ctx **out)
{
    static const ddl_config defaults = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    size_t segment = 0, net = 0;
    int rc;

    if (out) *out = NULL; /* on every failure, MPI_COMM_NULL's too */
    if (comm == MPI_COMM_NULL) return coll_fail(DDL_ERR_ARG, "ddl_ctx_create: communicator is MPI_COMM_NULL");
    if (!cfg) cfg = &defaults;
    if (!out)
        rc = coll_fail(DDL_ERR_ARG, "ddl_ctx_create: out is NULL");
    else if (!(ctx = ctx_new()))
        rc = coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: out of memory");
    else
        rc = configure(ctx, cfg, &segment, &net);
    if ((rc = open_comm(ctx, comm, rc)) || (rc = agree_sizes(ctx, segment, net)) ||
        (rc = coll_topology(ctx->comm, ctx->rank, ctx->size, cfg->ranks_per_node, &ctx->ranks_per_node)))
        goto out;
    rc = coll_test_fail(ctx->comm, "alloc", DDL_ERR_NOMEM);
    if (!rc) rc = ctx->loc->alloc(ctx);
    if ((rc = coll_agree(ctx->comm, rc))) goto out;
    if (coll_algo_get(ctx->algo)->setup) rc = coll_algo_get(ctx->algo)->setup(ctx, cfg);
    if (!rc) rc = coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG); /* setups without collective steps */
    if ((rc = coll_agree(ctx->comm, rc))) goto out;
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
    if (ctx->work) ctx->loc->work_free(ctx, ctx->work);
    coll_nodes_free(ctx);
    if (ctx->comm != MPI_COMM_NULL) MPI_Comm_free(&ctx->comm);
    ctx->loc->release(ctx);
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
    /* the simulated reduction and copy rates by the data the call touches: out of place, both vectors */
    kern_reduce_set_working_set(count * kern_dtype_size((kern_dtype)dtype) * (sendbuf == recvbuf ? 1 : 2));
    int rc = coll_algo_get(ctx->algo)->run(ctx, sendbuf, recvbuf, count, (kern_dtype)dtype, (kern_op)op);
    kern_reduce_set_working_set(0);
    return rc;
}

const char *ddl_ctx_algo(const ddl_ctx *ctx) { return ctx ? coll_algo_get(ctx->algo)->name : NULL; }

int ddl_ctx_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    size_t used = 0;
    if (!ctx || !buf || !len) return coll_fail(DDL_ERR_ARG, "ddl_ctx_describe: bad argument");
    used += (size_t)snprintf(buf, len, "%s ranks=%d ranks_per_node=%d segment=%zu depth=%d", ddl_ctx_algo(ctx),
                             ctx->size, ctx->ranks_per_node, ctx->segment_bytes, ctx->depth);
    if (ctx->net_bytes && used < len)
        used += (size_t)snprintf(buf + used, len - used, " net_segment=%zu%s", ctx->net_bytes,
                                 ctx->nnodes ? "" : "(one node)");
    if (ctx->loc->device && used < len)
        used += (size_t)snprintf(buf + used, len - used, " device=%s", ctx->loc->name);
    if (coll_algo_get(ctx->algo)->describe && used + 1 < len) /* the row's own: grid, auto's choices */
        return coll_algo_get(ctx->algo)->describe(ctx, buf + used, len - used);
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
