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

/* A row is noisy when its p99 exceeds BENCH_NOISY_P99 times its median, or its min is under the
 * median over BENCH_NOISY_P99: iterations that far apart within one run mean the medians of separate
 * runs can differ as much (a shared node, a busy network), so the row carries a mark (allreduce --help). */
#define BENCH_NOISY_P99 2.0
int bench_noisy(const bench_stats *st);

/* Per-rank timing: how far the slowest of p ranks' own times (each rank's median) lags the others.
 * A rank is a straggler when its time exceeds the median of the ranks by more than
 * BENCH_STRAGGLER_MADS median absolute deviations AND by more than BENCH_STRAGGLER_FLOOR of that median:
 * the MAD rule alone flags noise when the ranks agree closely (MAD ~ 0: simulation, a quiet node, 3 ranks
 * with 2 alike), the floor alone misses a lag that is large against a wide spread. The rule needs
 * BENCH_STRAGGLER_MIN_RANKS ranks: at 2 both sit one MAD from their mean, so nothing could be flagged;
 * there the outputs say "not judged" (CSV: NA) rather than "none". */
#define BENCH_STRAGGLER_MIN_RANKS 3
#define BENCH_STRAGGLER_MADS 2.0
#define BENCH_STRAGGLER_FLOOR 0.10
typedef struct bench_ranks {
    double median;   /* median over ranks of t */
    double mad;      /* median over ranks of |t - median| */
    int slowest;     /* rank with the largest t (the lowest such rank on ties) */
    double lag;      /* t[slowest] - median */
    int stragglers;  /* ranks flagged by bench_rank_straggler */
    int judged;      /* p >= BENCH_STRAGGLER_MIN_RANKS: the rule can flag (else stragglers is 0, not judged) */
} bench_ranks;
/* Summarises t[0..p) (one time per rank; p >= 1; t is not modified). 0, or -1 out of memory. */
int bench_rank_spread(const double *t, int p, bench_ranks *out);
/* 1 if a rank's time t is a straggler's against r. */
int bench_rank_straggler(const bench_ranks *r, double t);
/* A stragglers cell: n as text, or "NA" where r was not judged (fewer than 3 ranks). buf: 16 bytes. */
const char *bench_stragglers_cell(const bench_ranks *r, int n, char *buf);
/* The end of the "stragglers:" line where none was flagged: " none", or why none could be. */
const char *bench_stragglers_none(const bench_ranks *r);

/* The value rank r contributes at index i: a small integer in [-6, 6], period 13 in i. */
int bench_value(int rank, size_t i);
/* buf[i] = bench_value(rank, i) for i < n, stored as dt. */
void bench_fill(ddl_dtype dt, void *buf, size_t n, int rank);
/* Elements of buf[0..n) that differ from the reduction over ranks 0..p-1 (op) of bench_value. */
size_t bench_check_result(ddl_dtype dt, ddl_op op, const void *buf, size_t n, int p);
/* Elements of buf[0..n) that differ from bench_value(rank, i) (the send buffer must be untouched). */
size_t bench_check_input(ddl_dtype dt, const void *buf, size_t n, int rank);

/* Reduce-scatter and allgather data: what rank r holds at index g of the whole p·count vector, a
 * small integer in [-6, 6] from a hash of g and r, without a period in g, so a block that lands in
 * another block's place shows even when count is a multiple of 13. */
int bench_value_at(int rank, size_t g);
/* buf[i] = bench_value_at(rank, first + i) for i < n, stored as dt. */
void bench_fill_at(ddl_dtype dt, void *buf, size_t n, int rank, size_t first);
/* Elements of buf[0..n) that differ from bench_value_at(rank, first + i). */
size_t bench_check_input_at(ddl_dtype dt, const void *buf, size_t n, int rank, size_t first);
/* Elements of buf[0..n) that differ from the reduction (op) over ranks 0..p-1 of bench_value_at(r, first + i). */
size_t bench_check_reduced_at(ddl_dtype dt, ddl_op op, const void *buf, size_t n, int p, size_t first);

#endif
