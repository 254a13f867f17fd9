/* device.c — allreduce on CUDA device buffers (ddl_config.device = 1), behind kernels/devmem.h.
 *
 * The algorithms are unchanged: exchange.c, the q = 1 copies and the mpi algorithm hand device
 * buffers to the twins here. Two paths, chosen once per context:
 *   cuda-aware  the MPI library takes device pointers (Open MPI: MPIX_Query_cuda_support() from
 *               mpi-ext.h; MPICH >= 4: MPIX_GPU_query_support); segments arrive in a device scratch
 *               and are reduced there by the CUDA kernel (kern_reduce_device);
 *   staged      otherwise (Debian's Open MPI): every segment goes through pinned host buffers:
 *
 *     send:  D2H seg k → pinned sstage[k%2] → MPI_Isend     (sends stream, synchronised per segment)
 *     recv:  MPI_Irecv → pinned rstage[k%2] → H2D dscratch[k%2] → reduce kernel into dst
 *                           (one stream; event ev[k%2] frees rstage[k%2] for segment k+2)
 *
 *   so copies of one segment overlap MPI transfers of the next (COLL_WINDOW = 2 in flight).
 * DDL_CUDA_AWARE=0|1 overrides the detection (0 forces staging, e.g. to compare the paths).
 * Each primitive ends with its reductions complete (stream synchronised), so the next step may send
 * what this one reduced. Memory: COLL_WINDOW segments of device scratch and 2·COLL_WINDOW pinned.
 * The engine thread, not the creating one, may run the allreduce: every entry selects the
 * context's device first (cudaSetDevice is per thread). */
#include "coll.h"
#include "devmem.h"

#if defined(OPEN_MPI) && OPEN_MPI && !defined(DDL_SIM)
#include <mpi-ext.h>
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define TAG_DSEG 103
#define TAG_DPLAIN 104

struct coll_dev {
    int id;                       /* CUDA device current when the context was made */
    int aware;                    /* 1: MPI moves device pointers itself */
    kern_stream *stream;          /* H2D copies and reductions */
    kern_stream *sstream;         /* D2H copies of sends */
    kern_event *ev[COLL_WINDOW];  /* recorded after the H2D copy out of rstage[w] */
    char *dscratch;               /* device: COLL_WINDOW segments */
    char *sstage, *rstage;        /* pinned host: COLL_WINDOW segments each (staged path) */
};

static int dev_fail(const char *what) { return coll_fail(DDL_ERR_DEVICE, "%s: %s", what, kern_dev_last_error()); }

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

int coll_dev_setup(ddl_ctx *ctx)
{
    struct coll_dev *d;
    const size_t bytes = COLL_WINDOW * ctx->segment_bytes;
    int n = 0, rc;
    if (kern_dev_count(&n) || n == 0) return dev_fail("ddl_config.device = 1");
    if (!(d = ctx->dev = calloc(1, sizeof *d))) return coll_fail(DDL_ERR_NOMEM, "ddl_ctx_create: out of memory");
    if ((rc = mpi_cuda_aware(&d->aware))) return rc;
    if (kern_dev_current(&d->id)) return dev_fail("cudaGetDevice");
    if (kern_stream_create(&d->stream) || kern_stream_create(&d->sstream)) return dev_fail("stream");
    for (int w = 0; w < COLL_WINDOW; w++)
        if (kern_event_create(&d->ev[w])) return dev_fail("event");
    if (kern_dev_alloc((void **)&d->dscratch, bytes)) return dev_fail("device scratch");
    if (!d->aware && (kern_dev_host_alloc((void **)&d->sstage, bytes) || kern_dev_host_alloc((void **)&d->rstage, bytes)))
        return dev_fail("pinned staging");
    return 0;
}

void coll_dev_teardown(ddl_ctx *ctx)
{
    struct coll_dev *d = ctx->dev;
    if (!d) return;
    if (d->stream) kern_stream_sync(d->stream);
    if (d->sstream) kern_stream_sync(d->sstream);
    kern_dev_free(d->dscratch);
    kern_dev_host_free(d->sstage);
    kern_dev_host_free(d->rstage);
    for (int w = 0; w < COLL_WINDOW; w++) kern_event_free(d->ev[w]);
    kern_stream_free(d->stream);
    kern_stream_free(d->sstream);
    free(d);
    ctx->dev = NULL;
}

const char *coll_dev_path(const ddl_ctx *ctx)
{
    return !ctx->dev ? "host" : ctx->dev->aware ? "cuda-aware" : "staged";
}

