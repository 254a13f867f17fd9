/* test_link.c — a program that links libddl.a alone, as a framework would: only ddl.h, no harness,
 * no kernels (the Makefile links build/libddl.a as test_link and, where nvcc is found, the CUDA
 * build's build/cuda/libddl.a as test_link_cuda). Every registered algorithm allreduces exact data
 * in place and out of place, and (where it has them) reduce-scatters then allgathers it in place; a device context
 * (cfg.device = 1) is either made, or refused with
 * DDL_ERR_DEVICE (the host library, or no GPU) — never a crash or a link error. */
#include "ddl.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define N 1031

static int rank, size;

static void check_algo(const char *algo)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    cfg.algo = algo;
    int rc = in && out ? ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx) : DDL_ERR_NOMEM;
    CHECK(rc == 0, "%s: ddl_ctx_create: %s", algo, ddl_last_error());
    for (int place = 0; rc == 0 && place < 2; place++) {
        long bad = 0;
        for (int i = 0; i < N; i++) in[i] = out[i] = (float)(rank + 1) * (float)(i % 7);
        rc = ddl_allreduce(ctx, place ? DDL_IN_PLACE : in, out, N, DDL_FLOAT32, DDL_SUM);
        for (int i = 0; i < N; i++) bad += out[i] != (float)(size * (size + 1) / 2) * (float)(i % 7);
        CHECK(rc == 0 && bad == 0, "%s %s: rc %d (%s), %ld wrong", algo, place ? "in-place" : "out-of-place", rc,
              rc ? ddl_last_error() : "ok", bad);
    }
    if (rc == 0 && (ddl_algo_flags(ddl_algo_find(algo)) & DDL_ALGO_RSAG)) {
        const int per = N / size; /* the first size·per elements: reduce-scatter, allgather = allreduce */
        long bad = 0;
        for (int j = 0; j < size * per; j++) out[j] = (float)(rank + 1) * (float)(j % 7);
        rc = ddl_reduce_scatter(ctx, DDL_IN_PLACE, out, (size_t)per, DDL_FLOAT32, DDL_SUM);
        if (!rc) memmove(out + rank * per, out, (size_t)per * sizeof *out);
        if (!rc) rc = ddl_allgather(ctx, DDL_IN_PLACE, out, (size_t)per, DDL_FLOAT32);
        for (int j = 0; j < size * per; j++) bad += out[j] != (float)(size * (size + 1) / 2) * (float)(j % 7);
        CHECK(rc == 0 && bad == 0, "%s reduce-scatter + allgather: rc %d (%s), %ld wrong", algo, rc,
              rc ? ddl_last_error() : "ok", bad);
    }
    ddl_ctx_free(ctx);
    free(in);
    free(out);
}

static void check_device(void)
{
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    cfg.device = 1;
    int rc = ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx);
    CHECK(rc == 0 || rc == DDL_ERR_DEVICE, "device context: %d (%s)", rc, ddl_last_error());
    if (rank == 0)
        printf("# device context: %s\n", rc == 0 ? "made" : ddl_last_error());
    ddl_ctx_free(ctx);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int a = 0; a < ddl_algo_count(); a++) check_algo(ddl_algo_name(a));
    check_device();
    long failed = test_failed, passed = test_passed, tf, tp;
    MPI_Allreduce(&failed, &tf, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&passed, &tp, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) {
        test_failed = (int)tf;
        test_passed = (int)tp;
        status = TEST_REPORT();
    }
    MPI_Finalize();
    return status;
}
