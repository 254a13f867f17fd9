/* ddl.h — the public API of libddl: topology-aware allreduce, reduce-scatter and allgather on MPI
 * point-to-point.
 *
 *   ddl_config cfg = DDL_CONFIG_INIT;          // or set fields: algo, grid, patterns, ...
 *   cfg.algo = "ddl";                           // mpi | ring | rhd | ddl | auto (ddl_algo_name(i))
 *   ddl_ctx *ctx;
 *   if (ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx)) die(ddl_last_error());
 *   ddl_allreduce(ctx, grads, grads, n, DDL_FLOAT32, DDL_SUM);   // sendbuf may be DDL_IN_PLACE
 *   ddl_reduce_scatter(ctx, grads, shard, n / p, DDL_FLOAT32, DDL_SUM); // and ddl_allgather
 *   ddl_ctx_free(ctx);
 *
 * A context is made once (it duplicates the communicator, builds the grid's sub-communicators and
 * its scratch); ddl_allreduce then allocates nothing. Every function returns 0 or a DDL_ERR_* code;
 * ddl_last_error() gives the message of the most recent failure in the calling thread. A context is
 * used by one thread at a time.
 */
#ifndef DDL_H
#define DDL_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DDL_FLOAT32, DDL_FLOAT64, DDL_FLOAT16, DDL_BFLOAT16, DDL_INT32, DDL_DTYPE_COUNT } ddl_dtype;
typedef enum { DDL_SUM, DDL_MAX, DDL_MIN, DDL_OP_COUNT } ddl_op;

enum {
    DDL_OK = 0,
    DDL_ERR_ARG,      /* a bad argument: null buffer, unknown type or op, bad config value */
    DDL_ERR_ALGO,     /* unknown algorithm name */
    DDL_ERR_GRID,     /* the grid does not match the communicator or cannot be parsed */
    DDL_ERR_TOPO,     /* ranks are not placed node-major, or ranks per node does not divide */
    DDL_ERR_NOMEM,    /* allocation failed */
    DDL_ERR_MPI,      /* an MPI call failed */
    DDL_ERR_DEVICE,   /* device buffers: no CUDA in this build, no device, or a CUDA call failed */
    DDL_ERR_COUNT_
};

/* Only the functions below leave libddl (built with -fvisibility=hidden and sealed: see Makefile). */
#if defined(__GNUC__)
#define DDL_API __attribute__((visibility("default")))
#else
#define DDL_API
#endif

#define DDL_IN_PLACE ((const void *)MPI_IN_PLACE)
#define DDL_MAX_DIMS 8

/* A cost model for the "auto" algorithm: predicted seconds of one allreduce of `bytes` by `algo`
 * (an algorithm with DDL_ALGO_AUTO; for those with DDL_ALGO_GRID a `grid` like "4x8x8" and
 * per-dimension `patterns` like "ring,rhd,ring"), or a negative value when it cannot say.
 * ddl_machine_cost (below) is one, over the library's own alpha-beta-gamma model. */
typedef double (*ddl_cost_fn)(void *arg, const char *algo, const char *grid, const char *patterns,
                              size_t bytes);

/* The default net_segment_bytes for host buffers (below): under Open MPI's TCP eager limit. */
#define DDL_NET_SEGMENT_DEFAULT (63u * 1024u)

typedef struct ddl_config {
    const char *algo;        /* registered name; NULL or "" = "ddl" */
    const char *grid;        /* "4x16x4" (product = ranks); NULL = derived (ranks per node x nodes) */
    const char *patterns;    /* per-dimension "ring,rhd,..."; NULL = ring everywhere */
    int ranks_per_node;      /* 0 = detect (MPI_COMM_TYPE_SHARED), or env DDL_RANKS_PER_NODE */
    size_t segment_bytes;    /* pipeline segment; 0 = default (env DDL_SEGMENT_BYTES; 256 KiB for
                                host buffers, 4 MiB for device buffers); the smallest of all ranks' */
    int poll_us;             /* 0 = block in MPI_Wait (env DDL_POLL_US); n = test every n us, sleeping
                                between: for a communication thread on cores shared with compute */
    ddl_cost_fn cost;        /* auto: model choosing the algorithm per size; NULL = built-in rule */
    void *cost_arg;          /* passed to cost */
    int device;              /* 0: buffers are host memory; 1: CUDA device memory of the calling
                                thread's current device (moved by CUDA-aware MPI or staged through
                                pinned host buffers; see docs/GPU.md) */
    int pipeline_depth;      /* segments in flight each way; 0 = default (env DDL_PIPELINE_DEPTH;
                                2 for host buffers, 4 for device buffers; at most 8) */
    size_t net_segment_bytes; /* segment of the steps whose peer is on another node (MPI_COMM_TYPE_SHARED),
                                reducing and plain; 0 = default (env DDL_NET_SEGMENT_BYTES; 63 KiB for
                                host buffers: under Open MPI's TCP eager limit, docs/BENCHMARKS.md;
                                off = one size everywhere, for device buffers and under simulation);
                                at most segment_bytes; the smallest of all ranks' */
    const struct ddl_machine *machine; /* the links (below: alpha and beta inside and between nodes), or
                                NULL: sizes the default segment and depth from their bandwidth-delay
                                product (a power of two >= 2 x latency x bandwidth, 256 KiB .. 16 MiB
                                for host buffers; depth to cover it), where segment_bytes, pipeline_depth
                                and their env variables leave them unset; NULL = the fixed defaults */
} ddl_config;

