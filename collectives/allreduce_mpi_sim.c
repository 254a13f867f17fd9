/* allreduce_mpi_sim.c — the `mpi` entry under simulation (replaces allreduce_mpi.c in the SMPI build).
 * SMPI's own MPI_Allreduce really copies and reduces every payload in private buffers: at 256 ranks
 * one ResNet-50 step took 159 s of wall time with SMPI's default selector (a 2.2 s simulated step)
 * and 418 s with its Open MPI selector (a 0.2 s step) — measured, docs/BENCHMARKS.md — beyond the
 * sweep's budget. So the simulated `mpi` is Open MPI 4.1's coll/tuned fixed decision for allreduce
 * (the real build's MPI; ompi_decision.c) run with ddlbench's algorithms: ring and segmented ring ->
 * ring; Rabenseifner -> rhd (nearest partner first on nodes of several ranks, as Open MPI's; with one
 * rank per node either order costs the same); recursive doubling -> itself (allreduce_rdb.c: lg p
 * exchanges of the whole vector, where rhd takes 2·lg p of halves: measured here, issue 26, the real
 * `mpi` at 1 KiB took 1.7 µs on 2 ranks of one node, 12.0 on 4 and 28.2 on the emulated 2 x 2
 * cluster, against 2.8, 23.1 and 69.5 simulated as rhd); and, at 128+ ranks below 128 KB, reduce +
 * bcast -> recursive doubling (the same lg p steps of the whole vector; no ResNet bucket is that
 * small). Its cost model is the real entry's (coll_mpi_cost, cost.c), which prices recursive doubling
 * (and reduce + bcast) the same way. Open MPI's own copies are priced too (through coll_copy,
 * at the platform's copy cost by working set; 0 on a platform without one, so the model and the
 * simulation still agree there): out of place, its ring, segmented ring and Rabenseifner first copy
 * the whole send vector into the receive buffer and then run in place, as recursive doubling does
 * (coll_allreduce_rdb makes that copy itself) (open-mpi/ompi v4.1.x, ompi/mca/coll/base/coll_base_allreduce.c; measured
 * here,
 * issue 26: the real `mpi` at 2 ranks and 64 MiB took 38.2 ms against 18.7 ms for ddlbench's rhd of
 * the same bytes). Priced (kern_fresh_pages, at the platform's fault_ns): the fresh pages of Rabenseifner's
 * per-call temporary of the vector's size, which glibc maps anew on every call above its 32 MiB
 * mmap-threshold maximum (measured here, issue 26: the real `mpi` at 2 ranks and 64 MiB, 42.7 ms
 * against 27.7 simulated without them). Priced (kern_whole_message, at the platform's whole_ns): its
 * messages between nodes go whole, where the real one's above the transport's eager limit are a
 * rendezvous (Open MPI's TCP BTL: 64 KiB), not in libddl's eager pieces that the links' calibration
 * sends (measured on the emulated 2 x 2 cluster, issue 26: ddlbench's rhd sending whole messages there
 * took what the real `mpi` takes, 31.1 against 32.1 ms at 1 MiB, and 1.6-1.8x its eager-piece time).
 * Its reduce-scatter and allgather follow the same pick for
 * the whole p·count vector: the ring's where it picks a ring, else rhd's (allreduce_ring.c, rsag_rhd.c).
 * On a machine whose fabric reduces (ddl_config.machine with sharp_bw, several nodes) it runs the `nvls` row
 * instead, through the simulated switches (allreduce_nvls.c), at the sizes where nvls's model is cheaper than
 * the pick above (coll_mpi_uses_sharp), as NVIDIA's HPC-X MPI offloads allreduce to SHARP (its HCOLL
 * component) by size; coll_mpi_cost prices the cheaper. Host buffers only. Reduce-scatter and allgather keep
 * Open MPI's pick (nvls has none).
 * Being the SMPI build's one collectives file, it also answers coll_simulated() (coll.h). */
#include "coll.h"
#include "mem.h"

#include <stdlib.h>

/* glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit systems (4 MiB x sizeof(long)): a malloc above it is
 * always mmapped, and its pages are fresh (malloc/malloc.c) */
#define OMPI_MMAP_MAX_BYTES (32.0 * 1024 * 1024)

int coll_simulated(void) { return 1; }

/* fn's run with this communicator's messages between nodes priced whole (exchange.c). */
#define WHOLE(ctx, call) ((ctx)->whole_rpn = (ctx)->ranks_per_node, rc = (call), (ctx)->whole_rpn = 0, rc)

/* Open MPI's allreduce pick for `bytes` on this communicator takes a ring (else: rhd, as above). */
static int ring_pick(const ddl_ctx *ctx, double bytes)
{
    int alg = coll_ompi_allreduce_pick(ctx->size, bytes);
    return alg == COLL_OMPI_RING || alg == COLL_OMPI_SEGRING;
}

