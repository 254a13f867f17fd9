/* allreduce_nccl_ring.c — NCCL's ring: C channels, each a ring over all p ranks that leaves and
 * enters every node on its own rail, the buffer split over the channels, all channels in flight at once.
 *
 * NCCL (src/graph/search.cc, "Search Patterns") builds one ring per channel across nodes as
 * NET n -> GPU a -> .. -> GPU x -> NET n, and spreads its channels over the NICs, so a node's rails all
 * carry traffic where a flat ring (the `ring` row: one channel) crosses each node boundary on one GPU's
 * rail. Here a message leaves a node by its sender's rail and enters by its receiver's (no PXN-style
 * forwarding: cost.c and the simulated platform route it so), so channel c keeps its hop between two
 * nodes on one rail by alternating its direction node by node (channels.c's coll_channel_order, g
 * ranks a node, a = c mod g):
 *
 *   even node:  a, a+1, .., a-1   (enters at a, leaves at a-1)     g = 4, 2 nodes, channel 1:
 *   odd node:   a-1, a-2, .., a   (enters at a-1, leaves at a)      1 2 3 0 | 4 7 6 5 | (back to 1)
 *
 * so node k's exit and node k+1's entry share local index (rail); channels c < g leave and enter each
 * node through distinct ranks. One node: the forward rotation alone. An odd node count > 1: the hop
 * back to node 0 changes rail (a-1 to a). C > g repeats rails (c mod g).
 *
 * Each channel runs the ring's reduce-scatter and allgather (allreduce_ring.c) on its part: n elements
 * cut into C balanced parts, each cut into p balanced blocks by ring position. Every step of every
 * channel is a segmented send-receive; one progress loop (MPI_Waitany over every channel's requests)
 * consumes whatever arrives, so channels never wait for one another: a channel moves to its next step
 * once its own segments are all in, ctx->depth in flight each way per channel (tag 300 + c).
 *
 * Cost: nccl_ring_cost.c (coll_nccl_ring_cost, all channels' steps at once on cost.c's flows).
 *
 * Channels: DDL_CHANNELS (1..p), else the machine's NICs (ddl_config.machine, nics > 1), else the
 * ranks per node (each local rank's rail once), else 1; every rank must agree. Memory: C·depth segments
 * of scratch, 2·C·depth requests, C·p ints of ring orders, C step states, all made at setup (a call
 * allocates nothing). Device buffers run the same channels and blocks one after another through the
 * location's pipeline (exchange.c): it has depth landing slots, not C·depth. Reduce-scatter and
 * allgather (rsag.c's conventions): the same loop on the caller's blocks, channel c carrying piece c
 * of every rank's block, position v's ring block being rank order[v]'s, so each rank ends with its
 * own block: (p-1) steps each, half the allreduce. */
#include "coll.h"
#include "mem.h"
#include "partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR_TAG 300

typedef struct nr_state {
    int channels;
    int *order;          /* channels x p: the rank at each ring position */
    char *scratch;       /* host: channels x depth landing slots of segment_bytes */
    MPI_Request *req;    /* channels x 2 x depth: receives then sends of each channel */
    struct nr_chan *chans; /* channels: each one's step state, reset by every call */
} nr_state;

/* One call's vector and how its ring blocks lie in it. */
typedef struct nr_job {
    const char *in;      /* the input: read by the first reduce-scatter step and as each reduction's operand */
    char *out;           /* results (allgather: in place) */
    size_t n;            /* allreduce: elements; reduce-scatter, allgather: elements per rank (the caller's block) */
    int caller;          /* 1: ring block v is piece c of rank order[v]'s block of n */
    kern_dtype dt;
    kern_op op;
} nr_job;

/* A channel's current step: what it sends and receives, and the pipeline's counters. */
typedef struct nr_chan {
    int c, v, left, right, step, end;
    int reduce;
    const char *src, *a;
    char *dst;
    size_t sbytes, rbytes, spiece, rpiece, ns, nr, sent, posted, got, acked;
    char rdone[COLL_MAX_DEPTH], sdone[COLL_MAX_DEPTH]; /* slot's request completed, not yet handled */
} nr_chan;

/* Elements: offset and length of ring block i of channel c. */
static void blk(const ddl_ctx *ctx, const nr_state *s, const nr_job *j, int c, int i, size_t *off, size_t *len)
{
    const int p = ctx->size, C = s->channels;
    if (j->caller) {
        *off = (size_t)s->order[c * p + i] * j->n + coll_block_off(j->n, C, c);
        *len = coll_block_len(j->n, C, c);
        return;
    }
    size_t part = coll_block_len(j->n, C, c);
    *off = coll_block_off(j->n, C, c) + coll_block_off(part, p, i);
    *len = coll_block_len(part, p, i);
}