#define DDL_CONFIG_INIT { NULL, NULL, NULL, 0, 0, 0, NULL, NULL, 0, 0, 0, NULL }

typedef struct ddl_ctx ddl_ctx;

/* Collective over comm. A failure on any rank fails it on every rank, none left waiting: the rank that
 * failed keeps its message, the others get "rank R failed: <R's message>" and R's code. */
DDL_API int ddl_ctx_create(MPI_Comm comm, const ddl_config *cfg, ddl_ctx **out);
DDL_API int ddl_allreduce(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t count, ddl_dtype dtype,
                  ddl_op op);
DDL_API void ddl_ctx_free(ddl_ctx *ctx);

/* The two halves of an allreduce, with equal blocks: the form FSDP, ZeRO and NCCL use
 * (MPI_Reduce_scatter_block and MPI_Allgather; MPI_Reduce_scatter's unequal counts are not offered).
 * p = the communicator's size; rank i's block is elements [i·count, (i+1)·count) of the whole.
 *   ddl_reduce_scatter: sendbuf holds p·recvcount elements; rank i receives block i reduced over all
 *     ranks, recvcount elements in recvbuf. DDL_IN_PLACE as sendbuf (MPI 3.1 §5.10.1): the input is
 *     taken from recvbuf, which then holds p·recvcount elements; the result is its first recvcount
 *     elements and the rest of recvbuf is left undefined.
 *   ddl_allgather: sendbuf holds sendcount elements; recvbuf receives every rank's, p·sendcount,
 *     rank i's at recvbuf + i·sendcount. DDL_IN_PLACE as sendbuf (MPI 3.1 §5.7): rank i's
 *     contribution is already at recvbuf + i·sendcount.
 * An algorithm without them (ddl_algo_flags lacks DDL_ALGO_RSAG) returns DDL_ERR_ALGO. Out-of-place
 * reduce-scatter by ring, rhd and ddl works in a buffer of p·recvcount elements that the context
 * makes on the first call that needs it (grown when a larger one comes) and keeps; in place needs none. */
DDL_API int ddl_reduce_scatter(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t recvcount,
                               ddl_dtype dtype, ddl_op op);
DDL_API int ddl_allgather(ddl_ctx *ctx, const void *sendbuf, void *recvbuf, size_t sendcount, ddl_dtype dtype);

/* What the context resolved to: algorithm, grid ("4x2", patterns "ring,rhd"), ranks per node. */
DDL_API const char *ddl_ctx_algo(const ddl_ctx *ctx);
DDL_API int ddl_ctx_describe(const ddl_ctx *ctx, char *buf, size_t len);

DDL_API const char *ddl_strerror(int code);
DDL_API const char *ddl_last_error(void);

/* The registry: algorithms i in [0, ddl_algo_count()), in a fixed order. */
DDL_API int ddl_algo_count(void);
DDL_API const char *ddl_algo_name(int i);
DDL_API const char *ddl_algo_help(int i);
DDL_API int ddl_algo_find(const char *name); /* its index, or -1 */
enum {
    DDL_ALGO_GRID = 1,  /* takes ddl_config.grid and .patterns */
    DDL_ALGO_AUTO = 2,  /* "auto" may choose it */
    DDL_ALGO_COST = 4,  /* has an alpha-beta-gamma cost model (ddl_algo_cost) */
    DDL_ALGO_RSAG = 8   /* has ddl_reduce_scatter and ddl_allgather */
};
DDL_API unsigned ddl_algo_flags(int i);      /* DDL_ALGO_* bits; 0 out of range */

/* The machine of the alpha-beta-gamma cost model. Ranks are placed node-major, ranks_per_node on
 * each node. A message inside a node costs intra_lat + bytes/intra_bw. One between nodes costs
 * inter_lat + bytes * max(1/intra_bw, k/nic_bw), k being the ranks of the sender's node sending
 * off-node in that step at once (they share the node's NIC), and likewise the receiver's. A step
 * lasts as long as its slowest message; gamma is paid per byte reduced. Segment pipelining inside a
 * step is not modelled.
 * Optional today's-cluster fields (all 0: the two-level machine above, every figure unchanged):
 *   sockets = 2: a node's ranks in two halves joined by one link of socket_bw per direction (the
 *     Minsky's X-bus, DGX-1's cross-quad NVLinks), latency socket_lat (0 = intra_lat);
 *   nics > 1: the node's NICs, nic_bw/nics each; NIC j is the rail of ranks_per_node/nics
 *     consecutive ranks, and a message uses its sender's and its receiver's rail NIC;
 *   leaf_nodes > 0: a two-level fat tree, leaf switches of leaf_nodes nodes (rail_leaves = 1: one
 *     leaf per rail for each such group, so a message between rails crosses the spine), each leaf's
 *     uplink carrying its NICs' bandwidth / oversub (0 = 1), latency spine_lat (0 = inter_lat)
 *     across the spine;
 *   nvlinks: the node's GPUs joined pair by pair (no switch), sockets then 1. */
