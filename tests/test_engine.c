/* test_engine.c — the communication engine under MPI: buckets posted while the "backward" thread
 * keeps writing later gradients come back with exact sums, for several caps and algorithms, over
 * several steps; a bucket posted before its data is written would show up as a wrong sum. Full
 * sharding (engine_set_shard 2): every bucket's parameters gathered in forward order, then again in
 * backward between the reductions (each rank's blocks only written, the others poisoned first): the
 * gathered parameters and the reduce-scattered blocks and remainders come back exact. */
#include "bucket.h"
#include "engine.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static int rank, size;

static float value(int r, size_t i, int step) { return (float)((r * 7 + (int)(i % 17) + step) % 23 - 11); }

static long run(const char *algo, int poll_us, size_t cap, const size_t *counts, int n, int steps)
{
    bucket_plan plan;
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    engine *e = NULL;
    float *g = NULL;
    long wrong = 0;
    cfg.algo = algo;
    cfg.poll_us = poll_us;
    if (bucket_plan_make(counts, n, 4, cap, cap / 4, &plan)) return 1;
    if (ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx) || !(g = malloc(plan.total * 4)) ||
        engine_create(ctx, g, DDL_FLOAT32, &plan, &e)) {
        wrong = 1;
        goto out;
    }
    for (int s = 0; s < steps; s++) {
        engine_begin_step(e);
        for (int t = n - 1; t >= 0; t--) { /* backward: last tensor first */
            float *p = g + plan.tensor_offset[t];
            for (size_t i = 0; i < counts[t]; i++) p[i] = value(rank, plan.tensor_offset[t] + i, s);
            int b = plan.tensor_bucket[t];
            if (plan.buckets[b].lowest_tensor == t) engine_post(e, b);
        }
        engine_stats st;
        char why[256];
        if (engine_wait_all(e, &st, why, sizeof why)) { wrong++; printf("# %s\n", why); break; }
        wrong += st.buckets != plan.nbuckets;
        for (size_t i = 0; i < plan.total; i++) {
            float want = 0;
            for (int r = 0; r < size; r++) want += value(r, i, s);
            wrong += g[i] != want;
        }
    }
out:
    engine_free(e);
    ddl_ctx_free(ctx);
    free(g);
    bucket_plan_free(&plan);
    return wrong;
}

/* The parameter element i of bucket b (count c a block) as rank r holds it before the gathers: its own
 * blocks and the remainder (every rank alike) true, other ranks' blocks poisoned. */
static void poison(float *p, const bucket *bk, int step)
{
    size_t c = bk->count / (size_t)size;
    for (size_t j = 0; j < bk->count; j++) {
        size_t i = bk->offset + j;
        int own = j >= c * (size_t)size || j / c == (size_t)rank;
        p[i] = own ? value(j < c * (size_t)size ? (int)(j / c) : 0, i, step) : -1e9f;
    }
}

static long check_bucket(const float *p, const float *g, const bucket *bk, int step)
{
    size_t c = bk->count / (size_t)size, all = c * (size_t)size;
    long wrong = 0;
    for (size_t j = 0; j < bk->count; j++) {
        size_t i = bk->offset + j;
        wrong += p[i] != value(j < all ? (int)(j / c) : 0, i, step);
        if (j >= c && j < all) continue; /* the reduce-scatter's scratch */
        size_t from = j < c ? bk->offset + (size_t)rank * c + j : i;
        float want = 0;
        for (int r = 0; r < size; r++) want += value(r, from, step);
        wrong += g[i] != want;
    }
    return wrong;
}

static long run_full(const char *algo, size_t cap, const size_t *counts, int n, int steps)
{
    bucket_plan plan;
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    engine *e = NULL;
    float *g = NULL, *p = NULL;
    long wrong = 0;
    char why[256];
    cfg.algo = algo;
    if (bucket_plan_make(counts, n, 4, cap, cap / 4, &plan)) return 1;
    if (ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx) || !(g = malloc(plan.total * 4)) || !(p = malloc(plan.total * 4)) ||
        engine_create(ctx, g, DDL_FLOAT32, &plan, &e) || engine_set_shard(e, 2, size)) {
        wrong = 1;
        goto out;
    }
    for (int s = 0; s < steps && !wrong; s++) {
        engine_begin_step(e);
        for (int b = 0; b < plan.nbuckets; b++) poison(p, &plan.buckets[b], s);
        for (int b = plan.nbuckets - 1; b >= 0; b--) /* forward */
            wrong += engine_post_gather(e, b, p + plan.buckets[b].offset) != 0;
        for (int b = plan.nbuckets - 1; b >= 0; b--) wrong += engine_wait_gather(e, b, why, sizeof why) != 0;
        for (int t = n - 1; t >= 0; t--) { /* backward: each bucket's gather again, after the reductions */
            int b = plan.tensor_bucket[t];
            float *q = g + plan.tensor_offset[t];
            for (size_t i = 0; i < counts[t]; i++) q[i] = value(rank, plan.tensor_offset[t] + i, s);
            if (plan.buckets[b].lowest_tensor == t) {
                engine_post(e, b);
                if (b + 1 < plan.nbuckets)
                    poison(p, &plan.buckets[b + 1], s), engine_post_gather(e, b + 1, p + plan.buckets[b + 1].offset);
            }
        }
        for (int b = 0; b < plan.nbuckets; b++) wrong += engine_wait_gather(e, b, why, sizeof why) != 0;
        engine_stats st;
        if (engine_wait_all(e, &st, why, sizeof why)) { wrong++; printf("# %s\n", why); break; }
        for (int b = 0; b < plan.nbuckets; b++) wrong += check_bucket(p, g, &plan.buckets[b], s);
    }
out:
    engine_free(e);
    ddl_ctx_free(ctx);
    free(g), free(p);
    bucket_plan_free(&plan);
    return wrong;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, engine_thread_level(), &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const size_t counts[] = { 9408, 64, 64, 36864, 64, 64, 147456, 256, 256, 1000, 524288, 3, 1000 };
    const int n = (int)(sizeof counts / sizeof counts[0]);
    const size_t caps[] = { 0, 4096, 100000, 1u << 20 };
    const char *algos[] = { "ring", "rhd", "ddl", "mpi" };
    if (rank == 0) CHECK(provided >= engine_thread_level(), "MPI thread level %d provided", provided);
    for (size_t a = 0; a < 4; a++)
        for (size_t c = 0; c < 4; c++)
            for (int poll = 0; poll <= 10; poll += 10) { /* blocking waits and polling waits */
                long wrong = run(algos[a], poll, caps[c], counts, n, 3), total;
                MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                if (rank == 0)
                    CHECK(total == 0, "engine %s poll %d us cap %zu: %ld wrong", algos[a], poll, caps[c], total);
            }
    for (size_t a = 0; a < 4; a++) /* those with reduce-scatter and allgather */
        for (size_t c = 1; c < 4 && (ddl_algo_flags(ddl_algo_find(algos[a])) & DDL_ALGO_RSAG); c++) {
            long wrong = run_full(algos[a], caps[c], counts, n, 2), total;
            MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            if (rank == 0) CHECK(total == 0, "engine full shard %s cap %zu: %ld wrong", algos[a], caps[c], total);
        }
    int status = rank == 0 ? TEST_REPORT() : 0;
    MPI_Finalize();
    return status;
}
