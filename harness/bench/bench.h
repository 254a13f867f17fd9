/* bench.h — pieces of the micro-benchmarks that need no MPI: summary statistics over timed
 * iterations, and self-checking test data (depends on rank and index, exact in every type). */
#ifndef HARN_BENCH_H
#define HARN_BENCH_H

#include "ddl.h"

#include <stddef.h>

typedef struct bench_stats {
    double median;  /* middle of the sorted times (mean of the two middles when n is even) */
    double min;
    double p99;     /* nearest rank: the ceil(0.99 n)-th smallest */
} bench_stats;

/* Sorts t[0..n) in place and summarises it; n >= 1. */
void bench_summarise(double *t, size_t n, bench_stats *out);

/* The value rank r contributes at index i: a small integer in [-6, 6], period 13 in i. */
int bench_value(int rank, size_t i);
/* buf[i] = bench_value(rank, i) for i < n, stored as dt. */
void bench_fill(ddl_dtype dt, void *buf, size_t n, int rank);
/* Elements of buf[0..n) that differ from the reduction over ranks 0..p-1 (op) of bench_value. */
size_t bench_check_result(ddl_dtype dt, ddl_op op, const void *buf, size_t n, int p);
/* Elements of buf[0..n) that differ from bench_value(rank, i) (the send buffer must be untouched). */
size_t bench_check_input(ddl_dtype dt, const void *buf, size_t n, int rank);

#endif
