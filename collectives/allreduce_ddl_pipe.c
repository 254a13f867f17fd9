/* allreduce_ddl_pipe.c — ddl with its levels overlapped: the vector cut into chunks, each chunk walking
 * ddl's grid (allreduce_ddl.c: reduce-scatter along d1, d2, .., allgather back), a chunk starting its
 * walk as soon as the chunk before it has left the first dimension's reduce-scatter. So while chunk k
 * crosses the nodes, chunk k+1 is reduce-scattered inside the node and chunk k-1 allgathered there, as
 * NCCL's NVLSTree overlaps its NVLink and network parts (NVIDIA/nccl src/device/all_reduce.h,
 * RunWorkColl<.., NCCL_ALGO_NVLS_TREE, NCCL_PROTO_SIMPLE>: separate warp groups scatter to the switch,
 * reduce and send up the tree, receive from it and broadcast, and gather, each chunk by chunk).
 *
 *   time →      chunk 0: RS d1 | RS d2 | AG d2 | AG d1
 *               chunk 1:         RS d1 | RS d2 | AG d2 | AG d1
 *               chunk 2:                 RS d1 | RS d2 | AG d2 | AG d1
 *
 * A grid with rhd on both levels (8:rhd x N:rhd) is rhd's nearest-first order level by level (the
 * node's exchanges first, then the nodes'), so this row also runs rhd's nearest-first steps pipelined.
 * It is the derived grid (coll_grid_derive_rhd, the row's derive): across nodes a chunk pays 2 log2 N
 * latencies, not a ring's 2(N - 1) (a node count's odd factor m stays a ring: 2(m - 1)).
 *
 * Chunks: DDL_PIPE_CHUNK bytes (default ctx->segment_bytes, from the links with ddl_config.machine);
 * K = ceil(n / chunk). At most W chunks in flight (DDL_PIPE_WINDOW, default from the links: dp_window_of),
 * by index: chunk k starts only once
 * chunk k - W is done (so its tag, 500 + k mod W, and its landing slot are free on every rank: MPI's
 * non-overtaking order then matches each receive to its own chunk's send); and at most L = W/4
 * (DDL_PIPE_LEAD) chunks inside the first dimension's reduce-scatter at once. Each chunk has one step in
 * flight: one receive and one send of a whole step's block; a reducing step's block lands in the
 * chunk's slot and is reduced into place (its own contribution as the other operand, as the ring's).
 * One progress loop (MPI_Waitany) serves every chunk. Results are bitwise the plain ddl's on the
 * same chunk (each block reduced once, in the same order, then copied).
 *
 * A vector of one chunk or less, and device buffers: the plain ddl walk (allreduce_ddl.c), through the
 * location's segment pipeline; so are the
 * reduce-scatter and allgather (ddl's, not pipelined).
 *
 * Cost (dp_cost), the classic pipeline: one chunk walks every level (fill and drain), the other n - c
 * bytes pass at the rate of the busiest resource:
 *   T = Σ_i T_i(c) + c(p-1)/p·γ + max(max_i T_i(n-c), own(n-c)/intra_bw, (n-c)(p-1)/p·γ)
 * T_i(x): coll_cost_dim's RS + AG along dimension i on its share of x (its steps' latencies paid once:
 * the chunks in flight overlap them); own(x): the bytes a GPU's link carries each way, every level's
 * (Σ_i 2·x_i(d_i-1)/d_i: NVLink and its NIC's traffic share the link); the reductions overlap the
 * transfers (SMPI moves posted messages while a rank reduces). c = n (K = 1): ddl's cost. One level
 * (one node): no stagger, DP_WINDOW chunks at once, so T = max(T_0(n) - its latencies, own(n), γ) + the
 * latencies / DP_WINDOW. On DGX H100
 * at 4 nodes the own link binds: 1.94n through 450 GB/s against 0.19n through a 50 GB/s rail, so
 * busbw stays under 0.87 of the per-node NIC bound (in-network reduction, NVLS, would lift it). */
