/* test_shard_step.c — sharded data parallelism on real MPI (harness/train/shard_step.c): for every
 * algorithm with reduce-scatter and allgather (DDL_ALGO_RSAG), every optimizer (SGD with momentum,
 * Adam, LAMB) and every sharding (optimizer, gradients, full), the parameters after STEPS steps
 * against the unsharded step's (allreduce, the whole update on every rank) from the same start.
 * Gradients depend on rank, index and step and are small multiples of 1/16, so their sums are
 * exact in any order: SGD and Adam (elementwise) must match bitwise; LAMB's per-tensor norms are
 * summed over shards in another order, so it must match within 1e-5 relative. Tensors of odd sizes
 * (115 elements: shards padded at every rank count but 1 and 5). An algorithm without
 * reduce-scatter and allgather must refuse (DDL_ERR_ALGO) on every rank. Run at 1-5 and 8 ranks. */
#include "ddl.h"
#include "shard_step.h"
#include "test.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define STEPS 4

static int rank, size;
static const long long numel[] = { 7, 13, 1, 30, 64 };
#define NT ((int)(sizeof numel / sizeof numel[0]))

static void init_params(float *w, size_t n, size_t total)
{
    for (size_t i = 0; i < n; i++) w[i] = i < total ? (float)((int)((i * 7) % 11) - 5) * 0.125f : 0.0f;
}

static void gradient(float *g, size_t n, size_t total, int r, long t)
{
    for (size_t i = 0; i < n; i++)
        g[i] = i < total ? (float)((int)((size_t)r * 31 + i * 7 + (size_t)t * 13) % 17 - 8) * 0.0625f : 0.0f;
}

/* STEPS steps of `mode` from the common start; the parameters (gathered) into w. 0, or the code. */
static int run(ddl_ctx *ctx, const shard_plan *pl, int mode, const shard_optim *o, float *w)
{
    size_t n = mode == SHARD_NONE ? pl->padded : pl->count;
    float *g = malloc(pl->padded * 4), *s1 = calloc(n, 4), *s2 = calloc(n, 4), *u = calloc(n, 4);
    int rc = !g || !s1 || !s2 || !u ? -1 : 0;
    init_params(w, pl->padded, pl->total);
    for (long t = 1; !rc && t <= STEPS; t++) {
        if (mode == SHARD_FULL && t > 1) rc = shard_gather(ctx, pl, w); /* before the forward */
        gradient(g, pl->padded, pl->total, rank, t);
        if (!rc) rc = shard_step(ctx, MPI_COMM_WORLD, pl, mode, o, w, g, s1, s2, u, t);
    }
    if (!rc && mode == SHARD_FULL) rc = shard_gather(ctx, pl, w);
    free(g), free(s1), free(s2), free(u);
    return rc;
}

static void check_algo(const char *algo, int rsag)
{
    static const shard_optim optims[] = {
        { OPTIM_SGD, 0.5f, 0.9f, 1e-4f, 0, 0, 0 },
        { OPTIM_ADAM, 1e-2f, 0, 1e-4f, 0.9f, 0.999f, 1e-8f },
        { OPTIM_LAMB, 1e-2f, 0, 1e-2f, 0.9f, 0.999f, 1e-6f },
    };
    ddl_config cfg = DDL_CONFIG_INIT;
    cfg.algo = algo;
    ddl_ctx *ctx = NULL;
    shard_plan pl;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx);
    CHECK(rc == 0 && shard_plan_make(&pl, NT, numel, rank, size) == 0, "p=%d %s: create: %s", size, algo,
          ddl_last_error());
    if (rc) return;
    float *ref = malloc(pl.padded * 4), *w = malloc(pl.padded * 4);
    for (int k = 0; k < 3; k++) {
        int rr = run(ctx, &pl, SHARD_NONE, &optims[k], ref);
        CHECK(rr == 0, "p=%d %s %s: unsharded step: %d", size, algo, optim_name(k), rr);
        for (int mode = SHARD_OPTIMIZER; mode < SHARD_MODES; mode++) {
            int r = run(ctx, &pl, mode, &optims[k], w);
            if (!rsag) {
                CHECK(r == DDL_ERR_ALGO, "p=%d %s (no reduce-scatter): %s refused with %d", size, algo,
                      shard_mode_name(mode), r);
                continue;
            }
            double worst = 0;
            for (size_t i = 0; i < pl.total; i++)
                worst = fmax(worst, fabs((double)w[i] - ref[i]) / fmax(fabs((double)ref[i]), 1e-3));
            int same = !memcmp(w, ref, pl.total * 4), bad = r || (k == OPTIM_LAMB ? worst > 1e-5 : !same), any;
            MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
            CHECK(!any, "p=%d %s %s --shard %s: rc %d, %s (worst relative difference %.3g)", size, algo,
                  optim_name(k), shard_mode_name(mode), r, same ? "bitwise equal" : "differs", worst);
        }
    }
    free(ref), free(w);
    ddl_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rsag = 0;
    for (int a = 0; a < ddl_algo_count(); a++) {
        rsag += !!(ddl_algo_flags(a) & DDL_ALGO_RSAG);
        check_algo(ddl_algo_name(a), !!(ddl_algo_flags(a) & DDL_ALGO_RSAG));
    }
    CHECK(rsag >= 5, "%d algorithms with reduce-scatter and allgather", rsag);
    int passed = test_passed, failed = test_failed;
    MPI_Allreduce(&passed, &test_passed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&failed, &test_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) status = TEST_REPORT();
    MPI_Finalize();
    return status;
}
