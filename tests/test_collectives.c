/* test_collectives.c — ddl_reduce_scatter and ddl_allgather: every registered algorithm (plus ddl on
 * explicit grids with mixed patterns, and auto under two cost models) × counts per rank {0, 1, p-1,
 * p, p+1, 1009, ⌈(2^20+3)/p⌉} × every type × (reduce-scatter) sum/max/min × in-place and out-of-place.
 * Data (bench.h's _at functions) depends on rank and global index without a period, exact in every
 * type; the receive buffer starts as garbage; the send buffer must come back untouched and nothing
 * past the receive count may be written (a guard of GUARD elements). An algorithm without the two
 * collectives (DDL_ALGO_RSAG unset) must return DDL_ERR_ALGO. Wrong counts are reduced over ranks.
 * Usage (under mpirun): test_collectives [--rpn K] [--net K:B] [--quick] (test.h: messages to ranks K
 * apart cut at B bytes; --quick, for runs across an emulated network (tests/cluster.sh): float32,
 * float16 and int32, sum and max, the largest count (2^16+3)/p) */
#include "bench.h"
#include "ddl.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define BIG ((1u << 20) + 3)
#define QUICK_BIG ((1u << 16) + 3)
#define GUARD 16

static int rank, size, quick;

/* Garbage that is no valid result: all bits set (NaN, -1). */
static void poison(void *buf, size_t n, ddl_dtype dt) { memset(buf, 0xff, n * ddl_dtype_size(dt)); }

static size_t poisoned(const void *buf, size_t n, ddl_dtype dt)
{
    const unsigned char *b = buf;
    size_t wrong = 0;
    for (size_t i = 0; i < n * ddl_dtype_size(dt); i++) wrong += b[i] != 0xff;
    return wrong;
}

static long fail(const char *what)
{
    fprintf(stderr, "rank %d: %s: %s\n", rank, what, ddl_last_error());
    return 1;
}

/* One reduce-scatter; the number of wrong elements on this rank (1 for an error code). */
static long rs_case(ddl_ctx *ctx, char *sbuf, char *rbuf, size_t n, ddl_dtype dt, ddl_op op, int in_place)
{
    const size_t all = (size_t)size * n, es = ddl_dtype_size(dt);
    long wrong = 0;
    bench_fill_at(dt, in_place ? rbuf : sbuf, all, rank, 0);
    if (in_place) {
        poison(rbuf + all * es, GUARD, dt);
    } else {
        poison(rbuf, n + GUARD, dt);
    }
    if (ddl_reduce_scatter(ctx, in_place ? DDL_IN_PLACE : sbuf, rbuf, n, dt, op)) return fail("reduce-scatter");
    wrong += (long)bench_check_reduced_at(dt, op, rbuf, n, size, (size_t)rank * n);
    wrong += (long)poisoned(rbuf + (in_place ? all : n) * es, GUARD, dt);
    if (!in_place) wrong += (long)bench_check_input_at(dt, sbuf, all, rank, 0);
    return wrong;
}

/* One allgather, as rs_case. */
static long ag_case(ddl_ctx *ctx, char *sbuf, char *rbuf, size_t n, ddl_dtype dt, int in_place)
{
    const size_t es = ddl_dtype_size(dt), mine = (size_t)rank * n;
    long wrong = 0;
    poison(rbuf, (size_t)size * n + GUARD, dt);
    bench_fill_at(dt, in_place ? rbuf + mine * es : sbuf, n, rank, mine);
    if (ddl_allgather(ctx, in_place ? DDL_IN_PLACE : sbuf, rbuf, n, dt)) return fail("allgather");
    for (int r = 0; r < size; r++)
        wrong += (long)bench_check_input_at(dt, rbuf + (size_t)r * n * es, n, r, (size_t)r * n);
    wrong += (long)poisoned(rbuf + (size_t)size * n * es, GUARD, dt);
    if (!in_place) wrong += (long)bench_check_input_at(dt, sbuf, n, rank, mine);
    return wrong;
}

static void report(long wrong, const char *label, const char *coll, size_t n, ddl_dtype dt, const char *op,
                   int in_place)
{
    long total = 0;
    MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(total == 0, "p=%d %s %s count=%zu %s%s %s: %ld wrong", size, label, coll, n, ddl_dtype_name(dt), op,
              in_place ? "in-place" : "out-of-place", total);
}

static void run_variant(const ddl_config *cfg, const char *label, char *sbuf, char *rbuf)
{
    const size_t big = ((quick ? QUICK_BIG : BIG) + (size_t)size - 1) / (size_t)size;
    const size_t counts[] = { 0, 1, (size_t)size - 1, (size_t)size, (size_t)size + 1, 1009, big };
    ddl_ctx *ctx;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, cfg, &ctx);
    CHECK(rc == 0, "p=%d %s: create: %s", size, label, ddl_last_error());
    if (rc) return;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int dt = 0; dt < DDL_DTYPE_COUNT; dt++)
            for (int ip = 0; ip < 2; ip++) {
                if (quick && (dt == DDL_FLOAT64 || dt == DDL_BFLOAT16)) continue;
                for (int op = 0; op < DDL_OP_COUNT; op++) {
                    if (c + 1 == sizeof counts / sizeof counts[0] && op == DDL_MIN) continue; /* min: small counts */
                    if (quick && op == DDL_MIN) continue;
                    char o[16];
                    snprintf(o, sizeof o, " %s", ddl_op_name(op));
                    report(rs_case(ctx, sbuf, rbuf, counts[c], dt, op, ip), label, "reduce-scatter", counts[c], dt, o,
                           ip);
                }
                report(ag_case(ctx, sbuf, rbuf, counts[c], dt, ip), label, "allgather", counts[c], dt, "", ip);
            }
    ddl_ctx_free(ctx);
}