/* exchange.c's message sizes: to or from another node ctx->net_bytes, and a reducing message of at most
 * one segment but at least two default segments cut in two (both ends cut alike). */
static size_t nr_piece(const ddl_ctx *ctx, int peer, size_t local, int reduce, size_t bytes)
{
    size_t p = ctx->net_bytes && coll_remote(ctx, ctx->comm, peer) ? ctx->net_bytes : local;
    if (!reduce || !ctx->split_bytes || bytes > p || bytes < 2 * ctx->split_bytes) return p;
    return ((bytes + 1) / 2 + 7) & ~(size_t)7;
}

/* Fill ch's step ch->step (the ring's: reduce-scatter steps 0..p-2, allgather p-1..2p-3). */
static void nr_step(const ddl_ctx *ctx, const nr_state *s, const nr_job *j, nr_chan *ch)
{
    const int p = ctx->size, rs = ch->step < p - 1, t = rs ? ch->step : ch->step - (p - 1);
    const int sb = coll_mod(ch->v - t - rs, p), rb = coll_mod(ch->v - t - 1 - rs, p);
    const size_t es = kern_dtype_size(j->dt);
    size_t soff, slen, roff, rlen;
    blk(ctx, s, j, ch->c, sb, &soff, &slen);
    blk(ctx, s, j, ch->c, rb, &roff, &rlen);
    ch->reduce = rs;
    ch->src = (rs && t == 0 ? j->in : j->out) + soff * es;
    ch->dst = j->out + roff * es;
    ch->a = j->in + roff * es;
    ch->sbytes = slen * es, ch->rbytes = rlen * es;
    ch->spiece = nr_piece(ctx, ch->right, rs ? ctx->segment_bytes : ctx->plain_bytes, rs, ch->sbytes);
    ch->rpiece = nr_piece(ctx, ch->left, rs ? ctx->segment_bytes : ctx->plain_bytes, rs, ch->rbytes);
    ch->ns = coll_pieces(ch->sbytes, ch->spiece), ch->nr = coll_pieces(ch->rbytes, ch->rpiece);
    ch->sent = ch->posted = ch->got = ch->acked = 0;
}

static int post_recv(ddl_ctx *ctx, nr_state *s, nr_chan *ch)
{
    const int d = ctx->depth, w = (int)(ch->posted % (size_t)d);
    const size_t k = ch->posted++;
    char *land = ch->reduce ? s->scratch + ((size_t)ch->c * d + w) * ctx->segment_bytes : ch->dst + k * ch->rpiece;
    kern_posted(); /* simulated: the per-call overhead, as the host location charges it */
    COLL_MPI(MPI_Irecv(land, (int)coll_piece_len(ch->rbytes, ch->rpiece, k), MPI_BYTE, ch->left, NR_TAG + ch->c,
                       ctx->comm, &s->req[(size_t)ch->c * 2 * d + w]));
    return 0;
}

static int post_send(ddl_ctx *ctx, nr_state *s, nr_chan *ch)
{
    const int d = ctx->depth, w = (int)(ch->sent % (size_t)d);
    const size_t k = ch->sent++;
    kern_posted();
    COLL_MPI(MPI_Isend(ch->src + k * ch->spiece, (int)coll_piece_len(ch->sbytes, ch->spiece, k), MPI_BYTE, ch->right,
                       NR_TAG + ch->c, ctx->comm, &s->req[((size_t)ch->c * 2 + 1) * d + w]));
    return 0;
}

/* Start ch's steps until one has messages (or the channel is done): its first depth each way posted. */
static int nr_start(ddl_ctx *ctx, nr_state *s, const nr_job *j, nr_chan *ch)
{
    int rc = 0;
    for (; ch->step < ch->end; ch->step++) {
        nr_step(ctx, s, j, ch);
        if (ch->ns || ch->nr) break;
    }
    const size_t d = (size_t)ctx->depth;
    while (!rc && ch->step < ch->end && ch->posted < ch->nr && ch->posted < d) rc = post_recv(ctx, s, ch);
    while (!rc && ch->step < ch->end && ch->sent < ch->ns && ch->sent < d) rc = post_send(ctx, s, ch);
    return rc;
}

/* Request idx completed. Segments are handled in order (MPI may complete them out of order): the oldest
 * receive's segment is consumed and its slot takes the next receive, the oldest send's slot the next
 * send, so slot w always holds segment k with k % depth == w and receives are posted in the order the
 * left neighbour sends. A channel whose step is all in moves on. */
