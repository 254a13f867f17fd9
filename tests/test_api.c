/* test_api.c — bad arguments to the public API come back as codes with a clear message, never a
 * crash: unknown algorithm, grids that do not match the communicator, null buffers, bad types, a
 * reduce-scatter or allgather count whose p·count overflows.
 * ddl_ctx_create is collective: a failure on one rank (injected with DDL_TEST_FAIL, or a bad or
 * different environment value on one rank) must fail it on every rank, in time. */
#include "ddl.h"
#include "test.h"
#include "abg_machine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static int create(const char *algo, const char *grid, const char *pats, int rpn, ddl_ctx **ctx)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    cfg.algo = algo; cfg.grid = grid; cfg.patterns = pats; cfg.ranks_per_node = rpn;
    return ddl_ctx_create(MPI_COMM_WORLD, &cfg, ctx);
}

static void expect_create(const char *algo, const char *grid, const char *pats, int rpn, int want,
                          const char *needle)
{
    ddl_ctx *ctx = (ddl_ctx *)&rank; /* must be reset to NULL on failure */
    int rc = create(algo, grid, pats, rpn, &ctx);
    CHECK(rc == want && (rc == 0) == (ctx != NULL) && (!needle || strstr(ddl_last_error(), needle)),
          "create(algo=%s grid=%s patterns=%s rpn=%d) = %d (%s), expected %d", algo, grid, pats, rpn, rc,
          rc ? ddl_last_error() : "ok", want);
    ddl_ctx_free(ctx);
}

static void test_create(void)
{
    char grid[32];
    expect_create("nosuch", NULL, NULL, 0, DDL_ERR_ALGO, "nosuch");
    snprintf(grid, sizeof grid, "%dx2", size);
    expect_create("ddl", grid, NULL, 0, DDL_ERR_GRID, "communicator has");
    expect_create("ddl", "4x", NULL, 0, DDL_ERR_GRID, "4x");
    snprintf(grid, sizeof grid, "%d", size);
    expect_create("ddl", grid, "tree", 0, DDL_ERR_GRID, "tree");
    expect_create("ddl", grid, NULL, 0, 0, NULL);
    expect_create("ddl", NULL, NULL, -1, DDL_ERR_ARG, "ranks_per_node");
    if (size == 3) {
        expect_create("ddl", "3", "rhd", 0, DDL_ERR_GRID, "power-of-two");
        expect_create("ddl", NULL, NULL, 2, DDL_ERR_TOPO, "does not divide");
    }
    expect_create(NULL, NULL, NULL, 0, 0, NULL); /* default algorithm */
    CHECK(ddl_ctx_create(MPI_COMM_WORLD, NULL, NULL) == DDL_ERR_ARG, "NULL out pointer");
    {
        ddl_ctx *stale = (ddl_ctx *)&stale; /* not a context: must be set to NULL, not left */
        CHECK(ddl_ctx_create(MPI_COMM_NULL, NULL, &stale) == DDL_ERR_ARG && stale == NULL,
              "MPI_COMM_NULL: *out NULL, as on every other failure");
    }
}

