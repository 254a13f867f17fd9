/* coll.h — internals shared by the collectives: the context and its buffer location (a policy:
 * host, cuda-aware or staged), the registry row, the primitives (one segment pipeline; ring and
 * halving-doubling reduce-scatter/allgather on it), the public reduce-scatter and allgather's
 * buffer helpers (rsag.c), and the error recorder and agreement. */
#ifndef COLL_H
#define COLL_H

#include "ddl.h"
#include "reduce.h"

#include <limits.h>

#define COLL_DEFAULT_SEGMENT (256u * 1024u) /* host buffers, bytes; see docs/BENCHMARKS.md for the sweep */
#define COLL_DEVICE_SEGMENT (4u << 20)      /* device buffers; docs/GPU.md says where it comes from */
#define COLL_NET_SEGMENT DDL_NET_SEGMENT_DEFAULT /* host buffers, a peer on another node: every message under
                                               Open MPI's TCP eager limit (64 KiB with its header), so no
                                               rendezvous handshake waits behind bulk data; measured in
                                               docs/BENCHMARKS.md ("Segments across nodes") */
#define COLL_MAX_SEGMENT (1u << 30)
#define COLL_MAX_DEPTH 8                    /* segments in flight, at most */
#define COLL_CHUNK ((size_t)1 << 30)        /* bytes: the largest message MPI is given (an int count) */

enum { COLL_PAT_RING, COLL_PAT_RHD, COLL_PAT_COUNT };
/* The cost model's nearest-first halving-doubling (the rhd row on multi-rank nodes); not a ddl pattern. */
#define COLL_PAT_RHD_NEAR COLL_PAT_COUNT

typedef struct coll_loc coll_loc;

struct ddl_ctx {
    MPI_Comm comm;                    /* duplicate of the caller's communicator */
    int rank, size;                   /* in comm */
    int algo;                         /* registry index */
    int ranks_per_node;               /* resolved (detected or overridden) */
    int ndims;                        /* grid dimensions (ddl) */
    int dims[DDL_MAX_DIMS];           /* d1 (ranks in a node) ... dk */
    int coords[DDL_MAX_DIMS];         /* this rank's coordinate per dimension */
    int patterns[DDL_MAX_DIMS];       /* COLL_PAT_* per dimension */
    MPI_Comm dim_comm[DDL_MAX_DIMS];  /* ranks that differ only in that dimension */
    size_t segment_bytes;             /* pipeline segment of the reducing steps, equal on every rank */
    size_t plain_bytes;               /* message size of the plain steps, equal on every rank: COLL_CHUNK
                                         when every rank's MPI moves its buffers, else segment_bytes */
    size_t split_bytes;               /* the location's default segment: a reducing step's message of
                                         at most one segment but at least twice this is cut in two
                                         (exchange.c): only segments larger than the default (from the
                                         links, or configured) do so; 0 = never */
    size_t net_bytes;                 /* message size of every step to or from a peer on another node,
                                         equal on every rank, <= segment_bytes; 0: no such distinction */
    int nnodes;                       /* communicators with a node map (nodes.c): 0 = every peer local */
    struct coll_nodes {
        MPI_Comm comm;                /* ctx->comm first, then ddl's dimension communicators */
        int *node;                    /* node of each of its ranks (lowest ctx->comm rank on the node) */
    } nodes[1 + DDL_MAX_DIMS];
    int my_node;                      /* this rank's node, as in the maps */
    int whole_rpn;                    /* while the simulated `mpi` runs (allreduce_mpi_sim.c): ranks per
                                         node of ctx->comm, whose messages between nodes go whole, as
                                         MPI's own collectives send them (exchange.c charges
                                         kern_whole_message); 0 otherwise */
    int depth;                        /* segments in flight per direction (pipeline depth) */
    int poll_us;                      /* 0: block in MPI_Wait; else test, sleeping this long between */
    const coll_loc *loc;              /* where the buffers live: location.c (host), device.c */
    void *scratch;                    /* host location: depth landing slots of segment_bytes */
    struct coll_dev *dev;             /* device locations' streams, events and buffers (device.c) */
    MPI_Datatype half_type[2];        /* float16, bfloat16 as 2-byte types (mpi algorithm) */
    MPI_Op half_op[2][DDL_OP_COUNT];  /* user ops reducing them */
    void *algo_state;                 /* owned by the algorithm's setup/teardown */
    void *work;                       /* out-of-place reduce-scatter's work area (rsag.c), or NULL */
    size_t work_bytes;                /* its size: grown on demand, kept until ddl_ctx_free */
};

