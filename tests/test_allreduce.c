/* test_allreduce.c — every registered algorithm (plus ddl on explicit grids with mixed patterns) ×
 * counts {0, 1, p-1, p, p+1, 1009, 2^20+3} × every type × sum/max/min × in-place and out-of-place.
 * Data depends on rank and index and is exact in every type (small integers); the send buffer must
 * come back untouched; the receive buffer starts as NaN/garbage. Wrong counts are reduced over ranks.
 * auto runs with its built-in rule (from the registry), with a scrambling cost model, and once per
 * algorithm it may choose (DDL_ALGO_AUTO) with a cost model that makes that one cheapest: it must
 * pick it for every size. Every algorithm also sums non-integer float32 and float64 values, which round:
 * every rank must end with the same bits. Rank 0 prints the registry it tested ("# algorithms: ...").
 * Usage (under mpirun): test_allreduce [--rpn K] [--quick] [--expect-rpn K]
 *   --rpn K         emulate nodes of K ranks (else detected with MPI_COMM_TYPE_SHARED)
 *   --quick         fewer cases, for runs across an emulated network (tests/cluster.sh): counts up to
 *                   2^16+3, float32/float16/int32, sum and max
 *   --expect-rpn K  also check that the detected ranks per node is K (real node boundaries), and that
 *                   messages to other nodes are cut at the network segment (a node map was made)
 *   --net K:B       ranks K apart count as other nodes, their messages cut at B bytes (test.h) */
#include "bench.h"
#include "ddl.h"
#include "test.h"
#include "abg_machine.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BIG ((1u << 20) + 3)
#define QUICK_BIG ((1u << 16) + 3)

static int rank, size, quick;

/* One case; returns the number of wrong elements on this rank (or 1 for an error code). The data
 * and its checks are harness/bench/bench_data.c's (bench.h), shared with `ddlbench allreduce`. */
static long run_case(ddl_ctx *ctx, void *sbuf, void *rbuf, size_t n, ddl_dtype dt, ddl_op op, int in_place)
{
    bench_fill(dt, sbuf, n, rank);
    if (in_place)
        memcpy(rbuf, sbuf, n * ddl_dtype_size(dt));
    else
        memset(rbuf, 0xff, n * ddl_dtype_size(dt));
    int rc = ddl_allreduce(ctx, in_place ? DDL_IN_PLACE : sbuf, rbuf, n, dt, op);
    if (rc) {
        fprintf(stderr, "rank %d: %s\n", rank, ddl_last_error());
        return 1;
    }
    long wrong = (long)bench_check_result(dt, op, rbuf, n, size);
    if (!in_place) wrong += (long)bench_check_input(dt, sbuf, n, rank);
    return wrong;
}

static void run_variant(const ddl_config *cfg, const char *label, void *sbuf, void *rbuf)
{
    const size_t counts[] = { 0, 1, (size_t)size - 1, (size_t)size, (size_t)size + 1, 1009, quick ? QUICK_BIG : BIG };
    ddl_ctx *ctx;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, cfg, &ctx);
    CHECK(rc == 0, "p=%d %s: create: %s", size, label, ddl_last_error());
    if (rc) return;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int dt = 0; dt < DDL_DTYPE_COUNT; dt++)
            for (int op = 0; op < DDL_OP_COUNT; op++)
                for (int ip = 0; ip < 2; ip++) {
                    if (counts[c] == BIG && op == DDL_MIN) continue; /* min is covered at the small counts */
                    if (quick && (op == DDL_MIN || dt == DDL_FLOAT64 || dt == DDL_BFLOAT16)) continue;
                    long wrong = run_case(ctx, sbuf, rbuf, counts[c], dt, op, ip), total = 0;
                    MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                    if (rank == 0)
                        CHECK(total == 0, "p=%d %s count=%zu %s %s %s: %ld wrong", size, label, counts[c],
                              ddl_dtype_name(dt), ddl_op_name(op), ip ? "in-place" : "out-of-place", total);
                }
    ddl_ctx_free(ctx);
}

