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
    h->gamma = gamma;
    return platform_init(&h->pf, preset, ranks / gpus_per_node, gpus_per_node, err, errlen);
}

double cost_hook_fn(void *arg, const char *algo, const char *grid, const char *patterns, size_t bytes)
{
    const cost_hook *h = arg;
    cost_opts o = { grid, patterns, h->gamma };
    double seconds;
    char err[160];
    return model_cost(&h->pf, algo, (double)bytes, &o, &seconds, err, sizeof err) ? -1.0 : seconds;
}