/* One received segment, handed to the location once MPI has delivered it. */
typedef struct coll_seg {
    int slot;                 /* k % depth: the landing slot it used */
    void *dst;                /* where its result goes */
    const void *a;            /* reduce: the other operand (dst = a op received); NULL: plain copy */
    void *landed;             /* where MPI wrote it (land) */
    size_t bytes;
} coll_seg;

/* A buffer location: a policy chosen once in ddl_ctx_create (as Gloo's workspace template parameter)
 * that the one pipeline (exchange.c) and the q = 1 copy go through, so no algorithm can take a host
 * path with device memory. Every function returns 0 or a DDL_ERR_* code (recorded by coll_fail). */
struct coll_loc {
    const char *name;         /* "host" | "cuda-aware" | "staged" (ddl_ctx_describe) */
    int device;               /* the buffers are CUDA device memory */
    int lag;                  /* 1: stage and consume return before the copies are done, so a slot is
                                 reused one segment later than on the host */
    int mpi_moves;            /* MPI may send and receive the user's buffers as they are */
    int mpi_user_ops;         /* MPI's user-defined ops (float16, bfloat16) may reduce them */
    int default_depth;        /* segments in flight unless configured */
    size_t default_segment;   /* bytes, unless configured */
    size_t default_net_segment; /* bytes to and from other nodes, unless configured; 0 = off */
    int (*alloc)(ddl_ctx *ctx);            /* buffers for depth segments (collective agreement after) */
    void (*release)(ddl_ctx *ctx);         /* what choose and alloc made; safe after a partial alloc */
    int (*enter)(ddl_ctx *ctx);            /* before a step, on the calling thread (select the device) */
    /* send: start making src MPI-visible in slot, then wait for it and give the pointer MPI sends */
    int (*stage)(ddl_ctx *ctx, int slot, const void *src, size_t bytes);
    int (*sendable)(ddl_ctx *ctx, int slot, const void *src, const void **mpi);
    /* receive: where MPI writes into slot (waiting until the slot's last use is done), then what
     * happens to the arrived segment: reduced into dst, or copied to dst unless it landed there */
    int (*land)(ddl_ctx *ctx, int slot, int reduce, void *dst, void **mpi);
    int (*consume)(ddl_ctx *ctx, const coll_seg *seg, kern_dtype dt, kern_op op);
    int (*finish)(ddl_ctx *ctx);           /* after a step: every result is in place */
    int (*copy)(ddl_ctx *ctx, void *dst, const void *src, size_t bytes); /* complete on return */
    void *(*bounce)(ddl_ctx *ctx, size_t *bytes); /* host buffer for MPI_Allreduce staging, or NULL */
    int (*work_alloc)(ddl_ctx *ctx, void **p, size_t bytes); /* memory like the caller's buffers */
    void (*work_free)(ddl_ctx *ctx, void *p);
};

extern const coll_loc coll_loc_host;                       /* location.c */
extern const coll_loc coll_loc_aware, coll_loc_staged;     /* device.c */
/* 1 in the SMPI build of the library, 0 in the real ones: answered by the flavour's `mpi` entry
 * (allreduce_mpi_sim.c, allreduce_mpi.c), the library's twin of kern_simulated() (compute.h). */
int coll_simulated(void);

/* Choose ctx->loc for cfg->device (local: no allocation, no communication). */
int coll_loc_choose(ddl_ctx *ctx, const ddl_config *cfg);
int coll_dev_choose(ddl_ctx *ctx);  /* device.c: cuda-aware or staged, and the device; release frees */
/* The q = 1 step and any whole-buffer copy: dst = src through the location (nothing if equal). */
int coll_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes);

/* Cutting `total` into pieces of at most `piece` (segments; messages under INT_MAX): how many, and
 * the length of piece k. The sender and the receiver cut the same total the same way. */
static inline size_t coll_pieces(size_t total, size_t piece) { return (total + piece - 1) / piece; }
static inline size_t coll_piece_len(size_t total, size_t piece, size_t k)
{
    size_t off = k * piece;
    return total - off < piece ? total - off : piece;
}

typedef int (*coll_run_fn)(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                           kern_op op);
/* Reduce-scatter: sbuf holds p·count elements (sbuf == rbuf: in place, the input in rbuf), rank's
 * block reduced goes to rbuf. Allgather: sbuf holds count elements (sbuf == rbuf + rank·count:
 * in place), rbuf gets p·count. ddl_reduce_scatter and ddl_allgather (rsag.c) check the arguments,
 * turn DDL_IN_PLACE into these forms and do p = 1 themselves. */