/* ... takes recursive doubling (or reduce + bcast, run as it: above). */
static int rdb_pick(const ddl_ctx *ctx, double bytes)
{
    int alg = coll_ompi_allreduce_pick(ctx->size, bytes);
    return alg == COLL_OMPI_RDB || alg == COLL_OMPI_NONOVERLAP;
}

/* With IB SHARP: the nvls context the allreduce runs on where it is the cheaper, and the machine (header). */
typedef struct mpi_sharp {
    ddl_ctx *nvls;
    ddl_machine m;
} mpi_sharp;

static int mpi_sim_setup(ddl_ctx *ctx, const ddl_config *cfg)
{
    ddl_config sc = DDL_CONFIG_INIT;
    mpi_sharp *s;
    int rc;
    if (!coll_mpi_sharp(cfg->machine) || cfg->device) return 0; /* nvls: host buffers only */
    s = calloc(1, sizeof *s);
    rc = s ? coll_test_fail(ctx->comm, "setup", DDL_ERR_ARG) : coll_fail(DDL_ERR_NOMEM, "mpi: out of memory");
    if ((rc = coll_agree(ctx->comm, rc))) { /* before the nvls context's collective creation */
        free(s);
        return rc;
    }
    s->m = *cfg->machine, ctx->algo_state = s;
    sc.algo = "nvls";
    sc.ranks_per_node = ctx->ranks_per_node > 0 ? ctx->ranks_per_node : 0;
    sc.segment_bytes = ctx->segment_bytes;
    sc.poll_us = ctx->poll_us;
    sc.pipeline_depth = ctx->depth;
    sc.net_segment_bytes = ctx->net_bytes;
    sc.machine = cfg->machine;
    return ddl_ctx_create(ctx->comm, &sc, &s->nvls);
}

static void mpi_sim_teardown(ddl_ctx *ctx)
{
    mpi_sharp *s = ctx->algo_state;
    if (s) ddl_ctx_free(s->nvls), free(s);
    ctx->algo_state = NULL;
}

static int allreduce_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                             kern_op op)
{
    const double bytes = (double)count * (double)kern_dtype_size(dt);
    const mpi_sharp *sharp = ctx->algo_state;
    int rc;
    if (sharp && coll_mpi_uses_sharp(&sharp->m, bytes))
        return coll_algo_get(sharp->nvls->algo)->run(sharp->nvls, sbuf, rbuf, count, dt, op);
    if (rdb_pick(ctx, bytes)) return WHOLE(ctx, coll_allreduce_rdb(ctx, sbuf, rbuf, count, dt, op));
    /* Open MPI's copy of the send vector (above); the algorithm then reads sbuf as before: the
     * same bytes move, and the copy's time is on this rank's clock */
    if (sbuf != rbuf && (rc = coll_copy(ctx, rbuf, sbuf, (size_t)bytes))) return rc;
    /* Rabenseifner's temporary of the vector's size: above glibc's largest mmap threshold it is mapped
     * anew on every call, and its first reduce-scatter step receives into half of it (all of it on
     * the ranks that fold a non-power-of-two p) */
    if (coll_ompi_allreduce_pick(ctx->size, bytes) == COLL_OMPI_RSAG && bytes > OMPI_MMAP_MAX_BYTES)
        kern_fresh_pages((size_t)(ctx->size & (ctx->size - 1) ? bytes : bytes / 2));
    return WHOLE(ctx,
                 (ring_pick(ctx, bytes) ? coll_allreduce_ring : coll_allreduce_rhd)(ctx, sbuf, rbuf, count, dt, op));
}

/* Reduce-scatter and allgather: the pick for the whole p·count vector. */
static int reduce_scatter_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt,
                                  kern_op op)
{
    const double bytes = (double)ctx->size * (double)count * (double)kern_dtype_size(dt);
    int rc;
    return WHOLE(ctx, (ring_pick(ctx, bytes) ? coll_reduce_scatter_ring : coll_reduce_scatter_rhd)(ctx, sbuf, rbuf,
                                                                                                   count, dt, op));
}

static int allgather_mpi_sim(ddl_ctx *ctx, const void *sbuf, void *rbuf, size_t count, kern_dtype dt)
{
    const double bytes = (double)ctx->size * (double)count * (double)kern_dtype_size(dt);
    int rc;
    return WHOLE(ctx, (ring_pick(ctx, bytes) ? coll_allgather_ring : coll_allgather_rhd)(ctx, sbuf, rbuf, count, dt));
}

const coll_algo coll_algo_mpi = {
    .name = "mpi",
    .help = "MPI_Allreduce of the MPI library (the baseline; simulated: Open MPI 4.1's pick of rhd or ring, or "
            "nvls where the fabric reduces, as HPC-X with SHARP)",
    .run = allreduce_mpi_sim,
    .setup = mpi_sim_setup,
    .teardown = mpi_sim_teardown,
    .cost = coll_mpi_cost,
    .reduce_scatter = reduce_scatter_mpi_sim,
    .allgather = allgather_mpi_sim,
};
