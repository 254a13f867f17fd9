/* allreduce_nccl_tree.c — NCCL's double binary tree (NCCL 2.4; Sanders, Speck & Träff 2009) on MPI
 * point-to-point: a chain inside each node, two complementary binary trees across the nodes, each
 * carrying half the data, reduce up then broadcast down, pipelined in segments.
 *
 * Layout (dtree.h): the vector is cut into F = 2 x min(g, 16) flows on nodes of g ranks, two per
 * channel: flow f over tree f % 2 with local rank f / 2 as every node's head, so each channel leaves
 * the node by another rank (another rail). Tree 0's interior nodes are tree 1's leaves and back, so
 * on every rail a node forwards (receives two children's parts, sends two) in one of its two trees.
 *
 *   2 nodes x 4 ranks, channel 0 (flows 0 and 1, heads local 0):
 *     node 0: r0 <- r1 <- r2 <- r3        node 1: r4 <- r5 <- r6 <- r7       (the chains: reduce)
 *             r0 ==================================== r4                      (tree 0: node 0 root,
 *                                                                             tree 1: node 1 root)
 *     channel 1 (flows 2, 3): r1 <- r2 <- r3 <- r0 and r5 <- r6 <- r7 <- r4, r1 == r5 across; ...
 *   reduce: a rank's segment = own op chain-next's op children's heads' (that order), sent up the
 *   chain, then from the head to its parent's head; the root's head has the flow's result and sends
 *   it down to its children's heads and its chain, each rank passing it on. A segment goes up while
 *   earlier ones come down; every message is nonblocking, up to NT_DEPTH segments in flight on each.
 *
 * Cost (nccl_tree_cost.c): H·(α + s·β) + (k + ramp)·τ, H = 2(g − 1 + depth) hops, k segments of s
 * per flow, τ the time per segment of the most loaded link (a rank's link, a rail NIC, a leaf's
 * uplink, or its reductions). Latency grows with lg(nodes) and g, not with p; bandwidth: on each rail a node moves 3n/F
 * each way in the flow where it is interior and n/F in the other: 4n/F, about 2n for the node (a ring's).
 * Every rank ends with the root's bits (the result is broadcast), though the halves reduce in
 * different orders. Any p; ranks not node-major (rpn 0): every rank a node of its own.
 * Reduce-scatter and allgather: none (a tree has no natural ones): DDL_ERR_ALGO.
 * Memory: (F + 4) x NT_DEPTH landing slots of min(segment, 1 MiB). Host buffers only. */
#include "coll.h"
#include "dtree.h"
#include "mem.h"
#include "partition.h"

#include <stdio.h>
#include <stdlib.h>

#define NT_DEPTH 4  /* segments in flight per stream (nccl_tree_cost.c: enough for a rail at 64 KiB) */
#define NT_TAG 300               /* flow f: NT_TAG + 2f up, + 1 down */
enum { S_IN = 0, S_UP = 3, S_DOWN = 4, S_OUT = 5, S_COUNT = 8 }; /* request streams of a flow */

typedef struct nt_prog {             /* a flow's progress in one call, in segments */
    size_t off, len, nseg;           /* its elements of the vector, and their segments */
    size_t red;                      /* reduced (own op inputs) */
    size_t in_post[3], in_done[3];   /* inputs' receives */
    size_t up_post, up_done;         /* partial sums sent up */
    size_t dn_post, dn_done;         /* results received from above */
    size_t out_post[3], out_done[3]; /* results sent down */
} nt_prog;

typedef struct nt_state {
    int g, nodes, flows, hops;
    size_t slot_bytes;                        /* landing slot, the largest segment */
    coll_ntree_role role[COLL_NTREE_MAX_FLOWS];
    char *slot_base[COLL_NTREE_MAX_FLOWS];    /* flow f's role.nin x NT_DEPTH slots */
    nt_prog prog[COLL_NTREE_MAX_FLOWS];
    char *slots;                              /* all of them */
    MPI_Request *req;                         /* flows x S_COUNT x NT_DEPTH */
    MPI_Request *act;                         /* those in flight, gathered for MPI_Waitsome */
    int *at, *idx;                            /* where each came from; MPI_Waitsome's indices */
    MPI_Status *st;
} nt_state;

