/* bench_data.c — self-checking data for the benchmarks, as in tests/test_allreduce.c and
 * tests/test_collectives.c: rank- and index-dependent small integers, so every type sums them exactly
 * and a block that lands in the wrong place or is reduced twice shows up as a wrong element. The
 * allreduce's repeat every 13 elements; the reduce-scatter's and allgather's (_at) hash the index. */
#include "bench.h"
#include "half.h"

#include <stdint.h>

#define RES 13 /* period of the data in the index */

int bench_value(int rank, size_t i) { return (int)(((size_t)rank * 5 + (i % RES) * 3) % RES) - 6; }

static void store(ddl_dtype dt, void *buf, size_t i, int v)
{
    switch (dt) {
    case DDL_FLOAT32: ((float *)buf)[i] = (float)v; break;
    case DDL_FLOAT64: ((double *)buf)[i] = v; break;
    case DDL_FLOAT16: ((uint16_t *)buf)[i] = kern_f32_to_f16((float)v); break;
    case DDL_BFLOAT16: ((uint16_t *)buf)[i] = kern_f32_to_bf16((float)v); break;
    default: ((int32_t *)buf)[i] = v; break;
    }
}

void bench_fill(ddl_dtype dt, void *buf, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++) store(dt, buf, i, bench_value(rank, i));
}

static double load(ddl_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case DDL_FLOAT32: return ((const float *)p)[i];
    case DDL_FLOAT64: return ((const double *)p)[i];
    case DDL_FLOAT16: return kern_f16_to_f32(((const uint16_t *)p)[i]);
    case DDL_BFLOAT16: return kern_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const int32_t *)p)[i];
    }
}

static int combine(ddl_op op, int acc, int v)
{
    return op == DDL_SUM ? acc + v : op == DDL_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
}

size_t bench_check_result(ddl_dtype dt, ddl_op op, const void *buf, size_t n, int p)
{
    double want[RES];
    size_t wrong = 0;
    for (size_t j = 0; j < RES; j++) {
        int acc = bench_value(0, j);
        for (int r = 1; r < p; r++) acc = combine(op, acc, bench_value(r, j));
        want[j] = acc;
    }
    for (size_t i = 0; i < n; i++) wrong += load(dt, buf, i) != want[i % RES];
    return wrong;
}

size_t bench_check_input(ddl_dtype dt, const void *buf, size_t n, int rank)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += load(dt, buf, i) != bench_value(rank, i);
    return wrong;
}

/* A multiplicative hash of g to 0..12: no period a block size could hit. */
static int hash13(size_t g) { return (int)((((uint64_t)g * 0x9E3779B97F4A7C15ull) >> 40) % RES); }

int bench_value_at(int rank, size_t g) { return (hash13(g) + rank * 5) % RES - 6; }

void bench_fill_at(ddl_dtype dt, void *buf, size_t n, int rank, size_t first)
{
    for (size_t i = 0; i < n; i++) store(dt, buf, i, bench_value_at(rank, first + i));
}

size_t bench_check_input_at(ddl_dtype dt, const void *buf, size_t n, int rank, size_t first)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += load(dt, buf, i) != bench_value_at(rank, first + i);
    return wrong;
}

size_t bench_check_reduced_at(ddl_dtype dt, ddl_op op, const void *buf, size_t n, int p, size_t first)
{
    double want[RES]; /* by hash13(g): the values depend on g only through it */
    size_t wrong = 0;
    for (int h = 0; h < RES; h++) {
        int acc = h - 6;
        for (int r = 1; r < p; r++) acc = combine(op, acc, (h + r * 5) % RES - 6);
        want[h] = acc;
    }
    for (size_t i = 0; i < n; i++) wrong += load(dt, buf, i) != want[hash13(first + i)];
    return wrong;
}