#include "coll.h"
#include "mem.h"
#include "partition.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DP_TAG 500
#define DP_WINDOW COLL_DP_WINDOW /* chunks in flight, at least */
#define DP_LEAD_PART 4 /* a quarter of them inside the first dimension's reduce-scatter */
#define DP_MAX_WINDOW 64

typedef struct dp_chunk {
    size_t base, n; /* elements of the vector */
    int step;       /* index in the walk: RS dims 0..k-1, then AG dims k-1..0 */
    int pending;    /* requests not yet completed (0..2) */
    int reduce;
    char *dst; /* reduce: dst = a op landed */
    const char *a;
    size_t rbytes;
} dp_chunk;

typedef struct dp_state {
    size_t chunk_bytes;
    int window, lead;
    char *scratch; /* window x slot_bytes */
    size_t slot_bytes;
    MPI_Request *req; /* window x 2: receive, send */
    dp_chunk *ch;     /* window */
} dp_state;

/* One call. */
typedef struct dp_job {
    const char *in;
    char *out;
    size_t n, celems;
    kern_dtype dt;
    kern_op op;
    int nsteps, rs0; /* steps of a chunk's walk; of the first dimension's reduce-scatter */
} dp_job;

static int dim_steps(const ddl_ctx *ctx, int i)
{
    return ctx->patterns[i] == COLL_PAT_RHD ? coll_log2(ctx->dims[i]) : ctx->dims[i] - 1;
}

static int dim_stride(const ddl_ctx *ctx, int i)
{
    int s = 1;
    for (int k = 0; k < i; k++) s *= ctx->dims[k];
    return s;
}

/* Where step `step` of a chunk of n elements lies: dimension, reduce-scatter or not, its index t
 * in that dimension, and the sub-range (off, len) of the chunk the dimension works on. */
static void locate(const ddl_ctx *ctx, size_t n, int step, int *dim, int *rs, int *t, size_t *off, size_t *len)
{
    int i = 0, k = ctx->ndims;
    *rs = 1;
    for (; i < k && step >= dim_steps(ctx, i); i++) step -= dim_steps(ctx, i);
    if (i == k) {
        *rs = 0;
        for (i = k - 1; i > 0 && step >= dim_steps(ctx, i); i--) step -= dim_steps(ctx, i);
    }
    *dim = i, *t = step, *off = 0, *len = n;
    for (int d = 0; d < i; d++) {
        *off += coll_block_off(*len, ctx->dims[d], ctx->coords[d]);
        *len = coll_block_len(*len, ctx->dims[d], ctx->coords[d]);
    }
}

