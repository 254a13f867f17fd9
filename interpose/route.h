/* route.h — the interposer's pure decisions (route.c): which MPI call libddl takes, and the
 * parsing of its settings. No MPI call and no state: tests/test_pmpi_route.c covers every row. */
#ifndef DMPI_ROUTE_H
#define DMPI_ROUTE_H

#include <mpi.h>
#include <stddef.h>

typedef enum { DMPI_ALLREDUCE, DMPI_REDUCE_SCATTER, DMPI_ALLGATHER, DMPI_COLL_COUNT } dmpi_coll;

/* One call as the decision sees it. */
typedef struct dmpi_call {
    dmpi_coll coll;
    int dtype;               /* ddl_dtype, or -1: a type libddl does not have */
    int op;                  /* ddl_op, or -1: an op libddl does not have (unused by allgather) */
    size_t bytes;            /* the whole vector: count·size (allreduce), p·count·size (the halves) */
    size_t threshold;        /* DDL_MPI_THRESHOLD: bytes below it stay with MPI */
    unsigned algo_flags;     /* ddl_algo_flags() of DDL_ALGO's algorithm */
} dmpi_call;

/* The ddl_dtype of a reduction's datatype (MPI_FLOAT, MPI_DOUBLE, MPI_INT, MPI_INT32_T), or -1:
 * every other type, derived ones and duplicates of these included, stays with MPI. */
int dmpi_reduce_dtype(MPI_Datatype type);
/* A gather moves bytes: any of the fixed-size predefined types of 4 or 8 bytes goes as DDL_INT32
 * words, *words per element (1 or 2). Returns DDL_INT32 or -1. */
int dmpi_move_dtype(MPI_Datatype type, size_t *words);
/* The ddl_op of MPI_SUM, MPI_MAX, MPI_MIN, or -1 (user-defined and every other op). */
int dmpi_op(MPI_Op op);

/* 1: libddl takes the call; 0: MPI does, with *why (a static phrase) saying why. */
int dmpi_route(const dmpi_call *c, const char **why);

/* "65536", "64K", "64KiB", "1M", "1MB", "2G" (powers of 1024) -> bytes. 0 or -1 (not a size, or
 * above 2^50). */
int dmpi_parse_size(const char *s, size_t *out);

#endif
