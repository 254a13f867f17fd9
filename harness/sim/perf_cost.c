/* perf_cost.c — the platform as a ddl_machine, and libddl's cost model behind it (perf_cost.h). */
#include "perf_cost.h"

#include <stdio.h>
#include <string.h>

void perf_machine(const platform *pf, double gamma, ddl_machine *m)
{
    memset(m, 0, sizeof *m);
    m->ranks = platform_ranks(pf);
    m->ranks_per_node = pf->gpus_per_node;
    m->intra_lat = pf->intra_lat;
    m->intra_bw = pf->intra_bw;
    m->inter_lat = pf->inter_lat;
    m->nic_bw = pf->nic_bw;
    m->gamma = gamma;
    m->sockets = pf->sockets, m->socket_bw = pf->socket_bw, m->socket_lat = pf->socket_lat;
    m->nics = pf->nics, m->leaf_nodes = pf->leaf_nodes, m->rail_leaves = pf->rail_leaves;
    m->oversub = pf->oversub, m->spine_lat = pf->spine_lat;
    m->nvls_bw = pf->nvls_bw, m->sharp_bw = pf->sharp_bw;
    if (platform_has_links(pf)) /* pf must outlive m (cost_hook keeps its own copy) */
        m->nvlinks = pf->links, m->nvlink_bw = pf->link_bw, m->host_bw = pf->host_bw, m->host_lat = pf->host_lat;
}

/* "mpi, ring, rhd, ddl": the registered algorithms with a cost model. */
static void costed_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ddl_algo_count() && used < len; i++)
        if (ddl_algo_flags(i) & DDL_ALGO_COST)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", ddl_algo_name(i));
}

int perf_cost(const platform *pf, const char *algo, double n, const cost_opts *o, double *seconds,
               char *err, size_t errlen)
{
    ddl_machine m;
    char names[128];
    perf_machine(pf, o ? o->gamma : 0, &m);
    int rc = ddl_algo_cost(algo, o ? o->grid : NULL, o ? o->patterns : NULL, &m, n, seconds);
    if (rc == DDL_ERR_ALGO) {
        costed_names(names, sizeof names);
        snprintf(err, errlen, "--algo: expected an algorithm with a cost model (%s), got \"%.32s\"", names,
                 algo ? algo : "");
    } else if (rc) { /* "grid: ..." and "patterns: ..." name their options */
        snprintf(err, errlen, "%s%s", rc == DDL_ERR_GRID ? "--" : "", ddl_last_error());
    }
    return rc ? 2 : 0;
}
