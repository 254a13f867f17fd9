/* test_pmpi_route.c — the PMPI interposer's routing decision (interpose/route.c), a pure function:
 * datatype and op mapping, every reason a call stays with MPI, the threshold's edge, the halves'
 * need for DDL_ALGO_RSAG, and DDL_MPI_THRESHOLD's size parser. No MPI call. */
#include "route.h"
#include "test.h"

#include <ddl.h>

static int route(dmpi_coll coll, int dtype, int op, size_t bytes, size_t thr, unsigned flags, const char **why)
{
    const dmpi_call c = { coll, dtype, op, bytes, thr, flags };
    return dmpi_route(&c, why);
}

static void mapping(void)
{
    size_t w = 9;
    CHECK(dmpi_reduce_dtype(MPI_FLOAT) == DDL_FLOAT32, "MPI_FLOAT");
    CHECK(dmpi_reduce_dtype(MPI_DOUBLE) == DDL_FLOAT64, "MPI_DOUBLE");
    CHECK(dmpi_reduce_dtype(MPI_INT) == DDL_INT32 && dmpi_reduce_dtype(MPI_INT32_T) == DDL_INT32, "int");
    CHECK(dmpi_reduce_dtype(MPI_LONG) < 0 && dmpi_reduce_dtype(MPI_INT64_T) < 0, "no int64 reduction");
    CHECK(dmpi_reduce_dtype(MPI_CHAR) < 0 && dmpi_reduce_dtype(MPI_DATATYPE_NULL) < 0, "char, null");
    CHECK(dmpi_move_dtype(MPI_FLOAT, &w) == DDL_INT32 && w == 1, "gather float as one word");
    CHECK(dmpi_move_dtype(MPI_INT64_T, &w) == DDL_INT32 && w == 2, "gather int64 as two words");
    CHECK(dmpi_move_dtype(MPI_DOUBLE, &w) == DDL_INT32 && w == 2, "gather double as two words");
    CHECK(dmpi_move_dtype(MPI_SHORT, &w) < 0 && w == 0, "gather short: MPI");
    CHECK(dmpi_move_dtype(MPI_BYTE, &w) < 0, "gather bytes: MPI");
    CHECK(dmpi_op(MPI_SUM) == DDL_SUM && dmpi_op(MPI_MAX) == DDL_MAX && dmpi_op(MPI_MIN) == DDL_MIN, "ops");
    CHECK(dmpi_op(MPI_PROD) < 0 && dmpi_op(MPI_BAND) < 0 && dmpi_op(MPI_MAXLOC) < 0, "other predefined ops");
    CHECK(dmpi_op(MPI_OP_NULL) < 0, "null op");
}

static void decision(void)
{
    const size_t t = 65536;
    const unsigned rsag = DDL_ALGO_RSAG | DDL_ALGO_AUTO;
    const char *why = NULL;
    CHECK(route(DMPI_ALLREDUCE, DDL_FLOAT32, DDL_SUM, t, t, rsag, &why) && !strcmp(why, "libddl"), "at threshold");
    CHECK(!route(DMPI_ALLREDUCE, DDL_FLOAT32, DDL_SUM, t - 1, t, rsag, &why) && strstr(why, "threshold"), "below");
    CHECK(!route(DMPI_ALLREDUCE, DDL_FLOAT32, DDL_SUM, 0, 0, rsag, &why) && !strcmp(why, "empty"), "empty");
    CHECK(route(DMPI_ALLREDUCE, DDL_INT32, DDL_MIN, 1, 0, 0, NULL), "threshold 0: one element");
    CHECK(!route(DMPI_ALLREDUCE, -1, DDL_SUM, 1 << 20, t, rsag, &why) && strstr(why, "datatype"), "type");
    CHECK(!route(DMPI_ALLREDUCE, DDL_DTYPE_COUNT, DDL_SUM, 1 << 20, t, rsag, NULL), "type out of range");
    CHECK(!route(DMPI_ALLREDUCE, DDL_FLOAT64, -1, 1 << 20, t, rsag, &why) && strstr(why, "op"), "user op");
    CHECK(!route(DMPI_REDUCE_SCATTER, DDL_FLOAT64, -1, 1 << 20, t, rsag, NULL), "reduce-scatter user op");
    CHECK(route(DMPI_ALLGATHER, DDL_INT32, -1, 1 << 20, t, rsag, NULL), "a gather has no op");
    CHECK(route(DMPI_REDUCE_SCATTER, DDL_FLOAT32, DDL_MAX, 1 << 20, t, rsag, NULL), "reduce-scatter");
    CHECK(!route(DMPI_REDUCE_SCATTER, DDL_FLOAT32, DDL_MAX, 1 << 20, t, DDL_ALGO_AUTO, &why) &&
              strstr(why, "reduce-scatter"), "an algorithm without the halves");
    CHECK(!route(DMPI_ALLGATHER, DDL_INT32, -1, 1 << 20, t, 0, NULL), "allgather without the halves");
    CHECK(route(DMPI_ALLREDUCE, DDL_FLOAT32, DDL_SUM, 1 << 20, t, 0, NULL), "allreduce needs no halves");
    CHECK(!route(DMPI_COLL_COUNT, DDL_FLOAT32, DDL_SUM, 1 << 20, t, rsag, NULL), "unknown collective");
}

static void sizes(void)
{
    size_t v = 0;
    CHECK(!dmpi_parse_size("65536", &v) && v == 65536, "65536");
    CHECK(!dmpi_parse_size("64K", &v) && v == 65536, "64K");
    CHECK(!dmpi_parse_size("64KiB", &v) && v == 65536 && !dmpi_parse_size("64KB", &v), "64KiB, 64KB");
    CHECK(!dmpi_parse_size("1M", &v) && v == 1 << 20 && !dmpi_parse_size("2G", &v) && v == (size_t)2 << 30, "M G");
    CHECK(!dmpi_parse_size("0", &v) && v == 0 && !dmpi_parse_size("7B", &v) && v == 7, "0, 7B");
    CHECK(dmpi_parse_size("", &v) && dmpi_parse_size("K", &v) && dmpi_parse_size("-1", &v), "empty, K, -1");
    CHECK(dmpi_parse_size("64Q", &v) && dmpi_parse_size("64 K", &v) && dmpi_parse_size("1.5M", &v), "junk");
    CHECK(dmpi_parse_size("7iB", &v) && dmpi_parse_size("64KBB", &v), "iB without a unit, BB");
    CHECK(dmpi_parse_size("1048577G", &v) && !dmpi_parse_size("1048576G", &v), "at most 2^50");
    CHECK(dmpi_parse_size("99999999999999999999999", &v), "overflow");
}

int main(void)
{
    mapping();
    decision();
    sizes();
    return TEST_REPORT();
}
