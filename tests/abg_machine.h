/* abg_machine.h — a two-level ddl_machine in one call (the today's-cluster fields 0), for tests. */
#ifndef TEST_ABG_MACHINE_H
#define TEST_ABG_MACHINE_H

#include "ddl.h"

#include <string.h>

static inline ddl_machine abg_machine(int ranks, int ranks_per_node, double intra_lat, double intra_bw,
                                      double inter_lat, double nic_bw, double gamma)
{
    ddl_machine m;
    memset(&m, 0, sizeof m);
    m.ranks = ranks, m.ranks_per_node = ranks_per_node, m.intra_lat = intra_lat, m.intra_bw = intra_bw;
    m.inter_lat = inter_lat, m.nic_bw = nic_bw, m.gamma = gamma;
    return m;
}

#endif
