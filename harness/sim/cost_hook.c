/* cost_hook.c — see cost_hook.h. */
#include "cost_hook.h"

#include <stdio.h>

int cost_hook_init(cost_hook *h, const char *preset, int ranks, int gpus_per_node, double gamma, char *err,
                   size_t errlen)
{
    if (gpus_per_node < 1 || ranks % gpus_per_node) {
        snprintf(err, errlen, "--gpus-per-node: expected a divisor of the %d ranks, got %d", ranks, gpus_per_node);
        return 2;
    }
    if (platform_init_partial(&h->pf, preset, ranks / gpus_per_node, gpus_per_node, err, errlen)) return 2;
    perf_machine(&h->pf, gamma, &h->m);
    return 0;
}

double cost_hook_fn(void *arg, const char *algo, const char *grid, const char *patterns, size_t bytes)
{
    cost_hook *h = arg;
    return ddl_machine_cost(&h->m, algo, grid, patterns, bytes);
}