static int nr_done(ddl_ctx *ctx, nr_state *s, const nr_job *j, nr_chan *chans, int idx)
{
    const int d = ctx->depth;
    nr_chan *ch = &chans[idx / (2 * d)];
    int rc = 0;
    if ((idx / d) % 2) ch->sdone[idx % d] = 1;
    else ch->rdone[idx % d] = 1;
    for (int w; !rc && ch->acked < ch->ns && ch->sdone[w = (int)(ch->acked % (size_t)d)];) {
        ch->sdone[w] = 0, ch->acked++;
        if (ch->sent < ch->ns) rc = post_send(ctx, s, ch);
    }
    for (int w; !rc && ch->got < ch->nr && ch->rdone[w = (int)(ch->got % (size_t)d)];) {
        const size_t k = ch->got++, bytes = coll_piece_len(ch->rbytes, ch->rpiece, k);
        ch->rdone[w] = 0;
        kern_landed(bytes);
        if (ch->reduce)
            kern_reduce(j->dt, j->op, ch->dst + k * ch->rpiece, ch->a + k * ch->rpiece,
                        s->scratch + ((size_t)ch->c * d + w) * ctx->segment_bytes, bytes / kern_dtype_size(j->dt));
        if (ch->posted < ch->nr) rc = post_recv(ctx, s, ch);
    }
    if (!rc && ch->got == ch->nr && ch->acked == ch->ns) {
        ch->step++;
        rc = nr_start(ctx, s, j, ch);
    }
    return rc;
}

/* Wait for any request: MPI_Waitany, or polling (ctx->poll_us) as coll_waitall does. */
static int nr_wait(const ddl_ctx *ctx, int n, MPI_Request *req, int *idx)
{
    MPI_Status st;
    int flag = 0;
    if (ctx->poll_us <= 0) {
        COLL_MPI(MPI_Waitany(n, req, idx, &st));
        return 0;
    }
    for (;;) {
        COLL_MPI(MPI_Testany(n, req, idx, &flag, &st));
        if (flag) return 0;
        kern_poll_pause(ctx->poll_us);
    }
}

/* After a failure: no request may write into the buffers later (receives cancelled, as exchange.c does). */
static void nr_abandon(nr_state *s, int n, int d)
{
    for (int i = 0; i < n; i++)
        if (s->req[i] != MPI_REQUEST_NULL) {
            if ((i / d) % 2 == 0) MPI_Cancel(&s->req[i]);
            MPI_Request_free(&s->req[i]);
        }
}

/* Steps [first, end) of every channel, all in flight: host buffers. */
static int nr_loop(ddl_ctx *ctx, nr_state *s, const nr_job *j, int first, int end)
{
    const int C = s->channels, n = 2 * C * ctx->depth;
    nr_chan *chans = s->chans;
    int rc = 0, idx;
    memset(chans, 0, (size_t)C * sizeof *chans);
    for (int i = 0; i < n; i++) s->req[i] = MPI_REQUEST_NULL;
    for (int c = 0; !rc && c < C; c++) {
        nr_chan *ch = &chans[c];
        const int *o = s->order + (size_t)c * ctx->size;
        ch->c = c, ch->step = first, ch->end = end;
        while (o[ch->v] != ctx->rank) ch->v++;
        ch->right = o[coll_mod(ch->v + 1, ctx->size)], ch->left = o[coll_mod(ch->v - 1, ctx->size)];
        rc = nr_start(ctx, s, j, ch);
    }
    while (!rc) {
        if ((rc = nr_wait(ctx, n, s->req, &idx)) || idx == MPI_UNDEFINED) break;
        rc = nr_done(ctx, s, j, chans, idx);
    }
    if (rc) nr_abandon(s, n, ctx->depth);
    return rc;
}

/* The same steps, channel after channel, through the location's pipeline: device buffers. */
static int nr_serial(ddl_ctx *ctx, nr_state *s, const nr_job *j, int first, int end)
{
    for (int c = 0; c < s->channels; c++) {
        nr_chan ch = { .c = c };
        const int *o = s->order + (size_t)c * ctx->size;
        while (o[ch.v] != ctx->rank) ch.v++;
        ch.right = o[coll_mod(ch.v + 1, ctx->size)], ch.left = o[coll_mod(ch.v - 1, ctx->size)];
        for (ch.step = first; ch.step < end; ch.step++) {
            const size_t es = kern_dtype_size(j->dt);
            int rc;
            nr_step(ctx, s, j, &ch);
            rc = ch.reduce ? coll_exchange_reduce(ctx, ctx->comm, ch.right, ch.src, ch.sbytes / es, ch.left, ch.dst,
                                                  ch.a, ch.rbytes / es, j->dt, j->op)
                           : coll_exchange(ctx, ctx->comm, ch.right, ch.src, ch.sbytes, ch.left, ch.dst, ch.rbytes);
            if (rc) return rc;
        }
    }
    return 0;
}

static int nr_run(ddl_ctx *ctx, const nr_job *j, int first, int end)
{
    nr_state *s = ctx->algo_state;
    return ctx->loc->device ? nr_serial(ctx, s, j, first, end) : nr_loop(ctx, s, j, first, end);
}

