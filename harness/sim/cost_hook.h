/* cost_hook.h — the analytic model (perf_cost.h) as the cost model of libddl's `auto` algorithm:
 * the platform preset of the machine the ranks run on, its shape (ranks / gpus per node nodes), and
 * γ from the device profile. */
#ifndef HARN_COST_HOOK_H
#define HARN_COST_HOOK_H

#include "perf_cost.h"

#include <stddef.h>

typedef struct cost_hook {
    platform pf;   /* the platform at this job's shape (m points into it: its direct links) */
    ddl_machine m; /* the preset at this job's shape, and gamma (s per byte reduced) */
} cost_hook;

/* 0, or 2 with a one-line message (unknown preset, ranks not a multiple of gpus_per_node). */
int cost_hook_init(cost_hook *h, const char *preset, int ranks, int gpus_per_node, double gamma, char *err,
                   size_t errlen);
/* A ddl_cost_fn (ddl.h): arg is a cost_hook; ddl_machine_cost on its machine. */
double cost_hook_fn(void *arg, const char *algo, const char *grid, const char *patterns, size_t bytes);

#endif