/* Post chunk slot w's step: one receive, one send. */
static int dp_post(ddl_ctx *ctx, dp_state *s, const dp_job *j, int w)
{
    dp_chunk *c = &s->ch[w];
    const size_t es = kern_dtype_size(j->dt);
    int i, rs, t, q, v, stride, speer, rpeer;
    size_t off, len, soff, slen, roff, rlen;
    locate(ctx, c->n, c->step, &i, &rs, &t, &off, &len);
    q = ctx->dims[i], v = ctx->coords[i], stride = dim_stride(ctx, i);
    if (ctx->patterns[i] == COLL_PAT_RHD) { /* farthest first; the allgather mirrors the halving */
        int j2 = rs ? t : dim_steps(ctx, i) - 1 - t, mask = coll_rhd_mask(q, j2, 0), lo, hi, plo, phi;
        coll_rhd_range(q, v, 0, j2, &lo, &hi);
        int mid = lo + (hi - lo) / 2, klo = (v & mask) ? mid : lo, khi = (v & mask) ? hi : mid;
        speer = rpeer = ctx->rank + stride * ((v ^ mask) - v);
        if (rs) {
            soff = coll_block_off(len, q, (v & mask) ? lo : mid), slen = coll_block_off(len, q, (v & mask) ? mid : hi);
            roff = coll_block_off(len, q, klo), rlen = coll_block_off(len, q, khi);
        } else {
            coll_rhd_range(q, v, 0, j2 + 1, &lo, &hi);
            coll_rhd_range(q, v ^ mask, 0, j2 + 1, &plo, &phi);
            soff = coll_block_off(len, q, lo), slen = coll_block_off(len, q, hi);
            roff = coll_block_off(len, q, plo), rlen = coll_block_off(len, q, phi);
        }
        slen -= soff, rlen -= roff;
    } else {
        int sb = coll_mod(v - t - rs, q), rb = coll_mod(v - t - 1 - rs, q);
        speer = ctx->rank + stride * (coll_mod(v + 1, q) - v);
        rpeer = ctx->rank + stride * (coll_mod(v - 1, q) - v);
        soff = coll_block_off(len, q, sb), slen = coll_block_len(len, q, sb);
        roff = coll_block_off(len, q, rb), rlen = coll_block_len(len, q, rb);
    }
    {
        const size_t at = c->base + off;
        const int first = rs && i == 0 && t == 0; /* the first step of a dimension reads its input */
        const char *in = i == 0 && rs ? j->in : j->out;
        const char *src = (first || (rs && t == 0) ? in : j->out) + (at + soff) * es;
        char *land;
        c->reduce = rs;
        c->dst = j->out + (at + roff) * es;
        /* the other operand: the ring's own contribution (each block reduced once here); rhd's running part */
        c->a = (ctx->patterns[i] == COLL_PAT_RHD && t > 0 ? j->out : in) + (at + roff) * es;
        c->rbytes = rlen * es;
        land = rs ? s->scratch + (size_t)w * s->slot_bytes : c->dst;
        c->pending = 2;
        kern_posted();
        COLL_MPI(MPI_Irecv(land, (int)c->rbytes, MPI_BYTE, rpeer, DP_TAG + w, ctx->comm, &s->req[2 * w]));
        kern_posted();
        COLL_MPI(MPI_Isend(src, (int)(slen * es), MPI_BYTE, speer, DP_TAG + w, ctx->comm, &s->req[2 * w + 1]));
    }
    return 0;
}

/* A chunk's step is all in: reduce what landed, then the next step (or the chunk is done). */
static int dp_advance(ddl_ctx *ctx, dp_state *s, const dp_job *j, int w, size_t *left0, size_t *done)
{
    dp_chunk *c = &s->ch[w];
    kern_landed(c->rbytes);
    if (c->reduce)
        kern_reduce(j->dt, j->op, c->dst, c->a, s->scratch + (size_t)w * s->slot_bytes,
                    c->rbytes / kern_dtype_size(j->dt));
    if (++c->step == j->rs0) ++*left0;
    if (c->step == j->nsteps) return ++*done, 0;
    return dp_post(ctx, s, j, w);
}

static void dp_abandon(dp_state *s)
{
    for (int i = 0; i < 2 * s->window; i++)
        if (s->req[i] != MPI_REQUEST_NULL) {
            if (i % 2 == 0) MPI_Cancel(&s->req[i]);
            MPI_Request_free(&s->req[i]);
        }
}

