/* device.c — the device locations (ddl_config.device = 1): CUDA buffers behind kernels/devmem.h,
 * one of two chosen per context (the policy exchange.c's pipeline and the q = 1 copy call):
 *   cuda-aware  the MPI library takes device pointers (Open MPI: MPIX_Query_cuda_support() from
 *               mpi-ext.h; MPICH >= 4: MPIX_GPU_query_support): a reducing step's segments land in
 *               device scratch and the CUDA kernel reduces them; plain steps move the buffers as they are;
 *   staged      otherwise (Debian's Open MPI): MPI sees only pinned host slots:
 *
 *     send j:  D2H src → sstage[w]  (sstream; event sent[w])  ·· event sync → MPI_Isend(sstage[w])
 *     recv j:  MPI_Irecv → rstage[w] → H2D → dscratch[w] (plain: into place) → reduce kernel → dst
 *              (stream; event freed[w] after the H2D: rstage[w] may take segment j + D)
 *     w = j % D, D = ctx->depth (4 by default, at least 2): up to D-1 segments on the wire each way
 *     while the copies of another run on the copy engines and the kernel on the SMs.
 *
 * Ordering (two non-blocking streams, per-slot events; lag 1 in exchange.c's pipeline):
 *   - sstage[w] is refilled (D2H of j + D) only after MPI completed send j (the pipeline waits), and
 *     MPI_Isend(j) starts only after its D2H completed (sendable syncs sent[w]);
 *   - a landing slot (rstage[w] staged, dscratch[w] cuda-aware) is given to MPI_Irecv only after the
 *     H2D copy or kernel that read it last completed (land syncs freed[w]); the pipeline asks one
 *     segment late, so that copy was issued an iteration earlier and the wait is usually nil;
 *   - dscratch[w] is rewritten (staged) by an H2D issued on the stream after the kernel that read it;
 *   - finish synchronises the stream: a step's results are complete before the next step sends them
 *     (D2H on sstream, or MPI on device pointers) and before ddl_allreduce returns.
 * The caller's buffers must be complete (their stream synchronised) before ddl_allreduce.
 * DDL_CUDA_AWARE=0|1 overrides the detection (0 forces staging, e.g. to compare the paths).
 * Memory, all made at ddl_ctx_create: D segments of device scratch, D pinned for sends (also the
 * mpi algorithm's bounce buffer, so cuda-aware contexts have them too) and, staged, D for receives;
 * an out-of-place reduce-scatter adds its device work buffer (rsag.c) on first use.
 * The engine thread, not the creating one, may run the allreduce: enter selects the context's device
 * first (cudaSetDevice is per thread). */
#include "coll.h"
#include "devmem.h"

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#include <stdlib.h>
#include <string.h>

struct coll_dev {
    int id;                               /* CUDA device current when the context was made */
    kern_stream *stream;                  /* H2D copies, reductions, whole-buffer copies */
    kern_stream *sstream;                 /* D2H copies of send segments */
    kern_event *sent[COLL_MAX_DEPTH];     /* on sstream, after the D2H into sstage[w] */
    kern_event *freed[COLL_MAX_DEPTH];    /* on stream, after the last read of landing slot w */
    char *dscratch;                       /* device: depth segments */
    char *sstage, *rstage;                /* pinned host: depth segments each (rstage: staged only) */
};

static int dev_fail(const char *what) { return coll_fail(DDL_ERR_DEVICE, "%s: %s", what, kern_dev_last_error()); }

static int staged(const ddl_ctx *ctx) { return ctx->loc == &coll_loc_staged; }

static char *slot_of(const ddl_ctx *ctx, char *base, int w) { return base + (size_t)w * ctx->segment_bytes; }

static int mpi_cuda_aware(int *aware)
{
    const char *env = getenv("DDL_CUDA_AWARE");
    if (env && *env) {
        if (strcmp(env, "0") && strcmp(env, "1"))
            return coll_fail(DDL_ERR_ARG, "DDL_CUDA_AWARE: expected 0 or 1, got \"%.32s\"", env);
        *aware = env[0] == '1';
        return 0;
    }
    *aware = 0;
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    *aware = MPIX_Query_cuda_support() == 1;
#elif defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000 && defined(MPIX_GPU_SUPPORT_CUDA)
    int yes = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes) == MPI_SUCCESS) *aware = yes != 0;
#endif
    return 0;
}

/* Local: is there a device, which path; the state is freed by release. */
int coll_dev_choose(ddl_ctx *ctx)
{
    int n = 0, aware = 0, rc;
    if (kern_dev_count(&n) || n == 0) return dev_fail("ddl_config.device = 1");
    if ((rc = mpi_cuda_aware(&aware))) return rc;
    if (!(ctx->dev = calloc(1, sizeof *ctx->dev))) return coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: out of memory");
    ctx->loc = aware ? &coll_loc_aware : &coll_loc_staged;
    if (kern_dev_current(&ctx->dev->id)) return dev_fail("cudaGetDevice");
    return 0;
}

static int dev_alloc(ddl_ctx *ctx)
{
    struct coll_dev *d = ctx->dev;
    const size_t bytes = (size_t)ctx->depth * ctx->segment_bytes;
    if (kern_dev_select(d->id)) return dev_fail("cudaSetDevice");
    if (kern_stream_create(&d->stream) || kern_stream_create(&d->sstream)) return dev_fail("stream");
    for (int w = 0; w < ctx->depth; w++)
        if (kern_event_create(&d->sent[w]) || kern_event_create(&d->freed[w])) return dev_fail("event");
    if (kern_dev_alloc((void **)&d->dscratch, bytes)) return dev_fail("device scratch");
    if (kern_dev_host_alloc((void **)&d->sstage, bytes) ||
        (staged(ctx) && kern_dev_host_alloc((void **)&d->rstage, bytes)))
        return dev_fail("pinned staging");
    return 0;
}

