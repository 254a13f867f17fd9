/* calib_whole.c — the whole-message cost of `ddlbench calibrate --network` (issue 26; >= 2
 * real nodes): what a message sent whole between nodes costs beyond the same bytes in libddl's eager
 * pieces (platform key whole_ns), which the simulated `mpi` charges (allreduce_mpi_sim.c).
 * The links are calibrated with the pieces libddl sends between nodes (nodes.c); MPI's own collectives
 * send their halves and blocks whole, and above the transport's eager limit each is a rendezvous whose
 * acknowledgement can wait behind the data the node's other ranks are sending: on the emulated
 * cluster the whole exchange took longer than its pieces by about what the real `mpi` took against
 * the simulated one (measured: docs/BENCHMARKS.md, "Notes moved from code comments"). */
#include "calib_net.h"
#include "platform_file.h"
#include "sim.h"

#include <stdio.h>

void net_whole_cost(net_state *s, const double *n, int count, const double *tx, struct platform_fit *fit)
{
    double w[NET_MAX_SIZES], tw[NET_MAX_SIZES];
    int first = 0, nw = 0, used = 0;
    if (s->nodes < 2 || !s->piece) return; /* between real nodes only: elsewhere no pieces are cut */
    while (first < count && n[first] <= (double)s->piece) first++;
    while (first + nw < count && n[first + nw] <= (double)NET_WHOLE_MAX && nw + 1 < KERN_SIM_WS_POINTS) nw++;
    if (!nw) return;
    if (s->rank == 0)
        printf("# inter whole: the exchange as one message each way (MPI's own collectives), against pieces of %zu B\n",
               s->piece);
    net_sweep(s, LV_INTER, SW_WHOLE, n + first, nw, tw);
    for (int i = 0; i < nw; i++) {
        double extra = (tw[i] - tx[first + i]) / n[first + i];
        w[i] = extra > 0 ? extra : 0;
    }
    /* a message of one piece is sent alike both ways: no cost up to the piece */
    used = snprintf(fit->whole, sizeof fit->whole, "%zu:0", s->piece);
    for (int i = 0; i < nw; i++)
        used += snprintf(fit->whole + used, sizeof fit->whole - (size_t)used, ";%.0f:%.4g", n[first + i], w[i] * 1e9);
    if (s->rank == 0) printf("# whole-message cost between nodes: %s ns/B beyond the pieces\n", fit->whole);
}
