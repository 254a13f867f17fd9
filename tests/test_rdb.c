/* test_rdb.c — recursive doubling (collectives/allreduce_rdb.c), the simulated `mpi`'s pick for
 * small vectors, run here on the real MPI: exact sums, maxima and minima of integer-valued data on
 * every rank count (folded ones too), in place and out of place, float32, float64 and int32, counts
 * from 1 element past the sizes the work buffer is grown to; the send buffer untouched; and a vector
 * of non-integer floats bitwise equal on every rank (each pair reduces the same two partial sums). */
#include "coll.h"
#include "test.h"

#include <stdint.h>

static int rank, size;

static double value(int r, size_t i) { return (double)((r + 1) * (int)(i % 13 + 1)); }

static double expect(kern_op op, size_t i)
{
    double e = op == KERN_SUM ? 0 : value(0, i);
    for (int r = 0; r < size; r++) {
        double x = value(r, i);
        e = op == KERN_SUM ? e + x : op == KERN_MAX ? (x > e ? x : e) : (x < e ? x : e);
    }
    return e;
}

static void put(kern_dtype dt, void *buf, size_t i, double x)
{
    if (dt == KERN_F32) ((float *)buf)[i] = (float)x;
    else if (dt == KERN_F64) ((double *)buf)[i] = x;
    else ((int32_t *)buf)[i] = (int32_t)x;
}

static double get(kern_dtype dt, const void *buf, size_t i)
{
    return dt == KERN_F32 ? ((const float *)buf)[i] : dt == KERN_F64 ? ((const double *)buf)[i]
                                                                       : ((const int32_t *)buf)[i];
}

static void check_one(ddl_ctx *ctx, kern_dtype dt, kern_op op, size_t n, int in_place, char *sbuf, char *rbuf)
{
    long wrong = 0, touched = 0;
    for (size_t i = 0; i < n; i++) {
        put(dt, sbuf, i, value(rank, i));
        put(dt, rbuf, i, in_place ? value(rank, i) : -7.0);
    }
    int rc = coll_allreduce_rdb(ctx, in_place ? rbuf : sbuf, rbuf, n, dt, op);
    for (size_t i = 0; i < n; i++) {
        wrong += get(dt, rbuf, i) != expect(op, i);
        touched += !in_place && get(dt, sbuf, i) != value(rank, i);
    }
    CHECK(rc == 0 && wrong == 0 && touched == 0,
          "rdb p=%d dtype %d op %d n=%zu %s: rc %d, %ld wrong, %ld inputs changed", size, (int)dt, (int)op, n,
          in_place ? "in place" : "out of place", rc, wrong, touched);
}

/* Non-integer floats: every rank ends with the same bits. */
static void check_same_bits(ddl_ctx *ctx, float *v, size_t n)
{
    unsigned long h = 0, lo, hi;
    for (size_t i = 0; i < n; i++) v[i] = 1.0f / (float)(rank + 3) + (float)i * 1e-3f;
    int rc = coll_allreduce_rdb(ctx, v, v, n, KERN_F32, KERN_SUM);
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &v[i], sizeof b);
        h = h * 1000003u + b;
    }
    MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
    CHECK(rc == 0 && lo == hi, "rdb p=%d: ranks disagree bitwise on non-integer floats (rc %d)", size, rc);
}

int main(int argc, char **argv)
{
    static const size_t counts[] = { 1, 3, 256, 1031, 70000 };
    static const kern_dtype dts[] = { KERN_F32, KERN_F64, KERN_I32 };
    ddl_config cfg = DDL_CONFIG_INIT;
    ddl_ctx *ctx = NULL;
    int counts_in[2], counts_all[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const size_t most = counts[sizeof counts / sizeof counts[0] - 1];
    char *sbuf = malloc(most * 8), *rbuf = malloc(most * 8);
    cfg.algo = "ring";
    int rc = sbuf && rbuf ? ddl_ctx_create(MPI_COMM_WORLD, &cfg, &ctx) : DDL_ERR_NOMEM;
    CHECK(rc == 0, "ddl_ctx_create: %d (%s)", rc, ddl_last_error());
    for (size_t c = 0; rc == 0 && c < sizeof counts / sizeof counts[0]; c++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            for (int op = KERN_SUM; op < KERN_OP_COUNT; op++)
                for (int place = 0; place < 2; place++)
                    check_one(ctx, dts[d], (kern_op)op, counts[c], place, sbuf, rbuf);
    if (rc == 0) check_same_bits(ctx, (float *)rbuf, 1031);
    ddl_ctx_free(ctx);
    free(sbuf);
    free(rbuf);
    counts_in[0] = test_passed, counts_in[1] = test_failed;
    MPI_Allreduce(counts_in, counts_all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    test_passed = counts_all[0], test_failed = counts_all[1];
    int status = 0;
    if (rank == 0) status = TEST_REPORT();
    MPI_Finalize();
    return status;
}
