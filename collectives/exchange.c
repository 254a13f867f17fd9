/* exchange.c — the two point-to-point steps every algorithm is made of.
 *
 * coll_exchange_reduce: send scount elements to dest while receiving rcount elements from source,
 * both cut into segments of ctx->segment_bytes; each arriving segment is reduced at once
 * (dst = a op incoming), so receiving, reducing and sending overlap:
 *
 *     recv seg0 ─► reduce seg0 ─► recv seg2 ...     scratch: COLL_WINDOW segments, made at setup
 *     recv seg1 ─────────────────► reduce seg1 ...  sends: up to COLL_WINDOW in flight
 *
 * Both sides cut with the same segment size (agreed in ddl_ctx_create), so message k on one side
 * matches message k on the other; MPI's ordering keeps the segments of one step in order.
 * dest or source may be MPI_PROC_NULL (a send-only or receive-only step).
 *
 * coll_exchange: the plain send-receive of the allgather phases, chunked below INT_MAX bytes.
 *
 * coll_waitall: MPI_Waitall, or, with ctx->poll_us > 0, MPI_Testall with a sleep between tests, so a
 * communication thread leaves the core to compute threads when ranks share cores. */
#include "coll.h"

#include <limits.h>
#include <time.h>

#define TAG_SEG 101
#define TAG_PLAIN 102
#define CHUNK ((size_t)1 << 30)

static size_t seg_len(size_t total, size_t seg, size_t k)
{
    size_t off = k * seg;
    return total - off < seg ? total - off : seg;
}

int coll_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                         int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt), seg = ctx->segment_bytes / es;
    const size_t ns = dest == MPI_PROC_NULL ? 0 : (scount + seg - 1) / seg;
    const size_t nr = source == MPI_PROC_NULL ? 0 : (rcount + seg - 1) / seg;
    const char *s = sptr, *pa = a;
    char *d = dst, *tmp = ctx->scratch;
    MPI_Request rreq[COLL_WINDOW], sreq[COLL_WINDOW];
    int rc;

    if (ctx->dev) /* device buffers: device.c */
        return coll_dev_exchange_reduce(ctx, comm, dest, sptr, scount, source, dst, a, rcount, dt, op);
    for (int w = 0; w < COLL_WINDOW; w++) rreq[w] = sreq[w] = MPI_REQUEST_NULL;
    for (size_t k = 0; k < nr && k < COLL_WINDOW; k++)
        COLL_MPI(MPI_Irecv(tmp + k * ctx->segment_bytes, (int)(seg_len(rcount, seg, k) * es), MPI_BYTE,
                           source, TAG_SEG, comm, &rreq[k]));
    for (size_t k = 0; k < ns && k < COLL_WINDOW; k++)
        COLL_MPI(MPI_Isend(s + k * seg * es, (int)(seg_len(scount, seg, k) * es), MPI_BYTE, dest,
                           TAG_SEG, comm, &sreq[k]));
    for (size_t k = 0; k < nr || k < ns; k++) {
        size_t w = k % COLL_WINDOW;
        if (k < nr) {
            char *slot = tmp + w * ctx->segment_bytes;
            size_t len = seg_len(rcount, seg, k), off = k * seg * es;
            if ((rc = coll_waitall(ctx, 1, &rreq[w]))) return rc;
            kern_reduce(dt, op, d + off, pa + off, slot, len);
            if (k + COLL_WINDOW < nr)
                COLL_MPI(MPI_Irecv(slot, (int)(seg_len(rcount, seg, k + COLL_WINDOW) * es), MPI_BYTE,
                                   source, TAG_SEG, comm, &rreq[w]));
        }
        if (k < ns) {
            if ((rc = coll_waitall(ctx, 1, &sreq[w]))) return rc;
            if (k + COLL_WINDOW < ns)
                COLL_MPI(MPI_Isend(s + (k + COLL_WINDOW) * seg * es,
                                   (int)(seg_len(scount, seg, k + COLL_WINDOW) * es), MPI_BYTE, dest,
                                   TAG_SEG, comm, &sreq[w]));
        }
    }
    return 0;
}

static size_t nchunks(size_t bytes) { return bytes == 0 ? 1 : (bytes + CHUNK - 1) / CHUNK; }

int coll_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source, void *rptr,
                  size_t rbytes)
{
    const char *s = sptr;
    char *r = rptr;
    size_t ns = nchunks(sbytes), nr = nchunks(rbytes); /* the peer cuts the same sizes the same way */
    if (ctx->dev) return coll_dev_exchange(ctx, comm, dest, sptr, sbytes, source, rptr, rbytes); /* device.c */
    for (size_t i = 0; i < ns || i < nr; i++) {
        size_t so = i * CHUNK, ro = i * CHUNK;
        size_t sl = i < ns ? seg_len(sbytes, CHUNK, i) : 0, rl = i < nr ? seg_len(rbytes, CHUNK, i) : 0;
        MPI_Request req[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
        int rc;
        COLL_MPI(MPI_Irecv(r ? r + ro : r, (int)rl, MPI_BYTE, i < nr ? source : MPI_PROC_NULL, TAG_PLAIN, comm,
                           &req[0]));
        COLL_MPI(MPI_Isend(s ? s + so : s, (int)sl, MPI_BYTE, i < ns ? dest : MPI_PROC_NULL, TAG_PLAIN, comm,
                           &req[1]));
        if ((rc = coll_waitall(ctx, 2, req))) return rc;
    }
    return 0;
}

#define WAIT_MAX 4 /* callers wait for one send and one receive at a time */

int coll_waitall(const ddl_ctx *ctx, int n, MPI_Request *reqs)
{
    /* real statuses, not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's (MPI_Status *)1 as an overflow */
    MPI_Status st[WAIT_MAX];
    if (n < 0 || n > WAIT_MAX) return coll_fail(DDL_ERR_ARG, "coll_waitall: %d requests, at most %d", n, WAIT_MAX);
    if (ctx->poll_us <= 0) {
        COLL_MPI(MPI_Waitall(n, reqs, st));
        return 0;
    }
    struct timespec pause = { 0, 1000L * ctx->poll_us };
    for (;;) {
        int done = 0;
        COLL_MPI(MPI_Testall(n, reqs, &done, st));
        if (done) return 0;
        nanosleep(&pause, NULL);
    }
}
