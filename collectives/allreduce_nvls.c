/* allreduce_nvls.c — in-network reduction: NVLink SHARP (NVLS) inside a node, InfiniBand SHARP across
 * nodes, as the switches' dataflow on MPI point-to-point.
 *
 * With reducing switches a GPU sends each byte once up and gets each result once down: the NVSwitch reads
 * every GPU's part of a block, reduces it and hands it to the block's owner (NCCL's multimem ld_reduce),
 * then multicasts the owner's result to every GPU (multimem st); a SHARP tree does the same for the
 * nodes' blocks. MPI has no switch that reduces, so here each switch's work is done by the ranks it
 * serves: local rank j stands for the NVSwitch's port of block j (it receives the others' parts of block
 * j, reduces them and sends the result to each), node m for the SHARP tree's share m of a block. The
 * data flow and the stages are the switches'; the bytes on the links are a direct reduce-scatter's and
 * allgather's (each rank sends (g - 1)/g of the vector and receives as much in each), which is what a
 * machine without the switches can do. On a simulated platform without a reducing switch the model
 * (nvls_cost.c) prices that traffic and tests/sim_model.sh holds it against SimGrid; with one (the
 * platform keys nvls_bw, sharp_bw) it prices the switches' traffic instead: a prediction, not simulated.
 *
 * p = nodes x g, node-major (else every rank is a node of its own). Rank (node, l) owns block l of the
 * vector (g balanced blocks); the blocks go in chunks (of the segment, or 1/4 of a block on one node and
 * 1/12 across nodes if that is less),
 * in a pipeline of four stages,
 * one round at a time (every message of a round posted, then all awaited):
 *   stage 0, chunk k:     every rank sends its part of chunk k of block j to local rank j; the owner
 *                         reduces the g parts (NVLS reduce)
 *   stage 1, chunk k - 1: across nodes, on the owner's rail: share m of the chunk to node m, which
 *                         reduces the N node sums (SHARP reduce)              (N > 1 nodes only)
 *   stage 2, chunk k - 2: share m's result from node m to every node (SHARP multicast)
 *   stage 3, chunk k - 3: the owner sends the chunk's result to every local rank (NVLS multicast)
 * K chunks take K + 3 rounds (K + 1 on one node). Every rank ends with the owner's bits.
 * Reduce-scatter and allgather: none yet (DDL_ERR_ALGO). Host buffers only.
 * Memory: (g - 1) landing slots of a segment and (N - 1) of a segment / N; 4(g + N) requests. */
#include "coll.h"
#include "mem.h"
#include "partition.h"
#include "switch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#define NV_TAG 400   /* stage s: NV_TAG + s */
#define NV_CHUNKS 4  /* a block goes in at least this many chunks per round of fill (1 on one node, 3 across
                        nodes) where the segment allows: more rounds cost a latency each (nvls_cost.c) */

typedef struct nv_state {
    int g, nodes, node, local;
    size_t seg;             /* bytes of a chunk, a multiple of 8 */
    size_t sub_slot;        /* bytes of a stage-1 landing slot */
    char *slot0, *slot1;    /* (g - 1) x seg, (N - 1) x sub_slot */
    MPI_Request *req;       /* 4 (g + N) */
    MPI_Status *st;         /* as many */
    void *me, *nvs, *agg;   /* simulated: the rank's GPU host, its NVSwitch's, its SHARP aggregation's (switch.h) */
    double scale;           /* bytes sent to or from the NVSwitch per byte: intra_bw / nvls_bw */
    int agg_known;          /* agg resolved (at the first call: it needs the other nodes' leaves) */
} nv_state;

static void nv_teardown(ddl_ctx *ctx)
{
    nv_state *s = ctx->algo_state;
    if (!s) return;
    kern_buf_free(s->slot0), kern_buf_free(s->slot1), free(s->req), free(s->st), free(s);
    ctx->algo_state = NULL;
}