typedef int (*coll_rs_fn)(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, kern_op op);
typedef int (*coll_ag_fn)(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt);
typedef int (*coll_setup_fn)(ddl_ctx *ctx, const ddl_config *cfg);
typedef void (*coll_teardown_fn)(ddl_ctx *ctx);
/* Appends what setup resolved (" grid=4:ringx2:rhd") to ddl_ctx_describe's line; 0 or DDL_ERR_*. */
typedef int (*coll_describe_fn)(const ddl_ctx *ctx, char *buf, size_t len);

/* A configuration for the cost model and for auto: the grid and per-dimension patterns
 * (COLL_PAT_*) of an algorithm with DDL_ALGO_GRID; ndims = 0 for the others. */
typedef struct coll_shape {
    int ndims;
    int dims[DDL_MAX_DIMS];
    int patterns[DDL_MAX_DIMS];
} coll_shape;
/* Seconds of one allreduce of `bytes` on machine m (validated by ddl_algo_cost); 0 or DDL_ERR_*. */
typedef int (*coll_cost_fn)(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);
/* The configurations auto may try on p ranks, rpn per node (0 = not node-major): writes up to max
 * shapes, returns how many. NULL in a row with DDL_ALGO_AUTO = the one plain configuration. */
typedef int (*coll_candidates_fn)(int p, int rpn, coll_shape *out, int max);
/* The grid and patterns an algorithm with DDL_ALGO_GRID takes when none is given, on p ranks, rpn per
 * node (0 = not node-major). NULL in a row = coll_grid_derive's grid, ring on every dimension. */
typedef void (*coll_derive_fn)(int p, int rpn, coll_shape *sh);

/* One registry row: everything about an algorithm. Each algorithm file defines its row
 * (`const coll_algo coll_algo_ring = { ... }`); registry.c's table lists them in order. */
/* coll_algo.flags, not public: "auto" considers the row only on a machine whose switches reduce (nvls_bw or
 * sharp_bw), and only where that machine is the one it runs on: its model (ddl_auto_choose) or a simulation
 * (coll_simulated: the switches' traffic is simulated; a real run's ranks would only stand in for them). */
#define COLL_ALGO_SWITCH 0x100u

typedef struct coll_algo {
    const char *name;               /* CLI and API name */
    const char *help;               /* one line */
    unsigned flags;                 /* DDL_ALGO_GRID | DDL_ALGO_AUTO (ddl.h) | COLL_ALGO_SWITCH; COST: cost set */
    coll_run_fn run;                /* the allreduce */
    coll_setup_fn setup;            /* optional: build what run needs (NULL = nothing) */
    coll_teardown_fn teardown;      /* optional */
    coll_describe_fn describe;      /* optional */
    coll_cost_fn cost;              /* optional: the alpha-beta-gamma model (NULL = none) */
    coll_candidates_fn candidates;  /* optional, see coll_candidates_fn */
    coll_rs_fn reduce_scatter;      /* optional: without it ddl_reduce_scatter is DDL_ERR_ALGO */
    coll_ag_fn allgather;           /* optional: likewise ddl_allgather */
    coll_derive_fn derive;          /* optional, see coll_derive_fn */
} coll_algo;

const coll_algo *coll_algo_get(int i);
int coll_algo_find(const char *name);