static size_t seg_len(size_t total, size_t seg, size_t k)
{
    size_t off = k * seg;
    return total - off < seg ? total - off : seg;
}

/* Segment k of the send side: staged, copy it to sstage[k % W] first (that slot's previous send
 * has completed: the caller waited for it). */
static int post_send(ddl_ctx *ctx, MPI_Comm comm, int dest, const char *s, size_t bytes, size_t k, MPI_Request *req)
{
    struct coll_dev *d = ctx->dev;
    const char *from = s;
    if (!d->aware && bytes) {
        from = d->sstage + (k % COLL_WINDOW) * ctx->segment_bytes;
        if (kern_dev_copy((void *)from, s, bytes, d->sstream) || kern_stream_sync(d->sstream))
            return dev_fail("staging a send segment");
    }
    COLL_MPI(MPI_Isend(from, (int)bytes, MPI_BYTE, dest, TAG_DSEG, comm, req));
    return 0;
}

int coll_dev_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                             int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op)
{
    struct coll_dev *d = ctx->dev;
    const size_t es = kern_dtype_size(dt), segb = ctx->segment_bytes, seg = segb / es;
    const size_t ns = dest == MPI_PROC_NULL ? 0 : (scount + seg - 1) / seg;
    const size_t nr = source == MPI_PROC_NULL ? 0 : (rcount + seg - 1) / seg;
    const char *s = sptr, *pa = a;
    char *out = dst, *land = d->aware ? d->dscratch : d->rstage; /* where MPI writes a segment */
    MPI_Request rreq[COLL_WINDOW], sreq[COLL_WINDOW];
    int rc;

    if (kern_dev_select(d->id)) return dev_fail("cudaSetDevice");
    for (int w = 0; w < COLL_WINDOW; w++) rreq[w] = sreq[w] = MPI_REQUEST_NULL;
    for (size_t k = 0; k < nr && k < COLL_WINDOW; k++)
        COLL_MPI(MPI_Irecv(land + k * segb, (int)(seg_len(rcount, seg, k) * es), MPI_BYTE, source, TAG_DSEG, comm,
                           &rreq[k]));
    for (size_t k = 0; k < ns && k < COLL_WINDOW; k++)
        if ((rc = post_send(ctx, comm, dest, s + k * seg * es, seg_len(scount, seg, k) * es, k, &sreq[k]))) return rc;
    for (size_t k = 0; k < nr || k < ns; k++) {
        size_t w = k % COLL_WINDOW;
        if (k < nr) {
            char *slot = d->dscratch + w * segb;
            size_t len = seg_len(rcount, seg, k), off = k * seg * es;
            if ((rc = coll_waitall(ctx, 1, &rreq[w]))) return rc;
            if (!d->aware && (kern_dev_copy(slot, d->rstage + w * segb, len * es, d->stream) ||
                              kern_event_record(d->ev[w], d->stream)))
                return dev_fail("staging a received segment");
            if (kern_reduce_device(dt, op, out + off, pa + off, slot, len, d->stream)) return dev_fail("reduce kernel");
            if (k + COLL_WINDOW < nr) { /* the slot MPI writes next must have been read */
                if (d->aware ? kern_stream_sync(d->stream) : kern_event_sync(d->ev[w]))
                    return dev_fail("waiting for a segment slot");
                COLL_MPI(MPI_Irecv(land + w * segb, (int)(seg_len(rcount, seg, k + COLL_WINDOW) * es), MPI_BYTE,
                                   source, TAG_DSEG, comm, &rreq[w]));
            }
        }
        if (k < ns) {
            if ((rc = coll_waitall(ctx, 1, &sreq[w]))) return rc;
            if (k + COLL_WINDOW < ns &&
                (rc = post_send(ctx, comm, dest, s + (k + COLL_WINDOW) * seg * es,
                                seg_len(scount, seg, k + COLL_WINDOW) * es, k + COLL_WINDOW, &sreq[w])))
                return rc;
        }
    }
    if (kern_stream_sync(d->stream)) return dev_fail("reductions");
    return 0;
}

/* The allgather step: segment i of each side, one pair in flight; staged, the D2H copy of send
 * segment i+1 and the H2D copy of received segment i run while segment i+1 is on the wire. */
