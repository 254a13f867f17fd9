/* exchange.c — the two point-to-point steps every algorithm is made of, on ONE segment pipeline.
 *
 * coll_exchange_reduce: send scount elements to dest while receiving rcount elements from source,
 * both cut into segments of ctx->segment_bytes; each arriving segment is reduced at once
 * (dst = a op incoming), so receiving, reducing and sending overlap, ctx->depth segments in flight
 * each way (landing slot k % depth):
 *
 *     recv seg0 ─► consume seg0 ─► recv seg2 ...      depth = 2 (host); slots made at setup
 *     recv seg1 ─────────────────► consume seg1 ...   sends: up to depth in flight
 *
 * coll_exchange: the plain send-receive of the allgather phases: the same pipeline cut at
 * ctx->plain_bytes (below INT_MAX bytes), each piece landing in place or copied there. Messages to
 * or from a peer on another node are cut at ctx->net_bytes instead, in both steps (nodes.c says why),
 * so a step's sends and receives may have different sizes.
 *
 * What happens to a segment — where it lands, how a send becomes MPI-visible, how it is reduced or
 * copied — is the context's buffer location (ctx->loc: location.c for host buffers, device.c for
 * CUDA ones); this file holds only the order of operations, so host and device buffers take the
 * same path. A location with asynchronous copies (lag 1) rewrites slot w one segment late, so the
 * copy issued for segment k overlaps the transfers of the next ones:
 *
 *     send j:  stage(j) issued when slot j % depth is free ... sendable(j) → MPI_Isend
 *     recv j:  land(j) (slot free) → MPI_Irecv ... wait → consume(j) issued
 *     after iteration k: receives and sends posted up to k+depth-lag, sends staged up to k+depth
 *
 * Both sides cut with the same sizes (agreed in ddl_ctx_create), so message k on one side matches
 * message k on the other; MPI's ordering keeps a step's segments in order. No deadlock: iteration k
 * waits for receive k and send k, which the peers posted by their iteration k - depth + lag < k.
 * dest or source may be MPI_PROC_NULL (a send-only or receive-only step).
 *
 * coll_waitall: MPI_Waitall, or, with ctx->poll_us > 0, MPI_Testall with a sleep between tests, so a
 * communication thread leaves the core to compute threads when ranks share cores (kern_poll_pause:
 * nanosleep, which under simulation moves the clock by the measured real pause).
 *
 * Under simulation with polling waits, a receive from a peer on the same node is posted one segment
 * ahead, just before the wait that needs it, not ctx->depth ahead (recv_ahead): on one node MPI
 * moves a message by a copy that a rank makes inside an MPI call (Open MPI's shared-memory single
 * copy: the receiver reads the sender's buffer when its progress engine sees the request), so a
 * pre-posted receive moves nothing while its rank sleeps between tests, and a send completes only
 * once the peer, awake, has copied it; SMPI moves posted data on its own clock. Posted there, the
 * simulated transfer starts where the real copy does, and the ranks wait out each other's pauses as
 * the real ones do: posted depth ahead, a ResNet-50 step's allreduce at 2 ranks exposed half of what
 * it exposed for real; one ahead, about as much (measured: docs/BENCHMARKS.md, "Notes moved from code
 * comments"). */
#include "coll.h"
#include "mem.h"

#define TAG_SEG 101
#define TAG_PLAIN 102

typedef struct step {
    MPI_Comm comm;
    int dest, source, tag;
    int reduce;                        /* 1: dst = a op received; 0: dst = received */
    const char *src;                   /* sent: sbytes from src */
    size_t sbytes;
    char *dst;                         /* received: rbytes into dst */
    const char *a;
    size_t rbytes;
    size_t spiece, rpiece;             /* segment bytes sent, received (nodes.c: by the peer's node) */
    size_t ns, nr;                     /* segments each way */
    size_t staged, sent, posted;       /* sends staged, sends posted, receives posted */
    void *landed[COLL_MAX_DEPTH];      /* where each slot's receive lands */
    MPI_Request sreq[COLL_MAX_DEPTH], rreq[COLL_MAX_DEPTH];
} step;