static void nt_teardown(ddl_ctx *ctx)
{
    nt_state *s = ctx->algo_state;
    if (!s) return;
    kern_buf_free(s->slots);
    free(s->req), free(s->act), free(s->at), free(s->idx), free(s->st), free(s);
    ctx->algo_state = NULL;
}

/* Local: the roles of this rank, its slots and request arrays; no communication. */
static int nt_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    nt_state *s = calloc(1, sizeof *s);
    size_t nslots = 0, nreq;
    (void)cfg;
    if (!s) return coll_fail(DDL_ERR_NOMEM, "nccl-tree: out of memory");
    ctx->algo_state = s;
    if (ctx->loc->device) return coll_fail(DDL_ERR_DEVICE, "nccl-tree: host buffers only (no device path yet)");
    s->g = ctx->ranks_per_node > 0 ? ctx->ranks_per_node : 1;
    s->nodes = ctx->size / s->g;
    s->flows = coll_ntree_flows(s->g);
    s->hops = coll_ntree_hops(s->g, s->nodes);
    s->slot_bytes = (ctx->segment_bytes < COLL_NTREE_SEG_MAX ? ctx->segment_bytes : COLL_NTREE_SEG_MAX) & ~(size_t)7;
    for (int f = 0; f < s->flows; f++) {
        coll_ntree_role_of(ctx->size, s->g, f, ctx->rank, &s->role[f]);
        nslots += (size_t)s->role[f].nin * NT_DEPTH;
    }
    nreq = (size_t)s->flows * S_COUNT * NT_DEPTH;
    s->slots = kern_buf_alloc(nslots * s->slot_bytes);
    s->req = malloc(nreq * sizeof *s->req);
    s->act = malloc(nreq * sizeof *s->act);
    s->at = malloc(nreq * sizeof *s->at);
    s->idx = malloc(nreq * sizeof *s->idx);
    s->st = malloc(nreq * sizeof *s->st);
    if (!s->slots || !s->req || !s->act || !s->at || !s->idx || !s->st)
        return coll_fail(DDL_ERR_NOMEM, "nccl-tree: no memory for %zu landing slots of %zu bytes", nslots,
                         s->slot_bytes);
    for (size_t i = 0; i < nreq; i++) s->req[i] = MPI_REQUEST_NULL;
    for (int f = 0, at = 0; f < s->flows; f++) {
        s->slot_base[f] = s->slots + (size_t)at * NT_DEPTH * s->slot_bytes;
        at += s->role[f].nin;
    }
    return 0;
}

static MPI_Request *nt_req(const nt_state *s, int f, int stream, size_t k)
{
    return &s->req[((size_t)f * S_COUNT + (size_t)stream) * NT_DEPTH + k % NT_DEPTH];
}

static char *nt_slot(const nt_state *s, int f, int j, size_t k)
{
    return s->slot_base[f] + ((size_t)j * NT_DEPTH + k % NT_DEPTH) * s->slot_bytes;
}

/* One flow's next moves: post what may be posted, reduce what has arrived, in order. Elements of a
 * segment k: [off + k·seg, ..) of the flow's len. */