/* Errors (errors.c): set the thread's last message and return the code. */
int coll_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int coll_mpi_fail(int mpi_rc, const char *what);
#define COLL_MPI(call)                                          \
    do {                                                        \
        int mpi_rc_ = (call);                                   \
        if (mpi_rc_ != MPI_SUCCESS) return coll_mpi_fail(mpi_rc_, #call); \
    } while (0)
/* Agreement before a collective step (errors.c), collective over comm: every rank passes its local
 * status; all return 0, or all return an error: a rank that failed keeps its code and message, the
 * others get the lowest failing rank's code and "rank R failed: <its message>". */
int coll_agree(MPI_Comm comm, int rc);
/* Collective: 0 when every rank passes the same value, else DDL_ERR_ARG on all, naming `what`. */
int coll_agree_same(MPI_Comm comm, long value, const char *what);
/* Test hook: DDL_TEST_FAIL="POINT:RANK" makes rank RANK of comm fail at POINT (alloc, topology or
 * setup) with code; 0 elsewhere. A malformed value is DDL_ERR_ARG. */
int coll_test_fail(MPI_Comm comm, const char *point, int code);

/* An integer environment variable in [min, max] (topology.c); *out = 0 when unset or empty; a bad
 * value is DDL_ERR_ARG naming it. */
int coll_env_long(const char *name, long min, long max, long *out);

/* Node maps (nodes.c), made only when ctx->net_bytes is set. coll_nodes_init: collective over
 * ctx->comm, the node of every rank from MPI_COMM_TYPE_SHARED (the real transport, whatever
 * DDL_RANKS_PER_NODE says); one node: no map. coll_nodes_add: collective over sub, a map for it.
 * coll_nodes_free: both. coll_remote: peer (a rank of comm) is on another node; 0 for
 * MPI_PROC_NULL and for communicators without a map. */
int coll_nodes_init(ddl_ctx *ctx);
int coll_nodes_add(ddl_ctx *ctx, MPI_Comm sub);
void coll_nodes_free(ddl_ctx *ctx);
int coll_remote(const ddl_ctx *ctx, MPI_Comm comm, int peer);

/* Wait for n requests, by MPI_Waitall or by polling (ctx->poll_us). */
int coll_waitall(const ddl_ctx *ctx, int n, MPI_Request *reqs);

/* Primitives (exchange.c): one segment pipeline through ctx->loc. Counts are elements of dt;
 * pointers are byte addresses. dest or source may be MPI_PROC_NULL (a one-sided step). */
int coll_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                         int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op);
int coll_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source, void *rptr,
                  size_t rbytes);

/* Reduce-scatter / allgather over the q ranks of comm (this rank = v) on n elements: afterwards v
 * holds block v (partition.h) reduced, in dst. src is read for this rank's contribution. */
int coll_ring_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, const void *src, void *dst,
                             size_t n, kern_dtype dt, kern_op op);
int coll_ring_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, void *buf, size_t n, size_t esize);
/* Halving-doubling for q a power of two; peers are real(v') = coll_fold_real(v', fold_r). near = 0:
 * farthest partner first (v ^ q/2 first), v ends with block v; near = 1: nearest first (v ^ 1
 * first), v ends with block coll_rhd_range(q, v, 1, lg q) (v's lg q bits reversed; partition.h). */
int coll_halving_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near,
                                const void *src, void *dst, size_t n, kern_dtype dt, kern_op op);
int coll_doubling_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near, void *buf,
                            size_t n, size_t esize);

/* Reduce-scatter and allgather with the caller's equal blocks (rsag.c). coll_rs_work: the input and
 * work area (p·count elements): in place both rbuf, else sbuf and the context's work buffer (grown
 * on demand: collective, agreed). coll_rs_done: the block of rank `at` in work to rbuf. coll_ag_own:
 * this rank's contribution into its slot of rbuf (nothing in place). */
int coll_rs_work(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt, char **work);
/* The context's work buffer of at least `bytes` (collective: every rank calls it alike). */
int coll_work(ddl_ctx *ctx, size_t bytes, char **work);
int coll_rs_done(ddl_ctx *ctx, const char *work, int at, void *rbuf, size_t count, kern_dtype dt);
int coll_ag_own(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt);
/* The same halving-doubling (allreduce_rhd.c) on the caller's blocks of `unit` elements folded onto
 * virtual blocks (coll_vblock_off: the first fold_r of q virtual ranks stand for two real blocks each)
 * instead of balanced blocks of n: the reduce-scatter and allgather of rsag_rhd.c. */
int coll_halving_rs_units(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near, const void *src,
                          void *dst, size_t unit, kern_dtype dt, kern_op op);
int coll_doubling_ag_units(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, int near, void *buf, size_t unit,
                           size_t esize);

/* Grid (grid.c): parse "4x16x4" and "ring,rhd", derive from ranks per node. 0 or DDL_ERR_GRID. */
int coll_grid_parse(const char *s, int *dims, int *ndims);
int coll_patterns_parse(const char *s, int ndims, int *patterns);
void coll_grid_derive(int p, int rpn, int *dims, int *ndims);
void coll_grid_derive_rhd(int p, int rpn, coll_shape *sh);
const char *coll_pattern_name(int pat);

/* The algorithms (one file each) export their registry row; ring and rhd also their run, which the
 * simulated `mpi` (allreduce_mpi_sim.c) calls. */