static int post_recvs(ddl_ctx *ctx, step *s, size_t upto)
{
    for (; s->posted < upto && s->posted < s->nr; s->posted++) {
        const size_t j = s->posted;
        const int w = (int)(j % (size_t)ctx->depth);
        int rc = ctx->loc->land(ctx, w, s->reduce, s->dst + j * s->rpiece, &s->landed[w]);
        if (rc) return rc;
        COLL_MPI(MPI_Irecv(s->landed[w], (int)coll_piece_len(s->rbytes, s->rpiece, j), MPI_BYTE, s->source,
                           s->tag, s->comm, &s->rreq[w]));
    }
    return 0;
}

static int stage_sends(ddl_ctx *ctx, step *s, size_t upto)
{
    for (; s->staged < upto && s->staged < s->ns; s->staged++) {
        const size_t j = s->staged;
        int rc = ctx->loc->stage(ctx, (int)(j % (size_t)ctx->depth), s->src + j * s->spiece,
                                 coll_piece_len(s->sbytes, s->spiece, j));
        if (rc) return rc;
    }
    return 0;
}

static int post_sends(ddl_ctx *ctx, step *s, size_t upto)
{
    for (; s->sent < upto && s->sent < s->staged; s->sent++) {
        const size_t j = s->sent;
        const int w = (int)(j % (size_t)ctx->depth);
        const void *from;
        int rc = ctx->loc->sendable(ctx, w, s->src + j * s->spiece, &from);
        if (rc) return rc;
        COLL_MPI(MPI_Isend(from, (int)coll_piece_len(s->sbytes, s->spiece, j), MPI_BYTE, s->dest, s->tag,
                           s->comm, &s->sreq[w]));
    }
    return 0;
}

/* After a failure: no request may write into the slots later. */
static void abandon(step *s)
{
    for (int w = 0; w < COLL_MAX_DEPTH; w++) {
        if (s->rreq[w] != MPI_REQUEST_NULL) {
            MPI_Cancel(&s->rreq[w]);
            MPI_Request_free(&s->rreq[w]);
        }
        if (s->sreq[w] != MPI_REQUEST_NULL) MPI_Request_free(&s->sreq[w]);
    }
}

/* Receives posted ahead: `ahead` after each consumed segment (depth at the start), or one, the next,
 * under simulation with polling waits from a peer on this node (see the top of the file). */
static size_t recv_ahead(const ddl_ctx *ctx, const step *s, size_t ahead)
{
    int on_node = s->source != MPI_PROC_NULL && !coll_remote(ctx, s->comm, s->source);
    return kern_moves_posted() && ctx->poll_us > 0 && on_node ? 1 : ahead;
}

/* Under the simulated `mpi`, a message to another node goes whole, as MPI's own collectives send it:
 * what that costs beyond the eager pieces the simulated links are calibrated with (kern_whole_message,
 * mem.h) is charged before the step, on each side for what it sends. */
static void charge_whole(const ddl_ctx *ctx, const step *s)
{
    const int k = ctx->whole_rpn;
    if (k > 0 && s->comm == ctx->comm && s->dest >= 0 && s->sbytes && s->dest / k != ctx->rank / k)
        kern_whole_message(s->sbytes);
}

