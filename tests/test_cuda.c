/* test_cuda.c — the CUDA build's device path (built only when make finds nvcc; run by tests/run.sh at
 * 1, 2 and 3 ranks): the reduction kernel against kernels/reduce.c bit for bit (every type × op,
 * in-place and out-of-place, sizes around the block and grid edges); cuBLAS GEMM in every precision
 * and transpose against a float64 reference on small-integer data (exact in fp32, tf32, bf16 and fp16
 * inputs with float32 accumulation); host pointers refused; then every registered algorithm on device
 * buffers × counts {0, 1, p-1, p, p+1, 1009, 2^20+3} (q = 1 and non-powers of two at 1 and 3 ranks)
 * × every type (sum) × in-place and out-of-place (allreduce; reduce-scatter and allgather with those
 * counts per rank, ⌈(2^20+3)/p⌉ for the largest), with small segments at the default depth and with
 * the default segment at the smallest depth, staged (DDL_CUDA_AWARE=0) and, where the MPI library
 * says so, CUDA-aware. Data and checks are harness/bench/bench_data.c's; the send buffer must come
 * back untouched. Without a device it prints one SKIP line and "0 passed, 0 failed". Ranks share
 * device rank % count. DDL_CUDA_AWARE=1 runs the cuda-aware section whatever the detection says.
 * tests/fake/run.sh runs it on a fake device (deferred streams) to check the ordering without a GPU. */
#include "bench.h"
#include "ddl.h"
#include "devmem.h"
#include "gemm.h"
#include "half.h"
#include "reduce.h"
#include "test.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void put(kern_dtype dt, void *p, size_t i, int v)
{
    switch (dt) {
    case KERN_F32: ((float *)p)[i] = (float)v; break;
    case KERN_F64: ((double *)p)[i] = v; break;
    case KERN_F16: ((uint16_t *)p)[i] = kern_f32_to_f16((float)v + 0.25f * (float)(v & 1)); break;
    case KERN_BF16: ((uint16_t *)p)[i] = kern_f32_to_bf16((float)v + 0.125f * (float)(v & 3)); break;
    default: ((int32_t *)p)[i] = v * 1000003; break;
    }
}

/* The device kernel against the CPU kernel, byte for byte. */
static void test_reduce(void)
{
    static const size_t sizes[] = { 1, 255, 256, 257, 8192 * 256 + 5 };
    for (int dt = 0; dt < KERN_DTYPE_COUNT; dt++)
        for (int op = 0; op < KERN_OP_COUNT; op++)
            for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    size_t n = sizes[si], bytes = n * kern_dtype_size((kern_dtype)dt);
                    char *a = malloc(bytes), *b = malloc(bytes), *want = malloc(bytes), *got = malloc(bytes);
                    void *da = NULL, *db = NULL, *dout = NULL;
                    int rc = !a || !b || !want || !got;
                    for (size_t i = 0; !rc && i < n; i++) {
                        put((kern_dtype)dt, a, i, (int)(i % 97) - 48);
                        put((kern_dtype)dt, b, i, (int)((i * 7) % 89) - 44);
                    }
                    if (!rc) kern_reduce((kern_dtype)dt, (kern_op)op, want, a, b, n);
                    rc = rc || kern_dev_alloc(&da, bytes) || kern_dev_alloc(&db, bytes) ||
                         kern_dev_alloc(&dout, bytes) || kern_dev_copy(da, a, bytes, NULL) ||
                         kern_dev_copy(db, b, bytes, NULL) ||
                         kern_reduce_device((kern_dtype)dt, (kern_op)op, inplace ? da : dout, da, db, n, NULL) ||
                         kern_dev_copy(got, inplace ? da : dout, bytes, NULL) || kern_stream_sync(NULL);
                    CHECK(!rc && !memcmp(got, want, bytes), "reduce_device dt=%d op=%d n=%zu in_place=%d: %s", dt, op,
                          n, inplace, rc ? kern_dev_last_error() : "values differ from kern_reduce");
                    kern_dev_free(da), kern_dev_free(db), kern_dev_free(dout);
                    free(a), free(b), free(want), free(got);
                }
}

/* Row-major reference in float64. */
static void ref_gemm(int ta, int tb, int m, int n, int k, const float *A, int lda, const float *B, int ldb, double *C)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0;
            for (int p = 0; p < k; p++)
                acc += (double)(ta ? A[(long)p * lda + i] : A[(long)i * lda + p]) *
                       (double)(tb ? B[(long)j * ldb + p] : B[(long)p * ldb + j]);
            C[(long)i * n + j] = acc;
        }
}