/* Non-integer floats (float32 and float64 sums, which round): every rank must end with the same bits,
 * whatever order the algorithm reduced in (the tree's halves reduce in different orders; the root's
 * result is broadcast). The hashes of the results are compared over ranks. */
static void run_same_bits(const ddl_config *cfg, const char *label, void *sbuf, void *rbuf)
{
    const size_t counts[] = { 1009, quick ? QUICK_BIG : BIG };
    ddl_ctx *ctx;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, cfg, &ctx);
    CHECK(rc == 0, "p=%d %s (same bits): create: %s", size, label, ddl_last_error());
    if (rc) return;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (int dt = DDL_FLOAT32; dt <= DDL_FLOAT64; dt++) {
            const size_t n = counts[c], es = ddl_dtype_size(dt);
            unsigned long h = 5381, lo = 0, hi = 0;
            for (size_t i = 0; i < n; i++) {
                double x = 1.0 / (double)(rank + 3) + (double)(i % 97) * 1e-3;
                if (dt == DDL_FLOAT32) ((float *)sbuf)[i] = (float)x;
                else ((double *)sbuf)[i] = x;
            }
            rc = ddl_allreduce(ctx, sbuf, rbuf, n, dt, DDL_SUM);
            for (size_t i = 0; i < n * es; i++) h = h * 33 + ((unsigned char *)rbuf)[i];
            h = rc ? (unsigned long)rank + 1 : h; /* a failed call differs from its peers' */
            MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
            if (rank == 0)
                CHECK(rc == 0 && lo == hi, "p=%d %s count=%zu %s: ranks disagree bitwise on non-integer sums", size,
                      label, n, ddl_dtype_name(dt));
        }
    ddl_ctx_free(ctx);
}

/* ddl and ddl-pipe on explicit grids: p = a x b (and a x b x c) with ring and rhd mixed where rhd applies. */
static void run_grids(int rpn, void *sbuf, void *rbuf)
{
    char grid[64], pats[64], label[160];
    /* ddl-pipe's own grid (rhd across a node count's power of two, a ring on its odd factor), with the
     * default window and with the one the links give on 4 to 32 DGX nodes (16 chunks, 4 leading) */
    for (int wide = 0; rpn > 0 && wide < 2; wide++) {
        ddl_config cfg = DDL_CONFIG_INIT;
        cfg.algo = "ddl-pipe";
        cfg.ranks_per_node = rpn;
        setenv("DDL_PIPE_CHUNK", "1000", 1);
        if (wide) setenv("DDL_PIPE_WINDOW", "16", 1), setenv("DDL_PIPE_LEAD", "4", 1);
        snprintf(label, sizeof label, "ddl-pipe (its derived grid, 1000-byte chunks%s)", wide ? ", window 16" : "");
        run_variant(&cfg, label, sbuf, rbuf);
        run_same_bits(&cfg, label, sbuf, rbuf);
        unsetenv("DDL_PIPE_CHUNK");
        unsetenv("DDL_PIPE_WINDOW");
        unsetenv("DDL_PIPE_LEAD");
    }
    for (int a = 2; a < size; a++) {
        if (size % a) continue;
        int b = size / a, c = 0;
        for (int d = 2; d < b; d++) if (b % d == 0) { c = d; break; }
        if (c) snprintf(grid, sizeof grid, "%dx%dx%d", a, c, b / c);
        else snprintf(grid, sizeof grid, "%dx%d", a, b);
        int n = c ? 3 : 2, dims[3] = { a, c ? c : b, c ? b / c : 0 };
        pats[0] = '\0';
        for (int k = 0; k < n; k++)
            snprintf(pats + strlen(pats), sizeof pats - strlen(pats), "%s%s", k ? "," : "",
                     (k % 2 == 0 && (dims[k] & (dims[k] - 1)) == 0) ? "rhd" : "ring");
        for (int pipe = 0; pipe < 2; pipe++) { /* ddl-pipe: chunks of 1000 bytes, so uneven ones */
            ddl_config cfg = DDL_CONFIG_INIT;
            snprintf(label, sizeof label, "%s grid=%s patterns=%s", pipe ? "ddl-pipe" : "ddl", grid, pats);
            cfg.algo = pipe ? "ddl-pipe" : "ddl"; cfg.grid = grid; cfg.patterns = pats; cfg.ranks_per_node = rpn;
            if (pipe) setenv("DDL_PIPE_CHUNK", "1000", 1);
            run_variant(&cfg, label, sbuf, rbuf);
            if (pipe) run_same_bits(&cfg, label, sbuf, rbuf);
            unsetenv("DDL_PIPE_CHUNK");
        }
    }
}

