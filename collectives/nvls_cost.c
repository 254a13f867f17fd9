/* nvls_cost.c — the alpha-beta-gamma cost of the nvls row (allreduce_nvls.c) on a ddl_machine (ddl.h).
 *
 * The run's rounds, one at a time: round r posts stage 0 of chunk r, 1 of r - 1, 2 of r - 2 and 3 of
 * r - 3 (r - 1 on one node) and waits for all, so T = Σ_r τ_r,
 *   τ_r = α_r + max( a rank's link up, and down: Σ bytes / its rate,
 *                    a rail NIC up, and down: Σ bytes of its g/nics ranks / its rate )
 *         + γ · the bytes the rank reduces (after the round's messages, as the run does),
 * α_r the largest latency among the round's stages (intra_lat for 0 and 3, inter_lat, or spine_lat past
 * one leaf, for 1 and 2). For a chunk of x bytes of the rank's block, on g ranks a node and N nodes:
 *                    link up           link down         NIC up        NIC down      reduced
 *   no switch  0     (g-1)x            (g-1)x            -             -             (g-1)x
 *              1     (N-1)x/N          (N-1)x/N          (N-1)x/N      (N-1)x/N      (N-1)x/N
 *              2     (N-1)x/N          (N-1)x/N          (N-1)x/N      (N-1)x/N      -
 *              3     (g-1)x            (g-1)x            -             -             -
 *   NVLS       0     g·x               x                 -             -             -   (the switch reads
 *              3     x                 g·x               -             -             -    every part, own too)
 *   IB SHARP   1     x                 -                 x             -             -
 *              2     -                 x                 -             x             -
 * A rank's link moves at intra_bw, or at nvls_bw for the NVLS stages (its messages to other nodes cross
 * it too, as the simulated platform routes them); a rail NIC at nic_bw / nics, or min(that, sharp_bw)
 * with SHARP; the switches' reductions are in their rates. The chunk is the run's: the segment the
 * context would get from these links (coll_link_segment), or 1/4 of a block a round of fill if less. Leaf
 * uplinks are taken as non-blocking (the presets' are).
 * With SHARP the network's stages are the switch's transfers: τ_r = max(intra_lat + the link's time, α_out +
 * the NIC's), each path's latency before its bytes, as SimGrid runs them, + γ · the bytes the rank reduces
 * (none with NVLS too; without it, NCCL's CollNet shape, the node's reduce-scatter is still the ranks').
 * On a machine without nvls_bw and sharp_bw this prices what MPI does; with them, the switches' traffic,
 * which the simulation runs as transfers to and from switch hosts (collectives/switch.h);
 * tests/sim_model.sh holds no switch, NVLS, and NVLS with SHARP against SimGrid. SHARP without NVLS is not
 * held: there the model is 17-21% under SimGrid (docs/BENCHMARKS.md, review branch; cause not settled). */
#include "coll.h"
#include "partition.h"

#include <math.h>

#define NV_CHUNKS 4 /* allreduce_nvls.c's: at least this many chunks a block per round of fill, where the segment
                       allows */

typedef struct nv_load { double up, dn, nic_up, nic_dn, red; } nv_load;

/* Stage st of a chunk of x bytes added to ld; sw: NVLS, sh: SHARP. */
static void nv_stage_load(nv_load *ld, int st, double x, int g, int nodes, int sw, int sh, double *nvls_up,
                          double *nvls_dn)
{
    const double share = (double)(nodes - 1) / nodes * x;
    if (st == 0 || st == 3) {
        const double out = sw ? (st == 0 ? g * x : x) : (g - 1) * x, in = sw ? (st == 0 ? x : g * x) : (g - 1) * x;
        if (sw) *nvls_up += out, *nvls_dn += in;
        else ld->up += out, ld->dn += in;
        if (st == 0 && !sw) ld->red += (g - 1) * x;
        return;
    }
    const double out = sh ? (st == 1 ? x : 0) : share, in = sh ? (st == 2 ? x : 0) : share;
    ld->up += out, ld->dn += in, ld->nic_up += out, ld->nic_dn += in;
    if (st == 1 && !sh) ld->red += share;
}

int coll_nvls_cost(const ddl_machine *m, const coll_shape *sh_, double bytes, double *seconds)
{
    const int g = m->ranks_per_node, nodes = m->ranks / g, nics = m->nics > 1 ? m->nics : 1;
    const int sw = m->nvls_bw > 0 && g > 1, sh = m->sharp_bw > 0 && nodes > 1;
    const double rail = m->nic_bw / nics, rail_bw = sh ? fmin(rail, m->sharp_bw) : rail;
    const double a_out = m->leaf_nodes > 0 && nodes > m->leaf_nodes && m->spine_lat > 0 ? m->spine_lat : m->inter_lat;
    const long lag3 = nodes > 1 ? 3 : 1;
    const double block = bytes / g, c = fmin((double)(coll_link_segment(m, COLL_DEFAULT_SEGMENT) & ~(size_t)7),
                                             fmax(ceil(block / (NV_CHUNKS * lag3)), 1));
    const long K = block > 0 ? (long)ceil(block / c) : 0;
    (void)sh_;
    *seconds = 0;
    if (m->ranks == 1 || bytes <= 0) return 0;
    for (long r = 0; r < K + lag3; r++) {
        nv_load ld = { 0 };
        double nv_up = 0, nv_dn = 0, alpha = 0, a_in = 0, a_net = 0;
        for (int st = 0; st < 4; st++) {
            const long k = r - (st == 3 ? lag3 : st);
            if (k < 0 || k >= K || (nodes == 1 && (st == 1 || st == 2))) continue;
            const double x = fmin(c, block - (double)k * c);
            nv_stage_load(&ld, st, x, g, nodes, sw, sh, &nv_up, &nv_dn);
            if (st == 0 || st == 3) a_in = g > 1 ? m->intra_lat : 0;
            else a_net = a_out;
            alpha = fmax(a_in, a_net);
        }
        const double t_link = fmax(ld.up / m->intra_bw + (sw ? nv_up / m->nvls_bw : 0),
                                   ld.dn / m->intra_bw + (sw ? nv_dn / m->nvls_bw : 0));
        const double t_nic = fmax(ld.nic_up, ld.nic_dn) * (g / nics) / rail_bw;
        if (sh) /* the switches' transfers: each path its own latency then its bytes */
            *seconds += fmax(a_in + t_link, a_net + t_nic) + m->gamma * ld.red;
        else *seconds += alpha + fmax(t_link, t_nic) + m->gamma * ld.red; /* reductions follow the messages */
    }
    return 0;
}