static void *to_input(kern_precision prec, const float *x, size_t n)
{
    size_t es = kern_precision_input_size(prec);
    char *h = malloc(n * es);
    void *d = NULL;
    if (!h) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (es == 4) memcpy(h + i * 4, &x[i], 4);
        else {
            uint16_t v = prec == KERN_PREC_BF16 ? kern_f32_to_bf16(x[i]) : kern_f32_to_f16(x[i]);
            memcpy(h + i * 2, &v, 2);
        }
    }
    if (kern_dev_alloc(&d, n * es) || kern_dev_copy(d, h, n * es, NULL) || kern_stream_sync(NULL)) {
        kern_dev_free(d);
        d = NULL;
    }
    free(h);
    return d;
}

static void test_gemm_case(kern_precision prec, int ta, int tb, int m, int n, int k)
{
    int lda = (ta ? m : k) + 1, ldb = (tb ? k : n) + 2, ldc = n + 3;
    size_t na = (size_t)(ta ? k : m) * lda, nb = (size_t)(tb ? n : k) * ldb, nc = (size_t)m * ldc;
    float *A = malloc((na + 1) * 4), *B = malloc((nb + 1) * 4), *C = malloc((nc + 1) * 4);
    double *R = malloc(((size_t)m * n + 1) * 8);
    void *dA = NULL, *dB = NULL, *dC = NULL;
    long wrong = 0;
    int rc = !A || !B || !C || !R;
    for (size_t i = 0; !rc && i < na; i++) A[i] = (float)((int)(i % 7) - 3);
    for (size_t i = 0; !rc && i < nb; i++) B[i] = (float)((int)(i % 5) - 2);
    for (size_t i = 0; !rc && i < nc; i++) C[i] = NAN; /* beta = 0 must ignore it */
    if (!rc) {
        ref_gemm(ta, tb, m, n, k, A, lda, B, ldb, R);
        dA = to_input(prec, A, na), dB = to_input(prec, B, nb);
        rc = !dA || !dB || kern_dev_alloc(&dC, nc * 4) || kern_dev_copy(dC, C, nc * 4, NULL) || kern_stream_sync(NULL);
    }
    if (!rc) rc = kern_gemm_ex(prec, ta, tb, m, n, k, 1.0f, dA, lda, dB, ldb, 0.0f, dC, ldc);
    if (!rc)
        rc =
            kern_stream_sync(kern_dev_compute_stream()) || kern_dev_copy(C, dC, nc * 4, NULL) || kern_stream_sync(NULL);
    for (int i = 0; !rc && i < m; i++)
        for (int j = 0; j < n; j++)
            wrong += (double)C[(long)i * ldc + j] != R[(long)i * n + j]; /* exact: small integers */
    CHECK(!rc && !wrong, "gemm %s ta=%d tb=%d m=%d n=%d k=%d: rc=%d, %ld wrong", kern_precision_name(prec), ta, tb, m,
          n, k, rc, wrong);
    kern_dev_free(dA), kern_dev_free(dB), kern_dev_free(dC);
    free(A), free(B), free(C), free(R);
}

static void test_gemm(void)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 3, 5, 7 }, { 64, 33, 129 }, { 130, 70, 0 }, { 257, 96, 300 } };
    for (int p = 0; p < KERN_PREC_COUNT; p++)
        for (int t = 0; t < 4; t++)
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
                test_gemm_case((kern_precision)p, t & 1, t >> 1, shapes[s][0], shapes[s][1], shapes[s][2]);
    float host[4] = { 1, 2, 3, 4 };
    CHECK(kern_gemm_f32(0, 0, 2, 2, 1, 1.0f, host, 1, host, 2, 0.0f, host, 2) == KERN_GEMM_EARG,
          "cuBLAS backend must refuse host pointers");
}

#define BIG ((1u << 20) + 3)

/* One case: fill on the host, copy up, allreduce on the device, copy back, count wrong elements
 * (1 for an error, with its message on stderr). */