static int dp_loop(ddl_ctx *ctx, dp_state *s, dp_job *j)
{
    const size_t K = (j->n + j->celems - 1) / j->celems;
    const int W = s->window;
    /* the lead only staggers chunks ahead of later levels: one level alone runs W chunks at once */
    const size_t lead = j->rs0 && j->nsteps > 2 * j->rs0 ? (size_t)s->lead : (size_t)W;
    size_t started = 0, done = 0, left0 = 0, oldest = 0;
    int rc = 0, idx;
    char *fin = calloc((size_t)W, 1); /* slot's chunk done, not yet retired in index order */
    if (!fin) return coll_fail(DDL_ERR_NOMEM, "ddl-pipe: out of memory");
    for (int i = 0; i < 2 * W; i++) s->req[i] = MPI_REQUEST_NULL;
    while (!rc && done < K) {
        /* retire finished chunks in index order; start new ones while the window and the lead allow */
        while (oldest < started && fin[oldest % (size_t)W]) fin[oldest++ % (size_t)W] = 0;
        while (!rc && started < K && started < oldest + (size_t)W && started - left0 < lead) {
            const int w = (int)(started % (size_t)W);
            dp_chunk *c = &s->ch[w];
            c->base = started * j->celems;
            c->n = j->n - c->base < j->celems ? j->n - c->base : j->celems;
            c->step = 0;
            started++;
            rc = dp_post(ctx, s, j, w);
        }
        if (rc) break;
        MPI_Status st;
        if (ctx->poll_us <= 0) {
            int mrc = MPI_Waitany(2 * W, s->req, &idx, &st);
            if (mrc != MPI_SUCCESS) {
                rc = coll_mpi_fail(mrc, "MPI_Waitany (ddl-pipe)");
                break;
            }
        } else {
            int flag = 0, mrc;
            while ((mrc = MPI_Testany(2 * W, s->req, &idx, &flag, &st)) == MPI_SUCCESS && !flag)
                kern_poll_pause(ctx->poll_us);
            if (mrc != MPI_SUCCESS) {
                rc = coll_mpi_fail(mrc, "MPI_Testany (ddl-pipe)");
                break;
            }
        }
        if (idx == MPI_UNDEFINED) {
            rc = coll_fail(DDL_ERR_ARG, "ddl-pipe: no request in flight");
            break;
        }
        if (--s->ch[idx / 2].pending == 0) {
            size_t before = done;
            rc = dp_advance(ctx, s, j, idx / 2, &left0, &done);
            if (done > before) fin[idx / 2] = 1;
        }
    }
    if (rc) dp_abandon(s);
    free(fin);
    return rc;
}

static int allreduce_ddl_pipe(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    dp_state *s = ctx->algo_state;
    const size_t es = kern_dtype_size(dt);
    dp_job j = { sbuf, rbuf, count, s->chunk_bytes / es ? s->chunk_bytes / es : 1, dt, op, 0, dim_steps(ctx, 0) };
    if (ctx->loc->device || ctx->size == 1 || count * es <= s->chunk_bytes) /* one chunk: ddl's walk */
        return coll_allreduce_ddl(ctx, sbuf, rbuf, count, dt, op);
    for (int i = 0; i < ctx->ndims; i++) j.nsteps += 2 * dim_steps(ctx, i);
    if (s->chunk_bytes / es * es > s->slot_bytes * 2)
        return coll_fail(DDL_ERR_ARG, "ddl-pipe: chunk of %zu bytes over its slots", s->chunk_bytes);
    return dp_loop(ctx, s, &j);
}

static void dp_teardown(ddl_ctx *ctx)
{
    dp_state *s = ctx->algo_state;
    if (s) {
        free(s->req);
        free(s->ch);
        kern_buf_free(s->scratch);
        free(s);
        ctx->algo_state = NULL;
    }
    coll_ddl_teardown(ctx);
}

/* Chunks in flight from the links (ddl_config.machine), on a grid of two levels or more. W chunks that
 * share the busiest resource each walk in lat(c) + W·busiest(c) (their steps' latencies, then their
 * transfers at 1/W of the rate), so the pipeline runs at W·busiest / (lat + W·busiest) of that rate:
 * 0.9 of it takes W >= 9·lat(c) / busiest(c). W = that, rounded up to a power of two, at least
 * DP_WINDOW, at most DP_MAX_WINDOW. DGX H100, 8 MiB chunks: 8 network steps of 6 us and 6 NVLink steps of
 * 3 us a chunk against 45 us of a GPU link's transfer at 16 nodes, W = 16; one node keeps DP_WINDOW. */
static int dp_window_of(const ddl_ctx *ctx, const ddl_machine *m, size_t chunk)
{
    coll_shape sh = { ctx->ndims, { 0 }, { 0 } };
    double lat = 0, xfer = 0, want;
    int w = DP_WINDOW, levels_used = 0;
    if (!m || m->ranks != ctx->size) return DP_WINDOW;
    for (int i = 0; i < ctx->ndims; i++)
        sh.dims[i] = ctx->dims[i], sh.patterns[i] = ctx->patterns[i], levels_used += ctx->dims[i] > 1;
    if (levels_used < 2 || coll_ddl_pipe_split(m, &sh, (double)chunk, &lat, &xfer)) return DP_WINDOW;
    want = xfer > 0 ? 9 * lat / xfer : DP_MAX_WINDOW;
    while (w < want && w < DP_MAX_WINDOW) w *= 2;
    return w;
}