/* Local: the rank's place, its landing slots and requests; no communication. */
static int nv_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    nv_state *s = calloc(1, sizeof *s);
    (void)cfg;
    if (!s) return coll_fail(DDL_ERR_NOMEM, "nvls: out of memory");
    ctx->algo_state = s;
    if (ctx->loc->device) return coll_fail(DDL_ERR_DEVICE, "nvls: host buffers only (no device path yet)");
    s->g = ctx->ranks_per_node > 0 && ctx->size % ctx->ranks_per_node == 0 ? ctx->ranks_per_node : 1;
    s->nodes = ctx->size / s->g, s->node = ctx->rank / s->g, s->local = ctx->rank % s->g;
    s->seg = ctx->segment_bytes < 8 ? 8 : ctx->segment_bytes & ~(size_t)7;
    s->sub_slot = (s->seg / (size_t)s->nodes + 16 + 7) & ~(size_t)7;
    s->slot0 = kern_buf_alloc((size_t)(s->g - 1) * s->seg);
    s->slot1 = kern_buf_alloc((size_t)(s->nodes - 1) * s->sub_slot);
    s->req = malloc((size_t)4 * (s->g + s->nodes) * sizeof *s->req);
    s->st = malloc((size_t)4 * (s->g + s->nodes) * sizeof *s->st);
    if (!s->slot0 || !s->slot1 || !s->req || !s->st)
        return coll_fail(DDL_ERR_NOMEM, "nvls: no memory for %d landing slots of %zu bytes", s->g - 1, s->seg);
    s->me = coll_sw_self();
    if (s->me && s->g > 1) s->nvs = coll_sw_host("nvs"), s->scale = coll_sw_num("nvs_scale", 1);
    return 0;
}

/* Simulated with IB SHARP: the aggregation of the rank's rail, at its leaf when the ranks of its local index
 * (one a node, on the same rail) all hang from the same one, else at the spine. Collective (the first call's). */
static int nv_find_agg(ddl_ctx *ctx, nv_state *s)
{
    void *host = s->me && s->nodes > 1 ? coll_sw_host("sharp") : NULL;
    int *v = NULL, rc = 0;
    s->agg_known = 1;
    if (!s->me || s->nodes < 2) return 0;
    if (!(v = malloc((size_t)4 * s->g * sizeof *v))) return coll_fail(DDL_ERR_NOMEM, "nvls: out of memory");
    for (int j = 0; j < 2 * s->g; j++) v[j] = INT_MAX; /* per local index: min leaf, min of -leaf */
    v[s->local] = host ? (int)coll_sw_num("leaf", -1) : -1, v[s->g + s->local] = host ? -v[s->local] : 1;
    if (MPI_Allreduce(v, v + 2 * s->g, 2 * s->g, MPI_INT, MPI_MIN, ctx->comm) != MPI_SUCCESS)
        rc = coll_fail(DDL_ERR_MPI, "nvls: MPI_Allreduce of the SHARP leaves failed");
    else if (host && v[2 * s->g + s->local] >= 0 && v[3 * s->g + s->local] <= 0)
        s->agg = v[2 * s->g + s->local] == -v[3 * s->g + s->local] ? host : coll_sw_host("spine");
    free(v);
    return rc;
}

/* Elements of chunk k of a block of len elements, chunks of c (0 past its end). */
static size_t nv_piece(size_t len, size_t c, size_t k) { return k * c >= len ? 0 : coll_piece_len(len, c, k); }

typedef struct nv_call {     /* one call's layout */
    ddl_ctx *ctx;
    nv_state *s;
    const char *src;
    char *rb;
    size_t count, es, c;     /* elements, element size, chunk (elements) */
    MPI_Request *r;          /* next free request */
    coll_sw_round sw;        /* simulated switches' traffic of the round */
} nv_call;

static int nv_post(nv_call *v, int send, void *buf, size_t elems, int peer, int stage)
{
    if (!elems) return 0;
    kern_posted();
    if (send)
        COLL_MPI(MPI_Isend(buf, (int)(elems * v->es), MPI_BYTE, peer, NV_TAG + stage, v->ctx->comm, v->r++));
    else COLL_MPI(MPI_Irecv(buf, (int)(elems * v->es), MPI_BYTE, peer, NV_TAG + stage, v->ctx->comm, v->r++));
    return 0;
}

