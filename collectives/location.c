/* location.c — where a context's buffers live, as a policy the pipeline (exchange.c) calls: the
 * host location, the choice made at ddl_ctx_create, and the one whole-buffer copy (the q = 1 step).
 *
 * Host buffers: MPI reads the sends where they are and writes a reducing step's segments into
 * ctx->depth landing slots of host scratch (2 by default: double buffering), where kern_reduce
 * combines them into place at once; a plain step's pieces land in place. Everything is synchronous,
 * so a slot is free again as soon as consume returns (lag 0). Memory: depth segments of scratch
 * (and, after an out-of-place reduce-scatter, its work buffer: rsag.c).
 * Under simulation the copies, the landed segments and each posted message are priced through mem.h
 * (kern_copy, kern_landed, kern_posted: the copy cost by working set and the per-call overhead).
 * The device locations (cuda-aware, staged) are in device.c. */
#include "coll.h"
#include "mem.h"


static int host_alloc(ddl_ctx *ctx)
{
    const size_t bytes = (size_t)ctx->depth * ctx->segment_bytes;
    /* kern_buf_alloc: under SMPI shared pages, so the simulator copies no message payloads */
    if (!(ctx->scratch = kern_buf_alloc(bytes)))
        return coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: no memory for %zu bytes of scratch", bytes);
    return 0;
}

static void host_release(ddl_ctx *ctx)
{
    kern_buf_free(ctx->scratch);
    ctx->scratch = NULL;
}

static int host_enter(ddl_ctx *ctx)
{
    (void)ctx;
    return 0;
}

static int host_stage(ddl_ctx *ctx, int slot, const void *src, size_t bytes)
{
    (void)ctx, (void)slot, (void)src, (void)bytes;
    return 0;
}

static int host_sendable(ddl_ctx *ctx, int slot, const void *src, const void **mpi)
{
    (void)ctx, (void)slot;
    kern_posted(); /* simulated: the per-call overhead (mem.h) */
    *mpi = src;
    return 0;
}

static int host_land(ddl_ctx *ctx, int slot, int reduce, void *dst, void **mpi)
{
    kern_posted();
    *mpi = reduce ? (char *)ctx->scratch + (size_t)slot * ctx->segment_bytes : dst;
    return 0;
}

static int host_consume(ddl_ctx *ctx, const coll_seg *seg, kern_dtype dt, kern_op op)
{
    (void)ctx;
    kern_landed(seg->bytes); /* simulated: the working set's memory traffic beyond one segment's */
    if (seg->a) kern_reduce(dt, op, seg->dst, seg->a, seg->landed, seg->bytes / kern_dtype_size(dt));
    return 0;
}

static int host_finish(ddl_ctx *ctx)
{
    (void)ctx;
    return 0;
}

static int host_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    (void)ctx;
    kern_copy(dst, src, bytes); /* simulated: priced at the working set's copy cost */
    return 0;
}

static int host_work_alloc(ddl_ctx *ctx, void **p, size_t bytes)
{
    (void)ctx;
    if (!(*p = kern_buf_alloc(bytes))) return coll_fail(DDL_ERR_NOMEM, "no memory for a %zu-byte work buffer", bytes);
    return 0;
}

static void host_work_free(ddl_ctx *ctx, void *p)
{
    (void)ctx;
    kern_buf_free(p);
}

static void *host_bounce(ddl_ctx *ctx, size_t *bytes)
{
    (void)ctx;
    *bytes = 0;
    return NULL; /* MPI takes host buffers as they are */
}

const coll_loc coll_loc_host = {
    .name = "host", .device = 0, .lag = 0, .mpi_moves = 1, .mpi_user_ops = 1,
    .default_depth = 2, .default_segment = COLL_DEFAULT_SEGMENT, .default_net_segment = COLL_NET_SEGMENT,
    .alloc = host_alloc, .release = host_release, .enter = host_enter, .stage = host_stage,
    .sendable = host_sendable, .land = host_land, .consume = host_consume, .finish = host_finish,
    .copy = host_copy, .bounce = host_bounce, .work_alloc = host_work_alloc, .work_free = host_work_free,
};

int coll_loc_choose(ddl_ctx *ctx, const ddl_config *cfg)
{
    ctx->loc = &coll_loc_host;
    return cfg->device ? coll_dev_choose(ctx) : 0;
}

int coll_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    int rc;
    if (dst == src || bytes == 0) return 0;
    if ((rc = ctx->loc->enter(ctx))) return rc;
    return ctx->loc->copy(ctx, dst, src, bytes);
}