int coll_dev_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source,
                      void *rptr, size_t rbytes)
{
    struct coll_dev *d = ctx->dev;
    const size_t segb = ctx->segment_bytes;
    const size_t ns = dest == MPI_PROC_NULL ? 0 : (sbytes + segb - 1) / segb;
    const size_t nr = source == MPI_PROC_NULL ? 0 : (rbytes + segb - 1) / segb;
    const char *s = sptr;
    char *r = rptr;
    int rc;

    if (kern_dev_select(d->id)) return dev_fail("cudaSetDevice");
    if (!d->aware && ns && kern_dev_copy(d->sstage, s, seg_len(sbytes, segb, 0), d->sstream))
        return dev_fail("staging a send segment");
    for (size_t i = 0; i < ns || i < nr; i++) {
        size_t w = i % COLL_WINDOW, off = i * segb;
        size_t sl = i < ns ? seg_len(sbytes, segb, i) : 0, rl = i < nr ? seg_len(rbytes, segb, i) : 0;
        char *rslot = d->aware ? r + off : d->rstage + w * segb;
        const char *sslot = d->aware ? s + off : d->sstage + w * segb;
        MPI_Request req[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
        if (!d->aware && i >= COLL_WINDOW && rl && kern_event_sync(d->ev[w])) return dev_fail("staging slot");
        COLL_MPI(MPI_Irecv(rl ? rslot : NULL, (int)rl, MPI_BYTE, i < nr ? source : MPI_PROC_NULL, TAG_DPLAIN, comm,
                           &req[0]));
        if (!d->aware && sl && kern_stream_sync(d->sstream)) return dev_fail("staging a send segment");
        COLL_MPI(MPI_Isend(sl ? sslot : NULL, (int)sl, MPI_BYTE, i < ns ? dest : MPI_PROC_NULL, TAG_DPLAIN, comm,
                           &req[1]));
        if (!d->aware && i + 1 < ns &&
            kern_dev_copy(d->sstage + ((i + 1) % COLL_WINDOW) * segb, s + off + segb, seg_len(sbytes, segb, i + 1),
                          d->sstream))
            return dev_fail("staging a send segment");
        if ((rc = coll_waitall(ctx, 2, req))) return rc;
        if (!d->aware && rl && (kern_dev_copy(r + off, rslot, rl, d->stream) || kern_event_record(d->ev[w], d->stream)))
            return dev_fail("staging a received segment");
    }
    if (kern_stream_sync(d->stream)) return dev_fail("received segments");
    return 0;
}

int coll_dev_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    if (kern_dev_select(ctx->dev->id) || kern_dev_copy(dst, src, bytes, ctx->dev->stream) ||
        kern_stream_sync(ctx->dev->stream))
        return dev_fail("device copy");
    return 0;
}

/* MPI_Allreduce on device buffers: CUDA-aware MPI takes them directly for the standard types; the
 * rest (staged path, or the user-defined float16/bfloat16 ops, which reduce on the host) goes in
 * chunks of the pinned staging: D2H, MPI_Allreduce in place on the host, H2D. */
int coll_dev_allreduce_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                           MPI_Datatype type, MPI_Op mop)
{
    struct coll_dev *d = ctx->dev;
    const size_t es = kern_dtype_size(dt);
    const int in_place = sbuf == rbuf;

    if (kern_dev_select(d->id)) return dev_fail("cudaSetDevice");
    if (d->aware && dt != KERN_F16 && dt != KERN_BF16) {
        for (size_t done = 0; done < count;) {
            size_t n = count - done < INT_MAX ? count - done : INT_MAX;
            COLL_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : (const char *)sbuf + done * es, (char *)rbuf + done * es,
                                   (int)n, type, mop, ctx->comm));
            done += n;
        }
        return 0;
    }
    if (!d->sstage && kern_dev_host_alloc((void **)&d->sstage, COLL_WINDOW * ctx->segment_bytes))
        return dev_fail("pinned staging"); /* a CUDA-aware context reducing half types: made once */
    const size_t chunk = COLL_WINDOW * ctx->segment_bytes / es;
    for (size_t done = 0; done < count; done += chunk) {
        size_t n = count - done < chunk ? count - done : chunk;
        if (kern_dev_copy(d->sstage, (const char *)sbuf + done * es, n * es, d->stream) || kern_stream_sync(d->stream))
            return dev_fail("staging");
        COLL_MPI(MPI_Allreduce(MPI_IN_PLACE, d->sstage, (int)n, type, mop, ctx->comm));
        if (kern_dev_copy((char *)rbuf + done * es, d->sstage, n * es, d->stream) || kern_stream_sync(d->stream))
            return dev_fail("staging");
    }
    return 0;
}
