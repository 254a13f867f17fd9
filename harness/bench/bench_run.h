/* bench_run.h — what the sweep of bench_allreduce.c and its rank-0 output (bench_report.c) share:
 * the run's state, one result row, and the size arithmetic of the three collectives. Private to
 * harness/bench/. */
#ifndef HARN_BENCH_RUN_H
#define HARN_BENCH_RUN_H

#include "bench.h"
#include "bench_allreduce.h"

#include <stdio.h>

typedef struct ar_state {
    const bench_allreduce_opts *o;
    int rank, size;
    ddl_ctx *ctx[AR_MAX_ALGOS];
    void *sbuf, *rbuf;
    void *ds, *dr;             /* what ddl_allreduce moves: sbuf, rbuf or (--device gpu) their device twins */
    double *t, *tmax;          /* per-iteration times: this rank's, the maximum over ranks */
    FILE *csv;                 /* rank 0, --csv or --json: the CSV text, in memory (csv_text) */
    char *csv_text;
    size_t csv_len;
    double *ranks;             /* rank 0, --per-rank: median, min, p99 of each rank's own times */
    long wrong_total;
    long iteration;            /* over the whole sweep: the DDL_FAULT_INJECT step */
} ar_state;

typedef struct ar_row {
    size_t bytes, count;
    const char *algo, *place;
    bench_stats st;            /* seconds */
    double copy_GBps;
    long wrong;
    const double *ranks;       /* --per-rank: 3 per rank (median, min, p99), else NULL */
} ar_row;

static inline double gbps(size_t bytes, double sec) { return sec > 0 ? (double)bytes / sec / 1e9 : 0.0; }
static inline const char *op_name(const bench_allreduce_opts *o)
{
    return o->coll == BENCH_ALLGATHER ? "none" : ddl_op_name(o->op);
}

/* nccl-tests' bus bandwidth factor: 2(p-1)/p for the allreduce, (p-1)/p for the other two. */
static inline double bus_factor(const bench_allreduce_opts *o, int p)
{
    return (o->coll == BENCH_ALLREDUCE ? 2.0 : 1.0) * (p - 1) / p;
}

/* Rank 0 only (bench_report.c): the table's header; one row on stdout and in the CSV text (with
 * --per-rank its spread line and rank rows); the CSV text opened in memory with its provenance and
 * column names (0, or 1 out of memory); and closed, writing --csv and --json whole when ok (0 or 1). */
void bench_print_header(const ar_state *s);
void bench_emit_row(ar_state *s, const ar_row *r);
int bench_open_csv(ar_state *s);
int bench_close_csv(ar_state *s, int ok);

#endif
