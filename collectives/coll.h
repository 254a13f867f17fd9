/* coll.h — internals shared by the collectives: the context, the registry row, the primitives
 * (segmented exchange, ring and halving-doubling reduce-scatter/allgather) and error helpers. */
#ifndef COLL_H
#define COLL_H

#include "ddl.h"
#include "reduce.h"

#define COLL_WINDOW 2                       /* receive segments in flight (double buffering) */
#define COLL_DEFAULT_SEGMENT (256u * 1024u) /* bytes; see docs/BENCHMARKS.md for the sweep */
#define COLL_MAX_SEGMENT (1u << 30)

enum { COLL_PAT_RING, COLL_PAT_RHD, COLL_PAT_COUNT };

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
    size_t segment_bytes;             /* pipeline segment, equal on every rank */
    int poll_us;                      /* 0: block in MPI_Wait; else test, sleeping this long between */
    void *scratch;                    /* COLL_WINDOW segments */
    MPI_Datatype half_type[2];        /* float16, bfloat16 as 2-byte types (mpi algorithm) */
    MPI_Op half_op[2][DDL_OP_COUNT];  /* user ops reducing them */
    void *algo_state;                 /* owned by the algorithm's setup/teardown */
    struct coll_dev *dev;             /* device buffers (ddl_config.device): device.c; NULL = host */
};

typedef int (*coll_run_fn)(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                           kern_op op);
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

/* One registry row: everything about an algorithm. Each algorithm file defines its row
 * (`const coll_algo coll_algo_ring = { ... }`); registry.c's table lists them in order. */
typedef struct coll_algo {
    const char *name;               /* CLI and API name */
    const char *help;               /* one line */
    unsigned flags;                 /* DDL_ALGO_GRID | DDL_ALGO_AUTO (ddl.h); DDL_ALGO_COST = cost set */
    coll_run_fn run;                /* the allreduce */
    coll_setup_fn setup;            /* optional: build what run needs (NULL = nothing) */
    coll_teardown_fn teardown;      /* optional */
    coll_describe_fn describe;      /* optional */
    coll_cost_fn cost;              /* optional: the alpha-beta-gamma model (NULL = none) */
    coll_candidates_fn candidates;  /* optional, see coll_candidates_fn */
} coll_algo;

const coll_algo *coll_algo_get(int i);
int coll_algo_find(const char *name);

/* Errors: set the thread's last message and return the code. */
int coll_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int coll_mpi_fail(int mpi_rc, const char *what);
/* Wait for n requests, by MPI_Waitall or by polling (ctx->poll_us). */
int coll_waitall(const ddl_ctx *ctx, int n, MPI_Request *reqs);
#define COLL_MPI(call)                                          \
    do {                                                        \
        int mpi_rc_ = (call);                                   \
        if (mpi_rc_ != MPI_SUCCESS) return coll_mpi_fail(mpi_rc_, #call); \
    } while (0)

/* Primitives (exchange.c). Counts are elements of dt; pointers are byte addresses. */
int coll_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                         int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op);
int coll_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source, void *rptr,
                  size_t rbytes);

/* Reduce-scatter / allgather over the q ranks of comm (this rank = v) on n elements: afterwards v
 * holds block v (partition.h) reduced, in dst. src is read for this rank's contribution. */
int coll_ring_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, const void *src, void *dst,
                             size_t n, kern_dtype dt, kern_op op);
int coll_ring_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, void *buf, size_t n, size_t esize);
/* Halving-doubling for q a power of two; peers are real(v') = coll_fold_real(v', fold_r). */
int coll_halving_reduce_scatter(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r,
                                const void *src, void *dst, size_t n, kern_dtype dt, kern_op op);
int coll_doubling_allgather(ddl_ctx *ctx, MPI_Comm comm, int q, int v, int fold_r, void *buf, size_t n,
                            size_t esize);

/* Device buffers (device.c): setup/teardown of ctx->dev, and the device twins of the primitives
 * above, which exchange.c, the q = 1 copies and the mpi algorithm call when ctx->dev is set. */
int coll_dev_setup(ddl_ctx *ctx);
void coll_dev_teardown(ddl_ctx *ctx);
const char *coll_dev_path(const ddl_ctx *ctx);  /* "cuda-aware" | "staged" */
int coll_dev_exchange_reduce(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t scount,
                             int source, void *dst, const void *a, size_t rcount, kern_dtype dt, kern_op op);
int coll_dev_exchange(ddl_ctx *ctx, MPI_Comm comm, int dest, const void *sptr, size_t sbytes, int source,
                      void *rptr, size_t rbytes);
int coll_dev_copy(ddl_ctx *ctx, void *dst, const void *src, size_t bytes);
int coll_dev_allreduce_mpi(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                           MPI_Datatype type, MPI_Op mop);

/* Grid (grid.c): parse "4x16x4" and "ring,rhd", derive from ranks per node. 0 or DDL_ERR_GRID. */
int coll_grid_parse(const char *s, int *dims, int *ndims);
int coll_patterns_parse(const char *s, int ndims, int *patterns);
void coll_grid_derive(int p, int rpn, int *dims, int *ndims);
const char *coll_pattern_name(int pat);

/* The algorithms (one file each) export their registry row; ring and rhd also their run, which the
 * simulated `mpi` (allreduce_mpi_sim.c) calls. Open MPI's coll/tuned fixed decision for allreduce
 * (up to 4.0.x; docs/SOURCES.md §7) takes recursive doubling below COLL_OMPI_RDB_BYTES and the ring
 * from there on. */
int coll_allreduce_ring(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
int coll_allreduce_rhd(ddl_ctx *, const void *, void *, size_t, kern_dtype, kern_op);
#define COLL_OMPI_RDB_BYTES 10000

/* Cost model pieces (cost.c): one reduce-scatter + allgather over the d ranks r, r + s, ..,
 * r + s(d-1) of every group, all groups at once, with n bytes each; adds reduced bytes to *reduced.
 * Open MPI's decision priced: coll_mpi_cost. 0 or DDL_ERR_NOMEM. */
int coll_cost_dim(const ddl_machine *m, int stride, int d, int pattern, double n, double *seconds,
                  double *reduced);
int coll_mpi_cost(const ddl_machine *m, const coll_shape *sh, double bytes, double *seconds);

#endif