/* A cost model that ranks candidates by a hash of (algo, grid, patterns, size): auto then picks a
 * different candidate for many size classes, so every kind of sub-context gets exercised. */
static double scrambled_cost(void *arg, const char *algo, const char *grid, const char *pats, size_t bytes)
{
    unsigned long h = 5381 + bytes;
    (void)arg;
    for (const char *s = algo; *s; s++) h = h * 33 + (unsigned char)*s;
    for (const char *s = grid ? grid : ""; *s; s++) h = h * 33 + (unsigned char)*s;
    for (const char *s = pats ? pats : ""; *s; s++) h = h * 33 + (unsigned char)*s;
    return (double)(h % 1000);
}

/* Cost model: the algorithm named by arg costs 1, every other 2. */
static double favour_cost(void *arg, const char *algo, const char *grid, const char *pats, size_t bytes)
{
    (void)grid;
    (void)pats;
    (void)bytes;
    return strcmp(algo, (const char *)arg) ? 2.0 : 1.0;
}

/* auto with favour_cost picks the favoured algorithm for every size class (1K-1G), and it runs. */
static void run_auto_picks(int rpn, void *sbuf, void *rbuf)
{
    char picked[256] = "";
    for (int a = 0; a < ddl_algo_count(); a++) {
        if (!(ddl_algo_flags(a) & DDL_ALGO_AUTO)) continue;
        ddl_config cfg = DDL_CONFIG_INIT;
        char desc[2048], want[64];
        ddl_ctx *ctx;
        cfg.algo = "auto";
        cfg.ranks_per_node = rpn;
        cfg.cost = favour_cost;
        cfg.cost_arg = (void *)ddl_algo_name(a);
        int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx);
        CHECK(rc == 0, "p=%d auto favouring %s: create: %s", size, ddl_algo_name(a), ddl_last_error());
        if (rc) continue;
        ddl_ctx_describe(ctx, desc, sizeof desc);
        snprintf(want, sizeof want, "choices: 1K-1G %s", ddl_algo_name(a));
        if (rank == 0) CHECK(strstr(desc, want) != NULL, "p=%d auto favouring %s: %s", size, ddl_algo_name(a), desc);
        if (strstr(desc, want))
            snprintf(picked + strlen(picked), sizeof picked - strlen(picked), " %s", ddl_algo_name(a));
        long wrong = run_case(ctx, sbuf, rbuf, 1009, DDL_FLOAT32, DDL_SUM, 0), total = 0;
        MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0) CHECK(total == 0, "p=%d auto favouring %s: %ld wrong", size, ddl_algo_name(a), total);
        ddl_ctx_free(ctx);
    }
    if (rank == 0) printf("# auto picks:%s\n", picked);
}