/* Local: the chunk, window and lead, the slots and requests. */
static int dp_make(ddl_ctx *ctx, dp_state *s, const ddl_machine *m)
{
    long env;
    int rc = coll_env_long("DDL_PIPE_CHUNK", 1, COLL_MAX_SEGMENT, &env);
    if (rc) return rc;
    s->chunk_bytes = env ? (size_t)env : ctx->segment_bytes;
    if ((rc = coll_env_long("DDL_PIPE_WINDOW", 1, DP_MAX_WINDOW, &env))) return rc;
    s->window = env ? (int)env : dp_window_of(ctx, m, s->chunk_bytes);
    if ((rc = coll_env_long("DDL_PIPE_LEAD", 1, DP_MAX_WINDOW, &env))) return rc;
    s->lead = env ? (int)env : s->window >= DP_LEAD_PART ? s->window / DP_LEAD_PART : 1; /* 2 of 8, 4 of 16 */
    s->slot_bytes = (s->chunk_bytes + 1) / 2 + 16; /* the largest reducing block: rhd's first half */
    s->req = malloc(2 * (size_t)s->window * sizeof *s->req);
    s->ch = calloc((size_t)s->window, sizeof *s->ch);
    if (!ctx->loc->device) s->scratch = kern_buf_alloc((size_t)s->window * s->slot_bytes);
    if (!s->req || !s->ch || (!ctx->loc->device && !s->scratch))
        return coll_fail(DDL_ERR_NOMEM, "ddl-pipe: no memory for %d chunks of %zu bytes", s->window, s->chunk_bytes);
    return 0;
}

static int dp_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    dp_state *s;
    int rc = coll_ddl_setup(ctx, cfg);
    if (rc) return rc;
    s = calloc(1, sizeof *s);
    rc = s ? dp_make(ctx, s, cfg->machine) : coll_fail(DDL_ERR_NOMEM, "ddl-pipe: out of memory");
    ctx->algo_state = s;
    if ((rc = coll_agree(ctx->comm, rc))) return rc;
    const size_t h = s->chunk_bytes * 131 + (size_t)s->window * 7 + (size_t)s->lead;
    return coll_agree_same(ctx->comm, (long)(h & 0x7fffffff),
                           "ddl-pipe: the chunk, window or lead (DDL_PIPE_CHUNK, DDL_PIPE_WINDOW, DDL_PIPE_LEAD)");
}

static int dp_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const dp_state *s = ctx->algo_state;
    size_t used;
    coll_ddl_describe(ctx, buf, len);
    used = strlen(buf);
    if (used < len) snprintf(buf + used, len - used, " chunk=%zu window=%d", s->chunk_bytes, s->window);
    return 0;
}

const coll_algo coll_algo_ddl_pipe = {
    .name = "ddl-pipe",
    .help = "ddl with its levels overlapped: chunks, each starting its inter-node steps as soon as its "
            "intra-node reduce-scatter is done (NCCL's NVLSTree); derived grid rhd across nodes (8:rhd x N:rhd)",
    .flags = DDL_ALGO_GRID, /* not an auto candidate yet: model/sim 0.94 at 16 nodes; sim_speed unchecked */
    .run = allreduce_ddl_pipe,
    .setup = dp_setup,
    .teardown = dp_teardown,
    .describe = dp_describe,
    .cost = coll_ddl_pipe_cost, /* ddl_pipe_cost.c */
    .candidates = coll_ddl_candidates,
    .reduce_scatter = coll_reduce_scatter_ddl, /* ddl's walk, not pipelined */
    .allgather = coll_allgather_ddl,
    .derive = coll_grid_derive_rhd, /* across nodes rhd: 2 log2 N latencies a chunk, not 2(N - 1) */
};