static int nt_flow_step(ddl_ctx *ctx, nt_state *s, int f, const char *sb, char *rb, size_t seg, kern_dtype dt,
                        kern_op op)
{
    const coll_ntree_role *ro = &s->role[f];
    nt_prog *pg = &s->prog[f];
    const size_t es = kern_dtype_size(dt);
    const int tag = NT_TAG + 2 * f;
#define NT_AT(k) ((pg->off + (k) * seg) * es)
#define NT_LEN(k) (coll_piece_len(pg->len, seg, (k)) * es)
    for (int j = 0; j < ro->nin; j++)
        for (size_t k; (k = pg->in_post[j]) < pg->nseg && k < pg->red + NT_DEPTH; pg->in_post[j]++) {
            kern_posted();
            COLL_MPI(MPI_Irecv(nt_slot(s, f, j, k), (int)NT_LEN(k), MPI_BYTE, ro->in[j], tag, ctx->comm,
                               nt_req(s, f, S_IN + j, k)));
        }
    for (; pg->red < pg->nseg; pg->red++) {
        const size_t k = pg->red;
        const char *a = sb + NT_AT(k);
        int ready = 1;
        for (int j = 0; j < ro->nin; j++) ready &= pg->in_done[j] > k;
        if (!ready) break;
        for (int j = 0; j < ro->nin; j++, a = rb + NT_AT(k)) {
            kern_landed(NT_LEN(k));
            kern_reduce(dt, op, rb + NT_AT(k), a, nt_slot(s, f, j, k), NT_LEN(k) / es);
        }
    }
    const char *partial = ro->nin ? rb : sb;
    for (size_t k; ro->up >= 0 && (k = pg->up_post) < pg->red && k < pg->up_done + NT_DEPTH; pg->up_post++) {
        kern_posted();
        COLL_MPI(MPI_Isend(partial + NT_AT(k), (int)NT_LEN(k), MPI_BYTE, ro->up, tag, ctx->comm,
                           nt_req(s, f, S_UP, k)));
    }
    /* the result lands where the partial sum was sent from: only once that send is done */
    for (size_t k; ro->up >= 0 && (k = pg->dn_post) < pg->up_done && k < pg->dn_done + NT_DEPTH; pg->dn_post++) {
        kern_posted();
        COLL_MPI(MPI_Irecv(rb + NT_AT(k), (int)NT_LEN(k), MPI_BYTE, ro->up, tag + 1, ctx->comm,
                           nt_req(s, f, S_DOWN, k)));
    }
    const size_t have = ro->up >= 0 ? pg->dn_done : pg->red;
    for (int j = 0; j < ro->nout; j++)
        for (size_t k; (k = pg->out_post[j]) < have && k < pg->out_done[j] + NT_DEPTH; pg->out_post[j]++) {
            kern_posted();
            COLL_MPI(MPI_Isend(rb + NT_AT(k), (int)NT_LEN(k), MPI_BYTE, ro->out[j], tag + 1, ctx->comm,
                               nt_req(s, f, S_OUT + j, k)));
        }
#undef NT_AT
#undef NT_LEN
    return 0;
}

/* Completed requests (MPI_REQUEST_NULL now) advance each stream's count, in order. */
static void nt_advance_one(const nt_state *s, int f, int stream, size_t *done, size_t posted)
{
    while (*done < posted && *nt_req(s, f, stream, *done) == MPI_REQUEST_NULL) ++*done;
}

static int nt_flow_done(nt_state *s, int f, size_t seg, size_t es)
{
    const coll_ntree_role *ro = &s->role[f];
    nt_prog *pg = &s->prog[f];
    const size_t dn_before = pg->dn_done;
    int done;
    for (int j = 0; j < ro->nin; j++) nt_advance_one(s, f, S_IN + j, &pg->in_done[j], pg->in_post[j]);
    nt_advance_one(s, f, S_UP, &pg->up_done, pg->up_post);
    nt_advance_one(s, f, S_DOWN, &pg->dn_done, pg->dn_post);
    for (size_t k = dn_before; k < pg->dn_done; k++) kern_landed(coll_piece_len(pg->len, seg, k) * es);
    done = pg->red == pg->nseg && (ro->up < 0 || (pg->up_done == pg->nseg && pg->dn_done == pg->nseg));
    for (int j = 0; j < ro->nout; j++) {
        nt_advance_one(s, f, S_OUT + j, &pg->out_done[j], pg->out_post[j]);
        done &= pg->out_done[j] == pg->nseg;
    }
    return done;
}