int coll_allreduce_ring(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allreduce_rhd(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
/* ddl's walk and its grid (allreduce_ddl.c), which ddl-pipe (allreduce_ddl_pipe.c) runs chunk by chunk. */
int coll_allreduce_ddl(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_ddl_setup(ddl_ctx *ctx, const ddl_config *cfg);
void coll_ddl_teardown(ddl_ctx *ctx);
int coll_ddl_describe(const ddl_ctx *ctx, char *buf, size_t len);
int coll_ddl_candidates(int p, int rpn, coll_shape *out, int max);
int coll_reduce_scatter_ddl(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allgather_ddl(ddl_ctx *, const void *, void *, size_t, kern_dtype);
/* ddl-pipe's model (ddl_pipe_cost.c): its registry cost, and on x bytes the sum of its levels' latencies
 * *lat and the busiest resource's transfer without them *xfer (a level, a GPU's own link, the reductions),
 * from which the row sizes its window of chunks in flight (at least COLL_DP_WINDOW). */
#define COLL_DP_WINDOW 8
int coll_ddl_pipe_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);
int coll_ddl_pipe_split(const ddl_machine *m, const coll_shape *sh, double x, double *lat, double *xfer);
/* nccl-ring's registry cost (nccl_ring_cost.c): every channel's ring step at once, shape unused. */
int coll_nccl_ring_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);
/* Recursive doubling as Open MPI's coll/base runs it (allreduce_rdb.c): not a registry row, the
 * simulated `mpi`'s pick for small vectors. */
int coll_allreduce_rdb(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_reduce_scatter_ring(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allgather_ring(ddl_ctx *, const void *, void *, size_t, kern_dtype);
int coll_reduce_scatter_rhd(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allgather_rhd(ddl_ctx *, const void *, void *, size_t, kern_dtype);
int coll_reduce_scatter_rhd_far(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allgather_rhd_far(ddl_ctx *, const void *, void *, size_t, kern_dtype);
/* nccl-ring's channels (channels.c): channel c's ring over p ranks on nodes of g (g <= 0 or
 * not dividing p: one node), order[i] = the rank at position i; the default channel count (the NICs
 * when more than one, else g, else 1; at most p). Pure. */
void coll_channel_order(int p, int g, int c, int *order);
int coll_channels_default(int p, int rpn, int nics);

/* Open MPI 4.1's coll/tuned fixed decision for a commutative allreduce of `bytes` bytes on p ranks
 * (ompi_decision.c; docs/SOURCES.md §7): one of COLL_OMPI_*, Open MPI's own algorithm numbers. */
enum { COLL_OMPI_NONOVERLAP = 2, COLL_OMPI_RDB = 3, COLL_OMPI_RING = 4, COLL_OMPI_SEGRING = 5, COLL_OMPI_RSAG = 6 };
int coll_ompi_allreduce_pick(int p, double bytes);

/* The links' segment and depth (links.c): the largest bandwidth-delay product over m's levels (bytes);
 * the segment that covers it (a power-of-two multiple of def, at most 16 MiB, never below def); the
 * depth that covers it with that segment (at least def). coll_machine_check (cost.c): 0 or DDL_ERR_ARG. */
double coll_link_bdp(const ddl_machine *m);
size_t coll_link_segment(const ddl_machine *m, size_t def);
int coll_link_depth(const ddl_machine *m, size_t segment, int def);
int coll_machine_check(const ddl_machine *m, double bytes);

/* Cost model pieces (cost.c): one reduce-scatter + allgather over the d ranks r, r + s, ..,
 * r + s(d-1) of every group, all groups at once, with n bytes each; adds reduced bytes to *reduced.
 * pattern: COLL_PAT_RING, COLL_PAT_RHD (farthest first) or COLL_PAT_RHD_NEAR (nearest first).
 * Open MPI's decision priced: coll_mpi_cost. 0 or DDL_ERR_NOMEM. */
int coll_cost_dim(const ddl_machine *m, int stride, int d, int pattern, double n, double *seconds,
                  double *reduced);
int coll_mpi_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);
/* The machine's fabric reduces (sharp_bw, several nodes): the simulated `mpi` runs nvls where its model is the
 * cheaper (coll_mpi_uses_sharp), as HPC-X offloads to SHARP (allreduce_mpi_sim.c); coll_mpi_cost prices that. */
int coll_mpi_sharp(const ddl_machine *m);
int coll_mpi_uses_sharp(const ddl_machine *m, double bytes);
/* One step of n concurrent messages of `bytes`, src[i] to dst[i] (nccl-ring's channels): shared links
 * counted over all of them, and each rank's own link shared by the messages it sends or receives. */
int coll_cost_flows(const ddl_machine *m, int n, const int *src, const int *dst, double bytes, double *seconds);

#endif