static void test_calls(void)
{
    ddl_ctx *ctx;
    float x[4] = { 1, 2, 3, 4 };
    if (create("ring", NULL, NULL, 0, &ctx)) { CHECK(0, "ring create: %s", ddl_last_error()); return; }
    CHECK(ddl_allreduce(ctx, x, NULL, 4, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG, "NULL receive buffer");
    CHECK(ddl_allreduce(ctx, NULL, x, 4, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG, "NULL send buffer");
    CHECK(ddl_allreduce(ctx, NULL, NULL, 0, DDL_FLOAT32, DDL_SUM) == 0, "count 0 with NULL buffers is fine");
    CHECK(ddl_allreduce(ctx, x, x, 4, (ddl_dtype)99, DDL_SUM) == DDL_ERR_ARG, "unknown dtype");
    CHECK(ddl_allreduce(ctx, x, x, 4, DDL_FLOAT32, (ddl_op)-1) == DDL_ERR_ARG, "unknown op");
    CHECK(ddl_allreduce(NULL, x, x, 4, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG, "NULL context");
    CHECK(strcmp(ddl_ctx_algo(ctx), "ring") == 0, "ddl_ctx_algo");
    ddl_ctx_free(ctx);
    ddl_ctx_free(NULL);
}

/* ddl_reduce_scatter and ddl_allgather refuse what ddl_allreduce refuses, and a count whose p·count
 * elements overflow, before any communication (the same answer on every rank). */
static void test_rsag_calls(void)
{
    ddl_ctx *ctx;
    float x[4] = { 1, 2, 3, 4 };
    const size_t huge = (size_t)-1 / 16 / (size_t)size + 1;
    if (create("rhd", NULL, NULL, 0, &ctx)) { CHECK(0, "rhd create: %s", ddl_last_error()); return; }
    CHECK(ddl_reduce_scatter(ctx, x, NULL, 1, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG,
          "reduce-scatter: NULL receive buffer");
    CHECK(ddl_reduce_scatter(ctx, NULL, x, 1, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG, "reduce-scatter: NULL send buffer");
    CHECK(ddl_reduce_scatter(ctx, NULL, NULL, 0, DDL_FLOAT32, DDL_SUM) == 0, "reduce-scatter: count 0, NULL buffers");
    CHECK(ddl_reduce_scatter(ctx, x, x, 1, (ddl_dtype)99, DDL_SUM) == DDL_ERR_ARG, "reduce-scatter: unknown dtype");
    CHECK(ddl_reduce_scatter(ctx, x, x, 1, DDL_FLOAT32, DDL_OP_COUNT) == DDL_ERR_ARG, "reduce-scatter: unknown op");
    CHECK(ddl_reduce_scatter(NULL, x, x, 1, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG, "reduce-scatter: NULL context");
    CHECK(ddl_reduce_scatter(ctx, x, x, huge, DDL_FLOAT32, DDL_SUM) == DDL_ERR_ARG &&
              strstr(ddl_last_error(), "too large"), "reduce-scatter: p·count overflows: %s", ddl_last_error());
    CHECK(ddl_allgather(ctx, x, NULL, 1, DDL_FLOAT32) == DDL_ERR_ARG, "allgather: NULL receive buffer");
    CHECK(ddl_allgather(ctx, NULL, x, 1, DDL_FLOAT32) == DDL_ERR_ARG, "allgather: NULL send buffer");
    CHECK(ddl_allgather(ctx, NULL, NULL, 0, DDL_FLOAT32) == 0, "allgather: count 0, NULL buffers");
    CHECK(ddl_allgather(ctx, x, x, 1, DDL_DTYPE_COUNT) == DDL_ERR_ARG, "allgather: unknown dtype");
    CHECK(ddl_allgather(NULL, x, x, 1, DDL_FLOAT32) == DDL_ERR_ARG, "allgather: NULL context");
    CHECK(ddl_allgather(ctx, x, x, huge, DDL_FLOAT32) == DDL_ERR_ARG, "allgather: p·count overflows");
    for (int a = 0; a < ddl_algo_count(); a++) { /* the shipped rows have them but the tree and nvls (and
                                                     tests/extra's star) */
        const int none = !strcmp(ddl_algo_name(a), "nccl-tree") || !strcmp(ddl_algo_name(a), "nvls");
        CHECK((!(ddl_algo_flags(a) & DDL_ALGO_RSAG)) == none, "%s: reduce-scatter and allgather %s", ddl_algo_name(a),
              none ? "(none)" : "");
    }
    CHECK(ddl_algo_flags(-1) == 0, "no flags out of range");
    ddl_ctx_free(ctx);
}

static void test_names(void)
{
    ddl_dtype dt;
    ddl_op op;
    CHECK(ddl_dtype_parse("bfloat16", &dt) == 0 && dt == DDL_BFLOAT16, "parse bfloat16");
    CHECK(ddl_dtype_parse("float", &dt) == 0 && dt == DDL_FLOAT32, "parse alias float");
    CHECK(ddl_dtype_parse("float8", &dt) == DDL_ERR_ARG, "refuse float8");
    CHECK(ddl_op_parse("max", &op) == 0 && op == DDL_MAX, "parse max");
    CHECK(ddl_op_parse("prod", &op) == DDL_ERR_ARG, "refuse prod");
    CHECK(strcmp(ddl_strerror(DDL_ERR_GRID), "invalid grid") == 0 &&
              strcmp(ddl_strerror(1000), "unknown error code") == 0,
          "strerror");
    CHECK(ddl_algo_count() >= 4 && ddl_algo_name(ddl_algo_count()) == NULL, "registry bounds");
}

/* Every rank fails with code `want`; `culprit` keeps its own message (containing `own`), the others
 * name it ("rank R failed: ..."). */
static void expect_all_fail(const char *algo, int culprit, int want, const char *own, const char *label)
{
    char peer[48];
    ddl_ctx *ctx = (ddl_ctx *)&rank; /* must be reset to NULL on failure */
    int rc = create(algo, NULL, NULL, 0, &ctx);
    snprintf(peer, sizeof peer, "rank %d failed: ", culprit);
    CHECK(rc == want && ctx == NULL && strstr(ddl_last_error(), rank == culprit ? own : peer) &&
              (rank == culprit || strstr(ddl_last_error(), own)),
          "%s, %s, culprit rank %d: rank %d got %d (%s), expected %d", label, algo, culprit, rank, rc,
          rc ? ddl_last_error() : "ok", want);
    ddl_ctx_free(ctx);
}

static void test_agreement(void)
{
    static const struct { const char *point; int code; } inject[] = {
        { "alloc", DDL_ERR_NOMEM }, { "topology", DDL_ERR_MPI }, { "setup", DDL_ERR_ARG } };
    const int detects = !getenv("DDL_RANKS_PER_NODE"); /* topology: only detection has that point */
    char val[48];
    alarm(300); /* a hang fails here, with a signal, instead of at the runner's timeout */
    for (size_t i = 0; i < sizeof inject / sizeof *inject; i++)
        for (int culprit = 0; culprit < size; culprit++)
            for (int a = 0; a < ddl_algo_count(); a++) {
                if (!strcmp(inject[i].point, "topology") && !detects) continue;
                snprintf(val, sizeof val, "%s:%d", inject[i].point, culprit);
                setenv("DDL_TEST_FAIL", val, 1);
                expect_all_fail(ddl_algo_name(a), culprit, inject[i].code, "injected", val);
            }
    setenv("DDL_TEST_FAIL", "alloc", 1);
    expect_all_fail("ring", rank, DDL_ERR_ARG, "DDL_TEST_FAIL", "malformed hook"); /* every rank its own */
    unsetenv("DDL_TEST_FAIL");
    if (rank == size - 1) setenv("DDL_SEGMENT_BYTES", "12abc", 1); /* a bad value on one rank only */
    expect_all_fail("ddl", size - 1, DDL_ERR_ARG, "DDL_SEGMENT_BYTES", "bad env on the last rank");
    unsetenv("DDL_SEGMENT_BYTES");
    if (rank == 0) setenv("DDL_NET_SEGMENT_BYTES", "63", 1); /* below 64 bytes, on rank 0 only */
    expect_all_fail("ring", 0, DDL_ERR_ARG, "net_segment_bytes", "net segment below 64 on rank 0");
    unsetenv("DDL_NET_SEGMENT_BYTES");
    setenv("DDL_TEST_NODE_RANKS", "x", 1); /* the test hook is read only when a net segment is set */
    expect_all_fail("ring", rank, DDL_ERR_ARG, "DDL_TEST_NODE_RANKS", "malformed node hook");
    unsetenv("DDL_TEST_NODE_RANKS");
    if (size > 1 && detects) { /* a good value on one rank only: it would not detect, the others would */
        if (rank == 0) setenv("DDL_RANKS_PER_NODE", "1", 1);
        expect_all_fail("ring", rank, DDL_ERR_ARG, "differs between ranks", "rpn on rank 0 only");
        unsetenv("DDL_RANKS_PER_NODE");
    }
    alarm(0);
}

/* ddl_config.machine: the default segment and depth from the links (collectives/links.c); an explicit
 * segment or depth still wins; a bad machine is refused on every rank. */
static void expect_sizes(const ddl_machine *m, size_t seg, int depth, const char *want_seg, const char *want_depth)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    char desc[512] = "", s[64], d[32];
    cfg.algo = "ring", cfg.machine = m, cfg.segment_bytes = seg, cfg.pipeline_depth = depth;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx);
    if (!rc) ddl_ctx_describe(ctx, desc, sizeof desc);
    snprintf(s, sizeof s, " segment=%s ", want_seg);
    snprintf(d, sizeof d, " depth=%s", want_depth);
    CHECK(!rc && strstr(desc, s) && strstr(desc, d), "machine: expected%s%s, got \"%s\" (%s)", s, d, desc,
          rc ? ddl_last_error() : "ok");
    ddl_ctx_free(ctx);
}

static void test_machine(void)
{
    ddl_machine nvl = abg_machine(size, size, 3e-6, 450e9, 6e-6, 400e9, 0);   /* one NVSwitch node: 1.35 MB in flight */
    ddl_machine tcp = abg_machine(size, 1, 5e-6, 10e9, 100e-6, 62.5e6, 0);  /* TCP between nodes: 6 KB */
    ddl_machine far = abg_machine(size, 1, 1e-6, 40e9, 1e-3, 20e9, 0);     /* 20 MB in flight: past the 16 MiB cap */
    if (size > 1) {
        expect_sizes(&nvl, 0, 0, "4194304", "2");
        expect_sizes(&far, 0, 0, "16777216", "3");
    }
    expect_sizes(&tcp, 0, 0, "262144", "2");                     /* the measured host default stays */
    expect_sizes(&nvl, 65536, 4, "65536", "4");                  /* explicit sizes win */
    ddl_machine bad = nvl;
    bad.intra_bw = 0;
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    cfg.machine = &bad;
    CHECK(ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx) == DDL_ERR_ARG && !ctx && strstr(ddl_last_error(), "machine"),
          "a bad machine is refused: %s", ddl_last_error());
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_create();
    test_calls();
    test_rsag_calls();
    test_names();
    test_agreement();
    test_machine();
    long failed = test_failed, total;
    MPI_Allreduce(&failed, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        test_failed = (int)total;
        status = TEST_REPORT();
    }
    MPI_Finalize();
    return status;
}