static int allreduce_nccl_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    nr_job j = { sbuf, rbuf, count, 0, dt, op };
    if (ctx->size == 1) return coll_copy(ctx, rbuf, sbuf, count * kern_dtype_size(dt));
    return nr_run(ctx, &j, 0, 2 * (ctx->size - 1));
}

static int reduce_scatter_nccl_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                                    kern_op op)
{
    char *work;
    int rc = coll_rs_work(ctx, sbuf, rbuf, count, dt, &work);
    nr_job j = { sbuf, work, count, 1, dt, op };
    if (!rc) rc = nr_run(ctx, &j, 0, ctx->size - 1);
    return rc ? rc : coll_rs_done(ctx, work, ctx->rank, rbuf, count, dt);
}

static int allgather_nccl_ring(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    nr_job j = { rbuf, rbuf, count, 1, dt, KERN_SUM };
    int rc = coll_ag_own(ctx, sbuf, rbuf, count, dt);
    return rc ? rc : nr_run(ctx, &j, ctx->size - 1, 2 * (ctx->size - 1));
}

/* Every channel's ring holds every rank once (else a rank would wait for a message nobody sends). */
static int nr_check(const nr_state *s, int p)
{
    char *seen = malloc((size_t)p);
    int rc = seen ? 0 : coll_fail(DDL_ERR_NOMEM, "nccl-ring: out of memory");
    for (int c = 0; !rc && c < s->channels; c++) {
        const int *o = s->order + (size_t)c * p;
        memset(seen, 0, (size_t)p);
        for (int i = 0; !rc && i < p; i++)
            if (o[i] < 0 || o[i] >= p || seen[o[i]]++)
                rc = coll_fail(DDL_ERR_ARG, "nccl-ring: channel %d's ring is not a permutation of the %d ranks "
                                            "(position %d: rank %d)", c, p, i, o[i]);
    }
    free(seen);
    return rc;
}

/* Local: the channel count and orders, the scratch and requests. */
static int nr_make(ddl_ctx *ctx, const ddl_config *cfg, nr_state *s)
{
    const int p = ctx->size, nics = cfg->machine ? cfg->machine->nics : 0;
    long env;
    int rc = coll_env_long("DDL_CHANNELS", 1, p, &env);
    if (rc) return rc;
    s->channels = env ? (int)env : coll_channels_default(p, ctx->ranks_per_node, nics);
    s->order = malloc((size_t)s->channels * (size_t)p * sizeof *s->order);
    s->req = malloc((size_t)s->channels * 2 * (size_t)ctx->depth * sizeof *s->req);
    s->chans = calloc((size_t)s->channels, sizeof *s->chans);
    if (!ctx->loc->device) s->scratch = kern_buf_alloc((size_t)s->channels * (size_t)ctx->depth * ctx->segment_bytes);
    if (!s->order || !s->req || !s->chans || (!ctx->loc->device && !s->scratch))
        return coll_fail(DDL_ERR_NOMEM, "nccl-ring: no memory for %d channels", s->channels);
    for (int c = 0; c < s->channels; c++) coll_channel_order(p, ctx->ranks_per_node, c, s->order + (size_t)c * p);
    return nr_check(s, p);
}

static void nr_teardown(ddl_ctx *ctx)
{
    nr_state *s = ctx->algo_state;
    if (!s) return;
    free(s->order);
    free(s->req);
    free(s->chans);
    kern_buf_free(s->scratch);
    free(s);
    ctx->algo_state = NULL;
}

static int nr_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    nr_state *s = calloc(1, sizeof *s);
    int rc = s ? nr_make(ctx, cfg, s) : coll_fail(DDL_ERR_NOMEM, "nccl-ring: out of memory");
    ctx->algo_state = s;
    if (!rc) rc = coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG);
    if ((rc = coll_agree(ctx->comm, rc))) return rc;
    return coll_agree_same(ctx->comm, s->channels, "nccl-ring: the channel count (DDL_CHANNELS)");
}

static int nr_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const nr_state *s = ctx->algo_state;
    snprintf(buf, len, " channels=%d", s->channels);
    return 0;
}

const coll_algo coll_algo_nccl_ring = {
    .name = "nccl-ring",
    .help = "NCCL's ring: one ring per channel (default one per NIC rail), each leaving and entering every "
            "node on its own rail, the buffer split over the channels, all in flight (DDL_CHANNELS)",
    .flags = DDL_ALGO_AUTO,
    .run = allreduce_nccl_ring,
    .setup = nr_setup,
    .teardown = nr_teardown,
    .describe = nr_describe,
    .cost = coll_nccl_ring_cost, /* nccl_ring_cost.c */
    .reduce_scatter = reduce_scatter_nccl_ring,
    .allgather = allgather_nccl_ring,
};