static void dev_release(ddl_ctx *ctx)
{
    struct coll_dev *d = ctx->dev;
    if (!d) return;
    kern_dev_select(d->id); /* the thread freeing may not be the one that made it */
    if (d->stream) kern_stream_sync(d->stream);
    if (d->sstream) kern_stream_sync(d->sstream);
    kern_dev_free(d->dscratch);
    kern_dev_host_free(d->sstage);
    kern_dev_host_free(d->rstage);
    for (int w = 0; w < COLL_MAX_DEPTH; w++) {
        kern_event_free(d->sent[w]);
        kern_event_free(d->freed[w]);
    }
    kern_stream_free(d->stream);
    kern_stream_free(d->sstream);
    free(d);
    ctx->dev = NULL;
}

static int dev_enter(ddl_ctx *ctx) { return kern_dev_select(ctx->dev->id) ? dev_fail("cudaSetDevice") : 0; }

static int dev_stage(ddl_ctx *ctx, int slot, const void *src, size_t bytes)
{
    struct coll_dev *d = ctx->dev;
    if (!staged(ctx)) return 0; /* cuda-aware: MPI sends the device buffer */
    if (kern_dev_copy(slot_of(ctx, d->sstage, slot), src, bytes, d->sstream) ||
        kern_event_record(d->sent[slot], d->sstream))
        return dev_fail("staging a send segment");
    return 0;
}

static int dev_sendable(ddl_ctx *ctx, int slot, const void *src, const void **mpi)
{
    struct coll_dev *d = ctx->dev;
    *mpi = src;
    if (!staged(ctx)) return 0;
    if (kern_event_sync(d->sent[slot])) return dev_fail("staging a send segment");
    *mpi = slot_of(ctx, d->sstage, slot);
    return 0;
}

static int dev_land(ddl_ctx *ctx, int slot, int reduce, void *dst, void **mpi)
{
    struct coll_dev *d = ctx->dev;
    *mpi = dst;
    if (!staged(ctx) && !reduce) return 0; /* cuda-aware plain step: straight into place */
    if (kern_event_sync(d->freed[slot])) return dev_fail("waiting for a landing slot");
    *mpi = slot_of(ctx, staged(ctx) ? d->rstage : d->dscratch, slot);
    return 0;
}

static int dev_consume(ddl_ctx *ctx, const coll_seg *seg, kern_dtype dt, kern_op op)
{
    struct coll_dev *d = ctx->dev;
    const void *b = seg->landed;
    if (staged(ctx)) { /* pinned → device: into device scratch to be reduced, or into place */
        void *to = seg->a ? slot_of(ctx, d->dscratch, seg->slot) : seg->dst;
        if (kern_dev_copy(to, seg->landed, seg->bytes, d->stream) || kern_event_record(d->freed[seg->slot], d->stream))
            return dev_fail("staging a received segment");
        b = to;
    }
    if (!seg->a) return 0;
    if (kern_reduce_device(dt, op, seg->dst, seg->a, b, seg->bytes / kern_dtype_size(dt), d->stream))
        return dev_fail("reduce kernel");
    if (!staged(ctx) && kern_event_record(d->freed[seg->slot], d->stream)) return dev_fail("reduce kernel");
    return 0;
}

static int dev_finish(ddl_ctx *ctx) { return kern_stream_sync(ctx->dev->stream) ? dev_fail("finishing a step") : 0; }

static int dev_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    if (kern_dev_copy(dst, src, bytes, ctx->dev->stream) || kern_stream_sync(ctx->dev->stream))
        return dev_fail("device copy");
    return 0;
}

static void *dev_bounce(ddl_ctx *ctx, size_t *bytes)
{
    *bytes = (size_t)ctx->depth * ctx->segment_bytes;
    return ctx->dev->sstage;
}

static int dev_work_alloc(ddl_ctx *ctx, void **p, size_t bytes)
{
    if (kern_dev_select(ctx->dev->id)) return dev_fail("cudaSetDevice");
    return kern_dev_alloc(p, bytes) ? dev_fail("device work buffer") : 0;
}

static void dev_work_free(ddl_ctx *ctx, void *p)
{
    kern_dev_select(ctx->dev->id);
    kern_stream_sync(ctx->dev->stream);
    kern_dev_free(p);
}

#define DEVICE_OPS                                                                                  \
    .device = 1, .lag = 1, .default_depth = 4, .default_segment = COLL_DEVICE_SEGMENT,              \
    .alloc = dev_alloc, .release = dev_release, .enter = dev_enter, .stage = dev_stage,             \
    .sendable = dev_sendable, .land = dev_land, .consume = dev_consume, .finish = dev_finish,       \
    .copy = dev_copy, .bounce = dev_bounce, .work_alloc = dev_work_alloc, .work_free = dev_work_free

const coll_loc coll_loc_aware = { .name = "cuda-aware", .mpi_moves = 1, .mpi_user_ops = 0, DEVICE_OPS };
const coll_loc coll_loc_staged = { .name = "staged", .mpi_moves = 0, .mpi_user_ops = 0, DEVICE_OPS };