/* Where chunk k of block j starts in a vector, and its elements. */
#define NV_OFF(v, j, k) ((coll_block_off((v)->count, (v)->s->g, (j)) + (k) * (v)->c) * (v)->es)
#define NV_LEN(v, j, k) nv_piece(coll_block_len((v)->count, (v)->s->g, (j)), (v)->c, (k))

/* Simulated, stage st of chunk k through a reducing switch (the header's table in nvls_cost.c): 1 where it
 * went there, 0 where the stage has no switch. */
static int nv_switch(nv_call *v, int st, size_t k)
{
    nv_state *s = v->s;
    const double mine = (double)NV_LEN(v, s->local, k) * v->es;
    double all = 0;
    int rc = 0;
    if ((st == 0 || st == 3) && s->nvs) {
        for (int j = 0; j < s->g; j++) all += (double)NV_LEN(v, j, k) * v->es;
        rc = coll_sw_start(&v->sw, s->me, s->nvs, (st == 0 ? all : mine) * s->scale) ||
             coll_sw_start(&v->sw, s->nvs, s->me, (st == 0 ? mine : all) * s->scale) ||
             (st == 0 && coll_sw_start(&v->sw, s->nvs, NULL, all));
    } else if ((st == 1 || st == 2) && s->agg) {
        rc = st == 1 ? coll_sw_start(&v->sw, s->me, s->agg, mine) || coll_sw_start(&v->sw, s->agg, NULL, mine)
                     : coll_sw_start(&v->sw, s->agg, s->me, mine);
    } else return 0;
    return rc ? -1 : 1;
}

/* Post stage `st` of chunk k (in range), as the header says. */
static int nv_stage(nv_call *v, int st, size_t k)
{
    const nv_state *s = v->s;
    const int l = s->local, nd = s->node, g = s->g, nn = s->nodes;
    const size_t mine = NV_LEN(v, l, k);
    char *own = v->rb + NV_OFF(v, l, k);
    int rc = nv_switch(v, st, k);
    if (rc) return rc < 0 ? coll_fail(DDL_ERR_MPI, "nvls: more switch transfers than a round holds") : 0;
    for (int j = 0; !rc && (st == 0 || st == 3) && j < g; j++) {
        if (j == l) continue;
        const int peer = nd * g + j, at = j < l ? j : j - 1;
        if (st == 0)
            rc = nv_post(v, 1, (char *)v->src + NV_OFF(v, j, k), NV_LEN(v, j, k), peer, 0) ||
                 nv_post(v, 0, s->slot0 + (size_t)at * s->seg, mine, peer, 0);
        else rc = nv_post(v, 1, own, mine, peer, 3) || nv_post(v, 0, v->rb + NV_OFF(v, j, k), NV_LEN(v, j, k), peer, 3);
    }
    for (int m = 0; !rc && (st == 1 || st == 2) && m < nn; m++) {
        if (m == nd) continue;
        const int peer = m * g + l, at = m < nd ? m : m - 1;
        const size_t my_off = coll_block_off(mine, nn, nd) * v->es, my_len = coll_block_len(mine, nn, nd);
        char *theirs = own + coll_block_off(mine, nn, m) * v->es;
        if (st == 1)
            rc = nv_post(v, 1, theirs, coll_block_len(mine, nn, m), peer, 1) ||
                 nv_post(v, 0, s->slot1 + (size_t)at * s->sub_slot, my_len, peer, 1);
        else rc = nv_post(v, 1, own + my_off, my_len, peer, 2) || nv_post(v, 0, theirs, coll_block_len(mine, nn, m),
                                                                        peer, 2);
    }
    return rc ? DDL_ERR_MPI : 0;
}