static long device_case(ddl_ctx *ctx, char *h, void *ds, void *dr, size_t n, ddl_dtype dt, int in_place)
{
    const size_t bytes = n * ddl_dtype_size(dt);
    long wrong;
    int rc;
    bench_fill(dt, h, n, rank);
    if (kern_dev_copy(in_place ? dr : ds, h, bytes, NULL) || (!in_place && kern_dev_memset(dr, 0xff, bytes, NULL)) ||
        kern_stream_sync(NULL)) {
        fprintf(stderr, "rank %d: %s\n", rank, kern_dev_last_error());
        return 1;
    }
    if ((rc = ddl_allreduce(ctx, in_place ? DDL_IN_PLACE : ds, dr, n, dt, DDL_SUM))) {
        fprintf(stderr, "rank %d: %s\n", rank, ddl_last_error());
        return 1;
    }
    if (kern_dev_copy(h, dr, bytes, NULL) || kern_stream_sync(NULL)) return 1;
    wrong = (long)bench_check_result(dt, DDL_SUM, h, n, size);
    if (!in_place) {
        if (kern_dev_copy(h, ds, bytes, NULL) || kern_stream_sync(NULL)) return 1;
        wrong += (long)bench_check_input(dt, h, n, rank);
    }
    return wrong;
}

/* Reduce-scatter (ag = 0) or allgather (ag = 1) of n elements per rank on device buffers (sum), as
 * device_case, with tests/test_collectives.c's data. */
static long rsag_device_case(ddl_ctx *ctx, char *h, void *ds, void *dr, size_t n, ddl_dtype dt, int in_place, int ag)
{
    const size_t es = ddl_dtype_size(dt), all = (size_t)size * n, mine = (size_t)rank * n, in_n = ag ? n : all;
    void *to = !in_place ? ds : ag ? (char *)dr + mine * es : dr;
    long wrong = 0;
    bench_fill_at(dt, h, in_n, rank, ag ? mine : 0);
    if (((!in_place || ag) && kern_dev_memset(dr, 0xff, all * es, NULL)) || kern_dev_copy(to, h, in_n * es, NULL) ||
        kern_stream_sync(NULL)) {
        fprintf(stderr, "rank %d: %s\n", rank, kern_dev_last_error());
        return 1;
    }
    const void *send = in_place ? DDL_IN_PLACE : ds;
    if (ag ? ddl_allgather(ctx, send, dr, n, dt) : ddl_reduce_scatter(ctx, send, dr, n, dt, DDL_SUM)) {
        fprintf(stderr, "rank %d: %s\n", rank, ddl_last_error());
        return 1;
    }
    if (kern_dev_copy(h, dr, (ag ? all : n) * es, NULL) || kern_stream_sync(NULL)) return 1;
    for (int r = 0; ag && r < size; r++)
        wrong += (long)bench_check_input_at(dt, h + (size_t)r * n * es, n, r, (size_t)r * n);
    if (!ag) wrong += (long)bench_check_reduced_at(dt, DDL_SUM, h, n, size, mine);
    if (!in_place) {
        if (kern_dev_copy(h, ds, in_n * es, NULL) || kern_stream_sync(NULL)) return 1;
        wrong += (long)bench_check_input_at(dt, h, in_n, rank, ag ? mine : 0);
    }
    return wrong;
}

static void run_algo(const char *path, const ddl_config *cfg, char *h, void *ds, void *dr)
{
    const size_t counts[] = { 0, 1, (size_t)size - 1, (size_t)size, (size_t)size + 1, 1009, BIG };
    ddl_ctx *ctx = NULL;
    char desc[256] = "";
    int rc = ddl_ctx_create(MPI_COMM_WORLD, cfg, &ctx);
    if (!strcmp(cfg->algo, "nccl-tree") || !strcmp(cfg->algo, "nvls")) { /* host buffers only: refused at creation */
        CHECK(rc == DDL_ERR_DEVICE && !ctx, "%s %s on device buffers: %d, want DDL_ERR_DEVICE", path, cfg->algo, rc);
        return;
    }
    CHECK(!rc, "%s ddl_ctx_create(device) %s: %s", path, cfg->algo, ddl_last_error());
    if (rc) return;
    ddl_ctx_describe(ctx, desc, sizeof desc);
    CHECK(strstr(desc, path) != NULL, "%s %s: describe says \"%s\"", path, cfg->algo, desc);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
        for (int dt = 0; dt < DDL_DTYPE_COUNT; dt++)
            for (int ip = 0; ip < 2; ip++) {
                long wrong = device_case(ctx, h, ds, dr, counts[c], (ddl_dtype)dt, ip), total = 0;
                MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                if (rank == 0)
                    CHECK(total == 0, "%s %s segment=%zu depth=%d count=%zu %s %s: %ld wrong", path, cfg->algo,
                          cfg->segment_bytes, cfg->pipeline_depth, counts[c], ddl_dtype_name((ddl_dtype)dt),
                          ip ? "in-place" : "out-of-place", total);
                const size_t per = counts[c] == BIG ? (BIG + (size_t)size - 1) / (size_t)size : counts[c];
                for (int ag = 0; ag < 2; ag++) {
                    wrong = rsag_device_case(ctx, h, ds, dr, per, (ddl_dtype)dt, ip, ag);
                    MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                    if (rank == 0)
                        CHECK(total == 0, "%s %s %s segment=%zu depth=%d count=%zu per rank %s %s: %ld wrong", path,
                              cfg->algo, ag ? "allgather" : "reduce-scatter", cfg->segment_bytes, cfg->pipeline_depth,
                              per, ddl_dtype_name((ddl_dtype)dt), ip ? "in-place" : "out-of-place", total);
                }
            }
    ddl_ctx_free(ctx);
}