static int pipeline(ddl_ctx *ctx, step *s, kern_dtype dt, kern_op op)
{
    const size_t depth = (size_t)ctx->depth, ahead = depth - (size_t)ctx->loc->lag, rahead = recv_ahead(ctx, s, ahead);
    int rc;

    s->ns = s->dest == MPI_PROC_NULL ? 0 : coll_pieces(s->sbytes, s->spiece);
    s->nr = s->source == MPI_PROC_NULL ? 0 : coll_pieces(s->rbytes, s->rpiece);
    s->staged = s->sent = s->posted = 0;
    for (int w = 0; w < COLL_MAX_DEPTH; w++) s->sreq[w] = s->rreq[w] = MPI_REQUEST_NULL;
    charge_whole(ctx, s);
    if ((rc = ctx->loc->enter(ctx)) || (rc = post_recvs(ctx, s, rahead < ahead ? rahead : depth)) ||
        (rc = stage_sends(ctx, s, depth)) || (rc = post_sends(ctx, s, ahead)))
        goto out;
    for (size_t k = 0; k < s->nr || k < s->ns; k++) {
        const int w = (int)(k % depth);
        if (k < s->nr) {
            coll_seg seg = { w, s->dst + k * s->rpiece, s->reduce ? s->a + k * s->rpiece : NULL, s->landed[w],
                             coll_piece_len(s->rbytes, s->rpiece, k) };
            if ((rc = coll_waitall(ctx, 1, &s->rreq[w])) || (rc = ctx->loc->consume(ctx, &seg, dt, op)) ||
                (rc = post_recvs(ctx, s, k + 1 + rahead)))
                goto out;
        }
        if (k < s->ns && ((rc = coll_waitall(ctx, 1, &s->sreq[w])) || (rc = stage_sends(ctx, s, k + 1 + depth)) ||
                          (rc = post_sends(ctx, s, k + 1 + ahead))))
            goto out;
    }
    rc = ctx->loc->finish(ctx);
out:
    if (rc) abandon(s);
    return rc;
}

/* The message size to or from peer: ctx->net_bytes when it is on another node (nodes.c), else local.
 * The two ends of a message see the same pair of nodes, so they cut it alike. */
static size_t piece(const ddl_ctx *ctx, MPI_Comm comm, int peer, size_t local)
{
    return ctx->net_bytes && coll_remote(ctx, comm, peer) ? ctx->net_bytes : local;
}

/* A reducing step's piece for a message of `bytes`: a message of at most one segment is still cut in
 * two once it holds at least two ctx->split_bytes (the location's default segment: so only segments
 * larger than it, sized from the links or configured, do this), so that reducing its first half
 * overlaps the second half's transfer. Both ends of a message see the same bytes and sizes, so they
 * cut it alike. */
static size_t reduce_piece(const ddl_ctx *ctx, size_t p, size_t bytes)
{
    if (!ctx->split_bytes || bytes > p || bytes < 2 * ctx->split_bytes) return p;
    return ((bytes + 1) / 2 + 7) & ~(size_t)7;
}

int coll_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                         int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op)
{
    const size_t es = kern_dtype_size(dt);
    step s = { .comm = comm, .dest = dest, .source = source, .tag = TAG_SEG, .reduce = 1,
               .src = sptr, .sbytes = scount * es, .dst = dst, .a = a, .rbytes = rcount * es,
               .spiece = reduce_piece(ctx, piece(ctx, comm, dest, ctx->segment_bytes), scount * es),
               .rpiece = reduce_piece(ctx, piece(ctx, comm, source, ctx->segment_bytes), rcount * es) };
    return pipeline(ctx, &s, dt, op);
}

int coll_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source, void *rptr,
                  size_t rbytes)
{
    step s = { .comm = comm, .dest = dest, .source = source, .tag = TAG_PLAIN, .reduce = 0,
               .src = sptr, .sbytes = sbytes, .dst = rptr, .a = NULL, .rbytes = rbytes,
               .spiece = piece(ctx, comm, dest, ctx->plain_bytes),
               .rpiece = piece(ctx, comm, source, ctx->plain_bytes) };
    return pipeline(ctx, &s, KERN_F32, KERN_SUM); /* type and op unused: nothing is reduced */
}

#define WAIT_MAX 4 /* the pipeline waits for one request at a time */

int coll_waitall(const ddl_ctx *ctx, int n, MPI_Request *reqs)
{
    /* real statuses, not MPI_STATUSES_IGNORE: GCC 12 misreads MPICH's (MPI_Status *)1 as an overflow */
    MPI_Status st[WAIT_MAX];
    if (n < 0 || n > WAIT_MAX) return coll_fail(DDL_ERR_ARG, "coll_waitall: %d requests, at most %d", n, WAIT_MAX);
    if (ctx->poll_us <= 0) {
        COLL_MPI(MPI_Waitall(n, reqs, st));
        return 0;
    }
    for (;;) {
        int done = 0;
        COLL_MPI(MPI_Testall(n, reqs, &done, st));
        if (done) return 0;
        kern_poll_pause(ctx->poll_us); /* nanosleep; simulated: the real pause (mem.h) */
    }
}