/* Wait until some request completes: MPI_Waitsome, or MPI_Testsome and a pause (ctx->poll_us), over
 * the requests in flight gathered into one array (s->act; s->at: where each came from), so the MPI
 * library scans only those (SMPI's Waitsome costs per handle, null or not). */
static int nt_wait(const ddl_ctx *ctx, nt_state *s)
{
    int n = 0, got = 0, rc = 0;
    for (int i = 0; i < s->flows * S_COUNT * NT_DEPTH; i++)
        if (s->req[i] != MPI_REQUEST_NULL) s->at[n] = i, s->act[n++] = s->req[i];
    if (!n) return coll_fail(DDL_ERR_MPI, "nccl-tree: nothing in flight and not done");
    for (;;) {
        int mrc = ctx->poll_us <= 0 ? MPI_Waitsome(n, s->act, &got, s->idx, s->st)
                                    : MPI_Testsome(n, s->act, &got, s->idx, s->st);
        if (mrc != MPI_SUCCESS) rc = coll_mpi_fail(mrc, "MPI_Waitsome (nccl-tree)");
        if (rc || got != 0) break;
        kern_poll_pause(ctx->poll_us);
    }
    for (int j = 0; j < n; j++) s->req[s->at[j]] = s->act[j]; /* completed ones are MPI_REQUEST_NULL now */
    return rc;
}

static void nt_abandon(nt_state *s)
{
    for (int i = 0; i < s->flows * S_COUNT * NT_DEPTH; i++) {
        if (s->req[i] == MPI_REQUEST_NULL) continue;
        if ((i / NT_DEPTH) % S_COUNT < S_OUT && (i / NT_DEPTH) % S_COUNT != S_UP) MPI_Cancel(&s->req[i]);
        MPI_Request_free(&s->req[i]);
    }
}

static int allreduce_nccl_tree(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                               kern_op op)
{
    nt_state *s = ctx->algo_state;
    const size_t es = kern_dtype_size(dt);
    const double flow_bytes = (double)count * (double)es / s->flows;
    size_t seg = coll_ntree_segment(flow_bytes, s->hops, s->slot_bytes) / es;
    int rc = 0, all = 0;

    if (ctx->size == 1) return coll_copy(ctx, rbuf, sbuf, count * es);
    if (seg < 1) seg = 1;
    for (int f = 0; f < s->flows; f++) {
        nt_prog *pg = &s->prog[f];
        *pg = (nt_prog){ .off = coll_block_off(count, s->flows, f), .len = coll_block_len(count, s->flows, f) };
        pg->nseg = coll_pieces(pg->len, seg);
    }
    /* completions counted, then every move they allow, then (unless done) wait for the next */
    for (int pass = 0; !rc; pass ^= 1) {
        all = 1;
        for (int f = 0; f < s->flows; f++) all &= nt_flow_done(s, f, seg, es);
        if (all) break;
        if (pass == 0) {
            for (int f = 0; !rc && f < s->flows; f++) rc = nt_flow_step(ctx, s, f, sbuf, rbuf, seg, dt, op);
        } else {
            rc = nt_wait(ctx, s);
        }
    }
    if (rc) nt_abandon(s);
    return rc;
}

static int nt_describe(const ddl_ctx *ctx, char *buf, size_t len)
{
    const nt_state *s = ctx->algo_state;
    snprintf(buf, len, " flows=%d (%d channels x 2 trees) nodes=%d hops=%d", s->flows, s->flows / 2, s->nodes,
             s->hops);
    return 0;
}

int coll_nccl_tree_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);

const coll_algo coll_algo_nccl_tree = {
    .name = "nccl-tree",
    .help = "NCCL's double binary tree: a chain in each node, two complementary trees across nodes, pipelined",
    .flags = DDL_ALGO_AUTO,
    .run = allreduce_nccl_tree,
    .setup = nt_setup,
    .teardown = nt_teardown,
    .describe = nt_describe,
    .cost = coll_nccl_tree_cost,
};