/* Every algorithm on device buffers: small segments (many in flight) at the default depth, and the
 * default segment at the smallest device depth (one segment ahead). */
static void test_allreduce(const char *path)
{
    static const struct { size_t segment; int depth; } variants[] = { { 4096, 0 }, { 0, 2 } };
    const size_t bytes = ((size_t)BIG + (size_t)size * 1010) * 8; /* reduce-scatter, allgather: p x count */
    char *h = malloc(bytes);
    void *ds = NULL, *dr = NULL;
    int err = !h || kern_dev_alloc(&ds, bytes) || kern_dev_alloc(&dr, bytes);
    CHECK(!err, "%s: buffers: %s", path, h ? kern_dev_last_error() : "out of memory");
    for (size_t v = 0; !err && v < sizeof variants / sizeof *variants; v++)
        for (int a = 0; a < ddl_algo_count(); a++) {
            ddl_config cfg = DDL_CONFIG_INIT;
            cfg.algo = ddl_algo_name(a);
            cfg.device = 1;
            cfg.segment_bytes = variants[v].segment;
            cfg.pipeline_depth = variants[v].depth;
            run_algo(path, &cfg, h, ds, dr);
        }
    kern_dev_free(ds), kern_dev_free(dr);
    free(h);
}

int main(int argc, char **argv)
{
    int n = 0, counts[2], sums[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int none = kern_dev_count(&n) != KERN_DEV_OK || n == 0, any_none;
    MPI_Allreduce(&none, &any_none, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_none) {
        if (rank == 0) printf("SKIP: no CUDA device (%s)\n0 passed, 0 failed\n", kern_dev_last_error());
        MPI_Finalize();
        return 0;
    }
    CHECK(kern_dev_select(rank % n) == KERN_DEV_OK, "cudaSetDevice: %s", kern_dev_last_error());
    if (rank == 0) printf("# %s\n", kern_dev_name());
    if (rank == 0) {
        test_reduce();
        if (!strncmp(kern_gemm_backend(), "cuBLAS", 6)) test_gemm(); /* tests/fake/ links the CPU GEMM */
    }
    const char *aware = getenv("DDL_CUDA_AWARE"); /* "1": the cuda-aware section runs, detected or not */
    const int force_aware = aware && !strcmp(aware, "1");
    setenv("DDL_CUDA_AWARE", "0", 1);
    test_allreduce("staged");
    if (force_aware) setenv("DDL_CUDA_AWARE", "1", 1);
    else unsetenv("DDL_CUDA_AWARE");
    ddl_config probe = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    char desc[256] = "";
    probe.device = 1;
    if (!ddl_ctx_create(MPI_COMM_WORLD, &probe, &ctx) && !ddl_ctx_describe(ctx, desc, sizeof desc) &&
        strstr(desc, "device=cuda-aware"))
        test_allreduce("cuda-aware");
    ddl_ctx_free(ctx);
    counts[0] = test_passed, counts[1] = test_failed;
    MPI_Reduce(counts, sums, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("%d passed, %d failed\n", sums[0], sums[1]);
    MPI_Finalize();
    return rank == 0 && sums[1] != 0;
}
