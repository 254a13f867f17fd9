/* test_shard_train.c — `ddlbench train --shard` on real MPI (harness/train/trainer.c with
 * shard_step.h's shard_bucket_reduce): a small transformer and a small CNN trained three steps with
 * the full step unsharded, with the optimizer and the gradients sharded (each bucket reduce-scattered, its remainder
 * allreduced, the update on this rank's blocks with its shard of the optimizer state, the parameters
 * allgathered) and fully sharded (ZeRO-3: no allgather after the update; each bucket gathered before
 * the layers that use it, forward and backward, prefetched a bucket ahead), for every algorithm with
 * reduce-scatter and allgather and every optimizer (SGD with momentum, Adam, LAMB: trainer_optim.c).
 * The parameters must match the unsharded run's within a tolerance, not bitwise: the reduce-scatter's
 * blocks add in another order than the allreduce's, and LAMB's per-tensor norms are allreduced from
 * the ranks' partial sums: 1e-5 relative for all three (measured: 0 at 1-4 ranks on these models; Adam
 * divides each gradient by its own running RMS, so a gradient that is rounding noise could move an
 * element by up to lr, 1e-3: none here). Each optimizer must move the parameters, each its own way.
 * A sharded rank must hold the state of its blocks and the remainders only (trainer_memory: less than
 * the parameters' on 2+ ranks, at most P / p + buckets · p elements, plus LAMB's 16 bytes per tensor);
 * with gradients sharded (and fully), the summed gradients too (as many elements as its state; backward
 * writes into a few bucket slots, trainer_gslots.c, each reused only after its bucket's reduce-scatter
 * is waited for: without that wait the gradient-sharded rows fail, 0.097 relative at 4 ranks); fully
 * sharded, the parameters too and some gathered slots (trainer_gather.c); all beside shard_mem's
 * formula. The parameters still equal the unsharded run's.
 * The CNN again in gemm mode (synthetic operands; SGD plain, no state), sharded the same ways.
 * Buckets of 1 KiB (a first of 256 B), so several buckets with remainders. Run at 1-4 ranks.
 * No batch norm in the CNN: on the synthetic image a channel can be near constant, and BN's
 * 1/std then magnifies the reordered sums' last-bit differences past any fixed tolerance. */
#include "ddl.h"
#include "engine.h"
#include "model.h"
#include "shard_mem.h"
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

/* Three steps of model m sharded (SHARD_*) or not with optimizer optim; the parameters into *out (malloc'd).
 * 0, or 1. */
static int train(const model *m, ddl_ctx *ctx, int shard, int full, int optim, float **out, size_t *n)
{
    step_config sc = { 1024, 256, 0, optim == OPTIM_SGD ? 0.05f : 1e-3f, 0, KERN_PREC_FP32, full, 0.0, 0,
                       { 0, 0, 0, 0, 0, 0 }, NULL, 0, shard, DDL_FLOAT32, optim };
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
        double pb, ab, gb, sb, k = optim != OPTIM_SGD ? 8 : full ? 4 : 0;
        double norms = optim == OPTIM_LAMB ? 16.0 * model_tensor_count(m) : 0;
        trainer_memory(t, &pb, &ab, &gb, &sb);
        size_t want = *n, most = *n / (size_t)size + (size_t)trainer_buckets(t) * (size_t)size;
        int ok = k == 0                    ? sb == 0 /* gemm mode: plain SGD */
                 : shard == 0 || size == 1 ? sb == (double)want * k + norms
                                           : sb - norms < (double)want * k && sb - norms <= (double)most * k;
        int gathered = shard == 3 && size > 1, gslots = shard >= 2 && size > 1; /* the shards, and the slots */
        double whole = (double)*n * 4, mine = (k ? (sb - norms) / k : 0) * 4; /* the state's elements, in bytes */
        ok = ok && (gslots ? gb < whole && (k == 0 || gb == mine) && ab > 0 : gb == whole) &&
             (gathered ? (k == 0 || pb == mine) && pb < whole : pb == whole && (gslots || ab == 0));
        if (getenv("SHARD_TRAIN_VERBOSE") && rank == 0)
            printf("p=%d shard %d %s: params %.0f gathered %.0f grads %.0f state %.0f\n", size, shard,
                   optim_name(optim), pb, ab, gb, sb);
        CHECK(ok, "p=%d shard %d %s: %.0f bytes of parameters, %.0f gathered, %.0f of state for %zu parameters",
              size, shard, optim_name(optim), pb, ab, sb, *n);
        /* beside the model's formula (shard_mem.h): the shard is ceil(P / p); the trainer's, per bucket its
         * block and the remainder every rank keeps: more by at most buckets · p elements */
        shard_bytes f;
        double slack = 4.0 * trainer_buckets(t) * size;
        CHECK(shard_mem((long long)*n, 0, shard, optim, PREC_FP32, size, &f) == 0 && fabs(pb - f.params) <= slack &&
                  fabs(gb - f.grads) <= slack &&
                  (k == 0 || fabs(sb - norms - f.state * k / optim_state_bytes(optim, PREC_FP32)) <= slack * k / 4),
              "p=%d shard %d %s: allocated parameters %.0f, gradients %.0f, state %.0f; the formula's %.0f, %.0f, %.0f",
              size, shard, optim_name(optim), pb, gb, sb, f.params, f.grads, f.state);
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
    float *ref[OPTIM_KINDS] = { NULL };
    size_t nref = 0;
    for (int k = 0; k < OPTIM_KINDS; k++) {
        float *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        for (int mode = 1; mode <= 3 && (a || !train(m, ctx, 0, full, k, &a, &na)); mode++) { /* optimizer .. full */
            if (train(m, ctx, mode, full, k, &b, &nb)) break;
            double worst = 0;
            for (size_t i = 0; i < na && na == nb; i++)
                worst = fmax(worst, fabs((double)a[i] - b[i]) / fmax(fabs((double)a[i]), 1e-3));
            int bad = na != nb || worst > 1e-5, any;
            MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
            CHECK(!any, "p=%d %s %s shard %d compute %s %s: sharded parameters differ by %.3g relative", size, algo,
                  text == xf ? "transformer" : "cnn", mode, full ? "full" : "gemm", optim_name(k), worst);
            if (rank == 0 && getenv("SHARD_TRAIN_VERBOSE"))
                printf("p=%d %s %s shard %d %s %s: worst %.3g\n", size, algo, text == xf ? "xf" : "cnn", mode,
                       full ? "full" : "gemm", optim_name(k), worst);
            free(b), b = NULL;
        }
        ref[k] = a, nref = na;
        free(b);
    }
    /* each optimizer moved the parameters from their fill (step_mem.c), each its own way */
    for (int k = 0; k < OPTIM_KINDS && ref[k]; k++) {
        size_t moved = 0, other = 0;
        for (size_t i = 0; i < nref; i++) {
            moved += ref[k][i] != 0.01f * (float)((int)(i % 13) - 6);
            other += ref[(k + 1) % OPTIM_KINDS] && ref[k][i] != ref[(k + 1) % OPTIM_KINDS][i];
        }
        CHECK(full ? moved > nref / 2 && other > nref / 2 : moved > 0, "%s %s compute %s: %zu of %zu parameters "
              "moved, %zu differ from %s's", text == xf ? "transformer" : "cnn", optim_name(k), full ? "full" : "gemm",
              moved, nref, other, optim_name((k + 1) % OPTIM_KINDS));
    }
    for (int k = 0; k < OPTIM_KINDS; k++) free(ref[k]);
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