/* After a round: the owner's reductions of stage 0 (chunk k0) and stage 1 (chunk k1); -1: none. */
static int nv_reduce(nv_call *v, long k0, long k1, kern_dtype dt, kern_op op)
{
    const nv_state *s = v->s;
    const int l = s->local;
    if (k0 >= 0 && !s->nvs) {
        const size_t n = NV_LEN(v, l, (size_t)k0);
        char *dst = v->rb + NV_OFF(v, l, (size_t)k0);
        const char *a = v->src + NV_OFF(v, l, (size_t)k0);
        int rc = s->g == 1 && n ? coll_copy(v->ctx, dst, a, n * v->es) : 0; /* then chunk k1's reduction too */
        if (rc) return rc;
        for (int j = 0; j < s->g - 1 && n; j++, a = dst) {
            kern_landed(n * v->es);
            kern_reduce(dt, op, dst, a, s->slot0 + (size_t)j * s->seg, n);
        }
    }
    if (k1 >= 0 && !s->agg) {
        const size_t mine = NV_LEN(v, l, (size_t)k1), n = coll_block_len(mine, s->nodes, s->node);
        char *dst = v->rb + NV_OFF(v, l, (size_t)k1) + coll_block_off(mine, s->nodes, s->node) * v->es;
        for (int m = 0; m < s->nodes - 1 && n; m++) {
            kern_landed(n * v->es);
            kern_reduce(dt, op, dst, dst, s->slot1 + (size_t)m * s->sub_slot, n);
        }
    }
    return 0;
}

/* A round's n requests: MPI_Waitall, or polling (ctx->poll_us) as coll_waitall does (which takes fewer). */
static int nv_wait(const ddl_ctx *ctx, nv_state *s, int n)
{
    if (ctx->poll_us <= 0) {
        COLL_MPI(MPI_Waitall(n, s->req, s->st));
        return 0;
    }
    for (;;) {
        int done = 0;
        COLL_MPI(MPI_Testall(n, s->req, &done, s->st));
        if (done) return 0;
        kern_poll_pause(ctx->poll_us);
    }
}

static int allreduce_nvls(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op)
{
    nv_state *s = ctx->algo_state;
    const size_t es = kern_dtype_size(dt);
    const size_t fill = s->nodes > 1 ? 3 : 1, block = coll_block_len(count, s->g, 0);
    const size_t per = (block + NV_CHUNKS * fill - 1) / (NV_CHUNKS * fill);
    nv_call v = { ctx, s, sbuf, rbuf, count, es, per < s->seg / es ? (per ? per : 1) : s->seg / es, s->req,
                  { { 0 }, 0 } };
    const long K = (long)coll_pieces(coll_block_len(count, s->g, 0), v.c), lag3 = s->nodes > 1 ? 3 : 1;
    int rc = 0;
    if (ctx->size == 1) return coll_copy(ctx, rbuf, sbuf, count * es);
    if (!s->agg_known && (rc = nv_find_agg(ctx, s))) return rc;
    for (long r = 0; !rc && r < K + lag3; r++) {
        const long k0 = r < K ? r : -1, k1 = s->nodes > 1 && r >= 1 && r - 1 < K ? r - 1 : -1;
        const long k2 = s->nodes > 1 && r >= 2 && r - 2 < K ? r - 2 : -1, k3 = r >= lag3 ? r - lag3 : -1;
        v.r = s->req;
        if (k0 >= 0) rc = nv_stage(&v, 0, (size_t)k0);
        if (!rc && k1 >= 0) rc = nv_stage(&v, 1, (size_t)k1);
        if (!rc && k2 >= 0) rc = nv_stage(&v, 2, (size_t)k2);
        if (!rc && k3 >= 0) rc = nv_stage(&v, 3, (size_t)k3);
        if (!rc) rc = nv_wait(ctx, s, (int)(v.r - s->req));
        coll_sw_wait(&v.sw);
        if (!rc) rc = nv_reduce(&v, k0, k1, dt, op);
    }
    return rc;
}

static int nv_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const nv_state *s = ctx->algo_state;
    snprintf(buf, len, " nodes=%d x %d, chunks of %zu bytes (switches emulated by the ranks)", s->nodes, s->g,
             s->seg);
    return 0;
}

int coll_nvls_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);

const coll_algo coll_algo_nvls = {
    .name = "nvls",
    .help = "in-network reduction: NVLink SHARP in a node, IB SHARP across; simulated through the switches, on MPI "
            "the ranks stand in for them",
    .flags = COLL_ALGO_SWITCH,
    .run = allreduce_nvls,
    .setup = nv_setup,
    .teardown = nv_teardown,
    .describe = nv_describe,
    .cost = coll_nvls_cost,
};
