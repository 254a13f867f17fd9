/* test_shard_train.c — `ddlbench train --shard` on real MPI (harness/train/trainer.c with
 * shard_step.h's shard_bucket_reduce): a small transformer and a small CNN trained three steps with
 * the full step (SGD with momentum) unsharded, with gradients sharded (each bucket reduce-scattered,
 * its remainder allreduced, the update on this rank's blocks with its shard of the velocities, the
 * parameters allgathered) and fully sharded (ZeRO-3: no allgather after the update; each bucket
 * gathered before the layers that use it, forward and backward, prefetched a bucket ahead), for
 * every algorithm with reduce-scatter and allgather: the parameters must match the unsharded run's
 * within 1e-5 relative (the reduce-scatter's blocks add in another order than the allreduce's, so
 * not bitwise), and a sharded rank must hold the velocities of its blocks and the remainders only
 * (trainer_memory: fewer than the parameters on 2+ ranks, at most P / p + buckets · p elements).
 * The CNN again in gemm mode (synthetic operands, plain SGD: no state), sharded the same ways.
 * Buckets of 1 KiB (a first of 256 B), so several buckets with remainders. Run at 1-4 ranks.
 * No batch norm in the CNN: on the synthetic image a channel can be near constant, and BN's
 * 1/std then magnifies the reordered sums' last-bit differences past any fixed tolerance. */
#include "ddl.h"
#include "engine.h"
#include "model.h"
#include "test.h"
#include "trainer.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

static const char xf[] = "embed tok in=tokens vocab=13 out=8 seq=5\npos wpe n=5\nnorm ln rms\nlinear qkv out=24 bias\n"
                         "attn a heads=2 causal rope\nlinear o out=8\nadd r in=wpe,o\ngelu g\n"
                         "linear head out=13 tied=tok\n";
static const char cnn[] = "conv c1 in=image out=6 k=3 p=1 bias relu\npool p avg k=2\nconv c2 out=4 k=3 p=1\n"
                          "fc fc out=7\n";

/* Three steps of model m sharded (SHARD_*) or not; the parameters into *out (malloc'd). 0, or 1. */
static int train(const model *m, ddl_ctx *ctx, int shard, int full, float **out, size_t *n)
{
    step_config sc = { 1024, 256, 0, 0.05f, 0, KERN_PREC_FP32, full, 0.0, 0, { 0, 0, 0, 0, 0, 0 }, NULL, 0,
                       shard, DDL_FLOAT32 };
    trainer *t = NULL;
    char err[256];
    int rc = trainer_create(m, ctx, &sc, &t, err, sizeof err);
    CHECK(rc == 0, "trainer: %s", err);
    for (int s = 0; !rc && s < 3; s++) {
        step_times st;
        rc = trainer_run(t, s, &st, err, sizeof err);
        CHECK(rc == 0, "step %d: %s", s, err);
    }
    rc = rc || trainer_gather_params(t);
    if (!rc) {
        const float *p = trainer_params(t, n);
        double pb, gb, sb;
        trainer_memory(t, &pb, &gb, &sb);
        size_t want = *n, most = *n / (size_t)size + (size_t)trainer_buckets(t) * (size_t)size;
        int ok = !full                      ? sb == 0 /* gemm mode: plain SGD */
                 : shard == 0 || size == 1 ? sb == (double)want * 4
                                           : sb < (double)want * 4 && sb <= (double)most * 4;
        CHECK(ok && pb == (double)*n * 4 && gb == pb, "p=%d shard %d: %.0f bytes of velocities for %zu parameters",
              size, shard, sb, *n);
        *out = malloc(*n * 4);
        memcpy(*out, p, *n * 4);
    }
    trainer_free(t);
    return rc;
}

static void check(const char *text, const char *algo, int full)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/ddl_shard_%d_%ld.txt", rank, (long)getpid());
    FILE *f = fopen(path, "w");
    fputs(text, f), fclose(f);
    model *m = NULL;
    char merr[512];
    int rc = model_create(path, 2, 8, &m, merr, sizeof merr);
    unlink(path);
    CHECK(rc == 0, "model: %s", merr);
    ddl_config cfg = DDL_CONFIG_INIT;
    cfg.algo = algo;
    ddl_ctx *ctx = NULL;
    if (rc || ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx)) return model_free(m);
    float *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    for (int mode = 1; mode <= 3 && (a || !train(m, ctx, 0, full, &a, &na)); mode += 2) { /* optimizer, full */
        if (train(m, ctx, mode, full, &b, &nb)) break;
        double worst = 0;
        for (size_t i = 0; i < na && na == nb; i++)
            worst = fmax(worst, fabs((double)a[i] - b[i]) / fmax(fabs((double)a[i]), 1e-3));
        int bad = na != nb || worst > 1e-5, any;
        MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        CHECK(!any, "p=%d %s %s shard %d compute %s: sharded parameters differ by %.3g relative", size, algo,
              text == xf ? "transformer" : "cnn", mode, full ? "full" : "gemm", worst);
        free(b), b = NULL;
    }
    free(a), free(b);
    ddl_ctx_free(ctx);
    model_free(m);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, engine_thread_level(), &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int a = 0; a < ddl_algo_count(); a++)
        if (ddl_algo_flags(a) & DDL_ALGO_RSAG)
            check(xf, ddl_algo_name(a), 1), check(cnn, ddl_algo_name(a), 1), check(cnn, ddl_algo_name(a), 0);
    int passed = test_passed, failed = test_failed;
    MPI_Allreduce(&passed, &test_passed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&failed, &test_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int status = 0;
    if (rank == 0) status = TEST_REPORT();
    MPI_Finalize();
    return status;
}