typedef struct ddl_machine {
    int ranks;               /* p */
    int ranks_per_node;      /* divides ranks; 1 = one rank per node */
    double intra_lat;        /* s, rank to rank inside a node */
    double intra_bw;         /* bytes/s per direction of one rank's link inside its node */
    double inter_lat;        /* s, rank to rank on different nodes */
    double nic_bw;           /* bytes/s per direction of one node's NIC(s), all together */
    double gamma;            /* s per byte reduced; 0 = free */
    int sockets;             /* 0 or 1: one crossbar; 2: two halves over socket_bw */
    double socket_bw;        /* bytes/s per direction between the halves (sockets = 2) */
    double socket_lat;       /* s, rank to rank across the halves; 0 = intra_lat */
    int nics;                /* NICs (rails) per node, dividing ranks_per_node; 0 = 1 */
    int leaf_nodes;          /* nodes per leaf switch; 0 = one non-blocking switch */
    int rail_leaves;         /* 1: a leaf per rail per group of leaf_nodes nodes */
    double oversub;          /* leaf uplink oversubscription, >= 1; 0 = 1 */
    double spine_lat;        /* s, rank to rank across the spine; 0 = inter_lat */
    const unsigned char *nvlinks; /* NULL, or direct links inside a node: ranks_per_node x ranks_per_node
                                     counts, row-major (DGX-1's cube-mesh): a linked pair moves at
                                     count x nvlink_bw per direction, shared by that pair's messages;
                                     an unlinked one through the host at host_bw (a path per pair),
                                     latency host_lat */
    double nvlink_bw, host_bw, host_lat;
    double nvls_bw;          /* bytes/s per direction of a rank's link when the node's switch reduces and
                                multicasts (NVLink SHARP); 0 = no reducing switch in the node */
    double sharp_bw;         /* bytes/s per direction of a rail NIC when the fabric's switches reduce
                                (InfiniBand SHARP); 0 = none */
} ddl_machine;

/* Predicted seconds of one allreduce of `bytes` by a registered algorithm on machine m; grid and
 * patterns as in ddl_config (used by algorithms with DDL_ALGO_GRID; NULL grid = derived from
 * ranks_per_node, as ddl_ctx_create derives it). Returns 0, DDL_ERR_ALGO (unknown, or no cost
 * model; "auto" is priced as what it picks, ddl_auto_choose), DDL_ERR_GRID, DDL_ERR_ARG (a bad machine or bytes) or
 * DDL_ERR_NOMEM. */
DDL_API int ddl_algo_cost(const char *algo, const char *grid, const char *patterns, const ddl_machine *m,
                          double bytes, double *seconds);
/* What "auto" runs for one allreduce of `bytes` on machine m when its cost model is the library's own
 * (ddl_machine_cost): the candidate it keeps for the size class of `bytes` (the power of two nearest
 * it, 1 KiB .. 1 GiB). grid and patterns are "" for algorithms without DDL_ALGO_GRID. The one place
 * a harness, a model or a framework asks what auto would pick; ddl_algo_cost("auto", ...) prices that
 * choice at `bytes`. Returns 0, DDL_ERR_ARG (bad machine or bytes), DDL_ERR_NOMEM or DDL_ERR_ALGO. */
typedef struct ddl_choice {
    char algo[32];           /* registered name */
    char grid[48];           /* "4x16", or "" */
    char patterns[48];       /* "ring,rhd", or "" */
} ddl_choice;
DDL_API int ddl_auto_choose(const ddl_machine *m, double bytes, ddl_choice *out);
/* A ddl_cost_fn over ddl_algo_cost, for ddl_config.cost with cost_arg a const ddl_machine *. */
DDL_API double ddl_machine_cost(void *machine, const char *algo, const char *grid, const char *patterns,
                                 size_t bytes);

DDL_API size_t ddl_dtype_size(ddl_dtype dtype);
DDL_API const char *ddl_dtype_name(ddl_dtype dtype);
DDL_API const char *ddl_op_name(ddl_op op);
DDL_API int ddl_dtype_parse(const char *s, ddl_dtype *out);
DDL_API int ddl_op_parse(const char *s, ddl_op *out);

#ifdef __cplusplus
}
#endif
#endif