/* The ranks per node the library detects (no override) must be the launcher's placement. */
static void check_detected(int want)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx;
    char desc[256] = "", key[32];
    int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx);
    CHECK(rc == 0, "p=%d detect: create: %s", size, ddl_last_error());
    if (rc) return;
    ddl_ctx_describe(ctx, desc, sizeof desc);
    snprintf(key, sizeof key, " ranks_per_node=%d ", want);
    if (rank == 0) CHECK(strstr(desc, key) != NULL, "p=%d: detected \"%s\", want%s", size, desc, key);
    if (rank == 0 && want < size) /* several real nodes: a node map, so remote messages are cut */
        CHECK(strstr(desc, " net_segment=") && !strstr(desc, "(one node)"), "p=%d: no node map in \"%s\"", size, desc);
    ddl_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    int rpn = 0, expect_rpn = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--rpn")) rpn = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--net")) CHECK(test_net_option(argv[++i]) == 0, "--net %s", argv[i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--expect-rpn")) expect_rpn = atoi(argv[++i]);
        else CHECK(0, "unknown argument \"%s\"", argv[i]);
    }
    if (expect_rpn) check_detected(expect_rpn);
    void *sbuf = malloc((size_t)BIG * 8), *rbuf = malloc((size_t)BIG * 8);
    for (int a = 0; a < ddl_algo_count(); a++) {
        ddl_config cfg = DDL_CONFIG_INIT;
        cfg.algo = ddl_algo_name(a);
        cfg.ranks_per_node = rpn;
        cfg.segment_bytes = 4096; /* small segments: many pipeline steps even at small counts */
        run_variant(&cfg, ddl_algo_name(a), sbuf, rbuf);
        run_same_bits(&cfg, ddl_algo_name(a), sbuf, rbuf);
    }
    { /* segments sized from the links (ddl_config.machine, one NVSwitch node: 4 MiB): a step's message
       * of 512 KiB .. 4 MiB is cut in two (exchange.c), both ends alike, also for unequal blocks */
        ddl_machine nvl = abg_machine(size, size, 3e-6, 450e9, 6e-6, 400e9, 0);
        static const char *const cut[] = { "ring", "rhd", "ddl", "nccl-ring" };
        for (int a = 0; a < 4; a++) {
            ddl_config cfg = DDL_CONFIG_INIT;
            char label[64];
            cfg.algo = cut[a];
            cfg.ranks_per_node = rpn;
            cfg.machine = &nvl;
            snprintf(label, sizeof label, "%s (segments from the links)", cut[a]);
            run_variant(&cfg, label, sbuf, rbuf);
        }
    }
    for (int k = 0; k < 2; k++) { /* nccl-ring with 3 and p channels (the default: ranks per node) */
        const int ch = k == 0 ? 3 : size;
        if (ch > size || (k == 1 && size == 3)) continue;
        ddl_config cfg = DDL_CONFIG_INIT;
        char label[64], value[16];
        snprintf(value, sizeof value, "%d", ch);
        setenv("DDL_CHANNELS", value, 1);
        cfg.algo = "nccl-ring";
        cfg.ranks_per_node = rpn;
        cfg.segment_bytes = 4096;
        snprintf(label, sizeof label, "nccl-ring (DDL_CHANNELS=%d)", ch);
        run_variant(&cfg, label, sbuf, rbuf);
        unsetenv("DDL_CHANNELS");
    }
    run_grids(rpn, sbuf, rbuf);
    ddl_config cfg = DDL_CONFIG_INIT;
    cfg.algo = "auto";
    cfg.ranks_per_node = rpn;
    cfg.cost = scrambled_cost;
    run_variant(&cfg, "auto (scrambled cost model)", sbuf, rbuf);
    run_auto_picks(rpn, sbuf, rbuf);
    if (rank == 0) {
        printf("# algorithms:");
        for (int a = 0; a < ddl_algo_count(); a++) printf(" %s", ddl_algo_name(a));
        printf("\n");
    }
    free(sbuf);
    free(rbuf);
    int status = 0;
    if (rank == 0) status = TEST_REPORT();
    MPI_Finalize();
    return status;
}