/* A row without the two collectives: both calls fail with DDL_ERR_ALGO and a message naming it. */
static void run_lacking(const ddl_config *cfg, char *sbuf, char *rbuf)
{
    ddl_ctx *ctx;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, cfg, &ctx);
    CHECK(rc == 0, "p=%d %s: create: %s", size, cfg->algo, ddl_last_error());
    if (rc) return;
    CHECK(ddl_reduce_scatter(ctx, sbuf, rbuf, 4, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ALGO &&
              strstr(ddl_last_error(), "has no reduce-scatter"), "%s: reduce-scatter: %s", cfg->algo, ddl_last_error());
    CHECK(ddl_allgather(ctx, sbuf, rbuf, 4, DDL_FLOAT32) == DDL_ERR_ALGO &&
              strstr(ddl_last_error(), "has no allgather"),
          "%s: allgather: %s", cfg->algo, ddl_last_error());
    if (rank == 0) printf("# without reduce-scatter and allgather: %s\n", cfg->algo);
    ddl_ctx_free(ctx);
}

/* ddl on every two-factor grid of p (and a three-factor one where p has it), rhd on its
 * power-of-two dimensions and ring on the others, then the same grid all ring. */
static void run_grids(int rpn, char *sbuf, char *rbuf)
{
    for (int a = 2; a < size; a++) {
        if (size % a) continue;
        int b = size / a, c = 0, dims[3];
        for (int d = 2; d < b; d++)
            if (b % d == 0) { c = d; break; }
        int nd = c ? 3 : 2;
        dims[0] = a, dims[1] = c ? c : b, dims[2] = c ? b / c : 0;
        for (int all_ring = 0; all_ring < 2; all_ring++) {
            char grid[64] = "", pats[64] = "", label[160];
            for (int k = 0; k < nd; k++) {
                snprintf(grid + strlen(grid), sizeof grid - strlen(grid), "%s%d", k ? "x" : "", dims[k]);
                snprintf(pats + strlen(pats), sizeof pats - strlen(pats), "%s%s", k ? "," : "",
                         !all_ring && (dims[k] & (dims[k] - 1)) == 0 ? "rhd" : "ring");
            }
            ddl_config cfg = DDL_CONFIG_INIT;
            cfg.algo = "ddl", cfg.grid = grid, cfg.patterns = pats, cfg.ranks_per_node = rpn;
            snprintf(label, sizeof label, "ddl grid=%s patterns=%s", grid, pats);
            run_variant(&cfg, label, sbuf, rbuf);
        }
    }
}

/* A cost model that prefers a different candidate as the size grows: auto's reduce-scatter and
 * allgather then run through several kinds of sub-context. */
static double rotating_cost(void *arg, const char *algo, const char *grid, const char *pats, size_t bytes)
{
    size_t k = strlen(algo) + 3 * strlen(grid ? grid : "") + 7 * strlen(pats ? pats : "");
    int lg = 0;
    (void)arg;
    while (bytes > 1) bytes >>= 1, lg++;
    return (double)((k + (size_t)lg) % 5);
}

int main(int argc, char **argv)
{
    int rpn = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--rpn")) rpn = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--net")) CHECK(test_net_option(argv[++i]) == 0, "--net %s", argv[i]);
        else CHECK(0, "unknown argument \"%s\"", argv[i]);
    }
    const size_t elems = (BIG + (size_t)size) + (size_t)size * 1009 + GUARD;
    char *sbuf = malloc(elems * 8), *rbuf = malloc(elems * 8);
    for (int a = 0; a < ddl_algo_count(); a++) {
        ddl_config cfg = DDL_CONFIG_INIT;
        cfg.algo = ddl_algo_name(a);
        cfg.ranks_per_node = rpn;
        cfg.segment_bytes = 4096; /* small segments: many pipeline steps even at small counts */
        if (ddl_algo_flags(a) & DDL_ALGO_RSAG) run_variant(&cfg, cfg.algo, sbuf, rbuf);
        else run_lacking(&cfg, sbuf, rbuf);
    }
    run_grids(rpn, sbuf, rbuf);
    ddl_config cfg = DDL_CONFIG_INIT;
    cfg.algo = "auto";
    cfg.ranks_per_node = rpn;
    cfg.cost = rotating_cost;
    run_variant(&cfg, "auto (rotating cost model)", sbuf, rbuf);
    free(sbuf);
    free(rbuf);
    int status = 0;
    if (rank == 0) status = TEST_REPORT();
    MPI_Finalize();
    return status;
}
