/* perf_cost.h — the analytic α-β-γ model of each allreduce algorithm on a platform (platform.h):
 * predicted seconds for n bytes on all the platform's ranks. The model (docs/SOURCES.md §5) is
 * libddl's (ddl_algo_cost in ddl.h; each algorithm file carries its own formula): this adapter only
 * turns a platform preset — α and β per link level, from the same table the SMPI XML is generated
 * from — and γ from the device profile into a ddl_machine. tests/sim_model.sh checks it against the
 * simulation, tests/test_cost.c by hand. */
#ifndef HARN_PERF_COST_H
#define HARN_PERF_COST_H

#include "ddl.h"
#include "platform.h"

typedef struct cost_opts {
    const char *grid;      /* ddl: "4x16x4"; NULL = derived as the library does (ranks per node x ...) */
    const char *patterns;  /* ddl: "ring,rhd,..." per dimension; NULL = ring */
    double gamma;          /* s per byte reduced (profile reduce_ns_per_byte x 1e-9); 0 = free */
} cost_opts;

/* The platform's GPUs as ranks of a ddl_machine, with gamma. */
void perf_machine(const platform *pf, double gamma, ddl_machine *m);

/* Predicted seconds for one allreduce of n bytes with a registered algorithm that has a cost model
 * (ddl_algo_flags: DDL_ALGO_COST) over all ranks of pf. Returns 0, or 2 with a one-line message
 * (unknown algorithm or one without a model, grid not matching). */
int perf_cost(const platform *pf, const char *algo, double n, const cost_opts *o, double *seconds,
               char *err, size_t errlen);

#endif
