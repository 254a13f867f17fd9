/* nodes.c — which peers are on another node, so that a step can pick its transport's message size.
 *
 * Over Open MPI's TCP transport a message above the eager limit (64 KiB) is a rendezvous: its first
 * fragment, then the receiver's acknowledgement, then the rest. In an exchange both directions run at
 * once, and the acknowledgement one rank owes its peer waits in the same TCP connection behind the
 * bulk data it is already sending: a 16 MiB exchange at 500 Mbit/s took twice its link time, and
 * 256 KiB segments 1.4 times (docs/BENCHMARKS.md, "Segments across nodes"). Steps whose peer is on
 * another node therefore use ctx->net_bytes, every message eager; steps inside a node keep the
 * segment (reducing) and whole messages (plain), which shared memory moves fastest.
 *
 * The node of a rank is the lowest ctx->comm rank that shares memory with it (MPI_COMM_TYPE_SHARED):
 * the real transport, not DDL_RANKS_PER_NODE, which may emulate nodes on one machine. A map is an
 * array of the communicator's size; ddl adds one per dimension communicator. Under SMPI the maps are
 * never made (net_bytes is 0 there: the simulated network has no rendezvous to queue). */
#include "coll.h"

#include <stdlib.h>

static int gather_map(ddl_ctx *ctx, MPI_Comm comm, int **out)
{
    int n = 0, rc = 0;
    int *map = NULL;
    if (MPI_Comm_size(comm, &n) != MPI_SUCCESS) rc = coll_fail(DDL_ERR_MPI, "MPI_Comm_size (node map)");
    else if (!(map = malloc((size_t)n * sizeof *map))) rc = coll_fail(DDL_ERR_NOMEM, "node map: out of memory");
    if ((rc = coll_agree(comm, rc))) goto fail;
    if (MPI_Allgather(&ctx->my_node, 1, MPI_INT, map, 1, MPI_INT, comm) != MPI_SUCCESS) {
        rc = coll_fail(DDL_ERR_MPI, "MPI_Allgather (node map) failed");
        goto fail;
    }
    *out = map;
    return 0;
fail:
    free(map);
    return rc;
}

/* Test hook: DDL_TEST_NODE_RANKS=K places ranks K apart on different nodes for this choice only, so
 * that the tests can cut messages both ways on one machine. */
int coll_nodes_init(ddl_ctx *ctx)
{
    MPI_Comm node = MPI_COMM_NULL;
    int lo[2], hi[2], rc;
    long k = 0;
    rc = coll_env_long("DDL_TEST_NODE_RANKS", 1, 1 << 20, &k);
    if ((rc = coll_agree(ctx->comm, rc))) return rc;
    if (k) {
        ctx->my_node = ctx->rank / (int)k * (int)k;
    } else {
        COLL_MPI(MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &node));
        rc = MPI_Allreduce(&ctx->rank, &ctx->my_node, 1, MPI_INT, MPI_MIN, node) == MPI_SUCCESS
                 ? 0 : coll_fail(DDL_ERR_MPI, "MPI_Allreduce on the node communicator failed");
        MPI_Comm_free(&node);
        if ((rc = coll_agree(ctx->comm, rc))) return rc;
    }
    lo[0] = ctx->my_node; /* one node for all: no map, every peer local */
    lo[1] = -ctx->my_node;
    COLL_MPI(MPI_Allreduce(lo, hi, 2, MPI_INT, MPI_MAX, ctx->comm));
    if (hi[0] == -hi[1]) return 0;
    ctx->nodes[0].comm = ctx->comm;
    if ((rc = gather_map(ctx, ctx->comm, &ctx->nodes[0].node))) return rc;
    ctx->nnodes = 1;
    return 0;
}

int coll_nodes_add(ddl_ctx *ctx, MPI_Comm sub)
{
    int rc;
    if (!ctx->nnodes) return 0; /* one node (or no map wanted): nothing is remote */
    if (ctx->nnodes > DDL_MAX_DIMS) return coll_fail(DDL_ERR_ARG, "node maps: more than %d", 1 + DDL_MAX_DIMS);
    if ((rc = gather_map(ctx, sub, &ctx->nodes[ctx->nnodes].node))) return rc;
    ctx->nodes[ctx->nnodes++].comm = sub;
    return 0;
}

void coll_nodes_free(ddl_ctx *ctx)
{
    for (int i = 0; i < ctx->nnodes; i++) free(ctx->nodes[i].node);
    ctx->nnodes = 0;
}

int coll_remote(const ddl_ctx *ctx, MPI_Comm comm, int peer)
{
    if (peer < 0) return 0; /* MPI_PROC_NULL */
    for (int i = 0; i < ctx->nnodes; i++)
        if (ctx->nodes[i].comm == comm) return ctx->nodes[i].node[peer] != ctx->my_node;
    return 0;
}
