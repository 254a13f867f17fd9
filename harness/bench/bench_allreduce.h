/* bench_allreduce.h — options and runner of `ddlbench allreduce`, `reduce-scatter` and `allgather`
 * (cli_allreduce.c parses, bench_allreduce.c runs under MPI): one benchmark, the collective a field. */
#ifndef HARN_BENCH_ALLREDUCE_H
#define HARN_BENCH_ALLREDUCE_H

#include "ddl.h"

#include <stddef.h>

#define AR_MAX_ALGOS 16

/* The collective measured: the subcommand's name. */
typedef enum { BENCH_ALLREDUCE, BENCH_REDUCE_SCATTER, BENCH_ALLGATHER } bench_coll;
/* The placements timed (--place): the order of the choices in cli_allreduce.c. */
enum { BENCH_PLACE_BOTH, BENCH_PLACE_OUT, BENCH_PLACE_IN };

typedef struct bench_allreduce_opts {
    bench_coll coll;                    /* from argv[0]: allreduce, reduce-scatter or allgather */
    const char *cmd;                    /* its name, which starts every message */
    size_t min_bytes, max_bytes;        /* -b, -e */
    long factor;                        /* -f: next size = size * factor */
    const char *algos[AR_MAX_ALGOS];    /* -a: registered names (point into algo_buf or the registry) */
    int nalgos;
    char algo_buf[256];
    ddl_dtype dtype;                    /* -d */
    ddl_op op;                          /* -o */
    long warmup, iters;                 /* -w, -n */
    long copy_reps;                     /* --copy-reps: memcpy repetitions for the roofline */
    long timeout_s;                     /* --timeout: watchdog per iteration, 0 = off */
    int timeout_given;                  /* --timeout typed: exactly S per iteration, no per-byte allowance */
    int check;                          /* -c: verify every result */
    int device;                         /* --device gpu: device buffers, ddl_config.device = 1 (CUDA build) */
    const char *csv;                    /* --csv FILE or NULL */
    const char *json;                   /* --json FILE or NULL: the same rows as one JSON document */
    int per_rank;                       /* --per-rank: each rank's own times, the slowest rank, stragglers */
    int place;                          /* --place: BENCH_PLACE_BOTH, _OUT or _IN */
    const char *label;                  /* --label: name printed instead of the algorithm's */
    const char *profile;                /* --profile: device rates the simulation injects (γ); NULL = none */
    double gamma;                       /* the profile's γ, s per byte reduced (0 without --profile) */
    const char *platform;               /* --platform: the machine's links, or NULL */
    int gpn;                            /* --gpus-per-node (0 = the platform's) */
    struct cost_hook *hook;             /* set from --platform once MPI runs: machine and auto's cost */
    const struct run_meta *meta;        /* provenance lines written atop the CSV (meta.h), or NULL */
    int help;                           /* --help seen */
} bench_allreduce_opts;

/* Parses argv[1..argc) (argv[0] is the subcommand: allreduce, reduce-scatter or allgather). 0 ok, 2 bad
 * input with a one-line message in err. */
int bench_allreduce_parse(int argc, char **argv, bench_allreduce_opts *o, char *err, size_t errlen);
void bench_allreduce_usage(const bench_allreduce_opts *o);

/* Runs the sweep on MPI_COMM_WORLD (MPI initialised). 0 ok, 1 wrong results or a failure. */
int bench_allreduce_run(const bench_allreduce_opts *o);

#endif
